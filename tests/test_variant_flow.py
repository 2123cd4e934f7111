"""A variant's ``flow:`` edits (README, "Variants that reach the flow and the verbs"): phases
inserted, replaced, removed and moved and the end condition replaced, checked like everything
else, errors at the YAML line and column with "did you mean".

Each test writes a small race game with a flow and one variant into a temporary folder,
compiles the variant through the real pipeline and, for the ones that compile, emits and
imports its handlers and plays it with :class:`engine.flow.FlowGame`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_flow import import_handlers

from compiler.diff import diff_ir, rule_words
from compiler.emit_python import emit_handlers
from compiler.pipeline import compile_game
from compiler.variants import compile_variant
from dsl.diagnostics import Diagnostic, SourceCache
from engine.flow import FlowGame
from engine.runtime import HandlerTable, RandomLegal

GAME = """\
game race "Race" {
  players 1..4
  score points
  param rounds 3
  counter points, coins
  trigger round_start "the start of a round"
}
"""

# Coins come in and go out each round; every 3 coins at the Spend phase buy a point. Where the
# phases stand decides how many points a captain ends with: the variants below move them.
FLOW = """\
flow "A race" {
  setup {
    phase start "Everyone lines up" { for each p in players { gain coins 1 } }
  }
  round rounds {
    phase earn "Earn" { for each p in players { gain coins 2 } }
    phase spend "Spend" {
      for each p in players {
        if coins >= 3 { lose coins 3; gain points 1 }
      }
    }
    phase tax "Tax" { for each p in players { lose coins 1 } }
  }
  end {
    phase last "Final scoring" { for each p in players { gain points coins } }
  }
  winner highest
}
"""


def _folder(tmp_path: Path, variant: str | None, flow: str = FLOW) -> Path:
    folder = tmp_path / "race"
    (folder / "variants").mkdir(parents=True, exist_ok=True)
    (folder / "game.cards").write_text(GAME, encoding="utf-8")
    (folder / "flow.cards").write_text(flow, encoding="utf-8")
    if variant is not None:
        (folder / "variants" / "v.yaml").write_text(variant, encoding="utf-8")
    return folder


def _compile(tmp_path: Path, variant: str, flow: str = FLOW) -> tuple[Any, list[Diagnostic]]:
    folder = _folder(tmp_path, variant, flow)
    result, _overlay = compile_variant(folder, folder / "variants" / "v.yaml", SourceCache())
    errors = sorted(
        (d for d in result.diagnostics if d.severity == "error"), key=Diagnostic.sort_key
    )
    return result, errors


def _ir(tmp_path: Path, variant: str) -> dict[str, Any]:
    result, errors = _compile(tmp_path, variant)
    assert errors == [], [f"{d.span}: {d.message}" for d in errors]
    assert result.ir is not None
    return result.ir  # type: ignore[no-any-return]


def _base(tmp_path: Path) -> dict[str, Any]:
    result = compile_game(_folder(tmp_path, None), SourceCache())
    assert result.ir is not None, result.diagnostics
    return result.ir


def _play(tmp_path: Path, ir: dict[str, Any]) -> FlowGame:
    text = emit_handlers(ir, ["flow.cards"], "race")
    module = import_handlers(tmp_path / f"handlers_{abs(hash(text))}.py", text)
    game = FlowGame(ir, HandlerTable.from_module(module), policies={-1: RandomLegal()}, seed=1)
    game.play()
    return game


def _order(ir: dict[str, Any]) -> list[str]:
    return [f"{s['section']}.{p['name']}" for s in ir["flow"]["sections"] for p in s["phases"]]


def _where(errors: list[Diagnostic]) -> list[tuple[str, int, int]]:
    return [(d.code, d.span.line, d.span.column) for d in errors]


# -- the edits, played


def test_the_base_race_as_the_variants_start_from_it(tmp_path: Path) -> None:
    # Setup: 1 coin. Round 1: 3 coins, spend 3 for a point, tax leaves 0. Round 2: 2 coins,
    # nothing bought, tax leaves 1. Round 3: 3 coins, a point, 0. Final scoring: 0 coins.
    game = _play(tmp_path, _base(tmp_path))
    assert game.players[0].counters["points"] == 2


def test_insert_before_after_and_into_place_the_phase_and_it_runs(tmp_path: Path) -> None:
    ir = _ir(
        tmp_path,
        "description: a windfall\n"
        "flow:\n"
        "  - insert: |\n"
        '      phase windfall "Windfall" {\n'
        "        for each p in players { gain coins 1 }\n"
        "      }\n"
        "    before: spend\n"
        "  - insert: |\n"
        "      phase audit { for each p in players { gain points 10 } }\n"
        "    into: end\n"
        "  - insert: 'phase toll { for each p in players { lose coins 1 } }'\n"
        "    after: tax\n",
    )
    assert _order(ir) == [
        "setup.start",
        "round.earn",
        "round.windfall",
        "round.spend",
        "round.tax",
        "round.toll",
        "end.last",
        "end.audit",
    ]
    windfall = ir["flow"]["sections"][1]["phases"][1]
    assert windfall["title"] == "Windfall"
    assert windfall["loc"]["line"] == 4  # the phase's own line in the YAML
    assert windfall["loc"]["file"].endswith("v.yaml")
    # 1 coin; each round +2 +1 = 4 at Spend: a point, 1 left, tax and toll take it. 3 rounds:
    # 3 points, then 0 coins at the end and the audit's 10.
    assert _play(tmp_path, ir).players[0].counters["points"] == 13


def test_replace_keeps_the_place_and_title_remove_and_move_reorder(tmp_path: Path) -> None:
    ir = _ir(
        tmp_path,
        "flow:\n"
        "  - replace: |\n"
        "      phase earn { for each p in players { gain coins 3 } }\n"
        "  - remove: tax\n"
        "  - move: spend\n"
        "    before: earn\n",
    )
    assert _order(ir) == ["setup.start", "round.spend", "round.earn", "end.last"]
    earn = ir["flow"]["sections"][1]["phases"][1]
    assert earn["title"] == "Earn"  # a replacement without a title keeps the base's
    # 1 coin; round 1 spends nothing (1), earns 3 (4); round 2 buys a point (1), earns (4);
    # round 3 the same: 2 points, 4 coins, scored at the end: 6.
    assert _play(tmp_path, ir).players[0].counters["points"] == 6


def test_move_into_another_section_and_end_when_replaced_or_removed(tmp_path: Path) -> None:
    ir = _ir(
        tmp_path,
        "flow:\n  - move: tax\n    into: setup\n  - end_when: points >= 1\n",
    )
    assert _order(ir) == ["setup.start", "setup.tax", "round.earn", "round.spend", "end.last"]
    assert ir["flow"]["end_when"]["kind"] != "num"
    game = _play(tmp_path, ir)
    # Setup: 1 coin, taxed to 0. Round 1: 2 coins. Round 2: 4, a point, and the end comes.
    assert game.result().reason == "end_when"
    assert game.round == 2
    flow_with_end = FLOW.replace("  winner highest", "  end when round == 1\n  winner highest")
    result, errors = _compile(tmp_path, "flow:\n  - end_when: null\n", flow_with_end)
    assert errors == []
    assert result.ir["flow"]["end_when"] is None
    assert _play(tmp_path, result.ir).round == 3


def test_edits_apply_in_order_each_to_the_flow_the_ones_above_left(tmp_path: Path) -> None:
    ir = _ir(
        tmp_path,
        "flow:\n"
        "  - insert: 'phase bonus { for each p in players { gain points 1 } }'\n"
        "    after: earn\n"
        "  - move: earn\n"
        "    after: bonus\n"
        "  - replace: 'phase bonus \"Bonus\" { for each p in players { gain points 2 } }'\n"
        "  - remove: bonus\n"
        "  - insert: 'phase bonus { for each p in players { gain points 5 } }'\n"
        "    into: end\n",
    )
    assert _order(ir) == [
        "setup.start",
        "round.earn",
        "round.spend",
        "round.tax",
        "end.last",
        "end.bonus",
    ]


# -- errors, at the YAML


def test_an_unknown_phase_is_reported_at_its_yaml_value_with_did_you_mean(
    tmp_path: Path,
) -> None:
    _result, errors = _compile(
        tmp_path,
        "flow:\n"
        "  - remove: taxes\n"
        "  - move: spend\n"
        "    after: ern\n"
        "  - replace: |\n"
        "      phase spnd { for each p in players { gain coins 1 } }\n"
        "  - insert: 'phase x { gain coins 1 }'\n"
        "    before: nowhere\n",
    )
    assert _where(errors) == [
        ("variant-flow", 2, 13),
        ("variant-flow", 4, 12),
        ("variant-flow", 6, 13),
        ("variant-flow", 8, 13),
    ]
    assert errors[0].message == "'taxes' is not a phase of this game's flow"
    assert errors[0].hints == ("did you mean 'tax'?",)
    assert errors[1].hints == ("did you mean 'earn'?",)
    assert errors[2].hints == ("did you mean 'spend'?",)
    assert errors[3].hints == ("phases: earn, last, spend, start, tax",)


def test_a_phase_inserted_twice_or_under_a_name_taken(tmp_path: Path) -> None:
    _result, errors = _compile(
        tmp_path,
        "flow:\n"
        "  - insert: 'phase storm { gain coins 1 }'\n"
        "    after: earn\n"
        "  - insert: |\n"
        "      phase storm { gain coins 2 }\n"
        "    into: end\n"
        "  - insert: 'phase tax { gain coins 1 }'\n"
        "    into: round\n",
    )
    assert _where(errors) == [("variant-flow", 5, 13), ("variant-flow", 7, 20)]
    assert "'storm' is inserted twice: it is already inserted at line 2" in errors[0].message
    assert "the flow already has a phase 'tax'" in errors[1].message
    assert "flow.cards:12:5" in errors[1].message
    assert "replace" in errors[1].hints[0]


def test_removing_a_phase_a_later_edit_names(tmp_path: Path) -> None:
    _result, errors = _compile(
        tmp_path,
        "flow:\n"
        "  - remove: tax\n"
        "  - move: tax\n"
        "    before: earn\n"
        "  - insert: 'phase y { gain coins 1 }'\n"
        "    after: tax\n"
        "  - remove: tax\n",
    )
    assert _where(errors) == [
        ("variant-flow", 3, 11),
        ("variant-flow", 6, 12),
        ("variant-flow", 7, 13),
    ]
    assert "'tax' is removed by an edit above (line 2)" in errors[0].message
    assert errors[0].hints == (
        "keep the phase, or drop this edit; to move it, do so before the remove at line 2",
    )
    assert "already removed at line 2" in errors[2].hints[0]


def test_a_syntax_error_inside_the_block_is_at_its_yaml_line_and_column(tmp_path: Path) -> None:
    _result, errors = _compile(
        tmp_path,
        "description: broken\n"
        "flow:\n"
        "  - insert: |\n"
        '      phase storm "Storm" {\n'
        "        if round >= 2 { lose coins (1 }\n"
        "      }\n"
        "    after: earn\n",
    )
    assert errors, "a syntax error is reported"
    first = errors[0]
    assert first.span.file.endswith("v.yaml")
    # The '(' stands at column 36 of the YAML's 5th line.
    assert (first.span.line, first.code) == (5, "unclosed-bracket")
    assert "opened at 5:36" in first.message


def test_the_checker_reports_an_inserted_body_at_the_yaml(tmp_path: Path) -> None:
    _result, errors = _compile(
        tmp_path,
        "flow:\n"
        "  - insert: |\n"
        "      phase storm {\n"
        "        for each p in players { gain coinz 1 }\n"
        "      }\n"
        "    after: earn\n"
        '  - end_when: "poinst >= 3"\n',
    )
    assert _where(errors) == [("name-undefined", 4, 38), ("name-undefined", 7, 16)]
    assert "did you mean 'coins'?" in errors[0].hints
    assert "did you mean 'points'?" in errors[1].hints


def test_the_shape_of_each_edit_is_checked(tmp_path: Path) -> None:
    _result, errors = _compile(
        tmp_path,
        "flow:\n"
        "  - insrt: 'phase a { gain coins 1 }'\n"  # 2
        "    after: earn\n"
        "  - insert: 'phase b { gain coins 1 }'\n"  # 4
        "  - insert: 'phase c { gain coins 1 }'\n"  # 5
        "    after: earn\n"
        "    before: tax\n"  # 7
        "  - remove: tax\n"  # 8
        "    move: earn\n"
        "  - replace: 'phase earn { gain coins 1 }'\n"  # 10
        "    after: tax\n"
        "  - move: earn\n"  # 12
        "    before: earn\n"
        "  - move: earn\n"  # 14
        "    into: spend\n"
        "  - move: earn\n"  # 16
        "    into: turn\n"
        "  - just a string\n"  # 18
        "  - end_when: 3\n"  # 19
        "  - insert: 'phase d { gain coins 1 }; phase e { gain coins 1 }'\n"  # 20
        "    into: end\n",
    )
    found = _where(errors)
    assert found == [
        ("variant-key", 2, 5),
        ("variant-shape", 4, 5),
        ("variant-shape", 7, 5),
        ("variant-shape", 9, 5),
        ("variant-shape", 11, 5),
        ("variant-flow", 13, 13),
        ("variant-flow", 15, 11),
        ("variant-flow", 17, 11),
        ("variant-shape", 18, 5),
        ("variant-value", 19, 15),
        ("variant-shape", 20, 13),
    ], [f"{d.span.line}:{d.span.column} {d.message}" for d in errors]
    by_line = {d.span.line: d for d in errors}
    assert by_line[2].hints[0] == "did you mean 'insert'?"
    assert "'spend' is a phase" in by_line[15].hints[0]
    assert "this game's flow has no 'turn' section" in by_line[17].message


def test_a_game_without_a_flow_has_none_to_edit(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "flow:\n  - remove: tax\n")
    (folder / "flow.cards").unlink()
    result, _overlay = compile_variant(folder, folder / "variants" / "v.yaml", SourceCache())
    mine = [d for d in result.diagnostics if d.code == "variant-flow"]
    assert [(d.span.line, d.span.column) for d in mine] == [(1, 1)]
    assert "declares no flow" in mine[0].message
    _result, errors = _compile(tmp_path, "flow: {remove: tax}\n")
    assert _where(errors) == [("variant-shape", 1, 7)]


@pytest.mark.parametrize(
    ("edit", "line"),
    [
        ("  - remove: tax\n", "phase tax: removed (was round, after spend)"),
        (
            "  - move: tax\n    before: earn\n",
            "phase tax: round, after spend -> round, first",
        ),
        (
            "  - insert: 'phase bonus \"Bonus\" { for each p in players { gain points 1 } }'\n"
            "    into: end\n",
            'phase bonus: added phase bonus "Bonus" { for each p in players { gain points 1 } }'
            ", in end, after last",
        ),
        (
            "  - replace: 'phase tax { for each p in players { lose coins 2 } }'\n",
            "phase tax > for each p in players: lose coins 1 -> lose coins 2",
        ),
        ('  - end_when: "round == 2"\n', "end when: added round == 2"),
    ],
)
def test_diff_shows_the_phase_edits(tmp_path: Path, edit: str, line: str) -> None:
    diff = diff_ir(_base(tmp_path), _ir(tmp_path, "flow:\n" + edit))
    text = diff.text()
    assert "flow:\n  " + line in text, text
    assert "1 flow change;" in text


def test_a_run_time_error_in_an_inserted_phase_names_its_yaml_line(tmp_path: Path) -> None:
    from engine.runtime import RuleError

    ir = _ir(
        tmp_path,
        "flow:\n"
        "  - insert: |\n"
        "      phase split {\n"
        "        for each p in players { gain coins 6 / (round - 1) }\n"
        "      }\n"
        "    before: earn\n",
    )
    said = r"v\.yaml:4:33: this divides by '\(round - 1\)', which is 0"
    with pytest.raises(RuleError, match=said):
        _play(tmp_path, ir)


def test_cardc_diff_and_variant_set_on_flow_edits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from compiler.cli import main

    (tmp_path / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n', encoding="utf-8"
    )
    text = "description: no tax\nflow:\n  - remove: tax\n"
    folder = _folder(tmp_path / "cards", text)
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "race", "race/v"]) == 0
    out = capsys.readouterr().out
    assert "flow:\n  phase tax: removed (was round, after spend)\n" in out
    assert main(["variant", "set", "race/v", "flow.1", "{move: earn, after: spend}"]) == 0
    assert (folder / "variants" / "v.yaml").read_text(encoding="utf-8") == (
        text + "  - {move: earn, after: spend}\n"
    )
    # An edit that would not check is refused, and the file is left as it was.
    assert main(["variant", "set", "race/v", "flow.0.remove", "taxes"]) == 1
    err = capsys.readouterr().err
    assert "v.yaml:3:13: error[variant-flow]: 'taxes' is not a phase" in err
    assert "did you mean 'tax'?" in err
    assert main(["variant", "unset", "race/v", "flow.1"]) == 0
    assert (folder / "variants" / "v.yaml").read_text(encoding="utf-8") == text


def test_into_a_setup_or_end_section_the_game_lacks_creates_it(tmp_path: Path) -> None:
    no_end = FLOW.replace(
        '  end {\n    phase last "Final scoring" { for each p in players { gain points coins } }\n'
        "  }\n",
        "",
    ).replace(
        '  setup {\n    phase start "Everyone lines up" '
        "{ for each p in players { gain coins 1 } }\n  }\n",
        "",
    )
    assert "end {" not in no_end and "setup {" not in no_end
    result, errors = _compile(
        tmp_path,
        "flow:\n"
        "  - insert: 'phase cash_in { for each p in players { gain points coins } }'\n"
        "    into: end\n"
        "  - insert: 'phase stake { for each p in players { gain coins 4 } }'\n"
        "    into: setup\n",
        no_end,
    )
    assert errors == []
    assert _order(result.ir) == [
        "setup.stake",
        "round.earn",
        "round.spend",
        "round.tax",
        "end.cash_in",
    ]
    # 4 coins; round 1: 6, a point, 3, tax 2; round 2: 4, a point, 1, 0; round 3: 2, 1.
    # Cashed in at the end: 2 points and 1 coin.
    assert _play(tmp_path, result.ir).players[0].counters["points"] == 3


@pytest.mark.parametrize(
    "edit",
    ["  - move: spend\n    before: earn\n", "  - move: earn\n    after: spend\n"],
)
def test_two_phases_that_trade_places_are_one_swap_however_it_was_written(
    tmp_path: Path, edit: str
) -> None:
    # Either move gives the same order: the diff says the same thing of both, a swap, not
    # one of the two (whichever the alignment kept) as "the one moved".
    diff = diff_ir(_base(tmp_path), _ir(tmp_path, "flow:\n" + edit))
    assert [c.line() for c in diff.flow] == [
        "phases earn and spend swapped: round, earn then spend -> round, spend then earn"
    ]
    words = rule_words(_Project(tmp_path), diff)["Flow"]
    assert words == ["Spend: now played in each round, before Earn (it traded places with Earn)."]


def test_a_swap_of_two_phases_apart_names_the_stretch_between(tmp_path: Path) -> None:
    diff = diff_ir(
        _base(tmp_path),
        _ir(tmp_path, "flow:\n  - move: tax\n    before: earn\n  - move: earn\n    after: spend\n"),
    )
    assert [c.line() for c in diff.flow] == [
        "phases earn and tax swapped: round, earn then spend then tax"
        " -> round, tax then spend then earn"
    ]


def test_moved_phases_are_the_fewest_that_explain_the_new_order(tmp_path: Path) -> None:
    # a b c d -> b d c a: two phases moved (d and a, the two the variant moves), where
    # difflib's SequenceMatcher (longest run first) kept one and told three as moved.
    flow = FLOW.replace(
        'phase tax "Tax" { for each p in players { lose coins 1 } }',
        'phase tax "Tax" { for each p in players { lose coins 1 } }\n'
        "    phase rest { for each p in players { gain coins 1 } }",
    )
    before = compile_game(_folder(tmp_path, None, flow), SourceCache()).ir
    result, errors = _compile(
        tmp_path,
        "flow:\n  - move: rest\n    after: spend\n  - move: earn\n    after: tax\n",
        flow,
    )
    assert errors == [] and before is not None and result.ir is not None
    assert _order(result.ir)[1:5] == ["round.spend", "round.rest", "round.tax", "round.earn"]
    lines = [c.line() for c in diff_ir(before, result.ir).flow]
    assert lines == [
        "phase rest: round, after tax -> round, after spend",
        "phase earn: round, first -> round, after tax",
    ]


class _Project:
    """The one thing rule_words asks of a project: where a game's folder is."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path

    def game_dir(self, game: str) -> Path:
        return self.tmp_path / game
