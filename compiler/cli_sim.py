"""``cardc sim`` and ``cardc sweep``: play many seeded games of a compiled game with a policy
and sum them up.

``cardc sim GAME --games N --seed S [--mode solo|competitive|coop] [--policy P] [--variant V]
[--param NAME=VALUE] [--compare VARIANT|base] [--jobs N] [--scheduler ADDRESS] [--json]
[--report FILE.html] [--log | --log-game K]`` loads ``generated/<game>[/<variant>]/`` of the
current project and prints each figure with its 95% interval: the score and its distribution,
the sink rate and how games ended, the length, titles, wins per seat and per-card figures;
``--compare`` plays a second point on the same seeds and prints the paired differences.
``cardc sim --merge A.json B.json`` adds up runs written by ``--json``. ``cardc sweep`` plays a
grid of variants and parameter values on the same seeds.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from compiler.project import Project, find_project
from compiler.suggest import did_you_mean
from engine.modes import MODE_ALIASES

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
    from engine.loader import name_problem

    # By name only, inside generated/: a path would load and run a module elsewhere.
    for value, what in ((game, "game"), (variant, "variant")):
        problem = name_problem(value, what) if value is not None else None
        if problem:
            raise SimUsageError(problem, (f"the {what}s of this project: see generated/",))
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
        source = project.game_dir(game) / "variants" / f"{variant}.yaml"
        if source.is_file():
            # Its YAML is there: "it has no variants" was untrue.
            raise SimUsageError(
                f"'{game}' has no compiled variant '{variant}': {project.relative(source)} "
                "is not compiled",
                ("run 'cardc build' (it says what keeps the variant from compiling)",),
            )
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


def _die(
    message: str, hints: tuple[str, ...] = (), status: int = 2, program: str = "cardc sim"
) -> int:
    """Say what went wrong on stderr, headed by the command the user typed (``cardc sweep``
    shares these messages with ``cardc sim``); the exit status."""
    print(f"{program}: {message}", file=sys.stderr)
    for hint in hints:
        print(f"  hint: {hint}", file=sys.stderr)
    return status


def _params(pairs: list[str] | None, many: bool = False) -> dict[str, list[Any]]:
    """``NAME=VALUE`` (``NAME=V1,V2,...`` when ``many``) options as name -> values."""
    from dsl.parser import LARGEST_NUMBER
    from engine.sim import parse_value

    out: dict[str, list[Any]] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name or not value:
            raise SimUsageError(
                f"--param '{pair}' is not NAME=VALUE",
                ("for example --param rounds=10" + (",11,12" if many else ""),),
            )
        values = [parse_value(v.strip()) for v in (value.split(",") if many else [value])]
        for number in values:
            # A number a game can count with, as in a .cards file or a variant (README,
            # "Untrusted input"): nan and 1e309 were an internal error when the game read them.
            if (
                isinstance(number, float)
                and not math.isfinite(number)
                or (isinstance(number, (int, float)) and abs(number) > LARGEST_NUMBER)
            ):
                raise SimUsageError(
                    f"--param '{pair}': {number} is not a number a game can count with",
                    (f"give a whole or decimal number up to {LARGEST_NUMBER:,}",),
                )
        out[name.strip()] = values
    return out


def _mode(args: argparse.Namespace, folder: Path) -> str:
    """``--mode``; not given, solo for a game one can play, else competitive with the fewest
    players the game declares (``players 2..4``: Land vs Sea), kept for :func:`_players`."""
    from engine import sim

    if args.mode is None:
        least = _fewest_players(folder)
        args.seated = least if least > 1 else None
        return "solo" if least <= 1 else "competitive"
    mode = MODE_ALIASES.get(args.mode.lower(), args.mode)
    if mode not in sim.MODES:
        raise SimUsageError(
            f"no mode '{mode}'; modes: {', '.join(sim.MODES)}",
            did_you_mean(mode, sim.MODES, 0.5),
        )
    return mode


def _fewest_players(folder: Path) -> int:
    """The fewest players a compiled game declares (``players 2..4`` in game.cards); 1 when it
    declares none or its ``cards.json`` cannot be read (the simulator then says why)."""
    try:
        ir = json.loads((folder / "cards.json").read_text(encoding="utf-8"))
        declared = ir["vocabulary"].get("players")
        return int(declared[0]) if declared else 1
    except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError):
        return 1


def _executor(args: argparse.Namespace) -> Any:
    """The cluster's executor for ``--scheduler``, else None (local processes)."""
    if not getattr(args, "scheduler", None):
        return None
    from engine import sim_cluster

    try:
        return sim_cluster.executor(args.scheduler)
    except sim_cluster.ClusterError as error:
        raise SimUsageError(str(error), error.hints) from error


