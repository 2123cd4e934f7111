"""The one way cardc reads YAML: ruamel.yaml with aliases and nesting bounded.

A YAML alias (``*a``) stands for a whole subtree, so a few hundred bytes of anchors that alias
each other ("billion laughs") expand to billions of nodes: whatever walks the data then hangs or
exhausts memory. Deep nesting (``[[[[...]]]]``) ends in RecursionError in ruamel's recursive
composer. Both are stopped here, while the file is composed and before anything is built from
it, with a :class:`YamlLimitError` that says where, which bound, and how to fix the file.

Every reader of scenarios, variants, reference tables and manifests goes through
:func:`bounded` (directly, or through :func:`load_yaml` / :func:`load_yaml_all`). Round-trip
mode keeps ruamel's line and column information (``.lc``) for callers that point at the YAML.
"""

from __future__ import annotations

from typing import Any, Literal

from ruamel.yaml import YAML
from ruamel.yaml.composer import Composer
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent, StreamStartEvent

__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_DEPTH",
    "YamlLimitError",
    "bounded",
    "load_yaml",
    "load_yaml_all",
    "yaml_error_hint",
    "yaml_error_message",
    "yaml_error_position",
]

#: How deep mappings and sequences may nest. No cardc file needs more than a handful of
#: levels; the bound is far below where the composer's recursion would fail.
MAX_DEPTH = 100

#: How many nodes aliases may add to a file in all (each ``*a`` adds the size of what ``&a``
#: names, expanded). No shipped file uses aliases at all; this leaves room for ordinary reuse
#: while keeping whatever walks the data to a fraction of a second.
MAX_ALIAS_NODES = 10_000

Mode = Literal["rt", "safe"]


class YamlLimitError(MarkedYAMLError):
    """YAML that passes a bound (alias expansion or depth): where, which bound, how to fix.

    It is a ruamel ``MarkedYAMLError``, so code that catches ``YAMLError`` and reads
    ``problem_mark`` and ``problem`` keeps working; ``line`` and ``column`` are 1-based.
    """

    def __init__(self, bound: str, problem: str, hint: str, mark: Any) -> None:
        super().__init__(problem=problem, problem_mark=mark)
        self.bound = bound
        self.hint = hint
        self.source = str(getattr(mark, "name", "") or "<yaml>")
        self.line = (mark.line + 1) if mark is not None else 1
        self.column = (mark.column + 1) if mark is not None else 1

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}: {self.problem}\n  hint: {self.hint}"


class BoundedComposer(Composer):
    """ruamel's composer, counting depth and the nodes aliases add as it goes.

    The expanded size of each node is known when the node is complete (1 + its children's);
    an alias adds its anchor's expanded size. An alias to a node still being composed (a
    structure that contains itself) has no finite size and is refused as well.
    """

    max_depth = MAX_DEPTH
    max_alias_nodes = MAX_ALIAS_NODES

    def __init__(self, loader: Any = None) -> None:
        super().__init__(loader)
        self._reset_bounds()

    def _reset_bounds(self) -> None:
        self._depth = 0
        self._alias_nodes = 0
        self._sizes: dict[int, int] = {}
        # One running total per node being composed: the expanded size of its children.
        self._open: list[int] = []

    def check_node(self) -> Any:
        """A new stream starts: the counts start again (a YAML object may load many)."""
        if self.parser.check_event(StreamStartEvent):
            self._reset_bounds()
        return super().check_node()

    def get_single_node(self) -> Any:
        """As ruamel's, with the counts started afresh for the stream."""
        self._reset_bounds()
        return super().get_single_node()

    def compose_node(self, parent: Any, index: Any) -> Any:
        """Compose one node, refusing it when it passes a bound."""
        if self.parser.check_event(AliasEvent):
            event = self.parser.peek_event()
            target = self.anchors.get(event.anchor)
            size = 1
            if target is not None:
                known = self._sizes.get(id(target))
                if known is None:
                    raise YamlLimitError(
                        "recursive alias",
                        f"the alias *{event.anchor} is inside the node &{event.anchor} names, "
                        "so the data would contain itself",
                        f"write the value out instead of *{event.anchor}",
                        event.start_mark,
                    )
                size = known
                self._alias_nodes += size
                if self._alias_nodes > self.max_alias_nodes:
                    raise YamlLimitError(
                        "alias expansion",
                        f"aliases in this file expand to more than {self.max_alias_nodes:,} "
                        f"nodes (at *{event.anchor}); cardc refuses such a file rather than "
                        "hang expanding it",
                        "write the repeated values out, or use fewer and smaller aliases",
                        event.start_mark,
                    )
            node = super().compose_node(parent, index)
            if self._open:
                self._open[-1] += size
            return node
        if self._depth >= self.max_depth:
            event = self.parser.peek_event()
            raise YamlLimitError(
                "nesting depth",
                f"mappings and lists nest more than {self.max_depth} levels deep here",
                "flatten the data: no cardc file needs more than a few levels",
                event.start_mark,
            )
        self._depth += 1
        self._open.append(0)
        try:
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
            inner = self._open.pop()
        size = 1 + inner
        self._sizes[id(node)] = size
        if self._open:
            self._open[-1] += size
        return node


