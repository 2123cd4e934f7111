"""The IR's JSON Schema: published valid, met by every real game, and broken IR reported in place.

The schema is cardc's promise to every tool that reads ``generated/<game>/cards.json``. A
schema violation is always a bug in cardc's lowering, never in the cards, so its diagnostic
must point at the DSL text that produced the broken node: that is where a maintainer starts.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from compiler.checker import check_game
from compiler.ir_schema import SCHEMA, validate
from compiler.pipeline import GameResult, compile_game
from compiler.project import find_project
from dsl.diagnostics import SourceCache
from dsl.nodes import Span

REPO_ROOT = Path(__file__).resolve().parent.parent
PUBLISHED = REPO_ROOT / "generated" / "schema" / "ir.schema.json"
_PROJECT = find_project(REPO_ROOT)
assert _PROJECT is not None
GAMES = _PROJECT.games()
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


@pytest.fixture(scope="module")
def published() -> dict[str, Any]:
    """The schema as ``cardc build`` published it."""
    data = json.loads(PUBLISHED.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.fixture(scope="module")
def compiled() -> dict[str, GameResult]:
    """Every real game, compiled."""
    out = {}
    for game in GAMES:
        result = compile_game(REPO_ROOT / "cards" / game, SourceCache())
        assert result.ok, [str(d) for d in result.diagnostics]
        # A card another test of this process compiled is kept without its spans (the build
        # checks afresh only when the IR fails its schema, as these tests make it): check
        # afresh here, so the spans are every statement's whatever ran before.
        assert result.vocabulary is not None
        fresh = check_game(result.vocabulary, result.parsed, [])
        out[game] = dataclasses.replace(result, spans=fresh.spans)
    return out


def test_published_schema_is_valid_draft_2020_12(published: dict[str, Any]) -> None:
    assert published["$schema"] == DRAFT_2020_12
    Draft202012Validator.check_schema(published)
    # It is the schema cardc validates with, plus only the "generated, do not edit" banner.
    assert list(published)[0] == "_generated"
    assert {k: v for k, v in published.items() if k != "_generated"} == json.loads(
        json.dumps(SCHEMA)
    )


def test_published_schema_rejects_what_it_should(published: dict[str, Any]) -> None:
    # A schema that accepts everything would pass every test below: make it refuse something.
    validator = Draft202012Validator(published)
    assert not validator.is_valid({})
    assert not validator.is_valid({"cardc_ir": 2})


@pytest.mark.parametrize("game", GAMES)
def test_every_real_games_ir_validates(
    game: str, compiled: dict[str, GameResult], published: dict[str, Any]
) -> None:
    result = compiled[game]
    assert result.ir is not None and result.ir["cards"]
    errors = [e.message for e in Draft202012Validator(published).iter_errors(result.ir)]
    assert errors == []
    # And the file on disk, banner included, is what a reader of generated/ validates.
    on_disk = json.loads((REPO_ROOT / "generated" / game / "cards.json").read_text("utf-8"))
    assert [e.message for e in Draft202012Validator(published).iter_errors(on_disk)] == []
    assert validate(result.ir, result.spans, _fallback()) == []


def _fallback() -> Span:
    return Span("fallback.cards", 1, 1, 1, 1)


def _statements(body: list[dict[str, Any]], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for index, stmt in enumerate(body):
        here = f"{path}/{index}"
        yield here, stmt
        for key in ("then", "else", "body"):
            if isinstance(stmt.get(key), list):
                yield from _statements(stmt[key], f"{here}/{key}")
        for option, inner in enumerate(stmt.get("options", [])):
            yield from _statements(inner, f"{here}/options/{option}")


def _all_statements(ir: dict[str, Any]) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    out = []
    for index, card in enumerate(ir["cards"]):
        for trigger, handler in card["triggers"].items():
            where = f"/cards/{index}/triggers/{trigger}/body"
            out.extend((path, stmt, card) for path, stmt in _statements(handler["body"], where))
    return out


def _node(ir: dict[str, Any], pointer: str) -> Any:
    node: Any = ir
    for part in pointer.strip("/").split("/"):
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def _at_statement(diagnostic_span: Span, stmt: dict[str, Any], card: dict[str, Any]) -> None:
    """The span is the statement's own DSL position (its file, line and column)."""
    source_file = card["source"].rsplit(":", 1)[0]
    assert diagnostic_span.file == source_file
    assert [diagnostic_span.line, diagnostic_span.column] == stmt["at"]


@pytest.fixture(scope="module")
def nested(compiled: dict[str, GameResult]) -> tuple[GameResult, str, dict[str, Any]]:
    """A real verb statement inside another statement (an if, a may, a repeat ...)."""
    for result in compiled.values():
        assert result.ir is not None
        for path, stmt, card in _all_statements(result.ir):
            if stmt["kind"] == "verb" and path.count("/body") + path.count("/then") >= 2:
                return result, path, card
    pytest.fail("no real card has a verb nested in another statement")


