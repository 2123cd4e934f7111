"""Writing ``generated/`` so that no fault leaves it unreadable: the swap and its recovery.

A build writes its new tree to a fresh hidden sibling (``.generated.new-XXXX``, never a name
reused from an earlier build) and swaps it in with one atomic ``renameat2(RENAME_EXCHANGE)``
(``renamex_np(RENAME_SWAP)`` on macOS): at every instant ``generated/`` is the whole old tree
or the whole new one, whenever the build is killed. Where the system cannot exchange two
folders, two renames do it (``generated`` -> ``.generated.old-XXXX``, the new tree ->
``generated``); a kill between them leaves no ``generated/`` for a moment, and the next build
(or ``--check``, which reads the tree the build would start from) puts the old tree back.

Faults are reported, never half-done: a read-only ``generated/`` or project folder is found
before anything is written, and a write that fails (a full disk) removes the new tree and
leaves ``generated/`` as it was. A leftover that cannot be removed is named in a warning and
never blocks a later build, since no name is reused.

Every call here runs under the build lock (:mod:`compiler.buildlock`).
"""

from __future__ import annotations

import errno
import os
import shutil
import sys
import tempfile
from pathlib import Path

#: Test hooks, read only by the kill tests (tests/test_build.py, tests/test_build_faults.py):
#: with one set, a build prints "cardc: test pause" to stderr and sleeps at that point, so a
#: test can SIGKILL it there. CARDC_TEST_PAUSE_AFTER_FILES=N pauses once N files of the new tree
#: are written; CARDC_TEST_PAUSE_AT_SWAP=1 pauses right after the exchange (or between the two
#: renames); CARDC_TEST_SWAP=renames makes the build swap with two renames, as on a system
#: without an atomic exchange.
PAUSE_AFTER_FILES = "CARDC_TEST_PAUSE_AFTER_FILES"
PAUSE_AT_SWAP = "CARDC_TEST_PAUSE_AT_SWAP"
SWAP_ENV = "CARDC_TEST_SWAP"


class TreeWriteError(Exception):
    """``generated/`` could not be written; it is as it was. ``hint`` says what to do."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


def _test_pause(hook: str, when: int | None = None) -> None:
    value = os.environ.get(hook)
    if value is None or (when is not None and value != str(when)):
        return
    import time

    print(f"cardc: test pause ({hook})", file=sys.stderr, flush=True)
    time.sleep(120)


def _new_prefix(generated: Path) -> str:
    return f".{generated.name}.new-"


def _old_prefix(generated: Path) -> str:
    return f".{generated.name}.old-"


def _leftovers(generated: Path) -> tuple[list[Path], list[Path]]:
    """Old trees and new trees that interrupted builds left (this cardc's and older ones')."""
    parent = generated.parent
    if not parent.is_dir():
        return [], []
    olds, news = [], []
    for path in parent.iterdir():
        name = path.name
        if name.startswith(_old_prefix(generated)) or name == generated.name + ".old":
            olds.append(path)
        elif name.startswith(_new_prefix(generated)) or name == generated.name + ".new":
            news.append(path)
    # The newest old tree is the one the last interrupted swap moved away.
    olds.sort(key=lambda p: p.stat().st_mtime_ns if p.exists() else 0)
    return [p for p in olds if p.is_dir()], sorted(news)


def starting_tree(generated: Path) -> Path:
    """The tree a build would start from: ``generated/``, or the old tree it would restore."""
    if generated.exists():
        return generated
    olds, _ = _leftovers(generated)
    return olds[-1] if olds else generated


def _remove(path: Path) -> str | None:
    """Remove a tree; a warning naming it when that fails (the next build tries again)."""
    failures: list[str] = []

    def failed(_function: object, failed_path: str, excinfo: object) -> None:
        failures.append(failed_path)

    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, onerror=failed)  # noqa: B028 - onexc is Python 3.12+
    else:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        except OSError:
            failures.append(str(path))
    if failures and path.exists():
        return (
            f"warning: could not remove {path.name} (left by a build): {failures[0]}; "
            "it is not in the way, remove it by hand"
        )
    return None


def recover(generated: Path) -> list[str]:
    """Undo what an interrupted build left: put back the old tree, remove the rest.

    Returns the report's lines (what was recovered, what could not be removed).
    """
    notes: list[str] = []
    olds, news = _leftovers(generated)
    if olds and not generated.exists():
        olds[-1].rename(generated)
        notes.append(f"recovered {generated.name}/ from a build that was interrupted")
        olds = olds[:-1]
    for path in [*olds, *news]:
        warning = _remove(path)
        if warning:
            notes.append(warning)
    return notes


def unwritable(generated: Path) -> TreeWriteError | None:
    """Why a build could not replace ``generated/`` (read-only folders), before it writes."""
    parent = generated.parent
    if not os.access(parent, os.W_OK | os.X_OK):
        return TreeWriteError(
            f"cannot write in {parent}: the folder is read-only",
            f"cardc build writes {generated.name}/ beside a new copy and swaps them: make "
            f"{parent} writable, or build a copy of the project",
        )
    if generated.exists() and not generated.is_dir():
        return TreeWriteError(
            f"{generated} is a file, not the folder cardc build writes",
            f"cardc build would replace it with a folder: name another folder in "
            f'[tool.cardc] (generated = "generated") or move {generated.name} away',
        )
    if not generated.is_dir():
        return None
    if not (generated / "manifest.json").is_file() and any(generated.iterdir()):
        # A folder cardc did not write (no manifest): the build would swap it out and delete
        # it, sources and all (a project whose [tool.cardc] said generated = "cards").
        return TreeWriteError(
            f"{generated}/ holds files cardc build did not write (it has no manifest.json), "
            "and a build replaces the folder whole",
            f"point generated at a folder of its own in [tool.cardc], or, if {generated.name}/ "
            "holds only an old build's output, remove it and build again",
        )
    for folder, dirs, _files in os.walk(generated):
        # Swapping the tree out needs none of this, but removing the old tree afterwards needs
        # every folder in it writable; finding out half-way would leave the old tree behind.
        if not os.access(folder, os.W_OK | os.X_OK):
            return TreeWriteError(
                f"{folder} is read-only: cardc build replaces {generated.name}/ whole",
                f"make it writable (chmod -R u+w {generated.name}) and build again; "
                f"{generated.name}/ is unchanged",
            )
        dirs[:] = [d for d in dirs if d != "__pycache__"]
    return None


def _write_file(path: Path, data: bytes) -> None:
    """Write ``data`` to a new file, on disk before the swap (fsync)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    finally:
        os.close(fd)


