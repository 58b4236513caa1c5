"""Benchmark: WWII Commander ``legal()``, the first page of answers at every position.

    .venv/bin/python bench/wwiic_legal.py [--games 20] [--page 500] [--repeat 1]

``legal()`` yields lazily (each unit alone, the pass, then the pairs), and what a player is
shown (``pending``, ``moves``, ``status``, the play-by-e-mail table) is its first ``--page``
answers.  This takes every position of logs/wwiic/full-game-draw.log and of ``--games``
self-played games (random policy), times the first page at each (CPU time of this process)
and prints the worst, with where it was; the target is under 20 ms.  For
comparison it also times listing every answer at the worst few positions.

On a machine shared with other work a position's time is sometimes stretched by what else
runs, and a busy spell lasts seconds; ``--repeat 3`` times every position in three rounds,
one after the other over all the positions, and keeps each position's best (as ``timeit``
does): one busy spell does not fall on all three timings of a position, so this measures
what legal() costs rather than the machine's busiest moments.  Each round's own worst is
printed too.
``--worst FILE`` writes the slowest positions (a pickle of where and the state) for
profiling them one by one.
"""

from __future__ import annotations

import argparse
import gc
import pickle
import time
from itertools import islice
from pathlib import Path
from typing import Any

from referee.core.log import Entry
from referee.core.parsing import parse_log
from referee.core.replay import Replayer
from referee.core.selfplay import play_game, random_policy
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import WState

ROOT = Path(__file__).resolve().parent.parent


class Positions(Replayer):
    """A replay that keeps a copy of the state after every line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.states: list[tuple[int, WState]] = []

    def _entry(self, entry: Entry) -> None:
        super()._entry(entry)
        self.states.append((entry.number, ENGINE.copy(self.report.state)))


def positions(text: str, source: str) -> list[tuple[str, WState]]:
    replayer = Positions(parse_log(text, source, engine=ENGINE), ENGINE)
    replayer.run()
    return [(f"{source}:{line}", state) for line, state in replayer.states
            if ENGINE.to_act(state) is not None]


def first_page(state: WState, page: int) -> tuple[int, float]:
    """How many of the first ``page`` answers there are, and the CPU time they took."""
    start = time.process_time()
    count = len(list(islice(ENGINE.legal(state), page)))
    return count, time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--page", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=1,
                        help="time every position in this many rounds and keep each one's best")
    parser.add_argument("--worst", type=Path,
                        help="write the 100 slowest positions here (pickle of where, state)")
    args = parser.parse_args()
    log = ROOT / "logs" / "wwiic" / "full-game-draw.log"
    found = positions(log.read_text(), "full-game-draw.log")
    for i in range(args.games):
        record = play_game(ENGINE, f"legal-{i}", random_policy, keep_log=True)
        assert record.log is not None
        found += positions(record.log, f"self-play-{i}")
    ENGINE.legal(ENGINE.setup(None, {}))  # the board and its caches, once per process
    # The thousands of positions kept here are the benchmark's, not legal()'s: moved out of
    # the garbage collector's sight, so that a full collection over them does not land in
    # one position's timing (legal()'s own garbage is still collected).
    gc.collect()
    gc.freeze()
    best = [float("inf")] * len(found)
    counts = [0] * len(found)
    for round_ in range(args.repeat):
        worst = 0.0
        for i, (_, state) in enumerate(found):
            counts[i], seconds = first_page(state, args.page)
            best[i] = min(best[i], seconds)
            worst = max(worst, seconds)
        if args.repeat > 1:
            print(f"round {round_ + 1}: worst {worst * 1000:.2f} ms")
    timed = [(best[i], counts[i], where, state) for i, (where, state) in enumerate(found)]
    timed.sort(key=lambda t: t[0], reverse=True)
    total = sum(t[0] for t in timed)
    if args.worst is not None:
        args.worst.write_bytes(pickle.dumps([(t[2], t[3]) for t in timed[:100]]))
    repeats = f" (best of {args.repeat} rounds)" if args.repeat > 1 else ""
    print(f"{len(timed)} positions; the first {args.page} answers of legal(){repeats}: "
          f"mean {total / len(timed) * 1000:.2f} ms, worst {timed[0][0] * 1000:.2f} ms "
          f"at {timed[0][2]} ({timed[0][1]} answers) - target under 20 ms; "
          f"{sum(1 for t in timed if t[0] >= 0.020)} positions at 20 ms or more")
    for seconds, count, where, state in timed[:3]:
        start = time.process_time()
        every = sum(1 for _ in ENGINE.legal(state))
        whole = time.process_time() - start
        print(f"  {where}: first {count} in {seconds * 1000:.2f} ms; all {every:,} answers "
              f"in {whole * 1000:.1f} ms")


if __name__ == "__main__":
    main()