def bounded(yaml: YAML) -> YAML:
    """``yaml`` (a ruamel ``YAML``) with the bounded composer: aliases and depth limited.

    Call it before the first load. Dumping is unaffected.
    """
    yaml.Composer = BoundedComposer
    return yaml


def _make(mode: Mode) -> YAML:
    # pure=True: the C parser composes on its own and would not be bounded.
    return bounded(YAML(typ=mode, pure=True))


def load_yaml(text: str, mode: Mode = "rt", source: str | None = None) -> Any:
    """One YAML document from ``text``, bounded; ``rt`` keeps positions (``.lc``).

    Raises ``ruamel.yaml.error.YAMLError`` on bad YAML, :class:`YamlLimitError` past a bound
    (its message names ``source``, the file as the user knows it).
    """
    try:
        return _make(mode).load(text)
    except YamlLimitError as error:
        error.source = source or error.source
        raise


def load_yaml_all(text: str, mode: Mode = "rt", source: str | None = None) -> list[Any]:
    """Every document of ``text`` (``---`` separated), bounded, as a list."""
    try:
        return list(_make(mode).load_all(text))
    except YamlLimitError as error:
        error.source = source or error.source
        raise


def yaml_error_position(error: YAMLError, text: str) -> tuple[int, int]:
    """The 1-based line and column a load error points at (a reader error gives only an
    offset into ``text``: a character YAML does not allow)."""
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    if mark is not None:
        return mark.line + 1, mark.column + 1
    position = getattr(error, "position", None)
    if isinstance(position, int):
        before = text[:position]
        return before.count("\n") + 1, position - (before.rfind("\n") + 1) + 1
    return 1, 1


def yaml_error_message(error: YAMLError) -> str:
    """A short message for a load error, for a caller that prints its own file and line."""
    if isinstance(error, YamlLimitError):
        return f"{error.problem} (hint: {error.hint})"
    problem = getattr(error, "problem", None)
    if problem is None and hasattr(error, "character"):  # a reader error: a bad character
        code = error.character if isinstance(error.character, int) else ord(error.character[0])
        problem = f"the character U+{code:04X} is not allowed in YAML"
    return f"this is not valid YAML: {problem or str(error)}"


def yaml_error_hint(error: YAMLError) -> str | None:
    """How to fix a load error a designer commonly makes (a tab, a key given twice, a
    character YAML does not take), or None when the message says all there is (a
    :class:`YamlLimitError`'s :func:`yaml_error_message` holds its hint)."""
    if isinstance(error, YamlLimitError):
        return None
    problem = str(getattr(error, "problem", None) or "")
    if "'\\t'" in problem:
        return "indent with spaces: YAML does not take a tab there"
    if problem.startswith("found duplicate key"):
        first = getattr(error, "context_mark", None)
        where = f" (this mapping starts at line {first.line + 1})" if first is not None else ""
        return f"give each key once in a mapping{where}: keep one of the two, or merge them"
    if problem.startswith("mapping values are not allowed"):
        return (
            "quote a value that holds ': ' (name: \"a: b\"), or put a nested key on a line "
            "of its own"
        )
    if hasattr(error, "character"):  # a reader error: a character no YAML file may hold
        return "remove the character: a YAML file is text (is this the right file?)"
    return None
