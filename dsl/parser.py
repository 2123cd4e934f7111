"""Parse ``.cards`` text into the AST, with syntax errors people can act on.

The pipeline inside is: the lexer (lark's terminals from ``grammar.lark``, run by :func:`_lex`)
-> :func:`_prepare`, which drops the newlines that cannot end an item, turns the grammar's error
terminals into diagnostics and enforces the nesting limits -> lark's LALR(1) table, run by
:func:`_parse_tokens`, which calls :class:`_Builder` to build frozen AST nodes as it reduces (no
parse tree in between, and no recursion, so deep input cannot overflow the Python stack). lark
builds the lexer and the table; dsl.parser runs them itself, several times faster than lark's own
loops (see ``bench/parse.py``).

When the fast path fails, :func:`_recover` repairs unclosed blocks by indentation, splits the file
into its top-level declarations and reparses each, dropping one broken line at a time, so one run
reports every error it can recover to.
"""

from __future__ import annotations

import functools
import gc
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import LexerThread
from lark.parsers.lalr_analysis import Shift
from lark.parsers.lalr_parser_state import ParseConf, ParserState

from dsl.diagnostics import NOT_UTF8_HINT, Diagnostic, file_span, not_utf8
from dsl.grammar_cache import load_lark
from dsl.nodes import (
    Annotation,
    Attribute,
    BinaryOp,
    Boolean,
    BoolOp,
    Call,
    ChooseFrom,
    ChooseOne,
    Clauses,
    Command,
    Compare,
    Declaration,
    Dice,
    Flow,
    FlowSection,
    FlowSetting,
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
    ParamDef,
    Percent,
    Phase,
    Property,
    Range,
    Repeat,
    SourceFile,
    Span,
    String,
    Trigger,
    Unless,
    VerbDef,
    Window,
)

#: The largest number a card may hold: beyond it a float is no longer exact (2**53 - 1), and
#: a 300-digit literal would read as infinity. Larger is a typo.
LARGEST_NUMBER = 2**53 - 1


def _number_value(text: str) -> int | float | None:
    """The value of a number literal's text, or None when it is past LARGEST_NUMBER.

    The digits are counted before converting: Python refuses to convert an integer of more
    than 4,300 digits (ValueError), and a literal that long is a typo anyway.
    """
    whole = text.lstrip("-").split(".")[0].lstrip("0")
    if len(whole) > len(str(LARGEST_NUMBER)):
        return None
    value = float(text) if "." in text else int(text)
    return value if -LARGEST_NUMBER <= value <= LARGEST_NUMBER else None


GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")

#: Deepest nesting of braces, brackets and parentheses a file may have.
MAX_NESTING = 64
#: Most operators one item may hold; real rules use a handful.
MAX_OPERATORS = 256
#: Longest line accepted; a longer one is almost surely not a card file.
MAX_LINE_LENGTH = 10_000
#: Most syntax errors reported for one file before giving up on it.
MAX_ERRORS_PER_FILE = 50

KEYWORDS = frozenset(
    "on if unless else for in where may choose repeat and or not true false verb function".split()
)

# Tokens after which a newline cannot end an item: the item obviously goes on.
_CONTINUES = frozenset(
    "LBRACE LPAR LSQB CALL COMMA ADD_OP MUL_OP COMP_OP AND OR NOT DOTDOT DOT ELSE IN WHERE"
    " EQUALS".split()
)
_OPENERS = {"LBRACE": "RBRACE", "LPAR": "RPAR", "CALL": "RPAR", "LSQB": "RSQB"}
_OPERATORS = frozenset("ADD_OP MUL_OP COMP_OP AND OR NOT DOTDOT DOT".split())
#: Items that may hold '=': definitions of verbs and functions.
_DEFINES = frozenset(("VERB", "FUNCTION"))


class _SyntaxLimit(Exception):
    """Raised by :func:`_prepare` when input passes a hard limit; the file is not parsed."""

    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


@dataclass(frozen=True, slots=True)
class ParseResult:
    """A parsed file and the diagnostics found while reading and parsing it."""

    file: SourceFile
    diagnostics: tuple[Diagnostic, ...]
    text: str | None

    @property
    def ok(self) -> bool:
        """True when no diagnostic is an error."""
        return not any(d.severity == "error" for d in self.diagnostics)


_F = TypeVar("_F", bound=Callable[..., Any])


def _collector_paused(function: _F) -> _F:
    """Run ``function`` with Python's cyclic garbage collector paused.

    A parse allocates some 90 objects per card (tokens, spans, nodes, tuples) and keeps most
    of them. The collector would rescan the growing tree again and again -- about 40% of the
    time of a 10,000-card parse -- and could free nothing: a parse that succeeds builds no
    reference cycle, and reference counting frees what it drops (the few exceptions of error
    recovery are collected once the collector resumes). It is resumed on the way out,
    exception or not, and left alone if it was already off.
    """

    @functools.wraps(function)
    def paused(*args: Any, **kwargs: Any) -> Any:
        if not gc.isenabled():
            return function(*args, **kwargs)
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            gc.enable()

    return paused  # type: ignore[return-value]


# ---- spans ---------------------------------------------------------------------------------


def _tok_span(path: str, tok: Token) -> Span:
    return Span(path, tok.line or 1, tok.column or 1, tok.end_line or 1, tok.end_column or 1)


def _start(item: Any) -> tuple[int, int]:
    if isinstance(item, tuple):
        item = item[0]
    elif isinstance(item, _Block):
        item = item.lbrace
    if isinstance(item, Token):
        return item.line or 1, item.column or 1
    span = item.span
    return span.line, span.column


def _end(item: Any) -> tuple[int, int]:
    if isinstance(item, tuple):
        item = item[-1]
    elif isinstance(item, _Block):
        item = item.rbrace
    if isinstance(item, Token):
        return item.end_line or 1, item.end_column or 1
    span = item.span
    return span.end_line, span.end_column


@dataclass(frozen=True, slots=True)
class _Block:
    """A braced block while it is being built: its items and its braces."""

    items: tuple[Any, ...]
    lbrace: Token
    rbrace: Token


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r", "0": "\0"}
_ESCAPE_RE = re.compile(r"\\(u\{[0-9A-Fa-f]{1,6}\}|.)")


