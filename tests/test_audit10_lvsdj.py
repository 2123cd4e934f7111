"""audit10 (Land vs Sea, Darwin's Journey): a question with one legal answer is answered
without asking (every game), Land vs Sea's greedy policy weighs Waypoints from the data, and a
variant removing a layer that another layer requires."""

from __future__ import annotations

from pathlib import Path

import pytest
from probing import run_scenarios

from engine.runtime import Context, Game, IllegalDecision, Policy, Question, Scripted

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"


# -- 1. a question with one legal answer is not asked


class Refusing(Policy):
    """A policy that fails the test if it is ever asked."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def decide(self, game: Game, question: Question) -> str:
        """Record the question; answer the first option."""
        self.asked.append(question.id)
        return question.options[0]


def _game(policy: Policy) -> Game:
    from engine.loader import new_game

    return new_game(GENERATED / "darwins_journey", players=1, policies={-1: policy})


def test_a_question_with_one_answer_is_answered_without_asking_and_logged() -> None:
    policy = Refusing()
    game = _game(policy)
    player = game.players[0]
    only = Question("navigate.spaces", 0, "Move how many spaces?", ("1",))
    assert game.ask(player, only) == "1"
    assert policy.asked == []
    assert game.events[-1] == ("decision", 0, "navigate.spaces", "1", "(the only legal answer)")
    # Two answers, a real choice: asked.
    two = Question("navigate.spaces", 0, "Move how many spaces?", ("2", "1"))
    assert game.ask(player, two) == "2"
    assert policy.asked == ["navigate.spaces"]


def test_a_may_is_always_asked() -> None:
    policy = Refusing()
    game = _game(policy)
    context = Context(game.players[0], "", "test")
    assert game.may(context, "flow.test.may1", "move the Pirate Ship") is True
    assert policy.asked == ["flow.test.may1"]


def test_a_script_naming_the_question_answers_it_and_a_bare_answer_waits() -> None:
    named = Scripted([("navigate.spaces", "1"), ("lane", "upper")])
    game = _game(named)
    player = game.players[0]
    assert game.ask(player, Question("navigate.spaces", 0, "Move?", ("1",))) == "1"
    assert named.used == 1
    bare = Scripted([(None, "upper")])
    game = _game(bare)
    assert game.ask(game.players[0], Question("navigate.spaces", 0, "Move?", ("1",))) == "1"
    assert bare.used == 0  # left for the question that is asked
    assert game.ask(game.players[0], Question("lane", 0, "Lane?", ("upper", "lower"))) == "upper"
    assert bare.used == 1


def test_a_scripted_answer_the_only_answer_does_not_allow_is_refused() -> None:
    game = _game(Scripted([("navigate.spaces", "2")]))
    with pytest.raises(IllegalDecision, match="need not script it"):
        game.ask(game.players[0], Question("navigate.spaces", 0, "Move?", ("1",)))


#: The modelled Sailor moves the Ship 1 space: "Move how many spaces? [1]".
SAILOR = """\
scenario: A Ship moved 1 space by the Sailor onto a Campsite, its only move unscripted
rulebook: "When a Ship or Explorer lands on or passes a Campsite location, they will either take the Treasure token or move the Pirate Ship"
game: darwins_journey
given:
  treasure_on: [bahia]
  player:
    counters: {ship_space: 3, coins: 0}
choices:
%s  - discovering_treasure.campsite_reached.take_treasure_or_move_pirate_ship: take_treasure
  - offer_tent.verb.tent: no
do:
  - action: use_crew
    args: {crew: sailor}
expect:
  player:
    counters: {ship_space: 4, coins: 3, treasure: 1}
  events: ["decision player 1 navigate.spaces 1 (the only legal answer)"]
"""


@pytest.mark.parametrize(
    ("line", "passes", "says"),
    [
        ("", True, ""),
        ("  - navigate.spaces: 1\n", True, ""),
        ("  - navigate.spaces: 2\n", False, "need not script it"),
    ],
)
def test_a_scenario_may_leave_out_the_only_answer_or_keep_it(
    tmp_path: Path, line: str, passes: bool, says: str
) -> None:
    (result,) = run_scenarios(GENERATED, SAILOR % line, tmp_path / "s.yaml")
    assert result.passed is passes, result.message
    assert says in result.message
