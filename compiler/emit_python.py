"""Emit a game's IR as a Python module of effect handlers (jinja2 for the module's frame).

A dispatch table maps each IR node kind to the function that writes it, as sqlglot's
generator does; an unknown kind is an explicit error. Every string from the data reaches the
code only through :func:`literal` (``repr`` of a ``str``, which is always a plain literal) or,
in comments, through :func:`comment_text` (ASCII-escaped, so no newline can end a comment).
Each statement line ends with a ``# @ file:line:col`` marker; after rendering, the markers
become the module's ``LINES`` table, and the module is ``compile()``d before it is returned.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2

from compiler import __version__

IR = dict[str, Any]

_TEMPLATES = Path(__file__).with_name("templates")
_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
    undefined=jinja2.StrictUndefined,
    autoescape=False,  # Python output: escaping is done by literal(), never by HTML rules
    keep_trailing_newline=True,
    trim_blocks=False,
    lstrip_blocks=False,
)

PRELUDE_NATIVES = ("count", "highest", "highest_or_sum", "lowest", "max", "min")
_PRELUDE_VERBS = frozenset(
    "gain lose pay set add reduce mark score draw discard play "
    "fire end_game build_deck play_one".split()
)
#: Prelude verbs whose Game method has another name (``Game.fire`` is the engine's own).
_PRELUDE_METHODS = {"fire": "fire_in_force"}
_MARKER_START = "  # @ "
_MARKER = re.compile(r"  # @ (.*):(\d+):(\d+)")


class EmitError(Exception):
    """The IR holds something the emitter cannot write (a bug in an earlier stage)."""


def literal(value: Any) -> str:
    """A safe Python literal for data: strings through repr, numbers as themselves."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (tuple, list)):
        inner = ", ".join(literal(v) for v in value)
        return (
            f"({inner},)"
            if isinstance(value, tuple) and len(value) == 1
            else (f"({inner})" if isinstance(value, tuple) else f"[{inner}]")
        )
    raise EmitError(f"no literal for {type(value).__name__}")


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_CONTROL_NAMES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def comment_text(text: str) -> str:
    """Text safe inside a ``#`` comment: ASCII only, no line breaks, no control characters.

    Every control character is escaped, not only line breaks: ``compile()`` refuses a NUL
    anywhere in the source, and a form feed or vertical tab is whitespace to the tokenizer.
    """
    ascii_text = text.encode("ascii", "backslashreplace").decode("ascii")
    return _CONTROL.sub(
        lambda m: _CONTROL_NAMES.get(m.group(), f"\\x{ord(m.group()):02x}"), ascii_text
    )


def docstring_text(text: str) -> str:
    """Text safe inside a docstring: :func:`comment_text`, backslashes and quotes escaped.

    Unescaped, a title holding three double quotes would end the docstring, and the rest of
    the title would run as code when the module is imported.
    """
    return comment_text(text).replace("\\", "\\\\").replace('"', '\\"')


def _local(name: str) -> str:
    return f"v_{name}"


def _signature(params: list[IR]) -> str:
    """A DSL verb's or function's parameters after ``(g, c``, each with its default when it
    has one: the game's Python may call a redefinition that added a defaulted parameter at
    the end with the base's arguments (README: "which the existing calls leave at the
    default")."""
    return "".join(
        f", {_local(p['name'])}" + (f"={p['default']!r}" if "default" in p else "") for p in params
    )


def _verb_name(name: str) -> str:
    """The Python function of a verb written in the DSL."""
    return f"dv_{name}"


def _function_name(name: str) -> str:
    """The Python function of a function written in the DSL."""
    return f"df_{name}"


class _Function:
    """One function being written: its lines and the context variable of each depth."""

    def __init__(self, name: str, comment: str, card: str, trigger: str, source: str):
        self.name = name
        self.comment = comment
        self.card = card
        self.trigger = trigger
        self.source = source
        self.lines: list[str] = []
        self.asks = 0
        self.windows = 0  # `fire ... { }` blocks so far: each window's context is w1, w2 ...
        self.params = ""  # ", v_a, v_b" after (g, c): a DSL verb's or function's parameters

    def add(self, indent: int, code: str, at: list[int] | None = None) -> None:
        marker = f"  # @ {comment_text(self.source)}:{at[0]}:{at[1]}" if at else ""
        self.lines.append("    " * indent + code + marker)


