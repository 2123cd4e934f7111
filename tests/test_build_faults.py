"""``cardc build`` under faults: two builds at once, kills, leftovers, read-only trees, a full disk.

Each test works on a temporary project holding one small shipped game. Builds that must be
caught at a point use the test hooks of :mod:`compiler.buildtree` and are SIGKILLed there. A
read-only tree cannot stop root, so when the tests run as root (CI does) the builds of those
tests run as the unprivileged user ``nobody``.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from compiler.build import PAUSE_AFTER_FILES, PAUSE_AT_SWAP, BuildOutcome, build
from compiler.buildlock import build_lock
from compiler.project import Project, find_project
from dsl.diagnostics import SourceCache

REPO_ROOT = Path(__file__).resolve().parent.parent
GAME = "land_vs_sea"


def _make_project(root: Path) -> Project:
    shutil.copytree(REPO_ROOT / "cards" / GAME, root / "cards" / GAME)
    (root / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n', encoding="utf-8"
    )
    found = find_project(root)
    assert found is not None
    return found


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """A temporary project with one game, not yet built."""
    return _make_project(tmp_path)


def _build(project: Project, check: bool = False) -> BuildOutcome:
    # No sheets: these tests are about the tree, and WeasyPrint is the slow part.
    return build(project, [], check_only=check, sources=SourceCache(), sheets=False)


def _cardc(project: Project, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "compiler.cli", *args],
        cwd=project.root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **env},
    )


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _leftovers(project: Project) -> list[str]:
    return sorted(
        p.name
        for p in project.root.iterdir()
        if p.name not in ("cards", "generated") and p.name.startswith((".generated", "generated"))
    )


def _edit(project: Project) -> None:
    card = project.game_dir(GAME) / "tiles.cards"
    with card.open("a", encoding="utf-8") as handle:
        handle.write('\nrule "Fault Test Card" {\n}\n')


def _start_paused(project: Project, hook: str, value: str, *args: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "compiler.cli", "build", "--no-sheets", *args],
        cwd=project.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, hook: value},
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    if "cardc: test pause" not in line:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"the build did not pause: {line}{err}{out}")
    return process


def _kill(process: subprocess.Popen[str]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)


# ---- one build at a time ------------------------------------------------------------------


def test_a_second_build_waits_for_the_first_then_builds(project: Project) -> None:
    assert _build(project).status == 0
    _edit(project)
    first = _start_paused(project, PAUSE_AFTER_FILES, "2")  # holds the lock, half-way
    second = subprocess.Popen(
        [sys.executable, "-m", "compiler.cli", "build", "--no-sheets"],
        cwd=project.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert second.stderr is not None
        waiting = second.stderr.readline()
        assert "cardc: waiting for another build to finish" in waiting
        assert f"pid {first.pid}" in waiting
        assert second.poll() is None  # still waiting while the first holds the lock
    finally:
        _kill(first)
    out, err = second.communicate(timeout=300)
    assert second.returncode == 0, out + err
    assert "built 1 game" in out
    assert _build(project, check=True).status == 0
    assert b"Fault Test Card" in (project.generated / GAME / "cards.json").read_bytes()
    assert _leftovers(project) == []


def test_two_builds_started_together_both_succeed_with_one_whole_tree(project: Project) -> None:
    command = [sys.executable, "-m", "compiler.cli", "build", "--no-sheets"]
    runs = [
        subprocess.Popen(command, cwd=project.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    results = [run.communicate(timeout=300) for run in runs]
    for run, (out, err) in zip(runs, results, strict=True):
        assert run.returncode == 0, (out + err).decode()
    assert any(b"waiting for another build" in err for _out, err in results)
    assert _build(project, check=True).status == 0
    assert _leftovers(project) == []


def test_a_build_that_cannot_get_the_lock_in_time_says_who_holds_it(project: Project) -> None:
    assert _build(project).status == 0
    with build_lock(project):
        run = _cardc(project, "build", "--no-sheets", CARDC_LOCK_TIMEOUT="0.5")
        # The lock is re-entrant: the holder itself may build (cardc watch does).
        assert _build(project).status == 0
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"another build is still running (pid {os.getpid()}" in run.stderr
    assert "hint:" in run.stderr and "internal error" not in run.stderr


# ---- kills and leftovers --------------------------------------------------------------------


def test_a_build_killed_right_after_the_swap_leaves_the_whole_new_tree(project: Project) -> None:
    assert _build(project).status == 0
    _edit(project)
    _kill(_start_paused(project, PAUSE_AT_SWAP, "1"))
    # The exchange is one step: generated/ is the new tree, whole, and up to date.
    assert b"Fault Test Card" in (project.generated / GAME / "cards.json").read_bytes()
    assert _build(project, check=True).status == 0
    assert [n for n in _leftovers(project) if n.startswith(".generated.new-")]  # the old tree
    outcome = _build(project)
    assert outcome.status == 0 and outcome.report[-1].startswith("generated/ is up to date")
    assert _leftovers(project) == []


def test_leftovers_of_an_older_cardc_are_recovered(project: Project) -> None:
    """``generated.new`` and ``generated.old`` (the names older builds reused) stop nothing."""
    assert _build(project).status == 0
    built = _tree(project.generated)
    # A kill between the old renames: generated/ moved to generated.old, generated.new half.
    project.generated.rename(project.root / "generated.old")
    (project.root / "generated.new" / GAME).mkdir(parents=True)
    (project.root / "generated.new" / GAME / "handlers.py").write_text("# half", encoding="utf-8")
    outcome = _build(project)
    assert outcome.status == 0, outcome.report
    assert outcome.report[0] == "recovered generated/ from a build that was interrupted"
    assert _tree(project.generated) == built
    assert _leftovers(project) == []
    # Both at once, beside a whole generated/: removed, and the build goes on.
    (project.root / "generated.old" / "x").mkdir(parents=True)
    (project.root / "generated.new").mkdir()
    assert _build(project).status == 0
    assert _leftovers(project) == []


# ---- a full disk ----------------------------------------------------------------------------


def test_a_full_disk_is_a_clear_error_and_leaves_generated_as_it_was(
    project: Project, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from compiler.cli import main

    assert _build(project).status == 0
    before = _tree(project.generated)
    _edit(project)
    real_write = os.write
    calls = {"n": 0}

    def write(fd: int, data: bytes) -> int:
        calls["n"] += 1
        if calls["n"] > 1:  # the first file fits, the next finds the disk full
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", write)
    monkeypatch.chdir(project.root)
    status = main(["build", "--no-sheets"])
    monkeypatch.setattr(os, "write", real_write)
    err = capsys.readouterr().err
    assert status == 1
    assert "No space left on device" in err and "generated/ is unchanged" in err
    assert "the disk is full" in err and "internal error" not in err
    assert _tree(project.generated) == before
    assert _leftovers(project) == []
    assert _build(project).status == 0  # room again: the next build goes through


# ---- read-only trees ------------------------------------------------------------------------


def _without_privileges() -> None:
    """In the child, before exec: drop every capability, so root meets file modes as any
    owner does (a read-only folder cannot be written)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    pr_capbset_drop = 24
    for capability in range(64):
        if libc.prctl(pr_capbset_drop, capability, 0, 0, 0) != 0:
            break  # past the last capability this kernel knows


