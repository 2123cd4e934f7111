"""Benchmark: ``cardc build`` on synthetic projects of 1,000, 10,000 and 50,000 cards.

Run as ``.venv/bin/python bench/build.py [--sizes 1000,10000,50000] [--repeat R]``. This is a
benchmark, not a test: it prints figures and PASS/FAIL against the goals below and exits 1 when
a goal fails, but nothing runs it as part of the test suite.

Each project holds one synthetic game of N cards (``armada``: a ``game.cards`` vocabulary shaped
like Uncharted Passage's, and card files of 500 cards each: port cards, voyages with formulas
and conditions, missions with rewards; triggers with may, if/unless/else, for each ... where,
choose one of, repeat, let, pay ... else, arithmetic, native calls, dice, @provisional notes and
comments), with the four real games of ``cards/`` alongside. The generator is seeded, so every
run measures the same text.

The builds run with ``sheets=False`` (``cardc build --no-sheets``): laying out printable cards
with WeasyPrint costs about 20 cards a second, a budget of its own measured by
``bench/sheets.py`` (issue 6); this benchmark is the compiler's (parse, check, IR, schema,
handlers).

Every size runs in a child process of its own (``--one N``), so that one size's memory and
caches never reach another's. What is measured, in process, through ``compiler.build.build``:

- cold build: an empty ``generated/``, IR-validation cache emptied. Imports, the lark grammar
  and the jinja template are loaded by a warm-up build of the real games first: process
  start-up is excluded. Median of the repeats (one at 50,000 cards unless --repeat-large).
- peak memory of one more cold build: tracemalloc's peak (Python allocations; tracemalloc slows
  that build, which is not timed) and the child's ru_maxrss (the whole process at its largest).
- no-op rebuild: nothing changed; median.
- one-file edit: a card added to one real game's file, then to one synthetic file; which games
  were rebuilt (the goal: only the edited one), and the time (median of the repeats). The
  builds run in one process, so the per-file caches of compiler.filecache hold what earlier
  builds made, as in ``cardc watch`` and ``cardc lsp`` (a cold build empties them first).

Goals: 10,000 cards build cold in at most 6 s end to end; the 50,000/10,000 growth ratio of the
cold time is at most 5.5 (close to linear); a no-op rebuild takes at most 0.3 s (at 10,000
cards); a one-file edit rebuilds only the edited game, in at most 0.5 s at 10,000 cards.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))
#: What the children measure: a copy of cardc and the real cards taken when the run starts,
#: so that edits to the working tree during a run (a compiler file saved, which changes every
#: game's input digest) cannot turn a no-op rebuild into a full one half-way.
SNAPSHOT_PARTS = ("compiler", "dsl", "engine", "cards")
SOURCE = REPO_ROOT

SEED = 20240611
CARDS_PER_FILE = 500
GAME = "armada"
GOAL_SECONDS_FOR_10K = 6.0
GOAL_GROWTH_50K_OVER_10K = 5.5
GOAL_NO_OP_SECONDS = 0.3
#: A one-file edit of the synthetic game at 10,000 cards, with the per-file caches of a
#: process that built it before (cardc watch, cardc lsp; compiler.filecache).
GOAL_EDIT_SECONDS = 0.5
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'

VOCABULARY = """\
# Armada: a synthetic game for bench/build.py, shaped like Uncharted Passage's vocabulary.
game armada "Armada (synthetic)" {
  players 1..4
  score prestige
  param rounds 12
  param mid_event_round 7

  counter prestige, coins, supplies
  counter sailing_speed, crew_stamina, armament { min 1; max 6 }
  track durability 10 { critical_damage 4, 7 } @provisional("a synthetic track")
  track health 10 { declining_health 4, 7 } @provisional("a synthetic track")
  zone port_cards, missions, accomplished, hand

  symbol stars "prestige stars on a reward"
  symbol die "a die on a reward: prestige equal to the roll"
  symbol east_asia "the East Asia region"
  symbol kraken "the Kraken discovery spot"

  trigger reveal "a voyage card is revealed"
  trigger pirate_combat "the Pirate phase, before damage" { quantity pirate_power, strength }
  trigger pirate_raid "the Pirate's Raid event, before damage" { quantity damage }
  trigger sailing "the Sailing phase" { quantity reach, unscurvied_distance }
  trigger scurvy "a scurvy check found scurvy" { quantity scurvy }
  trigger dock "the ship docks at a port" { param port }
  trigger anchor_at_sea "the ship anchors at sea" { param place }
  trigger accomplish "a mission's condition is met"
  trigger round_end "the end of a round"
  trigger use "a crew card is used"

  @host("bench/build.py builds this game and never plays it")
  verb raid "roll two dice and take Ship Damage equal to the difference" { param damage number }
  @host("bench/build.py builds this game and never plays it")
  verb accomplish "a mission is accomplished" { param mission card }
  @host("bench/build.py builds this game and never plays it")
  verb scurvy_check "compare the distance sailed with Crew Stamina"

  @host("bench/build.py builds this game and never plays it")
  native in_pirate_infested_area "the ship is next to a pirate icon" { returns bool }
  @host("bench/build.py builds this game and never plays it")
  native region_of "the region of a port" { param place any; returns name }
  @host("bench/build.py builds this game and never plays it")
  native difference "roll dice, return the difference" { param dice dice; returns number }

  kind voyage "a voyage card" {
    tags first_half, second_half
    property resources number
    property pirate formula
    property restraint condition optional
  }
  kind port_card "a port card: single use" { property copies number }
  kind crew "a crew card" { property code text }
  kind resource "a resource card" { property starting_copies number; property value any optional }
  kind mission "a mission card" {
    tags route, trade, discovery
    property reward any
  }
}
"""

PORT_TITLES = [
    "Smoke Bomb",
    "Reinforced Rope",
    "Rum",
    "Lime Juice",
    "Spyglass",
    "Old Map",
    "Cannon",
    "Pilot",
]
VOYAGE_TITLES = ["Plague", "Pirate's Raid", "Famine", "Storm", "Calm Seas", "Fog Bank", "Mutiny"]
MISSION_TITLES = [
    "Before the Cherry Blossoms Fall",
    "Legend of Kraken",
    "Silk Road",
    "Spice Trade",
    "Northern Passage",
]
REASONS = [
    "the count per kind is not printed",
    "the printed value is not in the rulebook text",
    "which pirate formula this card shows is not printed",
]
COUNTERS = ["prestige", "coins", "supplies", "sailing_speed", "crew_stamina"]
RESOURCE_TITLES = ["Marks of Credit", "Bribery", "Supplies", "Strange Tincture", "Fame"]


class Armada:
    """Seeded synthetic cards for the ``armada`` game; every one checks without errors.

    The mix follows the real games' cards: a third hold properties and one short rule or none
    (resources, crew), the rest a trigger or two with a few statements (port cards, voyages,
    missions). The report prints tokens and statements per card, synthetic beside real.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.port_ids: list[str] = []

    def n(self, low: int = 1, high: int = 6) -> int:
        return self.rng.randint(low, high)

    def amount(self) -> str:
        r = self.rng.random()
        if r < 0.7:
            return str(self.n())
        if r < 0.85:
            return f"{self.rng.choice(COUNTERS)} + {self.n(1, 3)}"
        if r < 0.93:
            return f"max({self.n(1, 2)}, {self.rng.choice(COUNTERS)} - {self.n(1, 3)})"
        return f"{self.n(1, 2)}d6"

    def effect(self) -> str:
        r = self.rng.random()
        counter = self.rng.choice(COUNTERS)
        if r < 0.3:
            return f"gain {counter} {self.amount()}"
        if r < 0.45:
            return f"lose {counter} {self.n(1, 3)}"
        if r < 0.6:
            return f"pay coins {self.n(1, 4)} else lose prestige missing"
        if r < 0.75:
            return f"mark {self.rng.choice(['health', 'durability'])} {self.n(1, 2)}"
        if r < 0.85:
            return f"score {self.amount()}"
        return f"draw port_cards {self.n(1, 2)}"

    def resource(self, index: int) -> str:
        title = f"{self.rng.choice(RESOURCE_TITLES)} {index}"
        value = ""
        if self.rng.random() < 0.5:
            value = (
                f'\n  value {self.rng.choice(COUNTERS)} {self.n(1, 3)} @provisional("{REASONS[1]}")'
            )
        return f'resource "{title}" {{\n  starting_copies {self.n(1, 10)}{value}\n}}\n'

    def crew(self, index: int) -> str:
        body = self.effect()
        r = self.rng.random()
        if r < 0.25:
            body = f"may {body}"
        elif r < 0.4:
            body = f"repeat {self.n(2, 3)} {{\n      {body}\n    }}"
        return f"""\
crew "P{index}" {{
  code "P{index}"
  # "The player may perform two actions, as explained in the base game rules."
  on use {{
    {body}
  }}
}}
"""

    def port_card(self, index: int) -> str:
        title = f"{self.rng.choice(PORT_TITLES)} {index}"
        ident = title.lower().replace(" ", "_").replace("'", "")
        self.port_ids.append(ident)
        trigger, target = self.rng.choice(
            [
                ("pirate_combat", "pirate_power"),
                ("pirate_raid", "damage"),
                ("sailing", "reach"),
                ("scurvy", "scurvy"),
            ]
        )
        return f"""\
port_card "{title}" {{
  copies {self.n(2, 5)} @provisional("{self.rng.choice(REASONS)}")
  # "single-use cards that are discarded immediately after use"
  on {trigger} {{
    may {{
      reduce {target} up_to {self.n(1, 3)}
      discard self
    }}
  }}
}}
"""

    def voyage(self, index: int) -> str:
        title = f"{self.rng.choice(VOYAGE_TITLES)} {index}"
        half = self.rng.choice(["first_half", "second_half"])
        pirate = self.rng.choice(["highest(2d6)", "highest_or_sum(2d6)", "lowest(3d6) + 2"])
        lines = [
            f'voyage {half} "{title}" {{',
            f'  resources {self.n(10, 14)} @provisional("{REASONS[1]}")',
            f'  pirate {pirate} @provisional("{REASONS[2]}")',
        ]
        if self.rng.random() < 0.2:
            lines.append(f"  restraint coins >= {self.n(1, 3)} and not in_pirate_infested_area()")
        lines += ["  # The event, as the rulebook words it.", "  on reveal {"]
        r = self.rng.random()
        if r < 0.35 and self.port_ids:
            lines += [
                f"    unless play {self.rng.choice(self.port_ids)} {{",
                f"      mark health {self.n(1, 2)}",
                "    }",
            ]
        elif r < 0.7:
            lines += ["    if in_pirate_infested_area() {", "      raid difference(2d6)"]
            if self.rng.random() < 0.4:
                lines += ["    } else {", f"      {self.effect()}"]
            lines.append("    }")
        else:
            lines.append(f"    {self.effect()}")
        lines.append("  }")
        if self.rng.random() < 0.2:
            lines += [
                "  on sailing {",
                "    let bonus 1d6",
                f"    if bonus > {self.n(2, 4)} {{",
                "      add reach 1",
                "    }",
                "  }",
            ]
        lines.append("}")
        return "\n".join(lines) + "\n"

    def mission(self, index: int) -> str:
        title = f"{self.rng.choice(MISSION_TITLES)} {index}"
        tag = self.rng.choice(["route", "trade", "discovery"])
        lines = [
            f'mission {tag} "{title}" {{',
            f'  reward stars {self.n(1, 4)} @provisional("{REASONS[1]}")',
            '  # "accomplished by entering any East Asian port before Round 6."',
            "  on dock {",
            f"    if region_of(port) == east_asia and round < {self.n(4, 8)} {{",
            "      accomplish self",
            "    }",
            "  }",
        ]
        if self.rng.random() < 0.5:
            lines += ["  on accomplish {", "    let result 1d6", "    gain prestige result"]
            r = self.rng.random()
            if r < 0.25:
                lines += [
                    # Labelled: two options of the same verb need names of their own.
                    "    choose one of {",
                    f'      {self.effect()} @label("first_way")',
                    f'      {self.effect()} @label("second_way")',
                    "    }",
                ]
            elif r < 0.5:
                lines += [
                    "    for each rival in players where rival != player {",
                    f"      lose coins {self.n(1, 2)}",
                    "    }",
                ]
            else:
                lines.append("    mark durability result")
            lines.append("  }")
        lines.append("}")
        return "\n".join(lines) + "\n"

    def card(self, index: int) -> str:
        r = self.rng.random()
        if r < 0.2:
            return self.resource(index)
        if r < 0.4:
            return self.crew(index)
        if r < 0.65 or not self.port_ids:
            return self.port_card(index)
        if r < 0.85:
            return self.voyage(index)
        return self.mission(index)


