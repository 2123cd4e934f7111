"""``cardc build``: compile every game to ``generated/``, atomically and incrementally.

The new tree is rendered in memory, written to a fresh sibling folder and swapped in whole
(:mod:`compiler.buildtree`: an atomic exchange where the system has one); a build that fails
writes nothing, one killed at any point leaves a whole tree, and a read-only tree or a full
disk is reported with ``generated/`` as it was. One build runs at a time
(:mod:`compiler.buildlock`); ``--check`` waits for a running build too.

A game whose inputs (its sources, the prelude, the grammar and cardc itself) hash the same as
at the last build is not recompiled: its files are carried over as they are. ``--check`` plans
the very same build, carrying over what the build would carry over, and lists every file under
``generated/`` that the build would change (stale, missing or extra): the two always agree.
``--rebuild`` renders every game again instead, so ``--check --rebuild`` asks whether
``generated/`` is what the sources compile to from scratch (CI asks that, with the renderer's
versions fixed by its constraints file: a PDF's bytes depend on them).
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from compiler import __version__
from compiler.buildlock import BuildLockError, build_lock
from compiler.buildtree import (
    PAUSE_AFTER_FILES,
    PAUSE_AT_SWAP,
    TreeWriteError,
    recover,
    starting_tree,
    unwritable,
    write_tree,
)
from compiler.filestat import FileStats
from compiler.generated_files import BANNER
from compiler.generated_files import json_bytes as _json_bytes
from compiler.generated_files import root_relative_sources as _root_relative_sources
from compiler.project import GAME_FILE, Project, card_files
from dsl.diagnostics import Diagnostic, SourceCache, file_span

if TYPE_CHECKING:
    from compiler.pipeline import GameResult

MANIFEST = "manifest.json"

#: Files whose content changes what any game compiles to.
_TOOL_FILES = [
    Path(__file__).parent / name
    for name in (
        "checker.py",
        "vocabulary.py",
        "emit_python.py",
        "ir_schema.py",
        "pipeline.py",
        "prelude.cards",
        "templates/handlers.py.j2",
        # render_handlers, render_game and card_files shape the outputs too (JSON banner,
        # source order).
        "build.py",
        "generated_files.py",
        "project.py",
        "variants.py",
        "variant_values.py",
        "md.py",
        # The flow, the DSL verbs and functions, the implementations they resolve to and a
        # variant's flow edits are lowered into the IR; diff words the errata sheets.
        "flow.py",
        "definitions.py",
        "implementations.py",
        "variant_flow.py",
        "diff.py",
        # A game's CARD_CHECKS refuse a build: which cards pass is the checker's; so does a
        # card's property read as a hex cell that is none.
        "card_checks.py",
        "cell_checks.py",
    )
] + [
    Path(__file__).parent.parent / "dsl" / name
    for name in ("grammar.lark", "parser.py", "yaml_load.py", "names.py")
]
# The sheets: their code, fonts and HTML template (compiler/sheets, templates/sheets).
_TOOL_FILES += sorted(
    p
    for folder in ("sheets", "templates/sheets")
    for p in (Path(__file__).parent / folder).rglob("*")
    if p.is_file() and "__pycache__" not in p.parts
)

# The scenario schemas (generated/<game>/scenario.schema.json) come from the game modules'
# declarations of what a scenario may name.
_ENGINE = Path(__file__).parent.parent / "engine"
_TOOL_FILES += [_ENGINE / f"scenario_{name}.py" for name in ("types", "check", "schema", "flow")]
# The modes a game may be played in: the scenario schemas' `mode` and a natives.py's MODES,
# which cardc check holds to them.
_TOOL_FILES += [_ENGINE / "modes.py"]
_TOOL_FILES += sorted((_ENGINE / "games").glob("*.py"))
# The standard library's signatures and docstrings are the vocabulary's (cards.json), and the
# decorators of a game's natives.py (engine/api.py) are read the same way.
_TOOL_FILES += sorted((_ENGINE / "stdlib").glob("*.py")) + [_ENGINE / "api.py"]
# The English helpers (a/an, plurals) word the checker's refusals and the sheets' text.
_TOOL_FILES += [_ENGINE / "words.py"]
# A parameter's bounds refuse a build (param-bounds), in that module's words.
_TOOL_FILES += [_ENGINE / "param_bounds.py"]
# The work budget refuses a literal count past it (too-much).
_TOOL_FILES += [_ENGINE / "budget.py"]

#: Emitters beyond the handlers register here (sheets): game -> {relative path: bytes}.
EXTRA_OUTPUTS: list[Callable[[Project, str, dict[str, Any]], dict[str, bytes]]] = []


def _sheet_outputs(project: Project, game: str, ir: dict[str, Any]) -> dict[str, bytes]:
    from compiler.sheets import sheet_outputs  # WeasyPrint loads only when a game is rendered

    return sheet_outputs(project, game, ir)


EXTRA_OUTPUTS.append(_sheet_outputs)


@dataclass
class BuildOutcome:
    """Diagnostics, report lines and exit status of a build."""

    diagnostics: list[Diagnostic] = field(default_factory=list)
    report: list[str] = field(default_factory=list)
    status: int = 0


def _tool_digest() -> str:
    digest = hashlib.blake2b(__version__.encode(), digest_size=16)
    for path in _TOOL_FILES:
        digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()


def input_digest(folder: Path, tool: str) -> str:
    """The hash of everything one game's outputs depend on."""
    digest = hashlib.blake2b(tool.encode(), digest_size=16)
    for path in sorted(folder.rglob("*")):
        # The sheets also read the game's own CSS, templates and art (sheets/, art/).
        sheet_file = path.relative_to(folder).parts[0] in ("sheets", "art")
        # The game's own Python (natives.py and its siblings) is an input too.
        python = path.suffix == ".py" and "__pycache__" not in path.parts
        if path.is_file() and (path.suffix in (".cards", ".yaml", ".yml") or sheet_file or python):
            digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def render_handlers(
    project: Project, folder: Path, sources: SourceCache
) -> tuple[dict[str, bytes], GameResult]:
    """Compile one game and render its ``handlers.py`` and ``cards.json`` in memory.

    Returns those two files (relative path under generated/ -> bytes; none when the game has
    errors) and the compiled game, whose diagnostics are the game's. :func:`render_game`
    goes on from here to the rest of the game's outputs; a watcher's quick build
    (compiler.watch) writes just these two, so they are byte for byte what a build writes.
    """
    from compiler.emit_python import emit_handlers
    from compiler.pipeline import compile_game

    files = card_files(folder)
    result = compile_game(folder, sources, files)
    if result.ir is None:
        return {}, result
    game = result.game
    rel = [project.relative(p) for p in files]
    _root_relative_sources(result.ir, dict(zip(map(str, files), rel, strict=True)))
    return {
        f"{game}/handlers.py": emit_handlers(result.ir, rel, project.relative(folder)).encode(),
        f"{game}/cards.json": _json_bytes(result.ir),
    }, result


