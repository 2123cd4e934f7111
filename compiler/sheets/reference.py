"""A game's rules reference and card wording: ``cards/<game>/reference.yaml``.

The file is data beside the cards: the rulebook's phases, its tables (crew actions, titles,
turn summary, scoring layers, the raid), its Icon Reference, and the rulebook's words for the
game's names, used when card text is generated from the rules. Every key is optional: a game
without the file gets sheets worded from its vocabulary's own descriptions.

What a sheet prints follows the game (or variant) as it plays: an entry of the phases tied
to a flow phase (``phase: NAME``) is printed where the compiled flow runs that phase, and an
entry, table row, note or icon tied to a card (``card: ID``) is printed only when that card
is in the game (:func:`resolve`, and ``compiler.sheets.model`` for the flow's order).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.words import singular

if TYPE_CHECKING:
    from dsl.diagnostics import Diagnostic

REFERENCE_FILE = "reference.yaml"


class ReferenceError(ValueError):
    """A reference.yaml that cannot be read, with the file and line of the problem.

    ``diagnostic`` is the problem at its line and column, when the file's shape check found
    it: what ``cardc build`` and ``cardc sheets`` show, as ``cardc check`` does."""

    diagnostic: Diagnostic | None = None


@dataclass(frozen=True)
class Icon:
    """One entry of the Icon Reference: its shape, the rulebook's label and meaning."""

    name: str
    shape: str
    label: str
    meaning: str
    #: The card the icon belongs to: not in the legend when the card is not in the game.
    card: str = ""


@dataclass(frozen=True)
class PhaseItem:
    """One entry of "Phases, in order": the rulebook's title and text for it.

    ``phase`` ties it to the flow's phase of that name: it is printed where the compiled flow
    runs the phase, and not when the flow (a variant's) has no such phase. ``card`` ties it to
    a card: not printed when the card is not in the game. ``variant`` is True for an entry a
    variant's own reference gave (it describes the variant's phase, not the base game's).
    """

    title: str
    text: str
    phase: str = ""
    card: str = ""
    variant: bool = False


@dataclass(frozen=True)
class Table:
    """A table a player needs, quoted from the rulebook section ``source``.

    ``row_cards`` gives, per row, the id of the card (a scoring layer) the row describes, or
    "" for a row that always applies: a variant that removes the card drops its row.
    """

    title: str
    source: str
    columns: list[str]
    rows: list[list[str]]
    row_cards: list[str] = field(default_factory=list)
    #: A variant's table given without ``rows``: it keeps the game's table's rows (and their
    #: cards) and replaces only its ``from`` and, when given, its ``columns``.
    keeps_rows: bool = False


@dataclass(frozen=True)
class HexFaceSpec:
    """How one face of a hex tile is read from its card: edges, icons, bonus points."""

    side: str
    #: The side of the area its icons sit in: "land" or "sea".
    area: str
    #: The tile's ``edges`` value -> six L/S letters for this face.
    edges: dict[str, str]
    icons: str | None
    bonus: str | None
    #: A face whose edges are a property of its own (``face_a "LLLSSS"``), not ``edges``.
    edges_from: str | None = None


@dataclass(frozen=True)
class HexSpec:
    """The kind printed as hex tiles (``hex_tiles`` in reference.yaml) and how to draw it."""

    kind: str
    #: Across the flats, in mm.
    width: float
    edges: str
    faces: list[HexFaceSpec]
    #: A yes/no property -> the icon drawn at the tile's centre when it is yes.
    centre: dict[str, str]
    #: An icon -> the side of the area it sits in, when not its face's (a Ship at sea).
    icon_areas: dict[str, str] = field(default_factory=dict)

    def properties(self) -> set[str]:
        """The card properties the hex drawing shows (not printed again as text)."""
        names = {self.edges, *self.centre}
        for face in self.faces:
            names.update(n for n in (face.icons, face.bonus, face.edges_from) if n)
        return names


