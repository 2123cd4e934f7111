"""A laid-out page as a "piece": its content and resources as plain JSON data, the same
whichever pages it was laid out beside.

WeasyPrint names a document's fonts by their content and its alpha states by their value, but
its other resources (an SVG's forms, patterns and shadings; an image; a soft mask) by the
order it meets them in the whole document, so the same face written beside other faces would
name them differently. A piece renames every resource its content stream uses in the order
of first use (``/R0``, ``/R1``, ...; in each nested form too) and keeps only those: the
piece is then a function of the face alone, and many faces can be written in one PDF.

A piece's fonts are not inside it: each is named by a digest of what it holds (WeasyPrint
writes whole fonts, so a font is the same object in every document), kept once, and looked up
when the sheet is imposed (:mod:`compiler.sheets.impose`).

The data: an int or a float is itself; a name is a string starting with ``/``; a PDF string
``{"t": hex}``; an array a list; a dictionary ``{"d": {name: value}}``; a stream ``{"s":
base64 of its encoded bytes, "d": its dictionary without /Length}``; an object that was
indirect ``{"r": value}``; a font ``{"font": digest}``.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import zlib
from typing import Any

#: Resource categories whose names WeasyPrint gives by the order it meets them (and, for
#: the others, names that are harmless to give anew): renamed by order of first use.
_RENAMED = ("/ExtGState", "/Pattern", "/Shading", "/XObject", "/Properties")

#: A content stream's tokens that matter here: strings (skipped, so a slash inside one is not
#: a name) and names.
_TOKENS = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>|/[^\s/\[\]()<>{}%]*")


def digest(tree: Any) -> str:
    """A hash of a piece's data (what tells two objects apart when they are kept once)."""
    text = json.dumps(tree, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class _Reader:
    """Turns one PDF's objects into piece data; fonts go to ``fonts`` by digest."""

    def __init__(self, fonts: dict[str, Any]):
        self.fonts = fonts
        self.font_memo: dict[int, str] = {}

    def value(self, node: Any, depth: int = 0) -> Any:
        from pypdf.generic import (
            ArrayObject,
            BooleanObject,
            DictionaryObject,
            FloatObject,
            IndirectObject,
            NameObject,
            NullObject,
            NumberObject,
            StreamObject,
        )

        if depth > 40:
            raise ValueError("a PDF object nested too deep to keep as a piece")
        if isinstance(node, IndirectObject):
            return {"r": self.value(node.get_object(), depth + 1)}
        if isinstance(node, BooleanObject):
            return bool(node)
        if isinstance(node, NumberObject):
            return int(node)
        if isinstance(node, FloatObject):
            return float(node)
        if isinstance(node, NameObject):
            return str(node)
        if isinstance(node, NullObject) or node is None:
            return None
        if isinstance(node, StreamObject):
            if "/Resources" in node:
                return self.form(node, depth)
            entries = {
                str(k): self.value(v, depth + 1) for k, v in sorted(node.items()) if k != "/Length"
            }
            return {"s": base64.b64encode(node._data).decode("ascii"), "d": entries}
        if isinstance(node, DictionaryObject):
            return {"d": {str(k): self.value(v, depth + 1) for k, v in sorted(node.items())}}
        if isinstance(node, ArrayObject):
            return [self.value(v, depth + 1) for v in node]
        if isinstance(node, (bytes, str)):
            raw = node.original_bytes if hasattr(node, "original_bytes") else node
            if isinstance(raw, str):
                raw = raw.encode("utf-8")
            return {"t": bytes(raw).hex()}
        raise ValueError(f"a PDF object of an unknown type: {type(node).__name__}")

    def form(self, stream: Any, depth: int) -> Any:
        """A stream with resources (a form, a tiling pattern): its names made canonical."""
        content, resources = self.canonical(stream.get_data(), stream["/Resources"], depth)
        entries = {
            str(k): self.value(v, depth + 1)
            for k, v in sorted(stream.items())
            if k not in ("/Length", "/Filter", "/DecodeParms", "/Resources")
        }
        entries["/Filter"] = "/FlateDecode"
        entries["/Resources"] = resources
        data = base64.b64encode(zlib.compress(content)).decode("ascii")
        return {"s": data, "d": dict(sorted(entries.items()))}

    def font(self, ref: Any) -> Any:
        """A font, kept in ``fonts`` by digest; here only its digest."""
        from pypdf.generic import IndirectObject

        key = ref.idnum if isinstance(ref, IndirectObject) else -1
        if key not in self.font_memo or key == -1:
            tree = self.value(ref.get_object())
            name = digest(tree)
            self.fonts.setdefault(name, tree)
            self.font_memo[key] = name
        return {"font": self.font_memo[key]}

    def canonical(self, content: bytes, resources: Any, depth: int = 0) -> tuple[bytes, Any]:
        """``content`` with its resources renamed by order of first use, and those resources
        (only the ones it uses) as piece data."""
        source = resources.get_object()
        renamable: set[bytes] = set()
        for category in _RENAMED:
            if category in source:
                renamable |= {name.encode() for name in source[category].get_object()}
        mapping: dict[bytes, bytes] = {}
        used: set[bytes] = set()

        def rename(match: re.Match[bytes]) -> bytes:
            token = match.group(0)
            if token[:1] != b"/":
                return token
            used.add(token)
            if token not in renamable:
                return token
            if token not in mapping:
                mapping[token] = b"/R%d" % len(mapping)
            return mapping[token]

        content = _TOKENS.sub(rename, content)
        out: dict[str, Any] = {}
        for category, value in sorted(source.items()):
            category = str(category)
            value = value.get_object()
            if category == "/ProcSet":
                out[category] = self.value(value, depth + 1)
                continue
            entries: dict[str, Any] = {}
            for name, entry in value.items():
                token = str(name).encode()
                if token not in used:
                    continue
                if category == "/Font":
                    entries[str(name)] = self.font(entry)
                else:
                    new = mapping.get(token, token).decode()
                    entries[new] = self.value(entry, depth + 1)
            if entries:
                out[category] = {"d": dict(sorted(entries.items()))}
        return content, {"d": out}


def split(pdf: bytes) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The pages of ``pdf`` as pieces, and the fonts they use by digest."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(pdf))
    fonts: dict[str, Any] = {}
    read = _Reader(fonts)
    pieces = []
    for page in reader.pages:
        contents = page.get_contents()
        data = contents.get_data() if contents is not None else b""
        content, resources = read.canonical(data, page["/Resources"])
        pieces.append(
            {
                "box": [float(v) for v in page.mediabox],
                "content": base64.b64encode(zlib.compress(content)).decode("ascii"),
                "resources": resources,
            }
        )
    return pieces, fonts


def fonts_of(tree: Any) -> set[str]:
    """The digests of the fonts a piece (or any piece data) uses."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if "font" in value:
                found.add(value["font"])
                return
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(tree)
    return found
