"""The standard library of natives: each function against a small game, its declared signature,
and a game that uses it through ``use`` in its game.cards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from compiler.vocabulary import PARAM_TYPES, RETURN_TYPES
from engine import hexgrid
from engine.hexgrid import Hex
from engine.runtime import Context, Game, Player, RuleError
from engine.stdlib import (
    LIBRARY,
    counters,
    decks,
    dice,
    graphs,
    hexes,
    majorities,
    markets,
    registry,
    spec,
    tiles,
    zones,
)

VOCABULARY: dict[str, Any] = {
    "params": {},
    "counters": {
        "coins": {"start": 0, "min": 0, "max": 5},
        "points": {"start": 0, "min": 0, "max": None},
    },
    "tracks": {"health": {"length": 4, "boxes": {}}},
    "zones": ["deck", "discard", "hand"],
    "score": "points",
}


def game(players: int = 1, dice_script: list[int] | None = None) -> tuple[Game, Context]:
    """A game of the vocabulary above, and a context for its first player."""
    g = Game({"vocabulary": VOCABULARY, "cards": []}, player_count=players, seed=7)
    g.scripted_dice = dice_script
    return g, Context(g.players[0], "", "test")


def test_every_function_declares_a_dsl_signature_and_a_doc() -> None:
    assert registry.PARAM_TYPES == PARAM_TYPES
    assert registry.RETURN_TYPES == RETURN_TYPES - {"shortfall"}
    names = [s.name for module in LIBRARY.values() for s in module.values()]
    assert len(names) == len(set(names)) > 30
    for module in LIBRARY.values():
        for s in module.values():
            assert s.doc and s.kind in ("native", "verb")
            assert s.function.__name__ == s.name
            assert spec(s.name) is s
            assert s.returns is None if s.kind == "verb" else s.returns in RETURN_TYPES


def test_parse_params_refuses_a_bad_declaration() -> None:
    assert registry.parse_params("a number = 2, z zone") == (
        registry.Param("a", "number", 2),
        registry.Param("z", "zone", None),
    )
    with pytest.raises(ValueError):
        registry.parse_params("a colour")


def test_dice_go_through_the_game() -> None:
    g, c = game(dice_script=[5, 2, 6, 6, 3, 4, 6, 1])
    assert dice.roll(g, c, (2, 6)) == 7
    assert dice.doubles(g, c, (2, 6)) is True
    assert dice.difference(g, c, (2, 6)) == 1
    assert dice.successes(g, c, (2, 6), 5) == 1
    with pytest.raises(RuleError):
        dice.difference(g, c, (3, 6))


def test_decks_draw_reshuffle_and_look() -> None:
    g, c = game()
    zones_of = c.player.zones
    zones_of["deck"][:] = ["a", "b"]
    zones_of["discard"][:] = ["c", "d", "e"]
    assert decks.look_at(g, c, "deck", 5) == ["a", "b"]
    decks.draw_from(g, c, "deck", "hand", 1)
    assert zones_of["hand"] == ["a"] and zones_of["deck"] == ["b"]
    decks.draw_or_reshuffle(g, c, "deck", "discard", "hand", 3)
    assert zones_of["hand"][:2] == ["a", "b"] and len(zones_of["hand"]) == 4
    assert sorted(zones_of["hand"][2:] + zones_of["deck"]) == ["c", "d", "e"]
    assert zones_of["discard"] == []
    decks.draw_from(g, c, "deck", "hand", 9)  # runs out quietly, no reshuffle
    assert decks.is_empty(g, c, "deck")
    zones_of["discard"][:] = ["x", "y"]
    decks.reshuffle(g, c, "discard", "deck")
    assert sorted(zones_of["deck"]) == ["x", "y"] and not zones_of["discard"]


def test_shuffle_follows_the_seed() -> None:
    orders = []
    for _ in range(2):
        g, c = game()
        c.player.zones["deck"][:] = list("abcdefgh")
        decks.shuffle(g, c, "deck")
        orders.append(list(c.player.zones["deck"]))
    assert orders[0] == orders[1] and sorted(orders[0]) == list("abcdefgh")


def test_zones_move_and_count() -> None:
    g, c = game()
    c.player.zones["hand"][:] = ["a", "a", "b"]
    assert zones.holds(g, c, "hand", "a") and zones.copies_in(g, c, "hand", "a") == 2
    zones.move_card(g, c, "a", "hand", "discard")
    assert zones.cards_in(g, c, "hand") == ["a", "b"]
    with pytest.raises(RuleError):
        zones.move_card(g, c, "z", "hand", "discard")
    zones.move_all(g, c, "hand", "discard")
    assert c.player.zones["discard"] == ["a", "a", "b"] and not c.player.zones["hand"]


def test_markets_refill_and_take() -> None:
    g, c = game()
    g.board["deck:shop"] = ["a", "b", "c", "d"]
    markets.refill_market(g, c, "shop", 3)
    assert markets.market_cards(g, c, "shop") == ["a", "b", "c"]
    markets.take_from_market(g, c, "shop", "b", "hand")
    assert c.player.zones["hand"] == ["b"] and not markets.in_market(g, c, "shop", "b")
    markets.refill_market(g, c, "shop", 3)
    assert markets.market_cards(g, c, "shop") == ["a", "c", "d"]
    assert markets.refill(g, "shop", 5) == 0  # the deck is empty
    with pytest.raises(RuleError):
        markets.take_from_market(g, c, "shop", "z", "hand")


def test_counters_and_tracks() -> None:
    g, c = game(players=2)
    g.mark(c, "health", 3)
    assert counters.marked(g, c, "health") == 3 and counters.boxes_left(g, c, "health") == 1
    assert not counters.track_full(g, c, "health")
    counters.erase(g, c, "health", 5)
    assert counters.marked(g, c, "health") == 0
    g.gain(c, "coins", 9)
    assert counters.at_max(g, c, "coins") and not counters.at_max(g, c, "points")
    g.players[1].counters["coins"] = 2
    assert counters.total_of(g, c, "coins") == 7


def test_majorities_and_ties() -> None:
    assert majorities.majority({"land": 3, "sea": 2}) == "land"
    assert majorities.majority({"land": 2, "sea": 2}) is None
    assert majorities.majority({}) is None
    assert majorities.leaders({"a": 1, "b": 3, "c": 3}) == ["b", "c"]
    g, c = game(players=3)
    g.players[1].counters["points"] = 4
    assert majorities.most_of(g, c, "points") == [g.players[1]]
    assert not majorities.has_majority(g, c, "points")
    assert majorities.has_majority(g, c.for_player(g.players[1]), "points")


class _Teams(Game):
    """Seats 1 and 3 one team whose points seat 1 keeps (as Land vs Sea's sides do)."""

    def counter_holder(self, player: Player, counter: str) -> Player:
        return self.players[0] if counter == "points" and player.index == 2 else player


def test_a_shared_counter_is_one_teams_majority_on_the_seat_holding_it() -> None:
    g = _Teams({"vocabulary": VOCABULARY, "cards": []}, player_count=3, seed=7)
    first, rival, mate = g.players
    first.counters["points"] = mate.counters["points"] = 5  # the mate mirrors its team's
    rival.counters["points"] = 3
    c = Context(first, "", "test")
    # The team is not tied with itself: its holder leads alone, and the majority is the
    # holder's seat's, once (a card scoring each seat with the majority scores once a side),
    # never the rival's.
    assert majorities.most_of(g, c, "points") == [first]
    assert majorities.has_majority(g, c, "points")
    assert not majorities.has_majority(g, c.for_player(mate), "points")
    assert not majorities.has_majority(g, c.for_player(rival), "points")
    rival.counters["points"] = 5
    assert majorities.most_of(g, c, "points") == [first, rival]
    assert not majorities.has_majority(g, c, "points")


def test_hexes_reuse_the_grid() -> None:
    g, c = game()
    assert hexes.hex_distance(g, c, (0, 0), Hex(2, -1)) == 2
    assert hexes.hex_neighbours(g, c, (0, 0)) == list(hexgrid.neighbours(Hex(0, 0)))
    assert hexes.hex_line(g, c, (0, 0), (2, 0)) == [Hex(0, 0), Hex(1, 0), Hex(2, 0)]
    assert hexes.hex_line(g, c, (0, 0), (2, 1)) == []
    assert len(hexes.hex_ring(g, c, (0, 0), 2)) == 12
    assert len(hexes.hex_within(g, c, (0, 0), 1)) == 7
    groups = hexes.hex_areas(g, c, [(0, 0), (1, 0), (5, 5)])
    assert groups == [[Hex(0, 0), Hex(1, 0)], [Hex(5, 5)]]


def test_reach_over_a_map_graph() -> None:
    graph = {"a": ["b", "c"], "b": ["d"], "c": ["d"], "d": ["e"], "e": []}
    assert graphs.reach(graph, "a", 2) == {"a": 0, "b": 1, "c": 1, "d": 2}
    assert graphs.distance(graph, "a", "e") == 3 and graphs.distance(graph, "e", "a") is None
    g, c = game()
    with pytest.raises(RuleError):
        graphs.moves_between(g, c, "a", "e")
    g.board["graph"] = graph
    assert graphs.reachable_from(g, c, "a", 1) == ["a", "b", "c"]
    assert graphs.moves_between(g, c, "e", "a") == -1


LAND, SEA = "land", "sea"


def test_tiles_fit_by_their_edges_and_areas_complete() -> None:
    island = (LAND,) * 6
    coast = (LAND, LAND, LAND, SEA, SEA, SEA)
    board: dict[Hex, tuple[str, ...]] = {Hex(0, 0): island}
    assert tiles.rotated(coast, 1) == (SEA, LAND, LAND, LAND, SEA, SEA)
    # East of the island, the coast must show land westward (direction 3).
    assert tiles.misfits(board, Hex(1, 0), coast) == [3]
    assert tiles.fits(board, Hex(1, 0), tiles.rotated(coast, 3))
    assert not tiles.fits(board, Hex(5, 5), island)  # not next to any tile
    assert not tiles.fits(board, Hex(0, 0), island)  # taken
    spots = tiles.placements(board, coast)
    assert (Hex(1, 0), 3) in spots and all(cell != Hex(0, 0) for cell, _ in spots)
    assert not tiles.is_complete(board, Hex(0, 0), LAND)
    for cell in hexgrid.neighbours(Hex(0, 0)):
        board[cell] = island
    assert tiles.area(board, Hex(0, 0), LAND) == frozenset(board)
    assert not tiles.is_complete(board, Hex(0, 0), LAND)  # the ring's outer edges are open
    lake = {Hex(0, 0): (SEA,) * 6}
    assert tiles.is_complete(
        {**lake, **{n: island for n in hexgrid.neighbours(Hex(0, 0))}}, Hex(0, 0), SEA
    )


def test_a_game_uses_a_library_module(tmp_path: Path) -> None:
    from test_definitions import build, new_game

    game_cards = """\
game tiny "Tiny" {
  use decks, dice
  counter coins
  zone hand, deck, discard
  trigger reveal "a card is revealed"
  kind event "an event" { }
}
"""
    ir, module = build(
        tmp_path,
        'event "Windfall" {\n  on reveal {\n    draw_or_reshuffle deck discard hand 2\n'
        "    gain coins roll(2d6)\n  }\n}\n",
        game_cards,
    )
    g = new_game(ir, module)
    g.scripted_dice = [3, 4]
    g.players[0].zones["discard"][:] = ["x", "y"]
    g.run("windfall", "reveal")
    assert sorted(g.players[0].zones["hand"]) == ["x", "y"]
    assert g.players[0].counters["coins"] == 7


def test_tiles_from_the_dsl_fit_place_and_complete_areas() -> None:
    g, c = game()
    island, lake = (LAND,) * 6, (SEA,) * 6
    coast = (LAND, LAND, LAND, SEA, SEA, SEA)
    assert tiles.tile_fits(g, c, (0, 0), lake)  # the first tile goes anywhere
    tiles.place_tile(g, c, (0, 0), lake, 0)
    assert g.board["tiles"] == {Hex(0, 0): lake}
    # East of the lake the coast must show sea westward: turned 0, its west edge (3) is sea.
    assert tiles.tile_fits(g, c, (1, 0), coast)
    assert not tiles.tile_fits(g, c, (1, 0), island)
    with pytest.raises(RuleError, match="does not fit"):
        tiles.place_tile(g, c, (1, 0), island, 0)
    assert (Hex(1, 0), 0) in tiles.tile_placements(g, c, coast)
    assert not tiles.area_complete(g, c, (0, 0), SEA)
    for cell in hexgrid.neighbours(Hex(0, 0)):
        turns = next(t for cl, t in tiles.tile_placements(g, c, coast) if cl == cell)
        tiles.place_tile(g, c, cell, coast, turns)
    assert tiles.area_cells(g, c, (0, 0), SEA)[0] == Hex(-1, 0)
    assert tiles.area_complete(g, c, (0, 0), SEA) is False  # the coasts' sea edges face out
    assert tiles.area_complete(g, c, (0, 0), LAND) is False  # a lake has no land
    assert [e for e in g.events if e[0] == "place_tile"][0][2] == (0, 0)
    # A lake ringed by islands is a complete sea.
    g2, c2 = game()
    g2.board["tiles"] = {Hex(0, 0): lake, **{n: island for n in hexgrid.neighbours(Hex(0, 0))}}
    assert tiles.area_complete(g2, c2, (0, 0), SEA)
    assert tiles.area_cells(g2, c2, (0, 0), SEA) == [Hex(0, 0)]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda g, c: tiles.tile_fits(g, c, (0, 0), 3), "not a tile"),
        (lambda g, c: tiles.tile_fits(g, c, "groceries", (LAND,) * 6), "not a hex cell"),
        (lambda g, c: tiles.place_tile(g, c, (0, 0), (LAND,) * 6, "two"), "turns is a number"),
        (lambda g, c: tiles.area_complete(g, c, (4, 4), LAND), "no tile lies at"),
        (lambda g, c: hexes.hex_distance(g, c, 3, (0, 0)), "not a hex cell"),
        (lambda g, c: hexes.hex_ring(g, c, [], 1), "not a hex cell"),
        (lambda g, c: hexes.hex_areas(g, c, 7), "a list of cells"),
        (lambda g, c: graphs.reachable_from(g, c, "atlantis", 2), "not a space of the map"),
        (lambda g, c: graphs.moves_between(g, c, "a", []), "not a space of the map"),
    ],
)
def test_a_value_of_the_wrong_kind_is_a_rule_error(call: Any, message: str) -> None:
    # A card may pass anything to an `any` parameter: a number, a name, a list. The library
    # refuses it with a RuleError saying what it wanted, never a Python error of its own.
    g, c = game()
    g.board["graph"] = {"a": ["b"], "b": []}
    with pytest.raises(RuleError, match=message):
        call(g, c)


