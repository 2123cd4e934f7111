"""Editing a variant file for ``cardc variant set``/``unset`` without losing the user's bytes.

ruamel.yaml's round trip keeps comments, key order and quoting, but not everything a person
writes: a byte-order mark, CRLF line ends, a ``---`` line, 4-space indentation and a comment
after the last key of a mapping (ruamel ties it to that key, so removing the key removed it).
Here the file's shape is read first (BOM, line ends, document markers, the indentation that
reproduces it), the unedited file must come back from ruamel byte for byte, or the edit is
refused naming the first line ruamel would change; comment lines after an edited key move with
the text around them; and the new file is written atomically (a temporary file beside it,
then a rename), so an interrupted write leaves the old file.
"""

from __future__ import annotations

import copy
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError

from compiler.outputs import write_atomic

__all__ = [
    "EditRefused",
    "item_index",
    "read_document",
    "render",
    "set_value",
    "unset_value",
    "write_atomic",
]

BOM = "\ufeff"


class EditRefused(Exception):
    """An edit cardc will not make; the message says why, the hints what to do instead."""

    def __init__(self, message: str, *hints: str) -> None:
        super().__init__(message)
        self.hints = hints


@dataclass
class Shape:
    """How a variant file is written, beyond what ruamel keeps."""

    bom: bool = False
    newline: str = "\n"
    start: bool = False  # a `---` line before the mapping
    indent: tuple[int, int, int] = (2, 4, 2)  # ruamel's mapping, sequence, offset


@dataclass
class Document:
    """A variant file loaded for editing: its path, shape, original text and data."""

    path: Path
    shape: Shape
    text: str  # without BOM, with "\n" line ends
    data: Any
    #: A file with no keys yet (comments only): its text, kept above the first key set.
    prefix: str = ""
    #: Comment lines left when an unset removed every key before them.
    suffix: str = ""


def _yaml(shape: Shape) -> YAML:
    from compiler.variants import yaml_round_trip

    yaml = yaml_round_trip()
    mapping, sequence, offset = shape.indent
    yaml.indent(mapping=mapping, sequence=sequence, offset=offset)
    yaml.explicit_start = shape.start
    return yaml


def _dump(shape: Shape, data: Any) -> str:
    stream = io.StringIO()
    _yaml(shape).dump(data, stream)
    return stream.getvalue()


def _first_difference(want: str, got: str) -> tuple[int, str, str]:
    lines, other = want.split("\n"), got.split("\n")
    for number, (a, b) in enumerate(zip(lines, other, strict=False), start=1):
        if a != b:
            return number, a, b
    number = min(len(lines), len(other))
    return number, "\n".join(lines[number:])[:60], "\n".join(other[number:])[:60]


def _indent_candidates() -> list[tuple[int, int, int]]:
    out = [(2, 4, 2), (2, 2, 0)]
    for mapping in (2, 4, 3):
        for offset in range(0, mapping + 1):
            for sequence in (offset + 2, max(mapping, offset + 2), offset + mapping):
                if (mapping, sequence, offset) not in out:
                    out.append((mapping, sequence, offset))
    return out


