"""A card file cannot make cardc hang (README, "Untrusted input"): what a game repeats, rolls
and lays out is counted against ``engine.budget.WORK_BUDGET`` (``Game.spend``), and a literal
count beyond it is an error at ``cardc check``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_flow import FLOW, RULES, build, compile_text, errors, new_game

from engine import sim
from engine.budget import WORK_BUDGET
from engine.runtime import Context, Game, RuleError
from engine.stdlib import hexes

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("statement", "at", "what"),
    [
        ("repeat 100000000000 { gain coins 1 }", "1000", "100,000,000,000 times to repeat"),
        ("score 100000000000d6", "1000", "100,000,000,000 dice in one roll"),
        (
            "for each n in 1..100000000000 { gain coins 1 }",
            "1..",
            "100,000,000,000 numbers in a range",
        ),
    ],
)
def test_a_literal_count_beyond_the_budget_is_an_error_at_check(
    tmp_path: Path, statement: str, at: str, what: str
) -> None:
    rules = RULES + f'rule "Hoard" {{ on round_start {{ {statement} }} }}\n'
    result = compile_text(tmp_path, FLOW, rules)
    found = [e for e in errors(result) if e.startswith("too-much")]
    line = rules.count("\n")
    column = rules.split("\n")[line - 1].index(at) + 1
    assert len(found) == 1, errors(result)
    assert f"rules.cards:{line}:{column} {what}" in found[0], found[0]
    assert f"at most {WORK_BUDGET:,} in all" in found[0] and "| give a count" in found[0]


@pytest.mark.parametrize(
    ("effect", "line_of"),
    [
        # Each count passes the check; together, nested, they would run 10**9 times.
        ("repeat 1000 { repeat 1000 { repeat 1000 { gain coins 1 } } }", "repeat 1000 { gain"),
        # A computed count: as large as it likes, known only in play.
        ("repeat round * 100000000000 { gain coins 1 }", "repeat round"),
        ("for each n in 1..(round * 100000000000) { gain coins 1 }", "for each"),
    ],
)
def test_work_beyond_the_budget_stops_the_game_at_the_cards_line(
    tmp_path: Path, effect: str, line_of: str
) -> None:
    rules = RULES + f'rule "Hoard" {{\n  on round_start {{ {effect} }}\n}}\n'
    ir, module, _ = build(tmp_path, FLOW, rules=rules)
    game = new_game(ir, module)
    with pytest.raises(RuleError) as raised:
        game.play()
    line = rules.count("\n") - 1
    column = rules.split("\n")[line - 1].index(line_of) + 1
    message = str(raised.value)
    assert message.startswith(f"{tmp_path / 'race' / 'rules.cards'}:{line}:{column}: "), message
    assert f"more than {WORK_BUDGET:,} times in all" in message
    # It stopped within the budget, not after the billion gains.
    assert game.players[0].counters["coins"] <= WORK_BUDGET + 10


def test_a_hex_ring_or_area_beyond_the_budget_is_a_rule_error() -> None:
    vocabulary = {"params": {}, "counters": {}, "tracks": {}, "zones": {}}
    game = Game({"vocabulary": vocabulary, "cards": []})
    c = Context(game.players[0], "", "test")
    assert len(hexes.hex_ring(game, c, (0, 0), 3)) == 18  # counted, and as before
    assert game.work_done == 18
    for native in (hexes.hex_ring, hexes.hex_within):
        with pytest.raises(RuleError, match="cells"):
            native(game, c, (0, 0), 10**9)
    with pytest.raises(RuleError, match="cells in a row"):
        hexes.hex_line(game, c, (0, 0), (10**9, 0))


@pytest.mark.parametrize(
    "name", ["uncharted_passage", "darwins_journey", "land_vs_sea", "incredible_expeditions"]
)
def test_the_shipped_games_spend_a_few_hundred_at_most(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The budget is for a card gone wrong: a real game is nowhere near it, in any mode.
    most = [0]
    spend = Game.spend

    def counted(self: Game, count: object, what: str) -> object:
        value = spend(self, count, what)
        most[0] = max(most[0], self.work_done)
        return value

    monkeypatch.setattr(Game, "spend", counted)
    simulator = sim.Simulator(REPO / "generated" / name)
    for mode in getattr(simulator.rules, "MODES", None) or ("solo", "competitive", "coop"):
        for policy in ("greedy", "random"):
            if policy in simulator.policies():
                sim.simulate(simulator, 10, 3, mode, policy)
    assert most[0] < 1000 < WORK_BUDGET, most[0]
