"""What the language server knows about a game: every name, where it is declared, what it is.

Built from a compiled (or half-compiled) :class:`~compiler.pipeline.GameResult`: the vocabulary
(verbs, natives, triggers, kinds, counters, tracks, zones, params, symbols, prelude functions)
and the cards of the parsed files. Cards are found from the parse alone, so hover and go to
definition still work while the game has errors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compiler.vocabulary import Signature, Vocabulary
from dsl.names import card_id
from dsl.nodes import Declaration, Name, Property, SourceFile, Span, String, Trigger
from engine.param_bounds import allowed

KEYWORDS = (
    "on if unless else for each in where may choose one of repeat let and or not true false fire"
).split()

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Entry:
    """One name of a game: what it is, its description, a signature line, where declared."""

    name: str
    what: str  # "verb", "native", "trigger", "kind", "counter", "card", ...
    doc: str
    signature: str
    span: Span | None
    card: dict[str, Any] | None = None  # the card's IR, for a card of a compiled game

    def hover(self) -> str:
        """Markdown for a hover: the signature, the description and where it is declared."""
        lines = [
            f"```cards\n{self.signature}\n```",
            f"*{self.what}*" + (f": {self.doc}" if self.doc else ""),
        ]
        if self.span is not None:
            lines.append(f"declared at `{self.span.file}:{self.span.line}`")
        return "\n\n".join(lines)


def _signature(sig: Signature, what: str) -> str:
    params = []
    for param in sig.params:
        text = f"{param.marker + ' ' if param.marker else ''}{param.name}: {param.type}"
        params.append(f"[{text}]" if param.optional else text)
    if what == "verb":
        head = " ".join([sig.name, *params])
    else:
        head = f"{sig.name}({', '.join(params)})"
    return head + (f" -> {sig.returns}" if sig.returns else "")


def _param_doc(bounds: dict[str, Any] | None) -> str:
    """A parameter's hover text: what it counts (or switches) and the values it takes, as
    ``cardc check`` says them (engine.param_bounds); empty when it declares no bounds."""
    if bounds is None:
        return ""
    if bounds.get("switch") is not None:
        said = f"says {bounds['switch']}: "
    elif bounds.get("counts") is not None:
        said = f"counts {bounds['counts']}: "
    else:
        said = ""
    return said + allowed(bounds)


def card_head(decl: Declaration) -> tuple[str, str] | None:
    """The id and title of a card declaration, as the checker gives them (None: no title)."""
    words = [expr for clause in decl.args for expr in clause]
    title = next((w.value for w in words if isinstance(w, String)), None)
    names = [w for w in words if isinstance(w, Name)]
    if title is None:
        if not names:
            return None
        ident = names[-1].id
        title = ident.replace("_", " ").title()
    else:
        ident = card_id(title)
    for member in decl.body:
        if isinstance(member, Property) and member.name == "id" and member.args:
            value = member.args[0][0] if member.args[0] else None
            if isinstance(value, Name):
                ident = value.id
    return ident, title


class GameIndex:
    """Every name of one game, for hover, definition and completion."""

    def __init__(self, vocab: Vocabulary | None, parsed: list[SourceFile], ir: Any) -> None:
        self.entries: dict[str, Entry] = {}
        self.triggers: set[str] = set()
        #: The triggers by name, apart: a trigger may share its name with a verb (Uncharted
        #: Passage's ``scurvy``), and after ``on`` only the trigger is meant.
        self.trigger_entries: dict[str, Entry] = {}
        #: Each trigger's quantities, offered after ``fire TRIGGER with``.
        self.quantities: dict[str, tuple[str, ...]] = {}
        if vocab is not None:
            self._vocabulary(vocab)
        cards = {c["id"]: c for c in ir["cards"]} if ir else {}
        for source in parsed:
            for decl in source.declarations:
                if decl.kind == "game":
                    continue
                head = card_head(decl)
                if head is None:
                    continue
                ident, title = head
                signature = f'{decl.kind} "{title}"'
                kind = vocab.kinds.get(decl.kind) if vocab is not None else None
                self.entries.setdefault(
                    ident,
                    Entry(
                        ident,
                        "card",
                        f"{title} ({decl.kind}{': ' + kind.doc if kind and kind.doc else ''})",
                        signature,
                        Span(
                            source.path,
                            decl.span.line,
                            decl.span.column,
                            decl.span.line,
                            decl.span.column,
                        ),
                        cards.get(ident),
                    ),
                )

    def _vocabulary(self, vocab: Vocabulary) -> None:
        add = self.entries.setdefault
        for name, sig in vocab.verbs.items():
            add(
                name,
                Entry(
                    name,
                    "verb" if sig.origin != "prelude" else "prelude verb",
                    sig.doc,
                    _signature(sig, "verb"),
                    sig.span,
                ),
            )
        for name, sig in vocab.natives.items():
            add(name, Entry(name, "native", sig.doc, _signature(sig, "native"), sig.span))
        for name, sig in vocab.builtins.items():
            add(name, Entry(name, "prelude function", sig.doc, _signature(sig, "native"), sig.span))
        for name, trig in vocab.triggers.items():
            self.triggers.add(name)
            self.quantities[name] = tuple(trig.quantities)
            extra = []
            if trig.params:
                extra.append("params " + ", ".join(trig.params))
            if trig.quantities:
                extra.append("quantities " + ", ".join(trig.quantities))
            line = f"trigger {name}" + (f" {{ {'; '.join(extra)} }}" if extra else "")
            entry = Entry(name, "trigger", trig.doc, line, trig.span)
            self.trigger_entries[name] = entry
            add(name, entry)
        for name, owner in vocab.box_triggers.items():
            self.triggers.add(name)
            entry = Entry(
                name,
                "trigger",
                f"a special box of the {owner} track",
                f"on {name}",
                vocab.tracks[owner].span if owner in vocab.tracks else None,
            )
            self.trigger_entries.setdefault(name, entry)
            add(name, entry)
        for name, kind in vocab.kinds.items():
            props = "; ".join(
                f"property {p.name} {p.type}{' optional' if p.optional else ''}"
                for p in kind.properties.values()
            )
            tags = f"tags {', '.join(kind.tags)}; " if kind.tags else ""
            add(name, Entry(name, "kind", kind.doc, f"kind {name} {{ {tags}{props} }}", kind.span))
        for name, counter in vocab.counters.items():
            bounds = (
                f" {{ min {counter.min}"
                + (f"; max {counter.max}" if counter.max is not None else "")
                + " }"
            )
            add(
                name,
                Entry(
                    name,
                    "counter",
                    f"starts at {counter.start}",
                    f"counter {name}{bounds}",
                    counter.span,
                ),
            )
        for name, track in vocab.tracks.items():
            boxes = ", ".join(f"{box} {', '.join(map(str, at))}" for box, at in track.boxes.items())
            add(
                name,
                Entry(
                    name,
                    "track",
                    f"{track.length} boxes",
                    f"track {name} {track.length}" + (f" {{ {boxes} }}" if boxes else ""),
                    track.span,
                ),
            )
        for name, span in vocab.zones.items():
            add(name, Entry(name, "zone", "", f"zone {name}", span))
        for name, value in vocab.params.items():
            where = vocab.declared.get(f"value:{name}")
            add(
                name,
                Entry(
                    name,
                    "param",
                    _param_doc(vocab.param_bounds.get(name)),
                    f"param {name} {value}",
                    where[1] if where else vocab.span,
                ),
            )
        for name, doc in vocab.symbols.items():
            where = vocab.declared.get(f"value:{name}")
            add(
                name,
                Entry(name, "symbol", doc, f"symbol {name}", where[1] if where else vocab.span),
            )

    def lookup(self, name: str) -> Entry | None:
        """The entry of ``name``, if the game has one."""
        return self.entries.get(name)


def word_at(line: str, character: int) -> str | None:
    """The name under (or just before) column ``character`` (0-based) of ``line``."""
    for match in _WORD.finditer(line):
        if match.start() <= character <= match.end():
            return match.group()
    return None


_FIRE = re.compile(
    r"\bfire\s+(?P<trigger>[A-Za-z_][A-Za-z0-9_]*)?(?P<rest>(?:\s+with\b[^{]*)?)\s*$"
)


def completion_context(before: str) -> tuple[str, str | None]:
    """What a completion at the end of ``before`` (the line up to the cursor) offers:
    ``("triggers", None)`` after ``on`` or ``fire``; ``("with", TRIGGER)`` after ``fire
    TRIGGER `` (a window opens with its quantities); ``("quantities", TRIGGER)`` in ``fire
    TRIGGER with ...`` before its block; else ``("names", None)``."""
    words = before.split()
    typing = not before.endswith((" ", "\t")) and bool(words)
    # The word being typed is part of the answer, not of what comes before it.
    settled = words[:-1] if typing else words
    if settled and settled[-1] in ("on", "fire"):
        return "triggers", None
    fire = _FIRE.search(" ".join(settled) + " ")
    if fire is not None and fire.group("trigger"):
        rest = fire.group("rest")
        if not rest.strip():
            return "with", fire.group("trigger")
        # After 'with' or a comma, a quantity's name; after 'NAME VALUE', a comma or the block.
        if rest.rstrip().endswith(("with", ",")):
            return "quantities", fire.group("trigger")
    return "names", None


def symbols_of(source: SourceFile) -> list[tuple[Any, list[Any]]]:
    """The outline of a file: each declaration with its members (properties and triggers)."""
    out = []
    for decl in source.declarations:
        out.append((decl, [m for m in decl.body if isinstance(m, (Property, Trigger))]))
    return out


def declaration_label(decl: Declaration) -> str:
    """A declaration's name in the outline: its title, else its kind and first name."""
    head = card_head(decl) if decl.kind != "game" else None
    if head is not None:
        return head[1]
    words = [e for clause in decl.args for e in clause]
    shown = [
        w.value if isinstance(w, String) else w.id for w in words if isinstance(w, (Name, String))
    ]
    return " ".join([decl.kind, *shown[:1]])


def is_game_file(path: Path) -> bool:
    """True for a game's vocabulary file."""
    return path.name == "game.cards"
