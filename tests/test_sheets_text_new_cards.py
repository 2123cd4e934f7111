"""Card text for cards the sheets have never seen: new cards written over each game's own
vocabulary (its verbs, triggers, counters and the reference's words), each with the sentence a
rulebook would print. Each pins a fix of the text generator (compiler/sheets/text.py); every
expected sentence also passes the text lint.

The cards are compiled beside a copy of the game's own cards (once per game), so they read
with the game's real reference.yaml, as a designer's new card would.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from compiler.pipeline import compile_game
from compiler.project import Project
from compiler.sheets import SheetError, render_sheet_files
from compiler.sheets.lint import _problems
from compiler.sheets.model import build_model
from compiler.sheets.reference import reference_for, resolve
from compiler.sheets.text import _when, plain
from dsl.diagnostics import SourceCache

ROOT = Path(__file__).resolve().parent.parent

# -- Uncharted Passage ------------------------------------------------------------------------

UP_CARDS = """
mid_event "Storm Front" {
  on sailing {
    reduce reach up_to 1
    mark durability 1
  }
}
mid_event "Doldrums" {
  on sailing {
    if round % 2 == 0 {
      reduce reach up_to 2
    } else {
      add reach 2
    }
  }
}
mid_event "Gentle Gusts" {
  on sailing { add reach sailing_speed - 1 }
}
mid_event "Fever" {
  on reveal {
    let sick 1d6
    if sick >= 4 { mark health 2 }
  }
}
mid_event "Mutiny" {
  on reveal {
    if crew_stamina < 3 {
      lose prestige 2
      mark health 1
    }
  }
}
mid_event "Golden Age" {
  on dock {
    gain prestige 1
    gain specialties 2
    gain armament 1
  }
}
mid_event "Patrol" {
  on pirate_combat { reduce pirate_power up_to armament / 2 }
}
mid_event "Kraken Sighting" {
  on anchor_at_sea {
    if region_of(place) == oceania or region_of(place) == south_america {
      mark durability 2
    }
  }
}
mid_event "Harbor Fees" {
  on dock { pay prestige 2 else mark health missing }
}
mid_event "Goods" {
  on dock {
    choose one of {
      { gain prestige 2 } @label("fame")
      { gain specialties 1; gain armament 1 } @label("goods")
    }
  }
}
mid_event "Endless Leagues" {
  on reveal {
    repeat 3 { mark durability 1 }
  }
}
mid_event "Hard Months" {
  on reveal {
    repeat 2 {
      mark health 1
      gain prestige 1
    }
  }
}
mid_event "Lime Rations" {
  on reveal {
    unless play lime_juice {
      mark health 2
      lose prestige 1
    }
  }
}
mid_event "Nested" {
  on dock {
    if crew_stamina > 2 {
      if armament < 2 { gain armament 1 }
    }
  }
}
mid_event "Tally" {
  on dock {
    let total crew_stamina + armament
    if total > 6 { gain prestige total - 6 }
  }
}
mid_event "Lime Or Scurvy" {
  on scurvy { play lime_juice else mark health 1 }
}
mid_event "Careful Repairs" {
  on dock {
    may {
      if armament > 1 {
        lose armament 1
        gain prestige 2
      }
    }
  }
}
mid_event "Sunk" {
  on reveal {
    if ship_sunk() { end_game "the ship sank" }
  }
}
mid_event "Not Docked" {
  on pirate_resolved {
    if armament >= pirate_power and not docked() { gain prestige 2 }
  }
}
mid_event "Early" {
  on dock {
    if round < 4 { gain prestige 2 }
  }
}
mid_event "Armed" {
  on dock { gain prestige armament * 2 }
}
mid_event "In Turn" {
  on dock {
    for each captain in players by prestige descending { gain prestige 1 }
  }
}
mid_event "Cooperative Bonus" {
  on dock {
    if cooperative() == true { gain prestige 1 }
  }
}
mid_event "Drawn" {
  on dock {
    draw port_cards
    draw port_cards 2
  }
}
mid_event "Broadside" {
  on reveal {
    fire pirate_raid with damage 2 { mark durability damage }
  }
}
mid_event "Explorers' Society" {
  on anchor_at_sea {
    if place.discovery { gain prestige 1 }
  }
}
mid_event "The Kraken's Lair" {
  on anchor_at_sea {
    repeat 2 { gain prestige 1d6 }
  }
}
mid_event "Lucky Sevens" {
  on reveal {
    if 2d6 > 7 { gain prestige 1 }
  }
}
mid_event "Coral Reef" {
  on anchor_at_sea {
    if at_discovery_spot() { ship_damage 2 }
  }
}
"""

UP_EXPECTED = {
    # The rulebook's "Ship Damage" (a DSL verb) and "Discovery Spots" (a native), as it words
    # them.
    "Coral Reef": "When you anchor outside a port, if the ship is on a Discovery Spot, mark 2 "
    "Xs on [durability] the Ship Durability track.",
    # A tag of a trigger's card, in reference.yaml's tags: "the place's discovery", then "a
    # discovery space" before.
    "Explorers' Society": "When you anchor outside a port, if the place is a Discovery Spot, "
    "gain 1 prestige.",
    # A roll inside a sentence is a noun: "equal to roll a die" before.
    "The Kraken's Lair": "When you anchor outside a port, gain prestige equal to a die roll twice.",
    # A roll as a player says it (wording6; it read "if a roll of two dice is higher than 7").
    "Lucky Sevens": "Immediately, if you roll higher than 7 on two dice, gain 1 prestige.",
    # A window by the words its cards print under, as `fire` says them (wording6; it read
    # "the Pirate's Raid event, before damage (Ship Damage 2, ...)").
    "Broadside": 'Immediately resolve every "Against the Pirate\'s Raid" effect in force (Ship '
    "Damage 2, which cards may change), then mark Xs on [durability] the Ship Durability track "
    "equal to Ship Damage.",
    "Storm Front": "In the Sailing phase, reduce [reach] reach by up to 1 and mark an X on "
    "[durability] the Ship Durability track.",
    # An even round as a player says it (it read "if the round is a multiple of 2").
    "Doldrums": "In the Sailing phase, if it is an even round, reduce [reach] reach by "
    "up to 2; otherwise, [reach] sail 2 additional spaces.",
    # "add reach" by its phrase, led by the reach icon as "reduce [reach] reach" is (leftovers9:
    # the verb's icon, add's, was looked for, and it has none).
    "Gentle Gusts": "In the Sailing phase, [reach] sail additional spaces equal to your Sailing "
    "Speed minus 1.",
    "Fever": "Immediately roll a die. If the result is at least 4, mark 2 Xs on [health] the "
    "Health track.",
    "Mutiny": "Immediately, if your Crew Stamina is lower than 3, lose 2 prestige and mark an X "
    "on [health] the Health track.",
    "Golden Age": "When docked in a port, gain 1 prestige, 2 specialties and 1 Armament.",
    "Patrol": "In the Pirate phase, reduce [pirate_power] the Pirate's Combat Power by up to "
    "your Armament divided by 2 (rounded down).",
    "Kraken Sighting": "When you anchor outside a port, if the region of the place is Oceania or "
    "South America, mark 2 Xs on [durability] the Ship Durability track.",
    "Harbor Fees": "When docked in a port, pay 2 prestige; for each prestige you cannot pay, "
    "mark an X on [health] the Health track.",
    "Goods": "When docked in a port, choose one: gain 2 prestige; or gain 1 specialty and "
    "1 Armament.",
    "Endless Leagues": "Immediately mark an X on [durability] the Ship Durability track 3 times.",
    "Hard Months": "Immediately, repeat twice: mark an X on [health] the Health track and gain "
    "1 prestige.",
    "Lime Rations": "Immediately, unless you play Lime Juice, mark 2 Xs on [health] the Health "
    "track and lose 1 prestige.",
    "Nested": "When docked in a port, if your Crew Stamina is higher than 2 and your Armament is "
    "lower than 2, gain 1 Armament.",
    "Tally": "When docked in a port, the total is your Crew Stamina plus your Armament. If the "
    "total is higher than 6, gain prestige equal to the total minus 6.",
    "Lime Or Scurvy": "When Scurvy occurs, play Lime Juice; if you cannot, mark an X on [health] "
    "the Health track.",
    "Careful Repairs": "When docked in a port, if your Armament is higher than 1, you may lose 1 "
    "Armament and gain 2 prestige.",
    "Not Docked": "In the Pirate phase, if your Armament is at least the Pirate's "
    "Combat Power and you have not docked at a port this month, gain 2 prestige.",
    "Early": "When docked in a port, if it is before round 4, gain 2 prestige.",
    "Armed": "When docked in a port, gain 2 prestige for each Armament.",
    # The order a loop goes round in is part of the rule.
    "In Turn": "When docked in a port, every player, in order of prestige (highest first): gain "
    "1 prestige.",
    "Cooperative Bonus": "When docked in a port, if you are playing the cooperative mode, gain 1 "
    "prestige.",
    # (Was 'draw missions': a zone no deck is built for is an error now, deck-undefined.)
    "Drawn": "When docked in a port, draw 1 [port_cards] Port Card and 2 [port_cards] Port Cards.",
}

# -- Incredible Expeditions -------------------------------------------------------------------

IE_CARDS = """
encounter "Abyssal Kraken" {
  type creature
  difficulty heroism 4
  on undefeated { lose_crew 2 }
}
encounter "Siren" {
  type supernatural
  difficulty skullduggery 2
  on undefeated { curse_crew 3 }
}
encounter "Golem" {
  type mechanical
  difficulty heroism 2
  on defeated {
    gain money 2
    gain heroism 1
  }
}
crew "Galley Cook" {
  copies 1
  bubbles money 1, heroism 0, skullduggery 0
  to_acquire money 2
  on rest {
    repeat 2 { refresh_one }
  }
}
crew "Doctor" {
  copies 1
  bubbles money 0, heroism 1, skullduggery 0
  to_acquire money 3
  on undefeated { may lift_curse }
}
crew "Purser" {
  copies 1
  bubbles money 1, heroism 0, skullduggery 0
  to_acquire money 3
  on rest {
    if money < 3 and not at_port_city() { gain money 2 }
  }
}
resource "Ledger" {
  copies 1
  values money 1
  to_acquire money 2
  on play {
    gain money count(hand)
  }
}
resource "Checklist" {
  copies 1
  values money 1
  to_acquire money 2
  on play {
    if capable_crew_count() >= 3 and not marooned() { gain temporary_heroism 1 }
    if resting() { gain money 1 }
  }
}
resource "Whistle" {
  copies 1
  values money 1
  to_acquire money 2
  on play {
    acquire_cards 1
    refresh_crew
  }
}
resource "Favourable Current" {
  copies 1
  values money 1
  to_acquire money 2
  on play { move_ship closer }
}
location "Whirlpool" {
  encounters 2
  on when_entering {
    if money >= 2 {
      pay money 2 else lose_crew 1
    }
  }
}
"""

IE_EXPECTED = {
    # The second lost Crew is on the card (a phrase for one, done twice).
    "Abyssal Kraken": "If Undefeated: roll a die: the Crew in the number cabin you rolled is "
    "Lost (twice).",
    "Siren": "If Undefeated: roll a die: the Crew in the number cabin you rolled is Cursed "
    "(3 times).",
    "Golem": "If defeated: gain 2 [money] Money and 1 [heroism] Heroism.",
    "Galley Cook": "On a Rest Turn, after Refreshing: Refresh one of your Exhausted Crew twice.",
    "Doctor": "If Undefeated: you may lift the Curse from one of your Cursed Crew.",
    "Purser": "On a Rest Turn, after Refreshing: if you have less than 3 Money "
    "and your ship is not at Port City, gain 2 [money] Money.",
    # A zone named as a place: its count is "the number of cards in". (It also drew 1 card
    # into the hand: no deck of hand is built in this game, deck-undefined; the wording "draw
    # 3 cards into your hand" is pinned by a new game's flow, below.)
    "Ledger": "Ability: gain [money] Money equal to the number of cards in your hand.",
    # "not" after the clause's own verb; each condition its own sentence.
    "Checklist": "Ability: if the number of your Capable Crew is at least 3 and you are not "
    "Marooned (less than 3 Capable Crew at a Location beyond Port City), gain 1 Temporary "
    "Heroism. If you are taking a Rest Turn, gain 1 [money] Money.",
    # Every symbol a new card may name has the rulebook's words (an unworded one fails the lint).
    "Favourable Current": "Ability: move your ship to the adjacent Location closer to Atlantis.",
    "Whistle": "Ability: Acquire up to 1 card and Refresh your Exhausted Crew.",
    # 'else lose_crew 1' loses one Crew, however much Money is short.
    "Whirlpool": "When entering...: if you have at least 2 Money, pay 2 [money] Money; "
    "if you cannot pay it all, roll a die: the Crew in the number cabin you rolled is Lost.",
}

# -- Darwin's Journey -------------------------------------------------------------------------

DJ_CARDS = """
rule "Small Camp" {
  on campsite_reached {
    if campsite.tent_sites == 1 { gain coins 1 }
  }
}
rule "Empty Camp" {
  on campsite_reached {
    if campsite.tent_sites >= 2 { gain coins 1 }
  }
}
crew pirates "T1" { code "T1"
  on use {
    gain coins 1
    gain victory_points 2
    gain treasure 1
  } }
