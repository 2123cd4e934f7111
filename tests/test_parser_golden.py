"""Golden ASTs of the real card files.

Every ``*.cards`` file under ``cards/`` (``variants/`` folders excluded, as ``cardc`` excludes
them) has its AST, as ``dsl.nodes.to_json`` gives it, checked in under ``tests/golden/ast/``
at the same relative path plus ``.json``. A parser change that alters any tree shows up as a
diff here; after an intended change, run ``pytest --update-golden`` and review the diff.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from dsl.nodes import to_json
from dsl.parser import ParseResult, parse_file

REPO_ROOT = Path(__file__).resolve().parent.parent
CARDS_DIR = REPO_ROOT / "cards"
GOLDEN_DIR = REPO_ROOT / "tests" / "golden" / "ast"


def _card_files() -> list[str]:
    """The card files, as POSIX paths relative to cards/, sorted."""
    return sorted(
        path.relative_to(CARDS_DIR).as_posix()
        for path in CARDS_DIR.rglob("*.cards")
        if path.is_file() and "variants" not in path.relative_to(CARDS_DIR).parts
    )


CARD_FILES = _card_files()


def _parse_card(relative: str) -> ParseResult:
    """Parse ``cards/<relative>``, naming it by its repo-relative path.

    The file's path is the only location in the JSON (spans hold line and column only), so
    renaming it makes the goldens independent of where the checkout lives.
    """
    result = parse_file(CARDS_DIR / relative)
    repo_path = (Path("cards") / relative).as_posix()
    return dataclasses.replace(result, file=dataclasses.replace(result.file, path=repo_path))


def _golden_text(result: ParseResult) -> str:
    return json.dumps(to_json(result.file), indent=1, sort_keys=False, ensure_ascii=False) + "\n"


def _golden_path(relative: str) -> Path:
    return GOLDEN_DIR / f"{relative}.json"


def test_card_files_are_found() -> None:
    # An empty list would make every parametrized test below vanish and the module pass.
    assert CARD_FILES, f"no .cards files under {CARDS_DIR}"
    assert not any(name.split("/")[0] == "variants" for name in CARD_FILES)


@pytest.mark.parametrize("relative", CARD_FILES)
def test_ast_matches_golden(relative: str, update_golden: bool) -> None:
    actual = _golden_text(_parse_card(relative))
    golden = _golden_path(relative)
    if update_golden:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(actual, encoding="utf-8")
        return
    assert golden.is_file(), f"no golden for cards/{relative}; run pytest --update-golden"
    assert actual == golden.read_text(encoding="utf-8"), (
        f"the AST of cards/{relative} changed; if intended, run pytest --update-golden"
    )


def test_no_stale_goldens(update_golden: bool) -> None:
    # A golden whose card file was renamed or deleted would otherwise linger forever.
    wanted = {_golden_path(relative) for relative in CARD_FILES}
    stale = sorted(p for p in GOLDEN_DIR.rglob("*.json") if p not in wanted)
    if update_golden:
        for path in stale:
            path.unlink()
        # Deepest folders first, so a folder emptied by its children goes too.
        for folder in sorted(GOLDEN_DIR.rglob("*"), key=lambda p: len(p.parts), reverse=True):
            if folder.is_dir() and not any(folder.iterdir()):
                folder.rmdir()
        return
    names = [p.relative_to(REPO_ROOT).as_posix() for p in stale]
    assert not names, f"goldens without a card file (run pytest --update-golden): {names}"


@pytest.mark.parametrize("relative", CARD_FILES)
def test_card_file_parses_without_diagnostics(relative: str) -> None:
    # The shipped games are the language's reference: not even a warning is acceptable.
    result = _parse_card(relative)
    assert result.diagnostics == ()
    file = result.file
    # A file may hold only verbs or only the flow (a game's flow.cards): those declare too.
    assert file.declarations or file.definitions or file.flows, (
        "a real card file declares something"
    )


@pytest.mark.parametrize("relative", CARD_FILES)
def test_parsing_is_stable(relative: str) -> None:
    # The parser keeps a module-level builder; state leaking between runs would show here.
    first = _parse_card(relative)
    second = _parse_card(relative)
    assert first.file == second.file
    assert to_json(first.file) == to_json(second.file)


#: The syntax of statements no shipped game uses yet, each in a small file of its own beside
#: its golden AST (``window.cards``: ``fire TRIGGER with QUANTITY VALUE { ... }``).
SYNTAX_DIR = REPO_ROOT / "tests" / "golden" / "syntax"


@pytest.mark.parametrize("name", sorted(p.name for p in SYNTAX_DIR.glob("*.cards")))
def test_syntax_sample_matches_golden(name: str, update_golden: bool) -> None:
    result = parse_file(SYNTAX_DIR / name)
    assert result.diagnostics == ()
    file = dataclasses.replace(result.file, path=f"tests/golden/syntax/{name}")
    actual = json.dumps(to_json(file), indent=1, ensure_ascii=False) + "\n"
    golden = SYNTAX_DIR / f"{name}.json"
    if update_golden:
        golden.write_text(actual, encoding="utf-8")
        return
    assert golden.is_file(), f"no golden for {name}; run pytest --update-golden"
    assert actual == golden.read_text(encoding="utf-8")
