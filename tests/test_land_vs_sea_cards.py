"""Land vs Sea: Uncharted: the rulebook's worked examples, through the generated handlers.

Every test builds its board explicitly, places a tile (or scores) through the game class, and
checks the points. Player 1 is the Land player, player 2 the Sea player. Rulebook:
/work/shared/rulebooks/land-vs-sea-uncharted.txt.
"""

from __future__ import annotations

import importlib
import textwrap
from collections.abc import Iterable
from pathlib import Path

import pytest

from engine.hexgrid import ORIGIN, Hex, neighbour, opposite
from engine.loader import new_game, rules_module
from engine.runtime import RuleError
from engine.scenario import Runner

_natives = rules_module("land_vs_sea")
_board = importlib.import_module(f"{_natives.__package__}.board")
LAND, SEA, Section, Tile = _board.LAND, _board.SEA, _board.Section, _board.Tile
area_at, hole_side, ley_lines_formed = _board.area_at, _board.hole_side, _board.ley_lines_formed
route_at = _board.route_at
LandVsSea = importlib.import_module(f"{_natives.__package__}.game").LandVsSea

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "generated"


def new(players: int = 2, layers: tuple[str, ...] | None = None) -> LandVsSea:
    """A fresh game through the real pipeline, with nothing on the board."""
    g = new_game(GENERATED / "land_vs_sea", players=players)
    assert isinstance(g, LandVsSea)
    g.layers = layers
    return g


def board(g: LandVsSea, tiles: Iterable[tuple[tuple[int, int], Tile]]) -> None:
    """Put tiles down as the board stands before the example's placement."""
    for cell, tile in tiles:
        g.put_tile(cell, tile)


def points(g: LandVsSea) -> tuple[int, int]:
    """(Land, Sea) points."""
    land, sea = g.players
    return land.counters["points"], sea.counters["points"]


def test_players_alternate_land_and_sea() -> None:
    g = new()
    assert [g.side_of(p) for p in g.players] == [LAND, SEA]


# -- Menhir scoring ------------------------------------------------------------------------
# Rows run along direction 0 (q grows); all tiles are all-land so every edge matches.

M = Tile.land(menhir=True)


def test_filling_the_last_gap_between_two_menhirs_forms_a_ley_line() -> None:
    # "Example: The Sea player places a tile in a gap between 2 Menhirs, forming a Ley line
    #  that scores 5 bonus points."
    g = new()
    board(g, [((0, 0), M), ((1, 0), Tile.land(2)), ((3, 0), Tile.land(1)), ((4, 0), M)])
    land, sea = g.players
    placement = g.place_tile(sea, (2, 0), Tile.land(2))
    assert points(g) == (0, 5)
    assert [line.menhirs for line in placement.ley_lines] == [(Hex(0, 0), Hex(4, 0))]


def test_a_menhir_placed_scores_the_bonus_points_between_it_and_the_aligned_menhir() -> None:
    # "The Land player places a Menhir that aligns with another Menhir along a row of several
    #  tiles. The 3 tiles between them form a Ley line and the player scores all 6 bonus
    #  points between the 2 Menhirs." Bonus points on the Menhir tiles are not "in-between".
    g = new()
    board(
        g,
        [
            ((0, 0), Tile.land(4, menhir=True)),
            ((1, 0), Tile.land(1)),
            ((2, 0), Tile.land(2)),
            ((3, 0), Tile.land(3)),
        ],
    )
    land, _sea = g.players
    g.place_tile(land, (4, 0), Tile.land(1, menhir=True))
    assert points(g) == (6, 0)


def test_a_menhir_aligned_on_two_axes_scores_both_ley_lines() -> None:
    # "If you place a Menhir tile that aligns with more than 1 other Menhir on complete rows of
    #  tiles across 2 or more different axes, score all the bonus points between all such
    #  aligned Menhirs. Example: ... scores 6 points and 5 points for a total of 11."
    g = new()
    board(
        g,
        [
            # along direction 0
            ((1, 0), Tile.land(4)),
            ((2, 0), Tile.land(2)),
            ((3, 0), M),
            # along direction 2
            ((0, -1), Tile.land(3)),
            ((0, -2), Tile.land(2)),
            ((0, -3), M),
        ],
    )
    land, _sea = g.players
    placement = g.place_tile(land, ORIGIN, M)
    assert points(g) == (11, 0)
    assert sorted(line.axis for line in placement.ley_lines) == [0, 2]


