"""Policies for ``cardc sim land_vs_sea``: ``random`` and ``greedy``.

``greedy`` weighs every legal placement by the points it scores now, for the player's side
against the other (areas completed: tiles for their side, bonus points for the placer, doubled
by a City when City scoring is in play; Mountains and Corals; Ley lines; a trade route joined
by a route tile, a Bandit or a Pirate), and breaks ties by the open areas of its own side it
grows (edges of its side matched). It reads :meth:`MapState.preview`, so weighing a placement
never changes the game. Its other answers: a special tile into every hole (the one worth
most), the rival tile with the most bonus points to steal, a Waypoint on the open edge of the
area whose Waypoints would score most (:meth:`Greedy.waypoint`), the first stack to draw from.

Waypoints (the 4 player team game) are weighed from the data as bonus points are: a placement
completing an area with Waypoints in it, or surrounding a Waypoint's space with 6 tiles, scores
each for the placer at ``waypoint_value`` (the flow's ``complete_area`` and
``surround_waypoint``): 1, one more with City scoring in an area with a City, and what any
other layer answering ``area_completed`` or ``waypoint_surrounded`` raises it by (a trial,
:meth:`Trials.waypoint_raise`). The greedy saw none of it: a Waypoint left in an area for the
taking, and a house rule doubling Waypoints, changed nothing of how it played.

The shipped layers it knows by name (:data:`SHIPPED`), worked out from the map's own indexes:
that is what keeps a turn to a few look-ups. Any other card in force that answers a
placement's ``tile_placed``, ``area_completed`` or ``route_joined`` by scoring (a designer's
layer, a house rule replacing a shipped one) it weighs by a trial (:class:`Trials`): its
handler runs on the placement put down for a moment, and the points it would score now count
as the shipped layers' do. Without that, simulating a house rule showed a greedy that never
aimed for it: the Corsairs house rule (tests/data/audit3_land_vs_sea) scored 4.8 points a game
(``cardc sim land_vs_sea --variant corsairs``, 1,000 games), 41.8 with the trial.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from engine.hexgrid import AXES, DIRECTIONS, Hex, neighbour
from engine.runtime import Context, Game, Player, Policy, Question, RandomLegal

from .board import (
    LAND,
    Area,
    Tile,
    area_at,
    area_bonus,
    area_has_city,
    areas_at,
    is_complete,
    ley_lines_formed,
    line_bonus,
    may_align,
)
from .game import NONE, LandVsSea, Placement, Placements
from .state import _BITS, Preview, around

#: How much a point now weighs against one matched edge of the player's side.
POINT_WEIGHT = 8


@dataclass(frozen=True)
class Weights:
    """What a turn's weighing reads once: the layers in play and the points they give."""

    city: bool
    mountains: bool
    routes: bool
    raids: bool
    menhirs: bool
    connection: int

    @classmethod
    def of(cls, game: LandVsSea) -> Weights:
        """The layers in play in ``game``, kept on its map (only whether Menhirs lie on it
        changes during a game)."""
        key = ("weights", bool(game.map.menhirs))
        found: Weights | None = game.map.notes.get(key)
        if found is None:
            found = game.map.notes[key] = cls._of(game)
        return found

    @classmethod
    def _of(cls, game: LandVsSea) -> Weights:
        return cls(
            game.in_play("city_scoring"),
            game.in_play("mountain_and_coral_scoring"),
            game.in_play("caravan_and_ship_scoring"),
            game.in_play("bandit_and_pirate_scoring"),
            game.in_play("menhir_scoring") and bool(game.map.menhirs),
            int(game.params.get("route_connection_points", 0)),
        )


#: The layers whose points at a placement :class:`Weights` and :class:`_Weigher` work out
#: themselves, by name, from the map's indexes (the cheap way, and a turn's most weighings).
SHIPPED = frozenset(
    {
        "city_scoring",
        "mountain_and_coral_scoring",
        "caravan_and_ship_scoring",
        "bandit_and_pirate_scoring",
        "menhir_scoring",
    }
)

#: The triggers a placement fires whose answers a trial runs (flow.cards' score_placement):
#: the tile placed, each area it completed, each trade route it joined, each Waypoint it
#: surrounded (read for the raise of ``waypoint_value`` alone: :meth:`Trials.waypoint_raise`).
TRIED = ("tile_placed", "area_completed", "route_joined", "waypoint_surrounded")


