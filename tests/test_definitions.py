"""Verbs and functions written in the DSL: checked like card effects, compiled, run.

Each test writes a tiny game into a temporary folder, compiles it through the real pipeline,
emits its handlers module, imports it and runs a card against a fresh game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_flow import import_handlers

from compiler.emit_python import emit_handlers
from compiler.pipeline import GameResult, compile_game
from dsl.diagnostics import SourceCache
from engine.runtime import Game, HandlerTable, RuleError, Scripted

GAME = """\
game tiny "Tiny" {
  score prestige
  counter prestige, coins, specialties
  track health 6 { weak 3 }
  zone hand, deck
  symbol groceries, luxury_goods "a kind of goods"
  trigger reveal "a card is revealed"
  trigger combat "a fight" { quantity power }
  kind event "an event" { }
}
"""


def compile_text(tmp_path: Path, rules: str, game: str = GAME) -> GameResult:
    """Compile a game folder holding ``game`` as game.cards and ``rules`` as rules.cards."""
    folder = tmp_path / "tiny"
    folder.mkdir(exist_ok=True)
    (folder / "game.cards").write_text(game, encoding="utf-8")
    (folder / "rules.cards").write_text(rules, encoding="utf-8")
    return compile_game(folder, SourceCache())


def codes(result: GameResult) -> list[str]:
    """The diagnostic codes, in order."""
    return [d.code for d in result.diagnostics]


def build(tmp_path: Path, rules: str, game: str = GAME) -> tuple[dict[str, Any], Any]:
    """Compile, emit and import; the IR and the generated module."""
    result = compile_text(tmp_path, rules, game)
    assert result.ir is not None, [str(d) for d in result.diagnostics]
    text = emit_handlers(result.ir, ["rules.cards"], "tiny")
    module = import_handlers(tmp_path / f"handlers_{abs(hash(rules))}.py", text)
    return result.ir, module


def new_game(ir: dict[str, Any], module: Any, answers: list[str] | None = None) -> Game:
    """A fresh game over the module's handlers."""
    policy = Scripted((None, a) for a in answers or [])
    return Game(ir, HandlerTable.from_module(module), policies={-1: policy})


def test_a_verb_with_a_body_runs_where_a_card_calls_it(tmp_path: Path) -> None:
    ir, module = build(
        tmp_path,
        """\
verb abandon_specialty(goods name, amount number = 1) "give up specialties" {
  lose specialties amount
  if goods == luxury_goods { score 2 * amount }
}
event "Market Crash" {
  on reveal {
    abandon_specialty luxury_goods 2
    abandon_specialty groceries
  }
}
""",
    )
    g = new_game(ir, module)
    g.players[0].counters["specialties"] = 5
    g.run("market_crash", "reveal")
    assert g.players[0].counters["specialties"] == 2
    assert g.players[0].counters["prestige"] == 4
    assert ir["vocabulary"]["verbs"]["abandon_specialty"]["origin"] == "dsl"


def test_a_function_gives_a_value_and_modulo_says_every_third_month(tmp_path: Path) -> None:
    ir, module = build(
        tmp_path,
        """\
function every_third(month number) bool "every third month" = month % 3 == 0
function doubled(n number) number = n * 2
event "Tax" {
  on reveal {
    if every_third(round) { lose coins doubled(2) }
  }
}
""",
    )
    g = new_game(ir, module)
    for month in range(1, 7):
        g.round = month
        g.players[0].counters["coins"] = 10
        g.run("tax", "reveal")
        assert g.players[0].counters["coins"] == (6 if month % 3 == 0 else 10)


def test_parameters_may_name_counters_tracks_and_the_trigger_quantities(tmp_path: Path) -> None:
    ir, module = build(
        tmp_path,
        """\
verb hurt(what track, by number) { mark what by }
verb weaken(what target) { reduce what up_to 2 }
event "Ambush" {
  on combat {
    hurt health 2
    weaken power
  }
}
""",
    )
    g = new_game(ir, module)
    c = g.run("ambush", "combat", quantities={"power": 5})
    assert g.players[0].tracks["health"].marked == 2
    assert c.q["power"] == 3


