"""What a sheet shows, as plain data: one game's cards, notes and rules reference.

Built from the IR and the game's ``reference.yaml``; the HTML and Markdown emitters only
format it. Every collection is in a fixed order (the IR's card order, the notes' order), so
the output is the same bytes for the same sources.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compiler.sheets.reference import HexSpec, Reference
from compiler.sheets.text import CardWriter, IconRef, Provisional, Text, TextError, yours
from engine.words import with_article

#: Properties that count a card's copies, in the order they are looked for.
_COUNT_PROPERTIES = ("copies", "starting_copies", "count")
#: Properties a card has for the sheet's sake, not printed as a line of the card.
_SHEET_PROPERTIES = ("text", "art")
#: An art file's type by its suffix (what the data URI says it is).
_ART_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".svg": "image/svg+xml",
}

#: The prelude's kind of card for a rule of the game written as data (compiler/prelude.cards).
PRELUDE_RULE_KIND = "rule"


@dataclass(frozen=True)
class HexFace:
    """One face of a hex tile as printed: its six edges and what sits in its areas.

    ``edges`` are ``"land"``/``"sea"``, clockwise from the top-right edge of a pointy-top hex;
    ``icons`` are (icon name, how many, the side of the area they sit in); ``centre`` the
    icons drawn in the tile's middle (a City); ``bonus`` the bonus points (crosses).
    """

    side: str
    edges: tuple[str, ...]
    icons: tuple[tuple[str, int, str], ...]
    centre: tuple[str, ...]
    bonus: int


@dataclass
class Note:
    """A provisional value: its number on the sheet, what it is, why, and where."""

    number: int
    what: str
    why: str
    at: str


@dataclass
class CardView:
    """One card as printed."""

    id: str
    title: str
    kind: str
    tags: list[str]
    source: str
    count: int
    count_provisional: bool
    #: The provisional mark of the count (empty when the count is printed).
    count_mark: Text
    properties: list[tuple[str, Text]]
    paragraphs: list[Text]
    provisional: bool
    #: Font scale chosen by the layout check (1.0 unless the text had to shrink to fit).
    scale: float = 1.0
    #: The art slot's picture as a data URI; None prints the placeholder.
    art: str | None = None
    #: The faces of a hex tile (drawn as hexes, not as a card); empty for a card.
    hexes: list[HexFace] = field(default_factory=list)
    #: True when the text is the card's own ``text`` property, not written from its rules
    #: (the text lint checks only what cardc writes).
    own_text: bool = False


@dataclass
class SheetModel:
    """A game's (or variant's) sheet: its cards, notes, and reference."""

    game: str
    title: str
    variant: str | None
    cards: list[CardView]
    notes: list[Note]
    ref: Reference
    game_notes: list[Note] = field(default_factory=list)

    #: The game's (or variant's) rules written as cards of a rule kind: printed in the rules
    #: reference, not as cards, and not counted in the card list.
    rules: list[CardView] = field(default_factory=list)
    #: (card source, "Card: Property", name) of property values printed as a bare internal
    #: name, with no rulebook words (the text lint reports them).
    unworded: list[tuple[str, str, str]] = field(default_factory=list)
    #: Every kind the game declares (a variant's sheet colours its cards as the game's).
    kinds: list[str] = field(default_factory=list)
    #: "Phases, in order" as this game (or variant) plays: (title, text), in its flow's order.
    phases: list[tuple[str, Text]] = field(default_factory=list)
    #: (source, title, text) of the phases (and a house rule's end) written from the flow's
    #: statements, not quoted from reference.yaml: the text lint reads them as it reads rules.
    written_phases: list[tuple[str, str, Text]] = field(default_factory=list)

    def card_list(self) -> list[tuple[str, str, int, bool]]:
        """(title, kind, count, count is provisional) of every card, in source order."""
        return [(c.title, c.kind, c.count, c.count_provisional) for c in self.cards]


def _label(name: str) -> str:
    return name.replace("_", " ").capitalize()


def _note_what(
    raw: dict[str, Any], card: dict[str, Any] | None, ref: Reference, ir: dict[str, Any]
) -> str:
    """What a provisional note is about, in the game's words where its reference gives them,
    read from the note's ``kind`` and ``name`` (the IR keeps them apart from its ``what``): a
    whole card by ``kinds`` (``Crew Deckhand``), a property or a trigger by ``labels``
    (``Pilot: To Acquire``, ``Supplies: on play``), a game parameter by ``labels``, a phase
    by its title (``Phase: Storm Season``), a verb or function by its description. Names the
    reference leaves out stay as the IR's ``what`` says them."""
    what, kind, name = str(raw["what"]), raw.get("kind", ""), raw.get("name", "")
    if card is None:
        if kind == "phase":
            titles = {
                p["name"]: p.get("title")
                for section in (ir.get("flow") or {}).get("sections", [])
                for p in section["phases"]
            }
            return f"Phase: {titles.get(name) or name.replace('_', ' ')}"
        if kind in ("verb", "function"):
            vocab = ir["vocabulary"]
            doc = (
                vocab.get("verbs", {}).get(name) or vocab.get("natives", {}).get(name) or {}
            ).get("doc")
            return f"{doc[0].upper()}{doc[1:]}" if doc else what
        return ref.labels.get(name, what) if kind == "param" else what
    if kind == "card" and card["kind"] in ref.kinds:
        return f"{ref.kinds[card['kind']]} {card['title']}"
    label = {"property": name, "trigger": f"on {name}"}.get(kind)
    if label is not None and label in ref.labels:
        return f"{card['title']}: {ref.labels[label]}"
    return what


