"""What a scenario may give and expect of the standard library's state, for every game that
uses it: a market's face-up row (``markets: {shop: [gold, silver]}``), which a game without
Python of its own could not set up, so a rule reading the row ("buy the Gold") could not be
tested but by dealing a seed until Gold showed.

:func:`with_library` lays these keys under the game's own ``GIVEN``/``EXPECT`` (a game's key
of the same name wins), for the scenario checker, its schema and its runner alike.
"""

from __future__ import annotations

from typing import Any

from engine.scenario_types import Id, Kind, Many, Number, OneOf, Table


def given_markets(g: Any, player: Any, value: Any) -> None:
    """Each market's face-up row, its cards in order: ``markets: {shop: [gold, silver]}``
    (the market's deck is left as it is)."""
    for market, cards in value.items():
        g.board[f"market:{market}"] = [str(card) for card in cards]


def expect_markets(g: Any, player: Any) -> dict[str, list[str]]:
    """Every market's face-up row, its cards in order (a market never refilled is empty)."""
    return {
        str(key)[len("market:") :]: list(row)
        for key, row in g.board.items()
        if str(key).startswith("market:")
    }


def _row() -> Kind:
    return Table(Id("zone", "a zone"), OneOf((Many(Id("card", "a card")), Number(0, None))))


def _uses_markets(ir: dict[str, Any]) -> bool:
    vocabulary = ir.get("vocabulary") or {}
    return any(
        isinstance(entry, dict) and entry.get("origin") == "stdlib.markets"
        for table in ("natives", "verbs")
        for entry in (vocabulary.get(table) or {}).values()
    )


class _WithLibrary:
    """The game's module (or None) with the library's scenario keys under its own."""

    def __init__(self, rules: Any, tables: dict[str, dict[str, Any]]) -> None:
        self._rules = rules
        self._tables = tables

    def __getattr__(self, name: str) -> Any:
        tables = self.__dict__["_tables"]
        if name in tables:
            return tables[name]
        rules = self.__dict__["_rules"]
        if rules is None:
            raise AttributeError(name)
        return getattr(rules, name)


def with_library(rules: Any, ir: dict[str, Any]) -> Any:
    """``rules`` with the scenario keys of the library modules ``ir`` uses (markets); the
    module itself when it uses none of them."""
    if isinstance(rules, _WithLibrary) or not _uses_markets(ir):
        return rules
    ours: dict[str, dict[str, Any]] = {
        "GIVEN": {"markets": given_markets},
        "EXPECT": {"markets": expect_markets},
        "GIVEN_KINDS": {"markets": _row()},
        "EXPECT_KINDS": {"markets": _row()},
    }
    tables = {
        table: {**keys, **dict((getattr(rules, table, None) or {}) if rules is not None else {})}
        for table, keys in ours.items()
    }
    return _WithLibrary(rules, tables)
