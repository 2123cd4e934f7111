"""Variants that reach the rules themselves: the overlay keys ``verbs:`` and ``flow:``.

``verbs:`` holds DSL ``verb`` and ``function`` definitions (a YAML block string, or a list of
them). One with the name of a definition the game already has replaces it; any other is new.
A redefinition keeps the base's signature, because every card, phase and verb of the base calls
it so: the same parameters (names and types, in order), the same kind (verb or function) and,
for a function, the same type of value. It may add parameters at the end that have a default,
which every existing call leaves at the default. Anything else is refused at the YAML line of
the redefinition, saying what differs; a verb that means something else is a new verb with a
name of its own (and the calls that should use it are edited where they are).

``flow:`` is a list of edits of the game's ``flow`` declaration (README, "Variants that reach
the flow and the verbs"), applied in order, each to the flow the edits above it left:

    - insert: |                       # a new phase, in the DSL
        phase storm_season "Storm Season" { ... }
      before: pirate                  # or after: NAME, or into: SECTION (at its end)
    - replace: |                      # the phase of that name, in its place
        phase planning { ... }
    - remove: logbook
    - move: sailing                   # to another place: before:, after: or into:
      after: pirate
    - end_when: "round == 10"         # the end condition, in the DSL (null: none)
    - tiebreak: "coins"               # what breaks a tie for the winner (null: none)

Every name is looked up in the flow as the edits above have left it, with "did you mean";
errors are at the YAML line and column, and a phase's DSL text is parsed where it sits in the
YAML, so its own syntax errors and the checker's errors about its body point there too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from typing import TYPE_CHECKING, Any

from compiler.suggest import did_you_mean
from compiler.variant_spans import (
    _Context,
    _key_span,
    _not_found,
    _parse_block,
    _value_span,
    block_mover,
    remap_spans,
)
from compiler.variant_values import move_positions
from dsl.nodes import Command, Definition, FlowSection, FunctionDef, SourceFile, Span, VerbDef
from dsl.parser import parse

if TYPE_CHECKING:
    from compiler.variants import Overlay


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
    ctx: _Context, files: list[SourceFile], overlay: Overlay, data: Any
) -> list[SourceFile]:
    """``files`` with the overlay's ``verbs:`` applied: each definition replaces the game's
    definition of that name (same signature), or is added."""

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
                _value_span(ctx.where, holder, key),
            )
            continue
        parsed = _parse_block(text, overlay, holder, key, ctx.diagnostics)
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
                f"this redefines the {_what(old)} '{old.name}' of {_place_text(old.span)} with "
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


# -- flow: edits of the game's flow declaration

#: What a flow edit does (each item has exactly one of these) and where it puts a phase.
ACTIONS = ("insert", "replace", "remove", "move", "end_when", "tiebreak")
PLACES = ("before", "after", "into")
#: The sections a flow may have, in the order they run.
SECTIONS = ("setup", "round", "turn", "end")
#: Sections an insert or a move may create when the game's flow has none: they need no count.
_NEW_SECTIONS = ("setup", "end")

_SHAPE_HINT = (
    "each edit is one of: - insert: | phase NAME { ... } (with before:, after: or into:), "
    "- replace: | phase NAME { ... }, - remove: NAME, - move: NAME (with before:, after: or "
    'into:), - end_when: "CONDITION", - tiebreak: "EXPRESSION"'
)


@dataclass
class _Section:
    """A section of the flow being edited: its node (for its count and annotations) and its
    phases as the edits so far have left them."""

    name: str
    node: Any  # dsl.nodes.FlowSection, or None for a section an edit created
    phases: list[Any]  # dsl.nodes.Phase


@dataclass
class _FlowState:
    """The flow as the edits above the current one have left it."""

    sections: list[_Section]
    end_when: Any  # the `end when` FlowSetting, or None
    end_when_set: bool = False
    tiebreak: Any = None  # the `tiebreak` FlowSetting, or None
    #: Phases this overlay inserted or removed: name -> where (the YAML span of that edit).
    inserted: dict[str, Span] = field(default_factory=dict)
    removed: dict[str, Span] = field(default_factory=dict)

    def names(self) -> list[str]:
        return [p.name for s in self.sections for p in s.phases]

    def titles(self) -> dict[str, str]:
        """Each phase's title by its name ("End of the Game" for final_scoring): a guess from
        the rulebook's words finds the phase by them."""
        return {p.name: p.title for s in self.sections for p in s.phases if p.title}

    def find(self, name: str) -> tuple[int, int] | None:
        for si, section in enumerate(self.sections):
            for pi, phase in enumerate(section.phases):
                if phase.name == name:
                    return si, pi
        return None

    def section(self, name: str) -> int | None:
        return next((i for i, s in enumerate(self.sections) if s.name == name), None)


