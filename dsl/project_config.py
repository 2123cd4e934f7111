"""A project's ``[tool.cardc]`` table in ``pyproject.toml``, read and held to what it may say.

One reader for the compiler (:mod:`compiler.project`) and the engine (:mod:`engine.loader`,
which does not import the compiler). The table names three folders, each a path relative to
the project: ``cards`` (the sources), ``generated`` (what ``cardc build`` writes) and
``scenarios``. ``cardc build`` replaces the generated folder whole and ``cardc new`` writes
under the cards folder, so a value that is not a plain relative path inside the project, or a
generated folder that is, holds or lies inside the project's sources, is refused here, at its
line and column, before any command writes: ``generated = "cards"`` (or ``"."``) once swapped
the designer's cards (or the whole project) out for the build's output.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from pathlib import Path, PurePosixPath, PureWindowsPath

#: The keys of ``[tool.cardc]`` and their defaults.
DEFAULTS = {"cards": "cards", "generated": "generated", "scenarios": "tests/scenarios"}

_AT = re.compile(r"at line (\d+), column (\d+)")


class ProjectConfigError(Exception):
    """``pyproject.toml``'s ``[tool.cardc]`` cannot be used: where, why and how to fix it."""

    def __init__(self, message: str, file: str, line: int, column: int, hint: str) -> None:
        super().__init__(f"{file}:{line}:{column}: {message}")
        self.reason = message
        self.file = file
        self.line = line
        self.column = column
        self.hint = hint


def _place(text: str, key: str | None) -> tuple[int, int]:
    """The line and column of ``key = ...`` in the ``[tool.cardc]`` table of ``text`` (of the
    table's header when ``key`` is None or not found there; 1:1 without a header)."""
    lines = text.splitlines()
    header = None
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if re.match(r"\[\s*tool\s*\.\s*cardc\s*\]", stripped):
            header = number
            continue
        if header is not None and stripped.startswith("["):
            break
        if header is not None and key is not None:
            found = re.match(rf"(\s*)[\"']?{re.escape(key)}[\"']?\s*=", line)
            if found:
                return number, len(found.group(1)) + 1
    return (header or 1), 1


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or path.is_relative_to(folder)


def read_table(folder: Path) -> dict[str, Path] | None:
    """The folders ``folder/pyproject.toml``'s ``[tool.cardc]`` names (``cards``,
    ``generated``, ``scenarios``, each under ``folder``), or None when there is no such file or
    table. Raises :class:`ProjectConfigError` for a table cardc cannot use safely."""
    pyproject = folder / "pyproject.toml"
    if not pyproject.is_file():
        return None
    shown = str(pyproject)
    try:
        text = pyproject.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None  # not readable as text: no table cardc could have been given
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        if "tool.cardc" not in text.replace(" ", ""):
            return None  # another tool's broken file, naming no cardc table
        at = _AT.search(str(error))
        line, column = (int(at.group(1)), int(at.group(2))) if at else (1, 1)
        raise ProjectConfigError(
            f"not valid TOML: {_AT.sub('', str(error)).rstrip(' ()')}",
            shown,
            line,
            column,
            "fix the TOML there; cardc reads its folders from the [tool.cardc] table",
        ) from None
    tool = data.get("tool")
    table = tool.get("cardc") if isinstance(tool, dict) else None
    if table is None:
        return None
    example = 'cards = "cards"'
    if not isinstance(table, dict):
        line, column = _place(text, "cardc")
        raise ProjectConfigError(
            "[tool.cardc] is a table of the project's folders",
            shown,
            line,
            column,
            f'write: [tool.cardc] then {example}, generated = "generated"',
        )
    found: dict[str, Path] = {}
    for key, value in table.items():
        line, column = _place(text, key)
        if key not in DEFAULTS:
            close = difflib.get_close_matches(str(key), list(DEFAULTS), 1, 0.6)
            raise ProjectConfigError(
                f"'{key}' is not a setting of [tool.cardc]",
                shown,
                line,
                column,
                f"did you mean '{close[0]}'?" if close else "its settings: " + ", ".join(DEFAULTS),
            )
        if not isinstance(value, str) or not value.strip():
            raise ProjectConfigError(
                f"{key} is a folder of the project, as a quoted path relative to it, not {value!r}",
                shown,
                line,
                column,
                f'write: {key} = "{DEFAULTS[key]}"',
            )
        relative = PurePosixPath(value.replace("\\", "/"))
        if (
            relative.is_absolute()
            or PureWindowsPath(value).drive
            or ".." in relative.parts
            or relative == PurePosixPath(".")
        ):
            raise ProjectConfigError(
                f"{key} = {value!r} is not a folder inside the project",
                shown,
                line,
                column,
                f'name a folder under {folder.name}/, relative to it: {key} = "{DEFAULTS[key]}"',
            )
        found[key] = folder / relative
    folders = {key: found.get(key, folder / value) for key, value in DEFAULTS.items()}
    written = {key: str(table.get(key, value)) for key, value in DEFAULTS.items()}
    generated = folders["generated"].resolve()
    for other in ("cards", "scenarios"):
        mine = folders[other].resolve()
        if _inside(generated, mine) or _inside(mine, generated):
            line, column = _place(text, "generated" if "generated" in table else other)
            raise ProjectConfigError(
                f"generated = {written['generated']!r} and {other} = {written[other]!r} "
                "overlap: cardc build replaces the generated folder whole, and would take "
                f"the {other} with it",
                shown,
                line,
                column,
                f'give cardc build a folder of its own: generated = "{DEFAULTS["generated"]}"',
            )
    return folders
