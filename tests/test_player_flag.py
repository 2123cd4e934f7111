"""A native declared ``player_flag KEY`` (compiler/vocabulary.py): true while the acting
player's flag ``KEY`` is set, read in place by the generated code, implemented by no Python;
the player's counterpart of ``board_flag`` (Uncharted Passage's ``docked()`` and ``sank()``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_flow import FLOW, GAME, _phase_by_phase, compile_text, errors, import_handlers
from test_flow_runner import RULES_TAIL, QuietGame, _game, _runner
from test_natives_by_path import GAME as HUNT_GAME
from test_natives_by_path import NATIVES as HUNT_NATIVES
from test_natives_by_path import _check, _project

from compiler.emit_python import emit_handlers

#: The race, where a resting player rolls nothing.
RESTING_GAME = GAME.replace(
    '  trigger round_start "the start of a round"',
    '  trigger round_start "the start of a round"\n'
    '  native resting "the player sits this race out" { returns bool; player_flag resting }',
)
RESTING_FLOW = FLOW.replace(
    "      for each p in players { gain points 1d6 }  # the race itself",
    "      for each p in players { unless resting() { gain points 1d6 } }",
)


def test_a_player_flag_native_is_read_in_place_for_the_acting_player(tmp_path: Path) -> None:
    result = compile_text(tmp_path, RESTING_FLOW, RULES_TAIL, game=RESTING_GAME)
    assert result.ir is not None and not errors(result), errors(result)
    text = emit_handlers(result.ir, ["flow.cards"], "race")
    # No Python implements it and nothing calls one: the acting player's flag is read where
    # it is tested, in the runner and in the round loop (each loop's own context).
    assert "natives['resting']" not in text and "n_resting" not in text
    assert ".player.flags.get('resting'))" in _runner(text)
    assert ".player.flags.get('resting'))" in _runner(text, "round", "loop")
    module = import_handlers(tmp_path / "handlers_resting.py", text)
    for seed in range(5):
        compiled, _ = _game(result.ir, module, seed, 2)
        looped, _ = _game(result.ir, module, seed, 2)
        quiet, _ = _game(result.ir, module, seed, 2, QuietGame)
        for game in (compiled, looped, quiet):
            game.players[1].flags["resting"] = True
        compiled.play()
        _phase_by_phase(looped).play()
        quiet.play()
        assert compiled.events == looped.events, seed
        first, second = (p.counters["points"] for p in compiled.players)
        # The setup's point and the end's score; the resting player rolled nothing.
        assert second == 2, (seed, second)
        assert first > 2 + 4, (seed, first)  # five rolls of at least 1
        assert [p.counters["points"] for p in quiet.players] == [first, second], seed


def test_an_end_condition_on_a_player_flag_holds_for_any_player(tmp_path: Path) -> None:
    # "end when prestige >= 40" ends the game whoever reaches it; a player's flag alike: the
    # second seat's flag ends it though the flow's acting player is the first seat.
    flow = RESTING_FLOW.replace("  winner highest", "  end when resting()\n  winner highest")
    result = compile_text(tmp_path, flow, RULES_TAIL, game=RESTING_GAME)
    assert result.ir is not None and not errors(result), errors(result)
    text = emit_handlers(result.ir, ["flow.cards"], "race")
    module = import_handlers(tmp_path / "handlers_resting_end.py", text)
    for resting in (False, True):
        game, _ = _game(result.ir, module, 3, 2)
        game.players[1].flags["resting"] = resting
        played = game.play()
        assert played.reason == ("end_when" if resting else "rounds"), resting
        assert played.rounds == (1 if resting else 5), resting


@pytest.mark.parametrize(
    ("declaration", "message"),
    [
        (
            "{ param n number; returns bool; player_flag resting }",
            "'resting' reads a flag of the acting player: it takes no parameters and returns bool",
        ),
        (
            "{ returns number; player_flag resting }",
            "'resting' reads a flag of the acting player: it takes no parameters and returns bool",
        ),
        ("{ returns bool; player_flag }", "'player_flag' names one key of the acting player"),
        (
            "{ returns bool; board_flag over; player_flag resting }",
            "'resting' already reads the board's 'over' (board_flag over): a native reads one flag",
        ),
    ],
)
def test_a_player_flag_native_is_a_bool_of_no_parameters_reading_one_flag(
    tmp_path: Path, declaration: str, message: str
) -> None:
    game = RESTING_GAME.replace("{ returns bool; player_flag resting }", declaration)
    result = compile_text(tmp_path, RESTING_FLOW, RULES_TAIL, game=game)
    found = [e for e in errors(result) if e.startswith("bad-board-flag")]
    assert len(found) == 1 and message in found[0], errors(result)
    # At the declaration's line in game.cards, with a hint to write it right.
    line = game.split("\n").index(next(x for x in game.split("\n") if "native resting" in x))
    assert f"game.cards:{line + 1}:" in found[0], found[0]
    assert "|" in found[0] and found[0].split("|", 1)[1].strip(), found[0]


def test_a_player_flag_native_is_the_compilers_not_pythons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    declared = HUNT_GAME.replace(
        "  verb find_treasure",
        '  native rich "the player struck gold" { returns bool; player_flag rich }\n'
        "  verb find_treasure",
    )
    folder = _project(tmp_path / "alone")
    (folder / "game.cards").write_text(declared, encoding="utf-8")
    # Nothing in natives.py implements it, and nothing need: the compiler reads the flag.
    assert _check(folder.parent.parent, monkeypatch) == []
    twice = _project(
        tmp_path / "twice",
        HUNT_NATIVES + '\n\n@native(returns="bool")\ndef rich(g, c):\n    return True\n',
    )
    (twice / "game.cards").write_text(declared, encoding="utf-8")
    ((code, message, line),) = _check(twice.parent.parent, monkeypatch)
    assert (code, line) == ("signature-mismatch", 10)  # the declaration in game.cards
    assert "declared 'player_flag rich'" in message and "implements it too" in message
    assert "the acting player's 'rich'" in message
