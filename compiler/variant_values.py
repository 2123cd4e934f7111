"""The checks a value written in a variant's YAML gets, so it is held to the DSL's rules.

A number in a ``.cards`` file is a literal the parser bounds (``LARGEST_NUMBER``) and that can
be neither NaN nor infinite; YAML can also write ``.nan``, ``.inf`` and ``1e23``. Text in a
``.cards`` file is a DSL string with the DSL's escapes; a YAML string may hold any character.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from typing import Any

from dsl.diagnostics import Diagnostic
from dsl.nodes import Span
from dsl.parser import LARGEST_NUMBER

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t"}


def number_problem(value: Any) -> str | None:
    """Why ``value`` (a YAML int or float) is not a number a card may hold, or None."""
    if isinstance(value, float) and math.isnan(value):
        return "NaN is not a number a card may hold"
    if isinstance(value, float) and math.isinf(value):
        return "an infinite number is not a number a card may hold"
    if abs(value) > LARGEST_NUMBER:
        return f"{value:.3g} is too large a number (numbers in cards run to {LARGEST_NUMBER:,})"
    return None


def dsl_string(text: str) -> str:
    """``text`` as a DSL string literal: quotes, backslashes, line ends and tabs escaped as
    the DSL writes them, any other control character as ``\\u{HEX}``."""
    out = []
    for char in text:
        if char in _ESCAPES:
            out.append(_ESCAPES[char])
        elif ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0:
            out.append(f"\\u{{{ord(char):x}}}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


_AT = re.compile(r"\b(at |opened at )(\d+):(\d+)\b")
_LINE = re.compile(r"\b(on line |before line |line )(\d+)\b")


def move_positions(diagnostic: Diagnostic, move: Callable[[Span], Span]) -> Diagnostic:
    """``diagnostic`` with the positions its message and hints name (``opened at 2:10``,
    ``before line 3``) moved like its span: DSL inside YAML is reported at the YAML's lines."""

    def at(match: re.Match[str]) -> str:
        line, column = int(match.group(2)), int(match.group(3))
        moved = move(Span(diagnostic.span.file, line, column, line, column + 1))
        return f"{match.group(1)}{moved.line}:{moved.column}"

    def line(match: re.Match[str]) -> str:
        number = int(match.group(2))
        moved = move(Span(diagnostic.span.file, number, 1, number, 2))
        return f"{match.group(1)}{moved.line}"

    def text(value: str) -> str:
        return _LINE.sub(line, _AT.sub(at, value))

    return dataclasses.replace(
        diagnostic,
        message=text(diagnostic.message),
        hints=tuple(text(hint) for hint in diagnostic.hints),
    )
