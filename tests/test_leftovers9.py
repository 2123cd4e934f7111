"""leftovers9: the rough edges the eleventh session noticed and left.

- The simulator's "played" figure counted only ``play`` (and ``discard``) events, so a game
  that plays a card by moving it (``choose card in hand { move_card card hand played }``, a
  trick-taking lead) showed every card drawn and none played.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from test_variant_hardening import run

from compiler.cli import main
from compiler.pipeline import compile_game
from compiler.sheets.model import build_model, sheet_text
from compiler.sheets.reference import reference_for, resolve
from dsl.diagnostics import SourceCache
from engine.sim_tally import outcome

pytestmark = pytest.mark.usefixtures("fresh_file_cache")

ROOT = Path(__file__).resolve().parent.parent
LANTERN = ROOT / "tests" / "data" / "lang7"


# -- 1. the simulator's "played": a card moved out of the hand ---------------------------------


def _game(events: list[tuple[Any, ...]], zones: dict[str, list[str]]) -> Any:
    """The little of a played game :func:`engine.sim_tally.outcome` reads: its event log and
    one player's zones."""
    player = SimpleNamespace(zones=zones)
    return SimpleNamespace(events=events, players=[player], round=1)


def _result() -> Any:
    return SimpleNamespace(scores=[3], sunk=[False], titles=[""], winner=None, team_score=None)


def test_a_card_moved_out_of_the_hand_it_was_drawn_into_is_played() -> None:
    """A trick played by ``move_card card hand played`` logs no ``play``: the figure said 0."""
    events = [
        ("draw", 0, "hand", 2, ["moon_1", "sun_2"]),
        ("move_card", 0, "moon_1", "hand", "played"),
    ]
    cards = outcome(_game(events, {"hand": ["sun_2"], "played": ["moon_1"]}), _result(), "solo")
    assert cards.cards is not None
    drawn, played, held = cards.cards[0]
    assert drawn == {"moon_1", "sun_2"}
    assert played == {"moon_1"}
    assert held == {"sun_2"}


def test_a_card_moved_into_the_hand_is_drawn_and_a_move_between_other_zones_is_neither() -> None:
    """``choose taken in look_at(deck, 3) { move_card taken deck hand }`` draws the card it
    takes; moving the trick to the won pile plays nothing."""
    events = [
        ("draw", 0, "hand", 1, ["pebble"]),
        ("move_card", 0, "gem", "deck", "hand"),
        ("move_card", 0, "star_4", "trick", "won"),
    ]
    cards = outcome(_game(events, {"hand": ["pebble", "gem"]}), _result(), "solo")
    assert cards.cards is not None
    drawn, played, held = cards.cards[0]
    assert drawn == {"pebble", "gem"}
    assert played == set()
    assert held == {"pebble", "gem"}


def test_lantern_tricks_cards_are_played_in_the_simulator_s_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every card of Lantern Tricks is dealt and played to a trick (a hand is played out);
    the per-card figures said played 0 for each."""
    shutil.copytree(LANTERN / "cards", tmp_path / "cards")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    status, out = run(capsys, "build", "--no-sheets")
    assert status == 0, out
    status, out = run(capsys, "sim", "lantern", "--games", "20", "--jobs", "1", "--json")
    assert status == 0, out
    cards = json.loads(out)["cards"]
    assert cards, out
    for card, figures in cards.items():
        assert figures["played"] == figures["drawn"] > 0, (card, figures)
    # The caveat under the table is every game's: a card game has no ship for its cards to be
    # "drawn where a ship goes".
    caveat = json.loads(out)["cards_caveat"]
    assert "drawn as the game goes" in caveat and "where a ship goes" not in caveat


# -- 2. Reinforced Rope's "+1" icon ---------------------------------------------------------------


def _sheet_lines(game: str) -> list[str]:
    folder = ROOT / "cards" / game
    ir = compile_game(folder, SourceCache()).ir
    assert ir is not None
    ref = resolve(reference_for(folder, None), ir, {c["id"] for c in ir["cards"]})
    return sheet_text(build_model(ir, ref, folder=folder)).splitlines()


def _card_text(lines: list[str], title: str) -> str:
    at = next(i for i, line in enumerate(lines) if line == title or line.startswith(title + " "))
    rest = lines[at + 1 :]
    return "\n".join(rest[: next(i for i, line in enumerate(rest) if not line.strip())])


def test_reinforced_rope_prints_the_icon_reference_s_plus_one() -> None:
    """ "+1 (Scurvy Check -> excluded distance): You may sail 1 additional space. (Extra
    distance excluded from Scurvy Check.)" is the Icon Reference's ``reach``; ``add reach 1``
    is said by the phrase "add reach" and led by the target's icon. A "verb target" phrase
    whose target has no icon (``raid difference``) keeps the verb's (the Pirate icon)."""
    lines = _sheet_lines("uncharted_passage")
    assert "you may [reach] sail 1 additional space" in _card_text(lines, "Reinforced Rope")
    raids = [line for line in lines if "roll two dice and take Ship Damage equal to" in line]
    assert raids and all("[raid] roll two dice" in line for line in raids), raids


