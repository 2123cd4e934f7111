"""Rough edges of the tooling that testers found (edges7):

- ``cardc check`` was clean, then ``cardc build`` failed on the printed sheets' text lint,
  which only ``build`` and ``sheets`` ran. ``cardc check`` now reads each game's and
  variant's sheet as the build prints it (its model, not laid out) and reports the lint's
  problems at the same file, line and column, with the same hint.
- The README did not show the format of a game's ``reference.yaml``, which the lint's hint
  points to: a section does now, with an example for its own small game that is checked and
  printed here.
- A variant's ``use: [dice, dice]`` was taken; a name given twice is an error at the second,
  as in ``remove:``. A ``sheets/NAME.reference.yaml`` naming no variant was read by nothing,
  without a word; it is an error naming the file, with the variant meant.
- ``cell 0, 0`` (two clauses of one number) passed ``cardc check`` and stopped the first game
  that read it as a hex cell ("[[0], [0]] is not a hex cell"). A property passed where the
  standard library takes a cell (or a list of cells), directly or through a DSL function, is
  held to that shape on every card of its kind, at the property's line and column.
- A scenario's ``action: sail`` opened the ``sailing`` window only for a voyage beyond the
  Sailing Speed, so a card answering it (a calm taking a space off the reach, a card keeping
  spaces out of the Scurvy Check) was passed over on any shorter voyage, though the map's
  Sailing phase asks it every month ("the Sailing phase, before the ship moves"). The window
  opens on every voyage; Reinforced Rope's own condition (``unless voyage_within_speed()``)
  keeps it unoffered within the Sailing Speed, as the shipped scenario says.
- A DSL verb's questions were headed by its name as the cards write it ("place_worker: choose
  one"); they are headed by its description, as a phase's are by its title ("Tend one field
  of the farm: choose one"), else by its name in words ("Rest a while: may ...").
"""

from __future__ import annotations

import inspect
import re
import shutil
from pathlib import Path

import pytest
from probing import copied_project
from test_edges5 import _variant
from test_variant_hardening import run

pytestmark = pytest.mark.usefixtures("fresh_file_cache")

KEEP_GAME = """\
game keep "Keep" {
  players 1
  score coins
  counter coins
  symbol plains, forest "a district" { group district }
  trigger play "the card is played"
  kind land "a land of the map" {
    property district name { names district }
    property copies number optional
  }
}
"""
KEEP_LANDS = """\
land "The Keep" {
  district plains
  on play { gain coins 1 }
}
land "Oakwood" { district forest }
"""


def _keep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project of one small game whose districts have no rulebook words, made current."""
    folder = tmp_path / "cards" / "keep"
    folder.mkdir(parents=True)
    (folder / "game.cards").write_text(KEEP_GAME, encoding="utf-8")
    (folder / "lands.cards").write_text(KEEP_LANDS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return folder


def _sheet_text(out: str) -> list[str]:
    """The sheet-text errors of ``out``, each with its source lines and hint."""
    blocks = [b[b.index("cards/") :] for b in out.split("\n\n") if "error[sheet-text]" in b]
    return sorted(b.strip() for b in blocks)


# -- 1. cardc check reports the sheets' text lint, as the build does


def test_check_reports_the_text_lint_the_build_fails_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _keep(tmp_path, monkeypatch)
    status, checked = run(capsys, "check")
    assert status == 1, checked
    assert (
        "cards/keep/lands.cards:1:1: error[sheet-text]: card text does not read as a rulebook: "
        "The Keep: District: the internal word 'plains' (give it the rulebook's words)" in checked
    ), checked
    assert "cards/keep/lands.cards:5:1: error[sheet-text]:" in checked, checked
    # The hint gives the file and the lines to add (lang7's hint).
    assert (
        "hint: word it in cards/keep/reference.yaml (create it if there is none): 'words:' then "
        "'  plains: Plains' on the next line; or give the card a 'text' property" in checked
    ), checked
    status, built = run(capsys, "build")
    assert status == 1, built
    # The same problems at the same places with the same hint: check and build agree.
    assert _sheet_text(checked) == _sheet_text(built) and len(_sheet_text(built)) == 2, built
    # Given their words, the check is clean.
    (folder / "reference.yaml").write_text(
        "words:\n  plains: Plains\n  forest: Forest\n", encoding="utf-8"
    )
    status, checked = run(capsys, "check")
    assert status == 0, checked
    assert "sheet-text" not in checked


def test_check_reports_the_text_lint_of_a_variants_sheet_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _keep(tmp_path, monkeypatch)
    (folder / "reference.yaml").write_text("words:\n  plains: Plains\n", encoding="utf-8")
    (folder / "variants").mkdir()
    # The variant adds a card of its own; the base card's problem (Oakwood) is in the
    # game's sheet and in the variant's: told once.
    (folder / "variants" / "moor.yaml").write_text(
        'description: a moor\nadd: |\n  land "Moor" { district forest }\n', encoding="utf-8"
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert out.count("Oakwood: District: the internal word 'forest'") == 1, out
    assert (
        "cards/keep/variants/moor.yaml:3:1: error[sheet-text]: card text does not read as a "
        "rulebook: Moor: District: the internal word 'forest'" in out
    ), out


# -- 2. the README shows reference.yaml's format, with an example that works

README = Path(__file__).resolve().parents[1] / "README.md"


def _readme_reference() -> str:
    """The README's example reference.yaml: the YAML block starting '# cards/harvest/...'."""
    text = README.read_text(encoding="utf-8")
    section = text.split("### A game's `reference.yaml`")[1].split("\n## ")[0]
    found = re.findall(r"```yaml\n(# cards/harvest/reference\.yaml:.*?)```", section, re.S)
    assert len(found) == 1, section
    return found[0]


