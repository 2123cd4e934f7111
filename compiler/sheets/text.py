"""Card text from the rules that run: IR effect code -> plain English.

Each trigger of a card becomes one sentence: the rulebook's words for when it applies (from
``reference.yaml``'s ``when``), then its statements. Names are written in the rulebook's words
(``words``), whole phrases where it has them (``phrases``: ``"verb target"`` or ``"verb"``,
or ``"native argument"`` for a native asked of one named value ->
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
from engine.words import article, with_article
from engine.words import singular as _singular


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
    """A card whose text cannot be written (an unknown icon in its ``text``); ``source`` is the
    card's ``file:line`` when the error is about one card, so the build shows it there."""

    def __init__(self, message: str, source: str = ""):
        super().__init__(message)
        self.source = source


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
        #: Names of the loops over the players: each is "that player" in words.
        self.player_vars: set[str] = set()
        #: Names of the other loops without words of their own: each is "it".
        self.item_vars: set[str] = set()
        #: Names a rule gave a roll (``let storm 1d6``): each is "the result" after it.
        self.roll_vars: set[str] = set()
        #: Names of the loops over a kind's cards without words of their own, as the kind's
        #: noun: ``for each site in campsite`` says "the Campsite", never "the site".
        self.kind_vars: dict[str, str] = {}
        #: Names of the loops over a kind's cards, by kind (``for each s in space``): a tag
        #: tested of one is said in the words of that kind's tag.
        self.loop_kinds: dict[str, str] = {}
        #: The verbs written in the DSL, by name (their parameters and statements).
        self.definitions: dict[str, dict[str, Any]] = {
            d["name"]: d for d in (ir.get("definitions") or {}).get("verbs", [])
        }
        #: How deep a DSL verb's text is being written inside another's (a verb calling itself
        #: stops at its description).
        self.inlining = 0
        #: The game's parameters with a whole-number value and no words in the reference, as
        #: the numbers they stand for (:meth:`valued`).
        self.unworded_params: dict[str, Any] = {
            name: {"kind": "num", "value": value}
            for name, value in (self.vocab.get("params") or {}).items()
            if name not in ref.words and isinstance(value, int) and not isinstance(value, bool)
        }
        #: How many rounds the game's flow plays (``round rounds { ... }``: the parameter),
        #: so "round == rounds" is "the last round"; None without rounds.
        self.round_count: dict[str, Any] | None = next(
            (
                s["count"]
                for s in (ir.get("flow") or {}).get("sections", [])
                if s.get("section") == "round" and isinstance(s.get("count"), dict)
            ),
            None,
        )
        #: True while the thing a statement changes is written ("reduce the Pirate's Combat
        #: Power"): a name's icon goes there, on the effect, not wherever the name is read
        #: ("if your Armament is higher than the Pirate's Combat Power").
        self.effect = False

    # -- names

    def word(self, name: str) -> str:
        """The rulebook's words for ``name``, else a card's title, else the name with spaces."""
        if name in self.ref.words:
            return self.ref.words[name]
        if name in self.titles:
            return self.titles[name]
        if name in self.symbols:
            self.unworded.append((self.card.get("source", ""), name))
        if name in self.vocab.get("zones", ()):
            # A zone with no words of its own is a place of the player's cards ("draw 3 cards
            # into your hand", not "draw 3 hands").
            return f"your {name.replace('_', ' ')}"
        return name.replace("_", " ")

    def named(self, name: str, icon: bool | None = None) -> Text:
        """``name`` in words, after its icon when the Icon Reference has one and the name is
        what an effect changes (``icon``; by default, while :attr:`effect` is set)."""
        out: Text = []
        if name in self.ref.icons and (self.effect if icon is None else icon):
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
            when = self.when(trigger)
            sentences = self.sentences(block["body"])
            if not sentences:
                continue
            lead: Text = []
            if when:
                # "Immediately, if ...": a lead without its own comma takes one before a clause.
                opens = plain_words(sentences[0]).split(" ", 1)[0]
                comma = not when.rstrip().endswith((",", ":")) and opens in _CLAUSE_WORDS
                lead = [when + ("," if comma else ""), " "]
            paragraph: Text = []
            for index, sentence in enumerate(sentences):
                paragraph += ([" "] if index else []) + _sentence(
                    lead if index == 0 else [], sentence
                )
            paragraphs.append(paragraph)
        return paragraphs

    def when(self, trigger: str) -> str:
        """The words a card's effect on ``trigger`` begins with: the rulebook's (``when``),
        else the trigger's description as a lead ("When a land or sea area is completed,"); a
        track's special box, which no declaration describes, is said as marking it ("When an
        X is marked in a declining-health space of the Health track,": it printed "When
        declining_health,")."""
        when = self.ref.when.get(trigger)
        if when is not None:
            return when
        declared = self.vocab["triggers"].get(trigger)
        if declared is None:
            for track, spec in (self.vocab.get("tracks") or {}).items():
                if trigger in (spec.get("boxes") or {}):
                    box = trigger.replace("_", "-")
                    named = self.word(track)
                    if plain_words([named]).split(" ", 1)[0].lower() not in _DETERMINERS:
                        named = f"the {named} track"
                    return _when(f"an X is marked in a {box} space of {named}")
        return _when((declared or {}).get("doc", trigger))

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
                    f"'{{icon:{name}}}' is not in this game's Icon Reference (icons: {known})",
                    str(self.card.get("source", "")),
                )
            out.append(IconRef(name))
            at = match.end()
        out.append(text[at:])
        return [s for s in out if s != ""]

    def formula(self, expr: dict[str, Any]) -> Text:
        """A formula or condition property (a voyage's pirate) in words."""
        return _capital(self.expr(expr))

    # -- statements

    def sentences(self, body: list[dict[str, Any]]) -> list[Text]:
        """A trigger's statements as sentences: a run of plain steps is one sentence ("gain 1
        Coin and 2 victory points"), each condition, loop, choice or "may" its own, so no
        step reads as part of the condition before it."""
        out: list[Text] = []
        run: list[dict[str, Any]] = []
        for stmt in body:
            if _compound(stmt):
                if run:
                    out.append(self.block(run))
                    run = []
                text = self.stmt(stmt)
                if text:
                    out.append(text)
            else:
                run.append(stmt)
        if run:
            out.append(self.block(run))
        return [t for t in out if t]

    def block(self, body: list[dict[str, Any]], joiner: str = "; ") -> Text:
        """Statements as one clause: plain steps as a list ("A, B and C"); with a condition,
        loop or choice among them, or a step that has its own "and" or comma, ``joiner``."""
        parts: list[Text] = []
        body = _played_as_fixed(self.valued(body))
        for part in self.merged(body):
            if parts and plain_words(part).startswith("("):
                # A phrase in brackets explains the step before it: "sail 1 additional space
                # (the extra sailing distance ... does not count toward the Scurvy Check)".
                parts[-1] = [*parts[-1], " ", *part]
            elif part:
                parts.append(part)
        words = [plain_words(p) for p in parts]
        if len(parts) > 1 and not any(_compound(s) for s in body):
            if not any(" and " in w or "," in w or ";" in w or ":" in w for w in words):
                return _join(parts[:-1], ", ") + [" and "] + parts[-1]
        if len(parts) == len(body) and joiner == "; ":
            # After a step with its own clause, "then" says the next one is not part of it.
            out: Text = []
            for index, part in enumerate(parts):
                if index:
                    out.append("; then " if _compound(body[index - 1]) else joiner)
                out += part
            return out
        return _join(parts, joiner)

    def merged(self, body: list[dict[str, Any]]) -> list[Text]:
        """The statements' texts, a run of gains (losses, draws) said once: "gain 1 Coin, 2
        victory points and 1 Treasure token"."""
        out: list[Text] = []
        index = 0
        while index < len(body):
            stmt = body[index]
            if not _compound(stmt):
                # The same step again: "mark an X on the Health track twice", not "mark an X
                # on the Health track and mark an X on the Health track".
                said = self.stmt(stmt)
                same = 1
                while (
                    index + same < len(body)
                    and not _compound(body[index + same])
                    and self.stmt(body[index + same]) == said
                ):
                    same += 1
                if same > 1 and said:
                    times = {2: "twice"}.get(same, f"{same} times")
                    out.append(
                        [*said, f" ({times})" if plain_words(said).startswith("(") else f" {times}"]
                    )
                    index += same
                    continue
            verb = stmt.get("verb") if stmt["kind"] == "verb" else None
            if (
                verb in ("gain", "lose", "draw")
                and stmt["origin"] == "prelude"
                and not stmt.get("else")
            ):
                run = [stmt]
                while (
                    index + len(run) < len(body)
                    and body[index + len(run)]["kind"] == "verb"
                    and body[index + len(run)].get("verb") == verb
                    and body[index + len(run)]["origin"] == "prelude"
                    and not body[index + len(run)].get("else")
                ):
                    run.append(body[index + len(run)])
                places = verb == "draw" and any(
                    plain_words(self.expr(s["args"][0])).split(" ", 1)[0].lower()
                    in ("your", "the", "a", "an", "their")
                    for s in run
                )
                floored = verb == "lose" and any(self._floored(s) for s in run)
                if len(run) > 1 and not places and not floored:
                    amounts = [
                        self.amount_of(s["args"][1], self.counter(s["args"][0])) for s in run
                    ]
                    marks: Text = [m for s in run for m in self.mark(s)]
                    tail = _join(amounts[:-1], ", ") + [" and "] + amounts[-1]
                    out.append([verb, " ", *tail, *marks])
                    index += len(run)
                    continue
            out.append(self.stmt(stmt))
            index += 1
        return out

    def _floored(self, stmt: dict[str, Any]) -> bool:
        first = stmt["args"][0] if stmt["args"] else None
        return bool(first and self.ref.floors.get(first.get("name", "")))

    def counter(self, target: Any) -> Text:
        """A counter as the noun of an amount a statement gains or loses: "Armament", never
        "your Armament" (with its icon: it is what the effect changes)."""
        return _strip_owner(self.effect_target(target))

    def mark(self, stmt: dict[str, Any]) -> Text:
        at = stmt.get("at")
        if at is None:
            return []
        number = self.notes.get((self.card.get("id", ""), at[0]))
        return [Provisional(number)] if number is not None else []

    def stmt(self, s: dict[str, Any]) -> Text:
        s = self.valued(s)
        kind = s["kind"]
        if kind == "verb":
            return self.verb(s) + self.mark(s)
        if kind == "if":
            return self.if_(s)
        if kind == "may":
            body = s["body"]
            if len(body) == 1 and body[0]["kind"] == "if" and not body[0]["else"]:
                # "may { if A { X } }": "if A, you may X".
                inner = {**body[0], "then": [{**s, "body": body[0]["then"]}]}
                return self.if_(inner)
            if any(_compound(x) for x in body):
                return ["you may do the following: ", *self.block(body, "; ")]
            return ["you may ", *self.block(body, " and ")]
        if kind == "let":
            if s["value"]["kind"] == "roll":
                # The roll is "the result" in what follows, in a card or a phase alike (a
                # house rule's "let storm 1d6" read "if the storm is higher than 3").
                self.roll_vars.add(s["name"])
                return self.expr(s["value"], as_statement=True) + self.mark(s)
            # "the total is your crew stamina plus your Armament": the name the rule uses next.
            self.roll_vars.discard(s["name"])
            return [*self.local(s["name"]), " is ", *self.expr(s["value"])] + self.mark(s)
        if kind == "for_each":
            return self.for_each(s)
        if kind == "choose":
            options = [self.block(o, " and ") for o in s["options"]]
            return ["choose one: ", *_join(options, "; or ")]
        if kind == "choose_from":
            return self.choose_from(s)
        if kind == "repeat":
            count = s["count"]
            times = (
                {1: "once", 2: "twice"}.get(count["value"], f"{count['value']} times")
                if count["kind"] == "num"
                else None
            )
            body = s["body"]
            if len(body) == 1 and not _compound(body[0]):
                # "mark an X on the Health track twice", "... as many times as the result".
                tail: Text = [times] if times else ["as many times as ", *self.expr(count)]
                said_count = _merged(self.expr(count)) if not times else []
                first = said_count[0] if said_count else None
                if isinstance(first, str) and first.startswith("the number of "):
                    # "lose 1 Money for each of your defeated Encounters" (it read "as many
                    # times as the number of your defeated Encounters").
                    tail = ["for each of " + first[len("the number of ") :], *said_count[1:]]
                return [*self.stmt(body[0]), " ", *tail]
            head: Text = [times] if times else ["as many times as ", *self.expr(count)]
            return ["repeat ", *head, ": ", *self.block(body, "; ")]
        if kind == "group":
            return self.block(s["body"])
        if kind == "window":
            # "the Pirate's Raid event, before damage (Ship Damage 2, which cards may change),
            # then mark ...": the window by its description, its quantities in brackets, then
            # what reads them back.
            doc = yours(self.vocab["triggers"].get(s["trigger"], {}).get("doc", s["trigger"]))
            lead = (self.ref.when.get(s["trigger"]) or "").strip().rstrip(",:;.").strip()
            if lead:
                # The effects by the words the cards print them under, as `fire` says them:
                # 'resolve every "Against the Pirate's Raid" effect in force (Ship Damage 2,
                # ...)'; the trigger's description read as a designer's note ("the Pirate's
                # Raid event, before damage (Ship Damage 2, ...)").
                doc = f'resolve every "{lead}" effect in force'
            given = [self.quantity_given(q["name"], q["value"]) for q in s["quantities"]]
            out: Text = [doc]
            if given:
                out += [" (", *_join(given, ", "), ", which cards may change)"]
            if s["body"]:
                out += [", then ", *self.block(s["body"])]
            return out
        return [s.get("say", kind)]

    def quantity_given(self, name: str, value: dict[str, Any]) -> Text:
        """A quantity a window opens with: "Ship Damage 2"; a value whose words already name
        the quantity is said once ("the Heroism difficulty printed on the Encounter being
        Faced plus 1", not "the Heroism difficulty the Heroism difficulty printed on ...")."""
        quantity = self.named(name)
        said = self.expr(value)
        words, own = plain_words(said).lower(), plain_words(quantity).lower()
        if own and (words == own or words.startswith(own + " ")):
            return said
        return [*quantity, " ", *said]

    def if_(self, s: dict[str, Any]) -> Text:
        cond = s["cond"]
        inner = s["then"]
        # "if A { if B { X } }" is "if A and B, X".
        while (
            len(inner) == 1 and inner[0]["kind"] == "if" and not inner[0]["else"] and not s["else"]
        ):
            cond = {"kind": "logic", "op": "and", "left": cond, "right": inner[0]["cond"]}
            inner = inner[0]["then"]
        then = self.block(inner)
        if cond["kind"] == "not" and not s["else"]:
            # "unless play lime_juice { mark health 1 }": the rulebook puts a short exception
            # last; before several steps it goes first, so it covers them all.
            words = plain_words(then)
            if len(inner) > 1 or any(_compound(x) for x in inner) or ", " in words:
                # Before a step with a clause of its own ("if your Armament is lower ...,
                # your ship takes damage ..."), the exception goes first: after it, it read
                # as part of that clause.
                return ["unless ", *self.expr(cond["operand"]), ", ", *then]
            return [*then, " unless ", *self.expr(cond["operand"])]
        out: Text = ["if ", *self.expr(cond), ", ", *then]
        if s["else"]:
            out += ["; otherwise, ", *self.block(s["else"])]
        return out

    def for_each(self, s: dict[str, Any]) -> Text:
        over = s["over"]
        if over["kind"] == "builtin" and over["name"] == "players":
            self.player_vars.add(s["var"])
            head: Text = ["every player"]
            where = s["where"]
            # The rulebook's words for who the rule picks: phrases "players where NATIVE"
            # ("every player whose Ship is in the same Ocean Region as the Pirate Ship").
            left = where.get("left", {}) if where is not None else {}
            phrase = self.ref.phrases.get(f"players where {left.get('native', '')}")
            if phrase is not None:
                head = [phrase]
            elif where is not None:
                # The loop's player is "they", not "you": "every player who has no Treasure
                # tokens", "... for whom the Ocean Region of their Ship is ... and they have".
                words = _third_person(self.expr(where))
                first = words[0] if words else ""
                if isinstance(first, str) and _THEY_DO.match(first):
                    # "every player who has no Treasure tokens", "... who keeps their side's
                    # points and does not play the Land side" (it read "every player for whom
                    # they keep their side's points and they do not play ...").
                    head = ["every player who ", *_who_does(words)]
                else:
                    head += [" for whom ", *words]
        elif over.get("of_kind"):
            # `for each site in campsite`: "for each Campsite", every card of the kind; the
            # card is "the Campsite" in the rule, whatever the loop is named ("the site's
            # track" named a thing the card never calls a site; "for each tile: if the
            # special's City" another).
            self.loop_kinds[s["var"]] = over["of_kind"]
            noun = _strip_article([self.kind_word(over["of_kind"])])
            if s["var"] not in self.ref.words:
                self.kind_vars[s["var"]] = plain_words(noun)
            head = ["for each ", *noun]
            if s["where"] is not None:
                head += self.kind_where(plain_words(noun), s["where"])
        else:
            listed = self.expr(over)
            named = plain_words(self.named(s["var"])) if s["var"] in self.ref.words else ""
            each = _each_in(named or s["var"].replace("_", " "), listed)
            if listed and isinstance(listed[0], str) and listed[0].startswith("every "):
                # A list said "every trade route on the board" is the loop itself: "for every
                # trade route on the board", not "for each trade route in every trade route".
                head = ["for ", *listed]
            elif each is not None:
                # The loop's item is what the list holds: "for each Ley line this placement
                # forms", not "for each Ley line in the Ley lines this placement forms".
                head = ["for each ", *each]
            elif named or (over.get("kind") != "call" and not s["var"].endswith(("ed", "ing"))):
                # "for each card in your hand": the loop's name is a noun.
                head = ["for each ", *_strip_article(self.named(s["var"])), " in ", *listed]
            else:
                # A list a native gives, its loop named as no noun of it ("seen", "top",
                # "completed"): "for each of the top 2 of your Resource deck", and the item is
                # "it" in the rule ("where it is Fame"; it read "for each seen in ... where
                # the seen is Fame").
                self.item_vars.add(s["var"])
                head = ["for each of ", *listed]
            if s["where"] is not None:
                head += [" where ", *self.expr(s["where"])]
        for index, key in enumerate(s.get("order") or []):
            # "by prestige descending": the order the rule goes round in.
            first = "highest" if key["descending"] else "lowest"
            said = _strip_owner(self.expr(key["key"]))
            if index and key["descending"] and plain_words(said).startswith("whose "):
                # A tie broken by a thing said of the player: "ties going first to the player
                # whose Prestige marker is on top", as the rulebook breaks it ("If tied, the
                # player whose marker is on top goes first"), not "then of whose ... (highest
                # first)".
                head += [", ties going first to the player ", *said]
                continue
            head += [
                ", in order of " if index == 0 else ", then of ",
                *_strip_owner(self.expr(key["key"])),
                f" ({first} first)",
            ]
        try:
            return [*head, ": ", *self.block(s["body"])]
        finally:
            self.kind_vars.pop(s["var"], None)

    def kind_where(self, noun: str, where: dict[str, Any]) -> Text:
        """What picks the cards of a loop over a kind, after "for each Campsite": one clause
        about the card said of it, "with at least 2 encounters" (it read "where the Location
        has at least 2 encounters"), "whose track is the Ocean track", "that is a Discovery
        Spot"; else "where" and the condition."""
        said = _merged(self.expr(where))
        first = said[0] if said else None
        if where.get("kind") != "logic" and isinstance(first, str):
            for lead, turned in ((" has ", " with "), ("'s ", " whose "), (" is ", " that is ")):
                opening = f"the {noun}{lead}"
                if first.startswith(opening):
                    return [turned + first[len(opening) :], *said[1:]]
        return [" where ", *said]

    def kind_word(self, kind: str) -> str:
        """A kind of card in words: the reference's ``words``, else its card type
        (``kinds``), else its name with spaces."""
        if kind in self.ref.words:
            return self.ref.words[kind]
        return self.ref.kind_name(kind, kind.replace("_", " "))

    def choose_from(self, s: dict[str, Any]) -> Text:
        """``choose VAR in LIST where ... { ... }``: "choose a player who has no Coins: ...",
        "choose a Campsite where ...: ...", "choose one of the cards in your hand where it is
        not Chapel: move it ...": the item picked is "it" in the rule (a player picked is
        "that player"), as a loop's item whose name is no noun."""
        over = s["over"]
        where = s["where"]
        if over["kind"] == "builtin" and over["name"] == "players":
            self.player_vars.add(s["var"])
            head: Text = ["choose a player"]
            if where is not None:
                words = _third_person(self.expr(where))
                first = words[0] if words else ""
                if isinstance(first, str) and first.startswith("they have "):
                    head = ["choose a player who has " + first[len("they have ") :], *words[1:]]
                else:
                    head += [" for whom ", *words]
            # The block acts as the player picked (README: "choose a player: they lose 2
            # Coins"): said of them, not of the card's player ("choose a player ...: pay 2
            # Coins; for each Coin you cannot pay" read as the chooser paying).
            body = [
                # "for each Coin they cannot pay, they lose 1 victory point": the step after
                # the shortfall is theirs too (it read "..., lose 1 victory point").
                _THEY_CANNOT.sub(r"\1they ", seg) if isinstance(seg, str) else seg
                for seg in _third_person(self.block(s["body"]))
            ]
            lead = body[0] if body else ""
            if not isinstance(lead, str) or lead.split(" ", 1)[0] not in _CLAUSE_WORDS | {"they"}:
                body = ["they ", *body]
            return [*head, ": ", *body]
        self.item_vars.add(s["var"])
        if over.get("of_kind"):
            self.loop_kinds[s["var"]] = over["of_kind"]
            # The kind's words may carry their article ("the Campsite"): "choose a Campsite",
            # not "choose a the Campsite".
            noun = plain_words(_strip_article([self.kind_word(over["of_kind"])]))
            head = ["choose ", with_article(noun)]
        else:
            head = ["choose one of ", *self.expr(over)]
        if where is not None:
            head += [" where ", *self.expr(where)]
        return [*head, ": ", *self.block(s["body"])]

    def verb(self, s: dict[str, Any]) -> Text:
        said = self.verb_only(s)
        otherwise = s.get("else")
        if otherwise and not (s["origin"] == "prelude" and s["verb"] == "pay"):
            # "play lime_juice else mark health 1": what happens when it cannot be done.
            if s.get("returns") == "shortfall":
                said += ["; for each one you cannot, ", *self.block(otherwise)]
            else:
                said += ["; if you cannot, ", *self.block(otherwise)]
        return said

    def verb_only(self, s: dict[str, Any]) -> Text:
        """A verb's own words, without what its ``else`` does."""
        name, args = s["verb"], s["args"]
        first = args[0] if args else None
        target = (first.get("name") or first.get("native")) if isinstance(first, dict) else None
        amount = next((a for a in args[1:] if a is not None), None) if target else first
        phrase = self.ref.phrases.get(f"{name} {target}") if target else None
        # The icon a phrase leads with is the Icon Reference's for what the phrase names: a
        # "verb target" phrase's target's ("add reach": Reinforced Rope's "+1" icon, "You may
        # sail 1 additional space") when it has one, else the verb's own ("raid difference":
        # the Pirate icon).
        icon = name
        if phrase is not None and "{target}" not in phrase and target in self.ref.icons:
            icon = target
        if phrase is None:
            phrase = self.ref.phrases.get(name)
            if phrase is not None and "{target}" not in phrase and "{n}" in phrase:
                amount = first
        if (
            phrase is not None
            and phrase.startswith("(")
            and "{n}" not in phrase
            and isinstance(amount, dict)
            and amount.get("kind") == "num"
            and amount["value"] != 1
        ):
            # A phrase in brackets glosses the step before it, once ("sail 1 additional space
            # (the extra sailing distance ... does not count toward the Scurvy Check)"): done
            # N times it is no gloss ("(...) twice"), so the verb is said in its own words.
            phrase = None
        if phrase is not None:
            lead: Text = [IconRef(icon), " "] if icon in self.ref.icons else []
            said = lead + self.fill(phrase, first, amount)
            if "{n}" not in phrase and amount is not None and not (target and amount is first):
                # A phrase for one ("roll a die: the Crew ... is Lost") done N times: every
                # time is on the card ("lose_crew 2" loses two Crew, not one).
                if amount["kind"] == "num" and amount["value"] != 1:
                    times = {2: "twice"}.get(amount["value"], f"{amount['value']} times")
                    # After a phrase of several clauses, in brackets, so it covers them all.
                    said += [f" ({times})" if re.search(r"[:,;]", phrase) else f" {times}"]
                elif amount["kind"] != "num" and not _is_missing(amount):
                    said += [", as many times as ", *self.expr(amount)]
            return said
        if s["origin"] == "prelude":
            return self.prelude_verb(s)
        defined = self.definitions.get(name)
        if (
            defined is not None
            and name not in self.ref.words
            and any(a is not None for a in args)
            and self.inlining < 3
        ):
            # A verb written in the DSL (a house rule's "storm 2"), given its values: what it
            # does, in words ("mark 2 Xs on the Ship Durability track"), not "its doc (2)".
            bound = {p["name"]: a for p, a in zip(defined["params"], args, strict=False)}
            if None in bound.values() or len(bound) < len(defined["params"]):
                # An optional value left out: the description, not a rule with a hole in it.
                return self.described(name, args)
            self.inlining += 1
            try:
                return self.block(_substitute(defined["body"], bound))
            finally:
                self.inlining -= 1
        return self.described(name, args)

    def described(self, name: str, args: list[Any]) -> Text:
        """A verb by its words (or its description), its values in brackets after it."""
        doc = yours(self.vocab["verbs"].get(name, {}).get("doc", name))
        if name in self.ref.words:
            # The rulebook's words for the verb before the vocabulary's own description.
            doc = self.ref.words[name]
            params = self.vocab["verbs"].get(name, {}).get("params") or []
            if _BRACED.search(doc):
                return self.templated(doc, params, args)
        elif name not in self.ref.icons:
            said = self.library_words(name, self.vocab["verbs"].get(name), args)
            if said is not None:
                return said
        if name in self.ref.icons:
            out: Text = self.named(name, icon=True)
            rest = [a for a in args if a is not None]
        else:
            params = self.vocab["verbs"].get(name, {}).get("params") or []
            out, rest = self.placed(doc, params, args)
        return _bracketed(out, [self.expr(a) for a in rest])

    def placed(
        self, doc: str, params: list[dict[str, Any]], args: list[Any]
    ) -> tuple[Text, list[Any]]:
        """A description that names its parameters ("the acting player scores amount at value
        each") with each value in its place ("scores the number of tiles in the area at 1
        each"); the values it does not name, to be said after it. A name after a determiner
        ("an area", "that hole") is the value when the value is said as that noun ("the tiles
        making up the area", not "the tiles making up an area (the area)"), else the
        description's own noun ("which way the player spends the turn (a Rest Turn)")."""
        out: Text = [doc]
        rest: list[Any] = []
        for param, arg in zip(params, args, strict=False):
            if arg is None:
                continue
            last = out[-1]
            name = param["name"]
            said = self.expr(arg)
            match = (
                re.search(_NAMED.format(re.escape(name)), last) if isinstance(last, str) else None
            )
            if match is None and isinstance(last, str):
                noun = plain_words(said).rsplit(" ", 1)[-1].lower()
                if noun in (name.lower(), name.replace("_", " ").lower()):
                    match = re.search(_NAMED_AFTER.format(re.escape(name)), last)
            if match is None or not isinstance(last, str):
                rest.append(arg)
                continue
            out[-1:] = [last[: match.start()], *said, last[match.end() :]]
        rest += [a for a in args[len(params) :] if a is not None]
        return [seg for seg in out if seg != ""], rest

    def templated(self, words: str, params: list[dict[str, Any]], args: list[Any]) -> Text:
        """reference.yaml's words for a verb or native that name its parameters in braces
        ("score {amount} point"): each value in its place, a count agreeing with the noun
        after it ("score 1 point", "score points equal to the number of tiles in the area"),
        and the parameters the words leave out not said at all: a designer's value (a log's
        label, City scoring's multiplier) is no part of the player's rule. It printed "the
        acting player scores 1 at each Waypoint each (City scoring's share apart; waypoint)"."""
        values = {p["name"]: a for p, a in zip(params, args, strict=False) if a is not None}
        counts = {p["name"] for p in params if p.get("type") in ("number", "any", None)}
        pieces = _BRACED.split(words)
        out: Text = [pieces[0]] if pieces[0] else []
        for index in range(1, len(pieces), 2):
            name, after = pieces[index], pieces[index + 1]
            if name not in values:
                out.append("{" + name + "}" + after)
                continue
            if name not in counts:
                # A card, a name or a player is said as it is, never as a count of the words
                # after it: Incredible Expeditions' "{crew} is Refreshed" printed "is
                # Refresheds equal to this card".
                out += [*self.expr(values[name]), after]
                continue
            out += self.fill("{n}" + after, None, values[name])
        return [seg for seg in out if seg != ""]

    def library_words(self, name: str, sig: dict[str, Any] | None, args: list[Any]) -> Text | None:
        """A standard-library call in its own words, the values in their places ("the six
        cells around the placed tile"), or None for a function of the game's own: a library
        docstring speaks to the designer ("The six cells around a cell, in direction
        order.") and read on a card as a sentence dropped into another."""
        origin = str((sig or {}).get("origin", ""))
        if not origin.startswith("stdlib."):
            return None
        from engine.stdlib.registry import LIBRARY

        spec = LIBRARY.get(origin.split(".", 1)[1], {}).get(name)
        if spec is None or spec.words is None:
            return None
        values: dict[str, Text] = {}
        template = spec.words
        for index, param in enumerate(spec.params):
            arg = args[index] if index < len(args) else None
            if (
                arg is not None
                and param.type == "counter"
                and template.startswith(f"{{{param.name}}} ")
            ):
                # The counter is the sentence's subject ("{counter} is at its most"): the
                # player's own, as its words say it, the verb agreeing ("your Sailing Speed is
                # at its most", "your specialties are at their most"; it read "your Sailing
                # Speeds is", "prestige is").
                said = self.expr(arg)
                first = plain_words(said).split(" ", 1)[0].lower()
                if first not in ("the", "your", "a", "an", "each", "their"):
                    said = ["your ", *said]
                last = plain_words(said).rsplit(" ", 1)[-1]
                if _singular(last) != last:
                    template = template.replace(" is ", " are ", 1).replace(" its ", " their ", 1)
                values[param.name] = said
            elif arg is not None and param.type == "counter":
                # A counter is said as what is held: "the most points", not "the most point".
                values[param.name] = _number_of(self.expr(arg), 2)
            elif arg is not None:
                values[param.name] = self.expr(arg)
            elif param.default is not None:
                values[param.name] = [str(param.default)]
        out: Text = []
        pieces = re.split(r"(\{\w+\})", template)
        for index, piece in enumerate(pieces):
            slot = piece[1:-1] if piece.startswith("{") else None
            filled = values.get(slot, [slot]) if slot is not None else [piece] if piece else []
            out += filled
            if slot is not None and plain_words(filled) == "1" and index + 1 < len(pieces):
                # The library's words count in the plural ("the cells {radius} steps from"):
                # one is "the cells 1 step from", not "1 steps", which the lint refuses.
                noun, rest = _noun_after(pieces[index + 1])
                if noun:
                    lead = noun[: len(noun) - len(noun.lstrip())]
                    pieces[index + 1] = lead + _singular(noun.strip()) + rest
        return out

    def fill(self, phrase: str, target: Any, amount: Any) -> Text:
        out: Text = []
        pieces = re.split(r"(\{target\}|\{n\})", phrase)
        for index, piece in enumerate(pieces):
            if piece == "{target}":
                out += self.effect_target(target)
            elif piece == "{n}":
                number = 1 if amount is None or _is_missing(amount) else amount
                after = pieces[index + 1] if index + 1 < len(pieces) else ""
                noun, rest = _noun_after(after)
                if noun and isinstance(number, dict) and number["kind"] != "num":
                    # "sail additional spaces equal to your Sailing Speed": the noun first.
                    before = out[-1] if out and isinstance(out[-1], str) else ""
                    if before.rstrip().endswith("up to"):
                        # "Acquire up to as many cards as your Heroism" (it read "Acquire up
                        # to cards equal to ...").
                        out += ["as many ", _plural(noun.strip()), " as ", *self.expr(number)]
                    else:
                        out += [_plural(noun.strip()), " equal to ", *self.expr(number)]
                    pieces[index + 1] = rest
                    continue
                if isinstance(number, dict) and number["kind"] != "num":
                    out += self.expr(number)
                    continue
                count = number if isinstance(number, int) else number["value"]
                out.append(str(count))
                if noun:
                    # The phrase is written for one amount: its noun follows the count.
                    lead = noun[: len(noun) - len(noun.lstrip())]
                    words = noun.strip()
                    out.append(lead + (_singular(words) if count == 1 else _plural(words)))
                    pieces[index + 1] = rest
            elif piece:
                out.append(piece)
        return out

    def effect_target(self, target: Any) -> Text:
        """What a statement changes, in words, with its icon (:attr:`effect`)."""
        if target is None:
            return []
        was, self.effect = self.effect, True
        try:
            return self.expr(target)
        finally:
            self.effect = was

    def prelude_verb(self, s: dict[str, Any]) -> Text:
        name, args = s["verb"], s["args"]
        target = self.effect_target(args[0]) if args else []
        amount = args[1] if len(args) > 1 else None
        if name in ("gain", "lose"):
            noun = _strip_owner(target)
            out: Text = [name, " ", *self.amount_of(amount, noun)]
            if name == "lose" and args and args[0] is not None:
                out += self.floor(args[0])
            return out
        if name == "pay":
            target = _strip_owner(target)
            out = ["pay ", *self.amount_of(amount, target)]
            if s.get("else"):
                one = _singular(plain_words(target))
                if _mentions_missing(s["else"]):
                    out += [f"; for each {one} you cannot pay, ", *self.block(s["else"])]
                else:
                    # 'pay money 2 else lose_crew 1' loses one Crew however much is short:
                    # "for each Money you cannot pay" printed another rule.
                    out += ["; if you cannot pay it all, ", *self.block(s["else"])]
            return out
        if name == "mark":
            if amount is None or _is_missing(amount) or amount == {"kind": "num", "value": 1}:
                return ["mark an X on ", *target]
            if amount["kind"] == "num":
                return ["mark ", str(amount["value"]), " Xs on ", *target]
            return ["mark Xs on ", *target, " equal to ", *self.expr(amount)]
        if name == "reduce":
            return ["reduce ", *target, " by up to ", *self.expr(amount)] if amount else []
        if name == "add":
            more = self.expr(amount) if amount else ["1"]
            if plain_words(target).startswith("each "):
                # A value each of a kind scores (Land vs Sea's waypoint_value, "each
                # Waypoint"), said as `set` says it ("each Waypoint becomes 2"): "add 1 to
                # each Waypoint" read as a token put on every Waypoint.
                return [*target, " becomes ", *more, " more"]
            return ["add ", *more, " to ", *target]
        if name == "set":
            return [*target, " becomes ", *(self.expr(amount) if amount else [])]
        if name == "score":
            # "score 2 points": the amount in the game's own score.
            points = self.vocab.get("score")
            if points and args and args[0] is not None and args[0]["kind"] == "num":
                noun = _strip_owner(self.named(points, icon=True))
                return ["score ", *self.amount_of(args[0], noun)]
            if points and "point" not in plain_words(target).lower():
                noun = _strip_owner(self.named(points, icon=True))
                return ["score ", *_number_of(noun, 2), " equal to ", *target]
            return ["score ", *target]
        if name == "discard":
            return ["discard ", *target]
        if name == "draw":
            first = plain_words(target).split(" ", 1)[0].lower()
            if first in ("your", "the", "a", "an", "their"):
                # A zone named as a place ("your hand"): the cards go into it.
                return ["draw ", *self.amount_of(amount, ["card"]), " into ", *target]
            # A zone named as its cards ("port cards"): "draw 2 port cards".
            return ["draw ", *self.amount_of(amount, _strip_owner(target))]
        if name == "play":
            return ["play ", *target]
        if name == "end_game":
            reason = args[0] if args else None
            why: Text = [" (", *self.expr(reason), ")"] if reason else []
            return ["the game ends at once", *why]
        if name == "fire":
            # The effects by the words the cards print them under ('resolve every "After each
            # Reward Phase" effect in force'; it said "every reward phase end effect").
            fired = args[0] if args else None
            trigger = str(fired.get("name") or "") if isinstance(fired, dict) else ""
            lead = self.when(trigger) if trigger else ""
            if trigger and not lead.strip():
                # A trigger whose effects print with no lead (Darwin's Journey's "use").
                doc = self.vocab["triggers"].get(trigger, {}).get("doc", trigger)
                lead = _when(doc)
            lead = lead.strip().rstrip(",:;.").strip()
            if lead:
                return [f'resolve every "{lead}" effect in force']
            return ["resolve every ", *target, " effect in force"] if target else []
        if name == "build_deck":
            return ["shuffle the deck ", *target, " draws from"]
        if name == "play_one":
            return ["you may play one card from ", *target]
        doc = self.vocab["verbs"].get(name, {}).get("doc", name)
        return [yours(doc)]

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
        if _is_missing(amount):
            return ["1 ", *one]
        if amount["kind"] == "binary" and amount["op"] == "*":
            # "gain 2 victory points for each Treasure token".
            left, right = amount["left"], amount["right"]
            if left["kind"] in ("counter", "quantity") and right["kind"] == "num":
                left, right = right, left
            if left["kind"] == "num" and right["kind"] in ("counter", "quantity"):
                each = _number_of(_strip_owner(self.named(right["name"])), 1)
                return [*self.amount_of(left, what), " for each ", *each]
        return [*_number_of(what, 2), " equal to ", *self.expr(amount)]

    # -- expressions

    def valued(self, node: Any) -> Any:
        """``node`` (IR) with each parameter of the game that has no words of its own given
        its value, as this game (or variant) plays it, arithmetic on numbers worked out: "Acquire
        up to 3 cards", "lower than 3", as the rulebook prints them (a house rule's sheet said
        "Acquire up to cards equal to acquisitions per turn", "lower than capable crew");
        ``{rounds}`` in reference.yaml's text is the same value."""
        if not self.unworded_params:
            return node
        return _substitute(node, self.unworded_params, kind="param")

    def expr(self, e: dict[str, Any], as_statement: bool = False) -> Text:
        e = self.valued(e)
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
            if as_statement:
                return [f"roll {count} {dice}{sides}"]
            if kind == "roll":
                # A roll inside a sentence is a noun: "gain prestige equal to a die roll" (was
                # "equal to roll a die"), "if a roll of two dice is more than 7".
                if e["count"] == 1:
                    return [f"a die roll{sides}" if not sides else f"a roll of a die{sides}"]
                return [f"a roll of {count} {dice}{sides}"]
            return [f"{count} {dice}{sides}"]
        if kind == "local":
            if (e["name"] in self.roll_vars and e["name"] not in self.ref.words) or self._is_roll(
                e["name"]
            ):
                return ["the result"]
            if _is_missing(e):
                return ["the amount you cannot pay"]
            return self.local(e["name"])
        if kind in ("event", "quantity", "counter", "param", "symbol", "ref"):
            name = e["name"]
            if kind == "counter" and name not in self.ref.words:
                return ["your ", *self.named(name)]
            words = self.named(name)
            first = plain_words(words).split(" ", 1)[0].lower()
            if kind == "counter" and first not in ("the", "your", "a", "an", "each"):
                # A count a player holds, as a value: "your Treasure tokens", "your Money".
                return ["your ", *_number_of(words, 2)]
            return words
        if kind == "builtin":
            builtin = {"self": "this card", "round": "the round", "player": "you"}
            return [builtin.get(e["name"], self.word(e["name"]))]
        if kind == "card":
            return self.named(e["id"])
        if kind == "binary":
            right = e["right"]
            if e["op"] == "*" and right["kind"] in ("counter", "quantity"):
                each = _number_of(_strip_owner(self.named(right["name"])), 1)
                return [*self.expr(e["left"]), " for each ", *each]
            left_words = self.operand(e["left"], e["op"])
            right_words = self.operand(right, e["op"], right=True)
            # A compound left operand ends before a comma: "the difference between A and the
            # remainder of B divided by 3, divided by 3", not "... divided by 3 divided by 3".
            by = ", divided by " if e["left"]["kind"] == "binary" else " divided by "
            if e["op"] == "%":
                return ["the remainder of ", *left_words, by, *right_words]
            if e["op"] == "/":
                # Whole numbers on a board: the division rounds down (emit_python).
                return [*left_words, by, *right_words, " (rounded down)"]
            return [*left_words, f" {_BINARY[e['op']]} ", *right_words]
        if kind == "compare":
            return self.compare(e)
        if kind == "logic":
            left, right = e["left"], e["right"]
            # "the region is Oceania or South America", not "... or the region is South America".
            if (
                e["op"] == "or"
                and left["kind"] == right["kind"] == "compare"
                and left["op"] == right["op"] == "=="
                and left["left"] == right["left"]
            ):
                return [*self.compare(left), " or ", *self.expr(right["right"])]
            if e["op"] == "and":
                # "A and (B or C)": "A and either B or C", not "A and B or C".
                return [*self.either(left), " and ", *self.either(right)]
            return [*self.expr(left), f" {e['op']} ", *self.expr(right)]
        if kind == "not":
            return self.negated(e["operand"])
        if kind == "call":
            return self.call(e)
        if kind == "verb_test":
            return ["you ", *self.verb({**e, "say": e["verb"]})]
        if kind == "list":
            if e.get("of_kind"):
                # `for each site in campsite`: "each Campsite", not every card's title.
                return ["every ", *_strip_article([self.word(e["of_kind"])])]
            items = [self.expr(i) for i in e["items"]]
            if len(items) > 1 and all(i.get("kind") == "num" for i in e["items"]):
                # Numbers together are a position ("hex_distance(placed, [0, 0])"): "the steps
                # between the placed tile and (0, 0)", not "... and 0 and 0".
                return ["(", *_join(items, ", "), ")"]
            if len(items) > 1:
                # "Europe, Africa and India", as a rulebook lists them.
                return _join(items[:-1], ", ") + [" and "] + items[-1]
            return _join(items, ", ")
        if kind == "range":
            return [*self.expr(e["low"]), " to ", *self.expr(e["high"])]
        if kind == "zone_cards":
            # `choose picked in hand`: "the cards in your hand".
            return ["the cards in ", *self.named(e["zone"])]
        if kind == "attr":
            if e.get("tag"):
                # "place.discovery", a tag of the card: "the place is a Discovery Spot", in the
                # words reference.yaml's ``tags`` gives ("space discovery", else "discovery");
                # without them, "a discovery space" (it was "the place's discovery").
                value = e["value"]
                of = (
                    self._event_kind(value["name"])
                    if value["kind"] == "event"
                    else self.loop_kinds.get(value.get("name", ""))
                    if value["kind"] == "local"
                    else None
                )
                tag = e["attr"]
                said = self.ref.tags.get(f"{of} {tag}") if of else None
                if said is None:
                    said = self.ref.tags.get(tag)
                if said is None:
                    phrase = tag.replace("_", " ") + (f" {of.replace('_', ' ')}" if of else "")
                    said = with_article(phrase)
                return [*self.expr(value), f" is {said}"]
            owner = self.expr(e["value"])
            if e.get("type") == "bool":
                # A yes/no property as a condition: "the tile has a City" (it read "if the
                # tile's City, ...").
                return [*owner, " has ", with_article(self.word(e["attr"]))]
            if owner == ["it"]:
                # The item a loop or a choice names "it": "its worth", never "it's worth".
                return ["its ", self.word(e["attr"])]
            return [*owner, "'s ", self.word(e["attr"])]
        return [kind]

    def _event_kind(self, name: str) -> str | None:
        """The kind of card a trigger's parameter ``name`` is (``param place space``)."""
        for trigger in self.vocab["triggers"].values():
            kind = (trigger.get("param_kinds") or {}).get(name)
            if kind:
                return str(kind)
        return None

    def local(self, name: str) -> Text:
        """A value the rule named with ``let``: "the total" (its words, with "the")."""
        if name in self.player_vars and name not in self.ref.words:
            return ["that player"]
        if name in self.item_vars:
            return ["it"]
        if name in self.kind_vars:
            return ["the ", self.kind_vars[name]]
        words = self.named(name)
        first = plain_words(words).split(" ", 1)[0].lower()
        return words if first in ("the", "a", "an", "your", "each") else ["the ", *words]

    def compare(self, e: dict[str, Any]) -> Text:
        """A comparison in words: "you have at least 2 Coins", "the round is a multiple of 3"."""
        left, right, op = e["left"], e["right"], e["op"]
        if left["kind"] in ("num", "bool") and right["kind"] not in ("num", "bool"):
            # "3 < coins" reads "you have more than 3 coins": the thing tested comes first.
            turned = {">": "<", "<": ">", ">=": "<=", "<=": ">=", "==": "==", "!=": "!="}
            left, right, op = right, left, turned[op]
        if right["kind"] == "none" and left["kind"] != "attr":
            # "top_card() == none": "there is no top card of the deck" / "there is a top card
            # of the deck", the value's words after their own article.
            value = _strip_article(self.expr(left))
            if op == "==":
                return ["there is no ", *value]
            return [f"there is {article(plain_words(value))} ", *value]
        if right["kind"] == "none":
            # "card.bonus == none": "the card has no bonus" / "the card has a bonus".
            phrase = self.word(left["attr"])
            # "a unique bonus", "an hour", as engine.words says them.
            said = "no " if op == "==" else f"{article(phrase)} "
            if op != "==" and _singular(phrase) != phrase:
                said = "some "
            return [*self.expr(left["value"]), " has ", said, phrase]
        if right["kind"] == "bool" and op in ("==", "!="):
            # "cooperative() == true" is the condition itself.
            holds = right["value"] == (op == "==")
            return self.expr(left) if holds else self.negated(left)
        if (
            left["kind"] == "call"
            and left["native"] == "roll"
            and len(left["args"]) == 1
            and left["args"][0].get("kind") == "dice"
        ):
            # The dice module's roll(1d6): the roll itself.
            left = left["args"][0]
        if left["kind"] in ("roll", "dice") and right["kind"] == "num":
            # "2d6 > 7": "you roll higher than 7 on two dice", "1d6 == 6": "you roll a 6", as a
            # player says a roll (it read "a roll of a die is 6").
            count, sides = left["count"], left["sides"]
            number = str(right["value"])
            how = {
                "==": f"{with_article(number)}",
                "!=": f"anything but {with_article(number)}",
                ">=": f"{number} or higher",
                ">": f"higher than {number}",
                "<=": f"{number} or lower",
                "<": f"lower than {number}",
            }[op]
            dice = "" if count == 1 else f" on {_NUMBER_WORDS.get(count, str(count))} dice"
            if sides != 6:
                dice += f" of {sides} sides" if dice else f" on a die of {sides} sides"
            return [f"you roll {how}{dice}"]
        if left == {"kind": "builtin", "name": "round"}:
            said_round = self.round_compared(op, right)
            if said_round is not None:
                return said_round
        if (
            left["kind"] == "binary"
            and left["op"] == "%"
            and left["left"] == {"kind": "builtin", "name": "round"}
            and left["right"] == {"kind": "num", "value": 2}
            and right["kind"] == "num"
            and right["value"] in (0, 1)
            and op in ("==", "!=")
        ):
            # "round % 2 == 0": "it is an even round", as a player counts them.
            even = (right["value"] == 0) == (op == "==")
            return [f"it is an {'even' if even else 'odd'} round"]
        if (
            left["kind"] == "binary"
            and left["op"] == "%"
            and right == {"kind": "num", "value": 0}
            and op in ("==", "!=")
        ):
            # "round % 3 == 0": every third round.
            verb = " is a multiple of " if op == "==" else " is not a multiple of "
            told = self.expr(left["left"])
            if left["left"]["kind"] == "call" and _plural_head(plain_words(told)):
                # "the turns taken so far are a multiple of 5" (it read "is").
                verb = " are" + verb[3:]
            return [*told, verb, *self.expr(left["right"])]
        counted = left["kind"] == "counter" and (
            left["name"] in self.ref.words or left["name"].endswith("s")
        )
        if counted and right["kind"] == "num":
            noun = self.named(left["name"])
            if plain_words(noun).split(" ", 1)[0].lower() not in ("the", "your", "a", "an"):
                # "you have at least 2 Coins", as a rulebook counts what a player holds.
                return ["you have ", *_how_many(op, right["value"], noun)]
        if left["kind"] == "attr" and right["kind"] == "num":
            things: Text = [self.word(left["attr"])]
            if _singular(plain_words(things)) != plain_words(things):
                # A card's number of things ("campsite.tent_sites == 1"): "the Campsite has
                # exactly 1 tent site", not "the Campsite's tent sites is 1".
                count = right["value"]
                return [*self.expr(left["value"]), " has ", *_how_many(op, count, things)]
        said = _COMPARE[op]
        if op == "==" and right["kind"] in ("counter", "quantity"):
            # Two amounts the same: "if your Armament equals the Pirate's Combat Power" ("is"
            # read as naming it).
            said = "equals"
        if counted and right["kind"] != "num":
            held = self.expr(left)
            last = plain_words(held).split(" ")[-1]
            if _singular(last) != last:
                # "the number of your Coins is at least the Coins a raid would take", not
                # "your Coins is at least ..." (a plural noun with 'is', refused by the lint).
                return ["the number of ", *held, f" {said} ", *self.expr(right)]
        if left["kind"] == "attr":
            word = plain_words([self.word(left["attr"])])
            if _singular(word) != word:
                # "its goods are groceries": a card's property named by a plural noun
                # ("spec.goods == groceries" printed "spec's goods is", which the lint refuses).
                said = _plural_verb(said)
        told = self.expr(left)
        if left["kind"] == "call" and _plural_head(plain_words(told)):
            # A native whose words name a plural: "the bonus points on the tiles in-between
            # are at least 4", "the free Tent sites of the site are 0" (both printed "is").
            said = _plural_verb(said)
        return [*told, f" {said} ", *self.expr(right)]

    def round_compared(self, op: str, right: dict[str, Any]) -> Text | None:
        """The round compared with ``right`` as a player says when a rule applies: "it is the
        last round" (the game's number of rounds: it read "the round is the number of
        rounds"), "it is round 7 or later", "it is after round 1", "it is before round 6"."""
        count = self.round_count
        last = right == count or (
            right["kind"] == "num"
            and count is not None
            and self.valued(count) == right
            and count["kind"] != "num"
        )
        if last and op in ("==", "!="):
            return ["it is the last round" if op == "==" else "it is not the last round"]
        if last and op == "<":
            return ["it is not the last round"]
        if op == ">" and right["kind"] == "num" and isinstance(right["value"], int):
            # "round > 1": "it is round 2 or later" (it read "the round is higher than 1").
            op, right = ">=", {**right, "value": right["value"] + 1}
        number = self.expr(right)
        said = {
            "==": ["it is round ", *number],
            "!=": ["it is not round ", *number],
            ">=": ["it is round ", *number, " or later"],
            ">": ["it is after round ", *number],
            "<=": ["it is round ", *number, " or earlier"],
            "<": ["it is before round ", *number],
        }
        return said.get(op)

    def operand(self, e: dict[str, Any], op: str, right: bool = False) -> Text:
        """An operand of an arithmetic operator in words; a sum or difference under a product,
        or on the right of a minus, said as one value ("2 times the sum of A and 1"), as the
        DSL's brackets group it."""
        inner = e.get("op") if e["kind"] == "binary" else None
        if inner in ("+", "-") and (op in ("*", "/", "%") or (op == "-" and right)):
            if inner == "+":
                return ["the sum of ", *self.expr(e["left"]), " and ", *self.expr(e["right"])]
            if op != "-":
                # "(A - B) / 3": "the difference between A and B, divided by 3"; "the result
                # of A minus B divided by 3" read as A minus a third of B.
                return [
                    "the difference between ",
                    *self.expr(e["left"]),
                    " and ",
                    *self.expr(e["right"]),
                ]
            return ["the result of ", *self.expr(e)]
        return self.expr(e)

    def either(self, e: dict[str, Any]) -> Text:
        """A condition joined by "and": an "or" of its own as "either A or B"."""
        if e["kind"] == "logic" and e["op"] == "or":
            return ["either ", *self.expr(e)]
        return self.expr(e)

    def negated(self, e: dict[str, Any]) -> Text:
        """``not E`` in words: the comparison turned round, "you do not play Lime Juice", an
        auxiliary's "not" ("a ship has not sunk"), else "it is not so that ..."."""
        kind = e["kind"]
        if kind == "compare":
            flipped = {">": "<=", "<": ">=", ">=": "<", "<=": ">", "==": "!=", "!=": "=="}
            return self.compare({**e, "op": flipped[e["op"]]})
        if kind == "not":
            return self.expr(e["operand"])
        if kind == "attr" and e.get("type") == "bool" and not e.get("tag"):
            # "not special.city": "the tile has no City".
            return [*self.expr(e["value"]), " has no ", self.word(e["attr"])]
        words = self.expr(e)
        said = f" {plain_words(words).lower()} "
        if " no " in said or " none " in said or " not " in said:
            return ["it is not so that ", *words]
        if kind == "verb_test":
            return ["you do not ", *words[1:]]
        first = words[0] if words and isinstance(words[0], str) else ""
        if first.startswith("you ") and not _AUXILIARY.match(first[4:]):
            # "you do not play the Land side", not "it is not so that you play the Land side
            # and ...", which reads as the whole condition negated.
            return ["you do not " + first[4:], *words[1:]]
        if (
            isinstance(first, str)
            and re.match(r"a [a-z]+ (?:has|is|was|can) ", first)
            and len(words) == 1
        ):
            # "no player has defeated both Encounters", "no ship has sunk" (it read "a player
            # has not defeated ...", as if of one player alone).
            return ["no " + first[2:]]
        if kind == "logic":
            # De Morgan: "neither ... nor" reads wrong for long clauses; say both sides.
            op = "or" if e["op"] == "and" else "and"
            return [*self.negated(e["left"]), f" {op} ", *self.negated(e["right"])]
        for index, seg in enumerate(words):
            if not isinstance(seg, str):
                continue
            match = _AUXILIARY.search(seg)
            if match:
                return [
                    *words[:index],
                    seg[: match.end()] + " not" + seg[match.end() :],
                    *words[index + 1 :],
                ]
        return ["it is not so that ", *words]

    def _is_roll(self, local: str) -> bool:
        for block in self.card.get("triggers", {}).values():
            for s in block["body"]:
                if s["kind"] == "let" and s["name"] == local and s["value"]["kind"] == "roll":
                    return True
        return False

    def call(self, e: dict[str, Any]) -> Text:
        name = e["native"]
        lead: Text = [IconRef(name), " "] if name in self.ref.icons else []
        # A native whose words depend on what it is asked of, as a verb's phrase does ("verb
        # target"): Land vs Sea's ships(placed) counts the route the placed tile is part of,
        # and "1 point per ship icon in the placed tile" said another thing.
        only = e["args"][0] if len(e["args"]) == 1 else None
        named = only.get("name") if isinstance(only, dict) else None
        phrase = self.ref.phrases.get(f"{name} {named}") if named else None
        if phrase is not None:
            return [*lead, phrase]
        args = [self.expr(a) for a in e["args"]]
        if name in self.ref.words and _BRACED.search(self.ref.words[name]):
            params = self.vocab["natives"].get(name, {}).get("params") or []
            return [*lead, *self.templated(self.ref.words[name], params, e["args"])]
        if name in self.ref.words:
            words = self.ref.words[name]
            # An argument the words already name is not said twice ("the placed tile is the
            # first to connect to the trade route", not "... to the placed tile and ...").
            args = [a for a in args if f" {plain_words(a)} " not in f" {words} "]
            if args and words.split()[-1] in _PREPOSITIONS:
                return [*lead, words, " ", *_join(args, " and ")]
            return [*lead, words]
        said = self.library_words(name, self.vocab["natives"].get(name), e["args"])
        if said is not None:
            return [*lead, *said]
        doc = yours(self.vocab["natives"].get(name, {}).get("doc", name))
        if (
            name in ("min", "max")
            and len(args) == 2
            and all(a.get("kind") == "num" for a in e["args"])
        ):
            # Numbers alone when a verb's call wrote its values in (a house rule's ship_damage
            # of max(amount - 1, 0), called as 'ship_damage 3': max(2, 0)): that number.
            values = [a["value"] for a in e["args"]]
            picked = min(values) if name == "min" else max(values)
            return args[values.index(picked)]
        if name == "max" and len(args) == 2 and {"kind": "num", "value": 0} in e["args"]:
            other = next((a for a in e["args"] if a != {"kind": "num", "value": 0}), None)
            if other is None:
                return args[0]
            if other.get("kind") == "binary" and other.get("op") == "-":
                # "max(result - 2, 0)": "the amount by which the result exceeds 2", as a
                # rulebook says a shortfall (it read "the larger of the result minus 2 and 0").
                return [
                    "the amount by which ",
                    *self.expr(other["left"]),
                    " exceeds ",
                    *self.operand(other["right"], "-", right=True),
                ]
        if name in ("min", "max") and len(args) == 2:
            return [f"the {'smaller' if name == 'min' else 'larger'} of ", *_join(args, " and ")]
        if name == "count" and args and e["args"][0].get("kind") not in ("ref", "local"):
            # A list counted (count(trade_routes())): "the number of every trade route ...".
            return ["the number of ", *args[0]]
        if name == "count" and args:
            words = plain_words(args[0])
            first = words.split(" ", 1)[0].lower()
            if first in ("your", "the", "a", "an", "their"):
                if _singular(words.rsplit(" ", 1)[-1].lower()) in _PLACES:
                    return ["the number of cards in ", *args[0]]
                # A zone named as the cards it holds: "the number of your defeated
                # Encounters", not "the number of cards in your defeated Encounters".
                return ["the number of ", *args[0]]
            # A zone named as its cards: "the number of your Port Cards".
            return ["the number of your ", *args[0]]
        if len(args) == 1 and " your track" in doc:
            # The counters module's "How many boxes of the player's track are marked.":
            # "the number of boxes of the Ship Durability track that are marked", the track
            # named in its place (it printed "if How many boxes of your track are marked.
            # (the Ship Durability track) is at least 3").
            text = doc.rstrip(".")
            if text.lower().startswith("how many ") and " are " in text:
                noun, state = text[len("how many ") :].split(" are ", 1)
                text = f"the number of {noun} that are {state}"
            elif text.lower().startswith("true when "):
                text = text[len("true when ") :]
            before, after = text.split("your track", 1)
            return [*lead, before, *args[0], after]
        if len(args) == 1 and "a player's " in doc and e["args"][0]["kind"] in ("local", "builtin"):
            # "seat(rival)": "that player's seat number", the player put in the description.
            before, after = doc.split("a player's ", 1)
            return [*lead, before, *args[0], "'s ", after]
        params = self.vocab["natives"].get(name, {}).get("params") or []
        said, rest = self.placed(doc, params, e["args"])
        return [*lead, *_bracketed(said, [self.expr(a) for a in rest])]


