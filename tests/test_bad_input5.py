"""Bad input, as a designer who read only the README gives it, in a ``cardc new`` project:
each case a defect found by the fifth bad-input hunt, told now at its file, line and column
with what to do.

- scripted dice that run out, or a die the roll cannot show, are the scenario's mistake,
  never a rule's refusal a scenario could expect ("Running out of dice or choices fails at
  once"), and are told at the step or at the die;
- a question with no scripted answer left is told at the step that asks it (it was line 1);
- YAML that does not parse (a tab, a key given twice, ``a: b: c``) says how to fix it, and a
  scenario's says its column too; the language server put a scenario's problem at the line
  its column named;
- a variant, scenario or reference.yaml that is not UTF-8 names the byte's line and column,
  as a card file does (a reference.yaml was an internal error of ``cardc sheets``), and
  ``cardc build``/``sheets`` tell a reference.yaml's problem at its line, not at ``cards:1:1``;
- an empty scenario file fails saying so; a ``.yml`` scenario runs under ``cardc test`` as
  pytest runs it, and a ``.yml`` variant is named rather than skipped;
- a natives.py with a syntax error reads "cannot be loaded: ..."; ``cardc sweep`` heads its
  messages ``cardc sweep``;
- a DSL verb or function named as the prelude's or a ``use``d module's is told to take
  another name (the hint said to declare it as a native, and named cardc's own file);
- a scenario named to ``cardc check`` or ``cardc fmt``, or a card file to ``cardc test``, is
  told which command reads it, not parsed as the other language;
- ``cardc new`` refuses a keyword as a game's name, and no game may be named ``schema`` or
  ``sheets`` (folders of ``generated/``); ``cardc check`` refuses a reference phase the flow
  lacks, as the build does;
- a variant's value of another type is told as YAML spells it; too many ``players:`` at the
  number; ``cardc sheets --variant`` of no such variant fails rather than claim its sheets; an
  errata sheet in a missing folder names the file, not cardc's temporary one;
- a game's scenario hooks are held to their shape at ``cardc check``, and one that raises is
  told as the game's Python at the line that raised.
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

import pytest

from compiler.cli import main

MORE = """\
card "Gamble" {
  copies 1
  on play {
    may { gain coins 1d6 } @label("bet")
    choose one of { gain coins 1; score 1 } @label("pick")
  }
}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ``cardc new`` project with a card that rolls and asks, built without sheets."""
    root = tmp_path_factory.mktemp("built")
    here = Path.cwd()
    try:
        os.chdir(root)
        assert main(["new", "pebble"]) == 0
        project = root / "pebble"
        (project / "cards" / "pebble" / "more.cards").write_text(MORE)
        os.chdir(project)
        assert main(["build", "--no-sheets"]) == 0
    finally:
        os.chdir(here)
    return project


@pytest.fixture
def project(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Path:
    """A fresh copy of the built project, the current folder."""
    copy = tmp_path / "pebble"
    shutil.copytree(built, copy)
    monkeypatch.chdir(copy)
    capsys.readouterr()
    return copy


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """``cardc ARGS`` in this process: its exit status and everything it printed."""
    status = main(list(args))
    out = capsys.readouterr()
    return status, out.out + out.err


SCENARIO = "tests/scenarios/pebble/bad.yaml"


def scenario(capsys: pytest.CaptureFixture[str], text: str | bytes) -> tuple[int, str]:
    """Write the scenario file and run it alone."""
    path = Path(SCENARIO)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return run(capsys, "test", SCENARIO)


# -- scripted dice and choices


def test_dice_that_run_out_cannot_be_expected_as_a_refusal(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every die used up is the scenario's mistake: it passed as the refusal "die".
    text = (
        "scenario: x\ngame: pebble\nchoices:\n  - gamble.play.bet: yes\ndo:\n"
        '  - run: gamble.play\nexpect: {refused: "die"}\n'
    )
    status, out = scenario(capsys, text)
    assert status == 1, out
    assert "0 of 1 scenarios passed" in out
    assert f"{SCENARIO}:6: this step rolls a d6 at cards/pebble/more.cards:4:" in out
    assert "scripted dice are used up (0 given)" in out
    assert "add the roll's result, 1 to 6, to 'dice:'" in out
    assert "a rule refused" not in out


def test_a_die_the_roll_cannot_show_is_told_at_the_die(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        "scenario: x\ngame: pebble\ndice: [3, 7]\nchoices:\n  - gamble.play.bet: yes\n"
        "  - gamble.play.pick: gain\n  - gamble.play.bet: yes\ndo:\n  - run: gamble.play\n"
        '  - run: gamble.play\n    expect: {refused: "d6"}\n'
    )
    status, out = scenario(capsys, text)
    assert status == 1, out
    # The 7 is line 3, column 11; the step rolling it is line 10.
    assert (
        f"{SCENARIO}:3:11: the scripted die 7 (number 2 of 'dice:') cannot come up on the d6 "
        "that the step at line 10 rolls" in out
    )
    assert "give a number from 1 to 6" in out


def test_a_question_with_no_answer_left_is_told_at_the_step_asking_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        "scenario: x\ngame: pebble\ndo:\n  - run: lucky_find.play\n  - run: gamble.play\n"
        "expect: {player: {counters: {coins: 2}}}\n"
    )
    status, out = scenario(capsys, text)
    assert status == 1, out
    # It said line 1 (the scenario's first line) whatever asked.
    assert f"{SCENARIO}:5: the scenario has no choice left, but the engine asks" in out
    assert "add its answer to 'choices:' (- gamble.play.bet: ANSWER)" in out


# -- YAML that does not parse, or is not UTF-8


@pytest.mark.parametrize(
    "text, where, hint",
    [
        ("scenario: x\ngame: pebble\ngiven:\n\tplayer: {}\n", "4:1", "indent with spaces"),
        ("scenario: x\ngame: pebble\ngame: pebble\n", "3:1", "give each key once"),
        ("scenario: x: y\ngame: pebble\n", "1:12", "quote a value that holds ': '"),
    ],
)
def test_a_scenario_that_is_not_yaml_is_told_at_its_column_with_the_fix(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, where: str, hint: str
) -> None:
    status, out = scenario(capsys, text)
    assert status == 1, out
    assert f"{SCENARIO}:{where}: this is not valid YAML" in out
    assert hint in out


@pytest.mark.parametrize(
    "text, where, hint",
    [
        ("params:\n\trounds: 3\n", "2:1", "indent with spaces"),
        ("params: {rounds: 3}\nparams: {rounds: 4}\n", "2:1", "give each key once"),
        ("description: a: b\n", "1:15", "quote a value that holds ': '"),
    ],
)
def test_a_variant_that_is_not_yaml_says_how_to_fix_it(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, where: str, hint: str
) -> None:
    variant = project / "cards" / "pebble" / "variants" / "h.yaml"
    variant.parent.mkdir(exist_ok=True)
    variant.write_text(text)
    status, out = run(capsys, "check")
    assert status == 1, out
    assert f"cards/pebble/variants/h.yaml:{where}: error[variant-yaml]" in out
    assert f"hint: {hint}" in out


def test_files_that_are_not_utf8_are_told_at_the_byte(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variants = project / "cards" / "pebble" / "variants"
    variants.mkdir(exist_ok=True)
    (variants / "h.yaml").write_bytes(b"description: ok\n# caf\xe9\n")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "cards/pebble/variants/h.yaml:2:6: error[not-utf8]: this file is not valid UTF-8: "
        "byte 0xe9 at line 2, column 6" in out
    )
    assert "hint: save the file as UTF-8" in out
    (variants / "h.yaml").unlink()

    status, out = scenario(capsys, b"scenario: x\n# caf\xe9\ngame: pebble\n")
    assert status == 1, out
    assert f"{SCENARIO}:2:6: this file is not valid UTF-8: byte 0xe9" in out
    assert "save the file as UTF-8" in out
    Path(SCENARIO).unlink()

    (project / "cards" / "pebble" / "reference.yaml").write_bytes(b"x: 1\n# \xff\n")
    status, out = run(capsys, "sheets", "pebble", "--format", "md", "--out", "print")
    assert status != 0
    assert "internal error" not in out
    assert "cards/pebble/reference.yaml:2:3: error[reference-shape]: this file is not" in out


def test_a_reference_problem_in_a_build_is_told_at_its_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reference = project / "cards" / "pebble" / "reference.yaml"
    reference.write_text("tables:\n  - title: [1]\n")
    status, out = run(capsys, "build")
    assert status == 1, out
    # It was "cards:1:1: error[sheet]: /the/absolute/path/reference.yaml:2:5: ...".
    assert "cards/pebble/reference.yaml:2:5: error[reference-shape]: a table needs" in out
    assert "cards:1:1" not in out
    reference.write_text("phases:\n  items:\n    - phase: nope\n      item: [a, b]\n")
    status, out = run(capsys, "sheets", "pebble", "--format", "md", "--out", "print")
    assert status != 0
    assert "cards/pebble/reference.yaml:3:14: error[reference-shape]: phases.items: 'nope'" in out


def test_the_language_server_puts_a_scenario_problem_at_its_line_and_column() -> None:
    pytest.importorskip("pygls")
    from compiler.lsp import scenario_diagnostics

    text = "scenario: x\ngame: pebble\nplayers: 'two'\nexpect: {}\n"
    (found,) = scenario_diagnostics(Path("s.yaml"), text)
    # The problem is at 3:10; the column was read as the line (line 10).
    assert (found.span.line, found.span.column) == (3, 10)


# -- scenario and variant files the commands did not see


def test_an_empty_scenario_file_fails_saying_so(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = scenario(capsys, "# to write\n")
    assert status == 1, out
    assert f"{SCENARIO}:1: this file holds no scenario" in out
    assert "0 of 1 scenarios passed, 1 failed" in out


def test_a_yml_scenario_runs_and_a_yml_variant_is_named(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # pytest collects a .yml scenario; cardc test left it out and passed.
    Path("tests/scenarios/pebble/more.yml").write_text(
        "scenario: yml\ngame: pebble\nexpect: {player: {counters: {coins: 5}}}\n"
    )
    status, out = run(capsys, "test")
    assert status == 1, out
    assert "tests/scenarios/pebble/more.yml:3: expected coins 5, got 0" in out
    Path("tests/scenarios/pebble/more.yml").unlink()

    variants = project / "cards" / "pebble" / "variants"
    variants.mkdir(exist_ok=True)
    (variants / "short.yml").write_text("params: {rounds: 0}\n")
    for command in (("check",), ("build", "--no-sheets")):
        status, out = run(capsys, *command)
        assert status == 1, out
        assert "cards/pebble/variants/short.yml:1:1: error[variant-name]" in out
        assert "hint: rename it short.yaml" in out


# -- the game's Python, the commands' names


def test_natives_with_a_syntax_error_cannot_be_loaded(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "cards" / "pebble" / "natives.py").write_text("def f(:\n")
    status, out = run(capsys, "check")
    assert status == 1, out
    # It read "the game's natives invalid syntax".
    assert "natives.py:1:7: error[natives-broken]: the game's natives cannot be loaded: " in out


def test_sweep_messages_are_headed_by_sweep(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = run(capsys, "sweep", "pebble", "--games", "2", "--param", "rounds=3,,4")
    assert status == 2
    assert out.startswith("cardc sweep: 'rounds' is the game's number of rounds"), out
    status, out = run(capsys, "sweep", "pebble", "--games", "0")
    assert out.startswith("cardc sweep: --games must be at least 1"), out


def test_a_definition_named_as_a_prelude_or_module_verb_takes_another_name(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = project / "cards" / "pebble" / "game.cards"
    game.write_text(game.read_text().replace("  players 1..4\n", "  players 1..4\n  use decks\n"))
    (project / "cards" / "pebble" / "mine.cards").write_text(
        'function shuffle() number "x" = 1\nfunction build_deck() number "x" = 1\n'
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        "mine.cards:1:1: error[duplicate-name]: 'shuffle' is a verb of the decks module "
        "(use decks, at cards/pebble/game.cards:4:" in out
    )
    assert (
        "mine.cards:2:1: error[duplicate-name]: 'build_deck' is a verb of the prelude: a "
        "function of the game cannot take its name" in out
    )
    assert "hint: give yours another name, such as my_build_deck" in out
    assert "declare it as a native" not in out
    assert "prelude.cards" not in out  # cardc's own file is no place of the designer's


def test_a_file_of_the_other_language_is_told_which_command_reads_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lucky = "tests/scenarios/pebble/lucky_find.yaml"
    before = Path(lucky).read_bytes()
    for command in ("check", "fmt"):
        status, out = run(capsys, command, lucky)
        assert status == 1, out
        assert f"{lucky}:1:1: error[not-card-file]: '{lucky}' is a YAML file" in out
        assert f"a scenario runs with: cardc test {lucky}" in out
        assert "trigger-outside" not in out  # not 25 errors of card syntax
    assert Path(lucky).read_bytes() == before
    status, out = run(capsys, "test", "cards/pebble/game.cards")
    assert status == 2
    assert "cards/pebble/game.cards is not a scenario file" in out
    assert "cannot start any token" not in out


# -- game names the project cannot hold


@pytest.mark.parametrize("name", ["if", "on", "true", "flow", "schema", "sheets"])
def test_cardc_new_refuses_a_name_its_starter_game_could_not_use(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    name: str,
) -> None:
    # 'cardc new if' wrote 'game if "If" {', which does not parse; a game 'schema' wrote its
    # scenario schema over generated/schema/scenario.schema.json, the game-independent one.
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(["new", name])
    assert f"cardc new: '{name}' cannot name a game: " in str(stop.value)
    assert f"hint: choose another name, such as my_{name}" in str(stop.value)
    assert not (tmp_path / name).exists()


def test_a_game_named_as_a_folder_of_generated_is_refused_at_its_name(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = project / "cards" / "schema"
    folder.mkdir()
    game = (project / "cards" / "pebble" / "game.cards").read_text()
    (folder / "game.cards").write_text(game.replace("game pebble", "game schema"))
    before = Path("generated/manifest.json").read_bytes()
    for command in ("check", "build"):
        status, out = run(capsys, command)
        assert status == 1, out
        assert (
            "cards/schema/game.cards:2:6: error[game-name]: 'schema' cannot name a game: "
            "generated/schema/ holds the JSON Schemas" in out
        )
    assert not Path("generated/schema/handlers.py").exists()
    assert Path("generated/manifest.json").read_bytes() == before


def test_cardc_check_refuses_a_reference_phase_the_flow_lacks_as_the_build_does(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reference = project / "cards" / "pebble" / "reference.yaml"
    reference.write_text("phases:\n  items:\n    - phase: drw\n      item: [Draw, a card]\n")
    # cardc check said "no errors", and the build then failed on it.
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "cards/pebble/reference.yaml:3:14: error[reference-shape]: phases.items: 'drw'" in out
    assert "did you mean 'draw'?" in out
    reference.write_text("phases:\n  items:\n    - phase: draw\n      item: [Draw, a card]\n")
    status, out = run(capsys, "check")
    assert status == 0, out


def test_a_variant_number_of_another_type_is_told_as_yaml_spells_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = project / "cards" / "pebble" / "variants" / "h.yaml"
    variant.parent.mkdir(exist_ok=True)
    variant.write_text("params: {rounds: true}\n")
    status, out = run(capsys, "check")
    assert status == 1, out
    # It read "not True", Python's word, with no hint.
    assert "error[variant-value]: the parameter 'rounds' is a number, not true\n" in out
    assert "hint: write a number, such as rounds: 3" in out


def test_too_many_players_is_told_at_the_number(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = scenario(capsys, "scenario: x\ngame: pebble\nplayers: 7\nexpect: {round: 1}\n")
    assert status == 1, out
    assert (
        f"{SCENARIO}:3:10: Pebble is for 1 to 4 players, not 7; give 'players:' a number "
        "from 1 to 4" in out
    )


def test_sheets_of_a_variant_the_game_lacks_is_an_error_not_a_claim(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It built, printed "sheets: generated/sheets/pebble/nope.*" (no such files) and exited 0.
    status, out = run(capsys, "sheets", "pebble", "--variant", "nope")
    assert status == 2, out
    assert "cardc sheets: error: 'nope' is not a variant of pebble" in out
    assert "generated/sheets/pebble/nope" not in out
    assert not list(Path("generated/sheets").glob("pebble/nope.*"))


def test_an_errata_sheet_in_a_missing_folder_names_it_not_a_temporary_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variants = project / "cards" / "pebble" / "variants"
    variants.mkdir(exist_ok=True)
    (variants / "h.yaml").write_text("params: {rounds: 5}\n")
    target = project / "missing" / "errata.md"
    status, out = run(capsys, "diff", "pebble", "pebble/h", "--errata", str(target))
    assert status == 1, out
    # It said "cannot use .../missing/.errata.md.gmfenj7z.tmp".
    assert f"cardc: cannot use {target}: {os.strerror(errno.ENOENT)}" in out
    assert "hint: check the path, and that its folder exists" in out
    assert ".tmp" not in out


# -- a game's scenario hooks in its Python

HOOKS = """\
from engine.scenario_types import Number


