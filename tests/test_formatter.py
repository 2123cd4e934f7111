"""``cardc fmt``: one canonical layout, stable, keeping every comment, never changing meaning."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from compiler.pipeline import compile_game
from dsl.diagnostics import SourceCache
from dsl.formatter import format_text
from dsl.parser import prepare_tokens, tokens

REPO = Path(__file__).resolve().parent.parent
CARD_FILES = sorted(p for p in (REPO / "cards").rglob("*.cards") if p.is_file())
GAMES = sorted(p.parent.name for p in (REPO / "cards").glob("*/game.cards"))


def _fmt(text: str) -> str:
    result = format_text(text)
    assert result.text is not None, result.diagnostics
    return result.text


def _significant(text: str) -> list[tuple[str, str]]:
    return [(t.type, "\n" if t.type == "_NL" else str(t)) for t in prepare_tokens(text)]


def _comments(text: str) -> list[str]:
    return [m.group().rstrip() for m in re.finditer(r"#[^\n]*", _without_strings(text))]


def _without_strings(text: str) -> str:
    # A '#' inside a string is no comment: blank the strings out, keeping their length.
    return re.sub(r'"([^"\\\n]|\\[^\n])*"', lambda m: '"' + " " * (len(m.group()) - 2) + '"', text)


# ---- the layout -------------------------------------------------------------------------


def test_the_canonical_layout() -> None:
    messy = (
        '\n\n# a game\nport_card   "Smoke Bomb"{\n\n\tcopies 5    @provisional( "why" )\n'
        "      # a comment\n on pirate_combat   {   may {reduce pirate_power up_to 2+1 ;"
        "discard self}   # trailing\n\n\n\n    }\n\n}   \n\n\n\n"
        "rule x { on y { if count( a , b )>=1..6 "
        "{ gain z.w  -1 } } }"
    )
    assert _fmt(messy) == (
        "# a game\n"
        'port_card "Smoke Bomb" {\n'
        '  copies 5 @provisional("why")\n'
        "  # a comment\n"
        "  on pirate_combat { may { reduce pirate_power up_to 2 + 1; discard self }  # trailing\n"
        "  }\n"
        "}\n"
        "\n"
        "rule x { on y { if count(a, b) >= 1..6 { gain z.w -1 } } }\n"
    )


def test_continuation_lines_are_indented_under_their_item() -> None:
    text = "x {\nrows 6 a,\n5 b,\n4 c\non y {\ngain coins 1 +\n2\nz max(1,\n2)\n}\n}\n"
    assert _fmt(text) == (
        "x {\n  rows 6 a,\n    5 b,\n    4 c\n  on y {\n    gain coins 1 +\n      2\n"
        "    z max(1,\n      2)\n  }\n}\n"
    )


def test_a_space_that_carries_meaning_is_kept() -> None:
    # `health (1)` is two arguments and `count(x)` a call; `q -1` two arguments, `q - 1` one.
    text = "x { on y { a health (1) count(x) q -1 r - 1 } }\n"
    assert _fmt(text) == text


def test_dsl_verbs_and_functions_are_laid_out_too() -> None:
    text = (
        'verb   give(goods name ,amount number=1)"doc"{lose coins amount}\n'
        "function every_third(month number)bool=month%3==0\n"
    )
    assert _fmt(text) == (
        'verb give(goods name, amount number = 1) "doc" { lose coins amount }\n'
        "function every_third(month number) bool = month % 3 == 0\n"
    )


def test_a_file_that_does_not_parse_is_not_formatted() -> None:
    result = format_text('port_card "A" {\n  copies 1 +\n}\n', "broken.cards")
    assert result.text is None
    assert [d.code for d in result.diagnostics] == ["missing-operand"]


def test_crlf_and_tabs_become_canonical() -> None:
    assert _fmt("x {\r\n\ty 1\r\n}\r\n") == "x {\n  y 1\n}\n"


# ---- every real card file ---------------------------------------------------------------


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_real_files_format_stably_and_keep_comments(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    once = _fmt(text)
    assert _fmt(once) == once
    assert _significant(once) == _significant(text)
    assert _comments(once) == _comments(text)


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_card_file_is_formatted(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert _fmt(text) == text, (
        f"{path.relative_to(REPO)} is not in the canonical layout: run 'cardc fmt' "
        "(CI runs 'cardc fmt --check')"
    )


def _without_positions(value: Any) -> Any:
    """The IR with source positions taken out: keys naming a line or column, and the line a
    provisional statement's label quotes."""
    if isinstance(value, dict):
        return {
            k: _without_positions(v) for k, v in value.items() if k not in ("at", "line", "source")
        }
    if isinstance(value, list):
        return [_without_positions(v) for v in value]
    if isinstance(value, str):
        return re.sub(r"\bline \d+", "line N", value)
    return value


