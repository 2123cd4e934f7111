"""Darwin's Journey: Pirates: the expansion's board, its verbs, and the base game as a host.

The Pirates rulebook describes a mini-expansion; the base game's own rules (the Research
Museum, workers, Objective tiles, Campsite rewards) are in no rulebook here. The expansion's
cards reach them through :class:`DarwinHost`, the exact set of base-game operations the
expansion calls, so a real implementation of the base game can be plugged in, and tests use
:class:`RecordingHost`, which only records what was asked of it.

Board state kept here (``g.board``): the Treasure tokens on each Campsite, the Pirate Ship's
Ocean Region (``None`` while it is "near the main board", in the supply), and the tokens
returned to the box. Each player's ship region is ``player.flags["ship_region"]``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from engine.runtime import Context, Game, Player, Question, RuleError
from engine.scenario_types import Fields, Id, Many, Maybe, Number, Text

#: The part of the Ocean track that holds the starting space: "An Ocean Region is the area
#: between lagging penalties, not including the area with the Ocean track starting space", so a
#: ship here is in no Ocean Region and never shares one with the Pirate Ship.
STARTING_AREA = "starting_area"

#: The question ``move_pirate_ship`` asks the active player's policy.
MOVE_PIRATE_SHIP = "move_pirate_ship.region"


def ocean_regions(g: Game) -> list[str]:
    """The Ocean Regions the Pirate Ship may be placed in, in track order.

    Their number is the ``ocean_regions`` param of game.cards, marked @provisional there: the
    base game's Ocean track, where the lagging penalties are printed, is not in this rulebook.
    """
    return [f"ocean_region_{n}" for n in range(1, int(g.params["ocean_regions"]) + 1)]


def campsites(g: Game) -> list[str]:
    """The Campsite locations of the Island and Ocean tracks (``campsites`` param, provisional)."""
    return [f"campsite_{n}" for n in range(1, int(g.params["campsites"]) + 1)]


# -- the base game, as the expansion sees it -------------------------------------------------


class DarwinHost(Protocol):
    """The base-game operations the Pirates expansion's cards call, and nothing else.

    Each is called for the player whose card is being used; any choice inside the operation
    (which specimen, which worker, which tiles, which Campsite) is the base game's to ask.
    """

    def research_specimen(self, player: Player, ignore_coin_penalty: bool) -> None:
        """Perform one Research Museum Specimen action "as explained in the base game rules".

        With ``ignore_coin_penalty`` the action is performed "ignoring any Coin penalties"
        (Pirate Crew P1): the base game must not charge the Coins it otherwise would. Crew P1
        calls this once per action it grants, up to twice.
        """
        ...

    def return_worker(self, player: Player) -> None:
        """Return one placed worker of the player's colour to their personal board.

        Pirate Crew P2: "The player returns any placed worker of their color to any empty worker
        slot on their personal board. The worker may be placed again later in the current round
        following normal worker placement rules."
        """
        ...

    def take_objectives(self, player: Player, up_to: int) -> None:
        """Let the player take between 0 and ``up_to`` Objective tiles from the discard pile.

        Pirate Crew P3: "The player may gain up to 2 Objective tiles from anywhere in the
        Objective discard pile." The tiles may come from anywhere in the pile, not only its top.
        """
        ...

    def campsite_rewards(self, player: Player) -> None:
        """Give the player every reward of one Campsite of their choice, at no cost.

        Pirate Crew P4: "The player gains all the rewards associated with any Campsite on the
        board. The player ignores all costs and does not place a Tent. A Campsite may be chosen
        even if all its Tent sites are occupied." This is not landing on the Campsite: it does
        not discover Treasure.
        """
        ...


class HostCall(NamedTuple):
    """One call into the host: the operation, the player's index, its keyword arguments."""

    operation: str
    player: int
    arguments: dict[str, Any]


@dataclass
class RecordingHost:
    """A stand-in for the base game that records each call and changes nothing."""

    calls: list[HostCall] = field(default_factory=list)

    def research_specimen(self, player: Player, ignore_coin_penalty: bool) -> None:
        """Record a Research Museum Specimen action."""
        self.calls.append(
            HostCall(
                "research_specimen", player.index, {"ignore_coin_penalty": ignore_coin_penalty}
            )
        )

    def return_worker(self, player: Player) -> None:
        """Record a worker returned to the player's board."""
        self.calls.append(HostCall("return_worker", player.index, {}))

    def take_objectives(self, player: Player, up_to: int) -> None:
        """Record Objective tiles offered from the discard pile."""
        self.calls.append(HostCall("take_objectives", player.index, {"up_to": up_to}))

    def campsite_rewards(self, player: Player) -> None:
        """Record a Campsite's rewards given without costs or a Tent."""
        self.calls.append(HostCall("campsite_rewards", player.index, {}))


