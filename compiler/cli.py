"""The ``cardc`` command line.

Every subcommand works on the project found from the current directory (see
:mod:`compiler.project`). Diagnostics from every stage are collected and printed together,
sorted, at the end; the exit status is 1 when any of them is an error. No Python traceback
reaches a user: an internal failure is reported as such, with a request to file it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from compiler import __version__
from compiler.project import Project, card_files, find_project
from dsl.diagnostics import Diagnostic, SourceCache, file_span, render, render_all
from dsl.nodes import Span
from dsl.project_config import ProjectConfigError


def _project_or_die() -> Project:
    project = find_project()
    if project is None:
        print(
            "cardc: no project here: no folder at or above this one holds cards/ "
            "or a pyproject.toml with [tool.cardc]\n"
            "  hint: run 'cardc new GAME' to start one, or cd into your project",
            file=sys.stderr,
        )
        raise SystemExit(2)
    return project


def _expand(paths: Sequence[str], project: Project | None) -> tuple[list[Path], list[Diagnostic]]:
    """The ``.cards`` files named by ``paths`` (folders are searched); default: all of cards/."""
    problems: list[Diagnostic] = []
    if not paths:
        project = project or _project_or_die()
        return card_files(project.cards), problems
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.suffix in (".yaml", ".yml") and path.is_file():
            from compiler.pipeline import game_folder

            if game_folder(path) is None:
                # A scenario named by mistake: read as card text, it gave a screen of syntax
                # errors. A variant is inside its game's folder and is checked with the game.
                problems.append(yaml_named(raw, "cardc check"))
                continue
        elif path.is_file() and path.suffix != ".cards":
            # notes.txt, natives.py: read as card text, a screen of syntax errors (or, inside
            # a game's folder, "no errors" for a file that was never read).
            problems.append(
                other_named(
                    raw,
                    "cardc check reads .cards files, folders of them and a game's variants (.yaml)",
                    check=True,
                )
            )
            continue
        if path.is_dir():
            found = card_files(path)
            if not found:
                problems.append(
                    Diagnostic(
                        "no-card-files",
                        f"'{raw}' holds no .cards files",
                        file_span(raw),
                        "warning",
                        ("card files end in .cards",),
                        show_source=False,
                    )
                )
            files.extend(found)
        else:
            files.append(path)
    return files, problems


def yaml_named(raw: str, command: str) -> Diagnostic:
    """A YAML file named where card files are wanted (``cardc check`` or ``cardc fmt``)."""
    return Diagnostic(
        "not-card-file",
        f"'{raw}' is a YAML file, not a card file: {command} reads .cards files",
        file_span(raw),
        "error",
        (
            f"a scenario runs with: cardc test {raw}; a variant is checked with its game "
            "(cardc check, in the project)",
        ),
        show_source=False,
    )


def other_named(raw: str, takes: str, check: bool = False) -> Diagnostic:
    """A file named where card files are wanted that is neither a card file nor YAML
    (``notes.txt``, ``natives.py``): ``takes`` says what the command reads; for ``cardc
    check`` (``check``), a file of a game's folder is told to check the game."""
    from compiler.pipeline import game_folder

    folder = game_folder(Path(raw)) if check else None
    hint = (
        f"a game's other files are checked with its cards: cardc check {folder.as_posix()}"
        if folder is not None
        else "card files end in .cards; name one, or a folder holding some"
    )
    return Diagnostic(
        "not-card-file",
        f"'{raw}' is not a card file: {takes}",
        file_span(raw),
        "error",
        (hint,),
        show_source=False,
    )


def _emit(diagnostics: list[Diagnostic], sources: SourceCache, fmt: str) -> int:
    """Print diagnostics; return the exit status they call for."""
    text = render_all(diagnostics, sources, fmt)
    if text:
        stream = sys.stdout if fmt == "json" else sys.stderr
        print(text, file=stream)
    elif fmt == "json":
        print(json.dumps({"diagnostics": []}))
    return 1 if any(d.severity == "error" for d in diagnostics) else 0


