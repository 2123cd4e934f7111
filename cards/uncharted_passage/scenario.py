"""What Uncharted Passage's scenarios may set (``given:``), check (``expect:``) and run
(``do: - action:``), by the names a designer knows, and the kinds of value each one takes
(checked at the scenario's line by engine.scenario_check)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.runtime import Context, Game, ObjectCache, Player, RuleError
from engine.scenario_types import (
    Choice,
    Fields,
    Flag,
    Id,
    Many,
    Maybe,
    Number,
    OneOf,
    Problem,
    Table,
    Text,
    Unordered,
)

from .game import GameResult, UnchartedPassage, _player
from .map import Chart, chart_from_ir, stand_in_chart
from .map import place_id as _place_id

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
    # "The game is played over a total of 12 rounds, with each round representing a month."
    "month": _set_round,
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
    # "each round representing a month": the round, by the rulebook's other name for it.
    "month": lambda g, who: g.round,
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
    """Sail a distance without the map: the spaces sailed this month, for the Scurvy Check
    (the ship does not move; ``sail_to`` sails to a space)."""
    _flow(g).sail(player, int(distance))


def _action_dock(g: Game, player: Player, port: str) -> Context:
    """Dock at ``port``: the cards in force answer ``dock`` (not the port's stars, trade or
    route missions, nor Crew Actions: ``sail_to`` then ``anchor`` plays the whole phase)."""
    return _flow(g).dock(player, port)


def _action_anchor_at_sea(g: Game, player: Player, place: str) -> Context:
    """Anchor at ``place`` (not a port)."""
    return _flow(g).anchor_at_sea(player, place)


def _set_chart(g: Game, who: Any, value: Any) -> None:
    """Set the world map: ``stand_in`` (the flow's own small chart) or ``map`` (the data's)."""
    flow = _flow(g)
    if value == "stand_in":
        chart = stand_in_chart(g.ir)
    elif value == "map":
        chart = chart_from_ir(g.ir) or stand_in_chart(g.ir)
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
    """Ship markers already on spaces: ``{space: count}``. Without it, each ship stands on its
    own marker where it is given (but a ship in Lisbon in the first month, not sailed yet)."""
    g.board["markers"] = {_place_id(k): int(v) for k, v in value.items()}


def _set_anchored(g: Game, who: Any, value: Any) -> None:
    """Ports players already anchored at: ``{port: [player numbers]}``."""
    g.board["anchored"] = {_place_id(k): {int(n) - 1 for n in v} for k, v in value.items()}


def _set_pile(g: Game, who: Any, value: Any) -> None:
    """The voyage pile, top first (the mid-event card apart: ``mid_event_card``)."""
    g.board["pile"] = [str(v) for v in value]


def _given_arrival(g: Any, who: Any, value: Any) -> None:
    """A scenario's ``prestige_arrival``: when the player's marker arrived on its space. The
    game's count of arrivals is raised past it, so a marker that moves later is stacked on
    top of it ("if it stops on a space already occupied by another player, stack it on
    top")."""
    arrived = int(value)
    _player(g, who).flags["arrived"] = arrived
    g._tick = max(g._tick, arrived)


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
        "prestige_arrival": _given_arrival,
    }
)


def _final(g: Game, who: Any) -> int:
    """The final score: the one the End of the Game recorded in the logbook (a house rule's
    final scoring may score a sunk ship; a phase after it may move it), else the one it would
    record now."""
    return _flow(g).recorded_score(_player(g, who))


def _result(g: Game) -> GameResult:
    result = g.board.get("result")
    if not isinstance(result, GameResult):
        result = _flow(g).finish()
    return result