def test_the_readme_reference_example_checks_and_prints_its_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from test_flow_readme import _files

    folder = tmp_path / "cards" / "harvest"
    folder.mkdir(parents=True)
    for name, text in _files().items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "reference.yaml").write_text(_readme_reference(), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, out = run(capsys, "check")
    assert status == 0 and "no errors" in out, out
    status, out = run(capsys, "sheets", "harvest", "--format", "md", "--out", "print")
    assert status == 0, out
    sheet = (tmp_path / "print" / "harvest" / "harvest.md").read_text(encoding="utf-8")
    # What the README says the cards then print, word for word.
    said = " ".join(README.read_text(encoding="utf-8").split())
    for printed in (
        "When you play this card, gain 2 Grain tokens and score 1 Victory Point.",
        "When you play this card, discard 1 Grain token.",
    ):
        assert printed in sheet, sheet
        assert f'"{printed}"' in said
    assert "discard 3 Grain tokens" in sheet, sheet  # the phrase, said for one, counts
    assert "*Harvest card*" in sheet and "**Final score up to**: 6" in sheet, sheet
    assert "**Market Day**: Each farmer with 3 Grain tokens or more" in sheet, sheet
    assert "**Draw**" not in sheet, sheet  # omitted
    assert "| 7 or more | Landowner |" in sheet, sheet


def test_the_readme_names_every_key_reference_yaml_has() -> None:
    from compiler.sheets import reference

    source = inspect.getsource(reference._read_reference)
    keys = set(re.findall(r'data\.get\("(\w+)"\)', source))
    keys |= set(re.findall(r'"(\w+)"', re.search(r"for key in \((.*?)\):", source)[1]))
    assert {"words", "phrases", "when", "tags", "phases", "tables"} <= keys, keys
    section = README.read_text(encoding="utf-8").split("### A game's `reference.yaml`")[1]
    section = section.split("\n## ")[0]
    missing = sorted(k for k in keys if f"`{k}`" not in section and f"\n{k}:" not in section)
    assert missing == [], missing


# -- 4. use: [dice, dice]; a variant's reference naming no variant

UP = "uncharted_passage"


def test_a_module_used_twice_is_an_error_at_the_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(project, UP, "majors", "description: majorities\nuse: [majorities, majorities]\n")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"cards/{UP}/variants/majors.yaml:2:19: error[variant-path]: 'majorities' is named "
        "twice in use: it is already there at line 2, column 7" in out
    ), out
    assert "hint: drop one of the two (or name the other module you meant)" in out, out
    assert "1 error" in out, out