class _Builder:
    """Builds AST nodes from LALR reductions, as :func:`_parse_tokens` makes them: no tree is kept.

    Method names are grammar rule names. ``path`` is set before each parse; problems that
    are not grammar errors (``choose one of`` misspelt, a bad escape) go to ``diagnostics``.
    """

    def __init__(self) -> None:
        self.path = "<text>"
        self.diagnostics: list[Diagnostic] = []

    def _span(self, first: Any, last: Any) -> Span:
        line, column = _start(first)
        end_line, end_column = _end(last)
        return Span(self.path, line, column, end_line, end_column)

    def _error(self, code: str, message: str, where: Any, *hints: str) -> None:
        span = where if isinstance(where, Span) else self._span(where, where)
        self.diagnostics.append(Diagnostic(code, message, span, "error", hints))

    # -- declarations

    def start(self, children: list[Any]) -> tuple[Declaration, ...]:
        return tuple(c for c in children if c is not None)

    # The methods below run once per node, so they are written for speed: spans are built
    # inline from the first and last token or node (`or 1` as in _start and _end: a token made
    # up by error recovery may have no position), and children are taken by position (the
    # grammar, with maybe_placeholders, fixes where each one is).

    def bare_decl(self, children: list[Any]) -> Declaration:
        head = children[0]
        block = children[-1]
        end = block.rbrace
        return Declaration(
            Span(
                self.path, head.line or 1, head.column or 1, end.end_line or 1, end.end_column or 1
            ),
            head.value,
            tuple(children[1:-1]),
            block.items,
        )

    def decl(self, children: list[Any]) -> Any:
        return self._annotated(children)

    member = decl
    stmt = decl
    flow_item = decl
    phase = decl

    def _annotated(self, children: list[Any]) -> Any:
        node = next(c for c in children if not isinstance(c, Annotation))
        notes = tuple(c for c in children if isinstance(c, Annotation))
        return replace(node, annotations=node.annotations + notes)

    # -- verbs and functions written in the DSL

    def _params(self, children: list[Any]) -> tuple[ParamDef, ...]:
        return tuple(c for c in children if isinstance(c, ParamDef))

    def verb_def(self, children: list[Any]) -> VerbDef:
        # [VERB, CALL, param_def | None, ..., RPAR, STRING | None, block]
        keyword, head, block = children[0], children[1], children[-1]
        doc = children[-2]
        return VerbDef(
            self._span(keyword, block.rbrace),
            head.value[:-1],
            self._params(children),
            None if doc is None else self._unescape(doc),
            block.items,
        )

    def function_def(self, children: list[Any]) -> FunctionDef:
        # [FUNCTION, CALL, param_def | None, ..., RPAR, NAME, STRING | None, EQUALS, expr]
        keyword, head, body = children[0], children[1], children[-1]
        returns, doc = children[-4], children[-3]
        return FunctionDef(
            self._span(keyword, body),
            head.value[:-1],
            self._params(children),
            returns.value,
            None if doc is None else self._unescape(doc),
            body,
        )

    # -- the flow

    def flow_def(self, children: list[Any]) -> Flow:
        # [FLOW, STRING | None, LBRACE, item | None, ..., RBRACE]
        keyword, title, rbrace = children[0], children[1], children[-1]
        items = tuple(c for c in children[3:-1] if c is not None)
        return Flow(
            self._span(keyword, rbrace),
            None if title is None else self._unescape(title),
            items,
        )

    def flow_section(self, children: list[Any]) -> FlowSection:
        # [NAME, expr | None, block of phases]
        head, count, block = children
        return FlowSection(self._span(head, block.rbrace), head.value, count, block.items)

    def flow_setting(self, children: list[Any]) -> FlowSetting:
        # [NAME, clause, ...]
        head = children[0]
        clauses = tuple(children[1:])
        return FlowSetting(self._span(head, clauses[-1][-1]), head.value, clauses)

    def bare_phase(self, children: list[Any]) -> Phase:
        # [NAME ("phase"), NAME, STRING | None, block]
        keyword, name, title, block = children
        if keyword.value != "phase":
            self._error(
                "phase-expected",
                f"a flow section holds phases, not '{keyword.value}'",
                keyword,
                f"write: phase {name.value} {{ ... }}",
            )
        return Phase(
            self._span(keyword, block.rbrace),
            name.value,
            None if title is None else self._unescape(title),
            block.items,
        )

    def param_def(self, children: list[Any]) -> ParamDef:
        # [NAME, NAME, EQUALS | None, expr | None]
        name, typ, default = children[0], children[1], children[-1]
        last = default if default is not None else typ
        return ParamDef(self._span(name, last), name.value, typ.value, default)

    def member_block(self, children: list[Any]) -> _Block:
        # [LBRACE, None, RBRACE] when empty, else [LBRACE, item, ..., RBRACE]
        items = children[1:-1]
        return _Block(() if items[0] is None else tuple(items), children[0], children[-1])

    effect_block = member_block
    phase_block = member_block

    def property(self, children: list[Any]) -> Property:
        head = children[0]
        last = children[-1]
        if type(last) is _Block:
            end = last.rbrace
            return Property(
                Span(
                    self.path,
                    head.line or 1,
                    head.column or 1,
                    end.end_line or 1,
                    end.end_column or 1,
                ),
                head.value,
                tuple(children[1:-1]),
                last.items,
            )
        if last is head:
            return Property(
                Span(
                    self.path,
                    head.line or 1,
                    head.column or 1,
                    head.end_line or 1,
                    head.end_column or 1,
                ),
                head.value,
                (),
                None,
            )
        end = last[-1].span  # the last clause's last expression
        return Property(
            Span(
                self.path, head.line or 1, head.column or 1, end.end_line or 1, end.end_column or 1
            ),
            head.value,
            tuple(children[1:]),
            None,
        )

    def trigger(self, children: list[Any]) -> Trigger:
        keyword = children[0]
        block = children[-1]
        end = block.rbrace
        return Trigger(
            Span(
                self.path,
                keyword.line or 1,
                keyword.column or 1,
                end.end_line or 1,
                end.end_column or 1,
            ),
            children[1].value,
            tuple(children[2:-1]),
            block.items,
        )

    def annotation(self, children: list[Any]) -> Annotation:
        head = children[0]
        args = tuple(c for c in children[1:] if c is not None and not isinstance(c, Token))
        closing = [c for c in children if isinstance(c, Token) and c.type == "RPAR"]
        last = closing[-1] if closing else head
        return Annotation(self._span(head, last), str(head)[1:], args)

    def clause(self, children: list[Any]) -> tuple[Any, ...]:
        return tuple(children)

    # -- statements

    def command(self, children: list[Any]) -> Command | Window:
        # [NAME, clause..., ELSE, command] or [NAME, clause..., None, None]
        head = children[0]
        otherwise = children[-1]
        clauses = tuple(children[1:-2])
        if head.value == "fire" and _opens_window(clauses):
            # `fire pirate_raid with damage 3`: a window whose quantities nothing reads back.
            if otherwise is not None:
                self._error(
                    "else-on-verb",
                    "'fire' always succeeds, so 'else' never runs",
                    otherwise.span,
                    "'else' after a verb runs when it cannot be done in full "
                    "(verbs that return a shortfall or a bool)",
                )
            end = clauses[-1][-1].span
            span = Span(self.path, head.line or 1, head.column or 1, end.end_line, end.end_column)
            return self._window(span, clauses, (), False)
        if otherwise is not None:
            end = otherwise.span
        elif clauses:
            end = clauses[-1][-1].span
        else:
            end = head
        return Command(
            Span(
                self.path, head.line or 1, head.column or 1, end.end_line or 1, end.end_column or 1
            ),
            head.value,
            clauses,
            otherwise,
        )

    def window(self, children: list[Any]) -> Window | Group:
        # [NAME, clause, ..., block]: `fire TRIGGER [with QUANTITY VALUE, ...] { ... }`
        head, block = children[0], children[-1]
        span = self._span(head, block.rbrace)
        if head.value != "fire":
            self._error(
                "block-after-verb",
                f"'{head.value}' takes no block: only 'fire' does, to read a window's "
                "quantities back",
                self._span(head, head),
                "put the statements on lines of their own, or under 'if', 'may' or 'repeat'",
            )
            return Group(span, block.items)
        return self._window(span, tuple(children[1:-1]), block.items, True)

    def _window(self, span: Span, clauses: Clauses, body: tuple[Any, ...], block: bool) -> Window:
        """A Window from ``fire``'s clauses: ``TRIGGER with Q VALUE`` then ``Q VALUE`` each."""
        usage = "write: fire pirate_raid with damage amount + 1 { mark durability damage }"
        first = clauses[0]
        trigger = first[0]
        if not isinstance(trigger, Name):
            self._error(
                "fire-window", "'fire' names the trigger it opens first", trigger.span, usage
            )
            trigger = Name(trigger.span, "")
        rest: list[tuple[Any, ...]] = []
        if len(first) > 1:
            word = first[1]
            if not (isinstance(word, Name) and word.id == "with"):
                self._error(
                    "fire-window",
                    "expected 'with' after the trigger, then each quantity and its value",
                    word.span,
                    usage,
                )
            elif len(first) == 2:
                self._error(
                    "fire-window",
                    "'with' needs a quantity and its value after it",
                    word.span,
                    usage,
                )
            else:
                rest.append(first[2:])
        elif len(clauses) > 1:
            self._error(
                "fire-window",
                "expected 'with' after the trigger, then each quantity and its value",
                clauses[1][0].span,
                usage,
            )
        rest.extend(clauses[1:])
        quantities: list[tuple[Name, Any]] = []
        for clause in rest:
            name = clause[0]
            if not isinstance(name, Name) or len(clause) != 2:
                self._error(
                    "fire-window",
                    "a quantity is its name and one value"
                    if isinstance(name, Name)
                    else "a quantity starts with its name",
                    Span(
                        self.path,
                        clause[0].span.line,
                        clause[0].span.column,
                        clause[-1].span.end_line,
                        clause[-1].span.end_column,
                    ),
                    "separate quantities with commas: fire pirate_combat with pirate_power 5, "
                    "armament 3 { ... }",
                )
                continue
            quantities.append((name, clause[1]))
        return Window(span, trigger, tuple(quantities), body, block)

    def _conditional(self, children: list[Any], cls: type) -> Any:
        keyword = children[0]
        clauses = tuple(c for c in children if isinstance(c, tuple))
        blocks = [c for c in children if isinstance(c, _Block)]
        then = blocks[0]
        otherwise: tuple[Any, ...] | None = None
        last: Any = then.rbrace
        tail = children[-1]
        if isinstance(tail, (If, Unless)):
            otherwise, last = (tail,), tail
        elif len(blocks) > 1:
            otherwise, last = blocks[1].items, blocks[1].rbrace
        return cls(self._span(keyword, last), clauses, then.items, otherwise)

    def if_stmt(self, children: list[Any]) -> If:
        return self._conditional(children, If)

    def unless_stmt(self, children: list[Any]) -> Unless:
        return self._conditional(children, Unless)

    def for_each(self, children: list[Any]) -> ForEach:
        keyword, each, var, _in, iterable, _where, where, order, block = children
        if str(each) != "each":
            self._error(
                "for-each",
                f"expected 'for each', found 'for {each}'",
                each,
                "write: for each player in players { ... }",
            )
        return ForEach(
            self._span(keyword, block.rbrace),
            str(var),
            iterable,
            where,
            block.items,
            order or (),
        )

    def order_by(self, children: list[Any]) -> tuple[OrderKey, ...]:
        """``by KEY [descending], ...``: each clause is a key, or a key and its direction."""
        word, *clauses = children
        usage = (
            "write: for each captain in players by prestige, marker_arrival() descending { ... }"
        )
        if str(word) != "by":
            if str(word) == "is" and clauses:
                # 'where m.spot is none': the 'where' test compares with == or != instead.
                first = clauses[0][0] if clauses[0] else None
                negated = isinstance(first, Not)
                said = "none"
                inner = first.operand if isinstance(first, Not) else first
                if isinstance(inner, Name):
                    said = inner.id
                usage = f"compare with == or !=: where ... {'!=' if negated else '=='} {said}"
            self._error(
                "for-each",
                f"expected 'by' or '{{' after the list, found '{word}'",
                word,
                usage,
            )
            return ()
        keys: list[OrderKey] = []
        for clause in clauses:
            key, *rest = clause
            descending = False
            if rest:
                last = rest[-1]
                direction = last.id if isinstance(last, Name) else None
                if len(rest) == 1 and direction in ("ascending", "descending"):
                    descending = direction == "descending"
                else:
                    self._error(
                        "order-by",
                        "a key of 'by' is one expression, then 'ascending' or 'descending' "
                        "if at all",
                        rest[0].span,
                        "separate two keys with a comma: by prestige, marker_arrival() descending",
                    )
            end = rest[-1] if rest else key
            span = Span(
                self.path, key.span.line, key.span.column, end.span.end_line, end.span.end_column
            )
            keys.append(OrderKey(span, key, descending))
        return tuple(keys)

    def may(self, children: list[Any]) -> May:
        keyword, body = children
        if isinstance(body, _Block):
            return May(self._span(keyword, body.rbrace), body.items)
        return May(self._span(keyword, body), (body,))

    def choose(self, children: list[Any]) -> ChooseOne:
        keyword, one, of, block = children
        if (str(one), str(of)) != ("one", "of"):
            self._error(
                "choose-one-of",
                f"expected 'choose one of', found 'choose {one} {of}'",
                self._span(one, of),
                "write: choose one of { gain coins 2 ; draw port_card }",
            )
        return ChooseOne(self._span(keyword, block.rbrace), block.items)

    def choose_from(self, children: list[Any]) -> ChooseFrom:
        """``choose picked in hand where ... { ... }``: one item of a list, picked."""
        keyword, var, _in, items, _where, where, block = children
        return ChooseFrom(self._span(keyword, block.rbrace), str(var), items, where, block.items)

    def repeat(self, children: list[Any]) -> Repeat:
        keyword, count, block = children
        return Repeat(self._span(keyword, block.rbrace), count, block.items)

    def group(self, children: list[Any]) -> Group:
        (block,) = children
        return Group(self._span(block.lbrace, block.rbrace), block.items)

    # -- expressions

    def _fold(self, children: list[Any], cls: type) -> Any:
        left = children[0]
        start = left.span
        path, line, column = self.path, start.line, start.column
        for i in range(1, len(children), 2):
            right = children[i + 1]
            end = right.span
            left = cls(
                Span(path, line, column, end.end_line, end.end_column),
                children[i].value,
                left,
                right,
            )
        return left

    def or_test(self, children: list[Any]) -> Any:
        return self._fold(children, BoolOp)

    and_test = or_test

    def sum(self, children: list[Any]) -> Any:
        return self._fold(children, BinaryOp)

    product = sum

    def comparison(self, children: list[Any]) -> Compare:
        left, op, right = children
        start = left.span
        end = right.span
        return Compare(
            Span(self.path, start.line, start.column, end.end_line, end.end_column),
            op.value,
            left,
            right,
        )

    def not_test(self, children: list[Any]) -> Not:
        keyword, operand = children
        end = operand.span
        return Not(
            Span(self.path, keyword.line or 1, keyword.column or 1, end.end_line, end.end_column),
            operand,
        )

    def range(self, children: list[Any]) -> Range:
        low, _dots, high = children
        start = low.span
        end = high.span
        return Range(
            Span(self.path, start.line, start.column, end.end_line, end.end_column), low, high
        )

    def attribute(self, children: list[Any]) -> Attribute:
        value, _dot, attr = children
        start = value.span
        return Attribute(
            Span(self.path, start.line, start.column, attr.end_line or 1, attr.end_column or 1),
            value,
            attr.value,
        )

    def name(self, children: list[Any]) -> Name:
        (tok,) = children
        return Name(
            Span(self.path, tok.line or 1, tok.column or 1, tok.end_line or 1, tok.end_column or 1),
            tok.value,
        )

    def number(self, children: list[Any]) -> Number:
        (tok,) = children
        value = _number_value(tok.value)
        if value is None:
            self._number_too_large(tok)
            value = 0
        return Number(
            Span(self.path, tok.line or 1, tok.column or 1, tok.end_line or 1, tok.end_column or 1),
            value,
        )

    def _number_too_large(self, tok: Token) -> None:
        self._error(
            "number-too-large",
            f"'{tok.value[:20]}{'...' if len(tok.value) > 20 else ''}' is too large a number "
            f"({max(len(run) for run in re.findall('[0-9]+', tok.value))} digits)",
            tok,
            f"numbers in cards run to {LARGEST_NUMBER:,}; a typo, perhaps?",
        )

    def percent(self, children: list[Any]) -> Percent:
        (tok,) = children
        value = _number_value(tok.value[:-1])
        if value is None:
            self._number_too_large(tok)
            value = 0
        return Percent(
            Span(self.path, tok.line or 1, tok.column or 1, tok.end_line or 1, tok.end_column or 1),
            value,
        )

    def dice(self, children: list[Any]) -> Dice:
        (tok,) = children
        parts = [_number_value(part) for part in str(tok).split("d")]
        count, sides = (int(p) if p is not None else LARGEST_NUMBER + 1 for p in parts)
        if str(tok).startswith("-"):
            self._error(
                "bad-dice",
                f"'{tok}' is a negative roll: dice roll 1 or more",
                tok,
                "to take a roll away, subtract it with spaces around the minus: 'x - 2d6'",
            )
            count = 1
        elif count > LARGEST_NUMBER or sides > LARGEST_NUMBER:
            self._number_too_large(tok)
            count, sides = 1, 6
        if count < 1 or sides < 2:
            self._error(
                "bad-dice",
                f"'{tok}' rolls no dice" if count < 1 else f"a die needs at least 2 sides: '{tok}'",
                tok,
                "write dice as COUNTdSIDES, for example 2d6",
            )
        return Dice(self._span(tok, tok), count, sides)

    def string(self, children: list[Any]) -> String:
        (tok,) = children
        return String(self._span(tok, tok), self._unescape(tok))

    def _unescape(self, tok: Token) -> str:
        body = str(tok)[1:-1]
        if "\\" not in body:
            return body

        def decode(match: re.Match[str]) -> str:
            code = match.group(1)
            if code.startswith("u{"):
                value = int(code[2:-1], 16)
                if value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF:
                    return chr(value)
            elif code in _ESCAPES:
                return _ESCAPES[code]
            # Underline the escape itself, not the whole string: strings never span lines.
            at = _tok_span(self.path, tok)
            column = at.column + 1 + match.start()
            self._error(
                "bad-escape",
                f"unknown escape '\\{code}' in this string",
                Span(self.path, at.line, column, at.line, column + len(match.group(0))),
                'escapes are \\n \\t \\" \\\\ and \\u{1F3B2}; write \\\\ for a backslash',
            )
            return code

        return _ESCAPE_RE.sub(decode, body)

    def true(self, children: list[Any]) -> Boolean:
        return Boolean(self._span(children[0], children[0]), True)

    def false(self, children: list[Any]) -> Boolean:
        return Boolean(self._span(children[0], children[0]), False)

    def call(self, children: list[Any]) -> Call:
        # [CALL, None, RPAR] with no arguments, else [CALL, expr, ..., RPAR]
        head = children[0]
        close = children[-1]
        args = children[1:-1]
        return Call(
            Span(
                self.path,
                head.line or 1,
                head.column or 1,
                close.end_line or 1,
                close.end_column or 1,
            ),
            head.value[:-1],
            () if args[0] is None else tuple(args),
        )

    def list_literal(self, children: list[Any]) -> ListLiteral:
        head = children[0]
        close = children[-1]
        items = children[1:-1]
        return ListLiteral(
            Span(
                self.path,
                head.line or 1,
                head.column or 1,
                close.end_line or 1,
                close.end_column or 1,
            ),
            () if items[0] is None else tuple(items),
        )

    def paren(self, children: list[Any]) -> Any:
        return children[1]


