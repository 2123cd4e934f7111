"""The JSON Schema (Draft 2020-12) of cardc's IR, and validation with spans.

The schema discriminates nodes on their ``kind`` field with ``if``/``then`` rather than
``oneOf``: a validator then checks one branch per node instead of trying them all, and an
error names the field that is wrong rather than "not valid under any of the given schemas".
Validation runs per card, cached by content hash, so an unchanged card is never validated twice
in a process; a schema violation is reported at the DSL span that produced the IR node. When
the optional ``jsonschema_rs`` (a compiled Draft 2020-12 validator) is installed, it checks the
whole IR first and jsonschema runs only to explain IR it rejects.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from dsl.diagnostics import Diagnostic
from dsl.nodes import Span

try:  # A compiled Draft 2020-12 validator (Rust), for the check every build makes.
    import jsonschema_rs
except ImportError:  # pragma: no cover - jsonschema alone gives the same answers, slower
    jsonschema_rs = None  # type: ignore[assignment]

SCHEMA_ID = "https://cardc.dev/schema/ir-1.json"

_EXPR_KINDS = [
    "num",
    "bool",
    "text",
    "roll",
    "dice",
    "local",
    "event",
    "quantity",
    "counter",
    "param",
    "builtin",
    "symbol",
    "card",
    "ref",
    "binary",
    "compare",
    "logic",
    "not",
    "call",
    "verb_test",
    "list",
    "range",
    "attr",
    "none",
    "zone_cards",
]
_STMT_KINDS = [
    "verb",
    "let",
    "if",
    "for_each",
    "may",
    "choose",
    "choose_from",
    "repeat",
    "group",
    "window",
]


def _when(kind: str, required: list[str], **properties: Any) -> dict[str, Any]:
    then: dict[str, Any] = {"required": required}
    if properties:
        then["properties"] = properties
    return {"if": {"properties": {"kind": {"const": kind}}}, "then": then}


_EXPR = {"$ref": "#/$defs/expr"}
_MAYBE_EXPR = {"anyOf": [{"$ref": "#/$defs/expr"}, {"type": "null"}]}
_BODY = {"$ref": "#/$defs/body"}
_NAME = {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": SCHEMA_ID,
    "title": "cardc IR: one game (or variant), checked and lowered",
    "type": "object",
    "required": ["cardc_ir", "game", "title", "variant", "vocabulary", "cards", "provisional"],
    "additionalProperties": False,
    "properties": {
        # The banner generated/<game>/cards.json starts with, so that file validates too.
        "_generated": {"type": "string"},
        "cardc_ir": {"const": 1},
        "game": _NAME,
        "title": {"type": "string"},
        "variant": {"type": ["string", "null"]},
        # The game's declared names; only the parameters' bounds are spelled out here, as
        # the simulator reads them to hold a --param to them (engine.param_bounds).
        "vocabulary": {
            "type": "object",
            "properties": {
                "param_bounds": {
                    "type": "object",
                    "additionalProperties": {"$ref": "#/$defs/param_bounds"},
                }
            },
        },
        "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}},
        "provisional": {"type": "array", "items": {"$ref": "#/$defs/provisional"}},
        "copies": {"type": "object"},
        # Verbs and functions written in the DSL (absent when a game has none).
        "definitions": {
            "type": "object",
            "required": ["verbs", "functions"],
            "additionalProperties": False,
            "properties": {
                "verbs": {"type": "array", "items": {"$ref": "#/$defs/verb_def"}},
                "functions": {"type": "array", "items": {"$ref": "#/$defs/function_def"}},
            },
        },
        # The game's flow (README, "The flow"; absent when the game declares none). Sections are
        # told apart by their "section" key, never by oneOf.
        "flow": {
            "type": "object",
            "required": [
                "title",
                "loc",
                "sections",
                "end_when",
                "end_when_loc",
                "winner",
                "tiebreak",
                "titles",
            ],
            "additionalProperties": False,
            "properties": {
                "title": {"type": ["string", "null"]},
                "loc": {"$ref": "#/$defs/loc"},
                "sections": {"type": "array", "items": {"$ref": "#/$defs/flow_section"}},
                "end_when": _MAYBE_EXPR,
                # Where 'end when' is written (null when there is none).
                "end_when_loc": {"anyOf": [{"$ref": "#/$defs/loc"}, {"type": "null"}]},
                "winner": {"enum": ["highest", "lowest", "team"]},
                "tiebreak": _MAYBE_EXPR,
                # Where 'tiebreak' is written (absent when there is none).
                "tiebreak_loc": {"$ref": "#/$defs/loc"},
                "titles": {
                    "anyOf": [
                        {
                            "type": "object",
                            "required": ["kind"],
                            "additionalProperties": False,
                            "properties": {"kind": _NAME},
                        },
                        {"type": "null"},
                    ]
                },
            },
        },
    },
    "$defs": {
        # `param die_sides 6 { counts "a die's sides"; min 2 "a die has 2 at least" }`: null
        # where the declaration says nothing (engine.param_bounds reads them).
        "param_bounds": {
            "type": "object",
            "required": ["whole", "min", "max", "counts", "switch", "min_why", "max_why"],
            "additionalProperties": False,
            "properties": {
                "whole": {"type": "boolean"},
                "min": {"type": ["number", "null"]},
                "max": {"type": ["number", "null"]},
                "counts": {"type": ["string", "null"]},
                "switch": {"type": ["string", "null"]},
                "min_why": {"type": ["string", "null"]},
                "max_why": {"type": ["string", "null"]},
            },
        },
        "loc": {
            "type": "object",
            "required": ["file", "line", "col"],
            "additionalProperties": False,
            "properties": {
                "file": {"type": "string"},
                "line": {"type": "integer", "minimum": 1},
                "col": {"type": "integer", "minimum": 1},
            },
        },
        "flow_section": {
            "type": "object",
            "required": ["section", "loc", "phases"],
            "additionalProperties": False,
            "properties": {
                "section": {"enum": ["setup", "round", "turn", "end"]},
                "loc": {"$ref": "#/$defs/loc"},
                "count": _EXPR,
                "phases": {"type": "array", "items": {"$ref": "#/$defs/phase"}},
            },
            "allOf": [
                {
                    "if": {"properties": {"section": {"const": "round"}}},
                    "then": {"required": ["count"]},
                }
            ],
        },
        "phase": {
            "type": "object",
            "required": ["name", "title", "loc", "body"],
            "additionalProperties": False,
            "properties": {
                "name": _NAME,
                "title": {"type": ["string", "null"]},
                "loc": {"$ref": "#/$defs/loc"},
                "body": _BODY,
            },
        },
        "param_def": {
            "type": "object",
            "required": ["name", "type"],
            "properties": {"name": _NAME, "type": _NAME, "default": {"type": "number"}},
        },
        "verb_def": {
            "type": "object",
            "required": ["name", "params", "source", "at", "body"],
            "additionalProperties": False,
            "properties": {
                "name": _NAME,
                "params": {"type": "array", "items": {"$ref": "#/$defs/param_def"}},
                "source": {"type": "string"},
                "at": {"type": "array", "items": {"type": "integer"}},
                "body": _BODY,
            },
        },
        "function_def": {
            "type": "object",
            "required": ["name", "params", "source", "at", "returns", "expr"],
            "additionalProperties": False,
            "properties": {
                "name": _NAME,
                "params": {"type": "array", "items": {"$ref": "#/$defs/param_def"}},
                "source": {"type": "string"},
                "at": {"type": "array", "items": {"type": "integer"}},
                "returns": _NAME,
                "expr": _EXPR,
            },
        },
        "provisional": {
            "type": "object",
            "required": ["at", "card", "what", "why", "kind", "name"],
            "properties": {
                "at": {"type": "string"},
                "card": {"type": "string"},
                # For people; "kind" and "name" say the same apart, for programs.
                "what": {"type": "string"},
                "why": {"type": "string", "minLength": 1},
                # What the note marks: card, property, trigger, statement, flow, section,
                # phase, verb, function, or a game value (param, track, counter, ...).
                "kind": {"type": "string", "minLength": 1},
                # The marked item's name (a property, a trigger's event, a phase, a param);
                # "" for a whole card, a statement (its line is in "at") or the flow.
                "name": {"type": "string"},
            },
        },
        "card": {
            "type": "object",
            "required": [
                "id",
                "kind",
                "title",
                "tags",
                "source",
                "properties",
                "formulas",
                "triggers",
                "provisional",
            ],
            "additionalProperties": False,
            "properties": {
                "id": _NAME,
                "kind": _NAME,
                "title": {"type": "string", "minLength": 1},
                "tags": {"type": "array", "items": _NAME},
                "source": {"type": "string"},
                "properties": {"type": "object"},
                "formulas": {
                    "type": "object",
                    "additionalProperties": {
                        "type": "object",
                        "required": ["at", "expr"],
                        "properties": {"at": {"type": "array"}, "expr": _EXPR},
                    },
                },
                "triggers": {
                    "type": "object",
                    "propertyNames": _NAME,
                    "additionalProperties": {
                        "type": "object",
                        "required": ["line", "body"],
                        "properties": {"line": {"type": "integer"}, "body": _BODY},
                    },
                },
                "provisional": {"type": "array", "items": {"type": "string"}},
            },
        },
        "body": {"type": "array", "items": {"$ref": "#/$defs/stmt"}},
        "stmt": {
            "type": "object",
            "required": ["kind", "at"],
            "properties": {
                "kind": {"enum": _STMT_KINDS},
                "at": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
            },
            "allOf": [
                _when(
                    "verb",
                    ["verb", "origin", "args", "else", "say"],
                    verb=_NAME,
                    args={"type": "array", "items": _MAYBE_EXPR},
                    **{"else": {"anyOf": [_BODY, {"type": "null"}]}},
                ),
                _when("let", ["name", "value"], name=_NAME, value=_EXPR),
                _when("if", ["cond", "then", "else"], cond=_EXPR, then=_BODY, **{"else": _BODY}),
                _when(
                    "for_each",
                    ["var", "over", "where", "as_player", "body"],
                    var=_NAME,
                    over=_EXPR,
                    where=_MAYBE_EXPR,
                    as_player={"type": "boolean"},
                    body=_BODY,
                    # Present only with 'by': the keys, lowest first unless descending.
                    order={
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["key", "descending"],
                            "properties": {"key": _EXPR, "descending": {"type": "boolean"}},
                        },
                        "minItems": 1,
                    },
                ),
                # "name": the question's stable name (its @label or its first verb), which
                # the question id and a scenario's answer use, never a position.
                _when(
                    "may", ["ask", "name", "body"], ask={"type": "string"}, name=_NAME, body=_BODY
                ),
                _when(
                    "choose",
                    ["labels", "name", "names", "options"],
                    labels={"type": "array", "items": {"type": "string"}},
                    name=_NAME,
                    names={"type": "array", "items": _NAME},
                    options={"type": "array", "items": _BODY, "minItems": 1},
                ),
                # `choose VAR in LIST where ... { ... }`: one item picked by the acting player
                # (asked as "choose " + ask), then the body with VAR bound to it; over the
                # players, the body acts as the one picked, as a for_each's does.
                _when(
                    "choose_from",
                    ["var", "over", "where", "as_player", "ask", "name", "body"],
                    var=_NAME,
                    over=_EXPR,
                    where=_MAYBE_EXPR,
                    as_player={"type": "boolean"},
                    ask={"type": "string"},
                    name=_NAME,
                    body=_BODY,
                ),
                _when("repeat", ["count", "body"], count=_EXPR, body=_BODY),
                _when("group", ["body"], body=_BODY),
                # `fire TRIGGER with QUANTITY VALUE, ... { ... }`: the window's quantities, in
                # the order game.cards declares them, then the block that reads them back.
                _when(
                    "window",
                    ["trigger", "quantities", "body"],
                    trigger=_NAME,
                    quantities={
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["name", "value"],
                            "additionalProperties": False,
                            "properties": {"name": _NAME, "value": _EXPR},
                        },
                    },
                    body=_BODY,
                ),
            ],
        },
        "expr": {
            "type": "object",
            "required": ["kind"],
            "properties": {"kind": {"enum": _EXPR_KINDS}},
            "allOf": [
                _when("num", ["value"], value={"type": "number"}),
                _when("bool", ["value"], value={"type": "boolean"}),
                _when("text", ["value"], value={"type": "string"}),
                _when(
                    "roll",
                    ["count", "sides"],
                    count={"type": "integer", "minimum": 1},
                    sides={"type": "integer", "minimum": 2},
                ),
                _when(
                    "dice",
                    ["count", "sides"],
                    count={"type": "integer", "minimum": 1},
                    sides={"type": "integer", "minimum": 2},
                ),
                _when(
                    "ref",
                    ["to", "name"],
                    name=_NAME,
                    to={
                        "enum": [
                            "counter",
                            "track",
                            "zone",
                            "quantity",
                            "card_name",
                            "name",
                            "trigger",
                        ]
                    },
                ),
                _when(
                    "binary",
                    ["op", "left", "right"],
                    op={"enum": ["+", "-", "*", "/", "%"]},
                    left=_EXPR,
                    right=_EXPR,
                ),
                _when(
                    "compare",
                    ["op", "left", "right"],
                    op={"enum": ["<", "<=", ">", ">=", "==", "!="]},
                    left=_EXPR,
                    right=_EXPR,
                ),
                _when(
                    "logic",
                    ["op", "left", "right"],
                    op={"enum": ["and", "or"]},
                    left=_EXPR,
                    right=_EXPR,
                ),
                _when("not", ["operand"], operand=_EXPR),
                _when(
                    "call",
                    ["native", "origin", "args"],
                    native=_NAME,
                    args={"type": "array", "items": _MAYBE_EXPR},
                ),
                _when(
                    "verb_test",
                    ["verb", "origin", "args"],
                    verb=_NAME,
                    args={"type": "array", "items": _MAYBE_EXPR},
                ),
                _when("list", ["items"], items={"type": "array", "items": _EXPR}),
                _when("range", ["low", "high"], low=_EXPR, high=_EXPR),
                _when("attr", ["value", "attr"], value=_EXPR, attr=_NAME),
                _when("card", ["id"], id=_NAME),
                # A zone's name at the head of `for each` or `choose`: the cards the acting
                # player's zone holds, as a list taken then.
                _when("zone_cards", ["zone"], zone=_NAME),
            ]
            + [
                _when(k, ["name"], name=_NAME)
                for k in ("local", "event", "counter", "param", "builtin", "symbol")
            ]
            # A quantity of this trigger, or (with "window") of the window a `fire ... { }`
            # opened around the expression.
            + [_when("quantity", ["name"], name=_NAME, window=_NAME)],
        },
    },
}


@functools.cache
def _validators() -> tuple[Any, Any]:
    """jsonschema's validators of the whole IR and of one card.

    Built on first use: jsonschema takes a tenth of a second to import, and valid IR (every
    `cardc check` that finds nothing) never needs it when the compiled validator is there.
    """
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(SCHEMA)
    card = {"$schema": SCHEMA["$schema"], "$ref": "#/$defs/card", "$defs": SCHEMA["$defs"]}
    return Draft202012Validator(SCHEMA), Draft202012Validator(card)


_VALID_CARDS: set[str] = set()
#: The same schema, compiled: about a hundred times faster than jsonschema on valid IR.
_FAST = jsonschema_rs.Draft202012Validator(SCHEMA) if jsonschema_rs is not None else None
#: One card's schema, compiled: a rebuild validates only the cards whose IR is new.
_FAST_CARD = (
    jsonschema_rs.Draft202012Validator(
        {"$schema": SCHEMA["$schema"], "$ref": "#/$defs/card", "$defs": SCHEMA["$defs"]}
    )
    if jsonschema_rs is not None
    else None
)


def _fast_valid(ir: dict[str, Any]) -> bool:
    """The compiled validator's answer for ``ir``: the document around the cards, then each
    card not already found valid (a card IR kept by compiler.filecache is the same object)."""
    from compiler.filecache import card_memo

    assert _FAST is not None and _FAST_CARD is not None
    if not _FAST.is_valid({**ir, "cards": []}):
        return False
    for card in ir["cards"]:
        memo = card_memo(card)
        if memo.get("valid"):
            continue
        if not _FAST_CARD.is_valid(card):
            return False
        memo["valid"] = True
    return True


def schema_text() -> str:
    """The schema as published in ``generated/schema/``."""
    return json.dumps(SCHEMA, indent=2, sort_keys=True) + "\n"


def _nearest_span(spans: dict[str, Span], pointer: str) -> Span | None:
    while pointer:
        if pointer in spans:
            return spans[pointer]
        pointer = pointer.rsplit("/", 1)[0]
    return None


def _deepest(error: Any) -> Any:
    """The innermost cause of an ``anyOf`` failure (``else``: a body or null; a maybe-arg).

    The ``anyOf`` error itself sits at the container and says only "not valid under any of the
    given schemas"; the branch error that reached deepest into the node names the broken field
    and lies under the span of the statement that produced it.
    """
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    return error


def validate(ir: dict[str, Any], spans: dict[str, Span], fallback: Span) -> list[Diagnostic]:
    """Validate ``ir``; each violation becomes a diagnostic at the span of its IR node.

    Every build validates the whole IR with Draft 2020-12 semantics. When ``jsonschema_rs`` is
    installed its compiled validator answers first, and only IR it rejects is validated again
    by jsonschema, whose errors make the detailed report (jsonschema alone took more than 90%
    of a 10,000-card build). Without it, jsonschema validates everything.
    """
    if _FAST is not None and _fast_valid(ir):
        return []
    problems = _detailed(ir, spans, fallback)
    if not problems and _FAST is not None:
        # The validators disagree (their regex dialects differ at the edges): the compiled
        # one's errors are still errors.
        for error in _FAST.iter_errors(ir):
            pointer = "".join(f"/{part}" for part in error.instance_path)
            problems.append(_schema_error(pointer, error.message, spans, fallback))
    return problems


def _schema_error(pointer: str, message: str, spans: dict[str, Span], fallback: Span) -> Diagnostic:
    return Diagnostic(
        "schema",
        f"the IR breaks its schema at {pointer or '/'}: {message}",
        _nearest_span(spans, pointer) or fallback,
        "error",
        ("this is a bug in cardc's lowering, not in your cards; please report it",),
    )


def _detailed(ir: dict[str, Any], spans: dict[str, Span], fallback: Span) -> list[Diagnostic]:
    """jsonschema's errors, mapped to spans.

    Cards are validated one by one and remembered by content hash; the document around them
    (vocabulary, provenance) is small and validated whole with the cards left out.
    """
    problems: list[Diagnostic] = []
    whole, one_card = _validators()
    shell = {**ir, "cards": []}
    errors = [(e, "") for e in whole.iter_errors(shell)]
    for index, card in enumerate(ir["cards"]):
        digest = hashlib.blake2b(
            json.dumps(card, sort_keys=True).encode(), digest_size=16
        ).hexdigest()
        if digest in _VALID_CARDS:
            continue
        card_errors = list(one_card.iter_errors(card))
        if not card_errors:
            _VALID_CARDS.add(digest)
        errors.extend((e, f"/cards/{index}") for e in card_errors)
    for found, prefix in errors:
        error = _deepest(found)
        pointer = prefix + "".join(f"/{part}" for part in error.absolute_path)
        problems.append(_schema_error(pointer, error.message, spans, fallback))
    return problems
