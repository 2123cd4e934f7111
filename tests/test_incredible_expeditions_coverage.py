"""Incredible Expeditions: every rule paragraph of the rulebook and every card has a scenario.

The table is cards/incredible_expeditions/COVERAGE.md, written by this file
(``.venv/bin/python tests/test_incredible_expeditions_coverage.py``) from the rulebook
(../shared/rulebooks/incredible-expeditions-atlantis.txt), the scenarios' ``rulebook:`` quotes
and the cards in generated/incredible_expeditions/cards.json. A scenario shows a paragraph when
a piece of its quote (pieces are split at "...") is part of the paragraph, or the paragraph is
part of the piece. A paragraph of "Card Types" that tells where a value is printed on a card is
shown by the card data itself (the property named in :data:`LAYOUT`); a line that only heads
the steps below it is named in :data:`HEADINGS`.

The tests: every scenario quotes the rulebook word for word, every paragraph and every card has
a scenario (or is data, or a heading), and COVERAGE.md is what this file writes.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from dsl.yaml_load import load_yaml_all

ROOT = Path(__file__).resolve().parent.parent
RULEBOOK = ROOT.parent / "shared" / "rulebooks" / "incredible-expeditions-atlantis.txt"
SCENARIOS = ROOT / "tests" / "scenarios" / "incredible_expeditions"
CARDS = ROOT / "generated" / "incredible_expeditions" / "cards.json"
TABLE = ROOT / "cards" / "incredible_expeditions" / "COVERAGE.md"

#: Paragraphs of "Card Types" that say where a card prints a value: the card data shows them
#: (the DSL property, in the card files), not a rule a scenario can play.
LAYOUT = {
    "At the top of the card is your Expedition Leader's name.": (
        "every Leader's title (leaders.cards)"
    ),
    "On the bottom of the card is a quote from your character.": "`quote` (leaders.cards)",
    "Along the left side of the card are your character's starting resources": (
        "`coin_pile`, `white_cross`, `black_skull` (leaders.cards); played by setup.yaml"
    ),
    "Locations are the areas of the world you will explore": "kind `location` (game.cards)",
    "At the top of the card is the name of this Location.": (
        "every Location's title (locations.cards)"
    ),
    "In a bubble on the lower-right is the number of Encounters": (
        "`encounters` (locations.cards); played by venture_forth.yaml and winning.yaml"
    ),
    "You will buy Crew cards throughout the game": "kind `crew` (game.cards)",
    "In the middle of the card is the role of this crew member": (
        "every Crew's title and triggers (crew.cards)"
    ),
    "At the bottom of the card are the costs to Acquire this Crew member.": (
        "`to_acquire` (crew.cards); played by rest_turn.yaml"
    ),
    "Resources are extra things you've acquired along the way": "kind `resource` (game.cards)",
    "They are laid out much like Crew cards": ("`values` (resources.cards); played by cards.yaml"),
    "In the middle of the card is the name of the Resource": (
        "every Resource's title and `on play` Ability (resources.cards)"
    ),
    "At the bottom of the card are the costs to purchase it": (
        "`to_acquire` (resources.cards); played by rest_turn.yaml"
    ),
    "At the top of the card is the name of this Encounter.": (
        "every Encounter's title (encounters.cards)"
    ),
    "In the middle of the card, in 1 to 3 bubbles, is the Difficulty": (
        "`difficulty` (encounters.cards); played by encounters.yaml"
    ),
    "At the bottom of the card is a box indicating what Type of encounter": (
        "`type` and triggers (encounters.cards); played by encounter_cards.yaml"
    ),
}
#: Lines that only head the numbered steps after them (each step has its own row).
HEADINGS = (
    "On an Encounter Turn, you do these things:",
    "To Venture Forth:",
    "To Face an Encounter:",
)


def norm(text: str) -> str:
    """One line, straight quotes."""
    text = text.replace("\u201c", '"').replace("\u201d", '"').replace("\u2019", "'")
    return re.sub(r"\s+", " ", text).strip()


def paragraphs(rulebook: str) -> list[tuple[str, str]]:
    """(section, paragraph) for every bullet, step and paragraph after the table of contents."""
    lines = rulebook.split("\n")
    start = next(i for i, line in enumerate(lines) if line.strip() == "Step 1: Set Up the World")
    section, found = "", []
    for raw in lines[start:]:
        line = raw.strip()
        if not line:
            continue
        if len(line) < 60 and not line.endswith((".", "?", ")", ":")) and not line[0].isdigit():
            section = line
            continue
        found.append((section, norm(line.lstrip("\u2022 "))))
    return found


def scenarios() -> list[dict[str, Any]]:
    """Every Incredible Expeditions scenario, with its file, its quote's pieces and its text."""
    found = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        text = path.read_text()
        for doc, raw in zip(
            load_yaml_all(text, "safe", source=str(path)),
            re.split(r"^---$", text, flags=re.M),
            strict=True,
        ):
            if not doc:
                continue
            quote = norm(str(doc.get("rulebook", "")))
            pieces = [p.strip(' "()') for p in re.split(r"\s*(?:\.\.\.|\u2026)\s*", quote)]
            found.append(
                {
                    "file": path.name,
                    "name": doc["scenario"],
                    "quote": quote,
                    "pieces": [p for p in pieces if len(p) > 3],
                    "text": raw,
                }
            )
    return found


