"""Uncharted Passage's World Map, read from the IR (``map.cards``) into engine.hexgrid cells.

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

#: The terrain tags a space carries (exactly one each).
TERRAINS = ("sea", "port", "discovery", "pirate")


class MapError(ValueError):
    """The map data contradicts itself (two spaces on one hex, a border between strangers ...)."""


@dataclass(frozen=True)
class Space:
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


def _space(card: Mapping[str, Any]) -> Space:
    props = card.get("properties", {})
    terrains = [tag for tag in card.get("tags", ()) if tag in TERRAINS]
    if len(terrains) != 1:
        raise MapError(f"space '{card['id']}' needs one terrain of {TERRAINS}, has {terrains}")
    if "q" not in props or "r" not in props:
        raise MapError(f"space '{card['id']}' has no q and r")
    return Space(
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
        spaces: Iterable[Space],
        white_borders: Iterable[tuple[str, str]] = (),
        start: str | None = None,
    ) -> None:
        self.spaces: dict[str, Space] = {}
        self.by_cell: dict[Hex, Space] = {}
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
        lettered: dict[str, list[Space]] = {}
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

    def space(self, sid: str) -> Space:
        """The space named ``sid`` (either cell of a Date Line pair gives the west one)."""
        return self.spaces[self.canonical(sid)]

    def at(self, cell: Hex) -> Space | None:
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

    def ports(self) -> list[Space]:
        """Every port, in map order."""
        return [s for s in self.spaces.values() if s.is_port and self.is_canonical(s.id)]

    def discovery_spots(self) -> list[Space]:
        """Every Discovery Spot, in map order."""
        return [s for s in self.spaces.values() if s.is_discovery_spot and self.is_canonical(s.id)]

    def pirates(self) -> list[Space]:
        """Every space with a pirate icon, in map order."""
        return [s for s in self.spaces.values() if s.is_pirate and self.is_canonical(s.id)]

    def region_of(self, sid: str) -> str | None:
        """A port's region (its colour), or None for a space that is not a port."""
        return self.space(sid).region

    def ports_in(self, region: str) -> list[Space]:
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
    spaces: list[Space] = []
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
