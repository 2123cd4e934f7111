"""The HTML emitter: one page of cards per sheet, backs, crop marks, the rules reference.

The jinja2 environment here is for HTML only (autoescape on, StrictUndefined), separate from
the one that writes Python: everything from the data is escaped, so a card text
``<script>alert(1)</script>`` prints as those characters. Fonts are the package's own
(compiler/sheets/fonts), subset to the characters the page uses and inlined as data URIs, so
the file shows the same in any browser and WeasyPrint never falls back to a system font.
"""

from __future__ import annotations

import base64
import functools
import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from compiler.sheets.icons import icon_svg
from compiler.sheets.layout import Grid, SheetOptions, Slot, grid
from compiler.sheets.model import CardView, SheetModel, used_icons
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
#: The reference pages' paper when the cards are printed one per page.
_REFERENCE_PAPER = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Inset of a card's frame inside its trim (the safe zone).
FRAME_INSET = 2.5
_KIND_COLOURS = ("#b5452b", "#2f6f8f", "#5b8a3a", "#8a5a9e", "#c28a1b", "#3a6b5f", "#9e3a5b")
_BLANK_FONT_CSS = "/*fonts*/"
_BASE_CHARACTERS = frozenset(
    [chr(c) for c in range(32, 127)]
    + [chr(c) for c in range(0xA0, 0x180)]
    + [chr(c) for c in range(0x2010, 0x2030)]
    + list("→←↑↓≥≤≠×÷−±∞◇◆•…€™")
)


def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent.parent / "templates" / "sheets"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


_ENV = _environment()


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


@dataclass
class Page:
    """One sheet: its side and the cards in their slots, with crop marks."""

    side: str
    slots: list[tuple[Slot, CardView]]
    marks: list[tuple[float, float, float, float]] = field(default_factory=list)


def crop_marks(layout: Grid, options: SheetOptions) -> list[tuple[float, float, float, float]]:
    """Crop marks at the sheet's edge, one pair per cut line: (x, y, width, height)."""
    if not options.crop_marks or options.one_per_page:
        return []
    paper_w, paper_h = options.paper_size
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


def paginate(cards: list[CardView], options: SheetOptions) -> list[Page]:
    """Sheets of cards, each followed by its mirrored backs when backs are asked for."""
    layout = grid(options)
    marks = crop_marks(layout, options)
    pages = []
    per_page = layout.per_page
    for start in range(0, len(cards), per_page):
        chunk = cards[start : start + per_page]
        pages.append(Page("front", [(layout.slot(i), c) for i, c in enumerate(chunk)], marks))
        if options.backs:
            backs = [(layout.slot(i, back=True), c) for i, c in enumerate(chunk)]
            pages.append(Page("back", backs, marks))
    return pages


@functools.lru_cache(maxsize=32)
def _subset(file: str, characters: frozenset[str]) -> str:
    """The shipped font ``file`` cut to ``characters``, base64 (fixed bytes: no timestamps)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(FONT_DIR / file, recalcTimestamp=False)
    options = subset.Options()
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.drop_tables += ["FFTM"]
    options.hinting = False
    options.layout_features = ["*"]
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes={ord(c) for c in characters})
    subsetter.subset(font)
    out = io.BytesIO()
    font.save(out)
    return base64.b64encode(out.getvalue()).decode("ascii")


def font_css(characters: frozenset[str]) -> str:
    """@font-face rules for the shipped family, cut to ``characters``."""
    rules = []
    for weight, style, file in FONT_FACES:
        data = _subset(file, characters)
        rules.append(
            f'@font-face {{ font-family: "{FONT_FAMILY}"; font-weight: {weight}; '
            f'font-style: {style}; src: url("data:font/ttf;base64,{data}") format("truetype"); }}'
        )
    return "\n".join(rules)


def _short_source(source: str) -> str:
    return source.rsplit("/", 1)[-1]


def render_html(model: SheetModel, options: SheetOptions, banner: str) -> str:
    """The sheet as one HTML document (cards, backs, rules reference)."""
    width, height = options.card_size
    paper_w, paper_h = options.paper_size
    kinds = sorted({c.kind for c in model.cards})
    icons = [model.ref.icons[name] for name in model.ref.icons]
    shown = [CardView(**{**c.__dict__, "source": _short_source(c.source)}) for c in model.cards]
    context = dict(
        banner=banner,
        model=model,
        ref=model.ref,
        options=options,
        pages=paginate(shown, options),
        paper_w=paper_w,
        paper_h=paper_h,
        ref_w=_REFERENCE_PAPER.get(options.paper, _REFERENCE_PAPER["a4"])[0],
        ref_h=_REFERENCE_PAPER.get(options.paper, _REFERENCE_PAPER["a4"])[1],
        page_bleed=options.one_per_page and options.bleed > 0,
        cell_w=width + 2 * options.bleed,
        cell_h=height + 2 * options.bleed,
        face_inset=options.bleed + FRAME_INSET,
        face_w=width - 2 * FRAME_INSET,
        face_h=height - 2 * FRAME_INSET,
        base_pt=BASE_PT,
        kind_colours=[(k, _KIND_COLOURS[i % len(_KIND_COLOURS)]) for i, k in enumerate(kinds)],
        icons=icons if any(used_icons(model)) or icons else [],
        notes=model.game_notes + model.notes,
        total=sum(c.count for c in model.cards),
        with_reference=not options.one_per_page,
        mm=mm,
        segments=lambda text: segments(text, model.ref.icons),
        icon_svg=icon_svg,
        kind_label=lambda kind: kind.replace("_", " ").capitalize(),
        font_css=Markup(_BLANK_FONT_CSS),
    )
    page = _ENV.get_template("sheet.html.j2").render(**context)
    # The fonts carry a fixed set of characters, and any others the page uses: one subset
    # serves most sheets (subsetting is the slow part), and no glyph falls back to the system.
    characters = _BASE_CHARACTERS | frozenset(page)
    return page.replace(_BLANK_FONT_CSS, font_css(characters), 1)
