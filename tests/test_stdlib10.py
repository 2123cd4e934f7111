"""What a game designer with only the README found writing two games on the standard library
(stdlib10; tests/data/stdlib10/): Bazaar, a deck-builder (decks, zones, markets, counters,
dice, majorities), and Hexlands, a hex tile-laying game (hexes, tiles, graphs, majorities).

- ``for each p in most_of(silk) { score 1 }`` scored the player the loop ran for once per
  leader (seat 1 in the end phase took every point) instead of each leader: a loop over a
  list of players that a library native gives acts as each, as one over ``players`` does.
- A deck-builder could not play a card and keep it: the prelude's ``play X`` asks whether to
  play it and takes a copy out of the player's zones (the first zone holding one, the deck's
  when a Copper lies there too), ``play_one`` takes it out of the hand for good. The
  ``zones`` module's ``play_card CARD SOURCE TARGET`` moves it (hand to discard) and does
  what it says.
- A tile's edges written on a card (``edges forest, field, ...``, six clauses of one name)
  stopped the game: "[['forest'], ['field'], ...] is not a tile". Each one-name clause is
  now that name, as a cell's one clause of two numbers is the cell.
- ``tile_placements``' words ("the places {tile} fits") printed "the number of the places the
  tile's edges fits is higher than 0", which the text lint refused, failing ``cardc check``.
- ``choose spot in tile_placements(land.edges) { place_tile spot land.edges }``: the place,
  a cell and its turns, was "not a hex cell"; ``place_tile`` now lays the tile there, turned.
- ``is_empty(shop)`` of a market read the player's zone ``shop``, which a market never fills:
  a ``market-zone`` warning now names ``market_cards`` and ``in_market``.
- A scenario could not give a market's row (Bazaar has no Python for a ``GIVEN`` hook):
  ``markets: {shop: [...]}`` is now a key of every game that uses markets.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_variant_hardening import run

from engine.runtime import RuleError
from engine.stdlib import spec
from engine.stdlib.tiles import _tile

pytestmark = pytest.mark.usefixtures("fresh_file_cache")

DATA = Path(__file__).resolve().parent / "data" / "stdlib10"


def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project holding copies of Bazaar and Hexlands and their scenarios, made current."""
    shutil.copytree(DATA / "cards", tmp_path / "cards")
    shutil.copytree(DATA / "scenarios", tmp_path / "tests" / "scenarios")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\nscenarios = "tests/scenarios"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Path:
    """The two games copied and built (no sheets)."""
    project = _project(tmp_path, monkeypatch)
    status, out = run(capsys, "build", "--no-sheets")
    assert status == 0, out
    return project


def test_both_games_check_without_a_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Both games and their variants check clean: the text lint read 'the places the tile's
    edges fits is' in Hexlands' lay phase and refused it."""
    _project(tmp_path, monkeypatch)
    status, out = run(capsys, "check")
    assert status == 0, out
    assert "no errors" in out and "warning" not in out, out


def test_both_games_pass_their_scenarios_and_variants(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every scenario of both games passes (one on Hexlands' Quick draw), and Bazaar's on its
    Market day variant too."""
    status, out = run(capsys, "test")
    assert status == 0, out
    assert "7 of 7 scenarios passed" in out, out
    status, out = run(capsys, "test", "--variant", "market_day", "tests/scenarios/bazaar")
    assert status == 0, out


