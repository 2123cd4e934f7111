"""A fifth, independent tester's Land vs Sea: Uncharted, written from the rulebook
(/work/shared/rulebooks/land-vs-sea-uncharted.txt) and the README alone: rule cases at the
edges (tests/scenarios/land_vs_sea/audit5_rules.yaml: a single tile that is a whole Ley line, a
Menhir beside one Menhir and far from another, a Waypoint surrounded and then its hole filled
by the Lost City, the Lost Traders' land face raided by a Pirate and a Bandit, the 3 player
game's lone player completing a sea area); new tiles, a layer and a rule
(tests/data/audit5_land_vs_sea/audit5.cards) and house rules of five kinds (its variants/: one
extending a shipped mix with a standard-library module, one rolling a die each turn, a tile's
printed values changed with a layer added, a special tile removed, a function of the end game
scoring redefined, a rule reading the side's points), each played by scenarios beside the base
game's answer, and simulated.

Bugs found:

- In the team games a side's points are kept on its first seat, and a team mate's own
  `points` counter stayed 0: a card or phase reading `points` for a team mate (`if points <
  20 { score 1 }` when seat 3 places) read 0, not the team's score, though every write went to
  the team ("score 2 rather than the usual 1 bonus point for the Land team"). A team mate's
  side counters (points, bonus tokens) now mirror the marker's, and the flow's winner is among
  the seats keeping the sides' points.

- README: "There is no 'this card' (`self` is an error)" in a flow phase. A phase giving
  `self` to a verb's card parameter (`phase x { discard self }`) passed `cardc check` and
  compiled to a discard of nothing; it is now `self-in-flow` at its YAML line and column, as
  any other `self` in a phase is.
- A native whose words name a plural was compared with "is": the Pilgrims' Road printed "the
  bonus points on the tiles in-between is at least 4" (and Darwin's Journey's free Tent sites
  "is 0"); such a comparison now reads "are".
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import (
    assert_cases_hold,
    assert_simulates,
    audit_cases,
    audit_texts,
    copied_project,
)
from test_variant_hardening import run

from engine.runtime import RandomLegal

GAME = "land_vs_sea"
DATA = Path(__file__).resolve().parent / "data" / "audit5_land_vs_sea"
VARIANTS = (
    "city_ties",
    "comeback",
    "harbour_masters",
    "no_lost_city",
    "rich_stones",
    "storm_tiles",
)

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


def test_the_new_cards_and_house_rules_hold_their_cases(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Two tiles (a hex tile with a City, a Ship and a Menhir; a special tile with a City, a
    Bandit and a Pirate), a layer, a rule and six house rules build and hold their 21 cases."""
    assert_cases_hold(built_copy, GAME, DATA, VARIANTS, 21)


def test_the_house_rules_play_whole_games(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    _, points = audit_cases(built_copy, GAME, DATA)
    assert_simulates(points, ("competitive",))


def test_a_team_game_names_the_winning_side_once_its_mates_read_the_teams_points() -> None:
    # With the team mates' counters mirroring the marker's, `winner highest` over the seats
    # would tie seat 1 and seat 3 of the Land team; the winner is the side's first seat.
    from engine.loader import new_game

    folder = Path(__file__).resolve().parent.parent / "generated" / GAME
    game = new_game(folder, players=4, seed=1, policies={-1: RandomLegal()})
    game.give_counter(game.players[2], "points", 30)
    game.give_counter(game.players[3], "points", 12)
    assert [p.counters["points"] for p in game.players] == [30, 12, 30, 12]
    found = game.result()
    assert found.winner == 0
    assert found.scores == [30, 12, 30, 12]
    # The Sea team mate scores 18: the team's marker and the mate both read 30, a tie.
    game.award(game.players[3], 18, "a test")
    assert [p.counters["points"] for p in game.players] == [30, 30, 30, 30]
    assert game.result().winner is None


def test_self_given_to_a_card_parameter_in_a_flow_phase_is_refused_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The bug: `discard self` in a phase passed the check (a card parameter took `self`
    # without asking whether there is a card) and discarded nothing when the phase ran.
    project = copied_project(tmp_path, monkeypatch, GAME)
    variant = project / "cards" / GAME / "variants" / "house.yaml"
    variant.write_text(
        "description: a phase that discards itself\n"
        "flow:\n"
        "  - insert: |\n"
        "      phase tidy { discard self }\n"
        "    after: placements\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "cards/land_vs_sea/variants/house.yaml:4:28: error[self-in-flow]: the flow is no card, "
        "so 'self' means nothing here" in out
    ), out
    assert "1 error" in out, out


def test_a_card_discarding_itself_still_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The fix asks only the flow: a card's own `discard self` is what `self` is for.
    project = copied_project(tmp_path, monkeypatch, GAME)
    (project / "cards" / GAME / "house.cards").write_text(
        'rule "One Use" {\n  on tile_placed {\n    score 1\n    discard self\n  }\n}\n',
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 0, out


def test_a_native_named_by_a_plural_is_compared_with_are(tmp_path: Path) -> None:
    texts = audit_texts(tmp_path, GAME, DATA)
    assert (
        "where the bonus points on the tiles in-between are at least 4: score 2 points"
        in texts["Pilgrims' Road"]
    ), texts["Pilgrims' Road"]
    # A native named by a singular keeps "is" (Waystone's caravans are scored, not compared).
    assert "score 1 point per caravan icon in the trade route" in texts["Waystone scoring"]
