"""Land vs Sea: Uncharted over a modelled base game: the board, the sides, the stacks.

The expansion's rules are card data (layers.cards, host.cards) and the order of play is the
game's ``flow`` (flow.cards: the setup, a turn, the scoring of what a placement completes, the
end), played by :class:`engine.flow.FlowGame`; this class is the board and the table those
call (the verbs and natives of game.cards): placing a tile so its edges match, the areas and
routes it completes or joins, holes, Waypoints, the stacks and hands, the score track. What is
modelled and what is invented: cards/land_vs_sea/HOST.md.

Sides (``player.flags['side']``) by player count: 2 head to head, Land then Sea; 3 asymmetric,
one Land player against a Sea team of two, the lone player placing twice a turn; 4 in teams,
Land, Sea, Land, Sea. A side's points are kept on its first seat ("its score marker").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, overload

from engine.flow import FlowGame, FlowResult, flow_of
from engine.hexgrid import CellLike, Hex, as_hex, neighbour, neighbours
from engine.runtime import Context, Game, ObjectCache, Player, Question, RuleError

from .board import (
    LAND,
    SEA,
    SIDES,
    Area,
    LeyLine,
    Route,
    Tile,
    aid_sides,
    area_at,
    face_tile,
    hole_side,
    ley_lines_formed,
    may_align,
    special_tile,
)
from .state import AreaState, MapState, around

#: Who scores what, for the figures per layer: the base game's own scoring.
BASE = "base_game"

#: The layer whose points a raised value scores when no layer is noted raising it.
CITY = "city_scoring"

#: Option for declining an optional choice.
NONE = "none"

#: The tile faces of an IR, by the IR (a simulation plays many games of one).
_FACES = ObjectCache(16)


@dataclass(frozen=True)
class Held:
    """A tile in a stack or a hand: its card and the face up, the one everyone sees.

    "If you have a Menhir on the hidden side of one of your tiles": the other face is hidden
    from the rivals, not from its holder.
    """

    card: str
    up: str

    @property
    def hidden(self) -> str:
        """The face down."""
        return "b" if self.up == "a" else "a"


class Placement(NamedTuple):
    """What one placement put down, for the scoring that follows it. A named tuple, not a
    frozen dataclass: as immutable, and made on every placement, where a frozen dataclass's
    ``__init__`` (one ``object.__setattr__`` per field) shows."""

    player: int
    cell: Hex
    tile: Tile
    completed: tuple[Area, ...]
    #: the trade routes next to the tile before it joined them (a route tile or a raider).
    joined: tuple[Route, ...]
    #: a special tile's bonus placement into a hole.
    bonus: bool = False
    #: the ley lines the tile completed.
    ley_lines: tuple[LeyLine, ...] = ()


#: A cell as a placement option writes it (``q,r``), worked out once per cell: a greedy turn
#: lists a few hundred placements.
_AT: dict[Hex, str] = {}

#: A stack's answer to ``draw`` (its number from 1), for the first nine.
_STACKS = tuple(str(i + 1) for i in range(9))

#: The turns part of a placement option (``r0`` .. ``r5``).
_TURNS = tuple(f"r{turns}" for turns in range(6))


def _at(cell: Hex) -> str:
    found = _AT.get(cell)
    if found is None:
        if len(_AT) > 100_000:
            _AT.clear()
        found = _AT[cell] = f"{cell.q},{cell.r}"
    return found


#: A placement option: hand index, face, then the cell and the turns (``0a@1,-2r3``).
_OPTION = re.compile(r"(\d+)([ab])@(-?\d+),(-?\d+)r([0-5])")

#: A lying: hand index, face, turns and the tile so turned.
Lying = tuple[int, str, int, Tile]


class Placements(Sequence[str]):
    """The answers to ``place_tile``: every way a held tile fits the map, as option strings
    (``{hand index}{face}@{q},{r}r{turns}``) ordered by way of laying a tile (hand, face,
    turns), then by cell in the frontier's order.

    A turn offers ~200 placements and a policy reads a few (the greedy one, the random one,
    a scenario's): the strings are written only when read, from the map's index of the cells
    each edge pattern fits (:meth:`MapState.fits_cells`), and an answer is legal when it reads
    back as one of them (:meth:`lookup`), not by searching a list. The engine asks ``answer in
    options`` of any question (engine/runtime.py: ``legal_answers``).
    """

    __slots__ = ("board", "cells", "lyings", "fits", "_sizes", "_last")

    def __init__(self, board: MapState, lyings: list[Lying]) -> None:
        self.board = board
        self.lyings = lyings
        # On an empty map the only cell is (0, 0), where everything fits (a scenario's first
        # placement; a game's setup puts the starting tile down first).
        if board.tiles:
            self.cells = board.cells
            #: per lying, the cells it fits (bit n: :attr:`MapState.cells` n):
            #: :meth:`MapState.fits_cells`, written out (a turn has ~20 lyings).
            edges, open_cells = board.edge_cells, board.open_cells
            self.fits = []
            for _i, _f, _t, tile in lyings:
                a, b, c, d, e, f = tile.wrong
                self.fits.append(
                    open_cells & ~(edges[a] | edges[b] | edges[c] | edges[d] | edges[e] | edges[f])
                )
        else:
            self.cells = [Hex(0, 0)]
            self.fits = [1] * len(lyings)
        self._sizes: list[int] | None = None
        self._last: tuple[str, tuple[int, str, Hex, Tile] | None] | None = None

    def option(self, lying: int, number: int) -> str:
        """The answer placing ``lyings[lying]`` at ``cells[number]``; when it fits there, kept
        as the last one read, so answering it is not read back again."""
        index, face, turns, tile = self.lyings[lying]
        cell = self.cells[number]
        answer = f"{index}{face}@{_at(cell)}{_TURNS[turns]}"
        if self.fits[lying] >> number & 1:
            self._last = (answer, (index, face, cell, tile))
        return answer

    def lookup(self, answer: str) -> tuple[int, str, Hex, Tile] | None:
        """What an answer places: (hand index, face, cell, tile); None if it is not one of
        the options (read back and written again, so only the very string is legal)."""
        last = self._last
        if last is not None and last[0] == answer:
            return last[1]
        found = self._lookup(answer)
        self._last = (answer, found)
        return found

    def _lookup(self, answer: str) -> tuple[int, str, Hex, Tile] | None:
        if not isinstance(answer, str):
            return None
        parts = _OPTION.fullmatch(answer)
        if parts is None:
            return None
        index, face, q, r, turns = parts.groups()
        cell = Hex(int(q), int(r))
        for lying, (i, f, t, tile) in enumerate(self.lyings):
            if str(i) != index or f != face or str(t) != turns:
                continue
            if self.board.tiles:
                number = self.board.number.get(cell)
                fits = number is not None and self.fits[lying] >> number & 1
            else:
                number, fits = 0, cell == self.cells[0]
            if not fits or self.option(lying, number) != answer:
                return None
            return i, f, cell, tile
        return None

    def __contains__(self, answer: object) -> bool:
        return isinstance(answer, str) and self.lookup(answer) is not None

    def sizes(self) -> list[int]:
        """How many cells each lying fits."""
        if self._sizes is None:
            self._sizes = [fits.bit_count() for fits in self.fits]
        return self._sizes

    def __len__(self) -> int:
        return sum(self.sizes())

    def __bool__(self) -> bool:
        return any(self.fits)

    @overload
    def __getitem__(self, at: int) -> str: ...

    @overload
    def __getitem__(self, at: slice) -> Sequence[str]: ...

    def __getitem__(self, at: int | slice) -> str | Sequence[str]:
        if isinstance(at, slice):
            return [self[i] for i in range(*at.indices(len(self)))]
        if at < 0:
            at += len(self)
        for lying, size in enumerate(self.sizes()):
            if at < size:
                fits = self.fits[lying]
                for _ in range(at):
                    fits &= fits - 1  # drop the lowest cell
                return self.option(lying, (fits & -fits).bit_length() - 1)
            at -= size
        raise IndexError("placement index out of range")

    def __iter__(self) -> Iterator[str]:
        for lying, fits in enumerate(self.fits):
            while fits:
                low = fits & -fits
                yield self.option(lying, low.bit_length() - 1)
                fits ^= low

    def items(self) -> Iterator[tuple[str, tuple[int, str, Hex, Tile]]]:
        """Each option with what it places, in order."""
        for lying, fits in enumerate(self.fits):
            index, face, _turns, tile = self.lyings[lying]
            while fits:
                low = fits & -fits
                number = low.bit_length() - 1
                yield self.option(lying, number), (index, face, self.cells[number], tile)
                fits ^= low


def _game(g: Game) -> LandVsSea:
    if not isinstance(g, LandVsSea):
        raise RuleError("this needs Land vs Sea's board (GAME_CLASS)")
    return g


@dataclass
class LandVsSea(FlowGame):
    """A game of Land vs Sea with the Uncharted scoring layers, played by its flow.

    ``layers`` names the layer card ids in play ("Decide on the scoring layers you want to
    play with"); None plays every layer in the card data.
    """

    #: The faces, rotations and ways a tile may lie, worked out once for every game of the
    #: same IR and never changed by a move: a lookahead's trial shares them (engine.flow).
    SNAPSHOT_SHARED = ("_faces", "_rotations", "_ways", "offered")
    # ``offered`` is not a cache, but only a policy reads it, and a trial's replay answers
    # without one, offering its own placements (a new list) before anything reads them.

    layers: tuple[str, ...] | None = None

    #: cardc sim's per-card figures (engine.sim_tally): a tile drawn from a stack is logged
    #: "drew", and one placed on the map, the turn's play, "placed".
    CARD_EVENTS = {"drew": "drawn", "placed": "played"}

    def __post_init__(self) -> None:
        super().__post_init__()
        self.map = MapState()
        self.board["tiles"] = self.map.tiles
        # Waypoints by the open edge they sit on (cell, direction): the owner's index.
        self.board["waypoints"] = {}
        self.stacks: list[list[Held]] = []
        #: the special tiles beside the stacks, not yet placed (card ids).
        self.specials: list[str] = [c for c, card in self.cards.items() if card["kind"] == "tile"]
        #: scoring aids in play: layer -> "front" or "back" (the side for the player count).
        self.aids: dict[str, str] = {}
        self.starting: tuple[str, str] | None = None
        #: the cells the large starting tile's parts lie on (:meth:`area_tiles`).
        self.starting_cells: frozenset[Hex] = frozenset()
        self.last: Placement | None = None
        #: the placement of the turn's own tile (not a bonus placement), for Steal tiles.
        self.turn_placement: Placement | None = None
        #: the placements last offered, for a policy to weigh.
        self.offered: Placements = Placements(self.map, [])
        #: the hole a special tile is being chosen for.
        self.last_hole: Hex | None = None
        self.points_by: dict[str, int] = {}
        self._in_force: tuple[tuple[str, ...] | None, list[str]] | None = None
        #: :meth:`fire`'s handlers by trigger, with the cards in force and the handler table
        #: they were read from.
        self._answering: tuple[list[str], Any, dict[str, list[tuple[str, Any]]]] | None = None
        #: placements attempted (a turn of the 3 player game's lone player holds two).
        self.placements = 0
        #: turns in a row in which a placement found no place (``idle_placements``), and the
        #: last such turn (a turn counts once).
        self.idle = 0
        self.idle_turn = -1
        #: what the layers made of the area or Waypoint last announced (bonus_value,
        #: waypoint_value), for the flow's scoring that follows.
        self.values: dict[str, int] = {"bonus_value": 1, "waypoint_value": 1, "icon_value": 1}
        #: how much each layer changed each of those values while it was announced (City
        #: scoring's 1, a new layer's), for the points per layer: the raised points are theirs.
        self.value_layers: dict[str, dict[str, int]] = {}
        # Faces and their rotations, worked out once for every game of the same IR.
        cached = _FACES.get(self.ir)
        if cached is None:
            cached = _FACES.put(self.ir, ({}, {}, {}))
        self._faces: dict[tuple[str, str], Tile] = cached[0]
        self._rotations: dict[tuple[str, str], list[tuple[int, Tile]]] = cached[1]
        #: each way a held tile may lie, face up first, by its hand index: (index, face, turns,
        #: tile).
        self._ways: dict[tuple[int, Held], list[Lying]] = cached[2]
        self.token_supply = sum(
            int(card["properties"].get("copies", 1))
            for card in self.cards.values()
            if card["kind"] == "bonus_token"
        )
        count = len(self.players)
        sides = {3: (LAND, SEA, SEA)}.get(count, tuple(SIDES[i % 2] for i in range(count)))
        for player, side in zip(self.players, sides, strict=True):
            player.flags["side"] = side
            player.flags["hand"] = []
            player.flags["waypoints"] = int(self.params.get("waypoints_each", 0))

    # -- the board

    @property
    def tiles(self) -> dict[Hex, Tile]:
        """The tiles on the board, by cell."""
        return self.map.tiles

    @property
    def waypoints(self) -> dict[tuple[Hex, int], int]:
        """The Waypoints on the board: their owner's index, by the edge (cell, direction)."""
        waypoints: dict[tuple[Hex, int], int] = self.board["waypoints"]
        return waypoints

    def tile(self, cell: CellLike) -> Tile:
        """The tile at ``cell``; an error if the cell is empty."""
        at = as_hex(cell)
        if at not in self.tiles:
            raise RuleError(f"no tile at {at}")
        return self.tiles[at]

    def put_tile(self, cell: CellLike, tile: Tile) -> Hex:
        """Put a tile on an empty cell whose neighbours' edges it matches; nothing scores.

        For setting up (the starting tile, a scenario's board); a turn uses :meth:`place_tile`.
        """
        at = as_hex(cell)
        if at in self.tiles:
            raise RuleError(f"{at} already holds a tile")
        if not self.map.fits(at, tile):
            raise RuleError(
                f"the tile at {at} meets the other kind of edge: land edges meet land and sea "
                "edges meet sea"
            )
        self.map.put(at, tile)
        return at

    def face(self, card_id: str, face: str) -> Tile:
        """A face of a hex tile card (``a`` or ``b``), or a special tile's land or sea face."""
        key = (card_id, face)
        tile = self._faces.get(key)
        if tile is None:
            card = self.cards.get(card_id)
            if card is None:
                raise RuleError(f"'{card_id}' is not a tile of the card data")
            if card["kind"] == "tile":
                tile = special_tile(card, face)
            elif card["kind"] == "hex_tile":
                tile = face_tile(card, face)
            else:
                raise RuleError(f"'{card_id}' is a {card['kind']}, not a tile")
            self._faces[key] = tile
        return tile

    def rotations(self, card_id: str, face: str) -> list[tuple[int, Tile]]:
        """Each distinct way a face can lie."""
        key = (card_id, face)
        found = self._rotations.get(key)
        if found is None:
            found = self._rotations[key] = self.face(card_id, face).rotations()
        return found

    def special_tile(self, card_id: str, face: str) -> Tile:
        """A special tile from this game's card data, on its land or sea face."""
        if card_id not in self.cards or self.cards[card_id]["kind"] != "tile":
            raise RuleError(f"'{card_id}' is not a special tile of the card data")
        return self.face(card_id, face)

    # -- sides and points

    def side_of(self, player: Player) -> str:
        """The side a player plays: land or sea."""
        side: str = player.flags["side"]
        return side

    def seat_label(self, index: int) -> str:
        """The side a seat plays, as the simulator names a winner: "Land" or "Sea" head to
        head; in the 3 player asymmetric game the lone side and the side played by two; in the
        4 player team game the teams. A win is the side's, not the seat's."""
        side = self.side_of(self.players[index])
        name = side.capitalize()
        count = len(self.players)
        if count == 3:
            seats = sum(1 for p in self.players if self.side_of(p) == side)
            return f"{name} (alone)" if seats == 1 else f"{name} (team of {seats})"
        return f"{name} team" if count >= 4 else name

    def player_for(self, side: str, prefer: Player | None = None) -> Player | None:
        """The seat that keeps a side's points: its first seat, its score marker.

        In the team games a side scores as one; ``prefer`` is only a seat of that side.
        """
        del prefer
        return next((p for p in self.players if self.side_of(p) == side), None)

    def scorer(self, player: Player) -> Player:
        """The seat keeping the points of ``player``'s side."""
        found = self.player_for(self.side_of(player))
        return found if found is not None else player

    #: The counters a side keeps once, on its marker (:meth:`scorer`): its points and the
    #: bonus scoring tokens taken when that marker passes the end of the score track.
    SIDE_COUNTERS = ("points", "plus_50_tokens", "plus_100_tokens")

    def counter_holder(self, player: Player, counter: str) -> Player:
        """The seat keeping ``counter`` for ``player``: a side's points and bonus tokens are
        its team's, on its marker ("score 2 rather than the usual 1 bonus point for the Land
        team"), so a scenario's team mate reads and is given the team's; any other counter is
        the seat's own."""
        return self.scorer(player) if counter in self.SIDE_COUNTERS else player

    def rival_side(self, player: Player) -> str:
        """The other side."""
        return SEA if self.side_of(player) == LAND else LAND

    def award(
        self, player: Player, amount: int, why: str, layer: str | Mapping[str, int] = BASE
    ) -> None:
        """Score points for a player's side, logged with the reason; passing the end of the
        score track fires ``passed_score_track_end`` once per lap. ``layer``: the layer the
        points are whose (the simulator's points per layer), or each layer's share of them."""
        if not amount:
            return
        marker = self.scorer(player)
        before = marker.counters["points"]
        marker.counters["points"] = before + amount
        self._mirror(marker)
        for whose, share in ({layer: amount} if isinstance(layer, str) else layer).items():
            if share:
                self.points_by[whose] = self.points_by.get(whose, 0) + share
        self.log("scored", player.index, why, amount)
        track = int(self.params.get("score_track", 0))
        if track > 0:
            for _ in range(before // track, (before + amount) // track):
                self.fire("passed_score_track_end", marker)

    def score(self, c: Context, amount: int) -> None:
        """The prelude's ``score``: the acting player's side scores, for the card's layer; an
        amount worked out below 0 scores nothing, as the engine's ``gain`` and ``score``."""
        card = self.cards.get(c.card, {})
        amount = max(int(amount), 0)
        self.award(c.player, amount, str(card.get("title") or c.card or "score"), c.card)

    # A side's points are one score, kept on its marker: a card that writes ``gain points 2``
    # (or ``lose``, ``set``, ``add``, ``reduce``, ``pay``) for a team mate changes the side's
    # points, as ``score`` does, not a counter of that seat the result never reads. So do its
    # bonus scoring tokens. Each team mate's own counters mirror the marker's, so a card or a
    # phase reading ``points`` (``for each seat in players where points < 10``) for a team
    # mate reads the team's score ("score 2 rather than the usual 1 bonus point for the Land
    # team"), where it read a seat's 0.

    def _marker(self, c: Context, counter: str) -> Context:
        """``c`` acting for the seat that keeps the side's points and tokens, for those."""
        if counter not in self.SIDE_COUNTERS:
            return c
        return c.for_player(self.scorer(c.player))

    def _mirror(self, marker: Player) -> None:
        """The side's counters of ``marker``'s side copied onto its team mates' seats."""
        side = self.side_of(marker)
        for mate in self.players:
            if mate is not marker and self.side_of(mate) == side:
                for name in self.SIDE_COUNTERS:
                    mate.counters[name] = marker.counters.get(name, 0)

    def _side_changed(self, c: Context, counter: str) -> None:
        """Mirror the side's counters after ``counter`` changed for ``c``'s side."""
        if counter in self.SIDE_COUNTERS:
            self._mirror(self.scorer(c.player))

    def give_counter(self, player: Player, counter: str, amount: int) -> None:
        """A scenario's counter, given on the seat keeping it and mirrored on its team mates."""
        super().give_counter(player, counter, amount)
        self._side_changed(Context(player, "", ""), counter)

    def gain(self, c: Context, counter: str, amount: int) -> None:
        """Gain a counter; points are scored for the side (its marker, the score track)."""
        if counter == self.score_counter:
            self.score(c, amount)
        else:
            super().gain(self._marker(c, counter), counter, amount)
            self._side_changed(c, counter)

    def lose(self, c: Context, counter: str, amount: int) -> None:
        """Lose a counter; points are the side's."""
        super().lose(self._marker(c, counter), counter, amount)
        self._side_changed(c, counter)

    def pay(self, c: Context, counter: str, amount: int) -> int:
        """Spend a counter; points are the side's."""
        missing = super().pay(self._marker(c, counter), counter, amount)
        self._side_changed(c, counter)
        return missing

    def set(self, c: Context, target: str, value: int) -> None:
        """Set a quantity or a counter; points are the side's."""
        before = self._value_before(c, target)
        super().set(c if target in c.q else self._marker(c, target), target, value)
        self._value_by(c, target, before)
        if target not in c.q:
            self._side_changed(c, target)

    def add(self, c: Context, target: str, amount: int) -> None:
        """Add to a quantity or a counter; points are the side's."""
        before = self._value_before(c, target)
        super().add(c if target in c.q else self._marker(c, target), target, amount)
        self._value_by(c, target, before)
        if target not in c.q:
            self._side_changed(c, target)

    def reduce(self, c: Context, target: str, amount: int) -> None:
        """Reduce a quantity or a counter; points are the side's."""
        before = self._value_before(c, target)
        super().reduce(c if target in c.q else self._marker(c, target), target, amount)
        self._value_by(c, target, before)
        if target not in c.q:
            self._side_changed(c, target)

    def _value_before(self, c: Context, target: str) -> int | None:
        """A value the flow scores by (``bonus_value`` ...) as a layer is about to change it;
        None for anything else."""
        if c.card and target in c.q and target in self.values:
            return int(c.q[target])
        return None

    def _value_by(self, c: Context, target: str, before: int | None) -> None:
        """Note how much the layer changed a value the flow scores by: each layer's share of
        the points scored at it is what it added, so the shares are the same whichever layer
        answered first (two layers raising one value by 1 each have 1 each)."""
        if before is None:
            return
        change = int(c.q[target]) - before
        if change:
            shares = self.value_layers.setdefault(target, {})
            shares[c.card] = shares.get(c.card, 0) + change

    def _shares(self, value: int, *values: str) -> dict[str, int]:
        """What each layer added to the first of ``values`` a layer changed (City scoring all of
        it when none is noted: a scripted value), summing to ``value - 1``."""
        found = next((self.value_layers[v] for v in values if self.value_layers.get(v)), None)
        return dict(found) if found else {CITY: value - 1}

    # -- layers in play

    def cards_in_force(self, player: Player) -> list[str]:
        """Every rule, and the scoring layers in play (no player holds a card in force)."""
        key = self.layers
        if self._in_force is None or self._in_force[0] != key:
            cards = super().cards_in_force(player)
            if key is not None:
                cards = [c for c in cards if self.cards[c]["kind"] != "layer" or c in key]
            self._in_force = (key, cards)
        return self._in_force[1]

    def fire(
        self,
        trigger: str,
        player: Player,
        cards: Iterable[str] | None = None,
        event: dict[str, Any] | None = None,
        quantities: dict[str, int] | None = None,
    ) -> Context:
        """:meth:`Game.fire` over the cards in force, with the handlers that answer each
        trigger looked up once for as long as the same cards are in force (a turn fires one
        or two triggers, which most rules and layers have no handler for)."""
        if cards is not None or self.table is None:
            return super().fire(trigger, player, cards, event, quantities)
        in_force = self.cards_in_force(player)
        kept = self._answering
        if kept is None or kept[0] is not in_force or kept[1] is not self.table:
            kept = self._answering = (in_force, self.table, {})
        answering = kept[2].get(trigger)
        if answering is None:
            handlers = self.table.handlers
            answering = kept[2][trigger] = [
                (card, handlers[(card, trigger)])
                for card in dict.fromkeys(in_force)
                if (card, trigger) in handlers
            ]
        c = Context(player, "", trigger, event, quantities)
        for card, handler in answering:
            self.call(handler, c.for_card(card))
        return c

    def in_play(self, layer: str) -> bool:
        """True when that scoring layer is in play."""
        if layer not in self.cards:
            return False
        return self.layers is None or layer in self.layers

    def check_layers(self) -> None:
        """Refuse a mix of layers the rulebook does not allow ("You may optionally use Bandit
        and Pirate scoring when you are also using Caravan & Ship scoring")."""
        for cid, card in self.cards.items():
            if card["kind"] != "layer" or not self.in_play(cid):
                continue
            needs = card["properties"].get("requires")
            if needs and not self.in_play(str(needs)):
                other = self.cards.get(str(needs), {}).get("title", needs)
                raise RuleError(f"{card['source']}: {card['title']} needs {other} in play")

    # -- setup (the @host verbs of game.cards)

    def before_setup(self) -> None:
        """The special tiles start in the box when the setup is played: its
        ``special_tiles`` phase sets them out, so a variant that removes that phase plays
        without them. (A scenario that gives a state without a setup keeps them beside the
        stacks, as ``__post_init__`` puts them.)"""
        self.specials = []

    def set_out_special_tiles(self) -> None:
        """ "place them with the base game's Volcano/Whirlpool tiles, next to the tile stacks"."""
        self.specials = [c for c, card in self.cards.items() if card["kind"] == "tile"]
        self.log("special_tiles", list(self.specials))

    def shuffle_into_stacks(self, stacks: int) -> None:
        """ "Shuffle the remaining 24 Uncharted expansion tiles in with the 58 base game tiles,
        then split them into 3 roughly even stacks of tiles." Each tile lies a random face up.
        A large starting tile's parts stay out ("Put the other starting tile and original
        starting tile back in the box"), tagged ``starting_part`` or named by one, so a variant
        without the starting tiles does not shuffle their parts in."""
        parts = {
            str(part[0] if isinstance(part, list) else part)
            for card in self.cards.values()
            if card["kind"] == "starting_tile"
            for part in _clauses(card["properties"].get("parts"))
        } | {cid for cid, card in self.cards.items() if "starting_part" in card.get("tags", ())}
        with_uncharted = bool(self.params.get("uncharted_tiles", 1))
        pile: list[Held] = []
        for cid, card in self.cards.items():
            if card["kind"] != "hex_tile" or cid in parts:
                continue
            if card["properties"].get("box") == "uncharted" and not with_uncharted:
                continue
            for _ in range(int(card["properties"].get("copies", 1))):
                pile.append(Held(cid, "a" if self.rng.random() < 0.5 else "b"))
        self.shuffle(pile)
        count = max(int(stacks), 1)
        self.stacks = [pile[i::count] for i in range(count)]
        self.log("stacks", [len(s) for s in self.stacks])

    def place_scoring_aids(self) -> None:
        """Each layer in play gets its aid, the side for this player count up; the rest go back
        to the box."""
        self.aids = {}
        count = len(self.players)
        for cid, card in self.cards.items():
            if card["kind"] != "layer" or not self.in_play(cid):
                continue
            # Both sides are read: a layer writing only aid_back_players had no aid at all.
            side = aid_sides(card).get(count)
            if side is not None:
                self.aids[cid] = side
        self.log("scoring_aids", dict(self.aids))

    def place_starting_tile(self, player: Player) -> None:
        """ "Choose a face of one of the new large starting tiles to place face-up in the centre
        of the table. Put the other starting tile and original starting tile back in the box.\""""
        options = tuple(
            f"{cid}:{face}"
            for cid, card in self.cards.items()
            if card["kind"] == "starting_tile"
            for face in ("a", "b")
        )
        if not options:
            return
        answer = self.ask(
            player, Question("starting_tile", player.index, "choose a starting tile face", options)
        )
        cid, face = answer.split(":")
        self.put_starting_tile(cid, face)

    def put_starting_tile(self, card_id: str, face: str, at: CellLike = (0, 0)) -> None:
        """Put a large starting tile's 4 parts down at ``at``: "considered as 4 separate 'tiles'
        for scoring purposes"."""
        card = self.cards.get(card_id)
        if card is None or card["kind"] != "starting_tile":
            raise RuleError(f"'{card_id}' is not a large starting tile")
        centre = as_hex(at)
        parts = [
            str(p[0] if isinstance(p, list) else p) for p in _clauses(card["properties"]["parts"])
        ]
        cells = [Hex(int(c[0]), int(c[1])) for c in _clauses(card["properties"]["cells"])]
        if len(parts) != len(cells):
            raise RuleError(f"{card['source']}: a starting tile needs one cell per part")
        for part, cell in zip(parts, cells, strict=True):
            self.put_tile(centre + cell, self.face(part, face))
        self.starting = (card_id, face)
        self.starting_cells = frozenset(centre + cell for cell in cells)
        self.log("starting_tile", card_id, face)

    def area_tiles(self, area: Area) -> int:
        """The tiles making up an area, for its side's score: a tile counts once; the large
        starting tile counts as ``starting_tile_parts`` tiles ("considered as 4 separate
        'tiles' for scoring purposes"), shared out over its parts, so an area holding some of
        them counts their share, rounded up (a house rule's ``starting_tile_parts 1``: the
        whole large tile is one tile, however many of its parts the area holds)."""
        cells = area.cells
        parts = len(self.starting_cells)
        inside = len(cells & self.starting_cells) if parts else 0
        if not inside:
            return len(cells)
        counts_as = int(self.params.get("starting_tile_parts", parts))
        return len(cells) - inside + -(-inside * counts_as // parts)

    # -- the hand and the stacks

    def hand(self, player: Player) -> list[Held]:
        """The tiles a player holds."""
        held: list[Held] = player.flags["hand"]
        return held

    def draw_tiles(self, player: Player) -> None:
        """Draw from the tops of the stacks (the player's choice each time) up to the hand size."""
        size = int(self.params.get("hand_size", 1))
        hand = self.hand(player)
        stacks = self.stacks
        while len(hand) < size:
            held = [i for i, stack in enumerate(stacks) if stack]
            if not held:
                return
            open_stacks = tuple([_STACKS[i] if i < 9 else str(i + 1) for i in held])
            cards = self.cards
            tops = "; ".join([f"{i + 1}: {cards[stacks[i][0].card]['title']}" for i in held])
            # Asked even with one stack left: Game.ask answers a question of one legal answer
            # itself and logs it as a decision, as every other question of the game is.
            pick = self.ask(
                player,
                Question("draw", player.index, f"draw from a stack ({tops})", open_stacks),
            )
            hand.append(self.stacks[int(pick) - 1].pop(0))
            self.log("drew", player.index, hand[-1].card)

    def tiles_left(self) -> int:
        """Tiles in the stacks and in the players' hands."""
        return sum(len(s) for s in self.stacks) + sum(len(self.hand(p)) for p in self.players)

    # -- a turn

    def options(self, player: Player) -> Placements:
        """Every legal placement of a held tile, as the answers to ``place_tile``
        (:class:`Placements`: each one's (hand index, face, cell, tile) by ``lookup``)."""
        # Each way a held tile may lie: its hand index, face, turns and tile.
        ways = self._ways
        lyings: list[Lying] = []
        for index, held in enumerate(self.hand(player)):
            found = ways.get((index, held))
            if found is None:
                found = ways[(index, held)] = [
                    (index, face, turns, tile)
                    for face in (held.up, held.hidden)
                    for turns, tile in self.rotations(held.card, face)
                ]
            lyings += found
        return Placements(self.map, lyings)

    def place_held_tile(self, player: Player) -> None:
        """The player places one held tile, either face, turned to fit: land edges on land,
        sea edges on sea. No legal placement: the turn places nothing."""
        self.placements += 1
        found = self.options(player)
        if not found:
            self.last = None
            # A turn that found no place counts once, however many placements it holds: the
            # 3 player game's lone player places twice a turn, and its two failures ended the
            # game before a seat of the round had tried ("a whole round of turns placed none").
            if self.idle_turn != self.turns:
                self.idle += 1
                self.idle_turn = self.turns
            self.log("no_placement", player.index)
            return
        self.idle = 0
        self.idle_turn = -1
        self.offered = found
        answer = self.ask(player, Question("place_tile", player.index, "place a tile", found))
        chosen = found.lookup(answer)
        if chosen is None:  # ask refuses an answer Placements does not hold
            raise RuleError(f"'{answer}' is not a placement of this turn")
        index, face, cell, tile = chosen
        held = self.hand(player).pop(index)
        self.log("placed", player.index, held.card, face, [cell.q, cell.r])
        self.put_placed(player, cell, tile)

    def put_placed(self, player: Player, cell: Hex, tile: Tile, bonus: bool = False) -> Placement:
        """Put a placed tile down and note what it completed and joined, for scoring."""
        joined: tuple[Route, ...] = ()
        if tile.trades:
            joined = tuple(state.route() for state in self.map.routes_next_to(cell))
        done = self.put_tile_completing(cell, tile)
        lines: tuple[LeyLine, ...] = ()
        if self.map.menhirs and may_align(self.map.menhirs, cell, tile.menhir):
            lines = tuple(ley_lines_formed(self.tiles, cell))
        self.last = Placement(
            player.index, cell, tile, tuple(s.area() for s in done), joined, bonus, lines
        )
        return self.last

    def put_tile_completing(self, cell: Hex, tile: Tile) -> list[AreaState]:
        """Put a tile down (edges must match); the areas it completes."""
        if cell in self.tiles:
            raise RuleError(f"{cell} already holds a tile: a tile goes on an empty space")
        if not self.map.fits(cell, tile):
            raise RuleError(f"the tile does not fit at {cell}: land edges meet land, sea meet sea")
        return self.map.put(cell, tile)

    def place_tile(self, player: Player, cell: CellLike, tile: Tile) -> Placement:
        """A scripted placement (scenarios, tests): put the tile at ``cell`` and score it by the
        flow's ``score_placement``."""
        placed = self.put_placed(player, as_hex(cell), tile)
        self.score_placement(player)
        return placed

    def run_verb(self, name: str, player: Player, *args: Any) -> None:
        """Run a verb flow.cards defines in the DSL, for ``player`` (scripted steps, tests)."""
        module = self.table.module if self.table is not None else None
        verb = getattr(module, f"dv_{name}", None)
        if verb is None:
            raise RuleError(f"the flow defines no verb '{name}': run 'cardc build'")
        self.call(lambda g, c: verb(g, c, *args), self._contexts[player.index])

    def score_placement(self, player: Player) -> None:
        """Score what the last placement set off: the flow's verb (flow.cards)."""
        self.run_verb("score_placement", player)

    def complete_area(self, player: Player, area: Area) -> None:
        """``player`` completes ``area``: the flow's ``complete_area`` (flow.cards)."""
        self.run_verb("complete_area", player, area)

    # -- what the flow asks (natives.py binds these)

    def announce_placement(self, player: Player) -> None:
        """``tile_placed`` for the last placement (Menhir scoring)."""
        if self.last is not None:
            self.fire("tile_placed", player, event={"placed": self.last.cell})

    def areas_completed(self) -> list[Area]:
        """The areas the last placement completed."""
        return list(self.last.completed) if self.last is not None else []

    def announce_completion(self, player: Player, area: Area) -> None:
        """``area_completed``: the layers may raise ``bonus_value`` / ``waypoint_value``
        (from 1), kept for the flow's scoring of the area that follows."""
        self.value_layers = {}
        c = self.fire(
            "area_completed",
            player,
            event={"area": area},
            quantities={"bonus_value": 1, "waypoint_value": 1},
        )
        self.values = {
            **self.values,
            "bonus_value": c.q["bonus_value"],
            "waypoint_value": c.q["waypoint_value"],
        }
        self.log("area_completed", player.index, area.side, len(area.cells))

    def side_scores_tiles(self, area: Area, amount: int) -> None:
        """The area's side scores ``amount`` for its tiles (the base game's area scoring)."""
        owner = self.player_for(area.side)
        if owner is not None:
            self.award(owner, amount, f"{area.side} area tiles")

    def waypoints_in(self, area: Area) -> list[tuple[Hex, int]]:
        """The Waypoints on the open edges of the area's sections."""
        return [k for k in self.waypoints if self._waypoint_in(k, area)]

    def waypoints_surrounded(self) -> list[tuple[Hex, int]]:
        """The Waypoints whose space the last placement surrounded with 6 tiles."""
        placed = self.last
        if placed is None or not self.waypoints:
            return []
        near = neighbours(placed.cell)
        return [
            (wcell, direction)
            for wcell, direction in self.waypoints
            if (space := neighbour(wcell, direction)) in near and self._surrounded(space)
        ]

    def announce_surrounded(self, player: Player, key: tuple[Hex, int]) -> None:
        """``waypoint_surrounded`` for the area of the Waypoint on that edge: the layers may
        raise ``waypoint_value`` (from 1)."""
        at, direction = key
        if key not in self.waypoints:
            raise RuleError(f"no Waypoint on the edge of {at} in direction {direction}")
        area = area_at(self.tiles, at, self.tile(at).section_at(direction))
        self.value_layers = {}
        c = self.fire(
            "waypoint_surrounded", player, event={"area": area}, quantities={"waypoint_value": 1}
        )
        self.values = {**self.values, "bonus_value": 1, "waypoint_value": c.q["waypoint_value"]}

    def routes_joined(self) -> list[Route]:
        """The trade routes next to the last placement before it joined them."""
        return list(self.last.joined) if self.last is not None else []

    def announce_route_joined(self, player: Player, route: Route) -> None:
        """``route_joined`` for a route the last placement joined (Caravan & Ship, Bandit &
        Pirate scoring)."""
        placed = self.last
        if placed is None:
            return
        first = bool(placed.joined) and placed.joined[0] == route
        self.fire(
            "route_joined",
            player,
            event={"placed": placed.cell, "route": route, "first": first},
        )

    def _surrounded(self, cell: Hex) -> bool:
        return cell not in self.tiles and all(n in self.tiles for n in neighbours(cell))

    def _doubled(self, player: Player, amount: int, value: int, why: str) -> None:
        """``amount`` at ``value`` each: the base game's 1 each, City scoring's extra apart."""
        if amount * value == 0:
            return
        if value == 1:
            self.award(player, amount, why)
            return
        # Scored at the value the layers raised: 1 each the base game's, the rest each layer's
        # by what it added (one score, logged once).
        # The value scored is the one the flow's reason names ("waypoint"), when two are equal.
        named = ("waypoint_value", "bonus_value") if "waypoint" in why else ("bonus_value",)
        order = dict.fromkeys((*named, "bonus_value", "waypoint_value"))
        raised = [v for v in order if self.values[v] == value]
        split = {BASE: amount}
        for layer, added in self._shares(value, *raised).items():
            split[layer] = split.get(layer, 0) + amount * added
        self.award(player, amount * value, why, layer=split)

    # -- Waypoints

    def _waypoint_in(self, key: tuple[Hex, int], area: Area) -> bool:
        cell, direction = key
        tile = self.tiles.get(cell)
        return tile is not None and (cell, tile.section_at(direction)) in area.members

    def _return_waypoint(self, key: tuple[Hex, int]) -> None:
        owner = self.waypoints.pop(key)
        self.players[owner].flags["waypoints"] += 1
        self.log("waypoint_returned", owner)

    def waypoint_edges(self, player: Player) -> list[tuple[Hex, int]]:
        """The open edges of the player's side where a Waypoint may go."""
        side = self.side_of(player)
        return [
            (cell, d)
            for cell, tile in sorted(self.tiles.items())
            for d in range(6)
            if tile.sides[d] == side
            and neighbour(cell, d) not in self.tiles
            and (cell, d) not in self.waypoints
        ]

    def place_waypoint(self, owner: Player, cell: CellLike, direction: int) -> None:
        """``owner`` puts a Waypoint on the open edge of the tile at ``cell`` in ``direction``."""
        at = as_hex(cell)
        tile = self.tile(at)
        if neighbour(at, direction) in self.tiles:
            raise RuleError(f"the edge of {at} in direction {direction} is not open")
        side = self.side_of(owner)
        if tile.sides[direction] != side:
            # A Land team Waypoint is "in an area" of land: "place it on the open edge of the
            # same land area again". One given on a sea edge sat in a sea area and scored when
            # that sea was completed; the game's own choice offers only the owner's side.
            raise RuleError(
                f"the edge of {at} in direction {direction} is {tile.sides[direction]}: player "
                f"{owner.index + 1} plays {side}, and a Waypoint goes on an open edge of its "
                f"owner's side ({side})"
            )
        if (at, direction) in self.waypoints:
            raise RuleError(f"a Waypoint already sits on the edge of {at} in direction {direction}")
        self.waypoints[(at, direction)] = owner.index
        owner.flags["waypoints"] = max(int(owner.flags.get("waypoints", 0)) - 1, 0)
        self.log("waypoint_placed", owner.index, [at.q, at.r], direction)

    def choose_waypoint(self, player: Player) -> None:
        """The player may place a Waypoint from their supply on an open edge of their side."""
        if int(player.flags.get("waypoints", 0)) <= 0:
            return
        edges = self.waypoint_edges(player)
        if not edges:
            return
        options = (NONE, *(f"{cell.q},{cell.r}:{d}" for cell, d in edges))
        answer = self.ask(player, Question("waypoint", player.index, "place a Waypoint", options))
        if answer == NONE:
            return
        where, direction = answer.split(":")
        q, r = where.split(",")
        self.place_waypoint(player, (int(q), int(r)), int(direction))

    def surround_waypoint(self, player: Player, cell: CellLike, direction: int) -> None:
        """The Waypoint on that edge is surrounded by 6 tiles: the flow's ``surround_waypoint``."""
        self.run_verb("surround_waypoint", player, (as_hex(cell), int(direction)))

    # -- holes and the special tiles

    def holes_made(self) -> list[Hex]:
        """The holes next to the last placement: empty spaces with 6 edges of one type."""
        placed = self.last
        if placed is None:
            return []
        # MapState.hole, written out: a hole's frontier mask is 63, its land edges all or none.
        frontier = self.map.frontier
        return [
            cell
            for cell in around(placed.cell)
            if (need := frontier.get(cell)) is not None
            and need[0] == 63
            and (need[1] == 63 or need[1] == 0)
        ]

    def hole_type(self, hole: Hex) -> str | None:
        """Land or sea for a hole, else None."""
        return hole_side(self.tiles, hole)

    def specials_for(self, hole: Hex) -> list[str]:
        """The special tiles available for that hole (each fits either type of hole)."""
        return list(self.specials) if hole_side(self.tiles, hole) is not None else []

    def place_special(self, player: Player, hole: CellLike, card_id: str) -> Placement:
        """Place a special tile into a hole as a bonus tile placement, the face of the hole's
        type up: "rotated to fit as you choose" (all six edges match whichever way)."""
        at = as_hex(hole)
        side = hole_side(self.tiles, at)
        if side is None:
            raise RuleError(
                f"{at} is not a hole: a special tile goes only into a space surrounded by 6 of "
                "the same type of edges"
            )
        if card_id not in self.specials:
            raise RuleError(f"'{card_id}' is not among the special tiles still available")
        self.specials.remove(card_id)
        self.log("special_placed", player.index, card_id, side, [at.q, at.r])
        return self.put_placed(player, at, self.special_tile(card_id, side), bonus=True)

    def choose_special(self, player: Player, hole: Hex) -> bool:
        """Which special tile goes into the hole (the choice after ``may``); False if none."""
        options = tuple(self.specials_for(hole))
        self.last = None
        self.last_hole = hole
        if not options:
            return False
        # One special tile that fits is answered by Game.ask and logged as a decision.
        answer = self.ask(
            player, Question("special_tile", player.index, "which special tile", options)
        )
        self.place_special(player, hole, answer)
        return True

    # -- Steal tiles

    def steal_from(self, player: Player) -> None:
        """A Steal tile placed: take one tile from a rival's hand (seen by its face up)."""
        options = tuple(
            f"{rival.index + 1}:{i}"
            for rival in self.players
            if self.side_of(rival) != self.side_of(player)
            for i in range(len(self.hand(rival)))
        )
        if not options:
            return
        answer = self.ask(player, Question("steal", player.index, "steal a tile", options))
        seat, index = answer.split(":")
        taken = self.hand(self.players[int(seat) - 1]).pop(int(index))
        self.hand(player).append(taken)
        self.log("stole", player.index, taken.card, f"from player {seat}")

    # -- the end

    def trade_routes(self) -> list[Route]:
        """Every trade route on the board, in the order of its first cell."""
        return [state.route() for state in self.map.routes()]

    def keeps_points(self, player: Player) -> bool:
        """True when ``player``'s seat keeps its side's points (its first seat)."""
        return self.scorer(player) is player

    def announce_route_scored(self, player: Player, route: Route) -> None:
        """``route_scored`` for the route ``player`` won: City scoring may raise
        ``icon_value`` (from 1), kept for the flow's scoring of the route that follows."""
        self.value_layers.pop("icon_value", None)
        c = self.fire("route_scored", player, event={"route": route}, quantities={"icon_value": 1})
        self.values = {**self.values, "icon_value": c.q["icon_value"]}

    def score_route_icons(self, player: Player, icons: int, value: int) -> None:
        """``player`` scores ``icons`` at ``value`` each for a trade route: 1 each for Caravan &
        Ship scoring, the rest for City scoring (the simulator's points per layer)."""
        self.award(player, icons, "trade route", "caravan_and_ship_scoring")
        if value > 1:
            split = {
                layer: icons * added for layer, added in self._shares(value, "icon_value").items()
            }
            self.award(player, icons * (value - 1), "trade route", split)

    def score_trade_routes(self) -> None:
        """End game majority scoring of every trade route: the flow's verb (flow.cards)."""
        self.run_verb("score_trade_routes", self.players[0])

    def take_token_from_supply(self) -> None:
        """One bonus scoring token leaves the supply (host.cards' ``take_bonus_token``)."""
        if self.token_supply <= 0:
            raise RuleError("the supply holds no bonus scoring token")
        self.token_supply -= 1

    def result(self) -> FlowResult:
        """The flow's result (``winner highest`` on the seats keeping the sides' points: the
        winning side's first seat, None on a tie), with a side's points on each of its seats."""
        found = super().result()
        sides = {
            side: (p.counters["points"] if p else 0)
            for side in SIDES
            if (p := self.player_for(side)) or True
        }
        found.scores = [sides[self.side_of(p)] for p in self.players]
        # Team mates read their side's points too (_mirror): the winner is among the seats
        # keeping the sides' points, not a tie of two seats of one side.
        flow = self._flow_table or flow_of(self)
        if len(self.players) > 1 and flow["winner"] in ("highest", "lowest"):
            markers = {self.scorer(p).index for p in self.players}
            low = flow["winner"] == "lowest"
            beyond = (max if low else min)(found.scores) + (1 if low else -1)
            masked = [s if i in markers else beyond for i, s in enumerate(found.scores)]
            found.winner = self.leader(masked, low, flow["tiebreak"])
        return found

    def play_game(self) -> dict[str, Any]:
        """Play the whole game by its flow; the result as a mapping (the simulator's fields,
        and the flow's reason, rounds and turns)."""
        found = self.play()
        return {name: getattr(found, name) for name in FlowResult.__slots__}


def _clauses(value: Any) -> list[list[Any]]:
    """A list property's clauses (one clause alone is a list of words)."""
    if not value:
        return []
    if isinstance(value, list) and value and isinstance(value[0], list):
        return value
    return [value] if isinstance(value, list) else [[value]]


__all__ = [
    "BASE",
    "NONE",
    "Held",
    "Placements",
    "LandVsSea",
    "LeyLine",
    "Placement",
    "ley_lines_formed",
]
