"""``cardc lsp``: a language server for card files, variant overlays and scenario files.

It speaks the Language Server Protocol over stdio (pygls). What it offers:

- diagnostics as you type: the game of the edited file is compiled with the editor's unsaved
  text in place of the file on disk, and every diagnostic is published with the code, span and
  hints ``cardc check`` prints; a variant YAML gets its overlay's, a scenario file its schema's;
- hover: a name's declaration, description and signature; a card's generated text;
- go to definition of cards, verbs, natives, triggers, kinds and every other declared name;
- completion from the game's vocabulary and cards (after ``on``: the triggers);
- document symbols: each declaration with its properties and triggers;
- formatting (``cardc fmt``'s layout).

A file's parse is kept while its text is unchanged, so an edit re-parses one file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from compiler import __version__
from compiler.lsp_index import (
    KEYWORDS,
    GameIndex,
    completion_context,
    declaration_label,
    symbols_of,
    word_at,
)
from compiler.pipeline import GameResult, compile_game, game_folder
from compiler.project import card_files, display_path
from dsl.diagnostics import Diagnostic, SourceCache
from dsl.nodes import Span
from dsl.parser import ParseResult, parse, read_source

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "note": types.DiagnosticSeverity.Information,
}
_COMPLETION_KIND = {
    "verb": types.CompletionItemKind.Function,
    "prelude verb": types.CompletionItemKind.Function,
    "native": types.CompletionItemKind.Function,
    "prelude function": types.CompletionItemKind.Function,
    "trigger": types.CompletionItemKind.Event,
    "kind": types.CompletionItemKind.Class,
    "card": types.CompletionItemKind.Constant,
    "counter": types.CompletionItemKind.Variable,
    "track": types.CompletionItemKind.Variable,
    "zone": types.CompletionItemKind.Variable,
    "param": types.CompletionItemKind.Constant,
    "symbol": types.CompletionItemKind.EnumMember,
}


def to_range(span: Span) -> types.Range:
    """An LSP range (0-based) for a span (1-based, end column one past the end)."""
    start = types.Position(line=max(span.line - 1, 0), character=max(span.column - 1, 0))
    end = types.Position(line=max(span.end_line - 1, 0), character=max(span.end_column - 1, 0))
    if (end.line, end.character) <= (start.line, start.character):
        end = types.Position(line=start.line, character=start.character + 1)
    return types.Range(start=start, end=end)


def to_lsp(diagnostic: Diagnostic) -> types.Diagnostic:
    """A cardc diagnostic as the editor shows it: the message, then each hint on its own line."""
    message = diagnostic.message + "".join(f"\nhint: {h}" for h in diagnostic.hints)
    return types.Diagnostic(
        range=to_range(diagnostic.span),
        message=message,
        severity=_SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        source="cardc",
    )


class CardsServer(LanguageServer):
    """The server and what it remembers between edits."""

    def __init__(self) -> None:
        super().__init__("cardc", __version__)
        #: (resolved path, text) -> parse, so an unchanged file is never parsed twice.
        self.parses: dict[str, tuple[str, ParseResult]] = {}
        #: game folder -> its last compile and index.
        self.games: dict[Path, tuple[GameResult, GameIndex]] = {}
        #: URIs with diagnostics published, per game folder (to clear the fixed ones).
        self.published: dict[Path, set[str]] = {}

    # -- reading files: the editor's text wins over the disk

    def open_text(self, path: Path) -> str | None:
        """The editor's text of ``path`` when it is open, else None."""
        uri = from_fs_path(str(path.resolve()))
        if uri is None:
            return None
        document = self.workspace.text_documents.get(uri)
        return document.source if document is not None else None

    def parse_path(self, path: Path) -> ParseResult:
        """Parse ``path`` from the editor's text or the disk, reusing an unchanged parse."""
        text = self.open_text(path)
        problems: list[Diagnostic] = []
        if text is None:
            text, problems = read_source(path)
        if text is None:
            from dsl.nodes import SourceFile

            return ParseResult(SourceFile(str(path), ()), tuple(problems), None)
        key = str(path.resolve())
        cached = self.parses.get(key)
        if cached is not None and cached[0] == text and cached[1].file.path == str(path):
            return cached[1]
        result = parse(text, str(path))
        self.parses[key] = (text, result)
        return result

    # -- compiling

    def compile(self, folder: Path) -> tuple[GameResult, GameIndex]:
        """Compile the game in ``folder`` with the editor's texts; remember it."""
        sources = SourceCache()
        result = compile_game(folder, sources, card_files(folder), parser=self.parse_path)
        index = GameIndex(result.vocabulary, result.parsed, result.ir)
        self.games[folder.resolve()] = (result, index)
        return result, index

    def analyse(self, uri: str) -> None:
        """Check the document at ``uri`` (with its game) and publish what was found."""
        fs_path = to_fs_path(uri)
        if fs_path is None:
            return
        path = display_path(Path(fs_path))
        if path.suffix in (".yaml", ".yml"):
            self.publish_for(None, {uri: yaml_diagnostics(path, self.open_text(path))}, uri)
            return
        folder = game_folder(path)
        if folder is None:  # a file outside any game: its syntax only
            result = self.parse_path(path)
            self.publish_for(None, {uri: list(result.diagnostics)}, uri)
            return
        game, _index = self.compile(folder)
        by_uri: dict[str, list[Diagnostic]] = {}
        for diagnostic in game.diagnostics:
            target = from_fs_path(str(Path(diagnostic.span.file).resolve()))
            if target is not None:
                by_uri.setdefault(target, []).append(diagnostic)
        self.publish_for(folder.resolve(), by_uri, uri)

    def publish_for(
        self, folder: Path | None, by_uri: dict[str, list[Diagnostic]], uri: str
    ) -> None:
        """Publish ``by_uri``, and clear what was published before for the same game."""
        previous = self.published.get(folder, set()) if folder is not None else set()
        for target in sorted(previous - set(by_uri) | ({uri} - set(by_uri))):
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=target, diagnostics=[])
            )
        for target, found in sorted(by_uri.items()):
            ordered = sorted(set(found), key=Diagnostic.sort_key)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=target, diagnostics=[to_lsp(d) for d in ordered])
            )
        if folder is not None:
            self.published[folder] = set(by_uri)

    def index_for(self, uri: str) -> tuple[GameIndex, Path] | None:
        """The index of the game of ``uri`` (compiled now if it never was)."""
        fs_path = to_fs_path(uri)
        if fs_path is None:
            return None
        path = display_path(Path(fs_path))
        folder = game_folder(path)
        if folder is None:
            return None
        known = self.games.get(folder.resolve())
        index = known[1] if known is not None else self.compile(folder)[1]
        return index, folder


