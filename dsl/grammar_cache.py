"""The compiled grammar, kept between runs in a per-user cache folder.

Building the LALR(1) table from ``grammar.lark`` takes lark about 0.8 s, most of a
``cardc check`` of one file; loading the saved table takes a few milliseconds. The cache file's
name holds a hash of the grammar text, the lark options, lark's version and Python's, so a
changed grammar or an upgraded lark never reads a stale table. Every failure (no home folder, a
read-only or full disk, a truncated or foreign file) falls back to building the grammar: the
cache can make cardc faster, never break it.

Where: ``$CARDC_CACHE_DIR``, else ``$XDG_CACHE_HOME/cardc``, else ``~/.cache/cardc``.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
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


def cache_path(grammar: str, options: dict[str, Any]) -> Path | None:
    """Where the compiled ``grammar`` is (or would be) saved."""
    folder = cache_dir()
    if folder is None:
        return None
    return folder / f"grammar-{grammar_key(grammar, options)}-lark{LARK_VERSION}.pickle"


def load_lark(grammar: str, **options: Any) -> tuple[Lark, bool]:
    """A ``Lark`` for ``grammar`` (parser="lalr" only), from the cache when it holds one.

    Returns the parser and whether it came from the cache. A parser built afresh is saved for
    the next run, written to a temporary file and renamed into place, so another cardc starting
    at the same moment reads either no file or a whole one.
    """
    path = cache_path(grammar, options)
    if path is not None:
        try:
            with open(path, "rb") as handle:
                return Lark.load(handle), True
        except Exception:  # noqa: BLE001 - any unreadable cache is rebuilt, never fatal
            pass
    parser = Lark(grammar, **options)
    if path is not None:
        _save(parser, path)
    return parser, False


def _save(parser: Lark, path: Path) -> None:
    """Save ``parser`` at ``path`` atomically; silently give up where the disk says no."""
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".grammar-", dir=path.parent)
        with os.fdopen(handle, "wb") as out:
            parser.save(out)
        os.replace(temporary, path)
        temporary = None
    except (OSError, pickle.PicklingError):
        pass
    finally:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
