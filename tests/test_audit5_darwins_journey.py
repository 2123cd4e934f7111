"""A fifth outside audit of Darwin's Journey: Pirates (audit5), written from the rulebook's
sentences and README.md alone, at the rules' edges: P2 returning the very worker that hired
it, P4 on a Campsite holding the player's own Tent, two Tents' Reward Phase Coins toward a raid,
a raided player with nothing left to give, P3 with exactly two tiles, a move past an empty
Campsite onto a full one (``tests/scenarios/darwins_journey/audit5_rules.yaml``); and new cards
and house rules (``tests/data/audit5_darwins_journey/``): a Crew card setting off the raid, a
Special Action tile and a Crew card calling a DSL verb with and without its default, an
Objective with `unless`, a goal tile over the Campsites; house rules rolling a die, extending a
shipped variant with a standard-library module, changing cards' properties and removing one,
removing a kind, and a phase inserted into the round.

Bugs found (each with its test here or in tests/test_audit5_land_vs_sea.py):

- `self` given to a card parameter in a flow phase passed the check (README: "`self` is an
  error" in a phase).
- A native named by a plural was compared with "is" on the printed card: "the free Tent sites
  of the site is 0".
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import assert_simulates, audit_cases, audit_texts, copied_project
from test_variant_hardening import run

GAME = "darwins_journey"
AUDIT = Path(__file__).resolve().parent / "data" / "audit5_darwins_journey"
VARIANTS = ["cheap_camps", "double_raid", "no_goals", "pirate_lord", "stormy_seas"]

pytestmark = pytest.mark.usefixtures("fresh_file_cache")


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Five new cards and five house rules build, hold their 15 cases and play whole games
    solo and competitive."""
    results, points = audit_cases(built_copy, GAME, AUDIT)
    assert [point.name for point in points[1:]] == VARIANTS
    assert [f"{r.name}: {r.message}" for r in results if not r.passed] == []
    assert len(results) == 15
    assert_simulates(points, ("solo", "competitive"))


def test_self_given_to_a_campsite_parameter_in_a_phase_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `pitch_tent`'s parameter names a Campsite (param site card { names campsite }); a phase
    # has no card to give it, and `self` there is refused as it is everywhere in the flow.
    project = copied_project(tmp_path, monkeypatch, GAME)
    (project / "cards" / GAME / "variants" / "house.yaml").write_text(
        "description: a phase pitching a Tent on itself\n"
        "flow:\n"
        "  - insert: |\n"
        "      phase camp { pitch_tent self }\n"
        "    after: pirate_raid\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "house.yaml:4:31: error[self-in-flow]" in out, out


def test_a_native_named_by_a_plural_is_compared_with_are(tmp_path: Path) -> None:
    # audit4's Correspondence tile compares free_tent_sites(site), "the free Tent sites of".
    texts = audit_texts(tmp_path, GAME, AUDIT.parent / "audit4_darwins_journey")
    assert (
        # wording6: the loop's card is "the Campsite", as its kind is named (was "the site").
        "for each Campsite where the free Tent sites of the Campsite are 0: gain 1 victory point"
        in texts["Letters to Darwin's Sisters"]
    ), texts["Letters to Darwin's Sisters"]
    # A native named by a singular keeps "is".
    mine = audit_texts(tmp_path / "mine", GAME, AUDIT)
    assert "the Campsite's track is the Ocean track" in mine["Treasure Map"]
