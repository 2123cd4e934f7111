"""The stages in order, for one run: parse every file, then check each game.

Each stage is a pure function of its input; diagnostics from all of them are collected into
one list, which the CLI sorts and renders.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from compiler.project import Project
from dsl.diagnostics import Diagnostic, SourceCache
from dsl.nodes import SourceFile
from dsl.parser import parse_file


@dataclass
class CheckResult:
    """What ``cardc check`` found: parsed files and diagnostics."""

    files: list[SourceFile] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    provisional: list[tuple[str, str, str]] = field(default_factory=list)

    def summary(self) -> str:
        """One line for a clean run."""
        cards = sum(len(f.declarations) for f in self.files)
        return (
            f"checked {len(self.files)} files, {cards} declarations: no errors"
            f" ({len(self.provisional)} provisional values; see --provenance)"
        )

    def provenance_report(self) -> str:
        """Every @provisional value, where it is and why it was chosen."""
        lines = [f"{where}: {what}: {why}" for where, what, why in sorted(self.provisional)]
        lines.append(f"{len(self.provisional)} provisional values")
        return "\n".join(lines)


def parse_all(paths: Iterable[Path], sources: SourceCache) -> tuple[list[SourceFile], list[Diagnostic]]:
    """Parse ``paths``; remember their text for diagnostics."""
    files: list[SourceFile] = []
    diagnostics: list[Diagnostic] = []
    for path in paths:
        result = parse_file(path)
        if result.text is not None:
            sources.put(str(path), result.text)
        files.append(result.file)
        diagnostics.extend(result.diagnostics)
    return files, diagnostics


def check_paths(paths: list[Path], project: Project | None, sources: SourceCache) -> CheckResult:
    """Parse and check ``paths``."""
    files, diagnostics = parse_all(paths, sources)
    return CheckResult(files, diagnostics)
