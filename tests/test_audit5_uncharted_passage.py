"""A fifth outside audit of Uncharted Passage (audit5), aimed at the two 2-player modes and the
solo rules least covered, written from the rulebook's sentences and README.md alone. The rule
cases are ``tests/scenarios/uncharted_passage/audit5_rules.yaml``; the new cards and house rules
``tests/data/audit5_uncharted_passage/``.

What it found:

- A Prestige marker moved back down the track (a designer's ``lose prestige 2``; a house rule's
  ``pay``, ``reduce`` or ``set``) onto the other captain's space was not stacked on top ("When
  moving your marker on the Prestige track, if it stops on a space already occupied by another
  player, stack it on top"): only a gain counted as a move, so the captain that moved last did
  not go first when tied.
- ``add prestige 1`` (README: "``add NAME N`` raises a window's quantity (or a counter)")
  moved the marker without the Prestige Track's rules: no Port Card on an anchor space, and
  the marker not stacked on top.
- Solo, an anchor space reached again after prestige was lost gave a second Port Card, where
  2-player gives each anchor space's card once a game and logbook.cards says the flow "gives
  each anchor space's Port Card once, when prestige first reaches it".
- The marker a scenario gives as arrived (``prestige_arrival: 3``) stayed on top of a marker
  that then moved onto its space (the game's own count of moves started below it).
- A house rule's phase inserted ``into: end`` (README: "at its end"), after the End of the
  Game recorded the final score, changed the prestige and not the result: its gain was lost.
- A house rule redefining only a function (the final score, the tie-break, ``cooperative()``)
  printed the base game's rules reference: a redefined function is printed nowhere.
- A die a house rule's phase rolls for a captain (Storm Season's storm) could not be rerolled
  with Figurehead ("You may reroll any one die").
- On the scenarios' stand-in chart, a card's ``port.stars`` read map.cards' card of the same
  name (3 stars at the stand-in's 2-star Zanzibar), and ``place.sea`` failed on a space the
  stand-in alone has.
- A house rule removing the ``world_map`` phase failed under the greedy captain with
  ``KeyError: 'position'``; a definition with one parameter too many was told "1
  parameters"; one leftover scripted choice "1 scripted choices were not asked for".
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from probing import (
    assert_cases_hold,
    assert_simulates,
    audit_texts,
    copy_game,
    diagnostics_with_card_file,
    run_scenarios,
)

from engine.loader import new_game
from engine.runtime import Context, Player, Scripted

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
UP = GENERATED / "uncharted_passage"
AUDIT = ROOT / "tests" / "data" / "audit5_uncharted_passage"


def _game(players: int = 2, mode: str = "competitive", pile: tuple[str, ...] = ()) -> Any:
    """A set-up game of ``players`` with a Port Card pile of ``pile`` and no missions."""
    g = new_game(UP, players=players, mode=mode, policies={-1: Scripted([])})
    g.board["missions_dealt"] = True
    g.run_section("setup")
    g.board["deck:port_cards"] = list(pile)
    return g


def _order(g: Any) -> list[int]:
    """The seats in the Sailing & Anchoring phase's order: "The player with the lower score on
    the Prestige track goes first. If tied, the player whose marker is on top goes first"."""
    players: list[Player] = g.players
    return [
        p.index
        for p in sorted(players, key=lambda p: (p.counters["prestige"], -p.flags["arrived"]))
    ]


@pytest.mark.parametrize(
    ("verb", "amount"),
    [("lose", 2), ("pay", 2), ("reduce", 2), ("set", 5)],
)
def test_a_marker_moved_back_onto_the_rivals_space_is_stacked_on_top(
    verb: str, amount: int
) -> None:
    """Player 1's marker reached 7, then player 2's reached 5 (the later move); player 1's moves
    back from 7 onto player 2's: player 1's is now on top, and goes first."""
    g = _game()
    first, second = g.players
    first.counters["prestige"], second.counters["prestige"] = 3, 1
    g.gain(Context(first, "", "test"), "prestige", 4)
    g.gain(Context(second, "", "test"), "prestige", 4)
    assert (first.counters["prestige"], second.counters["prestige"]) == (7, 5)
    assert _order(g) == [1, 0]
    getattr(g, verb)(Context(first, "", "test"), "prestige", amount)
    assert first.counters["prestige"] == 5
    assert _order(g) == [0, 1]


def test_a_marker_that_does_not_move_stays_under() -> None:
    """Losing nothing (0 prestige to lose) is no move: the marker stays where it was in the
    stack."""
    g = _game()
    first, second = g.players
    g.gain(Context(first, "", "test"), "prestige", 4)
    g.gain(Context(second, "", "test"), "prestige", 4)
    assert _order(g) == [1, 0]
    g.lose(Context(first, "", "test"), "prestige", 0)
    assert _order(g) == [1, 0]