class Trials:
    """The cards in force, other than :data:`SHIPPED`, that answer a placement's triggers
    (:data:`TRIED`): their handlers, run on a trial placement to read the points they would
    score now (:meth:`points`). Worked out once a game from the IR; None when there are none,
    so the shipped game pays nothing for them.

    A trial puts the tile in the map's tiles for a moment (what the game's natives read), with
    :attr:`LandVsSea.last` a :class:`Placement` of it (the routes it joins, its Ley lines, and
    the areas it completes when a tried card answers ``area_completed``), and catches what the
    handlers score (:meth:`LandVsSea.award`) instead of scoring it: nothing of the game
    changes. What the map works out as a tile goes down (its areas and routes as kept,
    ``trade_routes()``, ``holes_made()``) is read as it was before the trial: the tiles are
    what most natives read, and putting a tile down for real costs more than the trial. Only
    handlers that do nothing but score are tried (:func:`_scores_only`): one that gains a
    counter, moves a card or asks a question would change the game or wait for an answer, so
    it is weighed as before, at nothing."""

    __slots__ = ("placed", "completed", "joined", "surrounded", "side", "scored")

    def __init__(
        self,
        placed: tuple[tuple[str, Any], ...],
        completed: tuple[tuple[str, Any], ...] = (),
        joined: tuple[tuple[str, Any], ...] = (),
        surrounded: tuple[tuple[str, Any], ...] = (),
    ) -> None:
        #: (card, handler) answering ``tile_placed``; ``area_completed``; ``route_joined``;
        #: ``waypoint_surrounded``.
        self.placed = placed
        self.completed = completed
        self.joined = joined
        self.surrounded = surrounded
        #: while a trial runs: the side it is for, and the points caught so far.
        self.side = ""
        self.scored = 0

    @classmethod
    def of(cls, game: LandVsSea) -> Trials | None:
        """The trials of ``game``'s cards in force, kept on its map."""
        notes = game.map.notes
        if "trials" not in notes:
            notes["trials"] = cls._of(game)
        found: Trials | None = notes["trials"]
        return found

    @classmethod
    def _of(cls, game: LandVsSea) -> Trials | None:
        table = game.table
        if table is None or not game.players:
            return None
        handlers = table.handlers
        answers: dict[str, list[tuple[str, Any]]] = {trigger: [] for trigger in TRIED}
        for card in dict.fromkeys(game.cards_in_force(game.players[0])):
            if card in SHIPPED:
                continue
            for trigger in TRIED:
                handler = handlers.get((card, trigger))
                body = game.cards.get(card, {}).get("triggers", {}).get(trigger, {}).get("body")
                if handler is not None and _scores_only(body):
                    answers[trigger].append((card, handler))
        if not any(answers.values()):
            return None
        return cls(*(tuple(answers[trigger]) for trigger in TRIED))

    def points(
        self,
        game: LandVsSea,
        player: Player | None,
        cell: Hex,
        tile: Tile,
        aligned: bool | None = None,
        closes: Sequence[int] | None = None,
    ) -> int:
        """The points the tried handlers would score now for ``player``'s side less those for
        the other, were ``tile`` placed at ``cell`` by ``player`` (in the flow's order: the
        tile placed, each area it completes, then each trade route it joins, the first marked
        ``first``). ``aligned``: whether a tile there may form Ley lines (:func:`may_align`),
        when the caller knows it; ``closes``: a section of the tile in each area it completes,
        when the caller knows them (MapState.groups), so that only those areas are walked (an
        area left open may be half the map), else the tile's areas are walked to find them."""
        if player is None:
            return 0
        board = game.map
        joined: tuple[Any, ...] = ()
        if self.joined and tile.trades:
            joined = tuple(state.route() for state in board.routes_next_to(cell))
        if not (self.placed or joined or (self.completed and closes != ())):
            return 0
        tiles = board.tiles
        last = game.last
        self.side = game.side_of(player)
        self.scored = 0
        # A handler changing a window's value notes its layer (game.value_layers): kept.
        noted = {value: dict(shares) for value, shares in game.value_layers.items()}
        tiles[cell] = tile
        try:
            if aligned is None:
                aligned = bool(board.menhirs) and may_align(board.menhirs, cell, tile.menhir)
            lines = tuple(ley_lines_formed(tiles, cell)) if aligned else ()
            areas: tuple[Area, ...] = ()
            if self.completed:
                if closes is None:
                    areas = tuple(a for a in areas_at(tiles, cell) if is_complete(tiles, a))
                else:
                    areas = tuple(area_at(tiles, cell, section) for section in sorted(closes))
            game.last = Placement(player.index, cell, tile, areas, joined, False, lines)
            game.award = self._record  # type: ignore[method-assign]
            if self.placed:
                c = Context(player, "", "tile_placed", {"placed": cell})
                for card, handler in self.placed:
                    c.card = card
                    game.call(handler, c)
            for area in areas if self.completed else ():
                q = {"bonus_value": 1, "waypoint_value": 1}
                c = Context(player, "", "area_completed", {"area": area}, q)
                for card, handler in self.completed:
                    c.card = card
                    game.call(handler, c)
                # A layer raising what each bonus point scores (`add bonus_value 1`): the
                # completer scores the area's bonus points at the raised value. City scoring's
                # raise is weighed apart (placement_value), and raises add up.
                raised = c.q["bonus_value"] - 1
                if raised:
                    self._record(player, raised * area_bonus(tiles, area), "bonus points")
            for number, route in enumerate(joined):
                c = Context(player, "", "route_joined", {"placed": cell, "route": route})
                c.e["first"] = number == 0
                for card, handler in self.joined:
                    c.card = card
                    game.call(handler, c)
        finally:
            del game.award  # type: ignore[attr-defined]
            game.value_layers = noted
            game.last = last
            del tiles[cell]
        return self.scored

    def _record(self, to: Player, amount: int, why: str, layer: Any = "") -> None:
        """:meth:`LandVsSea.award` during a trial: the points counted, not scored."""
        if amount:
            self.scored += amount if to.flags["side"] == self.side else -amount

    def waypoint_raise(self, game: LandVsSea, player: Player, trigger: str, area: Area) -> int:
        """What the tried cards answering ``trigger`` (``area_completed`` or
        ``waypoint_surrounded``) raise ``waypoint_value`` by for a Waypoint of ``area`` (a
        designer's ``add waypoint_value 1``), read back from the window as the flow reads it
        (:meth:`LandVsSea.announce_completion`); what they score is not counted here (a trial
        of the placement counts it), and nothing of the game changes."""
        answering = self.completed if trigger == "area_completed" else self.surrounded
        if not answering:
            return 0
        q = {"waypoint_value": 1}
        if trigger == "area_completed":
            q["bonus_value"] = 1
        noted = {value: dict(shares) for value, shares in game.value_layers.items()}
        game.award = _ignore  # type: ignore[method-assign]
        c = Context(player, "", trigger, {"area": area}, q)
        try:
            for card, handler in answering:
                c.card = card
                game.call(handler, c)
        finally:
            del game.award  # type: ignore[attr-defined]
            game.value_layers = noted
        return int(c.q["waypoint_value"]) - 1


