"""A log opened for play-by-email: its text, its game, its dice mode, the secrets at hand, and
a replay that says whose step comes next."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import field, replace
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.engine import REFEREE, Engine
from referee.core.errors import Problem, ProblemKind, RefereeError
from referee.core.files import LockHeld, locked
from referee.core.hidden import Concealable
from referee.core.log import ParsedLog
from referee.core.ownscenario import folder_of
from referee.core.parsing import (
    MAX_BYTES,
    apply_position,
    apply_scenario_file,
    decode_log,
    parse_log,
)
from referee.core.reading import read_bounded
from referee.core.records import frozen, record
from referee.core.replay import MAX_CHOICES, Replayer, Report
from referee.pbem.chain import Plan, code_of, plan_of
from referee.pbem.errors import LogBusy, PbemError, SecretFileError, SecretMismatch
from referee.pbem.hashchain import commitment_for
from referee.pbem.keys import Secret, read_secret, same
from referee.pbem.mode import DiceMode, Mode, commit_tag, mode_of, who
from referee.pbem.rolls import PbemDice

if TYPE_CHECKING:
    from referee.core.resume import Kept


class LogUnreadable(PbemError):
    """The log file cannot be read or parsed as a log of a known game."""


def read_text(path: Path) -> str:
    """The text of a log file, or ``LogUnreadable`` saying why not (``read_bounded``: a
    regular file only, never more than ``MAX_BYTES`` of it)."""
    try:
        return decode_log(read_bounded(path, MAX_BYTES, what="log"))
    except RefereeError as error:
        raise LogUnreadable(error.message) from None


@contextlib.contextmanager
def hold(path: Path, command: str) -> Iterator[None]:
    """The log's lock (``.NAME.lock`` beside it), or ``LogBusy`` saying who holds it."""
    try:
        with locked(path, command=f"referee {command}"):
            yield
    except LockHeld as error:
        raise LogBusy(error.message) from None
    except OSError as error:
        if isinstance(error, FileNotFoundError) and not path.exists():
            raise LogUnreadable(f"there is no log {path}") from None
        raise PbemError(f"cannot lock {path}: {error.strerror or error}") from None


@frozen
class NextStep:
    """Whose step comes next, and what it is.

    ``kind``: ``move`` (a side decides), ``roll`` (a written line waits for its dice),
    ``chance`` (the referee's roll, with ``party``'s secret when committed), ``join`` (a
    party has not committed yet) or ``over``.
    """

    kind: str
    party: str | None
    decision: str
    choices: tuple[str, ...] = ()
    line: int | None = None
    more: bool = False
    """More choices than the ``MAX_CHOICES`` listed."""

    def sentence(self) -> str:
        if self.kind == "over":
            return f"the game is over: {self.decision}"
        if self.kind == "join":
            return f"awaiting {who(self.party)}: {self.decision}"
        if self.kind in ("roll", "chance") and self.party is not None:
            return f"awaiting {who(self.party)}: roll {self.decision}"
        if self.kind == "chance":
            return f"awaiting the referee's roll: {self.decision}"
        return f"awaiting {who(self.party)}: {self.decision}"


@record
class Replay:
    """One replay of a table's log, with its chain and its dice."""

    report: Report
    plan: Plan
    dice: PbemDice
    next: NextStep

    @property
    def pending_line(self) -> int | None:
        return self.next.line if self.next.kind == "roll" else None

    @property
    def problems(self) -> list[Problem]:
        """The log's problems, except the roll its last line is waiting for."""
        pending = self.pending_line
        return [
            p for p in self.report.problems
            if not (p.line == pending and p.kind is ProblemKind.DICE_MISSING)
        ]

    def events_of(self, line: int) -> list[str]:
        return [e.event.text for e in self.report.events if e.line == line]