def _opens_window(clauses: Clauses) -> bool:
    """``fire TRIGGER with ...``: the second word of the first clause is ``with``."""
    if not clauses or len(clauses[0]) < 2:
        return False
    word = clauses[0][1]
    return isinstance(word, Name) and word.id == "with"


_GRAMMAR = GRAMMAR_PATH.read_text(encoding="utf-8")
_BUILDER = _Builder()
# One lark build gives the terminals and the lexer, the LALR(1) table and the rules;
# :func:`_lex` and :func:`_parse_tokens` below run them, faster than lark's own loops.
# Loaded from the per-user cache when it holds this grammar (dsl.grammar_cache): building the
# table is most of a one-file `cardc check`.
_LARK, GRAMMAR_FROM_CACHE = load_lark(
    _GRAMMAR, parser="lalr", lexer="basic", strict=True, maybe_placeholders=True
)

# lark's Lark.lex() rebuilds its lexer on every call; the parsing frontend keeps a built one.
_BASIC_LEXER = _LARK.parser.lexer


# ---- lexing ----------------------------------------------------------------------------------


def _lex_with_lark(text: str) -> Iterator[Token]:
    return LexerThread.from_text(_BASIC_LEXER, text).lex(None)  # type: ignore[no-any-return]


@_collector_paused
def lex(text: str) -> list[Token]:
    """lark's own lexer alone over ``text``: the benchmark's practical limit for a parse."""
    return list(_lex_with_lark(text))


