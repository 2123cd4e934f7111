"""Incredible Expeditions: Quest for Atlantis: the natives its flow and cards call.

The game is played by its flow (``cards/incredible_expeditions/flow.cards``, played by
:class:`engine.flow.FlowGame`): the setup's four Steps, the turn (Marooned, a Rest Turn or an
Encounter Turn, the end of the turn, the Draw Phase), Venturing Forth, Facing an Encounter and
winning, with the order, the conditions and the arithmetic of the rules in the DSL. This module
holds what the DSL and the standard library lack, each step quoting the rulebook
(``incredible-expeditions-atlantis.txt``):

- the players' choices, one question at a time: the first-player bid, a Rest or an Encounter
  Turn, the Market's mix, what to Acquire and how to pay, how to raise Heroism and
  Skullduggery against an Encounter (:meth:`IncredibleExpeditions.raise_against_encounter`),
  what next on an Encounter Turn, the Draw Phase's Sacrifice and discards;
- the player board: numbered Crew Cabins (``player.flags["cabins"]``, cabin 1 first; the
  ``crew_cabins`` zone mirrors the occupied ones), each Crew Refreshed or Exhausted
  (``flags["exhausted"]``, cabin numbers) and perhaps Cursed (``flags["cursed"]``); Lost Crew
  go "under your Expedition Leader card", the ``lost_crew`` zone; the die that picks a cabin;
- the shared decks (Resource, Crew, Encounter, each with its discard pile), the Market's cards,
  the Location track, a difficulty's Half-Heroism/Half-Skullduggery bubbles;
- the policies (``greedy``, ``random``), the scenarios' hooks and the game told for ``cardc sim
  --log`` (:func:`narrate`, phase by phase in the flow's titles).

Values the rulebook does not print (the cards' numbers, the cabins' count) are the cards'
``@provisional`` data; choices the rulebook leaves open are said where they are made.
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple

from engine.api import CardError
from engine.flow import FlowGame, PhaseFn
from engine.runtime import (
    Context,
    Game,
    GameEnded,
    ObjectCache,
    Player,
    Policy,
    Question,
    RandomLegal,
    RuleError,
)
from engine.scenario_types import PLAYER, Choice, Fields, Flag, Id, Many, Maybe, Number

#: The difficulty bubble that "must be met with EITHER Heroism OR Skullduggery ENTIRELY".
EITHER = "heroism_or_skullduggery"
#: The three kinds of value, in the order the cards print them.
VALUE_KINDS = ("money", "heroism", "skullduggery")
TEMPORARY = {pool: f"temporary_{pool}" for pool in VALUE_KINDS}

#: Question ids (a scenario's ``choices`` name them).
BID = "first_player_bid"
TURN = "rest_or_encounter"
MARKET_CREW = "lay_out_market.crew"
MARKET_RESOURCES = "lay_out_market.resources"
ACQUIRE = "acquire"
PAY = "pay"
RAISE = "raise"
HALF_BUBBLE_QUESTION = "face_encounter.half_heroism_half_skullduggery"
ENCOUNTER_TURN = "encounter_turn"
SACRIFICE = "sacrifice"
DISCARD = "discard"
#: Which Exhausted Crew ``refresh_one`` Refreshes, when there is more than one.
REFRESH = "refresh_one"
#: Which Cursed Crew ``lift_curse`` lifts the Curse from, when there is more than one.
LIFT_CURSE = "lift_curse"
#: The flow's `may rescue_crew` in the phase `marooned` (flow.cards).
RESCUE = "flow.marooned.rescue_crew"


class _Options(dict):  # type: ignore[type-arg]
    """``prefix + key``, made once per key (a game builds the same answers hundreds of times)."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def __missing__(self, key: Any) -> str:
        value = self[key] = f"{self.prefix}{key}"
        return value


PLAY_OPTION, ABILITY_OPTION = _Options("play "), _Options("ability ")


class _ForOptions(dict):  # type: ignore[type-arg]
    """``card for N``, made once per card and seat."""

    def __missing__(self, key: tuple[str, int]) -> str:
        value = self[key] = f"{key[0]} for {key[1]}"
        return value


_FOR = _ForOptions()
#: "raise the totals to Acquire <title>", made once per card.
_PAY_PROMPT: dict[str, str] = {}
EXHAUST_OPTION, TOKEN_OPTION = _Options("exhaust "), _Options("token ")

#: The answers that end a raise, a market, an acquisition or a discard.
DONE = "done"
FACE = "face"
KEEP = "keep"
NONE = "none"


# -- the cards, read once per IR -------------------------------------------------------------


def _triple(clauses: Any, where: str) -> tuple[int, int, int]:
    """``money 1, heroism 2`` as (money, heroism, skullduggery)."""
    values = dict.fromkeys(VALUE_KINDS, 0)
    for clause in clauses or ():
        if len(clause) != 2 or clause[0] not in values or not isinstance(clause[1], int):
            raise RuleError(f"{where}: a value is money, heroism or skullduggery and a number")
        values[clause[0]] += clause[1]
    return values["money"], values["heroism"], values["skullduggery"]


class Difficulty(NamedTuple):
    """An Encounter's difficulty: "up to three values listed in the center of the card"."""

    heroism: int
    skullduggery: int
    #: Each Half-Heroism/Half-Skullduggery bubble, met by one of the two entirely.
    either: tuple[int, ...]

    @classmethod
    def from_card(cls, card: dict[str, Any]) -> Difficulty:
        """The difficulty written in an encounter's ``difficulty`` property."""
        heroism, skullduggery, either = 0, 0, []
        for clause in card["properties"].get("difficulty", []):
            if len(clause) != 2 or not isinstance(clause[1], int):
                raise RuleError(
                    f"{card['title']}: a difficulty is a kind and a number, not {clause}"
                )
            kind, amount = clause
            if kind == "heroism":
                heroism += amount
            elif kind == "skullduggery":
                skullduggery += amount
            elif kind == EITHER:
                either.append(amount)
            else:
                raise RuleError(
                    f"{card['title']}: '{kind}' is not a difficulty; "
                    f"difficulties: heroism, skullduggery, {EITHER}"
                )
        return cls(heroism, skullduggery, tuple(either))


def ways_to_meet(difficulty: Difficulty, heroism: int, skullduggery: int) -> list[str]:
    """Every way ``heroism`` and ``skullduggery`` meet ``difficulty`` (its label: which pool
    meets each half bubble, ``heroism+skullduggery``), none if it cannot be met.

    "You must raise enough Heroism ... to meet any Heroism difficulty listed and raise enough
    Skullduggery to meet any Skullduggery difficulty listed. Any difficulty listed on a
    Half-Heroism/Half-Skullduggery symbol must be met with EITHER Heroism OR Skullduggery
    ENTIRELY. You may not meet part of the cost with Heroism and the rest with Skullduggery."
    """
    if not difficulty.either:
        met = difficulty.heroism <= heroism and difficulty.skullduggery <= skullduggery
        return (
            ["heroism" if difficulty.heroism or not difficulty.skullduggery else "skullduggery"]
            if met
            else []
        )
    ways: list[str] = []
    seen: set[tuple[int, int]] = set()
    for pools in itertools.product(("heroism", "skullduggery"), repeat=len(difficulty.either)):
        need_h, need_s = difficulty.heroism, difficulty.skullduggery
        for amount, pool in zip(difficulty.either, pools, strict=True):
            if pool == "heroism":
                need_h += amount
            else:
                need_s += amount
        label = "+".join(pools)
        if need_h <= heroism and need_s <= skullduggery and (need_h, need_s) not in seen:
            # Two ways that take the same Heroism and Skullduggery are one choice.
            seen.add((need_h, need_s))
            ways.append(label)
    return ways


def combinations(difficulty: Difficulty) -> tuple[tuple[int, int, str], ...]:
    """Each way of meeting ``difficulty`` as (Heroism needed, Skullduggery needed, its label),
    in the order of :func:`ways_to_meet` (each half bubble met by Heroism, then by
    Skullduggery)."""
    if not difficulty.either:
        label = "heroism" if difficulty.heroism or not difficulty.skullduggery else "skullduggery"
        return ((difficulty.heroism, difficulty.skullduggery, label),)
    ways: list[tuple[int, int, str]] = []
    for pools in itertools.product(("heroism", "skullduggery"), repeat=len(difficulty.either)):
        need_h, need_s = needs(difficulty, "+".join(pools))
        # Half bubbles met the other way round for the same totals are the same way.
        if all((h, s) != (need_h, need_s) for h, s, _ in ways):
            ways.append((need_h, need_s, "+".join(pools)))
    return tuple(ways)


def needs(difficulty: Difficulty, way: str) -> tuple[int, int]:
    """The Heroism and Skullduggery ``way`` (a label of :func:`ways_to_meet`) asks for."""
    need_h, need_s = difficulty.heroism, difficulty.skullduggery
    pools = way.split("+") if difficulty.either else ()
    for amount, pool in zip(difficulty.either, pools, strict=True):
        if pool == "heroism":
            need_h += amount
        else:
            need_s += amount
    return need_h, need_s


class Catalogue:
    """What the flow reads from the cards, worked out once per IR."""

    def __init__(self, ir: dict[str, Any]):
        cards = ir["cards"]
        self.by_kind: dict[str, list[str]] = {}
        for card in cards:
            self.by_kind.setdefault(card["kind"], []).append(card["id"])
        self.values: dict[str, tuple[int, int, int]] = {}
        self.cost: dict[str, tuple[int, int, int]] = {}
        self.difficulty: dict[str, Difficulty] = {}
        #: Each Encounter's ways of meeting its difficulty (:func:`combinations`).
        self.ways: dict[str, tuple[tuple[int, int, str], ...]] = {}
        self.copies: dict[str, int] = {}
        self.starting: list[str] = []
        for card in cards:
            props, cid = card["properties"], card["id"]
            where = card["title"]
            if card["kind"] == "resource":
                self.values[cid] = _triple(props.get("values"), where)
                if "to_acquire" in props:
                    self.cost[cid] = _triple(props["to_acquire"], where)
                self.starting += [cid] * int(props.get("starting_copies", 0))
                if "copies" in props:
                    self.copies[cid] = int(props["copies"])
            elif card["kind"] == "crew":
                self.values[cid] = _triple(props.get("bubbles"), where)
                self.cost[cid] = _triple(props.get("to_acquire"), where)
                self.copies[cid] = int(props.get("copies", 1))
            elif card["kind"] == "encounter":
                self.difficulty[cid] = Difficulty.from_card(card)
                self.ways[cid] = combinations(self.difficulty[cid])
                self.copies[cid] = int(props.get("copies", 1))
        #: Resources with an Ability ("on play").
        self.abilities = {
            card["id"]
            for card in cards
            if card["kind"] == "resource" and "play" in card["triggers"]
        }
        self.rules = [c["id"] for c in cards if c["kind"] in ("rule", "layer")]
        #: The Crew cards: in force only while aboard and not Cursed.
        self.crew_ids = frozenset(self.by_kind.get("crew", ()))
        #: trigger -> the cards with a handler for it.
        self.answering: dict[str, set[str]] = {}
        for card in cards:
            for trigger in card["triggers"]:
                self.answering.setdefault(trigger, set()).add(card["id"])
        self.titles = {c["id"]: c["title"] for c in cards}
        #: Each Encounter's easiest way to be met: the (Heroism, Skullduggery) of least sum.
        self.easiest = {
            cid: min(((h, s) for h, s, _way in ways), key=sum) for cid, ways in self.ways.items()
        }
        #: ``play X`` (a raise answer) -> the values X adds (a policy reads it per answer).
        self.played = {PLAY_OPTION[card]: values for card, values in self.values.items()}
        #: ``exhaust N`` -> the cabin N.
        self.cabin_of = {EXHAUST_OPTION[n]: n for n in range(1, 100)}
        #: The questions of a Crew's ``may { exhaust self ... }``: an ability whose cost is
        #: Exhausting the Crew itself, offered only while it is Refreshed (IE.may).
        self.exhausting_mays = frozenset(
            f"{card['id']}.{trigger}.{node['name']}"
            for card in cards
            if card["kind"] == "crew"
            for trigger, handler in card["triggers"].items()
            for node in _statements(handler.get("body") or ())
            if node.get("kind") == "may" and _exhausts_self(node.get("body") or ())
        )


def _statements(body: Any) -> Iterator[dict[str, Any]]:
    """Every statement of a handler's body, those inside blocks too (IR nodes)."""
    stack = [body]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            if "kind" in node and "at" in node:
                yield node
            stack.extend(v for v in node.values() if isinstance(v, (list, dict)))


def _exhausts_self(body: list[Any]) -> bool:
    """True when a block Exhausts the card itself (``exhaust self``) at its top level."""
    return any(
        isinstance(node, dict)
        and node.get("kind") == "verb"
        and node.get("verb") == "exhaust"
        and node.get("args") == [{"kind": "builtin", "name": "self"}]
        for node in body
    )


#: The properties whose clauses are money, heroism and skullduggery values, by kind.
_VALUE_PROPERTIES = {
    "resource": ("values", "to_acquire"),
    "crew": ("bubbles", "to_acquire"),
}


def check_values(card: dict[str, Any], cards: dict[str, Any]) -> list[CardError]:
    """What :class:`Catalogue` reads of a card, checked by ``cardc check`` at the property's
    line (``CARD_CHECKS``: a card that checks also runs): values and costs are ``money N,
    heroism N, skullduggery N`` clauses; a difficulty's are ``heroism``, ``skullduggery`` or
    ``heroism_or_skullduggery`` and a number. Every problem of the card, not the first only."""
    problems: list[CardError] = []
    props = card["properties"]
    for prop in _VALUE_PROPERTIES.get(card["kind"], ()):
        named: list[str] = []
        for clause in props.get(prop) or ():
            if len(clause) != 2 or clause[0] not in VALUE_KINDS or not _count(clause[1]):
                problems.append(
                    CardError(
                        f"'{prop}' clause {_said(clause)} is not a kind of value and a number",
                        prop,
                        f"write: {prop} money 1, heroism 2 (the kinds: {', '.join(VALUE_KINDS)})",
                    )
                )
            elif clause[0] in named:
                # A Crew's "three bubbles" show its money, heroism and skullduggery, a
                # Resource's "values on the upper left" the same three, and the cost "money,
                # heroism, skullduggery or some combination of these": each kind once. Named
                # twice (a slip for another kind), the two were added up without a word.
                twice = [c[1] for c in props[prop] if len(c) == 2 and c[0] == clause[0]]
                problems.append(
                    CardError(
                        f"'{prop}' names {clause[0]} twice; a card shows each of "
                        "money, heroism and skullduggery once",
                        prop,
                        f"write it once: {prop} {clause[0]} {sum(n for n in twice if _count(n))}",
                    )
                )
            else:
                named.append(clause[0])
    if card["kind"] == "encounter":
        kinds = ("heroism", "skullduggery", EITHER)
        bubbles = props.get("difficulty") or ()
        if len(bubbles) > 3:
            # "In the middle of the card, in 1 to 3 bubbles, is the Difficulty of this
            #  Encounter"; "Each Encounter will have up to three values listed".
            problems.append(
                CardError(
                    f"an Encounter's Difficulty is in 1 to 3 bubbles, and this one has "
                    f"{len(bubbles)}",
                    "difficulty",
                    f"write at most 3: difficulty heroism 2, skullduggery 1, {EITHER} 2",
                )
            )
        for clause in props.get("difficulty") or ():
            if len(clause) != 2 or clause[0] not in kinds or not _count(clause[1]):
                problems.append(
                    CardError(
                        f"difficulty {_said(clause)} is not a difficulty and a number",
                        "difficulty",
                        f"write: difficulty heroism 2, {EITHER} 3 (the kinds: {', '.join(kinds)})",
                    )
                )
    return problems


def _first_of(card: dict[str, Any], cards: dict[str, Any], having: str | None = None) -> bool:
    """Whether ``card`` is the first card of its kind (with the property ``having``): a check
    of the whole deck is reported once, at that card."""
    for other in cards.values():
        if other["kind"] == card["kind"] and (having is None or having in other["properties"]):
            return bool(other["id"] == card["id"])
    return False


