"""What a scenario's values may be, per game: checked at their YAML line, and as JSON Schema.

Each ``given``/``expect`` key, each action argument and each question of a game declares its
value as a :class:`Kind` built from a few pieces (``Number``, ``Flag``, ``Text``, ``Id`` of a
named pool, ``Many``, ``Table``, ``Fields``, ``OneOf``, ``Maybe``). One declaration serves two
readers: :meth:`Kind.check` finds every wrong value of a scenario with its line, column and a
"did you mean", and :meth:`Kind.schema` writes the same rule as JSON Schema for a YAML editor
(``generated/<game>/scenario.schema.json``). Pools of ids (cards of a kind, spaces, goods) are
computed from the game's IR, never from a running game, so the build can enumerate them.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from dsl.names import card_id, initials
from dsl.wordmatch import word_matches

#: A place in the scenario file: 1-based line and column.
Where = tuple[int, int]


class Unordered(tuple):  # type: ignore[type-arg]
    """What a game's ``expect`` hook returns for a value whose order means nothing (the
    specialties a captain holds, the Campsites still holding a Treasure token): a scenario's
    list is compared with it in any order, each name as many times as it is held. A hook that
    sorted its list instead made ``given: [wine, silk]`` then ``expect: [wine, silk]`` fail
    with "got ['silk', 'wine']"."""

    __slots__ = ()


@dataclass(frozen=True)
class Problem:
    """One wrong value: where it is and what is wrong, with a hint when there is one."""

    line: int
    column: int
    message: str


def suggest(name: str, pool: Sequence[str] | set[str] | dict[str, Any], most: int = 12) -> str:
    """ "; did you mean 'x'?" for the closest name in ``pool``, else the pool when it holds at
    most ``most`` names (else the first few)."""
    names = sorted(str(p) for p in pool)
    # A word that begins many names ('sea' of sea_0_0 ... sea_15_7): any one of them would be
    # as close as the next, so the hint says they are a family rather than pick one at random.
    family = [n for n in names if n.startswith(f"{name}_")]
    if len(family) > 1:
        return f"; {len(family)} names begin with '{name}_', for example: {', '.join(family[:6])}"
    # A card's title or code for its id ('P1' for p1, 'Fair Winds' for fair_winds), too short
    # or too far in its capitals to be close.
    as_id = card_id(str(name))
    if as_id != name and as_id in names:
        return f"; did you mean '{as_id}'?"
    # An abbreviation by initials, as players write them: 'vp' for victory_points.
    by_initials = [n for n in names if len(name) >= 2 and initials(n) == str(name).lower()]
    if len(by_initials) == 1:
        return f"; did you mean '{by_initials[0]}'?"
    # A name holding every word of the guess, the only one that does ('sailor' for
    # adventures_of_a_sailor, 'sunken_ship' for discover_the_coordinates_of_the_sunken_ship):
    # nearer than spelling says ('silver').
    by_words = word_matches(str(name), names, most=1, subset=False)
    if by_words:
        # A near miss of a letter or two ('pirates' for the Pirate tile, 'pirate') is what was
        # meant more often than a longer name holding the word ('pirates_setup'): both, the
        # near miss first.
        near = difflib.get_close_matches(str(name), names, n=1, cutoff=0.85)
        if near and near[0] != by_words[0]:
            return f"; did you mean '{near[0]}' or '{by_words[0]}'?"
        return f"; did you mean '{by_words[0]}'?"
    close = difflib.get_close_matches(str(name), names, n=1, cutoff=0.6)
    # A name the guess starts with ('setup' for 'setup_game'), which difflib may rank below a
    # longer one that shares more letters ('setup_diary').
    first = [n for n in names if str(name).startswith(n + "_") and n not in close]
    if close and first:
        # The nearer first: 'cartographers_prize' for 'cartographer_s_prize' (a near miss of
        # one letter), 'setup' for 'setup_game' (difflib's 'setup_diary' shares less).
        pair = [first[-1], close[0]]
        if difflib.SequenceMatcher(None, str(name), close[0]).ratio() >= 0.8:
            pair.reverse()
        return f"; did you mean '{pair[0]}' or '{pair[1]}'?"
    if close:
        return f"; did you mean '{close[0]}'?"
    # An answer written without the prefix its pool gives every name ('wine' for
    # 'specialty:wine'), which is too short a part of the whole to be close.
    tagged = [n for n in names if n.rpartition(":")[2] == str(name) and ":" in n]
    if len(tagged) == 1:
        return f"; did you mean '{tagged[0]}'?"
    # A question named by its card and trigger with another last part ('smoke_flare.play.gain'
    # for 'smoke_flare.play.heroism_or_skullduggery'): the names under the same first parts.
    head = str(name).rpartition(".")[0]
    siblings = [n for n in names if head and n.startswith(head + ".")]
    # A step or key named by one of its words ('face' for 'face_encounter').
    worded = [n for n in names if str(name) in n.replace(".", "_").split("_")]
    # A name the guess holds with words of its own around it ('special_action_diary' for
    # 'diary', 'the_pirate_region' for 'pirate_region').
    parts = set(str(name).split("_"))
    held = [n for n in names if len(parts) > 1 and set(n.split("_")) < parts]
    # A name whose words are all in the guess ('goods' for 'specialty_goods').
    within = word_matches(str(name), names, most=1)
    for found in (siblings, worded, held, within):
        if 1 <= len(found) <= 3:
            return "; did you mean " + " or ".join(f"'{n}'" for n in found) + "?"
    if not names:
        return ""
    if len(names) > most:
        return f"; {len(names)} known, for example: {', '.join(names[:6])}"
    return f"; known: {', '.join(names)}"


def child_where(node: Any, key: Any, default: Where) -> Where:
    """Line and column of ``node[key]``'s value (a ruamel mapping or sequence)."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return default
    try:
        if isinstance(key, int) and isinstance(node, list):
            line, column = lc.item(key)
        else:
            line, column = lc.value(key)
        return int(line) + 1, int(column) + 1
    except (KeyError, IndexError, TypeError, AttributeError):
        return default