class _ModelBuilder:
    def __init__(
        self, ir: dict[str, Any], ref: Reference, shown: set[str], folder: Path | None = None
    ):
        self.ir = ir
        self.ref = ref
        self.folder = folder
        self.notes: list[Note] = []
        self.game_notes: list[Note] = []
        self.by_line: dict[tuple[str, int], int] = {}
        #: (card or holder, kind, name) -> note number: what each note marks.
        self.by_item: dict[tuple[str, str, str], int] = {}
        cards = {c["id"]: c for c in ir["cards"]}
        # Numbered on the sheet in source order: the game's own values, those of the cards
        # shown, then those of the game's rules that are no card (the flow's phases, its verbs
        # and functions: a variant's inserted phase or redefined verb is printed with its mark).
        provisional = ir.get("provisional", [])
        kept = (
            [r for r in provisional if r["card"] == ""]
            + [r for r in provisional if r["card"] in shown]
            + [r for r in provisional if r["card"] != "" and r["card"] not in cards]
        )
        for index, raw in enumerate(kept, start=1):
            what = _note_what(raw, cards.get(raw["card"]), ref, ir)
            note = Note(index, what, raw["why"], raw["at"])
            (self.notes if raw["card"] else self.game_notes).append(note)
            parts = raw["at"].rsplit(":", 2)
            line = int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else 0
            self.by_line.setdefault((raw["card"], line), index)
            self.by_item.setdefault((raw["card"], raw["kind"], raw["name"]), index)
        self.writer = CardWriter(ir, ref, self.by_line)
        self.count_marks: dict[str, Text] = {}
        self.titles = {c["id"]: c["title"] for c in ir["cards"]}
        self.unworded: list[tuple[str, str, str]] = []
        self.where: tuple[str, str] = ("", "")

    def value(self, value: Any) -> Text:
        """A property value in words; names with an icon get it."""
        if isinstance(value, bool):
            return ["yes" if value else "no"]
        if isinstance(value, (int, float)):
            return [str(value)]
        if isinstance(value, str):
            if not value.isidentifier():
                return [value]
            if value in self.titles and value not in self.ref.words:
                return [self.titles[value]]
            if value not in self.ref.words and value not in self.ref.icons:
                self.unworded.append((*self.where, value))
                return [value.replace("_", " ")]
            return self.writer.named(value, icon=True)
        if isinstance(value, list):
            if all(isinstance(v, list) for v in value):
                parts = [self.value(v) for v in value]
                out: Text = []
                for index, part in enumerate(parts):
                    out += ([", "] if index else []) + part
                return out
            out = []
            for index, v in enumerate(value):
                out += ([" "] if index else []) + self.value(v)
            return out
        return [str(value)]

    def card(self, card: dict[str, Any]) -> CardView:
        ident, title = card["id"], card["title"]
        props: list[tuple[str, Text]] = []
        count, count_prov = 1, False
        count_mark = self.count_marks
        for name, value in card["properties"].items():
            if name in _SHEET_PROPERTIES:
                continue
            if any(
                card["kind"] == spec.kind and name in spec.properties()
                for spec in self.ref.hex_specs
            ):
                continue
            mark = self.by_item.get((ident, "property", name))
            if name in _COUNT_PROPERTIES and isinstance(value, int):
                # Shown as the card's "x N" badge, not as a property line. A starting card is
                # in every player's starting deck: the box holds one deck per player.
                if name == "starting_copies":
                    value *= max(self.ir["vocabulary"].get("players") or [1])
                count, count_prov = value, mark is not None
                count_mark[ident] = [Provisional(mark)] if mark else []
                continue
            label = self.ref.labels.get(name) or _label(name)
            self.where = (card["source"], f"{title}: {label}")
            kind = self.ir["vocabulary"]["kinds"].get(card["kind"], {})
            typ = kind.get("properties", {}).get(name, {}).get("type")
            shown: Text = [value] if typ == "text" and isinstance(value, str) else self.value(value)
            shown = shown + ([Provisional(mark)] if mark else [])
            props.append((label, shown))
        for name, formula in card["formulas"].items():
            mark = self.by_item.get((ident, "property", name))
            text = self.writer.formula(formula["expr"])
            label = self.ref.labels.get(name) or _label(name)
            props.append((label, text + ([Provisional(mark)] if mark else [])))
        card_mark = self.by_item.get((ident, "card", ""))
        paragraphs = self.writer.card_text(card)
        if card_mark is not None:
            paragraphs = [*paragraphs, [Provisional(card_mark), " this card is provisional"]]
        return CardView(
            id=ident,
            title=title,
            kind=card["kind"],
            tags=list(card["tags"]),
            source=card["source"],
            count=count,
            count_provisional=count_prov,
            count_mark=self.count_marks.get(ident, []),
            properties=props,
            paragraphs=paragraphs,
            provisional=bool(card.get("provisional")),
            art=self.art(card),
            own_text=isinstance(card["properties"].get("text"), str),
            hexes=self.hex_faces(card),
        )

    def art(self, card: dict[str, Any]) -> str | None:
        """The card's ``art`` file as a data URI (inlined, so a sheet is one file)."""
        path = card["properties"].get("art")
        if not isinstance(path, str):
            return None
        file = (self.folder / path) if self.folder is not None else Path(path)
        kind = _ART_TYPES.get(file.suffix.lower())
        if kind is None or not file.is_file():
            problem = "is not a PNG, JPEG or SVG file" if kind is None else "does not exist"
            raise TextError(
                f"{card['source']}: {card['title']}: art '{path}' {problem} "
                "(a path relative to the game's folder, e.g. art/kraken.png)",
                str(card.get("source", "")),
            )
        data = base64.b64encode(file.read_bytes()).decode("ascii")
        return f"data:{kind};base64,{data}"

    def hex_faces(self, card: dict[str, Any]) -> list[HexFace]:
        """The faces of a hex tile, from the reference's ``hex_tiles`` (none for a card)."""
        spec = next((s for s in self.ref.hex_specs if s.kind == card["kind"]), None)
        if spec is None:
            return []
        return _hex_faces(spec, card, self.ref.icons)


