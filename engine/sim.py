"""The simulator: many seeded games of one compiled game, played to the end by policies.

It is generic: any game whose own Python (``cards/<game>/natives.py``, :mod:`engine.api`) has a
``GAME_CLASS`` with ``play()`` and offers ``POLICIES = {name: factory}`` (``factory(game,
player_index) -> Policy``) can be simulated. ``play()`` returns a result with ``scores`` (per
player), ``team_score`` (co-op, else None), ``titles``, ``sunk`` (per player), ``winner``
(competitive, else None) and ``logbook`` (per player, per month). A game with no
``GAME_CLASS`` of its own is played by its DSL ``flow`` (:class:`engine.flow.FlowGame`) with the
generic policies of :mod:`engine.flow` (and its own natives, verbs and ``POLICIES``, which may
add to them).

Every game's seed is derived from the master seed and the game's number alone, so the same
master seed gives the same games, and the first N games of a longer run are the N games of a
shorter one (``cardc sim --log-game K`` replays game K of a run). A run is cut into chunks of
:data:`CHUNK` games whatever the number of processes; each chunk adds its games to exact integer
accumulators (:mod:`engine.sim_stats`) and the chunks are merged in order, so ``--jobs 1``,
``--jobs N`` and a cluster give the same report, byte for byte. Several *points* (the base game,
a variant, a parameter value) can be played on the same seeds in one run: every chunk plays
game n at every point, and the per-game differences against the first point make the paired
comparison.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from engine import flow as flow_runtime
from engine.api import Implementations, implementations
from engine.loader import game_rules, load_table, source_folder
from engine.modes import MODES
from engine.param_bounds import bound_problem
from engine.runtime import Game, HandlerTable, Policy, RuleError
from engine.sim_stats import Moments, histogram_moments, histogram_quantile
from engine.sim_tally import (
    ENDED_BY_CONDITION,
    NO_TITLE,
    PLAYED_OUT,
    SUNK,
    CardTally,
    Outcome,
    PairTally,
    Tally,
    outcome,
)

__all__ = [
    "CHUNK",
    "MODES",
    "NO_TITLE",
    "ENDED_BY_CONDITION",
    "PLAYED_OUT",
    "SUNK",
    "CardTally",
    "Chunk",
    "GameFailed",
    "Outcome",
    "PairTally",
    "Played",
    "Point",
    "Run",
    "SimError",
    "SimReport",
    "Simulator",
    "Tally",
    "game_seed",
    "outcome",
    "play_game",
    "play_one",
    "render_logbook",
    "render_report",
    "run_chunk",
    "run_points",
    "simulate",
]


#: What a game flow's result must carry.
RESULT_FIELDS = ("scores", "team_score", "titles", "sunk", "winner", "logbook")

#: A policy factory, as a game module's ``POLICIES`` maps names to them.
PolicyFactory = Callable[[Game, int], Policy]

#: Games per chunk: the unit of work of every executor, fixed so that any number of processes
#: cuts a run the same way (large enough that sending a chunk's tally back costs nothing).
CHUNK = 500

#: The version of the JSON a run writes (``--json``) and ``--merge`` reads.
FORMAT = "cardc-sim/2"


class SimError(RuleError):
    """The simulation cannot run as asked (unknown mode or policy, a game without a flow)."""

    def __init__(self, message: str, wrong: str | None = None, candidates: Sequence[str] = ()):
        super().__init__(message)
        #: The name that was not found and the names that would have been, for a CLI's
        #: "did you mean" (the engine does not depend on the compiler's hints).
        self.wrong = wrong
        self.candidates = tuple(candidates)


def _takes_three(check: Callable[..., Any]) -> bool:
    """Whether a card check takes the game's vocabulary as a third argument (engine.api)."""
    try:
        params = list(inspect.signature(check).parameters.values())
    except (TypeError, ValueError):
        return False
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return len(positional) >= 3 or any(p.kind == p.VAR_POSITIONAL for p in params)


def round_count_params(ir: Mapping[str, Any]) -> set[str]:
    """The params that count a game's rounds: ``rounds`` (cardc check holds it to 1 or more
    wherever it is declared) and the one the flow's ``round N`` names."""
    counted = {"rounds"}
    for section in (ir.get("flow") or {}).get("sections", []):
        count = section.get("count") or {}
        if section.get("section") == "round" and count.get("kind") == "param":
            counted.add(str(count["name"]))
    return counted