def _link_unchanged(current: Path, target: Path, data: bytes) -> bool:
    """Hard-link ``current`` as ``target`` when it holds exactly ``data``; False otherwise."""
    try:
        if current.stat().st_size != len(data) or current.read_bytes() != data:
            return False
        os.link(current, target)
    except OSError:  # no such file, or a file system without hard links: write it instead
        return False
    return True


def _write_error(error: OSError, generated: Path, what: str) -> TreeWriteError:
    reason = error.strerror or str(error)
    if error.errno in (errno.ENOSPC, errno.EDQUOT):
        hint = "the disk is full: free some space and run 'cardc build' again"
    elif error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        hint = f"make {generated.parent} and {generated.name}/ writable and build again"
    else:
        hint = "fix the cause and run 'cardc build' again"
    return TreeWriteError(
        f"cannot write {what}: {reason}; {generated.name}/ is unchanged",
        hint,
    )


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one atomic step; False where this system cannot."""
    if os.environ.get(SWAP_ENV) == "renames":
        return False
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False
    if sys.platform.startswith("linux"):
        function = getattr(libc, "renameat2", None)
        if function is None:  # a C library older than glibc 2.28
            return False
        at_fdcwd, rename_exchange = -100, 2
        function.argtypes = [ctypes.c_int, ctypes.c_char_p] * 2 + [ctypes.c_uint]
        result = function(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange)
    elif sys.platform == "darwin":
        function = getattr(libc, "renamex_np", None)
        if function is None:
            return False
        rename_swap = 2
        function.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint]
        result = function(os.fsencode(a), os.fsencode(b), rename_swap)
    else:
        return False
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # the file system cannot: fall back to two renames
    raise OSError(code, os.strerror(code), str(b))


def write_tree(generated: Path, outputs: dict[str, bytes]) -> list[str]:
    """Write ``outputs`` as the new ``generated/`` tree and swap it in; the report's warnings.

    A file whose bytes are unchanged is hard-linked from the current tree rather than written
    again, so it keeps its modification time: tools that watch generated/ see only the files
    that changed. Raises :class:`TreeWriteError` (``generated/`` unchanged) when a write fails.
    """
    try:
        new = Path(tempfile.mkdtemp(prefix=_new_prefix(generated), dir=generated.parent))
    except OSError as error:
        raise _write_error(error, generated, f"a new tree beside {generated.name}/") from error
    try:
        umask = os.umask(0)
        os.umask(umask)
        new.chmod(0o777 & ~umask)  # mkdtemp's 0700 would become generated/'s mode
        for count, (rel, data) in enumerate(sorted(outputs.items()), start=1):
            target = new / rel
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                if not _link_unchanged(generated / rel, target, data):
                    _write_file(target, data)
            except OSError as error:
                raise _write_error(error, generated, f"{generated.name}/{rel}") from error
            _test_pause(PAUSE_AFTER_FILES, count)
        return _swap(new, generated)
    except BaseException:
        _remove(new)
        raise


def _swap(new: Path, generated: Path) -> list[str]:
    if not generated.exists():
        try:
            new.rename(generated)
        except OSError as error:
            raise _write_error(error, generated, f"{generated.name}/") from error
        return []
    try:
        exchanged = _exchange(new, generated)
    except OSError as error:
        raise _write_error(error, generated, f"{generated.name}/") from error
    if exchanged:  # generated/ is the new tree; ``new`` names the old one
        _test_pause(PAUSE_AT_SWAP)
        warning = _remove(new)
        return [warning] if warning else []
    old = generated.with_name(_old_prefix(generated) + new.name[len(_new_prefix(generated)) :])
    try:
        generated.rename(old)
    except OSError as error:
        raise _write_error(error, generated, f"{generated.name}/") from error
    _test_pause(PAUSE_AT_SWAP)
    try:
        new.rename(generated)
    except OSError as error:
        old.rename(generated)  # put the old tree back before reporting
        raise _write_error(error, generated, f"{generated.name}/") from error
    warning = _remove(old)
    return [warning] if warning else []