# -- the game -----------------------------------------------------------------------------


@dataclass
class DarwinsJourney(Game):
    """The Pirates expansion's flow, on top of a base game reached through ``host``."""

    host: DarwinHost = field(default_factory=RecordingHost)

    def __post_init__(self) -> None:
        super().__post_init__()
        sites = campsites(self)
        if len(sites) > int(self.params["treasure_tokens"]):
            raise RuleError(
                f"{len(sites)} Campsites but only {self.params['treasure_tokens']} "
                "Treasure tokens: setup places 1 on each"
            )
        # "Place 1 Treasure token onto each Campsite location on the Island and Ocean tracks."
        self.board["treasure"] = {site: 1 for site in sites}
        # "Place the Pirate Ship near the main board": in the supply, in no Ocean Region.
        self.board["pirate_region"] = None
        self.board["treasure_in_box"] = 0
        for player in self.players:
            player.flags["ship_region"] = STARTING_AREA

    def rule_cards(self) -> list[str]:
        """The ids of the expansion's rules, which answer triggers for every player."""
        return [cid for cid, card in self.cards.items() if card["kind"] in self.always_in_force]

    def reward_phase_end(self) -> Context:
        """End a Reward Phase: "After each Reward Phase" the Pirate Raid happens."""
        return self.fire("reward_phase_end", self.players[0], cards=self.rule_cards())

    def reach_campsite(self, player: Player, campsite: str) -> Context:
        """The player's Ship or Explorer lands on or passes ``campsite``: Discovering Treasure."""
        if campsite not in self.board["treasure"]:
            raise RuleError(
                f"'{campsite}' is not a Campsite: Treasure is discovered only at Campsite "
                "locations; Campsites: " + ", ".join(self.board["treasure"])
            )
        return self.fire(
            "campsite_reached", player, cards=self.rule_cards(), event={"campsite": campsite}
        )

    def setup_diary(self) -> list[str]:
        """Main Board Setup of the Special Action Diary: six tiles, top locations first.

        "only draw 5 random Special Action tiles. Then add the Pirate Special Action tile and
        shuffle all 6 tiles before placing them on the board." A tile with
        ``unlocked_at_start`` goes "on one of the top locations ... Then randomly place the
        other 5". The 5 base game tiles are the host's; they stand here as placeholders.
        """
        expansion = [cid for cid, c in self.cards.items() if c["kind"] == "action_tile"]
        first = [t for t in expansion if self.cards[t]["properties"].get("unlocked_at_start")]
        rest = [t for t in expansion if t not in first]
        rest += [f"base_tile_{n}" for n in range(1, 6 + 1 - len(expansion))]
        self.shuffle(rest)
        if first:
            top = int(self.params["diary_top_locations"])
            slot = self.rng.randrange(top)
            diary = rest[:slot] + first + rest[slot:]
        else:
            diary = rest
        self.board["diary"] = diary
        self.log("diary", 0, ", ".join(diary))
        return diary

    def unlocked_at_start(self) -> list[str]:
        """The tiles on the Diary's top locations: the actions open from the first round."""
        return self.board.get("diary", [])[: int(self.params["diary_top_locations"])]

    def activate_tile(self, player: Player, tile_id: str) -> Context:
        """The player performs the special action of the tile ``tile_id``."""
        self._expect_kind(tile_id, "action_tile")
        return self.run(tile_id, "activate", player)

    def use_crew(self, player: Player, crew_id: str) -> Context:
        """The player uses the crew card ``crew_id``."""
        self._expect_kind(crew_id, "crew")
        return self.run(crew_id, "use", player)

    def _expect_kind(self, card: str, kind: str) -> None:
        found = self.cards.get(card)
        if found is None or found["kind"] != kind:
            known = sorted(cid for cid, c in self.cards.items() if c["kind"] == kind)
            # In the kinds' own words: "'misty_strait' is a Location on the way ..., not an
            # Encounter card".
            kinds = self.ir["vocabulary"]["kinds"]
            what = kinds.get(found["kind"], {}).get("doc", found["kind"]) if found else "no card"
            wanted = kinds.get(kind, {}).get("doc", kind)
            raise RuleError(f"'{card}' is {what}, not {wanted}; {kind}s: {', '.join(known)}")


def _game(g: Game) -> DarwinsJourney:
    if not isinstance(g, DarwinsJourney):
        raise RuleError("Darwin's Journey verbs need the game built by engine.loader.new_game")
    return g


