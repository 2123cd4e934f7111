"""A game's vocabulary: every name its cards may use, read from the prelude and ``game.cards``.

Vocabulary is data. ``counter prestige``, ``track durability 10 { critical_damage 4, 7 }``,
``trigger reveal "..."``, ``verb raid "..." { param damage number }`` are declarations in the
DSL itself, so a new verb or resource never needs a change to the grammar or the compiler.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from dsl.diagnostics import Diagnostic
from dsl.nodes import Call, Declaration, Name, Number, Property, Range, Span, String
from dsl.parser import definition_inside_block, parse_file
from engine.param_bounds import bound_problem
from engine.words import with_article

PRELUDE_PATH = Path(__file__).with_name("prelude.cards")

PARAM_TYPES = frozenset(
    (
        "number bool text name counter track zone target card card_name dice player list "
        "trigger any"
    ).split()
)

#: What a type is called in other languages -> the parameter type that means it here: a
#: designer writing ``amount int`` was told only the list of types.
TYPE_ALIASES = {
    "int": "number",
    "integer": "number",
    "float": "number",
    "num": "number",
    "str": "text",
    "string": "text",
    "boolean": "bool",
}


def param_type_hint(kind: str) -> tuple[str, ...]:
    """The hint for a parameter type that is none: the type it means (``int``: write
    ``number``), else the closest, else every type."""
    from compiler.suggest import did_you_mean

    meant = TYPE_ALIASES.get(kind.lower())
    if meant is not None:
        return (f"write {meant}: the language's name for '{kind}'",)
    return did_you_mean(kind, sorted(PARAM_TYPES)) or ("types: " + ", ".join(sorted(PARAM_TYPES)),)


RETURN_TYPES = frozenset("number bool text name card player list any shortfall".split())
PROPERTY_TYPES = frozenset("number bool text name list any condition formula".split())
#: A native's line saying it only tells whether a flag is set, and whose flag it reads: the
#: compiler writes the read in place of a call, and no Python implements it.
_FLAG_LINES = {"board_flag": "the board", "player_flag": "the acting player"}
_FLAG_EXAMPLES = {"board_flag": "over", "player_flag": "docked"}


@dataclass(frozen=True)
class Param:
    """One parameter of a verb or native."""

    name: str
    type: str
    optional: bool = False
    default: Any = None  # a Python literal (number) or None
    marker: str | None = None  # a word that introduces it: `reduce damage up_to 2`
    #: What a ``card``, ``card_name`` or ``name`` parameter's argument names (``param first
    #: card_name { names location }``, ``param site card { names campsite }``), as a
    #: property's ``names`` line; empty: any card, any declared name.
    names: tuple[tuple[str, str | None], ...] = ()


@dataclass(frozen=True)
class Signature:
    """A verb (a statement) or a native (a function in expressions)."""

    name: str
    doc: str
    params: tuple[Param, ...]
    returns: str | None
    span: Span
    origin: str  # "prelude" or the game's name
    #: A native declared ``board_flag KEY``: true while the board's ``KEY`` is set. The
    #: compiler implements it, writing the read in place of a call (no Python).
    board_flag: str | None = None
    #: A native declared ``player_flag KEY``: true while the acting player's ``KEY`` flag is
    #: set (``docked``, ``sunk``); the compiler implements it the same way.
    player_flag: str | None = None
    #: Called inside a value, its arguments in parentheses (a native, a built-in name, a
    #: function): ``most_of(COUNTER)``; a verb is a statement, ``reduce TARGET up_to AMOUNT``.
    call: bool = False

    def usage(self) -> str:
        """How to call it, for hints: ``reduce TARGET up_to AMOUNT``, ``most_of(COUNTER)``."""
        parts = []
        for param in self.params:
            word = param.name.upper()
            if param.marker and not self.call:
                word = f"{param.marker} {word}"
            parts.append(f"[{word}]" if param.optional or param.default is not None else word)
        if self.call:
            return f"{self.name}({', '.join(parts)})"
        return " ".join([self.name, *parts])


@dataclass(frozen=True)
class TriggerDecl:
    """A trigger cards may react to, with the names its handlers see."""

    name: str
    doc: str
    params: tuple[str, ...]
    quantities: tuple[str, ...]
    span: Span
    #: the kinds of card the flow runs this trigger for (``fires_for``); empty: not declared.
    fires_for: tuple[str, ...] = ()
    #: param -> the kind of card it names (``param port space``), for typed member access.
    param_kinds: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class PropertyDecl:
    """A property a card kind may (or must) have."""

    name: str
    type: str
    optional: bool
    #: A ``list``/``any`` property's clause heads (``{ clauses stars, die, port_cards }``): the
    #: names each clause of a card's value must begin with (``reward stars 3, die``), because
    #: the game's Python reads them by those words; empty: any declared name.
    clauses: tuple[str, ...] = ()
    #: What a ``name``/``list``/``any`` property's names name (``{ names space port, region }``):
    #: each a kind of card with the tag its cards must carry (or None), or a group of symbols
    #: (``symbol europe, africa "..." { group region }``, tag None); empty: any declared name.
    names: tuple[tuple[str, str | None], ...] = ()
    #: ``{ names layer; needs }``: the card cannot be played without the card(s) it names
    #: (Land vs Sea's ``requires``), so a variant removing one of those removes it too
    #: (compiler.variants, with a warning at the removal saying so).
    needs: bool = False


@dataclass(frozen=True)
class KindDecl:
    """A card kind (``port_card``, ``mission``, ``rule``): its tags and properties."""

    name: str
    doc: str
    tags: tuple[str, ...]
    properties: dict[str, PropertyDecl]
    span: Span


@dataclass(frozen=True)
class CounterDecl:
    """A per-player counter (prestige, coins): start, bounds."""

    name: str
    start: int
    min: int
    max: int | None
    span: Span


@dataclass(frozen=True)
class TrackDecl:
    """A per-player track of boxes marked in order, with named special boxes."""

    name: str
    length: int
    boxes: dict[str, tuple[int, ...]]
    span: Span


#: Properties every card may have, whatever its kind.
UNIVERSAL_PROPERTIES = {
    "id": PropertyDecl("id", "name", True),
    "text": PropertyDecl("text", "text", True),
    # The card's picture on the sheets: a PNG, JPEG or SVG file, relative to the game's folder.
    "art": PropertyDecl("art", "text", True),
}


@dataclass
class Vocabulary:
    """Every name a game's cards may use, with where it was declared."""

    game: str = ""
    title: str = ""
    span: Span | None = None
    players: tuple[int, int] = (1, 1)
    score: str | None = None
    params: dict[str, int | float] = field(default_factory=dict)
    #: A parameter's declared bounds (``param die_sides 6 { counts "a die's sides"; min 2 }``),
    #: as engine.param_bounds reads them; only the parameters that declare some.
    param_bounds: dict[str, dict[str, Any]] = field(default_factory=dict)
    counters: dict[str, CounterDecl] = field(default_factory=dict)
    tracks: dict[str, TrackDecl] = field(default_factory=dict)
    zones: dict[str, Span] = field(default_factory=dict)
    symbols: dict[str, str] = field(default_factory=dict)
    #: A group of symbols (``symbol europe, africa "..." { group region }``) -> its symbols, in
    #: declaration order: what a property declared ``{ names region }`` may name.
    symbol_groups: dict[str, list[str]] = field(default_factory=dict)
    triggers: dict[str, TriggerDecl] = field(default_factory=dict)
    verbs: dict[str, Signature] = field(default_factory=dict)
    natives: dict[str, Signature] = field(default_factory=dict)
    builtins: dict[str, Signature] = field(default_factory=dict)
    kinds: dict[str, KindDecl] = field(default_factory=dict)
    #: "namespace:name" -> (what it is, where); for duplicate checks.
    declared: dict[str, tuple[str, Span]] = field(default_factory=dict)
    #: @provisional values of the vocabulary itself (track lengths ...).
    provisional: list[dict[str, str]] = field(default_factory=list)
    #: box name -> track, for the triggers special boxes fire.
    box_triggers: dict[str, str] = field(default_factory=dict)
    #: declared verbs and natives whose DSL definition was refused (already an error there).
    refused: set[str] = field(default_factory=set)
    #: DSL verbs and functions whose own signature is an error at its line (a parameter of no
    #: type): a call of one is not told again that it names no verb or native.
    unsigned: set[str] = field(default_factory=set)

    def to_ir(self) -> dict[str, Any]:
        """The vocabulary as plain JSON data, sorted, for the IR."""

        def sig(s: Signature) -> dict[str, Any]:
            return {
                "doc": s.doc,
                "origin": s.origin,
                "params": [
                    {
                        "name": p.name,
                        "type": p.type,
                        "optional": p.optional,
                        "default": p.default,
                        "marker": p.marker,
                    }
                    for p in s.params
                ],
                "returns": s.returns,
            }

        return {
            "players": list(self.players),
            "score": self.score,
            "params": dict(sorted(self.params.items())),
            "param_bounds": dict(sorted(self.param_bounds.items())),
            "counters": {
                n: {"start": c.start, "min": c.min, "max": c.max}
                for n, c in sorted(self.counters.items())
            },
            "tracks": {
                n: {"length": t.length, "boxes": {b: list(p) for b, p in sorted(t.boxes.items())}}
                for n, t in sorted(self.tracks.items())
            },
            "zones": sorted(self.zones),
            "symbols": dict(sorted(self.symbols.items())),
            "triggers": {n: _trigger_ir(t) for n, t in sorted(self.triggers.items())},
            "verbs": {n: sig(s) for n, s in sorted(self.verbs.items())},
            "natives": {n: sig(s) for n, s in sorted(self.natives.items())},
            "kinds": {
                n: {
                    "doc": k.doc,
                    "tags": list(k.tags),
                    "properties": {
                        p.name: {"type": p.type, "optional": p.optional}
                        for p in k.properties.values()
                    },
                }
                for n, k in sorted(self.kinds.items())
            },
        }


