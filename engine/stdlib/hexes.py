"""Hex grids for the DSL: distance, neighbours, lines, rings and connected areas.

The geometry is :mod:`engine.hexgrid`'s; these natives take cells as a game's data gives them
(a :class:`~engine.hexgrid.Hex` or a ``(q, r)`` pair) and give back lists of cells.
"""

from __future__ import annotations

from typing import Any

from engine import hexgrid
from engine.hexgrid import as_hex
from engine.runtime import Context, Game
from engine.stdlib.registry import native


@native(
    "a any, b any",
    returns="number",
    words="the steps between {a} and {b}",
    cells=("a", "b"),
)
def hex_distance(g: Game, c: Context, a: Any, b: Any) -> int:
    """The number of steps between two cells."""
    return hexgrid.distance(as_hex(a), as_hex(b))


@native("cell any", returns="list", words="the six cells around {cell}", cells=("cell",))
def hex_neighbours(g: Game, c: Context, cell: Any) -> list[hexgrid.Hex]:
    """The six cells around a cell, in direction order."""
    return list(hexgrid.neighbours(as_hex(cell)))


@native(
    "a any, b any",
    returns="list",
    words="the cells in a row from {a} to {b}",
    cells=("a", "b"),
)
def hex_line(g: Game, c: Context, a: Any, b: Any) -> list[hexgrid.Hex]:
    """The straight row of cells from one cell to another, both included (none when the two
    are not on one row)."""
    try:
        start, end = as_hex(a), as_hex(b)
        g.spend(hexgrid.distance(start, end), "cells in a row of hexes")
        return list(hexgrid.line(start, end))
    except ValueError:
        return []


@native(
    "centre any, radius number",
    returns="list",
    words="the cells {radius} steps from {centre}",
    cells=("centre",),
)
def hex_ring(g: Game, c: Context, centre: Any, radius: int) -> list[hexgrid.Hex]:
    """The cells at exactly that many steps from a cell."""
    radius = max(int(radius), 0)
    g.spend(6 * radius, "cells of a hex ring")  # a card's radius 10**9: an error, not a hang
    return list(hexgrid.ring(as_hex(centre), radius))


@native(
    "centre any, radius number",
    returns="list",
    words="the cells {radius} steps or fewer from {centre}",
    cells=("centre",),
)
def hex_within(g: Game, c: Context, centre: Any, radius: int) -> list[hexgrid.Hex]:
    """Every cell at most that many steps from a cell, nearest first."""
    radius = max(int(radius), 0)
    g.spend(3 * radius * (radius + 1) + 1, "cells within a hex radius")
    return list(hexgrid.within(as_hex(centre), radius))


@native(
    "cells list",
    returns="list",
    words="the groups of {cells} joined edge to edge",
    cell_lists=("cells",),
)
def hex_areas(g: Game, c: Context, cells: list[Any]) -> list[list[hexgrid.Hex]]:
    """The groups of the given cells joined edge to edge, each sorted."""
    if not isinstance(cells, (list, tuple, set, frozenset)):
        raise hexgrid.NotACell(f"hex_areas takes a list of cells, not {cells!r}")
    return [sorted(group) for group in hexgrid.components(as_hex(cell) for cell in cells)]
