"""The exceptions of play-by-email: each says what is wrong in a sentence, and which exit code
it means (2: the log, a secret or the command line cannot be used; 1: the rules or the
protocol refuse)."""

from __future__ import annotations

from referee.core.errors import ProblemKind, RefereeError


class PbemError(RefereeError):
    """Base class of the play-by-email errors."""

    kind = ProblemKind.HEADER
    exit_code = 2


class SecretFileError(PbemError):
    """A secret file is missing, unreadable, or not a secret file."""


class SecretMismatch(PbemError):
    """A secret that is not the one its side committed to in the log's header: the protocol
    refuses it (exit 1, as ``verify`` reports a ``secret-mismatch``)."""

    kind = ProblemKind.ILLEGAL_MOVE
    exit_code = 1


class CommitmentError(PbemError):
    """The header's commitments are malformed, unknown or contradictory."""


class MissingSecret(PbemError):
    """The step needs a secret the command was not given (or another side's secret)."""


class MoveTextError(PbemError):
    """The move given to ``referee play`` is not one line of the game's log language."""


class NotAllowed(PbemError):
    """The protocol refuses the step: an undo after dice, a move on a broken log, ..."""

    kind = ProblemKind.ILLEGAL_MOVE
    exit_code = 1


class LogBusy(PbemError):
    """Another ``referee play`` (or ``undo``, ``join``) holds the log's lock."""
