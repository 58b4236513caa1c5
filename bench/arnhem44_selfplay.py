"""Benchmark: complete random Arnhem '44 games per second, on one core, every invariant checked
after every command (figures conserved, at most 9 per side per sector, bridge points, supply
tokens), and where the time goes.

    .venv/bin/python bench/arnhem44_selfplay.py [GAMES] [--repeat R] [--profile] [--option NAME]

Games are played as ``referee simulate arnhem44 --policy random`` does: the core's
``play_game``, the engine drawing each random legal command itself (``policy.py``: a figure,
then one of its moves).  The figure reported is CPU time (the machine may be shared), with the
wall time beside it.  The target is at least 10 complete games/s (issue 31; 5 before).
With ``--repeat R`` the same games are played R times and every round's figure is printed
with the best and the median: on a shared machine other work only ever adds time, so the best
round is the closest to the code's own speed (the advice of Python's ``timeit``), and the
spread says how noisy it was.
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
    repeat = 1
    if "--repeat" in args:
        repeat = int(args[args.index("--repeat") + 1])
        numbers = [a for i, a in enumerate(args) if a.isdigit() and args[i - 1] != "--repeat"]
    games = int(numbers[0]) if numbers else 20
    ENGINE.setup(None, {})  # load the board before timing
    if games == 0:  # the start-up alone: what a callgrind count of N games subtracts
        print("0 games: the board loaded, nothing played")
        return
    if "--profile" in args:
        profiler = cProfile.Profile()
        profiler.enable()
        cpu, wall, commands = run(games, options)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    elif repeat > 1:
        rates = []
        for _ in range(repeat):
            cpu, wall, commands = run(games, options)
            rates.append(games / cpu)
            print(f"  round {len(rates)}: {rates[-1]:.2f} games/s per core (CPU {cpu:.2f} s)")
        ordered = sorted(rates)
        print(f"referee simulate arnhem44 --policy random: {games} complete games x {repeat}, "
              f"every invariant after every command: best {ordered[-1]:.2f} games/s per core, "
              f"median {ordered[len(ordered) // 2]:.2f}, worst {ordered[0]:.2f} "
              "(target >= 10 games/s, issue 31)")
        return
    else:
        cpu, wall, commands = run(games, options)
    print(f"referee simulate arnhem44 --policy random{''.join(' +' + o for o in options)}: "
          f"{games} complete games, every invariant after every command: "
          f"{games / cpu:.2f} games/s per core (CPU {cpu:.2f} s, wall {wall:.2f} s), "
          f"{commands / games:.0f} commands per game (target >= 10 games/s, issue 31)")


if __name__ == "__main__":
    main()
