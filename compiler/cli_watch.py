"""``cardc watch``: rebuild ``generated/`` on every save (``compiler.watch``)."""

from __future__ import annotations

import argparse
import sys


def cmd_watch(args: argparse.Namespace) -> int:
    """``cardc watch [GAME...]``: build, then rebuild on every save until Ctrl-C."""
    from compiler.cli import _project_or_die

    project = _project_or_die()
    try:
        import watchfiles  # noqa: F401
    except ModuleNotFoundError:
        print(
            "cardc watch: watch mode needs watchfiles, which is not installed\n"
            "  hint: pip install 'cardc[watch]'",
            file=sys.stderr,
        )
        return 2
    from compiler.watch import main

    return main(project, args.paths, sheets=not args.no_sheets)


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``cardc watch`` to the ``cardc`` parser."""
    watch = commands.add_parser(
        "watch",
        help="rebuild generated/ on every save",
        description="Build, then rebuild on every save under cards/: the handlers and IR at "
        "once, the sheets when the saving stops. Prints the generated files that changed and "
        "the diagnostics; generated/ is swapped in whole, never half-written.",
    )
    watch.add_argument("paths", nargs="*", metavar="GAME", help="game folders (default: all)")
    watch.add_argument("--no-sheets", action="store_true", help="never render the sheets")
    watch.set_defaults(run=cmd_watch)