def yaml_diagnostics(path: Path, text: str | None) -> list[Diagnostic]:
    """A variant overlay's diagnostics (compiled against its game), or a scenario file's."""
    sources = SourceCache()
    variants = path.parent
    if variants.name == "variants" and (variants.parent / "game.cards").is_file():
        from compiler.variants import compile_variant

        result, _overlay = compile_variant(variants.parent, path, sources, text=text)
        return [d for d in result.diagnostics if Path(d.span.file).resolve() == path.resolve()]
    return scenario_diagnostics(path, text)


def scenario_diagnostics(path: Path, text: str | None) -> list[Diagnostic]:
    """The problems of a scenario file (its YAML and its schema), at their lines."""
    import re
    import tempfile

    from engine.scenario import ScenarioError, load

    if text is None:
        source = path
        temporary = None
    else:  # the scenario loader reads files: give it the editor's text in one
        handle = tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False, encoding="utf-8")
        with handle:
            handle.write(text)
        source = temporary = Path(handle.name)
    found: list[str] = []
    try:
        found = [problem for _doc, _line, problem in load(source) if problem is not None]
    except ScenarioError as error:
        found = [str(error)]
    finally:
        if temporary is not None:
            temporary.unlink()
    out = []
    for problem in found:
        # PATH:LINE: or PATH:LINE:COLUMN: (the column was once read as the line)
        match = re.match(r"(.*?):(\d+)(?::(\d+))?: (.*)", problem, re.S)
        line, column, message = (
            (int(match.group(2)), int(match.group(3) or 1), match.group(4))
            if match
            else (1, 1, problem)
        )
        span = Span(str(path), line, column, line, column)
        out.append(Diagnostic("scenario", message, span, "error"))
    return out


SERVER = CardsServer()


@SERVER.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(server: CardsServer, params: types.DidOpenTextDocumentParams) -> None:
    """Check a file as it opens."""
    server.analyse(params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(server: CardsServer, params: types.DidChangeTextDocumentParams) -> None:
    """Check a file as it is typed."""
    server.analyse(params.text_document.uri)


@SERVER.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(server: CardsServer, params: types.DidSaveTextDocumentParams) -> None:
    """Check a file when it is saved (a YAML overlay's game may have changed on disk)."""
    server.analyse(params.text_document.uri)


def _line_of(server: CardsServer, uri: str, line: int) -> str:
    document = server.workspace.get_text_document(uri)
    lines = document.source.split("\n")
    return lines[line] if 0 <= line < len(lines) else ""


@SERVER.feature(types.TEXT_DOCUMENT_HOVER)
def hover(server: CardsServer, params: types.HoverParams) -> types.Hover | None:
    """A name's signature, description and declaration; a card's generated text."""
    found = server.index_for(params.text_document.uri)
    word = word_at(
        _line_of(server, params.text_document.uri, params.position.line), params.position.character
    )
    if found is None or word is None:
        return None
    index, folder = found
    entry = index.lookup(word)
    if entry is None:
        return None
    text = entry.hover()
    if entry.card is not None:
        card_text = generated_text(folder, server.games[folder.resolve()][0].ir, entry.card)
        if card_text:
            text += "\n\n---\n\n" + card_text
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))


