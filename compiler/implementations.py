"""Every name that checks also runs: each verb and native a game declares has an implementation.

A verb or native of ``game.cards`` is implemented, in this order, by

1. a definition in the DSL (``verb NAME(...) { ... }``, ``function NAME(...) TYPE = ...``),
   which :mod:`compiler.definitions` has already put in its place;
2. the game's own Python, ``natives.py`` beside its ``game.cards`` (loaded by path through
   :func:`engine.loader.game_rules`): a
   function registered with ``@native("...", returns=...)`` / ``@verb("...")``
   (:mod:`engine.api`) must declare the same parameters (names and types, in order) and the
   same return type as the declaration; one of the plain ``NATIVES`` / ``VERBS`` dicts must take
   the declared parameters after ``(g, c)``;
3. the standard library (:mod:`engine.stdlib`), by the same name and the same typed signature;
   the declaration's calls then go straight to the library.

A name none of them implements is an error at its declaration, with how to implement it: it
would otherwise pass ``cardc check`` and fail at run time with a ``KeyError``. A game's natives
that cannot be loaded (a syntax error, an import that fails) are an error at their own line.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from compiler.project import display_path
from compiler.vocabulary import Signature, Vocabulary, library_signature
from dsl.diagnostics import Diagnostic
from dsl.nodes import Span


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
    return Signature(
        sig.name, sig.doc, sig.params, sig.returns, sig.span, theirs.origin, call=sig.call
    )


def _source_folder(vocab: Vocabulary) -> Path | None:
    """The folder of the game's ``game.cards``, where its ``natives.py`` lives."""
    if vocab.span is None:
        return None
    folder = Path(vocab.span.file).parent
    return folder if folder.is_dir() else None


def _declared(params: tuple[Any, ...], returns: str | None) -> str:
    """A signature in the decorators' words: ``"place any, amount number = 1" -> name``."""
    words = ", ".join(
        f"{p.name} {p.type}" + (f" = {p.default}" if p.default is not None else "") for p in params
    )
    return f'"{words}"' + (f" -> {returns}" if returns else "")


def _spec_problem(sig: Signature, spec: Any) -> str | None:
    """How a decorated function's declared signature differs from ``game.cards``', or None."""
    mine = [(p.name, p.type) for p in sig.params]
    theirs = [(p.name, p.type) for p in spec.params]
    if mine != theirs:
        return f"parameters {_declared(spec.params, None)}, not {_declared(sig.params, None)}"
    if spec.kind == "native" and spec.returns != sig.returns:
        return f"returns {spec.returns}, not {sig.returns}"
    return None


