"""``cardc build``: atomic, incremental, and ``--check`` that names what is out of date.

Every test works on a copy of the real ``cards/`` in a temporary project (a ``pyproject.toml``
with ``[tool.cardc]``), so the repository's own ``generated/`` is never written. The kill tests
stop a build at a known point through the test hooks of :mod:`compiler.build`
(``CARDC_TEST_PAUSE_AFTER_FILES``, ``CARDC_TEST_PAUSE_AT_SWAP``) and SIGKILL it there.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.build import PAUSE_AFTER_FILES, PAUSE_AT_SWAP, BuildOutcome, build
from compiler.project import Project, find_project
from dsl.diagnostics import SourceCache

REPO_ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """A temporary project holding a copy of the real cards, not yet built."""
    shutil.copytree(REPO_ROOT / "cards", tmp_path / "cards")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    found = find_project(tmp_path)
    assert found is not None and found.root == tmp_path
    return found


def _build(project: Project, check: bool = False, paths: list[str] | None = None) -> BuildOutcome:
    return build(project, paths or [], check_only=check, sources=SourceCache())


def _cardc(project: Project, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "compiler.cli", *args],
        cwd=project.root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **env},
    )


def _snapshot(generated: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under ``generated`` with its bytes, mtime (ns) and inode."""
    out = {}
    for path in sorted(generated.rglob("*")):
        if path.is_file():
            stat = path.stat()
            out[path.relative_to(generated).as_posix()] = (
                path.read_bytes(),
                stat.st_mtime_ns,
                stat.st_ino,
            )
    return out


def _bytes(snapshot: dict[str, tuple[bytes, int, int]]) -> dict[str, bytes]:
    return {rel: entry[0] for rel, entry in snapshot.items()}


def _games(project: Project) -> list[str]:
    games = project.games()
    assert len(games) >= 2, "the real project has several games"
    return games


def _edit_a_card(project: Project, game: str) -> Path:
    """Add a card to one of ``game``'s card files; its path.

    A ``rule`` (the prelude's kind, with no properties) fits every game.
    """
    files = sorted(p for p in project.game_dir(game).glob("*.cards") if p.name != "game.cards")
    with files[0].open("a", encoding="utf-8") as handle:
        handle.write('\nrule "Build Test Extra Card" {\n}\n')
    return files[0]


def test_build_then_check_passes(project: Project) -> None:
    outcome = _build(project)
    assert outcome.status == 0 and not outcome.diagnostics, outcome.report
    games = _games(project)
    assert outcome.report[-1].startswith(f"built {len(games)} games")
    checked = _cardc(project, "build", "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "up to date" in checked.stdout
    for game in games:
        assert (project.generated / game / "handlers.py").is_file()
        assert (project.generated / game / "cards.json").is_file()


def test_check_after_editing_a_card_names_the_stale_files(project: Project) -> None:
    _build(project)
    game = _games(project)[-1]
    _edit_a_card(project, game)
    run = _cardc(project, "build", "--check")
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert f"stale: generated/{game}/cards.json" in lines
    assert "stale: generated/manifest.json" in lines
    # Only the edited game is stale.
    other = [line for line in lines if line.startswith("stale: ") and f"/{game}/" not in line]
    assert other == ["stale: generated/manifest.json"]
    assert lines[-1].startswith("generated/ is out of date")


def test_check_reports_a_deleted_file_as_missing(project: Project) -> None:
    _build(project)
    game = _games(project)[0]
    (project.generated / game / "handlers.py").unlink()
    run = _cardc(project, "build", "--check")
    assert run.returncode == 1
    assert f"missing: generated/{game}/handlers.py" in run.stdout.splitlines()
    assert "(0 stale, 1 missing, 0 extra)" in run.stdout


def test_check_reports_a_stray_file_as_extra(project: Project) -> None:
    _build(project)
    (project.generated / "notes.txt").write_text("hand-written", encoding="utf-8")
    (project.generated / _games(project)[0] / "old_handlers.py").write_text("", encoding="utf-8")
    run = _cardc(project, "build", "--check")
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert "extra: generated/notes.txt" in lines
    assert f"extra: generated/{_games(project)[0]}/old_handlers.py" in lines
    # And the next build removes them: generated/ holds exactly what cardc writes.
    assert _build(project).status == 0
    assert not (project.generated / "notes.txt").exists()
    assert _build(project, check=True).status == 0


def test_a_failed_build_leaves_generated_untouched(project: Project) -> None:
    _build(project)
    before = _snapshot(project.generated)
    game = _games(project)[0]
    broken = project.game_dir(game) / "broken.cards"
    broken.write_text(
        'rule "Broken" {\n  on no_such_trigger {\n    gian coins 1\n  }\n}\n', encoding="utf-8"
    )
    run = _cardc(project, "build")
    assert run.returncode == 1
    assert "trigger-undefined" in run.stderr
    assert "build failed: generated/ is unchanged" in run.stdout
    assert _snapshot(project.generated) == before
    assert not _leftovers(project)


def test_a_no_op_rebuild_is_up_to_date_and_rewrites_nothing(project: Project) -> None:
    _build(project)
    before = _snapshot(project.generated)
    directory = project.generated.stat().st_ino
    outcome = _build(project)
    assert outcome.status == 0
    assert outcome.report == [f"generated/ is up to date ({len(_games(project))} games unchanged)"]
    assert _snapshot(project.generated) == before  # bytes, mtimes and inodes
    assert project.generated.stat().st_ino == directory


def test_editing_one_game_rebuilds_only_that_game(project: Project) -> None:
    _build(project)
    games = _games(project)
    edited = games[1]
    before = _snapshot(project.generated)
    _edit_a_card(project, edited)
    outcome = _build(project)
    assert outcome.status == 0, outcome.report
    assert outcome.report[-1].startswith(f"built 1 game ({edited}), {len(games) - 1} unchanged")
    after = _snapshot(project.generated)
    assert set(after) == set(before)
    for rel in before:
        if rel.startswith((f"{edited}/", f"sheets/{edited}/")) or rel == "manifest.json":
            continue
        # Untouched: the same bytes, the same modification time, the very same file.
        assert after[rel] == before[rel], rel
    assert after[f"{edited}/cards.json"][0] != before[f"{edited}/cards.json"][0]
    assert b"Build Test Extra Card" in after[f"{edited}/cards.json"][0]


def test_selecting_one_game_keeps_the_others(project: Project) -> None:
    _build(project)
    games = _games(project)
    before = _bytes(_snapshot(project.generated))
    outcome = _build(project, paths=[games[0]])
    assert outcome.status == 0
    assert _bytes(_snapshot(project.generated)) == before
    assert _build(project, check=True).status == 0


def _leftovers(project: Project) -> list[Path]:
    """What interrupted builds left beside generated/ (new trees, old trees)."""
    return sorted(project.root.glob(".generated.*-*"))


def _start_paused(project: Project, hook: str, value: str, **env: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "compiler.cli", "build"],
        cwd=project.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, hook: value, **env},
    )
    assert process.stderr is not None
    line = process.stderr.readline()
    if "cardc: test pause" not in line:
        process.kill()
        out, err = process.communicate()
        pytest.fail(f"the build did not pause: {line}{err}{out}")
    return process


