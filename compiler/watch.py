"""``cardc watch``: rebuild on save, print what changed and the diagnostics.

A save of a ``.cards`` file starts a *quick build* of its game: only its ``handlers.py`` and
``cards.json`` (what a designer's scenarios and simulations run), so they are out within a
second. Its variants, scenario schemas and sheets are what took the time (the scenario schemas
alone were two thirds of a save of Uncharted Passage), and they follow in a full build once no
further save has come (with the sheets unless ``--no-sheets``). A save of a variant or of
``reference.yaml`` starts a build without the sheets, as before.

Every build swaps ``generated/`` in whole (compiler.buildtree): it is never half-written. A
quick build's manifest entry for its game names no input digest (:data:`QUICK_INPUTS`), so
until the full build has run, ``cardc build --check`` and ``cardc test`` call the game stale,
which it is (its variants' handlers are the old ones), and the next build renders it again.
Each build holds the project's build lock (compiler.buildlock), so a ``cardc build`` run
meanwhile waits for it, and it for that one. A Ctrl-C during a build waits for it to finish.

What is printed: the generated files that changed, and the diagnostics, exactly as ``cardc
build`` renders them (a full build after a quick one repeats none it already printed).
"""

from __future__ import annotations

import gc
import hashlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from compiler import __version__
from compiler.project import Project
from dsl.diagnostics import Diagnostic, SourceCache, render_all

#: File names whose change calls for a build.
WATCHED_SUFFIXES = (".cards", ".yaml", ".yml")

#: The manifest's input digest of a game a quick build wrote: never a digest (those are hex),
#: so no build carries the game over and every check calls it stale until a full build.
QUICK_INPUTS = "quick-build: handlers.py and cards.json only"