def _param(vocabulary: dict[str, Any] | None, name: str) -> int | None:
    value = (vocabulary or {}).get("params", {}).get(name)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_resource(
    card: dict[str, Any], cards: dict[str, Any], vocabulary: dict[str, Any] | None = None
) -> list[CardError]:
    """:func:`check_values`, and (at the first Resource of the Starting Resource deck) that the
    deck's ``starting_copies`` add up to ``param starting_deck_size``: "Hand one of the
    Starting Resource decks of 15 cards to each player". A variant removing a starting card
    (or changing a count) without the param checked and failed the first game's setup."""
    problems = check_values(card, cards)
    props = card["properties"]
    if "copies" in props and "to_acquire" not in props:
        # "At the bottom of the card are the costs to purchase it: money, heroism,
        #  skullduggery or some combination of these", and "All costs listed at the bottom of
        #  the card must be paid": a Resource of the Market's deck without one was Acquired
        #  for nothing. (A Starting Resource, never in the Market, has none.)
        problems.append(
            CardError(
                "a Resource of the Market's deck (it has copies) has no To Acquire cost: "
                '"At the bottom of the card are the costs to purchase it"',
                "copies",
                "write: to_acquire money 3 (money, heroism, skullduggery or a combination)",
            )
        )
    size = _param(vocabulary, "starting_deck_size")
    if size is not None and _first_of(card, cards, "starting_copies"):
        counts = [
            other["properties"]["starting_copies"]
            for other in cards.values()
            if other["kind"] == "resource" and "starting_copies" in other["properties"]
        ]
        total = sum(n for n in counts if _count(n))
        if total != size:
            problems.append(
                CardError(
                    f"the Resources' starting_copies add up to {total}, but a Starting Resource "
                    f"deck has {size} cards (param starting_deck_size)",
                    "starting_copies",
                    f"set param starting_deck_size {total} (in a variant: params: "
                    f"{{starting_deck_size: {total}}}), or change the starting_copies",
                    kind="resource",
                )
            )
    return problems


def check_location(
    card: dict[str, Any], cards: dict[str, Any], vocabulary: dict[str, Any] | None = None
) -> list[CardError]:
    """A Location's total is a whole number of Encounters, 0 or more ("the number of Encounters
    you will have to face to move past this Location"); and (at the first Location) the game
    has the Locations setup places between the first and the last (``param
    locations_between``), which otherwise failed the first game's setup."""
    problems: list[CardError] = []
    encounters = card["properties"].get("encounters")
    if not _count(encounters):
        problems.append(
            CardError(
                f"a Location's Encounters are a whole number, 0 or more, not {encounters!r}",
                "encounters",
                "write: encounters 1 (Port City's is 0)",
            )
        )
    if _first_of(card, cards) and not any(
        other["kind"] == "expedition_leader" for other in cards.values()
    ):
        # No Leader card to report it at: the first Location, which every game lays out.
        problems += _too_few_leaders(cards, vocabulary)
    problems += _too_few_encounters(card, cards)
    wanted = _param(vocabulary, "locations_between")
    if wanted is not None and _first_of(card, cards):
        between = sum(1 for other in cards.values() if other["kind"] == "location") - 2
        if wanted > between:
            problems.append(
                CardError(
                    f"setup places {wanted} Locations between Port City and the Drowned City "
                    f"(param locations_between), but the game has {between} Locations besides "
                    "those two",
                    None,
                    f"add Locations, or set param locations_between {max(between, 0)} or less",
                    param="locations_between",
                    kind="location",
                )
            )
    return problems


def check_crew(
    card: dict[str, Any], cards: dict[str, Any], vocabulary: dict[str, Any] | None = None
) -> list[CardError]:
    """:func:`check_values`, and (at the first Crew) that the die can roll every Crew Cabin:
    "Roll a die. The Crew in the number cabin you rolled is Lost. If there is no Crew in that
    cabin, continue rolling until you get the number of an occupied cabin." With more cabins
    than the die has sides (a house rule's ``cabins: 8``), a Crew in cabin 7 or 8 was never
    Lost, and a ship whose Crew were all there lost none, silently."""
    problems = check_values(card, cards)
    cabins, sides = _param(vocabulary, "cabins"), _param(vocabulary, "die_sides")
    # A die of fewer than 2 sides is param die_sides' own error (its bounds), said once.
    if cabins is not None and sides is not None and 2 <= sides < cabins and _first_of(card, cards):
        beyond = f"{sides + 1}" if cabins == sides + 1 else f"{sides + 1} to {cabins}"
        problems.append(
            CardError(
                f"a player board has {cabins} Crew Cabins (param cabins), but the die has {sides} "
                f'sides (param die_sides): "Roll a die. The Crew in the number cabin you '
                f'rolled is Lost" never rolls cabin {beyond}, so a Crew there is never Lost',
                None,
                f"set param die_sides {cabins}, or param cabins {sides} or fewer",
                param=("cabins", "die_sides"),
            )
        )
    return problems


def _too_few_encounters(card: dict[str, Any], cards: dict[str, Any]) -> list[CardError]:
    """A Location's total is "the number of Encounters you will have to face to move past this
    Location", and they are defeated Encounters held at once ("If you have enough defeated
    Encounters to meet the total on your current Location card"; "The winner ... is the first
    player to defeat both Encounters at the last Location"): the Encounter Deck must hold as
    many. A house rule removing the Encounters (or guarding Atlantis with more than the deck
    holds) checked, and every game it played went to the turn limit with no winner. Said once,
    at the Location of the highest total (the first of them)."""
    totals = [
        other
        for other in cards.values()
        if other["kind"] == "location" and _count(other["properties"].get("encounters"))
    ]
    if not totals or max(totals, key=lambda other: other["properties"]["encounters"]) is not card:
        return []
    most = card["properties"]["encounters"]
    held = sum(
        copies
        for other in cards.values()
        if other["kind"] == "encounter"
        for copies in (other["properties"].get("copies", 1),)
        if _count(copies)
    )
    if most <= held:
        return []
    return [
        CardError(
            f"the Encounter Deck holds {held} card{'' if held == 1 else 's'}, fewer than the "
            f"{most} defeated Encounters needed to move past {card['title']}: no ship could "
            "ever defeat that many",
            "encounters",
            f"add encounter cards (or copies), or give {card['title']} encounters {held}"
            + (" or fewer" if held else ""),
            kind="encounter",
        )
    ]


#: The numbers an Expedition Leader card shows.
_LEADER_NUMBERS = ("coin_pile", "white_cross", "black_skull", "hand_size")


def check_leader(
    card: dict[str, Any], cards: dict[str, Any], vocabulary: dict[str, Any] | None = None
) -> list[CardError]:
    """The tokens on an Expedition Leader card ("Money tokens as shown on the coin pile, Heroism
    tokens as shown on the white cross, and Skullduggery tokens shown on the black skull") and
    its full hand are whole numbers, 0 or more: a negative one took tokens away at setup. And
    (at the first Leader) there is one for each player of the most the game seats."""
    problems = [
        CardError(
            f"'{prop}' is a whole number, 0 or more, not {card['properties'][prop]!r}",
            prop,
            f"write: {prop} 1",
        )
        for prop in _LEADER_NUMBERS
        if prop in card["properties"] and not _count(card["properties"][prop])
    ]
    if _first_of(card, cards):
        problems += _too_few_leaders(cards, vocabulary)
    return problems


def _too_few_leaders(cards: dict[str, Any], vocabulary: dict[str, Any] | None) -> list[CardError]:
    """ "Each player will begin the game with one Expedition Leader card, chosen at random": a
    game of the most players the game seats needs that many Leaders (a house rule removing
    them checked, and its first game failed at Step 2)."""
    seats = (vocabulary or {}).get("players") or []
    most = seats[-1] if seats and isinstance(seats[-1], int) else None
    leaders = sum(1 for other in cards.values() if other["kind"] == "expedition_leader")
    if most is None or leaders >= most:
        return []
    return [
        CardError(
            f"the game has {leaders} Expedition Leader{'' if leaders == 1 else 's'}, but each "
            f"of up to {most} players begins the game with one of their own",
            None,
            "add expedition_leader cards, or keep the ones a variant removes",
            kind="expedition_leader",
        )
    ]


#: ``cardc check`` runs these on each card of the kind (engine.api, ``CARD_CHECKS``).
CARD_CHECKS: dict[str, Callable[..., list[CardError]]] = {
    "resource": check_resource,
    "crew": check_crew,
    "encounter": check_values,
    "location": check_location,
    "expedition_leader": check_leader,
}


def _count(value: Any) -> bool:
    """A whole number of tokens, 0 or more."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _said(clause: Any) -> str:
    """A property clause as the card file wrote it."""
    words = [w["text"] if isinstance(w, dict) and "text" in w else w for w in clause]
    return "'" + " ".join(str(w) for w in words) + "'"


_CATALOGUES = ObjectCache()
#: The DSL verbs and functions of a generated handlers module, by name.
_DSL = ObjectCache()


def catalogue(ir: dict[str, Any]) -> Catalogue:
    """The IR's :class:`Catalogue`, shared by every game made from it."""
    found: Catalogue | None = _CATALOGUES.get(ir)
    return found if found is not None else _CATALOGUES.put(ir, Catalogue(ir))


# -- the game ----------------------------------------------------------------------------------


#: The windows of Facing an Encounter: "Upon Facing...", "If defeated", "If Undefeated".
_FACING_WINDOWS = frozenset(("facing", "defeated", "undefeated"))


