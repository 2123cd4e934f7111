"""Bad input of every kind a designer writes, through the commands: a clear error that names
the file, line and column (or the file and its key) with a hint, nothing lost, no traceback.

tests/test_fuzz.py feeds random tokens, YAML and arguments to the commands; this file mutates
the inputs a designer actually edits, systematically: a project's ``[tool.cardc]`` table (whose
``generated = "cards"`` once let ``cardc build`` swap the designer's cards out for its output),
a game's ``natives.py`` (what it registers and what it does at import and at run time), and
the shipped games' card files, scenarios and variants cut, shuffled and misnamed line by line.
Examples are derandomized and few, so the file runs in about a minute and every failure
reproduces.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import run

from compiler.cli import main


def _safe_yaml() -> Any:
    """ruamel.yaml's safe loader and dumper, the library cardc reads YAML with (a test that
    wrote YAML with PyYAML needed a dependency the project does not declare)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.allow_unicode = True
    yaml.default_flow_style = False
    return yaml


def _load_all(text: str) -> list[Any]:
    """Every document of a YAML text."""
    return list(_safe_yaml().load_all(text))


def _load(text: str) -> Any:
    """The one document of a YAML text."""
    return _safe_yaml().load(text)


def _dump(document: Any) -> str:
    """A document as YAML text."""
    out = io.StringIO()
    _safe_yaml().dump(document, out)
    return out.getvalue()


REPO = Path(__file__).resolve().parent.parent

# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")

FEW = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

#: A located diagnostic: ``path:line:col: error[code]: message``.
LOCATED = re.compile(r"^\S.*:\d+:\d+: error\[[a-z-]+\]: ", re.M)
#: What a user must never see: a traceback, cardc's last line of defence, or an exception's
#: bare repr where a sentence should be.
UNHANDLED = re.compile(
    r"Traceback|internal error|object has no attribute|object is not (callable|iterable|"
    r"subscriptable)|^(KeyError|TypeError|AttributeError|ValueError): ",
    re.M,
)


def snapshot(root: Path, skip: tuple[str, ...] = (".cardc-cache",)) -> dict[str, str]:
    """Every file under ``root`` (but ``skip``) by relative path, with a digest of its bytes."""
    files = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if rel.parts[0] in skip or "__pycache__" in rel.parts:
            continue
        files[rel.as_posix()] = (
            hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
        )
    return files


def assert_refused(status: int, output: str, where: str) -> None:
    """A failure (exit 1 or 2) that says where, with a hint, and nothing unhandled."""
    assert status in (1, 2), output
    assert not UNHANDLED.search(output), output
    assert re.search(rf"{re.escape(where)}:\d+:\d+: error\[[a-z-]+\]: ", output), output
    assert "hint: " in output, output


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project made by ``cardc new pebble`` and built once: the designer's starting point."""
    where = tmp_path_factory.mktemp("starter")
    cwd = Path.cwd()
    os.chdir(where)
    try:
        assert main(["new", "pebble"]) == 0
        os.chdir(where / "pebble")
        assert main(["build", "--no-sheets"]) == 0
    finally:
        os.chdir(cwd)
    return where / "pebble"


@pytest.fixture
def pebble(starter: Path, tmp_path: Path) -> Path:
    """A fresh copy of the built starter project."""
    root = tmp_path / "pebble"
    shutil.copytree(starter, root)
    return root


# -- the project's [tool.cardc] table ---------------------------------------------------------

#: Tables that once made a command write outside its own folder (the first three swapped out
#: the cards, the whole project and the scenarios for the build's output), or that were read
#: as a path named after their Python repr (``cards = 3`` made a folder "3").
BAD_TABLES = {
    "generated is the cards": 'generated = "cards"',
    "generated is the project": 'generated = "."',
    "generated holds the scenarios": 'generated = "tests"',
    "cards inside generated": 'cards = "generated/cards"',
    "outside the project": 'generated = "../elsewhere"',
    "absolute": 'cards = "{outside}"',
    "empty": 'generated = ""',
    "a number": "cards = 3",
    "a list": 'generated = ["generated"]',
    "a table": "cards = {path = 'cards'}",
    "a misspelt key": 'generatd = "out"',
}


