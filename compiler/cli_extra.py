"""Subcommands beyond check / build / parse / new: ``cardc test``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from compiler.project import Project, find_project


def _stale(project: Project, args: argparse.Namespace) -> int | None:
    """Refuse a stale generated/ (exit 2), or rebuild it first with ``--build``.

    Scenarios run against generated/, never against the sources: after an edit to a card they
    would test the old rules and could pass what a rebuild fails. cardc test does not rebuild
    on its own, because generated/ is committed and reviewed, and a build can take seconds and
    fail with diagnostics of its own; ``--build`` asks for it.
    """
    from compiler.build import build, read_manifest, stale_games

    stale = stale_games(project)
    if not stale:
        return None
    if not args.build:
        # A game never built is not one that "changed since the last build".
        built = read_manifest(project.generated).get("games", {})
        changed = [g for g in stale if g in built]
        never = [g for g in stale if g not in built]
        said = []
        if changed:
            said.append(
                f"{', '.join(changed)} (or cardc itself) changed since the last 'cardc build', "
                "so scenarios would test the old rules"
            )
        if never:
            said.append(f"{', '.join(never)} never built")
        print(
            f"cardc test: generated/ is stale: {'; '.join(said)}\n"
            "  hint: run 'cardc build' first, or 'cardc test --build'",
            file=sys.stderr,
        )
        return 2
    from compiler.cli import _emit
    from dsl.diagnostics import SourceCache

    sources = SourceCache()
    outcome = build(project, [], check_only=False, sources=sources)
    status = _emit(outcome.diagnostics, sources, "text")
    for line in outcome.report:
        print(line, file=sys.stderr)
    return (status or outcome.status) or None


def _junit(results: list[Any], target: Path) -> None:
    """JUnit XML, one test suite a scenario file, for CI dashboards."""
    from xml.etree import ElementTree as ET

    suites = ET.Element("testsuites", name="cardc scenarios")
    by_file: dict[str, list[Any]] = {}
    for result in results:
        by_file.setdefault(result.path, []).append(result)
    for path, items in by_file.items():
        failures = sum(1 for r in items if not r.passed)
        suite = ET.SubElement(
            suites, "testsuite", name=path, tests=str(len(items)), failures=str(failures)
        )
        for result in items:
            case = ET.SubElement(
                suite,
                "testcase",
                name=result.name,
                classname=path,
                file=path,
                line=str(result.line),
            )
            if not result.passed:
                first = result.message.splitlines()[0] if result.message else "failed"
                failure = ET.SubElement(case, "failure", message=first)
                failure.text = result.message
    ET.indent(suites)
    target.write_bytes(ET.tostring(suites, encoding="utf-8", xml_declaration=True) + b"\n")


def _unknown_variant(project: Project, variant: str) -> str | None:
    """Why ``cardc test --variant V`` cannot run (V names no compiled variant of any game, or is
    no name), said once with the variants there are; None when some game has it. A game of
    the scenarios that lacks a variant another game has is still that scenario's failure."""
    from compiler.suggest import did_you_mean
    from engine.loader import name_problem

    problem = name_problem(variant, "variant")
    if problem is not None:
        return f"cardc test: --variant {problem}"
    compiled: dict[str, list[str]] = {}
    if project.generated.is_dir():
        for game in sorted(project.generated.iterdir()):
            if (game / "handlers.py").is_file():
                compiled[game.name] = sorted(
                    v.name for v in game.iterdir() if (v / "handlers.py").is_file()
                )
    if any(variant in names for names in compiled.values()):
        return None
    there = "; ".join(f"{game}: {', '.join(names)}" for game, names in compiled.items() if names)
    sources = [
        project.relative(path)
        for game in compiled
        if (path := project.game_dir(game) / "variants" / f"{variant}.yaml").is_file()
    ]
    hints = (
        (f"{sources[0]} is not compiled: run 'cardc build' (it says what keeps it from compiling)",)
        if sources
        else did_you_mean(variant, sorted({n for names in compiled.values() for n in names}))
    )
    return (
        f"cardc test: no game has a variant '{variant}' (--variant); "
        + (f"the variants there are: {there}" if there else "no game here has variants")
        + "".join(f"\n  hint: {hint}" for hint in hints)
    )


