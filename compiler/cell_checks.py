"""A card's property read as a hex cell must be one: ``cell 1 -1``, not ``cell 0, 0``.

A hex cell on a card is a ``list`` property of one clause of two numbers (``cell 1 -1``,
``[[1, -1]]`` in the IR; README, "A hex cell"), and a list of cells one clause per cell
(``cells 0 0, 1 0``). The checker types a property as a list, not as a cell, so ``cell 0, 0``
(two clauses of one number) checked and built, and stopped the first game that read it with
"[[0], [0]] is not a hex cell". Here, after the game is lowered, every property the cards,
verbs, functions and flow pass where the standard library takes a cell (``Spec.cells``,
``Spec.cell_lists``: ``hex_distance(land.cell, [0, 0])``), directly or through a DSL function's
parameter, is held to that shape on every card of its kind, at the property's line.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from compiler.card_checks import _declarations, _span
from dsl.diagnostics import Diagnostic
from dsl.nodes import SourceFile

CODE = "not-a-cell"

#: The standard-library modules whose natives and verbs take cells.
_CELL_MODULES = ("stdlib.hexes", "stdlib.tiles")

#: What a slot takes: one cell, or a list of cells.
CELL, CELLS = "cell", "cells"


def check_cells(ir: Mapping[str, Any], parsed: Iterable[SourceFile]) -> list[Diagnostic]:
    """Each card whose property is read as a hex cell (or a list of cells) but is none, as an
    error at the property. Nothing is done (no library imported) for a game that uses
    neither the ``hexes`` nor the ``tiles`` module."""
    vocabulary = ir.get("vocabulary", {})
    library = [
        name
        for group in ("natives", "verbs")
        for name, each in (vocabulary.get(group) or {}).items()
        if each.get("origin") in _CELL_MODULES
    ]
    if not library:
        return []
    from engine.stdlib import spec

    slots: dict[str, dict[int, str]] = {}
    for name in library:
        found = spec(name)
        if found is None:
            continue
        names = [p.name for p in found.params]
        taken = {names.index(p): CELL for p in found.cells}
        taken.update({names.index(p): CELLS for p in found.cell_lists})
        if taken:
            slots[name] = taken
    library_names = frozenset(slots)
    _dsl_slots(ir, slots)
    uses: dict[tuple[str, str], tuple[str, str]] = {}
    triggers = vocabulary.get("triggers") or {}
    for card in ir.get("cards", []):
        for trigger, body in (card.get("triggers") or {}).items():
            events = (triggers.get(trigger) or {}).get("param_kinds") or {}
            env = {"self": card["kind"], **{f"event:{k}": v for k, v in events.items()}}
            _uses(body, env, slots, uses, library_names)
    definitions = ir.get("definitions") or {}
    for definition in [*definitions.get("verbs", ()), *definitions.get("functions", ())]:
        _uses(definition, {}, slots, uses, library_names)
    _uses(ir.get("flow"), {}, slots, uses, library_names)
    return list(_problems(ir, parsed, uses))


def _dsl_slots(ir: Mapping[str, Any], slots: dict[str, dict[int, str]]) -> None:
    """Add to ``slots`` each DSL verb's and function's parameters that go where a cell goes
    (``function near_keep(cell list) ... = hex_distance(cell, [0, 0]) <= 1``), through any
    number of definitions calling one another (until nothing more is found)."""
    definitions = ir.get("definitions") or {}
    every = [*definitions.get("verbs", ()), *definitions.get("functions", ())]
    changed = True
    while changed:
        changed = False
        for definition in every:
            params = [p["name"] for p in definition.get("params", ())]
            for callee, slot, arg in _calls(definition, slots):
                if arg.get("kind") == "local" and arg.get("name") in params:
                    index = params.index(arg["name"])
                    shape = slots[callee][slot]
                    if slots.setdefault(definition["name"], {}).get(index) != shape:
                        slots[definition["name"]][index] = shape
                        changed = True


def _calls(node: Any, slots: Mapping[str, dict[int, str]]) -> Iterator[tuple[str, int, Any]]:
    """Every argument of ``node``'s calls that goes where a cell goes: (callee, slot, arg)."""
    for call in _walk(node):
        name = call.get("native") if call.get("kind") == "call" else call.get("verb")
        if not isinstance(name, str) or name not in slots:
            continue
        args = call.get("args") or []
        for slot in slots[name]:
            if slot < len(args) and isinstance(args[slot], dict):
                yield name, slot, args[slot]