# -- natives ------------------------------------------------------------------------------


def treasure_at(g: Game, c: Context, campsite: str) -> bool:
    """True while a Treasure token lies on ``campsite``."""
    if not isinstance(campsite, str):  # a card may pass anything to an `any` parameter
        raise RuleError(f"treasure_at takes a campsite, not {campsite!r}")
    return bool(g.board["treasure"].get(campsite, 0))


def ship_region(g: Game, c: Context, player: Player) -> str:
    """The Ocean Region of the player's Ship, or the starting area (in no Ocean Region)."""
    return str(player.flags.get("ship_region", STARTING_AREA))


def pirate_region(g: Game, c: Context) -> str | None:
    """The Ocean Region of the Pirate Ship; None while it is in the supply."""
    region = g.board.get("pirate_region")
    return None if region is None else str(region)


NATIVES = {
    "treasure_at": treasure_at,
    "ship_region": ship_region,
    "pirate_region": pirate_region,
}


# -- verbs --------------------------------------------------------------------------------


def take_treasure(g: Game, c: Context, campsite: str) -> None:
    """Take the Treasure token from ``campsite`` and "place it near their personal board"."""
    if not treasure_at(g, c, campsite):
        raise RuleError(f"no Treasure token lies on {campsite}")
    g.board["treasure"][campsite] = 0
    g.gain(c, "treasure", 1)
    g.log("take_treasure", c.player.index, campsite)


def move_pirate_ship(g: Game, c: Context) -> None:
    """Place the Pirate Ship in the Ocean Region the active player chooses.

    "They take it either from the supply or the board and place it onto an Ocean Region of the
    active player's choice." Every Ocean Region is offered, its current one included (leaving it
    there is a legal placement); the starting area is not an Ocean Region.
    """
    regions = ocean_regions(g)
    question = Question(
        MOVE_PIRATE_SHIP,
        c.player.index,
        "Place the Pirate Ship in which Ocean Region?",
        tuple(regions),
        rule="the Pirate Ship is placed onto an Ocean Region; the starting area is not one"
        if regions
        else "",
    )
    region = g.ask(c.player, question)
    g.board["pirate_region"] = region
    g.log("pirate_ship", c.player.index, region)


def return_treasure(g: Game, c: Context) -> None:
    """Return all of the player's Treasure tokens "back to the box" (out of the game)."""
    returned = c.player.counters["treasure"]
    g.board["treasure_in_box"] += returned
    c.player.counters["treasure"] = 0
    g.log("return_treasure", c.player.index, returned)


def research_specimen(g: Game, c: Context, ignoring: str | None = None) -> None:
    """Host: one Research Museum Specimen action, ignoring Coin penalties when told so."""
    _game(g).host.research_specimen(c.player, ignore_coin_penalty=ignoring == "coin_penalties")


def return_worker(g: Game, c: Context) -> None:
    """Host: return a placed worker to an empty worker slot on the player's board."""
    _game(g).host.return_worker(c.player)


def take_objectives(g: Game, c: Context, amount: int) -> None:
    """Host: take up to ``amount`` Objective tiles from the Objective discard pile."""
    _game(g).host.take_objectives(c.player, up_to=int(amount))


def campsite_rewards(g: Game, c: Context) -> None:
    """Host: all the rewards of one Campsite, ignoring costs and placing no Tent."""
    _game(g).host.campsite_rewards(c.player)


VERBS = {
    "take_treasure": take_treasure,
    "move_pirate_ship": move_pirate_ship,
    "return_treasure": return_treasure,
    "research_specimen": research_specimen,
    "return_worker": return_worker,
    "take_objectives": take_objectives,
    "campsite_rewards": campsite_rewards,
}

GAME_CLASS = DarwinsJourney


# -- scenarios ----------------------------------------------------------------------------


def _region(g: Game, value: Any) -> str | None:
    if value is None:
        return None
    region = str(value)
    if region not in ocean_regions(g):
        raise RuleError(
            f"'{region}' is not an Ocean Region: the Pirate Ship is placed onto an Ocean Region, "
            "and the starting area is not one; regions: " + ", ".join(ocean_regions(g))
        )
    return region


def _need_player(player: Player | None, what: str) -> Player:
    if player is None:
        raise RuleError(f"'{what}' belongs to a player: give it under 'player' or 'players'")
    return player


def _given_pirate_region(g: Game, player: Player | None, value: Any) -> None:
    g.board["pirate_region"] = _region(g, value)


def _given_ship_region(g: Game, player: Player | None, value: Any) -> None:
    region = STARTING_AREA if value in (None, STARTING_AREA) else _region(g, value)
    _need_player(player, "ship_region").flags["ship_region"] = region


