"""audit8 (Land vs Sea, Darwin's Journey): a flow setting's @provisional reaches the provenance
list, and the invented values found unmarked are now marked."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _provenance(*paths: str) -> list[dict[str, str]]:
    """The ``cardc check --provenance`` lines of ``paths``: where, what, why."""
    done = subprocess.run(
        [sys.executable, "-m", "compiler.cli", "check", "--provenance", *paths],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    entries = []
    for line in done.stdout.splitlines():
        found = re.match(r"^(\S+:\d+:\d+): (.*)$", line)
        if found:
            entries.append({"at": found[1], "text": found[2]})
    return entries


def test_darwins_journey_winner_and_tiebreak_are_listed_provisional() -> None:
    """The Pirates rulebook prints no winner, tie-breaker, turn order or Reward Phase: the
    modelled ones are listed."""
    found = [
        entry["text"]
        for entry in _provenance("cards/darwins_journey")
        if entry["at"].startswith("cards/darwins_journey/flow.cards")
    ]
    assert any(text.startswith("flow: winner: ") for text in found), found
    assert any(text.startswith("flow: tiebreak: ") and "Coins" in text for text in found), found
    # The modelled base game's turn order, first player and Reward Phase are invented too.
    for item in ("verb place_workers: ", "function first_seat: ", "verb reward_phase: "):
        assert any(text.startswith(item) for text in found), (item, found)


def test_a_flow_setting_note_in_a_new_game_is_listed(tmp_path: Path) -> None:
    """Any flow setting's note is recorded, not only the shipped games' (the checker read it and
    dropped it before)."""
    (tmp_path / "g").mkdir()
    source = tmp_path / "g" / "game.cards"
    source.write_text(
        'game g "G" {\n  players 2\n  score points\n  counter points\n}\n'
        'flow "F" {\n  round 3 {\n    phase play "play" {\n      gain points 1\n    }\n  }\n'
        '  winner highest @provisional("not printed")\n}\n'
    )
    entries = _provenance(str(source.parent))
    assert [e["text"] for e in entries] == ["flow: winner: not printed"]


def test_land_vs_sea_scoring_aid_back_sides_are_provisional() -> None:
    """ "place their scoring aids ... on their correct sides for the player count": which side
    serves which count is not printed, for the back side as much as the front."""
    marked = [
        entry["text"]
        for entry in _provenance("cards/land_vs_sea")
        if entry["at"].startswith("cards/land_vs_sea/layers.cards")
    ]
    for layer in ("Menhir scoring", "City scoring", "Bandit and Pirate scoring"):
        assert any(text.startswith(f"{layer}: aid_back_players: ") for text in marked), marked


def test_a_misspelt_note_on_a_flow_setting_is_an_error_at_its_line(tmp_path: Path) -> None:
    """A flow setting's note is checked as any other: a misspelt one is told at its line and
    column with a hint (it was dropped without a word)."""
    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "game.cards").write_text(
        'game g "G" {\n  players 2\n  score points\n  counter points\n}\n'
        'flow "F" {\n  round 3 {\n    phase play "play" {\n      gain points 1\n    }\n  }\n'
        '  tiebreak points @provisonal("not printed")\n}\n'
    )
    done = subprocess.run(
        [sys.executable, "-m", "compiler.cli", "check", str(tmp_path / "g")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "game.cards:12:19: error[annotation-unknown]" in done.stdout + done.stderr
    assert "did you mean 'provisional'?" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
