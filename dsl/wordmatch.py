"""Names matched by their words, for "did you mean" hints.

A designer guesses a name from the rulebook's words: 'anchoring' for the phase
'sailing_and_anchoring', 'end_of_the_game' for the phase titled "End of the Game",
'sunken_ship' for the card 'discover_the_coordinates_of_the_sunken_ship'. Spelling distance
misses these (the guess is a small part of the whole, or worded apart), so the hints also look
for a name that holds every word of the guess, in its own words or its title's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

#: Words a guess adds that say nothing of which name it means ("the Planning phase", "the
#: Plague card", "the Health track").
FILLER = frozenset(
    {"a", "an", "and", "at", "card", "cards", "for", "in", "of", "on", "phase", "step", "the"}
)


_NOT_A_WORD = re.compile(r"[^a-z0-9]+")


def split_words(
    text: str, *, shortest: int = 1, drop: frozenset[str] = frozenset(), stem: bool = False
) -> list[str]:
    """The lower-case words of an id, a title or a description, in order: cut wherever a
    letter or digit is not ('sailing_and_anchoring', "Pirate's Raid" -> pirates, raid: an
    apostrophe joins, as in a card's id). The one way every hint splits names into words
    (:func:`words`, compiler.suggest). ``shortest``: shorter words left out; ``drop``: words
    left out (filler); ``stem``: a plural's s taken off a word of four letters or more
    ('tiles' -> 'tile'), after ``drop`` is applied."""
    out = []
    for word in _NOT_A_WORD.split(text.lower().replace("'", "")):
        if len(word) < max(shortest, 1) or word in drop:
            continue
        out.append(word[:-1] if stem and len(word) > 3 and word.endswith("s") else word)
    return out


def words(name: str) -> frozenset[str]:
    """The lower-case words of an id or a title ('sailing_and_anchoring', "Pirate's Raid")."""
    return frozenset(split_words(name))


def word_matches(
    name: str,
    pool: Iterable[str],
    titles: Mapping[str, str] | None = None,
    most: int = 3,
    loose: bool = False,
    subset: bool = True,
) -> list[str]:
    """The names of ``pool`` (at most ``most``, shortest first) whose words, or their title's
    in ``titles``, hold every meaningful word of ``name``; when none does (and ``subset``),
    those whose own words are all in ``name`` ('goods' for 'specialty_goods'); with ``loose``,
    when still none,
    those sharing one of its words of four letters or more. More matches than ``most`` say
    nothing (any one of them would be a guess), so none is returned."""
    wanted = words(name) - FILLER
    if not wanted:
        return []
    titles = titles or {}
    candidates = sorted({str(c) for c in pool} - {name})
    known = {c: words(c) | words(titles.get(c) or "") for c in candidates}
    found = [c for c in candidates if wanted <= known[c]]
    if not found and subset:
        found = [c for c in candidates if words(c) - FILLER and words(c) - FILLER <= wanted]
    if not found and loose:
        long = {w for w in wanted if len(w) >= 4}
        found = [c for c in candidates if long & known[c]]
    if not found or len(found) > most:
        return []
    return sorted(found, key=lambda c: (len(c), c))
