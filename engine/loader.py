"""Loading a project's compiled game by path.

Handlers are imported from the project's own ``generated/<game>/handlers.py`` under a module
name derived from that path, never as a package, so a designer's project and the games shipped
with cardc can both be loaded in one process without shadowing each other.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

from engine.runtime import Game, HandlerTable, Policy, RuleError


def load_table(folder: Path) -> tuple[dict[str, Any], HandlerTable]:
    """The IR and handler table of one compiled game (or variant) folder."""
    handlers = folder / "handlers.py"
    cards = folder / "cards.json"
    if not handlers.is_file() or not cards.is_file():
        raise RuleError(f"{folder} holds no compiled game; run 'cardc build' first")
    ir = json.loads(cards.read_text(encoding="utf-8"))
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
