"""Hex geometry shared by the games that play on hexes: cells, directions, rows, reachability.

Cells use axial coordinates ``(q, r)``; the third cube coordinate is ``s = -q - r``. The six
directions are numbered 0 to 5 going round the cell, so direction ``d`` and ``(d + 3) % 6`` are
opposite and together make one of the three axes a straight row of hexes runs along::

    0: ( 1,  0)   1: ( 1, -1)   2: ( 0, -1)   3: (-1,  0)   4: (-1,  1)   5: ( 0,  1)

Everything here is pure: no board, no game rules. A game keeps its own mapping from cells to
what lies on them and passes in the cells that exist or are blocked.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from engine.runtime import RuleError


class Hex(NamedTuple):
    """One cell, in axial coordinates.

    A named tuple, not a frozen dataclass: a cell is a dictionary key everywhere a board is
    kept, and a tuple's hash and equality are the interpreter's own (a dataclass's are Python
    functions, called on every look-up). Cells order by ``q`` then ``r``, as before; unlike a
    dataclass, a cell also equals the plain ``(q, r)`` pair.
    """

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate: ``q + r + s == 0``."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:  # type: ignore[override]
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scaled(self, factor: int) -> Hex:
        """This offset ``factor`` times over."""
        return Hex(self.q * factor, self.r * factor)

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"

    def __str__(self) -> str:
        # A rule's message names a cell as a scenario writes it: "no tile at (2, 0)".
        return f"({self.q}, {self.r})"


#: A cell given loosely: a :class:`Hex`, or a ``(q, r)`` pair as scenario data writes it.
CellLike = Hex | tuple[int, int] | list[int]

ORIGIN = Hex(0, 0)

#: The offset of each direction, in order round the cell.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)

#: The three axes, each as its pair of opposite directions (``axis == direction % 3``).
AXES: tuple[tuple[int, int], ...] = ((0, 3), (1, 4), (2, 5))


class NotACell(RuleError, TypeError):
    """A value given as a cell that is not one: a rule's error (a card passed a number or a
    name where a cell goes), and a ``TypeError`` for Python callers."""


def as_hex(cell: CellLike) -> Hex:
    """A cell from a :class:`Hex`, a ``(q, r)`` pair, or a card's property giving one cell
    (``cell 1 -1``: one clause of two numbers, ``[[1, -1]]`` in the IR, as each clause of Land
    vs Sea's ``cells 0 0, 1 0`` is a cell); anything else is :class:`NotACell`."""
    if isinstance(cell, Hex):
        return cell
    if isinstance(cell, (tuple, list)) and len(cell) == 2:
        q, r = cell
        if isinstance(q, int) and isinstance(r, int):
            return Hex(q, r)
    if isinstance(cell, list) and len(cell) == 1 and isinstance(cell[0], list):
        return as_hex(cell[0])
    raise NotACell(
        f"{cell!r} is not a hex cell (q, r); a card gives one as a property of two numbers, "
        "cell 1 -1"
    )


def opposite(direction: int) -> int:
    """The direction pointing the other way."""
    return (direction + 3) % 6


def axis_of(direction: int) -> int:
    """The axis (0, 1 or 2) a direction runs along."""
    return direction % 3


def step(cell: Hex, direction: int, distance: int = 1) -> Hex:
    """The cell ``distance`` steps from ``cell`` in ``direction`` (negative steps go back)."""
    return cell + DIRECTIONS[direction % 6].scaled(distance)


def neighbour(cell: Hex, direction: int) -> Hex:
    """The adjacent cell in ``direction``."""
    offset = DIRECTIONS[direction % 6]
    return Hex(cell.q + offset.q, cell.r + offset.r)


def neighbours(cell: Hex) -> tuple[Hex, ...]:
    """The six adjacent cells, in direction order."""
    q, r = cell
    return (
        Hex(q + 1, r),
        Hex(q + 1, r - 1),
        Hex(q, r - 1),
        Hex(q - 1, r),
        Hex(q - 1, r + 1),
        Hex(q, r + 1),
    )


def distance(a: Hex, b: Hex) -> int:
    """The number of steps between two cells."""
    d = a - b
    return (abs(d.q) + abs(d.r) + abs(d.s)) // 2


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction from ``a`` along which ``b`` lies in a straight row, or None.

    None when the cells are the same or are not on one of the three axes through ``a``.
    """
    apart = distance(a, b)
    if apart == 0:
        return None
    for direction in range(6):
        if step(a, direction, apart) == b:
            return direction
    return None


def adjacent(a: Hex, b: Hex) -> bool:
    """True when the two cells share an edge."""
    return distance(a, b) == 1


def aligned(a: Hex, b: Hex) -> bool:
    """True when two different cells lie on one straight row of hexes."""
    return direction_to(a, b) is not None


def ray(start: Hex, direction: int, length: int | None = None) -> Iterator[Hex]:
    """The cells after ``start`` going ``direction``: ``length`` of them, or without end."""
    taken = 0
    cell = start
    while length is None or taken < length:
        cell = neighbour(cell, direction)
        taken += 1
        yield cell


def line(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The straight row from ``a`` to ``b``, both included; ``ValueError`` if not aligned."""
    if a == b:
        return (a,)
    direction = direction_to(a, b)
    if direction is None:
        raise ValueError(f"{a} and {b} are not on one row of hexes")
    return (a, *ray(a, direction, distance(a, b)))


def between(a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The cells strictly between two aligned cells, from ``a``'s side."""
    return line(a, b)[1:-1]


def row(through: Hex, axis: int, reach: int) -> tuple[Hex, ...]:
    """The ``2 * reach + 1`` cells of the row along ``axis`` centred on ``through``."""
    forward, _back = AXES[axis]
    return tuple(step(through, forward, k) for k in range(-reach, reach + 1))


def ring(centre: Hex, radius: int) -> tuple[Hex, ...]:
    """The cells at exactly ``radius`` steps from ``centre`` (just ``centre`` for 0)."""
    if radius < 0:
        raise ValueError("a ring's radius is never negative")
    if radius == 0:
        return (centre,)
    cells: list[Hex] = []
    # Start at the corner reached by going direction 4, then walk each side of the ring.
    cell = step(centre, 4, radius)
    for direction in range(6):
        for _ in range(radius):
            cells.append(cell)
            cell = neighbour(cell, direction)
    return tuple(cells)


def within(centre: Hex, radius: int) -> tuple[Hex, ...]:
    """Every cell at most ``radius`` steps from ``centre``, nearest rings first."""
    return tuple(cell for k in range(radius + 1) for cell in ring(centre, k))


@dataclass(frozen=True, order=True)
class Edge:
    """The border two adjacent cells share; the same edge whichever side it is named from."""

    a: Hex
    b: Hex

    def __post_init__(self) -> None:
        if not adjacent(self.a, self.b):
            raise ValueError(f"{self.a} and {self.b} are not adjacent: they share no edge")
        if self.b < self.a:
            first, second = self.b, self.a
            object.__setattr__(self, "a", first)
            object.__setattr__(self, "b", second)

    @classmethod
    def of(cls, cell: Hex, direction: int) -> Edge:
        """The edge of ``cell`` facing ``direction``."""
        return cls(cell, neighbour(cell, direction))

    def cells(self) -> tuple[Hex, Hex]:
        """The two cells on either side."""
        return (self.a, self.b)


def _crossable(cell: Hex, direction: int, blocked_edges: Collection[Edge]) -> bool:
    return not blocked_edges or Edge.of(cell, direction) not in blocked_edges


def reachable(
    start: Hex,
    *,
    cells: Collection[Hex] | Callable[[Hex], bool] | None = None,
    blocked: Collection[Hex] = (),
    blocked_edges: Collection[Edge] = (),
    max_steps: int | None = None,
) -> dict[Hex, int]:
    """Breadth-first reach from ``start``: every cell reachable, with its fewest steps.

    ``cells`` says which cells exist (a collection, or a test); ``blocked`` cells cannot be
    entered; ``blocked_edges`` cannot be crossed (a border drawn between two cells).
    ``start`` is always reached at 0, blocked or not. Without ``cells`` the grid has no end,
    so ``max_steps`` is then required.
    """
    if cells is None and max_steps is None:
        raise ValueError("an endless grid needs max_steps (or give the cells that exist)")
    exists: Callable[[Hex], bool]
    if cells is None:
        exists = _everywhere
    elif callable(cells):
        exists = cells
    else:
        exists = cells.__contains__
    reached = {start: 0}
    frontier = deque([start])
    while frontier:
        cell = frontier.popleft()
        steps = reached[cell]
        if max_steps is not None and steps >= max_steps:
            continue
        for direction in range(6):
            nxt = neighbour(cell, direction)
            if nxt in reached or nxt in blocked or not exists(nxt):
                continue
            if not _crossable(cell, direction, blocked_edges):
                continue
            reached[nxt] = steps + 1
            frontier.append(nxt)
    return reached


def _everywhere(cell: Hex) -> bool:
    return True


def shortest_path(
    start: Hex,
    goal: Hex,
    *,
    cells: Collection[Hex] | Callable[[Hex], bool] | None = None,
    blocked: Collection[Hex] = (),
    blocked_edges: Collection[Edge] = (),
    max_steps: int | None = None,
) -> tuple[Hex, ...] | None:
    """One shortest path from ``start`` to ``goal`` (both included), or None if unreachable.

    Same rules as :func:`reachable`; of several shortest paths the one found first in
    direction order is returned, so the answer is deterministic.
    """
    reach = reachable(
        start, cells=cells, blocked=blocked, blocked_edges=blocked_edges, max_steps=max_steps
    )
    if goal not in reach:
        return None
    # Walk back from the goal through cells one step nearer each time.
    path = [goal]
    cell = goal
    while cell != start:
        for direction in range(6):
            prev = neighbour(cell, direction)
            if reach.get(prev) == reach[cell] - 1 and _crossable(cell, direction, blocked_edges):
                cell = prev
                break
        path.append(cell)
    return tuple(reversed(path))


def components(cells: Iterable[Hex]) -> list[frozenset[Hex]]:
    """The groups of cells joined edge to edge, each as a set, in order of their first cell."""
    remaining = set(cells)
    ordered = sorted(remaining)
    groups: list[frozenset[Hex]] = []
    for first in ordered:
        if first not in remaining:
            continue
        group = reachable(first, cells=remaining)
        remaining.difference_update(group)
        groups.append(frozenset(group))
    return groups