@pytest.mark.parametrize("setting", BAD_TABLES.values(), ids=list(BAD_TABLES))
@pytest.mark.parametrize("command", [["build", "--no-sheets"], ["new", "zz"], ["check"]])
def test_a_bad_tool_cardc_table_is_refused_at_its_line_and_nothing_is_written(
    capsys: pytest.CaptureFixture[str], pebble: Path, setting: str, command: list[str]
) -> None:
    # An absolute path names a folder beside the project, so a write there is seen.
    setting = setting.replace("{outside}", (pebble.parent / "beside").as_posix())
    (pebble / "pyproject.toml").write_text(f"[project]\nname = 'x'\n\n[tool.cardc]\n{setting}\n")
    before = snapshot(pebble.parent)
    status, output = run(capsys, pebble, *command)
    assert_refused(status, output, "pyproject.toml")
    assert "pyproject.toml:5:1: error[project-config]" in output, output
    assert snapshot(pebble.parent) == before


def test_a_broken_pyproject_naming_tool_cardc_is_an_error_at_its_column(
    capsys: pytest.CaptureFixture[str], pebble: Path
) -> None:
    (pebble / "pyproject.toml").write_text('[tool.cardc\ncards = "cards"\n')
    status, output = run(capsys, pebble, "check")
    assert_refused(status, output, "pyproject.toml")
    assert "pyproject.toml:1:12: error[project-config]: not valid TOML" in output, output


def test_another_tools_broken_pyproject_is_not_cardcs_business(
    capsys: pytest.CaptureFixture[str], pebble: Path
) -> None:
    # No [tool.cardc] in it: the folder is a project by its cards/, as before.
    (pebble / "pyproject.toml").write_text("[tool.black\nline-length = \n")
    status, output = run(capsys, pebble, "check")
    assert status == 0, output


@pytest.mark.parametrize("name", ["pyproject.toml", "notes"])
def test_a_generated_folder_that_is_not_cardcs_is_never_replaced(
    capsys: pytest.CaptureFixture[str], pebble: Path, name: str
) -> None:
    # A file where the folder goes, or a folder of the designer's own (no manifest.json).
    (pebble / "notes").mkdir()
    (pebble / "notes" / "ideas.txt").write_text("a card that steals the moon\n")
    (pebble / "pyproject.toml").write_text(f'[tool.cardc]\ncards = "cards"\ngenerated = "{name}"\n')
    before = snapshot(pebble)
    status, output = run(capsys, pebble, "build", "--no-sheets")
    assert_refused(status, output, name)
    assert snapshot(pebble) == before


_FOLDER_VALUE = st.one_of(
    st.sampled_from(["cards", "generated", ".", "..", "tests", "tests/scenarios", "/", "~"]),
    st.text(alphabet="ab./\\~ -", max_size=8),
    st.integers(-2, 2),
    st.booleans(),
    st.lists(st.just("cards"), max_size=2),
)


@FEW
@given(cards=_FOLDER_VALUE, generated=_FOLDER_VALUE, scenarios=_FOLDER_VALUE)
def test_whatever_the_table_says_a_build_never_touches_the_sources(
    capsys: pytest.CaptureFixture[str],
    pebble: Path,
    cards: object,
    generated: object,
    scenarios: object,
) -> None:
    def toml(value: object) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(value, list):
            return "[" + ", ".join(toml(v) for v in value) + "]"
        return str(value)

    (pebble / "pyproject.toml").write_text(
        f"[tool.cardc]\ncards = {toml(cards)}\ngenerated = {toml(generated)}\n"
        f"scenarios = {toml(scenarios)}\n"
    )
    keep = ("cards", "tests", "pyproject.toml")
    before = {k: v for k, v in snapshot(pebble).items() if k.split("/")[0] in keep}
    status, output = run(capsys, pebble, "build", "--no-sheets")
    assert status in (0, 1, 2), output
    assert not UNHANDLED.search(output), output
    if status:
        assert LOCATED.search(output), output
    after = {k: v for k, v in snapshot(pebble).items() if k.split("/")[0] in keep}
    lost = {k for k in before if k not in after or after[k] != before[k]}
    assert not lost, (lost, output)


