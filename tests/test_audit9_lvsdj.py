"""audit9 (Land vs Sea, Darwin's Journey): a value several layers change no longer hangs on the
order of their files, a set that still does is told at cardc check, and a designer's new cards
and house rules for both games (tests/data/audit9_*) checked, built, held to their scenarios
and simulated."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import assert_cases_hold, assert_simulates, copy_game, run_scenarios

from compiler.pipeline import compile_game
from dsl.diagnostics import SourceCache

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"

pytestmark = pytest.mark.usefixtures("fresh_file_cache")


# -- Land vs Sea: a designer's layer raising a value City scoring raises too

#: "Every bonus point of a completed area scores 1 more": a designer's layer.
HARBOUR_MARKET = """\
layer "Harbour Market" {
  box uncharted
  on area_completed {
    add bonus_value 1
  }
}
"""

#: The rulebook's City example ("a city tile that completes a land area containing 5 bonus
#: points ... scores 10 rather than 5 bonus points") with the Harbour Market in play too: its
#: raise adds to City scoring's, 3 a bonus point, whichever file answers first.
CITY_AND_MARKET = """\
scenario: the Harbour Market's raise adds to City scoring's, whichever file answers first
rulebook: "the Land player then scores 10 rather than 5 bonus points"
game: land_vs_sea
players: 2
given:
  board:
    - {cell: [0, 0], land: [0, 5], land_bonus: 2}
    - {cell: [1, 0], land: [3, 4], land_bonus: 3}
do:
  - action: place_tile
    player: 1
    args: {cell: [0, 1], tile: {land: [1, 2], city: true}}
expect:
  players:
    - {points: 18}
    - {points: 0}
  events: ["scored player 1 land area tiles 3", "scored player 1 bonus points 15"]
"""


@pytest.mark.parametrize("name", ["harbour.cards", "zz_harbour.cards"])
def test_a_layer_raising_a_value_city_scoring_raises_scores_the_same_in_any_file(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path, name: str
) -> None:
    """City scoring set each value to 2: a designer's layer adding 1 in a file that sorts
    before layers.cards (harbour.cards) was overwritten (10 bonus points), one after it
    (zz_harbour.cards) added to it (15). City scoring raises each value by 1 now."""
    generated = built_copy("land_vs_sea", {name: HARBOUR_MARKET})
    (result,) = run_scenarios(generated, CITY_AND_MARKET, tmp_path / "s.yaml")
    assert result.passed, result.message


#: A designer's layer that sets the value City scoring raises.
GOLDEN_AGE = """\
layer "Golden Age" {
  box uncharted
  on area_completed {
    set bonus_value 3
  }
}
"""


def _warnings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]) -> list:
    """The order-dependent warnings of a copy of Land vs Sea with ``files`` added."""
    folder = copy_game(tmp_path, "land_vs_sea")
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = compile_game(Path("cards") / "land_vs_sea", SourceCache())
    assert result.ir is not None, [str(d) for d in result.diagnostics]
    return [d for d in result.diagnostics if d.code == "order-dependent"]


def test_a_set_of_a_value_another_layer_raises_is_told_at_the_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A set beside City scoring's raise gives 3 in a file after layers.cards and 4 in one
    before it: cardc check says so at the set, names the other card and the files' order, and
    says how to write it whatever the order."""
    (warning,) = _warnings(tmp_path, monkeypatch, {"golden_age.cards": GOLDEN_AGE})
    assert warning.severity == "warning"
    assert warning.span.file.endswith("golden_age.cards")
    assert (warning.span.line, warning.span.column) == (4, 5)
    assert "'add bonus_value 1' in 'City scoring'" in warning.message
    assert "layers.cards" in warning.message
    assert "answer area_completed" in warning.message
    assert (
        "'Golden Age' (cards/land_vs_sea/golden_age.cards) answers before 'City scoring'"
        in warning.message
    )
    assert any("add bonus_value N" in hint for hint in warning.hints)


def test_raises_alone_and_the_shipped_games_are_not_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two layers adding to one value give the same whatever the order: nothing to tell."""
    assert _warnings(tmp_path, monkeypatch, {"harbour.cards": HARBOUR_MARKET}) == []


def test_no_shipped_game_has_an_order_dependent_set() -> None:
    """The four games' cards (City scoring's raises included) are told nothing."""
    for game in ("land_vs_sea", "darwins_journey", "uncharted_passage", "incredible_expeditions"):
        result = compile_game(ROOT / "cards" / game, SourceCache())
        assert [str(d) for d in result.diagnostics if d.code == "order-dependent"] == []


# -- a designer's new cards and house rules, built, held to their cases and simulated


def test_land_vs_sea_new_tiles_and_house_rules_hold_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Lighthouse Point (a tile), Harbour Lights and Smugglers (layers calling a DSL function
    and verb), Quick tides (a phase inserted into the turn, an end condition) and Waypoints
    always (a flow function redefined): 8 cases, and whole greedy games."""
    from engine import sim

    points = assert_cases_hold(
        built_copy,
        "land_vs_sea",
        DATA / "audit9_land_vs_sea",
        ("quick_tides", "waypoints_always"),
        8,
    )
    assert_simulates(points, ("competitive",))
    # "turns_taken() >= 10" ends the game after 10 turns, whatever is left to place.
    report = sim.simulate(points[1], 2, 5, "competitive", "greedy", cards=False)
    assert report.tally.turns == {10: 2}, report.tally.turns


def test_darwins_journey_new_cards_and_house_rules_hold_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """P6 and Treasure Chart (a Crew card and a Special Action tile calling a DSL verb and
    function), Raids first (a phase moved, an end condition) and Treasure dividends (a flow
    verb redefined): 10 cases, and whole greedy games in both modes."""
    points = assert_cases_hold(
        built_copy,
        "darwins_journey",
        DATA / "audit9_darwins_journey",
        ("raids_first", "treasure_dividends"),
        10,
    )
    assert_simulates(points, ("solo", "competitive"))


# -- a filtered list written where an expression goes


def test_a_where_in_an_expression_is_told_where_a_list_is_filtered() -> None:
    """``count(campsite where treasure_at(campsite))`` was "unexpected 'where'" with "expected
    ')', ','": now it says 'where' filters only a loop's or a choose's list, with a loop to
    write."""
    from dsl.parser import parse

    text = (
        'function buried() number "the Campsites holding a Treasure token" = '
        "count(campsite where treasure_at(campsite))\n"
    )
    (found,) = parse(text, "probe.cards").diagnostics
    assert found.code == "where-outside-loop"
    assert (found.span.line, found.span.column) == (1, 84)
    assert "'for each' or a 'choose'" in found.message
    assert any("for each site in campsite where" in hint for hint in found.hints)
