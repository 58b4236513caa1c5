"""What a replay gives back, and where its dice come from: the report and its line
events, and the dice providers the replay driver (``referee.core.replay``) asks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, NamedTuple, Protocol

from referee.core.dice import DiceStream, FaceSource, Roll
from referee.core.engine import Engine, Event
from referee.core.errors import UNREADABLE_KINDS, HeaderError, Problem
from referee.core.log import ActionLine
from referee.core.names import side_title


@dataclass(frozen=True)
class LineEvent:
    """An event, with the log line that caused it (``None`` for the referee's own steps).

    ``command`` is the command's words (``str(command)``).  The driver makes them only when
    first read (``_line_event``): a replay whose events nobody prints (a batch, a bench)
    never spells its commands out (issue 31)."""

    line: int | None
    command: str
    event: Event
    auto: bool = False

    def __getattr__(self, name: str) -> Any:
        """``command``, made from the command the driver kept, or read from the command's
        first event (``_line_event``)."""
        fields = self.__dict__
        if name != "command" or "_of" not in fields:
            raise AttributeError(name)
        of = fields["_of"]
        words: str = of.command if type(of) is LineEvent else str(of)
        fields["command"] = words
        return words

    def __getstate__(self) -> dict[str, Any]:
        """The fields in their order, ``command`` spelt out (a pickle as of an event made
        with its words)."""
        return {"line": self.line, "command": self.command, "event": self.event,
                "auto": self.auto}

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "command": self.command, "auto": self.auto,
                **self.event.to_json()}


_new = object.__new__


def _line_event(line: int | None, of: object, event: Event, auto: bool) -> LineEvent:
    """``LineEvent(line, str(command), event, auto)`` of the command ``of``, or of the same
    command as the event ``of`` (its words shared, one string, as when the driver spelt them
    out at once), its fields put in place without the frozen class's checked ``__setattr__``
    (the driver makes two or three a line: the constructor was a twentieth of a Battle Card
    replay), its ``command`` made when first read (``LineEvent.__getattr__``)."""
    made: LineEvent = _new(LineEvent)
    fields = made.__dict__
    fields["line"] = line
    fields["_of"] = of
    fields["event"] = event
    fields["auto"] = auto
    return made


@dataclass
class Report:
    """What a replay found: problems, events, and the final state in both views."""

    game: str | None
    source: str
    tags: dict[str, str]
    problems: list[Problem] = field(default_factory=list)
    events: list[LineEvent] = field(default_factory=list)
    engine: Engine[Any, Any] | None = None
    state: Any = None
    stopped_at: int | None = None
    draws: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def unreadable(self) -> bool:
        return any(p.kind in UNREADABLE_KINDS for p in self.problems)

    @property
    def exit_code(self) -> int:
        """0 all legal, 1 the log breaks the rules, 2 the log cannot be read."""
        if self.unreadable:
            return 2
        return 1 if self.problems else 0

    def to_act(self) -> str | None:
        if self.engine is None or self.state is None:
            return None
        return self.engine.to_act(self.state)

    def pending(self) -> dict[str, Any] | None:
        """The decision the log leaves open, with the legal answers.

        At most ``MAX_CHOICES`` answers are listed (``more`` is then true): two WWII Commander
        units in one space can have hundreds of thousands of joint moves.  An engine that
        yields its legal commands lazily is then asked for no more than that.
        """
        if self.engine is None or self.state is None:
            return None
        side = self.engine.to_act(self.state)
        if side is None:
            return None
        listed = list(islice(self.engine.legal(self.state), MAX_CHOICES + 1))
        return {
            "side": side,
            "decision": self.engine.decision(self.state),
            "text": f"awaiting {side_title(side)}: {self.engine.decision(self.state)}",
            "choices": [str(c) for c in listed[:MAX_CHOICES]],
            "more": len(listed) > MAX_CHOICES,
            "dice": [need.to_json() for need in self.engine.rolls_needed(self.state, None)],
        }

    def outcome(self) -> dict[str, Any] | None:
        if self.engine is None or self.state is None:
            return None
        return self.engine.outcome(self.state)

    def state_json(self) -> dict[str, Any] | None:
        if self.engine is None or self.state is None:
            return None
        return self.engine.to_json(self.state)

    def drawable_state(self, game: str, title: str) -> dict[str, Any]:
        """The JSON state a picture of the log is drawn from (``map --log``): a log of
        another game, or one that cannot be read (a line that does not parse, a refused
        ``[Position]``), is ``HeaderError`` in a sentence, as ``check`` exits 2 on it."""
        unread = [p for p in self.problems if p.kind in UNREADABLE_KINDS]
        state = self.state_json()
        if unread:
            first = unread[0]
            where = f"{self.source}:{first.line}" if first.line is not None else self.source
            why = first.message.rstrip(".")
            raise HeaderError(f"{where}: {first.kind}: {why}; the map is not drawn from a "
                              f"log that cannot be read")
        if self.game != game or state is None:
            raise HeaderError(f"{self.source} is not a readable {title} log")
        return state

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document; its keys are documented in docs/log-format.md."""
        return {
            "game": self.game,
            "source": self.source,
            "ok": self.ok,
            "exit_code": self.exit_code,
            "tags": dict(self.tags),
            "problems": [p.to_json() for p in self.problems],
            "state": self.state_json(),
            "pending": self.pending(),
            "outcome": self.outcome(),
            "events": [e.to_json() for e in self.events],
        }


class DiceAt(NamedTuple):
    """Where the dice of one command come from: a face source and its first draw number
    (``stream`` ``None``: only the faces the log records), and words for messages.  A named
    tuple: one is made for every command a replay applies."""

    stream: FaceSource | None
    start: int
    source: str = "the seeded stream"


class DiceProvider(Protocol):
    """Chooses the dice of each command.  The default rolls the seeded stream by draw number;
    play-by-email (``referee.pbem``) derives each line's dice from committed secrets."""

    auto_chance: bool
    """May the referee roll a chance step that the log does not write?"""

    def dice_for(self, line: ActionLine | None, draw: int, line_draw: int) -> DiceAt:
        """The dice of the next command of ``line`` (``None``: a step the referee applies by
        itself); ``draw`` dice were drawn before it in the log, ``line_draw`` on this line."""
        ...

    def rolled(self, line: ActionLine | None, rolls: Sequence[Roll]) -> None:
        """What one command of ``line`` rolled and drew, as the engine read it (a die's face
        range, a chit's name), after it was applied."""
        ...


class SeededDice:
    """The default provider: the seeded stream by draw number, or the recorded dice alone."""

    def __init__(self, stream: DiceStream | None) -> None:
        self.stream = stream
        self.auto_chance = stream is not None

    def dice_for(self, line: ActionLine | None, draw: int, line_draw: int) -> DiceAt:
        return DiceAt(self.stream, draw)

    def rolled(self, line: ActionLine | None, rolls: Sequence[Roll]) -> None:
        return None

    def alike(self, line: ActionLine) -> bool:
        """The seeded stream rolls by draw number alone, whatever the line."""
        return True


MAX_CHOICES = 500
"""The most legal answers a report lists for a pending decision."""
