"""A third outside audit of Uncharted Passage (audit3): the rulebook read sentence by sentence
against the scenarios (the cases no earlier file held are
``tests/scenarios/uncharted_passage/audit3_rules.yaml``), new cards and house rules written
from the rulebook's words and README.md alone (``tests/data/audit3_uncharted_passage/``), and
the rough edges the earlier audits left.

- ``action: sailing`` (the rulebook's "Sailing phase") was told ``fire: sailing``, which only
  lets the cards answer the trigger and sails nothing: it is told the flow's phase first.
"""

from __future__ import annotations

from pathlib import Path

from probing import run_scenarios

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"


def test_a_step_named_after_a_rulebook_phase_is_told_the_flows_phase_first(
    tmp_path: Path,
) -> None:
    """'action: sailing' and 'action: anchoring' (the rulebook's "Sailing phase", "Anchoring
    phase") are told the phase 'sailing_and_anchoring' that plays them, before the trigger
    'sailing' (a window the cards answer) and the step of a like name."""
    (result,) = run_scenarios(
        GENERATED,
        "scenario: phases\ngame: uncharted_passage\ndo:\n  - action: sailing\n"
        "  - action: anchoring\nexpect:\n  round: 1\n",
        tmp_path / "s.yaml",
    )
    assert not result.passed
    assert (
        ":4:13: 'sailing' is not an action of uncharted_passage; to run it, write action: "
        "phase with args: {name: sailing_and_anchoring} (the flow's phase 'Sailing & "
        "Anchoring'), or fire: sailing (every card in force answers), or action: sail (Sail "
        "a distance)" in result.message
    ), result.message
    assert (
        ":5:13: 'anchoring' is not an action of uncharted_passage; to run it, write action: "
        "phase with args: {name: sailing_and_anchoring} (the flow's phase 'Sailing & "
        "Anchoring'), or action: anchor (Anchor where the ship is)" in result.message
    ), result.message
