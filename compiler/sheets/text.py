"""Card text from the rules that run: IR effect code -> plain English.

Each trigger of a card becomes one sentence: the rulebook's words for when it applies (from
``reference.yaml``'s ``when``), then its statements. Names are written in the rulebook's words
(``words``), whole phrases where it has them (``phrases``: ``"verb target"`` or ``"verb"`` ->
text with ``{n}`` for the amount and ``{target}`` for the target), and otherwise from the
vocabulary's own descriptions. A name with an entry in the Icon Reference is preceded by its
icon. So the printed text and the generated handler come from the same IR and cannot drift.

A card's ``text`` property replaces the generated text; in it ``{icon:NAME}`` inlines an icon.
Text is a list of segments: ``str`` for words, :class:`IconRef` for an icon and
:class:`Provisional` for the mark of a value the rulebook does not print.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from compiler.sheets.reference import Reference


@dataclass(frozen=True)
class IconRef:
    """An icon of the game's Icon Reference, inlined in text."""

    name: str


@dataclass(frozen=True)
class Provisional:
    """The mark of a provisional value; ``number`` is its note on the reference page."""

    number: int


Segment = str | IconRef | Provisional
Text = list[Segment]

_NUMBER_WORDS = {1: "a", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
_COMPARE = {
    ">": "is higher than",
    "<": "is lower than",
    ">=": "is at least",
    "<=": "is at most",
    "==": "is",
    "!=": "is not",
}
_BINARY = {"+": "plus", "-": "minus", "*": "times", "/": "divided by", "%": "modulo"}
_PREPOSITIONS = ("of", "in", "on", "to", "between", "from", "at")
_ICON_IN_TEXT = re.compile(r"\{icon:([a-z_][a-z0-9_]*)\}")


class TextError(ValueError):
    """A card whose text cannot be written (an unknown icon in its ``text``)."""


class CardWriter:
    """Writes the text of the cards of one game IR, in the words of its reference."""

    def __init__(self, ir: dict[str, Any], ref: Reference, notes: dict[tuple[str, int], int]):
        self.vocab = ir["vocabulary"]
        self.ref = ref
        #: A card named in another's rules is printed by its title ("Lisbon", not lisbon).
        self.titles = {c["id"]: c["title"] for c in ir["cards"]}
        #: The game's symbols: names of its data that need the rulebook's words.
        self.symbols = set(self.vocab.get("symbols", {}))
        #: (card source, name) of every symbol printed as its bare id, for the text lint.
        self.unworded: list[tuple[str, str]] = []
        #: (card id, source line) -> provisional note number.
        self.notes = notes
        self.card: dict[str, Any] = {}

    # -- names

    def word(self, name: str) -> str:
        """The rulebook's words for ``name``, else a card's title, else the name with spaces."""
        if name in self.ref.words:
            return self.ref.words[name]
        if name in self.titles:
            return self.titles[name]
        if name in self.symbols:
            self.unworded.append((self.card.get("source", ""), name))
        return name.replace("_", " ")

    def named(self, name: str) -> Text:
        """``name`` in words, after its icon when the Icon Reference has one."""
        out: Text = []
        if name in self.ref.icons:
            out += [IconRef(name), " "]
        out.append(self.word(name))
        return out

    # -- a card

    def card_text(self, card: dict[str, Any]) -> list[Text]:
        """The paragraphs of ``card``'s text: its ``text`` property, or one per trigger."""
        self.card = card
        override = card["properties"].get("text")
        if isinstance(override, str):
            return [self.parse_override(p) for p in override.split("\n\n") if p.strip()]
        paragraphs = []
        for trigger, block in card["triggers"].items():
            when = self.ref.when.get(trigger)
            if when is None:
                when = _when(self.vocab["triggers"].get(trigger, {}).get("doc", trigger))
            body = self.block(block["body"])
            if not body:
                continue
            paragraphs.append(_sentence([when, " "] if when else [], body))
        return paragraphs

    def parse_override(self, text: str) -> Text:
        """A ``text`` property: words with ``{icon:NAME}`` icons."""
        out: Text = []
        at = 0
        for match in _ICON_IN_TEXT.finditer(text):
            out.append(text[at : match.start()])
            name = match.group(1)
            if name not in self.ref.icons:
                known = ", ".join(sorted(self.ref.icons)) or "none"
                raise TextError(
                    f"{self.card.get('source', '?')}: {self.card.get('title', '?')}: "
                    f"'{{icon:{name}}}' is not in this game's Icon Reference (icons: {known})"
                )
            out.append(IconRef(name))
            at = match.end()
        out.append(text[at:])
        return [s for s in out if s != ""]

    def formula(self, expr: dict[str, Any]) -> Text:
        """A formula or condition property (a voyage's pirate) in words."""
        return _capital(self.expr(expr))

    # -- statements

    def block(self, body: list[dict[str, Any]], joiner: str = "; ") -> Text:
        parts = [self.stmt(s) for s in body]
        return _join([p for p in parts if p], joiner)

    def mark(self, stmt: dict[str, Any]) -> Text:
        at = stmt.get("at")
        if at is None:
            return []
        number = self.notes.get((self.card.get("id", ""), at[0]))
        return [Provisional(number)] if number is not None else []

    def stmt(self, s: dict[str, Any]) -> Text:
        kind = s["kind"]
        if kind == "verb":
            return self.verb(s) + self.mark(s)
        if kind == "if":
            return self.if_(s)
        if kind == "may":
            return ["you may ", *self.block(s["body"], " and ")]
        if kind == "let":
            return self.expr(s["value"], as_statement=True) + self.mark(s)
        if kind == "for_each":
            return self.for_each(s)
        if kind == "choose":
            options = [self.block(o, " and ") for o in s["options"]]
            return ["choose one: ", *_join(options, "; or ")]
        if kind == "repeat":
            count = s["count"]
            times = (
                {1: "once", 2: "twice"}.get(count["value"], f"{count['value']} times")
                if count["kind"] == "num"
                else None
            )
            head: Text = [times] if times else [*self.expr(count), " times"]
            return [*head, ": ", *self.block(s["body"])]
        if kind == "group":
            return self.block(s["body"])
        return [s.get("say", kind)]

    def if_(self, s: dict[str, Any]) -> Text:
        cond = s["cond"]
        then = self.block(s["then"])
        if cond["kind"] == "not" and not s["else"]:
            # "unless play lime_juice { mark health 1 }": the rulebook puts the exception last.
            return [*then, " unless ", *self.expr(cond["operand"])]
        out: Text = ["if ", *self.expr(cond), ", ", *then]
        if s["else"]:
            out += ["; otherwise, ", *self.block(s["else"])]
        return out

    def for_each(self, s: dict[str, Any]) -> Text:
        over = s["over"]
        if over["kind"] == "builtin" and over["name"] == "players":
            head: Text = ["every player"]
            where = s["where"]
            # The rulebook's words for who the rule picks: phrases "players where NATIVE"
            # ("every player whose Ship is in the same Ocean Region as the Pirate Ship").
            left = where.get("left", {}) if where is not None else {}
            phrase = self.ref.phrases.get(f"players where {left.get('native', '')}")
            if phrase is not None:
                head = [phrase]
            elif where is not None:
                head += [" for whom ", *self.expr(where)]
        else:
            head = ["for each ", *self.named(s["var"]), " in ", *self.expr(over)]
            if s["where"] is not None:
                head += [" where ", *self.expr(s["where"])]
        return [*head, ": ", *self.block(s["body"])]

    def verb(self, s: dict[str, Any]) -> Text:
        name, args = s["verb"], s["args"]
        first = args[0] if args else None
        target = (first.get("name") or first.get("native")) if isinstance(first, dict) else None
        amount = next((a for a in args[1:] if a is not None), None) if target else first
        phrase = self.ref.phrases.get(f"{name} {target}") if target else None
        if phrase is None:
            phrase = self.ref.phrases.get(name)
            if phrase is not None and "{target}" not in phrase and "{n}" in phrase:
                amount = first
        if phrase is not None:
            lead: Text = [IconRef(name), " "] if name in self.ref.icons else []
            return lead + self.fill(phrase, first, amount)
        if s["origin"] == "prelude":
            return self.prelude_verb(s)
        doc = self.vocab["verbs"].get(name, {}).get("doc", name)
        out: Text = self.named(name) if name in self.ref.icons else [doc]
        shown = [self.expr(a) for a in args if a is not None]
        if shown:
            out += [" (", *_join(shown, ", "), ")"]
        return out

    def fill(self, phrase: str, target: Any, amount: Any) -> Text:
        out: Text = []
        for piece in re.split(r"(\{target\}|\{n\})", phrase):
            if piece == "{target}":
                out += self.expr(target) if target is not None else []
            elif piece == "{n}":
                out += self.expr(amount) if amount is not None else ["1"]
            elif piece:
                out.append(piece)
        return out

    def prelude_verb(self, s: dict[str, Any]) -> Text:
        name, args = s["verb"], s["args"]
        target = self.expr(args[0]) if args and args[0] is not None else []
        amount = args[1] if len(args) > 1 else None
        if name in ("gain", "lose"):
            out: Text = [name, " ", *self.amount_of(amount, target)]
            if name == "lose" and args and args[0] is not None:
                out += self.floor(args[0])
            return out
        if name == "pay":
            out = ["pay ", *self.amount_of(amount, target)]
            if s.get("else"):
                one = _singular(plain_words(target))
                out += [f"; for each {one} you cannot pay, ", *self.block(s["else"])]
            return out
        if name == "mark":
            if amount is None or (amount["kind"] == "num" and amount["value"] == 1):
                return ["mark an X on ", *target]
            if amount["kind"] == "num":
                return ["mark ", str(amount["value"]), " Xs on ", *target]
            return ["mark Xs on ", *target, " equal to ", *self.expr(amount)]
        if name == "reduce":
            return ["reduce ", *target, " by up to ", *self.expr(amount)] if amount else []
        if name == "add":
            return ["add ", *(self.expr(amount) if amount else ["1"]), " to ", *target]
        if name == "set":
            return [*target, " becomes ", *(self.expr(amount) if amount else [])]
        if name == "score":
            return ["score ", *target]
        if name == "discard":
            return ["discard ", *target]
        if name == "draw":
            return ["draw ", *(self.expr(amount) if amount else ["1"]), " ", *target]
        if name == "play":
            return ["play ", *target]
        return [s.get("say", name)]

    def floor(self, target: dict[str, Any]) -> Text:
        """What losing the game's score stops at, as the rulebook says it: " (to a minimum of
        0 victory points on the victory point track)" when ``floors`` names the counter."""
        name = target.get("name", "")
        floor = self.ref.floors.get(name)
        return [f" ({floor})"] if floor else []

    def amount_of(self, amount: Any, what: Text) -> Text:
        one = _number_of(what, 1)
        if amount is None:
            return ["1 ", *one]
        if amount["kind"] == "num":
            return [str(amount["value"]), " ", *_number_of(what, amount["value"])]
        if amount["kind"] == "local" and amount["name"] == "missing":
            return ["1 ", *one]
        return [*what, " equal to ", *self.expr(amount)]

    # -- expressions

    def expr(self, e: dict[str, Any], as_statement: bool = False) -> Text:
        kind = e["kind"]
        if kind == "num":
            return [str(e["value"])]
        if kind == "bool":
            return ["yes" if e["value"] else "no"]
        if kind == "text":
            return [e["value"]]
        if kind in ("roll", "dice"):
            count = _NUMBER_WORDS.get(e["count"], str(e["count"]))
            dice = "die" if e["count"] == 1 else "dice"
            sides = "" if e["sides"] == 6 else f" of {e['sides']} sides"
            return (
                [f"roll {count} {dice}{sides}"]
                if as_statement or kind == "roll"
                else [f"{count} {dice}{sides}"]
            )
        if kind == "local":
            return ["the result"] if self._is_roll(e["name"]) else self.named(e["name"])
        if kind in ("event", "quantity", "counter", "param", "symbol", "ref"):
            name = e["name"]
            if kind == "counter" and name not in self.ref.words:
                return ["your ", *self.named(name)]
            return self.named(name)
        if kind == "builtin":
            builtin = {"self": "this card", "round": "the round", "player": "you"}
            return [builtin.get(e["name"], self.word(e["name"]))]
        if kind == "card":
            return self.named(e["id"])
        if kind == "binary":
            right = e["right"]
            if e["op"] == "*" and right["kind"] in ("counter", "quantity"):
                return [*self.expr(e["left"]), " for each ", *self.named(right["name"])]
            return [*self.expr(e["left"]), f" {_BINARY[e['op']]} ", *self.expr(right)]
        if kind == "compare":
            left, right = e["left"], e["right"]
            if left == {"kind": "builtin", "name": "round"} and e["op"] == "<":
                return ["before round ", *self.expr(right)]
            return [*self.expr(left), f" {_COMPARE[e['op']]} ", *self.expr(right)]
        if kind == "logic":
            return [*self.expr(e["left"]), f" {e['op']} ", *self.expr(e["right"])]
        if kind == "not":
            return ["not ", *self.expr(e["operand"])]
        if kind == "call":
            return self.call(e)
        if kind == "verb_test":
            return ["you ", *self.verb({**e, "say": e["verb"]})]
        if kind == "list":
            return _join([self.expr(i) for i in e["items"]], ", ")
        if kind == "range":
            return [*self.expr(e["low"]), " to ", *self.expr(e["high"])]
        if kind == "attr":
            return [*self.expr(e["value"]), "'s ", self.word(e["attr"])]
        return [kind]

    def _is_roll(self, local: str) -> bool:
        for block in self.card.get("triggers", {}).values():
            for s in block["body"]:
                if s["kind"] == "let" and s["name"] == local and s["value"]["kind"] == "roll":
                    return True
        return False

    def call(self, e: dict[str, Any]) -> Text:
        name = e["native"]
        args = [self.expr(a) for a in e["args"]]
        lead: Text = [IconRef(name), " "] if name in self.ref.icons else []
        if name in self.ref.words:
            words = self.ref.words[name]
            if args and words.split()[-1] in _PREPOSITIONS:
                return [*lead, words, " ", *_join(args, " and ")]
            return [*lead, words]
        doc = self.vocab["natives"].get(name, {}).get("doc", name)
        if name in ("min", "max") and len(args) == 2:
            return [f"the {'smaller' if name == 'min' else 'larger'} of ", *_join(args, " and ")]
        if name == "count" and args:
            return ["the number of cards in ", *args[0]]
        return [*lead, doc] + ([" (", *_join(args, ", "), ")"] if args else [])


#: Words a trigger's description may start with that already say when ("when a card is
#: played", "at the end of the game"): the sentence starts with them, not with "When".
_WHEN_WORDS = ("when", "whenever", "after", "before", "at", "during", "in", "on", "once", "if")


def _when(doc: str) -> str:
    """A trigger's description as the start of a sentence: "When a card is played," (never
    "When when ...", nor "When the end of the game" for "the end of the game")."""
    text = doc.strip().rstrip(",.")
    first = text.split(" ", 1)[0].lower()
    if first in _WHEN_WORDS:
        return text[0].upper() + text[1:] + ","
    if first in ("the", "end", "start", "beginning") or text.lower().startswith(
        ("end of", "start of")
    ):
        return f"At {text},"
    return f"When {text},"


def plain_words(text: Text) -> str:
    """The words of ``text`` (icons and marks left out)."""
    return "".join(s for s in text if isinstance(s, str)).strip()


def _singular(words: str) -> str:
    """ "Coins" -> "Coin", "victory points" -> "victory point"; other words as they are."""
    if words.endswith("s") and not words.endswith(("ss", "us", "is")):
        return words[:-1]
    return words


def _plural(words: str) -> str:
    """ "victory point" -> "victory points", "Coin" -> "Coins"; a mass noun ("Money",
    "prestige", "Scurvy") has no plural and stays."""
    last = words.split(" ")[-1] if words else ""
    if not last or last.endswith("s") or last.lower() in _MASS_NOUNS or not last[0].isalpha():
        return words
    if last.endswith(("x", "ch", "sh")):
        return words + "es"
    return words + "s"


#: Words counted without a plural.
_MASS_NOUNS = frozenset(
    "money prestige scurvy damage health durability heroism skullduggery fame notoriety "
    "supplies armament".split()
)


def _number_of(what: Text, count: int) -> Text:
    """``what`` (an icon and words) with its last words in the number ``count`` asks for."""
    out = list(what)
    for index in range(len(out) - 1, -1, -1):
        seg = out[index]
        if isinstance(seg, str) and seg.strip():
            out[index] = _singular(seg) if count == 1 else _plural(seg)
            break
    return out


def _join(parts: list[Text], joiner: str) -> Text:
    out: Text = []
    for index, part in enumerate(parts):
        if index:
            out.append(joiner)
        out += part
    return out


def _capital(text: Text) -> Text:
    """``text`` with its first letter upper-case."""
    out = list(text)
    for index, seg in enumerate(out):
        if isinstance(seg, str) and seg.strip():
            stripped = seg.lstrip()
            out[index] = seg[: len(seg) - len(stripped)] + stripped[0].upper() + stripped[1:]
            break
    return out


def _sentence(lead: Text, body: Text) -> Text:
    """A sentence: capitalised, ending with a full stop (after any closing parenthesis)."""
    out = _capital(lead + body)
    last = next((i for i in range(len(out) - 1, -1, -1) if isinstance(out[i], str)), None)
    if last is None:
        return out
    tail = out[last]
    assert isinstance(tail, str)
    if not tail.rstrip().endswith((".", "!", "?", ".)")):
        out[last] = tail.rstrip() + "."
    return out


def plain(text: Text) -> str:
    """``text`` as plain words (icons by their name in brackets, provisional marks as *N)."""
    out = []
    for seg in text:
        if isinstance(seg, IconRef):
            out.append(f"[{seg.name}]")
        elif isinstance(seg, Provisional):
            out.append(f"*{seg.number}")
        else:
            out.append(seg)
    return "".join(out)