def test_add_prestige_reaches_an_anchor_space_and_stacks_the_marker() -> None:
    """``add prestige 1`` from 7 reaches the anchor space at 8: its Port Card, and the marker on
    top of the rival's already there."""
    g = _game(pile=("rum",))
    first, second = g.players
    g.gain(Context(second, "", "test"), "prestige", 6)
    first.counters["prestige"] = 5
    g.add(Context(first, "", "test"), "prestige", 1)
    assert first.counters["prestige"] == 6
    assert _order(g) == [0, 1]
    first.counters["prestige"] = 7
    g.add(Context(first, "", "test"), "prestige", 1)
    assert first.zones["port_cards"] == ["rum"]


def test_solo_an_anchor_space_reached_again_gives_no_second_port_card() -> None:
    """Solo: 7 -> 9 passes the anchor space at 8 (a Port Card); lost back to 7 and gained to 9
    again, it gives none: each anchor space's Port Card once a game, as in 2-player."""
    g = _game(players=1, mode="solo", pile=("rum", "smoke_bomb"))
    (captain,) = g.players
    c = Context(captain, "", "test")
    captain.counters["prestige"] = 7
    g.gain(c, "prestige", 2)
    assert captain.zones["port_cards"] == ["rum"]
    g.lose(c, "prestige", 2)
    g.gain(c, "prestige", 2)
    assert captain.zones["port_cards"] == ["rum"]
    assert g.board["deck:port_cards"] == ["smoke_bomb"]


