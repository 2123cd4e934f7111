"""The flow as data (README, "The flow"): parsed, checked, lowered, emitted and played.

Each test writes a small game into a temporary folder, compiles it through the real pipeline,
emits its handlers module, imports it and plays it with :class:`engine.flow.FlowGame`.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from compiler.emit_python import emit_handlers
from compiler.ir_schema import validate
from compiler.pipeline import GameResult, compile_game
from dsl.diagnostics import SourceCache
from dsl.formatter import format_text
from dsl.nodes import Flow, FlowSection, FlowSetting, Span
from dsl.parser import parse
from engine.flow import FlowGame, Lookahead, NoFlow
from engine.runtime import HandlerTable, Question, RandomLegal, RuleError

GAME = """\
game race "Race" {
  players 1..4
  score points
  param rounds 5
  counter points, coins
  zone hand
  trigger round_start "the start of a round"
  trigger dock "a ship docks" { param port }
  trigger play "a card is played from the hand"
  kind title "a title earned by the final score" {
    property min_score number optional
    property max_score number optional
  }
  kind card "a card of the deck" {
    property copies number optional
  }
}
"""

RULES = """\
rule "Head Start" {
  on round_start { gain coins 1 }
}
title "Snail" { max_score 19 }
title "Hare" { min_score 20 }
"""

FLOW = """\
# How the race is run.
flow "A race" {
  setup {
    phase start "everyone lines up" { for each p in players { gain points 1 } }
  }
  round rounds {
    phase bonus { fire round_start }
    phase roll "everyone rolls" {
      for each p in players { gain points 1d6 }  # the race itself
    }
  }
  end {
    phase last { for each p in players { score 1 } }
  }
  winner highest
  tiebreak coins
  titles from title
}
"""


def compile_text(tmp_path: Path, flow: str, rules: str = RULES, game: str = GAME) -> GameResult:
    """Compile a folder holding ``game``, ``rules`` and ``flow`` (as flow.cards)."""
    folder = tmp_path / "race"
    folder.mkdir(exist_ok=True)
    (folder / "game.cards").write_text(game, encoding="utf-8")
    (folder / "rules.cards").write_text(rules, encoding="utf-8")
    (folder / "flow.cards").write_text(flow, encoding="utf-8")
    return compile_game(folder, SourceCache())


def errors(result: GameResult) -> list[str]:
    """Each error as 'code file:line:col message | hints'."""
    return [
        f"{d.code} {d.span} {d.message} | {' / '.join(d.hints)}"
        for d in result.diagnostics
        if d.severity == "error"
    ]


def build(tmp_path: Path, flow: str, rules: str = RULES) -> tuple[dict[str, Any], Any, str]:
    """Compile, emit and import; the IR, the generated module and its text."""
    result = compile_text(tmp_path, flow, rules)
    assert result.ir is not None and not errors(result), errors(result)
    text = emit_handlers(result.ir, ["flow.cards"], "race")
    module = import_handlers(tmp_path / f"handlers_{abs(hash((flow, rules)))}.py", text)
    return result.ir, module, text


def import_handlers(path: Path, text: str) -> Any:
    """The generated ``text`` written at ``path`` and imported as a module of that name."""
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def new_game(ir: dict[str, Any], module: Any, seed: int = 1, players: int = 1) -> FlowGame:
    """A fresh flow game over the module's handlers, random legal answers."""
    return FlowGame(
        ir,
        HandlerTable.from_module(module),
        policies={-1: RandomLegal()},
        seed=seed,
        player_count=players,
    )


# -- syntax


def test_a_flow_parses_into_sections_and_settings() -> None:
    parsed = parse(FLOW, "flow.cards")
    assert parsed.ok, parsed.diagnostics
    (flow,) = parsed.file.flows
    assert isinstance(flow, Flow) and flow.title == "A race"
    assert [type(i).__name__ for i in flow.items] == [
        "FlowSection",
        "FlowSection",
        "FlowSection",
        "FlowSetting",
        "FlowSetting",
        "FlowSetting",
    ]
    setup, rounds, end = flow.sections
    assert isinstance(rounds, FlowSection) and rounds.section == "round"
    assert [p.name for p in rounds.phases] == ["bonus", "roll"]
    assert rounds.phases[1].title == "everyone rolls"
    assert rounds.phases[1].span == Span("flow.cards", 8, 5, 10, 6)
    winner = flow.settings[0]
    assert isinstance(winner, FlowSetting) and winner.name == "winner"
    # The flow is apart from the cards: code that walks declarations never meets it.
    assert parsed.file.declarations == ()


