"""Handlers of the Fake Voyage test game (hand-written, shaped like a generated module)."""

GAME = "fake_voyage"
VARIANT = None


def h_harbour__dock(g, c):
    # Harbour: on dock: one prestige per space sailed to get here.
    g.gain(c, "prestige", c.e["distance"])


HANDLERS = {("harbour", "dock"): h_harbour__dock}
FORMULAS = {}
LINES = {}
