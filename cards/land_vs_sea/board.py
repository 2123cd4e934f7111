"""Land vs Sea's tiles and board: sections, areas, trade routes, ley lines and holes.

Source: /work/shared/rulebooks/land-vs-sea-uncharted.txt ("the rulebook"); what it says of
the base game is modelled here, the rest is documented in cards/land_vs_sea/HOST.md.

- A tile's six edges are each land or sea; its *sections* group those edges (the land or the
  water reaching them) and carry the bonus points, the City and the icons drawn there. Two
  tiles' sections facing each other across a shared edge are one body of land or sea: an
  *area*, complete when none of its sections' edges faces an empty cell.
- A *trade route* is a group of adjacent tiles showing caravan or ship icons. Bandits and
  Pirates are not part of one ("Bandits and Pirates are not counted as caravans or ships
  themselves"), nor is a City tile (one city sits between two separate routes in the
  rulebook's example); a route is "connected to" a City when one of its tiles shows one or
  lies next to one.
- The :class:`Board` keeps areas and routes up to date as tiles are put down (merging sets, so
  a placement costs a few steps, not a search of the map), and can say what a placement would
  complete without making it (the greedy policy weighs hundreds of placements a turn). The
  pure functions (:func:`area_at`, :func:`is_complete`, :func:`route_at` ...) search the map
  and are what the bookkeeping is tested against.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.api import CardError
from engine.hexgrid import AXES, DIRECTIONS, Hex, neighbour, neighbours, opposite
from engine.runtime import RuleError

LAND = "land"
SEA = "sea"
SIDES = (LAND, SEA)
LETTER = {"L": LAND, "S": SEA}


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
    #: Mountains (land) or Corals (sea) drawn in this section (base game's layer).
    mountains: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "edges", frozenset(self.edges))
        if self.side not in SIDES:
            raise RuleError(f"a section is land or sea, not '{self.side}'")
        if not self.edges or not self.edges <= frozenset(range(6)):
            raise RuleError(f"a section's edges are some of 0..5, not {sorted(self.edges)}")
        if self.bonus < 0 or self.mountains < 0:
            raise RuleError("a section's bonus points are never negative")

    def turned(self, turns: int) -> Section:
        """The section of the tile turned ``turns`` sixths round (edge d moves to d + turns)."""
        edges = frozenset((e + turns) % 6 for e in self.edges)
        return Section(self.side, edges, self.bonus, self.city, self.mountains)


#: :attr:`Tile.closes` by the sections' edges (a few dozen ways to share out six edges).
_CLOSES: dict[tuple[int, ...], int] = {}


@dataclass(frozen=True)
class Tile:
    """A hex tile face as the scoring layers see it."""

    sections: tuple[Section, ...]
    #: a Menhir is drawn on the tile.
    menhir: bool = False
    #: caravan and ship icons (the Lost Traders' face shows 2).
    caravans: int = 0
    ships: int = 0
    bandit: bool = False
    pirate: bool = False
    #: a Steal tile (base game): its placer takes a tile from a rival.
    steal: bool = False
    #: the card id of a special tile (``lost_city``, ``lost_traders`` ...), else None.
    special: str | None = None
    name: str = ""
    #: the edge letters, worked out once: ``edge(d)`` is asked for every neighbour of a
    #: candidate placement.
    sides: tuple[str, ...] = field(default=(), compare=False)
    #: which section reaches each edge.
    section_of: tuple[int, ...] = field(default=(), compare=False)
    #: the land edges as bits (bit d for direction d), for matching by bit arithmetic.
    land_bits: int = field(default=0, compare=False)
    #: each section's edges as bits.
    section_bits: tuple[int, ...] = field(default=(), compare=False)
    #: the tile joins trade routes: a route tile (caravans or ships) or a Bandit or Pirate.
    trades: bool = field(default=False, compare=False)
    #: the masks of edges meeting tiles (bit m for mask m, 0..63) under which some section
    #: of the tile meets tiles all round, the only way a placement can close an area.
    closes: int = field(default=0, compare=False)
    #: :attr:`bonus`, added up once (the greedy and the Ley lines read it often).
    points: int = field(default=0, compare=False)
    #: per direction, the index in ``MapState.edge_cells`` of the cells whose edge there it
    #: does not match (a sea edge for its land edge, a land edge for its sea edge).
    wrong: tuple[int, ...] = field(default=(), compare=False)
    #: :attr:`city` and :attr:`in_trade_route`, worked out once (every placement reads them).
    has_city: bool = field(default=False, compare=False)
    route_tile: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sections", tuple(self.sections))
        seen: list[int] = [e for section in self.sections for e in section.edges]
        if sorted(seen) != list(range(6)):
            raise RuleError(
                f"a tile's sections must share out its six edges 0..5 once each, got {sorted(seen)}"
            )
        if self.caravans < 0 or self.ships < 0:
            raise RuleError("a tile's caravan and ship icons are never negative")
        owner = [0] * 6
        for index, section in enumerate(self.sections):
            for e in section.edges:
                owner[e] = index
        object.__setattr__(self, "section_of", tuple(owner))
        object.__setattr__(self, "sides", tuple(self.sections[owner[d]].side for d in range(6)))
        object.__setattr__(
            self, "land_bits", sum(1 << d for d in range(6) if self.sides[d] == LAND)
        )
        object.__setattr__(
            self,
            "trades",
            self.caravans > 0 or self.ships > 0 or self.bandit or self.pirate,
        )
        object.__setattr__(
            self,
            "section_bits",
            tuple(sum(1 << e for e in section.edges) for section in self.sections),
        )
        object.__setattr__(self, "points", sum(section.bonus for section in self.sections))
        bits = self.land_bits
        object.__setattr__(self, "wrong", tuple(d + 6 if bits >> d & 1 else d for d in range(6)))
        object.__setattr__(self, "has_city", any(section.city for section in self.sections))
        object.__setattr__(
            self,
            "route_tile",
            (self.caravans > 0 or self.ships > 0) and not (self.bandit or self.pirate),
        )
        closes = _CLOSES.get(self.section_bits)
        if closes is None:
            closes = _CLOSES[self.section_bits] = sum(
                1 << mask
                for mask in range(64)
                if any(not bits & ~mask for bits in self.section_bits)
            )
        object.__setattr__(self, "closes", closes)

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
        return self.section_of[direction]

    def edge(self, direction: int) -> str:
        """Land or sea: what the edge in ``direction`` shows."""
        return self.sides[direction]

    @property
    def letters(self) -> str:
        """The six edges as L/S letters, from direction 0."""
        return "".join("L" if side == LAND else "S" for side in self.sides)

    @property
    def bonus(self) -> int:
        """All the bonus points printed on the tile."""
        return self.points

    @property
    def city(self) -> bool:
        """True when a City is drawn on the tile."""
        return self.has_city

    @property
    def in_trade_route(self) -> bool:
        """True for a tile a trade route is made of: caravan or ship icons, not a raider."""
        return self.route_tile

    def turned(self, turns: int) -> Tile:
        """This tile turned ``turns`` sixths round."""
        turns %= 6
        if not turns:
            return self
        return Tile(
            tuple(s.turned(turns) for s in self.sections),
            self.menhir,
            self.caravans,
            self.ships,
            self.bandit,
            self.pirate,
            self.steal,
            self.special,
            self.name,
        )

    def rotations(self) -> list[tuple[int, Tile]]:
        """Each distinct way the tile can lie: (turns, tile), the same edges and sections once.

        "rotated to fit as you choose": an all land tile lies one way only.
        """
        seen: set[tuple[tuple[str, ...], tuple[frozenset[int], ...]]] = set()
        found = []
        for turns in range(6):
            turned = self.turned(turns)
            key = (turned.sides, tuple(s.edges for s in turned.sections))
            if key not in seen:
                seen.add(key)
                found.append((turns, turned))
        return found


# -- a face as the card data writes it (cards/land_vs_sea/hex_tiles.cards)


def _runs(letters: str) -> list[tuple[str, list[int]]]:
    """The unbroken runs of one letter round the tile, each with its edges."""
    if len(set(letters)) == 1:
        return [(LETTER[letters[0]], list(range(6)))]
    start = next(d for d in range(6) if letters[d] != letters[d - 1])
    runs: list[tuple[str, list[int]]] = []
    for step in range(6):
        d = (start + step) % 6
        if runs and letters[d] == letters[d - 1]:
            runs[-1][1].append(d)
        else:
            runs.append((LETTER[letters[d]], [d]))
    return sorted(runs, key=lambda run: min(run[1]))


def _clauses(value: Any) -> list[list[Any]]:
    """A list property's clauses (one clause alone is a list of words)."""
    if not value:
        return []
    if isinstance(value, list) and value and isinstance(value[0], list):
        return value
    return [value] if isinstance(value, list) else [[value]]