def test_setup_end_round_and_turn_stay_plain_names() -> None:
    text = 'x "A" {\n  on setup { gain round 1 }\n  on end { turn 1 }\n  setup 1\n}\n'
    parsed = parse(text, "x.cards")
    assert parsed.ok, parsed.diagnostics
    assert [m.__class__.__name__ for m in parsed.file.declarations[0].body] == [
        "Trigger",
        "Trigger",
        "Property",
    ]


def test_a_section_holds_phases_or_says_so() -> None:
    parsed = parse("flow {\n  setup {\n    step deal { x }\n  }\n}\n", "f.cards")
    (problem,) = parsed.diagnostics
    assert problem.code == "phase-expected" and str(problem.span) == "f.cards:3:5"
    assert problem.hints == ("write: phase deal { ... }",)


def test_the_formatter_lays_out_a_flow_and_keeps_its_comments() -> None:
    messy = FLOW.replace("  setup {", "setup   {").replace("    phase bonus", "        phase bonus")
    formatted = format_text(messy, "flow.cards")
    assert formatted.text == FLOW


# -- checking


def test_phase_bodies_are_checked_like_card_effects(tmp_path: Path) -> None:
    flow = FLOW.replace("gain points 1d6", "gian points 1d6").replace(
        "gain points 1 }", "gain pionts 1 }"
    )
    found = errors(compile_text(tmp_path, flow))
    assert any(
        e.startswith("verb-undefined ") and "flow.cards:9:31" in e and "did you mean 'gain'" in e
        for e in found
    ), found
    assert any(
        e.startswith("name-undefined ") and "flow.cards:4:68" in e and "points" in e for e in found
    ), found


@pytest.mark.parametrize(
    ("edit", "code", "where", "hint"),
    [
        (("phase roll", "phase bonus"), "duplicate-phase", "flow.cards:8:5", "unique"),
        (("round rounds", 'round "many"'), "type-mismatch", "flow.cards:6:9", ""),
        (("round rounds", "round"), "round-count", "flow.cards:6:3", "round rounds"),
        (
            ("fire round_start", "fire round_strat"),
            "name-undefined",
            "flow.cards:7:24",
            "round_start",
        ),
        (("fire round_start", "fire dock"), "fire-needs-params", "flow.cards:7:19", "native"),
        (("gain points 1 }", "gain points self }"), "self-in-flow", "flow.cards:4:75", "card"),
        (("winner highest", "winner biggest"), "winner", "flow.cards:15:3", "highest"),
        (("winner highest", "winer highest"), "setting-unknown", "flow.cards:15:3", "winner"),
        (("titles from title", "titles from titel"), "kind-undefined", "flow.cards:17:15", "title"),
        (("titles from title", "titles from card"), "titles-kind", "flow.cards:17:15", "min_score"),
        (("  end {", "  ending {"), "section-unknown", "flow.cards:12:3", "end"),
        (("tiebreak coins", "end when coins"), "type-mismatch", "flow.cards:16:12", ""),
    ],
)
def test_flow_errors_name_the_place_and_the_fix(
    tmp_path: Path, edit: tuple[str, str], code: str, where: str, hint: str
) -> None:
    assert edit[0] in FLOW
    found = errors(compile_text(tmp_path, FLOW.replace(edit[0], edit[1], 1)))
    mine = [e for e in found if e.startswith(code + " ")]
    assert mine, found
    assert where in mine[0], mine
    assert hint in mine[0].split("|", 1)[1] or hint in mine[0], mine


