"""Land vs Sea: Uncharted as a whole game: the box as data, the map's bookkeeping against the
reference searches, whole games in every mode, and scenario tile specs checked at their line.

Rulebook: /work/shared/rulebooks/land-vs-sea-uncharted.txt.
"""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path

import pytest

from engine.loader import new_game, rules_module
from engine.runtime import IllegalDecision, Question, RandomLegal, Scripted
from engine.scenario import Runner
from engine.sim import Simulator, game_seed

ROOT = Path(__file__).resolve().parents[1]
GENERATED = ROOT / "generated"
_natives = rules_module("land_vs_sea")
board = importlib.import_module(f"{_natives.__package__}.board")


def _cards(kind: str) -> list[dict]:  # type: ignore[type-arg]
    g = new_game(GENERATED / "land_vs_sea", players=2)
    return [c for c in g.cards.values() if c["kind"] == kind]


def _parts() -> set[str]:
    return {p[0] for c in _cards("starting_tile") for p in c["properties"]["parts"]}


# -- the box ------------------------------------------------------------------------------------


def test_the_box_holds_24_tiles_2_starting_tiles_2_special_tiles_and_6_tokens() -> None:
    # "2 new double sided special tiles / 24 double sided hex tiles / 2 large double sided
    #  starting tiles / 6 Bonus scoring tokens: +50/+100"
    tiles = [c for c in _cards("hex_tile") if c["id"] not in _parts()]
    uncharted = [c for c in tiles if c["properties"]["box"] == "uncharted"]
    assert len(uncharted) == 24 and all("copies" not in c["properties"] for c in uncharted)
    # "the 58 base game tiles" (modelled).
    base = [c for c in tiles if c["properties"]["box"] == "base_game"]
    assert sum(c["properties"].get("copies", 1) for c in base) == 58
    specials = {c["id"]: c["properties"]["box"] for c in _cards("tile")}
    assert [k for k, v in specials.items() if v == "uncharted"] == ["lost_city", "lost_traders"]
    assert specials["volcano_whirlpool"] == "base_game"
    starting = _cards("starting_tile")
    assert len(starting) == 2 and all(len(c["properties"]["parts"]) == 4 for c in starting)
    (token,) = _cards("bonus_token")
    assert token["properties"] == {"copies": 6, "front": 50, "back": 100}


def test_every_face_of_every_hex_tile_reads_as_six_edges_and_its_sections() -> None:
    for card in _cards("hex_tile"):
        for face in ("a", "b"):
            tile = board.face_tile(card, face)
            assert tile.letters == card["properties"][f"face_{face}"]
            assert tile.bonus == sum(
                n for clause in card["properties"].get(f"face_{face}_bonus", []) for n in clause[1:]
            )


def test_a_joined_face_is_one_section_of_its_side() -> None:
    isthmus = next(c for c in _cards("hex_tile") if c["id"] == "isthmus")
    tile = board.face_tile(isthmus, "a")  # LLSLLS, joined land: a land bridge
    assert [(s.side, sorted(s.edges)) for s in tile.sections] == [
        ("land", [0, 1, 3, 4]),
        ("sea", [2]),
        ("sea", [5]),
    ]


def test_a_face_that_is_not_six_edges_is_an_error_naming_its_card() -> None:
    card = {"id": "x", "title": "X", "source": "cards/x.cards:3", "properties": {"face_a": "LLX"}}
    with pytest.raises(Exception, match=r"cards/x.cards:3: X: face_a is six edges"):
        board.face_tile(card, "a")


# -- the map's bookkeeping ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [3, 4])
def test_the_map_keeps_areas_and_routes_as_the_searches_find_them(seed: int) -> None:
    g = new_game(GENERATED / "land_vs_sea", players=2, seed=seed, policies={-1: RandomLegal()})
    g.play_game()  # type: ignore[attr-defined]
    tiles = g.map.tiles  # type: ignore[attr-defined]
    assert len(tiles) > 40
    for cell, tile in tiles.items():
        for index in range(len(tile.sections)):
            state = g.map.area_of(cell, index)  # type: ignore[attr-defined]
            area = board.area_at(tiles, cell, index)
            assert frozenset(state.members) == area.members
            assert (state.open == 0) == board.is_complete(tiles, area)
            assert state.bonus == board.area_bonus(tiles, area)
        route = board.route_at(tiles, cell)
        kept = g.map.route_of(cell)  # type: ignore[attr-defined]
        assert (route is None) == (kept is None)
        if route is not None and kept is not None:
            assert kept.cells == set(route.cells)
            assert kept.city == board.route_has_city(tiles, route)


