"""``referee mail``: the body of the next e-mail of a game played by e-mail.

What happened since the reader last saw the log (each line with its dice and its events in
words), that it is proved (``verify``, with ``--since`` the copy mailed before: a cheat is
the first thing the mail says), whose turn it is, what they decide and the exact command
they run, and the board written beside the log.  The text itself is laid out by
``referee.output_mail.print_mail`` (at most 72 columns, safe from mail clients' habits).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.core.log import ActionLine
from referee.pbem.advice import Advice, advise
from referee.pbem.chain import code_of
from referee.pbem.mode import DiceMode, who
from referee.pbem.table import Table, open_log, parse_text, read_text
from referee.pbem.verify import Finding, Verdict, verify_table
from referee.pbem.verify import _order as finding_order
from referee.pbem.verify import extends as extends_copy


@dataclass(frozen=True)
class MailLine:
    """One line of the log the reader has not seen: its commands with their dice, and
    what happened, in words."""

    number: int
    side: str | None
    """The side that wrote the move; ``None`` for the referee's own step (a roll)."""
    text: str
    events: tuple[str, ...] = ()
    rolled: bool = False
    """True when the line was there before and only its dice are new."""

    def to_json(self) -> dict[str, Any]:
        return {"line": self.number, "side": self.side, "text": self.text,
                "events": list(self.events), "rolled": self.rolled}


@dataclass
class Mail:
    """What ``referee mail`` says (``referee.output`` writes it as text or JSON)."""

    source: str
    log_name: str
    """The log's file name, as the commands of the mail name it (``game.log``)."""
    game: str
    title: str
    dice: str
    reader: str | None
    """The party the mail is for: the one who acts next."""
    since: str
    """Where the new lines start, in words."""
    lines: list[MailLine]
    verdict: Verdict
    advice: Advice
    turn: str | None = None
    result: str = ""
    board: str | None = None
    notes: list[str] = field(default_factory=list)
    kind: DiceMode = DiceMode.TABLE
    v2: bool = False
    copy: str | None = None
    """The copy mailed before that the log was checked against (``--since``)."""
    given: tuple[str, ...] = ()
    """The parties whose secrets were given (their seals are checked)."""
    rolled: int = 0
    """How many lines of the log record dice."""

    @property
    def cheats(self) -> list[Finding]:
        return list(self.verdict.findings)

    @property
    def exit_code(self) -> int:
        return self.verdict.exit_code


    def proof(self) -> str:
        """The ``verify`` of the log in one sentence (the problems are listed apart)."""
        if self.verdict.findings:
            count = len(self.verdict.findings)
            return (f"WARNING: {count} problem{'s' if count != 1 else ''} found in "
                    f"{self.log_name}: it breaks the rules or is not the log that was played "
                    f"(a cheat, or a file damaged on its way); do not play on before it is "
                    f"explained ('referee verify {self.log_name}' tells more).")
        parts = ["every move is legal"]
        if self.kind is DiceMode.TABLE:
            parts.append("the dice are those the table recorded (nothing proves them)")
        elif self.kind is DiceMode.SEEDED:
            parts.append("every die is the public [Seed]'s")
        elif self.v2:
            whose = ("the moderator's" if self.kind is DiceMode.MODERATED
                     else "its roller's")
            if self.rolled == 0:
                parts.append("no die has been rolled yet")
            else:
                rolled = ("the 1 rolled line" if self.rolled == 1
                          else f"the {self.rolled} rolled lines")
                parts.append(f"every die of {rolled} follows {whose} committed chain")
        else:
            parts.append("the dice wait for the secrets (protocol v1)")
        if self.copy is not None:
            parts.append(f"the log only adds to {self.copy}")
        if self.given:
            parts.append("the seals of " + " and ".join(who(p) for p in self.given)
                         + " are good")
        seals = [u for u in self.verdict.unchecked if "seals" in u]
        other = "the other seals" if self.given else "the seals"
        tail = (f"; {other} are proved at the end, by 'referee verify' with the secrets"
                if seals else "")
        if seals and self.kind is DiceMode.MODERATED:
            tail = "; the moderator's seals are proved when the secret is published"
        return "Verified: " + ", ".join(parts[:-1]) + f" and {parts[-1]}" + tail + "."


