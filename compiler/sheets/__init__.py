"""Printable card references: HTML, Markdown and print-ready PDF for a game or variant.

Stages, each a module: :mod:`reference` reads ``cards/<game>/reference.yaml`` (the rulebook's
tables, icons and words); :mod:`text` writes each card's text from its IR effect code;
:mod:`model` gathers what a sheet shows; :mod:`layout` places cards on paper; :mod:`html`,
:mod:`markdown` and :mod:`pdf` emit. :func:`render_sheet_files` runs them all, and
:func:`sheet_outputs` is what ``cardc build`` calls for every game.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from compiler.sheets.layout import LayoutError, SheetOptions
from compiler.sheets.lint import LintError
from compiler.sheets.reference import REFERENCE_FILE, ReferenceError
from compiler.sheets.text import TextError

if TYPE_CHECKING:
    from pathlib import Path

    from compiler.project import Project
    from dsl.diagnostics import Diagnostic

FORMATS = ("html", "md", "pdf")

__all__ = [
    "FORMATS",
    "SheetError",
    "SheetOptions",
    "render_sheet_files",
    "sheet_outputs",
    "sheet_text_problems",
]


#: What to do about card text the lint refuses (compiler.sheets.lint).
LINT_HINT = (
    "give the name its rulebook words in reference.yaml's words/phrases/when, or the card a "
    "'text' property"
)


def _lint_hint(path: str, problem: str) -> str:
    """What to do about one problem of the text lint: for a name printed as its id, the very
    lines of the game's reference.yaml that word it (a new game has no such file, and the
    README names its keys only), else :data:`LINT_HINT`."""
    import re

    found = re.search(r"the internal word '([a-z][a-z0-9_]*)'", problem)
    if found is None or not path:
        return LINT_HINT
    word = found.group(1)
    said = word.replace("_", " ").title()
    reference = str(PurePosixPath(path).parent / "reference.yaml")
    return (
        f"word it in {reference} (create it if there is none): 'words:' then "
        f"'  {word}: {said}' on the next line; or give the card a 'text' property"
    )


class SheetError(ValueError):
    """A sheet that cannot be made: text that does not fit, a bad reference.yaml or option.

    ``source`` is ``file:line`` of the card at fault when there is one.
    """

    def __init__(
        self,
        message: str,
        source: str = "",
        located: Diagnostic | None = None,
        problems: list[tuple[str, str]] | None = None,
    ):
        super().__init__(message)
        self.source = source
        #: The problem at its file, line and column, when it is known (a reference.yaml's).
        self.located = located
        #: The text lint's problems, each (its card's ``file:line``, what reads wrong).
        self.problems = list(problems or [])

    def diagnostics(self) -> list[Diagnostic]:
        """This error as cardc diagnostics: each problem of the text lint at its own card's
        line (they were one error at the first card's line, naming cards of other files in
        its message), anything else as :meth:`diagnostic`."""
        if not self.problems:
            return [self.diagnostic()]
        from dsl.diagnostics import Diagnostic, file_span
        from dsl.nodes import Span

        found = []
        for source, problem in self.problems:
            path, _, line = source.rpartition(":")
            located = bool(path) and line.isdigit()
            span = Span(path, int(line), 1, int(line), 1) if located else file_span(source)
            found.append(
                Diagnostic(
                    "sheet-text",
                    f"card text does not read as a rulebook: {problem}",
                    span,
                    "error",
                    (_lint_hint(path, problem),),
                    show_source=located,
                )
            )
        return found

    def diagnostic(self) -> Diagnostic:
        """This error as a cardc diagnostic, at the card's source line."""
        from dsl.diagnostics import Diagnostic
        from dsl.nodes import Span

        if self.located is not None:
            return self.located

        path, _, line = self.source.rpartition(":")
        if path and line.isdigit():
            span = Span(path, int(line), 1, int(line), 1)
            return Diagnostic("sheet-overflow", str(self), span, "error", ())
        from dsl.diagnostics import file_span

        return Diagnostic(
            "sheet", str(self), file_span(self.source or "cards"), "error", (), show_source=False
        )


