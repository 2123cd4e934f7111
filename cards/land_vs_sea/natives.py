"""Land vs Sea: Uncharted: the natives and host verbs game.cards declares, and what the engine
reads from a game's Python (GAME_CLASS, NATIVES, VERBS, POLICIES, the scenario hooks).

The board and the turn are :mod:`.game`'s; the geometry :mod:`.board`'s and :mod:`.state`'s;
the policies :mod:`.policy`'s; the scenario vocabulary :mod:`.hooks`'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.hexgrid import Hex, as_hex
from engine.runtime import Context, Game, RuleError

from .board import (
    Area,
    LeyLine,
    Route,
    Tile,
    area_at,
    area_has_city,
    area_mountains,
    hole_side,
    ley_lines_formed,
    line_bonus,
    route_at,
    route_caravans,
    route_has_city,
    route_ships,
)
from .game import LandVsSea, _game
from .hooks import (
    ACTION_ARGS,
    ACTIONS,
    EVENT_KINDS,
    EXPECT,
    EXPECT_KINDS,
    GIVEN,
    GIVEN_KINDS,
    QUESTIONS,
)
from .play import LandVsSeaGame
from .policy import POLICIES

# -- natives: the expansion asks the board


def _tile_of(g: Game, tile: Any) -> Tile:
    return tile if isinstance(tile, Tile) else _game(g).tile(tile)


def _area_or_route(g: Game, place: Any) -> Area | Route:
    """An area or route, or scenario data naming one: ``{area: [q, r], section: i}``,
    ``{route: [q, r]}``."""
    if isinstance(place, (Area, Route)):
        return place
    board = _game(g).tiles
    if isinstance(place, Mapping) and "area" in place:
        return area_at(board, as_hex(place["area"]), int(place.get("section", 0)))
    if isinstance(place, Mapping) and "route" in place:
        route = route_at(board, as_hex(place["route"]))
        if route is None:
            raise RuleError(f"no trade route at {place['route']}")
        return route
    raise RuleError(f"{place!r} is not an area or a trade route")


def _route(g: Game, route: Any) -> Route:
    found = _area_or_route(g, route)
    if not isinstance(found, Route):
        raise RuleError("an area is not a trade route")
    return found


def _area(g: Game, area: Any) -> Area:
    found = _area_or_route(g, area)
    if not isinstance(found, Area):
        raise RuleError("a trade route is not an area")
    return found


def has_menhir(g: Game, c: Context, tile: Any) -> bool:
    """The tile (or the tile at a cell) shows a Menhir."""
    return _tile_of(g, tile).menhir


def new_ley_lines(g: Game, c: Context, tile: Any) -> list[LeyLine]:
    """The ley lines completed by the tile just placed at the cell ``tile``."""
    game = _game(g)
    at = as_hex(tile)
    if not game.map.menhirs:
        return []
    return ley_lines_formed(game.tiles, at)


def bonus_between(g: Game, c: Context, line: LeyLine) -> int:
    """The bonus points on the tiles between a ley line's two Menhirs."""
    if not isinstance(line, LeyLine):  # a card may pass anything to an `any` parameter
        raise RuleError(f"bonus_between takes a ley line (from new_ley_lines), not {line!r}")
    return line_bonus(_game(g).tiles, line)


def has_city(g: Game, c: Context, place: Any) -> bool:
    """A City overlaps or lies in the area, or is connected to the trade route."""
    found = _area_or_route(g, place)
    board = _game(g).tiles
    return area_has_city(board, found) if isinstance(found, Area) else route_has_city(board, found)


def is_bandit(g: Game, c: Context, tile: Any) -> bool:
    """The tile is a Bandit tile."""
    return _tile_of(g, tile).bandit


def is_pirate(g: Game, c: Context, tile: Any) -> bool:
    """The tile is a Pirate tile."""
    return _tile_of(g, tile).pirate


def caravans(g: Game, c: Context, route: Any) -> int:
    """Caravan icons in a trade route (the Lost Traders counts 2)."""
    return route_caravans(_game(g).tiles, _route(g, route))


def ships(g: Game, c: Context, route: Any) -> int:
    """Ship icons in a trade route (the Lost Traders counts 2)."""
    return route_ships(_game(g).tiles, _route(g, route))


def mountains_and_corals(g: Game, c: Context, area: Any) -> int:
    """Mountains in a land area, Corals in a sea area."""
    return area_mountains(_game(g).tiles, _area(g, area))


def first_connection(g: Game, c: Context, placed: Any, route: Any) -> bool:
    """The placed tile shows caravans or ships and this is the first route it connects to:
    "1 tile when first connecting to a Trade Route" scores once, however many it joins."""
    game = _game(g)
    tile = _tile_of(g, placed)
    if not tile.in_trade_route:
        return False
    last = game.last
    if last is not None and last.cell == as_hex(placed) and last.joined:
        return _route(g, route) == last.joined[0]
    return bool(c.e.get("first", True))


def special_tiles_available(g: Game, c: Context) -> list[str]:
    """The special tiles not yet placed."""
    return list(_game(g).specials)


