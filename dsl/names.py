"""How a card's title becomes its id, and an id's initials: one rule each, shared by the
checker, the hints (the compiler's and the scenarios'), and the LSP."""

from __future__ import annotations

import re

_SLUG = re.compile(r"[^a-z0-9]+")


def card_id(title: str) -> str:
    """The id a card's title gives it: ``"Pirate's Raid"`` -> ``pirates_raid``."""
    slug = _SLUG.sub("_", title.lower().replace("'", "").replace("\u2019", "")).strip("_")
    if not slug:
        slug = "card"
    if slug[0].isdigit():
        slug = f"card_{slug}"
    return slug


def initials(ident: str) -> str:
    """The first letters of an id's words: 'vp' for victory_points ('' for one word)."""
    words = [w for w in ident.split("_") if w]
    return "".join(w[0] for w in words) if len(words) >= 2 else ""
