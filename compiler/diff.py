"""A semantic diff of two IRs: what a variant changes, in the game's own words.

Not a text diff of ``cards.json``: two IRs are compared by meaning. Parameters, tracks,
counters and the standard-library modules used are compared by name; cards by id, and within
a card its title, tags, properties, formulas and triggers (a trigger's statements are compared
without their source positions, so a card that only moved is unchanged). Each change says from
what to what, in DSL words.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compiler.checker import describe_expr, describe_order, describe_stmt

IR = dict[str, Any]


@dataclass
class Change:
    """One changed value: where (``rounds``, ``copies``, ``on reveal``), from what, to what.

    ``before`` is None for a value the second IR adds, ``after`` None for one it takes away.
    """

    what: str
    before: str | None
    after: str | None

    def line(self) -> str:
        """The change as one line of text."""
        if self.before is None:
            return f"{self.what}: added {self.after}"
        if self.after is None:
            return f"{self.what}: removed (was {self.before})"
        return f"{self.what}: {self.before} -> {self.after}"


@dataclass
class CardChange:
    """A card present in both IRs whose data differ (``old`` and ``new`` are the two)."""

    id: str
    title: str
    kind: str
    changes: list[Change]
    old: IR = field(default_factory=dict)
    new: IR = field(default_factory=dict)


@dataclass
class IRDiff:
    """Everything that differs between two IRs of one game."""

    game: str
    before: str
    after: str
    vocabulary: list[Change] = field(default_factory=list)
    #: DSL verbs and functions added, removed or redefined (a variant's ``verbs:``).
    definitions: list[Change] = field(default_factory=list)
    #: The flow's phases inserted, replaced, removed or moved, and its end condition.
    flow: list[Change] = field(default_factory=list)
    changed: list[CardChange] = field(default_factory=list)
    added: list[IR] = field(default_factory=list)
    removed: list[IR] = field(default_factory=list)
    #: The two IRs compared (the errata writes the flow's and the verbs' changes in words).
    old_ir: IR = field(default_factory=dict, repr=False)
    new_ir: IR = field(default_factory=dict, repr=False)

    @property
    def empty(self) -> bool:
        """True when the two IRs mean the same game."""
        return not (
            self.vocabulary
            or self.definitions
            or self.flow
            or self.changed
            or self.added
            or self.removed
        )

    def card_ids(self) -> list[str]:
        """Every card the diff names: changed, added and removed, in that order."""
        return (
            [c.id for c in self.changed]
            + [c["id"] for c in self.added]
            + [c["id"] for c in self.removed]
        )

    def text(self) -> str:
        """The diff as text for a terminal."""
        lines = [f"{self.game}: {self.before} -> {self.after}"]
        if self.empty:
            lines.append("  no differences")
            return "\n".join(lines)
        if self.vocabulary:
            lines.append("game:")
            lines += [f"  {c.line()}" for c in self.vocabulary]
        if self.flow:
            lines.append("flow:")
            lines += [f"  {c.line()}" for c in self.flow]
        if self.definitions:
            lines.append("verbs and functions:")
            lines += [f"  {c.line()}" for c in self.definitions]
        for card in self.changed:
            lines.append(f"changed {card.kind} {card.id} ({card.title}):")
            lines += [f"  {c.line()}" for c in card.changes]
        for new in self.added:
            lines.append(f"added {new['kind']} {new['id']} ({new['title']})")
        for old in self.removed:
            lines.append(f"removed {old['kind']} {old['id']} ({old['title']})")
        counts = _summary(self)
        lines.append(counts)
        return "\n".join(lines)


def _strip_positions(node: Any) -> Any:
    """``node`` without source positions ("at", "line"), for comparing by meaning; nor which
    implementation a call resolves to ("origin"): a variant that redefines a verb changes the
    verb, shown once as such, not the text of every card that calls it."""
    if isinstance(node, dict):
        return {
            k: _strip_positions(v) for k, v in node.items() if k not in ("at", "line", "origin")
        }
    if isinstance(node, list):
        return [_strip_positions(v) for v in node]
    return node


def show_value(value: Any) -> str:
    """A property value in DSL words: ``stars 3, port_cards 1``; ``[1, 3, 5]``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        if value and all(isinstance(v, list) for v in value):
            return ", ".join(" ".join(show_value(w) for w in clause) for clause in value)
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if isinstance(value, dict) and "kind" in value:
        return describe_expr(value)
    return str(value)


def _compare_maps(
    prefix: str, before: dict[str, Any], after: dict[str, Any], show: Any = show_value
) -> list[Change]:
    changes = []
    for name in sorted(set(before) | set(after)):
        old, new = before.get(name), after.get(name)
        if _strip_positions(old) == _strip_positions(new):
            continue
        changes.append(
            Change(
                f"{prefix}{name}",
                None if name not in before else show(old),
                None if name not in after else show(new),
            )
        )
    return changes