def _kill(process: subprocess.Popen[str]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL


def test_a_build_killed_half_way_leaves_the_previous_tree(project: Project) -> None:
    assert _build(project).status == 0
    before = _snapshot(project.generated)
    _edit_a_card(project, _games(project)[0])
    process = _start_paused(project, PAUSE_AFTER_FILES, "2")
    assert [p.name[:15] for p in _leftovers(project)] == [".generated.new-"]  # half a tree...
    _kill(process)
    assert _snapshot(project.generated) == before  # ...and generated/ is as it was
    # The next build cleans up and succeeds.
    outcome = _build(project)
    assert outcome.status == 0, outcome.report
    assert not _leftovers(project)
    assert _build(project, check=True).status == 0
    assert _snapshot(project.generated) != before


def test_a_build_killed_between_the_renames_is_recovered_from_generated_old(
    project: Project,
) -> None:
    assert _build(project).status == 0
    before = _snapshot(project.generated)
    card = _edit_a_card(project, _games(project)[0])
    original = card.read_text(encoding="utf-8")
    # Where the system cannot exchange two folders atomically, two renames swap them.
    process = _start_paused(project, PAUSE_AT_SWAP, "1", CARDC_TEST_SWAP="renames")
    _kill(process)
    # The kill fell between the renames: only the old tree holds the previous tree.
    assert not project.generated.exists()
    old = [p for p in _leftovers(project) if p.name.startswith(".generated.old-")]
    assert len(old) == 1 and _bytes(_snapshot(old[0])) == _bytes(before)
    # Undo the edit: recovery must bring back exactly the previous tree, which is up to date.
    card.write_text(original.split('\nrule "Build Test Extra Card"')[0], encoding="utf-8")
    # --check reads the tree the build would start from (the old one): up to date, as the
    # build will say; and it moves nothing.
    checked = _cardc(project, "build", "--check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert not project.generated.exists() and old[0].is_dir()
    outcome = _build(project)
    assert outcome.status == 0, outcome.report
    assert outcome.report[-1].startswith("generated/ is up to date")
    assert outcome.report[0] == "recovered generated/ from a build that was interrupted"
    assert not _leftovers(project)
    assert _snapshot(project.generated) == before


def test_a_build_killed_between_the_renames_then_rebuilds(project: Project) -> None:
    assert _build(project).status == 0
    game = _games(project)[0]
    _edit_a_card(project, game)
    _kill(_start_paused(project, PAUSE_AT_SWAP, "1", CARDC_TEST_SWAP="renames"))
    run = _cardc(project, "build")
    assert run.returncode == 0, run.stderr
    assert f"built 1 game ({game})" in run.stdout
    assert not _leftovers(project)
    assert b"Build Test Extra Card" in (project.generated / game / "cards.json").read_bytes()
    assert _cardc(project, "build", "--check").returncode == 0


def test_a_build_without_sheets_keeps_them_and_the_next_full_build_renders_them(
    project: Project,
) -> None:
    """``cardc build --no-sheets`` skips the slow sheets, and never leaves them stale for good."""
    _build(project)
    game = _games(project)[0]
    before = _snapshot(project.generated)
    _edit_a_card(project, game)
    quick = build(project, [], check_only=False, sources=SourceCache(), sheets=False)
    assert quick.status == 0, quick.report
    after = _snapshot(project.generated)
    sheets = [rel for rel in before if rel.startswith(f"sheets/{game}/")]
    assert sheets, "the full build wrote sheets"
    for rel in sheets:  # kept as they were, not rendered
        assert after[rel][0] == before[rel][0], rel
    assert after[f"{game}/cards.json"][0] != before[f"{game}/cards.json"][0]
    # The sources did not change since, but the sheets were not rendered from them: rebuild.
    full = _build(project)
    assert full.report[-1].startswith(f"built 1 game ({game})"), full.report
    assert _build(project, check=True).status == 0
