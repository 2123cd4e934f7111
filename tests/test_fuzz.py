"""Property tests: no input makes a command print an internal error or hang.

Hypothesis feeds fuzzed DSL, variant YAML, scenario YAML, reference YAML and command-line
values through the commands (in process, on a small temporary project) and asserts what a
user may see: exit 0, 1 or 2, and for a failure a message that names where, never
"internal error" or a traceback. The examples are few and derandomized, so the file runs in
seconds and a failure reproduces on every machine; ``HYPOTHESIS_PROFILE=deep`` runs many more.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from compiler.cli import main

REPO = Path(__file__).resolve().parent.parent
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'

settings.register_profile(
    "ci",
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
settings.register_profile(
    "deep", parent=settings.get_profile("ci"), max_examples=300, derandomize=False
)
PROFILE = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: A located diagnostic: ``path:line:col: severity[code]: message``.
LOCATED = re.compile(r"^\S.*:\d+:\d+: (error|warning|note)\[[a-z-]+\]: ", re.M)


# Each test compiles its copies afresh and leaves no kept checks behind (conftest.py).
pytestmark = pytest.mark.usefixtures("fresh_file_cache")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project with a copy of Land vs Sea, built once (the sim and scenarios need it)."""
    root = tmp_path_factory.mktemp("fuzz")
    shutil.copytree(REPO / "cards" / "land_vs_sea", root / "cards" / "land_vs_sea")
    (root / "pyproject.toml").write_text(PYPROJECT)
    cwd = Path.cwd()
    os.chdir(root)
    try:
        assert main(["build", "--no-sheets"]) == 0
    finally:
        os.chdir(cwd)
    return root


def run(capsys: pytest.CaptureFixture[str], root: Path, *argv: str) -> tuple[int, str]:
    """``cardc argv...`` in ``root``: the exit status and all it printed; usage errors that
    argparse raises count as exit 2."""
    cwd = Path.cwd()
    os.chdir(root)
    said = ""
    try:
        try:
            status = main(list(argv))
        except SystemExit as exited:
            code = exited.code
            # SystemExit("message") is printed by the interpreter, with exit status 1.
            status, said = (code, "") if isinstance(code, int) else (1, str(code))
    finally:
        os.chdir(cwd)
    out, err = capsys.readouterr()
    return status, out + err + said


def assert_handled(status: int, output: str) -> None:
    """Exit 0, 1 or 2, never an internal error; a failure says something."""
    assert status in (0, 1, 2), output
    assert "internal error" not in output, output
    assert "Traceback" not in output, output
    if status:
        assert output.strip(), "a failure with no message"


# -- strategies


_DSL_WORDS = [
    "tile",
    "layer",
    "rule",
    '"Name"',
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    "on",
    "if",
    "else",
    "unless",
    "for",
    "each",
    "in",
    "where",
    "may",
    "choose",
    "one",
    "of",
    "repeat",
    "let",
    "city",
    "true",
    "false",
    "score",
    "gain",
    "tile_placed",
    "count(x)",
    "2d6",
    "-3d6",
    "0d0",
    "12%",
    "1..6",
    "+",
    "-",
    "*",
    "/",
    "==",
    "<",
    "and",
    "or",
    "not",
    ".",
    ",",
    ";",
    "#",
    '@provisional("why")',
    '"\\u{1F3B2}"',
    '"\\q"',
    '"\\u{110000}"',
    "\n",
    "  ",
    "\t",
    "9" * 30,
    "9" * 4400,
    "1." + "9" * 40,
    "\x00",
    "\x1b[2J",
    "\u202e",
    "é",
    "\r",
]


@st.composite
def dsl_text(draw: st.DrawFn) -> str:
    """Card-file text: DSL tokens in any order, with stray characters among them."""
    words = draw(st.lists(st.sampled_from(_DSL_WORDS) | st.text(max_size=4), max_size=40))
    return " ".join(words)


