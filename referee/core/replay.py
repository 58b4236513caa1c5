"""The replay driver: apply a parsed log to a game's engine, line by line.

It collects every problem (an illegal line is skipped, its state change undone, and replay
goes on) unless ``strict`` stops it at the first.  Chance steps and single-answer decisions
that the log does not write are applied by the referee itself (``Engine.forced``): a chance
step only when there is a seed to roll it with.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any, NamedTuple, Protocol

from referee.core.dice import (
    CUP,
    CURRENT_DICE_VERSION,
    DICE_VERSIONS,
    DiceStream,
    DiceTray,
    FaceSource,
    Roll,
)
from referee.core.engine import REFEREE, Engine, Event, RollNeed, needs_count, needs_text
from referee.core.errors import (
    UNREADABLE_KINDS,
    DiceExtra,
    DiceFaceError,
    DiceMissing,
    GameOver,
    HeaderError,
    IllegalMove,
    MissingDecision,
    Problem,
    ProblemKind,
    RefereeError,
    WrongSide,
)
from referee.core.log import (
    ActionLine,
    CommandItem,
    DiceRecord,
    Entry,
    Expectation,
    ParsedLog,
    SetupLine,
    TurnAssertion,
)
from referee.core.names import normalise, side_title
from referee.core.noting import HIGHEST, LOWEST, face_column, left_out, lookup, noted


@dataclass(frozen=True)
class LineEvent:
    """An event, with the log line that caused it (``None`` for the referee's own steps)."""

    line: int | None
    command: str
    event: Event
    auto: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "command": self.command, "auto": self.auto,
                **self.event.to_json()}


_new = object.__new__


def _line_event(line: int | None, command: str, event: Event, auto: bool) -> LineEvent:
    """``LineEvent(line, command, event, auto)``, its fields put in place without the frozen
    class's checked ``__setattr__`` (the driver makes two or three a line: the constructor
    was a twentieth of a Battle Card replay)."""
    made: LineEvent = _new(LineEvent)
    fields = made.__dict__
    fields["line"] = line
    fields["command"] = command
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


class _Stop(Exception):
    """Replay cannot go on (strict mode, or a chance step without dice)."""


def scenario_of(log: ParsedLog) -> str | None:
    """The bundled scenario a log's ``[Scenario]`` names, for ``Engine.setup``: ``None`` for
    a scenario file of the user's own, whose board the engine read it on already (a log that
    names one the referee did not read, parsed from text without its folder, is refused)."""
    from referee.core.ownscenario import file_name

    scenario = log.tags.get("Scenario")
    name = file_name(scenario)
    if name is None:
        return scenario
    if log.engine is None:
        raise HeaderError(f"the scenario file {name} was not read: the referee reads it beside "
                          f"a log it is given by its path (not from standard input or text)")
    return None


def options_of(log: ParsedLog) -> dict[str, str]:
    return {option: "on" for option in log.options}


def seed_of(log: ParsedLog, seed: str | None) -> str | None:
    """The seed to roll with: the log's ``Seed`` tag, else the one given on the command line."""
    version = log.tags.get("Dice", CURRENT_DICE_VERSION)
    if version not in DICE_VERSIONS:
        raise HeaderError(
            f'[Dice "{version}"] is not a dice algorithm this referee knows '
            f"({', '.join(DICE_VERSIONS)})"
        )
    logged = log.tags.get("Seed")
    if logged is not None and seed is not None and logged != seed:
        raise HeaderError(
            f'the log already names its seed [Seed "{logged}"]; --seed {seed} would change '
            f"every roll (leave --seed out)"
        )
    return logged if logged is not None else seed