def face_tile(card: Mapping[str, Any], face: str) -> Tile:
    """One face of a ``hex_tile`` card as a :class:`Tile`; a :class:`RuleError` at the card's
    line when the face is not six L/S letters or names a side it has no section of."""
    props = card.get("properties", {})
    where = f"{card.get('source', '?')}: {card.get('title', card.get('id'))}"
    letters = props.get(f"face_{face}")
    if not isinstance(letters, str) or len(letters) != 6 or set(letters) - set("LS"):
        raise CardError(
            f"face_{face} is six edges, each L (land) or S (sea), from direction 0 round the "
            f"tile; not {letters!r}",
            f"face_{face}",
            f'write: face_{face} "LLLSSS"',
            where,
        )
    icons = _clauses(props.get(f"face_{face}_icons"))
    _check_repeats(icons, f"face_{face}_icons", where)
    words = {str(clause[0]): clause[1:] for clause in icons if clause}
    _check_icon_words(words, face, where)
    runs = _runs(letters)
    for side in SIDES:
        if side in [str(w) for w in words.get("joined", [])]:
            edges = [e for s, run in runs if s == side for e in run]
            runs = [(s, run) for s, run in runs if s != side] + [(side, edges)]
    runs.sort(key=lambda run: min(run[1]))
    bonus = {side: [0] * sum(1 for s, _ in runs if s == side) for side in SIDES}
    given: dict[str, Any] = {}
    for clause in _clauses(props.get(f"face_{face}_bonus")):
        side, points = str(clause[0]), clause[1:]
        if side in given:
            # `land 1, land 2` gave the first land section 2 and the second none: each side's
            # sections are one clause, in the order of their first edge (`land 1 2`).
            raise CardError(
                f"face_{face}_bonus gives {side} twice ('{_words(given[side])}' and "
                f"'{_words(clause)}'): a side's sections take one clause, a number for each "
                "in the order of their first edge",
                f"face_{face}_bonus",
                f"write: face_{face}_bonus {side} "
                + " ".join(str(w) for w in (*given[side][1:], *points)),
                where,
            )
        given[side] = clause
        if (
            side not in SIDES
            or not points
            or len(points) > len(bonus[side])
            or not all(isinstance(p, int) and not isinstance(p, bool) for p in points)
        ):
            raise CardError(
                f"face_{face}_bonus gives points to its land or sea sections, one number per "
                f"section ({len(bonus.get(side, []))} {side}); not {_words(clause)}",
                f"face_{face}_bonus",
                f"write: face_{face}_bonus land 1, sea 2 (this face has "
                + " and ".join(f"{len(bonus[s])} {s} section(s)" for s in SIDES)
                + ")",
                where,
            )
        if any(p < 0 for p in points):
            # "Bonus points ( ) score 2 points each (rather than 1)": a section prints none or
            # some, never fewer than none. Was the Tile's RuleError, shown at the card's title
            # with no hint; now at this property, as every other bonus point mistake is.
            raise CardError(
                f"face_{face}_bonus gives a section {min(points)} bonus points; a section "
                f"prints none or some, never fewer: not {_words(clause)}",
                f"face_{face}_bonus",
                f"write: face_{face}_bonus {side} "
                + " ".join(str(max(int(p), 0)) for p in points)
                + " (0 for a section with none)",
                where,
            )
        bonus[side][: len(points)] = [int(p) for p in points]
    counts = {
        icon: _icon_number(words, icon, f"face_{face}_icons", where)
        for icon in _COUNTED
        if icon in words
    }
    for icon, side in (("mountain", LAND), ("coral", SEA)):
        if icon in words and not bonus[side]:
            raise CardError(
                f"a {icon.capitalize()} is drawn in a {side} section, and this face has none",
                f"face_{face}_icons",
                f"move it to a face with {side} edges, or remove it",
                where,
            )
    city_sides = [str(w) for w in words.get("city", [])] or list(SIDES)
    for side in (str(w) for w in words.get("city", [])):
        # "Cities straddle both the Land and Sea sections of tiles they are on": `city sea` on
        # a face of land edges only drew the City in no section, so it raised no area and no
        # trade route, with no word at cardc check (a Mountain or Coral there was refused).
        if not bonus[side]:
            raise CardError(
                f"'city {side}' draws the City in a {side} section, and this face has none",
                f"face_{face}_icons",
                f"write: face_{face}_icons city (it straddles the sections the face has), "
                f"or move it to a face with {side} edges",
                where,
            )
    count = {side: 0 for side in SIDES}
    sections = []
    for side, edges in runs:
        index = count[side]
        count[side] += 1
        drawn = "mountain" if side == LAND else "coral"
        sections.append(
            Section(
                side,
                frozenset(edges),
                bonus[side][index],
                "city" in words and side in city_sides,
                counts.get(drawn, 0) if index == 0 else 0,
            )
        )
    return Tile(
        tuple(sections),
        menhir="menhir" in words,
        caravans=counts.get("caravan", 0),
        ships=counts.get("ship", 0),
        bandit="bandit" in words,
        pirate="pirate" in words,
        steal="steal" in words,
        name=f"{card.get('title', '')} ({face.upper()})",
    )


