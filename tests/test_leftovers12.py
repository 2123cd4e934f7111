"""Leftovers of the last review, each pinned:

1. A ``lose`` event logged the amount asked, not the amount lost (``lose coins 3`` holding 1
   logged 3); it logs what was lost.
2. A division by 0 in a card's expression was worded as Python's ZeroDivisionError; it is a
   rule error in the game's words, at the card, naming what it divides by and how to guard it.
3. Title bands a house rule moves apart (0..10 and 15..20) left scores 11 to 14 without a
   title, unwarned; ``cardc check`` warns at the band's bound.
4. ``cardc test --variant base`` and ``cardc diff GAME/base`` were refused, though ``cardc sim
   --variant base`` plays the game itself; ``base`` is the game itself everywhere.
5. Land vs Sea's ``draw`` and ``special_tile`` questions with one answer were taken without a
   decision logged; they go through Game.ask, which logs "(the only legal answer)".
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_flow import import_handlers

from compiler.emit_python import emit_handlers
from compiler.pipeline import GameResult, compile_game
from compiler.variants import compile_variant
from dsl.diagnostics import SourceCache
from engine.loader import new_game
from engine.runtime import Context, Game, HandlerTable, IllegalDecision, RuleError, Scripted
from engine.scenario import Runner
from engine.zero_division import _scan

ROOT = Path(__file__).resolve().parent.parent

GAME = """\
game tiny "Tiny" {
  players 1
  score prestige
  counter prestige, coins, ships
  counter speed { min 1; max 6 }
  trigger reveal "a card is revealed"
  kind event "an event" { }
}
"""


def _game(tmp_path: Path, rules: str, game: str = GAME) -> Game:
    folder = tmp_path / "tiny"
    folder.mkdir(exist_ok=True)
    (folder / "game.cards").write_text(game, encoding="utf-8")
    (folder / "rules.cards").write_text(rules, encoding="utf-8")
    result = compile_game(folder, SourceCache())
    assert result.ir is not None, [str(d) for d in result.diagnostics]
    text = emit_handlers(result.ir, ["rules.cards"], "tiny")
    module = import_handlers(tmp_path / f"handlers_l12_{abs(hash(text))}.py", text)
    return Game(result.ir, HandlerTable.from_module(module), policies={-1: Scripted(())})


# -- 1. lose logs what was lost


def test_lose_logs_what_was_lost_not_what_was_asked(tmp_path: Path) -> None:
    game = _game(
        tmp_path,
        'event "Storm" {\n  on reveal {\n    lose coins 3\n    lose speed 4\n'
        "    lose prestige 2\n  }\n}\n",
    )
    player = game.players[0]
    player.counters.update(coins=1, speed=3, prestige=5)
    game.run("storm", "reveal")
    assert (player.counters["coins"], player.counters["speed"]) == (0, 1)
    assert [e for e in game.events if e[0] == "lose"] == [
        ("lose", 0, "coins", 1),  # held 1 of the 3 asked
        ("lose", 0, "speed", 2),  # Speed never goes below its minimum, 1
        ("lose", 0, "prestige", 2),  # held enough: all of it
    ]


def test_the_engines_lose_logs_nothing_lost_from_an_empty_counter(tmp_path: Path) -> None:
    game = _game(tmp_path, 'event "Calm" { on reveal { gain coins 0 } }\n')
    player = game.players[0]
    game.lose(Context(player, "", "reveal"), "coins", 5)
    assert game.events[-1] == ("lose", 0, "coins", 0)


# -- 2. a division by 0, in the game's words


def test_a_division_by_zero_in_a_card_names_the_divisor_and_the_guard(tmp_path: Path) -> None:
    game = _game(tmp_path, 'event "Market" {\n  on reveal {\n    gain coins 6 / ships\n  }\n}\n')
    with pytest.raises(RuleError) as raised:
        game.run("market", "reveal")
    message = str(raised.value)
    where = tmp_path / "tiny" / "rules.cards"
    assert message == (
        f"{where}:3:5: this divides by 'ships', which is 0 here: a number divided by 0 (with "
        "'/' or '%') has no value; guard it with 'if ships > 0 { ... }', or divide by "
        "max(ships, 1)"
    )
    assert "ZeroDivisionError" not in message
    # A card's bug, not a rule refusing a move: no scenario may expect it as a refusal.
    assert getattr(raised.value, "internal", False) is True


def test_a_division_by_zero_in_a_verb_is_at_the_cards_call(tmp_path: Path) -> None:
    game = _game(
        tmp_path,
        "function share(total number, among number) number = total % among\n"
        'event "Market" {\n  on reveal {\n    gain coins share(7, ships - ships)\n  }\n}\n',
    )
    with pytest.raises(RuleError) as raised:
        game.run("market", "reveal")
    where = tmp_path / "tiny" / "rules.cards"
    message = str(raised.value)
    assert message.startswith(f"{where}:4:5: this divides by 'among', which is 0 here"), message
    assert f"[in function share ({where}:1:1), called from Market's 'on reveal'" in message


def test_the_divisors_are_read_as_written() -> None:
    assert _scan("gain coins total / count(hand) + 2") == ["count(hand)"]
    assert _scan("if a / (b - c) > d % site.tent_sites { gain coins 1 }") == [
        "(b - c)",
        "site.tent_sites",
    ]
    # Not in a string, not in a comment, not in the block after the statement.
    assert _scan('say "1/2" # a / b') == []
    assert _scan("if x > 1 { gain coins 1 / y }") == []
    assert _scan("score coins / -n") == ["-n"]


# -- 3. title bands that leave scores without a title

TITLES_GAME = """\
game tiny "Tiny" {
  players 1
  score prestige
  counter prestige
  kind title "a title earned by the final score" {
    property min_score number optional
    property max_score number optional
  }
}
"""

FLOW = """\
flow "One round" {
  round 1 {
    phase earn { gain prestige 1 }
  }
  winner highest
  titles from title
}
"""


def _titles(tmp_path: Path, titles: str) -> GameResult:
    folder = tmp_path / "tiny"
    folder.mkdir(exist_ok=True)
    (folder / "game.cards").write_text(TITLES_GAME, encoding="utf-8")
    (folder / "flow.cards").write_text(FLOW, encoding="utf-8")
    (folder / "titles.cards").write_text(titles, encoding="utf-8")
    return compile_game(folder, SourceCache())


def _warnings(result: GameResult) -> list[str]:
    return [
        f"{d.span.line}:{d.span.column} {d.message} | {' / '.join(d.hints)}"
        for d in result.diagnostics
        if d.code == "title-gap" and d.severity == "warning"
    ]


def test_a_gap_between_title_bands_is_warned_at_the_band_above(tmp_path: Path) -> None:
    result = _titles(
        tmp_path,
        'title "Deckhand" { min_score 0; max_score 10 }\n'
        'title "Captain" { min_score 15; max_score 20 }\n'
        'title "Admiral" { min_score 21 }\n',
    )
    assert result.ir is not None  # a warning: the game still builds
    assert _warnings(result) == [
        "2:19 scores 11 to 14 earn no title: Deckhand ends at 10 and Captain starts at 15 | "
        "set max_score 14 on Deckhand, or min_score 11 on Captain, so that every score "
        "between earns a title"
    ]


def test_bands_that_touch_or_overlap_leave_no_gap(tmp_path: Path) -> None:
    result = _titles(
        tmp_path,
        'title "Deckhand" { max_score 10 }\n'
        'title "Mate" { min_score 11; max_score 16 }\n'
        'title "Captain" { min_score 15; max_score 20 }\n'
        'title "Admiral" { min_score 21 }\n',
    )
    assert result.ir is not None
    assert _warnings(result) == []


def test_a_house_rules_gap_is_warned_at_its_yaml_line(tmp_path: Path) -> None:
    """Uncharted Passage's "Legendary from 55" with the Historic band left ending at 50."""
    path = tmp_path / "legendary_from_55.yaml"
    text = "description: Legendary from 55\ncards:\n  legendary_explorer: {min_score: 55}\n"
    result, _ = compile_variant(ROOT / "cards" / "uncharted_passage", path, SourceCache(), text)
    found = [d for d in result.diagnostics if d.code == "title-gap"]
    assert [(d.span.file, d.span.line, d.span.column, d.severity) for d in found] == [
        (str(path), 3, 24, "warning")
    ]
    # The solo titles only: the co-op ones (tagged coop) are bands of their own.
    assert found[0].message == (
        "scores 51 to 54 earn no title (the titles tagged solo): Historic Explorer ends at 50 "
        "and Legendary Explorer starts at 55"
    )


