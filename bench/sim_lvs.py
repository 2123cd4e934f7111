"""Land vs Sea: Uncharted simulated: win share per side, mean points per layer, game length,
and 2-player greedy games per second on one core (issue 16's figures).

    python bench/sim_lvs.py [--games N] [--seed S] [--policy greedy|random] [--variant V]
        [--profile] [--split] [--speed [--repeat R]]

Each mode (2 head to head, 3 asymmetric, 4 teams) plays the same game seeds as ``cardc sim``
(:func:`engine.sim.game_seed`). The speed figure is the 2-player run's wall time over its games,
one process; ``--profile`` prints where that time goes (cProfile, which weighs small functions
heavily), ``--split`` the share of the wall time in each part of a turn, timed without a
profiler. ``--speed`` plays the 2-player run ``--repeat`` times and prints the median games per
second, by process time (the CPU the games took: steadier than the wall clock on a shared
machine) and by the wall clock.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(games: int, seed: int, players: int, policy: str, variant: str | None) -> dict[str, object]:
    """Play ``games`` games; the figures of the run."""
    from engine.sim import Simulator, game_seed

    folder = ROOT / "generated" / "land_vs_sea"
    if variant:
        folder = folder / variant
    sim = Simulator(folder)
    factory = sim.factory(policy)
    wins: Counter[str] = Counter()
    layers: Counter[str] = Counter()
    sides: Counter[str] = Counter()
    turns = 0
    started = time.perf_counter()
    for number in range(1, games + 1):
        game = sim.new_game(game_seed(seed, number), players, "competitive", factory)
        result = game.play_game()  # type: ignore[attr-defined]
        winner = result["winner"]
        wins["tie" if winner is None else game.players[winner].flags["side"]] += 1
        layers.update(game.points_by)  # type: ignore[attr-defined]
        for side in ("land", "sea"):
            marker = game.player_for(side)  # type: ignore[attr-defined]
            sides[side] += marker.counters["points"] if marker else 0
        # Placements made (a flow's ``turns`` are the seats' turns).
        turns += getattr(game, "placements", getattr(game, "turns", 0))
    seconds = time.perf_counter() - started
    return {
        "wins": wins,
        "layers": layers,
        "sides": sides,
        "turns": turns / games,
        "seconds": seconds,
        "games": games,
    }


def show(players: int, figures: dict[str, object]) -> None:
    """Print one mode's figures."""
    games = int(figures["games"])  # type: ignore[call-overload]
    wins: Counter[str] = figures["wins"]  # type: ignore[assignment]
    layers: Counter[str] = figures["layers"]  # type: ignore[assignment]
    sides: Counter[str] = figures["sides"]  # type: ignore[assignment]
    mode = {2: "head to head", 3: "asymmetric", 4: "teams"}[players]
    print(f"{players} players ({mode}), {games} games")
    print(
        "  win share: "
        + ", ".join(f"{side} {100 * wins[side] / games:.1f}%" for side in ("land", "sea", "tie"))
    )
    print(
        "  mean points per side: "
        + ", ".join(f"{side} {sides[side] / games:.1f}" for side in ("land", "sea"))
    )
    print("  mean points per layer (both sides):")
    for layer, points in sorted(layers.items(), key=lambda item: -item[1]):
        print(f"    {layer:28s} {points / games:6.1f}")
    print(f"  game length: {figures['turns']:.1f} placements (turns) a game")
    seconds = float(figures["seconds"])  # type: ignore[arg-type]
    print(f"  {games / seconds:.1f} games/s ({1000 * seconds / games:.1f} ms a game), one process")


def speed(games: int, seed: int, policy: str, variant: str | None, repeat: int) -> None:
    """Print the median 2-player games per second of ``repeat`` runs of ``games`` games."""
    cpu: list[float] = []
    wall: list[float] = []
    for _ in range(max(repeat, 1)):
        started = time.process_time()
        figures = run(games, seed, 2, policy, variant)
        cpu.append(games / (time.process_time() - started))
        wall.append(games / float(figures["seconds"]))  # type: ignore[arg-type]
    cpu.sort()
    wall.sort()
    print(
        f"2 players {policy}, {repeat} runs of {games} games: median "
        f"{cpu[len(cpu) // 2]:.1f} games/s by process time "
        f"(runs {', '.join(f'{v:.1f}' for v in cpu)}), "
        f"{wall[len(wall) // 2]:.1f} games/s by the wall clock"
    )


#: The parts of a turn ``--split`` times: (class attribute, label). Not nested in each other.
SPLIT = (
    ("game.LandVsSea.options", "list the placement options"),
    ("policy.Greedy.placement", "the greedy's choice"),
    ("game.LandVsSea.put_placed", "put the tile down"),
    ("game.LandVsSea.draw_tiles", "draw tiles"),
)


def split(games: int, seed: int, policy: str, variant: str | None) -> None:
    """Print the share of the 2-player run's wall time in each part of :data:`SPLIT`; the rest
    is the flow, the scoring and the setup."""
    import importlib

    from engine.loader import rules_module

    package = rules_module("land_vs_sea").__package__
    spent: dict[str, float] = {}
    originals = []
    for name, label in SPLIT:
        module, owner_name, attr = name.split(".")
        owner = getattr(importlib.import_module(f"{package}.{module}"), owner_name)
        raw = owner.__dict__[attr]
        function = raw.__func__ if isinstance(raw, staticmethod) else raw

        def timed(*args: object, _f=function, _label=label, **kwargs: object) -> object:
            started = time.perf_counter()
            try:
                return _f(*args, **kwargs)
            finally:
                spent[_label] = spent.get(_label, 0.0) + time.perf_counter() - started

        originals.append((owner, attr, raw))
        setattr(owner, attr, staticmethod(timed) if isinstance(raw, staticmethod) else timed)
    try:
        figures = run(games, seed, 2, policy, variant)
    finally:
        for owner, attr, raw in originals:
            setattr(owner, attr, raw)
    total = float(figures["seconds"])  # type: ignore[arg-type]
    print(f"2 players {policy}, {games} games: {games / total:.1f} games/s (wall, timers on)")
    for label, seconds in [
        *spent.items(),
        ("the rest: flow, scoring, setup", total - sum(spent.values())),
    ]:
        print(
            f"  {label:32s} {1000 * seconds / games:6.2f} ms a game  {100 * seconds / total:5.1f}%"
        )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", default="greedy")
    parser.add_argument("--variant")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--split", action="store_true")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    if args.speed:
        speed(args.games, args.seed, args.policy, args.variant, args.repeat)
        return 0
    if args.split:
        split(args.games, args.seed, args.policy, args.variant)
        return 0
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run(args.games, args.seed, 2, args.policy, args.variant)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)
        return 0
    for players in (2, 3, 4):
        show(players, run(args.games, args.seed, players, args.policy, args.variant))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