crew pirates "T2" { code "T2"
  on use {
    if treasure > 0 { gain victory_points treasure * 2 }
  } }
crew pirates "T3" { code "T3"
  on use { pay coins 3 else lose victory_points missing } }
crew pirates "T4" { code "T4"
  on use { take_objectives up_to 1 } }
crew pirates "T5" { code "T5"
  on use {
    if coins >= 5 or tents == 0 { gain tents 1 }
  } }
crew pirates "T6" { code "T6"
  on use {
    may {
      pay coins 2 else lose victory_points missing
      gain treasure 1
    }
  } }
crew pirates "T7" { code "T7"
  on use {
    for each rival in players where seat(rival) > 1 { lose coins 1 }
  } }
crew pirates "T10" { code "T10"
  on use {
    for each honest in players where treasure == 0 { gain coins 1 }
    for each rich in players where seat(rich) > 1 and coins >= 3 { lose coins 1 }
  } }
crew pirates "T9" { code "T9"
  on use {
    if 3 < coins { gain victory_points 1 }
  } }
crew pirates "T8" { code "T8"
  on use { gain coins max(1, treasure) } }
"""

DJ_EXPECTED = {
    "T1": "Gain 1 [coins] Coin, 2 victory points and 1 [treasure] Treasure token.",
    "T2": "If you have any Treasure tokens, gain 2 victory points for each Treasure token.",
    # The raid's minimum of 0 is said wherever victory points are lost.
    "T3": "Pay 3 [coins] Coins; for each Coin you cannot pay, lose 1 victory point (to a minimum "
    "of 0 victory points on the victory point track).",
    "T4": "Gain up to 1 Objective tile from anywhere in the Objective discard pile.",
    "T5": "If you have at least 5 Coins or you have no Tents, gain 1 Tent.",
    "T6": "You may do the following: pay 2 [coins] Coins; for each Coin you cannot pay, lose 1 "
    "victory point (to a minimum of 0 victory points on the victory point track); then gain 1 "
    "[treasure] Treasure token.",
    "T7": "Every player for whom the seat number of that player is higher than 1: lose 1 "
    "[coins] Coin.",
    # The loop's player is "they" ("for whom ... you have" mixed the two persons).
    "T10": "Every player who has no Treasure tokens: gain 1 [coins] Coin. Every "
    "player for whom the seat number of that player is higher than 1 and they have at least 3 "
    "Coins: lose 1 [coins] Coin.",
    # The thing tested comes first, whichever side the card wrote it on.
    "T9": "If you have more than 3 Coins, gain 1 victory point.",
    "T8": "Gain [coins] Coins equal to the larger of 1 and your Treasure tokens.",
    # A card's number of things: not "if the Campsite's tent sites is 1".
    "Small Camp": "When a Ship or Explorer lands on or passes a Campsite location, if the "
    "Campsite has exactly 1 tent site, gain 1 [coins] Coin.",
    "Empty Camp": "When a Ship or Explorer lands on or passes a Campsite location, if the "
    "Campsite has at least 2 tent sites, gain 1 [coins] Coin.",
}

# -- Land vs Sea ------------------------------------------------------------------------------

LVS_CARDS = """
layer "Lighthouse scoring" { box uncharted
  on tile_placed {
    if has_city(placed) { score 2 }
  } }
