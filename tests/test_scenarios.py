"""Scenarios that cannot lie (issue 12): every mistake an error at its line, every expectation
checked, refusals expectable, ordered and exact events, stable question ids, a schema per game,
and a ``cardc test`` fit for CI.

Each scenario here is written to a temporary file and run against the repository's
``generated/`` as ``cardc test`` runs it; the messages are compared as a designer reads them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from engine.runtime import Question
from engine.scenario import Runner, ScenarioResult, _plain, load

REPO = Path(__file__).resolve().parent.parent
GENERATED = REPO / "generated"
CARDC = [sys.executable, "-m", "compiler.cli"]


def run(tmp_path: Path, text: str, name: str = "s.yaml") -> list[ScenarioResult]:
    """Run the scenarios of ``text`` as a file."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return list(Runner(GENERATED).run_file(path))


def one(tmp_path: Path, text: str) -> ScenarioResult:
    """The one scenario of ``text``."""
    (result,) = run(tmp_path, text)
    return result


def cardc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """cardc in a subprocess, as a user runs it."""
    env = {k: v for k, v in os.environ.items() if k != "CARDC_DEBUG"}
    return subprocess.run(
        [*CARDC, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False
    )


# -- 1. every expectation is checked; a scenario expecting nothing is an error


def test_a_refusal_no_longer_hides_the_other_expectations(tmp_path: Path) -> None:
    result = one(
        tmp_path,
        """\
        scenario: refused, and wrong about everything else
        game: incredible_expeditions
        mode: competitive
        do:
          - action: face_encounter
            args: {encounter: misty_strait}
        expect:
          refused: "'misty_strait' is a Location on the way from Port City"
          player:
            counters: {money: 99}
          winner: 2
        """,
    )
    assert not result.passed
    assert ":10: expected money 99, got 0" in result.message
    assert ":11: expected winner 2, got None" in result.message


def test_a_scenario_that_expects_nothing_is_an_error(tmp_path: Path) -> None:
    result = one(
        tmp_path,
        """\
        scenario: nothing to expect
        game: uncharted_passage
        do:
          - run: plague.reveal
        """,
    )
    assert not result.passed
    assert "s.yaml:3:1: this scenario expects nothing, so it can never fail" in result.message


# -- 2. every id and key checked against the game, at its line and column


@pytest.mark.parametrize(
    ("game", "body", "where", "words"),
    [
        (
            "uncharted_passage",
            "given:\n  mid_event: anti_piracy\ndo:\n  - run: plague.reveal\n",
            "4:14",
            "'anti_piracy' is not a card; did you mean 'anti_piracy_mission'?",
        ),
        (
            "uncharted_passage",
            "given:\n  player:\n    goods: [wien]\ndo:\n  - run: plague.reveal\n",
            "5:13",
            "'wien' is not a specialty; did you mean 'wine'?",
        ),
        (
            "uncharted_passage",
            "given:\n  player:\n    position: sea_99_99\ndo:\n  - run: plague.reveal\n",
            "5:15",
            "'sea_99_99' is not a place",
        ),
        (
            "uncharted_passage",
            "given:\n  player:\n    tracks: {health: 500}\ndo:\n  - run: plague.reveal\n",
            "5:22",
            "500 is more than 10, the most the boxes of health (10 boxes) can be",
        ),
        (
            "uncharted_passage",
            "do:\n  - run: plague.reveal\n    player: 7\n",
            "5:13",
            "7 is more than 1, the most a player number can be",
        ),
        (
            "uncharted_passage",
            "do:\n  - run: smoke_bomb.pirate_combat\n    quantities: {pirate_powr: 3}\n",
            "5:18",
            "'pirate_powr' is not a quantity of 'pirate_combat'; did you mean 'pirate_power'?",
        ),
        (
            "uncharted_passage",
            "do:\n  - action: reveal\n    args: {card: rockz}\n",
            "5:18",
            "'rockz' is not a card; did you mean 'rocks'?",
        ),
        (
            "uncharted_passage",
            "do:\n  - action: sail\n    args: {distnce: 2}\n",
            "5:12",
            "'distnce' is not a field of the arguments; did you mean 'distance'?",
        ),
        (
            "land_vs_sea",
            "players: 2\ndo:\n  - action: place_tile\n"
            "    args: {cell: [0, 0], tile: {side: land, bonuss: 5}}\n",
            "6:45",
            "'bonuss' is not a field of a one-sided tile; did you mean 'bonus'?",
        ),
        (
            "darwins_journey",
            "do:\n  - fire: campsite_reached\n    event: {campsite: montevidea}\n",
            "5:23",
            "'montevidea' is not a place; did you mean 'montevideo'?",
        ),
        (
            "darwins_journey",
            "choices:\n  - pirate.activate.may1: yes\ndo:\n  - action: setup_diary\n",
            "4:5",
            "'pirate.activate.may1' is not a question of darwins_journey; "
            "did you mean 'pirate.activate.move_pirate_ship'?",
        ),
    ],
)
def test_an_unknown_id_is_an_error_at_its_line_and_column(
    tmp_path: Path, game: str, body: str, where: str, words: str
) -> None:
    text = f"scenario: a mistake\ngame: {game}\n{body}expect:\n  round: 1\n"
    result = one(tmp_path, text)
    assert not result.passed
    assert f"s.yaml:{where}: {words}" in result.message, result.message


@pytest.mark.parametrize(
    ("body", "where", "words"),
    [
        # One item where a list goes: 'is not a list of a scoring layers' (sic), no way out.
        (
            "given:\n  layers: menhir_scoring\n",
            "5:11",
            "'menhir_scoring' is not a list of scoring layers; write it as a list: "
            "[menhir_scoring]",
        ),
        # A cell's own words, not 'a list of a coordinates'.
        (
            "given:\n  board:\n    - {cell: '1,0', side: land}\n",
            "6:14",
            "'1,0' is not a cell [q, r]",
        ),
        # A mapping is told its wrong field, not 'a mapping is not a hex tile' (the other form).
        (
            "given:\n  players:\n    - hand: [{card: coast, face: b}]\n    - {}\n",
            "6:28",
            "'face' is not a field of a held tile; known: card, up",
        ),
        # The score by its rulebook name: the game's score counter is 'points'.
        (
            "given:\n  players:\n    - {score: 5}\n    - {}\n",
            "6:8",
            "'score' is not something a scenario can set for a player; did you mean 'points' "
            "(the game's score)?",
        ),
        # A name where a mapping goes is told the forms (was "'coast' is not a hex tile's face").
        (
            "do:\n  - action: place_tile\n    args: {cell: [0, 0], tile: coast}\n",
            "6:32",
            "'coast' is not a tile; write a hex tile's face {card: ...}, a special tile "
            "{special: ...}, a tile of sections {sections: ...}, a one-sided tile {side: ...} or a "
            "split tile {land: ...}",
        ),
    ],
)
def test_a_value_of_the_wrong_shape_is_told_the_shape_it_takes(
    tmp_path: Path, body: str, where: str, words: str
) -> None:
    text = f"scenario: a mistake\ngame: land_vs_sea\nplayers: 2\n{body}expect:\n  round: 1\n"
    result = one(tmp_path, text)
    assert not result.passed
    assert f"s.yaml:{where}: {words}" in result.message, result.message


def test_player_3_in_a_two_player_game(tmp_path: Path) -> None:
    result = one(
        tmp_path,
        """\
        scenario: a third player
        game: uncharted_passage
        mode: competitive
        do:
          - action: sail
            player: 3
            args: {distance: 1}
        expect:
          round: 1
        """,
    )
    assert "s.yaml:6:13: 3 is more than 2, the most a player number can be" in result.message


def test_every_problem_of_a_scenario_is_reported_at_once(tmp_path: Path) -> None:
    result = one(
        tmp_path,
        """\
        scenario: three mistakes
        game: darwins_journey
        given:
          pirate_region: section_9
          treasure_on: [bahia, montevidea]
        do:
          - action: reach_campsite
            args: {campsite: bahia, extra: 1}
        expect:
          pirate_regio: section_2
        """,
    )
    lines = [line.split("/")[-1] for line in result.message.splitlines()]
    assert lines[0].startswith("s.yaml:4:18: 'section_9' is not an area of the Ocean track")
    assert lines[1].startswith("s.yaml:5:24: 'montevidea' is not a Campsite; did you mean")
    assert lines[2].startswith(
        "s.yaml:8:29: 'extra' is not a field of the arguments; known: campsite"
    )
    assert lines[3].startswith("s.yaml:10:3: 'pirate_regio' is not something a scenario can")


def test_a_player_key_holding_counters_is_pointed_to_counters(tmp_path: Path) -> None:
    """``tokens: {coins: 5}`` (the rulebook's word for what a player holds) said only "15
    known, for example: counters, crew_deck, ...": its keys are the game's counters, which
    the hint now says, with the mapping as it should be written."""
    result = one(
        tmp_path,
        """\
        scenario: tokens for counters
        game: darwins_journey
        given:
          player:
            tokens: {coins: 5, treasure: 1}
        do:
          - action: reward_phase_end
        expect:
          round: 1
        """,
    )
    assert result.message.splitlines()[0].split("/")[-1] == (
        "s.yaml:5:5: 'tokens' is not something a scenario can set for a player; 'coins' and "
        "'treasure' are counters: give them in the player's counters: "
        "counters: {coins: 5, treasure: 1}"
    )


def test_an_exception_inside_a_step_is_that_scenarios_failure_at_its_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.loader import rules_module

    land_vs_sea = rules_module("land_vs_sea")

    def broken(g: Any, player: Any) -> None:
        raise TypeError("a bug in the flow")

    monkeypatch.setitem(land_vs_sea.ACTIONS, "score_trade_routes", broken)
    results = run(
        tmp_path,
        """\
        scenario: the flow breaks
        game: land_vs_sea
        players: 2
        do:
          - action: score_trade_routes
        expect:
          round: 1
        ---
        scenario: the next one still runs
        game: land_vs_sea
        players: 2
        do:
          - action: complete_area
            args: {cell: [0, 0]}
        expect:
          refused: "no tile at"
        """,
    )
    assert [r.passed for r in results] == [False, True]
    assert "s.yaml:5: internal error in this step: TypeError: a bug in the flow" in (
        results[0].message
    )


def test_cardc_test_reports_every_file_and_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "a_broken.yaml").write_text("scenario: [unclosed\n", encoding="utf-8")
    (folder / "b_mistyped.yaml").write_text(
        "scenario: x\ngame: uncharted_passage\ndo:\n  - action: sail\n    args: {distance: 1}\n"
        "    player: 3\nexpect: {round: 1}\n",
        encoding="utf-8",
    )
    (folder / "c_good.yaml").write_text(
        "scenario: y\ngame: uncharted_passage\ndo:\n  - run: plague.reveal\n"
        "expect:\n  player: {tracks: {health: 1}}\n",
        encoding="utf-8",
    )
    done = cardc("test", str(folder), cwd=REPO)
    assert done.returncode == 1, done.stderr
    assert "internal error" not in done.stdout + done.stderr
    assert "a_broken.yaml:1" in done.stdout
    assert "b_mistyped.yaml:6:13: 3 is more than 1" in done.stdout
    assert "1 of 3 scenarios passed, 2 failed" in done.stdout


