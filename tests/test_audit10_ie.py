"""audit10-ie: a rule error inside a DSL verb or function is reported at the card's (or
phase's) call and names the verb's line, as a short traceback in the DSL's terms; every verb,
function and phase of the four games, copied unchanged into a variant, prints words; and a
tenth tester's Incredible Expeditions rule cases (tests/scenarios/incredible_expeditions/
audit10_rules.yaml, run by the scenario plugin).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from probing import ROOT, copy_game, run_scenarios

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")

IE = "incredible_expeditions"


def _line_of(path: Path, text: str) -> tuple[int, int]:
    """The line and column (1-based) where ``text`` starts in ``path``: the tests read the
    verb's line from the file, not a number that an edit above it would move."""
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if text in line:
            return number, line.index(text) + 1
    raise AssertionError(f"{text!r} is not in {path}")


# -- a rule error inside a verb: at the card's call, naming the verb's line

WHIRLPOOL = """\
@provisional("audit10: a card whose text sends the ship back")
encounter "Whirlpool" {
  type creature
  difficulty heroism 9
  on undefeated {
    venture_back
  }
}
"""

BACK_AT_PORT_CITY = """\
scenario: A Whirlpool sending the ship back from Port City
game: incredible_expeditions
do:
  - run: whirlpool.undefeated
expect:
  player:
    counters: {money: 0}
"""