def _track(track: dict[str, Any]) -> str:
    boxes = "; ".join(
        f"{box} {', '.join(map(str, places))}" for box, places in sorted(track["boxes"].items())
    )
    return f"{track['length']} boxes" + (f" {{ {boxes} }}" if boxes else "")


def _counter(counter: dict[str, Any]) -> str:
    top = "" if counter["max"] is None else f", max {counter['max']}"
    return f"start {counter['start']}, min {counter['min']}{top}"


def _modules(vocabulary: IR) -> str | None:
    """The standard-library modules a game uses (``use dice, decks``, a variant's ``use:``),
    read from the verbs and natives they bring in (origin ``stdlib.MODULE``): ``"decks,
    dice"``; None for none. A module whose every name the game declares itself brings in
    nothing, and means nothing to compare."""
    modules = {
        str(entry.get("origin"))[len("stdlib.") :]
        for table in ("verbs", "natives")
        for entry in (vocabulary.get(table) or {}).values()
        if str(entry.get("origin") or "").startswith("stdlib.")
    }
    return ", ".join(sorted(modules)) or None


def _card_changes(before: IR, after: IR) -> list[Change]:
    changes: list[Change] = []
    for key in ("kind", "title"):
        if before[key] != after[key]:
            changes.append(Change(key, before[key], after[key]))
    if before["tags"] != after["tags"]:
        changes.append(Change("tags", " ".join(before["tags"]), " ".join(after["tags"])))
    changes += _compare_maps("", before["properties"], after["properties"])
    changes += _compare_maps(
        "",
        before["formulas"],
        after["formulas"],
        show=lambda f: describe_expr(f["expr"]),
    )
    for trigger in sorted(set(before["triggers"]) | set(after["triggers"])):
        old, new = before["triggers"].get(trigger), after["triggers"].get(trigger)
        if old is not None and new is not None:
            # A rule in both: the statements that changed, not the whole rule twice.
            changes += _statement_changes(f"on {trigger}", old["body"], new["body"])
        else:
            changes += _compare_maps(
                "on ",
                {trigger: old} if old is not None else {},
                {trigger: new} if new is not None else {},
                show=lambda t: _describe_body(t["body"]),
            )
    return changes


def _describe(stmt: IR) -> str:
    """A statement in DSL words, the body of a loop or an ``if`` included (``describe_stmt``
    elides it)."""
    if stmt["kind"] in ("for_each", "choose_from"):
        return f"{_head(stmt)} {{ {_describe_body(stmt['body'])} }}"
    if stmt["kind"] == "if" and isinstance(stmt.get("then"), list):
        text = f"{_head(stmt)} {{ {_describe_body(stmt['then'])} }}"
        if stmt.get("else"):
            text += f" else {{ {_describe_body(stmt['else'])} }}"
        return text
    if stmt["kind"] in ("may", "repeat") and isinstance(stmt.get("body"), list):
        return f"{_head(stmt)} {{ {_describe_body(stmt['body'])} }}"
    # A verb's 'else' (`pay coins 2 else lose victory_points missing`) describe_stmt says.
    return describe_stmt(stmt)


def _describe_body(body: list[IR]) -> str:
    return "; ".join(_describe(s) for s in body)


def _head(stmt: IR) -> str | None:
    """What a compound statement is apart from its body (for each ... in ... where ...; if
    ...); None for a simple statement."""
    kind = stmt["kind"]
    if kind == "for_each":
        where = f" where {describe_expr(stmt['where'])}" if stmt.get("where") else ""
        return (
            f"for each {stmt['var']} in {describe_expr(stmt['over'])}{where}{describe_order(stmt)}"
        )
    if kind == "choose_from":
        where = f" where {describe_expr(stmt['where'])}" if stmt.get("where") else ""
        return f"choose {stmt['var']} in {describe_expr(stmt['over'])}{where}"
    if kind == "if":
        return f"if {describe_expr(stmt['cond'])}"
    if kind in ("may", "group"):
        return kind
    if kind == "repeat":
        return f"repeat {describe_expr(stmt['count'])}"
    return None


def _bodies(stmt: IR) -> list[tuple[str, list[IR]]]:
    if stmt["kind"] == "if":
        return [("", stmt["then"]), (" else", stmt["else"] or [])]
    return [("", stmt.get("body") or [])]


