"""Edge-matched tile placement and area completion, on a hex board of tiles.

A tile here is its six edge labels in direction order (:mod:`engine.hexgrid`'s directions),
for example ``("land", "land", "sea", "sea", "sea", "land")``; a board maps cells to placed
tiles. A tile fits a cell when every neighbour's facing edge carries the same label. An area
is the cells whose edges of one label join across shared edges; it is complete when none of
those edges faces an empty cell. Games with richer tiles (several areas of one label on a tile,
as Land vs Sea's sections) keep their own model and use these for the plain case.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from engine.hexgrid import Hex, neighbour, opposite

Edges = Sequence[str]
Board = Mapping[Hex, Edges]


def rotated(edges: Edges, turns: int) -> tuple[str, ...]:
    """The tile turned ``turns`` sixths round: edge ``d`` moves to ``d + turns``."""
    turns %= 6
    return tuple(edges[(d - turns) % 6] for d in range(6))


def misfits(board: Board, cell: Hex, edges: Edges) -> list[int]:
    """The directions in which ``edges`` at ``cell`` meet a neighbour's other label."""
    wrong = []
    for direction in range(6):
        other = board.get(neighbour(cell, direction))
        if other is not None and other[opposite(direction)] != edges[direction]:
            wrong.append(direction)
    return wrong


def fits(board: Board, cell: Hex, edges: Edges) -> bool:
    """True when ``cell`` is empty, next to a placed tile (or the board is empty), and every
    edge matches its neighbour's."""
    if cell in board:
        return False
    if board and not any(neighbour(cell, d) in board for d in range(6)):
        return False
    return not misfits(board, cell, edges)


def placements(board: Board, edges: Edges) -> list[tuple[Hex, int]]:
    """Every ``(cell, turns)`` where the tile fits, cells in order, each rotation once."""
    empty = sorted({neighbour(cell, d) for cell in board for d in range(6)} - set(board))
    found: list[tuple[Hex, int]] = []
    for cell in empty:
        seen: set[tuple[str, ...]] = set()
        for turns in range(6):
            turned = rotated(edges, turns)
            if turned not in seen:
                seen.add(turned)
                if fits(board, cell, turned):
                    found.append((cell, turns))
    return found


def area(board: Board, cell: Hex, label: str) -> frozenset[Hex]:
    """The cells joined to ``cell`` across shared edges labelled ``label``."""
    seen = {cell}
    frontier = [cell]
    while frontier:
        at = frontier.pop()
        for direction in range(6):
            if board[at][direction] != label:
                continue
            nxt = neighbour(at, direction)
            other = board.get(nxt)
            if other is not None and other[opposite(direction)] == label and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return frozenset(seen)


def open_edges(board: Board, cells: Iterable[Hex], label: str) -> list[tuple[Hex, int]]:
    """The ``(cell, direction)`` edges labelled ``label`` that face an empty cell."""
    return [
        (cell, direction)
        for cell in sorted(cells)
        for direction in range(6)
        if board[cell][direction] == label and neighbour(cell, direction) not in board
    ]


def is_complete(board: Board, cell: Hex, label: str) -> bool:
    """True when the ``label`` area through ``cell`` has no edge facing an empty cell."""
    return not open_edges(board, area(board, cell, label), label)
