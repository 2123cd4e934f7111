"""The simulator: many seeded games of one compiled game, played to the end by policies.

It is generic: any game module (``engine.games.<game>``) whose ``GAME_CLASS`` has ``play()``
and which offers ``POLICIES = {name: factory}`` (``factory(game, player_index) -> Policy``) can
be simulated. ``play()`` returns a result with ``scores`` (per player), ``team_score`` (co-op,
else None), ``titles``, ``sunk`` (per player), ``winner`` (competitive, else None) and
``logbook`` (per player, per month).

Every game's seed is derived from the master seed and the game's number alone, so the same
master seed gives the same games, and the first N games of a longer run are the N games of a
shorter one (``cardc sim --log-game K`` replays game K of a run).
"""

from __future__ import annotations

import hashlib
import statistics
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

from engine.loader import game_rules, load_table
from engine.runtime import Game, HandlerTable, Policy, RuleError

#: The player modes a game may be simulated in, and how many players each seats.
MODES: dict[str, int] = {"solo": 1, "competitive": 2, "coop": 2}

#: What a game flow's result must carry.
RESULT_FIELDS = ("scores", "team_score", "titles", "sunk", "winner", "logbook")

#: A policy factory, as a game module's ``POLICIES`` maps names to them.
PolicyFactory = Callable[[Game, int], Policy]

#: How a report shows a game without a title: a sunk ship ("you are lost to history without
#: leaving any record"), and any other game the flow gave no title.
SUNK = "(sunk: lost to history)"
NO_TITLE = "(no title)"


class SimError(RuleError):
    """The simulation cannot run as asked (unknown mode or policy, a game without a flow)."""

    def __init__(self, message: str, wrong: str | None = None, candidates: Sequence[str] = ()):
        super().__init__(message)
        #: The name that was not found and the names that would have been, for a CLI's
        #: "did you mean" (the engine does not depend on the compiler's hints).
        self.wrong = wrong
        self.candidates = tuple(candidates)


class GameFailed(RuleError):
    """One simulated game raised: which game, with which seed, and why."""

    def __init__(self, number: int, seed: int, error: Exception):
        super().__init__(f"game {number} (game seed {seed}) failed: {error}")
        self.number = number
        self.seed = seed
        self.error = error


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


def players_for(mode: str) -> int:
    """How many players ``mode`` seats."""
    if mode not in MODES:
        raise SimError(f"'{mode}' is not a mode; modes: {', '.join(MODES)}", mode, tuple(MODES))
    return MODES[mode]


@dataclass
class Simulator:
    """One compiled game, loaded once, that makes seeded games with the same binding as
    :func:`engine.loader.new_game` (``GAME_CLASS``, ``NATIVES``, ``VERBS``).

    The IR and handlers are read once and shared by every game: reading ``cards.json`` again
    for each of thousands of games would cost more than playing them. Games must treat the IR
    as read-only (the tests check that a played game leaves it unchanged).
    """

    folder: Path
    ir: dict[str, Any] = field(init=False)
    table: HandlerTable = field(init=False)
    rules: ModuleType | None = field(init=False)

    def __post_init__(self) -> None:
        self.ir, self.table = load_table(self.folder)
        self.rules = game_rules(self.ir["game"])

    @property
    def name(self) -> str:
        """The game's name (its folder under cards/)."""
        return str(self.ir["game"])

    @property
    def title(self) -> str:
        """The game's title."""
        return str(self.ir.get("title") or self.name)

    def policies(self) -> dict[str, PolicyFactory]:
        """The game module's policy factories, by name; an error when it offers none."""
        policies = getattr(self.rules, "POLICIES", None) if self.rules else None
        cls = getattr(self.rules, "GAME_CLASS", None) if self.rules else None
        if not policies or cls is None or _game_flow(cls) is None:
            raise SimError(
                f"'{self.name}' cannot be simulated yet: engine/games/{self.name}.py needs a "
                "GAME_CLASS with play() and POLICIES (policy name -> factory)"
            )
        return dict(policies)

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
            raise SimError(
                f"'{self.name}' is for {declared[0]} to {declared[1]} players, not {players}"
            )

    def new_game(self, seed: int, players: int, mode: str, policy: PolicyFactory) -> Game:
        """A fresh game, as :func:`engine.loader.new_game` makes it, with one policy per seat.

        Policies are made after the game, since a factory takes the game it plays.
        """
        rules = self.rules
        cls = getattr(rules, "GAME_CLASS", Game) if rules else Game
        game: Game = cls(
            self.ir,
            self.table,
            policies={},
            seed=seed,
            player_count=players,
            natives=dict(getattr(rules, "NATIVES", {}) if rules else {}),
            verbs=dict(getattr(rules, "VERBS", {}) if rules else {}),
            mode=mode,
        )
        game.policies = {index: policy(game, index) for index in range(players)}
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
    players_for(mode)
    sim.check_players(seats)
    factory = sim.factory(policy)
    seed_of_game = game_seed(seed, number)
    game = sim.new_game(seed_of_game, seats, mode, factory)
    try:
        result = play_game(game)
    except Exception as error:  # noqa: BLE001 - reported with the game and seed to replay it
        raise GameFailed(number, seed_of_game, error) from error
    return Played(number, seed_of_game, game, result)


