"""``referee verify``: recheck a whole log, and prove what the secrets at hand can prove.

Every move is replayed under the rules; every recorded die is compared with what the
committed secret of its roller makes; every seal with its writer's secret; every secret with
its commitment.  ``--since OLD`` also checks that the log only adds to a copy mailed before
(a move taken back after its dice were seen, or an old line played again, shows there).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.core.errors import UNREADABLE_KINDS, Problem
from referee.core.log import ActionLine, ParsedLog
from referee.core.replay import Report
from referee.pbem.chain import (
    LinePlan,
    broken_seals,
    free_tags,
    opening_lines,
    seal_of,
    start_seal_tag,
    written_body,
)
from referee.pbem.hidden import check as check_hidden
from referee.pbem.mode import DiceMode, Mode, commit_tag, tag_lines, who
from referee.pbem.table import NextStep, Replay, Table, open_log, parse_text, read_text


@dataclass(frozen=True)
class Finding:
    """One thing wrong with a log, at its line: a broken rule or a sign of tampering."""

    kind: str
    message: str
    line: int | None = None
    text: str = ""
    rule: str | None = None
    hint: str | None = None

    @classmethod
    def of(cls, problem: Problem) -> Finding:
        return cls(str(problem.kind), problem.message, problem.line, problem.text,
                   problem.rule, problem.hint)

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "kind": self.kind, "rule": self.rule,
                "message": self.message, "hint": self.hint, "text": self.text}


@dataclass
class Verdict:
    """What ``verify`` found and proved."""

    source: str
    game: str
    mode: Mode
    findings: list[Finding] = field(default_factory=list)
    proved: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)
    next: NextStep | None = None
    outcome: dict[str, Any] | None = None
    report: Report | None = None
    """The replay the verdict rests on (its state and pending decision)."""

    @property
    def exit_code(self) -> int:
        kinds = {str(k) for k in UNREADABLE_KINDS}
        if any(f.kind in kinds for f in self.findings):
            return 2
        return 1 if self.findings else 0

    @property
    def complete(self) -> bool:
        """True when nothing is wrong and nothing was left unchecked."""
        return not self.findings and not self.unchecked

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "game": self.game,
            "mode": str(self.mode.kind),
            "ok": not self.findings,
            "complete": self.complete,
            "exit_code": self.exit_code,
            "findings": [f.to_json() for f in self.findings],
            "proved": list(self.proved),
            "unchecked": list(self.unchecked),
            "next": None if self.next is None else self.next.sentence(),
            "outcome": self.outcome,
        }


def verify(path: Path, secret_files: Sequence[Path] = (), since: Path | None = None, *,
           table: Table | None = None) -> Verdict:
    """Verify the log at ``path`` with the secret files given (and an older copy); ``table``:
    the log already opened (read from standard input)."""
    if table is None:
        table = open_log(path, secret_files)
    verdict = verify_table(table)
    if since is not None:
        older = parse_text(read_text(since), str(since), table.engine, since)
        verdict.findings += extends(older, table)
        if not any(f.kind == "rewritten" for f in verdict.findings):
            verdict.proved.append(f"the log only adds to {since}: nothing in it was changed")
    verdict.findings.sort(key=_order)
    return verdict


_FIRST = {"secret-mismatch": 0, "rewritten": 1, "start-changed": 1, "protocol": 2,
          "unsealed": 2, "seal-mismatch": 2}


def _order(finding: Finding) -> tuple[int, int]:
    """By line; on one line, what explains the rest first (a broken seal before the dice
    and the rules it upsets)."""
    return finding.line or 0, _FIRST.get(finding.kind, 3)


def verify_table(table: Table) -> Verdict:
    mode = table.mode
    verdict = Verdict(table.source, table.engine.info.id, mode)
    lines = table.text.splitlines()

    def text_of(number: int | None) -> str:
        return lines[number - 1] if number and number <= len(lines) else ""

    for secret, reason in table.rejected:
        line = mode.tag_lines.get(secret.party)
        verdict.findings.append(Finding("secret-mismatch", reason, line, text_of(line)))
    replay = table.replay()
    verdict.findings += [Finding.of(p) for p in replay.problems]
    verdict.next = replay.next
    verdict.outcome = replay.report.outcome()
    verdict.report = replay.report
    if not replay.problems:
        verdict.proved.append("every move is legal, and every recorded die is of the kind "
                              "and number the rules roll")
    if mode.kind is DiceMode.TABLE:
        verdict.unchecked.append("the dice are the ones the table recorded: no seed or "
                                 "commitment proves them")
    elif mode.kind is DiceMode.SEEDED:
        verdict.proved.append("every recorded die equals the public [Seed] stream")
        verdict.unchecked.append("the seed is public: anyone could foresee the dice (a "
                                 "committed game, 'referee new --commit', cannot be foreseen)")
    else:
        _committed(table, replay, verdict, text_of)
    _hidden(table, replay, verdict, text_of)
    if replay.next.kind == "roll":
        verdict.unchecked.append(f"line {replay.next.line} still waits for "
                                 f"{who(replay.next.party)}'s dice")
    return verdict


def _committed(table: Table, replay: Replay, verdict: Verdict,
               text_of: Callable[[int | None], str]) -> None:
    mode = table.mode
    secrets = {party: s.value for party, s in table.secrets.items()}
    broken = broken_seals(replay.plan, secrets)
    for number, kind, reason in broken:
        verdict.findings.append(Finding(kind, reason, number, text_of(number)))
    for party in table.secrets:
        tag = commit_tag(party)
        verdict.proved.append(f"{who(party)}'s secret is the one committed in [{tag}] "
                              f"(line {mode.tag_lines.get(party)})")
    bad = {number for number, _, _ in broken}
    with_dice = {line.number for line in table.log.actions
                 if any(item.dice is not None for item in line.items)}
    plans = replay.plan.lines.values()
    for party in mode.parties:
        sealed = [p for p in plans if p.writer == party]
        rolled = [p for p in plans if p.roller == party and p.number in replay.dice.checked]
        name = who(party)
        if mode.v2:
            _committed_v2(table, party, sealed, rolled, bad, verdict)
            continue
        if party in table.secrets:
            good = sum(1 for p in sealed if p.number not in bad)
            verdict.proved.append(
                f"{good} of the {_lines(len(sealed))} {name} wrote carry {name}'s seal; the "
                f"dice of {_lines(len(rolled))} equal what {name}'s secret rolls"
            )
        elif party in mode.commitments:
            # Only the lines that record dice wait for the secret to check them.
            waiting = sum(1 for p in plans if p.roller == party and p.number in with_dice)
            verdict.unchecked.append(
                f"{name}'s seals ({_lines(len(sealed))}) and the dice rolled with {name}'s "
                f"secret ({_lines(waiting)}): give {name}'s secret file"
            )
        else:
            verdict.unchecked.append(f"{who(party)} has not committed yet")


def _committed_v2(table: Table, party: str, sealed: list[LinePlan], rolled: list[LinePlan],
                  bad: set[int], verdict: Verdict) -> None:
    """Protocol v2: the dice are proved by the chain values the lines reveal, with or without
    the roller's secret; only the seals need the writer's."""
    name = who(party)
    if party not in table.mode.commitments:
        verdict.unchecked.append(f"{name} has not committed yet")
        return
    verdict.proved.append(f"the dice of {_lines(len(rolled))} rolled by {name} follow "
                          f"{name}'s committed chain (checked with no secret)")
    if party in table.secrets:
        good = sum(1 for p in sealed if p.number not in bad)
        verdict.proved.append(f"{good} of the {_lines(len(sealed))} {name} wrote carry "
                              f"{name}'s seal")
    else:
        verdict.unchecked.append(f"{name}'s seals ({_lines(len(sealed))}): give {name}'s "
                                 f"secret file")


def _hidden(table: Table, replay: Replay, verdict: Verdict,
            text_of: Callable[[int | None], str]) -> None:
    """Committed hidden values: each opened with its side's secret, each value shown compared
    with its commitment (docs/pbem.md, "Hidden values")."""
    secrets = {party: s.value for party, s in table.secrets.items()}
    lines = {line.number: line for line in table.log.actions}
    found = check_hidden(replay.report.events, replay.plan, lines, secrets)
    verdict.findings += [Finding(f.kind, f.message, f.line, text_of(f.line))
                         for f in found.findings]
    verdict.proved += found.proved
    verdict.unchecked += found.unchecked


def extends(older: ParsedLog, table: Table) -> list[Finding]:
    """Findings where ``table``'s log does not simply add to ``older`` (an earlier copy)."""
    findings: list[Finding] = []
    log = table.log
    numbers = tag_lines(table.text)
    free = free_tags(table.mode)
    joined = {tag for party in table.mode.parties
              for tag in (commit_tag(party), start_seal_tag(party))}
    for name in sorted(set(older.tags) | set(log.tags)):
        if name in joined and name not in older.tags:
            continue  # a party joined since: its commitment and seal are new, and may be
        if name not in free and older.tags.get(name) != log.tags.get(name):
            findings.append(Finding(
                "rewritten", f"the header's [{name}] differs from {older.source}'s",
                numbers.get(name)))
    if older.options != log.options:
        findings.append(Finding("rewritten", f"the header's [Option]s differ from "
                                f"{older.source}'s", numbers.get("Option")))
    if None not in (older.position_sha256, log.position_sha256) and (
            older.position_sha256 != log.position_sha256):
        findings.append(Finding(
            "rewritten", f"the starting position was changed after the log was mailed: the "
            f"position file's content differs from {older.source}'s",
            log.tag_lines.get("Position")))
    findings += _opening_changed(older, table)
    old, new = older.actions, log.actions
    for index, was in enumerate(old):
        if index >= len(new):
            findings.append(Finding(
                "rewritten",
                f"line {was.number} of {older.source} ('{written_body(was.text)}') is gone: "
                f"a move was taken back after the log was mailed",
            ))
            break
        now = new[index]
        pending = index == len(old) - 1 and not _dice(was)
        if (written_body(was.text) != written_body(now.text)
                or seal_of(was.text) != seal_of(now.text)
                or (not pending and _dice(was) != _dice(now))):
            findings.append(Finding(
                "rewritten",
                f"this line was line {was.number} of {older.source} as "
                f"'{was.text.strip()}': it was changed after the log was mailed",
                now.number, now.text,
            ))
            break
    return findings


def _opening_changed(older: ParsedLog, table: Table) -> list[Finding]:
    """A finding when the lines before the first action (setup lines, a position file's lines)
    differ from the older copy's."""
    was, now = opening_lines(older), opening_lines(table.log)
    if was == now:
        return []
    first = table.log.actions[0].number if table.log.actions else None
    entries = [e for e in table.log.entries if first is None or e.number < first]
    index = next((i for i, (a, b) in enumerate(zip(was, now, strict=False)) if a != b),
                 min(len(was), len(now)))
    if index < len(now):
        body = now[index]
        line = next((e.number for e in entries if written_body(e.text) in body), None)
        what = f"'{body}' is not in {older.source}"
    else:
        line, what = None, f"'{was[index]}' of {older.source} is gone"
    return [Finding("rewritten", f"the starting position was changed after the log was "
                    f"mailed: {what}", line, table.text.splitlines()[line - 1] if line else "")]


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"


def _dice(line: ActionLine) -> list[str]:
    return [str(item.dice) for item in line.items if item.dice is not None]
