"""Markets: a face-up row of cards shared by the players, refilled from its own deck.

A market named ``m`` keeps its row in ``g.board["market:m"]`` and its deck in
``g.board["deck:m"]`` (the deck the prelude's ``draw`` reads too). The game's setup fills the
deck from the cards it is made of: ``stock_market shop artwork`` (every card of the kind
``artwork``, as many times as its ``copies``, shuffled), where the prelude's ``build_deck
shop`` takes every card of every kind with ``copies``, rarely the market a designer means.
Taking a card moves it into the acting player's zone.
"""

from __future__ import annotations

from typing import Any

from engine.runtime import Context, Game, RuleError
from engine.stdlib.registry import native, verb


def market_row(g: Game, market: str) -> list[Any]:
    """The face-up row of a market (created empty)."""
    row: list[Any] = g.board.setdefault(f"market:{market}", [])
    return row


def refill(g: Game, market: str, size: int) -> int:
    """Deal from the market's deck until the row holds ``size`` cards or the deck is empty;
    the number dealt."""
    row = market_row(g, market)
    deck: list[Any] = g.board.setdefault(f"deck:{market}", [])
    dealt = 0
    while len(row) < size and deck:
        row.append(deck.pop(0))
        dealt += 1
    g.log("market_refill", market, dealt)
    return dealt


@verb(
    "market zone, cards list",
    words="shuffle {cards} into a deck for {market}, each card as many times as its copies",
)
def stock_market(g: Game, c: Context, market: str, cards: list[Any]) -> None:
    """Make a market's deck from a kind's cards (``stock_market shop artwork``): each as many
    times as its ``copies`` (once without), shuffled; what the deck held before is replaced."""
    if not isinstance(cards, (list, tuple)):
        raise RuleError(
            f"stock_market takes the cards of a kind (stock_market {market} KIND), not {cards!r}"
        )
    deck: list[Any] = []
    for card in cards:
        data = g.cards.get(card) if isinstance(card, str) else None
        if data is None:
            raise RuleError(f"stock_market {market}: {card!r} is not a card of this game")
        copies = data["properties"].get("copies", 1)
        deck.extend([card] * max(int(copies) if isinstance(copies, (int, float)) else 1, 0))
    g.shuffle(deck)
    g.board[f"deck:{market}"] = deck
    g.log("market_stock", market, len(deck))


@verb("market zone, size number", words="refill {market} up to {size} cards")
def refill_market(g: Game, c: Context, market: str, size: int) -> None:
    """Fill a market's face-up row up to a size from its deck."""
    refill(g, market, int(size))


@verb("market zone, card card_name, into zone", words="take {card} from {market} into {into}")
def take_from_market(g: Game, c: Context, market: str, card: str, into: str) -> None:
    """Take a face-up card from a market into one of the player's zones."""
    row = market_row(g, market)
    if card not in row:
        raise RuleError(f"{card} is not in the {market} market")
    row.remove(card)
    c.player.zones[into].append(card)
    g.log("market_take", c.player.index, market, card)


@native("market zone", returns="list", words="the cards in {market}")
def market_cards(g: Game, c: Context, market: str) -> list[Any]:
    """The cards face up in a market, in order."""
    return list(market_row(g, market))


@native("market zone, card card_name", returns="bool", words="{card} is in {market}")
def in_market(g: Game, c: Context, market: str, card: str) -> bool:
    """True when that card lies face up in the market."""
    return card in market_row(g, market)
