"""``cardc fmt``: one canonical layout for ``.cards`` files, every comment kept.

The grammar drops comments, so the formatter works on the token stream, not on the AST: the
lexer's tokens with the comments found in the gaps between them. It keeps the author's line
breaks (a rule split over lines stays split; ``;`` stays ``;``) and canonicalises everything
else:

- indentation: two spaces per open ``{``; a line continuing an expression (inside brackets, or
  after an operator or a comma) two more per open bracket, or two after an operator;
- one space between tokens, none inside ``(``/``[`` and before ``)``/``]``/``,``/``;``, none
  around ``.`` and ``..``, none between an annotation and its ``(``;
- a comment after code sits two spaces after it; a comment line is indented like code there;
- at most one blank line in a row, none after a ``{`` or before a ``}``, none at the start,
  one newline at the end; trailing spaces and tabs removed; line ends are ``\\n``.

Meaning is checked, not assumed: the formatted text must give the parser exactly the tokens the
original gave it (and the same comments), or :func:`format_text` raises :class:`FormatError`.
A file that does not parse is not formatted; its diagnostics say why.
"""

from __future__ import annotations

from dataclasses import dataclass

from lark import Token

from dsl.diagnostics import Diagnostic
from dsl.parser import _CONTINUES, parse, prepare_tokens, tokens

INDENT = "  "
#: Extra indentation of a line that continues an expression.
CONTINUATION = "  "

_NO_SPACE_AFTER = frozenset({"LPAR", "LSQB", "CALL", "DOT", "DOTDOT"})
_NO_SPACE_BEFORE = frozenset({"RPAR", "RSQB", "COMMA", "DOT", "DOTDOT", "SEMI"})
_BRACKET_OPEN = frozenset({"LPAR", "LSQB", "CALL"})
_BRACKET_CLOSE = frozenset({"RPAR", "RSQB"})
#: Tokens at the end of a line after which the next line goes on with the same item.
_CONTINUES_LINE = _CONTINUES - {"LBRACE"}


class FormatError(Exception):
    """The formatter would change what the parser reads: a bug in cardc, never in the cards."""


@dataclass(frozen=True, slots=True)
class FormatResult:
    """A formatted file (None when it does not parse) and the diagnostics of its parse."""

    text: str | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def ok(self) -> bool:
        """True when the file parsed and was formatted."""
        return self.text is not None


@dataclass(slots=True)
class _Line:
    """One output line: its tokens (type, text), a trailing comment, and blank lines before."""

    items: list[tuple[str, str]]
    comment: str | None = None
    blanks_before: int = 0


def format_text(text: str, path: str = "<text>") -> FormatResult:
    """``text`` in the canonical layout, or None with the diagnostics when it does not parse."""
    parsed = parse(text, path)
    if not parsed.ok:
        return FormatResult(None, parsed.diagnostics)
    lines = _lines(text)
    formatted = _render(lines)
    _verify(text, formatted, path)
    return FormatResult(formatted, parsed.diagnostics)


def _comments(text: str, start: int, end: int) -> str | None:
    """The comment in ``text[start:end]``, a gap between tokens (at most one: it ends a line)."""
    gap = text[start:end]
    at = gap.find("#")
    return gap[at:].rstrip() if at >= 0 else None


def _lines(text: str) -> list[_Line]:
    """Split the token stream (with comments) into lines as the author broke them."""
    lines: list[_Line] = []
    current = _Line([])
    blanks = 0
    position = 0

    def end_line() -> None:
        nonlocal current
        lines.append(current)
        current = _Line([])

    for tok in tokens(text):
        start = tok.start_pos or 0
        comment = _comments(text, position, start)
        if comment is not None:
            if not current.items:
                current.blanks_before = blanks
                blanks = 0
            current.comment = comment
        position = tok.end_pos or start
        if tok.type != "_NL":
            if not current.items and current.comment is None:
                current.blanks_before = blanks
                blanks = 0
            current.items.append((tok.type, str(tok)))
            continue
        # A run of separators: ';' stays on its line, each '\n' ends one.
        for char in str(tok):
            if char == ";":
                if not current.items and current.comment is None:
                    current.blanks_before = blanks
                    blanks = 0
                current.items.append(("SEMI", ";"))
            elif char == "\n":
                if current.items or current.comment is not None:
                    end_line()
                else:
                    blanks += 1
                    current = _Line([])
    comment = _comments(text, position, len(text))
    if comment is not None:
        if not current.items:
            current.blanks_before = blanks
        current.comment = comment
    if current.items or current.comment is not None:
        lines.append(current)
    return lines


def _render(lines: list[_Line]) -> str:
    """Lay the lines out: indentation, spacing, blank lines."""
    out: list[str] = []
    depth = 0  # open braces
    brackets = 0  # open brackets and calls
    continues = False  # the last code line ended with an operator or a comma
    last_opened_block = True  # at the start, as after a '{': no blank line
    for line in lines:
        first = line.items[0][0] if line.items else None
        level = depth - (first == "RBRACE")
        extra = brackets - (first in _BRACKET_CLOSE)
        if extra > 0:
            indent = INDENT * level + CONTINUATION * extra
        elif continues and line.items:
            indent = INDENT * level + CONTINUATION
        else:
            indent = INDENT * level
        blank = line.blanks_before > 0 and not last_opened_block and first != "RBRACE"
        if blank:
            out.append("")
        code = _join(line.items)
        if line.comment is None:
            out.append(indent + code)
        elif code:
            out.append(f"{indent}{code}  {line.comment}")
        else:
            out.append(indent + line.comment)
        for kind, _value in line.items:
            if kind == "LBRACE":
                depth += 1
            elif kind == "RBRACE":
                depth = max(depth - 1, 0)
            elif kind in _BRACKET_OPEN:
                brackets += 1
            elif kind in _BRACKET_CLOSE:
                brackets = max(brackets - 1, 0)
        if line.items:
            last = line.items[-1][0]
            continues = last in _CONTINUES_LINE
            last_opened_block = last == "LBRACE"
        else:
            last_opened_block = False
    return "\n".join(out) + "\n" if out else ""


def _join(items: list[tuple[str, str]]) -> str:
    """The tokens of one line with canonical spacing."""
    parts: list[str] = []
    previous: str | None = None
    for kind, value in items:
        if previous is not None and not (
            previous in _NO_SPACE_AFTER
            or kind in _NO_SPACE_BEFORE
            or (previous == "ANNOTATION" and kind == "LPAR")
        ):
            parts.append(" ")
        parts.append(value)
        previous = kind
    return "".join(parts)


def _significant(text: str, path: str) -> list[tuple[str, str]]:
    """What the parser reads from ``text``: its prepared tokens, every separator alike."""
    prepared: list[Token] = prepare_tokens(text, path)
    return [(t.type, "\n" if t.type == "_NL" else str(t)) for t in prepared]


def _all_comments(text: str) -> list[str]:
    found: list[str] = []
    position = 0
    for tok in tokens(text):
        comment = _comments(text, position, tok.start_pos or 0)
        if comment is not None:
            found.append(comment)
        position = tok.end_pos or position
    comment = _comments(text, position, len(text))
    if comment is not None:
        found.append(comment)
    return found


def _verify(original: str, formatted: str, path: str) -> None:
    if _significant(original, path) != _significant(formatted, path):
        raise FormatError(f"{path}: formatting would change the tokens the parser reads")
    if _all_comments(original) != _all_comments(formatted):
        raise FormatError(f"{path}: formatting would change the comments")
