"""The section runners' optimizations (compiler/emit_python.py, ``section_runner``): a DSL
verb's body written in place of its call, the end condition left out after a phase that
changed nothing, the game's natives and verbs bound to locals once a round.

Each is checked two ways: in the text the emitter writes, and by playing the same games with
the runner and with the runtime's phase-by-phase loop (what a lookahead replays, which calls
each phase's own function and each DSL verb's): the same events, the same questions asked by
the same ids, the same failures at the same DSL lines.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_flow import (
    FLOW,
    GAME,
    _phase_by_phase,
    build,
    compile_text,
    errors,
    import_handlers,
)

from compiler.emit_python import emit_handlers
from engine.flow import FlowGame
from engine.runtime import HandlerTable, Policy, Question, RuleError

VERBS = """\
# A verb with a parameter and a local of its own, calling another that asks a question.
verb bump(n number) "n points, doubled, and maybe a coin" {
  let doubled n * 2
  gain points doubled
  bonus_coin
}

verb bonus_coin() "a coin, if the player wants it" {
  may gain coins 1
}
"""

#: The race of test_flow, whose phases call the DSL verbs above (a loop variable named as the
#: verb's parameter: the inlined body's locals are its own) and an idle phase that changes
#: nothing unless its condition holds.
RUNNER_FLOW = FLOW.replace(
    "    phase bonus { fire round_start }",
    "    phase bonus { fire round_start }\n"
    "    phase bumps { for each n in players { bump round } }\n"
    "    phase idle { if round == 99 { bump 1 } }\n"
    "    phase quiet { if coins > 100 { gain points 0 } }",
).replace("  winner highest", "  end when points > 45\n  winner highest")


class Recorder(Policy):
    """Answers yes and no by turns, and keeps every question's id."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def decide(self, game: Any, question: Question) -> str:
        """The options in turn; the id kept."""
        self.asked.append(question.id)
        return question.options[len(self.asked) % len(question.options)]


def _game(
    ir: dict[str, Any], module: Any, seed: int, players: int, cls: type[FlowGame] = FlowGame
) -> tuple[FlowGame, Recorder]:
    """A game of ``cls`` whose seats answer by turns (:class:`Recorder`)."""
    recorder = Recorder()
    game = cls(
        ir,
        HandlerTable.from_module(module),
        policies={i: recorder for i in range(players)},
        seed=seed,
        player_count=players,
    )
    return game, recorder


def _runner(text: str, section: str = "round", kind: str = "run") -> str:
    """The text of a section's runner (``run``) or of the round loop (``loop``)."""
    start = text.index(f"def {kind}__{section}(g, c")
    return text[start : text.index("\n\n\n", start)]


class QuietGame(FlowGame):
    """A game that logs no round (the simulator's Uncharted Passage writes its own
    logbook): the engine plays its rounds by the generated round loop."""

    logs_rounds = False


def _quiet_game(
    ir: dict[str, Any], module: Any, seed: int, players: int
) -> tuple[FlowGame, Recorder]:
    """A :class:`QuietGame`: its rounds are played by the round loop."""
    return _game(ir, module, seed, players, QuietGame)


def test_a_dsl_verb_is_written_in_place_in_the_runner(tmp_path: Path) -> None:
    _, _, text = build(tmp_path, RUNNER_FLOW, rules=VERBS + RULES_TAIL)
    runner = _runner(text)
    # Both verbs written out (bonus_coin inside bump), called nowhere in the runner.
    assert "# verb bump" in runner and "# verb bonus_coin" in runner
    assert "dv_bump(" not in runner and "dv_bonus_coin(" not in runner
    # The argument bound to the verb's own parameter: not the loop's variable of that name.
    assert "for v_n in g.players:" in runner
    assert "v_i" in runner and "_n = g.round" in runner
    # Their own functions are still written, for the phases' functions (a lookahead's).
    assert "def dv_bump(g, c, v_n):" in text
    assert "dv_bump(g, " in text[: text.index("def run__round(g, c):")]


def test_the_runner_plays_the_same_games_and_asks_the_same_questions(tmp_path: Path) -> None:
    ir, module, _ = build(tmp_path, RUNNER_FLOW, rules=VERBS + RULES_TAIL)
    reasons = set()
    for seed in range(20):
        for players in (1, 2):
            compiled, asked = _game(ir, module, seed, players)
            looped, asked_looped = _game(ir, module, seed, players)
            first, second = compiled.play(), _phase_by_phase(looped).play()
            assert compiled.events == looped.events, (seed, players)
            # The inlined verb's question keeps the id its own function gives it.
            assert asked.asked == asked_looped.asked, (seed, players)
            assert set(asked.asked) == {"bonus_coin.verb.gain"}
            assert (first.scores, first.reason, first.rounds) == (
                second.scores,
                second.reason,
                second.rounds,
            )
            reasons.add(first.reason)
    assert reasons == {"rounds", "end_when"}, "both ways of ending were played"


