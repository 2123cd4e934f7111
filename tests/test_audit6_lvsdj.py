"""A sixth, independent tester's Land vs Sea: Uncharted and Darwin's Journey: Pirates, written
from the rulebooks (/work/shared/rulebooks/land-vs-sea-uncharted.txt,
darwins-journey-pirates.txt) and the README alone: rule cases of both games
(tests/scenarios/land_vs_sea/audit6_rules.yaml, tests/scenarios/darwins_journey/audit6_rules.yaml),
three new cards and house rules of each (tests/data/audit6_land_vs_sea/,
tests/data/audit6_darwins_journey/), each played by scenarios and simulated.

Bugs found:

- Land vs Sea: a special tile with a City on one face only (`sea_icons city`) was refused
  ("a City is the tile's 'city true'", which draws it on both). The rulebook asks no such
  thing: a special tile's faces differ (the Lost Traders'), and a special tile's City "only
  increase[s] bonus point and Waypoint scores in the matching land OR sea area they are part
  of", so each face stands alone. `city` among one face's icons now puts a City on that face.
- The sheets left a hex tile's `city sea` (a City drawn in one named section) off the printed
  tile: a clause whose second word is no number was skipped.
- A face's icon named twice (`caravan 1, caravan 2`; `city land, city sea`) checked and was
  read as its last clause on a hex tile (2 caravans; a City in the sea alone) and added up on a
  special tile; a side given twice in a face's bonus points (`land 1, land 2`) gave the first
  land section 2 and the second none. Both are now errors at the property, with the one clause
  to write.
- Darwin's Journey: a designer's second module Special Action tile (any tile not tagged base,
  always added to the Diary as the Pirate tile is) with `diary_size 1` drew -1 base tiles,
  which Python's slice read as all but one: a Diary of 9 tiles. Two tiles unlocked at the
  start were put together at a random top location, so the second could land below the top
  ones, locked. Both are refused at `cardc check` where the parameter is set (and by `cardc sim
  --param`), and the tiles unlocked at the start all lie on top locations.
- Land vs Sea: a special tile's icon count checked by the hex tiles' words named
  `face_land_icons`, a property no special tile has, so a variant's `caravan 0` was shown at the
  card's title in tiles.cards, not at the variant's line.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

import pytest
from probing import assert_cases_hold, assert_simulates, audit_cases, copied_project
from test_variant_hardening import run

from compiler.sheets.model import _hex_faces
from compiler.sheets.reference import load_reference
from engine.loader import rules_module

REPO = Path(__file__).resolve().parent.parent
LAND_VS_SEA = "land_vs_sea"
DARWINS_JOURNEY = "darwins_journey"
LVS_DATA = Path(__file__).resolve().parent / "data" / "audit6_land_vs_sea"
DJ_DATA = Path(__file__).resolve().parent / "data" / "audit6_darwins_journey"

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


def test_the_land_vs_sea_cards_and_house_rules_hold_their_cases(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """A special tile with a City on its sea face only, a hex tile whose City is in its sea,
    a layer for great areas and five house rules (a shorter track, shared tied routes with a
    harbour tax phase, the Lost City replaced, the lone player placing once, a frontier rule
    using the hexes module) build and hold their 15 cases."""
    assert_cases_hold(
        built_copy,
        LAND_VS_SEA,
        LVS_DATA,
        ("frontier", "one_placement", "shared_ties", "short_track", "sunken_cities"),
        15,
    )


def test_the_darwins_journey_cards_and_house_rules_hold_their_cases(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """A Crew card digging up Treasure, an action tile's broadside, a Treasure objective and
    four house rules (the Pirate Ship drifting after each raid, heavier raids, a short voyage,
    both pirate tiles unlocked at the start) build and hold their 10 cases."""
    assert_cases_hold(
        built_copy,
        DARWINS_JOURNEY,
        DJ_DATA,
        ("heavy_raids", "pirate_drift", "short_voyage", "two_flags"),
        10,
    )


def test_the_house_rules_play_whole_games(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    _, points = audit_cases(built_copy, DARWINS_JOURNEY, DJ_DATA)
    assert_simulates(points, ("solo", "competitive"))


def test_the_land_vs_sea_house_rules_play_whole_games(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    _, points = audit_cases(built_copy, LAND_VS_SEA, LVS_DATA)
    assert_simulates(points, ("competitive",))


# -- a special tile with a City on one face


SUNKEN_CITY = """\
tile "Sunken City" {
  box uncharted
  edges all_land_or_all_sea
  land_icons menhir
  sea_icons city
} @provisional("a designer's special tile")
"""


def test_a_special_tile_may_show_a_city_on_one_face_only() -> None:
    board = importlib.import_module(f"{rules_module(LAND_VS_SEA).__package__}.board")
    special_tile = board.special_tile
    card = {
        "id": "sunken_city",
        "title": "Sunken City",
        "source": "probe.cards:1",
        "properties": {
            "edges": "all_land_or_all_sea",
            "land_icons": [["menhir"]],
            "sea_icons": [["city"]],
        },
    }
    sea = special_tile(card, "sea")
    land = special_tile(card, "land")
    assert sea.has_city and [s.city for s in sea.sections] == [True]
    assert not land.has_city and land.menhir
    # `city true` still draws it on both faces (the Lost City).
    both = {**card, "properties": {"edges": "all_land_or_all_sea", "city": True}}
    assert special_tile(both, "sea").has_city and special_tile(both, "land").has_city


def test_a_special_tiles_city_on_one_face_checks_and_a_named_section_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, LAND_VS_SEA)
    cards = project / "cards" / LAND_VS_SEA / "probe.cards"
    cards.write_text(SUNKEN_CITY, encoding="utf-8")
    status, out = run(capsys, "check")
    assert status == 0, out
    cards.write_text(SUNKEN_CITY.replace("sea_icons city", "sea_icons city sea"), "utf-8")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "probe.cards:5:3: error[card-data]: Sunken City: a special tile's sea face is one sea "
        "section, so its City needs no section named; not 'city sea'" in out
    ), out
    assert "hint: write: sea_icons city" in out, out


# -- an icon or a side named twice


TWICE = """\
hex_tile "Twin Cities" {
  box uncharted
  face_a "LLLSSS"
  face_a_icons city land, city sea
  face_b "LLLLLL"
} @provisional("a designer's tile")
hex_tile "Twin Bays" {
  box uncharted
  face_a "LSLSLS"
  face_a_bonus land 1, land 2
  face_b "LLLLLL"
  face_b_icons caravan 1, caravan 2
} @provisional("a designer's tile")
tile "Doubled" {
  box uncharted
  edges all_land_or_all_sea
  land_icons caravan 1, caravan 1
} @provisional("a designer's special tile")
hex_tile "Both Joined" {
  box uncharted
  face_a "LSLSLS"
  face_a_icons joined land, joined sea
  face_b "LLLLLL"
} @provisional("a designer's tile")
"""


def test_an_icon_or_a_bonus_side_named_twice_is_an_error_with_the_one_clause_to_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bug: each checked; the hex tile read only its last clause (a City in the sea alone,
    # 2 caravans, the first land section 2 points and the second none, the sea's runs joined
    # and the land's not), the special tile added its clauses up.
    project = copied_project(tmp_path, monkeypatch, LAND_VS_SEA)
    (project / "cards" / LAND_VS_SEA / "probe.cards").write_text(TWICE, encoding="utf-8")
    status, out = run(capsys, "check")
    assert status == 1, out
    expected = [
        (
            "probe.cards:4:3: error[card-data]: Twin Cities: 'city' is named twice in "
            "face_a_icons ('city land' and 'city sea'): a face's icon is one clause",
            "hint: write: face_a_icons city (a City straddles both sections when none is named)",
        ),
        (
            "probe.cards:10:3: error[card-data]: Twin Bays: face_a_bonus gives land twice "
            "('land 1' and 'land 2'): a side's sections take one clause, a number for each in "
            "the order of their first edge",
            "hint: write: face_a_bonus land 1 2",
        ),
        (
            "probe.cards:17:3: error[card-data]: Doubled: 'caravan' is named twice in land_icons "
            "('caravan 1' and 'caravan 1'): a face's icon is one clause",
            "hint: write: land_icons caravan 2 (how many the face shows)",
        ),
        (
            "probe.cards:22:3: error[card-data]: Both Joined: 'joined' is named twice in "
            "face_a_icons ('joined land' and 'joined sea'): a face's icon is one clause",
            "hint: write: face_a_icons joined land sea",
        ),
    ]
    for message, hint in expected:
        assert message in out, out
        assert hint in out, out
    assert "4 errors" in out, out


# -- the sheets


def test_a_hex_tiles_city_in_a_named_section_is_printed_in_that_sections_area() -> None:
    ref = load_reference(REPO / "cards" / LAND_VS_SEA / "reference.yaml")
    spec = next(s for s in ref.hex_specs if s.kind == "hex_tile")
    card = {
        "id": "twin_harbours",
        "title": "Twin Harbours",
        "kind": "hex_tile",
        "source": "probe.cards:1",
        "properties": {
            "face_a": "SLLSLL",
            "face_a_icons": [["city", "sea"], ["ship", 2], ["joined", "sea"]],
            "face_b": "LLLLLL",
            "face_b_icons": [["city"]],
        },
    }
    face_a, face_b = _hex_faces(spec, card, ref.icons)
    # `joined` is no icon the reference draws: it stays off the tile.
    assert face_a.icons == (("city", 1, "sea"), ("ship", 2, "sea"))
    assert face_b.icons == (("city", 1, "land"),)


def test_a_special_tiles_icon_count_set_by_a_variant_is_an_error_at_the_variants_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bug: the message named 'face_land_icons' (a hex tile's property), which no special
    # tile has, so the error fell back to the Lost Traders' title in tiles.cards.
    project = copied_project(tmp_path, monkeypatch, LAND_VS_SEA)
    (project / "cards" / LAND_VS_SEA / "variants" / "poor_traders.yaml").write_text(
        "description: the Lost Traders show no caravan\n"
        'cards:\n  lost_traders: {land_icons: "caravan 0"}\n',
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "cards/land_vs_sea/variants/poor_traders.yaml:3:18: error[card-data]: Lost Traders: "
        "'caravan' in land_icons takes how many the face shows, a number from 1; not caravan 0"
    ) in out, out
    assert "hint: write: land_icons caravan 2" in out, out


# -- the Special Action Diary and the modules' tiles


BROADSIDE = """\
action_tile pirates "Broadside" {
  code "P2"
  on activate { move_pirate_ship }
} @provisional("a designer's second pirate tile")
"""


def test_a_diary_too_small_for_the_modules_tiles_is_refused_where_its_size_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bug: the base tiles drawn were diary_size less the modules' tiles, -1 here, and
    # base[:-1] drew all but one of them: a Diary of 9 tiles for a diary_size of 1.
    project = copied_project(tmp_path, monkeypatch, DARWINS_JOURNEY)
    folder = project / "cards" / DARWINS_JOURNEY
    (folder / "probe.cards").write_text(BROADSIDE, encoding="utf-8")
    (folder / "variants" / "tiny_diary.yaml").write_text(
        "description: a Diary of one tile\nparams:\n  diary_size: 1\n", encoding="utf-8"
    )
    (folder / "variants" / "two_flags.yaml").write_text(
        "description: two tiles unlocked at the start\nparams:\n  diary_top_locations: 1\n"
        "cards:\n  pirate: {unlocked_at_start: true}\n  broadside: {unlocked_at_start: true}\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        # A game-level rule's error is headed by no card's name (audit6-ie: it named whichever
        # card was checked first).
        "cards/darwins_journey/variants/tiny_diary.yaml:3:15: error[card-data]: the "
        "Special Action Diary holds 1 tile (param diary_size), fewer than the 2 Special Action "
        "tiles the modules always add (pirate, broadside): raise diary_size to 2 or more"
    ) in out, out
    assert (
        "cards/darwins_journey/variants/two_flags.yaml:3:24: error[card-data]: 2 "
        "Special Action tiles are unlocked at the start (pirate, broadside), each on a top "
        "location of the Special Action Diary, which has 1 (param diary_top_locations)"
    ) in out, out
    assert "2 errors" in out, out
    # A simulation's --param is held to the same rule when the Diary is set up.
    (folder / "variants" / "tiny_diary.yaml").unlink()
    (folder / "variants" / "two_flags.yaml").unlink()
    assert run(capsys, "build", DARWINS_JOURNEY, "--no-sheets")[0] == 0
    status, out = run(
        capsys, "sim", DARWINS_JOURNEY, "--games", "1", "--jobs", "1", "--param", "diary_size=1"
    )
    assert status != 0, out
    assert "fewer than the 2 Special Action tiles the modules always add" in out, out
