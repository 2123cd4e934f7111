"""compiler.filestat: a file's hash is skipped only when a trusted record says it is unchanged."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from compiler import filestat
from compiler.filestat import RACY_NS, FileStats


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _setup(tmp_path: Path, data: bytes = b"cards") -> tuple[Path, Path]:
    generated = tmp_path / "generated"
    generated.mkdir()
    path = generated / "game" / "cards.json"
    path.parent.mkdir()
    path.write_bytes(data)
    # Written long ago: a record made now is well past the racy window.
    os.utime(path, ns=(10**18, 10**18))
    return generated, path


def test_a_trusted_record_skips_the_hash_and_survives_the_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    generated, path = _setup(tmp_path)
    first = FileStats(tmp_path, generated)
    assert first.read(path, "game/cards.json", _sha(b"cards")) == b"cards"
    first.save()
    assert (tmp_path / filestat.STAT_PATH).is_file()
    cards, other = _sha(b"cards"), _sha(b"other")
    hashed = []
    real = hashlib.sha256
    monkeypatch.setattr(filestat.hashlib, "sha256", lambda data=b"": hashed.append(1) or real(data))
    again = FileStats(tmp_path, generated)  # as a later process reads it
    assert again.read(path, "game/cards.json", cards) == b"cards"
    assert hashed == []
    # A record for another hash is no use: the manifest's hash decides.
    assert again.read(path, "game/cards.json", other) is None
    assert hashed == [1]


def test_a_rewrite_of_the_same_size_is_seen(tmp_path: Path) -> None:
    generated, path = _setup(tmp_path)
    stats = FileStats(tmp_path, generated)
    assert stats.read(path, "game/cards.json", _sha(b"cards")) is not None
    path.write_bytes(b"CARDS")  # same size, a new mtime
    assert stats.read(path, "game/cards.json", _sha(b"cards")) is None
    assert stats.read(path, "game/cards.json", _sha(b"CARDS")) == b"CARDS"


def test_a_record_made_within_the_racy_window_is_not_trusted(tmp_path: Path) -> None:
    generated, path = _setup(tmp_path)
    stats = FileStats(tmp_path, generated)
    assert stats.read(path, "game/cards.json", _sha(b"cards")) is not None
    stat = path.stat()
    # Recorded just after the file was written: a rewrite in the same tick keeps its mtime.
    stats.entries["game/cards.json"][4] = stat.st_mtime_ns + RACY_NS - 1
    path.write_bytes(b"CARDS")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert stats.read(path, "game/cards.json", _sha(b"cards")) is None


def test_a_damaged_record_means_hashing_again(tmp_path: Path) -> None:
    generated, path = _setup(tmp_path)
    (tmp_path / filestat.STAT_PATH).parent.mkdir(parents=True)
    (tmp_path / filestat.STAT_PATH).write_text("{not json", encoding="utf-8")
    stats = FileStats(tmp_path, generated)
    assert stats.entries == {}
    assert stats.read(path, "game/cards.json", _sha(b"cards")) == b"cards"
