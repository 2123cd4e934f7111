"""audit14-dj: Darwin's Journey: Pirates against the rulebook's words, as a designer's house
rules and new cards meet them (the rule cases are tests/scenarios/darwins_journey/
audit14_rules.yaml). Each test names the bug it pins."""

from __future__ import annotations

from pathlib import Path

import pytest
from probing import copied_project
from test_variant_hardening import run

DARWINS_JOURNEY = "darwins_journey"

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")

#: A house rule marking every Ocean Region NO: "place it onto an Ocean Region of the active
#: player's choice" then has none to choose.
CALM_SEAS = """description: Calm seas - no Ocean Region takes the Pirate Ship
cards:
  section_2: {pirate: "NO"}
  section_3: {pirate: "NO"}
  section_4: {pirate: "NO"}
  section_5: {pirate: "NO"}
  section_6: {pirate: "NO"}
"""


def _variant(project: Path, name: str, text: str) -> None:
    (project / "cards" / DARWINS_JOURNEY / "variants" / f"{name}.yaml").write_text(
        text, encoding="utf-8"
    )


def test_a_house_rule_leaving_the_pirate_ship_no_ocean_region_is_refused_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bug: it checked (with the Scenario card removed), and cardc sim then failed in the
    # game's Python ("ValueError: max() arg is an empty sequence", policy.py) at the first
    # Campsite reached: the Pirate Ship's move asked a question with no answer.
    project = copied_project(tmp_path, monkeypatch, DARWINS_JOURNEY)
    _variant(project, "calm_seas", CALM_SEAS + "remove: [pirate_scenario]\n")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "cards/darwins_journey/variants/calm_seas.yaml:7:15: error[card-data]: Section 6: no "
        "map section is an Ocean Region the Pirate Ship may be placed onto: every one but the "
        "starting section is marked NO (in both its parts, where it has two), so moving the "
        "Pirate Ship has no Ocean Region to choose"
    ) in out
    assert 'hint: mark a map section after the starting one "OK"' in out
    assert "1 error" in out


def test_the_scenario_cards_region_with_no_ocean_region_left_says_there_is_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bug: the hint listed the Ocean Regions to choose from, and with none it read
    # "hint: Ocean Regions: " (an empty list).
    project = copied_project(tmp_path, monkeypatch, DARWINS_JOURNEY)
    _variant(project, "calm_seas", CALM_SEAS)
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "pirate_region places the Pirate Ship in 'section_3'" in out
    assert 'hint: there is none: mark a map section after the starting one "OK"' in out
    assert "hint: Ocean Regions: \n" not in out


def test_one_ocean_region_left_open_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The check refuses no Ocean Region at all, not a few: section_3 (the Scenario card's X)
    # left OK is a game.
    project = copied_project(tmp_path, monkeypatch, DARWINS_JOURNEY)
    _variant(project, "calm_seas", CALM_SEAS.replace('section_3: {pirate: "NO"}', "section_3: {}"))
    status, out = run(capsys, "check")
    assert status == 0, out


def test_a_diary_larger_than_its_tiles_is_refused_where_diary_size_is_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "only draw 5 random Special Action tiles. Then add the Pirate Special Action tile and
    # shuffle all 6 tiles". The bug: diary_size 12 checked and played a Diary of 9 tiles (the
    # game's 8 base tiles and the Pirate tile), silently fewer than its size.
    project = copied_project(tmp_path, monkeypatch, DARWINS_JOURNEY)
    _variant(project, "big_diary", "description: a big Diary\nparams:\n  diary_size: 12\n")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "cards/darwins_journey/variants/big_diary.yaml:3:15: error[card-data]: the Special "
        "Action Diary holds 12 tiles (param diary_size), but only 9 can be placed: 11 random "
        "base game Special Action tiles would be drawn and the game has 8, besides the 1 the "
        "modules add: lower diary_size to 9 or fewer, or add base tiles"
    ) in out
    # A simulation's --param is held to the same count.
    (project / "cards" / DARWINS_JOURNEY / "variants" / "big_diary.yaml").unlink()
    status, out = run(capsys, "build", DARWINS_JOURNEY)
    assert status == 0, out
    status, out = run(capsys, "sim", DARWINS_JOURNEY, "--param", "diary_size=10", "--games", "1")
    assert status != 0, out
    assert "--param diary_size=10: the Special Action Diary holds 10 tiles" in out


