"""Title bands that leave scores without a title, warned at ``cardc check``.

``titles from KIND`` gives a final score the title of the card of KIND whose ``min_score`` ..
``max_score`` holds it, and a score no band holds earns none (README, "What a flow holds").
A house rule moving one band's bound and not its neighbour's (Uncharted Passage's "Legendary
from 55" written as ``legendary_explorer: {min_score: 55}`` alone) leaves the scores between
without a title, which no check said: the logbook's title line was simply empty. Titles whose
cards carry the same tags are one set of bands (Uncharted Passage's ``solo`` and ``coop``
titles are two), since a game may give each mode its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from compiler.card_checks import _declarations, _span
from dsl.diagnostics import Diagnostic
from dsl.nodes import SourceFile
from engine.flow import band_bounds

CODE = "title-gap"


def check_title_bands(ir: Mapping[str, Any], parsed: Iterable[SourceFile]) -> list[Diagnostic]:
    """A warning for each run of whole scores that lies between two bands of the flow's
    ``titles from`` kind and that no band holds, at the bound that leaves it (the variant's
    line when a variant set it, else the upper band's ``min_score``)."""
    titles = (ir.get("flow") or {}).get("titles") or {}
    kind = titles.get("kind")
    if not kind:
        return []
    groups: dict[tuple[str, ...], list[Mapping[str, Any]]] = {}
    for card in ir.get("cards") or ():
        if card.get("kind") == kind:
            groups.setdefault(tuple(card.get("tags") or ()), []).append(card)
    declarations: dict[str, Any] | None = None
    found: list[Diagnostic] = []
    for tags, cards in groups.items():
        for below, above, first, last in _gaps(cards):
            if declarations is None:
                declarations = _declarations(parsed)
            found.append(_warning(declarations, tags, below, above, first, last))
    return found


def _gaps(
    cards: list[Mapping[str, Any]],
) -> list[tuple[Mapping[str, Any], Mapping[str, Any], int, int]]:
    """(the band below, the band above, the first and last whole score between) for each run
    of whole scores between bands that no band holds, lowest first."""
    ordered = sorted(cards, key=band_bounds)
    gaps = []
    reach: Mapping[str, Any] | None = None  # the band that holds the highest score so far
    for card in ordered:
        low, high = band_bounds(card)
        if reach is not None:
            covered = band_bounds(reach)[1]
            first, last = math.floor(covered) + 1, math.ceil(low) - 1
            if math.isfinite(covered) and first <= last:
                gaps.append((reach, card, first, last))
        if reach is None or high > band_bounds(reach)[1]:
            reach = card
    return gaps


def _warning(
    declarations: Mapping[str, Any],
    tags: tuple[str, ...],
    below: Mapping[str, Any],
    above: Mapping[str, Any],
    first: int,
    last: int,
) -> Diagnostic:
    """The warning for the scores ``first`` .. ``last`` between ``below`` and ``above``."""

    def span(card: Mapping[str, Any], prop: str) -> Any:
        source = str(card.get("source", ""))
        return _span(declarations.get(source), prop, source)

    top, bottom = span(above, "min_score"), span(below, "max_score")
    # The bound a variant set is the one that moved; else the band above starts too high.
    at = bottom if _is_yaml(bottom) and not _is_yaml(top) else top
    high = _whole(band_bounds(below)[1])
    low = _whole(band_bounds(above)[0])
    scores = f"a score of {first}" if first == last else f"scores {first} to {last}"
    among = f" (the titles tagged {' '.join(tags)})" if tags else ""
    return Diagnostic(
        CODE,
        f"{scores} earn{'s' if first == last else ''} no title{among}: "
        f"{below.get('title')} ends at {high} and {above.get('title')} starts at {low}",
        at,
        "warning",
        (
            f"set max_score {last} on {below.get('title')}, or min_score {first} on "
            f"{above.get('title')}, so that every score between earns a title",
        ),
    )


def _is_yaml(span: Any) -> bool:
    """Whether ``span`` is in a variant's YAML (a bound the variant set)."""
    return str(span.file).endswith((".yaml", ".yml"))


def _whole(value: float) -> int | float:
    """A bound as the card writes it: 10, not 10.0."""
    return int(value) if value == int(value) else value
