"""Where batch work runs: in this process, in a local process pool, or on a Dask cluster.

All three take the same jobs (small, picklable: paths or game numbers, never log texts) and
give back the results in the order of the jobs, so what a batch reports does not depend on
where it ran.  The pool and Dask keep a bounded window of jobs in flight: the jobs are drawn
from a lazy iterator only as results come back, so a million logs never sit in memory.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    BrokenExecutor,
    Executor,
    Future,
    ProcessPoolExecutor,
    wait,
)
from contextlib import AbstractContextManager, ExitStack
from types import TracebackType
from typing import Protocol, TypeVar

from referee.batch.worker import warm_up

J = TypeVar("J")
R = TypeVar("R")

EXECUTORS = ("serial", "local", "dask")

JOBS_PER_WORKER = 4
"""Jobs in flight per worker: enough that no worker waits for the next one, few enough that
the results waiting to be written stay small."""


class ExecutorUnavailable(Exception):
    """The executor cannot start or cannot go on: Dask not installed, the scheduler not
    answering, a worker process killed (out of memory, for instance)."""


class Runner(Protocol):
    """Runs ``fn`` over jobs and yields the results in job order."""

    workers: int

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]: ...


class SerialRunner:
    """Every job in this process, one after another: the reference the others must match."""

    workers = 1

    def __enter__(self) -> SerialRunner:
        warm_up()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        return None

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        for job in jobs:
            yield fn(job)


def windowed(
    executor: Executor, fn: Callable[[J], R], jobs: Iterable[J], window: int
) -> Iterator[R]:
    """``fn`` over ``jobs`` on ``executor``, results in job order, at most ``window`` jobs
    submitted and not yet yielded.  Closing the iterator early cancels what has not started."""
    pending: dict[Future[R], int] = {}
    finished: dict[int, R] = {}
    source = iter(jobs)
    submitted = emitted = 0
    exhausted = False
    try:
        while True:
            while not exhausted and submitted - emitted < window:
                try:
                    job = next(source)
                except StopIteration:
                    exhausted = True
                    break
                pending[executor.submit(fn, job)] = submitted
                submitted += 1
            if emitted in finished:
                yield finished.pop(emitted)
                emitted += 1
                continue
            if not pending:
                return
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                finished[pending.pop(future)] = future.result()
    except BrokenExecutor as error:
        raise ExecutorUnavailable(
            f"a worker process stopped without finishing its work ({error})"
        ) from None
    finally:
        for future in pending:
            future.cancel()


class PoolRunner:
    """A local pool of worker processes (standard library), each warmed up once."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> PoolRunner:
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers, mp_context=_context(), initializer=warm_up
        )
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        if self._pool is None:
            raise RuntimeError("the pool is used outside its 'with' block")
        return windowed(self._pool, fn, jobs, self.workers * JOBS_PER_WORKER)


def _context() -> multiprocessing.context.BaseContext:
    """Fresh worker processes: forkserver where the system has it, else spawn.

    Never a plain fork of this process: it runs threads (the progress bar, Dask's loop),
    and forking a threaded process can deadlock the child.  The forkserver listens on a Unix
    socket in the temporary folder, whose path may be at most 107 bytes: under a longer
    temporary folder the pool spawns its workers instead.
    """
    methods = multiprocessing.get_all_start_methods()
    socket = os.path.join(tempfile.gettempdir(), "pymp-xxxxxxxx", "listener-xxxxxxxx")
    if "forkserver" in methods and len(os.fsencode(socket)) <= _MAX_SOCKET_PATH:
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")


_MAX_SOCKET_PATH = 100
"""A little under the 107 bytes a Unix socket's path may have on Linux."""


class DaskRunner:
    """The same jobs through ``distributed.Client(...).get_executor()``.

    With ``scheduler`` (``tcp://HOST:PORT``) it joins a running cluster; without, it starts a
    ``LocalCluster`` of ``workers`` single-threaded worker processes on this machine.
    Workers must have ``market-garden-referee`` installed and see the logs at the same paths
    (relative paths are read from this process's working folder).
    """

    def __init__(self, workers: int, scheduler: str | None = None, *,
                 processes: bool = True, timeout: float = 10.0) -> None:
        self.workers = max(1, workers)
        self.scheduler = scheduler
        self.processes = processes
        self.timeout = timeout
        self._stack = ExitStack()
        self._executor: Executor | None = None

    def __enter__(self) -> DaskRunner:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise ExecutorUnavailable(
                "the dask executor needs the 'distributed' package: "
                "pip install 'market-garden-referee[dask]'"
            ) from None
        try:
            if self.scheduler is None:
                cluster = self._stack.enter_context(
                    LocalCluster(  # type: ignore[no-untyped-call]
                        n_workers=self.workers, threads_per_worker=1,
                        processes=self.processes, host="127.0.0.1",
                        # Any free port: the default 8787 may be taken by another cluster.
                        dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR,
                    )
                )
                client = self._stack.enter_context(
                    Client(cluster, timeout=self.timeout)  # type: ignore[no-untyped-call]
                )
            else:
                client = self._stack.enter_context(
                    Client(self.scheduler, timeout=self.timeout)  # type: ignore[no-untyped-call]
                )
                threads = sum(client.nthreads().values())
                self.workers = max(1, threads)
            client.run(warm_up)
        except (OSError, TimeoutError, ValueError, RuntimeError) as error:
            self._stack.close()
            where = self.scheduler or "a local cluster"
            raise ExecutorUnavailable(f"cannot start Dask on {where}: {error}") from None
        self._executor = client.get_executor(pure=False)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._executor = None
        self._stack.close()

    def map(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[R]:
        if self._executor is None:
            raise RuntimeError("the Dask client is used outside its 'with' block")
        return self._results(windowed(self._executor, fn, jobs, self.workers * JOBS_PER_WORKER))

    def _results(self, results: Iterator[R]) -> Iterator[R]:
        from distributed import KilledWorker

        try:
            yield from results
        except KilledWorker as error:
            raise ExecutorUnavailable(
                f"Dask workers died running a job ({error}); see the workers' logs"
            ) from None


def open_runner(
    executor: str, jobs: int, scheduler: str | None = None
) -> AbstractContextManager[Runner]:
    """The runner called ``executor``; use it in a ``with`` block, which yields the runner."""
    if executor == "serial":
        return SerialRunner()
    if executor == "local":
        return PoolRunner(jobs)
    if executor == "dask":
        return DaskRunner(jobs, scheduler)
    raise ValueError(f"unknown executor '{executor}'; choose one of {', '.join(EXECUTORS)}")


def choose_executor(
    executor: str | None, jobs: int | None, scheduler: str | None
) -> tuple[str, int]:
    """The executor and worker count that ``--executor``, ``--jobs`` and ``--scheduler``
    ask for: ``--scheduler`` means Dask, ``--jobs`` above 1 alone means the local pool, and
    nothing means serial.  Contradictions are a ``ValueError`` with a sentence."""
    if scheduler is not None:
        if executor not in (None, "dask"):
            raise ValueError(f"--scheduler is for the dask executor, not --executor {executor}")
        executor = "dask"
    if executor is None:
        executor = "local" if jobs is not None and jobs > 1 else "serial"
    if executor == "serial":
        if jobs is not None and jobs > 1:
            raise ValueError(f"--executor serial runs one job at a time; --jobs {jobs} needs "
                             "--executor local or dask")
        return executor, 1
    if executor not in EXECUTORS:
        raise ValueError(f"unknown executor '{executor}'; choose one of {', '.join(EXECUTORS)}")
    return executor, jobs if jobs is not None else default_jobs()


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