def _hex_faces(
    spec: HexSpec, card: dict[str, Any], icon_names: Collection[str] = ()
) -> list[HexFace]:
    """The faces of ``card`` as ``spec`` reads them. An icon clause is ``NAME`` or ``NAME N``
    (how many); ``NAME SIDE`` (Land vs Sea's ``city sea``: the section a City is drawn in) is
    one icon in that side's area, when ``NAME`` is an icon of the reference (``icon_names``) and
    ``SIDE`` one of the face's edge kinds, so a tile's City drawn in its sea was left off the
    printed tile."""
    props = card["properties"]
    edges_value = props.get(spec.edges, "")
    faces = []
    for face in spec.faces:
        if face.edges_from is not None:
            edges_value = props.get(face.edges_from, "")
        pattern = face.edges.get(str(edges_value), str(edges_value))
        if len(pattern) != 6 or set(pattern) - {"L", "S"}:
            raise TextError(
                f"{card['source']}: {card['title']}: the edges '{edges_value}' of its "
                f"{face.side} face are not six L/S letters; give reference.yaml's "
                f"hex_tiles a pattern for it (e.g. {edges_value}: LLLSSS)",
                str(card.get("source", "")),
            )
        edges = tuple("land" if e == "L" else "sea" for e in pattern)
        icons: list[tuple[str, int, str]] = []
        raw = props.get(face.icons) if face.icons else None
        for clause in raw or []:
            name, count = clause[0], clause[1] if len(clause) > 1 else 1
            if isinstance(name, str) and isinstance(count, int):
                icons.append((name, count, spec.icon_areas.get(name, face.area)))
            elif isinstance(name, str) and name in icon_names and count in edges:
                icons.append((name, 1, str(count)))
        centre = tuple(icon for prop, icon in spec.centre.items() if props.get(prop) is True)
        bonus = props.get(face.bonus) if face.bonus else 0
        if isinstance(bonus, list):
            # Bonus points by section, as clauses: `land 2, sea 1` (or `land 2 1`).
            clauses = bonus if bonus and isinstance(bonus[0], list) else [bonus]
            bonus = sum(n for c in clauses for n in c[1:] if isinstance(n, int))
        faces.append(
            HexFace(face.side, edges, tuple(icons), centre, bonus if isinstance(bonus, int) else 0)
        )
    return faces