@record
class Table:
    """A log opened for play-by-email."""

    source: str
    text: str
    log: ParsedLog
    engine: Engine[Any, Any]
    mode: Mode
    secrets: dict[str, Secret] = field(default_factory=dict)
    rejected: list[tuple[Secret, str]] = field(default_factory=list)
    """Secrets that match no commitment of the log, each with the reason."""
    path: Path | None = None
    """The log's file (a ``[Position]`` file is read beside it)."""
    kept: list[Kept] | None = None
    """Positions kept by the replays of this log's texts (``None``: none are kept).  ``play``
    replays the log and then each text with a line more: with a public seed or dice written
    at the table, where a line's dice depend on nothing but the line and its draw number, each
    such replay starts from the last position kept before its new line
    (``referee.core.resume``) instead of the first line; its report is the same.  Positions
    are kept only among a text's last ``2 * KEEP_EVERY`` entries and after its last line
    (``KeepingReplayer(tail=..., keep_end=True)``): a line more replays that line alone."""

    def with_text(self, text: str) -> Table:
        """The same table with a new text (the header unchanged)."""
        return replace(self, text=text, log=parse_text(text, self.source, self.engine,
                                                       self.path))

    def plan(self) -> Plan:
        """The chain of seals over the log's action lines."""
        return plan_of(self.log, self.mode)

    def replay(self, *, capture: int | None = None, settle: bool | None = None,
               upto: int | None = None) -> Replay:
        """Replay the log.  ``settle`` (default: only with a public seed) lets the referee roll
        a chance step at the end that the log does not write."""
        plan = self.plan()
        dice = PbemDice(plan, self.secrets, seed=self.log.tags.get("Seed"), capture=capture)
        if settle is None:
            settle = self.mode.kind is DiceMode.SEEDED
        if (self.kept is not None and upto is None
                and self.mode.kind in (DiceMode.SEEDED, DiceMode.TABLE)):
            report = self._resumed(dice, settle, capture)
        else:
            report = Replayer(self.log, self.engine, upto=upto, dice=dice, settle=settle).run()
        if report.state is None:
            first = report.problems[0].message if report.problems else "it cannot be set up"
            raise LogUnreadable(f"{self.source}: {first}")
        return Replay(report, plan, dice, self._next(report, plan, dice))

    def _resumed(self, dice: PbemDice, settle: bool, capture: int | None) -> Report:
        """The replay of the log from the last kept position it allows (``kept``), keeping
        new ones; the dice provider keeps nothing of the lines before that position in these
        dice modes (no secret, no awaited roll), so the report is a whole replay's.  The line
        whose rolls are captured is always replayed (a position before it)."""
        from referee.core.resume import (
            KEEP_EVERY,
            KeepingReplayer,
            digests,
            entry_keys,
            latest,
            matches,
        )

        kept = self.kept or []
        keys = entry_keys(self.log)
        chain = digests(keys)
        start = latest(kept, self.log, None if capture is None else capture - 1, keys, chain)
        replayer = KeepingReplayer(self.log, self.engine, start=start, dice=dice,
                                   settle=settle, keep_end=True, tail=2 * KEEP_EVERY)
        report = replayer.run()
        reached = 0 if start is None else start.index
        self.kept = [k for k in kept if k.index <= reached and matches(k, chain)] + [
            k for k in replayer.kept if k.index > reached]
        return report

    def _next(self, report: Report, plan: Plan, dice: PbemDice) -> NextStep:
        engine, state = self.engine, report.state
        if self.mode.kind is DiceMode.TWO_SECRET and self.mode.missing:
            party = self.mode.missing[0]
            return NextStep("join", party, f"put {party}'s commitment into the header "
                            f"('referee join LOG --side {party}')")
        actions = self.log.actions
        if actions:
            last = actions[-1].number
            for line, party in dice.awaited:
                if line == last:
                    code = " ".join(code_of(actions[-1].text).split())
                    return NextStep("roll", party, f"the dice of line {line} ({code})",
                                    line=line)
        actor = engine.to_act(state)
        if actor is None:
            outcome = engine.outcome(state)
            return NextStep("over", None, str(outcome.get("reason") or outcome.get("result")))
        if actor == REFEREE:
            forced = engine.forced(state)
            rolls = (str(forced),) if forced is not None else ()
            return NextStep("chance", plan.chance_roller, engine.decision(state), rolls)
        # A page of the answers: two WWII Commander units in one space can have hundreds of
        # thousands of joint moves, which the engine yields lazily.
        listed = tuple(self._choice_text(c) for c in islice(engine.legal(state),
                                                             MAX_CHOICES + 1))
        return NextStep("move", actor, engine.decision(state), listed[:MAX_CHOICES],
                        more=len(listed) > MAX_CHOICES)


    def _choice_text(self, command: object) -> str:
        """A legal command as ``play`` takes it: in a committed game a face-down choice
        (``rig Son-bridge``) needs its value, which ``play`` turns into a commitment
        (``rig Son-bridge VALUE``; docs/pbem.md, "Hidden values")."""
        text = str(command)
        if (self.mode.committed and isinstance(command, Concealable)
                and command.conceal_value is None
                and getattr(command, "commitment", None) is None):
            return f"{text} {HIDDEN_VALUE}"
        return text