# -- 4. 'base' is the game itself


def _cardc(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-P", "-m", "compiler.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def test_test_variant_base_runs_the_game_itself_whatever_the_scenario_names() -> None:
    runner = Runner(ROOT / "generated", variant="base")
    doc: dict[str, Any] = {"game": "uncharted_passage", "variant": "harsher_sea"}
    assert runner.folder(Path("s.yaml"), doc) == ROOT / "generated" / "uncharted_passage"
    # Any other --variant still replaces the scenario's.
    other = Runner(ROOT / "generated", variant="thirteen_months")
    assert other.folder(Path("s.yaml"), doc).name == "thirteen_months"


def test_cardc_test_variant_base_is_accepted() -> None:
    scenarios = "tests/scenarios/land_vs_sea/leftovers12.yaml"
    ran = _cardc("test", "--variant", "base", scenarios)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "2 of 2 scenarios passed" in ran.stdout


def test_cardc_diff_game_slash_base_is_the_base_game() -> None:
    named = _cardc("diff", "uncharted_passage/base", "uncharted_passage/harsher_sea")
    plain = _cardc("diff", "uncharted_passage", "uncharted_passage/harsher_sea")
    assert named.returncode == 0, named.stderr
    assert named.stdout == plain.stdout
    assert "the base game -> harsher_sea" in named.stdout


def test_a_variant_cannot_be_named_base(tmp_path: Path) -> None:
    assert _cardc("new", "pond", cwd=tmp_path).returncode == 0
    made = _cardc("variant", "new", "pond/base", cwd=tmp_path / "pond")
    assert made.returncode == 2
    assert "'base' names the game itself" in made.stderr
    assert not (tmp_path / "pond" / "cards" / "pond" / "variants" / "base.yaml").exists()
    assert not list(tmp_path.rglob("base.yaml"))


# -- 5. Land vs Sea's one-answer questions are logged as decisions


def test_land_vs_sea_logs_a_draw_from_the_one_stack_left() -> None:
    game: Any = new_game(ROOT / "generated" / "land_vs_sea", 2, seed=1)
    game.run_section("setup")
    player = game.players[0]
    game.hand(player).clear()
    for stack in game.stacks[1:]:
        stack.clear()
    tops = [held.card for held in game.stacks[0][: int(game.params.get("hand_size", 1))]]
    mark = len(game.events)
    game.draw_tiles(player)
    # Each tile of the hand drawn from the one stack left: a decision, then the draw.
    expected: list[tuple[Any, ...]] = []
    for card in tops:
        expected += [("decision", 0, "draw", "1", "(the only legal answer)"), ("drew", 0, card)]
    assert tops and game.events[mark:] == expected


def test_a_script_naming_another_stack_than_the_one_left_is_refused() -> None:
    game: Any = new_game(ROOT / "generated" / "land_vs_sea", 2, seed=1)
    game.run_section("setup")
    player = game.players[0]
    game.hand(player).clear()
    for stack in game.stacks[1:]:
        stack.clear()
    game.policies = {-1: Scripted([("draw", "2")])}
    with pytest.raises(IllegalDecision, match="'2' is not a legal answer"):
        game.draw_tiles(player)


def test_land_vs_sea_scenarios_of_the_one_answer_questions_pass() -> None:
    results = list(
        Runner(ROOT / "generated").run_file(
            Path("tests/scenarios/land_vs_sea/leftovers12.yaml")
            if Path.cwd() == ROOT
            else ROOT / "tests/scenarios/land_vs_sea/leftovers12.yaml"
        )
    )
    assert len(results) == 2
    assert all(r.passed for r in results), [r.message for r in results if not r.passed]


def test_a_variant_file_named_base_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "base.yaml"
    result, _ = compile_variant(
        ROOT / "cards" / "uncharted_passage", path, SourceCache(), "description: x\n"
    )
    assert [
        (d.code, d.severity, d.message) for d in result.diagnostics if d.code == "variant-name"
    ] == [
        (
            "variant-name",
            "error",
            "'base' names the game itself (cardc sim --variant base), not a variant",
        )
    ]


def test_the_divisor_is_read_from_the_project_when_run_in_a_subfolder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Positions are relative to the project (cards/GAME/...): read beside generated/GAME/."""
    project = tmp_path / "proj"
    folder = project / "cards" / "tiny"
    folder.mkdir(parents=True)
    (folder / "game.cards").write_text(GAME, encoding="utf-8")
    (folder / "rules.cards").write_text(
        'event "Market" {\n  on reveal { gain coins 6 / (ships * 2) }\n}\n', encoding="utf-8"
    )
    monkeypatch.chdir(project)
    result = compile_game(Path("cards/tiny"), SourceCache())
    assert result.ir is not None, [str(d) for d in result.diagnostics]
    text = emit_handlers(result.ir, ["rules.cards"], "tiny")
    (project / "generated" / "tiny").mkdir(parents=True)
    module = import_handlers(project / "generated" / "tiny" / "handlers_l12_sub.py", text)
    (project / "tests").mkdir()
    monkeypatch.chdir(project / "tests")
    game = Game(result.ir, HandlerTable.from_module(module), policies={-1: Scripted(())})
    with pytest.raises(
        RuleError,
        match=r"^cards/tiny/rules\.cards:2:15: this divides by "
        r"'\(ships \* 2\)', which is 0 here",
    ):
        game.run("market", "reveal")
