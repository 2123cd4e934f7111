"""One build at a time: the lock every writer of ``generated/`` holds while it writes.

``cardc build`` takes it, and so should anything else that writes ``generated/`` or must read
it whole (``cardc watch`` takes it around each build it starts)::

    from compiler.buildlock import build_lock

    with build_lock(project):
        ...  # nobody else is building this project

The lock is an advisory ``flock`` (``msvcrt.locking`` on Windows) on
``.cardc-cache/build.lock`` in the project root: the operating system drops it when its holder
exits or is killed, so a dead build never leaves a stale lock. The file holds the holder's pid
and start time, for the message a waiting build prints. The lock is re-entrant within one
process (a watcher that holds it may call :func:`compiler.build.build`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from compiler.project import Project

#: Where the lock lives, under the project root (ignored by git like the rest of the cache).
LOCK_PATH = Path(".cardc-cache") / "build.lock"
#: How long a build waits for another by default (seconds); CARDC_LOCK_TIMEOUT overrides it.
DEFAULT_TIMEOUT = 600.0
TIMEOUT_ENV = "CARDC_LOCK_TIMEOUT"

#: Locks this process holds: lock path -> (open file, depth), for re-entry.
_HELD: dict[Path, tuple[IO[str], int]] = {}


class BuildLockError(Exception):
    """Another build held the lock for longer than we would wait, or it cannot be taken."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


def lock_path(project: Project) -> Path:
    """The lock file of ``project``."""
    return project.root / LOCK_PATH


def _try_lock(handle: IO[str]) -> bool:
    """Take the lock without waiting; False when another process holds it."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            handle.seek(0)
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holder(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8").strip()
    except OSError:
        text = ""
    return text or "another cardc process"


def _timeout(timeout: float | None) -> float:
    if timeout is not None:
        return timeout
    try:
        return float(os.environ.get(TIMEOUT_ENV, DEFAULT_TIMEOUT))
    except ValueError:
        return DEFAULT_TIMEOUT


@contextlib.contextmanager
def build_lock(
    project: Project, timeout: float | None = None, quiet: bool = False
) -> Iterator[None]:
    """Hold the project's build lock for the ``with`` block, waiting up to ``timeout`` s.

    While another process holds it, a line on stderr says whose it is (unless ``quiet``).
    Raises :class:`BuildLockError` when the wait runs out or the lock file cannot be created
    (a read-only project).
    """
    path = lock_path(project)
    held = _HELD.get(path)
    if held is not None:
        _HELD[path] = (held[0], held[1] + 1)
        try:
            yield
        finally:
            handle, depth = _HELD[path]
            _HELD[path] = (handle, depth - 1)
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held across the yield
    except OSError as error:
        raise BuildLockError(
            f"cannot create the build lock {path}: {error.strerror or error}",
            "cardc build writes in the project folder: make it writable, or build a copy",
        ) from error
    try:
        deadline = time.monotonic() + _timeout(timeout)
        told = False
        while not _try_lock(handle):
            if time.monotonic() >= deadline:
                raise BuildLockError(
                    f"another build is still running ({_holder(path)}): gave up waiting",
                    f"wait for it to finish, or stop it; {TIMEOUT_ENV}=SECONDS waits longer",
                )
            if not told and not quiet:
                print(
                    f"cardc: waiting for another build to finish ({_holder(path)})",
                    file=sys.stderr,
                    flush=True,
                )
                told = True
            time.sleep(0.1)
        handle.seek(0)
        handle.truncate()
        handle.write(f"pid {os.getpid()}, started {time.strftime('%H:%M:%S')}\n")
        handle.flush()
        _HELD[path] = (handle, 1)
        try:
            yield
        finally:
            del _HELD[path]
    finally:
        handle.close()  # closing the file releases the lock
