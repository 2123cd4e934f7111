"""What probing Land vs Sea: Uncharted as a designer found: new cards, tiles and house rules
written from the rulebook (/work/shared/rulebooks/land-vs-sea-uncharted.txt) that checked but
failed when played, or failed with a message that did not say where or why. Each test is the
designer's input on a temporary copy of the game, run through ``cardc`` in process.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from probing import copy_game
from test_variant_hardening import run

from compiler.sheets import SheetError
from compiler.sheets.model import _hex_faces
from compiler.sheets.reference import load_reference
from compiler.sheets.text import TextError

REPO = Path(__file__).resolve().parent.parent
GAME = "land_vs_sea"


# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary project with a copy of Land vs Sea, the current directory."""
    copy_game(tmp_path, GAME)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def add_cards(project: Path, text: str, name: str = "probe.cards") -> None:
    """A new card file in the copied game."""
    (project / "cards" / GAME / name).write_text(text)


# -- the card data the game's Python reads is checked at cardc check (CARD_CHECKS)


BROKEN_TILES = """\
hex_tile "Broken Face" {
  box uncharted
  face_a "LLLXLL"
  face_b "SSSSSS"
}
hex_tile "Broken Bonus" {
  box uncharted
  face_a "LLLSLL"
  face_b "SSSSSS"
  face_b_bonus sea 1 2 3
}
hex_tile "Broken Icons" {
  box uncharted
  face_a "LLLLLL"
  face_a_icons caravan land
  face_b "SSSSSS"
}
hex_tile "Sea Mountain" {
  box uncharted
  face_a "LLLLLL"
  face_b "SSSSSS"
  face_b_icons mountain
}
tile "Broken Special" {
  box uncharted
  edges land
}
starting_tile "Mismatched Start" {
  parts standing_stone, coast
  cells 0 0, 1 0
}
"""


