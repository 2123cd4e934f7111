"""Uncharted Passage probed as a designer would: new cards, house rules and rule cases written
from the rulebook's text (the scenarios are tests/scenarios/uncharted_passage/probe_*.yaml).
These are the regressions of what the probing found that a scenario cannot show."""

from __future__ import annotations

from pathlib import Path

from engine import sim
from engine.sim_tally import outcome

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "generated" / "uncharted_passage"


def test_a_port_card_that_discards_itself_after_use_counts_as_played() -> None:
    """``cardc sim``'s per-card table printed "played 0" for Smoke Bomb, Rum and Reinforced
    Rope, whose use is ``may { ...; discard self }`` (no ``play`` event): a card a rule discards
    is one the player spent."""
    simulator = sim.Simulator(FOLDER)
    seen: set[str] = set()
    for number in range(1, 41):
        played = sim.play_one(simulator, 1, number, "solo", "greedy")
        events = played.game.events
        discarded = {e[2] for e in events if e[0] == "discard"}
        cards = outcome(played.game, played.result, "solo").cards
        assert cards is not None
        _drawn, used, _held = cards[0]
        # Every card a rule discarded is counted as played, and so is every card played.
        assert discarded <= used
        assert {e[2] for e in events if e[0] == "play"} <= used
        seen |= discarded
    # The greedy captain spends Smoke Bombs in 40 games: the check above was not vacuous.
    assert "smoke_bomb" in seen
