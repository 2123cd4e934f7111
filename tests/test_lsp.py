"""``cardc lsp`` through a real client: pygls' LanguageClient talking JSON-RPC over stdio to a
``cardc lsp`` subprocess, in a copy of Uncharted Passage."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls")

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
GAME = "uncharted_passage"


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "cards" / GAME, tmp_path / "cards" / GAME)
    shutil.copytree(REPO / "tests" / "scenarios" / GAME, tmp_path / "tests" / "scenarios" / GAME)
    return tmp_path


class Session:
    """A client with the server started, and the diagnostics it has published."""

    def __init__(self, client: LanguageClient, root: Path) -> None:
        self.client = client
        self.root = root
        self.diagnostics: dict[str, list[types.Diagnostic]] = {}
        self.changed = asyncio.Event()
        self.versions: dict[str, int] = {}

    def uri(self, relative: str) -> str:
        uri = from_fs_path(str((self.root / relative).resolve()))
        assert uri is not None
        return uri

    async def open(self, relative: str, text: str | None = None) -> str:
        uri = self.uri(relative)
        self.changed.clear()
        self.diagnostics.pop(uri, None)
        self.versions[uri] = 1
        language = "cards" if relative.endswith(".cards") else "yaml"
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri,
                    language_id=language,
                    version=1,
                    text=text if text is not None else (self.root / relative).read_text(),
                )
            )
        )
        await self.wait_for(uri)
        return uri

    async def change(self, uri: str, text: str) -> None:
        self.versions[uri] += 1
        self.diagnostics.pop(uri, None)
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        await self.wait_for(uri)

    async def wait_for(self, uri: str) -> list[types.Diagnostic]:
        async def arrived() -> None:
            while uri not in self.diagnostics:
                self.changed.clear()
                await self.changed.wait()

        await asyncio.wait_for(arrived(), timeout=60)
        return self.diagnostics[uri]


def run(root: Path, body: Callable[[Session], Awaitable[None]]) -> None:
    """Start ``cardc lsp`` in ``root``, initialize, run ``body``, shut down cleanly."""

    async def main() -> None:
        client = LanguageClient("cardc-test", "1")
        session = Session(client, root)

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            session.diagnostics[params.uri] = list(params.diagnostics)
            session.changed.set()

        env = {**os.environ, "PYTHONPATH": str(REPO)}
        await client.start_io(sys.executable, "-m", "compiler.cli", "lsp", cwd=root, env=env)
        await client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(root))
            )
        )
        client.initialized(types.InitializedParams())
        try:
            await body(session)
        finally:
            await client.shutdown_async(None)
            client.exit(None)
            await client.stop()

    asyncio.run(main())


def _check_json(root: Path) -> list[dict[str, Any]]:
    result = subprocess.run(
        [sys.executable, "-m", "compiler.cli", "check", "--format", "json"],
        cwd=root,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=120,
    )
    return json.loads(result.stdout)["diagnostics"]  # type: ignore[no-any-return]


def test_diagnostics_as_you_type_match_cardc_check(project: Path) -> None:
    relative = f"cards/{GAME}/port_cards.cards"
    good = (project / relative).read_text()
    broken = good.replace("reduce pirate_power up_to 2", "reduce pirat_power up_to 2 +", 1)
    assert broken != good
    (project / relative).write_text(broken)
    expected = _check_json(project)
    (project / relative).write_text(good)  # the server must read the editor's text, not this
    assert expected

    async def body(session: Session) -> None:
        uri = await session.open(relative)
        assert session.diagnostics[uri] == []
        await session.change(uri, broken)
        got = session.diagnostics[uri]
        assert [
            (
                d.code,
                d.range.start.line + 1,
                d.range.start.character + 1,
                d.range.end.line + 1,
                d.range.end.character + 1,
                d.message,
                d.severity,
            )
            for d in got
        ] == [
            (
                e["code"],
                e["line"],
                e["column"],
                e["end_line"],
                e["end_column"],
                e["message"] + "".join(f"\nhint: {h}" for h in e["hints"]),
                types.DiagnosticSeverity.Error,
            )
            for e in expected
        ]
        await session.change(uri, good)
        assert session.diagnostics[uri] == []

    run(project, body)


def test_an_error_in_another_file_of_the_game_is_published_there(project: Path) -> None:
    # Renaming a trigger in game.cards breaks the card files that use it.
    game = f"cards/{GAME}/game.cards"
    text = (project / game).read_text()
    renamed = text.replace("trigger pirate_combat ", "trigger pirate_fight ", 1)

    async def body(session: Session) -> None:
        uri = await session.open(game)
        await session.change(uri, renamed)
        cards = session.uri(f"cards/{GAME}/port_cards.cards")
        found = await session.wait_for(cards)
        assert any(d.code == "trigger-undefined" for d in found)
        session.diagnostics.pop(cards)
        await session.change(uri, text)
        assert (await session.wait_for(cards)) == []

    run(project, body)


def test_hover_definition_completion_and_symbols(project: Path) -> None:
    relative = f"cards/{GAME}/port_cards.cards"
    lines = (project / relative).read_text().split("\n")
    reduce_line = next(i for i, line in enumerate(lines) if "reduce pirate_power" in line)
    trigger_line = next(i for i, line in enumerate(lines) if "on pirate_combat" in line)
    voyages = f"cards/{GAME}/voyages.cards"
    voyage_lines = (project / voyages).read_text().split("\n")
    play_line = next(i for i, line in enumerate(voyage_lines) if "play lime_juice" in line)
    game_lines = (project / f"cards/{GAME}/game.cards").read_text().split("\n")

    async def body(session: Session) -> None:
        uri = await session.open(relative)
        column = lines[reduce_line].index("reduce") + 2
        hover = await session.client.text_document_hover_async(
            types.HoverParams(
                types.TextDocumentIdentifier(uri), types.Position(reduce_line, column)
            )
        )
        assert hover is not None
        text = hover.contents.value  # type: ignore[union-attr]
        assert "reduce" in text and "prelude" in text and "up_to" in text

        column = lines[trigger_line].index("pirate_combat") + 3
        where = await session.client.text_document_definition_async(
            types.DefinitionParams(
                types.TextDocumentIdentifier(uri), types.Position(trigger_line, column)
            )
        )
        assert isinstance(where, types.Location)
        assert where.uri == session.uri(f"cards/{GAME}/game.cards")
        assert "trigger pirate_combat" in game_lines[where.range.start.line]

        hover = await session.client.text_document_hover_async(
            types.HoverParams(
                types.TextDocumentIdentifier(uri), types.Position(trigger_line, column)
            )
        )
        assert hover is not None and "the Pirate phase, before damage" in hover.contents.value  # type: ignore[union-attr]

        # A card: its declaration, and the text its sheet prints.
        voyage_uri = await session.open(voyages)
        column = voyage_lines[play_line].index("lime_juice") + 1
        at = types.Position(play_line, column)
        where = await session.client.text_document_definition_async(
            types.DefinitionParams(types.TextDocumentIdentifier(voyage_uri), at)
        )
        assert isinstance(where, types.Location)
        assert where.uri == uri
        assert 'port_card "Lime Juice"' in lines[where.range.start.line]
        hover = await session.client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(voyage_uri), at)
        )
        assert hover is not None
        card_text = hover.contents.value  # type: ignore[union-attr]
        assert "Lime Juice" in card_text and "---" in card_text and "Scurvy" in card_text

        # Completion: after `on`, the triggers only; elsewhere verbs, names and keywords too.
        on_line = lines[trigger_line]
        after_on = on_line.index("on ") + 3
        items = await session.client.text_document_completion_async(
            types.CompletionParams(
                types.TextDocumentIdentifier(uri), types.Position(trigger_line, after_on)
            )
        )
        labels = {item.label for item in items.items}  # type: ignore[union-attr]
        assert {"pirate_combat", "pirate_raid", "scurvy"} <= labels
        assert "reduce" not in labels and "smoke_bomb" not in labels
        items = await session.client.text_document_completion_async(
            types.CompletionParams(
                types.TextDocumentIdentifier(uri), types.Position(reduce_line, 4)
            )
        )
        labels = {item.label for item in items.items}  # type: ignore[union-attr]
        assert {"reduce", "raid", "smoke_bomb", "armament", "health", "may", "if"} <= labels

        # A verb opening a window: after 'fire', the triggers; after 'fire TRIGGER', 'with'
        # among the names; after 'with' (or a comma), that window's quantities only.
        house = f"cards/{GAME}/house.cards"
        text = 'verb storm() "a storm" {\n  fire pirate_raid with damage 2, \n}\n'
        (project / house).write_text(text)
        house_uri = await session.open(house, text)

        async def offered(line: int, column: int) -> list[Any]:
            found = await session.client.text_document_completion_async(
                types.CompletionParams(
                    types.TextDocumentIdentifier(house_uri), types.Position(line, column)
                )
            )
            return list(found.items)  # type: ignore[union-attr]

        fire_line = text.split("\n")[1]
        labels = {i.label for i in await offered(1, fire_line.index("fire ") + 5)}
        assert "pirate_raid" in labels and "reduce" not in labels
        items = await offered(1, fire_line.index(" with") + 1)
        with_item = next(i for i in items if i.label == "with")
        assert with_item.detail == "fire pirate_raid with damage VALUE { ... }"
        after_with = fire_line.index("with ") + 5
        assert [i.label for i in await offered(1, after_with)] == ["damage"]
        assert [i.label for i in await offered(1, len(fire_line))] == ["damage"]

        symbols = await session.client.text_document_document_symbol_async(
            types.DocumentSymbolParams(types.TextDocumentIdentifier(uri))
        )
        assert symbols is not None
        smoke = next(s for s in symbols if s.name == "Smoke Bomb")
        assert smoke.detail == "port_card"  # type: ignore[union-attr]
        assert [c.name for c in smoke.children or []] == [
            "copies",
            "on pirate_combat",
            "on pirate_raid",
        ]  # type: ignore[union-attr]

    run(project, body)


def test_variant_and_scenario_files_get_diagnostics(project: Path) -> None:
    variant = f"cards/{GAME}/variants/harsher_sea.yaml"
    text = (project / variant).read_text()
    scenario = f"tests/scenarios/{GAME}/plague.yaml"
    scenario_text = (project / scenario).read_text()

    async def body(session: Session) -> None:
        uri = await session.open(variant)
        assert session.diagnostics[uri] == []
        await session.change(uri, text.replace("durability:", "durabilty:", 1))
        (problem,) = session.diagnostics[uri]
        assert problem.code == "variant-path" and "did you mean 'durability'" in problem.message

        uri = await session.open(scenario)
        assert session.diagnostics[uri] == []
        await session.change(uri, scenario_text.replace("expect:", "expectt:", 1))
        found = session.diagnostics[uri]
        assert found and found[0].code == "scenario"
        line = next(i for i, t in enumerate(scenario_text.split("\n")) if "expect:" in t)
        assert found[0].range.start.line <= line

    run(project, body)


def test_formatting_gives_the_canonical_layout(project: Path) -> None:
    relative = f"cards/{GAME}/voyages.cards"

    async def body(session: Session) -> None:
        uri = await session.open(relative, 'port_card   "A" {\ncopies 1\n}\n')
        edits = await session.client.text_document_formatting_async(
            types.DocumentFormattingParams(
                types.TextDocumentIdentifier(uri),
                types.FormattingOptions(tab_size=2, insert_spaces=True),
            )
        )
        assert edits is not None and edits[0].new_text == 'port_card "A" {\n  copies 1\n}\n'

    run(project, body)


@pytest.mark.parametrize(
    ("before", "offer"),
    [
        ("  on ", ("triggers", None)),
        ("  on pir", ("triggers", None)),
        ("  fire ", ("triggers", None)),
        ("  fire pirate_raid ", ("with", "pirate_raid")),
        ("  fire pirate_raid wi", ("with", "pirate_raid")),
        ("  fire pirate_raid with ", ("quantities", "pirate_raid")),
        ("  fire pirate_raid with dam", ("quantities", "pirate_raid")),
        ("  fire pirate_raid with damage ", ("names", None)),
        ("  fire pirate_raid with damage 2, ", ("quantities", "pirate_raid")),
        ("  fire pirate_raid with damage 2 { gain ", ("names", None)),
        ("  gain ", ("names", None)),
    ],
)
def test_what_a_completion_offers_where(before: str, offer: tuple[str, str | None]) -> None:
    from compiler.lsp_index import completion_context

    assert completion_context(before) == offer