def _trigger_ir(t: TriggerDecl) -> dict[str, Any]:
    out: dict[str, Any] = {"doc": t.doc, "params": list(t.params), "quantities": list(t.quantities)}
    if t.fires_for:
        out["fires_for"] = list(t.fires_for)
    if t.param_kinds:
        out["param_kinds"] = dict(t.param_kinds)
    return out


#: What a ``param`` line's block may hold, with how each is written.
_PARAM_BOUNDS = {
    "counts": 'write: counts "a die\'s sides"',
    "switch": 'write: switch "whether the Uncharted tiles are shuffled in"',
    "min": 'write: min 2 (or with why: min 2 "a die has 2 sides at least")',
    "max": "write: max 6",
}


_NAMESPACES = {
    "trigger": "trigger",
    "kind": "kind",
    "verb": "callable",
    "native": "callable",
}


class _Reader:
    """Reads vocabulary declarations from AST members, collecting diagnostics."""

    def __init__(self, vocab: Vocabulary, origin: str, diagnostics: list[Diagnostic]):
        self.vocab = vocab
        self.origin = origin
        self.diagnostics = diagnostics
        #: names of card kinds the triggers mention, checked once every kind is read.
        self.kind_refs: list[Name] = []
        #: the ``names`` lines of property declarations (a kind or a group, and a tag), checked
        #: once every kind and symbol is read.
        self.names_refs: list[tuple[Name, Name | None]] = []
        #: the verbs and natives a ``use`` brought in: key -> the module's name in that line.
        self.library: dict[str, Name] = {}

    def error(self, code: str, message: str, span: Span, *hints: str) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, "error", hints))

    def _hides(self, name: str, what: str, span: Span, module: Name) -> None:
        """The game's own verb or native ``name`` wins over a used module's of that name: a
        module brings in what the game does not declare itself (Land vs Sea's own
        ``place_tile`` and ``use tiles``), said as a warning at the game's declaration."""
        self.diagnostics.append(
            Diagnostic(
                "library-hidden",
                f"the game's own {what} '{name}' hides the standard library's '{name}' "
                f"of 'use {module.id}' ({module.span})",
                span,
                "warning",
                (f"rename the game's {what} to call the library's '{name}' too",),
            )
        )

    def declare(self, name: str, what: str, span: Span) -> bool:
        # Triggers, kinds and callables (verbs, natives) each have a namespace of their own:
        # `on accomplish` and the verb `accomplish` never meet. Values share one.
        space = _NAMESPACES.get(what, "value")
        key = f"{space}:{name}"
        previous = self.vocab.declared.get(key)
        module = self.library.pop(key, None) if space == "callable" else None
        if previous is not None and module is not None:
            self.vocab.verbs.pop(name, None)
            self.vocab.natives.pop(name, None)
            self._hides(name, what, span, module)
            previous = None
        if previous is not None:
            self.error(
                "duplicate-name",
                f"'{name}' is already declared as a {previous[0]} at {previous[1]}",
                span,
                "every counter, track, zone, symbol and parameter needs its own name",
            )
            return False
        self.vocab.declared[key] = (what, span)
        return True

    # -- helpers over clauses

    def words(self, prop: Property) -> list[Any]:
        return [expr for clause in prop.args for expr in clause]

    def names(self, prop: Property) -> list[Name]:
        out = []
        for expr in self.words(prop):
            if isinstance(expr, Name):
                out.append(expr)
            else:
                self.error(
                    "expected-name",
                    f"'{prop.name}' expects names here",
                    expr.span,
                    f"write: {prop.name} first_name, second_name",
                )
        return out

    def doc_and_names(self, prop: Property) -> tuple[list[Name], str]:
        doc = ""
        names: list[Name] = []
        for expr in self.words(prop):
            if isinstance(expr, String):
                doc = expr.value
            elif isinstance(expr, Name):
                names.append(expr)
            else:
                self.error(
                    "expected-name",
                    f"'{prop.name}' expects a name and a description",
                    expr.span,
                    f'write: {prop.name} name "what it is"',
                )
        return names, doc

    def number(self, expr: Any, what: str) -> int | None:
        if isinstance(expr, Number) and isinstance(expr.value, int):
            return expr.value
        self.error("expected-number", f"{what} must be a whole number", expr.span)
        return None

    # -- declarations

    def member(self, prop: Any) -> None:
        if not isinstance(prop, Property):
            self.error(
                "trigger-in-vocabulary",
                "a game declaration holds declarations, not triggers",
                prop.span,
                "put 'on ...' blocks inside a card or a rule",
            )
            return
        for note in prop.annotations:
            if note.name == "provisional":
                reason = (
                    note.args[0].value if note.args and isinstance(note.args[0], String) else ""
                )
                if not reason.strip():
                    self.error(
                        "provisional-reason",
                        "say why this value is provisional",
                        note.span,
                        '@provisional("the rulebook does not print it")',
                    )
                self.vocab.provisional.append(
                    {
                        "at": f"{prop.span.file}:{prop.span.line}:{prop.span.column}",
                        "card": "",
                        "what": f"{prop.name} "
                        + " ".join(getattr(w, "id", "") for w in self.words(prop)[:1]),
                        "why": reason,
                        # A game value (param, track, counter, ...) and its name, apart.
                        "kind": prop.name,
                        "name": " ".join(getattr(w, "id", "") for w in self.words(prop)[:1]),
                    }
                )
            elif note.name == "host" and prop.name in ("verb", "native"):
                pass  # read after the declaration, below
            else:
                self.error(
                    "annotation-unknown",
                    f"'@{note.name}' is not an annotation cardc knows",
                    note.span,
                    'the annotations are @provisional("why"), and @host("why") on a verb or '
                    "native the program embedding the engine supplies",
                )
        handler = getattr(self, f"read_{prop.name}", None)
        if handler is None:
            from compiler.suggest import did_you_mean

            self.error(
                "unknown-declaration",
                f"'{prop.name}' is not something a game declares",
                prop.span,
                *did_you_mean(prop.name, [n[5:] for n in dir(self) if n.startswith("read_")]),
            )
            return
        handler(prop)
        if any(note.name == "host" for note in prop.annotations) and prop.name in (
            "verb",
            "native",
        ):
            # Implemented by the program that embeds the engine (Game(verbs=..., natives=...)),
            # which the engine checks when a game starts; cardc takes the declaration's word.
            table = self.vocab.verbs if prop.name == "verb" else self.vocab.natives
            named = next((w.id for w in self.words(prop) if isinstance(w, Name)), None)
            sig = table.get(named or "")
            if sig is not None and sig.origin == self.origin:
                table[sig.name] = replace(sig, origin="host")

    def read_players(self, prop: Property) -> None:
        words = self.words(prop)
        if len(words) == 1 and isinstance(words[0], Range):
            low = self.number(words[0].low, "the fewest players")
            high = self.number(words[0].high, "the most players")
            if low is not None and high is not None:
                if low < 1:
                    self.error(
                        "bad-players",
                        f"a game is played by 1 player or more, not {low}",
                        words[0].low.span,
                        f"write: players 1..{max(high, 1)}",
                    )
                elif low > high:
                    self.error(
                        "bad-players",
                        f"players {low}..{high}: the fewest come first",
                        prop.span,
                        f"write: players {high}..{low}",
                    )
                self.vocab.players = (low, high)
            return
        if len(words) == 1:
            count = self.number(words[0], "the number of players")
            if count is not None and count < 1:
                self.error(
                    "bad-players",
                    f"a game is played by 1 player or more, not {count}",
                    words[0].span,
                    "write: players 2 (or a range: players 1..4)",
                )
            elif count is not None:
                self.vocab.players = (count, count)
            return
        self.error(
            "bad-players", "players takes a count or a range", prop.span, "write: players 1..4"
        )

    def read_score(self, prop: Property) -> None:
        names = self.names(prop)
        if len(names) == 1:
            self.vocab.score = names[0].id
            self._score_span = names[0].span
        else:
            self.error(
                "bad-score",
                "score names the counter that wins the game",
                prop.span,
                "write: score victory_points",
            )

    def read_param(self, prop: Property) -> None:
        words = self.words(prop)
        if len(words) != 2 or not isinstance(words[0], Name) or not isinstance(words[1], Number):
            self.error(
                "bad-param",
                "a parameter is a name and a number",
                prop.span,
                "write: param rounds 12",
            )
            return
        name, value = words[0].id, words[1].value
        bounds = self.param_bounds(prop, name)
        if name == "rounds" and (value < 1 or value != int(value)):
            # The game's length (the flow's `round rounds`, the games' Python): a game of no
            # rounds plays nothing, and a fraction of a round is not a game's length. Said
            # for any game, bounds declared or not (cardc new's games declare none).
            self.error(
                "round-count",
                f"a game lasts at least 1 round, a whole number: 'rounds' cannot be {value:g}",
                words[1].span,
                "write: param rounds 12 (in a variant: params: {rounds: 12})",
            )
        elif bounds is not None:
            problem = bound_problem(name, value, bounds)
            if problem is not None:
                # At the value: game.cards' own, or the variant's `params:` entry (whose span
                # compiler.variants gives this line). A --param is engine.sim's, in these words.
                self.error("param-bounds", problem[0], words[1].span, problem[1])
        if self.declare(name, "parameter", words[0].span):
            self.vocab.params[name] = value
            if bounds is not None:
                self.vocab.param_bounds[name] = bounds

    def param_bounds(self, prop: Property, name: str) -> dict[str, Any] | None:
        """The bounds a ``param`` line's block declares (engine.param_bounds), or None when it
        has no block: ``{ counts "a die's sides"; min 2 "a die has 2 at least" }``, ``{ switch
        "whether ..." }``, ``{ min 0.5; max 2 }``. A count is a whole number, 0 or more unless
        its ``min`` says otherwise: no one counts fewer than none."""
        if prop.body is None:
            return None
        bounds: dict[str, Any] = dict.fromkeys(
            ("whole", "min", "max", "counts", "switch", "min_why", "max_why")
        )
        bounds["whole"] = False
        seen: dict[str, Span] = {}
        for member in prop.body:
            if not isinstance(member, Property) or member.name not in _PARAM_BOUNDS:
                self.error(
                    "bad-param",
                    "a parameter's block holds counts, switch, min and max",
                    member.span,
                    'write: param die_sides 6 { counts "a die\'s sides"; min 2 }',
                    "or, for a rule turned on and off: param uncharted_tiles 1 { switch "
                    '"whether the Uncharted tiles are shuffled in" }',
                )
                continue
            if member.name in seen:
                self.error(
                    "bad-param",
                    f"'{member.name}' is said twice in '{name}''s block (first at "
                    f"{seen[member.name]})",
                    member.span,
                    f"keep one '{member.name}'",
                )
                continue
            seen[member.name] = member.span
            said = self.words(member)
            if member.name in ("counts", "switch"):
                if len(said) != 1 or not isinstance(said[0], String):
                    self.error(
                        "bad-param",
                        f"'{member.name}' says in words what "
                        + ("the parameter counts" if member.name == "counts" else "a 1 turns on"),
                        member.span,
                        _PARAM_BOUNDS[member.name],
                    )
                    continue
                bounds[member.name] = said[0].value
                continue
            if (
                not 1 <= len(said) <= 2
                or not isinstance(said[0], Number)
                or (len(said) == 2 and not isinstance(said[1], String))
            ):
                self.error(
                    "bad-param",
                    f"'{member.name}' is a number, then (if you like) why, in words",
                    member.span,
                    _PARAM_BOUNDS[member.name],
                )
                continue
            bounds[member.name] = said[0].value
            bounds[f"{member.name}_why"] = said[1].value if len(said) == 2 else None
        if bounds["switch"] is not None:
            others = [seen[k] for k in ("counts", "min", "max") if k in seen]
            if others:
                self.error(
                    "bad-param",
                    "a switch is 0 or 1: it takes no counts, min or max",
                    others[0],
                    'keep the switch, or make it a count: { counts "..."; min 0; max 1 }',
                )
            return {
                **bounds,
                **{"whole": True, "min": 0, "max": 1, "counts": None},
                **{"min_why": None, "max_why": None},
            }
        if bounds["counts"] is not None:
            bounds["whole"] = True
            if bounds["min"] is None:
                bounds["min"] = 0
            for side in ("min", "max"):
                if bounds[side] is not None and not isinstance(bounds[side], int):
                    self.error(
                        "bad-param",
                        f"a count's {side} is a whole number, not {bounds[side]:g}",
                        seen[side],
                        f"write: {side} {int(bounds[side])}",
                    )
                    bounds[side] = None
        low, high = bounds["min"], bounds["max"]
        if low is not None and high is not None and low > high:
            self.error(
                "bad-param",
                f"'{name}' can be no less than {low:g} and no more than {high:g}: no value is both",
                seen.get("max", prop.span),
                "make max at least min",
            )
            return None  # no value keeps them: said once, here, not again at the value
        return bounds

    def read_counter(self, prop: Property) -> None:
        start, low, high = 0, 0, None
        given: dict[str, Property] = {}
        for member in prop.body or ():
            if isinstance(member, Property) and member.name in ("start", "min", "max"):
                words = self.words(member)
                value = self.number(words[0], f"'{member.name}'") if len(words) == 1 else None
                if value is None:
                    continue
                given[member.name] = member
                if member.name == "start":
                    start = value
                elif member.name == "min":
                    low = value
                else:
                    high = value
            else:
                self.error(
                    "bad-counter",
                    "a counter's block holds start, min and max",
                    member.span,
                    "write: counter coins { start 5; min 0 }",
                )
        # A counter no value can satisfy was accepted, and the game then held it to both.
        if high is not None and low > high:
            self.error(
                "bad-counter",
                f"a counter can be no less than {low} and no more than {high}: no value is both",
                given["max"].span,
                "make max at least min",
            )
            high = None  # still declared: its uses are not errors besides
        elif high is not None and start > high:
            self.error(
                "bad-counter",
                f"a counter cannot start at {start}, above its max {high}",
                given["start"].span,
                f"start it at {high} or less, or raise its max",
            )
            start = high
        for name in self.names(prop):
            if self.declare(name.id, "counter", name.span):
                self.vocab.counters[name.id] = CounterDecl(
                    name.id, max(start, low), low, high, name.span
                )

    def read_track(self, prop: Property) -> None:
        words = self.words(prop)
        if len(words) != 2 or not isinstance(words[0], Name):
            self.error(
                "bad-track",
                "a track is a name and its number of boxes",
                prop.span,
                "write: track durability 10 { critical_damage 4, 7 }",
            )
            return
        length = self.number(words[1], "a track's length")
        if length is None:
            return
        if length < 1:
            # It was left out without a word: every use of it then said it is no track.
            self.error(
                "bad-track",
                f"a track has 1 box or more, not {length}",
                words[1].span,
                f"write: track {words[0].id} 10 (in a variant: tracks: {{{words[0].id}: 10}})",
            )
            return
        boxes: dict[str, tuple[int, ...]] = {}
        for member in prop.body or ():
            if not isinstance(member, Property):
                self.error("bad-track", "a track's block names its special boxes", member.span)
                continue
            positions = []
            for expr in self.words(member):
                value = self.number(expr, "a box position")
                if value is not None:
                    if not 1 <= value <= length:
                        self.error(
                            "bad-track",
                            f"box {value} is not on a track of {length} boxes",
                            expr.span,
                        )
                    positions.append(value)
            if self.declare(member.name, "special box", member.span):
                boxes[member.name] = tuple(sorted(positions))
                self.vocab.box_triggers[member.name] = words[0].id
        if self.declare(words[0].id, "track", words[0].span):
            self.vocab.tracks[words[0].id] = TrackDecl(words[0].id, length, boxes, words[0].span)

    def read_zone(self, prop: Property) -> None:
        for name in self.names(prop):
            if self.declare(name.id, "zone", name.span):
                self.vocab.zones[name.id] = name.span

    def read_symbol(self, prop: Property) -> None:
        names, doc = self.doc_and_names(prop)
        groups: list[str] = []
        for line in prop.body or ():
            if isinstance(line, Property) and line.name == "group":
                found = self.names(line)
                if len(found) == 1:
                    groups.append(found[0].id)
                    continue
            from compiler.suggest import did_you_mean

            said = line.name if isinstance(line, Property) else ""
            self.error(
                "bad-symbol",
                "a symbol's block holds one 'group' line: the group of symbols it belongs to",
                line.span,
                *(
                    did_you_mean(said, ["group"])
                    or ('write: symbol europe, africa "a region of the map" { group region }',)
                ),
            )
        for name in names:
            if self.declare(name.id, "symbol", name.span):
                self.vocab.symbols[name.id] = doc
                for group in groups:
                    self.vocab.symbol_groups.setdefault(group, []).append(name.id)

    def read_trigger(self, prop: Property) -> None:
        names, doc = self.doc_and_names(prop)
        params: list[str] = []
        quantities: list[str] = []
        fires_for: list[Name] = []
        param_kinds: list[tuple[str, str]] = []
        for member in prop.body or ():
            if isinstance(member, Property) and member.name == "param":
                # `param port, place` or, one per clause, `param port space`: a param and the
                # kind of card it names.
                for clause in member.args:
                    words = [w for w in clause if isinstance(w, Name)]
                    if len(words) != len(clause) or not 1 <= len(words) <= 2:
                        self.error(
                            "bad-trigger",
                            "a trigger's param is a name, with the kind of card it names",
                            clause[0].span if clause else member.span,
                            "write: param port space  (or: param port, place)",
                        )
                        continue
                    params.append(words[0].id)
                    if len(words) == 2:
                        param_kinds.append((words[0].id, words[1].id))
                        self.kind_refs.append(words[1])
            elif isinstance(member, Property) and member.name == "quantity":
                quantities.extend(n.id for n in self.names(member))
            elif isinstance(member, Property) and member.name == "fires_for":
                fires_for.extend(self.names(member))
                self.kind_refs.extend(fires_for)
            else:
                self.error(
                    "bad-trigger",
                    "a trigger's block holds 'param', 'quantity' and 'fires_for' lines",
                    member.span,
                    'write: trigger dock "..." { param port; fires_for mission, rule }',
                )
        for name in names:
            if self.declare(name.id, "trigger", name.span):
                self.vocab.triggers[name.id] = TriggerDecl(
                    name.id,
                    doc,
                    tuple(params),
                    tuple(quantities),
                    name.span,
                    tuple(n.id for n in fires_for),
                    tuple(param_kinds),
                )

    def read_use(self, prop: Property) -> None:
        """``use dice, decks``: every native and verb of those standard-library modules."""
        from engine.stdlib import LIBRARY

        for name in self.names(prop):
            module = LIBRARY.get(name.id)
            if module is None:
                from compiler.suggest import did_you_mean

                self.error(
                    "library-unknown",
                    f"'{name.id}' is not a module of the standard library",
                    name.span,
                    *(
                        did_you_mean(name.id, sorted(LIBRARY))
                        or ("modules: " + ", ".join(sorted(LIBRARY)),)
                    ),
                )
                continue
            for spec in module.values():
                sig = library_signature(spec, name.span)
                table = self.vocab.verbs if spec.kind == "verb" else self.vocab.natives
                key = f"callable:{spec.name}"
                own = self.vocab.declared.get(key)
                mine = self.vocab.verbs.get(spec.name) or self.vocab.natives.get(spec.name)
                if own is not None and mine is not None and mine.origin in ("game", "host"):
                    # Declared by the game above this line: its own wins, as below it. Said
                    # to the game's author only: a variant's `use: [dice]` (its span in the
                    # YAML) cannot rename game.cards' `difference`, and loses nothing by it:
                    # the name means in the variant what it means in every card of the game.
                    game = self.vocab.span
                    if game is None or name.span.file == game.file:
                        self._hides(spec.name, own[0], own[1], name)
                    continue
                if self.declare(spec.name, spec.kind, name.span):
                    table[spec.name] = sig
                    self.library[key] = name

    def _signature(self, prop: Property, allow_shortfall: bool) -> Signature | None:
        words = self.words(prop)
        if prop.name == "verb" and words and isinstance(words[0], Call):
            # `verb sample() "..." { pay coins 1 }` inside the game block: a DSL verb written
            # where only declarations go (the parser reports the ones with parameters).
            message, hints = definition_inside_block("verb", words[0].func)
            self.error("definition-inside-block", message, prop.span, *hints)
            return None
        names, doc = self.doc_and_names(prop)
        if len(names) != 1:
            self.error(
                f"bad-{prop.name}",
                f"a {prop.name} needs exactly one name",
                prop.span,
                f'write: {prop.name} name "what it does" {{ param amount number }}',
            )
            return None
        params: list[Param] = []
        returns: str | None = None
        # A native that tells whether a flag is set: ("board_flag" or "player_flag", KEY).
        flag: tuple[str, str] | None = None
        for member in prop.body or ():
            if not isinstance(member, Property):
                self.error(f"bad-{prop.name}", "expected 'param' or 'returns' lines", member.span)
                continue
            if member.name in _FLAG_LINES and prop.name == "native":
                words = self.names(member)
                whose = _FLAG_LINES[member.name]
                if flag is not None:
                    self.error(
                        "bad-board-flag",
                        f"'{names[0].id}' already reads {_FLAG_LINES[flag[0]]}'s '{flag[1]}' "
                        f"({flag[0]} {flag[1]}): a native reads one flag",
                        member.span,
                        f"keep one of the '{flag[0]}' and '{member.name}' lines",
                    )
                elif len(words) == 1:
                    flag = (member.name, words[0].id)
                else:
                    self.error(
                        "bad-board-flag",
                        f"'{member.name}' names one key of {whose}",
                        member.span,
                        f"write: {member.name} {_FLAG_EXAMPLES[member.name]}",
                    )
                continue
            if member.name == "returns":
                words = self.names(member)
                if len(words) == 1 and words[0].id in RETURN_TYPES:
                    returns = words[0].id
                    if returns == "shortfall" and not allow_shortfall:
                        self.error("bad-returns", "only verbs can return a shortfall", member.span)
                else:
                    self.error(
                        "bad-returns",
                        "'returns' names one type",
                        member.span,
                        "types: " + ", ".join(sorted(RETURN_TYPES)),
                    )
                continue
            if member.name != "param":
                self.error(
                    f"bad-{prop.name}",
                    f"unknown line '{member.name}'",
                    member.span,
                    "expected 'param NAME TYPE' or 'returns TYPE'",
                )
                continue
            param = self._param(member)
            if param is not None:
                params.append(param)
        if flag is not None and (params or returns != "bool"):
            whose = "a board flag" if flag[0] == "board_flag" else "a flag of the acting player"
            self.error(
                "bad-board-flag",
                f"'{names[0].id}' reads {whose}: it takes no parameters and returns bool",
                prop.span,
                f'write: native {names[0].id} "what it tells" {{ returns bool; {flag[0]} '
                f"{flag[1]} }}",
            )
            flag = None
        return Signature(
            names[0].id,
            doc,
            tuple(params),
            returns,
            names[0].span,
            self.origin,
            board_flag=flag[1] if flag is not None and flag[0] == "board_flag" else None,
            player_flag=flag[1] if flag is not None and flag[0] == "player_flag" else None,
        )

    def _param(self, member: Property) -> Param | None:
        words = self.words(member)
        if len(words) < 2 or not isinstance(words[0], Name) or not isinstance(words[1], Name):
            self.error(
                "bad-param",
                "a parameter is a name and a type",
                member.span,
                "write: param amount number default 1",
            )
            return None
        name, kind = words[0].id, words[1].id
        if kind not in PARAM_TYPES:
            self.error(
                "bad-param-type",
                f"'{kind}' is not a parameter type",
                words[1].span,
                *param_type_hint(kind),
            )
            return None
        optional, default, marker = False, None, None
        rest = words[2:]
        i = 0
        while i < len(rest):
            word = rest[i]
            if isinstance(word, Name) and word.id == "optional":
                optional = True
            elif isinstance(word, Name) and word.id in ("default", "marker") and i + 1 < len(rest):
                value = rest[i + 1]
                if word.id == "default" and isinstance(value, Number):
                    default = value.value
                elif word.id == "marker" and isinstance(value, Name):
                    marker = value.id
                else:
                    self.error("bad-param", f"'{word.id}' needs a value", value.span)
                i += 1
            else:
                self.error(
                    "bad-param", "expected optional, default VALUE or marker WORD", word.span
                )
            i += 1
        named: list[tuple[str, str | None]] = []
        for line in member.body or ():
            naming = kind in ("card", "card_name", "name")
            if isinstance(line, Property) and line.name == "names" and naming:
                named.extend(self.names_line(line, "bad-param"))
                continue
            self.error(
                "bad-param",
                "a parameter's block holds a 'names' line, for a card, card_name or name parameter",
                line.span,
                "write: param first card_name { names location }",
            )
        return Param(name, kind, optional, default, marker, tuple(named))

    def read_verb(self, prop: Property) -> None:
        sig = self._signature(prop, allow_shortfall=True)
        if sig and self.declare(sig.name, "verb", sig.span):
            self.vocab.verbs[sig.name] = sig

    def read_native(self, prop: Property) -> None:
        sig = self._signature(prop, allow_shortfall=False)
        if sig and self.declare(sig.name, "native", sig.span):
            self.vocab.natives[sig.name] = replace(sig, call=True)

    def read_builtin(self, prop: Property) -> None:
        sig = self._signature(prop, allow_shortfall=False)
        if sig and self.declare(sig.name, "built-in name", sig.span):
            self.vocab.builtins[sig.name] = replace(sig, call=True)

    def read_kind(self, prop: Property) -> None:
        names, doc = self.doc_and_names(prop)
        if len(names) != 1:
            self.error(
                "bad-kind",
                "a kind needs exactly one name",
                prop.span,
                'write: kind port_card "a port card" { property copies number }',
            )
            return
        tags: list[str] = []
        properties: dict[str, PropertyDecl] = {}
        for member in prop.body or ():
            if isinstance(member, Property) and member.name == "tags":
                tags.extend(n.id for n in self.names(member))
            elif isinstance(member, Property) and member.name == "property":
                words = self.words(member)
                if len(words) >= 2 and isinstance(words[0], Name) and isinstance(words[1], Name):
                    if words[1].id not in PROPERTY_TYPES:
                        from compiler.suggest import did_you_mean

                        self.error(
                            "bad-property-type",
                            f"'{words[1].id}' is not a property type",
                            words[1].span,
                            *did_you_mean(words[1].id, sorted(PROPERTY_TYPES)),
                        )
                        continue
                    optional = False
                    for word in words[2:]:
                        if isinstance(word, Name) and word.id == "optional":
                            optional = True
                            continue
                        # A misspelt 'optional' would otherwise make the property required,
                        # and every card without it an error far from the typo.
                        from compiler.suggest import did_you_mean

                        said = (
                            word.id
                            if isinstance(word, Name)
                            else str(getattr(word, "value", "this"))
                        )
                        meant = did_you_mean(said, ["optional"])
                        # 'optinal' meant optional: one error here, not one on every card.
                        optional = optional or bool(meant)
                        self.error(
                            "bad-property",
                            f"'{said}' is not a word of a property declaration",
                            word.span,
                            *(meant or ("write: property copies number optional",)),
                        )
                    clauses, named, needs = self.property_block(member, words[1].id)
                    properties[words[0].id] = PropertyDecl(
                        words[0].id, words[1].id, optional, clauses, named, needs
                    )
                else:
                    self.error(
                        "bad-kind",
                        "a property is a name and a type",
                        member.span,
                        "write: property copies number optional",
                    )
            else:
                self.error(
                    "bad-kind", "a kind's block holds 'tags' and 'property' lines", member.span
                )
        if self.declare(names[0].id, "kind", names[0].span):
            self.vocab.kinds[names[0].id] = KindDecl(
                names[0].id, doc, tuple(tags), properties, names[0].span
            )

    def property_block(
        self, member: Property, typ: str
    ) -> tuple[tuple[str, ...], tuple[tuple[str, str | None], ...], bool]:
        """A property declaration's block: ``{ clauses stars, die, port_cards }``, the names
        each clause of a card's value must begin with (only a ``list`` or ``any`` has clauses),
        and ``{ names space port, region }``, what its names name (a ``name``, ``list`` or
        ``any``): each clause a kind of card, with a tag its cards must carry, or a group of
        symbols. Without ``names``, a name of the wrong sort (a region where a port is meant)
        would check and fail, or silently do nothing, when the game's Python reads it. A
        ``needs`` line beside ``names`` says the card cannot be played without the cards it
        names: a variant removing one removes it too."""
        heads: list[str] = []
        named: list[tuple[str, str | None]] = []
        needs = False
        for line in member.body or ():
            if isinstance(line, Property) and line.name == "needs" and typ in _NAMING_TYPES:
                if line.args or line.body:
                    self.error(
                        "bad-property",
                        "'needs' stands alone: the card needs the cards its 'names' line names",
                        line.span,
                        "write: property requires name optional { names layer; needs }",
                    )
                needs = True
                continue
            if isinstance(line, Property) and line.name == "clauses" and typ in ("list", "any"):
                heads.extend(n.id for n in self.names(line))
                continue
            if isinstance(line, Property) and line.name == "names" and typ in _NAMING_TYPES:
                named.extend(self.names_line(line, "bad-property"))
                continue
            self.error(
                "bad-property",
                "a property's block holds a 'clauses' line (a list or any property) and a "
                "'names' line (a name, list or any property)",
                line.span,
                "write: property reward any { clauses stars, die, port_cards }",
                "write: property to name { names space port, region }",
            )
        if needs and not named:
            self.error(
                "bad-property",
                "'needs' says the card needs the cards its 'names' line names, and there is none",
                member.span,
                "write: property requires name optional { names layer; needs }",
            )
        return tuple(heads), tuple(named), needs

    def names_line(self, line: Property, code: str) -> list[tuple[str, str | None]]:
        """A ``names`` line's clauses: each a kind of card (and a tag of it) or a group of
        symbols, checked once the whole game is read (:meth:`check_names_refs`)."""
        named: list[tuple[str, str | None]] = []
        for clause in line.args:
            words = [w for w in clause if isinstance(w, Name)]
            if len(words) != len(clause) or not 1 <= len(words) <= 2:
                self.error(
                    code,
                    "each clause of 'names' is a kind of card (and a tag of it) or a group of "
                    "symbols",
                    clause[0].span if clause else line.span,
                    "write: property to name { names space port, region }",
                )
                continue
            tag = words[1] if len(words) == 2 else None
            self.names_refs.append((words[0], tag))
            named.append((words[0].id, tag.id if tag is not None else None))
        return named

    def check_natives_apart(self) -> None:
        """A native the game declares has no counter's, track's, zone's, symbol's or
        parameter's name: both are read where values go, ``coins`` the counter and ``coins()``
        the native, so a call that lost its brackets would read the other unseen (alone, a
        native's name gets "call it"), as a DSL function of that name is refused
        (compiler.definitions). A verb may share a value's name: a statement never meets one."""
        for name, sig in self.vocab.natives.items():
            value = self.vocab.declared.get(f"value:{name}")
            if sig.origin not in ("game", "host") or value is None:
                continue
            self.error(
                "duplicate-name",
                f"'{name}' is already a {value[0]} of this game (declared at {value[1]}): a "
                "native cannot take its name",
                sig.span,
                f"give the native a name of its own, such as {name}_value: in an expression "
                f"'{name}' is the {value[0]}, and '{name}()' would be the native",
            )

    def check_names_refs(self) -> None:
        """Each ``names`` clause of a property declaration names a kind of card (and one of
        its tags) or a group of symbols, known once the whole game is read."""
        from compiler.suggest import did_you_mean

        vocab = self.vocab
        for group, _members in vocab.symbol_groups.items():
            if group in vocab.kinds:
                span = vocab.kinds[group].span
                self.error(
                    "duplicate-name",
                    f"'{group}' is both a kind of card and a group of symbols, so a property's "
                    f"'names {group}' would mean either",
                    span,
                    "rename the group of symbols",
                )
        for what, tag in self.names_refs:
            kind = vocab.kinds.get(what.id)
            if kind is None and what.id not in vocab.symbol_groups:
                pool = [*vocab.kinds, *vocab.symbol_groups]
                self.error(
                    "names-undefined",
                    f"'{what.id}' is neither a kind of card nor a group of symbols",
                    what.span,
                    *(
                        did_you_mean(what.id, pool)
                        or (
                            "kinds: " + ", ".join(sorted(vocab.kinds)),
                            'a group of symbols: symbol a, b "..." { group ' + what.id + " }",
                        )
                    ),
                )
                continue
            if tag is None:
                continue
            if kind is None:
                self.error(
                    "bad-property",
                    f"'{what.id}' is a group of symbols, which has no tags",
                    tag.span,
                    f"write: names {what.id}",
                )
            elif tag.id not in kind.tags:
                self.error(
                    "tag-unknown",
                    f"'{tag.id}' is not a tag of {kind.name}",
                    tag.span,
                    *(
                        did_you_mean(tag.id, kind.tags)
                        or (
                            (f"{with_article(kind.name)} takes the tags: {', '.join(kind.tags)}",)
                            if kind.tags
                            else (f"{with_article(kind.name)} takes no tags",)
                        )
                    ),
                )


