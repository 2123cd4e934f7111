"""The map as it grows: areas and trade routes kept up to date as tiles are put down.

Every area (and route) is a set that placements merge, with what its scoring needs summed as it
grows: its open edges (an area is complete at none), tiles, bonus points, Cities, Mountains and
Corals; a route's caravans, ships and whether a City is connected. So a placement costs a few
steps, and :meth:`MapState.preview` says what a placement would complete without making it.
:mod:`.board`'s searches are the reference this bookkeeping is tested against.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.hexgrid import Hex, neighbours

from .board import LAND, SEA, Area, Route, Tile, misfits

Node = tuple[Hex, int]

#: Each cell's six neighbours, worked out once: a greedy turn asks them thousands of times,
#: and a Hex sum costs more than a dictionary look-up.
_AROUND: dict[Hex, tuple[Hex, ...]] = {}


#: The directions (0..5) whose bits are set in each 6-bit number, and each one's opposite.
_DIRECTIONS_OF = tuple(tuple(d for d in range(6) if bits >> d & 1) for bits in range(64))
_OPPOSITE = (3, 4, 5, 0, 1, 2)

#: How many bits are set in each 6-bit number.
_BITS = tuple(bin(n).count("1") for n in range(64))

#: By a tile's land edges (bits): per direction, the :attr:`MapState.edge_cells` entry of the
#: cells whose edge that way it would not match (a sea edge for its land edge, and back).
_WRONG = tuple(tuple(d + 6 if bits >> d & 1 else d for d in range(6)) for bits in range(64))


def around(cell: Hex) -> tuple[Hex, ...]:
    """The six cells next to ``cell``, in direction order (cached)."""
    found = _AROUND.get(cell)
    if found is None:
        if len(_AROUND) > 100_000:
            _AROUND.clear()
        found = _AROUND[cell] = neighbours(cell)
    return found


@dataclass(slots=True, eq=False)
class AreaState:
    """One land or sea area as it stands: its members and what they add up to. Slotted, and
    equal only to itself (areas are told apart by identity everywhere): a placement makes one
    per section of its tile."""

    side: str
    members: list[Node]
    cells: set[Hex]
    #: edges of its sections facing an empty cell.
    open: int
    bonus: int
    city: bool
    mountains: int
    #: those open edges by the empty cell they face (their counts add up to ``open``): an
    #: area whose open edges all face one cell is the only kind a placement can complete.
    facing: dict[Hex, int] = field(default_factory=dict)

    def area(self) -> Area:
        """The area as the layers see it."""
        return Area(self.side, frozenset(self.members))


@dataclass(slots=True, eq=False)
class RouteState:
    """One trade route as it stands (slotted, equal only to itself, like an area)."""

    cells: set[Hex]
    caravans: int
    ships: int
    city: bool

    def route(self) -> Route:
        """The route as the layers see it."""
        return Route(frozenset(self.cells))


@dataclass(frozen=True)
class Preview:
    """What placing a tile would do, without doing it."""

    #: per area it would complete: (side, tiles, bonus, city, mountains).
    completed: tuple[tuple[str, int, int, bool, int], ...]
    #: per route it would join (for a route tile or a raider): (caravans, ships).
    joined: tuple[tuple[int, int], ...]
    #: edges of the placed tile meeting a placed neighbour, by side.
    matched: dict[str, int]


@dataclass
class MapState:
    """The tiles on the map, by cell, and their areas and trade routes."""

    tiles: dict[Hex, Tile] = field(default_factory=dict)
    _area: dict[Node, AreaState] = field(default_factory=dict)
    _route: dict[Hex, RouteState] = field(default_factory=dict)
    #: empty cells next to a tile, where the next tile may go: the bits of the directions
    #: that face a tile, and which of those edges are land. A tile fits there when
    #: ``tile.land_bits & mask == land``.
    frontier: dict[Hex, tuple[int, int]] = field(default_factory=dict)
    menhirs: set[Hex] = field(default_factory=set)
    #: what a policy worked out from the map and keeps from turn to turn (it says when to
    #: work it out again); never read by the rules.
    notes: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # Indexes of the frontier as sets of cells, for listing and weighing placements without
    # testing every tile at every cell (a turn has ~20 ways to lay its tiles and ~30 cells).
    # A set of cells is an int: bit n for the frontier's n-th cell (the order cells were
    # reached, which is the frontier's own order; a cell keeps its number once placed).
    #: the frontier's cells by number.
    cells: list[Hex] = field(default_factory=list, compare=False, repr=False)
    #: each cell's number.
    number: dict[Hex, int] = field(default_factory=dict, compare=False, repr=False)
    #: the cells on the frontier now.
    open_cells: int = field(default=0, compare=False, repr=False)
    #: by direction: the frontier cells whose neighbour that way shows a land edge (bits
    #: 0..5), or a sea edge (6..11); a tile fits a cell where none of its edges meets the
    #: other kind (:meth:`fits_cells`).
    edge_cells: list[int] = field(default_factory=lambda: [0] * 12, compare=False, repr=False)
    #: :meth:`fits_cells` by a tile's land bits worked out since the map last changed.
    fitted: dict[int, int] = field(default_factory=dict, compare=False, repr=False)
    #: by side, then by count (0..6): the frontier cells with that many edges of the side
    #: meeting a tile (what a tile fitting there matches of the side, whatever the tile).
    matching: dict[str, list[int]] = field(
        default_factory=lambda: {"land": [0] * 7, "sea": [0] * 7}, compare=False, repr=False
    )
    #: the frontier cells next to a tile of a trade route (placed cells may linger).
    near_routes: int = field(default=0, compare=False, repr=False)
    #: the areas whose open edges all face one cell, by id: what a placement can complete;
    #: each with that cell and the directions from it that meet the area (bits).
    closing: dict[int, tuple[AreaState, Hex, int]] = field(
        default_factory=dict, compare=False, repr=False
    )
    #: :meth:`groups` by cell, then by the tile's sections' edges, kept from turn to turn: a
    #: cell's entry reads only the areas with an open edge facing it, so a tile put down
    #: drops the entries of the cells its areas (merged) face, and its own cell's.
    grouped: dict[Hex, dict[tuple[int, ...], list[tuple[tuple[int, ...], int, int, bool, int]]]] = (
        field(default_factory=dict, compare=False, repr=False)
    )

    # -- reading

    def area_of(self, cell: Hex, section: int) -> AreaState:
        """The area the given section of the tile at ``cell`` is part of."""
        return self._area[(cell, section)]

    def route_of(self, cell: Hex) -> RouteState | None:
        """The trade route the tile at ``cell`` is part of, if any."""
        return self._route.get(cell)

    def routes(self) -> list[RouteState]:
        """Every trade route, in the order of its first cell."""
        found: dict[int, RouteState] = {}
        for cell in sorted(self._route):
            state = self._route[cell]
            found.setdefault(id(state), state)
        return list(found.values())

    def hole(self, cell: Hex) -> str | None:
        """Land or sea when ``cell`` is a hole (:func:`.board.hole_side`): an empty cell
        meeting tiles on all six sides (a frontier cell's mask of 63), all of one kind of
        edge."""
        need = self.frontier.get(cell)
        if need is None or need[0] != 63:
            return None
        return LAND if need[1] == 63 else SEA if need[1] == 0 else None

    def fits(self, cell: Hex, tile: Tile) -> bool:
        """True when ``cell`` is empty and every neighbour's facing edge matches."""
        if cell in self.tiles:
            return False
        need = self.frontier.get(cell)
        if need is None:
            return True  # next to no tile: nothing to match (a turn places only on the frontier)
        return tile.land_bits & need[0] == need[1]

    # -- putting a tile down

    def put(self, cell: Hex, tile: Tile) -> list[AreaState]:
        """Put ``tile`` at ``cell`` (its edges must match); the areas it completes."""
        # The frontier holds the edges facing each empty cell: a tile fits where its land
        # edges are the land ones among them (misfits, which looks at every neighbour, only
        # to say where it does not).
        need = self.frontier.get(cell)
        if cell in self.tiles or (need is not None and tile.land_bits & need[0] != need[1]):
            wrong = misfits(self.tiles, cell, tile)
            raise ValueError(f"{cell} is taken or meets other edges in directions {wrong}")
        tiles = self.tiles
        tiles[cell] = tile
        self.fitted.clear()
        was = self.frontier.pop(cell, None)
        if was is not None:
            self._index(cell, was, None)
        if tile.menhir:
            self.menhirs.add(cell)
        cells = around(cell)
        areas = self._area
        for index, section in enumerate(tile.sections):
            # Each edge faces a cell of its own: one open edge towards each empty one.
            facing = {cells[d]: 1 for d in section.edges if cells[d] not in tiles}
            areas[(cell, index)] = AreaState(
                section.side,
                [(cell, index)],
                {cell},
                len(facing),
                section.bonus,
                section.city,
                section.mountains,
                facing,
            )
        frontier = self.frontier
        sides = tile.sides
        number = self.number
        edge_cells = self.edge_cells
        land_count, sea_count = self.matching["land"], self.matching["sea"]
        for d, nxt in enumerate(cells):
            other = tiles.get(nxt)
            back = _OPPOSITE[d]
            if other is None:
                # Seen from nxt, this tile lies in direction d + 3.
                old = frontier.get(nxt)
                edge = 1 << back
                if old is None:
                    mask = land = 0
                    cell_bit = 1 << self._number(nxt)
                    self.open_cells |= cell_bit
                else:
                    mask, land = old
                    cell_bit = 1 << number[nxt]
                    land_count[_BITS[land]] &= ~cell_bit
                    sea_count[_BITS[mask & ~land]] &= ~cell_bit
                # (MapState._index, written out: the neighbours of every placement.)
                if sides[d] == LAND:
                    land |= edge
                    edge_cells[back] |= cell_bit
                else:
                    edge_cells[back + 6] |= cell_bit
                mask |= edge
                frontier[nxt] = (mask, land)
                land_count[_BITS[land]] |= cell_bit
                sea_count[_BITS[mask & ~land]] |= cell_bit
                continue
            theirs = areas[(nxt, other.section_of[back])]
            theirs.open -= 1
            left = theirs.facing[cell] - 1
            if left:
                theirs.facing[cell] = left
            else:
                del theirs.facing[cell]
            self._merge(areas[(cell, tile.section_of[d])], theirs)
        if tile.route_tile:
            for nxt in cells:
                if nxt not in tiles:
                    self.near_routes |= 1 << number[nxt]
        self._join_routes(cell, tile)
        done: list[AreaState] = []
        closing = self.closing
        grouped = self.grouped
        grouped.pop(cell, None)
        for index in range(len(tile.sections)):
            state = areas[(cell, index)]
            if grouped:
                for facing in state.facing:
                    grouped.pop(facing, None)
            if len(state.facing) == 1:
                closing[id(state)] = (state, *self._towards(state))
            else:
                closing.pop(id(state), None)
            # (an area is equal only to itself: ``in`` is by identity)
            if state.open == 0 and state not in done:
                done.append(state)
        return done

    def _number(self, cell: Hex) -> int:
        """``cell``'s number on the frontier, given when it is first reached."""
        found = self.number.get(cell)
        if found is None:
            found = self.number[cell] = len(self.cells)
            self.cells.append(cell)
        return found

    def _index(
        self, cell: Hex, old: tuple[int, int] | None, new: tuple[int, int] | None, d: int = 0
    ) -> None:
        """Keep the frontier's indexes (:attr:`edge_cells`, :attr:`matching`) as ``cell``
        goes from ``old`` (its mask and land edges meeting tiles; None: not on the frontier)
        to ``new``: by a tile now met in direction ``d``, or (None) by being placed."""
        number = self.number.get(cell)
        if number is None:
            number = self.number[cell] = len(self.cells)
            self.cells.append(cell)
        bit = 1 << number
        land_count, sea_count = self.matching["land"], self.matching["sea"]
        if old is not None:
            mask, land = old
            land_count[_BITS[land]] &= ~bit
            sea_count[_BITS[mask & ~land]] &= ~bit
        if new is None:
            self.open_cells &= ~bit
            return
        self.open_cells |= bit
        mask, land = new
        self.edge_cells[d if land >> d & 1 else d + 6] |= bit
        land_count[_BITS[land]] |= bit
        sea_count[_BITS[mask & ~land]] |= bit

    def fits_cells(self, land_bits: int) -> int:
        """The frontier cells a tile with these land edges fits, as a set of cells: those where
        none of its land edges meets a sea edge, nor a sea edge a land one."""
        found = self.fitted.get(land_bits)
        if found is None:
            e = self.edge_cells
            a, b, c, d, f, g = _WRONG[land_bits]
            found = self.open_cells & ~(e[a] | e[b] | e[c] | e[d] | e[f] | e[g])
            self.fitted[land_bits] = found
        return found

    def _towards(self, state: AreaState) -> tuple[Hex, int]:
        """The one cell ``state``'s open edges face, and the directions from it that meet
        the area (bits)."""
        (cell,) = state.facing
        tiles, areas = self.tiles, self._area
        bits = 0
        for d, nxt in enumerate(around(cell)):
            other = tiles.get(nxt)
            if other is not None and areas[(nxt, other.section_of[(d + 3) % 6])] is state:
                bits |= 1 << d
        return cell, bits

    def closable(self) -> dict[Hex, int]:
        """The cells where a placement may complete an area, each with the directions it
        would close one through: :meth:`completable` of the cell (0 everywhere else), from
        the areas whose open edges all face one cell."""
        found: dict[Hex, int] = {}
        for _state, cell, bits in self.closing.values():
            found[cell] = found.get(cell, 0) | bits
        return found

    def _merge(self, a: AreaState, b: AreaState) -> None:
        if a is b:
            return
        if len(a.members) < len(b.members):
            a, b = b, a
        a.members.extend(b.members)
        a.cells |= b.cells
        a.open += b.open
        a.bonus += b.bonus
        a.city = a.city or b.city
        a.mountains += b.mountains
        facing = a.facing
        for at, edges in b.facing.items():
            facing[at] = facing.get(at, 0) + edges
        self.closing.pop(id(b), None)
        self.closing.pop(id(a), None)
        for node in b.members:
            self._area[node] = a

    def _join_routes(self, cell: Hex, tile: Tile) -> None:
        routes = self._route
        if tile.has_city:
            for nxt in around(cell):
                state = routes.get(nxt)
                if state is not None:
                    state.city = True
        if not tile.route_tile:
            return
        near_city = tile.has_city or any(
            (t := self.tiles.get(n)) is not None and t.has_city for n in around(cell)
        )
        state = RouteState({cell}, tile.caravans, tile.ships, near_city)
        routes[cell] = state
        for nxt in around(cell):
            other = routes.get(nxt)
            if other is None or other is state:
                continue
            if len(other.cells) > len(state.cells):
                state, other = other, state
            state.cells |= other.cells
            state.caravans += other.caravans
            state.ships += other.ships
            state.city = state.city or other.city
            for moved in other.cells:
                routes[moved] = state

    def routes_next_to(self, cell: Hex) -> list[RouteState]:
        """The distinct routes with a tile next to ``cell``, in direction order."""
        found: list[RouteState] = []
        for nxt in around(cell):
            state = self._route.get(nxt)
            if state is not None and state not in found:  # by identity
                found.append(state)
        return found

    # -- what a placement would do

    def preview(self, cell: Hex, tile: Tile) -> Preview:
        """What putting ``tile`` at ``cell`` would complete and join (it must fit).

        An area is completed only through a section of the new tile whose every edge meets a
        tile (its open edges are the area's): without one, only the counts are worked out.
        """
        mask, _land = self.frontier.get(cell, (0, 0))
        matched = {
            "land": _BITS[tile.land_bits & mask],
            "sea": _BITS[~tile.land_bits & mask & 63],
        }
        joined: tuple[tuple[int, int], ...] = ()
        if tile.trades:
            joined = tuple((s.caravans, s.ships) for s in self.routes_next_to(cell))
        if all(bits & ~mask for bits in tile.section_bits):
            return Preview((), joined, matched)
        return Preview(self.completes(cell, tile), joined, matched)

    def completes(self, cell: Hex, tile: Tile) -> tuple[tuple[str, int, int, bool, int], ...]:
        """The areas putting ``tile`` at ``cell`` would complete: (side, tiles, bonus, city,
        Mountains or Corals) each, the new tile's sections counted in."""
        completed = []
        sections = tile.sections
        for members, size, bonus, city, drawn in self.groups(cell, tile.section_bits):
            mine = [sections[i] for i in members]
            completed.append(
                (
                    mine[0].side,
                    size,
                    bonus + sum(s.bonus for s in mine),
                    city or any(s.city for s in mine),
                    drawn + sum(s.mountains for s in mine),
                )
            )
        return tuple(completed)

    def completable(self, cell: Hex) -> int:
        """The directions from the empty ``cell`` whose neighbour's area has no open edge but
        those facing ``cell`` (as bits): only through them can a tile put there close an area."""
        tiles = self.tiles
        facing: list[tuple[int, AreaState]] = []
        for d, nxt in enumerate(around(cell)):
            other = tiles.get(nxt)
            if other is not None:
                facing.append((d, self._area[(nxt, other.section_of[(d + 3) % 6])]))
        bits = 0
        seen = len(facing)
        for d, state in facing:
            # An area with more open edges than this cell has neighbours never closes here.
            if state.open <= seen and state.open == sum(1 for _, s in facing if s is state):
                bits |= 1 << d
        return bits

    def groups(
        self, cell: Hex, section_bits: tuple[int, ...]
    ) -> list[tuple[tuple[int, ...], int, int, bool, int]]:
        """The areas a tile whose sections reach ``section_bits`` would complete at ``cell``,
        before its own sections' contents: (its sections in the area, tiles, bonus, city,
        Mountains or Corals) each. Which areas complete depends only on how the tile's edges
        are shared out among its sections, so a policy weighing many faces and turns of tiles
        at one cell works it out once per way of sharing them out."""
        kept = self.grouped.get(cell)
        if kept is None:
            kept = self.grouped[cell] = {}
        else:
            known = kept.get(section_bits)
            if known is not None:
                return known
        tiles = self.tiles
        areas_of = self._area
        cells = around(cell)
        count = len(section_bits)
        # Which neighbour areas each section of the new tile touches (by id, in order), and
        # its edges facing an empty cell less those meeting a tile.
        touched: list[dict[int, AreaState]] = []
        lefts: list[int] = []
        for bits in section_bits:
            mine: dict[int, AreaState] = {}
            left = 0
            for d in _DIRECTIONS_OF[bits]:
                nxt = cells[d]
                other = tiles.get(nxt)
                if other is None:
                    left += 1
                    continue
                left -= 1
                state = areas_of[(nxt, other.section_of[_OPPOSITE[d]])]
                mine[id(state)] = state
            touched.append(mine)
            lefts.append(left)
        # Sections of the new tile that touch one area become one area (a union-find over
        # at most six sections; a root is found by following ``group``).
        group = list(range(count))
        for i in range(1, count):
            for j in range(i):
                if not touched[i].keys().isdisjoint(touched[j]):
                    a = i
                    while group[a] != a:
                        a = group[a]
                    b = j
                    while group[b] != b:
                        b = group[b]
                    group[a] = b
        for i in range(count):
            a = i
            while group[a] != a:
                a = group[a]
            group[i] = a
        found = []
        for top in sorted(set(group)) if count > 1 else (0,):
            members = tuple(i for i in range(count) if group[i] == top) if count > 1 else (0,)
            if len(members) == 1:
                areas = touched[members[0]]
                left = lefts[members[0]]
            else:
                areas = {}
                left = 0
                for i in members:
                    areas.update(touched[i])
                    left += lefts[i]
            for state in areas.values():
                left += state.open
            if left:
                continue
            if len(areas) == 1:
                (only,) = areas.values()
                size = len(only.cells) + 1
            else:
                joined = {cell}
                for state in areas.values():
                    joined |= state.cells
                size = len(joined)
            found.append(
                (
                    members,
                    size,
                    sum(s.bonus for s in areas.values()),
                    any(s.city for s in areas.values()),
                    sum(s.mountains for s in areas.values()),
                )
            )
        kept[section_bits] = found
        return found