def test_a_house_rule_removing_base_tiles_is_refused_at_its_remove_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bug: removing four of the 8 base tiles left "only draw 5 random Special Action
    # tiles" drawing 4, a Diary of 5, silently.
    project = copied_project(tmp_path, monkeypatch, DARWINS_JOURNEY)
    _variant(
        project,
        "few_tiles",
        "description: few tiles\n"
        "remove: [provisions, sketchbook, fair_winds, field_guide, pirate_scenario]\n",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "cards/darwins_journey/variants/few_tiles.yaml:2:10: error[card-data]: the Special "
        "Action Diary holds 6 tiles (param diary_size), but only 5 can be placed: 5 random "
        "base game Special Action tiles would be drawn and the game has 4, besides the 1 the "
        "modules add: lower diary_size to 5 or fewer, or add base tiles"
    ) in out
    # Without the Pirates (no module tile) the same count is told in the base game's words.
    _variant(
        project,
        "few_tiles",
        "description: few tiles\nremove: [provisions, sketchbook, fair_winds, pirate, "
        "pirate_scenario, pirates_setup, discovering_treasure, pirate_raid, p1, p2, p3, p4]\n",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "the Special Action Diary holds 6 tiles (param diary_size), but only 5 can be placed: "
        "6 random base game Special Action tiles would be drawn and the game has 5: lower "
        "diary_size to 5 or fewer, or add base tiles"
    ) in out


def test_a_diary_the_tiles_fill_still_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every base tile drawn and the Pirate tile: 9, exactly what the game has.
    project = copied_project(tmp_path, monkeypatch, DARWINS_JOURNEY)
    _variant(project, "full_diary", "description: a full Diary\nparams:\n  diary_size: 9\n")
    status, out = run(capsys, "check")
    assert status == 0, out


#: The Fireland strip's marks and the Pirate Scenario together, its X on a split section.
FIRELAND_SCENARIO = """description: the Pirate Scenario on the Fireland strip, its X on section 4
params:
  use_pirate_scenario: 1
cards:
  section_4: {upper_pirate: "NO", lower_pirate: "OK"}
  section_5: {upper_pirate: "NO", lower_pirate: "OK"}
  pirate_scenario: {pirate_region: section_4}
"""

#: "the Pirate Ship is placed into the Ocean Region shown with the X", then raids a Ship there.
RAIDED_AT_THE_X = """scenario: The Scenario card's X on a Fireland section is its lower part
game: darwins_journey
variant: fireland_scenario
given:
  player:
    counters: {ship_space: 10, coins: 5}
do:
  - action: setup
  - action: pirate_raid
expect:
  pirate_region: section_4_lower
  player:
    counters: {coins: 3}
"""


def test_the_scenario_cards_x_on_a_fireland_section_is_its_part_marked_ok(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bug: a dead end. 'pirate_region section_4' was refused ("no Ocean Region the Pirate
    # Ship may go to") with the hint "Ocean Regions: ..., section_4_lower, ...", and
    # 'section_4_lower' was refused in turn ("'section_4_lower' is not declared
    # ('pirate_region' names a map_section)"): the X could be on no Fireland split section.
    project = copied_project(tmp_path, monkeypatch, DARWINS_JOURNEY)
    _variant(project, "fireland_scenario", FIRELAND_SCENARIO)
    status, out = run(capsys, "check")
    assert status == 0, out
    status, out = run(capsys, "build", DARWINS_JOURNEY)
    assert status == 0, out
    folder = project / "tests" / "scenarios" / DARWINS_JOURNEY
    folder.mkdir(parents=True)
    (folder / "x.yaml").write_text(RAIDED_AT_THE_X, encoding="utf-8")
    status, out = run(capsys, "test", str(folder / "x.yaml"))
    assert status == 0, out
    assert "1 of 1 scenarios passed" in out


def test_a_split_section_with_both_parts_ok_is_no_place_for_the_x(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # With both parts OK the card's section does not say which part: refused, and the hint
    # names only what can be written (map sections, not a part 'section_4_lower').
    project = copied_project(tmp_path, monkeypatch, DARWINS_JOURNEY)
    both = FIRELAND_SCENARIO.replace('upper_pirate: "NO"', 'upper_pirate: "OK"')
    _variant(project, "fireland_scenario", both)
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "cards/darwins_journey/variants/fireland_scenario.yaml:7:21: error[card-data]: Pirate "
        "Scenario: pirate_region places the Pirate Ship in 'section_4', which is no Ocean "
        "Region the Pirate Ship may go to (the Compatibility diagram's OK sections, not the "
        "starting one); section_4 is printed in two parts, both marked OK, and the card names "
        "a map section, not one of its parts"
    ) in out
    assert "hint: write one of: section_2, section_3, section_6" in out


def test_a_scenario_card_naming_a_tile_twice_is_refused_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "The Scenario card shows the component numbers that go into each of the associated
    # areas of the board": one of each tile. The bug: a house rule's card naming Provisions
    # twice checked, and the Diary placed it on two locations.
    project = copied_project(tmp_path, monkeypatch, DARWINS_JOURNEY)
    _variant(
        project,
        "twice",
        "description: a tile twice\nparams:\n  use_pirate_scenario: 1\ncards:\n"
        '  pirate_scenario: {special_action_tiles: "pirate, provisions, provisions"}\n',
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "cards/darwins_journey/variants/twice.yaml:5:21: error[card-data]: Pirate Scenario: "
        "'provisions' is named twice in special_action_tiles; the game has one of each tile, "
        "so the card places it once"
    ) in out
    assert "hint: name provisions once" in out
    assert "1 error" in out
