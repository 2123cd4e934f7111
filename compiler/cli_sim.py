"""``cardc sim``: play many seeded games of a compiled game with a policy and sum them up.

``cardc sim GAME --games N --seed S [--mode solo|competitive|coop] [--policy random|greedy]
[--variant V] [--log | --log-game K]`` loads ``generated/<game>[/<variant>]/`` of the current
project and prints mean, median, min and max score, the title distribution, the sink rate and (in
competitive) who won. ``--log`` prints one game as the paper logbook would read instead.
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path
from typing import TextIO

from compiler.project import Project, find_project
from compiler.suggest import did_you_mean

#: Other spellings of a mode a player may type (the rulebook says "Cooperative Mode").
MODE_ALIASES = {"cooperative": "coop", "co-op": "coop", "co-operative": "coop"}

#: Below this many seconds a run shows no progress bar: it would only flicker.
PROGRESS_AFTER_SECONDS = 0.5


class SimUsageError(Exception):
    """What the user asked for does not exist; the message and hints say what does."""

    def __init__(self, message: str, hints: tuple[str, ...] = ()):
        super().__init__(message)
        self.hints = hints


def _compiled(folder: Path) -> bool:
    return (folder / "cards.json").is_file() and (folder / "handlers.py").is_file()


def game_folder(project: Project, game: str, variant: str | None) -> Path:
    """The compiled folder of ``game`` (and ``variant``) in ``project``, or a usage error."""
    generated = project.generated
    built = (
        sorted(p.name for p in generated.iterdir() if p.is_dir() and _compiled(p))
        if generated.is_dir()
        else []
    )
    folder = generated / game
    if not _compiled(folder):
        if game in project.games():
            raise SimUsageError(
                f"'{game}' is not compiled: {project.relative(folder)} holds no handlers",
                ("run 'cardc build' first",),
            )
        known = sorted(set(built) | set(project.games()))
        listing = f"; games: {', '.join(known)}" if known else "; this project has no games"
        raise SimUsageError(f"no game '{game}'{listing}", did_you_mean(game, known))
    if variant is None:
        return folder
    variants = sorted(p.name for p in folder.iterdir() if p.is_dir() and _compiled(p))
    if not _compiled(folder / variant):
        listing = f"; variants: {', '.join(variants)}" if variants else "; it has no variants"
        hints = did_you_mean(variant, variants) or (
            ("variants are compiled by 'cardc build' into generated/<game>/<variant>/",)
        )
        raise SimUsageError(f"'{game}' has no compiled variant '{variant}'{listing}", hints)
    return folder / variant


class ProgressBar:
    """A progress bar on a terminal's stderr, drawn only once a run has lasted a while."""

    def __init__(self, stream: TextIO, width: int = 30):
        self.stream = stream
        self.width = width
        self.started = time.monotonic()
        self.drawn_at = 0.0
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        """Redraw at most ten times a second, and only after ``PROGRESS_AFTER_SECONDS``."""
        now = time.monotonic()
        elapsed = now - self.started
        if elapsed < PROGRESS_AFTER_SECONDS or (now - self.drawn_at < 0.1 and done < total):
            return
        self.drawn_at = now
        filled = round(self.width * done / total)
        rate = done / elapsed if elapsed > 0 else 0.0
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done:,}/{total:,} games  {rate:,.0f}/s")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the bar so the report starts on a clean line."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _die(message: str, hints: tuple[str, ...] = (), status: int = 2) -> int:
    print(f"cardc sim: {message}", file=sys.stderr)
    for hint in hints:
        print(f"  hint: {hint}", file=sys.stderr)
    return status


def cmd_sim(args: argparse.Namespace) -> int:
    """``cardc sim``: simulate games, or print one game's logbook with ``--log``."""
    from engine import sim
    from engine.runtime import RuleError

    project = find_project()
    if project is None:
        return _die(
            "no project here: no folder at or above this one holds cards/",
            ("cd into your project",),
        )
    if args.games < 1:
        return _die(f"--games must be at least 1, not {args.games}")
    try:
        folder = game_folder(project, args.game, args.variant)
        args.mode = MODE_ALIASES.get(args.mode.lower(), args.mode)
        if args.mode not in sim.MODES:
            raise SimUsageError(
                f"no mode '{args.mode}'; modes: {', '.join(sim.MODES)}",
                did_you_mean(args.mode, sim.MODES, 0.5),
            )
        simulator = sim.Simulator(folder)
        if args.log or args.log_game is not None:
            number = 1 if args.log_game is None else args.log_game
            if number < 1:
                return _die(f"--log-game must be at least 1, not {number}")
            played = sim.play_one(simulator, args.seed, number, args.mode, args.policy)
            print(sim.render_logbook(played, datetime.date.today().isoformat()))
            return 0
        progress = None
        if not args.quiet and sys.stderr.isatty():
            progress = ProgressBar(sys.stderr)
        try:
            report = sim.simulate(
                simulator, args.games, args.seed, args.mode, args.policy, progress=progress
            )
        finally:
            if progress is not None:
                progress.close()
    except SimUsageError as error:
        return _die(str(error), error.hints)
    except sim.GameFailed as error:
        return _die(
            str(error),
            (
                f"replay it with: cardc sim {args.game} --seed {args.seed} --mode {args.mode} "
                f"--policy {args.policy} --log-game {error.number}",
            ),
            status=1,
        )
    except sim.SimError as error:
        hints: tuple[str, ...] = ()
        if error.wrong is not None:
            hints = did_you_mean(error.wrong, error.candidates, 0.5)
        return _die(str(error), hints)
    except RuleError as error:
        return _die(str(error), status=1)
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        print(sim.render_report(report))
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``cardc sim`` to the ``cardc`` parser."""
    parser = commands.add_parser(
        "sim",
        help="simulate games with a policy: scores, titles, sink rate",
        description="Play many seeded games of a compiled game to the end with a policy and "
        "print mean, median, min and max score, the title distribution, the sink rate and, in "
        "competitive mode, the wins. The same seed always plays the same games.",
    )
    parser.add_argument("game", metavar="GAME", help="a game of this project (see generated/)")
    parser.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument(
        "--mode", default="solo", help="solo (default), competitive or coop (2 players)"
    )
    parser.add_argument("--policy", default="greedy", help="random or greedy (default)")
    parser.add_argument("--variant", help="simulate this variant (generated/<game>/<variant>/)")
    parser.add_argument(
        "--log",
        action="store_true",
        help="play one game and print it as the paper logbook would read, month by month",
    )
    parser.add_argument(
        "--log-game",
        dest="log_game",
        type=int,
        metavar="K",
        help="like --log, for game K of the run (--log prints game 1)",
    )
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=cmd_sim)
