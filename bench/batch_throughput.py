"""Batch replay throughput: plain replay against the batch machinery, serial, pool and Dask.

    .venv/bin/python bench/batch_throughput.py [--logs 2000] [--jobs 2] [--repeat 3]

It writes ``--logs`` whole Battle Card games (self-play, random policy) into a temporary
folder, then times, best of ``--repeat`` rounds that each run every case once:

- plain: ``replay(read_log(path))`` in a loop, the parsers built beforehand (the floor);
- serial: ``run_batch`` on the folder with the serial runner, rows written as JSON Lines;
- local: the same on a local process pool of ``--jobs`` workers, once with the pool's start
  in the time and once on a pool started beforehand;
- dask: the same on a Dask ``LocalCluster`` of ``--jobs`` single-threaded worker processes,
  its start left out of the time (as with a running cluster) and shown apart;
- paired: the overhead of the batch machinery measured chunk by chunk, plain replay and the
  batch's own per-chunk work in turns, in CPU time: the figure that other processes on the
  machine disturb least;
- machinery alone: discovery, chunks, rows, summary and JSON lines on reports made
  beforehand, in CPU time.

It prints a Markdown table (logs/s, ms per log, against serial), the overhead of the batch
machinery over plain replay, and the load average, since a busy machine moves the figures.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from referee.batch import BatchSummary, DaskRunner, PoolRunner, Runner, SerialRunner, run_batch
from referee.batch.discovery import discover, walk_logs
from referee.batch.results import JsonLinesSink
from referee.batch.runner import chunks
from referee.batch.worker import Chunk, replay_chunk, row_of, warm_up
from referee.core.parsing import read_log
from referee.core.replay import replay
from referee.core.selfplay import play_game, random_policy
from referee.games import engine_for


def write_logs(folder: Path, count: int) -> None:
    engine = engine_for("battle-card")
    for i in range(count):
        record = play_game(engine, f"bench-{i}", random_policy, keep_log=True)
        assert record.log is not None
        sub = folder / f"{i // 1000:03d}"
        sub.mkdir(exist_ok=True)
        (sub / f"game-{i:06d}.log").write_text(record.log, encoding="utf-8")


def plain(folder: Path) -> int:
    logs = 0
    for path in walk_logs(str(folder)):
        replay(read_log(Path(path)))
        logs += 1
    return logs


def batched(folder: Path, runner: Runner) -> int:
    with open(os.devnull, "w", encoding="utf-8") as sink:
        summary = run_batch([str(folder)], runner, on_row=JsonLinesSink(sink).write)
    return summary.logs


def spin(count: int) -> float:
    """Wall seconds of a pure-Python busy loop."""
    start = time.perf_counter()
    total = 0
    for i in range(count):
        total += i * i
    return time.perf_counter() - start


def free_cores(jobs: int, count: int = 5_000_000) -> float:
    """How many of ``jobs`` busy loops in parallel this machine runs now, against one alone
    (2.0 on an idle 2-core machine; less when other processes use the cores)."""
    alone = spin(count)
    with ProcessPoolExecutor(jobs) as pool:
        pool.submit(spin, 1).result()  # the workers are up before the clock starts
        start = time.perf_counter()
        list(pool.map(spin, [count] * jobs))
        together = time.perf_counter() - start
    return jobs * alone / together


def timed(work: Callable[[], int]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds of this process, and what ``work`` returned."""
    wall, cpu = time.perf_counter(), time.process_time()
    logs = work()
    return time.perf_counter() - wall, time.process_time() - cpu, logs


def machinery_only(folder: Path) -> float:
    """CPU seconds of what a serial batch does besides reading and replaying the logs:
    discovery, chunks, the row, the summary and the JSON line, on reports made beforehand."""
    reports = [replay(read_log(Path(target.path))) for target in discover([str(folder)])]
    cpu = time.process_time()
    summary = BatchSummary()
    with open(os.devnull, "w", encoding="utf-8") as devnull:
        sink = JsonLinesSink(devnull)
        made = iter(reports)
        for chunk in chunks(discover([str(folder)])):
            for target in chunk.targets:
                row = row_of(target.path, next(made), time.perf_counter())
                summary.add(row)
                sink.write(row)
    return time.process_time() - cpu