def test_a_ley_line_stops_at_the_first_menhir() -> None:
    # "each Ley line stops at the first Menhir they align with ... Example: The sea player
    #  places a Menhir on the other side of a ley line that has already been scored. They
    #  only score the 3 bonus points in between the Menhir they placed and the first Menhir
    #  it aligns with on that row."
    g = new()
    board(
        g,
        [
            ((0, 0), M),
            ((1, 0), Tile.land(2)),
            ((2, 0), Tile.land(2)),  # the ley line scored before: 4 points
            ((3, 0), M),
            ((4, 0), Tile.land(1)),
            ((5, 0), Tile.land(1)),
            ((6, 0), Tile.land(1)),
        ],
    )
    _land, sea = g.players
    g.place_tile(sea, (7, 0), M)
    assert points(g) == (0, 3)


def test_a_menhir_placed_between_two_distant_menhirs_scores_both_ley_lines() -> None:
    # "However, you may place a Menhir between 2 other distant Menhirs on the same row to
    #  score both Ley lines formed."
    g = new()
    board(g, [((0, 0), M), ((1, 0), Tile.land(2)), ((3, 0), Tile.land(3)), ((4, 0), M)])
    land, _sea = g.players
    placement = g.place_tile(land, (2, 0), Tile.land(5, menhir=True))
    # 2 and 3 between the Menhirs; the placed Menhir's own 5 lie on no ley line.
    assert points(g) == (5, 0)
    assert len(placement.ley_lines) == 2


def test_no_ley_line_across_a_gap() -> None:
    # "you align 2 Menhirs across a complete row of tiles between them": a gap means no line,
    # until "a complete row of tiles is formed between them".
    g = new()
    board(g, [((0, 0), M), ((1, 0), Tile.land(2)), ((3, 0), Tile.land(3))])
    land, sea = g.players
    g.place_tile(land, (4, 0), M)
    assert points(g) == (0, 0)
    # Filling one of two gaps still leaves a gap.
    g2 = new()
    board(g2, [((0, 0), M), ((1, 0), Tile.land(2)), ((4, 0), M)])
    g2.place_tile(g2.players[1], (2, 0), Tile.land(3))
    assert points(g2) == (0, 0)
    # The last gap filled completes it: 2 + 3 + 4.
    g2.place_tile(g2.players[1], (3, 0), Tile.land(4))
    assert points(g2) == (0, 9)


def test_menhir_scoring_only_when_the_layer_is_in_play() -> None:
    # "Decide on the scoring layers you want to play with": without Menhir scoring, none.
    g = new(layers=("city_scoring",))
    board(g, [((0, 0), M), ((1, 0), Tile.land(2))])
    g.place_tile(g.players[0], (2, 0), M)
    assert points(g) == (0, 0)


# -- City scoring: bonus points and Waypoints -------------------------------------------------
# A triangle of three tiles whose land sections face each other: the land area closes when the
# third is placed; each tile's sea section faces open cells.

A, B, C = (0, 0), (1, 0), (0, 1)
LAND_EDGES = {A: (0, 5), B: (3, 4), C: (1, 2)}


def triangle(cell: tuple[int, int], land_bonus: int = 0, city: bool = False) -> Tile:
    """The triangle's tile at ``cell``."""
    return Tile.split(LAND_EDGES[cell], land_bonus=land_bonus, city=city)


def test_without_a_city_the_base_game_scores_tiles_and_bonus_points() -> None:
    # Base game (the rulebooks' README): "completing an area scores 1 point per tile in it for
    # that area's side (land or sea), and the completing player scores the bonus points".
    g = new()
    board(g, [(A, triangle(A, 2)), (B, triangle(B, 3))])
    g.place_tile(g.players[0], C, triangle(C))
    assert points(g) == (3 + 5, 0)


