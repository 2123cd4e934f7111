"""Incredible Expeditions: Quest for Atlantis: crew cabins, the Location track, Encounters.

A model sufficient for the cards written in cards/incredible_expeditions/:

- Each player board has numbered Crew Cabins (``player.flags["cabins"]``, cabin 1 first; the
  ``crew_cabins`` zone mirrors the occupied ones). A Crew is Refreshed or Exhausted
  (``player.flags["exhausted"]`` holds the numbers of the Exhausted cabins). Lost Crew go
  "under your Expedition Leader card": the ``lost_crew`` zone.
- The Location track (``g.board["locations"]``) runs from Port City through the shuffled
  Locations to the Drowned City of Atlantis; ``player.flags["location"]`` is where the ship is.
- Entering a Location fires ``entering_location`` (the Pilot answers it) before the Location's
  own "When entering..." text (``when_entering``), which is skipped when a card did
  ``ignore location_text``.
- Facing an Encounter meets its difficulty (card data) with Heroism and Skullduggery, a
  Half-Heroism/Half-Skullduggery bubble entirely with one of the two; an undefeated Encounter
  fires ``undefeated``, whose rule loses a Crew by the die.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.runtime import Context, Game, Player, Question, RuleError
from engine.scenario_types import Fields, Flag, Id, Many, Maybe, Number

#: The difficulty bubble that "must be met with EITHER Heroism OR Skullduggery ENTIRELY".
EITHER = "heroism_or_skullduggery"

#: The question asked when a Half-Heroism/Half-Skullduggery bubble could be met either way.
HALF_BUBBLE_QUESTION = "face_encounter.half_heroism_half_skullduggery"


# -- Encounter difficulty ------------------------------------------------------------------


@dataclass(frozen=True)
class Difficulty:
    """An Encounter's difficulty: "up to three values listed in the center of the card"."""

    heroism: int = 0
    skullduggery: int = 0
    #: Each Half-Heroism/Half-Skullduggery bubble, met by one of the two entirely.
    either: tuple[int, ...] = ()

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


@dataclass(frozen=True)
class Way:
    """One way to meet a difficulty: which pool meets each half bubble, and the totals needed."""

    pools: tuple[str, ...]
    heroism: int
    skullduggery: int

    @property
    def label(self) -> str:
        """The way in words, for the question: ``skullduggery`` or ``heroism+skullduggery``."""
        return "+".join(self.pools)


def ways_to_meet(difficulty: Difficulty, heroism: int, skullduggery: int) -> list[Way]:
    """Every way ``heroism`` and ``skullduggery`` meet ``difficulty``, none if it cannot be met.

    "You must raise enough Heroism ... to meet any Heroism difficulty listed and raise enough
    Skullduggery to meet any Skullduggery difficulty listed. Any difficulty listed on a
    Half-Heroism/Half-Skullduggery symbol must be met with EITHER Heroism OR Skullduggery
    ENTIRELY. You may not meet part of the cost with Heroism and the rest with Skullduggery."
    So each half bubble is added whole to one pool, and never split.
    """
    ways: list[Way] = []
    for pools in itertools.product(("heroism", "skullduggery"), repeat=len(difficulty.either)):
        need_heroism = difficulty.heroism + sum(
            amount
            for amount, pool in zip(difficulty.either, pools, strict=True)
            if pool == "heroism"
        )
        need_skullduggery = difficulty.skullduggery + sum(
            amount
            for amount, pool in zip(difficulty.either, pools, strict=True)
            if pool == "skullduggery"
        )
        if need_heroism <= heroism and need_skullduggery <= skullduggery:
            ways.append(Way(pools, need_heroism, need_skullduggery))
    return ways


# -- the game ------------------------------------------------------------------------------