class IncredibleExpeditions(FlowGame):
    """The player boards, the Market, the Location track and Encounters; played by the flow
    of flow.cards (:class:`engine.flow.FlowGame`)."""

    #: Each phase is a ``phase`` event of the log: ``cardc sim --log`` tells the game phase by
    #: phase, in the flow's titles (:func:`narrate`).
    logs_phases = True

    #: cardc sim's per-card figures (engine.sim_tally): a Crew comes to the player when hired
    #: ("hire", drawn) and is put to work by Exhausting it ("Put new Crew to work by Exhausting
    #: them to get the Temporary Resources you need", played); a Resource card is drawn and
    #: played as the engine logs it.
    CARD_EVENTS = {"hire": "drawn", "exhaust": "played"}

    def __post_init__(self) -> None:
        super().__post_init__()
        self.cat = catalogue(self.ir)
        board = self.board
        board["locations"] = []
        board["discovered"] = set()
        for deck in ("encounter_deck", "encounter_discard", "crew_deck", "crew_discard"):
            board[deck] = []
        board["resource_deck"], board["resource_discard"], board["market"] = [], [], []
        board["leaders"] = list(self.cat.by_kind.get("expedition_leader", []))
        # The seat (1-based) that takes the first turn: the flow's turns start there.
        board["first_player"] = 1
        board["facing"] = None
        #: The Encounters being Faced under the one in ``facing``, outermost first, with their
        #: difficulty and ways: a card's text that Faces another Encounter while one is being
        #: Faced ("If Undefeated, Face another Encounter") comes back to it afterwards.
        board["facing_outer"] = []
        #: The difficulty of the Encounter being Faced and its ways of being met, when an Upon
        #: Facing text changed them (add_to_difficulty); None: the card's own.
        board["facing_difficulty"] = None
        board["facing_ways"] = None
        board["paying"] = None
        self.winner: Player | None = None
        #: The Resources whose Ability is being played (play_for_ability), innermost last: in
        #: play, in no pile until the Ability is done. An entry's card is set to None once its
        #: Ability has Sacrificed it.
        self._playing: list[str | None] = []
        cabins = int(self.params["cabins"])
        for player in self.players:
            flags = player.flags
            flags["cabins"] = [None] * cabins
            flags["exhausted"] = set()
            flags["cursed"] = set()
            # "Everyone ... puts their ship on Port City."
            flags["location"] = 0
            flags["turns"] = 0
            flags["undefeated_this_turn"] = False
            flags["turn_way"] = None
            flags["ignoring"] = set()
        # Until setup lays out the world, the track is Port City, the first Locations in card
        # order and the Drowned City (scenarios that need no shuffle use it as it is).
        self.lay_out_locations(None, "port_city", "drowned_city_of_atlantis", shuffled=False)

    # -- cards and zones

    def _kind(self, card: str, kind: str) -> dict[str, Any]:
        found = self.cards.get(card)
        if found is None or found["kind"] != kind:
            known = sorted(self.cat.by_kind.get(kind, []))
            kinds = self.ir["vocabulary"]["kinds"]
            what = kinds.get(found["kind"], {}).get("doc", found["kind"]) if found else "no card"
            wanted = kinds.get(kind, {}).get("doc", kind)
            raise RuleError(f"'{card}' is {what}, not {wanted}; {kind}s: {', '.join(known)}")
        return found

    def cards_in_force(self, player: Player) -> list[str]:
        """Rules, the player's Expedition Leader, the Crew in their cabins (not the Cursed),
        and the Encounter being Faced."""
        flags = player.flags
        cursed = flags["cursed"]
        crew = [c for i, c in enumerate(flags["cabins"], 1) if c is not None and i not in cursed]
        facing = self.board["facing"]
        return [
            *self.cat.rules,
            *player.zones["expedition_leader"],
            *crew,
            *((facing,) if facing else ()),
        ]

    def may(self, c: Context, ident: str, prompt: str) -> bool:
        """A ``may``, as the engine asks it; but a Crew's ability whose cost is Exhausting
        itself (``may { exhaust self ... }``) is not offered while it cannot pay: "Put new
        Crew to work by Exhausting them", and only a Refreshed Crew can be Exhausted. Without
        the card's own ``if refreshed(self)`` it was asked, and a yes stopped the game."""
        if ident in self.cat.exhausting_mays and self.refreshed_cabin(c.player, c.card) is None:
            self.log("not_offered", c.player.index, ident)
            return False
        return super().may(c, ident, prompt)

    def fire(
        self,
        trigger: str,
        player: Player,
        cards: Any = None,
        event: dict[str, Any] | None = None,
        quantities: dict[str, int] | None = None,
    ) -> Context:
        """Fire as the engine does, for the cards in force that answer ``trigger`` only (most
        triggers find none: the engine's loop over every card is skipped)."""
        if cards is None:
            answering = self.cat.answering.get(trigger)
            if not answering:
                return Context(player, "", trigger, event, quantities)
            if trigger == "this_crew_lost":
                # "If this Crew is Lost": the Lost Crew's own box alone (a scenario's
                # `fire: this_crew_lost` with `event: {crew: ...}`), never the Crew aboard.
                lost = (event or {}).get("crew")
                cards = [lost] if lost in answering else []
                return super().fire(trigger, player, cards, event, quantities)
            cards = [card for card in self.cards_in_force(player) if card in answering]
            facing = self.board["facing"]
            if trigger == "facing" and facing in cards and cards[0] != facing:
                # "2. Read the text on the card and follow any instructions which start with
                # 'Upon Facing...'": the Encounter's own text first, then what the rules, the
                # Leader and the Crew do upon Facing it. A Crew's "reduce the Heroism
                # difficulty by up to 2" answered first, and the Encounter's "add 2" came
                # after it, so 1 + 2 ended at 2, not 1 (a reduce stops at 0).
                cards.remove(facing)
                cards.insert(0, facing)
            if any(card in self.cat.crew_ids for card in cards):
                # A Crew Lost or Cursed by a card that answered first is no longer in force
                # when its turn comes: "The Crew in the number cabin you rolled is Lost. ...
                # Place that Crew under your Expedition Leader card" (its box with it).
                cards = self._still_in_force(player, cards)
        return super().fire(trigger, player, cards, event, quantities)

    def open_window(self, c: Context, trigger: str, quantities: dict[str, int] | None) -> Context:
        """As the engine opens a window (a window opening itself is refused: it would never
        end), but each Encounter being Faced has its own Facing windows (``facing``,
        ``defeated``, ``undefeated``): a card's text that Faces another Encounter while one is
        being Faced ("If Undefeated, Face another Encounter") opens that one's, which was
        refused as "'undefeated' fires itself while it runs". It ends: each Encounter Faced
        inside another is taken from the Encounter piles, until they are empty."""
        if trigger not in _FACING_WINDOWS:
            return super().open_window(c, trigger, quantities)
        key = (trigger, len(self.board.get("facing_outer") or ()))
        firing: set[tuple[str, int]] = self.__dict__.setdefault("_facing_windows", set())
        if key in firing:
            error = RuleError(f"'{trigger}' fires itself while it runs, which would never end")
            error.window = trigger  # type: ignore[attr-defined]  # located at the card
            raise error
        firing.add(key)
        try:
            return self.fire(trigger, c.player, quantities=quantities)
        finally:
            firing.discard(key)

    def _still_in_force(self, player: Player, cards: list[str]) -> Iterator[str]:
        """``cards``, each Crew among them only if it is still aboard, in a cabin that is not
        Cursed, as the one before it has answered (read lazily by the engine's fire)."""
        flags = player.flags
        crew_ids = self.cat.crew_ids
        for card in cards:
            if card not in crew_ids or any(
                crew == card and index not in flags["cursed"]
                for index, crew in enumerate(flags["cabins"], 1)
            ):
                yield card

    def fire_in_force(self, c: Context, trigger: str) -> None:
        """``fire TRIGGER`` from the flow, as the engine does; nothing to do (and no guard to
        set up) when no card in force for the player answers the trigger."""
        answering = self.cat.answering.get(trigger)
        if not answering:
            return
        # Which cards are in force is cards_in_force's to say, here as in the engine's fire.
        if not answering.isdisjoint(self.cards_in_force(c.player)):
            super().fire_in_force(c, trigger)

    def deck(self, name: str, discard: str) -> list[str]:
        """A shared deck; when it runs out, its discard pile is shuffled in as the new deck
        (the rulebook says so for a player's Resource deck; the shared decks the same way)."""
        deck: list[str] = self.board[name]
        if not deck and self.board[discard]:
            deck.extend(self.board[discard])
            self.board[discard].clear()
            self.shuffle(deck)
            self.log("reshuffle", discard, name)
        return deck

    # -- setup (Steps 1 to 4)

    def deal_starting_decks(self) -> None:
        """ "Hand one of the Starting Resource decks of 15 cards to each player and shuffle
        them. Each deck should have 10 Marks of Credit, and 1 each of Bribery, Supplies,
        Strange Tincture, Fame and Notoriety." """
        deck = self.cat.starting
        if len(deck) != int(self.params["starting_deck_size"]):
            raise RuleError(
                f"a Starting Resource deck has {self.params['starting_deck_size']} cards "
                f"(param starting_deck_size), but the Resources' starting_copies add up to "
                f"{len(deck)}; set param starting_deck_size {len(deck)}, or change the "
                "starting_copies"
            )
        for player in self.players:
            player.zones["resource_deck"] = list(deck)
            self.shuffle(player.zones["resource_deck"])
        self.log("starting_decks", "of", len(deck))

    def shuffle_decks(self) -> None:
        """ "Shuffle the Resource, Crew and Encounter Decks." Each holds its cards' copies."""
        board, cat = self.board, self.cat
        for deck, kind in (
            ("resource_deck", "resource"),
            ("crew_deck", "crew"),
            ("encounter_deck", "encounter"),
        ):
            cards = [
                cid for cid in cat.by_kind.get(kind, []) for _ in range(cat.copies.get(cid, 0))
            ]
            self.shuffle(cards)
            board[deck] = cards
        self.log(
            "decks",
            "resource",
            len(board["resource_deck"]),
            "crew",
            len(board["crew_deck"]),
            "encounter",
            len(board["encounter_deck"]),
        )

    def lay_out_locations(
        self,
        middle: Sequence[str] | None = None,
        first: str = "port_city",
        last: str = "drowned_city_of_atlantis",
        shuffled: bool = True,
    ) -> list[str]:
        """Set up the world: Port City, the Locations between, the Drowned City of Atlantis.

        "Take the Port City and Drowned City of Atlantis cards out of the Location Deck and put
        them face up on the table. Shuffle the rest of the Locations and place 4 of them between
        Port City and the Drowned City of Atlantis." ``middle`` lays out chosen Locations
        instead ("You can, of course, lay down more Locations or change the arrangement").
        """
        self._kind(first, "location")
        self._kind(last, "location")
        if middle is None:
            pool = [c for c in self.cat.by_kind.get("location", []) if c not in (first, last)]
            wanted = int(self.params["locations_between"])
            if wanted < 0:
                # pool[:-1] would lay out all the Locations but one.
                raise RuleError(
                    f"setup cannot place {wanted} Locations between Port City and the Drowned "
                    "City (param locations_between): 0 or more"
                )
            if len(pool) < wanted:
                raise RuleError(
                    f"setup places {wanted} Locations between Port City and the "
                    f"Drowned City, but the card data holds {len(pool)}"
                )
            if shuffled:
                self.shuffle(pool)
            middle = pool[:wanted]
        for cid in middle:
            self._kind(cid, "location")
        track = [first, *middle, last]
        self.board["locations"] = track
        # Port City and the Drowned City are "face up on the table"; the rest are discovered.
        self.board["discovered"] = {first, last}
        if shuffled:
            self.log("locations", *track)
        return track

    def take_expedition_leader(self, player: Player, leader: str | None = None) -> str:
        """ "Each player will begin the game with one Expedition Leader card, chosen at random"
        (Step 2 says "Everyone chooses their character from the 4 Expedition Leaders": the two
        are read as one, a random deal, which is also what a simulation can play)."""
        leaders = self.board["leaders"]
        if leader is None:
            if not leaders:
                raise RuleError(
                    f"no Expedition Leader is left to deal to {player.name}: each player "
                    "needs one of their own, and the game has "
                    f"{len(self.cat.by_kind.get('expedition_leader', []))} for "
                    f"{len(self.players)} players; add an expedition_leader card"
                )
            leader = leaders.pop(int(self.rng.random() * len(leaders)))
        else:
            self._kind(leader, "expedition_leader")
            if leader in leaders:
                leaders.remove(leader)
        player.zones["expedition_leader"] = [leader]
        player.flags["location"] = 0
        self.log("leader", player.index, leader)
        return leader

    def take_chosen_leader(self, player: Player, leader: str) -> str:
        """Step 2: "Everyone chooses their character from the 4 Expedition Leaders" (a house
        rule's choice; the base game deals them at random): the Leader chosen, refused when
        another player leads with it already ("no two players get the same one")."""
        self._kind(leader, "expedition_leader")
        for other in self.players:
            if other is not player and leader in other.zones["expedition_leader"]:
                raise RuleError(
                    f"{self.cards[leader]['title']} leads {other.name}'s expedition already: "
                    "each player chooses one of the Expedition Leaders no one has "
                    "(choose from free_leaders())"
                )
        return self.take_expedition_leader(player, leader)

    def leader_of(self, player: Player) -> dict[str, Any] | None:
        """The player's Expedition Leader card, or None before one is dealt."""
        held = player.zones["expedition_leader"]
        return self.cards[held[0]] if held else None

    def leader_shows(self, player: Player, place: str) -> int:
        """The number the player's Expedition Leader card shows at ``place`` (``coin_pile``,
        ``white_cross``, ``black_skull``: "Along the left side of the card are your
        character's starting resources")."""
        leader = self.leader_of(player)
        if leader is None:
            raise RuleError(f"{player.name} has no Expedition Leader yet")
        return int(leader["properties"][place])

    def leader_prints(self, player: Player, place: str) -> bool:
        """True when the player's Expedition Leader card shows a number at ``place``."""
        leader = self.leader_of(player)
        if leader is None:
            raise RuleError(f"{player.name} has no Expedition Leader yet")
        return place in leader["properties"]

    def place_secret_bet(self, player: Player) -> int:
        """Step 3: the player "secretly" bets "any number of Money tokens (even zero)", up to
        what they have; it is kept face down (``flags["bet"]``) until every bet is in."""
        options = tuple(str(n) for n in range(player.counters["money"] + 1))
        bet = int(self.ask(player, Question(BID, player.index, "bet Money to be first", options)))
        player.flags["bet"] = bet
        return bet

    def highest_bet_goes_first(self) -> int:
        """ "Whoever bets the most gets the first turn. (In the event of a tie, roll off using
        the dice.)" The roll-off rolls one die per tied player until one rolls highest alone;
        the first player's index. A player who has not bet (a card's effect asks for the first
        player before the bids, or a scenario's state) bet nothing."""
        bets = [int(player.flags.get("bet", 0)) for player in self.players]
        top = max(bets)
        tied = [p for p, bet in zip(self.players, bets, strict=True) if bet == top]
        sides = int(self.params["die_sides"])
        if len(tied) > 1 and sides < 2:
            # Every roll would tie again: the roll-off would never end.
            raise RuleError(
                f"a tie of bets cannot be rolled off with a die of {sides} side"
                f"{'' if sides == 1 else 's'} (param die_sides): a die needs at least 2"
            )
        while len(tied) > 1:
            rolls = [self.die(sides) for _ in tied]
            best = max(rolls)
            tied = [p for p, roll in zip(tied, rolls, strict=True) if roll == best]
        first = tied[0].index
        self.board["first_player"] = first + 1
        self.log("first_player", first)
        return first

    def hand_size(self, player: Player) -> int:
        """ "a full hand of cards (5 for most players)": the Leader's own, else the param."""
        leader = self.leader_of(player)
        if leader is not None and "hand_size" in leader["properties"]:
            return int(leader["properties"]["hand_size"])
        return int(self.params["hand_size"])

    # -- the location track

    def at_port_city(self, player: Player) -> bool:
        """True while the ship is at Port City (the first Location)."""
        return player.flags["location"] == 0

    def location_of(self, player: Player) -> str:
        """The Location the player's ship is at."""
        return str(self.board["locations"][player.flags["location"]])

    def encounters_needed(self, location: str) -> int:
        """The Location's total: "the number of Encounters you will have to face to move past
        this Location"."""
        return int(self.cards[location]["properties"]["encounters"])

    def may_venture(self, player: Player, closer: bool) -> bool:
        """The flow's ``may_venture_closer()`` / ``may_venture_back()`` (flow.cards) for the
        player: the rule's condition is the DSL's, never a copy here."""
        return bool(
            self.run_function("may_venture_closer" if closer else "may_venture_back", player)
        )

    def refuse_venture(self, player: Player, closer: bool) -> None:
        """Say why the player may not Venture Forth that way (a scenario asking it anyway)."""
        here = player.flags["location"]
        where = self.location_of(player)
        defeated = len(player.zones["defeated_encounters"])
        if closer:
            if here >= len(self.board["locations"]) - 1:
                raise RuleError("nothing lies beyond the Drowned City of Atlantis")
            if defeated >= self.encounters_needed(where):
                # The rulebook's "enough defeated Encounters to meet the total" holds, so a
                # house rule's may_venture_closer() refused it: saying "has 1, which needs 1"
                # contradicted itself.
                raise RuleError(
                    f"{player.name} may not Venture Forth closer to Atlantis from "
                    f"{self.cards[where]['title']}: this game's may_venture_closer() is false, "
                    f"with {defeated} defeated Encounters there (the card's total is "
                    f"{self.encounters_needed(where)})"
                )
            raise RuleError(
                f"{player.name} has {defeated} defeated "
                f"Encounters at {self.cards[where]['title']}, which needs "
                f"{self.encounters_needed(where)} to Venture Forth closer to Atlantis (without "
                "enough defeated Encounters you may only Venture Forth to an adjacent Location "
                "that is no closer to Atlantis)"
            )
        if here == 0:
            raise RuleError("no Location lies behind Port City")
        if self.may_venture(player, True):
            raise RuleError(
                f"{player.name} has enough defeated Encounters to Venture Forth closer to Atlantis"
            )
        # Neither way is open: a house rule's may_venture_back() refused it (it said "has
        # enough defeated Encounters", which was not so).
        raise RuleError(
            f"{player.name} may not Venture Forth back from {self.cards[where]['title']}: this "
            "game's may_venture_back() is false"
        )

    def discard_defeated_encounters(self, player: Player) -> None:
        """ "1. Place all your defeated Encounters into the Encounter discard pile." """
        self.board["encounter_discard"].extend(player.zones["defeated_encounters"])
        player.zones["defeated_encounters"] = []

    def move_ship(self, player: Player, way: str) -> None:
        """ "2. Move your ship to an adjacent Location": one along the track, ``closer`` to
        Atlantis or ``back``."""
        step = 1 if way == "closer" else -1
        here = player.flags["location"] + step
        if not 0 <= here < len(self.board["locations"]):
            # The Location named as its card is printed ("Port City"), not by its id.
            shown = self.cat.titles[self.location_of(player)]
            raise RuleError(f"no Location lies {way} from {shown}")
        player.flags["location"] = here
        self.log("venture_forth", player.index, self.location_of(player))

    def flip_location(self, player: Player) -> None:
        """ "3. Flip over the Location if it hasn't been discovered yet." What a trigger
        ignored at the last Location no longer holds here."""
        location = self.location_of(player)
        if location not in self.board["discovered"]:
            self.board["discovered"].add(location)
            self.log("discover", player.index, location)
        player.flags["ignoring"] = set()
        self.log("enter", player.index, location)

    def location_text_here(self, player: Player) -> bool:
        """The Location the ship is at (the one being entered) has a "When entering..." text,
        the text the Pilot's ability ignores; a variant's Location may have none."""
        return "when_entering" in self.cards[self.location_of(player)]["triggers"]

    def follow_location_text(self, player: Player) -> None:
        """ "4. Perform any actions described by the text on the Location card." """
        location = self.location_of(player)
        self.run(location, "when_entering", player, event={"location": location})

    # -- the Crew

    def sync_cabins(self, player: Player) -> None:
        """Keep the ``crew_cabins`` zone equal to the occupied cabins, in cabin order."""
        player.zones["crew_cabins"] = [crew for crew in player.flags["cabins"] if crew]

    def free_cabin(self, player: Player) -> int | None:
        """The lowest-numbered available Crew Cabin, or None when all are taken."""
        for index, occupant in enumerate(player.flags["cabins"], start=1):
            if occupant is None:
                return index
        return None

    def hire_crew(self, player: Player, crew: str) -> int:
        """ "new Crew cards go into the lowest-numbered available Crew Cabin on the player
        board"; a new Crew is Refreshed ("Put new Crew to work by Exhausting them")."""
        self._kind(crew, "crew")
        cabin = self.free_cabin(player)
        if cabin is None:
            raise RuleError(
                f"{player.name} has no available Crew Cabin for {crew}: new Crew cards go into "
                f"the lowest-numbered available Crew Cabin, and all {len(player.flags['cabins'])} "
                "are taken"
            )
        player.flags["cabins"][cabin - 1] = crew
        player.flags["exhausted"].discard(cabin)
        player.flags["cursed"].discard(cabin)
        self.sync_cabins(player)
        self.log("hire", player.index, crew, cabin)
        return cabin

    def crew_in(self, player: Player, cabin: int) -> str | None:
        """The Crew in cabin number ``cabin`` (1 first), or None when it is empty."""
        cabins = player.flags["cabins"]
        return cabins[cabin - 1] if 1 <= cabin <= len(cabins) else None

    def can_exhaust(self, player: Player, cabin: int) -> bool:
        """A Crew can be Exhausted when it is aboard, Refreshed and not Cursed (a Cursed Crew is
        not "capable"; the rulebook does not say more of it)."""
        flags = player.flags
        return (
            flags["cabins"][cabin - 1] is not None
            and cabin not in flags["exhausted"]
            and cabin not in flags["cursed"]
        )

    def refreshed_cabin(self, player: Player, crew: str) -> int | None:
        """The first cabin holding ``crew`` on its Refreshed side (and not Cursed), or None."""
        for index, occupant in enumerate(player.flags["cabins"], start=1):
            if occupant == crew and self.can_exhaust(player, index):
                return index
        return None

    def exhaust_cabin(self, player: Player, cabin: int) -> None:
        """Flip the Crew in ``cabin`` to its Exhausted side; it must be there and Refreshed."""
        crew = self.crew_in(player, cabin)
        if crew is None:
            raise RuleError(f"{player.name}'s cabin {cabin} holds no Crew")
        if cabin in player.flags["exhausted"]:
            raise RuleError(
                f"{self.cards[crew]['title']} in cabin {cabin} is already Exhausted; a Rest Turn "
                "Refreshes it"
            )
        if cabin in player.flags["cursed"]:
            raise RuleError(f"{self.cards[crew]['title']} in cabin {cabin} is Cursed")
        player.flags["exhausted"].add(cabin)
        self.log("exhaust", player.index, crew, cabin)

    def exhaust_for_totals(self, player: Player, cabin: int) -> None:
        """Exhaust a Crew for its values: "they will give you money, heroism, and skullduggery
        equal to their icons", added to the Temporary totals."""
        self.exhaust_cabin(player, cabin)
        money, heroism, skullduggery = self.cat.values[str(self.crew_in(player, cabin))]
        counters = player.counters
        counters["temporary_money"] += money
        counters["temporary_heroism"] += heroism
        counters["temporary_skullduggery"] += skullduggery

    def refresh_crew(self, player: Player) -> None:
        """ "First thing to do on a Rest Turn is to Refresh your Exhausted crew by flipping them
        back over to the Refreshed side." """
        player.flags["exhausted"].clear()
        self.log("refresh", player.index)

    def capable_crew(self, player: Player) -> int:
        """ "capable Crew (that is, Crew that are neither Cursed nor Lost)": those aboard."""
        cursed = player.flags["cursed"]
        capable = 0
        for index, crew in enumerate(player.flags["cabins"], 1):
            if crew and index not in cursed:
                capable += 1
        return capable

    def has_cursed_crew(self, player: Player) -> bool:
        """One of the Crew in the player's cabins is Cursed: a Curse lifted by the Ship's
        Doctor, Strange Tincture or Lucky Charm would help one."""
        cabins = player.flags["cabins"]
        return any(cabins[cabin - 1] is not None for cabin in player.flags["cursed"])

    def roll_cabin(self, player: Player, wanted: Callable[[int], bool]) -> int | None:
        """ "Roll a die ... If there is no Crew in that cabin, continue rolling until you get
        the number of an occupied cabin." None (no roll) when no cabin qualifies: rolling
        forever cannot be meant."""
        cabins = player.flags["cabins"]
        sides = int(self.params["die_sides"])
        if not any(wanted(i) for i in range(1, min(sides, len(cabins)) + 1)):
            return None
        while True:
            cabin = self.die(sides)
            if cabin <= len(cabins) and wanted(cabin):
                return cabin

    def lose_crew(self, player: Player) -> str | None:
        """Step 5 of Facing an Encounter: "Roll a die. The Crew in the number cabin you rolled is
        Lost. If there is no Crew in that cabin, continue rolling until you get the number of an
        occupied cabin. Place that Crew under your Expedition Leader card." """
        cabins = player.flags["cabins"]
        cabin = self.roll_cabin(player, lambda i: cabins[i - 1] is not None)
        if cabin is None:
            self.log("no_crew_to_lose", player.index)
            return None
        return self.lose_crew_in(player, cabin)

    def lose_crew_in(self, player: Player, cabin: int) -> str:
        """The Crew in cabin number ``cabin`` is Lost: "Place that Crew under your Expedition
        Leader card"; its own "If this Crew is Lost" and then the cards in force answer."""
        cabins = player.flags["cabins"]
        crew = str(cabins[cabin - 1])
        cursed = cabin in player.flags["cursed"]
        cabins[cabin - 1] = None
        player.flags["exhausted"].discard(cabin)
        player.flags["cursed"].discard(cabin)
        player.zones["lost_crew"].append(crew)
        self.sync_cabins(player)
        self.log("lost", player.index, crew, cabin)
        # "If this Crew is Lost ...": the Lost Crew's own box first, as it goes under the
        # Leader card (a Cursed Crew's box is out of force, as in its cabin); then the cards
        # still in force ("When another of your Crew is Lost"). A Crew's own loss had no way
        # to be answered: `on lost` on the Crew itself finds it out of force.
        if not cursed and crew in self.cat.answering.get("this_crew_lost", ()):
            self.fire("this_crew_lost", player, (crew,), event={"crew": crew})
        self.fire("lost", player, event={"crew": crew})
        return crew

    def curse_crew(self, player: Player) -> str | None:
        """An Encounter's curse, by the die like a Lost Crew: the Crew in the rolled cabin (an
        empty or already Cursed cabin is rolled again) is Cursed."""
        flags = player.flags
        cabin = self.roll_cabin(
            player, lambda i: flags["cabins"][i - 1] is not None and i not in flags["cursed"]
        )
        if cabin is None:
            return None
        flags["cursed"].add(cabin)
        crew = str(flags["cabins"][cabin - 1])
        self.log("cursed", player.index, crew, cabin)
        return crew

    def discard_crew(self, player: Player, crew: str) -> None:
        """A Crew card discarded (``discard self`` in a Crew's box) leaves its cabin, the
        lowest-numbered one holding it, for the Crew discard pile, the pile the Marooned rule
        draws "random Crew from"; its cabin is available again. The engine's discard took it
        from the ``crew_cabins`` zone only, and the cabin still held it."""
        cabins = player.flags["cabins"]
        if crew not in cabins:
            return
        cabin = cabins.index(crew) + 1
        cabins[cabin - 1] = None
        player.flags["exhausted"].discard(cabin)
        player.flags["cursed"].discard(cabin)
        self.board["crew_discard"].append(crew)
        self.sync_cabins(player)
        self.log("discard", player.index, crew, cabin)

    def move_card(self, c: Context, card: str, source: str, target: str) -> None:
        """The ``zones`` library's ``move_card`` (a house rule's "choose the Crew that is
        Lost": ``move_card picked crew_cabins lost_crew``). The ``crew_cabins`` zone mirrors
        the numbered cabins, so a Crew moved out of it leaves its cabin, which is available
        again; one moved to ``lost_crew`` is Lost ("Place that Crew under your Expedition
        Leader card"), as the die's Lost Crew is, and the cards answer it; one moved into it
        goes into "the lowest-numbered available Crew Cabin", Refreshed. The engine's move
        took the Crew from the zone alone: it stayed in its cabin, Exhausted and counted as
        Capable, as well as under the Leader card."""
        if "crew_cabins" not in (source, target) or source == target:
            super().move_card(c, card, source, target)
            return
        player = c.player
        if source == "crew_cabins":
            cabins = player.flags["cabins"]
            if card not in cabins:
                raise RuleError(f"{player.name} has no {card} in a Crew Cabin")
            cabin = cabins.index(card) + 1
            if target == "lost_crew":
                self.lose_crew_in(player, cabin)
                return
            cabins[cabin - 1] = None
            player.flags["exhausted"].discard(cabin)
            player.flags["cursed"].discard(cabin)
            self.sync_cabins(player)
            player.zones[target].append(card)
            self.log("move_card", player.index, card, source, target)
            return
        if card not in player.zones[source]:
            raise RuleError(f"{player.name} has no {card} in {source}")
        if card not in self.cat.crew_ids:
            raise RuleError(
                f"'{card}' is no Crew: only Crew cards go into the Crew Cabins "
                f"(move_card {card} {source} crew_cabins)"
            )
        self.hire_crew(player, card)
        player.zones[source].remove(card)
        self.log("move_card", player.index, card, source, target)

    def move_all(self, c: Context, source: str, target: str) -> None:
        """The ``zones`` library's ``move_all``: through :meth:`move_card`, card by card, when
        the Crew Cabins are one of the zones (all of them, or none when the cabins free are
        too few: "new Crew cards go into the lowest-numbered available Crew Cabin")."""
        if "crew_cabins" not in (source, target) or source == target:
            super().move_all(c, source, target)
            return
        player = c.player
        moving = list(player.zones[source])
        if target == "crew_cabins":
            free = player.flags["cabins"].count(None)
            if len(moving) > free:
                raise RuleError(
                    f"{player.name} has {free} available Crew Cabins for the {len(moving)} "
                    f"cards of {source}: move_all {source} crew_cabins moves none"
                )
        for card in moving:
            self.move_card(c, card, source, target)

    def sacrifice(self, c: Context, card: str) -> None:
        """ "Sacrifice (remove from the game)" a card of the player's, as a card's text says it
        (``sacrifice self``): the Resource whose Ability is being played, or else one from the
        hand, the discard pile or the Resource deck, a Crew from its
        cabin, which is available again. It is kept in the player's ``sacrificed`` pile: "Lost
        or Sacrificed Crew can come back". Any other card is refused: the rulebook Sacrifices
        only the player's own Resources and Crew."""
        player = c.player
        found = self.cards.get(card)
        kind = found["kind"] if found is not None else None
        zones = player.zones
        if kind == "crew" and card in player.flags["cabins"]:
            cabins = player.flags["cabins"]
            cabin = cabins.index(card) + 1
            cabins[cabin - 1] = None
            player.flags["exhausted"].discard(cabin)
            player.flags["cursed"].discard(cabin)
            self.sync_cabins(player)
        elif kind == "resource" and card in self._playing:
            # The card being played for its Ability first: it never reaches the discard pile.
            index = len(self._playing) - 1 - self._playing[::-1].index(card)
            self._playing[index] = None
        elif kind == "resource":
            held = next(
                (z for z in ("hand", "discard_pile", "resource_deck") if card in zones[z]), None
            )
            if held is None:
                raise RuleError(f"{player.name} has no {card} to Sacrifice")
            zones[held].remove(card)
        else:
            raise RuleError(
                f"{player.name} has no {card} to Sacrifice: only a Resource card of the "
                "player's or a Crew in their cabins is Sacrificed"
            )
        zones["sacrificed"].append(card)
        self.log("sacrifice", player.index, card)

    # -- the Marooned and Lost Rule

    def draw_random_crew(self, player: Player) -> str | None:
        """One random Crew from the Crew discard pile into the lowest free cabin (none when the
        pile or the cabins have run out)."""
        pile = self.board["crew_discard"]
        if not pile or self.free_cabin(player) is None:
            return None
        crew = str(pile.pop(int(self.rng.random() * len(pile))))
        self.hire_crew(player, crew)
        return crew

    # -- raising Temporary totals

    def play_for_values(self, player: Player, card: str) -> None:
        """ "The Resource cards in your hand have values on the upper left for the Temporary
        Money, Heroism and Skullduggery you get by playing the card." A played card goes to the
        discard pile (the rulebook does not say where; the pile the Draw Phase reshuffles)."""
        hand = player.zones["hand"]
        if card not in hand:
            raise RuleError(f"{player.name} holds no {card} to play")
        hand.remove(card)
        player.zones["discard_pile"].append(card)
        money, heroism, skullduggery = self.cat.values[card]
        counters = player.counters
        counters["temporary_money"] += money
        counters["temporary_heroism"] += heroism
        counters["temporary_skullduggery"] += skullduggery
        self.log("play", player.index, card)

    def play_for_ability(self, player: Player, card: str) -> None:
        """ "You can, instead, play the card to do the Ability text on the card, but may not use
        both": the card's values are not added. It goes to the discard pile as a card played
        for its values does, once its Ability is done: while the Ability is played the card is
        in play, so an Ability that shuffles the discard pile into the deck does not shuffle
        in the card being played, and one that draws does not draw it again. ``discard self``
        leaves it to go there (:meth:`discard`); ``sacrifice self`` removes it from the game
        instead (:meth:`sacrifice`)."""
        hand = player.zones["hand"]
        if card not in hand or card not in self.cat.abilities:
            raise RuleError(f"{player.name} holds no {card} with an Ability to play")
        hand.remove(card)
        self.log("ability", player.index, card)
        self._playing.append(card)
        try:
            self.run(card, "play", player)
        finally:
            played = self._playing.pop()
        if played is not None:
            player.zones["discard_pile"].append(card)

    def discard(self, c: Context, card: str) -> None:
        """The prelude's ``discard``: a Resource goes to its holder's discard pile, "the pile
        the Draw Phase reshuffles", never out of the game (the rulebook's only removal is the
        Draw Phase's "Sacrifice (remove from the game)"). The card whose Ability is being
        played (:meth:`play_for_ability`) goes to the discard pile once its Ability is done, so
        its ``discard self`` leaves it to go there, and a copy in the hand stays in the hand.
        Any other card is discarded as the engine does."""
        zones = c.player.zones
        pile = zones["discard_pile"]
        if card in self._playing:
            # In play: it goes to the discard pile once its Ability is done.
            self.log("discard", c.player.index, card)
            return
        found = self.cards.get(card)
        kind = found["kind"] if found is not None else None
        if kind == "crew":
            self.discard_crew(c.player, card)
            return
        if kind == "encounter" and card in zones["defeated_encounters"]:
            # A defeated Encounter goes where Venturing Forth puts them all: "the Encounter
            # discard pile" (the engine's discard would take it out of the game).
            zones["defeated_encounters"].remove(card)
            self.board["encounter_discard"].append(card)
            self.log("discard", c.player.index, card)
            return
        if kind != "resource":
            super().discard(c, card)
            return
        for name, cards in zones.items():
            if name not in ("discard_pile", "sacrificed") and card in cards:
                cards.remove(card)
                pile.append(card)
                self.log("discard", c.player.index, card)
                return

    def spend_token(self, player: Player, pool: str) -> None:
        """ "You can also spend tokens": one token adds one to the Temporary total."""
        if player.counters[pool] <= 0:
            raise RuleError(f"{player.name} has no {pool} token to spend")
        player.counters[pool] -= 1
        player.counters[TEMPORARY[pool]] += 1
        self.log("token", player.index, pool)

    def raise_options(self, player: Player, pools: Sequence[str]) -> list[str]:
        """What the player may do to raise the totals: play a held Resource for its values or
        its Ability, Exhaust a capable Crew, remove a token of a pool that counts here."""
        held = dict.fromkeys(player.zones["hand"])
        options = [PLAY_OPTION[card] for card in held]
        abilities = self.cat.abilities
        options += [ABILITY_OPTION[card] for card in held if card in abilities]
        flags = player.flags
        exhausted, cursed = flags["exhausted"], flags["cursed"]
        options += [
            EXHAUST_OPTION[i]
            for i, crew in enumerate(flags["cabins"], start=1)
            if crew is not None and i not in exhausted and i not in cursed
        ]
        counters = player.counters
        options += [TOKEN_OPTION[pool] for pool in pools if counters[pool] > 0]
        return options

    def do_raise(self, player: Player, answer: str) -> None:
        """Carry out one raise answer (``play X``, ``ability X``, ``exhaust N``, ``token P``)."""
        verb, _, what = answer.partition(" ")
        if verb == "play":
            self.play_for_values(player, what)
        elif verb == "ability":
            self.play_for_ability(player, what)
        elif verb == "exhaust":
            self.exhaust_for_totals(player, int(what))
        elif verb == "token":
            self.spend_token(player, what)
        else:
            raise RuleError(f"'{answer}' is not a way to raise the Temporary totals")

    # -- the Market and Acquiring

    def lay_out_market(self, player: Player, size: int) -> None:
        """ "Next, go to the Market and Acquire what you need. Draw up to 6 cards of any
        combination from the Crew and Resource decks and lay them face up on the table." The
        player says how many come from the Crew deck, then how many from the Resource deck
        (each deck's discard pile is shuffled in when it runs out)."""
        market = self.board["market"]
        for deck, discard, ident in (
            ("crew_deck", "crew_discard", MARKET_CREW),
            ("resource_deck", "resource_discard", MARKET_RESOURCES),
        ):
            room = size - len(market)
            there = len(self.board[deck]) + len(self.board[discard])
            most = min(room, there)
            if most <= 0:
                continue
            options = tuple(str(n) for n in range(most + 1))
            prompt = "Crew deck" if deck == "crew_deck" else "Resource deck"
            wanted = int(self.ask(player, Question(ident, player.index, prompt, options)))
            for _ in range(wanted):
                market.append(self.deck(deck, discard).pop(0))
        self.log("market", player.index, *market)

    def clear_market(self, player: Player) -> None:
        """The cards no one Acquired go to their decks' discard piles (the rulebook does not say;
        the Marooned rule draws Crew "from the discard pile", so there is one)."""
        market = self.board["market"]
        for card in market:
            pile = "crew_discard" if self.cards[card]["kind"] == "crew" else "resource_discard"
            self.board[pile].append(card)
        market.clear()

    def potential(self, player: Player) -> tuple[int, int, int]:
        """The most Money, Heroism and Skullduggery the player could raise now: the Temporary
        totals, every held Resource's values, every capable Refreshed Crew, every token."""
        counters = player.counters
        money = counters["temporary_money"] + counters["money"]
        heroism = counters["temporary_heroism"] + counters["heroism"]
        skull = counters["temporary_skullduggery"] + counters["skullduggery"]
        values = self.cat.values
        for card in player.zones["hand"]:
            m, h, s = values[card]
            money, heroism, skull = money + m, heroism + h, skull + s
        flags = player.flags
        exhausted, cursed = flags["exhausted"], flags["cursed"]
        for index, crew in enumerate(flags["cabins"], start=1):
            if crew is not None and index not in exhausted and index not in cursed:
                m, h, s = values[crew]
                money, heroism, skull = money + m, heroism + h, skull + s
        return money, heroism, skull

    def acquire_options(self, player: Player) -> list[str]:
        """The Market cards the player could afford, for themself or ("You can Acquire Crew and
        Resources for other players!") for another player, as ``card`` or ``card for N``."""
        pm, ph, ps = self.potential(player)
        options: list[str] = []
        costs, cards = self.cat.cost, self.cards
        players = self.players
        room: list[Player] | None = None
        for card in dict.fromkeys(self.board["market"]):
            cm, ch, cs = costs.get(card, (0, 0, 0))
            if cm > pm or ch > ph or cs > ps:
                continue
            if cards[card]["kind"] == "crew":
                if room is None:
                    room = [p for p in players if None in p.flags["cabins"]]
                whom = room
            else:
                whom = players
            for other in whom:
                options.append(card if other is player else _FOR[card, other.index + 1])
        return options

    def acquire_cards(self, player: Player, limit: int) -> int:
        """ "You may Acquire up to 3 cards on your turn." Each: pick a Market card, then raise
        the Temporary totals until they "afford the 'To Acquire' cost listed at the bottom of the
        card ... All costs listed at the bottom of the card must be paid."; what is left of the
        totals serves the next card, until the end of the turn."""
        acquired = 0
        given_up: set[str] = set()
        while acquired < limit and self.board["market"]:
            options = [o for o in self.acquire_options(player) if o not in given_up]
            if not options:
                break
            answer = self.ask(
                player, Question(ACQUIRE, player.index, "Acquire from the Market", (DONE, *options))
            )
            if answer == DONE:
                break
            card, _, whom = answer.partition(" for ")
            target = self.players[int(whom) - 1] if whom else player
            if self.pay_for(player, card):
                self.acquire(player, card, target)
                acquired += 1
            else:
                given_up.add(answer)
        return acquired

    def pay_for(self, player: Player, card: str) -> bool:
        """Raise the totals to the card's cost and pay it from them; False if the player gives
        up (what was raised stays in the Temporary totals)."""
        cost = self.cat.cost.get(card, (0, 0, 0))
        counters = player.counters
        self.board["paying"] = card
        prompt = _PAY_PROMPT.get(card) or _PAY_PROMPT.setdefault(
            card, f"raise the totals to Acquire {self.cat.titles[card]}"
        )
        while True:
            short = [
                pool
                for pool, need in zip(VALUE_KINDS, cost, strict=True)
                if counters[TEMPORARY[pool]] < need
            ]
            if not short:
                break
            options = self.raise_options(player, short)
            if not options:
                return False
            answer = self.ask(player, Question(PAY, player.index, prompt, (DONE, *options)))
            if answer == DONE:
                return False
            self.do_raise(player, answer)
        for pool, need in zip(VALUE_KINDS, cost, strict=True):
            counters[TEMPORARY[pool]] -= need
        return True

    def acquire(self, player: Player, card: str, target: Player) -> None:
        """ "Newly Acquired Resource cards go into the discard pile, while new Crew cards go into
        the lowest-numbered available Crew Cabin on the player board." """
        market = self.board["market"]
        if card not in market:
            raise RuleError(f"{card} is not in the Market")
        self.log("acquire", player.index, card, target.index + 1)
        if self.cards[card]["kind"] == "crew":
            self.hire_crew(target, card)
        else:
            target.zones["discard_pile"].append(card)
        market.remove(card)
        self.fire("acquired", player, event={"card": card, "for": target.index + 1})

    # -- Encounters

    def draw_encounter(self) -> str | None:
        """ "Flip over the top card of the Encounter Deck" (its discard pile reshuffled when it
        is empty; None when both are)."""
        deck = self.deck("encounter_deck", "encounter_discard")
        return deck.pop(0) if deck else None

    def flip_encounter(self, player: Player) -> str | None:
        """Step 1 of Facing an Encounter: the card flipped is the one being Faced
        (``board["facing"]``); None, and nothing Faced, when both Encounter piles are empty."""
        encounter = self.draw_encounter()
        if encounter is None:
            self.log("no_encounter", player.index)
            return None
        self._kind(encounter, "encounter")
        board = self.board
        if board["facing"] is not None:
            # Faced inside another Facing (a card's text): that one is Faced again once this
            # one has been (stop_facing); it was lost, and its own steps after the text
            # failed with "no Encounter is being Faced".
            outer = (board["facing"], board["facing_difficulty"], board["facing_ways"])
            board.setdefault("facing_outer", []).append(outer)
        board["facing"] = encounter
        board["facing_difficulty"] = board["facing_ways"] = None
        self.log("face", player.index, encounter)
        return encounter

    def facing(self) -> str:
        """The Encounter being Faced; an error outside of Facing one."""
        encounter = self.board["facing"]
        if encounter is None:
            raise RuleError("no Encounter is being Faced")
        return str(encounter)

    def facing_difficulty(self) -> Difficulty:
        """The difficulty of the Encounter being Faced: its card's, with what its Upon Facing
        text added."""
        changed: Difficulty | None = self.board["facing_difficulty"]
        return changed if changed is not None else self.cat.difficulty[self.facing()]

    def facing_ways(self) -> tuple[tuple[int, int, str], ...]:
        """The ways of meeting :meth:`facing_difficulty` (:func:`combinations`)."""
        changed = self.board["facing_ways"]
        return changed if changed is not None else self.cat.ways[self.facing()]

    def set_difficulty(self, player: Player, heroism: int, skullduggery: int) -> None:
        """The Heroism and Skullduggery difficulty the Upon Facing text left (the ``facing``
        trigger's quantities, from the card's own): the Encounter being Faced asks that (never
        below 0) until it has been Faced; its Half-Heroism/Half-Skullduggery bubbles stay."""
        base = self.cat.difficulty[self.facing()]
        heroism, skullduggery = max(int(heroism), 0), max(int(skullduggery), 0)
        if (heroism, skullduggery) == (base.heroism, base.skullduggery):
            self.board["facing_difficulty"] = self.board["facing_ways"] = None
            return
        changed = Difficulty(heroism, skullduggery, base.either)
        self.board["facing_difficulty"] = changed
        self.board["facing_ways"] = combinations(changed)
        self.log("difficulty", player.index, self.facing(), heroism, skullduggery)

    def raise_against_encounter(self, player: Player) -> None:
        """Steps 3 and 4: the player raises Heroism and Skullduggery, one play, Exhaust or token
        at a time, until the Temporary totals meet the difficulty or the player Faces it with
        what is raised (the tokens left make up the rest in :meth:`defeat_encounter`)."""
        ways = self.facing_ways()
        counters = player.counters
        while True:
            # Met by the Temporary totals alone: there is nothing more to raise.
            heroism, skullduggery = (
                counters["temporary_heroism"],
                counters["temporary_skullduggery"],
            )
            if any(h <= heroism and s <= skullduggery for h, s, _ in ways):
                return
            options = self.raise_options(player, ())
            if not options:
                return
            answer = self.ask(
                player,
                Question(
                    RAISE,
                    player.index,
                    "raise Heroism and Skullduggery to Face the Encounter",
                    (FACE, *options),
                ),
            )
            if answer == FACE:
                return
            self.do_raise(player, answer)

    def ways_now(self, player: Player) -> list[str]:
        """The ways the Temporary totals and the tokens meet the difficulty: "raise enough
        Heroism (temporary or tokens)"."""
        counters = player.counters
        heroism = counters["temporary_heroism"] + counters["heroism"]
        skullduggery = counters["temporary_skullduggery"] + counters["skullduggery"]
        return [way for h, s, way in self.facing_ways() if h <= heroism and s <= skullduggery]

    def defeat_encounter(self, player: Player) -> None:
        """The difficulty is met: the tokens cover what the Temporary totals lack (removing no
        more than that; the player says which pool meets a Half-Heroism/Half-Skullduggery
        bubble when both can), and the Encounter is defeated at this Location."""
        encounter = self.facing()
        ways = self.ways_now(player)
        if not ways:
            raise RuleError(f"{player.name} cannot meet {self.cat.titles[encounter]}'s difficulty")
        way = ways[0]
        if len(ways) > 1:
            way = self.ask(
                player,
                Question(
                    HALF_BUBBLE_QUESTION,
                    player.index,
                    f"{self.cat.titles[encounter]}: meet the Half-Heroism/"
                    "Half-Skullduggery difficulty with",
                    tuple(ways),
                ),
            )
        counters = player.counters
        need_h, need_s = needs(self.facing_difficulty(), way)
        counters["heroism"] -= max(need_h - counters["temporary_heroism"], 0)
        counters["skullduggery"] -= max(need_s - counters["temporary_skullduggery"], 0)
        player.zones["defeated_encounters"].append(encounter)
        self.log("defeated", player.index, encounter, way)

    def leave_undefeated(self, player: Player) -> None:
        """ "If you cannot meet the difficulty of the Encounter, it is Undefeated." """
        self.log("undefeated", player.index, self.facing())
        player.flags["undefeated_this_turn"] = True

    def discard_encounter(self, player: Player) -> None:
        """The Undefeated Encounter goes to the Encounter discard pile."""
        self.board["encounter_discard"].append(self.facing())

    def declare_winner(self, player: Player) -> None:
        """The flow found the winner: remember and log it."""
        self.winner = player
        self.log("winner", player.index)

    def encounter_options(self, player: Player) -> list[str]:
        """What the player may do next on an Encounter Turn."""
        options = []
        if self.may_venture(player, True):
            options.append("venture_forth")
        elif self.may_venture(player, False):
            options.append("venture_back")
        if self.board["encounter_deck"] or self.board["encounter_discard"]:
            options.append("face_encounter")
        options.append("end_turn")
        return options

    def encounter_actions(self, player: Player) -> None:
        """ "You may choose to face more Encounters on your turn or Venture Forth again", until
        the player ends the turn (or wins): the choice is asked here, each step is the flow's
        DSL verb (``venture_forth``, ``venture_back``, ``face_encounter``)."""
        player.flags["undefeated_this_turn"] = False
        while self.winner is None:
            options = tuple(self.encounter_options(player))
            if len(options) == 1:
                break
            answer = self.ask(
                player, Question(ENCOUNTER_TURN, player.index, "on this Encounter Turn", options)
            )
            if answer == "end_turn":
                break
            self.run_verb(answer, player)

    # -- the Draw Phase

    def sacrifice_resource(self, player: Player) -> None:
        """ "You may Sacrifice (remove from the game) up to one Resource card still in your
        hand." """
        hand = player.zones["hand"]
        if not hand:
            return
        options = (NONE, *dict.fromkeys(hand))
        answer = self.ask(
            player, Question(SACRIFICE, player.index, "Sacrifice a Resource", options)
        )
        if answer != NONE:
            hand.remove(answer)
            player.zones["sacrificed"].append(answer)
            self.log("sacrifice", player.index, answer)

    def discard_cards(self, player: Player) -> None:
        """ "Discard as many cards from your hand as you like." """
        hand = player.zones["hand"]
        while hand:
            options = (KEEP, *dict.fromkeys(hand))
            answer = self.ask(
                player, Question(DISCARD, player.index, "discard from the hand", options)
            )
            if answer == KEEP:
                break
            hand.remove(answer)
            player.zones["discard_pile"].append(answer)
            self.log("discard", player.index, answer)

    # -- the turn: the flow's phases (flow.cards) call these

    def choose_rest_or_encounter_turn(self, player: Player) -> str:
        """ "There are two different ways to spend your turn": the player says which (the flow
        takes the first turn's Rest Turn without asking)."""
        options = ("rest_turn", "encounter_turn")
        way = self.ask(
            player, Question(TURN, player.index, "take a Rest Turn or an Encounter Turn", options)
        )
        player.flags["turn_way"] = way
        return way

    def announce(self, player: Player, way: str) -> None:
        """The way the player spends this turn, for the log and for :meth:`resting`."""
        player.flags["turn_way"] = way
        self.log(way, player.index)

    @property  # type: ignore[override]
    def turn_player(self) -> Player | None:
        """The player whose turn it is (None between turns)."""
        return self._turn_player

    @turn_player.setter
    def turn_player(self, player: Player | None) -> None:
        # The flow sets this as each turn begins: each player's count of turns begun, so that
        # "On the first turn ... take a Rest Turn" (first_turn) holds on the first turn only
        # even under a house rule whose spend_the_turn does not call turn_taken (every turn
        # was a first turn, a Rest Turn, and no game was ever won).
        self._turn_player = player
        if player is not None:
            player.flags["turns_begun"] = int(player.flags.get("turns_begun", 0)) + 1

    def take_turn(self, player: Player) -> None:
        """One turn of ``player``, as the flow's ``turn`` section says (for scenarios: the
        game's own loop is :meth:`engine.flow.FlowGame.play`); a win ends it as in a game, and
        so does the flow's ``end when`` after a phase (a house rule's ``end_when:`` did not end
        a scenario's turn, which went on to its Draw Phase)."""
        self.turns += 1
        self.turn_player = player
        try:
            self.run_section("turn", player, ends=True)
        except GameEnded as ended:
            self.reason = ended.reason
        finally:
            self.turn_player = None

    def play_game(self) -> Any:
        """The whole game by its flow: the simulator's entry point (``engine.sim``)."""
        return self.play()

    # -- running the DSL's verbs and functions (flow.cards)

    def _dsl(self) -> tuple[dict[str, PhaseFn], dict[str, PhaseFn]]:
        """The generated module's DSL verbs and functions (``dv_<name>``, ``df_<name>``)."""
        module = self.table.module if self.table is not None else None
        found: tuple[dict[str, PhaseFn], dict[str, PhaseFn]] | None = _DSL.get(module)
        if found is None:
            verbs, functions = {}, {}
            for name, fn in vars(module).items() if module is not None else ():
                if name.startswith("dv_") and callable(fn):
                    verbs[name[3:]] = fn
                elif name.startswith("df_") and callable(fn):
                    functions[name[3:]] = fn
            found = _DSL.put(module, (verbs, functions))
        return found

    def run_verb(self, name: str, player: Player) -> Any:
        """Run a verb flow.cards defines, for ``player``."""
        verb = self._dsl()[0].get(name)
        if verb is None:
            raise RuleError(
                f"the DSL verb '{name}' is not in the compiled game: flow.cards defines it; "
                "run 'cardc build'"
            )
        return self.call(verb, self._contexts[player.index])

    def run_function(self, name: str, player: Player) -> Any:
        """The value of a function flow.cards defines, for ``player``."""
        function = self._dsl()[1].get(name)
        if function is None:
            raise RuleError(
                f"the DSL function '{name}' is not in the compiled game: flow.cards defines "
                "it; run 'cardc build'"
            )
        return function(self, self._contexts[player.index])

    def narrate(self) -> list[str]:
        """The game told turn by turn (``cardc sim --log``)."""
        return narrate(self)


