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
import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

from engine.runtime import Game, HandlerTable, Policy, RuleError

#: A game's or variant's name: the DSL's own names (game ids and variant files are named so).
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: Where a build publishes the IR schema, relative to generated/.
IR_SCHEMA = Path("schema") / "ir.schema.json"


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
    return ir, HandlerTable.from_module(module)


def game_rules(game: str) -> Any:
    """The module of a game's natives and flow (``engine.games.<game>``), or None."""
    if name_problem(game):
        # A dotted or path-like name would import some other module.
        return None
    try:
        return importlib.import_module(f"engine.games.{game}")
    except ModuleNotFoundError as error:
        if error.name == f"engine.games.{game}":
            return None
        raise


def new_game(
    folder: Path,
    players: int = 1,
    seed: int = 0,
    policies: dict[int, Policy] | None = None,
    **options: Any,
) -> Game:
    """A fresh game from a compiled folder, with the game's natives and verbs bound.

    A game module may provide ``GAME_CLASS`` (its flow), ``NATIVES`` and ``VERBS``.
    """
    ir, table = load_table(folder)
    rules = game_rules(ir["game"])
    cls = getattr(rules, "GAME_CLASS", Game) if rules else Game
    game = cls(
        ir,
        table,
        policies=dict(policies or {}),
        seed=seed,
        player_count=players,
        natives=dict(getattr(rules, "NATIVES", {}) if rules else {}),
        verbs=dict(getattr(rules, "VERBS", {}) if rules else {}),
        **options,
    )
    return game
