"""``cardc sim GAME/VARIANT``: a variant named as ``cardc diff`` and ``cardc variant`` name it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _sim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "compiler.cli", "sim", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_game_slash_variant_plays_the_variant_as_variant_option_does() -> None:
    slash = _sim("uncharted_passage/thirteen_months", "--games", "6", "--json", "-q")
    option = _sim(
        "uncharted_passage", "--variant", "thirteen_months", "--games", "6", "--json", "-q"
    )
    assert slash.returncode == 0, slash.stderr
    assert json.loads(slash.stdout) == json.loads(option.stdout)
    # Thirteen months, not the base game's twelve: the variant was played.
    base = _sim("uncharted_passage", "--games", "6", "--json", "-q")
    assert json.loads(base.stdout) != json.loads(slash.stdout)


def test_two_different_variants_named_is_a_usage_error() -> None:
    both = _sim("uncharted_passage/thirteen_months", "--variant", "harsher_sea", "--games", "2")
    assert both.returncode == 2
    assert "two variants named: 'uncharted_passage/thirteen_months' and --variant harsher_sea" in (
        both.stderr
    )
    assert "Traceback" not in both.stderr


def test_a_path_is_still_refused_by_name() -> None:
    path = _sim("../uncharted_passage", "--games", "2")
    assert path.returncode == 2
    assert "is not a game name" in path.stderr