def cmd_check(args: argparse.Namespace) -> int:
    """``cardc check``: parse and check sources, print every diagnostic."""
    from compiler.checking import check_paths

    project = find_project()
    files, problems = _expand(args.paths, project)
    sources = SourceCache()
    result = check_paths(files, project, sources)
    diagnostics = problems + result.diagnostics
    if project is not None and not args.paths:
        compiled = {game.folder.name: game.ir for game in result.games if game.ir is not None}
        diagnostics += _reference_problems(project, compiled, result.variant_irs)
    # What the build's sheets would refuse: a base card's problem is the same in each
    # variant's sheet, and a reference.yaml's problem is already told above; each once.
    told = project is not None and not args.paths
    found = _sheet_problems(result, references=not told)
    diagnostics += [d for d in dict.fromkeys(found) if d not in diagnostics]
    status = _emit(diagnostics, sources, args.format)
    if args.format == "text":
        if args.provenance:
            print(result.provenance_report())
        elif status == 0:
            print(result.summary())
    return status


def _sheet_problems(result: Any, references: bool = True) -> list[Diagnostic]:
    """The text lint's problems (and a card's missing art) in the sheet ``cardc build`` prints
    of each game ``result`` compiled and each of its variants, as the build reports them: a
    clean check was a build that failed on them. Each sheet's model is made and read, not
    laid out (compiler.sheets.sheet_text_problems): a tenth of the check's time for the four
    games, where laying them out takes WeasyPrint seconds a game. ``references=False``: a
    reference.yaml's own problems are told elsewhere (_reference_problems)."""
    compiled = {g.folder.name: g for g in result.games if g.ir is not None and g.ok}
    if not compiled:
        return []  # the build renders no sheet of a game with errors
    from compiler.sheets import sheet_text_problems

    found: list[Diagnostic] = []
    for game in compiled.values():
        found += sheet_text_problems(game.folder, game.ir, references=references)
    for (name, variant), ir in sorted(result.variant_irs.items()):
        if ir is not None and name in compiled:
            found += sheet_text_problems(compiled[name].folder, ir, variant, references=references)
    return found


#: The sheets' reference file (compiler.sheets.reference.REFERENCE_FILE, a test keeps the two
#: equal): named here so that a check of a game without one never imports its shape checker.
REFERENCE_FILE = "reference.yaml"


def _reference_problems(
    project: Project,
    compiled: dict[str, Any] | None = None,
    variants: dict[tuple[str, str], Any] | None = None,
) -> list[Diagnostic]:
    """Each game's reference.yaml, checked for the shape the sheets read it as, and (for a
    game in ``compiled``, its IR) for the phases it names, as ``cardc build`` checks them: a
    phase its flow lacks passed ``cardc check`` and failed the build. The same for each
    variant in ``variants`` (game and variant name -> its IR, or None) with a reference of its
    own, ``sheets/<variant>.reference.yaml``, against the variant's flow."""
    found = _variant_reference_problems(project, variants or {})
    for game in project.games():
        path = project.game_dir(game) / REFERENCE_FILE
        if not path.is_file():  # nothing to check (check_reference_file would return too)
            continue
        from compiler.sheets.reference_shape import ReferenceShapeError, check_reference_file

        try:
            check_reference_file(path, project.relative(path))
        except ReferenceShapeError as error:
            found.append(error.diagnostic())
            continue
        except (OSError, UnicodeDecodeError) as error:
            shown = project.relative(path)
            found.append(
                Diagnostic(
                    "reference-unreadable", f"cannot read {shown}: {error}", file_span(shown)
                )
            )
            continue
        ir = (compiled or {}).get(game)
        if ir is not None and ir.get("flow"):
            from compiler.sheets.reference import ReferenceError, check_phase_names, load_reference

            try:
                check_phase_names(load_reference(path), ir)
            except ReferenceError as error:
                found.append(
                    error.diagnostic
                    or Diagnostic("reference-shape", str(error), file_span(str(path)))
                )
    return found


