"""A third, independent tester's Darwin's Journey: Pirates, written from the rulebook
(/work/shared/rulebooks/darwins-journey-pirates.txt) and README.md alone: a Special Action
tile, a Crew card and a rule (tests/data/audit3_darwins_journey/audit3.cards) and three house
rules (its variants/: a verb redefined, a setup phase inserted, a phase replaced), built into a
copy of the game, held to their scenarios and simulated, seeded. (The rule cases are
tests/scenarios/darwins_journey/audit3_rules.yaml.)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import assert_cases_hold, audit_files, diagnostics_with_card_file

from engine import sim

AUDIT = Path(__file__).resolve().parent / "data" / "audit3_darwins_journey"
VARIANTS = ("calm_first_rounds", "open_diary", "pirates_at_sea")


def test_the_new_cards_and_house_rules_hold_their_cases(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    assert_cases_hold(built_copy, "darwins_journey", AUDIT, VARIANTS, 9)


def test_the_house_rules_simulate_whole_games_seeded(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    folder = built_copy("darwins_journey", audit_files(AUDIT)) / "darwins_journey"
    means = {}
    for point in [folder, *(folder / name for name in VARIANTS)]:
        for mode in ("solo", "competitive"):
            report = sim.simulate(point, 6, 11, mode, "greedy", cards=False)
            again = sim.simulate(point, 6, 11, mode, "greedy", cards=False)
            assert report.games == 6, (point.name, mode)
            # Seeded: the same seed plays the same games.
            assert report.tally.scores == again.tally.scores, (point.name, mode)
            means[point.name, mode] = report.mean
    # Calm first rounds spares the first two raids: never a lower mean than the base game on
    # the same seeds, which deal the same games until the first raid is skipped.
    assert means["calm_first_rounds", "solo"] >= means["darwins_journey", "solo"]


def test_a_member_of_a_player_points_at_the_native_that_asks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "every player whose Ship is in the same Ocean Region as the Pirate Ship": a designer
    # writes `raided.ship_region`; a player has no members, and the game asks it by a native.
    cards = (
        'rule "Probe" {\n  on reward_phase_end {\n'
        "    for each raided in players where raided.ship_region == pirate_region() {\n"
        "      lose victory_points 1\n    }\n  }\n}\n"
    )
    (problem,) = diagnostics_with_card_file(tmp_path, monkeypatch, "darwins_journey", cards)
    assert problem.code == "member-unknown"
    assert (problem.span.line, problem.span.column) == (3, 38)
    assert problem.hints == (
        "'raided' is not a card of a kind; ask the game: ship_region(raided) "
        "(the Ocean Region of a player's ship)",
    )
