"""A sixth outside audit of Uncharted Passage (audit6-up), written from the rulebook's sentences
and README.md alone: the two 2-player modes, the Mid-event, the Scurvy Check and Rum, Port
Cards' timing, Crew Actions and the Specialties Book, missions and the final scoring. The rule
cases are ``tests/scenarios/uncharted_passage/audit6_rules.yaml``; the new cards and house
rules ``tests/data/audit6_uncharted_passage/``.

What it found:

- 2-player, a voyage card's event was applied in seat order and the first sinking ended the
  game at once: Rocks (or Plague) with one box left on both tracks sank player 1 alone, and
  player 2 was "declared the winner". The rulebook: "The contents of this card apply equally to
  both players"; the shared Pirate roll the same ("applies equally to both players", the
  Anti-Piracy prestige gained "simultaneously"). Both ships now have the event (or face the
  roll) before a sinking ends the game: two ships sunk together both sink, and neither wins.
- 2-player, a Pirate's Raid rolled its two dice for each ship in a Pirate Infested Area; the
  card's contents "apply equally to both players", as the Pirate's Combat Power "rolled on the
  dice applies equally to both players": one roll now strikes both, each ship's copy its own to
  reroll with Figurehead.
- A card's ``gain specialties 1`` raised the count and wrote no name in the Specialties Book
  ("When you gain specialties, you mark it by writing the name of the specialties"): the
  specialty could not be sold, delivered to a trade mission nor given in co-op. The captain now
  chooses its name (``specialties.gain``, the greedy captain a specialty its trade missions
  want), and ``gain_specialty silk`` writes a named one.
- A house rule redefining the DSL verb ``ship_damage`` (an armoured hull taking 1 less) changed
  only a designer's card: the Pirate phase's damage, the Pirate's Raid ("apply Ship Damage"),
  the Kraken ("take Ship Damage") and Critical Damage's "one additional damage" marked the
  track themselves. They all take Ship Damage through the verb now.
- The Galapagos' "suffer Scurvy equal to the die result" played Lime Juice by name and marked
  the Health Track itself: a designer's card answering Scurvy (Ship's Surgeon) could not reduce
  it. It goes through the ``scurvy`` window (``suffer_scurvy``), as a Scurvy Check's does.
- A voyage whose number restraint no logbook line can meet passed ``cardc check`` and stopped
  the first game that drew it.
- A scenario revealing Pirate's Raid for a ship on a Pirate Infested Area of the chart, before
  the setup unfolded the World Map, ignored the event (the native read only the unfolded
  map's list).
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
    diagnostics_with_card_file,
    run_scenarios,
)

from engine.loader import new_game, rules_module
from engine.runtime import Context, Question, Scripted

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
UP = GENERATED / "uncharted_passage"
AUDIT = ROOT / "tests" / "data" / "audit6_uncharted_passage"


def _played(pile: list[str], answers: list[tuple[str | None, str]], seed: int = 1) -> Any:
    """A 2-player competitive game, both ships with one Durability box left, played whole by
    ``play()`` (a sinking raises through the flow as in a simulation) from the voyage pile
    ``pile``, each question answered from ``answers``."""
    g = new_game(UP, players=2, mode="competitive", seed=seed, policies={-1: Scripted(answers)})
    g.board["missions_dealt"] = True
    g.board["pile"] = list(pile)
    g.board["mid_event_card"] = None
    for player in g.players:
        player.tracks["durability"].marked = 9
    return g


@pytest.mark.parametrize(("card", "track"), [("rocks", "durability"), ("plague", "health")])
def test_a_voyage_event_sinking_both_ships_sinks_both_and_no_one_wins(
    card: str, track: str
) -> None:
    """ "The contents of this card apply equally to both players": Rocks (Plague) with one box
    left on both tracks sinks both ships, in a game played whole; in seat order player 1 sank
    alone and player 2 won."""
    g = _played([card] * 12, [])
    for player in g.players:
        player.tracks["health"].marked = 9
    result = g.play()
    assert result.sunk == [True, True]
    assert result.winner is None
    assert [p.flags["sunk"] for p in g.players] == [track, track]
    assert g.reason == "the ship sank"


def test_the_shared_pirate_roll_sinking_both_ships_sinks_both() -> None:
    """ "The Pirate Combat Strength rolled on the dice applies equally to both players": both
    ships at Armament 1 against a roll above 1 both sink (the first to face it no longer ends
    the game before the other has)."""
    g = _played(["calm_seas"] * 12, [("planning.allocate", "1/1/1")] * 2, seed=4)
    result = g.play()
    assert [e for e in g.events if e[0] == "pirate"][0][2] > 1
    assert result.sunk == [True, True]
    assert result.winner is None


def test_a_ship_the_pirate_spares_wins_after_facing_the_same_roll() -> None:
    """One ship sinks, the other faces the same roll (marked too) and wins: "If any player's
    ship sinks, the game ends immediately, and the other player is declared the winner"."""
    g = _played(
        ["calm_seas"] * 12, [("planning.allocate", "1/1/1"), ("planning.allocate", "1/1/6")]
    )
    g.players[1].tracks["durability"].marked = 0
    result = g.play()
    power = [e for e in g.events if e[0] == "pirate"][0][2]
    assert 1 < power <= 6
    assert result.sunk == [True, False]
    assert result.winner == 0 + 1
    assert ("pirate", 1, power, 6) in g.events
    assert g.rounds_played == 1


