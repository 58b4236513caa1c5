"""Self-play speed of Battle Card: complete games per second on one core.

    .venv/bin/python bench/battle_card_selfplay.py [GAMES] [--check-every N]

Each game is played by the random policy with dice from the v1 stream, as ``referee
simulate`` plays it, in three ways taken in turns: invariants checked at the end of every game
and after every command of one game in N (``--check-every``, 10 by default, as ``simulate``
does); after every command of every game (``simulate --check-every 1``); and at the end of
every game only.  This process's CPU time is the figure to compare on a busy machine (the
wall time is shown too).  The target is 5,000 games/s per core with the sampled checks.

The anchor, timed in the same run, is a fixed pure-Python loop (``anchor()``): the games'
CPU time divided by the anchor's is the figure that the machine's load disturbs least.
"""

from __future__ import annotations

import argparse
import time

from referee.core.selfplay import play_game, random_policy
from referee.games.battle_card import ENGINE


def anchor() -> float:
    """CPU seconds of a fixed pure-Python loop (the same work on every run)."""
    start = time.process_time()
    x = 0
    for i in range(1_000_000):
        x = (x * 31 + i) % 1_000_003
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=10_000)
    parser.add_argument("--check-every", type=int, default=10)
    args = parser.parse_args()
    games, every = args.games, args.check_every
    play_game(ENGINE, "warm-up", random_policy)
    ways = {
        f"checked after every command in 1 game of {every}": every,
        "checked after every command of every game": 1,
        "checked at the end of each game only": 0,
    }
    anchors = [anchor()]
    for label, sample in ways.items():
        start, cpu = time.perf_counter(), time.process_time()
        commands = 0
        for i in range(games):
            check = sample > 0 and i % sample == 0
            record = play_game(ENGINE, f"bench-{i}", random_policy, check=check)
            assert not record.broken, record.broken
            commands += record.commands
        elapsed, used = time.perf_counter() - start, time.process_time() - cpu
        print(
            f"{games} games {label}: {games / used:,.0f} games/s CPU "
            f"({commands / used:,.0f} commands/s CPU; {games / elapsed:,.0f} games/s wall); "
            f"CPU {used:.2f} s = {used / min(anchors):.2f}x the anchor"
        )
        anchors.append(anchor())
    print(f"anchor (a fixed pure-Python loop): best {min(anchors) * 1000:.0f} ms CPU "
          f"of {len(anchors)}")


if __name__ == "__main__":
    main()
