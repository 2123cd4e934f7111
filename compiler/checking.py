"""``cardc check``: the games some paths belong to, each with its variants, and loose files.

Above :mod:`compiler.pipeline` (one game) and :mod:`compiler.variants` (a game's overlays):
the pipeline compiles a game and knows nothing of variants, which compile their game through
it, so this, which needs both, sits over them (the import graph stays acyclic).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from compiler.pipeline import CheckResult, compile_game, game_folder, parse_all
from compiler.project import Project
from dsl.diagnostics import SourceCache
from dsl.nodes import SourceFile

#: compiler.variants.VARIANTS_DIR (a test keeps the two equal), named here so that checking a
#: game without variants never imports compiler.variants.
VARIANTS_DIR = "variants"


def check_paths(paths: list[Path], project: Project | None, sources: SourceCache) -> CheckResult:
    """Parse and check ``paths``: each file's whole game, or the file alone outside a game."""
    result = CheckResult()
    folders: dict[Path, None] = {}
    loose: list[Path] = []
    for path in paths:
        folder = game_folder(path) if path.is_file() else None
        if folder is None:
            loose.append(path)
        else:
            folders.setdefault(folder, None)
    files, diagnostics = parse_all(loose, sources)
    result.files.extend(files)
    result.diagnostics.extend(diagnostics)
    for folder in folders:
        game = compile_game(folder, sources)
        result.games.append(game)
        result.diagnostics.extend(game.diagnostics)
        result.files.extend(SourceFile(str(p), ()) for p in game.files)
        if game.ok and (folder / VARIANTS_DIR).is_dir():
            # Variants are checked against a base that compiles; their errors are their own.
            # compiler.variants is imported only for a game that has some (a fast start).
            from compiler.variants import check_variants

            irs: dict[str, Any] = {}
            result.diagnostics.extend(
                check_variants(
                    folder, sources, game.files, game.diagnostics, result.variant_provisional, irs
                )
            )
            result.variant_irs.update(((folder.name, name), ir) for name, ir in irs.items())
        elif not (folder / VARIANTS_DIR).is_dir() and any(
            (folder / "sheets").glob("*.reference.yaml")
        ):
            # A variant's reference in a game without variants: no sheet reads it.
            from compiler.variants import unread_references

            result.diagnostics.extend(unread_references(folder))
    return result
