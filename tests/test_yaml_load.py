"""The bounded YAML loader (dsl/yaml_load.py) and every command that reads YAML through it.

The reproducers of issue 14: a few hundred bytes of aliases that expand to billions of nodes
("billion laughs") hung `cardc test` and made `cardc check` take gigabytes; YAML nested a few
thousand levels deep ended in RecursionError (exit 3). Each now ends in a located error with
the bound and a hint, at once. Commands run in a subprocess with a timeout, as a user runs them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dsl.yaml_load import MAX_DEPTH, YamlLimitError, load_yaml, load_yaml_all

REPO = Path(__file__).resolve().parent.parent
CARDC = [sys.executable, "-m", "compiler.cli"]
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'


# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


def billion_laughs(indent: str = "", levels: int = 9) -> str:
    """The classic alias bomb: each level is a list of nine aliases of the level before."""
    text = f'{indent}a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    previous = "a"
    for name in "bcdefghijk"[: levels - 1]:
        text += f"{indent}{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]\n"
        previous = name
    return text


def deep(levels: int = 3000) -> str:
    """A flow list nested ``levels`` deep."""
    return "[" * levels + "]" * levels


def cardc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run cardc as a user would, with a timeout well under the old hang."""
    env = {k: v for k, v in os.environ.items() if k != "CARDC_DEBUG"}
    return subprocess.run(
        [*CARDC, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False
    )


# -- the loader itself


@pytest.mark.parametrize("mode", ["rt", "safe"])
def test_an_alias_bomb_is_refused_at_the_alias_that_passes_the_bound(mode: str) -> None:
    started = time.perf_counter()
    with pytest.raises(YamlLimitError) as caught:
        load_yaml(billion_laughs(), mode, source="bomb.yaml")  # type: ignore[arg-type]
    assert time.perf_counter() - started < 1
    error = caught.value
    assert error.bound == "alias expansion"
    # Level e (line 5) is the first whose aliases add more than 10,000 nodes.
    assert (error.line, error.column) == (5, 8)
    assert str(error).startswith("bomb.yaml:5:8: aliases in this file expand to more than")
    assert "hint:" in str(error)


@pytest.mark.parametrize("mode", ["rt", "safe"])
def test_deep_nesting_is_refused_before_the_recursion_limit(mode: str) -> None:
    with pytest.raises(YamlLimitError) as caught:
        load_yaml("x: " + deep(), mode)  # type: ignore[arg-type]
    assert caught.value.bound == "nesting depth"
    assert caught.value.line == 1
    block = "".join("  " * i + f"k{i}:\n" for i in range(2000)) + "  " * 2000 + "1\n"
    with pytest.raises(YamlLimitError):
        load_yaml(block, mode)  # type: ignore[arg-type]


def test_nesting_up_to_the_bound_and_ordinary_aliases_load() -> None:
    # The root mapping is one level, so a list MAX_DEPTH - 1 deep is the deepest that loads.
    data = load_yaml("x: " + deep(MAX_DEPTH - 1))
    assert isinstance(data["x"], list)
    data = load_yaml("base: &b {copies: 3}\none: *b\ntwo: {<<: *b, extra: 1}\n")
    assert data["one"] == {"copies": 3} and data["two"]["extra"] == 1
    # Round trip keeps positions: callers point at the YAML line and column.
    assert data.lc.key("two") == (2, 0)


def test_an_alias_inside_its_own_anchor_is_refused() -> None:
    with pytest.raises(YamlLimitError) as caught:
        load_yaml("a: &a [1, *a]\n")
    assert caught.value.bound == "recursive alias"


def test_merge_key_bombs_are_counted_like_aliases() -> None:
    # Each level merges the one before twice over: the mappings would double every level.
    text = "m0: &m0 {k0: 1, j0: 2}\n"
    for i in range(1, 40):
        text += f"m{i}: &m{i} {{<<: [*m{i - 1}], x{i}: *m{i - 1}, y{i}: *m{i - 1}}}\n"
    with pytest.raises(YamlLimitError):
        load_yaml(text)


def test_every_document_of_a_stream_shares_one_budget() -> None:
    one = billion_laughs(levels=4)  # about 6,500 nodes from aliases
    assert len(load_yaml_all(one)) == 1
    with pytest.raises(YamlLimitError):
        load_yaml_all(one + "---\n" + one)


# -- the commands


def test_cardc_test_refuses_an_alias_bomb_in_a_scenario(tmp_path: Path) -> None:
    scenario = tmp_path / "bomb.yaml"
    scenario.write_text(
        "scenario: bomb\ngame: uncharted_passage\ndo: []\nx:\n" + billion_laughs("  ")
    )
    assert len(scenario.read_bytes()) < 600
    run = cardc("test", str(scenario), cwd=REPO)
    assert run.returncode == 1, run.stderr
    # At the alias's line and column, as every scenario problem is told.
    assert f"{scenario}:9:" in run.stdout
    assert "aliases in this file expand to more than 10,000 nodes" in run.stdout
    assert "internal error" not in run.stdout + run.stderr


def test_cardc_test_refuses_deep_nesting_in_a_scenario(tmp_path: Path) -> None:
    scenario = tmp_path / "deep.yaml"
    scenario.write_text("scenario: deep\ngame: uncharted_passage\ndo: []\nx: " + deep() + "\n")
    run = cardc("test", str(scenario), cwd=REPO)
    assert run.returncode == 1, run.stderr
    assert f"{scenario}:4:" in run.stdout
    assert f"mappings and lists nest more than {MAX_DEPTH} levels" in run.stdout


@pytest.fixture
def small_project(tmp_path: Path) -> Path:
    """A temporary project with a copy of Land vs Sea."""
    shutil.copytree(REPO / "cards" / "land_vs_sea", tmp_path / "cards" / "land_vs_sea")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    return tmp_path


@pytest.mark.parametrize(
    "body",
    [
        pytest.param("description: x\nbomb:\n" + billion_laughs("  "), id="alias-bomb"),
        pytest.param("description: " + deep() + "\n", id="deep"),
    ],
)
def test_cardc_check_refuses_a_bounded_variant(small_project: Path, body: str) -> None:
    variants = small_project / "cards" / "land_vs_sea" / "variants"
    (variants / "bomb.yaml").write_text(body)
    run = cardc("check", cwd=small_project)
    assert run.returncode == 1, run.stderr
    assert "cards/land_vs_sea/variants/bomb.yaml:" in run.stderr
    assert "error[yaml-limit]" in run.stderr
    assert "hint:" in run.stderr
    assert "internal error" not in run.stdout + run.stderr


@pytest.mark.parametrize(
    "body", [pytest.param(deep(), id="deep"), pytest.param(billion_laughs(), id="alias-bomb")]
)
def test_cardc_sheets_refuses_a_bounded_reference(small_project: Path, body: str) -> None:
    (small_project / "cards" / "land_vs_sea" / "reference.yaml").write_text(body)
    run = cardc("sheets", "land_vs_sea", "--format", "md", "--out", "print", cwd=small_project)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "reference.yaml:" in run.stderr
    assert "hint:" in run.stderr
    assert "internal error" not in run.stdout + run.stderr
