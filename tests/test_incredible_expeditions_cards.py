"""Incredible Expeditions: Quest for Atlantis cards, run through the real pipeline.

Each test loads ``generated/incredible_expeditions/`` (run ``cardc build`` first) with
``engine.loader.new_game``, so the handlers under test are the ones ``cardc`` generated from
``cards/incredible_expeditions/*.cards``, bound to ``engine.games.incredible_expeditions``.
Dice and decisions are scripted: a roll or a question the script does not expect fails the
test, and so does a scripted die or answer left unused. Quoted sentences are from the rulebook
(``incredible-expeditions-atlantis.txt``). Sea Serpent and Misty Strait are the example cards
of cards.cards (marked @provisional there): the rulebook names no Encounter and no Location
between Port City and Atlantis.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from engine.games.incredible_expeditions import (
    EXPECT,
    GIVEN,
    HALF_BUBBLE_QUESTION,
    Difficulty,
    IncredibleExpeditions,
    ways_to_meet,
)
from engine.loader import new_game
from engine.runtime import Player, RuleError, Scripted

GENERATED = Path(__file__).resolve().parent.parent / "generated" / "incredible_expeditions"

PILOT_QUESTION = "pilot.entering_location.exhaust"


def game(
    *answers: tuple[str | None, str], dice: tuple[int, ...] = (), players: int = 2
) -> IncredibleExpeditions:
    """A fresh game laid out Port City -> Misty Strait -> Drowned City, scripted throughout."""
    g = new_game(GENERATED, players=players, policies={-1: Scripted(answers)})
    assert isinstance(g, IncredibleExpeditions)
    g.scripted_dice = list(dice)
    GIVEN["locations"](g, None, ["misty_strait"])
    return g


def script_used(g: IncredibleExpeditions) -> bool:
    """Every scripted die rolled and every scripted answer asked for."""
    policy = g.policies[-1]
    assert isinstance(policy, Scripted)
    return g.scripted_dice == [] and policy.used == len(policy.answers)


def tokens(player: Player, heroism: int = 0, skullduggery: int = 0, money: int = 0) -> None:
    """The player's Heroism, Skullduggery and Money tokens."""
    player.counters.update(heroism=heroism, skullduggery=skullduggery, money=money)


def at(g: IncredibleExpeditions, player: Player, location: str) -> None:
    """Put the player's ship at ``location``."""
    GIVEN["location"](g, player, location)


# -- setup ---------------------------------------------------------------------------------


def test_each_starting_deck_holds_ten_marks_of_credit_among_fifteen_cards() -> None:
    g = game()
    # "Hand one of the Starting Resource decks of 15 cards to each player ... Each deck should
    # have 10 Marks of Credit, and 1 each of Bribery, Supplies, Strange Tincture, Fame and
    # Notoriety."
    for player in g.players:
        cards = Counter(player.zones["resource_deck"] + player.zones["hand"])
        assert sum(cards.values()) == 15
        assert cards == Counter(
            {
                "marks_of_credit": 10,
                "bribery": 1,
                "supplies": 1,
                "strange_tincture": 1,
                "fame": 1,
                "notoriety": 1,
            }
        )


def test_each_player_draws_a_hand_of_five() -> None:
    g = game()
    # "Each player draws a hand of 5 cards ... from their Starting Resource deck."
    for player in g.players:
        assert len(player.zones["hand"]) == 5
        assert len(player.zones["resource_deck"]) == 10


def test_every_ship_starts_at_port_city() -> None:
    g = game()
    # "Everyone chooses their character ... and puts their ship on Port City."
    assert [EXPECT["location"](g, p) for p in g.players] == ["port_city", "port_city"]
    assert g.board["locations"] == ["port_city", "misty_strait", "drowned_city_of_atlantis"]


def test_setup_needs_four_locations_between() -> None:
    g = new_game(GENERATED, players=2)
    assert isinstance(g, IncredibleExpeditions)
    # "Shuffle the rest of the Locations and place 4 of them between Port City and the Drowned
    # City of Atlantis": the card data holds one example Location, so setup says so.
    with pytest.raises(RuleError, match="places 4 Locations"):
        g.lay_out_locations()


