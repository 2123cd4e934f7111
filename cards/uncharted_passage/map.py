"""Uncharted Passage's World Map: the geometry its rules and its captains ask about.

Two layers: :class:`WorldMap` reads ``map.cards`` into engine.hexgrid cells and checks it;
:class:`Chart` is the sailing graph built from it (one space per Date Line pair, pirate spaces
never entered) with the cached reach and distance answers the flow and the greedy captain need.

The first layer, read from the IR (``map.cards``) into engine.hexgrid cells.

The cards hold the map as data: one ``space`` per hex (axial ``q``, ``r``; a tag for its terrain,
``sea``, ``port``, ``discovery`` or ``pirate``; a port's ``stars``, ``specialty`` and ``region``;
the Date Line's ``date_line`` letter), the ``white_border`` edge lists and the ``world_map``
(where the game begins). :class:`WorldMap` answers what the flow asks of it: which spaces a
ship reaches, how far apart two spaces are, the Pirate Infested Areas, the ports of a region.

Rules it keeps (quoted from the rulebook, ``uncharted-passage-remastered.txt``):

- "You can sail a number of spaces up to or equal to the number you enter";
- "White borders cannot be crossed";
- "You cannot pass or land on a pirate space";
- "You can sail across the Date Line to the other side of the World Map. Spaces with the same
  letter are considered the same space": both cells of a lettered pair are one space, named by
  its west cell (:meth:`WorldMap.canonical`);
- "The 6 spaces adjacent to a pirate icon are the Pirate Infested Area."
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from engine.hexgrid import Edge, Hex, neighbours
from engine.runtime import ObjectCache, RuleError

#: The terrain tags a space carries (exactly one each).
TERRAINS = ("sea", "port", "discovery", "pirate")


class MapError(ValueError):
    """The map data contradicts itself (two spaces on one hex, a border between strangers ...)."""


@dataclass(frozen=True)
class MapSpace:
    """One space of the World Map, as ``map.cards`` declares it."""

    id: str
    title: str
    cell: Hex
    terrain: str
    stars: int | None = None
    specialty: str | None = None
    region: str | None = None
    date_line: str | None = None
    provisional: bool = False

    @property
    def is_port(self) -> bool:
        """A port space ("A port space shows: 1) Port icon, 2) Prestige points ...")."""
        return self.terrain == "port"

    @property
    def is_discovery_spot(self) -> bool:
        """A Discovery Spot ("The spaces marked with an exclamation-point icon")."""
        return self.terrain == "discovery"

    @property
    def is_pirate(self) -> bool:
        """A space with the pirate icon: "You cannot pass or land on a pirate space"."""
        return self.terrain == "pirate"


def _number(value: Any) -> int | None:
    return None if value is None else int(value)


def _space(card: Mapping[str, Any]) -> MapSpace:
    props = card.get("properties", {})
    terrains = [tag for tag in card.get("tags", ()) if tag in TERRAINS]
    if len(terrains) != 1:
        raise MapError(f"space '{card['id']}' needs one terrain of {TERRAINS}, has {terrains}")
    if "q" not in props or "r" not in props:
        raise MapError(f"space '{card['id']}' has no q and r")
    return MapSpace(
        id=card["id"],
        title=card.get("title", card["id"]),
        cell=Hex(int(props["q"]), int(props["r"])),
        terrain=terrains[0],
        stars=_number(props.get("stars")),
        specialty=props.get("specialty"),
        region=props.get("region"),
        date_line=props.get("date_line"),
        provisional="card" in card.get("provisional", ()),
    )


class WorldMap:
    """The spaces of the World Map by id and by cell, with sailing distances over them.

    Every id this class returns is canonical: of a Date Line pair, the west cell's space.
    """

    def __init__(
        self,
        spaces: Iterable[MapSpace],
        white_borders: Iterable[tuple[str, str]] = (),
        start: str | None = None,
    ) -> None:
        self.spaces: dict[str, MapSpace] = {}
        self.by_cell: dict[Hex, MapSpace] = {}
        for space in spaces:
            if space.id in self.spaces:
                raise MapError(f"two spaces have the id '{space.id}'")
            other = self.by_cell.get(space.cell)
            if other is not None:
                raise MapError(f"'{space.id}' and '{other.id}' are both on {space.cell}")
            self.spaces[space.id] = space
            self.by_cell[space.cell] = space
        self._canonical = self._pair_date_line()
        self.white_borders: frozenset[Edge] = frozenset(
            self._border(a, b) for a, b in white_borders
        )
        if start is not None and start not in self.spaces:
            raise MapError(f"the game begins at '{start}', which is not a space")
        self.start = start
        self._adjacent = {sid: self._passages(sid) for sid in self.spaces if self.is_canonical(sid)}

    # -- building

    def _pair_date_line(self) -> dict[str, str]:
        """Each space's canonical id: itself, or the west cell of its Date Line letter."""
        lettered: dict[str, list[MapSpace]] = {}
        for space in self.spaces.values():
            if space.date_line is not None:
                lettered.setdefault(space.date_line, []).append(space)
        canonical = {sid: sid for sid in self.spaces}
        for letter, pair in sorted(lettered.items()):
            if len(pair) != 2:
                ids = [s.id for s in pair]
                raise MapError(f"Date Line letter {letter} is on {len(pair)} spaces {ids}, not 2")
            west, east = sorted(pair, key=lambda s: (s.cell.q, s.cell.r))
            if west.terrain != east.terrain:
                raise MapError(f"Date Line letter {letter}: {west.id} and {east.id} differ")
            canonical[east.id] = west.id
        return canonical

    def _border(self, a: str, b: str) -> Edge:
        for sid in (a, b):
            if sid not in self.spaces:
                raise MapError(f"a white border names '{sid}', which is not a space")
        try:
            return Edge(self.spaces[a].cell, self.spaces[b].cell)
        except ValueError as error:
            raise MapError(f"white border {a}-{b}: {error}") from None

    def _passages(self, sid: str) -> tuple[str, ...]:
        """The canonical spaces one step from ``sid``, through either cell of a Date Line pair,
        never across a white border."""
        found: list[str] = []
        for cell in self.cells_of(sid):
            for nxt in neighbours(cell):
                there = self.by_cell.get(nxt)
                if there is None or Edge(cell, nxt) in self.white_borders:
                    continue
                target = self._canonical[there.id]
                if target != sid and target not in found:
                    found.append(target)
        return tuple(found)

    # -- looking up

    def canonical(self, sid: str) -> str:
        """The id the map names a space by: a Date Line pair is one space, its west cell's."""
        try:
            return self._canonical[sid]
        except KeyError:
            raise MapError(f"'{sid}' is not a space of the World Map") from None

    def is_canonical(self, sid: str) -> bool:
        """True when ``sid`` is the name the map gives its space (not an east Date Line cell)."""
        return self.canonical(sid) == sid

    def space(self, sid: str) -> MapSpace:
        """The space named ``sid`` (either cell of a Date Line pair gives the west one)."""
        return self.spaces[self.canonical(sid)]

    def at(self, cell: Hex) -> MapSpace | None:
        """The space on a hex, or None where the map has land (no space)."""
        space = self.by_cell.get(cell)
        return None if space is None else self.spaces[self._canonical[space.id]]

    def cells_of(self, sid: str) -> tuple[Hex, ...]:
        """The hexes of a space: one, or both cells of a Date Line pair."""
        home = self.canonical(sid)
        return tuple(s.cell for s in self.spaces.values() if self._canonical[s.id] == home)

    def same_space(self, a: str, b: str) -> bool:
        """True when two ids name one space ("Spaces with the same letter are ... the same")."""
        return self.canonical(a) == self.canonical(b)

    def ports(self) -> list[MapSpace]:
        """Every port, in map order."""
        return [s for s in self.spaces.values() if s.is_port and self.is_canonical(s.id)]

    def discovery_spots(self) -> list[MapSpace]:
        """Every Discovery Spot, in map order."""
        return [s for s in self.spaces.values() if s.is_discovery_spot and self.is_canonical(s.id)]

    def pirates(self) -> list[MapSpace]:
        """Every space with a pirate icon, in map order."""
        return [s for s in self.spaces.values() if s.is_pirate and self.is_canonical(s.id)]

    def region_of(self, sid: str) -> str | None:
        """A port's region (its colour), or None for a space that is not a port."""
        return self.space(sid).region

    def ports_in(self, region: str) -> list[MapSpace]:
        """The ports of a region ("any port within the region (see color)")."""
        return [s for s in self.ports() if s.region == region]

    # -- the Pirate Infested Area

    def infested_area(self, pirate: str) -> frozenset[str]:
        """ "The 6 spaces adjacent to a pirate icon are the Pirate Infested Area" (the spaces on
        the map next to it, white borders or not: adjacency, not sailing)."""
        space = self.space(pirate)
        if not space.is_pirate:
            raise MapError(f"'{pirate}' has no pirate icon")
        area = {self.at(cell) for cell in neighbours(space.cell)}
        return frozenset(s.id for s in area if s is not None)

    def infested_areas_of(self, sid: str) -> frozenset[str]:
        """The pirate spaces whose Infested Area holds ``sid`` (none, usually one)."""
        home = self.canonical(sid)
        return frozenset(p.id for p in self.pirates() if home in self.infested_area(p.id))

    def in_pirate_infested_area(self, sid: str) -> bool:
        """True when ``sid`` is next to a pirate icon."""
        return bool(self.infested_areas_of(sid))

    # -- sailing

    def passable(self, sid: str) -> bool:
        """A ship may pass or land here: anything but a pirate space."""
        return not self.space(sid).is_pirate

    def adjacent(self, sid: str) -> tuple[str, ...]:
        """The spaces one step away, whatever is on them, white borders honoured."""
        return self._adjacent[self.canonical(sid)]

    def reachable(self, start: str, speed: int | None = None) -> dict[str, int]:
        """Every space a ship at ``start`` can end on with ``speed`` steps or fewer, with the
        fewest steps to it ("You can sail a number of spaces up to or equal to the number you
        enter"; "You can stay in place", so ``start`` is there at 0).

        Pirate spaces are never entered nor passed, white borders never crossed, and a Date Line
        pair is one space. ``speed`` None means no limit.
        """
        home = self.canonical(start)
        reached = {home: 0}
        frontier = deque([home])
        while frontier:
            here = frontier.popleft()
            steps = reached[here]
            if speed is not None and steps >= speed:
                continue
            for there in self._adjacent[here]:
                if there in reached or self.spaces[there].is_pirate:
                    continue
                reached[there] = steps + 1
                frontier.append(there)
        return reached

    def distance(self, a: str, b: str) -> int | None:
        """The fewest spaces a ship sails from ``a`` to ``b`` (None when it cannot get there)."""
        target = self.canonical(b)
        return self.reachable(a).get(target)

    def distance_to_nearest(self, sid: str, terrain: str) -> int | None:
        """The fewest spaces sailed from ``sid`` to any space of ``terrain`` (the Sunken Ship's
        "at least 3 spaces away from any Port"), or None when none can be reached."""
        reach = self.reachable(sid)
        found = [steps for there, steps in reach.items() if self.spaces[there].terrain == terrain]
        return min(found) if found else None