def _ignore(to: Player, amount: int, why: str, layer: Any = "") -> None:
    """:meth:`LandVsSea.award` while a trial reads a raise alone: nothing is counted."""


def waypoint_value(
    game: LandVsSea,
    w: Weights,
    player: Player | None,
    area: Area,
    trigger: str = "area_completed",
) -> int:
    """What a Waypoint of ``area`` scores when its area is completed (``trigger``
    ``area_completed``) or its space surrounded (``waypoint_surrounded``): the base game's 1;
    City scoring's one more in an area with a City ("Waypoints score 2 points each (rather than
    1) when they are scored by completing the areas they are in, or by surrounding them with 6
    tiles"); what another layer in play raises it by (a trial)."""
    value = 1
    if w.city and area_has_city(game.map.tiles, area):
        value += 1
    trials = Trials.of(game)
    if trials is not None and player is not None:
        value += trials.waypoint_raise(game, player, trigger, area)
    return value


def waypoint_points(
    game: LandVsSea, w: Weights, player: Player | None, cell: Hex, tile: Tile
) -> int:
    """The points the Waypoints give the placer of ``tile`` at ``cell`` now, in the flow's
    order (score_placement): each Waypoint in an area the placement completes (returned to its
    owner, scored "for whoever completed it"), then each other one whose space the placement
    surrounds with 6 tiles, each at its :func:`waypoint_value`. 0 without a Waypoint on the map
    (every game but the 4 player team game), at no cost."""
    waypoints = game.waypoints
    if not waypoints:
        return 0
    tiles = game.map.tiles
    tiles[cell] = tile
    try:
        total = 0
        returned: set[tuple[Hex, int]] = set()
        for area in areas_at(tiles, cell):
            if not is_complete(tiles, area):
                continue
            inside = [key for key in waypoints if game._waypoint_in(key, area)]
            if inside:
                returned.update(inside)
                total += len(inside) * waypoint_value(game, w, player, area)
        near = around(cell)
        for key in waypoints:
            at, direction = key
            space = neighbour(at, direction)
            if key in returned or space not in near or space in tiles:
                continue
            if all(other in tiles for other in around(space)):
                area = area_at(tiles, at, tiles[at].section_at(direction))
                total += waypoint_value(game, w, player, area, "waypoint_surrounded")
        return total
    finally:
        del tiles[cell]


def surrounding_cells(game: LandVsSea) -> int:
    """The frontier cells (as :attr:`MapState.cells` bits) where a tile put down would
    surround a Waypoint's space with 6 tiles: the last empty neighbour of that space."""
    board = game.map
    tiles = board.tiles
    cells = 0
    for at, direction in game.waypoints:
        space = neighbour(at, direction)
        if space in tiles:
            continue
        empty = [other for other in around(space) if other not in tiles]
        if len(empty) == 1 and empty[0] in board.number:
            cells |= 1 << board.number[empty[0]]
    return cells


def _drawn(tile: Tile) -> tuple[Any, ...]:
    """What is drawn on a face, apart from where its edges lie: all a trial's handler may read
    of the tile placed whichever way it is turned (the greedy keeps a trial's worth at a cell
    by this, as it keeps the shipped layers' by the icons and points they read)."""
    return (
        tile.menhir,
        tile.caravans,
        tile.ships,
        tile.bandit,
        tile.pirate,
        tile.steal,
        tile.special,
        tuple((s.side, s.bonus, s.city, s.mountains) for s in tile.sections),
    )


def _scores_only(body: Any) -> bool:
    """Whether a handler's IR does nothing but ``score`` (under ifs, loops and lets): what a
    trial may run without changing the game (:class:`Trials`). A question (``may``,
    ``choose``, ``choose ... in``) or any other verb is not run."""
    if isinstance(body, list):
        return all(_scores_only(item) for item in body)
    if not isinstance(body, dict):
        return True
    kind = body.get("kind")
    if kind in ("may", "choose", "choose_from"):
        return False
    if kind == "verb" and (body.get("verb"), body.get("origin")) != ("score", "prelude"):
        # A window's value raised, lowered or set (`add bonus_value 1`) changes only what the
        # flow scores the area by, which a trial reads back (Trials.points).
        target = (body.get("args") or [None])[0]
        changes_value = (
            body.get("verb") in ("add", "reduce", "set")
            and body.get("origin") == "prelude"
            and isinstance(target, dict)
            and target.get("to") == "quantity"
        )
        if not changes_value:
            return False
    return all(_scores_only(value) for value in body.values())


