"""The JSON Schema of one game's scenarios, for YAML editors (``generated/<game>/...``).

Written by ``cardc build`` from the same declarations :mod:`engine.scenario_check` checks
scenarios with: the game's ``given``/``expect`` keys and their values (cards, spaces, goods by
id, counters within bounds, tracks within their length), every step (``run: card.trigger``,
``fire: trigger``, ``action: name`` with its arguments) and every question with its answers.
An editor running the YAML language server completes and underlines from it as one types;
``cardc test`` stays the judge (it also knows the scenario's player count and where a value
is).
"""

from __future__ import annotations

from typing import Any

from engine.modes import MODE_SPELLINGS
from engine.scenario_check import (
    EVENT_KEYS,
    SEAT,
    CardMemo,
    player_kinds,
    questions,
    vocabulary,
)
from engine.scenario_flow import scenario_action_args, scenario_actions
from engine.scenario_types import Kind, Vocabulary, pool_def

_EVENTS = {"type": "array", "items": {"type": "string"}}


def _kinds(
    kinds: dict[str, Kind], vocab: Vocabulary, docs: dict[str, str] | None = None
) -> dict[str, Any]:
    """Each key's schema, with the description its hook's docstring gives (``docs``)."""
    found: dict[str, Any] = {}
    for name, kind in sorted(kinds.items()):
        schema = kind.schema(vocab)
        if docs and docs.get(name):
            schema = {**schema, "description": docs[name]}
        found[name] = schema
    return found


def hook_docs(rules: Any, table: str) -> dict[str, str]:
    """The first paragraph of the docstring of each hook of the game's ``GIVEN`` or ``EXPECT``
    (``table``), on one line: what an editor shows for a game's own key (Land vs Sea's
    ``board``: how a tile is written), which the README can only point to."""
    hooks = getattr(rules, table, None) if rules else None
    docs: dict[str, str] = {}
    for name, hook in (hooks or {}).items():
        doc = getattr(hook, "__doc__", None) or ""
        if not doc.strip() or getattr(hook, "__name__", "") == "<lambda>":
            continue
        docs[str(name)] = " ".join(doc.strip().split("\n\n")[0].split())
    return docs


def _player(
    vocab: Vocabulary, hooks: dict[str, Kind], rules: Any, docs: dict[str, str], given: bool
) -> dict[str, Any]:
    properties = _kinds(player_kinds(vocab, rules, given), vocab)
    properties.update(_kinds(hooks, vocab, docs))
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _state(
    vocab: Vocabulary, hooks: dict[str, Kind], expect: bool, docs: dict[str, str]
) -> dict[str, Any]:
    rounds = vocab.ir["vocabulary"]["params"].get("rounds")
    round_schema: dict[str, Any] = {"type": "integer", "minimum": 1}
    if isinstance(rounds, int):
        round_schema["maximum"] = rounds
    which = "expect" if expect else "given"
    properties: dict[str, Any] = {
        "round": round_schema,
        "player": {"$ref": f"#/$defs/player_{which}"},
        "players": {"type": "array", "items": {"$ref": f"#/$defs/player_{which}"}},
    }
    properties.update(_kinds(hooks, vocab, docs))
    if expect:
        triggers = vocab.ir["vocabulary"]["triggers"].values()
        names = sorted({q for t in triggers for q in t.get("quantities") or []})
        properties["quantities"] = {
            "type": "object",
            "propertyNames": {"enum": names},
            "additionalProperties": {"type": "integer"},
        }
        for key in EVENT_KEYS:
            properties[key] = dict(_EVENTS)
        properties["refused"] = {
            "type": "string",
            "description": "words of the refusal the engine must give (the rule it applies)",
        }
        properties["error"] = {"type": "string", "description": "the older name of refused"}
    return {"type": "object", "properties": properties, "additionalProperties": False}


def _steps(vocab: Vocabulary, rules: Any) -> list[dict[str, Any]]:
    ir = vocab.ir
    common = {
        "player": {"type": "integer", "minimum": 1, "maximum": max(ir["vocabulary"]["players"])},
        "expect": {"$ref": "#/$defs/expect"},
    }
    triggered = {
        **common,
        "event": {"type": "object"},
        "quantities": {"type": "object", "additionalProperties": {"type": "integer"}},
    }
    runs = sorted(f"{c['id']}.{t}" for c in ir["cards"] for t in c["triggers"])
    steps: list[dict[str, Any]] = [
        {
            "type": "object",
            "properties": {"run": {"enum": runs}, **triggered},
            "required": ["run"],
            "additionalProperties": False,
        },
        {
            "type": "object",
            "properties": {"fire": {"enum": list(vocab.pool("trigger"))}, **triggered},
            "required": ["fire"],
            "additionalProperties": False,
        },
    ]
    actions = scenario_action_args(rules, vocab.ir)
    performed = scenario_actions(rules, vocab.ir)
    for name, args in sorted(actions.items()):
        doc = getattr(performed.get(name), "__doc__", None) or ""
        step: dict[str, Any] = {
            "type": "object",
            "properties": {"action": {"const": name}, "args": args.schema(vocab), **common},
            "required": ["action", *(["args"] if args.required else [])],
            "additionalProperties": False,
        }
        if doc.strip():
            step["description"] = doc.strip().splitlines()[0]
        steps.append(step)
    return steps


