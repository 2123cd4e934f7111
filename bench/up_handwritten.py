"""The hand-written flow of Uncharted Passage, as it was before flow.cards: kept ONLY for
bench/ (bench/sim.py measures it side by side with the DSL flow; bench/up_compare.py compares
their statistics). Nothing in cardc imports it. Its World Map reader is the game's own
(cards/uncharted_passage/map.py), loaded as bench/sim.py loads the game.

What follows is the module as it stood in engine/games/uncharted_passage.py.

Uncharted Passage: Remastered: the board state, natives, verbs and phases its cards need.

The cards (``cards/uncharted_passage/``) say what each voyage, port card, mission and mid-event
does; this module holds what the cards call by name and the rules around them that are not any
one card's: the Pirate's Raid and Scurvy windows, accomplishing a mission, the Pirate phase,
critical damage and sinking. Quoted sentences are from the rulebook
(``uncharted-passage-remastered.txt``).

Board state is deliberately small until the world map arrives (a later issue): per player,
``player.flags`` holds

- ``position``: the space the ship is on (a port or place name, as the cards name it);
- ``region``: the region of that space, when the map cannot say;
- ``in_pirate_infested_area``: whether that space is next to a pirate icon;
- ``distance_sailed``: spaces sailed this round;
- ``excluded_distance``: of those, the spaces Reinforced Rope keeps out of the Scurvy Check;
- ``sunk``: the track whose last box sank the ship.

Shared state in ``g.board``: ``voyage`` (this month's voyage card), ``mid_event`` (once
revealed), ``regions`` (place -> region, for the map to fill), ``pirate_infested_area`` (the
spaces next to a pirate icon), ``deck:port_cards`` (the port card pile).

The round loop, the map and the simulator grow on :class:`UnchartedPassage`; each phase here is
a method a later flow can call in order.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from engine.runtime import (
    Context,
    Game,
    ObjectCache,
    Player,
    Policy,
    Question,
    RandomLegal,
    RuleError,
    legal_answers,
)
from engine.scenario_types import (
    Choice,
    Fields,
    Flag,
    Id,
    Many,
    Maybe,
    Number,
    Table,
    Text,
)
from engine.stdlib import dice as stdlib_dice

#: The game's World Map reader (cards/uncharted_passage/map.py): set by :func:`bind_map` before
#: a game is made.
up_map: Any = None


def bind_map(module: Any) -> None:
    """Use the game's own map module (``WorldMap``, ``from_cards``, ``MapError``)."""
    global up_map
    up_map = module


#: "East Asia (Hanyang, Sakai, or Hangzhou)": the only region whose ports the rulebook names.
EAST_ASIA_PORTS = ("hanyang", "sakai", "hangzhou")

#: The Crew Action reference table's numbered spaces 1 to 6, when the data has no table (the
#: flow reads the highest row of the ``crew_actions`` table card).
CREW_ACTION_SPACES = 6

#: The answer to the critical-damage question that abandons a specialty, not a Port Card.
ABANDON_SPECIALTY = "specialty"


def _place_id(place: Any) -> str:
    """A place as the cards name it: ``"Sierra Leone"`` and ``sierra_leone`` are one place."""
    return str(place).strip().lower().replace(" ", "_").replace("'", "")


def _player(g: Game, who: Player | int | None) -> Player:
    """The player a hook is about; ``None`` (a scenario's top level) is the first player."""
    if isinstance(who, Player):
        return who
    return g.players[who or 0]


# -- natives: questions about the board, never a change of state


def in_pirate_infested_area(g: Game, c: Context) -> bool:
    """True when the acting player's ship is on one of "the 6 spaces adjacent to a pirate icon"."""
    flags = c.player.flags
    if "in_pirate_infested_area" in flags:
        return bool(flags["in_pirate_infested_area"])
    position = flags.get("position")
    return position is not None and _place_id(position) in g.board.get("pirate_infested_area", ())


def region_of(g: Game, c: Context, place: Any) -> str:
    """The region of a port ("If a region name is listed ... it refers to any port within the
    region (see color)").

    The map's colours are not in the rulebook text, so a region comes from ``g.board['regions']``
    (the map, when it exists), then the East Asian ports the rulebook names, then the acting
    player's ``region`` flag when ``place`` is where the ship is. Anything else is an error,
    never a guess.
    """
    ident = _place_id(place)
    regions = g.board.get("regions", {})
    if ident in regions:
        return str(regions[ident])
    if ident in EAST_ASIA_PORTS:
        return "east_asia"
    flags = c.player.flags
    position = flags.get("position")
    if "region" in flags and (position is None or _place_id(position) == ident):
        return str(flags["region"])
    raise RuleError(
        f"the region of '{place}' is not known: the world map is not in the rulebook text; "
        "give the ship's 'region' or fill g.board['regions']"
    )


# ``difference`` (the Pirate's Raid: "roll two dice ... the difference") is the standard
# library's: engine.stdlib.dice.difference, bound in NATIVES below.


# -- verbs


def raid(g: Game, c: Context, damage: int) -> None:
    """Pirate's Raid: "apply Ship Damage equal to the difference".

    The damage goes through the ``pirate_raid`` window first: Smoke Bomb "also can be used to
    reduce Ship Damage from the Pirate's Raid". No damage opens no window, so no card is spent
    on nothing.
    """
    if damage > 0:
        window = g.fire("pirate_raid", c.player, quantities={"damage": damage})
        damage = window.q["damage"]
    g.log("raid", c.player.index, damage)
    if damage > 0:
        g.mark(c, "durability", damage)


def crew_stamina_for_scurvy(g: Game, player: Player) -> int:
    """The Crew Stamina a Scurvy Check may use.

    "Whenever you mark an X in the declining-health space, you must also mark an X in the
    topmost unchecked numbered space of the Crew Action reference table. From now on, you can't
    perform actions on that space, nor can you apply the value to Scurvy Check." The table lists
    6 at the top, so each declining-health box checked takes the highest space left away.
    """
    crossed = player.tracks["health"].checked("declining_health")
    spaces = getattr(g, "crew_action_spaces", CREW_ACTION_SPACES)
    return max(min(player.counters["crew_stamina"], spaces - crossed), 0)


def suffer_scurvy(g: Game, c: Context, scurvy: int) -> None:
    """Scurvy occurs: the ``scurvy`` window (Lime Juice: "When Scurvy occurs, reduce the amount
    by up to 2"), then "Mark Xs on the Health Track ... by the amount of scurvy incurred"."""
    if scurvy <= 0:
        return
    window = g.fire("scurvy", c.player, quantities={"scurvy": scurvy})
    remaining = window.q["scurvy"]
    g.log("scurvy", c.player.index, remaining)
    if remaining > 0:
        g.mark(c, "health", remaining)


def scurvy_check(g: Game, c: Context) -> None:
    """The Scurvy Check: "Compare the total distance sailed this round to the Crew Stamina. If
    your Crew Stamina is lower, you suffer from Scurvy equal to the difference."

    The distance is "the distance you actually sailed", less what Reinforced Rope excludes ("The
    extra sailing distance from it does not count toward the Scurvy Check").
    """
    flags = c.player.flags
    distance = max(int(flags.get("distance_sailed", 0)) - int(flags.get("excluded_distance", 0)), 0)
    stamina = crew_stamina_for_scurvy(g, c.player)
    written = c.player.counters["crew_stamina"]
    if distance > stamina and written > stamina and "rum" in c.player.zones["port_cards"]:
        # "nor can you apply the value to Scurvy Check. (Exception: using Port Card Rum.)"
        question = Question(
            "rum.scurvy_check",
            c.player.index,
            f"Rum: apply your struck-out Crew Stamina {written} to the Scurvy Check?",
            ("yes", "no"),
        )
        if g.ask(c.player, question) == "yes":
            c.player.zones["port_cards"].remove("rum")
            g.log("play", c.player.index, "rum")
            stamina = written
    shortfall = max(distance - stamina, 0)
    g.log("scurvy_check", c.player.index, distance, stamina, shortfall)
    suffer_scurvy(g, c, shortfall)


def is_accomplished(g: Game, mission: str) -> bool:
    """True once any player has accomplished ``mission`` ("Once accomplished, a mission cannot be
    accomplished again"; in 2-player, a claimed public mission "is no longer available")."""
    for player in g.players:
        if mission in player.zones["accomplished"]:
            return True
    return False


def route_progress(route: Sequence[str], anchorages: Iterable[str]) -> int:
    """How many of a route's spaces the ship has anchored at in the route's order.

    "For the mission "The Northwestern Passage," you must sail according to the world map on
    the card": the card's route is anchored at space by space from its first to its last;
    other anchorages in between do not break it ("Other spaces you pass while sailing are
    ignored", and a month may end short of the next space), but a route space anchored at out
    of turn does not count until its turn comes.
    """
    legs = 0
    for place in anchorages:
        if legs < len(route) and place == route[legs]:
            legs += 1
    return legs


def _reward_parts(mission: str, clause: list[Any]) -> tuple[str, int]:
    """One clause of a ``reward`` property: ``stars 3``, ``die``, ``port_cards 1``."""
    names = [item for item in clause if isinstance(item, str)]
    numbers = [item for item in clause if isinstance(item, (int, float))]
    if len(names) != 1 or len(numbers) > 1:
        raise RuleError(f"{mission}: a reward is a name and a number, like 'stars 3'; not {clause}")
    return names[0], int(numbers[0]) if numbers else 1


def accomplish(g: Game, c: Context, mission: str) -> None:
    """A mission is accomplished: "you immediately receive the listed rewards", then "Turn the
    accomplished mission card face down" so it "cannot be accomplished again".

    Rewards, from the card's ``reward`` property: "gain 1 Prestige Point for each star. If a die
    is depicted, gain additional points equal to the number rolled. Gain 1 Port Card for each
    anchor icon." Afterwards the card's own ``on accomplish`` runs (Legend of Kraken's damage).
    """
    player = c.player
    if is_accomplished(g, mission):
        g.log("already_accomplished", player.index, mission)
        return
    # Face down first, so nothing the reward sets off can accomplish it a second time.
    for zone, cards in player.zones.items():
        if zone != "accomplished" and mission in cards:
            cards.remove(mission)
    player.zones["accomplished"].append(mission)
    g.log("accomplish", player.index, mission)
    grant_reward(g, c.for_card(mission), mission, g.cards[mission]["properties"].get("reward"))
    g.run(mission, "accomplish", player)


def grant_reward(g: Game, c: Context, card: str, reward: Any) -> None:
    """A card's reward: "gain 1 Prestige Point for each star. If a die is depicted, gain
    additional points equal to the number rolled. Gain 1 Port Card for each anchor icon."
    """
    for clause in reward or []:
        name, amount = _reward_parts(card, clause)
        if name == "stars":
            g.gain(c, "prestige", amount)
        elif name == "die":
            for _ in range(amount):
                g.gain(c, "prestige", _reward_die(g, c.player))
        elif name == "port_cards":
            g.draw(c, "port_cards", amount)
        else:
            raise RuleError(f"{card}: '{name}' is not a reward (stars, die, port_cards)")


def _reward_die(g: Game, player: Player) -> int:
    """A reward's die. Anchored at a Discovery Spot it is a prestige die of that spot, so
    Exploration Journal may roll it ("When you get a prestige star on a Discovery Spot, roll 2
    dice and choose one"); anywhere else, one die."""
    if isinstance(g, UnchartedPassage) and not player.flags.get("docked"):
        chart = g.chart or chart_for(g.ir)
        space = chart.spaces.get(player.flags.get("position", ""))
        if space is not None and space.discovery:
            return g.discovery_die(player, space)
    return g.dice(1, 6)[0]


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


#: The goods each specialty of the stand-in chart is, for the Vogue mid-events.
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


def stand_in_chart() -> Chart:
    """A small world map drawn from the rulebook's facts alone, for tests and for playing
    before the printed map's data exists (every position on it is invented).

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
        categories=_STAND_IN_CATEGORIES,
        source="stand-in chart (no map data)",
    )


# -- reading the data defensively (the cards may say more than the flow needs)


def _number(value: Any, default: int) -> int:
    """A number from card data, or ``default`` when it is not one."""
    if isinstance(value, bool):
        return default
    if isinstance(value, (int, float)):
        return int(value)
    if isinstance(value, list) and len(value) == 1:
        return _number(value[0], default)
    return default


def _names(value: Any) -> tuple[str, ...]:
    """Names from card data: a name, or a list (of lists) of them, as place ids."""
    if value is None or isinstance(value, bool):
        return ()
    if isinstance(value, (list, tuple)):
        out: list[str] = []
        for item in value:
            out.extend(_names(item))
        return tuple(out)
    if isinstance(value, (int, float)):
        return ()
    return (_place_id(value),)


def _numbers(value: Any) -> tuple[int, ...]:
    """Every number in a (nested) list of card data."""
    if isinstance(value, bool):
        return ()
    if isinstance(value, (int, float)):
        return (int(value),)
    if isinstance(value, (list, tuple)):
        out: list[int] = []
        for item in value:
            out.extend(_numbers(item))
        return tuple(out)
    return ()


#: The Crew Action reference table ("6 - You can perform both purchasing and selling ..."): per
#: row, (may buy, may sell, may do only one of the two, gains a Port Card).
CREW_ACTIONS: dict[int, tuple[bool, bool, bool, bool]] = {
    6: (True, True, False, False),
    5: (True, True, False, True),
    4: (True, True, True, True),
    3: (True, True, True, False),
    2: (False, False, False, True),
    1: (False, False, False, False),
}

#: "~30: Hapless Explorer ... 51 and above: Legendary Explorer": (lowest score, title).
SOLO_TITLES: tuple[tuple[int, str], ...] = (
    (51, "Legendary Explorer"),
    (46, "Historic Explorer"),
    (41, "Veteran Explorer"),
    (31, "Mediocre Explorer"),
    (-(10**9), "Hapless Explorer"),
)

#: "~70: Hapless Explorers ... 101+: Legendary Explorers".
COOP_TITLES: tuple[tuple[int, str], ...] = (
    (101, "Legendary Explorers"),
    (91, "Historic Explorers"),
    (81, "Veteran Explorers"),
    (71, "Mediocre Explorers"),
    (-(10**9), "Hapless Explorers"),
)

#: Anchor spaces of the Prestige Track ("When you reach a space with the anchor icon on the
#: Prestige Track, you get one Port Card immediately"): the track is a picture, so where they
#: are is not in the rulebook text; used only when the data gives none.
STAND_IN_ANCHOR_SPACES: tuple[int, ...] = (10, 20, 30, 40, 50, 60)

#: Mission draws, from the setups: solo "2 Route Mission Cards, 3 Trade Mission Cards, and 4
#: Discovery Mission Cards"; 2-player public "1 Route ..., 1 Trade ..., and 2 Discovery", each
#: private "1 Route ..., 2 Trade ..., and 3 Discovery"; co-op "3 Route ..., 4 Trade ..., and 5".
SOLO_MISSIONS = {"route": 2, "trade": 3, "discovery": 4}
PUBLIC_MISSIONS = {"route": 1, "trade": 1, "discovery": 2}
PRIVATE_MISSIONS = {"route": 1, "trade": 2, "discovery": 3}
COOP_MISSIONS = {"route": 3, "trade": 4, "discovery": 5}

#: "each player holds 6 Private Mission Cards (regardless of type)".
COOP_MISSIONS_EACH = 6

#: "A single space can hold a maximum of 2 Ship Markers, regardless of color."
MARKERS_PER_SPACE = 2

#: East Asia: "you gain 2 prestige points and an additional amount of prestige equal to the
#: number rolled on a die".
EAST_ASIA_PRESTIGE = 2

#: A port another player already anchored at: "you always gain only 1 prestige point".
SHARED_PORT_PRESTIGE = 1

#: Adventures of a Sailor: "1 point per card for the first 3 cards, and 2 points per card
#: thereafter".
SAILOR_FIRST_CARDS = 3

#: The title of a ship that sank: "you are lost to history without leaving any record".
NO_RECORD = ""


def _titles_from_data(ir: dict[str, Any], coop: bool) -> tuple[tuple[int, str], ...]:
    """Title bands from the data's ``title`` cards (``min_score``, tagged ``solo`` or
    ``coop``), else the rulebook's."""
    bands: list[tuple[int, str]] = []
    for card in ir["cards"]:
        if card.get("kind") != "title":
            continue
        tags = card.get("tags") or []
        if ("coop" in tags) != coop:
            continue
        props = card.get("properties") or {}
        bands.append((_number(props.get("min_score"), -(10**9)), str(card.get("title"))))
    if not bands:
        return COOP_TITLES if coop else SOLO_TITLES
    bands.sort(reverse=True)
    return tuple(bands)


