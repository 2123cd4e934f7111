"""The API of a game's own Python: ``cards/<game>/natives.py``, beside its cards.

What a game needs in Python (a native the standard library lacks, a policy, a board) is written
in the designer's project and registered here; cardc loads it by path
(:func:`engine.loader.load_natives`), never from inside the installed package::

    from engine.api import native, verb

    @native("place any", returns="name")
    def region_of(g, c, place):
        \"\"\"The region of a port.\"\"\"
        return g.board["regions"][place]

    @verb("amount number")
    def damage(g, c, amount):
        \"\"\"Mark Ship Damage.\"\"\"
        g.mark(c, "damage", amount)

Each decorator declares the DSL signature (``NAME TYPE`` pairs, ``= number`` defaults, the
types of ``game.cards``: the standard library's own notation, :mod:`engine.stdlib.registry`),
and ``cardc check`` compares it with the declaration in ``game.cards``: a declared verb or
native that nothing implements, or whose signature differs, is an error at its declaration.
The function is called ``fn(g, c, *args)``: the game, the handler's context, then the
arguments as the IR gives them (numbers, names as strings, dice as ``(count, sides)``, a card
as its id). A native answers a question and never changes the game; a verb changes it.

Decorated functions are found in the module's namespace (define them in ``natives.py`` or
import them into it). A method of the game's class whose parameters are the context and then
the arguments may be registered as it is, with no wrapper between the flow and it (one call
instead of two): ``new_month = verb(name="new_month")(MyGame.begin_month)``, where
``def begin_month(self, c)``. The module may also define, by these names:

- ``GAME_CLASS``: the game's :class:`engine.runtime.Game` subclass (its board and flow);
- ``POLICIES``: ``{"greedy": factory, ...}``, ``factory(game, player_index) -> Policy``, the
  players ``cardc sim --policy NAME`` seats;
- ``GIVEN``, ``EXPECT``, ``ACTIONS`` (and their ``*_KINDS`` / ``ACTION_ARGS``): the names a
  scenario may set up, assert on and run (see :mod:`engine.scenario`);
- ``CARD_CHECKS``: ``{kind: check}``, ``check(card, cards)`` run by ``cardc check`` on each card
  of that kind (its IR, and every card of the game by id), raising :class:`CardError` (or
  returning a list of them, every problem of the card) for data the game's Python could not
  play (Land vs Sea's hex faces: six L/S edges). The error is
  shown at the property it names, so a malformed card is refused at ``cardc check``, not by
  the first game that draws it. A check that takes a third parameter, ``check(card, cards,
  vocabulary)``, is also given the game's declarations as the IR holds them (``params``,
  ``counters`` with their ``min`` and ``max`` ...), a variant's where it changed them: data
  that must agree with them (Darwin's Journey: a Campsite per Treasure token, the map
  sections up to the Ship's last space) is refused at ``cardc check`` too.

Plain ``NATIVES = {name: fn}`` and ``VERBS = {name: fn}`` dicts are accepted too (their
functions are checked only for how many arguments they take); decorated functions with the
same names win.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.runtime import RuleError
from engine.stdlib.registry import RETURN_TYPES, Param, parse_params

__all__ = ["CardError", "GameSpec", "Implementations", "implementations", "native", "verb"]

_F = TypeVar("_F", bound=Callable[..., Any])


class CardError(RuleError):
    """A card's data the game's Python cannot play: ``detail`` says what is wrong with its
    ``prop`` (a property name, or None for the card as a whole; a tuple of names for a problem
    of two properties together, shown at the first of them a variant set, else the first),
    ``hint`` how to write it.
    ``param`` names the game's parameter the problem is about, when the card is fine but the
    parameter is not (more Campsites than ``treasure_tokens``): the error is then shown where
    the parameter is set, in game.cards or at the variant's line that changed it (a tuple of
    names, for a problem of two parameters together: at the first of them a variant set).
    ``kind`` names the kind of card whose number the problem is about (too few Expedition
    Leaders for the players): when a variant removed cards of that kind, the error is shown at its
    ``remove:`` entry, the line that made the game short, rather than at whichever card of the
    kind comes first.

    Raised by a ``CARD_CHECKS`` function at ``cardc check`` (shown at that property's line and
    column) and by the same code when a game reads the card (a rule error naming the card).
    """

    def __init__(
        self,
        detail: str,
        prop: str | tuple[str, ...] | None = None,
        hint: str | None = None,
        card: str = "",
        param: str | tuple[str, ...] | None = None,
        kind: str | None = None,
    ) -> None:
        super().__init__(f"{card}: {detail}" if card else detail)
        self.detail = detail
        self.prop = prop
        self.hint = hint
        self.param = param
        self.kind = kind


def names_in(value: str | tuple[str, ...] | None) -> tuple[str, ...]:
    """A :class:`CardError`'s ``prop`` or ``param`` as the names it holds: one, two or none."""
    if isinstance(value, str):
        return (value,)
    return value or ()