def _choice(vocab: Vocabulary, rules: Any, memo: CardMemo | None = None) -> dict[str, Any]:
    asked = questions(vocab.ir, rules, memo)
    properties: dict[str, Any] = {}
    for ident, (prompt, answers) in sorted(asked.items()):
        schema: dict[str, Any]
        if answers == SEAT:  # a player's seat number, within the scenario's players
            schema = {"type": ["integer", "string"]}
        elif isinstance(answers, str):  # a pool of ids, written once in $defs
            vocab.referenced.add(answers)
            schema = {"$ref": f"#/$defs/{pool_def(answers)}"}
        elif answers is not None and tuple(answers) == ("yes", "no"):
            schema = {"enum": [True, False, "yes", "no"]}
        elif answers is not None:
            schema = {"enum": list(answers)}
        else:
            schema = {"type": ["string", "integer", "boolean"]}
        schema["description"] = prompt
        properties[ident] = schema
    return {
        "type": "object",
        "minProperties": 1,
        "maxProperties": 1,
        "propertyNames": {"enum": sorted(asked)},
        "properties": properties,
    }


def game_schema(
    ir: dict[str, Any],
    rules: Any,
    variants: list[str] | None = None,
    memo: CardMemo | None = None,
) -> dict[str, Any]:
    """The scenario schema of the game (or variant) ``ir``, whose module is ``rules``
    (``memo`` keeps what each card asks with the card: see
    :func:`engine.scenario_check.card_questions`)."""
    from engine.scenario_library import with_library

    rules = with_library(rules, ir)  # a market's row, for a game that uses markets
    vocab = vocabulary(ir, rules, max(ir["vocabulary"]["players"] or [1]))
    given = dict(getattr(rules, "GIVEN_KINDS", {}) or {}) if rules else {}
    expect = dict(getattr(rules, "EXPECT_KINDS", {}) or {}) if rules else {}
    low, high = min(ir["vocabulary"]["players"] or [1]), max(ir["vocabulary"]["players"] or [1])
    name = ir["game"] + (f" (variant {ir['variant']})" if ir.get("variant") else "")
    given_docs, expect_docs = hook_docs(rules, "GIVEN"), hook_docs(rules, "EXPECT")
    defs: dict[str, Any] = {
        "player_given": _player(vocab, given, rules, given_docs, True),
        "player_expect": _player(vocab, expect, rules, expect_docs, False),
        "given": _state(vocab, given, False, given_docs),
        "expect": _state(vocab, expect, True, expect_docs),
        "step": {"anyOf": _steps(vocab, rules)},
        "choice": _choice(vocab, rules, memo),
    }
    for pool in sorted(vocab.referenced):
        defs[pool_def(pool)] = {"enum": list(vocab.pool(pool))}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://cardc.dev/schema/{name.replace(' ', '-')}/scenario.json",
        "title": f"cardc scenario of {ir['title']}: given state, dice, choices, steps, expected",
        "type": "object",
        "required": ["scenario", "game"],
        "additionalProperties": False,
        "properties": {
            "scenario": {"type": "string", "minLength": 1},
            "game": {"const": ir["game"]},
            "variant": {
                "enum": [*(variants or ([ir["variant"]] if ir.get("variant") else [])), None]
            },
            "mode": {"enum": list(MODE_SPELLINGS)},
            "players": {"type": "integer", "minimum": low, "maximum": high},
            "seed": {"type": "integer"},
            "rulebook": {"type": "string"},
            "given": {"$ref": "#/$defs/given"},
            "dice": {"type": "array", "items": {"type": "integer", "minimum": 1}},
            "choices": {
                "type": "array",
                "items": {
                    "anyOf": [
                        {"type": ["string", "integer", "boolean"]},
                        {"$ref": "#/$defs/choice"},
                    ]
                },
            },
            "do": {"type": "array", "items": {"$ref": "#/$defs/step"}},
            "expect": {"$ref": "#/$defs/expect"},
            "allow_unused": {"type": "boolean"},
        },
        "$defs": defs,
    }