def test_a_loop_over_most_of_scores_each_leader(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Bazaar's end: 'each merchant tied for the most silk scores 1' gives 1 to each of the two
    tied merchants (seat 1 had taken 2, seat 2 none)."""
    status, out = run(capsys, "test", "tests/scenarios/bazaar/market.yaml")
    assert status == 0, out
    handlers = (built / "generated" / "bazaar" / "handlers.py").read_text(encoding="utf-8")
    loop = handlers.index("stdlib_majorities.most_of(")
    assert "for_player(v_p)" in handlers[loop : loop + 300]
    assert spec("most_of") is not None and spec("most_of").items == "player"  # type: ignore[union-attr]


def test_play_card_keeps_the_card_in_the_players_deck(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A played card goes where play_card puts it (the discard pile) and does what it says;
    no copy elsewhere is lost and no question is asked."""
    from engine.loader import new_game

    game = new_game(built / "generated" / "bazaar", players=2, seed=3)
    game.run_section("setup")
    player = game.players[0]
    before = sorted(player.zones["deck"] + player.zones["hand"])
    game.run_phase("play")
    assert sorted(player.zones["deck"] + player.zones["discard"]) == before
    assert player.zones["hand"] == []
    assert player.counters["coins"] >= len(before) - len(player.zones["deck"])
    assert not any(event[0] == "decision" and "play." in str(event[2]) for event in game.events)


def test_a_tile_written_on_a_card_is_read_as_its_six_edges() -> None:
    """A card's six one-name clauses are the tile's six labels; anything else still is not a
    tile."""
    card = [["forest"], ["field"], ["field"], ["field"], ["field"], ["road"]]
    assert _tile(card, "tile_fits") == ("forest", "field", "field", "field", "field", "road")
    assert _tile(["a"] * 6, "tile_fits") == ("a",) * 6
    with pytest.raises(RuleError, match="not a tile"):
        _tile([["forest", "field"]] * 6, "tile_fits")
    with pytest.raises(RuleError, match="not a tile"):
        _tile([["forest"]] * 5, "tile_fits")


def test_hexlands_lays_a_card_tile_and_scores_it(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hexlands' lay phase places the tile a card prints (it stopped the game before)."""
    status, out = run(capsys, "test", "tests/scenarios/hexlands/laying.yaml")
    assert status == 0, out


@pytest.mark.parametrize("name", ["tile_fits", "tile_placements"])
def test_tile_words_agree_with_a_plural_tile(name: str) -> None:
    """The words never make a verb agree with the tile ('the tile's edges fits')."""
    found = spec(name)
    assert found is not None and found.words is not None
    assert "fits" not in found.words


def test_place_tile_takes_a_place_tile_placements_gives(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``choose spot in tile_placements(tile.edges) { place_tile spot tile.edges }`` lays the
    tile at the spot's cell turned as the spot says (Hexlands' Quick draw); the spot, a cell
    and its turns, was 'not a hex cell'."""
    status, out = run(capsys, "test", "tests/scenarios/hexlands/laying.yaml")
    assert status == 0 and "3 of 3 scenarios passed" in out, out
    from engine.hexgrid import Hex
    from engine.stdlib.tiles import _is_placement

    assert _is_placement((Hex(1, 0), 3))
    assert not _is_placement((1, 0))  # a plain pair is a cell
    assert not _is_placement((Hex(1, 0), True))


def test_a_market_read_as_a_players_zone_is_warned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``is_empty(shop)`` of Bazaar's market reads the player's zone 'shop', always empty (the
    row is the board's): an end condition 'the market ran out' ended the game at once. It is
    a market-zone warning at its statement, naming what to ask instead."""
    project = _project(tmp_path, monkeypatch)
    (project / "cards" / "bazaar" / "mistakes.cards").write_text(
        'ware "Oops" {\n  cost 1\n  on play {\n    if is_empty(shop) { gain coins 1 }\n'
        "    move_card copper hand discard\n  }\n}\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 0, out
    assert "mistakes.cards:4:5: warning[market-zone]: 'is_empty' works on the player's" in out
    assert "market_cards(shop)" in out
    assert out.count("market-zone") == 1, out  # hand and discard are no market


def test_a_scenario_gives_and_expects_a_markets_row(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``markets: {shop: [...]}`` sets and checks a market's face-up row in a game that uses
    markets (Bazaar has no Python to give it), each card and market checked at its line, and
    the game's scenario schema offers the key."""
    import json

    status, out = run(capsys, "test", "tests/scenarios/bazaar/market.yaml")
    assert status == 0 and "4 of 4 scenarios passed" in out, out
    wrong = built / "tests" / "scenarios" / "bazaar" / "wrong.yaml"
    wrong.write_text(
        "scenario: a misspelt ware\ngame: bazaar\ngiven:\n  markets: {shop: [gld]}\n"
        "expect:\n  markets: {shop: 3}\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "test", str(wrong))
    assert status == 1, out
    assert "wrong.yaml:4:" in out and "'gld' is not a card; did you mean 'gold'?" in out, out
    schema = json.loads(
        (built / "generated" / "bazaar" / "scenario.schema.json").read_text(encoding="utf-8")
    )
    assert "markets" in json.dumps(schema["$defs"]["given"]), schema["$defs"]["given"]
    hexlands = json.loads(
        (built / "generated" / "hexlands" / "scenario.schema.json").read_text(encoding="utf-8")
    )
    assert "markets" not in json.dumps(hexlands["$defs"]["given"])  # no markets in Hexlands
