"""Benchmark: complete random Eindhoven Bridge games per second on one core, every invariant
checked after every command; and the replay of a complete game in a fresh process.

    .venv/bin/python bench/koenig_selfplay.py [--games 20] [--repeat 3] [--runs 5]
                                              [--log LOG] [--profile]

Self-play is what ``referee simulate koenig-eindhoven --policy random --check-every 1``
does: the core's ``play_game`` (seeds ``bench-0`` ... ``bench-N-1``), the engine's own random
draw (``legal.random_legal``: ``end`` one time in eight, else a unit or the fire attacks,
then one of its commands), ``invariants`` after every command.  The figure is CPU time of
this process (the machine is shared: wall time runs at 1-3 times it), the best of
``--repeat`` runs, and the wall time of that run.  ``--profile`` prints the top functions.

The replay is ``referee replay LOG`` in a new interpreter, start included, ``--runs`` times:
the wall time of each, the median, and the median CPU time of the child.  LOG defaults to
``logs/koenig-eindhoven/complete-game.log``; where that is missing, a complete self-played
10-turn game (seed ``bench-replay``) is written to a temporary file and replayed.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.core.selfplay import play_game, random_policy
from referee.games.koenig_eindhoven.engine import ENGINE

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "logs" / "koenig-eindhoven" / "complete-game.log"


def selfplay(games: int) -> tuple[float, float, int]:
    """CPU seconds, wall seconds and commands of ``games`` complete checked games."""
    commands = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in range(games):
        record = play_game(ENGINE, f"bench-{seed}", random_policy, check=True)
        assert not record.broken, record.broken
        assert record.result is not None, f"bench-{seed} did not end"
        commands += record.commands
    return time.process_time() - cpu, time.perf_counter() - wall, commands


def replay_runs(log: Path, runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``referee replay LOG`` in a new process, ``runs`` times."""
    referee = Path(sys.executable).parent / "referee"
    walls: list[float] = []
    cpus: list[float] = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run([str(referee), "replay", str(log)], capture_output=True,
                              text=True, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            sys.exit(f"the replay of {log} failed (exit {done.returncode}):\n"
                     f"{done.stdout[-1500:]}{done.stderr[-1500:]}")
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--runs", type=int, default=5, help="replays of the complete game")
    parser.add_argument("--log", type=Path, default=None)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    ENGINE.setup(None, {})  # the board and its tables, before timing
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        selfplay(args.games)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    best = min((selfplay(args.games) for _ in range(max(1, args.repeat))),
               key=lambda run: run[0])
    cpu, wall, commands = best
    print(f"random self-play, every invariant after every command: {args.games} complete "
          f"games, {commands / args.games:.0f} commands a game; best of {args.repeat}: "
          f"{cpu:.2f} s CPU = {args.games / cpu:.1f} games/s "
          f"(wall {wall:.2f} s = {args.games / wall:.1f} games/s)")

    log = args.log or LOG
    with tempfile.TemporaryDirectory() as folder:
        if not log.exists():
            record = play_game(ENGINE, "bench-replay", random_policy, keep_log=True)
            assert record.log is not None and record.result is not None
            log = Path(folder) / "koenig-eindhoven-bench-replay.log"
            log.write_text(record.log, encoding="utf-8")
            print(f"({LOG.relative_to(ROOT)} is missing: a self-played complete game instead)")
        lines = len(log.read_text(encoding="utf-8").splitlines())
        walls, cpus = replay_runs(log, args.runs)
    print(f"referee replay {log.name} ({lines} lines), whole process: wall (s) "
          + " ".join(f"{t:.2f}" for t in walls)
          + f"; median {statistics.median(walls):.2f} s wall, "
          f"{statistics.median(cpus):.2f} s CPU")


if __name__ == "__main__":
    main()
