"""Uncharted Passage's own Python beside its cards: the natives and verbs its cards and its flow
call that neither the DSL nor the standard library can offer, and what the engine reads from a
game's natives module (``GAME_CLASS``, ``POLICIES``, the scenario hooks).

Loaded by path (never from inside the installed cardc); the rest of the game's Python sits in
sibling modules: ``game.py`` (the board state and the steps that read the map or ask the
captains), ``map.py`` (the World Map's geometry), ``policy.py`` (the captains) and
``scenario.py`` (what a scenario may set, check and run).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from itertools import permutations
from typing import Any

from engine.api import CardError, implementations, native, verb
from engine.runtime import Context, Game, Question, RuleError
from engine.stdlib import dice as stdlib_dice

from . import game, policy, scenario
from . import map as world_map
from .game import (
    LOGBOOK_LINE,
    UnchartedPassage,
    crew_stamina_for_scurvy,
)
from .game import (
    sailor_points as game_sailor_points,
)
from .game import suffer_scurvy as scurvy_suffered
from .map import EAST_ASIA_PORTS
from .map import place_id as _place_id
from .policy import POLICIES
from .scenario import (
    ACTION_ARGS,
    ACTIONS,
    EVENT_KINDS,
    EXPECT,
    EXPECT_KINDS,
    GIVEN,
    GIVEN_KINDS,
    POOLS,
    QUESTIONS,
)

# -- natives: questions about the board, never a change of state


@native(returns="bool")
def in_pirate_infested_area(g: Game, c: Context) -> bool:
    """True when the acting player's ship is on one of "the 6 spaces adjacent to a pirate icon"."""
    flags = c.player.flags
    if "in_pirate_infested_area" in flags:
        return bool(flags["in_pirate_infested_area"])
    position = flags.get("position")
    if position is None:
        return False
    infested = g.board.get("pirate_infested_area")
    if infested is None:
        # The World Map not unfolded yet (a scenario that reveals Pirate's Raid without the
        # setup): the chart in play says which spaces are infested, as at_discovery_spot reads
        # it, or a ship next to a pirate icon would ignore the event.
        chart = getattr(g, "chart", None) or world_map.chart_for(g.ir)
        infested = chart.infested_spaces
    return _place_id(position) in infested


@native(returns="bool")
def at_discovery_spot(g: Game, c: Context) -> bool:
    """True when the acting player's ship is on a Discovery Spot ("The spaces marked with an
    exclamation-point icon are Discovery Spots")."""
    position = c.player.flags.get("position")
    if position is None:
        return False
    chart = getattr(g, "chart", None) or world_map.chart_for(g.ir)
    space = chart.spaces.get(_place_id(position))
    return space is not None and space.discovery


@native("place any", returns="name")
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


# -- verbs


@verb("damage number")
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
        # "apply Ship Damage equal to the difference": the DSL verb ship_damage (flow.cards).
        if isinstance(g, UnchartedPassage):
            g.ship_damage(c.player, damage, c.card)
        else:
            g.mark(c, "durability", damage)


# -- the Scurvy Check's steps (the check itself is the DSL verb scurvy_check of flow.cards)


@native(returns="number")
def scurvy_distance(g: Game, c: Context) -> int:
    """The distance a Scurvy Check compares: "the distance you actually sailed", less what
    Reinforced Rope excludes ("The extra sailing distance from it does not count toward the
    Scurvy Check")."""
    flags = c.player.flags
    return max(int(flags.get("distance_sailed", 0)) - int(flags.get("excluded_distance", 0)), 0)


@native(returns="number")
def scurvy_stamina(g: Game, c: Context) -> int:
    """The Crew Stamina a Scurvy Check may apply: what Declining Health leaves of it, or the
    whole number written when Rum was played for this check (:func:`offer_rum`)."""
    if c.player.flags.get("rum_for_scurvy"):
        return int(c.player.counters["crew_stamina"])
    return crew_stamina_for_scurvy(g, c.player)