# -- the Pilot -----------------------------------------------------------------------------


def test_pilot_exhausted_on_entering_ignores_the_location_text() -> None:
    g = game((PILOT_QUESTION, "yes"))
    player = g.players[0]
    g.hire_crew(player, "pilot")
    tokens(player, money=3)
    at(g, player, "misty_strait")
    g.enter_location(player)
    # FAQ: "Exhaust the Pilot as the first thing you do when entering a new Location to ignore
    # the text there." Misty Strait's "When entering" text (lose 1 Money) does not apply.
    assert player.counters["money"] == 3
    assert EXPECT["exhausted"](g, player) == [1]
    assert script_used(g)


def test_location_text_applies_when_the_pilot_is_not_used() -> None:
    g = game((PILOT_QUESTION, "no"))
    player = g.players[0]
    g.hire_crew(player, "pilot")
    tokens(player, money=3)
    at(g, player, "misty_strait")
    g.enter_location(player)
    # Step 4 of Venturing Forth: "Perform any actions described by the text on the Location".
    assert player.counters["money"] == 2
    assert EXPECT["exhausted"](g, player) == []
    assert script_used(g)


def test_an_exhausted_pilot_cannot_be_used_until_refreshed() -> None:
    g = game((PILOT_QUESTION, "yes"), (PILOT_QUESTION, "yes"))
    player = g.players[0]
    g.hire_crew(player, "pilot")
    tokens(player, money=5)
    at(g, player, "misty_strait")
    g.enter_location(player)
    assert player.counters["money"] == 5
    # Exhausted, the Pilot is not offered (an unscripted question would fail here) and the
    # text applies.
    policy = g.policies[-1]
    assert isinstance(policy, Scripted)
    asked = policy.used
    g.enter_location(player)
    assert policy.used == asked
    assert player.counters["money"] == 4
    # "On a Rest Turn you refresh your crew": Refreshed, the Pilot can be Exhausted again.
    g.refresh_crew(player)
    g.enter_location(player)
    assert player.counters["money"] == 4
    assert script_used(g)


def test_exhausting_an_exhausted_crew_is_refused() -> None:
    g = game()
    player = g.players[0]
    g.hire_crew(player, "pilot")
    g.exhaust_cabin(player, 1)
    with pytest.raises(RuleError, match="already Exhausted"):
        g.exhaust_cabin(player, 1)


def test_a_lost_pilot_does_not_answer() -> None:
    g = game()
    player = g.players[0]
    g.hire_crew(player, "pilot")
    player.flags["cabins"][0] = None
    player.zones["lost_crew"].append("pilot")
    tokens(player, money=2)
    at(g, player, "misty_strait")
    g.enter_location(player)
    # Lost Crew are "under your Expedition Leader card", not aboard: nothing is asked.
    assert player.counters["money"] == 1
    assert script_used(g)


def test_venturing_forth_uses_the_pilot_before_facing_the_first_encounter() -> None:
    g = game((PILOT_QUESTION, "yes"))
    player = g.players[0]
    g.hire_crew(player, "pilot")
    tokens(player, heroism=5, money=2)
    GIVEN["encounter_deck"](g, None, ["sea_serpent"])
    assert g.venture_forth(player)
    # Steps 2-5: move, flip, the Location's text (ignored by the Pilot), then "Face the first
    # Encounter at the new Location".
    assert EXPECT["location"](g, player) == "misty_strait"
    assert "misty_strait" in g.board["discovered"]
    assert player.counters["money"] == 2
    assert player.zones["defeated_encounters"] == ["sea_serpent"]
    assert script_used(g)


# -- Venturing Forth and winning ---------------------------------------------------------------


def test_port_city_needs_no_defeated_encounter_to_venture_forth() -> None:
    g = game()
    player = g.players[0]
    # "If you have enough defeated Encounters to meet the total on your current Location card
    # (which, for Port City is 0) you may Venture Forth".
    assert g.encounters_needed("port_city") == 0
    assert player.zones["defeated_encounters"] == []
    assert g.can_venture_forth(player)


