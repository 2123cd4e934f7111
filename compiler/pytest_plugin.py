"""A pytest plugin: a designer's scenario files are collected as tests, one item a scenario.

Installed with cardc (entry point ``pytest11``), it finds the cardc project of pytest's root
folder (``cards/`` or ``[tool.cardc]``) and collects every ``*.yaml`` under its scenarios folder
(``tests/scenarios/`` by default), so ``pytest`` runs the rules tests of any project with no
conftest. A failure prints the scenario's own message (file:line:column, what was expected and
what happened, the last events), not a Python traceback. ``-p no:cardc`` turns it off.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


class ScenarioFailure(Exception):
    """A scenario did not hold."""


def _project(config: pytest.Config) -> Any:
    from compiler.project import find_project
    from dsl.project_config import ProjectConfigError

    cached = getattr(config, "_cardc_project", False)
    if cached is False:
        try:
            cached = find_project(Path(str(config.rootpath)))
        except ProjectConfigError as error:
            # The project's [tool.cardc] cannot be used: said once, at its line, not as a
            # traceback for every YAML file pytest collects.
            raise pytest.UsageError(f"{error}\n  hint: {error.hint}") from None
        config._cardc_project = cached  # type: ignore[attr-defined]
    return cached


def pytest_configure(config: pytest.Config) -> None:
    """Find the project before collecting: a ``[tool.cardc]`` table that cannot be used is a
    usage error pytest prints as one line, not a traceback under the first YAML file."""
    _project(config)


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    """Collect the project's scenario files (``*.yaml`` under its scenarios folder)."""
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    project = _project(parent.config)
    if project is None:
        return None
    try:
        file_path.resolve().relative_to(project.scenarios.resolve())
    except ValueError:
        return None
    return ScenarioFile.from_parent(parent, path=file_path)


def _shown(path: Path) -> Path:
    """The path messages name: relative to where pytest runs when it is inside it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return path


class ScenarioFile(pytest.File):
    """A scenario file: one test item per document."""

    def collect(self) -> Iterator[pytest.Item]:
        """One item per scenario document in the file."""
        from engine.scenario import ScenarioError, load

        try:
            documents = load(_shown(self.path))
        except ScenarioError as error:  # a broken file is one failing item
            yield ScenarioItem.from_parent(
                self, name=self.path.stem, document=None, line=1, problem=str(error)
            )
            return
        seen: dict[str, int] = {}
        for document, line, problem in documents:
            title = (
                str(document.get("scenario", self.path.stem))
                if isinstance(document, dict)
                else self.path.stem
            )
            count = seen[title] = seen.get(title, 0) + 1
            name = title if count == 1 else f"{title} ({count})"
            yield ScenarioItem.from_parent(
                self, name=name, document=document, line=line, problem=problem
            )


class ScenarioItem(pytest.Item):
    """One scenario, run against the project's generated/."""

    def __init__(self, *, document: object, line: int, problem: str | None, **kwargs: Any):
        super().__init__(**kwargs)
        self.document = document
        self.line = line
        self.problem = problem

    def runtest(self) -> None:
        """Run the scenario; raise ScenarioFailure with its message when it fails."""
        from engine.scenario import Runner

        if self.problem is not None:
            raise ScenarioFailure(self.problem)
        project = _project(self.config)
        result = Runner(project.generated).run(_shown(self.path), self.document, self.line)
        if not result.passed:
            raise ScenarioFailure(result.message)

    def repr_failure(  # type: ignore[override]
        self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None
    ) -> str:
        """The scenario's own message."""
        if isinstance(excinfo.value, ScenarioFailure):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Any, int, str]:
        """Where the scenario is, for pytest's report."""
        return self.path, self.line - 1, f"scenario: {self.name}"
