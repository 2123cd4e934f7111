"""The words of printed references and rules (wording5): what testers found reading the rules
reference of the house rules of tests/data/audit*/ as a game designer would, each fixed at its
rule in compiler/sheets/ (text.py, model.py, reference.py, lint.py):

- a window's quantity said twice ("the Heroism difficulty the Heroism difficulty printed on the
  Encounter being Faced plus 1": perilous_waters);
- a verb described as a heading ("Rest Turn: Refresh the Crew, ...") or a thing done ("the
  Reward Phase: ...", "every ... is unlocked") after "Whenever the rules say to";
- ``fire TRIGGER`` said by the trigger's name ("resolve every reward phase end effect") where
  reference.yaml has the rulebook's words for it ("After each Reward Phase");
- a tag said by its id ("the place is a discovery space"): reference.yaml's ``tags``;
- a parameter without words said by its name ("Acquire up to cards equal to acquisitions per
  turn", "lower than capable crew") where the sheet knows its value;
- a track's special box answered by a rule ("When declining_health,"), which failed the lint;
- a verb's description naming its parameters ("scores amount at value each"), a native's
  value in brackets after its own bracket or beside "that hole";
- "1 cards" in reference text given a parameter of 1, a plural native's words with "is" ("the
  tiles left ... is 0"), a zone named as its cards counted as "cards in" it, a bool function
  that "now reads "no"", a variant's sheet titled by its file name ("(no_mid_event)");
- the phases written from a house rule's flow, which the text lint did not read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from compiler.sheets.text import _plural_head

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


def _sheet(
    tmp_path: Path,
    game: str,
    variant: str | None,
    text: str = "",
    cards: dict[str, str] | None = None,
) -> Any:
    """The sheet model of a copy of ``game`` with ``cards`` (file name -> DSL) added and the
    house rule ``variant`` (its YAML ``text``; a shipped one when ``text`` is empty)."""
    from probing import copy_game

    from compiler.pipeline import compile_game
    from compiler.sheets.model import build_model
    from compiler.sheets.reference import reference_for, resolve
    from compiler.variants import compile_variant
    from dsl.diagnostics import SourceCache

    folder = copy_game(tmp_path, game)
    for name, source in (cards or {}).items():
        (folder / name).write_text(source, encoding="utf-8")
    if variant is None:
        result = compile_game(folder, SourceCache())
    else:
        path = folder / "variants" / f"{variant}.yaml"
        if text:
            path.write_text(text, encoding="utf-8")
        result, _ = compile_variant(folder, path, SourceCache())
    assert result.ir is not None, [str(d) for d in result.diagnostics]
    ref = resolve(reference_for(folder, variant), result.ir, {c["id"] for c in result.ir["cards"]})
    return build_model(result.ir, ref, variant=variant, folder=folder), result.ir


def _said(model: Any) -> dict[str, str]:
    """Every rule's and written phase's words (icons and marks left out), by title."""
    from compiler.sheets.text import plain_words

    out = {rule.title: " ".join(plain_words(p) for p in rule.paragraphs) for rule in model.rules}
    out.update({title: plain_words(text) for _, title, text in model.written_phases})
    # An icon left out leaves its space: "gain  Coins" is "gain [Coins] Coins".
    return {title: " ".join(said.split()) for title, said in out.items()}


def _lint(model: Any, ir: dict[str, Any]) -> str:
    """The text lint's complaint about ``model``, or "" when it reads as a rulebook."""
    from compiler.sheets.lint import LintError, lint_model

    try:
        lint_model(model, ir)
    except LintError as error:
        return str(error)
    return ""


def _audit(name: str, variant: str) -> str:
    return (DATA / name / "variants" / f"{variant}.yaml").read_text(encoding="utf-8")


