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


def test_check_of_a_game_without_variants_or_reference_skips_those_modules(
    tmp_path: Path,
) -> None:
    # The variants and the sheets' reference checker load only for a game that has them (the
    # sheets' text and its lint load for every game: cardc check reads what the build prints).
    (tmp_path / "cards" / "solo").mkdir(parents=True)
    (tmp_path / "cards" / "solo" / "game.cards").write_text(GAME)
    (tmp_path / "cards" / "solo" / "coin.cards").write_text(CARD)
    code = (
        "import sys\nfrom compiler.cli import main\nstatus = main(['check'])\n"
        "print(status, sorted(m for m in sys.modules if m in "
        "{'compiler.variants', 'compiler.sheets.reference_shape', 'compiler.cli_sim', "
        "'ruamel'}))"
    )
    result = _python(code, tmp_path / "cache", cwd=tmp_path)
    assert result.stdout.strip().splitlines()[-1] == "0 []", result.stdout + result.stderr
    # With a variant and a reference.yaml, both are checked (and so loaded), as before.
    (tmp_path / "cards" / "solo" / "variants").mkdir()
    (tmp_path / "cards" / "solo" / "variants" / "rich.yaml").write_text("nonsense: [\n")
    (tmp_path / "cards" / "solo" / "reference.yaml").write_text("title: [1, 2\n")
    result = _python(code, tmp_path / "cache", cwd=tmp_path)
    assert "rich.yaml" in result.stderr and "reference.yaml" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout.strip().splitlines()[-1] == (
        "1 ['compiler.sheets.reference_shape', 'compiler.variants', 'ruamel']"
    )


def test_the_names_kept_beside_their_modules_agree() -> None:
    from compiler import checking, cli
    from compiler.sheets.reference import REFERENCE_FILE
    from compiler.variants import VARIANTS_DIR

    assert cli.REFERENCE_FILE == REFERENCE_FILE
    assert checking.VARIANTS_DIR == VARIANTS_DIR


def test_every_command_parses_as_before_with_the_core_parser() -> None:
    # `cardc check ...` is parsed without the later commands' modules: the same namespace.
    from compiler.cli import CORE_COMMANDS, build_parser

    lines = [
        ["check", "--format", "json", "--provenance", "a.cards"],
        ["build", "--check", "--no-sheets", "--rebuild", "g"],
        ["parse", "x.cards"],
        ["new", "game"],
    ]
    assert {line[0] for line in lines} == CORE_COMMANDS
    for line in lines:
        assert vars(build_parser(False).parse_args(line)) == vars(build_parser().parse_args(line))


def _blocked(tmp_path: Path) -> dict[str, str]:
    """A cache folder that cannot be made (a file is in its place), and a private TMPDIR."""
    (tmp_path / "blocker").write_text("")
    (tmp_path / "tmp").mkdir()
    return {"CARDC_CACHE_DIR": str(tmp_path / "blocker" / "cache"), "TMPDIR": str(tmp_path / "tmp")}


def _run_env(code: str, env: dict[str, str], cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, **env, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=full, capture_output=True, text=True, timeout=120
    )


PROBE = "import dsl.parser as p; print(p.GRAMMAR_FROM_CACHE, p.parse('x { y 1 }').ok)"


def test_an_unwritable_cache_folder_falls_back_to_a_private_temporary_one(tmp_path: Path) -> None:
    env = _blocked(tmp_path)
    first = _run_env(PROBE, env)
    assert first.stdout.split() == ["False", "True"] and first.stderr == ""
    (fallback,) = (tmp_path / "tmp").glob("cardc-cache-*")
    assert fallback.stat().st_mode & 0o077 == 0  # made private
    assert len(list(fallback.glob("grammar-*.pickle"))) == 1
    second = _run_env(PROBE, env)
    assert second.stdout.split() == ["True", "True"] and second.stderr == ""


def test_a_fallback_folder_others_may_write_to_is_not_trusted(tmp_path: Path) -> None:
    env = _blocked(tmp_path)
    _run_env(PROBE, env)
    (fallback,) = (tmp_path / "tmp").glob("cardc-cache-*")
    fallback.chmod(0o777)  # another user could have planted the pickle
    again = _run_env(PROBE, env)
    assert again.stdout.split() == ["False", "True"] and again.stderr == ""


def test_a_stale_cache_file_of_another_grammar_is_never_read(tmp_path: Path) -> None:
    # The key holds the grammar's text: a cache made for another grammar (a file renamed to
    # this grammar's name is the worst case) is read only if it is a whole lark file; a
    # foreign pickle under the right name is rebuilt over.
    _python(PROBE, tmp_path)
    (saved,) = tmp_path.glob("grammar-*.pickle")
    import pickle

    saved.write_bytes(pickle.dumps({"not": "a grammar"}))
    again = _python(PROBE, tmp_path)
    assert again.stdout.split() == ["False", "True"] and again.stderr == ""
    assert _python(PROBE, tmp_path).stdout.split() == ["True", "True"]


def test_a_cached_grammar_parses_exactly_as_a_fresh_one(tmp_path: Path) -> None:
    # The AST of a real card file, grammar built afresh and then loaded from the cache.
    card = REPO / "cards" / "uncharted_passage" / "port_cards.cards"
    code = f"from compiler.cli import main; main(['parse', {str(card)!r}])"
    fresh = _python(code, tmp_path)
    assert list(tmp_path.glob("grammar-*.pickle"))
    cached = _python(code, tmp_path)
    assert fresh.returncode == cached.returncode == 0, fresh.stderr + cached.stderr
    assert len(fresh.stdout) > 1000 and fresh.stdout == cached.stdout