@dataclass
class IncredibleExpeditions(Game):
    """Crew cabins, the Location track and Encounters of the competitive game."""

    #: The first player to defeat both Encounters at the Drowned City of Atlantis.
    winner: Player | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.board["locations"] = []
        self.board["discovered"] = set()
        self.board["encounter_deck"] = []
        self.board["encounter_discard"] = []
        deck = self.starting_deck()
        for player in self.players:
            player.flags["cabins"] = [None] * int(self.params["cabins"])
            player.flags["exhausted"] = set()
            # "Everyone ... puts their ship on Port City."
            player.flags["location"] = 0
            # "Hand one of the Starting Resource decks of 15 cards to each player and shuffle
            # them." ... "Each player draws a hand of 5 cards".
            player.zones["resource_deck"] = list(deck)
            self.shuffle(player.zones["resource_deck"])
            self.draw_resources(player, int(self.params["hand_size"]))

    # -- cards

    def starting_deck(self) -> list[str]:
        """One Starting Resource deck: every card with ``starting_copies``, that many times."""
        deck = [
            cid
            for cid, card in self.cards.items()
            for _ in range(int(card["properties"].get("starting_copies", 0)))
        ]
        if len(deck) != int(self.params["starting_deck_size"]):
            raise RuleError(
                f"a Starting Resource deck has {self.params['starting_deck_size']} "
                f"cards, but the card data gives {len(deck)}"
            )
        return deck

    def draw_resources(self, player: Player, amount: int) -> None:
        """Draw Resource cards from the player's Resource deck into their hand."""
        deck = player.zones["resource_deck"]
        for _ in range(amount):
            if not deck:
                break
            player.zones["hand"].append(deck.pop(0))
        self.log("draw", player.index, "hand", amount)

    def _kind(self, card: str, kind: str) -> dict[str, Any]:
        found = self.cards.get(card)
        if found is None or found["kind"] != kind:
            known = sorted(cid for cid, c in self.cards.items() if c["kind"] == kind)
            # In the kinds' own words: "'misty_strait' is a Location on the way ..., not an
            # Encounter card".
            kinds = self.ir["vocabulary"]["kinds"]
            what = kinds.get(found["kind"], {}).get("doc", found["kind"]) if found else "no card"
            wanted = kinds.get(kind, {}).get("doc", kind)
            raise RuleError(f"'{card}' is {what}, not {wanted}; {kind}s: {', '.join(known)}")
        return found

    def rule_cards(self) -> list[str]:
        """The ids of the rules written as data, in force for every player."""
        return [cid for cid, card in self.cards.items() if card["kind"] in self.always_in_force]

    def cards_in_force(self, player: Player) -> list[str]:
        """Rules, then the Crew in the player's cabins (Lost Crew and Resources do not answer)."""
        return self.rule_cards() + [crew for crew in player.flags["cabins"] if crew is not None]

    # -- crew cabins

    def sync_cabins(self, player: Player) -> None:
        """Keep the ``crew_cabins`` zone equal to the occupied cabins, in cabin order."""
        player.zones["crew_cabins"] = [crew for crew in player.flags["cabins"] if crew]

    def hire_crew(self, player: Player, crew: str) -> int:
        """Acquire a Crew: "new Crew cards go into the lowest-numbered available Crew Cabin"."""
        self._kind(crew, "crew")
        cabins = player.flags["cabins"]
        for index, occupant in enumerate(cabins):
            if occupant is None:
                cabins[index] = crew
                self.sync_cabins(player)
                self.log("hire", player.index, crew, index + 1)
                return index + 1
        raise RuleError(
            f"{player.name} has no available Crew Cabin for {crew}: new Crew cards go into the "
            f"lowest-numbered available Crew Cabin, and all {len(cabins)} are taken"
        )

    def crew_in(self, player: Player, cabin: int) -> str | None:
        """The Crew in cabin number ``cabin`` (1 first), or None when it is empty."""
        cabins = player.flags["cabins"]
        return cabins[cabin - 1] if 1 <= cabin <= len(cabins) else None

    def exhausted(self, player: Player, cabin: int) -> bool:
        """True when the Crew in ``cabin`` is on its Exhausted side."""
        return cabin in player.flags["exhausted"]

    def refreshed_cabin(self, player: Player, crew: str) -> int | None:
        """The first cabin holding ``crew`` on its Refreshed side, or None."""
        for index, occupant in enumerate(player.flags["cabins"], start=1):
            if occupant == crew and not self.exhausted(player, index):
                return index
        return None

    def exhaust_cabin(self, player: Player, cabin: int) -> None:
        """Flip the Crew in ``cabin`` to its Exhausted side; it must be there and Refreshed."""
        crew = self.crew_in(player, cabin)
        if crew is None:
            raise RuleError(f"{player.name}'s cabin {cabin} holds no Crew")
        if self.exhausted(player, cabin):
            raise RuleError(
                f"{crew} in cabin {cabin} is already Exhausted; a Rest Turn Refreshes it"
            )
        player.flags["exhausted"].add(cabin)
        self.log("exhaust", player.index, crew, cabin)

    def exhaust_for_totals(self, player: Player, cabin: int) -> None:
        """Exhaust a Crew for its values: "they will give you money, heroism, and skullduggery
        equal to their icons", added to this turn's Temporary totals."""
        self.exhaust_cabin(player, cabin)
        crew = self.cards[str(self.crew_in(player, cabin))]
        for kind, amount in crew["properties"].get("exhaust_for", []):
            counter = f"temporary_{kind}"
            if counter not in player.counters:
                raise RuleError(f"{crew['title']}: '{kind}' is not money, heroism or skullduggery")
            player.counters[counter] += int(amount)

    def refresh_crew(self, player: Player) -> None:
        """A Rest Turn's first step: "Refresh your Exhausted crew"."""
        player.flags["exhausted"].clear()
        self.log("refresh", player.index)

    def lose_crew(self, player: Player) -> str | None:
        """Step 5 of Facing an Encounter: the die picks the Crew that is Lost.

        "Roll a die. The Crew in the number cabin you rolled is Lost. If there is no Crew in
        that cabin, continue rolling until you get the number of an occupied cabin. Place that
        Crew under your Expedition Leader card." With no Crew aboard, nothing can be Lost and
        no die is rolled (the rulebook does not say; rolling forever cannot be meant).
        """
        cabins = player.flags["cabins"]
        if not any(cabins):
            self.log("no_crew_to_lose", player.index)
            return None
        sides = int(self.params["die_sides"])
        while True:
            cabin = self.die(sides)
            crew = self.crew_in(player, cabin)
            if crew is not None:
                break
        cabins[cabin - 1] = None
        player.flags["exhausted"].discard(cabin)
        player.zones["lost_crew"].append(crew)
        self.sync_cabins(player)
        self.log("lost", player.index, crew, cabin)
        return crew

    # -- the Location track

    def lay_out_locations(self, middle: Sequence[str] | None = None) -> list[str]:
        """Set up the world: Port City, the Locations between, the Drowned City of Atlantis.

        "Take the Port City and Drowned City of Atlantis cards out of the Location Deck and put
        them face up on the table. Shuffle the rest of the Locations and place 4 of them between
        Port City and the Drowned City of Atlantis." ``middle`` lays out chosen Locations
        instead ("You can, of course, lay down more Locations or change the arrangement").
        """
        locations = {cid: c for cid, c in self.cards.items() if c["kind"] == "location"}
        ends = {c["properties"].get("position"): cid for cid, c in locations.items()}
        if "start" not in ends or "last" not in ends:
            raise RuleError("the Location cards need one 'position start' and one 'position last'")
        if middle is None:
            pool = [cid for cid, c in locations.items() if "position" not in c["properties"]]
            wanted = int(self.params["locations_between"])
            if len(pool) < wanted:
                raise RuleError(
                    f"setup places {wanted} Locations between Port City and the "
                    f"Drowned City, but the card data holds {len(pool)}"
                )
            self.shuffle(pool)
            middle = pool[:wanted]
        for cid in middle:
            self._kind(cid, "location")
        track = [ends["start"], *middle, ends["last"]]
        self.board["locations"] = track
        # Port City and the Drowned City are "face up on the table"; the rest are discovered.
        self.board["discovered"] = {ends["start"], ends["last"]}
        return track

    def location_of(self, player: Player) -> str:
        """The Location the player's ship is at."""
        track = self.board["locations"]
        if not track:
            raise RuleError("lay out the Locations first (lay_out_locations)")
        return str(track[player.flags["location"]])

    def encounters_needed(self, location: str) -> int:
        """The Location's total: "the number of Encounters you will have to face to move past
        this Location"."""
        return int(self._kind(location, "location")["properties"]["encounters"])

    def can_venture_forth(self, player: Player) -> bool:
        """True when the player may Venture Forth to the Location closer to Atlantis.

        "If you have enough defeated Encounters to meet the total on your current Location card
        (which, for Port City is 0) you may Venture Forth and go to a new Location closer to
        Atlantis." Nothing lies beyond the last Location.
        """
        here = player.flags["location"]
        if here >= len(self.board["locations"]) - 1:
            return False
        defeated = len(player.zones["defeated_encounters"])
        return defeated >= self.encounters_needed(self.location_of(player))

    def venture_forth(self, player: Player, closer: bool = True) -> bool:
        """Venture Forth one Location (toward Atlantis, or back); True if its Encounter fell.

        Without enough defeated Encounters "you may only Venture Forth to an adjacent Location
        that is no closer to Atlantis": on this track, the one behind.
        """
        here = player.flags["location"]
        if closer and not self.can_venture_forth(player):
            where = self.location_of(player)
            raise RuleError(
                f"{player.name} has {len(player.zones['defeated_encounters'])} defeated "
                f"Encounters at {self.cards[where]['title']}, which needs "
                f"{self.encounters_needed(where)} to Venture Forth closer to Atlantis (without "
                "enough defeated Encounters you may only Venture Forth to an adjacent Location "
                "that is no closer to Atlantis)"
            )
        if not closer and here == 0:
            raise RuleError("no Location lies behind Port City")
        # 1. "Place all your defeated Encounters into the Encounter discard pile."
        self.board["encounter_discard"].extend(player.zones["defeated_encounters"])
        player.zones["defeated_encounters"] = []
        # 2. "Move your ship to an adjacent Location."
        player.flags["location"] = here + (1 if closer else -1)
        # 3. and 4.: discover the Location and perform its text.
        self.enter_location(player)
        # 5. "You must always Face the first Encounter at a Location after Venturing Forth."
        return self.face_encounter(player)

    def enter_location(self, player: Player) -> Context:
        """Steps 3 and 4 of Venturing Forth, at the Location the ship has moved to.

        "Flip over the Location if it hasn't been discovered yet. Perform any actions described
        by the text on the Location card." ``entering_location`` fires first: FAQ, "Exhaust the
        Pilot as the first thing you do when entering a new Location to ignore the text there".
        """
        location = self.location_of(player)
        if location not in self.board["discovered"]:
            self.board["discovered"].add(location)
            self.log("discover", player.index, location)
        self.log("enter", player.index, location)
        c = self.fire("entering_location", player, event={"location": location})
        if "location_text" in c.flags.get("ignored", set()):
            self.log("ignored", player.index, location, "location_text")
        else:
            self.run(location, "when_entering", player, event={"location": location})
        return c

    # -- Encounters

    def face_encounter(self, player: Player, encounter: str | None = None) -> bool:
        """Face an Encounter (the top of the Encounter deck unless named); True if defeated.

        Heroism and Skullduggery are raised from this turn's Temporary totals and then from
        tokens ("raise enough Heroism (temporary or tokens)"); only the tokens the Temporary
        totals could not cover are removed. Afterwards "Return all Temporary Totals back to
        zero".
        """
        if encounter is None:
            deck = self.board["encounter_deck"]
            if not deck:
                raise RuleError("the Encounter deck is empty")
            encounter = str(deck.pop(0))
        card = self._kind(encounter, "encounter")
        self.log("face", player.index, encounter)
        in_force = [*self.cards_in_force(player), encounter]
        # 2. "follow any instructions which start with 'Upon Facing...'"
        self.fire("facing", player, cards=in_force, event={"encounter": encounter})
        counters = player.counters
        ways = ways_to_meet(
            Difficulty.from_card(card),
            counters["temporary_heroism"] + counters["heroism"],
            counters["temporary_skullduggery"] + counters["skullduggery"],
        )
        defeated = bool(ways)
        if defeated:
            way = ways[0]
            if len({w.label for w in ways}) > 1:
                question = Question(
                    HALF_BUBBLE_QUESTION,
                    player.index,
                    f"{card['title']}: meet the Half-Heroism/Half-Skullduggery difficulty with",
                    tuple(w.label for w in ways),
                )
                answer = self.ask(player, question)
                way = next(w for w in ways if w.label == answer)
            for pool, needed in (("heroism", way.heroism), ("skullduggery", way.skullduggery)):
                from_tokens = max(needed - counters[f"temporary_{pool}"], 0)
                counters[pool] -= from_tokens
            player.zones["defeated_encounters"].append(encounter)
            self.log("defeated", player.index, encounter, way.label)
            self.fire("defeated", player, cards=in_force, event={"encounter": encounter})
            self.check_winner(player)
        else:
            self.log("undefeated", player.index, encounter)
            # 5. the rule "Undefeated Encounters" loses a Crew; 6. then the card's own text,
            # for the Crew still aboard.
            self.fire("undefeated", player, cards=self.rule_cards(), event={"encounter": encounter})
            aboard = [crew for crew in player.flags["cabins"] if crew is not None]
            self.fire(
                "undefeated", player, cards=[*aboard, encounter], event={"encounter": encounter}
            )
            self.board["encounter_discard"].append(encounter)
        # 7. "Return all Temporary Totals back to zero after facing an Encounter."
        for pool in ("money", "heroism", "skullduggery"):
            counters[f"temporary_{pool}"] = 0
        return defeated

    def check_winner(self, player: Player) -> None:
        """Record the winner: "the first player to defeat both Encounters at the last Location,
        the Drowned City of Atlantis" (the last Location's total of Encounters)."""
        if self.winner is not None:
            return
        track = self.board["locations"]
        if player.flags["location"] != len(track) - 1:
            return
        if len(player.zones["defeated_encounters"]) >= self.encounters_needed(track[-1]):
            self.winner = player
            self.log("winner", player.index)