#: The icons a face shows a number of (``caravan 2``; one when no number is written).
_COUNTED = ("caravan", "ship", "mountain", "coral")

#: The icons a face shows once, with nothing after them.
_ONCE = ("menhir", "bandit", "pirate", "steal")


def _check_repeats(clauses: list[Any], prop: str, where: str) -> None:
    """Each icon is named once in a face's icons. A second clause of one icon was read as if
    the first were not there on a hex tile (``caravan 1, caravan 2`` showed 2 caravans, ``city
    land, city sea`` a City in the sea alone) and added to it on a special tile: the face's
    count, or the sections a City straddles, go in one clause."""
    seen: dict[str, Any] = {}
    for clause in clauses:
        if not clause:
            continue
        name = str(clause[0])
        if name in seen:
            words = [str(w) for w in (*seen[name][1:], *clause[1:])]
            fix = f"{prop} {name}"
            if name in _COUNTED:
                counts = [c[1] if len(c) > 1 else 1 for c in (seen[name], clause)]
                if all(isinstance(n, int) and not isinstance(n, bool) for n in counts):
                    fix = f"{prop} {name} {sum(counts)} (how many the face shows)"
            elif name == "city" and words:
                fix = f"{prop} city (a City straddles both sections when none is named)"
            elif name == "joined":
                fix = f"{prop} joined " + " ".join(dict.fromkeys(words))
            raise CardError(
                f"'{name}' is named twice in {prop} ('{_words(seen[name])}' and "
                f"'{_words(clause)}'): a face's icon is one clause",
                prop,
                f"write: {fix}",
                where,
            )
        seen[name] = clause


