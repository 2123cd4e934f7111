"""A native declared ``player_flag KEY`` (compiler/vocabulary.py): true while the acting
player's flag ``KEY`` is set, read in place by the generated code, implemented by no Python;
the player's counterpart of ``board_flag`` (Uncharted Passage's ``docked()`` and ``sank()``).
Its declaration's errors are test_flow_runner.py's, beside ``board_flag``'s; that no Python may
implement it, test_natives_by_path.py's.
"""

from __future__ import annotations

from pathlib import Path

from test_flow import FLOW, GAME, _phase_by_phase, compile_text, errors, import_handlers
from test_flow_runner import RULES_TAIL, QuietGame, _game, _runner

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
