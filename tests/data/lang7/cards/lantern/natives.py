"""Lantern Tricks: who leads, what was led and who wins a trick (the table's state the cards
cannot keep: the leader's seat, the cards of every player's trick)."""

from engine.api import native, verb

#: "Moons are trumps": the suit that beats the suit led.
TRUMP = "moon"


def _card(g, card):
    """A card's printed suit and rank."""
    props = g.cards[card]["properties"]
    return props["suit"], props["rank"]


def _leader(g):
    return g.board.get("leader", 0)


@native("", returns="name")
def led_suit(g, c):
    """The suit of the card the leader played to this trick, or None before it is played."""
    played = g.players[_leader(g)].zones["played"]
    return _card(g, played[0])[0] if played else None


@native("suit name", returns="bool")
def holds_suit(g, c, suit):
    """True when the acting player's hand holds a card of ``suit``."""
    return any(_card(g, card)[0] == suit for card in c.player.zones["hand"])


@native("seat player", returns="number")
def lead_order(g, c, seat):
    """The seat's place in this trick's order of play: the leader 0, then clockwise."""
    return (seat.index - _leader(g)) % len(g.players)


@native("", returns="bool")
def wins_trick(g, c):
    """True when the acting player's card wins the trick: the highest Moon when Moons are
    trumps and one was played, else the highest card of the suit led."""
    led = led_suit(g, c)
    best = None
    for player in g.players:
        for card in player.zones["played"]:
            suit, rank = _card(g, card)
            power = (2 if g.params["trump"] and suit == TRUMP else 1 if suit == led else 0, rank)
            if best is None or power > best[0]:
                best = (power, player.index)
    return best is not None and best[1] == c.player.index


@verb("")
def take_trick(g, c):
    """Move every card played to the acting player's trick; they lead the next one."""
    for player in g.players:
        c.player.zones["trick"].extend(player.zones["played"])
        player.zones["played"].clear()
    g.board["leader"] = c.player.index
    g.log("take_trick", c.player.index)
