"""``cardc fmt``: rewrite card files in the canonical layout (``dsl.formatter``)."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from dsl.diagnostics import (
    NOT_UTF8_HINT,
    Diagnostic,
    SourceCache,
    file_span,
    not_utf8,
    render_all,
)
from dsl.nodes import Span


def fmt_files(paths: list[str]) -> tuple[list[Path], list[Diagnostic]]:
    """The ``.cards`` files to format: those named, those under named folders, or (with no
    path) every one under the project's ``cards/``, variants' card files included."""
    from compiler.cli import _project_or_die, other_named, yaml_named
    from compiler.project import display_path

    problems: list[Diagnostic] = []
    if not paths:
        root = _project_or_die().cards
        return sorted(display_path(p) for p in root.rglob("*.cards") if p.is_file()), problems
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.cards") if p.is_file()))
        elif path.suffix in (".yaml", ".yml") and path.is_file():
            problems.append(yaml_named(raw, "cardc fmt"))
        elif path.is_file() and path.suffix != ".cards":
            problems.append(other_named(raw, "cardc fmt formats .cards files and folders of them"))
        elif path.is_file():
            files.append(path)
        else:
            problems.append(
                Diagnostic(
                    "file-not-found",
                    f"no such file: '{raw}'",
                    file_span(raw),
                    "error",
                    ("check the path; with no path, cardc fmt formats the project's cards/",),
                    show_source=False,
                )
            )
    return files, problems


def _write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` whole: an editor or build reading it never sees half."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def cmd_fmt(args: argparse.Namespace) -> int:
    """``cardc fmt [--check] [PATH...]``: format card files, or list those that would change."""
    from dsl.formatter import format_text
    from dsl.parser import read_source

    if args.paths == ["-"]:  # editors: stdin to stdout
        # Bytes, decoded here: a byte that is not UTF-8 is told at its line and column, as in
        # a file (stdin's own decoding passed it through, or stopped with an internal error).
        data = sys.stdin.buffer.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            line, column, message = not_utf8(data, error)
            span = Span("<stdin>", line, column, line, column + 1)
            problem = Diagnostic("not-utf8", message, span, "error", (NOT_UTF8_HINT,), False)
            print(render_all([problem], SourceCache()), file=sys.stderr)
            return 1
        result = format_text(text, "<stdin>")
        if result.text is None:
            sources = SourceCache()
            sources.put("<stdin>", text)
            print(render_all(result.diagnostics, sources), file=sys.stderr)
            return 1
        sys.stdout.write(result.text)
        return 0
    files, problems = fmt_files(args.paths)
    sources = SourceCache()
    changed: list[Path] = []
    unchanged = 0
    for path in files:
        text, unreadable = read_source(path)
        if text is None:
            problems.extend(unreadable)
            continue
        sources.put(str(path), text)
        result = format_text(text, str(path))
        if result.text is None:
            problems.extend(d for d in result.diagnostics if d.severity == "error")
            continue
        if result.text == text:
            unchanged += 1
            continue
        changed.append(path)
        if args.check:
            print(f"would reformat {path}")
        else:
            _write(path, result.text)
            print(f"formatted {path}")
    if problems:
        print(render_all(problems, sources), file=sys.stderr)
    verb = "would be reformatted" if args.check else "formatted"
    print(
        f"{len(changed)} file{'s' * (len(changed) != 1)} {verb}, {unchanged} unchanged"
        + (f", {len({d.span.file for d in problems})} not formatted (errors)" if problems else "")
    )
    if problems:
        return 1
    return 1 if args.check and changed else 0


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``cardc fmt`` to the ``cardc`` parser."""
    fmt = commands.add_parser(
        "fmt",
        help="format card files in the canonical layout",
        description="Rewrite .cards files in the one canonical layout (indentation, spacing, "
        "blank lines), keeping every comment, annotation and line break. A file with syntax "
        "errors is left as it is. PATH '-' formats standard input to standard output.",
    )
    fmt.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (default: all of cards/)"
    )
    fmt.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if any file would change"
    )
    fmt.set_defaults(run=cmd_fmt)
