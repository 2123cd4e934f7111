"""A sixth, independent tester's Incredible Expeditions: Quest for Atlantis, from the rulebook
(/work/shared/rulebooks/incredible-expeditions-atlantis.txt) and the README alone: rule cases
(tests/scenarios/incredible_expeditions/audit6_rules.yaml), house rules that replace the way a
turn is spent (which never ended when the replacement left out the turn's count and the win),
and the new cards and house rules of tests/data/audit6_ie/.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import assert_cases_hold, assert_simulates, audit_cases

GAME = "incredible_expeditions"
DATA = Path(__file__).resolve().parent / "data" / "audit6_ie"
VARIANTS = (
    "curses",
    "draw_first",
    "harbour_tax",
    "no_marooning",
    "purse",
    "quick_draw",
    "short_game",
    "small_market",
    "two_refresh",
)

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")

#: A house rule "every turn is a Rest Turn": spend_the_turn replaced, without the base phase's
#: turn_taken and its win check.
REST_ONLY = """\
description: every turn is a Rest Turn
flow:
  - replace: |
      phase spend_the_turn {
        take_rest_turn
      } @provisional("a house rule")
"""

#: The base phase written again without turn_taken and the win check: its designer means the
#: base game's turns.
NO_COUNT = """\
description: the base game's turn, written without its bookkeeping
flow:
  - replace: |
      phase spend_the_turn {
        if first_turn() {
          take_rest_turn
        } else {
          choose_rest_or_encounter_turn
          if resting() {
            take_rest_turn
          } else {
            take_encounter_turn
          }
        }
      } @provisional("a house rule")
