"""Rough edges of the tooling that testers found (edges6):

- A variant's ``remove: [rum, rum]`` (or ``remove_kinds: [mid_event, mid_event]``) was taken
  without a word; a name given twice is an error at the second, as a flow phase removed twice
  is.
- ``cardc check`` did not read a variant's own ``sheets/<variant>.reference.yaml``: its shape
  was first checked by ``cardc build``, and a phase it names that the variant's flow lacks was
  never printed, with no error anywhere. Both ``cardc check`` and ``cardc build`` now refuse
  it at its line, as they do the game's reference.yaml.
- ``function prestige() number = ...`` beside ``counter prestige`` was accepted: ``prestige``
  read the counter and ``prestige()`` called the function, so a call that lost its brackets
  read the counter unseen (a function alone is told "call it, prestige()"). A function, or a
  native ``game.cards`` declares, with a counter's, track's, zone's, symbol's or parameter's
  name is ``duplicate-name`` at its line; a verb may still share one (a statement never meets
  a value: Uncharted Passage's verb and symbol ``gain_port_card``).
- ``play self`` in a card was "'self' is not a card of this game". README: "``play X`` runs
  X's own ``on play``", and ``self`` in a card is the card (``discard self``): it now offers
  the card itself, as ``play lime_juice`` offers Lime Juice (held, asked, discarded, its
  ``on play`` run), printed "play this card". In a flow phase it stays ``self-in-flow``.
- ``cardc test --variant nope`` failed every scenario with the same message; a variant no
  compiled game has is a usage error, said once (exit 2) with the variants there are.
- ``cardc diff --errata ""`` wrote nothing and said nothing (exit 0); it is a usage error
  asking for a .md or .html file. ``cardc sim --log --json`` printed the logbook and no JSON;
  ``--log`` (or ``--log-game``) with ``--json``, ``--report``, ``--compare`` or ``--merge`` is
  a usage error, since a logbook is no run's figures.
- ``cardc check notes.txt`` (and ``cardc fmt``, ``cardc parse``) read any file named as card
  text: a screen of syntax errors, or, for a file of a game's folder such as ``natives.py``,
  "no errors" for a file never read. A named file that is neither ``.cards`` nor YAML is
  ``not-card-file``, saying which files the command takes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from probing import copied_project, diagnostics_with_card_file
from test_edges5 import _variant
from test_variant_hardening import run

pytestmark = pytest.mark.usefixtures("fresh_file_cache")

UP = "uncharted_passage"
REPO = Path(__file__).resolve().parent.parent


# -- 1. a card or kind named twice in remove / remove_kinds


def test_a_card_removed_twice_is_an_error_at_the_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(project, UP, "dry", "description: no rum\nremove: [rum, rum]\n")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"cards/{UP}/variants/dry.yaml:2:15: error[variant-path]: 'rum' is named twice in "
        "remove: it is already there at line 2, column 10" in out
    ), out
    assert "hint: drop one of the two (or name the other card you meant)" in out, out
    assert "1 error" in out, out


def test_a_kind_removed_twice_is_an_error_at_the_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(
        project,
        UP,
        "calm",
        "description: no mid events\nremove_kinds:\n  - mid_event\n  - mid_event\n",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"cards/{UP}/variants/calm.yaml:4:5: error[variant-path]: 'mid_event' is named twice "
        "in remove_kinds: it is already there at line 3, column 5" in out
    ), out
    assert "hint: drop one of the two (or name the other kind you meant)" in out, out
    assert "1 error" in out, out


def test_a_card_removed_and_its_kind_removed_is_no_duplicate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two lists, two meanings: the whole kind, and (redundantly, harmlessly) one of its cards.
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(
        project,
        UP,
        "calm",
        "description: calm\nremove: [anti_piracy_mission]\nremove_kinds: [mid_event]\n",
    )
    status, out = run(capsys, "check")
    assert status == 0, out


# -- 2. a variant's own sheets/<variant>.reference.yaml is checked by cardc check

TWO_AT_A_TIME = f"cards/{UP}/sheets/port_cards_two_at_a_time.reference.yaml"


def _own_reference(project: Path, text: str) -> str:
    """The Port Cards house rule's own reference with ``text`` added at its end; the line
    number of the first added line."""
    path = project / TWO_AT_A_TIME
    before = path.read_text(encoding="utf-8")
    path.write_text(before + text, encoding="utf-8")
    return str(before.count("\n") + 1)


def test_check_refuses_a_phase_the_variants_flow_lacks_in_its_own_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    first = int(
        _own_reference(
            project, "phases:\n  items:\n    - phase: planing\n      item: [Planning, text]\n"
        )
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"{TWO_AT_A_TIME}:{first + 2}:14: error[reference-shape]: phases.items: 'planing' is "
        f"not a phase of the flow of {UP} with the variant port_cards_two_at_a_time" in out
    ), out
    assert "hint: did you mean 'planning'?" in out, out
    # cardc build says the same (it printed the sheet without the entry).
    status, out = run(capsys, "build", UP)
    assert status == 1, out
    assert f"{TWO_AT_A_TIME}:{first + 2}:14: error[reference-shape]" in out, out


def test_check_refuses_an_omitted_phase_a_variant_removes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The game's flow has logbook_line; a variant without it cannot omit it from its sheet.
    project = copied_project(tmp_path, monkeypatch, UP)
    variant = project / f"cards/{UP}/variants/port_cards_two_at_a_time.yaml"
    variant.write_text(
        variant.read_text(encoding="utf-8") + "flow:\n  - remove: logbook_line\n",
        encoding="utf-8",
    )
    first = int(_own_reference(project, "phases:\n  omit: [logbook_line]\n"))
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"{TWO_AT_A_TIME}:{first + 1}:10: error[reference-shape]: phases.omit: 'logbook_line' "
        f"is not a phase of the flow of {UP} with the variant port_cards_two_at_a_time" in out
    ), out


def test_check_reads_the_shape_of_a_variants_own_reference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    first = _own_reference(project, "phases: 3\n")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"{TWO_AT_A_TIME}:{first}:9: error[reference-shape]: 'phases' holds intro, from, items "
        "and omit" in out
    ), out


def test_a_variants_own_reference_naming_its_phases_checks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A phase the variant inserts is one its own reference may describe; the game's own
    # reference is not held to the variant's flow.
    project = copied_project(tmp_path, monkeypatch, UP)
    reference = project / f"cards/{UP}/sheets/storm_season.reference.yaml"
    reference.write_text(
        "phases:\n  items:\n    - phase: storm_season\n      item: [Storm Season, a house rule]\n",
        encoding="utf-8",
    )
    status, out = run(capsys, "check")
    assert status == 0, out


# -- 3. a function or native with a value's name


def test_a_function_named_as_a_counter_is_refused_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        UP,
        'rule "Fame" {\n  on critical_damage { score prestige }\n}\n'
        'function prestige() number "twice the prestige" = 2 * prestige\n',
    )
    assert [(d.code, d.span.line, d.span.column) for d in found] == [("duplicate-name", 4, 1)]
    [problem] = found
    assert problem.message == (
        f"'prestige' is already a counter of this game (declared at cards/{UP}/game.cards:15:11): "
        "a function cannot take its name"
    ), problem.message
    assert problem.hints == (
        "give the function a name of its own, such as prestige_value: in an expression "
        "'prestige' is the counter, and 'prestige()' would be the function",
    ), problem.hints


@pytest.mark.parametrize(
    "name, what", [("durability", "track"), ("rounds", "parameter"), ("missions", "zone")]
)
def test_a_function_named_as_a_track_param_or_zone_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, what: str
) -> None:
    found = diagnostics_with_card_file(
        tmp_path, monkeypatch, UP, f'function {name}() number "a number" = 1\n'
    )
    assert [(d.code, d.span.line) for d in found] == [("duplicate-name", 1)], found
    assert found[0].message.startswith(f"'{name}' is already a {what} of this game"), found


def test_a_variants_function_named_as_a_counter_is_refused_in_its_yaml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(
        project,
        UP,
        "house",
        'description: a house rule\nverbs: |\n  function armament() number "the guns" = 6\n',
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"cards/{UP}/variants/house.yaml:3:3: error[duplicate-name]: 'armament' is already a "
        "counter of this game" in out
    ), out


def test_a_native_named_as_a_counter_is_refused_at_its_declaration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    game = project / "cards" / UP / "game.cards"
    text = game.read_text(encoding="utf-8")
    assert "  counter specialties\n" in text
    game.write_text(
        text.replace(
            "  counter specialties\n",
            '  counter specialties\n  native armament "the guns" { returns number }\n',
        ),
        encoding="utf-8",
    )
    (project / "cards" / UP / "guns.cards").write_text(
        'function armament() number "the guns" = 6\n', encoding="utf-8"
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"cards/{UP}/game.cards:19:10: error[duplicate-name]: 'armament' is already a counter "
        f"of this game (declared at cards/{UP}/game.cards:17:40): a native cannot take its name"
        in out
    ), out
    # Said once, at the declaration: the function implementing it is not blamed again.
    assert "1 error" in out, out


def test_a_verb_may_share_a_counters_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A verb is a statement, where no value goes (the shipped verb and symbol gain_port_card).
    found = diagnostics_with_card_file(
        tmp_path,
        monkeypatch,
        UP,
        'verb prestige() "gain a prestige" { gain prestige 1 }\n'
        'rule "Fame" {\n  on critical_damage { prestige }\n}\n',
    )
    assert found == [], found


# -- 4. play self in a card is the card itself

ECHO = """\
card "Echo" {
  copies 1 @provisional("a test card")
  on market { play self }
  on play { gain coins 2 }
}
"""

ECHO_PLAYED = """\
scenario: a card that plays itself when the market opens
game: pebble
given:
  player:
    zones: {hand: [echo, lucky_find]}
