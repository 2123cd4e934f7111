"""How a card's title becomes its id: one rule, shared by the checker, the hints and the LSP."""

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