#: The property types whose values are names a ``names`` line can say the sort of.
_NAMING_TYPES = ("name", "list", "any")


def library_signature(spec: Any, span: Span) -> Signature:
    """A standard-library function's signature, as the checker reads it (origin
    ``stdlib.<module>``, which the emitter calls directly)."""
    params = tuple(Param(p.name, p.type, False, p.default) for p in spec.params)
    return Signature(
        spec.name,
        spec.doc,
        params,
        spec.returns,
        span,
        f"stdlib.{spec.module}",
        call=spec.kind == "native",
    )


_PRELUDE_CACHE: tuple[list[Declaration], list[Diagnostic]] | None = None


def _prelude() -> tuple[list[Declaration], list[Diagnostic]]:
    global _PRELUDE_CACHE
    if _PRELUDE_CACHE is None:
        from compiler.project import display_path

        result = parse_file(display_path(PRELUDE_PATH))
        _PRELUDE_CACHE = (list(result.file.declarations), list(result.diagnostics))
    return _PRELUDE_CACHE


def read_vocabulary(game_decl: Declaration | None, diagnostics: list[Diagnostic]) -> Vocabulary:
    """The vocabulary of one game: the prelude, then its ``game`` declaration."""
    vocab = Vocabulary()
    declarations, problems = _prelude()
    diagnostics.extend(problems)
    prelude_reader = _Reader(vocab, "prelude", diagnostics)
    for decl in declarations:
        for member in decl.body:
            prelude_reader.member(member)
    if game_decl is None:
        return vocab
    reader = _Reader(vocab, "game", diagnostics)
    words = [expr for clause in game_decl.args for expr in clause]
    name = next((w.id for w in words if isinstance(w, Name)), None)
    title = next((w.value for w in words if isinstance(w, String)), None)
    if name is None:
        reader.error(
            "bad-game",
            "a game declaration needs the game's name",
            game_decl.span,
            'write: game my_game "My Game" { ... }',
        )
    vocab.game = name or ""
    vocab.title = title or (name or "").replace("_", " ").title()
    vocab.span = game_decl.span
    for member in game_decl.body:
        reader.member(member)
    reader.check_names_refs()
    reader.check_natives_apart()
    for ref in reader.kind_refs:
        if ref.id not in vocab.kinds:
            from compiler.suggest import did_you_mean

            reader.error(
                "kind-undefined",
                f"'{ref.id}' is not a kind of card this game declares",
                ref.span,
                *(
                    did_you_mean(ref.id, vocab.kinds)
                    or ("kinds: " + ", ".join(sorted(vocab.kinds)),)
                ),
            )
    if vocab.score is not None and vocab.score not in vocab.counters:
        from compiler.suggest import did_you_mean

        reader.error(
            "name-undefined",
            f"the score counter '{vocab.score}' is not declared",
            getattr(reader, "_score_span", game_decl.span),
            *did_you_mean(vocab.score, list(vocab.counters)),
        )
    return vocab