def test_the_round_loop_plays_the_same_games_as_the_runner_and_the_phase_loop(
    tmp_path: Path,
) -> None:
    ir, module, text = build(tmp_path, RUNNER_FLOW, rules=VERBS + RULES_TAIL)
    loop = _runner(text, "round", "loop")
    # Every game verb and native looked up once, before the rounds; the round is the loop's.
    assert "while number <= limit:" in loop
    assert "g.verbs[" not in loop.split("while number <= limit:")[1]
    assert "if logs:" not in loop
    calls = []
    original = module.FLOW["run"]["loop"]

    def counted(g: Any, c: Any, number: int, limit: int) -> Any:
        calls.append((number, limit))
        return original(g, c, number, limit)

    reasons = set()
    module.FLOW["run"]["loop"] = counted
    try:
        for seed in range(20):
            for players in (1, 2):
                calls.clear()
                looped, asked = _quiet_game(ir, module, seed, players)
                # The round by round runner: a game that logs its rounds does not take the loop.
                by_round, asked_by_round = _game(ir, module, seed, players)
                phased, asked_phased = _quiet_game(ir, module, seed, players)
                results = [looped.play(), by_round.play(), _phase_by_phase(phased).play()]
                assert calls == [(1, 5)], "the loop plays the 5 rounds in one call"
                assert looped.events == by_round.events == phased.events, (seed, players)
                assert asked.asked == asked_by_round.asked == asked_phased.asked
                for result in results[1:]:
                    assert (result.scores, result.reason, result.rounds) == (
                        results[0].scores,
                        results[0].reason,
                        results[0].rounds,
                    ), (seed, players)
                assert looped.round == phased.round and looped.rounds_played == phased.rounds_played
                reasons.add(results[0].reason)
    finally:
        module.FLOW["run"]["loop"] = original
    assert reasons == {"rounds", "end_when"}, "both ways of ending were played"


def test_the_end_condition_is_checked_only_where_the_game_may_have_changed(
    tmp_path: Path,
) -> None:
    _, _, text = build(tmp_path, RUNNER_FLOW, rules=VERBS + RULES_TAIL)
    runner = _runner(text)
    phases = runner.split("    # phase ")[1:]
    checks = {p.split("\n", 1)[0]: p.count("g.end_when_held()") for p in phases}
    # bonus fires a trigger, bumps runs a verb, roll gains: each checked once after it; the
    # idle phase only in its branch (where it bumps); the quiet phase's branch gains
    # nothing, but a verb is a verb: checked there too. No phase goes unchecked after a verb.
    assert checks == {"bonus": 1, "bumps": 1, "idle": 1, "quiet": 1, "roll": 1}
    idle = next(p for p in phases if p.startswith("idle"))
    # The check is inside the branch (indented under the if), not after it.
    assert "\n    if (g.round == 99):" in idle
    assert "\n        if " in idle and "\n    if (c.player.counters['points'] > 45)" not in idle


def test_a_phase_that_runs_no_verb_is_not_followed_by_a_check(tmp_path: Path) -> None:
    flow = RUNNER_FLOW.replace(
        "    phase quiet { if coins > 100 { gain points 0 } }",
        "    phase quiet { if coins > 100 { let unused 1 } }",
    )
    ir, module, text = build(tmp_path, flow, rules=VERBS + RULES_TAIL)
    quiet = next(p for p in _runner(text).split("    # phase ")[1:] if p.startswith("quiet"))
    assert "end_when_held" not in quiet
    for seed in range(10):
        compiled, _ = _game(ir, module, seed, 2)
        looped, _ = _game(ir, module, seed, 2)
        compiled.play()
        _phase_by_phase(looped).play()
        assert compiled.events == looped.events, seed


def test_an_end_condition_that_rolls_is_checked_after_every_phase(tmp_path: Path) -> None:
    quiet = RUNNER_FLOW.replace(
        "    phase quiet { if coins > 100 { gain points 0 } }",
        "    phase quiet { if coins > 100 { let unused 1 } }",
    )
    _, _, pure = build(tmp_path, quiet, rules=VERBS + RULES_TAIL)
    # The same flow, but checking its end rolls a die: leaving a check out would change the
    # dice every later roll sees, so every one of the 5 phases is followed by it.
    flow = quiet.replace("end when points > 45", "end when points + 1d6 > 51")
    ir, module, text = build(tmp_path, flow, rules=VERBS + RULES_TAIL)
    assert _runner(pure).count("g.end_when_held()") == 4
    assert _runner(text).count("g.end_when_held()") == 5
    for seed in range(10):
        compiled, _ = _game(ir, module, seed, 1)
        looped, _ = _game(ir, module, seed, 1)
        compiled.play()
        _phase_by_phase(looped).play()
        assert compiled.events == looped.events, seed


