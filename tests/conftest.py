"""Shared pytest configuration: the switch that rewrites golden and expected-output files.

Golden tests compare what cardc produces with files checked in under ``tests/``. After an
intended change, run ``pytest --update-golden`` (or set ``CARDC_UPDATE_GOLDEN=1``) to rewrite
them, then review the diff like any other change.
"""

from __future__ import annotations

import os

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
# Every YAML file under tests/scenarios/ is collected, one item per scenario document, so the
# README's test command runs the rules tests too. Failures print the scenario's own message
# (file:line, expected and actual, the last events), not a Python traceback.


class ScenarioFailure(Exception):
    """A scenario did not hold."""


def pytest_collect_file(parent: pytest.Collector, file_path: object) -> pytest.Collector | None:
    """Collect ``tests/scenarios/**/*.yaml``."""
    from pathlib import Path

    path = Path(str(file_path))
    if path.suffix == ".yaml" and "scenarios" in path.parts:
        return ScenarioFile.from_parent(parent, path=path)
    return None


class ScenarioFile(pytest.File):
    """A scenario file: one test item per document."""

    def collect(self):  # type: ignore[no-untyped-def]
        """One item per scenario document in the file."""
        from pathlib import Path

        from engine.scenario import load

        root = Path(__file__).resolve().parent.parent
        try:
            documents = load(self.path.resolve().relative_to(root))
        except Exception as error:  # noqa: BLE001 - a broken file is one failing item
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

    def __init__(self, *, document: object, line: int, problem: str | None, **kwargs: object):
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.document = document
        self.line = line
        self.problem = problem

    def runtest(self) -> None:
        """Run the scenario; raise ScenarioFailure with its message when it fails."""
        from pathlib import Path

        from engine.scenario import Runner

        if self.problem is not None:
            raise ScenarioFailure(self.problem)
        root = Path(__file__).resolve().parent.parent
        relative = self.path.resolve().relative_to(root)
        result = Runner(root / "generated").run(relative, self.document, self.line)
        if not result.passed:
            raise ScenarioFailure(result.message)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style=None) -> str:  # type: ignore[no-untyped-def]
        """The scenario's own message."""
        if isinstance(excinfo.value, ScenarioFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[object, int, str]:
        """Where the scenario is, for pytest's report."""
        return self.path, self.line - 1, f"scenario: {self.name}"
