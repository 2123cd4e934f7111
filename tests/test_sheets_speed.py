"""What keeps the sheets fast without changing a byte: faces kept as pieces (the same whichever
faces they were laid out beside), layout shared among processes (the same bytes whatever their
number), the face cache (a damaged file is laid out again), the rules reference read once."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from compiler.pipeline import compile_game
from compiler.project import Project, find_project
from compiler.sheets import render_sheet_files
from dsl.diagnostics import SourceCache

pytest.importorskip("pypdf")
pytest.importorskip("weasyprint")

ROOT = Path(__file__).resolve().parent.parent


def _project() -> Project:
    project = find_project(ROOT)
    assert project is not None
    return project


def _ir(project: Project, game: str) -> dict:
    result = compile_game(project.game_dir(game), SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    return result.ir


def _fresh() -> None:
    """As in a new process: no sheet, face or reference kept in memory."""
    from compiler import sheets
    from compiler.sheets import faces

    sheets._MEMO.clear()
    sheets._REFERENCES.clear()
    faces._CACHES.clear()


# -- pieces ------------------------------------------------------------------------------------

_SVG = (
    '<svg width="60" height="60" viewBox="0 0 60 60"><defs><linearGradient id="g{n}">'
    '<stop offset="0" stop-color="#{c}"/><stop offset="1" stop-color="#fff"/></linearGradient>'
    '</defs><circle cx="30" cy="30" r="{r}" fill="url(#g{n})" opacity="0.5"/></svg>'
)


def _pages(*bodies: str) -> bytes:
    from weasyprint import HTML

    html = "".join(f'<div style="break-after: page">{body}</div>' for body in bodies)
    style = "<style>@page { size: 80mm 80mm; margin: 0 } body { margin: 0 }</style>"
    return bytes(HTML(string=style + html).render().write_pdf(full_fonts=True))


def test_a_piece_is_the_same_whichever_pages_it_was_laid_out_beside() -> None:
    # WeasyPrint names a drawing's forms, patterns and shadings by the order it meets them in
    # the whole document: the same page after two drawings names them otherwise.
    from compiler.sheets.pieces import split

    first = _SVG.format(n=1, c="c00", r=20) + "<p>Kraken</p>"
    again = _SVG.format(n=3, c="c00", r=20) + "<p>Kraken</p>"
    second = _SVG.format(n=2, c="00c", r=25) + "<p>Storm</p>"
    alone, alone_fonts = split(_pages(second))
    beside, beside_fonts = split(_pages(first, again, second))
    assert len(alone) == 1 and len(beside) == 3
    assert beside[2] == alone[0]
    assert beside_fonts.keys() >= alone_fonts.keys()
    # Renamed by order of first use: the same drawing twice is one piece, another differs.
    assert beside[0] == beside[1] != beside[2]
    names = json.dumps(alone[0]["resources"])
    assert '"/R0"' in names


def test_a_piece_keeps_only_the_resources_its_page_uses() -> None:
    from compiler.sheets.pieces import fonts_of, split

    plain, _ = split(_pages("<p>Plain words</p>", _SVG.format(n=1, c="0c0", r=10)))
    # The first page draws nothing: none of the second page's forms or shadings is its.
    assert set(plain[0]["resources"]["d"]) <= {"/Font", "/ProcSet", "/ExtGState", "/ColorSpace"}
    assert fonts_of(plain[0]) and not fonts_of(plain[1])


# -- layout shared among processes -------------------------------------------------------------


def test_the_sheets_are_the_same_bytes_whatever_the_number_of_layout_processes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from compiler.sheets import faces

    project = _project()
    ir = _ir(project, "land_vs_sea")  # hex tiles: drawings, named per document by WeasyPrint
    shared: list[tuple[int, int]] = []
    real = faces._run

    def counting(tasks, workers):  # type: ignore[no-untyped-def]
        shared.append((len(tasks), workers))
        return real(tasks, workers)

    monkeypatch.setattr(faces, "_run", counting)
    outputs = {}
    for workers in ("1", "2", "3"):
        monkeypatch.setenv("CARDC_SHEETS_JOBS", workers)
        _fresh()
        outputs[workers] = render_sheet_files(project, "land_vs_sea", ir, cache=False)
    assert outputs["1"] == outputs["2"] == outputs["3"]
    # One process laid it all out in two tasks (the faces, the reference); two and three
    # processes shared more tasks.
    assert shared[0] == (2, 1)
    assert shared[1][0] > 2 and shared[1][1] == 2
    assert shared[2][0] > shared[1][0] and shared[2][1] == 3


def test_the_number_of_layout_processes_is_the_environments_or_the_cpus(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import os
    import sys

    from compiler.sheets.faces import jobs

    if not sys.platform.startswith("linux"):
        assert jobs() == 1
        return
    monkeypatch.setenv("CARDC_SHEETS_JOBS", "3")
    assert jobs() == 3
    monkeypatch.setenv("CARDC_SHEETS_JOBS", "0")
    assert jobs() == 1
    monkeypatch.setenv("CARDC_SHEETS_JOBS", "many")
    assert jobs() == 1
    monkeypatch.delenv("CARDC_SHEETS_JOBS")
    assert jobs() == min(4, len(os.sched_getaffinity(0)))


def test_a_card_that_does_not_fit_is_named_whichever_process_laid_it_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compiler.sheets import SheetError

    game = tmp_path / "cards" / "tiny"
    game.mkdir(parents=True)
    (game / "game.cards").write_text(
        'game tiny "Tiny" {\n  players 1..2\n  counter gold\n'
        '  trigger reveal "a card is revealed"\n  kind thing "a thing" { }\n}\n'
    )
    cards = "".join(f'thing "Card {i}" {{\n  text "short {i}"\n}}\n' for i in range(14))
    cards += 'thing "Long" {\n  text "' + " ".join(["plunder"] * 900) + '"\n}\n'
    (game / "cards.cards").write_text(cards)
    project = Project(tmp_path, tmp_path / "cards", tmp_path / "generated", tmp_path / "tests")
    monkeypatch.setenv("CARDC_SHEETS_JOBS", "2")
    _fresh()
    with pytest.raises(SheetError) as error:
        render_sheet_files(project, "tiny", _ir(project, "tiny"), cache=False)
    assert "'Long'" in str(error.value) and "cards.cards:" in error.value.source


# -- the face cache ----------------------------------------------------------------------------


def _tiny(tmp_path: Path) -> Project:
    game = tmp_path / "cards" / "tiny"
    game.mkdir(parents=True)
    (game / "game.cards").write_text(
        'game tiny "Tiny" {\n  players 1..2\n  counter gold\n'
        '  trigger reveal "a card is revealed"\n  kind thing "a thing" { }\n}\n'
    )
    (game / "cards.cards").write_text(
        'thing "One" {\n  on reveal { gain gold 1 }\n}\n'
        'thing "Two" {\n  on reveal { gain gold 2 }\n}\n'
    )
    return Project(tmp_path, tmp_path / "cards", tmp_path / "generated", tmp_path / "tests")


@pytest.mark.parametrize("damage", ["font", "face"])
def test_a_damaged_or_missing_cache_file_is_laid_out_again(tmp_path: Path, damage: str) -> None:
    from compiler.sheets.faces import CACHE_VERSION

    project = _tiny(tmp_path)
    ir = _ir(project, "tiny")
    _fresh()
    first = render_sheet_files(project, "tiny", ir)
    folder = tmp_path / ".cardc-cache" / "sheets" / CACHE_VERSION
    fonts = sorted(folder.glob("pdffont-*.json"))
    pieces = [p for p in sorted(folder.glob("*.json")) if "-" not in p.name]
    # The sheet kept whole goes: the faces are what is tested here.
    stored = sorted(folder.glob("sheet-*.json"))
    assert fonts and pieces and stored
    for sheet in stored:
        sheet.unlink()
    if damage == "font":
        fonts[0].write_text(fonts[0].read_text()[:-40] + "0" * 40)  # still JSON? not its digest
    else:
        for piece in pieces:
            piece.write_text("{not json")
    _fresh()
    again = render_sheet_files(project, "tiny", ir)
    assert again == first
    # The damaged files were written anew.
    if damage == "face":
        assert all(json.loads(p.read_text()).get("pages") for p in pieces)
    shutil.rmtree(tmp_path / ".cardc-cache")


def test_the_reference_is_read_once_for_a_game_and_its_variants(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from compiler.sheets import reference

    project = _project()
    read: list[object] = []
    real = reference.reference_for

    def counting(folder, variant):  # type: ignore[no-untyped-def]
        read.append(variant)
        return real(folder, variant)

    monkeypatch.setattr(reference, "reference_for", counting)
    _fresh()
    from compiler.sheets import _reference

    base = _reference(project.game_dir("uncharted_passage"), None)
    # Variants without a reference of their own read the game's: read once for them all.
    for variant in ("harsher_sea", "no_mid_event", "storm_season"):
        assert _reference(project.game_dir("uncharted_passage"), variant) == base
    assert read == [None]
    # One with its own (sheets/port_cards_two_at_a_time.reference.yaml) is read on its own.
    own = "port_cards_two_at_a_time"
    assert (project.game_dir("uncharted_passage") / "sheets" / f"{own}.reference.yaml").is_file()
    two = _reference(project.game_dir("uncharted_passage"), own)
    assert read == [None, own] and two != base
    # A copy each time: changing what one sheet was given changes no other.
    copy = _reference(project.game_dir("uncharted_passage"), None)
    assert copy is not base and copy == base


# -- a sheet whose inputs did not change is not rendered again ---------------------------------


def _game_with_a_variant(root: Path) -> Path:
    game = root / "cards" / "tiny"
    (game / "variants").mkdir(parents=True)
    (game / "game.cards").write_text(
        'game tiny "Tiny" {\n  players 1..2\n  counter gold\n'
        '  trigger reveal "a card is revealed"\n  kind thing "a thing" { }\n}\n'
    )
    (game / "cards.cards").write_text(
        'thing "One" {\n  on reveal { gain gold 1 }\n}\n'
        'thing "Two" {\n  on reveal { gain gold 2 }\n}\n'
    )
    (game / "variants" / "without_two.yaml").write_text(
        "description: The game without Two\nremove:\n  - two\n"
    )
    (root / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n', encoding="utf-8"
    )
    return game


def test_an_edit_renders_only_the_sheets_the_card_is_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import compiler.sheets as sheets
    from compiler.cli import main

    game = _game_with_a_variant(tmp_path)
    monkeypatch.chdir(tmp_path)
    rendered: list[str | None] = []
    real = sheets._render

    def counting(project, name, ir, variant, *args):  # type: ignore[no-untyped-def]
        rendered.append(variant)
        return real(project, name, ir, variant, *args)

    monkeypatch.setattr(sheets, "_render", counting)
    _fresh()
    assert main(["build"]) == 0
    assert sorted(rendered, key=str) == [None, "without_two"]
    generated = tmp_path / "generated" / "sheets" / "tiny"
    variant_pdf = (generated / "without_two.pdf").read_bytes()
    # Two is edited: the game's sheet is rendered again, the variant's (no Two on it) is not.
    source = game / "cards.cards"
    source.write_text(source.read_text().replace("gain gold 2", "gain gold 3"))
    rendered.clear()
    _fresh()
    assert main(["build"]) == 0
    assert rendered == [None]
    assert (generated / "without_two.pdf").read_bytes() == variant_pdf
    # One is edited: it is on both sheets, both are rendered.
    source.write_text(source.read_text().replace("gain gold 1", "gain gold 4"))
    rendered.clear()
    _fresh()
    assert main(["build"]) == 0
    assert sorted(rendered, key=str) == [None, "without_two"]
    assert (generated / "without_two.pdf").read_bytes() != variant_pdf
    # A clean build (--rebuild renders every sheet, none taken whole from the cache) finds
    # exactly these bytes.
    rendered.clear()
    _fresh()
    capsys.readouterr()
    assert main(["build", "--check", "--rebuild"]) == 0, capsys.readouterr()
    assert sorted(rendered, key=str) == [None, "without_two"]


def test_a_one_card_edit_is_laid_out_by_the_builds_own_layout_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The build forks a layout process at its first rendered game, which loads WeasyPrint
    # while the cards compile; the face of the edited card is laid out there, and the build's
    # own process never loads WeasyPrint.
    import sys

    import compiler.sheets as sheets
    from compiler.cli import main
    from compiler.sheets import faces
    from compiler.sheets.pdf import renderer_problem

    game = _game_with_a_variant(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CARDC_SHEETS_JOBS", "2")
    _fresh()
    assert main(["build"]) == 0
    pdf = tmp_path / "generated" / "sheets" / "tiny" / "tiny.pdf"
    before = pdf.read_bytes()
    source = game / "cards.cards"
    source.write_text(source.read_text().replace("gain gold 1", "gain gold 5"))
    for name in [n for n in sys.modules if n == "weasyprint" or n.startswith("weasyprint.")]:
        monkeypatch.delitem(sys.modules, name)
    renderer_problem.cache_clear()
    in_process: list[int] = []
    real = faces._fit_group

    def here(*args):  # type: ignore[no-untyped-def]
        in_process.append(1)
        return real(*args)

    _fresh()
    try:
        with monkeypatch.context() as patch:
            patch.setattr(faces, "_fit_group", here)
            # Faces laid out in this process would be counted; the layout process forked
            # from it counts in its own copy of the list.
            assert main(["build"]) == 0
        assert "weasyprint" not in sys.modules
    finally:
        renderer_problem.cache_clear()
    assert in_process == []
    after = pdf.read_bytes()
    assert after != before and after.startswith(b"%PDF")
    # And a clean build makes the same bytes.
    _fresh()
    assert main(["build", "--check", "--rebuild"]) == 0
    assert sheets._REUSE_STORED == [True]
