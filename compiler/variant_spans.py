"""Where a variant's YAML puts things: spans of its keys and values, DSL text inside it.

A leaf of compiler.variants and compiler.variant_flow (both import it, it imports neither):
ruamel's 0-based positions as the diagnostics' spans, the mover that shifts the spans of DSL
text written as a YAML scalar to where that text sits in the file, and the context an overlay
is applied in (its file, its diagnostics).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

from compiler.suggest import did_you_mean
from compiler.variant_values import move_positions
from dsl.diagnostics import Diagnostic, SourceCache, file_span
from dsl.nodes import Span
from dsl.parser import parse

if TYPE_CHECKING:
    from compiler.variants import Overlay


def _span(path: str, line0: int, col0: int, width: int = 1) -> Span:
    """A span from ruamel's 0-based line and column."""
    return Span(path, line0 + 1, col0 + 1, line0 + 1, col0 + 1 + max(width, 1))


def _key_span(path: str, node: Any, key: Any) -> Span:
    """Where ``key`` of the mapping ``node`` is written."""
    try:
        line, col = node.lc.key(key)
        return _span(path, line, col, len(str(key)))
    except (AttributeError, KeyError, TypeError):
        return _node_span(path, node)


def _value_span(path: str, node: Any, key: Any) -> Span:
    """Where the value of ``key`` (a mapping key or a list index) is written."""
    try:
        line, col = node.lc.value(key) if not isinstance(key, int) else node.lc.item(key)
        value = node[key]
        width = len(str(value)) if not isinstance(value, (dict, list)) else 1
        return _span(path, line, col, width)
    except (AttributeError, KeyError, IndexError, TypeError):
        return _node_span(path, node)


def _node_span(path: str, node: Any) -> Span:
    lc = getattr(node, "lc", None)
    if lc is None or lc.line is None:  # a tagged scalar (`!!tag text`) has no position
        return file_span(path)
    return _span(path, lc.line, lc.col)


# -- spans of DSL text that lives inside the YAML


def remap_spans(node: Any, move: Callable[[Span], Span]) -> Any:
    """``node`` (an AST node, a diagnostic, or a tuple of them) with every span moved."""
    if isinstance(node, Span):
        return move(node)
    if isinstance(node, tuple):
        return tuple(remap_spans(item, move) for item in node)
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        changes = {
            f.name: remap_spans(getattr(node, f.name), move) for f in dataclasses.fields(node)
        }
        return dataclasses.replace(node, **changes)
    return node


def _block_mover(path: str, line0: int, indent: int) -> Callable[[Span], Span]:
    """Spans of a block scalar's text to the YAML file: its line 1 is YAML line ``line0 + 2``
    (``line0`` is the 0-based line of the ``|``), every column shifted by the indentation."""

    def move(span: Span) -> Span:
        return Span(
            path,
            line0 + 1 + span.line,
            span.column + indent,
            line0 + 1 + span.end_line,
            span.end_column + indent,
        )

    return move


def _block_indent(text: str, line0: int) -> int:
    """The indentation of a block scalar's first non-blank line after YAML line ``line0``."""
    for line in text.split("\n")[line0 + 1 :]:
        if line.strip():
            return len(line) - len(line.lstrip(" "))
    return 0


def block_mover(overlay: Overlay, node: Any, key: Any) -> Callable[[Span], Span]:
    """Spans of the DSL text held by ``node[key]`` (a YAML block or one-line scalar) to where
    that text sits in the YAML file."""
    where = str(overlay.path)
    try:
        line0, col0 = node.lc.value(key) if not isinstance(key, int) else node.lc.item(key)
    except (AttributeError, KeyError, IndexError, TypeError):
        line0, col0 = 0, 0
    first = overlay.text.split("\n")[line0] if line0 < overlay.text.count("\n") + 1 else ""
    if first[col0 : col0 + 1] in ("|", ">"):
        return _block_mover(where, line0, _block_indent(overlay.text, line0))
    # A one-line scalar: the DSL starts where the value does.
    quoted = isinstance(node[key], (DoubleQuotedScalarString, SingleQuotedScalarString))
    shift = col0 + (1 if quoted else 0)

    def move(span: Span) -> Span:
        return Span(
            where,
            line0 + span.line,
            span.column + shift,
            line0 + span.end_line,
            span.end_column + shift,
        )

    return move


def _parse_block(
    text: str, overlay: Overlay, node: Any, key: Any, diagnostics: list[Diagnostic]
) -> tuple[Any, ...]:
    """Parse DSL cards (and verb and function definitions) written as a YAML block scalar;
    spans and errors point into the YAML."""
    move = block_mover(overlay, node, key)
    result = parse(text, str(overlay.path))
    diagnostics.extend(
        move_positions(d, move) for d in remap_spans(tuple(result.diagnostics), move)
    )
    # Verb and function definitions come along with the cards (the checker tells them apart).
    return tuple(remap_spans(result.file.declarations + result.file.definitions, move))


@dataclass
class _Context:
    overlay: Overlay
    diagnostics: list[Diagnostic]
    sources: SourceCache

    @property
    def where(self) -> str:
        return str(self.overlay.path)

    def error(self, code: str, message: str, span: Span, *hints: str) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, "error", tuple(hints)))


def _not_found(
    ctx: _Context,
    message: str,
    span: Span,
    wanted: Any,
    known: Iterable[str],
    listing: str | None = None,
    code: str = "variant-path",
    titles: Mapping[str, str] | None = None,
) -> None:
    """A name the overlay gives that the game does not have: the error, a "did you mean" when
    one is close (by spelling, or by words: its own or its title's in ``titles``), else (with
    ``listing``) every name there is, sorted."""
    names = sorted(known)
    hints = did_you_mean(str(wanted), names, titles=titles, loose=titles is not None) or (
        (f"{listing}: {', '.join(names) or 'none'}",) if listing else ()
    )
    ctx.error(code, message, span, *hints)