def test_a_verbs_failure_is_reported_at_the_cards_call_naming_the_verbs_line(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    # "no Location lies back from Port City" was reported at flow.cards' `move_ship back`
    # alone: the designer of the Whirlpool never saw their card named.
    generated = built_copy(IE, {"whirlpool.cards": WHIRLPOOL})
    (result,) = run_scenarios(generated, BACK_AT_PORT_CITY, tmp_path / "back.yaml")
    assert not result.passed
    flow = ROOT / "cards" / IE / "flow.cards"
    line, column = _line_of(flow, "move_ship back")
    card = f"cards/{IE}/whirlpool.cards:6:5"
    assert f"a rule refused this step: {card}: no Location lies back from Port City" in (
        result.message
    ), result.message
    assert (
        f"[in verb venture_back (cards/{IE}/flow.cards:{line}:{column}), "
        f"called from Whirlpool's 'on undefeated' ({card})]"
    ) in result.message, result.message
    assert "Traceback" not in result.message and "port_city" not in result.message


DOUBLE_BACK = """\
description: audit10 - the ship drifts back two Locations each turn
verbs: |
  verb double_back() "drift back two Locations" {
    venture_back
    venture_back
  } @provisional("a probe of errors inside verbs")
flow:
  - insert: |
      phase drift "Drift" {
        double_back
      }
    before: draw_phase
"""

DRIFT = """\
scenario: The drift sends the ship back from Port City
game: incredible_expeditions
variant: double_back
do:
  - action: phase
    args: {name: drift}
expect:
  player:
    counters: {money: 0}
"""


def _drift_chain(flow_line: tuple[int, int]) -> str:
    variant = f"cards/{IE}/variants/double_back.yaml"
    return (
        f"[in verb venture_back (cards/{IE}/flow.cards:{flow_line[0]}:{flow_line[1]}), "
        f"called from verb double_back ({variant}:4:5), called from "
    )


def test_a_phase_calling_nested_verbs_names_each_call(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    generated = built_copy(IE, {"variants/double_back.yaml": DOUBLE_BACK})
    (result,) = run_scenarios(generated, DRIFT, tmp_path / "drift.yaml")
    assert not result.passed
    line = _line_of(ROOT / "cards" / IE / "flow.cards", "move_ship back")
    phase = f"cards/{IE}/variants/double_back.yaml:10:9"
    assert f"{phase}: no Location lies back from Port City" in result.message, result.message
    assert _drift_chain(line) + f"phase drift ({phase})]" in result.message, result.message


def test_a_simulated_games_failure_in_an_inlined_verb_names_its_calls(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    # cardc sim plays each section by one generated function, the DSL verbs written in place
    # of their calls (README "The flow"): the module's INLINED table keeps where each was
    # called, so the error is still at the phase's call and names the verb's line.
    from engine import sim
    from engine.sim import GameFailed

    generated = built_copy(IE, {"variants/double_back.yaml": DOUBLE_BACK})
    with pytest.raises(GameFailed) as failed:
        sim.simulate(
            generated / IE / "double_back", 2, 1, "competitive", "greedy", players=2, cards=False
        )
    message = str(failed.value)
    line = _line_of(ROOT / "cards" / IE / "flow.cards", "move_ship back")
    phase = f"cards/{IE}/variants/double_back.yaml:10:9"
    assert f"failed: {phase}: no Location lies back from Port City" in message, message
    assert _drift_chain(line) + f"the flow's turn section ({phase})]" in message, message


WRONG_WAY = """\
description: audit10 - Venturing Forth goes the wrong way
verbs: |
  verb venture_forth() "To Venture Forth, the wrong way" {
    discard_defeated_encounters
    venture_back
  } @provisional("a probe of errors inside verbs")
"""

WRONG_WAY_TURN = """\
scenario: Venturing Forth the wrong way from Port City
game: incredible_expeditions
variant: wrong_way
given:
  players:
    - turns: 3
      cabins: [bosun, spy, deckhand]
    - {}
choices:
  - rest_or_encounter: encounter_turn
  - encounter_turn: venture_forth
do:
  - action: take_turn
expect:
  player:
    counters: {money: 0}
"""


def test_a_verb_the_games_python_runs_names_the_phase_that_called_that_python(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    # The Encounter Turn's choices are the game's Python (encounter_actions), which runs the
    # DSL verb venture_forth in a call() of its own: the error was at the verb's line alone.
    generated = built_copy(IE, {"variants/wrong_way.yaml": WRONG_WAY})
    (result,) = run_scenarios(generated, WRONG_WAY_TURN, tmp_path / "wrong.yaml")
    assert not result.passed
    flow = ROOT / "cards" / IE / "flow.cards"
    back = "{}:{}".format(*_line_of(flow, "move_ship back"))
    # The phase's call of take_encounter_turn, the first line naming it, and that verb's call
    # of encounter_actions (the Python running venture_forth).
    turn = "{}:{}".format(*_line_of(flow, "take_encounter_turn"))
    line, column = _line_of(flow, "  encounter_actions")
    actions = f"{line}:{column + 2}"
    assert (
        f"cards/{IE}/flow.cards:{turn}: no Location lies back from Port City "
        f"[in verb venture_back (cards/{IE}/flow.cards:{back}), "
        f"called from verb venture_forth (cards/{IE}/variants/wrong_way.yaml:5:5), "
        f"called from verb take_encounter_turn (cards/{IE}/flow.cards:{actions}), "
        f"called from phase spend_the_turn (cards/{IE}/flow.cards:{turn})]"
    ) in result.message, result.message


def test_the_generated_module_maps_each_inlined_verb_to_its_call() -> None:
    # The INLINED table: the first and last generated line of each verb written in place,
    # and the DSL position of its call.
    text = (ROOT / "generated" / IE / "handlers.py").read_text(encoding="utf-8")
    lines = text.split("\n")
    namespace: dict[str, object] = {}
    exec(text[text.index("\nINLINED = [") :], namespace)  # noqa: S102 - our own table
    inlined = namespace["INLINED"]
    assert isinstance(inlined, list) and inlined
    for first, last, verb, (path, line, column) in inlined:
        assert lines[first - 1].strip() == f"# verb {verb} (called at {path}:{line}:{column})"
        assert lines[last - 1].strip() == f"# end of verb {verb}"
    # Step 2's phase calls take_leader_tokens: the entry is at that call.
    flow = ROOT / "cards" / IE / "flow.cards"
    call = (f"cards/{IE}/flow.cards", *_line_of(flow, "take_leader_tokens"))
    assert ("take_leader_tokens", call) in {(verb, at) for _, _, verb, at in inlined}


CURSED_CURRENT = """\
mid_event "Cursed Current" {
  # audit10: a Mid-Game Event whose damage is worked out below 0
  on reveal {
    ship_damage prestige - 100
  }
}
"""

CURRENT = """\
scenario: The Cursed Current's damage is worked out below 0
game: uncharted_passage
do:
  - run: cursed_current.reveal
expect:
  player:
    tracks: {durability: 0}
"""


def test_every_games_verbs_report_the_call_too(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    # The same in another game: Uncharted Passage's ship_damage, a DSL verb, marks a
    # negative number ("mark of a negative number is an error ... a computed one when it
    # runs, at the line that marks"), called from a designer's Mid-Game Event.
    generated = built_copy("uncharted_passage", {"current.cards": CURSED_CURRENT})
    (result,) = run_scenarios(generated, CURRENT, tmp_path / "current.yaml")
    assert not result.passed
    flow = ROOT / "cards" / "uncharted_passage" / "flow.cards"
    line, column = _line_of(flow, "mark durability amount")
    card = "cards/uncharted_passage/current.cards:4:5"
    assert re.search(rf"{re.escape(card)}: .*negative", result.message), result.message
    assert (
        f"[in verb ship_damage (cards/uncharted_passage/flow.cards:{line}:{column}), "
        f"called from Cursed Current's 'on reveal' ({card})]"
    ) in result.message, result.message


# -- every verb, function and phase of a game, copied unchanged into a variant, prints words


@pytest.mark.parametrize(
    "game", ["incredible_expeditions", "uncharted_passage", "land_vs_sea", "darwins_journey"]
)
def test_every_verb_function_and_phase_copied_unchanged_prints_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    """A designer's house rule starts from the game's own verb or phase (README: "One with the
    name of a DSL definition the game already has replaces it"; a flow's ``replace:``). Each,
    copied into a variant unchanged, must check, the text lint of its printed sheet included:
    Incredible Expeditions' take_leader_tokens printed the natives' descriptions, "the raw
    name 'white_cross'" ('coin_pile', 'black_skull')."""
    from test_variant_hardening import run

    from dsl.parser import parse

    folder = copy_game(tmp_path, game)
    monkeypatch.chdir(tmp_path)
    verbs, phases = [], []
    for path in sorted(folder.glob("*.cards")):
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        parsed = parse(text, str(path)).file
        for definition in parsed.definitions:
            span = definition.span
            body = "\n".join("  " + line for line in lines[span.line - 1 : span.end_line])
            (folder / "variants" / f"same_{definition.name}.yaml").write_text(
                f"description: the game's own {definition.name}\nverbs: |\n{body}\n",
                encoding="utf-8",
            )
            verbs.append(definition.name)
        for flow in parsed.flows:
            for section in flow.sections:
                for phase in section.phases:
                    span = phase.span
                    written = lines[span.line - 1 : span.end_line]
                    body = "\n".join("      " + line for line in written)
                    (folder / "variants" / f"phase_{phase.name}.yaml").write_text(
                        f"description: the game's own {phase.name}\n"
                        f"flow:\n  - replace: |\n{body}\n",
                        encoding="utf-8",
                    )
                    phases.append(phase.name)
    assert len(verbs) >= 3 and len(phases) >= 4, (verbs, phases)
    status, out = run(capsys, "check", f"cards/{game}")
    assert status == 0, out
    assert "error" not in out.split("checked")[0], out
    if game == IE:
        assert "take_leader_tokens" in verbs
