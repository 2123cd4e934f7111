"""Rough edges of the tooling that this morning's testers found (edges5):

- ``cardc diff`` left out a variant's ``use:`` list (the library modules it switches on, as
  ``use: [dice]``): it now shows the modules used before and after, with the game's values.
- The errata sheet said "New rule: ..." of a verb or native that ``game.cards`` declares and
  Python implements when a variant gives it a DSL body: it is that rule changed, as the table
  above it says, and now reads so ('Every "..." of the rules now reads "...": ...').
- A variant's ``use: [dice]`` in a game that declares its own ``difference`` warned
  ``library-hidden`` at game.cards' ``native difference``, which the variant's author cannot
  rename; the variant's cards call the game's ``difference`` as every card of the game does
  (and a call is checked against it), so the variant is told nothing. The game's own ``use``
  still warns at its declaration.
- ``play self`` in a flow phase was "'self' is not a card of this game"; it is
  ``self-in-flow``, as ``discard self`` is.
- Incredible Expeditions: a card that Faces an Encounter while one is Faced was refused at
  the flow's ``fire facing`` (flow.cards, inside ``face_encounter``); it is refused at the
  card's own line, the window named after it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import copied_project, run_scenarios
from test_variant_hardening import run

pytestmark = pytest.mark.usefixtures("fresh_file_cache")

UP = "uncharted_passage"
IE = "incredible_expeditions"

#: A house rule switching on the dice module (Uncharted Passage declares its own `difference`).
ROGUE_WAVES = """\
description: Rogue waves (a house rule)
use: [dice]
flow:
  - insert: |
      phase rogue_waves "Rogue waves" {
        for each captain in players {
          if doubles(2d6) { ship_damage 1 }
        }
      } @provisional("a house rule")
    after: sailing_and_anchoring