def shows(scenario: dict[str, Any], paragraph: str) -> bool:
    return any(p in paragraph or paragraph in p for p in scenario["pieces"])


def cards() -> list[dict[str, Any]]:
    return list(json.loads(CARDS.read_text())["cards"])


def mentions(scenario: dict[str, Any], card: dict[str, Any]) -> bool:
    """The scenario names the card by its id; a rule (no card in the box) by its title."""
    if card["kind"] == "rule":
        return f'"{card["title"]}"' in scenario["text"]
    pattern = rf"(?<![a-z_]){re.escape(card['id'])}(?![a-z_])"
    return re.search(pattern, scenario["text"]) is not None


def table(rulebook: str) -> str:
    """COVERAGE.md's text."""
    found = scenarios()
    out = [
        "# Incredible Expeditions: what the scenarios show",
        "",
        "Written by `tests/test_incredible_expeditions_coverage.py` (run it with python to",
        "rewrite); its tests check that the table is current and every row is shown. Each rule",
        "paragraph of ../shared/rulebooks/incredible-expeditions-atlantis.txt, quoted, with the",
        "scenarios (tests/scenarios/incredible_expeditions/) whose `rulebook:` quote is part of",
        "it; then every card, with the scenarios that name it.",
        "",
        "## Rule paragraphs",
        "",
        "| # | Section | Paragraph | Shown by |",
        "| ---: | --- | --- | --- |",
    ]
    rows = paragraphs(rulebook)
    shown_rows = 0
    for number, (section, paragraph) in enumerate(rows, 1):
        hits = [s for s in found if shows(s, paragraph)]
        cells = [f"{s['file']}: {s['name']}" for s in hits]
        layout = next((v for k, v in LAYOUT.items() if paragraph.startswith(k)), None)
        if layout:
            cells.append(f"data: {layout}")
        if paragraph in HEADINGS:
            cells.append("heading of the steps below")
        shown_rows += bool(cells)
        quoted = paragraph.replace("|", "\\|")
        out.append(f"| {number} | {section} | {quoted} | {'<br>'.join(cells) or '**none**'} |")
    out += ["", "## Cards", "", "| Card | Kind | Scenarios |", "| --- | --- | ---: |"]
    every = cards()
    shown_cards = 0
    for card in every:
        hits = sorted({s["file"] for s in found if mentions(s, card)})
        count = sum(1 for s in found if mentions(s, card))
        shown_cards += bool(count)
        named = f"{card['title']} (`{card['id']}`)"
        out.append(f"| {named} | {card['kind']} | {count}: {', '.join(hits) or '**none**'} |")
    out[8:8] = [
        f"Summary: {shown_rows} of {len(rows)} paragraphs shown, {shown_cards} of {len(every)}"
        f" cards named by a scenario; {len(found)} scenarios.",
        "",
    ]
    return "\n".join(out) + "\n"


needs_rulebook = pytest.mark.skipif(
    not RULEBOOK.exists(), reason="the rulebook is not beside this checkout"
)


@needs_rulebook
def test_every_scenario_quotes_the_rulebook_word_for_word() -> None:
    book = norm(RULEBOOK.read_text())
    for scenario in scenarios():
        assert scenario["pieces"], f"{scenario['file']}: {scenario['name']} quotes nothing"
        for piece in scenario["pieces"]:
            assert piece in book, f"{scenario['file']}: {scenario['name']}: {piece!r}"


@needs_rulebook
def test_every_rule_paragraph_has_a_scenario_or_is_card_data() -> None:
    found = scenarios()
    for section, paragraph in paragraphs(RULEBOOK.read_text()):
        if paragraph in HEADINGS or any(paragraph.startswith(k) for k in LAYOUT):
            continue
        assert any(shows(s, paragraph) for s in found), f"{section}: {paragraph}"


def test_every_card_is_named_by_a_scenario() -> None:
    found = scenarios()
    for card in cards():
        assert any(mentions(s, card) for s in found), card["id"]


@needs_rulebook
def test_the_coverage_table_is_current() -> None:
    assert TABLE.read_text() == table(RULEBOOK.read_text()), (
        "run .venv/bin/python tests/test_incredible_expeditions_coverage.py"
    )


if __name__ == "__main__":
    TABLE.write_text(table(RULEBOOK.read_text()))
    print(f"wrote {TABLE.relative_to(ROOT)}", file=sys.stderr)
