"""The interactive commands on each game's longest bundled log, against ``referee --version``.

    .venv/bin/python bench/interactive.py [--runs 5] [--source] [--before DIR] [--games ...]

Issue 31: ``referee status LOG``, ``referee moves LOG`` and ``referee play LOG MOVE
--dry-run`` take at most 5x the CPU time of ``referee --version`` measured in the same run,
and ``play --dry-run`` is no slower than ``referee replay`` of the same log.

Each figure is a whole process's CPU time (user + system of the child, from ``os.wait4``),
the median of RUNS runs taken in turns: in each round ``--version`` (the anchor), then for
each game ``status``, ``moves`` and ``replay`` of its longest bundled log, and ``play
--dry-run`` and ``replay`` of that log without its last move (a finished game has no next
move), the move being the first legal one ``referee moves --json`` lists there.

The code measured is a copy of a package (this checkout's ``referee/``, and with ``--before``
the ``referee/`` of DIR, e.g. ``/tmp/base``) put beside the checkout's ``grammar``,
``scenarios`` and ``logs`` in a temporary folder, run by a script like the console script.
By default the copy's bytecode is compiled first (``compileall``), as ``pip install`` of a
wheel compiles it; ``--source`` measures it uncompiled, every module compiled from source in
every process (what an editable install gives on a machine that sets
``PYTHONDONTWRITEBYTECODE``).  The libraries are the virtual environment's, compiled either
way.  It prints a Markdown table of medians and ratios, and the load before and after.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("arnhem44", "wwiic", "koenig-eindhoven", "battle-card")
SCRIPT = "from referee.startup import run\nrun()\n"


@dataclass
class Code:
    """One version of the package, copied into ``folder`` to be run."""

    name: str
    folder: Path
    env: dict[str, str]

    def command(self, *args: str) -> list[str]:
        return [sys.executable, str(self.folder / "referee_command.py"), *args]


@dataclass
class Case:
    game: str
    log: Path
    before_last: Path
    move: str
    times: dict[tuple[str, str], list[float]] = field(default_factory=dict)


def cpu_of(command: list[str], env: dict[str, str]) -> tuple[float, int]:
    """The CPU time (user + system) of the whole process, and its exit code."""
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             env=env, cwd=ROOT)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, child.returncode


def install(name: str, package: Path, into: Path, source: bool) -> Code:
    """A copy of ``package`` beside the bundled folders, compiled unless ``source``."""
    folder = into / name
    shutil.copytree(package, folder / "referee",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for bundled in ("grammar", "scenarios", "logs"):
        (folder / bundled).symlink_to(ROOT / bundled)
    (folder / "referee_command.py").write_text(SCRIPT, encoding="utf-8")
    if not source:
        compileall.compile_dir(folder / "referee", quiet=1)
    env = dict(os.environ, PYTHONPATH=str(folder), PYTHONDONTWRITEBYTECODE="1")
    return Code(name, folder, env)


def longest_log(game: str) -> Path:
    logs = sorted((ROOT / "logs" / game).glob("*.log"))
    return max(logs, key=lambda path: len(path.read_text(encoding="utf-8").splitlines()))


def is_action(line: str) -> bool:
    text = line.strip()
    return bool(text) and not text.startswith(("#", "[", "turn ", "expect "))


def next_move(code: Code, log: Path, into: Path) -> tuple[Path, str]:
    """``log`` cut before its last action lines until a move is listed there, and the first
    legal move ``referee moves --json`` lists (with its side)."""
    lines = log.read_text(encoding="utf-8").splitlines()
    cut = into / f"{log.parent.name}-{log.stem}-before-last.log"
    for _ in range(50):
        while lines and not is_action(lines[-1]):
            lines.pop()
        if not lines:
            break
        lines.pop()
        cut.write_text("\n".join(lines) + "\n", encoding="utf-8")
        done = subprocess.run(code.command("moves", "--json", str(cut)), env=code.env,
                              capture_output=True, text=True, check=False, cwd=ROOT)
        data = json.loads(done.stdout)
        pending = data.get("pending") or {}
        choices = list(pending.get("choices") or [])
        choices += [c for unit in data.get("units") or [] for c in unit.get("commands", ())]
        if choices and pending.get("side"):
            return cut, f"{pending['side']}: {choices[0]}" + table_dice(lines, pending)
    raise SystemExit(f"{log}: no position with a legal move near its end")


def table_dice(lines: list[str], pending: dict[str, Any]) -> str:
    """A log without a seed records the dice rolled at the table: the move writes ones."""
    needs = pending.get("dice") or []
    if not needs or any(line.startswith("[Seed ") for line in lines):
        return ""
    die = needs[0]["die"]
    faces = " ".join("1" for need in needs if need["die"] == die for _ in range(need["count"]))
    return f" {{{die}: {faces}}}"


def commands(case: Case) -> dict[str, list[str]]:
    log, cut = str(case.log), str(case.before_last)
    return {
        "status": ["status", log],
        "moves": ["moves", log],
        "replay": ["replay", log],
        "play --dry-run*": ["play", cut, case.move, "--dry-run"],
        "replay*": ["replay", cut],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--source", action="store_true",
                        help="measure the package uncompiled (no bytecode)")
    parser.add_argument("--before", type=Path,
                        help="a checkout of the code before (its referee/ is measured too)")
    parser.add_argument("--games", nargs="+", choices=GAMES, default=list(GAMES))
    args = parser.parse_args()
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="interactive-bench-") as temporary:
        into = Path(temporary)
        codes = [install("after", ROOT / "referee", into, args.source)]
        if args.before is not None:
            codes.insert(0, install("before", args.before / "referee", into, args.source))
        cases = []
        for game in args.games:
            log = longest_log(game)
            cut, move = next_move(codes[-1], log, into)
            cases.append(Case(game, log, cut, move))
        anchors: dict[str, list[float]] = {code.name: [] for code in codes}
        failed: set[str] = set()
        for _ in range(args.runs):
            for code in codes:
                anchors[code.name].append(cpu_of(code.command("--version"), code.env)[0])
                for case in cases:
                    for name, words in commands(case).items():
                        seconds, exit_code = cpu_of(code.command(*words), code.env)
                        if name.startswith("play") and exit_code != 0:
                            failed.add(f"{code.name} {case.game} {' '.join(words)}")
                        case.times.setdefault((code.name, name), []).append(seconds)
        report(args, codes, cases, anchors, load, failed)


def report(args: argparse.Namespace, codes: list[Code], cases: list[Case],
           anchors: dict[str, list[float]], load: tuple[float, float, float],
           failed: set[str]) -> None:
    bytecode = "uncompiled (--source)" if args.source else "compiled (compileall)"
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()) + ": " + " ".join(sys.argv))
    print(f"whole-process CPU time (user + system), median of {args.runs} runs in turns; "
          f"the package's bytecode {bytecode}; load {load[0]:.2f} {load[1]:.2f} "
          f"{load[2]:.2f} at the start, "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()) + " at the end")
    for case in cases:
        print(f"- {case.game}: {case.log.relative_to(ROOT)} "
              f"({len(case.log.read_text(encoding='utf-8').splitlines())} lines); * its "
              f"first {len(case.before_last.read_text(encoding='utf-8').splitlines())} "
              f"lines, playing '{case.move}'")
    print()
    print("| code | game | --version | status | moves | replay | play --dry-run* | replay* "
          "| play*/replay* |")
    print("|---|---|---|---|---|---|---|---|---|")
    for code in codes:
        anchor = statistics.median(anchors[code.name])
        for case in cases:
            cells = [f"{anchor:.3f} s"]
            medians = {name: statistics.median(case.times[(code.name, name)])
                       for name in commands(case)}
            for name in ("status", "moves", "replay", "play --dry-run*", "replay*"):
                cells.append(f"{medians[name]:.3f} s ({medians[name] / anchor:.1f}x)")
            cells.append(f"{medians['play --dry-run*'] / medians['replay*']:.2f}")
            print(f"| {code.name} | {case.game} | " + " | ".join(cells) + " |")
    for line in sorted(failed):
        print(f"play failed (exit code not 0): {line}")


if __name__ == "__main__":
    main()