def _check_once(words: Mapping[str, list[Any]], prop: str, where: str) -> None:
    """Nothing follows an icon a face shows once or not at all (a Menhir, a Bandit, a Pirate,
    a Steal icon): ``menhir 2`` was read as one Menhir. A hex tile's face and a special tile's
    face are checked alike."""
    for icon in _ONCE:
        if words.get(icon):
            raise CardError(
                f"a face shows one {icon.capitalize()} or none; '{_words([icon, *words[icon]])}' "
                "would be read as one",
                prop,
                f"write: {prop} {icon}",
                where,
            )


def _check_icon_words(words: Mapping[str, list[Any]], face: str, where: str) -> None:
    """What may follow an icon that is not counted: nothing after a Menhir, a Bandit, a
    Pirate or a Steal icon (``menhir 2`` was read as one Menhir), land or sea after ``city``
    (the section it is drawn in; ``city 2`` drew no City at all) and after ``joined``."""
    prop = f"face_{face}_icons"
    _check_once(words, prop, where)
    for icon, fix in (("city", "city (both sections) or city land"), ("joined", "joined land")):
        if icon not in words:
            continue
        given = [str(w) for w in words[icon]]
        if any(w not in SIDES for w in given) or (icon == "joined" and not given):
            raise CardError(
                f"'{icon}' in {prop} takes land or sea"
                + (" (the section the City is drawn in; none: both)" if icon == "city" else "")
                + f", not '{_words([icon, *words[icon]])}'",
                prop,
                f"write: {prop} {fix}",
                where,
            )


def _icon_number(words: Mapping[str, list[Any]], icon: str, prop: str, where: str) -> int:
    """How many of ``icon`` a face's icons (the property ``prop``: a hex tile's
    ``face_a_icons``, a special tile's ``land_icons``) list (``caravan 2``), checked: a whole
    number, at least 1."""
    given = words.get(icon) or [1]
    number = given[0]
    if len(given) > 1 or not isinstance(number, int) or isinstance(number, bool) or number < 1:
        raise CardError(
            f"'{icon}' in {prop} takes how many the face shows, a number from 1; "
            f"not {_words([icon, *given])}",
            prop,
            f"write: {prop} {icon} 2",
            where,
        )
    return number


def _words(clause: Any) -> str:
    """A property's clause as the card file writes it (``sea 1 2``)."""
    return " ".join(str(word) for word in clause) if isinstance(clause, list) else str(clause)


def _icon_count(value: Any, icon: str) -> int:
    """How many of ``icon`` a card property like ``caravan 2`` lists."""
    return sum(int(c[1]) if len(c) > 1 else 1 for c in _clauses(value) if c and c[0] == icon)