def _run_guarded(args: argparse.Namespace, body: Any) -> int:
    """Run ``body()``, turning every expected failure into a message and an exit status."""
    from engine import sim
    from engine.runtime import RuleError

    program = getattr(args, "program", "cardc sim")
    try:
        return int(body())
    except SimUsageError as error:
        return _die(str(error), error.hints, program=program)
    except sim.GameFailed as error:
        variant = f" --variant {args.variant}" if getattr(args, "variant", None) else ""
        return _die(
            str(error),
            (
                f"replay it with: cardc sim {args.game}{variant} --seed {args.seed} --mode "
                f"{args.mode} --policy {args.policy} --log-game {error.number}",
            ),
            status=1,
            program=program,
        )
    except sim.SimError as error:
        hints: tuple[str, ...] = ()
        if error.wrong is not None:
            hints = did_you_mean(error.wrong, error.candidates, 0.5)
        return _die(str(error), hints, program=program)
    except RuleError as error:
        return _die(str(error), status=1, program=program)
    except BrokenPipeError:
        raise  # cardc's main says nothing when a reader such as head stops reading
    except OSError as error:
        return _die(
            f"{error.filename or ''}: {error.strerror or error}".lstrip(": "),
            status=1,
            program=program,
        )


def _progress(args: argparse.Namespace) -> ProgressBar | None:
    if not args.quiet and sys.stderr.isatty():
        return ProgressBar(sys.stderr)
    return None


def _jobs(args: argparse.Namespace) -> int:
    from engine import sim

    if args.jobs is not None and args.jobs < 1:
        raise SimUsageError(f"--jobs must be at least 1, not {args.jobs}")
    return args.jobs or sim.default_jobs()


def _write_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=False))


def _merge(args: argparse.Namespace) -> int:
    """``cardc sim --merge A.json B.json ...``: one report of several runs."""
    from engine import sim

    reports = []
    for name in args.merge:
        path = Path(name)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as error:
            raise SimUsageError(
                f"{name}:{error.lineno}:{error.colno}: not JSON: {error.msg}",
                ("write a run's figures with: cardc sim GAME --json > run.json",),
            ) from error
        if not isinstance(data, dict):
            raise SimUsageError(f"{name}:1:1: not a cardc sim result")
        try:
            reports.append(sim.SimReport.from_dict(data))
        except (KeyError, TypeError, ValueError) as error:
            raise SimUsageError(
                f"{name}:1:1: not a cardc sim result (missing or wrong {error})",
                ("write a run's figures with: cardc sim GAME --json > run.json",),
            ) from error
    merged = reports[0]
    for other in reports[1:]:
        merged = merged.merged(other)
    _output(args, [merged], [], kind="sim")
    return 0


def _output(args: argparse.Namespace, reports: list[Any], pairs: list[Any], kind: str) -> None:
    """Print the reports (text or ``--json``) and write ``--report``."""
    from engine import sim_render
    from engine.sim_figures import differences, differences_as_dict

    if args.report:
        from engine import sim_html

        Path(args.report).write_text(
            sim_html.render(reports, pairs, kind, cards=not args.no_cards), encoding="utf-8"
        )
    if args.json:
        if len(reports) == 1:
            _write_json(reports[0].as_dict())
        else:
            _write_json(
                {
                    "format": "cardc-sim-points/2",
                    "kind": kind,
                    "points": [r.as_dict() for r in reports],
                    "differences": [
                        {
                            "base": reports[0].label,
                            "other": r.label,
                            **differences_as_dict(differences(reports[0], r, p)),
                        }
                        for r, p in zip(reports[1:], pairs, strict=True)
                    ],
                }
            )
        return
    if kind == "sweep":
        print(sim_render.render_sweep(reports, pairs))
    elif len(reports) == 2:
        print(sim_render.render_report(reports[0], cards=not args.no_cards))
        print()
        print(sim_render.render_report(reports[1], cards=not args.no_cards))
        print()
        print(sim_render.render_compare(reports[0], reports[1], pairs[0]))
    else:
        print(sim_render.render_report(reports[0], cards=not args.no_cards))
    if args.report:
        print(f"\nreport written to {args.report}")


def _warn_if_stale(project: Project, game: str) -> None:
    """Say so on stderr when ``game``'s sources (or cardc) changed since the last build: the
    simulation plays generated/, the last build's rules, not the cards as they are now. A
    warning, not a refusal as in cardc test: a designer may well compare the last build's
    game on purpose, but should not take its figures for the edited cards'."""
    from compiler.build import stale_games

    if game in stale_games(project):
        print(
            f"cardc sim: warning: generated/ is stale: {game} (or cardc itself) changed since "
            "the last 'cardc build', so these games play the last build's rules\n"
            "  hint: run 'cardc build' first",
            file=sys.stderr,
        )