def test_a_second_flow_is_an_error_at_the_second(tmp_path: Path) -> None:
    rules = RULES + '\nflow "Another" {\n  round 3 { phase x { gain points 1 } }\n}\n'
    found = errors(compile_text(tmp_path, FLOW, rules))
    assert len(found) == 1 and found[0].startswith("duplicate-flow "), found
    assert "rules.cards:7:1 a game has one flow" in found[0]
    assert "flow.cards:2:1" in found[0]


def test_end_when_must_be_a_yes_or_no(tmp_path: Path) -> None:
    flow = FLOW.replace("  winner highest", "  end when round\n  winner highest")
    found = errors(compile_text(tmp_path, flow))
    assert found and found[0].startswith("type-mismatch "), found
    assert "flow.cards:15:12 'end when' needs a yes/no test, not a number" in found[0]


# -- the IR and the module


def test_the_flow_ir_is_valid_and_shaped_as_the_spec_says(tmp_path: Path) -> None:
    result = compile_text(tmp_path, FLOW)
    assert result.ir is not None
    flow = result.ir["flow"]
    assert [s["section"] for s in flow["sections"]] == ["setup", "round", "end"]
    assert flow["sections"][1]["count"] == {"kind": "param", "name": "rounds"}
    assert flow["sections"][1]["phases"][0]["body"][0]["verb"] == "fire"
    assert flow["loc"] == {"file": str(tmp_path / "race" / "flow.cards"), "line": 2, "col": 1}
    assert flow["winner"] == "highest" and flow["titles"] == {"kind": "title"}
    assert flow["tiebreak"] == {"kind": "counter", "name": "coins"}
    fallback = Span("x", 1, 1, 1, 1)
    assert validate(result.ir, {}, fallback) == []
    broken = {**result.ir, "flow": {**flow, "winner": "biggest"}}
    assert validate(broken, {}, fallback), "a bad winner passes the schema"
    no_count = {
        **result.ir,
        "flow": {**flow, "sections": [{"section": "round", "loc": flow["loc"], "phases": []}]},
    }
    assert validate(no_count, {}, fallback), "a round without a count passes the schema"


def test_the_emitted_module_is_the_same_bytes_every_time(tmp_path: Path) -> None:
    ir, module, text = build(tmp_path, FLOW)
    again = compile_text(tmp_path, FLOW)
    assert again.ir is not None
    assert emit_handlers(again.ir, ["flow.cards"], "race") == text
    assert [name for name, _ in module.FLOW["round"]] == ["bonus", "roll"]
    assert module.FLOW["winner"] == "highest" and module.FLOW["titles"] == "title"
    assert "def p_round__roll(g, c):" in text
    assert "# @ " + str(tmp_path / "race" / "flow.cards") + ":9:31" in text


