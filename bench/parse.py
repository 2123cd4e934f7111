"""Benchmark: how fast ``.cards`` text becomes the AST, against its two natural yardsticks.

Run as ``.venv/bin/python bench/parse.py [--cards N] [--repeat R]`` (defaults: 10,000 cards, 5
repeats). This is a benchmark, not a test: it prints figures and PASS/FAIL against the goals
below and exits 1 when a goal fails, but nothing runs it as part of the test suite.

What is measured, each as the median over the repeats, on one text holding all N cards:

(a) ``dsl.parser.parse``: the whole public entry point, text to :class:`dsl.nodes.SourceFile`
    with a span on every node (line checks, lexing, the token post-pass, LALR parsing with the
    inline AST builder, diagnostics sorting). Reported as seconds, cards/s and tokens/s, where
    the token count is what lark's lexer produces for the text (comments and blanks excluded).
(b) ``dsl.parser.lex``: lark's lexer alone over the same text. Any parse must at least lex, so
    this is the practical ceiling; (a)/(b) says how much the rest of the pipeline costs. The
    row under it, for information, is the lexer dsl.parser actually runs: lark's terminals and
    compiled regular expression, the same tokens, in dsl.parser's own leaner loop
    (``dsl.parser._lex``); parsing is measured against both.
(c) The same cards written as YAML and loaded with ruamel.yaml round-trip (``YAML(typ="rt")``),
    the loader a YAML-based card format would use to keep comments and positions for error
    messages. The YAML is a faithful structural equivalent: one mapping per card with its
    properties, annotations and comments, and its triggers' statements as nested lists and
    mappings (``if``/``then``/``else``, ``may``, ``for_each``, ...). Expressions stay scalars
    (``2 + 2 * treasure``) as such a format would keep them, so YAML does *less* work than the
    DSL parser, which builds expression trees too: the comparison favours YAML.

``parse`` and ``lex`` pause Python's cyclic garbage collector while they run (dsl.parser does
that itself, on every call: a large parse would otherwise spend much of its time rescanning the
growing tree). The YAML load is measured with the collector paused too, so that (c) compares
the parsers, not the collector.

Goals (from the project's budgets): 10,000 cards parse in at most 4 s; parsing runs at no less
than a third of the lexer-only token rate; parsing is at least 5 times faster than the YAML
load. The cards are synthetic but shaped like the real ones in ``cards/`` (port cards, voyage
cards with triggers, if/unless/else, may, for each, choose one of, repeat, arithmetic, calls,
dice, ``@provisional`` annotations, comments), a little larger on average; the generator is
seeded, so every run measures the same text.
"""

from __future__ import annotations

import argparse
import gc
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ruamel.yaml import YAML  # noqa: E402
from ruamel.yaml.comments import CommentedMap, CommentedSeq  # noqa: E402

from dsl import parser as dsl_parser  # noqa: E402
from dsl.parser import lex, parse  # noqa: E402

SEED = 20240607
GOAL_SECONDS_FOR_10K = 4.0
GOAL_LEXER_FRACTION = 1 / 3
GOAL_YAML_SPEEDUP = 5.0

RESOURCES = [
    "coins",
    "stars",
    "prestige",
    "health",
    "durability",
    "armament",
    "crew_stamina",
    "sailing_speed",
    "heroism",
    "skullduggery",
    "money",
    "victory_points",
    "supplies",
]
TRACKS = ["health", "durability", "scurvy", "notoriety"]
ZONES = ["port_cards", "missions", "hand", "discard_pile", "supply", "accomplished"]
TRIGGERS = [
    "reveal",
    "pirate_combat",
    "pirate_raid",
    "sailing",
    "scurvy",
    "dock",
    "activate",
    "anchor_at_sea",
    "entering_location",
    "undefeated",
    "reward_phase_end",
    "tile_placed",
    "campsite_reached",
    "round_start",
    "round_end",
]
FUNCS = [
    "count",
    "highest",
    "difference",
    "treasure_at",
    "ship_region",
    "has_city",
    "highest_or_sum",
    "distance_to",
    "total",
]
PREDICATES = ["in_pirate_infested_area", "is_docked", "has_treasure", "is_first_player"]
TITLES = [
    "Smoke Bomb",
    "Reinforced Rope",
    "Rum",
    "Lime Juice",
    "Plague",
    "Pirate's Raid",
    "Famine",
    "Storm",
    "Calm Seas",
    "Pilot",
    "Navigator",
    "Sea Serpent",
    "Port City",
    "Kraken",
    "Old Map",
    "Spyglass",
    "Cannon",
    "Trade Winds",
    "Mutiny",
    "Fog Bank",
]
REASONS = [
    "the count per kind is not printed",
    "the printed value is not in the rulebook text",
    "which pirate formula this card shows is not printed",
    "an example card: its values are not in the rulebook",
]
COMMENTS = [
    '"Reduce the Pirate\'s Combat Power by up to 2."',
    "The rulebook gives this only by example.",
    '"You may sail 1 additional space."',
    "Printed values are not in the rulebook text unless quoted.",
]