def from_cards(cards: Iterable[Mapping[str, Any]]) -> WorldMap:
    """The World Map from IR cards (``g.cards.values()`` or ``cards.json``'s ``cards``)."""
    spaces: list[MapSpace] = []
    borders: list[tuple[str, str]] = []
    start: str | None = None
    for card in cards:
        kind = card.get("kind")
        if kind == "space":
            spaces.append(_space(card))
        elif kind == "white_border":
            for edge in card.get("properties", {}).get("edges", ()):
                if len(edge) != 2:
                    raise MapError(f"white border '{card['id']}': an edge is two spaces: {edge}")
                borders.append((str(edge[0]), str(edge[1])))
        elif kind == "world_map":
            start = card.get("properties", {}).get("start")
    return WorldMap(spaces, borders, start)


@lru_cache(maxsize=8)
def _load(path: str) -> WorldMap:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return from_cards(data["cards"])


def load(folder: Path | str) -> WorldMap:
    """The World Map of a compiled game folder (``generated/uncharted_passage``), read once."""
    return _load(str(Path(folder).resolve() / "cards.json"))


#: "East Asia (Hanyang, Sakai, or Hangzhou)": the only region whose ports the rulebook names.
EAST_ASIA_PORTS = ("hanyang", "sakai", "hangzhou")


