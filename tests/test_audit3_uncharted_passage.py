"""A third outside audit of Uncharted Passage (audit3): the rulebook read sentence by sentence
against the scenarios (the cases no earlier file held are
``tests/scenarios/uncharted_passage/audit3_rules.yaml``), new cards and house rules written
from the rulebook's words and README.md alone (``tests/data/audit3_uncharted_passage/``), and
the rough edges the earlier audits left.

- ``action: sailing`` (the rulebook's "Sailing phase") was told ``fire: sailing``, which only
  lets the cards answer the trigger and sails nothing: it is told the flow's phase first.
- ``play_round`` under a house rule's ``end_when`` played the whole month and went on to the
  next: it ends where a game ends.
- A card could not tell an optional property left out from one given as 0: ``card.bonus ==
  none`` (``!= none``) says it.
- Card text: the same step twice read "mark an X ... and mark an X ..." (now "twice"); a DSL
  verb written out with fixed values read "if 0 is higher than 0, gain 0 prestige; ... 0
  times; ... once" (now what those values play); Reinforced Rope's bracketed gloss done
  twice read "you may (the extra sailing distance ...) twice" (now the verb's own words).
- ``is none`` (in an ``if`` or a ``where``) is told to write ``== none``; a member of a
  misspelt name is told once, at the name.
- A Port Card taking spaces out of the Scurvy Check without adding reach (``add
  unscurvied_distance 2``) was capped at the spaces beyond the Sailing Speed: only Reinforced
  Rope's extra distance is ("The extra sailing distance from it does not count").
- ``expect: final_score`` of a sunk ship said 0 where a house rule's End of the Game recorded
  its score (the scores said the recorded one): it reads the score the logbook records.
- A house rule's setup phase (a setup bonus) or end phase was printed as one more phase of
  "each round representing a month": it says "Once, at the setup:" / "Once, after the last
  round:".
- A logbook line refused by a voyage card's restraint said "does not meet Dead Calm's
  restraint" without the restraint: it says it as the rulebook writes one ("Sailing speed < 3
  and Armament >= 3").
- A Discovery mission accomplished at its spot by its own ``on anchor_at_sea`` also rolled
  the spot's die ("If you arrive at a Discovery Spot without a mission card, you only gain
  prestige equal to the number of a die").
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import (
    assert_simulates,
    audit_cases,
    copy_game,
    diagnostics_with_card_file,
    printed_texts,
    run_scenarios,
)

from compiler.sheets.model import build_model
from compiler.sheets.reference import reference_for, resolve
from compiler.sheets.text import plain
from compiler.variants import compile_variant
from dsl.diagnostics import SourceCache

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"
AUDIT = ROOT / "tests" / "data" / "audit3_uncharted_passage"


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Five new cards (a Port Card that changes the Scurvy Check, an event past the
    Armament's cap, a mission reading the logbook, two mid-events testing an optional
    property with 'none', a mid-event on the scurvy window, a voyage of two restraints that
    takes a space off the reach) and five house rules (an end condition, a setup bonus, a sunk
    ship scored, the Critical Damage rule replaced, the Pirate phase moved) build, hold their
    18 rule cases, and play whole games in every mode."""
    results, points = audit_cases(built_copy, "uncharted_passage", AUDIT)
    assert [f"{r.name}: {r.message}" for r in results if not r.passed] == []
    assert len(results) == 18
    assert len(points) == 1 + 5
    assert_simulates(points, ("solo", "competitive", "coop"))


@pytest.mark.parametrize(
    ("test", "message", "hint"),
    [
        (
            "port.stars > none",
            "'>' cannot compare with 'none'",
            "test whether the card has it: port.stars != none",
        ),
        (
            "port.port == none",
            "'port' is a tag, true or false, never none",
            "test the tag itself: if port.port { ... }",
        ),
        (
            "port.q == none",
            "every space has 'q' (it is not optional), so it is never none",
            "declare it 'property q number optional' in game.cards for cards to leave it out",
        ),
    ],
)
def test_none_is_told_where_it_cannot_hold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test: str, message: str, hint: str
) -> None:
    """'none' compares only with ==/!= and only with an optional property: anything else is
    an error at the word, with what to write."""
    (error,) = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "uncharted_passage",
        f'mid_event "M" {{\n  on dock {{\n    if {test} {{ gain prestige 1 }}\n  }}\n}}\n',
    )
    assert (error.message, error.hints, error.span.line) == (message, (hint,), 3)
    assert error.span.column == len("    if ") + 1 + test.index("none")


def _texts(tmp_path: Path, cards: str) -> dict[str, str]:
    """Card title -> printed text, for ``cards`` added to a copy of the game."""
    folder = copy_game(tmp_path, "uncharted_passage")
    (folder / "probe.cards").write_text(cards, encoding="utf-8")
    return printed_texts(folder, {"probe.cards"})