def test_a_variant_reference_naming_no_variant_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    sheets = project / "cards" / UP / "sheets"
    (sheets / "harsher_see.reference.yaml").write_text(
        "notes:\n  - [Harsher sea, The track is shorter.]\n", encoding="utf-8"
    )
    said = (
        f"cards/{UP}/sheets/harsher_see.reference.yaml:1:1: error[variant-name]: "
        "'harsher_see.reference.yaml' is the reference of no variant: uncharted_passage has no "
        "variant 'harsher_see', so no sheet reads it"
    )
    hint = (
        "hint: did you mean 'harsher_sea'? (a variant's own reference is "
        "sheets/VARIANT.reference.yaml)"
    )
    status, out = run(capsys, "check")
    assert status == 1 and said in out and hint in out, out
    status, out = run(capsys, "build", UP, "--no-sheets")
    assert status == 1 and said in out, out


def test_a_variant_reference_in_a_game_without_variants_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _keep(tmp_path, monkeypatch)
    (folder / "reference.yaml").write_text(
        "words:\n  plains: Plains\n  forest: Forest\n", encoding="utf-8"
    )
    (folder / "sheets").mkdir()
    (folder / "sheets" / "keep.reference.yaml").write_text("notes: []\n", encoding="utf-8")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "'keep.reference.yaml' is the reference of no variant: keep has no variant" in out
    assert "hint: the game has no variants (cards/keep/variants/NAME.yaml); the game's own " in out


# -- 5. a DSL verb's questions are headed by the verb in words

FARM_GAME = 'game farm "Farm" {\n  players 1\n  score coins\n  counter coins, grain\n}\n'
FARM_FLOW = """\
verb tend_field() "tend one field of the farm" {
  choose one of {
    @label("sow") gain grain 1
    @label("sell") gain coins 1
  }
}
verb rest_a_while() {
  may { gain coins 1 } @label("nap")
}
flow "A day" {
  round 1 {
    phase work "The working day" { tend_field; rest_a_while }
  }
  winner highest
}
"""


