"""Incredible Expeditions, audited sentence by sentence against its rulebook: the modes the
rulebook defines, and the names a designer reading only the rulebook and the README guesses
for new cards and house rules (tests/data/incredible_expeditions_audit/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from probing import run_scenarios

from compiler.cli import main

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"


def test_the_game_declares_the_rulebooks_modes_competitive_and_coop(capsys: Any) -> None:
    """ "a game for 2-4 players" and "In the competitive game": competitive and co-operative,
    never solo; cardc sim refuses --mode solo naming the two, and plays co-op games."""
    from engine.loader import rules_module

    assert rules_module("incredible_expeditions").MODES == ("competitive", "coop")
    argv = ["sim", "incredible_expeditions", "--games", "2", "--jobs", "1", "--quiet", "--json"]
    assert main([*argv, "--mode", "solo"]) != 0
    out = capsys.readouterr()
    assert "'incredible_expeditions' has no solo mode; its modes: competitive, coop" in (
        out.out + out.err
    )
    assert main([*argv, "--mode", "coop"]) == 0
    assert '"games": 2' in capsys.readouterr().out


def test_a_scenario_in_solo_mode_is_refused_naming_the_modes(tmp_path: Path) -> None:
    """A scenario's ``mode: solo`` is an error at its line; ``mode: cooperative`` is coop, in
    which no ship is Marooned."""
    results = run_scenarios(
        GENERATED,
        "scenario: solo\n"
        'rulebook: "This is the basic setup for a game for 2-4 players."\n'
        "game: incredible_expeditions\n"
        "mode: solo\n"
        "do:\n"
        "  - action: refresh_crew\n"
        "expect:\n"
        "  first_player: 1\n"
        "---\n"
        "scenario: co-operative\n"
        'rulebook: "In the competitive game, if ever you have less than 3 capable Crew"\n'
        "game: incredible_expeditions\n"
        "mode: cooperative\n"
        "given:\n"
        "  player:\n"
        "    location: misty_strait\n"
        "do:\n"
        "  - action: refresh_crew\n"
        "expect:\n"
        "  player:\n"
        "    marooned: false\n",
        tmp_path / "modes.yaml",
    )
    assert not results[0].passed
    assert "has no solo mode; its modes: competitive, coop" in results[0].message
    assert results[1].passed, results[1].message
