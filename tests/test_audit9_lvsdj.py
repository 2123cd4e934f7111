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
    # golden_age.cards answers before layers.cards: City scoring's raise comes after the set.
    assert warning.message.endswith(
        "here a card answering after this set changes bonus_value again"
    )
    (later,) = _warnings(tmp_path / "b", monkeypatch, {"zz_golden_age.cards": GOLDEN_AGE})
    assert later.message.endswith(
        "here this set answers last, so what the others did to bonus_value is lost"
    )


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


# -- the greedy weighs a designer's layer that raises what each bonus point scores


def test_the_greedy_weighs_a_layer_raising_the_bonus_value(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """README: the greedy weighs a designer's layer answering area_completed "by running that
    layer's handler on a trial placement". A layer raising ``bonus_value`` scores through the
    flow, not in its handler, and was never tried (its handler does more than score), so the
    greedy saw nothing in it. A trial now reads the raise back: the completer's bonus points at
    the raised value, as the placement then scores them."""
    import importlib
    from typing import Any

    from engine import sim
    from engine.hexgrid import Hex

    folder = built_copy("land_vs_sea", {"harbour.cards": HARBOUR_MARKET}) / "land_vs_sea"
    simulator = sim.Simulator(folder)
    game: Any = simulator.new_game(
        sim.game_seed(1, 1), 2, "competitive", simulator.factory("greedy")
    )
    package = type(game).__module__.rsplit(".", 1)[0]
    policy = importlib.import_module(f"{package}.policy")
    board = importlib.import_module(f"{package}.board")
    game.put_tile((1, 0), board.Tile.split([3], land_bonus=3))
    game.put_tile((1, -1), board.Tile.split([4]))
    closing = board.Tile.split([0, 1])
    land, sea = game.player_for("land"), game.player_for("sea")
    trials = policy.Trials.of(game)
    assert trials is not None
    assert {card for card, _ in trials.completed} == {"harbour_market"}
    layers = dict(game.value_layers)
    # The 3 bonus points at 1 more each, for the placer's side, whoever places it.
    assert trials.points(game, land, Hex(0, 0), closing) == 3
    assert trials.points(game, sea, Hex(0, 0), closing) == 3
    assert game.value_layers == layers  # a trial changes nothing of the game
    before = [p.counters["points"] for p in game.players]
    game.put_placed(land, Hex(0, 0), closing)
    game.score_placement(land)
    # 3 tiles and 3 bonus points at 2 each: the raise is the 3 the trial read.
    assert game.players[land.index].counters["points"] - before[land.index] == 3 + 3 * 2


# -- the points per layer of a raised value are each raising layer's, whatever the file order

#: "Each Caravan and Ship of a trade route won scores 1 more": a designer's layer.
TRADE_FAIR = """\
layer "Trade Fair" {
  box uncharted
  on route_scored {
    add icon_value 1
  }
}
"""


@pytest.mark.parametrize("prefix", ["", "zz_"])
def test_each_layer_raising_a_value_is_credited_its_own_raise_in_any_file_order(
    built_copy: Callable[[str, dict[str, str]], Path], prefix: str
) -> None:
    """The simulator's points per layer credited all the points scored at a raised value to the
    layer that changed it last: City scoring's or the designer's by the files' order. Each
    layer now has what it added: the base game (or Caravan & Ship scoring) 1 each, City
    scoring 1 each, the designer's layer 1 each."""
    import importlib
    from typing import Any

    from engine import sim

    files = {f"{prefix}harbour.cards": HARBOUR_MARKET, f"{prefix}fair.cards": TRADE_FAIR}
    folder = built_copy("land_vs_sea", files) / "land_vs_sea"
    simulator = sim.Simulator(folder)
    game: Any = simulator.new_game(
        sim.game_seed(1, 1), 2, "competitive", simulator.factory("greedy")
    )
    package = type(game).__module__.rsplit(".", 1)[0]
    board = importlib.import_module(f"{package}.board")
    # The rulebook's City example: a land area of 3 tiles and 5 bonus points, a City on it.
    game.put_tile((0, 0), board.Tile.split([0, 5], land_bonus=2))
    game.put_tile((1, 0), board.Tile.split([3, 4], land_bonus=3))
    land = game.player_for("land")
    game.points_by.clear()
    game.put_placed(land, (0, 1), board.Tile.split([1, 2], city=True))
    game.score_placement(land)
    assert game.points_by == {"base_game": 3 + 5, "city_scoring": 5, "harbour_market": 5}
    # The trade route example: 3 Ships and 1 Caravan beside a City, won by Sea.
    for r, icons in ((-4, {"ships": 1}), (-3, {"caravans": 1}), (-2, {"ships": 1})):
        game.put_tile((5, r), board.Tile.split([0, 1, 3, 4], **icons))
    game.put_tile((5, -1), board.Tile.split([0, 1, 3, 4], ships=1, city=True))
    game.points_by.clear()
    game.score_trade_routes()
    assert game.points_by == {
        "caravan_and_ship_scoring": 4,
        "city_scoring": 4,
        "trade_fair": 4,
    }


def test_a_where_after_a_loops_order_is_told_to_come_first() -> None:
    """``for each p in players by coins where coins > 2``: the filter after the order, told
    where it goes (not that a 'where' stands only in a loop, which it does)."""
    from dsl.parser import parse

    text = (
        'rule "R" {\n  on reward_phase_end {\n'
        "    for each p in players by coins where coins > 2 { gain coins 1 }\n  }\n}\n"
    )
    (found,) = parse(text, "probe.cards").diagnostics
    assert found.code == "where-outside-loop"
    assert (found.span.line, found.span.column) == (3, 36)
    assert "right after the list of the 'for each', before its 'by'" in found.message
    assert any("where coins > 2 by coins" in hint for hint in found.hints)


# -- a house rule starting from a flow verb as the game writes it


@pytest.mark.parametrize("game", ["land_vs_sea", "darwins_journey"])
def test_every_dsl_verb_and_function_redefined_as_it_is_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    """A designer's house rule starts from the game's own verb (README: "One with the name of
    a DSL definition the game already has replaces it"). Each verb and function of the game's
    files, copied into a variant's ``verbs:`` unchanged, must check: Land vs Sea's
    score_placement, surround_waypoint and score_trade_routes printed their announcements'
    descriptions ("the raw name 'tile_placed'", 'waypoint_value', 'icon_value' ...), and
    Darwin's Journey's unlock_diary was told "'1 times' (one of a plural noun)" of the product
    "minus 1 times 1"."""
    from test_variant_hardening import run

    from dsl.parser import parse

    folder = copy_game(tmp_path, game)
    monkeypatch.chdir(tmp_path)
    names = []
    for path in sorted(folder.glob("*.cards")):
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        for definition in parse(text, str(path)).file.definitions:
            span = definition.span
            body = "\n".join("  " + line for line in lines[span.line - 1 : span.end_line])
            (folder / "variants" / f"same_{definition.name}.yaml").write_text(
                f"description: the game's own {definition.name}\nverbs: |\n{body}\n",
                encoding="utf-8",
            )
            names.append(definition.name)
    assert len(names) >= 10
    status, out = run(capsys, "check", f"cards/{game}")
    assert status == 0, out
    assert "error" not in out.split("checked")[0], out


#: "A Waypoint in a completed area scores 1 more": a designer's layer raising the Waypoint's
#: value alone.
PILGRIM_INNS = """\
layer "Pilgrim Inns" {
  box uncharted
  on area_completed {
    add waypoint_value 1
  }
}
"""


def test_a_waypoint_raised_alone_is_credited_to_its_own_layer(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Two layers each raising one value to 2 (the bonus points', the Waypoint's): the
    Waypoint's points were credited to the layer raising the bonus points (the first value at
    2), the flow's reason ("waypoint") not read."""
    import importlib
    from typing import Any

    from engine import sim

    files = {"harbour.cards": HARBOUR_MARKET, "inns.cards": PILGRIM_INNS}
    folder = built_copy("land_vs_sea", files) / "land_vs_sea"
    simulator = sim.Simulator(folder)
    game: Any = simulator.new_game(
        sim.game_seed(1, 1), 2, "competitive", simulator.factory("greedy")
    )
    board = importlib.import_module(f"{type(game).__module__.rsplit('.', 1)[0]}.board")
    game.put_tile((0, 0), board.Tile.split([0, 5], land_bonus=2))
    game.put_tile((0, 1), board.Tile.split([1, 2]))
    land = game.player_for("land")
    game.place_waypoint(land, (0, 0), 0)
    game.points_by.clear()
    game.put_placed(land, (1, 0), board.Tile.split([3, 4], land_bonus=3))
    game.score_placement(land)
    # 3 tiles, 5 bonus points and the Waypoint at 1 each; 5 more for the Harbour Market, 1
    # more for the Pilgrim Inns.
    assert game.points_by == {"base_game": 3 + 5 + 1, "harbour_market": 5, "pilgrim_inns": 1}
