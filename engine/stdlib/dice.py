"""Dice: every roll goes through the game (``g.dice``), so it follows the seed or the script."""

from __future__ import annotations

from engine.runtime import Context, Game, RuleError
from engine.stdlib.registry import native


@native("dice dice", returns="number", words="a roll of {dice}")
def roll(g: Game, c: Context, dice: tuple[int, int]) -> int:
    """Roll the dice and add them up."""
    return sum(g.dice(*dice))


@native("dice dice", returns="number", words="the difference between {dice}")
def difference(g: Game, c: Context, dice: tuple[int, int]) -> int:
    """Roll two dice and give the difference between them (0 on a double)."""
    count, sides = dice
    if count != 2:
        raise RuleError(f"difference() takes two dice, not {count}d{sides}")
    first, second = g.dice(count, sides)
    return abs(first - second)


@native(
    "dice dice, target number",
    returns="number",
    words="the dice of {dice} showing {target} or more",
)
def successes(g: Game, c: Context, dice: tuple[int, int], target: int) -> int:
    """Roll the dice and count those showing ``target`` or more."""
    return sum(1 for value in g.dice(*dice) if value >= target)


@native("dice dice", returns="bool", words="{dice} show doubles")
def doubles(g: Game, c: Context, dice: tuple[int, int]) -> bool:
    """Roll the dice: true when they all show the same number."""
    return len(set(g.dice(*dice))) == 1
