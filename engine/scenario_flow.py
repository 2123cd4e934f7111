"""The scenario steps every game with a flow has: ``action: phase`` and ``action: section``.

A designer tests a piece of their flow as data (``action: phase`` with ``args: {name:
final_scoring}``) whatever game it is, a ``cardc new`` game without a line of Python
included. A game's own ``ACTIONS`` of the same name win (Uncharted Passage unfolds its map
before a phase; Darwin's Journey runs a phase for the player the step names).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.scenario_types import Fields, Id

#: The flow's sections, in the order a game plays them.
SECTIONS = ("setup", "round", "turn", "end")


def _phase(g: Any, player: Any, name: str) -> None:
    """Run one phase of the flow by its name, for the step's player.

    The phase's statements run once, as the flow runs them; ``end when`` is not tested."""
    g.run_phase(name, player)


def _section(g: Any, player: Any, name: str) -> None:
    """Run one section of the flow once (setup, round, turn or end), for the step's player.

    ``round`` is one round's own phases (at the given ``round``), ``turn`` the step's
    player's turn, ``end`` the final scoring."""
    g.run_section(name, player)


_ACTIONS: dict[str, Callable[..., Any]] = {"phase": _phase, "section": _section}
_ARGS = {
    "phase": Fields({"name": Id("phase", "a phase of the flow")}, ("name",)),
    "section": Fields(
        # "'end' is not a section this flow has; known: setup, turn": a game without final
        # scoring has no end section (a variant's `into: end` makes one).
        {"name": Id("section", "a section this flow has")},
        ("name",),
    ),
}


def flow_pool(ir: dict[str, Any], name: str) -> list[str]:
    """The ids of the pools ``phase`` (every phase of the flow) and ``section`` (the sections
    the flow declares)."""
    sections = (ir.get("flow") or {}).get("sections", [])
    if name == "section":
        declared = {section.get("section") for section in sections}
        return [section for section in SECTIONS if section in declared]
    return [phase["name"] for section in sections for phase in section.get("phases", [])]


def scenario_actions(rules: Any, ir: dict[str, Any]) -> dict[str, Callable[..., Any]]:
    """The steps ``action:`` may name: the game's own ``ACTIONS``, and ``phase`` and
    ``section`` when the game has a flow and does not name its own so."""
    own = dict(getattr(rules, "ACTIONS", {}) or {}) if rules else {}
    if not ir.get("flow"):
        return own
    return {**{k: v for k, v in _ACTIONS.items() if k not in own}, **own}


def scenario_action_args(rules: Any, ir: dict[str, Any]) -> dict[str, Any]:
    """The arguments of each of :func:`scenario_actions`' steps (``ACTION_ARGS``)."""
    own = dict(getattr(rules, "ACTION_ARGS", {}) or {}) if rules else {}
    if not ir.get("flow"):
        return own
    mine = dict(getattr(rules, "ACTIONS", {}) or {}) if rules else {}
    added = {k: v for k, v in _ARGS.items() if k not in own and k not in mine}
    return {**added, **own}
