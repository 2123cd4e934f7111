"""Reach over a map graph: spaces joined by connections, as a board that is not a grid has.

The Python functions take the graph as a mapping from a space to the spaces next to it; the
natives read the game's graph from ``g.board["graph"]`` (a game's setup puts it there).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable, Mapping
from typing import Any, TypeVar

from engine.runtime import Context, Game, RuleError
from engine.stdlib.registry import native

N = TypeVar("N", bound=Hashable)

Graph = Mapping[Any, Iterable[Any]]


def reach(graph: Mapping[N, Iterable[N]], start: N, steps: int | None = None) -> dict[N, int]:
    """Breadth-first: every space reachable from ``start`` within ``steps`` moves (without
    limit when None), with its fewest moves; neighbours are taken in the graph's order."""
    reached = {start: 0}
    frontier = deque([start])
    while frontier:
        space = frontier.popleft()
        moves = reached[space]
        if steps is not None and moves >= steps:
            continue
        for nxt in graph.get(space, ()):
            if nxt not in reached:
                reached[nxt] = moves + 1
                frontier.append(nxt)
    return reached


def distance(graph: Mapping[N, Iterable[N]], a: N, b: N) -> int | None:
    """The fewest moves from ``a`` to ``b``, or None when ``b`` cannot be reached."""
    return reach(graph, a).get(b)


def _graph(g: Game) -> Graph:
    graph = g.board.get("graph")
    if graph is None:
        raise RuleError("this game keeps no map graph in board['graph']")
    return graph  # type: ignore[no-any-return]


def _space(graph: Graph, space: Any, native: str) -> Any:
    """``space`` when it is a space of the map; a :class:`RuleError` naming the native when
    it is not (a number, a name of something else, a list)."""
    try:
        if space in graph:
            return space
    except TypeError:  # unhashable: a list is no space
        pass
    raise RuleError(f"{native}: {space!r} is not a space of the map (board['graph'])")


@native(
    "start any, steps number",
    returns="list",
    words="the spaces {steps} moves or fewer from {start}",
)
def reachable_from(g: Game, c: Context, start: Any, steps: int) -> list[Any]:
    """The spaces of the map within that many moves of a space (itself included), nearest
    first."""
    graph = _graph(g)
    found = reach(graph, _space(graph, start, "reachable_from"), int(steps))
    return sorted(found, key=lambda space: found[space])


@native("a any, b any", returns="number", words="the moves between {a} and {b}")
def moves_between(g: Game, c: Context, a: Any, b: Any) -> int:
    """The fewest moves between two spaces of the map (-1 when there is no way)."""
    graph = _graph(g)
    found = distance(graph, _space(graph, a, "moves_between"), _space(graph, b, "moves_between"))
    return -1 if found is None else found
