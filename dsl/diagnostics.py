"""Diagnostics as data, and the one renderer every stage uses.

A :class:`Diagnostic` has a stable code (``unclosed-block``, ``name-undefined``), a severity, a
span, a message and hints. Stages collect them; nothing is printed until the run ends, when
they are sorted by file and line and rendered together, in text for people or JSON for tools.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

from dsl.nodes import Span

Severity = Literal["error", "warning", "note"]


#: A span for diagnostics about a whole file (missing, not UTF-8, a directory).
def file_span(path: str) -> Span:
    """A span pointing at the start of ``path``."""
    return Span(path, 1, 1, 1, 1)


def not_utf8(data: bytes, error: UnicodeDecodeError) -> tuple[int, int, str]:
    """Where ``data`` stops being UTF-8 (1-based line and column, counted in bytes on its
    line) and the sentence that says so: every file cardc reads (card files, variants,
    scenarios, reference tables) names the byte the same way, with the hint
    :data:`NOT_UTF8_HINT`."""
    before = data[: error.start]
    line = before.count(b"\n") + 1
    column = len(before) - (before.rfind(b"\n") + 1) + 1
    return (
        line,
        column,
        f"this file is not valid UTF-8: byte 0x{data[error.start]:02x} at line {line}, "
        f"column {column}",
    )


#: What to do about a file that is not UTF-8.
NOT_UTF8_HINT = "save the file as UTF-8"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem found in the sources, with where it is and how to fix it."""

    code: str
    message: str
    span: Span
    severity: Severity = "error"
    hints: tuple[str, ...] = ()
    #: When false the renderer shows no source excerpt (the file could not be read as text).
    show_source: bool = True

    def sort_key(self) -> tuple[str, int, int, str]:
        """Order: by file, line, column, then code, so output is stable."""
        return (self.span.file, self.span.line, self.span.column, self.code)

    def to_json(self) -> dict[str, object]:
        """The diagnostic as JSON data for editors and CI."""
        return {
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hints": list(self.hints),
        }


class DiagnosticError(Exception):
    """Raised by a stage that cannot go on; carries the diagnostics found so far."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("; ".join(d.message for d in self.diagnostics))


@dataclass
class Reporter:
    """Collects diagnostics across stages and files."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(self, diagnostic: Diagnostic) -> None:
        """Record one diagnostic."""
        self.diagnostics.append(diagnostic)

    def extend(self, diagnostics: Iterable[Diagnostic]) -> None:
        """Record several diagnostics."""
        self.diagnostics.extend(diagnostics)

    @property
    def has_errors(self) -> bool:
        """True when any diagnostic is an error."""
        return any(d.severity == "error" for d in self.diagnostics)

    def sorted(self) -> list[Diagnostic]:
        """The diagnostics, sorted by file and line, duplicates dropped."""
        return sorted(set(self.diagnostics), key=Diagnostic.sort_key)


#: Source lines longer than this are cut around the span when shown.
_EXCERPT_WIDTH = 120


def _excerpt(line: str, start: int, end: int) -> tuple[str, int, int]:
    """Cut a long source line to a window around [start, end) (0-based columns)."""
    if len(line) <= _EXCERPT_WIDTH:
        return line, start, end
    left = max(0, start - 40)
    right = min(len(line), left + _EXCERPT_WIDTH)
    prefix = "..." if left else ""
    suffix = "..." if right < len(line) else ""
    shift = left - len(prefix)
    return prefix + line[left:right] + suffix, start - shift, min(end, right) - shift


def render(diagnostic: Diagnostic, source_lines: list[str] | None) -> str:
    """Render one diagnostic the way a compiler does.

    ``path:line:col: error[code]: message``, then the source line with an underline under
    the span, then each hint.
    """
    span = diagnostic.span
    out = [f"{span}: {diagnostic.severity}[{diagnostic.code}]: {diagnostic.message}"]
    if diagnostic.show_source and source_lines and 0 < span.line <= len(source_lines):
        text = source_lines[span.line - 1].rstrip("\r\n").expandtabs(1)
        start = max(span.column - 1, 0)
        if span.end_line == span.line:
            end = max(span.end_column - 1, start + 1)
        else:
            end = max(len(text), start + 1)
        text, start, end = _excerpt(text, start, end)
        gutter = str(span.line)
        pad = " " * len(gutter)
        out.append(f" {gutter} | {text}")
        out.append(f" {pad} | {' ' * start}^{'~' * max(end - start - 1, 0)}")
    for hint in diagnostic.hints:
        out.append(f"  hint: {hint}")
    return "\n".join(out)


class SourceCache:
    """Reads source files once, for excerpts; unreadable files give no excerpt."""

    def __init__(self) -> None:
        self._lines: dict[str, list[str] | None] = {}

    def put(self, path: str, text: str) -> None:
        """Remember text already read (the parser has it in memory)."""
        # Split on "\n" only, as the lexer counts lines (splitlines() also breaks on \r, \f
        # and U+2028, which would put excerpts on the wrong line).
        self._lines[path] = text.split("\n")

    def lines(self, path: str) -> list[str] | None:
        """The lines of ``path``, or None when it cannot be read as UTF-8 text."""
        if path not in self._lines:
            try:
                with open(path, encoding="utf-8", newline="") as handle:
                    self._lines[path] = handle.read().split("\n")
            except (OSError, UnicodeDecodeError, ValueError):
                self._lines[path] = None
        return self._lines[path]


def render_all(diagnostics: Iterable[Diagnostic], sources: SourceCache, fmt: str = "text") -> str:
    """Render every diagnostic, sorted, as text (with a summary line) or as JSON."""
    ordered = sorted(set(diagnostics), key=Diagnostic.sort_key)
    if fmt == "json":
        return json.dumps(
            {"diagnostics": [d.to_json() for d in ordered]}, indent=2, ensure_ascii=False
        )
    parts = [render(d, sources.lines(d.span.file)) for d in ordered]
    errors = sum(d.severity == "error" for d in ordered)
    warnings = sum(d.severity == "warning" for d in ordered)
    if ordered:
        parts.append(f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}")
    return "\n\n".join(parts[:-1]) + ("\n\n" if len(parts) > 1 else "") + parts[-1] if parts else ""


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