HIDDEN_VALUE = "VALUE"
"""The word a listed face-down choice carries where its value goes."""


def parse_text(text: str, source: str, engine: Engine[Any, Any] | None = None,
               path: Path | None = None) -> ParsedLog:
    """Parse a log's text, with the ``[Position]`` file it names read beside ``path``."""
    log = parse_log(text, source, engine=engine)
    log = apply_scenario_file(log, text, folder_of(path), engine)  # [Scenario "file:NAME"]
    if path is not None:
        apply_position(log, path)
    return log


def open_text(text: str, source: str, secrets: Sequence[Secret] = (),
              path: Path | None = None) -> Table:
    """Open the text of a log; ``LogUnreadable``/``CommitmentError`` when it cannot be."""
    from referee.games import engine_for

    log = apply_scenario_file(parse_log(text, source), text, folder_of(path))
    if log.unreadable:
        message = log.problems[0].message if log.problems else "it cannot be read"
        raise LogUnreadable(f"{source}: {message}")
    try:
        engine = log.engine or engine_for(log.game or "")
    except RefereeError as error:
        raise LogUnreadable(f"{source}: {error.message}") from None
    if path is not None:
        apply_position(log, path)
    table = Table(source, text, log, engine, mode_of(log, engine, text), path=path)
    refusal = getattr(engine, "two_secret_refusal", None)
    why = refusal(log.options) if refusal is not None else None
    if why and table.mode.kind is DiceMode.TWO_SECRET:
        raise LogUnreadable(f"{source}: {why}")
    table.secrets, table.rejected = _match(table.mode, secrets)
    return table


def open_log(path: Path, secret_files: Iterable[Path] = ()) -> Table:
    """Open a log file and the secret files given with it."""
    secrets = [read_secret(p) for p in secret_files]
    from referee.core.resources import shown  # a bundled log is named bundled:GAME/NAME

    return open_text(read_text(path), shown(path), secrets, path)


def require_secrets(table: Table) -> None:
    """Refuse a secret that is not the one its party committed to."""
    if table.rejected:
        raise SecretMismatch(table.rejected[0][1])


def _match(mode: Mode, secrets: Sequence[Secret]) -> tuple[dict[str, Secret],
                                                          list[tuple[Secret, str]]]:
    matched: dict[str, Secret] = {}
    rejected: list[tuple[Secret, str]] = []
    for secret in secrets:
        party = secret.party
        if not mode.committed:
            raise SecretFileError(
                f"{secret.source}: this log is not a committed game ({mode.describe()}); "
                f"it needs no secret"
            )
        if party in matched:
            raise SecretFileError(f"two secrets of {who(party)} were given")
        expected = mode.commitments.get(party)
        if expected is None:
            rejected.append((secret, (
                f"{secret.source} is {who(party)}'s secret, but this log has no "
                f"[{commit_tag(party)}]" + (f" (its parties: {', '.join(mode.parties)})"
                                            if mode.parties else "")
            )))
        elif not same(commitment_for(secret, mode.protocol), expected):
            line = mode.tag_lines.get(party)
            rejected.append((secret, (
                f"the secret in {secret.source} is not the one {who(party)} committed to in "
                f"[{commit_tag(party)}]" + (f" at line {line}" if line else "")
                + ": it is another secret (a swapped secret?)"
            )))
        else:
            matched[party] = secret
    return matched, rejected