def _declared_by_variant(loc: dict[str, Any]) -> bool:
    """True for a phase a variant inserted or replaced: written in its own files (the YAML
    overlay and its ``add_files``, all in the game's ``variants/`` folder)."""
    from compiler.variants import VARIANTS_DIR

    return Path(str(loc.get("file", ""))).parent.name == VARIANTS_DIR


def _sentence(text: Text) -> Text:
    """``text`` as a sentence: its first letter a capital, a full stop at its end."""
    out = list(text)
    first = next((i for i, seg in enumerate(out) if isinstance(seg, str) and seg), None)
    if first is not None:
        seg = out[first]
        assert isinstance(seg, str)
        out[first] = seg[0].upper() + seg[1:]
    last = next((i for i in range(len(out) - 1, -1, -1) if isinstance(out[i], str)), None)
    if last is not None:
        seg = out[last]
        assert isinstance(seg, str)
        if seg.rstrip() and seg.rstrip()[-1] not in ".!?":
            out[last] = seg.rstrip() + "."
    return out


#: A phase's provisional note number by (kind, name) of the note, or None.
Marks = Callable[[str, str], "int | None"]


def phase_list(
    ir: dict[str, Any],
    ref: Reference,
    writer: CardWriter,
    marks: Marks,
    written: list[tuple[str, str, Text]] | None = None,
) -> list[tuple[str, Text]]:
    """The sheet's phases ("Phases, in order") as ``ir`` plays: from its compiled flow and
    the reference's entries.

    Each phase of the flow, in the order it runs, prints the entries tied to it (``phase:``);
    a phase with none, unless the reference omits it on purpose (``phases.omit``), prints its
    DSL title and its statements in words, so a phase a variant inserts is printed with it. A
    phase the variant replaced prints what it now does (its own title and statements), not the
    base game's entry, unless the variant's reference gives one. A phase the flow no longer
    has prints nothing. An entry tied to no phase stays after the entry above it in
    reference.yaml. ``marks(kind, name)`` is the provisional note number of a phase, or None;
    ``written``, when given, gets (source, title, text) of each phase written from the DSL.
    A game without a flow prints the entries as written; a game whose reference has no
    phases prints every phase of its flow from the DSL (a new game's sheet, and a phase its
    variant inserts, are printed too).
    """
    flow = ir.get("flow") or {}
    phases = [p for section in flow.get("sections", []) for p in section["phases"]]
    # The section each phase is played in: a setup's or an end's phase is not one of the
    # round's, though the list prints it among them (a house rule's setup bonus).
    section_of = {
        p["name"]: str(section.get("section") or "")
        for section in flow.get("sections", [])
        for p in section["phases"]
    }
    if not phases:
        return [(item.title, [item.text]) for item in ref.phases]
    rounds = any(section.get("section") == "round" for section in flow.get("sections", []))
    names = [p["name"] for p in phases]
    # An entry tied to no phase goes with the nearest tied entry above it that is played.
    groups: dict[str, list[Any]] = {name: [] for name in names}
    lead: list[Any] = []
    anchor: str | None = None
    for item in ref.phases:
        if item.phase:
            if item.phase in groups:
                anchor = item.phase
                groups[anchor].append(item)
        elif anchor is None:
            lead.append(item)
        else:
            groups[anchor].append(item)
    out: list[tuple[str, Text]] = [(item.title, [item.text]) for item in lead]
    omit = set(ref.phases_omit)
    for phase in phases:
        name = phase["name"]
        own = _declared_by_variant(phase.get("loc") or {})
        tied = [i for i in groups[name] if i.phase == name]
        if own and not any(i.variant for i in tied):
            tied = []  # the variant's phase: the base game's words no longer say what it does
        if not tied and (own or name not in omit):
            out.append(_generated_phase(phase, writer, marks, section_of.get(name, ""), rounds))
            if written is not None:
                written.append((str(writer.card.get("source", "")), *out[-1]))
        out += [(i.title, [i.text]) for i in groups[name] if i.phase != name or i in tied]
    if flow.get("end_when") and _declared_by_variant(flow.get("end_when_loc") or {}):
        # A house rule's end condition ('end_when: "ship_sunk() or prestige >= 40"') is part
        # of how the variant plays; the base game's is the rulebook's own words elsewhere.
        writer.card = {
            "id": "flow",
            "title": "End of the game",
            "source": _at(flow["end_when_loc"]),
        }
        out.append(
            ("End of the game", ["The game ends as soon as ", *writer.expr(flow["end_when"]), "."])
        )
        if written is not None:
            written.append((str(writer.card["source"]), *out[-1]))
    return out


