"""The runtime generated handlers call: game state, the prelude verbs, dice, decisions.

A handler is a plain function ``handler(g, c)``: ``g`` is the :class:`Game`, ``c`` the
:class:`Context` of the trigger it answers (the acting player, the card, the trigger's params
and quantities). Handlers change state only through ``Game`` methods, roll only through
``g.roll``/``g.dice`` (one seeded generator: same seed, same game), and decide only through
``g.may``/``g.choose``/``g.ask``, which go to the player's policy.

An exception inside a handler is re-raised as a :class:`RuleError` that names the DSL
``file:line:col`` of the statement that raised it (from the module's ``LINES`` table; see
:mod:`engine.locate`). The errors themselves are :mod:`engine.errors`', re-exported here.
"""

from __future__ import annotations

import random
import sys
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, NamedTuple

from engine.budget import WORK_BUDGET
from engine.errors import GameEnded as GameEnded
from engine.errors import IllegalDecision as IllegalDecision
from engine.errors import RuleError as RuleError
from engine.errors import ScriptedDiceError as ScriptedDiceError
from engine.locate import endless, locate, located_again
from engine.words import with_article


class Question(NamedTuple):
    """A decision the engine needs: who decides, about what, and the legal answers.

    A named tuple, not a frozen dataclass: as immutable, and a simulated game asks dozens of
    them, where a frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field) shows.
    """

    id: str
    player: int
    prompt: str
    #: The legal answers, in order: a tuple, or any sequence of strings that answers ``in``
    #: itself (a game offering hundreds of options may write them only when read).
    options: Sequence[str]
    kind: str = "choose"
    #: The rule that limits the answers, said when an answer is refused: a sentence, or a
    #: function of the refused answer ("the three numbers add up to 10; this card gives 9").
    rule: str | Callable[[str], str] = ""

    def refusal(self, answer: str) -> str:
        """Why ``answer`` is refused, naming the rule when the question knows it."""
        why = self.rule(answer) if callable(self.rule) else self.rule
        shown = ", ".join(self.options[:12]) + (" ..." if len(self.options) > 12 else "")
        return (
            f"'{answer}' is not a legal answer to '{self.prompt}'"
            + (f": {why}" if why else "")
            + f"; legal: {shown}"
        )

    def describe(self) -> str:
        """The question in words, with its legal answers."""
        return f"{self.prompt} [{', '.join(self.options)}]"


def answer_of(item: Any) -> str:
    """How an item of a list is answered when a player picks it (``choose VAR in LIST``): a
    card's id or a name as it is, a player by seat number ("2"), a whole number as written,
    a hex cell as a card gives it ("1 -1")."""
    if isinstance(item, Player):
        return str(item.index + 1)
    if isinstance(item, bool):
        return "yes" if item else "no"
    if isinstance(item, float) and item.is_integer():
        return str(int(item))
    if isinstance(item, (list, tuple)):
        return " ".join(answer_of(part) for part in item)
    return str(item)


class ObjectCache:
    """What was worked out from an object that is only ever read (an IR, a tuple of options),
    kept per object. An entry keeps its object, so a reused ``id()`` never answers for another;
    the cache empties when it reaches ``limit`` rather than keep every object it saw alive."""

    __slots__ = ("_entries", "limit")

    def __init__(self, limit: int = 64) -> None:
        self._entries: dict[Any, tuple[Any, Any]] = {}
        self.limit = limit

    def get(self, owner: object, key: Any = None) -> Any:
        """The value kept for ``owner`` (and ``key``), or None."""
        entry = self._entries.get(id(owner) if key is None else (id(owner), key))
        if entry is not None and entry[0] is owner:
            return entry[1]
        return None

    def put(self, owner: object, value: Any, key: Any = None) -> Any:
        """Keep ``value`` for ``owner`` (and ``key``); return it."""
        if len(self._entries) >= self.limit:
            self._entries.clear()
        self._entries[id(owner) if key is None else (id(owner), key)] = (owner, value)
        return value


_LEGAL = ObjectCache(50_000)


def legal_answers(options: Sequence[str]) -> Sequence[str] | frozenset[str]:
    """What to test an answer's legality against: the options themselves when few or when
    not a tuple (a sequence of another kind answers ``in`` itself, without listing every
    option), else a set of them, built once per options tuple (a flow asks the same long
    lists, every Sailing Speed line or every reachable space, again and again; a tuple is
    searched end to end)."""
    if not isinstance(options, tuple) or len(options) <= 8:
        return options
    legal: frozenset[str] | None = _LEGAL.get(options)
    return legal if legal is not None else _LEGAL.put(options, frozenset(options))