def key_where(node: Any, key: Any, default: Where) -> Where:
    """Line and column of the key ``key`` of a ruamel mapping."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return default
    try:
        line, column = lc.key(key)
        return int(line) + 1, int(column) + 1
    except (KeyError, IndexError, TypeError, AttributeError):
        return default


class Vocabulary:
    """What a game's scenarios may name: the IR, the pools of ids, and the player count."""

    def __init__(
        self,
        ir: dict[str, Any],
        pools: dict[str, Callable[[dict[str, Any]], Sequence[str]]] | None = None,
        players: int | None = None,
    ):
        self.ir = ir
        self.players = players
        #: Cards of the base game that this variant removes (a scenario naming one is told so).
        self.removed: frozenset[str] = frozenset()
        self._makers = dict(pools or {})
        self._pools: dict[str, tuple[str, ...]] = {}
        #: Pools a schema refers to (``#/$defs/pool_NAME``), written once in its ``$defs``.
        self.referenced: set[str] = set()

    def pool(self, name: str) -> tuple[str, ...]:
        """The ids of pool ``name``: ``card``, ``card:KIND``, ``zone``, ``counter``, ``track``,
        ``trigger`` or a pool the game module declares (``space``, ``ocean_region`` ...)."""
        if name not in self._pools:
            self._pools[name] = tuple(sorted(set(self._make(name))))
        return self._pools[name]

    def _make(self, name: str) -> Sequence[str]:
        vocabulary = self.ir["vocabulary"]
        if name == "card":
            return [c["id"] for c in self.ir["cards"]]
        if name.startswith("card:"):
            kinds = set(name[5:].split("|"))
            return [c["id"] for c in self.ir["cards"] if c["kind"] in kinds]
        if name in ("zone", "counter", "track"):
            return list(vocabulary[name + "s"])
        if name == "trigger":
            boxes = [b for t in vocabulary["tracks"].values() for b in t["boxes"]]
            return [*vocabulary["triggers"], *boxes]
        if name in self._makers:
            return self._makers[name](self.ir)
        if name in ("phase", "section"):
            from engine.scenario_flow import flow_pool  # it builds its kinds from this module

            return flow_pool(self.ir, name)
        raise KeyError(f"no pool '{name}'")


def pool_def(name: str) -> str:
    """The ``$defs`` name of a pool in a schema: ``pool_space``, ``pool_card_voyage``."""
    return "pool_" + "".join(c if c.isalnum() else "_" for c in name)


class Kind:
    """A kind of value; subclasses say how to check it and how to write it as JSON Schema."""

    #: How the kind reads in a message ("a number", "a Campsite").
    what = "a value"

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """Every problem of ``value`` (a ruamel node), located in the file."""
        raise NotImplementedError

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """The same rule as JSON Schema."""
        raise NotImplementedError

    def _wrong(self, value: Any, at: Where) -> Problem:
        return Problem(*at, f"{_show(value)} is not {self.what}")

    def fits_shape(self, value: Any) -> bool:
        """True when ``value`` is of the shape this kind takes (a mapping, a list, a number, a
        word), whatever else is wrong with it: :class:`OneOf` reports the problems of the
        options a value could have meant, not of those of another shape."""
        return True


