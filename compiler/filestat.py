"""What cardc last verified of each file under ``generated/``: size, mtime, inode and SHA-256.

A build carries an unchanged game's files over when they are on disk exactly as the manifest
says; hashing every one of them (16 MB at 10,000 cards) was the biggest part of a no-op
rebuild. A file whose size, mtime (to the nanosecond) and inode are those recorded when its
hash was last checked has that hash still, with one exception this guards against: a file
rewritten within the file system's timestamp tick of the check keeps its mtime. So an entry
is trusted only when it was recorded at least :data:`RACY_NS` after the file's mtime (as git
treats "racily clean" index entries); any later write then moves the mtime.

The record lives in ``.cardc-cache/generated-stat.json`` (written atomically, by the build that
holds the build lock; a damaged or missing one just means hashing again). It is a cache, never
a source of truth: the manifest's hashes decide, this only says when one need not be redone.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

STAT_PATH = Path(".cardc-cache") / "generated-stat.json"
#: How long after a file's mtime its check must be for the record to be trusted (ns): well
#: past any file system's timestamp granularity.
RACY_NS = 50_000_000


class FileStats:
    """The verified stats of ``generated/``'s files, read from and written back to the cache."""

    def __init__(self, root: Path, generated: Path):
        self.path = root / STAT_PATH
        self.generated = str(generated.resolve()) if generated.exists() else str(generated)
        self.entries: dict[str, list[Any]] = {}
        self.dirty = False
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            data = json.loads(self.path.read_text(encoding="utf-8"))
            if data.get("generated") == self.generated and isinstance(data.get("files"), dict):
                self.entries = data["files"]

    def read(self, path: Path, rel: str, sha: str) -> bytes | None:
        """The bytes of ``path`` when their SHA-256 is ``sha`` (else None); the hash is
        skipped when a trusted record says the file is unchanged since it was checked."""
        try:
            stat = path.stat()
            data = path.read_bytes()
        except OSError:
            return None
        key = [stat.st_size, stat.st_mtime_ns, stat.st_ino]
        kept = self.entries.get(rel)
        if (
            isinstance(kept, list)
            and len(kept) == 5
            and kept[:3] == key
            and kept[3] == sha
            and isinstance(kept[4], int)
            and kept[4] - stat.st_mtime_ns >= RACY_NS
            and len(data) == stat.st_size
        ):
            return data
        if hashlib.sha256(data).hexdigest() != sha:
            self.entries.pop(rel, None)
            return None
        self.entries[rel] = [*key, sha, time.time_ns()]
        self.dirty = True
        return data

    def save(self) -> None:
        """Write the record back when it changed (a read-only project keeps none)."""
        if not self.dirty:
            return
        data = json.dumps({"generated": self.generated, "files": self.entries}, sort_keys=True)
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(data, encoding="utf-8")
            tmp.replace(self.path)
        self.dirty = False
