"""Land vs Sea's scenario vocabulary: given state, expected state and steps by the names a
designer knows, each checked at its YAML line (engine.scenario_check), so a misspelt key
(``bonuss: 5``) is an error at its line, never a key silently ignored."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.hexgrid import as_hex
from engine.runtime import Context, Game, Player, RuleError
from engine.scenario_types import (
    Anything,
    Choice,
    Fields,
    Flag,
    Id,
    Many,
    Maybe,
    Number,
    OneOf,
    Text,
)

from .board import LAND, SEA, SIDES, Section, Tile, area_at
from .game import Held, _game

_FEATURES = ("menhir", "caravans", "ships", "bandit", "pirate", "steal", "name")


def tile_from_spec(g: Game, spec: Mapping[str, Any]) -> Tile:
    """A tile from scenario data.

    ``card: <hex_tile id>`` with ``face: a|b`` (and ``turn: 0..5``); ``special: lost_city``
    (or another special tile) with ``face: land|sea``; or ``sections: [{side, edges, bonus,
    city}]``; or ``side: land|sea`` (one section, ``bonus``, ``city``); or ``land: [edges]``
    (the rest sea; ``land_bonus``, ``sea_bonus``, ``city``). The last three may add
    ``menhir``, ``caravans``, ``ships``, ``bandit``, ``pirate``, ``steal``, ``name``.
    """
    features = {key: spec[key] for key in _FEATURES if key in spec}
    if "card" in spec:
        return (
            _game(g)
            .face(str(spec["card"]), str(spec.get("face", "a")))
            .turned(int(spec.get("turn", 0)))
        )
    if "special" in spec:
        return _game(g).special_tile(str(spec["special"]), str(spec.get("face", "")))
    if "sections" in spec:
        sections = tuple(
            Section(
                str(s["side"]),
                frozenset(int(e) for e in s["edges"]),
                int(s.get("bonus", 0)),
                bool(s.get("city", False)),
                int(s.get("mountains", 0)),
            )
            for s in spec["sections"]
        )
        return Tile(sections, **features)
    if "side" in spec:
        maker = Tile.land if spec["side"] == LAND else Tile.sea if spec["side"] == SEA else None
        if maker is None:
            raise RuleError(f"a tile's side is land or sea, not '{spec['side']}'")
        return maker(int(spec.get("bonus", 0)), bool(spec.get("city", False)), **features)
    if "land" in spec:
        return Tile.split(
            [int(e) for e in spec["land"]],
            int(spec.get("land_bonus", 0)),
            int(spec.get("sea_bonus", 0)),
            bool(spec.get("city", False)),
            **features,
        )
    raise RuleError(f"a tile needs 'card', 'special', 'sections', 'side' or 'land': {dict(spec)}")


def _player(g: Game, who: Player | None) -> Player:
    return who if who is not None else g.players[0]


def _held(spec: Any) -> Held:
    if isinstance(spec, Mapping):
        return Held(str(spec["card"]), str(spec.get("up", "a")))
    return Held(str(spec), "a")


# -- given


def _given_board(g: Game, who: Any, value: Any) -> None:
    """Put tiles on the board: a list of tile specs, each with its ``cell: [q, r]`` (the spec
    beside it, or under ``tile:`` as ``place_tile``'s arguments write it). A tile is ``side:
    land`` (or sea: all six edges, ``bonus``, ``city``); ``land: [0, 1]`` (those edges land,
    the rest sea; ``land_bonus``, ``sea_bonus``); ``sections: [{side, edges, bonus}]``;
    ``card: <hex tile>, face: a, turn: 0..5``; or ``special: lost_city, face: land``; the
    first three may add ``menhir: true``, ``caravans: 1``, ``ships: 1``, ``bandit``,
    ``pirate``, ``steal``. Edges count from 0 towards (q+1, r), round by (q+1, r-1), (q, r-1)
    ..., and every edge meets the same kind on the tile beside it."""
    for spec in value:
        _game(g).put_tile(as_hex(spec["cell"]), tile_from_spec(g, spec.get("tile", spec)))


def _given_side(g: Game, who: Any, value: Any) -> None:
    """Set the player's side: land or sea."""
    if value not in SIDES:
        raise RuleError(f"a side is land or sea, not '{value}'")
    _player(g, who).flags["side"] = value


def _side_counter(g: Game, who: Any, name: str) -> Player:
    """The seat keeping ``name`` for the player: a side's points and bonus tokens are its
    team's, kept on its marker (LandVsSea.counter_holder)."""
    return _game(g).counter_holder(_player(g, who), name)


def _given_counter(name: str) -> Callable[[Game, Any, Any], None]:
    def given(g: Game, who: Any, value: Any) -> None:
        # The side's one counter; two seats of one side given different amounts are refused
        # (Game.give_counter), whether given here or as the README's `counters:`.
        g.give_counter(_player(g, who), name, int(value))

    given.__doc__ = f"Set the player's side's {name} (a team's, in the team games)."
    return given


def _expect_counter(name: str) -> Callable[[Game, Any], Any]:
    def expect(g: Game, who: Any) -> Any:
        return _side_counter(g, who, name).counters[name]

    expect.__doc__ = f"The player's side's {name} (a team's, in the team games)."
    return expect


def _given_waypoints(g: Game, who: Any, value: Any) -> None:
    """Put Waypoints on open edges: ``{cell: [q, r], direction: d, owner: n}`` (owner from 1).

    Each is one of its owner's own Waypoints (``waypoints_each``), placed from their supply as
    the game places one: "They return that Waypoint to its owner" gives back a Waypoint the
    owner had, so a given one is not an extra one, and a player given more Waypoints than they
    have is refused, not handed a third."""
    game = _game(g)
    for spec in value:
        owner = g.players[int(spec.get("owner", 1)) - 1]
        if int(owner.flags.get("waypoints", 0)) <= 0:
            each = int(game.params.get("waypoints_each", 0))
            raise RuleError(
                f"player {owner.index + 1} has no Waypoint left to put on the board: each "
                f"player has {each} (waypoints_each); a given Waypoint is one of its owner's"
            )
        game.place_waypoint(owner, spec["cell"], int(spec["direction"]))


def _given_layers(g: Game, who: Any, value: Any) -> None:
    """Choose the scoring layers in play, by card id."""
    for layer in value:
        if layer not in g.cards or g.cards[layer]["kind"] != "layer":
            raise RuleError(f"'{layer}' is not a scoring layer")
    _game(g).layers = tuple(value)


def _given_hand(g: Game, who: Any, value: Any) -> None:
    """The tiles the player holds: card ids, or ``{card, up: a|b}`` (the face up)."""
    _game(g).hand(_player(g, who))[:] = [_held(spec) for spec in value]


def _given_stacks(g: Game, who: Any, value: Any) -> None:
    """The stacks, top first: a list of lists of card ids or ``{card, up}``."""
    _game(g).stacks = [[_held(spec) for spec in stack] for stack in value]


def _given_specials(g: Game, who: Any, value: Any) -> None:
    """The special tiles still available beside the stacks."""
    _game(g).specials = [str(v) for v in value]


def _given_starting_tile(g: Game, who: Any, value: Any) -> None:
    """A large starting tile put down at (0, 0): ``{card, face: a|b}``."""
    _game(g).put_starting_tile(str(value["card"]), str(value.get("face", "a")))


def _given_token_supply(g: Game, who: Any, value: Any) -> None:
    """How many bonus scoring tokens are left in the supply."""
    _game(g).token_supply = int(value)


GIVEN: dict[str, Callable[[Game, Any, Any], None]] = {
    "board": _given_board,
    "side": _given_side,
    "points": _given_counter("points"),
    "plus_50_tokens": _given_counter("plus_50_tokens"),
    "plus_100_tokens": _given_counter("plus_100_tokens"),
    "waypoints": _given_waypoints,
    "layers": _given_layers,
    "hand": _given_hand,
    "stacks": _given_stacks,
    "special_tiles": _given_specials,
    "starting_tile": _given_starting_tile,
    "token_supply": _given_token_supply,
}


def _tile_at(g: Game, who: Any) -> Any:
    return {f"{cell.q},{cell.r}": tile.letters for cell, tile in sorted(_game(g).tiles.items())}


def _winner(g: Game, who: Any) -> str | None:
    """The side the flow's winner rule names as the points stand (after ``end_game`` or
    ``play``, the game's winner): land or sea; None when the sides are tied."""
    game = _game(g)
    found = game.result().winner
    return None if found is None else game.side_of(g.players[int(found)])


EXPECT: dict[str, Callable[[Game, Any], Any]] = {
    "points": _expect_counter("points"),
    "plus_50_tokens": _expect_counter("plus_50_tokens"),
    "plus_100_tokens": _expect_counter("plus_100_tokens"),
    "side": lambda g, who: _player(g, who).flags["side"],
    "tiles": lambda g, who: [[cell.q, cell.r] for cell in sorted(_game(g).tiles)],
    "edges": _tile_at,
    "waypoints": lambda g, who: len(_game(g).waypoints),
    "waypoint_supply": lambda g, who: int(_player(g, who).flags.get("waypoints", 0)),
    "hand": lambda g, who: [h.card for h in _game(g).hand(_player(g, who))],
    "stack_sizes": lambda g, who: [len(s) for s in _game(g).stacks],
    "special_tiles": lambda g, who: list(_game(g).specials),
    "scoring_aids": lambda g, who: dict(_game(g).aids),
    "token_supply": lambda g, who: _game(g).token_supply,
    "winner": _winner,
}


# -- steps


def _action_place_tile(g: Game, player: Player, cell: Any, tile: Any) -> None:
    """Place a tile (a tile spec) at ``cell``, scoring what it sets off."""
    _game(g).place_tile(player, as_hex(cell), tile_from_spec(g, tile))


def _action_complete_area(g: Game, player: Player, cell: Any, section: int = 0) -> None:
    """Complete the area of the given section of the tile at ``cell`` (the flow's scoring)."""
    game = _game(g)
    game.complete_area(player, area_at(game.tiles, as_hex(cell), int(section)))


def _action_score_trade_routes(g: Game, player: Player) -> None:
    """End game majority scoring of every trade route."""
    _game(g).score_trade_routes()


def _action_place_special_tile(g: Game, player: Player, hole: Any, special: str) -> None:
    """A bonus tile placement: the special tile into the hole, then its scoring."""
    game = _game(g)
    game.place_special(player, as_hex(hole), str(special))
    game.score_placement(player)


def _action_turn(g: Game, player: Player) -> None:
    """One whole turn of the flow (place, score, holes, steal, Waypoint, draw), its choices
    scripted by the scenario."""
    _game(g).run_section("turn", player)


def _action_setup(g: Game, player: Player) -> None:
    """The flow's setup, its choices scripted by the scenario."""
    _game(g).run_section("setup")


def _action_end_game(g: Game, player: Player) -> None:
    """The end of the game, the flow's ``end`` (``game_end``: Caravan & Ship scores the trade
    routes)."""
    _game(g).run_section("end")


def _action_play(g: Game, player: Player) -> None:
    """Play the game on from the given state by its flow, as a game is played: turns in seat
    order from this player, the end condition after every phase (``turn`` does not check it),
    then the end game scoring; the choices scripted by the scenario."""
    game = _game(g)
    game.set_up = True
    game.board["first_player"] = player.index + 1
    game.play()


def _action_score(g: Game, player: Player, amount: int) -> None:
    """The player's side scores points (the score track, bonus tokens)."""
    _game(g).award(player, int(amount), "points")


def _action_draw_tiles(g: Game, player: Player) -> None:
    """Draw up to the hand size from the stacks."""
    _game(g).draw_tiles(player)


def _action_place_waypoint(g: Game, player: Player, cell: Any, direction: int) -> None:
    """Put one of the player's Waypoints on an open edge."""
    _game(g).place_waypoint(player, cell, int(direction))


ACTIONS: dict[str, Callable[..., Context | None]] = {
    "place_tile": _action_place_tile,
    "complete_area": _action_complete_area,
    "score_trade_routes": _action_score_trade_routes,
    "place_special_tile": _action_place_special_tile,
    "turn": _action_turn,
    "setup": _action_setup,
    "end_game": _action_end_game,
    "play": _action_play,
    "score": _action_score,
    "draw_tiles": _action_draw_tiles,
    "place_waypoint": _action_place_waypoint,
}


# -- what a scenario may name, checked at its line (engine.scenario_check) ------------------

#: A hex cell ``[q, r]``.
_CELL = Many(Number(None, None, "a coordinate"), 2, "a cell [q, r]")
_EDGE = Number(0, 5, "an edge (0..5)")
_SIDE = Choice(("land", "sea"), "land or sea")
_FACE = Choice(("a", "b"), "face a or b")
_FEATURE_KINDS = {
    "menhir": Flag(),
    "caravans": Number(0),
    "ships": Number(0),
    "bandit": Flag(),
    "pirate": Flag(),
    "steal": Flag(),
    "name": Text(),
}
_SECTION = Fields(
    {
        "side": _SIDE,
        "edges": Many(_EDGE),
        "bonus": Number(0),
        "city": Flag(),
        "mountains": Number(0),
    },
    ("side", "edges"),
    "a section",
)
#: The ways to write a tile (see :func:`tile_from_spec`), each with its own keys, so a
#: misspelt key (``bonuss: 5``) is an error at its line, never a key silently ignored.
_TILE_FORMS = (
    Fields(
        {"card": Id("card:hex_tile", "a hex tile"), "face": _FACE, "turn": Number(0, 5, "a turn")},
        ("card",),
        "a hex tile's face",
    ),
    Fields(
        {"special": Id("card:tile", "a special tile"), "face": _SIDE},
        ("special",),
        "a special tile",
    ),
    Fields({"sections": Many(_SECTION), **_FEATURE_KINDS}, ("sections",), "a tile of sections"),
    Fields(
        {"side": _SIDE, "bonus": Number(0), "city": Flag(), **_FEATURE_KINDS},
        ("side",),
        "a one-sided tile",
    ),
    Fields(
        {
            "land": Many(_EDGE),
            "land_bonus": Number(0),
            "sea_bonus": Number(0),
            "city": Flag(),
            **_FEATURE_KINDS,
        },
        ("land",),
        "a split tile",
    ),
)
TILE = OneOf(_TILE_FORMS, "a tile")
_PLACED = OneOf(
    (
        *(
            Fields(
                {"cell": _CELL, **form.fields}, ("cell", *form.required), f"{form.what} at a cell"
            )
            for form in _TILE_FORMS
        ),
        # As place_tile's arguments write it: {cell: [0, 0], tile: {side: land}}.
        Fields({"cell": _CELL, "tile": TILE}, ("cell", "tile"), "a tile at a cell"),
    ),
    "a tile at a cell",
)
_WAYPOINT = Fields(
    {"cell": _CELL, "direction": _EDGE, "owner": Number(1, lambda v: v.players, "a player")},
    ("cell", "direction"),
    "a Waypoint",
)
_HELD = OneOf(
    (
        Id("card:hex_tile", "a hex tile"),
        Fields({"card": Id("card:hex_tile", "a hex tile"), "up": _FACE}, ("card",), "a held tile"),
    ),
    "a held tile",
)
GIVEN_KINDS = {
    "board": Many(_PLACED),
    "side": _SIDE,
    "points": Number(0),
    "plus_50_tokens": Number(0),
    "plus_100_tokens": Number(0),
    "waypoints": Many(_WAYPOINT),
    "layers": Many(Id("card:layer", "a scoring layer")),
    "hand": Many(_HELD),
    "stacks": Many(Many(_HELD)),
    "special_tiles": Many(Id("card:tile", "a special tile")),
    "starting_tile": Fields(
        {"card": Id("card:starting_tile", "a starting tile"), "face": _FACE},
        ("card",),
        "a starting tile",
    ),
    "token_supply": Number(0),
}
EXPECT_KINDS = {
    "points": Number(0),
    "plus_50_tokens": Number(0),
    "plus_100_tokens": Number(0),
    "side": _SIDE,
    "tiles": Many(_CELL),
    "edges": Anything("the edges of each tile, by cell 'q,r'"),
    "waypoints": Number(0),
    "waypoint_supply": Number(0),
    "hand": Many(Id("card:hex_tile", "a hex tile")),
    "stack_sizes": Many(Number(0)),
    "special_tiles": Many(Id("card:tile", "a special tile")),
    "scoring_aids": Fields(
        {
            layer: Choice(("front", "back"), "front or back")
            for layer in ("menhir_scoring", "city_scoring", "bandit_and_pirate_scoring")
        },
        (),
        "the scoring aids' sides",
    ),
    "token_supply": Number(0),
    "winner": Maybe(_SIDE),
}
ACTION_ARGS = {
    "place_tile": Fields({"cell": _CELL, "tile": TILE}, ("cell", "tile"), "the arguments"),
    "complete_area": Fields({"cell": _CELL, "section": Number(0)}, ("cell",), "the arguments"),
    "score_trade_routes": Fields({}),
    "place_special_tile": Fields(
        {"hole": _CELL, "special": Id("card:tile", "a special tile")},
        ("hole", "special"),
        "the arguments",
    ),
    "turn": Fields({}),
    "setup": Fields({}),
    "end_game": Fields({}),
    "play": Fields({}),
    "score": Fields({"amount": Number(0)}, ("amount",), "the arguments"),
    "draw_tiles": Fields({}),
    "place_waypoint": Fields(
        {"cell": _CELL, "direction": _EDGE}, ("cell", "direction"), "the arguments"
    ),
}
#: An area ``{area: [q, r], section: i}`` or a route ``{route: [q, r]}`` (see natives).
_PLACE = OneOf(
    (
        Fields({"area": _CELL, "section": Number(0, 5, "a section")}, ("area",), "an area"),
        Fields({"route": _CELL}, ("route",), "a trade route"),
    ),
    "an area or a trade route",
)
EVENT_KINDS = {"area": _PLACE, "route": _PLACE, "placed": _CELL}
_YES_NO = ("yes", "no")
#: The flow's own questions: id -> (what it asks, its answers: fixed words, a pool of ids, or
#: None when the flow lists them as it asks).
QUESTIONS: dict[str, tuple[str, tuple[str, ...] | str | None]] = {
    "starting_tile": ("choose a starting tile face, as 'card:a' or 'card:b'", None),
    "place_tile": ("place a tile, as '<hand index><face>@q,r r<turns>'", None),
    "placement.verb.special_tile": ("place a special tile into the hole?", _YES_NO),
    "special_tile": ("which special tile goes into the hole", "card:tile"),
    "steal": ("steal a tile, as '<seat>:<hand index>'", None),
    "waypoint": ("place a Waypoint, as 'none' or 'q,r:direction'", None),
    "draw": ("draw from which stack (1 to 3)", None),
}