# -- 3. refusals are expectable, and name their rule


def test_a_refusal_names_the_rule_it_applies() -> None:
    question = Question("q", 0, "lines", ("1/2/3",), rule=lambda a: f"{a} breaks the rule")
    assert question.refusal("6/3/1") == (
        "'6/3/1' is not a legal answer to 'lines': 6/3/1 breaks the rule; legal: 1/2/3"
    )


def test_an_illegal_answer_is_expected_as_refused(tmp_path: Path) -> None:
    text = """\
        scenario: 6/3/2 on a card with 10 resources
        game: uncharted_passage
        given: {chart: stand_in, missions_dealt: true, voyage: calm_seas}
        choices:
          - planning.allocate: 6/3/2
        do:
          - action: allocate
        expect:
          refused: "{words}"
        """
    right = "6+3+2 is 11; Calm Seas gives 10"
    assert one(tmp_path, text.replace("{words}", right)).passed
    wrong = one(tmp_path, text.replace("{words}", "something else"))
    assert "expected the refusal 'something else', but the engine refused with:" in wrong.message
    assert "the sum of the three numbers cannot exceed the resources" in wrong.message


def test_an_illegal_given_is_expected_as_refused(tmp_path: Path) -> None:
    result = one(
        tmp_path,
        """\
        scenario: a Location card in a Crew Cabin
        game: incredible_expeditions
        mode: competitive
        given:
          player:
            cabins: [misty_strait]
        expect:
          refused: "Atlantis, not a Crew card"
        """,
    )
    assert result.passed, result.message