def _statement_changes(
    where: str, before: list[IR], after: list[IR], top: str | None = None
) -> list[Change]:
    """The statements that differ between two bodies, each at its place (``on pirate_raid >
    for each raided in players``): a compound statement whose head is the same is compared
    inside; others are shown from what to what, added or removed, and a run of statements
    that became another number of others as one change from the ones to the others. ``top``:
    how the body's own statements are named, where ``where`` alone would name something else
    (``phase pirate body``: "phase pirate: removed" reads as the phase removed)."""
    import difflib

    here = top or where
    import json

    keys_a = [json.dumps(_strip_positions(s), sort_keys=True) for s in before]
    keys_b = [json.dumps(_strip_positions(s), sort_keys=True) for s in after]
    changes: list[Change] = []
    matcher = difflib.SequenceMatcher(None, keys_a, keys_b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        olds, news = before[i1:i2], after[j1:j2]
        if tag == "replace" and len(olds) == len(news):
            for old, new in zip(olds, news, strict=True):
                head = _head(old)
                if head is not None and head == _head(new) and old["kind"] == new["kind"]:
                    for (label, a), (_, b) in zip(_bodies(old), _bodies(new), strict=True):
                        changes += _statement_changes(f"{where} > {head}{label}", a, b)
                elif _describe(old) != _describe(new):
                    # Equal in the DSL, the IR differs only in words it carries from elsewhere
                    # (a `choose` option's prompt, a called verb's redefined description): that
                    # verb's change is told, this one read "X -> X".
                    changes.append(Change(here, _describe(old), _describe(new)))
            continue
        if tag == "replace":
            # Two statements became one (or the other way): one change, not the old ones
            # "removed" and the new ones "added" as if unrelated.
            changes.append(
                Change(
                    here,
                    "; ".join(_describe(old) for old in olds),
                    "; ".join(_describe(new) for new in news),
                )
            )
            continue
        changes += [Change(here, _describe(old), None) for old in olds]
        changes += [Change(here, None, _describe(new)) for new in news]
    return changes


def _usage(what: str, definition: IR) -> str:
    """A DSL verb's or function's head: ``verb gain_port_card(count number)``."""
    params = ", ".join(
        f"{p['name']} {p['type']}" + (f" = {p['default']}" if "default" in p else "")
        for p in definition["params"]
    )
    returns = f" {definition['returns']}" if definition.get("returns") else ""
    return f"{what} {definition['name']}({params}){returns}"


def _definition_text(what: str, definition: IR) -> str:
    if what == "function":
        return f"{_usage(what, definition)} = {describe_expr(definition['expr'])}"
    return f"{_usage(what, definition)} {{ {_describe_body(definition['body'])} }}"


def _definition_changes(before: IR, after: IR, declared: IR | None = None) -> list[Change]:
    """DSL verbs and functions added, removed or redefined: a redefinition by its changed
    signature and the statements (or the expression) that differ. ``declared`` (the base's
    vocabulary): a DSL body given to a verb or native the game's Python implemented is that
    one redefined, not a new name."""
    changes: list[Change] = []
    declared = declared or {}
    for what in ("verb", "function"):
        old = {d["name"]: d for d in before.get(f"{what}s", [])}
        new = {d["name"]: d for d in after.get(f"{what}s", [])}
        python = declared.get("verbs" if what == "verb" else "natives") or {}
        for name in sorted(set(old) | set(new)):
            a, b = old.get(name), new.get(name)
            label = f"{what} {name}"
            if a is None and b is not None and name in python:
                doc = python[name].get("doc") or name
                where = _implemented_by(python[name])
                changes.append(Change(label, f"{where} ({doc})", _definition_text(what, b)))
                continue
            if a is None or b is None:
                changes.append(
                    Change(
                        label,
                        None if a is None else _definition_text(what, a),
                        None if b is None else _definition_text(what, b),
                    )
                )
                continue
            if _usage(what, a) != _usage(what, b):
                changes.append(Change(label, _usage(what, a), _usage(what, b)))
            if what == "function":
                if _strip_positions(a["expr"]) != _strip_positions(b["expr"]):
                    changes.append(
                        Change(label, describe_expr(a["expr"]), describe_expr(b["expr"]))
                    )
            else:
                changes += _statement_changes(label, a["body"], b["body"])
    return changes


def _implemented_by(declared: IR) -> str:
    """What implemented a declared verb or native before a DSL body was given to it: "the
    game's Python", "the standard library's dice.roll"."""
    origin = str(declared.get("origin") or "")
    if origin.startswith("stdlib."):
        return f"the standard library's {origin.removeprefix('stdlib.')}"
    if origin == "host":
        return "the program embedding the engine"
    return "the game's Python"


def _phases(flow: IR) -> list[tuple[str, IR]]:
    """Every phase of a flow IR in the order it runs: (section, phase)."""
    return [(section["section"], p) for section in flow["sections"] for p in section["phases"]]


def _place(order: list[tuple[str, IR]], name: str) -> str:
    """Where a phase stands: ``round, after pirate`` or ``round, first``."""
    at = next(i for i, (_s, p) in enumerate(order) if p["name"] == name)
    section = order[at][0]
    before = order[at - 1] if at > 0 else None
    if before is None or before[0] != section:
        return f"{section}, first"
    return f"{section}, after {before[1]['name']}"


def _common_order(first: list[str], second: list[str]) -> list[str]:
    """A longest common subsequence of two orders, the same one every time: where two are
    as long, the one keeping the earlier items of ``first`` (so of two phases that cannot
    both keep their places, the later one is told as moved). difflib's SequenceMatcher
    matches the longest contiguous run first, which can leave more phases "moved" than need
    be (``a b c d`` -> ``b d c a``: three, where two moves do it)."""
    n, m = len(first), len(second)
    # longest[i][j]: the length of a longest common subsequence of first[i:] and second[j:].
    longest = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if first[i] == second[j]:
                longest[i][j] = longest[i + 1][j + 1] + 1
            else:
                longest[i][j] = max(longest[i + 1][j], longest[i][j + 1])
    common: list[str] = []
    i = j = 0
    while i < n and j < m:
        if first[i] == second[j]:
            common.append(first[i])
            i, j = i + 1, j + 1
        elif longest[i][j + 1] >= longest[i + 1][j]:
            j += 1  # keep first[i] if a longest order can
        else:
            i += 1
    return common


def _swap(first: list[str], second: list[str]) -> tuple[str, str] | None:
    """The two items that traded places, when that is all that differs between the orders
    (same items, same sections), else None."""
    if sorted(first) != sorted(second):
        return None
    differ = [k for k, (a, b) in enumerate(zip(first, second, strict=True)) if a != b]
    if len(differ) != 2:
        return None
    i, j = differ
    if first[i] != second[j] or first[j] != second[i]:
        return None
    return first[i].split("/", 1)[1], first[j].split("/", 1)[1]


def _swap_change(old: list[tuple[str, IR]], new: list[tuple[str, IR]], a: str, b: str) -> Change:
    """``phases earn and spend swapped: round, earn then spend -> round, spend then earn``:
    the stretch of the order from one to the other, before and after."""

    def stretch(order: list[tuple[str, IR]]) -> str:
        names = [p["name"] for _s, p in order]
        i, j = sorted((names.index(a), names.index(b)))
        return f"{order[i][0]}, " + " then ".join(names[i : j + 1])

    return Change(f"phases {a} and {b} swapped", stretch(old), stretch(new))


def _phase_text(phase: IR) -> str:
    title = f' "{phase["title"]}"' if phase.get("title") else ""
    return f"phase {phase['name']}{title} {{ {_describe_body(phase['body'])} }}"


def _flow_changes(before: IR | None, after: IR | None) -> list[Change]:
    """What a variant does to the flow: phases added, removed, moved (a phase whose place
    among the others changed) and changed (title or statements), the end condition, the
    round count and how the winner is found."""
    if before is None or after is None:
        if before is after:
            return []
        return [
            Change(
                "flow",
                None if before is None else before.get("title") or "declared",
                None if after is None else after.get("title") or "declared",
            )
        ]
    changes: list[Change] = []
    old, new = _phases(before), _phases(after)
    old_by = {p["name"]: p for _s, p in old}
    new_by = {p["name"]: p for _s, p in new}
    for _section, phase in new:
        if phase["name"] not in old_by:
            changes.append(
                Change(
                    f"phase {phase['name']}",
                    None,
                    f"{_phase_text(phase)}, in " + _place(new, phase["name"]),
                )
            )
    for _section, phase in old:
        if phase["name"] not in new_by:
            changes.append(Change(f"phase {phase['name']}", _place(old, phase["name"]), None))
    # Moved: the phases both flows have, outside their longest common order; two phases that
    # only traded places are one swap (either could be named as the one moved).
    both_old = [f"{s}/{p['name']}" for s, p in old if p["name"] in new_by]
    both_new = [f"{s}/{p['name']}" for s, p in new if p["name"] in old_by]
    swapped = _swap(both_old, both_new)
    if swapped is not None:
        changes.append(_swap_change(old, new, *swapped))
    else:
        kept = {key.split("/", 1)[1] for key in _common_order(both_old, both_new)}
        for _section, phase in new:
            name = phase["name"]
            if name in old_by and name not in kept:
                changes.append(Change(f"phase {name}", _place(old, name), _place(new, name)))
    for _section, phase in new:
        name = phase["name"]
        if name not in old_by:
            continue
        a = old_by[name]
        if (a.get("title") or None) != (phase.get("title") or None):
            changes.append(
                Change(
                    f"phase {name} title", a.get("title") or "none", phase.get("title") or "none"
                )
            )
        changes += _statement_changes(
            f"phase {name}", a["body"], phase["body"], top=f"phase {name} body"
        )

    def expr(value: Any) -> str | None:
        return None if value is None else describe_expr(value)

    counts = (
        {s["section"]: s.get("count") for s in before["sections"] if "count" in s},
        {s["section"]: s.get("count") for s in after["sections"] if "count" in s},
    )
    for section in sorted(set(counts[0]) & set(counts[1])):
        first, second = counts[0][section], counts[1][section]
        if _strip_positions(first) != _strip_positions(second):
            changes.append(Change(f"{section} count", expr(first), expr(second)))
    for key, label in (("end_when", "end when"), ("tiebreak", "tiebreak")):
        first, second = before.get(key), after.get(key)
        if _strip_positions(first) != _strip_positions(second):
            changes.append(Change(label, expr(first), expr(second)))
    for key in ("winner", "titles"):
        first, second = before.get(key), after.get(key)
        if first != second:
            changes.append(
                Change(
                    key,
                    None if first is None else show_value(first),
                    None if second is None else show_value(second),
                )
            )
    return changes


def diff_ir(before: IR, after: IR) -> IRDiff:
    """What differs from ``before`` to ``after`` (two IRs of one game)."""
    result = IRDiff(
        after["game"],
        before.get("variant") or "the base game",
        after.get("variant") or "the base game",
        old_ir=before,
        new_ir=after,
    )
    vb, va = before["vocabulary"], after["vocabulary"]
    result.vocabulary += _compare_maps("param ", vb["params"], va["params"])
    result.vocabulary += _compare_maps("track ", vb["tracks"], va["tracks"], show=_track)
    result.vocabulary += _compare_maps("counter ", vb["counters"], va["counters"], show=_counter)
    used = _modules(vb), _modules(va)
    if used[0] != used[1]:
        # A variant's `use: [dice]`: the library modules its cards, phases and verbs may call.
        result.vocabulary.append(Change("use", *used))
    if vb["players"] != va["players"]:
        result.vocabulary.append(
            Change(
                "players", "..".join(map(str, vb["players"])), "..".join(map(str, va["players"]))
            )
        )
    result.definitions = _definition_changes(
        before.get("definitions") or {}, after.get("definitions") or {}, vb
    )
    result.flow = _flow_changes(before.get("flow"), after.get("flow"))
    old = {c["id"]: c for c in before["cards"]}
    new = {c["id"]: c for c in after["cards"]}
    for ident, card in new.items():
        if ident not in old:
            result.added.append(card)
            continue
        changes = _card_changes(old[ident], card)
        if changes:
            result.changed.append(
                CardChange(ident, card["title"], card["kind"], changes, old[ident], card)
            )
    result.removed = [card for ident, card in old.items() if ident not in new]
    return result


# -- errata sheets

# Every value is data: `md` escapes it (no markup, no HTML, one line), `code` makes a code span.
_MARKDOWN = """\
# {{ title | md }}: errata for the variant {{ diff.after | md }}

Compared with {{ diff.before | md }}. {{ summary | md }}
{% if diff.vocabulary %}
## Game

| value | was | now |
| --- | --- | --- |
{% for c in diff.vocabulary -%}
| {{ c.what | md }} | {{ (c.before or "-") | md }} | {{ (c.after or "-") | md }} |
{% endfor %}{% endif %}
{%- for heading, rows in (("Flow", diff.flow), ("Verbs and functions", diff.definitions)) %}
{%- if rows %}
## {{ heading }}

| value | was | now |
| --- | --- | --- |
{% for c in rows -%}
| {{ c.what | md }} | {{ (c.before or "-") | md }} | {{ (c.after or "-") | md }} |
{% endfor %}{% if rules[heading] %}
In the rulebook's words:

{% for line in rules[heading] -%}
- {{ line | md }}
{% endfor %}{% endif %}{% endif %}{% endfor %}
{%- for card in diff.changed %}
## {{ card.title | md }} ({{ card.kind | md }}, {{ card.id | code }})

| value | was | now |
| --- | --- | --- |
{% for c in card.changes -%}
| {{ c.what | md }} | {{ (c.before or "-") | md }} | {{ (c.after or "-") | md }} |
{% endfor %}{% if card.id in words %}
In the rulebook's words, it said: {{ (words[card.id][0] or "(nothing)") | md }}

It now says: {{ (words[card.id][1] or "(nothing)") | md }}
{% endif %}{% endfor %}
{%- if diff.added %}
## New cards
{% for card in diff.added %}
- **{{ card.title | md }}** ({{ card.kind | md }}, {{ card.id | code }}){{ card | props | md }}
{%- endfor %}
{% endif %}
{%- if diff.removed %}
## Removed cards
{% for card in diff.removed %}
- **{{ card.title | md }}** ({{ card.kind | md }}, {{ card.id | code }})
{%- endfor %}
{% endif %}"""

_HTML = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{ title }}: errata for {{ diff.after }}</title>
<style>
body { font-family: sans-serif; max-width: 50em; margin: 2em auto; }
table { border-collapse: collapse; width: 100%; margin-bottom: 1.5em; }
th, td { border: 1px solid #999; padding: 0.3em 0.6em; text-align: left; }
.card { break-inside: avoid; }
</style>
</head>
<body>
{% macro row(c) -%}
<tr><td>{{ c.what }}</td><td>{{ c.before or "-" }}</td>
<td>{{ c.after or "-" }}</td></tr>
{%- endmacro %}
<h1>{{ title }}: errata for the variant {{ diff.after }}</h1>
<p>Compared with {{ diff.before }}. {{ summary }}</p>
{% if diff.vocabulary %}
<h2>Game</h2>
<table><tr><th>value</th><th>was</th><th>now</th></tr>
{% for c in diff.vocabulary %}{{ row(c) }}
{% endfor %}</table>
{% endif %}
{% for heading, rows in (("Flow", diff.flow), ("Verbs and functions", diff.definitions)) %}
{% if rows %}
<h2>{{ heading }}</h2>
<table><tr><th>value</th><th>was</th><th>now</th></tr>
{% for c in rows %}{{ row(c) }}
{% endfor %}</table>
{% if rules[heading] %}<p>In the rulebook's words:</p>
<ul>
{% for line in rules[heading] %}<li>{{ line }}</li>
{% endfor %}</ul>
{% endif %}
{% endif %}
{% endfor %}
{% for card in diff.changed %}
<section class="card" id="{{ card.id }}">
<h2>{{ card.title }} <small>({{ card.kind }}, {{ card.id }})</small></h2>
<table><tr><th>value</th><th>was</th><th>now</th></tr>
{% for c in card.changes %}{{ row(c) }}
{% endfor %}</table>
{% if card.id in words %}
<p>In the rulebook's words, it said: {{ words[card.id][0] or "(nothing)" }}</p>
<p>It now says: {{ words[card.id][1] or "(nothing)" }}</p>
{% endif %}
</section>
{% endfor %}
{% if diff.added %}<h2>New cards</h2><ul>
{% for card in diff.added %}<li><b>{{ card.title }}</b> ({{ card.kind }}, {{ card.id }})
{{- card | props }}</li>
{% endfor %}</ul>{% endif %}
{% if diff.removed %}<h2>Removed cards</h2><ul>
{% for card in diff.removed %}<li><b>{{ card.title }}</b> ({{ card.kind }}, {{ card.id }})</li>
{% endfor %}</ul>{% endif %}
</body>
</html>
"""


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _summary(diff: IRDiff) -> str:
    """``1 game value changed; 2 cards changed, 0 added, 1 removed.``"""
    rules = ""
    if diff.flow:
        rules += f"{_count(len(diff.flow), 'flow change')}; "
    if diff.definitions:
        rules += f"{_count(len(diff.definitions), 'verb change')}; "
    return (
        f"{_count(len(diff.vocabulary), 'game value')} changed; "
        + rules
        + f"{_count(len(diff.changed), 'card')} changed, "
        f"{len(diff.added)} added, {len(diff.removed)} removed."
    )


def render_errata(
    diff: IRDiff,
    title: str,
    fmt: str,
    words: dict[str, tuple[str, str]] | None = None,
    rules: dict[str, list[str]] | None = None,
) -> str:
    """An errata sheet listing exactly the changed, added and removed cards: ``md`` or
    ``html`` (HTML autoescaped: card text is data, never markup). ``words`` gives, per
    changed card id, its text before and after in the rulebook's words (as the sheets print
    it), shown under its table; ``rules`` the sentences saying the flow's and the verbs'
    changes in words (:func:`rule_words`), under the "Flow" and "Verbs and functions"
    tables."""
    import jinja2

    from compiler.md import code_md, escape_md

    env = jinja2.Environment(
        autoescape=fmt == "html",
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=fmt == "html",
    )
    env.filters["props"] = lambda card: "".join(
        f"; {name} {show_value(value)}" for name, value in card["properties"].items()
    )
    env.filters["md"] = escape_md
    env.filters["code"] = code_md
    template = env.from_string(_HTML if fmt == "html" else _MARKDOWN)
    rules = {"Flow": [], "Verbs and functions": [], **(rules or {})}
    return template.render(
        diff=diff, title=title, summary=_summary(diff), words=words or {}, rules=rules
    )


def errata_words(project: Any, ir: IR, diff: IRDiff) -> dict[str, tuple[str, str]]:
    """Each changed card's text before and after, written as its sheet writes it."""
    from compiler.sheets.model import build_model
    from compiler.sheets.reference import reference_for
    from compiler.sheets.text import CardWriter, Text, plain_words

    def words(text: Text) -> str:
        return " ".join(plain_words(text).split())

    try:
        ref = reference_for(project.game_dir(ir["game"]), ir.get("variant"))
    except ValueError:  # a reference that cannot be read: the tables say what changed
        return {}
    writer = CardWriter(ir, ref, {})

    def text(card: IR) -> str:
        # As the card prints: its properties by their labels ("Unlocked at start: yes"), then
        # its rule, so a changed value reads in words even where the rule's text is the same.
        try:
            model = build_model(dict(ir, cards=[card]), ref)
        except ValueError:
            model = None
        views = [*model.cards, *model.rules] if model is not None else []
        # Words only: an icon's name in brackets ("[move_pirate_ship]") is no reader's word.
        said = [f"{label}: {words(value)}." for v in views for label, value in v.properties]
        return " ".join([*said, *(words(p) for p in writer.card_text(card))])

    out = {}
    for c in diff.changed:
        if c.old and c.new:
            before, after = text(c.old), text(c.new)
            if before != after:  # the same words twice would say nothing
                out[c.id] = (before, after)
    return out


