"""Benchmark: Arnhem '44 legal() at the opening.

Three openings are measured: the German set-up (the game's very first decision: every sector
the set-up table allows for each kind, checked by the table matching), the Allied set-up, and
the first Allied movement phase of round 1 after the bundled opening set-up (every figure's
moves, intrusions and fall backs); and the log's end, round 2's phase 1 (the batteries that
may fire, their targets within two sectors).  The target is under 20 ms each.

    .venv/bin/python bench/arnhem44_legal.py [repeats]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.state import AState

OPENING = Path(__file__).resolve().parent.parent / "logs" / "arnhem44" / "opening.log"


def measure(state: AState, repeats: int) -> tuple[int, float, float, float]:
    """Commands listed; best and median wall time; best CPU time (ms)."""
    ENGINE.legal(state)
    walls: list[float] = []
    cpus: list[float] = []
    count = 0
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        count = len(ENGINE.legal(state))
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return count, min(walls) * 1000, statistics.median(walls) * 1000, min(cpus) * 1000


def upto(line: int) -> AState:
    text = OPENING.read_text(encoding="utf-8")
    report = replay(parse_log(text, OPENING.name, engine=ENGINE), ENGINE, upto=line)
    state: AState = report.state
    return state


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    start = time.perf_counter()
    german = ENGINE.setup(None, {})
    print(f"board and opening: {(time.perf_counter() - start) * 1000:.1f} ms (once per process)")
    lines = OPENING.read_text(encoding="utf-8").splitlines()
    allied_line = next(i for i, t in enumerate(lines, 1) if t.startswith("allied: deploy")) - 1
    move_line = next(i for i, t in enumerate(lines, 1) if t.startswith("allied: move")) - 1
    for name, state in (("German set-up", german), ("Allied set-up", upto(allied_line)),
                        ("round 1, phase 4.1", upto(move_line)),
                        ("round 2, phase 1 (barrage)", upto(len(lines)))):
        count, best, median, cpu = measure(state, repeats)
        print(f"{name}: {count} commands; legal() best {best:.2f} ms, median {median:.2f} ms, "
              f"best CPU {cpu:.2f} ms ({repeats} runs; target < 20 ms)")


if __name__ == "__main__":
    main()
