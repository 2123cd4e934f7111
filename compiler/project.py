"""Finding the project cardc works on, and the games in it.

A project is a folder holding ``cards/`` (one folder per game, each with a ``game.cards``), or
a ``pyproject.toml`` with a ``[tool.cardc]`` table naming its folders. cardc walks up from the
current directory to the first such folder, so a designer runs the installed cardc inside their
own repository and never touches the games shipped with cardc.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

GAME_FILE = "game.cards"

#: Names no game may take: ``cardc build`` writes these folders of ``generated/`` beside the
#: games' (``generated/<game>/``), and a game of the name would be written into them (a game
#: named ``schema`` and the game-independent ``generated/schema/scenario.schema.json``
#: overwrote each other).
RESERVED_GAMES = {
    "schema": "generated/schema/ holds the JSON Schemas",
    "sheets": "generated/sheets/ holds every game's printable sheets",
}


@dataclass(frozen=True)
class Project:
    """A cardc project: where its sources, generated files and scenarios live."""

    root: Path
    cards: Path
    generated: Path
    scenarios: Path

    def games(self) -> list[str]:
        """Names of the game folders under ``cards/`` (those holding a ``game.cards``), sorted."""
        if not self.cards.is_dir():
            return []
        return sorted(
            entry.name
            for entry in self.cards.iterdir()
            if entry.is_dir() and (entry / GAME_FILE).is_file()
        )

    def game_dir(self, game: str) -> Path:
        """The source folder of ``game``."""
        return self.cards / game

    def relative(self, path: Path) -> str:
        """``path`` relative to the project root when inside it, in POSIX form."""
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return path.as_posix()


def _from_pyproject(folder: Path) -> Project | None:
    # One reader for cardc and the engine; a table it cannot use safely raises
    # dsl.project_config.ProjectConfigError, at its line, before any command writes.
    from dsl.project_config import read_table

    folders = read_table(folder)
    if folders is None:
        return None
    return Project(folder, folders["cards"], folders["generated"], folders["scenarios"])


def find_project(start: Path | None = None) -> Project | None:
    """The nearest project at or above ``start`` (default: the current directory)."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        project = _from_pyproject(folder)
        if project is not None:
            return project
        if (folder / "cards").is_dir():
            return Project(
                folder, folder / "cards", folder / "generated", folder / "tests/scenarios"
            )
    return None


def display_path(path: Path) -> Path:
    """``path`` relative to the current directory when below it: what diagnostics show."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve())
    except (ValueError, OSError):
        return path


def card_files(folder: Path) -> list[Path]:
    """Every ``.cards`` file under ``folder``, ``game.cards`` first, then by path."""
    files = [
        display_path(p)
        for p in folder.rglob("*.cards")
        if p.is_file() and "variants" not in p.parts
    ]
    return sorted(files, key=lambda p: (p.name != GAME_FILE, p.as_posix()))