"""


def _variant(project: Path, game: str, name: str, text: str) -> Path:
    path = project / "cards" / game / "variants" / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# -- 1. cardc diff shows a variant's use:


def test_diff_shows_the_library_modules_a_variant_uses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(project, UP, "rogue_waves", ROGUE_WAVES)
    errata = project / "errata.md"
    status, out = run(capsys, "diff", UP, f"{UP}/rogue_waves", "--errata", str(errata))
    assert status == 0, out
    # The game block's `use counters`, and the variant's dice beside it.
    assert "game:\n  use: counters -> counters, dice\n" in out, out
    assert "1 game value changed;" in out, out
    assert "| use | counters | counters, dice |" in errata.read_text(encoding="utf-8")
    # Two versions using the same modules differ in none.
    status, out = run(capsys, "diff", f"{UP}/rogue_waves", f"{UP}/rogue_waves")
    assert status == 0, out
    assert "use:" not in out, out


def test_readme_lists_the_modules_used_among_what_diff_compares() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    start = readme.index("`cardc diff GAME[/A] GAME/B` compares")
    said = " ".join(readme[start : readme.index(";", start)].split())
    assert "the standard-library modules used" in said, said


# -- 2. the errata says a Python verb or native given a DSL body is changed, not new


def test_errata_says_a_python_native_given_a_dsl_body_is_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(
        project,
        UP,
        "agreement",
        "description: rivals on one space share\n"
        "verbs: |\n"
        '  function cooperative() bool "rivals on one space share as partners do" = true\n',
    )
    errata = project / "errata.md"
    status, out = run(capsys, "diff", UP, f"{UP}/agreement", "--errata", str(errata))
    assert status == 0, out
    text = errata.read_text(encoding="utf-8")
    assert "New rule" not in text, text
    assert (
        '- Every "the 2-player cooperative mode" of the rules now reads "rivals on one space '
        "share as partners do\": yes \\(it was worked out by the game's Python\\)." in text
    ), text


def test_errata_says_a_python_verb_given_a_dsl_body_is_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    # README's own example: Uncharted Passage's `raid` (game.cards, its Python) redefined.
    _variant(
        project,
        UP,
        "raid",
        "description: a Pirate's Raid deals 1 more damage\n"
        "verbs: |\n"
        '  verb raid(damage number) "the difference of two dice and one more" {\n'
        "    fire pirate_raid with damage damage + 1 { mark durability damage }\n"
        "  }\n",
    )
    errata = project / "errata.md"
    status, out = run(capsys, "diff", UP, f"{UP}/raid", "--errata", str(errata))
    assert status == 0, out
    lines = [
        line for line in errata.read_text(encoding="utf-8").splitlines() if line.startswith("- ")
    ]
    assert len(lines) == 1, lines
    assert lines[0].startswith(
        '- Every "roll two dice and take Ship Damage equal to the difference, through the '
        'pirate\\_raid window" of the rules now reads "the difference of two dice and one '
        'more": '
    ), lines
    assert lines[0].endswith("\\(it was done by the game's Python\\)."), lines


def test_errata_still_says_a_verb_new_to_the_variant_is_a_new_rule(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(
        project,
        UP,
        "new_verb",
        "description: a new verb\n"
        "verbs: |\n"
        '  verb splice_rope() "splice a rope" { gain prestige 1 }\n',
    )
    errata = project / "errata.md"
    status, out = run(capsys, "diff", UP, f"{UP}/new_verb", "--errata", str(errata))
    assert status == 0, out
    assert "- New rule: splice a rope." in errata.read_text(encoding="utf-8")


# -- 3. a variant's use: of a module whose name the game declares warns no one


def test_a_variants_module_hidden_by_the_games_own_native_gives_no_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(project, UP, "rogue_waves", ROGUE_WAVES)
    status, out = run(capsys, "check")
    assert status == 0, out
    # Was: game.cards:106:10: warning[library-hidden]: with the variant 'rogue_waves': the
    # game's own native 'difference' hides the standard library's 'difference' ...
    assert "library-hidden" not in out, out
    assert "warning" not in out, out


def test_the_games_own_use_still_warns_at_the_native_it_hides(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    game = project / "cards" / UP / "game.cards"
    text = game.read_text(encoding="utf-8")
    assert "  use counters\n" in text
    game.write_text(text.replace("  use counters\n", "  use counters, dice\n"), encoding="utf-8")
    status, out = run(capsys, "check")
    assert status == 0, out
    # The native's line, wherever game.cards has it now (it grows as natives are declared).
    line = next(
        n for n, row in enumerate(text.splitlines(), 1) if row.startswith("  native difference ")
    )
    assert (
        f"cards/{UP}/game.cards:{line}:10: warning[library-hidden]: the game's own native "
        "'difference' hides the standard library's 'difference' of 'use dice' "
        f"(cards/{UP}/game.cards:8:17)" in out
    ), out


# -- 4. play self in a flow phase is self-in-flow


def test_play_self_in_a_flow_phase_is_self_in_flow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(
        project,
        UP,
        "house",
        "description: a phase playing itself\n"
        "flow:\n"
        "  - insert: |\n"
        "      phase tidy { play self }\n"
        "    before: planning\n",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"cards/{UP}/variants/house.yaml:4:25: error[self-in-flow]: the flow is no card, so "
        "'self' means nothing here" in out
    ), out
    assert "is not a card of this game" not in out, out
    assert "1 error" in out, out


def test_play_of_a_card_by_name_in_a_flow_phase_still_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(
        project,
        UP,
        "house",
        "description: a phase offering Rum\n"
        "flow:\n"
        "  - insert: |\n"
        "      phase tidy { play rum }\n"
        "    before: planning\n",
    )
    status, out = run(capsys, "check")
    assert status == 0, out


# -- 5. a card Facing an Encounter while one is Faced is refused at its own line

DOUBLE_TROUBLE = """\
@provisional("a test card")
encounter "Double Trouble" {
  type mechanical
  difficulty heroism 1
  on facing {
    face_encounter
  }
}
"""

NESTED_FACE = """\
scenario: an Encounter that Faces another while it is Faced
game: incredible_expeditions
mode: competitive
given:
  player:
    counters: {heroism: 3}
do:
  - action: face_encounter
    args: {encounter: double_trouble}
expect:
  player:
    counters: {heroism: 2}
"""


def test_a_card_facing_an_encounter_while_one_is_faced_is_refused_at_its_line(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    generated = built_copy(IE, {"double_trouble.cards": DOUBLE_TROUBLE})
    flow = (generated.parent / "cards" / IE / "flow.cards").read_text(encoding="utf-8")
    window = next(
        f"{number}:{line.index('fire facing') + 1}"
        for number, line in enumerate(flow.splitlines(), start=1)
        if "fire facing with" in line
    )
    [result] = run_scenarios(generated, NESTED_FACE, tmp_path / "nested.yaml")
    assert not result.passed
    # Was: cards/incredible_expeditions/flow.cards:216:5: 'facing' fires itself ...
    assert (
        f"a rule refused this step: cards/{IE}/double_trouble.cards:6:5: 'facing' fires itself "
        "while it runs, which would never end: Double Trouble's 'on facing' opens it again "
        f"(the window at cards/{IE}/flow.cards:{window})" in result.message
    ), result.message
