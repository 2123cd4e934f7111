"""audit9 (Uncharted Passage: an independent tester): what the scenarios cannot say.

The new cards (``tests/data/audit9_uncharted_passage/audit9.cards``: a Port Card trading
another in through a DSL verb and function, a voyage's Scurvy at a Discovery Spot, a
Mid-event reading the Pirate window's quantities) and house rules (``variants/``: an end
condition and a phase into the end, a phase opening the Pirate's Raid window after anchoring,
the ``reward`` verb redefined with a parameter added) build, hold their scenarios and play whole
greedy games in every mode.

Found: a redefinition that adds a parameter with a default (README: "It may add parameters at
the end that have a default, which the existing calls leave at the default") stopped the first
game whose Python called the verb as the base declared it (``run_verb("reward", player, stars,
dice, anchors)``: "dv_reward() missing 1 required positional argument"): the default was
filled in at the DSL's calls only, not in the generated function.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import assert_cases_hold, assert_simulates, copy_game, diagnostics_with_card_file

ROOT = Path(__file__).resolve().parent.parent
AUDIT = ROOT / "tests" / "data" / "audit9_uncharted_passage"


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Three new cards and three house rules build, hold their cases, and play whole greedy
    games in every mode."""
    points = assert_cases_hold(
        built_copy,
        "uncharted_passage",
        AUDIT,
        ("glory_race", "lucky_rewards", "night_watch"),
        15,
    )
    assert_simulates(points, ("solo", "competitive", "coop"))


