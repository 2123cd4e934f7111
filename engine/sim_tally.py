"""One simulated game's outcome, read from its result, its state and its event log, and the
exact accumulators a run adds outcomes to (:class:`Tally`, :class:`PairTally`).

Split from :mod:`engine.sim`, which re-exports these names.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any

from engine.runtime import Game
from engine.sim_stats import Moments, merge_counts

#: How a report shows a game without a title: a sunk ship ("you are lost to history without
#: leaving any record"), and any other game the flow gave no title.
SUNK = "(sunk: lost to history)"
NO_TITLE = "(no title)"

#: How a game that no track ended came to its end.
PLAYED_OUT = "played to the end"
#: How a game of a set number of rounds that the flow's ``end when`` ended first (no track
#: full) came to its end: a house rule racing to a score ends games early, and the report says
#: how often. A flow with no count of rounds (Land vs Sea's turns until the last tile) ends by
#: its condition when played to the end.
ENDED_BY_CONDITION = "ended early by its end condition"


# -- one game's outcome, read from its result, its state and its event log


@dataclass(slots=True)
class Outcome:
    """What one game contributes to the figures.

    ``samples`` are (score, afloat, title): the team in co-op, the single player in solo, every
    player in competitive. ``cards`` holds, per sample, the cards drawn, played and held at the
    end (None when card figures are off).
    """

    samples: list[tuple[int, bool, str]]
    sunk: int
    winner: str | None
    end: str
    length: int
    cards: list[tuple[set[str], set[str], set[str]]] | None
    #: Turns taken, for a game of turns (a flow's result says; 0 when it does not).
    turns: int = 0
    #: Points scored by source (a game's ``points_by``: a scoring layer, the base game), all
    #: seats together; empty for a game that does not keep them.
    points_by: dict[str, int] = field(default_factory=dict)
    #: The names of the sides the seats played (a game's ``seat_label``: "Land", "Sea"), in
    #: seat order; empty for a game whose winners are seats.
    sides: tuple[str, ...] = ()
    #: Whether ships can sink in this game (``ships_sink``), so a sink rate means something.
    ships_sink: bool = True


def _winner_label(winner: int | None, game: Game | None = None) -> str:
    """Who won, in words: the game's own name for the winning seat when it has one (a game of
    sides or teams names its ``seat_label``: "Land", "Sea team"), else "player N"."""
    if winner is None:
        return "no winner"
    label = getattr(game, "seat_label", None)
    return str(label(winner)) if label is not None else f"player {winner + 1}"


def _samples(mode: str, result: Any) -> list[tuple[int, bool, str]]:
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


def _positions(kinds: list[Any], kind: str) -> Iterator[int]:
    """Where events of ``kind`` are in the event log. ``list.index`` searches in C: a game logs
    hundreds of events and only a few are draws or plays, so this costs a fraction of a loop
    over every event in Python (the statistics must stay a few percent of a game's time)."""
    at = -1
    while True:
        try:
            at = kinds.index(kind, at + 1)
        except ValueError:
            return
        yield at


def _card_sets(
    game: Game, mode: str, kinds: list[Any]
) -> list[tuple[set[str], set[str], set[str]]]:
    """Per sample: the cards drawn and played (from the event log: ``draw`` and ``draw_from``
    name the cards drawn, ``play`` and ``discard`` the card played, and ``move_card`` a card
    moved out of a zone cards are drawn into, the hand, to another zone, or into it from
    another) and those held at the end in a zone cards were drawn into (from the game's
    state). In co-op the team's sample has both players' cards."""
    events = game.events
    count = len(game.players)
    drawn: list[set[str]] = [set() for _ in range(count)]
    played: list[set[str]] = [set() for _ in range(count)]
    zones: set[str] = set()
    for at in _positions(kinds, "draw"):
        event = events[at]
        if len(event) > 4:
            drawn[event[1]].update(event[4])
            zones.add(event[2])
    # The standard library's decks (``draw_from``, ``draw_or_reshuffle``) log the deck, the
    # zone drawn into, the count and the cards.
    for at in _positions(kinds, "draw_from"):
        event = events[at]
        if len(event) > 5:
            drawn[event[1]].update(event[5])
            zones.add(event[3])
    # A card is played when it says so (``play``), or when a rule discards it: a card that
    # spends itself (``may { reduce pirate_power up_to 2; discard self }``) logs no ``play``.
    for kind in ("play", "discard"):
        for at in _positions(kinds, kind):
            event = events[at]
            if len(event) > 2:
                played[event[1]].add(event[2])
    # A game that plays a card by moving it (``choose card in hand { move_card card hand
    # played }``: a trick-taking game's lead) logs ``move_card``, no ``play``: a card moved out
    # of a zone cards are drawn into, to one they are not, is played; one moved the other way
    # (``choose taken in look_at(deck, 3) { move_card taken deck hand }``) is drawn.
    # A game whose own Python logs its cards by events of its own says which figure each
    # counts in (``CARD_EVENTS``, event kind -> "drawn" or "played", the card third): Land vs
    # Sea's tiles are drawn ("drew") and played by being placed ("placed").
    for kind, figure in (getattr(game, "CARD_EVENTS", None) or {}).items():
        into = drawn if figure == "drawn" else played
        for at in _positions(kinds, kind):
            event = events[at]
            if len(event) > 2:
                into[event[1]].add(event[2])
    for at in _positions(kinds, "move_card"):
        event = events[at]
        if len(event) > 4:
            source, target = event[3] in zones, event[4] in zones
            if source and not target:
                played[event[1]].add(event[2])
            elif target and not source:
                drawn[event[1]].add(event[2])
    held: list[set[str]] = []
    for player in game.players:
        held.append({card for zone in zones for card in player.zones.get(zone, ())})
    if mode == "coop":
        return [(set().union(*drawn), set().union(*played), set().union(*held))]
    return list(zip(drawn, played, held, strict=True))


def _end_reason(game: Game, result: Any, kinds: list[Any]) -> str:
    """How the game ended: the track whose last box ended it ("sunk by durability"), from the
    event log; else the reason a flow's ``end_game "reason"`` gave (``result.reason``); else
    ended early by the flow's ``end when`` in a game of a set number of rounds (the result's,
    or else the game's, ``reason``); else played to the end."""
    if any(result.sunk):
        for at in _positions(kinds, "track_full"):
            return f"sunk by {game.events[at][2]}"
        return "sunk"
    # A game whose own result carries no reason (Uncharted Passage's) still knows how its
    # flow ended (engine.flow.FlowGame.reason).
    reason = getattr(result, "reason", None) or getattr(game, "reason", None)
    if reason == "end_when":
        return ENDED_BY_CONDITION if getattr(game, "round_count", None) else PLAYED_OUT
    if isinstance(reason, str) and reason not in _PLAYED_OUT_REASONS:
        return reason
    return PLAYED_OUT


#: A flow result's reasons that mean the game was played to its end (engine.flow.FlowResult).
_PLAYED_OUT_REASONS = frozenset(("", "rounds", "end_when"))


def outcome(game: Game, result: Any, mode: str, cards: bool = True) -> Outcome:
    """One played game's :class:`Outcome`."""
    logbook = getattr(result, "logbook", None) or []
    length = max((len(months) for months in logbook), default=0) or int(game.round)
    kinds = list(map(itemgetter(0), game.events))
    return Outcome(
        samples=_samples(mode, result),
        sunk=sum(1 for s in result.sunk if s),
        winner=_winner_label(result.winner, game) if mode == "competitive" else None,
        end=_end_reason(game, result, kinds),
        length=length,
        cards=_card_sets(game, mode, kinds) if cards else None,
        turns=int(getattr(result, "turns", 0) or 0),
        points_by=dict(getattr(game, "points_by", None) or {}),
        sides=_sides(game) if mode == "competitive" else (),
        ships_sink=bool(getattr(game, "ships_sink", True)),
    )


def _sides(game: Game) -> tuple[str, ...]:
    """Every seat's side by the game's ``seat_label``; empty for a game without one."""
    label = getattr(game, "seat_label", None)
    if label is None:
        return ()
    return tuple(str(label(index)) for index in range(len(game.players)))


# -- accumulators


@dataclass
class CardTally:
    """One card's figures: the scores of the samples that drew it, that played it, and that
    drew it and never played it; how many held it at the end."""

    drawn: Moments = field(default_factory=Moments)
    played: Moments = field(default_factory=Moments)
    unplayed: Moments = field(default_factory=Moments)
    held: int = 0

    def merge(self, other: CardTally) -> None:
        """Add ``other``'s figures."""
        self.drawn.merge(other.drawn)
        self.played.merge(other.played)
        self.unplayed.merge(other.unplayed)
        self.held += other.held

    def as_dict(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "drawn": self.drawn.as_list(),
            "played": self.played.as_list(),
            "unplayed": self.unplayed.as_list(),
            "held": self.held,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardTally:
        """From :meth:`as_dict`."""
        return cls(
            Moments.from_list(data["drawn"]),
            Moments.from_list(data["played"]),
            Moments.from_list(data["unplayed"]),
            int(data["held"]),
        )


@dataclass
class Tally:
    """Every figure of a run as exact, mergeable counts (see :mod:`engine.sim_stats`)."""

    games: int = 0
    scores: Counter[int] = field(default_factory=Counter)
    afloat: Moments = field(default_factory=Moments)
    titles: Counter[str] = field(default_factory=Counter)
    title_scores: dict[str, Moments] = field(default_factory=dict)
    wins: Counter[str] = field(default_factory=Counter)
    games_with_sinking: int = 0
    ships_sunk: int = 0
    ends: Counter[str] = field(default_factory=Counter)
    lengths: Counter[int] = field(default_factory=Counter)
    cards: dict[str, CardTally] = field(default_factory=dict)
    #: Turns per game, for games of turns (empty otherwise).
    turns: Counter[int] = field(default_factory=Counter)
    #: Points by source (layer), all games together, for games that keep them (empty
    #: otherwise): the mean per game is this over ``games``.
    points_by: Counter[str] = field(default_factory=Counter)
    #: Every side a seat played in these games (named by the game's ``seat_label``); empty for
    #: a game whose winners are seats. A set, so runs merge by union.
    sides: set[str] = field(default_factory=set)
    #: Whether ships can sink in the game (every game counted said so).
    ships_sink: bool = True

    def add(self, game: Outcome) -> None:
        """Count one game."""
        if not self.games:
            self.ships_sink = game.ships_sink
        self.games += 1
        self.sides.update(game.sides)
        self.ships_sunk += game.sunk
        if game.sunk:
            self.games_with_sinking += 1
        if game.winner is not None:
            self.wins[game.winner] += 1
        self.ends[game.end] += 1
        self.lengths[game.length] += 1
        if game.turns:
            self.turns[game.turns] += 1
        if game.points_by:
            self.points_by.update(game.points_by)
        for index, (score, afloat, title) in enumerate(game.samples):
            self.scores[score] += 1
            if afloat:
                self.afloat.add(score)
            self.titles[title] += 1
            moments = self.title_scores.get(title)
            if moments is None:
                moments = self.title_scores[title] = Moments()
            moments.add(score)
            if game.cards is not None:
                drawn, played, held = game.cards[index]
                for card in drawn | played:
                    tally = self.cards.get(card)
                    if tally is None:
                        tally = self.cards[card] = CardTally()
                    if card in drawn:
                        tally.drawn.add(score)
                        if card not in played:
                            tally.unplayed.add(score)
                    if card in played:
                        tally.played.add(score)
                    if card in held:
                        tally.held += 1

    def merge(self, other: Tally) -> Tally:
        """Add ``other``'s games (in place); return self."""
        if not self.games:
            # An empty tally knows nothing of the game yet: the other's word stands.
            self.ships_sink = other.ships_sink
        self.games += other.games
        merge_counts(self.scores, other.scores)
        self.afloat.merge(other.afloat)
        merge_counts(self.titles, other.titles)
        for title, moments in other.title_scores.items():
            self.title_scores.setdefault(title, Moments()).merge(moments)
        merge_counts(self.wins, other.wins)
        self.games_with_sinking += other.games_with_sinking
        self.ships_sunk += other.ships_sunk
        merge_counts(self.ends, other.ends)
        merge_counts(self.lengths, other.lengths)
        merge_counts(self.turns, other.turns)
        merge_counts(self.points_by, other.points_by)
        self.sides |= other.sides
        for card, tally in other.cards.items():
            self.cards.setdefault(card, CardTally()).merge(tally)
        return self

    def as_dict(self) -> dict[str, Any]:
        """As JSON, sorted, so a run always writes the same bytes."""
        return {
            "games": self.games,
            "scores": {str(k): self.scores[k] for k in sorted(self.scores)},
            "afloat": self.afloat.as_list(),
            "titles": {t: self.titles[t] for t in sorted(self.titles)},
            "title_scores": {t: self.title_scores[t].as_list() for t in sorted(self.title_scores)},
            "wins": {w: self.wins[w] for w in sorted(self.wins)},
            "games_with_sinking": self.games_with_sinking,
            "ships_sunk": self.ships_sunk,
            "ends": {e: self.ends[e] for e in sorted(self.ends)},
            "lengths": {str(k): self.lengths[k] for k in sorted(self.lengths)},
            "cards": {c: self.cards[c].as_dict() for c in sorted(self.cards)},
            # Only games of turns have the key: other games' JSON stays as it was.
            **(
                {"turns": {str(k): self.turns[k] for k in sorted(self.turns)}} if self.turns else {}
            ),
            # Likewise only games that keep points by source.
            **(
                {"points_by": {k: self.points_by[k] for k in sorted(self.points_by)}}
                if self.points_by
                else {}
            ),
            # Likewise only games of sides, and games without ships.
            **({"sides": sorted(self.sides)} if self.sides else {}),
            **({} if self.ships_sink else {"ships_sink": False}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tally:
        """From :meth:`as_dict`."""
        return cls(
            games=int(data["games"]),
            scores=Counter({int(k): int(v) for k, v in data["scores"].items()}),
            afloat=Moments.from_list(data["afloat"]),
            titles=Counter({str(k): int(v) for k, v in data["titles"].items()}),
            title_scores={k: Moments.from_list(v) for k, v in data["title_scores"].items()},
            wins=Counter({str(k): int(v) for k, v in data["wins"].items()}),
            games_with_sinking=int(data["games_with_sinking"]),
            ships_sunk=int(data["ships_sunk"]),
            ends=Counter({str(k): int(v) for k, v in data["ends"].items()}),
            lengths=Counter({int(k): int(v) for k, v in data["lengths"].items()}),
            cards={k: CardTally.from_dict(v) for k, v in data["cards"].items()},
            turns=Counter({int(k): int(v) for k, v in data.get("turns", {}).items()}),
            points_by=Counter({str(k): int(v) for k, v in data.get("points_by", {}).items()}),
            sides={str(s) for s in data.get("sides", [])},
            ships_sink=bool(data.get("ships_sink", True)),
        )


@dataclass
class PairTally:
    """Per-game differences of one point against the first, on the same seeds.

    ``score`` and ``length`` are the moments of the differences; a yes/no figure (a sinking,
    an end reason, a title, a winner) is counted by its discordant games only: ``flags[key] =
    [games where only this point had it, games where only the first did]``, which is all a
    paired difference of shares needs, and stays exact.
    """

    games: int = 0
    samples: int = 0
    score: Moments = field(default_factory=Moments)
    length: Moments = field(default_factory=Moments)
    flags: dict[str, list[int]] = field(default_factory=dict)

    def _flag(self, key: str, base: bool, this: bool) -> None:
        if base != this:
            counts = self.flags.get(key)
            if counts is None:
                counts = self.flags[key] = [0, 0]
            counts[0 if this else 1] += 1

    def add(self, base: Outcome, this: Outcome) -> None:
        """Count one game played at the first point (``base``) and at this one."""
        self.games += 1
        self.length.add(this.length - base.length)
        self._flag("sink", bool(base.sunk), bool(this.sunk))
        if base.end != this.end:
            self._flag(f"end:{base.end}", True, False)
            self._flag(f"end:{this.end}", False, True)
        if base.winner != this.winner:
            if base.winner is not None:
                self._flag(f"win:{base.winner}", True, False)
            if this.winner is not None:
                self._flag(f"win:{this.winner}", False, True)
        for (a, _, title_a), (b, _, title_b) in zip(base.samples, this.samples, strict=False):
            self.samples += 1
            self.score.add(b - a)
            if title_a != title_b:
                self._flag(f"title:{title_a}", True, False)
                self._flag(f"title:{title_b}", False, True)

    def merge(self, other: PairTally) -> PairTally:
        """Add ``other``'s games (in place); return self."""
        self.games += other.games
        self.samples += other.samples
        self.score.merge(other.score)
        self.length.merge(other.length)
        for key, (plus, minus) in other.flags.items():
            counts = self.flags.setdefault(key, [0, 0])
            counts[0] += plus
            counts[1] += minus
        return self

    def as_dict(self) -> dict[str, Any]:
        """As JSON."""
        return {
            "games": self.games,
            "samples": self.samples,
            "score": self.score.as_list(),
            "length": self.length.as_list(),
            "flags": {k: list(self.flags[k]) for k in sorted(self.flags)},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PairTally:
        """From :meth:`as_dict`."""
        return cls(
            int(data["games"]),
            int(data["samples"]),
            Moments.from_list(data["score"]),
            Moments.from_list(data["length"]),
            {k: [int(v[0]), int(v[1])] for k, v in data["flags"].items()},
        )