_SCALAR = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**25), max_value=10**25)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(
        ["highest(2d6)", "stars 3", "city", "\x07", "*", "&a", "{", "- x", "../x", "a/b.cards"]
    )
)
_VALUES = st.recursive(
    _SCALAR,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(max_size=8) | st.sampled_from(["city", "copies"]), inner, max_size=4
        )
    ),
    max_leaves=12,
)
_VARIANT_KEYS = st.sampled_from(
    [
        "extends",
        "description",
        "params",
        "tracks",
        "cards",
        "remove",
        "remove_kinds",
        "add",
        "add_files",
        "typo",
    ]
)


def _yaml(value: object) -> str:
    import io

    from ruamel.yaml import YAML

    stream = io.StringIO()
    YAML(typ="safe", pure=True).dump(value, stream)
    return stream.getvalue()


_RAW_YAML = st.lists(
    st.sampled_from(
        [
            "a: ",
            "&x ",
            "*x",
            "[",
            "]",
            "{",
            "}",
            "- ",
            "\n",
            "  ",
            ": ",
            "'",
            '"',
            "|",
            ">",
            "---",
            "...",
            "#",
            "!!python/object:os.system",
            "<<: ",
            "\t",
            "\x01",
            "\ufeff",
            "%TAG",
        ]
    )
    | st.text(max_size=3),
    max_size=30,
).map("".join)


@st.composite
def variant_yaml(draw: st.DrawFn) -> str:
    """A variant file: keys it knows and some it does not, holding any values; or raw text."""
    if draw(st.booleans()):
        return draw(_RAW_YAML)
    data = draw(st.dictionaries(_VARIANT_KEYS, _VALUES, max_size=4))
    if draw(st.booleans()):
        data["cards"] = {
            draw(st.sampled_from(["lost_city", "lost_traders", "nope"])): draw(
                st.dictionaries(st.sampled_from(["city", "edges", "text", "copies"]), _VALUES)
            )
        }
    if draw(st.booleans()):
        data["add"] = draw(dsl_text())
    return _yaml(data)


@st.composite
def reference_yaml(draw: st.DrawFn) -> str:
    """A reference.yaml: its keys with values of any shape; or raw text."""
    if draw(st.integers(0, 3)) == 0:
        return draw(_RAW_YAML)
    keys = st.sampled_from(
        ["phases", "tables", "notes", "icons", "words", "phrases", "when", "printed_kinds"]
    )
    data = draw(st.dictionaries(keys, _VALUES, max_size=4))
    if draw(st.booleans()):
        data["icons"] = {"city": {"shape": draw(st.sampled_from(["city", "coin", "nope", 3]))}}
    return _yaml(data)


@st.composite
def scenario_yaml(draw: st.DrawFn) -> str:
    """A scenario: the game and variant named anyhow, steps and dice of any shape."""
    if draw(st.integers(0, 3)) == 0:
        return draw(_RAW_YAML)
    names = st.sampled_from(["land_vs_sea", "../land_vs_sea", "/tmp", "a.b", "nope", "", "x" * 300])
    data: dict[str, object] = {
        "scenario": draw(st.text(max_size=10)),
        "game": draw(names | _SCALAR),
        "do": draw(
            st.lists(
                st.dictionaries(
                    st.sampled_from(["run", "fire", "action"]),
                    st.sampled_from(["lost_city.tile_placed", "tile_placed", "x.y", "..", "end"]),
                    min_size=1,
                    max_size=1,
                ),
                max_size=3,
            )
            | _VALUES
        ),
    }
    if draw(st.booleans()):
        data["variant"] = draw(names | _SCALAR)
    if draw(st.booleans()):
        data["dice"] = draw(st.lists(st.integers(-5, 10**20), max_size=3) | _VALUES)
    if draw(st.booleans()):
        data["seed"] = draw(_SCALAR)
    return _yaml(data)


