"""Wall time of ``referee check`` on a bundled log, interpreter start included.

    .venv/bin/python bench/check_startup.py [RUNS]

Runs the installed ``referee`` command in a fresh process RUNS times and prints the median
and the best wall time.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    referee = shutil.which("referee") or str(Path(sys.executable).with_name("referee"))
    command = [referee, "check", "bundled:battle-card/win.log"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    print(f"referee check bundled:battle-card/win.log over {runs} runs: "
          f"median {statistics.median(times):.3f} s, best {min(times):.3f} s")


if __name__ == "__main__":
    main()
