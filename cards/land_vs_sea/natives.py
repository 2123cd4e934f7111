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
    CARD_CHECKS,
    LAND,
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
from .board import area_bonus as board_area_bonus
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
from .policy import POLICIES

# -- natives: the expansion asks the board


def _tile_of(g: Game, tile: Any) -> Tile:
    return tile if isinstance(tile, Tile) else _game(g).tile(tile)


def _what(value: Any) -> str:
    """A value a card passed, in the game's words: a Ley line, an area and a trade route were
    shown as their Python reprs (``LeyLine(menhirs=(Hex(2, -2), Hex(0, 0)), ...)``)."""
    if isinstance(value, LeyLine):
        return "a Ley line (from new_ley_lines)"
    if isinstance(value, Area):
        return f"a {value.side} area"
    if isinstance(value, Route):
        return "a trade route"
    if isinstance(value, Tile):
        return "a tile"
    return repr(value)


#: What each kind of value a card may ask of: the hint of a value passed to the wrong native.
_ASK = (
    "a tile is tile_placed's 'placed' (a cell); an area is area_completed's 'area' (or one of "
    "areas_completed()); a trade route is route_joined's 'route' (or one of trade_routes()); "
    "a Ley line is one of new_ley_lines(placed), read by bonus_between"
)


def _shown_at(g: Game, tile: Any) -> Tile | None:
    """The tile (or the tile at a cell), None for an empty cell: what a tile shows is asked of
    any cell a card names (``for each cell in hex_neighbours(placed) where has_menhir(cell)``),
    and an empty cell shows nothing."""
    if isinstance(tile, Tile):
        return tile
    if isinstance(tile, (LeyLine, Area, Route)):
        # as_hex said "LeyLine(...) is not a hex cell (q, r); a card gives one as a property".
        raise RuleError(f"{_what(tile)} is not a tile or a cell: {_ASK}")
    return _game(g).tiles.get(as_hex(tile))


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
    if _is_cell(place):
        raise RuleError(
            f"{as_hex(place)} is a cell, not an area or a trade route: an area is "
            "area_completed's 'area' (or one of areas_completed()), a trade route is "
            "route_joined's 'route' (or one of trade_routes())"
        )
    raise RuleError(f"{_what(place)} is not an area or a trade route: {_ASK}")


def _is_cell(place: Any) -> bool:
    """A cell (a placed tile's ``placed``, a scenario's ``[q, r]``), not an area or route."""
    if isinstance(place, Hex):
        return True
    return (
        isinstance(place, (tuple, list))
        and len(place) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) for n in place)
    )


def _route_of(g: Game, route: Any) -> Route | None:
    """A trade route, or the one the tile at a cell is part of (None: the tile is in none,
    as a Bandit or a tile without icons)."""
    if _is_cell(route):
        return route_at(_game(g).tiles, as_hex(route))
    return _route(g, route)


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


def _waypoint(g: Game, waypoint: Any) -> tuple[Hex, int]:
    """A Waypoint on the board, by its edge: ``(cell, direction)`` (from waypoints_in or
    waypoints_surrounded), or scenario data ``{cell: [q, r], direction: d}``."""
    if isinstance(waypoint, Mapping) and "cell" in waypoint:
        waypoint = (waypoint["cell"], waypoint.get("direction"))
    if isinstance(waypoint, (tuple, list)) and len(waypoint) == 2:
        cell, direction = waypoint
        if isinstance(direction, int) and isinstance(cell, (Hex, tuple, list)):
            key = (as_hex(cell), direction)
            if key in _game(g).waypoints:
                return key
    raise RuleError(f"{waypoint!r} is not a Waypoint on the board (from waypoints_in)")


def has_menhir(g: Game, c: Context, tile: Any) -> bool:
    """The tile (or the tile at a cell) shows a Menhir (false for an empty cell)."""
    found = _shown_at(g, tile)
    return found is not None and found.menhir


def new_ley_lines(g: Game, c: Context, tile: Any) -> list[LeyLine]:
    """The ley lines completed by the tile just placed at the cell ``tile``."""
    game = _game(g)
    at = as_hex(tile)
    if not game.map.menhirs:
        return []
    # The placement just made worked them out as it put the tile down (Placement.ley_lines).
    last = game.last
    if last is not None and last.cell == at and game.tiles.get(at) is last.tile:
        return list(last.ley_lines)
    return ley_lines_formed(game.tiles, at)