#: Words a trigger's description may start with that already say when ("when a card is
#: played", "at the end of the game"): the sentence starts with them, not with "When".
_WHEN_WORDS = (
    "when",
    "whenever",
    "after",
    "before",
    "at",
    "during",
    "in",
    "on",
    "once",
    "if",
    "each",
    "every",
    "upon",
    "as",
    "while",
    "immediately",
)


def _when(doc: str) -> str:
    """A trigger's description as the start of a sentence: "When a card is played," (never
    "When when ...", nor "When the end of the game" for "the end of the game")."""
    text = doc.strip().rstrip(",.")
    first = text.split(" ", 1)[0].lower()
    if first in _WHEN_WORDS:
        return text[0].upper() + text[1:] + ","
    if text.lower().startswith(("end of", "start of", "beginning of")):
        return f"At the {text},"
    if first in ("the", "end", "start", "beginning") and not _is_clause(text):
        return f"At {text},"
    return f"When {text},"


#: Words after which a word ending in "s" is a noun, not a verb ("the end of rounds").
_BEFORE_NOUN = frozenset(
    "of the a an for with to in on at by from each every all your their its his her".split()
)
#: Verbs a clause's subject may take whatever their ending ("the rewards are gained").
_CLAUSE_VERBS = frozenset("is are was were has have gets get becomes become".split())


