"""Per-file caches inside one game: parse, check and IR, handlers and JSON, kept in the process.

An edit to one file of a 10,000-card game used to recompile all of it. Here each stage keeps
what it made per file (or per card) and reuses it while what it depends on is unchanged:

- the parse of a file, while its text is the same (so a variant, which compiles its game
  again with an overlay, reads each file once; and ``cardc watch`` and ``cardc lsp`` re-parse
  only the file that was saved);
- the checked IR of a file's cards (and their @provisional notes), while the file's parsed
  tree is the same object (an overlay that changes a card gives a new one), the game
  declaration it was checked against is the same object and the game's DSL verbs and
  functions are equal (so the vocabulary and the flow's names are unchanged), and every card
  name it looked up is still declared, or still not.
  A file whose check said anything (an error, a warning) is never kept: its diagnostics come
  from a fresh check every time;
- a card's handler functions (rendered and compiled once), its line of ``cards.json``, and its
  schema validation, while the card's IR is the same object;
- the same, joined, for each file's cards at once (:func:`segments`, :func:`chunk_memo`): the
  cards of a file whose check was kept are the very list it kept, so what was made from that
  list (its functions' text and LINES markers, its lines of ``cards.json``, its questions,
  its modules, its validation) is reused whole, and a build after a one-file edit does per
  card only the edited file's work (a 10,000-card game: the per-card look-ups alone took a
  fifth of such a build).

cardc's own code and the prelude cannot change inside a process, so they need no key here; the
build's input digest covers them across processes. Everything is keyed by identity or by exact
text, never by a hash that could collide, and :func:`clear` empties it all (tests compare a
cached build with a clean one byte for byte).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from compiler.suggest import duplicate_hint
from dsl.nodes import Declaration, SourceFile
from dsl.parser import ParseResult

IR = dict[str, Any]

#: Switch for tests and benchmarks: False makes every stage compute afresh.
ENABLED = True

#: path -> (text, its parse): the latest parse of each file.
_PARSES: dict[str, tuple[str, ParseResult]] = {}
#: id(SourceFile) -> what checking it gave.
_CHECKS: dict[int, _Checked] = {}
#: id(SourceFile) -> (it, the game declaration, each card declaration's id, title and tags).
_HEADS: dict[int, tuple[SourceFile, Any, list[tuple[Declaration, Any]]]] = {}
#: id(card IR) -> (the card, what was made from it): handler functions, JSON line, valid.
_CARDS: dict[int, tuple[IR, dict[str, Any]]] = {}
#: id(a list check_files returned) -> (it, the per-file lists it was joined from, in order).
_SEGMENTS: dict[int, tuple[list[IR], list[list[IR]]]] = {}
#: id(one file's list of cards or notes) -> (the list, what was made from it, joined).
_CHUNKS: dict[int, tuple[list[IR], dict[str, Any]]] = {}
#: A card's line of cards.json (its whole IR, exactly) -> the memo of a card with that IR.
_BY_TEXT: dict[str, dict[str, Any]] = {}


def clear() -> None:
    """Forget everything (the next build is a clean one)."""
    _PARSES.clear()
    _CHECKS.clear()
    _HEADS.clear()
    _CARDS.clear()
    _SEGMENTS.clear()
    _CHUNKS.clear()
    _BY_TEXT.clear()


# ---- parse ---------------------------------------------------------------------------------


def cached_parse(path: str, text: str) -> ParseResult | None:
    """The parse of ``text`` as ``path`` when it was parsed before."""
    if not ENABLED:
        return None
    found = _PARSES.get(path)
    return found[1] if found is not None and found[0] == text else None


def remember_parse(path: str, text: str, result: ParseResult) -> None:
    """Keep ``result`` as the parse of ``path`` (the file's previous parse is dropped)."""
    if ENABLED:
        _PARSES[path] = (text, result)


# ---- check ---------------------------------------------------------------------------------


@dataclass
class _Checked:
    """One file's checked cards, and what the check depended on."""

    source: SourceFile
    context: Any  # (game declaration, DSL definitions)
    lookups: dict[str, bool]
    #: card id -> its kind and tags, for each card a ``{ names ... }`` property looked at.
    sorts: dict[str, tuple[str, tuple[str, ...]]]
    cards: list[IR]
    provisional: list[IR]


class CardNames(dict):  # type: ignore[type-arg]
    """The game's cards as the checker sees them, recording every name it asks about.

    The checker only asks whether a name is a card (``in``); when it lists them all (for a
    "did you mean"), the file depends on every name and is not kept.
    """

    def __init__(self, cards: dict[str, Declaration]) -> None:
        super().__init__()
        self.cards = cards
        self.lookups: dict[str, bool] = {}
        #: card id -> its kind and tags, when the check asked (Checker.card_sort): a file
        #: whose ``to lisbon`` checked depends on lisbon being a port, not only a card.
        self.sorts: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.listed = False

    def note_sort(self, name: str, sort: tuple[str, tuple[str, ...]]) -> None:
        """Record that the check read the kind and tags of the card ``name``."""
        self.sorts[name] = sort

    def __contains__(self, name: object) -> bool:
        found = name in self.cards
        self.lookups[str(name)] = found
        return found

    def get(self, name: str, default: Any = None) -> Any:
        """As ``dict.get``, recorded."""
        return self.cards[name] if name in self else default

    def __getitem__(self, name: str) -> Declaration:
        self.lookups[name] = name in self.cards
        return self.cards[name]

    def __iter__(self) -> Iterator[str]:
        self.listed = True
        return iter(self.cards)

    def keys(self) -> Any:
        """As ``dict.keys``; the file then depends on every card."""
        self.listed = True
        return self.cards.keys()

    def __len__(self) -> int:
        self.listed = True
        return len(self.cards)


def _same_context(kept: Any, context: tuple[Declaration, tuple[Any, ...]]) -> bool:
    """The same game declaration (the very object) and equal DSL definitions."""
    return bool(kept[0] is context[0] and kept[1] == context[1])


def check_files(
    checker: Any,
    files: list[SourceFile],
    context: tuple[Declaration, tuple[Any, ...]],
    skip: list[Declaration],
    definitions: list[Any] | None = None,
) -> IR:
    """What ``Checker.check`` gives for the declarations of ``files``, file by file, reusing
    each file's checked cards while its dependencies hold (see the module's docstring).

    ``context`` is the game declaration and the game's DSL verb and function definitions
    (their signatures are part of the vocabulary); ``definitions`` are lowered after the
    cards' names are known and before their bodies, as ``Checker.check`` does."""
    per_file: list[list[tuple[Declaration, str, str, list[str]]]] = []
    duplicates = False
    skipped = {id(d) for d in skip}
    for source in files:
        pending = []
        heads = _HEADS.get(id(source)) if ENABLED else None
        if heads is None or heads[0] is not source or not _same_context(heads[1], context):
            said = len(checker.diagnostics)
            found = [
                (decl, checker.head(decl))
                for decl in source.declarations
                if id(decl) not in skipped
            ]
            heads = (source, context, [(d, h) for d, h in found if h is not None])
            if ENABLED and len(checker.diagnostics) == said:
                _HEADS[id(source)] = heads
        for decl, (ident, title, tags) in heads[2]:
            first = checker.cards.get(ident)
            if first is not None:
                duplicates = True
                checker.error(
                    "duplicate-card",
                    f"a card with the id '{ident}' is already declared at {first.span}",
                    decl.span,
                    duplicate_hint(ident, first.span, decl.span),
                )
                continue
            checker.cards[ident] = decl
            checker.card_tags[ident] = tags
            pending.append((decl, ident, title, tags))
        per_file.append(pending)
    names: dict[str, Declaration] = checker.cards
    from compiler.definitions import lower

    lowered = lower(checker, list(definitions)) if definitions else None
    cards: list[IR] = []
    card_pieces: list[list[IR]] = []
    # The notes written before the files' cards (definitions) are a piece of their own.
    note_pieces: list[list[IR]] = [list(checker.provisional)]
    for source, pending in zip(files, per_file, strict=True):
        kept = _CHECKS.get(id(source)) if ENABLED and not duplicates else None
        if (
            kept is not None
            and kept.source is source
            and _same_context(kept.context, context)
            and all((name in names) == seen for name, seen in kept.lookups.items())
            and all(checker.card_sort(name) == sort for name, sort in kept.sorts.items())
        ):
            cards.extend(kept.cards)
            checker.provisional.extend(kept.provisional)
            card_pieces.append(kept.cards)
            note_pieces.append(kept.provisional)
            continue
        said = len(checker.diagnostics)
        noted = len(checker.provisional)
        recorder = CardNames(names)
        checker.cards = recorder
        try:
            made = [
                checker.card(decl, ident, title, tags, f"/cards/{len(cards) + index}")
                for index, (decl, ident, title, tags) in enumerate(pending)
            ]
        finally:
            checker.cards = names
        cards.extend(made)
        notes = checker.provisional[noted:]
        card_pieces.append(made)
        note_pieces.append(notes)
        if ENABLED and len(checker.diagnostics) == said and not recorder.listed:
            _CHECKS[id(source)] = _Checked(
                source, context, recorder.lookups, recorder.sorts, made, notes
            )
    if ENABLED:
        _SEGMENTS[id(cards)] = (cards, card_pieces)
        _SEGMENTS[id(checker.provisional)] = (checker.provisional, note_pieces)
    out: IR = {"cards": cards, "provisional": checker.provisional}
    if lowered is not None:
        out["definitions"] = lowered
    return out


def prune() -> None:
    """Drop what can no longer be reused: checks of files whose text has changed since (only
    the latest parse of each file is kept), and what was made from cards nothing else holds
    (a long ``cardc watch`` or ``cardc lsp`` session stays the size of its game)."""
    alive = {id(r.file) for _t, r in _PARSES.values()}
    for table in (_CHECKS, _HEADS):
        for key in [k for k in table if k not in alive]:
            del table[key]
    # Held only here: by _CARDS's tuple, the loop's variable and getrefcount's argument.
    for key in [k for k, (card, _memo) in _CARDS.items() if sys.getrefcount(card) <= 3]:
        del _CARDS[key]
    live = {id(memo) for _card, memo in _CARDS.values()}
    for text in [t for t, memo in _BY_TEXT.items() if id(memo) not in live]:
        del _BY_TEXT[text]
    # The same for the joined lists: a list held by nothing else is never asked for again
    # (a segment's pieces are held by its tuple, so the joined lists go first).
    for joined in (_SEGMENTS, _CHUNKS):
        for key in [k for k, (items, _rest) in joined.items() if sys.getrefcount(items) <= 3]:
            del joined[key]


# ---- per card: handlers, JSON, validation ---------------------------------------------------


def card_memo(card: IR) -> dict[str, Any]:
    """What was made from ``card`` before (empty when nothing): keyed by the object itself."""
    if not ENABLED:
        return {}
    found = _CARDS.get(id(card))
    if found is None or found[0] is not card:
        memo: dict[str, Any] = {}
        _CARDS[id(card)] = (card, memo)
        return memo
    return found[1]


# ---- per file: the same, joined ------------------------------------------------------------


def segments(items: list[IR]) -> list[list[IR]]:
    """``items`` (an IR's ``cards`` or ``provisional``) as the per-file lists check_files
    joined it from, in order, so that what is made per file can be kept per file
    (:func:`chunk_memo`); what was added after them (the flow's notes) is one more list. A
    list check_files did not make (a variant's, edited) is one list of its own, never kept."""
    found = _SEGMENTS.get(id(items)) if ENABLED else None
    if found is None or found[0] is not items:
        return [items]
    pieces, at = [], 0
    for piece in found[1]:
        end = at + len(piece)
        # Each item still the very object the piece holds: the list was not edited since.
        if end > len(items) or any(a is not b for a, b in zip(piece, items[at:end], strict=True)):
            return [items]
        pieces.append(piece)
        at = end
    if at < len(items):
        pieces.append(items[at:])
    return pieces


def chunk_memo(items: list[IR]) -> dict[str, Any]:
    """What was made from the list ``items`` before (empty when nothing), keyed by the list
    itself, like :func:`card_memo`; an empty dict nothing keeps for a list no check kept."""
    if not ENABLED:
        return {}
    found = _CHUNKS.get(id(items))
    if found is None or found[0] is not items:
        memo: dict[str, Any] = {}
        _CHUNKS[id(items)] = (items, memo)
        return memo
    return found[1]


def same_card(text: str, memo: dict[str, Any]) -> dict[str, Any]:
    """The memo of a card whose whole IR is ``text`` (its line of cards.json), ``memo`` (the
    asking card's) when none is known: a card re-checked after an edit of its file, but
    unchanged, is written from what was made for its earlier IR (equal text, not a hash)."""
    if not ENABLED:
        return memo
    return _BY_TEXT.setdefault(text, memo)
