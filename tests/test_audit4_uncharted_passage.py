"""A fourth outside audit of Uncharted Passage (audit4), written from the rulebook's sentences
and README.md alone, at the rules' edges: a track reaching exactly its last box, a counter at
its cap, an empty pile, two things at the same moment, the last month, solo against the two
2-player modes and a choice that cannot be made. The rule cases are
``tests/scenarios/uncharted_passage/audit4_rules.yaml``; the new cards and house rules
``tests/data/audit4_uncharted_passage/``.

- A voyage card whose resources allow no logbook line (``resources 2``: "you can't write down
  zeros"; a triple no space can take; two numbers) built, and its Planning phase asked a
  question with no answer: ``cardc check`` refuses it at the property (CARD_CHECKS).
- An East Asian port a rival's ship entered (given by a scenario) stayed open to the other
  ship, and a scenario giving ``anchored:`` without the setup failed with a KeyError.
- A ``draw`` before the setup ran told a scenario writer to "build it in the flow's setup".
- ``given: month: 13`` (the rulebook's other name for a round) was taken in a 12-month game,
  where ``round: 13`` is refused: it is held to the game's months (13 in
  ``thirteen_months``). The ``sail`` step said it asks a destination; it sails no space.
- Card text: ``at_max(sailing_speed)`` read "if your Sailing Speeds is at its most" (and
  ``at_max(prestige)`` "if prestige is ..."): the counter is the player's, the verb agreeing;
  ``(margin - margin % 3) / 3`` read "the result of the margin minus the remainder of the
  margin divided by 3 divided by 3": "the difference between ..., divided by 3".
- A 2-player captain sailing to (or staying on) a space two Ship Markers fill was refused with
  "cannot sail from sea_2_2 to sea_2_2 within 1 spaces: a ship sails up to its Sailing Speed
  ...", the wrong rule (the space is in reach): it is told the 2-marker limit.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import (
    assert_simulates,
    audit_cases,
    copy_game,
    diagnostics_with_card_file,
    printed_texts,
    run_scenarios,
)

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
AUDIT = ROOT / "tests" / "data" / "audit4_uncharted_passage"


def test_a_full_space_in_reach_is_refused_by_the_two_marker_rule(tmp_path: Path) -> None:
    """The refusal names the rule that applies: the space is in reach, and full."""
    text = (
        "scenario: full\ngame: uncharted_passage\nmode: competitive\n"
        "given:\n  chart: stand_in\n  missions_dealt: true\n  markers: {sea_2_2: 2}\n"
        "  player:\n    position: sea_3_2\n    counters: {sailing_speed: 1}\n"
        "do:\n  - action: sail_to\n    args: {to: sea_2_2}\n"
        "expect:\n  refused: cannot anchor\n"
    )
    (result,) = run_scenarios(GENERATED, text, tmp_path / "s.yaml")
    assert result.passed, result.message


def test_out_of_reach_is_still_told_the_reach_in_the_singular(tmp_path: Path) -> None:
    """A space out of reach is refused by the reach, "1 space", not "1 spaces"."""
    text = (
        "scenario: far\ngame: uncharted_passage\n"
        "given:\n  chart: stand_in\n  missions_dealt: true\n"
        "  player:\n    position: sea_2_2\n    counters: {sailing_speed: 1}\n"
        "do:\n  - action: sail_to\n    args: {to: zanzibar}\n"
        'expect:\n  refused: "cannot sail from sea_2_2 to zanzibar within 1 space:"\n'
    )
    (result,) = run_scenarios(GENERATED, text, tmp_path / "s.yaml")
    assert result.passed, result.message


def test_a_draw_before_the_setup_is_told_to_set_up_or_give_the_deck(tmp_path: Path) -> None:
    """A scenario that gains a Port Card without the setup (no pile given) was told to "build
    it in the flow's setup, or draw from a zone ... with draw_from", a designer's fix for a
    game that builds no deck: it is told that the setup, which makes the pile, has not run."""
    text = (
        "scenario: no pile\ngame: uncharted_passage\n"
        "given:\n  chart: stand_in\n  missions_dealt: true\n"
        "  player:\n    position: sea_4_5\n    counters: {sailing_speed: 1, crew_stamina: 2}\n"
        "choices:\n  - crew.row: 2\n"
        "do:\n  - action: sail_to\n    args: {to: zanzibar}\n  - action: anchor\n"
        "expect:\n  refused: \"found no deck for port_cards: the game's setup, which makes its "
        'decks, has not run; in a scenario, set it up first"\n'
    )
    (result,) = run_scenarios(GENERATED, text, tmp_path / "s.yaml")
    assert result.passed, result.message


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Seven new cards (boxes_left, unless, choose one of, a window's quantity raised, let and
    %, at_max, a voyage's triple and restraint) and six house rules (a verb redefined so the
    Scurvy Check moves to ports too, a param, a phase scoring at the end, a setup bonus, a
    phase moved, a card in a variant) build, hold their cases (each house rule beside the
    base game's), and play whole games in every mode."""
    results, points = audit_cases(built_copy, "uncharted_passage", AUDIT)
    assert [f"{r.name}: {r.message}" for r in results if not r.passed] == []
    assert len(results) == 20
    assert [p.name for p in points[1:]] == [
        "early_mid_event",
        "fair_start",
        "pirates_first",
        "sailors_reunion",
        "salvage_crew",
        "scurvy_everywhere",
    ]
    assert_simulates(points, ("solo", "competitive", "coop"))