def special_tile(card: Mapping[str, Any], face: str) -> Tile:
    """A special tile from its card (the IR's card dict), on its land or its sea face.

    "2 new special all land / all sea edged Lost City and Lost Trader tiles": the face chosen
    is one section reaching all six edges. ``city true`` puts a City in it on both faces ("These
    only increase bonus point and Waypoint scores in the matching land OR sea area they are
    part of"), ``city`` among one face's icons on that face alone; ``land_icons`` /
    ``sea_icons`` give the icons that face shows.
    """
    if face not in SIDES:
        raise RuleError(f"a special tile is placed land or sea face up, not '{face}'")
    properties = card.get("properties", {})
    if properties.get("edges") != "all_land_or_all_sea":
        # "you may choose any 1 of the currently available special tiles to place ... into
        # that hole": only an all land / all sea tile fits every hole.
        raise CardError(
            "a special tile goes into a hole of 6 land or 6 sea edges, so its edges are all "
            f"land on one face and all sea on the other; not '{properties.get('edges')}'",
            "edges",
            "write: edges all_land_or_all_sea",
            f"{card.get('source', '?')}: {card.get('title', card.get('id'))}",
        )
    icons = properties.get(f"{face}_icons")
    where = f"{card.get('source', '?')}: {card.get('title', card.get('id'))}"
    prop = f"{face}_icons"
    _check_repeats(_clauses(icons), prop, where)
    words = {str(clause[0]): clause[1:] for clause in _clauses(icons) if clause}
    # The icons a face can show, as a hex tile's: a Menhir, a Bandit or a Pirate placed into a
    # hole plays as on any tile (was silently nothing). Not a Steal icon: a Steal tile steals
    # when it is the turn's own placement, never a bonus tile placement.
    # A City: `city true` draws it on both faces, as the Lost City's "entirely land and sea
    # bound sides containing a City"; `city` in one face's icons draws it on that face alone.
    # The rulebook does not ask a special tile's two faces to show the same icons (the Lost
    # Traders' faces differ), and a City on a special tile "only increase[s] bonus point and
    # Waypoint scores in the matching land OR sea area they are part of": each face stands
    # alone, so a City on one face was refused for no rule's sake.
    wrong = sorted(set(words) - {*_COUNTED, "menhir", "bandit", "pirate", "city"})
    if wrong:
        raise CardError(
            f"a special tile's face shows caravans, ships, Mountains, Corals, a Menhir, a "
            f"Bandit, a Pirate or a City; not '{wrong[0]}'",
            prop,
            f"write: {prop} caravan 2",
            where,
        )
    _check_once(words, prop, where)
    if words.get("city"):
        # A hex tile's `city land` names the section the City is drawn in; a special tile's
        # face is one section, all land or all sea, so nothing follows.
        raise CardError(
            f"a special tile's {face} face is one {face} section, so its City needs no section "
            f"named; not '{_words(['city', *words['city']])}'",
            prop,
            f"write: {prop} city",
            where,
        )
    drawn = "mountain" if face == LAND else "coral"
    other = "coral" if face == LAND else "mountain"
    if other in words:
        raise CardError(
            f"a {other.capitalize()} is drawn in a {'sea' if other == 'coral' else 'land'} "
            f"section, and the {face} face is all {face}",
            prop,
            f"move it to {'sea' if other == 'coral' else 'land'}_icons",
            where,
        )
    return Tile(
        (
            Section(
                face,
                frozenset(range(6)),
                0,
                bool(properties.get("city")) or "city" in words,
                _icon_count(icons, drawn),
            ),
        ),
        menhir="menhir" in words,
        caravans=_icon_count(icons, "caravan"),
        ships=_icon_count(icons, "ship"),
        bandit="bandit" in words,
        pirate="pirate" in words,
        special=str(card.get("id")),
        name=str(card.get("title", "")),
    )


# -- the card data's checks, run by cardc check (natives.py's CARD_CHECKS, engine.api)


def check_hex_tile(card: Mapping[str, Any], cards: Mapping[str, Any]) -> None:
    """Both faces of a hex tile read as tiles: six L/S edges, bonus points for the sections
    the face has, icon counts that are numbers. (The game's counting parameters are held to
    the bounds game.cards declares: ``param stacks 3 { counts "..."; min 1 }``.)"""
    for face in ("a", "b"):
        face_tile(card, face)


def check_special_tile(card: Mapping[str, Any], cards: Mapping[str, Any]) -> None:
    """A special tile is all land / all sea, and its faces' icon counts are numbers."""
    where = f"{card.get('source', '?')}: {card.get('title', card.get('id'))}"
    for side in SIDES:
        prop = f"{side}_icons"
        # The counts are checked before the face is read as a tile: `ship -1` made the Tile's
        # RuleError ("never negative"), shown at the card's title with no hint, where `ship 0`
        # was told at this property's line what to write.
        for clause in _clauses(card.get("properties", {}).get(prop)):
            if clause and str(clause[0]) in _COUNTED:
                # Named by its own property (land_icons), so the error is at its line: the
                # hex tiles' 'face_land_icons' named none, and fell back to the card's title.
                _icon_number({str(clause[0]): clause[1:]}, str(clause[0]), prop, where)
        special_tile(card, side)


