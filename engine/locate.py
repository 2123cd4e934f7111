"""Where a failure in play is, in the DSL's terms: the card's or phase's ``file:line:col``,
the DSL verbs and functions the failure passed through ("in verb arrive (flow.cards:196:3),
called from Whirlpool's 'on undefeated' (whirlpool.cards:6:5)"), or the line of the game's own
Python that raised it. :meth:`engine.runtime.Game.call` calls these when a generated function
fails, and only then: nothing here runs while the game plays on."""

from __future__ import annotations

import traceback
from pathlib import Path
from types import CodeType
from typing import Any, NamedTuple

from engine.errors import IllegalDecision, RuleError, ScriptedDiceError
from engine.zero_division import divided_by_zero_message


class _Level(NamedTuple):
    """One generated function a failure passed through (:func:`locate`): its Python
    name (``h_CARD__TRIGGER``, ``dv_VERB``, ``df_FUNCTION``, ``p_SECTION__PHASE``), the DSL
    position it had reached, and its context (``c``: the card and trigger it answers)."""

    function: str
    where: tuple[str, int, int] | None
    context: Any


def endless(game: Any, c: Any, error: RecursionError, call_code: CodeType) -> RuleError:
    """The rule error for a RecursionError inside ``c``'s answer: when the answer of the
    same card to the same trigger runs inside it, the rule sets itself off without end;
    any other recursion is located as a failure like any other. ``call_code`` is the code
    of :meth:`engine.runtime.Game.call`: each of its frames answering the same card and
    trigger is one more nesting."""
    tb = error.__traceback__
    nested = sum(
        1
        for frame, _ in traceback.walk_tb(tb)
        if frame.f_code is call_code
        and getattr(frame.f_locals.get("c"), "card", None) == c.card
        and getattr(frame.f_locals.get("c"), "trigger", None) == c.trigger
    )
    if not c.trigger or nested < 1:
        return locate(game, error, tb)
    title = game.cards.get(c.card, {}).get("title", c.card) if c.card else "a phase"
    return locate(
        game,
        RuleError(
            f"{title}'s 'on {c.trigger}' sets itself off again while it runs: what it does "
            f"fires '{c.trigger}' again, and again, which would never end"
        ),
        tb,
    )


def located_again(
    game: Any,
    error: RuleError,
    inner: tuple[str, str, list[_Level]],
    tb: Any,
    call_code: CodeType,
) -> RuleError:
    """``error``, located inside a DSL verb the game's Python ran, located again at the
    generated code that called that Python (the card's or phase's line), with the verb's
    own calls innermost: "[in verb venture_forth (...), called from the flow's turn
    section (flow.cards:165:3)]". Unchanged when no generated code called it. ``call_code``
    is the code of :meth:`engine.runtime.Game.call`, whose frame ends the outer calls."""
    detail, note, levels = inner
    outer: list[_Level] = []
    frames = traceback.walk_tb(tb)
    next(frames, None)  # this call() itself
    for frame, lineno in frames:
        if frame.f_code is call_code:
            break  # the call() that located the error: its levels are ``levels``
        if game.table is not None and frame.f_code.co_filename == game.table.filename:
            _add_level(game.table, outer, frame, lineno)
    if not outer or outer[0].where is None:
        return error
    chain = outer + levels
    path, line, column = chain[0].where  # type: ignore[misc]
    located = RuleError(f"{path}:{line}:{column}: {detail} [{_calls(game, chain)}]{note}")
    located.__class__ = type(error)
    located.__dict__.update(error.__dict__)
    if chain[0].function.startswith(("dv_", "df_")):
        located.called_by_python = (detail, note, chain)  # type: ignore[attr-defined]
    else:
        located.called_by_python = None  # type: ignore[attr-defined]
    return located


def _add_level(
    table: Any, levels: list[_Level], frame: Any, lineno: int
) -> tuple[str, int, int] | None:
    """Add a frame of the generated module to ``levels`` (outermost first) and return the
    DSL position it had reached: a generator expression or lambda is the function above
    it; a DSL verb a section runner wrote in place of its call is a level of its own."""
    where = table.position(lineno)
    name = frame.f_code.co_name
    if levels and name.startswith("<"):
        levels[-1] = levels[-1]._replace(where=where)
    else:
        levels.append(_Level(name, where, frame.f_locals.get("c")))
    for _, _, verb, call in table.inlined_at(lineno):
        levels[-1] = levels[-1]._replace(where=call)
        levels.append(_Level(f"dv_{verb}", where, None))
    return where


def _calls(game: Any, levels: list[_Level]) -> str:
    """The DSL calls a failure passed through, innermost first, each with the line it had
    reached: "in verb arrive (flow.cards:196:3), called from verb venture_back
    (flow.cards:189:3), called from Whirlpool's 'on undefeated' (whirlpool.cards:6:5)"."""
    parts = []
    for index, level in enumerate(reversed(levels)):
        said = _level_words(game, level)
        where = "{}:{}:{}".format(*level.where) if level.where is not None else "?"
        parts.append(f"{'in' if index == 0 else 'called from'} {said} ({where})")
    return ", ".join(parts)


