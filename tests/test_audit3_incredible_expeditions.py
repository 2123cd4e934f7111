"""A third, independent tester's Incredible Expeditions: Quest for Atlantis, written from the
rulebook (/work/shared/rulebooks/incredible-expeditions-atlantis.txt) and the README alone:
six new cards (a Crew that looks at a deck, an Encounter that makes the next ones harder, a
Resource that looks at a deck, a Crew answering If Undefeated, an Encounter whose difficulty
grows Upon Facing and a Crew that lowers a Creature's), four house rules (the hand size, the
Draw Phase moved first, a new winning condition, a Market variant), each played by a scenario
and simulated; the turn order after the bid and whole games at every player count, seeded and
deterministic; and what they found. The rule cases are
tests/scenarios/incredible_expeditions/audit3_rules.yaml.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from probing import check_build_test, copied_project, scenario_copy
from test_variant_hardening import run

DATA = Path(__file__).resolve().parent / "data" / "audit3_incredible_expeditions"
GAME = "incredible_expeditions"
VARIANTS = ("big_hands", "draw_first", "landfall", "small_market")

pytestmark = pytest.mark.usefixtures("fresh_file_cache")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary project with a copy of Incredible Expeditions, the current directory."""
    return copied_project(tmp_path, monkeypatch, GAME)


def scenarios(project: Path, name: str, text: str | None = None) -> Path:
    """A scenario file among the copied project's scenarios: a data file's copy, or ``text``."""
    folder = project / "tests" / "scenarios" / GAME
    folder.mkdir(parents=True, exist_ok=True)
    if text is None:
        return scenario_copy(project, GAME, DATA / name)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def sim(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    """``cardc sim incredible_expeditions ... --json``'s report."""
    status, out = run(capsys, "sim", GAME, "--no-cards", "--json", "-q", "--jobs", "1", *argv)
    assert status == 0, out
    report: dict[str, object] = json.loads(out)
    return report


def test_new_cards_check_build_and_play_as_their_text_says(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(DATA / "cards.cards", project / "cards" / GAME / "audit3.cards")
    check_build_test(capsys, project, GAME, DATA / "cards.yaml", 13)
    # The new cards are dealt into simulated games, at 4 players too.
    report = sim(capsys, "--players", "4", "--games", "3", "--seed", "5")
    assert report["games"] == 3


def test_house_rules_play_their_difference_and_simulate(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in VARIANTS:
        shutil.copy(DATA / "variants" / f"{name}.yaml", project / "cards" / GAME / "variants")
    check_build_test(capsys, project, GAME, DATA / "variants.yaml", 4)
    for name in VARIANTS:
        report = sim(capsys, "--variant", name, "--games", "4", "--seed", "2")
        assert (report["variant"], report["games"]) == (name, 4)


def test_a_house_rules_own_end_reason_is_expectable_and_a_misspelt_one_is_not(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # EXPECT_KINDS held end_reason to the base game's two reasons: a house rule's own
    # end_game "landfall at Atlantis" could not be expected at all.
    shutil.copy(DATA / "variants" / "landfall.yaml", project / "cards" / GAME / "variants")
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    text = (DATA / "variants.yaml").read_text(encoding="utf-8")
    landfall = next(doc for doc in text.split("---\n") if "variant: landfall" in doc)
    status, out = run(capsys, "test", str(scenarios(project, "landfall.yaml", landfall)))
    assert status == 0, out
    wrong = landfall.replace('"landfall at Atlantis"', '"landfall at Atlantys"')
    status, out = run(capsys, "test", str(scenarios(project, "landfall.yaml", wrong)))
    assert status == 1
    assert re.search(
        r"landfall\.yaml:\d+:\d+: 'landfall at Atlantys' is not an end reason; "
        r"did you mean 'landfall at Atlantis'\?",
        out,
    ), out


HAND_OF_AN_ENCOUNTER = """\
scenario: an Encounter given in the hand
rulebook: "The Resource cards in your hand have values on the upper left"
game: incredible_expeditions
mode: competitive
given:
  market: [deckhand]
  player:
    zones: {hand: [sea_serpent]}
choices:
  - acquire: deckhand
do:
  - action: acquire_cards
expect:
  player:
    cabins: [deckhand]
"""


def test_a_card_of_the_wrong_kind_in_a_zone_is_an_error_at_its_line(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The scenario fuzz's finding: an Encounter given in the hand ran, and the Market's
    # arithmetic met it as a card without values: "internal error in this step: KeyError".
    assert run(capsys, "build", GAME, "--no-sheets")[0] == 0
    path = scenarios(project, "wrong_kind.yaml", HAND_OF_AN_ENCOUNTER)
    status, out = run(capsys, "test", str(path))
    assert status == 1
    assert "wrong_kind.yaml:8:20: 'sea_serpent' is not a Resource" in out, out
    assert "internal error" not in out and "KeyError" not in out, out


_FIRST = re.compile(r"player (\d) takes the first turn")
_TURN = re.compile(r"^Turn \d+, player (\d):", re.M)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turns_go_around_the_table_from_the_highest_bet(
    capsys: pytest.CaptureFixture[str], players: int
) -> None:
    # "Whoever bets the most gets the first turn": the turns go around the table from that
    # seat, every player once a round.
    firsts = set()
    for seed in range(1, 7):
        status, out = run(
            capsys,
            "sim",
            GAME,
            "--players",
            str(players),
            "--games",
            "1",
            "--seed",
            str(seed),
            "--log",
            "-q",
        )
        assert status == 0, out
        first = int(_FIRST.search(out).group(1))  # type: ignore[union-attr]
        firsts.add(first)
        seats = [int(s) for s in _TURN.findall(out)]
        assert len(seats) > players, out
        expected = [(first - 1 + k) % players + 1 for k in range(len(seats))]
        assert seats == expected
    # The seeds chosen see more than one seat win the bid (the check is not of seat 1 alone).
    assert len(firsts) > 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_at_every_player_count_are_seeded_and_deterministic(
    capsys: pytest.CaptureFixture[str], players: int
) -> None:
    first = sim(capsys, "--players", str(players), "--games", "6", "--seed", "11")
    again = sim(capsys, "--players", str(players), "--games", "6", "--seed", "11")
    other = sim(capsys, "--players", str(players), "--games", "6", "--seed", "12")
    assert first == again
    assert first["games"] == 6
    assert first != other