def _game(g: Game) -> IncredibleExpeditions:
    if not isinstance(g, IncredibleExpeditions):
        raise RuleError(
            "Incredible Expeditions verbs need the game built by engine.loader.new_game"
        )
    return g


# -- natives and verbs ---------------------------------------------------------------------


def refreshed(g: Game, c: Context, crew: str) -> bool:
    """True when the player has ``crew`` in a cabin on its Refreshed side."""
    return _game(g).refreshed_cabin(c.player, crew) is not None


NATIVES = {"refreshed": refreshed}


def exhaust(g: Game, c: Context, crew: str) -> None:
    """Flip the player's Refreshed ``crew`` to its Exhausted side."""
    game = _game(g)
    cabin = game.refreshed_cabin(c.player, crew)
    if cabin is None:
        raise RuleError(f"{c.player.name} has no Refreshed {crew} to Exhaust")
    game.exhaust_cabin(c.player, cabin)


def ignore(g: Game, c: Context, what: str) -> None:
    """Mark ``what`` (``location_text``) as skipped for the step that fired this trigger."""
    c.flags.setdefault("ignored", set()).add(what)
    g.log("ignore", c.player.index, what)


def lose_crew(g: Game, c: Context, amount: int = 1) -> None:
    """Lose ``amount`` Crew, each picked by the die (an empty cabin is rolled again)."""
    game = _game(g)
    for _ in range(int(amount)):
        game.lose_crew(c.player)


