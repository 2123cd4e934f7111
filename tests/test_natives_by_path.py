"""A game's own Python beside its cards (``cards/<game>/natives.py``), loaded by path
(issue 11, item 5; README, "A game's own Python"): found from the compiled folder, checked against
``game.cards``, carried by a point shipped to a cluster worker, and usable from a project made
with ``cardc new`` in an unrelated folder, with nothing written inside the installed cardc."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import engine
from compiler.build import build
from compiler.project import find_project
from dsl.diagnostics import SourceCache
from engine import api, sim
from engine.loader import (
    NativesError,
    game_rules,
    load_natives,
    new_game,
    rules_module,
    source_folder,
)

REPO = Path(__file__).resolve().parent.parent

GAME = """game treasure_hunt "Treasure Hunt" {
  players 1..2
  score victory_points
  param rounds 3                 @provisional("a test game")
  counter victory_points
  counter coins
  zone hand
  trigger play "when a card is played from the hand"
  native lucky "the luck of an amount" { param amount number; returns number }
  verb find_treasure "find treasure worth an amount" { param amount number }
  kind card "a card of the deck" {
    property copies number optional
  }
}
"""

CARDS = """card "Lucky Find" {
  copies 3                       @provisional("a test card")
  on play {
    find_treasure lucky(2)
  }
}

# The scaffold's flow (compiler/scaffold.py): a game must declare one to be simulated.
flow "Treasure Hunt" {
  setup {
    phase deal "shuffle the deck; each player draws 3" {
      build_deck hand
      for each p in players { draw hand 3 }
    }
  }
  round rounds { }
  turn {
    phase draw { draw hand 1 }
    phase play "play a card from the hand, or pass" { play_one hand }
  }
  winner highest
}
"""

NATIVES = '''"""Treasure Hunt's own Python."""

from engine.api import native, verb

from . import luck


@native("amount number", returns="number")
def lucky(g, c, amount):
    """The amount, tripled by the luck of the sibling module."""
    return luck.TIMES * amount


@verb("amount number")
def find_treasure(g, c, amount):
    """Gain that many coins and one victory point."""
    g.gain(c, "coins", amount)
    g.gain(c, "victory_points", 1)


