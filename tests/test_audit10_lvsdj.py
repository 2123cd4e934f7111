"""audit10 (Land vs Sea, Darwin's Journey): a question with one legal answer is answered
without asking (every game), Land vs Sea's greedy policy weighs Waypoints from the data, and a
variant removing a layer that another layer requires."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from probing import run_scenarios

from engine.runtime import Context, Game, IllegalDecision, Policy, Question, Scripted

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"

pytestmark = pytest.mark.usefixtures("fresh_file_cache")


# -- 1. a question with one legal answer is not asked


class Refusing(Policy):
    """A policy that fails the test if it is ever asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def decide(self, game: Game, question: Question) -> str:
        """Record the question; answer the first option."""
        self.asked.append(question.id)
        return question.options[0]


def _game(policy: Policy) -> Game:
    from engine.loader import new_game

    return new_game(GENERATED / "darwins_journey", players=1, policies={-1: policy})


def test_a_question_with_one_answer_is_answered_without_asking_and_logged() -> None:
    policy = Refusing()
    game = _game(policy)
    player = game.players[0]
    only = Question("navigate.spaces", 0, "Move how many spaces?", ("1",))
    assert game.ask(player, only) == "1"
    assert policy.asked == []
    assert game.events[-1] == ("decision", 0, "navigate.spaces", "1", "(the only legal answer)")
    # Two answers, a real choice: asked.
    two = Question("navigate.spaces", 0, "Move how many spaces?", ("2", "1"))
    assert game.ask(player, two) == "2"
    assert policy.asked == ["navigate.spaces"]


def test_a_may_is_always_asked() -> None:
    policy = Refusing()
    game = _game(policy)
    context = Context(game.players[0], "", "test")
    assert game.may(context, "flow.test.may1", "move the Pirate Ship") is True
    assert policy.asked == ["flow.test.may1"]


def test_a_script_naming_the_question_answers_it_and_a_bare_answer_waits() -> None:
    named = Scripted([("navigate.spaces", "1"), ("lane", "upper")])
    game = _game(named)
    player = game.players[0]
    assert game.ask(player, Question("navigate.spaces", 0, "Move?", ("1",))) == "1"
    assert named.used == 1
    bare = Scripted([(None, "upper")])
    game = _game(bare)
    assert game.ask(game.players[0], Question("navigate.spaces", 0, "Move?", ("1",))) == "1"
    assert bare.used == 0  # left for the question that is asked
    assert game.ask(game.players[0], Question("lane", 0, "Lane?", ("upper", "lower"))) == "upper"
    assert bare.used == 1


def test_a_scripted_answer_the_only_answer_does_not_allow_is_refused() -> None:
    game = _game(Scripted([("navigate.spaces", "2")]))
    with pytest.raises(IllegalDecision, match="need not script it"):
        game.ask(game.players[0], Question("navigate.spaces", 0, "Move?", ("1",)))


#: The modelled Sailor moves the Ship 1 space: "Move how many spaces? [1]".
SAILOR = """\
scenario: A Ship moved 1 space by the Sailor onto a Campsite, its only move unscripted
rulebook: >-
  When a Ship or Explorer lands on or passes a Campsite location, they will
  either take the Treasure token or move the Pirate Ship
game: darwins_journey
given:
  treasure_on: [bahia]
  player:
    counters: {ship_space: 3, coins: 0}
choices:
%s  - discovering_treasure.campsite_reached.take_treasure_or_move_pirate_ship: take_treasure
  - offer_tent.verb.tent: no
do:
  - action: use_crew
    args: {crew: sailor}
expect:
  player:
    counters: {ship_space: 4, coins: 3, treasure: 1}
  events: ["decision player 1 navigate.spaces 1 (the only legal answer)"]
"""