class PythonEmitter:
    """Writes handler functions from IR statements and expressions."""

    def __init__(self, ir: IR):
        self.ir = ir
        #: What :meth:`functions` wrote afresh (not reused): text, HANDLERS and FORMULAS entries.
        self.fresh: tuple[str, list[tuple[str, str]], list[tuple[str, str]]] = ("", [], [])
        #: The text :meth:`functions` returned, in pieces: each with the memo of the file's
        #: cards it was written from (None for the DSL's verbs and functions, written anew),
        #: where :func:`emit_handlers` keeps the piece's LINES markers.
        self.pieces: list[tuple[str, dict[str, Any] | None]] = []
        #: standard-library modules the handlers call (written or reused: read from the IR).
        self.stdlib: set[str] = _ir_stdlib_modules(ir)
        definitions = ir.get("definitions") or {}
        #: The game's DSL verbs by name (their bodies, written in place of a call in a section
        #: runner) and its DSL functions (read to know whether a call may change the game).
        self.dsl_verbs: dict[str, IR] = {v["name"]: v for v in definitions.get("verbs", [])}
        self.dsl_functions: dict[str, IR] = {f["name"]: f for f in definitions.get("functions", [])}
        #: While a section runner is written: inline DSL verbs (see :meth:`inline_verb`); the
        #: game's natives and verbs it calls (local name -> the lookup, how many calls; None
        #: elsewhere), and those bound to locals at its top.
        self.inlining = False
        #: While the round loop is written (:meth:`round_loop`): board flags are read through
        #: its ``board_get``.
        self.looping = False
        #: The round loop's ``for each`` over the players reads the players' contexts made
        #: once a game (``contexts``, and ``many``: more than one), not one a loop a round.
        self.contexts_used = False
        self.many_used = False
        self.bound: dict[str, tuple[str, int]] | None = None
        self.binding: frozenset[str] = frozenset()
        #: The prefix of the DSL locals being written (an inlined verb's own: ``i3_``), and
        #: how many verbs were inlined so far (each call's locals are its own).
        self.prefix = ""
        self.inlined = 0
        self.stmts: dict[str, Callable[[_Function, IR, int, str], None]] = {
            "verb": self.s_verb,
            "let": self.s_let,
            "if": self.s_if,
            "for_each": self.s_for_each,
            "may": self.s_may,
            "choose": self.s_choose,
            "choose_from": self.s_choose_from,
            "repeat": self.s_repeat,
            "group": self.s_group,
            "window": self.s_window,
        }
        #: Inside a ``fire ... { }`` block: the Python name of each open window's context, by
        #: trigger (a quantity of the window reads ``w1.q['damage']``).
        self.windows: dict[str, str] = {}
        self.exprs: dict[str, Callable[[IR, str], str]] = {
            "num": lambda e, c: repr(e["value"]),
            "bool": lambda e, c: repr(bool(e["value"])),
            "none": lambda e, c: "None",
            "text": lambda e, c: literal(e["value"]),
            # The context too: whose roll it is (a game may let its owner reroll a die).
            "roll": lambda e, c: f"g.roll({int(e['count'])}, {int(e['sides'])}, {c})",
            "dice": lambda e, c: f"({int(e['count'])}, {int(e['sides'])})",
            "local": lambda e, c: self.local(e["name"]),
            "event": lambda e, c: f"{c}.e[{literal(e['name'])}]",
            "quantity": lambda e, c: (
                f"{self.windows[e['window']] if 'window' in e else c}.q[{literal(e['name'])}]"
            ),
            "counter": lambda e, c: f"{c}.player.counters[{literal(e['name'])}]",
            "param": self.e_param,
            "builtin": self.e_builtin,
            "symbol": lambda e, c: literal(e["name"]),
            "card": lambda e, c: literal(e["id"]),
            "ref": lambda e, c: literal(e["name"]),
            "binary": self.e_binary,
            "compare": self.e_compare,
            "logic": lambda e, c: (
                f"({self.expr(e['left'], c)} {e['op']} {self.expr(e['right'], c)})"
            ),
            "not": lambda e, c: f"(not {self.expr(e['operand'], c)})",
            "call": self.e_call,
            "verb_test": self.e_verb_test,
            "list": lambda e, c: "[" + ", ".join(self.expr(i, c) for i in e["items"]) + "]",
            "range": lambda e, c: f"g.span({self.expr(e['low'], c)}, {self.expr(e['high'], c)})",
            "attr": self.e_attr,
            # A copy: the body of the loop or choice may move the zone's cards.
            "zone_cards": lambda e, c: f"[*{c}.player.zones[{literal(e['zone'])}]]",
        }

    def local(self, name: str) -> str:
        """The Python name of a DSL local (a parameter, a ``let``, a loop variable)."""
        return f"v_{self.prefix}{name}"

    def bind(self, kind: str, name: str) -> str | None:
        """In a section runner, the local a game native, verb or parameter is bound to
        (``n_NAME``, ``gv_NAME``, ``p_NAME``) when :meth:`section_runner` binds it; None
        elsewhere. Counts the use."""
        if self.bound is None or not name.isidentifier():
            return None
        local = f"{_BOUND_PREFIX[kind]}_{name}"
        lookup, count = self.bound.get(local, (f"g.{kind}[{literal(name)}]", 0))
        self.bound[local] = (lookup, count + 1)
        return local if local in self.binding else None

    # -- expressions

    def expr(self, e: IR | None, c: str) -> str:
        if e is None:
            return "None"
        writer = self.exprs.get(e["kind"])
        if writer is None:
            raise EmitError(f"unknown expression kind {e['kind']!r}")
        return writer(e, c)

    def e_attr(self, e: IR, c: str) -> str:
        value = self.expr(e["value"], c)
        if e.get("tag"):
            return f"g.has_tag({value}, {literal(e['attr'])})"
        # An optional property a card lacks reads as its type's zero, never None; but
        # `card.bonus == none` reads it bare ("absent"), None when the card lacks it.
        default = {"number": 0, "bool": False, "text": "", "name": ""}.get(e.get("type", ""))
        if e.get("absent"):
            default = None
        return f"g.attr({value}, {literal(e['attr'])}, {literal(default)})"

    def e_compare(self, e: IR, c: str) -> str:
        op = e["op"]
        if e["right"].get("kind") == "none":
            # `card.bonus == none`: the card lacks the optional property.
            op = "is" if op == "==" else "is not"
        return f"({self.expr(e['left'], c)} {op} {self.expr(e['right'], c)})"

    def e_param(self, e: IR, c: str) -> str:
        # A parameter is the variant's, the same all game: a runner reads it once.
        bound = self.bind("params", e["name"])
        return bound if bound is not None else f"g.params[{literal(e['name'])}]"

    def e_builtin(self, e: IR, c: str) -> str:
        name = e["name"]
        if name == "round" and self.looping:
            return "number"  # the round loop's own count, which g.round is set to
        table = {
            "round": "g.round",
            "self": f"{c}.card",
            "player": f"{c}.player",
            "players": "g.players",
        }
        if name not in table:
            raise EmitError(f"unknown built-in {name!r}")
        return table[name]

    def e_binary(self, e: IR, c: str) -> str:
        op = e["op"]  # '%' is Python's: the remainder has the divisor's sign, as on a board
        if op == "/":  # whole numbers on a board: division rounds down
            op = "//"
        return f"({self.expr(e['left'], c)} {op} {self.expr(e['right'], c)})"

    def args(self, values: list[IR | None], c: str) -> str:
        return "".join(f", {self.expr(v, c)}" for v in values)

    def library(self, origin: str, name: str) -> str:
        """A call target in the standard library: ``stdlib_dice.roll``."""
        module = origin.removeprefix("stdlib.")
        if not module.isidentifier() or not name.isidentifier():
            raise EmitError(f"no library function {origin}.{name}")
        self.stdlib.add(module)
        return f"stdlib_{module}.{name}"

    def e_call(self, e: IR, c: str) -> str:
        if e["origin"].startswith("stdlib."):
            target = self.library(e["origin"], e["native"])
            return f"{target}(g, {c}{self.args(e['args'], c)})"
        if e["origin"] == "dsl":
            return f"{_function_name(e['native'])}(g, {c}{self.args(e['args'], c)})"
        if e["origin"] == "prelude":
            if e["native"] not in PRELUDE_NATIVES:
                raise EmitError(f"unknown prelude native {e['native']!r}")
            return f"{e['native']}(g, {c}{self.args(e['args'], c)})"
        if e.get("board_flag"):
            # A native declared ``board_flag KEY``: the board's flag read in place, no call
            # (an end condition is tested after each phase; a call a test added up).
            return f"(True if {self.board_flag(e)} else False)"
        if e.get("player_flag"):
            # ``player_flag KEY``: the acting player's flag, read in place the same way.
            return f"(True if {c}.player.flags.get({literal(e['player_flag'])}) else False)"
        bound = self.bind("natives", e["native"])
        if bound is not None:
            return f"{bound}(g, {c}{self.args(e['args'], c)})"
        return f"g.natives[{literal(e['native'])}](g, {c}{self.args(e['args'], c)})"

    def board_flag(self, e: IR) -> str:
        """The read of a ``board_flag`` native's key: through the board's ``get`` bound once
        a game in the round loop (:meth:`round_loop`), else looked up in place."""
        key = literal(e["board_flag"])
        return f"board_get({key})" if self.looping else f"g.board.get({key})"

    def test(self, e: IR, c: str) -> str:
        """An expression as the test of an ``if`` (or of ``end when``): as :meth:`expr`, but
        a board flag, alone or under ``not``, is read as it is, not made a bool first (a
        test takes any value's truth; the end condition is tested after every phase)."""
        if e["kind"] == "call" and e.get("board_flag"):
            return self.board_flag(e)
        if e["kind"] == "call" and e.get("player_flag"):
            return f"{c}.player.flags.get({literal(e['player_flag'])})"
        if e["kind"] == "not":
            return f"(not {self.test(e['operand'], c)})"
        return self.expr(e, c)

    def end_test(self, e: IR, c: str) -> str:
        """``end when`` as a test: one that reads a player's counters, tracks or zones holds
        when it holds for any player ("end when prestige >= 40": the first captain to 40 ends
        the game, whoever's turn or seat it is); any other is tested as it is."""
        if not _reads_player(e):
            return self.test(e, c)
        each = f"[{c}.for_player(p_end) for p_end in g.players]"
        return f"any({self.test(e, 'c_end')} for c_end in {each})"

    def verb_call(self, verb: str, origin: str, args: list[IR | None], c: str) -> str:
        if origin.startswith("stdlib."):
            return f"{self.library(origin, verb)}(g, {c}{self.args(args, c)})"
        if origin == "dsl":
            return f"{_verb_name(verb)}(g, {c}{self.args(args, c)})"
        if origin == "prelude":
            if verb not in _PRELUDE_VERBS:
                raise EmitError(f"unknown prelude verb {verb!r}")
            return f"g.{_PRELUDE_METHODS.get(verb, verb)}({c}{self.args(args, c)})"
        bound = self.bind("verbs", verb)
        if bound is not None:
            return f"{bound}(g, {c}{self.args(args, c)})"
        return f"g.verbs[{literal(verb)}](g, {c}{self.args(args, c)})"

    def e_verb_test(self, e: IR, c: str) -> str:
        return self.verb_call(e["verb"], e["origin"], e["args"], c)

    # -- statements

    def body(self, fn: _Function, stmts: list[IR], indent: int, c: str) -> None:
        if not stmts:
            fn.add(indent, "pass")
        for stmt in stmts:
            writer = self.stmts.get(stmt["kind"])
            if writer is None:
                raise EmitError(f"unknown statement kind {stmt['kind']!r}")
            writer(fn, stmt, indent, c)

    def s_verb(self, fn: _Function, s: IR, indent: int, c: str) -> None:
        if self.inlining and s["origin"] == "dsl" and s["else"] is None:
            verb = self.dsl_verbs.get(s["verb"])
            if verb is not None and len(verb["params"]) == len(s["args"]):
                self.inline_verb(fn, verb, s, indent, c)
                return
        call = self.verb_call(s["verb"], s["origin"], s["args"], c)
        if s["else"] is None:
            fn.add(indent, call, s["at"])
        elif s.get("returns") == "shortfall":
            fn.add(indent, f"{self.local('missing')} = {call}", s["at"])
            fn.add(indent, f"if {self.local('missing')} > 0:")
            self.body(fn, s["else"], indent + 1, c)
        else:
            fn.add(indent, f"if not {call}:", s["at"])
            self.body(fn, s["else"], indent + 1, c)

    def inline_verb(self, fn: _Function, verb: IR, s: IR, indent: int, c: str) -> None:
        """A DSL verb's body written in place of its call (in a section runner): the call's
        arguments bound to the verb's parameters, then its statements, with locals of their
        own (``v_i3_...``: a verb sees only its parameters and its own ``let``s). It always
        ends: the checker refuses recursion, so a verb never inlines itself. Its statements
        keep their DSL positions (the verb's file and line) and its questions their ids, as
        from the verb's own function."""
        self.inlined += 1
        prefix = f"i{self.inlined}_"
        # The call's place, and where the verb's statements end, for the module's INLINED
        # table: a failure inside is reported at the call, naming the verb's line too.
        at = s["at"] or [0, 0]
        name = comment_text(verb["name"])
        fn.add(indent, f"# verb {name} (called at {comment_text(fn.source)}:{at[0]}:{at[1]})")
        for param, arg in zip(verb["params"], s["args"], strict=True):
            fn.add(indent, f"v_{prefix}{param['name']} = {self.expr(arg, c)}", s["at"])
        saved = (self.prefix, fn.card, fn.trigger, fn.source)
        self.prefix = prefix
        fn.card, fn.trigger = verb["name"], "verb"
        fn.source = verb["source"].rpartition(":")[0]
        try:
            self.body(fn, verb["body"], indent, c)
        finally:
            self.prefix, fn.card, fn.trigger, fn.source = saved
        fn.add(indent, f"# end of verb {name}")

    def s_window(self, fn: _Function, s: IR, indent: int, c: str) -> None:
        """``fire TRIGGER with Q V { ... }``: the window opened through ``g.open_window`` (the
        engine's ``fire`` for the cards in force), then the block, reading the quantities from
        the context it returns as the cards that answered left them."""
        given = ", ".join(
            f"{literal(q['name'])}: {self.expr(q['value'], c)}" for q in s["quantities"]
        )
        call = f"g.open_window({c}, {literal(s['trigger'])}, {{{given}}})"
        if not s["body"]:
            fn.add(indent, call, s["at"])
            return
        fn.windows += 1
        var = f"w{fn.windows}"
        fn.add(indent, f"{var} = {call}", s["at"])
        trigger = s["trigger"]
        outer = self.windows.get(trigger)
        self.windows[trigger] = var
        try:
            self.body(fn, s["body"], indent, c)
        finally:
            if outer is None:
                del self.windows[trigger]
            else:
                self.windows[trigger] = outer

    def s_let(self, fn: _Function, s: IR, indent: int, c: str) -> None:
        fn.add(indent, f"{self.local(s['name'])} = {self.expr(s['value'], c)}", s["at"])

    def s_if(self, fn: _Function, s: IR, indent: int, c: str) -> None:
        fn.add(indent, f"if {self.test(s['cond'], c)}:", s["at"])
        self.body(fn, s["then"], indent + 1, c)
        if s["else"]:
            fn.add(indent, "else:")
            self.body(fn, s["else"], indent + 1, c)

    def s_for_each(self, fn: _Function, s: IR, indent: int, c: str) -> None:
        var = self.local(s["var"])
        inner = f"c{indent + 2}" if s["as_player"] else c
        over = self.expr(s["over"], c)
        if self.looping and s["as_player"] and c == "c" and over == "g.players":
            self.each_context(fn, s, indent, var, inner)
            return
        if s.get("order"):
            # 'by': the items first; with two or more, every item's keys (as that player over
            # players), a stable sort so ties keep the list's order; then the loop. One item
            # (a solo game's players) is in order already: its keys are not worked out.
            ordered, keyed = f"o{indent}", f"ok{indent}"
            # The players are a list already, and the sort below makes a new one: no copy.
            copy = over if over == "g.players" else f"[*{over}]"
            fn.add(indent, f"{ordered} = {copy}", s["at"])
            fn.add(indent, f"if len({ordered}) > 1:")
            fn.add(indent + 1, f"{keyed} = []")
            fn.add(indent + 1, f"for {var} in {ordered}:")
            if s["as_player"]:
                fn.add(indent + 2, f"{inner} = {c}.for_player({var})")
            keys = [
                f"-({self.expr(k['key'], inner)})"
                if k["descending"]
                else self.expr(k["key"], inner)
                for k in s["order"]
            ]
            fn.add(indent + 2, f"{keyed}.append((({', '.join(keys)},), {var}))", s["at"])
            fn.add(indent + 1, f"{keyed}.sort(key=lambda item: item[0])")
            fn.add(indent + 1, f"{ordered} = [item[1] for item in {keyed}]")
            over = ordered
        fn.add(indent, f"for {var} in {over}:", s["at"])
        if s["as_player"]:
            # The context itself for its own player (a solo game's every loop): no call.
            fn.add(
                indent + 1,
                f"{inner} = {c} if {var} is {c}.player else {c}.for_player({var})",
            )
        if s["where"] is not None:
            fn.add(indent + 1, f"if not {self.expr(s['where'], inner)}:")
            fn.add(indent + 2, "continue")
        self.body(fn, s["body"], indent + 1, inner)

    def each_context(self, fn: _Function, s: IR, indent: int, var: str, inner: str) -> None:
        """``for each p in players`` in the round loop, over the players' contexts made once a
        game before it (``contexts``; the players are the game's for the whole game, and a
        context never changes once made): no context is looked up or made a loop a round. The
        loop's variable is set from its context only where the loop reads it."""
        self.contexts_used = True
        named = _reads_local(
            [s["where"], s["body"], [k["key"] for k in s.get("order") or ()]], s["var"]
        )
        over = "contexts"
        if s.get("order"):
            # As s_for_each: the keys of each with two or more players, a stable sort.
            ordered, keyed = f"o{indent}", f"ok{indent}"
            self.many_used = True
            fn.add(indent, f"{ordered} = contexts", s["at"])
            fn.add(indent, "if many:")
            fn.add(indent + 1, f"{keyed} = []")
            fn.add(indent + 1, f"for {inner} in {ordered}:")
            if named:
                fn.add(indent + 2, f"{var} = {inner}.player")
            keys = [
                f"-({self.expr(k['key'], inner)})"
                if k["descending"]
                else self.expr(k["key"], inner)
                for k in s["order"]
            ]
            fn.add(indent + 2, f"{keyed}.append((({', '.join(keys)},), {inner}))", s["at"])
            fn.add(indent + 1, f"{keyed}.sort(key=lambda item: item[0])")
            fn.add(indent + 1, f"{ordered} = [item[1] for item in {keyed}]")
            over = ordered
        fn.add(indent, f"for {inner} in {over}:", s["at"])
        if named:
            fn.add(indent + 1, f"{var} = {inner}.player")
        if s["where"] is not None:
            fn.add(indent + 1, f"if not {self.expr(s['where'], inner)}:")
            fn.add(indent + 2, "continue")
        self.body(fn, s["body"], indent + 1, inner)

    def question_id(self, fn: _Function, s: IR) -> str:
        """``card.trigger.name``: named from the rule (the statement's @label or first verb),
        so rewording or reordering a card keeps its scenarios' answers."""
        return f"{fn.card}.{fn.trigger}.{s['name']}"

    def s_may(self, fn: _Function, s: IR, indent: int, c: str) -> None:
        ident = self.question_id(fn, s)
        fn.add(indent, f"if g.may({c}, {literal(ident)}, {literal(s['ask'])}):", s["at"])
        self.body(fn, s["body"], indent + 1, c)

    def s_choose(self, fn: _Function, s: IR, indent: int, c: str) -> None:
        ident = self.question_id(fn, s)
        names = literal(tuple(s["names"]))
        labels = literal(tuple(s["labels"]))
        picked = f"k{indent}"
        fn.add(indent, f"{picked} = g.choose({c}, {literal(ident)}, {names}, {labels})", s["at"])
        for index, option in enumerate(s["options"]):
            fn.add(indent, f"{'if' if index == 0 else 'elif'} {picked} == {index}:")
            self.body(fn, option, indent + 1, c)

    def s_choose_from(self, fn: _Function, s: IR, indent: int, c: str) -> None:
        """``choose VAR in LIST where ... { ... }``: the items the filter keeps (each tested as
        its player, over the players), one of them picked through ``g.choose_from`` (none
        when there is nothing to pick), then the body with VAR bound to it: a loop over the
        zero or one items it returns."""
        ident = self.question_id(fn, s)
        var = self.local(s["var"])
        over = self.expr(s["over"], c)
        items = over
        if s["where"] is not None:
            tested = f"{c}.for_player({var})" if s["as_player"] else c
            items = f"[{var} for {var} in {over} if {self.expr(s['where'], tested)}]"
        fn.add(
            indent,
            f"for {var} in g.choose_from({c}, {literal(ident)}, {items}, {literal(s['ask'])}):",
            s["at"],
        )
        inner = c
        if s["as_player"]:
            inner = f"c{indent + 2}"
            fn.add(indent + 1, f"{inner} = {c}.for_player({var})")
        self.body(fn, s["body"], indent + 1, inner)

    def s_repeat(self, fn: _Function, s: IR, indent: int, c: str) -> None:
        # Counted against the game's work budget (Game.spend): 'repeat 100000000000' is an
        # error at its line, not a hang; a repeat inside a repeat counts each time it starts.
        count = self.expr(s["count"], c)
        fn.add(indent, f"for _ in range(g.spend({count}, 'repeats')):", s["at"])
        self.body(fn, s["body"], indent + 1, c)

    def s_group(self, fn: _Function, s: IR, indent: int, c: str) -> None:
        self.body(fn, s["body"], indent, c)

    # -- the module

    def card_functions(
        self, card: IR
    ) -> tuple[list[_Function], list[tuple[str, str]], list[tuple[str, str]]]:
        """The functions of one card (base names, before any renaming), and its entries of
        the HANDLERS and FORMULAS tables."""
        functions: list[_Function] = []
        handlers: list[tuple[str, str]] = []
        formulas: list[tuple[str, str]] = []
        path, _, line = card["source"].rpartition(":")
        for trigger, handler in card["triggers"].items():
            fn = _Function(
                f"h_{card['id']}__{trigger}",
                comment_text(f"{card['title']}: on {trigger} ({path}:{handler['line']})"),
                card["id"],
                trigger,
                path,
            )
            self.body(fn, handler["body"], 0, "c")
            functions.append(fn)
            handlers.append((literal((card["id"], trigger)), fn.name))
        for prop, formula in card["formulas"].items():
            fn = _Function(
                f"f_{card['id']}__{prop}",
                comment_text(f"{card['title']}: {prop} ({path}:{line})"),
                card["id"],
                prop,
                path,
            )
            fn.add(0, f"return {self.expr(formula['expr'], 'c')}", formula["at"])
            functions.append(fn)
            formulas.append((literal((card["id"], prop)), fn.name))
        return functions, handlers, formulas

    def functions(self) -> tuple[str, list[tuple[str, str]], list[tuple[str, str]]]:
        """Every card's functions as module text, and the HANDLERS and FORMULAS entries.

        A card's text is kept with its IR (compiler.filecache) and reused while the IR is the
        same object, so a rebuild emits only the cards that changed. Two functions whose names
        would clash get a suffix, as before; a card whose names were suffixed is not kept (its
        names depend on the cards before it).
        """
        from compiler.filecache import card_memo, chunk_memo, same_card, segments
        from compiler.generated_files import json_line as _json_line

        parts: list[str] = []
        handlers: list[tuple[str, str]] = []
        formulas: list[tuple[str, str]] = []
        used: set[str] = set()

        def unique(base: str) -> str:
            name, n = base, 2
            while name in used:
                name, n = f"{base}_{n}", n + 1
            used.add(name)
            return name

        # What is written now (not reused): emit_handlers compiles it, as a module of its own.
        fresh: list[str] = []
        fresh_handlers: list[tuple[str, str]] = []
        fresh_formulas: list[tuple[str, str]] = []
        # The game's DSL verbs and functions first, written every time (they are few).
        functions: list[_Function] = []
        definitions = self.ir.get("definitions") or {"verbs": [], "functions": []}
        for verb in definitions["verbs"]:
            path = verb["source"].rpartition(":")[0]
            fn = _Function(
                unique(_verb_name(verb["name"])),
                comment_text(f"verb {verb['name']} ({verb['source']})"),
                verb["name"],
                "verb",
                path,
            )
            fn.params = _signature(verb["params"])
            self.body(fn, verb["body"], 0, "c")
            functions.append(fn)
        for function in definitions["functions"]:
            path = function["source"].rpartition(":")[0]
            fn = _Function(
                unique(_function_name(function["name"])),
                comment_text(f"function {function['name']} ({function['source']})"),
                function["name"],
                "function",
                path,
            )
            fn.params = _signature(function["params"])
            fn.add(0, f"return {self.expr(function['expr'], 'c')}", function["at"])
            functions.append(fn)
        written = "".join(_function_text(fn) for fn in functions)
        parts.append(written)
        fresh.append(written)
        self.pieces.append((written, None))
        # A file's cards at once (compiler.filecache.segments): its text, names and table
        # entries kept joined while its cards are the very list they were written from.
        for piece in segments(self.ir["cards"]):
            chunk = chunk_memo(piece)
            whole = chunk.get("functions")
            if whole is not None and used.isdisjoint(whole[0]):
                names, text, card_handlers, card_formulas = whole
                used.update(names)
                parts.append(text)
                handlers += card_handlers
                formulas += card_formulas
                self.pieces.append((text, chunk))
                continue
            piece_names: list[str] = []
            piece_texts: list[str] = []
            piece_handlers: list[tuple[str, str]] = []
            piece_formulas: list[tuple[str, str]] = []
            clean = True
            for card in piece:
                memo = card_memo(card)
                kept = memo.get("functions")
                if kept is None:
                    # The same IR as a card written before (an unchanged card of an edited
                    # file): its functions are the same text.
                    kept = same_card(_json_line(card), memo).get("functions")
                    if kept is not None:
                        memo["functions"] = kept
                if kept is not None and not used.intersection(kept[0]):
                    names, text, card_handlers, card_formulas = kept
                    used.update(names)
                    piece_names += names
                    piece_texts.append(text)
                    piece_handlers += card_handlers
                    piece_formulas += card_formulas
                    continue
                functions, card_handlers, card_formulas = self.card_functions(card)
                renamed = {}
                for fn in functions:
                    name, n = fn.name, 2
                    while name in used:
                        name, n = f"{fn.name}_{n}", n + 1
                    used.add(name)
                    if name != fn.name:
                        renamed[fn.name] = name
                        fn.name = name
                if renamed:
                    clean = False
                    card_handlers = [(k, renamed.get(v, v)) for k, v in card_handlers]
                    card_formulas = [(k, renamed.get(v, v)) for k, v in card_formulas]
                text = "".join(_function_text(fn) for fn in functions)
                fresh.append(text)
                fresh_handlers += card_handlers
                fresh_formulas += card_formulas
                if not renamed:
                    made = ([fn.name for fn in functions], text, card_handlers, card_formulas)
                    memo["functions"] = made
                    same_card(_json_line(card), memo)["functions"] = made
                piece_names += [fn.name for fn in functions]
                piece_texts.append(text)
                piece_handlers += card_handlers
                piece_formulas += card_formulas
            text = "".join(piece_texts)
            # A file whose names were suffixed depends on the files before it: not kept.
            chunk.pop("functions", None)
            chunk.pop("markers", None)
            if clean:
                chunk["functions"] = (
                    frozenset(piece_names),
                    text,
                    piece_handlers,
                    piece_formulas,
                )
            parts.append(text)
            handlers += piece_handlers
            formulas += piece_formulas
            self.pieces.append((text, chunk if clean else None))
        self.fresh = ("".join(fresh), sorted(fresh_handlers), sorted(fresh_formulas))
        return "".join(parts), sorted(handlers), sorted(formulas)

    def flow(self) -> tuple[str, str]:
        """The flow's functions (one per phase, and its count, end condition and tiebreak) as
        module text, and the FLOW table; ``FLOW = None`` for a game without a flow."""
        flow = self.ir.get("flow")
        if not flow:
            return "", "FLOW = None\n"
        loc = flow["loc"]
        functions: list[_Function] = []
        table: dict[str, list[str]] = {section: [] for section in _FLOW_SECTIONS}
        #: Each section's phases, in order (for its runner).
        phase_functions: dict[str, list[IR]] = {section: [] for section in _FLOW_SECTIONS}
        extra: dict[str, str] = {}
        for section in flow["sections"]:
            for phase in section["phases"]:
                where = phase["loc"]
                shown = f' "{phase["title"]}"' if phase["title"] else ""
                fn = _Function(
                    f"p_{section['section']}__{phase['name']}",
                    comment_text(f"phase {phase['name']}{shown} ({where['file']}:{where['line']})"),
                    "flow",
                    phase["name"],
                    where["file"],
                )
                self.body(fn, phase["body"], 0, "c")
                functions.append(fn)
                table[section["section"]].append(f"({literal(phase['name'])}, {fn.name})")
                phase_functions[section["section"]].append(phase)
            if section["section"] == "round":
                where = section["loc"]
                extra["rounds"] = self.flow_value(
                    "rounds", section["count"], where, [where["line"], where["col"]], functions
                )
        # 'end when' and the tiebreak are reported where they are written (a variant's: its
        # YAML line; the tiebreak was told at the flow's first line).
        end_loc = flow.get("end_when_loc") or loc
        tiebreak_loc = flow.get("tiebreak_loc") or loc
        for key, where in (("end_when", end_loc), ("tiebreak", tiebreak_loc)):
            if flow[key] is not None:
                extra[key] = self.flow_value(
                    key, flow[key], where, [where["line"], where["col"]], functions
                )
        runners = {
            # The end section is played without the end condition (the game is ending).
            section: self.section_runner(
                section,
                phase_functions[section],
                None if section == "end" else flow["end_when"],
                loc,
                end_loc,
            )
            for section in _RUN_SECTIONS
            if phase_functions[section]
        }
        if phase_functions["round"] and not phase_functions["turn"]:
            # A game of rounds without turns is played by one call of its round loop.
            runners["loop"] = self.round_loop(
                phase_functions["round"], flow["end_when"], loc, end_loc
            )
        functions.extend(runners.values())
        rows = []
        for section in _FLOW_SECTIONS:
            phases = table[section]
            inner = ", ".join(phases) + ("," if len(phases) == 1 else "")
            rows.append(f"    {literal(section)}: ({inner}),")
        rows.append(f"    'rounds': {extra.get('rounds', 'None')},")
        rows.append(f"    'end_when': {extra.get('end_when', 'None')},")
        rows.append(f"    'winner': {literal(flow['winner'])},")
        rows.append(f"    'tiebreak': {extra.get('tiebreak', 'None')},")
        titles = flow["titles"]["kind"] if flow["titles"] else None
        rows.append(f"    'titles': {literal(titles)},")
        rows.append(f"    'title': {literal(flow['title'])},")
        ran = ", ".join(f"{literal(section)}: {fn.name}" for section, fn in runners.items())
        rows.append(f"    'run': {{{ran}}},")
        text = "".join(_function_text(fn) for fn in functions)
        return text, "FLOW = {\n" + "\n".join(rows) + "\n}\n"

    def section_runner(
        self, section: str, phases: list[IR], end_when: IR | None, loc: IR, end_loc: IR
    ) -> _Function:
        """One function that plays a whole section as the engine's phase loop would: each
        phase's statements in order, and ``end when`` after each (``g.end_when_held()`` ends
        the game).

        The engine calls it when nothing looks ahead (a lookahead needs each phase apart, to
        replay it): the phases' bodies written out in one function instead of a loop in the
        runtime calling each phase's function and then the end condition's, which in a game of
        12 rounds of 7 phases saves some 250 calls. Each statement keeps its DSL position, so
        a failure is reported where it is in the flow, as from the phase's own function."""
        # Written twice: first to count the calls of each game native and verb, then with
        # those called more than once bound to locals at the top, each looked up once per
        # call of the runner (a round) instead of once per call of it.
        self.bound = {}
        self.write_runner(section, phases, end_when, loc, end_loc, frozenset())
        counts, self.bound = self.bound, {}
        twice = frozenset(local for local, (_, count) in counts.items() if count > 1)
        fn = self.write_runner(section, phases, end_when, loc, end_loc, twice)
        self.bound = None
        return fn

    def round_loop(self, phases: list[IR], end_when: IR | None, loc: IR, end_loc: IR) -> _Function:
        """The rounds as one function, ``loop__round(g, c, number, limit)``: rounds
        ``number`` to ``limit``, each the round's phases as :meth:`section_runner` writes
        them, for a game that logs neither its phases nor its rounds (the simulator's games;
        the engine takes the round by round runner otherwise).

        What a call a round would look up again is looked up once a game: every game native
        and verb the phases call is bound to a local before the loop, the board's flags read
        through its ``get`` bound once, and no phase asks whether it is logged. A game of 12
        rounds calls it once, not 12 times."""
        self.bound = {}
        self.write_runner("round", phases, end_when, loc, end_loc, frozenset(), loop=True)
        counts, self.bound = self.bound, {}
        fn = self.write_runner(
            "round", phases, end_when, loc, end_loc, frozenset(counts), loop=True
        )
        self.bound = None
        return fn

    def write_runner(
        self,
        section: str,
        phases: list[IR],
        end_when: IR | None,
        loc: IR,
        end_loc: IR,
        bind: frozenset[str],
        loop: bool = False,
    ) -> _Function:
        """The runner of :meth:`section_runner`, with the locals of ``bind`` bound at its
        top (the names of their uses :meth:`bind` counts in ``self.bound``); with ``loop``,
        the round loop of :meth:`round_loop`."""
        self.binding = bind
        if loop:
            fn = _Function(
                f"loop__{section}",
                comment_text(
                    f"flow: rounds number to limit, each the {section} section's phases "
                    f"({loc['file']}:{loc['line']})"
                ),
                "flow",
                section,
                loc["file"],
            )
            fn.params = ", number, limit"
        else:
            fn = _Function(
                f"run__{section}",
                comment_text(f"flow: the {section} section's phases ({loc['file']}:{loc['line']})"),
                "flow",
                section,
                loc["file"],
            )
        base = 1 if loop else 0
        # The end condition may be left out after a phase that changed nothing (below) only
        # when checking it changes nothing itself: no dice, no verb, no question in it.
        pure_end = end_when is not None and not self.changes(end_when)

        def check(indent: int) -> None:
            if end_when is not None:
                fn.add(
                    indent, f"if {self.end_test(end_when, 'c')}:", [end_loc["line"], end_loc["col"]]
                )
                fn.add(indent + 1, "g.end_when_held()")

        self.inlining, self.looping = True, loop
        self.contexts_used = self.many_used = False
        try:
            if loop:
                fn.add(0, "while number <= limit:")
                # The rounds played are the last round begun: FlowGame.play reads them from
                # g.round once the loop returns or an end cuts it short.
                fn.add(1, "g.round = number")
            for index, phase in enumerate(phases):
                fn.add(base, f"# phase {phase['name']}")
                if not loop:
                    fn.add(0, "if logs:")
                    fn.add(
                        1, f"g.events.append(('phase', c.player.index, {literal(phase['name'])}))"
                    )
                # Its questions keep the phase's ids (flow.PHASE.NAME), as its own function
                # asks them, and its statements their file (a variant's inserted phase: its
                # YAML).
                fn.card, fn.trigger, fn.source = "flow", phase["name"], phase["loc"]["file"]
                if index == 0 or not pure_end:
                    # The first phase is always followed by the check: the round (or the
                    # turn's player) changed since the last one.
                    self.body(fn, phase["body"], base, "c")
                    fn.source = end_loc["file"]
                    check(base)
                else:
                    self.body_then_check(fn, phase["body"], base, "c", check, end_loc["file"])
            if loop:
                fn.add(1, "number += 1")
        finally:
            self.inlining, self.looping, self.binding = False, False, frozenset()
        # In the order of their names: the same text for the same flow.
        bound = self.bound or {}
        lookups = sorted((local, bound[local][0]) for local in bind if local in bound)
        if loop:
            # The board is the game's for the whole game: its get is bound once.
            top = ["board_get = g.board.get"]
            if self.contexts_used:
                # So are its players: their contexts are made once (each_context).
                top.append("contexts = [c.for_player(p) for p in g.players]")
            if self.many_used:
                top.append("many = len(contexts) > 1")
        else:
            # Whether each phase is logged, read once (it is the game's, not the round's).
            top = ["logs = g.logs_phases"]
        fn.lines[:0] = top + [f"{local} = {lookup}" for local, lookup in lookups]
        return fn

    def body_then_check(
        self,
        fn: _Function,
        stmts: list[IR],
        indent: int,
        c: str,
        check: Callable[[int], None],
        end_file: str,
    ) -> None:
        """A phase's statements, then the end condition wherever the game may have changed.

        The game changes only through verbs, dice and questions (natives and DSL functions
        only read it), so after a phase that ran none of them the end condition has the value
        it had after the phase before, when it did not hold: checking it again is skipped. A
        phase that ends with an ``if`` (and changed nothing before it) is checked at the end
        of the branches that change something: ``if round == 7 { reveal }`` checks only in
        the month it reveals."""
        if not self.changes(stmts):
            self.body(fn, stmts, indent, c)
            return
        last = stmts[-1]
        if last["kind"] == "if" and not self.changes(stmts[:-1]) and not self.changes(last["cond"]):
            for stmt in stmts[:-1]:
                self.body(fn, [stmt], indent, c)
            fn.add(indent, f"if {self.test(last['cond'], c)}:", last["at"])
            source = fn.source
            self.body_then_check(fn, last["then"], indent + 1, c, check, end_file)
            fn.source = source
            if last["else"]:
                fn.add(indent, "else:")
                self.body_then_check(fn, last["else"], indent + 1, c, check, end_file)
                fn.source = source
            return
        self.body(fn, stmts, indent, c)
        fn.source = end_file
        check(indent)

    def changes(self, node: Any, seen: frozenset[str] = frozenset()) -> bool:
        """Whether running an IR statement list (or evaluating an expression) may change the
        game: a verb, a question, a roll of the dice (the random stream moves on), a DSL
        function whose expression does one of these. Natives only read the game."""
        if isinstance(node, list):
            return any(self.changes(item, seen) for item in node)
        if not isinstance(node, dict):
            return False
        kind = node.get("kind")
        if kind in ("verb", "verb_test", "may", "choose", "choose_from", "roll"):
            return True
        if kind == "call":
            origin = node.get("origin", "")
            if origin == "stdlib.dice":
                return True
            if origin == "dsl":
                name = node.get("native", "")
                function = self.dsl_functions.get(name)
                if function is None or name in seen:
                    return True
                if self.changes(function["expr"], seen | {name}):
                    return True
        return any(
            self.changes(value, seen)
            for key, value in node.items()
            if isinstance(value, (dict, list)) and key != "at"
        )

    def flow_value(
        self, key: str, expr: IR, loc: IR, at: list[int], functions: list[_Function]
    ) -> str:
        """A function of the flow that gives a value: the number of rounds, the end condition,
        a player's tiebreak."""
        fn = _Function(
            f"flow__{key}",
            comment_text(f"flow: {key} ({loc['file']}:{loc['line']})"),
            "flow",
            key,
            loc["file"],
        )
        each = key == "end_when" and _reads_player(expr)
        value = self.end_test(expr, "c") if each else self.expr(expr, "c")
        fn.add(0, f"return {value}", at)
        functions.append(fn)
        return fn.name