class GameFailed(RuleError):
    """One simulated game raised: which game, with which seed, and why."""

    def __init__(self, number: int, seed: int, error: Exception):
        super().__init__(f"game {number} (game seed {seed}) failed: {error}")
        self.number = number
        self.seed = seed
        self.error = error


def _seat(factory: PolicyFactory, game: Game, index: int) -> Policy:
    """The policy ``factory`` makes for seat ``index``; a failure of the game's own factory
    (its ``POLICIES``) is a :class:`SimError` naming it and where it failed, not a bug of cardc."""
    try:
        return factory(game, index)
    except Exception as error:  # noqa: BLE001 - the designer's factory, reported with its line
        import traceback

        frames = traceback.extract_tb(error.__traceback__)
        where = f"{frames[-1].filename}:{frames[-1].lineno}:1: " if frames else ""
        name = getattr(factory, "__name__", repr(factory))
        raise SimError(
            f"{where}the policy factory {name} failed seating player {index + 1}: "
            f"{type(error).__name__}: {error} (fix it there: a factory of POLICIES takes "
            "the game and the seat's index and returns the seat's policy)"
        ) from error


def _game_flow(cls: type) -> Callable[..., Any] | None:
    """The method that plays a whole game: ``play_game`` when the class has one, else a
    ``play`` of its own. ``Game.play(c, card)`` is the prelude's verb (play a held card), not a
    game flow, so a class that only inherits it has none."""
    flow = getattr(cls, "play_game", None)
    if callable(flow):
        return flow
    flow = getattr(cls, "play", None)
    if callable(flow) and flow is not Game.play:
        return flow
    return None


def play_game(game: Game) -> Any:
    """Play ``game`` to its end with its game flow; return the flow's result (its fields as
    attributes, also when the flow returns them as a mapping)."""
    flow = _game_flow(type(game))
    if flow is None:
        raise SimError(f"{type(game).__name__} has no game flow (play() or play_game())")
    result = flow(game)
    if isinstance(result, Mapping):
        result = SimpleNamespace(**result)
    missing = [name for name in RESULT_FIELDS if not hasattr(result, name)]
    if missing:
        raise SimError(f"{type(game).__name__}'s result has no {', '.join(missing)}")
    return result


