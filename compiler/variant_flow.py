"""Variants that reach the rules themselves: the overlay keys ``verbs:`` and ``flow:``.

``verbs:`` holds DSL ``verb`` and ``function`` definitions (a YAML block string, or a list of
them). One with the name of a definition the game already has replaces it; any other is new.
A redefinition keeps the base's signature, because every card, phase and verb of the base calls
it so: the same parameters (names and types, in order), the same kind (verb or function) and,
for a function, the same type of value. It may add parameters at the end that have a default,
which every existing call leaves at the default. Anything else is refused at the YAML line of
the redefinition, saying what differs; a verb that means something else is a new verb with a
name of its own (and the calls that should use it are edited where they are).

``flow:`` is a list of edits of the game's ``flow`` declaration (FLOW_SPEC.md, section E),
applied in order, each to the flow the edits above it left:

    - insert: |                       # a new phase, in the DSL
        phase storm_season "Storm Season" { ... }
      before: pirate                  # or after: NAME, or into: SECTION (at its end)
    - replace: |                      # the phase of that name, in its place
        phase planning { ... }
    - remove: logbook
    - move: sailing                   # to another place: before:, after: or into:
      after: pirate
    - end_when: "round == 10"         # the end condition, in the DSL (null: none)

Every name is looked up in the flow as the edits above have left it, with "did you mean";
errors are at the YAML line and column, and a phase's DSL text is parsed where it sits in the
YAML, so its own syntax errors and the checker's errors about its body point there too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from dsl.nodes import Definition, FunctionDef, SourceFile, Span, VerbDef

if TYPE_CHECKING:
    from compiler.variants import Overlay, _Context


def _what(definition: Definition) -> str:
    return "verb" if isinstance(definition, VerbDef) else "function"


def _usage(definition: Definition) -> str:
    """A definition's head in the DSL's own words: ``gain_port_card(count number = 1)``."""
    params = ", ".join(
        f"{p.name} {p.type}"
        + (f" = {getattr(p.default, 'value', '...')}" if p.default is not None else "")
        for p in definition.params
    )
    head = f"{_what(definition)} {definition.name}({params})"
    if isinstance(definition, FunctionDef):
        head += f" {definition.returns}"
    return head


def signature_change(base: Definition, new: Definition) -> str:
    """How ``new`` changes the signature of the definition ``base`` it replaces, in a way the
    base's calls would notice ('' when it does not)."""
    if _what(base) != _what(new):
        return f"the base's '{base.name}' is a {_what(base)}, this is a {_what(new)}"
    for index, param in enumerate(new.params):
        if index >= len(base.params):
            if param.default is None:
                return (
                    f"the new parameter '{param.name} {param.type}' has no default, "
                    "so the base's calls would leave it out"
                )
            continue
        theirs = base.params[index]
        if (param.name, param.type) != (theirs.name, theirs.type):
            return (
                f"parameter {index + 1} is '{param.name} {param.type}', "
                f"the base's is '{theirs.name} {theirs.type}'"
            )
    if len(new.params) < len(base.params):
        gone = ", ".join(f"'{p.name} {p.type}'" for p in base.params[len(new.params) :])
        return f"it leaves out the base's parameter{'s' if len(gone) > 1 else ''} {gone}"
    if isinstance(base, FunctionDef) and isinstance(new, FunctionDef):
        if base.returns != new.returns:
            return f"it gives {new.returns}, the base's gives {base.returns}"
    return ""


def apply_verbs(
    ctx: _Context,
    files: list[SourceFile],
    overlay: Overlay,
    data: Any,
    parse_block: Callable[..., tuple[Any, ...]],
    value_span: Callable[[str, Any, Any], Span],
) -> list[SourceFile]:
    """``files`` with the overlay's ``verbs:`` applied: each definition replaces the game's
    definition of that name (same signature), or is added. ``parse_block`` and ``value_span``
    are compiler.variants' (passed in: this module importing that one, which imports this,
    made an import circle)."""
    blocks = data["verbs"] if isinstance(data["verbs"], list) else None
    items = list(enumerate(blocks)) if blocks is not None else [("verbs", data["verbs"])]
    holder = blocks if blocks is not None else data
    new: list[Definition] = []
    for key, text in items:
        if not isinstance(text, str):
            ctx.error(
                "variant-shape",
                "'verbs' holds verb and function definitions written in the DSL, as a block: "
                "verbs: |",
                value_span(ctx.where, holder, key),
            )
            continue
        parsed = parse_block(text, overlay, holder, key, ctx.diagnostics)
        for item in parsed:
            if isinstance(item, (VerbDef, FunctionDef)):
                new.append(item)
                continue
            ctx.error(
                "variant-shape",
                f"'verbs' holds verb and function definitions, not a {item.kind}",
                item.span,
                "write new cards under add: |",
            )
    if not new:
        return files
    # Where each definition of the game (and of the variants this one extends) is written.
    base: dict[str, tuple[int, int, Definition]] = {}
    for fi, source in enumerate(files):
        for di, definition in enumerate(source.definitions):
            base.setdefault(definition.name, (fi, di, definition))
    drop: dict[int, set[int]] = {}
    kept: list[Definition] = []
    for definition in new:
        found = base.get(definition.name)
        if found is None:
            kept.append(definition)
            continue
        fi, di, old = found
        change = signature_change(old, definition)
        if change:
            ctx.error(
                "variant-signature",
                f"this redefines the {_what(old)} '{old.name}' of {_place(old.span)} with "
                f"another signature: {change}",
                definition.span,
                f"keep its signature: {_usage(old)}",
                "a redefinition may add parameters at the end with a default "
                "(extra number = 1), which the existing calls leave at the default; "
                f"a {_what(definition)} that means something else needs a name of its own",
            )
            continue
        if di in drop.get(fi, set()):
            ctx.error(
                "duplicate-definition",
                f"the {_what(definition)} '{definition.name}' is redefined twice in this variant",
                definition.span,
                "keep one of them",
            )
            continue
        drop.setdefault(fi, set()).add(di)
        kept.append(definition)
    files = [
        dataclasses.replace(
            source,
            definitions=tuple(
                d for di, d in enumerate(source.definitions) if di not in drop.get(fi, set())
            ),
        )
        if fi in drop
        else source
        for fi, source in enumerate(files)
    ]
    files.append(SourceFile(ctx.where, (), tuple(kept)))
    return files


def _place(span: Span) -> str:
    return f"{span.file}:{span.line}:{span.column}"