def _game_flow(files: list[SourceFile]) -> tuple[int, int] | None:
    """(file, index) of the game's flow declaration: the first one (the checker refuses a
    second)."""
    for fi, source in enumerate(files):
        if getattr(source, "flows", ()):
            return fi, 0
    return None


def _phase_name_span(overlay: Overlay, phase: Any) -> Span:
    """Where a phase's name is written (its span starts at the word ``phase``)."""
    span = phase.span
    lines = overlay.text.split("\n")
    line = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
    at = line.find(phase.name, span.column - 1 + len("phase"))
    if at < 0 or span.file != str(overlay.path):
        return span
    return Span(span.file, span.line, at + 1, span.line, at + 1 + len(phase.name))


def _snippet_mover(
    outer: Callable[[Span], Span], first: int, last: int, width: int
) -> Callable[[Span], Span]:
    """Spans of a snippet whose lines ``first``..``last`` are the YAML text's lines 1.. (the
    wrapper's own lines fall on the text's first or last line) to the YAML file."""

    def clamp(line: int, column: int) -> tuple[int, int]:
        if line < first:
            return 1, 1
        if line > last:
            return last - first + 1, width + 1
        return line - first + 1, column

    def move(span: Span) -> Span:
        line, column = clamp(span.line, span.column)
        end_line, end_column = clamp(span.end_line, span.end_column)
        if (end_line, end_column) < (line, column):
            end_line, end_column = line, column + 1
        return outer(Span(span.file, line, column, end_line, end_column))

    return move


def _parse_phase(ctx: _Context, overlay: Overlay, node: Any, key: str) -> Any | None:
    """The one phase written in the DSL at ``node[key]`` (spans in the YAML), or None after
    an error."""

    text = node[key]
    span = _value_span(ctx.where, node, key)
    if not isinstance(text, str):
        ctx.error(
            "variant-shape",
            f"'{key}' holds one phase written in the DSL, as a block: {key}: |",
            span,
            'write: phase storm_season "Storm Season" { ... }',
        )
        return None
    if text.strip().isidentifier():
        # `replace: get_ready` (a phase's name, as remove: and move: take it): parsed as DSL it
        # gave three errors about a '{' that is not there ("expected '}' to close the block
        # opened at 3:14", "this '}' closes no block").
        name = text.strip()
        ctx.error(
            "variant-shape",
            f"'{key}' holds the {'new ' if key == 'insert' else ''}phase written in the DSL, "
            f"not a phase's name: '{name}'",
            span,
            f'write: {key}: | then, on the next lines, phase {name} "Title" {{ ... }}'
            + (" (the phase replaced is the one of that name)" if key == "replace" else ""),
        )
        return None
    lines = text.rstrip("\n").split("\n")
    snippet = "flow {\n  setup {\n" + "\n".join(lines) + "\n  }\n}\n"
    move = _snippet_mover(block_mover(overlay, node, key), 3, 2 + len(lines), len(lines[-1]))
    result = parse(snippet, ctx.where)
    found = [move_positions(d, move) for d in remap_spans(tuple(result.diagnostics), move)]
    ctx.diagnostics.extend(found)
    if any(d.severity == "error" for d in found):
        return None
    flows = result.file.flows
    phases = [p for s in flows[0].sections for p in s.phases] if flows else []
    other = result.file.declarations or result.file.definitions
    if len(phases) != 1 or other:
        ctx.error(
            "variant-shape",
            f"'{key}' holds one phase, not {len(phases) or 'none'}"
            if not other
            else f"'{key}' holds one phase, not cards or verbs",
            span,
            'write: phase storm_season "Storm Season" { ... }'
            + ("; insert each phase as an edit of its own" if len(phases) > 1 else ""),
        )
        return None
    return remap_spans(phases[0], move)