def test_a_window_quantity_whose_value_names_it_is_said_once(tmp_path: Path) -> None:
    # "Upon Facing an Encounter (the Heroism difficulty the Heroism difficulty printed on the
    # Encounter being Faced plus 1, ...)": the native's words already say the quantity.
    text = _audit("audit5_incredible_expeditions", "perilous_waters")
    model, ir = _sheet(tmp_path, "incredible_expeditions", "perilous_waters", text)
    (said,) = [s for s in _said(model).values() if "Upon Facing" in s]
    assert "difficulty the Heroism difficulty" not in said
    # wording6: the window by its cards' words, as `fire` says them (it read "Upon Facing an
    # Encounter (...)"), and set_difficulty in reference.yaml's words (it read "the Encounter
    # being Faced asks this Heroism and Skullduggery difficulty (its Upon Facing text said so;
    # the Heroism difficulty, the Skullduggery difficulty)").
    assert (
        'resolve every "Upon Facing" effect in force (the Heroism difficulty printed on the '
        "Encounter being Faced plus 1, the Skullduggery difficulty printed on the Encounter "
        "being Faced, which cards may change), then the difficulty to meet is the Heroism "
        "difficulty and the Skullduggery difficulty;" in said
    ), said
    assert _lint(model, ir) == ""


def test_a_quantity_given_a_number_is_still_named() -> None:
    from compiler.sheets.reference import Reference
    from compiler.sheets.text import CardWriter, plain_words

    ir = {"vocabulary": {"triggers": {}, "verbs": {}, "natives": {}}, "cards": []}
    writer = CardWriter(ir, Reference(words={"damage": "Ship Damage"}), {})
    said = writer.quantity_given("damage", {"kind": "num", "value": 2})
    assert plain_words(said) == "Ship Damage 2"


@pytest.mark.parametrize(
    ("audit", "variant", "title", "start"),
    [
        # "Rest Turn: Refresh the Crew, ..." read "Whenever the rules say to Rest Turn: ...".
        (
            "audit2_incredible_expeditions",
            "lean_rest",
            "Rest Turn: Refresh the Crew, Acquire from the Market, take a Money token",
            "Whenever the rules call for a Rest Turn, take a Rest Turn; Refresh your Exhausted",
        ),
        # "Whenever the rules say to the Reward Phase: Coins for each player, ...".
        (
            "audit2_darwins_journey",
            "treasure_dividends",
            "The Reward Phase: Coins for each player, each Tent and each Treasure token",
            "Whenever the rules call for the Reward Phase, every player: gain Coins equal to 1 "
            "plus your Tents",
        ),
        # "Whenever the rules say to every Special Action Diary location is unlocked, ...".
        (
            "audit3_darwins_journey",
            "open_diary",
            "Every Special Action Diary location is unlocked",
            "Whenever the rules say that every Special Action Diary location is unlocked, ",
        ),
        # A verb the reference words is called for in those words, as the sheets print it
        # (leftovers9; a command before its colon staying a command is
        # test_leftovers9.py's test_a_command_before_its_colon_stays_a_command).
        (
            "audit5_uncharted_passage",
            "shore_crews",
            "Take a docked crew's Crew Action: one Port Card from Crew Stamina 2, no trading",
            "Whenever the rules say to take the Crew Action corresponding to the number you "
            "wrote in the Crew Stamina space, if your Crew Stamina",
        ),
    ],
)
def test_a_verb_is_called_for_as_its_description_reads(
    tmp_path: Path, audit: str, variant: str, title: str, start: str
) -> None:
    game = audit.split("_", 1)[1]
    model, ir = _sheet(tmp_path, game, variant, _audit(audit, variant))
    said = _said(model)[title]
    assert said.startswith(start), said
    assert "say to Rest Turn" not in said and "say to the " not in said
    assert _lint(model, ir) == ""


def test_a_heading_verb_reads_its_phrases_and_parameters_in_the_rulebooks_words(
    tmp_path: Path,
) -> None:
    text = _audit("audit2_incredible_expeditions", "lean_rest")
    model, _ = _sheet(tmp_path, "incredible_expeditions", "lean_rest", text)
    said = _said(model)["Rest Turn: Refresh the Crew, Acquire from the Market, take a Money token"]
    # The house rule's market_size 5 and acquisitions_per_turn 2, as the rulebook prints its
    # 6 and 3 ("Go to the Market: draw up to 6 cards of any combination ..."); it read "face up
    # (market size)" after the description's own 6, and "Acquire up to cards equal to
    # acquisitions per turn". The flow's fire rest by its cards' words.
    assert (
        'Refresh your Exhausted Crew; resolve every "On a Rest Turn, after Refreshing" effect '
        "in force; draw up to 5 cards of any combination from the Crew and Resource decks and "
        "lay them face up; Acquire up to 2 cards;" in said
    )
    for raw in ("acquisitions per turn", "market size", "(5)", "say which a Rest Turn"):
        assert raw not in said


