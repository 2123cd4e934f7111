"""A second, independent tester's Land vs Sea: Uncharted, written from the rulebook
(/work/shared/rulebooks/land-vs-sea-uncharted.txt) and the README alone: new tiles, layers,
rules, functions and verbs over the standard library's hexes and majorities
(tests/data/audit2_land_vs_sea/cards.cards), five house rules, three of them reaching the flow
(tests/data/audit2_land_vs_sea/variants/), each played by a scenario that shows its difference
and simulated, and the card text a library call prints. Each runs ``cardc`` in process on a
copy of the game. (The rule cases are tests/scenarios/land_vs_sea/audit2_rules.yaml.)
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from probing import (
    check_build_test,
    copied_project,
    copy_game,
    printed_texts,
    run_scenarios,
    scenario_copy,
)
from test_variant_hardening import run

DATA = Path(__file__).resolve().parent / "data" / "audit2_land_vs_sea"
GAME = "land_vs_sea"
VARIANTS = ("two_a_turn", "short_game", "sea_legs", "shared_routes", "no_steal")

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary project with a copy of the game, the current directory."""
    return copied_project(tmp_path, monkeypatch, GAME)


def with_library(project: Path) -> Path:
    """The copied game with the new cards and the library modules they use (hexes,
    majorities), as a designer adds them: `use` in the game block."""
    game = project / "cards" / GAME
    text = (game / "game.cards").read_text(encoding="utf-8")
    (game / "game.cards").write_text(
        text.replace("  score points\n", "  score points\n  use hexes, majorities\n", 1),
        encoding="utf-8",
    )
    shutil.copy(DATA / "cards.cards", game / "audit2.cards")
    return game


def scenario_file(project: Path, source: Path) -> Path:
    """A copy of a data file of scenarios among the copied project's scenarios."""
    return scenario_copy(project, GAME, source)


