"""'Did you mean' hints, from the names in scope (difflib, as mypy does)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from dsl.names import card_id, initials
from dsl.wordmatch import split_words, word_matches


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
        # An abbreviation by initials, as players write them: 'vp' for victory_points.
        close = [c for c in pool if len(name) >= 2 and initials(c) == name.lower()][:3]
    shown = [f"'{c}'" for c in close]
    if not close and (words or loose):
        close = word_matches(name, pool, titles, loose=loose)
        # Matched by its words, a name is shown with its title: 'final_scoring' ("End of the
        # Game") for 'end_of_the_game'.
        shown = [f"'{c}' (\"{titles[c]}\")" if titles and c in titles else f"'{c}'" for c in close]
    if not close:
        return ()
    return _asking(shown)


def _asking(shown: list[str]) -> tuple[str, ...]:
    """The hint naming ``shown`` (each already quoted, with its words if any): "did you mean
    'a'?", "did you mean 'a', 'b' or 'c'?"."""
    if len(shown) == 1:
        return (f"did you mean {shown[0]}?",)
    return ("did you mean " + ", ".join(shown[:-1]) + f" or {shown[-1]}?",)


#: Words a name is made of that say nothing of what it is about (``has_waypoint``,
#: ``caravan_count``): left out when names are matched by the words they share.
_FILLER = frozenset(
    "a an the of in on to is has have get count number total any all my your".split()
)


def _words(name: str) -> list[str]:
    """The words of an identifier that say what it is about, in order, plurals as singulars."""
    return split_words(name, shortest=3, drop=_FILLER, stem=True)


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
    return _asking([f"'{c}'" for c in found]) if found else ()


#: Words a description holds that say nothing of what it names.
_DOC_FILLER = frozenset({"a", "an", "the", "of", "to", "on", "in", "or", "and", "is", "its", "it"})


def _words_of(text: str) -> set[str]:
    """The words of a name or a description that say what it is about, plurals as
    singulars."""
    return set(split_words(text, stem=True)) - _DOC_FILLER


def by_description(name: str, described: Mapping[str, str]) -> tuple[str, ...]:
    """A hint naming what ``described`` (name -> its description in game.cards) calls by the
    words of ``name``: a rulebook's words made an id ('special_action_tile', 'pirate_ship')
    find the kind described "a Special Action tile" (action_tile) or the native described
    "the Ocean Region of the Pirate Ship" (pirate_region), too far apart to be spelt alike.
    Every word of ``name`` (two at least) must be in the name or the description; at most 3
    are named, else none (the words were too common to tell)."""
    wanted = _words_of(name.replace("_", " "))
    if len(wanted) < 2:
        return ()
    found = [
        other
        for other, doc in sorted(described.items())
        if other != name and wanted <= _words_of(f"{other.replace('_', ' ')} {doc}")
    ]
    if not 1 <= len(found) <= 3:
        return ()
    return _asking([f"'{f}' ({described[f]})" if described[f] else f"'{f}'" for f in found])


def with_described(
    close: tuple[str, ...], name: str, described: Mapping[str, str]
) -> tuple[str, ...]:
    """The hints ``close`` (a "did you mean" by spelling) and then :func:`by_description`'s
    for ``name``, leaving out what ``close`` already names: 'pirate_ship' is spelt like
    pirate_ship_in_supply and described like pirate_region, and either may be the one meant."""
    said = " ".join(close)
    whole = by_description(name, described)
    if whole and {k for k in described if f"'{k}'" in said} == {
        k for k in described if f"'{k}'" in whole[0]
    }:
        # The very names, each with its description: 'special_action_tile' ends with the
        # kind action_tile's id and has its words ("a Special Action tile").
        return whole
    rest = {k: doc for k, doc in described.items() if f"'{k}'" not in said}
    return close + by_description(name, rest)


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
    words = split_words(name, shortest=3)
    if not words:
        return ()
    found = [
        ident
        for ident, doc in sorted(docs.items())
        if ident != name and set(words) <= set(split_words(doc))
    ][:3]
    if not found:
        return ()
    described = ", ".join(f"'{ident}' ({docs[ident]})" for ident in found)
    return (f"did you mean {described}?",)