@dataclass
class Reference:
    """Everything of reference.yaml, with defaults for what it leaves out."""

    phases_intro: str = ""
    phases_source: str = ""
    phases: list[PhaseItem] = field(default_factory=list)
    #: Phases of the flow the reference leaves out of "Phases, in order" on purpose (the
    #: game's bookkeeping, a step the rulebook folds into another): any other phase with no
    #: entry is printed from the flow, with its title and its statements in words.
    phases_omit: list[str] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    #: Per note, the id of the card it is tied to ("" for a note that always applies).
    note_cards: list[str] = field(default_factory=list)
    icons: dict[str, Icon] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)
    phrases: dict[str, str] = field(default_factory=dict)
    when: dict[str, str] = field(default_factory=dict)
    #: A tag of a kind's cards -> what a card carrying it is, in the rulebook's words, as said
    #: after "is" ("discovery: a Discovery Spot"; "space discovery" for one kind's tag alone).
    tags: dict[str, str] = field(default_factory=dict)
    #: Card property -> its label on the card, in the rulebook's words ("To Acquire").
    labels: dict[str, str] = field(default_factory=dict)
    #: Card kind -> its name on the sheet, in the rulebook's words ("Expedition Leader"); a
    #: kind not given prints as its own name.
    kinds: dict[str, str] = field(default_factory=dict)
    #: Counter -> what losing it stops at, in the rulebook's words.
    floors: dict[str, str] = field(default_factory=dict)
    #: The kinds printed as cards (None: every kind); board data such as map spaces is not.
    printed_kinds: list[str] | None = None
    #: Kinds that are rules of the game, not cards in the box: printed in the reference.
    rule_kinds: list[str] = field(default_factory=list)
    hexes: HexSpec | None = None
    #: Every kind printed as hex tiles (``hex_tiles`` may list several), ``hexes`` first.
    hex_specs: list[HexSpec] = field(default_factory=list)
    #: The top-level keys the file gave (what a variant's reference replaces).
    given: set[str] = field(default_factory=set)
    #: Phase name -> ``file:line:column`` where the file names it (for an unknown name).
    phase_places: dict[str, str] = field(default_factory=dict)
    #: The phase names a variant's own reference (``sheets/<variant>.reference.yaml``) gives,
    #: each as (its key, the name, ``file:line:column``): checked against the variant's flow,
    #: where the game's own names are not (the variant may have removed their phase).
    own_phases: list[tuple[str, str, str]] = field(default_factory=list)

    def kind_name(self, kind: str, default: str) -> str:
        """``kind``'s name on the sheet: the game's ``kinds`` word for it, else ``default``."""
        return self.kinds.get(kind, default)


def _pairs(raw: Any, where: str) -> list[tuple[str, str]]:
    return [pair for pair, _ties in _tied_pairs(raw, where, "note")]


def _tied_pairs(raw: Any, where: str, key: str) -> list[tuple[tuple[str, str], dict[str, str]]]:
    """Entries written ``[title, text]`` or ``{card: ID, phase: NAME, KEY: [title, text]}``:
    each pair with what it is tied to (``card``, ``phase``)."""
    out = []
    for item in raw or []:
        ties: dict[str, str] = {}
        if isinstance(item, dict):
            ties = {k: str(item[k]) for k in ("card", "phase") if item.get(k) is not None}
            item = item.get(key)
        if not isinstance(item, list) or len(item) != 2:
            raise ReferenceError(f"{where}: each entry is [title, text]")
        out.append(((str(item[0]), str(item[1])), ties))
    return out


#: References read in this process, by path, kind and bytes: ``cardc check`` reads a game's
#: reference.yaml for its phase names and again for the text lint of the game and of each
#: variant (a YAML read with positions is most of the lint's time).
_LOADED: dict[tuple[str, bool, bytes], Reference] = {}


def load_reference(path: Path, variant: bool = False) -> Reference:
    """Read ``path`` (a missing file is an empty reference); ``variant`` for a variant's
    ``sheets/<variant>.reference.yaml``, whose tables may leave out their rows (the game's
    table's rows are kept)."""
    import copy
    import os

    if not path.is_file():
        return Reference()
    # The working folder too: the positions its errors give are relative to it.
    key = (f"{os.getcwd()}\0{path.resolve()}", variant, path.read_bytes())
    if key not in _LOADED:
        if len(_LOADED) >= 32:
            _LOADED.pop(next(iter(_LOADED)))
        _LOADED[key] = _read_reference(path, variant)
    # A copy: the caller may change what it is given (apply_override, resolve).
    return copy.deepcopy(_LOADED[key])