layer "Reef scoring" { box uncharted
  on area_completed { score 1 } }
layer "Ley scoring" { box uncharted
  on area_completed {
    for each area in areas_completed() { score 1 }
  } }
layer "Twice scoring" { box uncharted
  on area_completed {
    repeat 2 { score 1 }
  } }
layer "Remainder scoring" { box uncharted
  on game_end { score tiles_left() % 5 } }
layer "Each Area scoring" { box uncharted
  on game_end {
    for each completed in areas_completed() where area_tiles(completed) > 4 { score 2 }
  } }
"""

LVS_EXPECTED = {
    "Lighthouse scoring": "When you place a tile, if [has_city] a City overlaps or is connected "
    "to the placed tile, score 2 points.",
    "Reef scoring": "When an area is completed, score 1 point.",
    # Not "for each the area in ...", nor "for each area in the areas the placement completed".
    "Ley scoring": "When an area is completed, for each area the placement "
    "completed: score 1 point.",
    # A loop name without words of its own: "for each of ...", the item "it".
    "Each Area scoring": "At the end of the game, for each of the areas the placement completed "
    "where the number of tiles in it is higher than 4: score 2 points.",
    "Twice scoring": "When an area is completed, score 1 point twice.",
    "Remainder scoring": "At the end of the game, score points equal to the remainder of the "
    "tiles left in the stacks and in the players' hands divided by 5.",
}

GAMES = {
    "uncharted_passage": (UP_CARDS, UP_EXPECTED),
    "incredible_expeditions": (IE_CARDS, IE_EXPECTED),
    "darwins_journey": (DJ_CARDS, DJ_EXPECTED),
    "land_vs_sea": (LVS_CARDS, LVS_EXPECTED),
}


@pytest.fixture(scope="module")
def texts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """Each game's new cards' text (title -> paragraphs joined), compiled beside a copy of
    the game's own cards."""
    out: dict[str, dict[str, str]] = {}
    for game, (source, _) in GAMES.items():
        root = tmp_path_factory.mktemp(game)
        folder = root / "cards" / game
        shutil.copytree(ROOT / "cards" / game, folder, ignore=shutil.ignore_patterns("variants"))
        (folder / "zz_new_cards.cards").write_text(source)
        result = compile_game(folder, SourceCache())
        assert result.ir is not None, [d.message for d in result.diagnostics]
        ref = resolve(reference_for(folder, None), result.ir, {c["id"] for c in result.ir["cards"]})
        model = build_model(result.ir, ref, variant=None, folder=folder)
        out[game] = {
            card.title: " ".join(plain(p) for p in card.paragraphs)
            for card in [*model.cards, *model.rules]
            if "zz_new_cards" in card.source
        }
    return out


