"""audit9 (Uncharted Passage: an independent tester): what the scenarios cannot say.

The new cards (``tests/data/audit9_uncharted_passage/audit9.cards``: a Port Card trading
another in through a DSL verb and function, a voyage's Scurvy at a Discovery Spot, a
Mid-event reading the Pirate window's quantities) and house rules (``variants/``: an end
condition and a phase into the end, a phase opening the Pirate's Raid window after anchoring,
the ``reward`` verb redefined with a parameter added) build, hold their scenarios and play whole
greedy games in every mode.

Found: a redefinition that adds a parameter with a default (README: "It may add parameters at
the end that have a default, which the existing calls leave at the default") stopped the first
game whose Python called the verb as the base declared it (``run_verb("reward", player, stars,
dice, anchors)``: "dv_reward() missing 1 required positional argument"): the default was
filled in at the DSL's calls only, not in the generated function.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from probing import assert_cases_hold, assert_simulates

ROOT = Path(__file__).resolve().parent.parent
AUDIT = ROOT / "tests" / "data" / "audit9_uncharted_passage"


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """Three new cards and three house rules build, hold their cases, and play whole greedy
    games in every mode."""
    points = assert_cases_hold(
        built_copy,
        "uncharted_passage",
        AUDIT,
        ("glory_race", "lucky_rewards", "night_watch"),
        15,
    )
    assert_simulates(points, ("solo", "competitive", "coop"))


def test_a_redefinition_adding_a_defaulted_parameter_is_called_by_the_games_python(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """The generated function of a verb redefined with a parameter added at the end takes
    its default, so the game's Python calls it with the base's arguments."""
    files = {"variants/lucky_rewards.yaml": (AUDIT / "variants" / "lucky_rewards.yaml").read_text()}
    generated = built_copy("uncharted_passage", files)
    handlers = (generated / "uncharted_passage" / "lucky_rewards" / "handlers.py").read_text()
    assert "def dv_reward(g, c, v_star_count, v_dice_shown, v_anchors, v_lucky=1):" in handlers
    from engine import sim

    report = sim.simulate(generated / "uncharted_passage" / "lucky_rewards", 2, 3, "solo", "greedy")
    assert report.games == 2
