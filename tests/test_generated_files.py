"""The generated JSON writer gives json's own indented bytes, faster (compiler.generated_files)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from compiler.generated_files import BANNER, indented, json_bytes

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.text(max_size=8),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=4), inner, max_size=4),
    ),
    max_leaves=25,
)


@settings(max_examples=300, deadline=None)
@given(_VALUES, st.booleans())
def test_indented_is_json_dumps_indent_1_byte_for_byte(value: Any, sort_keys: bool) -> None:
    want = json.dumps(value, indent=1, ensure_ascii=False, sort_keys=sort_keys)
    assert indented(value, 0, sort_keys) == want
    assert indented(value, 1, sort_keys) == want.replace("\n", "\n ")


def test_keys_that_are_not_text_are_written_as_json_writes_them() -> None:
    value = {1: "a", False: "b", None: "c", 2.5: "d"}
    assert indented(value, 0) == json.dumps(value, indent=1)


def test_sorted_json_bytes_is_the_old_round_trip() -> None:
    schema = {"b": {"z": [3, "é"], "a": ()}, "a": [{"y": 1, "x": 2}], "c": "text"}
    old = json.loads(json.dumps(schema, sort_keys=True))
    lines = ",\n  ".join(json.dumps(v, ensure_ascii=False) for v in old["a"])
    expected = (
        "{\n"
        f' "_generated": {json.dumps(BANNER)},\n'
        f' "a": [\n  {lines}\n ],\n'
        ' "b": ' + json.dumps(old["b"], indent=1, ensure_ascii=False).replace("\n", "\n ") + ",\n"
        ' "c": "text"\n}\n'
    )
    assert json_bytes(schema, sort_keys=True).decode() == expected
