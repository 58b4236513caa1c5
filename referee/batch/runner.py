"""One batch, start to end: discover the logs, send them out in chunks, gather the rows in
input order, keep the summary, and stop at the first bad log under ``fail_fast``."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from typing import TypeVar

from referee.batch.discovery import discover
from referee.batch.executors import Runner
from referee.batch.summary import BatchSummary
from referee.batch.worker import (
    MEGABYTES_PER_LOG,
    SECONDS_PER_LOG,
    Chunk,
    LogResult,
    Target,
    over_budget,
    replay_chunk,
)

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
           largest: int = LARGEST_CHUNK, root: str | None = None,
           seconds: float | None = SECONDS_PER_LOG,
           megabytes: int | None = MEGABYTES_PER_LOG) -> Iterator[Chunk]:
    """The jobs of a batch: targets in chunks, with the folder relative paths start from."""
    base = root or os.getcwd()
    for group in ramped(targets, largest):
        yield Chunk(tuple(group), base, seed, seconds, megabytes)


class ChunkRecovery:
    """After a pool worker dies: a chunk runs again log by log, and the one log whose worker
    dies again is an ``over-budget`` row (``Recovery``)."""

    def split(self, job: Chunk) -> list[Chunk]:
        return [replace(job, targets=(target,)) for target in job.targets]

    def merge(self, results: list[list[LogResult]]) -> list[LogResult]:
        return [row for rows in results for row in rows]

    def lost(self, job: Chunk, reason: str) -> list[LogResult]:
        return [over_budget(target.shown or target.path, reason) for target in job.targets]


def _skip(targets: Iterator[Target], done: Sequence[LogResult]) -> Iterator[Target]:
    """``targets`` after the first ``len(done)``, which must be the logs of ``done``."""
    for row in done:
        target = next(targets, None)
        if target is None or (target.shown or target.path) != row.path:
            raise ValueError(
                f"the rows already done do not belong to this batch: they hold {row.path} "
                f"where this batch has {target.path if target else 'no more logs'}"
            )
    yield from targets


def run_batch(
    arguments: Sequence[str],
    runner: Runner,
    *,
    seed: str | None = None,
    fail_fast: bool = False,
    largest: int = LARGEST_CHUNK,
    on_row: Callable[[LogResult], None] | None = None,
    on_chunk: Callable[[int], None] | None = None,
    seconds: float | None = SECONDS_PER_LOG,
    megabytes: int | None = MEGABYTES_PER_LOG,
    done: Sequence[LogResult] = (),
) -> BatchSummary:
    """Replay every log the ``arguments`` name on ``runner``.

    ``on_row`` receives each row in input order (to write it), ``on_chunk`` the number of
    logs each finished chunk held (to advance a progress bar).  ``seconds`` and
    ``megabytes`` are each log's budget.  ``done`` are rows of an earlier run of the same
    batch that stopped (``--resume``): they count in the summary, and their logs, the first
    of the batch, are not replayed again (``ValueError`` if they are not this batch's).
    """
    summary = BatchSummary()
    for row in done:
        summary.add(row)
    targets = _skip(iter(discover(arguments)), done)
    jobs = chunks(targets, seed, largest=largest, seconds=seconds, megabytes=megabytes)
    results = runner.map(replay_chunk, jobs, ChunkRecovery())
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