def read_document(path: Path) -> Document:
    """Read ``path`` for an edit; :class:`EditRefused` when it cannot be edited faithfully."""
    from dsl.diagnostics import NOT_UTF8_HINT, not_utf8
    from dsl.yaml_load import YamlLimitError, yaml_error_hint, yaml_error_position

    try:
        raw = path.read_bytes()
    except OSError as error:
        raise EditRefused(f"cannot read {path}: {error.strerror or error}") from error
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column, message = not_utf8(raw, error)
        raise EditRefused(
            f"{path}:{line}:{column}: {message}, so cardc cannot edit it", NOT_UTF8_HINT
        ) from error
    shape = Shape()
    if text.startswith(BOM):
        shape.bom, text = True, text[1:]
    crlf = text.count("\r\n")
    if crlf:
        if text.count("\n") != crlf or "\r" in text.replace("\r\n", ""):
            raise EditRefused(
                f"{path} mixes line ends (CRLF and LF); cardc would have to change them",
                "give every line the same end, then edit again",
            )
        shape.newline, text = "\r\n", text.replace("\r\n", "\n")
    elif "\r" in text:
        raise EditRefused(f"{path} ends lines with CR alone; cardc edits LF or CRLF files")
    try:
        data = _yaml(shape).load(text)
    except YamlLimitError as error:
        where = f"{path}:{error.line}:{error.column}"
        raise EditRefused(f"{where}: {error.problem}", error.hint) from error
    except YAMLError as error:
        line, column = yaml_error_position(error, text)
        where = f"{path}:{line}:{column}"
        problem = getattr(error, "problem", None) or str(error).split("\n")[0]
        raise EditRefused(
            f"{where}: this is not valid YAML: {problem}",
            (yaml_error_hint(error) or "fix the file (cardc check shows the problem)")
            + ", then edit again",
        ) from error
    prefix = ""
    if data is None:
        data = CommentedMap()
        prefix = text if text.endswith("\n") or not text else text + "\n"
    if not isinstance(data, CommentedMap):
        raise EditRefused(
            f"{path}: a variant is a mapping of keys (description, params, cards, ...), "
            f"not {_a(data)}",
            "fix the file (cardc check shows the problem), then edit again",
        )
    lines = text.split("\n")
    opening = next((i for i, line in enumerate(lines) if line.strip() and line[0] != "#"), None)
    if opening is not None and lines[opening].rstrip() == "---":
        # Comments and the `---` line above the mapping are kept as they are: ruamel would
        # move the comments below the `---`.
        prefix = "\n".join(lines[: opening + 1]) + "\n"
        text = "\n".join(lines[opening + 1 :])
        data = _yaml(shape).load(text) or CommentedMap()
    if not text.strip() or not data:
        return Document(path, shape, text, data, prefix)
    first = None
    for indent in _indent_candidates():
        shape.indent = indent
        dumped = _dump(shape, data)
        if dumped == text:
            return Document(path, shape, text, data, prefix)
        first = first or dumped
    assert first is not None
    number, want, got = _first_difference(text, first)
    number += prefix.count("\n") if prefix else 0
    raise EditRefused(
        f"{path}:{number}: cardc cannot rewrite this file without changing other lines: "
        f"ruamel.yaml would write {got!r} for {want!r}",
        "make the edit by hand, or write the file in ruamel's style (cardc variant new)",
    )


