"""The Arnhem '44 state's copy alone, over the states a replay copies (issue 31).

    .venv/bin/python bench/arnhem44_copy.py [--games 3] [--rounds 5]

The replay of ``bench/heavy_replay.py``'s logs (the bundled logs and GAMES self-played ones)
keeps a copy of the state before every line (``AState.copy``).  This script replays them
once, keeping each state as it was when copied (its fields copied the long way, so that a
field copied on write is still lent or owned as it was) and the fields of the state copied
on write that the line then read or set.  Each round then copies every kept state and reads
those fields again (a field copied on write is copied at its first read: that is part of
the copy's cost), in this process's CPU time.  It prints the best and the median round per
copy.  To compare two versions of the code in the same minutes, run it alternately with each
on ``PYTHONPATH`` (with code that copies every field at once, no field is read).
Instructions, which the load does not change: run it under callgrind with ``--only copies``
and with ``--only loop`` (``PYTHONHASHSEED=0``) and divide the difference by the copies.

2026-12-03 (branch arnhem-copy3): 199,560 instructions a copy before the copier made per
class and the fields copied on write (``--games 1``: 2,471 copies), 35,484 after (5.6x fewer);
CPU time 22.0-23.1 against 5.6-5.8 us at load 2 (4.0x), 27.2-27.4 against 8.0-8.9 us at load 5.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
from typing import Any

from heavy_replay import logs_of

from referee.core import parsing
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games import engine_for
from referee.games.arnhem44 import copying
from referee.games.arnhem44.state import AState

CHUNK = 100
"""States made afresh before each timing (a replay copies one state, in the cache)."""
LENT: str | None = getattr(copying, "LENT", None)
"""The key prefix of a lent field (None: code that copies every field at once)."""


def _kept(state: AState) -> dict[str, Any]:
    """The state's fields as they are, copied the long way (lent values stay lent)."""
    kept: dict[str, Any] = copying.copied(dict(state.__dict__))
    return kept


def _owned_lendable(state: AState) -> list[str]:
    """The fields copied on write that the state holds a value of its own of."""
    if LENT is None:
        return []
    fields = state.__dict__
    return [k[len(LENT):] for k in fields if k.startswith(LENT) and k[len(LENT):] in fields]


def collect(games: int) -> list[tuple[dict[str, Any], list[str]]]:
    """(the state's fields when copied, the fields copied on write then read) of every copy
    the replay of the logs makes."""
    engine = engine_for("arnhem44")
    kept: list[tuple[dict[str, Any], list[str]]] = []
    last: dict[int, int] = {}
    real = AState.copy

    def recording(state: AState) -> AState:
        at = last.get(id(state))
        if at is not None:
            kept[at][1].extend(_owned_lendable(state))
        last[id(state)] = len(kept)
        kept.append((_kept(state), []))
        return real(state)

    AState.copy = recording  # type: ignore[method-assign]
    try:
        for name, text in logs_of("arnhem44", games):
            parsing._memos.clear()
            replay(parse_log(text, name, engine=engine), engine)
            last.clear()
    finally:
        AState.copy = real  # type: ignore[method-assign]
    return kept


def _fresh(fields: dict[str, Any]) -> AState:
    state: AState = object.__new__(AState)
    state.__dict__ = copying.copied(fields)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", choices=("copies", "loop"),
                        help="one round of the copies (or of the loop alone) and no figures: "
                             "for callgrind, the difference of the two runs is the copies'")
    args = parser.parse_args()
    load = os.getloadavg()
    kept = collect(args.games)
    reads = [names for _, names in kept]
    if args.only:
        _rounds(kept, reads, copies=args.only == "copies")
        print(f"{len(kept):,} copies")
        return
    times, idle = [], []
    for _ in range(args.rounds):
        idle.append(_rounds(kept, reads, copies=False))
        times.append(_rounds(kept, reads, copies=True))
    n = len(kept)
    print(f"arnhem44 state copy: {n:,} copies, {sum(map(len, reads)):,} fields copied on "
          f"write read, {args.rounds} rounds, CPU time; load {load[0]:.1f} at the start, "
          f"{os.getloadavg()[0]:.1f} at the end")
    net = [t - min(idle) for t in times]  # less the loop and the clock, the same without copies
    print(f"  per copy  best {min(net) / n * 1e6:6.2f} us   median "
          f"{statistics.median(net) / n * 1e6:6.2f} us   (the loop alone "
          f"{min(idle) / n * 1e6:.2f} us, not counted)")


def _rounds(kept: list[tuple[dict[str, Any], list[str]]], reads: list[list[str]],
            copies: bool) -> float:
    """CPU time of one round: every kept state copied and its fields read (without
    ``copies``: the same loop, copying and reading nothing)."""
    took = 0.0
    for at in range(0, len(kept), CHUNK):  # a few states at a time, as hot as in a replay
        states = [_fresh(fields) for fields, _ in kept[at:at + CHUNK]]
        gc.collect()
        gc.freeze()  # the collector does not walk the states made for the round (as old as in
        start = time.process_time()  # a replay); it walks what the copies make
        if copies:
            for state, names in zip(states, reads[at:at + CHUNK], strict=True):
                state.copy()
                for name in names:
                    getattr(state, name)
        else:
            for _state, names in zip(states, reads[at:at + CHUNK], strict=True):
                for _name in names:
                    pass
        took += time.process_time() - start
        gc.unfreeze()
    return took


if __name__ == "__main__":
    main()
