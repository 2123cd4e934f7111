"""``cardc sheets``: printable card references (HTML, Markdown, print-ready PDF).

With the default options the sheets are ``cardc build``'s: the command builds the named games
(their sheets land in ``generated/sheets/<game>/``, byte for byte what the build writes, and
an unchanged game is not rendered again). Any other option (paper, size, bleed, one per page,
backs, formats, --out) prints elsewhere, ``print/`` by default, since ``generated/`` holds only
what the build makes; there a stamp per game keeps an unchanged sheet from being re-rendered.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from pathlib import Path
from typing import Any

from dsl.diagnostics import Diagnostic, SourceCache, file_span

#: Where non-default sheets go, under the project root, unless --out says otherwise.
PRINT_DIR = "print"
_STAMP = ".cardc-sheets.json"


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``cardc sheets`` to the command line."""
    sheets = commands.add_parser(
        "sheets",
        help="write printable cards and a rules reference (HTML, Markdown, PDF)",
        description="Write every card of a game (or variant) at real size, 3 x 3 per page by "
        "default, with a rules reference: HTML, Markdown and print-ready PDF. With the default "
        "options this is cardc build's generated/sheets/; other options print to print/ "
        "(or --out).",
    )
    sheets.add_argument("games", nargs="*", metavar="GAME", help="games (default: all)")
    sheets.add_argument("--variant", metavar="V", help="a variant: cards/GAME/variants/V.yaml")
    sheets.add_argument(
        "--format",
        default="html,md,pdf",
        help="comma-separated: pdf, html, md (default: all three)",
    )
    sheets.add_argument("--paper", choices=("a4", "letter"), default="a4")
    sheets.add_argument(
        "--size", default="poker", help="poker (default), bridge, tarot, mini, or WxHmm"
    )
    sheets.add_argument("--bleed", type=float, default=0.0, metavar="MM", help="bleed (mm)")
    sheets.add_argument(
        "--crop-marks",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="crop marks at the sheet's edge (default: on)",
    )
    sheets.add_argument(
        "--one-per-page", action="store_true", help="one card per page, page = card (+ bleed)"
    )
    sheets.add_argument("--backs", action="store_true", help="add backs, mirrored for duplex")
    sheets.add_argument(
        "--proof",
        action="store_true",
        help="a proof: each card once with its x N count and source line (default: every copy)",
    )
    sheets.add_argument(
        "--footer",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="each card's source file and line at its foot (default: on in --proof only)",
    )
    sheets.add_argument("--offset-x", type=float, default=0.0, metavar="MM", help="backs' x shift")
    sheets.add_argument("--offset-y", type=float, default=0.0, metavar="MM", help="backs' y shift")
    sheets.add_argument("--out", metavar="DIR", help=f"output folder (default: {PRINT_DIR}/)")
    sheets.add_argument(
        "--force", action="store_true", help="replace files in --out that cardc did not write"
    )
    sheets.set_defaults(run=cmd_sheets)


def _fail(message: str, *hints: str) -> int:
    print(f"cardc sheets: error: {message}", file=sys.stderr)
    for hint in hints:
        print(f"  hint: {hint}", file=sys.stderr)
    return 2


def cmd_sheets(args: argparse.Namespace) -> int:
    """Run ``cardc sheets``."""
    from compiler.cli import _emit, _project_or_die
    from compiler.sheets import FORMATS, SheetOptions
    from compiler.sheets.layout import LayoutError, grid

    project = _project_or_die()
    formats = tuple(f.strip() for f in args.format.split(",") if f.strip())
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        return _fail(f"unknown format '{','.join(bad)}'", f"use any of {', '.join(FORMATS)}")
    for flag, value in (("--bleed", args.bleed), ("--offset-x", args.offset_x)):
        if not math.isfinite(value):  # "nan" and "inf" parse as floats
            return _fail(f"{flag} must be a number of millimetres, not {value}")
    if not math.isfinite(args.offset_y):
        return _fail(f"--offset-y must be a number of millimetres, not {args.offset_y}")
    if args.bleed < 0:
        return _fail("--bleed must be 0 or more millimetres")
    options = SheetOptions(
        paper=args.paper,
        size=args.size,
        bleed=args.bleed,
        crop_marks=args.crop_marks,
        one_per_page=args.one_per_page,
        backs=args.backs,
        offset_x=args.offset_x,
        offset_y=args.offset_y,
        proof=args.proof,
        footer=args.footer,
    )
    try:
        grid(options)
    except LayoutError as error:
        return _fail(str(error))
    games = args.games or project.games()
    unknown = [g for g in games if g not in project.games()]
    if unknown:
        from compiler.suggest import did_you_mean

        return _fail(
            f"'{unknown[0]}' is not a game of this project",
            *(
                did_you_mean(unknown[0], project.games())
                or (f"games: {', '.join(project.games())}",)
            ),
        )
    if args.variant:
        from compiler.suggest import did_you_mean
        from compiler.terminal import safe_text
        from compiler.variants import variant_names

        for game in games:
            names = variant_names(project.game_dir(game))
            if args.variant not in names:
                # The build's path below printed "sheets: generated/sheets/GAME/V.*" for a
                # variant the game does not have, and exited 0.
                return _fail(
                    f"'{safe_text(args.variant)}' is not a variant of {game}",
                    *(
                        did_you_mean(args.variant, names)
                        or (f"variants: {', '.join(names) or 'none'}",)
                    ),
                )
    sources = SourceCache()
    if options.is_default() and set(formats) == set(FORMATS) and not args.out:
        # The build's own sheets: build the games (a game whose sources did not change is
        # carried over, its sheets not rendered again).
        from compiler.build import build

        outcome = build(project, games, check_only=False, sources=sources)
        status = _emit(outcome.diagnostics, sources, "text")
        for line in outcome.report:
            print(line)
        if not (status or outcome.status):
            for game in games:
                name = args.variant or game
                print(f"sheets: {project.relative(project.generated / 'sheets' / game)}/{name}.*")
        return status or outcome.status
    out = Path(args.out) if args.out else project.root / PRINT_DIR
    if out.exists() and not out.is_dir():
        return _fail(f"--out {args.out or out} is a file, not a folder", "give a folder name")
    try:
        out.resolve().relative_to(project.generated.resolve())
        return _fail(
            f"{args.out} is inside {project.relative(project.generated)}/, which holds only "
            "what cardc build writes",
            f"print elsewhere, e.g. --out {PRINT_DIR}",
        )
    except ValueError:
        pass
    status = 0
    for game in games:
        status = max(
            status, _print_game(project, game, args.variant, formats, options, out, args.force)
        )
    return status


