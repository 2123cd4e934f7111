"""Land vs Sea: Uncharted: the game's own Python, beside its cards."""
