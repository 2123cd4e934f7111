"""Each printed face laid out once: its text sized to fill the card, its PDF page, a cache.

A face (a card's front, a kind's back, a hex tile's face) is laid out by WeasyPrint on a page
of its own size. A card's text starts at :data:`MAX_PT` and, when it runs past the frame, is
set again at the size its measured height says will fit, a step smaller each time it still
does not, down to :data:`MIN_PT`: so a short text fills the card at a large size and a long
one shrinks only as far as it must. A card that does not fit at the minimum fails, naming it
and its source line.

Every face of a sheet that is not yet known is laid out in one WeasyPrint document (one face
a page, which costs far less than a document a face); each layout pass's chosen pages are
written as one PDF, with whole fonts, and split into pieces (:mod:`compiler.sheets.pieces`:
resources renamed by their use in the face), so a face's piece is the same whichever faces
it was laid out with. The sheet's PDF (imposed from the pieces by
:mod:`compiler.sheets.impose`) then depends only on the sources, not on the cache's history.
Faces are cached by their key (a hash of everything they show) in memory and in
``.cardc-cache/sheets/`` under the project: after an edit to one card only that card's face
is laid out again, in every sheet it is on. The faces not cached, and the rules reference,
are laid out in forked processes (:func:`jobs`, ``CARDC_SHEETS_JOBS``); a face's piece does not
depend on which process laid it out beside which faces, so neither does the sheet.
The cache on disk is kept to :data:`CACHE_BUDGET` bytes: :func:`prune_cache` (after every
build that rendered sheets) drops the files used least recently first, never one this process
used, and the folders of other cache versions.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from compiler.sheets.cachefiles import USED, use, wrote
from compiler.sheets.html import Face

#: The largest and smallest card text (pt): the readable range the fit keeps to.
MAX_PT = 10.5
MIN_PT = 5.4
#: Sizes the fit may choose, largest first (0.2 pt apart).
SIZES = tuple(round(MAX_PT - 0.2 * i, 1) for i in range(int((MAX_PT - MIN_PT) / 0.2 + 1.5)))
#: What the fit keeps free at a frame's bottom (mm), so a browser's slightly different line
#: breaking still fits.
RESERVE_MM = 0.8
_PX_PER_MM = 96 / 25.4
#: Bumped when what a cached face holds changes.
CACHE_VERSION = "faces-4"
#: The most the face cache keeps on disk (bytes); the faces of the four shipped games and
#: their variants take about 4 MB.
CACHE_BUDGET = 256 * 2**20
#: A leftover temporary file (a writer killed mid-write) older than this (seconds) is removed.
_STALE_TMP_SECONDS = 3600.0


def prune_cache(root: Path, budget: int = CACHE_BUDGET) -> list[Path]:
    """Keep the face cache of the project at ``root`` within ``budget`` bytes; the files
    removed. Other cache versions' folders go whole; in this version's, the files used least
    recently go first, except those this process used. Safe beside a concurrent build: a
    file it misses is a face it lays out again, and its own temporary files are left alone
    unless they are an hour old."""
    import shutil
    import time

    base = root / ".cardc-cache" / "sheets"
    removed: list[Path] = []
    try:
        folders = list(base.iterdir())
    except OSError:
        return removed
    for folder in folders:
        if folder.name != CACHE_VERSION and folder.is_dir():
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    now = time.time()
    entries = []
    with contextlib.suppress(OSError):
        for path in (base / CACHE_VERSION).iterdir():
            try:
                stat = path.stat()
            except OSError:
                continue
            if path.name.startswith("."):
                if now - stat.st_mtime > _STALE_TMP_SECONDS:
                    entries.append((-1.0, stat.st_size, path))
                continue
            entries.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for mtime, size, _p in entries if mtime >= 0)
    for mtime, size, path in sorted(entries, key=lambda e: (e[0], e[2].name)):
        if mtime >= 0 and (total <= budget or path in USED):
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
            if mtime >= 0:
                total -= size
    return removed


class CardOverflowError(ValueError):
    """Cards whose text does not fit even at the minimum size: (title, source) pairs."""

    def __init__(self, cards: list[tuple[str, str]]):
        self.cards = cards
        listed = "; ".join(f"{source}: '{_short(title)}'" for title, source in cards)
        super().__init__(
            f"card text does not fit even at {MIN_PT:g} pt: {listed} "
            "(shorten the text, or give the card a shorter 'text' property)"
        )


def _short(title: str) -> str:
    return title if len(title) <= 60 else title[:57] + "..."


@dataclass(frozen=True)
class Laid:
    """A face as laid out: its text size, and its page as a piece (:mod:`compiler.sheets.
    pieces`: content and resources as data, fonts by digest), the same whatever it was laid
    out with. The rules reference is a Laid of several pages."""

    size: float
    pages: tuple[dict[str, Any], ...]


def _code_digest() -> str:
    """What a cached face depends on besides its own HTML: this module (the fit), WeasyPrint
    and pydyf, the shipped fonts."""
    from importlib.metadata import version

    from compiler.sheets.html import FONT_DIR

    # The versions from the installed metadata: importing WeasyPrint takes a second, and a
    # build whose faces are all cached never needs it.
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{CACHE_VERSION} {version('weasyprint')} {version('pydyf')}".encode())
    for module in ("faces.py", "pieces.py", "impose.py"):
        digest.update((Path(__file__).parent / module).read_bytes())
    for font in sorted(FONT_DIR.glob("*.ttf")):
        digest.update(font.read_bytes())
    return digest.hexdigest()


class FaceCache:
    """Faces already laid out, and the fonts their pieces use: in this process, and on disk
    when ``folder`` is given (a damaged or missing file counts as not cached). Keys are a
    face's own key combined with :func:`_code_digest`, so a change to the fit, the pieces or
    WeasyPrint lays every face out again."""

    def __init__(self, folder: Path | None):
        self.folder = folder
        self.memory: dict[str, Laid] = {}
        self.fonts: dict[str, Any] = {}
        self.code = _code_digest()

    def _key(self, key: str) -> str:
        return hashlib.blake2b((self.code + key).encode(), digest_size=16).hexdigest()

    def get(self, key: str) -> Laid | None:
        """The face of ``key`` when it and its fonts are known, else None."""
        from compiler.sheets.pieces import fonts_of

        key = self._key(key)
        if key in self.memory:
            return self.memory[key]
        if self.folder is None:
            return None
        path = self.folder / f"{key}.json"
        try:
            meta = json.loads(path.read_text(encoding="utf-8"))
            laid = Laid(float(meta["size"]), tuple(meta["pages"]))
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if any(self.font(name) is None for name in sorted(fonts_of(list(laid.pages)))):
            return None
        use(path)
        self.memory[key] = laid
        return laid

    def font(self, name: str) -> Any:
        """The font whose digest is ``name`` (piece data), or None when not known."""
        from compiler.sheets.pieces import digest

        if name in self.fonts:
            return self.fonts[name]
        if self.folder is None:
            return None
        path = self.folder / f"pdffont-{name}.json"
        try:
            tree = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if digest(tree) != name:  # damaged: as if missing
            return None
        use(path)
        self.fonts[name] = tree
        return tree

    def put_fonts(self, fonts: dict[str, Any]) -> None:
        """Keep fonts (digest -> piece data) that faces about to be kept use."""
        for name, tree in sorted(fonts.items()):
            if name not in self.fonts:
                self.fonts[name] = tree
                self._write(f"pdffont-{name}.json", json.dumps(tree).encode())

    def sheet(self, key: str) -> dict[str, bytes] | None:
        """A sheet's files kept by :meth:`put_sheet` under ``key``, or None."""
        import base64

        if self.folder is None:
            return None
        path = self.folder / f"sheet-{self._key(key)}.json"
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            files = {str(k): base64.b64decode(v, validate=True) for k, v in stored.items()}
        except (OSError, ValueError, AttributeError):
            return None
        use(path)
        return files

    def put_sheet(self, key: str, files: dict[str, bytes]) -> None:
        """Keep a sheet's files (relative path -> bytes) under ``key``: everything they
        depend on (see ``compiler.sheets._memo_key``)."""
        import base64

        data = {k: base64.b64encode(v).decode("ascii") for k, v in sorted(files.items())}
        self._write(f"sheet-{self._key(key)}.json", json.dumps(data).encode())

    def put(self, key: str, laid: Laid) -> None:
        """Keep ``laid`` (its fonts must be kept already)."""
        key = self._key(key)
        self.memory[key] = laid
        meta = {"size": laid.size, "pages": list(laid.pages)}
        self._write(f"{key}.json", json.dumps(meta).encode())

    def _write(self, name: str, data: bytes) -> None:
        if self.folder is None:
            return
        with contextlib.suppress(OSError):  # a read-only project just has no cache
            self.folder.mkdir(parents=True, exist_ok=True)
            tmp = self.folder / f".{name}.{os.getpid()}.tmp"
            tmp.write_bytes(data)
            tmp.replace(self.folder / name)
            wrote(self.folder / name)


