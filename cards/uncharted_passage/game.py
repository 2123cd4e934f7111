"""Uncharted Passage: Remastered: the board state and the rules around its cards.

The cards (``cards/uncharted_passage/``) say what each voyage, port card, mission and mid-event
does, and ``flow.cards`` says in what order a game runs; this module holds the state the DSL
cannot hold and the steps that read the map or ask the captains: the Pirate's Raid and Scurvy
windows, accomplishing a mission, the Pirate phase, sailing, docking and anchoring, East Asia,
Crew Actions, critical damage and sinking. Quoted sentences are from the rulebook
(``uncharted-passage-remastered.txt``).

Per player, ``player.flags`` holds

- ``position``: the space the ship is on (a port or place name, as the cards name it);
- ``region``: the region of that space, when the map cannot say;
- ``in_pirate_infested_area``: whether that space is next to a pirate icon;
- ``distance_sailed``: spaces sailed this round;
- ``excluded_distance``: of those, the spaces Reinforced Rope keeps out of the Scurvy Check;
- ``sunk``: the track whose last box sank the ship.

Shared state in ``g.board``: ``voyage`` (this month's voyage card), ``mid_event`` (once
revealed), ``regions`` (place -> region), ``pirate_infested_area`` (the spaces next to a pirate
icon), ``deck:port_cards`` (the port card pile).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from engine.flow import FlowGame, flow_of
from engine.runtime import (
    Context,
    Game,
    GameEnded,
    ObjectCache,
    Player,
    Question,
    RuleError,
)
from engine.words import counted, with_article

from .map import MAP_SOURCE, Chart, Space, chart_for
from .map import place_id as _place_id

#: The Crew Action reference table's numbered spaces 1 to 6, when the data has no table (the
#: flow reads the highest row of the ``crew_actions`` table card).
CREW_ACTION_SPACES = 6

#: The answer to the critical-damage question that abandons a specialty, not a Port Card.
ABANDON_SPECIALTY = "specialty"


def _player(g: Game, who: Player | int | None) -> Player:
    """The player a hook is about; ``None`` (a scenario's top level) is the first player."""
    if isinstance(who, Player):
        return who
    return g.players[who or 0]


# -- the rules' steps the cards and the flow share


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
    # 2-player: "Public Mission Cards can be claimed by either player; the first player to
    # complete the requirement takes the card. Once claimed, it is no longer available to the
    # other player." The card leaves the public missions for the player who took it.
    public = g.board.get("public_missions")
    if public and mission in public:
        public.remove(mission)
    player.zones["accomplished"].append(mission)
    g.log("accomplish", player.index, mission)
    grant_reward(g, c.for_card(mission), mission, g.cards[mission]["properties"].get("reward"))
    g.run(mission, "accomplish", player)


def grant_reward(g: Game, c: Context, card: str, reward: Any) -> None:
    """A card's reward, read from its ``reward`` property (``stars 3, die, port_cards 1``) and
    given by the DSL verb ``reward`` (flow.cards): "gain 1 Prestige Point for each star. If a die
    is depicted, gain additional points equal to the number rolled. Gain 1 Port Card for each
    anchor icon."
    """
    totals = {"stars": 0, "die": 0, "port_cards": 0}
    for clause in reward or []:
        name, amount = _reward_parts(card, clause)
        if name not in totals:
            raise RuleError(f"{card}: '{name}' is not a reward (stars, die, port_cards)")
        totals[name] += amount
    if isinstance(g, UnchartedPassage):
        g.run_verb("reward", c.player, totals["stars"], totals["die"], totals["port_cards"])
        return
    raise RuleError("a reward needs Uncharted Passage's game (GAME_CLASS)")


def reward_die(g: Game, c: Context) -> int:
    """A reward's die (the DSL verb ``reward`` rolls it through here)."""
    return _reward_die(g, c.player)


def gain_port_card(g: Game, player: Player) -> None:
    """The player gains a Port Card, through the DSL verb ``gain_port_card`` (flow.cards), so a
    variant that redefines it changes every way a Port Card is gained."""
    if isinstance(g, UnchartedPassage):
        verb = g.dsl_verbs.get("gain_port_card")
        if verb is not None and g.playing:
            # run_verb's own call inside play()'s Game.call, without its frame: a Port Card is
            # gained about ten times a game.
            verb(g, Context(player, "", "gain_port_card"))
        else:
            g.run_verb("gain_port_card", player)
    else:
        g.draw(Context(player, "", "gain_port_card"), "port_cards", 1)


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

#: No bound on a title's score: "~30" has no lowest, "51 and above" no highest.
_UNBOUNDED = 10**9

#: A title band: the lowest and the highest final score it holds, and its title.
TitleBand = tuple[int, int, str]

#: "~30: Hapless Explorer ... 51 and above: Legendary Explorer": (lowest, highest, title).
SOLO_TITLES: tuple[TitleBand, ...] = (
    (51, _UNBOUNDED, "Legendary Explorer"),
    (46, 50, "Historic Explorer"),
    (41, 45, "Veteran Explorer"),
    (31, 40, "Mediocre Explorer"),
    (-_UNBOUNDED, 30, "Hapless Explorer"),
)

#: "~70: Hapless Explorers ... 101+: Legendary Explorers".
COOP_TITLES: tuple[TitleBand, ...] = (
    (101, _UNBOUNDED, "Legendary Explorers"),
    (91, 100, "Historic Explorers"),
    (81, 90, "Veteran Explorers"),
    (71, 80, "Mediocre Explorers"),
    (-_UNBOUNDED, 70, "Hapless Explorers"),
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


class ShipSank(GameEnded):
    """A ship sank: "your ship sinks and the game ends immediately". What applies to both
    ships at once ("The contents of this card apply equally to both players"; "The Pirate
    Combat Strength rolled on the dice applies equally to both players") is applied to both
    before the game ends (:meth:`UnchartedPassage.reveal`, :meth:`UnchartedPassage.face_pirates`),
    so two ships that sink together both sink, and neither is "the other player"."""


def _titles_from_data(ir: dict[str, Any], coop: bool, kind: str = "title") -> tuple[TitleBand, ...]:
    """Title bands from the data's cards of ``kind`` (``min_score`` .. ``max_score``, tagged
    ``solo`` or ``coop``), highest first; the rulebook's only when the game declares no such
    kind. A variant that removes the title cards (``remove_kinds: [title]``) has none: every
    score earns no title, as the flow's ``titles from`` gives none when no card's band holds
    it (the rulebook's table came back)."""
    bands: list[TitleBand] = []
    for card in ir["cards"]:
        if card.get("kind") != kind:
            continue
        tags = card.get("tags") or []
        if ("coop" in tags) != coop:
            continue
        props = card.get("properties") or {}
        low = _number(props.get("min_score"), -_UNBOUNDED)
        high = _number(props.get("max_score"), _UNBOUNDED)
        bands.append((low, high, str(card.get("title"))))
    if not bands and kind not in (ir.get("vocabulary") or {}).get("kinds", {}):
        return COOP_TITLES if coop else SOLO_TITLES
    bands.sort(key=lambda band: (-band[0], -band[1], band[2]))
    return tuple(bands)


def title_for(score: int, bands: tuple[TitleBand, ...]) -> str:
    """The title a final score earns: the band whose lowest .. highest score holds it (the
    flow's ``titles from``: "the title of the card of that kind whose min_score..max_score
    holds the final score"); none ("") when no band does (a house rule's title cards that
    leave a gap)."""
    for low, high, title in bands:
        if low <= score <= high:
            return title
    return ""


def sailor_points(cards: int, points: tuple[int, ...] = (1, 1, 1, 2)) -> int:
    """Adventures of a Sailor: "earn 1 point per card for the first 3 cards, and 2 points per
    card thereafter. Ex) If you have 5 cards, you earn a total of 7 points"; ``points`` are the
    1st, 2nd, 3rd ... card's, the last repeating."""
    return sum(points[min(n, len(points) - 1)] for n in range(cards))


def _allocation_label(speed: int, stamina: int, armament: int) -> str:
    return f"{speed}/{stamina}/{armament}"


def parse_allocation(label: str) -> tuple[int, int, int]:
    """``"3/1/5"`` -> Sailing Speed 3, Crew Stamina 1, Armament 5."""
    speed, stamina, armament = label.split("/")
    return int(speed), int(stamina), int(armament)


# -- the game's flow


def _restraint_words(expr: Any) -> str:
    """A voyage card's number restraint as the rulebook writes one ("Crew stamina < 4"), so a
    refused line names the restraint it breaks; "" for a form this does not spell out."""
    if not isinstance(expr, dict):
        return ""
    kind = expr.get("kind")
    if kind == "counter":
        return str(expr["name"]).replace("_", " ").capitalize()
    if kind == "num":
        return str(expr["value"])
    if kind == "builtin" and expr.get("name") == "round":
        return "the month"
    if kind in ("compare", "logic"):
        left, right = _restraint_words(expr["left"]), _restraint_words(expr["right"])
        return f"{left} {expr['op']} {right}" if left and right else ""
    if kind == "not":
        inner = _restraint_words(expr["operand"])
        return f"not ({inner})" if inner else ""
    return ""


#: The logbook's three numbers, in the order a line writes them (natives.py's voyage checks too).
LOGBOOK_LINE = ("sailing_speed", "crew_stamina", "armament")


def _reads_only_the_line(expr: Any, params: dict[str, Any]) -> bool:
    """Whether a voyage card's restraint reads nothing but the logbook line's three numbers,
    numbers, the game's params and arithmetic: then it is the same in every month for every
    captain."""
    if not isinstance(expr, dict):
        return False
    kind = expr.get("kind")
    if kind in ("num", "bool"):
        return True
    if kind == "counter":
        return expr.get("name") in LOGBOOK_LINE
    if kind == "param":
        return expr.get("name") in params
    if kind == "not":
        return _reads_only_the_line(expr.get("operand"), params)
    if kind in ("binary", "compare", "logic"):
        return _reads_only_the_line(expr.get("left"), params) and _reads_only_the_line(
            expr.get("right"), params
        )
    return False


def excluded_distance(distance: int, speed: int, reach: int, unscurvied: int) -> int:
    """The spaces sailed that the Scurvy Check leaves out, from the ``sailing`` window's
    ``reach`` and ``unscurvied_distance``. Reinforced Rope: "The extra sailing distance from it
    does not count toward the Scurvy Check": as much of the unscurvied distance as the window
    added reach counts only for the spaces actually sailed beyond the Sailing Speed; the rest
    (a card that takes spaces out of the check without adding any) counts whatever was sailed,
    up to the distance."""
    extra = min(unscurvied, max(reach - speed, 0))
    used = min(extra, max(distance - speed, 0))
    return min(used + unscurvied - extra, distance)


class UnchartedPassage(FlowGame):
    """Uncharted Passage's rules around the cards, played by its flow (flow.cards: the setup,
    the months' phases, the end, the winner's tiebreak and the titles, run by
    :class:`engine.flow.FlowGame`): the board state the DSL cannot hold and the steps that read
    the map or ask the captains (docking and anchoring, East Asia, critical damage and sinking,
    both 2-player modes)."""

    #: "your ship sinks": the simulator reports the sink rate.
    ships_sink = True

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
        #: The month being logged (its number, and each ship's tracks and space at its start);
        #: None once its line is written.
        self._month: tuple[int, list[tuple[int, int, str]]] | None = None
        self._tick = 0
        static = self._static()
        self._answering: dict[str, frozenset[str]] = static["answering"]
        #: The verbs the game's DSL defines (flow.cards), by name.
        self.dsl_verbs: dict[str, Any] = static["dsl_verbs"]
        self.dsl_functions: dict[str, Any] = static["dsl_functions"]
        #: The DSL verb gain_port_card (flow.cards), looked up once per compiled game.
        self._port_card_verb: Any = self.dsl_verbs.get("gain_port_card")
        #: The DSL verb ship_damage (flow.cards): every Ship Damage goes through it.
        self._ship_damage_verb: Any = self.dsl_verbs.get("ship_damage")
        self._rules: list[str] = static["rules"]
        #: Per trigger: the rules answering it, and whether a voyage or mid-event card, a Port
        #: Card or a mission can (where :meth:`fire` looks for the cards in force).
        self._force_plans: dict[str, tuple[list[str], bool, bool, bool]] = static["force_plans"]
        #: The zones besides port cards, missions and accomplished ones (their cards are in
        #: force as they are).
        self._other_zones: tuple[str, ...] = static["other_zones"]
        #: Other answers worked out once per compiled game (keyed by what they depend on).
        self._static_cache: dict[Any, Any] = static["cache"]
        self._by_kind: dict[str, list[str]] = static["by_kind"]
        self._missions: dict[str, MissionInfo] = static["missions"]
        #: The Port Cards that are "single-use cards that are discarded immediately after use"
        #: (every one but those whose data says ``single_use false``), and those of them with
        #: a block of their own to answer a window (:meth:`use_once`).
        self._single_use_cards: frozenset[str] = static["single_use"]
        self._single_use: frozenset[str] = static["single_use_answering"]
        #: The Port Cards kept after use (``single_use false``: Adventures of a Sailor, or a
        #: house rule's Smoke Bomb): a ``discard self`` of their own block, or a ``play`` of
        #: them, uses them without discarding them (:meth:`discard`, :meth:`play`).
        self._kept_port_cards: frozenset[str] = static["kept_port_cards"]
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
        self.solo_titles: tuple[TitleBand, ...] = static["solo_titles"]
        self.coop_titles: tuple[TitleBand, ...] = static["coop_titles"]
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
        dsl_verbs: dict[str, Any] = {}
        dsl_functions: dict[str, Any] = {}
        if self.table is not None:
            # The generated module's DSL verbs and functions (``dv_<name>``, ``df_<name>``:
            # compiler.emit_python).
            for name, fn in vars(self.table.module).items():
                if name.startswith("dv_") and callable(fn):
                    dsl_verbs[name[3:]] = fn
                elif name.startswith("df_") and callable(fn):
                    dsl_functions[name[3:]] = fn
        single_use = frozenset(
            cid
            for cid in by_kind.get("port_card", ())
            if (self.cards[cid].get("properties") or {}).get("single_use") is not False
        )
        static = {
            "single_use": single_use,
            "kept_port_cards": frozenset(by_kind.get("port_card", ())) - single_use,
            "single_use_answering": frozenset(
                cid for cid in single_use if any(cid in cards for cards in answering.values())
            ),
            "dsl_verbs": dsl_verbs,
            "dsl_functions": dsl_functions,
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
        ``anchor_spaces``; a stand-in only when the game declares no ``prestige_track`` kind. A
        variant that removes the Prestige Track card (``remove: [prestige_track]``) has no
        anchor spaces: no Port Card is gained on the track (it had the stand-in's 10, 20 ...)."""
        for card in self.ir["cards"]:
            if card.get("kind") == "prestige_track":
                spaces = _numbers((card.get("properties") or {}).get("anchor_spaces"))
                if spaces:
                    return spaces
        if "prestige_track" in (self.ir.get("vocabulary") or {}).get("kinds", {}):
            return ()
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

    def _force_plan(self, trigger: str, answering: frozenset[str]) -> tuple[Any, ...]:
        """Where the cards answering ``trigger`` can be in force, worked out once per compiled
        game: the rules among them, and whether a voyage or mid-event card, a Port Card, a
        mission (held or public) or a card of another zone can answer it."""
        kinds = {self.cards[card]["kind"] for card in answering if card in self.cards}
        plan = self._force_plans[trigger] = (
            [r for r in self._rules if r in answering],
            bool(kinds - {"port_card", "mission", *self.always_in_force}),
            "port_card" in kinds,
            "mission" in kinds,
        )
        return plan

    def fire(
        self,
        trigger: str,
        player: Player,
        cards: Any = None,
        event: dict[str, Any] | None = None,
        quantities: dict[str, int] | None = None,
    ) -> Context:
        """Every window, once per card name, plus the rule a marked critical-damage box sets
        off. Only cards with a handler for ``trigger`` are looked at: unless ``cards`` names
        them, those in force (:meth:`cards_in_force`, in its order) that answer it."""
        c = Context(player, "", trigger, event, quantities)
        answering = self._answering.get(trigger)
        if not answering or self.table is None:
            return c
        if cards is None:
            # The cards in force that answer, found where the plan says they can be. Inline
            # and in plain loops (a comprehension is a call of its own on Python 3.11): a
            # window fires about sixty times a game, and most find no card to answer them.
            rules, boards, port_cards, missions = self._force_plans.get(
                trigger
            ) or self._force_plan(trigger, answering)
            cards = list(rules) if rules else []
            board = self.board
            zones = player.zones
            if boards:
                card = board.get("voyage")
                if card and card in answering:
                    cards.append(card)
                card = board.get("mid_event")
                if card and card in answering:
                    cards.append(card)
            if port_cards:
                for card in zones["port_cards"]:
                    if card in answering:
                        cards.append(card)
            if missions:
                for card in zones["missions"]:
                    if card in answering:
                        cards.append(card)
                for mission in board["public_missions"] if "public_missions" in board else ():
                    if mission in answering and not is_accomplished(self, mission):
                        cards.append(mission)
            for zone in self._other_zones:
                for card in zones[zone]:
                    if card in answering:
                        cards.append(card)
            if not cards:
                return c
        handlers = self.table.handlers
        seen: set[str] = set()
        previous, self.window = self.window, c
        try:
            single_use = self._single_use
            for card in cards:
                if card in seen or card not in answering:
                    continue
                seen.add(card)
                if card in single_use:
                    self.use_once(handlers[(card, trigger)], c.for_card(card))
                else:
                    self.call(handlers[(card, trigger)], c.for_card(card))
        finally:
            self.window = previous
        return c

    def run(
        self,
        card: str,
        trigger: str,
        player: Player | None = None,
        event: dict[str, Any] | None = None,
        quantities: dict[str, int] | None = None,
    ) -> Context:
        """One card's handler for ``trigger`` (a scenario's ``run: card.trigger``): a
        single-use Port Card the captain holds is discarded once used, as in a window."""
        c = Context(player or self.players[0], card, trigger, event, quantities)
        handler = self.table.handlers.get((card, trigger)) if self.table else None
        if handler is not None:
            if card in self._single_use and self.holds(c.player, card):
                self.use_once(handler, c)
            else:
                self.call(handler, c)
        return c

    def use_once(self, handler: Any, c: Context) -> None:
        """A single-use Port Card answers: "Port cards are single-use cards that are discarded
        immediately after use, except for 'Adventures of a Sailor'". The card is used when its
        block does anything but decline (a ``may`` said yes to, a choice made, a die rolled, an
        effect): then it is discarded, unless the block saw to the card itself (``discard
        self``, as the shipped cards write it, or moved or played it). A block that did nothing
        (its condition false, its ``may`` declined) leaves the card in hand. ``single_use
        false`` on the card (Adventures of a Sailor) keeps it."""
        card = c.card
        events = self.events
        start = len(events)
        self.call(handler, c)
        index = c.player.index
        used = False
        for event in events[start:]:
            kind = event[0]
            if kind == "decision":
                if event[3] != "no":
                    used = True
                continue
            if kind in _CARD_LEAVES and event[1] == index and event[2] == card:
                return  # the card discarded, moved or played itself
            used = True
        if used and self.holds(c.player, card):
            self.discard(c, card)

    def discard(self, c: Context, card: str) -> None:
        """Discard a card the player holds; but a Port Card whose data says ``single_use
        false`` that discards itself after use (``discard self``, which the shipped cards write
        for "single-use cards that are discarded immediately after use") is used and kept: a
        house rule's ``cards: {smoke_bomb: {single_use: false}}`` keeps its Smoke Bomb, as it
        keeps a Figurehead the game's Python plays (:meth:`spend_port_card`)."""
        if card == c.card and card in self._kept_port_cards and self.holds(c.player, card):
            self.log("play", c.player.index, card)
            return
        super().discard(c, card)

    def play(self, c: Context | None = None, card: str | None = None) -> Any:
        """The whole game (:meth:`engine.flow.FlowGame.play`); or, from an effect, ``play X``
        (Plague's ``play lime_juice``): offer a held card and, played, discard it and run its
        ``on play``; a Port Card whose data says ``single_use false`` is played and kept (the
        rulebook's "single-use cards that are discarded immediately after use, except for
        ..."), as :meth:`discard` keeps one that discards itself."""
        if c is None or card is None or card not in self._kept_port_cards:
            return super().play(c, card)
        if not self.holds(c.player, card):
            return False
        title = self.cards[card].get("title", card)
        question = Question(f"play.{card}", c.player.index, f"play {title}?", ("yes", "no"), "play")
        if self.ask(c.player, question) != "yes":
            return False
        self.log("play", c.player.index, card)
        handler = self.table.handlers.get((card, "play")) if self.table else None
        if handler is not None:
            self.call(handler, c.for_card(card))
        return True

    def spend_port_card(self, player: Player, card: str) -> None:
        """A Port Card the game's Python plays (Figurehead, Exploration Journal, Rum's
        struck-out Crew Action) is used: discarded ("single-use cards that are discarded
        immediately after use"), unless the card says ``single_use false``."""
        if card in self._single_use_cards:
            player.zones["port_cards"].remove(card)
        self.log("play", player.index, card)

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
                self.spend_port_card(owner, "figurehead")
                index = int(answer[3:]) - 1
                rolled[index] = self.die(sides)
        return rolled

    # -- a space of the chart in play, read by the cards ("port.stars", "place.discovery")

    def _chart_space(self, value: Any) -> Space | None:
        """The space ``value`` names on the chart the game is played on, when that chart is
        not the data's map (the scenarios' stand-in chart, a test's): the cards then read the
        space the ship is on, not the map card of the same name (the stand-in's Zanzibar has 2
        stars, map.cards' 3) nor nothing (a stand-in sea space is no card). On the data's map
        the space cards say the same, and are read as they are."""
        chart = self.chart
        if chart is None or chart.source == MAP_SOURCE or not isinstance(value, str):
            return None
        return chart.spaces.get(value)

    def attr(self, value: Any, name: str, default: Any = None) -> Any:
        """``port.stars``: a card's property, or the property of a space of the chart in play
        (:meth:`_chart_space`): its ``stars`` (0 when it has none, as a space card's),
        ``specialty`` and ``region``."""
        space = self._chart_space(value)
        if space is not None and name in _SPACE_PROPERTIES:
            found = getattr(space, name)
            return default if found is None else found
        return super().attr(value, name, default)

    def has_tag(self, value: Any, tag: str) -> bool:
        """``place.discovery``: a card's tag, or a tag of a space of the chart in play
        (:meth:`_chart_space`): ``port``, ``discovery``, ``pirate``, or ``sea`` for the rest."""
        space = self._chart_space(value)
        if space is not None and tag in _SPACE_TAGS:
            if tag == "sea":
                return not (space.port or space.discovery or space.pirate)
            return bool(getattr(space, tag))
        return super().has_tag(value, tag)

    def roll(self, count: int, sides: int, c: Context | None = None) -> int:
        """A roll a card or a phase makes (``let storm 1d6``) for the acting captain is their
        own: Figurehead, "You may reroll any one die" ("only affects your own dice results"),
        may reroll it. A roll already owned (a Discovery Spot's, the Kraken's) or made once for
        both ships (the 2-player pirate) keeps its owner, or has none."""
        if c is None or self.dice_owner is not None or self._recording is not None:
            return sum(self.dice(count, sides))
        self.dice_owner, self.dice_purpose = c.player, "roll"
        try:
            return sum(self.dice(count, sides))
        finally:
            self.dice_owner = None

    def gain(self, c: Context, counter: str, amount: int) -> None:
        """Gain; prestige moves the marker on the Prestige Track (:meth:`marker_moved`), and
        specialties gained are written in the Specialties Book by name
        (:meth:`write_specialties`)."""
        if counter not in ("prestige", "specialties") or amount <= 0:
            super().gain(c, counter, amount)
            return
        before = c.player.counters[counter]
        super().gain(c, counter, amount)
        if counter == "prestige":
            self.marker_moved(c.player, before)
        else:
            self.write_specialties(c.player, c.player.counters[counter] - before)

    def add(self, c: Context, target: str, amount: int) -> None:
        """Add; prestige added (``add prestige 1``, not a window's quantity) moves the marker
        as a gain does, anchor spaces and all; specialties added are written in (or, a
        negative amount, crossed out of) the Specialties Book by name."""
        if target not in ("prestige", "specialties") or target in c.q:
            super().add(c, target, amount)
            return
        before = c.player.counters[target]
        super().add(c, target, amount)
        if target == "prestige":
            self.marker_moved(c.player, before)
        elif c.player.counters[target] > before:
            self.write_specialties(c.player, c.player.counters[target] - before)
        else:
            self.cross_out_specialties(c.player)

    def marker_moved(self, player: Player, before: int) -> None:
        """The player's Prestige marker moved from ``before`` to their prestige now, up or down
        the track (a gain, or a card's ``lose``, ``pay``, ``reduce``, ``set`` or ``add``).

        "When moving your marker on the Prestige track, if it stops on a space already occupied
        by another player, stack it on top": the marker that moved last is on top
        (``marker_arrival``), above any a scenario gives. Moving up, "When you reach a space
        with the anchor icon on the Prestige Track, you get one Port Card immediately"
        (:meth:`_reach_anchor_space`)."""
        after = player.counters["prestige"]
        if after == before:
            return
        # Above every marker's arrival, a scenario's given ones included (its
        # prestige_arrival raises the tick too: scenario.py).
        self._tick += 1
        player.flags["arrived"] = self._tick
        if after > before:
            for space in self.anchor_spaces:
                if before < space <= after:
                    self._reach_anchor_space(player, space)

    # "Conversely, if you lose specialties in any manner, you mark it with an X over its name":
    # a card's 'lose specialties 1' (or pay, reduce, set) crosses a name out of the
    # Specialties Book too, or the ship would still sell and deliver what it lost. Prestige
    # lost moves the marker back (marker_moved).

    def lose(self, c: Context, counter: str, amount: int) -> None:
        """Lose; specialties lost are crossed out of the Specialties Book by name, and prestige
        lost moves the marker."""
        before = c.player.counters[counter] if counter == "prestige" else 0
        super().lose(c, counter, amount)
        if counter == "specialties":
            self.cross_out_specialties(c.player)
        elif counter == "prestige":
            self.marker_moved(c.player, before)

    def pay(self, c: Context, counter: str, amount: int) -> int:
        """Pay; specialties paid are crossed out of the Specialties Book by name, and prestige
        paid moves the marker."""
        before = c.player.counters[counter] if counter == "prestige" else 0
        missing = super().pay(c, counter, amount)
        if counter == "specialties":
            self.cross_out_specialties(c.player)
        elif counter == "prestige":
            self.marker_moved(c.player, before)
        return missing

    def reduce(self, c: Context, target: str, amount: int) -> None:
        """Reduce; specialties reduced are crossed out of the Specialties Book by name, and
        prestige reduced moves the marker."""
        counted = target in ("specialties", "prestige") and target not in c.q
        before = c.player.counters[target] if counted else 0
        super().reduce(c, target, amount)
        if counted and target == "specialties":
            self.cross_out_specialties(c.player)
        elif counted:
            self.marker_moved(c.player, before)

    def set(self, c: Context, target: str, value: int) -> None:
        """Set; specialties set lower are crossed out of the Specialties Book by name (set
        higher, written in by name), and prestige set moves the marker (up to an anchor space
        too)."""
        counted = target in ("specialties", "prestige") and target not in c.q
        before = c.player.counters[target] if counted else 0
        super().set(c, target, value)
        if counted and target == "specialties":
            after = c.player.counters[target]
            if after > before:
                self.write_specialties(c.player, after - before)
            else:
                self.cross_out_specialties(c.player)
        elif counted:
            self.marker_moved(c.player, before)

    def cross_out_specialties(self, player: Player) -> None:
        """Mark an X over the names the Specialties Book holds beyond the player's count of
        specialties (a rule lowered the count): the captain chooses which, when they differ."""
        goods = player.flags["goods"]
        while len(goods) > max(player.counters["specialties"], 0):
            names = tuple(dict.fromkeys(goods))
            pick = self._which_specialty(
                player, names, "specialties.lose", "Mark an X over a specialty you lose"
            )
            goods.remove(pick)
            self.log("specialty_lost", player.index, pick)

    def _which_specialty(
        self, player: Player, names: tuple[str, ...], ident: str, prompt: str
    ) -> str:
        """The specialty of ``names`` the captain names (``specialty:NAME``), asked only when
        there is more than one: a name lost (crossed out) or gained (written)."""
        if len(names) == 1:
            return names[0]
        question = Question(ident, player.index, prompt, tuple(f"specialty:{n}" for n in names))
        return self.ask(player, question).partition(":")[2] or names[0]

    # "When you gain specialties, you mark it by writing the name of the specialties in the
    # Specialties Book in the logbook": a card's 'gain specialties 1' (or add, or set higher)
    # writes a name, which the captain chooses, or the specialty could never be sold,
    # delivered to a trade mission, given in co-op, nor told apart when offered or abandoned.

    def write_specialties(self, player: Player, amount: int) -> None:
        """Write ``amount`` specialties gained by a card (not purchased at a port, which writes
        the port's) in the Specialties Book: the captain chooses each one's name among the
        specialties the map's ports sell (``specialties.gain``); a card naming one writes it
        with ``gain_specialty``."""
        names = self.specialty_names()
        for _ in range(max(amount, 0)):
            if not names:
                raise RuleError(
                    "a specialty gained is written in the Specialties Book by name, and no port "
                    "of the map sells one (the map's ports give 'specialty NAME')"
                )
            pick = self._which_specialty(
                player,
                names,
                "specialties.gain",
                "Write a specialty you gain in the Specialties Book",
            )
            player.flags["goods"].append(pick)
            self.log("specialty", player.index, pick)

    def specialty_names(self) -> tuple[str, ...]:
        """The specialties the ports of the map in play sell, in the map's order (else the
        game's ``specialty`` cards): what a specialty gained by a card may be written as."""
        chart = self.chart or chart_for(self.ir)
        key = ("specialty_names", id(chart))
        cached = self._static_cache.get(key)
        if cached is None or cached[0] is not chart:
            names = tuple(
                dict.fromkeys(s.specialty for s in chart.spaces.values() if s.specialty)
            ) or tuple(self._by_kind.get("specialty", ()))
            cached = self._static_cache[key] = (chart, names)
        return cached[1]

    def _reach_anchor_space(self, player: Player, space: int) -> None:
        """An anchor space reached: its Port Card, once a game. 2-player: "During the game,
        only the first player to enter a space with the anchor icon receives a Port Card. The
        second player does not receive one." Solo the same: a space reached again after
        prestige was lost gives none (logbook.cards: "the flow gives each anchor space's Port
        Card once, when prestige first reaches it"). Provisional: the rulebook is silent on
        a solo marker that reaches an anchor space a second time."""
        claimed = self.board.setdefault("anchor_spaces_claimed", set())
        # A marker already at or past the space entered it first (a scenario's captain given
        # that prestige, not moved there in play).
        ahead = any(
            other is not player and other.counters["prestige"] >= space for other in self.players
        )
        if space in claimed or ahead:
            self.log("anchor_space_taken", player.index, space)
            return
        claimed.add(space)
        self.log("anchor_space", player.index, space)
        self.gain_port_card(player)

    # -- specialties ("Specialties Book")

    def gain_port_card(self, player: Player) -> None:
        """The player gains a Port Card through the DSL verb ``gain_port_card`` (flow.cards),
        as :func:`gain_port_card`, with the verb looked up once per compiled game: a Port
        Card is gained about ten times a game."""
        verb = self._port_card_verb
        if verb is not None and self.playing:
            # Inside play()'s Game.call, which locates a failure here at its DSL line.
            verb(self, Context(player, "", "gain_port_card"))
        else:
            self.run_verb("gain_port_card", player)

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

    # -- setup (the flow's setup section, flow.cards, runs these through its verbs)

    def set_up_world_map(self, c: Context | None = None) -> None:
        """Setup 1: "Unfold the World Map"; "The game always begins in Lisbon"."""
        board = self.board
        chart = board.get("chart")
        if not isinstance(chart, Chart):
            chart = chart_for(self.ir)
            board["chart"] = chart
        self.chart = chart
        # Copies of what the chart worked out once (a scenario may change a game's own).
        board["regions"] = dict(chart.regions)
        board["pirate_infested_area"] = set(chart.infested_spaces)
        board.setdefault("anchored", {})
        board.setdefault("east_asia_ships", {})
        board.setdefault("east_asia_entries", 0)
        for player in self.players:
            player.flags.setdefault("position", chart.start)
            player.flags["position"] = _place_id(player.flags["position"])
        if "markers" not in board:
            board["markers"] = self.markers_under_ships(chart)

    def deal_voyage_pile(self, c: Context | None = None) -> None:
        """Setup 2 and 3: "Make a pile of 13 Voyage Cards, with the 6 Second-half Voyage Cards
        on the bottom, 1 Mid-event Card on top of that, and the 6 First-half Voyage Cards on
        the top" (the mid-event apart, revealed before its round: ``mid_event_card``)."""
        board = self.board
        if "pile" in board:
            return
        by_kind = self._by_kind
        voyages = by_kind.get("voyage", [])
        half = self.rounds // 2
        first, second = self._voyage_halves(voyages)
        mids = by_kind.get("mid_event", [])
        pile = self._deal(first or voyages, half)
        board["mid_event_card"] = self._deal(mids, 1)[0] if mids else None
        pile += self._deal(second or voyages, self.rounds - half)
        board["pile"] = pile

    def shuffle_port_cards(self, c: Context | None = None) -> None:
        """Setup 5: "Place the pile of Port Cards ... next to the World Map" (shuffled)."""
        board = self.board
        if "deck:port_cards" not in board:
            deck = list(self._port_card_deck(self._by_kind.get("port_card", [])))
            self.shuffle(deck)
            board["deck:port_cards"] = deck

    def deal_missions(self, c: Context | None = None) -> None:
        """Setup 4 (solo) or 4 and 5 (2-player): the Mission Cards, by mode."""
        if not self.board.get("missions_dealt"):
            self._deal_missions(self._by_kind.get("mission", []))

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

    # -- the month's steps the flow calls (flow.cards)

    # Each step takes the acting player's context, so natives.py registers the method itself
    # as the flow's verb (engine.api: one call, no wrapper).

    def settle_sinking(self) -> None:
        """A ship the shared Pirate roll sank while the other ship was still to face it
        (:meth:`face_pirates`) ends the game here, at the next step of the month, when a house
        rule's Pirate phase never had the other ship face it (a loop that skips every ship once
        one sank) and its own ``end_when`` did not end the game: "the game ends immediately"."""
        if self.board.pop("sinking", False) and self.playing:
            raise ShipSank("the ship sank")

    def begin_month(self, c: Context | None = None) -> None:
        """A new line of the logbook: where the month starts, and nothing sailed yet (the
        verb ``new_logbook_line``)."""
        if "sinking" in self.board:
            self.settle_sinking()
        starts = []
        for p in self.players:
            flags = p.flags
            starts.append(
                (p.tracks["durability"].marked, p.tracks["health"].marked, flags.get("position"))
            )
            flags["notes"] = []
            flags["docked"] = False
            flags["pirate_power"] = None
            flags["distance_sailed"] = 0
            flags["excluded_distance"] = 0
        self._month = (self.round, starts)

    def reveal_mid_event(self, c: Context | None = None) -> None:
        """ "Before you begin the 7th round, reveal the Mid-event Card and place it on one
        side" (the flow says when; this reveals it, once)."""
        board = self.board
        mid = board.get("mid_event_card")
        if mid and not board.get("mid_event"):
            self.reveal(mid)

    def reveal_voyage(self, c: Context | None = None) -> None:
        """Planning: "Reveal one card from the top of the Voyage Card pile"."""
        pile = self.board.get("pile")
        if pile and not self.board.get("over"):
            self.reveal(pile.pop(0))

    def write_logbook(self, c: Context | None = None) -> None:
        """The month's line of each logbook, once a month (the flow writes it at the end of the
        month, and at the end of the game for a month a sinking cut short)."""
        if "sinking" in self.board:
            self.settle_sinking()
        month = self._month
        if month is None:
            return
        voyage = self.board.get("voyage")
        title = self.cards[voyage]["title"] if voyage else ""
        for index, p in enumerate(self.players):
            durability, health, start = month[1][index]
            counters = p.counters
            flags = p.flags
            note = "; ".join(flags["notes"])
            if flags.get("sunk"):
                note = (note + "; " if note else "") + "the ship sank"
            self.logbook[index].append(
                {
                    "month": month[0],
                    "voyage": title,
                    "sailing_speed": counters["sailing_speed"],
                    "crew_stamina": counters["crew_stamina"],
                    "armament": counters["armament"],
                    "pirate_power": flags.get("pirate_power"),
                    "start": start,
                    "destination": flags.get("position"),
                    "distance": flags.get("distance_sailed", 0),
                    "prestige_total": counters["prestige"],
                    "damage": p.tracks["durability"].marked - durability,
                    "scurvy": p.tracks["health"].marked - health,
                    "note": note,
                }
            )
        self._month = None

    # -- Planning phase

    def allocation_options(self, voyage: str, player: Player | None = None) -> tuple[str, ...]:
        """The logbook lines a voyage card allows ``player`` (the first captain when not
        given): "a number between 1 and 6 in the Sailing Speed, Crew Stamina, and Armament
        spaces ... The sum of the three numbers cannot exceed the amount of resources", or each
        of a "1 3 5" card's numbers in a space of your choice; either way within the card's
        number restraints ("Follow any number restraints imposed by events").

        A restraint reading only the line's three numbers and the game's params is the same
        every month for every captain, and its lines are kept once per compiled game; one that
        reads more (the month, ``armament <= round``; the captain's own logbook,
        ``marked(durability)``) is read for the captain writing the line, this month."""
        cached: tuple[str, ...] | None = _OPTIONS.get(self.ir, voyage)
        if cached is not None:
            return cached
        card = self.cards[voyage]
        candidates = _OPTIONS.get(self.ir, ("lines", voyage))
        if candidates is None:
            candidates = _OPTIONS.put(
                self.ir, tuple(self._resource_lines(voyage)), ("lines", voyage)
            )
        if self.table is None or (voyage, "restraint") not in self.table.formulas:
            options = tuple(_allocation_label(*t) for t in candidates)
            return _OPTIONS.put(self.ir, options, voyage)
        expr = (card.get("formulas") or {}).get("restraint", {}).get("expr")
        if _reads_only_the_line(expr, self.ir["vocabulary"].get("params") or {}):
            scratch = Player(-1, "restraint", self.ir["vocabulary"])
            allowed = self._meeting_restraint(voyage, scratch, candidates)
            options = tuple(_allocation_label(*t) for t in allowed)
            return _OPTIONS.put(self.ir, options, voyage)
        captain = player if player is not None else self.players[0]
        written = {name: captain.counters[name] for name in LOGBOOK_LINE}
        try:
            allowed = self._meeting_restraint(voyage, captain, candidates)
        finally:
            captain.counters.update(written)
        return tuple(_allocation_label(*t) for t in allowed)

    def _meeting_restraint(
        self, voyage: str, player: Player, candidates: Sequence[tuple[int, int, int]]
    ) -> list[tuple[int, int, int]]:
        """The lines of ``candidates`` that meet the voyage card's restraint, each read as
        ``player``'s line (its counters set to it: the caller puts them back)."""
        context = Context(player, voyage, "restraint")
        allowed = []
        for s, st, ar in candidates:
            player.counters.update(sailing_speed=s, crew_stamina=st, armament=ar)
            if self.formula(voyage, "restraint", context):
                allowed.append((s, st, ar))
        if not allowed:
            card = self.cards[voyage]
            raise RuleError(
                f"{voyage}: no Sailing Speed/Crew Stamina/Armament line meets its restraint "
                f"({card.get('title', voyage)}"
                + (f", in month {self.round}" if self.round else "")
                + "); loosen the restraint or the resources"
            )
        return allowed

    def _resource_lines(self, voyage: str) -> list[tuple[int, int, int]]:
        """The lines the voyage card's resources allow, before its restraint."""
        props = self.cards[voyage].get("properties") or {}
        low, high = self.allocation_bounds
        triple = _numbers(props.get("resource_triple"))
        # A card's resources as printed, or a designer's card is refused here: without them
        # every line up to 6/6/6 would be allowed, silently.
        if props.get("resource_triple") is not None and len(triple) != 3:
            raise RuleError(
                f"{voyage}: resource_triple is three numbers, like 'resource_triple 1 3 5'"
            )
        if props.get("resource_triple") is None and props.get("resources") is None:
            raise RuleError(
                f"{voyage}: a voyage card gives its resources: 'resources 12' or "
                "'resource_triple 1 3 5'"
            )
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
        if not candidates:
            # cardc check refuses such a card (natives.py, check_voyage); a card changed past
            # it is still told here, not asked a question with no answer.
            raise RuleError(
                f"{voyage}: its resources allow no Sailing Speed/Crew Stamina/Armament line "
                f"(each between {low} and {high}); give at least {3 * low}"
            )
        return candidates

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
        said = _restraint_words((card.get("formulas") or {}).get("restraint", {}).get("expr"))
        return f"the line does not meet {card['title']}'s restraint" + (f": {said}" if said else "")

    def allocate(self, player: Player) -> tuple[int, int, int]:
        """Write this month's Sailing Speed, Crew Stamina and Armament (a scenario's step:
        an error when no voyage card is revealed)."""
        if self.board.get("voyage") not in self.cards:
            raise RuleError(
                "no voyage card is revealed: the three numbers are written within the revealed "
                "voyage card's resources (give 'voyage:' or reveal one first)"
            )
        self.write_numbers(Context(player, "", "write_numbers"))
        counters = player.counters
        return counters["sailing_speed"], counters["crew_stamina"], counters["armament"]

    def write_numbers(self, c: Context) -> None:
        """The verb ``write_numbers``: the acting captain writes this month's Sailing Speed,
        Crew Stamina and Armament within the revealed voyage card (none revealed: nothing)."""
        voyage = self.board.get("voyage")
        if not voyage:
            return
        player = c.player
        options = self.allocation_options(voyage, player)
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

    def reveal(self, card: str) -> None:
        """Planning phase: reveal a voyage or mid-event card; its events apply to every player.

        "Most effects are applied immediately when revealed"; the card then stays in force for
        the month (a voyage card) or "for the rest of the game" (the mid-event card).

        2-player: "The contents of this card apply equally to both players": the dice the event
        rolls (a Pirate's Raid's two dice) are rolled once, and each ship it strikes takes the
        same roll, as the Pirate's Combat Power "rolled on the dice applies equally to both
        players"; each ship's copy is its own to reroll with Figurehead ("only affects your own
        dice results").
        """
        kind = self.cards[card]["kind"]
        if kind == "voyage":
            self.board["voyage"] = card
        elif kind == "mid_event":
            self.board["mid_event"] = card
        else:
            raise RuleError(f"'{card}' is {with_article(kind)}, not a voyage or mid-event card")
        self.log("reveal", card)
        # 2-player: "The contents of this card apply equally to both players": the event is
        # applied to each ship, in seat order, and a ship it sinks ends the game only once both
        # had it (Rocks or Plague with a box left on both tracks sinks both; seat order made
        # player 1 sink alone and player 2 "the other player ... declared the winner").
        sank: ShipSank | None = None
        rolled: list[int] = []  # the event's dice, as first rolled, for every ship
        for player in self.players:
            if player.flags.get("sunk"):
                continue
            self.dice_owner, self.dice_purpose = player, "raid"
            self._replay = list(rolled) if rolled else None
            self._recording = []
            try:
                self.fire("reveal", player, cards=[card])
            except ShipSank as ended:
                sank = sank or ended
            finally:
                self.dice_owner, self._replay = None, None
                recorded, self._recording = self._recording, None
            if len(recorded) > len(rolled):
                # A ship the event struck first rolled them (an earlier one outside the
                # Pirate Infested Area rolled none).
                rolled = recorded
        if sank is not None:
            raise sank

    # -- Pirate phase

    def pirate_round(self, voyage: str) -> None:
        """The flow's Pirate phase (flow.cards: ``roll_pirates``, then each captain in turn
        order faces them) against ``voyage``, as this month's voyage card (for scenarios)."""
        self.board["voyage"] = voyage
        self.run_phase("pirate")

    def roll_pirates(self, c: Context | None = None) -> None:
        """The Pirate phase's roll against this month's voyage card (none: nothing). 2-player:
        one roll of the voyage card's formula that "applies equally to both players" (kept for
        :meth:`face_pirates`, with the dice it rolled, so a Figurehead can reroll its owner's
        copy alone). Solo: nothing yet; the captain rolls their own."""
        voyage = self.board.get("voyage")
        if not voyage:
            return
        if len(self.players) == 1:
            self.board["pirate_roll"] = None
            return
        context = Context(self.players[0], voyage, "pirate")
        self._recording = []
        try:
            power = int(self.formula(voyage, "pirate", context))
        finally:
            shared, self._recording = self._recording, None
        self.board["pirate_roll"] = (voyage, power, shared)
        # The ships still to face this roll: a ship it sinks ends the game once all have faced
        # it (face_pirates).
        self.board["pirates_to_face"] = {p.index for p in self.players if not p.flags.get("sunk")}

    def face_pirates(self, c: Context) -> None:
        """The acting captain's Pirate phase against this month's voyage card (none: nothing):
        solo, their own roll; 2-player, the shared roll, except that "players may individually
        use Port Cards to reduce damage or modify their own dice values" (Figurehead: "only
        affects your own dice results", so a reroll changes the roll for its owner alone)."""
        board = self.board
        voyage = board.get("voyage")
        if not voyage:
            return
        player = c.player
        roll = board.get("pirate_roll")
        if roll is None or roll[0] != voyage:
            self.dice_owner, self.dice_purpose = player, "pirate"
            try:
                self.pirate_phase(player, voyage)
            finally:
                self.dice_owner = None
            return
        _, own, shared = roll
        # "The Pirate Combat Strength rolled on the dice applies equally to both players", at
        # once (the turn order only says whose Anti-Piracy prestige "moves first"): a ship
        # sunk by it ends the game after the other ship has faced it too, so both may sink.
        to_face: set[int] = board.get("pirates_to_face") or set()
        to_face.discard(player.index)
        try:
            if shared and "figurehead" in player.zones["port_cards"]:
                self.dice_owner, self.dice_purpose = player, "pirate"
                self._replay = list(shared)
                try:
                    own = int(self.formula(voyage, "pirate", Context(player, voyage, "pirate")))
                finally:
                    self.dice_owner, self._replay = None, None
            self.pirate_phase(player, voyage, pirate_power=own)
        except ShipSank:
            if not to_face:
                board.pop("sinking", None)
                raise
            board["sinking"] = True
            return
        if not to_face and board.pop("sinking", False):
            raise ShipSank("the ship sank")

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
            self.ship_damage(player, damage, voyage_card_id)
        return combat

    def ship_damage(self, player: Player, amount: int, card: str = "") -> None:
        """The ship takes ``amount`` Ship Damage ("your ship takes damage equal to the
        difference. Mark an X on the Ship Durability Track in the logbook equal to the amount of
        damage"), through the DSL verb ``ship_damage`` (flow.cards), as the Pirate's Raid, the
        Kraken and Critical Damage's "one additional damage" do: a house rule redefining it
        (an armoured hull taking 1 less) changes every Ship Damage, not only a card's."""
        verb = self._ship_damage_verb
        if verb is None:
            self.mark(Context(player, card, "ship_damage"), "durability", amount)
        elif self.playing:
            # Inside play()'s Game.call, which locates a failure here at its DSL line.
            verb(self, Context(player, card, "ship_damage"), amount)
        else:
            self.run_verb("ship_damage", player, amount)

    # -- Sailing phase

    def may_anchor(self, player: Player, space: str) -> bool:
        """2-player: "A single space can hold a maximum of 2 Ship Markers, regardless of color.
        This means you cannot anchor in a space that already contains 2 markers"."""
        if len(self.players) == 1:
            return True
        markers = self.board.get("markers")
        if markers is None:
            # A scenario may sail without the setup: the markers are the ships' own.
            markers = self.markers_under_ships(self.chart or chart_for(self.ir))
        return markers.get(space, 0) < MARKERS_PER_SPACE

    def markers_under_ships(self, chart: Chart) -> dict[str, int]:
        """The Ship Markers the ships' positions imply, before any is counted as placed (a
        scenario's ships given where they are, with no ``markers``): "The ship marker that was
        placed in the previous round serves as the starting point for the current round", so
        each ship stands on its own marker; except a ship still in Lisbon at the start of the
        game, which places its first marker when it first sails ("Take one Ship Marker from
        the supply. Sail from where you docked in the previous round (Lisbon in the first
        round)")."""
        markers: dict[str, int] = {}
        for player in self.players:
            position = self.anchored_at(player, chart)
            if position is not None:
                markers[position] = markers.get(position, 0) + 1
        return markers

    def anchored_at(self, player: Player, chart: Chart) -> str | None:
        """The space the ship is anchored at, on its own Ship Marker; None for a ship still in
        Lisbon at the start of the game ("Sail from where you docked in the previous round
        (Lisbon in the first round)"), which has not anchored yet."""
        position = player.flags.get("position")
        if position is None:
            return None
        at_start = position == chart.start and not player.flags.get("anchorages")
        if at_start and self.round <= 1:
            return None
        return str(position)

    def ship_position(self, player: Player, chart: Chart) -> str:
        """The space of ``chart`` the ship is on; a rule error when it is on none (a house rule
        removed the setup's ``world_map`` phase, which puts every ship in Lisbon)."""
        position = player.flags.get("position")
        if position not in chart.spaces:
            raise RuleError(
                f"the ship is at '{position}', which is not a space of the map (the game "
                "begins in Lisbon once the setup has unfolded the World Map)"
                f"{self._elsewhere(chart, str(position))}"
            )
        return str(position)

    def destinations(self, player: Player, reach: int) -> dict[str, int]:
        """Where the ship may end its voyage, with the spaces sailed to get there."""
        chart = self.chart or chart_for(self.ir)
        position = player.flags.get("position")
        if position not in chart.spaces:
            position = self.ship_position(player, chart)  # the rule error
        found = chart.reach(position, reach)
        if len(self.players) == 1:
            return found
        allowed = {s: d for s, d in found.items() if self.may_anchor(player, s)}
        # Boxed in by full spaces the rulebook does not foresee: the ship stays where it is.
        return allowed or {position: 0}

    def sail_to(self, player: Player, destination: str | None = None) -> str:
        """:meth:`set_sail` for ``player``, to ``destination`` when given (a scenario's step),
        else where the captain answers."""
        return self.set_sail(Context(player, "", "sail"), destination)

    def set_sail(self, c: Context, destination: str | None = None) -> str:
        """The verb ``sail``, the Sailing phase on the map: "Sail from where you docked in the
        previous round ... to a space that is within your Sailing Speed"; "You can only anchor
        at one final destination. Other spaces you pass while sailing are ignored."

        The ``sailing`` window opens first (Reinforced Rope: "You may sail 1 additional
        space"); the spaces it adds beyond the Sailing Speed are kept out of the Scurvy Check.
        """
        if "sinking" in self.board:
            self.settle_sinking()
        player = c.player
        speed = player.counters["sailing_speed"]
        window = self.fire("sailing", player, quantities={"reach": speed, "unscurvied_distance": 0})
        reach, unscurvied = window.q["reach"], window.q["unscurvied_distance"]
        options = self.destinations(player, reach)
        if destination is None:
            question = Question(
                "sailing.destination",
                player.index,
                # Inline, not engine.words.counted: this prompt is built every month a ship
                # sails (the simulator's hot path); the refusal below is said once.
                f"Sail from {player.flags['position']} within {reach} "
                f"{'space' if reach == 1 else 'spaces'} to",
                _keys(options),
            )
            destination = self.ask(player, question)
        if destination not in options:
            # A scenario's step may name the place as the cards do ("Sierra Leone"); an
            # answer to the question is already one of the options' ids.
            destination = _place_id(destination)
        if destination not in options:
            if destination in (self.chart or chart_for(self.ir)).reach(
                player.flags["position"], reach
            ):
                # In reach, but full: the refusal names the rule that applies, not the reach.
                raise RuleError(
                    f"cannot anchor at {destination}: it already holds {MARKERS_PER_SPACE} "
                    "Ship Markers (a single space can hold a maximum of 2 Ship Markers, "
                    "regardless of color; a ship may sail through it, not anchor there)"
                )
            raise RuleError(
                f"cannot sail from {player.flags['position']} to {destination} within "
                f"{counted(reach, 'space')}: a ship sails up to its Sailing Speed; it cannot pass "
                "or land on a "
                "pirate space, and white borders cannot be crossed"
            )
        distance = options[destination]
        player.flags["distance_sailed"] = distance
        # Nothing excluded unless a card took spaces out (most months): no call for it.
        player.flags["excluded_distance"] = (
            excluded_distance(distance, speed, reach, unscurvied) if unscurvied else 0
        )
        player.flags["position"] = destination
        player.flags["anchorages"].append(destination)
        markers = self.board.setdefault("markers", {})
        markers[destination] = markers.get(destination, 0) + 1
        self.log("sail", player.index, distance)
        self.log("sail_to", player.index, destination)
        return destination

    # -- Anchoring phase

    def anchor(self, player: Player, space_id: str | None = None) -> None:
        """Anchoring phase for ``player`` where the ship is (or at ``space_id``): the DSL verb
        ``anchor`` of flow.cards, which docks (A) or anchors elsewhere (B) and says where the
        Scurvy Check and the Crew Actions come."""
        if space_id is not None:
            player.flags["position"] = _place_id(space_id)
        self.run_verb("anchor", player)

    def _elsewhere(self, chart: Chart, place: str) -> str:
        """When ``place`` is not on ``chart`` but on the other chart a scenario may give (the
        data's World Map or the stand-in chart): a hint naming that one. A scenario's
        ``position: svalbard`` on the stand-in chart was refused as "not a space of the map",
        at flow.cards' line, whichever map was meant."""
        from .map import stand_in_chart

        try:
            other = stand_in_chart(self.ir) if chart.source == MAP_SOURCE else chart_for(self.ir)
        except RuleError:
            return ""
        if other is chart or other.source == chart.source or place not in other.spaces:
            return ""
        return f"; it is a space of {_chart_words(other)}: give that chart"

    def space_of(self, player: Player) -> Space:
        """The space of the map the player's ship is on."""
        chart = self.chart or chart_for(self.ir)
        position = player.flags.get("position")
        space = chart.spaces.get(position)
        if space is not None:
            return space
        place = _place_id(position)
        space = chart.spaces.get(place)
        if space is None:
            raise RuleError(
                f"'{place}' is not a space of {_chart_words(chart)}{self._elsewhere(chart, place)}"
            )
        return space

    def drop_anchor(self, c: Context) -> None:
        """Anchoring, where the ship ended its voyage: a port docks (A: its prestige, its
        cards, its missions), an East Asian port asks for its permit first, and anywhere else
        the ship anchors (B). What follows (Crew Actions, or the Scurvy Check and the place's
        rewards) is the flow's to say."""
        player = c.player
        space = self.space_of(player)
        flags = player.flags
        # "anchoring at 4 different Pirate Infested Areas": a port anchors a ship as well as
        # the sea does ("You can only anchor at one final destination").
        flags["areas"] |= space.infested
        flags["docked"] = False
        self.dice_owner, self.dice_purpose = player, "prestige"
        try:
            if space.port and space.east_asia:
                if not self.enter_east_asia(player, space):
                    self.arrive_elsewhere(player, space)
            elif space.port:
                self.dock_at_port(player, space)
            else:
                self.arrive_elsewhere(player, space)
        finally:
            self.dice_owner = None

    def docked(self, player: Player) -> bool:
        """True when the ship docked at a port this month (an East Asian port refused is
        "considered anchored at sea")."""
        return bool(player.flags.get("docked"))

    def arrival_prestige(self, player: Player, space: Space) -> int:
        """What docking at ``space`` now advances the Prestige Track by: its stars the first
        time, 1 where the other ship anchored first (2-player: "If you arrive at a port where
        another player has already anchored, you always gain only 1 prestige point"), nothing
        again."""
        anchored = self.board["anchored"].get(space.id) or ()
        # "If it is a port you have already arrived at before, you do not gain any prestige
        # again": the captain's own record, or the board's of who anchored where (a
        # scenario's 'anchored').
        if space.id in player.flags["ports"] or player.index in anchored:
            return 0
        if anchored:
            return SHARED_PORT_PRESTIGE
        # The other ship's own record says so too: a port it arrived at (a scenario's
        # ports_visited), or the port its ship stands at without having sailed this month:
        # "Sail from where you docked in the previous round", so a ship given on a port
        # anchored there (not one in Lisbon at the start, which has not anchored yet). A ship
        # given there with a distance sailed this month is arriving, still to anchor.
        chart = self.chart or chart_for(self.ir)
        for other in self.players:
            if other is player:
                continue
            if space.id in other.flags["ports"]:
                return SHARED_PORT_PRESTIGE
            if (
                not other.flags.get("distance_sailed")
                and self.anchored_at(other, chart) == space.id
            ):
                return SHARED_PORT_PRESTIGE
        return space.stars

    def dock_at_port(self, player: Player, space: Space) -> None:
        """A. If You Dock at a Port: "Advance the Prestige Track by the number of stars" (once
        per port), then its cards and missions (the Crew Actions follow, in the flow)."""
        flags = player.flags
        flags["areas"] |= space.infested
        c = Context(player, space.id, "dock")
        again = player.index in (self.board["anchored"].get(space.id) or ())
        if space.id not in flags["ports"] and not again:
            gained = self.arrival_prestige(player, space)
            if gained:
                self.gain(c, "prestige", gained)
            flags["notes"].append(f"{space.title} +{gained}")
        else:
            flags["notes"].append(f"{space.title} again")
        self._docked(player, space)

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

    def enter_east_asia(self, player: Player, space: Space) -> bool:
        """Port Permits for East Asia: offer 1, 2, then 3 specialties ("the second ship to
        enter any East Asian port ... must offer 2"), gain "2 prestige points and an additional
        amount of prestige equal to the number rolled on a die"; no re-entry; "If you are
        unable or unwilling to offer specialties, you are considered anchored at sea". True
        when the ship entered."""
        board = self.board
        # The ships' own records count too (a scenario's east_asia_entered, with no
        # east_asia_entries): "the second ship to enter any East Asian port (regardless of
        # color) must offer 2 Specialties, and the third ship must offer 3".
        entered = sum(len(p.flags.get("east_asia", ())) for p in self.players)
        offer = max(board["east_asia_entries"], entered) + 1
        # "Only 1 ship marker (regardless of color) may enter an East Asian port": a port any
        # ship entered (a scenario may give the rival's entries: east_asia_entered) is closed.
        closed = space.id in board["east_asia_ships"] or any(
            space.id in other.flags.get("east_asia", ()) for other in self.players
        )
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
                return True
        self.log("east_asia_refused", player.index, space.id)
        player.flags["notes"].append(f"{space.title} not entered")
        return False

    def crew_actions(self, c: Context) -> None:
        """The verb ``crew_actions``: the acting captain's Crew Actions at the port the ship
        docked at, by the Crew Stamina written ("If you want, you can take an action with a
        lower number than you wrote in"), never on a row struck by Declining Health ("you can't
        perform actions on that space"), unless Rum is played (the rulebook's exception)."""
        player = c.player
        space = self.space_of(player)
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
                self.spend_port_card(player, "rum")
                usable = written
        if usable <= 1:
            return
        rows = _ROWS.get(usable) or _ROWS.setdefault(
            usable, tuple(str(row) for row in range(usable, 0, -1))
        )
        row = int(self.ask(player, Question("crew.row", player.index, "Crew Action row", rows)))
        buy, sell, either, card = self.crew_table.get(row, (False, False, False, False))
        if card:
            self.gain_port_card(player)
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

    def arrive_elsewhere(self, player: Player, space: Space) -> None:
        """B. If You Anchor at a Place Other Than a Port: the ship is there (a Discovery Spot
        is marked as arrived at; whether it was before is kept for its prestige). The Scurvy
        Check comes next, in the flow ("the first thing you do is make a Scurvy Check")."""
        flags = player.flags
        flags["spot_seen"] = space.id in flags["spots"]
        if space.discovery:
            flags["spots"].add(space.id)
        self.arrive_at_sea(player, space.id)

    def anchored_elsewhere(self, c: Context) -> None:
        """B, after the Scurvy Check: the cards answering ``anchor_at_sea``, the missions met
        there, then a Discovery Spot's die ("If it is a Discovery Spot you have already arrived
        at, you do not gain any prestige"), or the Sunken Ship."""
        player = c.player
        space = self.space_of(player)
        flags = player.flags
        self.dice_owner, self.dice_purpose = player, "prestige"
        try:
            before = len(player.zones["accomplished"])
            self.fire("anchor_at_sea", player, event={"place": space.id})
            if self.board.get("over"):
                return
            self.missions_by_data(player, space, docked=False)
            if self.board.get("over"):
                return
            # "If you have a mission card that is accomplished by arriving at a Discovery
            # Spot": only a mission of this spot takes the die's place, not one that merely
            # finished here (A Study on Pirate Infested Area at an infested spot).
            finished = player.zones["accomplished"][before:]
            # A Discovery mission finished here by its own rule (an `on anchor_at_sea` with no
            # `spot` in its data) was accomplished by arriving at the spot too.
            accomplished = bool(finished) and any(
                space.id in self.mission_info(m).spot
                or space.id in self.mission_info(m).spots
                or "discovery" in (self.cards.get(m) or {}).get("tags", ())
                for m in finished
            )
            if space.discovery:
                if not accomplished and not flags.get("spot_seen"):
                    self.discovery_prestige(player, space)
                flags["notes"].append(f"{space.title} (Discovery Spot)")
            elif not space.port:
                self.sunken_ship(player, space)
        finally:
            self.dice_owner = None

    def discovery_prestige(self, player: Player, space: Space) -> None:
        """ "If you arrive at a Discovery Spot without a mission card, you only gain prestige
        equal to the number of a die you roll"; Exploration Journal: "roll 2 dice and choose
        one. You must decide whether to use Exploration Journal before rolling"."""
        c = Context(player, space.id, "discovery")
        self.gain(c, "prestige", self.discovery_die(player, space))

    def discovery_die(self, player: Player, space: Space) -> int:
        """A prestige die rolled at a Discovery Spot: one die, or with Exploration Journal "roll
        2 dice and choose one. You must decide whether to use Exploration Journal before
        rolling". "You can only use it once for each Discovery Spot": a second Exploration
        Journal is not offered for another die of the same anchoring (a reward of two dice, or
        two missions met at one spot)."""
        flags = player.flags
        here = (self.round, len(flags.get("anchorages") or ()), space.id)
        if "exploration_journal" in player.zones["port_cards"] and flags.get("journal_at") != here:
            question = Question(
                "exploration_journal.use",
                player.index,
                "Exploration Journal: roll 2 dice and choose one?",
                ("yes", "no"),
            )
            if self.ask(player, question) == "yes":
                self.spend_port_card(player, "exploration_journal")
                flags["journal_at"] = here
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
        you anchor at the Discovery Spot". A card stating more than one of these is met when
        every one holds ("Each mission is accomplished as soon as its conditions are met"): a
        card of ``regions`` and ``spots`` at the anchoring, in a port or not, that completes
        the last of them."""
        info = self.mission_info(mission)
        flags = player.flags
        if info.before and self.round >= info.before:
            return None
        if not info.conditions:
            return None
        delivered = ""
        if info.deliver:
            if not docked:
                return None
            to = info.to
            if to and space.id not in to and (space.region or "") not in to:
                return None
            if info.deliver not in flags["goods"]:
                return None
            delivered = info.deliver
        if info.areas and len(flags["areas"]) < info.areas:
            return None
        if info.regions and not set(info.regions) <= flags["regions"]:
            return None
        if info.route and route_progress(info.route, flags["anchorages"]) != len(info.route):
            return None
        if info.spots and not set(info.spots) <= flags["spots"]:
            return None
        if info.spot and (docked or space.id not in info.spot):
            return None
        return delivered

    # -- Co-op sharing

    def share(self, c: Context | None = None) -> None:
        """Co-op: "If both players anchor at the same space during the same round, they may
        freely exchange or give any Specialty Goods and/or Port Cards to each other. Missions
        can be completed with these immediately.\""""
        if len(self.players) < 2:
            return
        first, second = self.players[0], self.players[1]
        if first.flags.get("position") is None:
            return
        if first.flags["position"] != second.flags.get("position"):
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
        """End of the Game, by the DSL function ``final_score`` (flow.cards): the prestige,
        plus Adventures of a Sailor, less each critical-damage and declining-health space
        checked; a sunk ship scores nothing ("Any prestige points you gained up to this point
        are nullified")."""
        if player.flags.get("sunk"):
            return 0
        return int(self.run_function("final_score", player))

    def recorded_score(self, player: Player) -> int:
        """The final score the End of the Game recorded ("Record your final prestige points in
        the logbook"), moved by any prestige a phase after it gained or lost (a house rule's
        phase inserted ``into: end`` counts, as a flow's score counter does at the end of any
        game); before it is recorded, the one it would record now."""
        flags = player.flags
        if "final_score" not in flags:
            return self.final_score(player)
        since = player.counters["prestige"] - flags.get(
            "final_score_prestige", player.counters["prestige"]
        )
        return int(flags["final_score"]) + since

    def result(self) -> GameResult:  # type: ignore[override]
        """The result: the final scores the flow's end recorded, the titles of the flow's
        ``titles from`` kind (solo, or the team's in co-op, by the cards' tags), who sank, the
        winner by the flow's ``winner`` and ``tiebreak``, the logbooks."""
        players = self.players
        flow = self._flow_table or flow_of(self)
        scores = [self.recorded_score(p) for p in players]
        sunk = [bool(p.flags.get("sunk")) for p in players]
        winner: int | None = None
        team: int | None = None
        kind = flow["titles"]
        if self.mode == "coop" and len(players) > 1:
            # "If either player's ship sinks, the game ends immediately in a loss for both."
            team = 0 if any(sunk) else sum(scores)
            bands = self.title_bands(kind, coop=True)
            titles = [NO_RECORD if any(sunk) else title_for(team, bands)]
        else:
            # Competitive: the rulebook gives titles for solo and co-op only ("apply additional
            # bonus and penalty points, exactly as in Solo Mode. The player with the higher
            # total Prestige wins"); each captain is given solo's title of their own score.
            # Provisional: the rulebook is silent on titles in the competitive game.
            bands = self.title_bands(kind, coop=False)
            titles = [
                NO_RECORD if s else title_for(v, bands) for v, s in zip(scores, sunk, strict=True)
            ]
            if len(players) > 1:
                if any(sunk):
                    # "If any player's ship sinks, the game ends immediately, and the other
                    # player is declared the winner."
                    afloat = [i for i, s in enumerate(sunk) if not s]
                    winner = afloat[0] if len(afloat) == 1 else None
                else:
                    # "The player with the higher total Prestige wins. In case of a tie ..."
                    # (the flow's tiebreak: the DSL function tie_break) "If it is still a tie,
                    # you share the victory."
                    winner = self.leader(scores, flow["winner"] == "lowest", flow["tiebreak"])
        self.log("game_over", scores, winner)
        return GameResult(scores, team, titles, sunk, winner, self.logbook)

    def title_bands(self, kind: str | None, coop: bool) -> tuple[TitleBand, ...]:
        """The title bands of the flow's ``titles from`` kind (the rulebook's when the data
        has none, or the flow names no kind): solo's, or co-op's."""
        if kind == "title" or kind is None:
            return self.coop_titles if coop else self.solo_titles
        return _titles_from_data(self.ir, coop, kind)

    #: The logbook's month line is the flow's own phase (``write_logbook``), not the engine's.
    logs_rounds = False

    # -- the logbook's special boxes

    def abandon_one(self, player: Player) -> bool:
        """Critical damage (the rule in flow.cards): "you must abandon one of your specialties or
        Port Cards" (the player chooses which; abandoning is not optional). False when there is
        none to abandon ("If you are unable to do so, your ship takes one additional damage",
        which the rule marks)."""
        if player.flags.get("sunk"):
            return True
        c = Context(player, "", "critical_damage")
        options = list(dict.fromkeys(player.zones["port_cards"]))
        options += self._specialty_options(player)
        if not options:
            self.log("critical_damage_unabandoned", player.index)
            return False
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
        return True

    def on_track_full(self, player: Player, track: str) -> None:
        """Sinking: "if you check the last space on your Ship Durability Track or Health Track,
        your ship sinks and the game ends immediately." The flow reads ``over`` to stop, and
        final scoring nullifies the prestige."""
        if player.flags.get("sunk"):
            return
        player.flags["sunk"] = track
        self.board["over"] = True
        self.log("sunk", player.index, track)
        if self.playing:
            # "the game ends immediately", whatever the flow's end condition says: a house
            # rule's own 'end_when' replaces the flow's 'end when ship_sunk()', and a sunk
            # ship then sailed on to the 12th month.
            raise ShipSank("the ship sank")

    # -- the steps without the map (scenarios of the card layer call them directly)

    def sail(self, player: Player, distance: int) -> None:
        """Sailing phase, without the map: sail ``distance`` spaces "within your Sailing Speed".

        The ``sailing`` window opens on every voyage, as on the map ("the Sailing phase,
        before the ship moves"): a card may change the reach or the spaces the Scurvy Check
        counts whatever the distance. The distance is known here before the window, so
        ``voyage_within_speed()`` is true while it opens for a voyage within the Sailing
        Speed: Reinforced Rope ("You may sail 1 additional space") is not offered then, and
        the spaces beyond the Sailing Speed that it paid for are excluded from the Scurvy
        Check.
        """
        if distance < 0:
            raise RuleError(f"cannot sail {distance} spaces")
        speed = player.counters["sailing_speed"]
        # Only while this window is open: elsewhere (the map, a card run alone) the voyage's
        # length is not known.
        player.flags["within_speed"] = distance <= speed
        try:
            window = self.fire(
                "sailing", player, quantities={"reach": speed, "unscurvied_distance": 0}
            )
        finally:
            player.flags["within_speed"] = False
        reach, unscurvied = window.q["reach"], window.q["unscurvied_distance"]
        if distance > reach:
            raise RuleError(
                f"cannot sail {distance} spaces with a reach of {reach}: a ship sails up to its "
                "Sailing Speed, and one more space with Reinforced Rope"
            )
        player.flags["distance_sailed"] = distance
        # Nothing excluded unless a card took spaces out (most months): no call for it.
        player.flags["excluded_distance"] = (
            excluded_distance(distance, speed, reach, unscurvied) if unscurvied else 0
        )
        self.log("sail", player.index, distance)

    def dock(self, player: Player, port: str) -> Context:
        """Anchoring phase A's cards: the ship docks at ``port``; cards in force answer
        ``dock`` (missions accomplished there, Famine's Scurvy Check)."""
        player.flags["position"] = port
        self.log("dock", player.index, port)
        return self.fire("dock", player, event={"port": port})

    def arrive_at_sea(self, player: Player, place: str) -> None:
        """The ship anchors at ``place``, not a port (Anchoring phase B)."""
        player.flags["position"] = place
        self.log("anchor_at_sea", player.index, place)

    def anchor_at_sea(self, player: Player, place: str) -> Context:
        """Anchoring phase B's cards: "the first thing you do is make a Scurvy Check", then cards
        in force answer ``anchor_at_sea`` (a Discovery mission "accomplished as soon as you
        anchor")."""
        self.arrive_at_sea(player, place)
        self.run_verb("scurvy_check", player)
        if self.board.get("over"):
            return Context(player, "", "anchor_at_sea", {"place": place})
        return self.fire("anchor_at_sea", player, event={"place": place})

    def run_function(self, name: str, player: Player, *args: Any) -> Any:
        """The value of a function the game's DSL defines (flow.cards), for ``player``."""
        function = self.dsl_functions.get(name)
        if function is None:
            raise RuleError(
                f"the DSL function '{name}' is not in the compiled game: flow.cards defines "
                "it; run 'cardc build'"
            )
        return self.call(lambda g, c: function(g, c, *args), Context(player, "", name))

    def run_verb(self, name: str, player: Player, *args: Any) -> Any:
        """Run a verb the game's DSL defines (flow.cards), for ``player``: the flow's steps
        and the rules a variant may redefine are the generated module's, never a copy here."""
        verb = self.dsl_verbs.get(name)
        if verb is None:
            raise RuleError(
                f"the DSL verb '{name}' is not in the compiled game: flow.cards defines it; "
                "run 'cardc build'"
            )
        if self.playing:
            # Inside play()'s Game.call, which locates a failure here at its DSL line.
            return verb(self, Context(player, "", name), *args)
        if not args:
            return self.call(verb, Context(player, "", name))
        return self.call(lambda g, c: verb(g, c, *args), Context(player, "", name))


def _chart_words(chart: Chart) -> str:
    """The chart a game is played on, as a scenario names it (``chart: map`` or ``stand_in``)."""
    if chart.source == MAP_SOURCE:
        return "the World Map of map.cards (chart: map)"
    return "the stand-in chart (chart: stand_in)"


_KEYS = ObjectCache(50_000)


def _keys(places: dict[str, int]) -> tuple[str, ...]:
    """``tuple(places)``, kept for the chart's cached reach dicts (the same few hundred come
    up in every game of a simulation)."""
    keys: tuple[str, ...] | None = _KEYS.get(places)
    return keys if keys is not None else _KEYS.put(places, tuple(places))


#: The Crew Action rows a Crew Stamina may take, top first ("6", "5", ... "1").
_ROWS: dict[int, tuple[str, ...]] = {}

#: The space card's properties and tags (game.cards: ``kind space``) a space of a chart that is
#: not the data's map answers (:meth:`UnchartedPassage.attr`, :meth:`UnchartedPassage.has_tag`).
_SPACE_PROPERTIES = frozenset({"stars", "specialty", "region"})
_SPACE_TAGS = frozenset({"sea", "port", "discovery", "pirate"})

#: The zones :meth:`UnchartedPassage.cards_in_force` reads by their rules; any other zone's
#: cards are simply in force.
_FLOW_ZONES = frozenset({"port_cards", "missions", "accomplished"})
#: The events of a card leaving the hand by its own block (``discard self``, ``move_card``,
#: ``play``): a single-use Port Card that logs one saw to itself
#: (:meth:`UnchartedPassage.use_once`).
_CARD_LEAVES = frozenset({"discard", "move_card", "play"})
#: The logbook lines of each voyage card, per IR.
_OPTIONS = ObjectCache(4096)
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
        "conditions",
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
        #: Whether its data states a condition at all (``before_round`` alone is none).
        self.conditions = bool(
            self.deliver or self.areas or self.regions or self.route or self.spots or self.spot
        )
        #: Whether its data can be met docked at a port, and anchored elsewhere (see
        #: :meth:`UnchartedPassage._mission_met`): a port's "dock at any port in each region"
        #: and delivery; a Discovery Spot's listed spots; areas and a route at either. A card
        #: of more than one is met where the last of them is (every one must hold), but a
        #: delivery is made docked and a Discovery mission's spot anchored at it.
        self.at_port = bool(self.deliver or self.areas or self.regions or self.route)
        self.at_sea = bool(self.areas or self.route or self.spots or self.spot)
        if self.deliver:
            self.at_sea = False
        if self.spot:
            self.at_port = False
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