def test_a_marker_moving_onto_a_given_arrival_is_stacked_on_top(tmp_path: Path) -> None:
    """A scenario gives player 1's marker as arrived at move 3, player 2's at 2; player 2 then
    docks onto player 1's space: player 2's marker is on top, and faces the Pirate first."""
    text = """\
scenario: given arrivals
game: uncharted_passage
mode: competitive
given:
  chart: stand_in
  missions_dealt: true
  players:
    - counters: {prestige: 5, armament: 6}
      prestige_arrival: 3
    - position: sea_1_0
      counters: {prestige: 3, sailing_speed: 1, crew_stamina: 1, armament: 6}
      prestige_arrival: 2
dice: [1, 1]
do:
  - action: sail_to
    player: 2
    args: {to: london}
  - action: anchor
    player: 2
  - action: pirate_round
    args: {voyage: calm_seas}
expect:
  players:
    - prestige: 5
    - prestige: 5
  events_in_order:
    - pirate player 2 1 6
    - pirate player 1 1 6
"""
    (result,) = run_scenarios(GENERATED, text, tmp_path / "s.yaml")
    assert result.passed, result.message


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Eight new cards (a prestige loss and an ``add prestige`` moving 2-player markers, a co-op
    window, a restraint and a specialty crossed out by name, a Port Card on the resolved pirate,
    a three-region route, a ``choose one of`` behind a function of the designer's, a window
    raised by ``repeat``) and eight house rules (a phase ``into: end``, a Python verb and a
    Python native given DSL bodies, a co-op phase inserted, the Pirate phase replaced, params
    and a track, a library module, a variant extending another) build, hold their cases (each
    house rule beside the base game's), and play whole games in every mode."""
    points = assert_cases_hold(
        built_copy,
        "uncharted_passage",
        AUDIT,
        (
            "dawn_council",
            "gentlemens_agreement",
            "long_haul",
            "pension",
            "pirate_season",
            "rogue_waves",
            "shore_crews",
            "short_pension",
        ),
        37,
    )
    assert_simulates(points, ("solo", "competitive", "coop"))


@pytest.mark.parametrize(
    ("title", "words"),
    [
        ("Court Scandal", "Immediately, if you have at least 20 prestige, lose 2 prestige."),
        (
            "Escort Fleet",
            "In the Pirate phase, if you are playing the cooperative mode, add 1 to your Armament.",
        ),
        ("Royal Patronage", "Immediately add 1 to prestige."),
        (
            "Trade Embargo",
            "When docked in a port, if you have any specialties, lose 1 specialty.",
        ),
        (
            "Letter of Marque",
            "In the Pirate phase, if your Armament is higher than the Pirate's Combat Power, you "
            "may gain 2 prestige and discard this card.",
        ),
        (
            "Rival Cartographers",
            "When you anchor outside a port, if the place is a Discovery Spot and the month is "
            "even, choose one: gain 1 prestige",
        ),
        (
            "Spare Sails",
            # The reach icon leads "add reach"'s phrase (leftovers9).
            "In the Sailing phase, you may do the following: [reach] sail 1 additional space "
            "twice; then "
            "discard this card.",
        ),
    ],
)
def test_the_audits_cards_print_in_the_rulebooks_words(
    tmp_path: Path, title: str, words: str
) -> None:
    """Each new card's printed text says what it does, in the rulebook's words (its provisional
    mark aside)."""
    texts = audit_texts(tmp_path, "uncharted_passage", AUDIT)
    assert texts[title].startswith(words)


#: A house rule whose phase README's ``into: end`` puts after the End of the Game's own phase.
PENSION = """\
description: Explorer's pension (a house rule) - 3 prestige at the very end
flow:
  - insert: |
      phase pension "Explorer's Pension" {
        for each captain in players {
          unless sank() {
            gain prestige 3
          }
        }
      } @provisional("a house rule, not the rulebook's")
    into: end
"""


def test_a_phase_inserted_into_the_end_after_final_scoring_counts(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    """README: "``into:`` names a section ... (at its end)". The pension's 3 prestige comes
    after the final score is recorded; it counts in the result all the same (25 + 3 is a
    Hapless 28; 28 + 3 a Mediocre 31), as a flow's score counter does at the end of any game;
    a sunk ship, which the pension skips, still scores nothing."""
    generated = built_copy("uncharted_passage", {"variants/pension.yaml": PENSION})
    text = """\
scenario: afloat
game: uncharted_passage
variant: pension
given:
  chart: stand_in
  missions_dealt: true
  player:
    counters: {prestige: 28}
do:
  - action: finish
expect:
  final_score: 31
  scores: [31]
  titles: [Mediocre Explorer]
---
scenario: sunk
game: uncharted_passage
variant: pension
mode: competitive
given:
  chart: stand_in
  missions_dealt: true
  pile: [rocks]
  mid_event_card: groceries_in_vogue
  players:
    - counters: {prestige: 28}
      tracks: {durability: 9}
    - counters: {prestige: 20}
do:
  - action: play_game
expect:
  scores: [0, 23]
  winner: 2
"""
    results = run_scenarios(generated, text, tmp_path / "s.yaml")
    assert [r.message for r in results if not r.passed] == []
    assert len(results) == 2


def test_a_definition_with_one_parameter_too_many_is_told_in_the_singular(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A DSL body for the declared ``crew_actions`` (no parameters) taking one was told "it
    takes 1 parameters": now "1 parameter", at the definition, with the declaration's usage."""
    (diagnostic,) = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "uncharted_passage",
        'verb crew_actions(extra number) "a crew ashore" {\n  gain prestige extra\n}\n',
    )
    assert diagnostic.code == "signature-mismatch"
    assert diagnostic.message.endswith("it takes 1 parameter, the declaration 0")
    assert (diagnostic.span.line, diagnostic.span.column) == (1, 1)
    assert diagnostic.hints == ("the declaration reads: crew_actions",)


#: A house rule removing the setup's phase that puts every ship in Lisbon.
NO_MAP = """\
description: No World Map (a house rule that cannot be played)
flow:
  - remove: world_map
"""


@pytest.mark.parametrize("mode", ["solo", "competitive"])
def test_a_game_without_the_world_map_is_told_so_by_the_greedy_captain(
    built_copy: Callable[[str, dict[str, str]], Path], mode: str
) -> None:
    """Without the ``world_map`` phase no ship is anywhere: the greedy captain planning the
    month (solo) or redrawing a mission (2-player) failed with ``KeyError: 'position'`` in
    policy.py; it is told the rule error the Sailing phase gives, at the flow's line."""
    from engine import sim

    generated = built_copy("uncharted_passage", {"variants/no_map.yaml": NO_MAP})
    with pytest.raises(sim.GameFailed) as failed:
        sim.simulate(generated / "uncharted_passage" / "no_map", 1, 5, mode, "greedy", cards=False)
    message = str(failed.value)
    assert "KeyError" not in message
    assert "the ship is at 'None', which is not a space of the map" in message
    assert "cards/uncharted_passage/flow.cards:" in message


def _variant_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str) -> str:
    """The "Rules" section of the rules reference of a house rule ``text`` (Markdown)."""
    from compiler.project import find_project
    from compiler.sheets import render_sheet_files
    from compiler.variants import compile_variant
    from dsl.diagnostics import SourceCache

    folder = copy_game(tmp_path, "uncharted_passage")
    (folder / "variants" / f"{name}.yaml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    project = find_project(tmp_path)
    assert project is not None
    result, _ = compile_variant(folder, folder / "variants" / f"{name}.yaml", SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    files = render_sheet_files(
        project, "uncharted_passage", result.ir, variant=name, formats=("md",)
    )
    md = files[f"sheets/uncharted_passage/{name}.md"].decode()
    return md.split("### Rules", 1)[1].split("\n### ", 1)[0]


@pytest.mark.parametrize(
    ("function", "printed"),
    [
        (
            'function cooperative() bool "rivals on one space share as partners do" = true',
            '**Rivals on one space share as partners do.** Every "you are playing the '
            'cooperative mode" of the rules now always holds.',
        ),
        (
            'function final_score() number "the prestige and twice the sailors" = prestige'
            " + 2 * sailor_points()",
            '**The prestige and twice the sailors.** Every "your final score" of the rules now '
            'reads "your prestige plus 2 times your points from Adventures of a Sailor".',
        ),
        (
            'function tie_break() number "port cards first" = 10 * count(port_cards)'
            " + count(accomplished)",
            '**Port cards first.** Every "your completed Mission Cards, owned specialties and '
            'Port Cards added up" of the rules now reads "10 times the number of your Port Cards '
            'plus the number of your accomplished missions".',
        ),
    ],
)
def test_a_function_a_house_rule_redefines_is_printed_in_the_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, function: str, printed: str
) -> None:
    """README: "Variants are printed as they play". A house rule redefining only a function
    (the mode, the final score, the tie-break) printed the base game's rules reference, its
    change nowhere: it says what the function now reads, as a redefined verb says what it now
    does."""
    rules = _variant_rules(
        tmp_path,
        monkeypatch,
        "house",
        f"description: a house rule\nverbs: |\n  {function}\n",
    )
    assert printed in rules


def test_one_unused_die_and_one_unused_choice_are_told_in_the_singular(tmp_path: Path) -> None:
    """A scenario left one die and one choice unused: "1 scripted choices were not asked for;
    remove them": now "1 scripted choice was not asked for; remove it"."""
    text = """\
scenario: leftovers
game: uncharted_passage
given:
  chart: stand_in
  missions_dealt: true
dice: [3]
choices:
  - planning.allocate: 1/1/1
do:
  - action: reveal
    args: {card: pirates_raid}
expect:
  over: false
"""
    (result,) = run_scenarios(GENERATED, text, tmp_path / "s.yaml")
    assert not result.passed
    assert "1 of 1 scripted dice was not rolled ([3]); remove it or set" in result.message
    assert "1 scripted choice was not asked for; remove it or set allow_unused" in result.message


#: Two rules of a designer's reading the space of the trigger: its stars, and its tag.
SPACE_READERS = """\
rule "Rich Harbours" {
  on dock {
    if port.stars >= 3 {
      gain prestige 1 @provisional("a probe")
    }
  }
}

rule "Open Sea" {
  on anchor_at_sea {
    if place.sea {
      gain prestige 5 @provisional("a probe")
    }
  }
}
"""


def test_cards_read_the_spaces_of_the_chart_in_play(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    """README: "``port.stars`` is the space's ``stars`` property". On the scenarios' stand-in
    chart the cards read map.cards instead: docking at the stand-in's Zanzibar (2 stars: the
    ship gains 2) read 3 stars, and a sea space of the stand-in alone (sea_6_1) was "not a card,
    so it has no tag 'sea'". They read the space the ship is on; on the data's map, its cards."""
    generated = built_copy("uncharted_passage", {"probe.cards": SPACE_READERS})
    text = """\
scenario: the stand-in's Zanzibar has 2 stars
game: uncharted_passage
given:
  chart: stand_in
  missions_dealt: true
  player:
    position: sea_4_5
    counters: {sailing_speed: 1, crew_stamina: 1}
do:
  - action: sail_to
    args: {to: zanzibar}
  - action: anchor
expect:
  player:
    prestige: 2
---
scenario: a sea space of the stand-in alone is a sea space
game: uncharted_passage
given:
  chart: stand_in
  missions_dealt: true
  player:
    position: sea_6_2
    counters: {sailing_speed: 1, crew_stamina: 1}
do:
  - action: sail_to
    args: {to: sea_6_1}
  - action: anchor
expect:
  player:
    prestige: 5
---
scenario: the map's Calicut has 3 stars
game: uncharted_passage
given:
  chart: map
  missions_dealt: true
  player:
    position: calicut
    counters: {sailing_speed: 1, crew_stamina: 1}
do:
  - action: anchor
expect:
  player:
    prestige: 4
"""
    results = run_scenarios(generated, text, tmp_path / "s.yaml")
    assert [r.message for r in results if not r.passed] == []
    assert len(results) == 3