def paired_overhead(folder: Path, rounds: int) -> tuple[float, float]:
    """CPU seconds of plain replay and of the serial batch's per-chunk work (replay, rows,
    summary, JSON lines) on the same chunks, measured in turns chunk by chunk, so that a
    change in the machine's load hits both alike."""
    plain_cpu = batch_cpu = 0.0
    summary = BatchSummary()
    with open(os.devnull, "w", encoding="utf-8") as devnull:
        sink = JsonLinesSink(devnull)

        def replay_plain(chunk: Chunk) -> None:
            for target in chunk.targets:
                replay(read_log(Path(target.path)))

        def replay_batch(chunk: Chunk) -> None:
            for row in replay_chunk(chunk):
                summary.add(row)
                sink.write(row)

        for round_ in range(rounds):
            for index, chunk in enumerate(chunks(discover([str(folder)]))):
                first_plain = (index + round_) % 2 == 0
                for work in (replay_plain, replay_batch) if first_plain else (
                        replay_batch, replay_plain):
                    cpu = time.process_time()
                    work(chunk)
                    spent = time.process_time() - cpu
                    if work is replay_plain:
                        plain_cpu += spent
                    else:
                        batch_cpu += spent
    return plain_cpu, batch_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    n = options.logs
    load = os.getloadavg()

    def report(name: str, wall: float, cpu: float) -> None:
        print(f"{name}: {wall:.2f} s wall, {cpu:.2f} s CPU", file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="referee-bench-") as temp:
        folder = Path(temp)
        start = time.perf_counter()
        write_logs(folder, n)
        lines = sum(
            Path(p).read_text(encoding="utf-8").count("\n") for p in walk_logs(str(folder))
        )
        print(f"{n} Battle Card logs ({lines / n:.1f} lines each) written in "
              f"{time.perf_counter() - start:.1f} s; {os.cpu_count()} cores; "
              f"Python {sys.version.split()[0]}", file=sys.stderr)
        warm_up()

        cores_before = free_cores(options.jobs)
        one_log = Path(next(walk_logs(str(folder))))

        def on(runner: Runner, include_start: bool) -> Callable[[], tuple[float, float, int]]:
            """Time a batch on ``runner``, with its start and shutdown in the time or not."""
            def work() -> tuple[float, float, int]:
                wall, cpu = time.perf_counter(), time.process_time()
                with runner as ready:
                    if not include_start:
                        batched(one_log, ready)  # the workers are up and warm
                        wall, cpu = time.perf_counter(), time.process_time()
                    logs = batched(folder, ready)
                    if not include_start:  # nor the shutdown
                        return time.perf_counter() - wall, time.process_time() - cpu, logs
                return time.perf_counter() - wall, time.process_time() - cpu, logs
            return work

        jobs = options.jobs
        runs: dict[str, Callable[[], tuple[float, float, int]]] = {
            "plain replay (no batch machinery)": lambda: timed(lambda: plain(folder)),
            "batch, serial": lambda: timed(lambda: batched(folder, SerialRunner())),
            f"batch, local pool ({jobs} workers, pool start included)":
                lambda: on(PoolRunner(jobs), True)(),
            f"batch, local pool ({jobs} workers, start excluded)":
                lambda: on(PoolRunner(jobs), False)(),
            f"batch, Dask LocalCluster ({jobs} workers, cluster start excluded)":
                lambda: on(DaskRunner(jobs), False)(),
        }
        # Every run once per round, rounds one after another: a change in the machine's
        # load during the benchmark hits every run alike.
        walls: dict[str, list[float]] = {name: [] for name in runs}
        cpus: dict[str, list[float]] = {name: [] for name in runs}
        for _ in range(options.repeat):
            for name, work in runs.items():
                wall, cpu, logs = work()
                assert logs == n, (name, logs)
                walls[name].append(wall)
                cpus[name].append(cpu)
                report(name, wall, cpu)
        paired_plain, paired_batch = paired_overhead(folder, options.repeat)
        machinery = min(machinery_only(folder) for _ in range(options.repeat))
        cluster_start = time.perf_counter()
        with DaskRunner(jobs):
            cluster_seconds = time.perf_counter() - cluster_start

    best = {name: min(values) for name, values in walls.items()}
    serial = best["batch, serial"]
    print("| run | logs/s | ms per log | against serial | wall times (s) |")
    print("|---|---:|---:|---:|---|")
    for name, seconds in best.items():
        spread = ", ".join(f"{s:.2f}" for s in walls[name])
        print(f"| {name} | {n / seconds:,.0f} | {seconds / n * 1000:.2f} "
              f"| {serial / seconds:.2f}x | {spread} |")
    plain_cpu = min(cpus["plain replay (no batch machinery)"])
    serial_cpu = min(cpus["batch, serial"])
    print(f"\nwhole runs, CPU per log: plain replay {plain_cpu / n * 1000:.3f} ms, serial batch "
          f"{serial_cpu / n * 1000:.3f} ms: {(serial_cpu - plain_cpu) / plain_cpu:+.1%}")
    print(f"paired chunk by chunk, CPU per log: plain replay "
          f"{paired_plain / n / options.repeat * 1000:.3f} ms, batch "
          f"{paired_batch / n / options.repeat * 1000:.3f} ms: overhead "
          f"{(paired_batch - paired_plain) / paired_plain:+.1%}")
    print(f"the machinery alone (discovery, chunks, row, summary, JSON line): "
          f"{machinery / n * 1e6:.0f} us per log, {machinery / paired_plain * options.repeat:.1%} "
          f"of plain replay")
    print(f"load average (1 min) before / after: {load[0]:.2f} / {os.getloadavg()[0]:.2f}; "
          f"free cores (busy-loop probe) before / after: {cores_before:.2f} / "
          f"{free_cores(options.jobs):.2f} of {options.jobs}")
    print(f"Dask LocalCluster start (not in its timings): {cluster_seconds:.2f} s")


if __name__ == "__main__":
    main()