#: A flow setting an edit sets: the key -> how the flow writes it, what it holds, an example.
_SETTINGS = {
    "end_when": ("end when", "a condition", "no end condition", '"round == 10"'),
    "tiebreak": ("tiebreak", "an expression", "no tiebreak", '"coins"'),
}


def _parse_end_when(ctx: _Context, overlay: Overlay, node: Any, key: str) -> Any | None:
    """The flow setting (``end when CONDITION``, ``tiebreak EXPRESSION``) for the text written
    at ``node[key]``."""

    text = node[key]
    span = _value_span(ctx.where, node, key)
    written, holds, none, example = _SETTINGS[key]
    if not isinstance(text, str) or not text.strip() or "\n" in text.strip():
        ctx.error(
            "variant-value",
            f"'{key}' holds {holds} in the DSL, on one line, as text (or null: {none})",
            span,
            f"write: {key}: {example}",
        )
        return None
    prefix = f"  {written} "
    snippet = f"flow {{\n{prefix}{text.strip()}\n}}\n"
    outer = block_mover(overlay, node, key)
    lead = len(text) - len(text.lstrip())

    def move(at: Span) -> Span:
        def place(line: int, column: int) -> tuple[int, int]:
            if line != 2 or column <= len(prefix):
                return 1, 1 + lead
            return 1, column - len(prefix) + lead

        line, column = place(at.line, at.column)
        end_line, end_column = place(at.end_line, at.end_column)
        return outer(Span(at.file, line, column, end_line, max(end_column, column + 1)))

    result = parse(snippet, ctx.where)
    found = [move_positions(d, move) for d in remap_spans(tuple(result.diagnostics), move)]
    ctx.diagnostics.extend(found)
    if any(d.severity == "error" for d in found):
        return None
    settings = result.file.flows[0].settings if result.file.flows else ()
    if len(settings) != 1:
        ctx.error("variant-value", f"'{text}' is not {holds}", span)
        return None
    return remap_spans(settings[0], move)


def _is_tiebreak(item: Any) -> bool:
    """True for the ``tiebreak EXPRESSION`` setting of a flow."""
    return getattr(item, "name", None) == "tiebreak" and bool(getattr(item, "args", ()))


def _is_end_when(item: Any) -> bool:
    """True for the ``end when CONDITION`` setting of a flow."""
    words = [w for clause in getattr(item, "args", ()) for w in clause]
    return (
        getattr(item, "name", None) == "end"
        and bool(words)
        and getattr(words[0], "id", None) == "when"
    )