class _Words:
    """Writes one IR's phases and verbs in the rulebook's words, as its sheet prints them."""

    def __init__(self, project: Any, ir: IR) -> None:
        from compiler.sheets.reference import Reference, reference_for
        from compiler.sheets.text import CardWriter

        self.ir = ir
        try:
            self.ref = reference_for(project.game_dir(ir["game"]), ir.get("variant"))
        except ValueError:  # a reference that cannot be read: the names as the DSL has them
            self.ref = Reference()
        self.writer = CardWriter(ir, self.ref, {})
        flow = ir.get("flow") or {}
        self.order = _phases(flow) if flow else []
        self.by_name = {p["name"]: p for _s, p in self.order}

    def body(self, body: list[IR]) -> str:
        """Statements in words (as a card's or a phase's text is written)."""
        from compiler.sheets.text import plain

        self.writer.card = {"id": "flow", "source": ""}
        return plain(self.writer.block(body)) or "nothing"

    def expr(self, value: IR) -> str:
        from compiler.sheets.text import plain

        return plain(self.writer.expr(value))

    def phase(self, name: str) -> str:
        """A phase by the rulebook's name for it (the reference's entries tied to it), else
        its title in the flow: "the Planning phase", "the Sailing phase and the Anchoring
        phase", "Storm Season"."""
        titles = [i.title for i in self.ref.phases if i.phase == name]
        if titles:
            return " and ".join(
                t if t.lower().startswith("the ") else f"the {t}" for t in dict.fromkeys(titles)
            )
        phase = self.by_name.get(name, {})
        return str(phase.get("title") or name.replace("_", " "))

    def place(self, name: str) -> str:
        """Where a phase is played: "before Planning phase", "after ...", "in the setup"."""
        at = next(i for i, (_s, p) in enumerate(self.order) if p["name"] == name)
        section = self.order[at][0]
        where = {"round": "each round", "turn": "each turn", "end": "the end"}.get(
            section, f"the {section}"
        )
        after = self.order[at + 1] if at + 1 < len(self.order) else None
        if after is not None and after[0] == section:
            return f"in {where}, before {self.phase(after[1]['name'])}"
        before = self.order[at - 1] if at > 0 else None
        if before is not None and before[0] == section:
            return f"in {where}, after {self.phase(before[1]['name'])}"
        return f"in {where}"

    def doc(self, name: str) -> str:
        vocab = self.ir["vocabulary"]
        entry = vocab.get("verbs", {}).get(name) or vocab.get("natives", {}).get(name) or {}
        return str(entry.get("doc") or name.replace("_", " "))


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _meaning(definition: IR) -> Any:
    """A verb's or function's parameters and statements (or expression), not where it is."""
    return _strip_positions({k: definition.get(k) for k in ("params", "body", "expr", "returns")})