_CACHES: dict[Path, FaceCache] = {}


def cache_for(root: Path | None) -> FaceCache:
    """The face cache of the project at ``root`` (None: a fresh one, for this call only)."""
    if root is None:
        return FaceCache(None)
    folder = root / ".cardc-cache" / "sheets" / CACHE_VERSION
    if folder not in _CACHES:
        _CACHES[folder] = FaceCache(folder)
    return _CACHES[folder]


def _document(faces: list[Face], head: str, characters: frozenset[str]) -> str:
    from compiler.sheets.html import font_css, mm

    sizes = sorted({(f.width, f.height) for f in faces})
    names = {size: f"face{i}" for i, size in enumerate(sizes)}
    pages = []
    for index, face in enumerate(faces):
        pages.append(
            f'<div class="sheet face-page" style="page: {names[face.width, face.height]}; '
            f'width: {mm(face.width)}; height: {mm(face.height - 0.02)};" '
            f'data-index="{index}">{face.html}</div>'
        )
    rules = "\n".join(
        f"@page {names[w, h]} {{ size: {mm(w)} {mm(h)}; margin: 0; }}" for w, h in sizes
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><style>\n'
        f"{font_css(characters, fetched=True)}\n@page {{ margin: 0; }}\n{rules}\n{head}\n"
        ".sheet.face-page { position: relative; overflow: hidden; break-after: page; }\n"
        "</style></head><body>" + "".join(pages) + "</body></html>"
    )


