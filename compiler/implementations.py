"""Every name that checks also runs: each verb and native a game declares has an implementation.

A verb or native of ``game.cards`` is implemented, in this order, by

1. a definition in the DSL (``verb NAME(...) { ... }``, ``function NAME(...) TYPE = ...``),
   which :mod:`compiler.definitions` has already put in its place;
2. the game's Python: ``NATIVES`` / ``VERBS`` of its module (``engine/games/<game>.py`` today,
   read through :func:`engine.loader.game_rules`, so moving that module beside the cards later
   changes only that function), whose function must take the declared parameters after
   ``(g, c)``;
3. the standard library (:mod:`engine.stdlib`), by the same name and the same typed signature;
   the declaration's calls then go straight to the library.

A name none of them implements is an error at its declaration, with how to implement it: it
would otherwise pass ``cardc check`` and fail at run time with a ``KeyError``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from compiler.vocabulary import Signature, Vocabulary, library_signature
from dsl.diagnostics import Diagnostic


def _python_arity(function: Callable[..., Any]) -> tuple[int, int | None] | None:
    """How many arguments after ``(g, c)`` the function takes: (fewest, most or None for
    ``*args``); None when it cannot take ``(g, c)`` first or cannot be inspected."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return None
    positional = [
        p
        for p in parameters
        if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    ]
    varargs = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters)
    if len(positional) < 2 and not varargs:
        return None
    rest = positional[2:]
    fewest = sum(1 for p in rest if p.default is inspect.Parameter.empty)
    return fewest, None if varargs else len(rest)


def _library_match(sig: Signature, what: str) -> Signature | None:
    """The standard library's function of that name when its signature is the declaration's."""
    from engine.stdlib import spec

    found = spec(sig.name)
    if found is None or found.kind != what:
        return None
    theirs = library_signature(found, sig.span)
    mine = [(p.name, p.type) for p in sig.params]
    if mine != [(p.name, p.type) for p in theirs.params] or sig.returns != theirs.returns:
        return None
    return Signature(sig.name, sig.doc, sig.params, sig.returns, sig.span, theirs.origin)


def prove(vocab: Vocabulary, diagnostics: list[Diagnostic]) -> None:
    """Check that each verb and native ``game.cards`` declares has an implementation; point
    calls of those the standard library implements at it."""
    from engine.loader import game_rules

    rules = game_rules(vocab.game) if vocab.game.isidentifier() else None
    where = f"engine/games/{vocab.game}.py"
    for what, table, python in (
        ("verb", vocab.verbs, getattr(rules, "VERBS", {}) if rules else {}),
        ("native", vocab.natives, getattr(rules, "NATIVES", {}) if rules else {}),
    ):
        for name, sig in sorted(table.items()):
            if sig.origin != "game" or name in vocab.refused:
                continue  # the prelude, the library and DSL definitions carry their own
            function = python.get(name)
            if function is not None:
                arity = _python_arity(function)
                wanted = len(sig.params)
                if (
                    arity is None
                    or wanted < arity[0]
                    or (arity[1] is not None and wanted > arity[1])
                ):
                    diagnostics.append(
                        Diagnostic(
                            "signature-mismatch",
                            f"'{name}' is declared with {wanted} parameters, but "
                            f"{getattr(function, '__qualname__', name)} in {where} "
                            f"{_takes(arity)}",
                            sig.span,
                            "error",
                            (f"make the two agree: {sig.usage()}",),
                        )
                    )
                continue
            library = _library_match(sig, what)
            if library is not None:
                table[name] = library
                continue
            params = ", ".join(f"{p.name} {p.type}" for p in sig.params)
            dsl = (
                f"verb {name}({params}) {{ ... }}"
                if what == "verb"
                else f"function {name}({params}) {sig.returns or 'number'} = ..."
            )
            diagnostics.append(
                Diagnostic(
                    "not-implemented",
                    f"'{name}' is declared but nothing implements it",
                    sig.span,
                    "error",
                    (
                        f"write it in the DSL: {dsl}; or add it to "
                        f"{'VERBS' if what == 'verb' else 'NATIVES'} in {where} as "
                        f"def {name}(g, c{''.join(', ' + p.name for p in sig.params)})",
                    ),
                )
            )


def _takes(arity: tuple[int, int | None] | None) -> str:
    """What a Python implementation accepts, in words."""
    if arity is None:
        return "cannot be called as fn(g, c, ...)"
    fewest, most = arity
    if most == fewest:
        return f"takes {fewest} after (g, c)"
    return f"takes {fewest} to {'any number' if most is None else most} after (g, c)"
