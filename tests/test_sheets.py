"""The printable sheets: card text from the IR, layout, escaping, overflow, and the PDF read back.

The rulebook sentences the generated text must say are quoted beside each assertion. The PDF
is read back with pypdf: page count and size, every card's name as text, every font embedded.
"""

from __future__ import annotations

import io
import math
import re
from pathlib import Path

import pytest

from compiler.pipeline import compile_game
from compiler.project import Project, find_project
from compiler.sheets import SheetError, SheetOptions, render_sheet_files
from compiler.sheets.faces import MAX_PT, MIN_PT
from compiler.sheets.layout import LayoutError, grid, parse_size
from compiler.sheets.model import build_model
from compiler.sheets.reference import REFERENCE_FILE, load_reference
from compiler.sheets.text import plain
from dsl.diagnostics import SourceCache

pypdf = pytest.importorskip("pypdf")

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("uncharted_passage", "incredible_expeditions", "land_vs_sea", "darwins_journey")
MM_TO_PT = 72 / 25.4


def _project() -> Project:
    project = find_project(ROOT)
    assert project is not None
    return project


def _ir(game: str) -> dict:
    project = _project()
    result = compile_game(project.game_dir(game), SourceCache())
    assert result.ir is not None, result.diagnostics
    return result.ir


def _model(game: str):
    project = _project()
    ref = load_reference(project.game_dir(game) / REFERENCE_FILE)
    return build_model(_ir(game), ref)


def _text(game: str, card_id: str) -> str:
    model = _model(game)
    card = next(c for c in [*model.cards, *model.rules] if c.id == card_id)
    texts = [plain(p) for p in card.paragraphs]
    return " | ".join(t for t in texts if not t.endswith("this card is provisional"))


# -- card text from the rules that run ----------------------------------------------------------


def test_plague_reads_as_the_rulebook_says() -> None:
    # "Plague - Immediately mark an X on the Health Track. Using Lime Juice prevents Plague."
    assert _text("uncharted_passage", "plague") == (
        "Immediately mark an X on [health] the Health track unless you play Lime Juice."
    )


def test_rocks_marks_the_ship_durability_track() -> None:
    # "Rocks - Immediately mark an X on the Ship Durability Track."
    assert _text("uncharted_passage", "rocks") == (
        "Immediately mark an X on [durability] the Ship Durability track."
    )


def test_smoke_bomb_reduces_the_pirates_combat_power_by_up_to_2() -> None:
    # Icon Reference: "Pirate: -2: Reduce Pirate's Combat Power by up to 2."
    text = _text("uncharted_passage", "smoke_bomb")
    assert "reduce [pirate_power] the Pirate's Combat Power by up to 2" in text


def test_the_pirate_raid_rule_reads_as_the_rulebook_says() -> None:
    # "Each player with a raided Ship loses 2 Coins as well as 2 additional Coins for each
    #  Treasure token ... for each Coin a player cannot pay, they instead lose 1 victory point"
    text = _text("darwins_journey", "pirate_raid")
    assert text.startswith("After each Reward Phase, every player")
    assert (
        "loses 2 [coins] Coins as well as 2 additional Coins for each [treasure] Treasure token"
    ) in text
    assert "every player whose Ship is in the same Ocean Region as the Pirate Ship" in text
    # "... they instead lose 1 victory point (to a minimum of 0 victory points on the victory
    #  point track)": every sentence of the rule, the minimum too.
    assert (
        "for each Coin a player cannot pay, they instead lose 1 victory point (to a minimum of "
        "0 victory points on the victory point track)"
    ) in text


def test_a_text_property_replaces_the_generated_text(tiny: Project) -> None:
    ir = _tiny_ir(tiny)
    model = build_model(ir, load_reference(tiny.game_dir("tiny") / REFERENCE_FILE))
    evil = next(c for c in model.cards if c.id == "evil")
    assert plain(evil.paragraphs[0]) == "<script>alert(1)</script> [gold]"


