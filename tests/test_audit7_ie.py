"""audit7-ie: Incredible Expeditions card by card against the rulebook
(/work/shared/rulebooks/incredible-expeditions-atlantis.txt). The scenarios are in
tests/scenarios/incredible_expeditions/audit7_cards.yaml; these play whole greedy games (whose
policy says yes to every "may") and check that no Crew is Exhausted for an ability with
nothing to do: the Pilot at a Location with no "When entering..." text, the Ship's Doctor with
no Cursed Crew."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.loader import new_game, rules_module
from engine.runtime import Question, Scripted
from engine.sim import play_game

GENERATED = Path(__file__).resolve().parent.parent / "generated" / "incredible_expeditions"
ie = rules_module("incredible_expeditions")


def greedy_game(players: int, seed: int) -> Any:
    """A fresh game of ``players`` greedy players."""
    g = new_game(GENERATED, players=players, seed=seed, policies={-1: Scripted([])})
    g.policies = {i: ie.POLICIES["greedy"](g, i) for i in range(players)}
    return g


def test_the_pilot_ignores_only_when_entering_text_in_whole_games() -> None:
    # FAQ: "Can the Pilot's ability ignore Location text that says "When entering..."? Yes.
    # Exhaust the Pilot as the first thing you do when entering a new Location to ignore the
    # text there." Where there is no such text the Pilot is not asked, and so never Exhausted.
    ignored: list[str] = []
    for seed in range(12):
        g = greedy_game(3, seed)
        play_game(g)
        with_text = {card["id"] for card in g.ir["cards"] if "when_entering" in card["triggers"]}
        for event in g.events:
            if event[0] == "ignored":
                ignored.append(event[2])
                assert event[2] in with_text, f"seed {seed}: the Pilot ignored {event[2]}"
    # The games do enter Locations with text, and the Pilot ignores it there.
    assert ignored


def test_the_ships_doctor_is_asked_only_with_a_cursed_crew() -> None:
    asked: list[int] = []

    class Recording(ie.Greedy):  # type: ignore[misc, name-defined]
        def decide(self, game: Any, question: Question) -> str:
            if question.id == "ships_doctor.facing.exhaust":
                player = game.players[question.player]
                asked.append(len(player.flags["cursed"]))
            return str(super().decide(game, question))

    # Seed 104 of 4 greedy players is the first game in which a Doctor meets a Curse.
    for seed in range(100, 110):
        g = greedy_game(4, seed)
        g.policies = {i: Recording(i) for i in range(4)}
        play_game(g)
    assert asked
    assert all(cursed > 0 for cursed in asked)
