"""Hexhold's own Python: who holds which land of the map."""

from engine.api import native, verb
from engine.hexgrid import as_hex, components, distance
from engine.runtime import RuleError


@verb("land card")
def claim(g, c, land):
    """Claim a land of the map for the acting lord, then fire ``claimed``."""
    claims = g.board.setdefault("claims", {})
    if land in claims:
        raise RuleError(f"{land} is already held by lord {claims[land] + 1}")
    claims[land] = c.player.index
    g.log("claim", c.player.index, land)
    g.fire("claimed", c.player, event={"land": land})


@native("", returns="list")
def claimed_cells(g, c):
    """The cells of the lands the acting lord holds."""
    claims = g.board.get("claims", {})
    return [
        as_hex(g.cards[land]["properties"]["cell"])
        for land, seat in claims.items()
        if seat == c.player.index
    ]


@native("cells list", returns="number")
def largest_holding(g, c, cells):
    """The number of cells in the largest group joined edge to edge (0 with none)."""
    groups = components(as_hex(cell) for cell in cells)
    return max((len(group) for group in groups), default=0)


@native("", returns="card")
def nearest_free_land(g, c):
    """The free land nearest the keep (none when every land is held)."""
    claims = g.board.get("claims", {})
    free = [
        cid for cid, card in g.cards.items() if card.get("kind") == "land" and cid not in claims
    ]
    if not free:
        return None
    keep = as_hex((0, 0))
    return min(free, key=lambda cid: distance(keep, as_hex(g.cards[cid]["properties"]["cell"])))