def _walk(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _uses(
    node: Any,
    env: dict[str, str],
    slots: Mapping[str, dict[int, str]],
    uses: dict[tuple[str, str], tuple[str, str]],
    library: frozenset[str],
) -> None:
    """Note in ``uses`` each (kind, property) passed where a cell goes, with the shape and the
    callee: a loop's name over a kind (``for each l in land``), ``self`` or a trigger's
    param of a declared kind, followed by ``.PROPERTY``; the callee named is the
    ``library``'s native when one reads it, else the DSL function passing it on."""
    if isinstance(node, list):
        for value in node:
            _uses(value, env, slots, uses, library)
        return
    if not isinstance(node, dict):
        return
    if node.get("kind") == "for_each" and isinstance(node.get("var"), str):
        inner = dict(env)
        inner.pop(node["var"], None)
        over = node.get("over")
        # `for each l in land`: the kind's cards, as a list that says their kind.
        of_kind = over.get("of_kind") if isinstance(over, dict) else None
        if isinstance(of_kind, str):
            inner[node["var"]] = of_kind
        for key, value in node.items():
            _uses(value, env if key == "over" else inner, slots, uses, library)
        return
    name = node.get("native") if node.get("kind") == "call" else node.get("verb")
    if isinstance(name, str) and name in slots:
        args = node.get("args") or []
        for slot, shape in slots[name].items():
            arg = args[slot] if slot < len(args) else None
            kind = _kind_of(arg.get("value") if isinstance(arg, dict) else None, env, arg)
            if kind is not None and isinstance(arg, dict):
                key = (kind, arg["attr"])
                # Said by the library's native that reads it, over a function passing it on.
                if key not in uses or (name in library and uses[key][1] not in library):
                    uses[key] = (shape, name)
    for value in node.values():
        _uses(value, env, slots, uses, library)


def _kind_of(value: Any, env: Mapping[str, str], arg: Any) -> str | None:
    """The kind of card an ``attr`` argument's object is, when the IR says: None else."""
    if not isinstance(arg, dict) or arg.get("kind") != "attr" or arg.get("tag"):
        return None
    if not isinstance(value, dict):
        return None
    if value.get("kind") == "local":
        return env.get(str(value.get("name")))
    if value.get("kind") == "builtin" and value.get("name") == "self":
        return env.get("self")
    if value.get("kind") == "event":
        return env.get(f"event:{value.get('name')}")
    return None


def _is_cell(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in value)
    )


def _shown(value: Any) -> str:
    """A list property's IR value as a card writes it: ``[[0], [0]]`` -> ``0, 0``."""
    if not isinstance(value, list):
        return str(value)
    return ", ".join(
        " ".join(str(w) for w in clause) if isinstance(clause, list) else str(clause)
        for clause in value
    )


def _problems(
    ir: Mapping[str, Any],
    parsed: Iterable[SourceFile],
    uses: Mapping[tuple[str, str], tuple[str, str]],
) -> Iterator[Diagnostic]:
    if not uses:
        return
    declarations = _declarations(parsed)
    for card in ir.get("cards", []):
        for (kind, prop), (shape, callee) in sorted(uses.items()):
            if card.get("kind") != kind or prop not in (card.get("properties") or {}):
                continue
            value = card["properties"][prop]
            if shape == CELL:
                if isinstance(value, list) and len(value) == 1 and _is_cell(value[0]):
                    continue
                numbers = [n for clause in value if isinstance(clause, list) for n in clause]
                numbers = numbers if isinstance(value, list) else []
                example = " ".join(map(str, numbers)) if len(numbers) == 2 else "1 -1"
                message = (
                    f"{card['title']}: '{prop} {_shown(value)}' is read as a hex cell (by "
                    f"{callee}), but it is not one cell"
                )
                hint = (
                    "a card gives one as a property of two numbers, one clause (no comma): "
                    f"{prop} {example}"
                )
            else:
                if isinstance(value, list) and all(_is_cell(clause) for clause in value):
                    continue
                message = (
                    f"{card['title']}: '{prop} {_shown(value)}' is read as a list of hex cells "
                    f"(by {callee}), but not every clause is a cell"
                )
                hint = f"each clause is a cell of two numbers: {prop} 0 0, 1 -1"
            source = str(card.get("source", ""))
            span = _span(declarations.get(source), prop, source)
            yield Diagnostic(CODE, message, span, "error", (hint,))