def test_a_city_doubles_the_bonus_points_of_the_land_area_it_overlaps() -> None:
    # "The Land player places a city tile that completes a land area containing 5 bonus
    #  points. As usual they score 3 points, 1 for each of the 3 tiles ... the Land player
    #  then scores 10 rather than 5 bonus points because the city icon overlaps that
    #  completed land area."
    g = new()
    board(g, [(A, triangle(A, 2)), (B, triangle(B, 3))])
    placement = g.place_tile(g.players[0], C, triangle(C, city=True))
    assert points(g) == (3 + 10, 0)
    assert [area.side for area in placement.completed] == [LAND]


def test_several_cities_in_one_area_double_its_bonus_points_once() -> None:
    # "Multiple cities connected to an area or trade route do not add any additional points.
    #  No matter how many cities are connected to an area or trade route, its points values
    #  are only increased once."
    g = new()
    board(g, [(A, triangle(A, 2, city=True)), (B, triangle(B, 3, city=True))])
    g.place_tile(g.players[0], C, triangle(C, city=True))
    assert points(g) == (3 + 10, 0)


def test_a_city_doubles_only_the_area_it_overlaps() -> None:
    # "The Land player places a tile completing both a sea overlapped by a city, and a land
    #  area adjacent to but not overlapped by a city. Sea scores 5 points for the 5 sea tiles
    #  ... Then the Land player scores 10 rather than 5 bonus points for the sea area ... The
    #  Land player also scores 4 points for the land area B they completed, but just the 3
    #  bonus points in it as normal, because the adjacent city does not overlap this
    #  completed land area."
    #
    # Sea area A runs west along r = 0 into the placed tile's west edge; land area B runs
    # south along q = 0 from its south-east edge. The city is on the sea tile next to the
    # placed one, straddling that tile's sea and (open) land.
    g = new()
    board(
        g,
        [
            ((-4, 0), Tile.split((1, 2, 3, 4, 5), sea_bonus=1)),
            ((-3, 0), Tile.split((1, 2, 4, 5))),
            ((-2, 0), Tile.split((1, 2, 4, 5), sea_bonus=2)),
            ((-1, 0), Tile.split((1, 2, 4, 5), sea_bonus=2, city=True)),
            ((0, 1), Tile.split((2, 5))),
            ((0, 2), Tile.split((2, 5), land_bonus=3)),
            ((0, 3), Tile.split((2,))),
        ],
    )
    placed = Tile(
        (
            Section(SEA, frozenset({3})),
            Section(LAND, frozenset({5})),
            Section(SEA, frozenset({0, 1, 2, 4})),
        )
    )
    placement = g.place_tile(g.players[0], ORIGIN, placed)
    assert sorted((a.side, len(a.cells)) for a in placement.completed) == [(LAND, 4), (SEA, 5)]
    assert points(g) == (10 + 4 + 3, 5)


def lost_city_hole(g: LandVsSea, sea_bonus: int) -> None:
    """Six tiles round the origin, each with one sea edge facing it: a hole of sea edges."""
    tiles = []
    for direction in range(6):
        facing = opposite(direction)
        land = [e for e in range(6) if e != facing]
        bonus = sea_bonus if direction == 0 else 0
        tiles.append((neighbour(ORIGIN, direction), Tile.split(land, sea_bonus=bonus)))
    board(g, [((cell.q, cell.r), tile) for cell, tile in tiles])


def test_the_lost_city_doubles_the_sea_area_it_is_part_of() -> None:
    # "when you make a hole in the map, i.e. a space surrounded by 6 of the same type of
    #  edges ... you may choose any 1 of the currently available special tiles". The Lost
    #  City "only increase[s] bonus point and Waypoint scores in the matching land OR sea area
    #  they are part of."
    g = new()
    lost_city_hole(g, sea_bonus=2)
    assert hole_side(g.tiles, ORIGIN) == SEA
    g.place_tile(g.players[0], ORIGIN, g.special_tile("lost_city", SEA))
    # 7 sea tiles for Sea; 2 bonus points doubled for the Land player who completed it.
    assert points(g) == (4, 7)


