"""The stages in order: parse -> vocabulary -> check and lower -> schema validation.

Each stage is a function of its input; diagnostics from all of them are collected into one
list, which the CLI sorts and renders. A game is compiled as a whole (names resolve across
its files), so checking one file checks its game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from compiler.checker import check_game
from compiler.ir_schema import validate
from compiler.project import GAME_FILE, RESERVED_GAMES, card_files
from compiler.vocabulary import Vocabulary, read_vocabulary
from dsl.diagnostics import Diagnostic, SourceCache, file_span
from dsl.nodes import Declaration, Name, SourceFile, Span
from dsl.parser import ParseResult, parse, read_source
from engine.words import counted


@dataclass
class GameResult:
    """One compiled game: its IR (None when it has errors), spans and diagnostics."""

    game: str
    folder: Path
    files: list[Path]
    ir: dict[str, Any] | None
    spans: dict[str, Span]
    diagnostics: list[Diagnostic]
    #: What the language server reads names from: the vocabulary and the parsed files.
    vocabulary: Vocabulary | None = None
    parsed: list[SourceFile] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no diagnostic is an error."""
        return not any(d.severity == "error" for d in self.diagnostics)


@dataclass
class CheckResult:
    """What ``cardc check`` found: parsed files, compiled games, diagnostics."""

    files: list[SourceFile] = field(default_factory=list)
    games: list[GameResult] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: The @provisional values written in the variants' own files (YAML and added cards).
    variant_provisional: list[dict[str, str]] = field(default_factory=list)
    #: Each checked variant's IR (None: it did not compile), by game folder name and variant
    #: name: what its own ``sheets/<variant>.reference.yaml`` is checked against.
    variant_irs: dict[tuple[str, str], dict[str, Any] | None] = field(default_factory=dict)

    @property
    def provisional(self) -> list[dict[str, str]]:
        """Every @provisional value of every compiled game and of its variants' own files."""
        return [
            *(p for g in self.games if g.ir for p in g.ir["provisional"]),
            *self.variant_provisional,
        ]

    def summary(self) -> str:
        """One line for a clean run."""
        cards = sum(len(g.ir["cards"]) for g in self.games if g.ir)
        warnings = sum(d.severity == "warning" for d in self.diagnostics)
        return (
            f"checked {counted(len(self.games), 'game')}, {counted(len(self.files), 'file')}, "
            f"{counted(cards, 'card')}: no errors"
            + (f", {counted(warnings, 'warning')}" if warnings else "")
            + f" ({counted(len(self.provisional), 'provisional value')}: cardc check --provenance)"
        )

    def provenance_report(self) -> str:
        """Every @provisional value, where it is and why it was chosen."""
        rows = sorted(self.provisional, key=lambda p: _at_key(p["at"]))
        lines = [f"{p['at']}: {p['what']}: {p['why']}" for p in rows]
        lines.append(counted(len(rows), "provisional value"))
        return "\n".join(lines)


def _at_key(at: str) -> tuple[str, int, int]:
    path, line, column = at.rsplit(":", 2)
    return path, int(line), int(column)


#: Reads and parses one file: :func:`dsl.parser.parse_file`, or the language server's, which
#: parses the editor's unsaved text and remembers what did not change.
FileParser = Callable[[Path], ParseResult]


def parse_all(
    paths: Iterable[Path], sources: SourceCache, parser: FileParser | None = None
) -> tuple[list[SourceFile], list[Diagnostic]]:
    """Parse ``paths``; remember their text for diagnostics."""
    files: list[SourceFile] = []
    diagnostics: list[Diagnostic] = []
    for path in paths:
        result = (parser or _parse_kept)(path)
        if result.text is not None:
            sources.put(str(path), result.text)
        files.append(result.file)
        diagnostics.extend(result.diagnostics)
    return files, diagnostics


def _parse_kept(path: Path) -> ParseResult:
    """:func:`parse_file`, reusing the parse of an unchanged file (compiler.filecache)."""
    from compiler import filecache

    text, problems = read_source(path)
    if text is None:
        return ParseResult(SourceFile(str(path), ()), tuple(problems), None)
    result = filecache.cached_parse(str(path), text)
    if result is None:
        result = parse(text, str(path))
        filecache.remember_parse(str(path), text, result)
    return result


def _game_name_span(game: Declaration) -> Span:
    """The game's name in its declaration, the word to change, not the whole declaration."""
    return next((w.span for clause in game.args for w in clause if isinstance(w, Name)), game.span)


def game_folder(path: Path) -> Path | None:
    """The game folder a file belongs to: the nearest folder above it holding game.cards."""
    for folder in (path.parent, *path.parent.parents):
        if (folder / GAME_FILE).is_file():
            return folder
        if folder.name == "cards":
            return None
    return None