def test_card_text_says_a_step_twice_and_fixed_values_as_they_play(tmp_path: Path) -> None:
    """The same step done twice is said once with "twice"; the flow's verb 'reward' written
    out with fixed values says what they play, not "if 0 is higher than 0"; 'none' reads
    "has no"."""
    texts = _texts(
        tmp_path,
        'mid_event "A" { on reveal { mark health 1\n mark health 1 } }\n'
        'mid_event "B" { on reveal { gain_port_card\n gain_port_card\n gain_port_card } }\n'
        'mid_event "C" { on reveal { reward 0, 0, 1 } }\n'
        'mid_event "D" { on anchor_at_sea { if place.region == none { gain prestige 1 } } }\n'
        'port_card "E" { copies 1\n on sailing { may { add unscurvied_distance 2\n'
        " discard self } } }\n",
    )
    # Reinforced Rope's bracketed gloss, done twice, read "you may (the extra sailing distance
    # ...) twice": the step is said in its own words.
    assert texts["E"] == (
        "In the Sailing phase, you may add 2 to the spaces sailed that do not count toward "
        "the Scurvy Check and discard this card."
    ), texts["E"]
    assert texts["A"] == ("Immediately mark an X on [health] the Health track twice."), texts["A"]
    assert texts["B"] == "Immediately gain one Port Card 3 times.", texts["B"]
    assert texts["C"] == "Immediately gain one Port Card.", texts["C"]
    assert texts["D"] == (
        "When you anchor outside a port, if the place has no region, gain 1 prestige."
    ), texts["D"]


def test_a_step_named_after_a_rulebook_phase_is_told_the_flows_phase_first(
    tmp_path: Path,
) -> None:
    """'action: sailing' and 'action: anchoring' (the rulebook's "Sailing phase", "Anchoring
    phase") are told the phase 'sailing_and_anchoring' that plays them, before the trigger
    'sailing' (a window the cards answer) and the step of a like name."""
    (result,) = run_scenarios(
        GENERATED,
        "scenario: phases\ngame: uncharted_passage\ndo:\n  - action: sailing\n"
        "  - action: anchoring\nexpect:\n  round: 1\n",
        tmp_path / "s.yaml",
    )
    assert not result.passed
    assert (
        ":4:13: 'sailing' is not an action of uncharted_passage; to run it, write action: "
        "phase with args: {name: sailing_and_anchoring} (the flow's phase 'Sailing & "
        "Anchoring'), or fire: sailing (every card in force answers), or action: sail (Sail "
        "a distance without the map)" in result.message
    ), result.message
    assert (
        ":5:13: 'anchoring' is not an action of uncharted_passage; to run it, write action: "
        "phase with args: {name: sailing_and_anchoring} (the flow's phase 'Sailing & "
        "Anchoring'), or action: anchor (Anchor where the ship is)" in result.message
    ), result.message


@pytest.mark.parametrize(
    ("test", "hint"),
    [
        ("place.region is none", "compare with == or !=: place.region == none"),
        ("place.region is not none", "compare with == or !=: place.region != none"),
    ],
)
def test_is_none_is_told_the_comparison_to_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, test: str, hint: str
) -> None:
    """'if place.region is none' (a designer's first guess) was told to "join tests with
    'and' / 'or'": it is told '== none'."""
    (error,) = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "uncharted_passage",
        f'mid_event "M" {{\n  on anchor_at_sea {{\n    if {test} {{ gain prestige 1 }}\n  }}\n}}\n',
    )
    assert (error.code, error.hints, error.span.line, error.span.column) == (
        "bad-condition",
        (hint,),
        3,
        len("    if place.region ") + 1,
    )


def test_a_house_rules_setup_and_end_phases_say_when_they_are_played(tmp_path: Path) -> None:
    """Head start's setup phase and Salvage's End of the Game are printed among the month's
    phases, saying that they are played once, at the setup and after the last round."""
    folder = copy_game(tmp_path, "uncharted_passage")
    texts = {}
    for name in ("head_start", "salvage"):
        result, _overlay = compile_variant(
            folder, AUDIT / "variants" / f"{name}.yaml", SourceCache()
        )
        assert result.ir is not None, [d.message for d in result.diagnostics]
        ref = resolve(reference_for(folder, name), result.ir, {c["id"] for c in result.ir["cards"]})
        model = build_model(result.ir, ref, variant=name, folder=folder)
        texts.update({title: plain(text) for title, text in model.phases})
    assert texts["Head start"].startswith("Once, at the setup: every player: gain one Port Card")
    # wording6: write_logbook in reference.yaml's words (it read "write the month's line of
    # each logbook, once").
    assert texts["End of the Game"].startswith(
        "Once, after the last round: write this month's line in the logbook"
    )
    assert texts["Planning phase"].startswith("Reveal one card")


def test_a_where_with_is_none_and_a_misspelt_cards_member_are_told_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """'where m.spot is none' was told to write 'by' ("for each captain in players by
    prestige ..."): it is told '== none'. 'plce.region' was told twice: the name, then "'0'
    has no members the checker knows"."""
    found = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        "uncharted_passage",
        'mid_event "Chart Room" {\n  on anchor_at_sea {\n'
        "    for each job in mission where job.spot is none { gain prestige 1 }\n"
        "    if plce.region == none { gain prestige 1 }\n  }\n}\n",
    )
    got = [(d.span.line, d.code, d.hints[0] if d.hints else "") for d in found]
    assert got[0] == (3, "for-each", "compare with == or !=: where ... == none"), got
    assert [code for line, code, _ in got if line == 4] == ["name-undefined"], got
