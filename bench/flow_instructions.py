"""Benchmark: machine instructions a solo greedy game of Uncharted Passage costs, by flow,
counted by valgrind's cachegrind (``bench/sim.py`` times the same flows by the clock).

Run as ``.venv/bin/python bench/flow_instructions.py [--games N]``; it needs ``valgrind`` on
the PATH (Debian: ``apt-get install valgrind``). This is a benchmark, not a test.

Why: ``bench/sim.py``'s side-by-side ratio is a median of timings, and on a shared machine one
repeat can be 10% off its neighbour. An instruction count does not depend on the load: for each
flow, a child process plays N games after a warm-up of 20, and the same process playing none is
subtracted, so what is left is N games' instructions (the interpreter's start, the imports, the
load of cards.json and the warm-up cancel out). ``PYTHONHASHSEED`` is fixed so both runs of a
flow hash alike.

The flows: the compiled DSL flow; the same rules with the flow written by hand in Python
(``bench/up_flow_python.py``, the side-by-side goal of issue 11); the frozen pre-move module
(``bench/up_handwritten.py``, older rules: for the record).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO_ROOT = BENCH.parent
FOLDER = REPO_ROOT / "generated" / "uncharted_passage"

#: The child: play ``games`` solo greedy games with one flow, after a warm-up of 20.
CHILD = """
import sys
sys.path[:0] = [{bench!r}, {root!r}]
from pathlib import Path
from engine import sim
import sim as bench_sim
which, games = sys.argv[1], int(sys.argv[2])
folder = Path({folder!r})
simulator = {{
    "dsl": lambda: sim.Simulator(folder),
    "python": lambda: bench_sim.same_rules_simulator(folder),
    "frozen": lambda: bench_sim.handwritten_simulator(folder),
}}[which]()
sim.simulate(simulator, 20, 0, "solo", "greedy")
if games:
    sim.simulate(simulator, games, 1, "solo", "greedy")
"""

FLOWS = (
    ("dsl", "DSL flow"),
    ("python", "the same rules in Python (bench/up_flow_python.py)"),
    ("frozen", "the frozen pre-move module (bench/up_handwritten.py), for the record"),
)


def instructions(script: Path, which: str, games: int) -> int:
    """The instructions cachegrind counts for the child playing ``games`` games."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(
        [
            "valgrind",
            "--tool=cachegrind",
            "--cache-sim=no",
            "--cachegrind-out-file=/dev/null",
            sys.executable,
            str(script),
            which,
            str(games),
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"bench/flow_instructions.py: the {which} child failed:\n{done.stderr}")
    return int(found.group(1).replace(",", ""))


def main() -> int:
    """Print each flow's instructions a game and the DSL flow's ratio to the others."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games counted per flow")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("bench/flow_instructions.py: valgrind is not installed (apt-get install valgrind)")
        return 2
    per_game: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "child.py"
        script.write_text(
            CHILD.format(bench=str(BENCH), root=str(REPO_ROOT), folder=str(FOLDER)),
            encoding="utf-8",
        )
        for which, label in FLOWS:
            played = instructions(script, which, args.games)
            base = instructions(script, which, 0)
            per_game[which] = (played - base) / args.games
            print(f"{label}: {per_game[which] / 1e6:.3f} M instructions a game")
    dsl = per_game["dsl"]
    for which, label in FLOWS[1:]:
        name = label.split(",")[0]
        # As bench/sim.py's ratio of rates: the other's cost over the DSL flow's.
        print(f"DSL flow / {name}, by instructions: {per_game[which] / dsl:.4f} (>= 1: no slower)")
    ok = dsl <= per_game["python"]
    verdict = "PASS" if ok else "FAIL"
    print(f"{verdict}: the DSL flow costs no more instructions than the same rules in Python")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
