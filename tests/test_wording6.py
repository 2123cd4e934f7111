"""The words of printed cards and rules (wording6): the sheets read against the rulebooks, each
odd wording fixed by a rule of compiler/sheets/text.py or by a game's reference.yaml:

- a loop named unlike its kind said the loop's name ("for each Campsite where the site's
  track ...", "for each tile: if the special's City"): the card is "the Campsite", and one
  clause about it follows its noun ("for each Location with at least 2 encounters");
- a loop over a native's list said the list twice ("for each Ley line in the Ley lines this
  placement forms") or named its item by a word of no noun ("for each seen in ... where the
  seen is Fame");
- Land vs Sea's ``score_each`` ("scores 1 at each Waypoint each (City scoring's share apart;
  waypoint)"): reference.yaml's words, naming the parameters in braces, leave out the ones
  no player needs;
- the round compared as arithmetic ("If the round is the number of rounds", "the round is at
  least 3", "the round is a multiple of 2"): "in the last round", "round 3 or later", "an even
  round";
- the flow's designer descriptions ("the acting captain's ship against the Pirate: solo, its
  own roll; ...") said in the rulebook's words from reference.yaml, a tie broken as the
  rulebook breaks it ("ties going first to the player whose Prestige marker is on top");
- "the player" and "the acting player" of a description, on a sheet that says "you";
- "the larger of the result minus 2 and 0": "the amount by which the result exceeds 2".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from compiler.sheets.text import yours

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
GOLDEN = ROOT / "tests" / "golden" / "sheets"

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
    house rule ``variant`` (its YAML ``text``)."""
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
        path.write_text(text, encoding="utf-8")
        result, _ = compile_variant(folder, path, SourceCache())
    assert result.ir is not None, [str(d) for d in result.diagnostics]
    ref = resolve(reference_for(folder, variant), result.ir, {c["id"] for c in result.ir["cards"]})
    return build_model(result.ir, ref, variant=variant, folder=folder), result.ir


def _said(model: Any) -> dict[str, str]:
    """Every card's, rule's and written phase's words (icons and marks left out), by title."""
    from compiler.sheets.text import plain_words

    views = [*model.cards, *model.rules]
    out = {view.title: " ".join(plain_words(p) for p in view.paragraphs) for view in views}
    out.update({title: plain_words(text) for _, title, text in model.written_phases})
    # An icon left out leaves its space: "gain  Coins" is "gain [Coins] Coins"; a provisional
    # card's note is no part of its rule.
    return {
        title: " ".join(said.split()).removesuffix(" this card is provisional")
        for title, said in out.items()
    }


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


def _audit_cards(name: str) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in (DATA / name).glob("*.cards")}


# -- loops


def test_a_loop_named_unlike_its_kind_says_the_kinds_noun(tmp_path: Path) -> None:
    # The brief's "for each tile: if the special's City".
    cards = {
        "w6.cards": 'rule "Lost specials" {\n  on game_end {\n    for each special in tile {\n'
        "      if special.city { score 1 } else { score 2 }\n"
        "      if not special.city and round > 1 { score 3 }\n    }\n  }\n}\n"
    }
    model, ir = _sheet(tmp_path, "land_vs_sea", None, cards=cards)
    said = _said(model)["Lost specials"]
    assert said == (
        "At the end of the game, for each tile: if the tile has a City, score 1 point; "
        "otherwise, score 2 points; then if the tile has no City and it is round 2 or later, "
        "score 3 points."
    ), said
    assert "special" not in said
    assert _lint(model, ir) == ""


def test_a_campsite_loop_says_the_campsite_not_the_site(tmp_path: Path) -> None:
    # audit2's P5: `for each site in campsite where site.track == ocean and treasure_on(site)`.
    model, ir = _sheet(
        tmp_path, "darwins_journey", None, cards=_audit_cards("audit2_darwins_journey")
    )
    said = _said(model)["P5"]
    assert said == (
        "For each Campsite where the Campsite's track is the Ocean track and there is a "
        "Treasure token on the Campsite: gain 1 Coin."
    ), said
    assert _lint(model, ir) == ""


def test_one_clause_about_a_kinds_card_follows_its_noun(tmp_path: Path) -> None:
    # audit2's Lighthouse Point: `for each place in location where place.encounters >= 2`.
    cards = _audit_cards("audit2_incredible_expeditions")
    model, ir = _sheet(tmp_path, "incredible_expeditions", None, cards=cards)
    assert _said(model)["Lighthouse Point"] == (
        "When entering...: for each Location with at least 2 encounters: gain 1 Heroism."
    )
    assert _lint(model, ir) == ""