def test_the_library_covers_what_games_reach_for() -> None:
    # Issue 11, item 4: dice, decks (shuffle, draw, reshuffle the discard), zones, markets,
    # counters and tracks, hex grids (distance, neighbours, lines, rings, connected areas),
    # reach over a map graph, edge-matched tile placement, area completion, majorities.
    wanted = {
        "dice": {"roll", "difference", "successes", "doubles"},
        "decks": {"shuffle", "draw_from", "draw_or_reshuffle", "reshuffle", "look_at"},
        "zones": {"holds", "cards_in", "move_card", "move_all"},
        "markets": {"refill_market", "take_from_market", "market_cards"},
        "counters": {"marked", "boxes_left", "track_full", "erase", "at_max", "total_of"},
        "hexes": {"hex_distance", "hex_neighbours", "hex_line", "hex_ring", "hex_areas"},
        "graphs": {"reachable_from", "moves_between"},
        "tiles": {"tile_fits", "tile_placements", "place_tile", "area_cells", "area_complete"},
        "majorities": {"most_of", "has_majority"},
    }
    for module, names in wanted.items():
        assert names <= set(LIBRARY[module]), (module, names - set(LIBRARY[module]))


MARKET_GAME = """\
game tiny "Tiny" {
  use markets
  counter coins
  zone hand, deck, shop
  trigger reveal "a card is revealed"
  kind event "an event" { property copies number optional }
  kind art "an artwork" { property copies number optional }
}
"""

