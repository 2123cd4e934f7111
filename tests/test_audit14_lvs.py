"""audit14 (Land vs Sea: Uncharted): a layer's scoring aid read from both of its sides, and the
aid's player counts held to the game's ("place their scoring aids next to the area of play on
their correct sides for the player count"), a City drawn in a section a face does not have,
values passed to the wrong native, and a large starting tile's parts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from probing import check_build_test, copied_project, diagnostics_with_card_file

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.usefixtures("fresh_file_cache")


# -- 1. a scoring aid's sides


def _house_rule_diagnostics(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: str
) -> list[Any]:
    """``cardc check``'s errors of a copy of Land vs Sea with ``variant`` written as
    variants/house.yaml."""
    from compiler.checking import check_paths
    from dsl.diagnostics import SourceCache

    project = copied_project(tmp_path, monkeypatch, "land_vs_sea")
    (project / "cards/land_vs_sea/variants/house.yaml").write_text(variant, encoding="utf-8")
    found = check_paths([Path("cards/land_vs_sea/game.cards")], None, SourceCache()).diagnostics
    return [d for d in found if d.severity == "error"]


@pytest.mark.parametrize(
    ("variant", "line", "words"),
    [
        # The game is played by 2 to 4: an aid for 5 players was taken without a word.
        (
            "cards:\n  menhir_scoring: {aid_front_players: 5}\n",
            2,
            ["Menhir scoring", "serves 5 players", "played by 2, 3, 4"],
        ),
        # 4 on both sides went out front up, whatever the back said.
        (
            "cards:\n  city_scoring: {aid_front_players: '2, 4'}\n",
            2,
            ["City scoring", "4 players are on both sides", "one correct side"],
        ),
        # Both sides written and 3 on neither: the aid went out back up for 3.
        (
            "cards:\n  city_scoring: {aid_back_players: 4}\n",
            2,
            ["City scoring", "no side of its scoring aid serves 3 players"],
        ),
    ],
)
def test_a_scoring_aid_names_each_player_count_the_game_has_on_one_side(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variant: str, line: int, words: list[str]
) -> None:
    """ "place their scoring aids next to the area of play on their correct sides for the
    player count": each count of the game's (2 head to head, 3 asymmetric, 4 in teams) has one
    correct side. A count the game is not played with, on both sides or, with both sides
    written, on neither was taken silently; now an error at the variant's line."""
    (error,) = _house_rule_diagnostics(tmp_path, monkeypatch, variant)
    assert error.span.file.endswith("variants/house.yaml")
    assert error.span.line == line
    for word in words:
        assert word in error.message
    assert error.hints


def test_a_valid_scoring_aid_is_not_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check refuses only what is wrong: the front for 2 and 4, the back for 3, passes."""
    variant = "cards:\n  city_scoring: {aid_front_players: '2, 4', aid_back_players: 3}\n"
    assert _house_rule_diagnostics(tmp_path, monkeypatch, variant) == []


BACK_ONLY = """\
# yaml-language-server: $schema=../../../generated/land_vs_sea/scenario.schema.json
scenario: a layer whose aid names only its back's player counts goes out front up for the rest
rulebook: "place their scoring aids next to the area of play on their correct sides \
for the player count"
game: land_vs_sea
variant: back_only
players: PLAYERS
seed: 1
choices:
  - starting_tile: "ley_harbour:a"
DRAWS
do:
  - action: setup
expect:
  scoring_aids: {menhir_scoring: SIDE, city_scoring: front, bandit_and_pirate_scoring: back}
"""


def test_a_layer_writing_only_the_back_of_its_aid_has_an_aid(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Setup read only ``aid_front_players``: a layer writing only ``aid_back_players`` had
    no scoring aid at all, in play or not ("place their scoring aids ... on their correct
    sides for the player count"). Now the front serves the counts the back does not name."""
    project = copied_project(tmp_path, monkeypatch, "land_vs_sea")
    (project / "cards/land_vs_sea/variants/back_only.yaml").write_text(
        "description: scoring aids written by their backs\n"
        "cards:\n"
        "  menhir_scoring: {aid_front_players: null, aid_back_players: '3, 4'}\n"
        "  city_scoring: {aid_front_players: null, aid_back_players: '3, 4'}\n"
        "  bandit_and_pirate_scoring: {aid_front_players: null, aid_back_players: '2, 3'}\n",
        encoding="utf-8",
    )
    cases = [
        BACK_ONLY.replace("PLAYERS", "2")
        .replace("DRAWS", '  - draw: "1"\n' * 4)
        .replace("SIDE", "front"),
    ]
    scenarios = tmp_path / "back_only.yaml"
    scenarios.write_text("---\n".join(cases), encoding="utf-8")
    check_build_test(capsys, project, "land_vs_sea", scenarios, 1)


# -- 2. a City drawn in a section the face has not


CITY_AT_SEA = """\
hex_tile "Inland Port" {
  box uncharted
  face_a "LLLLLL"
  face_a_icons city sea
  face_b "LLLSSS"
  face_b_icons city sea
}
"""


def test_a_city_drawn_in_a_section_the_face_has_not_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Cities straddle both the Land and Sea sections of tiles they are on": ``city sea`` on
    a face of land edges only drew the City in no section, so it raised no area's bonus points
    and no trade route, and cardc check said nothing (a Coral there is refused). Face B, which
    has a sea section, is fine."""
    (error,) = diagnostics_with_card_file(tmp_path, monkeypatch, "land_vs_sea", CITY_AT_SEA)
    assert (error.span.line, error.span.column) == (4, 3)
    assert "'city sea' draws the City in a sea section, and this face has none" in error.message
    assert error.hints and "face_a_icons city" in error.hints[0]


def test_a_city_drawn_in_a_section_the_face_has_is_not_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same tile with its City drawn in the land, or straddling (``city`` alone, on a
    face of land edges only: it straddles the one section there is), checks clean."""
    fixed = CITY_AT_SEA.replace("face_a_icons city sea", "face_a_icons city land")
    assert diagnostics_with_card_file(tmp_path, monkeypatch, "land_vs_sea", fixed) == []
    plain = CITY_AT_SEA.replace("face_a_icons city sea", "face_a_icons city")
    again = tmp_path / "again"
    again.mkdir()
    assert diagnostics_with_card_file(again, monkeypatch, "land_vs_sea", plain) == []


