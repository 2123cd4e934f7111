"""Terminal output that no source text can take over.

Card titles, file names, YAML values and source lines reach the terminal in diagnostics,
test reports, diffs and summaries. A control character among them (ESC starts the sequences
that recolour, move the cursor, retitle the window or hide text; a bidi override reorders what
follows) would be obeyed by the terminal rather than shown. :class:`SafeStream` wraps stdout
and stderr for the whole of a ``cardc`` run and shows each such character as a visible
stand-in of the same width (``␛`` for ESC), so a caret under a source line still points at
the right column. Line ends, tabs and the progress bar's own erase-line sequence pass through.
"""

from __future__ import annotations

from typing import Any, TextIO

#: The one escape sequence cardc itself writes: the progress bar erasing its line.
_OWN_SEQUENCE = "\x1b[K"


def _table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in range(0x20):
        if chr(code) not in "\n\t\r":
            table[code] = chr(0x2400 + code)  # the Unicode "control pictures"
    table[0x7F] = "\u2421"
    for code in range(0x80, 0xA0):
        table[code] = "\ufffd"
    # Bidi embeddings, overrides and isolates: they reorder the text shown after them.
    for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)):
        table[code] = "\ufffd"
    return table


_TABLE = _table()


def safe_text(text: str) -> str:
    """``text`` with every control character shown as a visible stand-in."""
    return text.translate(_TABLE)


class SafeStream:
    """A text stream that writes :func:`safe_text` of everything to ``stream``."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        """Write ``text`` made safe; cardc's own erase-line sequence is kept."""
        parts = text.split(_OWN_SEQUENCE)
        self.stream.write(_OWN_SEQUENCE.join(safe_text(part) for part in parts))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        # flush, isatty, fileno, encoding...: the wrapped stream's.
        return getattr(self.stream, name)
