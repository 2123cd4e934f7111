"""audit13 (Uncharted Passage: Remastered, an independent tester): what the scenarios cannot say.

The rule cases of the shipped cards are ``tests/scenarios/uncharted_passage/audit13.yaml``; the
new cards and house rules, with their cases, ``tests/data/audit13_uncharted_passage/``.

Found:

- A second Exploration Journal was offered for a second die at the same Discovery Spot (a
  reward of two dice): "You can only use it once for each Discovery Spot."
- ``single_use false`` (README: "keeps it for good") kept only the Port Cards the game's
  Python plays: a house rule's Smoke Bomb, Rum or Lime Juice, whose blocks say ``discard
  self``, was still discarded, and so was Rum played for the Scurvy Check and Lime Juice
  played against Plague (``play lime_juice``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from probing import assert_cases_hold, assert_simulates

ROOT = Path(__file__).resolve().parent.parent
AUDIT = ROOT / "tests" / "data" / "audit13_uncharted_passage"

#: The audit's scenarios (tests/data/audit13_uncharted_passage/scenarios/).
CASES = 18


def test_new_cards_and_house_rules_play_by_the_rulebook(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """The audit's new cards (audit13.cards) and house rules (keep_cards, hardy_crew,
    souvenirs) check and build; every case of them holds; each plays whole greedy games in
    every mode."""
    points = assert_cases_hold(
        built_copy,
        "uncharted_passage",
        AUDIT,
        ("hardy_crew", "keep_cards", "souvenirs"),
        CASES,
    )
    assert_simulates(points, ("solo", "competitive", "coop"))
