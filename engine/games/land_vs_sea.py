"""Land vs Sea: Uncharted: the board the expansion's scoring layers read, and the natives.

Source: /work/shared/rulebooks/land-vs-sea-uncharted.txt ("the rulebook") and the base-game
summary in the rulebooks' README. The layers themselves (Menhir, City, Bandit & Pirate scoring)
are card data in cards/land_vs_sea/layers.cards; this module answers their questions about the
board and does the base game's scoring around them.

The model, kept as small as the scoring needs:

- The board maps hex cells (:mod:`engine.hexgrid`) to :class:`Tile`. The rulebook's large
  starting tiles "are considered as 4 separate 'tiles' for scoring purposes", so one is put
  down as four tiles on four cells.
- A tile's six edges are each land or sea; its *sections* group those edges (a section is the
  land or the water reaching those edges) and carry the bonus points and the City drawn in
  them. A section is only a set of edges: the model does not check that a tile's sections
  could be drawn without crossing. Two tiles' sections facing each other across a shared edge
  are one body of land or sea; an *area* is such a body, and it is complete when none of its
  sections' edges faces an empty cell.
- A *trade route* is a group of adjacent tiles showing caravan or ship icons. Bandit and
  Pirate tiles are not part of one ("Bandits and Pirates are not counted as caravans or ships
  themselves"); they join the routes next to them. A City tile is not part of a route either
  (one city sits between two separate routes in the rulebook's example); a route is
  "connected to" a City when one of its tiles shows one or lies next to one.
- A Waypoint sits on the open edge of an area (a cell and a direction): "place it on the open
  edge of the same land area". It is scored when the area completes, or when the empty cell
  beyond that edge is surrounded by 6 tiles.

Players take a side, Land or Sea (``player.flags['side']``): by default the first player is
Land, the next Sea, and so on alternately (the 2 player game; a scenario may set sides).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.hexgrid import (
    AXES,
    CellLike,
    Hex,
    as_hex,
    neighbour,
    neighbours,
    opposite,
    ray,
)
from engine.runtime import Context, Game, Player, RuleError
from engine.scenario_types import Choice, Fields, Flag, Id, Many, Number, OneOf, Text
from engine.stdlib.majorities import majority

LAND = "land"
SEA = "sea"
SIDES = (LAND, SEA)

#: The special tiles of the card data (cards/land_vs_sea/tiles.cards), by card id.
LOST_CITY = "lost_city"
LOST_TRADERS = "lost_traders"


# -- tiles


@dataclass(frozen=True)
class Section:
    """The land or sea of one tile reaching some of its edges, with what is drawn in it."""

    side: str
    edges: frozenset[int]
    #: bonus points (crosses) printed in this section.
    bonus: int = 0
    #: a City icon overlaps this section ("Cities straddle both the Land and Sea sections").
    city: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "edges", frozenset(self.edges))
        if self.side not in SIDES:
            raise RuleError(f"a section is land or sea, not '{self.side}'")
        if not self.edges or not self.edges <= frozenset(range(6)):
            raise RuleError(f"a section's edges are some of 0..5, not {sorted(self.edges)}")
        if self.bonus < 0:
            raise RuleError("a section's bonus points are never negative")


@dataclass(frozen=True)
class Tile:
    """A hex tile as the scoring layers see it."""

    sections: tuple[Section, ...]
    #: a Menhir is drawn on the tile.
    menhir: bool = False
    #: caravan and ship icons (the Lost Traders' face shows 2).
    caravans: int = 0
    ships: int = 0
    bandit: bool = False
    pirate: bool = False
    #: the card id of a special tile (``lost_city``, ``lost_traders``), else None.
    special: str | None = None
    name: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "sections", tuple(self.sections))
        seen: list[int] = [e for section in self.sections for e in section.edges]
        if sorted(seen) != list(range(6)):
            raise RuleError(
                f"a tile's sections must share out its six edges 0..5 once each, got {sorted(seen)}"
            )
        if self.caravans < 0 or self.ships < 0:
            raise RuleError("a tile's caravan and ship icons are never negative")

    # -- shapes

    @classmethod
    def land(cls, bonus: int = 0, city: bool = False, **features: Any) -> Tile:
        """An all-land tile: one land section reaching all six edges."""
        return cls((Section(LAND, frozenset(range(6)), bonus, city),), **features)

    @classmethod
    def sea(cls, bonus: int = 0, city: bool = False, **features: Any) -> Tile:
        """An all-sea tile: one sea section reaching all six edges."""
        return cls((Section(SEA, frozenset(range(6)), bonus, city),), **features)

    @classmethod
    def split(
        cls,
        land: Iterable[int],
        land_bonus: int = 0,
        sea_bonus: int = 0,
        city: bool = False,
        **features: Any,
    ) -> Tile:
        """A tile of one land section (edges ``land``) and one sea section (the other edges).

        ``city`` puts a City on both: "Cities straddle both the Land and Sea sections of
        tiles they are on, and so increase the bonus point scoring in both areas they overlap."
        """
        land_edges = frozenset(land)
        sea_edges = frozenset(range(6)) - land_edges
        sections = []
        if land_edges:
            sections.append(Section(LAND, land_edges, land_bonus, city))
        if sea_edges:
            sections.append(Section(SEA, sea_edges, sea_bonus, city))
        return cls(tuple(sections), **features)

    # -- reading

    def section_at(self, direction: int) -> int:
        """The index of the section reaching the edge in ``direction``."""
        for index, section in enumerate(self.sections):
            if direction in section.edges:
                return index
        raise RuleError(f"no section reaches edge {direction}")  # pragma: no cover - validated

    def edge(self, direction: int) -> str:
        """Land or sea: what the edge in ``direction`` shows."""
        return self.sections[self.section_at(direction)].side

    @property
    def bonus(self) -> int:
        """All the bonus points printed on the tile."""
        return sum(section.bonus for section in self.sections)

    @property
    def city(self) -> bool:
        """True when a City is drawn on the tile."""
        return any(section.city for section in self.sections)

    @property
    def in_trade_route(self) -> bool:
        """True for a tile a trade route is made of: caravan or ship icons, not a raider."""
        return (self.caravans > 0 or self.ships > 0) and not (self.bandit or self.pirate)


def _icon_count(value: Any, icon: str) -> int:
    """How many of ``icon`` a card property like ``caravan 2`` lists."""
    if not value:
        return 0
    clauses = value if isinstance(value, list) and isinstance(value[0], list) else [value]
    return sum(int(clause[1]) for clause in clauses if clause and clause[0] == icon)


def special_tile(card: Mapping[str, Any], face: str) -> Tile:
    """A special tile from its card (the IR's card dict), on its land or its sea face.

    "2 new special all land / all sea edged Lost City and Lost Trader tiles": the face chosen
    is one section reaching all six edges. ``city`` puts the City in it ("These only increase
    bonus point and Waypoint scores in the matching land OR sea area they are part of");
    ``land_icons`` / ``sea_icons`` give the icons that face shows.
    """
    if face not in SIDES:
        raise RuleError(f"a special tile is placed land or sea face up, not '{face}'")
    properties = card.get("properties", {})
    if properties.get("edges") != "all_land_or_all_sea":
        raise RuleError(f"{card.get('id')} is not an all land / all sea special tile")
    icons = properties.get(f"{face}_icons")
    return Tile(
        (Section(face, frozenset(range(6)), 0, bool(properties.get("city"))),),
        caravans=_icon_count(icons, "caravan"),
        ships=_icon_count(icons, "ship"),
        special=str(card.get("id")),
        name=str(card.get("title", "")),
    )


# -- areas, routes, ley lines: pure functions of a board (a mapping of cells to tiles)

Board = Mapping[Hex, Tile]


@dataclass(frozen=True)
class Area:
    """A land or sea area: the tile sections joined edge to edge, as ``(cell, section)``."""

    side: str
    members: frozenset[tuple[Hex, int]]

    @property
    def cells(self) -> frozenset[Hex]:
        """The tiles making up the area (a tile counts once)."""
        return frozenset(cell for cell, _ in self.members)


@dataclass(frozen=True)
class Route:
    """A trade route: adjacent tiles with caravan or ship icons."""

    cells: frozenset[Hex]


@dataclass(frozen=True)
class LeyLine:
    """Two aligned Menhirs and the complete row of tiles between them."""

    menhirs: tuple[Hex, Hex]
    between: tuple[Hex, ...]
    #: the axis (0, 1, 2) of :data:`engine.hexgrid.AXES` the row runs along.
    axis: int


def misfits(board: Board, cell: Hex, tile: Tile) -> list[int]:
    """The directions in which ``tile`` at ``cell`` would meet a neighbour's other kind of edge."""
    wrong = []
    for direction in range(6):
        other = board.get(neighbour(cell, direction))
        if other is not None and other.edge(opposite(direction)) != tile.edge(direction):
            wrong.append(direction)
    return wrong


def area_at(board: Board, cell: Hex, section: int = 0) -> Area:
    """The area the given section of the tile at ``cell`` belongs to."""
    start_tile = board.get(cell)
    if start_tile is None:
        raise RuleError(f"no tile at {cell}")
    side = start_tile.sections[section].side
    seen = {(cell, section)}
    frontier = [(cell, section)]
    while frontier:
        at, index = frontier.pop()
        for direction in board[at].sections[index].edges:
            nxt = neighbour(at, direction)
            other = board.get(nxt)
            if other is None or other.edge(opposite(direction)) != side:
                continue
            member = (nxt, other.section_at(opposite(direction)))
            if member not in seen:
                seen.add(member)
                frontier.append(member)
    return Area(side, frozenset(seen))


def areas_at(board: Board, cell: Hex) -> list[Area]:
    """The distinct areas the tile at ``cell`` is part of, in the order of its sections."""
    found: list[Area] = []
    for index in range(len(board[cell].sections)):
        area = area_at(board, cell, index)
        if area not in found:
            found.append(area)
    return found


def is_complete(board: Board, area: Area) -> bool:
    """True when no edge of the area faces an empty cell."""
    return all(
        neighbour(cell, direction) in board
        for cell, index in area.members
        for direction in board[cell].sections[index].edges
    )


def area_bonus(board: Board, area: Area) -> int:
    """The bonus points printed in the area's sections."""
    return sum(board[cell].sections[index].bonus for cell, index in area.members)


def area_has_city(board: Board, area: Area) -> bool:
    """True when a City overlaps one of the area's sections (any number counts once)."""
    return any(board[cell].sections[index].city for cell, index in area.members)


def route_at(board: Board, cell: Hex) -> Route | None:
    """The trade route the tile at ``cell`` belongs to, or None if it shows no route icons."""
    tile = board.get(cell)
    if tile is None or not tile.in_trade_route:
        return None
    seen = {cell}
    frontier = [cell]
    while frontier:
        at = frontier.pop()
        for nxt in neighbours(at):
            other = board.get(nxt)
            if other is not None and other.in_trade_route and nxt not in seen:
                seen.add(nxt)
                frontier.append(nxt)
    return Route(frozenset(seen))


def routes_next_to(board: Board, cell: Hex) -> list[Route]:
    """The distinct trade routes with a tile next to ``cell``, in direction order."""
    found: list[Route] = []
    for nxt in neighbours(cell):
        route = route_at(board, nxt)
        if route is not None and route not in found:
            found.append(route)
    return found


def all_routes(board: Board) -> list[Route]:
    """Every trade route on the board, in the order of their first cell."""
    found: list[Route] = []
    for cell in sorted(board):
        if any(cell in route.cells for route in found):
            continue
        route = route_at(board, cell)
        if route is not None:
            found.append(route)
    return found


def route_caravans(board: Board, route: Route) -> int:
    """Caravan icons in the route (the Lost Traders' land face counts its 2)."""
    return sum(board[cell].caravans for cell in route.cells)


def route_ships(board: Board, route: Route) -> int:
    """Ship icons in the route (the Lost Traders' sea face counts its 2)."""
    return sum(board[cell].ships for cell in route.cells)


def route_has_city(board: Board, route: Route) -> bool:
    """True when the route is connected to a City: a tile of it shows one or lies next to one."""
    return any(
        board[cell].city
        or any(board.get(n) is not None and board[n].city for n in neighbours(cell))
        for cell in route.cells
    )


def _first_menhir(board: Board, start: Hex, direction: int) -> tuple[Hex | None, tuple[Hex, ...]]:
    """Walk from ``start``: the first Menhir along a complete row, and the tiles before it.

    A gap (an empty cell) before any Menhir means no line that way: (None, ()).
    """
    passed: list[Hex] = []
    for cell in ray(start, direction):
        tile = board.get(cell)
        if tile is None:
            return None, ()
        if tile.menhir:
            return cell, tuple(passed)
        passed.append(cell)
    raise AssertionError("unreachable: a ray has no end")  # pragma: no cover


def ley_lines_formed(board: Board, cell: Hex) -> list[LeyLine]:
    """The ley lines the tile just placed at ``cell`` completes, on all three axes.

    - A Menhir placed aligns with the first Menhir each way along each axis when the row of
      tiles between them is complete ("each Ley line stops at the first Menhir they align
      with"); placed between two distant Menhirs it forms both lines.
    - Any other tile forms a line when it fills the last gap of a row between two Menhirs:
      "Menhirs with gaps between them immediately become aligned to form a Ley line when a
      complete row of tiles is formed between them."

    Two Menhirs side by side have no tiles between them and form no line.
    """
    placed = board[cell]
    lines: list[LeyLine] = []
    for axis, (forward, back) in enumerate(AXES):
        ahead, ahead_tiles = _first_menhir(board, cell, forward)
        behind, behind_tiles = _first_menhir(board, cell, back)
        if placed.menhir:
            for end, tiles in ((ahead, ahead_tiles), (behind, behind_tiles)):
                if end is not None and tiles:
                    lines.append(LeyLine((cell, end), tiles, axis))
        elif ahead is not None and behind is not None:
            row = (*reversed(behind_tiles), cell, *ahead_tiles)
            lines.append(LeyLine((behind, ahead), row, axis))
    return lines


def line_bonus(board: Board, line: LeyLine) -> int:
    """The bonus points on the tiles in-between a ley line's two Menhirs (not on the Menhirs)."""
    return sum(board[cell].bonus for cell in line.between)


def hole_side(board: Board, cell: Hex) -> str | None:
    """Land or sea when ``cell`` is a hole: empty, "surrounded by 6 of the same type of edges"."""
    if cell in board:
        return None
    facing = set()
    for direction in range(6):
        other = board.get(neighbour(cell, direction))
        if other is None:
            return None
        facing.add(other.edge(opposite(direction)))
    return facing.pop() if len(facing) == 1 else None


# -- the game


@dataclass(frozen=True)
class Placement:
    """What placing one tile did: the areas it completed and the routes it joined."""

    cell: Hex
    completed: tuple[Area, ...]
    joined: tuple[Route, ...]
    ley_lines: tuple[LeyLine, ...]


@dataclass
class LandVsSea(Game):
    """A game of Land vs Sea with the Uncharted scoring layers: tiles placed and scored.

    ``layers`` names the layer card ids in play ("Decide on the scoring layers you want to
    play with"); None plays every layer in the card data.
    """

    layers: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        self.board["tiles"] = {}
        # Waypoints by the open edge they sit on (cell, direction): the owner's index.
        self.board["waypoints"] = {}
        for player in self.players:
            player.flags.setdefault("side", SIDES[player.index % 2])

    # -- the board

    @property
    def tiles(self) -> dict[Hex, Tile]:
        """The tiles on the board, by cell."""
        tiles: dict[Hex, Tile] = self.board["tiles"]
        return tiles

    def tile(self, cell: CellLike) -> Tile:
        """The tile at ``cell``; an error if the cell is empty."""
        at = as_hex(cell)
        if at not in self.tiles:
            raise RuleError(f"no tile at {at}")
        return self.tiles[at]

    def put_tile(self, cell: CellLike, tile: Tile) -> Hex:
        """Put a tile on an empty cell whose neighbours' edges it matches; nothing scores.

        For setting up (the starting tile, a scenario's board); a turn uses :meth:`place_tile`.
        """
        at = as_hex(cell)
        if at in self.tiles:
            raise RuleError(f"{at} already holds a tile")
        wrong = misfits(self.tiles, at, tile)
        if wrong:
            raise RuleError(
                f"the tile at {at} meets the other kind of edge in directions {wrong}: "
                "land edges meet land and sea edges meet sea"
            )
        self.tiles[at] = tile
        return at

    def special_tile(self, card_id: str, face: str) -> Tile:
        """A special tile from this game's card data, on its land or sea face."""
        if card_id not in self.cards or self.cards[card_id]["kind"] != "tile":
            raise RuleError(f"'{card_id}' is not a special tile of the card data")
        return special_tile(self.cards[card_id], face)

    @property
    def waypoints(self) -> dict[tuple[Hex, int], int]:
        """The Waypoints on the board: their owner's index, by the edge (cell, direction)."""
        waypoints: dict[tuple[Hex, int], int] = self.board["waypoints"]
        return waypoints

    # -- sides

    def side_of(self, player: Player) -> str:
        """The side a player plays: land or sea."""
        side: str = player.flags["side"]
        return side

    def player_for(self, side: str, prefer: Player | None = None) -> Player | None:
        """Who takes a side's points: ``prefer`` when on that side, else its first player.

        The expansion's rulebook does not say how team games keep score; the points of a side
        go to one player of it.
        """
        if prefer is not None and self.side_of(prefer) == side:
            return prefer
        return next((p for p in self.players if self.side_of(p) == side), None)

    def award(self, player: Player, amount: int, why: str) -> None:
        """Score points for a player, logged with the reason."""
        if amount:
            self.score(Context(player, "", why), amount)
            self.log("scored", player.index, why, amount)

    # -- layers in play

    def cards_in_force(self, player: Player) -> list[str]:
        """Every rule, and the scoring layers in play."""
        cards = super().cards_in_force(player)
        if self.layers is None:
            return cards
        return [cid for cid in cards if self.cards[cid]["kind"] != "layer" or cid in self.layers]

    # -- a turn

    def place_tile(self, player: Player, cell: CellLike, tile: Tile) -> Placement:
        """``player`` places ``tile`` at ``cell``, and everything it sets off scores.

        In order: ``tile_placed`` (Menhir scoring); every area the tile completes
        (:meth:`complete_area`); every Waypoint whose open cell it surrounds; and, for a
        Bandit or Pirate tile, every trade route it joins (:meth:`join_route`).
        """
        at = self.put_tile(cell, tile)
        self.log("tile_placed", player.index, [at.q, at.r])
        lines = tuple(ley_lines_formed(self.tiles, at))
        self.fire("tile_placed", player, event={"placed": at})
        completed = tuple(a for a in areas_at(self.tiles, at) if is_complete(self.tiles, a))
        for area in completed:
            self.complete_area(player, area)
        for (wcell, direction), _owner in list(self.waypoints.items()):
            hole = neighbour(wcell, direction)
            still_there = (wcell, direction) in self.waypoints
            if still_there and hole in neighbours(at) and self._surrounded(hole):
                self.surround_waypoint(player, wcell, direction)
        joined: tuple[Route, ...] = ()
        if tile.bandit or tile.pirate:
            joined = tuple(routes_next_to(self.tiles, at))
            for route in joined:
                self.join_route(player, at, route)
        return Placement(at, completed, joined, lines)

    def _surrounded(self, cell: Hex) -> bool:
        return cell not in self.tiles and all(n in self.tiles for n in neighbours(cell))

    def complete_area(self, player: Player, area: Area) -> Context:
        """``player`` completes ``area``: ``area_completed``, then the base game's scoring.

        The layers may raise ``bonus_value`` / ``waypoint_value`` (from 1). Then, as the base
        game does, the area's side scores 1 point per tile in it, the completing player scores
        its bonus points times ``bonus_value``, and each Waypoint on it is returned to its
        owner and scores ``waypoint_value`` for the completing player.
        """
        c = self.fire(
            "area_completed",
            player,
            event={"area": area},
            quantities={"bonus_value": 1, "waypoint_value": 1},
        )
        self.log("area_completed", player.index, area.side, len(area.cells))
        owner = self.player_for(area.side, player)
        if owner is not None:
            self.award(owner, len(area.cells), f"{area.side} area tiles")
        self.award(player, area_bonus(self.tiles, area) * c.q["bonus_value"], "bonus points")
        for key in [k for k in self.waypoints if self._waypoint_in(k, area)]:
            del self.waypoints[key]
            self.award(player, c.q["waypoint_value"], "waypoint")
        return c

    # -- waypoints

    def _waypoint_in(self, key: tuple[Hex, int], area: Area) -> bool:
        cell, direction = key
        tile = self.tiles.get(cell)
        return tile is not None and (cell, tile.section_at(direction)) in area.members

    def place_waypoint(self, owner: Player, cell: CellLike, direction: int) -> None:
        """``owner`` puts a Waypoint on the open edge of the tile at ``cell`` in ``direction``."""
        at = as_hex(cell)
        self.tile(at)
        if neighbour(at, direction) in self.tiles:
            raise RuleError(f"the edge of {at} in direction {direction} is not open")
        self.waypoints[(at, direction)] = owner.index

    def surround_waypoint(self, player: Player, cell: CellLike, direction: int) -> Context:
        """The Waypoint on that edge is surrounded by 6 tiles: returned, and scored.

        ``waypoint_surrounded`` lets the layers raise ``waypoint_value`` (from 1) for the area
        the Waypoint is on; ``player`` (who placed the 6th tile) scores it: "They return that
        Waypoint to its owner and score 2 rather than the usual 1".
        """
        at = as_hex(cell)
        if (at, direction) not in self.waypoints:
            raise RuleError(f"no Waypoint on the edge of {at} in direction {direction}")
        area = area_at(self.tiles, at, self.tile(at).section_at(direction))
        c = self.fire(
            "waypoint_surrounded", player, event={"area": area}, quantities={"waypoint_value": 1}
        )
        del self.waypoints[(at, direction)]
        self.award(player, c.q["waypoint_value"], "waypoint")
        return c

    # -- trade routes

    def join_route(self, player: Player, placed: CellLike, route: Route) -> Context:
        """The tile at ``placed`` joins ``route``: ``route_joined`` (Bandit & Pirate scoring)."""
        return self.fire("route_joined", player, event={"placed": as_hex(placed), "route": route})

    def route_winner(self, route: Route) -> str | None:
        """The side with the majority in a route: caravans for Land, ships for Sea.

        A tie is won by no one: the rulebooks here do not say otherwise.
        """
        icons = {LAND: route_caravans(self.tiles, route), SEA: route_ships(self.tiles, route)}
        return majority(icons)

    def score_route(self, route: Route, player: Player | None = None) -> Context | None:
        """End game: the winner of ``route`` (by majority, unless given) scores it.

        ``route_scored`` lets City scoring raise ``icon_value`` (from 1); the winner then scores
        ``icon_value`` per Caravan and Ship in the route. None when no one wins it.
        """
        if player is None:
            side = self.route_winner(route)
            player = self.player_for(side) if side is not None else None
            if player is None:
                return None
        c = self.fire("route_scored", player, event={"route": route}, quantities={"icon_value": 1})
        icons = route_caravans(self.tiles, route) + route_ships(self.tiles, route)
        self.award(player, icons * c.q["icon_value"], "trade route")
        return c

    def score_trade_routes(self) -> list[Context | None]:
        """End game majority scoring of every trade route on the board."""
        return [self.score_route(route) for route in all_routes(self.tiles)]


def _game(g: Game) -> LandVsSea:
    if not isinstance(g, LandVsSea):
        raise RuleError("this needs Land vs Sea's board (GAME_CLASS)")
    return g


# -- natives (cards/land_vs_sea/game.cards)


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


def has_menhir(g: Game, c: Context, tile: Any) -> bool:
    """The tile (or the tile at a cell) shows a Menhir."""
    return _tile_of(g, tile).menhir


def new_ley_lines(g: Game, c: Context, tile: Any) -> list[LeyLine]:
    """The ley lines completed by the tile just placed at the cell ``tile``."""
    return ley_lines_formed(_game(g).tiles, as_hex(tile))


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


NATIVES: dict[str, Callable[..., Any]] = {
    "has_menhir": has_menhir,
    "new_ley_lines": new_ley_lines,
    "bonus_between": bonus_between,
    "has_city": has_city,
    "is_bandit": is_bandit,
    "is_pirate": is_pirate,
    "caravans": caravans,
    "ships": ships,
}

VERBS: dict[str, Callable[..., Any]] = {}

GAME_CLASS = LandVsSea


# -- scenarios: state by the names a designer knows

_FEATURES = ("menhir", "caravans", "ships", "bandit", "pirate", "name")


def tile_from_spec(g: Game, spec: Mapping[str, Any]) -> Tile:
    """A tile from scenario data.

    ``special: lost_city`` (or ``lost_traders``) with ``face: land|sea``; or ``sections:
    [{side, edges, bonus, city}]``; or ``side: land|sea`` (one section, ``bonus``, ``city``);
    or ``land: [edges]`` (the rest sea; ``land_bonus``, ``sea_bonus``, ``city``). Any of them
    may add ``menhir``, ``caravans``, ``ships``, ``bandit``, ``pirate``, ``name``.
    """
    features = {key: spec[key] for key in _FEATURES if key in spec}
    if "special" in spec:
        return _game(g).special_tile(str(spec["special"]), str(spec.get("face", "")))
    if "sections" in spec:
        sections = tuple(
            Section(
                str(s["side"]),
                frozenset(int(e) for e in s["edges"]),
                int(s.get("bonus", 0)),
                bool(s.get("city", False)),
            )
            for s in spec["sections"]
        )
        return Tile(sections, **features)
    if "side" in spec:
        maker = Tile.land if spec["side"] == LAND else Tile.sea if spec["side"] == SEA else None
        if maker is None:
            raise RuleError(f"a tile's side is land or sea, not '{spec['side']}'")
        return maker(int(spec.get("bonus", 0)), bool(spec.get("city", False)), **features)
    if "land" in spec:
        return Tile.split(
            [int(e) for e in spec["land"]],
            int(spec.get("land_bonus", 0)),
            int(spec.get("sea_bonus", 0)),
            bool(spec.get("city", False)),
            **features,
        )
    raise RuleError(f"a tile needs 'special', 'sections', 'side' or 'land': {dict(spec)}")


def _player(g: Game, who: Player | None) -> Player:
    return who if who is not None else g.players[0]


def _given_board(g: Game, who: Any, value: Any) -> None:
    """Put tiles on the board: a list of tile specs, each with its ``cell: [q, r]``."""
    for spec in value:
        _game(g).put_tile(as_hex(spec["cell"]), tile_from_spec(g, spec))


def _given_side(g: Game, who: Any, value: Any) -> None:
    """Set the player's side: land or sea."""
    if value not in SIDES:
        raise RuleError(f"a side is land or sea, not '{value}'")
    _player(g, who).flags["side"] = value


def _given_points(g: Game, who: Any, value: Any) -> None:
    """Set the player's points."""
    _player(g, who).counters["points"] = int(value)


def _given_waypoints(g: Game, who: Any, value: Any) -> None:
    """Put Waypoints on open edges: ``{cell: [q, r], direction: d, owner: n}`` (owner from 1)."""
    game = _game(g)
    for spec in value:
        owner = g.players[int(spec.get("owner", 1)) - 1]
        game.place_waypoint(owner, spec["cell"], int(spec["direction"]))


def _given_layers(g: Game, who: Any, value: Any) -> None:
    """Choose the scoring layers in play, by card id."""
    for layer in value:
        if layer not in g.cards or g.cards[layer]["kind"] != "layer":
            raise RuleError(f"'{layer}' is not a scoring layer")
    _game(g).layers = tuple(value)


GIVEN: dict[str, Callable[[Game, Any, Any], None]] = {
    "board": _given_board,
    "side": _given_side,
    "points": _given_points,
    "waypoints": _given_waypoints,
    "layers": _given_layers,
}

EXPECT: dict[str, Callable[[Game, Any], Any]] = {
    "points": lambda g, who: _player(g, who).counters["points"],
    "side": lambda g, who: _player(g, who).flags["side"],
    "tiles": lambda g, who: [[cell.q, cell.r] for cell in sorted(_game(g).tiles)],
    "waypoints": lambda g, who: len(_game(g).waypoints),
}


# -- scenario steps


def _action_place_tile(g: Game, player: Player, cell: Any, tile: Any) -> None:
    """Place a tile (a tile spec) at ``cell``, scoring what it sets off."""
    _game(g).place_tile(player, as_hex(cell), tile_from_spec(g, tile))


def _action_complete_area(g: Game, player: Player, cell: Any, section: int = 0) -> Context:
    """Complete the area of the given section of the tile at ``cell``."""
    game = _game(g)
    return game.complete_area(player, area_at(game.tiles, as_hex(cell), int(section)))


def _action_score_trade_routes(g: Game, player: Player) -> None:
    """End game majority scoring of every trade route."""
    _game(g).score_trade_routes()


ACTIONS: dict[str, Callable[..., Context | None]] = {
    "place_tile": _action_place_tile,
    "complete_area": _action_complete_area,
    "score_trade_routes": _action_score_trade_routes,
}


# -- what a scenario may name, checked at its line (engine.scenario_check) ------------------

#: A hex cell ``[q, r]``.
_CELL = Many(Number(None, None, "a coordinate"), 2, "a cell [q, r]")
_EDGE = Number(0, 5, "an edge (0..5)")
_SIDE = Choice(("land", "sea"), "land or sea")
_FEATURE_KINDS = {
    "menhir": Flag(),
    "caravans": Number(0),
    "ships": Number(0),
    "bandit": Flag(),
    "pirate": Flag(),
    "name": Text(),
}
_SECTION = Fields(
    {"side": _SIDE, "edges": Many(_EDGE), "bonus": Number(0), "city": Flag()},
    ("side", "edges"),
    "a section",
)
#: The four ways to write a tile (see :func:`tile_from_spec`), each with its own keys, so a
#: misspelt key (``bonuss: 5``) is an error at its line, never a key silently ignored.
_TILE_FORMS = (
    Fields(
        {"special": Id("card:tile", "a special tile"), "face": _SIDE, **_FEATURE_KINDS},
        ("special",),
        "a special tile",
    ),
    Fields({"sections": Many(_SECTION), **_FEATURE_KINDS}, ("sections",), "a tile of sections"),
    Fields(
        {"side": _SIDE, "bonus": Number(0), "city": Flag(), **_FEATURE_KINDS},
        ("side",),
        "a one-sided tile",
    ),
    Fields(
        {
            "land": Many(_EDGE),
            "land_bonus": Number(0),
            "sea_bonus": Number(0),
            "city": Flag(),
            **_FEATURE_KINDS,
        },
        ("land",),
        "a split tile",
    ),
)
TILE = OneOf(_TILE_FORMS, "a tile")
_PLACED = OneOf(
    tuple(
        Fields({"cell": _CELL, **form.fields}, ("cell", *form.required), f"{form.what} at a cell")
        for form in _TILE_FORMS
    ),
    "a tile at a cell",
)
_WAYPOINT = Fields(
    {"cell": _CELL, "direction": _EDGE, "owner": Number(1, lambda v: v.players, "a player")},
    ("cell", "direction"),
    "a Waypoint",
)
GIVEN_KINDS = {
    "board": Many(_PLACED),
    "side": _SIDE,
    "points": Number(0),
    "waypoints": Many(_WAYPOINT),
    "layers": Many(Id("card:layer", "a scoring layer")),
}
EXPECT_KINDS = {
    "points": Number(0),
    "side": _SIDE,
    "tiles": Many(_CELL),
    "waypoints": Number(0),
}
ACTION_ARGS = {
    "place_tile": Fields({"cell": _CELL, "tile": TILE}, ("cell", "tile"), "the arguments"),
    "complete_area": Fields({"cell": _CELL, "section": Number(0)}, ("cell",), "the arguments"),
    "score_trade_routes": Fields({}),
}
#: An area ``{area: [q, r], section: i}`` or a route ``{route: [q, r]}`` (see _area_or_route).
_PLACE = OneOf(
    (
        Fields({"area": _CELL, "section": Number(0, 5, "a section")}, ("area",), "an area"),
        Fields({"route": _CELL}, ("route",), "a trade route"),
    ),
    "an area or a trade route",
)
EVENT_KINDS = {"area": _PLACE, "route": _PLACE, "placed": _CELL}
QUESTIONS: dict[str, tuple[str, tuple[str, ...] | str | None]] = {}
