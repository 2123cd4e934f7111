"""The HTML emitter: sheets of card faces, backs per kind, hex tiles, crop marks, reference.

Each printed face (a card's front at its fitted text size, a kind's back, one face of a hex
tile) is an HTML fragment of its own, from ``card.html.j2``, ``back.html.j2`` or
``hex.html.j2``: the sheet places the fragments in their slots, and the PDF is imposed from
the same fragments rendered one face at a time (:mod:`compiler.sheets.faces`), so a face
that did not change is never laid out again. A game may bring its own CSS
(``cards/<game>/sheets/sheet.css``, after the built-in style) and its own templates (a file of
the same name in ``cards/<game>/sheets/`` replaces the built-in one).

The jinja2 environment here is for HTML only (autoescape on, StrictUndefined), separate from
the one that writes Python: everything from the data is escaped, so a card text
``<script>alert(1)</script>`` prints as those characters. Fonts are the package's own
(compiler/sheets/fonts), subset to the characters the page uses and inlined as data URIs, so
the file shows the same in any browser and WeasyPrint never falls back to a system font.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from compiler.sheets.cachefiles import use, wrote
from compiler.sheets.icons import icon_svg
from compiler.sheets.layout import PRINT_MARGIN, Grid, SheetOptions, grid
from compiler.sheets.model import CardView, HexFace, SheetModel
from compiler.sheets.text import IconRef, Provisional, Text

FONT_DIR = Path(__file__).parent / "fonts"
#: (CSS weight, CSS style, file) of the shipped family, DejaVu Sans Condensed.
FONT_FACES = (
    ("normal", "normal", "DejaVuSansCondensed.ttf"),
    ("bold", "normal", "DejaVuSansCondensed-Bold.ttf"),
    ("normal", "italic", "DejaVuSansCondensed-Oblique.ttf"),
)
FONT_FAMILY = "cardc sans"
#: The card text's size before any shrinking, in points.
BASE_PT = 7.2
#: The per-game folder of sheet overrides, beside the cards.
OVERRIDES = "sheets"
#: A game's own CSS there, added after the built-in style.
GAME_CSS = "sheet.css"
#: The art slot's share of a card face's height (0 in a game's CSS hides it: see README).
ART_SHARE = 0.28
#: Stands for the fitted text size in a face's HTML until the size is known.
SIZE_MARK = "@@size@@"
#: Stands for the art placeholder's state: below :data:`ART_MIN_PT` a card with no art of
#: its own gives the placeholder's room to its text.
ART_MARK = "@@art@@"
ART_MIN_PT = 7.0
#: The reference pages' paper when the cards are printed one per page.
_REFERENCE_PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Inset of a card's frame inside its trim (the safe zone).
FRAME_INSET = 2.5
_KIND_COLOURS = ("#b5452b", "#2f6f8f", "#5b8a3a", "#8a5a9e", "#c28a1b", "#3a6b5f", "#9e3a5b")
# Replaced by the font rules once the page is rendered. It holds "<", which autoescaped data
# never does: a title such as "/*fonts*/" cannot take its place.
_BLANK_FONT_CSS = "</*cardc-fonts*/>"
_BASE_CHARACTERS = frozenset(
    [chr(c) for c in range(32, 127)]
    + [chr(c) for c in range(0xA0, 0x180)]
    + [chr(c) for c in range(0x2010, 0x2030)]
    + list("→←↑↓≥≤≠×÷−±∞◇◆•…€™")
)


TEMPLATES = Path(__file__).parent.parent / "templates" / "sheets"


@functools.lru_cache(maxsize=16)
def environment(overrides: Path | None = None) -> jinja2.Environment:
    """The HTML environment; templates in ``overrides`` (a game's sheets/) win over ours."""
    folders = [str(overrides)] if overrides is not None and overrides.is_dir() else []
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([*folders, str(TEMPLATES)]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def mm(value: float) -> str:
    """A length in millimetres, as CSS, with no float noise (so the bytes are stable)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return ("0" if text in ("-0", "") else text) + "mm"


def segments(text: Text, icons: dict[str, Any] | None = None) -> Markup:
    """Segments as safe HTML: words escaped, icons inlined, provisional marks badged."""
    out = []
    for seg in text:
        if isinstance(seg, IconRef):
            icon = icons.get(seg.name) if icons else None
            out.append(icon_svg(icon.shape, icon.label) if icon else escape(seg.name))
        elif isinstance(seg, Provisional):
            out.append(Markup('<span class="prov">&#9671;{}</span>').format(seg.number))
        else:
            out.append(escape(seg))
    return Markup("").join(out)


#: Where cut fonts are kept between runs (the project's sheet cache), when there is one.
FONT_CACHE: list[Path] = []


@functools.lru_cache(maxsize=32)
def _subset(file: str, characters: frozenset[str]) -> str:
    """The shipped font ``file`` cut to ``characters``, base64 (fixed bytes: no timestamps).

    Cutting takes a few tenths of a second a font, so the result is also kept on disk in
    :data:`FONT_CACHE`, by the font's bytes, the characters and the fontTools version."""
    from importlib.metadata import version

    key = hashlib.blake2b(digest_size=16)
    key.update((FONT_DIR / file).read_bytes())
    key.update(("".join(sorted(characters)) + version("fonttools")).encode())
    cached = FONT_CACHE[0] / f"font-{key.hexdigest()}.b64" if FONT_CACHE else None
    if cached is not None and cached.is_file():
        use(cached)  # the face cache's pruning keeps what is used
        return cached.read_text(encoding="ascii")
    data = _cut(file, characters)
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(".tmp")
            tmp.write_text(data, encoding="ascii")
            tmp.replace(cached)
            wrote(cached)
        except OSError:  # a read-only project just has no cache
            pass
    return data


def _cut(file: str, characters: frozenset[str]) -> str:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(FONT_DIR / file, recalcTimestamp=False)
    options = subset.Options()
    options.name_IDs = ["*"]
    options.notdef_outline = True
    # No OpenType layout tables (kerning, ligatures): with them, every PDF a face is written
    # to spends most of its time in fontTools reading GPOS again; the browser and WeasyPrint
    # then set the same plain advances, so text breaks the same in both.
    options.drop_tables += ["FFTM", "GPOS", "GSUB", "GDEF", "kern"]
    options.hinting = False
    options.layout_features = []
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes={ord(c) for c in characters})
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return base64.b64encode(out.getvalue()).decode("ascii")


def font_css(characters: frozenset[str], fetched: bool = False) -> str:
    """@font-face rules for the shipped family, cut to ``characters``.

    ``fetched``: the fonts named by ``cardc-font:`` URLs that :func:`fetch` answers, for the
    documents WeasyPrint lays out (not the HTML sheet, which carries its fonts): parsing a
    font's base64 in every document cost WeasyPrint a twentieth of a second a document."""
    rules = []
    for weight, style, file in FONT_FACES:
        data = _subset(file, characters)
        if fetched:
            raw = base64.b64decode(data)
            name = hashlib.blake2b(raw, digest_size=16).hexdigest()
            FETCHED[name] = raw
            url = f"{FONT_SCHEME}{name}"
        else:
            url = f"data:font/ttf;base64,{data}"
        rules.append(
            f'@font-face {{ font-family: "{FONT_FAMILY}"; font-weight: {weight}; '
            f'font-style: {style}; src: url("{url}") format("truetype"); }}'
        )
    return "\n".join(rules)


#: The URL scheme of a cut font in a document WeasyPrint lays out (``font_css(fetched=True)``).
FONT_SCHEME = "cardc-font:"
#: Cut fonts by the hash of their bytes, for :func:`fetch`.
FETCHED: dict[str, bytes] = {}


def fetched_fonts(html: str) -> dict[str, bytes]:
    """The cut fonts a document made with ``font_css(fetched=True)`` names (to send it to
    another process)."""
    names = re.findall(re.escape(FONT_SCHEME) + r"([0-9a-f]{32})", html)
    return {name: FETCHED[name] for name in sorted(set(names)) if name in FETCHED}


@functools.lru_cache(maxsize=1)
def fetcher() -> Any:
    """WeasyPrint's URL fetcher for the documents it lays out: a ``cardc-font:`` URL is a cut
    font's bytes (:data:`FETCHED`), anything else fetched as WeasyPrint would."""
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    class Fetcher(URLFetcher):  # type: ignore[misc]
        def fetch(self, url: str, headers: Any = None) -> Any:
            name = url[len(FONT_SCHEME) :] if url.startswith(FONT_SCHEME) else ""
            if name in FETCHED:
                return URLFetcherResponse(url, FETCHED[name], {"Content-Type": "font/ttf"})
            return super().fetch(url, headers)

    return Fetcher()


@dataclass
class Face:
    """One printed face: its HTML fragment, its cell size, and what the fit may change.

    ``key`` names the face by everything it shows (the fragment before its size is filled
    in, the style, the cell): two copies of a card, or the same card in a variant's sheet,
    are one face, laid out once. ``fit`` is False for a face whose size is fixed (a back, a
    hex tile).
    """

    key: str
    template: str
    width: float
    height: float
    fit: bool
    title: str = ""
    source: str = ""
    size: float = BASE_PT
    card: str = ""

    @property
    def html(self) -> Markup:
        """The fragment at its fitted size."""
        art = " collapsed" if self.size < ART_MIN_PT - 1e-9 else ""
        return Markup(self.template.replace(SIZE_MARK, f"{self.size:.2f}").replace(ART_MARK, art))


@dataclass(frozen=True)
class SlotView:
    """Where one face goes on a sheet (mm from the top-left), and whether it is turned."""

    x: float
    y: float
    w: float
    h: float
    face: Face
    turned: bool = False
    #: The HTML id of the first copy of a card on the sheet (``card-<id>``), else "".
    anchor: str = ""


@dataclass
class Page:
    """One sheet: its side, its paper and the faces in their slots, with crop marks."""

    side: str
    slots: list[SlotView]
    marks: list[tuple[float, float, float, float]] = field(default_factory=list)
    width: float = 0.0
    height: float = 0.0


@dataclass
class Sheet:
    """Everything one sheet prints: its faces (each once), pages, style and reference."""

    faces: dict[str, Face]
    pages: list[Page]
    head: str
    reference: Markup
    context: dict[str, Any]


def crop_marks(
    layout: Grid, options: SheetOptions, paper: tuple[float, float]
) -> list[tuple[float, float, float, float]]:
    """Crop marks at the sheet's edge, one pair per cut line: (x, y, width, height)."""
    if not options.crop_marks or options.one_per_page:
        return []
    paper_w, paper_h = paper
    xs, ys = layout.cuts(options.bleed)
    top, bottom = layout.top, layout.top + layout.rows * layout.cell_h
    left, right = layout.left, layout.left + layout.columns * layout.cell_w
    weight, gap = 0.2, 1.0
    marks = []
    for x in xs:
        length = min(5.0, top - gap - 0.5)
        marks.append((x - weight / 2, top - gap - length, weight, length))
        marks.append((x - weight / 2, bottom + gap, weight, min(5.0, paper_h - bottom - gap - 0.5)))
    for y in ys:
        length = min(5.0, left - gap - 0.5)
        marks.append((left - gap - length, y - weight / 2, length, weight))
        marks.append((right + gap, y - weight / 2, min(5.0, paper_w - right - gap - 0.5), weight))
    return [m for m in marks if m[2] > 0 and m[3] > 0]


def _card_pages(
    fronts: list[Face], backs: list[Face], options: SheetOptions, layout: Grid
) -> list[Page]:
    paper = options.paper_size if not options.one_per_page else (layout.cell_w, layout.cell_h)
    marks = crop_marks(layout, options, paper)
    turned = layout.rotated
    pages = []
    anchored: set[str] = set()
    for start in range(0, len(fronts), layout.per_page):
        chunk = list(enumerate(fronts[start : start + layout.per_page]))
        slots = []
        for i, face in chunk:
            at = layout.slot(i)
            anchor = "" if face.card in anchored else f"card-{face.card}"
            anchored.add(face.card)
            slots.append(SlotView(at.x, at.y, layout.cell_w, layout.cell_h, face, turned, anchor))
        pages.append(Page("front", slots, marks, *paper))
        if options.backs:
            slots = []
            for i, _ in chunk:
                at = layout.slot(i, back=True)
                x, y = at.x + options.offset_x, at.y + options.offset_y
                slots.append(SlotView(x, y, layout.cell_w, layout.cell_h, backs[start + i], turned))
            pages.append(Page("back", slots, marks, *paper))
    return pages


def hex_size(width: float) -> tuple[float, float]:
    """A pointy-top hex's box: across the flats (``width``) and point to point."""
    return width, width * 2 / math.sqrt(3)


def _hex_pages(
    faces: list[Face], backs: list[Face | None], options: SheetOptions, width: float
) -> list[Page]:
    """Hex tiles in a honeycomb sprue: rows offset by half a tile, sharing their cut edges.

    With backs (``options.backs``), each page of tiles is followed by its back page: a
    double-sided tile's other face sits behind it, the columns mirrored as a card's back is
    (the sheet turns over its long edge) and moved by the back offset; ``backs[i]`` is the
    back of ``faces[i]`` (None: a blank back)."""
    w, h = hex_size(width)
    if options.one_per_page:
        pages = []
        for front, back in zip(faces, backs, strict=True):
            pages.append(Page("front", [SlotView(0, 0, w, h, front)], [], w, h))
            if options.backs:
                behind = [SlotView(0, 0, w, h, back)] if back is not None else []
                pages.append(Page("back", behind, [], w, h))
        return pages
    paper_w, paper_h = options.paper_size
    margin = PRINT_MARGIN
    columns = int((paper_w - 2 * margin - w / 2) // w)
    rows = int((paper_h - 2 * margin - h) // (0.75 * h)) + 1
    if columns < 1 or rows < 1:
        from compiler.sheets.layout import LayoutError

        raise LayoutError(f"a {w:g} mm hex tile does not fit on {options.paper} paper")
    left = (paper_w - (columns * w + w / 2)) / 2
    top = (paper_h - (h + (rows - 1) * 0.75 * h)) / 2
    per_page = columns * rows
    pages = []
    for start in range(0, len(faces), per_page):
        slots, behind = [], []
        for i, face in enumerate(faces[start : start + per_page]):
            row, column = divmod(i, columns)
            x = left + column * w + (w / 2 if row % 2 else 0)
            y = top + row * 0.75 * h
            slots.append(SlotView(x, y, w, h, face))
            back = backs[start + i]
            if back is not None:
                mirrored = paper_w - x - w + options.offset_x
                behind.append(SlotView(mirrored, y + options.offset_y, w, h, back))
        pages.append(Page("front", slots, [], paper_w, paper_h))
        if options.backs:
            pages.append(Page("back", behind, [], paper_w, paper_h))
    return pages


_LAND, _SEA = "#8fb35a", "#5b8fc4"


def hex_svg(face: HexFace, title: str, width: float, icons: dict[str, Any]) -> Markup:
    """One face of a hex tile as SVG at its real size: its six edges, each edge's area in the
    edge's colour (neighbouring edges of one side join into one area), the icons in the area
    they sit in, the bonus points as crosses, the centre's icons in the middle."""
    w, h = hex_size(width)
    r = h / 2
    cx, cy = w / 2, h / 2
    # Corners of a pointy-top hex, clockwise from the top point.
    corners = [
        (
            cx + r * math.cos(math.radians(-90 + 60 * i)),
            cy + r * math.sin(math.radians(-90 + 60 * i)),
        )
        for i in range(6)
    ]

    def pt(p: tuple[float, float]) -> str:
        return f"{p[0]:.2f},{p[1]:.2f}"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{mm(w)}" height="{mm(h)}" '
        f'viewBox="0 0 {w:.3f} {h:.3f}" role="img" '
        f'aria-label="{escape(title)}: {escape(face.side)}">',
        f"<title>{escape(title)}: {escape(face.side)}</title>",
    ]
    for i, edge in enumerate(face.edges):
        a, b = corners[i], corners[(i + 1) % 6]
        colour = _LAND if edge == "land" else _SEA
        parts.append(
            f'<polygon class="area {edge}" points="{pt((cx, cy))} {pt(a)} {pt(b)}" '
            f'fill="{colour}" stroke="{colour}" stroke-width="0.2"/>'
        )
    for i, edge in enumerate(face.edges):
        a, b = corners[i], corners[(i + 1) % 6]
        parts.append(
            f'<line class="edge {edge}" x1="{a[0]:.2f}" y1="{a[1]:.2f}" x2="{b[0]:.2f}" '
            f'y2="{b[1]:.2f}" stroke="{"#3d5a1e" if edge == "land" else "#1f4a78"}" '
            'stroke-width="1.2" stroke-linecap="round"/>'
        )
    parts.append(
        f'<polygon class="outline" points="{" ".join(pt(c) for c in corners)}" fill="none" '
        'stroke="#1d1d1b" stroke-width="0.25"/>'
    )
    # Icons sit in the area of their side: around the middle of its edges.
    placed: list[tuple[str, float, float]] = []
    for name, count, side in face.icons:
        spots = [i for i, e in enumerate(face.edges) if e == side] or list(range(6))
        for n in range(count):
            i = spots[n % len(spots)] if len(spots) < 6 else [0, 3, 1, 4, 2, 5][n % 6]
            mid = (
                (corners[i][0] + corners[(i + 1) % 6][0]) / 2,
                (corners[i][1] + corners[(i + 1) % 6][1]) / 2,
            )
            placed.append((name, cx + (mid[0] - cx) * 0.55, cy + (mid[1] - cy) * 0.55))
    size = w * 0.2
    for name, x, y in placed:
        parts.append(_svg_icon(name, x, y, size, icons))
    for name in face.centre:
        parts.append(_svg_icon(name, cx, cy, w * 0.3, icons))
    for n in range(face.bonus):
        angle = math.radians(-60 + 40 * n)
        bx, by = cx + r * 0.35 * math.cos(angle), cy + r * 0.35 * math.sin(angle)
        d = w * 0.04
        parts.append(
            f'<path class="bonus" d="M{bx - d:.2f} {by - d:.2f}L{bx + d:.2f} {by + d:.2f}'
            f'M{bx + d:.2f} {by - d:.2f}L{bx - d:.2f} {by + d:.2f}" stroke="#1d1d1b" '
            'stroke-width="0.6"/>'
        )
    label_y = h * 0.86
    parts.append(
        f'<text x="{cx:.2f}" y="{label_y:.2f}" text-anchor="middle" font-size="{w * 0.07:.2f}" '
        f'font-family="cardc sans" fill="#1d1d1b">{escape(title)}</text>'
    )
    parts.append("</svg>")
    return Markup("".join(parts))


def _svg_icon(name: str, x: float, y: float, size: float, icons: dict[str, Any]) -> str:
    from compiler.sheets.icons import SHAPES

    icon = icons.get(name)
    body = SHAPES.get(icon.shape) if icon is not None else None
    if body is None:
        return (
            f'<circle class="icon-{escape(name)}" cx="{x:.2f}" cy="{y:.2f}" r="{size / 3:.2f}" '
            'fill="#1d1d1b"/>'
        )
    scale = size / 24
    return (
        f'<g class="icon-{escape(name)}" transform="translate({x - size / 2:.2f} '
        f'{y - size / 2:.2f}) scale({scale:.4f})" stroke="#1d1d1b" fill="#1d1d1b">'
        f'<circle cx="12" cy="12" r="13" fill="#f6f1e6" stroke="none" opacity="0.85"/>{body}</g>'
    )


def _digest(*parts: str) -> str:
    digest = hashlib.blake2b(digest_size=16)
    for part in parts:
        digest.update(part.encode("utf-8") + b"\0")
    return digest.hexdigest()


def _context(model: SheetModel, options: SheetOptions, overrides: Path | None) -> dict[str, Any]:
    width, height = options.card_size
    # Colours by the game's own kinds, so a card keeps its colour (and its laid-out face)
    # in a variant that removes other kinds.
    kinds = sorted(set(model.kinds) | {c.kind for c in model.cards})
    cell_w, cell_h = width + 2 * options.bleed, height + 2 * options.bleed
    face_h = height - 2 * FRAME_INSET
    return dict(
        model=model,
        ref=model.ref,
        options=options,
        cell_w=cell_w,
        cell_h=cell_h,
        face_inset=options.bleed + FRAME_INSET,
        face_w=width - 2 * FRAME_INSET,
        face_h=face_h,
        art_h=round(face_h * ART_SHARE, 2) if width < height * 1.2 else 0,
        kind_colours=[(k, _KIND_COLOURS[i % len(_KIND_COLOURS)]) for i, k in enumerate(kinds)],
        footer=options.show_footer,
        proof=options.proof,
        mm=mm,
        segments=lambda text: segments(text, model.ref.icons),
        icon_svg=icon_svg,
        kind_label=lambda kind: model.ref.kind_name(kind, kind.replace("_", " ").capitalize()),
    )


def build_sheet(model: SheetModel, options: SheetOptions, overrides: Path | None = None) -> Sheet:
    """The faces and pages of ``model``'s sheet (before any face is fitted)."""
    env = environment(overrides)
    context = _context(model, options, overrides)
    paper_w, paper_h = options.paper_size
    layout = grid(options)
    style = env.get_template("style.css.j2").render(**context, paper_w=paper_w, paper_h=paper_h)
    game_css = ""
    if overrides is not None and (overrides / GAME_CSS).is_file():
        game_css = (overrides / GAME_CSS).read_text(encoding="utf-8")
    head = style + "\n" + game_css
    faces: dict[str, Face] = {}

    def face(template: str, w: float, h: float, fit: bool, card: CardView | None) -> Face:
        key = _digest(head, template, f"{w:.3f}x{h:.3f}", str(fit))
        if key not in faces:
            faces[key] = Face(
                key,
                template.replace("@@key@@", key),
                w,
                h,
                fit,
                card.title if card else "",
                card.source if card else "",
                card=card.id if card else "",
            )
        return faces[key]

    card_tpl = env.get_template("card.html.j2")
    back_tpl = env.get_template("back.html.j2")
    hex_tpl = env.get_template("hex.html.j2")
    backs = {
        kind: face(
            back_tpl.render(**context, kind=kind), context["cell_w"], context["cell_h"], False, None
        )
        for kind in sorted({c.kind for c in model.cards if not c.hexes})
        if options.backs
    }
    fronts: list[Face] = []
    back_faces: list[Face] = []
    hexes: list[Face] = []
    hex_backs: list[Face | None] = []
    spec = model.ref.hexes
    for card in model.cards:
        if card.hexes and spec is not None:
            w, h = hex_size(spec.width)
            laid: list[Face] = []
            for hex_face in card.hexes:
                svg = hex_svg(hex_face, card.title, spec.width, model.ref.icons)
                html = hex_tpl.render(
                    **context, card=card, hex=hex_face, svg=svg, face_key="@@key@@"
                )
                laid.append(face(html, w, h, False, card))
            copies = 1 if options.proof else card.count
            if options.backs:
                # A double-sided tile: its first face on the front, its second on the back
                # page behind it (duplex); a face beyond two is a tile of its own.
                pairs = [(laid[0], laid[1] if len(laid) > 1 else None)]
                pairs += [(extra, None) for extra in laid[2:]]
            else:  # every face side by side, to cut out and glue
                pairs = [(one, None) for one in laid]
            for front, back in pairs:
                hexes += [front] * copies
                hex_backs += [back] * copies
            continue
        html = card_tpl.render(**context, card=card, size=SIZE_MARK, face_key="@@key@@")
        one = face(html, context["cell_w"], context["cell_h"], True, card)
        copies = 1 if options.proof else max(card.count, 1)
        fronts += [one] * copies
        if options.backs:
            back_faces += [backs[card.kind]] * copies
    pages = _card_pages(fronts, back_faces, options, layout)
    if hexes and spec is not None:
        pages += _hex_pages(hexes, hex_backs, options, spec.width)
    reference = Markup(
        env.get_template("reference.html.j2").render(
            **context,
            icons=[model.ref.icons[name] for name in model.ref.icons],
            notes=model.game_notes + model.notes,
            total=sum(c.count for c in model.cards),
        )
    )
    return Sheet(faces, pages, head, reference, context)


def render_html(sheet: Sheet, options: SheetOptions, banner: str) -> str:
    """The sheet as one HTML document (cards at their fitted sizes, backs, reference)."""
    model = sheet.context["model"]
    paper_w, paper_h = options.paper_size
    page = (
        environment(None)
        .get_template("sheet.html.j2")
        .render(
            banner=banner,
            model=model,
            options=options,
            pages=sheet.pages,
            paper_w=paper_w,
            paper_h=paper_h,
            ref_w=_REFERENCE_PAPER.get(options.paper, _REFERENCE_PAPER["a4"])[0],
            ref_h=_REFERENCE_PAPER.get(options.paper, _REFERENCE_PAPER["a4"])[1],
            page_bleed=options.one_per_page and options.bleed > 0,
            style=Markup(sheet.head),
            game_css="",
            with_reference=not options.one_per_page,
            reference=sheet.reference,
            mm=mm,
            font_css=Markup(_BLANK_FONT_CSS),
        )
    )
    # The fonts carry a fixed set of characters, and any others the page uses: one subset
    # serves most sheets (subsetting is the slow part), and no glyph falls back to the system.
    characters = _BASE_CHARACTERS | frozenset(page)
    return page.replace(_BLANK_FONT_CSS, font_css(characters), 1)


def file_font_css() -> str:
    """@font-face rules naming the shipped font files themselves (for WeasyPrint's faces)."""
    rules = []
    for weight, style, file in FONT_FACES:
        rules.append(
            f'@font-face {{ font-family: "{FONT_FAMILY}"; font-weight: {weight}; '
            f'font-style: {style}; src: url("{(FONT_DIR / file).as_uri()}"); }}'
        )
    return "\n".join(rules)
