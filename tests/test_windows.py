"""``fire TRIGGER with QUANTITY VALUE, ... { ... }``: a DSL verb or card opens a window that
the cards in force answer, then reads the quantities back as those cards left them.

Each test compiles a tiny game (a Smoke-Bomb-like card answering the window) through the real
pipeline, emits and imports its handlers and runs a card against a fresh game.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_flow import import_handlers

from compiler.emit_python import emit_handlers
from compiler.pipeline import compile_game
from dsl.diagnostics import SourceCache
from engine.runtime import Game, HandlerTable, RuleError, Scripted

GAME = """\
game tiny "Tiny" {
  players 1
  score prestige
  counter prestige, armament
  track durability 10
  zone hand
  trigger reveal "a card is revealed"
  trigger pirate_raid "the raid, before damage" { quantity damage }
  trigger pirate_combat "the fight, before damage" { quantity pirate_power, armament }
  kind port_card "a card held" { }
  kind event "an event" { }
}
"""

#: A card that lowers both windows, as Smoke Bomb does, when its holder says yes.
SMOKE = """\
port_card "Smoke" {
  on pirate_raid { may { reduce damage up_to 2 } @label("use") }
  on pirate_combat { may { reduce pirate_power up_to 2 } @label("use") }
}
"""


def _game(tmp_path: Path, rules: str, answers: list[tuple[str | None, str]]) -> Game:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.cards").write_text(GAME, encoding="utf-8")
    (folder / "rules.cards").write_text(SMOKE + rules, encoding="utf-8")
    result = compile_game(folder, SourceCache())
    errors = [str(d) for d in result.diagnostics if d.severity == "error"]
    assert result.ir is not None and not errors, errors
    text = emit_handlers(result.ir, ["rules.cards"], "tiny")
    module = import_handlers(tmp_path / f"handlers_{abs(hash(text))}.py", text)
    game = Game(result.ir, HandlerTable.from_module(module), policies={-1: Scripted(answers)})
    game.players[0].zones["hand"].append("smoke")
    return game


RAID = """\
verb raid(damage number) "one more damage than rolled, through the raid window" {
  fire pirate_raid with damage damage + 1 {
    mark durability damage
  }
  gain prestige damage
}
event "Raid" { on reveal { raid 3 } }
"""


@pytest.mark.parametrize(("answer", "marked"), [("yes", 2), ("no", 4)])
def test_the_block_reads_the_quantity_as_the_cards_left_it(
    tmp_path: Path, answer: str, marked: int
) -> None:
    game = _game(tmp_path, RAID, [("smoke.pirate_raid.use", answer)])
    game.run("raid", "reveal")
    player = game.players[0]
    assert player.tracks["durability"].marked == marked
    # After the block, 'damage' is the verb's parameter again, not the window's quantity.
    assert player.counters["prestige"] == 3
    assert game.policies[-1].used == 1  # type: ignore[attr-defined]


def test_nested_windows_each_read_their_own(tmp_path: Path) -> None:
    """A window opened inside another's block: each name reads the innermost window that has
    it, and the outer window's quantities are still its own after the inner one closed."""
    rules = """\
event "Broadside" {
  on reveal {
    fire pirate_combat with pirate_power 5, armament armament + 1 {
      fire pirate_raid with damage pirate_power - armament {
        mark durability damage
      }
      gain prestige pirate_power
    }
  }
}
"""
    game = _game(
        tmp_path, rules, [("smoke.pirate_combat.use", "yes"), ("smoke.pirate_raid.use", "no")]
    )
    game.players[0].counters["armament"] = 1
    game.run("broadside", "reveal")
    player = game.players[0]
    # Power 5 - 2 (Smoke) = 3 against armament 1 + 1: the raid's damage is 1, not reduced.
    assert player.tracks["durability"].marked == 1
    assert player.counters["prestige"] == 3


def test_a_window_without_a_block_is_opened_and_answered(tmp_path: Path) -> None:
    rules = 'event "Shots" { on reveal { fire pirate_raid with damage 2 } }\n'
    game = _game(tmp_path, rules, [("smoke.pirate_raid.use", "yes")])
    game.run("shots", "reveal")
    assert game.policies[-1].used == 1  # type: ignore[attr-defined]
    assert ("decision", 0, "smoke.pirate_raid.use", "yes") in [tuple(e) for e in game.events]


def test_a_window_opening_itself_while_it_runs_is_refused(tmp_path: Path) -> None:
    """The checker refuses `on pirate_raid { fire pirate_raid ... }`; through a verb it is a
    rule error when it runs, not an endless loop."""
    rules = """\
verb raid(damage number) "the raid" { fire pirate_raid with damage damage }
port_card "Echo" { on pirate_raid { raid 1 } }
event "Raid" { on reveal { raid 3 } }
"""
    game = _game(tmp_path, rules, [("smoke.pirate_raid.use", "no")])
    game.players[0].zones["hand"].append("echo")
    with pytest.raises(RuleError, match="'pirate_raid' fires itself while it runs"):
        game.run("raid", "reveal")


def test_the_ir_names_the_window_of_each_quantity(tmp_path: Path) -> None:
    folder = tmp_path / "tiny"
    folder.mkdir()
    (folder / "game.cards").write_text(GAME, encoding="utf-8")
    (folder / "rules.cards").write_text(SMOKE + RAID, encoding="utf-8")
    result = compile_game(folder, SourceCache())
    assert result.ir is not None
    (verb,) = result.ir["definitions"]["verbs"]
    window: dict[str, Any] = verb["body"][0]
    assert window["kind"] == "window" and window["trigger"] == "pirate_raid"
    assert window["quantities"][0]["value"]["left"] == {"kind": "local", "name": "damage"}
    assert window["body"][0]["args"][1] == {
        "kind": "quantity",
        "name": "damage",
        "window": "pirate_raid",
    }
    # The gain after the block reads the parameter again.
    assert verb["body"][1]["args"][1] == {"kind": "local", "name": "damage"}
