"""Rough edges of the tooling that testers found (edges6):

- A variant's ``remove: [rum, rum]`` (or ``remove_kinds: [mid_event, mid_event]``) was taken
  without a word; a name given twice is an error at the second, as a flow phase removed twice
  is.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from probing import copied_project
from test_variant_hardening import run

pytestmark = pytest.mark.usefixtures("fresh_file_cache")

UP = "uncharted_passage"


def _variant(project: Path, game: str, name: str, text: str) -> Path:
    path = project / "cards" / game / "variants" / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


# -- 1. a card or kind named twice in remove / remove_kinds


def test_a_card_removed_twice_is_an_error_at_the_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(project, UP, "dry", "description: no rum\nremove: [rum, rum]\n")
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"cards/{UP}/variants/dry.yaml:2:15: error[variant-path]: 'rum' is named twice in "
        "remove: it is already there at line 2, column 10" in out
    ), out
    assert "hint: drop one of the two (or name the other card you meant)" in out, out
    assert "1 error" in out, out


def test_a_kind_removed_twice_is_an_error_at_the_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(
        project,
        UP,
        "calm",
        "description: no mid events\nremove_kinds:\n  - mid_event\n  - mid_event\n",
    )
    status, out = run(capsys, "check")
    assert status == 1, out
    assert (
        f"cards/{UP}/variants/calm.yaml:4:5: error[variant-path]: 'mid_event' is named twice "
        "in remove_kinds: it is already there at line 3, column 5" in out
    ), out
    assert "hint: drop one of the two (or name the other kind you meant)" in out, out
    assert "1 error" in out, out


def test_a_card_removed_and_its_kind_removed_is_no_duplicate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two lists, two meanings: the whole kind, and (redundantly, harmlessly) one of its cards.
    project = copied_project(tmp_path, monkeypatch, UP)
    _variant(
        project,
        UP,
        "calm",
        "description: calm\nremove: [anti_piracy_mission]\nremove_kinds: [mid_event]\n",
    )
    status, out = run(capsys, "check")
    assert status == 0, out
