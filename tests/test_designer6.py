"""What a game designer trying cardc with only its README found (designer6), building Hexhold
(tests/data/designer6/): an area-control, worker-placement game on a small hex map, with the
standard library's hexes, majorities, markets, decks, dice and counters, a natives.py, two
variants (one editing the flow, one redefining a verb) and scenarios.

- A card could not give a hex cell the ``hexes`` natives read: ``property cell list`` with
  ``cell 1 -1`` is ``[[1, -1]]`` in the IR (one clause of two numbers, as each clause of Land
  vs Sea's ``cells 0 0, 1 0`` is a cell), and ``hex_distance(land.cell, [0, 0])`` stopped the
  game with "[[1, -1]] is not a hex cell"; ``cell [1, -1]`` is refused by the checker. A
  card's one-cell property is now that cell, and the README says how a card gives one.
- A scenario of a game for 2 or more (``players 2..4``) that gave neither ``mode:`` nor
  ``players:`` was seated solo, one player, and failed "Hexhold is for 2 to 4 players, not 1";
  it is now seated as ``cardc sim`` seats the game: competitive, with the fewest players.
- ``choose one of`` in a flow phase (or a DSL verb it calls) was asked as "flow: choose one
  (...)"; a ``may`` there is headed by the phase's title, as the README says of a flow
  phase's questions, and now so is a ``choose``.
- The text lint's problems were one error, ``sheet-overflow``, at the first card's line, the
  other cards (of other files) named only inside its message; each is now its own error,
  ``sheet-text``, at its own card's line.
- The lint took "gain 1 Hills influence" (a counter ``hills_hold`` the designer had worded
  "Hills influence", as its hint asked) for a count of a plural, "1 Hills", and failed the
  build; a plural followed by the noun it qualifies is no such count.
- The standard library's words count in the plural ("the cells {radius} steps from
  {centre}"), so a card calling ``hex_ring(cell, 1)`` read "the cells 1 steps from", which the
  lint refused, failing the build; a count of one now takes the noun in the singular.
- A scenario's ``event:`` for a trigger whose param names its kind (``param land land``) was
  not checked before running: ``{land: oakwod}`` failed inside the card's handler ("'oakwod'
  is not a card, so it has no 'district'"); it is now "'oakwod' is not a land; did you mean
  'oakwood'?" at its line and column, as every card of a scenario is.
- ``cardc check --provenance`` ended "1 provisional values".
- ``cardc diff`` listed a verb that calls a redefined verb as changed from a text to the very
  same text ("verb place_worker: choose one of {...} -> choose one of {...}").
- ``cardc sim --compare``: a figure the same in every paired game was "not significant ...
  play more games to narrow the interval" of an interval already of no width.
- ``b.cost`` for ``for each b in market_cards(shop)`` said "only a card has members", of what
  is a card; the hint now says to go over the kind, naming the kinds with that property.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from test_variant_hardening import run

from engine.hexgrid import Hex, NotACell, as_hex
from engine.sim_stats import Difference, verdict

pytestmark = pytest.mark.usefixtures("fresh_file_cache")

DATA = Path(__file__).resolve().parent / "data" / "designer6"
GAME = "hexhold"


def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project holding a copy of Hexhold and its scenarios, made the current directory."""
    shutil.copytree(DATA / "cards", tmp_path / "cards")
    shutil.copytree(DATA / "scenarios", tmp_path / "tests" / "scenarios")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\nscenarios = "tests/scenarios"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Path:
    project = _project(tmp_path, monkeypatch)
    status, out = run(capsys, "build", "--no-sheets")
    assert status == 0, out
    return project


# -- the whole game: its scenarios (hex cells on cards; a 2..4 game's scenarios seated) --------


