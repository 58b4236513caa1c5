"""Benchmark: replaying a 13-turn, movement-only WWII Commander log of 500+ lines, in a fresh
process (interpreter start included).  The target is under 1 s wall.

    .venv/bin/python bench/wwiic_replay.py [RUNS] [--keep PATH]

The log is made here, deterministically: the ``mover`` self-play policy plays all 13
game-turns (the referee rolls the weather from the seed and applies the passes of a side whose
units are all spent, so the log leaves those out), and after every activation the log asserts
where each activated unit now stands (``expect units.ID.space = PLACE``), after every weather
roll the turn (``turn N AM``), as a table log would note them.  Then a fresh interpreter
replays it RUNS times.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.core.dice import CURRENT_DICE_VERSION, DiceStream
from referee.core.engine import REFEREE
from referee.core.selfplay import StreamDice
from referee.games.wwiic.commands import Activate
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.policy import mover_policy

SEED = "bench-wwiic-1"

REPLAY = """
import sys
from pathlib import Path
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.wwiic import engine
path = Path(sys.argv[1])
report = replay(parse_log(path.read_text(), path.name, engine=engine.ENGINE), engine.ENGINE)
print(len(report.problems), report.state_json()["turn"], report.state_json()["phase"])
sys.exit(report.exit_code)
"""


def generate(seed: str = SEED) -> str:
    """A whole 13-turn game of movement, as a log with assertions."""
    rng = random.Random(seed)
    state = ENGINE.setup(None, {})
    dice = StreamDice(DiceStream(seed))
    board = ENGINE.board
    lines = [
        '[Game "wwiic"]',
        '[Scenario "market-garden"]',
        '[Event "13 game-turns of movement (bench/wwiic_replay.py)"]',
        f'[Dice "{CURRENT_DICE_VERSION}"]',
        f'[Seed "{seed}"]',
    ]
    while (side := ENGINE.to_act(state)) is not None:
        forced = ENGINE.forced(state)
        if forced is not None:
            # The weather roll and a pass with every unit spent: the referee applies them
            # itself (the seed rolls the weather), so the log leaves them out.
            ENGINE.apply(state, forced, dice)
            if side == REFEREE:
                lines.append(f"turn {state.turn} {board.half(state.turn)}")
            continue
        legal = ENGINE.legal(state)
        if not legal:
            raise AssertionError(f"{side} must act but has no legal command")
        command = mover_policy(state, legal, rng)
        ENGINE.apply(state, command, dice)
        lines.append(f"{side}: {command}")
        if isinstance(command, Activate):
            for move in command.moves:
                place = board.log_name(state.location[move.unit] or "")
                lines.append(f"expect units.{move.unit}.space = {place}")
    return "\n".join(lines) + "\n"


def main() -> None:
    args = sys.argv[1:]
    keep = None
    if "--keep" in args:
        index = args.index("--keep")
        keep = Path(args[index + 1])
        del args[index : index + 2]
    runs = int(args[0]) if args else 7
    start = time.perf_counter()
    text = generate()
    made = time.perf_counter() - start
    count = len([line for line in text.splitlines() if line.strip()])
    with tempfile.TemporaryDirectory() as folder:
        path = keep or Path(folder) / "wwiic-13-turns.log"
        path.write_text(text, encoding="utf-8")
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", REPLAY, str(path)], capture_output=True, text=True
            )
            times.append(time.perf_counter() - start)
            if done.returncode != 0:
                raise SystemExit(f"the replay failed: {done.stdout}{done.stderr}")
    problems, turn, phase = done.stdout.split()
    print(f"log: {count} lines, 13 game-turns (made in {made:.1f} s); replay: {problems} "
          f"problems, ends at turn {turn} ({phase})")
    print(f"replay in a fresh process over {runs} runs: median {statistics.median(times):.3f} s, "
          f"best {min(times):.3f} s (target < 1 s)")


if __name__ == "__main__":
    main()