def tokens(text: str) -> list[Token]:
    """Every token of ``text`` as the parser's lexer makes them, newlines included (the
    formatter and the language server read the layout from them)."""
    return list(_lex(text))


def prepare_tokens(text: str, path: str = "<text>") -> list[Token]:
    """The tokens the LALR table reads from ``text``: what two texts must share to mean the
    same (the formatter checks its output with it). Diagnostics are dropped."""
    try:
        return _prepare(text, path, [])
    except _SyntaxLimit:
        return []


def _scanner_parts() -> tuple[Any, dict[str, str], frozenset[str], frozenset[str]] | None:
    """What :func:`_lex` needs from lark's lexer, or None if it does not mirror this one."""
    scanner = _BASIC_LEXER.scanner  # built on first use, with the callbacks
    callbacks = _BASIC_LEXER.callback
    if len(scanner._mres) != 1 or set(callbacks) - {"NAME"} or _BASIC_LEXER.user_callbacks:
        return None
    keywords: dict[str, str] = {}
    if "NAME" in callbacks:  # lark retypes a NAME that spells a keyword ("if" is IF)
        for terminal in callbacks["NAME"].scanner.terminals:
            if terminal.pattern.type != "str" or terminal.pattern.flags:
                return None
            keywords[terminal.pattern.value] = terminal.name
    return scanner._mres[0], keywords, _BASIC_LEXER.ignore_types, _BASIC_LEXER.newline_types


_SCANNER = _scanner_parts()


def _lex(text: str) -> Iterator[Token]:
    """The tokens of ``text``, exactly as lark's basic lexer makes them, in half the time.

    Same compiled regular expression, same keyword, line and column rules; the saving is in
    the loop (lark keeps a line-counter object and builds each Token through two constructors).
    """
    if _SCANNER is None:  # pragma: no cover - a lark whose lexer this loop does not mirror
        yield from _lex_with_lark(text)
        return
    pattern, keywords, ignored, multiline = _SCANNER
    new = str.__new__
    line = 1
    line_start = 0  # offset of the first character of the current line
    end = 0
    for match in iter(pattern.scanner(text).match, None):
        kind = match.lastgroup
        if kind in ignored:
            if kind in multiline:
                value = match.group()
                if "\n" in value:
                    line += value.count("\n")
                    line_start = match.start() + value.rindex("\n") + 1
            end = match.end()
            continue
        value = match.group()
        start, end = match.span()
        column = start - line_start + 1
        tok = new(Token, value)
        tok.value = value
        tok.start_pos = start
        tok.line = line
        tok.column = column
        tok.end_pos = end
        if kind in multiline and "\n" in value:
            line += value.count("\n")
            line_start = start + value.rindex("\n") + 1
            tok.end_line = line
            tok.end_column = end - line_start + 1
        else:
            tok.end_line = line
            tok.end_column = column + end - start
            if kind == "NAME":
                kind = keywords.get(value, kind)
        tok.type = kind
        yield tok
    if end < len(text):  # pragma: no cover - the INVALID terminal matches any character
        raise AssertionError(f"no terminal matches at offset {end}")


# ---- the LALR driver -------------------------------------------------------------------------
#
# lark computes the LALR(1) table; :func:`_parse_tokens` runs it the way lark's parser does (the
# same states, the same reductions in the same order, the same errors), several times faster.
# Each rule's reduction is one small function generated from the rule, where lark stacks three
# or four wrapper objects per rule and builds a Tree for every repetition. And the chains of
# unit reductions that only pass a value up -- `expr: or_test`, ..., `postfix: atom`, ten for
# every operand -- are looked up once per (state below, state, lookahead), then taken in one step.


@dataclass(frozen=True, slots=True)
class _Rule:
    """A grammar rule as the driver needs it."""

    size: int  # symbols on the right-hand side: states and values to pop
    origin: str  # the rule's name, looked up in the state below to find the next state
    reduce: Callable[[list[Any]], Any] | None  # children -> value; None: pass the child up


def _reducer(rule: Any, builder: _Builder) -> Any:
    """The function turning ``rule``'s children into its value, as lark's tree builder does.

    lark drops filtered tokens (``_NL``, ``","``), puts None for an absent ``[optional]``
    (``maybe_placeholders``), splices the children of an ``_inlined`` rule into its parent,
    and for a ``?rule`` with a single child passes the child up instead of calling the builder.
    The value of an ``_inlined`` rule is here the list of its children (lark wraps it in a
    Tree). None means a unit rule that passes its child up unchanged.
    """
    expansion = rule.expansion
    inlined = str(rule.origin.name).startswith("_")
    expand1 = rule.options.expand1 and not rule.alias
    empty = rule.options.empty_indices
    if empty:  # how many None to put before each symbol, and after the last
        nones = [len(run) for run in "".join(str(int(b)) for b in empty).split("0")]
    else:
        nones = [0] * (len(expansion) + 1)
    parts: list[str] = []  # Python expressions for the children, in order
    filtered = bool(empty)
    for i, symbol in enumerate(expansion):
        parts += ["None"] * nones[i]
        if symbol.is_term and symbol.filter_out:
            filtered = True
        elif not symbol.is_term and symbol.name.startswith("_"):
            parts.append(f"*c[{i}]")
            filtered = True
        else:
            parts.append(f"c[{i}]")
    parts += ["None"] * nones[len(expansion)]
    target = None
    if not inlined:
        name = str(rule.alias or rule.options.template_source or rule.origin.name)
        target = getattr(builder, name, None) or functools.partial(_default_tree, name)
    if not filtered:
        if expand1 and len(expansion) == 1:
            return None
        if target is not None and not expand1:
            return target  # lark passes the children list on as it is
    if not filtered:
        body = "f = c"
    elif parts and parts[0].startswith("*"):
        # lark extends the first child's list in place (left recursion: `x_star: x_star "," x`)
        body = f"f = {parts[0][1:]}"
        if len(parts) > 1:
            body += f"; f += [{', '.join(parts[1:])}]"
    else:
        body = f"f = [{', '.join(parts)}]"
    if target is None:
        result = "f"
    elif expand1:
        result = "f[0] if len(f) == 1 else target(f)"
    else:
        result = "target(f)"
    namespace: dict[str, Any] = {"target": target}
    exec(f"def reduce(c):\n    {body}\n    return {result}", namespace)  # built from the grammar
    return namespace["reduce"]


def _default_tree(name: str, children: list[Any]) -> Tree[Any]:
    """lark's value for a rule the builder has no method for."""
    return Tree(name, children)


def _build_driver(lark: Lark, builder: _Builder) -> tuple[list[dict[str, int]], tuple[_Rule, ...]]:
    """The LALR table as lists and dicts: ``table[state][symbol]`` is the next state for a
    shift or a goto, or ``~index`` into the rules for a reduction."""
    parse_table = lark.parser.parser.parser.parse_table
    index_of: dict[Any, int] = {}
    rules: list[_Rule] = []
    table: list[dict[str, int]] = [{} for _ in parse_table.states]
    for state, actions in parse_table.states.items():
        for symbol, (action, arg) in actions.items():
            if action is Shift:
                table[state][str(symbol)] = arg
                continue
            if arg not in index_of:
                index_of[arg] = len(rules)
                rules.append(
                    _Rule(len(arg.expansion), str(arg.origin.name), _reducer(arg, builder))
                )
            table[state][str(symbol)] = ~index_of[arg]
    return table, tuple(rules)


_TABLE, _RULES = _build_driver(_LARK, _BUILDER)
_PARSE_CONF = ParseConf(_LARK.parser.parser.parser.parse_table, {}, "start")
_START_STATE: int = _PARSE_CONF.start_state
_END_STATE: int = _PARSE_CONF.end_state
#: (state below, state, lookahead) -> the state after the unit reductions that follow.
_UNIT_CHAINS: dict[tuple[int, int, str], int] = {}


def _unit_chain(below: int, state: int, kind: str) -> int:
    """Take the unit reductions from ``state`` on ``kind``; remember where they lead."""
    key = (below, state, kind)
    while True:
        act = _TABLE[state].get(kind)
        if act is None or act >= 0 or _RULES[~act].reduce is not None:
            break
        state = _TABLE[below][_RULES[~act].origin]
    _UNIT_CHAINS[key] = state
    return state


def _syntax_error(tok: Token, states: list[int], values: list[Any]) -> UnexpectedToken:
    """The error lark's parser raises for ``tok`` in the state on top of ``states``."""
    expected = {s for s in _PARSE_CONF.states[states[-1]] if s.isupper()}
    state = ParserState(_PARSE_CONF, None, list(states), list(values))  # type: ignore[arg-type]
    return UnexpectedToken(tok, expected, state=state, interactive_parser=None)


# ---- token preparation ----------------------------------------------------------------------


