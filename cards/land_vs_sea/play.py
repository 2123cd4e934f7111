"""The game's flow, until the flow declaration (FLOW_SPEC.md) runs it from flow.cards.

Each step is the @host verb or native game.cards declares, called in the order the flow
declares them, so the two give the same game.
"""

from __future__ import annotations

from typing import Any

from engine.runtime import Context

from .game import LandVsSea


def setup(game: LandVsSea) -> None:
    """Setup: the special tiles, the stacks, the scoring aids, the starting tile, the hands."""
    from . import natives as n

    c = Context(game.players[0], "", "setup")
    n.set_out_special_tiles(game, c)
    n.shuffle_into_stacks(game, c, int(game.params.get("stacks", 3)))
    n.place_scoring_aids(game, c)
    n.place_starting_tile(game, c)
    for player in game.players:
        n.draw_tiles(game, c.for_player(player))


def turn(game: LandVsSea, player: Any) -> None:
    """One player's turn: place (twice for the 3 player game's lone player), score, fill the
    holes made, steal, a Waypoint, draw."""
    from . import natives as n

    pc = Context(player, "", "turn")
    game.round = game.turns // len(game.players) + 1
    for _ in range(n.placements_per_turn(game, pc)):
        n.place_tile(game, pc)
        n.score_placement(game, pc)
        for hole in n.holes_made(game, pc):
            if n.special_tile_fits(game, pc, hole) and game.may(
                pc, "special_tile.may", "place a special tile into the hole"
            ):
                n.place_special_tile(game, pc, hole)
                n.score_placement(game, pc)
        if n.placed_steal_tile(game, pc):
            n.steal_tile(game, pc)
        if n.uses_waypoints(game, pc):
            n.place_waypoint(game, pc)
        n.draw_tiles(game, pc)


class LandVsSeaGame(LandVsSea):
    """Land vs Sea played from setup to the end game."""

    def play_game(self) -> dict[str, Any]:
        """Setup, turns in seat order until the end, the end game; the result."""
        from . import natives as n

        setup(self)
        seat = 0
        c = Context(self.players[0], "", "end")
        while not n.game_over(self, c):
            turn(self, self.players[seat])
            seat = (seat + 1) % len(self.players)
        self.fire("game_end", self.players[0])
        return self.result()