def _read_reference(path: Path, variant: bool) -> Reference:
    from ruamel.yaml.error import YAMLError

    from compiler.project import display_path
    from compiler.sheets.reference_shape import (
        ReferenceShapeError,
        check_reference_file,
        phase_places,
    )
    from dsl.yaml_load import YamlLimitError, load_yaml

    try:  # every value read below has the shape it is read as, or the error says where not
        shown = str(display_path(path))
        places = phase_places(check_reference_file(path, shown, variant=variant), shown)
    except ReferenceShapeError as error:
        problem = ReferenceError(str(error))
        problem.diagnostic = error.diagnostic()
        raise problem from error
    try:
        data = load_yaml(path.read_text(encoding="utf-8"), "safe", source=str(path)) or {}
    except YamlLimitError as error:
        raise ReferenceError(str(error)) from error
    except YAMLError as error:
        raise ReferenceError(f"{path}: {error}") from error
    if not isinstance(data, dict):
        raise ReferenceError(f"{path}: expected a mapping at the top")
    ref = Reference(given={str(k) for k in data}, phase_places=places)
    phases = data.get("phases") or {}
    # Which parts of the phases a variant's reference gives (the rest stays the base's).
    ref.given |= {f"phases.{k}" for k in phases}
    ref.phases_intro = str(phases.get("intro", ""))
    ref.phases_source = str(phases.get("from", ""))
    ref.phases = [
        PhaseItem(title, text, ties.get("phase", ""), ties.get("card", ""))
        for (title, text), ties in _tied_pairs(phases.get("items"), f"{path}: phases.items", "item")
    ]
    ref.phases_omit = [str(name) for name in phases.get("omit") or []]
    if variant:
        ref.own_phases = [
            (where, name, places.get(name, shown))
            for where, name in _phase_names(ref.phases, ref.phases_omit)
        ]
    ref.tables = _tables(data.get("tables"), path, variant)
    notes = _tied_pairs(data.get("notes"), f"{path}: notes", "note")
    ref.notes = [pair for pair, _ties in notes]
    ref.note_cards = [ties.get("card", "") for _pair, ties in notes]
    for name, icon in (data.get("icons") or {}).items():
        if not isinstance(icon, dict) or "shape" not in icon:
            raise ReferenceError(f"{path}: icon '{name}' needs a shape")
        ref.icons[str(name)] = Icon(
            str(name),
            str(icon["shape"]),
            str(icon.get("label", name)),
            str(icon.get("meaning", "")),
            str(icon.get("card") or ""),
        )
    kinds = data.get("printed_kinds")
    if kinds is not None:
        if not isinstance(kinds, list):
            raise ReferenceError(f"{path}: 'printed_kinds' is a list of card kinds")
        ref.printed_kinds = [str(k) for k in kinds]
    rules = data.get("rule_kinds") or []
    if not isinstance(rules, list):
        raise ReferenceError(f"{path}: 'rule_kinds' is a list of card kinds")
    ref.rule_kinds = [str(k) for k in rules]
    if data.get("hex_tiles") is not None:
        raw = data["hex_tiles"]
        ref.hex_specs = [_hexes(one, path) for one in (raw if isinstance(raw, list) else [raw])]
        ref.hexes = ref.hex_specs[0] if ref.hex_specs else None
    for key in ("words", "phrases", "when", "tags", "floors", "labels", "kinds"):
        values = data.get(key) or {}
        if not isinstance(values, dict):
            raise ReferenceError(f"{path}: '{key}' is a mapping of name -> text")
        setattr(ref, key, {str(k): str(v) for k, v in values.items()})
    return ref


def _tables(raw: Any, path: Path, variant: bool = False) -> list[Table]:
    tables = []
    for table in raw or []:
        if variant and isinstance(table, dict) and "rows" not in table:
            columns = table.get("columns")
            tables.append(
                Table(
                    str(table.get("title", "")),
                    str(table.get("from", "")),
                    [str(c) for c in columns] if isinstance(columns, list) else [],
                    [],
                    keeps_rows=True,
                )
            )
            continue
        try:
            rows, cards = [], []
            for row in table["rows"]:
                # A row is its cells, or {card: ID, row: [cells]} for a row tied to a card.
                if isinstance(row, dict):
                    cards.append(str(row["card"]))
                    row = row["row"]
                else:
                    cards.append("")
                rows.append([str(cell) for cell in row])
            tables.append(
                Table(
                    str(table["title"]),
                    str(table.get("from", "")),
                    [str(c) for c in table["columns"]],
                    rows,
                    cards,
                )
            )
        except (KeyError, TypeError) as error:
            raise ReferenceError(f"{path}: a table needs title, columns and rows") from error
    return tables