def variant_verbs(
    ir: dict[str, Any], writer: CardWriter, marks: dict[tuple[str, str, str], int]
) -> list[CardView]:
    """The verbs and functions a variant defines (a house rule's ``verbs:``, a redefinition of
    the game's own included), as rules of the reference: a card that calls one reads its words
    ("gain two Port Cards"), and the reference says what they now do, as it says a house rule's
    end condition: "Gain two Port Cards. Whenever the rules say to gain two Port Cards, draw 2
    Port Cards."; a function what it now reads: 'Every "your final score" of the rules now reads
    "..."'. A verb or function of the game's own files is the rulebook's, printed nowhere
    else."""
    views: list[CardView] = []
    docs = ir["vocabulary"].get("verbs", {})
    for verb in (ir.get("definitions") or {}).get("verbs", []):
        source = str(verb.get("source", ""))
        if not _declared_by_variant({"file": source.rsplit(":", 1)[0]}):
            continue
        name = verb["name"]
        doc = yours(str((docs.get(name) or {}).get("doc") or name.replace("_", " ")))
        title = doc[:1].upper() + doc[1:]
        writer.card = {"id": "flow", "title": title, "source": source}
        # "Whenever the rules say to ..." quotes the words the sheet's cards and rules print
        # for a call of the verb: the reference's phrase or words for it when it has them
        # (Darwin's Journey's move_pirate_ship, implemented in Python, is printed "move the
        # Pirate Ship" everywhere), else its description. A house rule redefining it quoted its
        # own new description, which nothing on the sheet says.
        printed = writer.ref.phrases.get(name) or writer.ref.words.get(name)
        called = yours(printed) if printed and not re.search(r"\{\w+\}", printed) else doc
        text = _sentence(
            [f"{_whenever(called, command=called is not doc)}, ", *writer.block(verb["body"])]
        )
        views.append(
            _changed_view(f"verb-{name}", title, source, text, marks.get((name, "verb", name)))
        )
    # "Variants are printed as they play": a function a variant defines or redefines (a house
    # rule's final score, tie-break or mode) says what it now reads, as a verb says what it now
    # does; it was printed nowhere, so a house rule redefining only a function printed the base
    # game's sheet.
    natives = ir["vocabulary"].get("natives", {})
    for function in (ir.get("definitions") or {}).get("functions", []):
        source = str(function.get("source", ""))
        if not _declared_by_variant({"file": source.rsplit(":", 1)[0]}):
            continue
        name = function["name"]
        doc = yours(str((natives.get(name) or {}).get("doc") or name.replace("_", " ")))
        title = doc[:1].upper() + doc[1:]
        writer.card = {"id": "flow", "title": title, "source": source}
        call = {
            "kind": "call",
            "native": name,
            "args": [{"kind": "local", "name": p["name"]} for p in function.get("params", [])],
        }
        # As the errata sheet says a changed verb: 'Every "..." of the rules now reads "..."'.
        body = function["expr"]
        if body.get("kind") == "bool":
            # A condition made always or never so ("a ship never turns back" = false): it
            # read 'now reads "no"'.
            held = "always" if body["value"] else "never"
            text = _sentence(['every "', *writer.expr(call), f'" of the rules now {held} holds'])
        else:
            text = _sentence(
                ['every "', *writer.expr(call), '" of the rules now reads "']
                + [*writer.expr(body), '"']
            )
        number = marks.get((name, "function", name))
        views.append(_changed_view(f"function-{name}", title, source, text, number))
    return views


