"""The Python emitter against hostile data, and the determinism of what ``cardc build`` writes.

A card's title, text and arguments are a designer's words, and they reach a Python module that
cardc imports. Whatever they hold (quotes that close a docstring, newlines that end a comment,
a NUL that ``compile()`` refuses, escapes that look like Python's), the module must compile,
import in a clean interpreter, define only its tables and handlers, run no code of the data's,
and carry every text back as exactly the literal the designer wrote. Each text here goes through
the real pipeline: written as a ``.cards`` file in a temporary project and built by ``cardc
build``.
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path
from typing import Any

import pytest

from compiler.emit_python import PRELUDE_NATIVES, emit_handlers
from compiler.pipeline import compile_game
from dsl.diagnostics import SourceCache

REPO_ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n'

INJECTION = '"""; import os; os.system("touch x") #'

#: Hostile texts, each used as a card title, its text, an announced argument, a `may` prompt
#: and a `choose` label. Names say what each one tries.
HOSTILE: dict[str, str] = {
    "injection": INJECTION,
    "injection_single": "'''; __import__('os').system('touch x') #",
    "newlines": "line one\nline two\n# not a comment\nimport os",
    "backslashes": "C:\\temp\\new\\x41\\N{BULLET}\\",
    "quotes": "it's \"quoted\" '''triple''' \"\"\" done",
    "escape_lookalikes": '\\u{0} \\u{1F600} \\n \\t \\" \\x00',
    "nul": "A\x00B",
    "form_feed": "A\x0cB",
    "carriage_return": "A\rB\r\nC",
    "line_separators": "A\u2028B\u2029C\x85D",
    "controls": "\x1b[31mred\x1b[0m \x7f \x0b \x1c\x1d\x1e",
    "emoji": "\U0001f3b2 Dice \U0001f3f4\u200d\u2620\ufe0f",
    "rtl": "\u05e9\u05dc\u05d5\u05dd \u202eevil\u202c \u0645\u0631\u062d\u0628\u0627",
    "comment_marks": "*/ # -- /* <!-- --> {{ version }} {% raw %}",
    "marker_lookalike": "  # @ evil.cards:1:1 \\ \U0001f600:9:9",
    "long": "Long text. " * 800,  # the parser refuses lines over 10,000 characters
}