#: The shared discard piles, as the log names them when one is shuffled into its deck.
_SHARED_PILES = {
    "crew_discard": "Crew",
    "resource_discard": "Market's Resource",
    "encounter_discard": "Encounter",
}


def narrate(game: IncredibleExpeditions) -> list[str]:
    """The game told phase by phase in the rulebook's words, from its event log: what ``cardc
    sim --log`` prints. Each phase is headed by its title in flow.cards ("Step 1: Set Up the
    World", "Draw Phase"); a turn by its number and player, its way by "Rest Turn" or
    "Encounter Turn"."""
    title = game.cat.titles
    name = lambda card: title.get(str(card), str(card))  # noqa: E731 - a local shorthand
    phases = _phase_titles(game)
    # A turn begins with the first phase of the flow's turn section: the Marooned and Lost
    # Rule, or whatever a house rule put there (a variant may remove that phase).
    first_of_turn = next(
        (
            section["phases"][0]["name"]
            for section in (game.ir.get("flow") or {}).get("sections", ())
            if section["section"] == "turn" and section["phases"]
        ),
        "marooned",
    )
    lines: list[str] = []
    line: list[str] = []
    heading = [""]
    turn = 0
    #: The player whose turn it is ("" in the setup): what happens to another is said with
    #: their name.
    turn_player = [""]

    def flush() -> None:
        if line:
            lines.append(f"  {heading[0]}: " + "; ".join(line) + ".")
            line.clear()

    for event in game.events:
        kind = event[0]
        who = f"player {event[1] + 1}" if len(event) > 1 and isinstance(event[1], int) else ""
        if kind == "phase":
            flush()
            phase = str(event[2])
            heading[0] = phases.get(phase, phase)
            if phase == first_of_turn:
                turn += 1
                turn_player[0] = who
                lines.append(f"Turn {turn}, {who}:")
        elif kind == "locations":
            line.append(" - ".join(name(c) for c in event[1:]))
        elif kind == "leader":
            line.append(f"{who} leads with {name(event[2])}")
        elif kind == "gain" and heading[0].startswith("Step 2"):
            # The tokens on the Leader card, in its order: Money, Heroism, Skullduggery.
            if event[2] == "money":
                line.append(f"takes {event[3]} Money")
            else:
                end = " tokens" if event[2] == "skullduggery" else ""
                line[-1] += f", {event[3]} {event[2].capitalize()}{end}"
        elif kind == "lose" and heading[0].startswith("Step 3"):
            line.append(f"{who} bets {event[3]}")
        elif kind == "first_player":
            line.append(f"player {event[1] + 1} takes the first turn")
        elif kind in ("rest_turn", "encounter_turn"):
            flush()
            heading[0] = "Rest Turn" if kind == "rest_turn" else "Encounter Turn"
        elif kind == "refresh":
            line.append("Refresh the Crew")
        elif kind == "market" and len(event) > 2:
            line.append("the Market: " + ", ".join(name(c) for c in event[2:]))
        elif kind == "acquire":
            whom = "" if event[3] == event[1] + 1 else f" for player {event[3]}"
            line.append(f"Acquire {name(event[2])}{whom}")
        elif kind == "hire" and heading[0] == phases.get("marooned"):
            # "draw random Crew from the discard pile until you have a total of 3 Capable Crew"
            line.append(f"draw {name(event[2])} from the Crew discard pile into cabin {event[3]}")
        elif kind == "hire":
            line.append(f"{name(event[2])} into cabin {event[3]}")
        elif kind == "play":
            line.append(f"play {name(event[2])}")
        elif kind == "ability":
            line.append(f"play {name(event[2])} for its Ability")
        elif kind == "exhaust":
            line.append(f"Exhaust {name(event[2])}")
        elif kind == "token":
            line.append(f"spend a {event[2].capitalize()} token")
        elif kind == "venture_forth":
            line.append(f"Venture Forth to {name(event[2])}")
        elif kind == "discover":
            line.append("flip it over")
        elif kind == "ignored":
            line.append("ignore its text")
        elif kind == "face":
            line.append(f"Face {name(event[2])}")
        elif kind == "difficulty":
            line.append(f"its difficulty is now Heroism {event[3]}, Skullduggery {event[4]}")
        elif kind == "defeated":
            line.append(f"defeated ({event[3].replace('+', ' and ')})")
        elif kind == "undefeated":
            line.append("Undefeated")
        elif kind == "lost":
            line.append(f"{name(event[2])} in cabin {event[3]} is Lost")
        elif kind == "cursed":
            line.append(f"{name(event[2])} in cabin {event[3]} is Cursed")
        elif kind == "sacrifice":
            line.append(f"Sacrifice {name(event[2])}")
        elif kind == "discard":
            line.append(f"discard {name(event[2])}")
        elif kind == "reshuffle" and event[1] in _SHARED_PILES:
            # A shared deck run out: its discard pile shuffled in (GAME.deck).
            line.append(f"shuffle the {_SHARED_PILES[event[1]]} discard pile into its deck")
        elif kind == "reshuffle":
            line.append("shuffle the discard pile into the Resource deck")
        elif kind == "draw_from":
            line.append(f"{who} draws {event[4]}" if turn == 0 else f"draw {event[4]}")
        elif kind in ("gain", "lose", "pay") and event[3] and event[2] != "victory":
            # What a card's text or a house rule's phase does to a counter ("Upon Facing ...
            # lose 1 Money"); the winner's point is said by the winner's line.
            whose = f"{who} " if who != turn_player[0] else ""
            counter = str(event[2]).replace("_", " ").title()
            line.append(
                f"{whose}{kind}s {event[3]} {counter}" if whose else f"{kind} {event[3]} {counter}"
            )
        elif kind == "winner":
            flush()
            lines.append(
                f"{who.capitalize()} defeats both Encounters at the Drowned City of Atlantis "
                "and wins."
            )
    flush()
    if game.winner is None and game.reason == "end_when":
        # The flow's end condition (a house rule's end_when:) ended it: said so, and where it
        # is written, not as the word "end_when".
        loc = (game.ir.get("flow") or {}).get("end_when_loc") or {}
        at = f" ({loc['file']}:{loc['line']})" if loc.get("file") else ""
        lines.append(f"The game ends: its end condition holds{at}.")
    elif game.winner is None and game.reason:
        lines.append(f"The game ends: {game.reason}.")
    return lines


