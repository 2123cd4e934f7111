"""A parameter's declared bounds, and the value that breaks them.

A game declares what a parameter counts and the values it can take in its ``param`` line
(README, "Parameters and their bounds")::

    param die_sides 6 { counts "a die's sides"; min 2 "a die has 2 at least" }
    param uncharted_tiles 1 { switch "whether the 24 Uncharted tiles are shuffled in" }

The compiler (``compiler.vocabulary``) writes them into the IR's ``vocabulary.param_bounds``
and holds a game's own value and a variant's ``params:`` to them; the simulator holds a
``--param NAME=V`` to the same words through :func:`bound_problem`, so the three say one thing.

In the IR a parameter's bounds are ``{"whole", "min", "max", "counts", "switch", "min_why",
"max_why"}``: ``whole`` true when only whole numbers do (a count, a switch); ``min`` and
``max`` null when unbounded; ``counts`` what it counts, ``switch`` what a 1 turns on (then
``min`` 0 and ``max`` 1), each null when not said; ``*_why`` the reason a bound has, or null.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _shown(number: Any) -> str:
    """A bound or a value as a designer wrote it: 2, not 2.0; 0.5 as 0.5."""
    if isinstance(number, float) and number.is_integer():
        return str(int(number))
    return repr(number) if not isinstance(number, (int, float)) else str(number)


def allowed(bounds: Mapping[str, Any]) -> str:
    """The values the bounds allow, in words: "a whole number, 2 or more", "0 or 1"."""
    if bounds.get("switch") is not None:
        return "1 (yes) or 0 (no)"
    low, high = bounds.get("min"), bounds.get("max")
    kind = "a whole number" if bounds.get("whole") else "a number"
    if low is not None and high is not None:
        return f"{kind}, {_shown(low)} to {_shown(high)}"
    if low is not None:
        return f"{kind}, {_shown(low)} or more"
    if high is not None:
        return f"{kind}, {_shown(high)} or less"
    return kind


def to_write(name: str, bounds: Mapping[str, Any]) -> str:
    """What to set the parameter to, as a hint: "set die_sides to 2 or more"."""
    if bounds.get("switch") is not None:
        return f"set {name} to 1 or 0"
    low, high = bounds.get("min"), bounds.get("max")
    kind = "a whole number" if bounds.get("whole") else "a number"
    if low is not None and high is not None:
        return f"set {name} to {kind} from {_shown(low)} to {_shown(high)}"
    if low is not None:
        return f"set {name} to {_shown(low)} or more"
    if high is not None:
        return f"set {name} to {_shown(high)} or less"
    return f"set {name} to {kind}"


def bound_problem(name: str, value: Any, bounds: Mapping[str, Any]) -> tuple[str, str] | None:
    """Why ``value`` breaks the parameter ``name``'s ``bounds`` and what to write instead, or
    None when it keeps them. The message names the parameter, the value, what it counts (or
    what it switches on), the bound's reason when one is given, and the values allowed::

        param die_sides is 0, but it counts a die's sides, and a die has 2 at least: a whole
        number, 2 or more
    """
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    low, high = bounds.get("min"), bounds.get("max")
    why = None
    if not number or (bounds.get("whole") and not isinstance(value, int)):
        pass
    elif low is not None and value < low:
        why = bounds.get("min_why")
    elif high is not None and value > high:
        why = bounds.get("max_why")
    else:
        return None
    shown = f"param {name} is {_shown(value)}"
    if bounds.get("switch") is not None:
        said = f"{shown}, but it says {bounds['switch']}"
    elif bounds.get("counts") is not None:
        said = f"{shown}, but it counts {bounds['counts']}"
    else:  # nothing said of what it is: the values first, the bound's reason after
        tail = f" ({why})" if why else ""
        return f"{shown}, but it must be {allowed(bounds)}{tail}", to_write(name, bounds)
    if why:
        said += f", and {why}"
    return (
        f"{said}: {allowed(bounds)}",
        to_write(name, bounds),
    )
