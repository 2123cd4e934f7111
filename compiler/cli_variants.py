"""``cardc variant new|set|unset`` and ``cardc diff``: rule variants edited as data.

``variant set`` and ``variant unset`` edit the overlay through ruamel.yaml's round trip, so
comments, key order and quoting survive, and a ``set`` then ``unset`` of a new key gives back
the file byte for byte. An edit is compiled in memory first; one that would not check is
refused with the diagnostics, and the file is left as it was.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from compiler.project import Project, card_files, display_path, find_project
from dsl.diagnostics import Diagnostic, SourceCache, render_all

_TEMPLATE = """\
# {title}: what this variant changes from the {base}, and why.
# Keys (all optional): extends, description, use, params, tracks, cards, remove,
# remove_kinds, add, add_files, verbs, flow.
# See `cardc variant --help`; every value is checked like the base game's cards.
description: {name}
"""


def _project() -> Project | None:
    project = find_project()
    if project is None:
        print("cardc: no project here (no cards/ above this folder)", file=sys.stderr)
    return project


def _split(project: Project, spec: str, need_variant: bool) -> tuple[Path, str | None] | None:
    """``GAME/NAME`` -> (the game folder, NAME); None (after a message) when GAME is unknown."""
    from compiler.suggest import did_you_mean

    game, _, name = spec.partition("/")
    games = project.games()
    if game not in games:
        hint = did_you_mean(game, games) or (f"games: {', '.join(games)}",)
        print(f"cardc: '{game}' is not a game of this project\n  hint: {hint[0]}", file=sys.stderr)
        return None
    if need_variant and not name:
        print(f"cardc: name the variant: {game}/NAME", file=sys.stderr)
        return None
    return project.game_dir(game), name or None


def _variant_file(folder: Path, name: str, must_exist: bool) -> Path | None:
    from compiler.suggest import did_you_mean
    from compiler.variants import VARIANTS_DIR, variant_names

    path = display_path(folder / VARIANTS_DIR / f"{name}.yaml")
    if must_exist and not path.is_file():
        known = variant_names(folder)
        hint = did_you_mean(name, known) or (f"variants: {', '.join(known) or 'none yet'}",)
        print(
            f"cardc: '{folder.name}/{name}' is not a variant (no {path})\n  hint: {hint[0]}",
            file=sys.stderr,
        )
        return None
    return path


def _emit(diagnostics: list[Diagnostic], sources: SourceCache) -> int:
    text = render_all(diagnostics, sources, "text")
    if text:
        print(text, file=sys.stderr)
    return 1 if any(d.severity == "error" for d in diagnostics) else 0


def cmd_variant_new(args: argparse.Namespace) -> int:
    """``cardc variant new GAME/NAME``: a new overlay file with a commented header."""
    from compiler.variants import _NAME
    from engine.loader import BASE_VARIANT

    project = _project()
    split = _split(project, args.variant, True) if project else None
    if split is None:
        return 2
    folder, name = split
    assert name is not None
    if not _NAME.match(name):
        print(f"cardc: '{name}' is not a variant name: use lower_snake_case", file=sys.stderr)
        return 2
    if name == BASE_VARIANT:
        # It would never be played or compared: GAME/base and --variant base are the game.
        print(
            f"cardc: '{name}' names the game itself (cardc diff {folder.name}/base, "
            f"cardc sim --variant base), not a variant\n  hint: name it for its rule, such as "
            f"{folder.name}/house",
            file=sys.stderr,
        )
        return 2
    path = _variant_file(folder, name, False)
    assert path is not None
    if path.exists():
        print(f"cardc: {path} already exists", file=sys.stderr)
        return 1
    text = _TEMPLATE.format(
        title=name.replace("_", " ").capitalize(),
        base=f"variant {args.extends}" if args.extends else "base game",
        name=name,
    )
    if args.extends:
        text += f"extends: {args.extends}\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    status = _check_text(folder, path, text)
    if status:
        path.unlink()
        return status
    print(f"created {path}")
    return 0


def _check_text(folder: Path, path: Path, text: str) -> int:
    """Compile the variant with ``text`` as its file; print what is wrong; the exit status."""
    from compiler.variants import compile_variant

    sources = SourceCache()
    result, _overlay = compile_variant(folder, path, sources, text=text, files=card_files(folder))
    problems = [d for d in result.diagnostics if d.severity == "error"]
    return _emit(problems, sources)


def _parse_path(raw: str) -> list[str]:
    """PATH (``cards.smoke_bomb.copies``) as its keys; ValueError saying why it is not one."""
    parts = raw.split(".")
    if not raw or any(not part.strip() for part in parts):
        raise ValueError(
            f"'{_shown(raw)}' is not a PATH: write keys joined by dots, such as "
            "params.rounds or cards.smoke_bomb.copies"
        )
    return parts


def _shown(text: str) -> str:
    """``text`` for a message: control characters (terminal escapes) made visible."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _value(raw: str) -> Any:
    """VALUE as YAML: ``13`` is a number, ``[3, 6]`` a list, ``highest(2d6)`` a string."""
    from ruamel.yaml.error import YAMLError

    from compiler.variants import yaml_round_trip

    try:
        return yaml_round_trip().load(raw)
    except YAMLError:
        return raw