def _variant_of(game: str, variant: str | None) -> tuple[str, str | None] | str:
    """``GAME/VARIANT`` read as ``GAME --variant VARIANT``, as ``cardc diff`` and ``cardc
    variant`` name a variant; the game and variant, or why the two disagree. Anything else
    with a '/' stays a path, which :func:`game_folder` refuses by name."""
    from engine.loader import NAME

    base, slash, named = game.partition("/")
    if not slash or not NAME.fullmatch(base) or not NAME.fullmatch(named):
        return game, variant
    if variant is not None and variant != named:
        return f"two variants named: '{game}' and --variant {variant}"
    return base, named


def cmd_sim(args: argparse.Namespace) -> int:
    """``cardc sim``: simulate games (``--compare`` a second point on the same seeds), print
    one game's logbook with ``--log``, or merge runs with ``--merge``."""
    from engine import sim

    if args.log or args.log_game is not None:
        # The logbook is one game's, in the paper logbook's words: what asks for a run's
        # figures was left unsaid (`--log --json` printed the logbook, no JSON).
        logbook = "--log" if args.log else "--log-game"
        asked = [
            option
            for option, given in (
                ("--json", args.json),
                ("--report", args.report),
                ("--compare", args.compare is not None),
                ("--merge", args.merge),
            )
            if given
        ]
        if asked:
            return _die(
                f"{logbook} prints one game's logbook, not a run's figures, so {asked[0]} "
                "cannot go with it",
                (
                    f"leave out {logbook} for the run's figures ({asked[0]}), or {asked[0]} for "
                    "the logbook",
                ),
            )
    if args.merge:
        return _run_guarded(args, lambda: _merge(args))
    if not args.game:
        return _die("name the game to simulate", ("cardc sim GAME, or cardc sim --merge A B",))
    split = _variant_of(args.game, args.variant)
    if isinstance(split, str):
        return _die(split, ("name it once: cardc sim GAME --variant VARIANT",))
    args.game, args.variant = split
    # "base" names the game itself, as '--compare base' and 'cardc sweep --variants base' do
    # ('--variant base' was refused: "no compiled variant 'base'").
    if args.variant == "base":
        args.variant = None
    project = find_project()
    if project is None:
        return _die(
            "no project here: no folder at or above this one holds cards/",
            ("cd into your project",),
        )
    if sim.games_problem(args.games):
        return _die(str(sim.games_problem(args.games)))

    def body() -> int:
        folder = game_folder(project, args.game, args.variant)
        _warn_if_stale(project, args.game)
        args.mode = _mode(args, folder)
        players = _players(args)
        params = {name: values[0] for name, values in _params(args.param).items()}
        if args.log or args.log_game is not None:
            number = 1 if args.log_game is None else args.log_game
            if number < 1:
                return _die(f"--log-game must be at least 1, not {number}")
            simulator = sim.Simulator(folder, params)
            played = sim.play_one(simulator, args.seed, number, args.mode, args.policy, players)
            # No calendar date: the same seed prints the same bytes on any day.
            print(sim.render_logbook(played, "-"))
            return 0
        points = [sim.Point.of(folder, params)]
        if args.compare is not None:
            other = None if args.compare == "base" else args.compare
            points.append(sim.Point.of(game_folder(project, args.game, other), params))
        executor = _executor(args)
        progress = _progress(args)
        try:
            run = sim.run_points(
                points,
                args.games,
                args.seed,
                args.mode,
                args.policy,
                players,
                progress=progress,
                jobs=_jobs(args),
                cards=not args.no_cards,
                executor=executor,
            )
        finally:
            if progress is not None:
                progress.close()
        _output(args, run.reports, run.pairs, kind="sim")
        return 0

    return _run_guarded(args, body)


