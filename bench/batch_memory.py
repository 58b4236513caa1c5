"""Peak memory of ``referee batch`` as the number of logs grows: it should stay flat.

    .venv/bin/python bench/batch_memory.py [--logs 100000] [--sizes 1000,10000,100000]
                                           [--executors serial,local] [--jobs 2] [--dir DIR]

It writes ``--logs`` small synthetic Battle Card logs (the opening lines of self-played
games, 2 to 8 actions each; a few break a rule, a few are not text) in folders of 1,000, like
an archive, then replays the first N of them for each N in ``--sizes`` and each executor, each
run in a fresh child process.  The child reports its own peak resident set size
(``resource.getrusage(RUSAGE_SELF)``) before the batch (after the imports) and after it, and
asks each worker process for its own peak once the batch is done.  The rows go to a JSON
Lines file as in ``referee batch --out``.

With ``--dir`` the logs are kept there and reused on the next run.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PER_FOLDER = 1000


def write_logs(folder: Path, count: int) -> None:
    from referee.core.selfplay import play_game, random_policy
    from referee.games import engine_for

    engine = engine_for("battle-card")
    texts: list[bytes] = []
    for i in range(61):
        record = play_game(engine, f"memory-{i}", random_policy, keep_log=True)
        assert record.log is not None
        lines = record.log.splitlines()
        texts.append(("\n".join(lines[: 3 + 2 + i % 7]) + "\n").encode())
    texts.append(b'[Game "battle-card"]\n[Seed "7"]\nairdrop\nattack Arnhem\nattack Arnhem\n')
    texts.append(b"\x00binary\x00")
    for i in range(count):
        sub = folder / f"{i // PER_FOLDER:04d}"
        if i % PER_FOLDER == 0:
            sub.mkdir(parents=True, exist_ok=True)
        (sub / f"log-{i:07d}.log").write_bytes(texts[i % len(texts)])


def peak_kib(_: int) -> int:
    """This process's peak resident set size in KiB (Linux counts ``ru_maxrss`` in KiB)."""
    time.sleep(0.05)  # long enough that every worker gets one of these jobs
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def child(arguments: list[str], executor: str, jobs: int) -> None:
    """Run one batch in this process and print what it used, as JSON."""
    from referee.batch import open_results, open_runner, run_batch

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as temp:
        with open_results(Path(temp) / "results.jsonl") as sink, \
                open_runner(executor, jobs) as runner:
            summary = run_batch(arguments, runner, on_row=sink.write)
            seconds = time.perf_counter() - start
            # Ask every worker for its own peak, while the workers are still alive.
            workers = 0 if executor == "serial" else max(
                runner.map(peak_kib, range(runner.workers * 8))
            )
        size = (Path(temp) / "results.jsonl").stat().st_size
    print(json.dumps({
        "logs": summary.logs,
        "legal": summary.statuses["legal"],
        "seconds": seconds,
        "peak_before_kib": before,
        "peak_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "worker_peak_kib": workers,
        "results_bytes": size,
    }))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--logs", type=int, default=100_000)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--executors", default="serial,local")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dir", type=Path)
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        executor, *arguments = options.child
        child(arguments, executor, options.jobs)
        return

    sizes = [int(s) for s in options.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="referee-memory-") as temp:
        folder = options.dir or Path(temp)
        existing = sum(1 for _ in folder.glob("*/*.log")) if folder.exists() else 0
        if existing < options.logs:
            start = time.perf_counter()
            write_logs(folder, options.logs)
            print(f"wrote {options.logs:,} logs in {time.perf_counter() - start:.0f} s",
                  file=sys.stderr)
        print("| logs | executor | seconds | logs/s | peak RSS before | peak RSS after | "
              "largest worker | results file |")
        print("|---:|---|---:|---:|---:|---:|---:|---:|")
        for executor in options.executors.split(","):
            for size in sizes:
                folders = sorted(folder.iterdir())[: max(1, size // PER_FOLDER)]
                command = [sys.executable, __file__, "--jobs", str(options.jobs), "--child",
                           executor, *map(str, folders)]
                done = subprocess.run(command, check=True, capture_output=True, text=True)
                data = json.loads(done.stdout)
                assert data["logs"] == size, (data, size)
                worker = data["worker_peak_kib"] / 1024 if executor != "serial" else 0
                print(f"| {size:,} | {executor} | {data['seconds']:.1f} "
                      f"| {size / data['seconds']:,.0f} "
                      f"| {data['peak_before_kib'] / 1024:.1f} MiB "
                      f"| {data['peak_kib'] / 1024:.1f} MiB "
                      f"| {f'{worker:.1f} MiB' if worker else '-'} "
                      f"| {data['results_bytes'] / 1e6:.1f} MB |", flush=True)


if __name__ == "__main__":
    main()
