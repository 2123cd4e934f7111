"""Without WeasyPrint's system libraries (Pango) cardc says what to install, and still writes
the HTML and Markdown sheets (issue 13).

The missing library is simulated: WeasyPrint's import fails as it does on such a machine, with
an OSError naming the library (or an ImportError, WeasyPrint itself missing).
"""

from __future__ import annotations

import importlib.abc
import shutil
import sys
from pathlib import Path

import pytest

import compiler.sheets as sheets
from compiler.cli import main
from compiler.project import find_project
from compiler.sheets.pdf import renderer_problem

REPO_ROOT = Path(__file__).resolve().parent.parent
GAME = "land_vs_sea"
SHEETS = f"generated/sheets/{GAME}/{GAME}"


class _NoPango(importlib.abc.MetaPathFinder):
    """Fails ``import weasyprint`` the way a machine without Pango does."""

    def find_spec(self, name: str, path: object, target: object = None) -> None:
        if name == "weasyprint" or name.startswith("weasyprint."):
            raise OSError(
                "cannot load library 'libpango-1.0-0': libpango-1.0-0: cannot open shared "
                "object file: No such file or directory"
            )
        return None


@pytest.fixture
def no_pango(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [n for n in sys.modules if n == "weasyprint" or n.startswith("weasyprint.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [_NoPango(), *sys.meta_path])
    monkeypatch.setattr(sheets, "_MEMO", {})
    renderer_problem.cache_clear()
    yield
    renderer_problem.cache_clear()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(REPO_ROOT / "cards" / GAME, tmp_path / "cards" / GAME)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    assert find_project(tmp_path) is not None
    return tmp_path


def test_without_pango_build_names_what_to_install_and_writes_html_and_markdown(
    project: Path, no_pango: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["build"]) == 0
    out, err = capsys.readouterr()
    assert "warning[sheet-pdf]" in err and "libpango-1.0-0" in err
    assert "apt-get install libpango-1.0-0" in err and "brew install pango" in err
    assert "internal error" not in err
    assert (project / f"{SHEETS}.html").is_file() and (project / f"{SHEETS}.md").is_file()
    assert not (project / f"{SHEETS}.pdf").exists()
    assert "Menhir" in (project / f"{SHEETS}.html").read_text(encoding="utf-8")
    # build and --check agree on this machine too.
    assert main(["build", "--check"]) == 0, capsys.readouterr()


def test_the_pdfs_come_back_once_pango_is_there(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    finder = _NoPango()
    for name in [n for n in sys.modules if n == "weasyprint" or n.startswith("weasyprint.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    monkeypatch.setattr(sheets, "_MEMO", {})
    renderer_problem.cache_clear()
    try:
        assert main(["build"]) == 0
    finally:
        sys.meta_path.remove(finder)
        renderer_problem.cache_clear()
    capsys.readouterr()
    assert main(["build"]) == 0  # the sources did not change, but the PDFs were never made
    out = capsys.readouterr().out
    assert f"built 1 game ({GAME})" in out
    assert (project / f"{SHEETS}.pdf").read_bytes().startswith(b"%PDF")


def test_without_weasyprint_sheets_writes_the_other_formats_and_fails_clearly(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in [n for n in sys.modules if n == "weasyprint" or n.startswith("weasyprint.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "weasyprint", None)  # ImportError: not installed
    monkeypatch.setattr(sheets, "_MEMO", {})
    renderer_problem.cache_clear()
    try:
        status = main(["sheets", GAME, "--paper", "letter", "--out", "print"])
    finally:
        renderer_problem.cache_clear()
    out, err = capsys.readouterr()
    assert status == 1
    assert "no PDF written: WeasyPrint is not installed" in err and "pip install" in err
    assert "internal error" not in err
    assert (project / "print" / GAME / f"{GAME}.html").is_file()
    assert (project / "print" / GAME / f"{GAME}.md").is_file()
    assert not (project / "print" / GAME / f"{GAME}.pdf").exists()


def test_the_browser_tests_name_chromium_when_it_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "sheets_browser_for_test", REPO_ROOT / "tests" / "test_sheets_browser.py"
    )
    assert spec is not None and spec.loader is not None
    browser = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(browser)
    monkeypatch.setattr(browser, "CHROMIUM", None)
    with pytest.raises(pytest.fail.Exception, match=r"apt-get install chromium"):
        browser._measure("<html><body></body></html>", tmp_path)