def check_starting_tile(card: Mapping[str, Any], cards: Mapping[str, Any]) -> None:
    """A large starting tile's parts are hex tiles, one cell each, whose edges meet land to
    land and sea to sea on both faces ("considered as 4 separate 'tiles'"); the parts lie side
    by side (one large tile), and each is a ``starting_part`` of this starting tile alone, no
    tile of the stacks ("Shuffle the remaining 24 Uncharted expansion tiles in")."""
    props = card.get("properties", {})
    where = f"{card.get('source', '?')}: {card.get('title', card.get('id'))}"
    parts = [str(p[0] if isinstance(p, list) else p) for p in _clauses(props.get("parts"))]
    for part in parts:
        other = cards.get(part)
        if other is None or other.get("kind") != "hex_tile":
            raise CardError(
                f"its part '{part}' is "
                + (f"a {other.get('kind')}" if other is not None else "not a card")
                + ", not a hex tile",
                "parts",
                "list the hex_tile cards that make up its faces",
                where,
            )
    cells = _clauses(props.get("cells"))
    if len(cells) != len(parts) or not all(
        len(c) == 2 and all(isinstance(n, int) and not isinstance(n, bool) for n in c)
        for c in cells
    ):
        raise CardError(
            f"cells gives each of its {len(parts)} parts a cell 'q r', in the order of its parts",
            "cells",
            "write: cells " + ", ".join(["0 0", "1 0", "1 -1", "0 1"][: max(len(parts), 1)]),
            where,
        )
    for face in ("a", "b"):
        board: dict[Hex, Tile] = {}
        for part, cell in zip(parts, cells, strict=True):
            at = Hex(int(cell[0]), int(cell[1]))
            tile = face_tile(cards[part], face)
            if at in board or misfits(board, at, tile):
                problem = "shares a cell" if at in board else "meets another part's other edge"
                raise CardError(
                    f"on face {face.upper()} its part '{part}' at {at.q} {at.r} {problem}: land "
                    "edges meet land and sea edges meet sea",
                    "cells",
                    "turn the parts' faces so their edges match, or move the cells",
                    where,
                )
            board[at] = tile
    # One large tile: its parts touch ("large double sided starting tiles"), each beside
    # another, so the 4 'tiles' lie together in the centre of the table.
    at = [Hex(int(c[0]), int(c[1])) for c in cells]
    joined = {at[0]} if at else set()
    grew = True
    while grew:
        grew = False
        for cell in at:
            if cell not in joined and any(n in joined for n in neighbours(cell)):
                joined.add(cell)
                grew = True
    apart = [part for part, cell in zip(parts, at, strict=True) if cell not in joined]
    if apart:
        these = (
            f"part {apart[0]!r} does not"
            if len(apart) == 1
            else f"parts {', '.join(repr(p) for p in apart)} do not"
        )
        raise CardError(
            f"its {these} touch the others: a large starting tile is one tile, its parts "
            "side by side",
            "cells",
            "give each part a cell beside another's, as: cells 0 0, 1 0, 1 -1, 0 1",
            where,
        )

    # Checked after the parts' edges and cells, which say more of a part's shape.
    for part in parts:
        other = cards[part]
        # "Shuffle the remaining 24 Uncharted expansion tiles in with the 58 base game tiles":
        # a part is no tile of the stacks. A stack tile named as a part left the stacks
        # silently (81 tiles, not 82), and two starting tiles sharing a part were one tile
        # laid in two places.
        if "starting_part" not in other.get("tags", ()):
            raise CardError(
                f"its part '{part}' is one of the tiles shuffled into the stacks, not a part of "
                "a large starting tile; naming it here would take it out of the stacks",
                "parts",
                f'name a part of its own (hex_tile starting_part "..." {{ ... }}); '
                f"'{part}' stays in the stacks",
                where,
            )
        sharing = sorted(
            str(o.get("title", cid))
            for cid, o in cards.items()
            if o is not card
            and o.get("kind") == "starting_tile"
            and part
            in {
                str(p[0] if isinstance(p, list) else p)
                for p in _clauses(o.get("properties", {}).get("parts"))
            }
        )
        if sharing:
            raise CardError(
                f"its part '{part}' is a part of {', '.join(sharing)} too; each large starting "
                "tile is its own 4 'tiles'",
                "parts",
                "give each starting tile parts of its own (hex_tile starting_part cards)",
                where,
            )


