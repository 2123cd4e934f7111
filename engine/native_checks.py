"""The game's own natives held to the types ``game.cards`` declares they return, for
``cardc test`` and scenarios (:func:`engine.loader.new_game`): a native declared ``returns
number`` that gives back None is a rule error naming it, not a TypeError deep in the
arithmetic that used it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.errors import RuleError
from engine.locate import shown_path
from engine.runtime import Player

#: What a native declared ``returns TYPE`` may give back: the types taken as they are, and
#: the words for the type in an error. A bool is no number here (True + 1 would play on).
_RETURNS: dict[str, tuple[tuple[type, ...], str]] = {
    "number": ((int, float), "a number"),
    "bool": ((bool,), "true or false (a bool)"),
    "text": ((str,), "a text"),
    "name": ((str,), "a name (a str)"),
    "card": ((str,), "a card (its id, a str)"),
    "list": ((list, tuple), "a list"),
    "player": ((Player,), "a player"),
}


#: The types whose value may be None, "no such thing" (Darwin's Journey's pirate_region()
#: while the Pirate Ship is in the supply): a name, card or player compared with another is
#: simply not equal to it. None where a number, a bool or a list is declared fails later, in
#: the arithmetic, the test or the loop that reads it.
_MAY_BE_NONE = frozenset(("name", "card", "player"))


def checked_natives(
    natives: dict[str, Callable[..., Any]], vocabulary: dict[str, Any]
) -> dict[str, Callable[..., Any]]:
    """``natives`` with each of the game's own (``origin: game``) held, where generated code
    calls it, to the type ``game.cards`` declares it returns: a native declared ``returns
    number`` that gives back None is a rule error naming the native, the type, the value and
    the native's ``def`` (file:line), at the card that called it, not a TypeError deep in
    the arithmetic that used it. For ``cardc test`` and scenarios (:func:`engine.loader.new_game`);
    the simulator calls the natives as they are (one Python call more each)."""
    out = dict(natives)
    declared = vocabulary.get("natives", {})
    for name, function in natives.items():
        sig = declared.get(name) or {}
        expected = _RETURNS.get(str(sig.get("returns")))
        if sig.get("origin") != "game" or expected is None:
            continue
        out[name] = _checked_native(name, function, str(sig["returns"]), *expected)
    return out


def _checked_native(
    name: str, function: Callable[..., Any], returns: str, types: tuple[type, ...], words: str
) -> Callable[..., Any]:
    def checked(g: Any, c: Any, *args: Any) -> Any:
        value = function(g, c, *args)
        kind = type(value)
        if kind in types:
            return value
        if isinstance(value, types) and not (returns == "number" and kind is bool):
            return value  # a subclass (an IntEnum, a named tuple)
        if value is None and returns in _MAY_BE_NONE:
            return value  # no such thing: "the Pirate Ship's region: none, in the supply"
        # Where its def is, worked out only now: a game makes its natives once a game.
        code = getattr(function, "__code__", None)
        where = (
            f"{shown_path(code.co_filename)}:{code.co_firstlineno}"
            if code is not None
            else repr(function)
        )
        error = RuleError(
            f"the native '{name}' is declared to return {words} (returns {returns}), and "
            f"returned {_short_value(value)} ({kind.__name__}); its Python: {where}"
        )
        # The game's Python broke its declaration: no rule refusing, which a scenario could
        # expect as one.
        error.internal = True  # type: ignore[attr-defined]
        raise error

    checked.__wrapped__ = function  # type: ignore[attr-defined]
    return checked


def _short_value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