def holes_made(g: Game, c: Context) -> list[Hex]:
    """The holes the last placement made."""
    return _game(g).holes_made()


def special_tile_fits(g: Game, c: Context, hole: Any) -> bool:
    """A special tile is still available for that hole."""
    return bool(_game(g).specials_for(as_hex(hole)))


def placed_steal_tile(g: Game, c: Context) -> bool:
    """The player's tile placed this turn is a Steal tile."""
    last = _game(g).turn_placement
    return last is not None and last.tile.steal


def uses_waypoints(g: Game, c: Context) -> bool:
    """Waypoints are in play: "used as recommended in a 4 player team game"."""
    return len(g.players) == 4 and int(g.params.get("waypoints_each", 0)) > 0


def placements_per_turn(g: Game, c: Context) -> int:
    """The lone player of the 3 player game places twice a turn; everyone else once."""
    game = _game(g)
    if len(g.players) == 3:
        side = game.side_of(c.player)
        if sum(1 for p in g.players if game.side_of(p) == side) == 1:
            return 2
    return 1


def game_over(g: Game, c: Context) -> bool:
    """No tile is left to place, or a whole round of turns placed none."""
    return _game(g).game_over()


def tiles_left(g: Game, c: Context) -> int:
    """Tiles in the stacks and in the players' hands."""
    return _game(g).tiles_left()


NATIVES: dict[str, Callable[..., Any]] = {
    fn.__name__: fn
    for fn in (
        has_menhir,
        new_ley_lines,
        bonus_between,
        has_city,
        is_bandit,
        is_pirate,
        caravans,
        ships,
        mountains_and_corals,
        first_connection,
        special_tiles_available,
        holes_made,
        special_tile_fits,
        placed_steal_tile,
        uses_waypoints,
        placements_per_turn,
        game_over,
        tiles_left,
    )
}


# -- the host's verbs


def set_out_special_tiles(g: Game, c: Context) -> None:
    """Place the special tiles beside the stacks."""
    _game(g).set_out_special_tiles()


def shuffle_into_stacks(g: Game, c: Context, stacks: int) -> None:
    """Shuffle the tiles into stacks."""
    _game(g).shuffle_into_stacks(int(stacks))


def place_scoring_aids(g: Game, c: Context) -> None:
    """Place the aids of the layers in play."""
    game = _game(g)
    game.check_layers()
    game.place_scoring_aids()


def place_starting_tile(g: Game, c: Context) -> None:
    """Choose and place a large starting tile's face."""
    _game(g).place_starting_tile(c.player)


def place_tile(g: Game, c: Context) -> None:
    """The acting player places a held tile."""
    game = _game(g)
    game.place_held_tile(c.player)
    game.turn_placement = game.last


def score_placement(g: Game, c: Context) -> None:
    """Score what the last placement completed."""
    _game(g).score_placement(c.player)


def place_special_tile(g: Game, c: Context, hole: Any) -> None:
    """Place an available special tile into the hole."""
    _game(g).choose_special(c.player, as_hex(hole))


def steal_tile(g: Game, c: Context) -> None:
    """Take a tile from a rival."""
    _game(g).steal_from(c.player)


def place_waypoint(g: Game, c: Context) -> None:
    """Place a Waypoint, or not."""
    _game(g).choose_waypoint(c.player)


def draw_tiles(g: Game, c: Context) -> None:
    """Draw up to the hand size."""
    _game(g).draw_tiles(c.player)


def score_trade_routes(g: Game, c: Context) -> None:
    """End game majority scoring of every trade route."""
    _game(g).score_trade_routes()


def take_bonus_token(g: Game, c: Context) -> None:
    """Take a +50 token."""
    _game(g).bonus_token(c.player, flip=False)


def flip_bonus_token(g: Game, c: Context) -> None:
    """Flip a +50 token to +100."""
    _game(g).bonus_token(c.player, flip=True)


def side_scores(g: Game, c: Context, area: Any, amount: int) -> None:
    """The side of the area scores, for the card's layer."""
    game = _game(g)
    found = _area(g, area)
    owner = game.player_for(found.side)
    if owner is not None:
        title = str(game.cards.get(c.card, {}).get("title", c.card))
        game.award(owner, int(amount), title, c.card or "base_game")


VERBS: dict[str, Callable[..., Any]] = {
    fn.__name__: fn
    for fn in (
        set_out_special_tiles,
        shuffle_into_stacks,
        place_scoring_aids,
        place_starting_tile,
        place_tile,
        score_placement,
        place_special_tile,
        steal_tile,
        place_waypoint,
        draw_tiles,
        score_trade_routes,
        take_bonus_token,
        flip_bonus_token,
        side_scores,
    )
}

GAME_CLASS = LandVsSeaGame

__all__ = [
    "ACTIONS",
    "ACTION_ARGS",
    "EVENT_KINDS",
    "EXPECT",
    "EXPECT_KINDS",
    "GAME_CLASS",
    "GIVEN",
    "GIVEN_KINDS",
    "NATIVES",
    "POLICIES",
    "QUESTIONS",
    "VERBS",
    "LandVsSea",
    "hole_side",
]