def _scalar(value: Any) -> bool:
    """A word or a number: not a mapping or a list."""
    return not isinstance(value, (dict, list))


def _one_of(forms: Sequence[str]) -> str:
    """``a, b or c``."""
    return forms[0] if len(forms) == 1 else f"{', '.join(forms[:-1])} or {forms[-1]}"


def plural(what: str) -> str:
    """A kind's words for many of it: 'a held tile' -> 'held tiles', 'a tile at a cell' ->
    'tiles at a cell', 'a cell [q, r]' -> 'cells [q, r]' (the article dropped, the noun before
    any 'at', 'of', 'with' or bracket made plural)."""
    words = what.split()
    if words and words[0] in ("a", "an", "the"):
        words = words[1:]
    if not words:
        return "values"
    end = next(
        (i for i, w in enumerate(words) if i and (w in ("at", "of", "with") or w[0] in "[({")),
        len(words),
    )
    noun = words[end - 1]
    if noun.endswith("s") or noun.endswith("x"):
        noun += "es"
    elif noun.endswith("y") and len(noun) > 1 and noun[-2] not in "aeiou":
        noun = noun[:-1] + "ies"
    else:
        noun += "s"
    words[end - 1] = noun
    return " ".join(words)


def _show(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    return f"'{value}'"


@dataclass
class Number(Kind):
    """A whole number in ``low..high`` (``high`` may depend on the game: a track's length)."""

    low: int | None = 0
    high: int | Callable[[Vocabulary], int | None] | None = None
    what: str = "a whole number"

    def _high(self, vocab: Vocabulary) -> int | None:
        return self.high(vocab) if callable(self.high) else self.high

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """A number, within its bounds."""
        high = self._high(vocab)
        if isinstance(value, bool) or not isinstance(value, int):
            # Say what a number it wants: "'pilot' is not a Crew Cabin" left the designer to
            # guess that a cabin is its number.
            wrong = self._wrong(value, at)
            bounds = ""
            if self.what not in ("a whole number", "a number"):
                if self.low is not None and high is not None:
                    bounds = f": a whole number from {self.low} to {high}"
                elif self.low is not None:
                    bounds = f": a whole number, {self.low} or more"
                else:
                    bounds = ": a whole number"
            yield Problem(wrong.line, wrong.column, wrong.message + bounds)
            return
        if self.low is not None and value < self.low:
            yield Problem(*at, f"{value} is below {self.low}, the least {self.what} can be")
        elif high is not None and value > high:
            yield Problem(*at, f"{value} is more than {high}, the most {self.what} can be")

    def fits_shape(self, value: Any) -> bool:
        """A number (not true or false)."""
        return isinstance(value, int) and not isinstance(value, bool)

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """An integer with its bounds."""
        out: dict[str, Any] = {"type": "integer"}
        if self.low is not None:
            out["minimum"] = self.low
        high = self._high(vocab)
        if high is not None:
            out["maximum"] = high
        return out


@dataclass
class Flag(Kind):
    """``true`` or ``false``."""

    what: str = "true or false"

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """A YAML boolean."""
        if not isinstance(value, bool):
            yield self._wrong(value, at)

    def fits_shape(self, value: Any) -> bool:
        """True or false."""
        return isinstance(value, bool)

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """A boolean."""
        return {"type": "boolean"}


@dataclass
class Text(Kind):
    """Any text (an event line, a refusal's words)."""

    what: str = "text"

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """A string."""
        if not isinstance(value, str):
            yield self._wrong(value, at)

    def fits_shape(self, value: Any) -> bool:
        """A string."""
        return isinstance(value, str)

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """A string."""
        return {"type": "string"}


@dataclass
class Choice(Kind):
    """One of a fixed set of words (``land`` or ``sea``)."""

    words: tuple[str, ...]
    what: str = ""

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """One of the words."""
        if str(value) not in self.words or isinstance(value, (dict, list, bool)):
            what = self.what or " or ".join(self.words)
            yield Problem(*at, f"{_show(value)} is not {what}{suggest(str(value), self.words)}")

    def fits_shape(self, value: Any) -> bool:
        """A word, not a mapping or a list."""
        return _scalar(value)

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """An enum."""
        return {"enum": list(self.words)}


@dataclass
class Id(Kind):
    """An id from one of the game's pools (see :meth:`Vocabulary.pool`)."""

    pool: str
    what: str = "an id"
    #: How a place may be written ("Sierra Leone" for sierra_leone): the game's normaliser.
    normal: Callable[[str], str] | None = None

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """An id the game knows, with the closest one when it is not."""
        if isinstance(value, (dict, list, bool)) or value is None:
            yield self._wrong(value, at)
            return
        text = str(value)
        known = vocab.pool(self.pool)
        if (self.normal(text) if self.normal else text) not in known:
            if self.pool.startswith("card") and text in vocab.removed:
                yield Problem(
                    *at,
                    f"'{text}' is a card of the base game that the variant "
                    f"'{vocab.ir.get('variant')}' removes",
                )
                return
            yield Problem(*at, f"'{text}' is not {self.what}{suggest(text, known)}")

    def fits_shape(self, value: Any) -> bool:
        """A name, not a mapping or a list."""
        return _scalar(value)

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """The pool's ids, by reference to the schema's ``$defs`` (a pool of 300 spaces is
        written once); a place may also be spelled as the map prints it ("Sierra Leone")."""
        if not vocab.pool(self.pool):
            return {"type": "string"}
        vocab.referenced.add(self.pool)
        ref = {"$ref": f"#/$defs/{pool_def(self.pool)}"}
        if self.normal is not None:
            return {"anyOf": [ref, {"type": "string", "pattern": "[A-Z ']"}]}
        return ref


@dataclass
class Many(Kind):
    """A list of values of one kind (``length`` when it is fixed: a hex cell ``[q, r]``)."""

    item: Kind
    length: int | None = None
    what: str = "a list"

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """A list, each item checked at its own line."""
        if not isinstance(value, list):
            what = self.what if self.what != "a list" else f"a list of {plural(self.item.what)}"
            # One item written without its list ('layers: menhir_scoring'): say how to list it.
            hint = (
                f"; write it as a list: [{value}]"
                if _scalar(value)
                and value is not None
                and self.item.fits_shape(value)
                and not list(self.item.check(value, vocab, at))
                else ""
            )
            yield Problem(*at, f"{_show(value)} is not {what}{hint}")
            return
        if self.length is not None and len(value) != self.length:
            yield Problem(*at, f"this list holds {len(value)} items, not {self.length}")
        for index, item in enumerate(value):
            yield from self.item.check(item, vocab, child_where(value, index, at))

    def fits_shape(self, value: Any) -> bool:
        """A list."""
        return isinstance(value, list)

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """An array."""
        out: dict[str, Any] = {"type": "array", "items": self.item.schema(vocab)}
        if self.length is not None:
            out["minItems"] = out["maxItems"] = self.length
        return out


@dataclass
class Table(Kind):
    """A mapping from ids of one kind to values of another (``{space: count}``)."""

    key: Kind
    value: Kind | Callable[[str], Kind]
    what: str = "a mapping"

    def _value(self, key: str) -> Kind:
        return self.value if isinstance(self.value, Kind) else self.value(key)

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """A mapping, each key and value checked at its own place."""
        if not isinstance(value, dict):
            yield Problem(*at, f"{_show(value)} is not a mapping")
            return
        for key, item in value.items():
            problems = list(self.key.check(key, vocab, key_where(value, key, at)))
            yield from problems
            if not problems:
                yield from self._value(str(key)).check(item, vocab, child_where(value, key, at))

    def fits_shape(self, value: Any) -> bool:
        """A mapping."""
        return isinstance(value, dict)

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """An object whose property names are the key kind's."""
        out: dict[str, Any] = {"type": "object", "propertyNames": self.key.schema(vocab)}
        if isinstance(self.value, Kind):
            out["additionalProperties"] = self.value.schema(vocab)
        else:
            keys = self.key.schema(vocab).get("enum") or []
            out["properties"] = {k: self.value(k).schema(vocab) for k in keys}
        return out


@dataclass
class Fields(Kind):
    """A mapping with named fields, some required (a tile spec, an action's arguments)."""

    fields: dict[str, Kind]
    required: tuple[str, ...] = ()
    #: How the mapping reads in a message; most are an action's arguments.
    what: str = "the arguments"
    doc: dict[str, str] = field(default_factory=dict)

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """Known fields only, each checked; the required ones present."""
        if not isinstance(value, dict):
            yield Problem(*at, f"{_show(value)} is not {self.what}")
            return
        for key, item in value.items():
            where = key_where(value, key, at)
            if str(key) not in self.fields:
                yield Problem(
                    *where, f"'{key}' is not a field of {self.what}{suggest(str(key), self.fields)}"
                )
                continue
            yield from self.fields[str(key)].check(item, vocab, child_where(value, key, at))
        missing = [name for name in self.required if name not in value]
        if missing:
            # "the arguments need 'card'", "a tile spec needs 'card'".
            need = "need" if self.what.startswith("the ") and self.what.endswith("s") else "needs"
            yield Problem(*at, f"{self.what} {need} {', '.join(repr(m) for m in missing)}")

    def fits_shape(self, value: Any) -> bool:
        """A mapping."""
        return isinstance(value, dict)

    def form(self) -> str:
        """How the mapping reads with its required fields: ``a special tile {special: ...}``."""
        if not self.required:
            return self.what
        return f"{self.what} {{{', '.join(f'{name}: ...' for name in self.required)}}}"

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """An object with exactly these properties."""
        properties = {}
        for name, kind in self.fields.items():
            properties[name] = kind.schema(vocab)
            if name in self.doc:
                properties[name]["description"] = self.doc[name]
        out: dict[str, Any] = {
            "type": "object",
            "properties": properties,
            "additionalProperties": False,
        }
        if self.required:
            out["required"] = list(self.required)
        return out


@dataclass
class OneOf(Kind):
    """Any of several kinds (a tile spec: special, sections, side or land)."""

    options: tuple[Kind, ...]
    what: str = "a value"

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """The first option that fits; else the problems of the option that came closest, of
        the options of the value's shape (a mapping is not told it is not a name), the one
        knowing most of a mapping's keys first; a value of no option's shape is told the
        forms it may take."""
        shaped = [option for option in self.options if option.fits_shape(value)]
        if not shaped:
            forms = [o.form() if isinstance(o, Fields) else o.what for o in self.options]
            yield Problem(*at, f"{_show(value)} is not {self.what}; write {_one_of(forms)}")
            return
        best: tuple[int, int, list[Problem]] | None = None
        for option in shaped:
            problems = list(option.check(value, vocab, at))
            if not problems:
                return
            unknown = (
                sum(1 for key in value if str(key) not in option.fields)
                if isinstance(option, Fields) and isinstance(value, dict)
                else 0
            )
            if best is None or (len(problems), unknown) < best[:2]:
                best = (len(problems), unknown, problems)
        yield from best[2] if best else []

    def fits_shape(self, value: Any) -> bool:
        """The shape of one of the options."""
        return any(option.fits_shape(value) for option in self.options)

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """``anyOf`` the options."""
        return {"anyOf": [o.schema(vocab) for o in self.options]}


@dataclass
class Maybe(Kind):
    """A value of a kind, or ``null`` (nothing: no Pirate Ship on the board)."""

    inner: Kind
    #: What null means, said with a wrong value ("the Pirate Ship in the supply"): a tester
    #: writes the rulebook's word for nothing ('supply'), and is told to write null.
    none: str = ""

    @property
    def what(self) -> str:  # type: ignore[override]
        """The inner kind's words."""
        return self.inner.what

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """Null, or the inner kind."""
        if value is not None:
            for problem in self.inner.check(value, vocab, at):
                if self.none:
                    said = f"{problem.message}; or null: {self.none}"
                    problem = Problem(problem.line, problem.column, said)
                yield problem

    def fits_shape(self, value: Any) -> bool:
        """Null, or the inner kind's shape."""
        return value is None or self.inner.fits_shape(value)

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """``anyOf`` null and the inner kind."""
        return {"anyOf": [{"type": "null"}, self.inner.schema(vocab)]}


@dataclass
class Anything(Kind):
    """A value the game itself interprets (kept for keys whose shape is free)."""

    what: str = "a value"

    def check(self, value: Any, vocab: Vocabulary, at: Where) -> Iterator[Problem]:
        """Nothing to check."""
        return iter(())

    def schema(self, vocab: Vocabulary) -> dict[str, Any]:
        """Any JSON value."""
        return {}


def player_number(vocab: Vocabulary) -> int | None:
    """The highest player number of the scenario (``players`` or the mode's count)."""
    return vocab.players


#: A player by number, 1 up to the scenario's player count.
PLAYER = Number(1, player_number, "a player number")
