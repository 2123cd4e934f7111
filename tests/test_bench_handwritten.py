"""The benchmarks' hand-written Uncharted Passage flow (bench/up_handwritten.py) still plays the
current cards: it runs their compiled handlers with its own verbs and natives, so a card that
comes to call a new native verb (``suffer_scurvy``) stopped ``bench/sim.py`` and
``bench/up_compare.py`` with a KeyError that no test saw. Figures are the benchmarks' to print;
this checks the names and plays games."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from typing import Any

import pytest

from engine import sim

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "generated" / "uncharted_passage"


def _bench_module(name: str) -> Any:
    path = ROOT / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"{name}_for_test", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _card_code(handlers: str, verbs: dict[str, Any]) -> str:
    """The generated functions a card's handler can reach: its handlers and formulas, and the
    DSL verbs and functions the hand-written flow runs as compiled (not the flow's phases,
    loops and setup, nor a DSL verb it answers with its own, as ``scurvy_check``)."""
    chunks = re.split(r"(?m)^(?=def )", handlers)
    kept = []
    for chunk in chunks:
        named = re.match(r"def (h|f|dv|df)_(\w+)\(", chunk)
        if named is None:
            continue
        kind, name = named.groups()
        if kind in ("h", "f") or getattr(verbs.get(name), "__name__", None) == f"{kind}_{name}":
            kept.append(chunk)
    return "".join(kept)


def test_every_verb_and_native_a_card_reaches_is_one_the_hand_written_flow_has() -> None:
    old = _bench_module("up_compare").handwritten().simulator(FOLDER)
    game = old.new_game(1, sim.players_for("solo"), "solo", old.factory("greedy"))
    code = _card_code((FOLDER / "handlers.py").read_text(encoding="utf-8"), game.verbs)
    verbs = set(re.findall(r"g\.verbs\['(\w+)'\]", code))
    natives = set(re.findall(r"g\.natives\['(\w+)'\]", code))
    assert verbs and natives  # the pattern still finds the calls
    assert sorted(verbs - set(game.verbs)) == []
    assert sorted(natives - set(game.natives)) == []


@pytest.mark.parametrize("mode", ["solo", "competitive", "coop"])
def test_the_hand_written_flow_plays_the_current_cards_as_the_dsl_flow(mode: str) -> None:
    compare = _bench_module("up_compare")
    old = compare.handwritten().simulator(FOLDER)
    dsl = sim.Simulator(FOLDER)
    games = 40
    differ = compare.same_games(dsl, old, games, mode, "greedy")
    # The claim bench/up_compare.py prints: the same seed plays the same games but for the
    # rule fixes made since the hand-written flow was frozen (a few in 300, 2-player most).
    assert differ <= games // 4, f"{differ} of {games} {mode} games differ"


@pytest.mark.parametrize("mode", ["solo", "competitive", "coop"])
def test_the_same_rules_written_in_python_play_the_very_same_games(mode: str) -> None:
    """bench/sim.py judges the flow's speed against bench/up_flow_python.py only because the
    two play the same games; a flow.cards change it does not follow must show here."""
    bench = _bench_module("sim")
    same_rules = bench.same_rules_simulator(FOLDER)
    game = same_rules.new_game(1, sim.players_for(mode), mode, same_rules.factory("greedy"))
    assert type(game).__name__ == "HandWrittenFlow"  # the hand-written flow, not the compiled
    assert bench.same_games(sim.Simulator(FOLDER), same_rules, 30, mode) == 0


def test_the_same_games_check_sees_a_flow_that_differs() -> None:
    """The check is not blind: a hand-written flow that skips the Mid-event plays other games."""
    bench = _bench_module("sim")
    same_rules = bench.same_rules_simulator(FOLDER)

    class NoMidEvent(same_rules.rules.GAME_CLASS):  # type: ignore[misc,name-defined]
        def reveal_mid_event(self, c: Any = None) -> None:
            pass

    same_rules.rules.GAME_CLASS = NoMidEvent
    assert bench.same_games(sim.Simulator(FOLDER), same_rules, 10, "solo") > 0
