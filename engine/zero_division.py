"""A division by 0 in a card's expression, said in the game's words.

``gain coins total / ships`` holding no ships fails in the generated code as Python's
ZeroDivisionError. :func:`engine.locate.locate` (the handler-call boundary, nothing
added per division) turns it into this rule error: what the statement divides by, read from
the card's own text at the statement's position, and how to guard it. Only the error path
reads the file; the generated code divides as it did.
"""

from __future__ import annotations

from pathlib import Path

#: At most this many characters of the statement's line are read (a line of a card file).
_LINE_LIMIT = 2000


def divided_by_zero_message(where: tuple[str, int, int] | None, handlers: str = "") -> str:
    """The words of the rule error for a division (``/``) or remainder (``%``) by 0 in the
    statement at ``where`` (the DSL file, line and column the generated line maps to): the
    divisors it writes, when its file can be read, and the hint to guard it with ``if``.
    ``handlers``: the generated module's file, whose project a relative path is read in
    when the current folder is another (``cardc test`` run in a subfolder)."""
    divisors = _divisors(where, handlers) if where is not None else []
    if len(divisors) == 1:
        what = f"divides by '{divisors[0]}', which is 0 here"
        divisor = divisors[0]
    else:
        named = " and by ".join(f"'{d}'" for d in divisors)
        what = (
            f"divides by {named}, and one of them is 0 here"
            if divisors
            else "divides by a value that is 0 here"
        )
        divisor = "DIVISOR"
    return (
        f"this {what}: a number divided by 0 (with '/' or '%') has no value; guard it with "
        f"'if {divisor} > 0 {{ ... }}', or divide by max({divisor}, 1)"
    )


def _divisors(where: tuple[str, int, int], handlers: str) -> list[str]:
    """The divisors, as written, of the ``/`` and ``%`` in the statement at ``where``: its
    line from its column up to its block (``{``), the next statement (``;``) or a comment.
    An unreadable file (a game built elsewhere) gives none."""
    path, line, column = where
    text = None
    # A path relative to the project (cards/GAME/...): the current folder's, else that of
    # generated/GAME[/VARIANT]/handlers.py.
    places = [Path(path)]
    if handlers and not Path(path).is_absolute():
        places += [parent / path for parent in list(Path(handlers).parents)[2:4]]
    for place in places:
        try:
            with place.open(encoding="utf-8-sig") as handle:
                text = next((t for n, t in enumerate(handle, start=1) if n == line), None)
            break
        except (OSError, UnicodeDecodeError, ValueError):
            continue
    if text is None:
        return []
    start = max(column - 1, 0)
    return _scan(text[start : start + _LINE_LIMIT])


def _scan(text: str) -> list[str]:
    """The right operand of each ``/`` and ``%`` in ``text``, a statement's DSL, in order."""
    found: list[str] = []
    depth = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char == '"':
            index = _after_string(text, index)
            continue
        if char == "#" or (depth == 0 and char in "{;}"):
            break
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char in "/%":
            operand = _operand(text, index + 1)
            if operand:
                found.append(operand)
        index += 1
    return found


def _after_string(text: str, start: int) -> int:
    """The index just after the string literal that starts at ``start``."""
    index = start + 1
    while index < len(text) and text[index] != '"':
        index += 2 if text[index] == "\\" else 1
    return index + 1


def _operand(text: str, start: int) -> str:
    """The operand that starts at ``start``: ``*``, ``/`` and ``%`` bind tighter than any
    other operator, so it is one term: a name with its calls and members (``count(hand)``,
    ``site.tent_sites``), a number, a bracketed expression, with a leading ``-``."""
    index = start
    while index < len(text) and text[index] == " ":
        index += 1
    begin = index
    if index < len(text) and text[index] == "-":
        index += 1
    while index < len(text):
        char = text[index]
        if char in "([":
            index = _after_brackets(text, index)
        elif char.isalnum() or char in "_.":
            index += 1
        else:
            break
    return text[begin:index].strip()


def _after_brackets(text: str, start: int) -> int:
    """The index just after the bracket opened at ``start`` is closed (or the text's end)."""
    depth = 0
    index = start
    while index < len(text):
        char = text[index]
        if char == '"':
            index = _after_string(text, index)
            continue
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
            if depth == 0:
                return index + 1
        index += 1
    return index
