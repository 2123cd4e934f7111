"""A fourth outside audit of Darwin's Journey: Pirates (audit4), written from the rulebook's
sentences and README.md alone, at the rules' edges: a track's last space, a raid short of
exactly one Coin, a Ship one space either side of the first Ocean Region, every Treasure token
taken, an empty Crew deck, the Pirate Scenario's setup, the last round's raid deciding a tie
(``tests/scenarios/darwins_journey/audit4_rules.yaml``); and new cards and house rules
(``tests/data/audit4_darwins_journey/``), each house rule's case beside the base game's.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from probing import assert_simulates, audit_cases

AUDIT = Path(__file__).resolve().parent / "data" / "audit4_darwins_journey"
VARIANTS = [
    "buried_treasure",
    "last_seat_purse",
    "pirate_sunset",
    "raid_at_dawn",
    "rich_rewards",
    "treasure_interest",
]


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Six new cards (a Crew card testing the Pirate Ship's supply, one paying by a native, a
    Special Action tile with a block option paying or losing points, a rule after the raid, an
    Objective and a Correspondence tile) and six house rules (a param, a phase moved, a verb
    redefined, a setup bonus, an end-game score, an end condition with a new card) build,
    hold their 19 cases and play whole games solo and competitive."""
    results, points = audit_cases(built_copy, "darwins_journey", AUDIT)
    assert [point.name for point in points[1:]] == VARIANTS
    assert [f"{r.name}: {r.message}" for r in results if not r.passed] == []
    assert len(results) == 19
    assert_simulates(points, ("solo", "competitive"))