# ---- the card model ------------------------------------------------------------------------
#
# A card is generated once as a small model and written out twice, as DSL and as YAML, so the
# two texts hold the same cards. An expression is a pair (DSL text, YAML scalar).


class Cards:
    """Random but reproducible card models, written as DSL text and as YAML data."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # -- expressions

    def number(self) -> tuple[str, Any]:
        value = self.rng.randint(1, 6)
        return str(value), value

    def atom(self) -> tuple[str, Any]:
        r = self.rng.random()
        if r < 0.35:
            return self.number()
        if r < 0.55:
            name = self.rng.choice(RESOURCES)
            return name, name
        if r < 0.7:
            text = f"{self.rng.choice(FUNCS)}({self.rng.choice(RESOURCES + ZONES)})"
            return text, text
        if r < 0.8:
            text = f"{self.rng.randint(1, 3)}d6"
            return text, text
        if r < 0.9:
            text = f"placed.{self.rng.choice(['tile', 'region', 'owner'])}"
            return text, text
        text = f"{self.rng.choice([25, 50, 75])}%"
        return text, text

    def operand(self) -> str:
        r = self.rng.random()
        if r < 0.45:
            return self.number()[0]
        if r < 0.75:
            return self.rng.choice(RESOURCES)
        if r < 0.9:
            return f"{self.rng.choice(FUNCS)}({self.rng.choice(RESOURCES + ZONES)})"
        return f"placed.{self.rng.choice(['tile', 'region', 'owner'])}"

    def arithmetic(self) -> tuple[str, Any]:
        text = self.operand()
        for _ in range(self.rng.randint(1, 2)):
            text += f" {self.rng.choice('+-*/')} {self.operand()}"
        if self.rng.random() < 0.2:
            text = f"({text}) * 2"
        return text, text

    def value(self) -> tuple[str, Any]:
        return self.arithmetic() if self.rng.random() < 0.3 else self.atom()

    def condition(self, verb_phrase: bool = True) -> tuple[str, Any]:
        """A condition; ``if`` and ``unless`` also take a verb phrase (``play rum``)."""
        r = self.rng.random() if verb_phrase else self.rng.random() * 0.8
        if r < 0.3:
            text = f"{self.rng.choice(PREDICATES)}()"
        elif r < 0.6:
            text = (
                f"{self.rng.choice(RESOURCES)} {self.rng.choice(['<', '>=', '==', '!='])} "
                f"{self.value()[0]}"
            )
        elif r < 0.8:
            text = (
                f"{self.rng.choice(RESOURCES)} > {self.rng.randint(0, 4)} and "
                f"not {self.rng.choice(PREDICATES)}()"
            )
        else:
            text = f"play {self.rng.choice(['lime_juice', 'rum', 'spyglass'])}"
        return text, text

    # -- statements: (DSL lines without indentation, YAML data)

    def command(self, fallback: bool = True) -> tuple[str, Any]:
        verb = self.rng.choice(["gain", "lose", "pay", "mark", "reduce", "add", "draw", "score"])
        clause = [(self.rng.choice(RESOURCES + TRACKS), None), self.value()]
        if verb == "reduce" and self.rng.random() < 0.5:
            clause.insert(1, ("up_to", "up_to"))
        clauses = [clause]
        if self.rng.random() < 0.15:
            clauses.append([(self.rng.choice(RESOURCES), None), self.number()])
        text = verb + " " + ", ".join(" ".join(e[0] for e in c) for c in clauses)
        args = [[e[1] if e[1] is not None else e[0] for e in c] for c in clauses]
        data = CommentedMap([(verb, flow(args[0]) if len(args) == 1 else flow(map(flow, args)))])
        if fallback and verb == "pay" and self.rng.random() < 0.5:
            other_text, other = self.command(fallback=False)
            text += " else " + other_text
            data["else"] = other
        return text, data

    def simple(self) -> tuple[list[str], Any]:
        r = self.rng.random()
        if r < 0.15:
            verb = self.rng.choice(
                [
                    "discard self",
                    "scurvy_check",
                    "move_pirate_ship",
                    "return_treasure",
                    "exhaust self",
                ]
            )
            return [verb], verb
        text, data = self.command()
        return [text], data

    def block(self, depth: int, size: tuple[int, int] = (1, 2)) -> tuple[list[str], Any]:
        lines: list[str] = []
        data = CommentedSeq()
        for _ in range(self.rng.randint(*size)):
            stmt_lines, stmt = self.statement(depth)
            lines += stmt_lines
            data.append(stmt)
        return lines, data

    def statement(self, depth: int) -> tuple[list[str], Any]:
        r = self.rng.random() if depth < 2 else 1.0
        if r < 0.2:
            return self.conditional(depth)
        if r < 0.32:
            if self.rng.random() < 0.5:
                text, data = self.command()
                return [f"may {text}"], CommentedMap([("may", data)])
            lines, body = self.block(depth + 1, (2, 3))
            return ["may {", *indent(lines), "}"], CommentedMap([("may", body)])
        if r < 0.4:
            var = self.rng.choice(["raided", "player", "crew_member", "tile"])
            where = self.condition(verb_phrase=False) if self.rng.random() < 0.5 else None
            lines, body = self.block(depth + 1)
            head = f"for each {var} in {self.rng.choice(['players', 'crew', 'tiles'])}"
            data = CommentedMap([("for_each", var), ("in", head.split()[-1])])
            if where is not None:
                head += f" where {where[0]}"
                data["where"] = where[1]
            data["do"] = body
            return [head + " {", *indent(lines), "}"], data
        if r < 0.48:
            options: list[str] = []
            data = CommentedSeq()
            for _ in range(self.rng.randint(2, 3)):
                if self.rng.random() < 0.3:
                    lines, body = self.block(depth + 1, (2, 2))
                    options += ["{", *indent(lines), "}"]
                    data.append(CommentedMap([("group", body)]))
                else:
                    stmt_lines, stmt = self.simple()
                    options += stmt_lines
                    data.append(stmt)
            return ["choose one of {", *indent(options), "}"], CommentedMap(
                [("choose_one_of", data)]
            )
        if r < 0.52:
            count = self.number()
            lines, body = self.block(depth + 1, (1, 2))
            return [f"repeat {count[0]} {{", *indent(lines), "}"], CommentedMap(
                [("repeat", count[1]), ("do", body)]
            )
        lines, data = self.simple()
        if self.rng.random() < 0.08:
            reason = self.rng.choice(REASONS)
            lines = [lines[0] + f' @provisional("{reason}")']
            data = CommentedMap([("do", data), ("provisional", reason)])
        return lines, data

    def conditional(self, depth: int) -> tuple[list[str], Any]:
        keyword = "if" if self.rng.random() < 0.75 else "unless"
        cond = self.condition()
        lines, then = self.block(depth + 1)
        out = [f"{keyword} {cond[0]} {{", *indent(lines)]
        data = CommentedMap([(keyword, cond[1]), ("then", then)])
        r = self.rng.random()
        if r < 0.35:
            other_lines, other = self.block(depth + 1, (1, 2))
            out += ["} else {", *indent(other_lines), "}"]
            data["else"] = other
        elif r < 0.45:
            cond2 = self.condition()
            other_lines, other = self.block(depth + 1, (1, 1))
            out += [f"}} else if {cond2[0]} {{", *indent(other_lines), "}"]
            data["else"] = CommentedSeq([CommentedMap([("if", cond2[1]), ("then", other)])])
        else:
            out.append("}")
        return out, data

    # -- cards

    def card(self, number: int) -> tuple[str, Any]:
        kind = self.rng.choice(
            ["port_card", "port_card", "voyage", "voyage", "crew", "mission", "encounter", "rule"]
        )
        title = f"{self.rng.choice(TITLES)} {number}"
        head_args = [f'"{title}"']
        data = CommentedMap([("kind", kind)])
        if kind == "voyage":
            head_args.insert(0, self.rng.choice(["first_half", "second_half"]))
        data["args"] = flow(a.strip('"') for a in head_args)
        lines: list[str] = []
        if self.rng.random() < 0.05:
            lines.append('@provisional("an example card")')
            data["provisional"] = "an example card"
        lines.append(f"{kind} {' '.join(head_args)} {{")
        body: list[str] = []
        for name, value in self.properties(kind):
            text = f"{name} {value[0]}"
            if self.rng.random() < 0.3:
                reason = self.rng.choice(REASONS)
                text += f' @provisional("{reason}")'
                data[name] = CommentedMap([("value", value[1]), ("provisional", reason)])
            else:
                data[name] = value[1]
            body.append(text)
        triggers = CommentedSeq()
        for event in self.rng.sample(TRIGGERS, self.rng.choice([1, 1, 1, 2])):
            if self.rng.random() < 0.5:
                comment = self.rng.choice(COMMENTS)
                body.append(f"# {comment}")
            else:
                comment = None
            stmts, effects = self.block(0, (1, 2))
            body += [f"on {event} {{", *indent(stmts), "}"]
            trigger = CommentedMap([("event", event), ("do", effects)])
            if comment is not None:
                trigger.yaml_set_start_comment(comment)
            triggers.append(trigger)
        data["on"] = triggers
        if self.rng.random() < 0.3:
            comment = self.rng.choice(COMMENTS)
            lines.insert(0, f"# {comment}")
            data.yaml_set_start_comment(comment)
        return "\n".join([*lines, *indent(body), "}"]), data

    def properties(self, kind: str) -> list[tuple[str, tuple[str, Any]]]:
        if kind == "port_card":
            return [("copies", self.number())]
        if kind == "voyage":
            pirate = f"{self.rng.choice(['highest', 'highest_or_sum'])}(2d6)"
            return [
                ("resources", (str(n := self.rng.randint(9, 14)), n)),
                ("pirate", (pirate, pirate)),
            ]
        if kind == "crew":
            values = [(r, self.rng.randint(0, 2)) for r in ["money", "heroism", "skullduggery"]]
            text = ", ".join(f"{r} {v}" for r, v in values)
            return [
                ("exhaust_for", (text, flow(flow([r, v]) for r, v in values))),
                ("cost", (f"money {values[0][1] + 2}", flow(["money", values[0][1] + 2]))),
            ]
        if kind == "mission":
            tag = self.rng.choice(["route", "trade", "discovery"])
            stars = self.rng.randint(1, 4)
            return [
                ("tags", (tag, tag)),
                (
                    "reward",
                    (
                        f"stars {stars}, port_cards 1",
                        flow([flow(["stars", stars]), flow(["port_cards", 1])]),
                    ),
                ),
            ]
        if kind == "encounter":
            low = self.rng.randint(1, 3)
            return [
                ("type", ("creature", "creature")),
                (
                    "difficulty",
                    (f"heroism {low}..{low + 2}", flow(["heroism", f"{low}..{low + 2}"])),
                ),
            ]
        return []


def flow(items: Any) -> CommentedSeq:
    """A YAML list written inline, ``[coins, 2]``, as a person writes arguments."""
    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def indent(lines: list[str]) -> list[str]:
    return ["  " + line for line in lines]


def make_corpus(count: int, seed: int = SEED) -> tuple[str, str]:
    """``count`` cards as one DSL text and as one YAML text (a list of card mappings)."""
    cards = Cards(seed)
    dsl_parts: list[str] = []
    yaml_data = CommentedSeq()
    for number in range(1, count + 1):
        text, data = cards.card(number)
        dsl_parts.append(text)
        yaml_data.append(data)
    out = io.StringIO()
    writer = YAML(typ="rt")
    writer.width = 100
    writer.dump(yaml_data, out)
    return "\n\n".join(dsl_parts) + "\n", out.getvalue()


# ---- measuring -----------------------------------------------------------------------------


def median_seconds(
    work: Callable[[], Any], repeat: int, pause_collector: bool = False
) -> tuple[float, Any]:
    """Median wall time of ``work()`` over ``repeat`` runs, and the last run's result."""
    times = []
    result = None
    for _ in range(repeat):
        result = None  # free the previous result first, as a fresh run would
        gc.collect()
        if pause_collector:
            gc.disable()
        try:
            start = time.perf_counter()
            result = work()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return statistics.median(times), result


