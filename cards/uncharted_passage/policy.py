"""Uncharted Passage's captains: the greedy planner and a random one, as ``cardc sim`` plays them.

A policy only answers questions (``decide``); it never changes the game. The greedy captain
reads the month's voyage card, the missions in hand and the map, and writes the numbers that get
its ship to the best port or Discovery Spot in reach without Scurvy, the rest on Armament.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

from engine.runtime import Game, ObjectCache, Player, Policy, Question, RandomLegal, legal_answers

from .game import (
    COOP_MISSIONS_EACH,
    EAST_ASIA_PRESTIGE,
    SOLO_MISSIONS,
    MissionInfo,
    UnchartedPassage,
    parse_allocation,
    route_progress,
)
from .map import MUST_BUY, Chart, Leg, Space, chart_for

#: The greedy planner's reading of each options tuple (lines, their top sum, lookups).
_PARSED = ObjectCache(4096)

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
            # A card of more than one condition (regions and spots) wants each of them.
            if info.regions:
                _share_out(bonus, info.regions, flags["regions"], stars)
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
        pos = player.flags.get("position")
        if pos not in chart.spaces:
            pos = g.ship_position(player, chart)  # the rule error: a flow without the map
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
        if ident in ("east_asia.goods", "critical_damage.abandon", "specialties.lose"):
            keep = self._needed_goods(g, player)
            goods = [o for o in options if o.startswith("specialty") and o[10:] not in keep]
            if goods:
                return goods[0]
            goods = [o for o in options if o.startswith("specialty")]
            if goods:
                return goods[0]
            cards = [o for o in options if o != "adventures_of_a_sailor"]
            return cards[0] if cards else options[0]
        if ident == "specialties.gain":
            # A specialty a card gives: one a trade mission wants, else the best priced.
            keep = self._needed_goods(g, player)
            wanted = [o for o in options if o[10:] in keep]
            return wanted[0] if wanted else max(options, key=lambda o: g.price(player, o[10:]))
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
        origin = player.flags.get("position")
        if origin not in chart.spaces:
            origin = g.ship_position(player, chart)  # the rule error: a flow without the map
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
        if purpose == "roll":
            # A die a card or a house rule's phase rolls (Storm Season's): whether high or low
            # is better is the designer's, unknown here; the card is kept for the known dice.
            return "keep"
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