def make_project(root: Path, cards: int) -> Path:
    """A project at ``root``: the real games and ``armada`` with ``cards`` synthetic cards."""
    shutil.copytree(SOURCE / "cards", root / "cards")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    game = root / "cards" / GAME
    game.mkdir()
    (game / "game.cards").write_text(VOCABULARY, encoding="utf-8")
    generator = Armada(SEED)
    for start in range(0, cards, CARDS_PER_FILE):
        texts = [generator.card(i) for i in range(start, min(start + CARDS_PER_FILE, cards))]
        (game / f"cards_{start // CARDS_PER_FILE:03d}.cards").write_text(
            "\n".join(texts), encoding="utf-8"
        )
    return root


# ---- one size, in a child process --------------------------------------------------------


def _fresh_caches() -> None:
    from compiler import filecache, ir_schema

    ir_schema._VALID_CARDS.clear()  # noqa: SLF001 - a cold build validates every card
    filecache.clear()  # and parses, checks and emits every file


#: The CPU time (this process's) of each :func:`_build`, beside its wall time: on a machine
#: other work shares, the wall time says how busy it was as much as what the build cost.
CPU: list[float] = []


def _build(project: Any) -> tuple[float, Any]:
    from compiler.build import build
    from dsl.diagnostics import SourceCache

    started = time.perf_counter()
    cpu = time.process_time()
    outcome = build(project, [], check_only=False, sources=SourceCache(), sheets=False)
    elapsed = time.perf_counter() - started
    CPU.append(time.process_time() - cpu)
    errors = [d for d in outcome.diagnostics if d.severity == "error"]
    if outcome.status or errors:
        raise SystemExit(f"the benchmark build failed: {outcome.report} {errors[:3]}")
    return elapsed, outcome