def test_a_redefinition_adding_a_defaulted_parameter_is_called_by_the_games_python(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """The generated function of a verb redefined with a parameter added at the end takes
    its default, so the game's Python calls it with the base's arguments."""
    files = {"variants/lucky_rewards.yaml": (AUDIT / "variants" / "lucky_rewards.yaml").read_text()}
    generated = built_copy("uncharted_passage", files)
    handlers = (generated / "uncharted_passage" / "lucky_rewards" / "handlers.py").read_text()
    assert "def dv_reward(g, c, v_star_count, v_dice_shown, v_anchors, v_lucky=1):" in handlers
    from engine import sim

    report = sim.simulate(generated / "uncharted_passage" / "lucky_rewards", 2, 3, "solo", "greedy")
    assert report.games == 2


#: A designer's voyage cards whose number restraint ("Follow any number restraints imposed by
#: events. ex) Crew stamina < 4") reads the month, and the captain's own logbook.
RESTRAINED = """
@provisional("a designer's card")
voyage first_half "Gathering Storm" {
  resources 12
  pirate highest(2d6)
  restraint armament <= round
}
@provisional("a designer's card")
voyage first_half "Battered Hull" {
  resources 12
  pirate highest(2d6)
  restraint armament <= 6 - marked(durability)
}
"""


def _armaments(options: tuple[str, ...]) -> int:
    """The highest Armament of a voyage card's logbook lines."""
    return max(int(line.split("/")[2]) for line in options)


def test_a_restraint_reading_the_month_is_read_in_the_month_the_line_is_written(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """The lines a voyage card allows were kept once per compiled game whatever its restraint
    read: ``armament <= round`` read in month 2 still allowed Armament 2 at most in month 5
    (and in every later game of a simulation)."""
    from engine.loader import new_game

    generated = built_copy("uncharted_passage", {"restrained.cards": RESTRAINED})
    game = new_game(generated / "uncharted_passage")
    game.round = 2
    assert _armaments(game.allocation_options("gathering_storm")) == 2
    game.round = 5
    assert _armaments(game.allocation_options("gathering_storm")) == 5
    game.round = 1
    assert "Armament <= the month" in game.allocation_rule("gathering_storm", "1/1/2")


def test_a_restraint_reading_the_logbook_is_the_captains_own(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """A restraint reading the captain's Ship Durability Track is read for the captain writing
    the line, not for a blank logbook: a ship marked 3 times writes Armament 3 at most, the
    other ship 6; the captain's numbers are left as they were."""
    from engine.loader import new_game

    generated = built_copy("uncharted_passage", {"restrained.cards": RESTRAINED})
    game = new_game(generated / "uncharted_passage", players=2, mode="competitive")
    battered, whole = game.players
    battered.tracks["durability"].marked = 3
    battered.counters["armament"] = 5
    assert _armaments(game.allocation_options("battered_hull", battered)) == 3
    assert _armaments(game.allocation_options("battered_hull", whole)) == 6
    assert battered.counters["armament"] == 5


def test_a_restraint_no_line_meets_in_some_month_is_refused_at_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``armament >= round`` on a second-half card: no line meets it from month 7 on, where the
    card is drawn ("with the 6 Second-half Voyage Cards on the bottom"); cardc check says so
    at the restraint, not the first game that draws the card. On a first-half card (months 1
    to 6) Armament 6 meets it."""
    cards = (
        '@provisional("a designer\'s card")\nvoyage second_half "Ghost Fleet" {\n'
        "  resources 12\n  pirate highest(2d6)\n  restraint armament >= round\n}\n"
    )
    found = diagnostics_with_card_file(tmp_path, monkeypatch, "uncharted_passage", cards)
    assert [(d.code, d.span.line) for d in found] == [("card-data", 5)]
    assert "in month 7" in found[0].message and "(Armament >= the month)" in found[0].message
    first_half = cards.replace("second_half", "first_half")
    assert (
        diagnostics_with_card_file(tmp_path / "b", monkeypatch, "uncharted_passage", first_half)
        == []
    )


def test_a_house_rule_leaving_no_voyage_card_is_an_error_at_its_removal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``remove_kinds: [voyage]`` checked, built and played twelve months of nothing (no
    logbook line, no pirate, every ship sailing 1 space): "Reveal one card from the top of the
    Voyage Card pile" needs a pile. cardc check says so at the removal; a variant adding its
    own voyage cards checks."""
    from compiler.cli import main

    folder = copy_game(tmp_path, "uncharted_passage")
    (folder / "variants" / "no_voyages.yaml").write_text(
        "description: no voyages\nremove_kinds: [voyage]\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 1
    said = capsys.readouterr()
    out = said.out + said.err
    assert "no_voyages.yaml:2:16: error[card-data]: the game has no Voyage Card" in out, out
    (folder / "variants" / "no_voyages.yaml").write_text(
        "description: new voyages\nremove_kinds: [voyage]\nadd: |\n"
        '  @provisional("a house rule")\n  voyage first_half "Open Sea" {\n'
        "    resources 12\n    pirate highest(2d6)\n  }\n",
        encoding="utf-8",
    )
    assert main(["check"]) == 0, capsys.readouterr().out


def test_a_may_holding_a_choice_a_loop_or_a_window_asks_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The question a ``may`` asks is its body in words, never DSL (README: "What the player
    is asked is in words, never DSL"): a ``choose ... in``, ``for each``, ``choose one of``,
    ``fire`` or ``let`` inside it was said in the DSL's own line, braces and all ("choose spent
    in port cards where spent is not this card { trade in spent }")."""
    from compiler.pipeline import compile_game
    from dsl.diagnostics import SourceCache

    signal = """
port_card "Signal Flags" {
  copies 1 @provisional("a designer's card")
  on pirate_combat {
    may {
      let signal 1
      for each captain in players {
        gain prestige signal
      }
      choose one of {
        reduce pirate_power up_to 1 @label("smoke")
        add armament 1 @label("guns")
      }
      fire scurvy with scurvy 1 {
        mark health scurvy
      }
    } @label("use")
  }
}
"""
    folder = copy_game(tmp_path, "uncharted_passage")
    (folder / "audit9.cards").write_text((AUDIT / "audit9.cards").read_text() + signal)
    monkeypatch.chdir(tmp_path)
    ir = compile_game(Path("cards") / "uncharted_passage", SourceCache()).ir
    assert ir is not None
    asks = {}
    for card in ir["cards"]:
        for handler in (card.get("triggers") or {}).values():
            for stmt in handler["body"]:
                for inner in [stmt, *stmt.get("then", [])]:
                    if inner["kind"] == "may":
                        asks[card["id"]] = inner["ask"]
    assert asks["traders_ledger"] == (
        "choose spent in port cards where spent is not this card, then trade in spent, then "
        "discard this card"
    )
    assert asks["signal_flags"] == (
        "let signal be 1, then for each captain in players: gain prestige signal, then choose "
        "one of: reduce pirate power up to 1; or add armament 1, then scurvy with scurvy 1, then "
        "mark health scurvy"
    )
    assert not any(token in ask for ask in asks.values() for token in "{}|_")


SABOTAGE = """
@provisional("a designer's card")
voyage second_half "Sabotage" {
  resources 12
  pirate highest(2d6)
  # "Immediately, each captain chooses another captain: that ship takes 1 Ship Damage."
  on reveal {
    let chooser player
    choose victim in players where victim != chooser {
      ship_damage 1
    } @label("victim")
  }
}
"""


def test_a_seat_the_scenario_does_not_have_is_an_error_at_its_answer(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    """A ``choose victim in players`` is answered by a seat number (README: "a player's seat
    number (`2`)"); a seat beyond the scenario's players is the script's mistake, told at its
    line before anything runs, not a refusal of the step ("'3' is not a legal answer ...;
    legal: 2"). Seats the scenario has are played."""
    from probing import run_scenarios

    generated = built_copy("uncharted_passage", {"sabotage.cards": SABOTAGE})
    text = """
scenario: each captain sabotages the other
game: uncharted_passage
mode: competitive
choices:
  - sabotage.reveal.victim: 2
  - sabotage.reveal.victim: 1
do:
  - action: reveal
    args: {card: sabotage}
expect:
  players:
    - durability_marked: 1
    - durability_marked: 1
"""
    (played,) = run_scenarios(generated, text, tmp_path / "good.yaml")
    assert played.passed, played.message
    (wrong,) = run_scenarios(generated, text.replace("victim: 2", "victim: 3"), tmp_path / "b.yaml")
    assert not wrong.passed
    assert (
        "b.yaml:6:29: '3' is not an answer to 'sabotage.reveal.victim': it is answered by a "
        in (wrong.message)
    )
    assert "1 to 2 in this scenario" in wrong.message


def test_a_place_of_the_other_chart_is_told_which_chart_has_it(tmp_path: Path) -> None:
    """A scenario's ship given at a space of the other chart (``chart: stand_in`` with
    ``position: svalbard``, the data's map's Discovery Spot) was refused as "'svalbard' is not
    a space of the map", whichever map was meant; the refusal names the chart in play and
    the one that has the place."""
    from probing import run_scenarios

    text = """
scenario: a Discovery Spot of the data's map on the stand-in chart
game: uncharted_passage
given:
  chart: stand_in
  player:
    position: svalbard
    counters: {crew_stamina: 6}
do:
  - action: anchor
expect:
  player: {prestige: 0}
"""
    (result,) = run_scenarios(ROOT / "generated", text, tmp_path / "s.yaml")
    assert not result.passed
    assert (
        "'svalbard' is not a space of the stand-in chart (chart: stand_in); it is a space of "
        "the World Map of map.cards (chart: map): give that chart" in result.message
    ), result.message