def game_seed(master_seed: int, number: int) -> int:
    """The seed of game ``number`` (1-based) of a run seeded ``master_seed``.

    A hash rather than a generator stream, so a game's seed depends on its number only, never
    on how many games the run plays.
    """
    digest = hashlib.blake2b(f"{master_seed}:{number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def _guided_lookahead(guide: PolicyFactory, game: Game, index: int) -> Policy:
    """The generic lookahead, guided by the game's own greedy player (engine.flow.Lookahead)."""
    return flow_runtime.Lookahead(guide(game, index))


def players_for(mode: str) -> int:
    """How many players ``mode`` seats."""
    if mode not in MODES:
        raise SimError(f"'{mode}' is not a mode; modes: {', '.join(MODES)}", mode, tuple(MODES))
    return MODES[mode]


def parse_value(text: str) -> Any:
    """A parameter value typed on the command line: a whole number, a number, else the text."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@dataclass
class Simulator:
    """One compiled game, loaded once, that makes seeded games with the same binding as
    :func:`engine.loader.new_game` (``GAME_CLASS``, ``NATIVES``, ``VERBS``).

    The IR and handlers are read once and shared by every game: reading ``cards.json`` again
    for each of thousands of games would cost more than playing them. Games must treat the IR
    as read-only (the tests check that a played game leaves it unchanged). ``params`` overrides
    the game's declared ``param`` values (a parameter sweep) on a copy of the IR.
    """

    folder: Path
    params: Mapping[str, Any] = field(default_factory=dict)
    ir: dict[str, Any] = field(init=False)
    table: HandlerTable = field(init=False)
    rules: ModuleType | None = field(init=False)
    #: The game's natives and verbs (:func:`engine.api.implementations`), found once.
    implementations: Implementations = field(init=False)
    #: The game's source folder (``cards/<game>``) when it is not the compiled folder's own
    #: (a point shipped to a cluster worker).
    source: Path | None = None

    def __post_init__(self) -> None:
        self.ir, self.table = load_table(self.folder)
        self.rules = game_rules(self.ir["game"], self.folder, source=self.source)
        self.implementations = implementations(self.rules)
        if self.params:
            declared = self.ir["vocabulary"]["params"]
            for name in self.params:
                if name not in declared:
                    raise SimError(
                        f"'{self.name}' declares no param '{name}'; params: "
                        + (", ".join(sorted(declared)) or "none"),
                        name,
                        tuple(declared),
                    )
            for name in self.params:
                if name in round_count_params(self.ir):
                    value = self.params[name]
                    if not isinstance(value, (int, float)) or value < 1 or value != int(value):
                        # As a variant's `params: {rounds: 0}` is (round-count): a game of no
                        # rounds played nothing and was reported as 1 round long.
                        raise SimError(
                            f"'{name}' is the game's number of rounds: a game lasts at least 1 "
                            f"round, a whole number, not {value!r} (--param {name}=5)"
                        )
                bounds = self.ir["vocabulary"].get("param_bounds", {}).get(name)
                problem = bound_problem(name, self.params[name], bounds) if bounds else None
                if problem is not None:
                    # As a variant's `params: {die_sides: 0}` is (param-bounds): the bounds
                    # game.cards declares, in the same words.
                    detail, hint = problem
                    raise SimError(f"--param {name}={self.params[name]}: {detail} ({hint})")
            vocabulary = {**self.ir["vocabulary"], "params": {**declared, **self.params}}
            self.ir = {**self.ir, "vocabulary": vocabulary}
            self._check_params()

    def _check_params(self) -> None:
        """Hold the parameters a run overrides to the game's own checks (``CARD_CHECKS``),
        as ``cardc check`` holds a variant's ``params:`` to them: ``--param stacks=0`` played
        Land vs Sea's games without a word, ``--param die_sides=0`` failed the first roll-off."""
        from engine.api import CardError, names_in

        checks = getattr(self.rules, "CARD_CHECKS", None) or {}
        cards = {str(card["id"]): card for card in self.ir["cards"]}
        vocabulary = self.ir["vocabulary"]
        for card in cards.values():
            check = checks.get(card["kind"])
            if check is None:
                continue
            try:
                returned = (
                    check(card, cards, vocabulary) if _takes_three(check) else check(card, cards)
                )
            except CardError as raised:
                returned = [raised]
            except Exception:  # noqa: BLE001 - a card's own problem is cardc check's to say
                continue
            for problem in returned or ():
                names = getattr(problem, "param", None)
                if not isinstance(problem, CardError) or names is None:
                    continue
                # A problem of two parameters together names both: the one this run set.
                for name in names_in(names):
                    if name in self.params:
                        hint = f" ({problem.hint})" if problem.hint else ""
                        raise SimError(
                            f"--param {name}={self.params[name]}: {problem.detail}{hint}"
                        )

    @property
    def name(self) -> str:
        """The game's name (its folder under cards/)."""
        return str(self.ir["game"])

    @property
    def title(self) -> str:
        """The game's title."""
        return str(self.ir.get("title") or self.name)

    @property
    def variant(self) -> str | None:
        """The variant's name (``cards.json``'s ``variant``), None for the base game."""
        variant = self.ir.get("variant")
        return str(variant) if variant else None

    @property
    def generic(self) -> bool:
        """True when the game has no ``GAME_CLASS`` of its own: its DSL flow plays it
        (engine.flow.FlowGame), with the generic policies."""
        return getattr(self.rules, "GAME_CLASS", None) is None

    def _game_class(self) -> type[Game]:
        if self.generic:
            return flow_runtime.FlowGame
        return getattr(self.rules, "GAME_CLASS", Game)  # type: ignore[no-any-return]

    def check_flow(self) -> None:
        """Refuse, with what to declare, a game its flow cannot play."""
        if "flow" not in self.ir:
            raise SimError(
                f"'{self.name}' declares no flow, so it cannot be simulated: add a "
                "'flow { ... }' declaration to its cards (README, \"The flow\") and run "
                "'cardc build'"
            )
        if not self.ir["vocabulary"].get("score"):
            raise SimError(
                f"'{self.name}' declares no score counter, and its flow's winner is decided "
                "by the score: add 'score victory_points' (one of its counters) to its game "
                "block"
            )

    def policies(self) -> dict[str, PolicyFactory]:
        """The game's policy factories, by name (its ``POLICIES``, engine.api); an error when
        it cannot be simulated."""
        own = dict(getattr(self.rules, "POLICIES", None) or {})
        if issubclass(self._game_class(), flow_runtime.FlowGame):
            self.check_flow()
            merged = {**flow_runtime.POLICIES, **own}
            guide = own.get("greedy")
            if guide is not None and "lookahead" not in own:
                # The game's own greedy player guides the lookahead: its pick is weighed first,
                # so ties go to it, and never left out of a wide question's spread.
                merged["lookahead"] = partial(_guided_lookahead, guide)
            return merged
        cls = getattr(self.rules, "GAME_CLASS", None)
        if not own or cls is None or _game_flow(cls) is None:
            where = getattr(self.rules, "__file__", None) or f"cards/{self.name}/natives.py"
            raise SimError(
                f"'{self.name}' cannot be simulated yet: {where} needs a GAME_CLASS with play() "
                "and POLICIES (policy name -> factory); a game with no GAME_CLASS of its own "
                "is played by its DSL flow (engine/flow.py)"
            )
        return own

    def factory(self, policy: str) -> PolicyFactory:
        """The factory of the policy named ``policy``; an error with a hint when unknown."""
        policies = self.policies()
        if policy not in policies:
            raise SimError(
                f"'{self.name}' has no policy '{policy}'; policies: {', '.join(sorted(policies))}",
                policy,
                tuple(policies),
            )
        return policies[policy]

    def check_players(self, players: int) -> None:
        """Refuse a player count the game does not declare (``players 1..2``)."""
        declared = self.ir["vocabulary"].get("players")
        if declared and not declared[0] <= players <= declared[1]:
            # The default mode is solo: a game for 2 or more says how to seat them.
            competitive = " (or --mode competitive)" if declared[0] == MODES["competitive"] else ""
            fix = (
                f"; seat them with --players {declared[0]}{competitive}"
                if players < declared[0]
                else f"; seat at most {declared[1]} with --players {declared[1]}"
            )
            raise SimError(
                f"'{self.name}' is for {declared[0]} to {declared[1]} players, not {players}{fix}"
            )

    def check_mode(self, mode: str) -> None:
        """Refuse a mode the game's Python says it has not (``MODES`` in its natives.py: Land
        vs Sea's sides are always competitive, never a co-op team of every seat)."""
        modes = getattr(self.rules, "MODES", None)
        if modes and mode not in modes:
            # A mode of another game is no misspelling: "did you mean 'coop'?" for solo (their
            # letters alike) sent the player the wrong way; the modes it has are named.
            known = mode in MODES
            raise SimError(
                f"'{self.name}' has no {mode} mode; its modes: {', '.join(modes)}",
                None if known else mode,
                () if known else tuple(modes),
            )

    def new_game(self, seed: int, players: int, mode: str, policy: PolicyFactory) -> Game:
        """A fresh game, as :func:`engine.loader.new_game` makes it, with one policy per seat.

        Policies are made after the game, since a factory takes the game it plays.
        """
        game: Game = self._game_class()(
            self.ir,
            self.table,
            policies={},
            seed=seed,
            player_count=players,
            natives=dict(self.implementations.natives),
            verbs=dict(self.implementations.verbs),
            mode=mode,
        )
        game.policies = {index: _seat(policy, game, index) for index in range(players)}
        return game


@dataclass(frozen=True)
class Played:
    """One game of a run: its number, seed, the game (after play) and its result."""

    number: int
    seed: int
    game: Game
    result: Any


def play_one(
    folder: Path | Simulator,
    seed: int,
    number: int = 1,
    mode: str = "solo",
    policy: str = "greedy",
    players: int | None = None,
) -> Played:
    """Play game ``number`` of a run seeded ``seed`` (the game ``simulate`` plays as that
    number), keeping the game so its logbook and tracks can be shown."""
    sim = folder if isinstance(folder, Simulator) else Simulator(Path(folder))
    seats = players_for(mode) if players is None else players
    sim.check_mode(mode)
    sim.check_players(seats)
    factory = sim.factory(policy)
    seed_of_game = game_seed(seed, number)
    game = sim.new_game(seed_of_game, seats, mode, factory)
    try:
        result = play_game(game)
    except Exception as error:  # noqa: BLE001 - reported with the game and seed to replay it
        raise GameFailed(number, seed_of_game, error) from error
    return Played(number, seed_of_game, game, result)


# -- points, chunks and executors


@dataclass(frozen=True)
class Point:
    """One configuration a run plays: a compiled folder and parameter overrides.

    ``files`` carries the folder's ``cards.json`` and ``handlers.py``, and the game's own Python
    (its source folder, ``cards/<game>``), for workers on other machines, which may not see
    this file system (see :mod:`engine.sim_cluster`).
    """

    folder: str
    params: tuple[tuple[str, Any], ...] = ()
    label: str = ""
    files: tuple[tuple[str, bytes], ...] = ()

    @classmethod
    def of(
        cls, folder: Path | str, params: Mapping[str, Any] | None = None, label: str = ""
    ) -> Point:
        """A point for ``folder`` (with ``params``)."""
        return cls(str(folder), tuple(sorted((params or {}).items())), label)

    def with_files(self) -> Point:
        """The same point, carrying its compiled files and its game's own Python.

        Named as they sit in a project (``generated/<game>/[<variant>/]`` with ``schema/``
        beside them, ``cards/<game>/``): a worker validates the IR against its build's schema,
        and that it is the folder's own, before it runs the handlers, as every load does, and
        finds the game's natives beside its cards as a local load does.
        """
        from engine.loader import IR_SCHEMA, schema_beside

        folder = Path(self.folder)
        schema = schema_beside(folder)
        if schema is None:
            names = [(n, folder / n) for n in ("cards.json", "handlers.py")]
        else:
            root = schema.parent.parent
            rel = folder.resolve().relative_to(root.resolve()).as_posix()
            names = [(f"generated/{rel}/{n}", folder / n) for n in ("cards.json", "handlers.py")]
            names.append((f"generated/{IR_SCHEMA.as_posix()}", schema))
            source = source_folder(folder)
            if source is not None and source.is_dir():
                game = source.name
                names += [
                    (f"cards/{game}/{path.relative_to(source).as_posix()}", path)
                    for path in sorted(source.rglob("*"))
                    if path.is_file() and not _print_only(path.relative_to(source))
                ]
        files = tuple((name, path.read_bytes()) for name, path in names)
        return Point(self.folder, self.params, self.label, files)


def _print_only(rel: Path) -> bool:
    """Files of a game's folder a simulation never reads: the sheets' art and styles, and
    Python's caches."""
    return rel.parts[0] in ("sheets", "art") or "__pycache__" in rel.parts


@dataclass(frozen=True)
class Chunk:
    """Games ``first`` .. ``last`` (1-based, inclusive) of a run, at every point."""

    points: tuple[Point, ...]
    seed: int
    mode: str
    policy: str
    players: int
    first: int
    last: int
    cards: bool = True


#: Simulators by point, per process: a worker loads each compiled game once, however many
#: chunks it plays (a forked worker inherits the parent's).
_SIMULATORS: dict[tuple[str, tuple[tuple[str, Any], ...], str], Simulator] = {}


def _files_digest(point: Point) -> str:
    h = hashlib.blake2b(digest_size=12)
    for name, data in point.files:
        h.update(name.encode() + b"\0" + data)
    return h.hexdigest()


def simulator_for(point: Point) -> Simulator:
    """The simulator of ``point``, made once per process; a point carrying its files is
    loaded from them (written once to a temporary folder named by their digest)."""
    digest = _files_digest(point) if point.files else ""
    key = (point.folder, point.params, digest)
    sim = _SIMULATORS.get(key)
    if sim is None:
        folder = Path(point.folder)
        source: Path | None = None
        if point.files:
            import tempfile

            # Written as they sat in the project; the game's folder is where its cards.json is.
            base = Path(tempfile.gettempdir()) / f"cardc-sim-{digest}"
            cards = next(n for n, _ in point.files if n.endswith("cards.json"))
            folder = (base / cards).parent
            # The game's own Python is the shipped cards/<game>/ (or none), never a folder
            # that happens to lie above the temporary one.
            inside = folder.relative_to(base).parts
            source = base / "cards" / (inside[1] if inside[:1] == ("generated",) else "_")
            for name, data in point.files:
                target = base / name
                target.parent.mkdir(parents=True, exist_ok=True)
                if not target.is_file() or target.read_bytes() != data:
                    # Written aside and renamed: workers on one machine share the folder, and
                    # one must never load a file another is halfway through writing.
                    import os

                    part = target.parent / f".{target.name}.{os.getpid()}"
                    part.write_bytes(data)
                    os.replace(part, target)
        sim = _SIMULATORS[key] = Simulator(folder, dict(point.params), source=source)
    return sim


@dataclass
class ChunkResult:
    """A chunk's tallies (one per point, and one pair tally per point after the first), or
    the game that failed (an exception need not survive being sent between processes)."""

    tallies: list[Tally]
    pairs: list[PairTally]
    failed: tuple[int, int, str] | None = None


def run_chunk(chunk: Chunk) -> ChunkResult:
    """Play one chunk at every point; what a worker process or a cluster task runs."""
    sims = [simulator_for(point) for point in chunk.points]
    factories = [sim.factory(chunk.policy) for sim in sims]
    tallies = [Tally() for _ in sims]
    pairs = [PairTally() for _ in sims[1:]]
    mode, players, cards = chunk.mode, chunk.players, chunk.cards
    for number in range(chunk.first, chunk.last + 1):
        seed_of_game = game_seed(chunk.seed, number)
        outcomes = []
        for sim, factory, tally in zip(sims, factories, tallies, strict=True):
            game = sim.new_game(seed_of_game, players, mode, factory)
            try:
                result = play_game(game)
            except Exception as error:  # noqa: BLE001 - reported with the game and seed
                return ChunkResult(tallies, pairs, (number, seed_of_game, str(error)))
            played = outcome(game, result, mode, cards)
            tally.add(played)
            outcomes.append(played)
        for pair, played in zip(pairs, outcomes[1:], strict=True):
            pair.add(outcomes[0], played)
    return ChunkResult(tallies, pairs)


#: The most games one run plays: a billion take days on one core (bench/sim.py's goal is a
#: thousand a second), and a run's chunks are listed before the first is played, so a number
#: past any run's length (--games 99999999999999999999) ran out of memory instead.
MAX_GAMES = 10**9


def games_problem(games: int) -> str | None:
    """Why ``games`` is no run's number of games (below 1, or past :data:`MAX_GAMES`)."""
    if games < 1:
        return f"--games must be at least 1, not {games}"
    if games > MAX_GAMES:
        return f"--games is at most {MAX_GAMES:,} (a billion games take days), not {games:,}"
    return None


def chunks_of(games: int, size: int = CHUNK) -> list[tuple[int, int]]:
    """The (first, last) games of each chunk of a run of ``games`` games."""
    return [(start, min(start + size - 1, games)) for start in range(1, games + 1, size)]


#: Something that runs chunks and yields their results in chunk order: the local executor
#: below, or a cluster's (:func:`engine.sim_cluster.executor`).
Executor = Callable[[Sequence[Chunk]], Iterator[ChunkResult]]


def default_jobs() -> int:
    """Every core this process may use."""
    import os

    if hasattr(os, "sched_getaffinity"):
        return max(len(os.sched_getaffinity(0)), 1)
    return max(os.cpu_count() or 1, 1)


def local_executor(jobs: int) -> Executor:
    """Run chunks in this process (``jobs`` 1) or in ``jobs`` worker processes. Workers are
    forked where the OS can, so they inherit the simulators already loaded (and any game module
    registered by hand); results come back in chunk order."""

    def run(chunks: Sequence[Chunk]) -> Iterator[ChunkResult]:
        if jobs <= 1 or len(chunks) <= 1:
            for chunk in chunks:
                yield run_chunk(chunk)
            return
        import gc
        import multiprocessing

        methods = multiprocessing.get_all_start_methods()
        forking = "fork" in methods
        if forking:
            # One game here first, discarded: what a game flow works out once per compiled
            # game (its tables, its map) is then inherited by every worker instead of being
            # worked out again in each. Freezing the collector's objects keeps the workers from
            # copying the pages they share with this process.
            run_chunk(dataclasses.replace(chunks[0], last=chunks[0].first))
            gc.freeze()
        context = multiprocessing.get_context("fork" if forking else None)
        try:
            with context.Pool(min(jobs, len(chunks))) as pool:
                yield from pool.imap(run_chunk, chunks)
        finally:
            if forking:
                gc.unfreeze()

    return run


@dataclass
class Run:
    """What a run of several points came to: a report per point, the paired differences of
    each point after the first against the first."""

    reports: list[SimReport]
    pairs: list[PairTally]


def run_points(
    points: Sequence[Point],
    games: int,
    seed: int,
    mode: str = "solo",
    policy: str = "greedy",
    players: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
    cards: bool = True,
    executor: Executor | None = None,
    simulators: Sequence[Simulator] | None = None,
) -> Run:
    """Play games 1..``games`` of master seed ``seed`` at every point, on the same seeds.

    The run is cut into chunks of :data:`CHUNK` games, played by ``executor`` (default: this
    process, or ``jobs`` processes) and merged in chunk order; the result does not depend on
    who played which chunk. ``progress(done, total)`` is called after each chunk.
    """
    problem = games_problem(games)
    if problem:
        raise SimError(problem)
    if not points:
        raise SimError("nothing to simulate")
    seats = players_for(mode) if players is None else players
    # Loaded afresh for each run (a game rebuilt or a module replaced since the last run is
    # seen), and kept where this process's chunks and its forked workers find them.
    sims = (
        list(simulators)
        if simulators
        else [Simulator(Path(p.folder), dict(p.params)) for p in points]
    )
    _SIMULATORS.clear()
    for point, made in zip(points, sims, strict=True):
        _SIMULATORS[(point.folder, point.params, "")] = made
    for sim in sims:
        sim.check_mode(mode)
        sim.check_players(seats)
        sim.factory(policy)
    chunks = [
        Chunk(tuple(points), seed, mode, policy, seats, first, last, cards)
        for first, last in chunks_of(games)
    ]
    tallies = [Tally() for _ in points]
    pairs = [PairTally() for _ in points[1:]]
    run = executor or local_executor(jobs)
    for result in run(chunks):
        if result.failed is not None:
            number, seed_of_game, message = result.failed
            raise GameFailed(number, seed_of_game, RuleError(message))
        for tally, part in zip(tallies, result.tallies, strict=True):
            tally.merge(part)
        for pair, part_pair in zip(pairs, result.pairs, strict=True):
            pair.merge(part_pair)
        if progress is not None:
            progress(tallies[0].games, games)
    reports = [
        SimReport.of(sim, point, mode, policy, seed, seats, tally)
        for sim, point, tally in zip(sims, points, tallies, strict=True)
    ]
    return Run(reports, pairs)


def simulate(
    folder: Path | Simulator,
    games: int,
    seed: int,
    mode: str = "solo",
    policy: str = "greedy",
    players: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    jobs: int = 1,
    params: Mapping[str, Any] | None = None,
    cards: bool = True,
    executor: Executor | None = None,
) -> SimReport:
    """Play ``games`` seeded games of the compiled game in ``folder`` and sum them up.

    Game ``n`` (1-based) is seeded :func:`game_seed` ``(seed, n)``; the same arguments always
    give the same report, whatever ``jobs`` is.
    """
    given: list[Simulator] = []
    if isinstance(folder, Simulator):
        point = Point.of(folder.folder, {**folder.params, **(params or {})})
        if not params:
            given = [folder]
    else:
        point = Point.of(folder, params)
    return run_points(
        [point], games, seed, mode, policy, players, progress, jobs, cards, executor, given
    ).reports[0]


# -- the report


@dataclass(frozen=True)
class SimReport:
    """What a run of games came to: its names (game, variant, params, policy, mode, seeds) and
    its :class:`Tally`. ``runs`` lists the (seed, games) runs merged into it."""

    game: str
    title: str
    variant: str | None
    params: tuple[tuple[str, Any], ...]
    mode: str
    policy: str
    runs: tuple[tuple[int, int], ...]
    players: int
    tally: Tally
    #: (card id, title) of the cards in the tally, for the per-card table, and of the sources
    #: of points (a scoring layer's card), for the points per layer.
    card_titles: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(
        cls,
        sim: Simulator,
        point: Point,
        mode: str,
        policy: str,
        seed: int,
        players: int,
        tally: Tally,
    ) -> SimReport:
        """The report of one point's run."""
        return cls(
            sim.name,
            sim.title,
            sim.variant,
            point.params,
            mode,
            policy,
            ((seed, tally.games),),
            players,
            tally,
            # The cards' titles, and the titles of the sources points were kept by.
            tuple(
                (c, _card_title(sim.ir, c)) for c in sorted(set(tally.cards) | set(tally.points_by))
            ),
        )

    @property
    def seed(self) -> int:
        """The master seed (the first run's, when runs were merged)."""
        return self.runs[0][0]

    @property
    def games(self) -> int:
        """Games played."""
        return self.tally.games

    @property
    def label(self) -> str:
        """The point in words: the variant and parameter values, or "base"."""
        parts = [self.variant] if self.variant else []
        parts += [f"{k}={v}" for k, v in self.params]
        return " ".join(parts) or "base"

    @property
    def score(self) -> Moments:
        """The moments of the scores."""
        return histogram_moments(self.tally.scores)

    @property
    def mean(self) -> float:
        """Mean score."""
        return self.score.mean

    @property
    def median(self) -> float:
        """Median score."""
        return histogram_quantile(self.tally.scores, 0.5)

    @property
    def min(self) -> int:
        """Lowest score."""
        return min(self.tally.scores, default=0)

    @property
    def max(self) -> int:
        """Highest score."""
        return max(self.tally.scores, default=0)

    @property
    def afloat_mean(self) -> float | None:
        """Mean score of the samples whose ship(s) stayed afloat; None when every one sank."""
        return self.tally.afloat.mean if self.tally.afloat.n else None

    @property
    def sink_rate(self) -> float:
        """Share of games in which a ship sank (either ship: in co-op that loses both)."""
        return self.tally.games_with_sinking / self.games if self.games else 0.0

    @property
    def games_with_sinking(self) -> int:
        """Games in which a ship sank."""
        return self.tally.games_with_sinking

    @property
    def ships_sunk(self) -> int:
        """Ships sunk, all games together."""
        return self.tally.ships_sunk

    @property
    def titles(self) -> tuple[tuple[str, int], ...]:
        """Titles and their counts, in the order of their bands (by the mean score of the
        samples that earned them)."""
        scores = self.tally.title_scores
        ordered = sorted(self.tally.titles, key=lambda t: (scores[t].mean, t))
        return tuple((t, self.tally.titles[t]) for t in ordered)

    @property
    def wins(self) -> tuple[tuple[str, int], ...]:
        """Who won how many games (competitive), by label."""
        return tuple(sorted(self.tally.wins.items()))

    def merged(self, other: SimReport) -> SimReport:
        """This report and ``other`` (another run of the same game, point, policy and mode,
        with another seed) as one; an error when they do not describe the same thing or
        share games."""
        mine = (self.game, self.variant, self.params, self.mode, self.policy, self.players)
        theirs = (other.game, other.variant, other.params, other.mode, other.policy, other.players)
        if mine != theirs:
            raise SimError(
                f"cannot merge a run of {other.label} ({other.mode}, policy {other.policy}) "
                f"into one of {self.label} ({self.mode}, policy {self.policy}): "
                "game, variant, params, mode, policy and players must be the same"
            )
        seeds = {seed for seed, _ in self.runs}
        for seed, _ in other.runs:
            if seed in seeds:
                raise SimError(
                    f"both runs played master seed {seed}: merging them would count the same "
                    "games twice; run the other part with another --seed"
                )
        tally = Tally().merge(self.tally).merge(other.tally)
        return SimReport(
            self.game,
            self.title,
            self.variant,
            self.params,
            self.mode,
            self.policy,
            self.runs + other.runs,
            self.players,
            tally,
            tuple(sorted(dict(self.card_titles + other.card_titles).items())),
        )

    def as_dict(self) -> dict[str, Any]:
        """The report as plain data (``--json``): its names, the figures with their
        intervals, and the raw tally that ``--merge`` adds up."""
        from engine.sim_figures import figures

        return {
            "format": FORMAT,
            "game": self.game,
            "title": self.title,
            "variant": self.variant,
            "params": dict(self.params),
            "mode": self.mode,
            "policy": self.policy,
            "seed": self.seed,
            "runs": [{"seed": s, "games": g} for s, g in self.runs],
            "games": self.games,
            "players": self.players,
            "card_titles": dict(self.card_titles),
            **figures(self),
            "tally": self.tally.as_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SimReport:
        """A report from :meth:`as_dict` (a ``--json`` file)."""
        if data.get("format") != FORMAT:
            raise SimError(
                f"not a cardc sim result (format {data.get('format')!r}, expected {FORMAT!r}); "
                "write one with cardc sim --json"
            )
        return cls(
            str(data["game"]),
            str(data["title"]),
            data.get("variant"),
            tuple(sorted(data.get("params", {}).items())),
            str(data["mode"]),
            str(data["policy"]),
            tuple((int(r["seed"]), int(r["games"])) for r in data["runs"]),
            int(data["players"]),
            Tally.from_dict(data["tally"]),
            tuple(sorted(data.get("card_titles", {}).items())),
        )


def _card_title(ir: Mapping[str, Any], card: str) -> str:
    for entry in ir["cards"]:
        if entry["id"] == card:
            return str(entry.get("title") or card)
    return card


# The renderers live beside the simulator; ``sim.render_report`` is their old address.
from engine.sim_render import render_logbook as render_logbook  # noqa: E402
from engine.sim_render import render_report as render_report  # noqa: E402