def _phase_titles(game: Game) -> dict[str, str]:
    """Each phase's title in the flow (its name when it has none)."""
    flow = game.ir.get("flow") or {}
    return {
        phase["name"]: phase.get("title") or phase["name"]
        for section in flow.get("sections", ())
        for phase in section["phases"]
    }


def _game(g: Game) -> IncredibleExpeditions:
    if not isinstance(g, IncredibleExpeditions):
        raise RuleError(
            "Incredible Expeditions verbs need the game built by engine.loader.new_game"
        )
    return g


# -- natives and verbs: what flow.cards and the cards call ------------------------------------


def refreshed(g: Game, c: Context, crew: str) -> bool:
    """True when the player has ``crew`` in a cabin on its Refreshed side."""
    return _game(g).refreshed_cabin(c.player, crew) is not None


def exhaust(g: Game, c: Context, crew: str) -> None:
    """Flip the player's Refreshed ``crew`` to its Exhausted side. A card's text that Exhausts
    another card's Crew ("Upon Facing, your Pilot is Exhausted") does what it can: with no
    Refreshed one aboard nothing is Exhausted, as a token lost that the player lacks is not
    taken (it stopped the game: "player 1 has no Refreshed pilot to Exhaust"). A Crew's own
    ``exhaust self`` is what its ability costs: only a Refreshed Crew can pay it, so it is
    still refused, saying how the card offers it only then."""
    game = _game(g)
    cabin = game.refreshed_cabin(c.player, crew)
    if cabin is None:
        if crew != c.card:
            g.log("not_exhausted", c.player.index, crew)
            return
        raise RuleError(
            f"{c.player.name} has no Refreshed {crew} to Exhaust: only a Refreshed Crew can "
            "be Exhausted (a Rest Turn Refreshes it); offer the ability only then, "
            "'if refreshed(self) { may { exhaust self ... } }', as the Pilot's"
        )
    game.exhaust_cabin(c.player, cabin)