def dsl_string(value: str) -> str:
    """``value`` as a DSL string literal, using only the DSL's escapes."""
    out = []
    for char in value:
        if char == "\\":
            out.append("\\\\")
        elif char == '"':
            out.append('\\"')
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif not char.isprintable() or char in "\r\x0c":
            out.append(f"\\u{{{ord(char):x}}}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


GAME_CARDS = f"""\
# A game whose every text is hostile.
game hostile {dsl_string(INJECTION)} {{
  counter coins
  symbol star {dsl_string(HOSTILE["comment_marks"])}
  symbol moon {dsl_string(INJECTION)}
  trigger reveal {dsl_string(HOSTILE["comment_marks"])}
  @host("the tests supply it, to see each text arrive")
  verb announce {dsl_string(INJECTION)} {{ param words text }}
  kind port_card {dsl_string(HOSTILE["newlines"])} {{ property copies number }}
  kind voyage "a voyage card" {{ property pirate formula }}
}}
"""


def _card(ident: str, value: str) -> str:
    text = dsl_string(value)
    return f"""\
port_card {text} {{
  id {ident}
  copies 1
  text {text}
  on reveal {{
    announce {text}
    may {{ announce {text} }}
    choose one of {{
      announce {text}
      gain coins 1
    }}
  }}
}}

voyage {text} {{
  id {ident}_voyage
  pirate highest(2d6) + 1
}}
"""


def _write_project(root: Path) -> Path:
    game = root / "cards" / "hostile"
    game.mkdir(parents=True)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (game / "game.cards").write_text(GAME_CARDS, encoding="utf-8")
    # cardc's sheets would rightly refuse these cards (an 8,800-character title cannot fit on
    # a card, and the build fails naming it): print none, this is about the Python emitter.
    (game / "reference.yaml").write_text("printed_kinds: []\n", encoding="utf-8")
    # A file name that is not plain ASCII, with a space: LINES must name it exactly.
    (game / "\u00e7a va.cards").write_text(
        "".join(_card(f"card_{name}", value) for name, value in HOSTILE.items()), encoding="utf-8"
    )
    return game


def _cardc(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "compiler.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env=env,
    )


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A built temporary project holding the hostile game; its root."""
    root = tmp_path_factory.mktemp("hostile")
    _write_project(root)
    run = _cardc("build", cwd=root)
    assert run.returncode == 0, run.stdout + run.stderr
    return root


def _touched(root: Path) -> list[Path]:
    return [p for p in (root / "x", Path.cwd() / "x", REPO_ROOT / "x") if p.exists()]


def test_hostile_module_compiles_in_memory(tmp_path: Path) -> None:
    folder = _write_project(tmp_path)
    result = compile_game(folder, SourceCache())
    assert result.ok, [str(d) for d in result.diagnostics]
    assert result.ir is not None
    text = emit_handlers(result.ir, ["cards/hostile/game.cards"], "cards/hostile")
    compile(text, "handlers.py", "exec")
    assert "\x00" not in text
    assert not _touched(tmp_path)


_SCRIPT = """
import json, sys
from pathlib import Path
from engine.loader import load_table
from engine.runtime import FirstLegal, Game

ir, table = load_table(Path(sys.argv[1]))
said, asked = [], []
game = Game(ir, table, policies={-1: FirstLegal()},
            verbs={"announce": lambda g, c, words: said.append(words)})
ask = game.ask
def record(player, question):
    asked.append([question.id, question.prompt, list(question.options)])
    return ask(player, question)
game.ask = record
for card, trigger in sorted(table.handlers):
    game.run(card, trigger)
formulas = {f"{card}.{prop}": game.formula(card, prop) for card, prop in sorted(table.formulas)}
module = table.module
names = {n: type(v).__name__ for n, v in vars(module).items() if not n.startswith("__")}
print(json.dumps({"names": names, "said": said, "asked": asked, "formulas": formulas,
                  "handlers": sorted(f.__name__ for f in table.handlers.values()),
                  "formula_functions": sorted(f.__name__ for f in table.formulas.values()),
                  "lines": {str(k): list(v) for k, v in table.lines.items()}}))
"""


@pytest.fixture(scope="module")
def imported(hostile: Path) -> dict[str, Any]:
    """What a clean interpreter (-I, empty environment) sees when it loads and runs the game."""
    run = subprocess.run(
        [sys.executable, "-I", "-c", _SCRIPT, str(hostile / "generated" / "hostile")],
        cwd=hostile,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={},
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def test_module_defines_only_its_tables_handlers_and_natives(imported: dict[str, Any]) -> None:
    names = imported["names"]
    functions = {n for n, kind in names.items() if kind == "function"}
    tables = {
        "HANDLERS": "dict",
        "FORMULAS": "dict",
        "LINES": "dict",
        "GAME": "str",
        "VARIANT": "NoneType",
        "FLOW": "NoneType",  # the hostile game declares no flow
    }
    assert {n: names.get(n) for n in tables} == tables
    assert functions == set(PRELUDE_NATIVES) | set(imported["handlers"]) | set(
        imported["formula_functions"]
    )
    assert set(names) == set(tables) | functions
    assert all(re.fullmatch(r"[hf]_[a-z0-9_]+", n) for n in functions - set(PRELUDE_NATIVES))


def test_building_and_importing_run_none_of_the_datas_code(
    hostile: Path, imported: dict[str, Any]
) -> None:
    assert imported["said"]
    assert not _touched(hostile)


def test_handlers_run_and_say_every_text_exactly(imported: dict[str, Any]) -> None:
    # Each card announces its text three times: directly, in `may`, in `choose` (first option).
    said = imported["said"]
    for value in HOSTILE.values():
        assert said.count(value) == 3, value[:40]
    assert len(said) == 3 * len(HOSTILE)
    # Formulas run too: highest(2d6) + 1 lies in 2..7.
    assert len(imported["formulas"]) == len(HOSTILE)
    assert all(2 <= v <= 7 for v in imported["formulas"].values())


def test_titles_reach_questions_as_data(imported: dict[str, Any]) -> None:
    prompts = {q[0]: q[1] for q in imported["asked"]}
    for name, value in HOSTILE.items():
        # Question ids are named from the rule (the first verb), never from a position.
        assert prompts[f"card_{name}.reveal.announce"].startswith(f"{value}: may announce ")
        assert prompts[f"card_{name}.reveal.announce_or_gain"].startswith(f"{value}: choose one")


def test_cards_json_holds_each_title_exactly(hostile: Path) -> None:
    data = json.loads((hostile / "generated/hostile/cards.json").read_text(encoding="utf-8"))
    titles = {c["id"]: c["title"] for c in data["cards"]}
    for name, value in HOSTILE.items():
        assert titles[f"card_{name}"] == value
        assert titles[f"card_{name}_voyage"] == value
    texts = {c["id"]: c["properties"].get("text") for c in data["cards"]}
    assert texts["card_nul"] == HOSTILE["nul"]
    assert data["title"] == INJECTION
    assert data["vocabulary"]["symbols"]["star"] == HOSTILE["comment_marks"]


def _tokens(source: str) -> list[tokenize.TokenInfo]:
    return list(tokenize.generate_tokens(io.StringIO(source).readline))


def test_hostile_text_appears_in_the_code_only_inside_literals_and_comments(hostile: Path) -> None:
    source = (hostile / "generated/hostile/handlers.py").read_text(encoding="utf-8")
    tokens = _tokens(source)
    code = " ".join(t.string for t in tokens if t.type not in (tokenize.STRING, tokenize.COMMENT))
    assert "system" not in code and "__import__" not in code and "touch" not in code
    tree = ast.parse(source)
    imports = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert [(n.module, sorted(a.name for a in n.names)) for n in imports] == [
        ("engine.natives", sorted(PRELUDE_NATIVES))
    ]
    # Top level: the docstring, the import, assignments and function definitions, nothing else.
    kinds = {type(node).__name__ for node in tree.body}
    assert kinds == {"Expr", "ImportFrom", "Assign", "FunctionDef"}
    assert sum(isinstance(node, ast.Expr) for node in tree.body) == 1
    # Every string constant holding a hostile text is that text, or a prompt built from it.
    constants = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)]
    for value in HOSTILE.values():
        assert value in constants
    # The docstring holds the injected game title as text, not as the end of the docstring.
    doc = ast.get_docstring(tree) or ""
    assert INJECTION in doc.replace('\\"', '"')


def test_every_comment_is_one_ascii_line(hostile: Path) -> None:
    source = (hostile / "generated/hostile/handlers.py").read_text(encoding="utf-8")
    for token in _tokens(source):
        if token.type == tokenize.COMMENT:
            assert token.string.isascii() and token.string.isprintable(), token.string[:60]


def test_lines_name_the_hostile_file_and_a_failure_points_at_the_dsl(
    hostile: Path, imported: dict[str, Any]
) -> None:
    lines = imported["lines"]
    assert lines
    files = {where[0] for where in lines.values()}
    assert files == {"cards/hostile/\u00e7a va.cards"}
    source = (hostile / "cards/hostile/\u00e7a va.cards").read_text(encoding="utf-8")
    dsl_lines = source.split("\n")
    for _file, line, column in lines.values():
        word = dsl_lines[line - 1][column - 1 :].split(" ", 1)[0]
        assert word in ("announce", "may", "choose", "gain", "pirate"), word
    # A verb that fails is reported at the DSL statement, through LINES.
    failing = (
        "import sys\nfrom pathlib import Path\nfrom engine.loader import load_table\n"
        "from engine.runtime import Game, FirstLegal, RuleError\n"
        "ir, table = load_table(Path(sys.argv[1]))\n"
        "def fail(g, c, words): raise ValueError('no')\n"
        "g = Game(ir, table, policies={-1: FirstLegal()}, verbs={'announce': fail})\n"
        "try:\n    g.run('card_injection', 'reveal')\nexcept RuleError as e:\n    print(e)\n"
    )
    run = subprocess.run(
        [sys.executable, "-I", "-c", failing, str(hostile / "generated" / "hostile")],
        cwd=hostile,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={},
    )
    assert run.returncode == 0, run.stderr
    first = next(i for i, text in enumerate(dsl_lines, 1) if text.startswith("  id card_injection"))
    assert run.stdout.startswith(f"cards/hostile/\\xe7a va.cards:{first + 4}:5: ") or (
        run.stdout.startswith(f"cards/hostile/\u00e7a va.cards:{first + 4}:5: ")
    ), run.stdout


# ---- determinism and banners, over the real project ----------------------------------------


def _copy_project(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(REPO_ROOT / "cards", root / "cards")
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return root


def _tree(generated: Path) -> dict[str, bytes]:
    return {
        p.relative_to(generated).as_posix(): p.read_bytes()
        for p in sorted(generated.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    }


@pytest.fixture(scope="module")
def real_builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, bytes]]:
    """The real cards built five times: in-process twice, and under three hash seeds."""
    from compiler.build import build
    from compiler.project import find_project

    trees: dict[str, dict[str, bytes]] = {}
    for label in ("in-process-1", "in-process-2"):
        root = _copy_project(tmp_path_factory.mktemp(label))
        project = find_project(root)
        assert project is not None and project.root == root
        outcome = build(project, [], check_only=False, sources=SourceCache())
        assert outcome.status == 0 and not outcome.diagnostics, outcome.report
        trees[label] = _tree(root / "generated")
    for seed in ("0", "1", "random"):
        root = _copy_project(tmp_path_factory.mktemp(f"seed-{seed}"))
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = _cardc("build", cwd=root, env=env)
        assert run.returncode == 0, run.stderr
        # Run from a subfolder: paths in the outputs are relative to the project, not to cwd.
        again = _cardc("build", "--check", cwd=root / "cards", env=env)
        assert again.returncode == 0, again.stdout + again.stderr
        trees[f"PYTHONHASHSEED={seed}"] = _tree(root / "generated")
    return trees


def test_real_project_builds_byte_identically(real_builds: dict[str, dict[str, bytes]]) -> None:
    (first_label, first), *others = real_builds.items()
    assert len(first) >= 5
    for label, tree in others:
        assert sorted(tree) == sorted(first), label
        differing = [rel for rel in first if tree[rel] != first[rel]]
        assert differing == [], f"{label} differs from {first_label} in {differing}"


def test_every_generated_file_says_it_is_generated(
    real_builds: dict[str, dict[str, bytes]],
) -> None:
    tree = next(iter(real_builds.values()))
    for rel, data in tree.items():
        if rel.endswith(".pdf"):
            # A sheet's PDF says so in its metadata (its Subject).
            import io

            import pypdf

            subject = pypdf.PdfReader(io.BytesIO(data)).metadata.subject
            assert subject.startswith("Generated by cardc") and "do not edit" in subject, rel
            continue
        text = data.decode("utf-8")
        if rel.endswith(".json"):
            parsed = json.loads(text)
            first_key = next(iter(parsed))
            assert first_key == "_generated", rel
            assert "do not edit" in parsed["_generated"], rel
        else:
            first_line = text.split("\n", 1)[0]
            # HTML and Markdown sheets say it in a comment.
            assert first_line.startswith(("# Generated by cardc", "<!-- Generated by cardc")), rel
            assert "do not edit" in first_line, rel


def _dsl_verb(method: str) -> str:
    """The DSL verb a runtime method call was emitted for (``fire`` calls ``fire_in_force``)."""
    from compiler.emit_python import _PRELUDE_METHODS

    return {python: dsl for dsl, python in _PRELUDE_METHODS.items()}.get(method, method)


def _expected_word(python: str) -> tuple[str, ...]:
    """The DSL words a generated statement line may start from."""
    code = python.split("  # @ ", 1)[0].strip()
    # A game verb by the table, a runtime method, a DSL verb called directly (dv_NAME), a game
    # verb a section runner bound to a local (gv_NAME), or a standard-library native called as
    # its module's function (stdlib_decks.draw_from).
    verb = re.search(
        r"g\.verbs\[['\"](\w+)['\"]\]\(|(?:g\.|\bdv_|\bgv_|\bstdlib_\w+\.)(\w+)\((?:g, )?c\d*\b",
        code,
    )
    if code.startswith("if g.may("):
        return ("may",)
    if re.match(r"k\d+ = g\.choose\(", code):
        return ("choose",)
    if code.startswith("for _ in range("):
        return ("repeat",)
    if re.match(r"o\d+ = (?:\[\*|g\.players$|contexts$)|ok\d+\.append\(", code):
        return ("for each",)  # an ordered loop's items, and their keys ('by')
    # The round loop's 'for each' over the players' contexts made once a game.
    if re.match(r"for c\d+ in (?:contexts|o\d+):$", code):
        return ("for each",)
    # A loop of a DSL verb written in place in a section runner: its own locals (v_i3_NAME).
    if match := re.match(r"for v_(?:i\d+_)?(\w+) in ", code):
        return (f"for each {match[1]}",)
    if code.startswith("return "):
        return ("",)  # a formula: the property line, checked apart
    # A window a 'fire TRIGGER with ... { }' opens (Incredible Expeditions' 'facing').
    if re.match(r"w\d+ = g\.open_window\(", code):
        return ("fire",)
    if match := re.match(r"v_(\w+) = ", code):
        if match[1] == "missing" and verb:
            return (_dsl_verb(verb[1] or verb[2]),)
        return (f"let {match[1]}",)
    if code.startswith("if not g.") and verb:
        return (_dsl_verb(verb[1] or verb[2]),)
    if code.startswith("if "):
        return ("if", "unless", "else if", "else unless")
    assert verb, code
    return (_dsl_verb(verb[1] or verb[2]),)


def test_lines_map_statements_to_their_dsl_file_line_and_column(
    real_builds: dict[str, dict[str, bytes]], tmp_path: Path
) -> None:
    tree = next(iter(real_builds.values()))
    checked = 0
    for rel, data in tree.items():
        if not rel.endswith("handlers.py"):
            continue
        module = ast.parse(data)
        lines_node = next(
            n
            for n in module.body
            if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "LINES"
        )
        table = ast.literal_eval(lines_node.value)
        python_lines = data.decode("utf-8").split("\n")
        for number, (path, line, column) in table.items():
            dsl = (REPO_ROOT / path).read_text(encoding="utf-8").split("\n")[line - 1]
            at = dsl[column - 1 :]
            python = python_lines[number - 1]
            assert python.endswith(f"  # @ {path}:{line}:{column}"), (rel, number)
            words = _expected_word(python)
            if inlined := re.match(r"\s*v_i\d+_(\w+) = ", python):
                # A local of a DSL verb written in place in a section runner: one of its
                # 'let's, or its argument bound at the call (the verb's name, in the comment
                # that opens the verb's statements).
                opening = next(
                    line.strip()
                    for line in reversed(python_lines[: number - 1])
                    if line.strip().startswith("# verb ")
                )
                # (the comment goes on with where it was called, for the INLINED table)
                verb = opening.removeprefix("# verb ").partition(" (called at ")[0]
                words = (f"let {inlined[1]}", verb)
            if python_lines[number].strip() == "g.end_when_held()":
                # A section runner's end check: the flow's 'end when' clause.
                words = ("end when",)
            assert any(at.startswith(w) for w in words), (rel, number, python, at)
            checked += 1
    assert checked >= 20
    # A few by hand, found by their words so that an edit elsewhere in the file keeps them:
    # P1 repeats a research twice; each research is its own statement, one column further in.
    crew = REPO_ROOT / "cards/darwins_journey/crew.cards"
    darwin = tree["darwins_journey/handlers.py"].decode("utf-8").split("\n")
    table = ast.literal_eval(
        next(
            n.value
            for n in ast.parse(tree["darwins_journey/handlers.py"]).body
            if isinstance(n, ast.Assign) and getattr(n.targets[0], "id", "") == "LINES"
        )
    )
    by_code = {darwin[n - 1].split("  # @ ")[0].strip(): where for n, where in table.items()}
    assert by_code["for _ in range(g.spend(2, 'repeats')):"] == (
        "cards/darwins_journey/crew.cards",
        *_find(crew, "repeat 2"),
    )
    assert by_code["g.verbs['research_specimen'](g, c, 'coin_penalties')"] == (
        "cards/darwins_journey/crew.cards",
        *_find(crew, "research_specimen ignoring"),
    )


def _find(path: Path, words: str) -> tuple[int, int]:
    for number, text in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if words in text:
            return number, text.index(words) + 1
    raise AssertionError(f"{words!r} not in {path}")
