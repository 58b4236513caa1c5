"""The library API under the CLI: everything ``referee`` does, callable from Python.

    >>> from referee.api import replay_text
    >>> report = replay_text('[Game "battle-card"]\\n[Seed "1"]\\n')
    >>> report.pending()["side"]
    'allied'
"""

from __future__ import annotations

from itertools import islice
from pathlib import Path
from typing import Any

from referee.core.dice import CURRENT_DICE_VERSION
from referee.core.errors import HeaderError
from referee.core.parsing import parse_log, read_log
from referee.core.replay import MAX_CHOICES, Report, replay
from referee.games import engine_for, game_entry


def replay_file(
    path: Path | str, *, seed: str | None = None, strict: bool = False, upto: int | None = None
) -> Report:
    """Read, parse and replay a log file.  Every problem is inside the report."""
    return replay(read_log(Path(path)), seed=seed, strict=strict, upto=upto)


def replay_text(
    text: str, *, source: str = "<log>", seed: str | None = None, strict: bool = False,
    upto: int | None = None,
) -> Report:
    """Parse and replay the text of a log."""
    return replay(parse_log(text, source), seed=seed, strict=strict, upto=upto)


def legal_moves(report: Report, limit: int | None = MAX_CHOICES) -> list[str]:
    """The commands the side to act may give at the end of a replayed log: the first
    ``limit`` of them (``None``: every one, which for two WWII Commander units in one space
    can be hundreds of thousands).  ``report.pending()["more"]`` says whether there are more."""
    if report.engine is None or report.state is None:
        return []
    return [str(c) for c in islice(report.engine.legal(report.state), limit)]


def moves_by_unit(report: Report) -> list[dict[str, Any]]:
    """Each unit the side to act may activate and where it can go, for engines that group
    their moves by unit (``Engine.moves``); empty otherwise or outside a movement step."""
    engine, state = report.engine, report.state
    if engine is None or state is None or not hasattr(engine, "moves"):
        return []
    grouped: list[dict[str, Any]] = engine.moves(state)
    return grouped


def new_seed() -> str:
    """A fresh random seed for a new game (from the operating system's secure source)."""
    import secrets

    return secrets.token_hex(8)


def new_log(game: str, scenario: str | None = None, seed: str | None = None) -> str:
    """The header of a new log of ``game`` (checked by setting the game up)."""
    entry = game_entry(game)
    engine = engine_for(entry.id)
    engine.setup(scenario, {})
    lines = [f'[Game "{entry.id}"]']
    if scenario:
        lines.append(f'[Scenario "{scenario}"]')
    if seed is not None:
        if '"' in seed or "\n" in seed or not seed.strip():
            raise HeaderError("a seed may not be empty or hold quotes or line breaks")
        lines.append(f'[Dice "{CURRENT_DICE_VERSION}"]')
        lines.append(f'[Seed "{seed}"]')
    return "\n".join(lines) + "\n"


__all__ = [
    "Report",
    "legal_moves",
    "new_log",
    "new_seed",
    "parse_log",
    "read_log",
    "replay",
    "replay_file",
    "replay_text",
]


def position_text(report: Report) -> str:
    """A new log that starts where ``report``'s replay ended: its header, then setup lines.

    The ``Draw`` tag carries the dice stream on from where it stood, so a seeded game resumed
    from the position rolls the same dice the original would have.
    """
    if report.engine is None or report.state is None:
        raise HeaderError("the log cannot be read, so it has no position")
    lines = []
    for tag in ("Game", "Scenario", "Dice", "Seed"):
        if tag in report.tags:
            lines.append(f'[{tag} "{report.tags[tag]}"]')
    if report.draws:
        lines.append(f'[Draw "{report.draws}"]')
    state = report.state_json() or {}
    lines += [f'[Option "{option}"]' for option in state.get("options", [])]
    lines += report.engine.position(report.state)
    return "\n".join(lines) + "\n"