def bonus_between(g: Game, c: Context, line: LeyLine) -> int:
    """The bonus points on the tiles between a ley line's two Menhirs."""
    if not isinstance(line, LeyLine):  # a card may pass anything to an `any` parameter
        raise RuleError(f"bonus_between takes a Ley line (from new_ley_lines), not {_what(line)}")
    return line_bonus(_game(g).tiles, line)


def has_city(g: Game, c: Context, place: Any) -> bool:
    """A City overlaps or lies in the area, or is connected to the trade route; of a tile (a
    cell, as ``tile_placed``'s ``placed``), the tile shows a City."""
    if isinstance(place, Tile) or _is_cell(place):
        found_tile = _shown_at(g, place)
        return found_tile is not None and found_tile.city
    if isinstance(place, LeyLine):
        # A house rule's "a Ley line through a City": the rulebook gives a Ley line no City.
        raise RuleError(
            f"has_city asks of a tile, an area or a trade route, not {_what(place)}: {_ASK}"
        )
    found = _area_or_route(g, place)
    board = _game(g).tiles
    return area_has_city(board, found) if isinstance(found, Area) else route_has_city(board, found)


def is_bandit(g: Game, c: Context, tile: Any) -> bool:
    """The tile is a Bandit tile (false for an empty cell)."""
    found = _shown_at(g, tile)
    return found is not None and found.bandit


def is_pirate(g: Game, c: Context, tile: Any) -> bool:
    """The tile is a Pirate tile (false for an empty cell)."""
    found = _shown_at(g, tile)
    return found is not None and found.pirate


def caravans(g: Game, c: Context, route: Any) -> int:
    """Caravan icons in a trade route (the Lost Traders counts 2); of a tile (a cell), in the
    trade route it is part of (0 when none)."""
    found = _route_of(g, route)
    return 0 if found is None else route_caravans(_game(g).tiles, found)


def ships(g: Game, c: Context, route: Any) -> int:
    """Ship icons in a trade route (the Lost Traders counts 2); of a tile (a cell), in the
    trade route it is part of (0 when none)."""
    found = _route_of(g, route)
    return 0 if found is None else route_ships(_game(g).tiles, found)


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


def side_seats(g: Game, c: Context) -> int:
    """How many seats play the acting player's side: 1, or 2 for a team."""
    game = _game(g)
    side = game.side_of(c.player)
    return sum(1 for p in g.players if game.side_of(p) == side)


def turns_taken(g: Game, c: Context) -> int:
    """Turns begun so far: 0 during the setup."""
    return int(_game(g).turns)


def idle_placements(g: Game, c: Context) -> int:
    """Turns in a row in which a placement found no legal place for a held tile (a turn of
    two placements counts once)."""
    return _game(g).idle


def seats(g: Game, c: Context) -> int:
    """How many players sit at the table."""
    return len(g.players)


def areas_completed(g: Game, c: Context) -> list[Area]:
    """The areas the last placement completed, in the order of its sections."""
    return _game(g).areas_completed()


def area_tiles(g: Game, c: Context, area: Any) -> int:
    """The tiles making up the area (a tile counts once; the large starting tile as
    ``starting_tile_parts`` tiles)."""
    return _game(g).area_tiles(_area(g, area))


def area_bonus(g: Game, c: Context, area: Any) -> int:
    """The bonus points printed in the area's sections."""
    return board_area_bonus(_game(g).tiles, _area(g, area))


def waypoints_in(g: Game, c: Context, area: Any) -> list[tuple[Hex, int]]:
    """The Waypoints on the open edges of the area's sections."""
    return _game(g).waypoints_in(_area(g, area))


def waypoints_surrounded(g: Game, c: Context) -> list[tuple[Hex, int]]:
    """The Waypoints whose space the last placement surrounded with 6 tiles."""
    return _game(g).waypoints_surrounded()


def routes_joined(g: Game, c: Context) -> list[Route]:
    """The trade routes next to the last placement before it joined them."""
    return _game(g).routes_joined()


def trade_routes(g: Game, c: Context) -> list[Route]:
    """Every trade route on the board, in the order of its first cell."""
    return _game(g).trade_routes()


def keeps_points(g: Game, c: Context) -> bool:
    """The acting player's seat keeps its side's points (its first seat)."""
    return _game(g).keeps_points(c.player)


