"""A game's rules reference and card wording: ``cards/<game>/reference.yaml``.

The file is data beside the cards: the rulebook's phases, its tables (crew actions, titles,
turn summary, scoring layers, the raid), its Icon Reference, and the rulebook's words for the
game's names, used when card text is generated from the rules. Every key is optional: a game
without the file gets sheets worded from its vocabulary's own descriptions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REFERENCE_FILE = "reference.yaml"


class ReferenceError(ValueError):
    """A reference.yaml that cannot be read, with the file and line of the problem."""


@dataclass(frozen=True)
class Icon:
    """One entry of the Icon Reference: its shape, the rulebook's label and meaning."""

    name: str
    shape: str
    label: str
    meaning: str


@dataclass(frozen=True)
class Table:
    """A table a player needs, quoted from the rulebook section ``source``."""

    title: str
    source: str
    columns: list[str]
    rows: list[list[str]]


@dataclass
class Reference:
    """Everything of reference.yaml, with defaults for what it leaves out."""

    phases_intro: str = ""
    phases_source: str = ""
    phases: list[tuple[str, str]] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    icons: dict[str, Icon] = field(default_factory=dict)
    words: dict[str, str] = field(default_factory=dict)
    phrases: dict[str, str] = field(default_factory=dict)
    when: dict[str, str] = field(default_factory=dict)
    #: The kinds printed as cards (None: every kind); board data such as map spaces is not.
    printed_kinds: list[str] | None = None


def _pairs(raw: Any, where: str) -> list[tuple[str, str]]:
    out = []
    for item in raw or []:
        if not isinstance(item, list) or len(item) != 2:
            raise ReferenceError(f"{where}: each entry is [title, text]")
        out.append((str(item[0]), str(item[1])))
    return out


def load_reference(path: Path) -> Reference:
    """Read ``path`` (a missing file is an empty reference)."""
    from ruamel.yaml.error import YAMLError

    from dsl.yaml_load import YamlLimitError, load_yaml

    if not path.is_file():
        return Reference()
    try:
        data = load_yaml(path.read_text(encoding="utf-8"), "safe", source=str(path)) or {}
    except YamlLimitError as error:
        raise ReferenceError(str(error)) from error
    except YAMLError as error:
        raise ReferenceError(f"{path}: {error}") from error
    if not isinstance(data, dict):
        raise ReferenceError(f"{path}: expected a mapping at the top")
    ref = Reference()
    phases = data.get("phases") or {}
    ref.phases_intro = str(phases.get("intro", ""))
    ref.phases_source = str(phases.get("from", ""))
    ref.phases = _pairs(phases.get("items"), f"{path}: phases.items")
    for table in data.get("tables") or []:
        try:
            ref.tables.append(
                Table(
                    str(table["title"]),
                    str(table.get("from", "")),
                    [str(c) for c in table["columns"]],
                    [[str(cell) for cell in row] for row in table["rows"]],
                )
            )
        except (KeyError, TypeError) as error:
            raise ReferenceError(f"{path}: a table needs title, columns and rows") from error
    ref.notes = _pairs(data.get("notes"), f"{path}: notes")
    for name, icon in (data.get("icons") or {}).items():
        if not isinstance(icon, dict) or "shape" not in icon:
            raise ReferenceError(f"{path}: icon '{name}' needs a shape")
        ref.icons[str(name)] = Icon(
            str(name),
            str(icon["shape"]),
            str(icon.get("label", name)),
            str(icon.get("meaning", "")),
        )
    kinds = data.get("printed_kinds")
    if kinds is not None:
        if not isinstance(kinds, list):
            raise ReferenceError(f"{path}: 'printed_kinds' is a list of card kinds")
        ref.printed_kinds = [str(k) for k in kinds]
    for key in ("words", "phrases", "when"):
        values = data.get(key) or {}
        if not isinstance(values, dict):
            raise ReferenceError(f"{path}: '{key}' is a mapping of name -> text")
        setattr(ref, key, {str(k): str(v) for k, v in values.items()})
    return ref