def _rebuilt(outcome: Any) -> list[str]:
    """The games a build report names as rebuilt: 'built 2 games (a, b), 3 unchanged: ...'."""
    line = outcome.report[-1]
    if not line.startswith("built ") or "(" not in line:
        return []
    return line.split("(", 1)[1].split(")", 1)[0].split(", ")


def _append_card(path: Path, title: str) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write(f'\nrule "{title}" {{\n}}\n')


def _shape(project: Any, cards: int) -> dict[str, float]:
    """Tokens and statements per card, synthetic and real, to show the cards are realistic."""
    from dsl.parser import lex

    def tokens(files: list[Path]) -> int:
        return sum(sum(1 for _ in lex(f.read_text(encoding="utf-8"))) for f in files)

    def statements(game: str) -> int:
        return (project.generated / game / "handlers.py").read_text("utf-8").count("  # @ ")

    real_games = [g for g in project.games() if g != GAME]
    real_cards = sum(
        len(json.loads((project.generated / g / "cards.json").read_text("utf-8"))["cards"])
        for g in real_games
    )
    real_files = [
        f for g in real_games for f in project.game_dir(g).glob("*.cards") if f.name != "game.cards"
    ]
    synthetic_files = sorted((project.cards / GAME).glob("cards_*.cards"))[:2]
    sampled = min(cards, 2 * CARDS_PER_FILE)
    return {
        "tokens_per_card": tokens(synthetic_files) / sampled,
        "statements_per_card": statements(GAME) / cards,
        "real_tokens_per_card": tokens(real_files) / real_cards,
        "real_statements_per_card": sum(statements(g) for g in real_games) / real_cards,
        "real_cards": real_cards,
    }