#: The local a section runner binds a game native, verb or parameter to: ``n_NAME``,
#: ``gv_NAME``, ``p_NAME``.
_BOUND_PREFIX = {"natives": "n", "verbs": "gv", "params": "p"}

#: The FLOW table's sections, in the order the engine runs them.
_FLOW_SECTIONS = ("setup", "round", "turn", "end")
#: The sections the engine may play through one generated runner (``FLOW['run']``); ``end``'s
#: checks no end condition between its phases.
_RUN_SECTIONS = ("setup", "round", "turn", "end")


def _reads_player(node: Any) -> bool:
    """Whether an expression IR reads a player's own state: a counter, a track or zone it
    names (``count(port_cards)``), or a flag through a ``player_flag`` native (``sank()``)."""
    if isinstance(node, list):
        return any(_reads_player(item) for item in node)
    if not isinstance(node, dict):
        return False
    if node.get("kind") == "counter":
        return True
    if node.get("kind") == "call" and node.get("player_flag"):
        return True
    if node.get("kind") == "ref" and node.get("to") in ("counter", "track", "zone"):
        return True
    return any(_reads_player(value) for value in node.values() if isinstance(value, (dict, list)))


def _reads_local(node: Any, name: str) -> bool:
    """Whether an IR (statements, expressions, lists of them) reads the DSL local ``name``."""
    if isinstance(node, list):
        return any(_reads_local(item, name) for item in node)
    if not isinstance(node, dict):
        return False
    if node.get("kind") == "local" and node.get("name") == name:
        return True
    return any(
        _reads_local(value, name) for value in node.values() if isinstance(value, (dict, list))
    )


