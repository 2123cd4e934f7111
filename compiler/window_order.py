"""A window's quantity that one card sets and another changes: the result hangs on file order.

The cards in force answer a window in the order the game declares them (README, "The flow":
card files by path, each file's cards in order, a variant's added cards last). ``add`` and
``reduce`` give the same value whichever card answers first, but a ``set`` overwrites what a
card before it did and is overwritten by one after it. So a designer's Land vs Sea layer that
sets ``bonus_value`` beside City scoring, which raises it, scored one way in
``golden_age.cards`` and another in ``zz_golden_age.cards``. Here, after the game is lowered,
each ``set`` of a quantity that another card answering the same trigger also changes is a
warning at that ``set``, naming the other card and the order the files put them in, with the
way to write it that does not depend on the order.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from dsl.diagnostics import Diagnostic
from dsl.nodes import Span

CODE = "order-dependent"

#: The prelude verbs that change a window's quantity.
_CHANGES = ("set", "add", "reduce")


def check_window_order(ir: Mapping[str, Any]) -> list[Diagnostic]:
    """A warning at each ``set`` of a trigger's quantity that another card answering that
    trigger changes too (``set``, ``add`` or ``reduce``)."""
    triggers = (ir.get("vocabulary") or {}).get("triggers") or {}
    windows = {name for name, each in triggers.items() if each.get("quantities")}
    if not windows:
        return []
    # trigger -> quantity -> (card, verb, line, column, say), in the order the cards answer.
    changes: dict[str, dict[str, list[tuple[Mapping[str, Any], str, int, int, str]]]] = {}
    for card in ir.get("cards", []):
        for trigger, handler in (card.get("triggers") or {}).items():
            if trigger not in windows:
                continue
            for verb, quantity, at, say in _changes(handler.get("body")):
                changes.setdefault(trigger, {}).setdefault(quantity, []).append(
                    (card, verb, at[0], at[1], say)
                )
    found: list[Diagnostic] = []
    for trigger, by_quantity in sorted(changes.items()):
        for quantity, each in sorted(by_quantity.items()):
            if len({card["id"] for card, *_ in each}) < 2:
                continue
            for card, verb, line, column, say in each:
                if verb != "set":
                    continue
                others = [o for o in each if o[0]["id"] != card["id"]]
                found.append(_warning(trigger, quantity, card, line, column, say, others, each))
    return found


def _warning(
    trigger: str,
    quantity: str,
    card: Mapping[str, Any],
    line: int,
    column: int,
    say: str,
    others: list[tuple[Mapping[str, Any], str, int, int, str]],
    each: list[tuple[Mapping[str, Any], str, int, int, str]],
) -> Diagnostic:
    """The warning at ``card``'s ``set`` of ``quantity``, the other cards changing it named."""
    named = " and ".join(f"'{o[4]}' in '{o[0]['title']}' ({_file(o[0])}:{o[2]})" for o in others)
    order = " answers before ".join(dict.fromkeys(f"'{c['title']}' ({_file(c)})" for c, *_ in each))
    last = max(i for i, o in enumerate(each) if o[0]["id"] != card["id"])
    mine = max(i for i, o in enumerate(each) if o[0]["id"] == card["id"])
    outcome = (
        f"here this set answers last, so what the others did to {quantity} is lost"
        if mine > last
        else f"here a card answering after this set changes {quantity} again"
    )
    return Diagnostic(
        CODE,
        f"'{say}' here and {named} both answer {trigger}: a set keeps only its own value, so "
        f"what {quantity} ends at depends on which card answers last, and cards answer in the "
        f"order of their files: {order}; {outcome}",
        Span(_file(card), line, column, line, column + len(say)),
        "warning",
        (
            f"to change {quantity} whatever the order, raise or lower it: add {quantity} N "
            f"(or reduce {quantity} up_to N)",
            "if this card must have the last word, keep the set and put it in a file whose path "
            "sorts after the others' (or below them in the same file; a variant's added cards "
            "answer after the game's)",
        ),
    )


def _file(card: Mapping[str, Any]) -> str:
    """The file a card is written in (its IR ``source`` without the line)."""
    source = str(card.get("source", ""))
    return source.rsplit(":", 1)[0] if ":" in source else source


def _changes(body: Any) -> Iterator[tuple[str, str, list[int], str]]:
    """Each (verb, quantity, at, say) of a statement changing a window's quantity in ``body``
    (its nested blocks included)."""
    if isinstance(body, list):
        for item in body:
            yield from _changes(item)
        return
    if not isinstance(body, dict):
        return
    if body.get("kind") == "verb" and body.get("verb") in _CHANGES and body.get("at"):
        args = body.get("args") or []
        target = args[0] if args else None
        if isinstance(target, dict) and target.get("to") == "quantity":
            yield body["verb"], target["name"], body["at"], str(body.get("say") or body["verb"])
    if body.get("kind") == "window":
        # A window a card opens has quantities of its own: its block is not this one's.
        return
    for value in body.values():
        if isinstance(value, list | dict):
            yield from _changes(value)