@pytest.mark.parametrize(
    ("audit", "variant", "title"),
    [
        ("audit3_darwins_journey", "calm_first_rounds", "After the Reward Phase: the Pirate Raid"),
        ("audit5_darwins_journey", "double_raid", "The last round's second raid"),
    ],
)
def test_a_phase_firing_a_trigger_says_the_rulebooks_words_for_it(
    tmp_path: Path, audit: str, variant: str, title: str
) -> None:
    model, ir = _sheet(tmp_path, "darwins_journey", variant, _audit(audit, variant))
    said = _said(model)[title]
    assert 'resolve every "After each Reward Phase" effect in force' in said
    assert "reward phase end" not in said
    assert _lint(model, ir) == ""


def test_a_trigger_without_rulebook_words_is_fired_by_its_cards_lead() -> None:
    # A trigger reference.yaml gives no words is fired as its cards lead with it: its
    # description, as a sentence starts ("When a storm breaks,").
    from compiler.sheets.reference import Reference
    from compiler.sheets.text import CardWriter, plain_words

    ir = {
        "vocabulary": {
            "triggers": {"storm": {"doc": "a storm breaks"}},
            "verbs": {},
            "natives": {},
        },
        "cards": [],
    }
    fire = {
        "kind": "verb",
        "verb": "fire",
        "origin": "prelude",
        "args": [{"kind": "ref", "to": "trigger", "name": "storm"}],
        "else": None,
    }
    said = CardWriter(ir, Reference(), {}).stmt(fire)
    assert plain_words(said) == 'resolve every "When a storm breaks" effect in force'
    worded = CardWriter(ir, Reference(when={"storm": "In a storm:"}), {}).stmt(fire)
    assert plain_words(worded) == 'resolve every "In a storm" effect in force'


TAGGED = """\
port_card "Surveyor's Chart" {
  copies 1 @provisional("a tester's card")
  on anchor_at_sea {
    if place.discovery { gain prestige 1 }
    if not place.sea { gain prestige 1 }
  }
}
"""


def test_a_spaces_tag_is_said_in_the_words_reference_yaml_gives_it(tmp_path: Path) -> None:
    # "the place is a discovery space": the rulebook's "Discovery Spot", from reference.yaml's
    # tags ("space discovery: a Discovery Spot"), and "at sea" negated as a clause.
    model, ir = _sheet(tmp_path, "uncharted_passage", None, cards={"chart.cards": TAGGED})
    from compiler.sheets.text import plain_words

    (card,) = [c for c in model.cards if c.title == "Surveyor's Chart"]
    said = " ".join(plain_words(p) for p in card.paragraphs)
    assert "if the place is a Discovery Spot, gain 1 prestige" in said
    assert "Gain 1 prestige unless the place is at sea." in said
    assert "discovery space" not in said
    assert _lint(model, ir) == ""


def test_a_tag_without_words_keeps_its_kind_and_article(tmp_path: Path) -> None:
    from compiler.sheets.reference import Reference
    from compiler.sheets.text import CardWriter, plain_words

    ir = {
        "vocabulary": {
            "triggers": {"arrive": {"doc": "a ship arrives", "param_kinds": {"place": "island"}}},
            "verbs": {},
            "natives": {},
        },
        "cards": [],
    }
    tag = {
        "kind": "attr",
        "tag": True,
        "attr": "uncharted",
        "value": {"kind": "event", "name": "place"},
    }
    said = CardWriter(ir, Reference(), {}).expr(tag)
    # "an uncharted island" (engine.words' article; it was a vowel test of its own).
    assert plain_words(said) == "place is an uncharted island"
    worded = CardWriter(ir, Reference(tags={"island uncharted": "off the map"}), {}).expr(tag)
    assert plain_words(worded) == "place is off the map"


def test_a_rule_on_a_tracks_special_box_says_the_box_marked(tmp_path: Path) -> None:
    # audit's mutiny: `on declining_health` printed "When declining_health, ..." and failed the
    # lint, so `cardc build` could not print the house rule's sheet.
    text = _audit("audit_uncharted_passage", "mutiny")
    model, ir = _sheet(tmp_path, "uncharted_passage", "mutiny", text)
    assert _said(model)["Mutiny"] == (
        "When an X is marked in a declining-health space of the Health track, lose 1 prestige."
    )
    assert _lint(model, ir) == ""


