"""Subcommands beyond check / build / parse / new: ``cardc test``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from compiler.project import find_project


def cmd_test(args: argparse.Namespace) -> int:
    """``cardc test``: run scenario files against the compiled games."""
    from engine.scenario import Runner, scenario_files

    project = find_project()
    if project is None:
        print("cardc test: no project here (no cards/ above this folder)", file=sys.stderr)
        return 2
    paths = [Path(p) for p in args.paths] or [project.scenarios]
    missing = [p for p in paths if not p.exists()]
    if missing:
        print(f"cardc test: no such file or folder: {missing[0]}", file=sys.stderr)
        return 2
    from compiler.project import display_path

    runner = Runner(project.generated, variant=args.variant)
    passed = failed = 0
    for path in (display_path(p) for p in scenario_files(paths)):
        for result in runner.run_file(path):
            if result.passed:
                passed += 1
                if args.verbose:
                    print(f"ok    {result.path}:{result.line}: {result.name}")
            else:
                failed += 1
                print(f"FAIL  {result.path}:{result.line}: {result.name}\n{result.message}\n")
    total = passed + failed
    print(f"{passed} of {total} scenarios passed" + (f", {failed} failed" if failed else ""))
    return 1 if failed or total == 0 else 0


def register(commands: argparse._SubParsersAction) -> None:
    """Add the subcommands of this module to the ``cardc`` parser."""
    test = commands.add_parser(
        "test",
        help="run scenario files (rules tests as data)",
        description="Run scenario files: given state, scripted dice and choices, steps, "
        "expected state. Default: every file under tests/scenarios/.",
    )
    test.add_argument("paths", nargs="*", metavar="PATH", help="scenario files or folders")
    test.add_argument("--variant", help="run against this variant of each game")
    test.add_argument("-v", "--verbose", action="store_true", help="list passing scenarios too")
    test.set_defaults(run=cmd_test)
