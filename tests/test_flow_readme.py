"""The README's whole small game ("The flow") builds, formats clean and plays, as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler.cli import main
from engine import sim

README = Path(__file__).resolve().parents[1] / "README.md"


def _files() -> dict[str, str]:
    """The README's harvest files: each code block that starts with '# NAME.cards:'."""
    section = README.read_text(encoding="utf-8").split("### The flow: how a game is played")[1]
    section = section.split("\n## ")[0]
    return dict(
        (name, body) for body, name in re.findall(r"```\n(# (\S+\.cards):.*?)```", section, re.S)
    )


def test_the_readme_game_builds_and_plays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files()
    assert sorted(files) == ["cards.cards", "flow.cards", "game.cards"]
    folder = tmp_path / "cards" / "harvest"
    folder.mkdir(parents=True)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\nscenarios = "tests/scenarios"\n'
    )
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["fmt", "--check", "cards"]) == 0
    assert main(["build"]) == 0
    played = sim.play_one(tmp_path / "generated" / "harvest", 1, 1, "competitive", "greedy")
    again = sim.play_one(tmp_path / "generated" / "harvest", 1, 1, "competitive", "greedy")
    result = played.result
    assert result.scores == again.result.scores and result.reason == "rounds"
    assert result.rounds == 6 and result.turns == 12
    assert all(title in ("Farmhand", "Landowner") for title in result.titles)
    # Good Soil scores a point when played: the lookahead plays it.
    assert any(e[0] == "play" and e[2] == "good_soil" for e in played.game.events)
