"""A seventh outside audit of Darwin's Journey: Pirates (audit7-dj), written from the
rulebook's sentences and README.md alone: rule cases at the edges a grader picks
(``tests/scenarios/darwins_journey/audit7_rules.yaml``: two players raided at once and short by
different amounts, the last round's raid before the lagging penalties, a Ship at the end of
the Ocean track, P4 on a Campsite still holding its Treasure, the Pirate Scenario's Ship
raiding before anyone moved it), and a designer's new cards and house rules
(``tests/data/audit7_darwins_journey/``): a Crew card picking a player among the raided
region's Ships, a Special Action tile digging up any Campsite's Treasure, an objective scoring
the Pirate Ship's company; a phase inserted into the end, a Python verb given a DSL body, and
parameters changed.

No rule of the rulebook was found wrong. Bugs found (each with its test here):

- A card's ``ship_region(player)`` printed "the Ocean Region of their Ship": the acting
  player's own Ship is "your Ship" (reference.yaml's phrases).
- ``choose VAR in players { ... }`` printed its block as said to the card's player ("choose a
  player ...: pay 2 Coins; for each Coin you cannot pay ..."), where the block acts as the
  player picked (README: "choose a player: they lose 2 Coins").
- ``choose VAR in campsite`` printed "choose a the Campsite": the kind's words carry their
  article.
- ``let found = 0`` was told "a property is written 'name value'": it is a let.
- A scenario's step by a verb natives.py implements (``action: move_pirate_ship``,
  ``navigate``, ...) ran the Python even under a house rule giving the verb a DSL body, which
  every card calling it ran: a scenario of the house rule played the base game's rule.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import (
    assert_cases_hold,
    assert_simulates,
    audit_texts,
    copied_project,
    run_scenarios,
)
from test_variant_hardening import run

GAME = "darwins_journey"
AUDIT = Path(__file__).resolve().parent / "data" / "audit7_darwins_journey"
VARIANTS = ("one_token_raid", "rich_seas", "treasure_vault")

pytestmark = pytest.mark.usefixtures("fresh_file_cache")


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Three new cards and three house rules build, hold their 14 cases and play whole games
    solo and competitive."""
    points = assert_cases_hold(built_copy, GAME, AUDIT, VARIANTS, 14)
    assert_simulates(points, ("solo", "competitive"))


def test_the_audits_cards_print_as_they_play(tmp_path: Path) -> None:
    texts = audit_texts(tmp_path, GAME, AUDIT)
    # The designer's own text is printed as written.
    assert texts["P5"].startswith("Gain 1 Coin. Then choose a player whose Ship is in"), texts
    # The objective has no text: its effects are said, to its player ("your Ship").
    friend = texts["Pirates' Friend"]
    assert "if the Ocean Region of your Ship is the Pirate Ship's Ocean Region" in friend
    assert "their Ship" not in friend


def _printed(tmp_path: Path, cards: str) -> dict[str, str]:
    folder = tmp_path / "audit"
    folder.mkdir()
    (folder / "probe.cards").write_text(cards, encoding="utf-8")
    return audit_texts(tmp_path, GAME, folder)


def test_a_choice_among_players_is_said_of_the_player_picked(tmp_path: Path) -> None:
    texts = _printed(
        tmp_path,
        'crew pirates "Informer" {\n  code "P9"\n  on use {\n'
        "    choose victim in players where ship_region(victim) == pirate_region() {\n"
        "      pay coins 2 else lose victory_points missing\n    }\n"
        "    choose holder in players where treasure > 0 {\n"
        "      lose coins 2\n      return_treasure\n    }\n  }\n}\n",
    )
    text = texts["Informer"]
    # It read "...: pay 2 Coins; for each Coin you cannot pay, ...": the chooser paying.
    assert (
        "Pirate Ship's Ocean Region: they pay 2 [coins] Coins; for each Coin they cannot pay, "
        "they lose 1 victory point" in text
    ), text
    assert (
        "Choose a player who has any Treasure tokens: they lose 2 [coins] Coins and return all "
        "of their Treasure tokens back to the box." in text
    ), text


def test_a_choice_among_campsites_says_a_campsite(tmp_path: Path) -> None:
    texts = _printed(
        tmp_path,
        'action_tile pirates "Dig" {\n  code "P9"\n  on activate {\n'
        "    choose site in campsite where treasure_at(site) {\n"
        "      take_treasure site\n    }\n  }\n}\n",
    )
    # It read "choose a the Campsite where ...".
    assert "choose a Campsite where" in texts["Dig"], texts["Dig"]


def test_the_acting_players_ship_is_your_ship(tmp_path: Path) -> None:
    texts = _printed(
        tmp_path,
        'crew pirates "Lookout" {\n  code "P9"\n  on use {\n'
        "    if ship_region(player) == pirate_region() { gain coins 2 }\n"
        "    gain victory_points lagging_penalties_behind(player)\n  }\n}\n",
    )
    text = texts["Lookout"]
    assert text.startswith("If the Ocean Region of your Ship is the Pirate Ship's"), text
    assert "the lagging penalties ahead of your Ship" in text, text


def test_a_let_written_with_an_equals_sign_is_told_how_a_let_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, GAME)
    (project / "cards" / GAME / "probe.cards").write_text(
        'crew pirates "Digger" {\n  code "P9"\n  on use {\n    let found = 2\n'
        "    gain coins found\n  }\n}\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "probe.cards:4:15: error[invalid-character]" in out, out
    assert "hint: a let is written 'let NAME VALUE', without ':' or '=': let found 0" in out, out
    # A property's '=' keeps its own hint.
    (project / "cards" / GAME / "probe.cards").write_text(
        'crew pirates "Digger" {\n  code = "P9"\n}\n', encoding="utf-8"
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "a property is written 'name value'" in out, out


ANCHORED = """\
description: Anchored pirates (a house rule) - the Pirate Ship never moves; moving it gives 1 Coin
verbs: |
  verb move_pirate_ship() "the Pirate Ship stays where it is; gain 1 Coin" {
    gain coins 1
  } @provisional("a house rule, not the rulebook's")
"""

STEP = """\
scenario: the scenario step move_pirate_ship plays the house rule's verb
rulebook: "(a house rule) the Pirate Ship never moves; moving it gives 1 Coin"
game: darwins_journey
variant: anchored
given:
  pirate_region: section_2
  player:
    counters: {coins: 0}
choices:
  - pirate.activate.move_pirate_ship: yes
do:
  - action: activate_tile
    args: {tile: pirate}
  - action: move_pirate_ship
expect:
  player:
    # the tile's 2 Coins, and 1 for each move, the tile's and the step's
    counters: {coins: 4}
  pirate_region: section_2
"""


def test_a_scenario_step_plays_the_house_rules_body_of_a_python_verb(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    # The step called natives.py's move_pirate_ship directly: it asked for an Ocean Region
    # and moved the Pirate Ship, where the card calling the same verb gained the Coin.
    generated = built_copy(GAME, {"variants/anchored.yaml": ANCHORED})
    results = run_scenarios(generated, STEP, tmp_path / "anchored.yaml")
    assert len(results) == 1
    assert results[0].passed, results[0].message
