"""A third, independent tester's Land vs Sea: Uncharted, written from the rulebook
(/work/shared/rulebooks/land-vs-sea-uncharted.txt) and the README alone: the hint a designer
gets for a member of a placement (``placed.menhir``), new tiles and a scoring layer
(tests/data/audit3_land_vs_sea/cards.cards) and house rules (its variants/), each built into a
copy of the game, played by scenarios that show their difference, and simulated. (The rule
cases are tests/scenarios/land_vs_sea/audit3_rules.yaml.)
"""

from __future__ import annotations

from pathlib import Path

import pytest
from probing import diagnostics_with_card_file

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
