"""Lines of Darwin's Journey's rules: hand-written Python before and after flow.cards, and DSL.

Run as ``.venv/bin/python bench/dj_lines.py [--before COMMIT] [--after COMMIT]``. Not a test:
it prints figures. A line counted is a line of code (``bench/up_lines.py``: not blank, not only
a comment, not inside a docstring). The game's Python is counted by concern: rules (natives.py
up to its scenario hooks, and board.py, the tracks' geometry), the scenario hooks, the policy.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from up_lines import dsl_lines, python_lines, show  # noqa: E402

#: The last commit with the hand-written flow (DarwinsJourney.play_game and its methods).
BEFORE = "602abd4"
FOLDER = "cards/darwins_journey"
CARD_FILES = ("game", "host", "board", "crew", "pirates", "flow")
HOOKS = "# -- scenarios: given, expect and steps"


def _show(commit: str, path: str) -> str:
    """The file at ``commit`` ("" when it did not exist yet)."""
    try:
        return show(commit, path)
    except Exception:  # noqa: BLE001 - a file the commit does not have counts 0
        return ""


def counts(commit: str) -> dict[str, int]:
    """Code lines by concern at ``commit``."""
    natives = _show(commit, f"{FOLDER}/natives.py")
    cut = natives.index(HOOKS)
    out = {
        "rules (natives.py)": python_lines(natives[:cut]),
        "geometry (board.py)": python_lines(_show(commit, f"{FOLDER}/board.py")),
        "scenario hooks": python_lines(natives[cut:]),
        "policy (policy.py)": python_lines(_show(commit, f"{FOLDER}/policy.py")),
    }
    for name in CARD_FILES:
        out[f"DSL {name}.cards"] = dsl_lines(_show(commit, f"{FOLDER}/{name}.cards"))
    return out


def main() -> int:
    """Print the counts side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE)
    parser.add_argument("--after", default="HEAD")
    args = parser.parse_args()
    before, after = counts(args.before), counts(args.after)
    print(f"{'':28} {args.before:>8} {args.after:>8}")
    for name in before:
        print(f"{name:28} {before[name]:8} {after[name]:8}")
    for label, keys in (("rule Python", ("rules", "geometry")), ("DSL", ("DSL",))):
        was = sum(v for k, v in before.items() if k.startswith(keys))
        now = sum(v for k, v in after.items() if k.startswith(keys))
        print(f"{label + ' total':28} {was:8} {now:8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