def _refused(error: Any) -> int:
    print(f"cardc: {error}", file=sys.stderr)
    for hint in error.hints:
        print(f"  hint: {hint}", file=sys.stderr)
    return 1


def _edit(args: argparse.Namespace, change: Any, done: str) -> int:
    """Load the variant, ``change(document, parts)``, check the result, write it atomically."""
    from compiler.variant_edit import EditRefused, read_document, render, write_atomic

    project = _project()
    split = _split(project, args.variant, True) if project else None
    if split is None:
        return 2
    folder, name = split
    assert name is not None
    path = _variant_file(folder, name, True)
    if path is None:
        return 2
    try:
        parts = _parse_path(args.path)
    except ValueError as error:
        print(f"cardc: {error}", file=sys.stderr)
        return 2
    try:
        document = read_document(path)
        status = change(document, parts)
        if status:
            return int(status)
        data = render(document)
    except EditRefused as error:
        print(f"cardc: {path} is unchanged", file=sys.stderr)
        return _refused(error)
    text = data.decode("utf-8").lstrip("\ufeff").replace("\r\n", "\n")
    status = _check_text(folder, path, text)
    if status:
        print(f"cardc: {path} is unchanged", file=sys.stderr)
        return status
    write_atomic(path, data)
    print(f"{path}: {_shown(args.path)}{done}")
    return 0


def cmd_variant_set(args: argparse.Namespace) -> int:
    """``cardc variant set GAME/NAME PATH VALUE``: set one value, keeping everything else."""
    from compiler.variant_edit import set_value

    def change(document: Any, parts: list[str]) -> int:
        set_value(document.data, parts, _value(args.value))
        return 0

    return _edit(args, change, f" = {_shown(args.value)}")


def cmd_variant_unset(args: argparse.Namespace) -> int:
    """``cardc variant unset GAME/NAME PATH``: remove one value (and keys left empty by it)."""
    from compiler.suggest import did_you_mean
    from compiler.variant_edit import item_index, unset_value

    def change(document: Any, parts: list[str]) -> int:
        node = document.data
        for depth, part in enumerate(parts):
            if isinstance(node, list):  # flow: edits, by number (EditRefused says which)
                node = node[item_index(node, part, ".".join(parts[:depth]))]
                continue
            if not isinstance(node, dict) or part not in node:
                pool = [str(k) for k in node] if isinstance(node, dict) else []
                hint = did_you_mean(part, pool) or (
                    (f"{'.'.join(parts[:depth]) or 'the file'} holds: {', '.join(pool)}",)
                    if pool
                    else ()
                )
                print(
                    f"cardc: {args.variant} does not set {_shown(args.path)}"
                    + (f"\n  hint: {hint[0]}" if hint else ""),
                    file=sys.stderr,
                )
                return 1
            node = node[part]
        document.suffix = unset_value(document.data, parts)
        return 0

    return _edit(args, change, " unset")


def _compile(project: Project, folder: Path, variant: str | None, sources: SourceCache) -> Any:
    from compiler.pipeline import compile_game
    from compiler.variants import compile_variant

    files = card_files(folder)
    if variant is None:
        return compile_game(folder, sources, files)
    path = _variant_file(folder, variant, True)
    if path is None:
        return None
    result, _overlay = compile_variant(folder, path, sources, files=files)
    return result


