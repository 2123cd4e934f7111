"""The generic flow: how ``cardc sim`` plays a game compiled from the DSL that has no module of
its own in ``engine/games/`` (a game made with ``cardc new``), and its generic policies.

The DSL says what cards do, not the turn structure, so this flow assumes only what the IR
declares and says so. What it does, in order:

- **Setup.** The deck is every card whose kind is not always in force (``rule``, ``layer``),
  each as many times as its ``copies`` property (1 without one), shuffled with the game's seed.
  It is the pile the prelude's ``draw`` takes from, for the game's first zone (the hand). A
  trigger named ``setup`` fires once for each player (rules, then held cards). Each player
  draws ``param hand`` cards when the game declares that param.
- **Rounds.** ``param rounds`` rounds; in each, every player in seat order takes a turn: a
  trigger named ``turn`` (or ``round``) fires for the cards in force, the player draws ``param
  draw`` cards (1 without that param) into the hand, then chooses to pass or to play one held
  card with an ``on play`` effect: a played card leaves the hand and its ``play`` trigger
  runs (``trigger play`` is the one the scaffold declares: "when a card is played from the
  hand").
- **End.** A trigger named ``game_end`` (or ``end``) fires for each player; each player's score
  is their ``score`` counter. Competitive: the higher score wins, a tie has no winner. Co-op:
  the team score is the sum.

Other triggers fire only when a card's effect fires them. A full track ends nothing (the DSL
does not say what it means); no ship sinks and no title is given. A game that does not declare
a ``score`` counter, ``param rounds`` or a zone cannot be played this way, and the simulator
says which is missing.

Policies: ``random`` (any legal answer, from the game's seeded generator) and ``lookahead``
(also ``greedy``): a one-step lookahead on the declared heuristic, the player's ``score``
counter (the team's in co-op). At each question it replays the current turn from its start on
a copy of the game, once per legal answer (the answers already given this turn, then that one,
then the first legal answer to anything after), and takes the answer whose turn ends with the
highest score; ties go to the first option (to pass, at a turn's choice of card: a card that
gains nothing is kept), so it is as deterministic as the seed.
"""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

from engine.runtime import Context, FirstLegal, Game, Policy, Question, RandomLegal

SETUP_TRIGGERS = ("setup",)
TURN_TRIGGERS = ("turn", "round")
END_TRIGGERS = ("game_end", "end")
PLAY_TRIGGER = "play"
PASS = "pass"


def check_simulable(ir: dict[str, Any]) -> None:
    """Raise a :class:`engine.runtime.RuleError` naming what the game must declare before the
    generic flow can play it."""
    from engine.sim import SimError

    vocabulary = ir["vocabulary"]
    missing = []
    if not vocabulary.get("score"):
        missing.append("a score counter ('score victory_points')")
    if "rounds" not in vocabulary.get("params", {}):
        missing.append("'param rounds N'")
    if not vocabulary.get("zones"):
        missing.append("a zone for the hand ('zone hand')")
    if missing:
        raise SimError(
            f"'{ir['game']}' has no flow of its own (engine/games/{ir['game']}.py), and the "
            f"generic flow needs {' and '.join(missing)} in its game block"
        )


