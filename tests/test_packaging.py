"""cardc installs anywhere (issue 13): the wheel holds every package and file, the metadata is
right, and a designer's folders named like cardc's packages change nothing.

The full check, every command from the installed wheel in a fresh environment, is
``.ci/wheel-test`` (CI runs it); here the wheel is built and read, which takes seconds.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from compiler import __version__

REPO_ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("dsl", "compiler", "engine")


def _source_files() -> set[str]:
    """Every file of cardc's packages as the wheel must hold it."""
    found = set()
    for package in PACKAGES:
        for path in (REPO_ROOT / package).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                found.add(path.relative_to(REPO_ROOT).as_posix())
    return found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """cardc's wheel, built from this checkout."""
    out = tmp_path_factory.mktemp("dist")
    # From a clean copy: setuptools packs whatever an earlier build left in build/lib.
    source = tmp_path_factory.mktemp("source") / "cardc"
    shutil.copytree(
        REPO_ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".git",
            ".venv",
            ".ci-venv",
            "build",
            "dist",
            "*.egg-info",
            "__pycache__",
            "generated",
            "print",
            ".*_cache",
            ".hypothesis",
            ".cardc-cache",
        ),
    )
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), "."],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (path,) = out.glob("cardc-*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_holds_every_package_and_data_file(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    missing = sorted(_source_files() - names)
    assert not missing, f"not in the wheel: {missing}"
    for package in PACKAGES:  # typed: mypy reads the installed packages' annotations
        assert f"{package}/py.typed" in names


def test_the_wheel_metadata_has_one_version_and_an_spdx_license(wheel: zipfile.ZipFile) -> None:
    info = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    metadata = wheel.read(info).decode()
    assert f"\nVersion: {__version__}\n" in metadata
    assert "\nLicense-Expression: MIT\n" in metadata
    licences = [n for n in wheel.namelist() if "/licenses/" in n]
    assert any(n.endswith("/LICENSE") for n in licences), licences
    assert "MIT License" in (REPO_ROOT / "LICENSE").read_text(encoding="utf-8")
    # The version is written once: pyproject.toml reads it from compiler/__init__.py.
    pyproject = (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject and f'"{__version__}"' not in pyproject


def test_lark_is_pinned_to_the_minor_releases_tested() -> None:
    """dsl/parser.py drives lark's private tables: a new minor release must be tested first
    (.ci/lark-newest reports on it) before the range takes it."""
    import tomllib

    from packaging.requirements import Requirement

    pyproject = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (lark,) = [Requirement(r) for r in pyproject["project"]["dependencies"] if r.startswith("lark")]
    assert lark.specifier.contains("1.3.1") and lark.specifier.contains("1.2.2")
    assert not lark.specifier.contains("1.4.0") and not lark.specifier.contains("2.0")


def test_ci_installs_an_exact_version_of_every_dependency() -> None:
    """.ci/constraints.txt pins each requirement of the project and of every extra, so CI
    installs exactly what generated/ was built with, whatever the index holds that day."""
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    project = project["project"]
    wanted = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        wanted += extra
    pinned = {}
    for line in (REPO_ROOT / ".ci" / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            name, _, version = line.partition("==")
            pinned[canonicalize_name(name)] = version
    for text in wanted:
        requirement = Requirement(text)
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement.name} is not in .ci/constraints.txt"
        assert requirement.specifier.contains(pinned[name]), (requirement, pinned[name])


# ---- a designer's folders named like cardc's packages ---------------------------------------


@pytest.fixture
def crowded_project(tmp_path: Path) -> Path:
    """A project with a shipped game, its scenarios, and engine/, compiler/ and dsl/ folders of
    its own, each of which fails loudly when imported."""
    shutil.copytree(REPO_ROOT / "cards" / "land_vs_sea", tmp_path / "cards" / "land_vs_sea")
    shutil.copytree(
        REPO_ROOT / "tests" / "scenarios" / "land_vs_sea",
        tmp_path / "tests" / "scenarios" / "land_vs_sea",
    )
    (tmp_path / "pyproject.toml").write_text(
        '[tool.cardc]\ncards = "cards"\ngenerated = "generated"\n', encoding="utf-8"
    )
    for name in PACKAGES:
        (tmp_path / name).mkdir()
        (tmp_path / name / "__init__.py").write_text(
            f"raise ImportError('the project folder {name}/ was imported instead of cardc')\n",
            encoding="utf-8",
        )
        (tmp_path / name / "natives.py").write_text("", encoding="utf-8")
    return tmp_path


def _run(project: Path, *command: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        list(command),
        cwd=project,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**os.environ, **env},
    )


def _cardc_script() -> str:
    script = Path(sys.executable).parent / "cardc"
    if not script.is_file():
        pytest.skip("no cardc console script beside this Python")
    return str(script)


def test_the_cardc_command_ignores_the_projects_own_package_folders(
    crowded_project: Path,
) -> None:
    cardc = _cardc_script()
    built = _run(crowded_project, cardc, "build", "--no-sheets")
    assert built.returncode == 0, built.stdout + built.stderr
    tested = _run(crowded_project, cardc, "test")
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert "scenarios passed" in tested.stdout


def test_engine_and_dsl_folders_are_ignored_with_the_project_on_sys_path(
    crowded_project: Path,
) -> None:
    """``python -m``, ``python -c``, pytest's rootdir and ``PYTHONPATH=.`` put the project
    first on sys.path: cardc's own engine and dsl must still be the ones loaded, the generated
    handlers' ``from engine.natives import ...`` included."""
    shutil.rmtree(crowded_project / "compiler")  # that name Python resolves before cardc runs
    built = _run(crowded_project, sys.executable, "-m", "compiler.cli", "build", "--no-sheets")
    assert built.returncode == 0, built.stdout + built.stderr
    tested = _run(crowded_project, sys.executable, "-m", "compiler.cli", "test")
    assert tested.returncode == 0, tested.stdout + tested.stderr
    loaded = _run(
        crowded_project,
        sys.executable,
        "-c",
        "import compiler, engine.loader as l, pathlib; "
        "g = l.new_game(pathlib.Path('generated/land_vs_sea'), players=2); "
        "print(type(g).__module__, l.__file__)",
        PYTHONPATH=str(crowded_project),
    )
    assert loaded.returncode == 0, loaded.stdout + loaded.stderr
    assert str(crowded_project) not in loaded.stdout


def test_python_dash_capital_p_runs_cardc_beside_a_compiler_folder(crowded_project: Path) -> None:
    """With all three folders, ``python -P -m compiler.cli`` (the current folder left off
    sys.path) is the module form that works, as the README says."""
    run = _run(crowded_project, sys.executable, "-P", "-m", "compiler.cli", "check")
    assert run.returncode == 0, run.stdout + run.stderr