VERBS = {"exhaust": exhaust, "ignore": ignore, "lose_crew": lose_crew}

GAME_CLASS = IncredibleExpeditions


# -- scenarios -----------------------------------------------------------------------------


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


def _given_exhausted(g: Game, player: Player | None, value: Any) -> None:
    _need_player(player, "exhausted").flags["exhausted"] = {int(v) for v in value}


def _given_location(g: Game, player: Player | None, value: Any) -> None:
    who = _need_player(player, "location")
    track = g.board["locations"]
    if str(value) not in track:
        raise RuleError(f"'{value}' is not on the Location track: {', '.join(track)}")
    who.flags["location"] = track.index(str(value))


GIVEN = {
    "locations": lambda g, player, value: _game(g).lay_out_locations(
        None if value is None else [str(v) for v in value]
    ),
    "encounter_deck": lambda g, player, value: g.board.__setitem__(
        "encounter_deck", [str(v) for v in value]
    ),
    "cabins": _given_cabins,
    "exhausted": _given_exhausted,
    "location": _given_location,
}


def _winner_number(g: Game) -> int | None:
    winner = _game(g).winner
    return None if winner is None else winner.index + 1


EXPECT = {
    "cabins": lambda g, player: list(_need_player(player, "cabins").flags["cabins"]),
    "exhausted": lambda g, player: sorted(_need_player(player, "exhausted").flags["exhausted"]),
    "location": lambda g, player: _game(g).location_of(_need_player(player, "location")),
    "winner": lambda g, player: _winner_number(g),
    "encounter_discard": lambda g, player: list(g.board["encounter_discard"]),
}

