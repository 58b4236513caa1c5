"""Replay heavy_replay.py's logs of one game, for counting instructions under callgrind.

    PYTHONHASHSEED=0 valgrind --tool=callgrind .venv/bin/python bench/replay_rounds.py GAME N

The logs are ``heavy_replay.logs_of(GAME, 3)``: the game's bundled logs and 3 self-played
ones.  Each is read with an empty line memo and replayed once to warm up, then N more
times.  The instructions of one round are the count with N=1 less the count with N=0
(which cancels the interpreter's start, the imports, the board and the self-play that makes
the logs); the load of the machine does not move them.  To count other code, put its folder
on ``PYTHONPATH`` and run from outside this checkout.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from heavy_replay import logs_of

from referee.core import parsing
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games import engine_for


def main() -> None:
    game, rounds = sys.argv[1], int(sys.argv[2])
    engine = engine_for(game)
    logs = logs_of(game, 3)
    for _ in range(rounds + 1):
        for name, text in logs:
            parsing._memos.clear()
            replay(parse_log(text, name, engine=engine), engine)


if __name__ == "__main__":
    main()
