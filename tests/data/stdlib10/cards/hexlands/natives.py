"""Hexlands' map: the roads between its villages, as the graphs natives read them."""

from engine.api import verb


@verb("")
def chart_roads(g, c):
    """Put the road map between the villages in board['graph']."""
    g.board["graph"] = {
        "oakford": ["millbrook", "stonehill"],
        "millbrook": ["oakford", "riverside"],
        "stonehill": ["oakford"],
        "riverside": ["millbrook"],
    }
