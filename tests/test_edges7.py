"""Rough edges of the tooling that testers found (edges7):

- ``cardc check`` was clean, then ``cardc build`` failed on the printed sheets' text lint,
  which only ``build`` and ``sheets`` ran. ``cardc check`` now reads each game's and
  variant's sheet as the build prints it (its model, not laid out) and reports the lint's
  problems at the same file, line and column, with the same hint.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_variant_hardening import run

pytestmark = pytest.mark.usefixtures("fresh_file_cache")

KEEP_GAME = """\
game keep "Keep" {
  players 1
  score coins
  counter coins
  symbol plains, forest "a district" { group district }
  trigger play "the card is played"
  kind land "a land of the map" {
    property district name { names district }
    property copies number optional
  }
}
"""
KEEP_LANDS = """\
land "The Keep" {
  district plains
  on play { gain coins 1 }
}
land "Oakwood" { district forest }
"""


def _keep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project of one small game whose districts have no rulebook words, made current."""
    folder = tmp_path / "cards" / "keep"
    folder.mkdir(parents=True)
    (folder / "game.cards").write_text(KEEP_GAME, encoding="utf-8")
    (folder / "lands.cards").write_text(KEEP_LANDS, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return folder


def _sheet_text(out: str) -> list[str]:
    """The sheet-text errors of ``out``, each with its source lines and hint."""
    blocks = [b[b.index("cards/") :] for b in out.split("\n\n") if "error[sheet-text]" in b]
    return sorted(b.strip() for b in blocks)


# -- 1. cardc check reports the sheets' text lint, as the build does


def test_check_reports_the_text_lint_the_build_fails_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _keep(tmp_path, monkeypatch)
    status, checked = run(capsys, "check")
    assert status == 1, checked
    assert (
        "cards/keep/lands.cards:1:1: error[sheet-text]: card text does not read as a rulebook: "
        "The Keep: District: the internal word 'plains' (give it the rulebook's words)" in checked
    ), checked
    assert "cards/keep/lands.cards:5:1: error[sheet-text]:" in checked, checked
    assert "hint: give the name its rulebook words in reference.yaml's words/phrases/when" in (
        checked
    )
    status, built = run(capsys, "build")
    assert status == 1, built
    # The same problems at the same places with the same hint: check and build agree.
    assert _sheet_text(checked) == _sheet_text(built) and len(_sheet_text(built)) == 2, built
    # Given their words, the check is clean.
    (folder / "reference.yaml").write_text(
        "words:\n  plains: Plains\n  forest: Forest\n", encoding="utf-8"
    )
    status, checked = run(capsys, "check")
    assert status == 0, checked
    assert "sheet-text" not in checked


def test_check_reports_the_text_lint_of_a_variants_sheet_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _keep(tmp_path, monkeypatch)
    (folder / "reference.yaml").write_text("words:\n  plains: Plains\n", encoding="utf-8")
    (folder / "variants").mkdir()
    # The variant adds a card of its own; the base card's problem (Oakwood) is in the
    # game's sheet and in the variant's: told once.
    (folder / "variants" / "moor.yaml").write_text(
        'description: a moor\nadd: |\n  land "Moor" { district forest }\n', encoding="utf-8"
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert out.count("Oakwood: District: the internal word 'forest'") == 1, out
    assert (
        "cards/keep/variants/moor.yaml:3:1: error[sheet-text]: card text does not read as a "
        "rulebook: Moor: District: the internal word 'forest'" in out
    ), out