def _a(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "a number"
    return "a single value"


def _head(text: str) -> str:
    """The comment and blank lines above the first key."""
    out = []
    for line in text.split("\n"):
        if line.strip() and not line.lstrip().startswith("#"):
            break
        out.append(line + "\n")
    return "".join(out)


def render(document: Document) -> bytes:
    """The document's data as the file's bytes, in the file's own shape."""
    # A mapping left empty: ruamel would write "{}"; the comments above it stay.
    text = _dump(document.shape, document.data) if document.data else _head(document.text)
    text = document.prefix + text + document.suffix
    text = text.replace("\n", document.shape.newline)
    return ((BOM if document.shape.bom else "") + text).encode("utf-8")


# -- comments that follow a key (ruamel keeps them in that key's comment token)


def _tail(node: Any) -> tuple[Any, Any, int] | None:
    """Where the comment after the textual end of ``node`` lives: (holder, key, slot)."""
    while isinstance(node, (CommentedMap, CommentedSeq)) and len(node):
        key = list(node.keys())[-1] if isinstance(node, CommentedMap) else len(node) - 1
        value = node[key]
        if isinstance(value, (CommentedMap, CommentedSeq)) and len(value):
            node = value
            continue
        return node, key, 2 if isinstance(node, CommentedMap) else 0
    return None


def _entry_tail(node: Any, key: Any) -> tuple[Any, Any, int]:
    value = node[key]
    if isinstance(value, (CommentedMap, CommentedSeq)) and len(value):
        found = _tail(value)
        assert found is not None
        return found
    return node, key, 2 if isinstance(node, CommentedMap) else 0


def _take_following(place: tuple[Any, Any, int]) -> str:
    """Remove and return the comment lines after the line of ``place`` (its own end-of-line
    comment stays)."""
    holder, key, slot = place
    entry = holder.ca.items.get(key)
    token = entry[slot] if entry and len(entry) > slot else None
    if token is None or "\n" not in token.value:
        return ""
    own, following = token.value.split("\n", 1)
    if not following:
        return ""
    token.value = own + "\n"
    return following


def _give_following(place: tuple[Any, Any, int], following: str, like: Any) -> None:
    """Put comment lines ``following`` after the line of ``place``."""
    if not following:
        return
    holder, key, slot = place
    entry = holder.ca.items.setdefault(key, [None, None, None, None])
    while len(entry) <= slot:
        entry.append(None)
    token = entry[slot]
    if token is None:
        token = copy.copy(like)
        token.value = "\n"
        entry[slot] = token
    token.value = token.value + following


def _token_at(place: tuple[Any, Any, int]) -> Any:
    holder, key, slot = place
    entry = holder.ca.items.get(key)
    return entry[slot] if entry and len(entry) > slot else None


def set_value(data: Any, parts: list[str], value: Any) -> None:
    """``data[parts...] = value``, creating mappings on the way; comment lines that followed
    the mapping's last line stay after it (they now follow the new key)."""
    node = data
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if isinstance(node, CommentedSeq):
            # A list (a variant's flow: edits): PATH names an item by its number from 0.
            at = item_index(node, part, ".".join(parts[:index]), adding=last)
            if at == len(node):
                node.append(value)
                return
            if last:
                node[at] = value
                return
            child = node[at]
            if not isinstance(child, CommentedMap):
                raise EditRefused(
                    f"item {at} of {'.'.join(parts[:index])} holds a value, not keys",
                    f"set {'.'.join(parts[: index + 1])} whole",
                )
            node = child
            continue
        if isinstance(node, CommentedMap) and part in node:
            if last:
                node[part] = value
                return
            child = node[part]
            if child is None:
                node[part] = child = CommentedMap()
            elif not isinstance(child, (CommentedMap, CommentedSeq)):
                raise EditRefused(
                    f"'{part}' in {'.'.join(parts)} holds a value, not keys",
                    f"unset {'.'.join(parts[: index + 1])} first, or set it whole",
                )
            node = child
            continue
        # A new key at the end of ``node``: what followed the mapping now follows the new key.
        before = _tail(node)
        token = _token_at(before) if before is not None else None
        following = _take_following(before) if before is not None else ""
        new: Any = value
        for at, later in reversed(list(enumerate(parts[index + 1 :], index + 1))):
            if later.isdigit():
                # A list made here (a variant's first flow edit, flow.0): its first item.
                item_index([], later, ".".join(parts[:at]), adding=True)
                seq = CommentedSeq()
                seq.append(new)
                new = seq
                continue
            holder = CommentedMap()
            holder[later] = new
            new = holder
        node[part] = new
        if following:
            _give_following(_entry_tail(node, part), following, token)
        return


def item_index(items: Any, part: str, where: str, adding: bool = False) -> int:
    """The list index ``part`` names in ``items`` (``flow.0``: the first edit); with
    ``adding``, one past the end adds an item. :class:`EditRefused` otherwise."""
    top = len(items) + (1 if adding else 0)
    if not part.isdigit() or int(part) >= top:
        span = f"0 to {top - 1}" if top else "none yet"
        raise EditRefused(
            f"{where} is a list of {len(items)} item{'s' if len(items) != 1 else ''}: "
            f"'{part}' is not one of its numbers ({span})",
            f"name an item by its number from 0: {where}.0"
            + (f"; {where}.{len(items)} adds one at the end" if adding else ""),
        )
    return int(part)


def _step(node: Any, part: str) -> Any:
    """``node[part]``: a key of a mapping or a number of a list."""
    return node[int(part)] if isinstance(node, CommentedSeq) else node[part]


def unset_value(data: Any, parts: list[str]) -> str:
    """Remove ``data[parts...]`` and the mappings it leaves empty (so ``set`` then ``unset``
    of a new key gives the file back); comment lines after it move to the line before it.
    A part that names a list item by its number removes that item (the items after it move
    up one).

    Returns the comment lines left over when nothing is left before them (the file is then
    those lines alone): the caller keeps them.
    """
    trail = [data]
    for part in parts:
        trail.append(_step(trail[-1], part))
    # The topmost entry that goes: the key itself, or the mapping that only held it (a list
    # is kept, even when it is left empty: it is the whole value of its key).
    depth = len(parts) - 1
    while depth > 0 and len(trail[depth]) == 1 and not isinstance(trail[depth], CommentedSeq):
        depth -= 1
    node = trail[depth]
    key: Any = int(parts[depth]) if isinstance(node, CommentedSeq) else parts[depth]
    token = _token_at(_entry_tail(node, key))
    following = _take_following(_entry_tail(node, key))
    keys = list(node.keys()) if isinstance(node, CommentedMap) else list(range(len(node)))
    position = keys.index(key)
    del node[key]
    if not following:
        return ""
    if position > 0:
        _give_following(_entry_tail(node, keys[position - 1]), following, token)
        return ""
    # The first key went: the comment goes to the end of whatever precedes this mapping.
    for up in range(depth - 1, -1, -1):
        parent, name = trail[up], parts[up]
        if isinstance(parent, CommentedSeq):
            at = int(name)
            if at > 0:
                _give_following(_entry_tail(parent, at - 1), following, token)
                return ""
            continue
        siblings = list(parent.keys())
        at = siblings.index(name)
        if at > 0:
            _give_following(_entry_tail(parent, siblings[at - 1]), following, token)
            return ""
    if not data:
        return following
    raise EditRefused(
        "removing it would remove the comment after it: nothing is left before it to keep it",
        "remove the value by hand",
    )