def _variant_reference_problems(
    project: Project, variants: dict[tuple[str, str], Any]
) -> list[Diagnostic]:
    """The problems of each variant's own ``sheets/<variant>.reference.yaml`` (its shape, and
    the phases it names, against the variant's flow when it compiled), as ``cardc build``
    finds them when it prints the variant's sheets."""
    found: list[Diagnostic] = []
    for (game, variant), ir in sorted(variants.items()):
        path = project.game_dir(game) / "sheets" / f"{variant}.reference.yaml"
        if not path.is_file():
            continue
        from compiler.sheets.reference import ReferenceError, check_phase_names, load_reference

        try:
            own = load_reference(path, variant=True)
            if ir is not None:
                check_phase_names(own, ir)
        except ReferenceError as error:
            found.append(
                error.diagnostic
                or Diagnostic("reference-shape", str(error), file_span(project.relative(path)))
            )
        except (OSError, UnicodeDecodeError) as error:
            shown = project.relative(path)
            found.append(
                Diagnostic(
                    "reference-unreadable", f"cannot read {shown}: {error}", file_span(shown)
                )
            )
    return found


def cmd_build(args: argparse.Namespace) -> int:
    """``cardc build``: compile every game to ``generated/`` (or verify it with --check)."""
    from compiler.build import build

    project = _project_or_die()
    sources = SourceCache()
    outcome = build(
        project,
        args.paths,
        check_only=args.check,
        sources=sources,
        sheets=not args.no_sheets,
        rebuild=args.rebuild,
    )
    status = _emit(outcome.diagnostics, sources, args.format)
    if args.format == "text":
        for line in outcome.report:
            print(line)
    return status or outcome.status


def cmd_parse(args: argparse.Namespace) -> int:
    """``cardc parse --json FILE``: print the AST as JSON, for debugging."""
    from dsl.nodes import to_json
    from dsl.parser import parse_file

    sources = SourceCache()
    if Path(args.file).is_file() and Path(args.file).suffix != ".cards":
        return _emit([other_named(args.file, "cardc parse reads a .cards file")], sources, "text")
    result = parse_file(args.file)
    if result.text is not None:
        sources.put(args.file, result.text)
    status = _emit(list(result.diagnostics), sources, "text")
    if result.ok or result.file.declarations:
        print(json.dumps(to_json(result.file), indent=2, ensure_ascii=False))
    return status


def cmd_new(args: argparse.Namespace) -> int:
    """``cardc new GAME``: a new game folder in this project, or a new project."""
    from compiler.scaffold import scaffold

    for line in scaffold(args.game, find_project(), Path.cwd()):
        print(line)
    return 0


#: The subcommands defined in this module: a command line that starts with one of them needs
#: none of COMMAND_MODULES, whose imports are most of the parser's cost in a one-file check.
CORE_COMMANDS = frozenset({"check", "build", "parse", "new"})


def build_parser(later_commands: bool = True) -> argparse.ArgumentParser:
    """The argument parser of every subcommand (of the core ones only without
    ``later_commands``)."""
    parser = argparse.ArgumentParser(
        prog="cardc",
        description="Compile tabletop-game rules written as data into checked Python handlers "
        "and printable card references.",
    )
    parser.add_argument("--version", action="version", version=f"cardc {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser(
        "check",
        help="parse and check card files",
        description="Parse and check card files; "
        "print every problem with its file, line and column.",
    )
    check.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (default: cards/)"
    )
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument(
        "--provenance", action="store_true", help="list every @provisional value and its reason"
    )
    check.set_defaults(run=cmd_check)

    build = commands.add_parser(
        "build",
        help="compile every game to generated/",
        description="Compile every game under cards/ (or the given game folders) to generated/: "
        "Python handlers, IR and JSON Schemas. Only games whose sources changed are re-emitted.",
    )
    build.add_argument("paths", nargs="*", metavar="PATH", help="game folders (default: all)")
    build.add_argument(
        "--check", action="store_true", help="do not write; exit 1 if generated/ is stale"
    )
    build.add_argument(
        "--no-sheets",
        action="store_true",
        help="skip the printable sheets (the slow part); the next full build renders them",
    )
    build.add_argument(
        "--rebuild",
        action="store_true",
        help="render every game again, carrying none over (with --check: is generated/ what "
        "the sources compile to from scratch?)",
    )
    build.add_argument("--format", choices=("text", "json"), default="text")
    build.set_defaults(run=cmd_build)

    parse = commands.add_parser(
        "parse",
        help="print a file's AST as JSON",
        description="Parse one file and print its "
        "syntax tree as JSON (for debugging the language).",
    )
    parse.add_argument("--json", action="store_true", default=True, help="JSON output (default)")
    parse.add_argument("file", metavar="FILE")
    parse.set_defaults(run=cmd_parse)

    new = commands.add_parser(
        "new",
        help="start a new game (or project)",
        description="Inside a project: add cards/GAME/ with a starter game.cards. Outside one: "
        "create the project folder GAME/ with cards/GAME/ inside.",
    )
    new.add_argument("game", metavar="GAME", help="a name in lower_snake_case")
    new.set_defaults(run=cmd_new)

    if later_commands:
        _add_later_commands(commands)
    return parser


