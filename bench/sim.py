"""Benchmark: solo games of Uncharted Passage per second, greedy policy, on one core.

Run as ``.venv/bin/python bench/sim.py [--games N] [--repeat R]``. This is a benchmark, not a
test: it prints figures and PASS/FAIL against the goal below and exits 1 when the goal fails,
but nothing runs it as part of the test suite.

What is measured, in process, after ``cardc build``: :func:`engine.sim.simulate` playing N solo
games with the greedy policy from ``generated/uncharted_passage/`` (the generated handlers,
the game's flow and its policy, as ``cardc sim`` runs them), R times with different master
seeds; the figure is the median of the R rates. The process is pinned to one CPU where the OS
allows it. A warm-up run first loads the handlers and fills Python's caches: process start-up
and the one-time load of ``cards.json`` are excluded, as ``cardc sim`` pays them once per run.

Also printed, untimed against the goal: what making a game costs on its own (the simulator's
shared IR, and ``engine.loader.new_game`` reading ``cards.json`` for every game), and how many
generated handler calls one game makes (evidence that the games run through them).

Goal: at least 1,000 solo games per second with the greedy policy, by the wall clock (the
rate by CPU time is printed too: on a shared machine it shows what the process itself costs).

Side by side (issue 11): for Uncharted Passage the same games are also played by two
hand-written flows, taking turns with the DSL flow every ``--chunk`` games (100) on the same
games, so all see the same load (the DSL flow and the same rules in Python swap places every
chunk, then the frozen module: :func:`chunk_order`); each repeat's rate is its chunks' games
over their summed time:

- **the same rules in Python** (``bench/up_flow_python.py``): flow.cards' setup, months, end and
  verbs written by hand over the game's own natives, handlers, map and policy. Before timing,
  the benchmark checks that it plays the very same games as the compiled flow (every event and
  every result, seed by seed, in each mode), so the two differ only in how the flow is written.
  The goal is judged here: the DSL flow no slower than it, by the median of the repeats'
  ratios of CPU time. Printed beside it, for its precision: the ratio pooled over every chunk
  of every repeat, with a 95% bootstrap interval (the chunks resampled in pairs).
- **the frozen pre-move module** (``bench/up_handwritten.py``): the hand-written module as it
  stood before flow.cards replaced it. It still plays the rules of that day, and the rules
  fixed since (in ``cards/uncharted_passage/``, whatever the flow) are work only the DSL side
  does, so its ratio, printed for the record, measures the rule fixes as much as the flow.

``--no-side-by-side`` skips both. Timings on a shared machine wander by several percent from
one repeat to the next; ``bench/flow_instructions.py`` counts the same three flows' instructions
a game with valgrind, which the load cannot move.

``--folder PATH`` benchmarks another compiled folder, its Python found beside its project's
cards as ``cardc sim`` finds it (the tests' Fake Voyage: ``tests/fake_game/generated/fake_voyage``).

Issue 18's goals, each its own ``--suite`` (measured in one go with ``--suite all``; the load
average is printed, since other processes on a shared machine slow the wall clock):

- ``overhead``: the statistics (tallies, per-card figures from the event log) against playing
  the same games and keeping nothing, alternating, on one pinned core; goal <= 5%.
- ``jobs``: ``--jobs 2`` against ``--jobs 1`` on the same games, side by side; goal >= 1.8x.
- ``scale``: ``--scale-games`` solo games (default 100,000) on every core, and the time of
  1,000,000 extrapolated from it (the rate is flat in the number of games: every chunk is
  the same work).
- ``cluster``: the same games on a local Dask cluster (two worker processes), when the
  ``[cluster]`` extra is installed.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from engine import sim  # noqa: E402 - after the path is set, so a checkout runs as is
from engine.loader import new_game  # noqa: E402

GOAL_GAMES_PER_SECOND = 1000.0
GAME = "uncharted_passage"
MODE = "solo"
POLICY = "greedy"


def pin_to_one_core() -> str:
    """Run on one CPU (the first this process may use); say which, or why not."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity on this OS)"
    cpus = sorted(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpus[0]})
    return f"pinned to CPU {cpus[0]} (of {len(cpus)} available)"


def handler_calls_per_game(simulator: sim.Simulator, games: int) -> float:
    """Mean generated-handler calls per game over ``games`` games (untimed: wrapped handlers)."""
    calls = 0
    original = dict(simulator.table.handlers)

    def counting(handler: Any) -> Any:
        def wrapped(g: Any, c: Any) -> Any:
            nonlocal calls
            calls += 1
            return handler(g, c)

        return wrapped

    simulator.table.handlers.update({key: counting(fn) for key, fn in original.items()})
    try:
        sim.simulate(simulator, games, 999, MODE, POLICY)
    finally:
        simulator.table.handlers.clear()
        simulator.table.handlers.update(original)
    return calls / games


