"""The replay driver: apply a parsed log to a game's engine, line by line.

It collects every problem (an illegal line is skipped, its state change undone, and replay
goes on) unless ``strict`` stops it at the first.  Chance steps and single-answer decisions
that the log does not write are applied by the referee itself (``Engine.forced``): a chance
step only when there is a seed to roll it with.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.core.dice import CURRENT_DICE_VERSION, DICE_VERSIONS, DiceStream, DiceTray
from referee.core.engine import REFEREE, Engine, RollNeed
from referee.core.errors import (
    DiceFaceError,
    DiceMissing,
    GameOver,
    HeaderError,
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
from referee.core.replay_assert import Assertions
from referee.core.replay_dice import LATER, DiceChecks, _missing_text, _tray
from referee.core.replay_report import (
    MAX_CHOICES,
    DiceAt,
    DiceProvider,
    LineEvent,
    Report,
    SeededDice,
    _line_event,
)
from referee.core.replay_state import _Stop

__all__ = [
    "MAX_CHOICES",
    "DiceAt",
    "DiceProvider",
    "LineEvent",
    "Replayer",
    "Report",
    "SeededDice",
    "options_of",
    "replay",
    "scenario_of",
    "seed_of",
]


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


class Replayer(Assertions, DiceChecks):
    """Replays one log against one engine; ``run`` returns the report."""

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
        self._redo.clear()
        confirm = self._confirm
        try:
            for item in line.items:
                actor = self._advance(line, item)
                if confirm is not None and getattr(item.command, "statement", False):
                    if self._statement(line, item):
                        continue
                    actor = self.engine.to_act(self.report.state)  # asked again: the check
                self._check_side(line, item, actor)
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
        self._redo.append((command, normalise(side), -1, None))
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

    def _check_side(self, line: ActionLine, item: CommandItem, actor: str | None) -> None:
        """Is ``item`` of ``line`` the move of the side to act (``actor``: ``Engine.to_act``
        of the state as it stands, as ``_advance`` left it)?"""
        state = self.report.state
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
        tray = _tray(stream, at.start, command, record)
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
            # A later command of the line (or a step of the referee's within it) is judged
            # by the line's copy with the line's changes made again (``_state_before``), and
            # only when a message needs it: one copy a line (issue 31).
            if line is not None and start is not None and start[1] == self._applied:
                before = start[0]
            elif start is not None and start[0] is not None:
                before = LATER
            else:
                before = engine.copy(self.report.state)
        self._applied += 1
        try:
            events = engine.apply(self.report.state, command, tray)
        except (DiceMissing, DiceFaceError) as error:
            self._judge_without_dice(
                command, self.report.state if before is None else self._state_before(before))
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
        if start is not None:  # the line's change, to be made again on its copy
            self._redo.append((command, stream, at.start, record))
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
        if not events:
            return
        append = self.report.events.append
        of: object = command  # the words made when first read, then shared (LineEvent)
        for event in events:
            # Unless the engine placed them, the dice go with the command's first event.
            if attach:
                event = event.with_rolls(rolled)
                attach = False
            made = _line_event(number, of, event, auto)
            append(made)
            if of is command:
                of = made  # the command's first event

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
    ) -> str | None:
        """Apply what the referee applies by itself before ``item`` (or at the end); chance
        steps only with ``chance`` and when the dice provider may roll them.  The side to act
        then (``Engine.to_act`` of the state it leaves: the side check asks it next)."""
        engine = self.engine
        for _ in range(10_000):
            state = self.report.state
            actor = engine.to_act(state)
            if actor is None:
                return None
            forced = engine.forced(state)
            if forced is None:
                return actor
            next_command = item.command if item is not None else None
            if getattr(forced, "chance", False):
                if next_command is not None and getattr(next_command, "chance", False):
                    return actor  # the log writes the roll itself
                if not chance or self.dice is None or not self.dice.auto_chance:
                    return actor  # a tabletop log must write the roll with its dice
            elif next_command is not None and line is not None and (
                (line.side is not None and normalise(line.side) == normalise(actor)
                 and type(next_command) is type(forced))
                or (line.side is None and str(next_command) == str(forced))
            ):
                # The side to act answers in this very line (a line that names the side and
                # writes that kind of command, or one that writes the only answer); a line for
                # anything else, that side's next decision included, comes after it.
                return actor
            elif next_command is not None and line is not None and self._answers_now(
                line, actor, chance=chance
            ):
                return actor
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
