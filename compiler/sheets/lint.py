"""The text lint: generated card text that does not read as a rulebook fails the build.

Checked on every card and rule of a sheet, in the words printed (icons and provisional marks
left out): a doubled word ("When when"), a raw id ("lisbon" where the rulebook says "Lisbon",
``port_cards``), a DSL operator or call (``|``, ``==``, ``highest(2d6)``), a count that
disagrees with its noun ("1 curses", "gain 1 Coins", "up to 1 Objective tiles"), an internal
word as a property value ("Type: creature" where the rulebook says "Creature"), two determiners
("for each the area"), a clause after "you may" ("you may one of your Crew is ..."), a clause
negated with a bare "not" ("and not the ship docked"), a plural with "is" ("your specimens
is") and programmers' words ("modulo", "true"). Each problem is an error at the
card's source line, saying what to write in ``reference.yaml`` instead.
"""

from __future__ import annotations

import re
from typing import Any

from compiler.sheets.model import SheetModel
from compiler.sheets.text import IconRef, Provisional, Text


class LintError(ValueError):
    """Card text that reads wrong; ``source`` is the first card's ``file:line``, ``problems``
    every problem as (its card's ``file:line``, what reads wrong), each told at its card."""

    def __init__(self, message: str, source: str, problems: list[tuple[str, str]] | None = None):
        super().__init__(message)
        self.source = source
        self.problems = list(problems or [])


_DOUBLED = re.compile(r"\b([A-Za-z]+)\s+\1\b", re.IGNORECASE)
_SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
_OPERATOR = re.compile(r"\|\||\||==|!=|>=|<=|->|&&|[{}]|\b[a-z_]+\((?=[a-z0-9_, ]*\))")
#: "1 curses", "gain 1 Coins and": one, then a plural that ends the noun phrase; a plural
#: followed by the noun it qualifies ("gain 1 Hills influence") is no count of it.
_ONE_PLURAL = re.compile(
    r"\b(?:1|one|a)\s+([A-Za-z]+s)\b(?!\s+(?!(?:of|in|on|to|at|per|or|and|for|from|is|are|was"
    r"|were|by|with|as|each|than|if|unless|when|then|you|your|that|which|who|it|this|there"
    r"|instead|equal|but|so|until|while)\b)[A-Za-z])"
)
#: "up to 1 Objective tiles": one, a word, then a plural that ends the noun phrase (before
#: punctuation, the end or a preposition: "1 side scores 2 points" is a verb, not a plural).
_ONE_WORD_PLURAL = re.compile(
    r"\b1\s+([A-Za-z]+)\s+([A-Za-z]+s)\b(?=\s*(?:$|[.,;:)]|(?:from|of|in|on|to|and|or|at|for"
    r"|with)\b))"
)
#: Two determiners in a row: "for each the area", "the your Ship", "a the".
#: Case-sensitive after the first word, so "the A face" (a face's name) is not one.
_DETERMINERS = re.compile(
    r"\b(?:[Ee]ach|[Ee]very|[Aa]|[Aa]n|[Tt]he|[Yy]our|[Tt]his|[Tt]heir)\s+"
    r"(?:the|a|an|your|their|this)\b"
)
#: "you may one of your Cursed Crew is ...": "may" takes a verb, not a clause.
_MAY_CLAUSE = re.compile(r"\byou may (?:the|a|an|one|this|there|your|it)\b", re.IGNORECASE)
#: "and not the ship docked": a clause negated with a bare "not".
_BARE_NOT = re.compile(
    r"\b(?:and|or|if|unless|when)\s+not\s+(?:the|a|an|you|your|this|there|no|it)\b",
    re.IGNORECASE,
)
#: "if your specimens is at least 3", "the Campsite's tent sites is 1": a plural noun with "is".
_PLURAL_IS = re.compile(r"(?:\byour|[A-Za-z]'s)\s+(?:[A-Za-z]+\s+)?([A-Za-z]+s)\s+is\b")
#: Programmers' words a rulebook does not use.
_JARGON = re.compile(r"\b(?:modulo|null)\b")
#: Words that may stand between "1" and a plural: "1 point per caravan icons" is not one.
_BETWEEN_OK = frozenset(
    "of in on to at per or and for from is are was were by with as each than".split()
)
#: Words in -s that are singular.
_SINGULAR_S = frozenset(
    "bonus status plus minus gas canvas atlas chaos this its less across always various "
    "previous famous crus us is was has does thus yes lens as his hers ours yours theirs "
    "unless whereas towards afterwards besides sometimes perhaps news series species".split()
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
        if noun == "times" and words[match.end() :].lstrip()[:1].isdigit():
            # "the round minus 1 times 1": a product (`(round - 1) * 1`), not a count.
            continue
        if _plural_noun(noun):
            found.append(f"'{match.group(0)}' (one of a plural noun)")
    for match in _ONE_WORD_PLURAL.finditer(words):
        between, noun = match.group(1), match.group(2)
        if between.lower() not in _BETWEEN_OK and _plural_noun(noun) and not _plural_noun(between):
            found.append(f"'{match.group(0)}' (one of a plural noun)")
    for match in _DETERMINERS.finditer(words):
        found.append(f"'{match.group(0)}' (two determiners: drop one)")
    for match in _MAY_CLAUSE.finditer(words):
        found.append(f"'{match.group(0)}' ('may' needs a verb: word the phrase as a command)")
    for match in _BARE_NOT.finditer(words):
        found.append(f"'{match.group(0)}' (a clause negated with a bare 'not')")
    for match in _PLURAL_IS.finditer(words):
        # "the number of your Port Cards is", "the number of cards in your defeated Encounters
        # is" (a zone counted: text.py's count): the subject is "the number".
        before = words[: match.start()].rstrip()
        of_before = before.endswith(" of") or before.endswith("the number of cards in")
        if _plural_noun(match.group(1)) and not of_before:
            found.append(f"'{match.group(0)}' (a plural noun with 'is')")
    for match in _JARGON.finditer(words):
        found.append(f"the programmer's word '{match.group(0)}'")
    return found


def _plural_noun(word: str) -> bool:
    """Whether ``word`` reads as a plural noun ("Coins", "tiles"; not "bonus", "its")."""
    low = word.lower()
    return (
        low.endswith("s") and low not in _SINGULAR_S and not low.endswith(("ss", "us", "is", "'s"))
    )


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
    listing every problem of every card (``problems``: each with its own card's line)."""
    texts: list[tuple[str, str, Text]] = []
    for card in [*model.cards, *model.rules]:
        for label, value in card.properties:
            texts.append((card.source, f"{card.title}: {label}", value))
        for paragraph in [] if card.own_text else card.paragraphs:
            texts.append((card.source, card.title, paragraph))
    # A phase written from the flow's statements (a house rule's, or one the reference has no
    # words for) is cardc's text as a rule is: "the tiles left ... is 0" passed unread.
    texts += [(source, f"Phase: {title}", text) for source, title, text in model.written_phases]
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
            problems,
        )