_ARG = st.sampled_from(
    [
        "nan",
        "inf",
        "-1",
        "0",
        "1",
        "3",
        "1e400",
        "9" * 30,
        "",
        "..",
        "../x",
        "/tmp",
        "a" * 300,
        "\x1b[31m",
        "land_vs_sea",
        "land_vs_sea/experienced",
        "land_vs_sea/nope",
        "land_vs_sea/../x",
        "cards.lost_city.city",
        ".",
        "63.5x88.9mm",
        "0x0mm",
        "md",
        "pdf,x",
    ]
) | st.text(max_size=6)


# -- the properties


@PROFILE
@given(text=dsl_text())
def test_check_handles_any_card_file(
    project: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    card = project / "cards" / "land_vs_sea" / "fuzz.cards"
    card.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        status, out = run(capsys, project, "check", str(card.relative_to(project)))
    finally:
        card.unlink()
    assert_handled(status, out)
    assert status in (0, 1)
    if status:
        assert LOCATED.search(out), out


@PROFILE
@given(text=variant_yaml())
def test_check_handles_any_variant(
    project: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    variant = project / "cards" / "land_vs_sea" / "variants" / "fuzz.yaml"
    variant.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        status, out = run(capsys, project, "check")
    finally:
        variant.unlink()
    assert_handled(status, out)
    assert status in (0, 1)
    if status:
        assert LOCATED.search(out), out


@PROFILE
@given(text=reference_yaml())
def test_check_and_sheets_handle_any_reference(
    project: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    reference = project / "cards" / "land_vs_sea" / "reference.yaml"
    saved = reference.read_bytes()
    reference.write_text(text, encoding="utf-8", errors="surrogatepass")
    try:
        status, out = run(capsys, project, "check")
        assert_handled(status, out)
        if status:
            assert LOCATED.search(out), out
        else:
            # What check accepts, the sheets print, or refuse at a line (their text lint
            # wants the rulebook's words for every name, which a fuzzed reference may lack).
            status, out = run(
                capsys, project, "sheets", "land_vs_sea", "--format", "md", "--out", "fuzz"
            )
            assert_handled(status, out)
            assert status in (0, 1), out
            if status:
                assert LOCATED.search(out), out
    finally:
        reference.write_bytes(saved)


@PROFILE
@given(text=scenario_yaml())
def test_test_handles_any_scenario(
    project: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    scenario = project / "fuzz_scenario.yaml"
    scenario.write_text(text, encoding="utf-8", errors="surrogatepass")
    status, out = run(capsys, project, "test", str(scenario))
    assert_handled(status, out)
    assert status in (0, 1)


@PROFILE
@given(
    command=st.sampled_from(["set", "unset", "sim", "sheets", "diff", "new", "parse"]),
    first=_ARG,
    second=_ARG,
    third=_ARG,
)
def test_commands_handle_any_argument(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    first: str,
    second: str,
    third: str,
) -> None:
    variants = project / "cards" / "land_vs_sea" / "variants"
    before = {p.name: p.read_bytes() for p in variants.iterdir()}
    argv = {
        "set": ["variant", "set", first, second, third],
        "unset": ["variant", "unset", first, second],
        "sim": ["sim", first, "--games", "2", "--seed", third, "--variant", second],
        "sheets": [
            "sheets",
            "land_vs_sea",
            "--format",
            "md",
            "--bleed",
            first,
            "--size",
            second,
            "--out",
            "fuzz",
        ],
        "diff": ["diff", first, second, "--errata", "fuzz_errata.md", "--force"],
        "new": ["new", first],
        "parse": ["parse", first],
    }[command]
    try:
        status, out = run(capsys, project, *argv)
    finally:
        for path in variants.iterdir():
            if path.name not in before:
                path.unlink()
        for name, data in before.items():
            (variants / name).write_bytes(data)
        for extra in project.glob("cards/*"):
            if extra.name != "land_vs_sea":
                shutil.rmtree(extra)
    assert_handled(status, out)
