"""Verbs and functions written in the DSL: their signatures, their bodies, and no recursion.

``verb abandon_specialty(goods name) { ... }`` and ``function every_third(month number) bool =
...`` may stand at the top level of any file of a game (or in a variant's ``add:``). Their
signatures join the vocabulary before any card is checked, so a card calls them like any verb
or native, with the same arity and type errors at the call's span. A definition may also
implement a verb or native that ``game.cards`` declares: the parameters must then match.

Recursion is refused, not bounded. A DSL verb that reaches itself, directly or through others,
is an error naming the cycle: tabletop rules always end, the language already has ``repeat``
and ``for each`` for what repeats, and a bound would be an arbitrary number that some rule
would one day hit in the middle of a game rather than at ``cardc check``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.suggest import did_you_mean
from compiler.vocabulary import (
    PARAM_TYPES,
    RETURN_TYPES,
    Param,
    Signature,
    Vocabulary,
    param_type_hint,
)
from dsl.diagnostics import Diagnostic
from dsl.nodes import Definition, FunctionDef, Number, SourceFile, Span, VerbDef
from engine.words import counted

if TYPE_CHECKING:
    from compiler.checker import Checker

IR = dict[str, Any]

#: Types a function may give (a shortfall is what a paying verb returns, not a value).
FUNCTION_TYPES = frozenset(RETURN_TYPES - {"shortfall"})


def _what(definition: Definition) -> str:
    return "verb" if isinstance(definition, VerbDef) else "function"


def register(
    vocab: Vocabulary, files: list[SourceFile], diagnostics: list[Diagnostic]
) -> list[Definition]:
    """Add every DSL verb's and function's signature to ``vocab`` (origin ``dsl``); return the
    definitions whose signature was accepted, for :func:`lower` to check their bodies."""

    def error(code: str, message: str, span: Span, *hints: str) -> None:
        diagnostics.append(Diagnostic(code, message, span, "error", hints))

    accepted: list[Definition] = []
    for definition in (d for source in files for d in source.definitions):
        params: list[Param] = []
        ok = True
        seen: set[str] = set()
        for param in definition.params:
            if param.type not in PARAM_TYPES:
                error(
                    "bad-param-type",
                    f"'{param.type}' is not a parameter type",
                    param.span,
                    *param_type_hint(param.type),
                )
                ok = False
                continue
            if param.name in seen:
                error("duplicate-param", f"two parameters are named '{param.name}'", param.span)
                ok = False
            seen.add(param.name)
            default = None
            if param.default is not None:
                if isinstance(param.default, Number) and param.type in ("number", "any"):
                    default = param.default.value
                else:
                    error(
                        "bad-default",
                        "a default is a number, for a number parameter",
                        param.default.span,
                        f"write: {param.name} number = 1",
                    )
                    ok = False
            params.append(Param(param.name, param.type, False, default))
        returns: str | None = None
        if isinstance(definition, FunctionDef):
            if definition.returns not in FUNCTION_TYPES:
                error(
                    "bad-returns",
                    f"'{definition.returns}' is not a type a function can give",
                    definition.span,
                    *(
                        did_you_mean(definition.returns, sorted(FUNCTION_TYPES))
                        or ("types: " + ", ".join(sorted(FUNCTION_TYPES)),)
                    ),
                )
                ok = False
            returns = definition.returns
        if not ok:
            # Its calls are the same mistake: "'pick_apples' is not a verb of this game, did
            # you mean 'sell_apples'?" beside the error at its parameter sent the reader away.
            vocab.unsigned.add(definition.name)
        elif _install(vocab, definition, tuple(params), returns, error):
            accepted.append(definition)
    return accepted


def _install(
    vocab: Vocabulary,
    definition: Definition,
    params: tuple[Param, ...],
    returns: str | None,
    error: Any,
) -> bool:
    """Put the definition's signature in the vocabulary, or say why it cannot go there."""
    what = _what(definition)
    table, other = (vocab.verbs, vocab.natives) if what == "verb" else (vocab.natives, vocab.verbs)
    name = definition.name
    if name in other:
        found = other[name]
        kind = "native" if what == "verb" else "verb"
        if found.origin == "prelude" or found.origin.startswith("stdlib."):
            # Not the game's own declaration, which it could make a native instead: a name
            # cardc or a `use`d module already gives (`build_deck`, decks' `shuffle`).
            module = found.origin.removeprefix("stdlib.")
            owner = (
                "the prelude"
                if found.origin == "prelude"
                else f"the {module} module (use {module}, at {found.span})"
            )
            error(
                "duplicate-name",
                f"'{name}' is a {kind} of {owner}: a {what} of the game cannot take its name",
                definition.span,
                f"give yours another name, such as my_{name}",
            )
            return False
        error(
            "duplicate-name",
            f"'{name}' is already a {'native' if what == 'verb' else 'verb'} ({found.origin}) "
            f"declared at {found.span}",
            definition.span,
            "verbs are statements, functions give values: "
            + ("declare it as a verb" if what == "verb" else "declare it as a native"),
        )
        return False
    declared = table.get(name) or vocab.builtins.get(name)
    value = vocab.declared.get(f"value:{name}")
    if what == "function" and declared is None and value is not None:
        # A verb is a statement and never meets a value (Uncharted Passage's verb and symbol
        # gain_port_card); a function is read where values are, so two brackets apart `coins`
        # would read the counter and `coins()` call the function, and a call forgotten its
        # brackets would pass unseen (a function alone gets "call it, coins()").
        error(
            "duplicate-name",
            f"'{name}' is already a {value[0]} of this game (declared at {value[1]}): a "
            "function cannot take its name",
            definition.span,
            f"give the function a name of its own, such as {name}_value: in an expression "
            f"'{name}' is the {value[0]}, and '{name}()' would be the function",
        )
        return False
    doc = definition.doc or ""
    if declared is not None:
        if declared.origin == "prelude":
            error(
                "redefine-prelude",
                f"'{name}' is the prelude's own {what if name in table else 'built-in name'}: "
                "a game cannot redefine it",
                definition.span,
                f"give yours another name, such as {name}_twice",
            )
            return False
        if declared.origin == "dsl":
            error(
                "duplicate-definition",
                f"the {what} '{name}' is already defined at {declared.span}",
                definition.span,
                "keep one of them",
            )
            return False
        mismatch = _mismatch(declared, params, returns, what)
        if mismatch:
            vocab.refused.add(name)
            error(
                "signature-mismatch",
                f"this {what} does not match its declaration at {declared.span}: {mismatch}",
                definition.span,
                f"the declaration reads: {declared.usage()}"
                + (f" (returns {declared.returns})" if declared.returns else ""),
            )
            return False
        doc = doc or declared.doc
    else:
        vocab.declared[f"callable:{name}"] = (what, definition.span)
    table[name] = Signature(
        name, doc, params, returns, definition.span, "dsl", call=what == "function"
    )
    return True