def test_a_step_expected_refused_that_runs_fails(tmp_path: Path) -> None:
    result = one(
        tmp_path,
        """\
        scenario: not refused
        game: uncharted_passage
        do:
          - run: plague.reveal
            expect:
              refused: "never"
        """,
    )
    assert "s.yaml:6: expected this step to be refused ('never'), but it ran" in result.message


# -- 4. ordered and exact events, expectations after any step


def test_events_match_whole_words_not_substrings(tmp_path: Path) -> None:
    result = one(
        tmp_path,
        """\
        scenario: an undefeated Encounter is not a defeated one
        game: incredible_expeditions
        mode: competitive
        given:
          locations: [misty_strait]
          encounter_deck: [sea_serpent]
        do:
          - action: venture_forth
        expect:
          no_events:
            - defeated player 1
          events:
            - undefeated player 1
        """,
    )
    assert result.passed, result.message


def test_events_in_order_fail_out_of_order(tmp_path: Path) -> None:
    text = """\
        scenario: Rocks, then Plague
        game: uncharted_passage
        do:
          - run: rocks.reveal
          - run: plague.reveal
        expect:
          events_in_order:
            - {first}
            - {second}
        """
    ok = one(tmp_path, text.format(first="mark player 1 durability", second="mark player 1 health"))
    assert ok.passed, ok.message
    bad = one(
        tmp_path, text.format(first="mark player 1 health", second="mark player 1 durability")
    )
    assert "'mark player 1 durability' did not happen after 'mark player 1 health'" in bad.message
    assert "(it happened, but earlier)" in bad.message