EXPECT.update(
    {
        # The Specialties Book and the places visited are in no order: a scenario lists
        # them in any (each specialty as many times as it is written).
        "goods": lambda g, who: Unordered(sorted(_player(g, who).flags.get("goods", []))),
        "ports_visited": lambda g, who: Unordered(sorted(_player(g, who).flags.get("ports", ()))),
        "spots_visited": lambda g, who: Unordered(sorted(_player(g, who).flags.get("spots", ()))),
        "anchored_at": lambda g, who: list(_player(g, who).flags.get("anchorages", ())),
        "areas_visited": lambda g, who: Unordered(sorted(_player(g, who).flags.get("areas", ()))),
        "final_score": lambda g, who: _final(g, who),
        # "Record your final prestige points in the logbook": the final score, by those words.
        "final_prestige": lambda g, who: _final(g, who),
        "scores": lambda g, who: _result(g).scores,
        "titles": lambda g, who: _result(g).titles,
        "winner": lambda g, who: (
            None if _result(g).winner is None else int(_result(g).winner or 0) + 1
        ),
        "team_score": lambda g, who: _result(g).team_score,
        "months_logged": lambda g, who: len(_flow(g).logbook[_player(g, who).index]),
        "east_asia_entries": lambda g, who: g.board.get("east_asia_entries", 0),
        "mid_event": lambda g, who: g.board.get("mid_event"),
        "voyage": lambda g, who: g.board.get("voyage"),
        "over": lambda g, who: bool(g.board.get("over")),
        # What the setup lays out, as a scenario gives it (a list, or a count of cards): "Make
        # a pile of 13 Voyage Cards ..." (the Mid-event Card apart), the Public Mission Cards
        # (in any order), the Port Card pile, the Ship Markers on the map.
        "pile": lambda g, who: list(g.board.get("pile") or []),
        "mid_event_card": lambda g, who: g.board.get("mid_event_card"),
        "public_missions": lambda g, who: frozenset(g.board.get("public_missions") or ()),
        "port_card_pile": lambda g, who: list(g.board.get("deck:port_cards") or []),
        "markers": lambda g, who: {k: v for k, v in (g.board.get("markers") or {}).items() if v},
    }
)


def _action_setup(g: Game, player: Player) -> None:
    """Set the game up: the flow's setup section (map, voyage pile, port cards, missions)."""
    _flow(g).run_section("setup")


def _action_play_round(g: Game, player: Player) -> None:
    """Play one month (the flow's round section; set up first if not yet), then move to the
    next. The flow's end condition is checked after each phase, as in a whole game: when it
    holds (a sinking, a house rule's ``end_when``), the rest of the month is skipped and the
    game has ended (``- action: finish`` scores it)."""
    flow = _flow(g)
    if not flow.set_up:
        flow.run_section("setup")
    flow.run_section("round", ends=True)
    if not flow.board.get("over"):
        flow.round += 1


def _action_play_game(g: Game, player: Player) -> None:
    """Play the game to its end."""
    g.board["result"] = _flow(g).play()


def _action_allocate(g: Game, player: Player) -> None:
    """Write this month's three numbers (the policy chooses)."""
    _flow(g).allocate(player)


def _unfolded(g: Game) -> UnchartedPassage:
    """The game, its World Map unfolded: sailing and docking read what the setup's World Map
    lays out (the Ship Markers on each space, the ships anchored at each port, East Asia's
    entries), so a scenario that sails, anchors or plays a phase without '- action: setup'
    gets that part of it, as a game does, not a missing key."""
    flow = _flow(g)
    # Not "anchored": a scenario may give that (and the markers, East Asia's entries), and the
    # rest of the World Map was then never laid out. The unfolding keeps what is given.
    if "east_asia_ships" not in flow.board:
        flow.set_up_world_map()
    return flow


def _action_sail_to(g: Game, player: Player, to: str | None = None) -> None:
    """Sail to a space (asked of the policy when ``to`` is not given)."""
    _unfolded(g).sail_to(player, to)


def _action_anchor(g: Game, player: Player) -> None:
    """Anchor where the ship is (Anchoring phase)."""
    _unfolded(g).anchor(player)


def _action_pirate_round(g: Game, player: Player, voyage: str) -> None:
    """The Pirate phase for every player."""
    _flow(g).pirate_round(voyage)


def _action_phase(g: Game, player: Player, name: str) -> None:
    """Run one phase of the flow (flow.cards), by its name (the World Map unfolded)."""
    _unfolded(g).run_phase(name)


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
    "phase": _action_phase,
    "finish": _action_finish,
    "share": _action_share,
}


# -- what a scenario may name, checked at its line (engine.scenario_check) ------------------


#: Each IR's charts: the scenario schema asks for them once per space or place field (42 times
#: a build of Uncharted Passage), and reading the map from the cards is the costly part.
_CHARTS_OF = ObjectCache(16)


