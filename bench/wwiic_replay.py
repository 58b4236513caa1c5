"""Benchmark: replaying a complete 13-turn WWII Commander game log in a fresh process
(interpreter start included).  The target is under 1 s wall.

    .venv/bin/python bench/wwiic_replay.py [RUNS] [LOG]

The default log is ``logs/wwiic/full-game-draw.log``: 13 game-turns, ~450 lines, with
combats, retreats, breakthroughs, supply checks, reinforcements, replacements and the final
victory determination.  Each run is ``referee replay --json LOG`` in a new interpreter; the
script prints each wall time and the median.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOG = ROOT / "logs" / "wwiic" / "full-game-draw.log"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    log = Path(sys.argv[2]) if len(sys.argv) > 2 else LOG
    lines = len(log.read_text(encoding="utf-8").splitlines())
    referee = Path(sys.executable).parent / "referee"
    times: list[float] = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([str(referee), "replay", "--json", str(log)],
                              capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            print(f"the replay failed: exit {done.returncode}\n{done.stderr[-2000:]}")
            sys.exit(1)
    print(f"{log.name}: {lines} lines; replay wall (s): "
          + " ".join(f"{t:.3f}" for t in times) + f"; median {statistics.median(times):.3f}")


if __name__ == "__main__":
    main()