@pytest.mark.parametrize("game", GAMES)
def test_formatting_never_changes_the_ir(game: str, tmp_path: Path) -> None:
    folder = tmp_path / "cards" / game
    shutil.copytree(REPO / "cards" / game, folder)
    before = compile_game(folder, SourceCache())
    for path in folder.rglob("*.cards"):
        # Make it messy first, so the formatter has work to do on every line.
        messy = "\n".join("   " + line + "   " for line in path.read_text().split("\n"))
        path.write_text(_fmt(messy))
    after = compile_game(folder, SourceCache())
    assert before.ir is not None and after.ir is not None
    assert _without_positions(after.ir) == _without_positions(before.ir)
    assert [c["source"].rsplit(":", 1)[0] for c in after.ir["cards"]] == [
        c["source"].rsplit(":", 1)[0] for c in before.ir["cards"]
    ]


# ---- fuzzed inputs ----------------------------------------------------------------------


def _declarations(path: Path) -> list[str]:
    """The top-level declarations of a file, with the comments before them."""
    parts = re.split(r"\n(?=\S)(?![}#])", path.read_text(encoding="utf-8"))
    return [p for p in parts if p.strip()]


SNIPPETS = [d for p in CARD_FILES for d in _declarations(p) if format_text(d).ok][:400]
assert len(SNIPPETS) > 50


@st.composite
def _respaced(draw: st.DrawFn) -> tuple[str, str]:
    """A real declaration and the same tokens laid out at random: any run of spaces between
    tokens (where one was), random indentation, blank lines, trailing blanks, ';' spacing."""
    original = draw(st.sampled_from(SNIPPETS))
    out: list[str] = []
    position = 0
    spaces = st.sampled_from([" ", "  ", "\t", "   ", " \t "])
    blank_lines = ["\n\n", "\n  \n", "\n\n\n\t\n"]
    for tok in tokens(original):
        start = tok.start_pos or 0
        gap = original[position:start]
        if gap.strip(" \t") == "" and gap:
            gap = draw(spaces)
        elif gap:
            gap = re.sub(r"^[ \t]+", lambda _m: draw(spaces), gap)
        out.append(gap)
        value = str(tok)
        if tok.type == "_NL":
            # A line break stays one; a blank line may become several (and gain blanks).
            value = re.sub(
                r"\n([ \t]*\n)*[ \t]*",
                lambda m: (
                    ("\n" if m.group().count("\n") == 1 else draw(st.sampled_from(blank_lines)))
                    + draw(st.sampled_from(["", " ", "    ", "\t", "          "]))
                ),
                value,
            )
            value = value.replace(";", draw(st.sampled_from([";", " ;", ";  "])))
        out.append(value)
        position = tok.end_pos or start
    out.append(original[position:] + draw(st.sampled_from(["", "\n", "   \n\n", "\n\n\n"])))
    return original, draw(st.sampled_from(["", "\n", "\n\n  "])) + "".join(out)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_respaced())
def test_fuzzed_layouts_format_to_one_text(pair: tuple[str, str]) -> None:
    original, messy = pair
    assume(_significant(messy) == _significant(original))
    once = _fmt(messy)
    assert once == _fmt(original)
    assert _fmt(once) == once
    assert _comments(once) == _comments(original)


_SPACE = st.sampled_from([" ", "  ", "\t", "   "])
#: Between two statements: a line break (maybe with blank lines or a comment) or a ';'.
_SEPARATOR = st.sampled_from(["\n", "\n\n\n", " ; ", ";", "  # why\n", "\n  # a note\n\n"])
_ATOMS = st.sampled_from(
    ["coins", "armament", "1", "-2", "2.5", "2d6", "50%", '"a # b"', "true", "self", "x.y"]
)