# -- a game's natives.py ----------------------------------------------------------------------

#: The starter game with one native and one verb of its own Python, which its card calls.
NATIVE_DECLARATIONS = (
    '  zone hand\n  native lucky "luck" { param amount number; returns number }\n'
    '  verb boom "boom" { param amount number }\n'
)
HEADER = "from engine.api import native, verb\n\n"
GOOD_NATIVE = (
    '@native("amount number", returns="number")\n'
    "def lucky(g, c, amount):\n"
    '    """The luck of an amount."""\n'
    "    return amount\n\n"
)
GOOD_VERB = (
    '@verb("amount number")\n'
    "def boom(g, c, amount):\n"
    '    """Gain coins."""\n'
    '    g.gain(c, "coins", amount)\n\n'
)


@pytest.fixture
def native_game(pebble: Path) -> Path:
    """The starter project whose game declares ``lucky`` and ``boom`` and whose card calls
    both, with a natives.py implementing them, built."""
    game = pebble / "cards" / "pebble" / "game.cards"
    game.write_text(game.read_text().replace("  zone hand\n", NATIVE_DECLARATIONS))
    card = pebble / "cards" / "pebble" / "cards.cards"
    card.write_text(card.read_text().replace("gain coins 2", "gain coins lucky(2)\n    boom 1"))
    (pebble / "cards" / "pebble" / "natives.py").write_text(HEADER + GOOD_NATIVE + GOOD_VERB)
    scenario = pebble / "tests" / "scenarios" / "pebble" / "lucky_find.yaml"
    scenario.write_text(
        scenario.read_text()
        .replace("coins: 3", "coins: 4")
        .replace("- gain player 1 coins 2", "- gain player 1 coins 2\n    - gain player 1 coins 1")
    )
    return pebble


def test_the_native_game_builds_tests_and_simulates(
    capsys: pytest.CaptureFixture[str], native_game: Path
) -> None:
    # The base the cases below break: each failure is the mutation's, not the setup's.
    for argv in (["build", "--no-sheets"], ["test"], ["sim", "pebble", "--games", "2"]):
        status, output = run(capsys, native_game, *argv)
        assert status == 0, (argv, output)


