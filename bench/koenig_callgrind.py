"""Eindhoven Bridge replay, for callgrind: every bundled log (scenario files' logs left out)
and GAMES self-played ones (``heavy_replay.py``'s, default 0), each parsed with an empty line
memo and replayed, ``ROUNDS`` times (default 1).  One
round's instructions are those of 2 rounds less those of 1 (the interpreter start, the
imports, the board and the first reading of each table left out).  Run it from the
checkout (the logs are read from ``logs/koenig-eindhoven`` under the current directory, so a
copy of the script runs the code before a change on ``PYTHONPATH`` against the same logs).

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/k.cg \\
        .venv/bin/python bench/koenig_callgrind.py [ROUNDS [GAMES]]
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee.core import parsing
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.core.selfplay import play_game, random_policy
from referee.games import engine_for


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    engine = engine_for("koenig-eindhoven")
    logs = [(path.name, path.read_text(encoding="utf-8"))
            for path in sorted(Path("logs", "koenig-eindhoven").glob("*.log"))]
    for i in range(games):  # as bench/heavy_replay.py plays them
        log = play_game(engine, f"bench-{i}", random_policy, keep_log=True, check=False).log
        logs.append((f"self-play-{i}", log or ""))
    for _ in range(rounds):
        for name, text in logs:
            parsing._memos.clear()  # every log read as at a new start
            replay(parse_log(text, name, engine=engine), engine)


if __name__ == "__main__":
    main()
