"""Parameter bounds declared in the DSL (README, "The language"): ``param die_sides 6 { counts
"a die's sides"; min 2 "a die has 2 at least" }``, held wherever a value comes from: the game's
own line, a variant's ``params:``, ``cardc sim``/``sweep --param``.

Incredible Expeditions and Land vs Sea held their counting parameters in Python (a ``_COUNTS``
table and a ``_check_counts`` function each, the same check twice); their ``game.cards`` says
it now, and the other games say theirs. The checker's own case is
``tests/data/check/param_bounds`` (test_checker.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from test_variant_hardening import run

from compiler.pipeline import compile_game
from compiler.variants import compile_variant
from dsl.diagnostics import SourceCache
from dsl.nodes import Number, Property, String
from dsl.parser import parse
from engine.param_bounds import bound_problem
from engine.sim import SimError, Simulator

ROOT = Path(__file__).resolve().parent.parent
GENERATED = ROOT / "generated"


# -- the language


def test_a_param_line_with_a_block_parses_to_its_bounds_as_members() -> None:
    """The block is a counter's block (``{ min 1; max 6 }``): properties, a number and an
    optional reason in words each; ``counts`` and ``switch`` say in words what it is."""
    result = parse(
        'game g "G" {\n'
        '  param die_sides 6 { counts "a die\'s sides"; min 2 "a die has 2 at least" }\n'
        '  param storms 1 { switch "whether the storms are shuffled in" }\n'
        "}\n",
        "game.cards",
    )
    assert result.diagnostics == ()
    die, storms = result.file.declarations[0].body
    assert isinstance(die, Property) and isinstance(storms, Property)
    assert [member.name for member in die.body or ()] == ["counts", "min"]
    counts, least = die.body or ()
    assert isinstance(counts, Property) and isinstance(least, Property)
    assert [type(w) for clause in least.args for w in clause] == [Number, String]
    assert [w.value for clause in least.args for w in clause] == [2, "a die has 2 at least"]
    assert [w.value for clause in counts.args for w in clause] == ["a die's sides"]
    assert [member.name for member in storms.body or ()] == ["switch"]


GAME = """\
game {name} "A game of bounds" {{
  players 1..2
  score prestige
  counter prestige
{params}
  trigger reveal "a card is revealed"
  kind port_card "a port card" {{ property copies number }}
}}
"""


def _compiled(tmp_path: Path, params: str) -> Any:
    folder = tmp_path / "bounded"
    folder.mkdir(exist_ok=True)
    (folder / "game.cards").write_text(GAME.format(name="bounded", params=params), "utf-8")
    (folder / "cards.cards").write_text('port_card "Lisbon" { copies 1 }\n', "utf-8")
    return compile_game(folder, SourceCache())


def test_the_bounds_reach_the_ir_and_a_count_is_whole_and_none_or_more(tmp_path: Path) -> None:
    """``counts`` alone is a whole number 0 or more (no one counts fewer than none); ``min``
    and ``max`` alone bound any number; a switch is a whole number 0 to 1; a parameter with no
    block has no bounds in the IR."""
    result = _compiled(
        tmp_path,
        '  param hand 5 { counts "the cards of a hand" }\n'
        '  param die_sides 6 { counts "a die\'s sides"; min 2 "a die has 2 at least"; max 20 }\n'
        "  param speed 1.5 { min 0.5; max 2 }\n"
        '  param storms 0 { switch "whether the storms are shuffled in" }\n'
        "  param rounds 12",
    )
    assert [d.message for d in result.diagnostics if d.severity == "error"] == []
    bounds = result.ir["vocabulary"]["param_bounds"]
    none = dict.fromkeys(("min", "max", "counts", "switch", "min_why", "max_why"))
    assert bounds == {
        "die_sides": {
            **none,
            "whole": True,
            "min": 2,
            "max": 20,
            "counts": "a die's sides",
            "min_why": "a die has 2 at least",
        },
        "hand": {**none, "whole": True, "min": 0, "counts": "the cards of a hand"},
        "speed": {**none, "whole": False, "min": 0.5, "max": 2},
        "storms": {
            **none,
            "whole": True,
            "min": 0,
            "max": 1,
            "switch": "whether the storms are shuffled in",
        },
    }


def test_a_default_out_of_its_bounds_is_an_error_at_the_value(tmp_path: Path) -> None:
    """A game's own ``param die_sides 1`` under its ``min 2`` is refused at the 1, with what it
    counts, the bound, why, and what to write; no IR comes out."""
    result = _compiled(
        tmp_path, '  param die_sides 1 { counts "a die\'s sides"; min 2 "a die has 2 at least" }'
    )
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert [(d.code, d.span.line, d.span.column) for d in errors] == [("param-bounds", 5, 19)]
    assert errors[0].span.file.endswith("bounded/game.cards")
    assert errors[0].message == (
        "param die_sides is 1, but it counts a die's sides, and a die has 2 at least: "
        "a whole number, 2 or more"
    )
    assert errors[0].hints == ("set die_sides to 2 or more",)
    assert result.ir is None


@pytest.mark.parametrize(
    "value, kept",
    [(2, True), (7, True), (1, False), (2.5, False), (-3, False), (True, False), ("six", False)],
)
def test_bound_problem_keeps_a_whole_number_in_its_bounds_only(value: Any, kept: bool) -> None:
    """A count is a whole number (2.5 is not, nor yes/no, nor text) at least its ``min``."""
    bounds = {"whole": True, "min": 2, "max": None, "counts": "a die's sides"}
    problem = bound_problem("die_sides", value, bounds)
    assert (problem is None) == kept
    if problem is not None:
        shown = repr(value) if isinstance(value, str) else value
        assert problem[0].startswith(f"param die_sides is {shown}, but it counts a die's sides")
        assert problem[0].endswith(": a whole number, 2 or more")
        assert problem[1] == "set die_sides to 2 or more"


def test_bound_problem_says_a_switch_and_a_bounded_number_in_their_own_words() -> None:
    switch = {"whole": True, "min": 0, "max": 1, "switch": "whether the storms blow"}
    assert bound_problem("storms", 1, switch) is None
    assert bound_problem("storms", 2, switch) == (
        "param storms is 2, but it says whether the storms blow: 1 (yes) or 0 (no)",
        "set storms to 1 or 0",
    )
    speed = {"whole": False, "min": 0.5, "max": 2, "max_why": "the ship breaks"}
    assert bound_problem("speed", 1.25, speed) is None
    assert bound_problem("speed", 3, speed) == (
        "param speed is 3, but it must be a number, 0.5 to 2 (the ship breaks)",
        "set speed to a number from 0.5 to 2",
    )


# -- a variant's params:


def _variant_errors(tmp_path: Path, game: str, yaml: str) -> list[Any]:
    folder = tmp_path / game
    shutil.copytree(ROOT / "cards" / game, folder)
    variant = folder / "variants" / "odd.yaml"
    variant.write_text(yaml, encoding="utf-8")
    result, _overlay = compile_variant(folder, variant, SourceCache())
    assert result.ir is None
    return [d for d in result.diagnostics if d.severity == "error"]


def test_a_variants_param_out_of_its_bounds_is_an_error_at_the_yaml_value(tmp_path: Path) -> None:
    """``params: {die_sides: 0, cabins: 0}`` in an Incredible Expeditions house rule: both at
    their YAML values' line and column, in game.cards' words."""
    errors = _variant_errors(
        tmp_path,
        "incredible_expeditions",
        "description: odd\nparams:\n  die_sides: 0\n  cabins: 0\n",
    )
    errors.sort(key=lambda d: d.span.line)
    assert [(d.code, Path(d.span.file).name, d.span.line, d.span.column) for d in errors] == [
        ("param-bounds", "odd.yaml", 3, 14),
        ("param-bounds", "odd.yaml", 4, 11),
    ]
    assert errors[0].message == (
        "param die_sides is 0, but it counts a die's sides, and a die has 2 at least: "
        "a whole number, 2 or more"
    )
    assert errors[1].message == (
        "param cabins is 0, but it counts a board's Crew Cabins, and with none no Crew is ever "
        "hired: a whole number, 1 or more"
    )
    assert [d.hints for d in errors] == [
        ("set die_sides to 2 or more",),
        ("set cabins to 1 or more",),
    ]


def test_a_switch_set_past_1_in_a_variant_is_an_error_at_the_yaml_value(tmp_path: Path) -> None:
    """Darwin's Journey's ``use_pirate_scenario`` is a switch: 2 is neither on nor off."""
    errors = _variant_errors(
        tmp_path, "darwins_journey", "description: odd\nparams: {use_pirate_scenario: 2}\n"
    )
    assert [(d.code, d.span.line, d.span.column) for d in errors] == [("param-bounds", 2, 31)]
    assert errors[0].message == (
        "param use_pirate_scenario is 2, but it says whether the Pirate Scenario card (P1) "
        "sets up the board: 1 (yes) or 0 (no)"
    )
    assert errors[0].hints == ("set use_pirate_scenario to 1 or 0",)


#: The least each counting parameter of the two games could be when Python held them
#: (natives.py's and board.py's ``_COUNTS``), and Land vs Sea's 0-or-1 ``uncharted_tiles``.
FORMER_COUNTS = {
    "incredible_expeditions": {
        "die_sides": 2,
        "cabins": 1,
        "hand_size": 0,
        "market_size": 0,
        "acquisitions_per_turn": 0,
        "capable_crew": 0,
        "starting_money": 0,
        "starting_deck_size": 0,
        "locations_between": 0,
        "turn_limit": 1,
    },
    "land_vs_sea": {
        "stacks": 1,
        "hand_size": 1,
        "score_track": 0,
        "starting_tile_parts": 1,
        "waypoints_each": 0,
        "route_connection_points": 0,
    },
}


@pytest.mark.parametrize("game", sorted(FORMER_COUNTS))
def test_the_games_declare_the_bounds_their_python_held(game: str) -> None:
    """Each parameter the Python table counted is a whole number with the same least, in the
    built IR the simulator reads."""
    ir = Simulator(GENERATED / game).ir
    bounds = ir["vocabulary"]["param_bounds"]
    for name, least in FORMER_COUNTS[game].items():
        assert bounds[name]["whole"] is True, name
        assert bounds[name]["min"] == least, name
        assert bounds[name]["counts"], name
    if game == "land_vs_sea":
        assert bounds["uncharted_tiles"]["switch"]
        assert (bounds["uncharted_tiles"]["min"], bounds["uncharted_tiles"]["max"]) == (0, 1)


def test_the_games_python_no_longer_holds_the_counts() -> None:
    """The check is the DSL's now: no copy of it left in the games' Python."""
    import re

    for path in ("incredible_expeditions/natives.py", "land_vs_sea/board.py"):
        text = (ROOT / "cards" / path).read_text(encoding="utf-8")
        # The old table and check by name (Land vs Sea's AID_PLAYER_COUNTS, the player counts
        # a scoring aid serves, is no param bound).
        assert re.search(r"\b(_COUNTS|_check_counts)\b", text) is None, path


# -- the command line


@pytest.mark.parametrize(
    "game, param, words",
    [
        (
            "incredible_expeditions",
            "die_sides=1",
            "--param die_sides=1: param die_sides is 1, but it counts a die's sides, and a die "
            "has 2 at least: a whole number, 2 or more (set die_sides to 2 or more)",
        ),
        (
            "incredible_expeditions",
            "hand_size=2.5",
            "--param hand_size=2.5: param hand_size is 2.5, but it counts the cards of a full "
            "hand: a whole number, 0 or more (set hand_size to 0 or more)",
        ),
        (
            "incredible_expeditions",
            "turn_limit=many",
            "--param turn_limit=many: param turn_limit is 'many', but it counts the turns a game "
            "lasts",
        ),
        (
            "land_vs_sea",
            "uncharted_tiles=2",
            "param uncharted_tiles is 2, but it says whether the 24 Uncharted tiles are "
            "shuffled in: 1 (yes) or 0 (no) (set uncharted_tiles to 1 or 0)",
        ),
        (
            "darwins_journey",
            "workers=0",
            "param workers is 0, but it counts each player's workers, and with none no action "
            "is ever taken: a whole number, 1 or more (set workers to 1 or more)",
        ),
    ],
)
def test_sim_refuses_a_param_out_of_its_bounds_in_game_cards_words(
    capsys: pytest.CaptureFixture[str], game: str, param: str, words: str
) -> None:
    """``cardc sim --param``: a clear error, no traceback, no game played."""
    status, out = run(capsys, "sim", game, "--param", param, "--games", "1", "--no-cards")
    assert status != 0
    assert words in out
    assert "Traceback" not in out


def test_sweep_refuses_a_value_out_of_bounds_among_its_values(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out = run(
        capsys, "sweep", "incredible_expeditions", "--param", "die_sides=6,0", "--games", "1"
    )
    assert status != 0
    assert "--param die_sides=0: param die_sides is 0, but it counts a die's sides" in out
    assert "Traceback" not in out


def test_a_simulator_keeps_a_param_in_its_bounds() -> None:
    """The same bounds let a value inside them through: a die of 2 sides plays (on a board of
    2 Crew Cabins: with the 6, cabins 3 to 6 are never rolled, which the game's own check
    refuses since audit13-ie)."""
    simulator = Simulator(GENERATED / "incredible_expeditions", {"die_sides": 2, "cabins": 2})
    assert simulator.ir["vocabulary"]["params"]["die_sides"] == 2
    with pytest.raises(SimError, match="param die_sides is 1, but it counts a die's sides"):
        Simulator(GENERATED / "incredible_expeditions", {"die_sides": 1})


def test_a_params_hover_says_what_it_counts_and_the_values_it_takes() -> None:
    """The editor's hover over a parameter's name says its bounds as cardc check does."""
    from compiler.lsp_index import GameIndex
    from compiler.vocabulary import Vocabulary

    vocab = Vocabulary(game="g")
    vocab.params.update({"die_sides": 6, "storms": 0, "rounds": 12})
    vocab.param_bounds["die_sides"] = {"whole": True, "min": 2, "counts": "a die's sides"}
    vocab.param_bounds["storms"] = {
        "whole": True,
        "min": 0,
        "max": 1,
        "switch": "whether it storms",
    }
    index = GameIndex(vocab, [], None)
    hovers = {name: index.lookup(name) for name in ("die_sides", "storms", "rounds")}
    assert {name: (e.doc, e.signature) for name, e in hovers.items() if e} == {
        "die_sides": ("counts a die's sides: a whole number, 2 or more", "param die_sides 6"),
        "storms": ("says whether it storms: 1 (yes) or 0 (no)", "param storms 0"),
        "rounds": ("", "param rounds 12"),
    }