# -- 3. a house rule redefining a Python verb: the words the sheet prints ---------------------

ANCHORED = """\
description: Anchored pirates (a house rule) - the Pirate Ship never moves; moving it gives 1 Coin
verbs: |
  verb move_pirate_ship() "the Pirate Ship stays where it is; gain 1 Coin" {
    gain coins 1
  } @provisional("a house rule, not the rulebook's")
"""


def test_a_redefined_python_verb_s_rule_quotes_the_words_its_cards_print(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Darwin's Journey's move_pirate_ship (natives.py) is printed "move the Pirate Ship" on
    every card and rule (reference.yaml's phrase); a house rule giving it a DSL body printed
    "Whenever the rules say that the Pirate Ship stays where it is; gain 1 Coin, gain 1 Coin",
    words no card says. ``cardc diff``'s errata says the base's rule now reads the new one."""
    from compiler.variants import compile_variant

    folder = tmp_path / "cards" / "darwins_journey"
    shutil.copytree(ROOT / "cards" / "darwins_journey", folder)
    variant = folder / "variants" / "anchored.yaml"
    variant.write_text(ANCHORED, encoding="utf-8")
    result, _ = compile_variant(folder, variant, SourceCache())
    ir = result.ir
    assert ir is not None
    ref = resolve(reference_for(folder, "anchored"), ir, {c["id"] for c in ir["cards"]})
    lines = sheet_text(build_model(ir, ref, variant="anchored", folder=folder)).splitlines()
    rule = _card_text(lines, "The Pirate Ship stays where it is; gain 1 Coin")
    assert rule.strip().startswith("Whenever the rules say to move the Pirate Ship, gain 1 ")
    # The cards that call it print the same words.
    assert any("may [move_pirate_ship] move the Pirate Ship" in line for line in lines)
    # cardc diff's errata: the base game's rule, now the house rule's.
    (tmp_path / "pyproject.toml").write_text('[tool.cardc]\ncards = "cards"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    errata = tmp_path / "errata.md"
    status, out = run(
        capsys, "diff", "darwins_journey", "darwins_journey/anchored", "--errata", str(errata)
    )
    assert status == 0, out
    assert 'of the rules now reads "the Pirate Ship stays where it is; gain 1 Coin"' in (
        errata.read_text(encoding="utf-8")
    )


def test_a_command_before_its_colon_stays_a_command() -> None:
    """A description with no words in the reference is called for as it reads: a command
    before its colon is said to be done ("say to take ..."), its summary left out."""
    from compiler.sheets.model import _whenever

    said = _whenever("take a docked crew's Crew Action: one Port Card from Crew Stamina 2")
    assert said == "whenever the rules say to take a docked crew's Crew Action"


# -- the new designer's game --------------------------------------------------------------------


def _new_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Path:
    """``cardc new orchard`` in an empty folder, made the current folder."""
    monkeypatch.chdir(tmp_path)
    status, out = run(capsys, "new", "orchard")
    assert status == 0, out
    project = tmp_path / "orchard"
    monkeypatch.chdir(project)
    return project


def test_a_dsl_verb_with_a_parameter_of_no_type_is_told_once_at_the_parameter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _new_game(tmp_path, monkeypatch, capsys)
    cards = project / "cards" / "orchard" / "cards.cards"
    cards.write_text(
        cards.read_text(encoding="utf-8")
        + 'card "Harvest" {\n  on play { pick_apples 2 }\n}\n'
        + 'verb pick_apples(amount int) "pick apples" {\n  gain coins amount\n}\n'
        + "function ripe(amount str) bool = amount > 1\n"
        + 'card "Ripe" {\n  on play { if ripe(2) { gain coins 1 } }\n}\n',
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "cards.cards:11:18: error[bad-param-type]: 'int' is not a parameter type" in out
    assert "hint: write number: the language's name for 'int'" in out
    assert "error[bad-param-type]: 'str' is not a parameter type" in out
    assert "hint: write text: the language's name for 'str'" in out
    assert "not a verb of this game" not in out, out
    assert "not a native of this game" not in out, out
    assert "2 errors" in out, out


def test_a_count_of_rounds_reading_the_current_round_is_an_error_at_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``round round { }``, a slip for ``round rounds``: the count read the current round (1
    at the start) and the game played 1 round without a word."""
    project = _new_game(tmp_path, monkeypatch, capsys)
    flow = project / "cards" / "orchard" / "flow.cards"
    text = flow.read_text(encoding="utf-8")
    assert "  round rounds {" in text
    flow.write_text(text.replace("  round rounds {", "  round round {"), encoding="utf-8")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "flow.cards:11:9: error[round-count]: the count of rounds reads 'round'" in out, out
    assert "hint: write: round 12 { ... } or round rounds { ... } (a param)" in out


@pytest.mark.parametrize(
    ("doc", "lead"),
    [
        # README's Harvest: it printed "At the market opens, once a round for each farmer,".
        (
            "the market opens, once a round for each farmer",
            "When the market opens, once a round for each farmer,",
        ),
        ("the ship docks at a port", "When the ship docks at a port,"),
        ("the rewards of a Campsite are gained", "When the rewards of a Campsite are gained,"),
        # A moment stays one.
        ("the end of the game", "At the end of the game,"),
        ("the Pirate's Raid event, before damage", "At the Pirate's Raid event, before damage,"),
        ("the end of rounds", "At the end of rounds,"),
    ],
)
def test_a_trigger_described_as_something_happening_reads_when(doc: str, lead: str) -> None:
    """A new game's trigger with no reference.yaml ``when`` words, described "the market
    opens", printed "At the market opens,": a description starting "the" was taken for a
    moment ("the end of the game")."""
    from compiler.sheets.text import _when

    assert _when(doc) == lead


# -- 1 (continued): a game's own card events, and the table's columns --------------------------


def test_a_game_s_own_card_events_count_as_its_card_events_say() -> None:
    """Land vs Sea logs a tile drawn as "drew" and a tile placed as "placed": its per-card
    figures were empty. A game's ``CARD_EVENTS`` says which figure each event counts in."""
    events = [("drew", 0, "coast"), ("drew", 0, "bay"), ("placed", 0, "coast", "a", [0, 1])]
    game = _game(events, {})
    game.CARD_EVENTS = {"drew": "drawn", "placed": "played"}
    cards = outcome(game, _result(), "solo")
    assert cards.cards is not None
    drawn, played, held = cards.cards[0]
    assert drawn == {"coast", "bay"}
    assert played == {"coast"}
    assert held == set()


def test_land_vs_sea_prints_its_tiles_figures_in_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every row of the per-card table lines up with its header: the rows' title column was as
    wide as every card's title (Land vs Sea's scoring layers, never drawn), the header's as the
    cards in the table."""
    monkeypatch.chdir(ROOT)
    status, out = run(capsys, "sim", "land_vs_sea", "--games", "2", "--jobs", "1")
    assert status == 0, out
    table = out.split("\ncard ", 1)[1].split("\n\n", 1)[0].splitlines()
    header, rows = "card " + table[0], table[1:]
    assert rows, out
    end = header.index("drawn") + len("drawn")
    for row in rows:
        # the drawn count ends where the header's "drawn" ends
        assert row[end - 1].isdigit() and row[end] == " ", (header, row)
    # the tiles placed are played
    assert any(int(row[end:].split()[0]) > 0 for row in rows), rows


def test_cardc_new_of_a_title_says_the_name_it_means(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cardc new "My Game"``, as a new designer writes a title, was told the rule of names
    only; it now says the name to type."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as refused:
        main(["new", "My Game"])
    said = str(refused.value)
    assert "'My Game' is not a game name" in said
    assert "(cardc new my_game)" in said
    with pytest.raises(SystemExit) as refused:
        main(["new", "2game"])
    assert "cardc new 2" not in str(refused.value)
    assert not list(tmp_path.iterdir())


def test_incredible_expeditions_crew_are_hired_and_put_to_work_in_the_figures(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A Crew is hired ("hire": drawn) and Exhausted for its Temporary Resources ("exhaust":
    played); no Crew had a figure."""
    monkeypatch.chdir(ROOT)
    ir = json.loads((ROOT / "generated" / "incredible_expeditions" / "cards.json").read_text())
    crew = {c["id"] for c in ir["cards"] if c["kind"] == "crew"}
    status, out = run(
        capsys, "sim", "incredible_expeditions", "--games", "10", "--jobs", "1", "--json"
    )
    assert status == 0, out
    cards = json.loads(out)["cards"]
    hired = {card: cards[card] for card in crew if card in cards}
    assert hired, sorted(cards)
    assert any(f["played"] > 0 for f in hired.values()), hired
    assert all(f["drawn"] > 0 for f in hired.values()), hired
