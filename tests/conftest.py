"""Shared pytest configuration: the switch that rewrites golden and expected-output files.

Golden tests compare what cardc produces with files checked in under ``tests/``. After an
intended change, run ``pytest --update-golden`` (or set ``CARDC_UPDATE_GOLDEN=1``) to rewrite
them, then review the diff like any other change.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

#: Environment switch for runners that cannot pass pytest options (an editor, a CI matrix).
UPDATE_GOLDEN_ENV = "CARDC_UPDATE_GOLDEN"


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register ``--update-golden``."""
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help=f"rewrite golden and expected-output files instead of comparing "
        f"(same as {UPDATE_GOLDEN_ENV}=1)",
    )


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True when golden files should be rewritten rather than compared."""
    from_option = bool(request.config.getoption("--update-golden"))
    return from_option or os.environ.get(UPDATE_GOLDEN_ENV, "") == "1"


# ---- scenario files as test items --------------------------------------------------------
# Every YAML file under tests/scenarios/ is collected, one item per scenario document, by the
# plugin cardc installs (compiler/pytest_plugin.py, entry point pytest11), the same one that
# collects a designer's own project's scenarios.


@pytest.fixture
def fresh_file_cache() -> Iterator[None]:
    """Compile each test's copies afresh and leave no kept checks behind: compiler.filecache
    keys a file by its path and text, and a copy of a shipped game shares both with the
    repository's own, whose kept cards (which carry no spans) other modules' tests must not be
    handed. A module that copies games uses it for every test:
    ``pytestmark = pytest.mark.usefixtures("fresh_file_cache")``."""
    from compiler import filecache

    filecache.clear()
    yield
    filecache.clear()


# ---- a copy of a shipped game, with a designer's files, built --------------------------------


@pytest.fixture
def built_copy(tmp_path: Path) -> Callable[[str, dict[str, str]], Path]:
    """``built_copy(game, files)``: a project in ``tmp_path / "project"`` holding a copy of
    ``cards/<game>/`` with ``files`` (paths under the game's folder -> text) added, built by
    ``cardc build`` (no sheets); returns the project's ``generated/`` for a scenario runner.
    A build that fails fails the test with its diagnostics."""
    from probing import copy_game

    from compiler.build import build
    from compiler.project import find_project
    from dsl.diagnostics import SourceCache

    def make(game: str, files: dict[str, str]) -> Path:
        root = tmp_path / "project"
        folder = copy_game(root, game)
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
        project = find_project(root)
        assert project is not None
        outcome = build(project, [game], check_only=False, sources=SourceCache(), sheets=False)
        assert outcome.status == 0, [str(d) for d in outcome.diagnostics]
        return root / "generated"

    return make