class Track:
    """A track of boxes marked in order (durability, health); some boxes are special."""

    __slots__ = ("name", "length", "boxes", "marked")

    def __init__(self, name: str, length: int, boxes: dict[str, Sequence[int]]):
        self.name = name
        self.length = length
        # Positions in order, so :meth:`checked` is a bisection.
        self.boxes = {box: tuple(sorted(positions)) for box, positions in boxes.items()}
        self.marked = 0

    @classmethod
    def fresh(cls, name: str, length: int, boxes: dict[str, tuple[int, ...]]) -> Track:
        """A track with no box marked, its special boxes already in order (shared, never
        written: what :class:`Player` makes for every game from one vocabulary)."""
        track = cls.__new__(cls)
        track.name, track.length, track.boxes, track.marked = name, length, boxes, 0
        return track

    def mark(self, amount: int) -> list[str]:
        """Mark ``amount`` boxes; return the special boxes marked, in order."""
        hit: list[str] = []
        for _ in range(max(amount, 0)):
            if self.marked >= self.length:
                break
            self.marked += 1
            for box, positions in self.boxes.items():
                if self.marked in positions:
                    hit.append(box)
        return hit

    @property
    def full(self) -> bool:
        """True when the last box is marked."""
        return self.marked >= self.length

    def checked(self, box: str) -> int:
        """How many boxes of the special kind ``box`` are marked."""
        return bisect_right(self.boxes.get(box, ()), self.marked)


class Player:
    """One player's state: counters, tracks, zones of card ids, and free-form flags."""

    __slots__ = ("index", "name", "counters", "tracks", "zones", "flags")

    def __init__(self, index: int, name: str, vocabulary: dict[str, Any]):
        self.index = index
        self.name = name
        start = _PLAYER_START.get(vocabulary)
        if start is None:
            start = _PLAYER_START.put(vocabulary, _player_start(vocabulary))
        counters, tracks, zones = start
        self.counters: dict[str, int] = dict(counters)
        self.tracks: dict[str, Track] = {n: Track.fresh(n, length, b) for n, length, b in tracks}
        self.zones: dict[str, list[str]] = {z: [] for z in zones}
        self.flags: dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"Player({self.index}, {self.name!r})"


_PLAYER_START = ObjectCache()


#: A track as every player starts it: its name, its length, its special boxes in order.
_TrackStart = tuple[str, int, dict[str, tuple[int, ...]]]


def _player_start(
    vocabulary: dict[str, Any],
) -> tuple[dict[str, int], tuple[_TrackStart, ...], tuple[str, ...]]:
    """What every player starts with, by a vocabulary: its counters' start values, its tracks
    (name, length, special boxes in order) and its zones; worked out once per vocabulary
    object, since a simulation makes thousands of players from one."""
    return (
        {n: c["start"] for n, c in vocabulary["counters"].items()},
        tuple(
            (n, t["length"], {box: tuple(sorted(at)) for box, at in t["boxes"].items()})
            for n, t in vocabulary["tracks"].items()
        ),
        tuple(vocabulary["zones"]),
    )


class Context:
    """What a handler sees: the acting player, its card, the trigger's params and quantities."""

    __slots__ = ("player", "card", "trigger", "e", "q", "flags")

    def __init__(
        self,
        player: Player,
        card: str,
        trigger: str,
        event: dict[str, Any] | None = None,
        quantities: dict[str, int] | None = None,
        flags: dict[str, Any] | None = None,
    ):
        self.player = player
        self.card = card
        self.trigger = trigger
        self.e = event if event is not None else {}
        self.q = quantities if quantities is not None else {}
        self.flags = flags if flags is not None else {}

    def for_player(self, player: Player) -> Context:
        """The same trigger acting for another player (``for each p in players``); this
        context itself for its own player (nothing changes a context once made, so it is the
        same, and a solo game's every ``for each`` makes no new one)."""
        if player is self.player:
            return self
        return Context(player, self.card, self.trigger, self.e, self.q, self.flags)

    def for_card(self, card: str) -> Context:
        """The same trigger, for another card."""
        return Context(self.player, card, self.trigger, self.e, self.q, self.flags)


class Policy:
    """Who makes decisions: scripted in tests, random or greedy in simulation, a human."""

    def decide(self, game: Game, question: Question) -> str:
        """Return one of ``question.options``."""
        raise NotImplementedError

    def forced(self, game: Game, question: Question) -> str | None:
        """``question`` has one legal answer, which the engine gives without asking
        (:meth:`Game.ask`): a policy that holds an answer of its own for it (a script naming
        the question) returns that answer, to be held to the rule like any other; None, the
        default, lets the only answer stand."""
        return None


class FirstLegal(Policy):
    """Always the first legal answer: deterministic, no judgement."""

    def decide(self, game: Game, question: Question) -> str:
        """The first option."""
        return question.options[0]


class RandomLegal(Policy):
    """A uniformly random legal answer, from the game's seeded generator."""

    def decide(self, game: Game, question: Question) -> str:
        """A random option."""
        return question.options[game.rng.randrange(len(question.options))]


class Scripted(Policy):
    """Answers from a list, in order; running out or a misfit is an error, never a guess."""

    def __init__(self, answers: Iterable[tuple[str | None, str]]):
        self.answers = list(answers)
        self.used = 0

    def decide(self, game: Game, question: Question) -> str:
        """The next scripted answer, checked against the question."""
        if self.used >= len(self.answers):
            raise RuleError(f"no scripted answer left for: {question.describe()}")
        expected, answer = self.answers[self.used]
        self.used += 1
        if expected is not None and expected not in (question.id, question.prompt):
            raise RuleError(
                f"the script answers '{answer}' to '{expected}', but the engine asks "
                f"'{question.id}': {question.describe()}"
            )
        return answer

    def forced(self, game: Game, question: Question) -> str | None:
        """The next scripted answer when it names this question, which has one legal answer
        (a script written before such questions went unasked still runs); a bare answer is
        left for a question that is asked, since nothing says it is this one's."""
        if self.used < len(self.answers):
            expected, answer = self.answers[self.used]
            if expected is not None and expected in (question.id, question.prompt):
                self.used += 1
                return answer
        return None


