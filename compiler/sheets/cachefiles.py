"""Which files of the sheets' cache (``.cardc-cache/sheets/``) this process uses.

A leaf both the face cache (:mod:`compiler.sheets.faces`) and the font cutter
(:mod:`compiler.sheets.html`) note their files in, so :func:`compiler.sheets.faces.prune_cache`
never removes a file this process used and removes the least recently used first.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

#: Files of the cache this process read or wrote (full paths).
USED: set[Path] = set()


def use(path: Path) -> None:
    """Note that ``path`` serves this process; touched once, so its mtime is its last use."""
    if path not in USED:
        USED.add(path)
        with contextlib.suppress(OSError):
            os.utime(path)


def wrote(path: Path) -> None:
    """Note a file this process has just written (its mtime is already now)."""
    USED.add(path)