def test_without_enough_defeated_encounters_a_ship_may_only_go_back() -> None:
    g = game()
    player = g.players[0]
    at(g, player, "misty_strait")
    assert not g.can_venture_forth(player)
    with pytest.raises(RuleError, match="needs 1 to Venture Forth"):
        g.venture_forth(player)
    # "If you do not have enough defeated Encounters at your current Location, you may only
    # Venture Forth to an adjacent Location that is no closer to Atlantis."
    tokens(player, heroism=5, money=1)
    GIVEN["encounter_deck"](g, None, ["sea_serpent"])
    g.venture_forth(player, closer=False)
    assert EXPECT["location"](g, player) == "port_city"


def test_venturing_forth_discards_the_defeated_encounters() -> None:
    g = game()
    player = g.players[0]
    player.zones["defeated_encounters"] = ["sea_serpent"]
    at(g, player, "misty_strait")
    tokens(player, heroism=5)
    GIVEN["encounter_deck"](g, None, ["sea_serpent"])
    g.venture_forth(player)
    # 1. "Place all your defeated Encounters into the Encounter discard pile."
    assert EXPECT["encounter_discard"](g, None) == ["sea_serpent"]
    assert player.zones["defeated_encounters"] == ["sea_serpent"]  # the one just faced


def test_the_drowned_city_needs_both_encounters_defeated_to_win() -> None:
    g = game()
    player = g.players[0]
    player.zones["defeated_encounters"] = ["sea_serpent"]
    at(g, player, "misty_strait")
    tokens(player, heroism=10)
    GIVEN["encounter_deck"](g, None, ["sea_serpent", "sea_serpent"])
    assert g.encounters_needed("drowned_city_of_atlantis") == 2
    assert g.venture_forth(player)
    # "The winner of Incredible Expeditions is the first player to defeat both Encounters at
    # the last Location": one is not enough.
    assert EXPECT["winner"](g, None) is None
    assert g.face_encounter(player)
    assert EXPECT["winner"](g, None) == 1
    # Nothing lies beyond the last Location.
    assert not g.can_venture_forth(player)


def test_the_first_to_win_stays_the_winner() -> None:
    g = game()
    first, second = g.players
    for player in g.players:
        at(g, player, "drowned_city_of_atlantis")
        tokens(player, heroism=10)
    GIVEN["encounter_deck"](g, None, ["sea_serpent"] * 4)
    g.face_encounter(second)
    g.face_encounter(second)
    g.face_encounter(first)
    g.face_encounter(first)
    assert EXPECT["winner"](g, None) == 2


# -- Encounter difficulty -------------------------------------------------------------------


def test_half_bubble_cannot_be_split_between_heroism_and_skullduggery() -> None:
    g = game(dice=(1,))
    player = g.players[0]
    g.hire_crew(player, "pilot")
    # Sea Serpent: Heroism 2 and a Half-Heroism/Half-Skullduggery 3. With 4 Heroism and
    # 1 Skullduggery, 2 + (2 Heroism + 1 Skullduggery) would meet it only by splitting: "You may
    # not meet part of the cost with Heroism and the rest with Skullduggery."
    tokens(player, heroism=4, skullduggery=1)
    assert not g.face_encounter(player, "sea_serpent")
    assert (player.counters["heroism"], player.counters["skullduggery"]) == (4, 1)
    assert script_used(g)


def test_half_bubble_met_entirely_by_skullduggery() -> None:
    g = game()
    player = g.players[0]
    tokens(player, heroism=2, skullduggery=3)
    # "must be met with EITHER Heroism OR Skullduggery ENTIRELY": 2 Heroism, 3 Skullduggery.
    assert g.face_encounter(player, "sea_serpent")
    assert (player.counters["heroism"], player.counters["skullduggery"]) == (0, 0)


