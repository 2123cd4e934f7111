"""A game made with ``cardc new`` and grown as a designer who read only the README grows it:
what such a designer wrote first and what went wrong for them, each kept as a case.

- a DSL verb or function written inside the game block is told where it goes;
- a native's usage in a hint is a call, ``most_of(COUNTER)``;
- a DSL verb's values read as one number on the sheet (``bet 1`` of ``stake * 2``);
- the generic greedy player plays a card that gains now and scores later, rather than pass;
- a scenario runs a phase or a section of any game's flow (``action: phase``/``section``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.cli import main
from dsl.parser import parse
from engine import sim

GAME = """\
game dice_duel "Dice Duel" {
  use dice, majorities
  players 1..4
  score victory_points
  param rounds 6 @provisional("a test game's length")
  counter victory_points, coins, gems
  zone hand
  trigger play "when a card is played from the hand"
  trigger round_end "the end of each round" { fires_for rule }
  kind card "a card of the deck" { property copies number optional }
}

verb bet(stake number) "bet coins on a die" {
  pay coins stake
  if roll(1d6) >= 4 { gain coins stake * 2 }
}

function gem_value() number "what the gems are worth" = gems * 2 + coins % 3
"""

CARDS = """\
card "Gem Mine" {
  copies 4
  on play { gain gems 1 }
}
card "Gambler" {
  copies 2
  on play { bet 1 }
}
rule "Gem Majority" {
  on round_end {
    if has_majority(gems) { score 1 }
  }
}
"""

FLOW = """\
flow "Dice Duel" {
  setup {
    phase deal { build_deck hand; for each p in players { draw hand 3 } }
  }
  round rounds {
    phase bookkeeping { for each p in players { fire round_end } }
  }
  turn {
    phase draw { draw hand 1 }
    phase play { play_one hand }
  }
  end {
    phase gems { for each p in players { score gem_value() } }
  }
  winner highest
}
"""


def _project(root: Path, game: str = GAME, cards: str = CARDS) -> Path:
    folder = root / "cards" / "dice_duel"
    folder.mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\nscenarios = "tests/scenarios"\n'
    )
    (folder / "game.cards").write_text(game)
    (folder / "cards.cards").write_text(cards)
    (folder / "flow.cards").write_text(FLOW)
    return folder


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    _project(tmp_path)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_verb_with_a_body_inside_the_game_block_is_told_where_it_goes() -> None:
    text = (
        'game g "G" {\n  counter coins\n  verb bet(stake number) "bet" {\n'
        "    pay coins stake\n  }\n}\n"
    )
    found = parse(text, "g.cards").diagnostics
    assert [d.code for d in found] == ["definition-inside-block"]
    (only,) = found
    assert (only.span.line, only.span.column) == (3, 3)
    assert "top level" in only.message
    assert 'verb bet "what it does" { param amount number }' in only.hints[0]


def test_a_function_inside_the_game_block_is_one_error_not_two() -> None:
    text = 'game g "G" {\n  counter gems\n  function worth() number "w" = gems * 2\n}\n'
    found = parse(text, "g.cards").diagnostics
    # Its '=' is not reported as a stray character besides.
    assert [d.code for d in found] == ["definition-inside-block"]
    assert "native worth" in found[0].hints[0]


def test_a_verb_without_parameters_inside_the_game_block(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `verb sample() "x" { ... }` parses as a declaration; the vocabulary tells it apart.
    game = GAME.replace("  zone hand\n", '  zone hand\n  verb sample() "x" { pay coins 1 }\n')
    _project(tmp_path, game=game)
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert "error[definition-inside-block]" in text
    assert "game.cards:8:3" in text
    assert "expected-name" not in text  # one error, not a second about the same line


def test_a_natives_usage_is_written_as_a_call(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(tmp_path, cards=CARDS.replace("has_majority(gems)", 'has_majority("gems")'))
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 1
    out = capsys.readouterr()
    assert "usage: has_majority(COUNTER)" in out.out + out.err


def test_a_dsl_verbs_values_read_as_one_number_on_the_sheet(project: Path) -> None:
    assert main(["build"]) == 0
    assert main(["sheets", "dice_duel", "--format", "md", "--out", "sheet"]) == 0
    text = "\n".join(p.read_text() for p in (project / "sheet").rglob("*.md"))
    assert "Gambler" in text
    assert "1 times" not in text
    assert "gain 2 coins" in text.lower()


def test_the_generic_greedy_player_plays_a_card_that_scores_later(project: Path) -> None:
    # Gem Mine gains a gem now and scores at the end: a lookahead that looked at the score
    # alone passed every turn and scored less than random.
    assert main(["build"]) == 0
    folder = project / "generated" / "dice_duel"
    played = sim.play_one(folder, 1, 1, "solo", "greedy")
    plays = [e for e in played.game.events if e[0] == "play"]
    assert any(e[2] == "gem_mine" for e in plays)
    greedy = sim.simulate(sim.Simulator(folder), 60, 1, "solo", "greedy")
    random = sim.simulate(sim.Simulator(folder), 60, 1, "solo", "random")
    assert greedy.mean > random.mean


def test_a_scenario_runs_a_phase_or_a_section_of_a_new_games_flow(project: Path) -> None:
    scenarios = project / "tests" / "scenarios" / "dice_duel"
    scenarios.mkdir(parents=True)
    (scenarios / "flow.yaml").write_text(
        """\