class Replayer:
    """Replays one log against one engine; ``run`` returns the report."""

    def __init__(
        self,
        log: ParsedLog,
        engine: Engine[Any, Any],
        *,
        seed: str | None = None,
        strict: bool = False,
        upto: int | None = None,
        dice: DiceProvider | None = None,
        settle: bool = True,
    ) -> None:
        """``dice`` replaces the seeded stream (the seed is then not used); ``settle=False``
        leaves a chance step at the end of the log unrolled, for ``referee play`` to write."""
        self.log = log
        self.engine = engine
        self.strict = strict
        self.upto = upto
        self.dice = dice
        self.settle = settle
        self._line_draw = 0
        self._stated = False
        """A statement of the line being applied changed the state (``_statement``)."""
        self._played = False
        self._last_setup: SetupLine | None = None
        self._next_action: ActionLine | None = None
        self._json: dict[str, Any] | None = None
        """The state's JSON, kept between assertions while the state does not change."""
        self._cause: int | None = None
        """The last line skipped as illegal while no line has been accepted since."""
        self._last: tuple[Any, list[Event], tuple[Roll, ...]] | None = None
        """The last command a log line applied: what ``expect last.…`` reads."""
        self._applied = 0
        self._confirm = getattr(engine, "confirm", None)
        """The engine's ``confirm`` (``_statement``), if it has one."""
        self._line_start: tuple[Any, int] | None = None
        """The driver's copy of the state before the line being applied, and ``_applied``
        then: the state before its first command."""
        """How many commands have been applied to the state so far (it changes with each)."""
        self._refused: tuple[str, int, Any, Problem] | None = None
        """The last line refused: its text, ``_applied`` and the state it left, its problem."""
        # With --upto, the lines after it do not count: a problem there blocks nothing.
        problems = [p for p in log.problems
                    if upto is None or p.line is None or p.line <= upto]
        self.report = Report(log.game, log.source, dict(log.tags), problems, engine=engine)
        self.stream: DiceStream | None = None
        self.position = 0
        self._seed = seed

    # -- the run ---------------------------------------------------------------------------

    def run(self) -> Report:
        report = self.report
        if self.log.unreadable:
            report.engine = None
            return report
        try:
            seed = seed_of(self.log, self._seed)
            report.state = self.engine.setup(scenario_of(self.log), options_of(self.log))
        except RefereeError as error:
            report.problems.append(error.to_problem(line=self._tag_line()))
            report.engine = None
            return report
        self.stream = DiceStream(seed) if seed is not None else None
        self.position = self._first_draw()
        if self.dice is None:
            self.dice = SeededDice(self.stream)
        limit = self.upto
        if self.strict and report.problems:
            # Strict: stop at the first problem, a line that could not be read included.
            first = min((p.line or 0) for p in report.problems)
            limit = first - 1 if limit is None else min(limit, first - 1)
        try:
            entries = self.log.entries
            upcoming = _next_actions(entries, limit)
            for index, entry in enumerate(entries):
                if limit is not None and entry.number > limit:
                    break
                self._next_action = upcoming[index]
                self._entry(entry)
            self._close_setup()
            if limit == self.upto or not report.problems:
                self._settle_end()
        except _Stop:
            pass
        report.problems.sort(key=lambda p: p.line or 0)
        if self.strict:
            del report.problems[1:]
        report.draws = self.position
        return report

    def _first_draw(self) -> int:
        """``[Draw "N"]``: a log resumed from a position rolls on from draw N of its stream."""
        text = self.log.tags.get("Draw", "0")
        if not text.isdigit() or len(text) > 9:
            raise_header = HeaderError(f'[Draw "{text}"] must be a whole number of draws')
            self.report.problems.append(raise_header.to_problem())
            return 0
        return int(text)

    def _tag_line(self) -> int | None:
        return None

    def _problem(self, problem: Problem) -> None:
        """Record a problem, with the skipped line it may follow from.  A problem follows
        from line X when it says the log and the referee disagree about where the game
        stands (``_FOLLOW_KINDS``) and no line since X was accepted: the game still waits
        where X left it.  A problem of its own that skips its line (``_ROOT_KINDS``) is then
        the cause the next ones are blamed on, until a line is accepted."""
        cause = self._cause
        if (cause is not None and problem.line is not None and problem.line > cause
                and problem.kind in _FOLLOW_KINDS and problem.follows is None):
            problem = replace(problem, follows=cause)
        elif problem.line is not None and problem.kind in _ROOT_KINDS:
            self._cause = problem.line
        self.report.problems.append(problem)
        if self.strict:
            self.report.stopped_at = problem.line
            raise _Stop

    def _entry(self, entry: Entry) -> None:
        if type(entry) is ActionLine:  # the common case first
            if self._last_setup is not None:
                self._close_setup()
            self._played = True
            self._action(entry)
            return
        if isinstance(entry, SetupLine):
            self._setup(entry)
            return
        self._close_setup()
        if isinstance(entry, ActionLine):
            self._played = True
            self._action(entry)
        elif isinstance(entry, TurnAssertion | Expectation):
            # An assertion sees the state after the lines above it and every single-answer
            # decision the referee then applies by itself, whether or not the next line writes
            # that answer; a roll no player chooses, only if the log leaves it to the seed (a
            # written roll is a line of its own).  docs/log-format.md, "Assertions".
            upcoming = self._next_action
            self._advance(upcoming, upcoming.items[0] if upcoming and upcoming.items else None)
            view = self._settled()
            if isinstance(entry, TurnAssertion):
                self._turn(entry, view)
            else:
                self._expect(entry, view)

    # -- setup lines: a starting position other than the opening -------------------------

    def _setup(self, line: SetupLine) -> None:
        if self._played:
            self._problem(Problem(
                ProblemKind.POSITION,
                "setup lines describe the starting position and come before the first action",
                line=line.number, column=1, text=line.text,
            ))
            return
        state = self.report.state
        self._json = None
        for item in line.items:
            try:
                self.engine.place(state, item.statement)
            except RefereeError as error:
                problem = error.to_problem(line=line.number, text=line.text)
                if line.origin:
                    problem = replace(problem, message=f"{line.origin}: {problem.message}")
                self._problem(replace(problem, column=problem.column or item.column))
        self._last_setup = line

    def _close_setup(self) -> None:
        """After the last setup line: is the position one the rules allow?"""
        line, self._last_setup = self._last_setup, None
        if line is None:
            return
        for message in self.engine.check_position(self.report.state):
            if line.origin:
                message = f"{line.origin}: {message}"
            self._problem(Problem(
                ProblemKind.POSITION, message, line=line.number, column=1, text=line.text,
            ))

    # -- action lines ----------------------------------------------------------------------

    def _action(self, line: ActionLine) -> None:
        refused = self._refused
        if (refused is not None and refused[0] == line.text and refused[1] == self._applied
                and refused[2] is self.report.state and self._alike(line)):
            # The very line refused last, at the very position it was refused at, with the
            # same dice to come: the rules answer the same (a log of 100,000 mistaken
            # ``pass`` lines is judged once, not 100,000 times).
            self._problem(_at_line(refused[3], line.number))
            return
        # The undo of the line: the driver's copy of the state, made before the line first
        # changes it (``_undo_point``); a line refused before that (a line out of turn, after
        # the end, by the wrong side) copies nothing.
        saved_position = self.position
        saved_events = len(self.report.events)
        saved_last = self._last
        self._line_draw = 0
        self._stated = False
        self._line_start = (None, self._applied)
        confirm = self._confirm
        try:
            for item in line.items:
                self._advance(line, item)
                if confirm is not None and self._statement(line, item):
                    continue
                self._check_side(line, item)
                self._apply(line, item)
            self._line_start = None
            self._cause = None  # the log and the referee agree again
        except RefereeError as error:
            start, self._line_start = self._line_start, None
            saved = self.report.state if start is None or start[0] is None else start[0]
            self.report.state = saved
            self._json = None
            self.position = saved_position
            del self.report.events[saved_events:]
            self._last = saved_last
            problem = error.to_problem(line=line.number, text=line.text)
            if problem.column is None:
                # The caret goes under the command that broke the rule (in a line of several,
                # not under the first).
                problem = replace(problem, column=item.column or 1)
            if problem.rule is None:
                problem = replace(problem, rule=self._rule_of(problem.kind))
            self._refused = (line.text, self._applied, saved, problem)
            self._problem(problem)

    def _alike(self, line: ActionLine) -> bool:
        """Does the dice provider give ``line`` the dice it would give the same text at the
        same draw on another line, and note nothing of it (``alike``; a provider without it:
        no)?"""
        alike = getattr(self.dice, "alike", None)
        return alike is not None and bool(alike(line))

    def _rule_of(self, kind: ProblemKind) -> str | None:
        """The rule a refusal without its own cites: a line out of turn or by the wrong side
        breaks the game's sequence of play; a line after the end, the rule that ended it."""
        info = self.engine.info
        if kind in (ProblemKind.WRONG_SIDE, ProblemKind.MISSING_DECISION):
            return info.sequence or None
        if kind == ProblemKind.GAME_OVER:
            return info.ending or None
        return None

    def _statement(self, line: ActionLine, item: CommandItem) -> bool:
        """A command that states a fact rather than acting (``german: hits none`` after a
        combat that left the German side no hits): the engine's ``confirm`` checks it against
        the state and answers its events, or None to treat it as an ordinary command.  A
        statement changes nothing and may come from a side that is not to act."""
        command = item.command
        confirm = getattr(self.engine, "confirm", None)
        if confirm is None or not getattr(command, "statement", False):
            return False
        state = self.report.state
        side = line.side if line.side is not None else self.engine.to_act(state)
        if side is None or self.engine.to_act(state) is None:
            return False
        if normalise(side) not in {normalise(name) for name in self.engine.info.sides}:
            return False  # the side check names the unknown side
        self._undo_point()  # a statement may change the state (an Arnhem '44 late reveal)
        state = self.report.state
        events = confirm(state, normalise(side), command)
        if events is None:
            return False
        self._stated = True
        for event in events:
            self.report.events.append(LineEvent(line.number, str(command), event, False))
        return True

    def _undo_point(self) -> None:
        """Before the line being applied first changes the state: the driver's copy of it,
        the line's undo (``_line_start``)."""
        start = self._line_start
        if start is not None and start[0] is None:
            self._line_start = (self.engine.copy(self.report.state), start[1])

    def _check_side(self, line: ActionLine, item: CommandItem) -> None:
        state = self.report.state
        actor = self.engine.to_act(state)
        command = item.command
        if actor is None:
            outcome = self.engine.outcome(state)
            reason = outcome.get("reason") or outcome.get("result") or "it has ended"
            raise GameOver(
                f"the game is already over ({reason}); this line comes after its end",
                column=item.column,
            )
        if getattr(command, "chance", False):
            out_of_turn = getattr(self.engine, "out_of_turn", None)
            skipped = out_of_turn(state, command) if out_of_turn is not None else None
            if skipped is not None:
                skipped.column = skipped.column or item.column
                raise skipped
            if actor != REFEREE:
                raise WrongSide(
                    f"'{command}' is a roll the referee makes at its step of the turn; "
                    f"the game now awaits {side_title(actor)}: {self.engine.decision(state)}",
                    column=item.column,
                )
            if line.side not in (None, REFEREE):
                raise WrongSide(
                    f"'{command}' is the referee's roll, not {side_title(line.side)}'s",
                    column=item.column,
                )
            return
        if actor == REFEREE:
            raise MissingDecision(
                f"the referee's own step comes first: {self.engine.decision(state)}; this log "
                f"has no seed, so write that step as a line with its dice before this one",
                column=item.column,
            )
        if line.side is not None and normalise(line.side) != normalise(actor):
            info = self.engine.info
            known = {normalise(name) for name in (*info.sides, *info.players, REFEREE)}
            if normalise(line.side) not in known:
                players = ", ".join((*info.sides, *info.players))
                raise WrongSide(
                    f"'{line.side}' is not a side or player of this game ({players}); the "
                    f"game now awaits {side_title(actor)}: {self.engine.decision(state)}",
                    column=1,
                )
            raise MissingDecision(
                f"awaiting {side_title(actor)}: {self.engine.decision(state)}; "
                f"this line is {side_title(line.side)}'s",
                column=1,
            )

    def _apply(self, line: ActionLine | None, item: CommandItem | None, command: Any = None,
               auto: bool = False) -> None:
        record: DiceRecord | None = None
        if item is not None:
            command = item.command
            record = item.dice
        dice = self.dice
        assert dice is not None
        engine = self.engine
        start = self._line_start
        if start is not None and start[0] is None:  # ``_undo_point``, inline
            start = self._line_start = (engine.copy(self.report.state), start[1])
        at = dice.dice_for(line, self.position, self._line_draw)
        stream = at.stream
        if record is None:
            tray = DiceTray(stream, at.start, subject=command)
        elif record.chits:
            tray = DiceTray(stream, at.start, recorded_chits=record.chits, subject=command)
        else:
            tray = DiceTray(stream, at.start, recorded=record.faces,
                            recorded_sides=record.sides, subject=command)
        self._json = None
        # The roll described before it is rolled, for the messages about dice (a tabletop
        # line, or one that records its dice); a seeded line without a record asks nothing.
        # It is described only when a message says it (the description tries the command on
        # a copy: a tenth of an Arnhem '44 replay, issue 31), from the state before the
        # command (``before`` below, kept for every such line); after a statement of this
        # line changed the state (``_statement``), the line's first copy is not that state,
        # and it is described now.
        described = stream is None or record is not None
        stated: list[RollNeed] | None = None
        if described and self._stated:
            stated = engine.rolls_needed(self.report.state, command)
        before = None
        if record is not None or type(stream) is not DiceStream:
            # Dice the log records, or none to roll: the command may be refused for its
            # dice, and then judged from the state before it (the engine may leave the state
            # part-changed by a refusal: Engine.apply).  Rolled from a stream, it cannot be.
            # The first command a line applies starts from the driver's copy of the line.
            if line is not None and start is not None and start[1] == self._applied:
                before = start[0]
            else:
                before = engine.copy(self.report.state)
        self._applied += 1
        try:
            events = engine.apply(self.report.state, command, tray)
        except (DiceMissing, DiceFaceError) as error:
            self._judge_without_dice(command, self.report.state if before is None else before)
            if error.column is None and record is not None:
                error.column = record.column  # the caret at the dice written
            if isinstance(error, DiceMissing) and described and (
                needs := self._described(command, before, stated)
            ):
                raise DiceMissing(_missing_text(command, needs, record),
                                  column=error.column) from None
            raise
        rolls = tray.rolls
        dice.rolled(line, rolls)
        drawn = tray.position - at.start
        self.position += drawn
        self._line_draw += drawn
        number = line.number if line is not None else None
        if record is not None:
            self._check_record(line, command, record, tray, at, before, stated)
        words = str(command) if events else ""
        attach = False
        if rolls:
            rolled = tuple(rolls)
            attach = True
            for event in events:
                if event.rolls:
                    attach = False
                    break
        else:
            rolled = ()
        if not auto:
            self._last = (command, events, rolled)
        append = self.report.events.append
        for event in events:
            # Unless the engine placed them, the dice go with the command's first event.
            if attach:
                event = event.with_rolls(rolled)
                attach = False
            append(_line_event(number, words, event, auto))

    def _described(self, command: Any, before: Any,
                   stated: list[RollNeed] | None) -> list[RollNeed]:
        """The roll of ``command`` as the engine describes it: from the state before it, or
        the description made already (``stated``, after a statement of the line)."""
        if stated is not None:
            return stated
        assert before is not None  # a line described is one whose dice may be refused
        return self.engine.rolls_needed(before, command)

    def _check_record(self, line: ActionLine | None, command: Any, record: DiceRecord,
                      tray: DiceTray, at: DiceAt, before: Any,
                      stated: list[RollNeed] | None) -> None:
        """The dice a line records against those the rules rolled: too many, too few, or
        changed."""
        rolled = 0
        for roll in tray.rolls:
            rolled += len(roll.faces)  # len(tray.faces), without making them
        unused = tray.unused
        if not unused and not (at.stream is not None and record.count < rolled) and (
            not tray.mismatches
        ):
            return
        number = line.number if line is not None else None
        text = line.text if line is not None else ""
        verb, die = ("drew", "chit") if record.chits else ("rolled", "die")
        needed = ""
        if unused or (at.stream is not None and record.count < rolled):
            needs = self._described(command, before, stated)  # a message names the roll
            needed = f"'{command}' needs {needs_text(needs)}; " if needs else (
                f"'{command}' rolls no dice; " if not rolled else "")
        if unused:
            raise DiceExtra(
                f"{needed}{record.count} {record.noun} recorded, {unused} too many "
                f"(the rules {verb} {rolled})" if needed else
                f"{record.count} {record.noun} recorded for '{command}', but the rules "
                f"{verb} {rolled}{_breakdown(tray.rolls)}",
                column=face_column(text, record.column, record.count - unused),
            )
        if at.stream is not None and record.count < rolled:
            self._problem(Problem(
                ProblemKind.DICE_MISSING,
                f"{needed}{record.count} {record.noun} recorded for '{command}', but the "
                f"rules {verb} {rolled}: {' '.join(map(str, tray.faces))}",
                line=number, column=record.column, text=text,
            ))
        for n, recorded, rolled_face in tray.mismatches:
            self._problem(Problem(
                ProblemKind.DICE_MISMATCH,
                f"{die} {n} of '{command}' is recorded as {recorded}, but {at.source} "
                f"{verb} {rolled_face}: the dice were changed after they were rolled",
                line=number, column=face_column(text, record.column, n - 1), text=text,
                hint="the referee used the seeded die",
            ))

    def _judge_without_dice(self, command: Any, state: Any) -> None:
        """A command refused for its dice (too few recorded, or of another kind) is first
        judged as if any dice had come: when the rules forbid it with the lowest faces and
        with the highest alike (the same rule, the same sentence), it is illegal whatever the
        dice, and that refusal is raised instead: the player reads the rule broken, not a
        request for dice that would not make the line legal.  ``state``: the state before
        the command."""
        refusals: list[IllegalMove] = []
        for face in (LOWEST, HIGHEST):
            trial = self.engine.copy(state)
            tray = DiceTray(face, 0, subject=command)
            try:
                self.engine.apply(trial, command, tray)
            except IllegalMove as refusal:
                refusals.append(refusal)
            except RefereeError:
                return
            else:
                return
        first, second = refusals
        if (first.rule, first.message) == (second.rule, second.message):
            raise first

    def _settle_end(self) -> None:
        """The referee's own steps after the last line.  One the engine refuses (a rules bug,
        or a roll a tabletop log does not write) is a problem at the end, never a traceback,
        and leaves the state as the last line left it."""
        saved = self.engine.copy(self.report.state)
        saved_position = self.position
        saved_events = len(self.report.events)
        try:
            self._advance(None, None, chance=self.settle)
        except RefereeError as error:
            self.report.state = saved
            self._json = None
            self.position = saved_position
            del self.report.events[saved_events:]
            self._problem(error.to_problem(line=None, text=""))

    def _advance(
        self, line: ActionLine | None, item: CommandItem | None, *, chance: bool = True
    ) -> None:
        """Apply what the referee applies by itself before ``item`` (or at the end); chance
        steps only with ``chance`` and when the dice provider may roll them."""
        engine = self.engine
        for _ in range(10_000):
            state = self.report.state
            actor = engine.to_act(state)
            if actor is None:
                return
            forced = engine.forced(state)
            if forced is None:
                return
            next_command = item.command if item is not None else None
            if getattr(forced, "chance", False):
                if next_command is not None and getattr(next_command, "chance", False):
                    return  # the log writes the roll itself
                if not chance or self.dice is None or not self.dice.auto_chance:
                    return  # a tabletop log must write the roll with its dice
            elif next_command is not None and line is not None and (
                (line.side is not None and normalise(line.side) == normalise(actor)
                 and type(next_command) is type(forced))
                or (line.side is None and str(next_command) == str(forced))
            ):
                # The side to act answers in this very line (a line that names the side and
                # writes that kind of command, or one that writes the only answer); a line for
                # anything else, that side's next decision included, comes after it.
                return
            elif next_command is not None and line is not None and self._answers_now(
                line, actor, chance=chance
            ):
                return
            self._apply(None, None, forced, auto=True)
        raise AssertionError("the engine keeps forcing commands without end")

    def _answers_now(self, line: ActionLine, actor: str, *, chance: bool) -> bool:
        """Is ``line`` the answer of the side to act to the decision open now, though that
        decision has one legal answer the referee would apply by itself?  It is when the line
        names that side and, once the referee had applied its own steps (rolling what it may
        roll), that side would no longer be the one to act: the line cannot be the side's next
        decision, so it is judged as its answer to this one (issue 28: the German's
        ``redeploy`` is refused by 4.0, not for the Artillery Points roll that would follow
        the end of the Redeployment Phase)."""
        if line.side is None or normalise(line.side) != normalise(actor):
            return False
        engine = self.engine
        view = self.report.state
        position = self.position
        auto = chance and self.dice is not None and self.dice.auto_chance
        for _ in range(10_000):
            if engine.to_act(view) is None:
                break
            forced = engine.forced(view)
            if forced is None:
                break
            rolls = getattr(forced, "chance", False)
            if rolls and not auto:
                break
            at = self.dice.dice_for(None, position, 0) if rolls and self.dice else None
            tray = DiceTray(at.stream if at else None, position, subject=forced)
            trial = engine.copy(view)  # a refused step may leave its state part-changed
            try:
                engine.apply(trial, forced, tray)
            except RefereeError:
                break
            view = trial
            position = tray.position
        after = engine.to_act(view)
        return after is None or normalise(after) != normalise(actor)

    # -- assertions ------------------------------------------------------------------------

    def _settled(self) -> Any:
        """The state an assertion sees: a copy with the referee's own steps still to come
        applied, as if the next line did not write them; a roll stays unrolled when the next
        line records it or there is no seed.  The replay itself is not changed."""
        engine = self.engine
        upcoming = self._next_action
        written_roll = upcoming is not None and any(
            getattr(item.command, "chance", False) for item in upcoming.items
        )
        view = self.report.state
        position = self.position
        for _ in range(10_000):
            forced = engine.forced(view) if engine.to_act(view) is not None else None
            if forced is None:
                break
            chance = getattr(forced, "chance", False)
            if chance and (written_roll or self.dice is None or not self.dice.auto_chance):
                break
            at = self.dice.dice_for(None, position, 0) if chance and self.dice else None
            tray = DiceTray(at.stream if at else None, position, subject=forced)
            trial = engine.copy(view)
            try:
                engine.apply(trial, forced, tray)
            except RefereeError:
                break
            position = tray.position
            view = trial
        return view

    def _value(self, key: str, view: Any) -> tuple[bool, Any]:
        """One top-level value of the state's JSON (or ``outcome``), matched regardless of
        case.  An engine with ``json_parts`` computes only the value named; otherwise the
        whole state JSON is made once and kept until the state changes, so a run of
        assertions costs one lookup each."""
        wanted = normalise(key)
        state = view
        if wanted == "outcome":
            return True, self.engine.outcome(state)
        parts = getattr(self.engine, "json_parts", None)
        if parts is not None:
            for name, get in parts(state).items():
                if normalise(name) == wanted:
                    return True, get()
        if state is not self.report.state:  # the settled view: a copy, not cached
            return lookup(self.engine.to_json(state), [key])
        if self._json is None:
            self._json = self.engine.to_json(state)
        return lookup(self._json, [key])

    def _turn(self, entry: TurnAssertion, view: Any) -> None:
        actual = self._value("turn", view)[1]
        half = self._value("half", view)[1]
        wrong_half = entry.half is not None and (
            half is None or normalise(str(half)) != normalise(entry.half)
        )
        if actual != entry.turn or wrong_half:
            said = f"turn {entry.turn}" + (f" {entry.half}" if entry.half else "")
            real = f"turn {actual}" + (f" {half}" if half and entry.half else "")
            self._problem(Problem(
                ProblemKind.ASSERTION, f"the log says {said}, but it is {real}",
                line=entry.number, column=entry.column, text=entry.text,
            ))

    def _expect(self, entry: Expectation, view: Any) -> None:
        head, *rest = entry.key.split(".")
        if normalise(head) == "last":
            last = self._last
            if last is None:
                self._problem(Problem(
                    ProblemKind.ASSERTION,
                    f"'{entry.key}' is the result of the last command, and no line of the log "
                    f"has applied one yet",
                    line=entry.number, column=entry.column, text=entry.text,
                ))
                return
            said = noted(*last, engine=self.engine)
            found, value = lookup(said, rest) if rest else (True, said["command"])
        else:
            found, value = self._value(head, view)
            if found:
                found, value = lookup(value, rest)
            if not found and left_out(self._value(head, view)[1], rest,
                                      self.engine.to_json(view), entry.value):
                return  # left out because it is empty, as the log says
        if not found:
            self._problem(Problem(
                ProblemKind.ASSERTION, f"the state has no value '{entry.key}'",
                line=entry.number, column=entry.column, text=entry.text,
            ))
            return
        if value is None:
            shown = "null"
        else:
            shown = str(value).lower() if isinstance(value, bool) else str(value)
        if normalise(shown) != normalise(entry.value):
            self._problem(Problem(
                ProblemKind.ASSERTION,
                f"the log expects {entry.key} = {entry.value}, but it is {shown}",
                line=entry.number, column=entry.column, text=entry.text,
            ))