def creation_cost(simulator: sim.Simulator, folder: Path, count: int) -> tuple[float, float]:
    """Microseconds to make one game: with the shared IR, and through ``new_game``."""
    factory = simulator.factory(POLICY)
    start = time.perf_counter()
    for n in range(count):
        simulator.new_game(n, 1, MODE, factory)
    shared = (time.perf_counter() - start) / count * 1e6
    start = time.perf_counter()
    for n in range(count):
        game = new_game(folder, players=1, seed=n, mode=MODE)
        game.policies = {0: factory(game, 0)}
    loaded = (time.perf_counter() - start) / count * 1e6
    return shared, loaded


def load_average() -> str:
    """The 1-minute load average, for the record (other helpers share the machine)."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def bare_run(simulator: sim.Simulator, first: int, last: int, seed: int) -> None:
    """Play games first..last and keep nothing: the baseline the statistics are measured
    against."""
    factory = simulator.factory(POLICY)
    for number in range(first, last + 1):
        game = simulator.new_game(sim.game_seed(seed, number), 1, MODE, factory)
        sim.play_game(game)


def suite_overhead(folder: Path, games: int, repeat: int) -> bool:
    """The statistics' cost: the same games with and without tallies, alternating."""
    simulator = sim.Simulator(folder)
    point = sim.Point.of(folder)
    sim._SIMULATORS[(point.folder, point.params, "")] = simulator
    chunk = sim.Chunk((point,), 1, MODE, POLICY, 1, 1, games, True)
    bare_times, stat_times = [], []
    bare_run(simulator, 1, min(games, 200), 1)  # warm-up
    for _ in range(repeat):
        start = time.process_time()
        bare_run(simulator, 1, games, 1)
        bare_times.append(time.process_time() - start)
        start = time.process_time()
        sim.run_chunk(chunk)
        stat_times.append(time.process_time() - start)
    bare, stats = statistics.median(bare_times), statistics.median(stat_times)
    # The median of each side-by-side pair's ratio: a pair shares the machine's load.
    overhead = statistics.median(s / b for s, b in zip(stat_times, bare_times, strict=True)) - 1
    print(
        f"overhead: {games:,} games x {repeat}, CPU time, median: bare {bare:.3f} s, with "
        f"statistics and per-card figures {stats:.3f} s; median of the pairs' ratios: "
        f"{100 * overhead:+.1f}%"
    )
    ok = overhead <= 0.05
    print(f"{'PASS' if ok else 'FAIL'}: goal statistics <= +5.0%, measured {100 * overhead:+.1f}%")
    return ok


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the pool's)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _timed_run(
    folder: Path, games: int, jobs: int, executor: Any = None, cpu: list[float] | None = None
) -> float:
    start, cpu_start = time.perf_counter(), _cpu()
    sim.run_points([sim.Point.of(folder)], games, 11, MODE, POLICY, jobs=jobs, executor=executor)
    if cpu is not None:
        cpu.append(_cpu() - cpu_start)
    return time.perf_counter() - start


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def machine_check() -> float:
    """What two processes get from this machine right now: a pure-Python loop four times in
    one process against the same in a pool of two (2.0 on two idle cores). When another
    process holds a core, no --jobs 2 can beat this."""
    import multiprocessing

    n = 4_000_000
    start = time.perf_counter()
    for _ in range(4):
        _burn(n)
    serial = time.perf_counter() - start
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(_burn, [n] * 4)
    return serial / (time.perf_counter() - start)


