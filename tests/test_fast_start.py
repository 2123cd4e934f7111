"""A fast start: the compiled grammar comes from a per-user cache, and `cardc check` loads only
what checking needs (no jinja2, WeasyPrint or jsonschema)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

GAME = """\
game solo "Solo" {
  players 1
  counter coins
  trigger play "the card is played"
  kind port_card "a card" { property copies number }
}
"""
CARD = 'port_card "Coin" {\n  copies 2\n  on play { gain coins 1 }\n}\n'


def _python(code: str, cache: Path | None, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CARDC_CACHE_DIR"}
    if cache is not None:
        env["CARDC_CACHE_DIR"] = str(cache)
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_grammar_is_built_once_then_loaded_from_the_cache(tmp_path: Path) -> None:
    probe = "import dsl.parser as p; print(p.GRAMMAR_FROM_CACHE, p.parse('x { y 1 }').ok)"
    first = _python(probe, tmp_path)
    assert first.stdout.split() == ["False", "True"], first.stderr
    saved = list(tmp_path.glob("grammar-*.pickle"))
    assert len(saved) == 1
    second = _python(probe, tmp_path)
    assert second.stdout.split() == ["True", "True"], second.stderr


def test_a_changed_grammar_or_lark_gets_another_cache_file() -> None:
    from dsl.grammar_cache import grammar_key

    options = {"parser": "lalr"}
    assert grammar_key("start: A", options) != grammar_key("start: B", options)
    assert grammar_key("start: A", options) != grammar_key("start: A", {"parser": "earley"})


def test_a_corrupt_cache_file_is_rebuilt_silently(tmp_path: Path) -> None:
    probe = "import dsl.parser as p; print(p.GRAMMAR_FROM_CACHE, p.parse('x { y 1 }').ok)"
    _python(probe, tmp_path)
    (saved,) = tmp_path.glob("grammar-*.pickle")
    saved.write_bytes(b"not a pickle")
    again = _python(probe, tmp_path)
    assert again.stdout.split() == ["False", "True"]
    assert again.stderr == ""
    assert _python(probe, tmp_path).stdout.split() == ["True", "True"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through read-only modes")
def test_an_unwritable_cache_folder_is_no_error(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        result = _python("import dsl.parser as p; print(p.parse('x { y 1 }').ok)", locked)
    finally:
        locked.chmod(stat.S_IRWXU)
    assert result.stdout.split() == ["True"] and result.stderr == ""


def test_a_cache_path_that_is_a_file_is_no_error(tmp_path: Path) -> None:
    # Where the folder should be there is a file (as root, modes do not stop a write).
    blocker = tmp_path / "blocker"
    blocker.write_text("")
    result = _python("import dsl.parser as p; print(p.parse('x { y 1 }').ok)", blocker / "cache")
    assert result.stdout.split() == ["True"] and result.stderr == ""


def test_check_imports_no_emitter_or_schema_library(tmp_path: Path) -> None:
    (tmp_path / "cards" / "solo").mkdir(parents=True)
    (tmp_path / "cards" / "solo" / "game.cards").write_text(GAME)
    (tmp_path / "cards" / "solo" / "coin.cards").write_text(CARD)
    code = (
        "import sys\nfrom compiler.cli import main\nstatus = main(['check'])\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & "
        "{'jinja2', 'weasyprint', 'jsonschema', 'pydyf', 'fontTools'})\n"
        "print(status, heavy)"
    )
    result = _python(code, tmp_path / "cache", cwd=tmp_path)
    assert "no errors" in result.stdout, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "0 []"