def test_a_malformed_tile_is_an_error_at_its_property_not_in_the_first_game(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add_cards(project, BROKEN_TILES)
    status, out = run(capsys, "check")
    assert status == 1
    where = f"cards/{GAME}/probe.cards"
    assert f"{where}:3:3: error[card-data]: Broken Face: face_a is six edges" in out
    assert 'hint: write: face_a "LLLSSS"' in out
    assert f"{where}:10:3: error[card-data]: Broken Bonus: face_b_bonus gives points" in out
    assert "not sea 1 2 3" in out
    assert f"{where}:15:3: error[card-data]: Broken Icons: 'caravan' in face_a_icons" in out
    assert f"{where}:22:3: error[card-data]: Sea Mountain: a Mountain is drawn in a land" in out
    assert f"{where}:26:3: error[card-data]: Broken Special: a special tile goes into a hole" in out
    assert f"{where}:30:3: error[card-data]: Mismatched Start: on face A its part 'coast'" in out
    assert "Traceback" not in out


ODD_ICONS = """\
hex_tile "Two Menhirs" {
  box uncharted
  face_a "LLLSSS"
  face_a_icons menhir 2
  face_b "LLLSSS"
}
hex_tile "Numbered City" {
  box uncharted
  face_a "LLLSSS"
  face_b "LLLSSS"
  face_b_icons city 2
}
hex_tile "Joined Nothing" {
  box uncharted
  face_a "LLSLLS"
  face_a_icons joined
  face_b "LLLSSS"
}
"""


def test_an_icon_word_the_game_would_not_read_is_an_error_at_its_property(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``menhir 2`` checked and was one Menhir, ``city 2`` checked and drew no City at all,
    ``joined`` alone joined nothing."""
    add_cards(project, ODD_ICONS)
    status, out = run(capsys, "check")
    assert status == 1
    where = f"cards/{GAME}/probe.cards"
    assert (
        f"{where}:4:3: error[card-data]: Two Menhirs: a face shows one Menhir or none; "
        "'menhir 2' would be read as one"
    ) in out
    assert (
        f"{where}:11:3: error[card-data]: Numbered City: 'city' in face_b_icons takes land or "
        "sea (the section the City is drawn in; none: both), not 'city 2'"
    ) in out
    assert (
        f"{where}:16:3: error[card-data]: Joined Nothing: 'joined' in face_a_icons takes land "
        "or sea, not 'joined'"
    ) in out


def test_a_card_naming_a_card_of_the_wrong_kind_is_an_error_at_the_name(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A starting tile's part that is a layer, a layer that requires a symbol, a tile from a
    misspelt box: game.cards says what each names (``{ names hex_tile }``, ``{ names layer }``,
    ``{ names box }``), so each is an error at the name itself, with the names that fit."""
    add_cards(
        project,
        'starting_tile "Broken Start" {\n  parts standing_stone, menhir_scoring\n'
        "  cells 0 0, 1 0\n}\n"
        'layer "Needs Land" {\n  box uncharted\n  requires land\n}\n'
        'tile "Boxed Wrong" {\n  box uncharterd\n  edges all_land_or_all_sea\n}\n',
    )
    status, out = run(capsys, "check")
    assert status == 1
    where = f"cards/{GAME}/probe.cards"
    assert (
        f"{where}:2:25: error[property-names]: 'parts' names a hex_tile; 'menhir_scoring' is "
        "a layer" in out
    )
    assert (
        f"{where}:7:12: error[property-names]: 'requires' names a layer; 'land' is a symbol" in out
    )
    assert "hint: a layer: mountain_and_coral_scoring, caravan_and_ship_scoring, " in out
    assert f"{where}:10:7: error[name-undefined]: 'uncharterd' is not declared" in out
    assert "hint: did you mean 'uncharted'?" in out
    assert "Traceback" not in out


def test_a_variant_that_breaks_a_tile_face_is_an_error_at_its_yaml_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "cards" / GAME / "variants" / "short_edge.yaml").write_text(
        "description: a typo in a face\ncards:\n  standing_stone: {face_a: LLLLL}\n"
    )
    status, out = run(capsys, "check")
    assert status == 1
    assert (
        f"cards/{GAME}/variants/short_edge.yaml:3:20: error[card-data]: Standing Stone: "
        "face_a is six edges" in out
    )
    status, out = run(capsys, "build", GAME)
    assert status == 1
    assert "short_edge.yaml:3:20" in out and "error[sheet]" not in out


def test_a_new_well_formed_tile_checks_builds_and_plays(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add_cards(
        project,
        'hex_tile "Watchtower" {\n  box uncharted\n  copies 2\n  face_a "LLLLLL"\n'
        "  face_a_bonus land 3\n  face_a_icons menhir, city, mountain 2\n"
        '  face_b "SSSLLL"\n  face_b_icons pirate, coral\n}\n',
    )
    assert run(capsys, "check")[0] == 0
    assert run(capsys, "build", GAME)[0] == 0
    status, out = run(capsys, "sim", GAME, "--games", "3", "--mode", "competitive", "--jobs", "1")
    assert status == 0, out


def test_a_sheet_error_about_one_tile_names_its_line() -> None:
    ref = load_reference(REPO / "cards" / GAME / "reference.yaml")
    spec = next(s for s in ref.hex_specs if s.kind == "hex_tile")
    card = {
        "id": "odd",
        "title": "Odd",
        "kind": "hex_tile",
        "source": "cards/somewhere/tiles.cards:12",
        "properties": {"face_a": "LLL", "face_b": "SSSSSS"},
    }
    with pytest.raises(TextError) as raised:
        _hex_faces(spec, card)
    assert raised.value.source == "cards/somewhere/tiles.cards:12"
    diagnostic = SheetError(str(raised.value), raised.value.source).diagnostic()
    assert (diagnostic.span.file, diagnostic.span.line) == ("cards/somewhere/tiles.cards", 12)


# -- what a tile shows, asked of an empty cell

STONE_CIRCLES = """\
# "Stone circles": a Menhir placed next to another Menhir scores 2 for each.
layer "Stone circles" {
  box uncharted
  on tile_placed {
    if has_menhir(placed) {
      for each cell in hex_neighbours(placed) where has_menhir(cell) {
        score 2
      }
    }
  }
}
"""

STONE_CIRCLES_SCENARIO = """\
scenario: a Menhir next to a Menhir scores 2; the empty cells round it show no Menhir
rulebook: >-
  Menhirs allow you to score all the bonus points along ley lines formed between any 2 aligned
  Menhirs.
game: land_vs_sea
players: 2
given:
  layers: [stone_circles]
  board:
    - {cell: [0, 0], side: land, menhir: true}
    - {cell: [0, 1], side: land}
do:
  - action: place_tile
    player: 1
    args: {cell: [1, 0], tile: {side: land, menhir: true}}
expect:
  players:
    - {points: 2}
    - {points: 0}
"""


def use_library(project: Path, modules: str) -> None:
    """``use MODULES`` added to the copied game's declaration."""
    path = project / "cards" / GAME / "game.cards"
    text = path.read_text()
    path.write_text(text.replace("  players 2..4\n", f"  players 2..4\n  use {modules}\n", 1))


def scenario(project: Path, text: str, name: str = "probe.yaml") -> Path:
    """A scenario file of the copied game's."""
    folder = project / "tests" / "scenarios" / GAME
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def test_has_menhir_of_an_empty_cell_is_false_not_a_refusal(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    use_library(project, "hexes")
    add_cards(project, STONE_CIRCLES)
    path = scenario(project, STONE_CIRCLES_SCENARIO)
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    status, out = run(capsys, "test", str(path))
    assert status == 0, out
    assert "1 of 1 scenarios passed" in out


# -- a house rule without the large starting tiles


NO_STARTING_TILE = """\
scenario: without the large starting tiles their parts stay in the box, out of the 3 stacks
rulebook: "They are optional but we strongly suggest using them."
game: land_vs_sea
variant: no_starting_tile
players: 2
seed: 1
choices:
  - draw: "1"
  - draw: "1"
  - draw: "1"
  - draw: "1"
do:
  - action: setup
expect:
  # 58 + 24 = 82 tiles, 28 + 27 + 27, less the 4 drawn from the first stack.
  stack_sizes: [24, 27, 27]
  tiles: []
"""


def test_a_variant_without_the_starting_tiles_leaves_their_parts_in_the_box(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "cards" / GAME / "variants" / "no_starting_tile.yaml").write_text(
        "description: no large starting tile\nremove_kinds: [starting_tile]\n"
    )
    path = scenario(project, NO_STARTING_TILE)
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    status, out = run(capsys, "test", str(path))
    assert status == 0, out


# -- the score counter is a side's: gain, lose and add of points go on its marker

TOLL = """\
# "Tolls": every placement gains 3 points, loses 1 and adds 1 (3 in all).
rule "Tolls" {
  on tile_placed {
    gain points 3
    lose points 1
    add points 1
  }
}
"""

TOLL_SCENARIO = """\
scenario: in the 4 player team game a team mate's points go on the team's marker, however won
rulebook: >-
  They can be used in 2 player head to head, 3 player asymmetric, and 4 player team game modes.
game: land_vs_sea
players: 4
given:
  layers: []
  board:
    - {cell: [0, 0], side: land}
do:
  - action: place_tile
    player: 3
    args: {cell: [1, 0], tile: {side: land}}
expect:
  players:
    - {points: 3}
    - {points: 0}
    - {points: 3}
    - {points: 0}
"""


def test_points_gained_by_a_team_mate_go_on_the_side_marker(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add_cards(project, TOLL)
    path = scenario(project, TOLL_SCENARIO)
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    status, out = run(capsys, "test", str(path))
    assert status == 0, out


# -- a card that names a card a variant removes


MERCHANT_PRINCES = """\
# "Merchant Princes": a trade route connected to a City scores 3 per icon at the end.
layer "Merchant Princes" {
  box uncharted
  requires caravan_and_ship_scoring
  on route_scored {
    if has_city(route) {
      set icon_value 3
    }
  }
}
"""


def test_a_new_card_naming_a_card_a_variant_removes_says_which_variant_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    add_cards(project, MERCHANT_PRINCES)
    status, out = run(capsys, "check")
    # A mix without Caravan & Ship scoring is a mix without a layer that requires it (audit10:
    # `requires` is declared `{ names layer; needs }`): the variant removes it too, warned at
    # its remove: line. It was an error at the layer, in a variant the designer never touched.
    assert status == 0, out
    assert (
        f"cards/{GAME}/variants/inexperienced.yaml:9:5: warning[removed-with]: removing "
        "'caravan_and_ship_scoring' also removes 'merchant_princes', which needs it (requires "
        f"caravan_and_ship_scoring, cards/{GAME}/probe.cards:4)" in out
    )
    assert "hint: say so in the variant: add '- merchant_princes' under remove:" in out
    assert "did you mean 'caravan'" not in out
    # Saying so in the variant, as the hint gives, silences it.
    variant = project / "cards" / GAME / "variants" / "inexperienced.yaml"
    variant.write_text(variant.read_text() + "  - merchant_princes\n")
    status, out = run(capsys, "check")
    assert status == 0, out
    assert "removed-with" not in out


# -- `use tiles` in a game with a place_tile of its own


CLOSED_LANDS = """\
layer "Closed lands" {
  box uncharted
  on tile_placed {
    if area_complete(placed, land) {
      score 1
    }
  }
}
"""


def test_the_games_own_verb_wins_over_a_used_modules_of_that_name(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    use_library(project, "hexes, tiles")
    add_cards(project, CLOSED_LANDS)
    status, out = run(capsys, "check")
    # Was: 'place_tile' is already declared (an error at the game's verb), and the flow's
    # 'place_tile' then missing the library's CELL and TILE.
    assert status == 0, out
    assert (
        f"cards/{GAME}/game.cards:114:8: warning[library-hidden]: the game's own verb "
        "'place_tile' hides the standard library's 'place_tile' of 'use tiles' "
        f"(cards/{GAME}/game.cards:16:14)" in out
    )
    assert "missing its CELL" not in out


def test_the_library_tiles_refuse_a_board_of_another_model() -> None:
    from engine.hexgrid import Hex
    from engine.runtime import RuleError
    from engine.stdlib.tiles import area_complete

    class Board:
        board = {"tiles": {Hex(0, 0): object()}}

    with pytest.raises(RuleError, match=r"area_complete: the board's tile at \(0, 0\) is not six"):
        area_complete(Board(), None, (0, 0), "land")  # type: ignore[arg-type]


# -- a placement onto a tile says so, and names the cell as the scenario writes it

OCCUPIED = """\
scenario: a tile placed on a tile is refused for the tile already there
rulebook: "x"
game: land_vs_sea
players: 2
given:
  board:
    - {cell: [0, 0], side: land}
do:
  - action: place_tile
    player: 1
    args: {cell: [0, 0], tile: {side: land}}
expect:
  refused: "(0, 0) already holds a tile: a tile goes on an empty space"
"""


def test_a_tile_placed_on_a_tile_is_refused_as_such(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Was: "the tile does not fit at Hex(0, 0): land edges meet land, sea meet sea", for two
    # tiles whose every edge is land.
    path = scenario(project, OCCUPIED)
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    status, out = run(capsys, "test", str(path))
    assert status == 0, out


# -- the DSL's words for an expression keep the brackets its meaning needs


def test_an_expression_in_words_keeps_its_brackets() -> None:
    # cardc diff said a house rule's 'keeps_points() and ((plays_land() and ...) or (not
    # plays_land() and ...))' as 'keeps_points() and plays_land() and ... or not ...', another
    # rule; Darwin's Journey's say read 'diary_top_locations + round - 1 * ...'.
    import json

    from compiler.checker import describe_expr

    ir = json.loads((REPO / "generated" / GAME / "cards.json").read_text())
    functions = {f["name"]: f["expr"] for f in ir["definitions"]["functions"]}
    assert describe_expr(functions["game_over"]) == (
        "turns_taken() > 0 and (tiles_left() == 0 or idle_placements() >= seats())"
    )
    assert describe_expr(functions["wins_route"]) == (
        "keeps_points() and (plays_land() and caravans(route) > ships(route) or "
        "not plays_land() and ships(route) > caravans(route))"
    )

    def op(kind: str, sign: str, left: dict, right: dict) -> dict:
        return {"kind": kind, "op": sign, "left": left, "right": right}

    a, b, c = ({"kind": "counter", "name": n} for n in "abc")
    two = {"kind": "num", "value": 2}
    assert describe_expr(op("binary", "*", two, op("binary", "+", a, b))) == "2 * (a + b)"
    assert describe_expr(op("binary", "-", a, op("binary", "-", b, c))) == "a - (b - c)"
    assert describe_expr(op("binary", "-", op("binary", "-", a, b), c)) == "a - b - c"
    assert describe_expr({"kind": "not", "operand": op("logic", "and", a, b)}) == "not (a and b)"
    assert describe_expr(op("compare", "==", op("compare", "<", a, b), c)) == "(a < b) == c"


# -- a printed card groups its sums and conditions as its DSL does

BRACKETS = """\
layer "Great Ley Lines" {
  box uncharted
  on tile_placed {
    for each ley_line in new_ley_lines(placed) {
      score 2 * (bonus_between(ley_line) + 1)
    }
  }
}
layer "Harbour dues" {
  box uncharted
  on tile_placed {
    if not plays_land() and keeps_points() {
      score 1
    }
  }
}
layer "Raiders' Stone" {
  box uncharted
  on tile_placed {
    if has_menhir(placed) and (is_bandit(placed) or is_pirate(placed)) {
      score 10 - (tiles_left() - 1)
    }
  }
}
"""


def test_a_printed_card_says_a_bracketed_sum_and_or_as_one(tmp_path: Path) -> None:
    from compiler.pipeline import compile_game
    from compiler.sheets.model import build_model
    from compiler.sheets.reference import reference_for, resolve
    from compiler.sheets.text import plain
    from dsl.diagnostics import SourceCache

    folder = tmp_path / "cards" / GAME
    shutil.copytree(REPO / "cards" / GAME, folder, ignore=shutil.ignore_patterns("variants"))
    (folder / "zz_new_cards.cards").write_text(BRACKETS)
    result = compile_game(folder, SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    ref = resolve(reference_for(folder, None), result.ir, {c["id"] for c in result.ir["cards"]})
    model = build_model(result.ir, ref, variant=None, folder=folder)
    said = {
        card.title: " ".join(plain(p) for p in card.paragraphs)
        for card in model.cards
        if "zz_new_cards" in card.source
    }
    # Was "score 2 times the bonus points on the tiles in-between plus 1" (2 x + 1) and "... and
    # the placed tile is a Bandit or the placed tile is a Pirate" (either a Menhir and a Bandit,
    # or any Pirate).
    assert (
        "score 2 times the sum of the bonus points on the tiles in-between and 1"
        in said["Great Ley Lines"]
    )
    raiders = said["Raiders' Stone"]
    assert (
        "a Menhir is on the placed tile and either the placed tile is a Bandit or the placed "
        "tile is a Pirate" in raiders
    )
    assert "10 minus the result of the tiles left" in raiders
    # Was "if it is not so that you play the Land side and ...", the whole condition negated.
    assert "if you do not play the Land side and " in said["Harbour dues"]


# -- the simulator's points per layer credit the layer that raised a value

GOLDEN_AGE = """\
# Every bonus point of a completed area scores 3.
layer "Golden Age" {
  box uncharted
  on area_completed {
    set bonus_value 3
  }
}
"""


def test_points_a_new_layer_raises_are_that_layers_in_the_simulation(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    add_cards(project, GOLDEN_AGE, "zz_golden_age.cards")
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    status, out = run(
        capsys, "sim", GAME, "--games", "4", "--mode", "competitive", "--jobs", "1", "--json"
    )
    assert status == 0, out
    report = json.loads(out)
    points_by = report.get("points_by") or report["points"]["points_by"]
    # Was credited to City scoring (which sets 2 before the Golden Age sets 3): none here.
    # City scoring keeps its doubled trade routes.
    assert points_by.get("golden_age", 0) > 0


# -- the scenario vocabulary a tester guesses first


def test_a_board_tile_may_be_written_under_tile_as_place_tiles_arguments_write_it(
    tmp_path: Path,
) -> None:
    """``board: [{cell: [0, 0], tile: {side: land}}]``, as ``place_tile``'s ``args`` write a
    tile, was told "a hex tile's face at a cell needs 'card'" and "'tile' is not a field"."""
    from engine.scenario import Runner

    path = tmp_path / "s.yaml"
    path.write_text(
        "scenario: a board written as place_tile writes a tile\n"
        'rulebook: "x"\n'
        "game: land_vs_sea\n"
        "players: 2\n"
        "given:\n"
        "  board:\n"
        "    - {cell: [0, 0], tile: {side: land}}\n"
        "    - {cell: [-1, 0], tile: {card: coast, face: b}}\n"
        "do:\n"
        "  - action: place_tile\n"
        "    args: {cell: [1, 0], tile: {side: land, bonus: 1}}\n"
        "expect:\n"
        '  edges: {"-1,0": LLLSSS, "0,0": LLLLLL, "1,0": LLLLLL}\n',
        encoding="utf-8",
    )
    (result,) = Runner(REPO / "generated").run_file(path)
    assert result.passed, result.message


# -- counting a list a native returns

LEY_COUNTING = """\
layer "Ley Counting" {
  box uncharted
  # "Try to set up rows to score multiple Ley lines with a single Menhir placement for extra
  #  points": two Ley lines or more formed by one tile score 3 more.
  on tile_placed {
    if count(new_ley_lines(placed)) >= 2 {
      score 3
    }
  }
} @provisional("a designer's new layer")
"""

LEY_COUNTING_SCENARIO = """\
scenario: a Menhir placed between 2 Menhirs forms 2 Ley lines and scores 3 more
rulebook: "Try to set up rows to score multiple Ley lines with a single Menhir placement \
for extra points."
game: land_vs_sea
players: 2
given:
  layers: [menhir_scoring, ley_counting]
  board:
    - {cell: [-2, 0], side: land, menhir: true}
    - {cell: [-1, 0], side: land, bonus: 1}
    - {cell: [1, 0], side: land, bonus: 2}
    - {cell: [2, 0], side: land, menhir: true}
do:
  - action: place_tile
    player: 1
    args: {cell: [0, 0], tile: {side: land, menhir: true}}
expect:
  # 1 + 2 along the two Ley lines, and 3 for forming two.
  players:
    - {points: 6}
    - {points: 0}
"""


def test_count_of_a_list_a_native_returns_checks_prints_and_plays(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``count(new_ley_lines(placed))`` was refused ("'count' takes the name of a zone
    here"), and nothing else in the DSL counts a native's list."""
    add_cards(project, LEY_COUNTING)
    status, out = run(capsys, "check")
    assert status == 0, out
    path = scenario(project, LEY_COUNTING_SCENARIO)
    assert run(capsys, "build", GAME)[0] == 0
    status, out = run(capsys, "test", str(path))
    assert status == 0, out
    sheet = (project / "generated" / "sheets" / GAME / f"{GAME}.md").read_text()
    assert "if the number of the Ley lines this placement forms is at least 2" in sheet
    # Anything else is still refused at the value, saying what count takes.
    add_cards(project, LEY_COUNTING.replace("new_ley_lines(placed)", "has_menhir(placed)"))
    status, out = run(capsys, "check")
    assert status == 1
    assert "'count' takes the name of a zone or a list here, not a bool" in out


# -- the modes the game has


def test_a_mode_the_game_has_not_is_refused_by_sim_and_scenarios(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "2 player head to head, 3 player asymmetric, and 4 player team game modes": Land
    against Sea. ``cardc sim land_vs_sea --mode coop`` played "coop games" whose team score
    summed both sides' points, and a scenario's ``mode: coop`` was taken."""
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    status, out = run(capsys, "sim", GAME, "--mode", "coop", "--games", "1", "--jobs", "1")
    assert status != 0
    assert "'land_vs_sea' has no coop mode; its modes: competitive" in out
    assert "team score" not in out
    path = scenario(
        project,
        "scenario: the 4 player team game as co-op\n"
        'rulebook: "4 player team game modes"\n'
        "game: land_vs_sea\n"
        "mode: coop\n"
        "players: 4\n"
        "expect:\n"
        "  players:\n"
        "    - {side: land}\n",
    )
    status, out = run(capsys, "test", str(path))
    assert status == 1
    assert "probe.yaml:4:7: Land vs Sea: Uncharted has no coop mode; its modes: competitive" in out
    # The modes it has still play.
    status, out = run(capsys, "sim", GAME, "--players", "4", "--games", "1", "--jobs", "1")
    assert status == 0, out


# -- the end of the game in the 3 player asymmetric game

DEEP_SEA = """\
hex_tile "Deep Sea" {
  box uncharted
  copies 0
  face_a "SSSSSS"
  face_b "SSSSSS"
} @provisional("a designer's tile that fits no all land map")
"""

IDLE_ROUND = """\
scenario: the game goes on while a player of the round has not yet tried to place
rulebook: "They can be used in 2 player head to head, 3 player asymmetric, and 4 player team \
game modes."
game: land_vs_sea
players: 3
given:
  board:
    - {cell: [0, 0], side: land}
  players:
    - {hand: [deep_sea, deep_sea]}
    - {hand: [deep_sea]}
    - {hand: [open_country]}
choices:
  # The lone Land player's two placements and the first Sea player's find no place; the
  # second Sea player has not had a turn of the round, and places.
  - place_tile: "0a@1,0r0"
do:
  - action: play
    player: 1
expect:
  tiles: [[0, 0], [1, 0]]
  players:
    - {hand: [deep_sea, deep_sea]}
    - {hand: [deep_sea]}
    - {hand: []}
"""


def test_a_round_ends_the_game_only_when_every_seat_has_failed_to_place(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """HOST.md's end: "a whole round of turns placed none". The lone player of the 3 player
    game places twice a turn, and each failed placement was counted as a seat's turn: the
    Land player's two and one Sea player's ended the game before the other Sea player had
    tried (3 failed placements, 3 seats)."""
    add_cards(project, DEEP_SEA)
    path = scenario(project, IDLE_ROUND)
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    status, out = run(capsys, "test", str(path))
    assert status == 0, out


# -- what a placed tile can be asked

CITY_FOUNDERS = """\
layer "City Founders" {
  box uncharted
  # A tile showing a City scores 1 when placed, and its caravans' route 1 per Caravan.
  on tile_placed {
    if has_city(placed) {
      score 1
    }
    score caravans(placed)
  }
} @provisional("a designer's new layer")
"""

CITY_FOUNDERS_SCENARIO = """\
scenario: a City tile with a Caravan, placed beside a route of one Caravan
rulebook: "Cities increase bonus point scoring for adjacent sea or land areas, and for end of \
game trade route scoring."
game: land_vs_sea
players: 2
given:
  layers: [city_founders]
  board:
    - {cell: [0, 0], side: land, caravans: 1}
do:
  - action: place_tile
    player: 1
    args: {cell: [1, 0], tile: {side: land, city: true, caravans: 2}}
  - action: place_tile
    player: 2
    args: {cell: [-1, 0], tile: {side: land, bandit: true}}
expect:
  # 1 for the City and 3 Caravans in its route; the Bandit is in no route: 0.
  players:
    - {points: 4}
    - {points: 0}
"""


def test_a_placed_tile_may_be_asked_for_its_city_and_its_routes_icons(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``has_city(placed)``, ``caravans(placed)`` checked (their parameter is ``any``) and
    failed in every game: "Hex(1, 0) is not an area or a trade route". A placed tile shows
    a City or not, and is part of a trade route or not."""
    add_cards(project, CITY_FOUNDERS)
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    status, out = run(capsys, "test", str(scenario(project, CITY_FOUNDERS_SCENARIO)))
    assert status == 0, out
    status, out = run(capsys, "sim", GAME, "--games", "2", "--jobs", "1", "--no-cards")
    assert status == 0, out
    # What is no area still says what an area is, the cell as a scenario writes it.
    from engine.hexgrid import Hex
    from engine.loader import new_game
    from engine.runtime import Context, RuleError

    game = new_game(REPO / "generated" / GAME, players=2)
    game.map.put(Hex(1, 0), game.face("open_country", "a"))
    with pytest.raises(RuleError) as refused:
        game.natives["area_tiles"](game, Context(game.players[0], "", ""), Hex(1, 0))
    assert "(1, 0) is a cell, not an area or a trade route: an area is area_completed's" in str(
        refused.value
    )


# -- a designer's special tile

LOST_TEMPLE = """\
tile "Lost Temple" {
  box uncharted
  edges all_land_or_all_sea
  land_icons menhir, mountain 2
  sea_icons pirate
} @provisional("a designer's special tile")
"""

LOST_TEMPLE_SCENARIO = """\
scenario: the Lost Temple's Menhir, placed into a hole, forms a Ley line
rulebook: "Menhirs allow you to score all the bonus points along ley lines formed between any \
2 aligned Menhirs."
game: land_vs_sea
players: 2
given:
  layers: [menhir_scoring]
  board:
    - {cell: [1, 0], side: land, bonus: 2}
    - {cell: [2, 0], side: land, menhir: true}
    - {cell: [1, -1], side: land}
    - {cell: [0, -1], side: land}
    - {cell: [-1, 0], side: land}
    - {cell: [-1, 1], side: land}
    - {cell: [0, 1], side: land}
do:
  - action: place_special_tile
    player: 1
    args: {hole: [0, 0], special: lost_temple}
expect:
  players:
    - {points: 2}
    - {points: 0}
"""


def test_a_special_tiles_icons_play_or_are_refused_at_check(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A special tile's ``land_icons menhir`` checked and showed no Menhir (only caravans
    and ships were read from a special tile's faces): now its Menhir, Bandit, Pirate,
    Mountains and Corals play as a hex tile's; a word it cannot play is refused."""
    add_cards(project, LOST_TEMPLE)
    assert run(capsys, "check")[0] == 0
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    status, out = run(capsys, "test", str(scenario(project, LOST_TEMPLE_SCENARIO)))
    assert status == 0, out
    add_cards(project, LOST_TEMPLE.replace("sea_icons pirate", "sea_icons steal"))
    status, out = run(capsys, "check")
    assert status == 1
    assert (
        "probe.cards:5:3: error[card-data]: Lost Temple: a special tile's face shows caravans, "
        "ships, Mountains, Corals, a Menhir, a Bandit, a Pirate or a City; not 'steal'"
    ) in out