def suite_jobs(folder: Path, games: int, repeat: int) -> bool:
    """--jobs 2 against --jobs 1, the same games, alternating; the median of the ratios."""
    print(
        f"jobs: machine check: a plain loop in 2 processes runs {machine_check():.2f}x one "
        "(2.00 on two idle cores)"
    )
    _timed_run(folder, 500, 2)  # warm-up (forks, caches)
    ratios, ones, twos = [], [], []
    cpu_ones: list[float] = []
    cpu_twos: list[float] = []
    for _ in range(repeat):
        one = _timed_run(folder, games, 1, cpu=cpu_ones)
        two = _timed_run(folder, games, 2, cpu=cpu_twos)
        ones.append(one)
        twos.append(two)
        ratios.append(one / two)
    ratio = statistics.median(ratios)
    print(
        f"jobs: {games:,} games x {repeat}: --jobs 1 median {statistics.median(ones):.2f} s, "
        f"--jobs 2 median {statistics.median(twos):.2f} s; speed-up median {ratio:.2f}x "
        f"[min {min(ratios):.2f}, max {max(ratios):.2f}]"
    )
    # What the parallel run costs in CPU against the serial one (forks, pickling, merging):
    # on two idle cores the wall-clock speed-up is at most 2 x this ratio.
    work = statistics.median(cpu_ones) / statistics.median(cpu_twos)
    print(
        f"jobs: CPU seconds, median: --jobs 1 {statistics.median(cpu_ones):.2f}, --jobs 2 "
        f"(parent and workers) {statistics.median(cpu_twos):.2f}: on 2 idle cores the "
        f"speed-up would be at most {2 * work:.2f}x"
    )
    ok = ratio >= 1.8
    print(f"{'PASS' if ok else 'FAIL'}: goal --jobs 2 >= 1.8x --jobs 1, measured {ratio:.2f}x")
    return ok


def suite_scale(folder: Path, games: int) -> float:
    """``games`` solo games on every core; the extrapolated time of 1,000,000."""
    jobs = sim.default_jobs()
    elapsed = _timed_run(folder, games, jobs)
    print(
        f"scale: {games:,} solo games on {jobs} cores in {elapsed:.1f} s = "
        f"{games / elapsed:,.0f} games/s; 1,000,000 games: {1e6 / games * elapsed / 60:.1f} "
        f"min (extrapolated from the {games:,} measured)"
    )
    return elapsed


def suite_cluster(folder: Path, games: int) -> None:
    """The same games on a local Dask cluster of two worker processes."""
    try:
        from distributed import LocalCluster
    except ImportError:
        print("cluster: skipped: the [cluster] extra (Dask distributed) is not installed")
        return
    from engine import sim_cluster

    start = time.perf_counter()
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        started = time.perf_counter() - start
        elapsed = _timed_run(folder, games, 1, sim_cluster.executor(cluster))
    print(
        f"cluster: local Dask cluster (2 workers; {started:.1f} s to start): {games:,} games "
        f"in {elapsed:.1f} s = {games / elapsed:,.0f} games/s; 1,000,000 games: "
        f"{1e6 / games * elapsed / 60:.1f} min (extrapolated)"
    )