def render_sheet_files(
    project: Project,
    game: str,
    ir: dict[str, Any],
    *,
    variant: str | None = None,
    only_cards: list[str] | None = None,
    title: str | None = None,
    formats: tuple[str, ...] | list[str] = FORMATS,
    options: SheetOptions | None = None,
    cache: bool = True,
) -> dict[str, bytes]:
    """The sheet files of ``ir``: relative path under generated/ -> bytes.

    Paths are ``sheets/<game>/<game>.<ext>``, or ``sheets/<game>/<variant>.<ext>`` for a
    variant. ``only_cards`` keeps those card ids (an errata sheet); ``title`` replaces the
    sheet's title. Raises :class:`SheetError` naming the card when its text cannot fit or
    reads wrong (:mod:`compiler.sheets.lint`). ``cache=False`` lays every face out afresh
    (the bytes are the same either way). Where WeasyPrint cannot run
    (``pdf.renderer_problem()`` says why) there is no PDF, and the HTML's text is not fitted.
    """
    from compiler.sheets.faces import CardOverflowError
    from compiler.sheets.pdf import renderer_problem

    options = options or SheetOptions()
    # Whether PDFs can be made is part of the key: a sheet without its PDF is not the sheet.
    extra = (variant, only_cards, title, tuple(formats), options, renderer_problem() is None)
    key = _memo_key(project, game, ir, extra)
    if key in _MEMO:
        return dict(_MEMO[key])
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise SheetError(f"unknown format {', '.join(unknown)}: use {', '.join(FORMATS)}")
    # A sheet whose inputs are all as an earlier build had them (a variant without the card
    # just edited) is that build's bytes, kept beside the faces: not rendered again.
    from compiler.sheets.faces import cache_for

    store = cache_for(project.root) if cache and _REUSE_STORED[0] else None
    stored = store.sheet(key) if store is not None else None
    if stored is not None:
        result = stored
    else:
        store = cache_for(project.root) if cache else None
        try:
            out = _render(project, game, ir, variant, only_cards, title, formats, options, cache)
        except CardOverflowError as error:
            raise SheetError(str(error), error.cards[0][1]) from error
        except (LintError, ReferenceError, TextError, LayoutError) as error:
            raise _sheet_error(error) from error
        result = dict(sorted(out.items()))
        if store is not None:
            store.put_sheet(key, result)
    if len(_MEMO) >= _MEMO_SIZE:
        _MEMO.pop(next(iter(_MEMO)))
    _MEMO[key] = result
    return dict(result)


def _sheet_error(error: LintError | ReferenceError | TextError | LayoutError) -> SheetError:
    """``error``, raised while a sheet's model was made or laid out, as a :class:`SheetError`."""
    if isinstance(error, LintError):
        return SheetError(str(error), error.source, problems=error.problems)
    return SheetError(
        str(error),
        getattr(error, "source", ""),
        error.diagnostic if isinstance(error, ReferenceError) else None,
    )


def sheet_text_problems(
    folder: Path, ir: dict[str, Any], variant: str | None = None, *, references: bool = True
) -> list[Diagnostic]:
    """What ``cardc build`` would refuse the default sheet of ``ir`` (the game in ``folder``,
    or its ``variant``) for, found without laying a card out: the text lint's problems, each
    at its card's line with the same hint (:mod:`compiler.sheets.lint`), a card's missing
    art, a reference.yaml that does not read. ``cardc check`` reports them, so that a clean
    check is a build that does not fail on them. Text too long for its card even at the
    smallest size is found only by laying it out, which only ``cardc build`` and ``cardc
    sheets`` do (WeasyPrint, seconds a game). ``references=False`` leaves out a
    reference.yaml's problems (the caller has told them)."""
    try:
        _checked_model(folder, ir, variant, None, None)
    except ReferenceError as error:
        return _sheet_error(error).diagnostics() if references else []
    except (LintError, TextError, LayoutError) as error:
        return _sheet_error(error).diagnostics()
    return []


