"""Decks: a player's zones used as a face-down deck (top first) and its discard pile.

A deck is an ordinary zone of the player (``resource_deck``, ``discard_pile``): its first card
is the top one. Shuffling uses the game's seeded generator, so the same seed deals the same
cards.
"""

from __future__ import annotations

from engine.runtime import Context, Game, Player
from engine.stdlib.registry import native, verb


def draw_cards(
    g: Game, player: Player, deck: str, into: str, amount: int, discard: str | None = None
) -> list[str]:
    """Move up to ``amount`` cards from the top of ``deck`` to ``into``; when the deck runs
    out and ``discard`` is given, shuffle the discard pile in as the new deck first. The cards
    drawn, in order."""
    zones = player.zones
    drawn: list[str] = []
    for _ in range(max(int(amount), 0)):
        if not zones[deck] and discard is not None and zones[discard]:
            reshuffle_into(g, player, discard, deck)
        if not zones[deck]:
            break
        card = zones[deck].pop(0)
        zones[into].append(card)
        drawn.append(card)
    # The cards drawn, last: what the simulator's per-card figures count (as for ``draw``).
    g.log("draw_from", player.index, deck, into, len(drawn), drawn)
    return drawn


def reshuffle_into(g: Game, player: Player, discard: str, deck: str) -> None:
    """Put every card of ``discard`` under ``deck`` and shuffle the deck."""
    zones = player.zones
    zones[deck].extend(zones[discard])
    zones[discard].clear()
    g.shuffle(zones[deck])
    g.log("reshuffle", player.index, discard, deck)


@verb("deck zone", words="shuffle {deck}")
def shuffle(g: Game, c: Context, deck: str) -> None:
    """Shuffle one of the player's zones."""
    g.shuffle(c.player.zones[deck])
    g.log("shuffle", c.player.index, deck)


@verb("deck zone, into zone, amount number = 1", words="draw {amount} from {deck} into {into}")
def draw_from(g: Game, c: Context, deck: str, into: str, amount: int) -> None:
    """Draw cards from the top of one of the player's zones into another (fewer if it runs
    out)."""
    draw_cards(g, c.player, deck, into, amount)


@verb(
    "deck zone, discard zone, into zone, amount number = 1",
    words=(
        "draw {amount} from {deck} into {into}, shuffling {discard} in as the new deck "
        "whenever it runs out"
    ),
)
def draw_or_reshuffle(g: Game, c: Context, deck: str, discard: str, into: str, amount: int) -> None:
    """Draw cards from a deck into a zone; when the deck runs out, shuffle the discard pile
    in as the new deck and go on."""
    draw_cards(g, c.player, deck, into, amount, discard)


@verb("discard zone, deck zone", words="shuffle {discard} in as {deck}")
def reshuffle(g: Game, c: Context, discard: str, deck: str) -> None:
    """Shuffle the discard pile back into the deck."""
    reshuffle_into(g, c.player, discard, deck)


@native("deck zone, amount number = 1", returns="list", words="the top {amount} of {deck}")
def look_at(g: Game, c: Context, deck: str, amount: int) -> list[str]:
    """The top cards of a zone, without moving them (fewer when it holds fewer)."""
    return list(c.player.zones[deck][: max(int(amount), 0)])


@native("deck zone", returns="bool", words="{deck} holds no card")
def is_empty(g: Game, c: Context, deck: str) -> bool:
    """True when the player's zone holds no card."""
    return not c.player.zones[deck]