def _prepare(text: str, path: str, diagnostics: list[Diagnostic]) -> list[Token]:
    """Lex ``text`` and shape the token stream for the grammar.

    Drops newlines that cannot end an item, reports error terminals (and replaces an
    unclosed string by a closed one so parsing goes on), closes a '(' left open when a
    brace comes, and stops at the nesting and size limits.
    """
    out: list[Token] = []
    append = out.append
    prev = "_NL"  # a newline at the very start ends nothing
    pending: Token | None = None
    opened: list[Token] = []  # open brackets, innermost last
    parens = 0
    operators = 0
    item_head = "_NL"
    for tok in _lex(text):
        kind = tok.type
        if kind == "_NL":
            if not parens and prev not in _CONTINUES and prev != "_NL":
                pending = tok
            continue
        if kind == "INVALID" or (
            kind == "EQUALS" and (pending is not None or item_head not in _DEFINES)
        ):
            # '=' belongs to verb and function definitions only; anywhere else it is the
            # character it always was, with its hint ("rounds 12", not "rounds = 12").
            diagnostics.append(_invalid_character(path, tok, out))
            continue
        if kind == "BAD_STRING":
            value = str(tok).rstrip("\\")
            head = value.rstrip()
            if not opened and len(head) > 1 and head.endswith("{"):
                # `card "Smoke Bomb {`: the quote was forgotten before the card's block. Close
                # the string there and let the '{' open the block, or the whole card is misread.
                value = head[:-1].rstrip()
                diagnostics.append(_unclosed_string(path, tok, len(value), "before '{'"))
                if pending is not None:
                    append(pending)
                    pending = None
                    operators = 0
                append(_token_at(tok, "STRING", value + '"', 0, len(value)))
                tok = _token_at(tok, "LBRACE", "{", len(head) - 1, 1)
                kind = "LBRACE"
            else:
                diagnostics.append(_unclosed_string(path, tok, len(str(tok)), ""))
                tok = Token.new_borrow_pos("STRING", value + '"', tok)
                kind = "STRING"
        if pending is not None:
            if kind != "RBRACE" and kind != "ELSE":
                append(pending)
                prev = "_NL"
                operators = 0
            pending = None
        if not opened and prev == "_NL":
            item_head = kind  # the first token of a top-level item
        if kind in _OPENERS:
            if kind == "LBRACE" and parens:
                parens = _close_parens(path, opened, out, tok, diagnostics)
            opened.append(tok)
            if kind != "LBRACE":
                parens += 1
            if len(opened) > MAX_NESTING:
                raise _SyntaxLimit(
                    Diagnostic(
                        "too-deep",
                        f"blocks and brackets are nested more than {MAX_NESTING} deep here",
                        _tok_span(path, tok),
                        "error",
                        ("split the rule into smaller ones; no card needs this much nesting",),
                    )
                )
        elif kind == "RBRACE":
            if parens:
                parens = _close_parens(path, opened, out, tok, diagnostics)
            if opened:
                opened.pop()
            operators = 0
        elif kind == "RPAR" or kind == "RSQB":
            if opened and opened[-1].type != "LBRACE":
                opened.pop()
                parens -= 1
        elif kind in _OPERATORS:
            operators += 1
            if operators > MAX_OPERATORS:
                raise _SyntaxLimit(
                    Diagnostic(
                        "too-complex",
                        f"this item holds more than {MAX_OPERATORS} operators",
                        _tok_span(path, tok),
                        "error",
                        ("split the expression into smaller rules",),
                    )
                )
        append(tok)
        prev = kind
    if parens:
        end = out[-1] if out else None
        if end is not None:
            _close_parens(path, opened, out, end, diagnostics, at_end=True)
    return out


def _unclosed_string(path: str, tok: Token, length: int, where: str) -> Diagnostic:
    """The error for a string with no closing quote; ``where`` says where the quote goes."""
    at = _tok_span(path, tok)
    return Diagnostic(
        "unclosed-string",
        "this string is not closed",
        Span(path, at.line, at.column, at.line, at.column + length),
        "error",
        (
            f'add the closing " {where}'
            if where
            else 'add a closing " before the end of the '
            "line; a string cannot span lines (write \\n for a line break)",
        ),
    )


def _token_at(tok: Token, kind: str, value: str, offset: int, length: int) -> Token:
    """A token for part of ``tok`` (which lies on one line), ``offset`` characters in."""
    start = (tok.start_pos or 0) + offset
    column = (tok.column or 1) + offset
    line = tok.line or 1
    return Token(kind, value, start, line, column, line, column + length, start + length)


def _close_parens(
    path: str,
    opened: list[Token],
    out: list[Token],
    where: Token,
    diagnostics: list[Diagnostic],
    at_end: bool = False,
) -> int:
    """Report and close every bracket still open at ``where``; returns the new paren count."""
    while opened and opened[-1].type != "LBRACE":
        tok = opened.pop()
        closer = _OPENERS[tok.type]
        char = ")" if closer == "RPAR" else "]"
        place = "the end of the file" if at_end else f"the {str(where)!r} on line {where.line}"
        diagnostics.append(
            Diagnostic(
                "unclosed-bracket",
                f"expected '{char}' to close the '{str(tok)[-1]}' opened at "
                f"{tok.line}:{(tok.end_column or 2) - 1}",
                _tok_span(path, tok),
                "error",
                (f"add '{char}' before {place}",),
            )
        )
        synthetic = Token(
            closer,
            char,
            where.start_pos,
            where.line,
            where.column,
            where.line,
            where.column,
            where.start_pos,
        )
        if at_end:
            out.append(synthetic)
        else:
            out.append(synthetic)
    return 0


def _invalid_character(path: str, tok: Token, before: list[Token] | None = None) -> Diagnostic:
    char = str(tok)
    hints: tuple[str, ...]
    # `let found = 0`: the two tokens before the '=' are `let` and its name.
    after_let = (
        before is not None
        and len(before) >= 2
        and before[-2].type == "NAME"
        and str(before[-2]) == "let"
        and before[-1].type == "NAME"
    )
    if char == "'":
        hints = ('strings use double quotes: "Smoke Bomb"',)
    elif char in ":=" and after_let:
        name = str(before[-1]) if before else "found"
        hints = (f"a let is written 'let NAME VALUE', without ':' or '=': let {name} 0",)
    elif char in ":=":
        hints = ("a property is written 'name value', without ':' or '=': rounds 12",)
    elif char == "@":
        hints = ('an annotation is a name after @: @provisional("why")',)
    else:
        hints = ("remove it; names use letters, digits and '_'",)
    shown = char if char.isprintable() else f"U+{ord(char):04X}"
    quote = '"' if char == "'" else "'"  # ''' would read as a typo, not as a quote
    return Diagnostic(
        "invalid-character",
        f"the character {quote}{shown}{quote} has no meaning here",
        _tok_span(path, tok),
        "error",
        hints,
    )


# ---- recovery and messages ---------------------------------------------------------------------


_WORDS = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": "a string",
    "DICE": "dice such as 2d6",
    "PERCENT": "a percentage",
    "CALL": "a call such as count(x)",
    "ANNOTATION": "an annotation",
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "COMP_OP": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'",
    "EQUALS": "'='",
    "DOT": "'.'",
    "DOTDOT": "'..'",
    "_NL": "the end of the line",
    "$END": "the end of the file",
}
_VALUE_STARTS = {
    "NAME",
    "NUMBER",
    "STRING",
    "DICE",
    "PERCENT",
    "CALL",
    "LSQB",
    "LPAR",
    "TRUE",
    "FALSE",
    "NOT",
}


def _word(kind: str) -> str:
    if kind in _WORDS:
        return _WORDS[kind]
    return f"'{kind.lower()}'"


def _describe_token(tok: Token) -> str:
    if tok.type == "$END":
        return "the end of the file"
    if tok.type == "_NL":
        return "the end of the line"
    if tok.type == "STRING":
        return f"the string {tok}"
    return f"'{tok}'"


def _expected(expected: set[str]) -> str:
    kinds = set(expected) - {"BAD_STRING", "INVALID"}
    words = []
    if len(kinds & _VALUE_STARTS) >= 4:
        kinds -= _VALUE_STARTS
        words.append("a value")
    words += sorted(_word(k) for k in kinds)
    if len(words) > 6:
        words = words[:6] + ["..."]
    return ", ".join(words)


@dataclass(frozen=True)
class _Mistake:
    code: str
    message: str
    hint: str


