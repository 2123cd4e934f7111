"""A third, independent tester's Land vs Sea: Uncharted, written from the rulebook
(/work/shared/rulebooks/land-vs-sea-uncharted.txt) and the README alone: the hint a designer
gets for a member of a placement (``placed.menhir``), new tiles and a scoring layer
(tests/data/audit3_land_vs_sea/audit3.cards) and house rules (its variants/), each built into a
copy of the game, played by scenarios that show their difference, and simulated. (The rule
cases are tests/scenarios/land_vs_sea/audit3_rules.yaml.)
"""

from __future__ import annotations

import importlib
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from probing import (
    assert_cases_hold,
    audit_files,
    copy_game,
    diagnostics_with_card_file,
    printed_texts,
)

from compiler.sheets.lint import _problems
from engine import sim
from engine.hexgrid import Hex

GAME = "land_vs_sea"
DATA = Path(__file__).resolve().parent / "data" / "audit3_land_vs_sea"

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


@pytest.mark.parametrize(
    ("member", "asked"),
    [
        ("menhir", "has_menhir(placed)"),
        ("city", "has_city(placed)"),
        ("bandit", "is_bandit(placed)"),
        ("ship", "ships(placed)"),
    ],
)
def test_a_member_of_a_placement_points_at_the_native_that_asks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, member: str, asked: str
) -> None:
    # "Menhirs allow you to score all the bonus points along ley lines": a designer writing a
    # rule about the tile placed reaches for `placed.menhir`. `placed` is a place on the
    # board, not a card of a kind, so the fix is the game's own question, not a `param
    # placed KIND` in game.cards.
    cards = (
        f'rule "Probe" {{\n  on tile_placed {{\n    if placed.{member} {{ score 1 }}\n  }}\n}}\n'
    )
    (problem,) = diagnostics_with_card_file(tmp_path, monkeypatch, GAME, cards)
    assert problem.code == "member-unknown"
    assert (problem.span.line, problem.span.column) == (3, 8)
    assert problem.hints[0].startswith(f"'placed' is not a card of a kind; ask the game: {asked} (")
    assert not any("param placed KIND" in hint for hint in problem.hints)


def test_a_member_nothing_asks_keeps_the_declaration_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = 'rule "Probe" {\n  on tile_placed {\n    if placed.stars { score 1 }\n  }\n}\n'
    (problem,) = diagnostics_with_card_file(tmp_path, monkeypatch, GAME, cards)
    assert problem.hints == (
        "say which kind of card 'placed' is in game.cards: "
        "trigger tile_placed { param placed KIND }",
    )


VARIANTS = ("aids_last", "corsairs", "sea_head_start")


