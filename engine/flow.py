"""The runtime of a game's ``flow``: :class:`FlowGame` plays the compiled flow to its end.

The flow is data in the DSL (README, "The flow"), compiled by ``cardc build`` into the game's
handlers module: one function per phase, one per section that plays its phases in order
with the end condition between them (``FLOW['run']``, used when nothing looks ahead), for a
game of rounds without turns one that plays all its rounds (``FLOW['run']['loop']``, used
when nothing is logged round by round or phase by phase either: a simulated game), and the
``FLOW`` table (README, "The flow"). A game is:

- **setup**: its phases once, in order;
- **rounds**: ``round N`` runs its phases N times (``g.round`` is the round, 1-based); a
  ``turn`` section is one player's turn, and every round the players take turns in seat order
  from ``board["first_player"]`` (a seat number, 1-based; seat 1 without one), after the
  round's own phases. A game with turns and no ``round`` goes round the table until it ends;
- ``end when CONDITION`` is checked after every phase of setup, the rounds and the turns:
  when it holds, the rest is skipped and the game ends ("end_when"); the statement
  ``end_game "reason"`` ends it at once with that reason;
- **end**: its phases once (final scoring), then the result.

A phase is one Python call, with the acting player in its context (the first seat in setup,
the rounds and the end; the player whose turn it is in a turn). ``for each p in players`` in
a phase makes ``p`` the acting player of its body, as in card effects.

The result has the simulator's fields (``scores``, ``team_score``, ``titles``, ``sunk``,
``winner``, ``logbook``) and the flow's (``reason``, ``rounds``, ``turns``). The winner is the
highest score (``winner lowest``: the lowest); on a tie, the highest ``tiebreak`` value among
the tied players; still tied, no winner. ``winner team`` is co-op: the team score is the sum.
A title is the title of the card of the ``titles from KIND`` kind whose ``min_score`` ..
``max_score`` holds the score (the team's in co-op).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from engine.runtime import (
    Context,
    FirstLegal,
    Game,
    GameEnded,
    ObjectCache,
    Player,
    Policy,
    Question,
    RandomLegal,
    RuleError,
)

#: A game of turns without ``round N`` stops with an error after this many times round the
#: table: its ``end when`` never held, which is a bug in its rules, not a long game.
MAX_ROUNDS_WITHOUT_COUNT = 10_000

PhaseFn = Callable[[Game, Context], Any]


class FlowResult:
    """What a whole game came to: the simulator's contract plus how the game ended."""

    __slots__ = (
        "scores",
        "team_score",
        "titles",
        "sunk",
        "winner",
        "logbook",
        "reason",
        "rounds",
        "turns",
    )

    def __init__(
        self,
        scores: list[int],
        team_score: int | None,
        titles: list[str],
        sunk: list[bool],
        winner: int | None,
        logbook: list[list[dict[str, Any]]],
        reason: str,
        rounds: int,
        turns: int,
    ) -> None:
        self.scores = scores
        self.team_score = team_score
        self.titles = titles
        self.sunk = sunk
        self.winner = winner
        self.logbook = logbook
        #: "rounds" (played to the last round), "end_when", or an ``end_game`` reason.
        self.reason = reason
        #: rounds begun (the one an end cut short counts), and turns taken.
        self.rounds = rounds
        self.turns = turns

    def __repr__(self) -> str:
        return (
            f"FlowResult(scores={self.scores}, team_score={self.team_score}, "
            f"titles={self.titles}, winner={self.winner}, reason={self.reason!r}, "
            f"rounds={self.rounds}, turns={self.turns})"
        )


class NoFlow(RuleError):
    """The game declares no ``flow``, so there is nothing to play."""


def flow_of(game: Game) -> dict[str, Any]:
    """The compiled ``FLOW`` table of ``game``'s handlers; :class:`NoFlow` when it has none."""
    table = game.table
    flow = getattr(table.module, "FLOW", None) if table is not None else None
    if flow is None:
        name = game.ir.get("game", "this game")
        raise NoFlow(
            f"'{name}' declares no flow, so it cannot be played or simulated: add a "
            "'flow { ... }' declaration to its cards (README, \"The flow\"), then run "
            "'cardc build'"
        )
    return flow  # type: ignore[no-any-return]


_TITLE_BANDS = ObjectCache()