def test_half_bubble_met_entirely_by_heroism() -> None:
    g = game()
    player = g.players[0]
    tokens(player, heroism=6, skullduggery=0)
    assert g.face_encounter(player, "sea_serpent")
    assert player.counters["heroism"] == 1


def test_the_player_chooses_how_to_meet_a_half_bubble() -> None:
    g = game((HALF_BUBBLE_QUESTION, "skullduggery"))
    player = g.players[0]
    tokens(player, heroism=5, skullduggery=3)
    assert g.face_encounter(player, "sea_serpent")
    assert (player.counters["heroism"], player.counters["skullduggery"]) == (3, 0)
    assert script_used(g)


def test_ways_to_meet_never_split_a_bubble() -> None:
    serpent = Difficulty(heroism=2, either=(3,))
    assert ways_to_meet(serpent, heroism=4, skullduggery=1) == []
    assert [w.label for w in ways_to_meet(serpent, heroism=5, skullduggery=3)] == [
        "heroism",
        "skullduggery",
    ]
    # Two half bubbles: each whole, independently.
    two = Difficulty(either=(2, 3))
    assert [w.label for w in ways_to_meet(two, heroism=3, skullduggery=2)] == [
        "skullduggery+heroism"
    ]


def test_temporary_totals_are_spent_before_tokens_and_return_to_zero() -> None:
    g = game()
    player = g.players[0]
    tokens(player, heroism=3)
    player.counters.update(temporary_heroism=2, temporary_money=1)
    assert g.face_encounter(player, "sea_serpent")
    # "raise enough Heroism (temporary or tokens)": 5 needed, 2 temporary, 3 tokens removed.
    assert player.counters["heroism"] == 0
    # 7. "Return all Temporary Totals back to zero after facing an Encounter."
    assert player.counters["temporary_heroism"] == 0
    assert player.counters["temporary_money"] == 0


# -- Lost Crew ------------------------------------------------------------------------------


def test_undefeated_encounter_loses_the_crew_in_the_rolled_cabin() -> None:
    g = game(dice=(3,))
    player = g.players[0]
    GIVEN["cabins"](g, player, ["pilot", "pilot", "pilot"])
    assert not g.face_encounter(player, "sea_serpent")
    # "If you cannot meet the difficulty of the Encounter, it is Undefeated. Roll a die. The
    # Crew in the number cabin you rolled is Lost. ... Place that Crew under your Expedition
    # Leader card."
    assert EXPECT["cabins"](g, player)[:3] == ["pilot", "pilot", None]
    assert player.zones["lost_crew"] == ["pilot"]
    assert EXPECT["encounter_discard"](g, None) == ["sea_serpent"]
    assert script_used(g)


def test_lose_crew_rerolls_empty_cabins() -> None:
    g = game(dice=(2, 6, 5, 3))
    player = g.players[0]
    GIVEN["cabins"](g, player, ["pilot", None, "pilot"])
    g.run("undefeated_encounters", "undefeated", player)
    # "If there is no Crew in that cabin, continue rolling until you get the number of an
    # occupied cabin": 2, 6 and 5 are empty; 3 is the Crew Lost.
    assert EXPECT["cabins"](g, player)[:3] == ["pilot", None, None]
    assert player.zones["lost_crew"] == ["pilot"]
    assert player.zones["crew_cabins"] == ["pilot"]
    assert script_used(g)


def test_an_exhausted_crew_can_be_lost_and_its_cabin_is_free() -> None:
    g = game(dice=(1,))
    player = g.players[0]
    g.hire_crew(player, "pilot")
    g.hire_crew(player, "pilot")
    g.exhaust_cabin(player, 1)
    g.run("undefeated_encounters", "undefeated", player)
    assert EXPECT["exhausted"](g, player) == []
    # "new Crew cards go into the lowest-numbered available Crew Cabin": cabin 1 again.
    assert g.hire_crew(player, "pilot") == 1


def test_with_no_crew_aboard_nothing_is_rolled() -> None:
    g = game()
    player = g.players[0]
    assert not g.face_encounter(player, "sea_serpent")
    assert player.zones["lost_crew"] == []
    assert script_used(g)