def test_expectations_after_each_step_see_that_steps_events(tmp_path: Path) -> None:
    result = one(
        tmp_path,
        """\
        scenario: each step its own check
        game: uncharted_passage
        do:
          - run: rocks.reveal
            expect:
              player: {tracks: {durability: 1, health: 0}}
              events_exactly: [mark player 1 durability 1]
          - run: plague.reveal
            expect:
              player: {tracks: {durability: 1, health: 1}}
              events_exactly: [mark player 1 durability 1]
        """,
    )
    assert not result.passed
    assert "s.yaml:11: expected exactly these events:" in result.message
    assert "got:\n    mark player 1 health 1" in result.message
    assert ":7:" not in result.message


# -- 5. question ids named from the rule, answers by name


def test_question_ids_are_named_from_the_rule_not_a_position() -> None:
    handlers = (GENERATED / "darwins_journey" / "handlers.py").read_text(encoding="utf-8")
    assert "'discovering_treasure.campsite_reached.move_pirate_ship'" in handlers
    assert "may2" not in handlers and "may3" not in handlers and "choose1" not in handlers
    assert "('take_treasure', 'move_pirate_ship')" in handlers


def _compiled(tmp_path: Path, effects: str) -> tuple[list[str], list[str]]:
    """The question ids of a one-card game, and the checker's error codes."""
    from compiler.pipeline import compile_game
    from compiler.scaffold import _GAME_CARDS
    from dsl.diagnostics import SourceCache
    from engine.scenario_check import card_questions

    folder = tmp_path / "g"
    folder.mkdir(exist_ok=True)
    (folder / "game.cards").write_text(_GAME_CARDS.format(name="g", title="G"), encoding="utf-8")
    card = 'card "A" {\n  on play {\n' + effects + "  }\n}\n"
    (folder / "a.cards").write_text(card, encoding="utf-8")
    result = compile_game(folder, SourceCache())
    codes = [d.code for d in result.diagnostics if d.severity == "error"]
    return (sorted(card_questions(result.ir)) if result.ir else []), codes


