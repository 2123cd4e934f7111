"""audit8 (Uncharted Passage, card by card): what the scenarios cannot say.

The printed Icon Reference is the rulebook's, entry for entry: its last icon, the Anti-Piracy
Mission's "Armament > Pirate's Combat Power -> star", was missing from reference.yaml, so the
sheets printed 13 of the rulebook's 14 icons. A variant without the Mid-event drops it with
the card.

Each icon is printed on its own card: the Exploration Journal's "Discovery Spot -> star, roll"
was keyed by a reward's ``stars`` and so printed on every mission's reward (telling a reader
to "roll 2 dice and choose one" for Before the Cherry Blossoms Fall), and never on the
Journal; the Journal, Figurehead, Adventures of a Sailor and Famine, whose rule is their own
text, printed none of their icons.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from compiler.sheets.model import build_model
from compiler.sheets.reference import reference_for, resolve
from compiler.sheets.text import IconRef

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


def _card_icons() -> dict[str, set[str]]:
    """Each printed card of the game: the icons its properties and paragraphs inline."""
    ir = json.loads((GENERATED / "cards.json").read_text(encoding="utf-8"))
    ref = resolve(reference_for(GAME, None), ir, {card["id"] for card in ir["cards"]})
    model = build_model(ir, ref, folder=GAME)
    icons: dict[str, set[str]] = {}
    for card in model.cards:
        texts = [text for _, text in card.properties] + list(card.paragraphs)
        icons[card.id] = {seg.name for text in texts for seg in text if isinstance(seg, IconRef)}
    return icons


def test_the_exploration_journals_icon_is_on_the_journal_not_on_every_reward() -> None:
    """ "Discovery Spot -> star, roll: When you get a prestige star on a Discovery Spot, roll 2
    dice and choose one" is the Exploration Journal's: no mission's reward carries it."""
    icons = _card_icons()
    carrying = sorted(card for card, names in icons.items() if "exploration_journal" in names)
    assert carrying == ["exploration_journal"]
    # The Before the Cherry Blossoms Fall's reward is stars alone (a route mission, no spot).
    assert icons["before_the_cherry_blossoms_fall"] == set()


def test_the_cards_whose_rule_is_their_text_print_their_icons() -> None:
    """The Icon Reference's icons of Famine ("Anchor -> Scurvy Check"), Figurehead ("Reroll
    die icon") and Adventures of a Sailor ("Card count track") are on those cards."""
    icons = _card_icons()
    # (and its Pirate formula's icon, "Checkmark ≥ die")
    assert icons["famine"] == {"scurvy_check", "highest"}
    assert icons["figurehead"] == {"reroll"}
    assert icons["adventures_of_a_sailor"] == {"card_count"}
