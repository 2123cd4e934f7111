"""Majorities: who has the most of something, and what a tie gives."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

from engine.runtime import Context, Game, Player
from engine.stdlib.registry import native

K = TypeVar("K", bound=Hashable)


def leaders(counts: Mapping[K, int]) -> list[K]:
    """The keys with the highest count, in the mapping's order (none for an empty mapping)."""
    if not counts:
        return []
    best = max(counts.values())
    return [key for key, value in counts.items() if value == best]


def majority(counts: Mapping[K, int]) -> K | None:
    """The one key with strictly more than every other, or None on a tie (or nothing)."""
    top = leaders(counts)
    return top[0] if len(top) == 1 else None


def _held(g: Game, counter: str) -> dict[Player, int]:
    """Each seat holding ``counter`` once, with its count: seats that share one (Land vs
    Sea's team mates, whose side keeps one score: ``Game.counter_holder``) count as the seat
    that holds it, so a team is not tied with itself."""
    counts: dict[Player, int] = {}
    for player in g.players:
        holder = g.counter_holder(player, counter)
        counts[holder] = holder.counters[counter]
    return counts


@native(
    "counter counter",
    returns="list",
    words="the players with the most {counter}",
    items="player",
)
def most_of(g: Game, c: Context, counter: str) -> list[Player]:
    """The players with the most of a counter (several on a tie), in turn order; of seats
    sharing the counter, the one holding it."""
    return leaders(_held(g, counter))


@native("counter counter", returns="bool", words="you have more {counter} than any other player")
def has_majority(g: Game, c: Context, counter: str) -> bool:
    """True when the acting player alone has the most of a counter; of seats sharing the
    counter, the one holding it: a team's majority is counted once, on its marker's seat, so
    ``for each seat in players where has_majority(points) { score 5 }`` scores once a side."""
    return majority(_held(g, counter)) is c.player