def _hexes(raw: Any, path: Path) -> HexSpec:
    where = f"{path}: hex_tiles"
    try:
        faces = [
            HexFaceSpec(
                str(face.get("side", name)),
                str(face.get("area", name)),
                {
                    str(k): str(v)
                    for k, v in (
                        face["edges"] if isinstance(face.get("edges"), dict) else {}
                    ).items()
                },
                str(face["icons"]) if face.get("icons") else None,
                str(face["bonus"]) if face.get("bonus") else None,
                str(face["edges"]) if isinstance(face.get("edges"), str) else None,
            )
            for name, face in raw["faces"].items()
        ]
        return HexSpec(
            str(raw["kind"]),
            float(raw.get("width_mm", 40)),
            str(raw.get("edges", "edges")),
            faces,
            {str(k): str(v) for k, v in (raw.get("centre") or {}).items()},
            {str(k): str(v) for k, v in (raw.get("icon_areas") or {}).items()},
        )
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise ReferenceError(
            f"{where} needs kind, faces (each with edges and icons) and may give width_mm"
        ) from error


def variant_reference(folder: Path, variant: str | None) -> Path | None:
    """A variant's own changes to the reference: ``sheets/<variant>.reference.yaml``."""
    if variant is None:
        return None
    path = folder / "sheets" / f"{variant}.reference.yaml"
    return path if path.is_file() else None


def reference_for(folder: Path, variant: str | None) -> Reference:
    """The game's reference.yaml, with the variant's ``sheets/<variant>.reference.yaml`` over
    it when there is one."""
    ref = load_reference(folder / REFERENCE_FILE)
    extra = variant_reference(folder, variant)
    if extra is None:
        return ref
    override = load_reference(extra, variant=True)
    return apply_override(ref, override, override.given)


def apply_override(base: Reference, override: Reference, raw_keys: set[str]) -> Reference:
    """``base`` with a variant's reference over it: a table of the same title replaces the
    base's (one with no rows removes it; one without ``rows`` keeps the base's rows and
    changes its ``from`` and ``columns``), new tables are added; an icon of the same name
    replaces the base's, new ones are added; under ``phases``, the entries tied to a phase
    replace the base's entries for that phase (others are added), and ``intro``, ``from`` and
    ``omit`` replace the base's when given; any other key given replaces."""
    from dataclasses import replace

    tables = {t.title: t for t in base.tables}
    for table in override.tables:
        if table.keeps_rows:  # only its citation (and columns) change: the rows are the game's
            kept = tables.get(table.title)
            if kept is not None:
                tables[table.title] = replace(
                    kept,
                    source=table.source or kept.source,
                    columns=table.columns or kept.columns,
                )
            continue
        tables[table.title] = table
    out = replace(
        base,
        tables=[t for t in tables.values() if t.rows],
        icons={**base.icons, **override.icons},
        own_phases=override.own_phases,
    )
    if "phases" in raw_keys:
        for key, attr in (("intro", "phases_intro"), ("from", "phases_source")):
            if f"phases.{key}" in raw_keys:
                out = replace(out, **{attr: getattr(override, attr)})
        if "phases.omit" in raw_keys:
            out = replace(out, phases_omit=override.phases_omit)
        if "phases.items" in raw_keys:
            out = replace(out, phases=_merge_phases(base.phases, override.phases))
    for key in raw_keys - {"tables", "icons", "phases"}:
        if hasattr(out, key):
            out = replace(out, **{key: getattr(override, key)})
    return out


def _merge_phases(base: list[PhaseItem], override: list[PhaseItem]) -> list[PhaseItem]:
    """The base's phase entries with a variant's over them: the variant's entries for a phase
    stand where the base's first entry for it stood; the rest of the variant's go last."""
    from dataclasses import replace

    mine = [replace(item, variant=True) for item in override]
    named = {item.phase for item in mine if item.phase}
    out: list[PhaseItem] = []
    placed: set[str] = set()
    for item in base:
        if item.phase not in named:
            out.append(item)
        elif item.phase not in placed:
            placed.add(item.phase)
            out += [m for m in mine if m.phase == item.phase]
    return out + [m for m in mine if m.phase not in placed]


#: A parameter in reference text and the word after it: "{acquisitions_per_turn} cards".
_ONE_OF = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(\s+)([A-Za-z]+)")


def _singular_word(word: str) -> str:
    """A plural noun after a count of 1 in the singular ("cards" -> "card"); other words as
    they are (a mass noun, "Money"; a verb, "is")."""
    low = word.lower()
    if len(word) < 3 or not low.endswith("s") or low in ("is", "was", "has", "does", "its"):
        return word
    return singular(word)


def flow_phase_names(ir: dict[str, Any]) -> list[str]:
    """The names of the phases of ``ir``'s flow, in the order it runs them (none without a
    flow)."""
    flow = ir.get("flow") or {}
    return [p["name"] for section in flow.get("sections", []) for p in section["phases"]]