def render_game(
    project: Project, folder: Path, sources: SourceCache, sheets: bool = True
) -> tuple[dict[str, bytes], list[Diagnostic]]:
    """Every output file of one game, in memory: relative path under generated/ -> bytes."""
    outputs, result = render_handlers(project, folder, sources)
    if result.ir is None:
        return {}, result.diagnostics
    game, files = result.game, result.files
    from compiler.sheets import SheetError
    from compiler.variants import render_variants

    try:
        for extra in EXTRA_OUTPUTS if sheets else ():
            outputs.update(extra(project, game, result.ir))
        # Every variant (cards/<game>/variants/*.yaml) to <game>/<variant>/; the game's input
        # digest covers its variants folder, so they are cached with it.
        variants, problems = render_variants(
            project, folder, sources, files, result.diagnostics, sheets=sheets
        )
    except SheetError as error:  # text that does not fit a card: at the card's line
        return {}, [*result.diagnostics, *error.diagnostics()]
    if any(d.severity == "error" for d in problems):
        return {}, result.diagnostics + problems
    outputs.update(variants)
    outputs.update(_scenario_schemas(outputs, folder, game, result.ir))
    return outputs, result.diagnostics + problems


def _scenario_schemas(
    outputs: dict[str, bytes], source: Path, game: str, ir: dict[str, Any]
) -> dict[str, bytes]:
    """``scenario.schema.json`` beside each compiled game and variant: what its scenarios may
    name, for a YAML editor (see README, "Scenarios").

    The game's own IR is ``ir`` (what its cards.json was written from); a variant's is read
    back from its cards.json. What each card asks is kept with the card (compiler.filecache),
    and the schema is written without a round trip through ``json``: a one-file edit of a
    10,000-card game spent 0.4 s of its build here."""
    from compiler.filecache import card_memo
    from engine.loader import game_rules
    from engine.scenario_schema import game_schema

    irs = {
        rel[: -len("/cards.json")]: json.loads(data)
        for rel, data in outputs.items()
        if rel.endswith("/cards.json") and rel != f"{game}/cards.json"
    }
    irs[game] = ir
    variants = sorted(prefix.split("/", 1)[1] for prefix in irs if "/" in prefix)
    out = {}
    for prefix, each in sorted(irs.items()):
        rules = game_rules(str(each["game"]), source=source)
        schema = game_schema(each, rules, variants if "/" not in prefix else None, card_memo)
        out[f"{prefix}/scenario.schema.json"] = _json_bytes(schema, sort_keys=True)
    return out