def _changed_view(
    ident: str, title: str, source: str, text: list[Any], number: int | None
) -> CardView:
    """The sheet's entry for a verb or function a variant defines or changes: its sentence,
    with its provisional mark when the definition has one."""
    return CardView(
        id=ident,
        title=title,
        kind="verb",
        tags=[],
        source=source,
        count=1,
        count_provisional=False,
        count_mark=[],
        properties=[],
        paragraphs=[text + ([Provisional(number)] if number is not None else [])],
        provisional=number is not None,
    )


#: Words a verb's description may start with that make it a thing done or a state, not a
#: command: "the Reward Phase: ...", "every Special Action Diary location is unlocked".
_NOUN_STARTS = frozenset("the a an every each all this that your their its one no".split())
#: A finite verb: a description that has one is a statement ("... is unlocked").
_FINITE = re.compile(r"\b(?:is|are|was|were|has|have|gets|get|becomes|become)\b")


#: "an area completed", "a tile placed": a thing and what happened to it, a verb's description
#: for an event (its "ed" word the participle).
_THING_DONE = re.compile(r"^(an?|the) ([A-Za-z]+) ([a-z]+ed)\b")


def _whenever(doc: str, command: bool = False) -> str:
    """The lead of a verb's rule: "whenever an area is completed" for a description of a
    thing done ("an area completed: its tiles ...", which read "whenever the rules call for
    an area completed"), else "whenever the rules" and what they ask for (:func:`_called_for`;
    ``command``: ``doc`` is the words the cards print for a call, a command)."""
    said = doc.strip().rstrip(".").split(":", 1)[0].strip()
    done = _THING_DONE.match(said)
    if done and done.end() == len(said):
        return f"whenever {done.group(1).lower()} {done.group(2)} is {done.group(3)}"
    return f"whenever the rules {_called_for(doc, command)}"


