"""Games and variants are found by name inside the project, and their IR is checked first.

Issue 14's reproducer: a scenario's ``game: ../../../../some/dir`` (or ``variant:``, or
``cardc sim GAME --variant ../other``) was joined into a path and the ``handlers.py`` found
there was executed. Each test plants such a module, which would leave a marker file when run,
and checks that cardc refuses the name with a located message and never runs it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.loader import compiled_folder, load_table, name_problem, new_game
from engine.runtime import RuleError

REPO = Path(__file__).resolve().parent.parent
GENERATED = REPO / "generated"
CARDC = [sys.executable, "-m", "compiler.cli"]


# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


def cardc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run cardc as a user would."""
    env = {k: v for k, v in os.environ.items() if k != "CARDC_DEBUG"}
    return subprocess.run(
        [*CARDC, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False
    )


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path]:
    """A folder shaped like a compiled game whose handlers leave a marker when executed."""
    evil = tmp_path / "evil"
    evil.mkdir()
    marker = tmp_path / "ran.txt"
    (evil / "handlers.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\nHANDLERS = {{}}\n")
    shutil.copy(GENERATED / "land_vs_sea" / "cards.json", evil / "cards.json")
    return evil, marker


def _relative_from(start: Path, target: Path) -> str:
    return os.path.relpath(target, start)


@pytest.mark.parametrize("key", ["game", "variant"])
def test_a_scenario_cannot_name_a_game_by_path(
    tmp_path: Path, planted: tuple[Path, Path], key: str
) -> None:
    evil, marker = planted
    up = _relative_from(GENERATED / "land_vs_sea", evil)
    game = up if key == "game" else "land_vs_sea"
    lines = ["scenario: path", f"game: {game}"]
    if key == "variant":
        lines.append(f"variant: {up}")
    lines.append("do:\n  - fire: game_end")
    scenario = tmp_path / "path.yaml"
    scenario.write_text("\n".join(lines) + "\n")
    run = cardc("test", str(scenario), cwd=REPO)
    assert not marker.exists(), "the planted handlers ran"
    assert run.returncode == 1, run.stdout + run.stderr
    # At the value: "game: " and "variant: " are 6 and 9 characters.
    line, column = (2, 7) if key == "game" else (3, 10)
    assert f"{scenario}:{line}:{column}: '{up[:20]}" in run.stdout
    assert f"is not a {key} name" in run.stdout
    assert "internal error" not in run.stdout + run.stderr


@pytest.mark.parametrize("which", ["game", "variant", "absolute"])
def test_cardc_sim_cannot_name_a_game_by_path(planted: tuple[Path, Path], which: str) -> None:
    evil, marker = planted
    if which == "game":
        args = [_relative_from(GENERATED, evil)]
    elif which == "variant":
        args = ["land_vs_sea", "--variant", _relative_from(GENERATED / "land_vs_sea", evil)]
    else:
        args = ["land_vs_sea", "--variant", str(evil)]
    run = cardc("sim", *args, "--games", "1", cwd=REPO)
    assert not marker.exists(), "the planted handlers ran"
    assert run.returncode == 2, run.stdout + run.stderr
    assert "never by a path" in run.stderr
    assert "internal error" not in run.stderr


def test_names_are_the_dsl_s_names() -> None:
    assert name_problem("uncharted_passage") is None
    assert name_problem("harsher_sea", "variant") is None
    for bad in ["../x", "/tmp/x", "a.b", "", "a b", "x/y", "..", "\x1b[31mred"]:
        assert name_problem(bad) is not None, bad
    # A terminal escape in a name is shown, not sent to the terminal.
    assert "\x1b" not in (name_problem("\x1b[31mred") or "")
    with pytest.raises(RuleError):
        compiled_folder(GENERATED, "land_vs_sea", "../uncharted_passage")


@pytest.fixture
def copied(tmp_path: Path) -> Path:
    """A copy of generated/land_vs_sea and the schemas, as a project's generated/ holds them."""
    generated = tmp_path / "generated"
    shutil.copytree(GENERATED / "land_vs_sea", generated / "land_vs_sea")
    shutil.copytree(GENERATED / "schema", generated / "schema")
    return generated


def test_ir_that_breaks_the_schema_is_refused_before_its_handlers_run(
    copied: Path, tmp_path: Path
) -> None:
    folder = copied / "land_vs_sea"
    marker = tmp_path / "ran.txt"
    handlers = folder / "handlers.py"
    handlers.write_text(f"open({str(marker)!r}, 'w')\n" + handlers.read_text())
    ir = json.loads((folder / "cards.json").read_text())
    ir["cards"][0]["id"] = "not a name"
    (folder / "cards.json").write_text(json.dumps(ir))
    with pytest.raises(RuleError, match=r"breaks its schema at /cards/0/id"):
        new_game(folder)
    assert not marker.exists()


def test_ir_of_another_game_is_refused(copied: Path) -> None:
    moved = copied / "other_game"
    shutil.copytree(copied / "land_vs_sea", moved)
    with pytest.raises(RuleError, match="holds game 'land_vs_sea', not the folder's own"):
        load_table(moved)


def test_ir_without_the_schema_of_its_build_is_refused(copied: Path) -> None:
    shutil.rmtree(copied / "schema")
    with pytest.raises(RuleError, match="schema/ir.schema.json beside it"):
        load_table(copied / "land_vs_sea")


def test_a_compiled_game_and_variant_still_load() -> None:
    assert load_table(GENERATED / "uncharted_passage" / "harsher_sea")[0]["variant"] == (
        "harsher_sea"
    )
    assert new_game(GENERATED / "land_vs_sea").ir["game"] == "land_vs_sea"
