"""The Markdown emitter: the cards and the rules reference as text, for a wiki or a diff.

Icons are written as their Icon Reference label in brackets, provisional marks as ``◇N``
(N is the note in the Provisional values table). Markdown's own characters in the data are
escaped, so a card's text cannot turn into markup or HTML.
"""

from __future__ import annotations

from compiler.md import code_md, comment_md, escape_md, line_md
from compiler.sheets.model import SheetModel
from compiler.sheets.text import IconRef, Provisional, Text

__all__ = ["escape_md", "render_markdown"]


def _segments(model: SheetModel, text: Text) -> str:
    out = []
    for seg in text:
        if isinstance(seg, IconRef):
            icon = model.ref.icons.get(seg.name)
            out.append(f"\\[{escape_md(icon.label if icon else seg.name)}\\]")
        elif isinstance(seg, Provisional):
            out.append(f" ◇{seg.number}")
        else:
            out.append(escape_md(seg))
    return "".join(out)


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(c.replace("\n", " ") for c in cells) + " |"


def render_markdown(model: SheetModel, banner: str) -> str:
    """The sheet as Markdown."""
    ref = model.ref
    lines = [comment_md(banner), "", f"# {escape_md(model.title)}", ""]
    lines += ["## Cards", ""]
    for card in model.cards:
        count = f" ×{card.count}" if card.count > 1 else ""
        lines.append(f"### {escape_md(card.title)}{count}")
        lines.append("")
        tags = "".join(f" · {escape_md(t.replace('_', ' '))}" for t in card.tags)
        kind = escape_md(ref.kind_name(card.kind, card.kind.replace("_", " ").capitalize()))
        lines.append(f"*{kind}{tags}* ({code_md(card.source)})")
        lines.append("")
        for label, value in card.properties:
            lines.append(f"- **{escape_md(label)}**: {_segments(model, value)}")
        if card.properties:
            lines.append("")
        for paragraph in card.paragraphs:
            lines += [line_md(_segments(model, paragraph)), ""]
    lines += ["## Rules reference", ""]
    if model.phases:
        # The phases as this game (or variant) plays them: its flow's order (model.phase_list).
        lines += ["### Phases, in order", ""]
        if ref.phases_intro:
            lines += [line_md(escape_md(ref.phases_intro)), ""]
        for index, (title, said) in enumerate(model.phases, start=1):
            lines.append(f"{index}. **{escape_md(title)}**: {_segments(model, said)}")
        lines.append("")
        if ref.phases_source:
            lines += [f"Rulebook: {escape_md(ref.phases_source)}", ""]
    if model.rules:
        lines += ["### Rules", ""]
        for rule in model.rules:
            # Each paragraph of the rule's text stays a paragraph, as the rulebook sets it out
            # (Darwin's Journey's setup steps, "Taking the Treasure", "Moving the Pirate Ship").
            first, *rest = [_segments(model, p) for p in rule.paragraphs] or [""]
            lines += [f"**{escape_md(rule.title)}.** {first}", ""]
            for words in rest:
                lines += [words, ""]
    for table in ref.tables:
        lines += [f"### {escape_md(table.title)}", ""]
        lines.append(_row([escape_md(c) for c in table.columns]))
        lines.append(_row(["---"] * len(table.columns)))
        lines += [_row([escape_md(c) for c in row]) for row in table.rows]
        lines += ["", f"Rulebook: {escape_md(table.source)}", ""] if table.source else [""]
    for name, text in ref.notes:
        lines += [f"### {escape_md(name)}", "", line_md(escape_md(text)), ""]
    if ref.icons:
        lines += ["### Icon legend", "", _row(["Icon", "Meaning"]), _row(["---", "---"])]
        lines += [_row([escape_md(i.label), escape_md(i.meaning)]) for i in ref.icons.values()]
        lines.append("")
    lines += ["### Card list", "", _row(["Card", "Kind", "Count"]), _row(["---", "---", "---:"])]
    for title, kind, copies, provisional in model.card_list():
        mark = " ◇" if provisional else ""
        kind = ref.kind_name(kind, kind.replace("_", " "))
        lines.append(_row([escape_md(title), escape_md(kind), f"{copies}{mark}"]))
    lines.append(_row(["**Total**", "", str(sum(c.count for c in model.cards))]))
    lines += ["", "### Provisional values", ""]
    lines.append(
        "◇N marks a value the rulebook does not print: a guess to playtest, not the printed card."
    )
    lines.append("")
    notes = model.game_notes + model.notes
    if notes:
        lines += [_row(["Mark", "What", "Why", "Source"]), _row(["---"] * 4)]
        for note in notes:
            lines.append(
                _row(
                    [f"◇{note.number}", escape_md(note.what), escape_md(note.why), code_md(note.at)]
                )
            )
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"
