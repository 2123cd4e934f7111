"""'Did you mean' hints, from the names in scope (difflib, as mypy does)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from dsl.wordmatch import word_matches


def did_you_mean(
    name: str,
    candidates: Iterable[str],
    cutoff: float = 0.75,
    titles: Mapping[str, str] | None = None,
    words: bool = False,
    loose: bool = False,
) -> tuple[str, ...]:
    """A hint naming the closest candidates to ``name``, or nothing when none is close: by
    spelling, then (with ``words``) by words, a candidate or its title in ``titles`` holding
    every word of ``name`` ('anchoring' for 'sailing_and_anchoring'); with ``loose`` also one
    sharing a word ('take_damage' for 'ship_damage'; see dsl.wordmatch)."""
    pool = sorted(set(candidates) - {name})
    # A card's title, or a name in capitals, for its id: "Rum" and "Smoke Bomb" are rum and
    # smoke_bomb ("'Rum' is not a card of this game" gave no hint: too short to be close).
    as_id = re.sub(r"[^a-z0-9]+", "_", name.lower().replace("'", "").replace("\u2019", ""))
    as_id = as_id.strip("_")
    if as_id != name and as_id in pool:
        return (f"did you mean '{as_id}'?",)
    close = difflib.get_close_matches(name, pool, n=3, cutoff=cutoff)
    if not close:
        # Short names have low ratios; a shared prefix is still a good sign.
        close = [c for c in pool if len(name) >= 3 and (c.startswith(name) or name.startswith(c))][
            :3
        ]
    shown = [f"'{c}'" for c in close]
    if not close and (words or loose):
        close = word_matches(name, pool, titles, loose=loose)
        # Matched by its words, a name is shown with its title: 'final_scoring' ("End of the
        # Game") for 'end_of_the_game'.
        shown = [f"'{c}' (\"{titles[c]}\")" if titles and c in titles else f"'{c}'" for c in close]
    if not close:
        return ()
    if len(shown) == 1:
        return (f"did you mean {shown[0]}?",)
    return ("did you mean " + ", ".join(shown[:-1]) + f" or {shown[-1]}?",)


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
