"""Benchmark: complete random Eindhoven Bridge games per second on one core, every invariant
checked after every command; and the replay of a complete game in a fresh process.

    .venv/bin/python bench/koenig_selfplay.py [--games 20] [--repeat 3] [--runs 5]
                                              [--log LOG] [--profile]

Self-play is what ``referee simulate koenig-eindhoven --policy random --check-every 1``
does: the core's ``play_game`` (seeds ``bench-0`` ... ``bench-N-1``), the engine's own random
draw (``legal.random_legal``: ``end`` one time in eight, else a unit or the fire attacks,
then one of its commands), ``invariants`` after every command.  The figure is CPU time of
this process, the best of ``--repeat`` runs, and the wall time of that run.  The machine is
shared: wall time runs at 1-3 times the CPU time, and even CPU time grows by half when every
core is busy; so each run is taken in turns with an anchor, a fixed pure-Python workload of
the same kind (200 cheapest-path searches with ``heapq`` on a 12x12 grid dict), and the
script prints the ratio of one game's CPU time to the anchor's: it stays put when the
machine slows down.  ``--profile`` prints the top functions.

The replay is ``referee replay LOG`` in a new interpreter, start included, ``--runs`` times,
in turns with the anchor ``python -c "import lark, click, rich, pydantic"`` (the libraries
alone): the wall time of each replay, the median, the median CPU time of the child and its
ratio to the anchor's.  The package's bytecode is compiled first, as pip compiles an
installed wheel (a checkout run with PYTHONDONTWRITEBYTECODE set would otherwise compile
every module of its own at every start, as ``bench/check_startup.py`` explains).  LOG defaults to
``logs/koenig-eindhoven/complete-game.log``; where that is missing, a complete self-played
10-turn game (seed ``bench-replay``) is written to a temporary file and replayed.
"""

from __future__ import annotations

import argparse
import compileall
import cProfile
import heapq
import pstats
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import referee
from referee.core.selfplay import play_game, random_policy
from referee.games.koenig_eindhoven.engine import ENGINE

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "logs" / "koenig-eindhoven" / "complete-game.log"


def anchor() -> float:
    """CPU seconds of the anchor workload (see the module's docstring)."""
    size = 12
    grid = {(x, y): 1 + (x * 7 + y * 3) % 4 for x in range(size) for y in range(size)}
    steps = {
        (x, y): [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                 if (x + dx, y + dy) in grid]
        for x, y in grid
    }
    start = time.process_time()
    for search in range(200):
        origin = (search % size, (search // size) % size)
        best: dict[tuple[int, int], int] = {}
        queue = [(0, origin)]
        while queue:
            cost, here = heapq.heappop(queue)
            if here in best:
                continue
            best[here] = cost
            for there in steps[here]:
                if there not in best:
                    heapq.heappush(queue, (cost + grid[there], there))
    return time.process_time() - start


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


def child(command: list[str]) -> tuple[float, float, subprocess.CompletedProcess[str]]:
    """Wall and CPU seconds (user + system) of ``command`` in a new process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, done


def replay_runs(log: Path, runs: int) -> tuple[list[float], list[float], list[float]]:
    """Wall and CPU seconds of ``referee replay LOG`` in a new process, ``runs`` times, and
    the CPU seconds of the anchor taken in turns with it."""
    referee = Path(sys.executable).parent / "referee"
    walls: list[float] = []
    cpus: list[float] = []
    anchors: list[float] = []
    for _ in range(runs):
        anchors.append(child([sys.executable, "-c", "import lark, click, rich, pydantic"])[1])
        wall, cpu, done = child([str(referee), "replay", str(log)])
        walls.append(wall)
        cpus.append(cpu)
        if done.returncode != 0:
            sys.exit(f"the replay of {log} failed (exit {done.returncode}):\n"
                     f"{done.stdout[-1500:]}{done.stderr[-1500:]}")
    return walls, cpus, anchors


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
    runs = []
    units = []
    for _ in range(max(1, args.repeat)):
        units.append(anchor())
        runs.append(selfplay(args.games))
    units.append(anchor())
    cpu, wall, commands = min(runs)
    unit = min(units)
    print(f"random self-play, every invariant after every command: {args.games} complete "
          f"games, {commands / args.games:.0f} commands a game; best of {args.repeat}: "
          f"{cpu:.2f} s CPU = {args.games / cpu:.1f} games/s "
          f"(wall {wall:.2f} s = {args.games / wall:.1f} games/s); a game's CPU time is "
          f"{cpu / args.games / unit:.2f}x the anchor's {unit * 1000:.0f} ms")

    log = args.log or LOG
    with tempfile.TemporaryDirectory() as folder:
        if not log.exists():
            record = play_game(ENGINE, "bench-replay", random_policy, keep_log=True)
            assert record.log is not None and record.result is not None
            log = Path(folder) / "koenig-eindhoven-bench-replay.log"
            log.write_text(record.log, encoding="utf-8")
            print(f"({LOG.relative_to(ROOT)} is missing: a self-played complete game instead)")
        lines = len(log.read_text(encoding="utf-8").splitlines())
        compileall.compile_dir(Path(referee.__file__).parent, quiet=1)
        walls, cpus, anchors = replay_runs(log, args.runs)
    cpu, imports = statistics.median(cpus), statistics.median(anchors)
    print(f"referee replay {log.name} ({lines} lines), whole process: wall (s) "
          + " ".join(f"{t:.2f}" for t in walls)
          + f"; median {statistics.median(walls):.2f} s wall, {cpu:.2f} s CPU, "
          f"{cpu / imports:.1f}x the bare import's {imports:.2f} s")


if __name__ == "__main__":
    main()
