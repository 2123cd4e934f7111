"""A fourth, independent tester's Land vs Sea: Uncharted, written from the rulebook
(/work/shared/rulebooks/land-vs-sea-uncharted.txt) and the README alone: rule cases at the
edges (tests/scenarios/land_vs_sea/audit4_rules.yaml), new tiles, a layer and a rule
(tests/data/audit4_land_vs_sea/audit4.cards) and house rules of six kinds (its variants/: a
special tile added, a setup phase removed, a mode's function and a scoring verb redefined, a
param changed, a phase inserted into the turn), each built into a copy of the game, played by
scenarios that show their difference against the base game, and simulated.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import assert_cases_hold, assert_simulates, audit_cases, audit_files, printed_texts

from engine.loader import new_game
from engine.runtime import RandomLegal

GAME = "land_vs_sea"
DATA = Path(__file__).resolve().parent / "data" / "audit4_land_vs_sea"
VARIANTS = (
    "conquest",
    "last_tile",
    "lone_wolf",
    "no_specials",
    "rich_connections",
    "sunken_temple",
)

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


def test_the_new_cards_and_house_rules_hold_their_cases(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    assert_cases_hold(built_copy, GAME, DATA, VARIANTS, 23)


def test_the_house_rules_play_whole_games(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    _, points = audit_cases(built_copy, GAME, DATA)
    assert_simulates(points, ("competitive",))


def test_a_setup_without_its_special_tiles_phase_sets_out_none(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    # The bug: the special tiles were beside the stacks from the game's first moment, so a
    # house rule removing the setup's `special_tiles` phase changed nothing. Now the setup
    # starts with them in the box and the phase sets them out; a scenario that gives a state
    # without playing the setup still finds them beside the stacks.
    folder = built_copy(GAME, audit_files(DATA)) / GAME
    for point, expected in ((folder, 3), (folder / "no_specials", 0)):
        game = new_game(point, players=2, seed=1, policies={-1: RandomLegal()})
        assert len(game.specials) == 3  # before the setup: a scenario's given state
        game.run_section("setup")
        assert len(game.specials) == expected, point.name
        game.play()
        if expected == 0:
            assert not any(e[0] == "special_placed" for e in game.events)


def test_the_new_tiles_print_their_icons(tmp_path: Path) -> None:
    from probing import copy_game

    folder = copy_game(tmp_path, GAME)
    (folder / "audit4.cards").write_text(
        (DATA / "audit4.cards").read_text(encoding="utf-8"), encoding="utf-8"
    )
    texts = printed_texts(folder, {"audit4.cards"})
    assert {"Mountain Henge", "Coral Atoll", "Thieves' Market", "Land Bridge"} <= set(texts)
    # ships(placed) counts the route the placed tile is now part of: "1 point per ship icon in
    # the placed tile" said another rule (reference.yaml's phrase "ships placed").
    assert texts["Lighthouse scoring"].endswith(
        "score 1 point per ship icon in the trade route the placed tile is part of."
        " *9 this card is provisional"
    )
    # `add waypoint_value 1` printed "add 1 to each Waypoint", as if a token went on every
    # Waypoint; it is said as what each Waypoint scores (reference.yaml's phrase, audit9).
    assert texts["Pilgrims"].startswith(
        "When a Waypoint is surrounded by 6 tiles, each Waypoint scores 1 more point."
    )
    assert "add 1 to" not in texts["Pilgrims"]


def test_the_scenario_schema_describes_the_games_own_keys() -> None:
    # The README points a scenario's author to the game's schema for the game's own keys
    # ("and the game's own names (for example ... board)"), which gave their values' shapes
    # and no word of what they are: Land vs Sea's `board` said nothing of how a tile is
    # written. Each key now carries its hook's docstring.
    import json

    root = Path(__file__).resolve().parent.parent / "generated" / GAME
    schema = json.loads((root / "scenario.schema.json").read_text(encoding="utf-8"))
    given = schema["$defs"]["given"]["properties"]
    assert given["board"]["description"].startswith("Put tiles on the board")
    assert "``land: [0, 1]``" in given["board"]["description"]
    assert given["stacks"]["description"].startswith("The stacks, top first")
    expect = schema["$defs"]["expect"]["properties"]
    assert expect["winner"]["description"].startswith("The side the flow's winner rule names")
    # A hook written as a lambda has no words, and gets none.
    assert "description" not in expect["tiles"]
