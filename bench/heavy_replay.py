"""Replay lines per second of one game against Lark's parse-only floor of the same logs.

    .venv/bin/python bench/heavy_replay.py GAME [--games 5] [--rounds 5] [--before DIR]

The logs: the game's bundled logs and GAMES self-played ones (seeded, dice recorded).  Each
round measures, in this process's CPU time, (1) Lark parsing every line that is not blank or
a comment with the game's grammar, nothing else, and (2) the referee's whole replay of the
same logs (``parse_log`` with an empty line memo, then ``replay``: names, dice, rules).  It
prints the best and the median of the rounds, the ratio of replay to parse-only, and the load
of the machine (``os.getloadavg``) when it started and ended.

``--before DIR``: the code in DIR (a checkout or an unpacked commit holding ``referee/``)
replays the very same log texts in a worker process of its own, and each round times it
right after this code (in turns: this code first in odd rounds, the worker first in even
ones), so both are measured in the same minutes; it prints the worker's figures and the
ratio of this code's lines/s to the worker's, by best, by median and by the median of the
rounds' own ratios.  The logs are made (self-played) by this code, once, for both.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from referee.core import parsing
from referee.core.grammar import game_parser
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.core.selfplay import play_game, random_policy
from referee.games import engine_for

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"battle-card": "battle-card", "wwiic": "wwiic", "arnhem44": "arnhem44",
           "koenig-eindhoven": "koenig-eindhoven"}


def logs_of(game: str, games: int) -> list[tuple[str, str]]:
    """(name, text) of the bundled logs of ``game`` (not those beside a scenario file) and of
    ``games`` self-played ones."""
    engine = engine_for(game)
    found = [(path.name, path.read_text(encoding="utf-8"))
             for path in sorted((ROOT / "logs" / FOLDERS[game]).glob("*.log"))]
    for i in range(games):
        log = play_game(engine, f"bench-{i}", random_policy, keep_log=True, check=False).log
        found.append((f"self-play-{i}", log or ""))
    return found


def replay_all(engine: Any, logs: list[tuple[str, str]]) -> float:
    """The CPU time of one round: every log read with an empty line memo, then replayed."""
    start = time.process_time()
    for name, text in logs:
        parsing._memos.clear()  # every log read as the referee reads it at a new start
        replay(parse_log(text, name, engine=engine), engine)
    return time.process_time() - start


def worker(game: str, path: str) -> None:
    """``--before``'s worker: the logs in ``path`` (JSON), one round per line read on stdin,
    its CPU time printed."""
    engine = engine_for(game)
    logs = [(name, text) for name, text in json.loads(Path(path).read_text(encoding="utf-8"))]
    replay_all(engine, logs)  # warm, as the rounds of this code are by the Lark round
    print("ready", flush=True)
    for _ in sys.stdin:
        print(replay_all(engine, logs), flush=True)


class Before:
    """The worker on the code before, fed the same logs."""

    def __init__(self, game: str, folder: Path, logs: list[tuple[str, str]]) -> None:
        handle, self.path = tempfile.mkstemp(suffix=".json")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(logs, out)
        env = dict(os.environ, PYTHONPATH=str(folder.resolve()))
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", game, self.path],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
            cwd=tempfile.gettempdir())  # not this checkout: PYTHONPATH's referee/ is read
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        if self.stdout.readline().strip() != "ready":
            raise SystemExit(f"the worker on {folder} did not start")

    def round(self) -> float:
        self.stdin.write("go\n")
        self.stdin.flush()
        return float(self.stdout.readline())

    def close(self) -> None:
        self.stdin.close()
        self.process.wait()
        os.unlink(self.path)


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        worker(sys.argv[2], sys.argv[3])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(FOLDERS))
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", type=Path,
                        help="a folder holding the code before (its referee/), timed in turns")
    args = parser.parse_args()
    load = os.getloadavg()
    engine = engine_for(args.game)
    logs = logs_of(args.game, args.games)
    lines = [line.rstrip("\r") for _, text in logs for line in text.splitlines()
             if line.strip() and not line.strip().startswith("#")]
    lark = game_parser(engine.grammar)
    before = Before(args.game, args.before, logs) if args.before is not None else None
    parse_times, replay_times, before_times = [], [], []
    try:
        for round_ in range(args.rounds):
            start = time.process_time()
            for line in lines:
                with contextlib.suppress(Exception):  # a line of an illegal-... log may not parse
                    lark.parse(line)
            parse_times.append(time.process_time() - start)
            if before is not None and round_ % 2:
                before_times.append(before.round())
            replay_times.append(replay_all(engine, logs))
            if before is not None and not round_ % 2:
                before_times.append(before.round())
    finally:
        if before is not None:
            before.close()
    n = len(lines)
    best_parse, best_replay = n / min(parse_times), n / min(replay_times)
    median_parse = n / statistics.median(parse_times)
    median_replay = n / statistics.median(replay_times)
    print(f"{args.game}: {len(logs)} logs, {n:,} lines, {args.rounds} rounds, CPU time; load "
          f"{load[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    print(f"  Lark parse-only  best {best_parse:>9,.0f} lines/s   median {median_parse:>9,.0f}")
    print(f"  replay           best {best_replay:>9,.0f} lines/s   median {median_replay:>9,.0f}")
    print(f"  replay / parse-only: best {best_replay / best_parse:.2f}x, median "
          f"{median_replay / median_parse:.2f}x")
    if before_times:
        best_before, median_before = n / min(before_times), n / statistics.median(before_times)
        paired = statistics.median(b / r for b, r in zip(before_times, replay_times,
                                                           strict=True))
        print(f"  before ({args.before}) best {best_before:>9,.0f} lines/s   median "
              f"{median_before:>9,.0f}")
        print(f"  replay / before: best {best_replay / best_before:.2f}x, median "
              f"{median_replay / median_before:.2f}x, rounds' own ratios (median) "
              f"{paired:.2f}x")


if __name__ == "__main__":
    main()
