"""The runtime that generated handlers call: state, tracks, zones, dice, choices, game flows.

``engine`` never imports ``compiler``.
"""


def _bind_siblings(*names: str) -> None:
    """Import cardc's own packages ``names`` from beside this one, by location.

    A designer's project may hold folders of the same names (``engine/``, ``dsl/``); whenever
    the project is on ``sys.path`` ahead of cardc (``python -m``, ``python -c``, pytest's
    rootdir, ``PYTHONPATH=.``), a plain import of a package not yet loaded would find the
    project's folder. Loaded here, by path, every later ``import engine.x`` (the generated
    handlers' too) resolves inside cardc's own package.
    """
    import importlib.util
    import sys
    from pathlib import Path

    parent = Path(__file__).resolve().parent.parent
    for name in names:
        init = parent / name / "__init__.py"
        if name in sys.modules or not init.is_file():
            continue
        spec = importlib.util.spec_from_file_location(
            name, init, submodule_search_locations=[str(init.parent)]
        )
        if spec is None or spec.loader is None:  # pragma: no cover - a file path always works
            continue
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)


_bind_siblings("dsl")