def _frontier_indexes_hold(g: object) -> int:
    """Check the map's frontier indexes against the frontier itself; the frontier's size."""
    m = g.map  # type: ignore[attr-defined]
    numbers = {cell: 1 << m.number[cell] for cell in m.frontier}
    for pattern in range(64):
        expected = sum(
            bit
            for cell, bit in numbers.items()
            if pattern & m.frontier[cell][0] == m.frontier[cell][1]
        )
        assert m.fits_cells(pattern) == expected
    for side in ("land", "sea"):
        for count in range(7):
            expected = sum(
                bit
                for cell, bit in numbers.items()
                if bin(
                    m.frontier[cell][1]
                    if side == "land"
                    else m.frontier[cell][0] & ~m.frontier[cell][1]
                ).count("1")
                == count
            )
            assert m.matching[side][count] == expected
    closable = m.closable()
    for cell, bit in numbers.items():
        assert bool(m.near_routes & bit) == bool(m.routes_next_to(cell))
        assert closable.get(cell, 0) == m.completable(cell)
    for state in {id(s): s for s in m._area.values()}.values():
        assert sum(state.facing.values()) == state.open
    return len(numbers)


@pytest.mark.parametrize("seed", [3, 4])
def test_the_frontier_indexes_follow_the_map(seed: int) -> None:
    # Which cells each edge pattern fits, the edges of each side matched, the cells next to a
    # trade route, and the only cells where an area can close, as sets of cells, kept up
    # tile by tile: checked against the frontier after every placement of a whole game.
    g = new_game(GENERATED / "land_vs_sea", players=2, seed=seed, policies={-1: RandomLegal()})
    g.run_section("setup")  # type: ignore[attr-defined]
    checked = 0
    for turn in range(200):
        player = g.players[turn % 2]
        found = g.options(player)  # type: ignore[attr-defined]
        if not found:
            break
        _frontier_indexes_hold(g)
        option = found[g.rng.randrange(len(found))]
        index, _face, cell, tile = found.lookup(option)
        g.hand(player).pop(index)  # type: ignore[attr-defined]
        g.map.put(cell, tile)  # type: ignore[attr-defined]
        g.draw_tiles(player)  # type: ignore[attr-defined]
        checked += 1
    assert checked > 40