@verb()
def offer_rum(g: Game, c: Context) -> None:
    """ "nor can you apply the value to Scurvy Check. (Exception: using Port Card Rum.)": asked
    only when the struck-out Crew Stamina would spare Scurvy and Rum is held."""
    player = c.player
    player.flags["rum_for_scurvy"] = False
    if "rum" not in player.zones["port_cards"]:
        return  # nothing to offer (most checks): the distance and stamina are not worked out
    distance = scurvy_distance(g, c)
    stamina = crew_stamina_for_scurvy(g, player)
    written = player.counters["crew_stamina"]
    if distance > stamina and written > stamina:
        question = Question(
            "rum.scurvy_check",
            player.index,
            f"Rum: apply your struck-out Crew Stamina {written} to the Scurvy Check?",
            ("yes", "no"),
        )
        if g.ask(player, question) == "yes":
            # Used, so discarded ("single-use cards that are discarded immediately after use"),
            # unless a house rule's 'single_use false' keeps it, as for the Crew Action's Rum.
            if isinstance(g, UnchartedPassage):
                g.spend_port_card(player, "rum")
            else:
                player.zones["port_cards"].remove("rum")
                g.log("play", player.index, "rum")
            player.flags["rum_for_scurvy"] = True


@verb("amount number")
def scurvy(g: Game, c: Context, shortfall: int) -> None:
    """What a Scurvy Check found (the DSL verb ``scurvy_check`` works it out): logged, then
    suffered (:func:`game.suffer_scurvy`)."""
    g.log("scurvy_check", c.player.index, scurvy_distance(g, c), scurvy_stamina(g, c), shortfall)
    c.player.flags["rum_for_scurvy"] = False
    scurvy_suffered(g, c, shortfall)


@verb("amount number")
def suffer_scurvy(g: Game, c: Context, amount: int) -> None:
    """Scurvy that no Scurvy Check found ("Discover Galapagos Islands": "suffer Scurvy equal to
    the die result. You may use Lime Juice to reduce the amount of Scurvy damage"): the
    ``scurvy`` window, where Lime Juice and any card answering Scurvy may reduce it, then the
    marks (:func:`game.suffer_scurvy`)."""
    scurvy_suffered(g, c, int(amount))


# -- the rules' steps the cards call, kept beside the board they change (game.py)

accomplish = verb("mission card")(game.accomplish)
reward_die = native(returns="number")(game.reward_die)


# -- the flow's steps (flow.cards says when each runs); each acts for the acting player, or for
#    the whole table when the step is everyone's.


# The setup's steps and the month's steps are the game's own methods taking the acting player's
# context (game.py), registered as they are: the flow calls each once, with no wrapper between.
unfold_world_map = verb(name="unfold_world_map")(UnchartedPassage.set_up_world_map)
make_voyage_pile = verb(name="make_voyage_pile")(UnchartedPassage.deal_voyage_pile)
shuffle_port_cards = verb()(UnchartedPassage.shuffle_port_cards)
draw_missions = verb(name="draw_missions")(UnchartedPassage.deal_missions)
new_logbook_line = verb(name="new_logbook_line")(UnchartedPassage.begin_month)
reveal_mid_event = verb()(UnchartedPassage.reveal_mid_event)
reveal_voyage = verb()(UnchartedPassage.reveal_voyage)
roll_pirates = verb()(UnchartedPassage.roll_pirates)
face_pirates = verb()(UnchartedPassage.face_pirates)
drop_anchor = verb()(UnchartedPassage.drop_anchor)
crew_actions = verb()(UnchartedPassage.crew_actions)
anchorage_rewards = verb(name="anchorage_rewards")(UnchartedPassage.anchored_elsewhere)
write_logbook = verb()(UnchartedPassage.write_logbook)
write_numbers = verb()(UnchartedPassage.write_numbers)
sail = verb(name="sail")(UnchartedPassage.set_sail)


@verb()
def abandon_one(g: UnchartedPassage, c: Context) -> bool:
    """Critical damage: the acting captain abandons a specialty or a Port Card, if any."""
    return g.abandon_one(c.player)


@verb("specialty name")
def gain_specialty(g: UnchartedPassage, c: Context, specialty: str) -> None:
    """ "When you gain specialties, you mark it by writing the name of the specialties in the
    Specialties Book": the specialty a card names (``gain_specialty silk``)."""
    g.add_specialty(c.player, str(specialty))


share = verb()(UnchartedPassage.share)


@native(returns="number", name="sailor_points")
def sailor_points_held(g: UnchartedPassage, c: Context) -> int:
    """Adventures of a Sailor's points for the cards the acting captain holds."""
    held = c.player.zones["port_cards"].count("adventures_of_a_sailor")
    return game_sailor_points(held, g.sailor_points)


@native(returns="number")
def critical_damage_checked(g: UnchartedPassage, c: Context) -> int:
    """Critical-damage spaces checked on the acting captain's Ship Durability Track."""
    return c.player.tracks["durability"].checked("critical_damage")