def _boxes(box: Any) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", ()) or ():
        yield from _boxes(child)


def _classes(box: Any) -> list[str]:
    element = getattr(box, "element", None)
    if element is None or getattr(box, "element_tag", None) is None:
        return []
    return str(element.get("class") or "").split()


def measure(page: Any) -> tuple[float, float] | None:
    """(height the face's content takes, height it has), in mm, of a face's page; None for a
    page with no card frame (a back, a hex tile)."""
    for box in _boxes(page._page_box):
        if "face" not in _classes(box) or box.element.get("data-face") is None:
            continue
        top = box.content_box_y()
        limit = top + box.height - RESERVE_MM * _PX_PER_MM
        lowest = top
        for child in box.children:
            if "foot" in _classes(child):
                continue
            for inner in _boxes(child):
                lowest = max(lowest, inner.position_y + inner.margin_height())
        return (lowest - top) / _PX_PER_MM, (limit - top) / _PX_PER_MM
    return None


def _guess(face: Face) -> float:
    """A first size for a face's text, from how much text it has: the characters times the
    area one takes at size s (about 0.45 s wide by 1.25 s high, in pt) should fill about four
    fifths of the room below the title."""
    if not face.fit:
        return face.size
    words = re.sub(r"<svg.*?</svg>|<[^>]+>|&[a-z]+;", " ", face.template)
    characters = max(len(" ".join(words.split())), 1)
    room = (face.width * 0.82) * (face.height * 0.5) * (72 / 25.4) ** 2
    size = (0.8 * room / (0.56 * characters)) ** 0.5
    return next((s for s in SIZES if s <= size + 1e-9), SIZES[-1])