def _expressions() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        pair = st.tuples(inner, inner, _SPACE, st.sampled_from([" ", "\n", "\n    "]))
        return st.one_of(
            st.tuples(
                pair, st.sampled_from(["+", "-", "*", "/", "<", ">=", "==", "and", "or"])
            ).map(lambda p: f"({p[0][0]}{p[0][2]}{p[1]}{p[0][3]}{p[0][1]})"),
            pair.map(lambda p: f"max({p[0]},{p[3]}{p[1]})"),
            pair.map(lambda p: f"[{p[2]}{p[0]},{p[2]}{p[1]}]"),
            inner.map(lambda e: f"(not {e})"),
            pair.map(lambda p: f"({p[0]}..{p[1]})"),
        )

    return st.recursive(_ATOMS, extend, max_leaves=6)


def _statements() -> st.SearchStrategy[str]:
    expr = _expressions()
    command = st.tuples(
        st.sampled_from(["gain", "mark", "reduce", "pay"]),
        st.lists(st.lists(expr, min_size=1, max_size=2), min_size=0, max_size=2),
        _SPACE,
    ).map(lambda c: c[0] + (c[2] + ", ".join(" ".join(cl) for cl in c[1]) if c[1] else ""))
    command = st.one_of(command, st.tuples(command, command).map(lambda p: f"{p[0]} else {p[1]}"))

    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        block = st.tuples(st.lists(inner, min_size=0, max_size=3), _SEPARATOR).map(
            lambda b: "{" + b[1] + b[1].join(b[0]) + b[1] + "}" if b[0] else "{ }"
        )
        return st.one_of(
            st.tuples(expr, block).map(lambda p: f"if {p[0]} {p[1]}"),
            st.tuples(expr, block, block).map(lambda p: f"unless {p[0]} {p[1]} else {p[2]}"),
            block.map(lambda b: f"may {b}"),
            command.map(lambda c: f"may {c}"),
            st.tuples(expr, block).map(lambda p: f"for each v in {p[0]} where v {p[1]}"),
            block.map(lambda b: f"choose one of {b}"),
            st.tuples(expr, block).map(lambda p: f"repeat {p[0]} {p[1]}"),
            st.tuples(inner, st.sampled_from(['@provisional("why")', "@note"])).map(
                lambda p: f"{p[1]}\n{p[0]}"
            ),
        )

    return st.recursive(command, extend, max_leaves=8)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_statements(), min_size=1, max_size=4), _SEPARATOR)
def test_fuzzed_rules_format_stably(statements: list[str], separator: str) -> None:
    text = (
        '# a card\nport_card "Fuzz" {\n  copies 1 @provisional("why")\n  on y {'
        + separator
        + separator.join(statements)
        + separator
        + "}\n}\n"
    )
    once = _fmt(text)
    assert _fmt(once) == once
    assert _significant(once) == _significant(text)
    assert _comments(once) == _comments(text)


# ---- the command ------------------------------------------------------------------------


def _cardc(*args: str, cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "compiler.cli", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )


def test_fmt_check_lists_then_fmt_writes(tmp_path: Path) -> None:
    (tmp_path / "cards" / "g").mkdir(parents=True)
    messy = tmp_path / "cards" / "g" / "a.cards"
    messy.write_text("x {\n      y 1   # why\n}\n")
    tidy = tmp_path / "cards" / "g" / "b.cards"
    tidy.write_text("x {\n  y 1\n}\n")
    check = _cardc("fmt", "--check", cwd=tmp_path)
    assert check.returncode == 1
    assert check.stdout.splitlines() == [
        "would reformat cards/g/a.cards",
        "1 file would be reformatted, 1 unchanged",
    ]
    assert messy.read_text() == "x {\n      y 1   # why\n}\n"
    done = _cardc("fmt", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert messy.read_text() == "x {\n  y 1  # why\n}\n"
    assert _cardc("fmt", "--check", cwd=tmp_path).returncode == 0


def test_fmt_leaves_a_broken_file_and_says_where(tmp_path: Path) -> None:
    broken = tmp_path / "broken.cards"
    broken.write_text("x {\n  y 1 +\n}\n")
    result = _cardc("fmt", str(broken), cwd=tmp_path)
    assert result.returncode == 1
    assert "broken.cards:2:7: error[missing-operand]" in result.stderr
    assert broken.read_text() == "x {\n  y 1 +\n}\n"


def test_fmt_stdin_to_stdout(tmp_path: Path) -> None:
    result = _cardc("fmt", "-", cwd=tmp_path, stdin="x {\ny 1}\n")
    assert result.returncode == 0
    assert result.stdout == "x {\n  y 1 }\n"