def cmd_sweep(args: argparse.Namespace) -> int:
    """``cardc sweep``: every combination of the variants and parameter values named, played
    on the same seeds, each against the first."""
    import itertools

    from engine import sim

    args.program = "cardc sweep"
    project = find_project()
    if project is None:
        return _die(
            "no project here: no folder at or above this one holds cards/",
            ("cd into your project",),
            program=args.program,
        )
    if sim.games_problem(args.games):
        return _die(str(sim.games_problem(args.games)), program=args.program)
    args.variant = None

    def body() -> int:
        variants = [v.strip() for v in (args.variants or "base").split(",") if v.strip()]
        first = variants[0] if variants else "base"
        args.mode = _mode(args, game_folder(project, args.game, None if first == "base" else first))
        # --players N as for cardc sim: a house rule of a game for 2 to 4 is swept at 4 too.
        players = _players(args)
        grid = _params(args.param, many=True)
        names = list(grid)
        points = []
        for variant in variants:
            folder = game_folder(project, args.game, None if variant == "base" else variant)
            for values in itertools.product(*(grid[n] for n in names)):
                points.append(sim.Point.of(folder, dict(zip(names, values, strict=True))))
        if len(points) < 2:
            raise SimUsageError(
                "a sweep needs two points or more",
                ("name variants (--variants base,harsher_sea) or values (--param rounds=10,12)",),
            )
        executor = _executor(args)
        progress = _progress(args)
        try:
            run = sim.run_points(
                points,
                args.games,
                args.seed,
                args.mode,
                args.policy,
                progress=progress,
                jobs=_jobs(args),
                cards=False,
                executor=executor,
                players=players,
            )
        finally:
            if progress is not None:
                progress.close()
        args.no_cards = True
        _output(args, run.reports, run.pairs, kind="sweep")
        return 0

    return _run_guarded(args, body)


def _players(args: argparse.Namespace) -> int | None:
    """``--players N``: seats N players (2 or more play the competitive game); None: the mode's
    own count."""
    players = getattr(args, "players", None)
    if players is None:
        # No --mode either: the fewest players the game takes (:func:`_mode`).
        return getattr(args, "seated", None)
    if players < 1:
        raise SimUsageError(f"--players must be at least 1, not {players}", ())
    if players > 1 and args.mode == "solo":
        args.mode = "competitive"
    return int(players)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument(
        "--mode",
        default=None,
        help="solo, competitive or coop (2 players); default solo, or competitive with the "
        "fewest players a game for 2 or more takes",
    )
    parser.add_argument(
        "--policy",
        default="greedy",
        help="a policy the game offers (every game: random, greedy; a game's natives may add "
        "more, and an unknown name lists them; default greedy)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="worker processes (default: every core); the results do not depend on it",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster (tcp://host:8786); needs the [cluster] extra",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--report", metavar="FILE.html", help="write an HTML report with plots to FILE.html"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="seat N players (2 or more: the competitive game; default: the mode's count)",
    )


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``cardc sim`` and ``cardc sweep`` to the ``cardc`` parser."""
    parser = commands.add_parser(
        "sim",
        help="simulate games with a policy: scores, titles, sink rate, cards, with intervals",
        description="Play many seeded games of a compiled game to the end with a policy and "
        "print each figure with its 95% confidence interval: the score and its distribution, "
        "the sink rate and how games ended, the length, titles, wins per seat and per-card "
        "figures. The same seed always plays the same games.",
    )
    parser.add_argument(
        "game",
        metavar="GAME",
        nargs="?",
        help="a game of this project (see generated/); GAME/VARIANT is GAME --variant VARIANT",
    )
    _common(parser)
    parser.add_argument(
        "--variant",
        help="simulate this variant (generated/<game>/<variant>/); base: the game itself",
    )
    parser.add_argument(
        "--param",
        action="append",
        metavar="NAME=VALUE",
        help="override a declared param for this run (repeatable)",
    )
    parser.add_argument(
        "--compare",
        metavar="VARIANT",
        help="also play VARIANT (or 'base') on the same seeds and print the paired differences",
    )
    parser.add_argument(
        "--merge",
        nargs="+",
        metavar="RUN.json",
        help="add up runs written by --json (other seeds of the same game and settings)",
    )
    parser.add_argument(
        "--no-cards", dest="no_cards", action="store_true", help="leave out per-card figures"
    )
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
    parser.set_defaults(run=cmd_sim)

    sweep = commands.add_parser(
        "sweep",
        help="simulate a grid of variants and param values on the same seeds",
        description="Play every combination of the variants and param values named on the "
        "same seeds, and print each point's mean score and sink rate (a game without "
        "ships: its length) with the paired difference against the first point.",
    )
    sweep.add_argument("game", metavar="GAME", help="a game of this project (see generated/)")
    _common(sweep)
    sweep.add_argument(
        "--variants",
        metavar="V1,V2",
        help="variants to sweep, 'base' for the game itself (default: base)",
    )
    sweep.add_argument(
        "--param",
        action="append",
        metavar="NAME=V1,V2",
        help="a declared param and the values to sweep (repeatable: the grid is every combination)",
    )
    sweep.set_defaults(run=cmd_sweep, no_cards=True)