_ROOT_KINDS = frozenset({
    ProblemKind.ILLEGAL_MOVE, ProblemKind.WRONG_SIDE, ProblemKind.MISSING_DECISION,
    ProblemKind.GAME_OVER, ProblemKind.NOT_IMPLEMENTED, ProblemKind.DICE_EXTRA,
    ProblemKind.DICE_MISSING, ProblemKind.DICE_FACE, ProblemKind.POSITION,
})
"""Problems whose line the replay skipped (or whose position it could not set up): the
state goes on without it, so what the log says afterwards may no longer fit."""

_FOLLOW_KINDS = frozenset({
    ProblemKind.WRONG_SIDE, ProblemKind.MISSING_DECISION, ProblemKind.ASSERTION,
    ProblemKind.GAME_OVER,
})
"""Problems that say the log and the referee disagree about where the game stands (whose
turn, which step, what the state is): while a skipped line's decision is still open, they
are what its absence causes.  An illegal move, an unknown name, a die too many or changed is
a mistake of its own: the rules judged that very command at the step the log wrote it for."""


def _missing_text(command: Any, needs: Sequence[RollNeed], record: DiceRecord | None) -> str:
    """The dice a tabletop line lacks, as the engine describes them: ``'attack 406 Wyler'
    needs 4 d10 for 406 at Wyler (strength 4); 3 dice recorded, 1 short``."""
    needed = f"'{command}' needs {needs_text(needs)}"
    first = needs[0]
    chits = first.die == CUP
    if record is None:
        example = (f"{{{CUP}: NAME}}" if chits
                   else "{" + first.die + ": " + " ".join(["4"] * min(first.count, 6)) + "}")
        what = "no draw" if chits else "no dice"
        return (f"{needed}; the log has no [Seed] tag and this line records {what}; write "
                f"{'the chit drawn' if chits else 'the dice rolled'} at the table (for example "
                f"{example}) or give a seed (--seed)")
    count = needs_count(needs)
    short = (f", {count - record.count} short" if count > record.count
             else ", too few for the dice that follow")
    noun = "die" if record.count == 1 and not record.chits else record.noun
    return f"{needed}; {record.count} {noun} recorded{short}"


