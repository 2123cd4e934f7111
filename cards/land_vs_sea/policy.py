"""Policies for ``cardc sim land_vs_sea``: ``random`` and ``greedy``.

``greedy`` weighs every legal placement by the points it scores now, for the player's side
against the other (areas completed: tiles for their side, bonus points for the placer, doubled
by a City when City scoring is in play; Mountains and Corals; Ley lines; a trade route joined
by a route tile, a Bandit or a Pirate), and breaks ties by the open areas of its own side it
grows (edges of its side matched). It reads :meth:`MapState.preview`, so weighing a placement
never changes the game. Its other answers: a special tile into every hole (the one worth
most), the rival tile with the most bonus points to steal, the first open edge for a Waypoint,
the first stack to draw from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.hexgrid import Hex
from engine.runtime import Game, Policy, Question, RandomLegal

from .board import LAND, Tile, ley_lines_formed, line_bonus
from .game import LandVsSea
from .state import _BITS, Preview

#: How much a point now weighs against one matched edge of the player's side.
POINT_WEIGHT = 8


@dataclass(frozen=True)
class Weights:
    """What a turn's weighing reads once: the layers in play and the points they give."""

    city: bool
    mountains: bool
    routes: bool
    raids: bool
    menhirs: bool
    connection: int

    @classmethod
    def of(cls, game: LandVsSea) -> Weights:
        """The layers in play in ``game``."""
        return cls(
            game.in_play("city_scoring"),
            game.in_play("mountain_and_coral_scoring"),
            game.in_play("caravan_and_ship_scoring"),
            game.in_play("bandit_and_pirate_scoring"),
            game.in_play("menhir_scoring") and bool(game.map.menhirs),
            int(game.params.get("route_connection_points", 0)),
        )


def placement_value(
    game: LandVsSea,
    side: str,
    cell: Hex,
    tile: Tile,
    weights: Weights | None = None,
    rows: dict[Hex, bool] | None = None,
) -> int:
    """What a placement is worth to ``side`` now (see the module's docstring)."""
    w = weights or Weights.of(game)
    preview: Preview = game.map.preview(cell, tile)
    mine = theirs = 0
    for area_side, tiles, bonus, has_city, drawn in preview.completed:
        gained = tiles + (drawn if w.mountains else 0)
        if area_side == side:
            mine += gained
        else:
            theirs += gained
        mine += bonus * (2 if w.city and has_city else 1)
    if preview.joined:
        if tile.in_trade_route and w.routes:
            mine += w.connection
        if w.raids:
            if tile.bandit:
                mine += sum(c for c, _ in preview.joined)
            if tile.pirate:
                mine += sum(s for _, s in preview.joined)
    if w.menhirs:
        key = (cell, tile.menhir)
        aligned = rows.get(key) if rows is not None else None  # type: ignore[call-overload]
        if aligned is None:
            aligned = _may_align(game, cell, tile)
            if rows is not None:
                rows[key] = aligned  # type: ignore[index]
        if aligned:
            tiles = game.map.tiles
            tiles[cell] = tile
            try:
                mine += sum(line_bonus(tiles, line) for line in ley_lines_formed(tiles, cell))
            finally:
                del tiles[cell]
    return POINT_WEIGHT * (mine - theirs) + preview.matched.get(side, 0)


def _may_align(game: LandVsSea, cell: Hex, tile: Tile) -> bool:
    """A quick test before walking the rows: a Menhir placed needs another on one of its three
    rows; any other tile needs a Menhir on each side of it on one row."""
    q, r, s = cell.q, cell.r, -cell.q - cell.r
    ahead = [False, False, False]
    behind = [False, False, False]
    for m in game.map.menhirs:
        mq, mr = m.q, m.r
        ms = -mq - mr
        if mr == r:
            (ahead if mq > q else behind)[0] = True
        if ms == s:
            (ahead if mq > q else behind)[1] = True
        if mq == q:
            (ahead if mr > r else behind)[2] = True
    if tile.menhir:
        return any(ahead) or any(behind)
    return any(a and b for a, b in zip(ahead, behind, strict=True))


class Greedy(Policy):
    """The best placement by points now and the open areas it grows; simple other answers."""

    def decide(self, game: Game, question: Question) -> str:
        """The answer worth most, the first on a tie."""
        if not isinstance(game, LandVsSea):
            return question.options[0]
        player = game.players[question.player]
        side = game.side_of(player)
        if question.id == "place_tile":
            return self.placement(game, side, question.options)
        if question.id == "placement.verb.special_tile":
            return "yes"
        if question.id == "special_tile" and game.last_hole is not None:
            hole = game.last_hole
            face = "land" if game.hole_type(hole) == LAND else "sea"
            return max(
                question.options,
                key=lambda cid: placement_value(game, side, hole, game.special_tile(cid, face)),
            )
        if question.id == "steal":

            def worth(option: str) -> int:
                seat, index = option.split(":")
                held = game.hand(game.players[int(seat) - 1])[int(index)]
                return game.face(held.card, held.up).bonus

            return max(question.options, key=worth)
        if question.id == "waypoint":
            return question.options[1] if len(question.options) > 1 else question.options[0]
        return question.options[0]

    @staticmethod
    def placement(game: LandVsSea, side: str, options: tuple[str, ...]) -> str:
        """The placement worth most. Most placements complete nothing and join nothing: they
        are weighed by bit arithmetic on the edges they match, and only the others go through
        :func:`placement_value`."""
        offered = game.offered
        frontier = game.map.frontier
        weights = Weights.of(game)
        rows: dict[Hex, bool] = {}
        aligns: dict[tuple[Hex, bool], bool] = {}
        land = side == LAND
        best, best_value = options[0], None
        for option in options:
            _index, _face, cell, tile = offered[option]
            mask = frontier.get(cell, (0, 0))[0]
            aligned = False
            if weights.menhirs:
                key = (cell, tile.menhir)
                aligned = aligns.get(key)  # type: ignore[assignment]
                if aligned is None:
                    aligned = aligns[key] = _may_align(game, cell, tile)
            if (
                aligned
                or tile.in_trade_route
                or tile.bandit
                or tile.pirate
                or not all(bits & ~mask for bits in tile.section_bits)
            ):
                value = placement_value(game, side, cell, tile, weights, rows)
            else:
                bits = tile.land_bits & mask if land else ~tile.land_bits & mask & 63
                value = _BITS[bits]
            if best_value is None or value > best_value:
                best, best_value = option, value
        return best


def _random(game: Game, index: int) -> Policy:
    return RandomLegal()


def _greedy(game: Game, index: int) -> Policy:
    return Greedy()


POLICIES: dict[str, Callable[[Game, int], Policy]] = {"random": _random, "greedy": _greedy}
