"""Benchmark: ``cardc check`` of a one-card project, process start to exit.

Run as ``.venv/bin/python bench/check.py [--runs 10]``. A benchmark, not a test: it prints the
figures and PASS/FAIL against the goal (median at most 0.3 s) and exits 1 when it fails.

The project is made in a temporary folder: a ``game.cards`` and one card. One unmeasured run
first fills the grammar cache (``dsl.grammar_cache``), as any designer's first run does; then
each measured run is a fresh ``cardc`` process, timed from spawn to exit.

Bytecode: an installed cardc has its ``.pyc`` files (pip compiles them), but this environment
sets ``PYTHONDONTWRITEBYTECODE=1``, so a checkout's modules would be compiled from source on
every run, about a third of the time measured. The bench therefore compiles cardc's packages
first (``compileall``) and runs every child without ``PYTHONDONTWRITEBYTECODE``, so the warm-up
run writes the bytecode of anything else it imports: what is measured is a designer's run.
The load average and the CPU time of the measured runs are printed too: the wall time is noisy
on a busy machine, the CPU time much less.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOAL_SECONDS = 0.3
GAME = """\
game solo "Solo" {
  players 1
  counter coins
  trigger play "the card is played"
  kind port_card "a card" { property copies number }
}
"""
CARD = 'port_card "Coin" {\n  copies 2\n  on play { gain coins 1 }\n}\n'


def cardc_command() -> list[str]:
    """The installed ``cardc`` beside this Python, or ``python -m compiler.cli``."""
    script = Path(sys.executable).with_name("cardc")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "compiler.cli"]


def compile_packages() -> list[str]:
    """Write the bytecode of cardc's packages (``compiler``, ``dsl``, ``engine``), wherever
    they are imported from; the folders compiled."""
    folders = []
    for name in ("compiler", "dsl", "engine"):
        spec = importlib.util.find_spec(name)
        for folder in (spec.submodule_search_locations or []) if spec else []:
            compileall.compile_dir(folder, quiet=1)
            folders.append(folder)
    return folders


def main(argv: list[str] | None = None) -> int:
    """Time ``cardc check`` in a one-card project; print the runs, the median and a verdict."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cardc-bench-check-") as tmp:
        root = Path(tmp)
        (root / "cards" / "solo").mkdir(parents=True)
        (root / "cards" / "solo" / "game.cards").write_text(GAME, encoding="utf-8")
        (root / "cards" / "solo" / "coin.cards").write_text(CARD, encoding="utf-8")
        command = [*cardc_command(), "check"]
        compiled = compile_packages()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        warm = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
        if warm.returncode != 0:
            print(warm.stdout + warm.stderr)
            return 1
        times = []
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        for _ in range(args.runs):
            started = time.perf_counter()
            subprocess.run(command, cwd=root, env=env, capture_output=True, check=True)
            times.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) / args.runs
    median = statistics.median(times)
    runs = " ".join(f"{t:.3f}" for t in times)
    print(f"bytecode compiled first: {', '.join(compiled) or 'no package found'}")
    print(f"cardc check, one-card project, {args.runs} runs: {runs}")
    load = os.getloadavg()
    print(
        f"median {median:.3f}s, CPU {cpu:.3f}s a run "
        f"(load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})"
    )
    ok = median <= GOAL_SECONDS
    print(f"{'PASS' if ok else 'FAIL'}: median {median:.3f}s (goal <= {GOAL_SECONDS}s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