@native(returns="number")
def declining_health_checked(g: UnchartedPassage, c: Context) -> int:
    """Declining-health spaces checked on the acting captain's Health Track."""
    return c.player.tracks["health"].checked("declining_health")


@verb("amount number")
def record_final_score(g: UnchartedPassage, c: Context, amount: int) -> None:
    """ "Record your final prestige points in the logbook", with the prestige they were worked
    out from: prestige a later phase of the end moves counts too (``recorded_score``)."""
    flags = c.player.flags
    flags["final_score"] = int(amount)
    flags["final_score_prestige"] = int(c.player.counters["prestige"])


@native(returns="bool")
def cooperative(g: UnchartedPassage, c: Context) -> bool:
    """The 2-player cooperative mode."""
    return g.mode == "coop" and len(g.players) > 1


@native(returns="number")
def marker_arrival(g: UnchartedPassage, c: Context) -> int:
    """When the acting captain's Prestige marker arrived on its space ("if it stops on a space
    already occupied by another player, stack it on top"): of two markers on one space, the
    higher number is on top. At the start "the most recent sailor's marker" is on top: the
    flow cannot know who sailed last, so player 1's."""
    return int(c.player.flags["arrived"])


#: ``difference`` (the Pirate's Raid: "roll two dice ... the difference") is the standard
#: library's.
NATIVES: dict[str, Callable[..., Any]] = {"difference": stdlib_dice.difference}

GAME_CLASS = UnchartedPassage


def check_voyage(
    card: dict[str, Any], cards: dict[str, Any], vocabulary: dict[str, Any]
) -> list[CardError]:
    """A voyage card must allow a logbook line: "write a number between 1 and 6 in the
    Sailing Speed, Crew Stamina, and Armament spaces ... The sum of the three numbers cannot
    exceed the amount of resources", or each number of a "1 3 5" card in a space. Resources
    below 3 (1 in each space), a triple no space can take, or a number restraint ("Follow any
    number restraints imposed by events") that none of the lines meets left the Planning phase
    asking a question with no answer."""
    counters = vocabulary.get("counters", {})
    bounds = [
        (int((counters.get(n) or {}).get("min") or 0), (counters.get(n) or {}).get("max"))
        for n in LOGBOOK_LINE
    ]
    props = card.get("properties") or {}
    problems = _check_resources(props, bounds)
    if problems:
        return problems
    return _check_restraint(card, props, bounds, vocabulary)


def _check_resources(props: dict[str, Any], bounds: list[tuple[int, Any]]) -> list[CardError]:
    """The voyage card's resources give at least one logbook line (:func:`check_voyage`)."""
    if props.get("resource_triple") is not None:
        triple = game._numbers(props["resource_triple"])
        if len(triple) != 3:
            return [
                CardError(
                    f"resource_triple gives {len(triple)} numbers; a voyage card's fixed "
                    "resources are three, one for each space",
                    "resource_triple",
                    "write three numbers, like: resource_triple 1 3 5",
                )
            ]
        fits = any(
            all(
                low <= n and (high is None or n <= high)
                for n, (low, high) in zip(p, bounds, strict=True)
            )
            for p in set(permutations(triple))
        )
        if not fits:
            said = ", ".join(
                f"{n} {low} to {high}" for n, (low, high) in zip(LOGBOOK_LINE, bounds, strict=True)
            )
            return [
                CardError(
                    f"resource_triple {' '.join(map(str, triple))} cannot be written one in "
                    f"each space: {said}",
                    "resource_triple",
                    "give three numbers each space can take",
                )
            ]
        return []
    if props.get("resources") is None:
        return [
            CardError(
                "a voyage card gives its resources: 'resources 12' or 'resource_triple 1 3 5'",
                None,
                "add one of them",
            )
        ]
    least = sum(low for low, _ in bounds)
    total = game._number(props["resources"], least)
    if total < least:
        return [
            CardError(
                f"resources {total} are fewer than {least}, the least a logbook line can be "
                f"({' + '.join(str(low) for low, _ in bounds)}: \"you can't write down zeros or "
                'leave blanks"), so no line could be written',
                "resources",
                f"give at least {least}",
            )
        ]
    return []


def _lines(props: dict[str, Any], bounds: list[tuple[int, Any]]) -> list[tuple[int, ...]]:
    """Every logbook line the card's resources allow, before its restraint."""
    triple = game._numbers(props.get("resource_triple"))
    if len(triple) == 3:
        return list(set(permutations(triple)))
    (low_s, high_s), (low_c, high_c), (low_a, high_a) = bounds
    total = game._number(props.get("resources"), 18)
    return [
        (s, c, a)
        for s in range(low_s, (high_s or 6) + 1)
        for c in range(low_c, (high_c or 6) + 1)
        for a in range(low_a, (high_a or 6) + 1)
        if s + c + a <= total
    ]


