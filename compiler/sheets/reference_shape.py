"""The shape ``reference.yaml`` must have, checked with the YAML's own lines and columns.

:func:`compiler.sheets.reference.load_reference` reads the file assuming its shape: a list
where a mapping belongs, or an icon shape the sheets cannot draw, crashed ``cardc build``
after ``cardc check`` had passed. :func:`check_reference` is run first (by ``load_reference``
and by ``cardc check``): each key it knows must hold what the sheets read from it, and a
problem is a :class:`ReferenceShapeError` at the key's line and column, saying what belongs
there. Keys it does not know are left to the reader.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from dsl.diagnostics import Diagnostic
from dsl.nodes import Span

Scalar = (str, int, float, bool)


class ReferenceShapeError(ValueError):
    """A reference.yaml value of the wrong shape, at its line and column (1-based)."""

    def __init__(self, path: str, line: int, column: int, message: str, hint: str) -> None:
        super().__init__(f"{path}:{line}:{column}: {message}\n  hint: {hint}")
        self.path, self.line, self.column = path, line, column
        self.message, self.hint = message, hint

    def diagnostic(self) -> Diagnostic:
        """This problem as a diagnostic at its span."""
        span = Span(self.path, self.line, self.column, self.line, self.column + 1)
        return Diagnostic("reference-shape", self.message, span, "error", (self.hint,))


def _where(node: Any, key: Any, at_key: bool = False) -> tuple[int, int]:
    """The 1-based line and column of ``node[key]``'s value (the key's when unknown, or when
    ``at_key``: a key that does not belong there)."""
    lc = getattr(node, "lc", None)
    if lc is None:
        return 1, 1
    try:
        if at_key:
            raise KeyError(key)
        line, column = lc.item(key) if isinstance(key, int) else lc.value(key)
    except (KeyError, IndexError, TypeError, AttributeError):
        try:
            line, column = lc.key(key)
        except (KeyError, TypeError, AttributeError):
            line, column = lc.line, lc.col
    return line + 1, column + 1


class _Checker:
    def __init__(self, path: str) -> None:
        self.path = path

    def fail(self, node: Any, key: Any, message: str, hint: str, at_key: bool = False) -> None:
        line, column = _where(node, key, at_key)
        raise ReferenceShapeError(self.path, line, column, message, hint)

    def want(self, node: Any, key: Any, kind: type | tuple[type, ...], what: str, hint: str) -> Any:
        value = node[key]
        if value is None and kind is not Scalar:
            return [] if kind is list else {}
        if not isinstance(value, kind):
            self.fail(node, key, f"'{key}' holds {what}", hint)
        return value

    def text(self, node: Any, key: Any, where: str) -> None:
        value = node[key]
        if value is not None and not isinstance(value, Scalar):
            self.fail(node, key, f"{where} is text, not a list or mapping", "write it as text")

    def pairs(
        self, node: Any, key: str, where: str, tied: str = "", ties: tuple[str, ...] = ()
    ) -> None:
        """A list of ``[title, text]`` entries; with ``tied`` (the key of the pair), an entry
        may also be ``{card: ID, tied: [title, text]}`` (``ties`` are the keys it may give)."""
        items = self.want(node, key, list, "a list of [title, text] pairs", "- [Title, text]")
        shown = f"{{{', '.join(f'{t}: NAME' for t in ties)}, {tied}: [Title, text]}}"
        for index, item in enumerate(items):
            holder: Any = items
            at: Any = index
            if tied and isinstance(item, dict):
                for name in item:
                    if name not in (*ties, tied):
                        self.fail(
                            item,
                            name,
                            f"an entry of {where} has no '{name}'",
                            f"its keys: {', '.join((*ties, tied))}",
                            at_key=True,
                        )
                    if name in ties:
                        self.text(item, name, f"'{name}' of an entry of {where}")
                if tied not in item:
                    self.fail(items, index, f"an entry of {where} needs '{tied}'", shown)
                holder, at, item = item, tied, item[tied]
            if not isinstance(item, list) or len(item) != 2:
                self.fail(
                    holder,
                    at,
                    f"each entry of {where} is [title, text]",
                    f"- [Title, text] or - {shown}" if tied else "- [Title, text]",
                )
            for part in range(2):
                self.text(item, part, f"an entry of {where}")


def check_reference(
    data: Any, path: str, shapes: Callable[[], set[str]], variant: bool = False
) -> None:
    """Raise :class:`ReferenceShapeError` for the first value of the wrong shape in ``data``
    (reference.yaml loaded round-trip); ``shapes()`` gives the icon shapes there are.
    ``variant``: a variant's reference, whose tables may leave out ``columns`` and ``rows``
    (the game's table of that title keeps its own)."""
    check = _Checker(path)
    if data is None:
        return
    if not isinstance(data, dict):
        raise ReferenceShapeError(
            path, 1, 1, "reference.yaml is a mapping of keys", "start with a key: phases: ..."
        )
    if "phases" in data:
        phases = check.want(
            data, "phases", dict, "intro, from, items and omit", "phases: {items: [...]}"
        )
        for key in ("intro", "from"):
            if key in phases:
                check.text(phases, key, f"phases.{key}")
        if "items" in phases:
            check.pairs(phases, "items", "phases.items", "item", ("phase", "card"))
        if "omit" in phases:
            names = check.want(phases, "omit", list, "a list of phase names", "[logbook]")
            for index in range(len(names)):
                check.text(names, index, "a phase name")
    if "notes" in data:
        check.pairs(data, "notes", "notes", "note", ("card",))
    if "tables" in data:
        tables = check.want(data, "tables", list, "a list of tables", "- {title: ..., rows: []}")
        for index, table in enumerate(tables):
            if not isinstance(table, dict):
                check.fail(
                    tables, index, "a table is a mapping", "{title: T, columns: [...], rows: [...]}"
                )
            patch = variant and "rows" not in table
            for key in ("title",) if patch else ("title", "columns", "rows"):
                if key not in table:
                    check.fail(tables, index, f"a table needs '{key}'", "title, columns and rows")
            check.text(table, "title", "a table's title")
            if "from" in table:
                check.text(table, "from", "a table's 'from'")
            if patch:  # the game's rows stay; a new citation (and columns) over them
                if "columns" in table:
                    columns = check.want(table, "columns", list, "a list of column titles", "[A]")
                    for column in range(len(columns)):
                        check.text(columns, column, "a column title")
                continue
            columns = check.want(table, "columns", list, "a list of column titles", "[A, B]")
            for column in range(len(columns)):
                check.text(columns, column, "a column title")
            rows = check.want(table, "rows", list, "a list of rows", "- [cell, cell]")
            for number, row in enumerate(rows):
                if isinstance(row, dict):  # a row tied to a card: {card: ID, row: [cells]}
                    if "row" not in row:
                        check.fail(
                            rows,
                            number,
                            "a row given as a mapping needs 'row'",
                            "{card: ID, row: [...]}",
                        )
                    row = check.want(row, "row", list, "a list of cells", "[cell, cell]")
                elif not isinstance(row, list):
                    check.fail(rows, number, "a row is a list of cells", "- [cell, cell]")
                for cell in range(len(row)):
                    check.text(row, cell, "a table cell")
    if "icons" in data:
        icons = check.want(
            data, "icons", dict, "icon names, each with a shape", "icons: {gold: {shape: coin}}"
        )
        known = shapes()
        for name, icon in icons.items():
            if not isinstance(icon, dict) or "shape" not in icon:
                check.fail(icons, name, f"icon '{name}' needs a shape", f"{name}: {{shape: coin}}")
            shape = icon["shape"]
            if not isinstance(shape, str) or shape not in known:
                from compiler.suggest import did_you_mean

                hint = did_you_mean(str(shape), sorted(known)) or (
                    f"shapes: {', '.join(sorted(known))}",
                )
                check.fail(icon, "shape", f"no icon shape '{shape}'", hint[0])
            for key in ("label", "meaning", "card"):
                if key in icon:
                    check.text(icon, key, f"icon '{name}''s {key}")
    if "printed_kinds" in data:
        kinds = check.want(
            data, "printed_kinds", list, "a list of card kinds", "[voyage, port_card]"
        )
        for index in range(len(kinds)):
            check.text(kinds, index, "a card kind")
    for key in ("words", "phrases", "when", "tags", "labels", "kinds"):
        if key in data:
            values = check.want(
                data, key, dict, "a mapping of name -> text", f"{key}: {{name: text}}"
            )
            for name in values:
                check.text(values, name, f"{key}.{name}")


def check_reference_file(path: Path, shown: str | None = None, variant: bool = False) -> Any:
    """Check ``path`` (reference.yaml) when it exists; raises a located error naming the
    file as ``shown`` (default: ``path``). Returns the file loaded round-trip (its nodes know
    their lines), or None when there is no file."""
    from ruamel.yaml.error import YAMLError

    from compiler.sheets.icons import SHAPES
    from dsl.diagnostics import NOT_UTF8_HINT, not_utf8
    from dsl.yaml_load import (
        YamlLimitError,
        load_yaml,
        yaml_error_hint,
        yaml_error_message,
        yaml_error_position,
    )

    if not path.is_file():
        return None
    data = path.read_bytes()
    where = shown or str(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column, message = not_utf8(data, error)
        raise ReferenceShapeError(where, line, column, message, NOT_UTF8_HINT) from error
    try:
        data = load_yaml(text, "rt", source=where)
    except YamlLimitError as error:
        raise ReferenceShapeError(
            where, error.line, error.column, str(error.problem), error.hint
        ) from error
    except YAMLError as error:
        line, column = yaml_error_position(error, text)
        raise ReferenceShapeError(
            where, line, column, yaml_error_message(error), yaml_error_hint(error) or "fix the YAML"
        ) from error
    check_reference(data, where, lambda: set(SHAPES), variant)
    return data


def phase_places(data: Any, path: str) -> dict[str, str]:
    """``path:line:column`` of each phase name ``phases`` gives (an entry's ``phase:``, an
    ``omit`` name), in reference.yaml loaded round-trip: where an unknown one is reported."""
    out: dict[str, str] = {}
    phases = data.get("phases") if isinstance(data, dict) else None
    if not isinstance(phases, dict):
        return out
    for item in phases.get("items") or []:
        if isinstance(item, dict) and item.get("phase") is not None:
            line, column = _where(item, "phase")
            out.setdefault(str(item["phase"]), f"{path}:{line}:{column}")
    omit = phases.get("omit")
    for index, name in enumerate(omit if isinstance(omit, list) else []):
        line, column = _where(omit, index)
        out.setdefault(str(name), f"{path}:{line}:{column}")
    return out