#: A house rule's Pirate phase written as the flow read before audit6: a ship that sank skips
#: the other's turn, and the house rule's own end (not "ship_sunk()") would let play go on.
OLD_PIRATE_PHASE = """\
description: the old Pirate phase, and an end of its own
flow:
  - replace: |
      phase pirate {
        roll_pirates
        for each captain in players by prestige, marker_arrival() descending {
          unless ship_sunk() {
            face_pirates
          }
        }
      }
  - end_when: "round == 13"
"""


def test_a_house_rules_pirate_phase_skipping_the_other_ship_still_ends_the_game(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """A sinking left pending for the other ship, which the house rule's loop never has face
    the Pirate, ends the game at the month's next step ("the game ends immediately"), not after
    twelve months of a sunk ship."""
    generated = built_copy("uncharted_passage", {"variants/old_pirates.yaml": OLD_PIRATE_PHASE})
    answers = [("planning.allocate", "1/1/1"), ("planning.allocate", "1/1/6")]
    g = new_game(
        generated / "uncharted_passage" / "old_pirates",
        players=2,
        mode="competitive",
        seed=1,
        policies={-1: Scripted(answers)},
    )
    g.board["missions_dealt"] = True
    g.board["pile"] = ["calm_seas"] * 12
    g.board["mid_event_card"] = None
    g.players[0].tracks["durability"].marked = 9
    result = g.play()
    assert result.sunk == [True, False]
    assert g.rounds_played == 1
    assert g.reason == "the ship sank"
    assert "sinking" not in g.board


def _solo(pile: tuple[str, ...] = ()) -> Any:
    """A set-up solo game on the stand-in chart, answering from ``answers`` later."""
    g = new_game(UP, players=1, mode="solo", policies={-1: Scripted([])})
    g.board["missions_dealt"] = True
    g.run_section("setup")
    g.board["deck:port_cards"] = list(pile)
    return g


def test_a_specialty_gained_by_a_card_is_written_by_the_name_the_captain_chooses() -> None:
    """``gain specialties 2`` asks the name of each ("When you gain specialties, you mark it by
    writing the name of the specialties in the Specialties Book"), among the map's specialties;
    ``add``, and ``set`` higher, write names too."""
    g = _solo()
    (captain,) = g.players
    g.policies[-1] = Scripted(
        [(None, "specialty:silk"), (None, "specialty:silk"), (None, "specialty:wine")]
    )
    c = Context(captain, "", "test")
    g.gain(c, "specialties", 2)
    assert captain.flags["goods"] == ["silk", "silk"]
    g.add(c, "specialties", 1)
    assert captain.flags["goods"] == ["silk", "silk", "wine"]
    assert captain.counters["specialties"] == 3
    asked = [e for e in g.events if e[0] == "decision"]
    assert [e[2] for e in asked] == ["specialties.gain"] * 3


def test_a_negative_add_crosses_a_specialty_out_by_name() -> None:
    """``add specialties -1`` loses one: its name is crossed out, as a ``lose`` crosses one out."""
    g = _solo()
    (captain,) = g.players
    captain.flags["goods"] = ["silk", "wine"]
    captain.counters["specialties"] = 2
    g.policies[-1] = Scripted([("specialties.lose", "specialty:wine")])
    g.add(Context(captain, "", "test"), "specialties", -1)
    assert captain.flags["goods"] == ["silk"]


def test_the_greedy_captain_names_a_specialty_its_trade_mission_wants() -> None:
    """The greedy policy answers ``specialties.gain`` with a specialty a held trade mission
    delivers (else the best priced)."""
    module = rules_module("uncharted_passage")
    g = _solo()
    (captain,) = g.players
    captain.zones["missions"] = ["silk_for_lisbon"]
    policy = module.POLICIES["greedy"](g, 0)
    names = g.specialty_names()
    assert "silk" in names and names[0] != "silk"
    question = Question(
        "specialties.gain", 0, "Write a specialty", tuple(f"specialty:{n}" for n in names)
    )
    assert policy.decide(g, question) == "specialty:silk"


def test_pirates_raid_strikes_a_ship_on_an_infested_space_before_the_setup(tmp_path: Path) -> None:
    """A ship given on a Pirate Infested Area of the chart (no setup yet) has the Raid: "When
    you are docked in a Pirate Infested Area and the "Pirate's Raid" Voyage Card is revealed,
    the effect takes place immediately"."""
    text = """\
scenario: raid before the setup
game: uncharted_passage
given:
  chart: stand_in
  player: {position: sea_3_4}
dice: [5, 2]
do:
  - action: reveal
    args: {card: pirates_raid}
expect:
  player: {durability_marked: 3}
"""
    (result,) = run_scenarios(GENERATED, text, tmp_path / "s.yaml")
    assert result.passed, result.message


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Six new cards (a Port Card gaining a specialty of the captain's choice, a Mid-event
    writing a named one, a voyage reading a track, a trade mission to a region with a Port Card
    reward, a ``choose one of`` on accomplishing, a second scurvy card) and eight house rules
    (a phase replaced, removed, inserted into the round and into the setup, moved; a verb
    redefined with params and a track; Ship Damage redefined, which every Ship Damage takes;
    the Crew Action table and a title changed, a voyage removed) build, hold their cases, and
    play whole greedy games in every mode."""
    points = assert_cases_hold(
        built_copy,
        "uncharted_passage",
        AUDIT,
        (
            "armoured_hull",
            "early_rumours",
            "fewer_rocks",
            "generous_ports",
            "hardy_crew",
            "lonely_seas",
            "pirates_at_anchor",
            "trade_winds_rising",
        ),
        23,
    )
    assert_simulates(points, ("solo", "competitive", "coop"))


def test_a_named_specialty_prints_as_the_card_gives_it(tmp_path: Path) -> None:
    """``gain_specialty silk`` prints the specialty's name in the rulebook's words."""
    texts = audit_texts(tmp_path, "uncharted_passage", AUDIT)
    assert texts["Silk Road Open"] == (
        "When docked in a port, if the region of the port is India, gain Silk, its name written "
        "in the Specialties Book."
    )
    assert texts["Merchant's Letter"].startswith(
        "When docked in a port, you may gain 1 specialty and discard this card."
    )


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ("resources 9\n  restraint sailing_speed > 6", "the restraint (Sailing speed > 6)"),
        ("resource_triple 1 3 5\n  restraint sailing_speed + crew_stamina > 8", "1 3 5"),
    ],
)
def test_a_restraint_no_logbook_line_meets_is_refused_at_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: str, said: str
) -> None:
    """ "Follow any number restraints imposed by events": a voyage whose restraint no line of
    its resources meets is an error at the restraint's line (as resources 2 are); it passed
    cardc check and stopped the first game that drew it."""
    cards = (
        '@provisional("probe")\nvoyage first_half "Dead Calm" {\n'
        f"  {data}\n  pirate highest(2d6)\n}}\n"
    )
    found = diagnostics_with_card_file(tmp_path, monkeypatch, "uncharted_passage", cards)
    assert [(d.code, d.span.line) for d in found] == [("card-data", 4)]
    assert "no logbook line meets the restraint" in found[0].message
    assert said in found[0].message


def test_a_restraint_some_line_meets_or_that_reads_more_is_accepted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A restraint met by some line, or one reading more than the line's three numbers (a
    track), is not refused."""
    cards = (
        '@provisional("probe")\nvoyage first_half "Fine" {\n  resources 9\n'
        "  pirate highest(2d6)\n  restraint sailing_speed >= 3 and not (armament > 4)\n}\n"
        '@provisional("probe")\nvoyage first_half "Unjudged" {\n  resources 9\n'
        "  pirate highest(2d6)\n  restraint marked(durability) > 20\n}\n"
    )
    assert diagnostics_with_card_file(tmp_path, monkeypatch, "uncharted_passage", cards) == []
