"""A variant's ``verbs:``: DSL verbs and functions redefined (same signature) or added, checked
like everything else, errors at the YAML line and column.

Each test writes a tiny game (a DSL verb ``gain_port_card`` that its cards call) and a variant
into a temporary folder, compiles the variant through the real pipeline, and for the ones that
compile, emits and imports its handlers and runs a card against a fresh game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_flow import import_handlers

from compiler.diff import diff_ir, render_errata
from compiler.emit_python import emit_handlers
from compiler.pipeline import compile_game
from compiler.variants import compile_variant
from dsl.diagnostics import Diagnostic, SourceCache
from engine.runtime import Game, HandlerTable, Scripted

GAME = """\
game tiny "Tiny" {
  score prestige
  counter prestige, coins
  zone hand, port_cards
  trigger reveal "a card is revealed"
  kind event "an event" { }
}
"""

RULES = """\
verb gain_port_card() "gain one Port Card" { gain coins 1 }
function bonus(n number) number = n + 1
event "Anchor" { on reveal { gain_port_card } }
event "Treasure" { on reveal { gain prestige bonus(2) } }
"""


def _folder(tmp_path: Path, variant: str) -> Path:
    folder = tmp_path / "tiny"
    (folder / "variants").mkdir(parents=True, exist_ok=True)
    (folder / "game.cards").write_text(GAME, encoding="utf-8")
    (folder / "rules.cards").write_text(RULES, encoding="utf-8")
    (folder / "variants" / "v.yaml").write_text(variant, encoding="utf-8")
    return folder


def _compile(tmp_path: Path, variant: str) -> tuple[Any, list[Diagnostic]]:
    folder = _folder(tmp_path, variant)
    result, _overlay = compile_variant(folder, folder / "variants" / "v.yaml", SourceCache())
    errors = sorted(
        (d for d in result.diagnostics if d.severity == "error"), key=Diagnostic.sort_key
    )
    return result, errors


def _game(tmp_path: Path, ir: dict[str, Any]) -> Game:
    text = emit_handlers(ir, ["rules.cards"], "tiny")
    module = import_handlers(tmp_path / f"handlers_{abs(hash(text))}.py", text)
    return Game(ir, HandlerTable.from_module(module), policies={-1: Scripted(())})


def _where(errors: list[Diagnostic]) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.column) for d in errors]


def test_a_redefined_verb_runs_where_the_base_cards_call_it(tmp_path: Path) -> None:
    result, errors = _compile(
        tmp_path,
        "description: two at a time\n"
        "verbs: |\n"
        '  verb gain_port_card() "gain two Port Cards" {\n'
        "    gain coins 2\n"
        "  }\n",
    )
    assert errors == []
    g = _game(tmp_path, result.ir)
    g.run("anchor", "reveal")
    assert g.players[0].counters["coins"] == 2
    verb = result.ir["definitions"]["verbs"][0]
    assert verb["name"] == "gain_port_card"
    assert verb["source"].endswith("v.yaml:3")  # the YAML line of the redefinition
    # The base game's own definition is unchanged: one coin.
    base = compile_game(tmp_path / "tiny", SourceCache())
    assert base.ir is not None
    g = _game(tmp_path, base.ir)
    g.run("anchor", "reveal")
    assert g.players[0].counters["coins"] == 1


def test_a_redefinition_may_add_a_parameter_with_a_default(tmp_path: Path) -> None:
    result, errors = _compile(
        tmp_path,
        "verbs: |\n  verb gain_port_card(count number = 3) { gain coins count }\n",
    )
    assert errors == []
    g = _game(tmp_path, result.ir)
    g.run("anchor", "reveal")
    assert g.players[0].counters["coins"] == 3


def test_a_changed_signature_is_refused_at_the_yaml_line(tmp_path: Path) -> None:
    result, errors = _compile(
        tmp_path,
        "verbs: |\n"
        "  verb gain_port_card(count number) { gain coins count }\n"
        "  function bonus(n text) number = 1\n"
        "  verb bonus(n number) { gain coins n }\n",
    )
    assert _where(errors) == [
        ("variant-signature", 2, 3),
        ("variant-signature", 3, 3),
        ("variant-signature", 4, 3),
    ]
    first, second, third = errors
    assert "the new parameter 'count number' has no default" in first.message
    assert "keep its signature: verb gain_port_card()" in first.hints
    assert "parameter 1 is 'n text', the base's is 'n number'" in second.message
    assert "the base's 'bonus' is a function, this is a verb" in third.message
    assert str(tmp_path / "tiny" / "rules.cards") + ":2:1" in second.message
    assert result.ir is None


def test_a_function_keeps_its_type_and_a_verb_may_be_new(tmp_path: Path) -> None:
    result, errors = _compile(
        tmp_path,
        "verbs:\n"
        "  - function bonus(n number) bool = n > 1\n"
        "  - |\n"
        "    verb gain_port_cards_twice() { gain_port_card; gain_port_card }\n"
        "    function bonus(n number) number = n * 10\n",
    )
    assert _where(errors) == [("variant-signature", 2, 5)]
    assert "it gives bool, the base's gives number" in errors[0].message
    result, errors = _compile(
        tmp_path,
        "add: |\n"
        '  event "Double Anchor" { on reveal { gain_port_cards_twice } }\n'
        "verbs: |\n"
        "  verb gain_port_cards_twice() { gain_port_card; gain_port_card }\n"
        "  function bonus(n number) number = n * 10\n",
    )
    assert errors == []
    g = _game(tmp_path, result.ir)
    g.run("double_anchor", "reveal")
    g.run("treasure", "reveal")
    assert g.players[0].counters["coins"] == 2
    assert g.players[0].counters["prestige"] == 20


def test_errors_inside_the_block_point_at_the_yaml(tmp_path: Path) -> None:
    _result, errors = _compile(
        tmp_path,
        "description: x\n"
        "verbs: |\n"
        "  verb gain_port_card() {\n"
        "    gain coinz 2\n"
        "  }\n"
        "  verb broken( {\n",
    )
    found = _where(errors)
    assert ("name-undefined", 4, 10) in found
    unclosed = next(d for d in errors if d.code == "unclosed-bracket")
    # The '(' is at column 12 of the block's 4th line: YAML line 6, column 14.
    assert unclosed.span.line == 6
    assert "opened at 6:14" in unclosed.message
    undefined = next(d for d in errors if d.code == "name-undefined")
    assert "did you mean 'coins'" in " ".join(undefined.hints)


def test_verbs_holds_definitions_only_and_a_redefinition_comes_once(tmp_path: Path) -> None:
    _result, errors = _compile(
        tmp_path,
        "verbs: |\n"
        '  event "Stray" { on reveal { gain coins 1 } }\n'
        "  verb gain_port_card() { gain coins 2 }\n"
        "  verb gain_port_card() { gain coins 3 }\n",
    )
    assert _where(errors) == [("variant-shape", 2, 3), ("duplicate-definition", 4, 3)]
    assert errors[0].hints == ("write new cards under add: |",)
    _result, errors = _compile(tmp_path, "verbs: 3\n")
    assert _where(errors) == [("variant-shape", 1, 8)]


def test_a_verb_of_the_prelude_cannot_be_redefined(tmp_path: Path) -> None:
    _result, errors = _compile(tmp_path, "verbs: |\n  verb gain(c counter) { }\n")
    assert _where(errors) == [("redefine-prelude", 2, 3)]


def test_diff_shows_the_redefined_verb(tmp_path: Path) -> None:
    result, errors = _compile(tmp_path, "verbs: |\n  verb gain_port_card() { gain coins 2 }\n")
    assert errors == []
    base = compile_game(tmp_path / "tiny", SourceCache())
    diff = diff_ir(base.ir, result.ir)
    assert "verb gain_port_card: gain coins 1 -> gain coins 2" in diff.text()
    assert "1 verb change;" in diff.text()
    errata = render_errata(diff, "Tiny", "md")
    assert "## Verbs and functions" in errata
    assert "| verb gain\\_port\\_card | gain coins 1 | gain coins 2 |" in errata
    assert "<td>verb gain_port_card</td>" in render_errata(diff, "Tiny", "html")