def test_a_game_without_a_flow_emits_none_and_cannot_be_played(tmp_path: Path) -> None:
    result = compile_text(tmp_path, "# no flow yet\n")
    assert result.ir is not None and "flow" not in result.ir
    text = emit_handlers(result.ir, [], "race")
    assert "FLOW = None" in text
    path = tmp_path / "noflow.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("noflow", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(NoFlow, match="declares no flow.*flow \\{"):
        new_game(result.ir, module).play()


# -- playing


def test_a_whole_game_plays_the_same_with_the_same_seed(tmp_path: Path) -> None:
    ir, module, _ = build(tmp_path, FLOW)
    first = new_game(ir, module, seed=7, players=2).play()
    second = new_game(ir, module, seed=7, players=2).play()
    assert first.scores == second.scores and first.winner == second.winner
    assert first.reason == "rounds" and first.rounds == 5 and first.turns == 0
    assert [e["round"] for e in first.logbook[0]] == [1, 2, 3, 4, 5]
    # 1 at setup, 5 rolls of 1d6, 1 at the end.
    assert all(7 <= s <= 32 for s in first.scores)
    others = {tuple(new_game(ir, module, seed=s, players=2).play().scores) for s in range(8)}
    assert len(others) > 1, "the dice never changed the game"


def test_the_winner_ties_tiebreak_and_titles(tmp_path: Path) -> None:
    ir, module, _ = build(tmp_path, FLOW)
    for seed in range(20):
        game = new_game(ir, module, seed=seed, players=2)
        result = game.play()
        scores = result.scores
        coins = [p.counters["coins"] for p in game.players]
        if scores[0] != scores[1]:
            assert result.winner == scores.index(max(scores))
        elif coins[0] != coins[1]:
            assert result.winner == coins.index(max(coins))
        else:
            assert result.winner is None
        for score, title in zip(scores, result.titles, strict=True):
            assert title == ("Hare" if score >= 20 else "Snail")
    # The rule answers the flow's `fire round_start`: a coin a round, for the first seat.
    game = new_game(ir, module, seed=3, players=1)
    game.play()
    assert game.players[0].counters["coins"] == 5


def test_end_when_stops_the_rounds_and_the_end_still_scores(tmp_path: Path) -> None:
    flow = FLOW.replace("  winner highest", "  end when round == 3\n  winner highest")
    ir, module, _ = build(tmp_path, flow)
    game = new_game(ir, module, seed=2)
    result = game.play()
    assert result.reason == "end_when" and result.rounds == 3
    # The end is checked after every phase: round 3's roll never happened.
    rolls = [e for e in game.events if e[0] == "gain" and e[2] == "points"]
    assert len(rolls) == 1 + 2 + 1  # setup, rounds 1 and 2, and the last phase's score
    # A scenario reads the end as the round it came in, not as a player ('end_when player 4'
    # was round 3 read as a seat).
    from engine.scenario import describe_event

    ended = [describe_event(e) for e in game.events if e[0] == "end_when"]
    assert ended == ["end_when round 3"]


def test_end_game_ends_at_once_with_its_reason(tmp_path: Path) -> None:
    flow = FLOW.replace(
        "phase bonus { fire round_start }",
        "phase bonus {\n"
        '      if round == 2 { end_game "the bridge fell" }\n'
        "      fire round_start\n    }",
    )
    ir, module, _ = build(tmp_path, flow)
    game = new_game(ir, module, seed=2)
    result = game.play()
    assert result.reason == "the bridge fell" and result.rounds == 2
    assert game.players[0].counters["coins"] == 1  # round 2's bonus never fired
    assert ("end_game", 0, "the bridge fell") in game.events
    # The round cut short is a line of the logbook: the game lasted 2 rounds, not 1.
    assert [line["round"] for line in result.logbook[0]] == [1, 2]


def test_sim_counts_each_end_game_reason_as_how_the_game_ended(tmp_path: Path) -> None:
    # `cardc sim`'s "end of the game" table: an end_game's reason, else played to the end.
    from engine.sim_tally import PLAYED_OUT, outcome

    flow = FLOW.replace(
        "phase bonus { fire round_start }",
        "phase bonus {\n"
        '      if round == 2 { end_game "the bridge fell" }\n'
        "      fire round_start\n    }",
    )
    (tmp_path / "fell").mkdir()
    (tmp_path / "whole").mkdir()
    ir, module, _ = build(tmp_path / "fell", flow)
    game = new_game(ir, module, seed=2)
    assert outcome(game, game.play(), "solo").end == "the bridge fell"
    ir, module, _ = build(tmp_path / "whole", FLOW)
    game = new_game(ir, module, seed=2)
    result = game.play()
    assert result.reason == "rounds"
    assert outcome(game, result, "solo").end == PLAYED_OUT


def test_sim_tells_a_game_its_end_condition_ended_from_one_played_out(tmp_path: Path) -> None:
    # A house rule racing to a score ("end when points >= 8") ends games early: `cardc sim`
    # says how often, apart from the games played to the last round.
    from engine.sim_tally import ENDED_BY_CONDITION, PLAYED_OUT, outcome

    flow = FLOW.replace("  winner highest", "  end when points >= 8\n  winner highest")
    ir, module, _ = build(tmp_path, flow)
    ends = set()
    for seed in range(1, 9):
        game = new_game(ir, module, seed=seed)
        result = game.play()
        ends.add((result.reason, outcome(game, result, "solo").end))
    assert ("end_when", ENDED_BY_CONDITION) in ends
    # Only an end condition is called one; the rest played every round.
    assert ends <= {("end_when", ENDED_BY_CONDITION), ("rounds", PLAYED_OUT)}


TURNS = """\
flow "Turns" {
  setup { phase deal { build_deck hand } }
  round 2 { phase tick { gain coins 1 } }
  turn {
    phase draw { draw hand 1 }
    phase move { gain points 1; play_one hand }
  }
  winner highest
}
"""

CARDS = """\
card "Lucky Find" {
  copies 4
  on play { gain points 3 }
}
card "Bad Trade" {
  copies 4
  on play { lose points 1 }
}
"""


def test_turns_go_round_the_table_from_the_first_player(tmp_path: Path) -> None:
    ir, module, _ = build(tmp_path, TURNS, CARDS)
    game = new_game(ir, module, seed=5, players=3)
    game.board["first_player"] = 2
    result = game.play()
    assert result.turns == 6 and result.rounds == 2 and result.reason == "rounds"
    order = [e[1] for e in game.events if e[0] == "draw"]
    assert order == [1, 2, 0, 1, 2, 0]
    # `tick` runs once a round, for the first seat.
    assert [p.counters["coins"] for p in game.players] == [2, 0, 0]


def test_the_lookahead_plays_the_card_that_scores(tmp_path: Path) -> None:
    ir, module, _ = build(tmp_path, TURNS.replace("round 2", "round 6"), CARDS)
    game = FlowGame(
        ir, HandlerTable.from_module(module), policies={-1: Lookahead()}, seed=4, player_count=2
    )
    game.play()
    played = [e[2] for e in game.events if e[0] == "play"]
    assert played and set(played) == {"lucky_find"}
    again = FlowGame(
        ir, HandlerTable.from_module(module), policies={-1: Lookahead()}, seed=4, player_count=2
    )
    assert again.play().scores == game.result().scores


def test_the_lookahead_replays_a_long_phase_within_its_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A phase of 60 choices (an Encounter Turn may go on "as long as you like"): each
    # question's replay answers the questions before it, then at most Replay.BUDGET more, and
    # the trial is judged where it stopped.
    from engine import flow as flow_runtime

    replay = flow_runtime.Replay(["yes"])
    question = Question("q", 0, "a choice", ("no", "yes"))
    answers = [replay.decide(None, question) for _ in range(1 + flow_runtime.Replay.BUDGET)]  # type: ignore[arg-type]
    assert answers == ["yes"] + ["no"] * flow_runtime.Replay.BUDGET
    with pytest.raises(flow_runtime.ReplayCut):
        replay.decide(None, question)  # type: ignore[arg-type]

    long_phase = FLOW.replace(
        "phase bonus { fire round_start }", "phase bonus { repeat 60 { may gain points 1 } }"
    ).replace("round rounds", "round 1")
    ir, module, _ = build(tmp_path, long_phase)
    calls = 0
    decide = flow_runtime.Replay.decide

    def counted(self: Any, game: Any, question: Any) -> str:
        nonlocal calls
        calls += 1
        return decide(self, game, question)

    monkeypatch.setattr(flow_runtime.Replay, "decide", counted)
    monkeypatch.setattr(flow_runtime.Replay, "BUDGET", 5)
    game = FlowGame(ir, HandlerTable.from_module(module), policies={-1: Lookahead()}, seed=1)
    game.play()
    # Every "may gain a point" was taken: a trial of "yes" scores more, cut short or not.
    assert sum(1 for e in game.events if e[0] == "gain" and e[2] == "points" and e[3] == 1) >= 60
    # Each of the 2 answers of question q replays q + 1 answers and at most 5 more (replaying
    # each phase to its end would be 2 x 60 answers a question: 7,200).
    assert calls <= sum(2 * (asked + 1 + 5 + 1) for asked in range(60)) < 7200


def test_the_lookahead_gives_a_tie_to_its_guides_pick(tmp_path: Path) -> None:
    # Uncharted Passage's logbook numbers score nothing until the Pirate phase: every answer
    # tied, the lookahead wrote 1, 1, 1 (the first option) and every ship sank. A guide (the
    # game's greedy player) breaks the ties; without one, the first option still does.
    tied = FLOW.replace(
        "phase bonus { fire round_start }", "phase bonus { may { gain points 0 } }"
    ).replace("round rounds", "round 2")
    ir, module, _ = build(tmp_path, tied)

    class Last(RandomLegal):
        def decide(self, game: Any, question: Question) -> str:
            return question.options[-1]

    def taken(lookahead: Lookahead) -> list[tuple[tuple[str, ...], str]]:
        """Each question's options and the lookahead's answer, over one game."""
        decided: list[tuple[tuple[str, ...], str]] = []
        decide = lookahead.decide

        def recording(game: Any, question: Question) -> str:
            answer = decide(game, question)
            decided.append((tuple(question.options), answer))
            return answer

        lookahead.decide = recording  # type: ignore[method-assign]
        FlowGame(ir, HandlerTable.from_module(module), policies={-1: lookahead}, seed=1).play()
        return decided

    unguided, guided = taken(Lookahead()), taken(Lookahead(Last()))
    assert len(unguided) == len(guided) == 2  # one "may" a round, two rounds
    assert all(len(options) == 2 for options, _ in unguided + guided)
    assert [answer for options, answer in unguided] == [options[0] for options, _ in unguided]
    assert [answer for options, answer in guided] == [options[-1] for options, _ in guided]


def test_a_failure_inside_a_phase_is_reported_at_its_dsl_line(tmp_path: Path) -> None:
    flow = FLOW.replace("gain points 1d6", "gain points 1d6 / (round - round)")
    ir, module, _ = build(tmp_path, flow)
    with pytest.raises(RuleError) as raised:
        new_game(ir, module).play()
    where = str(tmp_path / "race" / "flow.cards")
    said = f"{where}:9:31: this divides by '(round - round)', which is 0"
    assert str(raised.value).startswith(said), raised.value


def test_run_phase_and_run_section_for_scenarios(tmp_path: Path) -> None:
    ir, module, _ = build(tmp_path, FLOW)
    game = new_game(ir, module)
    game.run_phase("bonus")
    assert game.players[0].counters["coins"] == 1
    game.run_section("round")
    assert game.players[0].counters["coins"] == 2
    with pytest.raises(RuleError, match="no phase 'bonsu'; did you mean 'bonus'"):
        game.run_phase("bonsu")


@pytest.mark.parametrize(
    ("text", "code", "where"),
    [
        ("flow { setup { deal } }", "flow-phase", "f.cards:1:21"),
        ("flow { setup { phase deal } }", "phase-needs-block", "f.cards:1:27"),
    ],
)
def test_a_broken_flow_says_what_a_section_holds(text: str, code: str, where: str) -> None:
    (problem,) = parse(text, "f.cards").diagnostics
    assert (problem.code, str(problem.span)) == (code, where)
    assert problem.hints and "phase deal" in problem.hints[0]


def test_a_new_game_has_a_flow_that_formats_builds_and_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compiler.cli import main
    from engine import sim

    monkeypatch.chdir(tmp_path)
    assert main(["new", "pebble"]) == 0
    monkeypatch.chdir(tmp_path / "pebble")
    assert (tmp_path / "pebble" / "cards" / "pebble" / "flow.cards").is_file()
    assert main(["fmt", "--check", "cards"]) == 0
    assert main(["build"]) == 0
    played = sim.play_one(tmp_path / "pebble" / "generated" / "pebble", 3, 1, "solo", "random")
    assert played.result.reason == "rounds" and played.result.rounds == 10
    assert played.result.turns == 10
    # The deck is the three copies of Lucky Find, all dealt at setup; what was played left the
    # hand, and the draws of the turns found the deck empty.
    hand = played.game.players[0].zones["hand"]
    plays = [e for e in played.game.events if e[0] == "play"]
    assert plays and len(hand) + len(plays) == 3
    draws = [e for e in played.game.events if e[0] == "draw"]
    assert [len(e[4]) for e in draws] == [3] + [0] * 10


def test_a_game_without_a_flow_is_told_to_declare_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compiler.cli import main
    from engine import sim

    monkeypatch.chdir(tmp_path)
    assert main(["new", "pebble"]) == 0
    (tmp_path / "pebble" / "cards" / "pebble" / "flow.cards").unlink()
    monkeypatch.chdir(tmp_path / "pebble")
    assert main(["build"]) == 0
    with pytest.raises(sim.SimError, match="declares no flow.*'flow \\{ ... \\}'"):
        sim.play_one(tmp_path / "pebble" / "generated" / "pebble", 1)


# -- the compiled section runners (FLOW['run'])


def _phase_by_phase(game: FlowGame) -> FlowGame:
    """The game played as a lookahead's replay plays it: the runtime's own phase loop, each
    phase's function and the end condition's apart (no section runners)."""
    original = game.play

    def play(c: Any = None, card: Any = None) -> Any:
        flow = dict(game.table.module.FLOW)  # type: ignore[union-attr]
        flow["run"] = {}
        game.table.module.FLOW, saved = flow, game.table.module.FLOW  # type: ignore[union-attr]
        try:
            return original(c, card)
        finally:
            game.table.module.FLOW = saved  # type: ignore[union-attr]

    game.play = play  # type: ignore[method-assign]
    return game


def test_the_section_runners_play_the_same_games_as_the_phase_loop(tmp_path: Path) -> None:
    flow = FLOW.replace("  winner highest", "  end when points > 14\n  winner highest")
    ir, module, text = build(tmp_path, flow)
    assert "def run__setup(g, c):" in text and "def run__round(g, c):" in text
    assert "def run__end(g, c):" in text  # the end section too, without the end condition
    assert (
        "'run': {'setup': run__setup, 'round': run__round, 'end': run__end, "
        "'loop': loop__round}," in text
    )
    reasons = set()
    for seed in range(30):
        compiled = new_game(ir, module, seed=seed, players=2)
        looped = _phase_by_phase(new_game(ir, module, seed=seed, players=2))
        first, second = compiled.play(), looped.play()
        assert compiled.events == looped.events, seed
        assert (first.scores, first.winner, first.reason, first.rounds) == (
            second.scores,
            second.winner,
            second.reason,
            second.rounds,
        )
        reasons.add(first.reason)
    assert reasons == {"rounds", "end_when"}, "both ways of ending were played"


def test_a_failure_in_end_when_is_reported_at_its_own_line(tmp_path: Path) -> None:
    flow = FLOW.replace(
        "  winner highest", "  end when points / (round - round) > 1\n  winner highest"
    )
    ir, module, text = build(tmp_path, flow)
    line = flow.split("\n").index("  end when points / (round - round) > 1") + 1
    for game in (new_game(ir, module), _phase_by_phase(new_game(ir, module))):
        with pytest.raises(RuleError) as raised:
            game.play()
        where = str(tmp_path / "race" / "flow.cards")
        said = f"{where}:{line}:3: this divides by '(round - round)', which is 0"
        assert str(raised.value).startswith(said), raised.value


def test_a_game_may_log_each_phase_it_plays(tmp_path: Path) -> None:
    ir, module, _ = build(tmp_path, FLOW)

    class Logged(FlowGame):
        logs_phases = True

    for made in (FlowGame, Logged):
        game = made(ir, HandlerTable.from_module(module), policies={-1: RandomLegal()}, seed=1)
        looped = _phase_by_phase(
            made(ir, HandlerTable.from_module(module), policies={-1: RandomLegal()}, seed=1)
        )
        game.play()
        looped.play()
        phases = [e[2] for e in game.events if e[0] == "phase"]
        assert phases == [e[2] for e in looped.events if e[0] == "phase"]
        if made is Logged:
            assert phases == ["start", *["bonus", "roll"] * 5, "last"]
        else:
            assert phases == []


def test_the_lookahead_judges_a_wide_question_on_an_even_spread_of_its_answers() -> None:
    # Land vs Sea offers about 200 placements a turn; each trial copies the game.
    from engine.flow import _spread

    options = tuple(f"o{i}" for i in range(200))
    spread = _spread(options, Lookahead.WIDTH)
    assert len(spread) == Lookahead.WIDTH and spread[0] == "o0"
    assert list(spread) == sorted(set(spread), key=options.index)  # in order, none twice
    assert spread[-1] in options[-200 // Lookahead.WIDTH :]  # reaches the end of the list
    assert _spread(options[:5], Lookahead.WIDTH) == options[:5]


def test_a_snapshot_shares_what_the_game_names_and_copies_the_rest() -> None:
    # Land vs Sea's tile rotations are worked out once for every game of one IR: a
    # lookahead's trial shares them; its map is its own.
    from engine.loader import new_game

    g = new_game(Path(__file__).resolve().parents[1] / "generated" / "land_vs_sea", players=2)
    assert "_rotations" in type(g).SNAPSHOT_SHARED
    copy_of = g.snapshot()
    for name in type(g).SNAPSHOT_SHARED:
        assert getattr(copy_of, name) is getattr(g, name), name
    assert copy_of.map is not g.map and copy_of.board is not g.board
    assert copy_of.players[0].zones is not g.players[0].zones


def test_the_lookahead_tries_at_most_its_width_of_land_vs_seas_placements(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One Land vs Sea game by the lookahead took minutes: every placement offered was a trial.
    from engine.flow import GameEnded
    from engine.loader import new_game

    trials: list[int] = []
    offered: list[int] = []
    deciding = False
    snapshot, decide = FlowGame.snapshot, Lookahead.decide

    def counted_snapshot(self: FlowGame) -> FlowGame:
        if deciding:  # (a phase's start is snapshotted too, for the lookahead to replay)
            trials[-1] += 1
        return snapshot(self)

    def counted_decide(self: Lookahead, game: Any, question: Question) -> str:
        nonlocal deciding
        if offered and max(offered) > Lookahead.WIDTH:
            raise GameEnded("enough")  # a wide question was decided: the game ends here
        trials.append(0)
        offered.append(len(question.options))
        deciding = True
        try:
            return decide(self, game, question)
        finally:
            deciding = False

    monkeypatch.setattr(FlowGame, "snapshot", counted_snapshot)
    monkeypatch.setattr(Lookahead, "decide", counted_decide)
    folder = Path(__file__).resolve().parents[1] / "generated" / "land_vs_sea"
    g = new_game(folder, players=2, seed=2, policies={-1: Lookahead()})
    g.play()
    assert max(offered) > Lookahead.WIDTH  # the question was wide...
    assert trials == [min(n, Lookahead.WIDTH) for n in offered]  # ...and the trials were not

    # Guided by a player that picks the last answer (outside the spread), it weighs that too.
    class Last(RandomLegal):
        def decide(self, game: Any, question: Question) -> str:
            return question.options[-1]

    trials.clear()
    offered.clear()
    g = new_game(folder, players=2, seed=2, policies={-1: Lookahead(Last())})
    g.play()
    assert trials == [n if n <= Lookahead.WIDTH else Lookahead.WIDTH + 1 for n in offered]


def test_cardc_sims_lookahead_weighs_the_games_own_greedy_pick() -> None:
    # Land vs Sea has a greedy player of its own: `--policy lookahead` is guided by it.
    from engine.sim import Simulator

    simulator = Simulator(Path(__file__).resolve().parents[1] / "generated" / "land_vs_sea")
    game = simulator.new_game(1, 2, "competitive", simulator.factory("greedy"))
    policy = simulator.factory("lookahead")(game, 0)
    assert isinstance(policy, Lookahead) and policy.guide is not None
    assert type(policy.guide) is type(simulator.factory("greedy")(game, 0))


def test_an_end_condition_on_a_players_counter_holds_for_any_player(tmp_path: Path) -> None:
    """'end when points >= 8' in a game for 2 read seat 1's points alone (the rounds' acting
    player): a race the second seat won ran on to the last round. A condition that reads a
    player's counters, tracks or zones holds when it holds for any player; the phase-by-phase
    loop (the lookahead's) and the section runners agree."""
    flow = FLOW.replace("  winner highest", "  end when points >= 8\n  winner highest")
    ir, module, text = build(tmp_path, flow)
    assert "for p_end in g.players" in text
    ended_by_second = 0
    for seed in range(1, 40):
        game = new_game(ir, module, seed=seed, players=2)
        result = game.play()
        first, second = (p.counters["points"] for p in game.players)
        if result.reason == "end_when":
            assert max(first, second) >= 8, seed
            ended_by_second += first < 8 <= second
    assert ended_by_second > 0
