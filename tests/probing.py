"""Helpers the probe tests share (tests/test_probe_*.py): a project holding a copy of a
shipped game, that game checked with a designer's extra card file, as `cardc check` would
see it, and scenarios written to a file and run."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from compiler.pipeline import compile_game
from dsl.diagnostics import Diagnostic, SourceCache

ROOT = Path(__file__).resolve().parent.parent
#: A project's settings: its cards and generated folders where cardc looks by default.
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'


def copy_game(root: Path, game: str) -> Path:
    """``root`` made a project holding a copy of ``cards/<game>/`` (its cards, variants and
    Python); the copied game's folder."""
    folder = root / "cards" / game
    shutil.copytree(ROOT / "cards" / game, folder)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return folder


def diagnostics_with_card_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, cards: str
) -> list[Diagnostic]:
    """The diagnostics of ``game`` (a copy of ``cards/<game>/``) with one more card file,
    ``probe.cards``, holding ``cards``: only those at that file."""
    (copy_game(tmp_path, game) / "probe.cards").write_text(cards, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = compile_game(Path("cards") / game, SourceCache())
    return [d for d in result.diagnostics if d.span.file.endswith("probe.cards")]


def run_scenarios(generated: Path, text: str, path: Path) -> list[Any]:
    """The results of the scenarios ``text``, written to ``path`` and run against the
    compiled folder ``generated`` (a built copy's, or the repository's)."""
    from engine.scenario import Runner

    path.write_text(text, encoding="utf-8")
    return list(Runner(generated).run_file(path))
