"""Benchmark: the sheets of every game, cold; and ``cardc build`` after a one-card edit.

Cold: each game compiled and its sheets (HTML, Markdown, PDF) rendered with every face laid
out afresh (no face cache, the in-process memo cleared), WeasyPrint already imported. Edit:
a copy of the project is built once (so its face cache is warm, as on a designer's machine),
then one card's text is changed and ``cardc build`` runs in a new process, as a designer would
run it; the edit is made three times (three different values) and the median reported.
Run: ``python bench/sheets.py``. Goals (issue 19): cold at most 10 s here; after a one-card
edit, ``cardc build`` with sheets at most 2 s. Each figure is printed with PASS or FAIL against
its goal (on wall time, as a designer waits), and the CPU time beside it (this process's and
its children's: faces are laid out in forked processes, ``CARDC_SHEETS_JOBS``), which is what
to compare on a machine shared with other work.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: The card edited, and the line changed: Smoke Bomb's "up to 2".
EDITED = Path("cards/uncharted_passage/port_cards.cards")
BEFORE = "reduce pirate_power up_to 2"
#: The goals (seconds of wall time).
COLD_GOAL = 10.0
EDIT_GOAL = 2.0


def _verdict(seconds: float, goal: float) -> str:
    return f"{'PASS' if seconds <= goal else 'FAIL'} (goal at most {goal:g} s)"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cold() -> None:
    """Print the cold figures: every face of every game's default sheet laid out."""
    from compiler import sheets
    from compiler.pipeline import compile_game
    from compiler.project import find_project
    from compiler.sheets import render_sheet_files
    from dsl.diagnostics import SourceCache

    project = find_project(ROOT)
    assert project is not None
    start = time.perf_counter()
    import weasyprint

    weasyprint.HTML(string="<p>warm</p>").write_pdf()
    startup = time.perf_counter() - start
    sheets._MEMO.clear()
    total_faces = 0
    cold_start = time.perf_counter()
    cpu_start = time.process_time()
    children_start = _children_cpu()
    for game in project.games():
        t0 = time.perf_counter()
        result = compile_game(project.game_dir(game), SourceCache())
        assert result.ir is not None
        files = render_sheet_files(project, game, result.ir, cache=False)
        html = files[f"sheets/{game}/{game}.html"].decode()
        faces = html.count('<div class="slot')
        total_faces += faces
        print(f"  {game:<24} {faces:>4} faces printed  {time.perf_counter() - t0:6.2f} s")
    elapsed = time.perf_counter() - cold_start
    cpu = time.process_time() - cpu_start
    children = _children_cpu() - children_start
    from compiler.sheets.faces import jobs

    print(
        f"cold: {total_faces} faces of {len(project.games())} games in {elapsed:.2f} s "
        f"({cpu + children:.2f} s of CPU: {cpu:.2f} s here, {children:.2f} s in layout "
        f"processes; {jobs()} at a time; WeasyPrint start-up {startup:.2f} s not counted) "
        f"{_verdict(elapsed, COLD_GOAL)}"
    )


def edit() -> None:
    """Print ``cardc build`` after a one-card edit, median of three, in a fresh process."""
    cardc = shutil.which("cardc") or f"{sys.executable} -m compiler.cli"
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "project"
        copy.mkdir()
        for name in ("cards", "generated"):
            shutil.copytree(ROOT / name, copy / name)
        shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")

        def build() -> tuple[float, float]:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run([*cardc.split(), "build"], cwd=copy, check=True, capture_output=True)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            return wall, cpu

        # The copy's first build renders every game (no manifest), filling its face cache.
        (copy / "generated" / "manifest.json").unlink()
        first, _ = build()
        source = copy / EDITED
        text = source.read_text(encoding="utf-8")
        assert BEFORE in text
        times = []
        for value in (3, 4, 1):
            source.write_text(text.replace(BEFORE, f"reduce pirate_power up_to {value}"))
            times.append(build())
    walls = [w for w, _ in times]
    cpus = [c for _, c in times]
    median = statistics.median(walls)
    print(
        f"cardc build after a one-card edit (Smoke Bomb): median {median:.2f} s "
        f"({', '.join(f'{t:.2f}' for t in walls)} s; CPU median {statistics.median(cpus):.2f} s; "
        f"first build of the copy {first:.2f} s) {_verdict(median, EDIT_GOAL)}"
    )


if __name__ == "__main__":
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs at the start")
    cold()
    edit()