def _stdlib_modules(node: Any, found: set[str] | None = None) -> set[str]:
    """The standard-library modules an IR calls (``origin: stdlib.<module>``)."""
    found = set() if found is None else found
    if isinstance(node, dict):
        origin = node.get("origin")
        if isinstance(origin, str) and origin.startswith("stdlib.") and origin[7:].isidentifier():
            found.add(origin.removeprefix("stdlib."))
        for key, value in node.items():
            if key != "vocabulary":
                _stdlib_modules(value, found)
    elif isinstance(node, list):
        for item in node:
            _stdlib_modules(item, found)
    return found


def _ir_stdlib_modules(ir: IR) -> set[str]:
    """:func:`_stdlib_modules` of a whole IR, each card's kept with the card
    (compiler.filecache): walking every card's IR again took most of a one-file edit's build
    of a 10,000-card game."""
    from compiler.filecache import card_memo, chunk_memo, segments

    found: set[str] = set()
    rest = {key: value for key, value in ir.items() if key not in ("cards", "provisional")}
    _stdlib_modules(rest, found)
    # The notes (10,000 of them in a 10,000-card game) per file's list too.
    for piece in segments(ir.get("provisional") or []):
        chunk = chunk_memo(piece)
        notes = chunk.get("stdlib")
        if notes is None:
            notes = chunk["stdlib"] = frozenset(_stdlib_modules(piece))
        found |= notes
    for piece in segments(ir.get("cards") or []):
        chunk = chunk_memo(piece)
        joined = chunk.get("stdlib")
        if joined is None:
            joined = set()
            for card in piece:
                memo = card_memo(card)
                modules = memo.get("stdlib")
                if modules is None:
                    modules = memo["stdlib"] = frozenset(_stdlib_modules(card))
                joined |= modules
            joined = chunk["stdlib"] = frozenset(joined)
        found |= joined
    return found


