"""``for each X in LIST by KEY [descending], ...``: ordered iteration (turn order as data).

Parsed into :class:`dsl.nodes.OrderKey` keys, kept by the formatter, checked (a key is a number
or true/false, worked out with the loop's name bound), lowered to the IR's ``order`` and
emitted as a stable sort: lowest first, ``descending`` highest first, ties in the list's order.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_flow import GAME, RULES, compile_text, errors, import_handlers, new_game

from compiler.emit_python import emit_handlers
from dsl.formatter import format_text
from dsl.nodes import ForEach, OrderKey, to_json
from dsl.parser import parse

ORDERED = """\
flow "In order" {
  setup {
    phase deal "each player is dealt coins by seat" {
      for each p in players where seat_of(p) == 2 { gain coins 5 }
      for each p in players where seat_of(p) == 3 { gain coins 2 }
      for each p in players where seat_of(p) == 4 { gain coins 5 }
    }
  }
  round 1 {
    phase order "the fewest coins first; tied, the latest seat first" {
      for each p in players by coins, seat_of(p) descending {
        gain points 1
        mark_turn
      }
    }
  }
}
"""


def _statement(text: str) -> ForEach:
    parsed = parse(text, "o.cards")
    assert parsed.ok, parsed.diagnostics
    (decl,) = parsed.file.declarations
    (trigger,) = decl.body
    statement = trigger.body[0]  # type: ignore[union-attr]
    assert isinstance(statement, ForEach)
    return statement


def test_by_parses_into_keys_with_their_direction() -> None:
    stmt = _statement(
        'rule "r" {\n  on play {\n'
        "    for each p in players where coins > 0 by points, coins descending { score 1 }\n"
        "  }\n}\n"
    )
    assert [type(k) for k in stmt.order] == [OrderKey, OrderKey]
    first, second = stmt.order
    assert not first.descending and second.descending
    assert str(first.span) == "o.cards:3:46" and str(second.span) == "o.cards:3:54"
    assert stmt.where is not None


def test_a_loop_without_by_keeps_the_tree_it_always_had() -> None:
    stmt = _statement('rule "r" {\n  on play {\n    for each p in players { score 1 }\n  }\n}\n')
    assert stmt.order == ()
    assert "order" not in to_json(stmt)


@pytest.mark.parametrize(
    ("line", "code", "where", "message"),
    [
        ("for each p in players bye coins { score 1 }", "for-each", "o.cards:3:27", "'bye'"),
        (
            "for each p in players by coins upward { score 1 }",
            "order-by",
            "o.cards:3:36",
            "'ascending' or 'descending'",
        ),
        (
            "for each p in players by coins points { score 1 }",
            "order-by",
            "o.cards:3:36",
            "separate",
        ),
    ],
)
def test_a_bad_by_is_an_error_at_its_place(line: str, code: str, where: str, message: str) -> None:
    parsed = parse(f'rule "r" {{\n  on play {{\n    {line}\n  }}\n}}\n', "o.cards")
    (problem,) = parsed.diagnostics
    assert problem.code == code and str(problem.span) == where
    assert message in problem.message + " ".join(problem.hints)


def test_the_formatter_keeps_by_and_lays_it_out() -> None:
    messy = ORDERED.replace(
        "by coins, seat_of(p) descending", "by  coins ,seat_of( p )  descending"
    )
    assert messy != ORDERED
    assert format_text(messy, "flow.cards").text == ORDERED
    assert format_text(ORDERED, "flow.cards").text == ORDERED


GAME_WITH_NATIVES = GAME.replace(
    "  zone hand\n",
    "  zone hand\n"
    '  native seat_of "a player\'s seat, 1 first" { param who player; returns number }\n'
    '  verb mark_turn "note who went"\n'
    '  native label "a word" { returns text }\n',
)

#: The test game's natives.py: the seat of a player, a word, and a verb noting who went.
NATIVES = """\
from engine.api import native, verb


@native("who player", returns="number")
def seat_of(g, c, who):
    \"\"\"A player's seat, 1 first.\"\"\"
    return who.index + 1


@native(returns="text")
def label(g, c):
    \"\"\"A word.\"\"\"
    return "word"