def placement_value(
    game: LandVsSea,
    side: str,
    cell: Hex,
    tile: Tile,
    weights: Weights | None = None,
    rows: dict[Hex, bool] | None = None,
) -> int:
    """What a placement is worth to ``side`` now (see the module's docstring)."""
    w = weights or Weights.of(game)
    preview: Preview = game.map.preview(cell, tile)
    mine = theirs = 0
    for area_side, tiles, bonus, has_city, drawn in preview.completed:
        gained = tiles + (drawn if w.mountains else 0)
        if area_side == side:
            mine += gained
        else:
            theirs += gained
        mine += bonus * (2 if w.city and has_city else 1)
    if preview.joined:
        if tile.in_trade_route and w.routes:
            mine += w.connection
        if w.raids:
            if tile.bandit:
                mine += sum(c for c, _ in preview.joined)
            if tile.pirate:
                mine += sum(s for _, s in preview.joined)
    if w.menhirs:
        key = (cell, tile.menhir)
        aligned = rows.get(key) if rows is not None else None  # type: ignore[call-overload]
        if aligned is None:
            aligned = _may_align(game, cell, tile)
            if rows is not None:
                rows[key] = aligned  # type: ignore[index]
        if aligned:
            tiles = game.map.tiles
            tiles[cell] = tile
            try:
                mine += sum(line_bonus(tiles, line) for line in ley_lines_formed(tiles, cell))
            finally:
                del tiles[cell]
    trials = Trials.of(game)
    if trials is not None:
        mine += trials.points(game, game.player_for(side), cell, tile)
    if game.waypoints:
        mine += waypoint_points(game, w, game.player_for(side), cell, tile)
    return POINT_WEIGHT * (mine - theirs) + preview.matched.get(side, 0)


def _may_align(game: LandVsSea, cell: Hex, tile: Tile) -> bool:
    """A quick test before walking the rows: a Menhir placed needs another on one of its three
    rows; any other tile needs a Menhir on each side of it on one row."""
    q, r, s = cell.q, cell.r, -cell.q - cell.r
    ahead = [False, False, False]
    behind = [False, False, False]
    for m in game.map.menhirs:
        mq, mr = m.q, m.r
        ms = -mq - mr
        if mr == r:
            (ahead if mq > q else behind)[0] = True
        if ms == s:
            (ahead if mq > q else behind)[1] = True
        if mq == q:
            (ahead if mr > r else behind)[2] = True
    if tile.menhir:
        return any(ahead) or any(behind)
    return any(a and b for a, b in zip(ahead, behind, strict=True))