def _function_text(fn: _Function) -> str:
    """One function as the module holds it."""
    body = "".join(f"    {line}\n" for line in fn.lines)
    return f"\n\ndef {fn.name}(g, c{fn.params}):\n    # {fn.comment}\n{body}"


def emit_handlers(ir: IR, sources: list[str], source_dir: str) -> str:
    """The handlers module of one game (or variant), checked by ``compile()``."""
    emitter = PythonEmitter(ir)
    functions_text, handlers, formulas = emitter.functions()
    flow_text, flow_table = emitter.flow()
    template = _ENV.get_template("handlers.py.j2")
    module = {
        "version": __version__,
        "source_dir": comment_text(source_dir),
        "game_comment": comment_text(f"{ir['title']} ({ir['game']})"),
        "game_doc": docstring_text(f"{ir['title']} ({ir['game']})"),
        "variant": comment_text(ir["variant"]) if ir["variant"] else "",
        "sources": [comment_text(s) for s in sources],
        "prelude_natives": PRELUDE_NATIVES,
        "stdlib_modules": sorted(emitter.stdlib),
        "game_literal": literal(ir["game"]),
        "variant_literal": literal(ir["variant"]),
        "flow_text": flow_text,
        "flow_table": flow_table,
    }
    text = template.render(
        **module, functions_text=functions_text, handlers=handlers, formulas=formulas
    )
    lines_table, paths = _lines_table(text, functions_text, emitter.pieces)
    text += "\nLINES = {\n" + "\n".join(lines_table) + ("\n" if lines_table else "") + "}\n"
    # Only a flow's section runners inline verbs: a module without any has no INLINED.
    inlined = _inlined_table(text, functions_text + flow_text, len(functions_text))
    inlined_table = "\nINLINED = [\n" + "".join(e + "\n" for e in inlined) + "]\n"
    if inlined:
        text += inlined_table
    # compile() checks what this call wrote: the module with the functions and table entries
    # written now. Functions and entries reused from an earlier build (compiler.filecache) were
    # checked when written; a function is a statement of its own and an entry an item of its
    # own, valid in any module or table. A LINES entry varies by its file only (its numbers
    # are numbers), so one entry per file stands for all.
    fresh_text, fresh_handlers, fresh_formulas = emitter.fresh
    checked = template.render(
        **module, functions_text=fresh_text, handlers=fresh_handlers, formulas=fresh_formulas
    )
    checked += "\nLINES = {\n" + "".join(e + "\n" for e in paths.values()) + "}\n"
    if inlined:
        checked += inlined_table
    compile(checked, f"generated/{ir['game']}/handlers.py", "exec")
    return text


