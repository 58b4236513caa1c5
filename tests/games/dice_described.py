"""Shared checks of the engines' roll descriptions (``Engine.rolls_needed``, issue 28).

``self_play`` plays games with ``referee.core.rollcheck`` and gathers every roll whose
description is wrong; ``table_view`` is what a player reads about a pending roll and about
dice written wrong at the table (the ``roll:`` line of ``replay`` and ``moves``, and the dice
messages), for snapshots.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from io import StringIO

from referee.api import replay_text
from referee.core.engine import Engine
from referee.core.rollcheck import check_game
from referee.output import make_console, print_moves

GAMES = 200 if os.environ.get("REFEREE_SLOW") == "1" else 20
"""Self-played games per game: 20 in the default run, 200 with ``REFEREE_SLOW=1``."""


@dataclass
class Tally:
    rolls: int = 0
    followed: int = 0
    wrong: list[str] = field(default_factory=list)


def self_play(engine: Engine[object, object], games: int = GAMES, prefix: str = "dice",
              options: dict[str, str] | None = None) -> Tally:
    tally = Tally()
    for n in range(games):
        check = check_game(engine, f"{prefix}-{n}", options=options)
        tally.rolls += check.rolls
        tally.followed += check.followed
        tally.wrong += [f"{check.seed}: {w}" for w in check.wrong]
    return tally


def table_view(log: str) -> str:
    """The ``roll:`` line ``referee moves`` prints for the log's pending decision, and every
    problem about dice, one a line."""
    report = replay_text(log)
    out = StringIO()
    print_moves(make_console(out, width=10_000, color=False), report.pending())
    lines = [line for line in out.getvalue().splitlines()
             if line.startswith(("awaiting", "  roll:"))]
    lines += [f"line {p.line}: {p.kind.value}: {p.message}" for p in report.problems
              if p.kind.value.startswith("dice")]
    return "\n".join(lines) + "\n"