def _checked_model(
    folder: Path,
    ir: dict[str, Any],
    variant: str | None,
    only_cards: list[str] | None,
    title: str | None,
) -> Any:
    """The sheet model of ``ir`` (:func:`compiler.sheets.model.build_model`), its text read
    by the lint: raises ``LintError`` (or the reference's or text's error) when it reads
    wrong. The build renders this model; ``cardc check`` stops here."""
    from compiler.sheets.lint import lint_model
    from compiler.sheets.model import build_model
    from compiler.sheets.reference import resolve

    ref = resolve(_reference(folder, variant), ir, {c["id"] for c in ir["cards"]})
    model = build_model(ir, ref, variant=variant, only_cards=only_cards, title=title, folder=folder)
    lint_model(model, ir)
    return model


def _render(
    project: Project,
    game: str,
    ir: dict[str, Any],
    variant: str | None,
    only_cards: list[str] | None,
    title: str | None,
    formats: tuple[str, ...] | list[str],
    options: SheetOptions,
    cache: bool,
) -> dict[str, bytes]:
    from compiler import __version__
    from compiler.sheets.faces import cache_for, lay_out
    from compiler.sheets.html import OVERRIDES, build_sheet, render_html
    from compiler.sheets.markdown import render_markdown
    from compiler.sheets.pdf import renderer_problem

    folder = project.game_dir(game)
    model = _checked_model(folder, ir, variant, only_cards, title)
    # The first line of every generated file says so (in a PDF: its Subject).
    banner = (
        f"Generated by cardc {__version__} from {project.relative(folder)}: "
        "do not edit; run `cardc build`"
    )
    stem = f"sheets/{game}/{variant or game}"
    out: dict[str, bytes] = {}
    if "md" in formats:
        out[f"{stem}.md"] = render_markdown(model, banner).encode()
    if renderer_problem() is not None and ("html" in formats or "pdf" in formats):
        # No WeasyPrint or Pango: no PDF, and the HTML's text is not fitted to the cards.
        sheet = build_sheet(model, options, folder / OVERRIDES)
        if "html" in formats:
            out[f"{stem}.html"] = render_html(sheet, options, banner).encode()
        return out
    if "html" in formats or "pdf" in formats:
        sheet = build_sheet(model, options, folder / OVERRIDES)
        faces = cache_for(project.root if cache else None)
        from compiler.sheets import html as html_module

        html_module.FONT_CACHE[:] = [faces.folder] if faces.folder is not None else []
        # The rules reference is laid out with the faces (in another process when there are
        # two), a document of its own.
        reference = None if options.one_per_page else _reference_document(sheet, options)
        whole = dict([reference]) if reference is not None else {}
        laid = lay_out(list(sheet.faces.values()), sheet.head, faces, whole)
        if "html" in formats:
            out[f"{stem}.html"] = render_html(sheet, options, banner).encode()
        if "pdf" in formats:
            from compiler.sheets.impose import impose

            pages = laid.pop(reference[0]) if reference is not None else None
            bleed = options.bleed if options.one_per_page else 0.0
            out[f"{stem}.pdf"] = impose(sheet.pages, laid, faces.font, pages, bleed, banner)
    return out


#: References read in this process, by the bytes of the files they are read from: a build
#: renders a game and each of its variants from the same reference.yaml (reading and checking
#: it is most of a one-card edit's sheets but the layout).
_REFERENCES: dict[tuple[str, str | None, bytes], Any] = {}


