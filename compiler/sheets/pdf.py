"""Whether this machine can make PDF sheets: WeasyPrint and the system libraries it loads.

The PDF itself is made by :mod:`compiler.sheets.faces` (each face laid out by WeasyPrint) and
:mod:`compiler.sheets.impose`; without WeasyPrint or Pango, ``cardc build`` and ``cardc
sheets`` still write the HTML and Markdown sheets and say what to install.
"""

from __future__ import annotations

import functools


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
    When a build has started layout processes (``faces.layout_processes``), one of them
    answers: this process then need not load WeasyPrint at all.
    """
    from compiler.sheets import faces

    if faces._POOL:
        answer: str | None = faces.pool_call(_problem)
        return answer
    return _problem()


def _problem() -> str | None:
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
