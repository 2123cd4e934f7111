"""audit13-ie: Incredible Expeditions audited against the rulebook's words as a designer would
write new cards and house rules from it: a house rule the game could not play as the rulebook
says (more Crew Cabins than the die has sides; fewer Encounters than a Location's total) is
refused at `cardc check` and `cardc sim --param`, at the line that made it so; a flow edit
naming a phase where its DSL goes gets one error that says so. The rule cases are
tests/scenarios/incredible_expeditions/audit13_rules.yaml (run by the scenario plugin).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import ROOT, copied_project, run_scenarios
from test_variant_hardening import run

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")

IE = "incredible_expeditions"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary project with a copy of the game, the current directory."""
    return copied_project(tmp_path, monkeypatch, IE)


def _variant(project: Path, text: str) -> None:
    (project / "cards" / IE / "variants" / "house.yaml").write_text(text, encoding="utf-8")


# -- "Roll a die. The Crew in the number cabin you rolled is Lost."


@pytest.mark.parametrize(
    "params, line, column, beyond, hint",
    [
        # 8 cabins and the die's 6 sides: at the cabins the variant set.
        ("  cabins: 8\n", 3, 11, "7 to 8", "set param die_sides 8, or param cabins 6 or fewer"),
        # A 5-sided die and the board's 6 cabins: at the die the variant set.
        ("  die_sides: 5\n", 3, 14, "6", "set param die_sides 6, or param cabins 5 or fewer"),
    ],
)
def test_more_crew_cabins_than_the_die_has_sides_is_an_error_at_the_variants_line(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    params: str,
    line: int,
    column: int,
    beyond: str,
    hint: str,
) -> None:
    # "If there is no Crew in that cabin, continue rolling until you get the number of an
    # occupied cabin": a Crew in a cabin the die never rolls was never Lost, and a ship whose
    # Crew were all there lost none, with no word said.
    _variant(project, f"description: big ships\nparams:\n{params}")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert f"cards/{IE}/variants/house.yaml:{line}:{column}: error[card-data]:" in out, out
    assert f'rolled is Lost" never rolls cabin {beyond}, so a Crew there is never Lost' in out
    assert f"hint: {hint}" in out
    assert out.count("error[card-data]") == 1, out