#: A functions text shorter than this is scanned with the rest of the module, whole.
_PIECES_FROM = 4096


def _markers(lines: list[str]) -> list[tuple[int, str, int, int]]:
    """The LINES markers of ``lines``: (index of the line, path, line, column). Lines as
    compile() counts them (only "\n" ends one here), and the marker as the last "  # @ " on
    its line: a string literal before it may hold those characters too."""
    found = []
    for index, line in enumerate(lines):
        at = line.rfind(_MARKER_START)
        match = _MARKER.fullmatch(line, at) if at >= 0 else None
        if match:
            path, line_no, column = match.groups()
            found.append((index, path, int(line_no), int(column)))
    return found


def _lines_table(
    text: str, functions_text: str, pieces: list[tuple[str, dict[str, Any] | None]]
) -> tuple[list[str], dict[str, str]]:
    """The LINES entries of the module ``text`` (one per marked line, in order), and the
    first entry of each file (for the compile() check).

    The functions text is ``pieces`` joined; a piece written from a file's cards keeps its
    markers (relative to its first line) with those cards, so a rebuild scans only the module
    around them and the pieces written anew, and numbers the kept markers from their line."""
    # Each file's literal is made once (a 10,000-card game has 100,000 markers, few files).
    path_literals: dict[str, str] = {}
    lines_table: list[str] = []
    paths: dict[str, str] = {}

    def add(number: int, path: str, line_no: int, column: int) -> None:
        shown = path_literals.get(path)
        if shown is None:
            shown = path_literals[path] = literal(_unescape(path))
        entry = f"    {number}: ({shown}, {line_no}, {column}),"
        lines_table.append(entry)
        paths.setdefault(path, entry)

    whole = len(functions_text) < _PIECES_FROM or sum(len(t) for t, _ in pieces) != len(
        functions_text
    )
    start = -1 if whole else text.find(functions_text)
    # The functions text starts a line of its own (the header ends with one), once.
    if start <= 0 or text[start - 1] != "\n":
        for index, path, line_no, column in _markers(text.split("\n")):
            add(index + 1, path, line_no, column)
        return lines_table, paths
    head = text[:start].split("\n")[:-1]
    for index, path, line_no, column in _markers(head):
        add(index + 1, path, line_no, column)
    base = len(head) + 1
    for piece, memo in pieces:
        found = memo.get("markers") if memo is not None else None
        if found is None:
            found = _markers(piece.split("\n")[:-1])
            if memo is not None:
                memo["markers"] = found
        for index, path, line_no, column in found:
            add(base + index, path, line_no, column)
        base += piece.count("\n")
    for index, path, line_no, column in _markers(text[start + len(functions_text) :].split("\n")):
        add(base + index, path, line_no, column)
    return lines_table, paths


