"""The Arnhem '44 engine's own work in a replay: its ``apply`` and ``forced``, without the
reading of the lines, the driver or the copy before each line (issue 31).

    PYTHONHASHSEED=0 valgrind --tool=callgrind .venv/bin/python bench/arnhem44_engine_work.py copy
    PYTHONHASHSEED=0 valgrind --tool=callgrind .venv/bin/python bench/arnhem44_engine_work.py apply

Every bundled log is replayed once, recording each command the engine applies (the position
before it, the command, its dice).  Then (``apply``) the commands are applied again in
sequence on one position per log, as the replay applies them, with ``forced`` asked after
each; the recorded position is taken again (a copy) only where the replay's position was not
the one the last command left (a statement, a refused command).  ``copy`` does the same
recording and copies, and applies nothing: the instructions of ``apply`` less those of
``copy`` are the engine's work.  ``--rounds N`` applies the commands N times; ``--time``
prints the CPU time of the rounds instead (noisy on a shared machine: prefer callgrind).
"""

from __future__ import annotations

import argparse
import contextlib
import time
from pathlib import Path
from typing import Any

from referee.core.dice import DiceTray
from referee.core.errors import RefereeError
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.arnhem44.engine import ENGINE, Arnhem44Engine
from referee.games.arnhem44.state import AState

LOGS = Path(__file__).resolve().parent.parent / "logs" / "arnhem44"

Record = tuple[AState | None, Any, tuple[Any, ...]]


def recorded() -> list[Record]:
    """(the position to start from, or None: the last command's; the command; the dice) of
    every command a replay of the bundled logs applies."""
    out: list[Record] = []
    real = Arnhem44Engine.apply
    last: list[AState | None] = [None]

    def record(self: Arnhem44Engine, state: AState, command: Any, tray: DiceTray) -> Any:
        again = last[0] is None or last[0] != state
        out.append((state.copy() if again else None, command,
                    (tray.stream, tray.position, tray.recorded, tray.recorded_sides,
                     tray.recorded_chits)))
        last[0] = None
        events = real(self, state, command, tray)
        last[0] = state.copy()
        return events

    Arnhem44Engine.apply = record  # type: ignore[method-assign,assignment]
    try:
        for path in sorted(LOGS.glob("*.log")):
            last[0] = None
            replay(parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE), ENGINE)
    finally:
        Arnhem44Engine.apply = real  # type: ignore[method-assign]
    return out


def run(records: list[Record], apply: bool) -> None:
    state: AState | None = None
    for start, command, (stream, position, faces, sides, chits) in records:
        if start is not None:
            state = start.copy()
        assert state is not None
        tray = DiceTray(stream, position, recorded=faces, recorded_sides=sides,
                        recorded_chits=chits, subject=command)
        if apply:
            with contextlib.suppress(RefereeError):
                ENGINE.apply(state, command, tray)
            ENGINE.forced(state)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("copy", "apply"))
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--time", action="store_true")
    args = parser.parse_args()
    records = recorded()
    start = time.process_time()
    for _ in range(args.rounds):
        run(records, args.mode == "apply")
    if args.time:
        print(f"{len(records)} commands, {args.rounds} rounds, {args.mode}: "
              f"{time.process_time() - start:.3f} s CPU")


if __name__ == "__main__":
    main()