#: natives.py texts that cannot be loaded or used, and the line each is to be refused at
#: (LAST: the file's last line, where the wrong name is set).
LAST = 0
BROKEN_NATIVES = {
    # sys.exit() at import ended cardc: `cardc check` printed nothing and exited 0.
    "sys.exit(0) at import": ("import sys\nsys.exit(0)\n", 2),
    "sys.exit('bye') at import": ("import sys\nsys.exit('bye')\n", 2),
    # The shapes of the names the engine reads: each was a TypeError deep in a command.
    "NATIVES a list": (HEADER + GOOD_VERB + "NATIVES = [1, 2]\n", LAST),
    "NATIVES of a number": (HEADER + GOOD_VERB + "NATIVES = {'lucky': 3}\n", LAST),
    "DECKS a number": (HEADER + GOOD_NATIVE + GOOD_VERB + "DECKS = 3\n", LAST),
    "GAME_CLASS a number": (HEADER + GOOD_NATIVE + GOOD_VERB + "GAME_CLASS = 5\n", LAST),
    "GAME_CLASS not a Game": (HEADER + GOOD_NATIVE + GOOD_VERB + "GAME_CLASS = dict\n", LAST),
    "POLICIES a list": (HEADER + GOOD_NATIVE + GOOD_VERB + "POLICIES = [1]\n", LAST),
    "POLICIES of a number": (HEADER + GOOD_NATIVE + GOOD_VERB + "POLICIES = {'greedy': 3}\n", LAST),
    "MODES a string": (HEADER + GOOD_NATIVE + GOOD_VERB + "MODES = 'solo'\n", LAST),
    "MODES unknown": (HEADER + GOOD_NATIVE + GOOD_VERB + "MODES = ('solitaire',)\n", LAST),
    # An empty tuple was read as no MODES at all: every mode, the opposite of what it says.
    "MODES empty": (HEADER + GOOD_NATIVE + GOOD_VERB + "MODES = ()\n", LAST),
    "PLAYER_KEYS a number": (HEADER + GOOD_NATIVE + GOOD_VERB + "PLAYER_KEYS = 5\n", LAST),
    "GIVEN of a number": (HEADER + GOOD_NATIVE + GOOD_VERB + "GIVEN = {'luck': 3}\n", LAST),
    "a module __getattr__ that raises": (
        HEADER + GOOD_NATIVE + GOOD_VERB + "def __getattr__(name):\n    raise RuntimeError(name)\n",
        1,
    ),
    # The decorators' own arguments: bare AttributeErrors before.
    "@native(None)": (HEADER + "@native(None)\ndef lucky(g, c, amount):\n    return 1\n", 3),
    "@native on len": (HEADER + 'lucky = native("amount number", returns="number")(len)\n', 3),
    "@native on a number": (HEADER + 'lucky = native("amount number")(3)\n', 3),
    "a default that is no number": (
        HEADER + '@native("amount number = x", returns="number")\ndef lucky(g, c, amount):\n'
        "    return 1\n",
        3,
    ),
    "a parameter twice": (
        HEADER + '@native("amount number, amount number", returns="number")\n'
        "def lucky(g, c, a, b):\n    return 1\n",
        3,
    ),
}


@pytest.mark.parametrize("text,line", BROKEN_NATIVES.values(), ids=list(BROKEN_NATIVES))
def test_natives_that_cannot_be_used_are_an_error_at_their_line(
    capsys: pytest.CaptureFixture[str], native_game: Path, text: str, line: int
) -> None:
    natives = native_game / "cards" / "pebble" / "natives.py"
    natives.write_text(text)
    line = line or text.count("\n")
    before = snapshot(native_game / "generated")
    status, output = run(capsys, native_game, "check")
    assert_refused(status, output, "cards/pebble/natives.py")
    assert f"cards/pebble/natives.py:{line}:1: error[natives-broken]" in output, output
    status, output = run(capsys, native_game, "build", "--no-sheets")
    assert_refused(status, output, "cards/pebble/natives.py")
    assert snapshot(native_game / "generated") == before
    # cardc sim loads the natives beside the last build: the same error, at the same line.
    status, output = run(capsys, native_game, "sim", "pebble", "--games", "2")
    assert status in (1, 2), output
    assert not UNHANDLED.search(output), output
    assert f"natives.py:{line}:1: " in output, output


def test_empty_modes_are_refused_with_what_to_write(
    capsys: pytest.CaptureFixture[str], native_game: Path
) -> None:
    natives = native_game / "cards" / "pebble" / "natives.py"
    text = HEADER + GOOD_NATIVE + GOOD_VERB + "MODES = ()\n"
    natives.write_text(text)
    status, output = run(capsys, native_game, "check")
    assert status == 1, output
    line = text.count("\n")
    assert (
        f"cards/pebble/natives.py:{line}:1: error[natives-broken]: the game's natives cannot be "
        "used: MODES is empty, and a game is played in at least one mode"
    ) in output, output
    assert (
        'hint: write MODES as: MODES = ("solo", "competitive"); or leave MODES out, and every '
        "mode is played"
    ) in output, output


