"""Batch replays: many logs, one row each, a summary; serial, on a local pool or on Dask.

    >>> from referee.batch import SerialRunner, run_batch
    >>> summary = run_batch(["logs/"], SerialRunner())   # doctest: +SKIP
"""

from referee.batch.executors import (
    EXECUTORS,
    DaskRunner,
    ExecutorUnavailable,
    PoolRunner,
    Runner,
    SerialRunner,
    open_runner,
)
from referee.batch.results import open_results, read_results
from referee.batch.runner import run_batch
from referee.batch.summary import BatchSummary
from referee.batch.worker import TIMING_FIELDS, LogResult

__all__ = [
    "EXECUTORS",
    "TIMING_FIELDS",
    "BatchSummary",
    "DaskRunner",
    "ExecutorUnavailable",
    "LogResult",
    "PoolRunner",
    "Runner",
    "SerialRunner",
    "open_results",
    "open_runner",
    "read_results",
    "run_batch",
]