def generated_files(generated: Path) -> dict[str, str]:
    """Every file under ``generated/`` and the hash of its bytes."""
    if not generated.is_dir():
        return {}
    out = {}
    for path in sorted(generated.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            try:
                out[path.relative_to(generated).as_posix()] = hashlib.sha256(
                    path.read_bytes()
                ).hexdigest()
            except OSError:
                continue
    return out


def changes(before: dict[str, str], after: dict[str, str], prefix: str) -> list[str]:
    """One line per generated file added, updated or removed."""
    lines = []
    for rel in sorted(set(before) | set(after)):
        if rel not in before:
            lines.append(f"added {prefix}/{rel}")
        elif rel not in after:
            lines.append(f"removed {prefix}/{rel}")
        elif before[rel] != after[rel]:
            lines.append(f"updated {prefix}/{rel}")
    return lines


@contextmanager
def interrupt_after() -> Iterator[list[bool]]:
    """Hold a Ctrl-C (SIGINT) until the block ends, then raise it: a build is never cut off.

    Only in the main thread (where Python delivers signals); elsewhere the block runs as is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield [False]
        return
    caught = [False]

    def hold(_signum: int, _frame: Any) -> None:
        caught[0] = True

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield caught
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught[0]:
        raise KeyboardInterrupt


@dataclass
class QuickOutcome:
    """What a quick build did: its diagnostics, the changed files' lines, its status."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    status: int = 0


def quick_build(project: Project, folders: list[Path], sources: SourceCache) -> QuickOutcome:
    """Compile the games in ``folders`` and write only their ``handlers.py`` and ``cards.json``
    (and the manifest), every other file of ``generated/`` kept as it is; the caller holds the
    build lock. The two files come from :func:`compiler.build.render_handlers`, as ``cardc
    build``'s do, so their bytes are the same (a test compares them); nothing is written when
    any game has an error. See the module's docstring for the manifest entry."""
    from compiler.build import (
        MANIFEST,
        existing_files,
        read_manifest,
        render_handlers,
        sha256_hex,
        write_problem,
    )
    from compiler.buildtree import TreeWriteError, recover, unwritable, write_tree
    from compiler.generated_files import json_bytes

    outcome = QuickOutcome()
    generated = project.generated
    problem = unwritable(generated)
    if problem is not None:
        outcome.diagnostics.append(write_problem(project, str(problem), problem.hint))
        outcome.status = 1
        return outcome
    for line in recover(generated):
        outcome.lines.append(line)
    fresh: dict[str, bytes] = {}
    for folder in folders:
        files, result = render_handlers(project, folder, sources)
        outcome.diagnostics.extend(result.diagnostics)
        fresh.update(files)
    if not fresh or any(d.severity == "error" for d in outcome.diagnostics):
        outcome.status = 1
        return outcome
    existing = existing_files(generated)
    outputs = {rel: path.read_bytes() for rel, path in existing.items()}
    if all(outputs.get(rel) == data for rel, data in fresh.items()):
        # The save changed nothing the handlers or the IR show (a comment, a touch): nothing
        # to swap. The full build that follows brings the manifest's digest up to date.
        return outcome
    outputs.update(fresh)
    manifest = read_manifest(generated)
    games = dict(manifest.get("games", {}))
    for folder in folders:
        game = folder.name
        games[game] = {
            "inputs": QUICK_INPUTS,
            "files": {
                rel: sha256_hex(data)
                for rel, data in sorted(outputs.items())
                if rel.startswith((f"{game}/", f"sheets/{game}/"))
            },
            "sheets": False,
        }
    outputs[MANIFEST] = json_bytes({"cardc": __version__, "games": dict(sorted(games.items()))})
    prefix = project.relative(generated)
    for rel in sorted(set(fresh) | {MANIFEST}):
        if rel not in existing:
            outcome.lines.append(f"added {prefix}/{rel}")
        elif outputs[rel] != existing[rel].read_bytes():
            outcome.lines.append(f"updated {prefix}/{rel}")
    try:
        outcome.lines.extend(write_tree(generated, outputs))
    except TreeWriteError as error:
        outcome.diagnostics.append(write_problem(project, str(error), error.hint))
        outcome.status = 1
        outcome.lines = []
    return outcome


class Watcher:
    """Builds a project and reports, build after build."""

    def __init__(self, project: Project, games: list[str], out: TextIO, sheets: bool = True):
        self.project = project
        self.games = games
        self.out = out
        self.sheets = sheets
        #: A full build is owed: after a quick build, or the sheets after a build without.
        self.full_pending = False
        self.last_changed = 0
        #: The diagnostics the last build printed: a full build after a quick one that finds
        #: the same prints them once.
        self.last_text = ""

    def say(self, text: str) -> None:
        """Print one report line now (a watcher's output is read as it comes)."""
        print(text, file=self.out, flush=True)

    def build(self, sheets: bool) -> int:
        """One full build; prints the files it changed and its diagnostics. Returns its
        status."""
        from compiler.build import build
        from compiler.buildlock import BuildLockError, build_lock

        sources = SourceCache()
        started = time.perf_counter()
        try:
            # The lock around the build and both looks at generated/: another `cardc build`
            # (or watcher) waits for this one, and this one for it, so what is reported as
            # changed is what this build changed.
            with interrupt_after(), build_lock(self.project):
                before = generated_files(self.project.generated)
                outcome = build(self.project, self.games, False, sources, sheets=sheets)
                after = generated_files(self.project.generated)
        except BuildLockError as error:
            self.say(f"cardc watch: {error}\n  hint: {error.hint}")
            self.last_changed = 0
            return 1
        elapsed = time.perf_counter() - started
        prefix = self.project.relative(self.project.generated)
        lines = changes(before, after, prefix)
        failed = bool(outcome.status) or any(d.severity == "error" for d in outcome.diagnostics)
        return self._report(outcome.diagnostics, sources, lines, failed, elapsed, "built")

    def quick(self, folders: list[Path]) -> int:
        """A quick build of the games in ``folders`` (see :func:`quick_build`); its status."""
        from compiler.buildlock import BuildLockError, build_lock

        sources = SourceCache()
        started = time.perf_counter()
        enabled = gc.isenabled()
        gc.disable()  # as in cardc build: the collector's passes over the new IR reclaim little
        try:
            with interrupt_after(), build_lock(self.project):
                outcome = quick_build(self.project, folders, sources)
        except BuildLockError as error:
            self.say(f"cardc watch: {error}\n  hint: {error.hint}")
            self.last_changed = 0
            return 1
        finally:
            if enabled:
                gc.enable()
        elapsed = time.perf_counter() - started
        failed = bool(outcome.status)
        return self._report(
            outcome.diagnostics, sources, outcome.lines, failed, elapsed, "handlers and IR"
        )

    def _report(
        self,
        diagnostics: list[Diagnostic],
        sources: SourceCache,
        lines: list[str],
        failed: bool,
        elapsed: float,
        what: str,
    ) -> int:
        """Print a build's diagnostics, changed files and summary line; its status."""
        text = render_all(diagnostics, sources)
        if text and text != self.last_text:
            self.say(text)
        self.last_text = text
        for line in lines:
            self.say(line)
        self.last_changed = len(lines)
        prefix = self.project.relative(self.project.generated)
        if failed:
            self.say(f"build failed ({elapsed:.2f}s): {prefix}/ is unchanged")
        elif lines:
            self.say(f"{what}: {len(lines)} file{'s' * (len(lines) != 1)} ({elapsed:.2f}s)")
        return 1 if failed else 0

    def quick_folders(self, paths: set[str]) -> list[Path] | None:
        """The game folders a batch of saves calls for a quick build of, or None when it
        needs a full one: a variant or reference.yaml saved, a file outside any game (or
        outside the games being watched), a game folder without its game.cards."""
        from compiler.build import select_games
        from compiler.pipeline import game_folder

        watched, problems = select_games(self.project, self.games)
        if problems:
            return None
        wanted = {folder.resolve() for folder in watched}
        folders: dict[Path, None] = {}
        for raw in paths:
            path = Path(raw)
            folder = game_folder(path) if path.suffix == ".cards" else None
            if folder is None or folder.resolve() not in wanted:
                return None
            if "variants" in path.relative_to(folder).parts:  # a variant's added cards
                return None
            folders.setdefault(folder, None)
        return sorted(folders) or None

    def on_change(self, paths: set[str]) -> None:
        """A batch of saves: the handlers first, the rest (and the sheets) once saves stop."""
        shown = sorted(self.project.relative(Path(p)) for p in paths)
        self.say(f"changed: {', '.join(shown)}")
        folders = self.quick_folders(paths)
        if folders is not None:
            status = self.quick(folders)
            # The full build is owed even when this one failed after an earlier quick one.
            self.full_pending = status == 0 or self.full_pending
        else:
            status = self.build(sheets=False)
            self.full_pending = self.sheets and status == 0 or (status != 0 and self.full_pending)

    def idle(self) -> None:
        """No save for a moment: the full build owed, with the sheets when they are wanted."""
        if self.full_pending:
            self.full_pending = False
            self.build(sheets=self.sheets)


def warm_up() -> None:
    """Load now what a save's quick build needs and the first build may not have (it carried
    every game over), then freeze what is loaded: the first save is as quick as the rest.

    ``gc.freeze()`` moves every object alive now (modules, the grammar, the schemas, the
    caches) out of the collector's reach: it would walk them on every full collection for the
    watcher's whole life, and they are never garbage.
    """
    import compiler.emit_python  # noqa: F401 - jinja2 and the emitter
    import compiler.pipeline  # noqa: F401 - the parser, checker and schema validator

    gc.collect()
    gc.freeze()


def watch_filter(_change: Any, path: str) -> bool:
    """Only sources: card files and YAML (editors' temporary and backup files are skipped)."""
    name = Path(path).name
    return name.endswith(WATCHED_SUFFIXES) and not name.startswith((".", "#"))


def run(
    watcher: Watcher,
    stop: threading.Event | None = None,
    ready: Callable[[], None] | None = None,
) -> int:
    """Build once, then rebuild on every batch of saves until ``stop`` is set or Ctrl-C."""
    from watchfiles import watch

    if watcher.build(sheets=watcher.sheets) == 0 and not watcher.last_changed:
        watcher.say(f"{watcher.project.relative(watcher.project.generated)}/ is up to date")
    warm_up()
    announced = False
    try:
        for batch in watch(
            watcher.project.cards,
            watch_filter=watch_filter,
            debounce=400,
            step=30,
            rust_timeout=300,
            yield_on_timeout=True,
            stop_event=stop,
        ):
            if not announced:  # the first answer: the OS watch is set up, saves are seen
                announced = True
                where = watcher.project.relative(watcher.project.cards)
                watcher.say(f"watching {where}/ (Ctrl-C to stop)")
                if ready is not None:
                    ready()
            if batch:
                watcher.on_change({path for _change, path in batch})
            else:
                watcher.idle()
    except KeyboardInterrupt:
        watcher.say("stopped")
        return 130
    return 0


def main(project: Project, games: list[str], sheets: bool) -> int:
    """``cardc watch``'s body, on stdout."""
    return run(Watcher(project, games, sys.stdout, sheets=sheets))
