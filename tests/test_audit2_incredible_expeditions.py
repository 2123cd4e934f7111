"""A second, independent tester's Incredible Expeditions: Quest for Atlantis, written from the
rulebook (/work/shared/rulebooks/incredible-expeditions-atlantis.txt) and the README alone:
new Crew, Resources, an Encounter, a Location and an Expedition Leader over the rulebook's
triggers, a verb and a function of the designer's own and the standard library's decks
(tests/data/audit2_incredible_expeditions/cards.cards), five house rules, four of them reaching
the flow (variants/), each played by a scenario that shows its difference and simulated; and
what they found. The rule cases are tests/scenarios/incredible_expeditions/audit2_rules.yaml.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from probing import check_build_test, copied_project, run_scenarios
from test_variant_hardening import run

DATA = Path(__file__).resolve().parent / "data" / "audit2_incredible_expeditions"
GAME = "incredible_expeditions"
VARIANTS = ("windfall", "shore_leave", "rescue_at_dusk", "coop_marooned", "lean_rest")

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary project with a copy of the game, the current directory."""
    return copied_project(tmp_path, monkeypatch, GAME)


def test_new_cards_check_build_and_play_as_the_rulebook_says(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(DATA / "cards.cards", project / "cards" / GAME / "audit2.cards")
    check_build_test(capsys, project, GAME, DATA / "cards.yaml", 9)


def test_house_rules_check_build_play_their_difference_and_simulate(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in VARIANTS:
        shutil.copy(DATA / "variants" / f"{name}.yaml", project / "cards" / GAME / "variants")
    check_build_test(capsys, project, GAME, DATA / "variants.yaml", 9)
    for name in VARIANTS:
        mode = "coop" if name == "coop_marooned" else "competitive"
        status, out = run(
            capsys,
            "sim",
            GAME,
            "--variant",
            name,
            "--mode",
            mode,
            "--games",
            "4",
            "--seed",
            "1",
            "--no-cards",
            "--json",
        )
        assert status == 0, out
        report = json.loads(out)
        assert (report["variant"], report["games"]) == (name, 4)


# -- what the new cards and house rules found

SEXTANT = """\
@provisional("a test Resource")
resource "Sextant" {
  copies 1
  values money 1
  to_acquire money 3
  on play {
    if is_empty(resource_deck) {
      reshuffle discard_pile, resource_deck
    }
    draw_from resource_deck, hand, 2
  }
}
@provisional("a test Resource")
resource "Flare" {
  copies 1
  values heroism 1
  to_acquire money 2
  on play {
    draw_or_reshuffle resource_deck, discard_pile, hand, 1
    sacrifice self
  }
}
"""

IN_PLAY = """\
scenario: the card played for its Ability is not shuffled in by it
rulebook: "You can, instead, play the card to do the Ability text on the card"
game: incredible_expeditions
mode: competitive
given:
  player:
    zones: {hand: [sextant], resource_deck: [], discard_pile: [fame]}
do:
  - action: play_for_ability
    args: {card: sextant}
expect:
  player:
    zones: {hand: [fame], resource_deck: [], discard_pile: [sextant]}
---
scenario: a card Sacrificing itself is removed from the game, never drawn by its own Ability
rulebook: "You may Sacrifice (remove from the game) up to one Resource card still in your hand."
game: incredible_expeditions
mode: competitive
given:
  player:
    zones: {hand: [flare], resource_deck: [], discard_pile: []}
do:
  - action: play_for_ability
    args: {card: flare}
expect:
  player:
    zones: {hand: [], resource_deck: [], discard_pile: [], sacrificed: [flare]}
"""


def test_a_resource_played_for_its_ability_is_in_play_until_the_ability_is_done(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    """The card went to the discard pile before its Ability ran: an Ability shuffling the
    discard pile into the deck shuffled the card in (the Sextant left nothing on the discard
    pile and itself in the deck), and one drawing from the deck could draw it again."""
    generated = built_copy(GAME, {"in_play.cards": SEXTANT})
    results = run_scenarios(generated, IN_PLAY, tmp_path / "in_play.yaml")
    assert [r.message for r in results if not r.passed] == []
    assert len(results) == 2


TURNS = """\
rule "The Third Turn" {
  on rest {
    if turns_taken() == 3 {
      gain money 1
    }
  }
}
"""

TURNS_GIVEN = """\
scenario: the turns each player is given count among the turns taken
rulebook: "Go around the table taking Rest Turns until a brave player decides"
game: incredible_expeditions
mode: competitive
given:
  players:
    - {turns: 2, counters: {money: 0}}
    - {turns: 1}
do:
  - action: rest_turn
    player: 1
expect:
  players:
    - {counters: {money: 1}}
    - {}
"""


def test_turns_taken_counts_the_turns_a_scenario_gives_each_player(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    """``turns_taken()`` read the game's count of turns begun, which a scenario's ``turns:``
    (each player's) left at 0: a rule or house rule reading it could not be set up."""
    generated = built_copy(GAME, {"turns.cards": TURNS})
    results = run_scenarios(generated, TURNS_GIVEN, tmp_path / "turns.yaml")
    assert [r.message for r in results if not r.passed] == []


NO_STEPS = """\
scenario: a ship with 2 Capable Crew beyond Port City is Marooned
rulebook: "at a Location beyond Port City"
game: incredible_expeditions
mode: competitive
given:
  locations: [misty_strait]
  player:
    location: misty_strait
    cabins: [deckhand, bosun]
expect:
  player:
    marooned: {marooned}
"""


def test_a_scenario_without_steps_expects_what_its_given_state_reads(tmp_path: Path) -> None:
    """Was refused at check ("a scenario without steps ('do:') can only expect its 'given'
    refused", with no hint), though the README says nothing of it and a native read of the
    given state (``marooned``, ``capable_crew``) is a rule worth a case of its own."""
    generated = Path(__file__).resolve().parent.parent / "generated"
    passed = run_scenarios(
        generated, NO_STEPS.replace("{marooned}", "true"), tmp_path / "no_steps.yaml"
    )
    assert [(r.passed, r.message) for r in passed] == [(True, "")]
    failed = run_scenarios(
        generated, NO_STEPS.replace("{marooned}", "false"), tmp_path / "no_steps.yaml"
    )
    assert not failed[0].passed
    assert "expected marooned False, got True" in failed[0].message


def test_a_flow_edit_without_one_place_is_told_a_place_of_its_own_game(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hint was "for example: - insert: ... then, on the next line, after: pirate", a
    phase of Uncharted Passage, whatever the game; and given two places it did not say which
    were given."""
    variants = project / "cards" / GAME / "variants"
    (variants / "both.yaml").write_text(
        "description: both\nflow:\n  - move: marooned\n    after: draw_phase\n"
        "    before: end_of_the_turn\n",
        encoding="utf-8",
    )
    (variants / "neither.yaml").write_text(
        "description: neither\nflow:\n  - move: marooned\n", encoding="utf-8"
    )
    status, out = run(capsys, "check")
    assert status == 1
    assert "hint: keep one of them: after: draw_phase or before: end_of_the_turn" in out
    # The example names the flow's last phase (the turn limit, since it left the Draw Phase).
    assert "hint: for example: - move: ... then, on the next line, after: turn_limit" in out
    assert "pirate" not in out


@pytest.mark.parametrize(
    "value, least",
    [("die_sides: 0", 2), ("cabins: 0", 1), ("hand_size: -1", 0), ("turn_limit: 0", 1)],
)
def test_a_counting_param_out_of_its_range_is_an_error_at_the_variants_line(
    project: Path, capsys: pytest.CaptureFixture[str], value: str, least: int
) -> None:
    """A house rule's ``params: {die_sides: 0}`` checked, then failed the first roll-off of a
    game; ``cabins: 0`` played every game to the turn limit, no Crew ever hired."""
    (project / "cards" / GAME / "variants" / "odd.yaml").write_text(
        f"description: odd\nparams: {{{value}}}\n", encoding="utf-8"
    )
    status, out = run(capsys, "check")
    assert status == 1
    name = value.split(":")[0]
    assert f"cards/{GAME}/variants/odd.yaml:2:" in out
    assert f"param {name} is {value.split(': ')[1]}, but it counts" in out
    assert f"hint: set {name} to {least} or more" in out


RICHEST = """\
description: the richest crew takes heart
use: [majorities, decks]
add: |
  rule "Richest" {
    on rest {
      if has_majority(money) {
        gain heroism 1
      }
    }
  }
"""

RICHEST_PLAYED = """\
scenario: on a Rest Turn the player alone with the most Money takes a Heroism token
rulebook: "First thing to do on a Rest Turn is to Refresh your Exhausted crew"
game: incredible_expeditions
variant: richest
mode: competitive
given:
  players:
    - {counters: {money: 4, heroism: 0}}
    - {counters: {money: 2}}
do:
  - action: rest_turn
    player: 1
expect:
  players:
    - {counters: {heroism: 1}}
    - {}
"""


def test_a_variant_uses_a_library_module_the_game_does_not(
    built_copy: Callable[[str, dict[str, str]], Path],
    tmp_path: Path,
    project: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A house rule calling ``has_majority`` was told to add ``use majorities`` to game.cards:
    a variant could not say it. (``decks``, which the game uses already, is taken once.)"""
    generated = built_copy(GAME, {"variants/richest.yaml": RICHEST})
    results = run_scenarios(generated, RICHEST_PLAYED, tmp_path / "richest.yaml")
    assert [r.message for r in results if not r.passed] == []
    # A module that is none: an error at its YAML line, with the module meant.
    (project / "cards" / GAME / "variants" / "typo.yaml").write_text(
        "description: typo\nuse: [majoritys]\n", encoding="utf-8"
    )
    # A house rule calling a library native its game does not use is told both ways.
    (project / "cards" / GAME / "variants" / "unused.yaml").write_text(
        RICHEST.replace("use: [majorities, decks]\n", ""), encoding="utf-8"
    )
    status, out = run(capsys, "check")
    assert status == 1
    assert f"cards/{GAME}/variants/typo.yaml:2:7: error[library-unknown]" in out
    assert "did you mean 'majorities'?" in out
    assert (
        "add 'use majorities' to the game block in game.cards (a variant: use: [majorities])" in out
    )