def place_id(place: Any) -> str:
    """A place as the cards name it: ``"Sierra Leone"`` and ``sierra_leone`` are one place."""
    return str(place).strip().lower().replace(" ", "_").replace("'", "")


# -- the sea chart: what the flow needs to know about the world map


class Space:
    """One space of the world map, as the flow reads it."""

    __slots__ = (
        "id",
        "title",
        "port",
        "stars",
        "specialty",
        "region",
        "discovery",
        "pirate",
        "infested",
        "east_asia",
        "neighbours",
    )

    def __init__(
        self,
        ident: str,
        *,
        title: str = "",
        port: bool = False,
        stars: int = 0,
        specialty: str | None = None,
        region: str | None = None,
        discovery: bool = False,
        pirate: bool = False,
        east_asia: bool | None = None,
    ) -> None:
        self.id = ident
        self.title = title or ident
        self.port = port
        self.stars = stars
        self.specialty = specialty
        self.region = region
        self.discovery = discovery
        self.pirate = pirate
        #: The pirate icons this space is next to: "The 6 spaces adjacent to a pirate icon are
        #: the Pirate Infested Area."
        self.infested: frozenset[str] = frozenset()
        self.east_asia = east_asia if east_asia is not None else (port and ident in EAST_ASIA_PORTS)
        self.neighbours: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Space({self.id!r})"