def apply_flow(
    ctx: _Context, files: list[SourceFile], overlay: Overlay, data: Any
) -> list[SourceFile]:
    """``files`` with the overlay's ``flow:`` edits applied to the game's flow, in order."""

    edits = data["flow"]
    if edits is None:
        return files
    if not isinstance(edits, list):
        ctx.error(
            "variant-shape",
            "'flow' holds a list of edits, each starting with '-'",
            _value_span(ctx.where, data, "flow"),
            _SHAPE_HINT,
        )
        return files
    at = _game_flow(files)
    if at is None:
        ctx.error(
            "variant-flow",
            "this game declares no flow, so a variant has none to edit",
            _key_span(ctx.where, data, "flow"),
            'declare the game\'s flow in one of its .cards files: flow "Title" { ... } '
            "(README, The flow)",
        )
        return files
    fi, index = at
    flow = files[fi].flows[index]
    end_when = next((i for i in flow.settings if _is_end_when(i)), None)
    state = _FlowState([_Section(s.section, s, list(s.phases)) for s in flow.sections], end_when)
    state.tiebreak = next((i for i in flow.settings if _is_tiebreak(i)), None)
    for number, edit in enumerate(edits):
        _apply_edit(ctx, overlay, state, edits, number, edit)
    # The flow, rebuilt: each section where it was written, sections an edit created first
    # (setup) or last (end), and the `end when` setting in its place (or last).
    items: list[Any] = []
    created = [s for s in state.sections if s.node is None]
    kept = {id(s.node): s for s in state.sections if s.node is not None}
    for s in created:
        if s.name == "setup":
            items.append(_new_section(s))
    placed_end = placed_tiebreak = False
    for item in flow.items:
        if id(item) in kept:
            section = kept[id(item)]
            node: Any = item
            items.append(dataclasses.replace(node, phases=tuple(section.phases)))
        elif _is_end_when(item):
            placed_end = True
            if state.end_when is not None:
                items.append(state.end_when)
        elif _is_tiebreak(item):
            placed_tiebreak = True
            if state.tiebreak is not None:
                items.append(state.tiebreak)
        else:
            items.append(item)
    if not placed_end and state.end_when is not None:
        items.append(state.end_when)
    if not placed_tiebreak and state.tiebreak is not None:
        items.append(state.tiebreak)
    for s in created:
        if s.name != "setup":
            items.append(_new_section(s))
    new_flow = dataclasses.replace(flow, items=tuple(items))
    flows = list(files[fi].flows)
    flows[index] = new_flow
    files = list(files)
    files[fi] = dataclasses.replace(files[fi], flows=tuple(flows))
    return files


def _new_section(section: _Section) -> Any:
    first = section.phases[0].span
    return FlowSection(first, section.name, None, tuple(section.phases))


