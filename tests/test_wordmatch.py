"""The one way the hints split names and descriptions into words (dsl.wordmatch.split_words),
which compiler.suggest's helpers use."""

from __future__ import annotations

from compiler import suggest
from dsl.wordmatch import split_words, words


def test_split_words_cuts_ids_titles_and_descriptions_alike() -> None:
    assert split_words("sailing_and_anchoring") == ["sailing", "and", "anchoring"]
    assert split_words("Pirate's Raid") == ["pirates", "raid"]
    assert split_words("has_big_tiles", shortest=3, drop=frozenset({"has"}), stem=True) == [
        "big",
        "tile",
    ]
    assert words("End of the Game") == frozenset({"end", "of", "the", "game"})


def test_the_suggest_helpers_split_as_split_words_does() -> None:
    # An apostrophe joins, as in a card's id: "the Pirate Ship's region" is about the ship,
    # not a ship and a word 's'.
    assert suggest._words_of("the Pirate Ship's region") == {"pirate", "ship", "region"}
    assert suggest._words("count_of_caravans") == ["caravan"]
    described = {"pirate_region": "the Ocean Region of the Pirate Ship"}
    assert suggest.by_description("pirate_ships_region", described) == (
        "did you mean 'pirate_region' (the Ocean Region of the Pirate Ship)?",
    )