# Common mistakes, named by small examples (the idea of lark's match_examples): each example
# fails in a parser state; a real error in the same state and on the same kind of token gets
# that mistake's message. Messages may use {token} (the unexpected token) and {prev}.
_MISTAKES: list[tuple[_Mistake, list[str]]] = [
    (
        _Mistake(
            "missing-body",
            "a declaration needs a body in braces",
            'write: port_card "Smoke Bomb" { ... }',
        ),
        ['port_card "A"', 'port_card "A"\nport_card "B" { }', "rounds 12", "x y z"],
    ),
    (
        _Mistake(
            "trigger-outside",
            "an 'on' block must be inside a declaration",
            'put it inside a card: port_card "Name" { on reveal { ... } }',
        ),
        ["on reveal { }", 'port_card "A" { }\non reveal { }'],
    ),
    (
        _Mistake(
            "statement-outside-trigger",
            "{token} can only be used inside an 'on <trigger>' block",
            "wrap the effect in a trigger: on reveal { ... }",
        ),
        [
            "x { if a { } }",
            "x { unless a { } }",
            "x { may a }",
            "x { for each a in b { } }",
            "x { choose one of { } }",
            "x { repeat 2 { } }",
            "x { y 1\n if a { } }",
        ],
    ),
    (
        _Mistake(
            "else-without-if",
            "'else' without an 'if' or 'unless' before it",
            "write: if condition { ... } else { ... }; after a verb, 'else' takes one verb: "
            "pay coins 2 else lose victory_points 1",
        ),
        [
            "x { on y { else { } } }",
            "x { on y { a\n else { } } }",
            # A command with arguments before the 'else' leaves the parser in another state.
            "x { on y { a 1\n else { } } }",
            "x { else }",
        ],
    ),
    (
        # Inside a trigger a verb is a statement, its arguments after its name; a designer
        # who read `verb reward(star_count number, ...)` writes `reward(2, 1, 0)`.
        _Mistake(
            "verb-call-parens",
            "a verb is called without parentheses: its arguments follow its name",
            "write: reward 2, 1, 0 (parentheses call a function inside a value: "
            "gain prestige max(1, armament))",
        ),
        [
            "x { on y { a(1) } }",
            "x { on y { a\n b(1) } }",
            "x { on y { a 1\n b(1) } }",
            "x { on y { may { a(1) } } }",
            "verb v() { a(1) }",
        ],
    ),
    (
        _Mistake(
            "missing-operand",
            "{prev} needs a value after it",
            "finish the expression, for example: 2 + count(treasure)",
        ),
        [
            "x { on y { z 1 + } }",
            "x { on y { z 1 * } }",
            "x { on y { z a and } }",
            "x { on y { z a or } }",
            "x { on y { z a < } }",
            "x { on y { z 1 .. } }",
            "x { on y { z not } }",
            "x { a 1 + }",
            "x { a 1 * }",
            "x { a b < }",
            "x { a 1 .. }",
            "x { a b and }",
        ],
    ),
    (
        _Mistake(
            "chained-comparison",
            "comparisons cannot be chained",
            "write 'a < b and b < c'",
        ),
        ["x { on y { if a < b < c { } } }", "x { a 1 < 2 < 3 }"],
    ),
    (
        _Mistake(
            "missing-condition",
            "{prev} needs a condition before its block",
            "write: if armament > pirate_power { ... }",
        ),
        ["x { on y { if { } } }", "x { on y { unless { } } }"],
    ),
    (
        _Mistake(
            "missing-trigger",
            "'on' needs the name of a trigger",
            "write: on reveal { ... }",
        ),
        ["x { on { } }"],
    ),
    (
        _Mistake(
            "trigger-needs-block",
            "a trigger needs a block of effects",
            "write: on reveal { mark health 1 }",
        ),
        ["x { on reveal }", "x { on reveal x\n y 1 }"],
    ),
    (
        _Mistake(
            "definition-head",
            "a verb or function is named with its parameters in parentheses, touching the name",
            "write: verb abandon_specialty(goods name) { ... } or function f(n number) number = n",
        ),
        ["verb abandon (a name) { }", "function f (a number) number = a", "verb { }"],
    ),
    (
        _Mistake(
            "param-needs-type",
            "a parameter is a name and its type",
            "write: (goods name, amount number = 1); types: number, bool, text, name, counter, "
            "track, zone, target, card, card_name, dice, player, list, any",
        ),
        ["verb f(a) { }", "verb f(a, b number) { }", "function f(a) number = 1"],
    ),
    (
        _Mistake(
            "function-returns",
            "a function says the type of its value, then '=' and the expression",
            "write: function every_third(month number) bool = month % 3 == 0",
        ),
        [
            "function f(a number) = a",
            "function f() = a",
            "function f() number a",
            "function f(a number) number a",
            "function f() number",
            'function f() number "why" 2',
            'function f(a number) number "why" 2',
        ],
    ),
    (
        _Mistake(
            "flow-phase",
            "a flow section holds phases, each with a name and a block",
            "write: setup { phase deal { draw hand 3 } }",
        ),
        [
            "flow { setup { deal } }",
            "flow { setup { deal 1 } }",
            "flow { round 3 { x\n y { } } }",
            # A statement straight in a section: it read "a phase needs a block of statements".
            "flow { turn { draw hand 1 } }",
        ],
    ),
    (
        _Mistake(
            "phase-needs-block",
            "a phase needs a block of statements",
            'write: phase deal "Deal the cards" { draw hand 3 }',
        ),
        ["flow { setup { phase deal } }", 'flow { setup { phase deal "Deal" } }'],
    ),
    (
        # `choose picked from hand`, `choose a card in hand`, `choose one of hand`: a designer
        # reaching for the pick of one item of a list, or for the options of `choose one of`.
        _Mistake(
            "choose-head",
            "'choose' picks one item of a list, 'choose NAME in LIST {{ ... }}', or one of its "
            "options, 'choose one of {{ ... }}'",
            "write: choose picked in hand where picked != self { discard picked }; or: "
            "choose one of { gain coins 2; draw hand 1 }",
        ),
        [
            "x { on y { choose a b c { } } }",
            "x { on y { choose a b 1 { } } }",
            "x { on y { choose a { } } }",
            "x { on y { choose { } } }",
            "x { on y { choose 1 { } } }",
            "x { on y { choose a b in c { } } }",
        ],
    ),
    (
        _Mistake(
            "annotation-alone",
            "this annotation annotates nothing",
            "put it on the line before, or after, the item it marks",
        ),
        ['x { y 1\n @provisional("why") }', 'x { on a { @provisional("why") } }'],
    ),
]


def _build_mistake_table() -> tuple[dict[tuple[int, str], _Mistake], dict[int, _Mistake]]:
    exact: dict[tuple[int, str], _Mistake] = {}
    by_state: dict[int, _Mistake] = {}
    for mistake, examples in _MISTAKES:
        for example in examples:
            try:
                _parse_tokens(_prepare(example, "<example>", []), "<example>")
            except UnexpectedToken as error:
                exact.setdefault((_state_of(error), error.token.type), mistake)
                by_state.setdefault(_state_of(error), mistake)
            else:  # pragma: no cover - a broken example is a bug in this table
                raise AssertionError(f"mistake example parses: {example!r}")
    return exact, by_state


def _state_of(error: UnexpectedToken) -> int:
    """The LALR state number the parser was in when it met the bad token."""
    return int(error.state.position)


def _parse_tokens(tokens: list[Token], path: str) -> tuple[Declaration, ...]:
    """Run the LALR table over ``tokens``, building nodes; raises lark's UnexpectedToken."""
    _BUILDER.path = path
    table, rules, chains, unit_chain = _TABLE, _RULES, _UNIT_CHAINS, _unit_chain
    states = [_START_STATE]
    values: list[Any] = []
    push_state = states.append
    push_value = values.append
    row = table[_START_STATE]
    tok = None
    for tok in tokens:
        kind = tok.type
        while True:
            act = row.get(kind)
            if act is None:
                raise _syntax_error(tok, states, values)
            if act >= 0:  # shift
                push_state(act)
                push_value(tok)
                row = table[act]
                break
            rule = rules[~act]
            if rule.reduce is None:  # a chain of unit reductions: the value stays
                below = states[-2]
                state = chains.get((below, states[-1], kind))
                if state is None:
                    state = unit_chain(below, states[-1], kind)
                states[-1] = state
                row = table[state]
                continue
            size = rule.size
            if size:
                children = values[-size:]
                del values[-size:]
                del states[-size:]
            else:
                children = []
            push_value(rule.reduce(children))
            state = table[states[-1]][rule.origin]
            push_state(state)
            row = table[state]
    # The end of input: reduce until the start rule is done, as lark does.
    end = Token.new_borrow_pos("$END", "", tok) if tok else Token("$END", "", 0, 1, 1)
    while True:
        act = table[states[-1]].get("$END")
        if act is None:
            raise _syntax_error(end, states, values)
        rule = rules[~act]  # the end is never shifted
        size = rule.size
        if rule.reduce is None:
            value = values.pop()
        else:
            children = values[len(values) - size :]
            del values[len(values) - size :]
            value = rule.reduce(children)
        del states[len(states) - size :]
        push_state(table[states[-1]][rule.origin])
        push_value(value)
        if states[-1] == _END_STATE:
            return values[-1]  # type: ignore[no-any-return]


_MISTAKE_EXACT, _MISTAKE_BY_STATE = _build_mistake_table()
_MISTAKE_BY_CODE = {mistake.code: mistake for mistake, _examples in _MISTAKES}
_STATEMENT_KEYWORDS = frozenset("IF UNLESS FOR MAY CHOOSE REPEAT".split())


