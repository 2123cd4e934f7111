"""A second outside audit of Darwin's Journey: Pirates (probe5): rule cases, new cards and
house rules written from the rulebook and README.md alone.

- Rule cases: ``tests/scenarios/darwins_journey/audit2_rules.yaml``; new cards, house rules and
  their rule cases: ``tests/data/audit2_darwins_journey/`` (built into a copy of the game, held
  to their cases, and simulated).
- The Campsites holding a Treasure token, the Crew deck and the Objective discard pile were
  expected as sorted lists: a scenario writing them in another order failed with the same
  names. They are compared in any order now.
- A scenario naming the Pirate tile 'pirates' (the tag on its declaration, ``action_tile
  pirates "Pirate"``) was told "did you mean 'pirates_setup'?", a rule that holds the word:
  the near miss 'pirate' comes first now.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from probing import assert_simulates, audit_cases, audit_texts, rounds_played, run_scenarios

from compiler.sheets.lint import _problems
from engine import sim
from engine.scenario_types import suggest

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
AUDIT = ROOT / "tests" / "data" / "audit2_darwins_journey"


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Six new cards (two Crew cards, one looping over the Campsites, one with a DSL verb; a
    Special Action tile with a DSL function; two Objectives, one by a modulo; a rule after the
    Reward Phase) and six house rules (a phase moved, an end condition, a verb redefined, a
    phase inserted into the end, the final scoring replaced, a phase added to the setup) build,
    hold their 19 rule cases, and play whole games solo and competitive."""
    results, points = audit_cases(built_copy, "darwins_journey", AUDIT)
    assert [f"{r.name}: {r.message}" for r in results if not r.passed] == []
    assert len(results) == 19
    assert_simulates(points, ("solo", "competitive"))


def test_the_race_ends_simulated_games_early(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Race to fifteen's end condition ends some games before the 5th round."""
    race = (AUDIT / "variants" / "race_to_fifteen.yaml").read_text("utf-8")
    generated = built_copy("darwins_journey", {"variants/race_to_fifteen.yaml": race})
    folder = generated / "darwins_journey"
    raced = sim.simulate(folder / "race_to_fifteen", 30, 3, "competitive", "greedy", cards=False)
    base = sim.simulate(folder, 30, 3, "competitive", "greedy", cards=False)
    rounds = {"race": rounds_played(raced), "base": rounds_played(base)}
    assert rounds["race"] < rounds["base"], rounds
    assert raced.tally.ends != base.tally.ends, (raced.tally.ends, base.tally.ends)


def test_a_counter_compared_with_a_function_prints_in_words_the_lint_accepts(
    tmp_path: Path,
) -> None:
    """'if coins >= raid_owed()' printed "your Coins is at least ...", a plural with 'is' the
    lint refused, so the card failed the build."""
    texts = audit_texts(tmp_path, "darwins_journey", AUDIT)
    cove = texts["Smugglers' Cove"]
    assert "if the number of your Coins is at least the Coins a raid would take" in cove
    for text in texts.values():
        assert _problems(re.sub(r"\[[a-z_]+\] ", "", text)) == [], text


def test_a_piles_names_are_expected_in_any_order(tmp_path: Path) -> None:
    """The Objective discard pile and the Campsites with a token, written in another order
    than the engine keeps them, hold; a name missing is still a failure."""
    text = (
        "scenario: {name}\ngame: darwins_journey\n"
        "given:\n  treasure_on: [valparaiso, bahia]\n"
        "  objective_discard: [two_tents, reach_patagonia, the_summit]\n"
        "do:\n  - action: pirate_raid\n"
        "expect:\n  treasure_on: {treasure}\n  objective_discard: [the_summit, two_tents, "
        "reach_patagonia]\n"
    )
    good, bad = (
        run_scenarios(GENERATED, text.format(name=n, treasure=t), tmp_path / f"{n}.yaml")[0]
        for n, t in (("good", "[valparaiso, bahia]"), ("bad", "[valparaiso]"))
    )
    assert good.passed, good.message
    assert not bad.passed
    assert "expected treasure_on ['valparaiso'], got ['bahia', 'valparaiso']" in bad.message


def test_a_near_miss_comes_before_a_name_holding_the_word() -> None:
    """'pirates' is one letter from the tile 'pirate'; 'pirates_setup' holds the word."""
    pool = ["pirate", "pirates_setup", "provisions", "p1"]
    assert suggest("pirates", pool) == "; did you mean 'pirate' or 'pirates_setup'?"
    # A word held and no near miss: the name holding it alone, as before.
    assert suggest("sailor", ["adventures_of_a_sailor", "silver"]) == (
        "; did you mean 'adventures_of_a_sailor'?"
    )


def test_the_tile_named_by_its_tag_is_told_the_tile(tmp_path: Path) -> None:
    """The scenario line says the tile's id first."""
    (result,) = run_scenarios(
        GENERATED,
        "scenario: tag\ngame: darwins_journey\n"
        "do:\n  - action: activate_tile\n    args: {tile: pirates}\n"
        "expect:\n  player:\n    counters: {coins: 6}\n",
        tmp_path / "s.yaml",
    )
    assert not result.passed
    assert "'pirates' is not a card; did you mean 'pirate' or 'pirates_setup'?" in result.message


def test_a_zone_given_as_a_players_key_is_told_the_zones_line_with_its_cards(
    tmp_path: Path,
) -> None:
    """'objectives: [Reach Patagonia]' is told "zones: {objectives: [reach_patagonia]}", the
    cards written, not "[card, ...]"."""
    (result,) = run_scenarios(
        GENERATED,
        "scenario: zone\ngame: darwins_journey\n"
        "given:\n  player:\n    objectives: [Reach Patagonia]\n"
        "do:\n  - action: final_scoring\n"
        "expect:\n  player:\n    counters: {victory_points: 4}\n",
        tmp_path / "s.yaml",
    )
    assert not result.passed
    assert (
        "'objectives' is a zone: give it in the player's zones: "
        "zones: {objectives: [reach_patagonia]}" in result.message
    ), result.message


def test_a_step_named_with_more_words_than_a_verb_is_told_the_verb(tmp_path: Path) -> None:
    """'action: take_the_treasure' was told every step: it is told the verb take_treasure and
    the steps that do it."""
    (result,) = run_scenarios(
        GENERATED,
        "scenario: take\ngame: darwins_journey\ndo:\n  - action: take_the_treasure\n"
        "expect:\n  round: 1\n",
        tmp_path / "s.yaml",
    )
    assert (
        "'take_the_treasure' is not an action of darwins_journey; did you mean the verb "
        "'take_treasure'? 'take_treasure' is a verb the game's cards do: to do it, write run: "
        "discovering_treasure.campsite_reached with event: {campsite: ...}" in result.message
    ), result.message


def test_a_players_key_near_a_counter_is_told_the_number_written(tmp_path: Path) -> None:
    """'ship: 7' was told "counters: {ship_space: 3}"; the 7 written is kept."""
    (result,) = run_scenarios(
        GENERATED,
        "scenario: ship\ngame: darwins_journey\ngiven:\n  player:\n    ship: 7\n"
        "do:\n  - action: pirate_raid\nexpect:\n  round: 1\n",
        tmp_path / "s.yaml",
    )
    assert (
        "'ship' is not something a scenario can set for a player; did you mean the counter "
        "'ship_space'? give it in the player's counters: {ship_space: 7}" in result.message
    ), result.message