#: natives.py texts that load and check, then fail while a game runs: each failure is to be
#: reported at the card's DSL line and at the line of the game's Python that raised.
FAILING_AT_RUN_TIME = {
    "a native raising": (
        HEADER + '@native("amount number", returns="number")\ndef lucky(g, c, amount):\n'
        '    raise KeyError("x")\n\n' + GOOD_VERB,
        ("cards/pebble/cards.cards:5:5: KeyError: 'x'", "natives.py:5, in lucky"),
    ),
    "a verb gaining a counter the game lacks": (
        HEADER + GOOD_NATIVE + '@verb("amount number")\ndef boom(g, c, amount):\n'
        '    g.gain(c, "nothing", amount)\n',
        ("cards/pebble/cards.cards:6:5: KeyError: 'nothing'", "natives.py:10, in boom"),
    ),
    # sys.exit() inside a verb ended the whole run without a word.
    "a verb calling sys.exit": (
        "import sys\n" + HEADER + GOOD_NATIVE + '@verb("amount number")\n'
        "def boom(g, c, amount):\n    sys.exit(0)\n",
        ("cards/pebble/cards.cards:6:5: SystemExit: 0", "natives.py:11, in boom"),
    ),
}


@pytest.mark.parametrize("text,said", FAILING_AT_RUN_TIME.values(), ids=list(FAILING_AT_RUN_TIME))
def test_the_game_s_python_failing_mid_game_is_reported_at_the_card_and_the_python(
    capsys: pytest.CaptureFixture[str], native_game: Path, text: str, said: tuple[str, str]
) -> None:
    (native_game / "cards" / "pebble" / "natives.py").write_text(text)
    status, output = run(capsys, native_game, "build", "--no-sheets")
    assert status == 0, output
    status, output = run(capsys, native_game, "test")
    assert status == 1, output
    assert "tests/scenarios/pebble/lucky_find.yaml:11: the engine failed inside this step" in output
    for words in said:
        assert words in output, output
    status, output = run(capsys, native_game, "sim", "pebble", "--games", "2")
    assert status == 1, output
    assert "hint: replay it with" in output, output
    for words in said:
        assert words in output, output


@pytest.mark.parametrize(
    ("returned", "shown"),
    [("None", "None (NoneType)"), ("'3'", "'3' (str)"), ("True", "True (bool)")],
)
def test_a_native_returning_what_it_does_not_declare_is_a_rule_error_naming_it(
    capsys: pytest.CaptureFixture[str], native_game: Path, returned: str, shown: str
) -> None:
    # `gain coins lucky(2)` with lucky() giving None failed inside the engine's arithmetic
    # with a TypeError that named neither the native nor what it had declared.
    (native_game / "cards" / "pebble" / "natives.py").write_text(
        HEADER
        + '@native("amount number", returns="number")\n'
        + f"def lucky(g, c, amount):\n    return {returned}\n\n"
        + GOOD_VERB
    )
    assert run(capsys, native_game, "build", "--no-sheets")[0] == 0
    status, output = run(capsys, native_game, "test")
    assert status == 1, output
    assert not UNHANDLED.search(output), output
    assert (
        "cards/pebble/cards.cards:5:5: the native 'lucky' is declared to return a number "
        f"(returns number), and returned {shown}; its Python: cards/pebble/natives.py:3"
    ) in output, output


def test_a_policy_factory_that_raises_is_named_with_its_line(
    capsys: pytest.CaptureFixture[str], native_game: Path
) -> None:
    (native_game / "cards" / "pebble" / "natives.py").write_text(
        HEADER
        + GOOD_NATIVE
        + GOOD_VERB
        + "def careful(game, seat):\n    raise ValueError('no seat for me')\n\n"
        + "POLICIES = {'careful': careful}\n"
    )
    status, output = run(
        capsys, native_game, "sim", "pebble", "--games", "2", "--policy", "careful"
    )
    assert status in (1, 2), output
    assert not UNHANDLED.search(output), output
    assert re.search(
        r"natives\.py:14:1: the policy factory careful failed seating player 1: "
        r"ValueError: no seat for me",
        output,
    ), output


