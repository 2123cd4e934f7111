"""Darwin's Journey: Pirates cards, run through the real pipeline against the rulebook.

Each test loads ``generated/darwins_journey/`` (run ``cardc build`` first) with
``engine.loader.new_game``, so the handlers under test are the ones ``cardc`` generated from
``cards/darwins_journey/*.cards``, bound to ``engine.games.darwins_journey``. The base game is
the :class:`RecordingHost`, which records each call the expansion makes into it. Decisions are
scripted: an unexpected question fails the test, and so does a scripted answer left unused.
Quoted sentences are from the rulebook (``darwins-journey-pirates.txt``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.games.darwins_journey import (
    EXPECT,
    GIVEN,
    MOVE_PIRATE_SHIP,
    STARTING_AREA,
    DarwinsJourney,
    HostCall,
    RecordingHost,
    ocean_regions,
)
from engine.loader import new_game
from engine.runtime import Player, RuleError, Scripted

GENERATED = Path(__file__).resolve().parent.parent / "generated" / "darwins_journey"

#: The labels of Discovering Treasure's choice, as the generated handler asks it.
TAKE = "take_treasure"
LEAVE = "move_pirate_ship"


def game(*answers: tuple[str | None, str], players: int = 2) -> DarwinsJourney:
    """A fresh game whose decisions come from ``answers``, in order."""
    g = new_game(GENERATED, players=players, policies={-1: Scripted(answers)})
    assert isinstance(g, DarwinsJourney)
    assert isinstance(g.host, RecordingHost)
    return g


def script_used(g: DarwinsJourney) -> bool:
    """Every scripted answer was asked for."""
    policy = g.policies[-1]
    assert isinstance(policy, Scripted)
    return policy.used == len(policy.answers)


def calls(g: DarwinsJourney) -> list[HostCall]:
    """What the expansion asked of the base game."""
    assert isinstance(g.host, RecordingHost)
    return g.host.calls


def set_player(
    player: Player, *, coins: int = 0, treasure: int = 0, vp: int = 0, region: str = STARTING_AREA
) -> None:
    """A player's Coins, Treasure tokens, victory points and ship's region."""
    player.counters.update(coins=coins, treasure=treasure, victory_points=vp)
    player.flags["ship_region"] = region


def expect(g: DarwinsJourney, name: str, player: Player | None = None) -> Any:
    """State by the name a scenario uses."""
    return EXPECT[name](g, player)


# -- setup -----------------------------------------------------------------------------------


def test_setup_places_one_treasure_on_each_campsite_and_the_ship_in_the_supply() -> None:
    g = game()
    # "Place 1 Treasure token onto each Campsite location" ... "Place the Pirate Ship near the
    # main board."
    assert set(g.board["treasure"].values()) == {1}
    assert len(g.board["treasure"]) <= g.params["treasure_tokens"] == 9
    assert expect(g, "pirate_region") is None


def test_the_ocean_region_count_is_marked_provisional() -> None:
    # The rulebook defines an Ocean Region ("the area between lagging penalties") but not how
    # many there are: the count must be flagged as not the rulebook's.
    whats = [p["what"] for p in game().ir["provisional"]]
    assert any(w.startswith("param ocean_regions") for w in whats)
    assert any(w.startswith("param campsites") for w in whats)


# -- Pirate Raid -----------------------------------------------------------------------------


def test_raid_takes_two_coins_plus_two_per_treasure() -> None:
    g = game()
    raided = g.players[0]
    set_player(raided, coins=10, treasure=3, vp=5, region="ocean_region_2")
    GIVEN["pirate_region"](g, None, "ocean_region_2")
    g.reward_phase_end()
    # "Each player with a raided Ship loses 2 Coins as well as 2 additional Coins for each
    # Treasure token they currently have": 2 + 2 * 3 = 8.
    assert raided.counters["coins"] == 2
    assert raided.counters["victory_points"] == 5


def test_each_coin_short_costs_one_victory_point() -> None:
    g = game()
    raided = g.players[0]
    set_player(raided, coins=1, treasure=1, vp=5, region="ocean_region_1")
    GIVEN["pirate_region"](g, None, "ocean_region_1")
    g.reward_phase_end()
    # "Players must spend Coins if they have them, and for each Coin a player cannot pay, they
    # instead lose 1 victory point": owes 4, pays 1, loses 3 VP.
    assert raided.counters["coins"] == 0
    assert raided.counters["victory_points"] == 2


def test_victory_points_never_drop_below_zero() -> None:
    g = game()
    raided = g.players[0]
    set_player(raided, coins=0, treasure=2, vp=3, region="ocean_region_1")
    GIVEN["pirate_region"](g, None, "ocean_region_1")
    g.reward_phase_end()
    # "(to a minimum of 0 victory points on the victory point track)": owes 6 with 3 VP.
    assert raided.counters["victory_points"] == 0
    assert raided.counters["coins"] == 0


def test_raided_players_return_all_their_treasure_to_the_box() -> None:
    g = game()
    raided = g.players[0]
    set_player(raided, coins=20, treasure=3, region="ocean_region_3")
    GIVEN["pirate_region"](g, None, "ocean_region_3")
    g.reward_phase_end()
    # "Each player whose Ship was raided returns all of their Treasure tokens back to the box."
    assert raided.counters["treasure"] == 0
    assert expect(g, "treasure_in_box") == 3


def test_players_outside_the_pirate_region_are_not_raided() -> None:
    g = game()
    raided, spared = g.players
    set_player(raided, coins=5, treasure=1, region="ocean_region_2")
    set_player(spared, coins=5, treasure=1, region="ocean_region_3")
    GIVEN["pirate_region"](g, None, "ocean_region_2")
    g.reward_phase_end()
    # "every player whose Ship is in the same Ocean Region as the Pirate Ship will be raided"
    assert (raided.counters["coins"], raided.counters["treasure"]) == (1, 0)
    assert (spared.counters["coins"], spared.counters["treasure"]) == (5, 1)
    assert expect(g, "treasure_in_box") == 1


def test_no_pirate_ship_on_the_board_raids_nobody() -> None:
    g = game()
    at_start, at_sea = g.players
    set_player(at_start, coins=5, treasure=1, vp=4)
    set_player(at_sea, coins=5, treasure=1, vp=4, region="ocean_region_1")
    assert expect(g, "pirate_region") is None
    g.reward_phase_end()
    # The Pirate Ship starts "near the main board", in no Ocean Region, so no Ship shares one
    # with it -- not even those in the starting area, which is no Ocean Region either.
    for player in g.players:
        assert player.counters == {"coins": 5, "treasure": 1, "victory_points": 4}
    assert expect(g, "treasure_in_box") == 0


def test_the_pirate_ship_raids_the_same_region_again_if_nobody_moves_it() -> None:
    g = game()
    raided = g.players[0]
    set_player(raided, coins=6, region="ocean_region_1")
    GIVEN["pirate_region"](g, None, "ocean_region_1")
    g.reward_phase_end()
    g.reward_phase_end()
    # "the Pirate Ship may raid the same Ocean Region multiple rounds in a row if no player has
    # moved it."
    assert raided.counters["coins"] == 2


# -- Discovering Treasure ----------------------------------------------------------------------


def test_taking_the_treasure_gains_the_token_and_three_coins_at_once() -> None:
    g = game(("discovering_treasure.campsite_reached.take_treasure_or_move_pirate_ship", TAKE))
    player = g.players[0]
    g.reach_campsite(player, "campsite_4")
    # "The active player may take the Treasure token from the Campsite location and place it
    # near their personal board. They then gain 3 Coins from the supply. These Coins are
    # gained immediately".
    assert player.counters["treasure"] == 1
    assert player.counters["coins"] == 3
    assert "campsite_4" not in expect(g, "treasure_on")
    assert expect(g, "pirate_region") is None
    assert script_used(g)


def test_leaving_the_treasure_lets_the_player_move_the_pirate_ship() -> None:
    g = game(
        ("discovering_treasure.campsite_reached.take_treasure_or_move_pirate_ship", LEAVE),
        ("discovering_treasure.campsite_reached.move_pirate_ship", "yes"),
        (MOVE_PIRATE_SHIP, "ocean_region_3"),
    )
    player = g.players[0]
    g.reach_campsite(player, "campsite_2")
    # "If the active player decides to leave the Treasure token on the board ... they may
    # instead move the Pirate Ship."
    assert expect(g, "pirate_region") == "ocean_region_3"
    assert "campsite_2" in expect(g, "treasure_on")
    assert player.counters["treasure"] == 0 and player.counters["coins"] == 0
    assert script_used(g)


def test_moving_the_pirate_ship_is_a_may() -> None:
    g = game(
        ("discovering_treasure.campsite_reached.take_treasure_or_move_pirate_ship", LEAVE),
        ("discovering_treasure.campsite_reached.move_pirate_ship", "no"),
    )
    GIVEN["pirate_region"](g, None, "ocean_region_1")
    g.reach_campsite(g.players[0], "campsite_2")
    # "they may instead move the Pirate Ship": declined, it stays where it was.
    assert expect(g, "pirate_region") == "ocean_region_1"
    assert script_used(g)


def test_an_empty_campsite_lets_the_player_move_the_pirate_ship() -> None:
    g = game(
        ("discovering_treasure.campsite_reached.move_pirate_ship", "yes"),
        (MOVE_PIRATE_SHIP, "ocean_region_1"),
    )
    GIVEN["treasure_on"](g, None, ["campsite_1"])
    g.reach_campsite(g.players[0], "campsite_5")
    # "... or there is no Treasure token on the Campsite location, they may instead move the
    # Pirate Ship." No token to take, so no take-or-leave choice is asked.
    assert expect(g, "pirate_region") == "ocean_region_1"
    assert g.players[0].counters["coins"] == 0
    assert script_used(g)


def test_the_pirate_ship_goes_only_to_ocean_regions() -> None:
    g = game(
        ("discovering_treasure.campsite_reached.move_pirate_ship", "yes"),
        (MOVE_PIRATE_SHIP, STARTING_AREA),
    )
    GIVEN["treasure_on"](g, None, [])
    # "An Ocean Region is the area between lagging penalties, not including the area with the
    # Ocean track starting space": the starting area is not a legal answer.
    with pytest.raises(RuleError, match="not a legal answer"):
        g.reach_campsite(g.players[0], "campsite_1")
    assert STARTING_AREA not in ocean_regions(g)


def test_a_campsite_token_can_be_taken_only_once() -> None:
    g = game(
        ("discovering_treasure.campsite_reached.take_treasure_or_move_pirate_ship", TAKE),
        ("discovering_treasure.campsite_reached.move_pirate_ship", "no"),
    )
    first, second = g.players
    g.reach_campsite(first, "campsite_3")
    g.reach_campsite(second, "campsite_3")
    # The token is now "near their personal board"; the next Ship finds none to take.
    assert first.counters["treasure"] == 1
    assert second.counters["treasure"] == 0 and second.counters["coins"] == 0
    assert script_used(g)


# -- the Pirate Special Action tile -------------------------------------------------------------


def test_pirate_tile_gains_two_coins_and_may_move_the_ship() -> None:
    g = game(("pirate.activate.move_pirate_ship", "yes"), (MOVE_PIRATE_SHIP, "ocean_region_4"))
    player = g.players[1]
    g.activate_tile(player, "pirate")
    # "the active player gains 2 Coins and may move the Pirate Ship"
    assert player.counters["coins"] == 2
    assert expect(g, "pirate_region") == "ocean_region_4"
    assert script_used(g)


def test_pirate_tile_coins_come_without_moving_the_ship() -> None:
    g = game(("pirate.activate.move_pirate_ship", "no"))
    g.activate_tile(g.players[0], "pirate")
    assert g.players[0].counters["coins"] == 2
    assert expect(g, "pirate_region") is None
    assert script_used(g)


# -- Pirate Crew cards ---------------------------------------------------------------------------


def test_p1_performs_two_specimen_actions_ignoring_coin_penalties() -> None:
    g = game(("p1.use.research_specimen", "yes"), ("p1.use.research_specimen", "yes"))
    player = g.players[1]
    g.use_crew(player, "p1")
    # "P1 - The player may perform two Research Museum Specimen actions, as explained in the
    # base game rules, ignoring any Coin penalties."
    assert calls(g) == [
        HostCall("research_specimen", 1, {"ignore_coin_penalty": True}),
        HostCall("research_specimen", 1, {"ignore_coin_penalty": True}),
    ]
    assert script_used(g)


def test_p1_actions_are_the_players_to_take() -> None:
    g = game(("p1.use.research_specimen", "yes"), ("p1.use.research_specimen", "no"))
    g.use_crew(g.players[0], "p1")
    # "The player may perform ...": one taken, one declined.
    assert [c.operation for c in calls(g)] == ["research_specimen"]
    assert script_used(g)


def test_p2_returns_a_placed_worker() -> None:
    g = game()
    g.use_crew(g.players[0], "p2")
    # "P2 - The player returns any placed worker of their color to any empty worker slot on
    # their personal board."
    assert calls(g) == [HostCall("return_worker", 0, {})]
    assert expect(g, "host_calls", g.players[0]) == ["return_worker"]
    assert expect(g, "host_calls", g.players[1]) == []


def test_p3_gains_up_to_two_objective_tiles() -> None:
    g = game()
    g.use_crew(g.players[0], "p3")
    # "P3 - The player may gain up to 2 Objective tiles from anywhere in the Objective discard
    # pile."
    assert calls(g) == [HostCall("take_objectives", 0, {"up_to": 2})]


def test_p4_gains_campsite_rewards_without_costs_or_tent() -> None:
    g = game()
    player = g.players[0]
    g.use_crew(player, "p4")
    # "P4 - The player gains all the rewards associated with any Campsite on the board. The
    # player ignores all costs and does not place a Tent."
    assert calls(g) == [HostCall("campsite_rewards", 0, {})]
    # It is not landing on a Campsite: no Treasure is discovered, no Coins are gained here.
    assert player.counters == {"coins": 0, "treasure": 0, "victory_points": 0}
    assert set(g.board["treasure"].values()) == {1}


def test_a_crew_use_is_refused_for_a_card_that_is_not_crew() -> None:
    g = game()
    with pytest.raises(RuleError, match="not a crew"):
        g.use_crew(g.players[0], "pirate")
