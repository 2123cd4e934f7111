"""Zones: moving cards between a player's zones and asking what they hold."""

from __future__ import annotations

from engine.runtime import Context, Game
from engine.stdlib.registry import native, verb


@native("zone zone, card card_name", returns="bool", words="{zone} holds {card}")
def holds(g: Game, c: Context, zone: str, card: str) -> bool:
    """True when the player's zone holds a copy of that card."""
    return card in c.player.zones[zone]


@native("zone zone, card card_name", returns="number", words="the copies of {card} in {zone}")
def copies_in(g: Game, c: Context, zone: str, card: str) -> int:
    """How many copies of a card the player's zone holds."""
    return c.player.zones[zone].count(card)


@native("zone zone", returns="list", words="the cards in {zone}")
def cards_in(g: Game, c: Context, zone: str) -> list[str]:
    """The cards a player's zone holds, in order."""
    return list(c.player.zones[zone])


@verb("card card_name, source zone, target zone", words="move {card} from {source} to {target}")
def move_card(g: Game, c: Context, card: str, source: str, target: str) -> None:
    """Move one copy of a card from one of the player's zones to another (through
    :meth:`engine.runtime.Game.move_card`, which a game whose zone mirrors a board of its own
    overrides, as Incredible Expeditions' Crew Cabins)."""
    g.move_card(c, card, source, target)


@verb("source zone, target zone", words="move every card from {source} to {target}")
def move_all(g: Game, c: Context, source: str, target: str) -> None:
    """Move every card of one of the player's zones to the end of another (through
    :meth:`engine.runtime.Game.move_all`)."""
    g.move_all(c, source, target)


@verb(
    "card card_name, source zone, target zone",
    words="play {card} from {source}, then put it in {target}",
)
def play_card(g: Game, c: Context, card: str, source: str, target: str) -> None:
    """Play a card from one of the player's zones into another and do what it says (its own
    ``on play``): a deck-builder's card played from the hand to the discard pile, kept in
    the player's deck. The prelude's ``play`` asks whether to play it and takes it out of
    the player's zones, which a deck-builder's cards never leave."""
    g.move_card(c, card, source, target)
    handler = g.table.handlers.get((card, "play")) if g.table else None
    if handler is not None:
        g.call(handler, c.for_card(card))