#: A variant's overlay (compiler.variants): the parsed sources -> the sources to check.
Overlay = Callable[[list[SourceFile], list[Diagnostic]], list[SourceFile]]


def compile_game(
    folder: Path,
    sources: SourceCache,
    files: list[Path] | None = None,
    overlay: Overlay | None = None,
    parser: FileParser | None = None,
    removed: Mapping[str, Span] | None = None,
) -> GameResult:
    """Parse, check, lower and validate the game in ``folder`` (with ``overlay`` applied to
    its parsed sources, for a variant; ``parser`` in place of reading the files from disk).
    ``removed``: the kinds of card the variant removes some of, each at its ``remove:`` entry
    (filled as the overlay applies), where the game's checks of a kind's number are shown."""
    from compiler import filecache

    filecache.prune()
    paths = files if files is not None else card_files(folder)
    parsed, diagnostics = parse_all(paths, sources, parser)
    if overlay is not None:
        parsed = overlay(parsed, diagnostics)
    game_decls: list[Declaration] = [
        decl
        for source in parsed
        if Path(source.path).name == GAME_FILE
        for decl in source.declarations
        if decl.kind == "game"
    ]
    game_path = next((p for p in paths if p.name == GAME_FILE), folder / GAME_FILE)
    if not game_decls:
        if not any(d.span.file == str(game_path) and d.severity == "error" for d in diagnostics):
            diagnostics.append(
                Diagnostic(
                    "no-game",
                    f"{game_path} declares no game",
                    file_span(str(game_path)),
                    "error",
                    (f'start it with: game {folder.name} "Title" {{ ... }}',),
                    # About the whole file: an excerpt of its first line would point at nothing.
                    show_source=False,
                )
            )
        return GameResult(folder.name, folder, paths, None, {}, diagnostics, parsed=parsed)
    for extra in game_decls[1:]:
        diagnostics.append(
            Diagnostic(
                "duplicate-game",
                "a game.cards declares one game",
                extra.span,
                "error",
                (f"the game is declared at {game_decls[0].span}",),
            )
        )
    vocab = read_vocabulary(game_decls[0], diagnostics)
    reserved = RESERVED_GAMES.get(vocab.game) or RESERVED_GAMES.get(folder.name)
    if reserved:
        diagnostics.append(
            Diagnostic(
                "game-name",
                f"'{vocab.game if vocab.game in RESERVED_GAMES else folder.name}' cannot name "
                f"a game: {reserved}",
                _game_name_span(game_decls[0]),
                "error",
                ("rename the game and its folder, such as my_game (cards/my_game/)",),
            )
        )
    elif vocab.game and vocab.game != folder.name:
        diagnostics.append(
            Diagnostic(
                "game-name",
                f"the game is named '{vocab.game}' but its folder is '{folder.name}'",
                _game_name_span(game_decls[0]),
                "error",
                (f"rename one of them; cardc finds games by folder (cards/{vocab.game}/)",),
            )
        )
    before = list(diagnostics)
    # Each file's checked cards are kept while the game declaration is this very object.
    checked = check_game(vocab, parsed, diagnostics, context=game_decls[0])
    has_errors = any(d.severity == "error" for d in diagnostics)
    if not has_errors:
        problems = validate(checked.ir, checked.spans, game_decls[0].span)
        if problems:
            # Kept cards carry no spans: check afresh, so each schema error has its span.
            diagnostics[:] = before
            checked = check_game(vocab, parsed, diagnostics)
            problems = validate(checked.ir, checked.spans, game_decls[0].span)
        diagnostics.extend(problems)
        if not problems:
            # A card's property read as a hex cell is one (`cell 0, 0` is two clauses).
            from compiler.cell_checks import check_cells

            diagnostics.extend(check_cells(checked.ir, parsed))
            # A window's quantity one card sets and another changes hangs on file order.
            from compiler.window_order import check_window_order

            diagnostics.extend(check_window_order(checked.ir))
            # Title bands a house rule moved apart leave the scores between without a title.
            from compiler.title_checks import check_title_bands

            diagnostics.extend(check_title_bands(checked.ir, parsed))
        if not problems and vocab.game.isidentifier():
            # The game's Python checks the card data it reads (CARD_CHECKS, engine.api).
            from compiler.card_checks import check_cards, check_decks
            from engine.loader import NativesError, game_rules

            try:
                rules = game_rules(vocab.game, source=folder)
            except NativesError:
                rules = None  # compiler.implementations has said why, at its line
            check_cards(rules, checked.ir, parsed, diagnostics, removed)
            check_decks(rules, checked.ir, diagnostics)
        has_errors = any(d.severity == "error" for d in diagnostics)
    return GameResult(
        vocab.game or folder.name,
        folder,
        paths,
        None if has_errors else checked.ir,
        checked.spans,
        diagnostics,
        vocab,
        parsed,
    )