# -- 3. a Ley line, an area or a trade route passed where another is asked


SACRED_CITIES = """\
layer "Sacred cities" {
  box uncharted
  on tile_placed {
    for each ley_line in new_ley_lines(placed) {
      if has_city(ley_line) {
        score bonus_between(ley_line)
      }
    }
  }
}
"""

MENHIRS_ON_CITY = """\
layer "Menhir areas" {
  box uncharted
  on area_completed {
    if has_menhir(area) {
      score area_bonus(area)
    }
  }
}
"""

LEY_LINE = """\
scenario: a house rule asking has_city of a Ley line is told what has_city asks of
game: land_vs_sea
players: 2
given:
  board:
    - {cell: [0, 0], side: land, menhir: true}
    - {cell: [1, 0], side: land, bonus: 2}
    - {cell: [3, 0], side: land, bonus: 1}
    - {cell: [4, 0], side: land, menhir: true}
do:
  - action: place_tile
    player: 2
    args: {cell: [2, 0], tile: {side: land, bonus: 2}}
expect:
  refused: "has_city asks of a tile, an area or a trade route, not a Ley line (from new_ley_lines)"
---
scenario: a house rule asking has_menhir of an area is told it is not a tile
game: land_vs_sea
players: 2
given:
  board:
    - {cell: [1, 0], land: [3]}
    - {cell: [1, -1], land: [4]}
do:
  - action: place_tile
    player: 1
    args: {cell: [0, 0], tile: {land: [0, 1]}}
expect:
  refused: "a land area is not a tile or a cell"
"""


def test_a_value_passed_to_the_wrong_native_is_named_in_the_games_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A designer's "a Ley line through a City scores again" (``has_city(ley_line)``) failed
    every game at its first Ley line with "LeyLine(menhirs=(Hex(2, -2), Hex(0, 0)),
    between=(Hex(1, -1),), axis=1) is not an area or a trade route", and ``has_menhir(area)``
    with the area's repr "is not a hex cell (q, r); a card gives one as a property of two
    numbers". Both now name the value in the game's words, and what each native asks of."""
    project = copied_project(tmp_path, monkeypatch, "land_vs_sea")
    folder = project / "cards/land_vs_sea"
    (folder / "sacred_cities.cards").write_text(SACRED_CITIES, encoding="utf-8")
    (folder / "menhir_areas.cards").write_text(MENHIRS_ON_CITY, encoding="utf-8")
    scenarios = tmp_path / "wrong_values.yaml"
    scenarios.write_text(LEY_LINE, encoding="utf-8")
    check_build_test(capsys, project, "land_vs_sea", scenarios, 2)


# -- 4. a large starting tile's parts


STARTING_PARTS = """\
hex_tile starting_part "Isle A" {
  box uncharted
  face_a "LLLLLL"
  face_b "SSSSSS"
}
hex_tile starting_part "Isle B" {
  box uncharted
  face_a "LLLLLL"
  face_b "SSSSSS"
}
starting_tile "Isles" {
  parts isle_a, isle_b
  cells CELLS
}
"""


@pytest.mark.parametrize(
    ("cards", "line", "words"),
    [
        # A stack tile as a part: it left the stacks (81 tiles, not "the remaining 24 ... in
        # with the 58"), in silence.
        (
            STARTING_PARTS.replace("isle_a, isle_b", "dolmen").replace("CELLS", "0 0"),
            12,
            ["Isles: its part 'dolmen' is one of the tiles shuffled into the stacks"],
        ),
        # A part of Ley Harbour's too: one tile laid in two places.
        (
            STARTING_PARTS.replace("isle_a, isle_b", "isle_a, ley_harbour_west").replace(
                "CELLS", "0 0, 1 0"
            ),
            12,
            ["Isles: its part 'ley_harbour_west' is a part of Ley Harbour too"],
        ),
        # Parts 3 cells apart: two tiles, not one large one.
        (
            STARTING_PARTS.replace("CELLS", "0 0, 3 0"),
            13,
            ["Isles: its part 'isle_b' does not touch the others"],
        ),
    ],
)
def test_a_large_starting_tile_is_one_tile_of_parts_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cards: str, line: int, words: list[str]
) -> None:
    """ "2 large double sided starting tiles ... considered as 4 separate 'tiles' for scoring
    purposes": one tile whose parts lie side by side, none of them a tile of the stacks
    ("Shuffle the remaining 24 Uncharted expansion tiles in with the 58 base game tiles") or
    of the other starting tile. Each was taken by cardc check without a word."""
    found = diagnostics_with_card_file(tmp_path, monkeypatch, "land_vs_sea", cards)
    (error,) = found
    assert error.span.line == line
    for word in words:
        assert word in error.message
    assert error.hints


def test_a_large_starting_tile_of_parts_of_its_own_side_by_side_checks_clean(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same starting tile, its two parts beside each other, checks clean."""
    cards = STARTING_PARTS.replace("CELLS", "0 0, 1 0")
    assert diagnostics_with_card_file(tmp_path, monkeypatch, "land_vs_sea", cards) == []