def ignore(g: Game, c: Context, what: str) -> None:
    """Mark ``what`` (``location_text``) as skipped at the Location being entered."""
    c.player.flags["ignoring"].add(what)
    g.log("ignore", c.player.index, what)


def ignoring(g: Game, c: Context, what: str) -> bool:
    """True when a trigger at the Location being entered ignores ``what``."""
    return what in c.player.flags["ignoring"]


def skip_location_text(g: Game, c: Context) -> None:
    """The Location's text is ignored this time."""
    g.log("ignored", c.player.index, _game(g).location_of(c.player), "location_text")


def lose_crew(g: Game, c: Context, amount: int = 1) -> None:
    """Lose ``amount`` Crew, each picked by the die (an empty cabin is rolled again)."""
    for _ in range(int(amount)):
        _game(g).lose_crew(c.player)


def curse_crew(g: Game, c: Context, amount: int = 1) -> None:
    """Curse ``amount`` Crew, each picked by the die."""
    for _ in range(int(amount)):
        _game(g).curse_crew(c.player)


def lift_curse(g: Game, c: Context) -> None:
    """One of the player's Cursed Crew, the one the player chooses, is Cursed no more ("lift
    the Curse from one of your Cursed Crew", as the cards read). It was always the
    lowest-numbered one, as ``refresh_one`` was: with a Cursed Deckhand in cabin 1 and a Cursed
    Strongman in cabin 3, the Ship's Doctor, Strange Tincture and Lucky Charm could never lift
    the Strongman's."""
    cursed = c.player.flags["cursed"]
    if not cursed:
        return
    cabin = _chosen_cabin(g, c, cursed, LIFT_CURSE, "lift the Curse from the Crew in cabin")
    cursed.discard(cabin)
    g.log("curse_lifted", c.player.index, cabin)


def refresh_one(g: Game, c: Context) -> None:
    """One of the player's Exhausted Crew, the one the player chooses, is Refreshed. (It was
    always the lowest-numbered one: a Crew that Exhausts itself to Refresh another Refreshed
    itself when it sat in a lower cabin.)"""
    exhausted = c.player.flags["exhausted"]
    if not exhausted:
        return
    cabin = _chosen_cabin(g, c, exhausted, REFRESH, "Refresh the Crew in cabin")
    exhausted.discard(cabin)
    g.log("refreshed", c.player.index, cabin)


def _chosen_cabin(g: Game, c: Context, cabins: set[int], ident: str, prompt: str) -> int:
    """The cabin of ``cabins`` (not empty) the player chooses, asked only when there are two or
    more: a lone one is taken without a question (nor a decision in the log)."""
    ordered = sorted(cabins)
    if len(ordered) == 1:
        return ordered[0]
    options = tuple(str(n) for n in ordered)
    return int(g.ask(c.player, Question(ident, c.player.index, prompt, options)))


def _each_player(method: str) -> Callable[..., Any]:
    # The method itself, looked up once: a flow calls these tens of thousands of times a run
    # (the game is always an IncredibleExpeditions: GAME_CLASS).
    step = getattr(IncredibleExpeditions, method)

    def verb(g: Game, c: Context, *args: Any) -> Any:
        return step(g, c.player, *args)

    def plain(g: Game, c: Context) -> Any:
        return step(g, c.player)

    # Most steps take only the player: called without the arguments' tuple.
    if len(inspect.signature(step).parameters) == 2:
        verb = plain
    verb.__doc__ = step.__doc__
    verb.__name__ = method
    return verb


def _whole_game(method: str) -> Callable[[Game, Context], Any]:
    def verb(g: Game, c: Context) -> Any:
        return getattr(_game(g), method)()

    verb.__doc__ = getattr(IncredibleExpeditions, method).__doc__
    verb.__name__ = method
    return verb


def lay_out_locations(g: Game, c: Context, first: str, last: str) -> None:
    """Port City, the shuffled Locations between, the Drowned City of Atlantis."""
    _game(g).lay_out_locations(None, first, last)


def lay_out_market(g: Game, c: Context, size: int) -> None:
    """Draw up to ``size`` cards from the Crew and Resource decks, face up."""
    _game(g).lay_out_market(c.player, int(size))


def acquire_cards(g: Game, c: Context, limit: int) -> None:
    """Acquire up to ``limit`` cards from the Market."""
    _game(g).acquire_cards(c.player, int(limit))


def first_turn(g: Game, c: Context) -> bool:
    """True on the player's first turn: no turn counted yet (turn_taken), and no turn of the
    player's begun before this one (the flow's own count, :attr:`turn_player`), so a house
    rule's spend_the_turn without turn_taken has one first turn too."""
    flags = c.player.flags
    return bool(flags["turns"] == 0 and int(flags.get("turns_begun", 0)) <= 1)


def resting(g: Game, c: Context) -> bool:
    """True when the player spends this turn as a Rest Turn."""
    return bool(c.player.flags["turn_way"] == "rest_turn")


def turn_taken(g: Game, c: Context) -> None:
    """Count the player's turn (the first one is a Rest Turn)."""
    c.player.flags["turns"] += 1


def bet_placed(g: Game, c: Context) -> int:
    """The Money the player bet to be first (0 before they bet)."""
    return int(c.player.flags.get("bet", 0))


def competitive_game(g: Game, c: Context) -> bool:
    """True unless the game is played co-operatively (mode ``coop``): "In the competitive game"
    opens the Marooned and Lost Rule."""
    return g.mode != "coop"


def turns_taken(g: Game, c: Context) -> int:
    """The turns taken so far, all players together: each player's count of turns
    (:func:`turn_taken`, once the turn is spent), so the turns a scenario gives each player
    count too (the game's own count of turns begun started at 0 in a scenario), or the flow's
    own count of turns begun when that is more: a house rule that replaced ``spend_the_turn``
    by a phase that does not call ``turn_taken`` still reaches the turn limit (its games went
    round the table 10,000 times and failed)."""
    counted = sum(int(player.flags.get("turns", 0)) for player in g.players)
    return max(counted, int(getattr(g, "turns", 0)))


def winner_found(g: Game, c: Context) -> bool:
    """True once a player has defeated both Encounters at the Drowned City of Atlantis."""
    return _game(g).winner is not None


def at_the_last_location(g: Game, c: Context) -> bool:
    """True while the player's ship is at the Drowned City of Atlantis (the last Location)."""
    return bool(c.player.flags["location"] == len(g.board["locations"]) - 1)


def encounters_here(g: Game, c: Context) -> int:
    """The total on the current Location card."""
    game = _game(g)
    return game.encounters_needed(game.location_of(c.player))


def facing_an_encounter(g: Game, c: Context) -> bool:
    """True while an Encounter is being Faced."""
    return g.board["facing"] is not None


def difficulty_met(g: Game, c: Context) -> bool:
    """True when the Temporary totals and the tokens meet the difficulty of the Encounter."""
    return bool(_game(g).ways_now(c.player))


def facing_type(g: Game, c: Context) -> str:
    """ "what Type of encounter this is (Mechanical, Supernatural, or Creature for example)":
    the Type of the Encounter being Faced."""
    game = _game(g)
    return str(game.cards[game.facing()]["properties"]["type"])


def printed_heroism_difficulty(g: Game, c: Context) -> int:
    """The Heroism difficulty printed on the Encounter being Faced."""
    game = _game(g)
    return game.cat.difficulty[game.facing()].heroism


def printed_skullduggery_difficulty(g: Game, c: Context) -> int:
    """The Skullduggery difficulty printed on the Encounter being Faced."""
    game = _game(g)
    return game.cat.difficulty[game.facing()].skullduggery


def set_difficulty(g: Game, c: Context, heroism: int, skullduggery: int) -> None:
    """The Encounter being Faced asks this Heroism and Skullduggery difficulty. Said by an
    "Upon Facing..." text (``on facing { set_difficulty 1, 0 }``), it is what the ``facing``
    window's quantities say from then on, as ``set heroism_difficulty 1`` says it: the flow
    sets the difficulty the window leaves (face_encounter), and put the card's back to the
    printed one, silently (the Encounter was Faced at its printed difficulty)."""
    quantities = c.q
    if "heroism_difficulty" in quantities and "skullduggery_difficulty" in quantities:
        quantities["heroism_difficulty"] = max(int(heroism), 0)
        quantities["skullduggery_difficulty"] = max(int(skullduggery), 0)
    _game(g).set_difficulty(c.player, heroism, skullduggery)


