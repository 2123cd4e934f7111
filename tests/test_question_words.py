"""Questions a player is asked are in words, never DSL tokens (issue 19: "raw DSL in
questions"): a ``may``'s prompt is its ``@ask("...")`` or its body in plain words, and a
``choose one of`` tells what each option does the same way."""

from __future__ import annotations

from pathlib import Path

from compiler.checker import plain_words
from compiler.pipeline import compile_game
from dsl.diagnostics import SourceCache

GAME = """\
game harbour "Harbour" {
  players 1..2
  score prestige
  counter prestige, coins, pirate_power
  trigger pirate_raid "the Pirate's Raid, before damage" { quantity damage }
  kind port_card "a port card" { property copies number }
}
"""

CARDS = """\
port_card "Smoke Bomb" {
  copies 2
  on pirate_raid {
    may {
      reduce damage up_to 2
      discard self
    } @label("use")
  }
}

port_card "Flag" {
  copies 1
  on pirate_raid {
    may {
      gain coins 1
    } @label("wave") @ask("wave the flag of truce for a Coin")
    choose one of {
      { gain prestige 1 } @label("salute")
      { weigh_anchor } @label("flee")
    }
  }
}

verb weigh_anchor() "set sail from the harbour at once" {
  lose coins 1
}
"""


def _statements(tmp_path: Path, cards: str = CARDS) -> tuple[dict, list]:
    folder = tmp_path / "harbour"
    folder.mkdir()
    (folder / "game.cards").write_text(GAME, encoding="utf-8")
    (folder / "cards.cards").write_text(cards, encoding="utf-8")
    result = compile_game(folder, SourceCache())
    return result.ir or {}, result.diagnostics


def _handler(ir: dict, card: str) -> list:
    found = next(c for c in ir["cards"] if c["id"] == card)
    return list(found["triggers"]["pirate_raid"]["body"])


def test_a_may_is_asked_in_plain_words_or_its_own(tmp_path: Path) -> None:
    ir, problems = _statements(tmp_path)
    assert not problems, [d.message for d in problems]
    (bomb,) = _handler(ir, "smoke_bomb")
    assert bomb["ask"] == "reduce damage up to 2, then discard this card"
    wave, choice = _handler(ir, "flag")
    assert wave["ask"] == "wave the flag of truce for a Coin"
    # An option of the game's own verb taking nothing is said by the verb's description.
    assert choice["labels"] == ["gain prestige 1", "set sail from the harbour at once"]
    for said in [bomb["ask"], wave["ask"], *choice["labels"]]:
        assert "_" not in said and "self" not in said and ";" not in said


def test_an_ask_without_words_is_an_error_at_its_line(tmp_path: Path) -> None:
    broken = CARDS.replace('@ask("wave the flag of truce for a Coin")', "@ask(3)")
    _, problems = _statements(tmp_path, broken)
    assert [(d.code, d.span.line) for d in problems] == [("ask-words", 16)]


def test_plain_words_spell_out_names_and_operators() -> None:
    assert plain_words("reduce pirate_power up_to 2") == "reduce pirate power up to 2"
    assert plain_words("if coins >= 3") == "if coins is at least 3"
    assert plain_words("lose coins cost_of(site)") == "lose coins cost of site"
    assert plain_words("a != b") == "a is not b"