#: A destination as the greedy planner weighs it (see :meth:`Chart.leg`).
Leg = tuple[str, int, int, int, float, int, int, str, int, "str | None", "Space"]


def split_code(at_port: bool, speed: int, sailed: int, sellable: int, can_buy: bool) -> int:
    """One int for what the greedy captain's best split of the numbers depends on (a dict key
    that is cheaper to make and hash than a tuple, in the planner's innermost loop): adding
    ``4 * n`` to a port's code makes it the code with ``n`` more goods to sell."""
    return ((((speed << 7) | sailed) << 8 | min(sellable, 255)) << 2) | (can_buy << 1) | at_port


#: Added to a port's :func:`split_code`: the Crew Action must be able to purchase (the port
#: sells a specialty a held trade mission wants).
MUST_BUY = 1 << 40


class Chart:
    """The world map as a graph of spaces, with the sailing rules built into its reach.

    "White borders cannot be crossed" and the Date Line ("Spaces with the same letter are
    considered the same space") are in the neighbours themselves; "You cannot pass or land on a
    pirate space" is in :meth:`reach`. Reach and nearest-distance answers are cached: the map
    never changes during a game, and one chart serves every game of a simulation.
    """

    def __init__(
        self,
        spaces: dict[str, Space],
        start: str,
        categories: dict[str, str] | None = None,
        source: str = "",
    ) -> None:
        self.spaces = spaces
        self.start = start
        #: specialty -> the goods it is (groceries, household goods, luxury goods), for Vogue.
        self.categories = dict(categories or {})
        self.source = source
        self._reach: dict[tuple[str, int], dict[str, int]] = {}
        self._nearest: dict[tuple[str, str], int] = {}
        self._sellers: dict[str, tuple[str, ...]] = {}
        self._reach_interesting: dict[tuple[str, int], tuple[tuple[str, int], ...]] = {}
        self._legs: dict[tuple[str, int, tuple[int, int]], tuple[Leg, ...]] = {}
        self._leg_ids: dict[tuple[str, int, tuple[int, int]], frozenset[str]] = {}
        self._leg_of: dict[tuple[str, int, tuple[int, int]], Leg] = {}
        self._to: dict[str, dict[str, int]] = {}
        self.ports = tuple(s.id for s in spaces.values() if s.port)
        self.spots = tuple(s.id for s in spaces.values() if s.discovery)
        #: Spaces a ship may want to end on: ports and Discovery Spots (a set to ask, a tuple in
        #: map order to go through, so every process plays the same games).
        self.interesting = frozenset(self.ports) | frozenset(self.spots)
        self.places_of_note = self.ports + self.spots
        #: Each port's region ("any port within the region (see color)").
        self.regions = {s.id: s.region for s in spaces.values() if s.region}
        #: The spaces of every Pirate Infested Area.
        self.infested_spaces = frozenset(s.id for s in spaces.values() if s.infested)
        #: Each pirate icon's Infested Area: "The 6 spaces adjacent to a pirate icon".
        areas: dict[str, list[str]] = {}
        for space in spaces.values():
            for pirate in sorted(space.infested):
                areas.setdefault(pirate, []).append(space.id)
        self.infested_areas = {pirate: tuple(area) for pirate, area in sorted(areas.items())}
        if start not in spaces:
            raise RuleError(f"the chart has no starting space '{start}'")

    def reach(self, start: str, steps: int) -> dict[str, int]:
        """Every space a ship at ``start`` can end on within ``steps``, with its fewest steps.

        Pirate spaces are never entered, nor passed ("You cannot pass or land on a pirate
        space"); the start itself is always reachable at 0 ("You can stay in place").
        """
        key = (start, steps)
        found = self._reach.get(key)
        if found is not None:
            return found
        spaces = self.spaces
        reached = {start: 0}
        frontier = [start]
        for step_count in range(1, steps + 1):
            nxt: list[str] = []
            for ident in frontier:
                for other in spaces[ident].neighbours:
                    if other in reached or spaces[other].pirate:
                        continue
                    reached[other] = step_count
                    nxt.append(other)
            if not nxt:
                break
            frontier = nxt
        self._reach[key] = reached
        return reached

    def leg(self, ident: str, distance: int, bounds: tuple[int, int]) -> Leg:
        """A destination as the planner weighs it, read once: (space id, its kind (0 sea, 1
        Discovery Spot, 2 port, 3 East Asian port), the Sailing Speed to write, the fewest steps,
        the steps' small cost, its :func:`split_code` at sea and as a port (no goods to sell),
        its region, stars and specialty, the space). Beyond the largest number (Reinforced
        Rope's extra space) the speed is the largest and the extra space is not sailed for the
        Scurvy Check."""
        key = (ident, distance, bounds)
        found = self._leg_of.get(key)
        if found is not None:
            return found
        low, high = bounds
        speed = low if distance < low else high if distance > high else distance
        sailed = distance - 1 if distance > high else distance
        space = self.spaces[ident]
        kind = (3 if space.east_asia else 2) if space.port else 1 if space.discovery else 0
        found = self._leg_of[key] = (
            ident,
            kind,
            speed,
            distance,
            0.01 * distance,
            split_code(False, speed, sailed, 0, False),
            split_code(True, speed, sailed, 0, space.specialty is not None),
            space.region or "",
            space.stars,
            space.specialty,
            space,
        )
        return found

    def leg_ids(self, start: str, steps: int, bounds: tuple[int, int]) -> frozenset[str]:
        """The space ids of :meth:`legs` (cached)."""
        key = (start, steps, bounds)
        found = self._leg_ids.get(key)
        if found is None:
            found = self._leg_ids[key] = frozenset(
                leg[0] for leg in self.legs(start, steps, bounds)
            )
        return found

    def legs(self, start: str, steps: int, bounds: tuple[int, int]) -> tuple[Leg, ...]:
        """The ports and Discovery Spots within ``steps`` of ``start``, then ``start`` itself
        (staying put), each as a :meth:`leg` (cached: the map never changes)."""
        key = (start, steps, bounds)
        found = self._legs.get(key)
        if found is None:
            found = tuple(
                self.leg(ident, distance, bounds)
                for ident, distance in (*self.reach_interesting(start, steps), (start, 0))
            )
            self._legs[key] = found
        return found

    def ports_in(self, region: str) -> tuple[str, ...]:
        """The ports of a region ("any port within the region (see color)"), in map order."""
        return tuple(ident for ident, where in self.regions.items() if where == region)

    def distances_to(self, target: str, limit: int = 64) -> dict[str, int]:
        """Spaces sailed from every space to ``target``: a space, or a region (its nearest
        port). The map's passages go both ways, so this is a reach from the target; cached."""
        found = self._to.get(target)
        if found is not None:
            return found
        if target in self.spaces:
            found = self.reach(target, limit)
        else:
            starts = self.ports_in(target)
            found = {ident: 0 for ident in starts}
            frontier = list(starts)
            spaces = self.spaces
            for steps in range(1, limit + 1):
                nxt: list[str] = []
                for ident in frontier:
                    for other in spaces[ident].neighbours:
                        if other in found or spaces[other].pirate:
                            continue
                        found[other] = steps
                        nxt.append(other)
                if not nxt:
                    break
                frontier = nxt
        self._to[target] = found
        return found

    def distance(self, a: str, b: str, limit: int = 64) -> int | None:
        """The fewest spaces sailed from ``a`` to ``b``, or None when out of ``limit``."""
        return self.reach(a, limit).get(b)

    def reach_interesting(self, start: str, steps: int) -> tuple[tuple[str, int], ...]:
        """The ports and Discovery Spots within reach, with their distances (cached)."""
        key = (start, steps)
        found = self._reach_interesting.get(key)
        if found is None:
            interesting = self.interesting
            found = tuple(
                (s, d) for s, d in self.reach(start, steps).items() if s in interesting and d
            )
            self._reach_interesting[key] = found
        return found

    def nearest(self, space: str, what: str) -> int:
        """Spaces from ``space`` to the nearest port (``what="port"``) or Discovery Spot
        (``"discovery"``), counted over the map whatever lies between (the Sunken Ship's
        "at least 3 spaces away from any Port"); a large number when there is none."""
        key = (space, what)
        found = self._nearest.get(key)
        if found is not None:
            return found
        targets = self.ports if what == "port" else self.spots
        spaces = self.spaces
        best = 99
        if space in targets:
            best = 0
        else:
            seen = {space}
            frontier = [space]
            depth = 0
            while frontier and best == 99:
                depth += 1
                nxt = []
                for ident in frontier:
                    for other in spaces[ident].neighbours:
                        if other in seen:
                            continue
                        if other in targets:
                            best = depth
                            break
                        seen.add(other)
                        nxt.append(other)
                    if best != 99:
                        break
                frontier = nxt
        self._nearest[key] = best
        return best

    def sellers(self, specialty: str) -> tuple[str, ...]:
        """The ports that sell ``specialty``."""
        found = self._sellers.get(specialty)
        if found is None:
            found = tuple(s.id for s in self.spaces.values() if s.specialty == specialty)
            self._sellers[specialty] = found
        return found

    def category(self, specialty: str) -> str | None:
        """The goods a specialty is (for the Vogue mid-events), when the map says."""
        return self.categories.get(specialty)

    @classmethod
    def from_hexes(
        cls,
        cells: dict[tuple[int, int], dict[str, Any]],
        start: str,
        *,
        wrap: int | None = None,
        borders: Iterable[tuple[tuple[int, int], tuple[int, int]]] = (),
        categories: dict[str, str] | None = None,
        source: str = "",
    ) -> Chart:
        """A chart from hex cells ``(q, r) -> {id, port, stars, ...}``: neighbours by hex
        adjacency, less the white ``borders``; ``wrap`` joins column ``wrap - 1`` to column 0
        (the Date Line: "Spaces with the same letter are considered the same space")."""
        by_cell: dict[tuple[int, int], Space] = {}
        for (q, r), info in cells.items():
            info = dict(info)
            ident = str(info.pop("id", f"sea_{q}_{r}"))
            by_cell[(q, r)] = Space(ident, **info)
        blocked = {frozenset(pair) for pair in borders}
        links: dict[str, set[str]] = {s.id: set() for s in by_cell.values()}
        for (q, r), space in by_cell.items():
            for dq, dr in ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)):
                nq, nr = q + dq, r + dr
                if wrap is not None:
                    nq %= wrap
                other = by_cell.get((nq, nr))
                if other is None or frozenset(((q, r), (nq, nr))) in blocked:
                    continue
                links[space.id].add(other.id)
        return cls._linked({s.id: s for s in by_cell.values()}, links, start, categories, source)

    @classmethod
    def from_graph(
        cls,
        spaces: Iterable[Space],
        links: Iterable[tuple[str, str]],
        start: str,
        categories: dict[str, str] | None = None,
        source: str = "",
    ) -> Chart:
        """A chart from spaces and the pairs of them a ship can sail between."""
        by_id = {s.id: s for s in spaces}
        joined: dict[str, set[str]] = {ident: set() for ident in by_id}
        for a, b in links:
            joined[a].add(b)
            joined[b].add(a)
        return cls._linked(by_id, joined, start, categories, source)

    @classmethod
    def _linked(
        cls,
        spaces: dict[str, Space],
        links: dict[str, set[str]],
        start: str,
        categories: dict[str, str] | None,
        source: str,
        infested: dict[str, set[str]] | None = None,
    ) -> Chart:
        """Set each space's neighbours and Pirate Infested Areas (``infested``: space -> its
        pirate icons; by default the pirate spaces among its neighbours)."""
        for ident, space in spaces.items():
            space.neighbours = tuple(sorted(links[ident]))
        if infested is None:
            infested = {}
            for space in spaces.values():
                if space.pirate:
                    for other in space.neighbours:
                        infested.setdefault(other, set()).add(space.id)
        for ident, pirates in infested.items():
            if ident in spaces:
                spaces[ident].infested = frozenset(pirates)
        return cls(spaces, start, categories, source)


