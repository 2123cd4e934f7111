"""The PDF emitter (WeasyPrint) and the layout check that keeps text from overflowing.

WeasyPrint lays the HTML out; the check then walks its boxes: a card's frame has a fixed height,
and when the lowest line inside it ends below the frame's content box the card overflows. Such
a card's text is shrunk a step at a time down to :data:`MIN_SCALE`; a card that still does not
fit fails the render with its name and source line. The PDF carries fixed metadata (no dates,
a fixed identifier), so the same sources give the same bytes.

WeasyPrint cuts the embedded fonts to the glyphs used with HarfBuzz's libharfbuzz-subset where
the machine has it and with fontTools where not: two different font programs, and fontTools
writes the render time into each (``head.modified``). :func:`_one_subsetter` makes it take
fontTools everywhere, dated by a fixed ``SOURCE_DATE_EPOCH``, so the bytes depend neither on
the machine's optional libraries nor on the clock. (Embedding the fonts whole instead, as
the HTML carries them, would skip subsetting altogether, but then the PDF maps glyphs back to
text through the font's cmap alone, and a ligature such as "ff" would no longer be found
or copied.)
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import logging
import os
from collections.abc import Callable, Iterator
from typing import Any

#: Shrink steps for text that does not fit, largest first; the last is the minimum.
SCALES = (1.0, 0.92, 0.85, 0.78, 0.72)
MIN_SCALE = SCALES[-1]
#: What the check keeps free at a frame's bottom (mm), so a browser's slightly different line
#: breaking still fits.
RESERVE_MM = 0.8
_PX_PER_MM = 96 / 25.4


class CardOverflowError(ValueError):
    """Cards whose text does not fit even at the minimum size: (title, source) pairs."""

    def __init__(self, cards: list[tuple[str, str]]):
        self.cards = cards
        listed = "; ".join(f"{source}: '{_short(title)}'" for title, source in cards)
        super().__init__(
            f"card text does not fit even at {int(MIN_SCALE * 100)}% size: {listed} "
            "(shorten the text, or give the card a shorter 'text' property)"
        )


def _short(title: str) -> str:
    return title if len(title) <= 60 else title[:57] + "..."


def _boxes(box: Any) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", ()) or ():
        yield from _boxes(child)


def _classes(box: Any) -> list[str]:
    element = getattr(box, "element", None)
    if element is None or getattr(box, "element_tag", None) is None:
        return []
    return str(element.get("class") or "").split()


def overflowing(document: Any) -> dict[str, float]:
    """Card id -> how far (mm) its content runs past its frame, for every card that does."""
    out: dict[str, float] = {}
    for page in document.pages:
        for box in _boxes(page._page_box):
            if "face" not in _classes(box) or box.element.get("data-card") is None:
                continue
            limit = box.content_box_y() + box.height - RESERVE_MM * _PX_PER_MM
            lowest = limit
            for child in box.children:
                if "foot" in _classes(child):
                    continue
                for inner in _boxes(child):
                    bottom = inner.position_y + inner.margin_height()
                    lowest = max(lowest, bottom)
            if lowest > limit + 0.01:
                card = box.element.get("data-card")
                out[card] = max(out.get(card, 0.0), (lowest - limit) / _PX_PER_MM)
    return out


def render_pdf(
    render_html: Callable[[dict[str, float]], str],
    cards: dict[str, tuple[str, str]],
    base_url: str | None = None,
) -> tuple[bytes, dict[str, float], str]:
    """Lay out, shrink what overflows, and write the PDF.

    ``render_html(scales)`` gives the HTML with each card's scale (card id -> factor);
    ``cards`` maps card id -> (title, source) for the error. Returns the PDF, the scales it
    needed and the HTML it was made from (so the .html file shows the same fitted text).
    """
    problem = renderer_problem()
    if problem is not None:
        raise RendererMissing(problem)
    from weasyprint import HTML

    scales: dict[str, float] = {}
    while True:
        html = render_html(scales)
        document = HTML(string=html, base_url=base_url).render()
        over = overflowing(document)
        if not over:
            break
        stuck = []
        for card in sorted(over):
            step = SCALES.index(scales.get(card, 1.0))
            if step + 1 < len(SCALES):
                scales[card] = SCALES[step + 1]
            else:
                stuck.append(cards.get(card, (card, "?")))
        if stuck:
            raise CardOverflowError(stuck)
    identifier = hashlib.md5(html.encode("utf-8"), usedforsecurity=False).hexdigest().encode()
    with _one_subsetter():
        pdf = document.write_pdf(pdf_identifier=identifier)
    return bytes(pdf), scales, html


class RendererMissing(RuntimeError):
    """WeasyPrint, or a system library it loads (Pango), is missing; the message says what to
    install."""


#: What to install for WeasyPrint's system libraries, by system.
INSTALL_PANGO = (
    "Debian/Ubuntu: apt-get install libpango-1.0-0 libpangoft2-1.0-0; Fedora: dnf install "
    "pango; macOS: brew install pango; Windows: see WeasyPrint's installation notes"
)


@functools.lru_cache(maxsize=1)
def renderer_problem() -> str | None:
    """Why PDFs cannot be made here (WeasyPrint or Pango missing), or None when they can.

    WeasyPrint loads Pango, HarfBuzz and fontconfig when imported: without them the import
    fails with an OSError naming the library (ImportError when WeasyPrint itself is missing).
    """
    try:
        import weasyprint  # noqa: F401
    except OSError as error:  # cannot load library 'libpango-1.0-0': ...
        return (
            f"WeasyPrint cannot load a system library it needs ({error}); install Pango "
            f"({INSTALL_PANGO})"
        )
    except ImportError as error:
        return f"WeasyPrint is not installed ({error}); pip install weasyprint"
    return None


#: The date fontTools writes into every embedded font (``head.modified``), as the
#: reproducible-builds ``SOURCE_DATE_EPOCH``: fixed, so it is not the render time.
FONT_EPOCH = "0"


class _NoSubsetterNotice(logging.Filter):
    """Drops WeasyPrint's notice that it subsets with fontTools: cardc asks it to."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "instead of HarfBuzz-Subset" not in record.getMessage()


@contextlib.contextmanager
def _one_subsetter() -> Iterator[None]:
    """While a PDF is written: WeasyPrint subsets fonts with fontTools, at a fixed date."""
    import weasyprint.pdf.fonts as fonts

    if not hasattr(fonts, "harfbuzz_subset") or not hasattr(fonts.Font, "_fonttools_subset"):
        # A WeasyPrint without the fontTools path would make PDFs that differ by machine.
        raise RendererMissing(
            "this WeasyPrint no longer subsets fonts with fontTools, so cardc's PDFs would "
            "depend on the machine; install the WeasyPrint release cardc names (pip install "
            "cardc) or report it"
        )
    saved_subsetter, saved_epoch = fonts.harfbuzz_subset, os.environ.get("SOURCE_DATE_EPOCH")
    notice = _NoSubsetterNotice()
    logger = logging.getLogger("weasyprint")
    fonts.harfbuzz_subset = None
    os.environ["SOURCE_DATE_EPOCH"] = FONT_EPOCH
    logger.addFilter(notice)
    try:
        yield
    finally:
        fonts.harfbuzz_subset = saved_subsetter
        if saved_epoch is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved_epoch
        logger.removeFilter(notice)