def stale_games(project: Project) -> list[str]:
    """The games whose sources (or cardc) changed since generated/ was built: the input
    digests of the last build's manifest, against the sources' now (no compiling)."""
    games = read_manifest(project.generated).get("games", {})
    tool = _tool_digest()
    stale = []
    for game in project.games():
        entry = games.get(game)
        if not isinstance(entry, dict) or entry.get("inputs") != input_digest(
            project.game_dir(game), tool
        ):
            stale.append(game)
    return stale


#: The shared schemas, made once a process: they depend on cardc's code alone.
_SHARED: dict[str, bytes] = {}


def _shared_outputs() -> dict[str, bytes]:
    if _SHARED:
        return dict(_SHARED)
    from compiler.ir_schema import schema_text
    from engine.scenario import SCENARIO_SCHEMA

    # Like every generated JSON file, each schema's first key is the "_generated" banner (an
    # unknown keyword, which JSON Schema ignores); the rest keeps the sorted published order.
    _SHARED.update(
        {
            "schema/ir.schema.json": _json_bytes(json.loads(schema_text())),
            "schema/scenario.schema.json": _json_bytes(SCENARIO_SCHEMA, sort_keys=True),
        }
    )
    return dict(_SHARED)


def read_manifest(generated: Path) -> dict[str, Any]:
    """The last build's ``manifest.json`` in ``generated`` (``{"cardc": version, "games":
    {game: {"inputs": digest, "files": {path: sha256}, ...}}}``); ``{}`` when it is missing,
    unreadable or not a JSON object."""
    try:
        data = json.loads((generated / MANIFEST).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def sha256_hex(data: bytes) -> str:
    """The hash the manifest records for a generated file: SHA-256 of its bytes, in hex."""
    return hashlib.sha256(data).hexdigest()


def select_games(project: Project, paths: list[str]) -> tuple[list[Path], list[Diagnostic]]:
    """The game folders ``paths`` name (a folder holding a game.cards, or a game's name under
    cards/), every game of the project when ``paths`` is empty; and a ``game-not-found`` error
    for each path that names no game."""
    if not paths:
        return [project.game_dir(g) for g in project.games()], []
    folders, problems = [], []
    for raw in paths:
        path = Path(raw)
        if (path / GAME_FILE).is_file():
            folders.append(path)
        elif (project.cards / raw / GAME_FILE).is_file():
            folders.append(project.cards / raw)
        else:
            from compiler.suggest import did_you_mean

            problems.append(
                Diagnostic(
                    "game-not-found",
                    f"'{raw}' is not a game folder (no {GAME_FILE})",
                    file_span(raw),
                    "error",
                    did_you_mean(raw, project.games()) or (f"games: {', '.join(project.games())}",),
                    show_source=False,
                )
            )
    return folders, problems


def build(
    project: Project,
    paths: list[str],
    check_only: bool,
    sources: SourceCache,
    sheets: bool = True,
    rebuild: bool = False,
) -> BuildOutcome:
    """Build (or, with ``check_only``, verify) ``generated/`` for the selected games.

    ``sheets=False`` (``cardc build --no-sheets``) skips the printable sheets, the slow part
    (WeasyPrint lays out every card): the sheets already in generated/ stay as they are, and
    the next full build renders them again. ``rebuild=True`` (``--rebuild``) renders every
    selected game, carrying none over.
    """
    # A build allocates millions of small objects (syntax trees, IR) and keeps nearly all of
    # them to its end; the cyclic collector's passes over them took a third of a 10,000-card
    # build and reclaim little. It runs again, once, when the build is over.
    enabled = gc.isenabled()
    gc.disable()
    stored_sheets: contextlib.AbstractContextManager[None] = contextlib.nullcontext()
    if rebuild and sheets:
        # --rebuild renders anew: no sheet taken whole from the cache (its faces still are).
        from compiler.sheets import stored_sheets_unused

        stored_sheets = stored_sheets_unused()
    try:
        # The layout processes (started at the first game rendered) end before the lock.
        with build_lock(project), stored_sheets, contextlib.ExitStack() as early:
            return _build(project, paths, check_only, sources, sheets, rebuild, early)
    except BuildLockError as error:
        if check_only and not lock_needed(project):
            # A read-only project: nobody builds it, so a check needs no lock to read it.
            with contextlib.ExitStack() as early:
                return _build(project, paths, check_only, sources, sheets, rebuild, early)
        return _failed(project, str(error), error.hint)
    finally:
        if enabled:
            gc.enable()


def _pdf_problem(outcome: BuildOutcome) -> str | None:
    """Why this machine makes no PDF sheets (WeasyPrint or Pango missing); warns once."""
    from compiler.sheets.pdf import INSTALL_PANGO, renderer_problem

    problem = renderer_problem()
    if problem is not None and not any(d.code == "sheet-pdf" for d in outcome.diagnostics):
        outcome.diagnostics.append(
            Diagnostic(
                "sheet-pdf",
                f"PDF sheets not written: {problem}",
                file_span("generated/sheets"),
                "warning",
                (
                    "the HTML and Markdown sheets are written (their text not fitted to the "
                    "cards); PDFs already in generated/ are kept, and the next build that can "
                    f"run WeasyPrint renders them ({INSTALL_PANGO})",
                ),
                show_source=False,
            )
        )
    return problem


def lock_needed(project: Project) -> bool:
    """Whether the project folder can be written at all (a build, and so a lock, is possible)."""
    import os

    return os.access(project.root, os.W_OK)


def write_problem(project: Project, message: str, hint: str) -> Diagnostic:
    """``generated/`` could not be written (it is as it was): the one error a build (or the
    watcher's quick build) gives for it."""
    return Diagnostic(
        "build-write",
        message,
        file_span(project.relative(project.generated)),
        "error",
        (hint,),
        show_source=False,
    )


def _failed(project: Project, message: str, hint: str) -> BuildOutcome:
    """A build that did not start or did not finish, ``generated/`` unchanged: one error."""
    outcome = BuildOutcome(status=1)
    outcome.diagnostics.append(write_problem(project, message, hint))
    return outcome


def _build(
    project: Project,
    paths: list[str],
    check_only: bool,
    sources: SourceCache,
    sheets: bool,
    rebuild: bool = False,
    early: contextlib.ExitStack | None = None,
) -> BuildOutcome:
    outcome = BuildOutcome()
    generated = project.generated
    if not check_only:
        problem = unwritable(generated)
        if problem is not None:
            return _failed(project, str(problem), problem.hint)
        outcome.report.extend(recover(generated))
    else:
        # What the build would start from: an interrupted swap's old tree, put back.
        generated = starting_tree(generated)
    folders, problems = select_games(project, paths)
    outcome.diagnostics.extend(problems)
    if problems:
        return outcome
    manifest = read_manifest(generated)
    previous: dict[str, Any] = manifest.get("games", {})
    tool = _tool_digest()
    outputs: dict[str, bytes] = _shared_outputs()
    games: dict[str, Any] = {}
    rebuilt, reused = [], []
    stats = FileStats(project.root, generated)
    carried_files: dict[str, bytes] = {}
    carried_shas: dict[str, str] = {}
    on_disk: dict[str, Path] | None = None
    selected = {folder.name for folder in folders}
    for folder in folders:
        game = folder.name
        digest = input_digest(folder, tool)
        old = previous.get(game)
        # --check carries over exactly what the build would: a check that rendered the game
        # anew would call a committed file stale that the build keeps, whenever the renderer
        # (WeasyPrint, Pango, fontTools) differs from the one that made it.
        carried = None if rebuild else _carry_over(generated, old, digest, sheets, stats)
        if carried is not None:
            outputs.update(carried)
            carried_files.update(carried)
            carried_shas.update(old["files"] if isinstance(old, dict) else {})
            reused.append(game)
        else:
            if sheets and early is not None:
                # The processes that lay the sheets' faces out start now and load WeasyPrint
                # while this one compiles the game (see compiler.sheets.faces).
                from compiler.sheets.faces import layout_processes

                early.enter_context(layout_processes())
                early = None
            files, diagnostics = render_game(project, folder, sources, sheets)
            outcome.diagnostics.extend(diagnostics)
            if not files:
                continue
            outputs.update(files)
            rebuilt.append(game)
        # Without WeasyPrint or Pango the HTML and Markdown sheets are written, not the PDFs.
        no_pdf = sheets and carried is None and _pdf_problem(outcome) is not None
        if not sheets or no_pdf:
            # The game's sheets stay as they are on disk; the manifest says they were not
            # rendered from these inputs, so the next full build renders them.
            if on_disk is None:  # listed once a build, not once a game
                on_disk = existing_files(generated)
            for rel, path in on_disk.items():
                if rel.startswith(f"sheets/{game}/") and rel not in outputs:
                    outputs[rel] = path.read_bytes()
        games[game] = {
            "inputs": digest,
            "files": {
                # A file carried over has the hash it was carried for.
                p: carried_shas[p] if carried_files.get(p) is b else sha256_hex(b)
                for p, b in sorted(outputs.items())
                if p.startswith((game + "/", f"sheets/{game}/"))
            },
        }
        rendered_without_sheets = carried is None and not sheets
        carried_without_sheets = (
            carried is not None and isinstance(old, dict) and old.get("sheets") is False
        )
        if rendered_without_sheets or carried_without_sheets or no_pdf:
            games[game]["sheets"] = False
    if paths:
        # Games not selected this time keep their files as they are on disk.
        for rel, path in existing_files(generated).items():
            owner = rel.split("/")[1] if rel.startswith("sheets/") else rel.split("/")[0]
            if rel not in outputs and owner not in selected:
                outputs[rel] = path.read_bytes()
        for game, entry in previous.items():
            if game not in selected and (project.cards / game / GAME_FILE).is_file():
                games.setdefault(game, entry)
    if any(d.severity == "error" for d in outcome.diagnostics):
        outcome.report.append(
            "build failed: generated/ is unchanged" if not check_only else "check failed"
        )
        outcome.status = 1
        return outcome
    outputs[MANIFEST] = _json_bytes({"cardc": __version__, "games": dict(sorted(games.items()))})
    if check_only:
        return _compare(generated, outputs, outcome)
    stats.save()
    if _same_tree(generated, outputs, frozenset(carried_files)):
        detail = f"{_count(len(reused), 'game')} unchanged"
        if rebuilt:  # recompiled (cardc itself changed) to the very same bytes
            detail = f"{_count(len(rebuilt), 'game')} recompiled to the same files"
        outcome.report.append(f"generated/ is up to date ({detail})")
        return outcome
    try:
        outcome.report.extend(write_tree(generated, outputs))
    except TreeWriteError as error:
        failed = _failed(project, str(error), error.hint)
        failed.diagnostics[:0] = outcome.diagnostics
        failed.report = outcome.report
        return failed
    if sheets and rebuilt:
        # The sheets' face cache keeps within its budget (least recently used out first).
        from compiler.sheets.faces import prune_cache

        prune_cache(project.root)
    outcome.report.append(
        f"built {_count(len(rebuilt), 'game')}"
        + (f" ({', '.join(rebuilt)})" if rebuilt else "")
        + (f", {len(reused)} unchanged" if reused else "")
        + f": {len(outputs)} files in {project.relative(generated)}/"
    )
    return outcome


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _carry_over(
    generated: Path, entry: Any, digest: str, sheets: bool = True, stats: FileStats | None = None
) -> dict[str, bytes] | None:
    """The files of an unchanged game, when they are on disk exactly as last built (their
    hashes checked, or known unchanged since they were: :mod:`compiler.filestat`)."""
    if not isinstance(entry, dict) or entry.get("inputs") != digest:
        return None
    if sheets and entry.get("sheets") is False:  # last built with --no-sheets
        return None
    files: dict[str, bytes] = {}
    for rel, sha in entry.get("files", {}).items():
        path = generated / rel
        if stats is not None:
            found = stats.read(path, rel, sha)
            if found is None:
                return None
            files[rel] = found
            continue
        try:
            data = path.read_bytes()
        except OSError:
            return None
        if sha256_hex(data) != sha:
            return None
        files[rel] = data
    return files or None


def existing_files(generated: Path) -> dict[str, Path]:
    """Every file under ``generated`` now (``__pycache__`` left out): its path relative to
    ``generated``, with forward slashes -> its path; ``{}`` when there is no such folder."""
    if not generated.is_dir():
        return {}
    return {
        p.relative_to(generated).as_posix(): p
        for p in generated.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }


def _same_tree(
    generated: Path, outputs: dict[str, bytes], carried: frozenset[str] = frozenset()
) -> bool:
    """Whether ``generated`` holds exactly ``outputs``; the files in ``carried`` were read
    from it by this build, under the build lock, so they are not read again."""
    existing = existing_files(generated)
    if set(existing) != set(outputs):
        return False
    return all(
        rel in carried or existing[rel].read_bytes() == data for rel, data in outputs.items()
    )


def _compare(generated: Path, outputs: dict[str, bytes], outcome: BuildOutcome) -> BuildOutcome:
    existing = existing_files(generated)
    stale = sorted(
        rel for rel in outputs if rel in existing and existing[rel].read_bytes() != outputs[rel]
    )
    missing = sorted(set(outputs) - set(existing))
    extra = sorted(set(existing) - set(outputs))
    for label, rels in (("stale", stale), ("missing", missing), ("extra", extra)):
        for rel in rels:
            outcome.report.append(f"{label}: generated/{rel}")
    if stale or missing or extra:
        outcome.report.append(
            f"generated/ is out of date ({len(stale)} stale, {len(missing)} missing, "
            f"{len(extra)} extra): run 'cardc build'"
        )
        outcome.status = 1
    else:
        outcome.report.append(f"generated/ is up to date ({len(outputs)} files)")
    return outcome


__all__ = [
    "BANNER",
    "PAUSE_AFTER_FILES",
    "PAUSE_AT_SWAP",
    "BuildOutcome",
    "build",
    "existing_files",
    "read_manifest",
    "render_game",
    "write_problem",
    "render_handlers",
    "select_games",
    "sha256_hex",
]
