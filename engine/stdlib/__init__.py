"""The standard library of natives and verbs every game may use (``use dice, decks`` in its
``game.cards``), each declared with its DSL signature (:mod:`engine.stdlib.registry`).

- :mod:`~engine.stdlib.dice`: sums, differences, successes, doubles.
- :mod:`~engine.stdlib.decks`: shuffle, draw, reshuffle the discard, look at the top.
- :mod:`~engine.stdlib.zones`: move cards between zones, what a zone holds.
- :mod:`~engine.stdlib.markets`: a shared face-up row refilled from its deck.
- :mod:`~engine.stdlib.counters`: tracks' marks, erasing, counters' bounds and totals.
- :mod:`~engine.stdlib.hexes`: hex distance, neighbours, lines, rings, connected areas.
- :mod:`~engine.stdlib.graphs`: reach and distance over a map graph.
- :mod:`~engine.stdlib.majorities`: who has the most, and ties.
- :mod:`~engine.stdlib.tiles`: edge-matched tile placement and area completion (Python API).
"""

from __future__ import annotations

from engine.stdlib import (  # noqa: F401 - importing a module registers its functions
    counters,
    decks,
    dice,
    graphs,
    hexes,
    majorities,
    markets,
    tiles,
    zones,
)
from engine.stdlib.registry import LIBRARY, Param, Spec


def spec(name: str) -> Spec | None:
    """The library function of that DSL name, in whichever module, or None."""
    for module in LIBRARY.values():
        if name in module:
            return module[name]
    return None


__all__ = ["LIBRARY", "Param", "Spec", "spec"]