def _called_for(doc: str, command: bool = False) -> str:
    """What the rules ask for when they call a verb described by ``doc``, after "whenever
    the rules": a command "say to gain two Port Cards"; an infinitive heading ("To Face an
    Encounter") says its "to" once; a heading with its summary after a colon ("Rest Turn:
    Refresh the Crew, ...") is called for by its heading, "call for a Rest Turn"; a thing done
    "call for the Anchoring phase, ..."; a state "say that every Special Action Diary location
    is unlocked". Each read "say to Rest Turn: ...", "say to the Reward Phase: ...", "say to
    every ... is unlocked". The words the cards print for a call (``command``) are a command
    even in capitals: "say to Face an Encounter" (it read "call for a Face an Encounter")."""
    said = doc.strip().rstrip(".")
    if ":" in said:
        said = said.split(":", 1)[0].strip()
    if said[:3].lower() == "to ":
        return f"say to {said[3:]}"
    words = said.split()
    first = words[0].lower() if words else ""
    if first in _NOUN_STARTS:
        if _FINITE.search(said):
            return f"say that {said}"
        return f"call for {said[0].lower() + said[1:] if first in ('the', 'a', 'an') else said}"
    if len(words) > 1 and not command and all(w[:1].isupper() or w in _SMALL_WORDS for w in words):
        # A heading, named in capitals ("Rest Turn", "Encounter Turn"): a thing the rules
        # call for, as one of its kind.
        return f"call for {with_article(said)}"
    return f"say to {said}"


#: Words a heading leaves in lower case ("Face an Encounter", "Port of Call").
_SMALL_WORDS = frozenset("a an the of in on at to for and or with by from".split())


#: When a phase of a section other than the round's is played, said before its statements.
_SECTION_WHEN = {"setup": "Once, at the setup: ", "end": "Once, after the last round: "}
#: The end's words in a game played in turns with no rounds (Incredible Expeditions goes round
#: the table until a ship reaches Atlantis): it has no last round to be after.
_END_WITHOUT_ROUNDS = "Once, at the end of the game: "


def _generated_phase(
    phase: dict[str, Any],
    writer: CardWriter,
    marks: Marks,
    section: str = "",
    rounds: bool = True,
) -> tuple[str, Text]:
    """A phase the reference has no words for: its DSL title, its statements in words (a
    setup's or an end's phase says when it is played: after the last round, or at the end of
    the game when the flow has no rounds)."""
    # A title a designer wrote of "the player" is said to "you", as the sheet is ("A storm: on
    # a 6 you score 2", not "... the player scores 2").
    title = yours(str(phase.get("title") or phase["name"].replace("_", " ")))
    title = title[0].upper() + title[1:]
    writer.card = {"id": "flow", "title": title, "source": _at(phase.get("loc") or {})}
    text = _sentence(writer.block(phase["body"]))
    when = _SECTION_WHEN.get(section)
    if section == "end" and not rounds:
        when = _END_WITHOUT_ROUNDS
    if when and text and isinstance(text[0], str):
        text = [when + text[0][:1].lower() + text[0][1:], *text[1:]]
    number = marks("phase", phase["name"])
    if number is not None:
        text = [*text, Provisional(number)]
    return title, text


def _at(loc: dict[str, Any]) -> str:
    return f"{loc.get('file', '')}:{loc.get('line', 0)}"