def test_the_lost_city_does_not_raise_the_land_beside_it() -> None:
    # "These only increase bonus point and Waypoint scores in the matching land OR sea area
    #  they are part of": the ring's land touches the Lost City's tile but is not its area.
    g = new()
    lost_city_hole(g, sea_bonus=0)
    g.put_tile(ORIGIN, g.special_tile("lost_city", SEA))
    ring_land = area_at(g.tiles, neighbour(ORIGIN, 0), 0)
    assert ring_land.side == LAND
    c = g.run(
        "city_scoring",
        "area_completed",
        g.players[0],
        event={"area": ring_land},
        quantities={"bonus_value": 1, "waypoint_value": 1},
    )
    assert c.q == {"bonus_value": 1, "waypoint_value": 1}
    sea = area_at(g.tiles, ORIGIN, 0)
    c = g.run(
        "city_scoring",
        "area_completed",
        g.players[0],
        event={"area": sea},
        quantities={"bonus_value": 1, "waypoint_value": 1},
    )
    assert c.q == {"bonus_value": 2, "waypoint_value": 2}


def test_a_waypoint_in_a_city_area_scores_2_when_the_area_is_completed() -> None:
    # "Waypoints score 2 points each (rather than 1) when they are scored by completing the
    #  areas they are in". The Waypoint sits on A's open land edge towards B.
    g = new()
    board(g, [(A, triangle(A, 2)), (C, triangle(C, city=True))])
    land, _sea = g.players
    g.place_waypoint(land, A, 0)
    g.place_tile(land, B, triangle(B, 3))
    assert points(g) == (3 + 10 + 2, 0)
    assert g.waypoints == {}


@pytest.mark.parametrize(("city", "scored"), [(True, 2), (False, 1)])
def test_a_waypoint_surrounded_in_a_city_area_scores_2(city: bool, scored: int) -> None:
    # "In a 4 player team game, a Land player places a 6th tile to surround a Land team
    #  Waypoint that is in an area overlapped by a City. They return that Waypoint to its
    #  owner and score 2 rather than the usual 1 bonus point for the Land team."
    g = new(players=4)
    land, _sea, land_mate, _sea_mate = g.players
    assert g.side_of(land_mate) == LAND
    ring = [neighbour(ORIGIN, d) for d in range(6)]
    board(g, [((ring[0].q, ring[0].r), Tile.land(city=city))])
    board(g, [((cell.q, cell.r), Tile.land()) for cell in ring[1:5]])
    g.place_waypoint(land_mate, ring[0], 3)
    g.place_tile(land, ring[5], Tile.land())
    assert land.counters["points"] == scored
    assert g.waypoints == {}


# -- City scoring: end game trade routes ------------------------------------------------------
# A column along q = 0 whose tiles meet sea to sea across their edges 2 and 5.


def column(**features: object) -> Tile:
    """A tile of the column: sea edges north (2) and south (5), land on either side."""
    return Tile.split((0, 1, 3, 4), **features)  # type: ignore[arg-type]


def routes_round_a_city(g: LandVsSea, city_tiles: int = 1) -> None:
    """Route A above the city (3 Ships, 1 Caravan), route B below it (2 Caravans)."""
    tiles = [
        ((0, -4), column(ships=1)),
        ((0, -3), column(caravans=1)),
        ((0, -2), column(ships=1)),
        ((0, -1), column(ships=1)),
        ((0, 0), column(city=city_tiles > 0)),
        ((0, 1), column(caravans=1)),
        ((0, 2), column(caravans=1)),
    ]
    if city_tiles > 1:
        # A second city beside route A, land to land with two of its tiles.
        tiles.append(((1, -3), Tile.land(city=True)))
    board(g, tiles)


def test_a_trade_route_connected_to_a_city_scores_2_per_caravan_and_ship() -> None:
    # "During end game scoring the Sea player has a 3 to 1 majority in Ships to Caravans in
    #  the trade route above a city A. They win this trade route, and because it is connected
    #  to a city tile, score 2 points per Caravan and Ship in it (rather than 1 each), for a
    #  total of 8 victory points. Likewise, the Land player wins the other trade route of 2
    #  Caravans connected below the same city B, scoring 4 rather than 2 points from it."
    g = new()
    routes_round_a_city(g)
    g.score_trade_routes()
    assert points(g) == (4, 8)