class Greedy(Policy):
    """The best placement by points now and the open areas it grows; simple other answers."""

    def decide(self, game: Game, question: Question) -> str:
        """The answer worth most, the first on a tie."""
        if not isinstance(game, LandVsSea) or question.id == "draw":
            return question.options[0]  # the first stack
        player = game.players[question.player]
        side = game.side_of(player)
        if question.id == "place_tile":
            return self.placement(game, side, question.options)
        if question.id == "placement.verb.special_tile":
            return "yes"
        if question.id == "special_tile" and game.last_hole is not None:
            hole = game.last_hole
            face = "land" if game.hole_type(hole) == LAND else "sea"
            return max(
                question.options,
                key=lambda cid: placement_value(game, side, hole, game.special_tile(cid, face)),
            )
        if question.id == "steal":

            def worth(option: str) -> int:
                seat, index = option.split(":")
                held = game.hand(game.players[int(seat) - 1])[int(index)]
                return game.face(held.card, held.up).bonus

            return max(question.options, key=worth)
        if question.id == "waypoint":
            return self.waypoint(game, player, question.options)
        return question.options[0]

    @staticmethod
    def waypoint(game: LandVsSea, player: Player, options: Sequence[str]) -> str:
        """The open edge whose Waypoint would score most (:func:`waypoint_value` of its area,
        when completed or surrounded, as the layers in play raise it), the first on a tie;
        never none ("If it were their own Waypoint they could place it on the open edge of the
        same land area again": a Waypoint on the map may score, one in the supply cannot)."""
        edges = [option for option in options if option != NONE]
        if not edges:
            return options[0]
        w = Weights.of(game)
        tiles = game.map.tiles

        def worth(option: str) -> int:
            where, direction = option.split(":")
            q, r = where.split(",")
            at = Hex(int(q), int(r))
            area = area_at(tiles, at, tiles[at].section_at(int(direction)))
            return max(
                waypoint_value(game, w, player, area),
                waypoint_value(game, w, player, area, "waypoint_surrounded"),
            )

        return max(edges, key=worth)

    @staticmethod
    def placement(game: LandVsSea, side: str, options: Sequence[str]) -> str:
        """The placement worth most, the first on a tie: :func:`placement_value` of each, with
        what it reads worked out once a turn. Per cell: the edges that meet a tile, those
        through which an area could close, the trade routes next to it, the Ley lines a
        Menhir or a gap filled there would form (their bonus points apart from the placed
        tile's). Per cell and way of sharing a tile's edges among its sections: the areas it
        would complete (:meth:`MapState.groups`). Each placement is then a few look-ups and
        sums, not a search of the map.

        Most placements score nothing now: their worth is the edges of the player's side
        they match, which is the cell's alone (:attr:`MapState.matching`). So each way of
        laying a tile takes, of the cells it fits (:class:`Placements`), the first with the
        most such edges among those where it cannot score, as a set of cells; only where it
        may score (a cell where an area can close, next to a trade route for a tile that
        joins one, on a Menhir's row) is each placement weighed as above. A layer tried on
        ``tile_placed`` (:class:`Trials`) may score anywhere: then every cell a tile fits is
        weighed, once per cell and what the face shows (:func:`_drawn`), which costs a game
        4.85 times the instructions (Triangulation scoring, tests/data/audit3_land_vs_sea);
        one tried on ``route_joined`` only the cells next to a route, 1.21 times (the
        Corsairs house rule), one on ``area_completed`` the placements that complete an
        area, 1.14 times. The shipped game tries nothing (1.00 times)."""
        board = game.map
        if not isinstance(options, Placements) or options is not game.offered or not board.tiles:
            return Greedy._each(game, side, options)
        w = Weights.of(game)
        land = side == LAND
        levels = board.matching[side]
        number = board.number
        # The cells where an area can close, each with the directions it closes through
        # (:meth:`MapState.completable`): a tile may close one there only if one of its
        # sections meets tiles through those directions alone (``Tile.closes``).
        closing: dict[int, int] = {}
        blocks: dict[Hex, int] = {}
        for cell, through in board.closable().items():
            blocks[cell] = ~through & 63
            closing[through] = closing.get(through, 0) | 1 << number[cell]
        closable = 0
        for cells in closing.values():
            closable |= cells
        near_routes = board.near_routes
        plain_rows = menhir_rows = 0
        flags: dict[Hex, tuple[bool, bool]] = {}
        lines: dict[tuple[Hex, bool], tuple[int, int]] = {}
        if w.menhirs:
            flags = _row_table(game)
            plain_rows, menhir_rows = board.notes["menhir_rows"][4:6]
            lines = _ley_table(game)
        weigh = _Weigher(game, side, w, land, flags, lines)
        trials = weigh.trials
        # Where a tile would surround a Waypoint's space: weighed placement by placement, as
        # where it may close an area (none without Waypoints on the map).
        surround = weigh.surround
        # A tile_placed handler may score at any cell: every cell a tile fits is weighed. A
        # route_joined one scores where the shipped layers may (next to a route), and an
        # area_completed one where an area closes (weighed placement by placement).
        everywhere = trials is not None and bool(trials.placed)
        faces = trials is not None and bool(trials.placed or trials.joined)
        weigh.blocks = blocks
        weigh.open = 63  # no area can close at the other cells (MapState.closable)
        points = weigh.points
        numbered = board.cells
        frontier = board.frontier
        # higher[k + 1]: the cells with more than k edges matched (k from -1 to 6); and the
        # counts some cell has, most first.
        higher = [0] * 8
        for k in range(5, -2, -1):
            higher[k + 1] = higher[k + 2] | levels[k + 1]
        counts = [(k, levels[k]) for k in range(6, -1, -1) if levels[k]]
        best_value = -(1 << 60)
        best_lying = best_number = -1
        # The cells with more edges matched than the best so far (ties go to the earlier).
        above = higher[0]
        held = -1
        face = ""
        worths: dict[int, int] = {}
        # By what a face's worth apart from closing areas reads of it (Weigher.points).
        kinds: dict[tuple[Any, ...], dict[int, int]] = {}
        scoring = closes = 0
        for lying, (fits, entry) in enumerate(zip(options.fits, options.lyings, strict=True)):
            if not fits:
                continue
            tile = entry[3]
            if entry[0] != held or entry[1] != face:
                # A face's turns share its icons and points: where it cannot close an area,
                # its worth at a cell is the same whichever way it is turned, and the same
                # as any face's with those icons and points.
                held, face = entry[0], entry[1]
                kind: tuple[Any, ...] = (
                    tile.trades,
                    tile.bandit,
                    tile.pirate,
                    tile.menhir,
                    tile.points,
                )
                if faces:
                    # A trial's handler may read anything drawn on the face: kept by that
                    # (its turns, and faces drawn alike, still share it where it cannot
                    # close an area).
                    kind = _drawn(tile)
                worths = kinds.setdefault(kind, {})
                scoring = menhir_rows if tile.menhir else plain_rows
                if tile.trades:
                    scoring |= near_routes
                if everywhere:
                    scoring = -1
            if fits & closable:
                closes = 0
                for through, cells in closing.items():
                    if tile.closes >> through & 1:
                        closes |= cells
                closes |= surround
                special = fits & (scoring | closes)
            else:
                closes = surround
                special = fits & (scoring | closes)
            top = (fits ^ special) & above
            if not (top or special):
                continue
            value, at = best_value, -1
            if top:
                for matched, cells in counts:
                    found = top & cells
                    if found:
                        value, at = matched, (found & -found).bit_length() - 1
                        break
            while special:
                low = special & -special
                special ^= low
                here = low.bit_length() - 1
                if low & closes:
                    worth = weigh(here, tile)
                else:
                    found = worths.get(here)
                    if found is None:
                        # Weigher.apart, written out: a few of these a turn.
                        cell = numbered[here]
                        mask, need = frontier[cell]
                        found = _BITS[need] if land else _BITS[mask & ~need & 63]
                        extra = points(cell, tile)
                        if extra:
                            found += POINT_WEIGHT * extra
                        worths[here] = found
                    worth = found
                if worth > value or (worth == value and 0 <= here < at):
                    value, at = worth, here
            if at >= 0 and value > best_value:
                best_value, best_lying, best_number = value, lying, at
                above = higher[7 if best_value >= 6 else best_value + 1 if best_value >= -1 else 0]
        return options.option(best_lying, best_number)

    @staticmethod
    def _each(game: LandVsSea, side: str, options: Sequence[str]) -> str:
        """:meth:`placement` weighing every option (options not listed by the game this turn,
        or the first tile on an empty map)."""
        offered = game.offered
        weigh = _Weigher(game, side, Weights.of(game), side == LAND, {}, {})
        if weigh.w.menhirs:
            weigh.flags = _row_table(game)
            weigh.rows = game.map.notes["menhir_rows"][1]
            weigh.lines = _ley_table(game)
        best, best_value = options[0], -(1 << 60)
        for option in options:
            placed = offered.lookup(option)
            if placed is None:
                raise KeyError(option)
            value = weigh.at(placed[2], placed[3])
            if value > best_value:
                best, best_value = option, value
        return best