def cmd_test(args: argparse.Namespace) -> int:
    """``cardc test``: run scenario files against the compiled games."""
    from engine.loader import BASE_VARIANT
    from engine.scenario import Runner, scenario_files

    project = find_project()
    if project is None:
        print("cardc test: no project here (no cards/ above this folder)", file=sys.stderr)
        return 2
    paths = [Path(p) for p in args.paths] or [project.scenarios]
    missing = [p for p in paths if not p.exists()]
    if missing and not args.paths:
        missing = []  # no tests/scenarios/ yet: said below, with what to do
        paths = []
    if missing:
        print(f"cardc test: no such file or folder: {missing[0]}", file=sys.stderr)
        return 2
    from engine.scenario import SCENARIO_SUFFIXES

    if not args.paths and project.scenarios.is_file():
        shown = project.relative(project.scenarios)
        print(
            f"cardc test: {shown} is a file, where the project's scenarios folder goes\n"
            f"  hint: move it away, or name another folder in [tool.cardc] (scenarios = ...)",
            file=sys.stderr,
        )
        return 2
    # A card file named by mistake: read as YAML, it failed at its first '@' or '{'.
    other = [p for p in paths if p.is_file() and p.suffix not in SCENARIO_SUFFIXES]
    if other and args.paths:
        print(
            f"cardc test: {other[0]} is not a scenario file: a scenario is a .yaml (or .yml) "
            f"file\n  hint: cardc check {other[0]} checks a card file",
            file=sys.stderr,
        )
        return 2
    stale = _stale(project, args)
    if stale is not None:
        return stale
    if args.variant is not None and args.variant != BASE_VARIANT:
        # 'base' is the game itself, as in cardc sim --variant base (engine.scenario.Runner).
        unknown = _unknown_variant(project, args.variant)
        if unknown is not None:
            print(unknown, file=sys.stderr)
            return 2
    from compiler.project import display_path

    files = scenario_files(paths)
    if not files:
        where = ", ".join(str(display_path(p)) for p in paths) or str(
            display_path(project.scenarios)
        )
        print(
            f"cardc test: no scenarios in {where}: a scenario is a .yaml (or .yml) file there "
            "(one or more documents)\n  hint: 'cardc new GAME' writes a starter scenario; see "
            'README, "Scenarios"',
            file=sys.stderr,
        )
        if args.format == "json":
            print(json.dumps({"passed": 0, "failed": 0, "scenarios": []}))
        return 1
    runner = Runner(project.generated, variant=args.variant)
    results = []
    for path in (display_path(p) for p in files):
        for result in runner.run_file(path):
            results.append(result)
            if args.format == "json":
                continue
            if result.passed:
                if args.verbose:
                    print(f"ok    {result.path}:{result.line}: {result.name}")
            else:
                print(f"FAIL  {result.path}:{result.line}: {result.name}\n{result.message}\n")
    passed = sum(1 for r in results if r.passed)
    failed = len(results) - passed
    if args.junit:
        _junit(results, Path(args.junit))
    if args.format == "json":
        print(
            json.dumps(
                {
                    "passed": passed,
                    "failed": failed,
                    "scenarios": [
                        {
                            "path": r.path,
                            "line": r.line,
                            "name": r.name,
                            "passed": r.passed,
                            "message": r.message,
                        }
                        for r in results
                    ],
                },
                indent=1,
                ensure_ascii=False,
            )
        )
    else:
        total = passed + failed
        print(f"{passed} of {total} scenarios passed" + (f", {failed} failed" if failed else ""))
    return 1 if failed or not results else 0


def register(commands: argparse._SubParsersAction) -> None:
    """Add the subcommands of this module to the ``cardc`` parser."""
    test = commands.add_parser(
        "test",
        help="run scenario files (rules tests as data)",
        description="Run scenario files: given state, scripted dice and choices, steps, "
        "expected state. Default: every file under tests/scenarios/. A stale generated/ is "
        "refused (run 'cardc build', or pass --build).",
    )
    test.add_argument("paths", nargs="*", metavar="PATH", help="scenario files or folders")
    test.add_argument(
        "--variant", help="run against this variant of each game; base: the game itself"
    )
    test.add_argument("-v", "--verbose", action="store_true", help="list passing scenarios too")
    test.add_argument(
        "--build", action="store_true", help="rebuild a stale generated/ before running"
    )
    test.add_argument(
        "--format", choices=("text", "json"), default="text", help="json: one report on stdout"
    )
    test.add_argument("--junit", metavar="FILE", help="also write JUnit XML to FILE (for CI)")
    test.set_defaults(run=cmd_test)