#: Modules that add subcommands, each with ``register(commands)``: one per feature, so the
#: features (scenarios, sheets, variants, simulation) grow without touching this file.
COMMAND_MODULES = (
    "compiler.cli_extra",
    "compiler.cli_sheets",
    "compiler.cli_variants",
    "compiler.cli_sim",
    "compiler.cli_fmt",
    "compiler.cli_lsp",
    "compiler.cli_watch",
)


def _add_later_commands(commands: argparse._SubParsersAction) -> None:
    """Subcommands that live in their own modules."""
    import importlib

    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name == name:
                continue
            raise
        module.register(commands)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cardc`` console script."""
    from compiler.terminal import SafeStream

    # No source text (nor argument) may drive the terminal: control characters are shown.
    saved = sys.stdout, sys.stderr
    sys.stdout = SafeStream(sys.stdout)  # type: ignore[assignment]
    sys.stderr = SafeStream(sys.stderr)  # type: ignore[assignment]
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        # `cardc check ...` parses the same with the core commands alone; anything else (no
        # command, -h, --version, another command, a typo to suggest for) gets the full parser.
        parser = build_parser(later_commands=not words or words[0] not in CORE_COMMANDS)
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
        return _run(args)
    finally:
        sys.stdout, sys.stderr = saved


def _run(args: argparse.Namespace) -> int:
    """Run the chosen subcommand; no traceback reaches the user."""
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        print("cardc: interrupted", file=sys.stderr)
        return 130
    except SystemExit:
        raise
    except BrokenPipeError:
        return 1
    except ProjectConfigError as error:
        # The project's [tool.cardc] table: shown at its line, before anything was written.
        print(_config_problem(error), file=sys.stderr)
        return 2
    except OSError as error:
        # A read-only folder, a full disk, a file where a folder should be: the user's
        # system, not a bug; say which file and what the system said.
        print(f"cardc: {_os_problem(error)}", file=sys.stderr)
        return 1
    except Exception as error:  # noqa: BLE001 - the last line of defence against tracebacks
        print(
            f"cardc: internal error: {type(error).__name__}: {error}\n"
            "  hint: this is a bug in cardc, not in your cards; please report it with the "
            "command you ran (set CARDC_DEBUG=1 to see the traceback)",
            file=sys.stderr,
        )
        import os

        if os.environ.get("CARDC_DEBUG"):
            raise
        return 3


def _config_problem(error: ProjectConfigError) -> str:
    """The project's ``[tool.cardc]`` problem as a diagnostic, with its line of the file."""
    from compiler.project import display_path

    shown = str(display_path(Path(error.file)))
    span = Span(shown, error.line, error.column, error.line, error.column + 1)
    try:
        lines: list[str] | None = Path(error.file).read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError):
        lines = None
    return render(Diagnostic("project-config", error.reason, span, "error", (error.hint,)), lines)


def _os_problem(error: OSError) -> str:
    """An OSError as a sentence: the file, what the system said, what to do."""
    import errno

    name = error.filename or "a file"
    reason = error.strerror or str(error)
    hints = {
        errno.EROFS: "the file system is read-only: work in a copy of the project",
        errno.EACCES: "you may not write there: check the folder's permissions",
        errno.EPERM: "you may not write there: check the folder's permissions",
        errno.ENOSPC: "the disk is full: free some space and run the command again",
        errno.EDQUOT: "your disk quota is full: free some space and run the command again",
        errno.ENAMETOOLONG: "the name is too long for the file system: choose a shorter one",
        errno.EISDIR: "a folder is there: give a file name",
        errno.ENOTDIR: "a file is where a folder should be",
        errno.ENOENT: "check the path, and that its folder exists",
    }
    hint = hints.get(error.errno or 0)
    return f"cannot use {name}: {reason}" + (f"\n  hint: {hint}" if hint else "")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