# -- command-line numbers ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["sim", "sweep"])
@pytest.mark.parametrize("games", ["0", "-3", "1000000001", "99999999999999999999"])
def test_a_number_of_games_no_run_can_play_is_refused_before_playing(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    pebble: Path,
    command: str,
    games: str,
) -> None:
    # 99999999999999999999 listed its chunks first and ran out of memory (an internal error).
    # Should the refusal go, the run must not start here (a billion games, or all the memory).
    from engine import sim

    def no_run(games: int, size: int = 0) -> list[tuple[int, int]]:
        raise AssertionError(f"a run of {games} games was started")

    monkeypatch.setattr(sim, "chunks_of", no_run)
    extra = ["--param", "rounds=2,3"] if command == "sweep" else []
    status, output = run(capsys, pebble, command, "pebble", "--games", games, *extra)
    assert status == 2, output
    assert not UNHANDLED.search(output), output
    assert "--games must be at least 1" in output or "--games is at most 1,000,000,000" in output


# (Not 99999999999999999999, refused the same way: should the refusal go, that many rounds
# would be played.)
@pytest.mark.parametrize("value", ["nan", "1e309", "-inf"])
def test_a_param_no_game_can_count_with_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], pebble: Path, value: str
) -> None:
    # nan and 1e309 were an internal error (a float made an int) once the game read them.
    for argv in (
        ["sim", "pebble", "--games", "2", "--param", f"rounds={value}"],
        ["sweep", "pebble", "--games", "2", "--param", f"rounds=2,{value}"],
    ):
        status, output = run(capsys, pebble, *argv)
        assert status == 2, output
        assert not UNHANDLED.search(output), output
        assert "is not a number a game can count with" in output, output
        assert "hint: give a whole or decimal number" in output, output


