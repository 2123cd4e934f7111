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
