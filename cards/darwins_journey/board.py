"""The modelled Darwin's Journey board's geometry: the Ocean track's map sections, the Ocean
Regions the Compatibility diagram allows the Pirate Ship, the Campsites of both tracks, and
the natives that answer where a Ship and the Pirate Ship are.

Every number here comes from the cards (``board.cards``: map sections, Campsites), none from
Python; see HOST.md for what is modelled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.runtime import Context, Game, Player, RuleError

#: The questions the host's and expansion's Python asks (their ids are what scenarios script).
MOVE_PIRATE_SHIP = "move_pirate_ship.region"
PLACE_WORKER = "place_worker.location"
NAVIGATE_SPACES = "navigate.spaces"
EXPLORE_SPACES = "explore.spaces"
LANE = "navigate.lane"
TENT = "offer_tent.verb.tent"
HIRE_CREW = "hire_crew.card"
KEEP_OBJECTIVE = "draw_objectives.keep"
TAKE_OBJECTIVE = "take_objectives.tile"
RETURN_WORKER = "return_worker.location"
SPECIAL_ACTION = "special_action.tile"
CAMPSITE_REWARDS = "campsite_rewards.campsite"
#: The answer that ends P3's taking of Objective tiles ("up to 2").
STOP = "stop"


def cards_of(g: Game, kind: str) -> list[str]:
    """The ids of the cards of one kind, in the order the sources declare them."""
    return [cid for cid, card in g.cards.items() if card["kind"] == kind]


def prop(g: Game, card: str, name: str, default: Any = None) -> Any:
    return g.cards[card]["properties"].get(name, default)


def names(g: Game, card: str, name: str, kind: str) -> list[str]:
    """A list property of ids (``special_action_tiles pirate, provisions``), each checked to be
    a card of ``kind``: a stand-in value that names no such card is the card's mistake."""
    out = []
    for clause in prop(g, card, name, []):
        for ident in clause if isinstance(clause, list) else [clause]:
            if g.cards.get(str(ident), {}).get("kind") != kind:
                raise RuleError(
                    f"{g.cards[card]['source']}: {g.cards[card]['title']}: {name} names "
                    f"'{ident}', which is no {kind} card of this game"
                )
            out.append(str(ident))
    return out


def param(g: Game, name: str) -> int:
    return int(g.params[name])


# -- the Ocean track: map sections, Ocean Regions and the Compatibility marks --------------


@dataclass(frozen=True)
class Section:
    """A map section of the Ocean track (board.cards), with its Compatibility marks."""

    id: str
    index: int
    first: int
    last: int
    pirate: str
    upper: str | None
    lower: str | None

    @property
    def split(self) -> bool:
        """True when the section is printed in an upper and a lower part (Fireland)."""
        return self.upper is not None or self.lower is not None

    def regions(self) -> list[tuple[str, str]]:
        """The section's Ocean Regions and the mark of each (``OK`` or ``NO``)."""
        if not self.split:
            return [(self.id, self.pirate)]
        return [(f"{self.id}_upper", self.upper or "NO"), (f"{self.id}_lower", self.lower or "NO")]


def sections(g: Game) -> list[Section]:
    """The map sections of the Ocean track, in track order; read from the game's cards once
    (a game's cards do not change while it is played, and every move and raid asks)."""
    known: list[Section] | None = g.__dict__.get("_map_sections")
    if known is not None and g.__dict__.get("_map_sections_of") is g.cards:
        return known
    out = [
        Section(
            cid,
            int(prop(g, cid, "index")),
            int(prop(g, cid, "first_space")),
            int(prop(g, cid, "last_space")),
            str(prop(g, cid, "pirate")),
            prop(g, cid, "upper_pirate"),
            prop(g, cid, "lower_pirate"),
        )
        for cid in cards_of(g, "map_section")
    ]
    known = sorted(out, key=lambda s: s.index)
    g.__dict__["_map_sections"] = known
    g.__dict__["_map_sections_of"] = g.cards
    return known


def section_at(g: Game, space: int) -> Section:
    """The map section holding Ocean track space ``space``."""
    for section in sections(g):
        if section.first <= space <= section.last:
            return section
    raise RuleError(f"Ocean track space {space} is in no map section")


def starting_section(g: Game) -> Section:
    """The section with the Ocean track starting space: "not including the area with the
    Ocean track starting space", it holds no Ocean Region the Pirate Ship may go to."""
    return section_at(g, 0)


def ocean_regions(g: Game) -> list[str]:
    """Where the Pirate Ship may be placed: every Ocean Region the Compatibility diagram marks
    OK, never the area with the Ocean track starting space."""
    start = starting_section(g).id
    return [
        region
        for section in sections(g)
        if section.id != start
        for region, mark in section.regions()
        if mark == "OK"
    ]