def test_as_many_crew_cabins_as_the_die_has_sides_or_fewer_checks(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Fewer cabins than sides is the rulebook's own reroll ("continue rolling").
    _variant(project, "description: small ships\nparams:\n  cabins: 4\n  die_sides: 6\n")
    status, out = run(capsys, "check")
    assert status == 0, out
    _variant(project, "description: big ships\nparams:\n  cabins: 8\n  die_sides: 8\n")
    status, out = run(capsys, "check")
    assert status == 0, out


def test_a_die_of_one_side_is_said_once_by_its_bounds(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _variant(project, "description: odd\nparams:\n  die_sides: 1\n")
    status, out = run(capsys, "check")
    assert status == 1
    assert "param die_sides is 1, but it counts a die's sides" in out
    assert "never rolls cabin" not in out


@pytest.mark.parametrize(
    "param, said",
    [
        ("cabins=7", "--param cabins=7: a player board has 7 Crew Cabins (param cabins), but"),
        ("die_sides=4", "--param die_sides=4: a player board has 6 Crew Cabins (param cabins)"),
    ],
)
def test_sim_refuses_a_param_that_leaves_a_cabin_the_die_never_rolls(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, param: str, said: str
) -> None:
    # The check names both parameters: the one the run set is the one named.
    monkeypatch.chdir(ROOT)
    status, out = run(capsys, "sim", IE, "--games", "1", "-q", "--param", param)
    assert status != 0, out
    assert said in out, out
    assert "never Lost" in out and "Traceback" not in out


# -- a Location's total of defeated Encounters, and the Encounter Deck


def test_removing_every_encounter_is_an_error_at_the_removal(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "If you have enough defeated Encounters to meet the total on your current Location
    # card": with none in the Encounter Deck no ship passes a Location of a total above 0,
    # and every game went to the turn limit.
    _variant(project, "description: no dangers\nremove_kinds:\n  - encounter\n")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"cards/{IE}/variants/house.yaml:3:5: error[card-data]: the Encounter Deck holds 0 "
        "cards, fewer than the 2 defeated Encounters needed to move past " in out
    ), out
    assert out.count("error[card-data]") == 1, out


def test_atlantis_guarded_by_more_than_the_encounter_deck_is_an_error_at_its_total(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # "The winner ... is the first player to defeat both Encounters at the last Location":
    # the 16 of the deck are the most a ship could hold.
    _variant(
        project,
        "description: a fortress\ncards:\n  drowned_city_of_atlantis: {encounters: 17}\n",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"cards/{IE}/variants/house.yaml:3:30: error[card-data]: Drowned City of Atlantis: the "
        "Encounter Deck holds 16 cards, fewer than the 17 defeated Encounters needed to move "
        "past Drowned City of Atlantis" in out
    ), out
    assert "hint: add encounter cards (or copies), or give Drowned City of Atlantis " in out
    _variant(
        project,
        "description: a fortress\ncards:\n  drowned_city_of_atlantis: {encounters: 16}\n",
    )
    status, out = run(capsys, "check")
    assert status == 0, out


# -- a flow edit naming a phase where the phase's DSL goes


@pytest.mark.parametrize("action, place", [("replace", ""), ("insert", "    after: draw_a_hand\n")])
def test_a_phase_name_where_its_dsl_goes_is_one_error_that_says_so(
    project: Path, capsys: pytest.CaptureFixture[str], action: str, place: str
) -> None:
    # `replace: get_ready`, as `remove:` and `move:` take a name, was parsed as DSL: "expected
    # '}' to close the block opened at 3:14" and "this '}' closes no block", of a '{' and a
    # '}' the file does not hold.
    _variant(project, f"description: choose\nflow:\n  - {action}: get_ready\n{place}")
    status, out = run(capsys, "check")
    assert status == 1, out
    column = len(f"  - {action}: ") + 1
    assert (
        f"cards/{IE}/variants/house.yaml:3:{column}: error[variant-shape]: '{action}' holds the "
        f"{'new ' if action == 'insert' else ''}phase written in the DSL, not a phase's name: "
        "'get_ready'" in out
    ), out
    assert f'hint: write: {action}: | then, on the next lines, phase get_ready "Title"' in out
    assert "block" not in out and out.count("error[") == 1, out


# -- a designer's card printed in the rulebook's words

DESIGNER_CARDS = """\
@provisional("audit13: a Location that sends the ship on")
location "Trade Winds" {
  encounters 1
  on when_entering {
    if may_venture_closer() { venture_forth }
    if may_venture_back() { venture_back }
  }
}

@provisional("audit13: a Location haunted by a second danger")
location "Haunted Isle" {
  encounters 1
  on when_entering { face_encounter }
}

@provisional("audit13: an Encounter that rouses the Exhausted Crew")
encounter "Ship's Bell" {
  type mechanical
  difficulty heroism 1
  on defeated {
    for each mate in crew_cabins {
      unless refreshed(mate) { refresh_one }
    }
  }
}
"""


@pytest.fixture(scope="module")
def designer_texts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every card's text (title -> paragraphs joined), the designer's cards compiled beside a
    copy of the game's own and read with its reference.yaml."""
    import shutil

    from probing import printed_texts

    folder = tmp_path_factory.mktemp("ie") / "cards" / IE
    shutil.copytree(ROOT / "cards" / IE, folder, ignore=shutil.ignore_patterns("variants"))
    (folder / "zz_audit13.cards").write_text(DESIGNER_CARDS, encoding="utf-8")
    return printed_texts(folder, {path.name for path in folder.glob("*.cards")})


def test_the_flows_verbs_called_by_a_card_read_as_the_rulebook(
    designer_texts: dict[str, str],
) -> None:
    # A card calling the flow's Venture Forth and Face printed the verbs' descriptions: "if
    # enough defeated Encounters here to Venture Forth closer to Atlantis, To Venture Forth,
    # closer to Atlantis", "When entering...: To Face an Encounter".
    assert designer_texts["Trade Winds"].startswith(
        "When entering...: if you have enough defeated Encounters to meet the total on your "
        "current Location card, Venture Forth to the adjacent Location closer to Atlantis. If "
        "you do not have enough defeated Encounters at your current Location and your ship is "
        "not at Port City, Venture Forth to the adjacent Location that is no closer to Atlantis."
    ), designer_texts["Trade Winds"]
    assert designer_texts["Haunted Isle"].startswith("When entering...: Face an Encounter."), (
        designer_texts["Haunted Isle"]
    )
    assert "To " not in designer_texts["Trade Winds"] + designer_texts["Haunted Isle"]


def test_refreshed_names_the_crew_it_asks_of(designer_texts: dict[str, str]) -> None:
    # refreshed(mate) printed "this Crew is Refreshed" (the words ignored the argument), and
    # "{crew} is Refreshed" printed "is Refresheds equal to the mate" (read as a count).
    text = designer_texts["Ship's Bell"]
    assert "unless the mate is Refreshed" in text, text
    assert "this Crew" not in text and "Refresheds" not in text, text


def test_the_pilots_own_text_still_says_this_crew(designer_texts: dict[str, str]) -> None:
    # refreshed(self): the card's own Crew, as the phrase `refreshed self` says it.
    assert designer_texts["Pilot"].startswith(
        "When entering a new Location, if this Crew is Refreshed and the Location"
    ), designer_texts["Pilot"]


# -- "Upon Facing...": set_difficulty said by the Encounter's own text

SLEEPING_GIANT = """\
@provisional("audit13: an Encounter whose Upon Facing text sets its difficulty")
encounter "Sleeping Giant" {
  type creature
  difficulty heroism 5
  # "Upon Facing, if your ship has 3 Crew or more, the Giant asks 1 Heroism only."
  on facing {
    if count(crew_cabins) >= 3 { set_difficulty 1, 0 }
  }
}
"""

GIANT_CASES = """\
scenario: the Sleeping Giant's Upon Facing text sets its difficulty, and 1 Heroism token meets it
rulebook: "2. Read the text on the card and follow any instructions which start with Upon Facing"
game: incredible_expeditions
mode: competitive
given:
  players:
    - location: misty_strait
      cabins: [deckhand, deckhand, deckhand]
      exhausted: [1, 2, 3]
      counters: {heroism: 1}
    - {}
do:
  - action: face_encounter
    args: {encounter: sleeping_giant}
expect:
  players:
    - zones: {defeated_encounters: [sleeping_giant], lost_crew: []}
      counters: {heroism: 0}
    - {}
---
scenario: with 2 Crew the Sleeping Giant keeps its printed 5, which 1 Heroism token cannot meet
rulebook: "5. If you cannot meet the difficulty of the Encounter, it is Undefeated."
game: incredible_expeditions
mode: competitive
given:
  players:
    - location: misty_strait
      cabins: [deckhand, bosun]
      exhausted: [1, 2]
      counters: {heroism: 1}
    - {}
dice: [2]
do:
  - action: face_encounter
    args: {encounter: sleeping_giant}
expect:
  encounter_discard: [sleeping_giant]
  players:
    - zones: {defeated_encounters: [], lost_crew: [bosun]}
      counters: {heroism: 1}
    - {}
"""


def test_set_difficulty_in_an_upon_facing_text_is_the_difficulty_faced(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    # game.cards' set_difficulty, "the Encounter being Faced asks this Heroism and
    # Skullduggery difficulty (its Upon Facing text said so)": said by the text, the flow then
    # set the difficulty back to the window's quantities, the printed 5, and the 1 Heroism
    # token no longer met it.
    generated = built_copy(IE, {"giant.cards": SLEEPING_GIANT})
    results = run_scenarios(generated, GIANT_CASES, tmp_path / "giant.yaml")
    assert [r.passed for r in results] == [True, True], [r.message for r in results]


# -- a quantity of the facing window, written in another trigger's block

GREMLIN = """\
@provisional("audit13: a designer's Encounter that reads the difficulty too late")
encounter "Gremlin" {
  type mechanical
  difficulty heroism 1
  on defeated {
    add heroism_difficulty 1
    if skullduggery_difficulty > 1 { gain money 1 }
  }
}
"""


def test_a_facing_quantity_outside_its_window_is_said_to_be_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "'heroism_difficulty' is not a counter or quantity of this game" (hint: did you mean
    # 'heroism'?) denied the quantity the README tells designers to change "Upon Facing".
    from probing import diagnostics_with_card_file

    found = diagnostics_with_card_file(tmp_path, monkeypatch, IE, GREMLIN)
    said = [(d.code, d.span.line, d.span.column, d.message, d.hints) for d in found]
    assert said == [
        (
            "name-undefined",
            6,
            9,
            "'heroism_difficulty' is a quantity of 'facing', not of 'on defeated'",
            ("change it in an 'on facing' block, while that window is open",),
        ),
        (
            "name-undefined",
            7,
            8,
            "'skullduggery_difficulty' is not defined here",
            (
                "'skullduggery_difficulty' is a quantity of 'facing': read it in an 'on "
                "facing' block, while that window is open",
            ),
        ),
    ], said


# -- "2. Read the text on the card and follow any instructions which start with Upon Facing"

NAVIGATOR = """\
@provisional("audit13: a Crew whose ability lowers a Creature's difficulty")
crew "Navigator" {
  copies 2
  bubbles money 0, heroism 1, skullduggery 1
  to_acquire money 3, heroism 1
  on facing {
    if refreshed(self) and facing_type() == creature {
      may {
        exhaust self
        reduce heroism_difficulty up_to 2
      } @ask("exhaust the Navigator to lower a Creature's Heroism difficulty by up to 2")
    }
  }
}

@provisional("audit13: an Encounter whose Upon Facing text raises its own difficulty")
encounter "Angry Kraken" {
  type creature
  difficulty heroism 1
  on facing { add heroism_difficulty 2 }
}
"""

KRAKEN_CASES = """\
scenario: the Angry Kraken's own Upon Facing text comes first, then the Navigator lowers it
rulebook: "2. Read the text on the card and follow any instructions which start with Upon Facing"
game: incredible_expeditions
mode: competitive
given:
  players:
    - location: misty_strait
      cabins: [navigator]
      counters: {heroism: 1}
    - {}
choices:
  - navigator.facing.exhaust: yes
do:
  - action: face_encounter
    args: {encounter: angry_kraken}
expect:
  players:
    - zones: {defeated_encounters: [angry_kraken]}
      counters: {heroism: 0}
      exhausted: [1]
    - {}
  events_in_order:
    - add player 1 heroism_difficulty 2
    - exhaust player 1 navigator 1
    - reduce player 1 heroism_difficulty 2
    - defeated player 1 angry_kraken
"""


def test_the_encounters_own_upon_facing_text_answers_before_the_crews(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    # The Crew answered first: "reduce by up to 2" of the printed 1 stopped at 0, the
    # Encounter's "add 2" came after, and 1 + 2 - 2 was Faced as 2, not 1.
    generated = built_copy(IE, {"navigator.cards": NAVIGATOR})
    (result,) = run_scenarios(generated, KRAKEN_CASES, tmp_path / "kraken.yaml")
    assert result.passed, result.message
