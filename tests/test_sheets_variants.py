"""Variants printed as they play: the rules reference reads the variant's parameters, added
rules and cards print, removed ones do not, a variant's own reference tables, and `cardc diff`
and the errata in statements and the rulebook's words."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from compiler.cli import main
from compiler.pipeline import compile_game
from compiler.project import Project, find_project
from compiler.sheets import render_sheet_files
from compiler.variants import compile_variant
from dsl.diagnostics import SourceCache

REPO = Path(__file__).resolve().parent.parent
CARDS = REPO / "cards"
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'


def _md(project: Project, game: str, variant: str | None) -> str:
    folder = project.game_dir(game)
    if variant is None:
        result = compile_game(folder, SourceCache())
    else:
        result, _ = compile_variant(folder, folder / "variants" / f"{variant}.yaml", SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    files = render_sheet_files(project, game, result.ir, variant=variant, formats=("md",))
    return files[f"sheets/{game}/{variant or game}.md"].decode()


def _repo() -> Project:
    project = find_project(REPO)
    assert project is not None
    return project


def test_the_reference_reads_the_variants_parameters() -> None:
    base = _md(_repo(), "uncharted_passage", None)
    thirteen = _md(_repo(), "uncharted_passage", "thirteen_months")
    assert "played over a total of 12 rounds" in base
    assert "played over a total of 13 rounds" in thirteen
    assert "12 rounds" not in thirteen


def test_a_removed_layer_is_neither_a_card_nor_a_row_of_the_reference() -> None:
    md = _md(_repo(), "land_vs_sea", "experienced")
    for layer in ("Menhir scoring", "Bandit & Pirate scoring", "Bandit and Pirate scoring"):
        assert f"| {layer} |" not in md and f"### {layer}" not in md
    assert "| City scoring |" in md and "### City scoring" in md
    # The variant's own table (sheets/experienced.reference.yaml): the rulebook's mix.
    assert "### The experienced mix" in md and "Mountain & Coral scoring" in md
    assert "experienced mix" not in _md(_repo(), "land_vs_sea", None)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Project:
    """A copy of Darwin's Journey in a temporary project, cwd at its root."""
    shutil.copytree(CARDS / "darwins_journey", tmp_path / "cards" / "darwins_journey")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    found = find_project(tmp_path)
    assert found is not None
    return found


_HARSHER_RAID = """\
description: Harsher raids
remove: [pirate_raid]
add: |
  rule "Pirate Raid" {
    on reward_phase_end {
      for each raided in players where ship_region(raided) == pirate_region() {
        pay coins 3 + 2 * treasure else lose victory_points missing
        return_treasure
      }
    }
  }
  rule "Storm" {
    on reward_phase_end {
      lose coins 1
    }
  }
"""


def _write(project: Project, name: str, text: str) -> None:
    (project.cards / "darwins_journey" / "variants" / f"{name}.yaml").write_text(text)


def test_an_added_rule_is_printed_in_the_reference(project: Project) -> None:
    _write(project, "raids", _HARSHER_RAID)
    md = _md(project, "darwins_journey", "raids")
    assert "**Storm.** After each Reward Phase, lose 1 \\[Coins\\] Coin." in md
    assert "pay \\[Coins\\] Coins equal to 3 plus 2" in md
    # Rules are not cards: not in the card list.
    card_list = md.split("### Card list", 1)[1].split("###", 1)[0]
    assert "Storm" not in card_list and "Pirate Raid" not in card_list


def test_diff_shows_the_changed_statement_of_a_replaced_rule(
    project: Project, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(project, "raids", _HARSHER_RAID)
    assert main(["diff", "darwins_journey", "darwins_journey/raids"]) == 0
    out = capsys.readouterr().out
    assert (
        "on reward_phase_end > for each raided in players where "
        "ship_region(raided) == pirate_region(): pay coins 2 + 2 * treasure else lose "
        "victory_points missing -> pay coins 3 + 2 * treasure else lose victory_points "
        "missing\n"
    ) in out
    # Not the whole loop twice, and the unchanged statement is not listed.
    assert "{ ... } -> for each" not in out and "return_treasure" not in out
    assert "added rule storm (Storm)" in out


def test_the_errata_says_what_changed_in_the_rulebooks_words(project: Project) -> None:
    _write(project, "raids", _HARSHER_RAID)
    out = project.root / "errata.md"
    assert main(["diff", "darwins_journey", "darwins_journey/raids", "--errata", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "In the rulebook's words, it said: After each Reward Phase, every player whose" in text
    assert "It now says: After each Reward Phase" in text
    # Words only: an icon's name in brackets ("[coins]") is no reader's word.
    assert "pay Coins equal to 3 plus 2 for each Treasure token" in text
    assert "[coins]" not in text and "\\[coins\\]" not in text


def test_the_errata_says_a_changed_value_by_its_label(project: Project) -> None:
    # pirate_unlocked changes a value of the Pirate tile, not its rule: the errata says the
    # value as the card prints it ("Unlocked at start: yes"), and never the same words twice.
    out = project.root / "errata.md"
    assert (
        main(["diff", "darwins_journey", "darwins_journey/pirate_unlocked", "--errata", str(out)])
        == 0
    )
    text = out.read_text(encoding="utf-8")
    said = text.split("it said: ", 1)[1].split("\n", 1)[0]
    now = text.split("It now says: ", 1)[1].split("\n", 1)[0]
    assert said != now
    assert "Unlocked at start: yes." in now and "Unlocked at start" not in said
