"""Benchmark: 4-player games of Incredible Expeditions per second, greedy policy, on one core.

Run as ``.venv/bin/python bench/sim_ie.py [--games N] [--repeat R] [--players P] [--profile]``.
A benchmark, not a test: it prints figures and PASS/FAIL against the goal and exits 1 when the
goal fails; nothing runs it as part of the test suite.

What is measured, in process, after ``cardc build``: :func:`engine.sim.simulate` playing N games
of ``generated/incredible_expeditions/`` with the greedy policy (the generated handlers, the
game's natives and policy, as ``cardc sim --players 4`` runs them, per-card figures included),
R times with different master seeds; the figure is the median of the R rates, by the wall clock
and by CPU time (on a shared machine the CPU time shows what the process itself costs). The
process is pinned to one CPU where the OS allows it (the idlest of the last half second); the
load average is printed, since other processes slow the wall clock. A warm-up run loads the
handlers first.

``--profile`` prints where the time goes: the functions with the most time of their own over
one run (cProfile), and the share of a game spent in the policy, in the questions (``ask``),
in firing triggers and in the statistics.

Goal: at least 200 four-player greedy games per second on one core.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import sim  # noqa: E402

GOAL = 200.0
FOLDER = ROOT / "generated" / "incredible_expeditions"


def _idle_times() -> dict[int, int]:
    """Each CPU's idle time so far (Linux's /proc/stat, in clock ticks); empty elsewhere."""
    idle: dict[int, int] = {}
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            for line in stat:
                name, *fields = line.split()
                if name.startswith("cpu") and name[3:].isdigit():
                    idle[int(name[3:])] = int(fields[3]) + int(fields[4])  # idle + iowait
    except (OSError, ValueError, IndexError):
        return {}
    return idle


def _pin() -> str:
    """Pin this process to one CPU where the OS allows it, the one idlest over the last half
    second (on a shared machine every benchmark pinned to the lowest-numbered CPU would queue
    on it while another stays free); say which."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    allowed = os.sched_getaffinity(0)
    before = _idle_times()
    time.sleep(0.5)
    after = _idle_times()
    idle = {cpu: after[cpu] - before[cpu] for cpu in allowed if cpu in before and cpu in after}
    # The idlest, the lowest-numbered among equals (and when /proc/stat says nothing).
    cpu = max(sorted(idle), key=idle.__getitem__) if idle else min(allowed)
    os.sched_setaffinity(0, {cpu})
    return f"pinned to CPU {cpu}"


def _run(simulator: sim.Simulator, games: int, seed: int, players: int) -> tuple[float, float]:
    """(games per second by the wall clock, by CPU time) for one run."""
    wall, cpu = time.perf_counter(), time.process_time()
    report = sim.simulate(simulator, games, seed, "competitive", "greedy", players)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert report.games == games
    return games / wall, games / cpu


def _profile(simulator: sim.Simulator, games: int, players: int) -> None:
    """Where the time goes, by function (own time) and by part of the game."""
    import cProfile
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    sim.simulate(simulator, games, 99, "competitive", "greedy", players)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    raw = stats.stats  # type: ignore[attr-defined]

    def cumulative(name: str, file_part: str = "") -> float:
        # The largest, not the sum: a native step and the verb wrapping it share a name, and
        # the wrapper's time holds the step's.
        return max(
            (row[3] for (file, _line, fn), row in raw.items() if fn == name and file_part in file),
            default=0.0,
        )

    print(f"\nwhere the time goes ({games} games under cProfile, {total:.2f} s):")
    print("  by part of the turn (each figure holds the questions asked inside it):")
    for label, name, part in (
        ("a Rest Turn (take_rest_turn)", "dv_take_rest_turn", "handlers"),
        ("  laying out the Market (lay_out_market)", "lay_out_market", "natives"),
        ("  Acquiring (acquire_cards)", "acquire_cards", "natives"),
        ("    paying for a card (pay_for)", "pay_for", "natives"),
        ("an Encounter Turn (take_encounter_turn)", "dv_take_encounter_turn", "handlers"),
        ("  Facing an Encounter (face_encounter)", "dv_face_encounter", "handlers"),
        ("    raising against it (raise_against_encounter)", "raise_against_encounter", "natives"),
        ("the Draw Phase (draw_phase)", "dv_draw_phase", "handlers"),
        ("card triggers in force (fire_in_force)", "fire_in_force", "natives"),
    ):
        share = cumulative(name, part)
        print(f"  {label:<52} {share:6.2f} s  {100 * share / total:5.1f}%")
    print("  across the turn:")
    for label, name, part in (
        ("the greedy policy (decide)", "decide", "natives"),
        ("questions (Game.ask, the policy included)", "ask", "runtime"),
        ("the statistics (engine.sim_tally.outcome)", "outcome", "sim_tally"),
        ("making games (Simulator.new_game)", "new_game", "sim.py"),
    ):
        share = cumulative(name, part)
        print(f"  {label:<52} {share:6.2f} s  {100 * share / total:5.1f}%")
    print("\nmost time of their own:")
    stats.sort_stats("tottime").print_stats(12)


def main() -> int:
    """Measure, print the figures and PASS/FAIL."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    where = _pin()
    simulator = sim.Simulator(FOLDER)
    _run(simulator, 50, 12345, args.players)  # warm-up
    walls, cpus = [], []
    for seed in range(1, args.repeat + 1):
        wall, cpu = _run(simulator, args.games, seed, args.players)
        walls.append(wall)
        cpus.append(cpu)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    wall, cpu = statistics.median(walls), statistics.median(cpus)
    print(
        f"Incredible Expeditions, {args.players} players, greedy: {args.games} games x "
        f"{args.repeat} runs, {where}, load average {load:.2f}"
    )
    print(
        f"  {wall:8.1f} games/s by the wall clock (median; runs: "
        + ", ".join(f"{w:.1f}" for w in walls)
        + ")"
    )
    print(f"  {cpu:8.1f} games/s by CPU time")
    if args.profile:
        _profile(simulator, min(args.games, 300), args.players)
    ok = wall >= GOAL
    print(f"{'PASS' if ok else 'FAIL'}: goal {GOAL:.0f} games/s on one core (wall clock)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
