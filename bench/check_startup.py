"""Start-up of ``referee check`` on a bundled log, against the bare import of its libraries.

    .venv/bin/python bench/check_startup.py [RUNS]

Runs, in turns, RUNS times each, fresh processes of (1) ``python -c "import lark, click, rich,
pydantic"`` (the anchor: the libraries alone), (2) ``referee check
bundled:battle-card/win.log``, (3) ``referee --version`` and (4) ``referee --help``, and
prints the median CPU time of each whole process (user + system, from ``RUSAGE_CHILDREN``:
the figure other processes on a shared machine disturb least) and its ratio to the anchor.
The target for (2) is at most 1.2x.

An installed referee has its bytecode compiled (pip compiles a wheel's modules when it installs
it), like the libraries of the anchor; a checkout run with PYTHONDONTWRITEBYTECODE set has none
and compiles every module of its own on every start.  So this first compiles the package's
bytecode (``compileall``, into its ``__pycache__`` folders, as pip would), then measures.
"""

from __future__ import annotations

import compileall
import resource
import statistics
import subprocess
import sys
from pathlib import Path


def cpu_of(command: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    import referee

    compileall.compile_dir(Path(referee.__file__).parent, quiet=1)
    referee = str(Path(sys.executable).with_name("referee"))
    commands = {
        "import lark, click, rich, pydantic": [
            sys.executable, "-c", "import lark, click, rich, pydantic"],
        "referee check bundled:battle-card/win.log": [
            referee, "check", "bundled:battle-card/win.log"],
        "referee --version": [referee, "--version"],
        "referee --help": [referee, "--help"],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            times[name].append(cpu_of(command))
    anchor = statistics.median(times["import lark, click, rich, pydantic"])
    print(f"whole-process CPU time, median of {runs} runs each, taken in turns")
    for name, measured in times.items():
        median = statistics.median(measured)
        print(f"  {name:<45} {median * 1000:7.1f} ms  {median / anchor:5.2f}x the anchor")
    check = statistics.median(times["referee check bundled:battle-card/win.log"])
    print(f"referee check / bare import: {check / anchor:.2f}x (target at most 1.2x)")


if __name__ == "__main__":
    main()