class _Weigher:
    """:func:`placement_value` of placements this turn, with what it reads worked out once
    per cell (or per cell and way of sharing a tile's edges) and kept."""

    def __init__(
        self,
        game: LandVsSea,
        side: str,
        w: Weights,
        land: bool,
        flags: dict[Hex, tuple[bool, bool]],
        lines: dict[tuple[Hex, bool], tuple[int, int]],
    ) -> None:
        self.game = game
        self.board = game.map
        self.side = side
        self.w = w
        self.land = land
        self.flags = flags
        self.lines = lines
        self.blocks: dict[Hex, int] = {}
        #: the edges through which no area closes at a cell not in :attr:`blocks`: None when
        #: unknown (worked out per cell), 63 when :attr:`blocks` holds every cell where an
        #: area can close.
        self.open: int | None = None
        self.routes: dict[Hex, tuple[bool, int, int]] = {}
        #: the Menhirs' rows (:func:`_menhir_rows`) when Ley lines are in play.
        rows = self.board.notes.get("menhir_rows") if w.menhirs else None
        self.rows: Rows | None = rows[1] if rows is not None else None
        self.groups: dict[tuple[Hex, tuple[int, ...]], list[Any]] = {}
        #: the other layers' handlers a trial runs (None: only shipped layers in play).
        self.trials = Trials.of(game)
        self.player = game.player_for(side) if self.trials is not None else None
        #: a tried card answers area_completed: :meth:`at` notes the areas a tile completes.
        self.completing = self.trials is not None and bool(self.trials.completed)
        #: Waypoints on the map (the 4 player team game): :meth:`at` weighs those a tile
        #: scores (:func:`waypoint_points`) where it completes an area or surrounds one's
        #: space, the cells :attr:`surround` holds (as :attr:`MapState.cells` bits).
        self.waypoints = bool(game.waypoints)
        self.surround = surrounding_cells(game) if self.waypoints else 0
        self.waypoint_player = game.player_for(side) if self.waypoints else None

    def __call__(self, number: int, tile: Tile) -> int:
        """The worth of ``tile`` at the frontier's cell ``number``."""
        return self.at(self.board.cells[number], tile)

    def apart(self, number: int, tile: Tile) -> int:
        """The worth of ``tile`` at the frontier's cell ``number`` where it closes no area
        (:meth:`at` without looking for one)."""
        cell = self.board.cells[number]
        mask, need = self.board.frontier[cell]
        value = _BITS[need] if self.land else _BITS[mask & ~need & 63]
        points = self.points(cell, tile)
        return value + POINT_WEIGHT * points if points else value

    def at(self, cell: Hex, tile: Tile) -> int:
        """The worth of ``tile`` at ``cell`` (on the frontier, or the first cell of a map)."""
        board = self.board
        w = self.w
        side = self.side
        frontier = board.frontier.get(cell)
        if frontier is None:
            mask, gaps, value = 0, 63, 0
        else:
            mask, need = frontier
            gaps = ~mask & 63
            value = _BITS[need] if self.land else _BITS[mask & ~need & 63]
        mine = theirs = 0
        waypointed = False
        closed: tuple[int, ...] = ()
        sections_bits = tile.section_bits
        for section_bits in sections_bits if tile.closes >> mask & 1 else ():
            if section_bits & gaps:
                continue
            # A section meeting tiles all round closes an area only when every edge of it
            # meets an area whose open edges all face this cell; then the areas are worked
            # out exactly.
            blocked = self.blocks.get(cell, self.open)
            if blocked is None:
                blocked = self.blocks[cell] = ~board.completable(cell) & 63
            if section_bits & blocked:
                continue
            key = (cell, sections_bits)
            found = self.groups.get(key)
            if found is None:
                found = self.groups[key] = board.groups(cell, sections_bits)
            if found and self.completing:
                closed = tuple(min(members) for members, *_ in found)
            sections = tile.sections
            for members, size, bonus, city, drawn in found:
                gained = size
                if len(members) == 1:  # (most areas close through one section)
                    only = sections[members[0]]
                    if w.mountains:
                        gained += drawn + only.mountains
                    first_side = only.side
                    bonus += only.bonus
                    doubled = w.city and (city or only.city)
                else:
                    mine_s = [sections[i] for i in members]
                    if w.mountains:
                        gained += drawn + sum(s.mountains for s in mine_s)
                    first_side = mine_s[0].side
                    bonus += sum(s.bonus for s in mine_s)
                    doubled = w.city and (city or any(s.city for s in mine_s))
                if first_side == side:
                    mine += gained
                else:
                    theirs += gained
                mine += bonus * (2 if doubled else 1)
            if found and self.waypoints:
                mine += waypoint_points(self.game, w, self.waypoint_player, cell, tile)
                waypointed = True
            break
        if self.waypoints and not waypointed:
            number = board.number.get(cell)
            if number is not None and self.surround >> number & 1:
                mine += waypoint_points(self.game, w, self.waypoint_player, cell, tile)
        mine += self.points(cell, tile, closed)
        if mine or theirs:
            value += POINT_WEIGHT * (mine - theirs)
        return value

    def points(self, cell: Hex, tile: Tile, closes: tuple[int, ...] = ()) -> int:
        """The points ``tile`` at ``cell`` scores now other than by closing areas as the
        shipped layers score them: a trade route joined (by a route tile, a Bandit or a
        Pirate), Ley lines formed, and what the other layers' handlers would score
        (:class:`Trials`, less what they would score for the other side; ``closes``: a section
        of the tile in each area it completes there, for a card answering ``area_completed``). The
        shipped layers read only the tile's ``trades``, ``bandit``, ``pirate``, ``menhir`` and
        ``points`` (the greedy keeps it by those; with trials, by what the face shows, as a
        handler may read anything of it)."""
        mine = 0
        w = self.w
        if tile.trades:
            near = self.routes.get(cell)
            if near is None:
                states = self.board.routes_next_to(cell)
                near = self.routes[cell] = (
                    bool(states),
                    sum(s.caravans for s in states),
                    sum(s.ships for s in states),
                )
            if near[0]:
                if w.routes and not (tile.bandit or tile.pirate):
                    mine += w.connection
                if w.raids:
                    if tile.bandit:
                        mine += near[1]
                    if tile.pirate:
                        mine += near[2]
        plain_row, menhir_row = self.flags.get(cell, _NO_ROWS)
        if menhir_row if tile.menhir else plain_row:
            row = (cell, tile.menhir)
            line = self.lines.get(row)
            if line is None:
                ends: list[Hex] = []
                line = self.lines[row] = _ley_value(self.game, cell, tile, self.rows, ends)
                watch = self.board.notes["ley_values"][3]
                for gap in ends:
                    watch.setdefault(gap, []).append(row)
            mine += line[0] + line[1] * tile.points
        if self.trials is not None:
            # The Menhirs' rows, when read above, say whether Ley lines may form here.
            aligned = None
            if w.menhirs:
                aligned = self.flags.get(cell, _NO_ROWS)[tile.menhir]
            mine += self.trials.points(self.game, self.player, cell, tile, aligned, closes)
        return mine


