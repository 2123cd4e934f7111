"""Check a game's cards against its vocabulary and lower them to IR, in one walk.

Checking and lowering share a walk over the AST on purpose: resolving a name *is* deciding
what it lowers to (a counter read, a trigger quantity, a symbol), and one pass keeps 10,000
cards within budget. Every IR node the walk produces has its source span recorded in
``spans`` (IR path -> span), so a later schema error is reported at the DSL text it came from.

Diagnostics have stable codes (``name-undefined``, ``property-unknown``, ``arity`` ...), a span
and a "did you mean" where one helps.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from os.path import commonprefix
from typing import Any

from compiler.suggest import (
    did_you_mean,
    duplicate_hint,
    named_in_docs,
    sharing_a_word,
    with_described,
)
from compiler.vocabulary import (
    UNIVERSAL_PROPERTIES,
    KindDecl,
    PropertyDecl,
    Signature,
    TriggerDecl,
    Vocabulary,
)
from dsl.diagnostics import Diagnostic
from dsl.names import card_id
from dsl.nodes import (
    Annotation,
    Attribute,
    BinaryOp,
    Boolean,
    BoolOp,
    Call,
    ChooseFrom,
    ChooseOne,
    Command,
    Compare,
    Declaration,
    Dice,
    ForEach,
    FunctionDef,
    Group,
    If,
    ListLiteral,
    May,
    Name,
    Not,
    Number,
    OrderKey,
    Percent,
    Property,
    Range,
    Repeat,
    SourceFile,
    Span,
    String,
    Trigger,
    Unless,
    Window,
)
from engine.budget import WORK_BUDGET
from engine.words import with_article

IR = dict[str, Any]

#: The ``card`` of the scope a flow's phases are checked in (no card id can be empty).
FLOW_SCOPE = ""


@dataclass
class _Scope:
    """What names mean inside one trigger body."""

    card: str
    trigger: TriggerDecl | None
    locals: dict[str, str] = field(default_factory=dict)
    #: Inside ``fire TRIGGER with ... { ... }``: each quantity of the window opened, by name,
    #: and the trigger it belongs to (the innermost window's, when two are nested).
    windows: dict[str, str] = field(default_factory=dict)
    #: The kind of card a local names, when the checker knows it (``for each site in
    #: campsite``: ``site`` is a campsite, so ``site.space`` is checked against its kind).
    card_kinds: dict[str, str] = field(default_factory=dict)

    def child(self, **extra: str) -> _Scope:
        scope = _Scope(
            self.card, self.trigger, dict(self.locals), self.windows, dict(self.card_kinds)
        )
        scope.locals.update(extra)
        for name in extra:
            scope.card_kinds.pop(name, None)
        return scope


@dataclass
class CheckedGame:
    """The IR of one game, the span of every IR node, and what the walk found."""

    ir: IR
    spans: dict[str, Span]
    diagnostics: list[Diagnostic]


class Checker:
    """Resolves and lowers the cards of one game."""

    def flow_scope(self) -> _Scope:
        """A fresh scope for a flow's phases (compiler.flow), made here so that compiler.flow
        needs no import of this module (the import graph stays acyclic)."""
        return _Scope(FLOW_SCOPE, None)

    def __init__(self, vocab: Vocabulary, diagnostics: list[Diagnostic]):
        self.vocab = vocab
        self.diagnostics = diagnostics
        self.spans: dict[str, Span] = {}
        self.cards: dict[str, Declaration] = {}
        #: each card's tags, by id (what a property declared ``{ names space port }`` needs).
        self.card_tags: dict[str, list[str]] = {}
        self.provisional: list[IR] = list(vocab.provisional)
        self.events = set(vocab.triggers) | set(vocab.box_triggers)

    # -- diagnostics

    def error(self, code: str, message: str, span: Span, *hints: str) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, "error", hints))

    def note_span(self, path: str, span: Span) -> None:
        self.spans[path] = span

    # -- the game

    def check(self, declarations: list[Declaration], definitions: list[Any] | None = None) -> IR:
        """Lower every card declaration (``declarations`` excludes the ``game`` one) and every
        DSL verb and function definition whose signature :func:`definitions.register` took."""
        pending: list[tuple[Declaration, str, str, list[str]]] = []
        for decl in declarations:
            head = self.head(decl)
            if head is None:
                continue
            ident, title, tags = head
            first = self.cards.get(ident)
            if first is not None:
                self.error(
                    "duplicate-card",
                    f"a card with the id '{ident}' is already declared at {first.span}",
                    decl.span,
                    duplicate_hint(ident, first.span, decl.span),
                )
                continue
            self.cards[ident] = decl
            self.card_tags[ident] = tags
            pending.append((decl, ident, title, tags))
        # Definitions after the cards' names are known (a verb may name a card), before the
        # cards' bodies, which the call graph does not need.
        from compiler.definitions import lower

        lowered = lower(self, list(definitions)) if definitions else None
        cards = []
        for index, (decl, ident, title, tags) in enumerate(pending):
            cards.append(self.card(decl, ident, title, tags, f"/cards/{index}"))
        out: IR = {"cards": cards, "provisional": self.provisional}
        if lowered is not None:
            out["definitions"] = lowered
        return out

    def definition(self, definition: Any, path: str) -> IR:
        """Check and lower one DSL verb's or function's body, its parameters in scope."""
        is_function = isinstance(definition, FunctionDef)
        what = "function" if is_function else "verb"
        locals_: dict[str, str] = {}
        for param in definition.params:
            self.shadowing(param.name, _Scope("", None), param.span, "this parameter")
            locals_[param.name] = param.type
        scope = _Scope(definition.name, None, locals_)
        span = definition.span
        # Statements record their provisional notes on the card they belong to: here, this.
        title = f"{what} {definition.name}"
        holder: IR = {"id": definition.name, "title": title, "provisional": []}
        self.annotations(
            definition.annotations, holder, what, holder["title"], span, definition.name
        )
        out: IR = {
            "name": definition.name,
            "params": [_param_ir(p) for p in definition.params],
            "source": f"{span.file}:{span.line}",
            "at": [span.line, span.column],
        }
        if is_function:
            expr, typ = self.expr(definition.body, scope)
            self.expect_type(
                typ, definition.returns, definition.body.span, f"the function '{definition.name}'"
            )
            out["returns"] = definition.returns
            out["expr"] = expr
            self.note_span(f"{path}/expr", definition.body.span)
        else:
            out["body"] = self.block(definition.body, scope, f"{path}/body", holder)
        return out

    def head(self, decl: Declaration) -> tuple[str, str, list[str]] | None:
        """The id, title and tags of a declaration, or None when its kind is unknown."""
        kind = self.vocab.kinds.get(decl.kind)
        if kind is None:
            if decl.kind == "game":
                self.error(
                    "game-outside",
                    "a game is declared once, in its game.cards",
                    decl.span,
                    "move this declaration into game.cards",
                )
            else:
                self.error(
                    "kind-undefined",
                    f"'{decl.kind}' is not a kind of card this game declares",
                    decl.span,
                    *(
                        with_described(
                            did_you_mean(decl.kind, self.vocab.kinds),
                            decl.kind,
                            {k: d.doc for k, d in self.vocab.kinds.items()},
                        )
                        or _whole_last_word(decl.kind, self.vocab.kinds)
                    ),
                    "declare it in game.cards: kind " + decl.kind + ' "what it is" { ... }',
                )
            return None
        words = [expr for clause in decl.args for expr in clause]
        title = next((w.value for w in words if isinstance(w, String)), None)
        names = [w for w in words if isinstance(w, Name)]
        for other in words:
            if not isinstance(other, (String, Name)):
                self.error(
                    "bad-head",
                    "a card's head is its kind, tags and title",
                    other.span,
                    f'write: {decl.kind} "Title" {{ ... }}',
                )
        if title is None:
            if not names:
                self.error(
                    "missing-title",
                    f"this {decl.kind} needs a title",
                    decl.span,
                    f'write: {decl.kind} "Title" {{ ... }}',
                )
                return None
            ident_name = names.pop()
            title = ident_name.id.replace("_", " ").title()
            ident = ident_name.id
        else:
            ident = card_id(title)
        for member in decl.body:
            if isinstance(member, Property) and member.name == "id":
                value = member.args[0][0] if member.args and member.args[0] else None
                if isinstance(value, Name):
                    ident = value.id
        if not title.strip():
            # `card "" { }`: the IR's schema refused it as "a bug in cardc's lowering".
            string = next((w for w in words if isinstance(w, String)), None)
            self.error(
                "missing-title",
                f"this {decl.kind}'s title is empty",
                string.span if string is not None else decl.span,
                f'write: {decl.kind} "Title" {{ ... }}',
            )
            return None
        tags = []
        for name in names:
            if name.id not in kind.tags:
                hints = did_you_mean(name.id, kind.tags) or (
                    (f"{with_article(kind.name)} takes the tags: {', '.join(kind.tags)}",)
                    if kind.tags
                    else (f"{with_article(kind.name)} takes no tags",)
                )
                self.error(
                    "tag-unknown", f"'{name.id}' is not a tag of {kind.name}", name.span, *hints
                )
            else:
                tags.append(name.id)
        return ident, title, tags

    # -- one card

    def card(self, decl: Declaration, ident: str, title: str, tags: list[str], path: str) -> IR:
        kind = self.vocab.kinds[decl.kind]
        self.note_span(path, decl.span)
        out: IR = {
            "id": ident,
            "kind": decl.kind,
            "title": title,
            "tags": tags,
            "source": f"{decl.span.file}:{decl.span.line}",
            "properties": {},
            "formulas": {},
            "triggers": {},
            "provisional": [],
        }
        self.annotations(decl.annotations, out, "card", f"{decl.kind} {title}", decl.span)
        seen: dict[str, Span] = {}
        for member in decl.body:
            if isinstance(member, Trigger):
                self.trigger(member, ident, out, f"{path}/triggers/{member.event}")
                continue
            first = seen.get(member.name)
            if first is not None:
                self.error(
                    "duplicate-property",
                    f"'{member.name}' is already set at {first}",
                    member.span,
                    "keep one of them",
                )
                continue
            seen[member.name] = member.span
            self.property(member, kind, ident, out, path)
        unknown = [n for n in seen if n not in kind.properties and n not in UNIVERSAL_PROPERTIES]
        for name, prop in sorted(kind.properties.items()):
            # A misspelt key is reported once, as property-unknown with its 'did you mean'.
            misspelt = any(did_you_mean(u, [name]) for u in unknown)
            if not prop.optional and name not in seen and not misspelt:
                self.error(
                    "property-missing",
                    f"this {kind.name} has no '{name}' ({prop.type})",
                    decl.span,
                    f"add a line: {name} ...",
                )
        return out

    def annotations(
        self,
        notes: tuple[Annotation, ...],
        out: IR,
        what: str,
        label: str,
        span: Span,
        name: str = "",
    ) -> None:
        """Check ``notes`` (the annotations of one item) and record each ``@provisional`` on
        ``out`` and in the game's list: where, the card (or holder), ``label`` for people, and
        apart, what it marks (``kind``: card, property, trigger, statement, flow, section, setting,
        phase, verb, function) and the name of that item (``name``: a property, a trigger's
        event, a phase, a flow setting), so no reader parses ``label`` back."""
        kind, item = _note_kind(what, name)
        for note in notes:
            if note.name in ("label", "ask") and what == "statement":
                continue  # a question's name and words: read by question_name() and ask_of()
            if note.name != "provisional":
                self.error(
                    "annotation-unknown",
                    f"'@{note.name}' is not an annotation cardc knows",
                    note.span,
                    *did_you_mean(note.name, ["provisional", "label", "ask"]),
                )
                continue
            reason = _note_text(note)
            if not reason.strip():
                self.error(
                    "provisional-reason",
                    "say why this value is provisional",
                    note.span,
                    '@provisional("the rulebook does not print it") tells the next designer why',
                )
            out["provisional"].append(what)
            self.provisional.append(
                {
                    "at": f"{span.file}:{span.line}:{span.column}",
                    "card": out.get("id", ""),
                    "what": label,
                    "why": reason,
                    "kind": kind,
                    "name": item,
                }
            )

    def property(self, member: Property, kind: KindDecl, ident: str, out: IR, path: str) -> None:
        decl = kind.properties.get(member.name) or UNIVERSAL_PROPERTIES.get(member.name)
        if decl is None:
            known = list(kind.properties) + list(UNIVERSAL_PROPERTIES)
            self.error(
                "property-unknown",
                f"{with_article(kind.name)} has no property '{member.name}': nothing would read it",
                member.span,
                *(
                    did_you_mean(member.name, known)
                    or (f"{kind.name} properties: {', '.join(sorted(known))}",)
                ),
            )
            return
        if member.body is not None:
            self.error("property-block", f"'{member.name}' takes values, not a block", member.span)
        self.annotations(
            member.annotations, out, member.name, f"{out['title']}: {member.name}", member.span
        )
        words = [expr for clause in member.args for expr in clause]
        ppath = f"{path}/properties/{member.name}"
        self.note_span(ppath, member.span)
        if decl.type in ("condition", "formula"):
            if len(member.args) != 1 or len(member.args[0]) != 1:
                self.error("property-type", f"'{member.name}' is one expression", member.span)
                return
            scope = _Scope(ident, None)
            expr, typ = self.expr(member.args[0][0], scope)
            want = "bool" if decl.type == "condition" else "number"
            self.expect_type(typ, want, member.args[0][0].span, f"'{member.name}'")
            out["formulas"][member.name] = {
                "at": [member.span.line, member.span.column],
                "expr": expr,
            }
            self.note_span(f"{path}/formulas/{member.name}", member.span)
            return
        value = self.property_value(decl.type, member, words, decl, tuple(kind.properties))
        if member.name == "copies" and isinstance(value, (int, float)):
            self.check_copies(value, words[0].span)
        if value is not None and decl.clauses:
            self.check_clause_heads(decl, member, tuple(kind.properties))
        if value is not None:
            if member.name == "id":
                return
            out["properties"][member.name] = value

    def property_value(
        self,
        typ: str,
        member: Property,
        words: list[Any],
        decl: PropertyDecl | None = None,
        siblings: tuple[str, ...] = (),
    ) -> Any:
        named = decl.names if decl is not None else ()

        def data_name(word: Name, head: bool = False) -> bool:
            # A clause's head is read by the clause words (check_clause_heads), not 'names'.
            if named and not head:
                return self.resolve_named(word, f"'{member.name}'", named)
            if head and decl is not None and decl.clauses:
                return self.resolve_clause_head(word, member.name, decl.clauses, siblings)
            return self.resolve_data_name(word)

        def one() -> Any:
            if len(words) != 1:
                self.error(
                    "property-type",
                    f"'{member.name}' takes one {typ}",
                    member.span,
                    "write one value after the property's name; a list property takes several",
                )
                return None
            return words[0]

        if typ == "number":
            word = one()
            if word is None:
                return None
            if isinstance(word, Number):
                return word.value
            self.error(
                "property-type",
                f"'{member.name}' must be a number",
                word.span,
                f"write: {member.name} 2",
            )
        elif typ == "text":
            word = one()
            if word is None:
                return None
            if isinstance(word, String):
                return word.value
            self.error(
                "property-type",
                f"'{member.name}' must be a string",
                word.span,
                f'write: {member.name} "..."',
            )
        elif typ == "bool":
            word = one()
            if word is None:
                return None
            if isinstance(word, Boolean):
                return word.value
            self.error(
                "property-type",
                f"'{member.name}' must be true or false",
                word.span,
                f"write: {member.name} true",
            )
        elif typ == "name":
            word = one()
            if word is None:
                return None
            if isinstance(word, Name) and data_name(word):
                return word.id
            if not isinstance(word, Name):
                self.error(
                    "property-type",
                    f"'{member.name}' must be a name",
                    word.span,
                    f"write a declared symbol or card id, unquoted: {member.name} NAME",
                )
        else:  # list / any: clauses of names, numbers and strings
            clauses = []
            heads = bool(decl is not None and decl.clauses)
            for clause in member.args:
                items: list[Any] = []
                for index, word in enumerate(clause):
                    if named and not (heads and index == 0) and not isinstance(word, Name):
                        self.error(
                            "property-type",
                            f"'{member.name}' holds names, each {_sorts(named)}",
                            word.span,
                            f"write them with commas: {member.name} a_name, another_name",
                        )
                    elif isinstance(word, Number):
                        items.append(word.value)
                    elif isinstance(word, String):
                        items.append({"text": word.value})
                    elif isinstance(word, Name):
                        if data_name(word, heads and index == 0):
                            items.append(word.id)
                    elif isinstance(word, Boolean):
                        items.append(word.value)
                    else:
                        self.error(
                            "property-type",
                            f"'{member.name}' holds names, numbers and strings",
                            word.span,
                            f'write them with commas: {member.name} a_name, 2, "text"',
                        )
                clauses.append(items)
            return clauses
        return None

    def check_copies(self, value: int | float, span: Span) -> None:
        """``copies``: how many of the card the box holds (the deck ``build_deck`` makes), a
        whole number, 0 or more (0: none in the deck, as a variant may leave a card out). A
        negative count was taken as none and a fraction rounded down, silently."""
        if value < 0 or value != int(value):
            self.error(
                "copies-count",
                f"'copies' is how many of this card there are: a whole number, 0 or more, "
                f"not {value:g}",
                span,
                "write: copies 3 (copies 0 leaves the card out of the deck)",
            )

    def check_clause_heads(
        self, decl: PropertyDecl, member: Property, siblings: tuple[str, ...] = ()
    ) -> None:
        """Each clause of a property whose kind names its clauses (``property reward any {
        clauses stars, die, port_cards }``) begins with one of them: the game's Python reads
        the value by those words, so another declared name would check and fail at run time."""
        heads = ", ".join(decl.clauses)
        for clause in member.args:
            head = clause[0] if clause else None
            if isinstance(head, Name) and (
                head.id in decl.clauses or not self.declared_data_name(head.id)
            ):
                # An undeclared head is already an error of its own (name-undefined).
                continue
            said = head.id if isinstance(head, Name) else "this"
            self.error(
                "property-clause",
                f"'{said}' is not a clause of '{member.name}', which begins each with {heads}",
                head.span if head is not None else member.span,
                *_clause_hint(said, member.name, decl.clauses, siblings),
            )

    def resolve_clause_head(
        self, name: Name, prop: str, heads: tuple[str, ...], siblings: tuple[str, ...]
    ) -> bool:
        """A clause's first word, where the property names its clauses: an undeclared one is
        told the clauses it may begin with (Land vs Sea's ``face_a_icons waypoint`` was told
        "did you mean 'waypoints_each'", a parameter, and ``bonus 2`` a bonus token), and a
        word that is part of another property's name of the kind is pointed there
        (``face_a_icons bonus 2``: bonus points are ``face_a_bonus``)."""
        if self.declared_data_name(name.id):
            return True  # check_clause_heads says whether it is one of the clauses
        self.error(
            "property-clause",
            f"'{name.id}' is not a clause of '{prop}', which begins each with {', '.join(heads)}",
            name.span,
            *_clause_hint(name.id, prop, heads, siblings),
        )
        return False

    def declared_data_name(self, ident: str) -> bool:
        """Whether a property may name ``ident`` as data (declared somewhere)."""
        v = self.vocab
        return (
            ident in v.counters
            or ident in v.symbols
            or ident in v.zones
            or ident in v.tracks
            or ident in self.cards
            or ident in v.params
        )

    def resolve_data_name(self, name: Name) -> bool:
        """A name used as data in a property: it must be declared somewhere."""
        v = self.vocab
        if self.declared_data_name(name.id):
            return True
        pool = [*v.counters, *v.symbols, *v.zones, *v.tracks, *self.cards, *v.params]
        self.error(
            "name-undefined",
            f"'{name.id}' is not declared",
            name.span,
            *(
                did_you_mean(name.id, pool)
                or (f'declare it in game.cards, e.g. symbol {name.id} "what it is"',)
            ),
        )
        return False

    def card_sort(self, ident: str) -> tuple[str, tuple[str, ...]] | None:
        """The kind and tags of the card ``ident`` (None: no card), noted for the per-file
        cache (compiler.filecache): a check that read them depends on them."""
        card = self.cards.get(ident)
        if card is None:
            return None
        sort = (card.kind, tuple(self.card_tags.get(ident, ())))
        note = getattr(self.cards, "note_sort", None)
        if note is not None:
            note(ident, sort)
        return sort

    def names_fit(self, ident: str, named: tuple[tuple[str, str | None], ...]) -> bool:
        """Whether ``ident`` is one of the sorts ``named`` (kind and tag, or group) allows."""
        groups = self.vocab.symbol_groups
        if any(ident in groups.get(what, ()) for what, _tag in named):
            return True
        if all(what in groups for what, _tag in named):
            return False  # only groups: no card looked up, nothing for the cache to note
        sort = self.card_sort(ident)
        return sort is not None and any(
            sort[0] == what and (tag is None or tag in sort[1]) for what, tag in named
        )

    def resolve_named(
        self, name: Name, what: str, named: tuple[tuple[str, str | None], ...]
    ) -> bool:
        """A name a property (or a verb's parameter) declared ``{ names ... }`` holds: one of
        those sorts (a space tagged port, a region), with the names that are, for the hint.
        ``what`` says whose it is: "'to'", "the FIRST of 'lay_out_locations'"."""
        if self.names_fit(name.id, named):
            return True
        pool = [
            *(
                ident
                for ident in self.cards
                if any(
                    self.cards[ident].kind == what
                    and (tag is None or tag in self.card_tags.get(ident, ()))
                    for what, tag in named
                )
            ),
            *(n for what, _tag in named for n in self.vocab.symbol_groups.get(what, ())),
        ]
        pool = list(dict.fromkeys(pool))
        wanted = _sorts(named)
        if self.declared_data_name(name.id):
            self.error(
                "property-names",
                f"{what} names {wanted}; '{name.id}' is {self.sort_of(name.id)}",
                name.span,
                *(did_you_mean(name.id, pool) or (f"{wanted}: {_some(pool)}",)),
            )
        else:
            self.error(
                "name-undefined",
                f"'{name.id}' is not declared ({what} names {wanted})",
                name.span,
                *(did_you_mean(name.id, pool) or (f"{wanted}: {_some(pool)}",)),
            )
        return False

    def sort_of(self, ident: str) -> str:
        """What a declared name is, for a message: "a space tagged discovery", "a symbol"."""
        card = self.cards.get(ident)
        if card is not None:
            tags = self.card_tags.get(ident, [])
            return with_article(card.kind) + (f" tagged {' and '.join(tags)}" if tags else "")
        groups = [g for g, members in self.vocab.symbol_groups.items() if ident in members]
        if groups:
            return " and ".join(with_article(g) for g in groups)
        v = self.vocab
        for what, table in (
            ("a symbol", v.symbols),
            ("a counter", v.counters),
            ("a zone", v.zones),
            ("a track", v.tracks),
            ("a parameter", v.params),
        ):
            if ident in table:
                return what
        return "something else"

    # -- triggers and statements

    def _trigger_docs(self) -> dict[str, str]:
        """Each declared trigger's description, to find one by the rulebook's words."""
        return {name: t.doc for name, t in self.vocab.triggers.items()}

    def trigger(self, trig: Trigger, ident: str, out: IR, path: str) -> None:
        if trig.event not in self.events:
            self.error(
                "trigger-undefined",
                f"'{trig.event}' is not a trigger of this game",
                trig.span,
                *(
                    with_described(
                        did_you_mean(trig.event, self.events), trig.event, self._trigger_docs()
                    )
                    or named_in_docs(
                        trig.event, {t: d.doc for t, d in self.vocab.triggers.items() if d.doc}
                    )
                    or (f"triggers: {', '.join(sorted(self.events))}",)
                ),
            )
            return
        declared = self.vocab.triggers.get(trig.event)
        if declared is not None and declared.fires_for and out["kind"] not in declared.fires_for:
            kinds = ", ".join(declared.fires_for)
            self.diagnostics.append(
                Diagnostic(
                    "trigger-never-fires",
                    f"'on {trig.event}' on {with_article(out['kind'])} never runs: the game fires "
                    f"'{trig.event}' for {kinds} cards only",
                    trig.span,
                    "warning",
                    (
                        "move the effect to a trigger the game fires for this kind, or add "
                        f"'{out['kind']}' to the trigger's fires_for in game.cards if the flow "
                        "runs it",
                    ),
                )
            )
        if trig.event in out["triggers"]:
            first_line = out["triggers"][trig.event]["line"]
            self.error(
                "duplicate-trigger",
                f"this card already has an 'on {trig.event}' block, at line {first_line}",
                trig.span,
                "merge the two blocks",
            )
            return
        if trig.args:
            self.error(
                "trigger-args",
                f"'on {trig.event}' takes no words after the trigger",
                trig.args[0][0].span,
                "test conditions with 'if' inside the block",
            )
        self.annotations(
            trig.annotations, out, f"on {trig.event}", f"{out['title']}: on {trig.event}", trig.span
        )
        scope = _Scope(ident, self.vocab.triggers.get(trig.event))
        self.note_span(path, trig.span)
        body = self.block(trig.body, scope, f"{path}/body", out)
        out["triggers"][trig.event] = {"line": trig.span.line, "body": body}
        self.same_name_same_question(body, trig)

    def same_name_same_question(self, body: list[IR], trig: Any) -> None:
        """Two questions of one trigger may share a name only when they ask the same thing
        (``may move_pirate_ship`` in both branches of an ``if``): a scenario answers by name."""
        asked: dict[str, str] = {}

        def walk(stmts: list[IR]) -> None:
            for stmt in stmts:
                if stmt["kind"] in ("may", "choose", "choose_from"):
                    what = describe_stmt(stmt)  # the same question does the same thing
                    if asked.setdefault(stmt["name"], what) != what:
                        self.error(
                            "question-name",
                            f"two questions of 'on {trig.event}' are both named "
                            f"'{stmt['name']}' but ask different things",
                            Span(
                                trig.span.file,
                                stmt["at"][0],
                                stmt["at"][1],
                                stmt["at"][0],
                                stmt["at"][1],
                            ),
                            'name one of them: may { ... } @label("pay_for_the_repair")'
                            if stmt["kind"] != "choose_from"
                            else "name one of them: choose picked in hand { ... } "
                            '@label("trash_a_card")',
                        )
                for key in ("then", "else", "body"):
                    if isinstance(stmt.get(key), list):
                        walk(stmt[key])
                for option in stmt.get("options") or []:
                    walk(option)

        walk(body)

    def label_of(self, stmt: Any) -> str | None:
        """The ``@label("name")`` of a statement, checked to be a plain name."""
        found = _annotation(stmt, "label")
        if found is None:
            return None
        note, value = found
        if not re.fullmatch(r"[a-z][a-z0-9_]*", value):
            self.error(
                "label-name",
                "a @label is a name in lower_snake_case",
                note.span,
                '@label("move_the_pirate_ship") names the question in scenarios',
            )
            return None
        return value

    def ask_of(self, stmt: Any) -> str | None:
        """The ``@ask("words")`` of a ``may``: what the player is asked, in the game's words
        (``@ask("exhaust the Pilot to ignore the text of this Location")``)."""
        found = _annotation(stmt, "ask")
        if found is None:
            return None
        note, value = found
        if not value.strip():
            self.error(
                "ask-words",
                "an @ask gives the question's words as a string",
                note.span,
                '@ask("reduce the Pirate\'s Combat Power by up to 2") is asked as '
                "'Smoke Bomb: may reduce the Pirate's Combat Power by up to 2?'",
            )
            return None
        return " ".join(value.split())

    def plain_block(self, body: list[IR]) -> str:
        """Statements in plain words for a question: each step as the DSL says it with its
        names spelt out (``reduce pirate power up to 2, then discard this card``); a verb of
        the game's own taking nothing is said by its description."""
        return ", then ".join(self.plain_stmt(s) for s in body)

    def plain_stmt(self, stmt: IR) -> str:
        """One statement of :meth:`plain_block`."""
        kind = stmt["kind"]
        if kind == "verb":
            sig = self.vocab.verbs.get(stmt["verb"])
            if sig is not None and sig.origin != "prelude" and sig.doc and not any(stmt["args"]):
                said = str(sig.doc)
            else:
                said = plain_words(str(stmt["say"]))
            if stmt.get("else"):
                said += f"; otherwise {self.plain_block(stmt['else'])}"
            return said
        if kind == "if":
            cond = plain_words(describe_expr(stmt["cond"]))
            said = f"if {cond}, {self.plain_block(stmt['then'])}"
            if stmt.get("else"):
                said += f"; otherwise {self.plain_block(stmt['else'])}"
            return said
        if kind in ("may", "group"):
            return self.plain_block(stmt["body"])
        if kind == "repeat":
            times = plain_words(describe_expr(stmt["count"]))
            return f"{self.plain_block(stmt['body'])}, {times} times"
        # The statements holding a block are said with their blocks in words too: the DSL's
        # own line for them (describe_stmt) has its braces ("choose spent in port cards where
        # spent is not this card { trade in spent }"), and a question is never DSL.
        if kind in ("choose_from", "for_each"):
            head = "choose" if kind == "choose_from" else "for each"
            listed = f"{head} {stmt['var']} in {describe_expr(stmt['over'])}"
            if kind == "for_each":
                listed += describe_order(stmt)
            if stmt.get("where") is not None:
                listed += f" where {describe_expr(stmt['where'])}"
            body = self.plain_block(stmt["body"])
            joint = ", then " if kind == "choose_from" else ": "
            return plain_words(listed) + (f"{joint}{body}" if stmt["body"] else "")
        if kind == "choose":
            return "choose one of: " + "; or ".join(self.plain_block(o) for o in stmt["options"])
        if kind == "window":
            given = ", ".join(
                f"{q['name']} {describe_expr(q['value'])}" for q in stmt["quantities"]
            )
            head = plain_words(f"{stmt['trigger']}" + (f" with {given}" if given else ""))
            return head + (f", then {self.plain_block(stmt['body'])}" if stmt["body"] else "")
        if kind == "let":
            return plain_words(f"let {stmt['name']} be {describe_expr(stmt['value'])}")
        return plain_words(describe_stmt(stmt))

    def question_name(self, stmt: Any, body: list[IR]) -> str:
        """The stable name of a question (``may``) or an option (``choose one of``): its
        ``@label``, else the first verb it does (``move_pirate_ship``). A name, not a position,
        so a scenario's answer survives rewording and reordering the card."""
        label = self.label_of(stmt)
        if label:
            return label
        for verb in _first_verbs(body):
            return verb
        if isinstance(stmt, ChooseFrom):
            return "choose"
        return "may" if isinstance(stmt, May) else "option"

    def block(self, stmts: tuple[Any, ...], scope: _Scope, path: str, card: IR) -> list[IR]:
        body: list[IR] = []
        scope = scope.child()  # `let` names stay inside their block
        for stmt in stmts:
            lowered = self.stmt(stmt, scope, f"{path}/{len(body)}", card)
            if lowered is not None:
                body.append(lowered)
        return body

    def stmt(self, stmt: Any, scope: _Scope, path: str, card: IR) -> IR | None:
        self.note_span(path, stmt.span)
        if stmt.annotations:
            self.annotations(
                stmt.annotations,
                card,
                "statement",
                f"{card['title']}: line {stmt.span.line}",
                stmt.span,
            )
        at = [stmt.span.line, stmt.span.column]
        if isinstance(stmt, Command):
            return self.command(stmt, scope, path, card, at)
        if isinstance(stmt, (If, Unless)):
            cond = self.condition(stmt.condition, scope, stmt.span)
            if isinstance(stmt, Unless):
                cond = {"kind": "not", "operand": cond}
            return {
                "kind": "if",
                "at": at,
                "cond": cond,
                "then": self.block(stmt.then, scope, f"{path}/then", card),
                "else": self.block(stmt.otherwise, scope, f"{path}/else", card)
                if stmt.otherwise is not None
                else [],
            }
        if isinstance(stmt, ForEach):
            over, is_players, inner, where = self.loop_head(
                stmt.var, stmt.iterable, stmt.where, scope, stmt.span, "for each"
            )
            lowered: IR = {
                "kind": "for_each",
                "at": at,
                "var": stmt.var,
                "over": over,
                "where": where,
                "as_player": is_players,
            }
            if stmt.order:
                lowered["order"] = [self.order_key(key, inner) for key in stmt.order]
            lowered["body"] = self.block(stmt.body, inner, f"{path}/body", card)
            return lowered
        if isinstance(stmt, May):
            body = self.block(stmt.body, scope, f"{path}/body", card)
            name = self.question_name(stmt, body)
            return {
                "kind": "may",
                "at": at,
                # What the player is asked: the designer's @ask("...") words, else the body
                # in plain words (never DSL tokens: a player reads it).
                "ask": self.ask_of(stmt) or self.plain_block(body),
                "name": name,
                "body": body,
            }
        if isinstance(stmt, ChooseOne):
            options = []
            names: list[str] = []
            for index, option in enumerate(stmt.options):
                steps = option.body if isinstance(option, Group) else (option,)
                options.append(self.block(steps, scope, f"{path}/options/{index}", card))
                option_name = self.question_name(option, options[-1])
                if option_name in names:
                    self.error(
                        "option-name",
                        f"two options of this 'choose one of' are both named '{option_name}'",
                        option.span,
                        'name each option: { ... } @label("take_the_treasure")',
                    )
                names.append(option_name)
            if len(options) < 2:
                self.error(
                    "choose-options",
                    "'choose one of' needs at least two options",
                    stmt.span,
                    "put each option on its own line inside the braces",
                )
            return {
                "kind": "choose",
                "at": at,
                # What each option does, as the player is told when asked (plain words).
                "labels": [self.plain_block(o) for o in options],
                "name": self.label_of(stmt) or "_or_".join(names),
                "names": names,
                "options": options,
            }
        if isinstance(stmt, ChooseFrom):
            over, is_players, inner, where = self.loop_head(
                stmt.var, stmt.items, stmt.where, scope, stmt.span, "choose"
            )
            body = self.block(stmt.body, inner, f"{path}/body", card)
            listed = describe_expr(over)
            if where is not None:
                listed += f" where {describe_expr(where)}"
            said = f"{stmt.var} in {listed}" + (f", then {self.plain_block(body)}" if body else "")
            return {
                "kind": "choose_from",
                "at": at,
                "var": stmt.var,
                "over": over,
                "where": where,
                "as_player": is_players,
                # What the player is asked, after "choose": the designer's @ask("...") words
                # ("a card of your hand to trash"), else the statement in plain words.
                "ask": self.ask_of(stmt) or plain_words(said),
                "name": self.question_name(stmt, body),
                "body": body,
            }
        if isinstance(stmt, Repeat):
            count, typ = self.expr(stmt.count, scope)
            self.expect_type(typ, "number", stmt.count.span, "'repeat'")
            literal = count.get("value") if count.get("kind") == "num" else None
            if isinstance(literal, (int, float)) and (literal < 0 or literal != int(literal)):
                # `repeat -1 { ... }` ran nothing, and `repeat 1.5` once or twice: as 'draw
                # hand -2', a count the rule cannot mean.
                self.error(
                    "negative-amount",
                    f"'repeat' takes a whole number of times, 0 or more, not {literal:g}",
                    stmt.count.span,
                    "write: repeat 2 { ... }",
                )
            elif isinstance(literal, (int, float)):
                self.too_much(literal, "times to repeat", stmt.count.span)
            return {
                "kind": "repeat",
                "at": at,
                "count": count,
                "body": self.block(stmt.body, scope, f"{path}/body", card),
            }
        if isinstance(stmt, Group):
            return {
                "kind": "group",
                "at": at,
                "body": self.block(stmt.body, scope, f"{path}/body", card),
            }
        if isinstance(stmt, Window):
            return self.window(stmt, scope, path, card, at)
        raise AssertionError(f"unknown statement {type(stmt).__name__}")  # pragma: no cover

    def command(
        self, stmt: Command, scope: _Scope, path: str, card: IR, at: list[int]
    ) -> IR | None:
        args = [expr for clause in stmt.args for expr in clause]
        if stmt.verb == "let":
            return self.let(stmt, args, scope, at)
        sig = self.vocab.verbs.get(stmt.verb)
        if sig is None and stmt.verb in self.vocab.unsigned:
            return None  # its definition's signature is the error, at its line
        if sig is None:
            hint: tuple[str, ...]
            if stmt.verb in self.vocab.natives:
                hint = (f"'{stmt.verb}' is a native, used in expressions: {stmt.verb}(...)",)
            else:
                hint = (
                    with_described(
                        did_you_mean(stmt.verb, [*self.vocab.verbs, "let"]),
                        stmt.verb,
                        {n: v.doc for n, v in self.vocab.verbs.items()},
                    )
                    or _library_hint(stmt.verb, "verb")
                    or did_you_mean(stmt.verb, self.vocab.verbs, loose=True)
                    or (f'declare it in game.cards: verb {stmt.verb} "what it does"',)
                )
            self.error(
                "verb-undefined", f"'{stmt.verb}' is not a verb of this game", stmt.span, *hint
            )
            return None
        bound = self.bind(sig, args, scope, stmt.span)
        if sig.name == "mark" and sig.origin == "prelude":
            amount = bound[1] if len(bound) > 1 else None
            if isinstance(amount, dict) and amount.get("kind") == "num" and amount["value"] < 0:
                self.error(
                    "negative-mark",
                    f"'mark' marks boxes: {amount['value']} boxes cannot be marked",
                    stmt.span,
                    "marks are never taken back by 'mark'; to erase, use the library's "
                    "'erase' (use counters in game.cards)",
                )
        opposite = {"gain": "lose", "lose": "gain", "score": "lose", "pay": "gain"}
        slot = 0 if sig.name == "score" else 1
        if sig.name in opposite and sig.origin == "prelude" and len(bound) > slot:
            amount = bound[slot]
            if isinstance(amount, dict) and amount.get("kind") == "num" and amount["value"] < 0:
                # 'lose coins -2' would gain 2, past what 'lose' promises (never below the
                # minimum), and the sheets would print "lose -2 Coins".
                counter = (
                    (self.vocab.score or "...")
                    if slot == 0
                    else (bound[0] or {}).get("name", "...")
                )
                self.error(
                    "negative-amount",
                    f"'{sig.name}' takes an amount of 0 or more, not {amount['value']}",
                    stmt.span,
                    f"say the other way round: {opposite[sig.name]} {counter} {-amount['value']:g}",
                )
        elif sig.origin != "prelude" or sig.name not in ("mark", "add", "set"):
            # Any other verb's amount or count counts things (`lose_crew -1`, `draw hand -2`):
            # a negative one would do the verb backwards, or nothing, past what it promises.
            # (`add` adds to a number, so `add reach -1` is a sum; `mark` is checked above.)
            for param, value in zip(sig.params, bound, strict=False):
                if (
                    param.type == "number"
                    and param.name in ("amount", "count")
                    and isinstance(value, dict)
                    and value.get("kind") == "num"
                    and value["value"] < 0
                ):
                    self.error(
                        "negative-amount",
                        f"'{sig.name}' takes {with_article(param.name)} of 0 or more, "
                        f"not {value['value']:g}",
                        stmt.span,
                        f"{sig.name} counts what it does: {sig.usage()}, with "
                        f"{param.name.upper()} 0 or more",
                    )
        if sig.name == "fire" and sig.origin == "prelude" and bound and bound[0]:
            fired = self.vocab.triggers.get(bound[0].get("name", ""))
            if fired is not None and fired.params:
                self.error(
                    "fire-needs-params",
                    f"'{fired.name}' gives its handlers {', '.join(fired.params)}, which 'fire' "
                    "cannot supply",
                    stmt.span,
                    "fire it from the native or verb that knows them, or declare a trigger "
                    "without params for the flow to fire",
                )
        out: IR = {
            "kind": "verb",
            "at": at,
            "verb": sig.name,
            "origin": sig.origin,
            "args": bound,
            "else": None,
            "say": say(sig, bound),
        }
        if stmt.otherwise is not None:
            if sig.returns == "shortfall":
                inner = scope.child(missing="number")
            elif sig.returns == "bool":
                inner = scope.child()
            else:
                self.error(
                    "else-on-verb",
                    f"'{sig.name}' always succeeds, so 'else' never runs",
                    stmt.otherwise.span,
                    "'else' after a verb runs when it cannot be done in full "
                    "(verbs that return a shortfall or a bool)",
                )
                return out
            out["else"] = self.block((stmt.otherwise,), inner, f"{path}/else", card)
            out["returns"] = sig.returns
        return out

    def window(self, stmt: Window, scope: _Scope, path: str, card: IR, at: list[int]) -> IR | None:
        """``fire TRIGGER with QUANTITY VALUE, ... { ... }``: the trigger must be declared, and
        each of its quantities given once, as a number (worked out before the window opens);
        in the block, each quantity's name reads the window's value as the cards answering it
        left it (Smoke Bomb's ``reduce damage up_to 2``), over any other meaning of the name
        there. The values are read, not set: a block changing one writes a ``let``."""
        name = stmt.trigger
        trig = self.vocab.triggers.get(name.id)
        if trig is None:
            if name.id:  # '' is a trigger the parser found no name for, and said so
                hints = with_described(
                    did_you_mean(name.id, self.vocab.triggers), name.id, self._trigger_docs()
                )
                if not hints and name.id in self.vocab.box_triggers:
                    hints = (
                        f"'{name.id}' is set off by marking its box; a window to open is a "
                        "trigger game.cards declares",
                    )
                self.error(
                    "trigger-undefined",
                    f"'{name.id}' is not a trigger of this game",
                    name.span,
                    *(hints or (f"triggers: {_some(sorted(self.vocab.triggers))}",)),
                )
            return None
        if trig.params:
            self.error(
                "fire-needs-params",
                f"'{trig.name}' gives its handlers {', '.join(trig.params)}, which 'fire' "
                "cannot supply",
                name.span,
                "fire it from the native or verb that knows them, or declare a trigger "
                "without params for the flow to fire",
            )
        if scope.trigger is not None and scope.trigger.name == trig.name:
            self.error(
                "window-in-itself",
                f"'on {trig.name}' opens '{trig.name}' again, which would never end",
                name.span,
                "change the quantities in place (set, add, reduce) instead of opening the "
                "window again",
            )
        given: dict[str, IR] = {}
        spans: dict[str, Span] = {}
        unknown = False
        for qname, value in stmt.quantities:
            if qname.id not in trig.quantities:
                unknown = True
                self.error(
                    "quantity-unknown",
                    f"'{qname.id}' is not a quantity of '{trig.name}'",
                    qname.span,
                    *(
                        did_you_mean(qname.id, trig.quantities)
                        or (
                            (f"'{trig.name}' has the quantities: {', '.join(trig.quantities)}",)
                            if trig.quantities
                            else (
                                f"'{trig.name}' has no quantities; declare one in game.cards: "
                                f"trigger {trig.name} {{ quantity {qname.id} }}",
                            )
                        )
                    ),
                )
                continue
            if qname.id in spans:
                self.error(
                    "quantity-twice",
                    f"'{qname.id}' is already given at {spans[qname.id]}",
                    qname.span,
                    "give each quantity once",
                )
                continue
            spans[qname.id] = qname.span
            # Worked out where the window is opened: the block's names are not yet in scope.
            ir, typ = self.expr(value, scope)
            self.expect_type(typ, "number", value.span, f"the quantity '{qname.id}'")
            given[qname.id] = ir
        missing = [q for q in trig.quantities if q not in given]
        if missing and not unknown:  # a misspelt quantity is one mistake, said once
            listed = ", ".join(f"'{q}'" for q in missing)
            self.error(
                "quantity-missing",
                f"'{trig.name}' opens with {listed} too, which this 'fire' does not give",
                name.span,
                f"write: fire {trig.name} with "
                + ", ".join(f"{q} ..." for q in trig.quantities)
                + (" { ... }" if stmt.block else ""),
            )
        inner = scope.child()
        inner.windows = {**scope.windows, **dict.fromkeys(trig.quantities, trig.name)}
        return {
            "kind": "window",
            "at": at,
            "trigger": trig.name,
            # In the order game.cards declares them: the emitted dict's order.
            "quantities": [{"name": q, "value": given[q]} for q in trig.quantities if q in given],
            "body": self.block(stmt.body, inner, f"{path}/body", card),
        }

    def loop_head(
        self, var: str, items: Any, where: Any, scope: _Scope, span: Span, what: str
    ) -> tuple[IR, bool, _Scope, IR | None]:
        """The head of ``for each VAR in ITEMS where ...`` and ``choose VAR in ITEMS where
        ...``: the list's IR, whether it is the players (the body then acts as each), the
        scope of the body (VAR bound, typed by its kind of card when known) and the filter's
        IR. A zone's name there is the cards the acting player's zone holds (``choose picked
        in hand``), taken when the head is worked out, so the body may move them."""
        over, typ = self.list_items(items, scope)
        if typ not in ("list", "any"):
            example = (
                "for example: choose picked in hand { discard picked }"
                if what == "choose"
                else "for example: for each rival in players { ... }"
            )
            self.error(
                "type-mismatch",
                f"'{what}' needs a list to {'choose from' if what == 'choose' else 'go over'}",
                items.span,
                example,
            )
        is_players = over == {"kind": "builtin", "name": "players"} or _lists_players(over)
        self.shadowing(var, scope, span, "the loop" if what == "for each" else "the choice")
        of_kind = over.get("of_kind")
        inner = scope.child(**{var: "player" if is_players else "any"})
        if of_kind is not None:
            inner.card_kinds[var] = of_kind
        where_ir = None
        if where is not None:
            where_ir, wtyp = self.expr(where, inner)
            self.expect_type(wtyp, "bool", where.span, "'where'")
        return over, is_players, inner, where_ir

    def list_items(self, node: Any, scope: _Scope) -> tuple[IR, str]:
        """A list a loop goes over or a choice picks from: any list expression, or a zone's
        name, the cards the acting player's zone holds (anywhere else a zone is no value)."""
        if (
            isinstance(node, Name)
            and node.id in self.vocab.zones
            and node.id not in scope.locals
            and node.id not in scope.windows
            and not (scope.trigger is not None and node.id in scope.trigger.params)
        ):
            if node.id in self.vocab.kinds:
                # Incredible Expeditions' `expedition_leader`: the zone holding the player's
                # own Leader, and the kind of the 4 Leader cards. The zone is read, and a
                # house rule's `choose leader in expedition_leader` offered the one Leader
                # the player already had (none in the setup) without a word.
                self.diagnostics.append(
                    Diagnostic(
                        "zone-or-kind",
                        f"'{node.id}' is both a zone and a kind of card: here it is the cards "
                        f"the player's zone '{node.id}' holds, not every {node.id} card",
                        node.span,
                        "warning",
                        (
                            f"to go over every {node.id} card, use a native or function of "
                            "the game that lists them; or give the zone and the kind names of "
                            "their own in game.cards",
                        ),
                    )
                )
            return {"kind": "zone_cards", "zone": node.id}, "list"
        return self.expr(node, scope)

    def let(self, stmt: Command, args: list[Any], scope: _Scope, at: list[int]) -> IR | None:
        if len(args) != 2 or not isinstance(args[0], Name):
            self.error(
                "bad-let",
                "'let' names a value: let NAME EXPRESSION",
                stmt.span,
                "write: let result 1d6",
            )
            return None
        name = args[0].id
        self.shadowing(name, scope, args[0].span, "this value")
        value, typ = self.expr(args[1], scope)
        scope.locals[name] = typ
        return {"kind": "let", "at": at, "name": name, "value": value}

    def shadowing(self, name: str, scope: _Scope, span: Span, what: str) -> None:
        """A value, loop or parameter named ``name``: an error when the name is already the
        rule's own, a window's quantity or the game's vocabulary (a counter, a track ...); a
        warning when it is only a card's id. A card is declared anywhere (a designer's new
        "Storm" beside the storm_season variant's 'let storm 1d6'), and the value, nearer,
        is what the name means where it is in scope: the card does not break a rule that
        never named it."""
        if name in scope.locals or name in scope.windows or self.is_declared(name, cards=False):
            self.error(
                "shadowed-name",
                f"'{name}' is already {self.what_is(name, scope)}",
                span,
                f"choose another name for {what}",
            )
        elif name in self.cards:
            where = self.cards[name].span
            self.diagnostics.append(
                Diagnostic(
                    "shadowed-name",
                    f"'{name}' is also a card ({where.file}:{where.line}); here it names {what}",
                    span,
                    "warning",
                    (f"to name the card here, choose another name for {what}",),
                )
            )

    def what_is(self, name: str, scope: _Scope) -> str:
        """What ``name`` already means, in words, for shadowing messages."""
        if name in scope.windows:
            return f"a quantity of the window '{scope.windows[name]}'"
        if name in scope.locals:
            return "a value named in this rule"
        v = self.vocab
        for what, table in (
            ("a counter", v.counters),
            ("a track", v.tracks),
            ("a zone", v.zones),
            ("a symbol", v.symbols),
            ("a parameter", v.params),
            ("a built-in name", v.builtins),
            ("a card", self.cards),
        ):
            if name in table:
                return what
        return "a name"

    def is_declared(self, name: str, cards: bool = True) -> bool:
        """True when ``name`` is in the game's vocabulary (``cards``: or a card's id)."""
        v = self.vocab
        return any(
            name in table
            for table in (v.counters, v.tracks, v.zones, v.symbols, v.params, v.builtins)
        ) or (cards and name in self.cards)

    def bind(self, sig: Signature, args: list[Any], scope: _Scope, span: Span) -> list[IR | None]:
        """Bind a call's arguments to ``sig``'s parameters: markers first, then in order."""
        bound: list[IR | None] = [None] * len(sig.params)
        given = [False] * len(sig.params)
        markers = {p.marker: i for i, p in enumerate(sig.params) if p.marker}
        positional = [i for i, p in enumerate(sig.params) if not p.marker]
        i = 0
        while i < len(args):
            arg = args[i]
            if isinstance(arg, Name) and arg.id in markers and not given[markers[arg.id]]:
                slot = markers[arg.id]
                if i + 1 >= len(args):
                    self.error(
                        "arity",
                        f"'{arg.id}' needs a value after it",
                        arg.span,
                        f"usage: {sig.usage()}",
                    )
                    given[slot] = True
                    break
                bound[slot] = self.arg(sig, slot, args[i + 1], scope)
                given[slot] = True
                i += 2
                continue
            free = next((s for s in positional if not given[s]), None)
            missing = [s for s in markers.values() if not given[s]]
            if free is None and len(missing) == 1:
                # `reduce pirate_power 2`: the value of the one marker not written, so one
                # error naming the marker, not "missing its AMOUNT" and "too many" both.
                slot = missing[0]
                param = sig.params[slot]
                self.error(
                    "arity",
                    f"'{sig.name}' needs '{param.marker}' before its {param.name.upper()}",
                    arg.span,
                    f"usage: {sig.usage()}",
                )
                bound[slot] = self.arg(sig, slot, arg, scope)
                given[slot] = True
                i += 1
                continue
            if free is None:
                self.error(
                    "arity",
                    f"too many arguments for '{sig.name}'",
                    arg.span,
                    f"usage: {sig.usage()}",
                )
                break
            slot = free
            bound[slot] = self.arg(sig, slot, arg, scope)
            given[slot] = True
            i += 1
        for slot, param in enumerate(sig.params):
            if given[slot]:
                continue
            if param.default is not None:
                bound[slot] = {"kind": "num", "value": param.default}
            elif not param.optional:
                self.error(
                    "arity",
                    f"'{sig.name}' is missing its {param.name.upper()} ({param.type})",
                    span,
                    f"usage: {sig.usage()}",
                )
        return bound

    def arg(self, sig: Signature, slot: int, expr: Any, scope: _Scope) -> IR | None:
        param = sig.params[slot]
        typ = param.type
        if (
            sig.name == "count"
            and sig.origin == "prelude"
            and (
                not isinstance(expr, Name)
                or scope.locals.get(expr.id) == "list"
                # A kind's name is the list of its cards (README): `count(campsite)` counts
                # them, where it was told "'campsite' is not a zone of this game".
                or (
                    expr.id not in scope.locals
                    and expr.id in self.vocab.kinds
                    and expr.id not in self.vocab.zones
                )
            )
        ):
            # `count(trade_routes())`: how many items a list holds, as a zone's cards are
            # counted (a native's list had no other way to be counted).
            ir, got = self.expr(expr, scope)
            if got in ("list", "any"):
                return ir
            self.error(
                "type-mismatch",
                f"'count' takes the name of a zone or a list here, not {with_article(got)}",
                expr.span,
                "usage: count ZONE, or count(LIST): count(hand), count(trade_routes())",
            )
            return None
        if typ in ("counter", "track", "zone", "target", "card_name", "name", "trigger"):
            if (
                isinstance(expr, Name)
                and expr.id == "self"
                and scope.card == FLOW_SCOPE
                and "self" not in scope.locals
            ):
                # `play self` in a phase: there is no card, as for `discard self` (a card
                # parameter); it was told "'self' is not a card of this game".
                self.expr(expr, scope)
                return None
            if (
                typ == "card_name"
                and isinstance(expr, Name)
                and expr.id == "self"
                and "self" not in scope.locals
            ):
                if scope.card in self.cards:
                    # `play self` in a card: this card, as `discard self` discards it ("play
                    # X runs X's own on play", README): offered when the player holds it, as
                    # `play lime_juice` is, and asked as play.<its id>. It was "'self' is not
                    # a card of this game".
                    return self.expr(expr, scope)[0]
                # In a DSL verb `self` is whichever card calls it: its question could not be
                # named, so no scenario could answer it.
                self.error(
                    "self-in-definition",
                    f"'{scope.card}' is a verb or function, no card: 'play self' in it would "
                    "play whichever card called it",
                    expr.span,
                    "name the card (play lime_juice), or write play self in the card's own trigger",
                )
                return None
            if (
                param.names
                and isinstance(expr, Name)
                and expr.id not in scope.locals
                and not self.names_fit(expr.id, param.names)
            ):
                # `research_specimen ignoring coins`: what the parameter names says more than
                # "'coins' is not a symbol" with the game's first dozen symbols.
                self.resolve_named(expr, f"the {param.name.upper()} of '{sig.name}'", param.names)
                return None
            found = self.reference(typ, expr, scope, sig)
            if (
                found is not None
                and param.names
                and found.get("kind") == "ref"
                and not self.names_fit(str(found["name"]), param.names)
            ):
                # `lay_out_locations port_city, atlantis` with a crew card: the declaration
                # says what it names (param first card_name { names location }).
                self.resolve_named(expr, f"the {param.name.upper()} of '{sig.name}'", param.names)
                return None
            return found
        if typ == "card":
            if isinstance(expr, Name) and expr.id == "self":
                # A card parameter given `self` (`discard self`) is checked as any other
                # `self`: in a flow phase there is no card ("self is an error"), where it
                # had compiled to a discard of nothing.
                if (
                    param.names
                    and scope.card in self.cards
                    and not self.names_fit(scope.card, param.names)
                ):
                    # `sacrifice self` on an Encounter, where the parameter names a crew or a
                    # resource: the card is of the kind the declaration refuses, which failed
                    # only when the card's text ran ("player 1 has no mimic to Sacrifice").
                    what = f"the {param.name.upper()} of '{sig.name}'"
                    self.error(
                        "property-names",
                        f"{what} names {_sorts(param.names)}; 'self' here is "
                        f"'{scope.card}', {self.sort_of(scope.card)}",
                        expr.span,
                        f"only {_sorts(param.names)} can say '{sig.name} self'; "
                        f"usage: {sig.usage()}",
                    )
                    return None
                return self.expr(expr, scope)[0]
            if isinstance(expr, Name) and expr.id in self.cards:
                if param.names and not self.names_fit(expr.id, param.names):
                    # `pitch_tent navigation`: the declaration says what the card must be
                    # (param site card { names campsite }); it failed only when it ran.
                    self.resolve_named(
                        expr, f"the {param.name.upper()} of '{sig.name}'", param.names
                    )
                    return None
                return {"kind": "card", "id": expr.id}
            ir, got = self.expr(expr, scope)
            self.expect_type(got, "card", expr.span, _param_words(sig, slot))
            return ir
        if typ == "dice":
            if isinstance(expr, Dice):
                self.too_much(expr.count, "dice in one roll", expr.span)
                return {"kind": "dice", "count": expr.count, "sides": expr.sides}
            if isinstance(expr, Name) and scope.locals.get(expr.id) == "dice":
                return {"kind": "local", "name": expr.id}
            self.error(
                "type-mismatch",
                f"'{sig.name}' takes dice such as 2d6",
                expr.span,
                f"usage: {sig.usage()}",
            )
            return None
        ir, got = self.expr(expr, scope)
        self.expect_type(got, typ, expr.span, _param_words(sig, slot))
        return ir

    def reference(self, typ: str, expr: Any, scope: _Scope, sig: Signature) -> IR | None:
        """A parameter that names a counter, track, zone ... rather than taking a value."""
        v = self.vocab
        quantities = scope.trigger.quantities if scope.trigger else ()
        # The tables a name may come from, looked up in place: copying the cards into a list
        # on every reference made checking quadratic in the number of cards.
        tables: dict[str, tuple[Any, ...]] = {
            "counter": (v.counters,),
            "track": (v.tracks,),
            "zone": (v.zones,),
            "target": (quantities, v.counters),
            "card_name": (self.cards,),
            "name": (v.symbols, self.cards),
            "trigger": (v.triggers, v.box_triggers),
        }
        sources = tables[typ]
        if isinstance(expr, Name) and expr.id in scope.locals:
            # A parameter of a DSL verb or function naming a counter, track, zone ...
            got = scope.locals[expr.id]
            if got == typ or got == "any" or (typ == "target" and got == "counter"):
                return {"kind": "local", "name": expr.id}
        if not isinstance(expr, Name) and typ in ("name", "card_name"):
            # A value that is a name: a native's (`holds_suit(led_suit())`), a card's property
            # (`holds_suit(card.suit)`). It was "takes the name of a symbol here", so a native
            # returning a name could feed no other.
            value, got = self.expr(expr, scope)
            fits = {"name": ("name", "card", "card_name", "any"), "card_name": ("card", "any")}
            if got in fits[typ] or got == typ:
                return value
            self.error(
                "type-mismatch",
                f"'{sig.name}' takes {with_article(_words(typ))} here, not {_article(got)}",
                expr.span,
                f"usage: {sig.usage()}",
            )
            return None
        if not isinstance(expr, Name):
            self.error(
                "type-mismatch",
                f"'{sig.name}' takes the name of {with_article(_words(typ))} here",
                expr.span,
                f"usage: {sig.usage()}",
            )
            return None
        if not any(expr.id in table for table in sources):
            pool = [name for table in sources for name in table]
            extra: tuple[str, ...] = ()
            if typ == "target" and expr.id in scope.windows:
                extra = (
                    f"'{expr.id}' is the quantity of the window '{scope.windows[expr.id]}' as "
                    "the cards left it, to read, not to change; to work with another value, "
                    f"name it: let more {expr.id} + 1",
                )
            elif typ == "target" and scope.trigger is not None and not quantities:
                extra = (f"'on {scope.trigger.name}' has no quantities",)
            kind_hint = self._kind_as_amount(sig, expr.id)
            if kind_hint:
                extra = kind_hint
            owners = self._quantity_owners(expr.id)
            if typ == "target" and owners and not kind_hint and expr.id not in scope.windows:
                # A quantity of another trigger's window (Incredible Expeditions'
                # heroism_difficulty in an 'on defeated' block): "is not a counter or
                # quantity of this game", with "did you mean 'heroism'?", denied it was one.
                self.error(
                    "name-undefined",
                    f"'{expr.id}' is a quantity of {owners}, "
                    + (
                        f"not of 'on {scope.trigger.name}'"
                        if scope.trigger is not None
                        else "changed only by the cards answering it"
                    ),
                    expr.span,
                    f"change it in an 'on {self._quantity_trigger(expr.id)}' block, while "
                    "that window is open",
                )
                return None
            self.error(
                "name-undefined",
                f"'{expr.id}' is not {with_article(_words(typ))} of this game",
                expr.span,
                *(
                    (kind_hint or did_you_mean(expr.id, pool))
                    or extra
                    or (f"{_words(typ)}s: {_some(sorted(pool)) or 'none declared'}",)
                ),
            )
            return None
        if typ == "target":
            where = "quantity" if expr.id in quantities else "counter"
            return {"kind": "ref", "to": where, "name": expr.id}
        return {"kind": "ref", "to": typ, "name": expr.id}

    def condition(self, clauses: tuple[tuple[Any, ...], ...], scope: _Scope, span: Span) -> IR:
        words = [expr for clause in clauses for expr in clause]
        if len(words) > 1 and isinstance(words[0], Name) and words[0].id in self.vocab.verbs:
            sig = self.vocab.verbs[words[0].id]
            if sig.returns != "bool":
                self.error(
                    "type-mismatch",
                    f"'{sig.name}' does not answer yes or no",
                    words[0].span,
                    "use it as a statement, not as a condition",
                )
            return {
                "kind": "verb_test",
                "verb": sig.name,
                "origin": sig.origin,
                "args": self.bind(sig, words[1:], scope, span),
            }
        if len(words) != 1:
            hint = "join tests with 'and' / 'or'"
            if len(words) > 2 and isinstance(words[1], Name) and words[1].id == "is":
                # 'if card.bonus is none': the language compares with == and !=.
                negated = isinstance(words[2], Not)
                target = words[2].operand if negated else words[2]
                said = target.id if isinstance(target, Name) else "..."
                left = _dotted(words[0])
                hint = f"compare with == or !=: {left} {'!=' if negated else '=='} {said}"
            self.error(
                "bad-condition",
                "a condition is one expression or a yes/no verb",
                words[1].span if len(words) > 1 else span,
                hint,
            )
            return {"kind": "bool", "value": False}
        if isinstance(words[0], Name) and words[0].id in self.vocab.verbs:
            sig = self.vocab.verbs[words[0].id]
            return {
                "kind": "verb_test",
                "verb": sig.name,
                "origin": sig.origin,
                "args": self.bind(sig, [], scope, span),
            }
        ir, typ = self.expr(words[0], scope)
        self.expect_type(typ, "bool", words[0].span, "the condition")
        return ir

    def order_key(self, key: OrderKey, scope: _Scope) -> IR:
        """One key of ``for each ... by``: a number (or true/false, false first) worked out
        for each item, with the loop's name bound (as the acting player over players)."""
        value, typ = self.expr(key.key, scope)
        if typ not in ("number", "bool", "dice", "any"):
            self.error(
                "type-mismatch",
                f"a key of 'by' needs a number or a true/false value, not {_article(typ)}",
                key.key.span,
                "items are ordered lowest first; write 'descending' after a key for highest "
                "first: by prestige, marker_arrival() descending",
            )
        return {"key": value, "descending": key.descending}

    def expect_type(self, got: str, want: str, span: Span, what: str) -> None:
        if want == "any" or got == "any" or got == want:
            return
        if want == "number" and got == "dice":
            return
        hint = _TYPE_HINTS.get(want)
        self.error(
            "type-mismatch",
            f"{what} needs {_article(want)}, not {_article(got)}",
            span,
            *((hint,) if hint else ()),
        )

    # -- expressions

    def expr(self, node: Any, scope: _Scope) -> tuple[IR, str]:
        """Lower an expression; return its IR and its type."""
        if isinstance(node, Number):
            return {"kind": "num", "value": node.value}, "number"
        if isinstance(node, Boolean):
            return {"kind": "bool", "value": node.value}, "bool"
        if isinstance(node, String):
            return {"kind": "text", "value": node.value}, "text"
        if isinstance(node, Percent):
            return {"kind": "num", "value": node.value / 100}, "number"
        if isinstance(node, Dice):
            self.too_much(node.count, "dice in one roll", node.span)
            return {"kind": "roll", "count": node.count, "sides": node.sides}, "number"
        if isinstance(node, Name):
            return self.name(node, scope)
        if isinstance(node, BinaryOp):
            left, lt = self.expr(node.left, scope)
            right, rt = self.expr(node.right, scope)
            self.expect_type(lt, "number", node.left.span, f"'{node.op}'")
            self.expect_type(rt, "number", node.right.span, f"'{node.op}'")
            if node.op in ("/", "%") and right.get("kind") == "num" and right["value"] == 0:
                # It passed, and the first game to play it stopped with ZeroDivisionError.
                self.error(
                    "division-by-zero",
                    f"'{node.op}' by 0 has no value",
                    node.right.span,
                    f"divide by a number other than 0, such as coins {node.op} 2",
                )
            return {"kind": "binary", "op": node.op, "left": left, "right": right}, "number"
        if isinstance(node, Compare):
            absent = self.none_test(node, scope)
            if absent is not None:
                return absent, "bool"
            left, lt = self.expr(node.left, scope)
            right, rt = self.expr(node.right, scope)
            if node.op not in ("==", "!="):
                self.expect_type(lt, "number", node.left.span, f"'{node.op}'")
                self.expect_type(rt, "number", node.right.span, f"'{node.op}'")
            return {"kind": "compare", "op": node.op, "left": left, "right": right}, "bool"
        if isinstance(node, BoolOp):
            left, lt = self.expr(node.left, scope)
            right, rt = self.expr(node.right, scope)
            self.expect_type(lt, "bool", node.left.span, f"'{node.op}'")
            self.expect_type(rt, "bool", node.right.span, f"'{node.op}'")
            return {"kind": "logic", "op": node.op, "left": left, "right": right}, "bool"
        if isinstance(node, Not):
            operand, typ = self.expr(node.operand, scope)
            self.expect_type(typ, "bool", node.operand.span, "'not'")
            return {"kind": "not", "operand": operand}, "bool"
        if isinstance(node, Call):
            return self.call(node, scope)
        if isinstance(node, ListLiteral):
            items = [self.expr(item, scope)[0] for item in node.items]
            return {"kind": "list", "items": items}, "list"
        if isinstance(node, Range):
            low, lt = self.expr(node.low, scope)
            high, ht = self.expr(node.high, scope)
            self.expect_type(lt, "number", node.low.span, "a range")
            self.expect_type(ht, "number", node.high.span, "a range")
            if low.get("kind") == "num" and high.get("kind") == "num":
                self.too_much(high["value"] - low["value"] + 1, "numbers in a range", node.span)
            return {"kind": "range", "low": low, "high": high}, "list"
        if isinstance(node, Attribute):
            return self.member(node, scope)
        raise AssertionError(f"unknown expression {type(node).__name__}")  # pragma: no cover

    def too_much(self, count: float, what: str, span: Span) -> None:
        """A literal count beyond what a whole game may do (:data:`WORK_BUDGET`): an error
        here, not a game that runs for hours (README, "Untrusted input")."""
        if count > WORK_BUDGET:
            shown = f"{int(count):,}" if count == int(count) else f"{count:g}"
            self.error(
                "too-much",
                f"{shown} {what}: a game repeats, rolls and lays out at most "
                f"{WORK_BUDGET:,} in all, which no table comes near",
                span,
                "give a count a table could play",
            )

    def is_none(self, node: Any, scope: _Scope) -> bool:
        """True when ``node`` is the word ``none`` and the game gives it no meaning of its own
        (a symbol, a card, a local ... named ``none`` stays that)."""
        if not isinstance(node, Name) or node.id != "none":
            return False
        v = self.vocab
        named: list[Any] = [
            scope.locals,
            scope.windows,
            v.counters,
            v.params,
            v.builtins,
            v.symbols,
            self.cards,
            v.kinds,
        ]
        trigger = scope.trigger
        if trigger is not None:
            named += [trigger.params, trigger.quantities]
        return not any("none" in names for names in named)

    def none_test(self, node: Compare, scope: _Scope) -> IR | None:
        """``card.bonus == none`` (or ``!= none``): whether a card lacks an optional property,
        which otherwise reads as its type's zero (0, false, ""), so that a card that says
        nothing and one that says 0 can be told apart. None when neither side is ``none``."""
        if self.is_none(node.right, scope):
            other, word = node.left, node.right
        elif self.is_none(node.left, scope):
            other, word = node.right, node.left
        else:
            return None
        if not isinstance(other, Attribute):
            return self.none_result(node, other, word, scope)
        value, typ = self.member(other, scope)
        if node.op not in ("==", "!="):
            self.error(
                "type-mismatch",
                f"'{node.op}' cannot compare with 'none'",
                word.span,
                f"test whether the card has it: {describe_expr(value)} != none",
            )
            return {"kind": "bool", "value": False}
        if value.get("kind") != "attr" or value.get("tag") or "type" not in value:
            if value.get("tag"):
                self.error(
                    "type-mismatch",
                    f"'{other.attr}' is a tag, true or false, never none",
                    word.span,
                    f"test the tag itself: if {describe_expr(value)} {{ ... }}",
                )
            return {"kind": "bool", "value": False}
        kind_name = self.card_kind_of(other.value, scope)
        prop = self.vocab.kinds[kind_name].properties[other.attr] if kind_name else None
        if prop is not None and not prop.optional:
            self.error(
                "type-mismatch",
                f"every {kind_name} has '{other.attr}' (it is not optional), so it is never none",
                word.span,
                f"declare it 'property {other.attr} {prop.type} optional' in game.cards "
                "for cards to leave it out",
            )
        bare = {"kind": "attr", "value": value["value"], "attr": value["attr"], "absent": True}
        return {"kind": "compare", "op": node.op, "left": bare, "right": {"kind": "none"}}

    def none_result(self, node: Compare, other: Any, word: Any, scope: _Scope) -> IR:
        """``top_card() == none`` (or ``!= none``): whether a native's or a DSL function's
        result, a ``let`` of one, or a trigger's param is none. A native declared to return a
        ``card``, ``card_name``, ``name`` or ``player`` may give none (README, "A game's own
        Python": Darwin's Journey's ``pirate_region()`` while the Pirate Ship is in the
        supply), and a card could not ask it. A number, a yes/no or a value written out (a
        card's id, a symbol, ``self``) is never none: an error at ``none``."""
        value, typ = self.expr(other, scope)
        if node.op not in ("==", "!="):
            self.error(
                "type-mismatch",
                f"'{node.op}' cannot compare with 'none'",
                word.span,
                f"test whether there is one: {describe_expr(value)} != none",
            )
            return {"kind": "bool", "value": False}
        if value.get("kind") in ("call", "local", "event") and typ in _MAYBE_NONE:
            return {"kind": "compare", "op": node.op, "left": value, "right": {"kind": "none"}}
        said = describe_expr(value)
        what = "a list" if typ == "list" else (_article(typ) if typ != "any" else "a value")
        if value.get("kind") in ("call", "local", "event"):
            message = f"'{said}' gives {what}, never none"
            hint = (
                "'none' is what a native returning a card, card_name, name or player gives "
                "when there is none; test a number or a list by its count: count(...) == 0"
            )
        elif value.get("kind") not in ("card", "symbol", "num", "bool", "text", "builtin"):
            # A counter, a parameter, a quantity, arithmetic: a number, 0 at the least.
            message = f"'{said}' is {what}, never none"
            hint = f"test it against a number: {said} == 0"
        else:
            message = f"'{said}' is {what} written out, so it is never none"
            hint = (
                "compare with none a native's result (top_card() == none), a let of one, or "
                "a card's optional property (card.bonus == none)"
            )
        self.error("type-mismatch", message, word.span, hint)
        return {"kind": "bool", "value": False}

    def card_kind_of(self, node: Any, scope: _Scope) -> str | None:
        """The kind of card an expression names, when the checker can know it: ``self``, a
        card's id, a loop's name over a kind (``for each site in campsite``), or a trigger
        param declared with its kind (``param port space``)."""
        if not isinstance(node, Name):
            return None
        if node.id in scope.locals:
            return scope.card_kinds.get(node.id)
        if node.id == "self" and scope.card in self.cards:
            return self.cards[scope.card].kind
        if scope.trigger is not None and node.id in scope.trigger.params:
            return dict(scope.trigger.param_kinds).get(node.id)
        if node.id in self.cards:
            return self.cards[node.id].kind
        return None

    def natives_asking(self, attr: str, what: str) -> tuple[str, ...]:
        """Hints naming the natives (or DSL functions) of one argument that ask what
        ``what.attr`` seems to: ``attr`` itself, ``has_attr``, ``is_attr`` or a name with
        ``attr`` as one of its words, plurals too (Land vs Sea's ``placed.menhir`` is
        ``has_menhir(placed)``, ``route.ship`` ``ships(route)``); nothing when none does."""
        found = []
        for name, sig in self.vocab.natives.items():
            required = [p for p in sig.params if not p.optional and p.default is None]
            if not sig.params or len(required) > 1:
                continue
            words = name.split("_")
            exact = name in (attr, f"{attr}s", f"has_{attr}", f"is_{attr}")
            if exact or attr in words or f"{attr}s" in words:
                # Of several, the one about the value first: `line.bonus` is bonus_between
                # ("... a ley line's two Menhirs") before area_bonus ("... an area's sections").
                about = what in words or what in re.findall(r"[a-z]+", sig.doc.lower())
                found.append((0 if exact else 1, 0 if about else 1, name, sig.doc))
        found.sort()
        return tuple(
            f"'{what}' is not a card of a kind; ask the game: {name}({what}) ({doc})"
            for _rank, _about, name, doc in found[:3]
        )

    def member(self, node: Attribute, scope: _Scope) -> tuple[IR, str]:
        """``place.stars`` (a property of the card's kind) or ``place.discovery`` (one of its
        tags, true or false): typed, so a misspelt or missing member is an error here rather
        than an AttributeError in play."""
        errors = len(self.diagnostics)
        value, _typ = self.expr(node.value, scope)
        kind_name = self.card_kind_of(node.value, scope)
        fallback = ({"kind": "attr", "value": value, "attr": node.attr}, "any")
        if len(self.diagnostics) > errors and kind_name is None:
            # 'plce.region': the name is the error already told, not its members ("'0' has
            # no members the checker knows").
            return fallback
        if kind_name is None and self.may_be_card(value, _typ, scope):
            found = self.member_of_any_kind(node, value)
            if found is not None:
                return found
        if kind_name is None or kind_name not in self.vocab.kinds:
            what = describe_expr(value)
            hints: tuple[str, ...] = ("only a card has members: its properties and tags",)
            if scope.trigger is not None and what in scope.trigger.params:
                hints = (
                    f"say which kind of card '{what}' is in game.cards: "
                    f"trigger {scope.trigger.name} {{ param {what} KIND }}",
                )
            elif self.may_be_card(value, _typ, scope) and self.vocab.kinds:
                # `choose picked in hand { ... picked.sut ... }`: an item of a list is read as
                # a card of any kind (member_of_any_kind), and no kind has this member. Unless
                # the item may be no card at all and the game has the question as a native: a
                # Ley line of `new_ley_lines(placed)` (a list of anything) is no card, and
                # `line.bonus` is bonus_between(line), as below.
                known = sorted(
                    {m for k in self.vocab.kinds.values() for m in [*k.properties, *k.tags]}
                )
                close = did_you_mean(node.attr, known)
                if close or not self.natives_asking(node.attr, what):
                    self.error(
                        "member-unknown",
                        f"no kind of card of this game has a property or tag '{node.attr}'",
                        node.span,
                        *(close or (f"the cards' properties and tags: {_some(known)}",)),
                    )
                    return fallback
            asking = self.natives_asking(node.attr, what)
            if asking:
                # Land vs Sea's `placed.menhir`: 'placed' is a place on the board, not a card
                # of a kind, and the game already has the question as a native
                # (`has_menhir(placed)`); a `param placed KIND` would be the wrong fix.
                hints = asking
            self.error(
                "member-unknown", f"'{what}' has no members the checker knows", node.span, *hints
            )
            return fallback
        kind = self.vocab.kinds[kind_name]
        if node.attr in kind.tags:
            return {"kind": "attr", "value": value, "attr": node.attr, "tag": True}, "bool"
        prop = kind.properties.get(node.attr)
        if prop is None or prop.type in ("condition", "formula"):
            known = [*kind.properties, *kind.tags]
            self.error(
                "member-unknown",
                f"{with_article(kind.name)} has no property or tag '{node.attr}'"
                if prop is None
                else f"'{node.attr}' is a formula of {kind.name}, not a value",
                node.span,
                *(
                    did_you_mean(node.attr, known)
                    or (f"{kind.name}: {', '.join(sorted(known)) or 'no members'}",)
                ),
            )
            return fallback
        typ = {"number": "number", "bool": "bool", "text": "text", "name": "name"}.get(
            prop.type, "any"
        )
        return {"kind": "attr", "value": value, "attr": node.attr, "type": typ}, typ

    def may_be_card(self, value: IR, typ: str, scope: _Scope) -> bool:
        """Whether a value of no kind the checker knows may still be a card whose members a
        card reads: an item of a list (``choose picked in hand``, ``for each b in
        market_cards(shop)``), a ``let`` or a parameter of no narrower type, what a native
        returns as a card. A trigger's param is not: its declaration says its kind."""
        if value.get("kind") == "local":
            return scope.locals.get(str(value["name"])) in ("any", "card")
        return value.get("kind") == "call" and typ in ("card", "any")

    def member_of_any_kind(self, node: Attribute, value: IR) -> tuple[IR, str] | None:
        """``picked.suit`` of a card of no known kind (a zone's, a list native's): a property or
        tag some kind of card of the game declares, typed as those kinds type it (a card of
        another kind reads the type's zero, as an optional property it leaves out). None when
        no kind has it (the caller's error then says so)."""
        kinds = [k for k in self.vocab.kinds.values() if node.attr in k.properties]
        tagged = [k for k in self.vocab.kinds.values() if node.attr in k.tags]
        if tagged and not kinds:
            return {"kind": "attr", "value": value, "attr": node.attr, "tag": True}, "bool"
        props = [k.properties[node.attr] for k in kinds]
        if not props or any(p.type in ("condition", "formula") for p in props):
            return None
        types = {
            {"number": "number", "bool": "bool", "text": "text", "name": "name"}.get(p.type, "any")
            for p in props
        }
        typ = types.pop() if len(types) == 1 else "any"
        return {"kind": "attr", "value": value, "attr": node.attr, "type": typ}, typ

    def name(self, node: Name, scope: _Scope) -> tuple[IR, str]:
        v = self.vocab
        ident = node.id
        window = scope.windows.get(ident)
        if window is not None:
            # `fire pirate_raid with damage ... { mark durability damage }`: the window's own.
            return {"kind": "quantity", "name": ident, "window": window}, "number"
        if ident in scope.locals:
            return {"kind": "local", "name": ident}, scope.locals[ident]
        trigger = scope.trigger
        if trigger is not None:
            if ident in trigger.params:
                return {"kind": "event", "name": ident}, "any"
            if ident in trigger.quantities:
                return {"kind": "quantity", "name": ident}, "number"
        if ident in v.counters:
            return {"kind": "counter", "name": ident}, "number"
        if ident in v.params:
            return {"kind": "param", "name": ident}, "number"
        if ident in v.builtins:
            if ident == "self" and scope.card == FLOW_SCOPE:
                self.error(
                    "self-in-flow",
                    "the flow is no card, so 'self' means nothing here",
                    node.span,
                    "name the card, or let a card's own trigger do this (fire TRIGGER)",
                )
            return {"kind": "builtin", "name": ident}, v.builtins[ident].returns or "any"
        if ident in v.symbols:
            return {"kind": "symbol", "name": ident}, "name"
        if ident in self.cards:
            return {"kind": "card", "id": ident}, "card"
        if ident in v.kinds:
            # A kind's name is every card of that kind, in the order of the sources: what a
            # card that looks over a whole kind goes through (`for each site in campsite`).
            # (Iterating the names, not .items(): a file's cached check then depends on them all.)
            ids = [card for card in self.cards if self.cards[card].kind == ident]
            items = [{"kind": "card", "id": card} for card in ids]
            return {"kind": "list", "items": items, "of_kind": ident}, "list"
        pool = [*scope.locals, *v.counters, *v.params, *v.builtins, *v.symbols, *self.cards]
        if trigger is not None:
            pool += [*trigger.params, *trigger.quantities]
        hints = self._misplaced_name(ident, trigger) or did_you_mean(ident, pool)
        if not hints and ident in v.tracks:
            hints = self._track_read(ident)
        elif not hints and ident in v.verbs:
            hints = (f"'{ident}' is a verb; use it as a statement",)
        elif not hints and ident in v.zones:
            # `tiebreak hand`, `gain coins hand`: the hint spoke of triggers' names.
            hints = (
                f"'{ident}' is a zone, not a number: count({ident}) is how many cards it holds",
            )
        elif not hints and trigger is None and scope.card == FLOW_SCOPE:
            hints = ("the flow reads counters, params and its loops' names; no trigger's",)
        elif not hints and trigger is None:
            hints = ("this rule has no trigger, so trigger names are not in scope",)
        elif not hints and trigger is not None:
            seen = ", ".join([*trigger.params, *trigger.quantities])
            # A trigger that gives no names still has the player the card acts for: say so,
            # since a name like 'scorer' is most often a flow loop's, out of reach here.
            hints = (
                (f"'on {trigger.name}' gives: {seen}",)
                if seen
                else (
                    f"'on {trigger.name}' gives no names of its own; the player the card "
                    "acts for is 'player', the card itself 'self'",
                )
            )
        self.error("name-undefined", f"'{ident}' is not defined here", node.span, *hints)
        return {"kind": "num", "value": 0}, "any"

    def _track_read(self, ident: str) -> tuple[str, ...]:
        """The hint for a track read as a value ('if durability >= 3'): a track is boxes, not
        a number, so what reads it is the counters module's marked() (said with the 'use'
        that brings it in when the game has not), and what changes it is 'mark'. The hint
        said only "mark it with: mark durability 1", which reads nothing."""
        reads = f"marked({ident}) is how many of its boxes are marked"
        if "marked" not in self.vocab.natives:
            reads += (
                " (the standard library's counters module: add 'use counters' to the game"
                " block in game.cards)"
            )
        return (f"'{ident}' is a track: {reads}; mark {ident} 1 marks one",)

    def _kind_as_amount(self, sig: Signature, ident: str) -> tuple[str, ...]:
        """A hint for a kind of card given to a verb of counters ('gain port_card 1'): the
        game's verb of that name ('gain_port_card'), or the zone its cards are drawn into."""
        v = self.vocab
        if ident not in v.kinds:
            return ()
        verb = f"{sig.name}_{ident}"
        if verb in v.verbs:
            return (f"'{ident}' is a kind of card, not a counter: did you mean the verb '{verb}'?",)
        zones = [z for z in v.zones if z in (ident, f"{ident}s")]
        if zones:
            return (
                f"'{ident}' is a kind of card, not a counter: its cards are drawn into a zone "
                f"(draw {zones[0]} 1)",
            )
        return ()

    def _quantity_trigger(self, ident: str) -> str | None:
        """The first trigger whose window has the quantity ``ident``, or None."""
        return next((t.name for t in self.vocab.triggers.values() if ident in t.quantities), None)

    def _quantity_owners(self, ident: str) -> str:
        """The triggers whose windows have the quantity ``ident``, in words ("'facing'"), or
        "" when none has it."""
        return " and ".join(
            f"'{t.name}'" for t in self.vocab.triggers.values() if ident in t.quantities
        )

    def _misplaced_name(self, ident: str, trigger: TriggerDecl | None) -> tuple[str, ...]:
        """A hint for a name that is something of the game, written where a value goes: a
        native without its brackets ('if docked' for 'docked()'), a tag of a kind of card
        ('place == discovery' for 'place.discovery'), "this" for the card itself ('self')."""
        v = self.vocab
        native = v.natives.get(ident)
        if native is not None:
            args = ", ".join(p.name.upper() for p in native.params)
            return (f"'{ident}' is a native: call it, {ident}({args})",)
        kinds = sorted(k.name for k in v.kinds.values() if ident in k.tags)
        if kinds:
            params = [
                p
                for p, kind in (trigger.param_kinds if trigger is not None else ())
                if kind in kinds
            ]
            test = f"{params[0]}.{ident}" if params else f"CARD.{ident}"
            return (f"'{ident}' is a tag of {', '.join(kinds)}: test a card for it as {test}",)
        owners = self._quantity_owners(ident)
        if owners:
            # A quantity read outside its window (heroism_difficulty in 'on defeated'): "did
            # you mean 'heroism'?" sent the designer to another value.
            return (
                f"'{ident}' is a quantity of {owners}: read it in an "
                f"'on {self._quantity_trigger(ident)}' block, while that window is open",
            )
        if ident in ("this", "this_card", "me", "itself"):
            return ("the card itself is 'self' (discard self)",)
        if ident in ("none", "null", "nil", "nothing"):
            # 'none' is a value only compared with a card's optional property ('card.bonus ==
            # none') or a native's card, name or player (Darwin's Journey's pirate_region() is
            # none while the Pirate Ship is in the supply): anywhere else, it is no value.
            tests = sorted(n for n, f in v.natives.items() if f.returns == "bool")
            listed = f"; yes/no natives: {_some(tests)}" if tests else ""
            return (
                f"'{ident}' is no value here: 'none' is compared only with a card's optional "
                f"property (card.bonus == none) or what a native returning a card, name or "
                f"player gives (top_card() == none); anything else, test it with a yes/no "
                f"native{listed}",
            )
        return ()

    def call(self, node: Call, scope: _Scope) -> tuple[IR, str]:
        sig = self.vocab.natives.get(node.func)
        if sig is None and node.func in self.vocab.unsigned:
            # Its definition's signature is the error, at its line.
            return {"kind": "num", "value": 0}, "any"
        if sig is None:
            hint = with_described(
                did_you_mean(node.func, self.vocab.natives),
                node.func,
                {n: f.doc for n, f in self.vocab.natives.items()},
            )
            verb = self.vocab.verbs.get(node.func)
            if verb is not None:
                # A verb of that very name beats a native that is merely close to it.
                hint = (f"'{node.func}' is a verb: write it as a statement, '{node.func} ...'",)
                if verb.returns == "bool":
                    hint += (f"it answers yes or no as a condition: if {node.func} ... {{ }}",)
            hint = (
                hint
                or _library_hint(node.func, "native")
                or sharing_a_word(node.func, self.vocab.natives)
                or did_you_mean(node.func, self.vocab.natives, loose=True)
            )
            self.error(
                "native-undefined",
                f"'{node.func}' is not a native of this game",
                node.span,
                *(
                    hint
                    or (
                        f'declare it in game.cards: native {node.func} "what it gives" '
                        "{ returns number }",
                    )
                ),
            )
            return {"kind": "num", "value": 0}, "any"
        if len(node.args) > len(sig.params):
            self.error(
                "arity",
                f"'{sig.name}' takes {len(sig.params)} arguments, {len(node.args)} given",
                node.span,
                f"usage: {sig.usage()}",
            )
        args = []
        for slot, param in enumerate(sig.params):
            if slot < len(node.args):
                args.append(self.arg(sig, slot, node.args[slot], scope))
            elif param.default is not None:
                args.append({"kind": "num", "value": param.default})
            elif param.optional:
                args.append(None)
            else:
                self.error(
                    "arity",
                    f"'{sig.name}' is missing its {param.name.upper()} ({param.type})",
                    node.span,
                    f"usage: {sig.usage()}",
                )
                args.append(None)
        call: IR = {"kind": "call", "native": sig.name, "origin": sig.origin, "args": args}
        if sig.board_flag is not None:
            call["board_flag"] = sig.board_flag
        if sig.player_flag is not None:
            call["player_flag"] = sig.player_flag
        return call, sig.returns or "any"


def _param_words(sig: Signature, slot: int) -> str:
    """A parameter as the usage hint names it: ``the AMOUNT of 'gain'``."""
    return f"the {sig.params[slot].name.upper()} of '{sig.name}'"


#: How many names a hint lists before it says how many more there are.
_LISTED = 12


def _some(names: list[str]) -> str:
    """``names`` for a hint, the first few when there are many: a game's cards are hundreds
    (Uncharted Passage's map spaces are cards), and a hint of every one is a wall of text."""
    if len(names) <= _LISTED:
        return ", ".join(names)
    return f"{', '.join(names[:_LISTED])} ... ({len(names)} in all)"


def _sorts(named: tuple[tuple[str, str | None], ...]) -> str:
    """What a ``names`` line allows, in words: "a space tagged port or a region"."""
    said = [with_article(what) + (f" tagged {tag}" if tag else "") for what, tag in named]
    return " or ".join([", ".join(said[:-1]), said[-1]] if len(said) > 2 else said)


def _words(typ: str) -> str:
    return {"card_name": "card", "name": "symbol", "target": "counter or quantity"}.get(typ, typ)


#: The types of value that may be none: what a native declared ``returns card`` (``card_name``,
#: ``name``, ``player``) gives when there is none, and a value of no declared type.
_MAYBE_NONE = frozenset({"card", "card_name", "name", "player", "any"})

#: What a value of each type is written as, for the hint of a type mismatch.
_TYPE_HINTS = {
    "bool": "a yes/no test is a comparison or a yes/no native, such as coins >= 2",
    "number": "a number is written as 2, a counter's or parameter's name, or arithmetic of them",
    "text": 'a string is written in quotes: "..."',
    "name": "a symbol is a name game.cards declares (symbol NAME), written unquoted",
    "card": "a card is named by its id (the title in lower case, words joined by _), or self",
    "player": "a player is 'player' (the one the rule acts for) or a loop's name over players",
    "list": "a list is players, or a native that returns a list",
}


def _article(typ: str) -> str:
    word = {
        "bool": "a yes/no test",
        "number": "a number",
        "text": "a string",
        "name": "a symbol",
        "card": "a card",
        "player": "a player",
        "list": "a list",
        "dice": "dice",
    }.get(typ)
    return word or with_article(typ)


# ---- IR back to words, for questions and card text ---------------------------------------------


#: How tightly each operator binds, as the grammar reads them (higher binds tighter).
_RANKS = {"or": 1, "and": 2, "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}
_NOT_RANK = 3
_COMPARE_RANK = 4


def _rank(expr: IR) -> int | None:
    """How tightly an expression's own operator binds; None for one without an operator."""
    kind = expr.get("kind")
    if kind == "compare":
        return _COMPARE_RANK
    if kind in ("binary", "logic"):
        return _RANKS.get(str(expr.get("op")), _COMPARE_RANK)
    if kind == "not":
        return _NOT_RANK
    return None


def _operand(expr: IR, rank: int | None, right: bool) -> str:
    """``expr`` as an operand of an operator binding ``rank`` tightly, bracketed if needed."""
    text = describe_expr(expr)
    own = _rank(expr)
    if rank is None or own is None:
        return text
    # A comparison of a comparison needs its brackets on either side: the grammar has no
    # "a < b < c".
    same = own == rank and expr.get("kind") != "not"
    if own < rank or (same and (right or rank == _COMPARE_RANK)):
        return f"({text})"
    return text


def _dotted(node: Any) -> str:
    """A name or a member access as written (``card.bonus``); "..." for anything else."""
    if isinstance(node, Name):
        return node.id
    if isinstance(node, Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return "..."


def describe_expr(expr: IR | None) -> str:
    """An expression in the DSL's own words (used in questions a policy is asked)."""
    if expr is None:
        return ""
    kind = expr["kind"]
    if kind in ("num", "bool"):
        value = expr["value"]
        return str(value).lower() if isinstance(value, bool) else str(value)
    if kind == "text":
        return repr(expr["value"])
    if kind in ("counter", "quantity", "param", "builtin", "symbol", "local", "event", "ref"):
        return str(expr["name"])
    if kind == "card":
        return str(expr["id"])
    if kind in ("roll", "dice"):
        return f"{expr['count']}d{expr['sides']}"
    if kind == "binary" or kind == "compare" or kind == "logic":
        rank = _rank(expr)
        # A part binding less tightly than its operator keeps the brackets the source needed
        # ("2 * (a + b)", "x and (y or z)"); on the right, an equal one too ("a - (b - c)").
        left = _operand(expr["left"], rank, False)
        right = _operand(expr["right"], rank, True)
        return f"{left} {expr['op']} {right}"
    if kind == "not":
        return f"not {_operand(expr['operand'], _NOT_RANK, False)}"
    if kind == "call":
        return f"{expr['native']}({', '.join(describe_expr(a) for a in expr['args'] if a)})"
    if kind == "verb_test":
        return " ".join([expr["verb"], *(describe_expr(a) for a in expr["args"] if a)])
    if kind == "list":
        if expr.get("of_kind"):
            return str(expr["of_kind"])
        return "[" + ", ".join(describe_expr(i) for i in expr["items"]) + "]"
    if kind == "range":
        return f"{describe_expr(expr['low'])}..{describe_expr(expr['high'])}"
    if kind == "attr":
        return f"{describe_expr(expr['value'])}.{expr['attr']}"
    if kind == "none":
        return "none"
    if kind == "zone_cards":
        return str(expr["zone"])
    return kind


def _first_verbs(body: list[IR]) -> list[str]:
    """The verbs of a block in order, looking into nested blocks (``may { if ... { pay } }``)."""
    out: list[str] = []
    for stmt in body:
        if stmt["kind"] == "verb":
            out.append(stmt["verb"])
        for key in ("then", "else", "body"):
            if isinstance(stmt.get(key), list):
                out.extend(_first_verbs(stmt[key]))
        for option in stmt.get("options") or []:
            out.extend(_first_verbs(option))
    return out


def _lists_players(over: IR) -> bool:
    """True when a loop's list is a standard-library native's list of players (``most_of``):
    its body then acts as each player, as over ``players`` ("the players with the most silk
    score 1" scores each of them, not the player the loop runs for)."""
    origin = over.get("origin")
    if over.get("kind") != "call" or not isinstance(origin, str):
        return False
    if not origin.startswith("stdlib."):
        return False
    from engine.stdlib import spec

    found = spec(over["native"])
    return found is not None and found.items == "player"


def _library_hint(name: str, kind: str) -> tuple[str, ...]:
    """The standard library's module holding ``name`` as a ``kind`` (verb or native), as the
    hint to ``use`` it; () when the library has none. Imported only on this error."""
    from engine.stdlib import spec

    found = spec(name)
    if found is None or found.kind != kind:
        return ()
    return (
        f"'{name}' is in the standard library's {found.module} module: add 'use "
        f"{found.module}' to the game block in game.cards (a variant: use: [{found.module}])",
    )


def describe_stmt(stmt: IR) -> str:
    """A statement in the DSL's own words, on one line."""
    kind = stmt["kind"]
    if kind == "verb":
        # `pay coins 2 else lose victory_points missing`: the fallback is part of the rule.
        if stmt.get("else"):
            return f"{stmt['say']} else {describe_block(stmt['else'])}"
        return str(stmt["say"])
    if kind == "let":
        return f"let {stmt['name']} {describe_expr(stmt['value'])}"
    if kind == "if":
        return f"if {describe_expr(stmt['cond'])} {{ {describe_block(stmt['then'])} }}"
    if kind == "may":
        return f"may {{ {describe_block(stmt['body'])} }}"
    if kind == "for_each":
        head = f"for each {stmt['var']} in {describe_expr(stmt['over'])}"
        return f"{head}{describe_order(stmt)} {{ ... }}"
    if kind == "repeat":
        return f"repeat {describe_expr(stmt['count'])} {{ {describe_block(stmt['body'])} }}"
    if kind == "choose_from":
        head = f"choose {stmt['var']} in {describe_expr(stmt['over'])}"
        if stmt.get("where") is not None:
            head += f" where {describe_expr(stmt['where'])}"
        return f"{head} {{ {describe_block(stmt['body'])} }}"
    if kind == "choose":
        return "choose one of { " + " | ".join(describe_block(o) for o in stmt["options"]) + " }"
    if kind == "group":
        return describe_block(stmt["body"])
    if kind == "window":
        given = ", ".join(f"{q['name']} {describe_expr(q['value'])}" for q in stmt["quantities"])
        head = f"fire {stmt['trigger']}" + (f" with {given}" if given else "")
        return f"{head} {{ {describe_block(stmt['body'])} }}" if stmt["body"] else head
    return kind


def describe_order(stmt: IR) -> str:
    """`` by KEY [descending], ...`` of a ``for_each``'s IR; empty without one."""
    keys = stmt.get("order") or []
    if not keys:
        return ""
    return " by " + ", ".join(
        describe_expr(k["key"]) + (" descending" if k["descending"] else "") for k in keys
    )


def say(sig: Signature, args: list[IR | None]) -> str:
    """A verb call in the DSL's words, marker words included: ``reduce damage up_to 2``."""
    words = [sig.name]
    for param, arg in zip(sig.params, args, strict=True):
        if arg is None:
            continue
        if param.marker:
            words.append(param.marker)
        words.append(describe_expr(arg))
    return " ".join(words)


def _annotation(stmt: Any, name: str) -> tuple[Annotation, str] | None:
    """A statement's first ``@name(...)`` and its string argument ("" when it has none)."""
    for note in getattr(stmt, "annotations", ()):
        if note.name == name:
            return note, _note_text(note)
    return None


def _note_text(note: Annotation) -> str:
    """An annotation's string argument: ``@label("use")`` -> "use"; "" without one."""
    return note.args[0].value if note.args and isinstance(note.args[0], String) else ""


#: DSL operators and words as a question says them (plain_words).
_PLAIN = (
    (re.compile(r"\bup_to\b"), "up to"),
    (re.compile(r"\bself\b"), "this card"),
    (re.compile(r"\s*==\s*"), " is "),
    (re.compile(r"\s*!=\s*"), " is not "),
    (re.compile(r"\s*>=\s*"), " is at least "),
    (re.compile(r"\s*<=\s*"), " is at most "),
    (re.compile(r"\s+>\s+"), " is more than "),
    (re.compile(r"\s+<\s+"), " is less than "),
    (re.compile(r"\s+%\s+"), " modulo "),
    (re.compile(r"(\w+)\(\)"), r"\1"),
    (re.compile(r"(\w+)\(([^()]*)\)"), r"\1 \2"),
    (re.compile(r"_"), " "),
)


def plain_words(text: str) -> str:
    """DSL words as a player reads them in a question: names spelt out (``pirate power``),
    ``self`` as "this card", operators as words."""
    for pattern, words in _PLAIN:
        text = pattern.sub(words, text)
    return " ".join(text.split())


def describe_block(body: list[IR]) -> str:
    """Statements in the DSL's own words, joined by '; '."""
    return "; ".join(describe_stmt(s) for s in body)


def check_game(
    vocab: Vocabulary,
    files: list[SourceFile],
    diagnostics: list[Diagnostic],
    context: Declaration | None = None,
) -> CheckedGame:
    """Check and lower the card declarations of ``files`` (the game declaration excluded).

    With ``context`` (the game declaration the vocabulary was read from), each file's checked
    cards are kept and reused while they hold (compiler.filecache); cards reused so carry no
    spans in ``spans``.
    """
    from compiler.definitions import register

    definitions = register(vocab, files, diagnostics)
    if vocab.game:
        from compiler.implementations import prove

        prove(vocab, diagnostics)
    checker = Checker(vocab, diagnostics)
    declarations = [
        decl
        for source in files
        for decl in source.declarations
        if not (decl.kind == "game" and vocab.span is not None and decl.span == vocab.span)
    ]
    if context is not None:
        from compiler.filecache import check_files

        skipped = {id(d) for s in files for d in s.declarations} - {id(d) for d in declarations}
        game_decls = [d for s in files for d in s.declarations if id(d) in skipped]
        # The DSL verbs and functions of every file join the vocabulary: part of the context.
        body = check_files(checker, files, (context, tuple(definitions)), game_decls, definitions)
    else:
        body = checker.check(declarations, definitions)
    ir: IR = {
        "cardc_ir": 1,
        "game": vocab.game,
        "title": vocab.title,
        "variant": None,
        "vocabulary": vocab.to_ir(),
        "cards": body["cards"],
        "provisional": body["provisional"],
    }
    if "definitions" in body:
        ir["definitions"] = body["definitions"]
    from compiler.flow import lower_flow

    flow = lower_flow(checker, files)
    if flow is not None:
        ir["flow"] = flow
    return CheckedGame(ir, checker.spans, diagnostics)


#: The items an annotation's ``what`` names as they are (anything else is a property's name,
#: or ``on EVENT`` for a trigger).
_NOTE_KINDS = ("card", "statement", "flow", "section", "setting", "phase", "verb", "function")


def _note_kind(what: str, name: str) -> tuple[str, str]:
    """(kind, name) of a provisional note from the ``what`` the checker passes around."""
    if what in _NOTE_KINDS:
        return what, name
    if what.startswith("on "):
        return "trigger", what[3:]
    return "property", what


def _whole_last_word(name: str, kinds: Iterable[str]) -> tuple[str, ...]:
    """A hint naming the kinds whose last words are ``name``: a card written the way a
    rulebook shortens its kind ("your Leader") is told the whole (``leader``:
    ``expedition_leader``)."""
    found = sorted(k for k in kinds if k.endswith("_" + name))
    if not found:
        return ()
    return ("did you mean " + " or ".join(f"'{k}'" for k in found) + "?",)


def _clause_hint(
    said: str, prop: str, heads: tuple[str, ...], siblings: tuple[str, ...]
) -> tuple[str, ...]:
    """The hint for a clause that begins with a word its property does not read: the closest
    of its clauses; else another property of the kind whose name holds the word (Land vs Sea's
    ``face_b_icons bonus 2``: bonus points are ``face_b_bonus``; ``sea_icons city``: a special
    tile's City is its ``city`` property), the closest name first; else a clause to write."""
    close = did_you_mean(said, heads)
    if close:
        return close
    elsewhere = sorted(
        (other for other in siblings if other != prop and said in other.split("_")),
        key=lambda other: -len(commonprefix([other, prop])),
    )
    if elsewhere:
        return (f"is it the property '{elsewhere[0]}'? write: {elsewhere[0]} ...",)
    return (f"write: {prop} {heads[0]} ...",)


def _param_ir(param: Any) -> IR:
    """A DSL definition's parameter in the IR: its name and type, and its number default when
    it has one, so the generated function takes it too. A redefinition "may add parameters at
    the end that have a default, which the existing calls leave at the default" (README): the
    game's own Python calls the verb as the base declared it (Uncharted Passage's
    ``run_verb("reward", player, stars, dice, anchors)``), without the new argument."""
    out: IR = {"name": param.name, "type": param.type}
    if isinstance(param.default, Number) and param.type in ("number", "any"):
        out["default"] = param.default.value
    return out
