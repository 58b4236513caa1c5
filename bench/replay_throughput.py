"""Replay throughput against Lark's parse-only throughput, on the same logs.

    .venv/bin/python bench/replay_throughput.py [GAMES]

Makes GAMES self-played Battle Card logs (seeded, with their dice recorded), then measures
lines per second for (1) Lark parsing each line with the Battle Card grammar and nothing else,
and (2) the referee's whole replay: parsing, names, dice checked against the stream, rules.
"""

from __future__ import annotations

import sys
import time

from referee.core.grammar import game_parser
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.core.selfplay import play_game
from referee.games.battle_card import ENGINE


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000
    greedy = ENGINE.policies["greedy"]
    logs = [play_game(ENGINE, f"t-{i}", greedy, keep_log=True).log or "" for i in range(games)]
    lines = [line for log in logs for line in log.splitlines() if line.strip()]
    parser = game_parser(ENGINE.grammar)

    start = time.perf_counter()
    for line in lines:
        parser.parse(line)
    parse_only = len(lines) / (time.perf_counter() - start)

    start = time.perf_counter()
    problems = 0
    for log in logs:
        problems += len(replay(parse_log(log), ENGINE).problems)
    full = len(lines) / (time.perf_counter() - start)
    assert problems == 0, "the self-played logs must replay cleanly"

    print(f"{games} logs, {len(lines)} lines")
    print(f"Lark parse only : {parse_only:10,.0f} lines/s")
    print(f"referee replay  : {full:10,.0f} lines/s  ({full / parse_only:.0%} of parse-only)")


if __name__ == "__main__":
    main()
