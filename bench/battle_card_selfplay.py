"""Self-play speed of Battle Card: complete games per second on one core.

    .venv/bin/python bench/battle_card_selfplay.py [GAMES]

Each game is played by the random policy with every invariant checked after every command
(as ``referee simulate`` does), dice from the v1 stream.  Both wall time and this process's
CPU time are reported: on a busy machine the CPU figure is the one to compare.
"""

from __future__ import annotations

import sys
import time

from referee.core.selfplay import play_game, random_policy
from referee.games.battle_card import ENGINE


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    play_game(ENGINE, "warm-up", random_policy)
    for check in (True, False):
        start, cpu = time.perf_counter(), time.process_time()
        commands = 0
        for i in range(games):
            commands += play_game(ENGINE, f"bench-{i}", random_policy, check=check).commands
        elapsed, used = time.perf_counter() - start, time.process_time() - cpu
        label = "with invariant checks" if check else "without invariant checks"
        print(
            f"{games} games {label}: {games / elapsed:,.0f} games/s wall, "
            f"{games / used:,.0f} games/s CPU ({commands / used:,.0f} commands/s CPU)"
        )


if __name__ == "__main__":
    main()