def stop_facing(g: Game, c: Context) -> None:
    """The Encounter has been Faced: what its Upon Facing text added to its difficulty ends;
    the one whose text Faced it, if any, is the one being Faced again."""
    outer = g.board.get("facing_outer")
    if outer:
        g.board["facing"], g.board["facing_difficulty"], g.board["facing_ways"] = outer.pop()
        return
    g.board["facing"] = None
    g.board["facing_difficulty"] = None
    g.board["facing_ways"] = None


NATIVES: dict[str, Callable[..., Any]] = {
    "refreshed": refreshed,
    "capable_crew_count": _each_player("capable_crew"),
    "has_cursed_crew": _each_player("has_cursed_crew"),
    "location_text_here": _each_player("location_text_here"),
    "first_turn": first_turn,
    "resting": resting,
    "turns_taken": turns_taken,
    "competitive_game": competitive_game,
    "bet_placed": bet_placed,
    "winner_found": winner_found,
    "at_port_city": _each_player("at_port_city"),
    "at_the_last_location": at_the_last_location,
    "encounters_here": encounters_here,
    "ignoring": ignoring,
    "facing_an_encounter": facing_an_encounter,
    "difficulty_met": difficulty_met,
    "facing_type": facing_type,
    "printed_heroism_difficulty": printed_heroism_difficulty,
    "printed_skullduggery_difficulty": printed_skullduggery_difficulty,
    "full_hand": _each_player("hand_size"),
    "leader_shows": _each_player("leader_shows"),
    "leader_prints": _each_player("leader_prints"),
    "free_leaders": lambda g, c: list(g.board["leaders"]),
}

VERBS: dict[str, Callable[..., Any]] = {
    "exhaust": exhaust,
    "sacrifice": lambda g, c, card: _game(g).sacrifice(c, card),
    "ignore": ignore,
    "lose_crew": lose_crew,
    "curse_crew": curse_crew,
    "lift_curse": lift_curse,
    "refresh_one": refresh_one,
    "deal_starting_decks": _whole_game("deal_starting_decks"),
    "shuffle_decks": _whole_game("shuffle_decks"),
    "lay_out_locations": lay_out_locations,
    "take_expedition_leader": _each_player("take_expedition_leader"),
    "take_this_expedition_leader": lambda g, c, leader: _game(g).take_chosen_leader(
        c.player, leader
    ),
    "place_secret_bet": _each_player("place_secret_bet"),
    "highest_bet_goes_first": _whole_game("highest_bet_goes_first"),
    "draw_random_crew": _each_player("draw_random_crew"),
    "announce": _each_player("announce"),
    "choose_rest_or_encounter_turn": _each_player("choose_rest_or_encounter_turn"),
    "turn_taken": turn_taken,
    "refresh_crew": _each_player("refresh_crew"),
    "lay_out_market": lay_out_market,
    "acquire_cards": acquire_cards,
    "clear_market": _each_player("clear_market"),
    "encounter_actions": _each_player("encounter_actions"),
    "discard_defeated_encounters": _each_player("discard_defeated_encounters"),
    "move_ship": _each_player("move_ship"),
    "flip_location": _each_player("flip_location"),
    "skip_location_text": skip_location_text,
    "follow_location_text": _each_player("follow_location_text"),
    "flip_encounter": _each_player("flip_encounter"),
    "set_difficulty": set_difficulty,
    "raise_against_encounter": _each_player("raise_against_encounter"),
    "defeat_encounter": _each_player("defeat_encounter"),
    "leave_undefeated": _each_player("leave_undefeated"),
    "discard_encounter": _each_player("discard_encounter"),
    "stop_facing": stop_facing,
    "declare_winner": _each_player("declare_winner"),
    "sacrifice_resource": _each_player("sacrifice_resource"),
    "discard_cards": _each_player("discard_cards"),
}

GAME_CLASS = IncredibleExpeditions


# -- policies ------------------------------------------------------------------------------


class Greedy(Policy):
    """An expedition leader who plays sensibly: hires Crew until the ship has 3 to 5 capable
    hands, buys the Resources that raise the Heroism and Skullduggery the Encounters ahead ask,
    sets out once the ship has 3 Crew and could likely defeat the next Encounter, faces what it
    can likely defeat, Ventures Forth when it may and is likely to defeat what waits there,
    Rests when it is not, and pays with the fewest cards that cover a cost."""

    #: The chance of defeating the next Encounter at which the ship sets out or Faces it (a
    #: choice of this policy, not a rule).
    LIKELY = 0.5
    #: The Crew the rulebook recommends before setting out ("Having at least 3 Crew").
    CREW = 3

    def __init__(self, player: int):
        self.player = player

    def decide(self, game: Game, question: Question) -> str:
        """Answer by the question's id; anything unforeseen gets the first legal answer."""
        g: IncredibleExpeditions = game  # type: ignore[assignment]  # always: GAME_CLASS
        me = g.players[question.player]
        ident, options = question.id, question.options
        if ident == PAY:
            return self.pay(g, me, options)
        if ident == RAISE:
            return self.raise_for_encounter(g, me, options)
        if ident == ACQUIRE:
            return self.acquire(g, me, options)
        if ident == MARKET_CREW:
            return self.market(g, me, options)
        if ident == MARKET_RESOURCES:
            return options[-1]
        if ident == ENCOUNTER_TURN:
            return self.encounter_turn(g, me, options)
        if ident == TURN:
            return "encounter_turn" if self.ready(g, me) else "rest_turn"
        if ident == DISCARD:
            return KEEP
        if ident == SACRIFICE:
            return self.sacrifice(g, me, options)
        if ident == BID:
            return "1" if "1" in options else "0"
        if "yes" in options:
            return "yes"
        return options[0]

    def chance(self, g: IncredibleExpeditions, me: Player) -> float:
        """The share of the Encounters the next flip may bring that the ship could defeat with
        all it can raise now: the cards left in the Encounter deck (or, when it is empty, its
        discard pile, shuffled in next), a count anyone at the table can keep, since every
        Encounter is face up once Faced."""
        pile = g.board["encounter_deck"] or g.board["encounter_discard"]
        if not pile:
            return 0.0
        _, heroism, skull = g.potential(me)
        ways = g.cat.ways
        met = 0
        for encounter in pile:
            for need_h, need_s, _way in ways[encounter]:
                if need_h <= heroism and need_s <= skull:
                    met += 1
                    break
        return met / len(pile)

    def ready(self, g: IncredibleExpeditions, me: Player) -> bool:
        """Set out (or go on) when the ship has its Crew and could likely defeat the next
        Encounter; else Rest, to Refresh the Crew and Acquire more."""
        if g.at_port_city(me) and g.capable_crew(me) < self.CREW:
            return False
        return self.chance(g, me) >= self.LIKELY

    def encounter_turn(self, g: IncredibleExpeditions, me: Player, options: Sequence[str]) -> str:
        """Venture Forth when allowed and likely to defeat the Encounter that must be Faced
        there; else Face the next Encounter here when likely to defeat it; stop after an
        Undefeated one (the hand and the Crew are spent)."""
        if me.flags["undefeated_this_turn"]:
            return "end_turn"
        likely = self.chance(g, me) >= self.LIKELY
        if "venture_forth" in options and likely:
            return "venture_forth"
        if "face_encounter" in options and likely and "venture_forth" not in options:
            return "face_encounter"
        return "end_turn"

    def market(self, g: IncredibleExpeditions, me: Player, options: Sequence[str]) -> str:
        """Crew while the ship wants hands (up to 5 capable, in the free cabins), the rest
        Resources."""
        most = len(options) - 1
        cabins = sum(1 for c in me.flags["cabins"] if c is None)
        want = min(max(5 - g.capable_crew(me), 0), cabins, most)
        return str(want)

    def demand(self, g: IncredibleExpeditions) -> tuple[float, float]:
        """What the Encounters ahead ask, as weights of a point of Heroism and of Skullduggery
        (mean 1): each Encounter left in the deck and its discard pile counted by its easiest
        way to be met, a Half-Heroism/Half-Skullduggery bubble half to each."""
        heroism = skull = 1.0
        easiest = g.cat.easiest
        for pile in (g.board["encounter_deck"], g.board["encounter_discard"]):
            for encounter in pile:
                need_h, need_s = easiest[encounter]
                heroism, skull = heroism + need_h, skull + need_s
        total = heroism + skull
        return 2 * heroism / total, 2 * skull / total

    def worth(
        self,
        g: IncredibleExpeditions,
        me: Player,
        card: str,
        capable: int | None = None,
        demand: tuple[float, float] = (1.0, 1.0),
    ) -> float:
        """How much a card helps the voyage, per point of its cost (``capable``: the player's
        capable Crew, when the caller has counted them; ``demand``: what the Encounters ahead
        ask, :meth:`demand`)."""
        if card == "stowaway_kid":
            return -1.0
        money, heroism, skull = g.cat.values[card]
        cost = sum(g.cat.cost.get(card, (0, 0, 0))) or 1
        worth = demand[0] * heroism + demand[1] * skull + 0.3 * money
        if g.cards[card]["kind"] == "crew":
            # A Crew serves every turn it is Refreshed, and counts against being Marooned.
            if (g.capable_crew(me) if capable is None else capable) >= 5:
                return 0.0
            worth = 2.0 * worth + 1.0
        return worth / cost

    def acquire(self, g: IncredibleExpeditions, me: Player, options: Sequence[str]) -> str:
        """The card worth most to this ship that its hand, tokens and (while hiring) Crew can
        pay for; never one for another player."""
        counters = me.counters
        have_m = counters["temporary_money"] + counters["money"]
        have_h = counters["temporary_heroism"]
        have_s = counters["temporary_skullduggery"]
        values = g.cat.values
        for card in me.zones["hand"]:
            m, h, s = values[card]
            have_m, have_h, have_s = have_m + m, have_h + h, have_s + s
        capable = g.capable_crew(me)
        if g.at_port_city(me) and capable < self.CREW:
            for i, crew in enumerate(me.flags["cabins"], 1):
                if crew is not None and g.can_exhaust(me, i):
                    m, h, s = values[crew]
                    have_m, have_h, have_s = have_m + m, have_h + h, have_s + s
        costs = g.cat.cost
        best, value = DONE, 0.0
        demand = self.demand(g)
        for option in options:
            if option == DONE or " for " in option:
                continue
            cost_m, cost_h, cost_s = costs.get(option, (0, 0, 0))
            if cost_m > have_m or cost_h > have_h or cost_s > have_s:
                continue
            worth = self.worth(g, me, option, capable, demand)
            if worth > value:
                best, value = option, worth
        return best

    def pay(self, g: IncredibleExpeditions, me: Player, options: Sequence[str]) -> str:
        """Cover the shortfall with hand cards first, then Money tokens; Crew only while the
        ship is still hiring in port (an Exhausted Crew is no use on the next Encounter Turn)."""
        cost_m, cost_h, cost_s = g.cat.cost.get(g.board["paying"] or "", (0, 0, 0))
        counters = me.counters
        short_m = max(cost_m - counters["temporary_money"], 0)
        short_h = max(cost_h - counters["temporary_heroism"], 0)
        short_s = max(cost_s - counters["temporary_skullduggery"], 0)
        hiring = g.at_port_city(me) and g.capable_crew(me) < self.CREW
        best, score = DONE, 0.0
        cat = g.cat
        values, played, cabin_of = cat.values, cat.played, cat.cabin_of
        cabins = me.flags["cabins"]
        for option in options:
            found = played.get(option)
            if found is not None:
                m, h, s = found
                penalty = 0.1 * (h + s)
            elif hiring and option in cabin_of:
                m, h, s = values[cabins[cabin_of[option] - 1]]
                penalty = 0.5
            elif option == "token money":
                m, h, s, penalty = 1, 0, 0, 0.8
            else:
                continue
            useful = (
                (m if m < short_m else short_m)
                + (h if h < short_h else short_h)
                + (s if s < short_s else short_s)
            )
            if useful - penalty > score:
                best, score = option, useful - penalty
        return best

    def raise_for_encounter(
        self, g: IncredibleExpeditions, me: Player, options: Sequence[str]
    ) -> str:
        """Raise what the cheapest way of meeting the difficulty still lacks; Face at once when
        it is met, or when it cannot be met (no card is wasted on a lost cause)."""
        counters = me.counters
        have_h, have_s = counters["temporary_heroism"], counters["temporary_skullduggery"]
        _, pot_h, pot_s = g.potential(me)
        best_need: tuple[int, int] | None = None
        best_sum = 0
        for need_h, need_s, _way in g.facing_ways():
            if need_h > pot_h or need_s > pot_s:
                continue
            short = (max(need_h - have_h, 0), max(need_s - have_s, 0))
            if best_need is None or short[0] + short[1] < best_sum:
                best_need, best_sum = short, short[0] + short[1]
        if best_need is None or best_need == (0, 0):
            return FACE
        short_h, short_s = best_need
        cat = g.cat
        values, played, cabin_of = cat.values, cat.played, cat.cabin_of
        cabins = me.flags["cabins"]
        best, score = FACE, 0.0
        for option in options:
            found = played.get(option)
            if found is not None:
                _, h, s = found
                penalty = 0.0
            elif option in cabin_of:
                _, h, s = values[cabins[cabin_of[option] - 1]]
                penalty = 0.2
            elif option == "token heroism":
                h, s, penalty = 1, 0, 0.6
            elif option == "token skullduggery":
                h, s, penalty = 0, 1, 0.6
            else:
                continue
            useful = (h if h < short_h else short_h) + (s if s < short_s else short_s)
            if useful - penalty > score:
                best, score = option, useful - penalty
        return best

    def sacrifice(self, g: IncredibleExpeditions, me: Player, options: Sequence[str]) -> str:
        """Thin the deck of a Marks of Credit once it holds enough bought Resources."""
        if "marks_of_credit" not in options:
            return NONE
        zones = me.zones
        bought = sum(
            1
            for zone in ("hand", "resource_deck", "discard_pile")
            for card in zones[zone]
            if card in g.cat.cost
        )
        return "marks_of_credit" if bought >= 4 else NONE


def _random(game: Game, player: int) -> Policy:
    return RandomLegal()


def _greedy(game: Game, player: int) -> Policy:
    return Greedy(player)


POLICIES: dict[str, Callable[[Game, int], Policy]] = {"random": _random, "greedy": _greedy}

#: The rulebook's modes: "This is the basic setup for a game for 2-4 players" (never one alone)
#: and "In the competitive game" (the Marooned and Lost Rule), which says there is another, a
#: co-operative one (mode coop, where no ship is Marooned: :func:`competitive_game`).
#: ``cardc sim --mode solo`` and a scenario's ``mode: solo`` are refused, naming these.
MODES = ("competitive", "coop")


# -- scenarios: what a scenario may set, check and do, by the names a designer knows --------


def _need_player(player: Player | None, what: str) -> Player:
    if player is None:
        raise RuleError(f"'{what}' belongs to a player: give it under 'player' or 'players'")
    return player


def _given_cabins(g: Game, player: Player | None, value: Any) -> None:
    game, who = _game(g), _need_player(player, "cabins")
    cabins: list[str | None] = [None if v is None else str(v) for v in value]
    if len(cabins) > int(g.params["cabins"]):
        raise RuleError(f"a player board has {g.params['cabins']} Crew Cabins")
    for crew in cabins:
        if crew is not None:
            game._kind(crew, "crew")
    who.flags["cabins"] = cabins + [None] * (int(g.params["cabins"]) - len(cabins))
    game.sync_cabins(who)


def _given_location(g: Game, player: Player | None, value: Any) -> None:
    who = _need_player(player, "location")
    track = g.board["locations"]
    if str(value) not in track:
        raise RuleError(f"'{value}' is not on the Location track: {', '.join(track)}")
    who.flags["location"] = track.index(str(value))


