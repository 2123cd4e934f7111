"""The text lint: generated card text that does not read as a rulebook fails the build.

Checked on every card and rule of a sheet, in the words printed (icons and provisional marks
left out): a doubled word ("When when"), a raw id ("lisbon" where the rulebook says "Lisbon",
``port_cards``), a DSL operator or call (``|``, ``==``, ``highest(2d6)``), a count that
disagrees with its noun ("1 curses", "gain 1 Coins"), and an internal word as a property
value ("Type: creature" where the rulebook says "Creature"). Each problem is an error at the
card's source line, saying what to write in ``reference.yaml`` instead.
"""

from __future__ import annotations

import re
from typing import Any

from compiler.sheets.model import SheetModel
from compiler.sheets.text import IconRef, Provisional, Text


class LintError(ValueError):
    """Card text that reads wrong; ``source`` is the card's ``file:line``."""

    def __init__(self, message: str, source: str):
        super().__init__(message)
        self.source = source


_DOUBLED = re.compile(r"\b([A-Za-z]+)\s+\1\b", re.IGNORECASE)
_SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
_OPERATOR = re.compile(r"\|\||\||==|!=|>=|<=|->|&&|[{}]|\b[a-z_]+\((?=[a-z0-9_, ]*\))")
_ONE_PLURAL = re.compile(r"\b(?:1|one|a)\s+([A-Za-z]+s)\b")
#: Words in -s that are singular.
_SINGULAR_S = frozenset(
    "bonus status plus minus gas canvas atlas chaos this its less across always various "
    "previous famous crus us is was has does thus yes lens".split()
)
#: Doubled words that are English ("that that" is rare but correct; "had had").
_DOUBLE_OK = frozenset({"had", "that"})


def plain_words(text: Text) -> str:
    """``text`` as the words a reader sees (icons and provisional marks left out)."""
    return "".join(s for s in text if not isinstance(s, (IconRef, Provisional)))


def _problems(words: str) -> list[str]:
    found = []
    for match in _DOUBLED.finditer(words):
        if match.group(1).lower() not in _DOUBLE_OK:
            found.append(f"the doubled word '{match.group(0)}'")
    for match in _SNAKE.finditer(words):
        found.append(f"the raw name '{match.group(0)}'")
    for match in _OPERATOR.finditer(words):
        found.append(f"the DSL token '{match.group(0)}'")
    for match in _ONE_PLURAL.finditer(words):
        noun = match.group(1)
        if noun.lower() not in _SINGULAR_S and not noun.lower().endswith(("ss", "us", "is")):
            found.append(f"'{match.group(0)}' (one of a plural noun)")
    return found


def lint_texts(
    texts: list[tuple[str, str, Text]], model: SheetModel, ir: dict[str, Any]
) -> list[tuple[str, str]]:
    """(source, message) for every problem in ``texts``: (source, where, text) triples."""
    out = []
    for source, where, text in texts:
        for problem in _problems(plain_words(text)):
            out.append((source, f"{where}: {problem}"))
    return out


def lint_model(model: SheetModel, ir: dict[str, Any]) -> None:
    """Raise :class:`LintError` at the first card (in source order) whose text reads wrong,
    listing every problem of every card."""
    texts: list[tuple[str, str, Text]] = []
    for card in [*model.cards, *model.rules]:
        for label, value in card.properties:
            texts.append((card.source, f"{card.title}: {label}", value))
        for paragraph in [] if card.own_text else card.paragraphs:
            texts.append((card.source, card.title, paragraph))
    problems = lint_texts(texts, model, ir)
    for source, where, name in model.unworded:
        problems.append(
            (source, f"{where}: the internal word '{name}' (give it the rulebook's words)")
        )
    if problems:
        listed = "; ".join(f"{source}: {message}" for source, message in problems[:12])
        more = f" (and {len(problems) - 12} more)" if len(problems) > 12 else ""
        raise LintError(
            f"card text does not read as a rulebook: {listed}{more} (give the name its "
            "rulebook words in reference.yaml's words/phrases/when, or a 'text' property)",
            problems[0][0],
        )