def _compile(project: Any, game: str, variant: str | None, sources: SourceCache) -> Any:
    """The game's (or variant's) IR with sources named from the project root, and diagnostics."""
    from compiler.build import _root_relative_sources
    from compiler.project import card_files, display_path

    folder = project.game_dir(game)
    files = card_files(folder)
    if variant:
        from compiler.variants import compile_variant, variant_names

        if variant not in variant_names(folder):
            problem = Diagnostic(
                "variant-not-found",
                f"'{variant}' is not a variant of {game}",
                file_span(project.relative(folder / "variants")),
                "error",
                (f"variants: {', '.join(variant_names(folder)) or 'none'}",),
                show_source=False,
            )
            return None, [problem]
        path = display_path(folder / "variants" / f"{variant}.yaml")
        result, overlay = compile_variant(folder, path, sources, files=files)
        if overlay is not None:
            files = [*files, *overlay.files]
    else:
        from compiler.pipeline import compile_game

        result = compile_game(folder, sources, files)
    if result.ir is not None:
        rel = [project.relative(p) for p in files]
        _root_relative_sources(result.ir, dict(zip(map(str, files), rel, strict=True)))
    return result.ir, result.diagnostics


def _digest(
    project: Any, game: str, ir: dict[str, Any], formats: tuple[str, ...], options: Any
) -> str:
    from compiler.build import _tool_digest
    from compiler.sheets.reference import REFERENCE_FILE

    digest = hashlib.blake2b(_tool_digest().encode(), digest_size=16)
    digest.update(json.dumps(ir, sort_keys=True).encode())
    digest.update(repr((sorted(formats), options)).encode())
    ref = project.game_dir(game) / REFERENCE_FILE
    digest.update(ref.read_bytes() if ref.is_file() else b"")
    # A variant's own reference (sheets/<variant>.reference.yaml) changes its sheet too.
    variant = ir.get("variant")
    if isinstance(variant, str):
        extra = project.game_dir(game) / "sheets" / f"{variant}.reference.yaml"
        digest.update(extra.read_bytes() if extra.is_file() else b"")
    return digest.hexdigest()


def _print_game(
    project: Any,
    game: str,
    variant: str | None,
    formats: tuple[str, ...],
    options: Any,
    out: Path,
    force: bool = False,
) -> int:
    """Write one game's sheets to ``out/<game>/``; an unchanged one is left as it is."""
    from compiler.cli import _emit
    from compiler.sheets import SheetError, render_sheet_files

    sources = SourceCache()
    ir, diagnostics = _compile(project, game, variant, sources)
    if _emit(diagnostics, sources, "text") or ir is None:
        return 1
    folder = out / game
    name = variant or game
    stamp_path = folder / f"{name}{_STAMP}"
    digest = _digest(project, game, ir, formats, options)
    try:
        stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stamp = {}
    if stamp.get("inputs") == digest and all(
        (folder / rel).is_file() and hashlib.sha256((folder / rel).read_bytes()).hexdigest() == sha
        for rel, sha in stamp.get("files", {}).items()
    ):
        print(f"{_shown(project, folder)}/{name}.*: up to date (not re-rendered)")
        return 0
    try:
        files = render_sheet_files(
            project, game, ir, variant=variant, formats=formats, options=options
        )
    except SheetError as error:
        return _emit(error.diagnostics(), sources, "text")
    from compiler.outputs import OutputRefused, check_output, write_atomic

    recorded = stamp.get("files", {}) if isinstance(stamp.get("files"), dict) else {}
    try:
        for rel in files:
            target = folder / Path(rel).name
            # A file this command wrote before (its record says so) or that carries cardc's
            # banner is replaced; anything else is the user's, and stays unless --force.
            check_output(target, force, ours=target.name in recorded)
    except OutputRefused as error:
        return _fail(str(error), *error.hints)
    folder.mkdir(parents=True, exist_ok=True)
    written = {}
    for rel, data in files.items():
        target = folder / Path(rel).name
        write_atomic(target, data)
        written[target.name] = hashlib.sha256(data).hexdigest()
    from compiler.sheets.pdf import renderer_problem

    problem = renderer_problem() if "pdf" in formats else None
    if problem is None:  # a run without its PDF is not up to date: no stamp
        stamp_path.write_text(json.dumps({"inputs": digest, "files": written}, indent=1) + "\n")
    for rel in sorted(written):
        print(f"wrote {_shown(project, folder / rel)}")
    if problem is not None:
        print(f"cardc sheets: error: no PDF written: {problem}", file=sys.stderr)
        print(
            "  hint: the other formats are written (the HTML's text not fitted to the cards)",
            file=sys.stderr,
        )
        return 1
    return 0


def _shown(project: Any, path: Path) -> str:
    return project.relative(path)
