"""'Did you mean' hints, from the names in scope (difflib, as mypy does)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(name: str, candidates: Iterable[str], cutoff: float = 0.75) -> tuple[str, ...]:
    """A hint naming the closest candidates to ``name``, or nothing when none is close."""
    pool = sorted(set(candidates) - {name})
    close = difflib.get_close_matches(name, pool, n=3, cutoff=cutoff)
    if not close:
        # Short names have low ratios; a shared prefix is still a good sign.
        close = [c for c in pool if len(name) >= 3 and (c.startswith(name) or name.startswith(c))][
            :3
        ]
    if not close:
        return ()
    if len(close) == 1:
        return (f"did you mean '{close[0]}'?",)
    return ("did you mean " + ", ".join(f"'{c}'" for c in close[:-1]) + f" or '{close[-1]}'?",)
