"""Per-game rules that are not card data: natives, verbs, board state and game flows.

A module ``engine.games.<game>`` (named like the game's folder under cards/) may define:

- ``NATIVES``: ``{name: fn(g, c, *args)}`` for every ``native`` its game.cards declares;
  they answer questions about the board and never change state.
- ``VERBS``: ``{name: fn(g, c, *args)}`` for every game ``verb`` its game.cards declares.
- ``GAME_CLASS``: a subclass of :class:`engine.runtime.Game` carrying the game's flow.
- ``GIVEN``: ``{name: fn(g, player_or_None, value)}``: state a scenario may set up by the
  names a designer knows ("in_pirate_infested_area", "pirate_region" ...).
- ``EXPECT``: ``{name: fn(g, player_or_None) -> value}``: state a scenario may assert on.
- ``ACTIONS``: ``{name: fn(g, player, **args) -> Context | None}``: the flow steps a scenario's
  ``do: - action: NAME`` may run (a phase, a round, a whole game).

Arguments arrive as the IR gives them: numbers, symbol and counter names as strings, dice as
``(count, sides)``, the card as its id. Board state lives in ``g.board`` (shared) and
``player.flags`` (per player); every roll goes through ``g.die``/``g.dice`` and every decision
through ``g.ask``/``g.may``/``g.choose``, so games stay seeded and scriptable.
"""