def rule_words(project: Any, diff: IRDiff) -> dict[str, list[str]]:
    """What the diff changes in the flow and the verbs, as sentences in the rulebook's words
    (the names the reference gives the phases, statements written as the sheets write them):
    ``{"Flow": [...], "Verbs and functions": [...]}``. The tables above them say it in DSL."""
    if not diff.old_ir or not diff.new_ir:
        return {}
    old, new = _Words(project, diff.old_ir), _Words(project, diff.new_ir)
    flow: list[str] = []
    for name, phase in new.by_name.items():
        if name not in old.by_name:
            flow.append(
                f"New phase: {_capital(str(phase.get('title') or name))}, played "
                f"{new.place(name)}: {new.body(phase['body'])}."
            )
    for name in old.by_name:
        if name not in new.by_name:
            flow.append(f"{_capital(old.phase(name))}: no longer played.")
    for change in diff.flow:
        if change.what.startswith("phases ") and change.what.endswith(" swapped"):
            pair = change.what.removeprefix("phases ").removesuffix(" swapped").split(" and ")
            # Told of the one now first, in the words of a move: "now played ... (it traded
            # places with ...)", not "A and B trade places" (a phase's name may hold "and").
            first, other = sorted(pair, key=[p["name"] for _s, p in new.order].index)
            flow.append(
                f"{_capital(new.phase(first))}: now played {new.place(first)} "
                f"(it traded places with {old.phase(other)})."
            )
        name = change.what.removeprefix("phase ")
        if change.what.startswith("phase ") and name in old.by_name and name in new.by_name:
            if change.before == _place(old.order, name) and change.after == _place(new.order, name):
                flow.append(
                    f"{_capital(new.phase(name))}: now played {new.place(name)} "
                    f"(it was played {old.place(name)})."
                )
    for name, phase in new.by_name.items():
        was = old.by_name.get(name)
        if was is not None and _strip_positions(was["body"]) != _strip_positions(phase["body"]):
            flow.append(
                f"{_capital(new.phase(name))}: now {new.body(phase['body'])} "
                f"(it was: {old.body(was['body'])})."
            )
    for change in diff.flow:
        if change.what == "end when":
            now = new.ir["flow"].get("end_when")
            was = old.ir["flow"].get("end_when")
            flow.append(
                (
                    f"The game now ends when {new.expr(now)}"
                    if now
                    else "The game no longer ends early"
                )
                + (f" (it ended when {old.expr(was)})." if was else ".")
            )
        elif change.what.endswith(" count"):
            section = change.what.removesuffix(" count")
            counts = [
                next(s["count"] for s in side.ir["flow"]["sections"] if s["section"] == section)
                for side in (new, old)
            ]
            flow.append(
                f"The number of {section}s is now {new.expr(counts[0])} "
                f"(it was {old.expr(counts[1])})."
            )
    verbs: list[str] = []
    for what in ("verb", "function"):
        befores = {d["name"]: d for d in (old.ir.get("definitions") or {}).get(f"{what}s", [])}
        afters = {d["name"]: d for d in (new.ir.get("definitions") or {}).get(f"{what}s", [])}
        python = old.ir["vocabulary"].get("verbs" if what == "verb" else "natives") or {}
        for name in sorted(set(befores) | set(afters)):
            a, b = befores.get(name), afters.get(name)
            if a is not None and b is not None and _meaning(a) == _meaning(b):
                continue  # the same rule, written elsewhere
            if a is None and b is not None and name in python:
                # A verb or native of game.cards that Python implemented, given a DSL body:
                # the base's rule changed, as the table above says, not a new one.
                said = (
                    f'Every "{old.doc(name)}" of the rules now reads "{new.doc(name)}"'
                    if old.doc(name) != new.doc(name)
                    else f'"{_capital(new.doc(name))}" changes'
                )
                by = _implemented_by(python[name])
                if what == "verb":
                    said += f": {new.body(b['body'])} (it was done by {by})"
                else:
                    said += f": {new.expr(b['expr'])} (it was worked out by {by})"
                verbs.append(said + ".")
            elif a is None:
                verbs.append(f"New rule: {new.doc(name)}.")
            elif b is None:
                verbs.append(f"No longer a rule: {old.doc(name)}.")
            else:
                said = (
                    f'Every "{old.doc(name)}" of the rules now reads "{new.doc(name)}"'
                    if old.doc(name) != new.doc(name)
                    else f'"{_capital(new.doc(name))}" changes'
                )
                if what == "verb":
                    said += f": {new.body(b['body'])} (it was: {old.body(a['body'])})"
                else:
                    said += f": {new.expr(b['expr'])} (it was: {old.expr(a['expr'])})"
                verbs.append(said + ".")
    return {"Flow": flow, "Verbs and functions": verbs}


