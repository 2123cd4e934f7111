"""AST nodes of the cardc rules language.

Every node is a frozen dataclass carrying a :class:`Span`. The parser builds them straight from
the LALR reductions (no intermediate parse tree), so node construction is on the hot path: the
classes use ``slots`` and hold tuples, never lists.

The tree is deliberately generic. A declaration is ``kind args { members }``; whether
``port_card`` is a card kind or ``mark`` a verb is decided by the checker against the game's
vocabulary, never here.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, TypeAlias


@dataclass(frozen=True, slots=True)
class Span:
    """A range of source text: 1-based line and column; ``end_column`` is one past the end."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def to(self, other: Span) -> Span:
        """The span from the start of ``self`` to the end of ``other``."""
        return Span(self.file, self.line, self.column, other.end_line, other.end_column)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


# ---- expressions ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Name:
    """A bare name: a resource, track, zone, card, verb or variable, resolved by the checker."""

    span: Span
    id: str


@dataclass(frozen=True, slots=True)
class Number:
    """A number literal: ``12`` or ``1.5``."""

    span: Span
    value: int | float


@dataclass(frozen=True, slots=True)
class String:
    """A string literal, escapes already decoded."""

    span: Span
    value: str


@dataclass(frozen=True, slots=True)
class Boolean:
    """``true`` or ``false``."""

    span: Span
    value: bool


@dataclass(frozen=True, slots=True)
class Dice:
    """A dice expression ``2d6``: roll ``count`` dice of ``sides`` sides (through the engine)."""

    span: Span
    count: int
    sides: int


@dataclass(frozen=True, slots=True)
class Percent:
    """A percentage ``50%``; ``value`` is the number before the sign."""

    span: Span
    value: int | float


@dataclass(frozen=True, slots=True)
class Range:
    """An inclusive range ``low..high``, as in ``players 1..2``."""

    span: Span
    low: Expr
    high: Expr


@dataclass(frozen=True, slots=True)
class BinaryOp:
    """Arithmetic: ``op`` is one of ``+ - * /``."""

    span: Span
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Compare:
    """A comparison: ``op`` is one of ``< <= > >= == !=``. Comparisons do not chain."""

    span: Span
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class BoolOp:
    """``left and right`` or ``left or right``."""

    span: Span
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Not:
    """``not operand``."""

    span: Span
    operand: Expr


@dataclass(frozen=True, slots=True)
class Call:
    """A call of an engine native or a prelude function: ``count(treasure)``."""

    span: Span
    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Attribute:
    """Member access: ``placed.tile``."""

    span: Span
    value: Expr
    attr: str


@dataclass(frozen=True, slots=True)
class ListLiteral:
    """A list ``[a, b, c]``."""

    span: Span
    items: tuple[Expr, ...]


Expr: TypeAlias = (
    Name
    | Number
    | String
    | Boolean
    | Dice
    | Percent
    | Range
    | BinaryOp
    | Compare
    | BoolOp
    | Not
    | Call
    | Attribute
    | ListLiteral
)

#: Arguments: comma-separated clauses, each a run of expressions side by side.
#: ``reward stars 3, port_cards 1`` is ``((stars, 3), (port_cards, 1))``.
Clauses = tuple[tuple[Expr, ...], ...]


# ---- annotations, declarations, members ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Annotation:
    """``@provisional("why")``: metadata on a declaration, property or statement."""

    span: Span
    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Declaration:
    """A top-level item: ``port_card "Smoke Bomb" { ... }``. ``kind`` is its first word."""

    span: Span
    kind: str
    args: Clauses
    body: tuple[Member, ...]
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class Property:
    """A member of a declaration: ``rounds 12`` or ``track durability 10 { critical 4, 7 }``."""

    span: Span
    name: str
    args: Clauses
    body: tuple[Member, ...] | None
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class Trigger:
    """A triggered effect block: ``on reveal { ... }``; ``args`` qualify the event."""

    span: Span
    event: str
    args: Clauses
    body: tuple[Stmt, ...]
    annotations: tuple[Annotation, ...] = ()


Member: TypeAlias = Property | Trigger


# ---- statements ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    """``verb args``, with an optional fallback ``else command`` for when it cannot be done."""

    span: Span
    verb: str
    args: Clauses
    # A Command, or a Window when the fallback is `fire TRIGGER with ...`.
    otherwise: Command | Window | None
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class If:
    """``if condition { ... } else ...``; the condition may be an expression or a verb phrase."""

    span: Span
    condition: Clauses
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...] | None
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class Unless:
    """``unless condition { ... }``: runs the block when the condition does not hold."""

    span: Span
    condition: Clauses
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...] | None
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class OrderKey:
    """One key of ``for each ... by KEY [descending], ...``: ``key`` is worked out for each item
    (as the acting player when the loop goes over players); lowest first, or highest first
    when ``descending``."""

    span: Span
    key: Expr
    descending: bool = False


