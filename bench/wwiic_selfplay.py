"""Benchmark: complete random WWII Commander games per second, on one core, and where the
time goes.

    .venv/bin/python bench/wwiic_selfplay.py [GAMES] [--profile] [--legal]

Games are played as ``referee simulate wwiic --policy random`` does: the core's
``play_game``, the engine drawing each random legal command itself (without listing every
joint activation of two units), every invariant checked after every command.  ``--legal``
makes the core list every legal command (``legal()``) before each choice instead, to show
what that listing costs.  ``--profile`` prints the
top functions by cumulative time.
"""

from __future__ import annotations

import cProfile
import pstats
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from referee.core.selfplay import play_game, random_policy
from referee.games.wwiic.engine import ENGINE


def listing_policy(state: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    """The uniform choice among every listed legal command (not the engine's own draw)."""
    return legal[rng.randrange(len(legal))]


def run(games: int, core: bool) -> tuple[float, int]:
    commands = 0
    start = time.perf_counter()
    for seed in range(games):
        policy = listing_policy if core else random_policy
        record = play_game(ENGINE, f"bench-{seed}", policy)
        assert not record.broken, record.broken
        commands += record.commands
    return time.perf_counter() - start, commands


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    games = int(args[0]) if args else 20
    core = "--legal" in sys.argv
    ENGINE.setup(None, {})  # load the board before timing
    if "--profile" in sys.argv:
        profiler = cProfile.Profile()
        profiler.enable()
        elapsed, commands = run(games, core)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(20)
    else:
        elapsed, commands = run(games, core)
    kind = "every legal command listed" if core else "referee simulate --policy random"
    print(f"{kind}: {games} complete games in {elapsed:.2f} s: {games / elapsed:.2f} games/s, "
          f"{commands / games:.0f} commands per game, {commands / elapsed:.0f} commands/s")


if __name__ == "__main__":
    main()
