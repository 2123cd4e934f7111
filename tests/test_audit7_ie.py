"""audit7-ie: Incredible Expeditions card by card against the rulebook
(/work/shared/rulebooks/incredible-expeditions-atlantis.txt). The scenarios are in
tests/scenarios/incredible_expeditions/audit7_cards.yaml; these play whole greedy games (whose
policy says yes to every "may") and check that no Crew is Exhausted for an ability with
nothing to do: the Pilot at a Location with no "When entering..." text, the Ship's Doctor with
no Cursed Crew."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from probing import copied_project
from test_variant_hardening import run

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


# -- a value named twice on a card

TWICE = """\
crew "Twin Bosun" {
  copies 1
  bubbles heroism 1, heroism 2, skullduggery 0
  to_acquire money 3
} @provisional("a designer's Crew")
resource "Double Purse" {
  copies 1
  values money 1
  to_acquire money 2, heroism 1, money 1
} @provisional("a designer's Resource")
encounter "Twin Sharks" {
  type creature
  difficulty heroism 1, heroism 1
} @provisional("a designer's Encounter: two Heroism bubbles are two bubbles")
"""


def test_a_value_named_twice_on_a_crew_or_resource_is_an_error_with_the_one_clause_to_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "three bubbles showing how valuable this Crew member is to your ship; when you Exhaust a
    # crew member they will give you money, heroism, and skullduggery equal to their icons":
    # each kind once. Named twice, the two were added up without a word (the Twin Bosun gave
    # 3 Heroism); an Encounter's "1 to 3 bubbles" may show one kind twice.
    project = copied_project(tmp_path, monkeypatch, "incredible_expeditions")
    (project / "cards" / "incredible_expeditions" / "probe.cards").write_text(
        TWICE, encoding="utf-8"
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "probe.cards:3:3: error[card-data]: Twin Bosun: 'bubbles' names heroism twice; a card "
        "shows each of money, heroism and skullduggery once" in out
    ), out
    assert "hint: write it once: bubbles heroism 3" in out, out
    assert (
        "probe.cards:9:3: error[card-data]: Double Purse: 'to_acquire' names money twice" in out
    ), out
    assert "hint: write it once: to_acquire money 3" in out, out
    assert "Twin Sharks" not in out, out
    assert "2 errors" in out, out


# -- a Market Resource without a cost

FREE = """\
resource "Free Lunch" {
  copies 2
  values money 2
} @provisional("a designer's Resource, its cost forgotten")
resource "Heirloom" {
  starting_copies 0
  values heroism 1
} @provisional("a designer's Starting Resource: never in the Market, so no cost")
"""


def test_a_market_resource_without_a_to_acquire_cost_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "At the bottom of the card are the costs to purchase it: money, heroism, skullduggery or
    # some combination of these": a Resource of the Market's deck (copies) without one checked,
    # and the Market offered it for nothing.
    project = copied_project(tmp_path, monkeypatch, "incredible_expeditions")
    (project / "cards" / "incredible_expeditions" / "probe.cards").write_text(
        FREE, encoding="utf-8"
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "probe.cards:2:3: error[card-data]: Free Lunch: a Resource of the Market's deck (it has "
        "copies) has no To Acquire cost" in out
    ), out
    assert "hint: write: to_acquire money 3" in out, out
    assert "Heirloom" not in out, out
    assert "1 error" in out, out