def _syntax_diagnostic(
    error: UnexpectedToken, tokens: list[Token], index: int, path: str
) -> Diagnostic:
    tok = error.token
    if tok.type == "$END" or index >= len(tokens):
        last = tokens[-1] if tokens else None
        if last is not None:
            end_line, end_column = last.end_line or 1, last.end_column or 1
            span = Span(path, end_line, end_column, end_line, end_column)
        else:
            span = file_span(path)
    else:
        span = _tok_span(path, tok)
    prev_tok = tokens[index - 1] if 0 < index <= len(tokens) else None
    prev = f"'{prev_tok}'" if prev_tok is not None else "this"
    expected = set(error.expected or ())
    state = _state_of(error)
    mistake = _MISTAKE_EXACT.get((state, tok.type))
    # Whole token classes, for the states the examples cannot all reach (LALR splits the
    # first member of a block from later ones): a statement where 'on' could start a member
    # is outside any trigger, and an 'else' the grammar cannot take follows no 'if'.
    if mistake is None and tok.type in _STATEMENT_KEYWORDS and "ON" in expected:
        mistake = _MISTAKE_BY_CODE["statement-outside-trigger"]
    elif mistake is None and tok.type == "ELSE":
        mistake = _MISTAKE_BY_CODE["else-without-if"]
    elif mistake is None and tok.type == "CALL" and "IF" in expected:
        # A call where a statement starts, in a state the examples do not reach.
        mistake = _MISTAKE_BY_CODE["verb-call-parens"]
    inside = _definition_inside_block(tokens, index)
    if inside is not None:
        # `verb bet(stake number) { ... }` or `function f() number = ...` written inside the
        # game block, as a designer who read "declares everything its cards may name" does:
        # the grammar only takes a definition at the top level of a file.
        what, head, name = inside
        message, hints = definition_inside_block(what, name)
        return Diagnostic("definition-inside-block", message, _tok_span(path, head), "error", hints)
    if tok.type == "OR" and _closes_a_choice(tokens, index - 1):
        # `choose one of { ... } or { ... }`, as a designer who read "choose one of" writes
        # it: the options are the statements inside the block.
        return Diagnostic(
            "choose-options",
            "the options of 'choose one of' go inside its block, one after another, not "
            "joined by 'or'",
            span,
            "error",
            (
                "write each option as one statement, or a { block } of several, named with "
                '@label: choose one of { gain temporary_heroism 2 @label("heroism"); '
                '{ gain money 1; lose heroism 1 } @label("money") }',
            ),
        )
    if tok.type == "WHERE" and "WHERE" not in expected:
        loop = _loop_keyword_before(tokens, index)
        if loop is not None:
            # `for each p in players by coins where coins > 2`: the filter after the order.
            return Diagnostic(
                "where-outside-loop",
                f"'where' goes right after the list of the '{loop}', before its 'by'",
                span,
                "error",
                (
                    "write the filter first, then the order: for each p in players where "
                    "coins > 2 by coins { ... }",
                ),
            )
        # `count(campsite where treasure_at(campsite))`, as a designer who read "for each ... in
        # ... where ..." writes a filtered list anywhere: only a loop or a choose filters one.
        return Diagnostic(
            "where-outside-loop",
            "'where' filters the list of a 'for each' or a 'choose' only; it cannot stand in "
            "an expression",
            span,
            "error",
            (
                "go over the items that pass in a loop: for each site in campsite where "
                "treasure_at(site) { gain coins 1 }",
            ),
        )
    if mistake is None and str(tok) in KEYWORDS and "NAME" in expected:
        return Diagnostic(
            "keyword-as-name",
            f"'{tok}' is a keyword and cannot name a card or a property",
            span,
            "error",
            (f'quote it to use it as a title: "{tok}"; or choose another name',),
        )
    mistake = mistake or _MISTAKE_BY_STATE.get(state)
    if mistake is not None:
        if mistake.code == "missing-operand" and prev_tok is not None:
            span = _tok_span(path, prev_tok)
        elif mistake.code in ("missing-body", "trigger-needs-block") and prev_tok is not None:
            # Point where the '{' belongs, not at a '}' lines below it.
            after = _tok_span(path, prev_tok)
            span = Span(path, after.end_line, after.end_column, after.end_line, after.end_column)
        elif mistake.code == "annotation-alone" and prev_tok is not None:
            # The fault is the annotation, not the '}' after it.
            note = next((t for t in reversed(tokens[:index]) if t.type == "ANNOTATION"), None)
            if note is not None:
                span = _tok_span(path, note).to(_tok_span(path, prev_tok))
        elif mistake.code == "else-without-if" and prev_tok is not None and prev_tok.type == "ELSE":
            span = _tok_span(path, prev_tok)  # `else {` after a verb: the 'else' is the fault
        return Diagnostic(
            mistake.code,
            mistake.message.format(token=_describe_token(tok), prev=prev),
            span,
            "error",
            (mistake.hint,),
        )
    return Diagnostic(
        "unexpected-token",
        # "unexpected end of the file", not "unexpected the end of the file"
        f"unexpected {_describe_token(tok).removeprefix('the ')}",
        span,
        "error",
        (f"expected {_expected(expected)}",) if expected else (),
    )


def definition_inside_block(what: str, name: str) -> tuple[str, tuple[str, ...]]:
    """The message and hint of ``definition-inside-block``: a ``verb`` or ``function`` with a
    body written inside the game block. The one wording, for the parser (a definition with
    parameters, which the grammar cannot take there) and the vocabulary (``verb name() "..."
    { ... }``, which it reads as a declaration)."""
    declared = (
        f'verb {name} "what it does" {{ param amount number }}'
        if what == "verb"
        else f'native {name} "what it gives" {{ returns number }}'
    )
    return (
        f"a {what} with a body is written at the top level of a file, not inside a block",
        (
            f"move it after the game block's closing '}}': a {what} is defined at the top "
            'level of any file of the game (README, "The language, in one tour"); '
            f"inside the game block one is only declared, as {declared}",
        ),
    )


def _definition_inside_block(tokens: list[Token], index: int) -> tuple[str, Token, str] | None:
    """``("verb" | "function", its first token, its name)`` when the bad token ends the head
    of a definition (``verb NAME(`` or ``function NAME``) inside a ``{ }`` block."""
    line = tokens[index].line if index < len(tokens) else None
    start = index
    while start > 0 and tokens[start - 1].line == line:
        start -= 1
    if index < len(tokens) and tokens[index].type == "FUNCTION":
        start = index  # `function` itself is what the member's grammar refused
    if start >= len(tokens):
        return None
    head = tokens[start]
    if head.type == "VERB":
        if start + 1 >= len(tokens) or tokens[start + 1].type != "CALL":
            return None
        what = "verb"
    elif head.type == "FUNCTION":
        what = "function"
    else:
        return None
    depth = 0
    for tok in tokens[:start]:
        if tok.type == "LBRACE":
            depth += 1
        elif tok.type == "RBRACE":
            depth -= 1
    after = tokens[start + 1] if start + 1 < len(tokens) else None
    name = str(after).rstrip("(") if after is not None and after.type in ("CALL", "NAME") else "it"
    return (what, head, name) if depth > 0 else None


def _loop_keyword_before(tokens: list[Token], index: int) -> str | None:
    """'for each' when the statement ``tokens[index]`` is in began with one and ordered its
    items with 'by' before this (back to the '{', '}' or line break before it), else None."""
    ordered = False
    for at in range(min(index, len(tokens)) - 1, -1, -1):
        kind = tokens[at].type
        if kind in ("LBRACE", "RBRACE", "_NL"):
            return None
        ordered = ordered or str(tokens[at]) == "by"
        if kind == "FOR":
            return "for each" if ordered else None
    return None


def _closes_a_choice(tokens: list[Token], index: int) -> bool:
    """Whether ``tokens[index]`` is the '}' closing a ``choose one of { ... }`` block."""
    if not 0 <= index < len(tokens) or str(tokens[index]) != "}":
        return False
    depth = 0
    for at in range(index, -1, -1):
        text = str(tokens[at])
        if text == "}":
            depth += 1
        elif text == "{":
            depth -= 1
            if depth == 0:
                return at >= 3 and tokens[at - 3].type == "CHOOSE"
    return False


def _recover(tokens: list[Token], path: str) -> tuple[list[Declaration], list[Diagnostic]]:
    """Parse a file that failed the fast path, reporting every error it can recover to."""
    diagnostics: list[Diagnostic] = []
    tokens = _repair_blocks(tokens, path, diagnostics)
    declarations: list[Declaration] = []
    for chunk in _split_top_level(tokens):
        for _attempt in range(MAX_ERRORS_PER_FILE):
            if not chunk:
                break
            try:
                declarations.extend(_parse_tokens(chunk, path))
                break
            except UnexpectedToken as error:
                index = _index_of(chunk, error.token)
                diagnostics.append(_syntax_diagnostic(error, chunk, index, path))
                chunk = _drop_item(chunk, index)
            except UnexpectedInput:  # pragma: no cover - the token list never has bad chars
                break
        if len(diagnostics) >= MAX_ERRORS_PER_FILE:
            diagnostics.append(
                Diagnostic(
                    "too-many-errors",
                    f"stopped after {MAX_ERRORS_PER_FILE} syntax errors in this file",
                    Span(path, 1, 1, 1, 1),
                    "note",
                    ("fix these first, then run cardc check again",),
                )
            )
            break
    return declarations, diagnostics


def _index_of(tokens: list[Token], tok: Token) -> int:
    for i, candidate in enumerate(tokens):
        if candidate is tok:
            return i
    return len(tokens)


