"""A second outside audit of Uncharted Passage (probe5): rule cases, new cards and house rules
written from the rulebook and README.md alone, aimed at what the first audit tested least (the
2-player modes, the end of the game, "if you cannot", two rules meeting).

- Rule cases: ``tests/scenarios/uncharted_passage/audit2_rules.yaml``; new cards, house rules
  and their rule cases: ``tests/data/audit2_uncharted_passage/`` (built into a copy of the
  game, held to their cases, and simulated in every mode).
- A house rule's ``end_when`` replaces the flow's ``end when ship_sunk()``: written as README
  shows it (``end_when: "count(accomplished) >= 4"``), a sunk ship sailed on to the 12th month.
  The sinking ends a game being played at once, whatever the end condition.
- A scenario's ``expect`` of the Specialties Book or the places visited compared a sorted list
  with the scenario's: ``given: {goods: [wine, silk]}`` then ``expect: {goods: [wine, silk]}``
  failed with "got ['silk', 'wine']". Those values are in no order: they are compared in any,
  each specialty as many times as it is written.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from probing import (
    assert_simulates,
    audit_cases,
    audit_texts,
    diagnostics_with_card_file,
    rounds_played,
    run_scenarios,
)

from compiler.pipeline import compile_game
from compiler.sheets.lint import _problems
from dsl.diagnostics import SourceCache
from engine import sim

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
AUDIT = ROOT / "tests" / "data" / "audit2_uncharted_passage"


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Eight new cards (a Port Card on an Armament equal to the Pirate's, one for even months,
    one counting a kind's cards, a voyage raiding through the Pirate's Raid window, one reading
    the Ship Durability Track, mid-events with a DSL verb and function and with a loop over the
    specialties, a mission accomplished by a counter) and seven house rules (a phase before the
    End of the Game, an end condition, a verb, a phase moved with a param, two functions of the
    final scoring, a phase asking a question that erases a track's box) build, hold their 26
    rule cases, and play whole games in every mode."""
    results, points = audit_cases(built_copy, "uncharted_passage", AUDIT)
    assert [f"{r.name}: {r.message}" for r in results if not r.passed] == []
    assert len(results) == 26
    assert_simulates(points, ("solo", "competitive", "coop"))


def test_a_house_rule_that_ends_the_game_early_ends_simulated_games(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Treasure fleet's end condition (4 completed missions) holds in some greedy games and
    ends them before the 12th month; the base game never ends early but by a sinking."""
    fleet_rule = (AUDIT / "variants" / "treasure_fleet.yaml").read_text("utf-8")
    files = {"variants/treasure_fleet.yaml": fleet_rule}
    generated = built_copy("uncharted_passage", files)
    folder = generated / "uncharted_passage"
    fleet = sim.simulate(folder / "treasure_fleet", 40, 3, "solo", "greedy", cards=False)
    base = sim.simulate(folder, 40, 3, "solo", "greedy", cards=False)
    assert fleet.games == base.games == 40
    months = {"fleet": rounds_played(fleet), "base": rounds_played(base)}
    assert months["fleet"] < months["base"], months
    assert any("end" in reason for reason in fleet.tally.ends), fleet.tally.ends


def test_the_specialties_and_places_a_scenario_gives_are_expected_in_its_own_order(
    tmp_path: Path,
) -> None:
    """The values given come back as given, whatever their order; a repeated specialty is
    counted, so one Wine less or more is still a failure."""
    text = (
        "scenario: {name}\ngame: uncharted_passage\n"
        "given:\n  player:\n    goods: [wine, silk, wine]\n    ports_visited: [london, genoa]\n"
        "do:\n  - action: finish\n"
        "expect:\n  player:\n    goods: {goods}\n    ports_visited: [london, genoa]\n"
    )
    same, fewer, more = (
        run_scenarios(
            GENERATED,
            text.format(name=name, goods=goods),
            tmp_path / f"{name}.yaml",
        )[0]
        for name, goods in (
            ("same", "[wine, silk, wine]"),
            ("fewer", "[wine, silk]"),
            ("more", "[wine, silk, wine, wine]"),
        )
    )
    assert same.passed, same.message
    assert not fewer.passed
    assert "expected goods ['wine', 'silk'], got ['silk', 'wine', 'wine']" in fewer.message
    assert not more.passed


def test_a_track_read_as_a_number_is_told_how_to_read_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'if durability >= 3' was told "mark it with: mark durability 1", which reads nothing:
    it is told marked(durability), which the game's 'use counters' brings in."""
    (diagnostic,) = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "uncharted_passage",
        'mid_event "Leaks" {\n  on reveal {\n    if durability >= 3 { gain prestige 1 }\n  }\n}\n',
    )
    assert diagnostic.message == "'durability' is not defined here"
    assert diagnostic.hints == (
        "'durability' is a track: marked(durability) is how many of its boxes are marked; "
        "mark durability 1 marks one",
    )