@dataclass(frozen=True)
class GameSpec:
    """What a decorator declared of one function of a game's Python."""

    name: str  # its DSL name
    kind: str  # "native" or "verb"
    params: tuple[Param, ...]
    returns: str | None
    function: Callable[..., Any]


def _declare(kind: str, params: str, returns: str | None, name: str | None) -> Callable[[_F], _F]:
    if returns is not None and (not isinstance(returns, str) or returns not in RETURN_TYPES):
        raise ValueError(
            f"{returns!r} is not a DSL type; a native returns one of "
            + ", ".join(sorted(RETURN_TYPES))
        )
    parsed = parse_params(params)  # ValueError at import: the module cannot load wrong
    if name is not None and not (isinstance(name, str) and name.isidentifier()):
        raise ValueError(f"@{kind}(name=...) is the DSL name, a word, not {name!r}")

    def wrap(function: _F) -> _F:
        if not callable(function) or isinstance(function, type):
            raise TypeError(f"@{kind} marks a function (def ...(g, c, ...)), not {function!r}")
        try:
            spec = GameSpec(name or function.__name__, kind, parsed, returns, function)
            function.__cardc_spec__ = spec  # type: ignore[attr-defined]
        except AttributeError:
            # A built-in or a C function takes no attributes: a def must stand for it.
            raise TypeError(
                f"@{kind} cannot mark {function!r}: wrap it in a def taking (g, c, ...)"
            ) from None
        return function

    return wrap


def native(
    params: str = "", returns: str = "any", *, name: str | None = None
) -> Callable[[_F], _F]:
    """Declare a native of the game: its parameters in DSL words (``"place any, n number"``)
    and the DSL type it returns; ``name`` when its DSL name is not the function's."""
    return _declare("native", params, returns, name)


def verb(params: str = "", *, name: str | None = None) -> Callable[[_F], _F]:
    """Declare a verb of the game: its parameters in DSL words (``"amount number = 1"``);
    ``name`` when its DSL name is not the function's."""
    return _declare("verb", params, None, name)


def spec_of(function: Any) -> GameSpec | None:
    """What ``@native``/``@verb`` declared of ``function``, or None (a plain function)."""
    spec = getattr(function, "__cardc_spec__", None)
    return spec if isinstance(spec, GameSpec) else None


@dataclass(frozen=True)
class Implementations:
    """A game module's natives and verbs by DSL name, and the signatures declared of them."""

    natives: dict[str, Callable[..., Any]]
    verbs: dict[str, Callable[..., Any]]
    specs: dict[tuple[str, str], GameSpec]  # (kind, name) -> spec; plain dict entries have none


def implementations(module: Any) -> Implementations:
    """The natives and verbs of a game's module (None: none): its decorated functions and its
    plain ``NATIVES`` / ``VERBS`` dicts."""
    natives: dict[str, Callable[..., Any]] = {}
    verbs: dict[str, Callable[..., Any]] = {}
    specs: dict[tuple[str, str], GameSpec] = {}
    if module is None:
        return Implementations(natives, verbs, specs)
    natives.update(getattr(module, "NATIVES", None) or {})
    verbs.update(getattr(module, "VERBS", None) or {})
    for value in list(vars(module).values()):
        spec = spec_of(value)
        if spec is None:
            continue
        (natives if spec.kind == "native" else verbs)[spec.name] = spec.function
        specs[(spec.kind, spec.name)] = spec
    return Implementations(natives, verbs, specs)