def band_bounds(card: Mapping[str, Any]) -> tuple[float, float]:
    """A title card's lowest and highest score: ``min_score`` .. ``max_score``, a bound left
    out open (the play's :func:`title_bands` and the check's title-gap warning read it)."""
    props = card.get("properties") or {}
    low, high = props.get("min_score"), props.get("max_score")
    return (
        float("-inf") if low is None else float(low),
        float("inf") if high is None else float(high),
    )


def title_bands(ir: dict[str, Any], kind: str) -> list[tuple[float, float, str]]:
    """(min_score, max_score, title) of the cards of ``kind``, highest band first; built once
    per IR."""
    bands: list[tuple[float, float, str]] | None = _TITLE_BANDS.get(ir, kind)
    if bands is None:
        bands = []
        for card in ir["cards"]:
            if card["kind"] != kind:
                continue
            bands.append((*band_bounds(card), str(card["title"])))
        bands.sort(key=lambda band: (-band[0], -band[1], band[2]))
        _TITLE_BANDS.put(ir, bands, kind)
    return bands


class FlowGame(Game):
    """A game played by its compiled flow (see the module's docstring). Games subclass it for
    board state and natives (``GAME_CLASS`` in their natives file)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.sunk: list[bool] = [False] * len(self.players)
        self.logbook: list[list[dict[str, Any]]] = [[] for _ in self.players]
        self.reason: str | None = None
        self.rounds_played = 0
        #: The flow's count of rounds once the rounds began (None: no count, the rounds go on
        #: until the end condition holds), so an end condition can be told an early end.
        self.round_count: int | None = None
        self.turns = 0
        self.turn_player: Player | None = None
        #: The phase being played, for :class:`Lookahead`: (the game as it was when the phase
        #: began, the phase's function, the acting seat, the answers given so far); or None.
        self.phase_state: tuple[FlowGame | None, PhaseFn, int, list[str]] | None = None
        self.replaying = False
        self._contexts = [Context(p, "flow", "flow") for p in self.players]
        self._looking = False
        self._end_when: PhaseFn | None = None
        #: Each section's generated runner (``FLOW['run']``) while :meth:`play` may use them.
        self._runners: dict[str, PhaseFn] = {}
        self._phases: dict[str, tuple[str, PhaseFn]] | None = None
        self._round_start = 0
        #: The setup section has run (by :meth:`play` or ``run_section("setup")``): a game
        #: set up piece by piece is not set up a second time when it is then played.
        self.set_up = False
        #: :meth:`play` is playing the setup and the rounds, inside its :meth:`Game.call`: a
        #: failure anywhere under it is located at its DSL line by that call (it reads the
        #: innermost generated frame), so a step the game's Python runs then (a DSL verb it
        #: calls) needs no Game.call of its own.
        self.playing = False
        #: The ``FLOW`` table once :meth:`play` has read it (:func:`flow_of`), for its end and
        #: its result.
        self._flow_table: dict[str, Any] | None = None

    # -- the whole game

    def play(self, c: Context | None = None, card: str | None = None) -> Any:  # type: ignore[override]
        """Play the whole game by its flow and return its :class:`FlowResult`; as the
        prelude's ``play`` verb (``play(c, card)``, from an effect) it offers to play a held
        card instead."""
        if c is not None and card is not None:
            return super().play(c, card)
        flow = self._flow_table = flow_of(self)
        self._end_when = flow["end_when"]
        looking = False
        if not self.replaying:
            for policy in self.policies.values():
                if isinstance(policy, Lookahead):
                    looking = True
                    break
        self._looking = looking
        # Each section's generated runner plays its phases and checks the end condition
        # between them in one call; a lookahead replays phases one by one, so it takes the
        # loop below. A handlers module built before runners existed has none.
        self._runners = {} if looking else flow.get("run", {})
        self.playing = True
        try:
            # One Game.call for the setup and all the rounds: a failure is still located at
            # its DSL line (Game.call reads the innermost generated frame).
            self.call(type(self)._set_up_and_play, self._contexts[0])
            self.reason = "rounds"
        except GameEnded as ended:
            self.reason = ended.reason
        finally:
            self.playing = False
        self.rounds_played = max(self.rounds_played, self.round if flow["round"] else 0)
        return self.finish()

    def _set_up_and_play(self, first: Context) -> None:
        """The setup (unless it was played already) and the rounds, inside :meth:`play`'s
        Game.call (which calls it as a handler, ``(game, context)``)."""
        flow = self._flow_table or flow_of(self)
        if not self.set_up:
            self.set_up = True
            self.before_setup()
            self._play_section(flow, "setup", first)
        if flow["round"] or flow["turn"]:
            self._rounds(flow)

    def before_setup(self) -> None:
        """Called as the setup section begins (by :meth:`play` or ``run_section("setup")``):
        a game whose Python starts with components out on the table, for scenarios that give
        a state without a setup, puts back in the box here what its setup phases set out, so
        that a variant removing such a phase leaves them in the box. Nothing by default."""

    def finish(self) -> Any:
        """The ``end`` section (final scoring), then the result. There is no end condition
        any more, and an ``end_game`` here only stops it. Run again, it scores again from the
        state as it stands (a scenario that changes the state between two finishes)."""
        flow = self._flow_table or flow_of(self)
        self._end_when = None
        try:
            # The end section's generated runner, when play() may use runners (nothing looks
            # ahead): its phases in one call, as the rounds are played.
            runner = self._runners.get("end")
            if runner is not None:
                self.call(runner, self._contexts[0])
            else:
                self._run(flow["end"], self._contexts[0])
        except GameEnded:
            pass
        return self.result()

    def _rounds(self, flow: dict[str, Any]) -> None:
        rounds_fn = flow["rounds"]
        # Inside play()'s Game.call, which locates a failure of the count at its DSL line.
        count = None if rounds_fn is None else int(rounds_fn(self, self._contexts[0]))
        self.round_count = count
        limit = count if count is not None else MAX_ROUNDS_WITHOUT_COUNT
        turn_phases = flow["turn"]
        first = self._contexts[0]
        # From the current round: a game played on after a scenario's own rounds (or given a
        # round) goes on from there; a new game is at round 1.
        number = max(int(self.round), 1)
        # The rounds in one call of the generated round loop (FLOW['run']['loop']) when
        # nothing is logged round by round or phase by phase (a simulated game): the same
        # phases and end checks, its natives and verbs looked up once a game.
        loop: Callable[..., Any] | None = self._runners.get("loop")
        if loop is not None and not turn_phases and not self.logs_rounds and not self.logs_phases:
            loop(self, first, number, limit)
            if count is None:
                # A loop without a count ends only by its end condition (GameEnded).
                self._never_ended()
            return
        round_phases = flow["round"]
        contexts = self._contexts
        log_round = self.log_round if self.logs_rounds else None
        # Each section's generated runner, called straight from the loop (no call a round to
        # _play_section to find it); without one, the phases one by one.
        round_run = self._runners.get("round") if round_phases else None
        turn_run = self._runners.get("turn") if turn_phases else None
        while number <= limit:
            if log_round is not None:
                self._round_start = len(self.events)
            self.round = number
            self.rounds_played = number
            try:
                if round_run is not None:
                    round_run(self, first)
                elif round_phases:
                    self._run(round_phases, first)
                if turn_phases:
                    for player in self.seat_order():
                        self.turns += 1
                        self.turn_player = player
                        if turn_run is not None:
                            turn_run(self, contexts[player.index])
                        else:
                            self._run(turn_phases, contexts[player.index])
            except GameEnded:
                # The round an end cut short was played in part: it is a line of the logbook
                # (the game's length in rounds), as FlowResult.rounds counts it.
                self.turn_player = None
                if log_round is not None:
                    log_round()
                raise
            self.turn_player = None
            if log_round is not None:
                log_round()
            number += 1
        if count is None:
            self._never_ended()

    @staticmethod
    def _never_ended() -> None:
        """A game of rounds without a count whose ``end when`` never held."""
        raise RuleError(
            f"the game went round the table {MAX_ROUNDS_WITHOUT_COUNT} times and its "
            "'end when' never held: give 'round N { ... }' or an end that comes"
        )

    def _play_section(self, flow: dict[str, Any], section: str, c: Context) -> None:
        """Play a section of :meth:`play` (inside its Game.call): through its generated
        runner when there is one (the same phases and end checks in one function), else phase
        by phase (a lookahead, or a module built before runners)."""
        runner = self._runners.get(section)
        if runner is not None:
            runner(self, c)
        else:
            self._run(flow[section], c)

    def end_when_held(self) -> None:
        """The flow's ``end when`` holds after a phase (a section's runner found it): the
        rest of the game is skipped (:meth:`_play_phases` does the same)."""
        # "round N": the round it ended in, which a scenario's event line would otherwise
        # read as a player ('end_when player 2' in round 1).
        self.log("end_when", "round", self.round)
        raise GameEnded("end_when")

    def _run(self, phases: tuple[tuple[str, PhaseFn], ...], c: Context) -> None:
        """Each phase once, in order, for the acting player of ``c``; ``end when`` after each.

        One :meth:`Game.call` for the section, not one per phase and per end condition: a
        failure is still reported at the DSL line of the phase (or condition) it came from,
        since the traceback holds the generated function's frame, and a game of 12 rounds of
        7 phases saves some 170 calls."""
        self.call(lambda g, ctx: self._play_phases(phases, ctx), c)

    def _play_phases(self, phases: tuple[tuple[str, PhaseFn], ...], c: Context) -> None:
        end_when = self._end_when
        looking = self._looking
        logs_phases = self.logs_phases
        for name, fn in phases:
            if logs_phases:
                self.events.append(("phase", c.player.index, name))
            if looking:
                self.phase_state = (self.snapshot(), fn, c.player.index, [])
                # Game.ask keeps each answer of the phase here, for a replay of it.
                self.recording = self.phase_state[3]
                fn(self, c)
                self.phase_state = None
                self.recording = None
            else:
                fn(self, c)
            if end_when is not None and end_when(self, c):
                self.end_when_held()

    def seat_order(self) -> list[Player]:
        """The players in turn order this round: from ``board["first_player"]`` (a seat,
        1-based, or a Player), seat 1 without one."""
        first = self.board.get("first_player", 1)
        index = first.index if isinstance(first, Player) else int(first) - 1
        players = self.players
        if not 0 <= index < len(players):
            raise RuleError(f"first_player is seat {index + 1}, but this game seats {len(players)}")
        return players[index:] + players[:index]

    #: Each phase played is an event ``("phase", seat, name)`` of the log, before it runs (a
    #: game whose log is told phase by phase sets this True).
    logs_phases = False

    #: Whether a ship (a player) can sink in this game: the simulator prints a sink rate only
    #: for games that can (a game of tiles or cards has no ships to sink).
    ships_sink = False

    #: The engine writes a logbook line per player each round (:meth:`log_round`); a game
    #: whose flow writes its own logbook in a phase sets this False.
    logs_rounds = True

    def log_round(self) -> None:
        """One logbook line per player for the round just played: the score after it, and a
        note of the cards the player played in it."""
        counter = self.score_counter
        played: dict[int, list[str]] = {}
        for event in self.events[self._round_start :]:
            if event[0] == "play" and len(event) > 2:
                played.setdefault(event[1], []).append(event[2])
        for player in self.players:
            entry: dict[str, Any] = {"round": self.round}
            if counter:
                entry[counter] = player.counters.get(counter, 0)
            cards = played.get(player.index)
            entry["note"] = (
                "played " + ", ".join(self.cards[c].get("title", c) for c in cards) if cards else ""
            )
            self.logbook[player.index].append(entry)

    # -- pieces, for scenarios

    def run_section(self, name: str, player: Player | None = None, ends: bool = False) -> None:
        """Run one section's phases once (``round``: one round's phases, for the current
        ``g.round``; ``turn``: one turn of ``player``, seat 1 by default). With ``ends``, the
        flow's ``end when`` is checked after each phase as :meth:`play` checks it: when it
        holds, the rest of the section is skipped and :class:`GameEnded` raised (a scenario's
        month played under a house rule's end condition ends where a game would)."""
        flow = flow_of(self)
        if name not in ("setup", "round", "turn", "end"):
            raise RuleError(f"'{name}' is not a section; sections: setup, round, turn, end")
        self._end_when = flow["end_when"] if ends and name != "end" else None
        if name == "setup":
            self.set_up = True
            self.before_setup()
        who = player or self.turn_player or self.players[0]
        try:
            self._run(flow[name], self._contexts[who.index])
        finally:
            self._end_when = None

    def run_phase(self, name: str, player: Player | None = None) -> None:
        """Run the phase named ``name`` once (for ``player``, seat 1 by default)."""
        phases = self._phases
        if phases is None:
            flow = flow_of(self)
            phases = {
                phase: (section, fn)
                for section in ("setup", "round", "turn", "end")
                for phase, fn in flow[section]
            }
            self._phases = phases
        if name not in phases:
            raise RuleError(f"the flow has no phase '{name}'{self._phase_hint(name, phases)}")
        who = player or self.turn_player or self.players[0]
        self.call(phases[name][1], self._contexts[who.index])

    def _phase_hint(self, name: str, phases: dict[str, Any]) -> str:
        """ "; did you mean ..." for a phase named by the rulebook's words ('anchoring' for
        sailing_and_anchoring, 'end_of_the_game' for the phase titled so) or misspelt; else the
        phases there are."""
        from difflib import get_close_matches

        from dsl.wordmatch import word_matches

        titles = {
            phase["name"]: phase.get("title") or ""
            for section in (self.ir.get("flow") or {}).get("sections", ())
            for phase in section.get("phases", ())
        }
        # By words first: a guess that is a word of a phase ('anchoring') is nearer it than
        # spelling says (difflib's 'final_scoring').
        close = word_matches(name, phases, titles, loose=True)
        if close:
            shown = [f"'{c}'" + (f' ("{titles[c]}")' if titles.get(c) else "") for c in close]
            return f"; did you mean {' or '.join(shown)}?"
        spelt = get_close_matches(name, list(phases), 1)
        return f"; did you mean '{spelt[0]}'?" if spelt else f"; phases: {', '.join(phases)}"

    # -- the result

    def result(self) -> FlowResult:
        """Scores from the ``score`` counter, the winner, the titles, how the game ended."""
        flow = self._flow_table or flow_of(self)
        counter = self.score_counter or ""
        scores = [int(p.counters.get(counter, 0)) for p in self.players]
        team = flow["winner"] == "team" or self.mode == "coop"
        team_score = sum(scores) if team else None
        winner = None
        if not team and len(scores) > 1:
            winner = self.leader(scores, flow["winner"] == "lowest", flow["tiebreak"])
        titles = [""] * len(scores)
        if flow["titles"]:
            bands = title_bands(self.ir, flow["titles"])
            for index, score in enumerate(scores):
                earned = team_score if team_score is not None else score
                titles[index] = next((t for lo, hi, t in bands if lo <= earned <= hi), "")
        return FlowResult(
            scores,
            team_score,
            titles,
            list(self.sunk),
            winner,
            self.logbook,
            self.reason or "rounds",
            self.rounds_played,
            self.turns,
        )

    def leader(self, scores: list[int], lowest: bool, tiebreak: PhaseFn | None) -> int | None:
        """The seat that wins on ``scores``; the tiebreak's highest value among those tied;
        None when still tied."""
        best = min(scores) if lowest else max(scores)
        leaders = [i for i, s in enumerate(scores) if s == best]
        if len(leaders) > 1 and tiebreak is not None:
            values = {i: self.call(tiebreak, self._contexts[i]) for i in leaders}
            top = max(values.values())
            leaders = [i for i in leaders if values[i] == top]
        return leaders[0] if len(leaders) == 1 else None

    # -- decisions, remembered for the lookahead

    #: Attributes a game keeps that :meth:`snapshot` shares with its copy instead of copying:
    #: caches worked out once for every game of the same IR (Land vs Sea's tile rotations),
    #: which no move changes. Copying them made each of a lookahead's trials cost tens of ms.
    SNAPSHOT_SHARED: ClassVar[tuple[str, ...]] = ()

    def snapshot(self) -> FlowGame:
        """A copy of the game's state (the IR, handlers, cards and flow are shared: read-only;
        so is each attribute the game names in :attr:`SNAPSHOT_SHARED`)."""
        memo: dict[int, Any] = {
            id(self.ir): self.ir,
            id(self.table): self.table,
            id(self.cards): self.cards,
            id(self.natives): self.natives,
            id(self.verbs): self.verbs,
            id(self.policies): {},
            id(self.events): [],
            id(self.phase_state): None,
        }
        if self._phases is not None:
            memo[id(self._phases)] = self._phases
        if self._flow_table is not None:
            memo[id(self._flow_table)] = self._flow_table
        for name in self.SNAPSHOT_SHARED:
            value = getattr(self, name, None)
            if value is not None:
                memo[id(value)] = value
        return copy.deepcopy(self, memo)

    def heuristic(self, index: int) -> int:
        """What the lookahead maximises: the player's score counter (the team's in co-op)."""
        counter = self.score_counter or ""
        return sum(int(p.counters.get(counter, 0)) for p in self._scored_seats(index))

    def _scored_seats(self, index: int) -> list[Player]:
        """Whose counters the lookahead weighs for seat ``index``: the team's in co-op (and
        solo), else the seat's own."""
        if self.mode == "coop" or len(self.players) == 1:
            return self.players
        return [self.players[index]]

    def holdings(self, index: int) -> int:
        """What an unguided lookahead weighs when the score ties: the player's other
        counters (the team's in co-op), so a card that gains coins or gems now and scores
        later is played rather than passed over (a new game's greedy player would otherwise
        pass every turn whose plays score nothing yet, and play worse than random)."""
        counter = self.score_counter or ""
        return sum(
            int(value)
            for p in self._scored_seats(index)
            for name, value in p.counters.items()
            if name != counter and isinstance(value, int | float)
        )


class ReplayCut(GameEnded):
    """A lookahead's replay stopped at its budget of answers (the phase still asking): the
    trial is judged as it stands."""


class Replay(Policy):
    """Answers a phase's questions from a list, then the first legal answer (a lookahead's
    replay of a phase), for at most :attr:`BUDGET` answers past the list: a phase whose
    choices may go on as long as a player likes (an Encounter Turn's "face more Encounters
    ... or Venture Forth again") would otherwise be replayed to its far end at every
    question."""

    #: Answers a replay gives past its list before it stops the trial (:class:`ReplayCut`).
    BUDGET = 32

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.used = 0

    def decide(self, game: Game, question: Question) -> str:
        """The next answer of the list when it is legal here, else the first legal one."""
        if self.used >= len(self.answers) + self.BUDGET:
            raise ReplayCut("the lookahead's replay reached its budget")
        if self.used < len(self.answers):
            answer = self.answers[self.used]
            self.used += 1
            if answer in question.options:
                return answer
            return question.options[0]
        self.used += 1
        return question.options[0]


class Lookahead(Policy):
    """A one-step lookahead on the game's heuristic, the player's ``score`` counter: at each
    question, the current phase is replayed from its start on a copy of the game once per
    legal answer (the answers given so far this phase, then that one, then the first legal
    answer to anything after), and the answer whose phase ends with the highest score is
    taken; ties go to the pick of its ``guide`` (a game's own greedy player, when it has one:
    :mod:`engine.sim`), else to the first option, so it is as deterministic as the seed.

    A question of more than :attr:`WIDTH` answers (Land vs Sea's placements: a tile, its
    rotation and a place, about 200 a turn) is judged on :attr:`WIDTH` of them spread evenly
    over the list, the first among them, and the guide's pick: each trial copies the game, and
    every answer of such a question made one game take minutes."""

    #: The most answers one question is judged on.
    WIDTH = 32

    def __init__(self, guide: Policy | None = None) -> None:
        #: A policy whose pick is weighed first (the game's greedy player, when it has one:
        #: engine.sim): ties go to it, and a wide question's spread never leaves it out.
        self.guide = guide

    def decide(self, game: Game, question: Question) -> str:
        """The answer whose replayed phase ends with the highest heuristic."""
        state = getattr(game, "phase_state", None)
        if not isinstance(game, FlowGame) or state is None or state[0] is None:
            return FirstLegal().decide(game, question)
        start, fn, seat, given = state
        best = question.options[0]
        best_value: tuple[int, int] | None = None
        options = _spread(question.options, self.WIDTH)
        if self.guide is not None:
            # The guide's pick is weighed first, so a tie goes to it: a question whose answers
            # the phase's end cannot tell apart (Uncharted Passage's logbook numbers, which
            # score nothing until the Pirate phase) is answered as the game's own player would.
            pick = self.guide.decide(game, question)
            options = [pick, *(option for option in options if option != pick)]
        for option in options:
            trial = start.snapshot()
            trial.replaying = True
            trial._looking = False
            replay = Replay([*given, option])
            trial.policies = {i: replay for i in range(len(trial.players))}
            trial.phase_state = None
            trial.recording = None
            try:
                trial.call(fn, trial._contexts[seat])
            except GameEnded:
                pass
            value: tuple[int, int] = (trial.heuristic(question.player), 0)
            if self.guide is None:
                # Without a game's own player to break ties, the answer that leaves the player
                # holding the most: still the first option when that ties too.
                value = (value[0], trial.holdings(question.player))
            if best_value is None or value > best_value:
                best, best_value = option, value
        return best


def _spread(options: Sequence[str], width: int) -> Sequence[str]:
    """``width`` of ``options`` spread evenly over them, the first first (all when fewer)."""
    count = len(options)
    if count <= width:
        return options
    return [options[i * count // width] for i in range(width)]


def _random(game: Game, index: int) -> Policy:
    return RandomLegal()


def _lookahead(game: Game, index: int) -> Policy:
    return Lookahead()


#: The generic policies of every flow game, by name (``greedy`` is the lookahead, so
#: ``cardc sim``'s default works).
POLICIES = {"random": _random, "lookahead": _lookahead, "greedy": _lookahead}