#: A cell off the frontier (the first placement, on an empty map): no tile next to it.
_NOWHERE = (0, 63, False, False, 0)

#: A cell on no Menhir's row.
_NO_ROWS = (False, False)


def _row_table(game: LandVsSea) -> dict[Hex, tuple[bool, bool]]:
    """:func:`_row_flags` of every frontier cell on a Menhir's row (the others are on none).
    Kept on the map from turn to turn, worked out for cells new to the frontier, and, as
    Menhirs are only ever added (a row's span only grows, so a cell's flags only turn true),
    again for the frontier cells on a new Menhir's rows. The note also keeps those cells as
    sets (:attr:`MapState.cells` numbers): for a tile without a Menhir, and for one with."""
    board = game.map
    kept = board.notes.get("menhir_rows")
    fresh: Iterable[Hex]
    if kept is None:
        kept = board.notes["menhir_rows"] = [
            len(board.menhirs),
            _menhir_rows(game),
            {},
            0,
            0,
            0,
            set(board.menhirs),
        ]
        fresh = board.frontier
    elif kept[0] != len(board.menhirs):
        added = board.menhirs - kept[6]
        kept[6] |= added
        kept[0] = len(board.menhirs)
        for m in added:
            for axis, key, pos in ((0, m.r, m.q), (1, -m.q - m.r, m.q), (2, m.q, m.r)):
                lo, hi = kept[1][axis].get(key, (pos, pos))
                kept[1][axis][key] = (min(lo, pos), max(hi, pos))
        qs = {m.q for m in added}
        rs = {m.r for m in added}
        ss = {-m.q - m.r for m in added}
        fresh = [
            cell
            for cell in board.frontier
            if cell[0] in qs or cell[1] in rs or -cell[0] - cell[1] in ss
        ]
        fresh += board.cells[kept[3] :]
    else:
        fresh = board.cells[kept[3] :]
    rows, table = kept[1], kept[2]
    number = board.number
    along_q, along_s, along_r = rows
    for cell in fresh:
        # _row_flags, written out (a few new cells a turn).
        q, r = cell
        a = along_q.get(r)
        b = along_s.get(-q - r)
        c = along_r.get(q)
        if a is None and b is None and c is None:
            continue
        # On a Menhir's row: a Menhir placed may align; between two, any tile may.
        plain = bool(
            (a is not None and a[0] < q < a[1])
            or (b is not None and b[0] < q < b[1])
            or (c is not None and c[0] < r < c[1])
        )
        table[cell] = (plain, True)
        bit = 1 << number[cell]
        if plain:
            kept[4] |= bit
        kept[5] |= bit
    kept[3] = len(board.cells)
    return table


