"""A fourth outside audit of Darwin's Journey: Pirates (audit4), written from the rulebook's
sentences and README.md alone, at the rules' edges: a track's last space, a raid short of
exactly one Coin, a Ship one space either side of the first Ocean Region, every Treasure token
taken, an empty Crew deck, the Pirate Scenario's setup, the last round's raid deciding a tie
(``tests/scenarios/darwins_journey/audit4_rules.yaml``); and new cards and house rules
(``tests/data/audit4_darwins_journey/``), each house rule's case beside the base game's.

- ``expect: objective_pile`` (or ``unlocked``, a Ship's ``lane``) passed the scenario's check,
  its kind being in ``EXPECT_KINDS``, then failed with "internal error: KeyError" when it
  ran: ``EXPECT`` had no hook for it. The three hooks are added, and the loader refuses a
  ``GIVEN_KINDS`` / ``EXPECT_KINDS`` key with no hook, at the table's line, for any game.
- README said a rule in ``bounty.cards`` answering ``campsite_reached`` sees the Treasure
  token ``pirates.cards``' rule let the player take; files answer by path, alphabetically, so
  ``bounty.cards`` answers first. The README names a file after ``pirates.cards`` and says
  where a rule that must come "after" goes; the audit's Pirate Bounty is such a file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import assert_simulates, audit_cases, copied_project, run_scenarios
from test_variant_hardening import run

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


def test_an_expect_kind_without_its_hook_is_refused_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A key of EXPECT_KINDS that EXPECT does not read is an error of the natives, at the
    line of EXPECT_KINDS, naming the key and what to add."""
    project = copied_project(tmp_path, monkeypatch, "darwins_journey")
    natives = project / "cards" / "darwins_journey" / "natives.py"
    text = natives.read_text(encoding="utf-8")
    hook = '    "unlocked": lambda g, player: g.board["unlocked"],\n'
    assert hook in text
    natives.write_text(text.replace(hook, ""), encoding="utf-8")
    line = 1 + text.replace(hook, "").split("\nEXPECT_KINDS = {")[0].count("\n") + 1
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"cards/darwins_journey/natives.py:{line}:1: error[natives-broken]: the game's natives "
        "cannot be used: EXPECT_KINDS names 'unlocked', which EXPECT does not have" in out
    ), out
    assert "hint: add EXPECT['unlocked'] (the function that reads it)" in out, out


def test_a_rule_in_a_file_before_pirates_cards_answers_before_the_raid(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    """The audit's Pirate Bounty in ``bounty.cards`` (before ``pirates.cards``) answers before
    the Pirate Raid: the raided player still holds their token and gains the point too, where
    ``raid_bounty.cards`` pays the unraided holder only (scenarios/cards.yaml)."""
    rule = (AUDIT / "raid_bounty.cards").read_text(encoding="utf-8")
    generated = built_copy("darwins_journey", {"bounty.cards": rule})
    text = (
        "scenario: before\ngame: darwins_journey\nplayers: 2\ngiven:\n"
        "  pirate_region: section_2\n  players:\n"
        "    - counters: {ship_space: 4, coins: 4, treasure: 1}\n"
        "    - counters: {ship_space: 9, coins: 0, treasure: 1}\n"
        "do:\n  - action: pirate_raid\nexpect:\n  players:\n"
        "    - counters: {coins: 0, treasure: 0, victory_points: 1}\n"
        "    - counters: {treasure: 1, victory_points: 1}\n"
        "  events_in_order:\n    - gain player 1 victory_points 1\n"
        "    - return_treasure player 1\n"
    )
    (result,) = run_scenarios(generated, text, tmp_path / "s.yaml")
    assert result.passed, result.message
