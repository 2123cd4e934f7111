"""Darwin's Journey: Pirates, over a small modelled Darwin's Journey (the host).

The Pirates rulebook describes a mini-expansion; the base game's rulebook is not here. The
base game is modelled from what the Pirates rulebook names (rounds of worker placement and
Reward Phases, the Island and Ocean tracks with Campsites, Ships and Explorers moving along
them, Coins and victory points, Crew cards, the Special Action Diary and its tiles, Research
Museum specimens, Objective tiles, Tents, lagging penalties and Ocean Regions). Its components
are data (``cards/darwins_journey/board.cards``, ``host.cards``, ``crew.cards``), its numbers
``@provisional`` there; ``cards/darwins_journey/HOST.md`` says what is modelled and invented.

The order of play is DSL (``flow.cards``: the setup, the rounds with their worker placement,
Reward Phase and Pirate Raid, the final scoring and the winner), played by
:class:`engine.flow.FlowGame`, which :class:`DarwinsJourney` subclasses for the board's state;
so are the host's conditions and arithmetic (``host.cards``: a Campsite's Tent, a Specimen
action). What is here is what the DSL cannot say: the board's state (Treasure on Campsites,
the Pirate Ship, Tents, placed workers, the Diary, the decks and piles), movement along the
tracks, the choices among cards and places, and the scenario steps.

The two-way host contract (HOST.md has the full table):

- **host -> expansion**: the host fires ``campsite_reached`` (event ``campsite``) for every
  Campsite a Ship or Explorer lands on or passes (:func:`navigate`, :func:`explore`);
  ``reward_phase_end`` after each Reward Phase (the flow's ``pirate_raid`` phase);
  ``activate`` for a Special Action tile (:func:`special_action`); ``use`` for a hired Crew
  card (:func:`hire_crew`); ``board_setup`` during its Main Board Setup (the flow); and its
  Diary setup adds every Special Action tile that is not the base game's
  (:func:`draw_diary_tiles`).
- **expansion -> host**: the operations of :class:`DarwinHost` (a Specimen action, return a
  worker, Objective tiles from the discard pile, a Campsite's rewards), and what it reads
  (:func:`ship_region`, the Ocean Regions the Pirate Ship may go to, Coins and victory points).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from engine.flow import FlowGame
from engine.runtime import Context, Game, Player, Question, RuleError
from engine.scenario_types import PLAYER, Fields, Id, Many, Maybe, Number, Table, Text, Unordered

from . import board as geometry  # noqa: F401 - for tests: rules_module(...).geometry
from . import policy
from .board import (
    CAMPSITE_REWARDS,
    CARD_CHECKS,  # noqa: F401 - cardc check runs them (engine.api)
    EXPLORE_SPACES,
    HIRE_CREW,
    KEEP_OBJECTIVE,
    LANE,
    MOVE_PIRATE_SHIP,
    NAVIGATE_SPACES,
    PLACE_WORKER,
    RETURN_WORKER,
    SPECIAL_ACTION,
    STOP,
    TAKE_OBJECTIVE,
    TENT,
    campsite_on,
    campsites,
    cards_of,
    diary_problem,
    names,
    ocean_regions,
    param,
    pirate_region,
    prop,
    scenario_region,
    section_at,
    sections,
    ship_region,
    starting_section,
    treasure_at,
    validate_board,
)

# -- the base game, as the expansion sees it -------------------------------------------------


class DarwinHost(Protocol):
    """The base-game operations the Pirates expansion's cards call (expansion -> host).

    A fuller implementation of the base game replaces the modelled one by offering these
    (plus the triggers it fires, see the module's docstring). Each is called for the acting
    player; any choice inside (which worker, which tiles, which Campsite) is the host's to ask.
    """

    def research_specimen(self, g: Game, c: Context, ignoring: str | None) -> None:
        """One Research Museum Specimen action "as explained in the base game rules"; with
        ``ignoring == "coin_penalties"`` no Coin penalty is charged (Crew P1)."""

    def return_worker(self, g: Game, c: Context) -> None:
        """Crew P2: a placed worker of the player's back to an empty slot of their board, to
        be placed again this round following normal worker placement rules."""

    def take_objectives(self, g: Game, c: Context, amount: int) -> None:
        """Crew P3: up to ``amount`` Objective tiles from anywhere in the discard pile."""

    def campsite_rewards(self, g: Game, c: Context) -> None:
        """Crew P4: all rewards of any Campsite, no costs, no Tent, full Campsites too."""


def _game(g: Game) -> DarwinsJourney:
    if not isinstance(g, DarwinsJourney):
        raise RuleError("Darwin's Journey verbs need the game built by engine.loader.new_game")
    return g


class ModelledHost:
    """The modelled base game's side of the contract (see :class:`DarwinHost`)."""

    def research_specimen(self, g: Game, c: Context, ignoring: str | None) -> None:
        """The Specimen action of the modelled base game: the DSL verb ``specimen_action``
        (host.cards: its Coin penalty, the specimen and its victory points)."""
        _dsl_verb_of(g, "specimen_action")(g, c, ignoring)

    def return_worker(self, g: Game, c: Context) -> None:
        """Take one placed worker of the player's off its location, back to their board."""
        dj = _game(g)
        placed = dj.placed(c.player)
        if not placed:
            g.log("return_worker", c.player.index, "none placed")
            return
        question = Question(
            RETURN_WORKER, c.player.index, "Return which placed worker?", tuple(placed)
        )
        location = g.ask(c.player, question)
        placed.remove(location)
        c.player.counters["workers_ready"] += 1
        g.log("return_worker", c.player.index, location)

    def take_objectives(self, g: Game, c: Context, amount: int) -> None:
        """Up to ``amount`` tiles, each chosen from anywhere in the Objective discard pile."""
        pile = g.board["objective_discard"]
        for _ in range(max(int(amount), 0)):
            if not pile:
                break
            question = Question(
                TAKE_OBJECTIVE,
                c.player.index,
                "Take which Objective tile from the discard pile?",
                (STOP, *pile),
            )
            tile = g.ask(c.player, question)
            if tile == STOP:
                break
            pile.remove(tile)
            c.player.zones["objectives"].append(tile)
            g.log("take_objective", c.player.index, tile)
            g.log("draw", c.player.index, "objectives", 1, [tile])

    def campsite_rewards(self, g: Game, c: Context) -> None:
        """Any Campsite's rewards: no cost, no Tent, its Tent sites full or not."""
        question = Question(
            CAMPSITE_REWARDS,
            c.player.index,
            "Gain the rewards of which Campsite?",
            tuple(campsites(g)),
        )
        site = g.ask(c.player, question)
        g.log("campsite_rewards", c.player.index, site)
        g.run(site, "campsite_reward", c.player)


# -- the game -----------------------------------------------------------------------------


class DarwinsJourney(FlowGame):
    """The modelled base game with the Pirates expansion in play, played by its flow
    (``flow.cards``: the setup, the rounds, the final scoring, the winner).

    ``board`` holds: ``treasure`` (Campsite -> tokens), ``pirate_region`` (None while the
    Pirate Ship is "near the main board"), ``treasure_in_box``, ``tents_on`` (Campsite ->
    player indexes), ``placed`` (player index -> locations holding their workers), ``diary``
    (Special Action tiles, top first) and ``unlocked`` (how many are unlocked), the Crew deck,
    display and discard, the Objective pile and discard pile, and the Beagle Goal and
    Correspondence tiles in play.
    """

    #: Rules always answer; the board's goal tiles and a player's Objective tiles score.
    always_in_force: tuple[str, ...] = ("rule", "layer")

    def __post_init__(self) -> None:
        super().__post_init__()
        self.host: DarwinHost = ModelledHost()
        validate_board(self)
        sites = campsites(self)
        # A scenario starts from the board as the expansion's setup leaves it, one Treasure
        # token on each Campsite ("Place 1 Treasure token onto each Campsite location"), so a
        # rule case of Discovering Treasure needs no setup first; none where no rule places
        # them (the no_pirates variant). The flow's setup places them again: the same board.
        placed = int(self._rules_call("board_setup", "place_treasure_tokens"))
        self.board.update(
            treasure={site: placed for site in sites},
            pirate_region=None,
            treasure_in_box=0,
            tents_on={site: [] for site in sites},
            placed={p.index: [] for p in self.players},
            diary=[],
            unlocked=0,
            crew_deck=[],
            crew_display=[],
            crew_discard=[],
            objective_pile=[],
            objective_discard=[],
            goal_tiles=[],
        )
        workers = param(self, "workers")
        for player in self.players:
            player.counters["workers_ready"] = workers
            player.flags["lane"] = None
        #: Figures a designer compares with and without the Pirates (bench/sim_dj.py).
        self.figures = {"raid_coins": 0, "raid_points": 0, "treasure_taken": 0, "raids": 0}

    def _rules_call(self, trigger: str, verb: str) -> bool:
        """True when a rule's ``on trigger`` calls ``verb`` (the compiled cards' statements)."""

        def calls(body: Any) -> bool:
            if isinstance(body, dict):
                found = body.get("kind") == "verb" and body.get("verb") == verb
                return found or any(calls(value) for value in body.values())
            return isinstance(body, list) and any(calls(item) for item in body)

        return any(
            calls(card["triggers"][trigger].get("body"))
            for card in self.cards.values()
            if card["kind"] == "rule" and trigger in card.get("triggers", {})
        )

    # -- what answers triggers

    def cards_in_force(self, player: Player) -> list[str]:
        """Rules, the Beagle Goal and Correspondence tiles in play, the player's cards."""
        return [*super().cards_in_force(player), *self.board["goal_tiles"]]

    def rule_cards(self) -> list[str]:
        """The rules (the expansion's), which answer the host's triggers for every player."""
        return [cid for cid, card in self.cards.items() if card["kind"] in self.always_in_force]

    def placed(self, player: Player) -> list[str]:
        """The action locations holding this player's workers this round."""
        placed: list[str] = self.board["placed"][player.index]
        return placed

    def unlocked_tiles(self) -> list[str]:
        """The Special Action tiles on unlocked locations of the Diary, top first."""
        tiles: list[str] = self.board["diary"][: self.board["unlocked"]]
        return tiles

    def fire(
        self,
        trigger: str,
        player: Player,
        cards: Any = None,
        event: dict[str, Any] | None = None,
        quantities: dict[str, int] | None = None,
    ) -> Context:
        """Fire as every game does; after a Reward Phase, count what the raid took (the
        figures bench/sim_dj.py compares with and without the Pirates)."""
        if trigger != "reward_phase_end":
            return super().fire(trigger, player, cards, event, quantities)
        here = self.board["pirate_region"]
        before = [(p.counters["coins"], p.counters["victory_points"]) for p in self.players]
        c = super().fire(trigger, player, cards, event, quantities)
        for other, (coins, points) in zip(self.players, before, strict=True):
            if here is not None and ship_region(self, c, other) == here:
                self.figures["raids"] += 1
            self.figures["raid_coins"] += max(coins - other.counters["coins"], 0)
            self.figures["raid_points"] += max(points - other.counters["victory_points"], 0)
        return c

    # -- scenario steps

    def reach_campsite(self, player: Player, campsite: str) -> Context:
        """The player's Ship or Explorer lands on or passes ``campsite``: the host's call."""
        if campsite not in self.board["treasure"]:
            raise RuleError(
                f"'{campsite}' is not a Campsite: Treasure is discovered only at Campsite "
                "locations; Campsites: " + ", ".join(self.board["treasure"])
            )
        return self.fire(
            "campsite_reached", player, cards=self.rule_cards(), event={"campsite": campsite}
        )

    def activate_tile(self, player: Player, tile_id: str) -> Context:
        """The player performs the special action of the tile ``tile_id``."""
        self._expect_kind(tile_id, "action_tile")
        return self.run(tile_id, "activate", player)

    def use_crew(self, player: Player, crew_id: str) -> Context:
        """The player uses the crew card ``crew_id`` (a ``play`` event, as cardc sim's
        per-card figures count a card played)."""
        self._expect_kind(crew_id, "crew")
        self.log("play", player.index, crew_id)
        return self.run(crew_id, "use", player)

    def _expect_kind(self, card: str, kind: str) -> None:
        found = self.cards.get(card)
        if found is None or found["kind"] != kind:
            known = sorted(cid for cid, c in self.cards.items() if c["kind"] == kind)
            kinds = self.ir["vocabulary"]["kinds"]
            what = kinds.get(found["kind"], {}).get("doc", found["kind"]) if found else "no card"
            wanted = kinds.get(kind, {}).get("doc", kind)
            raise RuleError(f"'{card}' is {what}, not {wanted}; {kind}s: {', '.join(known)}")


# -- natives ------------------------------------------------------------------------------


def pirate_ship_in_supply(g: Game, c: Context) -> bool:
    """True while the Pirate Ship is "near the main board", in the supply: in no Ocean Region
    (before anyone moves it; pirate_region() then gives none, which a card cannot name)."""
    return g.board["pirate_region"] is None


def ship_section(g: Game, c: Context) -> int:
    """The number of the map section the acting player's Ship is in (1: the starting one)."""
    return section_at(g, c.player.counters["ship_space"]).index


def _campsite(g: Game, site: Any) -> str:
    """``site`` when it is a Campsite; a rule error naming the Campsites otherwise."""
    if not isinstance(site, str) or site not in g.board["tents_on"]:
        raise RuleError(f"{site!r} is not a Campsite; Campsites: " + ", ".join(g.board["tents_on"]))
    return site


def free_tent_sites(g: Game, c: Context, site: str) -> int:
    """The Tent sites of ``site`` no Tent occupies yet."""
    site = _campsite(g, site)
    return int(prop(g, site, "tent_sites")) - len(g.board["tents_on"][site])


def cost_of(g: Game, c: Context, place: str) -> int:
    """What a Tent on a Campsite, or a worker on an action location, costs (its ``cost``;
    0 for a card that has none)."""
    return int(prop(g, place, "cost", 0) or 0)


def holds_own_worker(g: Game, c: Context, location: str) -> bool:
    """True when one of the acting player's workers is on ``location`` this round."""
    return location in g.board["placed"][c.player.index]


def seat(g: Game, c: Context, player: Player) -> int:
    """The player's seat number, 1 for the first seat."""
    return player.index + 1


def player_count(g: Game, c: Context) -> int:
    """How many players the game seats."""
    return len(g.players)


def lagging_penalties_behind(g: Game, c: Context, player: Player) -> int:
    """The lagging penalties (one between each two map sections) ahead of the player's Ship."""
    return len(sections(g)) - section_at(g, player.counters["ship_space"]).index


NATIVES: dict[str, Callable[..., Any]] = {
    "treasure_at": treasure_at,
    "ship_region": ship_region,
    "pirate_region": pirate_region,
    "pirate_ship_in_supply": pirate_ship_in_supply,
    "ship_section": ship_section,
    "lagging_penalties_behind": lagging_penalties_behind,
    "free_tent_sites": free_tent_sites,
    "cost_of": cost_of,
    "holds_own_worker": holds_own_worker,
    "seat": seat,
    "player_count": player_count,
}


# -- the expansion's verbs ------------------------------------------------------------------


def take_treasure(g: Game, c: Context, campsite: str) -> None:
    """Take the Treasure token from ``campsite`` and "place it near their personal board"."""
    if not treasure_at(g, c, campsite):
        raise RuleError(f"no Treasure token lies on {campsite}")
    g.board["treasure"][campsite] = 0
    g.gain(c, "treasure", 1)
    _game(g).figures["treasure_taken"] += 1
    g.log("take_treasure", c.player.index, campsite)


def move_pirate_ship(g: Game, c: Context) -> None:
    """Place the Pirate Ship in the Ocean Region the active player chooses.

    "They take it either from the supply or the board and place it onto an Ocean Region of the
    active player's choice." Every Ocean Region the Compatibility diagram marks OK is offered,
    its current one included; the area with the Ocean track starting space is not one.
    """
    question = Question(
        MOVE_PIRATE_SHIP,
        c.player.index,
        "Place the Pirate Ship in which Ocean Region?",
        tuple(ocean_regions(g)),
        rule="the Pirate Ship is placed onto an Ocean Region; the starting area is not one, "
        "nor a map section the Compatibility diagram marks NO",
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


def place_treasure_tokens(g: Game, c: Context) -> None:
    """ "Place 1 Treasure token onto each Campsite location on the Island and Ocean tracks."""
    for site in g.board["treasure"]:
        g.board["treasure"][site] = 1
    g.log("treasure_placed", 0, len(g.board["treasure"]))


def shuffle_into_crew_deck(g: Game, c: Context, module: str) -> None:
    """ "Shuffle the Pirate Crew cards with the base game Crew cards": every Crew card of the
    module (tagged so) joins the Crew deck, which is then shuffled."""
    cards = [cid for cid in cards_of(g, "crew") if module in g.cards[cid]["tags"]]
    g.board["crew_deck"].extend(cards)
    g.shuffle(g.board["crew_deck"])
    g.log("crew_shuffled_in", 0, ", ".join(cards))


# -- the host's operations the expansion calls (through DarwinHost) --------------------------


def research_specimen(g: Game, c: Context, ignoring: str | None = None) -> None:
    """Host: one Research Museum Specimen action, ignoring Coin penalties when told so."""
    _game(g).host.research_specimen(g, c, ignoring)


def return_worker(g: Game, c: Context) -> None:
    """Host: return a placed worker to an empty worker slot on the player's board."""
    _game(g).host.return_worker(g, c)


def take_objectives(g: Game, c: Context, amount: int) -> None:
    """Host: take up to ``amount`` Objective tiles from the Objective discard pile."""
    _game(g).host.take_objectives(g, c, int(amount))


def campsite_rewards(g: Game, c: Context) -> None:
    """Host: all the rewards of one Campsite, ignoring costs and placing no Tent."""
    _game(g).host.campsite_rewards(g, c)


# -- the host's own verbs -------------------------------------------------------------------


def shuffle_objective_pile(g: Game, c: Context) -> None:
    """The Objective tiles, shuffled face down, as the Objective pile; its discard pile empty."""
    board = g.board
    board["objective_pile"] = cards_of(g, "objective")
    g.shuffle(board["objective_pile"])
    board["objective_discard"] = []


def draw_goal_tiles(g: Game, c: Context, tag: str) -> None:
    """As many goal tiles of one kind (``beagle_goal``, ``correspondence``) as the board holds,
    drawn at random onto it."""
    pool = [t for t in cards_of(g, "goal_tile") if tag in g.cards[t]["tags"]]
    g.shuffle(pool)
    drawn = pool[: param(g, "goal_tiles_on_board")]
    g.board["goal_tiles"] = [*g.board["goal_tiles"], *drawn]
    g.log("goal_tiles", 0, ", ".join(drawn))


def goal_tiles_from_scenario_card(g: Game, c: Context) -> None:
    """The Beagle Goal and Correspondence tiles the Scenario card shows."""
    card = _scenario_card(g)
    g.board["goal_tiles"] = [
        *names(g, card, "beagle_goal_tiles"),
        *names(g, card, "correspondence_tiles"),
    ]
    g.log("goal_tiles", 0, ", ".join(g.board["goal_tiles"]))


def deal_crew_deck(g: Game, c: Context, tag: str) -> None:
    """The Crew cards of one set (``base``: the base game's) as the Crew deck."""
    g.board["crew_deck"] = [cid for cid in cards_of(g, "crew") if tag in g.cards[cid]["tags"]]


def _scenario_card(g: Game) -> str:
    """The Pirate Scenario card (the game uses it: ``use_pirate_scenario``)."""
    cards = cards_of(g, "scenario_card")
    if not cards:
        raise RuleError("use_pirate_scenario is 1 but the game has no Scenario card")
    return cards[0]


def diary_from_scenario_card(g: Game, c: Context) -> None:
    """The Special Action tiles the Scenario card shows, placed in Diary order (top first)."""
    _place_diary(g, names(g, _scenario_card(g), "special_action_tiles"))


def pirate_ship_from_scenario_card(g: Game, c: Context) -> None:
    """The Pirate Ship "placed into the Ocean Region shown with the X" on the Scenario card."""
    # cardc check has refused a region the Pirate Ship may not go to (CARD_CHECKS).
    # A section printed in two parts is its part marked OK (board.scenario_region).
    pirate = scenario_region(sections(g), str(prop(g, _scenario_card(g), "pirate_region")))
    g.board["pirate_region"] = pirate
    g.log("pirate_ship", 0, pirate)


def draw_diary_tiles(g: Game, c: Context, size: int) -> None:
    """Random base game tiles for the ``size`` Diary locations the modules' own tiles leave,
    the modules' tiles added, all shuffled and placed; a tile with ``unlocked_at_start`` goes
    on a random one of the top locations, the others at random around it."""
    tiles = cards_of(g, "action_tile")
    modules = [t for t in tiles if "base" not in g.cards[t]["tags"]]
    base = [t for t in tiles if t not in modules]
    first = [t for t in modules if prop(g, t, "unlocked_at_start")]
    top = param(g, "diary_top_locations")
    # cardc check refuses this of the cards; a simulation's --param diary_size is checked here.
    problem = diary_problem(modules, first, int(size), top, len(base))
    if problem is not None:
        raise RuleError(problem)
    g.shuffle(base)
    drawn = base[: int(size) - len(modules)]
    rest = [*drawn, *(t for t in modules if t not in first)]
    g.shuffle(rest)
    if first:
        # Every tile unlocked at the start lies on a top location: they go together at a
        # random place among the top locations where all of them fit.
        slot = int(g.rng.random() * (top - len(first) + 1))
        rest = rest[:slot] + first + rest[slot:]
    _place_diary(g, rest)


def _place_diary(g: Game, diary: list[str]) -> None:
    g.board["diary"] = diary
    g.log("diary", 0, ", ".join(diary))


def setup_crew_deck(g: Game, c: Context) -> None:
    """The Crew deck (base cards, and those the modules shuffled in) and its face-up display."""
    g.shuffle(g.board["crew_deck"])
    _refill_crew(g)


def _refill_crew(g: Game) -> None:
    display, deck = g.board["crew_display"], g.board["crew_deck"]
    # Provisional: the Pirates rulebook is silent on a Crew deck used up (the base game's
    # rule is not in it); the display is left short, nothing reshuffled.
    while len(display) < param(g, "crew_display") and deck:
        display.append(deck.pop(0))


def unlock_diary_locations(g: Game, c: Context, count: int) -> None:
    """The Diary's first ``count`` locations unlocked (no more than it holds tiles)."""
    g.board["unlocked"] = max(min(int(count), len(g.board["diary"])), 0)
    g.log("unlocked", 0, ", ".join(_game(g).unlocked_tiles()))


def _legal_locations(g: Game, c: Context) -> list[str]:
    """The action locations the DSL's ``may_place_worker_on`` (host.cards) allows."""
    table = g.table
    allowed = getattr(table.module, "df_may_place_worker_on", None) if table else None
    if allowed is None:
        raise RuleError("the game's handlers have no 'may_place_worker_on': run 'cardc build'")
    return [loc for loc in cards_of(g, "action_location") if allowed(g, c, loc)]


def place_worker(g: Game, c: Context) -> None:
    """Place a worker from the player's board on an action location, pay, do its action.

    Normal worker placement (modelled): a location the player has no worker on this round,
    whose cost they can pay. A player with no legal location keeps the worker for the round.
    """
    player = c.player
    if player.counters["workers_ready"] <= 0:
        raise RuleError(f"{player.name} has no worker left on their personal board")
    legal = _legal_locations(g, c)
    if not legal:
        player.counters["workers_ready"] = 0
        g.log("no_location", player.index)
        return
    question = Question(
        PLACE_WORKER, player.index, "Place a worker on which location?", tuple(legal)
    )
    location = g.ask(player, question)
    player.counters["workers_ready"] -= 1
    _game(g).placed(player).append(location)
    cost = int(prop(g, location, "cost", 0))
    if cost:
        g.lose(c, "coins", cost)
    g.log("worker", player.index, location)
    g.run(location, "visit", player)


def take_back_workers(g: Game, c: Context) -> None:
    """The player's placed workers leave their locations (the flow puts them back on the
    player's board)."""
    g.board["placed"][c.player.index] = []


def _dsl_verb_of(g: Game, name: str) -> Callable[..., Any]:
    """The handler of a verb the game writes in the DSL (``dv_NAME`` of its handlers)."""
    table = g.table
    function = getattr(table.module, f"dv_{name}", None) if table is not None else None
    if function is None:
        raise RuleError(f"the game's handlers have no DSL verb '{name}': run 'cardc build'")
    return function  # type: ignore[no-any-return]


def _move(g: Game, c: Context, track: str, steps: int) -> None:
    """Move the player's Ship (``ocean``) or Explorer (``island``) up to ``steps`` spaces.

    Every Campsite the piece lands on or passes is discovered on the way, in order (the
    expansion's ``campsite_reached``), so its Coins can pay the costs later in the action;
    landing on a Campsite, the player may then pay its cost to place a Tent and gain its
    rewards (the base game's Campsite, as modelled).
    """
    counter = "ship_space" if track == "ocean" else "explorer_space"
    player = c.player
    room = int(g.counter_bounds[counter][1] or 0) - player.counters[counter]
    most = min(max(int(steps), 0), room)
    if most <= 0:
        g.log("cannot_move", player.index, track)
        return
    ident = NAVIGATE_SPACES if track == "ocean" else EXPLORE_SPACES
    options = tuple(str(n) for n in range(most, 0, -1))
    moved = int(g.ask(player, Question(ident, player.index, "Move how many spaces?", options)))
    dj = _game(g)
    for _ in range(moved):
        player.counters[counter] += 1
        space = player.counters[counter]
        if track == "ocean" and section_at(g, space).split and player.flags.get("lane") is None:
            lane = g.ask(
                player,
                Question(
                    LANE, player.index, "Sail the upper or the lower part?", ("upper", "lower")
                ),
            )
            player.flags["lane"] = lane
        site = campsite_on(g, track, space)
        if site is not None:
            dj.reach_campsite(player, site)
    g.log("move", player.index, track, player.counters[counter])
    site = campsite_on(g, track, player.counters[counter])
    if site is not None:
        _dsl_verb_of(g, "offer_tent")(g, c, site)


def refuse_specimen(g: Game, c: Context) -> None:
    """The Specimen action is not performed: its Coin penalty cannot be paid."""
    g.log("specimen_refused", c.player.index, "coins")


def pitch_tent(g: Game, c: Context, site: str) -> None:
    """One of the player's Tents on a free Tent site of ``site`` (counted in their ``tents``),
    and the Campsite's rewards. With every Tent site of ``site`` occupied, or no Tent left to
    the player, nothing is placed or gained: a card may call this verb on any Campsite (the
    host's own ``offer_tent`` asks only where a Tent fits), and a Tent beyond the sites, or one
    the player's count missed (the Reward Phase pays for each Tent), broke the board."""
    site = _campsite(g, site)
    player = c.player
    if free_tent_sites(g, c, site) <= 0:
        g.log("no_tent", player.index, site, "its Tent sites are all occupied")
        return
    if player.counters["tents"] >= param(g, "tents_per_player"):
        g.log("no_tent", player.index, site, "no Tent left")
        return
    g.board["tents_on"][site].append(player.index)
    g.gain(c, "tents", 1)
    g.log("tent", player.index, site)
    g.run(site, "campsite_reward", player)


def navigate(g: Game, c: Context, steps: int) -> None:
    """Navigating: move the Ship up to ``steps`` spaces along the Ocean track."""
    _move(g, c, "ocean", steps)


def explore(g: Game, c: Context, steps: int) -> None:
    """Exploring: move the Explorer up to ``steps`` spaces along the Island track."""
    _move(g, c, "island", steps)


def hire_crew(g: Game, c: Context) -> None:
    """Hire a face-up Crew card of the display, use it at once, refill the display."""
    display = g.board["crew_display"]
    if not display:
        g.log("hire_crew", c.player.index, "none left")
        return
    question = Question(HIRE_CREW, c.player.index, "Hire which Crew card?", tuple(display))
    card = g.ask(c.player, question)
    display.remove(card)
    c.player.zones["crew_hired"].append(card)
    g.log("hire", c.player.index, card)
    # As the prelude's draw logs it: cardc sim's per-card figures count the Crew cards hired.
    g.log("draw", c.player.index, "crew_hired", 1, [card])
    _refill_crew(g)
    _game(g).use_crew(c.player, card)


def draw_objectives(g: Game, c: Context) -> None:
    """Draw Objective tiles, keep one, put the others on the Objective discard pile."""
    pile = g.board["objective_pile"]
    drawn = [pile.pop(0) for _ in range(min(param(g, "objectives_drawn"), len(pile)))]
    # Provisional: the Pirates rulebook is silent on an Objective pile used up; it is not
    # refilled from the discard pile, and the action draws none.
    if not drawn:
        g.log("objectives", c.player.index, "none left")
        return
    question = Question(KEEP_OBJECTIVE, c.player.index, "Keep which Objective tile?", tuple(drawn))
    kept = g.ask(c.player, question)
    c.player.zones["objectives"].append(kept)
    g.board["objective_discard"].extend(t for t in drawn if t != kept)
    g.log("objective", c.player.index, kept)
    g.log("draw", c.player.index, "objectives", 1, [kept])


def special_action(g: Game, c: Context) -> None:
    """Activate one Special Action tile on an unlocked location of the Diary."""
    tiles = _game(g).unlocked_tiles()
    if not tiles:
        g.log("special_action", c.player.index, "none unlocked")
        return
    question = Question(
        SPECIAL_ACTION,
        c.player.index,
        "Activate which Special Action tile?",
        tuple(tiles),
        rule="only the tiles on unlocked locations of the Special Action Diary",
    )
    tile = g.ask(c.player, question)
    _game(g).activate_tile(c.player, tile)


VERBS: dict[str, Callable[..., Any]] = {
    "take_treasure": take_treasure,
    "move_pirate_ship": move_pirate_ship,
    "return_treasure": return_treasure,
    "place_treasure_tokens": place_treasure_tokens,
    "shuffle_into_crew_deck": shuffle_into_crew_deck,
    "research_specimen": research_specimen,
    "return_worker": return_worker,
    "take_objectives": take_objectives,
    "campsite_rewards": campsite_rewards,
    "shuffle_objective_pile": shuffle_objective_pile,
    "draw_goal_tiles": draw_goal_tiles,
    "goal_tiles_from_scenario_card": goal_tiles_from_scenario_card,
    "deal_crew_deck": deal_crew_deck,
    "diary_from_scenario_card": diary_from_scenario_card,
    "pirate_ship_from_scenario_card": pirate_ship_from_scenario_card,
    "draw_diary_tiles": draw_diary_tiles,
    "setup_crew_deck": setup_crew_deck,
    "unlock_diary_locations": unlock_diary_locations,
    "place_worker": place_worker,
    "take_back_workers": take_back_workers,
    "pitch_tent": pitch_tent,
    "refuse_specimen": refuse_specimen,
    "navigate": navigate,
    "explore": explore,
    "hire_crew": hire_crew,
    "draw_objectives": draw_objectives,
    "special_action": special_action,
}

GAME_CLASS = DarwinsJourney

#: Each player for themself ("every player whose Ship is in the same Ocean Region as the Pirate
#: Ship will be raided"; the host's winner is the most victory points), or one player alone:
#: never a co-op team (cardc sim --mode coop summed every seat's victory points as one team's).
MODES = ("solo", "competitive")

#: ``cardc sim darwins_journey --policy random|greedy`` (policy.py).
POLICIES = policy.POLICIES


# -- scenarios: given, expect and steps by the names a designer knows -----------------------


def _region(g: Game, value: Any) -> str | None:
    if value is None:
        return None
    region = str(value)
    if region not in ocean_regions(g):
        # "not including the area with the Ocean track starting space"; any other area
        # refused is one the Compatibility diagram marks NO (a Fireland upper part).
        why = (
            "the starting area is not one"
            if region == starting_section(g).id
            else "the Compatibility diagram marks this one NO"
        )
        raise RuleError(
            f"'{region}' is not an Ocean Region the Pirate Ship may go to: the Pirate Ship is "
            f"placed onto an Ocean Region, and {why}; regions: " + ", ".join(ocean_regions(g))
        )
    return region


def _given_pirate_region(g: Game, player: Player | None, value: Any) -> None:
    g.board["pirate_region"] = _region(g, value)


def _given_treasure_on(g: Game, player: Player | None, value: Any) -> None:
    sites = [str(v) for v in value]
    unknown = [s for s in sites if s not in g.board["treasure"]]
    if unknown:
        raise RuleError(f"not Campsites: {', '.join(unknown)}")
    g.board["treasure"] = {site: int(site in sites) for site in g.board["treasure"]}


def _given_list(key: str) -> Callable[[Game, Player | None, Any], None]:
    def given(g: Game, player: Player | None, value: Any) -> None:
        g.board[key] = [str(v) for v in value]

    return given


def _given_placed(g: Game, player: Player | None, value: Any) -> None:
    if player is None:
        raise RuleError("'placed' belongs to a player: give it under 'player' or 'players'")
    g.board["placed"][player.index] = [str(v) for v in value]


def _given_tents_on(g: Game, player: Player | None, value: Any) -> None:
    for site, seats in dict(value).items():
        g.board["tents_on"][str(site)] = [int(s) - 1 for s in seats]


def _given_lane(g: Game, player: Player | None, value: Any) -> None:
    if player is None:
        raise RuleError("'lane' belongs to a player: give it under 'player' or 'players'")
    player.flags["lane"] = None if value is None else str(value)


def _given_unlocked(g: Game, player: Player | None, value: Any) -> None:
    g.board["unlocked"] = int(value)


GIVEN = {
    "pirate_region": _given_pirate_region,
    "treasure_on": _given_treasure_on,
    "diary": _given_list("diary"),
    "unlocked": _given_unlocked,
    "crew_display": _given_list("crew_display"),
    "crew_deck": _given_list("crew_deck"),
    "objective_pile": _given_list("objective_pile"),
    "objective_discard": _given_list("objective_discard"),
    "goal_tiles": _given_list("goal_tiles"),
    "tents_on": _given_tents_on,
    "placed": _given_placed,
    "lane": _given_lane,
}


def _expect_player(get: Callable[[Game, Player], Any]) -> Callable[[Game, Player | None], Any]:
    def expect(g: Game, player: Player | None) -> Any:
        if player is None:
            raise RuleError("this belongs to a player: expect it under 'player' or 'players'")
        return get(g, player)

    return expect


def _play_game(g: Game, player: Player) -> None:
    """The rest of the game by its flow, from the state the scenario gave (not set up again:
    ``action: setup`` first sets it up): each round from the current one (its Reward Phase
    and the Pirate Raid after it), the flow's ``end when`` after every phase, then the final
    scoring and the winner."""
    dj = _game(g)
    dj.set_up = True
    dj.play()


def _winner(g: Game, player: Player | None) -> int | None:
    """The seat the flow's winner rule names on the scores as they stand (most victory
    points, then most Coins); None when still tied, or in a game of one."""
    winner = _game(g).result().winner
    return None if winner is None else int(winner) + 1


EXPECT = {
    "pirate_region": lambda g, player: pirate_region(g, Context(g.players[0], "", "")),
    "ship_region": _expect_player(lambda g, p: ship_region(g, Context(p, "", ""), p)),
    # The Campsites holding a token, the Crew deck and the Objective discard pile are compared
    # in any order: a scenario lists them as it likes.
    "treasure_on": lambda g, player: Unordered(
        sorted(s for s, n in g.board["treasure"].items() if n)
    ),
    "treasure_in_box": lambda g, player: g.board["treasure_in_box"],
    "unlocked_tiles": lambda g, player: _game(g).unlocked_tiles(),
    # The tiles on the Diary's top locations: those unlocked at the start of the game.
    "unlocked_at_start": lambda g, player: g.board["diary"][: param(g, "diary_top_locations")],
    "diary": lambda g, player: list(g.board["diary"]),
    # The Diary's locations unlocked so far, the Objective pile (top first) and a Ship's
    # lane: given and expected alike (EXPECT_KINDS takes every GIVEN_KINDS key).
    "unlocked": lambda g, player: g.board["unlocked"],
    "objective_pile": lambda g, player: list(g.board["objective_pile"]),
    "lane": _expect_player(lambda g, p: p.flags.get("lane")),
    "crew_deck": lambda g, player: Unordered(sorted(g.board["crew_deck"])),
    "crew_display": lambda g, player: list(g.board["crew_display"]),
    "objective_discard": lambda g, player: Unordered(sorted(g.board["objective_discard"])),
    "goal_tiles": lambda g, player: list(g.board["goal_tiles"]),
    "tents_on": lambda g, player: {
        site: [s + 1 for s in seats] for site, seats in g.board["tents_on"].items() if seats
    },
    "placed": _expect_player(lambda g, p: list(_game(g).placed(p))),
    "pirate_regions": lambda g, player: ocean_regions(g),
    # Who wins (a seat; null: tied on victory points and Coins), and why the game ended:
    # "rounds", "end_when" (a house rule's end condition) or an end_game reason.
    "winner": _winner,
    "end_reason": lambda g, player: _game(g).reason,
}


def _section(name: str) -> Callable[[Game, Player], None]:
    """A scenario step that runs one section of the flow (``setup``, one ``round``, ``end``)."""

    def step(g: Game, player: Player) -> None:
        _game(g).run_section(name)

    return step


def _phase(name: str) -> Callable[[Game, Player], None]:
    """A scenario step that runs one phase of the flow (``pirate_raid``)."""

    def step(g: Game, player: Player) -> None:
        _game(g).run_phase(name)

    return step


def _dsl_verb(name: str) -> Callable[..., Any]:
    """A scenario step that runs a verb the game writes in the DSL (flow.cards)."""

    def step(g: Game, player: Player) -> Context:
        c = Context(player, "", name)
        _dsl_verb_of(g, name)(g, c)
        return c

    return step


def _verb(name: str) -> Callable[..., Any]:
    """A scenario step that runs a verb natives.py implements; when the game (a variant's
    ``verbs:``) gives that verb a DSL body, the step runs that body, as every card and phase
    calling the verb does ("A verb that game.cards declares and Python implements may be given
    a DSL body the same way", README). A scenario's ``action: move_pirate_ship`` under a house
    rule redefining it played the base game's Python instead."""
    fn = VERBS[name]

    def step(g: Game, player: Player, **args: Any) -> Context:
        c = Context(player, "", name)
        table = g.table
        redefined = getattr(table.module, f"dv_{name}", None) if table is not None else None
        (redefined or fn)(g, c, *args.values())
        return c

    return step


#: Steps a scenario may name (``action: reach_campsite`` with ``args: {campsite: ...}``).
ACTIONS = {
    "setup": _section("setup"),
    "play_round": _section("round"),
    "final_scoring": _section("end"),
    # "After each Reward Phase": the flow's phase that fires reward_phase_end.
    "reward_phase_end": _phase("pirate_raid"),
    # The phases by the rulebook's names for them: "Pirate Raid" (its heading) and the Reward
    # Phase it comes after ("After each Reward Phase").
    "pirate_raid": _phase("pirate_raid"),
    "reward_phase": _phase("reward_phase"),
    # "Moving the Pirate Ship": the active player places it in an Ocean Region of their choice
    # (move_pirate_ship.region), as Discovering Treasure and the Pirate tile let them.
    "move_pirate_ship": _verb("move_pirate_ship"),
    # The Crew Quarters' action: hire a Crew card of the display and use it at once.
    "hire_crew": _verb("hire_crew"),
    "reach_campsite": lambda g, player, campsite: _game(g).reach_campsite(player, campsite),
    "activate_tile": lambda g, player, tile: _game(g).activate_tile(player, tile),
    "use_crew": lambda g, player, crew: _game(g).use_crew(player, crew),
    "place_worker": _verb("place_worker"),
    "navigate": _verb("navigate"),
    "explore": _verb("explore"),
    "setup_diary": _dsl_verb("setup_diary"),
    "unlock_diary": _dsl_verb("unlock_diary"),
    "special_action": _verb("special_action"),
    # Any one phase of the flow by its name, a variant's own phases included (a house rule
    # that inserts a phase is tested by running it).
    "phase": lambda g, player, name: _game(g).run_phase(name, player),
    # The whole game on from the given state, to its end and its winner.
    "play_game": _play_game,
}


# -- what a scenario may name, checked at its line (engine.scenario_check) ------------------


def _kind(kind: str) -> Callable[[dict[str, Any]], list[str]]:
    def pool(ir: dict[str, Any]) -> list[str]:
        return [c["id"] for c in ir["cards"] if c["kind"] == kind]

    return pool


def _regions(ir: dict[str, Any]) -> list[str]:
    out = []
    for card in ir["cards"]:
        if card["kind"] != "map_section":
            continue
        props = card["properties"]
        if "upper_pirate" in props or "lower_pirate" in props:
            out += [f"{card['id']}_upper", f"{card['id']}_lower"]
        else:
            out.append(card["id"])
    return out


POOLS: dict[str, Callable[[dict[str, Any]], list[str]]] = {
    "region": _regions,
    "campsite": _kind("campsite"),
    "action_tile": _kind("action_tile"),
    "crew": _kind("crew"),
    "objective": _kind("objective"),
    "goal_tile": _kind("goal_tile"),
    "location": _kind("action_location"),
    # Any place of the tracks: reaching one that is no Campsite is a refusal, not a typo.
    "place": lambda ir: [*_regions(ir), *_kind("campsite")(ir), *_kind("action_location")(ir)],
    "lane": lambda ir: ["upper", "lower"],
    "phase": lambda ir: [
        phase["name"]
        for section in (ir.get("flow") or {}).get("sections", [])
        for phase in section.get("phases", [])
    ],
}

_REGION = Id("region", "an area of the Ocean track")
GIVEN_KINDS = {
    # Any area of the Ocean track, the starting one included, so a Pirate Ship given there
    # is the rules' refusal (which a scenario may expect), not a typo.
    "pirate_region": Maybe(_REGION, "the Pirate Ship in the supply, near the main board"),
    "treasure_on": Many(Id("campsite", "a Campsite")),
    "diary": Many(Id("action_tile", "a Special Action tile")),
    "unlocked": Number(0),
    "crew_display": Many(Id("crew", "a Crew card")),
    "crew_deck": Many(Id("crew", "a Crew card")),
    "objective_pile": Many(Id("objective", "an Objective tile")),
    "objective_discard": Many(Id("objective", "an Objective tile")),
    "goal_tiles": Many(Id("goal_tile", "a Beagle Goal or Correspondence tile")),
    # Seats of the scenario's players (a seat 3 in a game of 1 was taken, then never played).
    "tents_on": Table(Id("campsite", "a Campsite"), Many(PLAYER)),
    "placed": Many(Id("location", "an action location")),
    "lane": Maybe(Id("lane", "upper or lower")),
}
#: Keys that are a player's: given or expected under 'player' / 'players' only.
PLAYER_KEYS = frozenset({"placed", "lane", "ship_region"})
EXPECT_KINDS = {
    **GIVEN_KINDS,
    "ship_region": _REGION,
    "treasure_in_box": Number(0),
    "unlocked_tiles": Many(Id("action_tile", "a Special Action tile")),
    "unlocked_at_start": Many(Id("action_tile", "a Special Action tile")),
    "pirate_regions": Many(_REGION),
    "winner": Maybe(PLAYER),
    "end_reason": Maybe(Text()),
}
# Card arguments name any card: the flow itself refuses one of the wrong kind (a scenario may
# expect that refusal), while a name that is no card at all is the scenario's own mistake.
ACTION_ARGS = {
    "setup": Fields({}),
    "play_round": Fields({}),
    "final_scoring": Fields({}),
    "reward_phase_end": Fields({}),
    "pirate_raid": Fields({}),
    "reward_phase": Fields({}),
    "move_pirate_ship": Fields({}),
    "hire_crew": Fields({}),
    "reach_campsite": Fields({"campsite": Id("place", "a place")}, ("campsite",)),
    "activate_tile": Fields({"tile": Id("card", "a card")}, ("tile",)),
    "use_crew": Fields({"crew": Id("card", "a card")}, ("crew",)),
    "place_worker": Fields({}),
    "navigate": Fields({"steps": Number(0)}, ("steps",)),
    "explore": Fields({"steps": Number(0)}, ("steps",)),
    "setup_diary": Fields({}),
    "unlock_diary": Fields({}),
    "special_action": Fields({}),
    "phase": Fields({"name": Id("phase", "a phase of the flow")}, ("name",)),
    "play_game": Fields({}),
}
EVENT_KINDS = {"campsite": Id("place", "a place")}
QUESTIONS: dict[str, tuple[str, tuple[str, ...] | str | None]] = {
    MOVE_PIRATE_SHIP: ("Place the Pirate Ship in which Ocean Region?", "region"),
    PLACE_WORKER: ("Place a worker on which location?", "location"),
    NAVIGATE_SPACES: ("Move how many spaces?", None),
    EXPLORE_SPACES: ("Move how many spaces?", None),
    LANE: ("Sail the upper or the lower part?", ("upper", "lower")),
    TENT: ("Pay the Campsite's cost to place a Tent?", ("yes", "no")),
    HIRE_CREW: ("Hire which Crew card?", "crew"),
    KEEP_OBJECTIVE: ("Keep which Objective tile?", "objective"),
    TAKE_OBJECTIVE: ("Take which Objective tile from the discard pile?", None),
    RETURN_WORKER: ("Return which placed worker?", "location"),
    SPECIAL_ACTION: ("Activate which Special Action tile?", "action_tile"),
    CAMPSITE_REWARDS: ("Gain the rewards of which Campsite?", "campsite"),
}