@pytest.fixture
def own_project(tmp_path: Path) -> Iterator[tuple[Project, dict[str, object]]]:
    """A project, and how to run cardc on it so that file modes hold (as root too)."""
    found = _make_project(tmp_path / "project")
    run: dict[str, object] = {}
    if os.geteuid() == 0:
        if not sys.platform.startswith("linux"):
            pytest.skip("root ignores file modes, and only Linux drops that here")
        run["preexec_fn"] = _without_privileges
    try:
        yield found, run
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(tmp_path)], check=False)


def _as_owner(
    project: Project, run: dict[str, object], *args: str
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "compiler.cli", *args],
        cwd=project.root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        **run,
    )


def _chmod(project: Project, run: dict[str, object], mode: str, path: Path) -> None:
    subprocess.run(["chmod", "-R", mode, str(path)], check=True)


def test_a_read_only_generated_is_a_clear_error_and_stays_whole(
    own_project: tuple[Project, dict[str, object]],
) -> None:
    project, run = own_project
    first = _as_owner(project, run, "build", "--no-sheets")
    assert first.returncode == 0, first.stdout + first.stderr
    before = _tree(project.generated)
    _edit(project)
    _chmod(project, run, "a-w", project.generated / GAME)
    failed = _as_owner(project, run, "build", "--no-sheets")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "is read-only" in failed.stderr and "chmod -R u+w generated" in failed.stderr
    assert "internal error" not in failed.stderr
    assert _tree(project.generated) == before
    assert _leftovers(project) == []
    # Writable again: the next build goes through (no generated.old in its way).
    _chmod(project, run, "u+w", project.generated)
    again = _as_owner(project, run, "build", "--no-sheets")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "built 1 game" in again.stdout


def test_a_read_only_project_folder_is_a_clear_error_and_check_still_works(
    own_project: tuple[Project, dict[str, object]],
) -> None:
    project, run = own_project
    assert _as_owner(project, run, "build", "--no-sheets").returncode == 0
    before = _tree(project.generated)
    shutil.rmtree(project.root / ".cardc-cache")
    _chmod(project, run, "a-w", project.root)
    try:
        failed = _as_owner(project, run, "build", "--no-sheets")
        assert failed.returncode == 1, failed.stdout + failed.stderr
        assert "cannot create the build lock" in failed.stderr
        assert "make it writable" in failed.stderr and "internal error" not in failed.stderr
        checked = _as_owner(project, run, "build", "--no-sheets", "--check")
        assert checked.returncode == 0, checked.stdout + checked.stderr
        assert _tree(project.generated) == before
    finally:
        _chmod(project, run, "u+w", project.root)
