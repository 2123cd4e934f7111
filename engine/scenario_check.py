"""A scenario checked against its game before it runs: every id and key, at its line.

A scenario that names a card, a space, a good, a counter, a player or a question the game does
not have tests nothing, so it must not run, and it must not pass: :func:`check_scenario`
returns every such problem of a document, each at its line and column with the closest name.
The same declarations, written as JSON Schema by :func:`engine.scenario_schema.game_schema`,
let a YAML editor say so while the file is typed.

What a game adds to a scenario is declared in its own Python (``cards/<game>/natives.py``):
``GIVEN_KINDS`` / ``EXPECT_KINDS`` (the value of each ``GIVEN`` / ``EXPECT`` key),
``ACTION_ARGS`` (each action's arguments, a :class:`Fields`), ``EVENT_KINDS`` (a step's
``event:`` parameters by name), ``PLAYER_KEYS`` (the ``GIVEN`` / ``EXPECT`` keys that are a
player's, so never at the top), ``ZONE_KINDS`` (the cards a player's zone may hold, by zone:
Incredible Expeditions' hand holds Resources only), ``POOLS`` (named lists of ids
computed from the IR) and ``QUESTIONS`` (the flow's own questions and their answers). The
questions the cards ask come from the IR itself (:func:`card_questions`).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterator
from typing import Any

from dsl.names import card_id
from dsl.wordmatch import word_matches
from engine.modes import mode_name
from engine.runtime import answer_of
from engine.scenario_flow import scenario_action_args
from engine.scenario_types import (
    PLAYER,
    Anything,
    Choice,
    Fields,
    Id,
    Kind,
    Many,
    Number,
    OneOf,
    Problem,
    Table,
    Text,
    Vocabulary,
    Where,
    child_where,
    key_where,
    suggest,
)
from engine.words import and_list, with_article

#: What any scenario may expect of the events: each line happened (``events``), in this order
#: (``events_in_order``), the whole log is exactly this (``events_exactly``), or never happened.
EVENT_KEYS = ("events", "events_in_order", "events_exactly", "no_events")
#: Expecting a refusal: ``refused`` (``error`` is its older name).
REFUSAL_KEYS = ("refused", "error")


def vocabulary(ir: dict[str, Any], rules: Any, players: int | None) -> Vocabulary:
    """The names a scenario of this game may use."""
    return Vocabulary(ir, getattr(rules, "POOLS", {}) if rules else {}, players)


def _walk(stmts: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for stmt in stmts:
        yield stmt
        for key in ("body", "then", "else"):
            inner = stmt.get(key)
            if isinstance(inner, list):
                yield from _walk(inner)
        for option in stmt.get("options") or []:
            yield from _walk(option)


def _played(node: Any, me: str = "") -> Iterator[str]:
    """The cards a ``play`` verb names anywhere in a handler (a statement or a condition);
    ``play self`` names ``me``, the card whose handler it is."""
    if isinstance(node, list):
        for item in node:
            yield from _played(item, me)
    elif isinstance(node, dict):
        if node.get("verb") == "play":
            for arg in node.get("args") or []:
                if not isinstance(arg, dict):
                    continue
                if arg.get("kind") == "builtin" and arg.get("name") == "self":
                    if me:
                        yield me
                elif arg.get("id") or arg.get("name"):
                    yield str(arg.get("id") or arg.get("name"))
        for value in node.values():
            if isinstance(value, (list, dict)):
                yield from _played(value, me)


Question = tuple[str, tuple[str, ...] | str | None]
#: What one card asks, whatever the other cards are: per trigger, in the card's order, its
#: own questions (``{id: (prompt, answers)}``) and the ids of the cards it ``play``s.
CardAsks = tuple[tuple[dict[str, Question], tuple[str, ...]], ...]
#: A place to keep what was made from a card while it is the same (compiler.filecache's
#: ``card_memo``): card IR -> a dict that lives as long as that card.
CardMemo = Callable[[dict[str, Any]], dict[str, Any]]


def card_asks(card: dict[str, Any]) -> CardAsks:
    """The questions ``card``'s handlers ask (a named ``may``, a named ``choose``) and the cards
    they ``play`` (each a ``play.<card>`` question, titled from the game's cards)."""
    out = []
    for trigger, handler in card["triggers"].items():
        own = _body_asks(f"{card['id']}.{trigger}", card["title"], handler["body"])
        out.append((own, tuple(_played(handler["body"], card["id"]))))
    return tuple(out)


def _body_asks(prefix: str, title: str, body: list[dict[str, Any]]) -> dict[str, Question]:
    """The named ``may`` and ``choose`` of a body: ``{PREFIX.NAME: (prompt, answers)}``."""
    own: dict[str, Question] = {}
    for stmt in _walk(body):
        if stmt["kind"] == "may" and stmt.get("name"):
            own[f"{prefix}.{stmt['name']}"] = (f"{title}: may {stmt['ask']}?", ("yes", "no"))
        elif stmt["kind"] == "choose" and stmt.get("name"):
            own[f"{prefix}.{stmt['name']}"] = (f"{title}: choose one", tuple(stmt["names"]))
        elif stmt["kind"] == "choose_from" and stmt.get("name"):
            own[f"{prefix}.{stmt['name']}"] = (
                f"{title}: choose {stmt['ask']}",
                _pick_answers(stmt["over"]),
            )
    return own


#: The answers to ``choose VAR in players``: a seat number of the scenario's players ("a
#: player's seat number (`2`)", README), checked against the scenario's count.
SEAT = "seat"


def _pick_answers(over: dict[str, Any]) -> tuple[str, ...] | str | None:
    """What a scenario may answer to ``choose VAR in LIST``, as far as the list says: a card
    of its kind (``choose site in campsite``), any card of a zone's (``choose c in hand``),
    the items of a list written out, else anything (what a native gives is known in play)."""
    kind = over.get("kind")
    if kind == "builtin" and over.get("name") == "players":
        return SEAT
    if kind == "list" and over.get("of_kind"):
        return f"card:{over['of_kind']}"
    if kind == "zone_cards":
        return "card"
    written = ("card", "symbol", "num")
    if kind == "list" and all(item.get("kind") in written for item in over["items"]):
        return tuple(
            dict.fromkeys(
                answer_of(item.get("id", item.get("name", item.get("value"))))
                for item in over["items"]
            )
        )
    if kind == "range" and all(over[end].get("kind") == "num" for end in ("low", "high")):
        low, high = int(over["low"]["value"]), int(over["high"]["value"])
        return tuple(str(n) for n in range(low, high + 1)) if high - low < 1000 else None
    return None


def flow_questions(ir: dict[str, Any]) -> dict[str, Question]:
    """The questions the DSL flow's phases ask (``flow.PHASE.NAME``, a variant's inserted phase
    too) and its DSL verbs (``VERB.verb.NAME``), with the cards they ``play``: the ids the
    engine asks them by, so a scenario may answer them."""
    titles = {card["id"]: card["title"] for card in ir["cards"]}
    bodies: list[tuple[str, str, list[dict[str, Any]]]] = []
    for section in (ir.get("flow") or {}).get("sections", ()):
        for phase in section.get("phases", ()):
            title = phase.get("title") or phase["name"]
            bodies.append((f"flow.{phase['name']}", title, phase["body"]))
    for verb in (ir.get("definitions") or {}).get("verbs", ()):
        bodies.append((f"{verb['name']}.verb", verb["name"], verb["body"]))
    out: dict[str, Question] = {}
    for prefix, title, body in bodies:
        out.update(_body_asks(prefix, title, body))
        for ident in _played(body):
            out[f"play.{ident}"] = (f"play {titles.get(ident, ident)}?", ("yes", "no"))
    return out


def card_questions(ir: dict[str, Any], memo: CardMemo | None = None) -> dict[str, Question]:
    """Every question the cards ask: ``{id: (prompt, answers)}``, named from the rule
    (``discovering_treasure.campsite_reached.move_pirate_ship``) and ``play.<card>``.

    With ``memo`` (see :data:`CardMemo`) each card's :func:`card_asks` is kept with the card:
    a build after a one-file edit of a 10,000-card game walked every card's handlers again
    (0.4 s of its 1.1 s)."""
    out: dict[str, Question] = {}
    # Looked up once: a search of every card per `play` was quadratic (10,000 cards: 0.1 s).
    titles: dict[str, str] = {}
    for card in ir["cards"]:
        titles.setdefault(card["id"], card["title"])
    for card in ir["cards"]:
        kept = memo(card) if memo is not None else {}
        asks: CardAsks | None = kept.get("asks")
        if asks is None:
            asks = kept["asks"] = card_asks(card)
        for own, played in asks:
            out.update(own)
            for ident in played:
                out[f"play.{ident}"] = (f"play {titles.get(ident, ident)}?", ("yes", "no"))
    return out


def questions(
    ir: dict[str, Any], rules: Any, memo: CardMemo | None = None
) -> dict[str, tuple[str, tuple[str, ...] | str | None]]:
    """The cards' questions and the flow's (``QUESTIONS`` of the game module); ``memo`` as
    for :func:`card_questions`."""
    out = card_questions(ir, memo)
    out.update(flow_questions(ir))
    out.update(getattr(rules, "QUESTIONS", {}) if rules else {})
    return out


def player_kinds(vocab: Vocabulary, rules: Any = None, given: bool = False) -> dict[str, Kind]:
    """``counters``, ``tracks`` and ``zones`` of a player, bounded by the game's vocabulary; a
    zone's cards of the kind the game's ``ZONE_KINDS`` names for it (any card otherwise). A
    zone is its cards, or a count of them when expected; given, only 0 (a count says not which
    cards, and a given one was set empty)."""
    v = vocab.ir["vocabulary"]
    zone_kinds: dict[str, Kind] = dict(getattr(rules, "ZONE_KINDS", {}) or {}) if rules else {}

    def counter(name: str) -> Kind:
        bounds = v["counters"].get(name, {})
        return Number(bounds.get("min", 0), bounds.get("max"), f"{name}")

    def track(name: str) -> Kind:
        length = v["tracks"].get(name, {}).get("length")
        return Number(0, length, f"the boxes of {name} ({length} boxes)")

    def zone(name: str) -> Kind:
        # A card of the wrong kind in a zone (an Encounter in a hand) is the scenario's mistake,
        # at its line; the game's Python would meet it mid-step as a card it cannot play.
        card = zone_kinds.get(name) or Id("card", "a card")
        if given:
            return OneOf((Many(card), Number(0, 0, "0 (an empty zone)")))
        return OneOf((Many(card), Number(0, None, "a count of cards")))

    return {
        "counters": Table(Id("counter", "a counter"), counter),
        "tracks": Table(Id("track", "a track"), track),
        "zones": Table(Id("zone", "a zone"), zone),
    }


class Checker:
    """Checks one scenario document against its game; collects problems, never raises."""

    def __init__(self, ir: dict[str, Any], rules: Any, players: int):
        self.vocab = vocabulary(ir, rules, players)
        self.rules = rules
        self.players = players
        self.problems: list[Problem] = []
        self.given_kinds: dict[str, Kind] = dict(getattr(rules, "GIVEN_KINDS", {}) or {})
        self.expect_kinds: dict[str, Kind] = dict(getattr(rules, "EXPECT_KINDS", {}) or {})
        self.actions: dict[str, Fields] = scenario_action_args(rules, ir)
        #: A trigger's event parameters by name (``campsite``, ``port``), the same kind in
        #: every trigger that has one.
        self.event_kinds: dict[str, Kind] = dict(getattr(rules, "EVENT_KINDS", {}) or {})
        self.questions = questions(ir, rules)
        self.player = player_kinds(self.vocab, rules)
        self.given_player = player_kinds(self.vocab, rules, given=True)
        #: The game's keys that are a player's (a worker's place, a Ship's lane): given or
        #: expected under ``player`` / ``players`` only (``PLAYER_KEYS`` in its Python).
        self.player_keys: frozenset[str] = frozenset(getattr(rules, "PLAYER_KEYS", ()) or ())

    def add(self, at: Where, message: str) -> None:
        """One problem at ``at``."""
        self.problems.append(Problem(at[0], at[1], message))

    def kind(self, kind: Kind, value: Any, at: Where) -> None:
        """Check ``value`` against ``kind``."""
        self.problems.extend(kind.check(value, self.vocab, at))

    # -- the document

    def document(self, doc: Any, at: Where) -> list[Problem]:
        """Every problem of the scenario ``doc``, in file order."""
        players_at = key_where(doc, "players", at)
        allowed = self.vocab.ir["vocabulary"].get("players") or []
        if allowed and not allowed[0] <= self.players <= allowed[-1]:
            self.add(
                # At the number when the scenario gives one (it was told at the key).
                child_where(doc, "players", at) if "players" in doc else players_at,
                f"{self.vocab.ir['title']} is for {allowed[0]} to {allowed[-1]} players, "
                f"not {self.players}; give 'players:' a number from {allowed[0]} to {allowed[-1]}",
            )
        modes = getattr(self.rules, "MODES", None)
        # Its other spellings ('cooperative') are the mode they name, for both checks below.
        mode = None if doc.get("mode") is None else mode_name(str(doc.get("mode")))
        if modes and mode is not None and mode not in modes:
            self.add(
                child_where(doc, "mode", at),
                f"{self.vocab.ir['title']} has no {mode} mode; its modes: {', '.join(modes)}"
                + "; leave 'mode:' out and seat them with 'players:'",
            )
        seats = doc.get("players")
        if isinstance(seats, int) and not isinstance(seats, bool):
            # 'mode: solo' with 'players: 2' played two seats in a solo game, silently.
            if mode == "solo" and seats > 1:
                self.add(
                    players_at,
                    f"'mode: solo' is one player, but 'players: {seats}' seats {seats}; "
                    "drop 'mode: solo' (or write mode: competitive)",
                )
            elif mode in ("competitive", "coop") and seats < 2:
                self.add(
                    players_at,
                    f"'mode: {mode}' is 2 players or more, not {seats}; drop 'mode' for a "
                    "solo game",
                )
        if isinstance(doc.get("given"), dict):
            self.state(doc["given"], child_where(doc, "given", at), setting=True)
        if isinstance(doc.get("expect"), dict):
            self.state(doc["expect"], child_where(doc, "expect", at), setting=False)
        for index, step in enumerate(doc.get("do") or []):
            if isinstance(step, dict):
                self.step(step, child_where(doc["do"], index, at))
        self.choices(doc.get("choices") or [], child_where(doc, "choices", at))
        expects = [doc.get("expect")] + [
            s.get("expect") for s in doc.get("do") or [] if isinstance(s, dict)
        ]
        if not any(expects):
            self.add(
                key_where(doc, "do", at),
                "this scenario expects nothing, so it can never fail; add 'expect:' "
                "(state, events or 'refused') after the steps or under a step",
            )
        return sorted(self.problems, key=lambda p: (p.line, p.column))

    # -- given / expect

    def state(
        self, spec: Any, at: Where, setting: bool, quantities: set[str] | None = None
    ) -> None:
        """A ``given`` (``setting``) or an ``expect`` mapping."""
        hooks = self.given_kinds if setting else self.expect_kinds
        fixed = ["round", "player", "players"]
        if not setting:
            fixed += ["quantities", *EVENT_KEYS, *REFUSAL_KEYS]
        for key, value in spec.items():
            where = key_where(spec, key, at)
            inner = child_where(spec, key, at)
            name = str(key)
            if name == "round":
                rounds = self.vocab.ir["vocabulary"]["params"].get("rounds")
                self.kind(
                    Number(1, rounds if isinstance(rounds, int) else None, "a round"), value, inner
                )
            elif name == "player":
                self.player_state(value, inner, setting)
            elif name == "players":
                if not isinstance(value, list):
                    self.add(inner, "'players' is a list: one entry a player, in seat order")
                    continue
                if len(value) > self.players:
                    self.add(
                        inner,
                        f"{len(value)} players given, but the scenario has {self.players} "
                        "(set 'players:' or 'mode:')",
                    )
                for index, item in enumerate(value):
                    self.player_state(item, child_where(value, index, inner), setting)
            elif not setting and name == "quantities":
                # After the last step: the quantities of any trigger (the step that set them
                # may be an action whose window is the flow's).
                known = sorted(quantities if quantities is not None else self.all_quantities())
                self.kind(
                    Table(Choice(tuple(known), "a quantity of that step"), Number(None)),
                    value,
                    inner,
                )
            elif not setting and name in EVENT_KEYS:
                self.kind(Many(Text()), value, inner)
            elif not setting and name in REFUSAL_KEYS:
                self.kind(Text(), value, inner)
                if "refused" in spec and "error" in spec:
                    self.add(where, "'error' is the older name of 'refused': give one")
            elif name in hooks and name in self.player_keys:
                self.add(
                    where,
                    f"'{name}' belongs to a player: give it under 'player' or 'players'",
                )
            elif name in hooks:
                self.kind(hooks[name], value, inner)
            elif (held := self.held_by_a_player(name)) is not None:
                table, example = held
                self.add(
                    where,
                    f"'{name}' is a player's {table[:-1]}: give it under 'player' (or "
                    f"'players'), in its {table}: player: {{{table}: {{{name}: {example}}}}}",
                )
            elif not setting and name in self.given_kinds:
                # A key of the game's 'given' only: the close spelling of another key would be
                # another thing ('pile' was "did you mean 'titles'?").
                self.add(
                    where,
                    f"'{name}' is something a scenario can set but not check in "
                    f"{self.vocab.ir['game']}{suggest(name, [*fixed, *hooks])}",
                )
            else:
                verb = "set" if setting else "check"
                self.add(
                    where,
                    f"'{name}' is not something a scenario can {verb}"
                    f"{self.key_hint(name, [*fixed, *hooks])}",
                )

    def key_hint(self, name: str, pool: list[str]) -> str:
        """The closest key; for ``score``, the game's score counter by its name (``points``
        in Land vs Sea, which 'score' is too far from to be suggested)."""
        counter = self.vocab.ir["vocabulary"].get("score")
        if name in ("score", "scores") and counter and counter != name:
            if counter in pool:
                return f"; did you mean '{counter}' (the game's score)?"
            if "counters" in pool:
                return f"; the game's score is the counter '{counter}' (counters: {{{counter}: N}})"
        return suggest(name, pool)

    def all_quantities(self) -> set[str]:
        """Every quantity any trigger of the game has."""
        triggers = self.vocab.ir["vocabulary"]["triggers"].values()
        return {q for t in triggers for q in t.get("quantities") or []}

    def given_zones(self, zones: dict[Any, Any], at: Where) -> None:
        """A player's given ``zones``: each a list of its cards. A count (``resource_deck:
        7``), which an expectation may give, is told to list the cards: the zone was set
        empty, and a draw from it drew nothing, with no word."""
        for zone, cards in zones.items():
            if isinstance(cards, int) and not isinstance(cards, bool) and cards > 0:
                self.add(
                    child_where(zones, zone, at),
                    f"a given zone lists its cards ({zone}: [card, card, ...]); {cards} says "
                    "only how many, which an expectation may check, not which cards to put "
                    "there",
                )
        listed = {
            k: v
            for k, v in zones.items()
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0
        }
        self.kind(self.given_player["zones"], listed, at)

    def player_state(self, spec: Any, at: Where, setting: bool) -> None:
        """One player's ``counters``, ``tracks``, ``zones`` and the game's player keys."""
        if not isinstance(spec, dict):
            self.add(at, "a player's state is a mapping (counters, tracks, zones ...)")
            return
        hooks = self.given_kinds if setting else self.expect_kinds
        for key, value in spec.items():
            name = str(key)
            if name == "zones" and setting and isinstance(value, dict):
                self.given_zones(value, child_where(spec, key, at))
            elif name in self.player:
                self.kind(self.player[name], value, child_where(spec, key, at))
            elif name in hooks:
                self.kind(hooks[name], value, child_where(spec, key, at))
            elif (
                self.held_by_a_player(name) not in (None, ("zones", "[card, ...]"))
                and (listed := self.list_key(value, {**self.player, **hooks})) is not None
            ):
                # 'specialties: [Wine]': a counter of the game, but a list of names is what
                # another key holds ('goods'), which "counters: {specialties: 3}" never says.
                self.add(
                    key_where(spec, key, at),
                    f"'{name}' is not something a scenario can "
                    f"{'set' if setting else 'check'} for a player; a list of "
                    f"{', '.join(map(str, value))} is given as {listed}: "
                    f"[{', '.join(self.as_ids(value))}]",
                )
            elif (held := self.held_by_a_player(name)) is not None:
                table, example = held
                if isinstance(value, int) and not isinstance(value, bool) and table != "zones":
                    # The scenario's own number ('prestige: 5' -> counters: {prestige: 5}).
                    example = str(value)
                elif isinstance(value, list) and value and table == "zones":
                    example = f"[{', '.join(self.as_ids(value))}]"
                self.add(
                    key_where(spec, key, at),
                    f"'{name}' is a {table[:-1]}: give it in the player's {table}: "
                    f"{table}: {{{name}: {example}}}",
                )
            else:
                verb = "set" if setting else "check"
                names_of = self.table_of_names(value)
                hint = (
                    f"; {and_list([repr(str(k)) for k in value])} "
                    + (f"is a {names_of[:-1]}: " if len(value) == 1 else f"are {names_of}: ")
                    + f"give {'it' if len(value) == 1 else 'them'} in the player's {names_of}: "
                    + f"{names_of}: {{{', '.join(f'{k}: {value[k]}' for k in value)}}}"
                    if names_of is not None
                    else self.player_key_hint(name, [*self.player, *hooks], value)
                )
                self.add(
                    key_where(spec, key, at),
                    f"'{name}' is not something a scenario can {verb} for a player{hint}",
                )

    def step_taking(self, action: str, args: Any) -> str | None:
        """Another step of a name sharing a word with ``action`` that takes every one of
        ``args`` when ``action`` takes some of them not; None when there is no one such."""
        fields = getattr(self.actions[action], "fields", None)
        if not isinstance(args, dict) or not args or fields is None:
            return None
        if all(str(k) in fields for k in args):
            return None
        words = set(action.split("_"))
        found = [
            name
            for name, kind in self.actions.items()
            if name != action
            and words & set(name.split("_"))
            and isinstance(getattr(kind, "fields", None), dict)
            and all(str(k) in kind.fields for k in args)
        ]
        return found[0] if len(found) == 1 else None

    def as_ids(self, value: list[Any]) -> list[str]:
        """Names as ids ('Wine' -> 'wine', 'Sierra Leone' -> 'sierra_leone')."""
        return [card_id(str(v)) for v in value]

    def list_key(self, value: Any, keys: dict[str, Kind]) -> str | None:
        """The player's key that takes a list of these names (every one an id of its pool,
        in any case), when ``value`` is such a list and exactly one key takes it."""
        if not isinstance(value, list) or not value:
            return None
        wanted = self.as_ids(value)
        found = []
        for key, kind in keys.items():
            item = getattr(kind, "item", None) if isinstance(kind, Many) else None
            if isinstance(item, Id) and all(w in self.vocab.pool(item.pool) for w in wanted):
                found.append(key)
        return found[0] if len(found) == 1 else None

    def table_of_names(self, value: Any) -> str | None:
        """``'counters'`` when ``value`` is a mapping whose keys are all counters of the game
        (tracks, zones): ``tokens: {coins: 5}`` or ``resources: {...}`` meant ``counters:``,
        which a spelling hint from the key alone cannot say."""
        if not isinstance(value, dict) or not value:
            return None
        v = self.vocab.ir["vocabulary"]
        for table in ("counters", "tracks", "zones"):
            if all(str(k) in (v.get(table) or ()) for k in value):
                return table
        return None

    def player_key_hint(self, name: str, pool: list[str], value: Any = None) -> str:
        """The hint for a player's key the game does not have: the counter (track, zone) it
        names or the player's key it names, whichever is a word of it ('treasure_tokens' is
        the counter treasure, not the board's treasure_on; 'specialty_goods' the key goods,
        not the counter specialties), else the counter's, else the key's."""
        held, key = self.held_hint(name, value), self.key_hint(name, pool)
        words = set(name.split("_"))
        for hint in (held, key):
            named = re.findall(r"'([A-Za-z0-9_]+)'", hint)
            if named and set(named[0].split("_")) <= words:
                return hint
        return held or key

    def held_hint(self, name: str, value: Any = None) -> str:
        """For a player's key the game does not have, the counter (track, zone) it is close
        to and where it goes: 'treasure_tokens' is the counter 'treasure', given in the
        player's counters (it was "did you mean 'treasure_on'?", the board's key)."""
        v = self.vocab.ir["vocabulary"]
        for table, example in (("counters", "3"), ("tracks", "2"), ("zones", "[card, ...]")):
            close = suggest(name, sorted(v.get(table) or ()), most=0)
            if close.startswith("; did you mean '") and close.count("'") == 2:
                found = close.split("'")[1]
                if isinstance(value, int) and not isinstance(value, bool) and table != "zones":
                    example = str(value)  # the number written ('ship: 7' -> ship_space: 7)
                elif isinstance(value, list) and value and table == "zones":
                    example = f"[{', '.join(self.as_ids(value))}]"
                return (
                    f"; did you mean the {table[:-1]} '{found}'? give it in the player's "
                    f"{table}: {{{found}: {example}}}"
                )
        return ""

    def held_by_a_player(self, name: str) -> tuple[str, str] | None:
        """``('counters', '3')`` when ``name`` is one of the game's counters (tracks, zones):
        a designer writes ``money: 3`` or ``hand: [...]`` where the scenario wants it in the
        player's ``counters`` or ``zones``, and "did you mean 'zones'?" is no help."""
        v = self.vocab.ir["vocabulary"]
        for table, example in (("counters", "3"), ("tracks", "2"), ("zones", "[card, ...]")):
            if name in (v.get(table) or ()):
                return table, example
        return None

    # -- steps

    def step(self, step: Any, at: Where) -> None:
        """One step: what it does, for whom, its event, quantities and arguments."""
        kinds = [k for k in ("run", "fire", "action") if k in step]
        if len(kinds) != 1:
            self.add(
                at, "a step does one thing: 'run: card.trigger', 'fire: trigger' or 'action: name'"
            )
            return
        if "player" in step:
            self.kind(PLAYER, step["player"], child_where(step, "player", at))
        trigger: str | None = None
        value_at = child_where(step, kinds[0], at)
        if "run" in step:
            card, _, trigger = str(step["run"]).partition(".")
            cards = {c["id"]: c for c in self.vocab.ir["cards"]}
            if card not in cards:
                self.add(value_at, f"'{card}' is not a card{suggest(card, cards)}")
                trigger = None
            elif trigger not in cards[card]["triggers"]:
                self.add(
                    value_at,
                    f"{card} has no 'on {trigger}'{suggest(trigger, cards[card]['triggers'])}",
                )
                trigger = None
            else:
                fires_for = (
                    self.vocab.ir["vocabulary"]["triggers"].get(trigger, {}).get("fires_for")
                )
                kind = cards[card]["kind"]
                if fires_for and kind not in fires_for:
                    # The game never runs it (cardc check warns so): nothing to test.
                    self.add(
                        value_at,
                        f"{card}'s 'on {trigger}' never runs: the game fires '{trigger}' for "
                        f"{', '.join(fires_for)} cards only, and {card} is {with_article(kind)}",
                    )
                    trigger = None
        elif "fire" in step:
            trigger = str(step["fire"])
            known = self.vocab.pool("trigger")
            if trigger not in known:
                self.add(value_at, f"'{trigger}' is not a trigger{suggest(trigger, known)}")
                trigger = None
        else:
            action = str(step["action"])
            if action not in self.actions:
                self.add(
                    value_at,
                    f"'{action}' is not an action of {self.vocab.ir['game']}"
                    f"{self.action_hint(action)}",
                )
            else:
                args = step.get("args") or {}
                self.kind(self.actions[action], args, child_where(step, "args", at))
                other = self.step_taking(action, args)
                if other is not None:
                    # 'action: sail' with 'args: {to: london}': the step of a like name that
                    # takes those arguments ('sail_to'), which "known: distance" never says.
                    takes = ", ".join(repr(str(k)) for k in args)
                    self.add(value_at, f"did you mean the step '{other}', which takes {takes}?")
        spec = self.vocab.ir["vocabulary"]["triggers"].get(trigger or "", {})
        quantities = set(spec.get("quantities") or [])
        if trigger is not None:
            if "args" in step:
                self.add(
                    key_where(step, "args", at),
                    "'args' are for 'action' steps; a trigger takes 'event' and 'quantities'",
                )
            if "quantities" in step:
                self.kind(
                    Table(
                        Choice(tuple(sorted(quantities)), f"a quantity of '{trigger}'"),
                        Number(None),
                    ),
                    step["quantities"],
                    child_where(step, "quantities", at),
                )
            names = list(spec.get("params") or [])
            if "event" in step:
                events = self.event_kinds
                kinds_of = spec.get("param_kinds") or {}
                card_kinds = self.vocab.ir["vocabulary"].get("kinds") or {}
                params: dict[str, Kind] = {
                    # A param that names its kind (`param land land`) takes a card of it,
                    # checked with "did you mean" (a misspelt card was "'oakwod' is not a
                    # card, so it has no 'district'" from inside the card's handler).
                    p: events.get(p)
                    or (
                        Id(f"card:{kinds_of[p]}", f"a {kinds_of[p]}")
                        if kinds_of.get(p) in card_kinds
                        else Anything()
                    )
                    for p in names
                }
                # Every parameter: a card reads it as the trigger gives it (a missing one was a
                # KeyError inside the card's handler).
                self.kind(
                    Fields(params, tuple(names), f"the event of '{trigger}'"),
                    step["event"],
                    child_where(step, "event", at),
                )
            elif names:
                self.add(
                    key_where(step, kinds[0], at),
                    f"'{trigger}' is fired with its event ({', '.join(names)}); "
                    f"give it: event: {{{', '.join(f'{n}: ...' for n in names)}}}",
                )
        elif "action" in step:
            for key in ("quantities", "event"):
                if key in step:
                    self.add(
                        key_where(step, key, at),
                        f"'{key}' is for 'run' and 'fire' steps; an action takes 'args'",
                    )
        if isinstance(step.get("expect"), dict):
            if trigger is None and "action" in step:
                # An action's quantities are those of the window it ends in: any trigger's.
                quantities = self.all_quantities()
            self.state(step["expect"], child_where(step, "expect", at), False, quantities)

    def action_hint(self, action: str) -> str:
        """What to write for an ``action:`` the game does not have: the step that runs it
        when it names a phase of the flow (``action: phase``), a card's trigger (``run:``) or
        a trigger (``fire:``), as a tester reading the rulebook names them ("Pirate Raid":
        'pirate_raid'); else the closest action, or every action (a game has a few)."""
        ways = []
        phase_by_words = False
        flow = self.vocab.ir.get("flow") or {}
        phases = {p["name"] for sec in flow.get("sections", []) for p in sec.get("phases", [])}
        if action in phases and "phase" in self.actions:
            ways.append(f"action: phase with args: {{name: {action}}} (a phase of the flow)")
        elif "phase" in self.actions and not word_matches(
            action, list(self.actions), titles=self.step_descriptions(), subset=False
        ):
            # The rulebook's "Sailing phase" is Uncharted Passage's 'sailing_and_anchoring':
            # a phase whose name or title holds the words is what 'action: sailing' meant,
            # before the trigger of that name (which opens a window and sails nothing).
            titles = {
                p["name"]: str(p.get("title") or "")
                for sec in flow.get("sections", [])
                for p in sec.get("phases", [])
            }
            for name in word_matches(action, list(phases), titles=titles, most=2, subset=False):
                phase_by_words = True
                ways.append(
                    f"action: phase with args: {{name: {name}}} (the flow's phase "
                    f"'{titles.get(name) or name}')"
                )
        triggers = self.vocab.ir["vocabulary"]["triggers"]

        def event(trigger: str) -> str:
            names = list(triggers.get(trigger, {}).get("params") or [])
            return f" with event: {{{', '.join(f'{n}: ...' for n in names)}}}" if names else ""

        card = next((c for c in self.vocab.ir["cards"] if c["id"] == action), None)
        if card is not None:
            for trigger in card["triggers"]:
                fires_for = triggers.get(trigger, {}).get("fires_for")
                if not fires_for or card["kind"] in fires_for:
                    ways.append(f"run: {action}.{trigger}{event(trigger)} (its 'on {trigger}')")
                    break
        if action in triggers:
            ways.append(f"fire: {action}{event(action)} (every card in force answers)")
        verbs = self.vocab.ir["vocabulary"].get("verbs", {})
        if not ways and action not in verbs:
            # 'take_the_treasure': the game's verb whose words it holds ('take_treasure').
            worded = word_matches(action, list(verbs), most=1)
            if len(worded) == 1 and worded[0] not in self.actions:
                doing = self.verb_hint(worded[0], event)
                if doing:
                    return f"; did you mean the verb '{worded[0]}'? " + doing
        if not ways and action in verbs:
            doing = self.verb_hint(action, event)
            if doing:
                # A step of the game close to the name may be what was meant ('use_crew' for
                # 'hire_crew'): offered after the verb's own ways.
                close = difflib.get_close_matches(action, list(self.actions), n=1, cutoff=0.75)
                return "; " + doing + (f"; or did you mean '{close[0]}'?" if close else "")
        if ways:
            close = difflib.get_close_matches(action, list(self.actions), n=1, cutoff=0.7)
            if close and phase_by_words:
                # 'anchoring': the step 'anchor' plays one piece of that phase.
                does = self.step_descriptions().get(close[0])
                ways.append(f"action: {close[0]}" + (f" ({does})" if does else ""))
            return "; to run it, write " + ", or ".join(ways)
        near = suggest(action, self.actions, most=0)
        if near.startswith("; did you mean"):
            return near
        # A step named by what it does ('end_game' for 'finish', "End the game: final scores,
        # titles, the winner"): the steps whose description holds its words, each with it.
        said = self.step_descriptions()
        by_words = word_matches(action, list(said), titles=said, most=2, subset=False)
        if by_words:
            return "; did you mean " + " or ".join(f"'{n}' ({said[n]})" for n in by_words) + "?"
        return suggest(action, self.actions, most=40)

    def step_descriptions(self) -> dict[str, str]:
        """Each step's description: the first sentence of its function's docstring in the
        game's ``ACTIONS`` (the steps without one left out)."""
        out: dict[str, str] = {}
        for name, fn in (getattr(self.rules, "ACTIONS", {}) or {}).items():
            doc = (getattr(fn, "__doc__", None) or "").strip()
            if name in self.actions and doc:
                first = " ".join(doc.split("\n\n")[0].split())
                out[name] = re.split(r"\. | \(|: ", first)[0].rstrip(".")
        return out

    def verb_hint(self, verb: str, event: Callable[[str], str]) -> str:
        """The steps that do the game's verb ``verb`` (a rulebook's deed, 'move_pirate_ship',
        is a verb the cards call, not a step of its own): each card's trigger whose effects
        call it (``run: pirate.activate``), each phase of the flow that calls it, directly or
        through the DSL verbs that call it; at most 3 named."""
        # The DSL verbs that reach ``verb``: a phase calling one of them does it too.
        verbs = {verb}
        defined = (self.vocab.ir.get("definitions") or {}).get("verbs") or []
        grew = True
        while grew:
            more = {d["name"] for d in defined if any(_calls(d.get("body"), v) for v in verbs)}
            grew = not more <= verbs
            verbs |= more
        ways: list[str] = []
        triggers = self.vocab.ir["vocabulary"]["triggers"]
        for card in self.vocab.ir["cards"]:
            for trigger, handler in card["triggers"].items():
                fires_for = triggers.get(trigger, {}).get("fires_for")
                if fires_for and card["kind"] not in fires_for:
                    continue  # never run, so a scenario may not run it either
                if any(_calls(handler.get("body"), v) for v in verbs):
                    ways.append(f"run: {card['id']}.{trigger}{event(trigger)}")
        flow = self.vocab.ir.get("flow") or {}
        for section in flow.get("sections", []):
            for phase in section.get("phases", []):
                if "phase" in self.actions and any(_calls(phase.get("body"), v) for v in verbs):
                    ways.append(f"action: phase with args: {{name: {phase['name']}}}")
        if not ways:
            return ""
        rest = f" ({len(ways) - 3} more)" if len(ways) > 3 else ""
        return (
            f"'{verb}' is a verb the game's cards do: to do it, write "
            + ", or ".join(ways[:3])
            + rest
        )

    def choices(self, choices: Any, at: Where) -> None:
        """Each ``question: answer``: a question the game asks, an answer it can take."""
        for index, item in enumerate(choices):
            if not isinstance(item, dict):
                continue
            where = child_where(choices, index, at)
            for question, answer in item.items():
                ident = str(question)
                if ident not in self.questions and not any(
                    ident == prompt for prompt, _ in self.questions.values()
                ):
                    self.add(
                        key_where(item, question, where),
                        f"'{ident}' is not a question of {self.vocab.ir['game']}"
                        f"{self.siblings(ident) or suggest(ident, self.questions)}",
                    )
                    continue
                answers = self.questions.get(ident, ("", None))[1]
                text = "yes" if answer is True else "no" if answer is False else str(answer)
                if answers == SEAT:
                    # A seat the scenario does not have is its mistake, told at its line,
                    # not a refusal of the engine ("legal: 2") once the step runs.
                    seats = tuple(str(n) for n in range(1, self.players + 1))
                    if text not in seats:
                        self.add(
                            child_where(item, question, where),
                            f"'{text}' is not an answer to '{ident}': it is answered by a "
                            f"player's seat number, 1 to {self.players} in this scenario",
                        )
                    continue
                if isinstance(answers, str):  # a pool of ids: a typo is the scenario's
                    answers = self.vocab.pool(answers)
                if answers is not None and text not in answers:
                    self.add(
                        child_where(item, question, where),
                        f"'{text}' is not an answer to '{ident}'{suggest(text, answers)}",
                    )

    def siblings(self, ident: str) -> str:
        """The questions of the same card and trigger, with their answers, when ``ident``
        names one that is not among them ('hardtack.scurvy.choose' beside 'use' and the
        'choose one of' named by its options, 'one_or_two': the closest spelling would be
        'use', another question); '' when there are none."""
        prefix, _, _ = ident.rpartition(".")
        if not prefix:
            return ""
        found = sorted(q for q in self.questions if q.rpartition(".")[0] == prefix)
        if len(found) < 2:
            return ""

        def shown(question: str) -> str:
            answers = self.questions[question][1]
            if isinstance(answers, tuple) and answers:
                return f"'{question}' (answers: {', '.join(answers)})"
            return f"'{question}'"

        return f"; the questions of {prefix} are {', '.join(shown(q) for q in found)}"


def check_scenario(
    doc: Any,
    ir: dict[str, Any],
    rules: Any,
    players: int,
    at: Where,
    removed: frozenset[str] = frozenset(),
) -> list[Problem]:
    """Every problem of scenario ``doc`` against the game ``ir`` (with its module ``rules``);
    ``removed``: the cards of the base game a variant ``ir`` removes, told as such."""
    from engine.scenario_library import with_library

    checker = Checker(ir, with_library(rules, ir), players)
    checker.vocab.removed = removed
    return checker.document(doc, at)


def _calls(body: Any, verb: str) -> bool:
    """True when the IR ``body`` (a handler's or a phase's statements) calls ``verb``."""
    return any(s.get("kind") == "verb" and s.get("verb") == verb for s in _walk(body or []))
