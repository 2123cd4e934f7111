"""Incredible Expeditions: Quest for Atlantis, run through the real pipeline.

Each test loads ``generated/incredible_expeditions/`` (run ``cardc build`` first) with
``engine.loader.new_game``, so the handlers under test are the ones ``cardc`` generated from
``cards/incredible_expeditions/*.cards``. The rule paragraphs have their scenarios in
``tests/scenarios/incredible_expeditions/``; these tests cover what a scenario cannot say
well: whole games for 2 to 4 players, determinism, and the difficulty arithmetic. Quoted
sentences are from the rulebook (``incredible-expeditions-atlantis.txt``).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from engine.loader import new_game, rules_module
from engine.runtime import RuleError, Scripted
from engine.sim import play_game

GENERATED = Path(__file__).resolve().parent.parent / "generated" / "incredible_expeditions"
#: cards/incredible_expeditions/natives.py, the module the engine binds to the game.
ie = rules_module("incredible_expeditions")


def game(players: int = 2, seed: int = 0, policy: str | None = None) -> Any:
    """A fresh game, its players deciding by ``policy`` (scripted with no answers if None)."""
    g = new_game(GENERATED, players=players, seed=seed, policies={-1: Scripted([])})
    assert isinstance(g, ie.IncredibleExpeditions)
    if policy is not None:
        g.policies = {i: ie.POLICIES[policy](g, i) for i in range(players)}
    return g


# -- whole games -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_games_end_with_a_ship_at_atlantis(players: int) -> None:
    # "The winner ... is the first player to defeat both Encounters at the last Location".
    for seed in range(10):
        g = game(players, seed, "greedy")
        result = play_game(g)
        assert result.reason == "a ship reached Atlantis"
        winner = g.players[result.winner]
        assert g.location_of(winner) == "drowned_city_of_atlantis"
        assert len(winner.zones["defeated_encounters"]) >= 2
        assert result.scores == [1 if p is winner else 0 for p in g.players]
        # Every other ship is short of winning.
        for other in g.players:
            if other is not winner:
                at_end = g.location_of(other) == "drowned_city_of_atlantis"
                assert not (at_end and len(other.zones["defeated_encounters"]) >= 2)


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_play_legally_to_an_end(players: int) -> None:
    for seed in range(3):
        result = play_game(game(players, seed, "random"))
        assert result.reason in ("a ship reached Atlantis", "turn limit")
        assert result.turns <= 200


def test_the_same_seed_plays_the_same_game() -> None:
    first, second = game(4, 7, "greedy"), game(4, 7, "greedy")
    play_game(first)
    play_game(second)
    assert first.events == second.events


def test_cards_are_conserved_through_a_whole_game() -> None:
    # Every card dealt at setup is somewhere at the end: nothing is created or lost by the flow.
    g = game(3, 5, "greedy")
    play_game(g)
    zones = Counter()
    for player in g.players:
        assert player.zones["crew_cabins"] == [c for c in player.flags["cabins"] if c]
        for cards in player.zones.values():
            zones.update(cards)
    for key in (
        "market",
        "resource_deck",
        "resource_discard",
        "crew_deck",
        "crew_discard",
        "encounter_deck",
        "encounter_discard",
        "leaders",
    ):
        zones.update(g.board[key])
    cat = g.cat
    expected = Counter(cat.starting * 3)
    expected.update({card: n for card, n in cat.copies.items()})
    expected.update(cat.by_kind["expedition_leader"])
    assert zones == expected


# -- the difficulty ------------------------------------------------------------------------------


def test_ways_to_meet_never_split_a_bubble() -> None:
    # "You may not meet part of the cost with Heroism and the rest with Skullduggery."
    serpent = ie.Difficulty(2, 0, (3,))
    assert ie.ways_to_meet(serpent, 4, 2) == []
    assert ie.ways_to_meet(serpent, 5, 0) == ["heroism"]
    assert ie.ways_to_meet(serpent, 2, 3) == ["skullduggery"]
    assert ie.ways_to_meet(serpent, 5, 3) == ["heroism", "skullduggery"]
    assert ie.needs(serpent, "skullduggery") == (2, 3)


def test_a_difficulty_that_is_no_value_is_refused() -> None:
    card = {"title": "Odd", "properties": {"difficulty": [["courage", 2]]}}
    with pytest.raises(RuleError, match="'courage' is not a difficulty"):
        ie.Difficulty.from_card(card)


# -- Resources: values or Ability, never both -----------------------------------------------


def test_a_resource_played_for_its_ability_gives_no_values() -> None:
    # "You can, instead, play the card to do the Ability text on the card, but may not use both."
    g = game()
    player = g.players[0]
    player.zones["hand"] = ["treasure_map"]
    g.play_for_ability(player, "treasure_map")
    assert player.counters["money"] == 1 and player.counters["temporary_money"] == 0
    assert player.zones["discard_pile"] == ["treasure_map"]
    with pytest.raises(RuleError, match="holds no marks_of_credit with an Ability"):
        player.zones["hand"] = ["marks_of_credit"]
        g.play_for_ability(player, "marks_of_credit")


def test_the_catalogue_reads_values_and_costs_in_the_rulebooks_order() -> None:
    cat = game().cat
    assert cat.values["notoriety"] == (1, 0, 1)
    assert cat.cost["strongman"] == (4, 1, 0)
    assert "marks_of_credit" not in cat.cost  # a starting card is not Acquired
    assert len(cat.starting) == 15


def test_provenance_lists_the_variants_own_provisional_values() -> None:
    # `cardc check --provenance` reads CheckResult.provisional: a variant's own files count.
    from compiler.checking import check_paths
    from compiler.project import find_project
    from dsl.diagnostics import SourceCache

    root = Path(__file__).resolve().parent.parent
    project = find_project(root)
    assert project is not None
    folder = root / "cards" / "incredible_expeditions"
    result = check_paths([folder / "game.cards"], project, SourceCache())
    report = result.provenance_report()
    assert "variants/more_locations.yaml:12:3: location Whirlpool Narrows" in report
    assert "variants/more_locations.cards:5:1: location Coral Reef" in report
    assert "leaders.cards" in report and "Prof. Pendergast: hand_size" in report