def _level_words(game: Any, level: _Level) -> str:
    """What a generated function is, in the DSL's words: a verb or function by its name,
    a card's answer by the card's title and trigger, a phase of the flow by its name."""
    name = level.function
    if name.startswith("dv_"):
        return f"verb {name[3:]}"
    if name.startswith("df_"):
        return f"function {name[3:]}"
    c = level.context
    if name.startswith("h_") and getattr(c, "card", None):
        title = game.cards.get(c.card, {}).get("title", c.card)
        return f"{title}'s 'on {c.trigger}'"
    if name.startswith("f_") and getattr(c, "card", None):
        title = game.cards.get(c.card, {}).get("title", c.card)
        return f"{title}'s {c.trigger}"
    if name.startswith("p_") and "__" in name:
        return f"phase {name.partition('__')[2]}"
    if name.startswith(("run__", "loop__")):
        return f"the flow's {name.partition('__')[2]} section"
    return name


def locate(game: Any, error: BaseException, tb: Any) -> RuleError:
    """``error``, raised under a generated function of ``game``'s handlers, as a rule error at
    the DSL position the generated code had reached (the card's or phase's line, with the DSL
    verbs and functions it passed through), or where the game's own Python raised it."""
    where = None
    python = None
    #: A window opened again while it runs: the card whose answer opened it (its line and
    #: context), where the verb it called opens the window is the innermost line.
    window = getattr(error, "window", None)
    answer: tuple[tuple[str, int, int] | None, Any] | None = None
    #: The generated functions the failure passed through, outermost first (the card's
    #: or phase's handler, then each DSL verb or function it called): see _calls.
    levels: list[_Level] = []
    if game.table is not None:
        cards = {fn.__code__ for fn in game.table.handlers.values()} if window else set()
        innermost = ""
        for frame, lineno in traceback.walk_tb(tb):
            innermost = frame.f_code.co_filename
            if innermost == game.table.filename:
                where = _add_level(game.table, levels, frame, lineno)
                if frame.f_code in cards:
                    answer = (where, frame.f_locals.get("c"))
            elif str(frame.f_globals.get("__name__", "")).startswith("cardc_game_"):
                # A frame of the game's own Python (engine.loader.load_natives names its
                # package so): the designer's bug is there, not in the card.
                python = (frame.f_code.co_filename, lineno, frame.f_code.co_name)
        if isinstance(error, ZeroDivisionError) and innermost == game.table.filename:
            # The card's own '/' or '%' (the generated code is the innermost frame, not
            # the game's Python): in the game's words, not Python's. Still no rule
            # refusing that a scenario could expect, as the ZeroDivisionError was not.
            error = RuleError(divided_by_zero_message(where, game.table.filename))
            error.internal = True  # type: ignore[attr-defined]
    detail = str(error) if isinstance(error, RuleError) else f"{type(error).__name__}: {error}"
    detail_alone = detail
    if answer is not None and answer[0] is not None and hasattr(answer[1], "trigger"):
        # Incredible Expeditions' card that Faces an Encounter while one is Faced: at the
        # card's own line, not at the flow's `fire facing` inside face_encounter.
        card, c = answer
        title = game.cards.get(c.card, {}).get("title", c.card)
        detail += f": {title}'s 'on {c.trigger}' opens it again"
        if where is not None and where != card:
            detail += " (the window at {}:{}:{})".format(*where)
        where = card
    elif len(levels) > 1 and levels[0].where is not None and where is not None:
        # A DSL verb (or function) a card called failed inside: the designer sees the
        # card's call, and the verb's line it failed at, as a short traceback in the DSL's
        # terms ("in verb venture_back (flow.cards:188:3), called from Whirlpool's 'on
        # undefeated' (whirlpool.cards:6:5)"), not the verb's line alone.
        detail += f" [{_calls(game, levels)}]"
        where = levels[0].where
    note = ""
    if python is not None and not isinstance(error, RuleError):
        file, line, function = python
        note = f" (raised in the game's Python, {shown_path(file)}:{line}, in {function})"
    detail += note
    if where is None:
        located = RuleError(detail)
    else:
        path, line, column = where
        located = RuleError(f"{path}:{line}:{column}: {detail}")
    located.located = True  # type: ignore[attr-defined]
    if answer is None and levels and levels[0].function.startswith(("dv_", "df_")):
        # Run by the game's Python, not by a card or phase: the call() around that Python
        # names who called it (_called_from).
        located.called_by_python = (detail_alone, note, levels)  # type: ignore[attr-defined]
    # A Python failure (a TypeError in a flow) is not a rule refusing: no scenario may
    # expect it as a refusal.
    located.internal = not isinstance(error, RuleError) or getattr(  # type: ignore[attr-defined]
        error, "internal", False
    )
    if isinstance(error, (IllegalDecision, ScriptedDiceError)):
        located.__class__ = type(error)
        if isinstance(error, ScriptedDiceError):
            located.sides, located.value = error.sides, error.value  # type: ignore[attr-defined]
    return located


def shown_path(file: str) -> str:
    """``file`` relative to the current directory when below it, as diagnostics show paths."""
    try:
        return Path(file).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        return file