@pytest.mark.parametrize(
    ("line", "message", "hint"),
    [
        (
            "resources 2",
            "resources 2 are fewer than 3, the least a logbook line can be",
            "give at least 3",
        ),
        (
            "resource_triple 7 1 1",
            "resource_triple 7 1 1 cannot be written one in each space",
            "give three numbers each space can take",
        ),
        (
            "resource_triple 1 3",
            "resource_triple gives 2 numbers",
            "write three numbers, like: resource_triple 1 3 5",
        ),
    ],
)
def test_a_voyage_card_that_allows_no_logbook_line_is_refused_at_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, message: str, hint: str
) -> None:
    """ "The sum of the three numbers cannot exceed the amount of resources, and you can't write
    down zeros or leave blanks": resources below 3, or a triple no space can take, leave no
    line to write; the card is refused at its property, not asked of a captain with no
    answer."""
    (error,) = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "uncharted_passage",
        f'voyage first_half "Windless" {{\n  {line}\n  pirate highest(2d6)\n}}\n',
    )
    assert message in error.message, error.message
    assert error.hints == (hint,)
    assert (error.span.line, error.span.column) == (2, 3)


def test_a_given_month_is_held_to_the_months_the_game_plays(tmp_path: Path) -> None:
    """ "The game is played over a total of 12 rounds, with each round representing a month":
    month 13 is refused as round 13 is, and taken under thirteen_months."""
    text = (
        "scenario: base\ngame: uncharted_passage\ngiven:\n  month: 13\nexpect:\n  month: 13\n"
        "---\nscenario: thirteen\ngame: uncharted_passage\nvariant: thirteen_months\n"
        "given:\n  month: 13\nexpect:\n  month: 13\n"
    )
    base, thirteen = run_scenarios(GENERATED, text, tmp_path / "s.yaml")
    assert not base.passed
    assert ":4:10: 13 is more than 12, the most a month can be" in base.message, base.message
    assert thirteen.passed, thirteen.message


def test_card_text_says_a_counters_most_and_a_grouped_division(tmp_path: Path) -> None:
    """The standard library's "{counter} is at its most" with the counter as the player's own
    and the verb agreeing; a difference divided said as one value, before a comma."""
    folder = copy_game(tmp_path, "uncharted_passage")
    (folder / "probe.cards").write_text(
        'mid_event "A" { on sailing { if at_max(sailing_speed) { add reach 1 } } }\n'
        'mid_event "B" { on sailing { if at_max(prestige) { add reach 1 } } }\n'
        'mid_event "C" { on sailing { if at_max(specialties) { add reach 1 } } }\n'
        'mid_event "D" { on pirate_resolved {\n  let margin armament - pirate_power\n'
        "  gain prestige (margin - margin % 3) / 3\n} }\n"
        'mid_event "E" { on sailing { if (prestige + 2) % 3 > 1 { add reach 1 } } }\n',
        encoding="utf-8",
    )
    texts = printed_texts(folder, {"probe.cards"})
    assert "if your Sailing Speed is at its most," in texts["A"], texts["A"]
    assert "if your prestige is at its most," in texts["B"], texts["B"]
    assert "if your specialties are at their most," in texts["C"], texts["C"]
    assert (
        "gain prestige equal to the difference between the margin and the remainder of the "
        "margin divided by 3, divided by 3 (rounded down)" in texts["D"]
    ), texts["D"]
    assert "the remainder of the sum of your prestige and 2, divided by 3" in texts["E"], texts["E"]


def test_a_draw_before_a_flows_build_deck_is_told_the_setup_has_not_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same for a deck the flow's setup builds (``build_deck hand``, a ``cardc new``
    game): a turn's draw before the setup is told to set it up; a deck nothing builds keeps
    the designer's message (tests/test_probe_incredible_expeditions.py)."""
    from test_variant_hardening import run

    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", "pebble")[0] == 0
    monkeypatch.chdir(tmp_path / "pebble")
    assert run(capsys, "build", "--no-sheets")[0] == 0
    scenario = tmp_path / "pebble" / "tests" / "scenarios" / "pebble" / "early.yaml"
    scenario.write_text(
        "scenario: a turn's draw before the setup\ngame: pebble\n"
        "do:\n  - action: phase\n    args: {name: draw}\n"
        "expect:\n  refused: \"found no deck for hand: the game's setup, which makes its "
        'decks, has not run"\n',
        encoding="utf-8",
    )
    status, out = run(capsys, "test", str(scenario))
    assert status == 0, out
