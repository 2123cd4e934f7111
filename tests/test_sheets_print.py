"""Sheets a designer prints and plays: every copy, a back per kind, hex tiles, sizes that fill
the page, text that fills the card, art, a game's own CSS and templates, and the face cache
that keeps an edit to one card from laying out the others again."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest

from compiler.pipeline import compile_game
from compiler.project import Project, find_project
from compiler.sheets import SheetError, SheetOptions, render_sheet_files
from compiler.sheets.faces import MAX_PT, MIN_PT
from compiler.sheets.layout import grid
from dsl.diagnostics import SourceCache

pypdf = pytest.importorskip("pypdf")

ROOT = Path(__file__).resolve().parent.parent
MM_TO_PT = 72 / 25.4


def _project() -> Project:
    project = find_project(ROOT)
    assert project is not None
    return project


def _ir(project: Project, game: str) -> dict:
    result = compile_game(project.game_dir(game), SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    return result.ir


def _html(project: Project, game: str, **options: object) -> str:
    files = render_sheet_files(
        project, game, _ir(project, game), formats=("html",), options=SheetOptions(**options)
    )
    return files[f"sheets/{game}/{game}.html"].decode()


def _fronts(html: str) -> list[str]:
    """The card id of every front printed, in order."""
    return re.findall(r'<div class="card kind-[a-z_]+" data-card="([a-z0-9_]+)"', html)


# -- every copy --------------------------------------------------------------------------------


def test_each_card_is_printed_once_per_copy() -> None:
    project = _project()
    html = _html(project, "uncharted_passage")
    fronts = _fronts(html)
    # Smoke Bomb: "copies 5"; a voyage card: once.
    assert fronts.count("smoke_bomb") == 5
    assert fronts.count("plague") == 1
    ir = _ir(project, "uncharted_passage")
    printed = {c["id"]: c for c in ir["cards"]}
    expected = sum(
        printed[i]["properties"].get("copies", 1) for i in dict.fromkeys(fronts) if i in printed
    )
    assert len(fronts) == expected
    # Print and play: no "x 5" badge and no source line on the printed card.
    assert "&times;5" not in html and 'class="foot"' not in html


def test_a_proof_keeps_one_face_per_card_with_its_count_and_source() -> None:
    html = _html(_project(), "uncharted_passage", proof=True)
    fronts = _fronts(html)
    assert fronts.count("smoke_bomb") == 1
    assert "&times;5" in html
    assert 'class="foot"' in html and "port_cards.cards:4" in html
    # The footer is its own switch: a proof without it.
    bare = _html(_project(), "uncharted_passage", proof=True, footer=False)
    assert 'class="foot"' not in bare and "&times;5" in bare


def test_copies_cost_one_face_in_the_pdf() -> None:
    project = _project()
    pdf = render_sheet_files(project, "uncharted_passage", _ir(project, "uncharted_passage"))[
        "sheets/uncharted_passage/uncharted_passage.pdf"
    ]
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    forms: dict[int, int] = {}
    placed = 0
    for page in reader.pages:
        for ref in page["/Resources"].get("/XObject", {}).values():
            forms[ref.idnum] = forms.get(ref.idnum, 0) + 1
            placed += 1
    # Five Smoke Bombs on the sheets, one form drawn five times (over one or two pages).
    assert placed > len(forms)
    html = _html(project, "uncharted_passage")
    assert placed == len(_fronts(html))


def test_each_kind_has_its_own_back() -> None:
    project = _project()
    html = _html(project, "darwins_journey", backs=True)
    backs = re.findall(r'data-back="([a-z_]+)"', html)
    # One back behind every front, and one design per kind that prints (the rules print none).
    printed = {c["kind"] for c in _ir(project, "darwins_journey")["cards"]} - {"rule"}
    assert set(backs) == printed and {"crew", "action_tile"} <= printed
    assert len(backs) == len(_fronts(html))
    # Each back names its own kind, not another's.
    crew = html[html.index('data-back="crew"') :][:400]
    tile = html[html.index('data-back="action_tile"') :][:400]
    assert "Crew" in crew and "Action tile" not in crew
    assert "Action tile" in tile and "Crew" not in tile


# -- hex tiles ---------------------------------------------------------------------------------


def test_hex_tiles_are_drawn_as_hexes_with_their_edges_and_icons() -> None:
    html = _html(_project(), "land_vs_sea")
    tiles = re.findall(
        r'<div class="tile kind-tile" data-card="([a-z_]+)"[^>]*data-side="([^"]+)"', html
    )
    # Both faces of each double-sided tile: "all land / all sea edged".
    assert sorted(tiles) == [
        ("lost_city", "Land face"),
        ("lost_city", "Sea face"),
        ("lost_traders", "Land face"),
        ("lost_traders", "Sea face"),
        ("volcano_whirlpool", "Land face"),
        ("volcano_whirlpool", "Sea face"),
    ]
    land = html[html.index('data-card="lost_traders" data-face') :]
    land = land[: land.index("</svg>")]
    # Six edges, each the face's side, a six-cornered outline, and the 2 caravans (on the
    # land face's area) drawn where they sit.
    assert land.count('class="edge land"') == 6
    outline = re.search(r'class="outline" points="([^"]+)"', land)
    assert outline is not None and len(outline.group(1).split()) == 6
    assert land.count('class="icon-caravan"') == 2 and "icon-ship" not in land
    city = html[html.index('data-card="lost_city" data-face') :]
    assert 'class="icon-has_city"' in city[: city.index("</svg>")]
    # Hex tiles are not printed as cards too.
    assert "lost_city" not in _fronts(html)


def test_hex_tiles_sit_in_a_honeycomb_on_their_own_page() -> None:
    project = _project()
    pdf = render_sheet_files(project, "land_vs_sea", _ir(project, "land_vs_sea"), formats=("pdf",))
    reader = pypdf.PdfReader(io.BytesIO(pdf["sheets/land_vs_sea/land_vs_sea.pdf"]))
    # The honeycomb pages follow the card pages; the special tiles' page holds no card text.
    text = next(p.extract_text() for p in reader.pages if "Lost City" in p.extract_text())
    assert "Lost City" in text and "Lost Traders" in text
    assert "Menhir scoring" not in text


def _tile_pages(**options: object) -> list:
    from compiler.sheets.html import OVERRIDES, build_sheet
    from compiler.sheets.model import build_model
    from compiler.sheets.reference import reference_for, resolve

    project = _project()
    ir = _ir(project, "land_vs_sea")
    folder = project.game_dir("land_vs_sea")
    ref = resolve(reference_for(folder, None), ir, {c["id"] for c in ir["cards"]})
    sheet = build_sheet(
        build_model(ir, ref, folder=folder), SheetOptions(**options), folder / OVERRIDES
    )
    return [p for p in sheet.pages if any('class="tile' in s.face.html for s in p.slots)]


def _side(slot: object) -> str:
    html = slot.face.html  # type: ignore[attr-defined]
    return re.search(r'data-card="([a-z_]+)"[^>]*data-side="([^"]+)"', html).groups()  # type: ignore[union-attr]


def test_double_sided_hex_tiles_print_their_other_face_behind_with_backs() -> None:
    pages = _tile_pages(backs=True, offset_x=1.5)
    # Each page of tiles is followed by its back page, which holds the other faces.
    assert [p.side for p in pages] == ["front", "back"] * (len(pages) // 2)
    assert pages, "Land vs Sea has double-sided tiles"
    specials = {"lost_city", "lost_traders", "volcano_whirlpool"}
    for front, back in zip(pages[::2], pages[1::2], strict=True):
        fronts = [_side(s) for s in front.slots]
        behinds = [_side(s) for s in back.slots]
        # The same tile behind itself, its other face: Face A behind Face B, land behind sea.
        assert [card for card, _ in behinds] == [card for card, _ in fronts]
        other = {"Face A": "Face B", "Land face": "Sea face"}
        assert [side for _, side in behinds] == [other[side] for _, side in fronts]
        # Behind its front: the columns mirrored across the paper, moved by the back offset.
        for face, behind in zip(front.slots, back.slots, strict=True):
            assert behind.x == pytest.approx(front.width - face.x - face.w + 1.5)
            assert behind.y == pytest.approx(face.y)
    # The special tiles are printed too: land face in front, sea face behind.
    last = [_side(s) for s in pages[-2].slots]
    assert [side for card, side in last if card in specials] == ["Land face"] * 3
    # Without backs both faces sit side by side on the front, to cut out and glue.
    apart = [_side(s) for p in _tile_pages() for s in p.slots]
    assert all(p.side == "front" for p in _tile_pages())
    assert len(apart) == 2 * sum(len(p.slots) for p in pages[::2])
    assert apart[-6:] == [
        (c, f)
        for c in ("volcano_whirlpool", "lost_city", "lost_traders")
        for f in ("Land face", "Sea face")
    ]
    one = _tile_pages(backs=True, one_per_page=True)
    # One tile per page: every front page followed by its own back.
    assert [p.side for p in one] == ["front", "back"] * (len(one) // 2)
    for front, back in zip(one[::2], one[1::2], strict=True):
        (card, side), (behind_card, behind_side) = _side(front.slots[0]), _side(back.slots[0])
        assert card == behind_card and side != behind_side


# -- sizes -------------------------------------------------------------------------------------


def test_cards_turn_when_that_fits_more_on_the_page() -> None:
    # A 90 x 50 mm card: upright 2 x 5 = 10 fit on A4, turned 4 x 3 = 12: turned.
    wide = grid(SheetOptions(size="90x50mm"))
    assert wide.rotated and wide.per_page == 12
    # Poker cards stay upright: 3 x 3 either way round is 9, turned 4 x 2 = 8.
    assert not grid(SheetOptions()).rotated
    tall_on_letter = grid(SheetOptions(size="tarot", paper="letter"))
    # Tarot on Letter: upright 2 x 2 = 4; turned 1 x 3 = 3: stays upright.
    assert not tall_on_letter.rotated and tall_on_letter.per_page == 4
    # 60 x 100 mm on A4: upright 3 x 2 = 6; turned (100 x 60) 2 x 4 = 8: turned.
    turned = grid(SheetOptions(size="60x100mm"))
    assert turned.rotated and turned.per_page == 8


@pytest.mark.parametrize("size", ["tarot", "mini", "60x100mm"])
def test_tarot_mini_and_custom_sizes_print(size: str) -> None:
    project = _project()
    files = render_sheet_files(
        project,
        "darwins_journey",
        _ir(project, "darwins_journey"),
        formats=("pdf",),
        options=SheetOptions(size=size),
    )
    reader = pypdf.PdfReader(io.BytesIO(files["sheets/darwins_journey/darwins_journey.pdf"]))
    # The Crew card P1 is printed, its code and its whole text, in every size (the text wraps
    # differently at each size: compare it with the line breaks taken out).
    text = " ".join(" ".join(page.extract_text() for page in reader.pages).split())
    assert "P1" in text
    assert "perform two Research Museum Specimen actions" in text.replace("- ", "")


# -- text that fills the card -------------------------------------------------------------------


def test_short_text_is_set_large_and_long_text_small() -> None:
    html = _html(_project(), "land_vs_sea")
    sizes = {
        card: float(size)
        for card, size in re.findall(
            r'data-card="([a-z_]+)" data-source="[^"]+" style="font-size: ([\d.]+)pt', html
        )
    }
    # Menhir scoring has one sentence, City scoring three: the first fills its card larger.
    assert sizes["menhir_scoring"] > sizes["city_scoring"]
    assert all(MIN_PT <= s <= MAX_PT for s in sizes.values())
    assert sizes["menhir_scoring"] > 7.2  # the old fixed size


# -- art, a game's own CSS and templates ------------------------------------------------------


def _tiny(tmp_path: Path, card: str) -> Project:
    game = tmp_path / "cards" / "tiny"
    game.mkdir(parents=True)
    (game / "game.cards").write_text(
        'game tiny "Tiny" {\n  players 1..2\n  counter gold\n'
        '  trigger reveal "a card is revealed"\n  kind thing "a thing" { }\n}\n'
    )
    (game / "cards.cards").write_text(card)
    return Project(tmp_path, tmp_path / "cards", tmp_path / "generated", tmp_path / "tests")


def _tiny_html(project: Project) -> str:
    ir = _ir(project, "tiny")
    return render_sheet_files(project, "tiny", ir, formats=("html",))[
        "sheets/tiny/tiny.html"
    ].decode()


def _png() -> bytes:
    from PIL import Image  # WeasyPrint's own dependency

    out = io.BytesIO()
    Image.new("RGB", (4, 3), (40, 90, 140)).save(out, format="PNG")
    return out.getvalue()


def test_a_card_shows_its_art_or_a_placeholder(tmp_path: Path) -> None:
    project = _tiny(
        tmp_path,
        'thing "Pictured" {\n  art "art/ship.png"\n  on reveal { gain gold 1 }\n}\n'
        'thing "Plain" {\n  on reveal { gain gold 2 }\n}\n',
    )
    (project.game_dir("tiny") / "art").mkdir()
    (project.game_dir("tiny") / "art" / "ship.png").write_bytes(_png())
    html = _tiny_html(project)
    pictured = html[html.index('data-card="pictured"') :][:3000]
    plain = html[html.index('data-card="plain"') :][:3000]
    assert '<img src="data:image/png;base64,' in pictured
    assert 'class="art placeholder' in plain and "<img" not in plain


def test_missing_art_is_an_error_at_the_card(tmp_path: Path) -> None:
    project = _tiny(tmp_path, 'thing "Pictured" {\n  art "art/none.png"\n}\n')
    with pytest.raises(SheetError) as caught:
        _tiny_html(project)
    assert "cards.cards:1" in str(caught.value) and "art/none.png" in str(caught.value)
    assert "does not exist" in str(caught.value)


def test_a_game_brings_its_own_css_and_templates(tmp_path: Path) -> None:
    project = _tiny(tmp_path, 'thing "Plain" {\n  on reveal { gain gold 2 }\n}\n')
    own = project.game_dir("tiny") / "sheets"
    own.mkdir()
    (own / "sheet.css").write_text(".card { background: #ffeedd; }\n")
    back = (ROOT / "compiler" / "templates" / "sheets" / "back.html.j2").read_text()
    (own / "back.html.j2").write_text(
        back.replace('<div class="emblem">', '<div class="emblem mine">')
    )
    ir = _ir(project, "tiny")
    files = render_sheet_files(
        project, "tiny", ir, formats=("html",), options=SheetOptions(backs=True)
    )
    html = files["sheets/tiny/tiny.html"].decode()
    assert ".card { background: #ffeedd; }" in html
    assert 'class="emblem mine"' in html


# -- the face cache ----------------------------------------------------------------------------


def test_an_edit_lays_out_only_the_card_it_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from compiler import sheets
    from compiler.sheets import faces

    # Laid out in this process, where the calls are counted (tests/test_sheets_speed.py: the
    # same bytes with more processes).
    monkeypatch.setenv("CARDC_SHEETS_JOBS", "1")

    project = _tiny(
        tmp_path,
        'thing "One" {\n  on reveal { gain gold 1 }\n}\n'
        'thing "Two" {\n  on reveal { gain gold 2 }\n}\n',
    )
    laid: list[int] = []
    real = faces._fit_group

    def counting(group, *args):  # type: ignore[no-untyped-def]
        laid.append(len(group))
        return real(group, *args)

    faces._fit_group = counting  # type: ignore[assignment]
    try:
        first = render_sheet_files(project, "tiny", _ir(project, "tiny"))
        assert sum(laid) == 2  # the two fronts (no backs asked for)
        laid.clear()
        sheets._MEMO.clear()
        faces._CACHES.clear()  # a new process: only the disk cache is left
        source = project.game_dir("tiny") / "cards.cards"
        source.write_text(source.read_text().replace("gain gold 2", "gain gold 3"))
        second = render_sheet_files(project, "tiny", _ir(project, "tiny"))
        assert laid == [1]  # only "Two" again
        sheets._MEMO.clear()
        cold = render_sheet_files(project, "tiny", _ir(project, "tiny"), cache=False)
    finally:
        faces._fit_group = real  # type: ignore[assignment]
    assert first != second
    # The cache changes nothing: a cold render gives the same bytes.
    assert cold == second
    shutil.rmtree(tmp_path / ".cardc-cache")


def test_the_face_cache_is_pruned_least_recently_used_first(tmp_path: Path) -> None:
    import os

    from compiler.sheets import cachefiles
    from compiler.sheets.faces import CACHE_VERSION, prune_cache

    base = tmp_path / ".cardc-cache" / "sheets"
    (base / "faces-0").mkdir(parents=True)  # an older cache version
    (base / "faces-0" / "x.json").write_text("{}")
    folder = base / CACHE_VERSION
    folder.mkdir()
    files = []
    for age, name in enumerate(["newest.json", "middle.pdf", "older.pdf", "used.pdf"]):
        path = folder / name
        path.write_bytes(b"x" * 100)
        os.utime(path, (1_000_000 - age * 1000, 1_000_000 - age * 1000))
        files.append(path)
    leftover = folder / ".bundle-a.pdf.99.tmp"  # a writer killed mid-write, long ago
    leftover.write_bytes(b"x")
    os.utime(leftover, (1, 1))
    fresh_tmp = folder / ".bundle-b.pdf.98.tmp"  # a concurrent build's, being written
    fresh_tmp.write_bytes(b"x")
    # The oldest, but this process used it: kept whatever its age.
    cachefiles.USED.add(folder / "used.pdf")
    try:
        removed = prune_cache(tmp_path, budget=250)
    finally:
        cachefiles.USED.discard(folder / "used.pdf")
    # 400 bytes over a 250 budget: the two least recently used that are not in use go.
    assert sorted(p.name for p in removed) == [
        ".bundle-a.pdf.99.tmp",
        "faces-0",
        "middle.pdf",
        "older.pdf",
    ]
    assert sorted(p.name for p in folder.iterdir()) == [
        ".bundle-b.pdf.98.tmp",
        "newest.json",
        "used.pdf",
    ]
    assert prune_cache(tmp_path, budget=250) == []


def test_a_cached_face_read_is_touched_so_it_counts_as_used(tmp_path: Path) -> None:
    import os

    from compiler.sheets import cachefiles

    path = tmp_path / "face.json"
    path.write_text("{}")
    os.utime(path, (1, 1))
    cachefiles.use(path)
    try:
        assert path.stat().st_mtime > 1_000_000 and path in cachefiles.USED
    finally:
        cachefiles.USED.discard(path)
