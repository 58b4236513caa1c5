"""Replay lines per second of one game against Lark's parse-only floor of the same logs.

    .venv/bin/python bench/heavy_replay.py GAME [--games 5] [--rounds 5]

The logs: the game's bundled logs and GAMES self-played ones (seeded, dice recorded).  Each
round measures, in this process's CPU time, (1) Lark parsing every line that is not blank or
a comment with the game's grammar, nothing else, and (2) the referee's whole replay of the
same logs (``parse_log`` with an empty line memo, then ``replay``: names, dice, rules).  It
prints the best and the median of the rounds, the ratio of replay to parse-only, and the load
of the machine (``os.getloadavg``) when it started and ended.  To compare two versions of the
code in the same minutes, run it alternately with each on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import time
from pathlib import Path

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(FOLDERS))
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    load = os.getloadavg()
    engine = engine_for(args.game)
    logs = logs_of(args.game, args.games)
    lines = [line.rstrip("\r") for _, text in logs for line in text.splitlines()
             if line.strip() and not line.strip().startswith("#")]
    lark = game_parser(engine.grammar)
    parse_times, replay_times = [], []
    for _ in range(args.rounds):
        start = time.process_time()
        for line in lines:
            with contextlib.suppress(Exception):  # a line of an illegal-... log may not parse
                lark.parse(line)
        parse_times.append(time.process_time() - start)
        start = time.process_time()
        for name, text in logs:
            parsing._memos.clear()  # every log read as the referee reads it at a new start
            replay(parse_log(text, name, engine=engine), engine)
        replay_times.append(time.process_time() - start)
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


if __name__ == "__main__":
    main()
