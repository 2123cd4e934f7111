"""Small helpers for the English of messages: "an encounter", not "a encounter"; "1 warning".

Messages are built from names a game declares (kinds of card, symbols), so the article before
one cannot be written into the message by hand.
"""

from __future__ import annotations

#: Words that begin with a vowel letter but a consonant sound ("a unit", "a one-off").
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "ure", "eu", "one", "once", "ewe")
#: Words that begin with a silent h ("an hour").
_SILENT_H = ("hour", "honest", "honor", "honour", "heir")


def article(word: str) -> str:
    """``"an"`` before a vowel sound, else ``"a"``: ``article("encounter") == "an"``."""
    low = word.strip().lower()
    if not low:
        return "a"
    if low[0].isdigit():
        # "an 8", "an 11", "an 18", "an 80": said with a vowel sound.
        digits = low.split()[0].rstrip(".,")
        spoken = digits.startswith("8") or (
            digits[:2] in ("11", "18") and len(digits.replace(",", "")) in (2, 5)
        )
        return "an" if spoken else "a"
    if low.startswith(_SILENT_H):
        return "an"
    if low[0] in "aeiou" and not low.startswith(_CONSONANT_SOUND):
        return "an"
    return "a"


def with_article(word: str) -> str:
    """``word`` after its indefinite article: ``with_article("encounter") == "an encounter"``."""
    return f"{article(word)} {word}"


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, plural unless the count is one: ``counted(1, "warning")`` is
    "1 warning", ``counted(2, "warning")`` "2 warnings"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def and_list(words: list[str]) -> str:
    """``['a', 'b', 'c']`` -> ``"a, b and c"``, as a sentence lists things."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def singular(words: str) -> str:
    """ "Coins" -> "Coin", "victory points" -> "victory point"; other words as they are."""
    if words.endswith("ies") and len(words) > 4:
        return words[:-3] + "y"
    if words.endswith(("xes", "ches", "shes")):
        return words[:-2]
    if words.endswith("s") and not words.endswith(("ss", "us", "is")):
        return words[:-1]
    return words