def test_a_label_names_a_question_and_ids_survive_reordering(tmp_path: Path) -> None:
    first, codes = _compiled(
        tmp_path, '    may gain coins 1 @label("lucky")\n    may pay coins 1\n'
    )
    assert not codes
    assert first == ["a.play.lucky", "a.play.pay"]
    swapped, _ = _compiled(tmp_path, '    may pay coins 1\n    may gain coins 1 @label("lucky")\n')
    assert swapped == first


def test_two_different_questions_of_one_trigger_need_two_names(tmp_path: Path) -> None:
    _ids, codes = _compiled(tmp_path, "    may gain coins 1\n    may gain coins 2\n")
    assert "question-name" in codes
    _ids, codes = _compiled(
        tmp_path, "    choose one of {\n      gain coins 1\n      gain coins 2\n    }\n"
    )
    assert "option-name" in codes


# -- 6. a scenario schema per game, usable by YAML editors


@pytest.mark.parametrize(
    "game", ["uncharted_passage", "darwins_journey", "incredible_expeditions", "land_vs_sea"]
)
def test_every_scenario_file_fits_its_games_schema(game: str) -> None:
    for path in sorted((REPO / "tests" / "scenarios" / game).glob("*.yaml")):
        for document, line, problem in load(path):
            assert problem is None
            folder = GENERATED / game / (document.get("variant") or "")
            schema = json.loads((folder / "scenario.schema.json").read_text(encoding="utf-8"))
            errors = list(Draft202012Validator(schema).iter_errors(_plain(document)))
            assert not errors, (path, line, errors[0].message)


def test_the_schema_knows_the_games_ids_steps_and_questions() -> None:
    schema = json.loads(
        (GENERATED / "darwins_journey" / "scenario.schema.json").read_text(encoding="utf-8")
    )
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    good = {
        "scenario": "x",
        "game": "darwins_journey",
        "given": {"pirate_region": "section_2"},
        "choices": [{"pirate.activate.move_pirate_ship": True}],
        "do": [{"action": "activate_tile", "args": {"tile": "pirate"}}],
        "expect": {"pirate_region": "section_2"},
    }
    assert not list(validator.iter_errors(good))
    for bad in (
        {**good, "given": {"pirate_region": "section_9"}},
        {**good, "choices": [{"pirate.activate.may1": True}]},
        {**good, "do": [{"action": "activate_tile", "args": {"tyle": "pirate"}}]},
        {**good, "do": [{"action": "sail"}]},
        {**good, "expect": {"treasure_onn": []}},
    ):
        assert list(validator.iter_errors(bad)), bad