choices:
  - play.echo: yes
do:
  - run: echo.market
expect:
  player:
    counters: {coins: 2}
    zones: {hand: [lucky_find]}
  events: [play player 1 echo]
"""


def test_play_self_in_a_card_offers_the_card_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "new", "pebble")[0] == 0
    project = tmp_path / "pebble"
    monkeypatch.chdir(project)
    game = project / "cards" / "pebble" / "game.cards"
    text = game.read_text(encoding="utf-8")
    assert "  zone hand\n" in text
    game.write_text(
        text.replace("  zone hand\n", '  zone hand\n  trigger market "when the market opens"\n'),
        encoding="utf-8",
    )
    (project / "cards" / "pebble" / "echo.cards").write_text(ECHO, encoding="utf-8")
    status, out = run(capsys, "check")
    # Was: echo.cards:3:18: error[name-undefined]: 'self' is not a card of this game
    assert status == 0, out
    status, out = run(capsys, "build")
    assert status == 0, out
    sheet = (project / "generated" / "sheets" / "pebble" / "pebble.md").read_text("utf-8")
    assert "When the market opens, play this card." in sheet, sheet
    scenario = project / "tests" / "scenarios" / "pebble" / "echo.yaml"
    scenario.write_text(ECHO_PLAYED, encoding="utf-8")
    status, out = run(capsys, "test", str(scenario))
    assert status == 0, out
    assert "1 of 1 scenarios passed" in out, out


def test_play_self_in_a_flow_phase_is_still_self_in_flow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(
        project,
        UP,
        "house",
        "description: a phase playing itself\nflow:\n"
        "  - insert: |\n      phase tidy { play self }\n    before: planning\n",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert "error[self-in-flow]" in out, out


def test_play_self_in_a_dsl_verb_says_the_verb_is_no_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = diagnostics_with_card_file(
        tmp_path, monkeypatch, UP, 'verb toast() "raise a glass" {\n  play self\n}\n'
    )
    assert [(d.code, d.span.line, d.span.column) for d in found] == [
        ("self-in-definition", 2, 8)
    ], found
    assert found[0].message == (
        "'toast' is a verb or function, no card: 'play self' in it would play whichever card "
        "called it"
    ), found[0].message
    assert found[0].hints == (
        "name the card (play lime_juice), or write play self in the card's own trigger",
    )


# -- 5. cardc test --variant of no game is a usage error, said once


def test_test_with_a_variant_no_game_has_is_one_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    logbook = f"tests/scenarios/{UP}/logbook.yaml"
    status, out = run(capsys, "test", "--variant", "harsher_se", logbook)
    assert status == 2, out
    assert out.count("harsher_se'") == 1, out
    assert out.startswith(
        "cardc test: no game has a variant 'harsher_se' (--variant); the variants there are: "
    ), out
    assert f"; {UP}: harsher_sea, no_mid_event, port_cards_two_at_a_time," in out, out
    assert "  hint: did you mean 'harsher_sea'?" in out, out
    assert "FAIL" not in out and "scenarios passed" not in out, out


def test_test_with_a_variant_of_no_name_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    status, out = run(capsys, "test", "--variant", "../up", f"tests/scenarios/{UP}/logbook.yaml")
    assert status == 2, out
    assert out.startswith("cardc test: --variant '../up' is not a variant name"), out


def test_test_with_a_variant_a_game_has_still_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # README's own example: harsher_sea changes what three of logbook.yaml's scenarios see.
    monkeypatch.chdir(REPO)
    status, out = run(
        capsys, "test", "--variant", "harsher_sea", f"tests/scenarios/{UP}/logbook.yaml"
    )
    assert status == 1, out
    assert "9 scenarios passed" in out, out


# -- 6. cardc diff --errata "" and cardc sim --log --json are usage errors


def test_diff_with_an_empty_errata_name_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    status, out = run(capsys, "diff", UP, f"{UP}/harsher_sea", "--errata", "")
    assert status == 2, out
    assert out == (
        "cardc: --errata needs a file name: name a .md or .html file (--errata errata.md)\n"
    ), out


@pytest.mark.parametrize(
    "extra, option",
    [
        (["--log", "--json"], "--json"),
        (["--log", "--report", "run.html"], "--report"),
        (["--log-game", "2", "--compare", "harsher_sea"], "--compare"),
    ],
)
def test_sim_log_with_what_asks_for_a_runs_figures_is_a_usage_error(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    option: str,
) -> None:
    monkeypatch.chdir(REPO)
    report = tmp_path / "run.html"
    extra = [str(report) if e == "run.html" else e for e in extra]
    status, out = run(capsys, "sim", UP, *extra)
    assert status == 2, out
    logbook = extra[0]
    assert out == (
        f"cardc sim: {logbook} prints one game's logbook, not a run's figures, so {option} "
        f"cannot go with it\n  hint: leave out {logbook} for the run's figures ({option}), "
        f"or {option} for the logbook\n"
    ), out
    assert not report.exists()


def test_sim_log_alone_still_prints_the_logbook(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    status, out = run(capsys, "sim", UP, "--seed", "1", "--log", "--quiet")
    assert status == 0, out
    assert out.startswith("Uncharted Passage: Remastered: logbook of game 1"), out


# -- 7. a named file that is no card file is refused, saying what the command takes


def test_check_refuses_a_named_file_that_is_no_card_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    (project / "notes.txt").write_text("remember the lime juice\n", encoding="utf-8")
    status, out = run(capsys, "check", "notes.txt")
    assert status == 1, out
    # Was: notes.txt:1:24: error[missing-body]: a declaration needs a body in braces
    assert out == (
        "notes.txt:1:1: error[not-card-file]: 'notes.txt' is not a card file: cardc check reads "
        ".cards files, folders of them and a game's variants (.yaml)\n"
        "  hint: card files end in .cards; name one, or a folder holding some\n\n"
        "1 error, 0 warnings\n"
    ), out


def test_check_of_a_games_python_says_to_check_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    copied_project(tmp_path, monkeypatch, UP)
    natives = f"cards/{UP}/natives.py"
    status, out = run(capsys, "check", natives)
    # Was: "checked 1 game ...: no errors", natives.py never read as what it was named as.
    assert status == 1, out
    assert f"{natives}:1:1: error[not-card-file]: '{natives}' is not a card file" in out, out
    assert f"  hint: a game's other files are checked with its cards: cardc check cards/{UP}\n" in (
        out
    ), out
    # Card files and a game's variant are still read as before.
    assert run(capsys, "check", f"cards/{UP}/voyages.cards")[0] == 0
    assert run(capsys, "check", f"cards/{UP}/variants/harsher_sea.yaml")[0] == 0


@pytest.mark.parametrize(
    "argv, takes",
    [
        (["fmt", "--check"], "cardc fmt formats .cards files and folders of them"),
        (["parse", "--json"], "cardc parse reads a .cards file"),
    ],
)
def test_fmt_and_parse_refuse_a_named_file_that_is_no_card_file(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    takes: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("remember the lime juice\n", encoding="utf-8")
    status, out = run(capsys, *argv, "notes.txt")
    assert status == 1, out
    assert f"notes.txt:1:1: error[not-card-file]: 'notes.txt' is not a card file: {takes}\n" in (
        out
    ), out
    assert "missing-body" not in out, out
    assert notes.read_text(encoding="utf-8") == "remember the lime juice\n"
