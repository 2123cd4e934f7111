"""The ``cardc`` command line, run as a user runs it: in a subprocess, from a chosen folder.

Only parse-level behaviour is tested here (syntax diagnostics, ``parse``, ``new``, project
discovery); what the checker says about a game belongs to the checker's own tests. Every run
sets its working directory explicitly, in a temporary folder with no project above it, so the
repository's own ``cards/`` never leaks in.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from compiler import __version__
from compiler.cli import build_parser
from compiler.project import find_project
from dsl.nodes import to_json
from dsl.parser import parse_file

CARDC = [sys.executable, "-m", "compiler.cli"]
#: The console script installed next to this Python (the venv's bin/).
CONSOLE_SCRIPT = Path(sys.executable).with_name("cardc")

BROKEN_CARD = """\
port_card "Rum" {
  on pirate_combat {
    add armament 1 +
  }
}
"""
#: Where BROKEN_CARD's error is: the '+' with nothing after it.
BROKEN_LINE, BROKEN_COLUMN = 3, BROKEN_CARD.splitlines()[2].index("+") + 1

VALID_CARD = """\
port_card "Smoke Bomb" {
  copies 5 @provisional("the count per kind is not printed")
  on pirate_combat {
    may reduce pirate_power up_to 2
  }
}
"""


def cardc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run cardc with ``args`` in ``cwd``; CARDC_DEBUG unset, so no traceback is let through."""
    env = {k: v for k, v in os.environ.items() if k != "CARDC_DEBUG"}
    return subprocess.run(
        [*CARDC, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """An empty folder with no cardc project at or above it."""
    assert find_project(tmp_path) is None, f"a project above {tmp_path} would change the tests"
    return tmp_path


def _subcommands() -> list[str]:
    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return sorted(name for action in actions for name in action.choices)


SUBCOMMANDS = _subcommands()


# ---- version and help ----------------------------------------------------------------------


def test_version(outside: Path) -> None:
    run = cardc("--version", cwd=outside)
    assert run.returncode == 0
    assert run.stdout.strip() == f"cardc {__version__}"


def test_console_script_is_installed(outside: Path) -> None:
    # pyproject.toml's [project.scripts] entry, which is what designers actually type.
    if not CONSOLE_SCRIPT.is_file():
        pytest.skip(f"no console script at {CONSOLE_SCRIPT} (not run from a venv)")
    run = subprocess.run(
        [str(CONSOLE_SCRIPT), "--version"], cwd=outside, capture_output=True, text=True, check=False
    )
    assert (run.returncode, run.stdout.strip()) == (0, f"cardc {__version__}")


def test_the_documented_subcommands_exist() -> None:
    # Iterating over the parser below would silently test nothing if it lost its subcommands.
    assert {"check", "build", "parse", "new"} <= set(SUBCOMMANDS)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_help_of_every_subcommand(command: str, outside: Path) -> None:
    run = cardc(command, "--help", cwd=outside)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"usage: cardc {command}")
    assert run.stderr == ""


def test_no_subcommand_prints_help(outside: Path) -> None:
    run = cardc(cwd=outside)
    assert run.returncode == 2
    for command in SUBCOMMANDS:
        assert command in run.stdout


# ---- check ----------------------------------------------------------------------------------


def test_check_reports_a_syntax_error_like_a_compiler(outside: Path) -> None:
    (outside / "broken.cards").write_text(BROKEN_CARD, encoding="utf-8")
    run = cardc("check", "broken.cards", cwd=outside)
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    lines = run.stderr.splitlines()
    header = f"broken.cards:{BROKEN_LINE}:{BROKEN_COLUMN}: error[missing-operand]: "
    (at,) = [i for i, line in enumerate(lines) if line.startswith(header)]
    assert "'+'" in lines[at], "the message names the operator that lacks a value"
    # Then the source line, an underline starting under the column, and a hint.
    source = BROKEN_CARD.splitlines()[BROKEN_LINE - 1]
    assert lines[at + 1] == f" {BROKEN_LINE} | {source}"
    gutter = " " * (len(str(BROKEN_LINE)) + 1)
    assert lines[at + 2].rstrip("~") == f"{gutter} | {' ' * (BROKEN_COLUMN - 1)}^"
    assert lines[at + 3].startswith("  hint: ")
    assert lines[-1] == "1 error, 0 warnings"


def test_check_json_format(outside: Path) -> None:
    (outside / "broken.cards").write_text(BROKEN_CARD, encoding="utf-8")
    run = cardc("check", "--format", "json", "broken.cards", cwd=outside)
    assert run.returncode == 1
    report = json.loads(run.stdout)  # nothing but JSON on stdout, for editors and CI
    (diagnostic,) = report["diagnostics"]
    assert set(diagnostic) == {
        "file", "line", "column", "end_line", "end_column",
        "severity", "code", "message", "hints",
    }  # fmt: skip
    assert diagnostic["file"] == "broken.cards"
    assert (diagnostic["line"], diagnostic["column"]) == (BROKEN_LINE, BROKEN_COLUMN)
    assert diagnostic["end_line"] == BROKEN_LINE
    assert diagnostic["end_column"] > BROKEN_COLUMN
    assert (diagnostic["severity"], diagnostic["code"]) == ("error", "missing-operand")
    assert diagnostic["message"] and isinstance(diagnostic["hints"], list) and diagnostic["hints"]


def test_check_of_a_valid_file_outside_any_game(outside: Path) -> None:
    (outside / "smoke_bomb.cards").write_text(VALID_CARD, encoding="utf-8")
    run = cardc("check", "smoke_bomb.cards", cwd=outside)
    assert run.returncode == 0, run.stderr
    assert "error[" not in run.stderr


# ---- parse ----------------------------------------------------------------------------------


def test_parse_prints_the_ast(outside: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (outside / "smoke_bomb.cards").write_text(VALID_CARD, encoding="utf-8")
    run = cardc("parse", "--json", "smoke_bomb.cards", cwd=outside)
    assert run.returncode == 0, run.stderr
    monkeypatch.chdir(outside)  # the same relative path the subprocess saw
    assert json.loads(run.stdout) == to_json(parse_file("smoke_bomb.cards").file)
    assert json.loads(run.stdout)["declarations"][0]["kind"] == "port_card"


def test_parse_of_a_broken_file(outside: Path) -> None:
    (outside / "broken.cards").write_text(BROKEN_CARD, encoding="utf-8")
    run = cardc("parse", "broken.cards", cwd=outside)
    assert run.returncode == 1
    assert "error[missing-operand]" in run.stderr
    assert "Traceback" not in run.stderr


# ---- new and project discovery ----------------------------------------------------------------


def test_new_outside_a_project_creates_one(outside: Path) -> None:
    run = cardc("new", "dragons", cwd=outside)
    assert run.returncode == 0, run.stderr
    root = outside / "dragons"
    table = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    assert "cardc" in table["tool"]
    game = root / "cards" / "dragons" / "game.cards"
    assert game.is_file()
    # The starter files are the first thing a designer edits: they must at least parse.
    for path in sorted((root / "cards" / "dragons").glob("*.cards")):
        assert parse_file(path).diagnostics == (), path
    assert find_project(root).root == root


def test_new_inside_a_project_adds_a_game(outside: Path) -> None:
    assert cardc("new", "dragons", cwd=outside).returncode == 0
    root = outside / "dragons"
    run = cardc("new", "other", cwd=root)
    assert run.returncode == 0, run.stderr
    assert (root / "cards" / "other" / "game.cards").is_file()
    # Inside a project it adds a game; it does not start a project within the project.
    assert not (root / "other").exists()


def test_project_is_found_from_a_subfolder(outside: Path) -> None:
    assert cardc("new", "dragons", cwd=outside).returncode == 0
    root = outside / "dragons"
    deep = root / "cards" / "dragons" / "variants"
    assert find_project(deep).root == root
    run = cardc("new", "third", cwd=deep)
    assert run.returncode == 0, run.stderr
    assert (root / "cards" / "third" / "game.cards").is_file()
    assert not (deep / "third").exists()


@pytest.mark.parametrize("name", ["Dragons", "sea-dogs", "1st_game", "_hidden"])
def test_new_refuses_a_bad_game_name(name: str, outside: Path) -> None:
    run = cardc("new", name, cwd=outside)
    assert run.returncode != 0
    assert "Traceback" not in run.stderr
    assert f"'{name}' is not a game name" in run.stderr
    assert "hint:" in run.stderr and "lower_snake_case" in run.stderr
    assert list(outside.iterdir()) == [], "nothing is created for a refused name"


def test_build_outside_a_project_explains(outside: Path) -> None:
    run = cardc("build", cwd=outside)
    assert run.returncode == 2
    assert "no project here" in run.stderr and "cardc new" in run.stderr
    assert "Traceback" not in run.stderr