CASES = [(game, title) for game, (_, expected) in GAMES.items() for title in expected]


@pytest.mark.parametrize(("game", "title"), CASES)
def test_a_new_card_reads_as_the_rulebook(
    texts: dict[str, dict[str, str]], game: str, title: str
) -> None:
    expected = GAMES[game][1][title]
    assert texts[game][title] == expected
    # What it prints passes the lint (icons left out, as the lint reads it).
    assert _problems(re.sub(r"\[[a-z_]+\] ", "", expected)) == []


def test_the_sinking_card_ends_the_game_in_words(texts: dict[str, dict[str, str]]) -> None:
    text = texts["uncharted_passage"]["Sunk"]
    assert "the game ends at once (the ship sank)" in text
    assert "end_game" not in text


# -- cardc new's template ---------------------------------------------------------------------


def _tiny(tmp_path: Path) -> Project:
    """A project as `cardc new tiny` writes it, in ``tmp_path``."""
    from compiler.scaffold import scaffold

    scaffold("tiny", None, tmp_path)
    root = tmp_path / "tiny"
    return Project(root, root / "cards", root / "generated", root / "tests" / "scenarios")


def test_cardc_new_project_reads_right(tmp_path: Path) -> None:
    project = _tiny(tmp_path)
    root = project.root
    cards = root / "cards" / "tiny" / "cards.cards"
    cards.write_text(
        cards.read_text()
        + '\ncard "Tax" {\n  on play {\n    if coins > 3 {\n      pay coins 2 else lose '
        "victory_points missing\n    }\n  }\n}\n"
    )
    result = compile_game(project.game_dir("tiny"), SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    md = render_sheet_files(project, "tiny", result.ir, formats=("md",))[
        "sheets/tiny/tiny.md"
    ].decode()
    assert "When a card is played from the hand, gain 2 coins." in md
    assert (
        "When a card is played from the hand, if you have more than 3 coins, pay 2 coins; for "
        "each coin you cannot pay, lose 1 victory point." in md
    )
    assert "When when" not in md
    # A new game's reference.yaml has no phase list: its flow's phases are printed from the
    # DSL, its zone named as the player's ("draw 3 cards into your hand", not "draw 3 hands").
    phases = md.split("### Phases, in order", 1)[1].split("###", 1)[0]
    assert "**Draw**: Draw 1 card into your hand." in phases
    assert "every player: draw 3 cards into your hand." in phases
    assert "You may play one card from your hand." in phases
    assert "hands" not in phases


def test_a_new_games_variant_prints_the_phase_it_inserts(tmp_path: Path) -> None:
    # "Variants printed as they play", for a game whose reference.yaml lists no phases.
    from compiler.sheets import render_sheet_files as render
    from compiler.variants import compile_variant

    project = _tiny(tmp_path)
    root = project.root
    variant = root / "cards" / "tiny" / "variants" / "windfall.yaml"
    variant.parent.mkdir(exist_ok=True)
    variant.write_text(
        "description: a windfall each turn\n"
        "flow:\n"
        "  - insert: |\n"
        '      phase windfall "Windfall" { gain coins 1 }\n'
        "    before: play\n"
    )
    result, _ = compile_variant(project.game_dir("tiny"), variant, SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    md = render(project, "tiny", result.ir, formats=("md",), variant="windfall")
    text = next(v for k, v in md.items() if k.endswith(".md")).decode()
    phases = text.split("### Phases, in order", 1)[1].split("###", 1)[0]
    assert "**Windfall**: Gain 1 coin." in phases
    assert phases.index("**Draw**") < phases.index("**Windfall**") < phases.index("**Play")


@pytest.mark.parametrize(
    ("doc", "lead"),
    [
        ("when a card is played from the hand", "When a card is played from the hand,"),
        ("the end of the game", "At the end of the game,"),
        ("end of round", "At the end of round,"),
        ("each time you roll a 6", "Each time you roll a 6,"),
        ("a player draws a card", "When a player draws a card,"),
        ("upon facing an encounter", "Upon facing an encounter,"),
    ],
)
def test_a_triggers_own_words_start_the_sentence(doc: str, lead: str) -> None:
    # A new game's trigger without reference.yaml's "when": never "When when", "When the end".
    assert _when(doc) == lead


def test_a_house_rules_own_verb_is_written_out(tmp_path: Path) -> None:
    # A verb written in the DSL (as a house rule would add one), called with a value: the card
    # says what it does with that value, not "its description (2)".
    project = _tiny(tmp_path)
    root = project.root
    cards = root / "cards" / "tiny" / "cards.cards"
    cards.write_text(
        cards.read_text()
        + '\nverb storm(damage number) "the ship takes storm damage" {\n  lose coins damage\n}\n'
        + 'card "Squall" {\n  on play { storm 2 }\n}\n'
    )
    result = compile_game(project.game_dir("tiny"), SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    md = render_sheet_files(project, "tiny", result.ir, formats=("md",))[
        "sheets/tiny/tiny.md"
    ].decode()
    assert "When a card is played from the hand, lose 2 coins." in md
    assert "storm damage (2)" not in md


# -- the lint's new checks --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "problem"),
    [
        ("gain up to 1 Objective tiles from the pile", "'1 Objective tiles'"),
        ("for each the area in every sea area", "'each the'"),
        ("you may one of your Cursed Crew is Cursed no more", "'you may one'"),
        ("if A and not the ship docked", "'and not the'"),
        ("if your specimens is at least 3", "'your specimens is'"),
        ("if the Campsite's tent sites is 1", "'s tent sites is'"),
        ("if the round modulo 2 is 0", "'modulo'"),
        ("gain 1 victory points", "'1 victory points'"),
    ],
)
def test_the_lint_finds(words: str, problem: str) -> None:
    assert any(problem in p for p in _problems(words)), _problems(words)


@pytest.mark.parametrize(
    "words",
    [
        "score 1 point per caravan icon in the trade route",
        "if the region of the place is not the Kraken Discovery Spot",
        "When a Ship or Explorer lands on or passes a Campsite location",
        "gain 1 prestige as many times as your Armament",
        "you may Exhaust this Crew and gain 2 Temporary Heroism",
        "if the number of your Port Cards is at least 3",
        "if exactly 1 side scores 2 points, flip the A face",
        "you may no longer use it",
        "score the placed tile, not a Waypoint",
    ],
)
def test_the_lint_passes(words: str) -> None:
    assert _problems(words) == []


def test_a_clause_after_may_fails_the_build_at_the_cards_line(tmp_path: Path) -> None:
    game = tmp_path / "cards" / "tiny"
    game.mkdir(parents=True)
    (game / "game.cards").write_text(
        'game tiny "Tiny" {\n  players 1..2\n  counter coins\n'
        '  trigger play "when a card is played from the hand"\n'
        '  kind card "a card" { }\n}\n'
    )
    (game / "cards.cards").write_text(
        '\ncard "Charm" {\n  on play { may lift }\n}\nverb lift() "lift a curse" { gain coins 1 }\n'
    )
    (game / "reference.yaml").write_text("phrases:\n  lift: 'one Crew is Cursed no more'\n")
    project = Project(tmp_path, tmp_path / "cards", tmp_path / "generated", tmp_path / "tests")
    result = compile_game(project.game_dir("tiny"), SourceCache())
    assert result.ir is not None
    with pytest.raises(SheetError) as caught:
        render_sheet_files(project, "tiny", result.ir, formats=("md",))
    assert "'you may one'" in str(caught.value) and "cards.cards:2" in str(caught.value)
    assert caught.value.diagnostic().span.line == 2
