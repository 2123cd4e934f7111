"""Syntax errors, as a designer sees them: one case file per mistake, mypy and black style.

Each ``tests/data/syntax/<case>.cards`` holds broken input; beside it ``<case>.expected`` holds
exactly what ``cardc check`` prints for it (``render_all``: location, code, message, source
line, underline, hints, summary). The first line of each case names the diagnostic codes it
must produce, ``# expect: code, code`` (a comment, so the lexer ignores it), and the file's name
starts with its code, or with ``multi-`` for a case showing that recovery reports several errors
in one run. ``pytest --update-golden`` rewrites the ``.expected`` files; read the diff: the text
there is what a game designer will have to act on.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from dsl.diagnostics import SourceCache, render_all
from dsl.parser import ParseResult, parse

REPO_ROOT = Path(__file__).resolve().parent.parent
CASES_DIR = REPO_ROOT / "tests" / "data" / "syntax"
CASES = sorted(path.stem for path in CASES_DIR.glob("*.cards"))

#: Every syntax diagnostic the parser names; each must have a case of its own.
REQUIRED_CODES = frozenset(
    """
    unclosed-block unmatched-brace unclosed-string unclosed-bracket keyword-as-name
    invalid-character missing-body trigger-outside statement-outside-trigger else-without-if
    missing-operand chained-comparison missing-condition missing-trigger trigger-needs-block
    annotation-alone bad-escape bad-dice for-each choose-one-of unexpected-token empty-file
    too-deep too-complex number-too-large definition-head param-needs-type function-returns
    verb-call-parens fire-window block-after-verb
    """.split()
)

_EXPECT = re.compile(r"# expect: *(?P<codes>[a-z-]+(?: *, *[a-z-]+)*) *$")


def _case_path(case: str) -> Path:
    return CASES_DIR / f"{case}.cards"


def _parse_case(case: str) -> tuple[str, ParseResult]:
    """The case's text, parsed under the repo-relative path the .expected files show."""
    text = _case_path(case).read_text(encoding="utf-8")
    return text, parse(text, f"tests/data/syntax/{case}.cards")


def _promised_codes(text: str) -> set[str]:
    first_line = text.split("\n", 1)[0]
    match = _EXPECT.fullmatch(first_line)
    assert match, f"the first line must be '# expect: code, ...', not {first_line!r}"
    return {code.strip() for code in match["codes"].split(",")}


def _rendered(text: str, result: ParseResult) -> str:
    sources = SourceCache()
    sources.put(result.file.path, text)
    return render_all(result.diagnostics, sources) + "\n"


def test_every_code_has_its_own_case() -> None:
    # Deleting or renaming a case must not silently drop a code from the suite.
    single = {case for case in CASES if not case.startswith("multi-")}
    covered = {code for code in REQUIRED_CODES if any(_names(case, code) for case in single)}
    assert REQUIRED_CODES - covered == set()
    multi = [case for case in CASES if case.startswith("multi-")]
    assert len(multi) >= 2, "keep a few cases that show several errors in one run"


def _names(case: str, code: str) -> bool:
    return case == code or case.startswith(f"{code}-")


@pytest.mark.parametrize("case", CASES)
def test_rendered_diagnostics_match_expected(case: str, update_golden: bool) -> None:
    text, result = _parse_case(case)
    actual = _rendered(text, result)
    expected = _case_path(case).with_suffix(".expected")
    if update_golden:
        expected.write_text(actual, encoding="utf-8")
        return
    assert expected.is_file(), f"no {expected.name}; run pytest --update-golden"
    assert actual == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("case", CASES)
def test_codes_are_what_the_case_promises(case: str) -> None:
    text, result = _parse_case(case)
    promised = _promised_codes(text)
    assert {d.code for d in result.diagnostics} == promised
    if case.startswith("multi-"):
        return
    # A single-mistake case is named after its one code, which is the whole promise.
    assert len(promised) == 1 and _names(case, next(iter(promised))), (
        f"{case}.cards must be named after its code, or start with 'multi-'"
    )


@pytest.mark.parametrize("case", [case for case in CASES if case.startswith("multi-")])
def test_recovery_reports_every_error_sorted_by_line(case: str) -> None:
    text, result = _parse_case(case)
    errors = [d for d in result.diagnostics if d.severity == "error"]
    # One error per promised code at least, on distinct lines: recovery went past the first.
    assert len(errors) >= len(_promised_codes(text)) >= 3
    assert len({d.span.line for d in errors}) >= 3
    positions = [(d.span.line, d.span.column) for d in result.diagnostics]
    assert positions == sorted(positions)


@pytest.mark.parametrize("case", CASES)
def test_every_diagnostic_points_into_the_file(case: str) -> None:
    # An underline past the end of the text would render no source line at all.
    text, result = _parse_case(case)
    lines = text.splitlines()
    assert result.diagnostics, "a case file must produce a diagnostic"
    for diagnostic in result.diagnostics:
        span = diagnostic.span
        assert 1 <= span.line <= len(lines), diagnostic
        assert 1 <= span.column <= len(lines[span.line - 1]) + 1, diagnostic
        assert diagnostic.hints, f"{diagnostic.code} should tell the designer what to do"