def test_a_loop_over_a_natives_list_names_its_item_once(tmp_path: Path) -> None:
    # Menhir scoring (the shipped card): "for each Ley line in the Ley lines this placement
    # forms" said the list twice.
    golden = (GOLDEN / "land_vs_sea.txt").read_text(encoding="utf-8")
    assert (
        "When you place a tile, for each Ley line this placement forms: score the bonus points "
        "on the tiles in-between." in golden
    )
    assert "in the Ley lines" not in golden
    # audit3's Lookout: a loop named "seen" over the top of a deck is "each of" them, "it".
    cards = _audit_cards("audit3_incredible_expeditions")
    model, ir = _sheet(tmp_path, "incredible_expeditions", None, cards=cards)
    said = _said(model)["Lookout"]
    assert said == (
        "Upon Facing...: for each of the top 2 of your Resource deck where it is Fame: gain 1 "
        "Temporary Heroism."
    ), said
    assert _lint(model, ir) == ""


# -- Land vs Sea's scoring verbs


def test_score_each_is_said_as_a_player_scores(tmp_path: Path) -> None:
    text = _audit("audit4_land_vs_sea", "conquest")
    model, ir = _sheet(tmp_path, "land_vs_sea", "conquest", text)
    (said,) = [s for t, s in _said(model).items() if t.startswith("An area completed")]
    assert (
        "score points equal to the number of tiles in the area; score points equal to the "
        "bonus points printed in the sections of the area; for each Waypoint on the open edges "
        "of the area: return the Waypoint to its owner's supply and score 1 point." in said
    ), said
    # A verb described as a thing done is its event: "Whenever an area is completed" (it read
    # "Whenever the rules call for an area completed").
    assert said.startswith(
        'Whenever an area is completed, resolve every "When an area is completed" effect'
    ), said
    for odd in ("at each Waypoint each", "share apart", "acting player", "waypoint)"):
        assert odd not in said, odd
    assert _lint(model, ir) == ""


def test_a_reference_word_names_the_parameters_it_says_in_braces() -> None:
    from compiler.sheets.reference import Reference
    from compiler.sheets.text import CardWriter, plain_words

    ir = {
        "vocabulary": {
            "triggers": {},
            "natives": {},
            "verbs": {
                "score_each": {
                    "doc": "the acting player scores amount at value each",
                    "params": [{"name": "amount"}, {"name": "value"}, {"name": "why"}],
                }
            },
        },
        "cards": [],
    }
    writer = CardWriter(ir, Reference(words={"score_each": "score {amount} point"}), {})
    one = {"kind": "num", "value": 1}
    three = {"kind": "num", "value": 3}
    label = {"kind": "text", "value": "waypoint"}
    assert plain_words(writer.described("score_each", [one, three, label])) == "score 1 point"
    assert plain_words(writer.described("score_each", [three, one, label])) == "score 3 points"


# -- the round


@pytest.mark.parametrize(
    ("audit", "variant", "title", "said"),
    [
        # "If the round is the number of rounds, ...".
        (
            "audit5_darwins_journey",
            "double_raid",
            "The last round's second raid",
            'If it is the last round, resolve every "After each Reward Phase" effect in force.',
        ),
        # "If the round is at least 3, ...".
        (
            "audit3_darwins_journey",
            "calm_first_rounds",
            "After the Reward Phase: the Pirate Raid",
            'If it is round 3 or later, resolve every "After each Reward Phase" effect in force.',
        ),
    ],
)
def test_the_round_is_said_as_a_player_counts_it(
    tmp_path: Path, audit: str, variant: str, title: str, said: str
) -> None:
    model, ir = _sheet(tmp_path, "darwins_journey", variant, _audit(audit, variant))
    assert _said(model)[title] == said
    assert _lint(model, ir) == ""


def test_an_even_round_and_a_later_round(tmp_path: Path) -> None:
    cards = {
        "w6.cards": 'port_card "Tide Table" {\n  copies 2\n  on sailing {\n'
        "    if round % 2 == 0 { may { add reach 1; discard self } }\n  }\n}\n"
        'port_card "Late Wind" {\n  copies 1\n  on sailing {\n'
        "    if round > 1 { add reach 1 }\n  }\n}\n"
    }
    model, ir = _sheet(tmp_path, "uncharted_passage", None, cards=cards)
    said = _said(model)
    assert said["Tide Table"].startswith("In the Sailing phase, if it is an even round, "), said
    assert said["Late Wind"].startswith("In the Sailing phase, if it is round 2 or later, "), said
    assert _lint(model, ir) == ""