def test_a_track_read_in_a_game_without_the_counters_module_is_told_the_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without 'use counters' the hint says how to bring marked() in."""
    root = tmp_path / "project"
    folder = root / "cards" / "uncharted_passage"
    shutil.copytree(ROOT / "cards" / "uncharted_passage", folder)
    game = folder / "game.cards"
    game.write_text(game.read_text("utf-8").replace("  use counters\n", ""), "utf-8")
    (folder / "leaks.cards").write_text(
        'mid_event "Leaks" {\n  on reveal {\n    if health >= 3 { gain prestige 1 }\n  }\n}\n',
        "utf-8",
    )
    monkeypatch.chdir(root)
    result = compile_game(Path("cards") / "uncharted_passage", SourceCache())
    (diagnostic,) = [d for d in result.diagnostics if d.span.file.endswith("leaks.cards")]
    assert "add 'use counters' to the game block in game.cards" in diagnostic.hints[0]


def _texts(tmp_path: Path) -> dict[str, str]:
    """The audit cards' printed text (title -> paragraphs), beside a copy of the game."""
    return audit_texts(tmp_path, "uncharted_passage", AUDIT)


def test_the_audit_cards_print_in_words_the_lint_accepts(tmp_path: Path) -> None:
    """A track read by marked() printed "if How many boxes of your track are marked. (the
    Ship Durability track) is at least 3"; a card's plural property printed "spec's goods is
    Groceries", which failed the build. Both read as a rulebook now."""
    texts = _texts(tmp_path)
    leaking = texts["Leaking Hull"]
    assert (
        "if the number of boxes of the Ship Durability track that are marked is "
        "at least 3" in leaking
    ), leaking
    spice = texts["Spice Fever"]
    # wording6: the loop's card is "the specialty", as its kind is named ("the spec's").
    assert "the specialty's goods are Groceries" in spice, spice
    for text in texts.values():
        assert _problems(re.sub(r"\[[a-z_]+\] ", "", text)) == [], text


def test_a_kind_is_counted_as_the_list_of_its_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """README: "A kind's name is the list of its cards"; count(white_border) was refused with
    "'white_border' is not a zone of this game"."""
    diagnostics = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "uncharted_passage",
        'mid_event "Charts" {\n  on reveal {\n    gain prestige count(white_border)\n  }\n}\n',
    )
    assert diagnostics == []


def test_a_players_guessed_keys_are_told_what_to_write(tmp_path: Path) -> None:
    """A tester's first guesses: 'prestige: 5' was told "counters: {prestige: 3}" (not the
    number written), 'specialties: [Wine]' "counters: {specialties: 3}" (the Specialties Book
    is 'goods'), and 'action: sail' with 'args: {to: london}' "known: distance" (the step
    that takes 'to' is 'sail_to')."""
    (result,) = run_scenarios(
        GENERATED,
        "scenario: guesses\ngame: uncharted_passage\n"
        "given:\n  player:\n    prestige: 5\n    specialties: [Wine, Silk]\n"
        "do:\n  - action: sail\n    args: {to: london}\n"
        "expect:\n  player:\n    port_cards: [rum]\n",
        tmp_path / "s.yaml",
    )
    assert not result.passed
    message = result.message
    assert ":5:5: 'prestige' is a counter: give it in the player's counters: " in message
    assert "counters: {prestige: 5}" in message
    assert (
        ":6:5: 'specialties' is not something a scenario can set for a player; a list of "
        "Wine, Silk is given as goods: [wine, silk]" in message
    ), message
    assert ":8:13: did you mean the step 'sail_to', which takes 'to'?" in message, message


def test_a_step_named_by_what_it_does_is_told_the_step(tmp_path: Path) -> None:
    """'action: end_game' was told the fifteen steps: it is told the steps whose description
    holds its words, with the description."""
    (result,) = run_scenarios(
        GENERATED,
        "scenario: end\ngame: uncharted_passage\ndo:\n  - action: end_game\nexpect:\n  round: 1\n",
        tmp_path / "s.yaml",
    )
    assert (
        "'end_game' is not an action of uncharted_passage; did you mean 'finish' (End the "
        "game) or 'play_game' (Play the game to its end)?" in result.message
    ), result.message
