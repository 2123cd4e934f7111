"""Policies for ``cardc sim darwins_journey``: ``random`` and ``greedy`` (rules of thumb)."""

from __future__ import annotations

from engine.runtime import Context, Game, Player, Policy, Question, RandomLegal

from .board import (
    CAMPSITE_REWARDS,
    EXPLORE_SPACES,
    HIRE_CREW,
    KEEP_OBJECTIVE,
    LANE,
    MOVE_PIRATE_SHIP,
    NAVIGATE_SPACES,
    PLACE_WORKER,
    SPECIAL_ACTION,
    TAKE_OBJECTIVE,
    ocean_regions,
    param,
    pirate_region,
    prop,
    ship_region,
)

# -- policies -------------------------------------------------------------------------------


def _raid_cost(player: Player) -> int:
    """What a raid would take from the player now: 2 Coins plus 2 for each Treasure token."""
    return 2 + 2 * player.counters["treasure"]


def _raid_worth(g: Game, me: Player, region: str) -> int:
    """How good the Pirate Ship in ``region`` is for ``me``: the rivals' raid costs there,
    less twice my own (a raid of mine costs me; a rival's costs them)."""
    worth = 0
    for other in g.players:
        if ship_region(g, Context(other, "", ""), other) != region:
            continue
        worth += -2 * _raid_cost(other) if other is me else _raid_cost(other)
    return worth


#: The greedy order of action locations, before the state is looked at (a higher number first).
_LOCATION_VALUE = {
    "navigation": 6,
    "exploration": 6,
    "special_actions": 5,
    "crew_quarters": 4,
    "research_museum": 4,
    "objectives": 3,
    "trading_post": 2,
}

#: The greedy order of Crew cards to hire.
_CREW_VALUE = {"p4": 6, "p1": 5, "purser": 4, "p2": 4, "artist": 4, "sailor": 3, "scout": 3}


class Greedy(Policy):
    """A rule of thumb for each question of the game, looking only at the state now.

    Treasure is taken unless the player's own Ship shares the Pirate Ship's region (then the
    token is left and the Pirate Ship sent to the region where rivals lose most); the Pirate
    Ship goes where it costs rivals most and the player least; workers go to the locations
    worth most now (moving while Campsites are ahead, the Museum while a Coin pays its
    penalty, Coins when short); a Tent is always placed when it can be paid; the Crew card,
    Objective and Campsite of most worth are chosen.
    """

    def decide(self, game: Game, question: Question) -> str:
        """The answer the rule of thumb for ``question.id`` picks (the first legal one else)."""
        g = game
        me = g.players[question.player]
        options = question.options
        ident = question.id
        if ident == MOVE_PIRATE_SHIP:
            return max(options, key=lambda r: _raid_worth(g, me, r))
        if ident.endswith("take_treasure_or_move_pirate_ship"):
            mine = ship_region(g, Context(me, "", ""), me)
            if mine == pirate_region(g, Context(me, "", "")) and "move_pirate_ship" in options:
                return "move_pirate_ship"
            return "take_treasure"
        if ident.endswith(".move_pirate_ship"):
            here = pirate_region(g, Context(me, "", ""))
            now = _raid_worth(g, me, here) if here else 0
            best = max(_raid_worth(g, me, r) for r in ocean_regions(g))
            return "yes" if best > now else "no"
        if ident == PLACE_WORKER:
            return max(options, key=lambda loc: self._location(g, me, loc))
        if ident in (NAVIGATE_SPACES, EXPLORE_SPACES):
            return options[0]
        if ident == LANE:
            return "upper"
        if ident == HIRE_CREW:
            return max(options, key=lambda card: _CREW_VALUE.get(card, 2))
        if ident == KEEP_OBJECTIVE:
            return options[0]
        if ident == TAKE_OBJECTIVE:
            return options[1] if len(options) > 1 else options[0]
        if ident == SPECIAL_ACTION:
            return max(options, key=lambda t: 3 if t == "pirate" else 2 if t == "provisions" else 1)
        if ident == CAMPSITE_REWARDS:
            return max(options, key=lambda s: int(prop(g, s, "cost")))
        if "yes" in options:
            return "yes"
        return options[0]

    @staticmethod
    def _location(g: Game, me: Player, loc: str) -> int:
        value = _LOCATION_VALUE.get(loc, 1)
        coins = me.counters["coins"]
        if loc == "navigation" and me.counters["ship_space"] >= 17:
            value = 0
        if loc == "exploration" and me.counters["explorer_space"] >= 11:
            value = 0
        if loc == "research_museum" and coins < param(g, "specimen_coin_penalty"):
            value = 0
        if loc == "trading_post" and coins <= 1:
            value = 7
        if loc == "special_actions" and not g.board["diary"][: g.board["unlocked"]]:
            value = 0
        if loc == "crew_quarters":
            # A Crew card is worth its place when the display holds a good one (the Pirate
            # Crew cards among them): valued at 4 whatever the display, it was never hired.
            best = max((_CREW_VALUE.get(card, 2) for card in g.board["crew_display"]), default=0)
            value = best + 1 if best >= 5 and coins >= 1 else value
        return value


def _random(game: Game, index: int) -> Policy:
    return RandomLegal()


def _greedy(game: Game, index: int) -> Policy:
    return Greedy()


#: ``cardc sim darwins_journey --policy random|greedy``.
POLICIES = {"random": _random, "greedy": _greedy}