def run_one(cards: int, repeat: int) -> dict[str, Any]:
    """Every figure for one size, measured in this process."""
    from compiler.project import find_project

    with tempfile.TemporaryDirectory(prefix=f"cardc-bench-{cards}-") as tmp:
        root = make_project(Path(tmp), cards)
        project = find_project(root)
        assert project is not None
        # Warm-up: imports, the grammar, the template, on the real games only.
        warm = Path(tmp) / "warm"
        shutil.copytree(SOURCE / "cards", warm / "cards")
        (warm / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
        warm_project = find_project(warm)
        assert warm_project is not None
        _build(warm_project)

        cold, cold_cpu = [], []
        for _ in range(repeat):
            shutil.rmtree(project.generated, ignore_errors=True)
            _fresh_caches()
            elapsed, outcome = _build(project)
            cold.append(elapsed)
            cold_cpu.append(CPU[-1])
        shape = _shape(project, cards)
        files = len(list(project.generated.rglob("*")))
        source_bytes = sum(p.stat().st_size for p in project.cards.rglob("*.cards"))
        generated_bytes = sum(p.stat().st_size for p in project.generated.rglob("*") if p.is_file())

        shutil.rmtree(project.generated)
        _fresh_caches()
        tracemalloc.start()
        _build(project)
        _, traced_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()

        no_op, no_op_cpu = [], []
        for _ in range(max(repeat, 3)):
            elapsed, outcome = _build(project)
            if not outcome.report[-1].startswith("generated/ is up to date"):
                raise SystemExit(f"a no-op rebuild rebuilt: {outcome.report}")
            no_op.append(elapsed)
            no_op_cpu.append(CPU[-1])

        edits: dict[str, Any] = {}
        real_file = sorted((project.cards / "land_vs_sea").glob("*.cards"))[-1]
        synthetic_file = project.cards / GAME / "cards_000.cards"
        for label, path in (("real", real_file), ("synthetic", synthetic_file)):
            times, cpus, rebuilt = [], [], []
            for attempt in range(max(1, repeat)):
                _append_card(path, f"Bench Edit {label} {attempt}")
                elapsed, outcome = _build(project)
                times.append(elapsed)
                cpus.append(CPU[-1])
                rebuilt = _rebuilt(outcome)
            edits[label] = {
                "file": path.relative_to(root).as_posix(),
                "seconds": statistics.median(times),
                "cpu": statistics.median(cpus),
                "rebuilt": rebuilt,
                "expected": [path.parent.name],
            }
        return {
            **shape,
            "cards": cards,
            "files": len(list((project.cards / GAME).glob("cards_*.cards"))),
            "source_mb": source_bytes / 1e6,
            "generated_mb": generated_bytes / 1e6,
            "generated_files": files,
            "cold": cold,
            "cold_median": statistics.median(cold),
            "cold_cpu": statistics.median(cold_cpu),
            "traced_peak_mb": traced_peak / 1e6,
            "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "no_op_median": statistics.median(no_op),
            "no_op_cpu": statistics.median(no_op_cpu),
            "edits": edits,
        }


# ---- the report ----------------------------------------------------------------------------


def _verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main(argv: list[str] | None = None) -> int:
    """Run every size in a child process and print the figures and verdicts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--repeat", type=int, default=3, help="repeats below 50,000 cards")
    parser.add_argument("--repeat-large", type=int, default=1, help="repeats at 50,000 cards")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--snapshot", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        global SOURCE
        SOURCE = Path(args.snapshot)
        sys.path.insert(0, str(SOURCE))
        repeat = args.repeat_large if args.one >= 50_000 else args.repeat
        result = run_one(args.one, repeat)
        import compiler

        if not Path(compiler.__file__).is_relative_to(SOURCE):
            raise SystemExit(f"measured {compiler.__file__}, not the snapshot")
        print(json.dumps(result))
        return 0
    with tempfile.TemporaryDirectory(prefix="cardc-bench-code-") as snapshot:
        for part in SNAPSHOT_PARTS:
            shutil.copytree(
                REPO_ROOT / part,
                Path(snapshot) / part,
                ignore=shutil.ignore_patterns("__pycache__"),
            )
        return report(args, Path(snapshot))


def report(args: argparse.Namespace, snapshot: Path) -> int:
    """Run every size in a child process on ``snapshot``; print the figures and verdicts."""

    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        f"cardc build benchmark: in-process compiler.build.build, after imports and a "
        f"warm-up build (process start-up excluded); {CARDS_PER_FILE} cards per file, "
        f"plus the {len(list((snapshot / 'cards').iterdir()))} real games; "
        f"median of {args.repeat} runs ({args.repeat_large} at 50,000 cards); sheets off "
        "(cardc build --no-sheets): this measures parse, check, IR, schema and handlers; the "
        "sheets have their own benchmark, bench/sheets.py"
    )
    results: dict[int, dict[str, Any]] = {}
    for size in sizes:
        child = subprocess.run(
            [
                sys.executable,
                __file__,
                "--one",
                str(size),
                "--repeat",
                str(args.repeat),
                "--repeat-large",
                str(args.repeat_large),
                "--snapshot",
                str(snapshot),
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if child.returncode != 0:
            print(child.stdout + child.stderr)
            return 1
        results[size] = json.loads(child.stdout.strip().splitlines()[-1])

    first = next(iter(results.values()))
    print(
        f"card shape: {first['tokens_per_card']:.1f} tokens and "
        f"{first['statements_per_card']:.2f} statements per synthetic card; the "
        f"{first['real_cards']} real cards: {first['real_tokens_per_card']:.1f} tokens and "
        f"{first['real_statements_per_card']:.2f} statements per card"
    )
    print()
    print(
        f"{'cards':>7} {'files':>5} {'source':>8} {'output':>8} {'cold build':>11} "
        f"{'tracemalloc':>12} {'maxrss':>8} {'no-op':>8}"
    )
    for size, r in results.items():
        print(
            f"{size:>7,} {r['files']:>5} {r['source_mb']:>6.1f}MB {r['generated_mb']:>6.1f}MB "
            f"{r['cold_median']:>10.2f}s {r['traced_peak_mb']:>10.0f}MB "
            f"{r['maxrss_mb']:>6.0f}MB {r['no_op_median']:>7.3f}s"
        )
        print(
            f"{'':>7} CPU time: cold {r['cold_cpu']:.2f}s, no-op {r['no_op_cpu']:.3f}s "
            f"(load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})"
        )
    print()
    for size, r in results.items():
        for label, edit in r["edits"].items():
            print(
                f"{size:>7,} cards, one-file edit ({label}: {edit['file']}): "
                f"{edit['seconds']:.2f}s (CPU {edit['cpu']:.2f}s), "
                f"rebuilt {', '.join(edit['rebuilt']) or 'nothing'}"
                f" -> {_verdict(edit['rebuilt'] == edit['expected'])}"
            )
    print()
    failed = False
    checks: list[tuple[str, bool]] = []
    if 10_000 in results:
        cold = results[10_000]["cold_median"]
        checks.append(
            (
                f"10,000 cards build cold in {cold:.2f}s (goal <= {GOAL_SECONDS_FOR_10K:.0f}s)",
                cold <= GOAL_SECONDS_FOR_10K,
            )
        )
        no_op = results[10_000]["no_op_median"]
        checks.append(
            (
                f"no-op rebuild of 10,000 cards in {no_op:.3f}s (goal <= {GOAL_NO_OP_SECONDS}s)",
                no_op <= GOAL_NO_OP_SECONDS,
            )
        )
    if 10_000 in results and 50_000 in results:
        ratio = results[50_000]["cold_median"] / results[10_000]["cold_median"]
        checks.append(
            (
                f"growth 50,000/10,000 cards = {ratio:.2f} (goal <= {GOAL_GROWTH_50K_OVER_10K})",
                ratio <= GOAL_GROWTH_50K_OVER_10K,
            )
        )
    if 10_000 in results:
        edit = results[10_000]["edits"]["synthetic"]["seconds"]
        checks.append(
            (
                f"one-file edit of 10,000 cards rebuilt in {edit:.2f}s "
                f"(goal <= {GOAL_EDIT_SECONDS}s)",
                edit <= GOAL_EDIT_SECONDS,
            )
        )
    edits_ok = all(
        e["rebuilt"] == e["expected"] for r in results.values() for e in r["edits"].values()
    )
    checks.append(("a one-file edit rebuilds only the edited game", edits_ok))
    for text, ok in checks:
        print(f"{_verdict(ok)}: {text}")
        failed = failed or not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