def _value(expr: Any, line: dict[str, int], params: dict[str, Any], month: int = 0) -> Any:
    """A restraint's value for one logbook line in ``month``, or None when it reads anything
    but the line's three numbers, the month, the game's params and arithmetic (then it cannot
    be judged here)."""
    if not isinstance(expr, dict):
        return None
    kind = expr.get("kind")
    if kind in ("num", "bool"):
        return expr.get("value")
    if kind == "builtin" and expr.get("name") == "round":
        return month or None
    if kind == "counter":
        return line.get(str(expr.get("name")))
    if kind == "param":
        value = params.get(str(expr.get("name")))
        return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None
    if kind == "not":
        inner = _value(expr.get("operand"), line, params, month)
        return None if inner is None else not inner
    left = _value(expr.get("left"), line, params, month)
    right = _value(expr.get("right"), line, params, month)
    if left is None or right is None:
        return None
    op = expr.get("op")
    try:
        if kind == "logic":
            return (bool(left) and bool(right)) if op == "and" else (bool(left) or bool(right))
        if kind == "compare":
            return {
                "<": left < right,
                "<=": left <= right,
                ">": left > right,
                ">=": left >= right,
                "==": left == right,
                "!=": left != right,
            }.get(str(op))
        if kind == "binary":
            if op in ("/", "%") and right == 0:
                return None
            return {
                "+": left + right,
                "-": left - right,
                "*": left * right,
                "/": left // right,
                "%": left % right,
            }.get(str(op))
    except TypeError:
        return None
    return None


def _check_restraint(
    card: dict[str, Any],
    props: dict[str, Any],
    bounds: list[tuple[int, Any]],
    vocabulary: dict[str, Any],
) -> list[CardError]:
    """ "Follow any number restraints imposed by events": a restraint that no line the card's
    resources allow can meet leaves the Planning phase no line to write (the game stopped with
    a rule error in the month that drew the card). A restraint reading the month is judged in
    each month the card may be drawn in; one reading more than the line's numbers, the month
    and the params is not judged here."""
    expr = ((card.get("formulas") or {}).get("restraint") or {}).get("expr")
    if expr is None:
        return []
    params = vocabulary.get("params") or {}
    lines = [dict(zip(LOGBOOK_LINE, line, strict=True)) for line in _lines(props, bounds)]
    # A restraint reading the month ("armament <= round") is judged in every month the card
    # may be drawn in: "Make a pile of 13 Voyage Cards, with the 6 Second-half Voyage Cards on
    # the bottom ... and the 6 First-half Voyage Cards on the top".
    for month in _months(card, params) if _reads_month(expr) else (0,):
        verdicts = [_value(expr, line, params, month) for line in lines]
        if verdicts and not any(v is None or v for v in verdicts):
            return [_no_line(expr, props, bounds, month)]
    return []


def _reads_month(expr: Any) -> bool:
    """Whether a restraint reads the month (``round``)."""
    if isinstance(expr, dict):
        if expr.get("kind") == "builtin" and expr.get("name") == "round":
            return True
        return any(_reads_month(v) for v in expr.values())
    if isinstance(expr, list):
        return any(_reads_month(v) for v in expr)
    return False


def _months(card: dict[str, Any], params: dict[str, Any]) -> range:
    """The months a voyage card may be revealed in: the first half of the pile's, the second
    half's, or any month (a card of neither half)."""
    rounds = params.get("rounds")
    rounds = rounds if isinstance(rounds, int) and not isinstance(rounds, bool) else 12
    half = rounds // 2
    tags = card.get("tags") or []
    if "first_half" in tags:
        return range(1, half + 1)
    if "second_half" in tags:
        return range(half + 1, rounds + 1)
    return range(1, rounds + 1)


def _no_line(
    expr: Any, props: dict[str, Any], bounds: list[tuple[int, Any]], month: int
) -> CardError:
    """The problem of a restraint no logbook line meets (in ``month``, when it reads it)."""
    said = game._restraint_words(expr)
    triple = game._numbers(props.get("resource_triple"))
    given = (
        f"the numbers {' '.join(map(str, triple))}, one in each space"
        if len(triple) == 3
        else f"resources {game._number(props.get('resources'), 0)}, each number "
        f"{bounds[0][0]} to {bounds[0][1]}"
    )
    when = f" in month {month}" if month else ""
    return CardError(
        f"no logbook line meets the restraint{f' ({said})' if said else ''} within {given}"
        f"{when}: the Planning phase would have no line to write",
        "restraint",
        "loosen the restraint or give other resources",
    )