# -- the shipped games' sources, cut and misnamed ---------------------------------------------


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project holding a copy of the four shipped games and their scenarios, built once."""
    root = tmp_path_factory.mktemp("shipped")
    shutil.copytree(REPO / "cards", root / "cards")
    shutil.copytree(REPO / "tests" / "scenarios", root / "tests" / "scenarios")
    (root / "pyproject.toml").write_text('[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n')
    cwd = Path.cwd()
    os.chdir(root)
    try:
        assert main(["build", "--no-sheets"]) == 0
    finally:
        os.chdir(cwd)
    return root


_WORD = re.compile(r"\b[a-z_][a-z0-9_]{2,}\b")


def mutations(text: str, seed: int, count: int) -> list[tuple[str, str]]:
    """``count`` edits of ``text`` a designer makes by mistake, chosen by ``seed``: a line
    deleted, duplicated or swapped with the next, the file cut short, a name replaced by
    another name of the file (a counter where a verb goes, a card where a zone goes) or by
    itself less its last letter."""
    import random

    rng = random.Random(seed)
    lines = text.splitlines(keepends=True)
    names = sorted(set(_WORD.findall(text)))
    words = list(_WORD.finditer(text))
    out = []
    for _ in range(count):
        kind = rng.choice(["delete", "duplicate", "swap", "cut", "rename", "misspell"])
        i = rng.randrange(len(lines) - 1)
        if kind == "delete":
            edited = "".join(lines[:i] + lines[i + 1 :])
        elif kind == "duplicate":
            edited = "".join(lines[: i + 1] + lines[i:])
        elif kind == "swap":
            edited = "".join(lines[:i] + [lines[i + 1], lines[i]] + lines[i + 2 :])
        elif kind == "cut":
            edited = text[: rng.randrange(len(text))]
        else:
            word = rng.choice(words)
            other = rng.choice(names) if kind == "rename" else word.group()[:-1]
            edited = text[: word.start()] + other + text[word.end() :]
        out.append((f"{kind} {i}", edited))
    return out


def assert_reported(status: int, output: str) -> None:
    """Exit 0 (the edit still checks) or 1 with located errors; never anything unhandled."""
    assert status in (0, 1), output
    assert not UNHANDLED.search(output), output
    if status:
        assert LOCATED.search(output), output


GAME_FILES = [
    f"{game}/{name}"
    for game in ("uncharted_passage", "darwins_journey", "land_vs_sea", "incredible_expeditions")
    for name in ("game.cards", "flow.cards")
]


@pytest.mark.parametrize("source", GAME_FILES)
def test_a_shipped_game_file_cut_or_misnamed_is_reported_at_its_line(
    capsys: pytest.CaptureFixture[str], shipped: Path, source: str
) -> None:
    path = shipped / "cards" / source
    text = path.read_text()
    game = source.split("/")[0]
    try:
        for what, edited in mutations(text, GAME_FILES.index(source), 6):
            path.write_text(edited)
            status, output = run(capsys, shipped, "check", f"cards/{game}")
            assert_reported(status, f"{what}:\n{output}")
    finally:
        path.write_text(text)


def test_a_failed_build_leaves_generated_byte_for_byte(
    capsys: pytest.CaptureFixture[str], shipped: Path
) -> None:
    path = shipped / "cards" / "uncharted_passage" / "flow.cards"
    text = path.read_text()
    failed = 0
    try:
        for what, edited in mutations(text, 7, 4):
            path.write_text(edited)
            before = snapshot(shipped / "generated")
            status, output = run(capsys, shipped, "build", "--no-sheets")
            assert_reported(status, output)
            if status:
                failed += 1
                assert snapshot(shipped / "generated") == before, what
    finally:
        path.write_text(text)
        status, output = run(capsys, shipped, "build", "--no-sheets")
        assert status == 0, output
    assert failed, "no edit made the build fail: choose another seed"


#: Wrong YAML of every type, for any value of a scenario or a variant.
WRONG_VALUES = [None, True, -1, 10**30, 1.5, "ünï\tcode", [], {}, [[[[1]]]], {"a": {"b": 1}}]


def _yaml_paths(node: object, at: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    found = [at] if at else []
    if isinstance(node, dict):
        for key, value in node.items():
            found += _yaml_paths(value, (*at, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _yaml_paths(value, (*at, index))
    return found


def _with(node: object, at: tuple[object, ...], value: object) -> object:
    import copy

    node = copy.deepcopy(node)
    inner = node
    for key in at[:-1]:
        inner = inner[key]  # type: ignore[index]
    inner[at[-1]] = value  # type: ignore[index]
    return node


@FEW
@given(data=st.data())
def test_a_scenario_with_any_value_of_the_wrong_type_is_reported_at_its_line(
    capsys: pytest.CaptureFixture[str], shipped: Path, data: st.DataObject
) -> None:
    files = sorted((shipped / "tests" / "scenarios").rglob("*.yaml"))
    path = data.draw(st.sampled_from(files))
    text = path.read_text()
    document = next(d for d in _load_all(text) if d)
    at = data.draw(st.sampled_from(_yaml_paths(document)))
    value = data.draw(st.sampled_from(WRONG_VALUES))
    try:
        path.write_text(_dump(_with(document, at, value)))
        status, output = run(capsys, shipped, "test", str(path.relative_to(shipped)))
    finally:
        path.write_text(text)
    assert status in (0, 1), output
    assert not UNHANDLED.search(output), output
    if status:
        assert re.search(r"\.yaml:\d+", output), output


@FEW
@given(data=st.data())
def test_a_variant_with_any_value_of_the_wrong_type_is_reported_at_its_line(
    capsys: pytest.CaptureFixture[str], shipped: Path, data: st.DataObject
) -> None:
    files = sorted((shipped / "cards").glob("*/variants/*.yaml"))
    path = data.draw(st.sampled_from(files))
    text = path.read_text()
    document = _load(text)
    at = data.draw(st.sampled_from(_yaml_paths(document)))
    value = data.draw(st.sampled_from(WRONG_VALUES))
    try:
        path.write_text(_dump(_with(document, at, value)))
        status, output = run(capsys, shipped, "check", str(path.parent.parent.relative_to(shipped)))
    finally:
        path.write_text(text)
    assert_reported(status, output)


def test_pytest_in_a_project_with_a_bad_table_says_where_in_one_line(pebble: Path) -> None:
    # cardc's pytest plugin found the project while collecting the first YAML file: the
    # refusal came out as a collection error with pluggy's traceback.
    import subprocess
    import sys

    (pebble / "pyproject.toml").write_text("[tool.cardc]\ngenerated = 'cards'\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=pebble,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 4, output  # pytest's usage error
    assert "pyproject.toml:2:1: generated = 'cards' and cards = 'cards' overlap" in output
    assert "hint: " in output and "Traceback" not in output and "pluggy" not in output, output


# -- Incredible Expeditions' scenarios, every file, with its own names in the wrong places -----
# The sampled fuzz above draws 12 files from all four games' scenarios and never drew one of
# Incredible Expeditions'. This one mutates every document of every file of that game, seeded,
# with the wrong YAML types above and the game's own names where they do not belong (an
# Encounter in a hand, a Location as a Crew, cabin 9 of 6, a raise answer as a Market one).

IE_VALUES = [
    *WRONG_VALUES,
    "sea_serpent",
    "pilot",
    "misty_strait",
    "drowned_city_of_atlantis",
    "exhaust 9",
    "token gold",
    "deckhand for 5",
    9,
    0,
    ["sea_serpent"],
    ["pilot"] * 7,
    [9],
    {"hand": 3},
    {"heroism": -1},
]
#: A shape error as JSON Schema words it: it must come with the shape wanted.
_SHAPE = re.compile(r"is not of type|shapes allowed here")


@pytest.fixture(scope="module")
def expeditions(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project holding a copy of Incredible Expeditions and its scenarios, built once."""
    root = tmp_path_factory.mktemp("expeditions")
    shutil.copytree(
        REPO / "cards" / "incredible_expeditions", root / "cards" / "incredible_expeditions"
    )
    (root / "pyproject.toml").write_text('[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n')
    cwd = Path.cwd()
    os.chdir(root)
    try:
        assert main(["build", "incredible_expeditions", "--no-sheets"]) == 0
    finally:
        os.chdir(cwd)
    return root


