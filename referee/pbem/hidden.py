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

Protocol v2 (``[Pbem "v2"]``) makes every reveal checkable by anyone, with no secret:

    nonce      = HMAC-SHA256(side's secret, frame("v2/hidden-nonce", link(k-1), item))
    commitment = SHA-256(frame("v2/hidden", nonce, value)), in hex (all 32 bytes)

and the line that shows the value publishes the nonce in its comment, ``[open crate-1 HEX]``
(the slot's name, spaces made hyphens).  Anyone recomputes the commitment from the nonce and
the value shown: a value shown otherwise is ``hidden-changed`` at the other side's next
``play``.  The nonce is 32 bytes nobody else can compute, so the commitment hides the value;
the full SHA-256 binds it (no second nonce and value give the same digest).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from typing import Any

from referee.core.hidden import REVEAL, Concealable, hidden_choices
from referee.core.log import ActionLine
from referee.core.records import frozen, record
from referee.pbem.chain import Plan, comment_of
from referee.pbem.keys import Secret, frame, mac, same
from referee.pbem.mode import MODERATOR, DiceMode, Mode, who

COMMITMENT_HEX = 16
TRIED_VALUES = range(0, 100)
"""The values ``verify`` tries when a commitment opens to none the rules allowed."""
OPENING = re.compile(r"\[open ([a-z0-9-]{1,40}) ([0-9a-f]{64})\]")


def commitment(secret: str, link: bytes, item: int, value: int) -> str:
    """The commitment to ``value``, the ``item``-th command of the line after ``link``."""
    return mac(secret, "hidden", link, str(item), str(value))[: COMMITMENT_HEX // 2].hex()


def nonce_v2(secret: str, link: bytes, item: int) -> bytes:
    """Protocol v2: the nonce of the hidden value of the ``item``-th command after ``link``."""
    return mac(secret, "v2/hidden-nonce", link, str(item))


def commitment_v2(nonce: bytes, value: int) -> str:
    """Protocol v2: the public commitment to ``value`` under ``nonce`` (64 hex digits)."""
    return hashlib.sha256(frame("v2/hidden", nonce, str(value))).hexdigest()


def slot_word(slot: str) -> str:
    """A slot's name in an opening: ``crate 1`` -> ``crate-1``."""
    return "-".join(slot.lower().split())


def openings_of(text: str) -> dict[str, bytes]:
    """The nonces a line publishes, ``[open SLOT HEX]`` in its comment, by slot."""
    return {slot: bytes.fromhex(value) for slot, value in OPENING.findall(comment_of(text))}


def opening_text(slot: str, nonce: bytes) -> str:
    return f"[open {slot_word(slot)} {nonce.hex()}]"


def conceal(commands: Sequence[Any], secret: str, link: bytes, v2: bool = False) -> list[Any]:
    """The line's commands with every value written in the open replaced by its commitment."""
    out = []
    for index, command in enumerate(commands):
        if isinstance(command, Concealable) and command.conceal_value is not None:
            value = command.conceal_value
            made = (commitment_v2(nonce_v2(secret, link, index), value) if v2
                    else commitment(secret, link, index, value))
            command = command.concealed(made)
        out.append(command)
    return out


def openings(events: Iterable[Any], plan: Plan, lines: dict[int, ActionLine],
             secrets: dict[str, Secret], number: int) -> list[str]:
    """Protocol v2: the ``[open SLOT HEX]`` of every value line ``number`` shows, made with
    the secret of the side that committed it."""
    if not plan.mode.v2:
        return []
    out = []
    for choice in hidden_choices(events):
        if choice.reveal_line != number or choice.commitment is None:
            continue
        party = keeper_of(plan.mode, choice.side)
        planned = plan.lines.get(choice.line or 0)
        if party not in secrets or planned is None:
            continue
        item = _item(lines.get(choice.line or 0), choice.command)
        out.append(opening_text(choice.slot, nonce_v2(secrets[party].value, planned.link,
                                                      item)))
    return out


def opened(secret: str, link: bytes, item: int, written: str,
           candidates: Iterable[int]) -> int | None:
    """The value ``written`` commits to, among ``candidates`` (``None``: none of them)."""
    for value in candidates:
        if same(commitment(secret, link, item, value), written):
            return value
    return None


@frozen
class HiddenFinding:
    line: int | None
    kind: str
    message: str


@record
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
          secrets: dict[str, str], writing: int | None = None) -> HiddenCheck:
    """Open every commitment whose side's secret is in ``secrets`` and compare each revealed
    value with it; in a committed game a hidden choice must carry its commitment.  Protocol
    v2: every value shown is checked against its commitment by the nonce its line publishes,
    with no secret (``writing``: the line ``play`` is writing, whose nonce is not written
    yet; its side's secret makes it)."""
    if plan.mode.v2:
        return _check_v2(list(events), plan, lines, secrets, writing)
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
                result.findings.append(_uncommitted(choice.line, choice.slot, choice.command))
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


def _uncommitted(line: int | None, slot: str, command: str) -> HiddenFinding:
    return HiddenFinding(line, "protocol", (
        f"{slot} is a hidden value without a commitment: in a committed game 'referee "
        f"play' writes the commitment (give the value, e.g. '{command} 4', with --secret)"))


def _check_v2(events: list[Any], plan: Plan, lines: dict[int, ActionLine],
              secrets: dict[str, str], writing: int | None) -> HiddenCheck:
    """``check`` under protocol v2 (see the module's description)."""
    result = HiddenCheck([], [], [])
    shown: dict[str, list[str]] = {}
    opened_values: dict[str, list[str]] = {}
    waiting: dict[str, int] = {}
    revealing = {item.line for item in events if item.event.kind == REVEAL}
    for choice in hidden_choices(events):
        name = who(choice.side)
        if choice.commitment is None:
            result.findings.append(_uncommitted(choice.line, choice.slot, choice.command))
            continue
        party = keeper_of(plan.mode, choice.side)
        planned = plan.lines.get(choice.line or 0)
        if planned is None:
            continue
        item = _item(lines.get(choice.line or 0), choice.command)
        secret = secrets.get(party)
        if choice.revealed is not None and choice.reveal_line is not None:
            at = lines.get(choice.reveal_line)
            nonce = openings_of(at.text).get(slot_word(choice.slot)) if at else None
            if nonce is None and secret is not None and choice.reveal_line == writing:
                nonce = nonce_v2(secret, planned.link, item)
            if nonce is None:
                result.findings.append(HiddenFinding(choice.reveal_line, "hidden-changed", (
                    f"{choice.slot} is shown as {choice.revealed} without its opening "
                    f"([open {slot_word(choice.slot)} ...]): nobody can check it against the "
                    f"commitment {name} wrote at line {choice.line} ('referee play' writes "
                    f"it)")))
            elif not same(commitment_v2(nonce, choice.revealed), choice.commitment):
                result.findings.append(HiddenFinding(choice.reveal_line, "hidden-changed", (
                    f"{choice.slot} is shown as {choice.revealed}, but {name} committed it to "
                    f"another value at line {choice.line} (the opening published here does "
                    f"not open that commitment): a changed hidden choice")))
            elif choice.allowed and choice.revealed not in choice.allowed:
                allowed = ", ".join(map(str, choice.allowed))
                result.findings.append(HiddenFinding(choice.reveal_line, "hidden-illegal", (
                    f"{name} committed {choice.slot} to {choice.revealed} at line "
                    f"{choice.line}, a value the rules did not allow there (allowed: "
                    f"{allowed}): a hidden choice that broke the rules")))
            else:
                shown.setdefault(name, []).append(
                    f"{choice.slot} (line {choice.line}) = {choice.revealed}")
        if secret is None:
            if choice.revealed is None:
                waiting[party] = waiting.get(party, 0) + 1
            continue
        own = nonce_v2(secret, planned.link, item)
        value = next((v for v in choice.allowed
                      if same(commitment_v2(own, v), choice.commitment)), None)
        if value is not None:
            opened_values.setdefault(name, []).append(
                f"{choice.slot} (line {choice.line}) = {value}")
            continue
        other = next((v for v in TRIED_VALUES if same(commitment_v2(own, v),
                                                      choice.commitment)), None)
        if other is None:
            result.findings.append(HiddenFinding(choice.line, "hidden-changed", (
                f"the commitment to {choice.slot} opens to no value with {name}'s secret: "
                f"it was changed after {name} wrote it (a changed hidden choice)")))
        else:
            allowed = ", ".join(map(str, choice.allowed)) or "none"
            result.findings.append(HiddenFinding(choice.line, "hidden-illegal", (
                f"{name} committed {choice.slot} to {other}, a value the rules did not allow "
                f"there (allowed: {allowed}): a hidden choice that broke the rules")))
    for number in sorted(n for n in revealing if n is not None and n != writing):
        at = lines.get(number)
        stray = set(openings_of(at.text)) if at else set()
        known = {slot_word(c.slot) for c in hidden_choices(events) if c.reveal_line == number}
        if stray - known:
            result.findings.append(HiddenFinding(number, "protocol", (
                f"this line publishes an opening for {', '.join(sorted(stray - known))}, "
                f"which it does not show")))
    for name, values in shown.items():
        result.proved.append(f"every hidden value {name} showed opens the commitment {name} "
                             f"wrote (checked with no secret): {'; '.join(values)}")
    for name, values in opened_values.items():
        result.proved.append(f"{name}'s hidden values open with {name}'s secret to values "
                             f"the rules allowed: {'; '.join(values)}")
    for side, count in waiting.items():
        result.unchecked.append(f"{who(side)}'s {count} hidden value"
                                f"{'s' if count != 1 else ''} not shown yet: give "
                                f"{who(side)}'s secret file to check "
                                f"{'them' if count != 1 else 'it'} against the rules")
    return result