def _given_treasure_on(g: Game, player: Player | None, value: Any) -> None:
    sites = [str(v) for v in value]
    unknown = [s for s in sites if s not in g.board["treasure"]]
    if unknown:
        raise RuleError(f"not Campsites: {', '.join(unknown)}")
    g.board["treasure"] = {site: int(site in sites) for site in g.board["treasure"]}


GIVEN = {
    "pirate_region": _given_pirate_region,
    "ship_region": _given_ship_region,
    "treasure_on": _given_treasure_on,
}


def _host_calls(g: Game, player: Player | None) -> list[str]:
    host = _game(g).host
    calls = host.calls if isinstance(host, RecordingHost) else []
    return [call.operation for call in calls if player is None or call.player == player.index]


EXPECT = {
    "pirate_region": lambda g, player: pirate_region(g, Context(g.players[0], "", "")),
    "ship_region": lambda g, player: _need_player(player, "ship_region").flags["ship_region"],
    "treasure_on": lambda g, player: sorted(s for s, n in g.board["treasure"].items() if n),
    "treasure_in_box": lambda g, player: g.board["treasure_in_box"],
    "host_calls": _host_calls,
    "unlocked_at_start": lambda g, player: _game(g).unlocked_at_start(),
}

#: Steps a scenario may name (``action: reach_campsite`` with ``args: {campsite: ...}``).
ACTIONS = {
    "reward_phase_end": lambda g, player: _game(g).reward_phase_end(),
    "reach_campsite": lambda g, player, campsite: _game(g).reach_campsite(player, campsite),
    "activate_tile": lambda g, player, tile: _game(g).activate_tile(player, tile),
    "use_crew": lambda g, player, crew: _game(g).use_crew(player, crew),
    "setup_diary": lambda g, player: _game(g).setup_diary() and None,
}


# -- what a scenario may name, checked at its line (engine.scenario_check) ------------------


def _numbered(prefix: str, param: str) -> Callable[[dict[str, Any]], list[str]]:
    def pool(ir: dict[str, Any]) -> list[str]:
        count = int(ir["vocabulary"]["params"].get(param, 0))
        return [f"{prefix}_{n}" for n in range(1, count + 1)]

    return pool


POOLS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "ocean_region": _numbered("ocean_region", "ocean_regions"),
    "campsite": _numbered("campsite", "campsites"),
    "ship_place": lambda ir: [STARTING_AREA, *_numbered("ocean_region", "ocean_regions")(ir)],
    # Any place of the tracks: reaching one that is no Campsite is a refusal, not a typo.
    "place": lambda ir: [
        STARTING_AREA,
        *_numbered("ocean_region", "ocean_regions")(ir),
        *_numbered("campsite", "campsites")(ir),
    ],
    # The Special Action Diary: the expansion's tiles and the base game's five stand-ins.
    "diary_tile": lambda ir: [
        *(c["id"] for c in ir["cards"] if c["kind"] == "action_tile"),
        *(f"base_tile_{n}" for n in range(1, 6)),
    ],
}

_REGION = Id("ocean_region", "an Ocean Region")
GIVEN_KINDS = {
    # The starting area is a place, so a Pirate Ship given there is the rules' refusal (which a
    # scenario may expect), not a typo.
    "pirate_region": Maybe(Id("ship_place", "an Ocean Region or the starting area")),
    "ship_region": Maybe(Id("ship_place", "an Ocean Region or the starting area")),
    "treasure_on": Many(Id("campsite", "a Campsite")),
}
EXPECT_KINDS = {
    **GIVEN_KINDS,
    "pirate_region": Maybe(_REGION),
    "treasure_in_box": Number(0),
    "host_calls": Many(Text()),
    "unlocked_at_start": Many(Id("diary_tile", "a Special Action tile")),
}
# Card arguments name any card: the flow itself refuses one of the wrong kind (a scenario may
# expect that refusal), while a name that is no card at all is the scenario's own mistake.
ACTION_ARGS = {
    "reward_phase_end": Fields({}),
    "reach_campsite": Fields({"campsite": Id("place", "a place")}, ("campsite",)),
    "activate_tile": Fields({"tile": Id("card", "a card")}, ("tile",)),
    "use_crew": Fields({"crew": Id("card", "a card")}, ("crew",)),
    "setup_diary": Fields({}),
}
EVENT_KINDS = {"campsite": Id("place", "a place")}
QUESTIONS: dict[str, tuple[str, tuple[str, ...] | str | None]] = {
    MOVE_PIRATE_SHIP: ("Place the Pirate Ship in which Ocean Region?", "ship_place"),
}