@dataclass
class HandlerTable:
    """The handlers of one compiled game, loaded from its generated module."""

    module: ModuleType
    handlers: dict[tuple[str, str], Callable[..., Any]]
    formulas: dict[tuple[str, str], Callable[..., Any]]
    lines: dict[int, tuple[str, int, int]]
    filename: str
    #: The DSL verbs written in place of their calls in the flow's section runners: (first
    #: line, last line, verb, the call's file, line and column), outermost first.
    inlined: Sequence[tuple[int, int, str, tuple[str, int, int]]] = ()

    @classmethod
    def from_module(cls, module: ModuleType) -> HandlerTable:
        """Read the tables a generated module exports."""
        return cls(
            module,
            module.HANDLERS,
            module.FORMULAS,
            module.LINES,
            module.__file__ or "",
            getattr(module, "INLINED", ()),
        )

    def answering(self, ir: dict[str, Any]) -> HandlerTable:
        """The table with only the handlers the game runs: a trigger that declares
        ``fires_for`` is run for cards of those kinds alone, as ``cardc check`` warns (an
        ``on final_scoring`` on a Crew card "never runs"); the handler of another kind's card
        would otherwise run whenever that card is in force."""
        triggers = (ir.get("vocabulary") or {}).get("triggers") or {}
        kinds = {card["id"]: card["kind"] for card in ir.get("cards") or ()}
        kept = {
            (card, trigger): handler
            for (card, trigger), handler in self.handlers.items()
            if not triggers.get(trigger, {}).get("fires_for")
            or kinds.get(card) in triggers[trigger]["fires_for"]
        }
        if len(kept) == len(self.handlers):
            return self
        return HandlerTable(
            self.module, kept, self.formulas, self.lines, self.filename, self.inlined
        )

    def inlined_at(self, lineno: int) -> list[tuple[int, int, str, tuple[str, int, int]]]:
        """The inlined verbs whose statements hold the generated line ``lineno``, outermost
        first (a verb inlined inside another's lies within it)."""
        return [entry for entry in self.inlined if entry[0] <= lineno <= entry[1]]

    def position(self, lineno: int) -> tuple[str, int, int] | None:
        """The DSL position of a generated line: the nearest mapped line at or above it."""
        best = None
        for line, where in self.lines.items():
            if line <= lineno and (best is None or line > best[0]):
                best = (line, where)
        return best[1] if best else None


_CARDS_BY_ID = ObjectCache()


