"""What a sheet shows, as plain data: one game's cards, notes and rules reference.

Built from the IR and the game's ``reference.yaml``; the HTML and Markdown emitters only
format it. Every collection is in a fixed order (the IR's card order, the notes' order), so
the output is the same bytes for the same sources.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compiler.sheets.reference import Reference
from compiler.sheets.text import CardWriter, IconRef, Provisional, Text

#: Properties that count a card's copies, in the order they are looked for.
_COUNT_PROPERTIES = ("copies", "starting_copies", "count")


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

    def card_list(self) -> list[tuple[str, str, int, bool]]:
        """(title, kind, count, count is provisional) of every card, in source order."""
        return [(c.title, c.kind, c.count, c.count_provisional) for c in self.cards]


def _label(name: str) -> str:
    return name.replace("_", " ").capitalize()


class _ModelBuilder:
    def __init__(self, ir: dict[str, Any], ref: Reference, shown: set[str]):
        self.ir = ir
        self.ref = ref
        self.notes: list[Note] = []
        self.game_notes: list[Note] = []
        self.by_line: dict[tuple[str, int], int] = {}
        self.by_what: dict[tuple[str, str], int] = {}
        # Numbered on the sheet in source order: the game's own, then those of cards shown.
        kept = [r for r in ir.get("provisional", []) if r["card"] == ""] + [
            r for r in ir.get("provisional", []) if r["card"] in shown
        ]
        for index, raw in enumerate(kept, start=1):
            note = Note(index, raw["what"], raw["why"], raw["at"])
            (self.notes if raw["card"] else self.game_notes).append(note)
            parts = raw["at"].rsplit(":", 2)
            line = int(parts[1]) if len(parts) == 3 and parts[1].isdigit() else 0
            self.by_line.setdefault((raw["card"], line), index)
            self.by_what.setdefault((raw["card"], raw["what"]), index)
        self.writer = CardWriter(ir, ref, self.by_line)
        self.count_marks: dict[str, Text] = {}

    def value(self, value: Any) -> Text:
        """A property value in words; names with an icon get it."""
        if isinstance(value, bool):
            return ["yes" if value else "no"]
        if isinstance(value, (int, float)):
            return [str(value)]
        if isinstance(value, str):
            return self.writer.named(value) if value.isidentifier() else [value]
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
            if name == "text":
                continue
            mark = self.by_what.get((ident, f"{title}: {name}"))
            if name in _COUNT_PROPERTIES and isinstance(value, int):
                # Shown as the card's "x N" badge, not as a property line.
                count, count_prov = value, mark is not None
                count_mark[ident] = [Provisional(mark)] if mark else []
                continue
            shown = self.value(value) + ([Provisional(mark)] if mark else [])
            props.append((_label(name), shown))
        for name, formula in card["formulas"].items():
            mark = self.by_what.get((ident, f"{title}: {name}"))
            text = self.writer.formula(formula["expr"])
            props.append((_label(name), text + ([Provisional(mark)] if mark else [])))
        card_mark = self.by_what.get((ident, f"{card['kind']} {title}"))
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
        )


def build_model(
    ir: dict[str, Any],
    ref: Reference,
    *,
    variant: str | None = None,
    only_cards: list[str] | None = None,
    title: str | None = None,
) -> SheetModel:
    """The sheet of ``ir``: every card (or those whose id is in ``only_cards``, in IR order)."""
    wanted = set(only_cards) if only_cards is not None else None
    kinds = set(ref.printed_kinds) if ref.printed_kinds is not None else None
    printed = [
        c
        for c in ir["cards"]
        if (wanted is None or c["id"] in wanted) and (kinds is None or c["kind"] in kinds)
    ]
    builder = _ModelBuilder(ir, ref, {c["id"] for c in printed})
    cards = [builder.card(c) for c in printed]
    return SheetModel(
        game=ir["game"],
        title=title or ir["title"] + (f" ({variant})" if variant else ""),
        variant=variant,
        cards=cards,
        notes=builder.notes,
        ref=ref,
        game_notes=builder.game_notes,
    )


def used_icons(model: SheetModel) -> list[str]:
    """Icons the cards show, in the Icon Reference's order."""
    seen: set[str] = set()
    for card in model.cards:
        for text in [*card.paragraphs, *(t for _, t in card.properties)]:
            seen.update(s.name for s in text if isinstance(s, IconRef))
    return [name for name in model.ref.icons if name in seen]
