"""Benchmark: the sheets of every card of every game, cold and unchanged.

Cold: each game compiled and its sheets (HTML, Markdown, PDF) rendered in a fresh process state
(the in-process memo cleared). Unchanged: ``cardc sheets`` run again over the same sources and
options, which must find each game's stamp and render nothing. Run: ``python bench/sheets.py``.
Goals (issue 6): cold at most 10 s here; unchanged well under 1 s.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    """Print the cold and unchanged figures."""
    from compiler import sheets
    from compiler.cli import main as cardc
    from compiler.pipeline import compile_game
    from compiler.project import find_project
    from compiler.sheets import render_sheet_files
    from dsl.diagnostics import SourceCache

    project = find_project(ROOT)
    assert project is not None
    games = project.games()
    # Import WeasyPrint and lay out a first page outside the timing, as a warm process would.
    start = time.perf_counter()
    import weasyprint

    weasyprint.HTML(string="<p>warm</p>").write_pdf()
    startup = time.perf_counter() - start

    sheets._MEMO.clear()
    total_cards = 0
    total_bytes = 0
    cold_start = time.perf_counter()
    for game in games:
        t0 = time.perf_counter()
        result = compile_game(project.game_dir(game), SourceCache())
        assert result.ir is not None
        files = render_sheet_files(project, game, result.ir)
        from compiler.sheets.model import build_model
        from compiler.sheets.reference import REFERENCE_FILE, load_reference

        ref = load_reference(project.game_dir(game) / REFERENCE_FILE)
        cards = len(build_model(result.ir, ref).cards)
        total_cards += cards
        total_bytes += sum(len(b) for b in files.values())
        print(f"  {game:<24} {cards:>4} cards  {time.perf_counter() - t0:6.2f} s")
    cold = time.perf_counter() - cold_start
    print(
        f"cold: {total_cards} cards of {len(games)} games in {cold:.2f} s "
        f"({total_cards / cold:.1f} cards/s, {total_bytes / 1e6:.1f} MB; "
        f"WeasyPrint start-up {startup:.2f} s not counted)"
    )

    with tempfile.TemporaryDirectory() as out:
        here = os.getcwd()
        os.chdir(ROOT)
        try:
            args = ["sheets", "--out", out, "--format", "html,md,pdf", "--paper", "a4"]
            with contextlib.redirect_stdout(io.StringIO()):
                sheets._MEMO.clear()
                t0 = time.perf_counter()
                cardc([*args, "--backs"])
                first = time.perf_counter() - t0
                t0 = time.perf_counter()
                cardc([*args, "--backs"])
                unchanged = time.perf_counter() - t0
        finally:
            os.chdir(here)
    print(
        f"cardc sheets --backs --out DIR: first run {first:.2f} s, "
        f"unchanged {unchanged * 1000:.0f} ms (not re-rendered)"
    )


if __name__ == "__main__":
    main()