def _apply_edit(
    ctx: _Context, overlay: Overlay, state: _FlowState, edits: Any, number: int, edit: Any
) -> None:
    """Check one flow edit against the flow as it stands and apply it."""

    where = ctx.where
    if not isinstance(edit, dict):
        ctx.error(
            "variant-shape",
            "a flow edit is a mapping: an action and where it goes",
            _value_span(where, edits, number),
            _SHAPE_HINT,
        )
        return
    unknown = [k for k in edit if k not in ACTIONS and k not in PLACES]
    for key in unknown:
        ctx.error(
            "variant-key",
            f"'{key}' is not a key of a flow edit",
            _key_span(where, edit, key),
            *(
                did_you_mean(str(key), (*ACTIONS, *PLACES))
                or (f"keys: {', '.join((*ACTIONS, *PLACES))}",)
            ),
        )
    actions = [k for k in edit if k in ACTIONS]
    places = [k for k in edit if k in PLACES]
    if not actions:
        if unknown:  # a misspelt action: said above
            return
        ctx.error(
            "variant-shape",
            "this flow edit does nothing: it names no action",
            _value_span(where, edits, number),
            _SHAPE_HINT,
        )
        return
    if len(actions) > 1:
        ctx.error(
            "variant-shape",
            f"one flow edit does one thing, this one {' and '.join(map(repr, actions))}",
            _key_span(where, edit, actions[1]),
            f"make '{actions[1]}' an edit of its own: a new item, starting with '-'",
        )
        return
    action = actions[0]
    moves = action in ("insert", "move")
    if moves and len(places) != 1:
        if places:
            # Two places given: keep one, as written.
            hint = "keep one of them: " + " or ".join(f"{p}: {edit[p]}" for p in places)
        else:
            # A phase of this game's flow, not another game's ('after: pirate' was told to
            # every game).
            names = [n for n in state.names() if n != edit.get("move")]
            hint = (
                f"for example: - {action}: ... then, on the next line, "
                f"after: {names[-1] if names else 'PHASE'}"
            )
        ctx.error(
            "variant-shape",
            f"say where the phase goes: one of before:, after: or into:, not "
            f"{' and '.join(places) if places else 'none'}",
            _key_span(where, edit, places[1] if len(places) > 1 else action),
            hint,
        )
        return
    if not moves and places:
        what = {
            "replace": "a replaced phase keeps its place",
            "remove": "a removed phase has no place",
            "end_when": "the end condition has no place",
            "tiebreak": "the tiebreak has no place",
        }[action]
        ctx.error(
            "variant-shape",
            f"{what}: '{places[0]}' means nothing here",
            _key_span(where, edit, places[0]),
            *(
                ("to move it as well, add an edit: - move: NAME, after: ...",)
                if action == "replace"
                else ()
            ),
        )
        return
    span = _value_span(where, edit, action)
    if action == "end_when":
        if edit["end_when"] is None:
            state.end_when, state.end_when_set = None, True
            return
        setting = _parse_end_when(ctx, overlay, edit, "end_when")
        if setting is not None:
            state.end_when, state.end_when_set = setting, True
        return
    if action == "tiebreak":
        # "Whoever has the most Money breaks the tie": the flow's `tiebreak EXPR`, replaced
        # (null: none). It was refused ("'tiebreak' is not a key of a flow edit"), though the
        # flow declares it beside `end when`.
        if edit["tiebreak"] is None:
            state.tiebreak = None
            return
        setting = _parse_end_when(ctx, overlay, edit, "tiebreak")
        if setting is not None:
            state.tiebreak = setting
        return
    if action in ("insert", "replace"):
        phase = _parse_phase(ctx, overlay, edit, action)
        if phase is None:
            return
        name_span = _phase_name_span(overlay, phase)
        if action == "replace":
            found = _lookup(ctx, state, phase.name, name_span, "replace")
            if found is None:
                return
            si, pi = found
            old = state.sections[si].phases[pi]
            # A replacement without a title keeps the base's: it changes what the phase does.
            if phase.title is None and old.title is not None:
                phase = dataclasses.replace(phase, title=old.title)
            state.sections[si].phases[pi] = phase
            return
        if _clash(ctx, state, phase.name, name_span):
            return
        target = _place(ctx, state, edit, places[0], None)
        if target is None:
            return
        si, pi = target
        state.sections[si].phases.insert(pi, phase)
        state.inserted[phase.name] = name_span
        state.removed.pop(phase.name, None)
        return
    name = edit[action]
    if not isinstance(name, str):
        ctx.error(
            "variant-value",
            f"'{action}' names a phase of the flow",
            span,
            f"write: {action}: pirate",
        )
        return
    found = _lookup(ctx, state, name, span, action)
    if found is None:
        return
    si, pi = found
    if action == "remove":
        del state.sections[si].phases[pi]
        state.removed[name] = span
        state.inserted.pop(name, None)
        return
    # move: out of its place, then in at the new one (looked up without it).
    phase = state.sections[si].phases.pop(pi)
    target = _place(ctx, state, edit, places[0], name)
    if target is None:
        state.sections[si].phases.insert(pi, phase)
        return
    ti, tp = target
    state.sections[ti].phases.insert(tp, phase)


def _lookup(
    ctx: _Context, state: _FlowState, name: str, span: Span, action: str
) -> tuple[int, int] | None:
    """Where the phase ``name`` stands, or None after an error: one this overlay removed
    above is named as such, any other unknown name gets "did you mean"."""

    found = state.find(name)
    if found is not None:
        return found
    if name in state.removed:
        removed = state.removed[name]
        ctx.error(
            "variant-flow",
            f"'{name}' is removed by an edit above (line {removed.line}), so it cannot "
            f"{action if action in ('replace', 'remove', 'move') else 'be named'} here",
            span,
            f"keep the phase, or drop this edit; to {action} it, do so before the remove "
            f"at line {removed.line}"
            if action != "remove"
            else f"it is already removed at line {removed.line}: drop one of the two",
        )
        return None
    doing = None if did_you_mean(name, state.names()) else _phase_doing(state, name)
    if doing is not None:
        # A step the rulebook names ("Rest Turn") that is a verb inside a phase, not a phase
        # of its own: say which phase does it (the list of phase names did not).
        phase, verb = doing
        ctx.error(
            "variant-flow",
            f"'{name}' is not a phase of this game's flow",
            span,
            f"the phase '{phase}' does it ({verb}): name that phase, or redefine the verb "
            f"'{verb}' under verbs:",
        )
        return None
    _not_found(
        ctx,
        f"'{name}' is not a phase of this game's flow",
        span,
        name,
        state.names(),
        "phases",
        code="variant-flow",
        titles=state.titles(),
    )
    return None


