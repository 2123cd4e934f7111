"""Land vs Sea: Uncharted: every rule paragraph and printed example of the rulebook has a scenario.

The table is cards/land_vs_sea/COVERAGE.md, written by this file
(``.venv/bin/python tests/test_land_vs_sea_coverage.py``) from the rulebook
(../shared/rulebooks/land-vs-sea-uncharted.txt) and the scenarios' ``rulebook:`` quotes
(tests/scenarios/land_vs_sea/). The rulebook's text is pages (``---``) of paragraphs, some one
line each, some wrapped: a paragraph ends at a line ending a sentence (``.``, ``!``, ``?``,
``:``), and a bullet, a numbered step, an ``Example:``, ``Important:`` or ``Remember:`` starts a
new one. A line that only heads a page or a part of it (:data:`HEADINGS`), a page number and a
diagram's letter are not paragraphs. The box's contents (the first page) are a row each.

A scenario shows a paragraph when a piece of its quote (pieces are split at "...") is part of
the paragraph, or holds the paragraph or one of its sentences. A box component is shown by the
scenarios that quote it and by its card data (:data:`COMPONENTS`).

The quotes are compared as the rulebook prints them, with its typography made plain: curly
quotes straight, the en dash a hyphen, bullets dropped, and the bonus point icon (printed as
"( )" in this text) left out.

The tests: every scenario quotes the rulebook word for word, every paragraph and every example
has a scenario, every scenario COVERAGE.md names exists, and COVERAGE.md is what this file
writes. Without the rulebook beside the checkout only the scenario names are checked.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from dsl.yaml_load import load_yaml_all

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script, it reads the scenarios with cardc's YAML
RULEBOOK = ROOT.parent / "shared" / "rulebooks" / "land-vs-sea-uncharted.txt"
SCENARIOS = ROOT / "tests" / "scenarios" / "land_vs_sea"
TABLE = ROOT / "cards" / "land_vs_sea" / "COVERAGE.md"

#: Each page's title, in order from the box's contents (the rulebook's contents page is
#: skipped): the rulebook prints some titles at the foot of their page, so they are named here.
PAGES = (
    "What's in the box",
    "Overview",
    "Tailor your experience",
    "Setup",
    "Setup: special tiles and bonus tokens",
    "Menhir scoring",
    "Menhir scoring",
    "Menhir scoring",
    "Menhir scoring",
    "City scoring",
    "City scoring: bonus points",
    "City scoring: bonus points",
    "City scoring: Waypoints",
    "City scoring: end game trade routes",
    "City scoring: end game trade routes",
    "Bandit & Pirate scoring",
    "Bandit & Pirate scoring",
)

#: Lines that only head a page or a part of one: not paragraphs. Those that head the part
#: after them name it (:data:`SUBSECTIONS`).
HEADINGS = frozenset(
    {
        "What's in the box",
        "Overview",
        "Tailor your experience",
        "Setup",
        "Starting tiles",
        "Lost City & Lost Traders",
        "special tiles",
        "Bonus scoring tokens",
        "Menhir scoring",
        "City scoring",
        "1. Bonus points & Waypoints",
        "Bonus points",
        "Lost City tile",
        "Waypoints",
        "2. End game trade routes",
        "Bandit & Pirate",
        "scoring",
    }
)
SUBSECTIONS = {
    "Starting tiles": "Setup: starting tiles",
    "Bonus scoring tokens": "Setup: bonus scoring tokens",
    "1. Bonus points & Waypoints": "City scoring: bonus points & Waypoints",
    "Lost City tile": "City scoring: the Lost City tile",
}

#: The box's contents, shown by the card data that holds them as well as by scenarios.
COMPONENTS = {
    "Scoring aids": "each expansion layer's `aid_front_players`, `aid_back_players` (layers.cards)",
    "2 new double sided special tiles": "kind `tile`: Lost City, Lost Traders (tiles.cards)",
    "24 double sided hex tiles": "kind `hex_tile`, box `uncharted`, both faces (hex_tiles.cards)",
    "2 large double sided starting tiles": (
        "kind `starting_tile`: 2 tiles, 2 faces of 4 parts (starting_tiles.cards)"
    ),
    "6 Bonus scoring tokens: +50/+100": "kind `bonus_token`, 6 copies (components.cards)",
}

#: Sentence ends that close a paragraph, and the starts that open one.
_ENDS = (".", "!", "?", ":")
_STARTS = re.compile(r"^(?:\u2022|Example:|Important:|Remember:|\d+\. )")


def norm(text: str) -> str:
    """One line, the rulebook's typography made plain (see the module's docstring)."""
    text = text.replace("\u201c", '"').replace("\u201d", '"')
    text = text.replace("\u2018", "'").replace("\u2019", "'").replace("\u2013", "-")
    text = text.replace("\u2022", " ").replace(" ( )", "")
    return re.sub(r"\s+", " ", text).strip()


def _noise(line: str) -> bool:
    """A page number or a diagram's letters ("A", "B", "A B")."""
    return line.isdigit() or re.fullmatch(r"[A-B](?: [A-B])*", line) is not None


