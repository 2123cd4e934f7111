"""Running a simulation's chunks on a Dask cluster (``cardc sim --scheduler ADDRESS``).

Dask distributed rather than Ray: it is pure Python wheels (Ray is a large binary wheel with its
own object store and daemons), starts with two commands (``dask scheduler``, then ``dask worker
ADDRESS`` on each machine) or in process for a test (``LocalCluster``), and its ``Client.map``
over picklable tasks is all a simulation needs. It is the optional extra ``cardc[cluster]``.

Each chunk is a task (:func:`engine.sim.run_chunk`); a task carries the compiled game's
``cards.json`` and ``handlers.py`` (tens of kilobytes), so a worker on another machine needs
cardc installed, not the project's files. Results are gathered in chunk order and merged as
local runs merge them: the report is the same, byte for byte, as ``--jobs 1``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from engine.sim import Chunk, ChunkResult, Executor, Point, run_chunk

#: Seconds to wait for the scheduler to answer.
CONNECT_TIMEOUT = 10


class ClusterError(Exception):
    """The cluster cannot be used: the extra is not installed or the scheduler is not there."""

    def __init__(self, message: str, hints: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.hints = hints


def _client(address: Any) -> Any:
    try:
        from distributed import Client
    except ImportError as error:
        raise ClusterError(
            "--scheduler needs Dask distributed, which is not installed",
            ("pip install 'cardc[cluster]'",),
        ) from error
    try:
        return Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        raise ClusterError(
            f"no Dask scheduler answers at {address}: {error}",
            ("start one with 'dask scheduler' and workers with 'dask worker ADDRESS'",),
        ) from error


def _run_remote(chunk: Chunk, points: tuple[Point, ...]) -> ChunkResult:
    """A chunk on a worker, with the points the client scattered."""
    return run_chunk(dataclasses.replace(chunk, points=points))


def executor(address: Any) -> Executor:
    """An executor that runs chunks on the cluster whose scheduler is at ``address`` (a
    ``tcp://host:port`` string, or a ``LocalCluster``)."""
    client = _client(address)

    def run(chunks: Sequence[Chunk]) -> Iterator[ChunkResult]:
        try:
            if not chunks:
                return
            # The points (with their files) go to every worker once, not with every chunk.
            points = tuple(point.with_files() for point in chunks[0].points)
            shared = client.scatter(points, broadcast=True, hash=False)
            bare = [dataclasses.replace(chunk, points=()) for chunk in chunks]
            futures = client.map(_run_remote, bare, points=shared, pure=False)
            for future in futures:
                yield future.result()
        finally:
            client.close()

    return run