def test_every_card_of_every_game_has_a_name_and_its_effects_in_words() -> None:
    for game in GAMES:
        for card in _model(game).cards:
            assert card.title
            ir_card = next(c for c in _ir(game)["cards"] if c["id"] == card.id)
            if ir_card["triggers"] and "text" not in ir_card["properties"]:
                assert card.paragraphs, f"{game}/{card.id} has effects but no text"
                words = re.sub(r"\[\w+\]", "", " ".join(plain(p) for p in card.paragraphs))
                # No raw DSL leaks into the printed text (identifiers with underscores).
                assert not re.search(r"\b[a-z]+_[a-z_]+\b", words), (card.id, words)


def test_provisional_values_are_marked_and_listed() -> None:
    html = render_sheet_files(_project(), "uncharted_passage", _ir("uncharted_passage"))[
        "sheets/uncharted_passage/uncharted_passage.html"
    ].decode()
    rum = html[html.index('id="card-rum"') :]
    rum = rum[: rum.index('<div class="slot"', 10)]
    # Rum's +1 Armament is @provisional: the rulebook gives Rum only by example.
    assert 'class="prov"' in rum
    assert "Provisional values" in html and "a guess to playtest" in html


# -- the rules reference -----------------------------------------------------------------------


def test_the_reference_has_the_crew_action_table_titles_and_icon_legend() -> None:
    md = render_sheet_files(
        _project(), "uncharted_passage", _ir("uncharted_passage"), formats=("md",)
    )["sheets/uncharted_passage/uncharted_passage.md"].decode()
    # "5 — You can perform both purchasing and selling specialties, and gain one Port Card."
    assert "| 5 | You can perform both purchasing and selling specialties, and gain one" in md
    # "51 and above: Legendary Explorer"
    assert "| 51 and above | Legendary Explorer |" in md
    assert "### Icon legend" in md and "Reduce Pirate's Combat Power by up to 2." in md
    assert "### Card list" in md and "| Smoke Bomb | port card |" in md


@pytest.mark.parametrize(
    ("game", "needle"),
    [
        # "To Venture Forth: 1. Place all your defeated Encounters into the Encounter discard pile."
        ("incredible_expeditions", "Turn summary"),
        # "Bandits score 1 point per caravan icon, and Pirates score 1 point per ship icon"
        ("land_vs_sea", "Scoring layers"),
        # "After each Reward Phase, every player whose Ship is in the same Ocean Region ..."
        ("darwins_journey", "The Pirate Raid"),
    ],
)
def test_each_game_has_its_reference_table(game: str, needle: str) -> None:
    md = render_sheet_files(_project(), game, _ir(game), formats=("md",))[
        f"sheets/{game}/{game}.md"
    ].decode()
    assert f"### {needle}" in md


# -- escaping ----------------------------------------------------------------------------------


def test_html_escapes_card_text(tiny: Project) -> None:
    files = render_sheet_files(tiny, "tiny", _tiny_ir(tiny), formats=("html", "md"))
    html = files["sheets/tiny/tiny.html"].decode()
    assert "<script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    md = files["sheets/tiny/tiny.md"].decode()
    assert "<script>" not in md


# -- layout ------------------------------------------------------------------------------------


def test_default_grid_is_three_by_three_poker_cards_on_a4() -> None:
    layout = grid(SheetOptions())
    assert (layout.columns, layout.rows) == (3, 3)
    assert (layout.cell_w, layout.cell_h) == (63.5, 88.9)
    # Touching cards share their cut lines: 4 vertical and 4 horizontal cuts for 3 x 3.
    xs, ys = layout.cuts(0.0)
    assert len(xs) == 4 and len(ys) == 4


def test_backs_mirror_the_columns_for_duplex() -> None:
    layout = grid(SheetOptions(backs=True))
    assert layout.slot(0, back=True) == layout.slot(2)
    assert layout.slot(5, back=True) == layout.slot(3)


def test_card_sizes_and_a_card_too_large_for_the_paper() -> None:
    assert parse_size("tarot")[1:] == (70.0, 120.0)
    assert parse_size("50x80mm")[1:] == (50.0, 80.0)
    with pytest.raises(LayoutError):
        parse_size("huge")
    with pytest.raises(LayoutError):
        grid(SheetOptions(size="300x300mm"))