@pytest.mark.parametrize(
    "source",
    sorted(
        p.name for p in (REPO / "tests" / "scenarios" / "incredible_expeditions").glob("*.yaml")
    ),
)
def test_an_incredible_expeditions_scenario_mutated_is_reported_at_its_line(
    capsys: pytest.CaptureFixture[str], expeditions: Path, source: str
) -> None:
    import json
    import random

    text = (REPO / "tests" / "scenarios" / "incredible_expeditions" / source).read_text()
    rng = random.Random(source)
    folder = expeditions / "mutated" / source.removesuffix(".yaml")
    folder.mkdir(parents=True)
    made = 0
    for document in (d for d in _load_all(text) if d):
        places = _yaml_paths(document)
        for _ in range(6):
            at, value = rng.choice(places), rng.choice(IE_VALUES)
            mutated = _dump(_with(document, at, value))
            (folder / f"m{made:04d}.yaml").write_text(f"# {at!r} = {value!r}\n{mutated}")
            made += 1
    status, output = run(
        capsys, expeditions, "test", str(folder.relative_to(expeditions)), "--format", "json"
    )
    assert status in (0, 1), output
    report = json.loads(output)
    assert report["passed"] + report["failed"] == made
    for scenario in report["scenarios"]:
        message = scenario["message"] or ""
        assert not UNHANDLED.search(message), message
        if scenario["passed"]:
            continue
        assert re.search(r"\.yaml:\d+", message), message
        for line in message.splitlines():
            if _SHAPE.search(line):
                # Located at the value (line and column), with the shape it should have.
                assert re.match(r"\S+\.yaml:\d+:\d+: .*; ", line), line