@pytest.mark.parametrize(
    ("mutation", "words"),
    [
        (lambda stmt: stmt.pop("verb"), "'verb' is a required property"),
        (lambda stmt: stmt.update(kind="jump"), "'jump' is not one of"),
        (lambda stmt: stmt.update(args="coins"), "is not of type 'array'"),
        (lambda stmt: stmt["args"].append({"kind": "num"}), "'value' is a required property"),
        (
            lambda stmt: stmt["args"].append({"kind": "counter", "name": "not a name"}),
            "does not match",
        ),
    ],
    ids=["missing-field", "wrong-kind", "wrong-type", "broken-argument", "bad-name"],
)
def test_broken_statement_is_reported_at_its_dsl_span(
    nested: tuple[GameResult, str, dict[str, Any]], mutation: Any, words: str
) -> None:
    result, path, card = nested
    assert result.ir is not None
    ir = copy.deepcopy(result.ir)
    stmt = _node(ir, path)
    original = dict(stmt)
    mutation(stmt)
    problems = validate(ir, result.spans, _fallback())
    assert problems, "the broken IR validated"
    assert {p.code for p in problems} == {"schema"}
    assert any(words in p.message for p in problems), [p.message for p in problems]
    for problem in problems:
        assert problem.severity == "error"
        assert path in problem.message  # the IR pointer, for the maintainer
        _at_statement(problem.span, original, card)
        assert "bug in cardc" in " ".join(problem.hints)


def test_each_real_statement_has_its_own_span(compiled: dict[str, GameResult]) -> None:
    # Break every statement of every real game in turn: each is reported at its own position.
    checked = 0
    for result in compiled.values():
        assert result.ir is not None
        for path, stmt, card in _all_statements(result.ir):
            ir = copy.deepcopy(result.ir)
            _node(ir, path)["kind"] = "jump"
            problems = validate(ir, result.spans, _fallback())
            assert problems, path
            for problem in problems:
                _at_statement(problem.span, stmt, card)
            checked += 1
    assert checked >= 10


def test_broken_card_and_formula_are_reported_at_their_declarations(
    compiled: dict[str, GameResult],
) -> None:
    for result in compiled.values():
        assert result.ir is not None
        for index, card in enumerate(result.ir["cards"]):
            ir = copy.deepcopy(result.ir)
            ir["cards"][index]["title"] = ""
            (problem,) = validate(ir, result.spans, _fallback())
            assert problem.span == result.spans[f"/cards/{index}"]
            assert f"{problem.span.file}:{problem.span.line}" == card["source"]
            for name, formula in card["formulas"].items():
                ir = copy.deepcopy(result.ir)
                ir["cards"][index]["formulas"][name]["expr"] = {"kind": "roll", "count": 0}
                problems = validate(ir, result.spans, _fallback())
                assert problems
                for problem in problems:
                    assert [problem.span.line, problem.span.column] == formula["at"]


def test_broken_document_outside_cards_falls_back_to_the_game(
    compiled: dict[str, GameResult],
) -> None:
    result = next(iter(compiled.values()))
    assert result.ir is not None
    ir = copy.deepcopy(result.ir)
    ir["cardc_ir"] = 2
    (problem,) = validate(ir, result.spans, _fallback())
    assert problem.span == _fallback()
    assert "/cardc_ir" in problem.message


def test_a_broken_card_is_reported_every_time(
    nested: tuple[GameResult, str, dict[str, Any]],
) -> None:
    # Validation caches cards that passed; a broken one must never be cached as valid.
    result, path, _card = nested
    assert result.ir is not None
    ir = copy.deepcopy(result.ir)
    _node(ir, path)["kind"] = "jump"
    first = validate(ir, result.spans, _fallback())
    second = validate(ir, result.spans, _fallback())
    assert first and first == second


def test_the_compiled_validator_agrees_with_jsonschema(
    compiled: dict[str, GameResult], nested: tuple[GameResult, str, dict[str, Any]]
) -> None:
    # Builds check with jsonschema_rs when it is installed and explain with jsonschema: the two
    # must accept and refuse the same IR, or a broken IR would pass a build unexplained.
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    fast = jsonschema_rs.Draft202012Validator(SCHEMA)
    slow = Draft202012Validator(SCHEMA)
    for result in compiled.values():
        assert result.ir is not None
        assert fast.is_valid(result.ir) and slow.is_valid(result.ir)
    result, path, _card = nested
    assert result.ir is not None
    for mutation in (
        lambda stmt: stmt.pop("verb"),
        lambda stmt: stmt.update(kind="jump"),
        lambda stmt: stmt.update(args="coins"),
        lambda stmt: stmt["args"].append({"kind": "num"}),
        lambda stmt: stmt["args"].append({"kind": "counter", "name": "not a name"}),
        lambda stmt: stmt.update(at=[1]),
    ):
        ir = copy.deepcopy(result.ir)
        mutation(_node(ir, path))
        assert not fast.is_valid(ir) and not slow.is_valid(ir)
