"""The syntax of verbs and functions written in the DSL, and of the remainder operator."""

from __future__ import annotations

from dsl.nodes import BinaryOp, Command, Compare, FunctionDef, Number, VerbDef, to_json
from dsl.parser import parse

SOURCE = """\
verb abandon_specialty(goods name, amount number = 1) "give up specialties" {
  lose specialties amount
}
function every_third(month number) bool = month % 3 == 0
verb noop() { }
port_card "Rum" { copies 4 }
"""


def test_definitions_are_kept_apart_from_cards() -> None:
    result = parse(SOURCE, "rules.cards")
    assert result.ok, result.diagnostics
    assert [d.kind for d in result.file.declarations] == ["port_card"]
    verb, function, noop = result.file.definitions
    assert isinstance(verb, VerbDef) and verb.name == "abandon_specialty"
    assert verb.doc == "give up specialties"
    assert [(p.name, p.type) for p in verb.params] == [("goods", "name"), ("amount", "number")]
    assert verb.params[1].default == Number(verb.params[1].default.span, 1)  # type: ignore[union-attr]
    assert isinstance(verb.body[0], Command) and verb.body[0].verb == "lose"
    assert (verb.span.line, verb.span.column, verb.span.end_line) == (1, 1, 3)
    assert isinstance(function, FunctionDef) and function.returns == "bool"
    assert isinstance(function.body, Compare)
    assert isinstance(function.body.left, BinaryOp) and function.body.left.op == "%"
    assert isinstance(noop, VerbDef) and noop.params == () and noop.body == ()


def test_a_file_without_definitions_keeps_its_json_tree() -> None:
    tree = to_json(parse('port_card "Rum" { copies 4 }', "a.cards").file)
    assert "definitions" not in tree
    tree = to_json(parse(SOURCE, "rules.cards").file)
    assert [d["node"] for d in tree["definitions"]] == ["VerbDef", "FunctionDef", "VerbDef"]


def test_verb_still_names_a_signature_inside_a_game() -> None:
    result = parse('game g "G" {\n  verb raid "r" { param damage number }\n}\n', "game.cards")
    assert result.ok
    (prop,) = result.file.declarations[0].body
    assert prop.name == "verb"  # type: ignore[union-attr]


def test_equals_outside_a_definition_is_still_an_invalid_character() -> None:
    result = parse('port_card "Rum" {\n  copies = 4\n}\n', "a.cards")
    assert [d.code for d in result.diagnostics] == ["invalid-character"]


def test_remainder_binds_like_multiplication() -> None:
    result = parse('rule "R" { on reveal { if round % 3 == 0 + 1 { score 1 } } }', "a.cards")
    assert result.ok
    stmt = result.file.declarations[0].body[0].body[0]  # type: ignore[union-attr]
    cond = stmt.condition[0][0]
    assert isinstance(cond, Compare) and cond.left.op == "%"  # type: ignore[union-attr]
    assert cond.right.op == "+"  # type: ignore[union-attr]
