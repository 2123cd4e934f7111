"""Benchmark: the statistics of Uncharted Passage played by its DSL flow (flow.cards) against the
hand-written flow it replaced (bench/up_handwritten.py), with their 95% confidence intervals.

Run as ``.venv/bin/python bench/up_compare.py [--games N] [--policy greedy]``. Not a test: it
prints figures. For each mode (solo, competitive, coop) it plays N games with each flow

- from the same master seed: the same games, so every game's result and event log must be the
  same (the count of games that differ is printed: 0 is the claim), but for the one event the
  flow adds when its ``end when`` holds (``("end_when", round)``: a ship sank), which the
  hand-written loop did not log;
- from two different master seeds: independent samples, whose mean score (and its 95% interval,
  and the difference's by Welch), sink rate (Wilson 95% interval) and titles are printed side by
  side, as ``cardc sim --compare`` reads two runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from engine import sim  # noqa: E402 - after the path is set, so a checkout runs as is
from engine.sim_stats import welch, wilson  # noqa: E402

MODES = ("solo", "competitive", "coop")


def handwritten() -> Any:
    """The hand-written flow's module (bench/up_handwritten.py)."""
    path = Path(__file__).with_name("up_handwritten.py")
    spec = importlib.util.spec_from_file_location("up_handwritten", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"bench/up_compare.py: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["up_handwritten"] = module
    spec.loader.exec_module(module)
    return module


def same_games(dsl: sim.Simulator, old: sim.Simulator, games: int, mode: str, policy: str) -> int:
    """How many of ``games`` games from one master seed differ between the two flows (their
    result or their event log)."""
    players = sim.players_for(mode)
    differ = 0
    for number in range(1, games + 1):
        seed = sim.game_seed(2024, number)
        a = dsl.new_game(seed, players, mode, dsl.factory(policy))
        b = old.new_game(seed, players, mode, old.factory(policy))
        ra, rb = sim.play_game(a), sim.play_game(b)
        fields = ("scores", "team_score", "titles", "sunk", "winner", "logbook")
        events = [e for e in a.events if e[0] != "end_when"]
        if any(getattr(ra, f) != getattr(rb, f) for f in fields) or events != b.events:
            differ += 1
    return differ


def line(label: str, report: Any) -> str:
    """One flow's figures."""
    score = report.score
    low, high = wilson(report.games_with_sinking, report.games)
    titles = ", ".join(f"{t or '(sunk)'} {n}" for t, n in report.titles[:3])
    return (
        f"  {label:<12} mean score {score.mean:6.2f} [95% {score.mean - score.half_width:6.2f}, "
        f"{score.mean + score.half_width:6.2f}]  sink rate {100 * report.sink_rate:5.1f}% "
        f"[95% {100 * low:4.1f}, {100 * high:4.1f}]  titles: {titles}"
    )


def main() -> int:
    """Print the comparison, mode by mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per flow and mode")
    parser.add_argument("--same", type=int, default=300, help="games compared one by one")
    parser.add_argument("--policy", default="greedy")
    parser.add_argument(
        "--folder", type=Path, default=REPO_ROOT / "generated" / "uncharted_passage"
    )
    args = parser.parse_args()
    dsl = sim.Simulator(args.folder)
    old = handwritten().simulator(args.folder)
    print(f"bench/up_compare.py: {dsl.title}, policy {args.policy}, {args.games:,} games a flow")
    for mode in MODES:
        differ = same_games(dsl, old, args.same, mode, args.policy)
        a = sim.simulate(dsl, args.games, 1, mode, args.policy)
        b = sim.simulate(old, args.games, 2, mode, args.policy)
        diff = welch(b.score, a.score)
        print(f"{mode}:")
        print(line("flow.cards", a))
        print(line("hand-written", b))
        print(
            f"  mean score, DSL - hand-written: {diff.value:+.2f} [95% {diff.low:+.2f}, "
            f"{diff.high:+.2f}] ({'differs' if diff.significant else 'within the intervals'}); "
            f"same seed: {differ} of {args.same} games differ (result or event log)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