def cmd_diff(args: argparse.Namespace) -> int:
    """``cardc diff GAME[/A] GAME/B``: what B changes from A (the base game by default)."""
    from compiler.diff import diff_ir
    from engine.loader import BASE_VARIANT

    project = _project()
    if project is None:
        return 2
    first = _split(project, args.before, False)
    second = _split(project, args.after, False)
    if first is None or second is None:
        return 2
    # GAME/base is the game itself, as cardc sim and cardc test --variant base name it.
    first, second = (
        (folder, None if name == BASE_VARIANT else name) for folder, name in (first, second)
    )
    if first[0] != second[0]:
        print("cardc: a diff compares two versions of one game", file=sys.stderr)
        return 2
    if args.errata is not None and not args.errata.strip():
        # `--errata ""` (an unset shell variable): it wrote nothing and said nothing.
        print(
            "cardc: --errata needs a file name: name a .md or .html file (--errata errata.md)",
            file=sys.stderr,
        )
        return 2
    errata = Path(args.errata) if args.errata else None
    if errata is not None:
        from compiler.outputs import OutputRefused, check_output

        if errata.suffix.lower() not in (".md", ".html", ".htm"):
            print(
                f"cardc: --errata {_shown(str(errata))}: name a .md or .html file", file=sys.stderr
            )
            return 2
        try:
            check_output(errata, args.force)
        except OutputRefused as error:
            return _refused(error) + (1 if errata.is_dir() else 0)  # a folder: a usage error
    sources = SourceCache()
    results = [_compile(project, first[0], first[1], sources)]
    results.append(_compile(project, second[0], second[1], sources))
    if any(r is None for r in results):
        return 2
    problems = [d for r in results for d in r.diagnostics if d.severity == "error"]
    if problems or any(r.ir is None for r in results):
        return _emit(problems, sources) or 1
    diff = diff_ir(results[0].ir, results[1].ir)
    print(diff.text())
    if args.errata:
        from compiler.diff import write_errata

        written = write_errata(project, diff, results[1].ir, errata, force=args.force)
        print("wrote " + ", ".join(written))
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """Add ``variant`` and ``diff`` to the ``cardc`` parser."""
    variant = commands.add_parser(
        "variant",
        help="create and edit rule variants (cards/GAME/variants/NAME.yaml)",
        description="A variant is a YAML overlay on a game: params, tracks, card properties, "
        "removed cards, new cards, verbs and flow edits in the DSL. PATH is dotted: "
        "params.rounds, cards.smoke_bomb.copies, tracks.durability.length; an item of the flow "
        "list by its number from 0: flow.0.before (flow.N, one past the last, adds an edit). "
        "Comments, key order and quoting are kept; an edit that would not check is refused.",
    )
    actions = variant.add_subparsers(dest="action", metavar="ACTION")
    new = actions.add_parser("new", help="create GAME/NAME", description="Create a variant file.")
    new.add_argument("variant", metavar="GAME/NAME")
    new.add_argument("--extends", metavar="VARIANT", help="start from another variant")
    new.set_defaults(run=cmd_variant_new)
    set_ = actions.add_parser(
        "set", help="set PATH to VALUE", description="Set one value (VALUE is YAML: 13, [3, 6])."
    )
    set_.add_argument("variant", metavar="GAME/NAME")
    set_.add_argument("path", metavar="PATH")
    set_.add_argument("value", metavar="VALUE")
    set_.set_defaults(run=cmd_variant_set)
    unset = actions.add_parser("unset", help="remove PATH", description="Remove one value.")
    unset.add_argument("variant", metavar="GAME/NAME")
    unset.add_argument("path", metavar="PATH")
    unset.set_defaults(run=cmd_variant_unset)
    variant.set_defaults(run=lambda args: (variant.print_help(), 2)[1])

    diff = commands.add_parser(
        "diff",
        help="what a variant changes: parameters, flow, verbs and cards, from what to what",
        description="A semantic diff of two versions of a game: GAME (the base; GAME/base too) "
        "or GAME/VARIANT. "
        "With --errata, also an errata sheet listing exactly the changed cards.",
    )
    diff.add_argument("before", metavar="GAME[/A]")
    diff.add_argument("after", metavar="GAME/B")
    diff.add_argument("--errata", metavar="FILE", help="write an errata sheet (.md or .html)")
    diff.add_argument(
        "--force", action="store_true", help="replace an --errata file cardc did not write"
    )
    diff.set_defaults(run=cmd_diff)
