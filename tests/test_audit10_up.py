"""audit10 (Uncharted Passage: Remastered, an independent tester): what the scenarios cannot say.

The rule cases are ``tests/scenarios/uncharted_passage/audit10_rules.yaml``; the new cards and
house rules ``tests/data/audit10_uncharted_passage/``.

Found:

- A title band's ``max_score`` was not read: the flow's ``titles from`` gives "the title of the
  card of that kind whose min_score..max_score holds the final score" (README, "The flow"), as
  the generic flow does, but Uncharted Passage took the highest ``min_score`` at or below the
  score, so a house rule's Hapless Explorer "up to 25" still titled 28 Hapless.
- ``single_use`` (a Port Card property) was read by no code: a designer's Port Card without
  ``discard self`` was used every month. The rulebook: "Port cards are single-use cards that
  are discarded immediately after use, except for 'Adventures of a Sailor'". A single-use
  card whose block does anything but decline is now discarded by the game; ``single_use
  false`` keeps a card, the Python-played Exploration Journal, Figurehead and Rum too.
- A mission card stating two conditions as data (``regions`` and ``spots``) was tested on
  the first alone ("Each mission is accomplished as soon as its conditions are met"); every
  one is tested now, and a card no anchoring can meet is an error at ``cardc check``.
- ``cardc sim GAME --variant base`` was refused, though ``--compare base`` plays the game.

The house rules played under ``cardc sim`` in every mode: ``convoy_months`` (the Pirate phase
removed, and a phase of pirates after anchoring only ``if round % 3 == 0``) and
``turn_for_home`` (an end condition on the tracks, ``boxes_left(durability) <= 2``, which
holds for any ship, and the Mid-event phase moved after the logbook line).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from probing import (
    assert_cases_hold,
    assert_simulates,
    diagnostics_with_card_file,
    run_scenarios,
)

ROOT = Path(__file__).resolve().parent.parent
AUDIT = ROOT / "tests" / "data" / "audit10_uncharted_passage"

#: The audit's scenarios (tests/data/audit10_uncharted_passage/scenarios/).
CASES = 19

#: A scenario of the final score SCORE under VARIANT_LINE, expecting TITLE.
FINAL_TITLE = """
scenario: a final score of SCORE (MODE)
game: uncharted_passage
VARIANT_LINE
mode: MODE
given:
  players:
PLAYERS
do:
  - action: finish
expect:
  titles: [TITLE]
"""


def _title_case(variant: str | None, mode: str, scores: list[int], title: str) -> str:
    """A scenario: the captains' prestige ``scores``, the game finished, ``title`` expected."""
    players = "\n".join(f"    - counters: {{prestige: {s}}}" for s in scores)
    return (
        FINAL_TITLE.replace("VARIANT_LINE", f"variant: {variant}" if variant else "")
        .replace("MODE", mode)
        .replace("PLAYERS", players)
        .replace("SCORE", "+".join(map(str, scores)))
        .replace("TITLE", title)
    )


