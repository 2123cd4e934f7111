"""A seventh, independent tester's Land vs Sea: Uncharted, deep on scoring, written from the
rulebook (/work/shared/rulebooks/land-vs-sea-uncharted.txt) and the README alone: the scoring
cases the shipped scenarios left out (tests/scenarios/land_vs_sea/audit7_scoring.yaml: one tile
completing two land areas of which a City overlaps one, either way round; end game trade
route scoring passing the end of the score track; a City tile that is part of its own route;
a Coral completed by the rival; an open area at the end; a player holding no tile; a tile
whose two land sections close one area; one placement scoring a City area's Waypoint and a
surrounded Waypoint without one; the last tile's hole filled by the Lost City) and three
new cards a designer would add (tests/data/audit7_land_vs_sea/: a special tile with a Menhir
on its sea face and a Ship on its land face, a hex tile with a Menhir, a City and a Caravan,
a Fishing Fleet scoring layer), each checked, built, scored by scenarios, simulated and
printed.

Every scoring case held. Bugs found, in the new cards' checks (bad input told at the card's
title with no hint, where its neighbours' mistakes are told at their property's line):

- A special tile's negative icon count (`land_icons ship -1`) was the Tile's "a tile's
  caravan and ship icons are never negative" at the card's title line, no hint, while `ship
  0` was told at the property what to write: the face was read as a tile before its counts
  were checked. The counts are now checked first.
- A hex tile's negative bonus points (`face_a_bonus land -2`) were "a section's bonus points
  are never negative" at the card's title, no hint: now at `face_a_bonus`, with the clause to
  write.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import (
    assert_cases_hold,
    assert_simulates,
    diagnostics_with_card_file,
    printed_texts,
)

from compiler.pipeline import compile_game
from compiler.sheets.model import _hex_faces
from compiler.sheets.reference import load_reference
from dsl.diagnostics import SourceCache

REPO = Path(__file__).resolve().parent.parent
LAND_VS_SEA = "land_vs_sea"
DATA = Path(__file__).resolve().parent / "data" / "audit7_land_vs_sea"

pytestmark = pytest.mark.usefixtures("fresh_file_cache")


def test_the_new_cards_hold_their_cases_and_play_whole_games(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """The Lighthouse, Harbour Stones and Fishing Fleet scoring build and hold their 6 cases,
    and the game holding them plays whole greedy games."""
    points = assert_cases_hold(built_copy, LAND_VS_SEA, DATA, (), 6)
    assert_simulates(points[:1], ("competitive",))


def test_the_new_tiles_print_each_faces_icons(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """The printed tiles show what each face plays: the Lighthouse's Ship on land and Menhir at
    sea, Harbour Stones' Menhir, City and Caravan on face A and 2 Ships and a Coral on face B;
    the layer's text says what it scores."""
    generated = built_copy(LAND_VS_SEA, {"audit7.cards": (DATA / "audit7.cards").read_text()})
    folder = generated.parent / "cards" / LAND_VS_SEA
    result = compile_game(folder, SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    cards = {card["id"]: card for card in result.ir["cards"]}
    ref = load_reference(folder / "reference.yaml")
    spec = {s.kind: s for s in ref.hex_specs}
    land, sea = _hex_faces(spec["tile"], cards["lighthouse"], ref.icons)
    assert [(i[0], i[1]) for i in land.icons] == [("ship", 1)]
    assert [(i[0], i[1]) for i in sea.icons] == [("menhir", 1)]
    face_a, face_b = _hex_faces(spec["hex_tile"], cards["harbour_stones"], ref.icons)
    assert sorted((i[0], i[1]) for i in face_a.icons) == [
        ("caravan", 1),
        ("city", 1),
        ("menhir", 1),
    ]
    assert sorted((i[0], i[1]) for i in face_b.icons) == [("coral", 1), ("ship", 2)]
    texts = printed_texts(folder, {"audit7.cards"})
    assert "score 1 point per ship icon in the trade route" in texts["Fishing Fleet scoring"]


@pytest.mark.parametrize(
    ("card", "line", "words", "hint"),
    [
        (
            'tile "Beacon" {\n  box uncharted\n  edges all_land_or_all_sea\n'
            "  land_icons ship -1\n}\n",
            4,
            "'ship' in land_icons takes how many the face shows, a number from 1",
            "write: land_icons ship 2",
        ),
        (
            'hex_tile "Sinkhole" {\n  box uncharted\n  face_a "LLLSSS"\n'
            '  face_a_bonus land -2, sea 1\n  face_b "LLLLLL"\n}\n',
            4,
            "face_a_bonus gives a section -2 bonus points",
            "write: face_a_bonus land 0 (0 for a section with none)",
        ),
    ],
)
def test_a_negative_count_or_bonus_is_an_error_at_its_property_with_a_hint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, card: str, line: int, words: str, hint: str
) -> None:
    """A special tile's `ship -1` and a hex tile's `land -2` bonus points are told at the
    property's line, with what to write (both were told at the card's title, no hint)."""
    found = diagnostics_with_card_file(tmp_path, monkeypatch, LAND_VS_SEA, card)
    assert len(found) == 1, [d.message for d in found]
    assert words in found[0].message
    assert found[0].span.line == line
    assert found[0].span.column == 3
    assert hint in found[0].hints
