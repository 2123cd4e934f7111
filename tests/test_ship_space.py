"""A scenario may not give a ship a pirate space: "You cannot pass or land on a pirate space"
(Uncharted Passage). A ship given there anchored where no ship can, without a word."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = """
scenario: a ship given beside the Wako Pirates
game: uncharted_passage
given:
  player:
    position: {where}
do:
  - action: anchor
expect:
  player: {{prestige: 0}}
"""


def test_a_ship_given_on_a_pirate_space_is_refused_at_its_line(tmp_path: Path) -> None:
    from probing import run_scenarios

    for written in ("wako_pirates", "Wako Pirates"):
        text = SCENARIO.format(where=written)
        (result,) = run_scenarios(ROOT / "generated", text, tmp_path / "pirate.yaml")
        assert not result.passed
        assert (
            f"pirate.yaml:6:15: '{written}' is a pirate space, where no ship can be: \"You "
            'cannot pass or land on a pirate space"; give the ship a space beside it'
        ) in result.message, result.message


def test_a_ship_given_on_the_sea_beside_the_pirates_plays(tmp_path: Path) -> None:
    from probing import run_scenarios

    # sea_23_3 is next to the Wako Pirates' space: a ship anchored there gains no prestige.
    text = SCENARIO.format(where="sea_23_3")
    (result,) = run_scenarios(ROOT / "generated", text, tmp_path / "s.yaml")
    assert result.passed, result.message