_INLINE_START = re.compile(r" *# verb (\w+) \(called at (.*):(\d+):(\d+)\)")
_INLINE_END = re.compile(r" *# end of verb \w+")


def _inlined_table(text: str, code: str, offset: int) -> list[str]:
    """The INLINED entries of the module ``text``: each DSL verb written in place of its call
    in a section runner (:meth:`PythonEmitter.inline_verb`), as ``(first line, last line,
    verb, (file, line, column) of the call)``, outermost first. Only the flow's runners
    inline, so only the flow's text (``code`` from ``offset``) is scanned."""
    start = text.find(code)
    if start < 0 or len(code) == offset:
        return []
    first = text.count("\n", 0, start + offset) + 1
    entries: list[str] = []
    open_: list[tuple[int, str]] = []
    for index, line in enumerate(code[offset:].split("\n")):
        if "# verb " in line and (match := _INLINE_START.fullmatch(line)):
            verb, path, line_no, column = match.groups()
            call = f"({literal(_unescape(path))}, {int(line_no)}, {int(column)})"
            open_.append((len(entries), ""))
            entries.append(f"{first + index}|{literal(verb)}, {call}")
        elif "# end of verb " in line and _INLINE_END.fullmatch(line) and open_:
            at, _ = open_.pop()
            begun, rest = entries[at].split("|", 1)
            entries[at] = f"    ({begun}, {first + index}, {rest}),"
    return [e for e in entries if "|" not in e]


def _unescape(text: str) -> str:
    """Undo :func:`comment_text` for a path carried in a marker."""
    return text.encode("ascii").decode("unicode_escape") if "\\" in text else text
