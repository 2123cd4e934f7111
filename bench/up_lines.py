"""Lines of Uncharted Passage's rules: hand-written Python before and after flow.cards, and DSL.

Run as ``.venv/bin/python bench/up_lines.py [--before COMMIT]``. Not a test: it prints figures.
A line counted is a line of code: not blank, not only a comment, not inside a docstring.
Python is counted by concern (rules: the board and the rules' steps; map; policy; scenario
hooks; the natives registry), before from the commit before the move (``engine/games/``), after
from ``cards/uncharted_passage/``.
"""

from __future__ import annotations

import argparse
import ast
import io
import subprocess
import sys
import tokenize
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
#: The last commit with the hand-written flow in engine/games/.
BEFORE = "dee49d2"


def python_lines(text: str) -> int:
    """Lines of code in Python source ``text`` (no blanks, comments or docstrings)."""
    docstrings: set[int] = set()
    for node in ast.walk(ast.parse(text)):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                docstrings.update(range(body[0].lineno, (body[0].end_lineno or 0) + 1))
    code: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT):
            continue
        if token.type in (tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        for line in range(token.start[0], token.end[0] + 1):
            if line not in docstrings:
                code.add(line)
    return len(code)


def dsl_lines(text: str) -> int:
    """Lines of DSL: not blank, not only a comment."""
    return sum(1 for line in text.splitlines() if line.strip() and not line.strip().startswith("#"))


def section_lines(text: str, sections: dict[str, tuple[str, str | None]]) -> dict[str, int]:
    """Code lines of ``text`` between markers: name -> (first line starting with, up to)."""
    lines = text.splitlines(keepends=True)
    out = {}
    for name, (start, end) in sections.items():
        a = next(i for i, line in enumerate(lines) if line.startswith(start))
        b = next(
            (i for i, line in enumerate(lines[a + 1 :], a + 1) if end and line.startswith(end)),
            len(lines),
        )
        out[name] = python_lines("".join(lines[a:b]))
    return out


def show(commit: str, path: str) -> str:
    """A file as it was at ``commit``."""
    return subprocess.run(
        ["git", "show", f"{commit}:{path}"],
        cwd=REPO_ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def main() -> int:
    """Print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help="the commit before the move")
    args = parser.parse_args()
    old = show(args.before, "engine/games/uncharted_passage.py")
    old_map = show(args.before, "engine/games/up_map.py")
    total = python_lines(old)
    policy = section_lines(old, {"policy": ("def _share_out(", "POLICIES: dict")})["policy"]
    policy += section_lines(old, {"t": ("_NATIVE_OF = ", "def _allocation_label")})["t"]
    scenario = section_lines(old, {"s": ("def _set_flag(", None)})["s"]
    chart = section_lines(old, {"c": ("class Space:", "# -- reading the data")})["c"]
    chart += section_lines(old, {"c": ("_CHARTS = ObjectCache()", "#: Each voyage card's")})["c"]
    print(f"before ({args.before}, engine/games/): code lines of Python")
    rules = total - policy - scenario - chart
    print(
        f"  uncharted_passage.py {total}: rules and flow {rules}, chart {chart}, "
        f"policy {policy}, scenario hooks and registry {scenario}"
    )
    print(f"  up_map.py {python_lines(old_map)} (map)")
    print(f"  rules and flow, hand-written: {rules}")
    folder = REPO_ROOT / "cards" / "uncharted_passage"
    print("after (cards/uncharted_passage/): code lines of Python")
    counts = {
        p.name: python_lines(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.py"))
    }
    for name, count in counts.items():
        print(f"  {name} {count}")
    after_rules = counts.get("game.py", 0) + counts.get("natives.py", 0)
    print(f"  rules and flow, hand-written (game.py + natives.py): {after_rules}")
    dsl = {p.name: dsl_lines(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.cards"))}
    print(
        "DSL lines (not blank, not only a comment): "
        + ", ".join(f"{n} {c}" for n, c in dsl.items())
    )
    print(f"  of which the flow and its verbs (flow.cards): {dsl.get('flow.cards', 0)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
