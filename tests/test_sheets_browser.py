"""The HTML sheets as a person sees them: rendered in headless Chromium (Debian's ``chromium``).

A copy of each sheet gets a small measuring script at its end; Chromium loads it, the script
writes what it measured into the page, and ``--dump-dom`` hands the page back. Every card must
be its real size (poker: 63.5 x 88.9 mm = 240 x 336 CSS px) and no card's text may run past
its frame. ``.ci/run`` installs chromium; without it these tests are skipped.
"""

from __future__ import annotations

import html as html_lib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from compiler.pipeline import compile_game
from compiler.project import Project, find_project
from compiler.sheets import SheetOptions, render_sheet_files
from dsl.diagnostics import SourceCache

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# Outside CI a machine without chromium skips these; in CI (which installs it) they must run.
INSTALL_CHROMIUM = "chromium is not installed (Debian/Ubuntu: apt-get install chromium)"
pytestmark = pytest.mark.skipif(
    CHROMIUM is None and not os.environ.get("CI"), reason=INSTALL_CHROMIUM
)

ROOT = Path(__file__).resolve().parent.parent
PX_PER_MM = 96 / 25.4

_MEASURE = """
<script>
(function () {
  var cards = [];
  document.querySelectorAll('.card').forEach(function (card) {
    var box = card.getBoundingClientRect();
    var face = card.querySelector('.face');
    cards.push({id: card.id, back: card.classList.contains('back'), w: box.width,
                h: box.height, over: face.scrollHeight - face.clientHeight,
                wide: face.scrollWidth - face.clientWidth});
  });
  var out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = JSON.stringify({cards: cards,
                                    scripts: document.querySelectorAll('script').length});
  document.body.appendChild(out);
})();
</script>
"""


def _measure(page: str, tmp_path: Path) -> dict:
    """Load ``page`` in Chromium and return what the measuring script found."""
    if CHROMIUM is None:  # in CI, which installs it: a failure that says what is missing
        pytest.fail(INSTALL_CHROMIUM)
    target = tmp_path / "sheet.html"
    target.write_text(page.replace("</body>", _MEASURE + "</body>"), encoding="utf-8")
    run = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=2000",
            "--dump-dom",
            target.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r'<pre id="measured">(.*?)</pre>', run.stdout, re.S)
    assert found, f"chromium printed no measurements: {run.stderr[-2000:]}"
    return json.loads(html_lib.unescape(found.group(1)))


def _sheet(
    game: str, options: SheetOptions | None = None, only_cards: list[str] | None = None
) -> str:
    project = find_project(ROOT)
    assert project is not None
    result = compile_game(project.game_dir(game), SourceCache())
    assert result.ir is not None
    files = render_sheet_files(
        project, game, result.ir, formats=("html",), options=options, only_cards=only_cards
    )
    return files[f"sheets/{game}/{game}.html"].decode()


def _printed_copies(game: str) -> int:
    """How many card faces (not hex tiles) the game's sheet prints: every copy of each card."""
    from compiler.sheets.model import build_model
    from compiler.sheets.reference import reference_for, resolve

    project = find_project(ROOT)
    assert project is not None
    result = compile_game(project.game_dir(game), SourceCache())
    ir = result.ir
    assert ir is not None
    folder = project.game_dir(game)
    ref = resolve(reference_for(folder, None), ir, {c["id"] for c in ir["cards"]})
    return sum(max(c.count, 1) for c in build_model(ir, ref, folder=folder).cards if not c.hexes)


@pytest.mark.parametrize(
    "game", ["uncharted_passage", "incredible_expeditions", "land_vs_sea", "darwins_journey"]
)
def test_cards_are_their_real_size_and_nothing_overflows(game: str, tmp_path: Path) -> None:
    measured = _measure(_sheet(game), tmp_path)
    cards = measured["cards"]
    assert cards
    for card in cards:
        assert abs(card["w"] - 63.5 * PX_PER_MM) < 0.6, card
        assert abs(card["h"] - 88.9 * PX_PER_MM) < 0.6, card
        assert card["over"] <= 0, f"{card['id']} overflows its frame by {card['over']} px"
        assert card["wide"] <= 0, f"{card['id']} is wider than its frame"


def test_bridge_cards_with_bleed_and_backs(tmp_path: Path) -> None:
    options = SheetOptions(size="bridge", bleed=3.0, backs=True)
    measured = _measure(_sheet("darwins_journey", options), tmp_path)
    fronts = [c for c in measured["cards"] if not c["back"]]
    backs = [c for c in measured["cards"] if c["back"]]
    # Every copy of every card (the rules are printed in the reference), each with its back.
    assert len(fronts) == len(backs) == _printed_copies("darwins_journey") > 5
    for card in measured["cards"]:
        # A card's box is its trim size plus the bleed on each side.
        assert abs(card["w"] - (57.15 + 6) * PX_PER_MM) < 0.6, card
        assert abs(card["h"] - (88.9 + 6) * PX_PER_MM) < 0.6, card
        assert card["over"] <= 0, card