def build_model(
    ir: dict[str, Any],
    ref: Reference,
    *,
    variant: str | None = None,
    only_cards: list[str] | None = None,
    title: str | None = None,
    folder: Path | None = None,
) -> SheetModel:
    """The sheet of ``ir``: every card (or those whose id is in ``only_cards``, in IR order).

    The prelude's ``rule`` kind and the kinds named in the reference's ``rule_kinds`` are
    rules, not cards in the box: they are printed in the rules reference and left out of the
    card list. ``folder`` is the game's folder, where a card's ``art`` path starts.
    """
    wanted = set(only_cards) if only_cards is not None else None
    kinds = set(ref.printed_kinds) if ref.printed_kinds is not None else None
    # A `rule "..."` is the game's rule written as data in every game (the prelude's kind), so
    # it is never counted as a card of the box, nor left off the sheet, whatever the reference.
    rule_kinds = {PRELUDE_RULE_KIND, *ref.rule_kinds}
    chosen = [
        c
        for c in ir["cards"]
        if (wanted is None or c["id"] in wanted)
        and (kinds is None or c["kind"] in kinds or c["kind"] in rule_kinds)
    ]
    builder = _ModelBuilder(ir, ref, {c["id"] for c in chosen}, folder)
    cards, rules = [], []
    for raw in chosen:
        view = builder.card(raw)
        if raw["kind"] in rule_kinds:
            rules.append(view)
        else:
            cards.append(view)
    if only_cards is None:
        rules += variant_verbs(ir, builder.writer, builder.by_item)
    written: list[tuple[str, str, Text]] = []
    phases = phase_list(
        ir,
        ref,
        builder.writer,
        lambda kind, name: builder.by_item.get(("flow", kind, name)),
        written,
    )
    return SheetModel(
        game=ir["game"],
        # A variant is named in the game's words when its reference gives them (``words``),
        # else by its name in words ("Harsher sea", not "harsher_sea").
        title=title or ir["title"] + (f" ({_variant_words(ref, variant)})" if variant else ""),
        variant=variant,
        cards=cards,
        notes=builder.notes,
        ref=ref,
        game_notes=builder.game_notes,
        rules=rules,
        unworded=builder.unworded
        + [(source, "its rules", name) for source, name in builder.writer.unworded],
        kinds=sorted(ir["vocabulary"].get("kinds", {})),
        phases=phases,
        written_phases=written,
    )


def _variant_words(ref: Reference, variant: str) -> str:
    """A variant's name on its sheet: the reference's words for it, else its file's name as
    words ("port_cards_two_at_a_time" -> "Port cards two at a time")."""
    said = ref.words.get(variant)
    if said is not None:
        return said
    words = variant.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def used_icons(model: SheetModel) -> list[str]:
    """Icons the cards show, in the Icon Reference's order."""
    seen: set[str] = set()
    for card in [*model.cards, *model.rules]:
        for text in [*card.paragraphs, *(t for _, t in card.properties)]:
            seen.update(s.name for s in text if isinstance(s, IconRef))
    return [name for name in model.ref.icons if name in seen]


def sheet_text(model: SheetModel) -> str:
    """Everything the sheet's cards and rules say, as plain lines (icons as ``[name]``,
    provisional marks as ``*N``): the golden text a reviewer checks against the rulebook."""
    from compiler.sheets.text import plain

    lines = [f"# {model.title}"]
    for card in model.cards:
        count = f" x{card.count}" if card.count > 1 else ""
        tags = "".join(f", {t.replace('_', ' ')}" for t in card.tags)
        kind = model.ref.kind_name(card.kind, card.kind.replace("_", " "))
        lines += ["", f"{card.title}{count} ({kind}{tags})"]
        lines += [f"  {label}: {plain(value)}" for label, value in card.properties]
        for face in card.hexes:
            icons = ", ".join(f"{n} x{c} in the {side} area" for n, c, side in face.icons)
            centre = ", ".join(face.centre)
            edges = "".join("L" if e == "land" else "S" for e in face.edges)
            lines.append(
                f"  {face.side}: edges {edges}"
                + (f"; bonus {face.bonus}" if face.bonus else "")
                + (f"; {icons}" if icons else "")
                + (f"; centre {centre}" if centre else "")
            )
        lines += [f"  {plain(p)}" for p in card.paragraphs]
    if model.rules:
        lines += ["", "## Rules"]
        for rule in model.rules:
            lines += ["", rule.title] + [f"  {plain(p)}" for p in rule.paragraphs]
    ref = model.ref
    if model.phases or ref.tables:
        lines += ["", "## Reference"]
    if ref.phases_intro and model.phases:
        lines += ["", ref.phases_intro]
    for index, (name, text) in enumerate(model.phases, start=1):
        lines.append(f"{index}. {name}: {plain(text)}")
    for table in ref.tables:
        lines += ["", f"{table.title}: {' | '.join(table.columns)}"]
        lines += [f"  {' | '.join(row)}" for row in table.rows]
    return "\n".join(lines) + "\n"