def mail_of(path: Path, secret_files: Sequence[Path] = (), since: Path | None = None
            ) -> Mail:
    """The mail of the log at ``path``; ``since``: the copy of the log mailed before (the
    new lines are those after it, and the log must only add to it)."""
    table = open_log(path, secret_files)
    return mail_of_table(table, path.name, since)


def mail_of_table(table: Table, log_name: str, since: Path | None = None) -> Mail:
    verdict = verify_table(table)
    older_count: int | None = None
    older_pending: int | None = None
    if since is not None:
        older = parse_text(read_text(since), str(since), table.engine, since)
        verdict.findings += extends_copy(older, table)
        if not any(f.kind == "rewritten" for f in verdict.findings):
            verdict.proved.append(f"the log only adds to {since}: nothing in it was changed")
        older_count = len(older.actions)
        if older.actions and not any(i.dice is not None for i in older.actions[-1].items):
            older_pending = older_count
    verdict.findings.sort(key=finding_order)
    step = verdict.next
    assert step is not None and verdict.report is not None
    advice = advise(table.mode, step, log_name)
    reader = advice.party if advice.party is not None else advice.actor
    if table.mode.kind is DiceMode.MODERATED:
        reader = advice.actor or advice.party
    actions = table.log.actions
    if older_count is not None:
        first = older_count  # index of the first new action line
        if older_pending is not None and older_pending <= len(actions):
            filled = actions[older_pending - 1]
            first = older_pending - 1 if _has_dice(filled) else older_count
        where = f"since {since}"
    else:
        first, where = _since_reader(actions, reader)
    events: dict[int, list[str]] = {}
    for item in verdict.report.events:
        if item.line is not None:
            events.setdefault(item.line, []).append(item.event.text)
    lines = []
    for index, line in enumerate(actions[first:], start=first):
        rolled = older_count is not None and index < older_count
        lines.append(MailLine(line.number, _side(line), _code(line),
                              tuple(events.get(line.number, ())), rolled))
    from referee.pbem.status import status_of_replay

    status = status_of_replay(table, verdict.report, step)
    return Mail(table.source, log_name, table.engine.info.id, table.engine.info.title,
                table.mode.describe(), reader, where, lines, verdict, advice,
                turn=status.turn, result=status.result, kind=table.mode.kind,
                v2=table.mode.v2, copy=None if since is None else str(since),
                given=tuple(table.secrets),
                rolled=sum(1 for a in actions if _has_dice(a)))


def _since_reader(actions: Sequence[ActionLine], reader: str | None) -> tuple[int, str]:
    """Without a copy: the lines after the last one the reader wrote (that one too when its
    dice were rolled by the other side since), or after the last line of the other side
    when the reader wrote the last one."""
    sides = [_side(a) for a in actions]
    if reader is None or reader not in sides:
        last_writer = next((s for s in reversed(sides) if s is not None), None)
        others = [i for i, s in enumerate(sides) if s is not None and s != last_writer]
        if not others:
            return 0, "since the start of the game"
        return others[-1] + 1, f"since the last line of {who(sides[others[-1]])}"
    last = max(i for i, s in enumerate(sides) if s == reader)
    if last == len(actions) - 1:
        others = [i for i, s in enumerate(sides) if s is not None and s != reader]
        start = others[-1] + 1 if others else 0
        return start, f"since the last line of {who(sides[others[-1]]) if others else 'anyone'}"
    start = last if _has_dice(actions[last]) else last + 1
    return start, f"since {who(reader)}'s last line"


def _side(line: ActionLine) -> str | None:
    return line.side.lower() if line.side else None


def _has_dice(line: ActionLine) -> bool:
    return any(item.dice is not None for item in line.items)


def _code(line: ActionLine) -> str:
    """The line's commands and dice, without its comment and its side (said apart)."""
    code = " ".join(code_of(line.text).split())
    if line.side and code.lower().startswith(line.side.lower() + ":"):
        code = code[len(line.side) + 1:].strip()
    return code