_CITES_RULE = re.compile(r"\b\d+\.\d+\)$")
"""A dice label that ends citing a rule section, as ``(... 7.1)``: it says why."""


def _breakdown(rolls: list[Any]) -> str:
    """How the dice a command rolled came about, roll by roll, when there are several (or
    the engine gave a reason): ``: 2 for 21G/5G at Borkel (armor in woods...), 4 for ...``."""
    labelled = [roll for roll in rolls if roll.label]
    if not labelled or (len(labelled) == 1 and not _CITES_RULE.search(labelled[0].label)):
        return ""
    return ": " + ", ".join(f"{len(roll.faces)} for {roll.label}" for roll in labelled)


def _at_line(problem: Problem, number: int) -> Problem:
    """``replace(problem, line=number)``, without its checks: the problem was made once
    already (``replace`` was most of the cost of a repeated refused line)."""
    fresh: Problem = object.__new__(type(problem))
    fresh.__dict__.update(problem.__dict__)
    fresh.__dict__["line"] = number
    return fresh


def _next_actions(entries: list[Entry], limit: int | None) -> list[ActionLine | None]:
    """For each entry, the first action line after it (within ``limit``), if any: one pass
    from the end, so a replay stays linear in the number of entries."""
    found: list[ActionLine | None] = [None] * len(entries)
    upcoming: ActionLine | None = None
    for index in range(len(entries) - 1, -1, -1):
        found[index] = upcoming
        entry = entries[index]
        if limit is not None and entry.number > limit:
            upcoming = None
        elif isinstance(entry, ActionLine):
            upcoming = entry
    return found


def replay(
    log: ParsedLog,
    engine: Engine[Any, Any] | None = None,
    *,
    seed: str | None = None,
    strict: bool = False,
    upto: int | None = None,
) -> Report:
    """Replay a parsed log and report what it found.  ``engine`` defaults to the log's game
    (on the scenario file it names, when it names one)."""
    engine = engine or log.engine
    if engine is None and not log.unreadable:
        from referee.games import engine_for

        try:
            engine = engine_for(log.game or "")
        except RefereeError as error:  # a log parsed by hand with another engine's grammar
            problem = Problem(ProblemKind.HEADER, error.message, line=log.tag_lines.get("Game"))
            problems = [*log.problems, problem]
            return Report(log.game, log.source, dict(log.tags), problems)
    if engine is None:
        return Report(log.game, log.source, dict(log.tags), list(log.problems))
    return Replayer(log, engine, seed=seed, strict=strict, upto=upto).run()