# -- overflow ----------------------------------------------------------------------------------


def test_long_text_shrinks_to_fit(tiny: Project) -> None:
    files = render_sheet_files(tiny, "tiny", _tiny_ir(tiny, words=150), formats=("html",))
    html = files["sheets/tiny/tiny.html"].decode()
    size = re.search(r'data-card="long"[^>]*font-size: ([\d.]+)pt', html)
    short = re.search(r'data-card="evil"[^>]*font-size: ([\d.]+)pt', html)
    # The long text shrinks to fit; the short one is set large, to fill its card.
    assert size is not None and short is not None
    assert float(size.group(1)) < float(short.group(1))
    assert MIN_PT <= float(size.group(1)) < 7.2 and float(short.group(1)) == MAX_PT


def test_text_that_cannot_fit_fails_naming_the_card_and_line(tiny: Project) -> None:
    with pytest.raises(SheetError) as caught:
        render_sheet_files(tiny, "tiny", _tiny_ir(tiny, words=400), formats=("pdf",))
    assert "'Long'" in str(caught.value)
    assert re.search(r"cards\.cards:\d+", str(caught.value))
    assert caught.value.diagnostic().span.line > 1


# -- the PDF read back -------------------------------------------------------------------------


def _pdf(game: str, **options: object) -> tuple[object, bytes]:
    files = render_sheet_files(
        _project(), game, _ir(game), formats=("pdf",), options=SheetOptions(**options)
    )
    data = files[f"sheets/{game}/{game}.pdf"]
    return pypdf.PdfReader(io.BytesIO(data)), data


def _fonts(reader: object) -> list[tuple[str, bool]]:
    found = []
    for page in reader.pages:  # type: ignore[attr-defined]
        fonts = page.get("/Resources", {}).get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            descendants = font.get("/DescendantFonts")
            target = descendants[0].get_object() if descendants else font
            descriptor = target.get("/FontDescriptor")
            embedded = descriptor is not None and any(
                k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3")
            )
            found.append((str(font.get("/BaseFont")), embedded))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_pdf_pages_size_names_and_fonts(game: str) -> None:
    reader, _ = _pdf(game)
    model = _model(game)
    # Print and play: every copy of a card is printed; hex tiles follow on their own sheets.
    cards = [c for c in model.cards if not c.hexes]
    card_pages = math.ceil(sum(c.count for c in cards) / 9)
    faces = sum(len(c.hexes) * c.count for c in model.cards)
    if faces:
        from compiler.sheets.html import _hex_pages

        assert model.ref.hexes is not None
        card_pages += len(
            _hex_pages([None] * faces, [None] * faces, SheetOptions(), model.ref.hexes.width)
        )
    assert len(reader.pages) > card_pages  # the cards, then the rules reference
    box = reader.pages[0].mediabox
    assert abs(float(box.width) - 210 * MM_TO_PT) < 0.5
    assert abs(float(box.height) - 297 * MM_TO_PT) < 0.5
    text = re.sub(r"\s+", "", "".join(p.extract_text() for p in reader.pages[:card_pages]))
    for card in model.cards:
        assert re.sub(r"\s+", "", card.title) in text, card.title
    fonts = _fonts(reader)
    assert fonts
    for name, embedded in fonts:
        assert embedded, name
        # The shipped DejaVu Sans Condensed, by its @font-face family: no system font.
        assert "cardc-sans" in name, f"{name} is not a shipped font"


def test_one_per_page_with_bleed_has_trim_and_bleed_boxes() -> None:
    reader, _ = _pdf("darwins_journey", one_per_page=True, bleed=3.0)
    assert len(reader.pages) == len(_model("darwins_journey").cards)
    page = reader.pages[0]
    trim, bleed = page.trimbox, page.bleedbox
    assert abs(float(trim.width) - 63.5 * MM_TO_PT) < 0.5
    assert abs(float(trim.height) - 88.9 * MM_TO_PT) < 0.5
    assert abs(float(bleed.width) - 69.5 * MM_TO_PT) < 0.5