#: The goods each specialty of the stand-in chart is, for the Vogue mid-events, when the game's
#: ``specialty`` cards do not say (stand_in_chart(ir) takes theirs first: a scenario on the
#: stand-in chart prices Wine as specialties.cards does).
_STAND_IN_CATEGORIES = {
    "wine": "household_goods",
    "wool": "household_goods",
    "ivory": "luxury_goods",
    "gold": "luxury_goods",
    "cloves": "groceries",
    "pepper": "groceries",
    "tin": "household_goods",
    "silk": "luxury_goods",
    "ginseng": "groceries",
    "lacquer": "luxury_goods",
    "silver": "luxury_goods",
    "tobacco": "groceries",
    "sugar": "groceries",
    "furs": "household_goods",
}


def stand_in_chart(ir: dict[str, Any] | None = None) -> Chart:
    """A small world map drawn from the rulebook's facts alone, for tests and for playing
    before the printed map's data exists (every position on it is invented). With a game's
    ``ir``, a specialty its ``specialty`` cards declare is the goods they say (the Vogue
    mid-events price it so), over the stand-in's own guess.

    It keeps what the rulebook states: the game starts in Lisbon; Lisbon to Sierra Leone needs
    Sailing Speed 3; the East Asian ports Hanyang, Sakai and Hangzhou; Discovery Spots in
    Antarctica, the Galapagos, the Kraken's and a Northwestern Passage; pirate icons with their
    six infested spaces; a white border; the Date Line (columns 15 and 0 are joined).
    """
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    for q in range(16):
        for r in range(8):
            cells[(q, r)] = {"id": f"sea_{q}_{r}"}

    def port(q: int, r: int, ident: str, stars: int, specialty: str, region: str) -> None:
        cells[(q, r)] = {
            "id": ident,
            "port": True,
            "stars": stars,
            "specialty": specialty,
            "region": region,
        }

    port(2, 1, "lisbon", 1, "wine", "europe")
    port(2, 0, "london", 2, "wool", "europe")
    port(2, 4, "sierra_leone", 2, "ivory", "africa")
    port(3, 6, "cape_town", 3, "gold", "africa")
    port(5, 5, "zanzibar", 2, "cloves", "africa")
    port(7, 3, "calicut", 3, "pepper", "india")
    port(9, 4, "malacca", 3, "tin", "southeast_asia")
    port(11, 2, "hangzhou", 0, "silk", "east_asia")
    port(11, 1, "hanyang", 0, "ginseng", "east_asia")
    port(12, 1, "sakai", 0, "lacquer", "east_asia")
    port(14, 5, "lima", 3, "silver", "south_america")
    port(0, 3, "havana", 2, "tobacco", "caribbean")
    port(1, 6, "rio_de_janeiro", 2, "sugar", "south_america")
    port(15, 1, "new_amsterdam", 2, "furs", "north_america")
    for q, r, ident in (
        (5, 7, "antarctica_west"),
        (10, 7, "antarctica_east"),
        (15, 4, "galapagos"),
        (7, 0, "kraken"),
        (13, 0, "northwestern_passage"),
        (13, 7, "easter_island"),
    ):
        cells[(q, r)] = {"id": ident, "discovery": True}
    for q, r, ident in ((4, 3, "pirates_of_the_gulf"), (10, 3, "pirates_of_the_strait")):
        cells[(q, r)] = {"id": ident, "pirate": True}
    # One white border: the cape's coast cannot be crossed between these two spaces.
    borders = [((3, 5), (3, 6))]
    return Chart.from_hexes(
        cells,
        "lisbon",
        wrap=16,
        borders=borders,
        categories={**_STAND_IN_CATEGORIES, **(specialty_goods(ir) if ir else {})},
        source="stand-in chart (no map data)",
    )


