"""``cardc build``: compile every game to ``generated/``."""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.pipeline import check_paths
from compiler.project import Project, card_files
from dsl.diagnostics import Diagnostic, SourceCache


@dataclass
class BuildOutcome:
    """Diagnostics, report lines and exit status of a build."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    report: list[str] = field(default_factory=list)
    status: int = 0


def build(project: Project, paths: list[str], check_only: bool, sources: SourceCache) -> BuildOutcome:
    """Check every game of ``project``."""
    files = [f for game in project.games() for f in card_files(project.game_dir(game))]
    result = check_paths(files, project, sources)
    return BuildOutcome(result.diagnostics, [f"checked {len(files)} files"])