def plays_land(g: Game, c: Context) -> bool:
    """The acting player plays the Land side."""
    return _game(g).side_of(c.player) == LAND


def icon_value(g: Game, c: Context) -> int:
    """What each Caravan and Ship of the route last won scores."""
    return _game(g).values["icon_value"]


def bonus_value(g: Game, c: Context) -> int:
    """What each bonus point of the area last completed scores."""
    return _game(g).values["bonus_value"]


def waypoint_value(g: Game, c: Context) -> int:
    """What a Waypoint of the area last completed or surrounded scores."""
    return _game(g).values["waypoint_value"]


def tiles_left(g: Game, c: Context) -> int:
    """Tiles in the stacks and in the players' hands."""
    return _game(g).tiles_left()


def bonus_tokens_in_supply(g: Game, c: Context) -> int:
    """The bonus scoring tokens left in the supply."""
    return _game(g).token_supply


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
        side_seats,
        tiles_left,
        turns_taken,
        idle_placements,
        seats,
        areas_completed,
        area_tiles,
        area_bonus,
        waypoints_in,
        waypoints_surrounded,
        routes_joined,
        bonus_value,
        waypoint_value,
        trade_routes,
        keeps_points,
        plays_land,
        icon_value,
        bonus_tokens_in_supply,
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


def announce_placement(g: Game, c: Context) -> None:
    """``tile_placed`` for the last placement."""
    _game(g).announce_placement(c.player)


def announce_completion(g: Game, c: Context, area: Any) -> None:
    """``area_completed`` for the area; its values kept for the scoring that follows."""
    _game(g).announce_completion(c.player, _area(g, area))


def announce_surrounded(g: Game, c: Context, waypoint: Any) -> None:
    """``waypoint_surrounded`` for the Waypoint's area; its value kept."""
    _game(g).announce_surrounded(c.player, _waypoint(g, waypoint))


def announce_route_joined(g: Game, c: Context, route: Any) -> None:
    """``route_joined`` for a trade route the last placement joined."""
    _game(g).announce_route_joined(c.player, _route(g, route))


def side_scores_tiles(g: Game, c: Context, area: Any, amount: int) -> None:
    """The area's side scores for its tiles (the base game's area scoring)."""
    _game(g).side_scores_tiles(_area(g, area), int(amount))


def score_each(g: Game, c: Context, amount: int, value: int, why: str) -> None:
    """The acting player scores ``amount`` at ``value`` each."""
    _game(g)._doubled(c.player, int(amount), int(value), str(why))


def return_waypoint(g: Game, c: Context, waypoint: Any) -> None:
    """The Waypoint on that edge goes back to its owner."""
    _game(g)._return_waypoint(_waypoint(g, waypoint))


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


def announce_route_scored(g: Game, c: Context, route: Any) -> None:
    """``route_scored`` for a route the acting player won; its icon_value kept."""
    _game(g).announce_route_scored(c.player, _route(g, route))


def score_route_icons(g: Game, c: Context, icons: int, value: int) -> None:
    """The acting player scores a trade route's icons at ``value`` each."""
    _game(g).score_route_icons(c.player, int(icons), int(value))


def take_token_from_supply(g: Game, c: Context) -> None:
    """One bonus scoring token leaves the supply."""
    _game(g).take_token_from_supply()


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
        announce_placement,
        announce_completion,
        announce_surrounded,
        announce_route_joined,
        side_scores_tiles,
        score_each,
        return_waypoint,
        place_special_tile,
        steal_tile,
        place_waypoint,
        draw_tiles,
        announce_route_scored,
        score_route_icons,
        take_token_from_supply,
        side_scores,
    )
}

GAME_CLASS = LandVsSea

#: "They can be used in 2 player head to head, 3 player asymmetric, and 4 player team game
#: modes": Land against Sea every time, never a co-op team of every seat (cardc sim --mode
#: coop summed both sides' points as one team's).
MODES = ("competitive",)

__all__ = [
    "ACTIONS",
    "ACTION_ARGS",
    "CARD_CHECKS",
    "EVENT_KINDS",
    "EXPECT",
    "EXPECT_KINDS",
    "GAME_CLASS",
    "GIVEN",
    "GIVEN_KINDS",
    "MODES",
    "NATIVES",
    "POLICIES",
    "QUESTIONS",
    "VERBS",
    "LandVsSea",
    "hole_side",
]
