"""The modelled Darwin's Journey board's geometry: the Ocean track's map sections, the Ocean
Regions the Compatibility diagram allows the Pirate Ship, the Campsites of both tracks, and
the natives that answer where a Ship and the Pirate Ship are.

Every number here comes from the cards (``board.cards``: map sections, Campsites), none from
Python; see HOST.md for what is modelled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.api import CardError
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


def names(g: Game, card: str, name: str) -> list[str]:
    """A list property of ids (``special_action_tiles pirate, provisions``). game.cards says
    which cards each names (``{ names action_tile }``), so ``cardc check`` has refused a name
    of another kind at its line."""
    return [
        str(ident)
        for clause in prop(g, card, name, [])
        for ident in (clause if isinstance(clause, list) else [clause])
    ]


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


def sections_of(cards: Mapping[str, Any]) -> list[Section]:
    """The map sections among ``cards`` (the IR's, by id), in track order."""
    out = []
    for cid, card in cards.items():
        if card["kind"] != "map_section":
            continue
        props = card["properties"]
        out.append(
            Section(
                cid,
                int(props["index"]),
                int(props["first_space"]),
                int(props["last_space"]),
                str(props.get("pirate")),
                props.get("upper_pirate"),
                props.get("lower_pirate"),
            )
        )
    return sorted(out, key=lambda s: s.index)


def sections(g: Game) -> list[Section]:
    """The map sections of the Ocean track, in track order; read from the game's cards once
    (a game's cards do not change while it is played, and every move and raid asks)."""
    known: list[Section] | None = g.__dict__.get("_map_sections")
    if known is not None and g.__dict__.get("_map_sections_of") is g.cards:
        return known
    known = sections_of(g.cards)
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
    return ocean_regions_in(sections(g), starting_section(g).id)


def ocean_regions_in(track: list[Section], start: str | None) -> list[str]:
    """The Ocean Regions of ``track`` the Compatibility diagram marks OK, but the starting
    section ``start``'s."""
    return [
        region
        for section in track
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


def too_few_treasure_tokens(sites: int, tokens: int) -> str | None:
    """Why ``sites`` Campsites cannot be set up with ``tokens`` Treasure tokens ("Place 1
    Treasure token onto each Campsite location"), or None when they can."""
    if sites <= tokens:
        return None
    return (
        f"the game has {sites} Campsites but {tokens} Treasure tokens, and setup places 1 "
        "Treasure token onto each Campsite location: raise param treasure_tokens (game.cards, "
        "or a variant's params) or remove a Campsite"
    )


def validate_board(g: Game) -> None:
    """Refuse, before the first move, more Campsites than Treasure tokens: ``treasure_tokens``
    is a parameter a simulation may set (``cardc sim --param``), after ``cardc check`` has
    checked the cards. Everything else about the board is card data, refused at its line by
    ``cardc check`` (:data:`CARD_CHECKS`)."""
    sites = campsites(g)
    tokens = param(g, "treasure_tokens")
    problem = too_few_treasure_tokens(len(sites), tokens)
    if problem is not None:
        raise RuleError(f"{_at(g, sites[tokens])}: {problem}")


# -- the board's card data, checked by cardc check (natives.py's CARD_CHECKS, engine.api) --------


def _top(vocabulary: Mapping[str, Any], counter: str) -> int | None:
    """A counter's declared max (game.cards, or a variant's), or None when it has none."""
    top = (vocabulary.get("counters", {}).get(counter) or {}).get("max")
    return None if top is None else int(top)


def check_map_section(
    card: Mapping[str, Any], cards: Mapping[str, Any], vocabulary: Mapping[str, Any]
) -> list[CardError]:
    """A map section's marks are OK or NO; the sections cover the Ocean track in order from
    its starting space 0, without a gap or an overlap, up to the Ship's last space
    (``ship_space``'s max). Without this, a mark 'ok' is silently NO and a space outside
    every section fails in the middle of a game."""
    problems = []
    props = card["properties"]
    for name in ("pirate", "upper_pirate", "lower_pirate"):
        mark = props.get(name)
        if (mark is not None or name == "pirate") and mark not in MARKS:
            problems.append(
                CardError(
                    f"{name} is {mark!r}; the Compatibility diagram marks a map section "
                    '"OK" or "NO" (in capitals)',
                    name,
                    f'write: {name} "OK" (or "NO")',
                )
            )
    track = sections_of(cards)
    at = [section.id for section in track].index(str(card["id"]))
    mine = track[at]
    expected = 0 if at == 0 else track[at - 1].last + 1
    if mine.first != expected or mine.last < mine.first:
        problems.append(
            CardError(
                f"its spaces are {mine.first} to {mine.last}, but the map sections must cover "
                "the Ocean track in order without a gap: this one should start at space "
                f"{expected}",
                "first_space" if mine.first != expected else "last_space",
                f"write: first_space {expected}, and a last_space at or after it",
            )
        )
    start = next((s.id for s in track if s.first <= 0 <= s.last), None)
    if at == len(track) - 1 and not ocean_regions_in(track, start):
        # "place it onto an Ocean Region of the active player's choice. An Ocean Region is the
        # area between lagging penalties, not including the area with the Ocean track
        # starting space": a house rule marking every other section NO leaves the Pirate Ship
        # nowhere to go, and the first Campsite reached would ask a question with no answer.
        problems.append(
            CardError(
                "no map section is an Ocean Region the Pirate Ship may be placed onto: every "
                "one but the starting section is marked NO (in both its parts, where it has "
                "two), so moving the Pirate Ship has no Ocean Region to choose",
                "lower_pirate" if mine.split else "pirate",
                'mark a map section after the starting one "OK"',
            )
        )
    top = _top(vocabulary, "ship_space")
    if at == len(track) - 1 and top is not None and mine.last != top:
        problems.append(
            CardError(
                f"the map sections cover the Ocean track's spaces 0 to {mine.last}, but "
                f"ship_space goes up to {top}: make the last section end at space {top}",
                "last_space",
                f"write: last_space {top} (or change ship_space's max in game.cards)",
            )
        )
    return problems


def check_campsite(
    card: Mapping[str, Any], cards: Mapping[str, Any], vocabulary: Mapping[str, Any]
) -> list[CardError]:
    """A Campsite is on the ocean or island track, on a space a piece can reach, alone there,
    and has a Treasure token to hold ("Place 1 Treasure token onto each Campsite location")."""
    problems = []
    props = card["properties"]
    track, space = str(props.get("track")), int(props.get("space", 0))
    counter = TRACK_COUNTERS.get(track)
    high = None if counter is None else _top(vocabulary, counter)
    if counter is None:
        problems.append(
            CardError(
                f"track is '{track}'; a Campsite is on the ocean or the island track",
                "track",
                "write: track ocean (or island)",
            )
        )
    elif space < 1 or (high is not None and space > high):
        problems.append(
            CardError(
                f"space {space} is not a space a piece can reach on the {track} track (1 to "
                f"{high}: {counter}'s max in game.cards)",
                "space",
                f"write a space from 1 to {high}",
            )
        )
    sites = [other for other in cards.values() if other["kind"] == "campsite"]
    at = [str(site["id"]) for site in sites].index(str(card["id"]))
    # Each of two Campsites on one space is told of the other, at its own space: a variant
    # that moves Bahia onto Galapagos' space is shown at its own line (Bahia's space in the
    # YAML), not only at Galapagos' untouched line in board.cards.
    for other in sites:
        there = other["properties"]
        if other is card or other["id"] == card["id"]:
            continue
        if str(there.get("track")) == track and int(there.get("space", 0)) == space:
            problems.append(
                CardError(
                    f"space {space} of the {track} track also holds the Campsite "
                    f"{other['title']} ({other.get('source', other['id'])}); a location holds "
                    "one Campsite",
                    "space",
                    "move one of them to a free space",
                )
            )
            break
    tokens = vocabulary.get("params", {}).get("treasure_tokens")
    if tokens is not None and at == int(tokens):
        problem = too_few_treasure_tokens(len(sites), int(tokens))
        if problem is not None:
            # Shown where treasure_tokens is set (a variant's params: line), not at the
            # Campsite that is one too many.
            problems.append(CardError(problem, param="treasure_tokens"))
    return problems


def scenario_region(track: list[Section], named: str) -> str:
    """The Ocean Region the Scenario card's ``pirate_region`` names: the map section itself,
    or, for a section printed in two parts (the Fireland strip), its one part marked OK. The
    card names a map section (``{ names map_section }``), so a part ('section_4_lower') cannot
    be written: the Fireland marks ("the upper part is marked NO and the lower part is marked
    OK") leave one part the X can be in. A split section with both parts OK, or neither, is
    returned as named (no Ocean Region: check_scenario_card says so)."""
    for section in track:
        if section.id == named and section.split:
            open_parts = [region for region, mark in section.regions() if mark == "OK"]
            if len(open_parts) == 1:
                return open_parts[0]
    return named


def check_scenario_card(
    card: Mapping[str, Any], cards: Mapping[str, Any], vocabulary: Mapping[str, Any]
) -> list[CardError]:
    """The Scenario card places the Pirate Ship "into the Ocean Region shown with the X": one
    the Compatibility diagram marks OK, not the starting section (a map_section named there,
    ``{ names map_section }``, may still be neither). A section printed in two parts is its
    one part marked OK (:func:`scenario_region`)."""
    problems = []
    for name in ("special_action_tiles", "correspondence_tiles", "beagle_goal_tiles"):
        listed = [
            str(ident)
            for clause in card["properties"].get(name) or ()
            for ident in (clause if isinstance(clause, list) else [clause])
        ]
        twice = next((tile for at, tile in enumerate(listed) if tile in listed[:at]), None)
        if twice is not None:
            # "The Scenario card shows the component numbers that go into each of the
            # associated areas of the board": each a component, and the game has one of each
            # tile (the Diary placed 'provisions' on two locations, silently).
            problems.append(
                CardError(
                    f"'{twice}' is named twice in {name}; the game has one of each tile, so "
                    "the card places it once",
                    name,
                    f"name {twice} once",
                )
            )
    pirate = card["properties"].get("pirate_region")
    if pirate is None:
        return problems
    track = sections_of(cards)
    start = next((s.id for s in track if s.first <= 0 <= s.last), None)
    regions = ocean_regions_in(track, start)
    if scenario_region(track, str(pirate)) in regions:
        return problems
    # The card names map sections: a split one's part is named by its section.
    sections_named = [t.id for t in track if scenario_region(track, t.id) in regions]
    split = next((t for t in track if t.id == str(pirate) and t.split), None)
    return [
        *problems,
        CardError(
            f"pirate_region places the Pirate Ship in '{pirate}', which is no Ocean Region "
            "the Pirate Ship may go to (the Compatibility diagram's OK sections, not the "
            "starting one)"
            + (
                f"; {pirate} is printed in two parts, both marked OK, and the card names a "
                "map section, not one of its parts"
                if split is not None and split.upper == split.lower == "OK"
                else ""
            ),
            "pirate_region",
            "write one of: " + ", ".join(sections_named)
            if sections_named
            else 'there is none: mark a map section after the starting one "OK"',
        ),
    ]


def diary_problem(
    modules: list[str], first: list[str], size: int, top: int, base: int
) -> str | None:
    """Why a Special Action Diary of ``size`` tiles with ``top`` top locations cannot hold the
    modules' own tiles (``modules``: every tile not of the base game, each always added; of
    them ``first``, those unlocked at the start, each on a top location), or None.

    "only draw 5 random Special Action tiles. Then add the Pirate Special Action tile and
    shuffle all 6 tiles": the base tiles drawn are the Diary's size less the modules' tiles,
    which the Diary must hold (a designer's second module tile with ``diary_size 1`` drew -1
    base tiles, that is all but one of them: a Diary of 9). "place the Pirate Special Action
    tile on one of the top locations of the Special Action Diary so that the Pirate action is
    unlocked at the start of the game": each such tile needs a top location of its own. The
    base tiles drawn come from the ``base`` the game has: a Diary larger than they and the
    modules' tiles fill together held fewer tiles than its size, silently."""
    if len(modules) > size:
        return (
            f"the Special Action Diary holds {size} tile{'' if size == 1 else 's'} (param "
            "diary_size), fewer than the "
            f"{len(modules)} Special Action tiles the modules always add "
            f"({', '.join(modules)}): raise diary_size to {len(modules)} or more"
        )
    if size - len(modules) > base:
        most = base + len(modules)
        return (
            f"the Special Action Diary holds {size} tiles (param diary_size), but only "
            f"{most} can be placed: {size - len(modules)} random base game Special Action "
            f"tiles would be drawn and the game has {base}"
            + (f", besides the {len(modules)} the modules add" if modules else "")
            + f": lower diary_size to {most} or fewer, or add base tiles"
        )
    if len(first) > top:
        return (
            f"{len(first)} Special Action tiles are unlocked at the start "
            f"({', '.join(first)}), each on a top location of the Special Action Diary, "
            f"which has {top} (param diary_top_locations): raise diary_top_locations to "
            f"{len(first)} or more"
        )
    return None


def check_action_tile(
    card: Mapping[str, Any], cards: Mapping[str, Any], vocabulary: Mapping[str, Any]
) -> list[CardError]:
    """The Diary holds the modules' own Special Action tiles (:func:`diary_problem`): said
    once, at the last module tile, or where the variant sets the parameter."""
    tiles = [c for c in cards.values() if c["kind"] == "action_tile"]
    modules = [str(c["id"]) for c in tiles if "base" not in c.get("tags", ())]
    # Said once: at the last module tile, or the last tile when no module adds one.
    last = modules[-1] if modules else str(tiles[-1]["id"])
    if str(card["id"]) != last:
        return []
    first = [
        str(c["id"])
        for c in tiles
        if str(c["id"]) in modules and c["properties"].get("unlocked_at_start") is True
    ]
    params = vocabulary.get("params", {})
    size, top = params.get("diary_size"), params.get("diary_top_locations")
    if size is None or top is None:
        return []
    base = len(tiles) - len(modules)
    problem = diary_problem(modules, first, int(size), int(top), base)
    if problem is None:
        return []
    if int(size) - len(modules) > base:
        # Too few base tiles: at the variant's remove: entry when it removed some, else where
        # diary_size is set.
        return [CardError(problem, param="diary_size", kind="action_tile")]
    name = "diary_size" if len(modules) > int(size) else "diary_top_locations"
    return [CardError(problem, param=name)]


#: The kinds whose data the checks above read (natives.py's CARD_CHECKS, engine.api).
CARD_CHECKS = {
    "map_section": check_map_section,
    "campsite": check_campsite,
    "scenario_card": check_scenario_card,
    "action_tile": check_action_tile,
}


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