def test_backs_double_the_card_pages_and_letter_paper() -> None:
    reader, _ = _pdf("darwins_journey", backs=True, paper="letter")
    # Every copy in the data's order, 9 to a sheet (the rules are in the reference): the first
    # sheet of fronts, then its backs, each card's back naming its game and its own kind.
    model = _model("darwins_journey")
    first = [c for c in model.cards if not c.hexes for _ in range(c.count)][:9]
    front, back = reader.pages[0].extract_text(), reader.pages[1].extract_text()
    flat = re.sub(r"\s+", " ", back).upper()
    for card in first:
        assert re.sub(r"\s+", "", card.title) in re.sub(r"\s+", "", front), card.title
        kind = card.kind.replace("_", " ").upper()
        assert kind in flat, kind
    assert flat.count("DARWIN'S JOURNEY: PIRATES") == len(first)
    # A back prints no card's text.
    assert not any(re.sub(r"\s+", "", c.title) in re.sub(r"\s+", "", back) for c in first)
    assert abs(float(reader.pages[0].mediabox.width) - 215.9 * MM_TO_PT) < 0.5


def test_same_sources_same_bytes() -> None:
    first = render_sheet_files(_project(), "land_vs_sea", _ir("land_vs_sea"))
    from compiler import sheets

    sheets._MEMO.clear()
    # Laid out afresh (no face from the cache): the very same bytes.
    second = render_sheet_files(_project(), "land_vs_sea", _ir("land_vs_sea"), cache=False)
    assert first == second
    assert b"/CreationDate" not in first["sheets/land_vs_sea/land_vs_sea.pdf"]


def test_faces_from_an_earlier_build_give_the_bytes_of_a_fresh_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An incremental build takes most faces from the cache, laid out in earlier builds beside
    # other faces: its sheet must be the bytes a clean build makes (`cardc build --check
    # --rebuild` compares them), hex tiles' drawings included.
    import copy

    from compiler import sheets
    from compiler.sheets import faces

    cache = faces.FaceCache(tmp_path / "cache")
    monkeypatch.setattr(faces, "cache_for", lambda root: cache if root else faces.FaceCache(None))
    project, ir = _project(), _ir("land_vs_sea")
    # An earlier build had the cards in another order: its faces were laid out beside other
    # neighbours, in another order.
    earlier = copy.deepcopy(ir)
    earlier["cards"] = ir["cards"][::-1]
    sheets._MEMO.clear()
    render_sheet_files(project, "land_vs_sea", earlier, formats=("pdf",))
    sheets._MEMO.clear()
    cache.memory.clear()  # from the disk, as in another process
    incremental = render_sheet_files(project, "land_vs_sea", ir, formats=("pdf",))
    sheets._MEMO.clear()
    clean = render_sheet_files(project, "land_vs_sea", ir, formats=("pdf",), cache=False)
    assert incremental == clean


# -- a tiny game for escaping and overflow -----------------------------------------------------


@pytest.fixture
def tiny(tmp_path: Path) -> Project:
    """A project with one small game whose cards the tests rewrite."""
    game = tmp_path / "cards" / "tiny"
    game.mkdir(parents=True)
    (game / "game.cards").write_text(
        'game tiny "Tiny" {\n'
        "  players 1..2\n"
        "  counter gold\n"
        '  trigger reveal "a card is revealed"\n'
        '  kind thing "a thing" { }\n'
        "}\n"
    )
    (game / REFERENCE_FILE).write_text(
        "icons:\n  gold: {shape: coin, label: Gold, meaning: A gold coin.}\n"
    )
    return Project(tmp_path, tmp_path / "cards", tmp_path / "generated", tmp_path / "tests")


def _tiny_ir(project: Project, words: int = 0) -> dict:
    long = " ".join(["plunder"] * words) if words else "short"
    (project.game_dir("tiny") / "cards.cards").write_text(
        'thing "Evil" {\n  text "<script>alert(1)</script> {icon:gold}"\n}\n\n'
        f'thing "Long" {{\n  text "{long}"\n}}\n'
    )
    result = compile_game(project.game_dir("tiny"), SourceCache())
    assert result.ir is not None, [d.message for d in result.diagnostics]
    return result.ir