@dataclass
class _Fit:
    """What is known of one face's fit: the largest size that fits (and the pass and page
    it was laid out on) and the smallest that does not."""

    face: Face
    fits: float | None = None
    fits_at: tuple[int, int] | None = None
    over: float | None = None

    def next(self, used: float, room: float) -> float | None:
        """The next size to try after laying the face out at ``face.size``, or None when
        the fit is known: a size between what fits and what does not, where the measured
        height says the text fills the room (height grows about as the square of the size:
        its lines get both longer and fewer words each)."""
        size = self.face.size
        target = size * (room / used) ** 0.5 if used > 0 else SIZES[0]
        between = [
            s
            for s in SIZES
            if (self.fits is None or s > self.fits + 1e-9)
            and (self.over is None or s < self.over - 1e-9)
        ]
        if not between:
            return None
        below = [s for s in between if s <= target + 1e-9]
        return below[0] if below else between[-1]


def jobs() -> int:
    """How many processes lay faces out: ``CARDC_SHEETS_JOBS`` when set, else the CPUs this
    process may use (at most 4). One where a process cannot be forked (not Linux)."""
    import multiprocessing
    import sys

    if not sys.platform.startswith("linux") or "fork" not in (
        multiprocessing.get_all_start_methods()
    ):
        return 1
    given = os.environ.get("CARDC_SHEETS_JOBS", "").strip()
    if given:
        try:
            return max(1, int(given))
        except ValueError:
            return 1
    return max(1, min(4, len(os.sched_getaffinity(0))))


#: The fewest faces a layout task is given when faces are shared among processes (a document
#: of its own costs WeasyPrint a stylesheet's cascade, so a tiny task is not worth its start).
MIN_TASK = 6