def title_for(score: int, bands: tuple[tuple[int, str], ...]) -> str:
    """The title a final score earns."""
    for low, title in bands:
        if score >= low:
            return title
    return bands[-1][1]


def sailor_points(cards: int, points: tuple[int, ...] = (1, 1, 1, 2)) -> int:
    """Adventures of a Sailor: "earn 1 point per card for the first 3 cards, and 2 points per
    card thereafter. Ex) If you have 5 cards, you earn a total of 7 points"; ``points`` are the
    1st, 2nd, 3rd ... card's, the last repeating."""
    return sum(points[min(n, len(points) - 1)] for n in range(cards))


_CHARTS = ObjectCache()


def chart_from_ir(ir: dict[str, Any]) -> Chart | None:
    """The world map from the IR's ``space`` cards, its ``white_border`` edges and its
    ``world_map`` start, read by :mod:`engine.games.up_map` (the one reader of the map data,
    which also checks it); None when the data holds no map.

    "Spaces with the same letter are considered the same space": a Date Line pair is one space,
    named by its west cell and reached from the neighbours of both.
    """
    cards = [card for card in ir["cards"] if card.get("kind") in _MAP_KINDS]
    if not any(card.get("kind") == "space" for card in cards):
        return None
    try:
        world = up_map.from_cards(cards)
    except up_map.MapError as error:
        raise RuleError(f"the World Map in map.cards: {error}") from None
    categories = {
        card["id"]: str((card.get("properties") or {}).get("goods"))
        for card in ir["cards"]
        if card.get("kind") == "specialty"
    }
    return chart_from_world(world, categories)


#: The card kinds that make the World Map.
_MAP_KINDS = frozenset({"space", "white_border", "world_map"})


def chart_from_world(world: up_map.WorldMap, categories: dict[str, str] | None = None) -> Chart:
    """The flow's chart of an :class:`up_map.WorldMap`: its spaces (one per Date Line pair),
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
    start = _place_id(world.start or "lisbon")
    chart = Chart._linked(spaces, links, start, categories, "map.cards", infested)
    return chart


def chart_for(ir: dict[str, Any]) -> Chart:
    """The world map of a compiled game, built once per IR and shared by its games: the data's
    ``space`` cards when it has them, else the stand-in chart."""
    chart: Chart | None = _CHARTS.get(ir)
    if chart is None:
        chart = _CHARTS.put(ir, chart_from_ir(ir) or stand_in_chart())
    return chart


#: Each voyage card's pirate formula for the planner, by the card's IR object (kept, so a
#: variant's card of the same name, or a reused id(), cannot answer for another).
_NATIVE_OF = ObjectCache(4096)


def _pirate_native(card: dict[str, Any]) -> str:
    """Which formula a voyage card's pirate uses: ``highest`` or ``highest_or_sum``."""
    expr = (card.get("formulas") or {}).get("pirate", {}).get("expr") or {}
    return str(expr.get("native") or expr.get("name") or "highest")


def _expected_damage_tables() -> dict[str, tuple[float, ...]]:
    """E[max(pirate - armament, 0)] for armament 0..12, for both formulas (greedy planning)."""
    tables: dict[str, tuple[float, ...]] = {}
    for name in ("highest", "highest_or_sum"):
        row = []
        for armament in range(13):
            total = 0
            for a in range(1, 7):
                for b in range(1, 7):
                    power = a + b if (a == b and name == "highest_or_sum") else max(a, b)
                    total += max(power - armament, 0)
            row.append(total / 36)
        tables[name] = tuple(row)
    return tables


EXPECTED_DAMAGE = _expected_damage_tables()


def _allocation_label(speed: int, stamina: int, armament: int) -> str:
    return f"{speed}/{stamina}/{armament}"


def parse_allocation(label: str) -> tuple[int, int, int]:
    """``"3/1/5"`` -> Sailing Speed 3, Crew Stamina 1, Armament 5."""
    speed, stamina, armament = label.split("/")
    return int(speed), int(stamina), int(armament)


# -- the game's flow