def test_a_title_cards_max_score_bounds_its_band(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    """README, "The flow": ``titles from KIND`` is "the title of the card of that kind whose
    min_score..max_score holds the final score". The rulebook's table is bands ("~30: Hapless
    Explorer; 31-40: Mediocre Explorer ... 51 and above"), which both readings agree on; a
    house rule's Hapless Explorer "up to 25" (max_score 25, Mediocre still from 31) leaves 26
    to 30 to no title, where the min-only reading gave them Hapless; co-op's bands alike."""
    files = {
        "variants/strict_titles.yaml": (
            "description: Hapless up to 25, Hapless Explorers up to 65\n"
            "cards:\n"
            "  hapless_explorer: {max_score: 25}\n"
            "  hapless_explorers: {max_score: 65}\n"
        )
    }
    generated = built_copy("uncharted_passage", files)
    cases = [
        ("strict_titles", "solo", [28], '""'),
        ("strict_titles", "solo", [25], "Hapless Explorer"),
        ("strict_titles", "solo", [31], "Mediocre Explorer"),
        ("strict_titles", "coop", [30, 38], '""'),
        ("strict_titles", "coop", [30, 35], "Hapless Explorers"),
        (None, "solo", [30], "Hapless Explorer"),
        (None, "solo", [31], "Mediocre Explorer"),
        (None, "solo", [50], "Historic Explorer"),
        (None, "solo", [51], "Legendary Explorer"),
        (None, "coop", [35, 35], "Hapless Explorers"),
        (None, "coop", [50, 51], "Legendary Explorers"),
    ]
    failed = []
    for number, (variant, mode, scores, title) in enumerate(cases):
        text = _title_case(variant, mode, scores, title)
        (result,) = run_scenarios(generated, text, tmp_path / f"title{number}.yaml")
        if not result.passed:
            failed.append((variant, mode, scores, result.message))
    assert failed == []


def test_legendary_from_55_widens_historic_to_meet_it(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    """audit6's house rule "Legendary from 55" (tests/data/audit6_uncharted_passage/variants/
    fewer_rocks.yaml) now widens Historic Explorer to 54 as well: 51 to 54 are Historic, 55
    Legendary; without the widening, 54 would be in no band."""
    text = (ROOT / "tests/data/audit6_uncharted_passage/variants/fewer_rocks.yaml").read_text()
    generated = built_copy("uncharted_passage", {"variants/fewer_rocks.yaml": text})
    for score, title in (
        (51, "Historic Explorer"),
        (54, "Historic Explorer"),
        (55, "Legendary Explorer"),
    ):
        case = _title_case("fewer_rocks", "solo", [score], title)
        (result,) = run_scenarios(generated, case, tmp_path / f"rocks{score}.yaml")
        assert result.passed, (score, result.message)


def test_the_audits_cards_and_house_rules_hold_their_cases_and_simulate(
    built_copy: Callable[[str, dict[str, str]], Path],
) -> None:
    """The audit's new cards (a Port Card with no ``discard self``, one played without
    asking, one kept for good with ``single_use false``, a route mission of a region and
    Discovery Spots) and house rules (the Pirate phase removed and played every third month
    after anchoring, ``if round % 3 == 0``; an end condition on the tracks and the Mid-event
    moved to the month's end) hold their cases and play whole greedy games in every mode."""
    points = assert_cases_hold(
        built_copy, "uncharted_passage", AUDIT, ("convoy_months", "turn_for_home"), CASES
    )
    assert_simulates(points, ("solo", "competitive", "coop"))


#: Exploration Journal at a Discovery mission's spot (port_cards.yaml's case), under VARIANT.
JOURNAL = """
scenario: Exploration Journal under VARIANT
game: uncharted_passage
variant: VARIANT
given:
  chart: map
  missions_dealt: true
  player:
    position: sea_2_5
    zones: {missions: [discover_hawaii], port_cards: [exploration_journal]}
    counters: {sailing_speed: 1, crew_stamina: 1}
dice: [2, 5]
choices:
  - exploration_journal.use: "yes"
  - exploration_journal.choose: "5"
do:
  - action: setup
  - action: sail_to
    args: {to: hawaii}
  - action: anchor
expect:
  player:
    prestige: 7
    zones: {port_cards: [HELD]}
  events:
    - play player 1 exploration_journal
"""


def test_a_port_card_the_games_python_plays_is_kept_when_not_single_use(
    built_copy: Callable[[str, dict[str, str]], Path], tmp_path: Path
) -> None:
    """Exploration Journal, Figurehead and Rum's struck-out Crew Action are played by the
    game's Python; a house rule's ``single_use: false`` on one of them keeps it, as the
    property says (it was removed whatever the data said), and a single-use one is still
    discarded."""
    files = {
        "variants/keepsake_journal.yaml": (
            "description: the Exploration Journal is kept\n"
            "cards:\n  exploration_journal: {single_use: false}\n"
        ),
        "variants/spare_sails.yaml": "description: nothing changed\nparams: {rounds: 12}\n",
    }
    generated = built_copy("uncharted_passage", files)
    for variant, held in (("keepsake_journal", "exploration_journal"), ("spare_sails", "")):
        text = JOURNAL.replace("VARIANT", variant).replace("HELD", held)
        (result,) = run_scenarios(generated, text, tmp_path / f"{variant}.yaml")
        assert result.passed, (variant, result.message)


@pytest.mark.parametrize(
    ("data", "prop", "said"),
    [
        ("deliver silk\n  to lisbon\n  spot kraken", "spot", "no anchoring meets both"),
        ("to lisbon", "to", "gives no 'deliver'"),
    ],
)
def test_a_mission_no_anchoring_can_meet_is_refused_at_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: str, prop: str, said: str
) -> None:
    """A mission's conditions all hold for it to be accomplished; a delivery is made docked
    ("when you dock at a destination") and a Discovery mission's spot is anchored at: a card of
    both, or a ``to`` with nothing to deliver, is never accomplished, and ``cardc check`` says
    so at the property."""
    card = (
        '@provisional("a designer\'s card")\n'
        f'mission trade "Lost Cargo" {{\n  reward stars 3\n  {data}\n}}\n'
    )
    found = diagnostics_with_card_file(tmp_path, monkeypatch, "uncharted_passage", card)
    assert [d.severity for d in found] == ["error"], [d.message for d in found]
    (problem,) = found
    assert said in problem.message
    line = next(n for n, text in enumerate(card.splitlines(), 1) if text.strip().startswith(prop))
    assert problem.span.line == line


def test_sim_variant_base_is_the_game_itself(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cardc sim GAME --variant base`` (and ``GAME/base``) plays the game itself, as
    ``--compare base`` and ``cardc sweep --variants base`` name it; it was refused ("no
    compiled variant 'base'")."""
    import json

    from compiler.cli import main

    monkeypatch.chdir(ROOT)
    common = ["--games", "3", "--seed", "4", "--jobs", "1", "--json", "--no-cards"]
    runs = {}
    for argv in (
        ["uncharted_passage"],
        ["uncharted_passage", "--variant", "base"],
        ["uncharted_passage/base"],
    ):
        status = main(["sim", *argv, *common])
        out, err = capsys.readouterr()
        assert status == 0, err
        report = json.loads(out)
        assert report["variant"] is None
        runs[" ".join(argv)] = report["score"]
    assert len({json.dumps(score, sort_keys=True) for score in runs.values()}) == 1
    status = main(
        ["sim", "uncharted_passage", "--variant", "base", "--compare", "harsher_sea", *common]
    )
    out, err = capsys.readouterr()
    assert status == 0, err
    assert [p["variant"] for p in json.loads(out)["points"]] == [None, "harsher_sea"]
