"""Checker diagnostics, as a designer sees them: one tiny game per mistake.

Each ``tests/data/check/<case>/`` is a game folder (its name is the game's name): a
``game.cards`` whose first line promises the diagnostic codes the case must produce,
``# expect: code, code``, a ``cards.cards``, and ``expected.txt``, exactly what ``cardc check``
prints for the folder (``render_all``: location, code, message, source line, underline, hints,
summary), with paths relative to ``tests/data/check/``. ``pytest --update-golden`` rewrites the
``expected.txt`` files; read the diff, since that text is what a designer must act on. Beside
the golden text, the table ``POINTS`` asserts the part of each message that matters (where it
points, the "did you mean") so that a careless ``--update-golden`` cannot lose it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from compiler.pipeline import GameResult, compile_game
from dsl.diagnostics import Diagnostic, SourceCache, render_all

REPO_ROOT = Path(__file__).resolve().parent.parent
CASES_DIR = REPO_ROOT / "tests" / "data" / "check"
CASES = sorted(p.name for p in CASES_DIR.iterdir() if (p / "game.cards").is_file())

#: Every checker diagnostic a designer meets; each must be promised by some case.
REQUIRED_CODES = frozenset(
    """
    name-undefined verb-undefined native-undefined trigger-undefined kind-undefined tag-unknown
    property-unknown property-missing property-type duplicate-card duplicate-property
    duplicate-trigger duplicate-name arity type-mismatch else-on-verb shadowed-name
    provisional-reason annotation-unknown game-name no-game property-clause bad-property
    quantity-unknown quantity-missing quantity-twice window-in-itself copies-count round-count
    property-names names-undefined bad-symbol param-bounds bad-param
    """.split()
)

_EXPECT = re.compile(r"# expect: *(?P<codes>[a-z-]+(?: *, *[a-z-]+)*) *$")
_HEADER = re.compile(r"^(?P<file>[^\s:]+):(?P<line>\d+):(?P<col>\d+): (?:error|warning|note)\[")


def _compile(case: str, monkeypatch: pytest.MonkeyPatch) -> tuple[GameResult, SourceCache]:
    """Compile one case with ``tests/data/check/`` as the working directory (stable paths)."""
    monkeypatch.chdir(CASES_DIR)
    sources = SourceCache()
    return compile_game(Path(case), sources), sources


def _promised(case: str) -> set[str]:
    first = (CASES_DIR / case / "game.cards").read_text(encoding="utf-8").split("\n", 1)[0]
    match = _EXPECT.fullmatch(first)
    assert match, f"{case}/game.cards must start with '# expect: code, ...', not {first!r}"
    return {code.strip() for code in match["codes"].split(",")}


def test_every_code_has_a_case() -> None:
    promised = set().union(*(_promised(case) for case in CASES))
    assert REQUIRED_CODES - promised == set()


@pytest.mark.parametrize("case", CASES)
def test_case_produces_exactly_the_promised_codes(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, _ = _compile(case, monkeypatch)
    assert {d.code for d in result.diagnostics} == _promised(case)
    # Every case is an error a build must refuse: no IR comes out of it.
    assert result.ir is None
    assert all(d.severity == "error" for d in result.diagnostics)


@pytest.mark.parametrize("case", CASES)
def test_rendered_diagnostics_match_expected(
    case: str, monkeypatch: pytest.MonkeyPatch, update_golden: bool
) -> None:
    result, sources = _compile(case, monkeypatch)
    actual = render_all(result.diagnostics, sources) + "\n"
    expected = CASES_DIR / case / "expected.txt"
    if update_golden:
        expected.write_text(actual, encoding="utf-8")
        return
    assert expected.is_file(), f"no {expected.name} for {case}: run pytest --update-golden"
    assert actual == expected.read_text(encoding="utf-8")


# (case, code, "file:line:col", words the message or a hint must hold)
POINTS = [
    ("name_undefined_counter", "name-undefined", "cards.cards:4:8", "did you mean 'prestige'?"),
    ("name_undefined_track", "name-undefined", "cards.cards:4:10", "did you mean 'durability'?"),
    ("name_undefined_track", "name-undefined", "cards.cards:4:10", "not a track"),
    ("verb_undefined", "verb-undefined", "cards.cards:4:5", "did you mean 'gain'?"),
    ("verb_undefined", "verb-undefined", "cards.cards:5:5", 'verb plunder "what it does"'),
    ("native_undefined", "native-undefined", "cards.cards:4:8", "did you mean 'count'?"),
    ("native_undefined", "native-undefined", "cards.cards:7:16", "native treasure_value"),
    ("trigger_undefined", "trigger-undefined", "cards.cards:3:3", "did you mean 'reveal'?"),
    ("kind_undefined", "kind-undefined", "cards.cards:1:1", "did you mean 'port_card'?"),
    ("tag_unknown", "tag-unknown", "cards.cards:1:9", "did you mean 'trade'?"),
    ("property_unknown", "property-unknown", "cards.cards:2:3", "did you mean 'copies'?"),
    ("property_unknown", "property-unknown", "cards.cards:2:3", "nothing would read it"),
    ("property_missing", "property-missing", "cards.cards:1:1", "'copies'"),
    ("property_type", "property-type", "cards.cards:2:10", "must be a number"),
    ("property_type", "type-mismatch", "cards.cards:7:13", "'restraint' needs a yes/no test"),
    ("duplicate_card", "duplicate-card", "cards.cards:5:1", "duplicate_card/cards.cards:1:1"),
    (
        "duplicate_property",
        "duplicate-property",
        "cards.cards:3:3",
        "duplicate_property/cards.cards:2:3",
    ),
    ("duplicate_trigger", "duplicate-trigger", "cards.cards:6:3", "at line 3"),
    ("duplicate_name", "duplicate-name", "game.cards:15:10", "already declared as a counter"),
    ("arity", "arity", "cards.cards:4:18", "too many arguments for 'gain'"),
    ("arity", "arity", "cards.cards:5:5", "'pay' is missing its AMOUNT"),
    ("arity", "arity", "cards.cards:6:19", "'up_to' needs a value after it"),
    ("arity", "arity", "cards.cards:7:16", "'max' is missing its B"),
    ("arity", "arity", "cards.cards:8:19", "'reduce' needs 'up_to' before its AMOUNT"),
    ("type_mismatch", "type-mismatch", "cards.cards:4:8", "the condition needs a yes/no test"),
    ("type_mismatch", "type-mismatch", "cards.cards:7:10", "takes the name of a counter"),
    ("type_mismatch", "type-mismatch", "cards.cards:8:13", "the CARD of 'discard' needs a card"),
    ("type_mismatch", "type-mismatch", "cards.cards:13:18", "takes dice such as 2d6"),
    ("else_on_verb", "else-on-verb", "cards.cards:4:23", "'gain' always succeeds"),
    ("shadowed_name", "shadowed-name", "cards.cards:4:9", "'coins' is already a counter"),
    ("shadowed_name", "shadowed-name", "cards.cards:6:5", "'result' is already a value"),
    ("provisional_reason", "provisional-reason", "cards.cards:2:12", "say why"),
    ("provisional_reason", "provisional-reason", "cards.cards:6:12", "say why"),
    ("annotation_unknown", "annotation-unknown", "cards.cards:2:12", "did you mean 'provisional'?"),
    ("game_name", "game-name", "game.cards:3:6", "its folder is 'game_name'"),
    ("property_clause", "property-clause", "cards.cards:6:19", "begins each with stars, die"),
    ("bad_property", "bad-property", "game.cards:8:28", "did you mean 'optional'?"),
    ("bad_property", "bad-property", "game.cards:9:30", "a 'clauses' line (a list or any"),
    # A property declared { names ... }: a name of another sort is an error at it, with the
    # names of the right sort; a misspelt one has its "did you mean".
    ("property_names", "property-names", "cards.cards:6:35", "'kraken' is a space tagged"),
    ("property_names", "property-names", "cards.cards:6:35", "a space tagged port or a region:"),
    ("property_names", "property-names", "cards.cards:7:33", "'lisbon' is a space tagged port"),
    ("property_names", "property-names", "cards.cards:7:33", "a region: europe, africa"),
    ("property_names", "name-undefined", "cards.cards:8:31", "did you mean 'lisbon'?"),
    ("property_names", "property-type", "cards.cards:9:37", "holds names, each a space"),
    ("names_undefined", "names-undefined", "game.cards:10:39", "did you mean 'space'?"),
    ("names_undefined", "tag-unknown", "game.cards:11:47", "takes the tags: port, discovery"),
    ("names_undefined", "bad-symbol", "game.cards:7:41", "did you mean 'group'?"),
    ("no_game", "no-game", "game.cards:1:1", 'game no_game "Title"'),
    ("fire_window", "trigger-undefined", "cards.cards:4:10", "did you mean 'pirate_raid'?"),
    ("fire_window", "quantity-unknown", "cards.cards:5:27", "did you mean 'damage'?"),
    ("fire_window", "quantity-missing", "cards.cards:6:10", "'armament' too"),
    (
        "fire_window",
        "quantity-missing",
        "cards.cards:6:10",
        "write: fire pirate_combat with pirate_power ..., armament ... { ... }",
    ),
    ("fire_window", "quantity-twice", "cards.cards:7:37", "fire_window/cards.cards:7:27"),
    ("fire_window", "name-undefined", "cards.cards:9:14", "let more damage + 1"),
    ("fire_window", "shadowed-name", "cards.cards:10:11", "a quantity of the window"),
    ("fire_window", "window-in-itself", "cards.cards:14:10", "would never end"),
    ("copies_count", "copies-count", "cards.cards:1:26", "0 or more, not -1"),
    ("copies_count", "copies-count", "cards.cards:2:33", "a whole number, 0 or more, not 2.5"),
    ("round_count", "round-count", "game.cards:7:16", "'rounds' cannot be 0"),
    ("round_count", "round-count", "cards.cards:2:9", "'extra_rounds' is -2"),
    (
        "param_bounds",
        "param-bounds",
        "game.cards:7:19",
        "param die_sides is 1, but it counts a die's sides, and a die has 2 at least: "
        "a whole number, 2 or more set die_sides to 2 or more",
    ),
    ("param_bounds", "param-bounds", "game.cards:8:19", "a whole number, 0 or more"),
    ("param_bounds", "param-bounds", "game.cards:9:16", "1 (yes) or 0 (no) set storms to 1 or 0"),
    ("param_bounds", "param-bounds", "game.cards:10:15", "a number from 0.5 to 6"),
    ("param_bounds", "bad-param", "game.cards:11:37", "a count's min is a whole number"),
    ("param_bounds", "bad-param", "game.cards:12:51", "a switch is 0 or 1"),
    ("param_bounds", "bad-param", "game.cards:13:25", "no less than 4 and no more than 2"),
    ("param_bounds", "bad-param", "game.cards:14:18", "holds counts, switch, min and max"),
    ("param_bounds", "bad-param", "game.cards:15:17", "in words what the parameter counts"),
]


@pytest.mark.parametrize(("case", "code", "where", "words"), POINTS)
def test_diagnostic_points_at_the_mistake(
    case: str, code: str, where: str, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    result, _ = _compile(case, monkeypatch)
    at = [d for d in result.diagnostics if str(d.span) == f"{case}/{where}" and d.code == code]
    assert at, f"no {code} at {where}; got {[(d.code, str(d.span)) for d in result.diagnostics]}"
    texts = [" ".join((d.message, *d.hints)) for d in at]
    assert any(words in text for text in texts), texts


def test_one_mistake_gives_one_diagnostic(monkeypatch: pytest.MonkeyPatch) -> None:
    # A misspelt key is not also reported as the missing property it was meant to be, and a
    # marker word with no value is not also reported as a missing argument.
    unknown, _ = _compile("property_unknown", monkeypatch)
    assert [d.code for d in unknown.diagnostics] == ["property-unknown"]
    arity, _ = _compile("arity", monkeypatch)
    assert [str(d.span) for d in arity.diagnostics].count("arity/cards.cards:6:5") == 0


def _cardc(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "compiler.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _key(file: str, line: int, column: int) -> tuple[str, int, int]:
    return (file, line, column)


def test_cli_exits_1_and_sorts_every_diagnostic_by_file_and_line() -> None:
    # Given in reverse order, the games are compiled in reverse order: only sorting puts the
    # diagnostics back in order.
    run = _cardc("check", *reversed(CASES), cwd=CASES_DIR)
    assert run.returncode == 1, run.stderr
    headers = [m.groups() for m in map(_HEADER.match, run.stderr.splitlines()) if m]
    keys = [_key(f, int(line), int(col)) for f, line, col in headers]
    assert len({k[0].split("/")[0] for k in keys}) == len(CASES)
    assert keys == sorted(keys)
    summary = run.stderr.rstrip().splitlines()[-1]
    assert summary == f"{len(keys)} errors, 0 warnings"

    as_json = _cardc("check", "--format", "json", *reversed(CASES), cwd=CASES_DIR)
    assert as_json.returncode == 1
    found = json.loads(as_json.stdout)["diagnostics"]
    json_keys = [_key(d["file"], d["line"], d["column"]) for d in found]
    assert json_keys == sorted(json_keys)
    assert json_keys == keys


def test_render_all_sorts_diagnostics_gathered_out_of_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gathered: list[Diagnostic] = []
    sources = SourceCache()
    for case in reversed(CASES):
        result, case_sources = _compile(case, monkeypatch)
        gathered.extend(reversed(result.diagnostics))
        for d in result.diagnostics:
            lines = case_sources.lines(d.span.file)
            if lines is not None:
                sources.put(d.span.file, "\n".join(lines))
    text = render_all(gathered, sources)
    keys = [
        _key(m["file"], int(m["line"]), int(m["col"]))
        for m in map(_HEADER.match, text.splitlines())
        if m
    ]
    assert len(keys) == len(gathered)
    assert keys == sorted(keys)


def test_cli_exits_0_on_the_real_projects_cards() -> None:
    run = _cardc("check", cwd=REPO_ROOT)
    assert run.returncode == 0, run.stderr
    assert "no errors" in run.stdout


def test_a_names_line_on_a_parameter_that_takes_no_names_is_an_error(tmp_path: Path) -> None:
    """``param amount number { names space }``: only a card_name or name parameter names
    something; the line is refused at it, not ignored."""
    game = tmp_path / "charts"
    game.mkdir()
    (game / "game.cards").write_text(
        'game charts "Charts" {\n  players 1\n  counter coins\n'
        '  kind space "a space" { tags port }\n'
        '  verb chart "chart a space" { param amount number { names space } }\n}\n',
        encoding="utf-8",
    )
    result = compile_game(game, SourceCache())
    found = [(d.code, d.span.line, d.span.column) for d in result.diagnostics]
    assert ("bad-param", 5, 54) in found, found
