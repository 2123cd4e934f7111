"""The per-file caches inside a game (compiler.filecache): a cached build gives exactly the
bytes of a clean one, and a file is checked again when what it depends on changes."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from compiler import filecache
from compiler.build import render_game
from compiler.pipeline import compile_game
from compiler.project import find_project
from dsl.diagnostics import SourceCache

REPO = Path(__file__).resolve().parent.parent

GAME = """\
game solo "Solo" {
  players 1
  param rounds 12
  counter coins, gems
  trigger play "the card is played"
  kind port_card "a card" { property copies number }
}
"""
DICE = (
    'port_card "Dice" {\n  copies 1\n  on play {\n    let bonus 1d6\n    gain coins bonus\n  }\n}\n'
)
COIN = 'port_card "Coin" {\n  copies 2\n  on play { gain coins 1 }\n}\n'


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    filecache.clear()
    yield
    filecache.ENABLED = True
    filecache.clear()


def _clean(project: object, folder: Path) -> dict[str, bytes]:
    """The same game rendered with every cache off."""
    filecache.ENABLED = False
    try:
        outputs, diagnostics = render_game(project, folder, SourceCache(), sheets=False)  # type: ignore[arg-type]
    finally:
        filecache.ENABLED = True
    assert not [d for d in diagnostics if d.severity == "error"]
    return outputs


def _cached(project: object, folder: Path) -> dict[str, bytes]:
    outputs, diagnostics = render_game(project, folder, SourceCache(), sheets=False)  # type: ignore[arg-type]
    assert not [d for d in diagnostics if d.severity == "error"], diagnostics
    return outputs


@pytest.mark.parametrize("game", ["uncharted_passage", "land_vs_sea"])
def test_a_cached_build_gives_the_bytes_of_a_clean_one(game: str, tmp_path: Path) -> None:
    shutil.copytree(REPO / "cards" / game, tmp_path / "cards" / game)
    (tmp_path / "pyproject.toml").write_text('[tool.cardc]\ncards = "cards"\n')
    project = find_project(tmp_path)
    assert project is not None
    folder = project.cards / game
    first = _cached(project, folder)  # fills the caches
    assert _cached(project, folder) == first == _clean(project, folder)

    # An edit to one file: a card added at its end.
    edited = sorted(p for p in folder.glob("*.cards") if p.name != "game.cards")[0]
    edited.write_text(edited.read_text() + '\nrule "Cache Edit" {\n  text "x"\n}\n')
    game_text = (folder / "game.cards").read_text()
    after_edit = _cached(project, folder)
    assert after_edit == _clean(project, folder)
    assert after_edit != first

    # The vocabulary changes: every file is checked again against it.
    at = game_text.index("{\n", game_text.index("\ngame ")) + 2
    (folder / "game.cards").write_text(game_text[:at] + "  counter cache_probe\n" + game_text[at:])
    assert _cached(project, folder) == _clean(project, folder)


def _solo(tmp_path: Path) -> Path:
    folder = tmp_path / "cards" / "solo"
    folder.mkdir(parents=True)
    (folder / "game.cards").write_text(GAME)
    (folder / "dice.cards").write_text(DICE)
    (folder / "coin.cards").write_text(COIN)
    return folder


def test_a_card_added_elsewhere_rechecks_the_files_that_asked_for_its_name(tmp_path: Path) -> None:
    folder = _solo(tmp_path)
    clean = compile_game(folder, SourceCache())
    assert clean.ok and not clean.diagnostics
    # Another file now declares a card named like dice.cards' local value: its 'let' shadows
    # it. dice.cards did not change, but it asked whether 'bonus' is a card.
    (folder / "coin.cards").write_text(COIN + 'port_card "Bonus" {\n  copies 1\n}\n')
    found = compile_game(folder, SourceCache())
    assert [(d.code, Path(d.span.file).name) for d in found.diagnostics] == [
        ("shadowed-name", "dice.cards")
    ]


def test_the_vocabulary_changing_rechecks_every_file(tmp_path: Path) -> None:
    folder = _solo(tmp_path)
    assert compile_game(folder, SourceCache()).ok
    (folder / "game.cards").write_text(GAME.replace("counter coins, gems", "counter gems"))
    found = compile_game(folder, SourceCache())
    assert {Path(d.span.file).name for d in found.diagnostics if d.code == "name-undefined"} == {
        "dice.cards",
        "coin.cards",
    }


def test_unchanged_files_are_neither_parsed_nor_checked_again(tmp_path: Path) -> None:
    folder = _solo(tmp_path)
    first = compile_game(folder, SourceCache())
    (folder / "coin.cards").write_text(COIN.replace("gain coins 1", "gain coins 2"))
    second = compile_game(folder, SourceCache())
    assert first.ir is not None and second.ir is not None
    coin_first, dice_first = first.ir["cards"]
    coin_second, dice_second = second.ir["cards"]
    assert dice_second is dice_first  # reused, the very same IR
    assert coin_second is not coin_first and coin_second != coin_first
    by_name = {Path(s.path).name: s for s in second.parsed}
    assert by_name["dice.cards"] is {Path(s.path).name: s for s in first.parsed}["dice.cards"]


def test_a_file_with_diagnostics_is_never_kept(tmp_path: Path) -> None:
    folder = _solo(tmp_path)
    (folder / "coin.cards").write_text(COIN.replace("gain coins 1", "gain coinz 1"))
    for _ in range(2):  # the second time from the cache, if it were kept
        found = compile_game(folder, SourceCache())
        assert [d.code for d in found.diagnostics] == ["name-undefined"]


def _three_files(tmp_path: Path) -> tuple[object, Path]:
    """Solo with three card files, each long enough for its functions to be kept joined."""
    folder = _solo(tmp_path)
    for name, start in (("coin.cards", 0), ("more.cards", 100)):
        cards = "".join(
            f'port_card "Coin {i}" {{\n  copies 2\n  on play {{ gain coins {i % 5 + 1} }}\n}}\n'
            for i in range(start, start + 60)
        )
        (folder / name).write_text(COIN + cards if name == "coin.cards" else cards)
    (tmp_path / "pyproject.toml").write_text('[tool.cardc]\ncards = "cards"\n')
    project = find_project(tmp_path)
    assert project is not None
    return project, folder


def _lines_by_scan(handlers: bytes) -> list[str]:
    """The LINES table as a scan of every line of the module would write it: each line whose
    last "  # @ " starts a marker, numbered as compile() counts lines."""
    import re

    from compiler.emit_python import literal

    text = handlers.decode()
    body, _, table = text.rpartition("\nLINES = {\n")
    expected = []
    for number, line in enumerate(body.split("\n"), start=1):
        at = line.rfind("  # @ ")
        match = re.fullmatch(r"  # @ (.*):(\d+):(\d+)", line[at:]) if at >= 0 else None
        if match:
            path, line_no, column = match.groups()
            expected.append(f"    {number}: ({literal(path)}, {line_no}, {column}),")
    assert table.endswith("}\n")
    assert table[: -len("}\n")].splitlines() == expected
    return expected


def _pieces(folder: Path) -> list[list[dict[str, object]]]:
    result = compile_game(folder, SourceCache())
    assert result.ir is not None
    # game.cards declares no card: its list is empty.
    return [piece for piece in filecache.segments(result.ir["cards"]) if piece]


def test_a_one_file_edit_rejoins_the_other_files_from_their_kept_lists(tmp_path: Path) -> None:
    project, folder = _three_files(tmp_path)
    first = _cached(project, folder)
    before = _pieces(folder)
    assert [len(p) for p in before] == [61, 1, 60]  # coin.cards, dice.cards, more.cards
    # The first file gains two lines in the middle: every later marker's line moves, the
    # other files' cards are the same lists, and the bytes are a clean build's.
    coin = folder / "coin.cards"
    coin.write_text(coin.read_text().replace("  copies 2\n", "  copies 2\n\n\n", 1))
    after = _cached(project, folder)
    pieces = _pieces(folder)
    assert pieces[0] is not before[0]
    assert pieces[1] is before[1] and pieces[2] is before[2]
    assert after == _clean(project, folder)
    # Kept markers numbered from their file's new first line, as a scan of the module would.
    assert len(_lines_by_scan(after["solo/handlers.py"])) == 123
    assert after["solo/handlers.py"] != first["solo/handlers.py"]
    assert after["solo/cards.json"] != first["solo/cards.json"]


def test_an_unchanged_card_of_an_edited_file_is_written_from_its_earlier_text(
    tmp_path: Path,
) -> None:
    project, folder = _three_files(tmp_path)
    _cached(project, folder)
    kept = filecache.card_memo(_pieces(folder)[0][-1])["functions"]
    coin = folder / "coin.cards"
    # A card appended at the end: the cards above it keep their lines, so their IR is equal.
    coin.write_text(coin.read_text() + COIN.replace("Coin", "Penny"))
    after = _cached(project, folder)
    last_but_one = _pieces(folder)[0][-2]
    assert filecache.card_memo(last_but_one)["functions"] is kept
    assert after == _clean(project, folder)


def test_an_edit_to_game_cards_invalidates_every_file(tmp_path: Path) -> None:
    project, folder = _three_files(tmp_path)
    _cached(project, folder)
    before = _pieces(folder)
    game = folder / "game.cards"
    game.write_text(GAME.replace("counter coins, gems", "counter coins, gems, pearls"))
    after = _cached(project, folder)
    pieces = _pieces(folder)
    assert len(pieces) == len(before)
    assert all(new is not old for new, old in zip(pieces, before, strict=True))
    assert after == _clean(project, folder)


def test_a_card_changing_sort_rechecks_the_files_that_named_it(tmp_path: Path) -> None:
    """A mission's ``spot kraken`` checked while kraken is a space tagged discovery; when
    map.cards makes it a port, the mission file (unchanged, so kept) must be checked again,
    since its ``{ names space discovery }`` no longer holds."""
    folder = tmp_path / "atlas"
    folder.mkdir()
    (folder / "game.cards").write_text(
        'game atlas "Atlas" {\n  players 1\n  counter coins\n'
        '  kind space "a space" { tags port, discovery }\n'
        '  kind mission "a mission" { property spot name { names space discovery } }\n}\n'
    )
    (folder / "map.cards").write_text('space discovery "Kraken" { }\n')
    (folder / "missions.cards").write_text('mission "Legend" { spot kraken }\n')
    assert compile_game(folder, SourceCache()).ok
    (folder / "map.cards").write_text('space port "Kraken" { }\n')
    found = compile_game(folder, SourceCache())
    assert [(d.code, d.span.line, d.span.column) for d in found.diagnostics] == [
        ("property-names", 1, 25)
    ]
