"""Uncharted Passage: Remastered: the board state, natives, verbs and phases its cards need.

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

from collections.abc import Callable
from typing import Any

from engine.runtime import Context, Game, Player, Question, RuleError

#: "East Asia (Hanyang, Sakai, or Hangzhou)": the only region whose ports the rulebook names.
EAST_ASIA_PORTS = ("hanyang", "sakai", "hangzhou")

#: The Crew Action reference table has the numbered spaces 1 to 6.
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


def difference(g: Game, c: Context, dice: tuple[int, int]) -> int:
    """Roll two dice and return the difference between them (the Pirate's Raid damage)."""
    count, sides = dice
    if count != 2:
        raise RuleError(f"difference() takes two dice, not {count}d{sides}")
    first, second = g.dice(count, sides)
    return abs(first - second)


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


def crew_stamina_for_scurvy(player: Player) -> int:
    """The Crew Stamina a Scurvy Check may use.

    "Whenever you mark an X in the declining-health space, you must also mark an X in the
    topmost unchecked numbered space of the Crew Action reference table. From now on, you can't
    perform actions on that space, nor can you apply the value to Scurvy Check." The table lists
    6 at the top, so each declining-health box checked takes the highest space left away.
    """
    crossed = player.tracks["health"].checked("declining_health")
    return max(min(player.counters["crew_stamina"], CREW_ACTION_SPACES - crossed), 0)


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
    stamina = crew_stamina_for_scurvy(c.player)
    shortfall = max(distance - stamina, 0)
    g.log("scurvy_check", c.player.index, distance, stamina, shortfall)
    suffer_scurvy(g, c, shortfall)


def is_accomplished(g: Game, mission: str) -> bool:
    """True once any player has accomplished ``mission`` ("Once accomplished, a mission cannot be
    accomplished again"; in 2-player, a claimed public mission "is no longer available")."""
    return any(mission in p.zones["accomplished"] for p in g.players)


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
    rewarded = c.for_card(mission)
    for clause in g.cards[mission]["properties"].get("reward", []):
        name, amount = _reward_parts(mission, clause)
        if name == "stars":
            g.gain(rewarded, "prestige", amount)
        elif name == "die":
            for _ in range(amount):
                g.gain(rewarded, "prestige", g.die(6))
        elif name == "port_cards":
            g.draw(rewarded, "port_cards", amount)
        else:
            raise RuleError(f"{mission}: '{name}' is not a reward (stars, die, port_cards)")
    g.run(mission, "accomplish", player)


# -- the game's flow


class UnchartedPassage(Game):
    """Uncharted Passage's rules around the cards: which cards are in force, the Pirate phase,
    sailing and anchoring without the map, critical damage and sinking."""

    def cards_in_force(self, player: Player) -> list[str]:
        """Rules, this month's voyage card, the mid-event once revealed, and what the player holds
        except accomplished missions (they are "face down")."""
        rules = [cid for cid, card in self.cards.items() if card["kind"] in self.always_in_force]
        month = [self.board[key] for key in ("voyage", "mid_event") if self.board.get(key)]
        held = [
            cid for zone, cards in player.zones.items() if zone != "accomplished" for cid in cards
        ]
        return rules + month + held

    # -- phases (the round loop that calls them in order is a later issue)

    def reveal(self, card: str) -> None:
        """Planning phase: reveal a voyage or mid-event card; its events apply to every player.

        "Most effects are applied immediately when revealed"; the card then stays in force for
        the month (a voyage card) or "for the rest of the game" (the mid-event card).
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
            self.fire("reveal", player, cards=[card])

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
            raise RuleError(f"cannot sail {distance} spaces with a reach of {reach}")
        player.flags["distance_sailed"] = distance
        player.flags["excluded_distance"] = min(unscurvied, max(distance - speed, 0))
        self.log("sail", player.index, distance)

    def dock(self, player: Player, port: str) -> Context:
        """Anchoring phase A, without the map: the ship docks at ``port``; cards in force answer
        ``dock`` (missions accomplished there, Famine's Scurvy Check)."""
        player.flags["position"] = port
        self.log("dock", player.index, port)
        return self.fire("dock", player, event={"port": port})

    def anchor_at_sea(self, player: Player, place: str) -> Context:
        """Anchoring phase B: "the first thing you do is make a Scurvy Check", then cards in force
        answer ``anchor_at_sea`` (a Discovery mission "accomplished as soon as you anchor")."""
        player.flags["position"] = place
        self.log("anchor_at_sea", player.index, place)
        scurvy_check(self, Context(player, "", "anchor_at_sea"))
        return self.fire("anchor_at_sea", player, event={"place": place})

    # -- the logbook's special boxes

    def fire(
        self,
        trigger: str,
        player: Player,
        cards: Any = None,
        event: dict[str, Any] | None = None,
        quantities: dict[str, int] | None = None,
    ) -> Context:
        """Every window, plus the rule a marked critical-damage box sets off."""
        window = super().fire(trigger, player, cards, event, quantities)
        if trigger == "critical_damage":
            self.critical_damage(player)
        return window

    def critical_damage(self, player: Player) -> None:
        """Critical damage: "Whenever you mark an X in the critical-damage space, you must abandon
        one of your specialties or Port Cards. If you are unable to do so, your ship takes one
        additional damage." The player chooses which; abandoning is not optional."""
        if player.flags.get("sunk"):
            return
        c = Context(player, "", "critical_damage")
        options = list(dict.fromkeys(player.zones["port_cards"]))
        if player.counters["specialties"] > 0:
            options.append(ABANDON_SPECIALTY)
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
        if answer == ABANDON_SPECIALTY:
            self.lose(c, "specialties", 1)
        else:
            player.zones["port_cards"].remove(answer)
        self.log("abandon", player.index, answer)

    def on_track_full(self, player: Player, track: str) -> None:
        """Sinking: "if you check the last space on your Ship Durability Track or Health Track,
        your ship sinks and the game ends immediately." The flow reads ``sunk`` to stop, and
        final scoring to nullify the prestige."""
        if player.flags.get("sunk"):
            return
        player.flags["sunk"] = track
        self.board["over"] = True
        self.log("sunk", player.index, track)


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


ACTIONS: dict[str, Callable[..., Context | None]] = {
    "reveal": _action_reveal,
    "pirate_phase": _action_pirate_phase,
    "sail": _action_sail,
    "dock": _action_dock,
    "anchor_at_sea": _action_anchor_at_sea,
}

NATIVES: dict[str, Callable[..., Any]] = {
    "in_pirate_infested_area": in_pirate_infested_area,
    "region_of": region_of,
    "difference": difference,
}

VERBS: dict[str, Callable[..., Any]] = {
    "raid": raid,
    "scurvy_check": scurvy_check,
    "accomplish": accomplish,
}

GAME_CLASS = UnchartedPassage
