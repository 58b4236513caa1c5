"""Benchmark: complete random Arnhem '44 games per second, on one core, every invariant checked
after every command (figures conserved, at most 9 per side per sector, bridge points, supply
tokens), and where the time goes.

    .venv/bin/python bench/arnhem44_selfplay.py [GAMES] [--profile] [--option NAME]

Games are played as ``referee simulate arnhem44 --policy random`` does: the core's
``play_game``, the engine drawing each random legal command itself (``policy.py``: a figure,
then one of its moves).  The figure reported is CPU time (the machine may be shared), with the
wall time beside it.  The target is at least 5 complete games/s.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time

from referee.core.selfplay import play_game, random_policy
from referee.games.arnhem44.engine import ENGINE


def run(games: int, options: dict[str, str]) -> tuple[float, float, int]:
    commands = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for seed in range(games):
        record = play_game(ENGINE, f"bench-{seed}", random_policy, options=options)
        assert not record.broken, record.broken
        assert record.result is not None, record.reason
        commands += record.commands
    return time.process_time() - cpu, time.perf_counter() - wall, commands


def main() -> None:
    args = sys.argv[1:]
    options = {args[i + 1]: "on" for i, a in enumerate(args) if a == "--option"}
    numbers = [a for a in args if a.isdigit()]
    games = int(numbers[0]) if numbers else 20
    ENGINE.setup(None, {})  # load the board before timing
    if "--profile" in args:
        profiler = cProfile.Profile()
        profiler.enable()
        cpu, wall, commands = run(games, options)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    else:
        cpu, wall, commands = run(games, options)
    print(f"referee simulate arnhem44 --policy random{''.join(' +' + o for o in options)}: "
          f"{games} complete games, every invariant after every command: "
          f"{games / cpu:.2f} games/s per core (CPU {cpu:.2f} s, wall {wall:.2f} s), "
          f"{commands / games:.0f} commands per game (target >= 5 games/s)")


if __name__ == "__main__":
    main()