"""


def _simulate(folder: Path, games: int, params: dict[str, int] | None = None) -> object:
    from engine import sim

    return sim.simulate(
        folder, games, 3, "competitive", "greedy", players=2, params=params, cards=False
    )


def test_a_spend_the_turn_without_turn_taken_still_reaches_the_turn_limit(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    # The bug: the turn limit counted only the turns turn_taken counted, and turn_taken lived in
    # the replaceable phase spend_the_turn, so `cardc sim` of this house rule failed its first
    # game: "the game went round the table 10000 times and its 'end when' never held".
    generated = built_copy(GAME, {"variants/rest_only.yaml": REST_ONLY})
    report = _simulate(generated / GAME / "rest_only", 2, {"turn_limit": 40})
    assert report.games == 2  # type: ignore[attr-defined]
    assert dict(report.tally.ends) == {"turn limit": 2}  # type: ignore[attr-defined]
    assert dict(report.tally.turns) == {40: 2}  # type: ignore[attr-defined]


def test_a_spend_the_turn_without_turn_taken_or_the_win_check_is_still_won(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    # Without turn_taken, first_turn() held on every turn (every turn a Rest Turn: no ship
    # ever left Port City), and without the phase's end_game a win did not end the game. The
    # flow's own count of turns begun and its `end when winner_found()` keep both: "The winner
    # of Incredible Expeditions is the first player to defeat both Encounters at the last
    # Location".
    generated = built_copy(GAME, {"variants/no_count.yaml": NO_COUNT})
    folder = generated / GAME / "no_count"
    report = _simulate(folder, 6)
    ends = dict(report.tally.ends)  # type: ignore[attr-defined]
    assert ends.get("turn limit", 0) < 6, ends
    # A game a ship won ended on the turn of the win: one winner, scored 1, nothing after.
    from engine.sim import Simulator, play_game

    simulator = Simulator(folder)
    won = 0
    for seed in range(1, 7):
        game = simulator.new_game(seed, 2, "competitive", simulator.factory("greedy"))
        result = play_game(game)
        # audit9-ie: the win ends the game in face_encounter itself, with its reason, so
        # the flow's `end when` is no longer what ends a won game of this house rule.
        if result.reason != "a ship reached Atlantis":
            continue
        won += 1
        assert sorted(result.scores) == [0, 1]
        kinds = [event[0] for event in game.events]
        assert kinds.count("winner") == 1
        # The win is in the turn's spend_the_turn: no Draw Phase follows it.
        assert "draw_phase" not in [
            e[2] for e in game.events[kinds.index("winner") :] if e[0] == "phase"
        ]
    assert won > 0


def test_the_base_game_still_ends_by_its_own_words(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    # The base game's phase keeps ending the game itself, with its reason, before the flow's
    # `end when` is tested: the turn counts and reasons the scenarios pin are unchanged.
    generated = built_copy(GAME, {})
    report = _simulate(generated / GAME, 4)
    assert set(dict(report.tally.ends)) <= {"a ship reached Atlantis", "turn limit"}  # type: ignore[attr-defined]


def test_the_new_cards_and_house_rules_hold_their_cases(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    # Among them: Ambush's "If Undefeated" Facing another Encounter lost the Ambush (its own
    # steps after its text failed: "no Encounter is being Faced"); and a house rule's end
    # condition did not end a scenario's turn (take_turn ran on to the Draw Phase), nor could a
    # scenario expect the end it gives ("'end_when' is not an end reason"); and the step
    # refresh_crew ran the base game's Python under a house rule that redefines the verb.
    assert_cases_hold(built_copy, GAME, DATA, VARIANTS, 27)


def test_the_house_rules_play_whole_games(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    _, points = audit_cases(built_copy, GAME, DATA)
    assert_simulates(points, ("competitive", "coop"))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            'end_when: "turns_taken() >= 30"\n',
            "hint: 'end_when' is an edit of the flow: write it under flow:, as a list item "
            "'- end_when: ...'",
        ),
        (
            "insert: |\n  phase toll { lose money 1 }\n",
            "hint: 'insert' is an edit of the flow: write it under flow:, as a list item",
        ),
        (
            "remove: [marooned]\n",
            "error[variant-path]: 'marooned' is not a card of this game but a phase of its flow",
        ),
        ("remove: [marooned]\n", "hint: a phase is removed under flow:, as a list item "),
        # A near miss of a key is still "did you mean".
        ("flw:\n  - remove: marooned\n", "hint: did you mean 'flow'?"),
    ],
)
def test_a_flow_edit_at_the_top_of_a_variant_is_told_where_it_goes(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    text: str,
    said: str,
) -> None:
    # Was: "'end_when' is not a key of a variant" with the list of keys, and a phase given to
    # the top-level remove: was "'marooned' is not a card of this game", nothing more.
    from probing import copy_game

    from compiler.cli import main

    folder = copy_game(tmp_path, GAME)
    (folder / "variants" / "house.yaml").write_text(
        "description: a house rule\n" + text, encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    status = main(["check"])
    out = capsys.readouterr()
    assert status == 1
    assert said in out.out + out.err


@pytest.mark.parametrize(
    ("card", "said"),
    [
        (
            'encounter "Mimic" {\n  type supernatural\n  difficulty skullduggery 1\n'
            "  on defeated {\n    sacrifice self\n  }\n}\n",
            "error[property-names]: the CARD of 'sacrifice' names a crew or a resource; 'self' "
            "here is 'mimic', an encounter",
        ),
        (
            'resource "Rope" {\n  copies 1\n  values money 1\n  to_acquire money 1\n'
            "  on play {\n    exhaust self\n  }\n}\n",
            "error[property-names]: the CREW of 'exhaust' names a crew; 'self' here is 'rope', "
            "a resource",
        ),
    ],
)
def test_self_of_a_kind_a_verb_does_not_name_is_refused_at_check(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    card: str,
    said: str,
) -> None:
    # An Encounter's "sacrifice self" checked, and failed when it ran: "player 1 has no mimic
    # to Sacrifice: only a Resource card of the player's or a Crew in their cabins is
    # Sacrificed".
    from probing import copy_game

    from compiler.cli import main

    folder = copy_game(tmp_path, GAME)
    (folder / "designer.cards").write_text(card, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    status = main(["check"])
    out = capsys.readouterr()
    assert status == 1
    assert said in out.out + out.err
    # A Crew's or a Resource's own `sacrifice self` still checks (Smoke Powder, above).


def test_a_game_short_of_locations_is_not_said_to_be_one_cards_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Shown at the variant's remove: entry, the problem was headed by the title of whichever
    # Location was checked first, one the entry did not name ("Port City: setup places 4
    # Locations ..." at `remove: [misty_strait, ...]`).
    from probing import copy_game

    from compiler.cli import main

    folder = copy_game(tmp_path, GAME)
    (folder / "variants" / "short.yaml").write_text(
        "description: a shorter sea\n"
        "remove: [misty_strait, pirate_haven, volcanic_isle, serpents_reach]\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert (
        "short.yaml:2:10: error[card-data]: setup places 4 Locations between Port City and the "
        "Drowned City (param locations_between), but the game has 2 Locations besides those two"
    ) in text
    assert "hint: add Locations, or set param locations_between 2 or less" in text


def test_a_card_set_to_null_in_a_variant_is_told_it_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "An Undefeated Encounter costs no Crew": `cards: {undefeated_encounters: null}` (null
    # removes a property) checked, built, and changed nothing; cardc diff said "no differences".
    from probing import copy_game

    from compiler.cli import main

    folder = copy_game(tmp_path, GAME)
    (folder / "variants" / "soft.yaml").write_text(
        "description: no Crew Lost\ncards:\n  undefeated_encounters: null\n", encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 1
    out = capsys.readouterr()
    text = out.out + out.err
    assert (
        "soft.yaml:3:3: error[variant-shape]: 'undefeated_encounters: null' changes nothing: "
        "null removes a property of a card, not the card"
    ) in text
    assert "hint: to remove the card: remove: [undefeated_encounters]" in text


def test_the_logbook_says_a_house_rules_end_condition_ended_the_game(
    built_copy: Callable[[str, dict[str, str]], Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `cardc sim --log` of a house rule ending the game after 10 turns printed "The game ends:
    # end_when." (the engine's word for it).
    from compiler.cli import main

    short = (DATA / "variants" / "short_game.yaml").read_text(encoding="utf-8")
    generated = built_copy(GAME, {"variants/short_game.yaml": short})
    monkeypatch.chdir(generated.parent)
    assert main(["sim", GAME, "--variant", "short_game", "--seed", "1", "--log"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith(
        "The game ends: its end condition holds "
        "(cards/incredible_expeditions/variants/short_game.yaml:3)."
    ), out[-300:]
