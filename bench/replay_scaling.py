"""Replay time against log length, for each kind of line: is replay linear?

    .venv/bin/python bench/replay_scaling.py [--sizes 1000,10000,100000] [--kinds pass,turn]
                                            [--repeat 3] [--json-memory]

For each kind of line it writes a Battle Card log of N such lines after a short seeded header,
then reads and replays it (``parse_log`` and ``replay``, as ``referee replay`` does) and
measures this process's CPU time.  It prints the time per line and the ratio of times per 10x
more lines: linear replay gives about 10x (the target is at most 11x).  On a machine shared
with other work one timing is sometimes stretched by what else runs, so every log is timed
in ``--repeat`` rounds (each round times every kind and size once) and keeps its best, as
``timeit`` does.  CPython's garbage collector makes a few full passes over a 100,000-line
replay and none over a 10,000-line one (amortised it is linear: a pass comes after the heap
has grown by a quarter), so the ratio is also printed without the collector's time, taken
from ``gc.callbacks``: that is the referee's own work per line.

The kinds: ``pass`` (an action line, illegal at that step: issue 11's case), ``over`` (legal
play to the end of a game, then lines after its end), ``unreadable`` (a syntax error),
``unknown`` (a name the game does not know), ``comment``, ``turn``, ``expect`` and ``setup``
lines.

With ``--commands`` it runs ``referee check``, ``replay`` and ``status``, as text and with
``--json``, on a log of 99,990 illegal ``pass`` lines (issue 31's "log full of mistakes"),
each in a child process with its output written to a file, and prints each one's CPU time.

With ``--json-memory`` it also runs ``referee replay --json`` on the largest ``pass`` log in
a child process and prints that process's peak resident set size and its CPU time.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.battle_card import ENGINE

HEADER = '[Game "battle-card"]\n[Seed "17093953"]\n'

# A legal game that ends in a win on turn 6 (logs/battle-card/win.log).
WIN = """turn 1
attack Eindhoven; attack Grave; attack Arnhem
pass
turn 2
attack Eindhoven; attack Grave; attack Arnhem
move 30-corps Belgium->Eindhoven
turn 3
attack Grave; attack Arnhem
move 30-corps Eindhoven->Grave
turn 4
attack Arnhem
move 82nd Grave->Nijmegen
turn 5
attack Nijmegen; attack Arnhem
move 30-corps Grave->Nijmegen
turn 6
attack Arnhem
move 30-corps Nijmegen->Arnhem
"""

KINDS: dict[str, tuple[str, str]] = {
    # kind: (lines before the run, the line repeated)
    "pass": ("", "pass"),
    "over": (WIN, "attack Arnhem"),
    "unreadable": ("", "attack Arnhem {d6: }"),
    "unknown": ("", "attack Nowhere"),
    "comment": ("", "# a comment line"),
    "turn": ("", "turn 1"),
    "expect": ("", "expect cities.Arnhem.control = german"),
    "setup": ("", "setup: german Eindhoven strength 3"),
}


def log_text(kind: str, lines: int) -> str:
    """A log of ``lines`` lines in all (the referee reads up to 100,000)."""
    before, line = KINDS[kind]
    start = HEADER + before
    return start + (line + "\n") * (lines - start.count("\n"))


class CollectorTime:
    """The CPU time CPython's garbage collector takes, from its callbacks."""

    def __init__(self) -> None:
        self.total = 0.0
        self._started = 0.0
        gc.callbacks.append(self._note)

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.process_time()
        else:
            self.total += time.process_time() - self._started


COLLECTOR = CollectorTime()


def measure(text: str) -> tuple[float, float]:
    """The CPU time of reading and replaying ``text``, and the collector's part of it."""
    collected = COLLECTOR.total
    start = time.process_time()
    replay(parse_log(text, "bench.log", engine=ENGINE), ENGINE)
    return time.process_time() - start, COLLECTOR.total - collected


def json_memory(lines: int) -> None:
    referee = Path(sys.executable).with_name("referee")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pass.log"
        path.write_text(log_text("pass", lines))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([str(referee), "replay", "--json", str(path)],
                       stdout=subprocess.DEVNULL, check=False)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(f"\nreferee replay --json, {lines:,} pass lines: {cpu:.2f} s CPU, "
          f"peak RSS {after.ru_maxrss / 1024:.0f} MB")


COMMANDS = ("check", "check --json", "replay", "replay --json", "status", "status --json")


def commands(lines: int) -> None:
    """Each command a player runs on a log of ``lines`` illegal ``pass`` lines, in a child
    process, its printed text included (written to a file): CPU time, and the machine's load."""
    referee = Path(sys.executable).with_name("referee")
    print(f"\nthe commands on {lines:,} pass lines (every one refused), whole process, "
          f"output to a file, CPU time; load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "pass.log"
        path.write_text(log_text("pass", lines))
        out = Path(folder) / "out.txt"
        for command in COMMANDS:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            with out.open("wb") as sink:
                subprocess.run([str(referee), *command.split(), str(path)], stdout=sink,
                               stderr=subprocess.STDOUT, check=False)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            print(f"  referee {command:<14} {cpu:5.2f} s CPU, {cpu / lines * 1e6:5.1f} µs a "
                  f"line, {out.stat().st_size / 1e6:6.1f} MB printed")
    print(f"  (load {os.getloadavg()[0]:.1f} at the end)")


def _ratios(sizes: list[int], times: list[float]) -> list[float]:
    """The time per 10x more lines, from each size to the next."""
    return [
        times[i] / max(times[i - 1], 1e-9) * 10 / (sizes[i] / sizes[i - 1])
        for i in range(1, len(sizes))
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--repeat", type=int, default=3,
                        help="time every log in this many rounds and keep each one's best")
    parser.add_argument("--json-memory", action="store_true")
    parser.add_argument("--commands", action="store_true",
                        help="also time check, replay and status (text and --json) on the "
                             "largest pass log, printing included")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    kinds = args.kinds.split(",")
    measure(log_text("pass", 100))  # warm up: the parser is built once per process
    header = " ".join(f"{n:>11,}" for n in sizes)
    print(f"{'kind':<11} {header}   µs/line (largest)   ratio per 10x   (without the "
          "collector)")
    texts = {(kind, n): log_text(kind, n) for kind in kinds for n in sizes}
    best = dict.fromkeys(texts, (float("inf"), 0.0))
    for _ in range(args.repeat):
        for key, text in texts.items():
            best[key] = min(best[key], measure(text))
    worst = worst_own = 0.0
    for kind in kinds:
        times = [best[kind, n][0] for n in sizes]
        own = [best[kind, n][0] - best[kind, n][1] for n in sizes]
        ratios, own_ratios = _ratios(sizes, times), _ratios(sizes, own)
        worst = max([worst, *ratios])
        worst_own = max([worst_own, *own_ratios])
        cells = " ".join(f"{t:>10.3f}s" for t in times)
        shown = ", ".join(f"{r:.1f}x" for r in ratios)
        shown_own = ", ".join(f"{r:.1f}x" for r in own_ratios)
        print(f"{kind:<11} {cells}   {times[-1] / sizes[-1] * 1e6:>10.1f}          {shown}"
              f"   ({shown_own})")
    print(f"\nworst ratio per 10x lines: {worst:.1f}x (target at most 11x); without the "
          f"garbage collector's time: {worst_own:.1f}x")
    if args.json_memory:
        json_memory(sizes[-1])
    if args.commands:
        commands(sizes[-1] - 10)  # 99,990 lines: issue 31's log, under the 100,000 limit


if __name__ == "__main__":
    main()