def main() -> int:
    """Run the benchmark; print the figures and PASS/FAIL; 1 when the goal fails."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per repeat")
    parser.add_argument("--repeat", type=int, default=7, help="repeats (the median is taken)")
    parser.add_argument("--folder", type=Path, default=REPO_ROOT / "generated" / GAME)
    parser.add_argument(
        "--suite",
        choices=("rate", "overhead", "jobs", "scale", "cluster", "all"),
        default="rate",
        help="which goal to measure (default: the one-core rate; all: every one, in one go)",
    )
    parser.add_argument("--scale-games", type=int, default=100_000, help="games for scale")
    parser.add_argument(
        "--chunk",
        type=int,
        default=100,
        help="side by side, the flows take turns every this many games",
    )
    parser.add_argument(
        "--no-side-by-side",
        action="store_true",
        help="do not time the hand-written flow beside the DSL flow (Uncharted Passage)",
    )
    args = parser.parse_args()
    if args.suite != "rate":
        print(
            f"bench/sim.py --suite {args.suite}: python {platform.python_version()}, "
            f"{sim.default_jobs()} cores, load average {load_average()}"
        )
        ok = True
        if args.suite in ("overhead", "all"):
            ok &= suite_overhead(args.folder, args.games, args.repeat)
        if args.suite in ("jobs", "all"):
            ok &= suite_jobs(args.folder, args.games * 2, args.repeat)
        if args.suite in ("scale", "all"):
            suite_scale(args.folder, args.scale_games)
        if args.suite in ("cluster", "all"):
            suite_cluster(args.folder, args.scale_games)
        print(f"load average at the end: {load_average()}")
        return 0 if ok else 1

    pinned = pin_to_one_core()
    simulator = sim.Simulator(args.folder)
    try:
        simulator.factory(POLICY)
    except sim.SimError as error:
        print(f"bench/sim.py: {error}", file=sys.stderr)
        return 2

    print(f"bench/sim.py: {simulator.title}, {MODE}, policy {POLICY}, from {args.folder}")
    print(f"python {platform.python_version()} on {platform.machine()}; {pinned}")
    print(f"load average at the start: {load_average()}")
    sides: list[tuple[str, sim.Simulator]] = [("DSL flow", simulator)]
    if not args.no_side_by_side and simulator.name == "uncharted_passage":
        same_rules = same_rules_simulator(args.folder)
        differ = {mode: same_games(simulator, same_rules, SAME_GAMES, mode) for mode in MODES}
        print(
            "the same rules in Python (bench/up_flow_python.py) against the DSL flow, "
            f"{SAME_GAMES} games a mode, every event and result: "
            + ", ".join(f"{mode} {n} differ" for mode, n in differ.items())
        )
        if any(differ.values()):
            print(
                "FAIL: bench/up_flow_python.py no longer plays flow.cards' games; follow "
                "flow.cards there before timing the two"
            )
            return 1
        sides.append((SAME_RULES, same_rules))
        sides.append((FROZEN, handwritten_simulator(args.folder)))
    for _, which in sides:
        sim.simulate(which, min(args.games, 200), 0, MODE, POLICY)  # warm-up

    wall_rates: dict[str, list[float]] = {label: [] for label, _ in sides}
    cpu: dict[str, list[float]] = {label: [] for label, _ in sides}
    # A repeat's games are played in chunks of --chunk games, the flows taking turns chunk by
    # chunk (A B C, B C A, ...), each playing the same chunk of games: a drift in the
    # machine's speed (seconds long on a shared machine) then falls on every flow alike.
    chunks = [
        min(args.chunk, args.games - first) for first in range(0, args.games, max(args.chunk, 1))
    ]
    #: Each chunk's CPU time per flow, over every repeat (paired: the same games), for the
    #: pooled ratio and its interval printed with the goal's median.
    chunk_cpu: dict[str, list[float]] = {label: [] for label, _ in sides}
    for repeat in range(1, args.repeat + 1):
        elapsed = dict.fromkeys(wall_rates, 0.0)
        used = dict.fromkeys(wall_rates, 0.0)
        scores: dict[str, list[float]] = {label: [] for label in wall_rates}
        sinks: dict[str, list[float]] = {label: [] for label in wall_rates}
        for number, games in enumerate(chunks):
            for label, which in chunk_order(sides, repeat + number):
                start, cpu_start = time.perf_counter(), time.process_time()
                report = sim.simulate(which, games, repeat * 1000 + number, MODE, POLICY)
                elapsed[label] += time.perf_counter() - start
                used[label] += time.process_time() - cpu_start
                chunk_cpu[label].append(time.process_time() - cpu_start)
                scores[label].append(report.mean * games)
                sinks[label].append(report.sink_rate * games)
        for label, _ in sides:
            wall_rates[label].append(args.games / elapsed[label])
            cpu[label].append(args.games / used[label])
            print(
                f"  repeat {repeat}, {label}: {args.games:,} games in {elapsed[label]:.3f} s = "
                f"{wall_rates[label][-1]:,.0f} games/s ({cpu[label][-1]:,.0f} by CPU time; "
                f"mean score {sum(scores[label]) / args.games:.1f}, sink rate "
                f"{100 * sum(sinks[label]) / args.games:.1f}%)"
            )
    rates, cpu_rates = wall_rates["DSL flow"], cpu["DSL flow"]
    median = statistics.median(rates)
    cpu_median = statistics.median(cpu_rates)
    shared_us, loaded_us = creation_cost(simulator, args.folder, 200)
    calls = handler_calls_per_game(simulator, 50)

    print(
        f"solo games per second (median of {args.repeat}): {median:,.0f}  "
        f"[min {min(rates):,.0f}, max {max(rates):,.0f}]  = {1000 / median:.3f} ms a game"
    )
    print(
        f"making a game: {shared_us:.0f} us with the simulator's shared IR, "
        f"{loaded_us:.0f} us through engine.loader.new_game (reads cards.json each time)"
    )
    print(f"generated handler calls per game: {calls:.1f}")
    print(
        f"by CPU time (what the process itself used, whatever else the machine ran): "
        f"{cpu_median:,.0f} games/s"
        + ("  [the machine was busy: wall clock is slower]" if cpu_median > 1.2 * median else "")
    )
    verdict = "PASS" if median >= GOAL_GAMES_PER_SECOND else "FAIL"
    print(f"{verdict}: goal >= {GOAL_GAMES_PER_SECOND:,.0f} solo games/s, measured {median:,.0f}")
    ok = verdict == "PASS"
    for label, _ in sides[1:]:
        ratios = [new / was for new, was in zip(cpu_rates, cpu[label], strict=True)]
        ratio = statistics.median(ratios)
        print(
            f"{label}, side by side: {statistics.median(wall_rates[label]):,.0f} games/s by the "
            f"wall clock, {statistics.median(cpu[label]):,.0f} by CPU time; DSL flow / it, CPU "
            f"time, median of the repeats: {ratio:.3f} [min {min(ratios):.3f}, max "
            f"{max(ratios):.3f}]"
        )
        pooled, low, high = pooled_ratio(chunk_cpu["DSL flow"], chunk_cpu[label])
        print(
            f"  pooled over every chunk of every repeat: {pooled:.4f} (95% interval "
            f"{low:.4f} to {high:.4f}, {len(chunk_cpu[label])} chunks resampled in pairs)"
        )
        if label == SAME_RULES:
            side = "PASS" if ratio >= 1.0 else "FAIL"
            print(
                f"{side}: goal the DSL flow no slower than the hand-written flow of the same "
                f"rules, measured {ratio:.3f}x"
            )
            ok = ok and side == "PASS"
        else:
            print(
                "  (for the record, not the goal: the frozen module plays the rules as they "
                "were before flow.cards; the rules fixed since are work only the DSL side does)"
            )
    print(f"load average at the end: {load_average()}")
    return 0 if ok else 1


def chunk_order(sides: list[tuple[str, sim.Simulator]], turn: int) -> list[tuple[str, Any]]:
    """The order the flows play a chunk in: the goal's two (the DSL flow and the same rules
    in Python) first, their order swapped every chunk, then the record's frozen module.

    So each of the two follows the other as often as it follows the frozen module. A
    rotation of all three (A B C, B C A, C A B) had the DSL flow follow the frozen module in
    two chunks of three and the same-rules flow follow the DSL flow in two of three. A flow
    played after other code starts with the processor's caches and branch history holding
    that code's, so the rotation counted against the DSL flow alone: on a quiet machine it
    measured 0.992 and 0.997 pooled, and this order 0.998 and 1.004."""
    pair = sides[:2] if turn % 2 == 0 else sides[1::-1]
    return pair + sides[2:]


def pooled_ratio(dsl: list[float], other: list[float], draws: int = 2000) -> tuple[float, ...]:
    """The other flow's CPU time over the DSL flow's, summed over every chunk (above 1: the
    DSL flow is faster), and a 95% bootstrap interval resampling the chunks in pairs (each
    chunk is the same games for both flows). Seeded: the same times give the same interval."""
    import random

    pairs = list(zip(dsl, other, strict=True))
    pick = random.Random(2026).choices
    ratios = sorted(
        sum(b for _, b in sample) / sum(a for a, _ in sample)
        for sample in (pick(pairs, k=len(pairs)) for _ in range(draws))
    )
    pooled = sum(other) / sum(dsl)
    return pooled, ratios[int(0.025 * draws)], ratios[int(0.975 * draws) - 1]


#: The side-by-side flows' labels, and how many games a mode the same-rules flow must play
#: exactly as the DSL flow does before either is timed.
SAME_RULES = "the same rules in Python (bench/up_flow_python.py)"
FROZEN = "the frozen pre-move module (bench/up_handwritten.py)"
SAME_GAMES = 100
MODES = ("solo", "competitive", "coop")


def bench_module(name: str) -> Any:
    """A module of bench/ loaded by path (bench/ is no package): ``bench/NAME.py``."""
    path = Path(__file__).with_name(f"{name}.py")
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"bench/sim.py: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def same_rules_simulator(folder: Path) -> sim.Simulator:
    """A simulator of the compiled game played by flow.cards' flow written in Python over the
    game's own natives (bench/up_flow_python.py)."""
    simulator: sim.Simulator = bench_module("up_flow_python").simulator(folder)
    return simulator


def same_games(a: sim.Simulator, b: sim.Simulator, games: int, mode: str) -> int:
    """How many of ``games`` greedy games, seed by seed, differ between two simulators of one
    game: in any event of the log, the result, or the state of the dice after the game."""
    players = sim.players_for(mode)
    differ = 0
    for number in range(1, games + 1):
        seed = sim.game_seed(2026, number)
        seen = []
        for which in (a, b):
            game = which.new_game(seed, players, mode, which.factory(POLICY))
            result = sim.play_game(game)
            fields = ("scores", "team_score", "titles", "sunk", "winner", "logbook")
            seen.append((game.events, [getattr(result, f) for f in fields], game.rng.getstate()))
        differ += seen[0] != seen[1]
    return differ


def handwritten_simulator(folder: Path) -> sim.Simulator:
    """A simulator of the same compiled game played by the hand-written flow flow.cards
    replaced (bench/up_handwritten.py)."""
    simulator: sim.Simulator = bench_module("up_handwritten").simulator(folder)
    return simulator


if __name__ == "__main__":
    sys.exit(main())