def _reference(folder: Path, variant: str | None) -> Any:
    """``reference_for(folder, variant)``, read once a process for the same files."""
    import copy
    import hashlib

    from compiler.sheets.reference import reference_for, variant_reference

    # A variant without its own reference reads the game's: one entry serves them all.
    variant = variant if variant_reference(folder, variant) is not None else None
    digest = hashlib.blake2b(digest_size=20)
    path = folder / REFERENCE_FILE
    digest.update(path.read_bytes() if path.is_file() else b"-")
    # A variant's reference, and whatever else reference_for reads, is under sheets/.
    overrides = folder / "sheets"
    if overrides.is_dir():
        for file in sorted(overrides.rglob("*.yaml")):
            digest.update(file.as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    key = (str(folder), variant, digest.digest())
    if key not in _REFERENCES:
        if len(_REFERENCES) >= 32:
            _REFERENCES.pop(next(iter(_REFERENCES)))
        _REFERENCES[key] = reference_for(folder, variant)
    # A copy: the caller may change what it is given.
    return copy.deepcopy(_REFERENCES[key])


def _reference_document(sheet: Any, options: SheetOptions) -> tuple[str, str]:
    """The rules reference's pages as a document of their own: its cache key and HTML."""
    import hashlib

    from compiler.sheets.html import _BASE_CHARACTERS, _REFERENCE_PAPER, font_css, mm

    width, height = _REFERENCE_PAPER.get(options.paper, _REFERENCE_PAPER["a4"])
    html = (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><style>\n'
        f"{font_css(_BASE_CHARACTERS | frozenset(str(sheet.reference)), fetched=True)}\n"
        f"@page reference {{ size: {mm(width)} {mm(height)}; margin: 14mm 15mm; }}\n"
        f"{sheet.head}\n</style></head><body>{sheet.reference}</body></html>"
    )
    return "ref-" + hashlib.blake2b(html.encode(), digest_size=16).hexdigest(), html


#: Whether a sheet kept in the cache may be used whole (not while ``cardc build --rebuild``).
_REUSE_STORED = [True]


@contextlib.contextmanager
def stored_sheets_unused() -> Iterator[None]:
    """While inside: every sheet is rendered (from its cached faces), none taken whole from
    the cache; what is rendered is still kept for later builds."""
    before = _REUSE_STORED[0]
    _REUSE_STORED[0] = False
    try:
        yield
    finally:
        _REUSE_STORED[0] = before


#: Sheets already rendered in this process, by everything they depend on: a build renders
#: a game and its variants, and a test suite the same games many times over.
_MEMO: dict[str, dict[str, bytes]] = {}
_MEMO_SIZE = 64


def _memo_key(project: Project, game: str, ir: dict[str, Any], extra: tuple[Any, ...]) -> str:
    """Everything a sheet's bytes depend on, hashed: the IR, the game's reference, CSS,
    templates and art, the options, and the code that renders it (:func:`_code_digest`)."""
    import hashlib
    import json

    from compiler.generated_files import BANNER

    digest = hashlib.blake2b(digest_size=20)
    digest.update(_code_digest().encode())
    digest.update(json.dumps(ir, sort_keys=True).encode())
    folder = project.game_dir(game)
    path = folder / REFERENCE_FILE
    digest.update(path.read_bytes() if path.is_file() else b"-")
    # The game's own CSS, templates and variant references (cards/<game>/sheets/).
    overrides = folder / "sheets"
    if overrides.is_dir():
        for file in sorted(overrides.rglob("*")):
            if file.is_file():
                digest.update(file.as_posix().encode() + file.read_bytes())
    # Each card's art (a path relative to the game's folder, inlined into the sheet).
    for card in ir.get("cards", []):
        art = card.get("properties", {}).get("art")
        if isinstance(art, str):
            file = folder / art
            digest.update(art.encode() + b"\0" + (file.read_bytes() if file.is_file() else b"-"))
    digest.update(repr((game, BANNER, extra)).encode())
    return digest.hexdigest()


@functools.lru_cache(maxsize=1)
def _code_digest() -> str:
    """The code a sheet is rendered by: cardc's sheets package, templates and fonts, and the
    versions of the libraries it uses (read from their metadata: importing them is slow)."""
    import hashlib
    from importlib.metadata import PackageNotFoundError, version
    from pathlib import Path

    from compiler import __version__

    here = Path(__file__).parent
    digest = hashlib.blake2b(digest_size=20)
    digest.update(__version__.encode())
    for name in ("weasyprint", "pydyf", "pypdf", "fonttools", "jinja2", "markupsafe"):
        try:
            digest.update(f"{name} {version(name)}\n".encode())
        except PackageNotFoundError:
            digest.update(f"{name} -\n".encode())
    for folder in (here, here.parent / "templates" / "sheets"):
        for file in sorted(folder.rglob("*")):
            if file.is_file() and file.suffix not in (".pyc",):
                digest.update(file.relative_to(folder).as_posix().encode() + file.read_bytes())
    return digest.hexdigest()


def sheet_outputs(project: Project, game: str, ir: dict[str, Any]) -> dict[str, bytes]:
    """``cardc build``'s sheets: the default sheet of every game, in every format."""
    return render_sheet_files(project, game, ir)