def test_the_new_cards_and_house_rules_hold_their_cases(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    assert_cases_hold(built_copy, GAME, DATA, VARIANTS, 7)


def test_the_new_layers_score_in_whole_games_and_the_house_rules_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    folder = built_copy(GAME, audit_files(DATA)) / GAME
    base = sim.simulate(folder, 3, 2, "competitive", "greedy", cards=False)
    again = sim.simulate(folder, 3, 2, "competitive", "greedy", cards=False)
    # Seeded: the same seed plays the same games.
    assert base.tally.scores == again.tally.scores
    # Both new layers are in play and score in whole games (the triangulation only when a
    # placement forms 2 Ley lines, the capitals at the end game).
    assert base.tally.points_by.get("triangulation_scoring", 0) > 0
    assert base.tally.points_by.get("capital_scoring", 0) > 0
    for name in VARIANTS:
        report = sim.simulate(folder / name, 3, 2, "competitive", "greedy", cards=False)
        assert report.games == 3, name
    corsairs = sim.simulate(folder / "corsairs", 3, 2, "competitive", "greedy", cards=False)
    assert "bandit_and_pirate_scoring" not in corsairs.tally.points_by
    assert corsairs.tally.points_by.get("corsair_scoring", 0) > 0


def test_a_loop_over_every_trade_route_reads_for_every_trade_route(tmp_path: Path) -> None:
    # The end game layer's card said "for each trade route in every trade route on the board":
    # a list the reference words as "every ..." is the loop itself.
    folder = copy_game(tmp_path, GAME)
    shutil.copy(DATA / "audit3.cards", folder / "audit3.cards")
    text = printed_texts(folder, {"audit3.cards"})["Capital scoring"]
    assert "for every trade route on the board where" in text
    assert "in every trade route" not in text
    sentence = "for every trade route on the board where"
    assert _problems(text[text.index(sentence) :].split(" [")[0]) == []


def test_of_several_natives_the_one_about_the_value_is_named_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "score all the bonus points on the tiles in-between": `line.bonus` of a Ley line is
    # bonus_between(line), whose words are about a ley line, before area_bonus(line).
    cards = (
        'rule "Probe" {\n  on tile_placed {\n'
        "    for each line in new_ley_lines(placed) {\n      score line.bonus\n    }\n  }\n}\n"
    )
    (problem,) = diagnostics_with_card_file(tmp_path, monkeypatch, GAME, cards)
    assert (problem.span.line, problem.span.column) == (4, 13)
    assert [hint.split(" (")[0] for hint in problem.hints] == [
        "'line' is not a card of a kind; ask the game: bonus_between(line)",
        "'line' is not a card of a kind; ask the game: area_bonus(line)",
    ]


# -- the greedy weighs a designer's layer (cards/land_vs_sea/policy.py: Trials) ----------------


def _policy_of(game: object) -> Any:
    """The copy's own policy module (the game's Python loaded from the built copy)."""
    package = type(game).__module__.rsplit(".", 1)[0]
    return importlib.import_module(f"{package}.policy")


def _play(folder: Path, games: int, blind: bool = False) -> Counter[str]:
    """Points per layer over ``games`` seeded 2-player greedy games; ``blind``: a greedy
    weighing the shipped layers only, as before it tried the others (no trials)."""
    simulator = sim.Simulator(folder)
    points: Counter[str] = Counter()
    for number in range(1, games + 1):
        game = simulator.new_game(
            sim.game_seed(1, number), 2, "competitive", simulator.factory("greedy")
        )
        if blind:
            game.map.notes["trials"] = None  # type: ignore[attr-defined]
        game.play_game()  # type: ignore[attr-defined]
        points.update(game.points_by)  # type: ignore[attr-defined]
    return points


def test_the_greedy_aims_for_a_house_rules_new_layer(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    # The Corsairs house rule takes Bandit and Pirate scoring out and adds a layer scoring
    # every Caravan and Ship of the route a Bandit or Pirate joins. The greedy knew only the
    # shipped layers by name: it scored the new one by chance (5.3 points a game against 22.0
    # for the layer it replaces, bench/sim_lvs.py). Weighed by a trial, it is aimed for.
    text = (DATA / "variants" / "corsairs.yaml").read_text(encoding="utf-8")
    folder = built_copy(GAME, {"variants/corsairs.yaml": text}) / GAME
    games = 12
    played = _play(folder / "corsairs", games)
    # Seeded: a trial draws nothing at random, so the same seed still plays the same games.
    assert _play(folder / "corsairs", games) == played
    aimed = played["corsair_scoring"]
    blind = _play(folder / "corsairs", games, blind=True)["corsair_scoring"]
    shipped = _play(folder, games)["bandit_and_pirate_scoring"]
    assert blind > 0  # (the blind greedy scores it now and then: a fair comparison)
    assert aimed >= 3 * blind, (aimed, blind)
    # Raids that take every icon of the route score at least what raids taking one kind do,
    # when aimed for alike.
    assert aimed >= shipped, (aimed, shipped)


#: A house rule of this test's own answering area_completed by scoring: every area completed
#: scores 1 more, 2 more again with a City in it.
HARBOURS = """description: Harbours (a test's house rule) - completed areas score more
add: |
  layer "Harbour scoring" {
    box uncharted
    on area_completed {
      score 1
      if has_city(area) {
        score 2
      }
    }
  } @provisional("a test's house rule")
"""


@pytest.mark.parametrize(
    ("variant", "tried"),
    [
        # Triangulation scoring answers tile_placed; the Corsairs' layer route_joined; the
        # Harbours' area_completed.
        ("", {"triangulation_scoring"}),
        ("corsairs", {"triangulation_scoring", "corsair_scoring"}),
        ("harbours", {"triangulation_scoring", "harbour_scoring"}),
    ],
)
def test_a_trial_reads_what_the_new_layers_score_and_changes_nothing(
    built_copy: Callable[[str, dict[str, str]], Path], variant: str, tried: set[str]
) -> None:
    files = {**audit_files(DATA), "variants/harbours.yaml": HARBOURS}
    folder = built_copy(GAME, files) / GAME
    simulator = sim.Simulator(folder / variant if variant else folder)
    game: Any = simulator.new_game(
        sim.game_seed(2, 1), 2, "competitive", simulator.factory("greedy")
    )
    policy = _policy_of(game)
    game.run_section("setup")
    trials = policy.Trials.of(game)
    cards = {card for card, _ in trials.placed + trials.completed + trials.joined}
    # The shipped layers are weighed by name, never tried.
    assert cards == tried and not cards & policy.SHIPPED
    scoring = checked = 0
    for turn in range(200):
        player = game.players[turn % 2]
        found = game.options(player)
        if not found:
            break
        game.offered = found
        side = game.side_of(player)
        answer = policy.Greedy.placement(game, side, found)
        # The turn's weighing (sets of cells) picks what weighing each placement does.
        options = tuple(found)
        values = [policy.placement_value(game, side, *found.lookup(o)[2:]) for o in options]
        assert answer == options[values.index(max(values))]
        checked += 1
        index, _face, cell, tile = found.lookup(answer)
        tiles, last, events = dict(game.tiles), game.last, len(game.events)
        points = [p.counters["points"] for p in game.players]
        predicted = trials.points(game, player, cell, tile)
        # A trial changes nothing of the game.
        assert (dict(game.tiles), game.last, len(game.events)) == (tiles, last, events)
        assert [p.counters["points"] for p in game.players] == points
        assert list(game.tiles) == list(tiles)  # (nor the order the tiles went down in)
        before = sum(game.points_by.get(card, 0) for card in tried)
        game.hand(player).pop(index)
        game.put_placed(player, cell, tile)
        game.score_placement(player)
        game.draw_tiles(player)
        scored = sum(game.points_by.get(card, 0) for card in tried) - before
        assert predicted == scored, (turn, cell)
        scoring += scored > 0
    assert scoring >= 3 and checked >= 60, (scoring, checked)


def test_a_handler_that_does_more_than_score_is_not_tried() -> None:
    from engine.loader import rules_module

    policy = importlib.import_module(f"{rules_module(GAME).__package__}.policy")
    score = {"kind": "verb", "verb": "score", "origin": "prelude", "args": [1]}
    gain = {"kind": "verb", "verb": "gain", "origin": "prelude", "args": ["points", 1]}
    assert policy._scores_only([{"kind": "if", "cond": True, "then": [score], "else": []}])
    # A counter gained, or a question asked, would change the game or wait for an answer.
    assert not policy._scores_only([{"kind": "if", "cond": True, "then": [gain], "else": []}])
    assert not policy._scores_only([{"kind": "may", "body": [score]}])


def test_a_raider_joining_two_routes_is_tried_on_each(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    # Two trade routes, a Caravan each, on either side of an empty cell: a Bandit there joins
    # both, and the Corsairs' layer scores each route's icons (route_joined fires per route).
    text = (DATA / "variants" / "corsairs.yaml").read_text(encoding="utf-8")
    folder = built_copy(GAME, {"variants/corsairs.yaml": text}) / GAME / "corsairs"
    simulator = sim.Simulator(folder)
    game: Any = simulator.new_game(
        sim.game_seed(1, 1), 2, "competitive", simulator.factory("greedy")
    )
    policy = _policy_of(game)
    board = importlib.import_module(f"{policy.__package__}.board")
    game.put_tile((1, 0), board.Tile.land(caravans=1))
    game.put_tile((-1, 0), board.Tile.land(caravans=2, ships=1))
    bandit = board.Tile.land(bandit=True)
    land = game.player_for("land")
    trials = policy.Trials.of(game)
    assert trials.points(game, land, Hex(0, 0), bandit) == 1 + 3
    # Placed by the other side, the points are that side's (a trial scores for the placer).
    assert trials.points(game, game.player_for("sea"), Hex(0, 0), bandit) == 4
    plain = board.Tile.land()
    assert policy.placement_value(game, "land", Hex(0, 0), bandit) == (
        policy.placement_value(game, "land", Hex(0, 0), plain) + policy.POINT_WEIGHT * 4
    )
    game.put_placed(land, Hex(0, 0), bandit)
    game.score_placement(land)
    assert game.points_by["corsair_scoring"] == 4
