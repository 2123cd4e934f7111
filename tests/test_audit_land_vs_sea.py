"""What a sentence-by-sentence audit of Land vs Sea: Uncharted's rulebook
(/work/shared/rulebooks/land-vs-sea-uncharted.txt) found, written as an outsider would: new
tiles, a special tile, a layer and a rule named by the rulebook's own words, four house rules
(tests/data/audit_land_vs_sea/), the names a designer guesses for a tile's icons, and the
points a team mate reads in a scenario. Each runs ``cardc`` in process on a copy of the game.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from probing import copy_game
from test_variant_hardening import run

DATA = Path(__file__).resolve().parent / "data" / "audit_land_vs_sea"
GAME = "land_vs_sea"


# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary project with a copy of Land vs Sea, the current directory."""
    copy_game(tmp_path, GAME)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def scenario_file(project: Path, text: str, name: str = "audit.yaml") -> Path:
    """A scenario file of the copied game's."""
    folder = project / "tests" / "scenarios" / GAME
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_new_tiles_and_house_rules_check_build_and_play_as_the_rulebook_says(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = project / "cards" / GAME
    shutil.copy(DATA / "tiles.cards", game / "audit_tiles.cards")
    for variant in sorted((DATA / "variants").glob("*.yaml")):
        shutil.copy(variant, game / "variants" / variant.name)
    status, out = run(capsys, "check")
    assert status == 0, out
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    path = scenario_file(project, (DATA / "scenarios.yaml").read_text(encoding="utf-8"))
    status, out = run(capsys, "test", str(path))
    assert status == 0, out
    assert "7 of 7 scenarios passed" in out


def test_the_large_starting_tile_counts_as_its_param_of_tiles(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``param starting_tile_parts`` was declared and read by nothing: a house rule setting it
    to 1 checked, built and still counted the large tile as 4."""
    shutil.copy(DATA / "variants" / "one_start.yaml", project / "cards" / GAME / "variants")
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    text = (DATA / "scenarios.yaml").read_text(encoding="utf-8")
    one = next(doc for doc in text.split("\n---\n") if "variant: one_start" in doc)
    # The same placement in the rulebook's game and in the house rule's.
    base = one.replace("variant: one_start\n", "").replace("tiles 4", "tiles 7")
    path = scenario_file(project, f"{one}\n---\n{base}")
    status, out = run(capsys, "test", str(path))
    assert status == 0, out
    assert "2 of 2 scenarios passed" in out


def test_a_tiles_icon_guessed_from_the_rulebook_is_told_the_icons_or_the_property(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "cards" / GAME / "guess.cards").write_text(
        'hex_tile "Waystation" {\n  box uncharted\n  face_a "LLLSSS"\n'
        "  face_a_icons waypoint\n"
        '  face_b "LLLSSS"\n  face_b_icons bonus 2, ships 1\n}\n'
        'tile "Sunken Shrine" {\n  box uncharted\n  edges all_land_or_all_sea\n'
        "  sea_icons whirlpool\n}\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 1
    where = f"cards/{GAME}/guess.cards"
    icons = "caravan, ship, menhir, city, bandit, pirate, mountain, coral, steal, joined"
    assert (
        f"{where}:4:16: error[property-clause]: 'waypoint' is not a clause of 'face_a_icons', "
        f"which begins each with {icons}"
    ) in out
    # Before: "did you mean 'waypoints_each'?" (a parameter) and, for bonus points written as
    # an icon, "did you mean 'bonus_scoring_token'?".
    assert "waypoints_each" not in out
    assert "hint: is it the property 'face_b_bonus'? write: face_b_bonus ..." in out
    assert f"{where}:6:25: error[property-clause]: 'ships' is not a clause" in out
    assert "hint: did you mean 'ship'?" in out
    assert f"{where}:11:13: error[property-clause]: 'whirlpool' is not a clause of 'sea_icons'" in (
        out
    )
    assert "Traceback" not in out


TEAM = """\
scenario: a team mate's counters are the team's
rulebook: "score 2 rather than the usual 1 bonus point for the Land team"
game: land_vs_sea
players: 4
given:
  board:
    - {cell: [0, 0], land: [0, 5], land_bonus: 2}
    - {cell: [1, 0], land: [3, 4], land_bonus: 3}
  players:
    - {}
    - {}
    - {counters: {points: 10}}
    - {}
do:
  - action: place_tile
    player: 3
    args: {cell: [0, 1], tile: {land: [1, 2]}}
expect:
  players:
    - {counters: {points: 18}}
    - {counters: {points: 0}}
    - {counters: {points: 18}}
    - {counters: {points: 0}}
"""


def test_a_team_mates_counters_are_the_teams_given_and_expected(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's way, ``counters: {points: N}`` under a seat, reads and gives a team mate
    the team's one score (engine Game.counter_holder): seat 3's own counter stayed 0."""
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    status, out = run(capsys, "test", str(scenario_file(project, TEAM)))
    assert status == 0, out


def test_two_seats_of_a_side_given_different_points_is_refused_naming_both(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seat 1 given 4 and its team mate 10 kept whichever came last; the README's
    ``counters:``, the game's own ``points:`` key and the two mixed are each refused."""
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    seat_1 = "    - {}\n    - {}\n    - {counters: {points: 10}}"
    for first, third in (
        ("{counters: {points: 4}}", "{counters: {points: 10}}"),
        ("{points: 4}", "{points: 10}"),
        ("{points: 4}", "{counters: {points: 10}}"),
    ):
        text = TEAM.replace(seat_1, f"    - {first}\n    - {{}}\n    - {third}")
        assert text != TEAM
        status, out = run(capsys, "test", str(scenario_file(project, text)))
        assert status == 1, (first, third)
        assert (
            "player 3 shares points with player 1 (one score for their side), given 4 there "
            "and 10 here; give it once"
        ) in out
    # The same points given on both seats of the side are one score, and play on.
    same = TEAM.replace(seat_1, "    - {points: 10}\n    - {}\n    - {counters: {points: 10}}")
    status, out = run(capsys, "test", str(scenario_file(project, same)))
    assert status == 0, out


GUESSED_NATIVES = """\
rule "Caravan Tax" { on route_joined { score caravan_count(route) } }
rule "Rich Lands" { on area_completed { score bonus_points(area) } }
rule "Waypoint Bounty" { on area_completed { if has_waypoint(area) { score 1 } } }
"""


def test_a_native_guessed_from_the_rulebooks_words_is_told_the_natives_about_them(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No native is spelt close to these, so each said only "declare it in game.cards"; the
    natives sharing their words (caravans, bonus points, Waypoints) are named."""
    (project / "cards" / GAME / "guess.cards").write_text(GUESSED_NATIVES, encoding="utf-8")
    status, out = run(capsys, "check")
    assert status == 1
    where = f"cards/{GAME}/guess.cards"
    assert f"{where}:1:46: error[native-undefined]: 'caravan_count' is not a native" in out
    # (Named with their descriptions in game.cards since probe4-dj's hints by the words of
    # a description, which find the same natives as the words they share.)
    assert "hint: did you mean 'caravans' (caravan icons in a trade route" in out
    assert (
        "hint: did you mean 'area_bonus' (the bonus points printed in an area's sections), "
        "'bonus_between' (the bonus points on the tiles between a ley line's two Menhirs) or "
        "'bonus_value' (" in out
    )
    assert "hint: did you mean 'waypoints_in', 'waypoint_value' or 'waypoints_in_play'?" in out
    assert "declare it in game.cards" not in out
