"""Land vs Sea: Uncharted's Python lives beside its cards (cards/land_vs_sea/natives.py).

Until the loader reads a game's natives by path (FLOW_SPEC.md F), this module loads that
package from the repository's cards/ folder and re-exports what the engine reads.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

_FOLDER = Path(__file__).resolve().parents[2] / "cards" / "land_vs_sea"
_PACKAGE = "cardc_games.land_vs_sea"


def _load() -> ModuleType:
    """cards/land_vs_sea as a package of its own, its natives module loaded."""
    found = sys.modules.get(f"{_PACKAGE}.natives")
    if found is not None:
        return found
    if "cardc_games" not in sys.modules:
        root = ModuleType("cardc_games")
        root.__path__ = []
        sys.modules["cardc_games"] = root
    spec = importlib.util.spec_from_file_location(
        _PACKAGE, _FOLDER / "__init__.py", submodule_search_locations=[str(_FOLDER)]
    )
    if spec is None or spec.loader is None:  # pragma: no cover - the folder is the repository's
        raise ImportError(f"cannot load {_FOLDER}")
    package = importlib.util.module_from_spec(spec)
    sys.modules[_PACKAGE] = package
    spec.loader.exec_module(package)
    return importlib.import_module(f"{_PACKAGE}.natives")


_natives = _load()
NATIVES: dict[str, Any] = _natives.NATIVES
VERBS: dict[str, Any] = _natives.VERBS
GAME_CLASS: Any = _natives.GAME_CLASS
POLICIES: dict[str, Any] = _natives.POLICIES
GIVEN: dict[str, Any] = _natives.GIVEN
EXPECT: dict[str, Any] = _natives.EXPECT
ACTIONS: dict[str, Any] = _natives.ACTIONS
GIVEN_KINDS: dict[str, Any] = _natives.GIVEN_KINDS
EXPECT_KINDS: dict[str, Any] = _natives.EXPECT_KINDS
ACTION_ARGS: dict[str, Any] = _natives.ACTION_ARGS
EVENT_KINDS: dict[str, Any] = _natives.EVENT_KINDS
QUESTIONS: dict[str, Any] = _natives.QUESTIONS


def module(name: str) -> ModuleType:
    """One module of cards/land_vs_sea (``board``, ``game``, ``policy`` ...), for tests."""
    return importlib.import_module(f"{_PACKAGE}.{name}")
