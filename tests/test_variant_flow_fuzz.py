"""Property test: no ``flow:`` or ``verbs:`` value makes compiling a variant raise.

Hypothesis writes flow edits of any shape (actions, places and phase names from the game and
not, values of every YAML type, DSL text with stray tokens) and verb blocks, and compiles the
variant of a small race game: the result is diagnostics, each in a file at a line, never an
exception. Few derandomized examples, as in tests/test_fuzz.py.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from compiler.variants import compile_variant
from dsl.diagnostics import SourceCache

PROFILE = settings(
    max_examples=int(os.environ.get("FLOW_FUZZ_EXAMPLES", "40")),
    deadline=None,
    derandomize=os.environ.get("FLOW_FUZZ_RANDOM") is None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

GAME = """\
game race "Race" {
  players 1..4
  score points
  param rounds 3
  counter points, coins
}
"""
FLOW = """\
flow "A race" {
  setup { phase start { for each p in players { gain coins 1 } } }
  round rounds {
    phase earn "Earn" { for each p in players { gain coins 2 } }
    phase tax { for each p in players { lose coins 1 } }
  }
  end when points > 5
  end { phase last { for each p in players { gain points coins } } }
}
verb pay_tax() { lose coins 1 }
"""

_NAMES = st.sampled_from(
    ["start", "earn", "tax", "last", "storm", "setup", "round", "turn", "end", "ern", ""]
)
_DSL = st.lists(
    st.sampled_from(
        [
            "phase",
            "storm",
            '"Storm"',
            "{",
            "}",
            "gain",
            "coins",
            "1",
            "(",
            ")",
            "if",
            "round",
            ">=",
            "\n",
            ";",
            "verb",
            "pay_tax()",
            "function",
            "f()",
            "number",
            "=",
            "@provisional",
            "for",
            "each",
            "p",
            "in",
            "players",
            "flow",
            "\x00",
            "é",
        ]
    )
    | st.text(max_size=3),
    max_size=25,
).map(" ".join)
_SCALAR = st.none() | st.booleans() | st.integers(-5, 5) | st.floats() | _NAMES | _DSL
_VALUE = st.recursive(
    _SCALAR,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_NAMES, inner, max_size=3),
    max_leaves=6,
)
_PHASE = st.builds(lambda n, b: f"phase {n} {{ {b} }}", _NAMES, _DSL) | _DSL
_EDIT = st.dictionaries(
    st.sampled_from(
        ["insert", "replace", "remove", "move", "end_when", "before", "after", "into", "typo"]
    ),
    _NAMES | _PHASE | _VALUE,
    max_size=3,
)


@PROFILE
@given(
    flow=st.lists(_EDIT | _VALUE, max_size=5) | _VALUE,
    verbs=st.none() | _DSL | st.lists(_DSL | _VALUE, max_size=3),
)
def test_any_flow_or_verbs_value_gives_diagnostics_not_an_exception(
    tmp_path: Path, flow: object, verbs: object
) -> None:
    folder = tmp_path / "race"
    (folder / "variants").mkdir(parents=True, exist_ok=True)
    (folder / "game.cards").write_text(GAME, encoding="utf-8")
    (folder / "flow.cards").write_text(FLOW, encoding="utf-8")
    data: dict[str, object] = {"flow": flow}
    if verbs is not None:
        data["verbs"] = verbs
    stream = io.StringIO()
    YAML(typ="safe", pure=True).dump(data, stream)
    path = folder / "variants" / "v.yaml"
    path.write_text(stream.getvalue(), encoding="utf-8")
    result, _overlay = compile_variant(folder, path, SourceCache())
    for diagnostic in result.diagnostics:
        assert diagnostic.span.line >= 1 and diagnostic.span.column >= 1, diagnostic
        assert diagnostic.message
    if result.ir is None:
        assert any(d.severity == "error" for d in result.diagnostics)