def test_a_failure_in_an_inlined_verb_is_reported_at_its_call_naming_the_verbs_line(
    tmp_path: Path,
) -> None:
    rules = VERBS.replace("let doubled n * 2", "let doubled n / (round - round)")
    ir, module, _ = build(tmp_path, RUNNER_FLOW, rules=rules + RULES_TAIL)
    line = rules.split("\n").index("  let doubled n / (round - round)") + 1
    where = str(tmp_path / "race" / "rules.cards")
    games = (
        _game(ir, module, 1, 1)[0],
        _quiet_game(ir, module, 1, 1)[0],  # the round loop
        _phase_by_phase(_game(ir, module, 1, 1)[0]),
    )
    for game in games:
        with pytest.raises(RuleError) as raised:
            game.play()
        # At the phase's call of bump, naming the verb's line it failed at (audit10-ie): the
        # section runners' INLINED table keeps the call of a verb written in place.
        message = str(raised.value)
        flow = str(tmp_path / "race" / "flow.cards")
        said = r"this divides by '\(round - round\)', which is 0"
        assert re.match(rf"{re.escape(flow)}:\d+:\d+: {said}", message), message
        assert f"[in verb bump ({where}:{line}:3), called from " in message, message


#: The race's own rules (its head start and titles), after the verbs.
RULES_TAIL = """\
rule "Head Start" {
  on round_start { gain coins 1 }
}
title "Snail" { max_score 19 }
title "Hare" { min_score 20 }
"""


#: The race with a native that reads a flag of the board (``board_flag``): the race ends when
#: it is set, and a phase runs only while it is not.
FLAG_GAME = GAME.replace(
    '  trigger round_start "the start of a round"',
    '  trigger round_start "the start of a round"\n'
    '  native race_over "the race is called off" { returns bool; board_flag over }',
)
FLAG_FLOW = FLOW.replace(
    "    phase bonus { fire round_start }",
    "    phase bonus { unless race_over() { fire round_start } }",
).replace("  winner highest", "  end when race_over()\n  winner highest")


def test_a_board_flag_native_is_read_in_place_and_ends_the_game(tmp_path: Path) -> None:
    result = compile_text(tmp_path, FLAG_FLOW, RULES_TAIL, game=FLAG_GAME)
    assert result.ir is not None and not errors(result), errors(result)
    text = emit_handlers(result.ir, ["flow.cards"], "race")
    # No Python implements it and nothing calls one: the board is read where it is tested.
    assert "race_over" not in text
    runner = _runner(text)
    # A test reads the flag as it is (no bool made of it first), under 'unless' too.
    assert "if g.board.get('over'):" in runner
    assert "if (not g.board.get('over')):" in runner
    # The round loop reads it through the board's get, bound once a game.
    loop = _runner(text, "round", "loop")
    assert "board_get = g.board.get" in loop
    assert "if board_get('over'):" in loop and "if (not board_get('over')):" in loop
    assert "g.board.get(" not in loop.split("while number <= limit:")[1]
    module = import_handlers(tmp_path / "handlers_flag.py", text)
    for over in (False, True):
        for seed in range(5):
            compiled, _ = _game(result.ir, module, seed, 2)
            looped, _ = _game(result.ir, module, seed, 2)
            for game in (compiled, looped):
                game.board["over"] = over
            played = compiled.play()
            _phase_by_phase(looped).play()
            assert compiled.events == looped.events, (over, seed)
            # Set, the flag ends the race after the setup's phase; unset, all 5 rounds run.
            assert played.reason == ("end_when" if over else "rounds"), (over, seed)
            assert played.rounds == (1 if over else 5), (over, seed)
            # The guarded phase ran (its Head Start coins) only while the flag was unset.
            coins = sum(p.counters["coins"] for p in compiled.players)
            assert (coins > 0) is not over, (over, seed, coins)


@pytest.mark.parametrize(
    ("declaration", "message"),
    [
        (
            "{ param n number; returns bool; board_flag over }",
            "'race_over' reads a board flag: it takes no parameters and returns bool",
        ),
        (
            "{ returns number; board_flag over }",
            "'race_over' reads a board flag: it takes no parameters and returns bool",
        ),
        ("{ returns bool; board_flag }", "'board_flag' names one key of the board"),
        # Its player's counterpart (test_player_flag.py), and the two at once.
        (
            "{ returns number; player_flag tired }",
            "'race_over' reads a flag of the acting player: it takes no parameters and returns "
            "bool",
        ),
        ("{ returns bool; player_flag }", "'player_flag' names one key of the acting player"),
        (
            "{ returns bool; board_flag over; player_flag tired }",
            "'race_over' already reads the board's 'over' (board_flag over): a native reads "
            "one flag",
        ),
    ],
)
def test_a_board_flag_native_is_a_bool_of_no_parameters(
    tmp_path: Path, declaration: str, message: str
) -> None:
    game = FLAG_GAME.replace("{ returns bool; board_flag over }", declaration)
    result = compile_text(tmp_path, FLOW, RULES_TAIL, game=game)
    found = [e for e in errors(result) if e.startswith("bad-board-flag")]
    assert len(found) == 1 and message in found[0], errors(result)
