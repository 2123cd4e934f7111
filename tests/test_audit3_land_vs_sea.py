"""A third, independent tester's Land vs Sea: Uncharted, written from the rulebook
(/work/shared/rulebooks/land-vs-sea-uncharted.txt) and the README alone: the hint a designer
gets for a member of a placement (``placed.menhir``), new tiles and a scoring layer
(tests/data/audit3_land_vs_sea/audit3.cards) and house rules (its variants/), each built into a
copy of the game, played by scenarios that show their difference, and simulated. (The rule
cases are tests/scenarios/land_vs_sea/audit3_rules.yaml.)
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from probing import (
    audit_cases,
    audit_files,
    copy_game,
    diagnostics_with_card_file,
    printed_texts,
)

from compiler.sheets.lint import _problems
from engine import sim

GAME = "land_vs_sea"
DATA = Path(__file__).resolve().parent / "data" / "audit3_land_vs_sea"

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


@pytest.mark.parametrize(
    ("member", "asked"),
    [
        ("menhir", "has_menhir(placed)"),
        ("city", "has_city(placed)"),
        ("bandit", "is_bandit(placed)"),
        ("ship", "ships(placed)"),
    ],
)
def test_a_member_of_a_placement_points_at_the_native_that_asks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, member: str, asked: str
) -> None:
    # "Menhirs allow you to score all the bonus points along ley lines": a designer writing a
    # rule about the tile placed reaches for `placed.menhir`. `placed` is a place on the
    # board, not a card of a kind, so the fix is the game's own question, not a `param
    # placed KIND` in game.cards.
    cards = (
        f'rule "Probe" {{\n  on tile_placed {{\n    if placed.{member} {{ score 1 }}\n  }}\n}}\n'
    )
    (problem,) = diagnostics_with_card_file(tmp_path, monkeypatch, GAME, cards)
    assert problem.code == "member-unknown"
    assert (problem.span.line, problem.span.column) == (3, 8)
    assert problem.hints[0].startswith(f"'placed' is not a card of a kind; ask the game: {asked} (")
    assert not any("param placed KIND" in hint for hint in problem.hints)


def test_a_member_nothing_asks_keeps_the_declaration_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = 'rule "Probe" {\n  on tile_placed {\n    if placed.stars { score 1 }\n  }\n}\n'
    (problem,) = diagnostics_with_card_file(tmp_path, monkeypatch, GAME, cards)
    assert problem.hints == (
        "say which kind of card 'placed' is in game.cards: "
        "trigger tile_placed { param placed KIND }",
    )


VARIANTS = ("aids_last", "corsairs", "sea_head_start")


def test_the_new_cards_and_house_rules_hold_their_cases(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    results, points = audit_cases(built_copy, GAME, DATA)
    assert [point.name for point in points[1:]] == list(VARIANTS)
    assert [f"{r.name}: {r.message}" for r in results if not r.passed] == []
    assert len(results) == 7


def test_the_new_layers_score_in_whole_games_and_the_house_rules_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    folder = built_copy(GAME, audit_files(DATA)) / GAME
    base = sim.simulate(folder, 3, 2, "competitive", "greedy", cards=False)
    again = sim.simulate(folder, 3, 2, "competitive", "greedy", cards=False)
    # Seeded: the same seed plays the same games.
    assert base.tally.scores == again.tally.scores
    # Both new layers are in play and score in whole games (the triangulation only when a
    # placement forms 2 Ley lines, the capitals at the end game).
    assert base.tally.points_by.get("triangulation_scoring", 0) > 0
    assert base.tally.points_by.get("capital_scoring", 0) > 0
    for name in VARIANTS:
        report = sim.simulate(folder / name, 3, 2, "competitive", "greedy", cards=False)
        assert report.games == 3, name
    corsairs = sim.simulate(folder / "corsairs", 3, 2, "competitive", "greedy", cards=False)
    assert "bandit_and_pirate_scoring" not in corsairs.tally.points_by
    assert corsairs.tally.points_by.get("corsair_scoring", 0) > 0


def test_a_loop_over_every_trade_route_reads_for_every_trade_route(tmp_path: Path) -> None:
    # The end game layer's card said "for each trade route in every trade route on the board":
    # a list the reference words as "every ..." is the loop itself.
    folder = copy_game(tmp_path, GAME)
    shutil.copy(DATA / "audit3.cards", folder / "audit3.cards")
    text = printed_texts(folder, {"audit3.cards"})["Capital scoring"]
    assert "for every trade route on the board where" in text
    assert "in every trade route" not in text
    sentence = "for every trade route on the board where"
    assert _problems(text[text.index(sentence) :].split(" [")[0]) == []


def test_of_several_natives_the_one_about_the_value_is_named_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "score all the bonus points on the tiles in-between": `line.bonus` of a Ley line is
    # bonus_between(line), whose words are about a ley line, before area_bonus(line).
    cards = (
        'rule "Probe" {\n  on tile_placed {\n'
        "    for each line in new_ley_lines(placed) {\n      score line.bonus\n    }\n  }\n}\n"
    )
    (problem,) = diagnostics_with_card_file(tmp_path, monkeypatch, GAME, cards)
    assert (problem.span.line, problem.span.column) == (4, 13)
    assert [hint.split(" (")[0] for hint in problem.hints] == [
        "'line' is not a card of a kind; ask the game: bonus_between(line)",
        "'line' is not a card of a kind; ask the game: area_bonus(line)",
    ]