@pytest.mark.parametrize(
    ("line", "passes", "says"),
    [
        ("", True, ""),
        ("  - navigate.spaces: 1\n", True, ""),
        ("  - navigate.spaces: 2\n", False, "need not script it"),
    ],
)
def test_a_scenario_may_leave_out_the_only_answer_or_keep_it(
    tmp_path: Path, line: str, passes: bool, says: str
) -> None:
    (result,) = run_scenarios(GENERATED, SAILOR % line, tmp_path / "s.yaml")
    assert result.passed is passes, result.message
    assert says in result.message


# -- 2. Land vs Sea's greedy weighs Waypoints from the data


def _team_game(folder: Path = GENERATED / "land_vs_sea") -> tuple[Any, Any, Any]:
    """A 4 player team game (Waypoints in play: "used as recommended in a 4 player team
    game"), with nothing on the map yet, and its policy and board modules."""
    import importlib

    from engine.sim import Simulator, game_seed

    simulator = Simulator(folder)
    game: Any = simulator.new_game(game_seed(1, 1), 4, "competitive", simulator.factory("greedy"))
    package = type(game).__module__.rsplit(".", 1)[0]
    return (
        game,
        importlib.import_module(f"{package}.policy"),
        importlib.import_module(f"{package}.board"),
    )


def _land_area_closing_at_origin(game: Any, board: Any, city: bool = False) -> Any:
    """A land area of two tiles whose open edges face (0, 0), and the tile that closes it
    there: (1, 0)'s land edge 3 and (1, -1)'s land edge 4 meet its land edges 0 and 1."""
    game.put_tile((1, 0), board.Tile.split([3], land_bonus=3, city=city))
    game.put_tile((1, -1), board.Tile.split([4]))
    return board.Tile.split([0, 1])


@pytest.mark.parametrize("city", [False, True])
def test_the_greedy_values_a_placement_completing_an_area_with_a_waypoint(city: bool) -> None:
    """ "Waypoints score 2 points each (rather than 1) when they are scored by completing the
    areas they are in": the greedy saw no Waypoint, so a placement returning one was worth what
    it was worth without it."""
    from engine.hexgrid import Hex

    game, policy, board = _team_game()
    closing = _land_area_closing_at_origin(game, board, city)
    land = game.player_for("land")
    without = policy.placement_value(game, "land", Hex(0, 0), closing)
    game.place_waypoint(land, (1, 0), 3)
    worth = policy.placement_value(game, "land", Hex(0, 0), closing)
    waypoint = 2 if city else 1
    assert worth - without == policy.POINT_WEIGHT * waypoint
    # The placement scores it so: returned, and the waypoint_value for the placer.
    before = land.counters["points"]
    game.put_placed(land, Hex(0, 0), closing)
    game.score_placement(land)
    assert game.waypoints == {}
    bonus = 3 * (2 if city else 1)
    assert land.counters["points"] - before == 3 + bonus + waypoint


def test_the_greedy_values_a_placement_surrounding_a_waypoint() -> None:
    """ "...or by surrounding them with 6 tiles": the 6th tile round a Waypoint's space scores
    it for the placer."""
    from engine.hexgrid import Hex, neighbour, neighbours

    game, policy, board = _team_game()
    space = Hex(0, 0)
    around = neighbours(space)
    for cell in around[:5]:
        game.put_tile(cell, board.Tile.sea())
    sea = game.player_for("sea")
    # The Waypoint on the edge of the tile at around[0] facing the space.
    (direction,) = [d for d in range(6) if neighbour(around[0], d) == space]
    last = board.Tile.sea()
    without = policy.placement_value(game, "sea", around[5], last)
    game.place_waypoint(sea, around[0], direction)
    assert policy.placement_value(game, "sea", around[5], last) - without == policy.POINT_WEIGHT
    before = sea.counters["points"]
    game.put_placed(sea, around[5], last)
    game.score_placement(sea)
    assert game.waypoints == {}
    assert sea.counters["points"] - before == 1


