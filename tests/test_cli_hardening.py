"""Issue 14's reproducers for the commands: crashes (exit 3, "internal error"), output files
overwritten without a word, Markdown and terminal injection, and a logbook that printed
today's date. Commands run in process (``main``) on temporary projects.
"""

from __future__ import annotations

import datetime
import errno
import os
import shutil
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from compiler.cli import main
from compiler.diff import diff_ir, render_errata
from compiler.md import code_md, comment_md, escape_md, line_md
from compiler.pipeline import compile_game
from compiler.project import Project
from compiler.sheets import render_sheet_files
from compiler.terminal import safe_text
from dsl.diagnostics import SourceCache
from dsl.parser import parse

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'
#: What every text field of the hostile game carries: HTML, Markdown and a terminal escape.
PAYLOAD = "<script>alert(1)</script> <img src=x onerror=alert(2)> **bold** [a](javascript:x)"
#: The same without parentheses: the sheets' lint refuses what reads as a DSL call in a value.
PLAIN_PAYLOAD = "<script>alert</script> <img src=x onerror=alert> **bold** [a]<javascript:x>"


# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    """``cardc argv...`` in process: the exit status and everything it printed."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out + err


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temporary project with a copy of Land vs Sea, the current directory."""
    shutil.copytree(REPO / "cards" / "land_vs_sea", tmp_path / "cards" / "land_vs_sea")
    (tmp_path / "pyproject.toml").write_text(PYPROJECT)
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- the parser: number literals past Python's 4,300-digit limit


@pytest.mark.parametrize(
    "literal, column",
    [("9" * 5000, 10), ("9" * 5000 + "%", 10), ("9" * 5000 + "d6", 10), ("2d" + "9" * 5000, 10)],
    ids=["number", "percent", "dice-count", "dice-sides"],
)
def test_a_huge_number_literal_is_an_error_at_its_column(literal: str, column: int) -> None:
    result = parse(f'port_card "A" {{\n  copies {literal}\n}}\n', "huge.cards")
    codes = [(d.code, d.span.line, d.span.column) for d in result.diagnostics]
    assert ("number-too-large", 2, column) in codes
    message = next(d.message for d in result.diagnostics if d.code == "number-too-large")
    assert "(5000 digits)" in message


# -- cardc sim --log


def test_the_logbook_prints_no_calendar_date(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(REPO)
    outputs = []
    for day in (datetime.date(1999, 12, 31), datetime.date(2031, 1, 1)):

        class Fixed(datetime.date):
            @classmethod
            def today(cls, day: datetime.date = day) -> datetime.date:
                return day

        monkeypatch.setattr(datetime, "date", Fixed)
        status, out = run(capsys, "sim", "uncharted_passage", "--seed", "1", "--log")
        assert status == 0, out
        outputs.append(out)
    assert outputs[0] == outputs[1]
    assert "1999" not in outputs[0] and "2031" not in outputs[1]


# -- terminal output


def test_control_characters_from_sources_are_shown_not_sent(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An ESC sequence that would clear the screen, in a card file's name and in its text.
    card = project / "cards" / "land_vs_sea" / "e\x1b[2Jvil.cards"
    card.write_text('tile "\x1b]0;owned\x07Bad" {\n  city maybe\n}\n', encoding="utf-8")
    status, out = run(capsys, "check")
    assert status == 1
    assert "\x1b" not in out and "\x07" not in out
    assert "\u241b[2J" in out  # ESC shown as its control picture
    assert safe_text("a\x1b[31mb\u202ec\n\t") == "a\u241b[31mb\ufffdc\n\t"


# -- cardc new


def test_cardc_new_with_an_over_long_name_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(["new", "a" * 300])
    assert "at most 64 characters" in str(exited.value.code)
    assert not list(tmp_path.iterdir())


def test_a_name_with_a_trailing_line_end_is_not_a_game_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exited:
        main(["new", "game\n"])
    assert "is not a game name" in str(exited.value.code)


@pytest.mark.parametrize(
    "code, hint",
    [(errno.EROFS, "read-only"), (errno.ENOSPC, "the disk is full"), (errno.EACCES, "permissions")],
)
def test_a_read_only_or_full_project_root_is_a_message(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    code: int,
    hint: str,
) -> None:
    # Root ignores permissions: the system's answer is simulated where cardc new writes.
    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        raise OSError(code, os.strerror(code), str(self))

    monkeypatch.setattr(Path, "mkdir", refuse)
    status, out = run(capsys, "new", "second_game")
    assert status == 1
    assert f"cannot use {project / 'cards' / 'second_game'}: {os.strerror(code)}" in out
    assert hint in out and "internal error" not in out


# -- cardc sheets


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--bleed", "nan"], "--bleed must be a number of millimetres, not nan"),
        (["--bleed", "inf"], "--bleed must be a number of millimetres, not inf"),
        (["--offset-x", "nan", "--backs"], "--offset-x must be a number"),
        (["--offset-y=-inf", "--backs"], "--offset-y must be a number"),
        (["--out", "afile"], "--out afile is a file, not a folder"),
    ],
)
def test_sheets_options_that_cannot_be_are_usage_errors(
    project: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    (project / "afile").write_text("mine\n")
    status, out = run(capsys, "sheets", "land_vs_sea", "--format", "md", *argv)
    assert status == 2, out
    assert message in out and "internal error" not in out
    assert (project / "afile").read_text() == "mine\n"


def test_sheets_do_not_replace_a_file_cardc_did_not_write(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine = project / "print" / "land_vs_sea" / "land_vs_sea.md"
    mine.parent.mkdir(parents=True)
    mine.write_text("my notes\n")
    status, out = run(capsys, "sheets", "land_vs_sea", "--format", "md")
    assert status == 2
    assert "exists and cardc did not write it" in out and "--force" in out
    assert mine.read_text() == "my notes\n"
    # cardc's own sheet is replaced by the next run without a word; --force replaces anyone's.
    assert run(capsys, "sheets", "land_vs_sea", "--format", "md", "--force")[0] == 0
    assert mine.read_text().startswith("<!-- Generated by cardc")
    (project / "cards" / "land_vs_sea" / "layers.cards").write_text(
        (project / "cards" / "land_vs_sea" / "layers.cards").read_text() + "\n# changed\n"
    )
    assert run(capsys, "sheets", "land_vs_sea", "--format", "md")[0] == 0


# -- cardc diff --errata


def _house(project: Path) -> None:
    variants = project / "cards" / "land_vs_sea" / "variants"
    (variants / "house.yaml").write_text("cards:\n  lost_city: {city: false}\n")


def test_errata_at_a_folder_is_a_usage_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _house(project)
    (project / "sheet.md").mkdir()
    status, out = run(capsys, "diff", "land_vs_sea", "land_vs_sea/house", "--errata", "sheet.md")
    assert status == 2, out
    assert "sheet.md is a folder" in out and "internal error" not in out


def test_errata_does_not_replace_a_file_cardc_did_not_write(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _house(project)
    mine = project / "errata.md"
    mine.write_text("my errata\n")
    status, out = run(capsys, "diff", "land_vs_sea", "land_vs_sea/house", "--errata", "errata.md")
    assert status == 1
    assert "exists and cardc did not write it" in out
    assert mine.read_text() == "my errata\n"
    argv = ["diff", "land_vs_sea", "land_vs_sea/house", "--errata", "errata.md", "--force"]
    assert run(capsys, *argv)[0] == 0
    # Now it is cardc's: the same command replaces it again without --force.
    assert run(capsys, *argv[:-1])[0] == 0


# -- reference.yaml shapes


@pytest.mark.parametrize(
    "text, where, message",
    [
        ("phases: [a, b]\n", "1:9", "'phases' holds intro, from, items and omit"),
        ("phases: {items: 3}\n", "1:17", "'items' holds a list of [title, text] pairs"),
        ("icons: [a]\n", "1:8", "'icons' holds icon names"),
        ("icons: {city: {shape: nosuch}}\n", "1:23", "no icon shape 'nosuch'"),
        ("icons: {city: {shape: [x]}}\n", "1:23", "no icon shape"),
        ("tables: [{title: t, columns: [a], rows: [[[1]]]}]\n", "1:43", "a table cell is text"),
        ("words: {a: [b]}\n", "1:12", "words.a is text"),
    ],
)
def test_reference_shapes_are_errors_in_check_and_in_sheets(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, where: str, message: str
) -> None:
    reference = Path("cards/land_vs_sea/reference.yaml")
    reference.write_text(text)
    status, out = run(capsys, "check")
    assert status == 1, out
    assert f"{reference}:{where}: error[reference-shape]: {message}" in out
    status, out = run(capsys, "sheets", "land_vs_sea", "--format", "md")
    assert status == 1, out
    assert message in out and "internal error" not in out


# -- Markdown: every output rendered by a CommonMark parser holds no HTML from the data


def _html_from_data(markdown: str) -> list[str]:
    """What a CommonMark parser reads in ``markdown`` as raw HTML (cardc's own banner comment
    excepted), a link or an image: none of them can come from the data."""
    found = []
    for token in MarkdownIt("commonmark").parse(markdown):
        for item in [token, *(token.children or [])]:
            if item.type in ("html_block", "html_inline"):
                if not item.content.startswith("<!-- Generated by cardc"):
                    found.append(item.content)
            elif item.type in ("link_open", "image"):
                found.append(item.type)
    return found


def test_escape_helpers_leave_no_markup() -> None:
    for text in [PAYLOAD, "a\nb\r\n# heading", "x | y", "`tick` ``two``", "&lt;b&gt;"]:
        for shown in (escape_md(text), line_md(escape_md(text)), code_md(text)):
            html = MarkdownIt("commonmark").render(shown)
            assert "<script" not in html and "<img" not in html and "<a " not in html
            assert html.count("<p>") <= 1 and "<h1" not in html
    assert MarkdownIt("commonmark").render(line_md(escape_md("- 1. item"))).startswith("<p>")
    comment = comment_md("x --> <script>alert(1)</script>")
    assert comment.count("-->") == 1 and comment.endswith("-->")


@pytest.fixture
def hostile(tmp_path: Path) -> Project:
    """A game whose every name and text a sheet prints carries HTML and Markdown."""
    game = tmp_path / "cards" / "hostile"
    game.mkdir(parents=True)
    title = "Hostile /*fonts*/ </style><script>alert(0)</script>"
    (game / "game.cards").write_text(
        f'game hostile "{title}" {{\n  players 1..2\n  counter gold\n'
        '  kind thing "a thing <b>bold</b>" { property note text optional }\n}\n'
    )
    (game / "cards `x` <i>.cards").write_text(
        f'thing "{PAYLOAD}" {{\n  text "{PAYLOAD} line\\nbreak # not a heading"\n'
        f'  note "{PLAIN_PAYLOAD}"\n}}\n'
        'thing "Second\\n# Title" {\n  text "- a list?\\n1. or this"\n}\n'
    )
    (game / "reference.yaml").write_text(
        f"phases:\n  intro: '{PAYLOAD}'\n  items: [['<b>x</b>', '{PAYLOAD}']]\n"
        f"notes: [['<i>n</i>', '{PAYLOAD}']]\n"
        f"tables: [{{title: '<u>t</u>', columns: ['<a>', 'b|c'], rows: [['{PAYLOAD}', 'x']]}}]\n"
        "icons: {gold: {shape: coin, label: '<svg onload=x>', meaning: '**m**'}}\n"
    )
    (game / "variants").mkdir()
    (game / "variants" / "house.yaml").write_text(
        "cards:\n"
        f"  {_first_id(tmp_path)}: {{note: '<script>alert</script> [x]<y:z>'}}\n"
        "add: |\n"
        '  thing "New <img src=x onerror=alert(4)>" { note "*hi*" }\n'
    )
    return Project(tmp_path, tmp_path / "cards", tmp_path / "generated", tmp_path / "tests")


def _first_id(root: Path) -> str:
    result = compile_game(root / "cards" / "hostile", SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    return str(result.ir["cards"][0]["id"])


def test_every_markdown_output_holds_no_html_from_the_data(
    hostile: Project, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from compiler.variants import compile_variant

    result = compile_game(hostile.game_dir("hostile"), SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    base = result.ir
    sheet = render_sheet_files(hostile, "hostile", base, formats=("md",))
    (markdown,) = sheet.values()
    assert _html_from_data(markdown.decode()) == []
    variant, _ = compile_variant(
        hostile.game_dir("hostile"),
        hostile.game_dir("hostile") / "variants" / "house.yaml",
        SourceCache(),
    )
    assert variant.ir is not None, [d.message for d in variant.diagnostics]
    errata = render_errata(diff_ir(base, variant.ir), base["title"], "md")
    assert _html_from_data(errata) == []
    # The errata command writes it, with the changed cards as a sheet beside it.
    monkeypatch.chdir(hostile.root)
    (hostile.root / "pyproject.toml").write_text(PYPROJECT)
    status, out = run(capsys, "diff", "hostile", "hostile/house", "--errata", "errata.md")
    assert status == 0, out
    for path in hostile.root.glob("errata*.md"):
        assert _html_from_data(path.read_text()) == [], path


def test_a_title_cannot_end_the_sheet_s_style_sheet(hostile: Project) -> None:
    result = compile_game(hostile.game_dir("hostile"), SourceCache())
    assert result.ir is not None
    html = render_sheet_files(hostile, "hostile", result.ir, formats=("html",))
    (page,) = html.values()
    text = page.decode()
    assert "<script>alert(0)" not in text
    # The stylesheet keeps its font rules: the title's "/*" opened no comment inside it.
    style = text[text.index("<style") : text.index("</style>")]
    assert "/*fonts*/" not in style and "@font-face" in style