def test_a_script_in_card_text_prints_as_text(tmp_path: Path) -> None:
    game = tmp_path / "project" / "cards" / "tiny"
    game.mkdir(parents=True)
    (game / "game.cards").write_text(
        'game tiny "Tiny" {\n  players 1..2\n  kind thing "a thing" { }\n}\n'
    )
    (game / "cards.cards").write_text('thing "Evil" {\n  text "<script>alert(1)</script>"\n}\n')
    root = tmp_path / "project"
    project = Project(root, root / "cards", root / "generated", root / "tests")
    result = compile_game(game, SourceCache())
    assert result.ir is not None
    page = render_sheet_files(project, "tiny", result.ir, formats=("html",))[
        "sheets/tiny/tiny.html"
    ].decode()
    measured = _measure(page, tmp_path)
    # Only the measuring script itself is a script element; the card's text stayed text.
    assert measured["scripts"] == 1
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


# -- print and play, as a person sees it ---------------------------------------------------------

_FACES = """
<script>
(function () {
  var fronts = [], tiles = [];
  document.querySelectorAll('.card').forEach(function (card) {
    if (!card.classList.contains('back')) { fronts.push(card.dataset.card); }
  });
  document.querySelectorAll('.tile').forEach(function (tile) {
    var box = tile.getBoundingClientRect();
    tiles.push({card: tile.dataset.card, side: tile.dataset.side, x: box.left + window.scrollX,
                y: box.top + window.scrollY, w: box.width, h: box.height});
  });
  var out = document.createElement('pre');
  out.id = 'measured';
  out.textContent = JSON.stringify({cards: [], fronts: fronts, tiles: tiles, scripts: 0});
  document.body.appendChild(out);
})();
</script>
"""


def _screenshot(page: str, tmp_path: Path, width: int, height: int) -> Path:
    """``page`` as Chromium draws it, ``width`` x ``height`` CSS pixels, as a PNG."""
    assert CHROMIUM is not None
    target = tmp_path / "shot.html"
    target.write_text(page, encoding="utf-8")
    shot = tmp_path / "shot.png"
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile-shot'}",
            f"--window-size={width},{height}",
            "--force-device-scale-factor=1",
            f"--screenshot={shot}",
            target.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert shot.is_file(), "chromium wrote no screenshot"
    return shot


def test_every_copy_is_on_the_printed_sheet(tmp_path: Path) -> None:
    # "copies 5": five Smoke Bombs drawn on the sheets, a voyage card once.
    fronts = _measure_with(_sheet("uncharted_passage"), _FACES, tmp_path)["fronts"]
    assert fronts.count("smoke_bomb") == 5 and fronts.count("plague") == 1


def _measure_with(page: str, script: str, tmp_path: Path) -> dict:
    """Load ``page`` with ``script`` in Chromium and return what the script wrote."""
    assert CHROMIUM is not None
    target = tmp_path / "measure.html"
    target.write_text(page.replace("</body>", script + "</body>"), encoding="utf-8")
    run = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile-measure'}",
            "--virtual-time-budget=2000",
            "--dump-dom",
            target.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    found = re.search(r'<pre id="measured">(.*?)</pre>', run.stdout, re.S)
    assert found, f"chromium printed no measurements: {run.stderr[-2000:]}"
    return json.loads(html_lib.unescape(found.group(1)))


def test_hex_tiles_look_like_hexes_land_and_sea(tmp_path: Path) -> None:
    from PIL import Image  # WeasyPrint's own dependency

    # The Lost Traders tile alone: its two faces side by side in one row of the honeycomb, so
    # the corners of each face's box are the paper (in a full sprue its neighbours' hexes
    # fill them, as hexes tile the plane).
    page = _sheet("land_vs_sea", only_cards=["lost_traders"])
    tiles = _measure_with(page, _FACES, tmp_path)["tiles"]
    land = next(t for t in tiles if t["card"] == "lost_traders" and t["side"] == "Land face")
    sea = next(t for t in tiles if t["card"] == "lost_traders" and t["side"] == "Sea face")
    # A pointy-top hex: as high as 2 / sqrt(3) of its width.
    assert abs(land["h"] / land["w"] - 2 / 3**0.5) < 0.01
    bottom = int(max(t["y"] + t["h"] for t in tiles)) + 10
    image = Image.open(_screenshot(page, tmp_path, 800, bottom)).convert("RGB")

    def pixel(tile: dict, fx: float, fy: float) -> tuple[int, int, int]:
        return image.getpixel((int(tile["x"] + fx * tile["w"]), int(tile["y"] + fy * tile["h"])))

    def greenish(rgb: tuple[int, int, int]) -> bool:
        return rgb[1] > rgb[0] + 20 and rgb[1] > rgb[2] + 20

    def bluish(rgb: tuple[int, int, int]) -> bool:
        return rgb[2] > rgb[0] + 40 and rgb[2] > rgb[1] + 10

    # Inside, the face's colour (left of the middle, clear of the icons); the box's corners,
    # outside the hex, are the paper.
    assert greenish(pixel(land, 0.2, 0.5)) and bluish(pixel(sea, 0.2, 0.5))
    for tile in (land, sea):
        assert min(pixel(tile, 0.03, 0.03)) > 230, "a hex's corner is not paper"
        assert min(pixel(tile, 0.97, 0.97)) > 230, "a hex's corner is not paper"