def test_a_trade_route_without_a_city_scores_1_per_caravan_and_ship() -> None:
    g = new()
    routes_round_a_city(g, city_tiles=0)
    g.score_trade_routes()
    assert points(g) == (2, 4)


def test_several_cities_on_a_trade_route_double_it_once() -> None:
    # "Multiple cities connected to the same trade route do not increase end game trade route
    #  scoring any further."
    g = new()
    routes_round_a_city(g, city_tiles=2)
    assert g.tile((1, -3)).city
    g.score_trade_routes()
    assert points(g) == (4, 8)


# -- Bandit & Pirate scoring -------------------------------------------------------------


def route_of_3_ships_and_1_caravan(g: LandVsSea) -> None:
    """The column's route A alone: 3 Ships and 1 Caravan, open at (0, 0)."""
    board(
        g,
        [
            ((0, -4), column(ships=1)),
            ((0, -3), column(caravans=1)),
            ((0, -2), column(ships=1)),
            ((0, -1), column(ships=1)),
        ],
    )


def test_a_pirate_joining_a_trade_route_scores_1_per_ship() -> None:
    # "Example: The Land player connects a Pirate tile to a trade route with 3 Ships and 1
    #  Caravan, scoring 1 point per Ship in it."
    g = new()
    route_of_3_ships_and_1_caravan(g)
    placement = g.place_tile(g.players[0], ORIGIN, column(pirate=True))
    assert len(placement.joined) == 1
    assert points(g) == (3, 0)


def test_a_bandit_joining_a_trade_route_scores_1_per_caravan() -> None:
    # "Bandits score 1 point per caravan icon ... in that trade route."
    g = new()
    route_of_3_ships_and_1_caravan(g)
    g.place_tile(g.players[1], ORIGIN, column(bandit=True))
    assert points(g) == (0, 1)


def test_bandits_and_pirates_are_not_counted_as_caravans_or_ships() -> None:
    # "Bandits and Pirates are not counted as caravans or ships themselves for the purposes
    #  of scoring." A Pirate tile (even one drawing a ship) already beside the route adds
    #  nothing, neither when another Pirate joins nor at the end game majority.
    g = new()
    route_of_3_ships_and_1_caravan(g)
    g.put_tile((0, -5), column(pirate=True, ships=1))
    route = route_at(g.tiles, Hex(0, -1))
    assert route is not None and Hex(0, -5) not in route.cells
    g.place_tile(g.players[0], ORIGIN, column(pirate=True))
    assert points(g) == (3, 0)
    g.score_trade_routes()
    assert points(g) == (3, 4)


def test_the_lost_traders_counts_as_2_caravans() -> None:
    # The Lost Traders counts as "2 Caravans or Ship icons during end game trade route
    # majority calculations ... 2 Caravan or Ship icons which score 1 point each for the
    # winner of a trade route ... 2 Caravans or 2 Ship icons when being scored by Bandits or
    # Pirates". On its land face it shows Caravans.
    g = new()
    board(g, [((0, 0), g.special_tile("lost_traders", LAND)), ((1, 0), Tile.land(ships=1))])
    land, sea = g.players
    g.place_tile(land, (-1, 0), Tile.land(bandit=True))
    assert points(g) == (2, 0)
    g.place_tile(sea, (2, 0), Tile.land(pirate=True))
    assert points(g) == (2, 1)
    # End game: 2 Caravans beat 1 Ship; the winner scores all 3 icons.
    g.score_trade_routes()
    assert points(g) == (2 + 3, 1)