#: A designer's layer: every Waypoint scores 2 more, completed or surrounded.
BEACONS = """\
layer "Beacons" {
  box uncharted
  on area_completed {
    add waypoint_value 2
  }
  on waypoint_surrounded {
    add waypoint_value 2
  }
}
"""


def test_the_greedy_weighs_a_layer_raising_the_waypoint_value(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """The greedy weighs a designer's layer raising ``bonus_value`` by a trial (audit9); one
    raising ``waypoint_value`` was not weighed at all. The raise is read back from the
    window, and the trial changes nothing of the game."""
    from engine.hexgrid import Hex

    folder = built_copy("land_vs_sea", {"beacons.cards": BEACONS}) / "land_vs_sea"
    game, policy, board = _team_game(folder)
    trials = policy.Trials.of(game)
    assert trials is not None
    assert {card for card, _ in trials.completed} == {"beacons"}
    assert {card for card, _ in trials.surrounded} == {"beacons"}
    closing = _land_area_closing_at_origin(game, board)
    land = game.player_for("land")
    without = policy.placement_value(game, "land", Hex(0, 0), closing)
    game.place_waypoint(land, (1, 0), 3)
    layers = dict(game.value_layers)
    worth = policy.placement_value(game, "land", Hex(0, 0), closing)
    assert worth - without == policy.POINT_WEIGHT * 3
    assert game.value_layers == layers and game.waypoints
    before = land.counters["points"]
    game.put_placed(land, Hex(0, 0), closing)
    game.score_placement(land)
    assert land.counters["points"] - before == 3 + 3 + 3


def test_the_greedy_places_a_waypoint_where_it_would_score_most() -> None:
    """It placed every Waypoint on the first open edge offered; with City scoring in play an
    area with a City makes a Waypoint worth 2, and the greedy now puts it there."""
    game, policy, board = _team_game()
    assert game.in_play("city_scoring")
    game.put_tile((0, 0), board.Tile.split([0, 1, 2]))
    game.put_tile((3, 0), board.Tile.split([0, 1, 2], city=True))
    land = game.player_for("land")
    options = ("none", *(f"{c.q},{c.r}:{d}" for c, d in game.waypoint_edges(land)))
    first, city = options[1], "3,0:0"
    assert first.startswith("0,0:") and city in options
    assert policy.Greedy.waypoint(game, land, options) == city
    assert policy.Greedy().decide(game, Question("waypoint", land.index, "", options)) == city


def test_the_greedy_turn_weighs_waypoints_as_placement_value_does() -> None:
    """The turn's own weighing (sets of cells, closing and surrounding cells weighed one by
    one) picks what weighing each placement with placement_value picks, with the greedy's
    Waypoints on the map, and some placement scores one."""
    import importlib

    from engine.sim import Simulator, game_seed

    simulator = Simulator(GENERATED / "land_vs_sea")
    scored = turns = 0
    for seed in (1, 2):
        game: Any = simulator.new_game(
            game_seed(seed, 1), 4, "competitive", simulator.factory("greedy")
        )
        policy = importlib.import_module(f"{type(game).__module__.rsplit('.', 1)[0]}.policy")
        game.run_section("setup")
        for turn in range(40):
            player = game.players[turn % 4]
            found = game.options(player)
            if not found:
                break
            game.offered = found
            side = game.side_of(player)
            options = tuple(found)
            values = [policy.placement_value(game, side, *found.lookup(o)[2:]) for o in options]
            answer = policy.Greedy.placement(game, side, found)
            assert answer == options[values.index(max(values))], (seed, turn)
            index, _face, cell, tile = found.lookup(answer)
            game.hand(player).pop(index)
            game.put_placed(player, cell, tile)
            mark = len(game.events)
            game.score_placement(player)
            scored += sum(1 for e in game.events[mark:] if "waypoint" in map(str, e))
            game.choose_waypoint(player)
            game.draw_tiles(player)
            turns += bool(game.waypoints)
    assert turns > 40 and scored > 0


# -- 3. a variant removing a layer removes the layers that require it

#: A designer's layer played only with Caravan & Ship scoring, as Bandit & Pirate scoring is.
SMUGGLERS = """\
layer "Smugglers" {
  box uncharted
  requires caravan_and_ship_scoring
  on route_joined {
    score 1
  }
}
"""


def _variant_diagnostics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: str | None = None
) -> list[Any]:
    """``cardc check``'s diagnostics of a copy of Land vs Sea with the Smugglers layer (and
    ``variant`` written as variants/house.yaml)."""
    from probing import copy_game

    from compiler.checking import check_paths
    from dsl.diagnostics import SourceCache

    folder = copy_game(tmp_path, "land_vs_sea")
    (folder / "smugglers.cards").write_text(SMUGGLERS, encoding="utf-8")
    if variant is not None:
        (folder / "variants" / "house.yaml").write_text(variant, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return check_paths([Path("cards/land_vs_sea/game.cards")], None, SourceCache()).diagnostics


def test_a_variant_removing_a_required_layer_removes_the_layer_requiring_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shipped inexperienced mix removes Caravan & Ship scoring: a designer's new layer
    that requires it failed the check of a variant the designer never touched ("'caravan_and_
    ship_scoring' is removed by the variant ..., but it is still named here", at the layer).
    The mix is now without it too, as it is without Bandit & Pirate scoring, and a warning at
    the removal's YAML line says so and what to add to say it in the variant."""
    found = _variant_diagnostics(tmp_path, monkeypatch)
    assert [d for d in found if d.severity == "error"] == []
    (warning,) = [d for d in found if d.code == "removed-with"]
    assert warning.severity == "warning"
    assert warning.span.file.endswith("variants/inexperienced.yaml")
    text = (tmp_path / "cards/land_vs_sea/variants/inexperienced.yaml").read_text()
    assert text.splitlines()[warning.span.line - 1].strip() == "- caravan_and_ship_scoring"
    assert "also removes 'smugglers', which needs it" in warning.message
    assert "smugglers.cards:3" in warning.message
    assert warning.hints == (
        "say so in the variant: add '- smugglers' under remove:, or keep "
        "'caravan_and_ship_scoring'",
    )


def test_a_variant_saying_so_gets_no_warning_and_one_adding_a_needing_layer_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    said = "remove:\n  - caravan_and_ship_scoring\n  - bandit_and_pirate_scoring\n  - smugglers\n"
    found = _variant_diagnostics(tmp_path, monkeypatch, said)
    assert not [d for d in found if "house.yaml" in d.span.file]
    added = (
        "remove:\n  - caravan_and_ship_scoring\n  - bandit_and_pirate_scoring\n  - smugglers\n"
        'add: |\n  layer "Raiders" {\n    box uncharted\n'
        "    requires caravan_and_ship_scoring\n  }\n"
    )
    errors = [
        d
        for d in _variant_diagnostics(tmp_path / "again", monkeypatch, added)
        if d.severity == "error"
    ]
    assert errors and all("house.yaml" in d.span.file for d in errors)
    assert any("caravan_and_ship_scoring" in d.message for d in errors)


def test_needs_stands_beside_a_names_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from probing import copy_game

    from compiler.pipeline import compile_game
    from dsl.diagnostics import SourceCache

    folder = copy_game(tmp_path, "land_vs_sea")
    game = folder / "game.cards"
    text = game.read_text(encoding="utf-8")
    wanted = "property requires name optional { names layer; needs }"
    assert wanted in text
    game.write_text(text.replace(wanted, "property requires name optional { needs }"), "utf-8")
    monkeypatch.chdir(tmp_path)
    found = compile_game(Path("cards/land_vs_sea"), SourceCache()).diagnostics
    assert any(
        d.code == "bad-property" and "its 'names' line names, and there is none" in d.message
        for d in found
    )
