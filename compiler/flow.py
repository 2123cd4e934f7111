"""Check a game's ``flow`` declaration and lower it to the IR's ``flow`` (README, "The flow").

A flow is the game's order of play as data: sections (``setup``, ``round N``, ``turn``,
``end``) of named phases, whose bodies are statements checked exactly like a card's effects
(the same names, verbs and errors), and settings (``end when``, ``winner``, ``tiebreak``,
``titles from``). Inside the flow there is no "this card": ``for each p in players`` makes
``p`` the acting player, as in card effects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from compiler.suggest import did_you_mean
from dsl.nodes import Flow, FlowSection, FlowSetting, Name, SourceFile, Span
from engine.words import with_article

if TYPE_CHECKING:
    from compiler.checker import Checker

IR = dict[str, Any]

#: The sections a flow may hold, in the order the engine runs them.
SECTIONS = ("setup", "round", "turn", "end")
#: The settings a flow may hold, with how each is written.
SETTINGS = {
    "end": "end when any_ship_sunk()",
    "winner": "winner highest (or lowest, or team)",
    "tiebreak": "tiebreak arrived_first()",
    "titles": "titles from title",
}
WINNERS = ("highest", "lowest", "team")


def flows_of(files: list[SourceFile]) -> list[Flow]:
    """Every ``flow`` declaration of the game's files, in file order."""
    return [flow for source in files for flow in source.flows]


def lower_flow(checker: Checker, files: list[SourceFile]) -> IR | None:
    """The IR of the game's flow, or None when it declares none. A second flow is an error at
    the second; only the first is lowered."""
    flows = flows_of(files)
    if not flows:
        return None
    first = flows[0]
    for extra in flows[1:]:
        checker.error(
            "duplicate-flow",
            f"a game has one flow; this one is already declared at {first.span}",
            extra.span,
            "merge the two, or move the other phases into the first flow's sections",
        )
    return _Lowering(checker).flow(first)


