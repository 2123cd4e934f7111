"""Paper, card sizes and where each card goes on a sheet (all lengths in millimetres).

Default: poker cards (63.5 x 88.9 mm), 3 x 3 on A4, centred, touching so that neighbours share
their cut lines, with crop marks in the margin at the sheet's edge. With a bleed, each card
carries its own bleed and neighbours are ``2 * bleed`` apart. Backs are laid out mirrored
(long-edge duplex: columns reversed) and shifted by the x/y offset a printer needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "tarot": (70.0, 120.0),
    "mini": (41.0, 63.0),
}
#: Room for crop marks around the grid.
MARK_MARGIN = 5.0
#: The shortest margin kept without crop marks (what most printers cannot print on).
PRINT_MARGIN = 3.0


class LayoutError(ValueError):
    """Options that cannot be laid out (a card larger than the paper, a bad size)."""


def parse_size(text: str) -> tuple[str, float, float]:
    """``poker``/``bridge``/``tarot``/``mini`` or ``WxHmm`` -> (name, width, height)."""
    key = text.strip().lower()
    if key in CARD_SIZES:
        return (key, *CARD_SIZES[key])
    match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*(?:mm)?", key)
    if not match:
        raise LayoutError(
            f"'{text}' is not a card size: use {', '.join(CARD_SIZES)} or WxHmm (e.g. 63.5x88.9mm)"
        )
    width, height = float(match.group(1)), float(match.group(2))
    if width <= 0 or height <= 0:
        raise LayoutError(f"'{text}': a card needs a width and height above 0")
    return (f"{width:g}x{height:g}mm", width, height)


@dataclass(frozen=True)
class SheetOptions:
    """How to print: paper, card size, bleed, marks, one per page, backs and their offset."""

    paper: str = "a4"
    size: str = "poker"
    bleed: float = 0.0
    crop_marks: bool = True
    one_per_page: bool = False
    backs: bool = False
    offset_x: float = 0.0
    offset_y: float = 0.0
    #: A proof: one face per card with its "x N" count and its source line in the footer,
    #: for checking. Otherwise (print and play) each card is printed once per copy.
    proof: bool = False
    #: The source footer (file and line of each card): None follows ``proof``.
    footer: bool | None = None

    @property
    def show_footer(self) -> bool:
        """True when each card shows its source file and line."""
        return self.proof if self.footer is None else self.footer

    @property
    def card_size(self) -> tuple[float, float]:
        """The card's trim size (width, height)."""
        _, width, height = parse_size(self.size)
        return width, height

    @property
    def paper_size(self) -> tuple[float, float]:
        """The sheet's size (width, height); a card's own size in one-per-page mode."""
        if self.one_per_page:
            return self.card_size
        if self.paper not in PAPERS:
            raise LayoutError(f"'{self.paper}' is not a paper: use {' or '.join(PAPERS)}")
        return PAPERS[self.paper]

    def is_default(self) -> bool:
        """True for the options ``cardc build`` uses."""
        return self == SheetOptions()


@dataclass(frozen=True)
class Slot:
    """Where one card's bleed box goes on its page (top-left corner)."""

    x: float
    y: float


@dataclass(frozen=True)
class Grid:
    """The card grid of one sheet: columns, rows, cell size and where it starts."""

    columns: int
    rows: int
    cell_w: float
    cell_h: float
    left: float
    top: float
    #: Cards turned a quarter turn on the sheet, when that fits more of them on a page.
    rotated: bool = False

    @property
    def per_page(self) -> int:
        """Cards on one sheet."""
        return self.columns * self.rows

    def slot(self, index: int, back: bool = False) -> Slot:
        """The slot of the ``index``-th card of a page; a back mirrors the columns."""
        row, column = divmod(index, self.columns)
        if back:
            column = self.columns - 1 - column
        return Slot(self.left + column * self.cell_w, self.top + row * self.cell_h)

    def cuts(self, bleed: float) -> tuple[list[float], list[float]]:
        """The x of every vertical and the y of every horizontal cut line, without repeats."""
        xs: list[float] = []
        ys: list[float] = []
        for column in range(self.columns):
            x = self.left + column * self.cell_w + bleed
            xs += [x, x + self.cell_w - 2 * bleed]
        for row in range(self.rows):
            y = self.top + row * self.cell_h + bleed
            ys += [y, y + self.cell_h - 2 * bleed]
        return sorted({round(x, 3) for x in xs}), sorted({round(y, 3) for y in ys})


def grid(options: SheetOptions, size: tuple[float, float] | None = None) -> Grid:
    """The grid for ``options`` (cards of ``size``, default the option's card size).

    The sprue fills the page: cards stand upright unless turning them a quarter turn puts
    more of them on a sheet (a tarot card on Letter, a 90 x 50 mm card on A4). One card per
    page is a 1 x 1 grid at the page's origin.
    """
    width, height = size or options.card_size
    cell_w, cell_h = width + 2 * options.bleed, height + 2 * options.bleed
    if options.one_per_page:
        return Grid(1, 1, cell_w, cell_h, -options.bleed, -options.bleed)
    paper_w, paper_h = options.paper_size
    margin = MARK_MARGIN if options.crop_marks else PRINT_MARGIN

    def fit(w: float, h: float) -> tuple[int, int]:
        return int((paper_w - 2 * margin + 1e-9) // w), int((paper_h - 2 * margin + 1e-9) // h)

    columns, rows = fit(cell_w, cell_h)
    turned = fit(cell_h, cell_w)
    rotated = turned[0] * turned[1] > columns * rows
    if rotated:
        (columns, rows), cell_w, cell_h = turned, cell_h, cell_w
    if columns < 1 or rows < 1:
        raise LayoutError(
            f"a {width:g} x {height:g} mm card (bleed {options.bleed:g} mm) does not fit on "
            f"{options.paper} paper with {margin:g} mm margins"
        )
    left = (paper_w - columns * cell_w) / 2
    top = (paper_h - rows * cell_h) / 2
    return Grid(columns, rows, cell_w, cell_h, left, top, rotated)
