"""The compiled grammar, kept between runs in a per-user cache folder.

Building the LALR(1) table from ``grammar.lark`` takes lark about 0.8 s, most of a
``cardc check`` of one file; loading the saved table takes a few milliseconds. The cache file's
name holds a hash of the grammar text, the lark options, lark's version and Python's, so a
changed grammar or an upgraded lark never reads a stale table. Every failure (no home folder, a
read-only or full disk, a truncated or foreign file) falls back to building the grammar: the
cache can make cardc faster, never break it.

Where: ``$CARDC_CACHE_DIR``, else ``$XDG_CACHE_HOME/cardc``, else ``~/.cache/cardc``. When that
folder cannot be written (a read-only home, a file in its place), a private folder in the
system's temporary folder is the fallback: ``cardc-cache-<uid>``, made with mode 0700 and
trusted only while it is the user's own and writable by no one else (a pickle from a folder
another user could write to would run their code).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

from lark import Lark
from lark import __version__ as LARK_VERSION

#: Environment variable naming the cache folder (tests point it at a temporary one).
CACHE_ENV = "CARDC_CACHE_DIR"


def cache_dir() -> Path | None:
    """The per-user folder cardc keeps caches in (it may not exist yet), or None."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "cardc"
    try:
        return Path.home() / ".cache" / "cardc"
    except (RuntimeError, KeyError):  # no home folder (a bare container user)
        return None


def grammar_key(grammar: str, options: dict[str, Any]) -> str:
    """The hash naming one compiled grammar: its text, options, lark's and Python's versions."""
    described = repr(sorted(options.items()))
    version = f"{LARK_VERSION}/{sys.version_info[0]}.{sys.version_info[1]}"
    return hashlib.sha256(f"{grammar}\0{described}\0{version}".encode()).hexdigest()[:32]


def fallback_dir() -> Path:
    """The private cache folder in the system's temporary folder, for when ``cache_dir`` is
    not writable (it may not exist yet)."""
    import tempfile  # only on this rare path: tempfile pulls in random and more

    uid = os.getuid() if hasattr(os, "getuid") else os.getpid()
    return Path(tempfile.gettempdir()) / f"cardc-cache-{uid}"


def _private(folder: Path) -> bool:
    """Whether ``folder`` is a real folder owned by this user that no one else may write to."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    import stat

    if not stat.S_ISDIR(info.st_mode):
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        return False
    return not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def cache_file_name(grammar: str, options: dict[str, Any]) -> str:
    """The file name one compiled ``grammar`` is saved under, in whichever cache folder."""
    return f"grammar-{grammar_key(grammar, options)}-lark{LARK_VERSION}.pickle"


def cache_path(grammar: str, options: dict[str, Any]) -> Path | None:
    """Where the compiled ``grammar`` is (or would be) saved in the per-user cache folder."""
    folder = cache_dir()
    if folder is None:
        return None
    return folder / cache_file_name(grammar, options)


def load_lark(grammar: str, **options: Any) -> tuple[Lark, bool]:
    """A ``Lark`` for ``grammar`` (parser="lalr" only), from the cache when it holds one.

    Returns the parser and whether it came from the cache. A parser built afresh is saved for
    the next run, written to a temporary file and renamed into place, so another cardc starting
    at the same moment reads either no file or a whole one. The per-user folder is tried first,
    then the private fallback folder (see the module's docstring).
    """
    path = cache_path(grammar, options)
    if path is not None:
        loaded = _load(path)
        if loaded is not None:
            return loaded, True
        if _writable(path.parent):
            parser = Lark(grammar, **options)
            _save(parser, path)
            return parser, False
    # The per-user folder cannot be written: the private fallback folder keeps the grammar.
    fallback = fallback_dir() / cache_file_name(grammar, options)
    if _private(fallback.parent):
        loaded = _load(fallback)
        if loaded is not None:
            return loaded, True
    parser = Lark(grammar, **options)
    if _make_private(fallback.parent):
        _save(parser, fallback)
    return parser, False


def _writable(folder: Path) -> bool:
    """Whether ``folder`` exists (it is made when missing) and this user may write in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK)


def _load(path: Path) -> Lark | None:
    """The parser saved at ``path``, or None when there is none or it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return Lark.load(handle)
    except Exception:  # noqa: BLE001 - any unreadable cache is rebuilt, never fatal
        return None


def _make_private(folder: Path) -> bool:
    """Create ``folder`` with mode 0700; whether it is now a private folder of this user."""
    try:
        folder.mkdir(mode=0o700)
    except OSError:
        pass
    return _private(folder)


def _save(parser: Lark, path: Path) -> bool:
    """Save ``parser`` at ``path`` atomically; whether it was saved (False where the disk says
    no: a read-only or full disk, a file where the folder should be)."""
    import pickle  # noqa: F401 - lark's save pickles; its errors are caught below
    import tempfile

    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".grammar-", dir=path.parent)
        with os.fdopen(handle, "wb") as out:
            parser.save(out)
        os.replace(temporary, path)
        temporary = None
        return True
    except (OSError, pickle.PicklingError):
        return False
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