scenario: final scoring counts the gems
game: dice_duel
players: 2
given:
  players:
    - counters: {gems: 2, coins: 4}
    - counters: {gems: 1}
do:
  - action: phase
    args: {name: gems}
expect:
  players:
    - counters: {victory_points: 5}
    - counters: {victory_points: 2}
---
scenario: the end section is the final scoring
game: dice_duel
players: 2
given:
  players:
    - counters: {gems: 3}
    - counters: {coins: 5}
do:
  - action: section
    args: {name: end}
expect:
  players:
    - counters: {victory_points: 6}
    - counters: {victory_points: 2}
"""
    )
    assert main(["build"]) == 0
    assert main(["test"]) == 0


def test_a_wrong_phase_or_section_is_named_at_its_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenarios = project / "tests" / "scenarios" / "dice_duel"
    scenarios.mkdir(parents=True)
    (scenarios / "wrong.yaml").write_text(
        """\
scenario: a phase misspelt
game: dice_duel
do:
  - action: phase
    args: {name: gem}
  - action: section
    args: {name: ending}
expect:
  player:
    counters: {victory_points: 0}
"""
    )
    assert main(["build"]) == 0
    assert main(["test"]) == 1
    out = capsys.readouterr().out
    assert "wrong.yaml:5:18: 'gem' is not a phase of the flow; did you mean 'gems'?" in out
    assert "wrong.yaml:7:18: 'ending' is not a section this flow has" in out
    assert "did you mean 'end'?" in out


def test_cardc_sim_says_when_it_plays_the_last_builds_rules(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A designer edits a card and simulates: the figures are the last build's, so sim says so.
    assert main(["build"]) == 0
    capsys.readouterr()
    assert main(["sim", "dice_duel", "--games", "4", "--jobs", "1", "-q"]) == 0
    assert "stale" not in capsys.readouterr().err
    cards = project / "cards" / "dice_duel" / "cards.cards"
    cards.write_text(cards.read_text().replace("gain gems 1", "gain gems 2"))
    assert main(["sim", "dice_duel", "--games", "4", "--jobs", "1", "-q"]) == 0
    err = capsys.readouterr().err
    assert "cardc sim: warning: generated/ is stale: dice_duel" in err
    assert "run 'cardc build' first" in err


def test_both_definitions_inside_the_game_block_are_worded_in_one_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The parser (a verb with parameters) and the vocabulary (one without, read as a
    declaration) say the same thing, from dsl.parser.definition_inside_block."""
    from dsl.parser import definition_inside_block

    text = (
        'game g "G" {\n  counter coins\n  verb bet(stake number) "bet" {\n'
        "    pay coins stake\n  }\n}\n"
    )
    (parsed,) = parse(text, "g.cards").diagnostics
    assert (parsed.message, parsed.hints) == definition_inside_block("verb", "bet")
    game = GAME.replace("  zone hand\n", '  zone hand\n  verb sample() "x" { pay coins 1 }\n')
    _project(tmp_path, game=game)
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 1
    out = capsys.readouterr()
    message, (hint,) = definition_inside_block("verb", "sample")
    assert f"error[definition-inside-block]: {message}" in out.out + out.err
    assert hint in " ".join((out.out + out.err).split())