@dataclass(frozen=True)
class SimReport:
    """What a run of games came to: score statistics, titles, sinkings and wins.

    ``scores`` holds one sample per game in solo and co-op (the team score), one per player
    per game in competitive. A sunk ship's score is what the game gives it (nullified).
    """

    game: str
    title: str
    mode: str
    policy: str
    seed: int
    games: int
    players: int
    scores: tuple[int, ...]
    afloat_scores: tuple[int, ...]
    titles: tuple[tuple[str, int], ...]
    games_with_sinking: int
    ships_sunk: int
    wins: tuple[tuple[str, int], ...]

    @property
    def mean(self) -> float:
        """Mean score."""
        return statistics.fmean(self.scores) if self.scores else 0.0

    @property
    def median(self) -> float:
        """Median score."""
        return float(statistics.median(self.scores)) if self.scores else 0.0

    @property
    def min(self) -> int:
        """Lowest score."""
        return min(self.scores, default=0)

    @property
    def max(self) -> int:
        """Highest score."""
        return max(self.scores, default=0)

    @property
    def afloat_mean(self) -> float | None:
        """Mean score of the samples whose ship(s) stayed afloat; None when every one sank."""
        return statistics.fmean(self.afloat_scores) if self.afloat_scores else None

    @property
    def sink_rate(self) -> float:
        """Share of games in which a ship sank (either ship: in co-op that loses both)."""
        return self.games_with_sinking / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        """The report as plain data (JSON output, comparing runs)."""
        return {
            "game": self.game,
            "mode": self.mode,
            "policy": self.policy,
            "seed": self.seed,
            "games": self.games,
            "players": self.players,
            "score": {
                "mean": round(self.mean, 3),
                "median": self.median,
                "min": self.min,
                "max": self.max,
                "afloat_mean": None if self.afloat_mean is None else round(self.afloat_mean, 3),
            },
            "titles": dict(self.titles),
            "sink_rate": round(self.sink_rate, 6),
            "games_with_sinking": self.games_with_sinking,
            "ships_sunk": self.ships_sunk,
            "wins": dict(self.wins),
        }


def _samples(mode: str, result: Any) -> list[tuple[int, bool, str]]:
    """(score, afloat, title) samples of one result: the team in co-op, the single player in
    solo, every player in competitive. A sunk ship with no title is counted as lost."""
    sunk = [bool(s) for s in result.sunk]

    def title(index: int, afloat: bool) -> str:
        earned = result.titles[index] if index < len(result.titles) else ""
        return earned or (NO_TITLE if afloat else SUNK)

    if mode == "coop":
        team = result.team_score if result.team_score is not None else sum(result.scores)
        afloat = not any(sunk)
        return [(int(team), afloat, title(0, afloat))]
    samples = []
    for index, score in enumerate(result.scores):
        afloat = not sunk[index] if index < len(sunk) else True
        samples.append((int(score), afloat, title(index, afloat)))
    return samples


def _winner_label(winner: int | None) -> str:
    return "no winner" if winner is None else f"player {winner + 1}"


