"""The log model: what a parsed log holds, line by line, before any rule is applied.

A log's lines are slotted records: a 100,000-line log makes hundreds of thousands of them,
and without a ``__dict__`` each they take less memory and give the garbage collector fewer
objects to walk (bench/replay_scaling.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.core.errors import Problem
from referee.core.records import frozen, once, record


@frozen
class DiceRecord:
    """Dice written in the log: ``{d10: 3 7 9 | 2 2 8}``; or chits drawn from a cup:
    ``{cup: 506}`` (``chits`` set, ``sides`` 0, no groups)."""

    sides: int
    groups: tuple[tuple[int, ...], ...]
    column: int
    chits: tuple[str, ...] = ()

    # ``faces`` and ``count`` are made once for each record (a remembered line shares its
    # record with every copy of the line): the replay driver reads them for every command.
    @once
    def faces(self) -> tuple[int, ...]:
        return tuple(f for group in self.groups for f in group)

    @once
    def count(self) -> int:
        """How many dice (or chits) the record holds."""
        return len(self.chits) if self.chits else sum(len(group) for group in self.groups)

    @property
    def noun(self) -> str:
        """What the record holds, for sentences: ``dice`` or ``chits``."""
        return "chits" if self.chits else "dice"

    def __str__(self) -> str:
        if self.chits:
            return "{cup: " + " | ".join(self.chits) + "}"
        groups = " | ".join(" ".join(str(f) for f in g) for g in self.groups)
        return f"{{d{self.sides}: {groups}}}"


@dataclass(slots=True)
class CommandItem:
    """One command of an action line, with the dice recorded for it."""

    command: Any
    dice: DiceRecord | None
    column: int


@dataclass(slots=True)
class Entry:
    """A line of the log that is not blank or a comment."""

    number: int
    text: str


@dataclass(slots=True)
class TagLine(Entry):
    name: str = ""
    value: str = ""


@dataclass(slots=True)
class ActionLine(Entry):
    side: str | None = None
    items: list[CommandItem] = field(default_factory=list)


@dataclass(slots=True)
class SetupItem:
    """One statement of a setup line, built by the game (``Engine.build_setup``)."""

    statement: Any
    column: int


@dataclass(slots=True)
class SetupLine(Entry):
    """``setup: …``: part of a starting position other than the scenario's opening."""

    items: list[SetupItem] = field(default_factory=list)
    origin: str | None = None
    """Where the line really is when it comes from a position file: ``start.pos:3``."""


@dataclass(slots=True)
class TurnAssertion(Entry):
    turn: int = 0
    half: str | None = None
    column: int = 1


@dataclass(slots=True)
class Expectation(Entry):
    key: str = ""
    value: str = ""
    column: int = 1


@record
class ParsedLog:
    """A log read and parsed: tags, entries that parsed, and the problems of those that did not.

    ``unreadable`` is set when the log as a whole cannot be read (not text, too large, no game).
    """

    source: str
    tags: dict[str, str] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)
    options: list[str] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    unreadable: bool = False
    position_sha256: str | None = None
    """The SHA-256 (hex) of the bytes of the ``[Position]`` file read with the log, if any."""
    scenario_sha256: str | None = None
    """The SHA-256 (hex) of the scenario file ``[Scenario "file:NAME"]`` names, once read."""
    engine: Any = None
    """The engine of that scenario file (the game's rules on its board), which replays it."""

    @property
    def game(self) -> str | None:
        return self.tags.get("Game")

    @property
    def actions(self) -> list[ActionLine]:
        return [e for e in self.entries if isinstance(e, ActionLine)]