def check_world_map(card: dict[str, Any], cards: dict[str, Any]) -> list[CardError]:
    """The World Map has a pile of Voyage Cards to play on: "Each round consists of the 1)
    Planning phase ... Reveal one card from the top of the Voyage Card pile." A game (a house
    rule's ``remove_kinds: [voyage]``) with none played twelve months of nothing: no line
    written, no pirate, every ship sailing 1 space. Told at the removal, else at the map."""
    if any(other["kind"] == "voyage" for other in cards.values()):
        return []
    return [
        CardError(
            "the game has no Voyage Card: each month begins by revealing one from the top of "
            "the Voyage Card pile, and its resources are what the logbook line is written within",
            None,
            "keep some voyage cards, or add the variant's own (add: voyage first_half ...)",
            kind="voyage",
        )
    ]


def check_mission(card: dict[str, Any], cards: dict[str, Any]) -> list[CardError]:
    """A mission card's conditions as data must be met by some anchoring. A card may state
    several ("Each mission is accomplished as soon as its conditions are met": every one must
    hold, as a Route card's regions and its Discovery Spots), but a delivery is made docked at
    a port ("If you have the appropriate specialty when you dock at a destination") and a
    Discovery mission's spot is anchored at ("as soon as you anchor at the Discovery Spot"),
    never docked at: a card of both is never met. A ``to`` with nothing to deliver says where
    nothing goes: the card was met by no anchoring, silently."""
    props = card.get("properties") or {}
    problems = []
    if props.get("deliver") is not None and props.get("spot") is not None:
        problems.append(
            CardError(
                "a delivery ('deliver') is made docked at a port, and the Discovery Spot "
                "('spot') is anchored at, never docked at: no anchoring meets both, so the "
                "mission is never accomplished",
                "spot",
                "keep one of them: a trade mission delivers ('deliver', 'to'), a discovery "
                "mission anchors at its 'spot'; a route mission's 'spots' may go with a "
                "delivery (both must hold)",
            )
        )
    if props.get("to") is not None and props.get("deliver") is None:
        problems.append(
            CardError(
                "'to' says where a trade mission delivers its specialty, and the card gives "
                "no 'deliver': the mission is never accomplished",
                "to",
                "add the specialty delivered (deliver silk), or for a route mission give "
                "'regions' instead",
            )
        )
    return problems


def check_title(card: dict[str, Any], cards: dict[str, Any]) -> list[CardError]:
    """A title band holds the final scores from its ``min_score`` to its ``max_score`` ("31-40:
    Mediocre Explorer"): one whose lowest is above its highest holds none, so no score earns it
    and the scores between are left to no title, silently (a house rule's bounds written the
    wrong way round)."""
    props = card.get("properties") or {}
    low, high = props.get("min_score"), props.get("max_score")
    numbers = (int, float)
    if not isinstance(low, numbers) or not isinstance(high, numbers) or low <= high:
        return []
    return [
        CardError(
            f"min_score {low:g} is above max_score {high:g}: the band holds no final score, so "
            "no score earns this title",
            "min_score",
            f"the band's lowest score first: min_score {high:g}; max_score {low:g}",
        )
    ]


#: cardc check runs these on each card of the kind (engine.api).
CARD_CHECKS = {
    "voyage": check_voyage,
    "world_map": check_world_map,
    "mission": check_mission,
    "title": check_title,
}

#: The decks this Python keeps for 'draw' (board["deck:ZONE"]): the Port Card pile, shuffled in
#: the setup ("5. Place the pile of Port Cards ... next to the World Map").
DECKS = ("port_cards",)

# The same natives and verbs as plain tables, for a program that reads those rather than
# engine.api.implementations.
NATIVES = implementations(sys.modules[__name__]).natives
VERBS = implementations(sys.modules[__name__]).verbs


__all__ = [
    "ACTIONS",
    "ACTION_ARGS",
    "CARD_CHECKS",
    "DECKS",
    "EVENT_KINDS",
    "EXPECT",
    "EXPECT_KINDS",
    "GAME_CLASS",
    "GIVEN",
    "GIVEN_KINDS",
    "NATIVES",
    "POLICIES",
    "POOLS",
    "QUESTIONS",
    "VERBS",
    "game",
    "policy",
    "scenario",
    "world_map",
]