def simulate(
    folder: Path | Simulator,
    games: int,
    seed: int,
    mode: str = "solo",
    policy: str = "greedy",
    players: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SimReport:
    """Play ``games`` seeded games of the compiled game in ``folder`` and sum them up.

    Game ``n`` (1-based) is seeded :func:`game_seed` ``(seed, n)``; the same arguments always
    give the same report. ``progress(done, total)`` is called after each game, when given.
    """
    if games < 1:
        raise SimError(f"--games must be at least 1, not {games}")
    sim = folder if isinstance(folder, Simulator) else Simulator(Path(folder))
    seats = players_for(mode) if players is None else players
    players_for(mode)
    sim.check_players(seats)
    factory = sim.factory(policy)
    scores: list[int] = []
    afloat: list[int] = []
    titles: Counter[str] = Counter()
    title_scores: dict[str, list[int]] = {}
    wins: Counter[str] = Counter()
    games_with_sinking = ships_sunk = 0
    for number in range(1, games + 1):
        seed_of_game = game_seed(seed, number)
        game = sim.new_game(seed_of_game, seats, mode, factory)
        try:
            result = play_game(game)
        except Exception as error:  # noqa: BLE001 - reported with the game and seed to replay it
            raise GameFailed(number, seed_of_game, error) from error
        sunk = sum(1 for s in result.sunk if s)
        ships_sunk += sunk
        games_with_sinking += 1 if sunk else 0
        for score, is_afloat, title in _samples(mode, result):
            scores.append(score)
            if is_afloat:
                afloat.append(score)
            titles[title] += 1
            title_scores.setdefault(title, []).append(score)
        if mode == "competitive":
            wins[_winner_label(result.winner)] += 1
        if progress is not None:
            progress(number, games)
    # Titles in the order of their bands: by the mean score of the games that earned them.
    ordered = sorted(titles, key=lambda t: (statistics.fmean(title_scores[t]), t))
    return SimReport(
        game=sim.name,
        title=sim.title,
        mode=mode,
        policy=policy,
        seed=seed,
        games=games,
        players=seats,
        scores=tuple(scores),
        afloat_scores=tuple(afloat),
        titles=tuple((t, titles[t]) for t in ordered),
        games_with_sinking=games_with_sinking,
        ships_sunk=ships_sunk,
        wins=tuple(sorted(wins.items())),
    )


def _number(value: float) -> str:
    """A statistic as a reader wants it: no '.0' on whole numbers."""
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


def render_report(report: SimReport) -> str:
    """The report as a readable table."""
    count = f"{report.games:,} {report.mode} game{'s' if report.games != 1 else ''}"
    lines = [
        f"{report.title}: {count}, policy {report.policy}, seed {report.seed}",
        "",
    ]
    label = "team score" if report.mode == "coop" else "score"
    per = " (each player's)" if report.mode == "competitive" else ""
    lines.append(f"{label}{per}")
    for name, value in (
        ("mean", report.mean),
        ("median", report.median),
        ("min", report.min),
        ("max", report.max),
    ):
        lines.append(f"  {name:<8}{_number(value):>8}")
    if report.afloat_mean is not None and len(report.afloat_scores) != len(report.scores):
        lines.append(
            f"  {'afloat':<8}{_number(report.afloat_mean):>8}   mean without the sunk "
            f"({len(report.afloat_scores):,} of {len(report.scores):,})"
        )
    ships = "" if report.players == 1 else f"; {report.ships_sunk:,} ships"
    lines += [
        "",
        f"sink rate  {100 * report.sink_rate:5.1f}%   "
        f"({report.games_with_sinking:,} of {report.games:,} games{ships})",
        "",
    ]
    total = sum(n for _, n in report.titles) or 1
    width = max([len("title"), *(len(t) for t, _ in report.titles)])
    lines.append(f"{'title':<{width}}  {'count':>7}  {'share':>6}")
    for title, n in report.titles:
        bar = "#" * round(30 * n / total)
        lines.append(f"{title:<{width}}  {n:>7,}  {100 * n / total:5.1f}%  {bar}".rstrip())
    if report.mode == "competitive":
        lines += ["", f"{'winner':<{width}}  {'games':>7}  {'share':>6}"]
        for who, n in report.wins:
            lines.append(f"{who:<{width}}  {n:>7,}  {100 * n / report.games:5.1f}%")
    return "\n".join(lines)


# -- the logbook, as the paper sheet would read


def _track_line(track: Any) -> str:
    """A track as ticked boxes: ``X`` marked, ``.`` not, special boxes in brackets."""
    special = {p for positions in track.boxes.values() for p in positions}
    boxes = []
    for position in range(1, track.length + 1):
        mark = "X" if position <= track.marked else "."
        boxes.append(f"[{mark}]" if position in special else mark)
    return " ".join(boxes)


def _cell(value: Any) -> str:
    if value is None or value == "":
        return "-"
    return str(value)


#: The logbook columns: (heading, key in a month's entry).
LOG_COLUMNS: tuple[tuple[str, str], ...] = (
    ("Month", "month"),
    ("Voyage", "voyage"),
    ("Speed", "sailing_speed"),
    ("Stamina", "crew_stamina"),
    ("Armament", "armament"),
    ("Pirate", "pirate_power"),
    ("Route", "route"),
    ("Dist", "distance"),
    ("Prestige", "prestige_total"),
    ("Damage", "damage"),
    ("Scurvy", "scurvy"),
)


def _month_row(entry: Mapping[str, Any], titles: Mapping[str, str]) -> dict[str, str]:
    row = {}
    for _, key in LOG_COLUMNS:
        if key == "route":
            # Places by the names on the map (spaces are cards with titles), ids otherwise.
            start, end = entry.get("start"), entry.get("destination")
            begin = titles.get(str(start), _cell(start))
            row[key] = begin if start == end else f"{begin} -> {titles.get(str(end), _cell(end))}"
        elif key in ("damage", "scurvy"):
            marks = int(entry.get(key) or 0)
            row[key] = "X" * marks if marks else "-"
        elif key == "voyage":
            row[key] = titles.get(str(entry.get(key)), _cell(entry.get(key)))
        else:
            row[key] = _cell(entry.get(key))
    return row


def render_logbook(played: Played, date: str) -> str:
    """One played game as the paper logbook would read: the Date, then month by month the
    sailing speed, crew stamina and armament written, the pirate, the route sailed, prestige,
    the damage and health boxes marked and the notes; then the tracks, final score and title."""
    game, result = played.game, played.result
    titles = {cid: str(card.get("title") or cid) for cid, card in game.cards.items()}
    title = str(game.ir.get("title") or game.ir["game"])
    out = [f"{title}: logbook of game {played.number} (game seed {played.seed}), {game.mode}"]
    for index, months in enumerate(result.logbook):
        player = game.players[index] if index < len(game.players) else None
        name = player.name if player else f"player {index + 1}"
        out += ["", f"Date: {date}    Captain: {name}", ""]
        rows = [_month_row(entry, titles) for entry in months]
        widths = {key: max([len(head), *(len(r[key]) for r in rows)]) for head, key in LOG_COLUMNS}
        out.append("  ".join(f"{head:<{widths[key]}}" for head, key in LOG_COLUMNS).rstrip())
        for entry, row in zip(months, rows, strict=True):
            out.append("  ".join(f"{row[key]:<{widths[key]}}" for _, key in LOG_COLUMNS).rstrip())
            note = entry.get("note")
            if note:
                out.append(f"{'':<{widths['month']}}  note: {note}")
        if player is not None:
            for track in player.tracks.values():
                label = track.name.replace("_", " ").capitalize()
                out.append(f"{label + ' track':<22}{_track_line(track)}")
        sunk = index < len(result.sunk) and result.sunk[index]
        score = result.scores[index] if index < len(result.scores) else 0
        earned = result.titles[index] if index < len(result.titles) else ""
        out.append("")
        if sunk:
            out.append(f"The ship sank. Final score: {score} (nullified: lost to history)")
        elif result.team_score is not None:
            out.append(f"Final score: {score}")  # co-op: the title is the team's, below
        else:
            out.append(f"Final score: {score}    Title: {earned or NO_TITLE}")
    if result.team_score is not None:
        team_title = (result.titles[0] if result.titles else "") or (
            SUNK if any(result.sunk) else NO_TITLE
        )
        out += ["", f"Team score: {result.team_score}    Title: {team_title}"]
    if game.mode == "competitive":
        out += ["", f"Winner: {_winner_label(result.winner)}"]
    return "\n".join(out)