def _mismatch(
    declared: Signature, params: tuple[Param, ...], returns: str | None, what: str
) -> str:
    """How a definition's signature differs from the declaration it implements ('' if not)."""
    if len(declared.params) != len(params):
        takes = counted(len(params), "parameter")
        return f"it takes {takes}, the declaration {len(declared.params)}"
    for mine, theirs in zip(params, declared.params, strict=True):
        if (mine.name, mine.type) != (theirs.name, theirs.type):
            return f"parameter '{mine.name} {mine.type}' is '{theirs.name} {theirs.type}' there"
    if what == "verb" and declared.returns is not None:
        return f"a DSL verb gives nothing, the declaration returns {declared.returns}"
    if what == "function" and returns != declared.returns:
        return f"it gives {returns}, the declaration returns {declared.returns or 'nothing'}"
    return ""


def lower(checker: Checker, definitions: list[Definition]) -> IR:
    """Check and lower each definition's body; refuse recursion. The IR's ``definitions``."""
    verbs: list[IR] = []
    functions: list[IR] = []
    spans: dict[str, Span] = {}
    for definition in definitions:
        what = _what(definition)
        path = f"/definitions/{what}s/{len(verbs if what == 'verb' else functions)}"
        checker.note_span(path, definition.span)
        spans[definition.name] = definition.span
        out = checker.definition(definition, path)
        (verbs if what == "verb" else functions).append(out)
    _refuse_recursion(checker, verbs + functions, spans)
    return {"verbs": verbs, "functions": functions}


def _calls(node: Any, found: set[str]) -> set[str]:
    """The DSL verbs and functions an IR body or expression calls."""
    if isinstance(node, dict):
        if node.get("origin") == "dsl":
            found.add(node.get("verb") or node.get("native") or "")
        for value in node.values():
            _calls(value, found)
    elif isinstance(node, list):
        for item in node:
            _calls(item, found)
    return found


def _refuse_recursion(checker: Checker, lowered: list[IR], spans: dict[str, Span]) -> None:
    """An error for each cycle of DSL calls, at the first definition of the cycle."""
    graph = {d["name"]: sorted(_calls(d.get("body", d.get("expr")), set())) for d in lowered}
    reported: set[frozenset[str]] = set()
    for start in graph:
        # Depth-first from each definition; a path that comes back to `start` is a cycle.
        stack: list[tuple[str, list[str]]] = [(start, [start])]
        visited: set[str] = set()
        while stack:
            name, path = stack.pop()
            for callee in graph.get(name, ()):
                if callee == start:
                    cycle = frozenset(path)
                    if cycle not in reported:
                        reported.add(cycle)
                        chain = " -> ".join([*path, start])
                        checker.error(
                            "recursion",
                            f"'{start}' calls itself"
                            + (f" (through {chain})" if len(path) > 1 else f": {chain}"),
                            spans[start],
                            "rules in the DSL do not recurse, so every rule ends: repeat "
                            "with 'repeat N { ... }' or 'for each ... in ... { ... }'",
                        )
                elif callee not in visited and callee in graph:
                    visited.add(callee)
                    stack.append((callee, [*path, callee]))
