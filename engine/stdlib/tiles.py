"""Edge-matched tile placement and area completion, on a hex board of tiles.

A tile here is its six edge labels in direction order (:mod:`engine.hexgrid`'s directions),
for example ``("land", "land", "sea", "sea", "sea", "land")``; a board maps cells to placed
tiles. A tile fits a cell when every neighbour's facing edge carries the same label. An area
is the cells whose edges of one label join across shared edges; it is complete when none of
those edges faces an empty cell. Games with richer tiles (several areas of one label on a tile,
as Land vs Sea's sections) keep their own model and use these for the plain case.

The DSL natives and the verb (``use tiles``) read the board from ``g.board["tiles"]`` (a cell
to the six edge labels of the tile on it; ``place_tile`` creates it), so a card can ask whether
a tile fits, place it, and ask whether the area it joined is complete.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.hexgrid import Hex, as_hex, neighbour, opposite
from engine.runtime import Context, Game, RuleError
from engine.stdlib.registry import native, verb

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


# -- the DSL's natives and verb, over g.board["tiles"]


def _board(g: Game, native: str) -> dict[Hex, tuple[str, ...]]:
    """``g.board["tiles"]``; a :class:`RuleError` when the game keeps tiles of its own model
    there (Land vs Sea's tiles of sections), which these plain edge labels cannot read."""
    board: dict[Hex, tuple[str, ...]] = g.board.setdefault("tiles", {})
    for cell, tile in board.items():
        if not (
            isinstance(tile, (list, tuple))
            and len(tile) == 6
            and all(isinstance(label, str) for label in tile)
        ):
            raise RuleError(
                f"{native}: the board's tile at {tuple(cell)} is not six edge labels but "
                f"{type(tile).__name__}: this game keeps tiles of its own model, which the "
                "standard library's tiles module cannot read (ask the game's own natives)"
            )
        break  # one tile tells: a board holds one model
    return board


def _tile(value: Any, native: str) -> tuple[str, ...]:
    """``value`` as a tile's six edge labels; a :class:`RuleError` when it is not one. A
    card's ``list`` property gives its edges as six clauses of one name each (``edges forest,
    field, field, field, field, field`` is six one-name lists in the IR): each such clause is
    its name, so ``tile_fits(cell, land.edges)`` reads the card as it is written."""
    if isinstance(value, (list, tuple)) and all(
        isinstance(clause, (list, tuple)) and len(clause) == 1 for clause in value
    ):
        value = [clause[0] for clause in value]
    if (
        isinstance(value, (list, tuple))
        and len(value) == 6
        and all(isinstance(label, str) for label in value)
    ):
        return tuple(value)
    raise RuleError(f"{native}: {value!r} is not a tile (six edge labels in direction order)")


def _turned(value: Any, turns: Any, native: str) -> tuple[str, ...]:
    if not isinstance(turns, (int, float)) or isinstance(turns, bool):
        raise RuleError(f"{native}: turns is a number, not {turns!r}")
    return rotated(_tile(value, native), int(turns))


def _is_placement(value: Any) -> bool:
    """True for a ``(cell, turns)`` place of ``tile_placements``: a :class:`Hex` and a whole
    number (a plain ``(q, r)`` pair is a cell: its first item is a number)."""
    return (
        isinstance(value, tuple)
        and len(value) == 2
        and isinstance(value[0], Hex)
        and isinstance(value[1], int)
        and not isinstance(value[1], bool)
    )


@native(
    "cell any, tile any", returns="bool", words="{tile} can be placed at {cell}", cells=("cell",)
)
def tile_fits(g: Game, c: Context, cell: Any, tile: Any) -> bool:
    """True when the tile, as it lies, may be placed on the empty cell: next to a placed
    tile (or first) and every edge matching its neighbour's."""
    return fits(_board(g, "tile_fits"), as_hex(cell), _tile(tile, "tile_fits"))


@native("tile any", returns="list", words="the places where {tile} can be placed")
def tile_placements(g: Game, c: Context, tile: Any) -> list[tuple[Hex, int]]:
    """Every (cell, turns) where the tile fits, cells in order, each distinct rotation once."""
    return placements(_board(g, "tile_placements"), _tile(tile, "tile_placements"))


@verb(
    "cell any, tile any, turns number = 0",
    words="place {tile} at {cell}, turned by {turns}",
    cells=("cell",),
)
def place_tile(g: Game, c: Context, cell: Any, tile: Any, turns: int) -> None:
    """Place a tile, turned that many sixths round, on an empty cell it fits (an error when it
    does not). The cell may be a place ``tile_placements`` gives, a cell and its turns
    (``choose spot in tile_placements(land.edges) { place_tile spot land.edges }``): the tile
    goes there, turned as that place says (and by ``turns`` more)."""
    board = _board(g, "place_tile")
    if _is_placement(cell):
        cell, turns = cell[0], cell[1] + turns
    at = as_hex(cell)
    edges = _turned(tile, turns, "place_tile")
    if not fits(board, at, edges):
        raise RuleError(f"place_tile: the tile {edges} does not fit at {at}")
    board[at] = edges
    g.log("place_tile", c.player.index, (at.q, at.r), turns)


@native(
    "cell any, label name",
    returns="list",
    words="the cells of the {label} area at {cell}",
    cells=("cell",),
)
def area_cells(g: Game, c: Context, cell: Any, label: str) -> list[Hex]:
    """The placed cells joined to a cell across shared edges of that label, sorted."""
    board = _board(g, "area_cells")
    at = as_hex(cell)
    if at not in board:
        raise RuleError(f"area_cells: no tile lies at {at}")
    return sorted(area(board, at, str(label)))


@native(
    "cell any, label name",
    returns="bool",
    words="the {label} area at {cell} is complete",
    cells=("cell",),
)
def area_complete(g: Game, c: Context, cell: Any, label: str) -> bool:
    """True when the area of that label through the cell's tile has no edge facing an empty
    cell (false for a tile without that label)."""
    board = _board(g, "area_complete")
    at = as_hex(cell)
    if at not in board:
        raise RuleError(f"area_complete: no tile lies at {at}")
    if str(label) not in board[at]:
        return False
    return is_complete(board, at, str(label))