def _line_indent(tokens: list[Token], index: int) -> int:
    """Column of the first token on the line of ``tokens[index]`` (0-based)."""
    line = tokens[index].line
    i = index
    while i > 0 and tokens[i - 1].line == line:
        i -= 1
    return (tokens[i].column or 1) - 1


def _first_on_line(tokens: list[Token], index: int) -> bool:
    return index == 0 or tokens[index - 1].line != tokens[index].line


def _repair_blocks(tokens: list[Token], path: str, diagnostics: list[Diagnostic]) -> list[Token]:
    """Close blocks left open and drop braces that close nothing, guided by indentation.

    A '}' that starts a line closes the block whose opening line has its indentation; blocks
    opened deeper than that were left open. A name at column 1 inside a block starts a new
    declaration, so every open block before it was left open.
    """
    out: list[Token] = []
    opened: list[tuple[Token, int]] = []  # (the '{', indentation of its line)

    def close_open_blocks(where: Token, down_to: int) -> None:
        while len(opened) > down_to:
            brace, _indent = opened.pop()
            diagnostics.append(
                Diagnostic(
                    "unclosed-block",
                    f"expected '}}' to close the block opened at {brace.line}:{brace.column}",
                    _tok_span(path, brace),
                    "error",
                    (
                        f"add '}}' before line {where.line}"
                        if where.type != "$END"
                        else "add '}' at the end of the file",
                    ),
                )
            )
            # The newline separates the repaired declaration from the next one.
            out.append(Token.new_borrow_pos("RBRACE", "}", where))

    for index, tok in enumerate(tokens):
        kind = tok.type
        if kind == "LBRACE":
            opened.append((tok, _line_indent(tokens, index)))
        elif kind == "RBRACE":
            if not opened:
                diagnostics.append(
                    Diagnostic(
                        "unmatched-brace",
                        "this '}' closes no block",
                        _tok_span(path, tok),
                        "error",
                        ("remove it, or add the '{' it was meant to close",),
                    )
                )
                continue
            if _first_on_line(tokens, index):
                column = (tok.column or 1) - 1
                keep = len(opened)
                while keep > 1 and opened[keep - 1][1] > column:
                    keep -= 1
                close_open_blocks(tok, keep)
            opened.pop()
        elif (
            opened
            and tok.column == 1
            and kind in ("NAME", "VERB", "FUNCTION")
            and _first_on_line(tokens, index)
        ):
            # A declaration starts at column 1 while blocks are open: they were never closed.
            if out and out[-1].type == "_NL":
                nl = out.pop()
                close_open_blocks(tok, 0)
                out.append(nl)
            else:
                close_open_blocks(tok, 0)
        out.append(tok)
    if opened:
        last = tokens[-1]
        end = Token(
            "$END",
            "",
            last.end_pos,
            last.end_line,
            last.end_column,
            last.end_line,
            last.end_column,
            last.end_pos,
        )
        close_open_blocks(end, 0)
    return out


def _split_top_level(tokens: list[Token]) -> list[list[Token]]:
    """Split at the newlines between top-level declarations."""
    chunks: list[list[Token]] = []
    current: list[Token] = []
    depth = 0
    has_block = False  # a declaration ends with its block; a leading annotation line does not
    for tok in tokens:
        if tok.type == "LBRACE":
            depth += 1
        elif tok.type == "RBRACE":
            depth = max(depth - 1, 0)
            has_block = has_block or depth == 0
        elif tok.type == "_NL" and depth == 0:
            if has_block:
                chunks.append(current)
                current = []
                has_block = False
                continue
            if not current:
                continue
        current.append(tok)
    if current:
        chunks.append(current)
    return chunks


def _drop_item(tokens: list[Token], index: int) -> list[Token]:
    """Remove the item (line, with any block it opens) holding ``tokens[index]``."""
    start = min(index, len(tokens))
    depth = 0
    while start > 0:
        kind = tokens[start - 1].type
        if kind == "RBRACE":
            depth += 1
        elif kind == "LBRACE":
            if depth == 0:
                break
            depth -= 1
        elif kind == "_NL" and depth == 0:
            break
        start -= 1
    end = start
    depth = 0
    while end < len(tokens):
        kind = tokens[end].type
        if kind == "LBRACE":
            depth += 1
        elif kind == "RBRACE":
            if depth == 0:
                break
            depth -= 1
        elif kind == "_NL" and depth == 0:
            break
        end += 1
    if end <= start:  # nothing on the line but the bad token: drop just that token
        end = min(index + 1, len(tokens))
        start = min(index, end)
        if end <= start:
            return tokens[:-1]
    # Drop the newline after the item too, or the one before it, so no blank item is left.
    if end < len(tokens) and tokens[end].type == "_NL":
        end += 1
    elif start > 0 and tokens[start - 1].type == "_NL":
        start -= 1
    return tokens[:start] + tokens[end:]


# ---- entry points ---------------------------------------------------------------------------


@_collector_paused
def parse(text: str, path: str = "<text>") -> ParseResult:
    """Parse ``text`` as the file ``path``. Never raises for bad input: it gives diagnostics."""
    diagnostics: list[Diagnostic] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if len(line) > MAX_LINE_LENGTH:
            diagnostics.append(
                Diagnostic(
                    "line-too-long",
                    f"line {number} is {len(line):,} characters long "
                    f"(the limit is {MAX_LINE_LENGTH:,})",
                    Span(path, number, 1, number, 1),
                    "error",
                    ("card files hold short lines; is this the right file?",),
                    show_source=False,
                )
            )
            return ParseResult(SourceFile(path, ()), tuple(diagnostics), text)
    try:
        tokens = _prepare(text, path, diagnostics)
    except _SyntaxLimit as limit:
        # Sorted like every other result: brackets closed early are reported out of order.
        found = sorted({*diagnostics, limit.diagnostic}, key=Diagnostic.sort_key)
        return ParseResult(SourceFile(path, ()), tuple(found), text)
    if not tokens:
        diagnostics.append(
            Diagnostic(
                "empty-file",
                "this file declares nothing",
                file_span(path),
                "warning",
                ('add a declaration such as port_card "Name" { ... }, or delete the file',),
            )
        )
        found = sorted(set(diagnostics), key=Diagnostic.sort_key)
        return ParseResult(SourceFile(path, ()), tuple(found), text)
    _BUILDER.diagnostics = []
    try:
        declarations = list(_parse_tokens(tokens, path))
    except UnexpectedInput:
        declarations, recovered = _recover(tokens, path)
        diagnostics.extend(recovered)
        # A definition written inside a block is one mistake: its '=' (a function's) is not
        # a second one at the same line.
        misplaced = {d.span.line for d in recovered if d.code == "definition-inside-block"}
        if misplaced:
            diagnostics = [
                d
                for d in diagnostics
                if not (d.code == "invalid-character" and d.span.line in misplaced)
            ]
    diagnostics.extend(_BUILDER.diagnostics)
    _BUILDER.diagnostics = []
    ordered = tuple(sorted(set(diagnostics), key=Diagnostic.sort_key))
    items: list[Any] = list(declarations)  # the grammar's top-level items: both kinds
    cards = tuple(d for d in items if type(d) is Declaration)
    definitions = tuple(d for d in items if isinstance(d, (VerbDef, FunctionDef)))
    flows = tuple(d for d in items if type(d) is Flow)
    return ParseResult(SourceFile(path, cards, definitions, flows), ordered, text)


def read_source(path: str | Path) -> tuple[str | None, list[Diagnostic]]:
    """Read a source file as UTF-8 text, or explain in a diagnostic why it cannot be."""
    name = str(path)
    where = file_span(name)
    target = Path(path)
    try:
        if target.is_dir():
            return None, [
                Diagnostic(
                    "is-directory",
                    f"'{name}' is a folder, not a .cards file",
                    where,
                    "error",
                    ("give the path of a .cards file inside it",),
                    show_source=False,
                )
            ]
        data = target.read_bytes()
    except FileNotFoundError:
        return None, [
            Diagnostic(
                "file-not-found",
                f"no such file: '{name}'",
                where,
                "error",
                ("check the path; with no path, cardc uses the project's cards/ folder",),
                show_source=False,
            )
        ]
    except OSError as error:
        return None, [
            Diagnostic(
                "unreadable-file",
                f"cannot read '{name}': {error.strerror or error}",
                where,
                "error",
                ("check the file's permissions",),
                show_source=False,
            )
        ]
    if b"\0" in data:
        return None, [
            Diagnostic(
                "binary-file",
                "this is not a text file (it holds NUL bytes)",
                where,
                "error",
                ("card files are UTF-8 text; is this the right file?",),
                show_source=False,
            )
        ]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column, message = not_utf8(data, error)
        return None, [
            Diagnostic(
                "not-utf8",
                message,
                Span(name, line, column, line, column + 1),
                "error",
                (NOT_UTF8_HINT,),
                show_source=False,
            )
        ]
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, []


def parse_file(path: str | Path) -> ParseResult:
    """Read and parse one ``.cards`` file; every problem becomes a diagnostic."""
    text, problems = read_source(path)
    if text is None:
        return ParseResult(SourceFile(str(path), ()), tuple(problems), None)
    return parse(text, str(path))