# -- the flow's verbs in the rulebook's words, to "you"


def test_a_house_rules_pirate_phase_reads_as_the_rulebook(tmp_path: Path) -> None:
    text = _audit("audit5_uncharted_passage", "pirate_season")
    model, ir = _sheet(tmp_path, "uncharted_passage", "pirate_season", text)
    said = _said(model)["Pirate"]
    assert said.startswith(
        "Roll the dice and apply the formula indicated on the voyage card; every player, in "
        "order of prestige (lowest first), ties going first to the player whose Prestige marker "
        "is on top: unless a ship has sunk, if your Armament is lower than the Pirate's Combat "
        "Power, your ship takes damage equal to the difference; then if it is round 7 or later, "
    ), said
    for odd in ("acting captain", "Figurehead: its owner's copy", "2-player, one roll"):
        assert odd not in said, odd
    assert _lint(model, ir) == ""


def test_a_player_loop_says_who_by_what_they_do(tmp_path: Path) -> None:
    text = _audit("audit3_land_vs_sea", "sea_head_start")
    model, ir = _sheet(tmp_path, "land_vs_sea", "sea_head_start", text)
    (said,) = [s for t, s in _said(model).items() if t.startswith("The Sea side")]
    assert said == (
        "Once, at the setup: every player who keeps their side's points and does not play the "
        "Land side: score 3 points."
    ), said
    assert _lint(model, ir) == ""


@pytest.mark.parametrize(
    ("doc", "said"),
    [
        ("the acting player scores amount at value each", "you score amount at value each"),
        (
            "play Resources against the Encounter, as the player chooses",
            "play Resources against the Encounter, as you choose",
        ),
        ("the acting captain's ship sank", "your ship sank"),
        ("the player secretly bets Money tokens", "you secretly bet Money tokens"),
        ("The player may move the Pirate Ship", "You may move the Pirate Ship"),
        ("the player is the winner", "you are the winner"),
        # No player acting: the player count, the players' hands.
        ("the aids turned to the player count", "the aids turned to the player count"),
        ("tiles in the players' hands", "tiles in the players' hands"),
    ],
)
def test_a_description_of_the_player_is_said_to_you(doc: str, said: str) -> None:
    assert yours(doc) == said


def test_a_shortfall_is_the_amount_by_which_one_exceeds_the_other(tmp_path: Path) -> None:
    # Discover Galapagos Islands read "You may use Lime Juice to reduce the amount of Scurvy
    # damage" as max(result - 2, 0) (it now opens the scurvy window, audit6-up): the same
    # clamp on a card of one's own.
    cards = {
        "w6.cards": 'port_card "Bandage" {\n  copies 1\n  on dock {\n    let result 1d6\n'
        "    mark health max(result - 2, 0)\n  }\n}\n"
    }
    model, ir = _sheet(tmp_path, "uncharted_passage", None, cards=cards)
    said = _said(model)["Bandage"]
    assert "equal to the amount by which the result exceeds 2" in said, said
    assert "the larger of" not in said, said


def test_a_description_ending_in_its_own_bracket_takes_the_values_inside_it() -> None:
    # test_wording5 pinned this on set_difficulty's description, which now has reference.yaml's
    # words: the rule itself, for any description that ends in a bracket.
    from compiler.sheets.text import _bracketed, plain_words

    said = _bracketed(["the difficulty (its Upon Facing text said so)"], [["3"], ["the rest"]])
    assert plain_words(said) == "the difficulty (its Upon Facing text said so; 3, the rest)"
    assert plain_words(_bracketed(["the difficulty"], [["3"]])) == "the difficulty (3)"


def test_a_window_is_opened_by_the_words_its_cards_print_under(tmp_path: Path) -> None:
    # audit2's Privateers: `fire pirate_raid with damage 2 { ... }` read "the Pirate's Raid
    # event, before damage (Ship Damage 2, ...)", the trigger's description for the designer.
    cards = _audit_cards("audit2_uncharted_passage")
    model, ir = _sheet(tmp_path, "uncharted_passage", None, cards=cards)
    assert _said(model)["Privateers"] == (
        'Immediately, unless you are in a Pirate Infested Area, resolve every "Against the '
        "Pirate's Raid\" effect in force (Ship Damage 2, which cards may change), then mark Xs "
        "on the Ship Durability track equal to Ship Damage."
    )
    assert _lint(model, ir) == ""


