"""The sheet's PDF, imposed: each face's page becomes a form drawn in every slot it fills.

A face laid out once (:mod:`compiler.sheets.faces`) is one PDF Form XObject, drawn as many
times as the card has copies, so copies cost nothing to lay out and next to nothing in the
file. Crop marks are drawn as thin filled rectangles; a page of one card gets a TrimBox and a
BleedBox for print shops. The rules reference, laid out by WeasyPrint on its own, follows.
The output depends only on its inputs: no dates, an identifier made from the content.
"""

from __future__ import annotations

import hashlib
import io
import re
from typing import Any

from compiler.sheets.html import Page

MM = 72 / 25.4


def _num(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


_FONT_USE = re.compile(rb"/([^\s/\[\]()<>{}%]+)\s+[-\d.]+\s+Tf")


#: Bundles already read in this process, by SHA-256.
_READERS: dict[str, Any] = {}


class _Forms:
    """Face pages turned into Form XObjects of one writer, each font object kept once."""

    def __init__(self, writer: Any, bundles: dict[str, Any]):
        self.writer = writer
        self.bundles = bundles
        self.fonts: dict[tuple[str, str], Any] = {}
        self.digests: dict[tuple[int, int], str] = {}
        self.others: dict[tuple[str, str], Any] = {}

    def page(self, bundle: str, index: int) -> Any:
        """Page ``index`` of the bundle PDF ``bundle``."""
        from pypdf import PdfReader

        if bundle not in _READERS:
            # A build imposes a game and its variants from the same bundles: each is read
            # once a process (it is only read, never changed).
            if len(_READERS) >= 64:
                _READERS.pop(next(iter(_READERS)))
            _READERS[bundle] = PdfReader(io.BytesIO(self.bundles[bundle]))
        return _READERS[bundle].pages[index]

    def resources(self, page: Any, content: bytes) -> Any:
        """The page's resources in the writer, with only the fonts its content sets.

        A bundle lists every font its pages use on each of them, so a face keeps just its
        own; and a font whose dictionary and file are the same bytes is added once."""
        from pypdf.generic import DictionaryObject, NameObject, StreamObject

        source = page["/Resources"].get_object()
        out = DictionaryObject()
        used = {b"/" + name for name in _FONT_USE.findall(content)}
        for category, value in sorted(source.items()):
            if category == "/ProcSet":
                out[NameObject(category)] = value.clone(self.writer)
                continue
            if category != "/Font":
                # Each entry kept once by what it holds: a face's resources are then the same
                # objects whichever bundle (or bundles) its faces came from.
                entries = DictionaryObject()
                for name, entry in sorted(value.get_object().items()):
                    key = (category, _memo_digest(entry))
                    target = entry.get_object()
                    is_form = isinstance(target, StreamObject) and target.get("/Subtype") == "/Form"
                    if key not in self.others and is_form:
                        # A form inside a face (an SVG drawing): its fonts filtered too.
                        self.others[key] = self.nested_form(target)
                    if key not in self.others:
                        cloned = entry.get_object().clone(self.writer)
                        ref = getattr(cloned, "indirect_reference", None)
                        self.others[key] = (
                            ref if ref is not None else self.writer._add_object(cloned)
                        )
                    entries[NameObject(name)] = self.others[key]
                out[NameObject(category)] = entries
                continue
            fonts = DictionaryObject()
            for name, ref in sorted(value.get_object().items()):
                if name.encode() not in used:
                    continue
                key = (name, self.font_digest(ref))
                if key not in self.fonts:
                    self.fonts[key] = ref.get_object().clone(self.writer).indirect_reference
                fonts[NameObject(name)] = self.fonts[key]
            out[NameObject("/Font")] = fonts
        return out

    def nested_form(self, stream: Any) -> Any:
        """A Form XObject inside a face, its resources made as a face's are."""
        from pypdf.generic import NameObject, StreamObject

        form: Any = StreamObject()
        form._data = stream._data
        for key, value in sorted(stream.items()):
            if key not in ("/Resources", "/Length"):
                form[NameObject(key)] = value.clone(self.writer)
        data = stream.get_data()
        if "/Resources" in stream:
            form[NameObject("/Resources")] = self.resources(stream, data)
        return self.writer._add_object(form)

    def font_digest(self, ref: Any) -> str:
        """What tells two font objects apart: the font file they embed whole (their widths
        and Unicode map are read from it), and their dictionary without references."""
        from pypdf.generic import IndirectObject

        memo_key = (id(ref.pdf) if isinstance(ref, IndirectObject) else 0, getattr(ref, "idnum", 0))
        if memo_key not in self.digests:
            font = ref.get_object()
            target = font
            if "/DescendantFonts" in font:
                target = font["/DescendantFonts"][0].get_object()
            descriptor = target.get("/FontDescriptor")
            digest = hashlib.sha256(
                repr(
                    sorted(
                        (k, str(v))
                        for k, v in font.items()
                        if k not in ("/DescendantFonts", "/ToUnicode")
                    )
                ).encode()
            )
            if descriptor is not None:
                descriptor = descriptor.get_object()
                for key in ("/FontFile", "/FontFile2", "/FontFile3"):
                    if key in descriptor:
                        digest.update(descriptor[key].get_object().get_data())
            else:
                digest.update(_digest(font).encode())
            self.digests[memo_key] = digest.hexdigest()
        return self.digests[memo_key]

    def form(self, bundle: str, index: int) -> Any:
        """The face on page ``index`` of ``bundle`` as a Form XObject (a reference)."""
        from pypdf.generic import (
            ArrayObject,
            DecodedStreamObject,
            FloatObject,
            NameObject,
            StreamObject,
        )

        page = self.page(bundle, index)
        raw = page.get("/Contents")
        raw = raw.get_object() if raw is not None else None
        if isinstance(raw, StreamObject) and "/Filter" in raw:
            # WeasyPrint's one compressed stream, kept as it is (compressing it again is
            # most of what imposing costs).
            data = raw.get_data()
            form: Any = StreamObject()
            form._data = raw._data
            form[NameObject("/Filter")] = raw["/Filter"]
        else:
            contents = page.get_contents()
            data = contents.get_data() if contents is not None else b""
            form = DecodedStreamObject()
            form.set_data(data)
        form[NameObject("/Type")] = NameObject("/XObject")
        form[NameObject("/Subtype")] = NameObject("/Form")
        form[NameObject("/BBox")] = ArrayObject([FloatObject(v) for v in page.mediabox])
        form[NameObject("/Resources")] = self.resources(page, data)
        if isinstance(form, DecodedStreamObject):
            form = form.flate_encode()
        return self.writer._add_object(form)


def _memo_digest(node: Any) -> str:
    """:func:`_digest`, kept on the bundle's reader for an object it holds (the same faces'
    resources are hashed for every sheet of a build)."""
    from pypdf.generic import IndirectObject

    if not isinstance(node, IndirectObject):
        return _digest(node)
    memo = node.pdf.__dict__.setdefault("_cardc_digests", {})
    if node.idnum not in memo:
        memo[node.idnum] = _digest(node)
    return str(memo[node.idnum])


def _digest(node: Any, depth: int = 0) -> str:
    """A hash of a PDF object and everything it refers to (a font: its widths and file)."""
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, StreamObject

    digest = hashlib.sha256()

    def walk(value: Any, level: int) -> None:
        if isinstance(value, IndirectObject):
            value = value.get_object()
        if level > 12:
            digest.update(b"...")
            return
        if isinstance(value, StreamObject):
            digest.update(b"S" + value.get_data())
            for k in sorted(value):
                if k not in ("/Length", "/Filter", "/DecodeParms"):
                    digest.update(k.encode())
                    walk(value[k], level + 1)
        elif isinstance(value, DictionaryObject):
            for k in sorted(value):
                digest.update(b"K" + k.encode())
                walk(value[k], level + 1)
        elif isinstance(value, ArrayObject):
            digest.update(b"[")
            for item in value:
                walk(item, level + 1)
            digest.update(b"]")
        else:
            digest.update(repr(value).encode())

    walk(node, depth)
    return digest.hexdigest()


def impose(
    pages: list[Page],
    laid: dict[str, Any],
    bundles: dict[str, bytes],
    reference: bytes | None,
    bleed: float = 0.0,
    banner: str = "",
) -> bytes:
    """The PDF of ``pages`` (each face's page found by ``laid``: key -> its bundle and page,
    ``bundles``: SHA-256 -> PDF), then ``reference``'s pages.

    ``bleed`` (mm) is the TrimBox inset of a page that is one card (one per page).
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import (
        ArrayObject,
        ByteStringObject,
        DecodedStreamObject,
        DictionaryObject,
        NameObject,
        RectangleObject,
    )

    writer = PdfWriter()
    forms = _Forms(writer, bundles)
    refs: dict[str, Any] = {}
    for key in sorted({slot.face.key for page in pages for slot in page.slots}):
        refs[key] = forms.form(laid[key].bundle, laid[key].page)
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
        content = DecodedStreamObject()
        content.set_data("\n".join(ops).encode("ascii"))
        new[NameObject("/Contents")] = writer._add_object(content.flate_encode())
        if bleed > 0 and len(page.slots) == 1 and not page.marks:
            inset = bleed * MM
            w, h = page.width * MM, page.height * MM
            new.bleedbox = RectangleObject([0, 0, w, h])
            new.trimbox = RectangleObject([inset, inset, w - inset, h - inset])
    if reference is not None:
        for ref_page in PdfReader(io.BytesIO(reference)).pages:
            contents = ref_page.get_contents()
            data = contents.get_data() if contents is not None else b""
            box = ref_page.mediabox
            new = writer.add_blank_page(float(box.width), float(box.height))
            new[NameObject("/Resources")] = forms.resources(ref_page, data)
            content = DecodedStreamObject()
            content.set_data(data)
            new[NameObject("/Contents")] = writer._add_object(content.flate_encode())
    writer.add_metadata({"/Producer": "cardc", "/Subject": banner})
    digest = hashlib.md5(usedforsecurity=False)
    for key in sorted(refs):
        digest.update(key.encode())
    digest.update(reference or b"")
    for page in pages:
        for slot in page.slots:
            digest.update(f"{slot.face.key}{slot.x:.3f}{slot.y:.3f}{slot.turned}".encode())
    identifier = ByteStringObject(digest.hexdigest().encode())
    writer._ID = ArrayObject([identifier, identifier])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