@pytest.mark.parametrize(
    "choices, asked",
    [
        (
            "",
            "the engine asks 'tend_field.verb.sow_or_sell': Tend one field of the farm: choose "
            "one (sow: gain grain 1; sell: gain coins 1) [sow, sell]",
        ),
        (
            "choices:\n  - tend_field.verb.sow_or_sell: sow\n",
            "the engine asks 'rest_a_while.verb.nap': Rest a while: may gain coins 1? [yes, no]",
        ),
    ],
)
def test_a_verbs_questions_are_headed_by_the_verb_in_words(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    choices: str,
    asked: str,
) -> None:
    folder = tmp_path / "cards" / "farm"
    folder.mkdir(parents=True)
    (folder / "game.cards").write_text(FARM_GAME, encoding="utf-8")
    (folder / "flow.cards").write_text(FARM_FLOW, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, out = run(capsys, "build", "--no-sheets")
    assert status == 0, out
    scenario = tmp_path / "ask.yaml"
    scenario.write_text(
        f"scenario: unanswered\ngame: farm\n{choices}do:\n  - action: phase\n"
        "    args: {name: work}\nexpect:\n  player:\n    counters: {coins: 0}\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "test", str(scenario))
    assert status == 1, out
    assert asked in out, out
    assert "tend_field: " not in out and "rest_a_while: " not in out, out


# -- 3. cell 0, 0 is no hex cell

HEXHOLD = Path(__file__).resolve().parent / "data" / "designer6" / "cards" / "hexhold"


def _hexhold(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of designer6's Hexhold, made the current project."""
    folder = tmp_path / "cards" / "hexhold"
    shutil.copytree(HEXHOLD, folder)
    monkeypatch.chdir(tmp_path)
    return folder


def test_a_cell_of_two_clauses_is_refused_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _hexhold(tmp_path, monkeypatch)
    assert run(capsys, "check")[0] == 0
    lands = folder / "map.cards"
    text = lands.read_text(encoding="utf-8")
    assert 'land "The Keep" { cell 0 0;' in text
    lands.write_text(text.replace("cell 0 0;", "cell 0, 0;"), encoding="utf-8")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "cards/hexhold/map.cards:2:19: error[not-a-cell]: The Keep: 'cell 0, 0' is read as a "
        "hex cell (by hex_distance), but it is not one cell" in out
    ), out
    assert (
        "hint: a card gives one as a property of two numbers, one clause (no comma): cell 0 0"
        in (out)
    )
    assert "1 error" in out, out


def test_a_cell_a_variant_sets_is_refused_in_its_yaml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _hexhold(tmp_path, monkeypatch)
    (folder / "variants" / "moved.yaml").write_text(
        "description: the keep moved\ncards:\n  oakwood: {cell: '2, -1'}\n", encoding="utf-8"
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "cards/hexhold/variants/moved.yaml:3:" in out and "error[not-a-cell]" in out, out
    assert "Oakwood: 'cell 2, -1' is read as a hex cell" in out, out
    assert "(no comma): cell 2 -1" in out, out


SITES_GAME = """\
game sites "Sites" {
  players 1
  score coins
  counter coins
  use hexes
  trigger play "the card is played"
  kind site "a site" {
    property cell list
    property cells list optional
  }
}
"""


@pytest.mark.parametrize(
    "card, said",
    [
        # self.cell, read by a card's own trigger.
        (
            'site "Camp" {\n  cell 1, 1\n  on play { if hex_distance(self.cell, [0, 0]) < 2 '
            "{ gain coins 1 } }\n}\n",
            "cards/sites/sites.cards:2:3: error[not-a-cell]: Camp: 'cell 1, 1' is read as a hex "
            "cell (by hex_distance)",
        ),
        # A list of cells, one of whose clauses is one number.
        (
            'site "Camp" {\n  cell 1 1\n  cells 0 0, 1\n  on play { for each s in site { '
            "gain coins count(hex_areas(s.cells)) } }\n}\n",
            "cards/sites/sites.cards:3:3: error[not-a-cell]: Camp: 'cells 0 0, 1' is read as a "
            "list of hex cells (by hex_areas), but not every clause is a cell",
        ),
    ],
)
def test_a_property_read_as_a_cell_is_held_to_one(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    card: str,
    said: str,
) -> None:
    folder = tmp_path / "cards" / "sites"
    folder.mkdir(parents=True)
    (folder / "game.cards").write_text(SITES_GAME, encoding="utf-8")
    (folder / "sites.cards").write_text(card, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status, out = run(capsys, "check")
    assert status == 1 and said in out, out
    # Given as the README says, the same card checks.
    fixed = card.replace("cell 1, 1", "cell 1 1").replace("cells 0 0, 1", "cells 0 0, 1 0")
    (folder / "sites.cards").write_text(fixed, encoding="utf-8")
    status, out = run(capsys, "check")
    assert status == 0, out


# -- 6. action: sail opens the sailing window on every voyage

SAILING_CARDS = """\
rule "Dead Calm" {
  # A house rule: the calm takes a space off every ship's reach.
  on sailing { reduce reach up_to 1 }
}
port_card "Ship's Cook" {
  copies 1 @provisional("a test card")
  on sailing {
    may {
      add unscurvied_distance 2
      discard self
    } @label("use")
  }
}
"""
SAILING_SCENARIOS = """\
scenario: a calm's reach counts on a voyage within the Sailing Speed
game: uncharted_passage
given:
  player:
    counters: {sailing_speed: 4}
do:
  - action: sail
    args: {distance: 4}
expect:
  refused: "cannot sail 4 spaces with a reach of 3"
---
scenario: a card answering the sailing window is offered within the Sailing Speed
game: uncharted_passage
given:
  player:
    counters: {sailing_speed: 5}
    zones: {port_cards: [ships_cook, reinforced_rope]}
choices:
  - ships_cook.sailing.use: yes
do:
  - action: sail
    args: {distance: 3}
expect:
  player:
    zones: {port_cards: [reinforced_rope]}
    distance_sailed: 3
"""


def test_action_sail_opens_the_sailing_window_on_every_voyage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    (project / "cards" / UP / "edges7.cards").write_text(SAILING_CARDS, encoding="utf-8")
    status, out = run(capsys, "build", UP, "--no-sheets")
    assert status == 0, out
    scenarios = project / "sailing.yaml"
    scenarios.write_text(SAILING_SCENARIOS, encoding="utf-8")
    status, out = run(capsys, "test", str(scenarios))
    assert status == 0 and "2 of 2 scenarios passed" in out, out