# -- reading the data defensively (the cards may say more than the flow needs)

_CHARTS = ObjectCache()


def chart_from_ir(ir: dict[str, Any]) -> Chart | None:
    """The world map from the IR's ``space`` cards, its ``white_border`` edges and its
    ``world_map`` start, read by :func:`from_cards` above (the one reader of the map data,
    which also checks it); None when the data holds no map.

    "Spaces with the same letter are considered the same space": a Date Line pair is one space,
    named by its west cell and reached from the neighbours of both.
    """
    cards = [card for card in ir["cards"] if card.get("kind") in _MAP_KINDS]
    if not any(card.get("kind") == "space" for card in cards):
        return None
    try:
        world = from_cards(cards)
    except MapError as error:
        raise RuleError(f"the World Map in map.cards: {error}") from None
    return chart_from_world(world, specialty_goods(ir))


def specialty_goods(ir: dict[str, Any]) -> dict[str, str]:
    """The goods (groceries, household goods, luxury goods) of each ``specialty`` card: what a
    Vogue mid-event's ``goods`` is matched against, on any chart."""
    return {
        card["id"]: str((card.get("properties") or {}).get("goods"))
        for card in ir["cards"]
        if card.get("kind") == "specialty"
    }


#: The ``source`` of the chart read from the data's map (:func:`chart_from_world`): its spaces
#: are the ``space`` cards.
MAP_SOURCE = "map.cards"