# -- 7. cardc test for designers and CI


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new project made by ``cardc new``, built once."""
    root = tmp_path_factory.mktemp("designer")
    made = cardc("new", "my_game", cwd=root)
    assert made.returncode == 0, made.stderr
    folder = root / "my_game"
    built = cardc("build", "--no-sheets", cwd=folder)
    assert built.returncode == 0, built.stderr
    return folder


def test_cardc_new_writes_a_starter_scenario_that_passes(project: Path) -> None:
    starter = project / "tests" / "scenarios" / "my_game" / "lucky_find.yaml"
    assert starter.read_text(encoding="utf-8").startswith(
        "# yaml-language-server: $schema=../../../generated/my_game/scenario.schema.json"
    )
    assert (project / "generated" / "my_game" / "scenario.schema.json").is_file()
    done = cardc("test", cwd=project)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 of 1 scenarios passed" in done.stdout


def test_cardc_test_json_and_junit(project: Path) -> None:
    done = cardc("test", "--format", "json", "--junit", "report.xml", cwd=project)
    report = json.loads(done.stdout)
    assert report["passed"] == 1 and report["failed"] == 0
    assert report["scenarios"][0]["name"] == "Lucky Find gives 2 coins when played"
    xml = (project / "report.xml").read_text(encoding="utf-8")
    assert (
        '<testsuite name="tests/scenarios/my_game/lucky_find.yaml" tests="1" failures="0">' in xml
    )


def test_the_pytest_plugin_collects_a_designers_scenarios(project: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert "1 passed" in done.stdout, done.stdout + done.stderr


def test_cardc_test_refuses_a_stale_generated_and_build_rebuilds(project: Path) -> None:
    cards = project / "cards" / "my_game" / "cards.cards"
    original = cards.read_text(encoding="utf-8")
    try:
        cards.write_text(original.replace("gain coins 2", "gain coins 3"), encoding="utf-8")
        stale = cardc("test", cwd=project)
        assert stale.returncode == 2
        assert "generated/ is stale: my_game" in stale.stderr
        assert "cardc test --build" in stale.stderr
        rebuilt = cardc("test", "--build", cwd=project)
        # The rebuilt rules gain 3 coins: the starter scenario now fails, as it should.
        assert rebuilt.returncode == 1
        assert "expected coins 3, got 4" in rebuilt.stdout
    finally:
        cards.write_text(original, encoding="utf-8")
        assert cardc("build", "--no-sheets", cwd=project).returncode == 0


def test_no_scenarios_says_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "cards").mkdir()
    done = cardc("test", cwd=tmp_path)
    assert done.returncode == 1
    assert "no scenarios in tests/scenarios" in done.stderr
    assert "'cardc new GAME' writes a starter scenario" in done.stderr


# -- no input stops a run: any value anywhere is a located failure, never an exception

_VALUES = [None, True, 0, -1, 7, 500, "x", "rockz", "ocean_region_9", [], [1, "a"], {}, {"k": 1}]


def _values() -> Any:
    from hypothesis import strategies as st

    leaf = st.sampled_from(_VALUES)
    return st.recursive(leaf, lambda inner: st.lists(inner, max_size=3), max_leaves=4)


BASE_SCENARIO = {
    "scenario": "fuzzed",
    "game": "uncharted_passage",
    "mode": "competitive",
    "given": {"player": {"counters": {"prestige": 1}, "goods": ["wine"]}, "voyage": "rocks"},
    "choices": [{"planning.allocate": "1/2/3"}],
    "do": [
        {"action": "allocate", "player": 2},
        {"run": "plague.reveal", "quantities": {}, "expect": {"round": 1}},
    ],
    "expect": {"player": {"tracks": {"health": 1}}, "events": ["mark player 1 health 1"]},
}


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out += _paths(value, (*prefix, index))
    return out


def test_any_value_anywhere_is_a_located_failure_never_a_crash(tmp_path: Path) -> None:
    import copy

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    paths = [p for p in _paths(BASE_SCENARIO) if p[0] != "scenario"]

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(paths), _values())
    def check(path: tuple[Any, ...], value: Any) -> None:
        doc = copy.deepcopy(BASE_SCENARIO)
        node = doc
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
        file = tmp_path / "fuzz.yaml"
        file.write_text(json.dumps(doc), encoding="utf-8")  # JSON is YAML
        for result in Runner(GENERATED).run_file(file):
            assert result.passed or result.message.startswith(str(file)), result.message
            assert "internal error" not in result.message, (path, value, result.message)

    check()
