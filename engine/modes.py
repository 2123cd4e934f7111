"""The player modes a game may be played in, and the other spellings of them a player types.

One place for ``cardc sim --mode``, a scenario's ``mode:`` and the scenario schemas, so a
spelling one accepts the others accept too (the rulebook says "Cooperative Mode")."""

from __future__ import annotations

#: The player modes a game may be simulated in, and how many players each seats.
MODES: dict[str, int] = {"solo": 1, "competitive": 2, "coop": 2}

#: Other spellings of a mode a player may type.
MODE_ALIASES: dict[str, str] = {"cooperative": "coop", "co-op": "coop", "co-operative": "coop"}

#: Every spelling a ``mode:`` may take, the modes first (a schema's enum).
MODE_SPELLINGS: tuple[str, ...] = (*MODES, *MODE_ALIASES)


def mode_name(spelling: str) -> str:
    """The mode a spelling names (``cooperative`` -> ``coop``); anything else as it is."""
    return MODE_ALIASES.get(spelling.lower(), spelling)