#: The marks of the Compatibility diagram: "a strip of map sections marked either OK or NO".
MARKS = ("OK", "NO")
#: Each track's counter of the piece on it (the Ship's space, the Explorer's).
TRACK_COUNTERS = {"ocean": "ship_space", "island": "explorer_space"}


def _at(g: Game, card: str) -> str:
    """``file:line: Title`` of a card, to start a message about its data."""
    found = g.cards[card]
    return f"{found.get('source', card)}: {found.get('title', card)}"


def validate_board(g: Game) -> None:
    """Refuse, before the first move, a board the rules cannot be played on, naming the card:
    a mark that is neither OK nor NO, map sections that leave a space of the Ocean track out
    (or hold one twice), a Campsite off its track or sharing a space, more Campsites than
    Treasure tokens ("Place 1 Treasure token onto each Campsite location"). Without this,
    each is a silent misreading or a failure in the middle of a game."""
    for section in sections(g):
        for name, mark in (
            ("pirate", section.pirate),
            ("upper_pirate", section.upper),
            ("lower_pirate", section.lower),
        ):
            if (mark is not None or name == "pirate") and mark not in MARKS:
                raise RuleError(
                    f"{_at(g, section.id)}: {name} is {mark!r}; the Compatibility diagram "
                    'marks a map section "OK" or "NO" (in capitals)'
                )
    top = g.counter_bounds.get("ship_space", (0, None))[1]
    expected = 0
    for section in sections(g):
        if section.first != expected or section.last < section.first:
            raise RuleError(
                f"{_at(g, section.id)}: its spaces are {section.first} to {section.last}, but "
                f"the map sections must cover the Ocean track in order without a gap: this one "
                f"should start at space {expected}"
            )
        expected = section.last + 1
    if top is not None and expected - 1 != int(top):
        raise RuleError(
            f"the map sections cover the Ocean track's spaces 0 to {expected - 1}, but "
            f"ship_space goes up to {top}: make the last section end at space {top} (or "
            "change ship_space's max in game.cards)"
        )
    seen: dict[tuple[str, int], str] = {}
    for site in campsites(g):
        track = str(prop(g, site, "track"))
        space = int(prop(g, site, "space"))
        counter = TRACK_COUNTERS.get(track)
        if counter is None:
            raise RuleError(
                f"{_at(g, site)}: track is '{track}'; a Campsite is on the ocean or the "
                "island track"
            )
        high = g.counter_bounds.get(counter, (0, None))[1]
        if space < 1 or (high is not None and space > int(high)):
            raise RuleError(
                f"{_at(g, site)}: space {space} is not a space a piece can reach on the "
                f"{track} track (1 to {high}: {counter}'s max in game.cards)"
            )
        other = seen.get((track, space))
        if other is not None:
            raise RuleError(
                f"{_at(g, site)}: space {space} of the {track} track already holds the "
                f"Campsite {g.cards[other]['title']} ({g.cards[other].get('source', other)}); "
                "a location holds one Campsite"
            )
        seen[(track, space)] = site
    tokens = param(g, "treasure_tokens")
    sites = campsites(g)
    if len(sites) > tokens:
        raise RuleError(
            f"{_at(g, sites[tokens])}: the game has {len(sites)} Campsites but "
            f"{tokens} Treasure tokens, and setup places 1 Treasure token onto each Campsite "
            "location: raise param treasure_tokens (game.cards, or a variant's params) or "
            "remove a Campsite"
        )


def all_regions(g: Game) -> list[str]:
    """Every area of the Ocean track a Ship may be in, the starting area included."""
    return [region for section in sections(g) for region, _mark in section.regions()]


def campsites(g: Game) -> list[str]:
    """The Campsite locations of the Island and Ocean tracks."""
    return cards_of(g, "campsite")


def campsite_on(g: Game, track: str, space: int) -> str | None:
    """The Campsite at ``space`` of the ``track`` (``ocean`` or ``island``), or None."""
    for site in campsites(g):
        if prop(g, site, "track") == track and int(prop(g, site, "space")) == space:
            return site
    return None


def treasure_at(g: Game, c: Context, campsite: str) -> bool:
    """True while a Treasure token lies on ``campsite``."""
    if not isinstance(campsite, str):  # a card may pass anything to an `any` parameter
        raise RuleError(f"treasure_at takes a campsite, not {campsite!r}")
    return bool(g.board["treasure"].get(campsite, 0))


def ship_region(g: Game, c: Context, player: Player) -> str:
    """The area of the Ocean track the player's Ship is in: an Ocean Region, or the starting
    section (which is in no Ocean Region the Pirate Ship may share)."""
    section = section_at(g, player.counters["ship_space"])
    if not section.split:
        return section.id
    return f"{section.id}_{player.flags.get('lane') or 'lower'}"


def pirate_region(g: Game, c: Context) -> str | None:
    """The Ocean Region of the Pirate Ship; None while it is in the supply."""
    region = g.board.get("pirate_region")
    return None if region is None else str(region)
