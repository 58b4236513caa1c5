"""What the Arnhem '44 tests share: replaying a log or an example, its events' sentences, and
the illegal logs' marks (each illegal line follows a comment ``# illegal [RULE]: why``)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from referee.core.dice import DiceStream, DiceTray
from referee.core.parsing import parse_log
from referee.core.replay import Report, replay
from referee.games.arnhem44.engine import ENGINE

EXAMPLES = Path(__file__).parent / "examples"

MARK = re.compile(r"^# illegal \[([^\]]+)\]: ")


def marked_lines(path: Path) -> set[tuple[int, str]]:
    """(line number, rule) of every line an ``# illegal [RULE]:`` comment marks."""
    lines = path.read_text(encoding="utf-8").splitlines()
    marked = set()
    for number, line in enumerate(lines[1:], 2):
        match = MARK.match(lines[number - 2])
        if match and not line.startswith("#"):
            marked.add((number, match.group(1)))
    return marked


def replayed(log: Path | str) -> Report:
    """The replay of a log; a plain name is a file of ``examples/``."""
    path = EXAMPLES / log if isinstance(log, str) else log
    return replay(parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE), ENGINE)


def texts(report: Report) -> list[str]:
    return [e.event.text for e in report.events]


def play_random(seeds: tuple[str, ...], options: dict[str, str], commands: int = 700) -> None:
    """Random games played through ``ENGINE.apply`` (a test may wrap it): for each seed, up
    to ``commands`` commands of the random policy, the dice from the seed's stream."""
    for seed in seeds:
        state = ENGINE.setup(None, options)
        rng = random.Random(seed)
        stream, position = DiceStream(seed), 0
        for _ in range(commands):
            if ENGINE.to_act(state) is None:
                break
            command = ENGINE.random_command(state, rng)
            tray = DiceTray(stream, position, subject=command)
            ENGINE.apply(state, command, tray)
            position = tray.position
