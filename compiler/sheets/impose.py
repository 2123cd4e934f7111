"""The sheet's PDF, imposed: each face's piece becomes a form drawn in every slot it fills.

A face laid out once (:mod:`compiler.sheets.faces`) is one PDF Form XObject, drawn as many
times as the card has copies, so copies cost nothing to lay out and next to nothing in the
file. Crop marks are drawn as thin filled rectangles; a page of one card gets a TrimBox and a
BleedBox for print shops. The rules reference, laid out by WeasyPrint on its own, follows.
The output depends only on its inputs: no dates, an identifier made from the content.
"""

from __future__ import annotations

import base64
import hashlib
import io
import zlib
from collections.abc import Callable
from typing import Any

from compiler.sheets.html import Page
from compiler.sheets.pieces import digest

MM = 72 / 25.4


def _num(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class _Objects:
    """Piece data (:mod:`compiler.sheets.pieces`) made into objects of one writer: each
    stream, indirect object and font kept once by what it holds, so a face's resources are the
    same objects whichever faces (or layout passes) it came from."""

    def __init__(self, writer: Any, fonts: Callable[[str], Any]):
        self.writer = writer
        self.fonts = fonts
        self.kept: dict[str, Any] = {}

    def make(self, tree: Any) -> Any:
        """The pypdf object of ``tree`` (an indirect reference for a stream, a font or an
        object that was indirect)."""
        from pypdf.generic import (
            ArrayObject,
            BooleanObject,
            DictionaryObject,
            FloatObject,
            NameObject,
            NullObject,
            NumberObject,
            create_string_object,
        )

        if isinstance(tree, bool):
            return BooleanObject(tree)
        if isinstance(tree, int):
            return NumberObject(tree)
        if isinstance(tree, float):
            return FloatObject(tree)
        if isinstance(tree, str):
            return NameObject(tree)
        if tree is None:
            return NullObject()
        if isinstance(tree, list):
            return ArrayObject([self.make(item) for item in tree])
        if "font" in tree:
            return self.indirect("font:" + tree["font"], lambda: self.fonts(tree["font"]))
        if "r" in tree:
            inner = tree["r"]
            return self.indirect(digest(inner), lambda: inner)
        if "s" in tree:
            return self.indirect(digest(tree), lambda: tree)
        if "t" in tree:
            return create_string_object(bytes.fromhex(tree["t"]))
        return DictionaryObject({NameObject(k): self.make(v) for k, v in sorted(tree["d"].items())})

    def indirect(self, key: str, tree: Callable[[], Any]) -> Any:
        """The object of ``key``, added to the writer the first time."""
        if key not in self.kept:
            value = tree()
            if isinstance(value, dict) and "s" in value:
                self.kept[key] = self.writer._add_object(self.stream(value))
            else:
                made = self.make(value)
                # An object that was indirect around a stream (or a font) is its reference.
                self.kept[key] = made if _is_ref(made) else self.writer._add_object(made)
        return self.kept[key]

    def stream(self, tree: dict[str, Any]) -> Any:
        """A stream of piece data (its bytes as they were encoded)."""
        from pypdf.generic import NameObject, StreamObject

        stream: Any = StreamObject()
        stream._data = base64.b64decode(tree["s"])
        for key, value in sorted(tree["d"].items()):
            stream[NameObject(key)] = self.make(value)
        return stream

    def form(self, piece: dict[str, Any]) -> Any:
        """A face's piece as a Form XObject (a reference)."""
        from pypdf.generic import ArrayObject, FloatObject, NameObject, StreamObject

        form: Any = StreamObject()
        form._data = base64.b64decode(piece["content"])
        form[NameObject("/Type")] = NameObject("/XObject")
        form[NameObject("/Subtype")] = NameObject("/Form")
        form[NameObject("/BBox")] = ArrayObject([FloatObject(v) for v in piece["box"]])
        form[NameObject("/Resources")] = self.make(piece["resources"])
        form[NameObject("/Filter")] = NameObject("/FlateDecode")
        return self.writer._add_object(form)


def _is_ref(value: Any) -> bool:
    from pypdf.generic import IndirectObject

    return isinstance(value, IndirectObject)


def impose(
    pages: list[Page],
    laid: dict[str, Any],
    fonts: Callable[[str], Any],
    reference: Any | None,
    bleed: float = 0.0,
    banner: str = "",
) -> bytes:
    """The PDF of ``pages`` (each face's piece found by ``laid``: key -> its
    :class:`~compiler.sheets.faces.Laid`; ``fonts``: a font's digest -> its data), then the
    pages of ``reference`` (a Laid of the rules reference).

    ``bleed`` (mm) is the TrimBox inset of a page that is one card (one per page).
    """
    from pypdf import PdfWriter
    from pypdf.generic import (
        ArrayObject,
        ByteStringObject,
        DictionaryObject,
        NameObject,
        RectangleObject,
        StreamObject,
    )

    writer = PdfWriter()
    objects = _Objects(writer, fonts)
    refs: dict[str, Any] = {}
    for key in sorted({slot.face.key for page in pages for slot in page.slots}):
        refs[key] = objects.form(laid[key].pages[0])
    for page in pages:
        height = page.height
        ops: list[str] = []
        names = DictionaryObject()
        for index, slot in enumerate(page.slots):
            name = f"/F{index}"
            names[NameObject(name)] = refs[slot.face.key]
            x, y = slot.x * MM, (height - slot.y - slot.h) * MM
            if slot.turned:
                # A quarter turn clockwise: the face's top-left corner goes to the slot's
                # top-right, as the HTML's rotate(90deg) does.
                ops.append(f"q 0 -1 1 0 {_num(x)} {_num(y + slot.h * MM)} cm {name} Do Q")
            else:
                ops.append(f"q 1 0 0 1 {_num(x)} {_num(y)} cm {name} Do Q")
        if page.marks:
            ops.append("0 g")
            for mx, my, mw, mh in page.marks:
                ops.append(
                    f"{_num(mx * MM)} {_num((height - my - mh) * MM)} "
                    f"{_num(mw * MM)} {_num(mh * MM)} re f"
                )
        new = writer.add_blank_page(page.width * MM, page.height * MM)
        new[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): names})
        content: Any = StreamObject()
        content._data = zlib.compress("\n".join(ops).encode("ascii"))
        content[NameObject("/Filter")] = NameObject("/FlateDecode")
        new[NameObject("/Contents")] = writer._add_object(content)
        if bleed > 0 and len(page.slots) == 1 and not page.marks:
            inset = bleed * MM
            w, h = page.width * MM, page.height * MM
            new.bleedbox = RectangleObject([0, 0, w, h])
            new.trimbox = RectangleObject([inset, inset, w - inset, h - inset])
    reference_pages = reference.pages if reference is not None else ()
    for piece in reference_pages:
        x0, y0, x1, y1 = piece["box"]
        new = writer.add_blank_page(x1 - x0, y1 - y0)
        new[NameObject("/Resources")] = objects.make(piece["resources"])
        content = StreamObject()
        content._data = base64.b64decode(piece["content"])
        content[NameObject("/Filter")] = NameObject("/FlateDecode")
        new[NameObject("/Contents")] = writer._add_object(content)
    writer.add_metadata({"/Producer": "cardc", "/Subject": banner})
    ident = hashlib.md5(usedforsecurity=False)
    for key in sorted(refs):
        ident.update(key.encode())
    for piece in reference_pages:
        ident.update(piece["content"].encode())
    for page in pages:
        for slot in page.slots:
            ident.update(f"{slot.face.key}{slot.x:.3f}{slot.y:.3f}{slot.turned}".encode())
    identifier = ByteStringObject(ident.hexdigest().encode())
    writer._ID = ArrayObject([identifier, identifier])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