#: Steps a scenario may name (``action: venture_forth``, ``args: {closer: false}``).
ACTIONS = {
    "venture_forth": lambda g, player, closer=True: _game(g).venture_forth(player, closer),
    "face_encounter": lambda g, player, encounter=None: _game(g).face_encounter(player, encounter),
    "hire_crew": lambda g, player, crew: _game(g).hire_crew(player, crew),
    "refresh_crew": lambda g, player: _game(g).refresh_crew(player),
    "exhaust_for_totals": lambda g, player, cabin: _game(g).exhaust_for_totals(player, cabin),
}


# -- what a scenario may name, checked at its line (engine.scenario_check) ------------------


def _cabins(ir: dict[str, Any]) -> int:
    return int(ir["vocabulary"]["params"].get("cabins", 6))


_CARD = Id("card", "a card")
_CABIN = Number(1, lambda vocab: _cabins(vocab.ir), "a Crew Cabin")
GIVEN_KINDS = {
    "locations": Maybe(Many(Id("card:location", "a Location"))),
    "encounter_deck": Many(Id("card:encounter", "an Encounter")),
    # Any card: a Crew Cabin holding a card that is no Crew is a given the rules refuse.
    "cabins": Many(Maybe(_CARD)),
    "exhausted": Many(_CABIN),
    "location": Id("card:location", "a Location"),
}
EXPECT_KINDS = {
    "cabins": Many(Maybe(_CARD)),
    "exhausted": Many(_CABIN),
    "location": Id("card:location", "a Location"),
    "winner": Maybe(Number(1, None, "a player number")),
    "encounter_discard": Many(Id("card:encounter", "an Encounter")),
}
# Card arguments name any card: the flow refuses one of the wrong kind (expectable), while a
# name that is no card at all is the scenario's own mistake.
ACTION_ARGS = {
    "venture_forth": Fields({"closer": Flag()}),
    "face_encounter": Fields({"encounter": Maybe(_CARD)}),
    "hire_crew": Fields({"crew": _CARD}, ("crew",)),
    "refresh_crew": Fields({}),
    "exhaust_for_totals": Fields({"cabin": _CABIN}, ("cabin",)),
}
QUESTIONS: dict[str, tuple[str, tuple[str, ...] | str | None]] = {
    HALF_BUBBLE_QUESTION: (
        "meet the Half-Heroism/Half-Skullduggery difficulty with (heroism or skullduggery "
        "for each bubble, as the engine lists them)",
        None,
    ),
}
