"""Committed hidden values in play by e-mail (docs/pbem.md, "Hidden values").

A side that keeps a value hidden (Arnhem '44: the German's crate values) writes a commitment
in its place, made with its own secret:

    commitment = first 8 bytes, in hex, of
                 HMAC-SHA256(side's secret, frame("hidden", link(k-1), item, value))

where ``link(k-1)`` is the chain link before the line (as a seal's), ``item`` the command's
place on the line (from 0) and ``value`` the value in decimal.  The line's seal covers the
commitment, so it cannot be changed unseen; the other side cannot open it (the secret keys
it, so the few values a crate can hold cannot be tried); ``verify`` with the side's secret
opens every commitment and checks every value the side later revealed against it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from referee.core.hidden import Concealable, hidden_choices
from referee.core.log import ActionLine
from referee.pbem.chain import Plan
from referee.pbem.keys import mac, same
from referee.pbem.mode import MODERATOR, DiceMode, Mode, who

COMMITMENT_HEX = 16
TRIED_VALUES = range(0, 100)
"""The values ``verify`` tries when a commitment opens to none the rules allowed."""


def commitment(secret: str, link: bytes, item: int, value: int) -> str:
    """The commitment to ``value``, the ``item``-th command of the line after ``link``."""
    return mac(secret, "hidden", link, str(item), str(value))[: COMMITMENT_HEX // 2].hex()


def conceal(commands: Sequence[Any], secret: str, link: bytes) -> list[Any]:
    """The line's commands with every value written in the open replaced by its commitment."""
    out = []
    for index, command in enumerate(commands):
        if isinstance(command, Concealable) and command.conceal_value is not None:
            command = command.concealed(commitment(secret, link, index,
                                                   command.conceal_value))
        out.append(command)
    return out


def opened(secret: str, link: bytes, item: int, written: str,
           candidates: Iterable[int]) -> int | None:
    """The value ``written`` commits to, among ``candidates`` (``None``: none of them)."""
    for value in candidates:
        if same(commitment(secret, link, item, value), written):
            return value
    return None


@dataclass(frozen=True)
class HiddenFinding:
    line: int | None
    kind: str
    message: str


@dataclass
class HiddenCheck:
    """What the hidden values of a log show, with the secrets at hand."""

    findings: list[HiddenFinding]
    proved: list[str]
    unchecked: list[str]


def _item(line: ActionLine | None, command: str) -> int:
    if line is None:
        return 0
    for index, item in enumerate(line.items):
        if str(item.command) == command:
            return index
    return 0


def keeper_of(mode: Mode, side: str) -> str:
    """Whose secret commits ``side``'s hidden values: the side's own, or the moderator's (who
    writes every line of a moderated game)."""
    return MODERATOR if mode.kind is DiceMode.MODERATED else side


def check(events: Iterable[Any], plan: Plan, lines: dict[int, ActionLine],
          secrets: dict[str, str]) -> HiddenCheck:
    """Open every commitment whose side's secret is in ``secrets`` and compare each revealed
    value with it; in a committed game a hidden choice must carry its commitment."""
    result = HiddenCheck([], [], [])
    mode = plan.mode
    committed = mode.committed
    choices = hidden_choices(events)
    opened_values: dict[str, list[str]] = {}
    waiting: dict[str, int] = {}
    for choice in choices:
        name = who(choice.side)
        if choice.commitment is None:
            if committed:
                result.findings.append(HiddenFinding(choice.line, "protocol", (
                    f"{choice.slot} is a hidden value without a commitment: in a committed "
                    f"game 'referee play' writes the commitment (give the value, e.g. "
                    f"'{choice.command} 4', with --secret)")))
            continue
        party = keeper_of(mode, choice.side)
        if party not in secrets:
            waiting[party] = waiting.get(party, 0) + 1
            continue
        planned = plan.lines.get(choice.line or 0)
        if planned is None:
            continue
        item = _item(lines.get(choice.line or 0), choice.command)
        secret = secrets[party]
        value = opened(secret, planned.link, item, choice.commitment, choice.allowed)
        if value is None:
            other = opened(secret, planned.link, item, choice.commitment, TRIED_VALUES)
            if other is None:
                result.findings.append(HiddenFinding(choice.line, "hidden-changed", (
                    f"the commitment to {choice.slot} opens to no value with {name}'s "
                    f"secret: it was changed after {name} wrote it (a changed hidden "
                    f"choice)")))
            else:
                allowed = ", ".join(map(str, choice.allowed)) or "none"
                result.findings.append(HiddenFinding(choice.line, "hidden-illegal", (
                    f"{name} committed {choice.slot} to {other}, a value the rules did not "
                    f"allow there (allowed: {allowed}): a hidden choice that broke the "
                    f"rules")))
            continue
        opened_values.setdefault(name, []).append(f"{choice.slot} (line {choice.line}) = "
                                                  f"{value}")
        if choice.revealed is not None and choice.revealed != value:
            result.findings.append(HiddenFinding(choice.reveal_line, "hidden-changed", (
                f"{choice.slot} is shown as {choice.revealed}, but {name} committed it to "
                f"another value at line {choice.line}: a changed hidden choice")))
    for name, values in opened_values.items():
        result.proved.append(f"{name}'s hidden values open with {name}'s secret, and every "
                             f"one shown equals its commitment: {'; '.join(values)}")
    for side, count in waiting.items():
        result.unchecked.append(f"{who(side)}'s {count} hidden value"
                                f"{'s' if count != 1 else ''}: give {who(side)}'s secret "
                                f"file to check them against their commitments")
    return result
