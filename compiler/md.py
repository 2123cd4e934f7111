"""Markdown from data: card text, titles and file names that cannot become markup or HTML.

Every Markdown output (the sheets' ``.md``, the errata sheet) writes data through these:
:func:`escape_md` for text (every character Markdown or HTML gives a meaning is
backslash-escaped, and a line end, which would start a new block, becomes a space),
:func:`code_md` for a code span (a fence longer than any run of backticks inside) and
:func:`comment_md` for an HTML comment (nothing in it can close it).
"""

from __future__ import annotations

import re

# CommonMark lets any ASCII punctuation be backslash-escaped; these are the ones that can
# start markup: emphasis, code, links and images, HTML, headings, lists, tables.
# Not "&": an entity (&lt;) becomes text, never markup, and "Bandit & Pirate" reads as itself.
_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")
# At the start of a line these open a block (a list item, a setext heading's underline).
_LEADING = re.compile(r"^([-=]|\d+(?=[.)]))")
_LINE_ENDS = re.compile(r"[\r\n\u2028\u2029\x0b\x0c\x85]+")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def _one_line(text: str) -> str:
    return _CONTROL.sub("\ufffd", _LINE_ENDS.sub(" ", text))


def escape_md(text: object) -> str:
    """``text`` as Markdown text that reads as itself: on one line, no markup, no HTML.

    For text that begins a line, pass the line through :func:`line_md` too.
    """
    return _SPECIAL.sub(r"\\\1", _one_line(str(text)))


def line_md(line: str) -> str:
    """An escaped line that cannot open a block (a list item, a setext underline, a code
    block): what would is escaped, and leading blanks go."""
    line = line.lstrip(" \t")
    lead = _LEADING.match(line)
    if lead is None:
        return line
    if lead.group(1)[0].isdigit():  # "1. " would be a numbered list: escape the dot
        return line[: lead.end()] + "\\" + line[lead.end() :]
    return "\\" + line


def code_md(text: object) -> str:
    """``text`` as a Markdown code span, whatever backticks it holds."""
    body = _one_line(str(text))
    longest = max((len(run) for run in re.findall("`+", body)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if body.startswith("`") or body.endswith("`") or not body.strip() else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def comment_md(text: object) -> str:
    """``text`` as an HTML comment on one line that nothing inside can end early."""
    body = _one_line(str(text))
    while "--" in body:
        body = body.replace("--", "- -")
    return f"<!-- {body.replace('>', ')').replace('<', '(')} -->"