@verb()
def mark_turn(g, c):
    \"\"\"Note who went.\"\"\"
    g.board.setdefault("went", []).append(c.player.index + 1)
"""


def compile_ordered(tmp_path: Path, flow: str) -> Any:
    """Compile ``flow`` over the game with the test's natives (natives.py beside it)."""
    folder = tmp_path / "race"
    folder.mkdir(exist_ok=True)
    (folder / "natives.py").write_text(NATIVES, encoding="utf-8")
    return compile_text(tmp_path, flow, RULES, GAME_WITH_NATIVES)


def test_a_key_must_be_a_number_or_a_yes_or_no(tmp_path: Path) -> None:
    flow = ORDERED.replace("by coins, seat_of(p) descending", "by coins, label()")
    problems = errors(compile_ordered(tmp_path, flow))
    assert any(
        p.startswith("type-mismatch ")
        and "race/flow.cards:11:39 " in p
        and "a key of 'by' needs a number or a true/false value, not a string" in p
        and "descending" in p
        for p in problems
    ), problems


def test_a_key_is_checked_like_any_expression(tmp_path: Path) -> None:
    flow = ORDERED.replace("by coins,", "by coinz,")
    problems = errors(compile_ordered(tmp_path, flow))
    assert any("'coinz'" in p and "did you mean 'coins'" in p for p in problems), problems


def _module(tmp_path: Path, flow: str) -> tuple[dict[str, Any], Any, str]:
    """Compile ``flow`` over the game with the test's natives; the IR, module and its text."""
    result = compile_ordered(tmp_path, flow)
    assert result.ir is not None and not errors(result), errors(result)
    text = emit_handlers(result.ir, ["flow.cards"], "race")
    module = import_handlers(tmp_path / f"ordered_{abs(hash(flow))}.py", text)
    return result.ir, module, text


def _played_order(tmp_path: Path, flow: str, players: int = 4) -> list[int]:
    """The seats in the order the ordered loop went, one round of ``players``."""
    ir, module, _ = _module(tmp_path, flow)
    game = new_game(ir, module, players=players)
    game.natives["seat_of"] = lambda g, c, who: who.index + 1
    game.verbs["mark_turn"] = lambda g, c: g.board.setdefault("went", []).append(c.player.index + 1)
    game.play()
    return list(game.board["went"])


def test_the_order_is_lowest_first_ties_by_the_next_key(tmp_path: Path) -> None:
    # Coins after the deal: seat 1 has 0, seat 2 has 5, seat 3 has 2, seat 4 has 5. Fewest
    # first: seat 1, seat 3, then seats 2 and 4 tied on 5, the later seat first (descending).
    assert _played_order(tmp_path, ORDERED) == [1, 3, 4, 2]


def test_ties_on_every_key_keep_the_seat_order(tmp_path: Path) -> None:
    flow = ORDERED.replace("by coins, seat_of(p) descending", "by coins")
    # Seats 2 and 4 are tied on 5 coins: seat order between them.
    assert _played_order(tmp_path, flow) == [1, 3, 2, 4]


def test_descending_alone_is_highest_first(tmp_path: Path) -> None:
    flow = ORDERED.replace("by coins, seat_of(p) descending", "by coins descending")
    assert _played_order(tmp_path, flow) == [2, 4, 3, 1]


def test_the_order_is_settled_before_the_body_runs(tmp_path: Path) -> None:
    # The body gains coins; the order was worked out before, so it does not change mid-loop.
    flow = ORDERED.replace("gain points 1", "gain coins 10")
    assert _played_order(tmp_path, flow) == [1, 3, 4, 2]


def test_the_ir_and_the_generated_code_carry_the_order(tmp_path: Path) -> None:
    ir, _, text = _module(tmp_path, ORDERED)
    (phase,) = ir["flow"]["sections"][1]["phases"]
    keys = phase["body"][0]["order"]
    assert [k["descending"] for k in keys] == [False, True]
    assert keys[0]["key"] == {"kind": "counter", "name": "coins"}
    assert "sort(key=lambda item: item[0])" in text
    # A loop without 'by' has no 'order' in its IR.
    (deal,) = ir["flow"]["sections"][0]["phases"]
    assert "order" not in deal["body"][0]
