"""Hex geometry (engine/hexgrid.py): the properties every hex map relies on."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.hexgrid import (
    AXES,
    DIRECTIONS,
    ORIGIN,
    Edge,
    Hex,
    adjacent,
    aligned,
    as_hex,
    axis_of,
    between,
    components,
    direction_to,
    distance,
    line,
    neighbour,
    neighbours,
    opposite,
    ray,
    reachable,
    ring,
    row,
    shortest_path,
    step,
    within,
)

coordinates = st.integers(min_value=-40, max_value=40)
hexes = st.builds(Hex, coordinates, coordinates)
directions = st.integers(min_value=0, max_value=5)
lengths = st.integers(min_value=0, max_value=12)


@given(hexes)
def test_cube_coordinates_sum_to_zero(cell: Hex) -> None:
    assert cell.q + cell.r + cell.s == 0


@given(hexes, hexes)
def test_distance_is_symmetric(a: Hex, b: Hex) -> None:
    assert distance(a, b) == distance(b, a)


@given(hexes, hexes)
def test_distance_is_zero_only_to_itself(a: Hex, b: Hex) -> None:
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_six_distinct_neighbours_each_at_distance_1(cell: Hex) -> None:
    around = neighbours(cell)
    assert len(set(around)) == 6
    assert all(distance(cell, n) == 1 and adjacent(cell, n) for n in around)


@given(hexes, directions)
def test_opposite_direction_steps_back(cell: Hex, direction: int) -> None:
    assert neighbour(neighbour(cell, direction), opposite(direction)) == cell
    assert axis_of(direction) == axis_of(opposite(direction))


def test_neighbours_of_consecutive_directions_touch() -> None:
    # Going round the cell in direction order, each neighbour borders the next.
    around = neighbours(ORIGIN)
    assert all(adjacent(around[i], around[(i + 1) % 6]) for i in range(6))


def test_the_three_axes_pair_opposite_directions() -> None:
    assert sorted(d for pair in AXES for d in pair) == list(range(6))
    assert all(DIRECTIONS[a] == DIRECTIONS[b].scaled(-1) for a, b in AXES)


@given(hexes, directions, lengths)
def test_stepping_along_an_axis_keeps_one_coordinate(cell: Hex, direction: int, n: int) -> None:
    far = step(cell, direction, n)
    assert distance(cell, far) == n
    # A straight row of hexes keeps q, r or s fixed: the one its axis runs across.
    fixed = [cell.q == far.q, cell.r == far.r, cell.s == far.s]
    assert any(fixed)


@given(hexes, directions, st.integers(min_value=1, max_value=12))
def test_direction_to_finds_the_row(cell: Hex, direction: int, n: int) -> None:
    far = step(cell, direction, n)
    assert direction_to(cell, far) == direction
    assert direction_to(far, cell) == opposite(direction)
    assert aligned(cell, far)


def test_cells_off_the_three_axes_are_not_aligned() -> None:
    assert direction_to(ORIGIN, Hex(2, 1)) is None
    assert not aligned(ORIGIN, ORIGIN)
    with pytest.raises(ValueError):
        line(ORIGIN, Hex(2, 1))


@given(hexes, directions, lengths)
def test_line_runs_step_by_step(cell: Hex, direction: int, n: int) -> None:
    far = step(cell, direction, n)
    cells = line(cell, far)
    assert len(cells) == n + 1 and cells[0] == cell and cells[-1] == far
    assert all(adjacent(cells[i], cells[i + 1]) for i in range(n))
    assert between(cell, far) == cells[1:-1]
    assert tuple(ray(cell, direction, n)) == cells[1:]


@given(hexes, st.integers(min_value=0, max_value=2), st.integers(min_value=0, max_value=6))
def test_row_is_a_line_centred_on_its_cell(cell: Hex, axis: int, reach: int) -> None:
    cells = row(cell, axis, reach)
    assert len(cells) == 2 * reach + 1 and cells[reach] == cell
    assert cells == line(cells[0], cells[-1])


@given(hexes, st.integers(min_value=0, max_value=6))
def test_ring_holds_the_cells_at_that_distance(centre: Hex, radius: int) -> None:
    cells = ring(centre, radius)
    assert len(set(cells)) == max(1, 6 * radius)
    assert all(distance(centre, c) == radius for c in cells)
    assert len(within(centre, radius)) == 1 + 3 * radius * (radius + 1)


def test_edge_is_the_same_from_either_side() -> None:
    east = neighbour(ORIGIN, 0)
    assert Edge(ORIGIN, east) == Edge(east, ORIGIN) == Edge.of(ORIGIN, 0) == Edge.of(east, 3)
    with pytest.raises(ValueError):
        Edge(ORIGIN, Hex(2, 0))


def test_as_hex_reads_scenario_pairs() -> None:
    assert as_hex([1, -2]) == as_hex((1, -2)) == Hex(1, -2)
    with pytest.raises(TypeError):
        as_hex("1,2")  # type: ignore[arg-type]


@given(hexes, st.integers(min_value=0, max_value=4))
def test_reach_on_an_open_grid_is_the_distance(start: Hex, steps: int) -> None:
    reach = reachable(start, max_steps=steps)
    assert set(reach) == set(within(start, steps))
    assert all(d == distance(start, cell) for cell, d in reach.items())


def test_an_endless_grid_needs_a_limit() -> None:
    with pytest.raises(ValueError):
        reachable(ORIGIN)


def test_blocked_cells_are_walked_round() -> None:
    world = set(within(ORIGIN, 3))
    wall = {Hex(1, -1), Hex(1, 0), Hex(0, 1)}
    reach = reachable(ORIGIN, cells=world, blocked=wall)
    assert not wall & set(reach)
    # (2, 0) is 2 steps away in the open; round the wall (through (0, -1)) it takes 5.
    assert distance(ORIGIN, Hex(2, 0)) == 2
    assert reach[Hex(2, 0)] == 5


def test_blocked_edges_cannot_be_crossed() -> None:
    world = set(within(ORIGIN, 1))
    # Border every edge of the centre: nothing else can be reached from it.
    walls = {Edge.of(ORIGIN, d) for d in range(6)}
    assert reachable(ORIGIN, cells=world, blocked_edges=walls) == {ORIGIN: 0}
    # One border between neighbours: the long way round is 2 steps.
    east, north_east = neighbour(ORIGIN, 0), neighbour(ORIGIN, 1)
    reach = reachable(east, cells=world, blocked_edges={Edge(east, north_east)})
    assert reach[north_east] == 2


def test_shortest_path_goes_round_what_is_blocked() -> None:
    world = set(within(ORIGIN, 3))
    wall = {Hex(1, -1), Hex(1, 0), Hex(0, 1)}
    path = shortest_path(ORIGIN, Hex(2, 0), cells=world, blocked=wall)
    assert path is not None and path[0] == ORIGIN and path[-1] == Hex(2, 0)
    assert len(path) == 6 and not wall & set(path)
    assert all(adjacent(path[i], path[i + 1]) for i in range(len(path) - 1))
    assert shortest_path(ORIGIN, Hex(9, 0), cells=world) is None


def test_components_split_cells_that_do_not_touch() -> None:
    groups = components([ORIGIN, Hex(1, 0), Hex(5, 5), Hex(5, 6)])
    assert groups == [frozenset({ORIGIN, Hex(1, 0)}), frozenset({Hex(5, 5), Hex(5, 6)})]


@given(hexes, hexes)
def test_cells_are_values_ordered_by_q_then_r(a: Hex, b: Hex) -> None:
    # A cell is a value: a key that finds its equal, an order by q then r, sums that are cells.
    assert (a == b) == ((a.q, a.r) == (b.q, b.r))
    assert {a: 1}.get(Hex(a.q, a.r)) == 1
    assert (a < b) == ((a.q, a.r) < (b.q, b.r))
    total = a + b
    assert isinstance(total, Hex) and total == Hex(a.q + b.q, a.r + b.r)
    assert a - b == Hex(a.q - b.q, a.r - b.r)


@given(hexes, st.integers(0, 11))
def test_neighbour_is_one_step_in_that_direction(cell: Hex, direction: int) -> None:
    assert neighbour(cell, direction) == step(cell, direction, 1) == neighbours(cell)[direction % 6]