def write_errata(project: Any, diff: IRDiff, ir: IR, out: Any, force: bool = False) -> list[str]:
    """Write the errata sheet for ``diff`` to ``out`` (.md or .html); the files written.

    ``out`` is the table of :func:`render_errata`: every changed value from what to what, the
    added and the removed cards. When the sheets emitter is installed
    (``compiler.sheets.render_sheet_files``) and cards changed or were added, those cards, and
    only those, are also printed as cards beside it: ``<stem>.cards.md`` for a Markdown
    errata, ``<stem>.cards.html`` and ``<stem>.cards.pdf`` for an HTML one.
    """
    from pathlib import Path

    from compiler.outputs import check_output, write_atomic
    from compiler.variants import sheets_renderer

    path = Path(out)
    fmt = "html" if path.suffix.lower() in (".html", ".htm") else "md"
    check_output(path, force)
    words = errata_words(project, ir, diff)
    text = render_errata(diff, ir["title"], fmt, words, rule_words(project, diff))
    # The banner marks the file as cardc's, so running the same diff again may replace it.
    banner = f"Generated by cardc from {diff.before} -> {diff.after}: do not edit"
    if fmt == "md":
        from compiler.md import comment_md

        text = comment_md(banner) + "\n\n" + text
    else:
        from html import escape

        text = text.replace("<head>", f"<head>\n<!-- {escape(banner).replace('--', '- -')} -->", 1)
    write_atomic(path, text.encode("utf-8"))
    written = [str(path)]
    cards = [c.id for c in diff.changed] + [c["id"] for c in diff.added]
    render = sheets_renderer()
    if render is None or not cards:
        return written
    files = render(
        project,
        ir["game"],
        ir,
        variant=ir.get("variant"),
        only_cards=cards,
        title=f"{ir['title']}: errata ({diff.after})",
        formats=("md",) if fmt == "md" else ("html", "pdf"),
    )
    targets = {name: path.with_name(f"{path.stem}.cards{Path(name).suffix}") for name in files}
    for target in targets.values():
        check_output(target, force)
    for name, data in sorted(files.items()):
        write_atomic(targets[name], data)
        written.append(str(targets[name]))
    return written
