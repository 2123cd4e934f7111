"""Counters and tracks: what a player's numbers and boxes say, and erasing marks."""

from __future__ import annotations

from engine.runtime import Context, Game
from engine.stdlib.registry import native, verb


@native("track track", returns="number", words="the number of boxes of {track} that are marked")
def marked(g: Game, c: Context, track: str) -> int:
    """How many boxes of the player's track are marked."""
    return c.player.tracks[track].marked


@native(
    "track track", returns="number", words="the number of boxes of {track} that are still empty"
)
def boxes_left(g: Game, c: Context, track: str) -> int:
    """How many boxes of the player's track are still empty."""
    tracked = c.player.tracks[track]
    return tracked.length - tracked.marked


@native("track track", returns="bool", words="every box of {track} is marked")
def track_full(g: Game, c: Context, track: str) -> bool:
    """True when the last box of the player's track is marked."""
    return c.player.tracks[track].full


@verb("track track, amount number = 1", words="erase {amount} of the boxes marked on {track}")
def erase(g: Game, c: Context, track: str, amount: int) -> None:
    """Erase the last marks of a track (never below none): a repair, a cure."""
    tracked = c.player.tracks[track]
    tracked.marked = max(tracked.marked - max(int(amount), 0), 0)
    g.log("erase", c.player.index, track, amount)


@native("counter counter", returns="bool", words="{counter} is at its most")
def at_max(g: Game, c: Context, counter: str) -> bool:
    """True when the counter is at its maximum (never, for a counter without one)."""
    high = g.counter_bounds.get(counter, (0, None))[1]
    return high is not None and c.player.counters[counter] >= high


@native("counter counter", returns="number", words="the total {counter} of every player")
def total_of(g: Game, c: Context, counter: str) -> int:
    """The sum of a counter over every player (a co-op team's total)."""
    return sum(player.counters[counter] for player in g.players)