def check_layer(card: Mapping[str, Any], cards: Mapping[str, Any]) -> None:
    """A layer's scoring aid names each player count on one side (:func:`aid_sides`), and a
    layer ``requires`` another scoring layer ("You may optionally use Bandit and Pirate
    scoring when you are also using Caravan & Ship scoring"), checked at setup: a name that is
    no layer would refuse every game."""
    aid_sides(card)
    needs = card.get("properties", {}).get("requires")
    if needs is None:
        return
    other = cards.get(str(needs))
    if other is None or other.get("kind") != "layer" or other is card:
        what = "itself" if other is card else f"a {other.get('kind')}" if other else "no card"
        raise CardError(
            f"requires names another scoring layer, which must be in play too; '{needs}' is "
            + what,
            "requires",
            "layers: " + ", ".join(sorted(c for c, o in cards.items() if o.get("kind") == "layer")),
            f"{card.get('source', '?')}: {card.get('title', card.get('id'))}",
        )


#: The player counts a scoring aid serves: "They can be used in 2 player head to head, 3 player
#: asymmetric, and 4 player team game modes" (game.cards: ``players 2..4``).
AID_PLAYER_COUNTS = (2, 3, 4)


def aid_sides(card: Mapping[str, Any]) -> dict[int, str]:
    """A layer's scoring aid: which side ("front" or "back") serves each player count, read
    from ``aid_front_players`` and ``aid_back_players`` ("place their scoring aids next to the
    area of play on their correct sides for the player count"). A side left unwritten serves
    the counts the other does not name; a layer writing neither has no aid (an empty dict).
    A :class:`CardError` at the property's line for a count the game is not played with, a
    count on both sides (which side would go up?) or, with both sides written, a count on
    neither: the aid then went out back up silently, or (only the back written) not at all."""
    props = card.get("properties", {})
    where = f"{card.get('source', '?')}: {card.get('title', card.get('id'))}"
    counts = ", ".join(str(n) for n in AID_PLAYER_COUNTS)
    named: dict[str, set[int]] = {}
    for face in ("front", "back"):
        prop = f"aid_{face}_players"
        if props.get(prop) is None:
            continue
        named[face] = set()
        for clause in _clauses(props[prop]):
            for n in clause:
                if isinstance(n, bool) or not isinstance(n, int) or n not in AID_PLAYER_COUNTS:
                    raise CardError(
                        f"the {face} of its scoring aid serves {n!r} players; the game is played "
                        f"by {counts} (2 head to head, 3 asymmetric, 4 in teams)",
                        prop,
                        f"write player counts among {counts}, as: {prop} 3, 4",
                        where,
                    )
                named[face].add(n)
    if not named:
        return {}
    both = named.get("front", set()) & named.get("back", set())
    if both:
        raise CardError(
            f"{', '.join(str(n) for n in sorted(both))} players are on both sides of its scoring "
            "aid; each player count has one correct side",
            ("aid_front_players", "aid_back_players"),
            "name each player count on one side only",
            where,
        )
    if len(named) == 2:
        missing = [n for n in AID_PLAYER_COUNTS if n not in named["front"] | named["back"]]
        if missing:
            raise CardError(
                f"no side of its scoring aid serves {', '.join(str(n) for n in missing)} players",
                ("aid_front_players", "aid_back_players"),
                "name every player count (" + counts + ") on one side, or leave "
                "aid_back_players out so the back serves the counts the front does not",
                where,
            )
    only = "front" if "front" in named else "back"
    other = "back" if only == "front" else "front"
    return {n: only if n in named[only] else other for n in AID_PLAYER_COUNTS}


#: The kinds whose data the checks above read (natives.py's CARD_CHECKS).
CARD_CHECKS = {
    "layer": check_layer,
    "hex_tile": check_hex_tile,
    "tile": check_special_tile,
    "starting_tile": check_starting_tile,
}


# -- areas, routes, ley lines: pure functions of a board (a mapping of cells to tiles)

Tiles = Mapping[Hex, Tile]


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


def misfits(board: Tiles, cell: Hex, tile: Tile) -> list[int]:
    """The directions in which ``tile`` at ``cell`` would meet a neighbour's other kind of edge."""
    wrong = []
    for direction in range(6):
        other = board.get(neighbour(cell, direction))
        if other is not None and other.sides[opposite(direction)] != tile.sides[direction]:
            wrong.append(direction)
    return wrong


def area_at(board: Tiles, cell: Hex, section: int = 0) -> Area:
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