@dataclass(frozen=True, slots=True)
class ForEach:
    """``for each var in iterable [where filter] [by key, ...] { ... }``; ``order`` empty: the
    iterable's own order."""

    span: Span
    var: str
    iterable: Expr
    where: Expr | None
    body: tuple[Stmt, ...]
    order: tuple[OrderKey, ...] = ()
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class May:
    """``may ...``: an optional effect; the engine asks the player's policy."""

    span: Span
    body: tuple[Stmt, ...]
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class ChooseOne:
    """``choose one of { a ; b }``: the player's policy picks exactly one option."""

    span: Span
    options: tuple[Stmt, ...]
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class ChooseFrom:
    """``choose var in items [where filter] { ... }``: the player's policy picks one item of
    the list (of those the filter keeps), and the block runs once with ``var`` bound to it;
    with nothing to pick, the block does not run."""

    span: Span
    var: str
    items: Expr
    where: Expr | None
    body: tuple[Stmt, ...]
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class Repeat:
    """``repeat count { ... }``."""

    span: Span
    count: Expr
    body: tuple[Stmt, ...]
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class Group:
    """A braced group of statements, so ``choose one of`` can offer a sequence as one option."""

    span: Span
    body: tuple[Stmt, ...]
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class Window:
    """``fire TRIGGER with QUANTITY VALUE, ... { ... }``: open a window (a trigger the cards in
    force answer, such as Uncharted Passage's ``pirate_raid``) with its quantities set, then
    run the block, where each quantity's name reads its value as the cards left it. Without a
    block (``body`` empty, ``block`` False) the window opens and nothing reads it back."""

    span: Span
    trigger: Name
    quantities: tuple[tuple[Name, Expr], ...]
    body: tuple[Stmt, ...]
    block: bool = True
    annotations: tuple[Annotation, ...] = ()


Stmt: TypeAlias = (
    Command | If | Unless | ForEach | May | ChooseOne | ChooseFrom | Repeat | Group | Window
)


# ---- verbs and functions written in the DSL ------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParamDef:
    """A parameter of a DSL verb or function: ``goods name`` or ``amount number = 1``."""

    span: Span
    name: str
    type: str
    default: Expr | None = None


@dataclass(frozen=True, slots=True)
class VerbDef:
    """``verb name(params) "doc" { statements }``: a verb whose body is DSL."""

    span: Span
    name: str
    params: tuple[ParamDef, ...]
    doc: str | None
    body: tuple[Stmt, ...]
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class FunctionDef:
    """``function name(params) type "doc" = expression``: a value computed in the DSL."""

    span: Span
    name: str
    params: tuple[ParamDef, ...]
    returns: str
    doc: str | None
    body: Expr
    annotations: tuple[Annotation, ...] = ()


Definition: TypeAlias = VerbDef | FunctionDef


# ---- the flow ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Phase:
    """``phase planning "Planning" { statements }``: one step of a flow section."""

    span: Span
    name: str
    title: str | None
    body: tuple[Stmt, ...]
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class FlowSection:
    """``setup { ... }``, ``round rounds { ... }``, ``turn { ... }`` or ``end { ... }``:
    ``count`` is the expression after the section's name (``round``'s number of rounds)."""

    span: Span
    section: str
    count: Expr | None
    phases: tuple[Phase, ...]
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class FlowSetting:
    """``end when any_ship_sunk()``, ``winner highest``, ``tiebreak X``, ``titles from title``:
    a name and its arguments, read by the checker."""

    span: Span
    name: str
    args: Clauses
    annotations: tuple[Annotation, ...] = ()


@dataclass(frozen=True, slots=True)
class Flow:
    """``flow "title" { sections and settings }``: how a game is played, as data. ``items``
    keeps the order written (the formatter prints them back in it)."""

    span: Span
    title: str | None
    items: tuple[FlowSection | FlowSetting, ...]
    annotations: tuple[Annotation, ...] = ()

    @property
    def sections(self) -> tuple[FlowSection, ...]:
        """The sections, in the order written."""
        return tuple(i for i in self.items if isinstance(i, FlowSection))

    @property
    def settings(self) -> tuple[FlowSetting, ...]:
        """The settings, in the order written."""
        return tuple(i for i in self.items if isinstance(i, FlowSetting))


@dataclass(frozen=True, slots=True)
class SourceFile:
    """One parsed ``.cards`` file: its card declarations, its verb and function definitions and
    its flow (kept apart, so code that walks cards never meets a definition or a flow)."""

    path: str
    declarations: tuple[Declaration, ...]
    definitions: tuple[Definition, ...] = ()
    flows: tuple[Flow, ...] = ()


Node: TypeAlias = (
    Expr
    | Annotation
    | Declaration
    | Member
    | Stmt
    | ParamDef
    | Definition
    | Phase
    | FlowSection
    | FlowSetting
    | Flow
    | SourceFile
)


def to_json(node: Any) -> Any:
    """The AST as plain JSON data (``cardc parse --json``, golden files).

    Each node becomes ``{"node": ClassName, "span": [line, col, end_line, end_col], ...}``;
    the file is given once, on the :class:`SourceFile`.
    """
    if isinstance(node, tuple):
        return [to_json(item) for item in node]
    if node is None or isinstance(node, (str, int, float, bool)):
        return node
    if isinstance(node, Span):
        return [node.line, node.column, node.end_line, node.end_column]
    out: dict[str, Any] = {"node": type(node).__name__}
    for field in fields(node):
        value = getattr(node, field.name)
        if field.name in ("definitions", "flows", "order") and not value:
            continue  # a file without verbs, functions or 'by' keeps the tree it always had
        out[field.name] = to_json(value)
    return out