POLICIES = {}
'''


def _project(root: Path, natives: str = NATIVES) -> Path:
    """A project with Treasure Hunt, its natives and their sibling module, built."""
    folder = root / "cards" / "treasure_hunt"
    folder.mkdir(parents=True)
    (folder / "game.cards").write_text(GAME, encoding="utf-8")
    (folder / "cards.cards").write_text(CARDS, encoding="utf-8")
    (folder / "natives.py").write_text(natives, encoding="utf-8")
    (folder / "luck.py").write_text("TIMES = 3\n", encoding="utf-8")
    return folder


def _build(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(root)
    project = find_project(root)
    assert project is not None
    outcome = build(project, [], check_only=False, sources=SourceCache(), sheets=False)
    assert outcome.status == 0, [str(d) for d in outcome.diagnostics]


@pytest.fixture(autouse=True)
def _uncached(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compile afresh (compiler.filecache keeps checked cards by path and text)."""
    from compiler import filecache

    monkeypatch.setattr(filecache, "ENABLED", False)


def test_natives_are_found_from_the_compiled_folder_and_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = _project(tmp_path)
    _build(tmp_path, monkeypatch)
    compiled = tmp_path / "generated" / "treasure_hunt"
    assert source_folder(compiled) == source
    g = new_game(compiled)
    g.players[0].zones["hand"].append("lucky_find")
    g.run("lucky_find", "play")
    assert g.players[0].counters["coins"] == 6  # lucky(2) = 3 * 2, from the sibling module
    assert g.players[0].counters["victory_points"] == 1
    # Loaded by path as a package of its own, never from inside cardc, and the same module
    # tests get from rules_module.
    module = game_rules("treasure_hunt", compiled)
    assert module.__file__ == str((source / "natives.py").resolve())
    assert not module.__name__.startswith("engine")
    assert rules_module("treasure_hunt", tmp_path) is module
    assert rules_module("treasure_hunt") is module  # the project at the current directory
    # Nothing compiled into the designer's folder.
    assert not (source / "__pycache__").exists()


def test_an_edited_natives_file_is_loaded_again(tmp_path: Path) -> None:
    source = _project(tmp_path)
    first = load_natives(source)
    assert first is not None and first.lucky(None, None, 1) == 3
    (source / "luck.py").write_text("TIMES = 5  # edited\n", encoding="utf-8")
    second = load_natives(source)
    assert second is not first and second is not None and second.lucky(None, None, 1) == 5
    assert load_natives(source) is second


def test_two_projects_games_of_one_name_do_not_shadow_each_other(tmp_path: Path) -> None:
    one = _project(tmp_path / "one")
    two = _project(tmp_path / "two")
    (two / "luck.py").write_text("TIMES = 7\n", encoding="utf-8")
    a, b = load_natives(one), load_natives(two)
    assert a is not None and b is not None
    assert (a.lucky(None, None, 1), b.lucky(None, None, 1)) == (3, 7)


def test_the_decorators_declare_what_the_checker_compares(tmp_path: Path) -> None:
    module = load_natives(_project(tmp_path))
    found = api.implementations(module)
    assert set(found.natives) == {"lucky"} and set(found.verbs) == {"find_treasure"}
    spec = found.specs[("native", "lucky")]
    assert [(p.name, p.type) for p in spec.params] == [("amount", "number")]
    assert spec.returns == "number"
    with pytest.raises(ValueError, match="'nombre' is not a DSL type"):
        api.native("amount number", returns="nombre")
    with pytest.raises(ValueError, match="a parameter is 'NAME TYPE'"):
        api.verb("amount")


def _check(root: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, int]]:
    from compiler.pipeline import compile_game

    monkeypatch.chdir(root)
    result = compile_game(root / "cards" / "treasure_hunt", SourceCache())
    return [(d.code, d.message, d.span.line) for d in result.diagnostics]


def test_a_missing_or_mismatching_implementation_is_an_error_at_its_declaration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = _project(tmp_path / "missing", NATIVES.replace("def lucky(", "def unlucky("))
    assert _check(missing.parent.parent, monkeypatch) == [
        ("not-implemented", "'lucky' is declared but nothing implements it", 9)
    ]
    typed = _project(
        tmp_path / "typed", NATIVES.replace('@verb("amount number")', '@verb("n text")')
    )
    ((code, message, line),) = _check(typed.parent.parent, monkeypatch)
    assert (code, line) == ("signature-mismatch", 10)
    assert 'declares parameters "n text", not "amount number"' in message
    returns = _project(tmp_path / "returns", NATIVES.replace('returns="number"', 'returns="bool"'))
    ((code, message, line),) = _check(returns.parent.parent, monkeypatch)
    assert (code, line) == ("signature-mismatch", 9) and "returns bool, not number" in message
    # The decorator may agree while the function cannot take the arguments.
    arity = _project(
        tmp_path / "arity", NATIVES.replace("def lucky(g, c, amount)", "def lucky(g, c)")
    )
    ((code, message, _),) = _check(arity.parent.parent, monkeypatch)
    assert code == "signature-mismatch" and "takes 0 after (g, c)" in message


def test_old_style_dicts_are_still_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = (
        "def lucky(g, c, amount):\n    return amount\n\n\n"
        "def find_treasure(g, c, amount):\n    g.gain(c, 'coins', amount)\n\n\n"
        "NATIVES = {'lucky': lucky}\nVERBS = {'find_treasure': find_treasure}\n"
    )
    folder = _project(tmp_path, old)
    assert _check(tmp_path, monkeypatch) == []
    (folder / "natives.py").write_text(old.replace("(g, c, amount):\n    g.", "(g, c):\n    g."))
    ((code, message, _),) = _check(tmp_path, monkeypatch)
    assert code == "signature-mismatch" and "declared with 1 parameters" in message


def test_broken_natives_are_an_error_at_their_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path, NATIVES + "\n\nx = (\n")
    ((code, message, line),) = _check(tmp_path, monkeypatch)
    assert (
        code == "natives-broken" and line == NATIVES.count("\n") + 3 and "never closed" in message
    )
    (tmp_path / "cards" / "treasure_hunt" / "natives.py").write_text(
        "import nonexistent_module_of_the_designer\n"
    )
    ((code, message, line),) = _check(tmp_path, monkeypatch)
    assert code == "natives-broken" and line == 1 and "ModuleNotFoundError" in message
    with pytest.raises(NativesError) as error:
        load_natives(tmp_path / "cards" / "treasure_hunt")
    assert error.value.file.endswith("natives.py") and error.value.line == 1


def test_a_compiled_folder_outside_its_project_runs_no_python_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path / "project")
    _build(tmp_path / "project", monkeypatch)
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(tmp_path / "project" / "generated", elsewhere / "out")
    # A cards/ folder beside the copy is not its project: its generated/ is not this one.
    shutil.copytree(tmp_path / "project" / "cards", elsewhere / "cards")
    assert source_folder(elsewhere / "out" / "treasure_hunt") is None
    assert game_rules("treasure_hunt", elsewhere / "out" / "treasure_hunt") is None


def test_a_point_shipped_to_a_worker_carries_the_natives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path / "project")
    _build(tmp_path / "project", monkeypatch)
    compiled = tmp_path / "project" / "generated" / "treasure_hunt"
    point = sim.Point.of(compiled).with_files()
    names = [name for name, _ in point.files]
    assert "cards/treasure_hunt/natives.py" in names and "cards/treasure_hunt/luck.py" in names
    local = sim.run_chunk(sim.Chunk((sim.Point.of(compiled),), 1, "solo", "greedy", 1, 1, 5))
    # The worker's machine has no project: only what the point carries.
    shutil.rmtree(tmp_path / "project")
    monkeypatch.chdir(tmp_path)
    sim._SIMULATORS.clear()
    shipped = sim.run_chunk(sim.Chunk((point,), 1, "solo", "greedy", 1, 1, 5))
    assert shipped.failed is None and local.failed is None
    assert shipped.tallies == local.tallies and shipped.tallies[0].games == 5
    assert sum(shipped.tallies[0].scores) > 0  # the natives' verb scored
    worker = next(iter(sim._SIMULATORS.values()))
    assert worker.rules is not None and "cardc-sim-" in str(worker.rules.__file__)
    assert worker.implementations.natives["lucky"](None, None, 1) == 3


def test_the_shipped_games_natives_are_found_beside_their_cards() -> None:
    # Each game's Python is its natives.py, loaded by path; nothing of a game is in engine/.
    assert not (REPO / "engine" / "games").exists()
    for game in ("uncharted_passage", "land_vs_sea", "darwins_journey", "incredible_expeditions"):
        module = rules_module(game, REPO)
        assert module is not None and module.GAME_CLASS is not None
        beside = REPO / "cards" / game / "natives.py"
        assert Path(module.__file__) == beside.resolve()
        assert game_rules(game, REPO / "generated" / game) is module
    assert rules_module("no_such_game", REPO) is None
    with pytest.raises(Exception, match="not a cardc project"):
        rules_module("uncharted_passage", REPO / "engine")


def _package_files() -> dict[str, int]:
    """Every file of the installed cardc (its Python caches aside), with its time."""
    roots = {
        Path(engine.__file__).resolve().parent.parent / n for n in ("engine", "compiler", "dsl")
    }
    return {
        str(p): p.stat().st_mtime_ns
        for root in roots
        for p in root.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_a_cardc_new_game_in_an_unrelated_folder_adds_natives_and_is_simulated(
    tmp_path: Path,
) -> None:
    cardc = Path(sys.executable).parent / "cardc"
    assert cardc.is_file(), "the installed cardc command"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    before = _package_files()

    def run(*argv: str, cwd: Path) -> str:
        done = subprocess.run(
            [str(cardc), *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    run("new", "treasure_hunt", cwd=tmp_path)
    project = tmp_path / "treasure_hunt"
    folder = project / "cards" / "treasure_hunt"
    (folder / "game.cards").write_text(GAME, encoding="utf-8")
    (folder / "cards.cards").write_text(CARDS, encoding="utf-8")
    (folder / "flow.cards").unlink()  # CARDS carries the scaffold's flow: one flow per game
    (folder / "natives.py").write_text(NATIVES, encoding="utf-8")
    (folder / "luck.py").write_text("TIMES = 3\n", encoding="utf-8")
    shutil.rmtree(project / "tests")  # the scaffold's scenario is about its own card
    run("check", cwd=project)
    run("build", cwd=project)
    report = json.loads(run("sim", "treasure_hunt", "--games", "20", "--json", cwd=project))
    # Lucky Find is played in every game, once a round (param rounds 3), and each play scores
    # 1 point through the natives' verb: nothing else scores.
    assert report["games"] == 20 and report["cards"]["lucky_find"]["played"] == 20
    assert report["score"]["mean"] == 3.0
    assert _package_files() == before


@pytest.mark.parametrize(
    ("line", "whose"), [("board_flag", "the board's"), ("player_flag", "the acting player's")]
)
def test_a_flag_native_is_the_compilers_not_pythons(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str, whose: str
) -> None:
    declared = GAME.replace(
        "  verb find_treasure",
        f'  native found "the treasure is found" {{ returns bool; {line} found }}\n'
        "  verb find_treasure",
    )
    folder = _project(tmp_path / "alone")
    (folder / "game.cards").write_text(declared, encoding="utf-8")
    # Nothing in natives.py implements it, and nothing need: the compiler reads the flag.
    assert _check(folder.parent.parent, monkeypatch) == []
    twice = _project(
        tmp_path / "twice",
        NATIVES + '\n\n@native(returns="bool")\ndef found(g, c):\n    return True\n',
    )
    (twice / "game.cards").write_text(declared, encoding="utf-8")
    ((code, message, at),) = _check(twice.parent.parent, monkeypatch)
    assert (code, at) == ("signature-mismatch", 10)  # the declaration in game.cards
    assert f"declared '{line} found'" in message and "implements it too" in message
    assert f"reads {whose} 'found'" in message