def test_the_placements_are_every_held_tile_at_every_cell_it_fits_in_order() -> None:
    # The answers to place_tile as the game lists them: each held tile (in hand order), face
    # up then hidden, each distinct turn, at each frontier cell it fits, in frontier order.
    g = new_game(GENERATED / "land_vs_sea", players=2, seed=6, policies={-1: RandomLegal()})
    g.run_section("setup")  # type: ignore[attr-defined]
    for turn in range(30):
        player = g.players[turn % 2]
        found = g.options(player)  # type: ignore[attr-defined]
        expected = {
            f"{index}{face}@{cell.q},{cell.r}r{turns}": (index, face, cell, tile)
            for index, held in enumerate(g.hand(player))  # type: ignore[attr-defined]
            for face in (held.up, held.hidden)
            for turns, tile in g.rotations(held.card, face)  # type: ignore[attr-defined]
            for cell, (mask, land) in g.map.frontier.items()  # type: ignore[attr-defined]
            if tile.land_bits & mask == land
        }
        listed = list(expected)
        assert list(found) == listed
        assert len(found) == len(listed)
        assert [found[i] for i in range(len(found))] == listed
        assert found[-1] == listed[-1]
        assert found[:12] == listed[:12]
        assert all(
            option in found and found.lookup(option) == expected[option] for option in listed
        )
        # Not an option: another cell, another turn of a tile that lies one way fewer, a
        # number written otherwise, anything else.
        index, face, cell, _tile = expected[listed[0]]
        for wrong in (
            f"{index}{face}@{cell.q + 40},{cell.r}r0",
            f"0{index}{face}@{cell.q},{cell.r}r0",
            f"{index}{face}@{cell.q},{cell.r}r6",
            f"{index}{face}@{cell.q},{cell.r}r0 ",
            f"{len(g.hand(player))}a@{cell.q},{cell.r}r0",  # type: ignore[attr-defined]
            "",
            "none",
        ):
            assert wrong not in found
            assert wrong not in expected
        for option in (
            f"{i}{f}@{c.q},{c.r}r{t}"
            for i in range(2)
            for f in "ab"
            for c in g.map.frontier  # type: ignore[attr-defined]
            for t in range(6)
        ):
            assert (option in found) == (option in expected)
        chosen = found.lookup(listed[len(listed) // 2])
        g.hand(player).pop(chosen[0])  # type: ignore[attr-defined]
        g.map.put(chosen[2], chosen[3])  # type: ignore[attr-defined]
        g.draw_tiles(player)  # type: ignore[attr-defined]


def test_an_illegal_placement_is_refused_naming_the_first_options() -> None:
    g = new_game(GENERATED / "land_vs_sea", players=2, seed=6, policies={-1: RandomLegal()})
    g.run_section("setup")  # type: ignore[attr-defined]
    found = g.options(g.players[0])  # type: ignore[attr-defined]
    question = Question("place_tile", 0, "place a tile", found)
    assert question.refusal("9a@0,0r0") == Question(
        "place_tile", 0, "place a tile", tuple(found)
    ).refusal("9a@0,0r0")
    g.policies = {-1: Scripted([(None, "9a@0,0r0")])}
    with pytest.raises(IllegalDecision, match="'9a@0,0r0' is not a legal answer to 'place a tile'"):
        g.place_held_tile(g.players[0])  # type: ignore[attr-defined]


def test_a_preview_says_what_the_placement_then_completes() -> None:
    g = new_game(GENERATED / "land_vs_sea", players=2, seed=5, policies={-1: RandomLegal()})
    g.run_section("setup")  # type: ignore[attr-defined]
    checked = 0
    for _ in range(40):
        player = g.players[checked % 2]
        found = g.options(player)  # type: ignore[attr-defined]
        if not found:
            break
        option = sorted(found)[len(found) // 2]
        _index, _face, cell, tile = found.lookup(option)
        preview = g.map.preview(cell, tile)  # type: ignore[attr-defined]
        g.hand(player).pop(_index)  # type: ignore[attr-defined]
        done = g.map.put(cell, tile)  # type: ignore[attr-defined]
        assert sorted((s.side, len(s.cells), s.bonus) for s in done) == sorted(
            (side, size, bonus) for side, size, bonus, _city, _m in preview.completed
        )
        g.draw_tiles(player)  # type: ignore[attr-defined]
        checked += 1
    assert checked == 40


# -- whole games ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_whole_games_play_to_the_end_in_every_mode(players: int, policy: str) -> None:
    sim = Simulator(GENERATED / "land_vs_sea")
    game = sim.new_game(game_seed(1, 1), players, "competitive", sim.factory(policy))
    result = game.play_game()  # type: ignore[attr-defined]
    assert game.tiles_left() == 0 or game.idle >= players  # type: ignore[attr-defined]
    # 82 tiles in the stacks; a special tile into a hole is a bonus placement.
    assert 4 + 60 <= len(game.tiles) <= 4 + 82 + 3  # type: ignore[attr-defined]
    sides = [p.flags["side"] for p in game.players]
    assert sides.count("land") >= 1 and sides.count("sea") >= 1
    land = game.player_for("land").counters["points"]  # type: ignore[attr-defined]
    sea = game.player_for("sea").counters["points"]  # type: ignore[attr-defined]
    assert land + sea > 0
    assert sum(game.points_by.values()) == land + sea  # type: ignore[attr-defined]
    if land != sea:
        assert sides[result["winner"]] == ("land" if land > sea else "sea")


#: How ``cardc sim`` names the sides that win, by player count: head to head, the 3 player
#: asymmetric game (one Land player against a Sea team of two), the 4 player team game.
SIDE_LABELS = {
    2: {"Land", "Sea"},
    3: {"Land (alone)", "Sea (team of 2)"},
    4: {"Land team", "Sea team"},
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_cardc_sim_reports_wins_per_side_points_per_layer_and_length(players: int) -> None:
    # Issue 16: "cardc sim land_vs_sea --players 2|3|4 with win share per side, mean points per
    # layer and game length"; 50 games a mode, every one played to its end.
    from engine.sim import render_report, simulate

    report = simulate(
        GENERATED / "land_vs_sea", 50, 1, "competitive", "greedy", players=players, jobs=1
    )
    tally = report.tally
    assert tally.games == 50
    assert dict(tally.ends) == {"played to the end": 50}
    assert set(tally.wins) - {"no winner"} <= SIDE_LABELS[players]
    assert sum(tally.wins.values()) == 50
    layers = {
        "base_game",
        "caravan_and_ship_scoring",
        "menhir_scoring",
        "city_scoring",
        "bandit_and_pirate_scoring",
    }
    assert layers <= set(tally.points_by)
    if players == 2:
        # Every point scored is a layer's (or the base game's): head to head each seat shows
        # its own side's points.
        assert sum(score * n for score, n in tally.scores.items()) == sum(tally.points_by.values())
    # The game's length: a turn a seat; the stacks' 82 tiles last dozens of rounds of turns.
    assert tally.turns and min(tally.turns) >= 40 and tally.lengths and min(tally.lengths) >= 10
    text = render_report(report)
    assert "winner" in text and "points per layer" in text and "player 1" not in text
    for label in SIDE_LABELS[players] & set(tally.wins):
        assert label in text
    assert "Caravan and Ship scoring" in text and "base game" in text
    # The sides are the game's (every seat's seat_label), not read off the winners: a side that
    # never won is still named in the seat comparison.
    assert tally.sides == SIDE_LABELS[players]
    assert f"{sorted(tally.sides)[1]}'s win share minus {sorted(tally.sides)[0]}'s" in text
    # No ship sinks and no title is earned in Land vs Sea: the report has neither table.
    assert not tally.ships_sink and "sink rate" not in text
    assert "(no title)" not in text and "\ntitle " not in text
    # And the JSON a cluster run merges keeps both.
    again = type(tally).from_dict(tally.as_dict())
    assert again.sides == tally.sides and again.ships_sink is False


def test_a_report_names_the_sides_even_when_one_never_won() -> None:
    from engine.sim import render_report, simulate
    from engine.sim_figures import seat_labels

    report = simulate(GENERATED / "land_vs_sea", 3, 1, "competitive", "greedy", players=2, jobs=1)
    report.tally.wins.clear()
    report.tally.wins["Sea"] = 3
    assert seat_labels(report) == ("Land", "Sea")
    assert "Sea's win share minus Land's: -100.0 points" not in render_report(report)
    assert "Sea's win share minus Land's: +100.0 points" in render_report(report)


def test_the_same_seed_plays_the_same_game() -> None:
    sim = Simulator(GENERATED / "land_vs_sea")

    def once() -> tuple[object, ...]:
        game = sim.new_game(game_seed(7, 2), 2, "competitive", sim.factory("greedy"))
        result = game.play_game()  # type: ignore[attr-defined]
        return (tuple(result["scores"]), tuple(game.events))

    assert once() == once()


def test_the_experienced_mix_plays_without_its_removed_layers() -> None:
    sim = Simulator(GENERATED / "land_vs_sea" / "experienced")
    game = sim.new_game(game_seed(1, 1), 2, "competitive", sim.factory("greedy"))
    game.play_game()  # type: ignore[attr-defined]
    assert not {"menhir_scoring", "bandit_and_pirate_scoring"} & set(game.points_by)  # type: ignore[attr-defined]
    assert game.aids == {"city_scoring": "front"}  # type: ignore[attr-defined]


# -- scenario tile specs ------------------------------------------------------------------------


def test_a_tile_spec_with_a_misspelt_key_is_an_error_at_its_line(tmp_path: Path) -> None:
    scenario = tmp_path / "typo.yaml"
    scenario.write_text(
        textwrap.dedent(
            """\
            scenario: a typo
            game: land_vs_sea
            players: 2
            do:
              - action: place_tile
                player: 1
                args: {cell: [0, 0], tile: {side: land, bonuss: 5}}
            """
        ),
        encoding="utf-8",
    )
    results = list(Runner(GENERATED).run_file(scenario))
    assert len(results) == 1 and not results[0].passed
    assert (
        f"{scenario}:7:45: 'bonuss' is not a field of a one-sided tile; did you mean 'bonus'?"
        in results[0].message
    )


@pytest.mark.parametrize("seed", [3, 8])
def test_the_greedys_ley_values_are_what_the_rules_would_score(seed: int) -> None:
    # The frontier cells on a Menhir's row (_row_table, kept as Menhirs are added), and
    # _ley_value, which walks the rows without writing the lines down, and not towards a row's end
    # with no Menhir: at every frontier cell of a whole game, for a tile with and without a
    # Menhir, it says what ley_lines_formed and line_bonus (the rules' scoring) give.
    policy = importlib.import_module(f"{_natives.__package__}.policy")
    g = new_game(GENERATED / "land_vs_sea", players=2, seed=seed, policies={-1: RandomLegal()})
    g.run_section("setup")  # type: ignore[attr-defined]
    plain = board.Tile.split([0, 1, 2], land_bonus=2)
    menhir = board.Tile.split([0, 1, 2], land_bonus=1, menhir=True)
    checked = lines = 0
    for turn in range(200):
        player = g.players[turn % 2]
        found = g.options(player)  # type: ignore[attr-defined]
        if not found:
            break
        m = g.map  # type: ignore[attr-defined]
        rows = policy._menhir_rows(g) if m.menhirs else None
        # The rows table kept from turn to turn, and its sets of cells, as worked out afresh.
        table = policy._row_table(g)
        plain_rows, menhir_rows = m.notes["menhir_rows"][4:6]
        for cell in m.frontier:
            flags = policy._row_flags(rows, cell)
            assert table.get(cell, policy._NO_ROWS) == flags
            bit = 1 << m.number[cell]
            assert (bool(plain_rows & bit), bool(menhir_rows & bit)) == flags
            for tile in (plain, menhir):
                m.tiles[cell] = tile
                try:
                    formed = board.ley_lines_formed(m.tiles, cell)
                    total = sum(board.line_bonus(m.tiles, line) for line in formed)
                finally:
                    del m.tiles[cell]
                through = sum(1 for line in formed if cell in line.between)
                expected = (total - through * tile.bonus, through)
                assert policy._ley_value(g, cell, tile, rows) == expected
                assert policy._ley_value(g, cell, tile) == expected
                checked += 1
                lines += len(formed)
        option = found[g.rng.randrange(len(found))]
        index, _face, cell, tile = found.lookup(option)
        g.hand(player).pop(index)  # type: ignore[attr-defined]
        g.map.put(cell, tile)  # type: ignore[attr-defined]
        g.draw_tiles(player)  # type: ignore[attr-defined]
    assert checked > 1000 and lines > 10


@pytest.mark.parametrize("seed", [3, 8])
def test_the_ley_values_kept_from_turn_to_turn_are_what_the_rows_give_afresh(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The greedy keeps _ley_value by (cell, Menhir shown) from turn to turn, dropping those
    # whose walk ended at a gap now filled and those on a new Menhir's rows: each turn of a
    # whole game, every value it then reads as kept is the one _ley_value works out afresh.
    policy = importlib.import_module(f"{_natives.__package__}.policy")
    plain = board.Tile.split([0, 1, 2])
    menhir = board.Tile.split([0, 1, 2], menhir=True)
    kept_table = policy._ley_table
    checked = [0]

    def checking(game):  # type: ignore[no-untyped-def]
        values = kept_table(game)
        rows = policy._menhir_rows(game)
        for (cell, shown), value in values.items():
            tile = menhir if shown else plain
            assert policy._ley_value(game, cell, tile, rows) == value, (cell, shown)
            checked[0] += 1
        return values

    monkeypatch.setattr(policy, "_ley_table", checking)
    sim = Simulator(GENERATED / "land_vs_sea")
    game = sim.new_game(game_seed(seed, 1), 2, "competitive", sim.factory("greedy"))
    game.play_game()  # type: ignore[attr-defined]
    assert game.map.menhirs and checked[0] > 500  # type: ignore[attr-defined]


@pytest.mark.parametrize("seed", [3, 8])
def test_the_groups_kept_from_turn_to_turn_are_what_the_map_works_out_afresh(seed: int) -> None:
    # MapState.groups keeps its answers by cell until a tile put down changes an area with an
    # open edge facing that cell: at every frontier cell of a whole game, for every way of
    # sharing a tile's edges among its sections, the kept answer (asked each turn, so kept
    # ones are read) is the one a map with nothing kept works out.
    g = new_game(GENERATED / "land_vs_sea", players=2, seed=seed, policies={-1: RandomLegal()})
    g.run_section("setup")  # type: ignore[attr-defined]
    shapes = sorted(
        {
            turned.section_bits
            for cid, card in g.cards.items()
            if card["kind"] == "hex_tile"
            for face in ("a", "b")
            for _turns, turned in g.rotations(cid, face)  # type: ignore[attr-defined]
        }
    )
    checked = kept = 0
    for turn in range(200):
        player = g.players[turn % 2]
        found = g.options(player)  # type: ignore[attr-defined]
        if not found:
            break
        m = g.map  # type: ignore[attr-defined]
        for cell in m.frontier:
            for bits in shapes:
                kept += bits in m.grouped.get(cell, {})
                answer = m.groups(cell, bits)
                saved, m.grouped = m.grouped, {}
                try:
                    assert answer == m.groups(cell, bits), (turn, cell, bits)
                finally:
                    m.grouped = saved
                checked += 1
        option = found[g.rng.randrange(len(found))]
        index, _face, cell, tile = found.lookup(option)
        g.hand(player).pop(index)  # type: ignore[attr-defined]
        g.map.put(cell, tile)  # type: ignore[attr-defined]
        g.draw_tiles(player)  # type: ignore[attr-defined]
    assert checked > 5000 and kept > checked // 2


@pytest.mark.parametrize("players", [2, 4])
def test_the_greedy_turn_picks_the_first_best_placement_by_placement_value(players: int) -> None:
    # The greedy turn weighs each placement from what it works out once a turn; the reference
    # is placement_value, one placement at a time (a preview of the map and the Ley lines).
    policy = importlib.import_module(f"{_natives.__package__}.policy")
    sim = Simulator(GENERATED / "land_vs_sea")
    game = sim.new_game(game_seed(3, 1), players, "competitive", sim.factory("greedy"))
    game.run_section("setup")  # type: ignore[attr-defined]
    weighed = 0
    for turn in range(30):
        player = game.players[turn % players]
        found = game.options(player)  # type: ignore[attr-defined]
        if not found:
            break
        game.offered = found  # type: ignore[attr-defined]
        side = game.side_of(player)  # type: ignore[attr-defined]
        options = tuple(found)
        assert list(found.items()) == [(o, found.lookup(o)) for o in options]
        values = [policy.placement_value(game, side, *found.lookup(o)[2:]) for o in options]
        expected = options[values.index(max(values))]
        # The turn's own weighing (sets of cells), and one placement at a time.
        assert policy.Greedy.placement(game, side, found) == expected
        assert policy.Greedy.placement(game, side, options) == expected
        weighed += len(options)
        index, _face, cell, tile = found.lookup(expected)
        game.hand(player).pop(index)  # type: ignore[attr-defined]
        game.put_placed(player, cell, tile)  # type: ignore[attr-defined]
        game.score_placement(player)  # type: ignore[attr-defined]
        game.draw_tiles(player)  # type: ignore[attr-defined]
    assert weighed > 1000
