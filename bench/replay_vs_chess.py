"""Replay throughput of self-played Battle Card logs, against python-chess reading PGN.

    .venv/bin/pip install -e '.[bench]'      # python-chess, for this script only
    .venv/bin/python bench/replay_vs_chess.py [--logs 1000] [--games 300] [--rounds 3]

Makes ``--logs`` self-played Battle Card logs (seeded, every die recorded, as
``referee simulate --keep-logs`` writes them) and ``--games`` random legal chess games as PGN
(python-chess plays them from a fixed seed).  Then, in turns for ``--rounds`` rounds, it times
(CPU time of this process) the referee reading and replaying every log (``parse_log`` and
``replay``: parsing, names, dice checked against the stream, rules) and python-chess reading
every game (``chess.pgn.read_game``: parsing and validating each move on a board).  It prints
the best round of each: lines/s for the referee, plies/s for python-chess, and their ratio.
The referee remembers the lines it has read (most lines repeat, across logs too); it is also
timed with that memo emptied before each log, the figure for a single log read alone.
Targets: at least 15,000 lines/s, and at least half of python-chess's rate.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time

from referee.core import parsing
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.core.selfplay import play_game, random_policy
from referee.games.battle_card import ENGINE

try:
    import chess
    import chess.pgn
except ImportError:  # pragma: no cover - a bench-only extra
    sys.exit("python-chess is missing: .venv/bin/pip install -e '.[bench]'")


def battle_card_logs(count: int) -> list[str]:
    logs = []
    for i in range(count):
        record = play_game(ENGINE, f"chess-anchor-{i}", random_policy, keep_log=True)
        assert record.log is not None
        logs.append(record.log)
    return logs


def chess_games(count: int) -> list[str]:
    rng = random.Random(1944)
    games = []
    for _ in range(count):
        board = chess.Board()
        for _ in range(rng.randint(40, 120)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        games.append(str(chess.pgn.Game.from_board(board)))
    return games


def replay_all(logs: list[str], *, fresh_memo: bool = False) -> float:
    start = time.process_time()
    for text in logs:
        if fresh_memo:
            parsing._memos.clear()
        report = replay(parse_log(text, "bench.log", engine=ENGINE), ENGINE)
        assert report.ok, report.problems[:1]
    return time.process_time() - start


def read_all(games: list[str]) -> float:
    start = time.process_time()
    for text in games:
        game = chess.pgn.read_game(io.StringIO(text))
        assert game is not None and not game.errors
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=1000)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    logs = battle_card_logs(args.logs)
    games = chess_games(args.games)
    lines = sum(1 for text in logs for line in text.splitlines() if line.strip())
    plies = sum(len(list(chess.pgn.read_game(io.StringIO(g)).mainline_moves()))  # type: ignore[union-attr]
                for g in games)
    referee_times, cold_times, chess_times = [], [], []
    for _ in range(args.rounds):
        referee_times.append(replay_all(logs))
        cold_times.append(replay_all(logs, fresh_memo=True))
        chess_times.append(read_all(games))
    referee_rate = lines / min(referee_times)
    chess_rate = plies / min(chess_times)
    print(f"referee: {args.logs} Battle Card logs, {lines:,} lines: "
          f"{referee_rate:,.0f} lines/s (CPU, best of {args.rounds})")
    print(f"  each log with a fresh line memo (no line remembered from another log): "
          f"{lines / min(cold_times):,.0f} lines/s")
    print(f"python-chess {chess.__version__}: {args.games} PGN games, {plies:,} plies: "
          f"{chess_rate:,.0f} plies/s read and validated")
    print(f"referee / python-chess: {referee_rate / chess_rate:.2f} "
          f"(targets: 15,000 lines/s and at least 0.5)")


if __name__ == "__main__":
    main()