def cards_by_id(ir: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The IR's cards by id, built once per IR object and shared by the games made from it
    (a simulation makes thousands from one IR; the cards are read, never written)."""
    cards: dict[str, dict[str, Any]] | None = _CARDS_BY_ID.get(ir)
    if cards is None:
        cards = _CARDS_BY_ID.put(ir, {c["id"]: c for c in ir["cards"]})
    return cards


_GAME_TABLES = ObjectCache()


def _game_tables(
    vocabulary: dict[str, Any],
) -> tuple[dict[str, str], dict[str, tuple[Any, Any]], tuple[tuple[str, str], ...]]:
    """What every game works out from its vocabulary, once per vocabulary object: the track
    owning each special box, each counter's bounds, and the verbs and natives declared
    ``@host`` (each game checks that its program gave them)."""
    return (
        {box: track for track, t in vocabulary["tracks"].items() for box in t["boxes"]},
        {n: (c["min"], c["max"]) for n, c in vocabulary["counters"].items()},
        tuple(
            (table, name)
            for table in ("verbs", "natives")
            for name, sig in vocabulary.get(table, {}).items()
            if sig.get("origin") == "host"
        ),
    )


@dataclass
class Game:
    """The state of one game, the handlers that run its cards, and the means to decide."""

    ir: dict[str, Any]
    table: HandlerTable | None = None
    policies: dict[int, Policy] = field(default_factory=dict)
    seed: int = 0
    player_count: int = 1
    natives: dict[str, Callable[..., Any]] = field(default_factory=dict)
    verbs: dict[str, Callable[..., Any]] = field(default_factory=dict)
    #: scripted dice (tests and scenarios); when set, dice come from here and never from rng.
    scripted_dice: list[int] | None = None
    #: the player mode, for games that have several ("solo", "competitive", "coop").
    mode: str = "solo"

    def __post_init__(self) -> None:
        vocabulary = self.ir["vocabulary"]
        self.rng = random.Random(self.seed)
        #: What :meth:`spend` counted: the repeats, dice and laid-out cells of the game so far.
        self.work_done: float = 0
        self.params: dict[str, Any] = dict(vocabulary["params"])
        #: the counters a scenario gave, by the seat holding each: (seat, counter) ->
        #: (amount, the seat it was given under), for :meth:`give_counter`.
        self.counters_given: dict[tuple[int, str], tuple[int, int]] = {}
        self.cards: dict[str, dict[str, Any]] = cards_by_id(self.ir)
        self.players = [Player(i, f"player {i + 1}", vocabulary) for i in range(self.player_count)]
        self.round = 1
        self.score_counter: str | None = vocabulary.get("score")
        tables = _GAME_TABLES.get(vocabulary)
        if tables is None:
            tables = _GAME_TABLES.put(vocabulary, _game_tables(vocabulary))
        box_triggers, counter_bounds, host = tables
        self.box_triggers = dict(box_triggers)
        self.events: list[tuple[Any, ...]] = []
        self.board: dict[str, Any] = {}
        #: The zones whose deck the game's Python keeps (natives.py's DECKS, set by the
        #: loader): its setup makes them, as a flow's build_deck makes its own.
        self.kept_decks: tuple[str, ...] = ()
        self.counter_bounds = dict(counter_bounds)
        self.question_count = 0
        #: Where :meth:`ask` also keeps each answer, while a flow's lookahead records a phase
        #: (engine/flow.py); None otherwise, which costs an ask nothing more.
        self.recording: list[str] | None = None
        for table, name in host:
            # @host: the program embedding the engine promised this one; hold it to that now,
            # not with a KeyError when a card first calls it.
            if name not in (self.verbs if table == "verbs" else self.natives):
                raise RuleError(
                    f"the {table[:-1]} '{name}' is declared @host, but this program gave "
                    f"no implementation: pass Game(..., {table}={{'{name}': ...}})"
                )

    # -- logging

    def log(self, *event: Any) -> None:
        """Record something that happened, for scenarios, logs and tests. (The engine's
        hottest verbs, a die, a decision, a gain, a draw, append to :attr:`events` directly:
        a game logs about two hundred events, and the call cost 1% of a simulated game.)"""
        self.events.append(event)

    # -- randomness

    def die(self, sides: int = 6) -> int:
        """One die: scripted when a script is set, else from the seeded generator."""
        if self.scripted_dice is not None:
            if not self.scripted_dice:
                raise ScriptedDiceError(f"no scripted die left for a d{sides} roll", sides)
            value = self.scripted_dice.pop(0)
            if not 1 <= value <= sides:
                raise ScriptedDiceError(
                    f"scripted die {value} cannot come up on a d{sides}", sides, value
                )
        else:
            # One C call per die (randint is three Python frames deep); floor(u * n) + 1 is
            # uniform on 1..n for any die a game rolls (n far below 2**53).
            value = int(self.rng.random() * sides) + 1
        self.events.append(("die", sides, value))  # self.log, inlined: a die is a hot path
        return value

    def dice(self, count: int, sides: int) -> list[int]:
        """Roll ``count`` dice; each result."""
        if count > 1:
            self.spend(count, "dice rolled")
        return [self.die(sides) for _ in range(count)]

    def spend(self, count: Any, what: str) -> Any:
        """``count`` (returned as it is) counted against the game's :data:`WORK_BUDGET`: what
        a card makes the engine do over and over (``repeat N``, ``Nd6``, ``1..N``, a hex ring)
        stops with a rule error at the card's line once the game has done too much, instead
        of running for hours."""
        if isinstance(count, (int, float)) and count > 0:
            self.work_done += count
            if self.work_done > WORK_BUDGET:
                raise RuleError(
                    f"{count:,} {what}: this game has now repeated, rolled and laid out more "
                    f"than {WORK_BUDGET:,} times in all, which no table plays; lower the count "
                    "(a computed one: bound it with min(..., N))"
                )
        return count

    def span(self, low: Any, high: Any) -> list[Any]:
        """The numbers ``low..high`` (a DSL range), counted by :meth:`spend`."""
        if isinstance(low, (int, float)) and isinstance(high, (int, float)):
            self.spend(high - low + 1, "numbers in a range")
        return list(range(low, high + 1))

    def roll(self, count: int, sides: int, c: Context | None = None) -> int:
        """Roll ``count`` dice; their sum. ``c`` is the context of the card or phase that rolls
        (a ``let storm 1d6`` for each captain): whose roll it is, for a game that lets a
        player change their own dice (Uncharted Passage's Figurehead)."""
        return sum(self.dice(count, sides))

    def shuffle(self, cards: list[Any]) -> None:
        """Shuffle in place with the seeded generator (Fisher-Yates on ``random()``, one C
        call a card: ``Random.shuffle`` costs a Python-level ``_randbelow`` per card)."""
        random = self.rng.random
        for i in range(len(cards) - 1, 0, -1):
            j = int(random() * (i + 1))
            cards[i], cards[j] = cards[j], cards[i]

    # -- decisions

    def ask(self, player: Player, question: Question) -> str:
        """Ask ``player``'s policy; refuse an answer that is not legal.

        A question with exactly one legal answer is not asked: there is nothing to decide
        ("Move how many spaces? [1]"), so no policy or scenario has to answer it. The answer is
        logged as a decision all the same, marked as the only one, so a log or a scenario's
        events still show why the game went that way. A rule that lets the player decline is
        a question of two answers (a ``may``'s yes and no, a Waypoint's ``none``) and is
        always asked. A script that names the question may still answer it
        (:meth:`Policy.forced`), and is held to the rule as any answer is."""
        policy = self.policies.get(player.index) or self.policies.get(-1) or FirstLegal()
        options = question.options
        if len(options) == 1:
            only = options[0]
            scripted = policy.forced(self, question)
            if scripted is not None and scripted != only:
                raise IllegalDecision(
                    question.refusal(scripted)
                    + " (a question with one legal answer is answered without asking: a "
                    "scenario need not script it)"
                )
            self.events.append(
                ("decision", player.index, question.id, only, "(the only legal answer)")
            )
            return only
        answer = policy.decide(self, question)
        if answer not in legal_answers(question.options):
            raise IllegalDecision(question.refusal(answer))
        # self.log, inlined: every decision of a game comes here.
        self.events.append(("decision", player.index, question.id, answer))
        if self.recording is not None:
            self.recording.append(answer)
        return answer

    def may(self, c: Context, ident: str, prompt: str) -> bool:
        """An optional effect: the acting player's policy says yes or no. The question is
        headed by the card's title, or by the flow phase's that asks it."""
        card = self.cards.get(c.card)
        title = card.get("title", c.card) if card is not None else self.asker_title(ident)
        question = Question(ident, c.player.index, f"{title}: may {prompt}?", ("yes", "no"), "may")
        return self.ask(c.player, question) == "yes"

    def asker_title(self, ident: str) -> str:
        """The title of what asks ``ident`` when it is no card: a flow phase's question
        (``flow.marooned.rescue_crew``) is headed by its phase's title ("The Marooned and Lost
        Rule"), not by the word "flow"; a DSL verb's (``place_worker.verb.gather``) by its
        description ("Place one worker on an action space"), else its name in words ("Place
        worker"), not by its name as the cards write it (``place_worker``)."""
        holder, _, rest = ident.partition(".")
        inner = rest.partition(".")[0]
        if holder == "flow":
            for section in (self.ir.get("flow") or {}).get("sections", ()):
                for each in section.get("phases", ()):
                    if each.get("name") == inner and each.get("title"):
                        return str(each["title"])
            return holder
        if inner == "verb":
            verb = self.ir.get("vocabulary", {}).get("verbs", {}).get(holder) or {}
            said = str(verb.get("doc") or "") or holder.replace("_", " ")
            return said[:1].upper() + said[1:]
        return holder

    def choose(
        self, c: Context, ident: str, names: Sequence[str], labels: Sequence[str] = ()
    ) -> int:
        """``choose one of``: the index of the option the acting player picks. The answers are
        the options' names (``take_treasure``), the prompt says what each one does."""
        # Headed as a `may` is: by the card, else by the flow phase that asks it ("flow:
        # choose one" said nothing of which phase).
        card = self.cards.get(c.card)
        title = card.get("title", c.card) if card is not None else self.asker_title(ident)
        said = "; ".join(f"{n}: {t}" for n, t in zip(names, labels, strict=False))
        prompt = f"{title}: choose one" + (f" ({said})" if said else "")
        question = Question(ident, c.player.index, prompt, tuple(names))
        return list(names).index(self.ask(c.player, question))

    def choose_from(self, c: Context, ident: str, items: Iterable[Any], prompt: str) -> list[Any]:
        """``choose VAR in LIST``: the item of ``items`` the acting player picks, as a list of
        one (the generated code loops over it), or an empty list when there is nothing to
        pick. The answers are the items as a scenario writes them (:func:`answer_of`: a card's
        id, a symbol, a number, a seat number for a player), each once however many copies
        the list holds; the prompt is headed by the card or flow phase that asks."""
        picks: dict[str, Any] = {}
        for item in items:
            picks.setdefault(answer_of(item), item)
        if not picks:
            return []
        card = self.cards.get(c.card)
        title = card.get("title", c.card) if card is not None else self.asker_title(ident)
        question = Question(ident, c.player.index, f"{title}: choose {prompt}", tuple(picks))
        return [picks[self.ask(c.player, question)]]

    # -- prelude verbs

    def _bound(self, counter: str, value: int) -> int:
        low, high = self.counter_bounds.get(counter, (0, None))
        if value < low:
            value = low
        if high is not None and value > high:
            value = high
        return value

    def gain(self, c: Context, counter: str, amount: int) -> None:
        """Gain ``amount`` of ``counter``, never less than none: an amount worked out below 0
        (``gain prestige sold - 5`` having sold 3) gains nothing, since a rulebook's "gain"
        never takes away (the checker refuses a literal negative one: say ``lose``)."""
        if amount < 0:
            amount = 0
        counters = c.player.counters
        counters[counter] = self._bound(counter, counters[counter] + amount)
        self.events.append(("gain", c.player.index, counter, amount))  # self.log, inlined

    def lose(self, c: Context, counter: str, amount: int) -> None:
        """Lose ``amount`` of ``counter``, never below its minimum; an amount worked out below
        0 loses nothing (a "lose" never gives, as :meth:`gain` never takes away). The event
        logs what was lost, not what was asked: "lose 3 coins" holding 1 logs 1, as the table
        saw it (a scenario's ``events:`` line and ``cardc sim --log`` read it)."""
        if amount < 0:
            amount = 0
        counters = c.player.counters
        had = counters[counter]
        counters[counter] = self._bound(counter, had - amount)
        self.log("lose", c.player.index, counter, max(had - counters[counter], 0))

    def pay(self, c: Context, counter: str, amount: int) -> int:
        """Spend what the player has, up to ``amount``; return what could not be paid."""
        have = c.player.counters[counter]
        paid = min(have, max(amount, 0))
        c.player.counters[counter] = have - paid
        self.log("pay", c.player.index, counter, paid)
        return max(amount, 0) - paid

    def set(self, c: Context, target: str, value: int) -> None:
        """Set a quantity of this trigger, or a counter."""
        if target in c.q:
            c.q[target] = value
        else:
            c.player.counters[target] = self._bound(target, value)
        self.log("set", c.player.index, target, value)

    def add(self, c: Context, target: str, amount: int) -> None:
        """Add to a quantity of this trigger, or to a counter."""
        if target in c.q:
            c.q[target] += amount
        else:
            c.player.counters[target] = self._bound(target, c.player.counters[target] + amount)
        self.log("add", c.player.index, target, amount)

    def reduce(self, c: Context, target: str, amount: int) -> None:
        """Reduce a quantity of this trigger, or a counter, by up to ``amount``, not below 0."""
        if target in c.q:
            c.q[target] = max(c.q[target] - amount, 0)
        else:
            c.player.counters[target] = self._bound(
                target, max(c.player.counters[target] - amount, 0)
            )
        self.log("reduce", c.player.index, target, amount)

    def mark(self, c: Context, track: str, amount: int) -> None:
        """Mark boxes on a track; each special box marked fires its trigger, unless the marks
        reached the last box: then the full track is what happened (Uncharted Passage: "if you
        check the last space ... your ship sinks and the game ends immediately"), and the boxes
        passed on the way are marked but ask nothing more.

        A negative amount computed at run time is an error (at the DSL position, through
        :meth:`call`): marks are never taken back by ``mark``; the checker refuses a literal one.
        """
        if amount < 0:
            raise RuleError(
                f"'mark {track}' with {amount} boxes: a negative number of boxes cannot be "
                "marked (marks are never taken back); write max(..., 0) to mark none, or the "
                "library's 'erase' to take marks back"
            )
        tracked = c.player.tracks[track]
        hit = tracked.mark(amount)
        self.log("mark", c.player.index, track, amount)
        full = tracked.full
        for box in hit:
            self.log("box", c.player.index, box)
            if not full:
                self.fire(box, c.player)
        if full:
            self.log("track_full", c.player.index, track)
            self.on_track_full(c.player, track)

    def on_track_full(self, player: Player, track: str) -> None:
        """A track's last box was marked; a game flow decides what that means."""

    def score(self, c: Context, amount: int) -> None:
        """Gain points on the game's score counter (none for an amount below 0, as
        :meth:`gain`)."""
        if self.score_counter is None:
            raise RuleError("this game declares no 'score' counter")
        self.gain(c, self.score_counter, amount)

    def draw(self, c: Context, zone: str, amount: int) -> None:
        """Draw cards into a zone, from the deck a game flow keeps in ``board['deck:'+zone]``
        (``build_deck ZONE`` makes it); a deck no one built is an error, not a draw of
        nothing."""
        deck = self.board.get(f"deck:{zone}")
        if deck is None:
            if getattr(self, "set_up", True) is False and self._setup_makes(zone):
                # A scenario that draws before the setup ran: the deck is the setup's to make.
                raise RuleError(
                    f"'draw {zone}' found no deck for {zone}: the game's setup, which makes "
                    "its decks, has not run; in a scenario, set it up first (- action: section "
                    "with args: {name: setup}) or give the deck in 'given'"
                )
            raise RuleError(
                f"'draw {zone}' takes from the deck 'build_deck {zone}' makes, and this game "
                f"built none for {zone}: build it in the flow's setup, or draw from a zone of "
                "the game's own with draw_from (use decks)"
            )
        drawn = []
        for _ in range(amount):
            if not deck:
                break
            drawn.append(deck.pop(0))
        c.player.zones[zone].extend(drawn)
        # The cards drawn, last: what the simulator's per-card figures count.
        self.events.append(("draw", c.player.index, zone, amount, drawn))  # self.log, inlined

    def _setup_makes(self, zone: str) -> bool:
        """The game's setup makes the deck of ``zone``: its Python keeps it (DECKS) or the
        flow's setup builds it (``build_deck ZONE``, ``stock_market ZONE KIND``)."""
        if zone in self.kept_decks:
            return True
        for section in (self.ir.get("flow") or {}).get("sections", []):
            if section.get("section") != "setup":
                continue
            stack: list[Any] = [section]
            while stack:
                node = stack.pop()
                if isinstance(node, list):
                    stack.extend(node)
                elif isinstance(node, dict):
                    if node.get("kind") == "verb" and node.get("verb") in (
                        "build_deck",
                        "stock_market",
                    ):
                        first = (node.get("args") or [None])[0]
                        if isinstance(first, dict) and first.get("name") == zone:
                            return True
                    stack.extend(v for v in node.values() if isinstance(v, (dict, list)))
        return False

    def discard(self, c: Context, card: str) -> None:
        """Discard a card the player holds, from whichever zone holds it."""
        for cards in c.player.zones.values():
            if card in cards:
                cards.remove(card)
                self.log("discard", c.player.index, card)
                return

    def move_card(self, c: Context, card: str, source: str, target: str) -> None:
        """The ``zones`` library's ``move_card``: one copy of a card from one of the player's
        zones to the end of another. A game whose zone mirrors a board of its own (numbered
        cabins, slots) overrides it, as :meth:`discard`."""
        zones = c.player.zones
        if card not in zones[source]:
            raise RuleError(f"{c.player.name} has no {card} in {source}")
        zones[source].remove(card)
        zones[target].append(card)
        self.log("move_card", c.player.index, card, source, target)

    def move_all(self, c: Context, source: str, target: str) -> None:
        """The ``zones`` library's ``move_all``: every card of one of the player's zones to the
        end of another."""
        zones = c.player.zones
        moved = len(zones[source])
        zones[target].extend(zones[source])
        zones[source].clear()
        self.log("move_all", c.player.index, source, target, moved)

    def fire_in_force(self, c: Context, trigger: str) -> None:
        """``fire TRIGGER``: run the trigger for the cards in force for the acting player, as
        :meth:`fire` does, its quantities starting at 0, through :meth:`open_window`. A trigger
        firing itself (an ``on reveal`` that fires ``reveal``) is refused: it would never end."""
        declared = self.ir["vocabulary"]["triggers"].get(trigger)
        quantities = dict.fromkeys(declared["quantities"], 0) if declared else None
        self.open_window(c, trigger, quantities)

    def open_window(self, c: Context, trigger: str, quantities: dict[str, int] | None) -> Context:
        """``fire TRIGGER with QUANTITY VALUE, ... { ... }``: run the trigger for the cards in
        force for the acting player with those quantities, through :meth:`fire` as the
        game's Python opens a window (Uncharted Passage's ``raid``); return its context, whose
        ``q`` holds the quantities as the cards that answered left them. A window opening
        itself while it runs is refused: it would never end."""
        firing: set[str] = self.__dict__.setdefault("_firing", set())
        if trigger in firing:
            error = RuleError(f"'{trigger}' fires itself while it runs, which would never end")
            error.window = trigger  # type: ignore[attr-defined]  # located at the card (locate)
            raise error
        firing.add(trigger)
        try:
            return self.fire(trigger, c.player, quantities=quantities)
        finally:
            firing.discard(trigger)

    def build_deck(self, c: Context, zone: str) -> None:
        """``build_deck hand``: the deck ``draw`` takes from for ``zone``: every card of the
        kinds that declare a ``copies`` property (when none does, every card not always in
        force), as many times as its ``copies`` (1 without one), shuffled with the game's
        seed."""
        kinds = self.ir["vocabulary"]["kinds"]
        decked = {k for k, kind in kinds.items() if "copies" in kind.get("properties", {})}
        deck: list[str] = []
        for cid, card in self.cards.items():
            in_deck = card["kind"] in decked if decked else card["kind"] not in self.always_in_force
            if not in_deck:
                continue
            copies = card["properties"].get("copies", 1)
            deck.extend([cid] * max(int(copies) if isinstance(copies, (int, float)) else 1, 0))
        self.shuffle(deck)
        self.board[f"deck:{zone}"] = deck

    def play_one(self, c: Context, zone: str) -> bool:
        """``play_one hand``: the acting player may play one card of ``zone`` that has an
        ``on play`` (or pass); the card leaves the zone and its ``on play`` runs."""
        handlers = self.table.handlers if self.table else {}
        held = c.player.zones[zone]
        playable = [card for card in dict.fromkeys(held) if (card, "play") in handlers]
        if not playable:
            return False
        question = Question(
            f"play_one.{zone}",
            c.player.index,
            f"play a card from {zone}",
            ("pass", *playable),
            "play",
        )
        answer = self.ask(c.player, question)
        if answer == "pass":
            return False
        self.log("play", c.player.index, answer)
        held.remove(answer)
        self.call(handlers[(answer, "play")], c.for_card(answer))
        return True

    def end_game(self, c: Context, reason: str) -> None:
        """``end_game "reason"``: end the game at once (the flow's ``end`` section still runs)."""
        self.log("end_game", c.player.index, reason)
        raise GameEnded(reason)

    def holds(self, player: Player, card: str) -> bool:
        """True when the player holds a copy of ``card`` in any zone."""
        return any(card in cards for cards in player.zones.values())

    def play(self, c: Context, card: str) -> bool:
        """Offer to play a held card of that name; discard it and return True if played."""
        if not self.holds(c.player, card):
            return False
        title = self.cards.get(card, {}).get("title", card)
        question = Question(f"play.{card}", c.player.index, f"play {title}?", ("yes", "no"), "play")
        if self.ask(c.player, question) != "yes":
            return False
        self.log("play", c.player.index, card)
        self.discard(c, card)
        # Playing a card does what the card says: its own 'on play', if it has one.
        handler = self.table.handlers.get((card, "play")) if self.table else None
        if handler is not None:
            self.call(handler, c.for_card(card))
        return True

    def attr(self, value: Any, name: str, default: Any = None) -> Any:
        """``value.name`` in the DSL: a card's property (``default`` when the card lacks that
        optional one), a mapping key or an attribute."""
        if isinstance(value, str):
            card = self.cards.get(value)
            if card is None:
                raise RuleError(f"'{value}' is not a card, so it has no '{name}'")
            return card["properties"].get(name, default)
        if isinstance(value, dict):
            return value[name]
        try:
            return getattr(value, name)
        except AttributeError:
            # An item of a list read as a card (`for each x in [1, 2] { score x.worth }`: the
            # checker reads an item of no known kind as any kind's card) that is none.
            raise RuleError(f"{value!r} is not a card, so it has no '{name}'") from None

    def has_tag(self, value: Any, tag: str) -> bool:
        """``card.tag`` in the DSL: true when the card carries that tag."""
        card = self.cards.get(value) if isinstance(value, str) else None
        if card is None:
            raise RuleError(f"'{value}' is not a card, so it has no tag '{tag}'")
        return tag in card["tags"]

    # -- running handlers

    def run(
        self,
        card: str,
        trigger: str,
        player: Player | None = None,
        event: dict[str, Any] | None = None,
        quantities: dict[str, int] | None = None,
    ) -> Context:
        """Run one card's handler for ``trigger``; return the context (quantities after)."""
        c = Context(player or self.players[0], card, trigger, event, quantities)
        handler = self.table.handlers.get((card, trigger)) if self.table else None
        if handler is not None:
            self.call(handler, c)
        return c

    def fire(
        self,
        trigger: str,
        player: Player,
        cards: Iterable[str] | None = None,
        event: dict[str, Any] | None = None,
        quantities: dict[str, int] | None = None,
    ) -> Context:
        """Run ``trigger`` for every card in force (default: rules and the player's cards).

        Cards of the same name answer once per trigger: "you can't play multiple cards of the
        same name at the same time to enhance their effects".
        """
        c = Context(player, "", trigger, event, quantities)
        if self.table is None:
            return c
        if cards is None:
            cards = self.cards_in_force(player)
        seen: set[str] = set()
        for card in cards:
            if card in seen:
                continue
            seen.add(card)
            handler = self.table.handlers.get((card, trigger))
            if handler is not None:
                self.call(handler, c.for_card(card))
        return c

    def cards_in_force(self, player: Player) -> list[str]:
        """Cards whose handlers answer triggers: every rule, then what the player holds."""
        rules = [cid for cid, card in self.cards.items() if card["kind"] in self.always_in_force]
        held = [cid for cards in player.zones.values() for cid in cards]
        return rules + held

    def counter_holder(self, player: Player, counter: str) -> Player:
        """The seat whose counter ``counter`` stands for ``player``'s: the player's own, unless
        the game's seats share it (Land vs Sea's side keeps one score for its team). A
        scenario's ``counters`` under a seat give and expect it there."""
        del counter
        return player

    def give_counter(self, player: Player, counter: str, amount: int) -> None:
        """Set ``player``'s ``counter`` as a scenario gives it, on the seat holding it
        (:meth:`counter_holder`); two seats sharing it given different amounts are refused,
        naming both (a team's one score given 10 on a seat and 0 on its team mate kept
        whichever came last)."""
        holder = self.counter_holder(player, counter)
        given = self.counters_given
        seen = given.get((holder.index, counter))
        if seen is not None and seen[0] != amount:
            raise RuleError(
                f"player {player.index + 1} shares {counter} with player {seen[1] + 1} (one "
                f"score for their side), given {seen[0]} there and {amount} here; give it once"
            )
        given[(holder.index, counter)] = (amount, player.index)
        holder.counters[counter] = amount

    #: Card kinds whose handlers are always in force (game flows may extend this).
    always_in_force: tuple[str, ...] = ("rule", "layer")

    def formula(self, card: str, name: str, c: Context | None = None) -> Any:
        """Evaluate a card's formula property (``pirate highest(2d6)``)."""
        if self.table is None:
            raise RuleError("no handlers loaded")
        fn = self.table.formulas.get((card, name))
        if fn is None:
            # A step or a rule asking the wrong card (a mission for a voyage's pirate) is a
            # refusal that names both, not a KeyError.
            known = self.cards.get(card)
            what = (
                f"'{card}' ({with_article(known['kind'])})"
                if known
                else f"'{card}', which is no card,"
            )
            raise RuleError(f"{what} has no formula '{name}'")
        return self.call(fn, c or Context(self.players[0], card, name))

    def call(self, handler: Callable[..., Any], c: Context) -> Any:
        """Call a generated function; map a failure inside it to its DSL position. A card's
        answer that sets its own trigger off again without end (a rule scoring 5 each time
        the end of a 5-space score track is passed) is refused as such, not Python's
        RecursionError."""
        try:
            return handler(self, c)
        except RuleError as error:
            if getattr(error, "located", False):
                outer = getattr(error, "called_by_python", None)
                if outer is None:
                    raise
                # A DSL verb the game's Python ran (Incredible Expeditions' encounter_actions
                # running venture_forth) failed: its caller is in this call's generated code.
                raise located_again(self, error, outer, sys.exc_info()[2], _CALL) from error
            raise locate(self, error, sys.exc_info()[2]) from error
        except RecursionError as error:
            # Caught where the stack has room again (an inner call() short of it passes the
            # new RecursionError out): nothing is counted on the way in.
            raise endless(self, c, error, _CALL) from None
        except (Exception, SystemExit) as error:  # noqa: BLE001 - reported at its rule
            # (a game's Python calling sys.exit() mid-game would end cardc without a word)
            if getattr(error, "passthrough", False):
                raise
            raise locate(self, error, sys.exc_info()[2]) from error


#: The code of :meth:`Game.call`: its frames bound a failure that :mod:`engine.locate` reads.
_CALL = Game.call.__code__