def test_a_plural_natives_words_agree_with_their_verb(tmp_path: Path) -> None:
    # audit2's Grog: "If the Encounters still to defeat here is at least 2".
    cards = _audit_cards("audit2_incredible_expeditions")
    model, ir = _sheet(tmp_path, "incredible_expeditions", None, cards=cards)
    assert "If the Encounters still to defeat here are at least 2, " in _said(model)["Grog"]
    assert _lint(model, ir) == ""


def test_a_roll_is_said_as_a_player_rolls_and_a_title_to_you(tmp_path: Path) -> None:
    # audit5's storm_tiles: phase storm "a storm: on a 6 the player scores 2" { if roll(1d6)
    # == 6 { score 2 } } read "A storm: on a 6 the player scores 2: If a roll of a die is 6".
    text = _audit("audit5_land_vs_sea", "storm_tiles")
    model, ir = _sheet(tmp_path, "land_vs_sea", "storm_tiles", text)
    assert _said(model)["A storm: on a 6 you score 2"] == "If you roll a 6, score 2 points."
    assert _lint(model, ir) == ""
    # audit5's stormy_seas: "If a roll of a die is at least 3".
    text = _audit("audit5_darwins_journey", "stormy_seas")
    model, ir = _sheet(tmp_path / "dj", "darwins_journey", "stormy_seas", text)
    (said,) = [s for t, s in _said(model).items() if "weather permitting" in t]
    assert said.startswith("If you roll 3 or higher, resolve every"), said


def test_a_moves_count_is_said_with_its_noun() -> None:
    # Darwin's Journey's navigate and explore (reference.yaml's phrases): "move your Ship along
    # the Ocean track (spaces: up to 1)" read as a designer's note.
    golden = (GOLDEN / "darwins_journey.txt").read_text(encoding="utf-8")
    assert "When activated, navigate: move your Ship up to 1 space along the Ocean track." in golden
    assert (
        "Action: explore: move your Explorer up to as many spaces as the Navigate or Explore "
        "distance along the Island track." in golden
    )
    assert "(spaces: up to" not in golden
    # "the number of your Ship's map section is at least 4" said the section as a count.
    assert "if your Ship's map section is at least 4, gain 4 victory points." in golden


def test_a_roll_a_phase_names_is_the_result() -> None:
    # storm_season's `let storm 1d6` read "if the storm is higher than 3 ... the storm minus 3".
    golden = (GOLDEN / "uncharted_passage.txt").read_text(encoding="utf-8")
    assert (
        "roll a die; if the result is higher than 3, mark Xs on [durability] the Ship Durability "
        "track equal to the result minus 3." in golden
    )
    assert "the storm minus 3" not in golden


def test_two_amounts_the_same_equal_and_a_count_of_times_is_for_each(tmp_path: Path) -> None:
    # audit2's Sextant: "if your Armament is the Pirate's Combat Power" named it rather than
    # compared the two.
    cards = _audit_cards("audit2_uncharted_passage")
    model, ir = _sheet(tmp_path, "uncharted_passage", None, cards=cards)
    assert _said(model)["Sextant"] == (
        "In the Pirate phase, if your Armament equals the Pirate's Combat Power, you may gain 1 "
        "prestige and discard this card."
    )
    assert _lint(model, ir) == ""
    # audit2's Hydra: "lose 1 Money as many times as the number of your defeated Encounters".
    cards = _audit_cards("audit2_incredible_expeditions")
    model, ir = _sheet(tmp_path / "ie", "incredible_expeditions", None, cards=cards)
    said = _said(model)["Hydra"]
    assert said.startswith("Upon Facing...: lose 1 Money for each of your defeated Encounters."), (
        said
    )
    assert _lint(model, ir) == ""


def test_no_one_did_it_and_an_appositive_left_out_of_a_clause(tmp_path: Path) -> None:
    # audit3's landfall: "If your ship is at the last Location, the Drowned City of Atlantis and
    # a player has not defeated both Encounters at the Drowned City of Atlantis" read as a list
    # and as of one player.
    text = _audit("audit3_incredible_expeditions", "landfall")
    model, ir = _sheet(tmp_path, "incredible_expeditions", "landfall", text)
    assert _said(model)["Landfall"].startswith(
        "If your ship is at the Drowned City of Atlantis and no player has defeated both "
        "Encounters at the Drowned City of Atlantis, "
    ), _said(model)["Landfall"]
    assert _lint(model, ir) == ""
