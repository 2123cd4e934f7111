"""``cardc watch``: a real process, real saves, its output read as it comes."""

from __future__ import annotations

import hashlib
import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from compiler.watch import changes, interrupt_after

pytest.importorskip("watchfiles")

REPO = Path(__file__).resolve().parent.parent
GAME = """\
game solo "Solo" {
  players 1
  counter coins
  trigger play "the card is played"
  kind port_card "a card" { property copies number }
}
"""
CARD = 'port_card "Coin" {\n  copies 2\n  on play { gain coins 1 }\n}\n'


class Watch:
    """``cardc watch --no-sheets`` in ``root``; its stdout lines in a queue."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "compiler.cli", "watch", "--no-sheets"],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))

    def until(self, predicate: str, timeout: float = 60) -> list[str]:
        """Lines up to and including the first that contains ``predicate``."""
        got: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise AssertionError(f"no {predicate!r} in {self.seen + got}") from None
            got.append(line)
            if predicate in line:
                self.seen += got
                return got


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    (tmp_path / "cards" / "solo").mkdir(parents=True)
    (tmp_path / "cards" / "solo" / "game.cards").write_text(GAME)
    (tmp_path / "cards" / "solo" / "coin.cards").write_text(CARD)
    return tmp_path


def test_watch_rebuilds_on_save_and_prints_what_changed(project: Path) -> None:
    watch = Watch(project)
    try:
        first = watch.until("watching cards/")
        assert "added generated/solo/handlers.py" in first
        handlers = project / "generated" / "solo" / "handlers.py"
        assert "h_coin__play" in handlers.read_text()

        card = project / "cards" / "solo" / "coin.cards"
        card.write_text(CARD + '\nport_card "Gem" {\n  copies 1\n  on play { gain coins 3 }\n}\n')
        saved = time.monotonic()
        lines = watch.until("handlers and IR")
        assert lines[0] == "changed: cards/solo/coin.cards"
        assert "updated generated/solo/handlers.py" in lines
        assert "updated generated/solo/cards.json" in lines
        assert not any("schema/" in line for line in lines)  # unchanged files are not listed
        assert "h_gem__play" in handlers.read_text()
        assert time.monotonic() - saved < 30

        # A broken save: its diagnostics, and generated/ left as it was.
        before = handlers.read_bytes()
        card.write_text(CARD.replace("gain coins 1", "gain coinz 1"))
        lines = watch.until("build failed")
        assert any("cards/solo/coin.cards:3:18: error[name-undefined]" in line for line in lines)
        assert handlers.read_bytes() == before

        card.write_text(CARD)
        lines = watch.until("handlers and IR")
        assert "h_gem__play" not in handlers.read_text()
    finally:
        watch.process.send_signal(signal.SIGINT)
        status = watch.process.wait(timeout=30)
    assert status == 130
    assert "stopped" in watch.until("stopped")


def test_a_build_running_elsewhere_is_waited_for(project: Path) -> None:
    from compiler.buildlock import build_lock
    from compiler.project import find_project

    found = find_project(project)
    assert found is not None
    watch = Watch(project)
    try:
        watch.until("watching cards/")
        handlers = project / "generated" / "solo" / "handlers.py"
        with build_lock(found):  # another build, in this process, holds the project
            (project / "cards" / "solo" / "coin.cards").write_text(
                CARD + 'port_card "Gem" {\n  copies 1\n  on play { gain coins 3 }\n}\n'
            )
            watch.until("changed: cards/solo/coin.cards")
            time.sleep(1.5)
            assert "h_gem__play" not in handlers.read_text()  # it waits: nothing written
            assert watch.lines.empty() or "handlers and IR" not in watch.lines.queue[-1]
        lines = watch.until("handlers and IR")
        assert "updated generated/solo/handlers.py" in lines
        assert "h_gem__play" in handlers.read_text()
    finally:
        watch.process.send_signal(signal.SIGINT)
        watch.process.wait(timeout=30)


def test_ctrl_c_during_a_build_waits_for_it_to_finish() -> None:
    finished = []
    with pytest.raises(KeyboardInterrupt):
        with interrupt_after():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            finished.append(True)  # still running: the signal was held
    assert finished == [True]


def test_changes_name_each_file() -> None:
    before = {"a/handlers.py": "1", "a/cards.json": "2", "old.json": "3"}
    after = {"a/handlers.py": "1", "a/cards.json": "9", "new.json": "4"}
    assert changes(before, after, "generated") == [
        "updated generated/a/cards.json",
        "added generated/new.json",
        "removed generated/old.json",
    ]


VARIANT = "description: more coins\n"


def _build(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "compiler.cli", "build", *args],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=300,
    )


def test_a_quick_build_writes_what_a_full_build_writes_and_the_manifest_says_so(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from compiler.project import find_project
    from compiler.watch import QUICK_INPUTS, quick_build
    from dsl.diagnostics import SourceCache

    assert _build(project, "--no-sheets").returncode == 0
    generated = project / "generated"
    schema = (generated / "solo" / "scenario.schema.json").read_bytes()
    card = project / "cards" / "solo" / "coin.cards"
    card.write_text(CARD + 'port_card "Gem" {\n  copies 1\n  on play { gain coins 3 }\n}\n')
    found = find_project(project)
    assert found is not None
    outcome = quick_build(found, [project / "cards" / "solo"], SourceCache())
    assert outcome.status == 0 and not outcome.diagnostics
    assert outcome.lines == [
        "updated generated/manifest.json",
        "updated generated/solo/cards.json",
        "updated generated/solo/handlers.py",
    ]
    # Only those: the scenario schema waits for the full build.
    assert (generated / "solo" / "scenario.schema.json").read_bytes() == schema
    manifest = json.loads((generated / "manifest.json").read_text())
    assert manifest["games"]["solo"]["inputs"] == QUICK_INPUTS
    # The manifest's hashes are the files' on disk, and the game is stale until a full build.
    for rel, sha in manifest["games"]["solo"]["files"].items():
        assert hashlib.sha256((generated / rel).read_bytes()).hexdigest() == sha
    check = _build(project, "--check", "--no-sheets")
    assert check.returncode == 1, check.stdout + check.stderr

    # A clean build of the same sources, elsewhere: the quick build's two files byte for byte.
    clean = tmp_path_factory.mktemp("clean")
    shutil.copytree(project / "cards", clean / "cards")
    assert _build(clean, "--no-sheets").returncode == 0
    for rel in ("solo/handlers.py", "solo/cards.json"):
        assert (generated / rel).read_bytes() == (clean / "generated" / rel).read_bytes()
    assert "h_gem__play" in (generated / "solo" / "handlers.py").read_text()

    # The full build that follows makes generated/ what a clean build makes, and --check green.
    assert _build(project, "--no-sheets").returncode == 0
    assert _build(project, "--check", "--no-sheets").returncode == 0
    assert _tree(generated) == _tree(clean / "generated")


def _tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


def test_a_quick_build_with_an_error_writes_nothing(project: Path) -> None:
    from compiler.project import find_project
    from compiler.watch import quick_build
    from dsl.diagnostics import SourceCache

    assert _build(project, "--no-sheets").returncode == 0
    before = _tree(project / "generated")
    (project / "cards" / "solo" / "coin.cards").write_text(CARD.replace("coins 1", "coinz 1"))
    found = find_project(project)
    assert found is not None
    outcome = quick_build(found, [project / "cards" / "solo"], SourceCache())
    assert outcome.status == 1 and outcome.lines == []
    assert [d.code for d in outcome.diagnostics] == ["name-undefined"]
    assert _tree(project / "generated") == before


def test_which_saves_get_a_quick_build(project: Path) -> None:
    import io

    from compiler.project import find_project
    from compiler.watch import Watcher

    found = find_project(project)
    assert found is not None
    (project / "cards" / "other").mkdir()
    (project / "cards" / "other" / "game.cards").write_text(GAME.replace("solo", "other"))
    solo, other = project / "cards" / "solo", project / "cards" / "other"
    watcher = Watcher(found, [], io.StringIO())
    assert watcher.quick_folders({str(solo / "coin.cards")}) == [solo]
    assert watcher.quick_folders({str(solo / "coin.cards"), str(other / "game.cards")}) == [
        other,
        solo,
    ]
    # A variant, reference.yaml, a file outside any game: the build without sheets instead.
    assert watcher.quick_folders({str(solo / "variants" / "rich.yaml")}) is None
    assert watcher.quick_folders({str(solo / "variants" / "extra.cards")}) is None
    assert watcher.quick_folders({str(solo / "reference.yaml")}) is None
    assert watcher.quick_folders({str(project / "cards" / "loose.cards")}) is None
    # Watching one game: a save in another one is left to the full build's selection.
    assert Watcher(found, ["solo"], io.StringIO()).quick_folders({str(other / "x.cards")}) is None


def test_watch_writes_the_handlers_first_and_the_rest_once_saves_stop(project: Path) -> None:
    (project / "cards" / "solo" / "variants").mkdir()
    (project / "cards" / "solo" / "variants" / "rich.yaml").write_text(VARIANT)
    watch = Watch(project)
    try:
        watch.until("watching cards/")
        card = project / "cards" / "solo" / "coin.cards"
        card.write_text(CARD + 'port_card "Gem" {\n  copies 1\n  on play { gain coins 3 }\n}\n')
        quick = watch.until("handlers and IR")
        assert "updated generated/solo/handlers.py" in quick
        assert not any("rich/" in line for line in quick)  # the variant waits
        full = watch.until("built")
        assert "updated generated/solo/rich/handlers.py" in full
        assert (
            "h_gem__play" in (project / "generated" / "solo" / "rich" / "handlers.py").read_text()
        )
        # Once the full build is done, generated/ is what cardc build makes: --check is green.
        check = _build(project, "--check", "--no-sheets")
        assert check.returncode == 0, check.stdout + check.stderr
    finally:
        watch.process.send_signal(signal.SIGINT)
        watch.process.wait(timeout=30)


def test_a_save_that_changes_no_output_swaps_nothing(project: Path) -> None:
    from compiler.project import find_project
    from compiler.watch import quick_build
    from dsl.diagnostics import SourceCache

    assert _build(project, "--no-sheets").returncode == 0
    before = _tree(project / "generated")
    (project / "cards" / "solo" / "coin.cards").write_text(CARD + "# a comment at the end\n")
    found = find_project(project)
    assert found is not None
    outcome = quick_build(found, [project / "cards" / "solo"], SourceCache())
    assert (outcome.status, outcome.lines) == (0, [])
    assert _tree(project / "generated") == before


def test_warm_up_loads_the_quick_build_and_freezes_what_is_loaded() -> None:
    # In a child: gc.freeze() is process-wide, and the test process must keep its collector.
    code = (
        "import gc, sys\nfrom compiler.watch import warm_up\n"
        "assert 'compiler.emit_python' not in sys.modules and gc.get_freeze_count() == 0\n"
        "warm_up()\nprint('compiler.emit_python' in sys.modules, gc.get_freeze_count() > 0)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    assert result.stdout.split() == ["True", "True"], result.stderr
