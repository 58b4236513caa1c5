"""The replay driver's state, shared by its parts (``referee.core.replay`` and the
modules it is made of): what a replay holds between lines, and how it records a problem."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.core.dice import DiceStream, Roll
from referee.core.engine import Engine, Event
from referee.core.errors import Problem, ProblemKind
from referee.core.log import ActionLine, DiceRecord, ParsedLog, SetupLine
from referee.core.replay_report import DiceProvider, Report


class _Stop(Exception):
    """Replay cannot go on (strict mode, or a chance step without dice)."""


class ReplayState:
    """What one replay of a log against an engine holds; ``Replayer`` drives it."""

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
        self._redo: list[tuple[Any, Any, int, DiceRecord | None]] = []
        """What the line being applied has changed since its copy, in order, to be made again
        on a copy of it (``DiceChecks._state_before``): each command applied, with its dice
        stream, first draw and record; a statement as (command, side, -1, None)."""
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