def _charts(ir: dict[str, Any]) -> list[Chart]:
    """Both charts a scenario may play on (``chart: stand_in`` or ``map``)."""
    kept: list[Chart] | None = _CHARTS_OF.get(ir)
    if kept is not None:
        return kept
    charts = [stand_in_chart(ir)]
    try:
        printed = chart_from_ir(ir)
    except RuleError:
        printed = None
    return _CHARTS_OF.put(ir, charts + ([printed] if printed is not None else []))


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


def _pirate_pool(ir: dict[str, Any]) -> list[str]:
    """The pirate spaces: "You cannot pass or land on a pirate space"."""
    return [s.id for chart in _charts(ir) for s in chart.spaces.values() if s.pirate]


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
    "pirate_space": _pirate_pool,
}

_SPACE = Id("space", "a space of the map", _place_id)
_PORT = Id("port", "a port", _place_id)
_VOYAGE = Id("card:voyage", "a voyage card")
_MID = Id("card:mid_event", "a mid-event card")
_PORT_CARD = Id("card:port_card", "a Port Card")
_MISSION = Id("card:mission", "a mission")
_PLAYER_NO = Number(1, lambda vocab: vocab.players, "a player number")


def _cards_or_count(card: Id) -> OneOf:
    """Cards of a pile or a zone, or how many there are (as a player's zones take them)."""
    return OneOf((Many(card), Number(0, None, "a count of cards")))


def _boxes(track: str) -> Number:
    return Number(
        0, lambda vocab: int(vocab.ir["vocabulary"]["tracks"][track]["length"]), f"{track} boxes"
    )


def _rounds(vocab: Any) -> int | None:
    """The months the game (or variant) plays: a given month past them is refused, as a given
    'round' is."""
    rounds = vocab.ir["vocabulary"]["params"].get("rounds")
    return rounds if isinstance(rounds, int) else None


@dataclass
class ShipSpace(Id):
    """Where a scenario gives a ship: a place of the map, never a pirate space ("You cannot
    pass or land on a pirate space"): a ship given there anchored where no ship can."""

    def check(self, value: Any, vocab: Any, at: Any) -> Iterator[Problem]:
        """A place, refused with the rule when it is a pirate space."""
        if isinstance(value, str) and _place_id(value) in vocab.pool("pirate_space"):
            yield Problem(
                *at,
                f"'{value}' is a pirate space, where no ship can be: \"You cannot pass or land "
                'on a pirate space"; give the ship a space beside it',
            )
            return
        yield from super().check(value, vocab, at)


GIVEN_KINDS = {
    "position": ShipSpace("place", "a place", _place_id),
    "region": Id("region", "a region"),
    "in_pirate_infested_area": Flag(),
    "distance_sailed": Number(0),
    "excluded_distance": Number(0),
    "round": Number(1, _rounds, "a round"),
    "month": Number(1, _rounds, "a month"),
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
    "month": Number(1),
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
    # "Subtract 1 prestige point for the number of times you checked ...": the end of the
    # game's penalties may take a final score below 0, and a scenario may expect it.
    "final_score": Number(None, what="a final score"),
    "final_prestige": Number(None, what="a final score"),
    "scores": Many(Number(None, what="a final score")),
    "titles": Many(Text()),
    "winner": Maybe(_PLAYER_NO),
    "team_score": Maybe(Number(None, what="a team score")),
    "months_logged": Number(0),
    "east_asia_entries": Number(0),
    "mid_event": Maybe(_MID),
    "voyage": Maybe(_VOYAGE),
    "over": Flag(),
    "pile": _cards_or_count(Id("card:voyage|mid_event", "a voyage or mid-event card")),
    "mid_event_card": Maybe(_MID),
    "public_missions": _cards_or_count(_MISSION),
    "port_card_pile": _cards_or_count(_PORT_CARD),
    "markers": Table(_SPACE, Number(0)),
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
    # A port of either chart: docking at a sea space is checked before anything runs.
    "dock": Fields({"port": _PORT}, ("port",), "the arguments"),
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
    # A phase of the flow by its name (an unknown one is refused with a "did you mean").
    "phase": Fields({"name": Text()}, ("name",), "the arguments"),
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
    "specialties.lose": ("Mark an X over a specialty you lose: specialty:NAME", "offered_goods"),
    "specialties.gain": (
        "Write a specialty you gain in the Specialties Book: specialty:NAME",
        "offered_goods",
    ),
}