def lay_out(
    faces: list[Face],
    head: str,
    cache: FaceCache,
    whole: dict[str, str] | None = None,
    workers: int | None = None,
) -> dict[str, Laid]:
    """Every face of ``faces`` laid out (from the cache when known), by key; and each
    document of ``whole`` (key -> HTML, the rules reference) laid out as it is, by its key.

    Sets each face's ``size`` to its fitted size. Raises :class:`CardOverflowError` naming
    every card that does not fit even at :data:`MIN_PT`. What is not cached is shared among
    ``workers`` processes (default :func:`jobs`): a face's page, and so the sheet's bytes,
    are the same whichever process laid it out beside which faces.
    """
    from compiler.sheets.html import _BASE_CHARACTERS as BASE_CHARACTERS
    from compiler.sheets.html import fetched_fonts

    done: dict[str, Laid] = {}
    pending = []
    for face in faces:
        laid = cache.get(face.key)
        if laid is not None:
            face.size = laid.size
            done[face.key] = laid
        else:
            face.size = _guess(face)
            pending.append(face)
    tasks: list[tuple[Any, ...]] = []
    for key, html in sorted((whole or {}).items()):
        laid = cache.get(key)
        if laid is not None:
            done[key] = laid
        else:
            tasks.append(("whole", key, html, fetched_fonts(html)))
    workers = jobs() if workers is None else max(1, workers)
    # Two tasks a process, so one that finishes early takes another's share.
    size = max(MIN_TASK, -(-len(pending) // (2 * workers))) if workers > 1 else len(pending)
    # The fonts a face is laid out with are cut to a fixed set of characters, so its page
    # does not depend on which faces were laid out with it; a face that uses other
    # characters is laid out with a font that has them too.
    groups: dict[frozenset[str], list[Face]] = {}
    for face in pending:
        groups.setdefault(frozenset(face.template) - BASE_CHARACTERS, []).append(face)
    from compiler.sheets.html import FONT_CACHE, font_css

    for extra, group in sorted(groups.items(), key=lambda item: sorted(item[0])):
        # The fonts cut here, before any fork: each process then has them, and this one
        # notes the cut font files it used (the cache's pruning keeps them).
        font_css(BASE_CHARACTERS | extra, fetched=True)
        for start in range(0, len(group), max(size, 1)):
            chunk = group[start : start + size]
            tasks.append(("fit", chunk, head, BASE_CHARACTERS | extra, list(FONT_CACHE)))
    stuck: list[tuple[str, str]] = []
    sizes: dict[str, float] = {}
    for task, (results, fonts, task_stuck) in zip(tasks, _run(tasks, workers), strict=True):
        cache.put_fonts(fonts)
        stuck += task_stuck
        for key, fitted, pages in results:
            laid = Laid(fitted, tuple(pages))
            cache.put(key, laid)
            done[key] = laid
            if task[0] == "fit":
                sizes[key] = fitted
    for face in pending:
        face.size = sizes.get(face.key, face.size)
    if stuck:
        raise CardOverflowError(stuck)
    return done


#: The layout processes a build started early (:func:`layout_processes`), when it did.
_POOL: list[Any] = []


@contextlib.contextmanager
def layout_processes() -> Iterator[None]:
    """While inside, a layout process forked now loads WeasyPrint while this one goes on (a
    build compiling its cards), and lays out the faces of a sheet with few new ones (a
    one-card edit): this process then never loads WeasyPrint (a third of a second). Many new
    faces are still shared among :func:`jobs` processes. With one job, or where a process
    cannot be forked, nothing changes."""
    if jobs() <= 1 or _POOL:
        yield
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # An executor, not a multiprocessing.Pool: a process that dies (killed, out of memory)
    # fails the build with an error instead of leaving it waiting for ever.
    context = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(1, context, initializer=_warm, initargs=(os.getpid(),))
    pool.submit(int)  # the process starts now (an executor starts one at its first task)
    _POOL.append(pool)
    try:
        yield
    finally:
        _POOL.remove(pool)
        pool.shutdown(wait=True, cancel_futures=True)


def _warm(parent: int) -> None:
    """A layout process's start: WeasyPrint loaded before any task comes. (Loaded here, not
    through ``compiler.sheets.pdf``, which imports this module: the import graph stays
    acyclic. A WeasyPrint that cannot load is reported when the build asks ``pdf``.)"""
    _die_with(parent)
    try:
        import weasyprint  # noqa: F401
    except (OSError, ImportError):
        pass


def _die_with(parent: int) -> None:
    """Ends this layout process when ``parent`` (the build) ends, however it ends: a build
    killed half way must not leave a process behind holding its lock (``PR_SET_PDEATHSIG``)."""
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    if os.getppid() != parent:  # it ended before the line above
        os._exit(1)


def pool_call(function: Any, *args: Any) -> Any:
    """``function(*args)`` in a layout process when a build started them, else None."""
    return _POOL[0].submit(function, *args).result() if _POOL else None


def _run(tasks: list[tuple[Any, ...]], workers: int) -> list[Any]:
    """Each task's result, in order: in this process, or shared among forked ones."""
    if workers <= 1 or len(tasks) <= 1:
        if _POOL and tasks:
            return list(_POOL[0].map(_task, tasks))
        return [_task(task) for task in tasks]
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # WeasyPrint loaded here first, so each process forked has it already.
    import weasyprint  # noqa: F401

    context = multiprocessing.get_context("fork")
    count, parent = min(workers, len(tasks)), os.getpid()
    with ProcessPoolExecutor(count, context, initializer=_die_with, initargs=(parent,)) as pool:
        return list(pool.map(_task, tasks))


def _task(task: tuple[Any, ...]) -> Any:
    """One task of :func:`lay_out`: ([(key, size, pieces)], fonts, cards that do not fit)."""
    if task[0] == "whole":
        from weasyprint import HTML

        from compiler.sheets.html import FETCHED, fetcher
        from compiler.sheets.pieces import split

        _, key, html, fonts = task
        FETCHED.update(fonts)  # a process forked before they were cut
        # Whole fonts, as the faces have: the same font objects serve both.
        document = HTML(string=html, url_fetcher=fetcher()).render()
        pdf = document.write_pdf(full_fonts=True, pdf_identifier=b"cardc-ref")
        pieces, fonts = split(bytes(pdf))
        return [(key, 0.0, pieces)], fonts, []
    _, faces, head, characters, font_cache = task
    from compiler.sheets import html as html_module

    # Where the cut fonts are kept (a process started before the sheet knew it).
    html_module.FONT_CACHE[:] = font_cache
    return _fit_group(faces, head, characters)


def _fit_group(
    faces: list[Face], head: str, characters: frozenset[str]
) -> tuple[list[tuple[str, float, list[dict[str, Any]]]], dict[str, Any], list[tuple[str, str]]]:
    """Faces laid out at the sizes that fit them: [(key, size, pieces)], the fonts the pieces
    use, and the cards that do not fit even at the smallest size."""
    from weasyprint import HTML

    from compiler.sheets.html import fetcher

    fits = {face.key: _Fit(face) for face in faces}
    documents: list[Any] = []
    pending = faces
    stuck: list[tuple[str, str]] = []
    while pending:
        document = HTML(string=_document(pending, head, characters), url_fetcher=fetcher()).render()
        documents.append(document)
        again = []
        for index, (face, page) in enumerate(zip(pending, document.pages, strict=True)):
            fit = fits[face.key]
            found = measure(page) if face.fit else None
            if found is None:
                fit.fits, fit.fits_at = face.size, (len(documents) - 1, index)
                continue
            used, room = found
            if used <= room + 0.003:
                fit.fits, fit.fits_at = face.size, (len(documents) - 1, index)
                # Room to spare: try a larger size, unless this one is the largest.
                if used > room * 0.9 or face.size >= SIZES[0]:
                    continue
            else:
                fit.over = face.size
            size = fit.next(used, room)
            if size is None:
                if fit.fits is None:
                    stuck.append((face.title, face.source))
                continue
            face.size = size
            again.append(face)
        pending = again
    # The faces' pages, one PDF a layout pass, split into pieces (whose resources are named
    # by their use in the face, not by the pass: see compiler.sheets.pieces). Whole fonts (no
    # subset): a font is then the same object whichever faces it was laid out with.
    from compiler.sheets.pieces import split

    chosen: dict[int, list[tuple[int, _Fit]]] = {}
    for fit in fits.values():
        if fit.fits_at is not None:
            chosen.setdefault(fit.fits_at[0], []).append((fit.fits_at[1], fit))
    results: list[tuple[str, float, list[dict[str, Any]]]] = []
    fonts: dict[str, Any] = {}
    for number, entries in sorted(chosen.items()):
        entries.sort(key=lambda entry: entry[0])
        document = documents[number]
        pages = [document.pages[index] for index, _ in entries]
        pdf = document.copy(pages).write_pdf(full_fonts=True, pdf_identifier=b"cardc-faces")
        pieces, pass_fonts = split(bytes(pdf))
        fonts.update(pass_fonts)
        for piece, (_, fit) in zip(pieces, entries, strict=True):
            assert fit.fits is not None
            results.append((fit.face.key, fit.fits, [piece]))
    return results, fonts, stuck
