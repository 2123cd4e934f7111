"""How a standard-library function declares its DSL signature, so the checker can read it.

A native answers a question (``@native("dice dice", returns="number")``); a verb changes the
game (``@verb("deck zone, into zone, amount number = 1")``). The parameter text is the DSL's
own: ``NAME TYPE`` pairs, an optional ``= number`` default, the types of ``game.cards``. Each
function takes the game and the handler's context first, like every native and verb, and its
DSL name is its Python name, so generated code calls ``stdlib_<module>.<name>(g, c, ...)``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

#: The DSL's parameter and return types (compiler.vocabulary.PARAM_TYPES, RETURN_TYPES):
#: engine never imports compiler, so they are repeated here and a test keeps them equal.
PARAM_TYPES = frozenset(
    (
        "number bool text name counter track zone target card card_name dice player list "
        "trigger any"
    ).split()
)
RETURN_TYPES = frozenset("number bool text name card player list any".split())


@dataclass(frozen=True)
class Param:
    """One parameter: its name, DSL type and default (a number, or None)."""

    name: str
    type: str
    default: int | float | None = None


@dataclass(frozen=True)
class Spec:
    """One library function as the checker sees it."""

    name: str
    kind: str  # "native" or "verb"
    params: tuple[Param, ...]
    returns: str | None
    doc: str
    module: str  # the module's short name: "dice", "decks" ...
    function: Callable[..., Any]
    #: How a card's text says a call, its parameters in braces ("the six cells around
    #: {cell}"): the docstring describes the function to a designer and reads wrong on a card.
    words: str | None = None
    #: The parameters that take one hex cell, and those that take a list of cells: where a
    #: card's property is passed to one, ``cardc check`` holds every card's value to a cell
    #: (``cell 0, 0``, two clauses of one number, is none: compiler.cell_checks).
    cells: tuple[str, ...] = ()
    cell_lists: tuple[str, ...] = ()
    #: What a ``list`` it returns holds, when that is players (``most_of``): a ``for each``
    #: or ``choose`` over it acts as each player, as one over ``players`` does.
    items: str | None = None


#: module short name -> function name -> spec, filled as the modules are imported.
LIBRARY: dict[str, dict[str, Spec]] = {}

_F = TypeVar("_F", bound=Callable[..., Any])


def parse_params(text: str) -> tuple[Param, ...]:
    """``"deck zone, amount number = 1"`` as parameters; ``ValueError`` when malformed."""
    if not isinstance(text, str):
        raise ValueError(
            f"the parameters are one string of DSL words ('amount number, deck zone'), not {text!r}"
        )
    params: list[Param] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        head, _, default = part.partition("=")
        words = head.split()
        if len(words) != 2 or not words[0].isidentifier():
            raise ValueError(f"a parameter is 'NAME TYPE' ('amount number'), not {part!r}")
        if words[1] not in PARAM_TYPES:
            raise ValueError(
                f"{words[1]!r} in {part!r} is not a DSL type; a parameter's type is one of "
                + ", ".join(sorted(PARAM_TYPES))
            )
        if words[0] in (p.name for p in params):
            raise ValueError(f"two parameters are named {words[0]!r}")
        value: int | float | None = None
        if default.strip():
            try:
                number = float(default)
            except ValueError:
                raise ValueError(
                    f"the default of {words[0]!r} is a number ('{words[0]} {words[1]} = 1'), "
                    f"not {default.strip()!r}"
                ) from None
            if number != number or number in (float("inf"), float("-inf")):
                raise ValueError(f"the default of {words[0]!r} is a finite number")
            value = int(number) if number.is_integer() else number
        params.append(Param(words[0], words[1], value))
    return tuple(params)


def _register(
    kind: str,
    params: str,
    returns: str | None,
    words: str | None,
    cells: tuple[str, ...] = (),
    cell_lists: tuple[str, ...] = (),
    items: str | None = None,
) -> Callable[[_F], _F]:
    if items is not None and (returns != "list" or items != "player"):
        raise ValueError("items= says a list native's items are players: items='player'")
    if returns is not None and returns not in RETURN_TYPES:
        raise ValueError(f"'{returns}' is not a DSL type")
    parsed = parse_params(params)
    for slot in re.findall(r"\{(\w+)\}", words or ""):
        if slot not in {p.name for p in parsed}:
            raise ValueError(f"the words {words!r} name {{{slot}}}, which is no parameter")
    for name in (*cells, *cell_lists):
        if name not in {p.name for p in parsed}:
            raise ValueError(f"the cell parameter {name!r} is no parameter")

    def wrap(function: _F) -> _F:
        module = function.__module__.rsplit(".", 1)[-1]
        doc = " ".join((function.__doc__ or "").strip().split("\n\n")[0].split())
        if not doc:
            raise ValueError(f"{function.__name__} needs a docstring: it is the DSL's doc")
        spec = Spec(
            function.__name__,
            kind,
            parsed,
            returns,
            doc,
            module,
            function,
            words,
            cells,
            cell_lists,
            items,
        )
        for other in LIBRARY.values():
            if spec.name in other and other[spec.name].function is not function:
                raise ValueError(f"two library functions are named {spec.name}")
        LIBRARY.setdefault(module, {})[spec.name] = spec
        function.spec = spec  # type: ignore[attr-defined]
        return function

    return wrap


def native(
    params: str = "",
    returns: str = "any",
    words: str | None = None,
    cells: tuple[str, ...] = (),
    cell_lists: tuple[str, ...] = (),
    items: str | None = None,
) -> Callable[[_F], _F]:
    """Declare a library native: its parameters in DSL words, what it gives, how a card's
    text says a call (``words``, each parameter in braces), which parameters take a hex
    cell (``cells``) or a list of them (``cell_lists``), and ``items="player"`` for a list
    of players (a loop over it acts as each)."""
    return _register("native", params, returns, words, cells, cell_lists, items)


def verb(
    params: str = "", words: str | None = None, cells: tuple[str, ...] = ()
) -> Callable[[_F], _F]:
    """Declare a library verb: its parameters in DSL words, how a card's text says it, and
    which parameters take a hex cell (``cells``)."""
    return _register("verb", params, None, words, cells)
