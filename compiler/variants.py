"""Rule variants as data: YAML overlays on a game's parsed cards.

A variant is ``cards/<game>/variants/<name>.yaml``. It never copies a card folder: it names
what differs from the base game (or from the variant it ``extends:``), and the result goes
through the same checker, schema and emitter as the base. Its keys::

    extends: harsher_sea            # apply that variant of the same game first
    params: {rounds: 13}            # a `param` of game.cards
    tracks:                         # a `track` of game.cards: its length and special boxes
      durability: {length: 8, boxes: {critical_damage: [3, 6]}}
    cards:                          # any property of any card, by card id (null removes it)
      smoke_bomb: {copies: 3}
    remove: [anti_piracy_mission]   # cards taken out of the game
    remove_kinds: [mid_event]       # every card of a kind taken out
    add: |                          # new cards written in the DSL, inside the YAML
      port_card "Spyglass" { ... }
    add_files: [extra.cards]        # or in .cards files beside the overlay
    verbs: |                        # DSL verbs and functions: the game's of the same name
      verb gain_port_card() { ... } # replaced (same signature), others added
    flow:                           # edits of the game's flow, in order (compiler.variant_flow)
      - insert: |
          phase storm_season "Storm Season" { ... }
        before: pirate

The overlay is applied to the syntax tree, before checking: a property value in the YAML is
DSL text (``pirate: highest(2d6)``, ``reward: stars 3``), or a YAML number, boolean or list;
a ``text`` property takes the YAML string as it is. Every node an overlay adds carries a span
in the YAML file, so a checker error about it points at the YAML line and column, and a DSL
snippet's own syntax errors are shifted to where the snippet sits in the YAML.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

from compiler.suggest import did_you_mean
from compiler.variant_spans import (
    _Context,
    _key_span,
    _node_span,
    _not_found,
    _parse_block,
    _span,
    _value_span,
    remap_spans,
)
from compiler.variant_values import dsl_string, move_positions, number_problem
from dsl.diagnostics import NOT_UTF8_HINT, Diagnostic, SourceCache, file_span, not_utf8
from dsl.nodes import Declaration, Name, Number, Property, SourceFile, Span
from dsl.parser import parse, parse_file
from dsl.yaml_load import (
    YamlLimitError,
    bounded,
    yaml_error_hint,
    yaml_error_message,
    yaml_error_position,
)
from engine.loader import BASE_VARIANT
from engine.words import with_article

VARIANTS_DIR = "variants"

#: The keys an overlay may hold, in the order ``cardc variant new`` writes them.
KEYS = (
    "extends",
    "description",
    "use",
    "params",
    "tracks",
    "cards",
    "remove",
    "remove_kinds",
    "add",
    "add_files",
    "verbs",
    "flow",
)

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


def variant_paths(folder: Path) -> list[Path]:
    """The overlay files of the game in ``folder``, sorted by name."""
    directory = folder / VARIANTS_DIR
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.glob("*.yaml") if p.is_file())


def unread_references(folder: Path) -> list[Diagnostic]:
    """A ``sheets/NAME.reference.yaml`` of the game in ``folder`` that names no variant of it
    (a slip in either name): no sheet reads it, so said, with the variant meant, rather than
    left out of every sheet without a word."""
    from compiler.project import display_path
    from compiler.suggest import did_you_mean

    names = variant_names(folder)
    found = []
    for path in sorted((folder / "sheets").glob(f"*{REFERENCE_SUFFIX}")):
        name = path.name[: -len(REFERENCE_SUFFIX)]
        if not path.is_file() or name in names:
            continue
        meant = did_you_mean(name, names)
        if meant:
            hint = f"{meant[0]} (a variant's own reference is sheets/VARIANT{REFERENCE_SUFFIX})"
        elif names:
            hint = f"name it after one of the game's variants: {', '.join(names)}"
        else:
            hint = (
                f"the game has no variants (cards/{folder.name}/{VARIANTS_DIR}/NAME.yaml); the "
                "game's own reference is reference.yaml, beside game.cards"
            )
        found.append(
            Diagnostic(
                "variant-name",
                f"'{path.name}' is the reference of no variant: {folder.name} has no variant "
                f"'{name}', so no sheet reads it",
                file_span(str(display_path(path))),
                "error",
                (hint,),
                show_source=False,
            )
        )
    return found


#: A variant's own changes to the sheets' reference: ``sheets/<variant>.reference.yaml``
#: (compiler.sheets.reference.variant_reference reads it).
REFERENCE_SUFFIX = ".reference.yaml"


def _misnamed(folder: Path) -> list[Diagnostic]:
    """A ``.yml`` file among the variants: never read as one (a variant is ``NAME.yaml``),
    so said rather than left out of every check and build without a word; and a variant's
    reference naming no variant (:func:`unread_references`)."""
    from compiler.project import display_path

    directory = folder / VARIANTS_DIR
    if not directory.is_dir():
        return unread_references(folder)
    return unread_references(folder) + [
        Diagnostic(
            "variant-name",
            f"'{path.name}' is not read as a variant: a variant's file ends in .yaml",
            file_span(str(display_path(path))),
            "error",
            (f"rename it {path.stem}.yaml",),
            show_source=False,
        )
        for path in sorted(directory.glob("*.yml"))
        if path.is_file()
    ]


def variant_names(folder: Path) -> list[str]:
    """The names of the variants of the game in ``folder``."""
    return [p.stem for p in variant_paths(folder)]


def yaml_round_trip() -> YAML:
    """The ruamel.yaml round-trip loader and dumper every variant file goes through.

    Quotes are preserved and lines are never re-wrapped, so a file edited by ``cardc variant
    set`` differs from the one on disk only where the edit is.
    """
    # Bounded: an alias bomb or deep nesting in a variant is an error, not a hang.
    yaml = bounded(YAML(typ="rt"))
    yaml.preserve_quotes = True
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


@dataclass
class Overlay:
    """One variant file, loaded: its name, path (as diagnostics show it), text and data."""

    name: str
    path: Path
    text: str
    data: Any
    #: Every file the overlay read (itself, its parents, its .cards files), for the IR.
    files: list[Path] = field(default_factory=list)
    #: The cards it removes (``remove``, ``remove_kinds``, its parents'), by id: where it says so.
    removed: dict[str, Span] = field(default_factory=dict)
    #: The kinds of card it removes some of, each at its first ``remove``/``remove_kinds``
    #: entry: where a game-wide check of a kind's number (engine.api.CardError's ``kind``) is
    #: shown.
    removed_kinds: dict[str, Span] = field(default_factory=dict)


def load_overlay(
    path: Path, sources: SourceCache, diagnostics: list[Diagnostic], text: str | None = None
) -> Overlay | None:
    """Read and parse one variant file (or ``text`` in its place); None when it is not YAML."""
    where = str(path)
    if text is None:
        try:
            raw = path.read_bytes()
            text = raw.decode("utf-8")
        except OSError as error:
            diagnostics.append(
                Diagnostic(
                    "variant-unreadable",
                    f"cannot read {where}: {error.strerror or error}",
                    file_span(where),
                    "error",
                    ("check the file's permissions",),
                    show_source=False,
                )
            )
            return None
        except UnicodeDecodeError as error:
            line, column, message = not_utf8(raw, error)
            diagnostics.append(
                Diagnostic(
                    "not-utf8",
                    message,
                    Span(where, line, column, line, column + 1),
                    "error",
                    (NOT_UTF8_HINT,),
                    show_source=False,
                )
            )
            return None
    sources.put(where, text)
    try:
        data = yaml_round_trip().load(text)
    except YamlLimitError as error:
        span = _span(where, error.line - 1, error.column - 1)
        diagnostics.append(
            Diagnostic("yaml-limit", str(error.problem), span, "error", (error.hint,))
        )
        return None
    except YAMLError as error:
        line, column = yaml_error_position(error, text)
        span = _span(where, line - 1, column - 1)
        hint = yaml_error_hint(error)
        diagnostics.append(
            Diagnostic(
                "variant-yaml", yaml_error_message(error), span, "error", (hint,) if hint else ()
            )
        )
        return None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        diagnostics.append(
            Diagnostic(
                "variant-shape",
                "a variant is a mapping of keys: " + ", ".join(KEYS),
                _node_span(where, data),
                "error",
            )
        )
        return None
    return Overlay(path.stem, path, text, data, [path])


def _value_source(value: Any, typ: str) -> str:
    """A YAML value as DSL text for a property of type ``typ``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return ", ".join(_value_source(item, "any" if typ != "text" else typ) for item in value)
    if typ == "text":
        return dsl_string(str(value))
    return str(value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _property_from_yaml(
    name: str,
    value: Any,
    typ: str,
    overlay: Overlay,
    node: Any,
    key: Any,
    diagnostics: list[Diagnostic],
) -> Property | None:
    """The DSL property ``name VALUE`` for a value written in the YAML, spans in the YAML."""
    where = str(overlay.path)
    numbers = [v for v in (value if isinstance(value, list) else [value]) if _is_number(v)]
    problem = next((p for p in map(number_problem, numbers) if p), None)
    if problem is not None:
        diagnostics.append(
            Diagnostic("variant-value", f"'{name}': {problem}", _value_span(where, node, key))
        )
        return None
    source = _value_source(value, typ)
    if "\n" in source:
        diagnostics.append(
            Diagnostic(
                "variant-value",
                f"'{name}' takes a value on one line",
                _value_span(where, node, key),
                "error",
            )
        )
        return None
    prefix = f"  {name} "
    text = f"variant_value_ {{\n{prefix}{source}\n}}\n"
    value_span = _value_span(where, node, key)
    key_span = _key_span(where, node, key)
    quoted = isinstance(value, (DoubleQuotedScalarString, SingleQuotedScalarString)) and (
        typ != "text"
    )
    start = len(prefix) + 1  # the value's column in the snippet

    def move(span: Span) -> Span:
        if span.line != 2:
            return value_span
        if span.column < start:
            return Span(where, key_span.line, key_span.column, key_span.line, key_span.end_column)
        shift = value_span.column - start + (1 if quoted else 0)
        return Span(
            where,
            value_span.line,
            span.column + shift,
            value_span.line,
            max(span.end_column + shift, span.column + shift + 1),
        )

    result = parse(text, where)
    if result.diagnostics:
        diagnostics.extend(
            move_positions(d, move) for d in remap_spans(tuple(result.diagnostics), move)
        )
        return None
    decls = result.file.declarations
    members = decls[0].body if decls else ()
    if len(members) != 1 or not isinstance(members[0], Property):
        diagnostics.append(
            Diagnostic(
                "variant-value",
                f"'{source}' is not a value for '{name}'",
                value_span,
                "error",
                ("write it as in a .cards file, for example: copies 3",),
            )
        )
        return None
    return remap_spans(members[0], move)  # type: ignore[no-any-return]


# -- applying an overlay


def _first_name(prop: Property) -> Name | None:
    words = [w for clause in prop.args for w in clause]
    return words[0] if words and isinstance(words[0], Name) else None


def _game_members(game: Declaration, what: str) -> dict[str, int]:
    """Index in the game body of each ``param`` or ``track`` line, by its name."""
    found = {}
    for index, member in enumerate(game.body):
        if isinstance(member, Property) and member.name == what:
            name = _first_name(member)
            if name is not None:
                found[name.id] = index
    return found


def _as_written(value: Any) -> str:
    """A YAML value as the file spells it (``true``, not Python's ``True``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "an empty value"
    return repr(value)


def _number(ctx: _Context, node: Any, key: Any, what: str) -> int | float | None:
    value = node[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        ctx.error(
            "variant-value",
            f"{what} is a number, not {_as_written(value)}",
            _value_span(ctx.where, node, key),
            f"write a number, such as {key}: 3",
        )
        return None
    problem = number_problem(value)
    if problem is not None:
        ctx.error("variant-value", f"{what}: {problem}", _value_span(ctx.where, node, key))
        return None
    return value


def _mapping(ctx: _Context, node: Any, key: Any, what: str) -> Any:
    value = node[key]
    if value is None:
        return {}
    if not isinstance(value, dict):
        ctx.error("variant-shape", f"'{key}' holds {what}", _value_span(ctx.where, node, key))
        return None
    return value


#: What each list of names a variant gives names (the hint of a name given twice).
_NAMED_IN = {"remove": "card", "remove_kinds": "kind", "use": "module"}


def _named_twice(ctx: _Context, named: dict[str, Span], key: str, name: str, span: Span) -> bool:
    """True (after an error at ``span``) when ``name`` was already named in the list ``key``
    (``remove``, ``remove_kinds``, ``use``); else it is noted as named at ``span``. A name
    given twice is an error, as a flow phase removed twice is: one of the two is a slip (most
    likely for another name), and nothing would say so."""
    first = named.setdefault(name, span)
    if first is span:
        return False
    ctx.error(
        "variant-path",
        f"'{name}' is named twice in {key}: it is already there at line {first.line}, "
        f"column {first.column}",
        span,
        f"drop one of the two (or name the other {_NAMED_IN[key]} you meant)",
    )
    return True


def _apply_use(ctx: _Context, game: Declaration, data: Any) -> Declaration:
    """``use: [majorities]``: standard-library modules for the variant's cards, phases and
    verbs, as ``use`` in the game block gives them (a house rule calling ``most_of`` no longer
    needs game.cards edited). A module the game already uses is left as it is."""
    node = data["use"]
    items = node if isinstance(node, list) else [node]
    used = {
        name.id
        for member in game.body
        if isinstance(member, Property) and member.name == "use"
        for clause in member.args
        for name in clause
        if isinstance(name, Name)
    }
    args: list[tuple[Name]] = []
    named: dict[str, Span] = {}
    for position, item in enumerate(items):
        span = (
            _value_span(ctx.where, node, position)
            if isinstance(node, list)
            else _value_span(ctx.where, data, "use")
        )
        if not isinstance(item, str) or not _NAME.match(item):
            ctx.error(
                "variant-shape",
                f"'use' names standard-library modules, not {item!r}",
                span,
                "write: use: [majorities] (or a module's name alone: use: hexes)",
            )
            continue
        if _named_twice(ctx, named, "use", item, span):
            continue
        if item not in used:
            used.add(item)
            args.append((Name(span, item),))
    if not args:
        return game
    use = Property(_key_span(ctx.where, data, "use"), "use", tuple(args), None)
    return dataclasses.replace(game, body=(*game.body, use))


def _apply_params(ctx: _Context, game: Declaration, node: Any) -> Declaration:
    body = list(game.body)
    index = _game_members(game, "param")
    for key in node:
        span = _key_span(ctx.where, node, key)
        if key not in index:
            _not_found(
                ctx, f"'{key}' is not a parameter of this game", span, key, index, "parameters"
            )
            continue
        value = _number(ctx, node, key, f"the parameter '{key}'")
        if value is None:
            continue
        old = body[index[key]]
        assert isinstance(old, Property)
        name = _first_name(old)
        assert name is not None
        at = _value_span(ctx.where, node, key)
        body[index[key]] = dataclasses.replace(
            old, args=((dataclasses.replace(name, span=span), Number(at, value)),)
        )
    return dataclasses.replace(game, body=tuple(body))


def _apply_tracks(ctx: _Context, game: Declaration, node: Any) -> Declaration:
    body = list(game.body)
    index = _game_members(game, "track")
    for key in node:
        span = _key_span(ctx.where, node, key)
        if key not in index:
            _not_found(ctx, f"'{key}' is not a track of this game", span, key, index, "tracks")
            continue
        old = body[index[key]]
        assert isinstance(old, Property)
        spec = node[key]
        if isinstance(spec, (int, float)) and not isinstance(spec, bool):
            spec_node, spec = node, {"length": spec}
            length_key: Any = key
        else:
            spec = _mapping(ctx, node, key, "length: N and boxes: {name: [box, ...]}")
            if spec is None:
                continue
            spec_node, length_key = spec, "length"
            for extra in spec:
                if extra not in ("length", "boxes"):
                    ctx.error(
                        "variant-path",
                        f"a track has a length and boxes, not '{extra}'",
                        _key_span(ctx.where, spec, extra),
                        *did_you_mean(str(extra), ["length", "boxes"]),
                    )
        words = [w for clause in old.args for w in clause]
        length_expr = words[1] if len(words) > 1 else None
        if "length" in spec:
            value = _number(ctx, spec_node, length_key, f"the length of '{key}'")
            if value is None:
                continue
            length_expr = Number(_value_span(ctx.where, spec_node, length_key), value)
        boxes = {m.name: m for m in (old.body or ()) if isinstance(m, Property)}
        box_spans: dict[str, Span] = {}
        if isinstance(spec, dict) and "boxes" in spec:
            given = _mapping(ctx, spec, "boxes", "box names, each with a list of boxes")
            for box in given or {}:
                at = _value_span(ctx.where, given, box)
                positions = given[box]
                positions = positions if isinstance(positions, list) else [positions]
                if not all(isinstance(p, int) and not isinstance(p, bool) for p in positions):
                    ctx.error("variant-value", f"the boxes of '{box}' are box numbers", at)
                    continue
                if box not in boxes:
                    ctx.error(
                        "variant-path",
                        f"'{box}' is not a special box of '{key}'",
                        _key_span(ctx.where, given, box),
                        *(
                            did_you_mean(str(box), boxes)
                            or (f"'{key}' has: {', '.join(boxes) or 'no special boxes'}",)
                        ),
                    )
                    continue
                boxes[box] = Property(
                    at, str(box), tuple((Number(at, p),) for p in positions), None
                )
                box_spans[str(box)] = at
        length = length_expr.value if isinstance(length_expr, Number) else None
        bad = False
        if isinstance(length, (int, float)):
            for box, prop in boxes.items():
                for clause in prop.args:
                    for word in clause:
                        if isinstance(word, Number) and not 1 <= word.value <= length:
                            at = box_spans.get(box) or _value_span(ctx.where, spec_node, length_key)
                            bad = True
                            ctx.error(
                                "variant-value",
                                f"box {word.value} of '{box}' is not on a track of {length} boxes",
                                at,
                                f"give '{box}' boxes 1 to {length}: "
                                f"tracks: {{{key}: {{boxes: {{{box}: [...]}}}}}}",
                            )
        if bad:  # reported here, at the YAML; the base track stays as it is
            continue
        name = words[0] if words else Name(span, str(key))
        assert length_expr is not None
        body[index[key]] = dataclasses.replace(
            old,
            args=((name, length_expr),),
            body=tuple(boxes.values()) if old.body else (tuple(boxes.values()) or None),
        )
    return dataclasses.replace(game, body=tuple(body))


def _card_ids(vocab: Any, decls: list[tuple[int, Declaration]]) -> dict[str, tuple[int, str]]:
    """Card id -> (index in its file's declarations, kind), as the checker will name them."""
    from compiler.checker import Checker

    scratch = Checker(vocab, [])
    ids: dict[str, tuple[int, str]] = {}
    for index, decl in decls:
        head = scratch.head(decl)
        if head is not None:
            ids.setdefault(head[0], (index, decl.kind))
    return ids


def _remove_needing(
    ctx: _Context,
    vocab: Any,
    where: list[tuple[int, int, Declaration]],
    ids: dict[str, tuple[int, str]],
    removed: set[int],
    replaced: dict[int, Declaration],
) -> None:
    """The cards that need a card the variant removes, removed with it (into ``removed``): a
    property declared ``{ names layer; needs }`` (Land vs Sea's ``requires``: "You may
    optionally use Bandit and Pirate scoring when you are also using Caravan & Ship scoring")
    says the card cannot be played without the card it names, so a mix without that card is a
    mix without this one, whatever cards a designer adds after the variant was written. A
    warning at the removal names each card so removed and the line that says so in the
    variant; a card the variant itself adds that needs a removed card is still an error."""
    card_of = {number: ident for ident, (number, _kind) in ids.items()}
    gone = {card_of[n]: n for n in removed if n in card_of}
    changed = True
    while changed:
        changed = False
        for number, (_fi, _di, base) in enumerate(where):
            if number in removed or number not in card_of:
                continue
            decl = replaced.get(number, base)
            kind = vocab.kinds.get(decl.kind)
            needing = {p.name for p in kind.properties.values() if p.needs} if kind else set()
            if not needing:
                continue
            for member in decl.body:
                if not isinstance(member, Property) or member.name not in needing:
                    continue
                named = [w.id for clause in member.args for w in clause if isinstance(w, Name)]
                needed = next((n for n in named if n in gone), None)
                if needed is None:
                    continue
                ident = card_of[number]
                removed.add(number)
                gone[ident] = number
                at = ctx.overlay.removed.get(needed)
                ctx.overlay.removed[ident] = at or member.span
                ctx.overlay.removed_kinds.setdefault(decl.kind, at or member.span)
                ctx.diagnostics.append(
                    Diagnostic(
                        "removed-with",
                        f"removing '{needed}' also removes '{ident}', which needs it "
                        f"({member.name} {needed}, {member.span.file}:{member.span.line})",
                        at or member.span,
                        "warning",
                        (
                            f"say so in the variant: add '- {ident}' under remove:, or keep "
                            f"'{needed}'",
                        ),
                    )
                )
                changed = True
                break


def _flow_phases(files: list[SourceFile]) -> set[str]:
    """The names of the phases of the game's flow (none without one)."""
    return {
        phase.name
        for source in files
        for flow in getattr(source, "flows", ())
        for section in flow.sections
        for phase in section.phases
    }


def apply_overlay(
    files: list[SourceFile],
    overlay: Overlay,
    diagnostics: list[Diagnostic],
    sources: SourceCache,
    chain: tuple[str, ...] = (),
) -> list[SourceFile]:
    """``files`` (a game's parsed sources) with ``overlay`` applied (its parents first)."""
    from compiler.vocabulary import UNIVERSAL_PROPERTIES, read_vocabulary

    ctx = _Context(overlay, diagnostics, sources)
    data = overlay.data
    for key in data:
        if key not in KEYS:
            # A flow edit written at the top level (`end_when: "..."`, `insert: |`): said
            # where it goes, not only the keys there are.
            flow_edit = key in ("insert", "replace", "move", "end_when")
            ctx.error(
                "variant-key",
                f"'{key}' is not a key of a variant",
                _key_span(ctx.where, data, key),
                *(
                    (
                        f"'{key}' is an edit of the flow: write it under flow:, as a list "
                        f"item '- {key}: ...'",
                    )
                    if flow_edit
                    else did_you_mean(str(key), KEYS) or (f"keys: {', '.join(KEYS)}",)
                ),
            )
    if "description" in data and not isinstance(data["description"], str):
        ctx.error(
            "variant-value",
            "'description' is one line of text",
            _value_span(ctx.where, data, "description"),
            "write it as text: description: A harsher sea",
        )
    files = list(files)
    if "extends" in data:
        parent = data["extends"]
        span = _value_span(ctx.where, data, "extends")
        siblings = (
            variant_names(overlay.path.parent.parent)
            if overlay.path.parent.name == (VARIANTS_DIR)
            else []
        )
        # By name only: a variant of the same game, never a path to some other file.
        named = isinstance(parent, str) and _NAME.fullmatch(parent) is not None
        path = overlay.path.with_name(f"{parent}.yaml") if named else overlay.path
        if not named or not path.is_file():
            _not_found(
                ctx,
                f"'{parent}' is not a variant of this game",
                span,
                parent,
                siblings,
                "variants",
                code="variant-extends",
            )
        elif parent in (*chain, overlay.name):
            ctx.error(
                "variant-extends",
                f"'{overlay.name}' extends itself through: "
                + " -> ".join([*chain, overlay.name, parent]),
                span,
            )
        else:
            loaded = load_overlay(path, sources, diagnostics)
            if loaded is not None:
                files = apply_overlay(files, loaded, diagnostics, sources, (*chain, overlay.name))
                overlay.files[:0] = loaded.files
                overlay.removed.update(loaded.removed)
    game_at = next(
        (
            (i, j)
            for i, f in enumerate(files)
            for j, d in enumerate(f.declarations)
            if d.kind == "game"
        ),
        None,
    )
    if game_at is None:
        return files
    gi, gj = game_at

    def set_game(decl: Declaration) -> None:
        source = files[gi]
        decls = list(source.declarations)
        decls[gj] = decl
        files[gi] = dataclasses.replace(source, declarations=tuple(decls))

    game = files[gi].declarations[gj]
    if "use" in data:
        game = _apply_use(ctx, game, data)
    if "params" in data:
        params = _mapping(ctx, data, "params", "parameter names and numbers: {rounds: 13}")
        if params is not None:
            game = _apply_params(ctx, game, params)
    if "tracks" in data:
        tracks = _mapping(ctx, data, "tracks", "track names: {durability: {length: 8}}")
        if tracks is not None:
            game = _apply_tracks(ctx, game, tracks)
    set_game(game)
    vocab = read_vocabulary(game, [])
    where: list[tuple[int, int, Declaration]] = [
        (fi, di, d)
        for fi, f in enumerate(files)
        for di, d in enumerate(f.declarations)
        if d.kind != "game"
    ]
    flat = [(n, d) for n, (_fi, _di, d) in enumerate(where)]
    ids = _card_ids(vocab, flat)
    removed: set[int] = set()
    replaced: dict[int, Declaration] = {}
    if "remove" in data:
        wanted = data["remove"]
        wanted = wanted if isinstance(wanted, list) else [wanted]
        node = data["remove"] if isinstance(data["remove"], list) else None
        named_ids: dict[str, Span] = {}
        for position, ident in enumerate(wanted):
            span = (
                _value_span(ctx.where, node, position)
                if node is not None
                else _value_span(ctx.where, data, "remove")
            )
            if _named_twice(ctx, named_ids, "remove", str(ident), span):
                continue
            if str(ident) not in ids:
                if str(ident) in _flow_phases(files):
                    # `remove: [marooned]`: a phase, which `flow:`'s `- remove:` removes.
                    ctx.error(
                        "variant-path",
                        f"'{ident}' is not a card of this game but a phase of its flow",
                        span,
                        f"a phase is removed under flow:, as a list item '- remove: {ident}'",
                    )
                    continue
                _not_found(ctx, f"'{ident}' is not a card of this game", span, ident, ids)
                continue
            removed.add(ids[str(ident)][0])
            overlay.removed[str(ident)] = span
            overlay.removed_kinds.setdefault(ids[str(ident)][1], span)
    if "remove_kinds" in data:
        kinds = data["remove_kinds"]
        node = kinds if isinstance(kinds, list) else None
        named_kinds: dict[str, Span] = {}
        for position, kind_name in enumerate(kinds if isinstance(kinds, list) else [kinds]):
            span = (
                _value_span(ctx.where, node, position)
                if node is not None
                else _value_span(ctx.where, data, "remove_kinds")
            )
            if _named_twice(ctx, named_kinds, "remove_kinds", str(kind_name), span):
                continue
            if str(kind_name) not in vocab.kinds:
                _not_found(
                    ctx,
                    f"'{kind_name}' is not a kind of card this game declares",
                    span,
                    kind_name,
                    vocab.kinds,
                    "kinds",
                )
                continue
            removed.update(n for n, k in ids.values() if k == str(kind_name))
            overlay.removed.update((i, span) for i, (_n, k) in ids.items() if k == str(kind_name))
            overlay.removed_kinds.setdefault(str(kind_name), span)
    if "cards" in data:
        cards = _mapping(ctx, data, "cards", "card ids, each with its changed properties")
        for ident in cards or {}:
            span = _key_span(ctx.where, cards, ident)
            if str(ident) not in ids:
                _not_found(ctx, f"'{ident}' is not a card of this game", span, ident, ids)
                continue
            number, kind_name = ids[str(ident)]
            if number in removed:
                ctx.error(
                    "variant-path",
                    f"'{ident}' is removed by this variant",
                    span,
                    "change it or remove it, not both",
                )
                continue
            if cards[ident] is None:
                # `cards: {undefeated_encounters: null}`, null being how a property is removed:
                # it changed nothing, and nothing said so.
                ctx.error(
                    "variant-shape",
                    f"'{ident}: null' changes nothing: null removes a property of a card, "
                    "not the card",
                    span,
                    f"to remove the card: remove: [{ident}]; to remove a property: "
                    f"cards: {{{ident}: {{PROPERTY: null}}}}",
                )
                continue
            changes = _mapping(ctx, cards, ident, "property names and values: {copies: 3}")
            if changes is None:
                continue
            kind = vocab.kinds[kind_name]
            known = {**kind.properties, **UNIVERSAL_PROPERTIES}
            decl = replaced.get(number, where[number][2])
            body = list(decl.body)
            for prop in changes:
                pspan = _key_span(ctx.where, changes, prop)
                if prop not in known:
                    ctx.error(
                        "variant-path",
                        f"{with_article(kind_name)} has no property '{prop}'",
                        pspan,
                        *(
                            did_you_mean(str(prop), known)
                            or (f"{kind_name} properties: {', '.join(sorted(known))}",)
                        ),
                    )
                    continue
                at = next(
                    (i for i, m in enumerate(body) if isinstance(m, Property) and m.name == prop),
                    None,
                )
                if changes[prop] is None:
                    if at is not None:
                        del body[at]
                    continue
                new = _property_from_yaml(
                    str(prop), changes[prop], known[prop].type, overlay, changes, prop, diagnostics
                )
                if new is None:
                    continue
                if at is None:
                    body.append(new)
                else:
                    old = body[at]
                    # The base value's @provisional note is about the base value, not this one.
                    body[at] = (
                        dataclasses.replace(new, annotations=())
                        if isinstance(old, Property)
                        else new
                    )
            replaced[number] = dataclasses.replace(decl, body=tuple(body))
    if removed:
        _remove_needing(ctx, vocab, where, ids, removed, replaced)
    if removed or replaced:
        per_file: dict[int, list[Declaration]] = {}
        for fi, source in enumerate(files):
            per_file[fi] = list(source.declarations)
        drop: dict[int, set[int]] = {}
        for number, (fi, di, _decl) in enumerate(where):
            if number in replaced:
                per_file[fi][di] = replaced[number]
            if number in removed:
                drop.setdefault(fi, set()).add(di)
        files = [
            dataclasses.replace(
                source,
                declarations=tuple(
                    d for di, d in enumerate(per_file[fi]) if di not in drop.get(fi, set())
                ),
            )
            for fi, source in enumerate(files)
        ]
    added: list[Any] = []
    if "add" in data:
        blocks = data["add"] if isinstance(data["add"], list) else None
        items = list(enumerate(blocks)) if blocks is not None else [("add", data["add"])]
        for key, text in items:
            holder = blocks if blocks is not None else data
            if not isinstance(text, str):
                ctx.error(
                    "variant-shape",
                    "'add' holds cards written in the DSL, as a block: add: |",
                    _value_span(ctx.where, holder, key),
                )
                continue
            added.extend(_parse_block(text, overlay, holder, key, diagnostics))
    if added:
        cards = tuple(d for d in added if isinstance(d, Declaration))
        definitions = tuple(d for d in added if not isinstance(d, Declaration))
        files.append(SourceFile(ctx.where, cards, definitions))  # type: ignore[arg-type]
    if "add_files" in data:
        names = data["add_files"] if isinstance(data["add_files"], list) else [data["add_files"]]
        node = data["add_files"] if isinstance(data["add_files"], list) else None
        for position, name in enumerate(names):
            span = (
                _value_span(ctx.where, node, position)
                if node is not None
                else _value_span(ctx.where, data, "add_files")
            )
            path = overlay.path.parent / str(name)
            beside_only = "/" not in str(name) and "\\" not in str(name)
            if not (beside_only and str(name).endswith(".cards") and path.is_file()):
                beside = sorted(p.name for p in overlay.path.parent.glob("*.cards"))
                ctx.error(
                    "variant-path",
                    f"'{name}' is not a .cards file beside {ctx.where}",
                    span,
                    *(
                        did_you_mean(str(name), beside)
                        or (f".cards files there: {', '.join(beside) or 'none'}",)
                    ),
                )
                continue
            result = parse_file(path)
            if result.text is not None:
                sources.put(str(path), result.text)
            diagnostics.extend(result.diagnostics)
            files.append(result.file)
            overlay.files.append(path)
    if "verbs" in data:
        from compiler.variant_flow import apply_verbs

        files = apply_verbs(ctx, files, overlay, data)
    if "flow" in data:
        from compiler.variant_flow import apply_flow

        files = apply_flow(ctx, files, overlay, data)
    return files


def compile_variant(
    folder: Path,
    path: Path,
    sources: SourceCache,
    text: str | None = None,
    files: list[Path] | None = None,
) -> tuple[Any, Overlay | None]:
    """Compile the game in ``folder`` with the overlay at ``path`` (or ``text`` in its place).

    Returns the :class:`~compiler.pipeline.GameResult` (its IR's ``variant`` is the overlay's
    name) and the loaded overlay.
    """
    from compiler.pipeline import GameResult, compile_game

    diagnostics: list[Diagnostic] = []
    name = path.stem
    if not _NAME.match(name):
        diagnostics.append(
            Diagnostic(
                "variant-name",
                f"'{name}' is not a variant name",
                file_span(str(path)),
                "error",
                ("name it in lower_snake_case, like harsher_sea.yaml",),
                show_source=False,
            )
        )
    elif name == BASE_VARIANT:
        # cardc sim and cardc test --variant base, cardc diff GAME/base: the game itself, so
        # a variant of that name would never be played nor compared.
        diagnostics.append(
            Diagnostic(
                "variant-name",
                f"'{name}' names the game itself (cardc sim --variant base), not a variant",
                file_span(str(path)),
                "error",
                ("name it for its rule, such as house.yaml",),
                show_source=False,
            )
        )
    overlay = load_overlay(path, sources, diagnostics, text)
    if overlay is None:
        return GameResult(folder.name, folder, [], None, {}, diagnostics), None

    def apply(parsed: list[SourceFile], found: list[Diagnostic]) -> list[SourceFile]:
        found.extend(diagnostics)
        return apply_overlay(parsed, overlay, found, sources)

    result = compile_game(folder, sources, files, overlay=apply, removed=overlay.removed_kinds)
    if result.ir is not None:
        result.ir["variant"] = name
    return result, overlay


def _own(
    found: list[Diagnostic],
    base: list[Diagnostic],
    overlay: Overlay | None,
    name: str,
    file: str | None = None,
) -> list[Diagnostic]:
    """The diagnostics a variant adds to its base's: one the base already has is not repeated,
    and one in a base file says which variant caused it."""
    seen = set(base)
    own = {str(p) for p in overlay.files} if overlay is not None else set()
    if file is not None:  # the overlay itself, even when it could not be loaded
        own.add(file)
    out = []
    removed = overlay.removed if overlay is not None else {}
    for diagnostic in found:
        if diagnostic in seen:
            continue
        if diagnostic.span.file not in own:
            gone = _NAMED.match(diagnostic.message) if diagnostic.code == "name-undefined" else None
            if gone is not None and gone.group(1) in removed:
                # A card the variant removes, still named by a card it keeps: say so, not
                # "did you mean" (or every card id of the game).
                at = removed[gone.group(1)]
                diagnostic = dataclasses.replace(
                    diagnostic,
                    message=f"with the variant '{name}': '{gone.group(1)}' is removed by the "
                    f"variant ({at.file}:{at.line}:{at.column}), but it is still named here",
                    hints=(
                        "remove what names it in the variant too (remove: [...]), or keep "
                        f"'{gone.group(1)}'",
                    ),
                )
            else:
                diagnostic = dataclasses.replace(
                    diagnostic, message=f"with the variant '{name}': {diagnostic.message}"
                )
        out.append(diagnostic)
    return out


#: The name a name-undefined diagnostic is about: its message's first quoted word.
_NAMED = re.compile(r"'([A-Za-z_][A-Za-z0-9_]*)' ")


def check_variants(
    folder: Path,
    sources: SourceCache,
    files: list[Path],
    base: list[Diagnostic] | None = None,
    provisional: list[dict[str, str]] | None = None,
    irs: dict[str, Any] | None = None,
) -> list[Diagnostic]:
    """Compile every variant of the game in ``folder``; the diagnostics they add. The
    @provisional values written in a variant's own files (its YAML, its ``add_files``) are
    added to ``provisional`` when given, so ``cardc check --provenance`` lists them too; each
    variant's IR (None when it does not compile) to ``irs``, by its name, when given."""
    from compiler.project import display_path

    diagnostics: list[Diagnostic] = _misnamed(folder)
    for path in variant_paths(folder):
        result, overlay = compile_variant(folder, display_path(path), sources, files=files)
        own = str(display_path(path))
        diagnostics.extend(_own(result.diagnostics, base or [], overlay, path.stem, own))
        if irs is not None:
            irs[path.stem] = result.ir
        if provisional is not None and result.ir is not None:
            mine = {own, *(str(p) for p in overlay.files)} if overlay is not None else {own}
            provisional.extend(
                p for p in result.ir["provisional"] if p["at"].rsplit(":", 2)[0] in mine
            )
    return diagnostics


def render_variants(
    project: Any,
    folder: Path,
    sources: SourceCache,
    files: list[Path],
    base: list[Diagnostic],
    sheets: bool = True,
) -> tuple[dict[str, bytes], list[Diagnostic]]:
    """The outputs of every variant of one game: ``<game>/<variant>/handlers.py`` and
    ``cards.json``, and the diagnostics of compiling them (those the base has left out)."""
    from compiler.emit_python import emit_handlers
    from compiler.generated_files import json_bytes as _json_bytes
    from compiler.generated_files import root_relative_sources as _root_relative_sources
    from compiler.project import display_path

    outputs: dict[str, bytes] = {}
    diagnostics: list[Diagnostic] = _misnamed(folder)
    for path in variant_paths(folder):
        result, overlay = compile_variant(folder, display_path(path), sources, files=files)
        own = str(display_path(path))
        diagnostics.extend(_own(result.diagnostics, base, overlay, path.stem, own))
        if result.ir is None or overlay is None:
            continue
        everything = [*files, *overlay.files]
        rel = [project.relative(p) for p in everything]
        _root_relative_sources(result.ir, dict(zip(map(str, everything), rel, strict=True)))
        prefix = f"{folder.name}/{overlay.name}"
        outputs[f"{prefix}/handlers.py"] = emit_handlers(
            result.ir, rel, project.relative(folder)
        ).encode()
        outputs[f"{prefix}/cards.json"] = _json_bytes(result.ir)
        if not sheets:
            continue
        try:
            outputs.update(_variant_sheets(project, folder.name, result.ir, overlay.name))
        except ValueError as error:  # compiler.sheets.SheetError: text that cannot fit
            report = getattr(error, "diagnostics", None)
            if report is None:
                raise
            diagnostics.extend(report())
    return outputs, diagnostics


def sheets_renderer() -> Callable[..., dict[str, bytes]] | None:
    """``compiler.sheets.render_sheet_files`` when the sheets emitter is installed, else None."""
    import importlib

    try:
        module = importlib.import_module("compiler.sheets")
    except ImportError:
        return None
    render = getattr(module, "render_sheet_files", None)
    return render if callable(render) else None


def _variant_sheets(project: Any, game: str, ir: dict[str, Any], variant: str) -> dict[str, bytes]:
    """A variant's printable sheets (paths under generated/), when the sheets emitter exists."""
    render = sheets_renderer()
    if render is None:
        return {}
    return dict(render(project, game, ir, variant=variant))