def generated_text(folder: Path, ir: Any, card: dict[str, Any]) -> str:
    """The card's text as its printed sheet words it (empty when the sheet cannot say)."""
    if not ir:
        return ""
    try:
        from compiler.sheets.model import build_model
        from compiler.sheets.reference import REFERENCE_FILE, load_reference

        reference = load_reference(folder / REFERENCE_FILE)
        model = build_model(ir, reference, only_cards=[card["id"]])
    except Exception:  # noqa: BLE001 - hover text is a help, never an error
        return ""
    if not model.cards:
        return ""
    paragraphs = []
    for paragraph in model.cards[0].paragraphs:
        paragraphs.append(
            "".join(
                seg if isinstance(seg, str) else f"[{getattr(seg, 'name', '*')}]"
                for seg in paragraph
            )
        )
    return "\n\n".join(p for p in paragraphs if p.strip())


@SERVER.feature(types.TEXT_DOCUMENT_DEFINITION)
def definition(server: CardsServer, params: types.DefinitionParams) -> types.Location | None:
    """Where the name under the cursor is declared."""
    found = server.index_for(params.text_document.uri)
    word = word_at(
        _line_of(server, params.text_document.uri, params.position.line), params.position.character
    )
    if found is None or word is None:
        return None
    entry = found[0].lookup(word)
    if entry is None or entry.span is None:
        return None
    uri = from_fs_path(str(Path(entry.span.file).resolve()))
    if uri is None:
        return None
    return types.Location(uri=uri, range=to_range(entry.span))


@SERVER.feature(
    types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", "("])
)
def completion(server: CardsServer, params: types.CompletionParams) -> types.CompletionList:
    """The game's names (after ``on`` and ``fire``: its triggers; in ``fire TRIGGER with``:
    its quantities), and the language's keywords."""
    found = server.index_for(params.text_document.uri)
    items: list[types.CompletionItem] = []
    line = _line_of(server, params.text_document.uri, params.position.line)
    offer, trigger = completion_context(line[: params.position.character])
    if found is not None:
        index = found[0]
        if offer == "quantities" and trigger is not None:
            # fire TRIGGER with QUANTITY VALUE, ...: the window's quantities, nothing else.
            doc = f"a quantity of the {trigger} window"
            return types.CompletionList(
                is_incomplete=False,
                items=[
                    types.CompletionItem(
                        label=q, kind=types.CompletionItemKind.Field, documentation=doc
                    )
                    for q in index.quantities.get(trigger, ())
                ],
            )
        if offer == "with" and index.quantities.get(trigger or ""):
            shown = ", ".join(f"{q} VALUE" for q in index.quantities[trigger or ""])
            items.append(
                types.CompletionItem(
                    label="with",
                    kind=types.CompletionItemKind.Keyword,
                    detail=f"fire {trigger} with {shown} {{ ... }}",
                    documentation="open the window with its quantities; the block reads them "
                    "as the cards left them",
                )
            )
        pool = index.trigger_entries if offer == "triggers" else index.entries
        for entry in sorted(pool.values(), key=lambda e: e.name):
            items.append(
                types.CompletionItem(
                    label=entry.name,
                    kind=_COMPLETION_KIND.get(entry.what, types.CompletionItemKind.Text),
                    detail=entry.signature,
                    documentation=entry.doc or None,
                )
            )
    if offer != "triggers":
        items += [
            types.CompletionItem(label=k, kind=types.CompletionItemKind.Keyword) for k in KEYWORDS
        ]
    return types.CompletionList(is_incomplete=False, items=items)


@SERVER.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbols(
    server: CardsServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol]:
    """The file's declarations, each with its properties and triggers."""
    fs_path = to_fs_path(params.text_document.uri)
    if fs_path is None or not fs_path.endswith(".cards"):
        return []
    result = server.parse_path(display_path(Path(fs_path)))
    out = []
    for decl, members in symbols_of(result.file):
        children = [
            types.DocumentSymbol(
                name=f"on {m.event}" if hasattr(m, "event") else m.name,
                kind=types.SymbolKind.Event if hasattr(m, "event") else types.SymbolKind.Property,
                range=to_range(m.span),
                selection_range=to_range(m.span),
            )
            for m in members
        ]
        out.append(
            types.DocumentSymbol(
                name=declaration_label(decl),
                detail=decl.kind,
                kind=types.SymbolKind.Module if decl.kind == "game" else types.SymbolKind.Class,
                range=to_range(decl.span),
                selection_range=to_range(decl.span),
                children=children,
            )
        )
    return out


@SERVER.feature(types.TEXT_DOCUMENT_FORMATTING)
def formatting(server: CardsServer, params: types.DocumentFormattingParams) -> list[types.TextEdit]:
    """The whole file in ``cardc fmt``'s layout (nothing when it does not parse)."""
    from dsl.formatter import format_text

    document = server.workspace.get_text_document(params.text_document.uri)
    if not document.uri.endswith(".cards"):
        return []
    result = format_text(document.source)
    if result.text is None or result.text == document.source:
        return []
    lines = document.source.split("\n")
    whole = types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=len(lines), character=0)
    )
    return [types.TextEdit(range=whole, new_text=result.text)]


def serve() -> None:
    """Run the server on stdin and stdout until the client says exit."""
    SERVER.start_io()
