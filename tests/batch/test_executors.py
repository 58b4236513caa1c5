"""Serial, local pool and Dask give the same rows in the same order; the window is bounded."""

from __future__ import annotations

import os
import random
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from referee.batch import (
    DaskRunner,
    ExecutorUnavailable,
    PoolRunner,
    Runner,
    SerialRunner,
    run_batch,
)
from referee.batch.discovery import discover
from referee.batch.executors import choose_executor, default_jobs, open_runner, windowed
from referee.batch.runner import chunks, ramped
from referee.batch.worker import Chunk, replay_chunk
from referee.core.grammar import game_parser
from referee.games import GAMES, engine_for
from tests.batch.helpers import without_timing


def batch(runner: Runner, arguments: list[str]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    summary = run_batch(arguments, runner, on_row=lambda r: rows.append(r.to_json()), largest=4)
    return rows, summary.to_json()


def test_serial_local_pool_and_dask_give_identical_results(legal_logs: Path,
                                                           mixed_logs: Path) -> None:
    arguments = [str(mixed_logs), str(legal_logs), str(mixed_logs / "missing.log")]
    with SerialRunner() as runner:
        serial_rows, serial_summary = batch(runner, arguments)
    with PoolRunner(2) as runner:
        pool_rows, pool_summary = batch(runner, arguments)
    with DaskRunner(2) as runner:
        dask_rows, dask_summary = batch(runner, arguments)
    assert len(serial_rows) == 5 + 12 + 1
    assert [r["path"] for r in serial_rows][:5] == sorted(str(p) for p in mixed_logs.iterdir())
    assert without_timing(serial_rows) == without_timing(pool_rows) == without_timing(dask_rows)
    assert serial_summary == pool_summary == dask_summary
    assert serial_summary["legal"] == 13 and serial_summary["illegal"] == 1
    assert serial_summary["unreadable"] == 4


def test_the_pool_uses_separate_worker_processes() -> None:
    with PoolRunner(2) as runner:
        pids = set(runner.map(_pid, range(8)))
    assert os.getpid() not in pids and pids


def _pid(_: int) -> int:
    return os.getpid()


def _replay_then_count_parser_builds(chunk: Chunk) -> tuple[int, int]:
    replay_chunk(chunk)
    return os.getpid(), game_parser.cache_info().misses


def test_each_worker_builds_its_parsers_once(legal_logs: Path) -> None:
    grammars = {engine_for(g.id).grammar for g in GAMES.values() if g.module is not None}
    with PoolRunner(2) as runner:
        builds = dict(runner.map(_replay_then_count_parser_builds,
                                 chunks(discover([str(legal_logs)] * 4), largest=2)))
    assert builds and set(builds.values()) == {len(grammars)}


def test_windowed_keeps_order_and_a_bounded_window() -> None:
    drawn = 0
    yielded = 0
    ahead: list[int] = []
    lock = threading.Lock()

    def jobs() -> Iterator[int]:
        nonlocal drawn
        for i in range(200):
            with lock:
                drawn += 1
                ahead.append(drawn - yielded)
            yield i

    def slow_square(x: int) -> int:
        time.sleep(random.random() / 2000)
        return x * x

    out = []
    with ThreadPoolExecutor(4) as pool:
        for value in windowed(pool, slow_square, jobs(), window=5):
            out.append(value)
            yielded += 1
    assert out == [i * i for i in range(200)]
    assert max(ahead) <= 5


def test_closing_early_cancels_the_jobs_not_started() -> None:
    started: list[int] = []
    gate = threading.Event()

    def wait_then(x: int) -> int:
        started.append(x)
        gate.wait(5)
        return x

    with ThreadPoolExecutor(1) as pool:
        results = windowed(pool, wait_then, range(100), window=10)
        gate.set()
        assert next(results) == 0
        results.close()
    assert len(started) < 100


def test_a_dead_worker_process_is_a_sentence_not_a_traceback() -> None:
    with pytest.raises(ExecutorUnavailable, match="a worker process stopped"), \
            PoolRunner(1) as runner:
        list(runner.map(os._exit, [3]))


def test_dask_not_installed_is_a_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(ExecutorUnavailable, match=r"pip install 'market-garden-referee\[dask\]'"):
        DaskRunner(1).__enter__()


def test_an_unreachable_scheduler_is_a_sentence() -> None:
    runner = DaskRunner(1, "tcp://127.0.0.1:1", timeout=1)
    with pytest.raises(ExecutorUnavailable, match=r"cannot start Dask on tcp://127\.0\.0\.1:1"):
        runner.__enter__()


@pytest.mark.parametrize(
    ("executor", "jobs", "scheduler", "chosen"),
    [
        (None, None, None, ("serial", 1)),
        (None, 1, None, ("serial", 1)),
        (None, 3, None, ("local", 3)),
        ("local", None, None, ("local", default_jobs())),
        ("dask", 2, None, ("dask", 2)),
        (None, 4, "tcp://h:8786", ("dask", 4)),
    ],
)
def test_choose_executor(executor: str | None, jobs: int | None, scheduler: str | None,
                         chosen: tuple[str, int]) -> None:
    assert choose_executor(executor, jobs, scheduler) == chosen


@pytest.mark.parametrize(
    ("executor", "jobs", "scheduler", "says"),
    [
        ("serial", 2, None, "--executor serial runs one job at a time"),
        ("local", None, "tcp://h:8786", "--scheduler is for the dask executor"),
    ],
)
def test_contradictory_options_are_refused(executor: str, jobs: int | None,
                                           scheduler: str | None, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        choose_executor(executor, jobs, scheduler)


def test_an_unknown_executor_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown executor 'ray'"):
        open_runner("ray", 2)


def test_chunks_ramp_up_to_the_largest() -> None:
    sizes = [len(chunk) for chunk in ramped(range(100), 16)]
    assert sizes == [1, 2, 4, 8, 16, 16, 16, 16, 16, 5]
    assert [x for chunk in ramped(range(100), 16) for x in chunk] == list(range(100))
