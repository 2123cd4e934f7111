"""The parts of lark that dsl/parser.py drives directly, checked against lark's own loops.

The parser runs lark's basic lexer's compiled expression and lark's LALR(1) table itself, and
reads lark's private attributes to do it (``Lark.parser.parser.parser.parse_table``, the
lexer's ``scanner._mres``, ``ParseConf``, ``ParserState``). A lark release that changes them
breaks cardc quietly or loudly; these tests say which. ``.ci/lark-newest`` runs them against
the newest lark, beyond the pinned range, and reports (pyproject.toml pins the tested minors).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lark
import pytest
from lark import Transformer, Tree

from dsl import parser

REPO_ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((REPO_ROOT / "cards").rglob("*.cards"))
ALL_SOURCES = SHIPPED + sorted((REPO_ROOT / "tests" / "data").rglob("*.cards"))


def _ids(paths: list[Path]) -> list[str]:
    return [p.relative_to(REPO_ROOT).as_posix() for p in paths]


def test_the_private_attributes_the_parser_reads_are_there() -> None:
    table = parser._LARK.parser.parser.parser.parse_table
    assert table.states and all(isinstance(a, dict) for a in table.states.values())
    lexer = parser._BASIC_LEXER
    for name in ("scanner", "callback", "user_callbacks", "ignore_types", "newline_types"):
        assert hasattr(lexer, name), f"lark's basic lexer has no {name!r} (lark {lark.__version__})"
    assert parser._SCANNER is not None, (
        f"lark {lark.__version__}'s lexer no longer has the shape dsl.parser._lex mirrors "
        "(one compiled expression, keyword callbacks on NAME): the fast lexer is off"
    )
    assert parser._START_STATE != parser._END_STATE


def _token_tuples(tokens: Any) -> list[tuple[Any, ...]]:
    return [
        (t.type, str(t), t.start_pos, t.end_pos, t.line, t.column, t.end_line, t.end_column)
        for t in tokens
    ]


@pytest.mark.parametrize("path", ALL_SOURCES, ids=_ids(ALL_SOURCES))
def test_the_lexer_loop_makes_larks_tokens(path: Path) -> None:
    text = path.read_text(encoding="utf-8")

    def run(lex: Any) -> tuple[list[tuple[Any, ...]], str]:
        out: list[Any] = []
        try:
            for token in lex(text):
                out.append(token)
        except lark.exceptions.UnexpectedInput as error:  # a file with a stray character
            return _token_tuples(out), type(error).__name__
        return _token_tuples(out), ""

    assert run(parser._lex) == run(parser._lex_with_lark)


class _ViaBuilder(Transformer):  # type: ignore[type-arg]
    """lark's parse tree, turned into cardc's nodes by the parser's own builder methods."""

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        method = getattr(parser._BUILDER, str(data), None)
        if method is None:
            return Tree(data, children)
        return method(children)


@pytest.mark.parametrize("path", SHIPPED, ids=_ids(SHIPPED))
def test_the_table_driver_builds_what_larks_own_parser_builds(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    source = path.relative_to(REPO_ROOT).as_posix()
    tokens = parser._prepare(text, source, [])
    ours = parser._parse_tokens(tokens, source)
    interactive = parser._LARK.parse_interactive()
    for token in tokens:
        interactive.feed_token(token)
    tree = interactive.feed_eof(tokens[-1] if tokens else None)
    parser._BUILDER.path = source
    theirs = _ViaBuilder().transform(tree)
    assert ours == theirs, f"lark {lark.__version__} parses {source} differently"
