"""Parse ``.cards`` text into the AST, with syntax errors people can act on.

The pipeline inside is: lark's basic lexer (terminals from ``grammar.lark``) -> :func:`_prepare`,
which drops the newlines that cannot end an item, turns the grammar's error terminals into
diagnostics and enforces the nesting limits -> lark's LALR parser with :class:`_Builder` passed
inline, which builds frozen AST nodes as it reduces (no parse tree in between, and no recursion,
so deep input cannot overflow the Python stack).

When the fast path fails, :func:`_recover` repairs unclosed blocks by indentation, splits the file
into its top-level declarations and reparses each, dropping one broken line at a time, so one run
reports every error it can recover to.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput, UnexpectedToken, VisitError
from lark.lexer import Lexer, LexerThread

from dsl.diagnostics import Diagnostic, file_span
from dsl.nodes import (
    Annotation,
    Attribute,
    BinaryOp,
    Boolean,
    BoolOp,
    Call,
    ChooseOne,
    Command,
    Compare,
    Declaration,
    Dice,
    ForEach,
    Group,
    If,
    ListLiteral,
    May,
    Name,
    Not,
    Number,
    Percent,
    Property,
    Range,
    Repeat,
    SourceFile,
    Span,
    String,
    Trigger,
    Unless,
)

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
    "on if unless else for in where may choose repeat and or not true false".split()
)

# Tokens after which a newline cannot end an item: the item obviously goes on.
_CONTINUES = frozenset(
    "LBRACE LPAR LSQB CALL COMMA ADD_OP MUL_OP COMP_OP AND OR NOT DOTDOT DOT ELSE IN WHERE".split()
)
_OPENERS = {"LBRACE": "RBRACE", "LPAR": "RPAR", "CALL": "RPAR", "LSQB": "RSQB"}
_OPERATORS = frozenset("ADD_OP MUL_OP COMP_OP AND OR NOT DOTDOT DOT".split())


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


class _Builder(Transformer):
    """Builds AST nodes from LALR reductions; passed inline to lark, so no tree is kept.

    Method names are grammar rule names. ``path`` is set before each parse; problems that
    are not grammar errors (``choose one of`` misspelt, a bad escape) go to ``diagnostics``.
    """

    def __init__(self) -> None:
        super().__init__(visit_tokens=False)
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

    def bare_decl(self, children: list[Any]) -> Declaration:
        head, *clauses, block = children
        return Declaration(
            self._span(head, block.rbrace), str(head), tuple(clauses), _members(block)
        )

    def decl(self, children: list[Any]) -> Any:
        return self._annotated(children)

    member = decl
    stmt = decl

    def _annotated(self, children: list[Any]) -> Any:
        node = next(c for c in children if not isinstance(c, Annotation))
        notes = tuple(c for c in children if isinstance(c, Annotation))
        return replace(node, annotations=node.annotations + notes)

    def member_block(self, children: list[Any]) -> _Block:
        return _Block(tuple(c for c in children[1:-1] if c is not None), children[0], children[-1])

    effect_block = member_block

    def property(self, children: list[Any]) -> Property:
        head = children[0]
        last = children[-1]
        if isinstance(last, _Block):
            return Property(
                self._span(head, last.rbrace), str(head), tuple(children[1:-1]), _members(last)
            )
        return Property(self._span(head, last), str(head), tuple(children[1:]), None)

    def trigger(self, children: list[Any]) -> Trigger:
        keyword, event, *clauses, block = children
        return Trigger(self._span(keyword, block.rbrace), str(event), tuple(clauses), block.items)

    def annotation(self, children: list[Any]) -> Annotation:
        head = children[0]
        args = tuple(c for c in children[1:] if c is not None and not isinstance(c, Token))
        closing = [c for c in children if isinstance(c, Token) and c.type == "RPAR"]
        last = closing[-1] if closing else head
        return Annotation(self._span(head, last), str(head)[1:], args)

    def clause(self, children: list[Any]) -> tuple[Any, ...]:
        return tuple(children)

    # -- statements

    def command(self, children: list[Any]) -> Command:
        head = children[0]
        otherwise = children[-1] if isinstance(children[-1], Command) else None
        clauses = tuple(c for c in children[1:] if isinstance(c, tuple))
        last: Any = otherwise or (clauses[-1][-1] if clauses else head)
        return Command(self._span(head, last), str(head), clauses, otherwise)

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
        keyword, each, var, _in, iterable, _where, where, block = children
        if str(each) != "each":
            self._error(
                "for-each",
                f"expected 'for each', found 'for {each}'",
                each,
                "write: for each player in players { ... }",
            )
        return ForEach(self._span(keyword, block.rbrace), str(var), iterable, where, block.items)

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

    def repeat(self, children: list[Any]) -> Repeat:
        keyword, count, block = children
        return Repeat(self._span(keyword, block.rbrace), count, block.items)

    def group(self, children: list[Any]) -> Group:
        (block,) = children
        return Group(self._span(block.lbrace, block.rbrace), block.items)

    # -- expressions

    def _fold(self, children: list[Any], cls: type) -> Any:
        left = children[0]
        for i in range(1, len(children), 2):
            right = children[i + 1]
            left = cls(self._span(left, right), str(children[i]), left, right)
        return left

    def or_test(self, children: list[Any]) -> Any:
        return self._fold(children, BoolOp)

    and_test = or_test

    def sum(self, children: list[Any]) -> Any:
        return self._fold(children, BinaryOp)

    product = sum

    def comparison(self, children: list[Any]) -> Compare:
        left, op, right = children
        return Compare(self._span(left, right), str(op), left, right)

    def not_test(self, children: list[Any]) -> Not:
        keyword, operand = children
        return Not(self._span(keyword, operand), operand)

    def range(self, children: list[Any]) -> Range:
        low, _dots, high = children
        return Range(self._span(low, high), low, high)

    def attribute(self, children: list[Any]) -> Attribute:
        value, _dot, attr = children
        return Attribute(self._span(value, attr), value, str(attr))

    def name(self, children: list[Any]) -> Name:
        (tok,) = children
        return Name(self._span(tok, tok), str(tok))

    def number(self, children: list[Any]) -> Number:
        (tok,) = children
        text = str(tok)
        return Number(self._span(tok, tok), float(text) if "." in text else int(text))

    def percent(self, children: list[Any]) -> Percent:
        (tok,) = children
        text = str(tok)[:-1]
        return Percent(self._span(tok, tok), float(text) if "." in text else int(text))

    def dice(self, children: list[Any]) -> Dice:
        (tok,) = children
        count, sides = (int(part) for part in str(tok).split("d"))
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
        head, *args, close = children
        return Call(
            self._span(head, close), str(head)[:-1], tuple(a for a in args if a is not None)
        )

    def list_literal(self, children: list[Any]) -> ListLiteral:
        head, *items, close = children
        return ListLiteral(self._span(head, close), tuple(i for i in items if i is not None))

    def paren(self, children: list[Any]) -> Any:
        return children[1]


def _members(block: _Block) -> tuple[Any, ...]:
    return block.items


class _TokenList(Lexer):
    """Lets lark's parser take a prepared list of tokens instead of text."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, data: Any) -> Any:  # type: ignore[override]
        return iter(data)


