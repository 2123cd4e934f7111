"""The VS Code extension folder: its manifest, and the TextMate grammar run over real lines by a
small TextMate-style scanner (earliest match wins, ties go to the first pattern)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from dsl.parser import KEYWORDS

VSCODE = Path(__file__).resolve().parent.parent / "editors" / "vscode"
GRAMMAR = json.loads((VSCODE / "syntaxes" / "cards.tmLanguage.json").read_text())


def _patterns(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for item in items:
        if "include" in item:
            rule = GRAMMAR["repository"][item["include"].lstrip("#")]
            out += (
                _patterns(rule["patterns"])
                if "patterns" in rule and "match" not in rule and "begin" not in rule
                else [rule]
            )
        else:
            out.append(item)
    return out


def scopes(line: str) -> list[tuple[str, str]]:
    """(text, scope) for each highlighted piece of ``line``."""
    rules = _patterns(GRAMMAR["patterns"])
    found: list[tuple[str, str]] = []
    position = 0
    while position < len(line):
        best = None
        for rule in rules:
            match = re.compile(rule.get("match") or rule["begin"]).search(line, position)
            if (
                match
                and match.end() > match.start()
                and (best is None or match.start() < best[1].start())
            ):
                best = (rule, match)
        if best is None:
            break
        rule, match = best
        if "begin" in rule:
            end = re.compile(rule["end"]).search(line, match.end())
            stop = end.end() if end else len(line)
            found.append((line[match.start() : stop], rule["name"]))
            position = stop
            continue
        if "captures" in rule:
            for group, capture in rule["captures"].items():
                found.append((match.group(int(group)), capture["name"]))
        else:
            found.append((match.group(), rule["name"]))
        position = match.end()
    return found


def test_manifest_launches_cardc_lsp_for_cards_files() -> None:
    manifest = json.loads((VSCODE / "package.json").read_text())
    (language,) = manifest["contributes"]["languages"]
    assert language["extensions"] == [".cards"]
    assert (VSCODE / language["configuration"]).is_file()
    (grammar,) = manifest["contributes"]["grammars"]
    assert grammar["scopeName"] == GRAMMAR["scopeName"] and (VSCODE / grammar["path"]).is_file()
    setting = manifest["contributes"]["configuration"]["properties"]["cardc.server.command"]
    assert setting["default"] == ["cardc", "lsp"]
    extension = (VSCODE / manifest["main"]).read_text()
    assert "cardc.server.command" in extension or "server.command" in extension
    assert "vscode-languageclient" in manifest["dependencies"]
    configuration = json.loads((VSCODE / language["configuration"]).read_text())
    assert configuration["comments"]["lineComment"] == "#"


def test_a_card_is_highlighted_by_what_its_words_are() -> None:
    got = scopes('port_card "Smoke # Bomb" {  # a comment')
    assert got == [
        ("port_card", "entity.name.type.kind.cards"),
        ('"Smoke # Bomb"', "string.quoted.double.cards"),
        ("{", "punctuation.section.block.begin.cards"),
        ("# a comment", "comment.line.number-sign.cards"),
    ]
    got = dict(
        scopes('  copies 5 @provisional("why") on pirate_combat { pirate highest(2d6) + 50% }')
    )
    assert got["@provisional"] == "storage.type.annotation.cards"
    assert got["on"] == "keyword.control.trigger.cards"
    assert got["pirate_combat"] == "entity.name.function.trigger.cards"
    assert got["highest"] == "support.function.native.cards"
    assert got["2d6"] == "constant.numeric.dice.cards"
    assert got["50%"] == "constant.numeric.percent.cards"
    assert got["5"] == "constant.numeric.cards"
    assert got["+"] == "keyword.operator.cards"


def test_every_keyword_of_the_language_is_highlighted() -> None:
    for keyword in sorted(KEYWORDS):
        ((text, scope),) = [s for s in scopes(f"    {keyword} ") if s[0] == keyword]
        # `verb` inside a game declares a verb's signature: highlighted as the vocabulary.
        assert scope.startswith(("keyword.", "constant.language", "storage.type")), (keyword, scope)


def test_a_dsl_verb_definition_is_highlighted() -> None:
    got = dict(scopes("function every_third(month number) bool = month % 3 == 0"))
    assert got["function"] == "keyword.other.definition.cards"
    assert got["every_third"] == "entity.name.function.definition.cards"
    assert got["%"] == "keyword.operator.cards"