def _phase_doing(state: _FlowState, name: str) -> tuple[str, str] | None:
    """(phase, verb): the phase whose statements call a verb that is ``name`` or ends with it
    as whole words (``rest_turn``: ``take_rest_turn``), the verb of fewest words first (so
    ``encounter_turn`` is ``take_encounter_turn``, not ``choose_rest_or_encounter_turn``), or
    None."""
    found = [
        (verb.count("_"), phase.name, verb)
        for section in state.sections
        for phase in section.phases
        for verb in _verbs_called(phase.body)
        if verb == name or verb.endswith("_" + name)
    ]
    if not found:
        return None
    _, phase, verb = min(found, key=lambda item: item[0])
    return phase, verb


def _verbs_called(node: Any) -> Iterator[str]:
    """The verbs the statements under ``node`` call, in order (nested blocks too)."""
    if isinstance(node, (tuple, list)):
        for item in node:
            yield from _verbs_called(item)
    elif isinstance(node, Command):
        yield node.verb
        for item in fields(node):
            yield from _verbs_called(getattr(node, item.name))
    elif is_dataclass(node) and not isinstance(node, (type, Span)):
        for item in fields(node):
            yield from _verbs_called(getattr(node, item.name))


def _clash(ctx: _Context, state: _FlowState, name: str, span: Span) -> bool:
    """True (after an error) when an inserted phase's name is taken: phases are addressed by
    name, so each is unique in the flow."""
    if state.find(name) is None:
        return False
    if name in state.inserted:
        first = state.inserted[name]
        ctx.error(
            "variant-flow",
            f"'{name}' is inserted twice: it is already inserted at line {first.line}",
            span,
            "keep one of the two inserts, or give this phase another name",
        )
    else:
        si, pi = state.find(name) or (0, 0)
        old = state.sections[si].phases[pi]
        ctx.error(
            "variant-flow",
            f"the flow already has a phase '{name}' (at {_place_text(old.span)})",
            span,
            f"to change what it does: - replace: | phase {name} {{ ... }}; "
            "to add another phase, give it a name of its own",
        )
    return True


def _place(
    ctx: _Context, state: _FlowState, edit: Any, key: str, moving: str | None
) -> tuple[int, int] | None:
    """(section, index) where ``edit[key]`` (before:/after: a phase, into: a section) puts a
    phase; None after an error."""

    value = edit[key]
    span = _value_span(ctx.where, edit, key)
    if not isinstance(value, str):
        what = "a section: setup, round, turn or end" if key == "into" else "a phase"
        ctx.error(
            "variant-value",
            f"'{key}' names {what}",
            span,
            f"write: {key}: pirate" if key != "into" else "write: into: round",
        )
        return None
    if key == "into":
        si = state.section(value)
        if si is not None:
            return si, len(state.sections[si].phases)
        if value in _NEW_SECTIONS:
            section = _Section(value, None, [])
            if value == "setup":
                state.sections.insert(0, section)
                return 0, 0
            state.sections.append(section)
            return len(state.sections) - 1, 0
        have = [s.name for s in state.sections]
        if value in SECTIONS:
            message = f"this game's flow has no '{value}' section"
        else:
            message = f"'{value}' is not a section of a flow"
        hints = did_you_mean(value, have) or (
            f"sections of this flow: {', '.join(have)}"
            + (", and setup or end may be added" if set(_NEW_SECTIONS) - set(have) else ""),
        )
        if state.find(value) is not None:
            hints = (
                f"'{value}' is a phase: to place it by that phase, write before: {value} "
                f"or after: {value}",
            )
        ctx.error("variant-flow", message, span, *hints)
        return None
    if value == moving:
        ctx.error(
            "variant-flow",
            f"'{value}' cannot move {key} itself",
            span,
            "name the phase it should follow or precede",
        )
        return None
    found = _lookup(ctx, state, value, span, "name")
    if found is None:
        return None
    si, pi = found
    return si, pi + (1 if key == "after" else 0)


def _place_text(span: Span) -> str:
    return f"{span.file}:{span.line}:{span.column}"
