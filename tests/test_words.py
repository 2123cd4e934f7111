"""The English of messages built from a game's names (engine.words): the article before a
kind of card, the plural of a count."""

from __future__ import annotations

import pytest

from engine.words import article, counted, singular, with_article


@pytest.mark.parametrize(
    ("word", "said"),
    [
        ("encounter", "an encounter"),
        ("expedition_leader", "an expedition_leader"),
        ("objective", "an objective"),
        ("action_tile", "an action_tile"),
        ("Island track", "an Island track"),
        ("space", "a space"),
        ("port_card", "a port_card"),
        ("hex_tile", "a hex_tile"),
        # A vowel letter with a consonant sound, a silent h.
        ("unit", "a unit"),
        ("one-off", "a one-off"),
        ("European map", "a European map"),
        ("hour", "an hour"),
        ("8", "an 8"),
        ("11", "an 11"),
        ("12", "a 12"),
    ],
)
def test_the_article_follows_the_sound(word: str, said: str) -> None:
    assert with_article(word) == said
    assert article(word) == said.split(" ", 1)[0]


def test_a_count_of_one_is_singular() -> None:
    assert counted(1, "warning") == "1 warning"
    assert counted(2, "warning") == "2 warnings"
    assert counted(0, "error") == "0 errors"
    assert counted(1, "provisional value") == "1 provisional value"
    assert counted(3, "copy", "copies") == "3 copies"


@pytest.mark.parametrize(
    ("words", "one"),
    [
        ("Coins", "Coin"),
        ("victory points", "victory point"),
        ("Discovery Spots", "Discovery Spot"),
        ("bounties", "bounty"),
        ("boxes", "box"),
        ("beaches", "beach"),
        ("compass", "compass"),
        ("Money", "Money"),
    ],
)
def test_a_plural_is_made_singular(words: str, one: str) -> None:
    assert singular(words) == one