def _whole(value: Any, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


class GenericGame(Game):
    """A game played by the generic flow (see the module's docstring)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.logbook: list[list[dict[str, Any]]] = [[] for _ in self.players]
        #: The turn being played: (the game as it was when the turn began, whose turn, the
        #: answers given so far this turn), for :class:`Lookahead`; None between turns.
        self.turn_state: tuple[GenericGame | None, int, list[str]] | None = None
        self.replaying = False

    # -- the flow

    def play(self, c: Context | None = None, card: str | None = None) -> Any:  # type: ignore[override]
        """Play the whole game and return its result; as the prelude's ``play`` verb
        (``play(c, card)``, from a card's effect) it offers to play a held card instead."""
        if c is not None and card is not None:
            return super().play(c, card)
        self.setup()
        for number in range(1, _whole(self.params.get("rounds"), 1) + 1):
            self.round = number
            for player in self.players:
                self.take_turn(player)
        for player in self.players:
            for trigger in END_TRIGGERS:
                self.fire(trigger, player)
        return self.result()

    @property
    def hand(self) -> str:
        """The zone cards are drawn into and played from: the game's first zone."""
        return str(self.ir["vocabulary"]["zones"][0])

    def setup(self) -> None:
        """Shuffle the deck, fire ``setup``, deal ``param hand`` cards."""
        deck: list[str] = []
        for cid, card in self.cards.items():
            if card["kind"] in self.always_in_force:
                continue
            deck.extend([cid] * max(_whole(card["properties"].get("copies"), 1), 0))
        self.shuffle(deck)
        self.board[f"deck:{self.hand}"] = deck
        for player in self.players:
            for trigger in SETUP_TRIGGERS:
                self.fire(trigger, player)
        hand = _whole(self.params.get("hand"), 0)
        for player in self.players:
            if hand:
                self.draw(Context(player, "", "setup"), self.hand, hand)

    def take_turn(self, player: Any) -> None:
        """One player's turn, recorded so a lookahead policy can replay it."""
        looks_ahead = any(isinstance(p, Lookahead) for p in self.policies.values())
        start = self.snapshot() if looks_ahead and not self.replaying else None
        self.turn_state = (start, player.index, [])
        try:
            self.turn(player)
        finally:
            self.turn_state = None

    def turn(self, player: Any) -> None:
        """Fire ``turn``, draw, then play one held card or pass."""
        for trigger in TURN_TRIGGERS:
            self.fire(trigger, player)
        c = Context(player, "", "turn")
        self.draw(c, self.hand, _whole(self.params.get("draw"), 1))
        handlers = self.table.handlers if self.table else {}
        playable = [
            card
            for card in dict.fromkeys(player.zones[self.hand])
            if (card, PLAY_TRIGGER) in handlers
        ]
        note = ""
        if playable:
            question = Question(
                f"turn.{self.round}", player.index, "play a card", (PASS, *playable), "play"
            )
            answer = self.ask(player, question)
            if answer != PASS:
                self.log("play", player.index, answer)
                player.zones[self.hand].remove(answer)
                self.run(answer, PLAY_TRIGGER, player)
                note = f"played {self.cards[answer].get('title', answer)}"
        entry: dict[str, Any] = {"round": self.round}
        if self.score_counter:
            entry[self.score_counter] = player.counters.get(self.score_counter, 0)
        entry["note"] = note
        self.logbook[player.index].append(entry)

    def ask(self, player: Any, question: Question) -> str:
        """Ask as any game does, and remember the answer for a replay of this turn."""
        answer = super().ask(player, question)
        if self.turn_state is not None:
            self.turn_state[2].append(answer)
        return answer

    def result(self) -> SimpleNamespace:
        """Scores from the ``score`` counter; the winner, the team score."""
        counter = self.score_counter or ""
        scores = [int(p.counters.get(counter, 0)) for p in self.players]
        winner = None
        if self.mode == "competitive" and len(scores) > 1:
            best = max(scores)
            leaders = [i for i, s in enumerate(scores) if s == best]
            winner = leaders[0] if len(leaders) == 1 else None
        team = sum(scores) if self.mode == "coop" else None
        return SimpleNamespace(
            scores=scores,
            team_score=team,
            titles=[""] * len(scores),
            sunk=[False] * len(scores),
            winner=winner,
            logbook=self.logbook,
        )

    # -- copies for the lookahead

    def snapshot(self) -> GenericGame:
        """A copy of the game's state (the IR, handlers and cards are shared: read-only)."""
        memo: dict[int, Any] = {
            id(self.ir): self.ir,
            id(self.table): self.table,
            id(self.cards): self.cards,
            id(self.natives): self.natives,
            id(self.verbs): self.verbs,
            id(self.policies): {},
            id(self.events): [],
            id(self.turn_state): None,
        }
        return copy.deepcopy(self, memo)

    def heuristic(self, index: int) -> int:
        """What the lookahead maximises: the player's score counter (the team's in co-op)."""
        counter = self.score_counter or ""
        if self.mode == "coop":
            return sum(int(p.counters.get(counter, 0)) for p in self.players)
        return int(self.players[index].counters.get(counter, 0))


class Replay(Policy):
    """Answers a turn's questions from a list, then the first legal answer (a lookahead's
    replay of a turn)."""

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.used = 0

    def decide(self, game: Game, question: Question) -> str:
        """The next answer of the list when it is legal here, else the first legal one."""
        if self.used < len(self.answers):
            answer = self.answers[self.used]
            self.used += 1
            if answer in question.options:
                return answer
        return question.options[0]


class Lookahead(Policy):
    """A one-step lookahead on the game's heuristic (see the module's docstring)."""

    def decide(self, game: Game, question: Question) -> str:
        """The answer whose replayed turn ends with the highest heuristic."""
        state = getattr(game, "turn_state", None)
        if not isinstance(game, GenericGame) or state is None or state[0] is None:
            return FirstLegal().decide(game, question)
        start, index, given = state
        best, best_value = question.options[0], None
        for option in question.options:
            trial = start.snapshot()
            trial.replaying = True
            replay = Replay([*given, option])
            trial.policies = {i: replay for i in range(len(trial.players))}
            trial.turn_state = None
            trial.turn(trial.players[index])
            value = trial.heuristic(question.player)
            if best_value is None or value > best_value:
                best, best_value = option, value
        return best


def _random(game: Game, index: int) -> Policy:
    return RandomLegal()


def _lookahead(game: Game, index: int) -> Policy:
    return Lookahead()


#: The generic policies, by name (``greedy`` is the lookahead, so ``cardc sim``'s default works).
POLICIES = {"random": _random, "lookahead": _lookahead, "greedy": _lookahead}
