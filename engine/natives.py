"""The prelude's natives: functions every game's expressions may call.

``min`` and ``max`` keep the DSL's names, so this module reaches the built-ins through
``builtins``.

Each takes the game and the context first, like every native; dice come as ``(count, sides)``
and are rolled through the game, so they follow the seed (or the scenario's script).
"""

from __future__ import annotations

import builtins
from typing import Any

from engine.runtime import Context, Game


def count(g: Game, c: Context, zone: Any) -> int:
    """How many cards the acting player's zone holds, or how many items a list holds (a
    native's list: ``count(trade_routes())``)."""
    if isinstance(zone, (list, tuple)):
        return len(zone)
    return len(c.player.zones[zone])


def highest(g: Game, c: Context, dice: tuple[int, int]) -> int:
    """Roll the dice and keep the highest ("If you get the same number, apply that number")."""
    return builtins.max(g.dice(*dice))


def highest_or_sum(g: Game, c: Context, dice: tuple[int, int]) -> int:
    """Roll the dice and keep the highest; when all show the same number, add them."""
    rolled = g.dice(*dice)
    return sum(rolled) if len(set(rolled)) == 1 else builtins.max(rolled)


def lowest(g: Game, c: Context, dice: tuple[int, int]) -> int:
    """Roll the dice and keep the lowest."""
    return builtins.min(g.dice(*dice))


def min(g: Game, c: Context, a: Any, b: Any) -> Any:  # noqa: A001 - the DSL's own name
    """The smaller of two numbers."""
    return a if a <= b else b


def max(g: Game, c: Context, a: Any, b: Any) -> Any:  # noqa: A001 - the DSL's own name
    """The larger of two numbers."""
    return a if a >= b else b