def test_a_definition_implements_a_declared_verb_when_the_signatures_match(
    tmp_path: Path,
) -> None:
    game = GAME.replace(
        '  kind event "an event" { }',
        '  verb tithe "pay a tenth" { param amount number }\n  kind event "an event" { }',
    )
    ir, module = build(
        tmp_path,
        "verb tithe(amount number) { lose coins amount / 10 }\n"
        'event "Church" { on reveal { tithe 30 } }\n',
        game,
    )
    g = new_game(ir, module)
    g.players[0].counters["coins"] = 5
    g.run("church", "reveal")
    assert g.players[0].counters["coins"] == 2
    assert ir["vocabulary"]["verbs"]["tithe"]["doc"] == "pay a tenth"
    bad = compile_text(tmp_path, "verb tithe(amount text) { }\n", game)
    assert codes(bad) == ["signature-mismatch"]
    assert "parameter 'amount text' is 'amount number' there" in bad.diagnostics[0].message


def test_call_errors_are_at_the_call(tmp_path: Path) -> None:
    result = compile_text(
        tmp_path,
        """\
verb hurt(by number) { lose coins by }
function twice(n number) number = n * 2
event "E" {
  on reveal {
    hurt
    hurt groceries
    gain coins twice(1, 2)
  }
}
""",
    )
    found = [(d.code, d.span.line, d.span.column) for d in result.diagnostics]
    assert found == [("arity", 5, 5), ("type-mismatch", 6, 10), ("arity", 7, 16)]


def test_bodies_are_checked_with_their_parameters_typed(tmp_path: Path) -> None:
    result = compile_text(
        tmp_path,
        """\
verb bad(goods name) {
  gain coins goods
  lose helth 1
}
function wrong(n number) bool = n + 1
""",
    )
    found = [(d.code, d.span.line) for d in result.diagnostics]
    assert found == [("type-mismatch", 2), ("name-undefined", 3), ("type-mismatch", 5)]


def test_recursion_is_refused_naming_the_cycle(tmp_path: Path) -> None:
    result = compile_text(
        tmp_path,
        """\
verb ping() { pong }
verb pong() { if coins > 0 { ping } }
function forever(n number) number = forever(n - 1)
verb fine() { gain coins 1 }
""",
    )
    messages = sorted(d.message for d in result.diagnostics if d.code == "recursion")
    assert messages == [
        "'forever' calls itself: forever -> forever",
        "'ping' calls itself (through ping -> pong -> ping)",
    ]


def test_a_definition_cannot_replace_the_prelude_or_collide(tmp_path: Path) -> None:
    result = compile_text(
        tmp_path,
        "verb gain(c counter) { }\nfunction hurt() number = 1\nverb hurt() { }\n"
        "verb twice() { }\nverb twice() { }\nverb odd(x colour) { }\n",
    )
    assert codes(result) == [
        "redefine-prelude",
        "duplicate-name",
        "duplicate-definition",
        "bad-param-type",
    ]


def test_an_error_inside_a_verb_names_the_verb_line(tmp_path: Path) -> None:
    ir, module = build(
        tmp_path,
        "verb split(n number) {\n  gain coins 1\n  gain coins 10 / n\n}\n"
        'event "E" { on reveal { split 0 } }\n',
    )
    g = new_game(ir, module)
    # At the card's call (5:25), naming the verb's line (3:3) it failed at (audit10-ie).
    with pytest.raises(
        RuleError,
        match=r"rules\.cards:5:25: this divides by 'n', which is 0 here: .* "
        r"\[in verb split \(.*rules\.cards:3:3\), "
        r"called from E's 'on reveal' \(.*rules\.cards:5:25\)\]",
    ):
        g.run("e", "reveal")


def test_may_inside_a_verb_asks_the_acting_player(tmp_path: Path) -> None:
    ir, module = build(
        tmp_path,
        'verb offer() { may { gain coins 3 } }\nevent "E" { on reveal { offer } }\n',
    )
    g = new_game(ir, module, ["yes"])
    g.run("e", "reveal")
    assert g.players[0].counters["coins"] == 3