_GRAMMAR = GRAMMAR_PATH.read_text(encoding="utf-8")
_LEXER = Lark(_GRAMMAR, parser="lalr", lexer="basic", strict=True)
_BUILDER = _Builder()
_PARSER = Lark(
    _GRAMMAR,
    parser="lalr",
    lexer=_TokenList,
    strict=True,
    transformer=_BUILDER,
    maybe_placeholders=True,
)


# lark's Lark.lex() rebuilds its lexer on every call; the parsing frontend keeps a built one.
_BASIC_LEXER = _LEXER.parser.lexer


def _lex(text: str) -> Any:
    return LexerThread.from_text(_BASIC_LEXER, text).lex(None)


def lex(text: str) -> list[Token]:
    """lark's lexer alone over ``text`` (the benchmark's practical limit)."""
    return list(_lex(text))


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
    for tok in _lex(text):
        kind = tok.type
        if kind == "_NL":
            if not parens and prev not in _CONTINUES and prev != "_NL":
                pending = tok
            continue
        if kind == "INVALID":
            diagnostics.append(_invalid_character(path, tok))
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


def _invalid_character(path: str, tok: Token) -> Diagnostic:
    char = str(tok)
    hints: tuple[str, ...]
    if char == "'":
        hints = ('strings use double quotes: "Smoke Bomb"',)
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
    "MUL_OP": "'*' or '/'",
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
    _BUILDER.path = path
    try:
        return _PARSER.parse(tokens)  # type: ignore[return-value]
    except VisitError as error:  # a builder bug, surfaced as such rather than as a syntax error
        raise error.orig_exc from error


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
        elif opened and tok.column == 1 and kind == "NAME" and _first_on_line(tokens, index):
            # A declaration starts at column 1 while blocks are open: they were never closed.
            if out and out[-1].type == "_NL":
                nl = out.pop()
                close_open_blocks(tok, 0)
                out.append(nl)
            else:
                close_open_blocks(tok, 0)
        out.append(tok)
    if opened:
        end = Token("$END", "", 0, tokens[-1].end_line, tokens[-1].end_column)
        close_open_blocks(end, 0)
    return out


def _split_top_level(tokens: list[Token]) -> list[list[Token]]:
    """Split at the newlines between top-level declarations."""
    chunks: list[list[Token]] = []
    current: list[Token] = []
    depth = 0
    for tok in tokens:
        if tok.type == "LBRACE":
            depth += 1
        elif tok.type == "RBRACE":
            depth = max(depth - 1, 0)
        elif tok.type == "_NL" and depth == 0:
            if current:
                chunks.append(current)
            current = []
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
    diagnostics.extend(_BUILDER.diagnostics)
    _BUILDER.diagnostics = []
    ordered = tuple(sorted(set(diagnostics), key=Diagnostic.sort_key))
    return ParseResult(SourceFile(path, tuple(declarations)), ordered, text)


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
        before = data[: error.start]
        line = before.count(b"\n") + 1
        column = len(before) - (before.rfind(b"\n") + 1) + 1
        return None, [
            Diagnostic(
                "not-utf8",
                f"this file is not valid UTF-8: byte 0x{data[error.start]:02x} "
                f"at line {line}, column {column}",
                Span(name, line, column, line, column + 1),
                "error",
                ("save the file as UTF-8",),
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
