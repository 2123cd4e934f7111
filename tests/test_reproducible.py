"""The same sources give the same generated/ on any machine, at any time (issue 13).

A sheet's PDF must not depend on which font subsetter WeasyPrint finds (HarfBuzz's
libharfbuzz-subset or fontTools) nor on the clock (fontTools writes the time into a font's
``head.modified``), and ``cardc build`` and ``cardc build --check`` must agree on what is up to
date, even when a committed PDF was rendered by another machine's renderer.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from pathlib import Path

import pytest

from compiler.build import BuildOutcome, build
from compiler.project import Project, find_project
from dsl.diagnostics import SourceCache

REPO_ROOT = Path(__file__).resolve().parent.parent
#: The smallest shipped game: it builds in a few seconds.
GAME = "land_vs_sea"


def _small_pdf() -> bytes:
    """The smallest game's PDF, every face laid out and every font cut afresh."""
    from compiler import sheets
    from compiler.pipeline import compile_game
    from compiler.sheets import html as sheet_html

    project = find_project(REPO_ROOT)
    assert project is not None
    result = compile_game(project.game_dir(GAME), SourceCache())
    assert result.ir is not None
    sheets._MEMO.clear()
    sheet_html._subset.cache_clear()
    files = sheets.render_sheet_files(project, GAME, result.ir, formats=("pdf",), cache=False)
    return files[f"sheets/{GAME}/{GAME}.pdf"]


def test_pdf_bytes_depend_neither_on_the_font_subsetter_nor_on_the_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import weasyprint.pdf.fonts as weasy_fonts

    as_found = _small_pdf()  # HarfBuzz's subsetter where the machine has it
    monkeypatch.setattr(weasy_fonts, "harfbuzz_subset", None)  # forces fontTools
    with_fonttools = _small_pdf()
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + 400 * 86400)  # a year on
    a_year_later = _small_pdf()
    digests = {hashlib.sha256(pdf).hexdigest() for pdf in (as_found, with_fonttools, a_year_later)}
    assert len(digests) == 1, "the PDF's bytes changed with the subsetter or the clock"
    import io

    from pypdf import PdfReader

    # Real text, in the fonts cut for it: the box's first card and a scoring layer's card.
    pages = PdfReader(io.BytesIO(as_found)).pages
    assert "Bonus scoring" in pages[0].extract_text()
    assert any("Menhir scoring" in page.extract_text() for page in pages)


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """A temporary project holding one shipped game, not yet built."""
    shutil.copytree(REPO_ROOT / "cards" / GAME, tmp_path / "cards" / GAME)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n', encoding="utf-8"
    )
    found = find_project(tmp_path)
    assert found is not None
    return found


def _build(project: Project, check: bool = False, rebuild: bool = False) -> BuildOutcome:
    return build(project, [], check_only=check, sources=SourceCache(), rebuild=rebuild)


def test_build_and_check_agree_when_another_renderer_made_the_pdfs(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A PDF committed from another machine is kept by ``build``, so ``--check`` keeps it too."""
    import compiler.sheets as sheets
    import compiler.sheets.impose as sheet_pdf

    assert _build(project).status == 0
    pdfs = sorted(p for p in project.generated.rglob("*.pdf"))
    assert pdfs
    # From here on the renderer makes other bytes (another WeasyPrint, Pango, fontTools).
    render = sheet_pdf.impose

    def other_renderer(*args, **kwargs):  # type: ignore[no-untyped-def]
        return render(*args, **kwargs) + b"% another renderer\n"

    monkeypatch.setattr(sheet_pdf, "impose", other_renderer)
    monkeypatch.setattr(sheets, "_MEMO", {})
    built = _build(project)
    checked = _build(project, check=True)
    assert built.status == 0 and built.report[-1].startswith("generated/ is up to date")
    assert checked.status == 0, checked.report
    # --rebuild renders anew: --check --rebuild names exactly what build --rebuild rewrites.
    rechecked = _build(project, check=True, rebuild=True)
    assert rechecked.status == 1
    stale = {line.split("generated/", 1)[1] for line in rechecked.report if line[:6] == "stale:"}
    assert stale == {p.relative_to(project.generated).as_posix() for p in pdfs} | {"manifest.json"}
    before = {p: p.read_bytes() for p in project.generated.rglob("*") if p.is_file()}
    assert _build(project, rebuild=True).status == 0
    changed = {
        p.relative_to(project.generated).as_posix()
        for p, data in before.items()
        if p.read_bytes() != data
    }
    assert changed == stale
    assert _build(project, check=True, rebuild=True).status == 0