def given_lucky(g, player, value):
    \"\"\"How lucky the table is.\"\"\"
    raise ValueError("bad luck")


def expect_lucky(g, player):
    \"\"\"How lucky the table is.\"\"\"
    return 1 / 0


GIVEN = {"lucky": given_lucky}
EXPECT = {"lucky": expect_lucky}
GIVEN_KINDS = {"lucky": Number()}
EXPECT_KINDS = {"lucky": Number()}
"""


@pytest.mark.parametrize(
    "old, new, where, words",
    [
        # 'cardc check' passed, then 'cardc build' stopped: internal error, AttributeError.
        (
            'GIVEN_KINDS = {"lucky": Number()}',
            'GIVEN_KINDS = {"lucky": "number"}',
            16,
            "GIVEN_KINDS is a dict of names to kinds of engine.scenario_types, and 'lucky' is "
            "'number', which is no kind",
        ),
        # Passed 'cardc check', then every scenario naming it was an "internal error".
        (
            "def given_lucky(g, player, value):",
            "def given_lucky(g, value):",
            4,
            "GIVEN['lucky'] is called as hook(g, player, value), and given_lucky cannot take that",
        ),
    ],
)
def test_scenario_hooks_that_cannot_be_used_are_an_error_at_their_line(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    where: int,
    words: str,
) -> None:
    natives = project / "cards" / "pebble" / "natives.py"
    natives.write_text(HOOKS.replace(old, new))
    for command in ("check", "build"):
        status, out = run(capsys, command)
        assert status == 1, out
        assert f"cards/pebble/natives.py:{where}:1: error[natives-broken]: " in out
        assert words in out
        assert "internal error" not in out


def test_a_scenario_hook_that_fails_is_the_games_python_at_the_line_that_raised(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "cards" / "pebble" / "natives.py").write_text(HOOKS)
    assert run(capsys, "build", "--no-sheets")[0] == 0
    status, out = scenario(
        capsys, "scenario: x\ngame: pebble\ngiven: {lucky: 3}\nexpect: {round: 1}\n"
    )
    assert status == 1, out
    assert (
        f"{SCENARIO}:3: the game's Python failed in GIVEN['lucky'], cards/pebble/natives.py:6: "
        "ValueError: bad luck" in out
    )
    status, out = scenario(capsys, "scenario: x\ngame: pebble\nexpect:\n  lucky: 3\n  round: 2\n")
    assert status == 1, out
    assert (
        f"{SCENARIO}:4: the game's Python failed in EXPECT['lucky'], cards/pebble/natives.py:11: "
        "ZeroDivisionError" in out
    )
    # Every other expectation is still checked.
    assert f"{SCENARIO}:5: expected round 2, got 1" in out
    assert "internal error" not in out


@pytest.mark.parametrize(
    "text, words",
    [
        # An internal error ('str' object has no attribute 'check') of every scenario
        # giving the hand.
        ('ZONE_KINDS = {"hand": "card"}\n', "ZONE_KINDS is a dict of names to kinds"),
        # Never read, without a word: any card went into the hand.
        (
            'ZONE_KINDS = {"hnd": Id("card:card", "a card")}\n',
            "ZONE_KINDS names 'hnd', which is not a zone of this game",
        ),
        ('DECKS = ("hnd",)\n', "DECKS names 'hnd', which is not a zone of this game"),
    ],
)
def test_the_zones_a_games_python_names_are_the_games(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, words: str
) -> None:
    natives = project / "cards" / "pebble" / "natives.py"
    natives.write_text("from engine.scenario_types import Id\n" + text)
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "cards/pebble/natives.py:2:1: error[natives-broken]: " in out
    assert words in out


def test_cardc_fmt_of_stdin_that_is_not_utf8_is_told_at_the_byte(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    run_ = subprocess.run(
        [sys.executable, "-m", "compiler.cli", "fmt", "-"],
        input=b'card "A" { copies 1 }  # caf\xe9\n',
        capture_output=True,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    err = run_.stderr.decode()
    # It was "cardc: internal error: UnicodeDecodeError" (exit 3) where stdin decodes strictly.
    assert run_.returncode == 1, err
    assert "<stdin>:1:29: error[not-utf8]: this file is not valid UTF-8: byte 0xe9" in err
    assert run_.stdout == b""


def test_a_damaged_compiled_game_is_said_so_not_an_internal_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path("generated/pebble/cards.json").write_text("{\n")
    status, out = run(capsys, "test", "tests/scenarios/pebble/lucky_find.yaml")
    assert status == 1, out
    assert "lucky_find.yaml:4: the compiled game cannot be used: " in out
    assert "cannot be read as JSON" in out and "run 'cardc build'" in out
    assert "internal error" not in out


# -- game.cards declarations no game can hold


@pytest.mark.parametrize(
    "old, new, where, words",
    [
        # Accepted: the game then held coins to both.
        (
            "  counter coins\n",
            "  counter coins { min 5; max 1 }\n",
            "9:26: error[bad-counter]",
            "a counter can be no less than 5 and no more than 1: no value is both",
        ),
        (
            "  counter coins\n",
            "  counter coins { start 9; max 5 }\n",
            "9:19: error[bad-counter]",
            "a counter cannot start at 9, above its max 5",
        ),
        # Left out without a word: each use then said 't' is no track.
        (
            "  counter coins\n",
            "  counter coins\n  track t 0\n",
            "10:11: error[bad-track]",
            "a track has 1 box or more, not 0",
        ),
        # "players must be a range like 1..4", of a range, with no hint.
        (
            "  players 1..4\n",
            "  players 4..2\n",
            "3:3: error[bad-players]",
            "players 4..2: the fewest come first",
        ),
        (
            "  players 1..4\n",
            "  players 0\n",
            "3:11: error[bad-players]",
            "a game is played by 1 player or more, not 0",
        ),
    ],
)
def test_a_declaration_no_game_can_hold_is_one_error_at_its_line(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    where: str,
    words: str,
) -> None:
    game = project / "cards" / "pebble" / "game.cards"
    game.write_text(game.read_text().replace(old, new))
    status, out = run(capsys, "check")
    assert status == 1, out
    assert f"cards/pebble/game.cards:{where}: {words}" in out
    assert "1 error, 0 warnings" in out  # no echo at each use of the name


def test_a_variant_track_of_no_boxes_is_an_error_at_its_value(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = project / "cards" / "pebble" / "game.cards"
    game.write_text(game.read_text().replace("  counter coins\n", "  counter coins\n  track t 5\n"))
    variant = project / "cards" / "pebble" / "variants" / "h.yaml"
    variant.parent.mkdir(exist_ok=True)
    variant.write_text("tracks: {t: 0}\n")
    # It passed 'cardc check', the track dropped from the variant.
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "cards/pebble/variants/h.yaml:1:13: error[bad-track]: a track has 1 box or more" in out
    assert "in a variant: tracks: {t: 10}" in out


@pytest.mark.parametrize(
    "old, new, where, message, hint",
    [
        # The hint spoke of a rule without a trigger.
        (
            "  winner highest\n",
            "  winner highest\n  tiebreak hand\n",
            "flow.cards:17:12: error[name-undefined]",
            "'hand' is not defined here",
            "'hand' is a zone, not a number: count(hand) is how many cards it holds",
        ),
        # It said "a phase needs a block of statements" of a statement with no phase.
        (
            "    phase draw { draw hand 1 }\n",
            "    draw hand 1\n",
            "flow.cards:13:15: error[flow-phase]",
            "a flow section holds phases, each with a name and a block",
            "write: setup { phase deal { draw hand 3 } }",
        ),
    ],
)
def test_a_flow_mistake_is_told_in_the_flows_words(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    old: str,
    new: str,
    where: str,
    message: str,
    hint: str,
) -> None:
    flow = project / "cards" / "pebble" / "flow.cards"
    flow.write_text(flow.read_text().replace(old, new))
    status, out = run(capsys, "check")
    assert status == 1, out
    assert f"cards/pebble/{where}: {message}" in out
    assert f"hint: {hint}" in out


def test_sim_of_a_variant_that_did_not_compile_says_so(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    variants = project / "cards" / "pebble" / "variants"
    variants.mkdir(exist_ok=True)
    (variants / "h.yaml").write_text("params: {roundz: 3}\n")
    status, out = run(capsys, "sim", "pebble", "--variant", "h", "--games", "2")
    assert status == 2, out
    # It said "it has no variants", beside cards/pebble/variants/h.yaml.
    assert (
        "cardc sim: 'pebble' has no compiled variant 'h': cards/pebble/variants/h.yaml is not "
        "compiled" in out
    )
    assert "it has no variants" not in out


def test_a_file_where_the_scenarios_folder_goes_is_said_so(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.rmtree("tests/scenarios")
    Path("tests/scenarios").write_text("scenario: x\n")
    status, out = run(capsys, "test")
    assert status == 2, out
    assert "cardc test: tests/scenarios is a file, where the project's scenarios folder goes" in out
    assert "not a scenario file" not in out


@pytest.mark.parametrize(
    "text, where, words",
    [
        # The IR's schema refused it, "a bug in cardc's lowering, not in your cards".
        ('card "" { }\n', "1:6: error[missing-title]", "this card's title is empty"),
        # Accepted: it ran nothing.
        (
            'card "Z" { on play { repeat -1 { score 1 } } }\n',
            "1:29: error[negative-amount]",
            "'repeat' takes a whole number of times, 0 or more, not -1",
        ),
        # Accepted: the first game to play it stopped with ZeroDivisionError.
        (
            'card "Z" { on play { score coins / 0 } }\n',
            "1:36: error[division-by-zero]",
            "'/' by 0 has no value",
        ),
    ],
)
def test_a_card_that_cannot_mean_anything_is_the_designers_error(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, where: str, words: str
) -> None:
    (project / "cards" / "pebble" / "z.cards").write_text(text)
    status, out = run(capsys, "check")
    assert status == 1, out
    assert f"cards/pebble/z.cards:{where}: {words}" in out
    assert "bug in cardc" not in out