def test_the_lost_traders_sea_face_counts_as_2_ships_connected_to_a_city() -> None:
    # "2 Caravan or Ship icons which score 1 point each for the winner of a trade route, or 2
    #  points each if connected to a City tile during end game trade route scoring."
    g = new()
    board(
        g,
        [
            ((0, 0), g.special_tile("lost_traders", SEA)),
            ((1, 0), Tile.sea(caravans=1)),
            ((-1, 0), Tile.sea(city=True)),
        ],
    )
    g.score_trade_routes()
    assert points(g) == (0, 3 * 2)


# -- the board model's own guards, and scenarios ---------------------------------------------


def test_edges_must_match_their_neighbours() -> None:
    g = new()
    g.put_tile(ORIGIN, Tile.land())
    with pytest.raises(RuleError, match="land edges meet land"):
        g.put_tile((1, 0), Tile.sea())
    with pytest.raises(RuleError, match="already holds"):
        g.put_tile(ORIGIN, Tile.land())


def test_a_tile_shares_out_its_six_edges() -> None:
    with pytest.raises(RuleError):
        Tile((Section(LAND, frozenset({0, 1, 2})),))


def test_ley_lines_are_read_from_the_board_alone() -> None:
    g = new()
    board(g, [((0, 0), M), ((1, 0), Tile.land(2)), ((2, 0), M)])
    (line,) = ley_lines_formed(g.tiles, Hex(2, 0))
    assert line.between == (Hex(1, 0),)


def test_a_scenario_places_tiles_by_the_names_a_designer_knows(tmp_path: Path) -> None:
    # The first Menhir example as scenario data: GIVEN board, ACTIONS place_tile, EXPECT points.
    scenario = tmp_path / "ley_line.yaml"
    scenario.write_text(
        textwrap.dedent(
            """\
            scenario: the Sea player fills the gap between 2 Menhirs
            rulebook: "forming a Ley line that scores 5 bonus points"
            game: land_vs_sea
            players: 2
            given:
              board:
                - {cell: [0, 0], side: land, menhir: true}
                - {cell: [1, 0], side: land, bonus: 2}
                - {cell: [3, 0], side: land, bonus: 1}
                - {cell: [4, 0], side: land, menhir: true}
            do:
              - action: place_tile
                player: 2
                args: {cell: [2, 0], tile: {side: land, bonus: 2}}
            expect:
              players:
                - {points: 0, side: land}
                - {points: 5, side: sea}
              tiles: [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]]
            """
        ),
        encoding="utf-8",
    )
    results = list(Runner(GENERATED).run_file(scenario))
    assert [(r.passed, r.message) for r in results] == [(True, "")]


# -- each mix's sheet lists only its layers ------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "kept", "removed"),
    [
        (
            "experienced",
            ["City scoring"],
            ["Menhir scoring", "Bandit & Pirate scoring", "Bandit and Pirate scoring"],
        ),
        (
            "inexperienced",
            ["Menhir scoring"],
            ["City scoring", "Bandit & Pirate scoring", "Caravan & Ship scoring"],
        ),
    ],
)
def test_a_mix_sheet_names_only_its_own_layers(
    variant: str, kept: list[str], removed: list[str]
) -> None:
    # Issue 16: "each variant's sheet listing only its layers": no row, no heading, no rulebook
    # citation and no icon meaning names a layer the mix takes out.
    from compiler.project import find_project
    from compiler.sheets import render_sheet_files
    from compiler.variants import compile_variant
    from dsl.diagnostics import SourceCache

    project = find_project(ROOT)
    assert project is not None
    folder = project.game_dir("land_vs_sea")
    result, _overlay = compile_variant(
        folder, folder / "variants" / f"{variant}.yaml", SourceCache()
    )
    assert result.ir is not None, [d.message for d in result.diagnostics]
    files = render_sheet_files(project, "land_vs_sea", result.ir, variant=variant, formats=("md",))
    md = files[f"sheets/land_vs_sea/{variant}.md"].decode()
    reference = md[md.index("## Rules reference") : md.index("### Card list")]
    for layer in kept:
        assert f"| {layer} |" in md
    for layer in removed:
        assert f"| {layer} |" not in md and f"### {layer}" not in md
        # The tiles still show the layer's icons: the legend may name it only to say so.
        for line in reference.splitlines():
            assert layer not in line or "is not in this mix" in line, line