class UnchartedPassage(Game):
    """Uncharted Passage's rules around the cards: the round loop (Planning, Pirate, Sailing and
    Anchoring), the map, docking and anchoring, East Asia, critical damage and sinking, the end
    of the game, and both 2-player modes."""

    def __post_init__(self) -> None:
        super().__post_init__()
        #: The window (trigger context) being fired, so a policy can see its quantities.
        self.window: Context | None = None
        #: Whose dice the next rolls are (Figurehead: "You may reroll any one die"; in 2-player
        #: "The Figurehead card only affects your own dice results"), and what they are for.
        self.dice_owner: Player | None = None
        self.dice_purpose = ""
        #: Dice rolled while recording (a roll made once for both players), and the dice a
        #: player's own copy of that roll replays.
        self._recording: list[int] | None = None
        self._replay: list[int] | None = None
        self.chart: Chart | None = None
        self.logbook: list[list[dict[str, Any]]] = [[] for _ in self.players]
        self._tick = 0
        static = self._static()
        self._answering: dict[str, frozenset[str]] = static["answering"]
        self._rules: list[str] = static["rules"]
        #: Per trigger: the rules answering it, and whether a voyage or mid-event card, a Port
        #: Card or a mission can (what :meth:`_answering_in_force` needs to look at).
        self._force_plans: dict[str, tuple[list[str], bool, bool, bool]] = static["force_plans"]
        #: The zones besides port cards, missions and accomplished ones (their cards are in
        #: force as they are).
        self._other_zones: tuple[str, ...] = static["other_zones"]
        #: Other answers worked out once per compiled game (keyed by what they depend on).
        self._static_cache: dict[Any, Any] = static["cache"]
        self._by_kind: dict[str, list[str]] = static["by_kind"]
        self._missions: dict[str, MissionInfo] = static["missions"]
        self.rounds: int = static["rounds"]
        self.mid_event_round: int = static["mid_event_round"]
        self.anchor_spaces: tuple[int, ...] = static["anchor_spaces"]
        self.crew_table: dict[int, tuple[bool, bool, bool, bool]] = static["crew_table"]
        #: The same, as a tuple of (row, actions) to key the greedy planner's splits by.
        self.crew_rows: tuple[tuple[int, tuple[bool, bool, bool, bool]], ...] = static["crew_rows"]
        #: The lowest Crew Action row that purchases ("3 - ... either purchasing or selling").
        self.purchase_from: int = static["purchase_from"]
        #: The Crew Action table's top space (6): declining health strikes rows from it down.
        self.crew_action_spaces: int = static["crew_action_spaces"]
        #: "a number between 1 and 6": the allocation counters' bounds, from the data.
        self.allocation_bounds: tuple[int, int] = static["allocation_bounds"]
        self.sailor_points: tuple[int, ...] = static["sailor_points"]
        self.solo_titles: tuple[tuple[int, str], ...] = static["solo_titles"]
        self.coop_titles: tuple[tuple[int, str], ...] = static["coop_titles"]
        self.board.setdefault("public_missions", [])
        for player in self.players:
            flags = player.flags
            flags["goods"] = []
            flags["ports"] = set()
            flags["regions"] = set()
            flags["spots"] = set()
            flags["areas"] = set()
            flags["east_asia"] = set()
            #: Every space anchored at, month by month, in order (a route mission's record).
            flags["anchorages"] = []
            # "stacking the most recent sailor's marker on top": the flow cannot know who sailed
            # last, so player 1 starts on top.
            flags["arrived"] = -player.index
            flags["notes"] = []

    def _static(self) -> dict[str, Any]:
        """What the flow reads from the data once per compiled game, shared by its games (the
        IR is read-only): handlers by trigger, cards by kind, the tables and titles."""
        cached = _STATIC.get(self.ir, id(self.table))
        if cached is not None and cached[0] is self.table:
            return cached[1]
        answering: dict[str, frozenset[str]] = {}
        if self.table is not None:
            by_trigger: dict[str, set[str]] = {}
            for owner, trigger in self.table.handlers:
                by_trigger.setdefault(trigger, set()).add(owner)
            answering = {t: frozenset(cards) for t, cards in by_trigger.items()}
        by_kind: dict[str, list[str]] = {}
        for cid, card in self.cards.items():
            by_kind.setdefault(card["kind"], []).append(cid)
        rounds = _number(self.params.get("rounds"), 12)
        crew_table = self._crew_table()
        static = {
            "answering": answering,
            "rules": [cid for cid, c in self.cards.items() if c["kind"] in self.always_in_force],
            "force_plans": {},
            "cache": {},
            "by_kind": by_kind,
            "rounds": rounds,
            "mid_event_round": _number(self.params.get("mid_event_round"), rounds // 2 + 1),
            "anchor_spaces": self._anchor_spaces(),
            "crew_table": crew_table,
            "crew_rows": tuple(sorted(crew_table.items())),
            "purchase_from": min(
                (row for row, (buy, _, either, _) in crew_table.items() if buy or either),
                default=CREW_ACTION_SPACES + 1,
            ),
            "crew_action_spaces": max(crew_table, default=CREW_ACTION_SPACES),
            "other_zones": tuple(z for z in self.ir["vocabulary"]["zones"] if z not in _FLOW_ZONES),
            "allocation_bounds": self._allocation_bounds(),
            "sailor_points": self._sailor_points(),
            "solo_titles": _titles_from_data(self.ir, coop=False),
            "coop_titles": _titles_from_data(self.ir, coop=True),
            "missions": {
                m: MissionInfo(
                    self.cards[m],
                    self.table is not None and (m, "accomplish") in self.table.handlers,
                )
                for m in by_kind.get("mission", [])
            },
        }
        _STATIC.put(self.ir, (self.table, static), id(self.table))
        return static

    def mission_info(self, mission: str) -> MissionInfo:
        """A mission's conditions and reward, read once from its card."""
        info = self._missions.get(mission)
        return info if info is not None else MissionInfo(self.cards[mission])

    def _anchor_spaces(self) -> tuple[int, ...]:
        """The Prestige Track's anchor spaces: the data's ``prestige_track`` card's
        ``anchor_spaces``, else a stand-in."""
        for card in self.ir["cards"]:
            if card.get("kind") == "prestige_track":
                spaces = _numbers((card.get("properties") or {}).get("anchor_spaces"))
                if spaces:
                    return spaces
        return STAND_IN_ANCHOR_SPACES

    def _crew_table(self) -> dict[int, tuple[bool, bool, bool, bool]]:
        """The Crew Action reference table from the data's ``crew_actions`` table (rows of
        ``6 purchase sell``, ``4 purchase_or_sell gain_port_card`` ...), else the rulebook's."""
        card = self.cards.get("crew_actions")
        rows = (card.get("properties") or {}).get("rows") if card else None
        if not rows:
            return CREW_ACTIONS
        table: dict[int, tuple[bool, bool, bool, bool]] = {}
        for row in rows:
            numbers = _numbers(row[:1])
            if not numbers:
                continue
            words = {str(w) for w in row[1:]}
            either = "purchase_or_sell" in words
            table[numbers[0]] = (
                either or "purchase" in words,
                either or "sell" in words,
                either,
                "gain_port_card" in words,
            )
        return table or CREW_ACTIONS

    def _allocation_bounds(self) -> tuple[int, int]:
        """The smallest and largest number a logbook line may hold ("a number between 1 and
        6"), from the ``sailing_speed`` counter's declared ``min`` and ``max``."""
        low, high = self.counter_bounds.get("sailing_speed", (1, 6))
        return int(low), int(high if high is not None else 6)

    def _sailor_points(self) -> tuple[int, ...]:
        card = self.cards.get("adventures_of_a_sailor")
        points = _numbers((card.get("properties") or {}).get("points_per_card")) if card else ()
        return points or (1, 1, 1, 2)

    # -- what is in force, and the windows

    def cards_in_force(self, player: Player) -> list[str]:
        """Rules, this month's voyage card, the mid-event once revealed, unclaimed public
        missions, and what the player holds except accomplished missions ("face down")."""
        board = self.board
        out = list(self._rules)
        voyage = board.get("voyage")
        if voyage:
            out.append(voyage)
        mid = board.get("mid_event")
        if mid:
            out.append(mid)
        zones = player.zones
        out.extend(zones["port_cards"])
        out.extend(zones["missions"])
        public = board["public_missions"] if "public_missions" in board else ()
        for mission in public:
            if not is_accomplished(self, mission):
                out.append(mission)
        for zone, cards in zones.items():
            if zone not in _FLOW_ZONES:
                out.extend(cards)
        return out

    def _answering_in_force(
        self, player: Player, trigger: str, answering: frozenset[str]
    ) -> list[str]:
        """:meth:`cards_in_force` in its order, only those with a handler for ``trigger`` (a
        window fires dozens of times a game; most cards in force do not answer it)."""
        plan = self._force_plans.get(trigger)
        if plan is None:
            kinds = {self.cards[card]["kind"] for card in answering if card in self.cards}
            plan = self._force_plans[trigger] = (
                [r for r in self._rules if r in answering],
                bool(kinds - {"port_card", "mission", *self.always_in_force}),
                "port_card" in kinds,
                "mission" in kinds,
            )
        rules, boards, port_cards, missions = plan
        # Plain loops, not comprehensions: on Python 3.11 each comprehension is a call of its
        # own, and this runs for every window.
        out = list(rules)
        board = self.board
        zones = player.zones
        if boards:
            card = board.get("voyage")
            if card and card in answering:
                out.append(card)
            card = board.get("mid_event")
            if card and card in answering:
                out.append(card)
        if port_cards:
            for card in zones["port_cards"]:
                if card in answering:
                    out.append(card)
        if missions:
            for card in zones["missions"]:
                if card in answering:
                    out.append(card)
            for mission in board["public_missions"] if "public_missions" in board else ():
                if mission in answering and not is_accomplished(self, mission):
                    out.append(mission)
        for zone in self._other_zones:
            for card in zones[zone]:
                if card in answering:
                    out.append(card)
        return out

    def fire(
        self,
        trigger: str,
        player: Player,
        cards: Any = None,
        event: dict[str, Any] | None = None,
        quantities: dict[str, int] | None = None,
    ) -> Context:
        """Every window, once per card name, plus the rule a marked critical-damage box sets
        off. Only cards with a handler for ``trigger`` are looked at."""
        c = Context(player, "", trigger, event, quantities)
        answering = self._answering.get(trigger)
        if answering and self.table is not None:
            if cards is None:
                cards = self._answering_in_force(player, trigger, answering)
            if cards:
                handlers = self.table.handlers
                seen: set[str] = set()
                previous, self.window = self.window, c
                try:
                    for card in cards:
                        if card in seen or card not in answering:
                            continue
                        seen.add(card)
                        self.call(handlers[(card, trigger)], c.for_card(card))
                finally:
                    self.window = previous
        if trigger == "critical_damage":
            self.critical_damage(player)
        return c

    def dice(self, count: int, sides: int) -> list[int]:
        """Roll ``count`` dice; the owner of the roll may reroll one with Figurehead ("You may
        reroll any one die")."""
        replay = self._replay
        if replay is not None and len(replay) >= count:
            # A player's own copy of a roll made once for both (the 2-player pirate roll).
            rolled, self._replay = replay[:count], replay[count:]
        else:
            rolled = [self.die(sides) for _ in range(count)]
        if self._recording is not None:
            self._recording.extend(rolled)
        owner = self.dice_owner
        if owner is not None and "figurehead" in owner.zones["port_cards"]:
            options = ("keep", *(f"die{n + 1}" for n in range(count)))
            question = Question(
                "figurehead.reroll",
                owner.index,
                f"Figurehead: reroll one die of {rolled} ({self.dice_purpose or 'roll'})?",
                options,
            )
            answer = self.ask(owner, question)
            if answer != "keep":
                owner.zones["port_cards"].remove("figurehead")
                self.log("play", owner.index, "figurehead")
                index = int(answer[3:]) - 1
                rolled[index] = self.die(sides)
        return rolled

    def gain(self, c: Context, counter: str, amount: int) -> None:
        """Gain; prestige moves the marker on the Prestige Track, where an anchor space gives a
        Port Card ("When you reach a space with the anchor icon on the Prestige Track, you get
        one Port Card immediately"; 2-player: "only the first player to enter a space with the
        anchor icon receives a Port Card")."""
        if counter != "prestige" or amount <= 0:
            super().gain(c, counter, amount)
            return
        player = c.player
        before = player.counters["prestige"]
        super().gain(c, counter, amount)
        after = player.counters["prestige"]
        self._tick += 1
        # "if it stops on a space already occupied by another player, stack it on top".
        player.flags["arrived"] = self._tick
        for space in self.anchor_spaces:
            if before < space <= after:
                self._reach_anchor_space(player, space)

    def _reach_anchor_space(self, player: Player, space: int) -> None:
        if len(self.players) > 1:
            claimed = self.board.setdefault("anchor_spaces_claimed", set())
            if space in claimed:
                self.log("anchor_space_taken", player.index, space)
                return
            claimed.add(space)
        self.log("anchor_space", player.index, space)
        self.draw(Context(player, "", "anchor_space"), "port_cards", 1)

    # -- specialties ("Specialties Book")

    def add_specialty(self, player: Player, name: str) -> None:
        """Write a specialty in the Specialties Book."""
        player.flags["goods"].append(name)
        player.counters["specialties"] += 1
        self.log("specialty", player.index, name)

    def remove_specialty(self, player: Player, name: str | None) -> None:
        """Mark an X over a specialty (``None``: one the book does not name)."""
        goods = player.flags["goods"]
        if name is not None and name in goods:
            goods.remove(name)
        player.counters["specialties"] = max(player.counters["specialties"] - 1, 0)
        self.log("specialty_lost", player.index, name or ABANDON_SPECIALTY)

    def _specialty_options(self, player: Player) -> list[str]:
        goods = player.flags["goods"]
        options = [f"specialty:{name}" for name in dict.fromkeys(goods)]
        if player.counters["specialties"] > len(goods):
            options.append(ABANDON_SPECIALTY)
        return options

    # -- setup

    def setup(self) -> None:
        """Solo or 2-player setup: the map, the voyage pile (6 first-half cards on top, one
        mid-event, 6 second-half below), the port card pile, the missions."""
        board = self.board
        chart = board.get("chart")
        if not isinstance(chart, Chart):
            chart = chart_for(self.ir)
            board["chart"] = chart
        self.chart = chart
        # Copies of what the chart worked out once (a scenario may change a game's own).
        board["regions"] = dict(chart.regions)
        board["pirate_infested_area"] = set(chart.infested_spaces)
        board.setdefault("markers", {})
        board.setdefault("anchored", {})
        board.setdefault("east_asia_ships", {})
        board.setdefault("east_asia_entries", 0)
        for player in self.players:
            player.flags.setdefault("position", chart.start)
            player.flags["position"] = _place_id(player.flags["position"])
        by_kind = self._by_kind
        voyages = by_kind.get("voyage", [])
        half = self.rounds // 2
        if "pile" not in board:
            first, second = self._voyage_halves(voyages)
            mids = by_kind.get("mid_event", [])
            pile = self._deal(first or voyages, half)
            board["mid_event_card"] = self._deal(mids, 1)[0] if mids else None
            pile += self._deal(second or voyages, self.rounds - half)
            board["pile"] = pile
        if "deck:port_cards" not in board:
            deck = list(self._port_card_deck(by_kind.get("port_card", [])))
            self.shuffle(deck)
            board["deck:port_cards"] = deck
        if not board.get("missions_dealt"):
            self._deal_missions(by_kind.get("mission", []))
        board["set_up"] = True

    def _deal(self, cards: list[str], count: int) -> list[str]:
        """``count`` cards drawn at random ("Remove 3 ... without looking"); while the data holds
        fewer cards than a pile needs, they are dealt again rather than leave months empty."""
        out: list[str] = []
        while len(out) < count and cards:
            batch = list(cards)
            self.shuffle(batch)
            out.extend(batch[: count - len(out)])
        return out

    def _voyage_halves(self, voyages: list[str]) -> tuple[list[str], list[str]]:
        """The first-half and second-half voyage cards (by tag; the first half for both when
        the data has no second half)."""
        key = ("voyage_halves", tuple(voyages))
        cached = self._static_cache.get(key)
        if cached is None:
            first = [v for v in voyages if "first_half" in self.cards[v]["tags"]]
            second = [v for v in voyages if "second_half" in self.cards[v]["tags"]] or first
            cached = self._static_cache[key] = (tuple(first), tuple(second))
        return list(cached[0]), list(cached[1])

    def _port_card_deck(self, port_cards: list[str]) -> tuple[str, ...]:
        """The Port Card pile before shuffling: each card as many times as its ``copies``."""
        key = ("port_card_deck", tuple(port_cards))
        cached = self._static_cache.get(key)
        if cached is None:
            deck: list[str] = []
            for cid in port_cards:
                deck.extend([cid] * max(_number(self.cards[cid]["properties"].get("copies"), 1), 0))
            cached = self._static_cache[key] = tuple(deck)
        return cached

    def _missions_by_type(self, missions: list[str]) -> dict[str, tuple[str, ...]]:
        """The missions by their type tag (route, trade, discovery), in data order; read once
        per compiled game."""
        key = tuple(missions)
        cached = self._static_cache.get(("missions_by_type", key))
        if cached is None:
            by_type: dict[str, list[str]] = {"route": [], "trade": [], "discovery": []}
            for mission in missions:
                for tag in self.cards[mission]["tags"]:
                    if tag in by_type:
                        by_type[tag].append(mission)
            cached = {kind: tuple(pile) for kind, pile in by_type.items()}
            self._static_cache[("missions_by_type", key)] = cached
        return cached

    def _deal_missions(self, missions: list[str]) -> None:
        board = self.board
        board["missions_dealt"] = True
        by_type = {kind: list(pile) for kind, pile in self._missions_by_type(missions).items()}
        for pile in by_type.values():
            self.shuffle(pile)

        def take(kind: str, count: int) -> list[str]:
            pile = by_type[kind]
            drawn, by_type[kind] = pile[:count], pile[count:]
            return drawn

        if self.mode == "coop" and len(self.players) > 1:
            pool = [m for kind, n in COOP_MISSIONS.items() for m in take(kind, n)]
            first: list[str] = []
            while pool and len(first) < COOP_MISSIONS_EACH:
                question = Question(
                    "coop.missions",
                    0,
                    "Co-op: choose a mission for player 1 (the rest go to player 2)",
                    tuple(pool),
                )
                pick = self.ask(self.players[0], question)
                pool.remove(pick)
                first.append(pick)
            self.players[0].zones["missions"] = first
            self.players[1].zones["missions"] = pool
            return
        if len(self.players) > 1:
            board["public_missions"] = [
                m for kind, n in PUBLIC_MISSIONS.items() for m in take(kind, n)
            ]
            for player in self.players:
                player.zones["missions"] = [
                    m for kind, n in PRIVATE_MISSIONS.items() for m in take(kind, n)
                ]
            for player in self.players:
                # "you may discard 1 mission card and draw a new one of the same type".
                held = player.zones["missions"]
                if not held:
                    continue
                question = Question(
                    "missions.redraw",
                    player.index,
                    "Discard one private mission and draw another of its type?",
                    ("keep", *held),
                )
                answer = self.ask(player, question)
                if answer != "keep":
                    kind = next(t for t in self.cards[answer]["tags"] if t in by_type)
                    replacement = take(kind, 1)
                    held.remove(answer)
                    held.extend(replacement)
                    self.log("redraw", player.index, answer, replacement)
            return
        self.players[0].zones["missions"] = [
            m for kind, n in SOLO_MISSIONS.items() for m in take(kind, n)
        ]

    # -- the whole game

    def play(self, c: Context | None = None, card: str | None = None) -> Any:  # type: ignore[override]
        """Play the whole game (12 rounds, or until a ship sinks) and return its result.

        Called as the prelude's ``play`` verb (``play(c, card)``, from a card), it plays a held
        Port Card instead.
        """
        if c is not None and card is not None:
            return super().play(c, card)
        if not self.board.get("set_up"):
            self.setup()
        for month in range(self.round, self.rounds + 1):
            self.round = month
            self.play_round()
            if self.board.get("over"):
                break
        return self.finish()

    def play_round(self) -> None:
        """One month: Planning (the mid-event first, before round 7), Pirate, Sailing and
        Anchoring, then the logbook line."""
        if not self.board.get("set_up"):
            self.setup()
        board = self.board
        players = self.players
        snapshot = []
        for p in players:
            snapshot.append(
                (p.tracks["durability"].marked, p.tracks["health"].marked, p.flags["position"])
            )
            p.flags["notes"] = []
            p.flags["docked"] = False
            p.flags["pirate_power"] = None
            p.flags["distance_sailed"] = 0
            p.flags["excluded_distance"] = 0
        mid = board.get("mid_event_card")
        if self.round == self.mid_event_round and mid and not board.get("mid_event"):
            # "Before you begin the 7th round, reveal the Mid-event Card and place it on one side."
            self.reveal(mid)
        pile = board.get("pile") or []
        if pile and not board.get("over"):
            self.reveal(pile.pop(0))
        voyage = board.get("voyage")
        if voyage and not board.get("over"):
            for p in players:
                self.allocate(p)
            self.pirate_round(voyage)
        if not board.get("over"):
            for p in self.turn_order():
                self.sail_to(p)
                self.anchor(p)
                if board.get("over"):
                    break
        if self.mode == "coop" and len(players) > 1 and not board.get("over"):
            self.share()
        for index, p in enumerate(players):
            durability, health, start = snapshot[index]
            counters = p.counters
            flags = p.flags
            note = "; ".join(flags["notes"])
            if flags.get("sunk"):
                note = (note + "; " if note else "") + "the ship sank"
            self.logbook[index].append(
                {
                    "month": self.round,
                    "voyage": self.cards[voyage]["title"] if voyage else "",
                    "sailing_speed": counters["sailing_speed"],
                    "crew_stamina": counters["crew_stamina"],
                    "armament": counters["armament"],
                    "pirate_power": flags.get("pirate_power"),
                    "start": start,
                    "destination": flags["position"],
                    "distance": flags.get("distance_sailed", 0),
                    "prestige_total": counters["prestige"],
                    "damage": p.tracks["durability"].marked - durability,
                    "scurvy": p.tracks["health"].marked - health,
                    "note": note,
                }
            )

    def turn_order(self) -> list[Player]:
        """ "The player with the lower score on the Prestige track goes first. If tied, the
        player whose marker is on top goes first.\""""
        if len(self.players) == 1:
            return self.players
        return sorted(self.players, key=lambda p: (p.counters["prestige"], -p.flags["arrived"]))

    # -- Planning phase

    def allocation_options(self, voyage: str) -> tuple[str, ...]:
        """The logbook lines a voyage card allows: "a number between 1 and 6 in the Sailing
        Speed, Crew Stamina, and Armament spaces ... The sum of the three numbers cannot exceed
        the amount of resources", or each of a "1 3 5" card's numbers in a space of your
        choice; either way within the card's number restraints."""
        cached: tuple[str, ...] | None = _OPTIONS.get(self.ir, voyage)
        if cached is not None:
            return cached
        card = self.cards[voyage]
        props = card.get("properties") or {}
        low, high = self.allocation_bounds
        triple = _numbers(props.get("resource_triple"))
        values = range(low, high + 1)
        if len(triple) == 3:
            a, b, c = triple
            candidates = list(
                dict.fromkeys([(a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)])
            )
        else:
            total = _number(props.get("resources"), 3 * high)
            candidates = [
                (s, st, ar)
                for s in values
                for st in values
                for ar in values
                if s + st + ar <= total
            ]
        if self.table is not None and (voyage, "restraint") in self.table.formulas:
            scratch = Player(-1, "restraint", self.ir["vocabulary"])
            context = Context(scratch, voyage, "restraint")
            allowed = []
            for s, st, ar in candidates:
                scratch.counters.update(sailing_speed=s, crew_stamina=st, armament=ar)
                if self.formula(voyage, "restraint", context):
                    allowed.append((s, st, ar))
            if not allowed:
                raise RuleError(
                    f"{voyage}: no Sailing Speed/Crew Stamina/Armament line meets its restraint "
                    f"({card.get('title', voyage)}); loosen the restraint or the resources"
                )
            candidates = allowed
        options = tuple(_allocation_label(*t) for t in candidates)
        return _OPTIONS.put(self.ir, options, voyage)

    def allocation_rule(self, voyage: str, answer: str) -> str:
        """The rule a refused logbook line breaks, in the rulebook's words."""
        card = self.cards[voyage]
        props = card.get("properties") or {}
        low, high = self.allocation_bounds
        try:
            numbers = parse_allocation(answer)
        except ValueError:
            return "a line is three numbers, Sailing Speed/Crew Stamina/Armament, like 3/2/4"
        if any(not low <= n <= high for n in numbers):
            return f"each of the three numbers is between {low} and {high}"
        triple = _numbers(props.get("resource_triple"))
        if len(triple) == 3:
            shown = " ".join(str(n) for n in triple)
            return f"{card['title']} gives the numbers {shown}, one in each space"
        total = _number(props.get("resources"), 3 * high)
        if sum(numbers) > total:
            return (
                f"the sum of the three numbers cannot exceed the resources: "
                f"{'+'.join(map(str, numbers))} is {sum(numbers)}; {card['title']} gives {total}"
            )
        return f"the line does not meet {card['title']}'s restraint"

    def allocate(self, player: Player) -> tuple[int, int, int]:
        """Write this month's Sailing Speed, Crew Stamina and Armament."""
        voyage = self.board.get("voyage")
        if voyage not in self.cards:
            raise RuleError(
                "no voyage card is revealed: the three numbers are written within the revealed "
                "voyage card's resources (give 'voyage:' or reveal one first)"
            )
        options = self.allocation_options(voyage)
        question = Question(
            "planning.allocate",
            player.index,
            f"{self.cards[voyage]['title']}: Sailing Speed/Crew Stamina/Armament",
            options,
            rule=lambda answer: self.allocation_rule(voyage, answer),
        )
        speed, stamina, armament = parse_allocation(self.ask(player, question))
        counters = player.counters
        counters["sailing_speed"] = speed
        counters["crew_stamina"] = stamina
        counters["armament"] = armament
        return speed, stamina, armament

    def reveal(self, card: str) -> None:
        """Planning phase: reveal a voyage or mid-event card; its events apply to every player.

        "Most effects are applied immediately when revealed"; the card then stays in force for
        the month (a voyage card) or "for the rest of the game" (the mid-event card). Each
        player's own dice (a Pirate's Raid) are theirs to reroll with Figurehead.
        """
        kind = self.cards[card]["kind"]
        if kind == "voyage":
            self.board["voyage"] = card
        elif kind == "mid_event":
            self.board["mid_event"] = card
        else:
            raise RuleError(f"'{card}' is a {kind}, not a voyage or mid-event card")
        self.log("reveal", card)
        for player in self.players:
            self.dice_owner, self.dice_purpose = player, "raid"
            try:
                self.fire("reveal", player, cards=[card])
            finally:
                self.dice_owner = None
            if self.board.get("over"):
                break

    # -- Pirate phase

    def pirate_round(self, voyage: str) -> None:
        """The Pirate phase for every player: solo, your own roll; 2-player, one roll that
        "applies equally to both players. However, players may individually use Port Cards to
        reduce damage or modify their own dice values" (Figurehead: "only affects your own dice
        results", so a reroll changes the roll for its owner alone), taken in turn order
        (Anti-Piracy Mission: "the player with the lower
        score or whose marker is on top moves first")."""
        if len(self.players) == 1:
            player = self.players[0]
            self.dice_owner, self.dice_purpose = player, "pirate"
            try:
                self.pirate_phase(player, voyage)
            finally:
                self.dice_owner = None
            return
        context = Context(self.players[0], voyage, "pirate")
        self._recording = []
        try:
            power = int(self.formula(voyage, "pirate", context))
        finally:
            shared, self._recording = self._recording, None
        for player in self.turn_order():
            own = power
            if shared and "figurehead" in player.zones["port_cards"]:
                # "players may individually use Port Cards to ... modify their own dice
                # values": Figurehead rerolls a die of this player's copy of the roll only.
                self.dice_owner, self.dice_purpose = player, "pirate"
                self._replay = list(shared)
                try:
                    own = int(self.formula(voyage, "pirate", Context(player, voyage, "pirate")))
                finally:
                    self.dice_owner, self._replay = None, None
            self.pirate_phase(player, voyage, pirate_power=own)
            if self.board.get("over"):
                return

    def pirate_phase(
        self,
        player: Player,
        voyage_card_id: str,
        armament: int | None = None,
        pirate_power: int | None = None,
    ) -> Context:
        """Pirate phase: "Roll the dice and apply the formula indicated on the voyage card. ...
        If your Armament is lower than the Pirate's Combat Power, your ship takes damage equal
        to the difference."

        Held port cards answer ``pirate_combat`` (Rum, Smoke Bomb) before the comparison;
        ``pirate_resolved`` follows it (Anti-Piracy Mission). ``armament`` defaults to the
        logbook's; ``pirate_power`` is given when it was rolled once for both players ("applies
        equally to both players"). Returns the ``pirate_combat`` window, quantities as played.
        """
        if pirate_power is None:
            context = Context(player, voyage_card_id, "pirate")
            pirate_power = int(self.formula(voyage_card_id, "pirate", context))
        if armament is None:
            armament = player.counters["armament"]
        player.flags["pirate_power"] = pirate_power
        self.log("pirate", player.index, pirate_power, armament)
        combat = self.fire(
            "pirate_combat", player, quantities={"pirate_power": pirate_power, "armament": armament}
        )
        power, armed = combat.q["pirate_power"], combat.q["armament"]
        self.fire("pirate_resolved", player, quantities={"pirate_power": power, "armament": armed})
        damage = max(power - armed, 0)
        if damage > 0:
            self.mark(Context(player, voyage_card_id, "pirate_combat"), "durability", damage)
        return combat

    # -- Sailing phase

    def may_anchor(self, player: Player, space: str) -> bool:
        """2-player: "A single space can hold a maximum of 2 Ship Markers, regardless of color.
        This means you cannot anchor in a space that already contains 2 markers"."""
        if len(self.players) == 1:
            return True
        return self.board["markers"].get(space, 0) < MARKERS_PER_SPACE

    def destinations(self, player: Player, reach: int) -> dict[str, int]:
        """Where the ship may end its voyage, with the spaces sailed to get there."""
        chart = self.chart or chart_for(self.ir)
        position = player.flags["position"]
        if position not in chart.spaces:
            raise RuleError(f"the ship is at '{position}', which is not a space of the map")
        found = chart.reach(position, reach)
        if len(self.players) == 1:
            return found
        allowed = {s: d for s, d in found.items() if self.may_anchor(player, s)}
        # Boxed in by full spaces the rulebook does not foresee: the ship stays where it is.
        return allowed or {player.flags["position"]: 0}

    def sail_to(self, player: Player, destination: str | None = None) -> str:
        """Sailing phase on the map: "Sail from where you docked in the previous round ... to
        a space that is within your Sailing Speed"; "You can only anchor at one final
        destination. Other spaces you pass while sailing are ignored."

        The ``sailing`` window opens first (Reinforced Rope: "You may sail 1 additional
        space"); the spaces it adds beyond the Sailing Speed are kept out of the Scurvy Check.
        """
        speed = player.counters["sailing_speed"]
        window = self.fire("sailing", player, quantities={"reach": speed, "unscurvied_distance": 0})
        reach, unscurvied = window.q["reach"], window.q["unscurvied_distance"]
        options = self.destinations(player, reach)
        if destination is None:
            question = Question(
                "sailing.destination",
                player.index,
                f"Sail from {player.flags['position']} within {reach} spaces to",
                _keys(options),
            )
            destination = self.ask(player, question)
        destination = _place_id(destination)
        if destination not in options:
            raise RuleError(
                f"cannot sail from {player.flags['position']} to {destination} within {reach} "
                "spaces: a ship sails up to its Sailing Speed; it cannot pass or land on a "
                "pirate space, and white borders cannot be crossed"
            )
        distance = options[destination]
        player.flags["distance_sailed"] = distance
        player.flags["excluded_distance"] = min(unscurvied, max(distance - speed, 0))
        player.flags["position"] = destination
        player.flags["anchorages"].append(destination)
        markers = self.board.setdefault("markers", {})
        markers[destination] = markers.get(destination, 0) + 1
        self.log("sail", player.index, distance)
        self.log("sail_to", player.index, destination)
        return destination

    # -- Anchoring phase

    def anchor(self, player: Player, space_id: str | None = None) -> None:
        """Anchoring phase on the map: a port (A), an East Asian port (a permit), or anywhere
        else (B)."""
        chart = self.chart or chart_for(self.ir)
        place = _place_id(space_id or player.flags["position"])
        if place not in chart.spaces:
            raise RuleError(f"'{place}' is not a space of the map")
        space = chart.spaces[place]
        # "anchoring at 4 different Pirate Infested Areas": a port anchors a ship as well as
        # the sea does ("You can only anchor at one final destination").
        player.flags["areas"] |= space.infested
        self.dice_owner, self.dice_purpose = player, "prestige"
        try:
            if space.port and space.east_asia:
                self.enter_east_asia(player, space)
            elif space.port:
                self.dock_at_port(player, space)
            else:
                self.anchor_elsewhere(player, space)
        finally:
            self.dice_owner = None

    def arrival_prestige(self, player: Player, space: Space) -> int:
        """What docking at ``space`` now advances the Prestige Track by: its stars the first
        time, 1 where the other ship anchored first (2-player: "If you arrive at a port where
        another player has already anchored, you always gain only 1 prestige point"), nothing
        again."""
        if space.id in player.flags["ports"]:
            return 0
        anchored = self.board["anchored"].get(space.id)
        if anchored and (len(anchored) > 1 or player.index not in anchored):
            return SHARED_PORT_PRESTIGE
        return space.stars

    def dock_at_port(self, player: Player, space: Space) -> None:
        """A. If You Dock at a Port: "Advance the Prestige Track by the number of stars" (once
        per port), its missions, then Crew Actions."""
        flags = player.flags
        flags["areas"] |= space.infested
        c = Context(player, space.id, "dock")
        if space.id not in flags["ports"]:
            gained = self.arrival_prestige(player, space)
            if gained:
                self.gain(c, "prestige", gained)
            flags["notes"].append(f"{space.title} +{gained}")
        else:
            flags["notes"].append(f"{space.title} again")
        self._docked(player, space)
        if not self.board.get("over"):
            self.crew_actions(player, space)

    def _docked(self, player: Player, space: Space) -> None:
        flags = player.flags
        flags["ports"].add(space.id)
        if space.region:
            flags["regions"].add(space.region)
        flags["docked"] = True
        self.board["anchored"].setdefault(space.id, set()).add(player.index)
        self.dock(player, space.id)
        if not self.board.get("over"):
            self.missions_by_data(player, space, docked=True)

    def enter_east_asia(self, player: Player, space: Space) -> None:
        """Port Permits for East Asia: offer 1, 2, then 3 specialties ("the second ship to
        enter any East Asian port ... must offer 2"), gain "2 prestige points and an additional
        amount of prestige equal to the number rolled on a die"; no re-entry; "If you are
        unable or unwilling to offer specialties, you are considered anchored at sea"."""
        board = self.board
        offer = board["east_asia_entries"] + 1
        closed = space.id in player.flags["east_asia"] or space.id in board["east_asia_ships"]
        if not closed and player.counters["specialties"] >= offer:
            question = Question(
                "east_asia.offer",
                player.index,
                f"{space.title}: offer {offer} specialties to enter?",
                ("yes", "no"),
            )
            if self.ask(player, question) == "yes":
                for _ in range(offer):
                    pick = self.ask(
                        player,
                        Question(
                            "east_asia.goods",
                            player.index,
                            f"{space.title}: a specialty to offer",
                            tuple(self._specialty_options(player)),
                        ),
                    )
                    self.remove_specialty(player, pick.partition(":")[2] or None)
                board["east_asia_entries"] = offer
                board["east_asia_ships"][space.id] = player.index
                player.flags["east_asia"].add(space.id)
                c = Context(player, space.id, "dock")
                # "you gain 2 prestige points": the port's stars in map.cards, which say so.
                gained = (space.stars or EAST_ASIA_PRESTIGE) + self.dice(1, 6)[0]
                self.gain(c, "prestige", gained)
                player.flags["notes"].append(f"{space.title} entered +{gained}")
                self._docked(player, space)
                if not board.get("over"):
                    self.crew_actions(player, space)
                return
        self.log("east_asia_refused", player.index, space.id)
        player.flags["notes"].append(f"{space.title} not entered")
        self.anchor_elsewhere(player, space)

    def crew_actions(self, player: Player, space: Space) -> None:
        """Crew Actions by the Crew Stamina written ("If you want, you can take an action with a
        lower number than you wrote in"), never on a row struck by Declining Health ("you can't
        perform actions on that space"), unless Rum is played (the rulebook's exception)."""
        written = player.counters["crew_stamina"]
        struck = player.tracks["health"].checked("declining_health")
        usable = min(written, self.crew_action_spaces - struck)
        if written > usable and "rum" in player.zones["port_cards"]:
            question = Question(
                "rum.crew_action",
                player.index,
                f"Rum: take the Crew Action of your Crew Stamina {written} (struck out)?",
                ("yes", "no"),
            )
            if self.ask(player, question) == "yes":
                player.zones["port_cards"].remove("rum")
                self.log("play", player.index, "rum")
                usable = written
        if usable <= 1:
            return
        rows = _ROWS.get(usable) or _ROWS.setdefault(
            usable, tuple(str(row) for row in range(usable, 0, -1))
        )
        row = int(self.ask(player, Question("crew.row", player.index, "Crew Action row", rows)))
        buy, sell, either, card = self.crew_table.get(row, (False, False, False, False))
        c = Context(player, space.id, "crew_action")
        if card:
            self.draw(c, "port_cards", 1)
        if either:
            choices = ["buy"] if space.specialty else []
            if self._sellable(player, space):
                choices.append("sell")
            if not choices:
                return
            choices.append("none")
            pick = self.ask(
                player, Question("crew.either", player.index, "Purchase or sell?", tuple(choices))
            )
            buy, sell = pick == "buy", pick == "sell"
        if sell:
            self.sell(player, space)
        if buy and space.specialty:
            question = Question(
                "crew.buy", player.index, f"Purchase {space.specialty}?", ("yes", "no")
            )
            if self.ask(player, question) == "yes":
                self.add_specialty(player, space.specialty)

    def _sellable(self, player: Player, space: Space) -> list[str]:
        # "you can't sell specialties that are available for purchasing in a port where you
        # are currently docked"
        goods = player.flags["goods"]
        if not goods:
            return []
        return [name for name in dict.fromkeys(goods) if name != space.specialty]

    def price(self, player: Player, specialty: str) -> int:
        """Prestige for selling one specialty: 1, or the Vogue mid-event's ``sale_value`` for
        its ``goods`` ("Gain the indicated amount of prestige each time you sell the depicted
        specialty")."""
        mid = self.board.get("mid_event")
        if not mid:
            return 1
        props = self.cards[mid].get("properties") or {}
        goods = props.get("goods")
        if not goods:
            return 1
        chart = self.chart or chart_for(self.ir)
        if _place_id(goods) not in (specialty, chart.category(specialty)):
            return 1
        return _number(props.get("sale_value"), 1)

    def sell(self, player: Player, space: Space) -> None:
        """Selling Specialties: "You can sell as many specialties as you want ... You
        immediately gain 1 Prestige for each specialty you sell."""
        c = Context(player, space.id, "sell")
        while not self.board.get("over"):
            sellable = self._sellable(player, space)
            if not sellable:
                return
            pick = self.ask(
                player,
                Question("crew.sell", player.index, "Sell a specialty", (*sellable, "stop")),
            )
            if pick == "stop":
                return
            self.remove_specialty(player, pick)
            self.gain(c, "prestige", self.price(player, pick))

    def anchor_elsewhere(self, player: Player, space: Space) -> None:
        """B. If You Anchor at a Place Other Than a Port: the Scurvy Check, missions there, a
        Discovery Spot's die ("If it is a Discovery Spot you have already arrived at, you do
        not gain any prestige"), or the Sunken Ship."""
        flags = player.flags
        flags["areas"] |= space.infested
        visited = space.id in flags["spots"]
        if space.discovery:
            flags["spots"].add(space.id)
        before = len(player.zones["accomplished"])
        self.anchor_at_sea(player, space.id)
        if self.board.get("over"):
            return
        self.missions_by_data(player, space, docked=False)
        if self.board.get("over"):
            return
        # "If you have a mission card that is accomplished by arriving at a Discovery Spot":
        # only a mission of this spot takes the die's place, not one that merely finished here
        # (A Study on Pirate Infested Area at an infested spot).
        finished = player.zones["accomplished"][before:]
        accomplished = bool(finished) and any(
            space.id in info.spot or space.id in info.spots
            for info in map(self.mission_info, finished)
        )
        if space.discovery:
            if not accomplished and not visited:
                self.discovery_prestige(player, space)
            flags["notes"].append(f"{space.title} (Discovery Spot)")
        elif not space.port:
            self.sunken_ship(player, space)

    def discovery_prestige(self, player: Player, space: Space) -> None:
        """ "If you arrive at a Discovery Spot without a mission card, you only gain prestige
        equal to the number of a die you roll"; Exploration Journal: "roll 2 dice and choose
        one. You must decide whether to use Exploration Journal before rolling"."""
        c = Context(player, space.id, "discovery")
        self.gain(c, "prestige", self.discovery_die(player, space))

    def discovery_die(self, player: Player, space: Space) -> int:
        """A prestige die rolled at a Discovery Spot: one die, or with Exploration Journal "roll
        2 dice and choose one. You must decide whether to use Exploration Journal before
        rolling"."""
        if "exploration_journal" in player.zones["port_cards"]:
            question = Question(
                "exploration_journal.use",
                player.index,
                "Exploration Journal: roll 2 dice and choose one?",
                ("yes", "no"),
            )
            if self.ask(player, question) == "yes":
                player.zones["port_cards"].remove("exploration_journal")
                self.log("play", player.index, "exploration_journal")
                first, second = self.dice(2, 6)
                pick = first
                if first != second:
                    options = (str(first), str(second))
                    pick = int(
                        self.ask(
                            player,
                            Question(
                                "exploration_journal.choose", player.index, "Keep a die", options
                            ),
                        )
                    )
                return pick
        return self.dice(1, 6)[0]

    def sunken_ship(self, player: Player, space: Space) -> None:
        """Discover the Coordinates of the Sunken Ship: "Once per game, when anchoring at sea",
        at least ``port_distance`` spaces from any Port and ``discovery_distance`` from any
        Discovery Spot, and what it ``requires`` (Crew Stamina >= 4); 2-player:
        "first-to-complete-only"."""
        mid = self.board.get("mid_event")
        if not mid or "sunken_ship_found" in self.board:
            return
        props = self.cards[mid].get("properties") or {}
        # The card says what it is: a mid-event with a distance from any port to keep is a
        # sunken ship to find (mid_events.cards), whatever its id.
        if "port_distance" not in props:
            return
        chart = self.chart or chart_for(self.ir)
        if chart.nearest(space.id, "port") < _number(props.get("port_distance"), 0) or (
            chart.nearest(space.id, "discovery") < _number(props.get("discovery_distance"), 0)
        ):
            return
        c = Context(player, mid, "sunken_ship")
        if self.table is not None and (mid, "requires") in self.table.formulas:
            if not self.formula(mid, "requires", c):
                return
        self.board["sunken_ship_found"] = player.index
        self.log("sunken_ship", player.index, space.id)
        player.flags["notes"].append("the Sunken Ship")
        grant_reward(self, c, mid, props.get("reward"))

    # -- missions whose conditions are data (properties), not handlers

    def missions_by_data(self, player: Player, space: Space, docked: bool) -> None:
        """Missions accomplished "as soon as its conditions are met", for mission cards that
        state their conditions as properties (ports, regions, spots, a specialty to deliver)
        rather than with a handler of their own."""
        trigger = "dock" if docked else "anchor_at_sea"
        handlers = self.table.handlers if self.table is not None else {}
        held = list(player.zones["missions"])
        public = self.board.get("public_missions")
        if public:
            held += [m for m in public if not is_accomplished(self, m)]
        infos = self._missions
        for mission in held:
            info = infos.get(mission)
            if info is not None and not (info.at_port if docked else info.at_sea):
                continue  # nothing in its data can be met here (a spot mission at a port)
            if (mission, trigger) in handlers or is_accomplished(self, mission):
                continue
            delivered = self._mission_met(player, mission, space, docked)
            if delivered is None:
                continue
            if delivered:
                # "Mark an X on the specialty goods you delivered ... you can only deliver one."
                self.remove_specialty(player, delivered)
            accomplish(self, Context(player, mission, trigger), mission)
            player.flags["notes"].append(f"mission {self.cards[mission]['title']}")
            if self.board.get("over"):
                return

    def _mission_met(self, player: Player, mission: str, space: Space, docked: bool) -> str | None:
        """None when ``mission`` is not met here and now; else the specialty it delivers ('' for
        none). Route: "dock at any port in each region", or anchor "at all listed Discovery
        Spots", or sail the card's route (anchor at each of its spaces), or "anchoring at 4
        different Pirate Infested Areas", before ``before_round`` if it has one; Trade: "If you
        have the appropriate specialty when you dock at a destination"; Discovery: "as soon as
        you anchor at the Discovery Spot"."""
        info = self.mission_info(mission)
        flags = player.flags
        if info.before and self.round >= info.before:
            return None
        if info.deliver:
            if not docked:
                return None
            to = info.to
            if to and space.id not in to and (space.region or "") not in to:
                return None
            return info.deliver if info.deliver in flags["goods"] else None
        if info.areas:
            return "" if len(flags["areas"]) >= info.areas else None
        if info.regions:
            return "" if docked and set(info.regions) <= flags["regions"] else None
        if info.route:
            done = route_progress(info.route, flags["anchorages"]) == len(info.route)
            return "" if done else None
        if info.spots:
            return "" if not docked and set(info.spots) <= flags["spots"] else None
        if info.spot and not docked and space.id in info.spot:
            return ""
        return None

    # -- Co-op sharing

    def share(self) -> None:
        """Co-op: "If both players anchor at the same space during the same round, they may
        freely exchange or give any Specialty Goods and/or Port Cards to each other. Missions
        can be completed with these immediately.\""""
        first, second = self.players[0], self.players[1]
        if first.flags["position"] != second.flags["position"]:
            return
        for giver, taker in ((first, second), (second, first)):
            for _ in range(len(giver.flags["goods"]) + len(giver.zones["port_cards"])):
                options = (
                    "done",
                    *(f"specialty:{n}" for n in dict.fromkeys(giver.flags["goods"])),
                    *dict.fromkeys(giver.zones["port_cards"]),
                )
                if len(options) == 1:
                    break
                pick = self.ask(
                    giver,
                    Question("coop.give", giver.index, f"Give player {taker.index + 1}", options),
                )
                if pick == "done":
                    break
                if pick.startswith("specialty:"):
                    name = pick.partition(":")[2]
                    self.remove_specialty(giver, name)
                    self.add_specialty(taker, name)
                else:
                    giver.zones["port_cards"].remove(pick)
                    taker.zones["port_cards"].append(pick)
                self.log("give", giver.index, pick)
        chart = self.chart or chart_for(self.ir)
        space = chart.spaces[first.flags["position"]]
        for player in self.players:
            if player.flags.get("docked"):
                self.fire(
                    "dock", player, cards=list(player.zones["missions"]), event={"port": space.id}
                )
                self.missions_by_data(player, space, docked=True)

    # -- end of the game

    def final_score(self, player: Player) -> int:
        """End of the Game: "Gain 1 prestige point for each prestige star gained from
        'Adventures of a Sailor' Port Cards", less one per critical-damage and one per
        declining-health space checked; a sunk ship scores nothing ("Any prestige points you
        gained up to this point are nullified")."""
        if player.flags.get("sunk"):
            return 0
        sailors = player.zones["port_cards"].count("adventures_of_a_sailor")
        return (
            player.counters["prestige"]
            + sailor_points(sailors, self.sailor_points)
            - player.tracks["durability"].checked("critical_damage")
            - player.tracks["health"].checked("declining_health")
        )

    def finish(self) -> GameResult:
        """The result: final scores, titles, who sank, the winner, the logbooks."""
        players = self.players
        scores = [self.final_score(p) for p in players]
        sunk = [bool(p.flags.get("sunk")) for p in players]
        winner: int | None = None
        team: int | None = None
        if self.mode == "coop" and len(players) > 1:
            # "If either player's ship sinks, the game ends immediately in a loss for both."
            team = 0 if any(sunk) else sum(scores)
            titles = [NO_RECORD if any(sunk) else title_for(team, self.coop_titles)]
        else:
            titles = [
                NO_RECORD if s else title_for(v, self.solo_titles)
                for v, s in zip(scores, sunk, strict=True)
            ]
            if len(players) > 1:
                if any(sunk):
                    # "If any player's ship sinks, the game ends immediately, and the other
                    # player is declared the winner."
                    afloat = [i for i, s in enumerate(sunk) if not s]
                    winner = afloat[0] if len(afloat) == 1 else None
                else:
                    winner = self._competitive_winner(scores)
        self.log("game_over", scores, winner)
        return GameResult(scores, team, titles, sunk, winner, self.logbook)

    def _competitive_winner(self, scores: list[int]) -> int | None:
        """ "The player with the higher total Prestige wins. In case of a tie, add up completed
        Mission Cards, owned specialties, and Port Cards ... If it is still a tie, you share the
        victory.\""""

        def tie_break(p: Player) -> int:
            return (
                len(p.zones["accomplished"])
                + p.counters["specialties"]
                + len(p.zones["port_cards"])
            )

        keyed = [(scores[i], tie_break(p)) for i, p in enumerate(self.players)]
        best = max(keyed)
        leaders = [i for i, k in enumerate(keyed) if k == best]
        return leaders[0] if len(leaders) == 1 else None

    # -- the logbook's special boxes

    def critical_damage(self, player: Player) -> None:
        """Critical damage: "Whenever you mark an X in the critical-damage space, you must abandon
        one of your specialties or Port Cards. If you are unable to do so, your ship takes one
        additional damage." The player chooses which; abandoning is not optional."""
        if player.flags.get("sunk"):
            return
        c = Context(player, "", "critical_damage")
        options = list(dict.fromkeys(player.zones["port_cards"]))
        options += self._specialty_options(player)
        if not options:
            self.log("critical_damage_unabandoned", player.index)
            self.mark(c, "durability", 1)
            return
        question = Question(
            "critical_damage.abandon",
            player.index,
            "Critical damage: abandon one of your specialties or Port Cards",
            tuple(options),
        )
        answer = self.ask(player, question)
        if answer == ABANDON_SPECIALTY or answer.startswith("specialty:"):
            name = answer.partition(":")[2] or None
            goods = player.flags["goods"]
            if name is not None and name in goods:
                goods.remove(name)
            self.lose(c, "specialties", 1)
        else:
            player.zones["port_cards"].remove(answer)
        self.log("abandon", player.index, answer)

    def on_track_full(self, player: Player, track: str) -> None:
        """Sinking: "if you check the last space on your Ship Durability Track or Health Track,
        your ship sinks and the game ends immediately." The flow reads ``over`` to stop, and
        final scoring nullifies the prestige."""
        if player.flags.get("sunk"):
            return
        player.flags["sunk"] = track
        self.board["over"] = True
        self.log("sunk", player.index, track)

    # -- the steps without the map (scenarios of the card layer call them directly)

    def sail(self, player: Player, distance: int) -> None:
        """Sailing phase, without the map: sail ``distance`` spaces "within your Sailing Speed".

        Only a voyage beyond the Sailing Speed opens the ``sailing`` window, where Reinforced
        Rope ("You may sail 1 additional space") may add reach; the spaces beyond the Sailing
        Speed that it paid for are excluded from the Scurvy Check.
        """
        if distance < 0:
            raise RuleError(f"cannot sail {distance} spaces")
        speed = player.counters["sailing_speed"]
        reach, unscurvied = speed, 0
        if distance > speed:
            window = self.fire(
                "sailing", player, quantities={"reach": speed, "unscurvied_distance": 0}
            )
            reach, unscurvied = window.q["reach"], window.q["unscurvied_distance"]
        if distance > reach:
            raise RuleError(
                f"cannot sail {distance} spaces with a reach of {reach}: a ship sails up to its "
                "Sailing Speed, and one more space with Reinforced Rope"
            )
        player.flags["distance_sailed"] = distance
        player.flags["excluded_distance"] = min(unscurvied, max(distance - speed, 0))
        self.log("sail", player.index, distance)

    def dock(self, player: Player, port: str) -> Context:
        """Anchoring phase A's cards: the ship docks at ``port``; cards in force answer
        ``dock`` (missions accomplished there, Famine's Scurvy Check)."""
        player.flags["position"] = port
        self.log("dock", player.index, port)
        return self.fire("dock", player, event={"port": port})

    def anchor_at_sea(self, player: Player, place: str) -> Context:
        """Anchoring phase B's cards: "the first thing you do is make a Scurvy Check", then cards
        in force answer ``anchor_at_sea`` (a Discovery mission "accomplished as soon as you
        anchor")."""
        player.flags["position"] = place
        self.log("anchor_at_sea", player.index, place)
        scurvy_check(self, Context(player, "", "anchor_at_sea"))
        if self.board.get("over"):
            return Context(player, "", "anchor_at_sea", {"place": place})
        return self.fire("anchor_at_sea", player, event={"place": place})


_KEYS = ObjectCache(50_000)


def _keys(places: dict[str, int]) -> tuple[str, ...]:
    """``tuple(places)``, kept for the chart's cached reach dicts (the same few hundred come
    up in every game of a simulation)."""
    keys: tuple[str, ...] | None = _KEYS.get(places)
    return keys if keys is not None else _KEYS.put(places, tuple(places))


#: The Crew Action rows a Crew Stamina may take, top first ("6", "5", ... "1").
_ROWS: dict[int, tuple[str, ...]] = {}

#: The zones :meth:`UnchartedPassage.cards_in_force` reads by their rules; any other zone's
#: cards are simply in force.
_FLOW_ZONES = frozenset({"port_cards", "missions", "accomplished"})
#: The logbook lines of each voyage card, per IR.
_OPTIONS = ObjectCache(4096)
#: The greedy planner's reading of each options tuple (lines, their top sum, lookups).
_PARSED = ObjectCache(4096)
#: What the flow reads from the data once per compiled game (per IR and handler table).
_STATIC = ObjectCache()


class MissionInfo:
    """A mission card's conditions as the flow and the greedy captain read them."""

    __slots__ = (
        "id",
        "stars",
        "before",
        "deliver",
        "to",
        "regions",
        "spots",
        "route",
        "areas",
        "spot",
        "needs",
        "at_port",
        "at_sea",
        "risky",
        "sellers_worth",
    )

    def __init__(self, card: dict[str, Any], risky: bool = False) -> None:
        props = card.get("properties") or {}
        self.id = card["id"]
        #: Its card has its own ``on accomplish`` (Legend of Kraken's damage, the Galapagos'
        #: Scurvy): the stars come with a risk.
        self.risky = risky
        #: The greedy captain's worth of each seller, for one chart (see ``_seller_worth``).
        self.sellers_worth: tuple[Chart, tuple[tuple[str, float], ...]] | None = None
        self.stars = sum(
            _number(clause[1:], 0)
            for clause in props.get("reward") or []
            if clause and clause[0] == "stars"
        )
        self.before = _number(props.get("before_round"), 0)
        deliver = _names(props.get("deliver"))
        self.deliver = deliver[0] if deliver else None
        self.to = _names(props.get("to"))
        self.regions = _names(props.get("regions"))
        self.spots = _names(props.get("spots"))
        self.route = _names(props.get("route"))
        self.areas = _number(props.get("infested_areas"), 0)
        self.spot = _names(props.get("spot"))
        #: Whether its data can be met docked at a port, and anchored elsewhere (see
        #: :meth:`UnchartedPassage._mission_met`).
        self.at_port = bool(self.deliver or self.areas or self.regions or self.route)
        self.at_sea = bool(self.areas or self.route or self.spots or self.spot)
        #: The specialties the mission wants delivered (or names otherwise).
        self.needs = frozenset(
            _names(props.get("deliver"))
            + _names(props.get("specialty"))
            + _names(props.get("goods"))
        )


class GameResult:
    """What a whole game came to (the simulator's contract)."""

    __slots__ = ("scores", "team_score", "titles", "sunk", "winner", "logbook")

    def __init__(
        self,
        scores: list[int],
        team_score: int | None,
        titles: list[str],
        sunk: list[bool],
        winner: int | None,
        logbook: list[list[dict[str, Any]]],
    ) -> None:
        self.scores = scores
        self.team_score = team_score
        self.titles = titles
        self.sunk = sunk
        self.winner = winner
        self.logbook = logbook

    def __repr__(self) -> str:
        return (
            f"GameResult(scores={self.scores}, team_score={self.team_score}, "
            f"titles={self.titles}, sunk={self.sunk}, winner={self.winner})"
        )


# -- policies


def _share_out(
    bonus: dict[str, float], targets: Iterable[str], done: Collection[str], stars: float
) -> None:
    """A mission needing every one of ``targets``: the stars shared among those not ``done``."""
    missing = [target for target in targets if target not in done]
    for target in missing:
        bonus[target] = bonus.get(target, 0.0) + stars / len(missing)


def _crew_worth(row: tuple[bool, bool, bool, bool], sellable: int, can_buy: bool) -> float:
    """What a Crew Action row (the ``crew_actions`` card's purchase, sell, purchase_or_sell,
    gain_port_card) is worth to the greedy captain: each sale 1, a purchase a little less (it
    is a sale later), a Port Card 1."""
    buy, sell, either, card = row
    purchase = 0.9 if can_buy else 0.0
    if either:
        worth = max(sellable, purchase)
    else:
        worth = (sellable if sell else 0) + (purchase if buy else 0.0)
    return worth + (1.0 if card else 0.0)


#: A row that allows nothing ("1 - You can't perform any actions").
_NO_ACTION = (False, False, False, False)


class _Splits:
    """The greedy captain's best Crew Stamina and Armament for each kind of destination, given
    the month: the resources, the pirate formula, how worn the ship and crew are, the Crew
    Action spaces left and whether Famine is out. Pure arithmetic, so one is kept per month-kind
    and shared by every game of a simulation (see ``_SPLITS``)."""

    __slots__ = (
        "top",
        "damage",
        "scurvy_weight",
        "usable_top",
        "famine",
        "order",
        "high",
        "buy_from",
        "crew",
        "memo",
    )

    def __init__(
        self,
        top: int,
        damage_table: tuple[float, ...],
        damage_weight: float,
        scurvy_weight: float,
        usable_top: int,
        famine: bool,
        bounds: tuple[int, int],
        buy_from: int,
        crew_rows: tuple[tuple[int, tuple[bool, bool, bool, bool]], ...],
    ) -> None:
        low, high = bounds
        self.top = top
        #: The lowest Crew Action row that can purchase (3: "either purchasing or selling").
        self.buy_from = buy_from
        #: The Crew Action table, by row (the crew_actions card).
        self.crew = dict(crew_rows)
        self.damage = [damage_weight * d for d in damage_table]
        self.scurvy_weight = scurvy_weight
        self.usable_top = usable_top
        self.famine = famine
        # 5 first, 6 last: a tie goes to the number that leaves more for Armament.
        self.order = (*range(high - 1, low - 1, -1), high)
        self.high = high
        self.memo: dict[int, tuple[float, int, int]] = {}

    def best(self, code: int) -> tuple[float, int, int]:
        """(worth, crew stamina, armament) for a destination by its :func:`split_code`: a port
        with goods to sell (and a specialty to buy), or a place at sea, so many spaces sailed
        at a Sailing Speed."""
        choice = self.memo.get(code)
        if choice is not None:
            return choice
        at_port, can_buy = code & 1, (code >> 1) & 1
        sellable, sailed = (code >> 2) & 255, (code >> 10) & 127
        speed, must_buy = (code >> 17) & 0x7FFFFF, code >> 40
        buy_from = self.buy_from
        choice = (-1e9, 1, 1)
        top, high, usable_top, damage = self.top, self.high, self.usable_top, self.damage
        crew = self.crew
        scurvy_weight, famine = self.scurvy_weight, self.famine
        for stamina in self.order:
            armament = top - speed - stamina
            if armament < 1:
                continue
            if armament > high:
                armament = high
            usable = stamina if stamina <= usable_top else usable_top
            if must_buy and usable < buy_from:
                continue
            extra = -damage[armament]
            if at_port:
                extra += _crew_worth(crew.get(usable, _NO_ACTION), sellable, bool(can_buy))
                if famine and sailed > usable:
                    extra -= scurvy_weight * (sailed - usable)
            elif sailed > usable:
                extra -= scurvy_weight * (sailed - usable)
            if extra > choice[0]:
                choice = (extra, stamina, armament)
        self.memo[code] = choice
        return choice


#: One :class:`_Splits` per month-kind; bounded so a long simulation cannot grow it forever.
_SPLITS: dict[tuple[Any, ...], _Splits] = {}
_SPLITS_LIMIT = 20_000


class Greedy(Policy):
    """A captain who plays sensibly: picks this month's best reachable port or Discovery Spot
    (new stars, missions, Crew Actions), writes the numbers to get there without Scurvy and with
    what is left on Armament, sells what it can, and keeps the ship afloat."""

    def __init__(self, game: Game, index: int) -> None:
        # The game is not kept: every question brings it, and a game its policy pointed back
        # at would be a reference cycle, left for the cyclic GC to find (5% of a simulation).
        self.index = index
        self.target: str | None = None
        self.target_distance = 0
        self.risk = 1.0
        self._parsed: dict[int, tuple[tuple[str, tuple[int, int, int]], ...]] = {}
        #: The Pirate Infested Areas this month's missions want (set by :meth:`_bonuses`).
        self._areas_wanted: list[str] = []
        #: The worth of buying at ports selling a wanted specialty (set by :meth:`_bonuses`).
        self._buying: dict[str, float] = {}
        #: Co-op: the six missions this captain chose for player 1 (see :meth:`_coop_pick`).
        self._coop_plan: list[str] | None = None

    # -- judging places

    def _bonuses(self, g: UnchartedPassage, player: Player, chart: Chart) -> dict[str, float]:
        """What this month's missions make each space (or region, or pirate's area) worth, by
        the card data; the areas wanted are left in ``_areas_wanted``."""
        bonus: dict[str, float] = {}
        areas_wanted: list[str] = []
        self._areas_wanted = areas_wanted
        #: What buying there is worth, at the ports selling a specialty a mission wants: only
        #: a Crew Action that can purchase earns it.
        buying: dict[str, float] = {}
        self._buying = buying
        flags = player.flags
        goods = flags["goods"]
        public = g.board.get("public_missions") or ()
        missions = player.zones["missions"]
        if len(g.players) > 1 or public:
            # Another ship may have claimed one first (a public mission "is no longer available").
            done = {m for p in g.players for m in p.zones["accomplished"]}
            missions = [m for m in (*missions, *public) if m not in done]
        infos = g._missions
        month = g.round
        for mission in missions:
            info = infos.get(mission) or g.mission_info(mission)
            stars = info.stars
            if info.before and month >= info.before:
                continue
            if info.deliver:
                if info.deliver in goods:
                    for target in info.to:
                        bonus[target] = bonus.get(target, 0.0) + stars
                else:
                    # Where the specialty is sold, worth the stars less the voyage on from there
                    # (and the chance of no Crew Action to buy it with).
                    for seller, worth in _seller_worth(chart, info):
                        bonus[seller] = bonus.get(seller, 0.0) + worth
                        buying[seller] = buying.get(seller, 0.0) + worth
                continue
            if info.areas:
                # "anchoring at 4 different Pirate Infested Areas": the areas not yet visited.
                needed = info.areas - len(flags["areas"])
                # Keyed by the pirate icon, as a region is by its name: a space of its area is
                # worth it (the planner reads ``space.infested``).
                if needed > 0:
                    for pirate in chart.infested_areas:
                        if pirate not in flags["areas"]:
                            bonus[pirate] = max(bonus.get(pirate, 0.0), stars / needed)
                            if pirate not in areas_wanted:
                                areas_wanted.append(pirate)
                continue
            if info.regions:
                _share_out(bonus, info.regions, flags["regions"], stars)
                continue
            if info.spots:
                _share_out(bonus, info.spots, flags["spots"], stars)
            if info.route:
                # The route is sailed in its order: only its next space is worth heading for.
                legs = route_progress(info.route, flags["anchorages"])
                if legs < len(info.route):
                    target = info.route[legs]
                    bonus[target] = bonus.get(target, 0.0) + stars / (len(info.route) - legs)
            # Legend of Kraken, the Galapagos: a die of damage or Scurvy comes with the stars.
            risk = 3.5 * self.risk if info.risky else 0.0
            for target in info.spot:
                bonus[target] = bonus.get(target, 0.0) + stars - risk
        return bonus

    def _port_value(
        self, g: UnchartedPassage, player: Player, space: Space, bonus: dict[str, float]
    ) -> float:
        """A port's worth this month: new stars (1 where the other ship anchored), missions;
        an East Asian port it cannot enter is worth less than nothing."""
        flags = player.flags
        extra = bonus.get(space.id, 0.0) + bonus.get(space.region or "", 0.0)
        if space.east_asia:
            board = g.board
            need = board["east_asia_entries"] + 1
            if (
                space.id in flags["east_asia"]
                or space.id in board["east_asia_ships"]
                or player.counters["specialties"] < need
            ):
                return -1.0
            return (space.stars or EAST_ASIA_PRESTIGE) + 3.5 - 0.9 * need + extra
        return g.arrival_prestige(player, space) + extra

    def plan(self, g: UnchartedPassage, player: Player, options: tuple[str, ...]) -> str:
        """Choose this month's destination and the numbers that get there."""
        parsed = _PARSED.get(options)
        if parsed is None:
            lines = tuple((label, parse_allocation(label)) for label in options)
            by_triple = {t: label for label, t in lines}
            fits: dict[Any, str] = {}
            parsed = _PARSED.put(options, (lines, max(sum(t) for _, t in lines), by_triple, fits))
        lines, top, by_triple, fitted = parsed
        chart = g.chart or chart_for(g.ir)
        pos = player.flags["position"]
        voyage = g.board["voyage"]
        famine = (voyage, "dock") in (g.table.handlers if g.table else {})
        voyage_card = g.cards[voyage]
        formula = _NATIVE_OF.get(voyage_card) or _NATIVE_OF.put(
            voyage_card, _pirate_native(voyage_card)
        )
        damage_table = EXPECTED_DAMAGE.get(formula, EXPECTED_DAMAGE["highest"])
        durability = player.tracks["durability"]
        health = player.tracks["health"]
        durability_left = durability.length - durability.marked or 1
        health_left = health.length - health.marked or 1
        damage_weight = 1.2 + 8.0 / durability_left
        scurvy_weight = 1.2 + 8.0 / health_left
        rope = 1 if "reinforced_rope" in player.zones["port_cards"] else 0
        struck = health.checked("declining_health")
        self.risk = damage_weight if damage_weight > scurvy_weight else scurvy_weight
        bonus = self._bonuses(g, player, chart)
        spots_seen = player.flags["spots"]
        goods = player.flags["goods"]
        bounds = g.allocation_bounds
        crew_spaces = g.crew_action_spaces
        # The best split of the numbers for one kind of destination depends only on these; the
        # same month comes up again and again over a simulation, so the answers are kept.
        usable_top = crew_spaces - struck
        buy_from, crew_rows = g.purchase_from, g.crew_rows
        month = (
            top,
            formula,
            durability_left,
            health_left,
            usable_top,
            famine,
            bounds,
            buy_from,
            crew_rows,
        )
        splits = _SPLITS.get(month)
        if splits is None:
            if len(_SPLITS) > _SPLITS_LIMIT:
                _SPLITS.clear()
            splits = _SPLITS[month] = _Splits(
                top,
                damage_table,
                damage_weight,
                scurvy_weight,
                usable_top,
                famine,
                bounds,
                buy_from,
                crew_rows,
            )
        split = splits.best
        interesting = chart.interesting
        solo = len(g.players) == 1
        best_score = -1e9
        best: tuple[int, int, int] = lines[0][1]
        best_target, best_distance = pos, 0
        high = bounds[1]
        reach = chart.reach(pos, high + rope)
        candidates = chart.legs(pos, high + rope, bounds)
        extra: list[Leg] = []
        for place in bonus:
            if place in reach and place not in interesting:
                extra.append(chart.leg(place, reach[place], bounds))
        areas = self._areas_wanted
        if areas:
            # A Pirate Infested Area wanted: its spaces in reach are destinations too.
            seen = set(chart.leg_ids(pos, high + rope, bounds))
            for leg in extra:
                seen.add(leg[0])
            for pirate in areas:
                for place in chart.infested_areas[pirate]:
                    if place in reach and place not in seen:
                        seen.add(place)
                        extra.append(chart.leg(place, reach[place], bounds))
        if extra:
            candidates = (*candidates, *extra)
        if not solo:
            candidates = tuple(
                leg for leg in candidates if leg[0] == pos or g.may_anchor(player, leg[0])
            )
        # The best mission beyond this month's reach pulls the ship its way: each place in
        # reach is worth a share of it, less for every month still to sail from there.
        goal, goal_worth = None, 1.0
        for place, worth in bonus.items():
            if worth >= goal_worth and place not in reach:
                goal, goal_worth = place, worth
        to_goal = chart.distances_to(goal).get if goal is not None else _NOWHERE.get
        pull = GOAL_PULL * goal_worth if goal is not None else 0.0
        discounts = _DISCOUNTS
        ports_seen = player.flags["ports"]
        memo_get = splits.memo.get
        bonus_of = bonus.get
        buying = self._buying
        held = len(goods)
        for (
            ident,
            kind,
            speed,
            distance,
            steps_cost,
            sea_code,
            port_code,
            region,
            stars,
            specialty,
            space,
        ) in candidates:
            base = bonus_of(ident, 0.0)
            if areas and space.infested:
                most = 0.0
                for pirate in space.infested:
                    area_worth = bonus_of(pirate, 0.0)
                    if area_worth > most:
                        most = area_worth
                base += most
            if kind >= 2:
                if kind == 3:
                    value = self._port_value(g, player, space, bonus)
                else:
                    # _port_value, inlined: this is the planner's innermost loop.
                    value = base + bonus_of(region, 0.0)
                    if ident not in ports_seen:
                        # Solo, the port's stars; else arrival_prestige (1 where the other
                        # ship anchored first).
                        value += stars if solo else g.arrival_prestige(player, space)
                if value >= 0:
                    # Goods to sell here: all but what this port sells (4 a good, split_code).
                    code = port_code
                    if held:
                        sellable = held - goods.count(specialty)
                        code += 4 * (sellable if sellable < 256 else 255)
                    choice = memo_get(code) or split(code)
                    purchase = buying.get(ident, 0.0) if buying else 0.0
                    if purchase:
                        # The wanted specialty is earned only by a Crew Action that purchases.
                        bought = memo_get(code | MUST_BUY) or split(code | MUST_BUY)
                        if bought[0] >= choice[0] - purchase:
                            choice = bought
                        else:
                            value -= purchase
                    score = (
                        value
                        + choice[0]
                        - steps_cost
                        + (pull * discounts[to_goal(ident, 99)] if pull else 0.0)
                    )
                    if score > best_score:
                        best_score, best = score, (speed, choice[1], choice[2])
                        best_target, best_distance = ident, distance
                    continue
            elif kind == 1 and ident not in spots_seen:
                base += 3.5
            choice = memo_get(sea_code) or split(sea_code)
            score = (
                base
                + choice[0]
                - steps_cost
                + (pull * discounts[to_goal(ident, 99)] if pull else 0.0)
            )
            if score > best_score:
                best_score, best = score, (speed, choice[1], choice[2])
                best_target, best_distance = ident, distance
        if best_score < 1.0:
            # Nothing worth having in reach this month: head for the best place further away.
            far = self._far_target(g, player, chart, pos, bonus)
            if far is not None:
                toward_far = chart.reach(far, 40)
                step_reach = chart.reach(pos, 4)
                nearest = min(
                    (x for x in step_reach if solo or g.may_anchor(player, x)),
                    key=lambda x: (toward_far.get(x, 99), step_reach[x]),
                    default=pos,
                )
                distance = step_reach.get(nearest, 0)
                speed = stamina = max(distance, bounds[0])
                armament = min(top - speed - stamina, high)
                if armament >= bounds[0]:
                    best = (speed, stamina, armament)
                    best_target, best_distance = nearest, distance
        self.target, self.target_distance = best_target, best_distance
        label = by_triple.get(best)
        if label is not None:
            return label
        # Not a line this card allows: the answer depends only on these, so it is kept.
        want_speed = max(min(best_distance, high), bounds[0])
        wanted = (best, want_speed, rope, formula, durability_left)
        label = fitted.get(wanted)
        if label is None:
            label = fitted[wanted] = self._fit(
                best, want_speed, rope, lines, by_triple, top, bounds, damage_table, damage_weight
            )
        return label

    @staticmethod
    def _fit(
        best: tuple[int, int, int],
        want_speed: int,
        rope: int,
        lines: tuple[tuple[str, tuple[int, int, int]], ...],
        by_triple: dict[tuple[int, int, int], str],
        top: int,
        bounds: tuple[int, int],
        damage_table: tuple[float, ...],
        damage_weight: float,
    ) -> str:
        """The allowed line nearest the numbers the captain wants (``best``)."""
        low, high = bounds
        # A restraint: fewer of the numbers it limits, the rest on Armament.
        speed = best[0]
        for stamina in range(best[1], low - 1, -1):
            for armament in range(min(top - speed - stamina, high), low - 1, -1):
                label = by_triple.get((speed, stamina, armament))
                if label is not None:
                    return label
        # A fixed-triple card or a restraint: the closest line that still gets there.
        want_stamina = best[1]

        def fit(item: tuple[str, tuple[int, int, int]]) -> float:
            s, st, ar = item[1]
            short = max(want_speed - s - rope, 0)
            return short * 10 + abs(st - want_stamina) + damage_table[ar] * damage_weight

        return min(lines, key=fit)[0]

    def _far_target(
        self, g: UnchartedPassage, player: Player, chart: Chart, pos: str, bonus: dict[str, float]
    ) -> str | None:
        far = chart.reach(pos, 40)
        best, best_value = None, 0.0
        for ident in (*chart.places_of_note, *bonus):
            distance = far.get(ident)
            if not distance or not g.may_anchor(player, ident):
                continue
            space = chart.spaces.get(ident)
            if space is None:
                continue
            if space.port:
                value = self._port_value(g, player, space, bonus)
            elif space.discovery and ident not in player.flags["spots"]:
                value = 3.5 + bonus.get(ident, 0.0)
            else:
                value = bonus.get(ident, 0.0)
            value /= 1 + distance // 5
            if value > best_value:
                best, best_value = ident, value
        return best

    # -- answering

    def decide(self, game: Game, question: Question) -> str:
        """The greedy answer to any question the flow or a card asks."""
        g = game
        assert isinstance(g, UnchartedPassage)
        player = g.players[question.player] if question.player >= 0 else g.players[self.index]
        ident = question.id
        options = question.options
        if ident == "planning.allocate":
            return self.plan(g, player, options)
        if ident in _YES:
            return "yes"
        if ident == "sailing.destination":
            target = self.target
            if target is not None and target in legal_answers(options):
                return target
            chart = g.chart or chart_for(g.ir)
            return max(options, key=lambda s: (s in chart.interesting, -options.index(s)))
        if ident == "crew.row":
            for row in ("5", "4", "6", "3", "2"):
                if row in options:
                    return row
            return options[0]
        if ident == "crew.either":
            space = (g.chart or chart_for(g.ir)).spaces[player.flags["position"]]
            sellable = len(g._sellable(player, space))
            return "sell" if "sell" in options and sellable >= 2 else options[0]
        if ident == "crew.sell":
            keep = self._needed_goods(g, player)
            for option in options:
                if option != "stop" and option not in keep:
                    return option
            return "stop"
        if ident in ("east_asia.goods", "critical_damage.abandon"):
            keep = self._needed_goods(g, player)
            goods = [o for o in options if o.startswith("specialty") and o[10:] not in keep]
            if goods:
                return goods[0]
            goods = [o for o in options if o.startswith("specialty")]
            if goods:
                return goods[0]
            cards = [o for o in options if o != "adventures_of_a_sailor"]
            return cards[0] if cards else options[0]
        if ident == "figurehead.reroll":
            return self._reroll(g, question)
        if ident == "exploration_journal.choose":
            return max(options, key=int)
        if ident == "reinforced_rope.sailing.may1":
            return "yes" if self.target_distance > player.counters["sailing_speed"] else "no"
        window = g.window
        if window is not None and ident.endswith("pirate_combat.may1"):
            return "yes" if window.q["pirate_power"] > window.q["armament"] else "no"
        if window is not None and ident.endswith("pirate_raid.may1"):
            return "yes" if window.q.get("damage", 0) >= 2 else "no"
        if ident == "missions.redraw":
            return self._redraw(g, player, options)
        if ident == "coop.missions":
            return self._coop_pick(g, options)
        if ident == "coop.give":
            return self._give(g, player, options)
        if question.kind in ("may", "play") or options == ("yes", "no"):
            return "yes"
        return options[0]

    def _needed_goods(self, g: UnchartedPassage, player: Player) -> set[str]:
        needed: set[str] = set()
        for mission in player.zones["missions"]:
            needed.update(g.mission_info(mission).needs)
        return needed

    # -- missions and sharing (2-player)

    def _mission_places(self, g: UnchartedPassage, chart: Chart, mission: str) -> list[str]:
        """The spaces a mission sends a ship to, by its data: its spot or spots, its route, the
        ports of its regions or destinations, else where its specialty is sold."""
        info = g.mission_info(mission)
        places = [*info.spot, *info.spots, *info.route]
        for target in (*info.regions, *info.to):
            if target in chart.spaces:
                places.append(target)
            else:
                places.extend(chart.ports_in(target))
        if not places and info.deliver:
            places.extend(chart.sellers(info.deliver))
        if not places and info.areas:
            places.extend(sorted(chart.infested_spaces))
        return [p for p in places if p in chart.spaces]

    def _mission_cost(self, g: UnchartedPassage, chart: Chart, mission: str, origin: str) -> int:
        """How far from ``origin`` a mission takes the ship: the farthest of the places it
        needs all of (spots, a route, regions), the nearest of those it needs one of."""
        info = g.mission_info(mission)
        far = chart.reach(origin, 64)
        if info.deliver:
            # To where the specialty is sold, then on to where it is wanted.
            return min(
                (
                    far.get(seller, 99) + _onward(chart, info, seller)
                    for seller in chart.sellers(info.deliver)
                ),
                default=99,
            )
        places = self._mission_places(g, chart, mission)
        distances = [far.get(p, 99) for p in places] or [99]
        every = info.spots or info.route or (info.regions and not info.to)
        return max(distances) if every else min(distances)

    def _mission_worth(self, g: UnchartedPassage, chart: Chart, mission: str, origin: str) -> float:
        """Stars for the sailing: a mission's reward over the months it takes to get there."""
        return g.mission_info(mission).stars / (
            1.0 + self._mission_cost(g, chart, mission, origin) / 6
        )

    def _redraw(self, g: UnchartedPassage, player: Player, options: tuple[str, ...]) -> str:
        """2-player: "you may discard 1 mission card and draw a new one of the same type".
        Discard the held mission whose unseen cards of the same type are worth the most more
        than it, for the sailing (the captain knows the cards, not the order of the pile), when
        that gain is worth a redraw's risk (``REDRAW_MARGIN``)."""
        chart = g.chart or chart_for(g.ir)
        origin = player.flags["position"]
        held = [o for o in options if o != "keep"]
        seen = {m for p in g.players for m in (*p.zones["missions"], *p.zones["accomplished"])}
        seen.update(g.board.get("public_missions") or ())
        best, best_gain = "keep", REDRAW_MARGIN
        for mission in held:
            kind = next((t for t in g.cards[mission]["tags"] if t in SOLO_MISSIONS), None)
            unseen = [
                m
                for m in g._by_kind.get("mission", [])
                if m not in seen and kind in g.cards[m]["tags"]
            ]
            if not unseen:
                continue
            expected = sum(self._mission_worth(g, chart, m, origin) for m in unseen) / len(unseen)
            gain = expected - self._mission_worth(g, chart, mission, origin)
            if gain > best_gain:
                best, best_gain = mission, gain
        return best

    def _coop_pick(self, g: UnchartedPassage, options: tuple[str, ...]) -> str:
        """Co-op: "12 missions split 6 and 6". Split them by the map: the two missions farthest
        apart start the two halves, and player 1 takes the six lying most on its side, so the
        ships sail to different ends of the world rather than the same seas."""
        chart = g.chart or chart_for(g.ir)
        plan = self._coop_plan
        if plan is None or not set(plan) & set(options):
            pool = list(options)
            home = {m: (self._mission_places(g, chart, m) or [chart.start])[0] for m in pool}
            reach = {m: chart.reach(home[m], 64) for m in pool}

            def apart(a: str, b: str) -> int:
                return reach[a].get(home[b], 99)

            pairs = [(a, b) for i, a in enumerate(pool) for b in pool[i + 1 :]]
            west, east = max(pairs, key=lambda pair: apart(*pair)) if pairs else (pool[0], pool[0])
            leaning = sorted(pool, key=lambda m: apart(m, west) - apart(m, east))
            plan = leaning[:COOP_MISSIONS_EACH]
            self._coop_plan = plan
        for mission in plan:
            if mission in options:
                return mission
        return options[0]

    def _give(self, g: UnchartedPassage, giver: Player, options: tuple[str, ...]) -> str:
        """Co-op sharing on a shared space ("freely exchange or give any Specialty Goods and/or
        Port Cards"): a specialty the other ship's mission wants and this one's does not;
        Adventures of a Sailor to the ship holding more of them (their points grow with the
        set); a card that keeps a ship afloat to the ship in worse shape that lacks one."""
        taker = next(p for p in g.players if p is not giver)
        mine = self._needed_goods(g, giver)
        theirs = self._needed_goods(g, taker)
        for option in options:
            if option.startswith("specialty:"):
                name = option.partition(":")[2]
                if name in theirs and name not in mine:
                    return option
        held = giver.zones["port_cards"]
        sailors = held.count("adventures_of_a_sailor")
        if sailors and "adventures_of_a_sailor" in options:
            other = taker.zones["port_cards"].count("adventures_of_a_sailor")
            if other > sailors or (other == sailors and taker.index < giver.index):
                return "adventures_of_a_sailor"
        for card, track in _SAVING_CARDS.items():
            if card in options and card not in taker.zones["port_cards"]:
                if _worn(taker, track) > _worn(giver, track):
                    return card
        return "done"

    def _reroll(self, g: UnchartedPassage, question: Question) -> str:
        purpose = g.dice_purpose
        values = [int(v) for v in question.prompt.split("[", 1)[1].split("]", 1)[0].split(",")]
        if purpose == "pirate":
            worst = max(range(len(values)), key=lambda i: values[i])
            return f"die{worst + 1}" if values[worst] >= 5 else "keep"
        if purpose == "raid":
            return "keep" if len(values) < 2 or abs(values[0] - values[1]) < 3 else "die1"
        low = min(range(len(values)), key=lambda i: values[i])
        return f"die{low + 1}" if values[low] <= 2 else "keep"


def _greedy(game: Game, index: int) -> Policy:
    return Greedy(game, index)


def _random(game: Game, index: int) -> Policy:
    return RandomLegal()


#: The greedy captain's patience: a goal a month further away is worth this much less.
GOAL_DISCOUNT = 0.75
#: How far a ship sails in a month at the most ("a number between 1 and 6").
SPACES_A_MONTH = 6
#: How much of a distant goal's worth a step toward it is worth now.
GOAL_PULL = 0.5
#: GOAL_DISCOUNT for a goal ``d`` spaces away, ``d`` = 0..99.
_DISCOUNTS = tuple(GOAL_DISCOUNT ** (d / SPACES_A_MONTH) for d in range(100))
#: How much more (in stars for the sailing) an unseen mission must be worth on average before
#: the greedy captain redraws.
REDRAW_MARGIN = 1.0

#: No goal: every place is out of reach of it.
_NOWHERE: dict[str, int] = {}


def _onward(chart: Chart, info: MissionInfo, seller: str) -> int:
    """Spaces from a port selling a trade mission's specialty on to its nearest destination."""
    return min((chart.distances_to(t).get(seller, 99) for t in info.to), default=0)


def _seller_worth(chart: Chart, info: MissionInfo) -> tuple[tuple[str, float], ...]:
    """A trade mission's ports that sell its specialty, each worth the stars less the voyage on
    to the destination (and the chance of no Crew Action to buy it with); kept on the mission
    for its chart."""
    cached = info.sellers_worth
    if cached is not None and cached[0] is chart:
        return cached[1]
    out = []
    for seller in chart.sellers(info.deliver or ""):
        onward = _onward(chart, info, seller)
        out.append((seller, 0.7 * info.stars * GOAL_DISCOUNT ** (onward / SPACES_A_MONTH)))
    info.sellers_worth = (chart, tuple(out))
    return info.sellers_worth[1]


#: Questions the greedy captain always answers yes.
_YES = frozenset({"crew.buy", "east_asia.offer", "rum.crew_action", "rum.scurvy_check"})

#: Port Cards that spare a ship damage or Scurvy, and the track they spare.
_SAVING_CARDS = {
    "smoke_bomb": "durability",
    "rum": "durability",
    "lime_juice": "health",
    "figurehead": "durability",
}


def _worn(player: Player, track: str) -> float:
    """How far down a track the player is (0 fresh, 1 sunk or dead)."""
    t = player.tracks[track]
    return t.marked / max(t.length, 1)


POLICIES: dict[str, Callable[[Game, int], Policy]] = {"random": _random, "greedy": _greedy}


# -- what scenarios may set and check, by the names a designer knows


def _set_flag(name: str) -> Callable[[Game, Any, Any], None]:
    def setter(g: Game, who: Any, value: Any) -> None:
        _player(g, who).flags[name] = value

    setter.__doc__ = f"Set the player's '{name}'."
    return setter


def _set_number_flag(name: str) -> Callable[[Game, Any, Any], None]:
    def setter(g: Game, who: Any, value: Any) -> None:
        _player(g, who).flags[name] = int(value)

    setter.__doc__ = f"Set the player's '{name}' (a number)."
    return setter


def _set_board(name: str) -> Callable[[Game, Any, Any], None]:
    def setter(g: Game, who: Any, value: Any) -> None:
        g.board[name] = value

    setter.__doc__ = f"Set the board's '{name}'."
    return setter


def _set_marked(track: str) -> Callable[[Game, Any, Any], None]:
    def setter(g: Game, who: Any, value: Any) -> None:
        # Boxes already marked before the scenario starts set nothing off.
        _player(g, who).tracks[track].marked = int(value)

    setter.__doc__ = f"Set how many {track} boxes are already marked."
    return setter


def _set_round(g: Game, who: Any, value: Any) -> None:
    """Set the round (month)."""
    g.round = int(value)


GIVEN: dict[str, Callable[[Game, Any, Any], None]] = {
    "position": _set_flag("position"),
    "region": _set_flag("region"),
    "in_pirate_infested_area": _set_flag("in_pirate_infested_area"),
    "distance_sailed": _set_number_flag("distance_sailed"),
    "excluded_distance": _set_number_flag("excluded_distance"),
    "round": _set_round,
    "voyage": _set_board("voyage"),
    "mid_event": _set_board("mid_event"),
    "port_card_pile": _set_board("deck:port_cards"),
    "durability_marked": _set_marked("durability"),
    "health_marked": _set_marked("health"),
}


EXPECT: dict[str, Callable[[Game, Any], Any]] = {
    "prestige": lambda g, who: _player(g, who).counters["prestige"],
    "specialties": lambda g, who: _player(g, who).counters["specialties"],
    "durability_marked": lambda g, who: _player(g, who).tracks["durability"].marked,
    "health_marked": lambda g, who: _player(g, who).tracks["health"].marked,
    "critical_damage_checked": lambda g, who: (
        _player(g, who).tracks["durability"].checked("critical_damage")
    ),
    "declining_health_checked": lambda g, who: (
        _player(g, who).tracks["health"].checked("declining_health")
    ),
    "port_cards": lambda g, who: list(_player(g, who).zones["port_cards"]),
    "missions": lambda g, who: list(_player(g, who).zones["missions"]),
    "accomplished": lambda g, who: list(_player(g, who).zones["accomplished"]),
    "position": lambda g, who: _player(g, who).flags.get("position"),
    "distance_sailed": lambda g, who: _player(g, who).flags.get("distance_sailed", 0),
    "excluded_distance": lambda g, who: _player(g, who).flags.get("excluded_distance", 0),
    "sunk": lambda g, who: bool(_player(g, who).flags.get("sunk")),
}


def _flow(g: Game) -> UnchartedPassage:
    if not isinstance(g, UnchartedPassage):
        raise RuleError("this step needs Uncharted Passage's game flow (GAME_CLASS)")
    return g


def _action_reveal(g: Game, player: Player, card: str) -> None:
    """Reveal a voyage or mid-event card."""
    _flow(g).reveal(card)


def _action_pirate_phase(
    g: Game,
    player: Player,
    voyage: str,
    armament: int | None = None,
    pirate_power: int | None = None,
) -> Context:
    """The Pirate phase against ``voyage``'s pirate."""
    return _flow(g).pirate_phase(player, voyage, armament, pirate_power)


def _action_sail(g: Game, player: Player, distance: int) -> None:
    """Sail ``distance`` spaces."""
    _flow(g).sail(player, int(distance))


def _action_dock(g: Game, player: Player, port: str) -> Context:
    """Dock at ``port``."""
    return _flow(g).dock(player, port)


def _action_anchor_at_sea(g: Game, player: Player, place: str) -> Context:
    """Anchor at ``place`` (not a port)."""
    return _flow(g).anchor_at_sea(player, place)


def _set_chart(g: Game, who: Any, value: Any) -> None:
    """Set the world map: ``stand_in`` (the flow's own small chart) or ``map`` (the data's)."""
    flow = _flow(g)
    if value == "stand_in":
        chart = stand_in_chart()
    elif value == "map":
        chart = chart_from_ir(g.ir) or stand_in_chart()
    else:
        raise RuleError(f"'{value}' is not a chart: stand_in or map")
    flow.board["chart"] = chart
    flow.chart = chart


def _set_goods(g: Game, who: Any, value: Any) -> None:
    """Set the specialties written in the player's Specialties Book."""
    player = _player(g, who)
    player.flags["goods"] = [str(v) for v in value]
    player.counters["specialties"] = len(player.flags["goods"])


def _set_set(name: str) -> Callable[[Game, Any, Any], None]:
    def setter(g: Game, who: Any, value: Any) -> None:
        _player(g, who).flags[name] = {_place_id(v) for v in value}

    setter.__doc__ = f"Set the player's '{name}' (a set of places)."
    return setter


def _set_markers(g: Game, who: Any, value: Any) -> None:
    """Ship markers already on spaces: ``{space: count}``."""
    g.board["markers"] = {_place_id(k): int(v) for k, v in value.items()}


def _set_anchored(g: Game, who: Any, value: Any) -> None:
    """Ports players already anchored at: ``{port: [player numbers]}``."""
    g.board["anchored"] = {_place_id(k): {int(n) - 1 for n in v} for k, v in value.items()}


def _set_pile(g: Game, who: Any, value: Any) -> None:
    """The voyage pile, top first (the mid-event card apart: ``mid_event_card``)."""
    g.board["pile"] = [str(v) for v in value]


def _set_missions_dealt(g: Game, who: Any, value: Any) -> None:
    """Missions are already dealt (``true``): setup leaves the zones as given."""
    g.board["missions_dealt"] = bool(value)


GIVEN.update(
    {
        "chart": _set_chart,
        "goods": _set_goods,
        "ports_visited": _set_set("ports"),
        "spots_visited": _set_set("spots"),
        "regions_docked": _set_set("regions"),
        "east_asia_entered": _set_set("east_asia"),
        "areas_visited": _set_set("areas"),
        "anchored_at": lambda g, who, value: _player(g, who).flags.__setitem__(
            "anchorages", [_place_id(v) for v in value]
        ),
        "markers": _set_markers,
        "anchored": _set_anchored,
        "pile": _set_pile,
        "mid_event_card": _set_board("mid_event_card"),
        "east_asia_entries": lambda g, who, value: g.board.__setitem__(
            "east_asia_entries", int(value)
        ),
        "public_missions": lambda g, who, value: g.board.__setitem__(
            "public_missions", [str(v) for v in value]
        ),
        "missions_dealt": _set_missions_dealt,
        "prestige_arrival": lambda g, who, value: _player(g, who).flags.__setitem__(
            "arrived", int(value)
        ),
    }
)


def _result(g: Game) -> GameResult:
    result = g.board.get("result")
    if not isinstance(result, GameResult):
        result = _flow(g).finish()
    return result


EXPECT.update(
    {
        "goods": lambda g, who: sorted(_player(g, who).flags.get("goods", [])),
        "ports_visited": lambda g, who: sorted(_player(g, who).flags.get("ports", ())),
        "spots_visited": lambda g, who: sorted(_player(g, who).flags.get("spots", ())),
        "anchored_at": lambda g, who: list(_player(g, who).flags.get("anchorages", ())),
        "areas_visited": lambda g, who: sorted(_player(g, who).flags.get("areas", ())),
        "final_score": lambda g, who: _flow(g).final_score(_player(g, who)),
        "scores": lambda g, who: _result(g).scores,
        "titles": lambda g, who: _result(g).titles,
        "winner": lambda g, who: (
            None if _result(g).winner is None else int(_result(g).winner or 0) + 1
        ),
        "team_score": lambda g, who: _result(g).team_score,
        "turn_order": lambda g, who: [p.index + 1 for p in _flow(g).turn_order()],
        "months_logged": lambda g, who: len(_flow(g).logbook[_player(g, who).index]),
        "east_asia_entries": lambda g, who: g.board.get("east_asia_entries", 0),
        "mid_event": lambda g, who: g.board.get("mid_event"),
        "voyage": lambda g, who: g.board.get("voyage"),
        "over": lambda g, who: bool(g.board.get("over")),
    }
)


def _action_setup(g: Game, player: Player) -> None:
    """Set the game up (map, voyage pile, port cards, missions)."""
    _flow(g).setup()


def _action_play_round(g: Game, player: Player) -> None:
    """Play one month, then move to the next."""
    flow = _flow(g)
    flow.play_round()
    if not flow.board.get("over"):
        flow.round += 1


def _action_play_game(g: Game, player: Player) -> None:
    """Play the game to its end."""
    g.board["result"] = _flow(g).play()


def _action_allocate(g: Game, player: Player) -> None:
    """Write this month's three numbers (the policy chooses)."""
    _flow(g).allocate(player)


def _action_sail_to(g: Game, player: Player, to: str | None = None) -> None:
    """Sail to a space (asked of the policy when ``to`` is not given)."""
    _flow(g).sail_to(player, to)


def _action_anchor(g: Game, player: Player) -> None:
    """Anchor where the ship is (Anchoring phase)."""
    _flow(g).anchor(player)


def _action_pirate_round(g: Game, player: Player, voyage: str) -> None:
    """The Pirate phase for every player."""
    _flow(g).pirate_round(voyage)


def _action_finish(g: Game, player: Player) -> None:
    """End the game: final scores, titles, the winner."""
    g.board["result"] = _flow(g).finish()


def _action_share(g: Game, player: Player) -> None:
    """Co-op sharing on a shared space."""
    _flow(g).share()


ACTIONS: dict[str, Callable[..., Context | None]] = {
    "reveal": _action_reveal,
    "pirate_phase": _action_pirate_phase,
    "sail": _action_sail,
    "dock": _action_dock,
    "anchor_at_sea": _action_anchor_at_sea,
    "setup": _action_setup,
    "play_round": _action_play_round,
    "play_game": _action_play_game,
    "allocate": _action_allocate,
    "sail_to": _action_sail_to,
    "anchor": _action_anchor,
    "pirate_round": _action_pirate_round,
    "finish": _action_finish,
    "share": _action_share,
}

NATIVES: dict[str, Callable[..., Any]] = {
    "in_pirate_infested_area": in_pirate_infested_area,
    "region_of": region_of,
    "difference": stdlib_dice.difference,
}


def _old_scurvy(g: Game, c: Context, amount: int) -> None:
    """The DSL verb scurvy_check's last step, answered by this flow's whole Scurvy Check."""
    scurvy_check(g, c)


def _old_suffer_scurvy(g: Game, c: Context, amount: int) -> None:
    """The native verb suffer_scurvy (Galapagos' "suffer Scurvy equal to the die result"),
    answered as the card read when this flow was written: Lime Juice played by name, "reduce
    the amount by up to 2", then the marks. (The DSL flow opens the scurvy window instead.)"""
    if g.play(c, "lime_juice"):
        g.mark(c, "health", max(amount - 2, 0))
    else:
        g.mark(c, "health", amount)


VERBS: dict[str, Callable[..., Any]] = {
    "raid": raid,
    "suffer_scurvy": _old_suffer_scurvy,
    "scurvy_check": scurvy_check,
    "accomplish": accomplish,
    # The cards' handlers (Famine) call the DSL verb scurvy_check of flow.cards; its steps
    # are this flow's own Scurvy Check, run once.
    "offer_rum": lambda g, c: None,
    "scurvy": _old_scurvy,
    # The rule "Critical Damage" of flow.cards: this flow's fire() runs its own critical
    # damage after the rules answering the box, so the rule's step does nothing here.
    "abandon_one": lambda g, c: True,
}
NATIVES.update({"scurvy_distance": lambda g, c: 0, "scurvy_stamina": lambda g, c: 0})

GAME_CLASS = UnchartedPassage


# -- what a scenario may name, checked at its line (engine.scenario_check) ------------------


def _charts(ir: dict[str, Any]) -> list[Chart]:
    """Both charts a scenario may play on (``chart: stand_in`` or ``map``)."""
    charts = [stand_in_chart()]
    try:
        printed = chart_from_ir(ir)
    except RuleError:
        printed = None
    return charts + ([printed] if printed is not None else [])


def _space_pool(ir: dict[str, Any]) -> list[str]:
    return [space for chart in _charts(ir) for space in chart.spaces]


def _place_pool(ir: dict[str, Any]) -> list[str]:
    """Spaces, and the places the cards name by symbol (``kraken``)."""
    return [*_space_pool(ir), *ir["vocabulary"]["symbols"]]


def _port_pool(ir: dict[str, Any]) -> list[str]:
    return [s.id for chart in _charts(ir) for s in chart.spaces.values() if s.port]


def _goods_pool(ir: dict[str, Any]) -> list[str]:
    sold = [s.specialty for c in _charts(ir) for s in c.spaces.values() if s.specialty]
    return [*sold, *(c["id"] for c in ir["cards"] if c["kind"] == "specialty")]


def _region_pool(ir: dict[str, Any]) -> list[str]:
    return [s.region for c in _charts(ir) for s in c.spaces.values() if s.region]


def _area_pool(ir: dict[str, Any]) -> list[str]:
    return [a for c in _charts(ir) for s in c.spaces.values() for a in s.infested]


POOLS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "space": _space_pool,
    "place": _place_pool,
    "port": _port_pool,
    "offered_goods": lambda ir: [f"specialty:{g}" for g in _goods_pool(ir)],
    "goods": _goods_pool,
    "region": _region_pool,
    "pirate_area": _area_pool,
}

