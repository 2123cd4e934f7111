"""``cardc lsp``: run the language server (``compiler.lsp``) on stdin and stdout."""

from __future__ import annotations

import argparse
import sys


def cmd_lsp(args: argparse.Namespace) -> int:
    """``cardc lsp``: serve the Language Server Protocol over stdio until the editor exits."""
    try:
        from compiler.lsp import serve
    except ModuleNotFoundError as error:
        if error.name not in ("pygls", "lsprotocol"):
            raise
        print(
            "cardc lsp: the language server needs pygls, which is not installed\n"
            "  hint: pip install 'cardc[lsp]'",
            file=sys.stderr,
        )
        return 2
    serve()
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``cardc lsp`` to the ``cardc`` parser."""
    lsp = commands.add_parser(
        "lsp",
        help="run the language server (for editors)",
        description="Serve the Language Server Protocol over stdin/stdout: diagnostics as you "
        "type, hover, go to definition, completion, document symbols and formatting for .cards "
        "files; diagnostics for variant and scenario YAML. An editor starts it; see "
        "editors/vscode/.",
    )
    lsp.add_argument(
        "--stdio", action="store_true", help="accepted for editors; stdio is the default"
    )
    lsp.set_defaults(run=cmd_lsp)