def _is_clause(text: str) -> bool:
    """Whether a description starting "the ..." says something happens ("the market opens",
    "the rewards are gained"), so it reads "When the market opens," not "At the market opens,",
    as a moment ("the end of the game", "the Pirate phase") does."""
    words = re.split(r"[,:;(]", text, maxsplit=1)[0].split()
    for at in range(2, len(words)):
        word = words[at].lower()
        if word in _CLAUSE_VERBS:
            return True
        verb_like = word.endswith("s") and not word.endswith(("ss", "'s", "’s"))
        if verb_like and words[at - 1].lower() not in _BEFORE_NOUN:
            return True
    return False


#: Words a noun phrase may start with that make it definite already ("the Health track").
_DETERMINERS = frozenset({"the", "your", "a", "an", "their", "each", "every"})
#: The first words of a clause that needs a comma after a lead like "Immediately".
_CLAUSE_WORDS = frozenset({"if", "unless", "for", "every", "choose", "repeat", "you"})
#: An auxiliary verb a negation goes after: "a ship has not sunk", "there is not".
_AUXILIARY = re.compile(r"\b(?:is|are|was|were|has|have|had|can|could|does|do|did|will|must)\b")


def _known(e: dict[str, Any]) -> Any:
    """An expression's value when the card itself fixes it (numbers and true/false, compared
    or joined: a DSL verb written out with the values a card gives it, ``reward 0, 0, 1``'s
    ``star_count > 0``); None when play decides it."""
    kind = e.get("kind")
    if kind in ("num", "bool"):
        return e["value"]
    if kind == "not":
        inner = _known(e["operand"])
        return None if inner is None else not inner
    if kind in ("compare", "logic"):
        left, right = _known(e["left"]), _known(e["right"])
        if left is None or right is None:
            return None
        op = e["op"]
        if op == "and":
            return bool(left and right)
        if op == "or":
            return bool(left or right)
        return {
            "<": left < right,
            "<=": left <= right,
            ">": left > right,
            ">=": left >= right,
            "==": left == right,
            "!=": left != right,
        }[op]
    return None