class _Lowering:
    """One flow's walk: sections, phases and settings, in the order written."""

    def __init__(self, checker: Checker):
        self.checker = checker
        self.scope = checker.flow_scope()
        self.phases: dict[str, Span] = {}

    def error(self, code: str, message: str, span: Span, *hints: str) -> None:
        self.checker.error(code, message, span, *hints)

    def flow(self, flow: Flow) -> IR:
        loc = _loc(flow.span)
        self.checker.note_span("/flow", flow.span)
        holder: IR = {"id": "flow", "title": f"flow {flow.title or ''}".strip(), "provisional": []}
        self.holder = holder
        self.checker.annotations(flow.annotations, holder, "flow", holder["title"], flow.span)
        sections: dict[str, IR] = {}
        settings: dict[str, FlowSetting] = {}
        out: IR = {
            "title": flow.title,
            "loc": loc,
            "sections": [],
            "end_when": None,
            "end_when_loc": None,
            "winner": "highest",
            "tiebreak": None,
            "titles": None,
        }
        for item in flow.items:
            if isinstance(item, FlowSection):
                if item.section == "end" and item.count is not None:
                    self.error(
                        "section-count",
                        "the 'end' section takes no count",
                        item.count.span,
                        "write 'end when CONDITION' to end early, 'end { phase ... }' for "
                        "final scoring",
                    )
                if item.section in sections:
                    self.error(
                        "duplicate-section",
                        f"this flow already has a '{item.section}' section",
                        item.span,
                        "put all its phases in one section",
                    )
                    continue
                lowered = self.section(item, len(out["sections"]))
                if lowered is not None:
                    sections[item.section] = lowered
                    out["sections"].append(lowered)
            else:
                if item.name in settings:
                    self.error(
                        "duplicate-setting",
                        f"this flow already says '{item.name}', at {settings[item.name].span}",
                        item.span,
                        "keep one of them",
                    )
                    continue
                settings[item.name] = item
                self.setting(item, out)
        # The engine runs the sections in a fixed order, whatever order they are written in.
        out["sections"].sort(key=lambda s: SECTIONS.index(s["section"]))
        self.renumber(out)
        if not out["sections"]:
            self.error(
                "empty-flow",
                "this flow has no sections",
                flow.span,
                "add at least one: round rounds { phase play { ... } }",
            )
        return out

    def renumber(self, out: IR) -> None:
        """Spans were noted at each section's position as written; after the sort, note them
        again at the position in the IR so a schema error lands on the right phase."""
        spans = self.checker.spans
        moved = {}
        for index, section in enumerate(out["sections"]):
            written = section.pop("_written")
            if written != index:
                prefix = f"/flow/sections/{written}"
                for key in [k for k in spans if k == prefix or k.startswith(prefix + "/")]:
                    moved[f"/flow/sections/{index}" + key[len(prefix) :]] = spans.pop(key)
        spans.update(moved)

    def section(self, item: FlowSection, index: int) -> IR | None:
        path = f"/flow/sections/{index}"
        if item.section not in SECTIONS:
            hints = did_you_mean(item.section, SECTIONS) or ("sections: setup, round N, turn, end",)
            self.error(
                "section-unknown", f"'{item.section}' is not a section of a flow", item.span, *hints
            )
            return None
        self.checker.note_span(path, item.span)
        out: IR = {
            "section": item.section,
            "loc": _loc(item.span),
            "phases": [],
            "_written": index,
        }
        if item.section == "round":
            if item.count is None:
                self.error(
                    "round-count",
                    "'round' needs the number of rounds",
                    item.span,
                    "write: round 12 { ... } or round rounds { ... } (a param)",
                )
                out["count"] = {"kind": "num", "value": 1}
            else:
                count, typ = self.checker.expr(item.count, self.scope)
                self.checker.expect_type(typ, "number", item.count.span, "'round'")
                # A count known here (a number, or a param: its value, the variant's when a
                # variant sets it) plays at least one round; the param `rounds` itself is
                # checked where it is declared.
                known = count.get("value") if count.get("kind") == "num" else None
                param = str(count.get("name")) if count.get("kind") == "param" else None
                if param is not None and param != "rounds":
                    known = self.checker.vocab.params.get(param)
                if _reads_round(count):
                    # "round" in an expression is the current round: a count reading it
                    # (`round round { }`, a slip for `round rounds`) played 1 round, silently.
                    self.error(
                        "round-count",
                        "the count of rounds reads 'round', the current round (1 before the "
                        "first): it is how many rounds the game plays",
                        item.count.span,
                        "write: round 12 { ... } or round rounds { ... } (a param)",
                    )
                if isinstance(known, (int, float)) and (known < 1 or known != int(known)):
                    said = f"'{param}' is {known:g}" if param else f"not {known:g}"
                    self.error(
                        "round-count",
                        f"'round' plays at least 1 round, a whole number: {said}",
                        item.count.span,
                        f"write: param {param} 12 (in a variant: params: {{{param}: 12}})"
                        if param
                        else "write: round 12 { ... } or round rounds { ... } (a param)",
                    )
                out["count"] = count
                self.checker.note_span(f"{path}/count", item.count.span)
        elif item.count is not None and item.section != "end":
            self.error(
                "section-count",
                f"the '{item.section}' section takes no count",
                item.count.span,
                f"write: {item.section} {{ phase ... }}",
            )
        if item.annotations:
            self.checker.annotations(
                item.annotations,
                self.holder,
                "section",
                f"flow: {item.section}",
                item.span,
                item.section,
            )
        for phase in item.phases:
            first = self.phases.get(phase.name)
            if first is not None:
                self.error(
                    "duplicate-phase",
                    f"a phase named '{phase.name}' is already declared at {first}",
                    phase.span,
                    "phase names are unique in a flow (variants name them): rename one",
                )
                continue
            self.phases[phase.name] = phase.span
            phase_path = f"{path}/phases/{len(out['phases'])}"
            self.checker.note_span(phase_path, phase.span)
            if phase.annotations:
                self.checker.annotations(
                    phase.annotations,
                    self.holder,
                    "phase",
                    f"flow: phase {phase.name}",
                    phase.span,
                    phase.name,
                )
            body = self.checker.block(phase.body, self.scope, f"{phase_path}/body", self.holder)
            out["phases"].append(
                {"name": phase.name, "title": phase.title, "loc": _loc(phase.span), "body": body}
            )
        return out

    def setting(self, item: FlowSetting, out: IR) -> None:
        words = [expr for clause in item.args for expr in clause]
        # A setting's own note (`tiebreak coins @provisional("...")`) is recorded like a
        # phase's: read and then dropped, it never reached `cardc check --provenance`.
        if item.annotations:
            self.checker.annotations(
                item.annotations,
                self.holder,
                "setting",
                f"flow: {item.name}",
                item.span,
                item.name,
            )
        if item.name not in SETTINGS:
            hints = did_you_mean(item.name, SETTINGS) or (
                "settings: " + "; ".join(SETTINGS.values()),
            )
            self.error(
                "setting-unknown",
                f"'{item.name}' is not a setting of a flow",
                item.span,
                *hints,
            )
            return
        usage = f"write: {SETTINGS[item.name]}"
        if item.name == "end":
            if not words or not (isinstance(words[0], Name) and words[0].id == "when"):
                self.error(
                    "end-when", "after the phases, 'end' is 'end when CONDITION'", item.span, usage
                )
                return
            out["end_when"] = self.expression(words[1:], item, "bool", "/flow/end_when")
            # Where the condition is written, for a failure in it (a variant's: its YAML).
            out["end_when_loc"] = _loc(item.span)
        elif item.name == "winner":
            if len(words) != 1 or not isinstance(words[0], Name) or words[0].id not in WINNERS:
                got = words[0].id if words and isinstance(words[0], Name) else ""
                self.error(
                    "winner",
                    "the winner is 'highest', 'lowest' or 'team'",
                    item.span,
                    *(did_you_mean(got, WINNERS) or (usage,)),
                )
                return
            out["winner"] = words[0].id
        elif item.name == "tiebreak":
            out["tiebreak"] = self.expression(words, item, "any", "/flow/tiebreak")
            # Where it is written, for a failure in it (a variant's `tiebreak:`: its YAML).
            out["tiebreak_loc"] = _loc(item.span)
        elif item.name == "titles":
            if (
                len(words) != 2
                or not isinstance(words[0], Name)
                or words[0].id != "from"
                or not isinstance(words[1], Name)
            ):
                self.error("titles", "titles come from a kind of card", item.span, usage)
                return
            kind = words[1].id
            if kind not in self.checker.vocab.kinds:
                self.error(
                    "kind-undefined",
                    f"'{kind}' is not a kind of card this game declares",
                    words[1].span,
                    *(
                        did_you_mean(kind, self.checker.vocab.kinds)
                        or ("titles from KIND: the cards of KIND with min_score/max_score",)
                    ),
                )
                return
            props = self.checker.vocab.kinds[kind].properties
            if "min_score" not in props and "max_score" not in props:
                self.error(
                    "titles-kind",
                    f"{with_article(kind)} has no min_score or max_score, so no score earns one",
                    words[1].span,
                    f"declare them in the kind: kind {kind} {{ property min_score number ... }}",
                )
                return
            out["titles"] = {"kind": kind}

    def expression(self, words: list[Any], item: FlowSetting, typ: str, path: str) -> IR | None:
        if len(words) != 1:
            self.error(
                "bad-condition" if typ == "bool" else "bad-expression",
                f"'{item.name}' takes one expression",
                words[1].span if len(words) > 1 else item.span,
                f"write: {SETTINGS[item.name]}; join tests with 'and' / 'or'",
            )
            return None
        ir, got = self.checker.expr(words[0], self.scope)
        what = "'end when'" if item.name == "end" else f"'{item.name}'"
        self.checker.expect_type(got, typ, words[0].span, what)
        self.checker.note_span(path, words[0].span)
        return ir


def _loc(span: Span) -> IR:
    return {"file": span.file, "line": span.line, "col": span.column}


def phase_names(flow: IR | None) -> list[str]:
    """Every phase's name, in the order the engine runs them."""
    if not flow:
        return []
    return [p["name"] for s in flow["sections"] for p in s["phases"]]


def _reads_round(node: Any) -> bool:
    """Whether a lowered expression reads the current round (the builtin ``round``)."""
    if isinstance(node, dict):
        if node.get("kind") == "builtin" and node.get("name") == "round":
            return True
        return any(_reads_round(v) for v in node.values())
    if isinstance(node, list):
        return any(_reads_round(v) for v in node)
    return False
