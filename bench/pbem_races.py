"""Races and crashes of 'referee play': concurrent pairs (lost updates) and kill -9 (torn or
lost logs), each in real processes.

    .venv/bin/python bench/pbem_races.py [--pairs 50] [--kills 50] [--seed 1]

Pairs: two 'referee play' start at once on one fresh seeded Battle Card log, one with
'attack Eindhoven', the other with 'defend Grave' (both legal in either order).  A lost
update is a play that exited 0 ("saved") whose line is not in the log afterwards.

Kills: one 'referee play' on a log with moves already, killed with SIGKILL after a random
delay (50-110 % of the time the play before it took: before, during and after its write).
Torn: the log afterwards is neither
the old text nor a whole new log that verifies.  Lost: the old moves are not all there.  Then
the next 'play' must work (a lock left by the killed process is stale and broken) and leave
no stray temporary file.

Prints one line per figure.  Bounded: at most a few seconds per pair or kill.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START = '[Game "battle-card"]\n[Dice "v1"]\n[Seed "race-{n}"]\n'
MOVES = ("attack Eindhoven", "defend Grave")
TIMEOUT = 60


def referee(*args: str | Path) -> list[str]:
    return [sys.executable, "-m", "referee", *map(str, args)]


def prepare(folder: Path, n: int) -> Path:
    log = folder / f"race-{n}.log"
    log.write_text(START.format(n=n))
    return log


def pair(folder: Path, n: int) -> tuple[int, int, int]:
    """(plays that said saved, of those the lines missing, plays refused)."""
    log = prepare(folder, n)
    procs = [subprocess.Popen(referee("play", log, move), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for move in MOVES]
    codes = [p.wait(timeout=TIMEOUT) for p in procs]
    text = log.read_text()
    saved = [move for move, code in zip(MOVES, codes, strict=True) if code == 0]
    lost = sum(1 for move in saved if f"allied: {move} {{" not in text)
    return len(saved), lost, sum(1 for code in codes if code != 0)


def kill(folder: Path, n: int, rng: random.Random) -> tuple[bool, bool, bool, bool, bool, bool]:
    """(torn, lost, next play failed, stray temporary file left, the killed play had saved,
    it left its lock behind)."""
    log = folder / f"kill-{n}.log"
    log.write_text(START.format(n=n))
    start = time.perf_counter()
    subprocess.run(referee("play", log, "attack Eindhoven"), capture_output=True,
                   timeout=TIMEOUT, check=True)
    took = time.perf_counter() - start  # how long a play takes on this machine, now
    before = log.read_text()
    proc = subprocess.Popen(referee("play", log, "defend Grave"), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0.5 * took, 1.1 * took))
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=TIMEOUT)
    after = log.read_text()
    whole = after == before or (
        after.startswith(before)
        and subprocess.run(referee("verify", log), capture_output=True,
                           timeout=TIMEOUT).returncode == 0
    )
    lost = not after.startswith(before)
    saved = after != before
    left_lock = any(p.name.endswith(".lock") for p in folder.iterdir())
    status = subprocess.run(referee("status", log, "--json"), capture_output=True, text=True,
                            timeout=TIMEOUT)
    move = json.loads(status.stdout)["next"]["choices"][0]  # any legal move: the lock matters
    nxt = subprocess.run(referee("play", log, move), capture_output=True, text=True,
                         timeout=TIMEOUT)
    if nxt.returncode != 0:
        print(f"  kill {n}: the next play said: {' '.join((nxt.stdout + nxt.stderr).split())}")
    stray = any(".referee-tmp-" in p.name or p.name.endswith(".lock")
                for p in folder.iterdir())
    for p in folder.iterdir():
        if p.name.startswith("."):
            p.unlink()
    return not whole, lost, nxt.returncode != 0, stray, saved, left_lock


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        saved = lost = refused = both = 0
        for n in range(args.pairs):
            s, lo, r = pair(folder, n)
            saved, lost, refused = saved + s, lost + lo, refused + r
            both += s == 2
        print(f"concurrent play pairs: {args.pairs}; plays saved: {saved} (both of a pair: "
              f"{both}); refused: {refused}; lost updates: {lost}")
        torn = lost_k = failed = stray = saved_k = locks = 0
        for n in range(args.kills):
            kills = folder / f"k{n}"
            kills.mkdir()
            t, lo, f, s, sv, lk = kill(kills, n, rng)
            torn, lost_k, failed, stray = torn + t, lost_k + lo, failed + f, stray + s
            saved_k, locks = saved_k + sv, locks + lk
        print(f"kill -9 during play: {args.kills} (the killed play had saved: {saved_k}; "
              f"left its lock: {locks}); torn: {torn}; lost: {lost_k}; next play refused: "
              f"{failed}; stray temporary or lock files after the next play: {stray}")


if __name__ == "__main__":
    main()