def main(argv: list[str] | None = None) -> int:
    options = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    options.add_argument("--cards", type=int, default=10_000, help="cards in the text")
    options.add_argument("--repeat", type=int, default=5, help="runs per measurement")
    options.add_argument(
        "--yaml-repeat",
        type=int,
        default=None,
        help="runs for the YAML load (default: the smaller of --repeat and 3; it is slow)",
    )
    args = options.parse_args(argv)
    yaml_repeat = args.yaml_repeat or min(args.repeat, 3)

    dsl_text, yaml_text = make_corpus(args.cards)
    tokens = len(lex(dsl_text))
    check = parse(dsl_text, "<bench>")
    if check.diagnostics or len(check.file.declarations) != args.cards:
        for diagnostic in check.diagnostics[:10]:
            print(diagnostic, file=sys.stderr)
        print(
            f"the synthetic cards do not parse cleanly: {len(check.file.declarations)} of "
            f"{args.cards} declarations, {len(check.diagnostics)} diagnostics",
            file=sys.stderr,
        )
        return 2
    loaded = YAML(typ="rt").load(yaml_text)
    if len(loaded) != args.cards:
        print(f"the YAML holds {len(loaded)} cards, not {args.cards}", file=sys.stderr)
        return 2
    del check, loaded

    parse_s, _ = median_seconds(lambda: parse(dsl_text, "<bench>"), args.repeat)
    lex_s, _ = median_seconds(lambda: lex(dsl_text), args.repeat)
    own_lex = getattr(dsl_parser, "_lex", None)
    own_lex_s = None
    if own_lex is not None:  # paused like lex() and parse() pause it themselves
        own_lex_s, _ = median_seconds(
            lambda: list(own_lex(dsl_text)), args.repeat, pause_collector=True
        )
    yaml_s, _ = median_seconds(
        lambda: YAML(typ="rt").load(yaml_text), yaml_repeat, pause_collector=True
    )

    n = args.cards
    print(
        f"{n:,} cards, {tokens:,} tokens ({tokens / n:.1f} per card), "
        f"{len(dsl_text) / 1e6:.2f} MB of DSL, {len(yaml_text) / 1e6:.2f} MB of YAML; "
        f"Python {sys.version.split()[0]}"
    )
    print(
        f"medians over {args.repeat} runs (YAML: {yaml_repeat}"
        f"{', fewer because it is slow' if yaml_repeat < args.repeat else ''})"
    )
    print()
    print(f"  {'measurement':<34}{'seconds':>9}{'cards/s':>11}{'tokens/s':>12}")
    rows = [
        ("(a) parse to AST with spans", parse_s, True),
        ("(b) lark lexer alone", lex_s, True),
    ]
    if own_lex_s is not None:
        rows.append(("    same tokens, dsl.parser's loop", own_lex_s, True))
    rows.append(("(c) YAML load, ruamel round-trip", yaml_s, False))
    for label, seconds, with_tokens in rows:
        rate = f"{tokens / seconds:>12,.0f}" if with_tokens else f"{'-':>12}"
        print(f"  {label:<34}{seconds:>9.3f}{n / seconds:>11,.0f}{rate}")
    lexer_fraction = lex_s / parse_s
    yaml_speedup = yaml_s / parse_s
    projected = parse_s * 10_000 / n
    print()
    print(f"  (d) parse rate / lexer rate      {lexer_fraction:6.2f}")
    if own_lex_s is not None:
        print(f"      ... / dsl.parser's loop      {own_lex_s / parse_s:6.2f}")
    print(f"      parse speed / YAML speed     {yaml_speedup:6.2f}x")
    print()
    goals = [
        (
            f"10,000 cards parsed in <= {GOAL_SECONDS_FOR_10K:g} s",
            f"{projected:.2f} s" + ("" if n == 10_000 else f" (scaled from {n:,})"),
            projected <= GOAL_SECONDS_FOR_10K,
        ),
        (
            "parse >= 1/3 of lexer-only tokens/s",
            f"{lexer_fraction:.2f}",
            lexer_fraction >= GOAL_LEXER_FRACTION,
        ),
        (
            f"parse >= {GOAL_YAML_SPEEDUP:g}x faster than YAML",
            f"{yaml_speedup:.1f}x",
            yaml_speedup >= GOAL_YAML_SPEEDUP,
        ),
    ]
    print("  goals")
    for label, figure, ok in goals:
        print(f"    {'PASS' if ok else 'FAIL'}  {label:<40}{figure}")
    return 0 if all(ok for _, _, ok in goals) else 1


if __name__ == "__main__":
    sys.exit(main())