def _ley_table(game: LandVsSea) -> dict[tuple[Hex, bool], tuple[int, int]]:
    """:func:`_ley_value` by (cell, Menhir shown), kept on the map from turn to turn. A value
    reads the tiles along the cell's rows up to a Menhir or a gap each way, so it holds until
    one of those gaps is filled (the note keeps, by gap, the values that stop there), or a
    Menhir is added on one of the cell's rows (which moves that row's span and ends walks
    along it; a cell on none of the new Menhir's three rows reads none of that)."""
    board = game.map
    kept = board.notes.get("ley_values")
    if kept is None:
        kept = board.notes["ley_values"] = [
            len(board.menhirs),
            len(board.tiles),
            {},
            {},
            set(board.menhirs),
        ]
    values: dict[tuple[Hex, bool], tuple[int, int]] = kept[2]
    if kept[0] != len(board.menhirs):
        added = board.menhirs - kept[4]
        kept[4] |= added
        kept[0] = len(board.menhirs)
        qs = {m.q for m in added}
        rs = {m.r for m in added}
        ss = {-m.q - m.r for m in added}
        for key in [
            key
            for key in values
            if key[0][0] in qs or key[0][1] in rs or -key[0][0] - key[0][1] in ss
        ]:
            del values[key]
    if kept[1] != len(board.tiles):
        watch: dict[Hex, list[tuple[Hex, bool]]] = kept[3]
        for placed in islice(board.tiles, kept[1], None):
            for key in watch.pop(placed, ()):
                values.pop(key, None)
        kept[1] = len(board.tiles)
    return values


#: Per axis, the Menhirs' rows: the row's key -> the lowest and highest position on it.
Rows = tuple[dict[int, tuple[int, int]], ...]


def _menhir_rows(game: LandVsSea) -> Rows:
    """Where the Menhirs lie along each of the three axes, for :func:`_row_flags` (axis 0: rows of
    one r, along q; axis 1: one s, along q; axis 2: one q, along r)."""
    rows: Rows = ({}, {}, {})
    for m in game.map.menhirs:
        for axis, key, pos in ((0, m.r, m.q), (1, -m.q - m.r, m.q), (2, m.q, m.r)):
            lo, hi = rows[axis].get(key, (pos, pos))
            rows[axis][key] = (min(lo, pos), max(hi, pos))
    return rows


def _row_flags(rows: Rows | None, cell: Hex) -> tuple[bool, bool]:
    """:func:`_may_align` from the rows, for a tile without and with a Menhir at ``cell``: a
    Menhir placed needs another on one of its rows; any other tile a Menhir on each side of it
    on one row."""
    if rows is None:
        return False, False
    q, r = cell
    menhir = False
    for axis, key, pos in ((0, r, q), (1, -q - r, q), (2, q, r)):
        span = rows[axis].get(key)
        if span is not None:
            if span[0] < pos < span[1]:
                return True, True
            menhir = True
    return False, menhir


def _ley_value(
    game: LandVsSea,
    cell: Hex,
    tile: Tile,
    rows: Rows | None = None,
    gaps: list[Hex] | None = None,
) -> tuple[int, int]:
    """The Ley lines ``tile`` at ``cell`` would form: the bonus points on them apart from the
    placed tile's, and how many of them run through the placed tile (a gap filled). Whether
    lines form depends only on whether the tile shows a Menhir.

    :func:`ley_lines_formed` and :func:`line_bonus` (what the rules score, and what
    :func:`placement_value` reads), walked here without writing the lines down: each way
    along each axis, the bonus points and tiles up to the first Menhir, or a gap. With the
    Menhirs' ``rows`` (:func:`_menhir_rows`), a way with no Menhir along it is not walked
    (it ends at a gap). ``gaps``, when given, gets the empty cells the walks ended at."""
    tiles = game.map.tiles
    q0, r0 = cell
    total = through = 0
    for axis, (forward, back) in enumerate(AXES):
        ways = (True, True)
        if rows is not None:
            # Axis 0: rows of one r, along q (forward: q up); 1: one s, along q (forward: q
            # up); 2: one q, along r (forward: r down).
            key, pos = ((r0, q0), (-q0 - r0, q0), (q0, r0))[axis]
            span = rows[axis].get(key)
            if span is None:
                continue
            up, down = span[1] > pos, span[0] < pos
            ways = (down, up) if axis == 2 else (up, down)
            if not (any(ways) if tile.menhir else all(ways)):
                continue
        ends: list[tuple[int, int] | None] = []
        for direction, way in zip((forward, back), ways, strict=True):
            if not way:
                ends.append(None)
                continue
            dq, dr = DIRECTIONS[direction]
            q, r = q0, r0
            bonus = count = 0
            while True:
                q += dq
                r += dr
                other = tiles.get((q, r))  # type: ignore[call-overload]
                if other is None:
                    ends.append(None)
                    if gaps is not None:
                        gaps.append(Hex(q, r))
                    break
                if other.menhir:
                    ends.append((bonus, count))
                    break
                bonus += other.points
                count += 1
        ahead, behind = ends
        if tile.menhir:
            # A line to each Menhir with tiles between (two side by side form none).
            for end in ends:
                if end is not None and end[1]:
                    total += end[0]
        elif ahead is not None and behind is not None:
            total += ahead[0] + behind[0]
            through += 1
    return total, through


def _random(game: Game, index: int) -> Policy:
    return RandomLegal()


def _greedy(game: Game, index: int) -> Policy:
    return Greedy()


POLICIES: dict[str, Callable[[Game, int], Policy]] = {"random": _random, "greedy": _greedy}
