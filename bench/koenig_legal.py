"""Benchmark: Eindhoven Bridge ``legal()`` at the opening and over the tabletop sample log.

    .venv/bin/python bench/koenig_legal.py [--repeat 20]

"The opening" is the first position where a player chooses: Game Turn 1 after the support
rolls and the first draw (seeded), when a formation's four units may each enter by either
road with a Movement or a Combined Operation.  Also times every position of
logs/koenig-eindhoven/opening-tabletop.log and prints the worst.  CPU time of this
process, best of ``--repeat``; the target is under 20 ms.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from referee.core.dice import DiceStream
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.core.selfplay import StreamDice
from referee.games.koenig_eindhoven.engine import ENGINE
from referee.games.koenig_eindhoven.state import KState

ROOT = Path(__file__).resolve().parent.parent


def best(state: KState, repeat: int) -> tuple[float, int]:
    times = []
    count = 0
    for _ in range(repeat):
        start = time.process_time()
        count = len(list(ENGINE.legal(state)))
        times.append(time.process_time() - start)
    return min(times) * 1000, count


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream("bench"))
    while ENGINE.to_act(state) == "referee":
        ENGINE.apply(state, next(iter(ENGINE.legal(state))), dice)
    ms, count = best(state, args.repeat)
    print(f"opening (turn 1, formation {state.active} active): legal() {ms:.2f} ms, "
          f"{count} commands")
    path = ROOT / "logs" / "koenig-eindhoven" / "opening-tabletop.log"
    worst = (0.0, 0, 0)
    log = parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE)
    for upto in range(1, len(path.read_text().splitlines()) + 1):
        report = replay(log, ENGINE, upto=upto)
        if report.state is None:
            continue
        ms, count = best(report.state, max(3, args.repeat // 5))
        if ms > worst[0]:
            worst = (ms, count, upto)
    print(f"{path.name}: worst legal() {worst[0]:.2f} ms ({worst[1]} commands, after line "
          f"{worst[2]})")


if __name__ == "__main__":
    main()