def areas_at(board: Tiles, cell: Hex) -> list[Area]:
    """The distinct areas the tile at ``cell`` is part of, in the order of its sections."""
    found: list[Area] = []
    for index in range(len(board[cell].sections)):
        area = area_at(board, cell, index)
        if area not in found:
            found.append(area)
    return found


def is_complete(board: Tiles, area: Area) -> bool:
    """True when no edge of the area faces an empty cell."""
    return all(
        neighbour(cell, direction) in board
        for cell, index in area.members
        for direction in board[cell].sections[index].edges
    )


def area_bonus(board: Tiles, area: Area) -> int:
    """The bonus points printed in the area's sections."""
    return sum(board[cell].sections[index].bonus for cell, index in area.members)


def area_mountains(board: Tiles, area: Area) -> int:
    """The Mountains (land) or Corals (sea) drawn in the area's sections."""
    return sum(board[cell].sections[index].mountains for cell, index in area.members)


def area_has_city(board: Tiles, area: Area) -> bool:
    """True when a City overlaps one of the area's sections (any number counts once)."""
    return any(board[cell].sections[index].city for cell, index in area.members)


def route_at(board: Tiles, cell: Hex) -> Route | None:
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


def routes_next_to(board: Tiles, cell: Hex) -> list[Route]:
    """The distinct trade routes with a tile next to ``cell``, in direction order."""
    found: list[Route] = []
    for nxt in neighbours(cell):
        route = route_at(board, nxt)
        if route is not None and route not in found:
            found.append(route)
    return found


def all_routes(board: Tiles) -> list[Route]:
    """Every trade route on the board, in the order of their first cell."""
    found: list[Route] = []
    for cell in sorted(board):
        if any(cell in route.cells for route in found):
            continue
        route = route_at(board, cell)
        if route is not None:
            found.append(route)
    return found


def route_caravans(board: Tiles, route: Route) -> int:
    """Caravan icons in the route (the Lost Traders' land face counts its 2)."""
    return sum(board[cell].caravans for cell in route.cells)


def route_ships(board: Tiles, route: Route) -> int:
    """Ship icons in the route (the Lost Traders' sea face counts its 2)."""
    return sum(board[cell].ships for cell in route.cells)


def route_has_city(board: Tiles, route: Route) -> bool:
    """True when the route is connected to a City: a tile of it shows one or lies next to one."""
    return any(
        board[cell].city
        or any(board.get(n) is not None and board[n].city for n in neighbours(cell))
        for cell in route.cells
    )


def _first_menhir(board: Tiles, start: Hex, direction: int) -> tuple[Hex | None, tuple[Hex, ...]]:
    """Walk from ``start``: the first Menhir along a complete row, and the tiles before it.

    A gap (an empty cell) before any Menhir means no line that way: (None, ()).
    """
    passed: list[Hex] = []
    # engine.hexgrid.ray's cells, stepped here: a placement walks six rows of the map.
    dq, dr = DIRECTIONS[direction % 6]
    q, r = start
    while True:
        q += dq
        r += dr
        cell = Hex(q, r)
        tile = board.get(cell)
        if tile is None:
            return None, ()
        if tile.menhir:
            return cell, tuple(passed)
        passed.append(cell)


def ley_lines_formed(board: Tiles, cell: Hex) -> list[LeyLine]:
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


def may_align(menhirs: Iterable[Hex], cell: Hex, menhir: bool) -> bool:
    """Whether a tile at ``cell`` may form Ley lines (:func:`ley_lines_formed`), from where
    the Menhirs are alone: one showing a Menhir needs another on one of its three rows; any
    other tile a Menhir on each side of it on one row."""
    q, r = cell
    s = -q - r
    ahead = [False, False, False]
    behind = [False, False, False]
    for m in menhirs:
        mq, mr = m
        if mq == q and mr == r:
            continue
        if mr == r:
            (ahead if mq > q else behind)[0] = True
        if -mq - mr == s:
            (ahead if mq > q else behind)[1] = True
        if mq == q:
            (ahead if mr > r else behind)[2] = True
    if menhir:
        return any(ahead) or any(behind)
    return any(a and b for a, b in zip(ahead, behind, strict=True))


def line_bonus(board: Tiles, line: LeyLine) -> int:
    """The bonus points on the tiles in-between a ley line's two Menhirs (not on the Menhirs)."""
    return sum(board[cell].bonus for cell in line.between)


def hole_side(board: Tiles, cell: Hex) -> str | None:
    """Land or sea when ``cell`` is a hole: empty, "surrounded by 6 of the same type of edges"."""
    if cell in board:
        return None
    facing = set()
    for direction in range(6):
        other = board.get(neighbour(cell, direction))
        if other is None:
            return None
        facing.add(other.sides[opposite(direction)])
    return facing.pop() if len(facing) == 1 else None