_SPACE = Id("space", "a space of the map", _place_id)
_PORT = Id("port", "a port", _place_id)
_VOYAGE = Id("card:voyage", "a voyage card")
_MID = Id("card:mid_event", "a mid-event card")
_PORT_CARD = Id("card:port_card", "a Port Card")
_MISSION = Id("card:mission", "a mission")
_PLAYER_NO = Number(1, lambda vocab: vocab.players, "a player number")


def _boxes(track: str) -> Number:
    return Number(
        0, lambda vocab: int(vocab.ir["vocabulary"]["tracks"][track]["length"]), f"{track} boxes"
    )


GIVEN_KINDS = {
    "position": Id("place", "a place", _place_id),
    "region": Id("region", "a region"),
    "in_pirate_infested_area": Flag(),
    "distance_sailed": Number(0),
    "excluded_distance": Number(0),
    "round": Number(1),
    # Any card: revealing a card that is not a voyage is a refusal a scenario may expect.
    "voyage": Maybe(Id("card", "a card")),
    "mid_event": Maybe(Id("card", "a card")),
    "port_card_pile": Many(_PORT_CARD),
    "durability_marked": _boxes("durability"),
    "health_marked": _boxes("health"),
    "chart": Choice(("stand_in", "map"), "a chart: stand_in or map"),
    "goods": Many(Id("goods", "a specialty")),
    "ports_visited": Many(_PORT),
    "spots_visited": Many(_SPACE),
    "regions_docked": Many(Id("region", "a region")),
    "east_asia_entered": Many(_PORT),
    "areas_visited": Many(Id("pirate_area", "a pirate-infested area")),
    "anchored_at": Many(_SPACE),
    "markers": Table(_SPACE, Number(0)),
    "anchored": Table(_PORT, Many(_PLAYER_NO)),
    "pile": Many(Id("card:voyage|mid_event", "a voyage or mid-event card")),
    "mid_event_card": Id("card:mid_event", "a mid-event card"),
    "east_asia_entries": Number(0),
    "public_missions": Many(_MISSION),
    "missions_dealt": Flag(),
    "prestige_arrival": Number(0),
}
EXPECT_KINDS = {
    "prestige": Number(0),
    "specialties": Number(0),
    "durability_marked": _boxes("durability"),
    "health_marked": _boxes("health"),
    "critical_damage_checked": Number(0),
    "declining_health_checked": Number(0),
    "port_cards": Many(_PORT_CARD),
    "missions": Many(_MISSION),
    "accomplished": Many(_MISSION),
    "position": Maybe(Id("place", "a place", _place_id)),
    "distance_sailed": Number(0),
    "excluded_distance": Number(0),
    "sunk": Flag(),
    "goods": Many(Id("goods", "a specialty")),
    "ports_visited": Many(_PORT),
    "spots_visited": Many(_SPACE),
    "anchored_at": Many(_SPACE),
    "areas_visited": Many(Id("pirate_area", "a pirate-infested area")),
    "final_score": Number(0),
    "scores": Many(Number(0)),
    "titles": Many(Text()),
    "winner": Maybe(_PLAYER_NO),
    "team_score": Maybe(Number(0)),
    "turn_order": Many(_PLAYER_NO),
    "months_logged": Number(0),
    "east_asia_entries": Number(0),
    "mid_event": Maybe(_MID),
    "voyage": Maybe(_VOYAGE),
    "over": Flag(),
}
_NONE = Fields({})
ACTION_ARGS = {
    "reveal": Fields({"card": Id("card", "a card")}, ("card",), "the arguments"),
    "pirate_phase": Fields(
        {"voyage": Id("card", "a card"), "armament": Number(0), "pirate_power": Number(0)},
        ("voyage",),
        "the arguments",
    ),
    "sail": Fields({"distance": Number(0)}, ("distance",), "the arguments"),
    "dock": Fields({"port": _SPACE}, ("port",), "the arguments"),
    "anchor_at_sea": Fields(
        {"place": Id("place", "a place", _place_id)}, ("place",), "the arguments"
    ),
    "setup": _NONE,
    "play_round": _NONE,
    "play_game": _NONE,
    "allocate": _NONE,
    "sail_to": Fields({"to": Maybe(_SPACE)}, (), "the arguments"),
    "anchor": _NONE,
    "pirate_round": Fields({"voyage": Id("card", "a card")}, ("voyage",), "the arguments"),
    "finish": _NONE,
    "share": _NONE,
}
EVENT_KINDS = {"place": Id("place", "a place", _place_id), "port": _SPACE}
_YES_NO = ("yes", "no")
#: The flow's own questions (the cards' come from the IR): id -> (what it asks, its answers:
#: fixed words, a pool of ids, or None when the flow lists them as it asks).
QUESTIONS: dict[str, tuple[str, tuple[str, ...] | str | None]] = {
    "rum.scurvy_check": ("Rum: apply your struck-out Crew Stamina to the Scurvy Check?", _YES_NO),
    "figurehead.reroll": ("Figurehead: reroll one die? (no, or the die's position)", None),
    "coop.missions": ("Co-op: choose a mission for player 1", None),
    "missions.redraw": ("Discard one private mission and draw another of its type?", None),
    "planning.allocate": ("Sailing Speed/Crew Stamina/Armament, as 'speed/stamina/armament'", None),
    "sailing.destination": ("Sail to a space within reach", "space"),
    "east_asia.offer": ("offer specialties to enter an East Asian port?", _YES_NO),
    "east_asia.goods": ("a specialty to offer: specialty:NAME", "offered_goods"),
    "rum.crew_action": ("Rum: take the Crew Action of your struck-out Crew Stamina?", _YES_NO),
    "crew.row": ("Crew Action row (1 to 6)", None),
    "crew.either": ("Purchase or sell?", None),
    "crew.buy": ("Purchase the port's specialty?", _YES_NO),
    "crew.sell": ("Sell a specialty (or stop)", None),
    "coop.give": ("Co-op: give a specialty or Port Card to the other player", None),
    "exploration_journal.use": ("Exploration Journal: roll 2 dice and choose one?", _YES_NO),
    "exploration_journal.choose": ("Keep a die", None),
    "critical_damage.abandon": ("Critical damage: abandon a specialty or a Port Card", None),
}


# -- for bench/: a simulator of the compiled game that plays this flow instead of flow.cards


def simulator(folder: Any) -> Any:
    """An :class:`engine.sim.Simulator` of the compiled game in ``folder`` whose games are
    played by this hand-written flow (its class, natives, verbs and policies), over the same
    IR, handlers and World Map as the DSL flow's."""
    import importlib

    from engine import sim
    from engine.api import implementations

    simulator = sim.Simulator(folder)
    rules = simulator.rules
    if rules is None:
        raise RuleError(f"{folder}: the game has no natives module to take its map from")
    bind_map(importlib.import_module(f"{rules.__package__}.map"))
    simulator.rules = sys.modules[__name__]
    simulator.implementations = implementations(simulator.rules)
    return simulator
