"""Benchmark: complete random WWII Commander games per second, on one core, and where the
time goes.

    .venv/bin/python bench/wwiic_selfplay.py [GAMES] [--profile] [--core]

By default games are played by ``policy.play_random_game`` (random legal commands without
listing every pair activation; every invariant checked after every command).  ``--core``
plays them as ``referee simulate wwiic --policy random`` does: the core's ``play_game``,
which lists every legal command (``legal()``) before each choice.  ``--profile`` prints the
top functions by cumulative time.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
import time

from referee.core.dice import DiceStream
from referee.core.selfplay import StreamDice, play_game, random_policy
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.policy import play_random_game


def run(games: int, core: bool) -> tuple[float, int]:
    commands = 0
    start = time.perf_counter()
    for seed in range(games):
        if core:
            record = play_game(ENGINE, f"bench-{seed}", random_policy)
            assert not record.broken, record.broken
            commands += record.commands
        else:
            _, lines, broken = play_random_game(ENGINE, seed,
                                                StreamDice(DiceStream(f"bench-{seed}")))
            assert not broken, broken
            commands += len(lines)
    return time.perf_counter() - start, commands


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    games = int(args[0]) if args else 20
    core = "--core" in sys.argv
    ENGINE.setup(None, {})  # load the board before timing
    if "--profile" in sys.argv:
        profiler = cProfile.Profile()
        profiler.enable()
        elapsed, commands = run(games, core)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(20)
    else:
        elapsed, commands = run(games, core)
    kind = "core play_game + legal()" if core else "policy.play_random_game"
    print(f"{kind}: {games} complete games in {elapsed:.2f} s: {games / elapsed:.2f} games/s, "
          f"{commands / games:.0f} commands per game, {commands / elapsed:.0f} commands/s")


if __name__ == "__main__":
    main()