def _phase_names(items: list[PhaseItem], omit: list[str]) -> list[tuple[str, str]]:
    """The phase names of a reference's ``phases``, each with its key."""
    return [("phases.items", i.phase) for i in items if i.phase] + [
        ("phases.omit", n) for n in omit
    ]


def check_phase_names(ref: Reference, ir: dict[str, Any]) -> None:
    """Every phase the base game's reference names is a phase of its flow (a variant's flow
    may have removed one: its entries are then not printed); of a variant's IR, every phase
    the variant's own reference names is a phase of the variant's flow (an entry for any
    other would never be printed)."""
    from compiler.suggest import did_you_mean

    if not ir.get("flow"):
        return
    if ir.get("variant"):
        named = ref.own_phases
        whose = f"the flow of {ir['game']} with the variant {ir['variant']}"
    else:
        named = [
            (where, name, ref.phase_places.get(name, REFERENCE_FILE))
            for where, name in _phase_names(ref.phases, ref.phases_omit)
        ]
        whose = f"{ir['game']}'s flow"
    names = flow_phase_names(ir)
    for where, name, at in named:
        if name not in names:
            hint = did_you_mean(name, names) or (f"its phases: {', '.join(names)}",)
            message = f"{where}: '{name}' is not a phase of {whose}"
            problem = ReferenceError(f"{at}: {message}\n  hint: {hint[0]}")
            file, line, column = (at.rsplit(":", 2) + ["", ""])[:3]
            if line.isdigit() and column.isdigit():
                from dsl.diagnostics import Diagnostic
                from dsl.nodes import Span

                span = Span(file, int(line), int(column), int(line), int(column) + len(name))
                problem.diagnostic = Diagnostic(
                    "reference-shape", message, span, "error", (hint[0],)
                )
            raise problem


def resolve(ref: Reference, ir: dict[str, Any], card_ids: set[str]) -> Reference:
    """The reference as this game (or variant) plays: ``{name}`` in its text is the game's
    parameter ``name`` (``{rounds}`` -> 13 in a 13-month variant), and a phase entry, table
    row, note or icon tied to a card is dropped when the card is not in the game (a removed
    scoring layer). Phase entries are put in the flow's order by ``compiler.sheets.model``."""
    from dataclasses import replace

    check_phase_names(ref, ir)
    params = {k: v for k, v in ir["vocabulary"].get("params", {}).items()}

    def fill(text: str) -> str:
        if "{" not in text:
            return text
        # "You may Acquire up to {acquisitions_per_turn} cards" with a value of 1: "up to 1
        # card" (it printed "1 cards").
        text = _ONE_OF.sub(
            lambda m: (
                m.group(0)
                if params.get(m.group(1)) != 1
                else f"{{{m.group(1)}}}{m.group(2)}{_singular_word(m.group(3))}"
            ),
            text,
        )
        try:
            return text.format_map(params)
        except (KeyError, ValueError, IndexError) as error:
            raise ReferenceError(
                f"reference text '{text[:60]}' names {error}, which is not a parameter of "
                f"{ir['game']} (parameters: {', '.join(sorted(params)) or 'none'})"
            ) from error

    def kept(card: str) -> bool:
        return not card or card in card_ids

    tables = []
    for table in ref.tables:
        rows = [
            ([fill(c) for c in row], card)
            for row, card in zip(table.rows, table.row_cards or [""] * len(table.rows), strict=True)
            if kept(card)
        ]
        if rows:
            tables.append(replace(table, rows=[r for r, _ in rows], row_cards=[c for _, c in rows]))
    notes = [
        ((fill(a), fill(b)), card)
        for (a, b), card in zip(ref.notes, ref.note_cards or [""] * len(ref.notes), strict=True)
        if kept(card)
    ]
    phases = [
        replace(item, title=fill(item.title), text=fill(item.text))
        for item in ref.phases
        if kept(item.card)
    ]
    # A phase whose every entry is a removed card's rule is left out, not printed from the
    # flow: what it does there is that card's (a Pirate Raid phase without the Pirate Raid).
    emptied = {i.phase for i in ref.phases if i.phase} - {i.phase for i in phases if i.phase}
    return replace(
        ref,
        phases_intro=fill(ref.phases_intro),
        phases=phases,
        phases_omit=[*ref.phases_omit, *sorted(emptied)],
        tables=tables,
        notes=[note for note, _ in notes],
        note_cards=[card for _, card in notes],
        icons={name: icon for name, icon in ref.icons.items() if kept(icon.card)},
    )