#: The card kinds that make the World Map.
_MAP_KINDS = frozenset({"space", "white_border", "world_map"})


def chart_from_world(world: WorldMap, categories: dict[str, str] | None = None) -> Chart:
    """The flow's chart of an :class:`WorldMap`: its spaces (one per Date Line pair),
    the passages between them (white borders honoured), and each space's Pirate Infested Areas
    ("The 6 spaces adjacent to a pirate icon": adjacency on the map, borders or not)."""
    spaces: dict[str, Space] = {}
    for space in world.spaces.values():
        if not world.is_canonical(space.id):
            continue
        spaces[space.id] = Space(
            space.id,
            title=space.title,
            port=space.is_port,
            stars=space.stars or 0,
            specialty=space.specialty,
            region=space.region,
            discovery=space.is_discovery_spot,
            pirate=space.is_pirate,
            east_asia=(space.is_port and space.region == "east_asia") or None,
        )
    links = {ident: set(world.adjacent(ident)) for ident in spaces}
    infested: dict[str, set[str]] = {}
    for pirate in world.pirates():
        for ident in world.infested_area(pirate.id):
            infested.setdefault(ident, set()).add(pirate.id)
    start = place_id(world.start or "lisbon")
    chart = Chart._linked(spaces, links, start, categories, MAP_SOURCE, infested)
    return chart


def chart_for(ir: dict[str, Any]) -> Chart:
    """The world map of a compiled game, built once per IR and shared by its games: the data's
    ``space`` cards when it has them, else the stand-in chart."""
    chart: Chart | None = _CHARTS.get(ir)
    if chart is None:
        chart = _CHARTS.put(ir, chart_from_ir(ir) or stand_in_chart(ir))
    return chart


#: Each voyage card's pirate formula for the planner, by the card's IR object (kept, so a
