"""Replay time against log length, for each kind of line: is replay linear?

    .venv/bin/python bench/replay_scaling.py [--sizes 1000,10000,100000] [--kinds pass,turn]
                                            [--json-memory]

For each kind of line it writes a Battle Card log of N such lines after a short seeded header,
then reads and replays it (``parse_log`` and ``replay``, as ``referee replay`` does) and
measures this process's CPU time.  It prints the time per line and the ratio of times per 10x
more lines: linear replay gives about 10x (the target is at most 11x).

The kinds: ``pass`` (an action line, illegal at that step: issue 11's case), ``over`` (legal
play to the end of a game, then lines after its end), ``unreadable`` (a syntax error),
``unknown`` (a name the game does not know), ``comment``, ``turn``, ``expect`` and ``setup``
lines.

With ``--json-memory`` it also runs ``referee replay --json`` on the largest ``pass`` log in
a child process and prints that process's peak resident set size and its CPU time.
"""

from __future__ import annotations

import argparse
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


def measure(text: str) -> float:
    start = time.process_time()
    replay(parse_log(text, "bench.log", engine=ENGINE), ENGINE)
    return time.process_time() - start


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--json-memory", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    kinds = args.kinds.split(",")
    measure(log_text("pass", 100))  # warm up: the parser is built once per process
    header = " ".join(f"{n:>11,}" for n in sizes)
    print(f"{'kind':<11} {header}   µs/line (largest)   ratio per 10x")
    worst = 0.0
    for kind in kinds:
        times = [measure(log_text(kind, n)) for n in sizes]
        ratios = []
        for i in range(1, len(sizes)):
            growth = sizes[i] / sizes[i - 1]
            ratios.append(times[i] / max(times[i - 1], 1e-9) * 10 / growth)
        worst = max([worst, *ratios])
        cells = " ".join(f"{t:>10.3f}s" for t in times)
        shown = ", ".join(f"{r:.1f}x" for r in ratios)
        print(f"{kind:<11} {cells}   {times[-1] / sizes[-1] * 1e6:>10.1f}          {shown}")
    print(f"\nworst ratio per 10x lines: {worst:.1f}x (target at most 11x)")
    if args.json_memory:
        json_memory(sizes[-1])


if __name__ == "__main__":
    main()
