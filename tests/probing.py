"""Helpers the probe and audit tests share (tests/test_probe_*.py, tests/test_audit*_*.py): a
project holding a copy of a shipped game, that game checked with a designer's extra card file,
as `cardc check` would see it, scenarios written to a file and run, and an audit's new cards
and house rules built, held to their cases, simulated and printed."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from compiler.pipeline import compile_game
from dsl.diagnostics import Diagnostic, SourceCache

ROOT = Path(__file__).resolve().parent.parent
#: A project's settings: its cards and generated folders where cardc looks by default.
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'


def copy_game(root: Path, game: str) -> Path:
    """``root`` made a project holding a copy of ``cards/<game>/`` (its cards, variants and
    Python); the copied game's folder."""
    folder = root / "cards" / game
    shutil.copytree(ROOT / "cards" / game, folder)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return folder


def diagnostics_with_card_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str, cards: str
) -> list[Diagnostic]:
    """The diagnostics of ``game`` (a copy of ``cards/<game>/``) with one more card file,
    ``probe.cards``, holding ``cards``: only those at that file."""
    (copy_game(tmp_path, game) / "probe.cards").write_text(cards, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = compile_game(Path("cards") / game, SourceCache())
    return [d for d in result.diagnostics if d.span.file.endswith("probe.cards")]


def run_scenarios(generated: Path, text: str, path: Path) -> list[Any]:
    """The results of the scenarios ``text``, written to ``path`` and run against the
    compiled folder ``generated`` (a built copy's, or the repository's)."""
    from engine.scenario import Runner

    path.write_text(text, encoding="utf-8")
    return list(Runner(generated).run_file(path))


# -- what the audits' tests share (tests/test_audit2_*.py, tests/test_audit3_*.py)


def audit_files(audit: Path) -> dict[str, str]:
    """An audit's new cards (its ``*.cards``: ``audit2.cards``, ``audit3.cards``) and house
    rules (``variants/*.yaml``), as paths under the game's folder -> text, for the
    ``built_copy`` fixture."""
    files = {path.name: path.read_text(encoding="utf-8") for path in sorted(audit.glob("*.cards"))}
    for variant in sorted((audit / "variants").glob("*.yaml")):
        files[f"variants/{variant.name}"] = variant.read_text(encoding="utf-8")
    return files


def audit_cases(
    built_copy: Callable[[str, dict[str, str]], Path], game: str, audit: Path
) -> tuple[list[Any], list[Path]]:
    """A copy of ``game`` built with the audit's files; the results of its scenarios
    (``scenarios/*.yaml``) and the compiled folders to simulate: the game's, then each house
    rule's."""
    from engine.scenario import Runner

    generated = built_copy(game, audit_files(audit))
    runner = Runner(generated)
    results = [
        result
        for path in sorted((audit / "scenarios").glob("*.yaml"))
        for result in runner.run_file(path)
    ]
    folder = generated / game
    names = sorted({variant.stem for variant in (audit / "variants").glob("*.yaml")})
    return results, [folder, *(folder / name for name in names)]


def assert_cases_hold(
    built_copy: Callable[[str, dict[str, str]], Path],
    game: str,
    audit: Path,
    variants: tuple[str, ...],
    cases: int,
) -> list[Path]:
    """Every scenario of the audit passes, there are ``cases`` of them, and its house rules
    are ``variants`` (by name, sorted); the compiled folders, as :func:`audit_cases` gives."""
    results, points = audit_cases(built_copy, game, audit)
    assert [point.name for point in points[1:]] == list(variants)
    assert [f"{r.name}: {r.message}" for r in results if not r.passed] == []
    assert len(results) == cases
    return points


def assert_simulates(points: list[Path], modes: tuple[str, ...]) -> None:
    """Each compiled folder plays 3 whole greedy games (seed 5) in each mode."""
    from engine import sim

    for point in points:
        for mode in modes:
            report = sim.simulate(point, 3, 5, mode, "greedy", cards=False)
            assert report.games == 3, (point.name, mode)


def rounds_played(report: Any) -> int:
    """The rounds a simulation's games lasted, all told (the tally's lengths)."""
    return sum(length * n for length, n in report.tally.lengths.items())


def printed_texts(folder: Path, files: set[str]) -> dict[str, str]:
    """The printed text (title -> paragraphs) of the cards and rules of ``files`` (file names
    in the game's folder ``folder``), as the reference of ``folder``'s game prints them."""
    from compiler.sheets.model import build_model
    from compiler.sheets.reference import reference_for, resolve
    from compiler.sheets.text import plain

    result = compile_game(folder, SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    ref = resolve(reference_for(folder, None), result.ir, {c["id"] for c in result.ir["cards"]})
    model = build_model(result.ir, ref, variant=None, folder=folder)
    return {
        card.title: " ".join(plain(p) for p in card.paragraphs)
        for card in [*model.cards, *model.rules]
        if card.source.split("/")[-1].split(":")[0] in files
    }


def audit_texts(tmp_path: Path, game: str, audit: Path) -> dict[str, str]:
    """The audit cards' printed text (title -> paragraphs), beside a copy of the game without
    its variants."""
    folder = tmp_path / "cards" / game
    shutil.copytree(ROOT / "cards" / game, folder, ignore=shutil.ignore_patterns("variants"))
    names = set()
    for path in audit.glob("*.cards"):
        shutil.copy(path, folder / path.name)
        names.add(path.name)
    return printed_texts(folder, names)


def copied_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, game: str) -> Path:
    """A temporary project with a copy of ``game``, made the current directory."""
    copy_game(tmp_path, game)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def scenario_copy(project: Path, game: str, source: Path) -> Path:
    """A copy of a data file of scenarios among the copied project's scenarios."""
    folder = project / "tests" / "scenarios" / game
    folder.mkdir(parents=True, exist_ok=True)
    return Path(shutil.copy(source, folder / source.name))


def check_build_test(
    capsys: pytest.CaptureFixture[str], project: Path, game: str, scenarios: Path, passed: int
) -> None:
    """``cardc check``, ``build GAME --no-sheets`` and ``test`` of a copy of ``scenarios``
    in the project at the current directory: all clean, every one of ``passed`` scenarios
    passing."""
    from test_variant_hardening import run

    status, out = run(capsys, "check")
    assert status == 0, out
    assert run(capsys, "build", game, "--no-sheets")[0] == 0
    status, out = run(capsys, "test", str(scenario_copy(project, game, scenarios)))
    assert status == 0, out
    assert f"{passed} of {passed} scenarios passed" in out
