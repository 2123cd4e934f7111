"""``cardc variant set/unset`` on a variant's ``flow:`` list: an edit is named by its number
from 0 (``flow.1``, ``flow.0.before``), and everything else in the file stays as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.variant_edit import EditRefused, read_document, render, set_value, unset_value

TEXT = """\
# Storms at the end of the year.
description: storms
flow:
  # the storm comes first
  - insert: |
      phase storm { x }
    before: pirate  # at the start of the month
  - remove: logbook
  # and the sailing after the pirates
  - move: sailing
    after: pirate
verbs: |
  verb a() { }
"""


def _edited(tmp_path: Path, edit: object) -> str:
    path = tmp_path / "v.yaml"
    path.write_text(TEXT, encoding="utf-8")
    document = read_document(path)
    parts, value = edit if isinstance(edit, tuple) else (edit, None)
    if value is None:
        document.suffix = unset_value(document.data, parts)
    else:
        set_value(document.data, parts, value)
    return render(document).decode("utf-8")


def test_set_a_key_of_one_edit_changes_that_line_only(tmp_path: Path) -> None:
    got = _edited(tmp_path, (["flow", "2", "after"], "planning"))
    assert got == TEXT.replace("    after: pirate\n", "    after: planning\n")


def test_set_one_past_the_last_edit_adds_an_edit(tmp_path: Path) -> None:
    got = _edited(tmp_path, (["flow", "3"], {"remove": "sharing"}))
    assert got == TEXT.replace("    after: pirate\n", "    after: pirate\n  - remove: sharing\n")


def test_unset_an_edit_keeps_the_comment_that_followed_it(tmp_path: Path) -> None:
    got = _edited(tmp_path, ["flow", "1"])
    assert got == TEXT.replace("  - remove: logbook\n", "")


def test_unset_a_key_of_an_edit(tmp_path: Path) -> None:
    got = _edited(tmp_path, ["flow", "0", "before"])
    assert got == TEXT.replace("    before: pirate  # at the start of the month\n", "")


@pytest.mark.parametrize(
    ("parts", "message"),
    [
        (["flow", "7"], "flow is a list of 3 items: '7' is not one of its numbers (0 to 3)"),
        (["flow", "first", "after"], "'first' is not one of its numbers (0 to 2)"),
        (["flow", "0", "insert", "x"], "'insert' in flow.0.insert.x holds a value, not keys"),
    ],
)
def test_a_path_that_names_no_edit_is_refused(
    tmp_path: Path, parts: list[str], message: str
) -> None:
    with pytest.raises(EditRefused, match=message.replace("(", r"\(").replace(")", r"\)")):
        _edited(tmp_path, (parts, "x"))
