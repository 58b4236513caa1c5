"""Benchmark: WWII Commander legal() for a full side at the opening position.

The opening position is the one after the Red Devils move out (3.H): the Allied player's
first impulse of Game-turn 1, every unit of the side unspent.  The German side is measured
too (its first impulse, after one Allied activation).  The target is under 20 ms.

    .venv/bin/python bench/wwiic_legal.py [repeats]
"""

from __future__ import annotations

import statistics
import sys
import time

from referee.core.dice import DiceTray
from referee.games.wwiic.commands import Activate, Command, MoveOut, UnitMove
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import WState


def measure(state: WState, repeats: int) -> tuple[int, float, float, float]:
    """Commands listed; best and median wall time; best CPU time (ms)."""
    ENGINE.legal(state)  # warm the caches (board, distances)
    walls: list[float] = []
    cpus: list[float] = []
    count = 0
    for _ in range(repeats):
        wall, cpu = time.perf_counter(), time.process_time()
        count = len(ENGINE.legal(state))
        cpus.append(time.process_time() - cpu)
        walls.append(time.perf_counter() - wall)
    return count, min(walls) * 1000, statistics.median(walls) * 1000, min(cpus) * 1000


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    start = time.perf_counter()
    state = ENGINE.setup(None, {})
    print(f"board and opening: {(time.perf_counter() - start) * 1000:.1f} ms (once per process)")
    move_out: Command = MoveOut(UnitMove("1P/1AB", ("Renkum",), start="Heelsum"))
    ENGINE.apply(state, move_out, DiceTray(None))
    count, best, median, cpu = measure(state, repeats)
    print(f"Allied, opening: {count} commands; legal() best {best:.2f} ms, median "
          f"{median:.2f} ms, best CPU {cpu:.2f} ms (target < 20 ms)")
    ENGINE.apply(state, Activate((UnitMove("505/82", ()),)), DiceTray(None))
    count, best, median, cpu = measure(state, repeats)
    print(f"German, opening: {count} commands; legal() best {best:.2f} ms, median "
          f"{median:.2f} ms, best CPU {cpu:.2f} ms (target < 20 ms)")


if __name__ == "__main__":
    main()