def prove(vocab: Vocabulary, diagnostics: list[Diagnostic]) -> None:
    """Check that each verb and native ``game.cards`` declares has an implementation; point
    calls of those the standard library implements at it."""
    from engine.api import implementations
    from engine.loader import NATIVES_FILE, NativesError, game_rules

    source = _source_folder(vocab)
    try:
        rules = game_rules(vocab.game, source=source) if vocab.game.isidentifier() else None
    except NativesError as error:
        diagnostics.append(
            Diagnostic(
                "natives-broken",
                f"the game's natives {error.reason}",
                Span(
                    str(display_path(Path(error.file))),
                    error.line,
                    error.column,
                    error.line,
                    error.column + 1,
                ),
                "error",
                (error.hint or "fix the Python there; cardc loads it to check what it implements",),
            )
        )
        return
    found = implementations(rules)
    if rules is not None and getattr(rules, "__file__", None):
        where = str(display_path(Path(rules.__file__)))
    elif source is not None:
        where = str(display_path(source / NATIVES_FILE))
    else:
        where = f"cards/{vocab.game}/{NATIVES_FILE}"
    for what, table, python in (
        ("verb", vocab.verbs, found.verbs),
        ("native", vocab.natives, found.natives),
    ):
        for name, sig in sorted(table.items()):
            if sig.origin != "game" or name in vocab.refused:
                continue  # the prelude, the library and DSL definitions carry their own
            function = python.get(name)
            flag = (
                ("board_flag", sig.board_flag, "the board's")
                if sig.board_flag is not None
                else ("player_flag", sig.player_flag, "the acting player's")
                if sig.player_flag is not None
                else None
            )
            if flag is not None:
                # The compiler reads the flag in place: a Python body could only disagree
                # with it.
                line, key, whose = flag
                if function is not None:
                    diagnostics.append(
                        Diagnostic(
                            "signature-mismatch",
                            f"'{name}' is declared '{line} {key}': the compiler reads {whose} "
                            f"'{key}' in its place, but {where} implements it too",
                            sig.span,
                            "error",
                            (f"remove {name} from {where}, or the '{line}' line",),
                        )
                    )
                continue
            if function is not None:
                spec = found.specs.get((what, name))
                label = getattr(function, "__qualname__", name)
                problem = _spec_problem(sig, spec) if spec is not None else None
                if problem is not None:
                    diagnostics.append(
                        Diagnostic(
                            "signature-mismatch",
                            f"'{name}' is declared here as {sig.usage()}, but @{what} {label} "
                            f"in {where} declares {problem}",
                            sig.span,
                            "error",
                            (
                                "make the two agree: "
                                f"@{what}({_declared(sig.params, None)}"
                                + (f', returns="{sig.returns}"' if what == "native" else "")
                                + ")",
                            ),
                        )
                    )
                    continue
                arity = _python_arity(function)
                wanted = len(sig.params)
                fewest = sum(1 for p in sig.params if not p.optional and p.default is None)
                if (
                    arity is None
                    or wanted < arity[0]
                    or (arity[1] is not None and wanted > arity[1])
                    or (spec is not None and fewest < arity[0])
                ):
                    diagnostics.append(
                        Diagnostic(
                            "signature-mismatch",
                            f"'{name}' is declared with {wanted} parameters, but "
                            f"{label} in {where} {_takes(arity)}",
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
            decorator = (
                f"@verb({_declared(sig.params, None)})"
                if what == "verb"
                else f'@native({_declared(sig.params, None)}, returns="{sig.returns or "any"}")'
            )
            diagnostics.append(
                Diagnostic(
                    "not-implemented",
                    f"'{name}' is declared but nothing implements it",
                    sig.span,
                    "error",
                    (
                        f"write it in the DSL: {dsl}; or in Python, in {where}: {decorator} "
                        f"def {name}(g, c{''.join(', ' + p.name for p in sig.params)}) "
                        "(see engine.api)",
                    ),
                )
            )
    if rules is not None and getattr(rules, "__file__", None):
        diagnostics.extend(_zone_names(vocab, rules, Path(rules.__file__)))


def _zone_names(vocab: Vocabulary, rules: Any, natives: Path) -> list[Diagnostic]:
    """``DECKS`` and ``ZONE_KINDS`` name zones of the game: one the game lacks (a misspelt
    one) was never read, silently (``ZONE_KINDS = {"hnd": ...}`` let any card in the hand)."""
    from compiler.suggest import did_you_mean
    from engine.loader import _assigned_line

    found = []
    for table in ("DECKS", "ZONE_KINDS"):
        for zone in getattr(rules, table, None) or ():
            if not isinstance(zone, str) or zone in vocab.zones:
                continue
            line = _assigned_line(natives, table)
            found.append(
                Diagnostic(
                    "natives-broken",
                    f"{table} names '{zone}', which is not a zone of this game",
                    Span(str(display_path(natives)), line, 1, line, 2),
                    "error",
                    did_you_mean(zone, sorted(vocab.zones))
                    or (f"zones: {', '.join(sorted(vocab.zones)) or 'none'}",),
                )
            )
    return found


def _takes(arity: tuple[int, int | None] | None) -> str:
    """What a Python implementation accepts, in words."""
    if arity is None:
        return "cannot be called as fn(g, c, ...)"
    fewest, most = arity
    if most == fewest:
        return f"takes {fewest} after (g, c)"
    return f"takes {fewest} to {'any number' if most is None else most} after (g, c)"