#: A parameter's name in a description, as a word of its own and not after a determiner ("an
#: area", "which way" are the description's nouns): ``_NAMED.format(name)``.
_NAMED = (
    r"(?<![A-Za-z_'-])"
    + "".join(
        rf"(?<!\b{word} )"
        for word in "a an the which what this that each every its their your one any no".split()
    )
    + r"{}(?![A-Za-z_'-])"
)
#: The same name after an article or "that" ("an area", "that hole"), with it.
_NAMED_AFTER = r"(?<![A-Za-z_'-])(?:an?|the|that|this) {}(?![A-Za-z_'-])"


def _bracketed(said: Text, shown: list[Text]) -> Text:
    """``said`` with values in brackets after it: inside its own closing bracket when it ends
    with one ("(its Upon Facing text said so; the Heroism difficulty, ...)"), not a second pair
    beside it."""
    if not shown:
        return said
    tail = said[-1] if said else None
    if isinstance(tail, str) and tail.rstrip().endswith(")"):
        return [*said[:-1], tail.rstrip()[:-1], "; ", *_join(shown, ", "), ")"]
    return [*said, " (", *_join(shown, ", "), ")"]


def _played_as_fixed(body: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The statements as a card with fixed values plays them: an ``if`` whose condition the
    card fixes is its branch ("if 0 is higher than 0, gain 0 prestige" is nothing), a
    ``repeat`` of a fixed 0 is nothing and of 1 is its body ("gain one Port Card once")."""
    out: list[dict[str, Any]] = []
    for stmt in body:
        kind = stmt["kind"]
        if kind == "if":
            known = _known(stmt["cond"]) if isinstance(stmt.get("cond"), dict) else None
            if known is not None:
                out += _played_as_fixed(stmt["then"] if known else (stmt.get("else") or []))
                continue
        if kind == "repeat" and stmt["count"].get("kind") == "num":
            if stmt["count"]["value"] == 0:
                continue
            if stmt["count"]["value"] == 1:
                out += _played_as_fixed(stmt["body"])
                continue
        out.append(stmt)
    return out


def _compound(stmt: dict[str, Any]) -> bool:
    """A statement with its own clause (a condition, loop, choice, "may", a pay with what
    happens if it cannot be paid), which other steps must not run into."""
    if stmt["kind"] in ("if", "for_each", "choose", "choose_from", "may", "repeat"):
        return True
    if stmt["kind"] == "window":
        return bool(stmt["body"])
    if stmt["kind"] == "group":
        return any(_compound(s) for s in stmt["body"])
    return stmt["kind"] == "verb" and bool(stmt.get("else"))


def _substitute(node: Any, bound: dict[str, Any], kind: str = "local") -> Any:
    """``node`` (IR) with each of ``bound``'s names (a ``local``, or of ``kind``) replaced by
    its value."""
    if isinstance(node, dict):
        if node.get("kind") == kind and node.get("name") in bound:
            return bound[node["name"]]
        return _folded({k: _substitute(v, bound, kind) for k, v in node.items()})
    if isinstance(node, list):
        return [_substitute(v, bound, kind) for v in node]
    return node


#: Arithmetic on two whole numbers, as the generated code does it ('/' rounds down).
_FOLD = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else None,
    "%": lambda a, b: a % b if b else None,
}


def _folded(node: dict[str, Any]) -> dict[str, Any]:
    """``node``, or the number it comes to when a verb's values made it arithmetic on two
    numbers: ``bet 1`` of ``gain coins stake * 2`` reads "gain 2 coins", not "1 times 2"."""
    if node.get("kind") != "binary":
        return node
    left, right, fold = node.get("left"), node.get("right"), _FOLD.get(node.get("op", ""))
    if (
        fold is None
        or not isinstance(left, dict)
        or not isinstance(right, dict)
        or left.get("kind") != "num"
        or right.get("kind") != "num"
        or not isinstance(left.get("value"), int)
        or not isinstance(right.get("value"), int)
    ):
        return node
    value = fold(left["value"], right["value"])
    return node if value is None else {**left, "value": value}


def _mentions_missing(node: Any) -> bool:
    """Whether a verb's ``else`` reads ``missing`` anywhere (its amount goes with the shortfall)."""
    if _is_missing(node):
        return True
    if isinstance(node, dict):
        return any(_mentions_missing(value) for value in node.values())
    if isinstance(node, list):
        return any(_mentions_missing(value) for value in node)
    return False


def _is_missing(expr: Any) -> bool:
    """The shortfall a verb's ``else`` is given (``missing``)."""
    return isinstance(expr, dict) and expr.get("kind") == "local" and expr.get("name") == "missing"


#: A shortfall said of another player, before the step it costs them: "for each Coin they
#: cannot pay, " or "if they cannot, ".
_THEY_CANNOT = re.compile(r"(\bthey cannot(?: [a-z]+)?, )(?!they )(?=[a-z]|$)")

#: "you" said of the player a clause is about, and the same said of another player.
_THIRD_PERSON = (
    ("you have ", "they have "),
    ("you are ", "they are "),
    ("you do not ", "they do not "),
    ("your ", "their "),
    # Any other verb of theirs: "for whom you score" said "you" of another player.
    ("you ", "they "),
)


def _third_person(text: Text) -> Text:
    """A clause about the player a loop goes over ("you have no Treasure tokens") said of them
    ("they have no Treasure tokens"): "every player for whom ... you have" mixed the two."""
    out: Text = []
    for seg in text:
        if isinstance(seg, str):
            for mine, theirs in _THIRD_PERSON:
                seg = seg.replace(mine, theirs)
                if seg.startswith(mine.strip() + " ") or seg == mine.strip():
                    seg = theirs.strip() + seg[len(mine.strip()) :]
        out.append(seg)
    return out


#: A parameter named in braces in reference.yaml's words for a verb or native: "{amount}".
_BRACED = re.compile(r"\{([a-z_][a-z0-9_]*)\}")

#: Counts a list's words may give before its noun ("the six cells around ..."): a loop over
#: it is "for each cell around ...".
_COUNT_WORDS = frozenset("two three four five six seven eight nine ten".split())


def _each_in(item: str, listed: Text) -> Text | None:
    """A loop's head for ``item`` (its words) over the list said ``listed`` when the list is
    "the" items of that noun: "Ley line this placement forms" for "the Ley lines this
    placement forms", "cell around the placed tile" for "the six cells around the placed
    tile"; None when the list's words name no such noun (or hold an icon)."""
    if not listed or not all(isinstance(seg, str) for seg in listed):
        return None
    words = "".join(str(seg) for seg in listed).split()
    noun = item.split()[-1].lower() if item.split() else ""
    if len(words) < 2 or words[0].lower() != "the" or not noun:
        return None
    for index, word in enumerate(words[1:], start=1):
        one = _singular(word)
        if one.lower() == noun and one != word:
            before = [
                w for w in words[1:index] if not w.isdigit() and w.lower() not in _COUNT_WORDS
            ]
            return [" ".join([*before, one, *words[index + 1 :]])]
    return None


#: A clause about "they" (a player a loop goes over) and its verb: "they keep", "they do not".
_THEY_DO = re.compile(r"^they (\w+)\b")


def _who_does(text: Text) -> Text:
    """Clauses about "they" as said after "every player who": "they keep their side's points
    and they do not play the Land side" -> "keeps their side's points and does not play the
    Land side", the verb agreeing with the one player."""
    out: Text = []
    for index, seg in enumerate(_merged(text)):
        if isinstance(seg, str):
            if index == 0:
                seg = _THEY_DO.sub(lambda m: _third_singular(m.group(1)), seg, count=1)
            seg = re.sub(r" and they (\w+)\b", lambda m: " and " + _third_singular(m.group(1)), seg)
        out.append(seg)
    return out


def _plural_verb(said: str) -> str:
    """A comparison's verb said of a plural: "is at least" -> "are at least", "equals" ->
    "equal"."""
    if said == "equals":
        return "equal"
    return "are" + said[2:] if said.startswith("is") else said


def _merged(text: Text) -> Text:
    """``text`` with each run of words one segment ("the ", "Location", " has " -> "the
    Location has "), so a phrase across them can be found; icons and marks stay apart."""
    out: Text = []
    for seg in text:
        if isinstance(seg, str) and out and isinstance(out[-1], str):
            out[-1] = out[-1] + seg
        elif seg != "":
            out.append(seg)
    return out


def _third_singular(verb: str) -> str:
    """A verb said of "they" said of one player: "keep" -> "keeps", "have" -> "has"."""
    said = {"have": "has", "are": "is", "do": "does", "were": "was"}.get(verb)
    if said is not None:
        return said
    if verb.endswith("y") and verb[-2:-1] not in ("a", "e", "o", "u"):
        return verb[:-1] + "ies"
    return verb + ("es" if verb.endswith(("s", "sh", "ch", "x", "o")) else "s")


def _strip_owner(text: Text) -> Text:
    """ "your Armament" -> "Armament": a counter as the noun of an amount ("gain 1 Armament")."""
    out = list(text)
    for index, seg in enumerate(out):
        if isinstance(seg, str) and seg.strip():
            for owner in ("your ", "Your "):
                if seg.lstrip().startswith(owner):
                    out[index] = seg.lstrip()[len(owner) :]
            break
    return out


def _strip_article(text: Text) -> Text:
    """ "the area" -> "area": a loop's item after "for each"."""
    out = list(text)
    for index, seg in enumerate(out):
        if isinstance(seg, str) and seg.strip():
            for article in ("the ", "a ", "an ", "The "):
                if seg.lstrip().startswith(article):
                    out[index] = seg.lstrip()[len(article) :]
            break
    return out


def yours(doc: str) -> str:
    """A vocabulary description spoken to the player, as cards are: "the player's ship" ->
    "your ship", "the player has" -> "you have", and so of "the acting player" (or captain,
    or seat) a designer's description says: "the acting player scores" -> "you score", "as
    the player chooses" -> "as you choose" (a sheet addressed to "you" printed "the acting
    player scores the number of tiles in the area"). "the player count" and "the players'
    hands" are no player acting, and stay."""
    doc = _ACTING_OWNER.sub(lambda m: _capital_as(m.group(0), "your "), doc)
    return _ACTING_SUBJECT.sub(_you_do, doc)


#: "the player's", "the acting captain's": what a description says the player owns.
_ACTING_OWNER = re.compile(r"\b[Tt]he (?:acting )?(?:player|captain|seat)'s ")
#: "the acting player scores", "the player secretly bets", "the player may": the player as
#: the subject of a verb (an adverb in -ly may come between them).
_ACTING_SUBJECT = re.compile(
    r"\b([Tt]he (?:acting )?(?:player|captain)|[Tt]he acting seat) (?:(\w+ly) )?"
    r"(is|was|has|does|may|can|must|will|would|should|might|could|chose|did|had|"
    r"[a-z]+(?:ed|s))\b"
)
#: Verbs of the third person that are not the regular verb plus -s.
_YOU_FORMS = {"is": "are", "was": "were", "has": "have", "does": "do"}


def _you_do(match: re.Match[str]) -> str:
    """ "the acting player scores" -> "you score": the subject and its verb agreeing."""
    subject, adverb, verb = match.group(1), match.group(2), match.group(3)
    if verb in _YOU_FORMS:
        verb = _YOU_FORMS[verb]
    elif verb.endswith("ies") and len(verb) > 4:
        verb = verb[:-3] + "y"
    elif verb.endswith(("sses", "shes", "ches", "xes", "oes")):
        verb = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss"):
        verb = verb[:-1]
    you = "You" if subject[0] == "T" else "you"
    return f"{you} {adverb + ' ' if adverb else ''}{verb}"


def _capital_as(found: str, said: str) -> str:
    """``said`` with a capital when ``found`` started a sentence with one."""
    return said[:1].upper() + said[1:] if found[:1].isupper() else said


#: Words that end a noun phrase after a count: "{n} additional space from ...".
_NOUN_ENDS = frozenset(
    "of in on to from at for by per with without as than and or if when up into onto "
    "along across around over through toward towards past beside "
    "each this that your their its".split()
)


def _noun_after(text: str) -> tuple[str, str]:
    """The noun phrase at the start of ``text`` (" additional space", up to a preposition or
    punctuation) and what follows it; ``("", text)`` when it starts with none."""
    match = re.match(r"(\s+[A-Za-z][A-Za-z'-]*)+", text)
    if not match:
        return "", text
    words = match.group(0).split()
    kept = []
    for word in words:
        if word.lower() in _NOUN_ENDS:
            break
        kept.append(word)
    if not kept:
        return "", text
    phrase = re.match(r"\s+" + r"\s+".join(re.escape(w) for w in kept), text)
    assert phrase is not None
    return phrase.group(0), text[phrase.end() :]


def plain_words(text: Text) -> str:
    """The words of ``text`` (icons and marks left out)."""
    return "".join(s for s in text if isinstance(s, str)).strip()


def _how_many(op: str, count: Any, noun: Text) -> Text:
    """What follows "you have" (or "the Campsite has") for ``noun`` compared by ``op`` with
    ``count``: "at least 2 Coins", "no Coins", "exactly 1 tent site"."""
    if op == "==" and count == 0:
        return ["no ", *_number_of(noun, 2)]
    if (op == "!=" or op == ">") and count == 0:
        return ["any ", *_number_of(noun, 2)]
    how = {
        ">": "more than ",
        "<": "less than ",
        ">=": "at least ",
        "<=": "at most ",
        "==": "exactly ",
        "!=": "other than ",
    }[op]
    return [how, str(count), " ", *_number_of(noun, count)]


def _plural_head(words: str) -> bool:
    """Whether a phrase's head noun (its last word before a preposition) is a plural: "the
    bonus points on the tiles" (points), not "1 point per caravan icon in the route" (icon),
    "the Ocean Region of the Pirate Ship" (Region) or "the bonus" (a singular in -s)."""
    head = words
    for preposition in _PREPOSITIONS:
        head = head.split(f" {preposition} ", 1)[0]
    # A noun phrase also ends before what describes it after the noun: a participle ("the
    # tiles left in the stacks", "the turns taken so far", "the spaces marked") or a clause
    # of its own ("the holes the placement made"); each read "is".
    kept: list[str] = []
    for index, word in enumerate(head.split(" ")):
        low = word.lower()
        if index and (low in _AFTER_NOUN or low in ("the", "a", "an", "your", "their")):
            break
        if index > 1 and low.endswith("ed") and not kept[-1].lower().endswith("ed"):
            break
        kept.append(word)
    last = kept[-1] if kept else ""
    return _singular(last) != last and last.lower() not in _NOT_PLURAL


#: Words that end a noun phrase's head: a participle or adverb after the noun ("left",
#: "taken", "so far", "per player").
_AFTER_NOUN = frozenset("left taken made held given won lost per so that which who still".split())


#: Nouns of a place cards are kept in ("your hand", "your Crew cabins"): a zone named so is
#: counted as "the number of cards in" it.
_PLACES = frozenset(
    "hand deck pile cabin board market supply display box area tableau row column bag "
    "reserve stack tray slot space".split()
)

#: Words in -s that are no plural noun (``_singular`` already keeps -ss, -us and -is).
_NOT_PLURAL = frozenset("its has was does always less plus minus perhaps thus yes news".split())


def _plural(words: str) -> str:
    """ "victory point" -> "victory points", "Coin" -> "Coins"; a mass noun ("Money",
    "prestige", "Scurvy") has no plural and stays."""
    last = words.split(" ")[-1] if words else ""
    if not last or last.endswith("s") or last.lower() in _MASS_NOUNS or not last[0].isalpha():
        return words
    if last.endswith(("x", "ch", "sh")):
        return words + "es"
    if last.endswith("y") and len(last) > 1 and last[-2].lower() not in "aeiou":
        return words[:-1] + "ies"
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
            # The head noun is before a phrase's tail: "worker(s) on their personal board".
            head, tail = _HEAD_TAIL.match(seg).groups()  # type: ignore[union-attr]
            out[index] = (_singular(head) if count == 1 else _plural(head)) + tail
            break
    return out


#: A noun phrase's head and its tail from the first preposition ("workers| on their board").
_HEAD_TAIL = re.compile(r"(.*?)((?: (?:on|of|in|at|from|to|for|with|near|under) .*)?)$", re.S)


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
