"""audit8 (Uncharted Passage, card by card): what the scenarios cannot say.

The printed Icon Reference is the rulebook's, entry for entry: its last icon, the Anti-Piracy
Mission's "Armament > Pirate's Combat Power -> star", was missing from reference.yaml, so the
sheets printed 13 of the rulebook's 14 icons. A variant without the Mid-event drops it with
the card.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from compiler.sheets.reference import reference_for, resolve

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = Path("/work/shared/rulebooks/uncharted-passage-remastered.txt")
GAME = ROOT / "cards" / "uncharted_passage"
GENERATED = ROOT / "generated" / "uncharted_passage"

#: The rulebook's Icon Reference, in its order (its words: "Icon Reference" at the end of the
#: rulebook), label then meaning. Kept here so the test runs without the shared rulebooks.
ICON_REFERENCE = [
    ("Health track X marked", "Immediately mark an X on the Health track."),
    ("Ship Durability track X marked", "Immediately mark an X on the Ship Durability track."),
    ("Anchor → Scurvy Check", "Make a Scurvy Check when docked at a Port."),
    (
        "Pirate Infested Area → Pirate",
        "roll 2 dice and take Ship Damage equal to the difference, if you are in a Pirate"
        " Infested Area.",
    ),
    ("Checkmark ≥ die", "Roll 2 dice and apply the higher number."),
    ("Checkmark > die (sum if tied)", "Roll 2 dice and apply the higher number; add them if tied."),
    (
        "+1 (Scurvy Check → excluded distance)",
        "You may sail 1 additional space. (Extra distance excluded from Scurvy Check.)",
    ),
    ("Scurvy X, -2", "Reduce Scurvy by up to 2."),
    ("Pirate: -2", "Reduce Pirate's Combat Power by up to 2."),
    ("Reroll die icon", "You may reroll any one die."),
    ("Anchor with card icon", "Immediately gain a Port Card."),
    (
        "Discovery Spot → star, roll",
        "When you get a prestige star on a Discovery Spot, roll 2 dice and choose one.",
    ),
    (
        "Card count track (1/2/3/4+)",
        "At the end of the game, earn 1 point per card for the first 3 cards, and 2 points per"
        " card thereafter.",
    ),
    (
        "Armament > Pirate's Combat Power → star",
        "Gain prestige whenever your Armament is higher than the Pirate's Combat Power.",
    ),
]


def _icons(ir_path: Path, variant: str | None) -> list[tuple[str, str]]:
    ir = json.loads(ir_path.read_text(encoding="utf-8"))
    ref = resolve(reference_for(GAME, variant), ir, {card["id"] for card in ir["cards"]})
    return [(icon.label, icon.meaning) for icon in ref.icons.values()]


def test_the_icon_reference_is_the_rulebooks_every_entry_in_its_order() -> None:
    """Every icon of the rulebook's Icon Reference, with its words, in the rulebook's order."""
    assert _icons(GENERATED / "cards.json", None) == ICON_REFERENCE


def test_the_kept_icon_reference_is_the_rulebooks_text() -> None:
    """The list above is the rulebook's own (when the shared rulebooks are there to read)."""
    if not RULEBOOK.is_file():
        pytest.skip("the shared rulebooks are not on this machine")
    text = RULEBOOK.read_text(encoding="utf-8").split("\nIcon Reference\n")[-1]
    entries = re.findall(r"^• (.+): (.+)$", text, flags=re.MULTILINE)
    assert entries == ICON_REFERENCE


def test_a_variant_without_the_mid_event_drops_the_anti_piracy_icon() -> None:
    """no_mid_event removes the Mid-event cards; the Anti-Piracy icon goes with its card."""
    icons = _icons(GENERATED / "no_mid_event" / "cards.json", "no_mid_event")
    assert icons == ICON_REFERENCE[:-1]
