"""One batch, start to end: discover the logs, send them out in chunks, gather the rows in
input order, keep the summary, and stop at the first bad log under ``fail_fast``."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TypeVar

from referee.batch.discovery import discover
from referee.batch.executors import Runner
from referee.batch.summary import BatchSummary
from referee.batch.worker import Chunk, LogResult, Target, replay_chunk

T = TypeVar("T")

LARGEST_CHUNK = 64
"""Logs per job at most: a Battle Card log replays in about 5 ms, so a full chunk is a few
tenths of a second of work against a few hundred bytes sent each way."""


def ramped(items: Iterable[T], largest: int) -> Iterator[list[T]]:
    """``items`` in lists of 1, 2, 4 ... up to ``largest``: small batches start every worker
    at once, large ones soon travel in full chunks."""
    size = 1
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
            size = min(size * 2, largest)
    if chunk:
        yield chunk


def chunks(targets: Iterable[Target], seed: str | None = None, *,
           largest: int = LARGEST_CHUNK, root: str | None = None) -> Iterator[Chunk]:
    """The jobs of a batch: targets in chunks, with the folder relative paths start from."""
    base = root or os.getcwd()
    for group in ramped(targets, largest):
        yield Chunk(tuple(group), base, seed)


def run_batch(
    arguments: Sequence[str],
    runner: Runner,
    *,
    seed: str | None = None,
    fail_fast: bool = False,
    largest: int = LARGEST_CHUNK,
    on_row: Callable[[LogResult], None] | None = None,
    on_chunk: Callable[[int], None] | None = None,
) -> BatchSummary:
    """Replay every log the ``arguments`` name on ``runner``.

    ``on_row`` receives each row in input order (to write it), ``on_chunk`` the number of
    logs each finished chunk held (to advance a progress bar).
    """
    summary = BatchSummary()
    results = runner.map(replay_chunk, chunks(discover(arguments), seed, largest=largest))
    try:
        for rows in results:
            for row in rows:
                summary.add(row)
                if on_row is not None:
                    on_row(row)
                if fail_fast and not row.ok:
                    summary.stopped_at = row.path
                    return summary
            if on_chunk is not None:
                on_chunk(len(rows))
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    return summary