def test_new_cards_over_the_library_check_build_and_play(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with_library(project)
    check_build_test(capsys, project, GAME, DATA / "cards.yaml", 7)


def test_house_rules_check_build_play_their_difference_and_simulate(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in VARIANTS:
        shutil.copy(DATA / "variants" / f"{name}.yaml", project / "cards" / GAME / "variants")
    check_build_test(capsys, project, GAME, DATA / "variants.yaml", 7)
    lengths = {}
    for name in (None, *VARIANTS):
        extra = ["--variant", name] if name else []
        status, out = run(
            capsys, "sim", GAME, *extra, "--games", "3", "--seed", "1", "--no-cards", "--json"
        )
        assert status == 0, out
        report = json.loads(out)
        assert report["games"] == 3
        lengths[name] = report["length"]["mean"]
    # Two placements a turn place the same tiles in about half the rounds.
    assert lengths["two_a_turn"] < lengths[None] * 0.6


# -- a library native or verb in a card's text

LIBRARY_CARDS = """\
layer "Stone Circle scoring" {
  box uncharted
  on tile_placed {
    if has_menhir(placed) {
      for each cell in hex_neighbours(placed) where has_menhir(cell) {
        score 1
      }
    }
  }
}
layer "Crown of the Map" {
  box uncharted
  on game_end {
    for each seat in players where has_majority(points) {
      score 5
    }
  }
}
"""


def test_a_library_call_is_said_in_words_on_the_printed_card(tmp_path: Path) -> None:
    """A card calling a standard-library native printed its docstring, capital and full stop
    included, with the values in brackets after it: "for each cell in The six cells around a
    cell, in direction order. (the placed tile)", "every player for whom True when the acting
    player alone has the most of a counter. (point)"."""
    folder = with_library(copy_game(tmp_path, GAME).parent.parent)
    (folder / "audit2.cards").write_text(LIBRARY_CARDS, encoding="utf-8")
    said = printed_texts(folder, {"audit2.cards"})
    # wording6: the loop's item said once ("for each cell in the six cells around ...").
    assert "for each cell around the placed tile where" in (said["Stone Circle scoring"])
    assert (
        "every player who has more points than any other player: score 5 points"
        in (said["Crown of the Map"])
    )


def test_every_library_function_has_words_naming_its_parameters() -> None:
    import importlib
    import re

    from engine.stdlib.registry import LIBRARY

    for module in ("counters", "decks", "dice", "graphs", "hexes", "majorities", "markets"):
        importlib.import_module(f"engine.stdlib.{module}")
    importlib.import_module("engine.stdlib.tiles")
    importlib.import_module("engine.stdlib.zones")
    for module, specs in LIBRARY.items():
        for spec in specs.values():
            assert spec.words, f"{module}.{spec.name} has no words for a card's text"
            named = set(re.findall(r"\{(\w+)\}", spec.words))
            # Every parameter without a default is said; none that is not a parameter.
            assert named <= {p.name for p in spec.params}, spec.name
            assert {p.name for p in spec.params if p.default is None} <= named, spec.name


def test_words_naming_no_parameter_are_refused_when_declared() -> None:
    from engine.stdlib.registry import native

    with pytest.raises(ValueError, match=r"name \{cel\}, which is no parameter"):

        @native("cell any", returns="list", words="the cells round {cel}")
        def misnamed(g: object, c: object, cell: object) -> list[object]:
            """Cells."""
            return []


def test_a_game_never_built_is_not_said_to_have_changed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With a second game beside it built by no one, `cardc test` said "generated/ is stale:
    incredible_expeditions (or cardc itself) changed since the last 'cardc build'"."""
    copy_game(project, "incredible_expeditions")
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    status, out = run(capsys, "test", str(scenario_file(project, DATA / "cards.yaml")))
    assert status == 2
    assert "generated/ is stale: incredible_expeditions never built" in out
    assert "changed since" not in out


@pytest.mark.parametrize(
    "value, hint",
    [
        ("stacks: 0", "set stacks to 1 or more"),
        ("hand_size: -2", "set hand_size to 1 or more"),
        ("uncharted_tiles: 5", "set uncharted_tiles to 1 or 0"),
    ],
)
def test_a_counting_param_out_of_its_range_is_an_error_at_the_variants_line(
    project: Path, capsys: pytest.CaptureFixture[str], value: str, hint: str
) -> None:
    """A house rule's ``params: {stacks: 0}`` or ``{hand_size: -2}`` checked and played on
    without a word (a game of no placement)."""
    (project / "cards" / GAME / "variants" / "odd.yaml").write_text(
        f"description: odd\nparams: {{{value}}}\n", encoding="utf-8"
    )
    status, out = run(capsys, "check")
    assert status == 1
    assert f"cards/{GAME}/variants/odd.yaml:2:" in out
    assert f"param {value.split(':')[0]} is {value.split(': ')[1]}, but it" in out
    assert f"hint: {hint}" in out


LAP_BONUS = """\
rule "Lap Bonus" {
  on passed_score_track_end {
    score 5
  }
}
"""

LAPS = """\
scenario: on the rulebook's track the Lap Bonus scores 5 once for the pass
rulebook: "When you pass the end of the score track, take a +50 points token"
game: land_vs_sea
players: 2
given:
  players:
    - {points: 45}
    - {}
do:
  - action: score
    player: 1
    args: {amount: 6}
expect:
  players:
    - {points: 56, plus_50_tokens: 1}
    - {}
---
scenario: on a 5-space track each Lap Bonus passes the end again, without end
rulebook: "When you pass the end of the score track, take a +50 points token"
game: land_vs_sea
variant: lap
players: 2
do:
  - action: score
    player: 1
    args: {amount: 6}
expect:
  refused: "'on passed_score_track_end' sets itself off again while it runs"
"""


def test_a_rule_setting_itself_off_without_end_is_a_rule_error_at_its_line(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    """A rule scoring 5 each time the end of a 5-space score track is passed passes it again
    each time: it failed with Python's RecursionError."""
    generated = built_copy(
        GAME,
        {
            "lap.cards": LAP_BONUS,
            "variants/lap.yaml": "description: a short track\nparams: {score_track: 5}\n",
        },
    )
    results = run_scenarios(generated, LAPS, tmp_path / "laps.yaml")
    assert [r.message for r in results if not r.passed] == []
    assert len(results) == 2


def test_sim_holds_a_param_it_overrides_to_the_games_checks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``cardc sim --param stacks=0`` played its games without a word, where a variant's
    ``params: {stacks: 0}`` is an error at ``cardc check``."""
    status, out = run(capsys, "sim", GAME, "--param", "stacks=0", "--games", "1")
    assert status != 0
    assert "--param stacks=0: param stacks is 0, but it counts the stacks" in out
    status, out = run(capsys, "sim", GAME, "--param", "stacks=2", "--games", "1", "--no-cards")
    assert status == 0, out