#: Two kinds with copies: build_deck would deal both into the market; stock_market deals the
#: artworks alone.
MARKET_CARDS = """\
event "Opening" {
  on reveal {
    stock_market shop art
    refill_market shop 2
  }
}
event "Storm" { copies 3 }
art "Vase" { copies 2 }
art "Bowl" { }
"""


def test_a_market_is_stocked_from_a_kind_not_every_card_with_copies(tmp_path: Path) -> None:
    from test_definitions import build, new_game

    ir, module = build(tmp_path, MARKET_CARDS, MARKET_GAME)
    g = new_game(ir, module)
    g.run("opening", "reveal")
    c = Context(g.players[0], "", "test")
    dealt = markets.market_cards(g, c, "shop") + g.board["deck:shop"]
    assert sorted(dealt) == ["bowl", "vase", "vase"]
    assert len(markets.market_cards(g, c, "shop")) == 2
    with pytest.raises(RuleError, match="'storm!' is not a card of this game"):
        markets.stock_market(g, c, "shop", ["vase", "storm!"])


def test_a_market_refilled_from_a_deck_nothing_stocks_is_an_error_at_the_refill(
    tmp_path: Path,
) -> None:
    from test_definitions import compile_text

    result = compile_text(
        tmp_path, MARKET_CARDS.replace("    stock_market shop art\n", ""), MARKET_GAME
    )
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert [(d.code, d.span.line, d.span.column) for d in errors] == [("deck-undefined", 3, 5)]
    assert errors[0].message == (
        "'refill_market shop' takes from a deck of shop, and nothing in this game builds one"
    )
    assert (
        errors[0]
        .hints[0]
        .startswith(
            "stock its deck in the flow's setup from the kind of card it sells "
            "(stock_market shop KIND), or build_deck shop for every card with copies"
        )
    )
