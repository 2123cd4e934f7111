"""cardc's import graph has no cycles, and each of its modules imports on its own.

An import circle (``compiler.build`` -> ``pipeline`` -> ``variants`` -> ``build``, and
``build`` -> ``sheets`` -> ``build``) only worked because some of its imports sat inside
functions: whichever module a program imported first decided whether the others were half
initialised, and moving one import to the top broke ``cardc`` at start. The graph read here
counts every import, those inside functions too (they run sooner or later), but not those under
``if TYPE_CHECKING:`` (they never run).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
#: The packages whose graph must be acyclic (``engine`` is the runtime's, not checked here).
ACYCLIC = ("compiler", "dsl")
#: The packages whose every module must import in a fresh interpreter.
ALONE = ("compiler", "dsl", "engine")


def modules(packages: tuple[str, ...]) -> dict[str, Path]:
    """Every module of ``packages``: dotted name -> file."""
    found = {}
    for package in packages:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _runs(tree: ast.AST) -> list[ast.AST]:
    """The import statements of ``tree`` that can run (not under ``if TYPE_CHECKING:``)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(inner) for inner in ast.walk(node))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.Import, ast.ImportFrom)) and id(node) not in skipped
    ]


def import_graph(known: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of ``known`` it imports (``from a import b`` is ``a.b`` when that
    is a module, else ``a``)."""

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        edges = graph.setdefault(name, set())
        for node in _runs(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level or node.module is None:
                    continue  # cardc imports absolutely; a relative import is not followed
                targets = [resolve(f"{node.module}.{a.name}") for a in node.names]
            else:
                targets = [resolve(a.name) for a in node.names]
            edges.update(t for t in targets if t is not None and t != name)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.get(step, ())))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_circle_and_only_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_reads_imports_inside_functions_but_not_type_checking(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from p.c import C\n"
        "def f():\n    from p import b\n    return b\n",
        encoding="utf-8",
    )
    (tmp_path / "p" / "b.py").write_text("import p.a\n", encoding="utf-8")
    (tmp_path / "p" / "c.py").write_text("from p.a import f\n", encoding="utf-8")
    known = {f"p.{n}": tmp_path / "p" / f"{n}.py" for n in "abc"}
    assert import_graph(known) == {"p.a": {"p.b"}, "p.b": {"p.a"}, "p.c": {"p.a"}}


def test_compiler_and_dsl_import_graph_is_acyclic() -> None:
    graph = import_graph(modules(ACYCLIC))
    # The four that formed the circle are all read (a renamed one would pass vacuously).
    for name in ("compiler.build", "compiler.pipeline", "compiler.sheets", "compiler.variants"):
        assert graph[name], name
    assert "compiler.variants" in graph["compiler.build"]
    assert cycles(graph) == []


def test_each_module_imports_alone_in_a_fresh_interpreter() -> None:
    names = sorted(modules(ALONE))
    # One interpreter for all of them; before each, every module of cardc's packages is
    # forgotten, so each import starts from nothing of cardc, as a program that imports only
    # that module would.
    script = (
        "import importlib, sys, traceback\n"
        f"names = {names!r}\n"
        "roots = ('compiler', 'dsl', 'engine')\n"
        "failed = []\n"
        "for name in names:\n"
        "    for key in [k for k in sys.modules if k.split('.')[0] in roots]:\n"
        "        del sys.modules[key]\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception:\n"
        "        failed.append(name + ': ' + traceback.format_exc().splitlines()[-1])\n"
        "print('\\n'.join(failed))\n"
        "print(len(names), 'imported')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines[-1] == f"{len(names)} imported"
    assert lines[:-1] == [], lines[:-1]
