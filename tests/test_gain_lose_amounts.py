"""A ``gain``, ``lose`` or ``score`` whose amount is worked out below 0 does nothing: a
rulebook's "gain" never takes away and its "lose" never gives (``gain prestige sold - 5``
having sold 3 took 2 prestige away). A literal negative amount is the checker's error
(tests/data/check); a computed one is clamped at 0 when it runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_flow import import_handlers

from compiler.emit_python import emit_handlers
from compiler.pipeline import compile_game
from dsl.diagnostics import SourceCache
from engine.loader import new_game
from engine.runtime import Context, Game, HandlerTable, Scripted

ROOT = Path(__file__).resolve().parent.parent

GAME = """\
game tiny "Tiny" {
  players 1
  score prestige
  counter prestige, coins
  trigger reveal "a card is revealed"
  kind event "an event" { }
}
"""

RULES = """\
event "Market" {
  on reveal {
    let sold 3
    gain prestige sold - 5
    lose coins sold - 5
    score sold - 4
    gain coins sold
    lose prestige sold - 1
  }
}
"""


def _game(tmp_path: Path) -> Game:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.cards").write_text(GAME, encoding="utf-8")
    (folder / "rules.cards").write_text(RULES, encoding="utf-8")
    result = compile_game(folder, SourceCache())
    assert result.ir is not None, [str(d) for d in result.diagnostics]
    text = emit_handlers(result.ir, ["rules.cards"], "tiny")
    module = import_handlers(tmp_path / f"handlers_{abs(hash(text))}.py", text)
    return Game(result.ir, HandlerTable.from_module(module), policies={-1: Scripted(())})


def test_a_computed_negative_amount_gains_and_loses_nothing(tmp_path: Path) -> None:
    game = _game(tmp_path)
    player = game.players[0]
    player.counters["prestige"] = 4
    player.counters["coins"] = 1
    game.run("market", "reveal")
    # gain -2, lose -2, score -1: nothing; then gain 3 coins and lose 2 prestige as written.
    assert player.counters["prestige"] == 2
    assert player.counters["coins"] == 4
    gains = [e for e in game.events if e[0] in ("gain", "lose")]
    assert gains == [
        ("gain", 0, "prestige", 0),
        ("lose", 0, "coins", 0),
        ("gain", 0, "prestige", 0),
        ("gain", 0, "coins", 3),
        ("lose", 0, "prestige", 2),
    ]


@pytest.mark.parametrize("method", ["gain", "lose"])
def test_the_engine_clamps_what_a_games_python_passes_too(tmp_path: Path, method: str) -> None:
    game = _game(tmp_path)
    player = game.players[0]
    player.counters["coins"] = 5
    getattr(game, method)(Context(player, "", "reveal"), "coins", -3)
    assert player.counters["coins"] == 5


def test_land_vs_sea_scores_nothing_for_a_negative_amount() -> None:
    """Land vs Sea's own ``score`` (a side's points, on its marker) clamps as the engine's."""
    game = new_game(ROOT / "generated" / "land_vs_sea", 2, seed=1)
    player = game.players[0]
    marker = game.scorer(player)  # type: ignore[attr-defined]
    before = marker.counters["points"]
    game.score(Context(player, "", "reveal"), -3)
    assert marker.counters["points"] == before
    game.score(Context(player, "", "reveal"), 2)
    assert marker.counters["points"] == before + 2