def test_hexhold_checks_builds_and_passes_its_scenarios(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _built(tmp_path, monkeypatch, capsys)
    status, out = run(capsys, "test")
    assert status == 0, out
    assert "21 of 21 scenarios passed" in out, out


def test_a_cards_one_cell_property_is_that_hex_cell() -> None:
    # `cell 1 -1` on a card: one clause of two numbers.
    assert as_hex([[1, -1]]) == Hex(1, -1)
    assert as_hex([1, -1]) == Hex(1, -1)
    with pytest.raises(NotACell, match="cell 1 -1"):
        as_hex([[1], [-1]])  # `cell 1, -1`: two clauses, no cell


def test_the_surveyor_reads_the_map_cells_of_the_lands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _built(tmp_path, monkeypatch, capsys)
    scenario = project / "surveyor.yaml"
    scenario.write_text(
        "scenario: the Surveyor counts the lands 2 steps from the keep\n"
        "game: hexhold\nplayers: 2\n"
        "do:\n  - run: surveyor.play\n"
        "expect:\n  player:\n    counters: {stone: 1}\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "test", str(scenario))
    assert status == 0, out


def test_a_scenario_of_a_game_for_two_or_more_is_seated_as_sim_seats_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _built(tmp_path, monkeypatch, capsys)
    scenario = project / "seats.yaml"
    scenario.write_text(
        "scenario: two lords by default\ngame: hexhold\n"
        "given:\n  players:\n    - counters: {coins: 1}\n    - counters: {coins: 4}\n"
        "expect:\n  players:\n    - counters: {coins: 1}\n    - counters: {coins: 4}\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "test", str(scenario))
    assert status == 0, out
    assert "not 1" not in out, out
    # Three lords given to a game seated with two by default: told, as before.
    scenario.write_text(
        "scenario: three lords\ngame: hexhold\n"
        "given:\n  players:\n    - {}\n    - {}\n    - {}\n"
        "expect:\n  round: 1\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "test", str(scenario))
    assert status == 1, out
    assert "3 players given, but the scenario has 2" in out, out


def test_a_scenario_event_naming_a_card_of_the_params_kind_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _built(tmp_path, monkeypatch, capsys)
    scenario = project / "event.yaml"
    fired = (
        "scenario: {title}\ngame: hexhold\nplayers: 2\n"
        "do:\n  - fire: claimed\n    event: {{land: {land}}}\n"
        "expect:\n  player:\n    counters: {{forest_hold: 1, coins: 2}}\n"
    )
    scenario.write_text(
        fired.format(title="a misspelt land", land="oakwod")
        + "---\n"
        + fired.format(title="a card of another kind", land="granary"),
        encoding="utf-8",
    )
    status, out = run(capsys, "test", str(scenario))
    assert status == 1, out
    assert "event.yaml:6:19: 'oakwod' is not a land; did you mean 'oakwood'?" in out, out
    assert "event.yaml:16:19: 'granary' is not a land" in out, out
    assert "so it has no" not in out, out
    scenario.write_text(fired.format(title="Oakwood", land="oakwood"), encoding="utf-8")
    status, out = run(capsys, "test", str(scenario))
    assert status == 0, out


# -- a flow phase's `choose one of` is headed by the phase's title ------------------------------


def test_a_choose_in_a_flow_phase_is_headed_by_the_phase_title(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path, monkeypatch)
    (project / "cards" / GAME / "variants" / "tithe.yaml").write_text(
        "description: a tithe each round\n"
        "flow:\n"
        "  - insert: |\n"
        '      phase tithe "The tithe" {\n'
        "        choose one of { pay coins 1; lose victory_points 1 }\n"
        "      }\n"
        "    after: income\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "build", "--no-sheets")
    assert status == 0, out
    scenario = project / "ask.yaml"
    for phase, worker, asked in (
        ("tithe", 0, "The tithe: choose one (pay: pay coins 1; lose: lose victory points 1)"),
        # A DSL verb's question is headed as its `may` is, by the verb's description (edges7:
        # it was headed by its name, place_worker).
        (
            "placement",
            1,
            "Place one worker on an action space: choose one (gather: gain coins 2;",
        ),
    ):
        scenario.write_text(
            f"scenario: no answer\ngame: hexhold\nvariant: tithe\n"
            f"given:\n  players:\n    - counters: {{workers: {worker}}}\n"
            "    - counters: {workers: 0}\n"
            f"do:\n  - action: phase\n    args: {{name: {phase}}}\n"
            "expect:\n  round: 1\n",
            encoding="utf-8",
        )
        status, out = run(capsys, "test", str(scenario))
        assert status == 1, out
        assert asked in out, out
        assert "flow: choose one" not in out, out


# -- the text lint: each problem at its card, no count of "1 Hills influence" -----------------


def test_each_text_lint_problem_is_an_error_at_its_own_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path, monkeypatch)
    # The districts and the influence counters without their rulebook words.
    (project / "cards" / GAME / "reference.yaml").unlink()
    status, out = run(capsys, "build")
    assert status == 1, out
    assert "cards/hexhold/map.cards:2:1: error[sheet-text]: card text does not read as a " in out
    assert "The Keep: District: the internal word 'plains'" in out, out
    assert "cards/hexhold/map.cards:3:1: error[sheet-text]:" in out, out
    assert "cards/hexhold/rules.cards:6:1: error[sheet-text]:" in out, out
    assert "sheet-overflow" not in out, out
    # Every card of the map is told at its line, not one error listing twelve.
    assert out.count("error[sheet-text]") >= 10, out


def test_a_plural_qualifying_a_noun_is_no_count_of_it() -> None:
    from compiler.sheets.lint import _problems

    assert _problems("Gain 1 Hills influence.") == []
    assert _problems("gain 1 Coins and 2 stone") == ["'1 Coins' (one of a plural noun)"]
    assert _problems("lose 1 curses") == ["'1 curses' (one of a plural noun)"]
    assert _problems("gain 1 coins if you can") == ["'1 coins' (one of a plural noun)"]


def test_the_hexhold_sheets_build_with_its_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # reference.yaml words hills_hold "Hills influence": "gain 1 Hills influence".
    project = _built(tmp_path, monkeypatch, capsys)
    reference = project / "cards" / GAME / "reference.yaml"
    text = reference.read_text(encoding="utf-8").replace(
        "influence in the Hills", "Hills influence"
    )
    reference.write_text(text, encoding="utf-8")
    status, out = run(capsys, "sheets", GAME, "--format", "md", "--out", "print")
    assert status == 0, out
    printed = (project / "print" / GAME / f"{GAME}.md").read_text(encoding="utf-8")
    assert "gain 1 Hills influence" in printed, printed
    # The hexes module's words count in the plural; one step is "1 step" (the lint refused
    # "the cells 1 steps from", failing the build of any card calling hex_ring(cell, 1)).
    # (A list of numbers prints as "(0, 0)", its brackets escaped in Markdown: wording5.)
    # (A loop named "c", no noun of the list's, is "each of" it: wording6; it read "for each c
    # in the cells ...".)
    assert "for each of the cells 1 step from \\(0, 0\\) where" in printed, printed
    assert "the cells 1 step or fewer from" in printed, printed
    assert "1 steps" not in printed, printed


# -- messages -----------------------------------------------------------------------------------


def test_provenance_counts_one_provisional_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _project(tmp_path, monkeypatch)
    status, out = run(capsys, "check", "--provenance")
    assert status == 0, out
    assert out.rstrip().endswith("\n1 provisional value"), out


def test_diff_shows_no_verb_changed_to_the_same_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _built(tmp_path, monkeypatch, capsys)
    errata = project / "errata.md"
    status, out = run(capsys, "diff", GAME, f"{GAME}/cheap_builders", "--errata", str(errata))
    assert status == 0, out
    assert "verb buy_building > for each b in building" in out, out
    assert "verb place_worker" not in out, out
    assert "1 verb change;" in out, out
    # The errata still says how the words of the verb that calls it now read.
    assert '"Place one worker on an action space" changes' in errata.read_text(encoding="utf-8")


def test_a_figure_the_same_in_every_paired_game_is_said_so() -> None:
    said = verdict("game length", Difference(0.0, 0.0, True, 100))
    assert said == "game length: the same in every game at both (paired on the same seeds).", said
    # A difference with a spread is still "not significant ... play more games".
    said = verdict("game length", Difference(0.1, 0.3, True, 100))
    assert "play more games to narrow the interval" in said, said


def test_a_member_of_an_item_of_a_list_is_read_as_any_kind_declares_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``b.cost`` of ``for each b in market_cards(shop)`` was an error saying to go over the
    kind (designer6); lang7 reads an item of no known kind as a card of any kind declaring
    the member, so it checks, and a member no kind has is the error, with its "did you mean"."""
    project = _project(tmp_path, monkeypatch)
    flow = project / "cards" / GAME / "flow.cards"
    text = flow.read_text(encoding="utf-8")
    looped = "  for each b in building where in_market(shop, b) {"
    assert looped in text
    flow.write_text(text.replace(looped, "  for each b in market_cards(shop) {"), encoding="utf-8")
    status, out = run(capsys, "check")
    assert status == 0, out
    text = flow.read_text(encoding="utf-8")
    assert "b.cost" in text
    flow.write_text(text.replace("b.cost", "b.cots", 1), encoding="utf-8")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "error[member-unknown]: no kind of card of this game has a property or tag 'cots'"
    ) in out, out
    assert "hint: did you mean 'cost'?" in out, out