def paragraphs(rulebook: str) -> list[tuple[str, str, bool]]:
    """(section, paragraph, is an example) for every box component, paragraph and example."""
    pages = [p.strip() for p in rulebook.split("\n---\n")][1:]
    if len(pages) != len(PAGES):
        raise AssertionError(
            f"the rulebook has {len(pages)} pages after its contents, not {len(PAGES)}"
        )
    found: list[tuple[str, str, bool]] = []
    for title, page in zip(PAGES, pages, strict=True):
        raw_lines = [line.strip() for line in page.splitlines() if line.strip() not in ("", "---")]
        if title == "What's in the box":
            found += [
                (title, norm(line), False) for line in raw_lines if norm(line) not in HEADINGS
            ]
            continue
        # A page of wrapped lines (the printed pages' columns) rather than a line a paragraph:
        # there an example runs on over its lines until a heading or the next start.
        wrapped = max(len(line) for line in raw_lines) < 70
        section, current = title, ""
        for raw in [*raw_lines, ""]:
            line = norm(raw)
            if line and _noise(line):
                continue
            example = wrapped and current.startswith("Example:")
            # The page's end, a heading, a start, or a sentence's end outside a wrapped example
            # closes the paragraph so far.
            heading = line in HEADINGS
            if (
                not line
                or heading
                or _STARTS.match(raw)
                or (current.endswith(_ENDS) and not example)
            ):
                if current:
                    found.append((section, current, current.startswith("Example:")))
                current = ""
            if heading:
                section = SUBSECTIONS.get(line, section)
            elif line:
                current = f"{current} {line}".strip()
    return found


