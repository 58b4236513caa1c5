"""The long fuzz of the read-only commands: many grammar-aware cases, in this process through
click's ``CliRunner``; prints how many ran and every traceback signature found.

    .venv/bin/python bench/fuzz_commands.py --runs 100000 [--first SEED] [--quick]

Case i is built from seed FIRST + i (``tests/core/command_fuzz.py``), so a run is the same
on every machine and a failure is reproduced with ``--first SEED --runs 1``.  The logs are of
the four games; the commands are every one that reads a log: replay (--json, --events,
--strict, --upto, --seed), check, moves, status, verify without a secret, position, render
(to standard output and -o), view -o, fmt (and -o), map --log, play --dry-run, scenario
check.  A run that took more than --hang seconds of processor time is a hang.  Exit status 1
when any run ended in a traceback, an exit code other than 0, 1 or 2, a --json output that is
not JSON, or a hang.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.update({"COLUMNS": "100", "LINES": "50", "NO_COLOR": "1", "TERM": "dumb"})

from tests.core.command_fuzz import make_case, prepare, run_case, signature


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100_000)
    parser.add_argument("--first", type=int, default=0, help="The seed of the first case.")
    parser.add_argument("--quick", action="store_true",
                        help="The suite's mix: shorter logs, fewer text reports.")
    parser.add_argument("--show", type=int, default=1, help="Tracebacks shown per signature.")
    parser.add_argument("--hang", type=float, default=10.0,
                        help="Processor seconds past which a run is a hang.")
    args = parser.parse_args()
    found: Counter[str] = Counter()
    examples: dict[str, tuple[int, str]] = {}
    exits: Counter[int | None] = Counter()
    hangs: list[tuple[int, float, str]] = []
    slowest = (0.0, -1)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="fuzz") as name:
        folder = Path(name)
        prepare(folder)
        for i in range(args.runs):
            seed = args.first + i
            outcome = run_case(make_case(seed, quick=args.quick), folder)
            exits[outcome.exit_code] += 1
            slowest = max(slowest, (outcome.cpu, seed))
            if outcome.cpu > args.hang:
                hangs.append((seed, outcome.cpu, " ".join(outcome.case.args)))
            if outcome.error is not None:
                key = signature(outcome.error)
                found[key] += 1
                examples.setdefault(key, (seed, outcome.error))
            if (i + 1) % 1000 == 0:
                print(f"  {i + 1:,} runs, {sum(found.values())} tracebacks, "
                      f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    seconds = time.perf_counter() - start
    failures = sum(found.values())
    codes = ", ".join(f"{code}: {count:,}" for code, count in sorted(exits.items(), key=str))
    print(f"{args.runs:,} runs (seeds {args.first} to {args.first + args.runs - 1}) in "
          f"{seconds:.0f} s: {failures} tracebacks, {len(found)} signatures; exit codes {codes}; "
          f"{len(hangs)} hangs over {args.hang:g} s of processor time (slowest run "
          f"{slowest[0]:.2f} s, seed {slowest[1]})")
    for seed, cpu, line in hangs:
        print(f"  hang: seed {seed}, {cpu:.1f} s: {line}")
    for key, count in found.most_common():
        seed, error = examples[key]
        print(f"\n{count} x {key}\n  first seed {seed}")
        if args.show:
            print(error)
    sys.exit(1 if failures or hangs else 0)


if __name__ == "__main__":
    main()