def _given_leader(g: Game, player: Player | None, value: Any) -> None:
    _game(g).take_expedition_leader(_need_player(player, "leader"), str(value))


def _board_list(key: str) -> Callable[[Game, Player | None, Any], None]:
    def given(g: Game, player: Player | None, value: Any) -> None:
        if player is not None:
            # Under a player it set the shared pile all the same, as if it were theirs.
            raise RuleError(
                f"'{key}' is shared by every player, not a player's: give it beside 'player', "
                "at the top of 'given'"
            )
        g.board[key] = [str(v) for v in value]

    return given


def _flag_set(key: str) -> Callable[[Game, Player | None, Any], None]:
    def given(g: Game, player: Player | None, value: Any) -> None:
        _need_player(player, key).flags[key] = {int(v) for v in value}

    return given


def _given_turns(g: Game, player: Player | None, value: Any) -> None:
    _need_player(player, "turns").flags["turns"] = int(value)


GIVEN: dict[str, Callable[..., Any]] = {
    "locations": lambda g, player, value: _game(g).lay_out_locations(
        None if value is None else [str(v) for v in value], shuffled=value is None
    ),
    "encounter_deck": _board_list("encounter_deck"),
    "encounter_discard": _board_list("encounter_discard"),
    "crew_deck": _board_list("crew_deck"),
    "crew_discard": _board_list("crew_discard"),
    "resource_deck": _board_list("resource_deck"),
    # Each shared deck's discard pile can be given, as each can be expected.
    "resource_discard": _board_list("resource_discard"),
    "market": _board_list("market"),
    "cabins": _given_cabins,
    "exhausted": _flag_set("exhausted"),
    "cursed": _flag_set("cursed"),
    "location": _given_location,
    "leader": _given_leader,
    "turns": _given_turns,
}


def _winner_number(g: Game) -> int | None:
    """The winner as the game's result names it: the flow's ``winner highest`` on victory (the
    first to defeat both Encounters at Atlantis scores 1), so a house rule that scores victory
    otherwise (an end phase's) is judged as ``cardc sim`` judges the game; it read the player
    who reached Atlantis, whatever the scores said. In the co-operative game, whose result
    names no seat, the player whose ship reached Atlantis for the team."""
    game = _game(g)
    result = game.result()
    if result.team_score is None:
        return None if result.winner is None else int(result.winner) + 1
    return None if game.winner is None else game.winner.index + 1


def _leader(g: Game, player: Player | None) -> str | None:
    held = _need_player(player, "leader").zones["expedition_leader"]
    return held[0] if held else None


#: The GIVEN / EXPECT keys of a player's board, given or expected under 'player' only (a
#: scenario's checker says so at the line of one written beside it).
PLAYER_KEYS = frozenset(
    {"cabins", "exhausted", "cursed", "location", "leader", "turns", "hand_size"}
    | {"capable_crew", "marooned"}
)

EXPECT: dict[str, Callable[[Game, Player | None], Any]] = {
    "cabins": lambda g, player: list(_need_player(player, "cabins").flags["cabins"]),
    "exhausted": lambda g, player: sorted(_need_player(player, "exhausted").flags["exhausted"]),
    "cursed": lambda g, player: sorted(_need_player(player, "cursed").flags["cursed"]),
    "location": lambda g, player: _game(g).location_of(_need_player(player, "location")),
    "leader": _leader,
    "hand_size": lambda g, player: _game(g).hand_size(_need_player(player, "hand_size")),
    "capable_crew": lambda g, player: _game(g).capable_crew(_need_player(player, "crew")),
    "marooned": lambda g, player: _game(g).run_function(
        "marooned", _need_player(player, "marooned")
    ),
    "winner": lambda g, player: _winner_number(g),
    "first_player": lambda g, player: int(g.board["first_player"]),
    "locations": lambda g, player: list(g.board["locations"]),
    "locations_laid_out": lambda g, player: len(g.board["locations"]),
    "discovered": lambda g, player: sorted(g.board["discovered"]),
    "market": lambda g, player: list(g.board["market"]),
    "market_size": lambda g, player: len(g.board["market"]),
    "encounter_discard": lambda g, player: list(g.board["encounter_discard"]),
    "crew_discard": lambda g, player: list(g.board["crew_discard"]),
    "resource_discard": lambda g, player: list(g.board["resource_discard"]),
    "deck_sizes": lambda g, player: [
        len(g.board["resource_deck"]),
        len(g.board["crew_deck"]),
        len(g.board["encounter_deck"]),
    ],
    "end_reason": lambda g, player: _game(g).reason or "",
}


def _face_encounter(g: Game, player: Player, encounter: str | None = None) -> None:
    """Face the top Encounter, or ``encounter`` put on top of the deck first."""
    game = _game(g)
    if encounter is not None:
        game._kind(encounter, "encounter")
        g.board["encounter_deck"].insert(0, encounter)
    game.run_verb("face_encounter", player)


def _venture_forth(g: Game, player: Player, closer: bool = True) -> None:
    """Venture Forth (closer to Atlantis, or back), refused when the rules do not allow it."""
    game = _game(g)
    if not game.may_venture(player, closer):
        game.refuse_venture(player, closer)
    game.run_verb("venture_forth" if closer else "venture_back", player)


def _run_verb(name: str) -> Callable[[Game, Player], Any]:
    return lambda g, player: _game(g).run_verb(name, player)


def _declared_verb(name: str, python: Callable[..., Any]) -> Callable[..., Any]:
    """A step named after a verb game.cards declares and the Python implements: the verb as
    the compiled game has it, the DSL body a house rule gave it (``verbs:`` redefining
    ``refresh_crew``) when it has one, else ``python(game, player, *args)``. The step ran the
    base game's Python under every variant, so a scenario of the house rule tested the base
    game's rule."""

    def step(g: Game, player: Player | None, *args: Any) -> Any:
        game = _game(g)
        verb = game._dsl()[0].get(name)
        if verb is None:
            return python(game, player, *args)
        who = player or game.players[0]
        return game.call(lambda g2, c: verb(g2, c, *args), game._contexts[who.index])

    return step


#: Steps a scenario may name (``action: venture_forth``, ``args: {closer: false}``).
ACTIONS: dict[str, Callable[..., Any]] = {
    "set_up": lambda g, player: _game(g).run_section("setup"),
    "deal_starting_decks": _declared_verb(
        "deal_starting_decks", lambda game, player: game.deal_starting_decks()
    ),
    "shuffle_decks": _declared_verb("shuffle_decks", lambda game, player: game.shuffle_decks()),
    "lay_out_locations": lambda g, player: _game(g).lay_out_locations(None),
    "take_expedition_leader": lambda g, player, leader=None: _game(g).take_expedition_leader(
        player, leader
    ),
    "take_leader_tokens": _run_verb("take_leader_tokens"),
    "first_player_bid": _run_verb("first_player_bid"),
    "draw_to_hand_size": _run_verb("draw_to_hand_size"),
    "take_turn": lambda g, player: _game(g).take_turn(player),
    "rest_turn": _run_verb("take_rest_turn"),
    "encounter_turn": _run_verb("take_encounter_turn"),
    "draw_phase": _run_verb("draw_phase"),
    "venture_forth": _venture_forth,
    "face_encounter": _face_encounter,
    "hire_crew": lambda g, player, crew: _game(g).hire_crew(player, crew),
    "refresh_crew": _declared_verb("refresh_crew", lambda game, player: game.refresh_crew(player)),
    "exhaust_for_totals": lambda g, player, cabin: _game(g).exhaust_for_totals(player, cabin),
    "play_for_values": lambda g, player, card: _game(g).play_for_values(player, card),
    "play_for_ability": lambda g, player, card: _game(g).play_for_ability(player, card),
    "spend_token": lambda g, player, token: _game(g).spend_token(player, token),
    "lay_out_market": lambda g, player, size=6: _declared_verb(
        "lay_out_market", lambda game, player, size: game.lay_out_market(player, size)
    )(g, player, size),
    "acquire_cards": lambda g, player, limit=3: _declared_verb(
        "acquire_cards", lambda game, player, limit: game.acquire_cards(player, limit)
    )(g, player, limit),
    "clear_market": _declared_verb("clear_market", lambda game, player: game.clear_market(player)),
    "rescue_crew": _run_verb("rescue_crew"),
    "sacrifice_resource": _declared_verb(
        "sacrifice_resource", lambda game, player: game.sacrifice_resource(player)
    ),
    "discard_cards": _declared_verb(
        "discard_cards", lambda game, player: game.discard_cards(player)
    ),
    "reset_temporary_totals": _run_verb("reset_temporary_totals"),
    "play_game": lambda g, player: _game(g).play(),
}


# -- what a scenario may name, checked at its line (engine.scenario_check) ------------------


def _cabins(ir: dict[str, Any]) -> int:
    return int(ir["vocabulary"]["params"].get("cabins", 6))


_CARD = Id("card", "a card")
_CABIN = Number(1, lambda vocab: _cabins(vocab.ir), "a Crew Cabin")
_CARDS = Many(_CARD)
_COUNT = Number(0, None, "a number")
GIVEN_KINDS = {
    "locations": Maybe(Many(Id("card:location", "a Location"))),
    "encounter_deck": Many(Id("card:encounter", "an Encounter")),
    "encounter_discard": Many(Id("card:encounter", "an Encounter")),
    "crew_deck": Many(Id("card:crew", "a Crew")),
    "crew_discard": Many(Id("card:crew", "a Crew")),
    "resource_deck": Many(Id("card:resource", "a Resource")),
    "resource_discard": Many(Id("card:resource", "a Resource")),
    "market": Many(Id("card:crew|resource", "a Crew or Resource")),
    # Any card: a Crew Cabin holding a card that is no Crew is a given the rules refuse.
    "cabins": Many(Maybe(_CARD)),
    "exhausted": Many(_CABIN),
    "cursed": Many(_CABIN),
    "location": Id("card:location", "a Location"),
    "leader": Id("card:expedition_leader", "an Expedition Leader"),
    "turns": _COUNT,
}
EXPECT_KINDS = {
    "cabins": Many(Maybe(_CARD)),
    "exhausted": Many(_CABIN),
    "cursed": Many(_CABIN),
    "location": Id("card:location", "a Location"),
    "leader": Maybe(Id("card:expedition_leader", "an Expedition Leader")),
    "hand_size": _COUNT,
    "capable_crew": _COUNT,
    "marooned": Flag(),
    "winner": Maybe(PLAYER),
    "first_player": PLAYER,
    "locations": Many(Id("card:location", "a Location")),
    "locations_laid_out": _COUNT,
    "discovered": Many(Id("card:location", "a Location")),
    "market": _CARDS,
    "market_size": _COUNT,
    "encounter_discard": Many(Id("card:encounter", "an Encounter")),
    "crew_discard": Many(Id("card:crew", "a Crew")),
    "resource_discard": Many(Id("card:resource", "a Resource")),
    "deck_sizes": Many(_COUNT),
    # The reasons the game's own end_game statements give: a house rule's new way to end the
    # game (a phase that ends it "landfall at Atlantis") is expectable as the base game's are.
    "end_reason": Id("end_reason", "an end reason"),
}
#: The cards each of a player's zones holds: a card of another kind there is a scenario's mistake
#: at its line (an Encounter given in the hand met the Market's arithmetic as a card with no
#: values, a KeyError mid-step).
ZONE_KINDS = {
    "hand": Id("card:resource", "a Resource"),
    "resource_deck": Id("card:resource", "a Resource"),
    "discard_pile": Id("card:resource", "a Resource"),
    "crew_cabins": Id("card:crew", "a Crew"),
    "defeated_encounters": Id("card:encounter", "an Encounter"),
    "lost_crew": Id("card:crew", "a Crew"),
    # "Lost or Sacrificed Crew can come back": a Crew or a Resource is Sacrificed.
    "sacrificed": Id("card:crew|resource", "a Crew or Resource"),
    "expedition_leader": Id("card:expedition_leader", "an Expedition Leader"),
}


def _end_reasons(ir: dict[str, Any]) -> list[str]:
    """Every reason an ``end_game "..."`` of the compiled game (its flow, verbs, cards, a
    variant's phases) gives, "" for a game not ended, and ``end_when`` for one its flow's end
    condition ended (the base game's ``end when winner_found()``, a house rule's ``end_when:``):
    a scenario could not expect that end ("'end_when' is not an end reason")."""
    found = [""]
    if (ir.get("flow") or {}).get("end_when"):
        found.append("end_when")
    stack: list[Any] = [ir.get("flow"), ir.get("definitions"), ir.get("cards")]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("kind") == "verb" and node.get("verb") == "end_game":
                found += [a["value"] for a in node.get("args") or () if a.get("kind") == "text"]
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


#: Named lists of ids a scenario's values are checked against (engine.scenario_check).
POOLS: dict[str, Callable[[dict[str, Any]], list[str]]] = {"end_reason": _end_reasons}

# Card arguments name any card: the flow refuses one of the wrong kind (expectable), while a
# name that is no card at all is the scenario's own mistake.
_NONE: Fields = Fields({})
ACTION_ARGS = {
    "set_up": _NONE,
    "deal_starting_decks": _NONE,
    "shuffle_decks": _NONE,
    "lay_out_locations": _NONE,
    "take_expedition_leader": Fields({"leader": Maybe(_CARD)}),
    "take_leader_tokens": _NONE,
    "first_player_bid": _NONE,
    "draw_to_hand_size": _NONE,
    "take_turn": _NONE,
    "rest_turn": _NONE,
    "encounter_turn": _NONE,
    "draw_phase": _NONE,
    "venture_forth": Fields({"closer": Flag()}),
    "face_encounter": Fields({"encounter": Maybe(_CARD)}),
    "hire_crew": Fields({"crew": _CARD}, ("crew",)),
    "refresh_crew": _NONE,
    "exhaust_for_totals": Fields({"cabin": _CABIN}, ("cabin",)),
    "play_for_values": Fields({"card": _CARD}, ("card",)),
    "play_for_ability": Fields({"card": _CARD}, ("card",)),
    "spend_token": Fields({"token": Choice(VALUE_KINDS, "a token")}, ("token",)),
    "lay_out_market": Fields({"size": _COUNT}),
    "acquire_cards": Fields({"limit": _COUNT}),
    "clear_market": _NONE,
    "rescue_crew": _NONE,
    "sacrifice_resource": _NONE,
    "discard_cards": _NONE,
    "reset_temporary_totals": _NONE,
    "play_game": _NONE,
}
QUESTIONS: dict[str, tuple[str, tuple[str, ...] | str | None]] = {
    BID: ("Step 3: the Money tokens bet to be the first player (0 up to all of them)", None),
    TURN: ("a Rest Turn or an Encounter Turn", ("rest_turn", "encounter_turn")),
    MARKET_CREW: ("how many of the Market's cards come from the Crew deck (0 up to 6)", None),
    MARKET_RESOURCES: ("how many come from the Resource deck (0 up to what is left of 6)", None),
    ACQUIRE: ("a Market card to Acquire ('card' or 'card for N'), or done", None),
    PAY: (
        "how to raise the totals for the card being Acquired ('play card', 'ability card', "
        "'exhaust N', 'token money'), or done",
        None,
    ),
    RAISE: (
        "how to raise Heroism and Skullduggery against the Encounter ('play card', "
        "'ability card', 'exhaust N', 'token heroism'), or face",
        None,
    ),
    HALF_BUBBLE_QUESTION: (
        "meet the Half-Heroism/Half-Skullduggery difficulty with (heroism or skullduggery "
        "for each bubble, as the engine lists them)",
        None,
    ),
    ENCOUNTER_TURN: ("venture_forth, venture_back, face_encounter or end_turn", None),
    SACRIFICE: ("a Resource card of the hand to Sacrifice, or none", None),
    DISCARD: ("a card of the hand to discard, or keep", None),
    RESCUE: ("draw random Crew from the discard pile (yes or no)", ("yes", "no")),
    REFRESH: ("the cabin of the Exhausted Crew to Refresh (its number)", None),
    LIFT_CURSE: ("the cabin of the Cursed Crew whose Curse is lifted (its number)", None),
}
