"""Benchmark: ``cardc lsp`` diagnostics for an edited 500-line card file.

Run as ``.venv/bin/python bench/lsp.py [--edits 10]``. A benchmark, not a test: it prints the
figures and PASS/FAIL against the goal (median at most 0.1 s from the change to its diagnostics)
and exits 1 when it fails.

The project holds the synthetic ``armada`` game of ``bench/build.py`` with one card file of
about 500 lines. A real client (pygls' LanguageClient) starts ``cardc lsp`` over stdio, opens
the file, then sends whole-document changes, alternately breaking a name and fixing it, and
times each from the moment the change is sent to the moment its diagnostics arrive.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402

from bench.build import VOCABULARY, Armada  # noqa: E402

GOAL_SECONDS = 0.1
LINES = 500


def make_project(root: Path) -> tuple[Path, str]:
    """The armada game with one card file of about ``LINES`` lines; its path and text."""
    game = root / "cards" / "armada"
    game.mkdir(parents=True)
    (game / "game.cards").write_text(VOCABULARY, encoding="utf-8")
    generator = Armada(20240611)
    cards: list[str] = []
    index = 0
    while sum(c.count("\n") + 1 for c in cards) < LINES:
        cards.append(generator.card(index))
        index += 1
    text = "\n".join(cards)
    path = game / "cards.cards"
    path.write_text(text, encoding="utf-8")
    return path, text


async def measure(root: Path, path: Path, text: str, edits: int) -> list[float]:
    """Seconds from each change sent to its diagnostics received."""
    client = LanguageClient("cardc-bench", "1")
    arrived: asyncio.Queue[tuple[float, int]] = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: types.PublishDiagnosticsParams) -> None:
        arrived.put_nowait((time.perf_counter(), len(params.diagnostics)))

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    await client.start_io(sys.executable, "-m", "compiler.cli", "lsp", cwd=root, env=env)
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=from_fs_path(str(root))
        )
    )
    client.initialized(types.InitializedParams())
    uri = from_fs_path(str(path.resolve()))
    assert uri is not None
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cards", version=1, text=text)
        )
    )
    _when, count = await arrived.get()
    assert count == 0, "the benchmark's cards should check clean"
    broken = text.replace("gain ", "gian ", 1)
    times = []
    for version in range(2, edits + 2):
        edited = broken if version % 2 == 0 else text
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
            )
        )
        when, count = await arrived.get()
        assert (count > 0) == (edited is broken)
        times.append(when - sent)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def main(argv: list[str] | None = None) -> int:
    """Run the edits; print each time, the median and the verdict."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--edits", type=int, default=10)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cardc-bench-lsp-") as tmp:
        path, text = make_project(Path(tmp))
        times = asyncio.run(measure(Path(tmp), path, text, args.edits))
    median = statistics.median(times)
    load = os.getloadavg()
    lines = text.count("\n") + 1
    print(
        f"cardc lsp, one {lines}-line card file, {args.edits} edits (change sent -> diagnostics):"
    )
    print("  " + " ".join(f"{t * 1000:.0f}ms" for t in times))
    print(f"median {median * 1000:.0f}ms (load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    ok = median <= GOAL_SECONDS
    goal = f"goal <= {GOAL_SECONDS * 1000:.0f}ms"
    print(f"{'PASS' if ok else 'FAIL'}: median {median * 1000:.0f}ms ({goal})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
