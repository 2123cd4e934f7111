"""Loading a project's compiled game by path.

Handlers are imported from the project's own ``generated/<game>/handlers.py`` under a module
name derived from that path, never as a package, so a designer's project and the games shipped
with cardc can both be loaded in one process without shadowing each other.

A game or variant named by a user (a scenario's ``game:``/``variant:``, ``cardc sim GAME
--variant V``) is resolved by name only, inside the project's ``generated/``: a name that is a
path (``../x``, ``/tmp/x``, ``a.b``) is an error, so no input can point cardc at a module
elsewhere on disk and have it run. The IR is validated against the schema the build published
beside it (``generated/schema/ir.schema.json``) before its handlers are executed.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.native_checks import checked_natives
from engine.runtime import Game, HandlerTable, Policy, RuleError

#: A game's or variant's name: the DSL's own names (game ids and variant files are named so).
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: Where a build publishes the IR schema, relative to generated/.
IR_SCHEMA = Path("schema") / "ir.schema.json"
#: The name that means the game itself, with no overlay, where a variant is named: cardc sim
#: and cardc test ``--variant base``, ``cardc diff GAME/base``, ``--compare base``.
BASE_VARIANT = "base"


def name_problem(name: object, what: str = "game") -> str | None:
    """Why ``name`` cannot name a game or variant (it is a path, or empty), or None."""
    text = str(name)
    if NAME.fullmatch(text):
        return None
    return (
        f"'{_shown(text)}' is not a {what} name: a {what} is named by its name alone "
        "(letters, digits and '_'), never by a path"
    )


def _shown(text: str) -> str:
    """``text`` for a message: control characters (terminal escapes) made visible."""
    shown = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return shown if len(shown) <= 80 else shown[:77] + "..."


def compiled_folder(generated: Path, game: str, variant: str | None = None) -> Path:
    """``generated/<game>[/<variant>]``, after checking both are names, not paths.

    Raises :class:`RuleError` for a path-like name; whether the folder holds a compiled game
    is for the caller (it knows what to suggest).
    """
    for value, what in ((game, "game"), (variant, "variant")):
        if value is not None:
            problem = name_problem(value, what)
            if problem:
                raise RuleError(problem)
    folder = generated / game
    return folder / variant if variant is not None else folder


#: Validators by schema bytes, and IR already found valid (by its bytes): a simulation or a
#: test suite loads the same few games many times.
_VALIDATORS: dict[bytes, Any] = {}
_VALID_IR: set[bytes] = set()


def schema_beside(folder: Path) -> Path | None:
    """The IR schema of the build that wrote ``folder`` (a game's or a variant's)."""
    for root in (folder.parent, folder.parent.parent):
        if (root / IR_SCHEMA).is_file():
            return root / IR_SCHEMA
    return None


def _first_error(schema_path: Path, schema_raw: bytes, ir: Any) -> str | None:
    """Where and how ``ir`` breaks the schema (``/pointer: message``), or None when valid.

    The compiled validator answers first (a few milliseconds for a whole game); jsonschema,
    a hundred times slower, runs only to explain IR that is rejected.
    """
    import jsonschema_rs

    fast = _VALIDATORS.get(schema_raw)
    if fast is None:
        try:
            fast = jsonschema_rs.Draft202012Validator(json.loads(schema_raw))
        except Exception as error:  # noqa: BLE001 - any broken schema file says the same
            raise RuleError(
                f"{schema_path}: not a valid schema ({error}); run 'cardc build'"
            ) from error
        _VALIDATORS[schema_raw] = fast
    if fast.is_valid(ir):
        return None
    # jsonschema takes a quarter of a second to import: only for IR that is wrong.
    from jsonschema import Draft202012Validator

    slow = Draft202012Validator(json.loads(schema_raw))
    errors = sorted(slow.iter_errors(ir), key=lambda e: list(e.absolute_path))
    if errors:
        where = "/" + "/".join(str(p) for p in errors[0].absolute_path)
        return f"{where}: {errors[0].message}"
    found = next(iter(fast.iter_errors(ir)))
    return "/" + "/".join(str(p) for p in found.instance_path) + f": {found.message}"


def validate_ir(folder: Path, raw: bytes) -> dict[str, Any]:
    """The IR in ``folder``'s cards.json (``raw``), checked against its build's schema and
    against the folder it is in; raises :class:`RuleError` saying what is wrong."""
    cards = folder / "cards.json"
    schema_path = schema_beside(folder)
    if schema_path is None:
        raise RuleError(
            f"{cards}: no {IR_SCHEMA.as_posix()} beside it, so the IR cannot be checked; "
            "run 'cardc build'"
        )
    try:
        schema_raw = schema_path.read_bytes()
        ir = json.loads(raw)
    except (OSError, ValueError) as error:
        raise RuleError(f"{cards}: cannot be read as JSON ({error}); run 'cardc build'") from error
    digest = hashlib.blake2b(schema_raw + b"\0" + raw, digest_size=20).digest()
    if digest not in _VALID_IR:
        broken = _first_error(schema_path, schema_raw, ir)
        if broken is not None:
            raise RuleError(
                f"{cards}: the IR breaks its schema at {broken}; "
                "it was edited or damaged: run 'cardc build'"
            )
        _VALID_IR.add(digest)
    # The folder is the game's own, or one of its variants': its IR must say so.
    resolved = folder.resolve()
    variant = ir.get("variant")
    expected = (resolved.parent.name, resolved.name) if variant else (resolved.name, None)
    if (ir.get("game"), variant) != expected:
        raise RuleError(
            f"{cards}: holds game '{ir.get('game')}'"
            + (f" variant '{variant}'" if variant else "")
            + f", not the folder's own '{'/'.join(n for n in expected if n)}'; run 'cardc build'"
        )
    return ir


def load_table(folder: Path) -> tuple[dict[str, Any], HandlerTable]:
    """The IR and handler table of one compiled game (or variant) folder.

    The IR is validated (:func:`validate_ir`) before the handlers are executed.
    """
    handlers = folder / "handlers.py"
    cards = folder / "cards.json"
    if not handlers.is_file() or not cards.is_file():
        raise RuleError(f"{folder} holds no compiled game; run 'cardc build' first")
    try:
        raw = cards.read_bytes()
    except OSError as error:
        raise RuleError(f"cannot read {cards}: {error}") from error
    ir = validate_ir(folder, raw)
    digest = hashlib.blake2b(str(handlers.resolve()).encode(), digest_size=8).hexdigest()
    name = f"cardc_generated_{digest}"
    module = sys.modules.get(name)
    if module is None or getattr(module, "__file__", None) != str(handlers):
        spec = importlib.util.spec_from_file_location(name, handlers)
        if spec is None or spec.loader is None:  # pragma: no cover - a file path always works
            raise RuleError(f"cannot load {handlers}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return ir, HandlerTable.from_module(module).answering(ir)


#: A game's own Python, beside its cards: ``cards/<game>/natives.py``.
NATIVES_FILE = "natives.py"


def _cards_of_project(folder: Path) -> tuple[Path, Path] | None:
    """``(cards, generated)`` of the project at ``folder`` (a ``pyproject.toml`` with a
    ``[tool.cardc]`` table, or a folder holding ``cards/``), or None; as ``cardc`` finds a
    project (compiler.project, which the engine does not import)."""
    from dsl.project_config import read_table

    folders = read_table(folder)
    if folders is not None:
        return folders["cards"], folders["generated"]
    if (folder / "cards").is_dir():
        return folder / "cards", folder / "generated"
    return None


def _project_cards(start: Path) -> tuple[Path, Path] | None:
    """``(cards, generated)`` of the nearest project at or above ``start``."""
    here = start.resolve()
    for folder in (here, *here.parents):
        found = _cards_of_project(folder)
        if found is not None:
            return found
    return None


def source_folder(compiled: Path) -> Path | None:
    """The source folder (``cards/<game>``) of a compiled game or variant folder
    (``generated/<game>[/<variant>]``), or None when that is not inside a project.

    The project is the one whose ``generated/`` holds the folder (its root is found from
    ``generated/``'s parent up, as ``cardc`` finds it from the current directory); a compiled
    folder copied out of its project has no source folder, so nothing beside it is run.
    """
    schema = schema_beside(compiled)
    if schema is None:
        return None
    generated = schema.parent.parent.resolve()
    found = _project_cards(generated.parent)
    if found is None or found[1].resolve() != generated:
        return None
    resolved = compiled.resolve()
    game = resolved.parent.name if resolved.parent != generated else resolved.name
    return found[0] / game


def _fingerprint(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """The Python files of a game's folder with their sizes and times: a natives module is
    loaded again when one of them changed (``cardc watch``, the language server)."""
    out = []
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        stat = path.stat()
        out.append((path.relative_to(folder).as_posix(), stat.st_size, stat.st_mtime_ns))
    return tuple(out)


def load_natives(source: Path) -> ModuleType | None:
    """``source/natives.py`` (a game's own Python), loaded by path, or None when absent.

    The game's folder becomes a package of its own (``cardc_game_<digest of its path>``), so
    ``natives.py`` may import its siblings relatively (``from . import map``) and two projects'
    games of the same name never shadow each other; nothing is imported from inside the
    installed cardc for a game's rules. A Python error in it is a :class:`RuleError` naming
    the file (and line), never a traceback.
    """
    natives = source / NATIVES_FILE
    if not natives.is_file():
        return None
    folder = natives.parent.resolve()
    digest = hashlib.blake2b(str(folder).encode(), digest_size=8).hexdigest()
    package = f"cardc_game_{digest}"
    name = f"{package}.natives"
    fingerprint = _fingerprint(folder)
    module = sys.modules.get(name)
    # vars(), not getattr(): a module __getattr__ of the designer's is not asked
    if module is not None and vars(module).get("__cardc_fingerprint__") == fingerprint:
        return module
    for stale in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[stale]
    spec = importlib.machinery.ModuleSpec(package, None, is_package=True)
    spec.submodule_search_locations = [str(folder)]
    holder = importlib.util.module_from_spec(spec)
    holder.__path__ = [str(folder)]
    sys.modules[package] = holder
    # The game's own modules are not compiled to __pycache__ inside the designer's cards/.
    dont_write = sys.dont_write_bytecode
    sys.dont_write_bytecode = True
    try:
        module = importlib.import_module(name)
    except SyntaxError as error:
        del sys.modules[package]
        raise NativesError(
            f"cannot be loaded: {error.msg} (a game's natives must be valid Python)",
            str(error.filename or natives),
            error.lineno or 1,
            error.offset or 1,
        ) from error
    except SystemExit as error:
        # sys.exit() at import would end cardc itself: `cardc check` said nothing and exited 0.
        del sys.modules[package]
        file, line = _failing_line(error, folder) or (str(natives), 1)
        raise NativesError(
            f"cannot be loaded: it calls sys.exit({error.code!r}) when imported, which would "
            "end cardc",
            file,
            line,
            1,
        ) from error
    except Exception as error:  # noqa: BLE001 - any error of the designer's code says where
        del sys.modules[package]
        file, line = _failing_line(error, folder) or (str(natives), 1)
        raise NativesError(
            f"cannot be loaded: {type(error).__name__}: {error}", file, line, 1
        ) from error
    finally:
        sys.dont_write_bytecode = dont_write
    try:
        _check_names(module, natives)
        _check_hooks(module, natives)
    except NativesError:
        for loaded in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[loaded]
        raise
    module.__cardc_fingerprint__ = fingerprint  # type: ignore[attr-defined]
    return module


def _mapping_of_functions(value: Any) -> str | None:
    if not isinstance(value, dict):
        return "a dict"
    for key, function in value.items():
        if not isinstance(key, str):
            return f"a dict keyed by names (strings), and {key!r} is not one"
        if not callable(function):
            return f"a dict of names to functions, and {key!r} maps to {function!r}"
    return None


def _names(value: Any) -> str | None:
    if not isinstance(value, (list, tuple, set, frozenset)):
        return "a tuple of names"
    wrong = [item for item in value if not isinstance(item, str)]
    return f"a tuple of names, and {wrong[0]!r} is not one" if wrong else None


def _game_class(value: Any) -> str | None:
    if not isinstance(value, type) or not issubclass(value, Game):
        return "a subclass of engine.runtime.Game (engine.flow.FlowGame for a flow's game)"
    return None


def _modes(value: Any) -> str | None:
    from engine.modes import MODES

    problem = _names(value)
    if problem is None and isinstance(value, (list, tuple, set, frozenset)):
        if not value:
            # Read as "no MODES" it allowed every mode, the opposite of what it says; read as
            # written, no game could be played. Neither is what a designer means by it.
            return "empty, and a game is played in at least one mode (without MODES, in every one)"
        wrong = [mode for mode in value if mode not in MODES]
        if wrong:
            return f"a tuple of modes ({', '.join(MODES)}), and {wrong[0]!r} is not one"
    return problem


def _keyed_by_names(value: Any) -> str | None:
    if not isinstance(value, dict):
        return "a dict"
    wrong = [key for key in value if not isinstance(key, str)]
    return f"a dict keyed by names, and {wrong[0]!r} is not one" if wrong else None


def _kinds_by_names(value: Any) -> str | None:
    """A table of the kinds a scenario's values take: names to ``engine.scenario_types``
    kinds (``Number()``, ``Id(...)``, ``Fields(...)``); a string such as ``"number"`` was an
    internal error of ``cardc build`` (``'str' object has no attribute 'schema'``)."""
    problem = _keyed_by_names(value)
    if problem is not None:
        return problem
    from engine.scenario_types import Kind

    wrong = [(key, kind) for key, kind in value.items() if not isinstance(kind, Kind)]
    if wrong:
        key, kind = wrong[0]
        return (
            f"a dict of names to kinds of engine.scenario_types, and {key!r} is "
            f"{_short(kind)}, which is no kind"
        )
    return None


#: What each name the engine reads from a game's module must be (engine.api; README, "A
#: game's own Python"): a wrong one was a TypeError deep in a command ("internal error").
_SHAPES: dict[str, tuple[Any, str]] = {
    "NATIVES": (_mapping_of_functions, "NATIVES = {'region_of': region_of}"),
    "VERBS": (_mapping_of_functions, "VERBS = {'damage': damage}"),
    "GAME_CLASS": (_game_class, "class MyGame(FlowGame): ...; GAME_CLASS = MyGame"),
    "POLICIES": (_mapping_of_functions, "POLICIES = {'greedy': make_greedy}"),
    "MODES": (_modes, 'MODES = ("solo", "competitive")'),
    "DECKS": (_names, 'DECKS = ("port_cards",)'),
    "PLAYER_KEYS": (_names, 'PLAYER_KEYS = ("hand",)'),
    "GIVEN": (_mapping_of_functions, "GIVEN = {'board': given_board}"),
    "EXPECT": (_mapping_of_functions, "EXPECT = {'board': expect_board}"),
    "ACTIONS": (_mapping_of_functions, "ACTIONS = {'sail': do_sail}"),
    "GIVEN_KINDS": (
        _kinds_by_names,
        "GIVEN_KINDS = {'lucky': Number()}  (from engine.scenario_types import Number)",
    ),
    "EXPECT_KINDS": (
        _kinds_by_names,
        "EXPECT_KINDS = {'lucky': Number()}  (from engine.scenario_types import Number)",
    ),
    "ACTION_ARGS": (
        _kinds_by_names,
        "ACTION_ARGS = {'sail': Fields({'to': Id('space', 'a space')})}",
    ),
    "ZONE_KINDS": (_kinds_by_names, "ZONE_KINDS = {'hand': Id('card:card', 'a card of the deck')}"),
    "EVENT_KINDS": (_kinds_by_names, "EVENT_KINDS = {'port': Id('place', 'a place')}"),
}


def _assigned_line(natives: Path, name: str) -> int:
    """The line of ``natives.py`` that assigns ``name`` at the top level (1 when none does)."""
    import ast

    try:
        tree = ast.parse(natives.read_text(encoding="utf-8-sig"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return 1
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        elif isinstance(node, (ast.ClassDef, ast.FunctionDef)) and node.name == name:
            return node.lineno
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name) and target.id == name:
                return node.lineno
    return 1


def _check_names(module: ModuleType, natives: Path) -> None:
    """Hold the names the engine reads from a game's module to their shapes; a
    :class:`NativesError` at the line that sets a wrong one."""
    for name, (problem_of, example) in _SHAPES.items():
        try:
            value = getattr(module, name, None)
        except Exception as error:  # noqa: BLE001 - a module __getattr__ of the designer's
            raise NativesError(
                f"cannot be used: reading {name} from it raised {type(error).__name__}: "
                f"{error} (a module __getattr__ must raise AttributeError for a name it does "
                "not have)",
                str(natives),
                1,
                1,
            ) from error
        if value is None:
            continue
        problem = problem_of(value)
        if problem is not None:
            raise NativesError(
                f"cannot be used: {name} is {problem}"
                + ("" if ", and " in problem else f", not {_short(value)}")
                + f"; for example: {example}",
                str(natives),
                _assigned_line(natives, name),
                1,
                hint=f"write {name} as: {example}"
                + ("; or leave MODES out, and every mode is played" if name == "MODES" else ""),
            )


#: Each table of the kinds a scenario's values take, and the table of the hooks that set or
#: read them: a key with a kind and no hook passed the scenario's check, then failed with a
#: KeyError ("internal error") when the scenario ran.
_HOOKED = (("GIVEN_KINDS", "GIVEN"), ("EXPECT_KINDS", "EXPECT"))


#: How a scenario calls each hook of a game's module (engine.scenario): a hook that cannot
#: take these arguments failed only when a scenario ran it, as "internal error ... (a bug in
#: cardc or the game's flow)".
_HOOK_CALLS = {
    "GIVEN": ("hook(g, player, value)", 3, "sets the value; player is None for a key of the game"),
    "EXPECT": ("hook(g, player)", 2, "returns the value; player is None for a key of the game"),
}


def _check_hook_arity(module: ModuleType, natives: Path) -> None:
    """Each ``GIVEN`` / ``EXPECT`` function takes the arguments a scenario passes it; a
    :class:`NativesError` at its ``def`` when one cannot."""
    import inspect

    for table, (call, count, what) in _HOOK_CALLS.items():
        hooks = getattr(module, table, None)
        if not isinstance(hooks, dict):
            continue
        for key, function in hooks.items():
            try:
                inspect.signature(function).bind(*([None] * count))
            except TypeError:
                code = getattr(function, "__code__", None)
                raise NativesError(
                    f"cannot be used: {table}[{key!r}] is called as {call}, and "
                    f"{getattr(function, '__name__', repr(function))} cannot take that",
                    code.co_filename if code is not None else str(natives),
                    code.co_firstlineno if code is not None else _assigned_line(natives, table),
                    1,
                    hint=f"write it as def {key}_hook{call[4:]}: it {what}",
                ) from None
            except ValueError:  # a builtin without a signature: taken as it is
                continue


def _check_hooks(module: ModuleType, natives: Path) -> None:
    """Every key of ``GIVEN_KINDS`` / ``EXPECT_KINDS`` has its hook in ``GIVEN`` / ``EXPECT``;
    a :class:`NativesError` at the kinds' line names the first that has none."""
    _check_hook_arity(module, natives)
    for kinds_name, hooks_name in _HOOKED:
        kinds = getattr(module, kinds_name, None)
        if not isinstance(kinds, dict):
            continue
        hooks = getattr(module, hooks_name, None)
        hooks = hooks if isinstance(hooks, dict) else {}
        missing = [key for key in kinds if key not in hooks]
        if missing:
            names = ", ".join(repr(key) for key in missing)
            raise NativesError(
                f"cannot be used: {kinds_name} names {names}, which {hooks_name} does not "
                f"have, so a scenario's {names} would be accepted and then fail when it runs",
                str(natives),
                _assigned_line(natives, kinds_name),
                1,
                hint=f"add {hooks_name}[{missing[0]!r}] (the function that "
                + ("sets it" if hooks_name == "GIVEN" else "reads it")
                + f"), or take {missing[0]!r} out of {kinds_name}",
            )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _failing_line(error: BaseException, folder: Path) -> tuple[str, int] | None:
    """The file and line of the innermost frame of ``error`` inside ``folder``."""
    import traceback

    where = None
    for frame in traceback.extract_tb(error.__traceback__):
        if Path(frame.filename).resolve().is_relative_to(folder):
            where = (frame.filename, frame.lineno or 1)
    return where


class NativesError(RuleError):
    """A game's natives cannot be loaded: where (file, line, column) and why."""

    def __init__(
        self, message: str, file: str, line: int, column: int, hint: str | None = None
    ) -> None:
        super().__init__(f"{file}:{line}:{column}: {message}")
        self.reason = message
        self.file = file
        self.line = line
        self.column = column
        #: What to write instead, when the error knows (else cardc check's general hint).
        self.hint = hint


def game_rules(game: str, compiled: Path | None = None, *, source: Path | None = None) -> Any:
    """The module of a game's own Python (natives, verbs, flow, policies, scenario hooks), or
    None when the game has none.

    It is ``natives.py`` in the game's source folder (``source``; else the source folder of the
    compiled folder ``compiled``, see :func:`source_folder`; else ``cards/<game>`` of the
    project at the current directory), loaded by path (:func:`load_natives`). Nothing inside
    the installed cardc is a game's: a game without ``natives.py`` is played by its DSL alone.
    """
    if name_problem(game):
        # A dotted or path-like name would import some other module.
        return None
    if source is None:
        if compiled is not None:
            source = source_folder(compiled)
        else:
            found = _project_cards(Path.cwd())
            source = found[0] / game if found else None
    if source is not None:
        return load_natives(source)
    return None


def rules_module(game: str, project_root: Path | None = None) -> Any:
    """The module of ``game``'s own Python in the project at ``project_root`` (default: the
    project at the current directory, else this checkout of cardc), or None.

    What tests use instead of importing a game's natives: ``rules_module("uncharted_passage")``
    is the very module the engine binds when it loads ``generated/uncharted_passage``.
    """
    if project_root is None:
        found = _project_cards(Path.cwd())
        if found is None:
            found = _cards_of_project(Path(__file__).resolve().parent.parent)
    else:
        found = _cards_of_project(Path(project_root))
        if found is None:
            raise RuleError(f"{project_root} is not a cardc project (no cards/ folder in it)")
    return game_rules(game, source=found[0] / game if found else None)


def new_game(
    folder: Path,
    players: int = 1,
    seed: int = 0,
    policies: dict[int, Policy] | None = None,
    **options: Any,
) -> Game:
    """A fresh game from a compiled folder, with the game's natives and verbs bound.

    The game's own Python (:func:`game_rules`) may provide ``GAME_CLASS`` (its flow) and its
    natives and verbs (:mod:`engine.api`); without a ``GAME_CLASS``, a game that declares a
    flow is an :class:`engine.flow.FlowGame`, any other a plain :class:`Game`.
    """
    from engine.api import implementations

    ir, table = load_table(folder)
    rules = game_rules(ir["game"], folder)
    cls = getattr(rules, "GAME_CLASS", None) if rules else None
    if cls is None:
        # A game with a flow and no class of its own is played by its flow (as cardc sim
        # plays it), so a scenario may run its phases and sections.
        if ir.get("flow"):
            from engine.flow import FlowGame

            cls = FlowGame
        else:
            cls = Game
    found = implementations(rules)
    game = cls(
        ir,
        table,
        policies=dict(policies or {}),
        seed=seed,
        player_count=players,
        natives=checked_natives(found.natives, ir["vocabulary"]),
        verbs=dict(found.verbs),
        **options,
    )
    game.kept_decks = tuple(str(zone) for zone in (getattr(rules, "DECKS", None) or ()))
    return game
