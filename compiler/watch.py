"""``cardc watch``: rebuild on save, print what changed and the diagnostics.

A save under ``cards/`` (a ``.cards`` file, a variant or ``reference.yaml``) starts a build
without the sheets, so the handlers and IR are out within a second; the sheets follow in a
second build once no further save has come. Each build is ``cardc build``'s, which renders the
new tree in memory and swaps it in whole: ``generated/`` is never half-written. Each holds the
project's build lock (compiler.buildlock), so a ``cardc build`` run meanwhile waits for it, and
it for that one. A Ctrl-C during a build waits for the build to finish before leaving.

What is printed: the generated files that changed (from the build's manifest, before and
after), and the diagnostics, exactly as ``cardc build`` renders them.
"""

from __future__ import annotations

import hashlib
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TextIO

from compiler.project import Project
from dsl.diagnostics import SourceCache, render_all

#: File names whose change calls for a build.
WATCHED_SUFFIXES = (".cards", ".yaml", ".yml")


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


class Watcher:
    """Builds a project and reports, build after build."""

    def __init__(self, project: Project, games: list[str], out: TextIO, sheets: bool = True):
        self.project = project
        self.games = games
        self.out = out
        self.sheets = sheets
        self.sheets_pending = False
        self.last_changed = 0

    def say(self, text: str) -> None:
        """Print one report line now (a watcher's output is read as it comes)."""
        print(text, file=self.out, flush=True)

    def build(self, sheets: bool) -> int:
        """One build; prints the files it changed and its diagnostics. Returns its status."""
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
        text = render_all(outcome.diagnostics, sources)
        if text:
            self.say(text)
        prefix = self.project.relative(self.project.generated)
        lines = changes(before, after, prefix)
        for line in lines:
            self.say(line)
        failed = outcome.status or any(d.severity == "error" for d in outcome.diagnostics)
        self.last_changed = len(lines)
        if failed:
            self.say(f"build failed ({elapsed:.2f}s): {prefix}/ is unchanged")
        elif lines:
            what = "handlers and IR" if not sheets else "built"
            self.say(f"{what}: {len(lines)} file{'s' * (len(lines) != 1)} ({elapsed:.2f}s)")
        return 1 if failed else 0

    def on_change(self, paths: set[str]) -> None:
        """A batch of saves: the handlers first, the sheets after when they are wanted."""
        shown = sorted(self.project.relative(Path(p)) for p in paths)
        self.say(f"changed: {', '.join(shown)}")
        status = self.build(sheets=False)
        self.sheets_pending = self.sheets and status == 0

    def idle(self) -> None:
        """No save for a moment: render the sheets left for later."""
        if self.sheets_pending:
            self.sheets_pending = False
            self.build(sheets=True)


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
