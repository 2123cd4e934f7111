"""Benchmark: ``cardc watch``, from saving a card to its handlers rebuilt.

Run as ``.venv/bin/python bench/watch.py [--saves 5]``. A benchmark, not a test: it prints the
figures and PASS/FAIL against the goal (median at most 1 s) and exits 1 when it fails.

A copy of the project's ``cards/`` and ``generated/`` (so the first build is a no-op) is
watched by a ``cardc watch`` process, sheets on, as a designer runs it. Each save appends a
card to a real card file of Uncharted Passage; the time is from the write to the moment
``generated/uncharted_passage/handlers.py`` holds the new card's handler (polled every 5 ms).
Between saves the watcher is left to finish: a save's quick build writes the game's handlers and
IR, and the full build (variants, scenario schemas, sheets) follows once the saves stop; the
next save waits for its "built" line. The watcher's CPU time from each write to its handlers
(from /proc, on Linux) is printed beside the wall time, which is noisy on a busy machine.
Bytecode does not matter here: the watcher's start-up is not measured.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GOAL_SECONDS = 1.0
GAME = "uncharted_passage"


def main(argv: list[str] | None = None) -> int:
    """Start the watcher, save cards, print each latency, the median and the verdict."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--saves", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cardc-bench-watch-") as tmp:
        root = Path(tmp)
        shutil.copytree(REPO / "cards", root / "cards")
        shutil.copytree(REPO / "generated", root / "generated")
        shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
        process = subprocess.Popen(
            [sys.executable, "-m", "compiler.cli", "watch"],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        lines: list[str] = []
        assert process.stdout is not None
        stream = process.stdout
        threading.Thread(target=lambda: lines.extend(stream), daemon=True).start()
        handlers = root / "generated" / GAME / "handlers.py"
        card_file = root / "cards" / GAME / "port_cards.cards"
        times = []
        cpu: list[float] = []
        try:
            _wait(lambda: any("watching" in line for line in lines), 600, lines=lines)
            for save in range(args.saves):
                marker = f"bench_save_{save}"
                seen = len(lines)
                with card_file.open("a", encoding="utf-8") as handle:
                    handle.write(
                        f'\nport_card "Bench Save {save}" {{\n  copies 1\n'
                        "  on pirate_combat {\n    may { reduce pirate_power up_to 1 }\n  }\n}\n"
                    )
                saved = time.perf_counter()
                cpu_saved = _cpu_seconds(process.pid)
                _wait(lambda m=marker: m in handlers.read_text(encoding="utf-8"), 60, 0.005, lines)
                times.append(time.perf_counter() - saved)
                cpu_done = _cpu_seconds(process.pid)
                if cpu_saved is not None and cpu_done is not None:
                    cpu.append(cpu_done - cpu_saved)
                # Let the sheets of this save be rendered before the next one.
                _wait(lambda s=seen: any(line.startswith("built") for line in lines[s:]), 600)
        finally:
            process.terminate()
            process.wait(timeout=30)
    median = statistics.median(times)
    load = os.getloadavg()
    print(f"cardc watch, {args.saves} saves of a card (save -> handlers rebuilt):")
    print("  " + " ".join(f"{t:.3f}s" for t in times))
    if cpu:
        print("  watcher CPU time: " + " ".join(f"{t:.3f}s" for t in cpu))
    print(f"median {median:.3f}s (load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    ok = median <= GOAL_SECONDS
    print(f"{'PASS' if ok else 'FAIL'}: median {median:.3f}s (goal <= {GOAL_SECONDS}s)")
    return 0 if ok else 1


def _cpu_seconds(pid: int) -> float | None:
    """The user and system CPU time of process ``pid`` so far (Linux /proc), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait(
    condition: object, timeout: float, step: float = 0.05, lines: list[str] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for the watcher:\n" + "".join(lines or []))
        time.sleep(step)


if __name__ == "__main__":
    sys.exit(main())