def scenarios() -> list[dict[str, Any]]:
    """Every Land vs Sea scenario, with its file, its quote's pieces and its text."""
    found = []
    for path in sorted(SCENARIOS.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        for doc, raw in zip(
            load_yaml_all(text, "safe"), re.split(r"^---$", text, flags=re.M), strict=True
        ):
            if not doc:
                continue
            quote = norm(str(doc.get("rulebook", "")))
            pieces = [p.strip(' "()') for p in re.split(r"\s*(?:\.\.\.|\u2026)\s*", quote)]
            found.append(
                {
                    "file": path.name,
                    "name": norm(str(doc["scenario"])),
                    "quote": quote,
                    "pieces": [p for p in pieces if len(p) > 3],
                    "text": raw,
                }
            )
    return found


def sentences(paragraph: str) -> list[str]:
    """The paragraph's sentences (and a bullet's clause, without its closing comma)."""
    parts = re.split(r"(?<=[.!?:])\s+", paragraph.rstrip(",;"))
    return [p.rstrip(",;") for p in parts if len(p) > 20] or [paragraph.rstrip(",;")]


def shows(scenario: dict[str, Any], paragraph: str) -> bool:
    """The scenario's quote is part of the paragraph, or holds it or one of its sentences."""
    return any(
        piece in paragraph or any(s in piece for s in sentences(paragraph))
        for piece in scenario["pieces"]
    )


def table(rulebook: str) -> str:
    """COVERAGE.md's text."""
    found = scenarios()
    rows = paragraphs(rulebook)
    out = [
        "# Land vs Sea: Uncharted: what the scenarios show",
        "",
        "Written by `tests/test_land_vs_sea_coverage.py` (run it with python to rewrite); its",
        "tests check that the table is current, that every row is shown, that every scenario",
        "quotes the rulebook word for word and that every scenario named here exists. Each",
        "component of the box, rule paragraph and printed example of",
        "../shared/rulebooks/land-vs-sea-uncharted.txt, quoted, with the scenarios",
        "(tests/scenarios/land_vs_sea/) whose `rulebook:` quote is part of it or holds one of its",
        "sentences. Examples are marked *Example*. The base game's own rules are not in this",
        "rulebook: cards/land_vs_sea/HOST.md says what is modelled of them.",
        "",
        "| # | Section | Paragraph | Shown by |",
        "| ---: | --- | --- | --- |",
    ]
    shown = examples = shown_examples = 0
    for number, (section, paragraph, example) in enumerate(rows, 1):
        cells = [f"{s['file']}: {s['name']}" for s in found if shows(s, paragraph)]
        if paragraph in COMPONENTS:
            cells.append(f"data: {COMPONENTS[paragraph]}")
        shown += bool(cells)
        examples += example
        shown_examples += example and bool(cells)
        kind = " *Example*" if example else ""
        quoted = paragraph.replace("|", "\\|")
        out.append(
            f"| {number} | {section}{kind} | {quoted} | {'<br>'.join(cells) or '**none**'} |"
        )
    out[11:11] = [
        f"Summary: {shown} of {len(rows)} rows shown ({len(COMPONENTS)} box components, "
        f"{len(rows) - len(COMPONENTS) - examples} paragraphs, {shown_examples} of {examples} "
        f"printed examples); {len(found)} scenarios.",
        "",
    ]
    return "\n".join(out) + "\n"


needs_rulebook = pytest.mark.skipif(
    not RULEBOOK.exists(), reason="the rulebook is not beside this checkout"
)


@needs_rulebook
def test_every_scenario_quotes_the_rulebook_word_for_word() -> None:
    book = norm(RULEBOOK.read_text(encoding="utf-8"))
    for scenario in scenarios():
        assert scenario["pieces"], f"{scenario['file']}: {scenario['name']} quotes nothing"
        for piece in scenario["pieces"]:
            assert piece in book, f"{scenario['file']}: {scenario['name']}: {piece!r}"


@needs_rulebook
def test_every_paragraph_and_example_has_a_scenario_and_every_scenario_a_row() -> None:
    found = scenarios()
    rows = paragraphs(RULEBOOK.read_text(encoding="utf-8"))
    assert sum(1 for _, _, example in rows if example) >= 9
    for section, paragraph, _example in rows:
        if paragraph in COMPONENTS:
            continue  # a component of the box: its card data shows it
        assert any(shows(s, paragraph) for s in found), f"{section}: {paragraph}"
    # And every scenario shows some row: none quotes a sentence the table does not hold.
    for scenario in found:
        assert any(shows(scenario, p) for _, p, _ in rows), scenario["name"]


def test_every_scenario_the_table_names_exists() -> None:
    # Without the rulebook the table cannot be rewritten, but what it names can be checked.
    names = {(s["file"], s["name"]) for s in scenarios()}
    text = TABLE.read_text(encoding="utf-8")
    # A scenario file's name may hold digits (audit2_rules.yaml).
    named = re.findall(r"(?:<br>|\| )([a-z0-9_]+\.yaml): (.+?)(?=<br>| \|$)", text, flags=re.M)
    named_set = {(file, name.replace("\\|", "|")) for file, name in named}
    for file, name in sorted(named_set - names):
        raise AssertionError(f"COVERAGE.md names {file}: {name}, which is not a scenario")
    # Every scenario shows a row, so every one is named.
    assert named_set == names, sorted(names - named_set)


@needs_rulebook
def test_the_coverage_table_is_current() -> None:
    assert TABLE.read_text(encoding="utf-8") == table(RULEBOOK.read_text(encoding="utf-8")), (
        "run .venv/bin/python tests/test_land_vs_sea_coverage.py"
    )


if __name__ == "__main__":
    TABLE.write_text(table(RULEBOOK.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {TABLE.relative_to(ROOT)}", file=sys.stderr)
