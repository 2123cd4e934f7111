"""'Did you mean' hints, from the names in scope (difflib, as mypy does)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from compiler.names import card_id


def did_you_mean(name: str, candidates: Iterable[str], cutoff: float = 0.75) -> tuple[str, ...]:
    """A hint naming the closest candidates to ``name``, or nothing when none is close."""
    pool = sorted(set(candidates) - {name})
    # A card's title, or a name in capitals, for its id: "Rum" and "Smoke Bomb" are rum and
    # smoke_bomb ("'Rum' is not a card of this game" gave no hint: too short to be close).
    as_id = card_id(name)
    if as_id != name and as_id in pool:
        return (f"did you mean '{as_id}'?",)
    close = difflib.get_close_matches(name, pool, n=3, cutoff=cutoff)
    if not close:
        # Short names have low ratios; a shared prefix is still a good sign, and so is a whole
        # last word: a rulebook's "Upon Facing..." written upon_facing is the trigger facing.
        close = [
            c
            for c in pool
            if len(name) >= 3
            and (
                c.startswith(name)
                or name.startswith(c)
                # (not a word that says nothing of what it is about: caravan_count is no count)
                or (name.endswith("_" + c) and c not in _FILLER)
            )
        ][:3]
    if not close:
        return ()
    if len(close) == 1:
        return (f"did you mean '{close[0]}'?",)
    return ("did you mean " + ", ".join(f"'{c}'" for c in close[:-1]) + f" or '{close[-1]}'?",)


#: Words a name is made of that say nothing of what it is about (``has_waypoint``,
#: ``caravan_count``): left out when names are matched by the words they share.
_FILLER = frozenset(
    "a an the of in on to is has have get count number total any all my your".split()
)


def _words(name: str) -> list[str]:
    """The words of an identifier that say what it is about, in order, plurals as singulars."""
    words: list[str] = []
    for word in name.lower().split("_"):
        if len(word) < 3 or word in _FILLER:
            continue
        words.append(word[:-1] if word.endswith("s") and len(word) > 3 else word)
    return words


def sharing_a_word(name: str, candidates: Iterable[str], limit: int = 3) -> tuple[str, ...]:
    """A hint naming the candidates about the same thing as ``name``, when none is close by
    spelling: those sharing a word with it, most shared first, its first word (what it is
    about) before the others and the fewest other words first (Land vs Sea's
    ``caravan_count(route)`` is ``caravans``; ``bonus_points(area)`` the natives about bonus
    points, ``area_bonus`` among them, before ``keeps_points``); nothing when none shares
    one."""
    wanted = _words(name)
    if not wanted:
        return ()
    scored = []
    for candidate in set(candidates) - {name}:
        theirs = set(_words(candidate))
        common = set(wanted) & theirs
        # What it is about (its first word) counts more; words it does not share count less.
        shared = len(common) + (0.5 if wanted[0] in theirs else 0) - 0.1 * len(theirs - common)
        if common:
            ratio = difflib.SequenceMatcher(None, name, candidate).ratio()
            scored.append((-shared, -ratio, candidate))
    found = [candidate for _shared, _ratio, candidate in sorted(scored)[:limit]]
    if not found:
        return ()
    if len(found) == 1:
        return (f"did you mean '{found[0]}'?",)
    return ("did you mean " + ", ".join(f"'{c}'" for c in found[:-1]) + f" or '{found[-1]}'?",)


def duplicate_hint(ident: str, first: Any, again: Any) -> str:
    """The hint of a card declared twice: a variant's card with the id of one of the base
    game's is most likely meant to replace it, which the variant says with ``remove:``."""
    if _in_variant(again.file) and not _in_variant(first.file):
        return (
            f"to replace the game's card, remove it in the variant too: remove: [{ident}]; "
            "to add another, give it another title or an explicit 'id' property"
        )
    return "give one of them another title, or an explicit 'id' property"


def _in_variant(file: str) -> bool:
    """True for a variant's overlay (its ``add:``) or a card file of its ``add_files``."""
    return "variants" in Path(file).parts


def named_in_docs(name: str, docs: dict[str, str]) -> tuple[str, ...]:
    """A hint naming the declarations whose description has every word of ``name`` (a
    rulebook's word for a trigger the game names otherwise: ``on ability`` for the trigger
    ``play``, "a Resource card is played for its Ability"), or nothing when none has."""
    words = [w for w in name.lower().split("_") if len(w) >= 3]
    if not words:
        return ()
    found = [
        ident
        for ident, doc in sorted(docs.items())
        if ident != name
        and all(w in re.findall(r"[a-z0-9]+", doc.lower().replace("'", "")) for w in words)
    ][:3]
    if not found:
        return ()
    described = ", ".join(f"'{ident}' ({docs[ident]})" for ident in found)
    return (f"did you mean {described}?",)
