"""Benchmark: what the Pirates mini-expansion does to games of the modelled Darwin's Journey.

Run as ``.venv/bin/python bench/sim_dj.py [--games N] [--policy greedy|random]`` after
``cardc build``. A benchmark, not a test: it prints figures, and nothing runs it in the suite.

For each player count 1 to 4 it plays N seeded games with the Pirates (``generated/
darwins_journey/``) and the same N seeds without them (the ``no_pirates`` variant), with the
game's own flow and policy as ``cardc sim`` plays them, and prints per game: victory points of
the winner's seat and of all seats, Coins lost to raids, victory points lost to raids (Coins a
raided player could not pay), players raided, Treasure tokens taken, and the paired difference
of the mean victory points (with - without), each with its 95% confidence interval (normal
approximation, sample standard deviation). The base game's numbers are the model's (HOST.md):
the figures say what the expansion does to this model, not to the printed base game.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.sim import Simulator, game_seed, play_game  # noqa: E402

GENERATED = ROOT / "generated" / "darwins_journey"


def interval(values: Sequence[float]) -> str:
    """``mean ± half-width`` of a 95% normal interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n > 1 else 0.0
    return f"{mean:7.2f} ± {half:5.2f}"


def play(sim: Simulator, seed: int, players: int, policy: str) -> tuple[list[int], dict[str, int]]:
    """One game: the seats' victory points and the raid and treasure figures."""
    mode = "solo" if players == 1 else "competitive"
    game = sim.new_game(seed, players, mode, sim.factory(policy))
    result = play_game(game)
    figures = dict(getattr(game, "figures", {}))
    return list(result.scores), figures


def main(argv: Sequence[str] | None = None) -> int:
    """Print the with/without table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--policy", default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with_sim = Simulator(GENERATED)
    without_sim = Simulator(GENERATED / "no_pirates")
    print(f"Darwin's Journey (modelled host), {args.games} games per row, policy {args.policy}")
    started = time.perf_counter()
    played = 0
    for players in (1, 2, 3, 4):
        rows: dict[str, list[float]] = {
            "mean VP, Pirates": [],
            "mean VP, no Pirates": [],
            "mean VP difference": [],
            "winning VP, Pirates": [],
            "winning VP, no Pirates": [],
            "Coins lost to raids": [],
            "VP lost to raids": [],
            "players raided": [],
            "Treasure taken": [],
        }
        for number in range(1, args.games + 1):
            seed = game_seed(args.seed, number)
            scores, figures = play(with_sim, seed, players, args.policy)
            base, _ = play(without_sim, seed, players, args.policy)
            played += 2
            rows["mean VP, Pirates"].append(sum(scores) / players)
            rows["mean VP, no Pirates"].append(sum(base) / players)
            rows["mean VP difference"].append((sum(scores) - sum(base)) / players)
            rows["winning VP, Pirates"].append(max(scores))
            rows["winning VP, no Pirates"].append(max(base))
            rows["Coins lost to raids"].append(figures.get("raid_coins", 0))
            rows["VP lost to raids"].append(figures.get("raid_points", 0))
            rows["players raided"].append(figures.get("raids", 0))
            rows["Treasure taken"].append(figures.get("treasure_taken", 0))
        print(f"\n{players} player{'s' if players > 1 else ''} (per game, 95% CI)")
        for name, values in rows.items():
            print(f"  {name:<24} {interval(values)}")
    elapsed = time.perf_counter() - started
    print(f"\n{played} games in {elapsed:.1f} s ({played / elapsed:.0f} games/s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
