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
- A house rule's ``ship_damage`` of ``max(amount - 1, 0)`` (armoured_hull) stopped ``cardc
  check`` and ``cardc build`` with an internal error (StopIteration in the sheets' text):
  Critical Damage's ``ship_damage 1`` wrote its value in, ``max(0, 0)``, and the "amount by
  which ... exceeds" wording looked for an argument other than 0; and ``ship_damage 3``
  printed "the larger of 2 and 0" (a min or max of two numbers is now its value).
- A house rule removing the Prestige Track card (``remove: [prestige_track]``: no Port Cards
  from the track) played with a stand-in's anchor spaces 10, 20 ... 60, and one removing every
  title card (``remove_kinds: [title]``) still gave the rulebook's titles: the stand-ins, meant
  for data that declares no such kind, now stand in only then.
- A title card whose ``min_score`` is above its ``max_score`` (a house rule's bounds the wrong
  way round) holds no score: it was silent, the scores between left to no title; it is an
  error at ``cardc check`` now, at the variant's line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import assert_cases_hold, assert_simulates, copied_project, copy_game, printed_texts
from test_variant_hardening import run

ROOT = Path(__file__).resolve().parent.parent
AUDIT = ROOT / "tests" / "data" / "audit13_uncharted_passage"

#: The audit's scenarios (tests/data/audit13_uncharted_passage/scenarios/).
CASES = 26


def test_new_cards_and_house_rules_play_by_the_rulebook(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """The audit's new cards (audit13.cards) and house rules (armoured_hull, hardy_crew,
    keep_cards, no_anchor_spaces, no_titles, souvenirs) check and build; every case of them
    holds; each plays whole greedy games in every mode."""
    points = assert_cases_hold(
        built_copy,
        "uncharted_passage",
        AUDIT,
        (
            "armoured_hull",
            "hardy_crew",
            "keep_cards",
            "no_anchor_spaces",
            "no_titles",
            "souvenirs",
        ),
        CASES,
    )
    assert_simulates(points, ("solo", "competitive", "coop"))


def test_a_ship_damage_of_max_zero_prints_and_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """armoured_hull's ``mark durability max(amount - 1, 0)`` is printed wherever the rules
    call it: Critical Damage's "one additional damage" (``ship_damage 1``) reads "equal to 0",
    not an internal error of ``cardc check``."""
    project = copied_project(tmp_path, monkeypatch, "uncharted_passage")
    source = AUDIT / "variants" / "armoured_hull.yaml"
    variants = project / "cards" / "uncharted_passage" / "variants"
    (variants / "armoured_hull.yaml").write_text(source.read_text(encoding="utf-8"))
    status, out = run(capsys, "check")
    assert status == 0, out
    assert "internal error" not in out


def test_a_title_band_the_wrong_way_round_is_an_error_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "41-45: Veteran Explorer": a band from 46 up to 41 holds no final score, so 41 to 45
    would earn no title; ``cardc check`` says so at the variant's line, with the fix."""
    project = copied_project(tmp_path, monkeypatch, "uncharted_passage")
    variant = project / "cards" / "uncharted_passage" / "variants" / "swapped.yaml"
    variant.write_text(
        "description: Veteran bounds swapped\n"
        "cards:\n"
        "  veteran_explorer: {min_score: 46, max_score: 41}\n"
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "variants/swapped.yaml:3:22: error[card-data]" in out
    assert "min_score 46 is above max_score 41" in out
    assert "min_score 41; max_score 46" in out


#: A verb of max(amount - 1, 0), called with numbers: the sheets write the values in.
ARMOURED_CARDS = """
verb hull_damage(amount number) "take Ship Damage, 1 less" {
  mark durability max(amount - 1, 0)
}
mid_event "Reef" {
  on reveal {
    hull_damage 3
  }
}
mid_event "Scrape" {
  on reveal {
    hull_damage 1
  }
}
"""


def test_a_verb_of_max_called_with_numbers_prints_the_number(tmp_path: Path) -> None:
    """``max(amount - 1, 0)`` called as ``hull_damage 3`` prints "equal to 2" (it read "the
    larger of 2 and 0"), and as ``hull_damage 1`` "equal to 0" (it stopped the sheets with
    StopIteration)."""
    folder = copy_game(tmp_path, "uncharted_passage")
    (folder / "armoured.cards").write_text(ARMOURED_CARDS, encoding="utf-8")
    texts = printed_texts(folder, {"armoured.cards"})
    assert texts["Reef"].endswith("the Ship Durability track equal to 2."), texts["Reef"]
    assert texts["Scrape"].endswith("the Ship Durability track equal to 0."), texts["Scrape"]
