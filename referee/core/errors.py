"""Exception classes and the problem record.

Every problem the referee reports carries where it is (line, column), what it is (kind),
the rule it breaks where there is one, and a sentence a player understands.  Exceptions are
precise, in the manner of python-chess: catch ``RefereeError`` for all of them, or one class
for one kind of trouble.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class ProblemKind(StrEnum):
    """What kind of trouble a problem is.  The value is the ``kind`` key in JSON output."""

    SYNTAX = "syntax"
    HEADER = "header"
    ENCODING = "encoding"
    LIMIT = "limit"
    UNKNOWN_NAME = "unknown-name"
    AMBIGUOUS_NAME = "ambiguous-name"
    ILLEGAL_MOVE = "illegal-move"
    WRONG_SIDE = "wrong-side"
    MISSING_DECISION = "missing-decision"
    DICE_MISSING = "dice-missing"
    DICE_EXTRA = "dice-extra"
    DICE_FACE = "dice-face"
    DICE_MISMATCH = "dice-mismatch"
    ASSERTION = "assertion"
    NOT_IMPLEMENTED = "not-implemented"
    POSITION = "position"
    GAME_OVER = "game-over"


# Kinds that mean "the log could not be read" (exit code 2) rather than "the log breaks the
# rules" (exit code 1).
UNREADABLE_KINDS = frozenset(
    {
        ProblemKind.SYNTAX,
        ProblemKind.HEADER,
        ProblemKind.ENCODING,
        ProblemKind.LIMIT,
        ProblemKind.UNKNOWN_NAME,
        ProblemKind.AMBIGUOUS_NAME,
    }
)


_ENDINGS = (".", "?", "!")


def sentence(text: str) -> str:
    """``text`` as a sentence: a full stop added unless it ends with one, a question mark or
    an exclamation mark (or is empty)."""
    stripped = text.rstrip()
    if not stripped or stripped.endswith(_ENDINGS):
        return stripped
    return stripped + "."


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a log, at one place in it."""

    kind: ProblemKind
    message: str
    line: int | None = None
    column: int | None = None
    text: str = ""
    rule: str | None = None
    hint: str | None = None
    follows: int | None = None
    """The earlier line, skipped as illegal, that this problem may follow from: the log and
    the referee have not agreed on any line since (the replay driver decides it)."""

    def __post_init__(self) -> None:
        # A problem is told in sentences: each ends with its punctuation.
        # (A hint is left as it is: it is often a list of commands to copy.)
        object.__setattr__(self, "message", sentence(self.message))

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "column": self.column,
            "kind": str(self.kind),
            "rule": self.rule,
            "message": self.message,
            "hint": self.hint,
            "text": self.text,
            "follows": self.follows,
        }


class RefereeError(Exception):
    """Base class of every error the referee raises on purpose."""

    kind: ProblemKind = ProblemKind.ILLEGAL_MOVE

    def __init__(self, message: str, *, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column

    def to_problem(self, line: int | None = None, text: str = "") -> Problem:
        return Problem(self.kind, self.message, line=line, column=self.column, text=text)


class LogSyntaxError(RefereeError):
    """A line of the log does not follow the log language."""

    kind = ProblemKind.SYNTAX


class HeaderError(RefereeError):
    """The tag pairs at the top of the log are missing, unknown or contradictory."""

    kind = ProblemKind.HEADER


class LogLimitError(RefereeError):
    """The log is larger than the referee reads (a line, the file, a number)."""

    kind = ProblemKind.LIMIT


class LogEncodingError(RefereeError):
    """The file is not UTF-8 text."""

    kind = ProblemKind.ENCODING


class UnknownName(RefereeError):
    """A name in the log matches nothing the game knows."""

    kind = ProblemKind.UNKNOWN_NAME

    def __init__(
        self, what: str, name: str, suggestions: Sequence[str] = (), *, column: int | None = None
    ) -> None:
        self.what = what
        self.name = name
        self.suggestions = tuple(suggestions)
        message = f"unknown {what} '{name}'"
        if self.suggestions:
            message += "; did you mean " + " or ".join(f"'{s}'" for s in self.suggestions) + "?"
        super().__init__(message, column=column)


class AmbiguousName(RefereeError):
    """A name in the log matches more than one thing."""

    kind = ProblemKind.AMBIGUOUS_NAME

    def __init__(
        self, what: str, name: str, matches: Sequence[str], *, column: int | None = None
    ) -> None:
        self.what = what
        self.name = name
        self.matches = tuple(matches)
        listed = ", ".join(f"'{m}'" for m in self.matches)
        super().__init__(f"{what} '{name}' could mean {listed}; write one of them", column=column)


class IllegalMove(RefereeError):
    """A command that the rules forbid in the current state.

    ``rule`` is the rulebook section broken (for example ``"6.3"``, or ``"Turn step 3"`` on the
    Battle Card); ``alternatives`` lists the legal commands where they are few.
    """

    kind = ProblemKind.ILLEGAL_MOVE

    def __init__(
        self,
        rule: str,
        message: str,
        alternatives: Sequence[str] = (),
        *,
        column: int | None = None,
    ) -> None:
        super().__init__(message, column=column)
        self.rule = rule
        self.alternatives = tuple(alternatives)

    def __str__(self) -> str:
        return f"[{self.rule}] {self.message}"

    def to_problem(self, line: int | None = None, text: str = "") -> Problem:
        hint = None
        if self.alternatives:
            hint = "legal here: " + "; ".join(self.alternatives)
        return Problem(
            self.kind, self.message, line=line, column=self.column, text=text,
            rule=self.rule, hint=hint,
        )


class NotImplementedRule(IllegalMove):
    """A rule the referee does not implement yet: it says so instead of pretending."""

    kind = ProblemKind.NOT_IMPLEMENTED


class GameOver(RefereeError):
    """A command after the game has ended."""

    kind = ProblemKind.GAME_OVER


class WrongSide(RefereeError):
    """A line written for a side that is not the one to act (or for no side of the game)."""

    kind = ProblemKind.WRONG_SIDE


class MissingDecision(RefereeError):
    """The log goes on while a decision (or a roll) that must come first is not written."""

    kind = ProblemKind.MISSING_DECISION


class DiceError(RefereeError):
    """Base class of the problems with dice records."""


class DiceMissing(DiceError):
    """The rules need a die that the log does not record (and there is no seed)."""

    kind = ProblemKind.DICE_MISSING


class DiceExtra(DiceError):
    """The log records more dice than the rules rolled."""

    kind = ProblemKind.DICE_EXTRA


class DiceFaceError(DiceError):
    """A recorded die shows a face it does not have, or is of the wrong kind."""

    kind = ProblemKind.DICE_FACE


@dataclass
class DiceMismatch:
    """A recorded die differs from the seeded stream: a tampering report, not an exception."""

    recorded: list[int] = field(default_factory=list)
    rolled: list[int] = field(default_factory=list)