def test_a_verb_description_naming_its_parameters_takes_their_values(tmp_path: Path) -> None:
    # audit4's conquest: score_each's "the acting player scores amount at value each" and
    # announce_completion's "fire area_completed ..." failed the lint (raw names); "that hole"
    # and "a hole" are the loop's hole, not "(the hole)" after them.
    text = _audit("audit4_land_vs_sea", "conquest")
    model, ir = _sheet(tmp_path, "land_vs_sea", "conquest", text)
    (said,) = [s for t, s in _said(model).items() if t.startswith("An area completed")]
    # wording6: score_each is said in reference.yaml's words, its parameters in braces ("score
    # {amount} point"): it read "the acting player scores the number of tiles in the area at 1
    # each (City scoring's share apart; area tiles)".
    assert (
        'resolve every "When an area is completed" effect in force for the area; score points '
        "equal to the number of tiles in the area; score points equal to the bonus points "
        "printed in the sections of the area" in said
    )
    assert _lint(model, ir) == ""


def test_a_bool_function_made_true_or_false_always_or_never_holds(tmp_path: Path) -> None:
    text = _audit("audit5_incredible_expeditions", "no_turning_back")
    model, _ = _sheet(tmp_path, "incredible_expeditions", "no_turning_back", text)
    # audit13-ie: the function called as the rules call it, in reference.yaml's words (it
    # quoted the house rule's own description, "a ship never turns back ... now never holds",
    # which said the opposite of the rule).
    assert _said(model)["A ship never turns back"] == (
        'Every "you do not have enough defeated Encounters at your current Location and your '
        'ship is not at Port City" of the rules now never holds.'
    )


def test_reference_text_given_a_parameter_of_one_says_its_noun_once(tmp_path: Path) -> None:
    # small_market's acquisitions_per_turn 1: "You may Acquire up to 1 cards on your turn."
    text = _audit("audit3_incredible_expeditions", "small_market")
    model, _ = _sheet(tmp_path, "incredible_expeditions", "small_market", text)
    (rest,) = [said for title, said in model.phases if title == "Rest Turn"]
    words = "".join(s for s in rest if isinstance(s, str))
    assert "You may Acquire up to 1 card on your turn." in words


@pytest.mark.parametrize(
    ("words", "plural"),
    [
        ("the tiles left in the stacks and in the players' hands", True),
        ("the turns taken so far", True),
        ("the holes the placement made", True),
        ("the bonus points on the tiles in-between", True),
        ("the Crew Stamina the Scurvy Check applies", False),
        ("1 point per caravan icon in the route", False),
        ("the Heroism difficulty printed on the Encounter being Faced", False),
    ],
)
def test_a_natives_words_are_plural_by_their_head_noun(words: str, plural: bool) -> None:
    # "If the tiles left in the stacks and in the players' hands is 0" (audit4's last_tile),
    # "the turns taken so far is at least 10" (audit4's short_expedition).
    assert _plural_head(words) is plural


def test_a_zone_named_as_its_cards_is_counted_as_them(tmp_path: Path) -> None:
    text = _audit("audit4_incredible_expeditions", "seasoned_crews")
    model, _ = _sheet(tmp_path, "incredible_expeditions", "seasoned_crews", text)
    (said,) = [s for s in _said(model).values() if "defeated Encounters" in s]
    assert "the number of your defeated Encounters is higher than" in said
    assert "cards in your defeated Encounters" not in said


def test_a_variant_sheet_is_titled_in_words(tmp_path: Path) -> None:
    model, _ = _sheet(tmp_path, "uncharted_passage", "port_cards_two_at_a_time")
    assert model.title == "Uncharted Passage: Remastered (Port cards two at a time)"
    more, _ = _sheet(tmp_path / "ie", "incredible_expeditions", "more_locations")
    assert more.title == "Incredible Expeditions: Quest for Atlantis (More Locations)"


def test_a_phase_written_from_a_house_rule_is_linted(tmp_path: Path) -> None:
    # The lint read the cards and the rules, not the phases written from a flow's statements.
    text = """\
description: A house rule whose phase reads badly
flow:
  - insert: |
      phase squall "Squall" { end_game "the the storm" }
    after: pirate
"""
    model, ir = _sheet(tmp_path, "uncharted_passage", "squall", text)
    assert "Phase: Squall: the doubled word 'the the'" in _lint(model, ir)
