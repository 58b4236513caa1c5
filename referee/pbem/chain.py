"""The chain of seals that binds every line of a committed log to what came before it.

Every action line written in a committed game ends its comment with a seal,
``[seal 0123456789abcdef]``:

* ``seal(k) = HMAC-SHA256(writer's secret, frame("seal", link(k-1), body(k)))``, the first
  8 bytes in hex; ``link(0)`` is the genesis digest (the header and any starting position),
  ``link(k)`` the seal of line ``k``.  So each seal covers its line and, through the seal
  before it, every line before it; and only the writer's secret makes it.
* ``body(k)`` is what the line says: for a side's move the text without its comment and
  dice, spaces made single; for a chance step (the referee's roll) the canonical text of
  its commands, so no way of writing it changes its dice.
* The dice of a line rolled with party R's secret are the v1 stream seeded by
  ``HMAC-SHA256(R's secret, frame("dice", link(k-1), body(k), seal(k)))`` in hex, drawn
  from 0 on each line.  (A moderated game instead rolls the v1 stream of the moderator's
  secret by the draw number over the whole log.)

Who writes and who rolls (two-secret): a side's move is written (sealed) by that side and
rolled by the next party in the header's order of commitment (in a two-party game, the
other one).  A chance step is written and rolled by the party after the writer of the last
move; before any move, by the party that committed first (its secret was fixed before the
other commitment, which the genesis covers, existed).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import field, replace

from referee.core.log import ActionLine, Expectation, ParsedLog, TurnAssertion
from referee.core.names import normalise
from referee.core.records import frozen, record
from referee.pbem.hashchain import descends, proof_of
from referee.pbem.keys import frame, mac, same
from referee.pbem.mode import MODERATOR, DiceMode, Mode, commit_tag, who

SEAL_HEX = 16
_SEAL = re.compile(r"\[seal ([0-9a-f]{16})\]")
_DICE = re.compile(r"\{[^{}]*\}")
_SEMICOLON = re.compile(r"\s*;\s*")
_COLON = re.compile(r"^([^:;{]*?)\s*:\s*")
DESCRIPTIVE_TAGS = frozenset({"Event", "Site", "Date", "Round", "Player", "Annotator",
                              "Note", "Source", "Moderator"})
"""Tags that only describe a game (and the tags naming a party's player, ``[Allied "Alice"]``):
they are free, may be filled in after the game began, and no die depends on them; every other
tag (an unknown one too) decides the game and is bound by the genesis and the start seals."""
POSITION_DIGEST_TAG = "PositionSha256"
"""A committed game that starts from a ``[Position]`` file carries the SHA-256 of the file's
bytes in this tag (``referee new --commit --position FILE`` writes it)."""
START_SEAL_HEX = 16


def free_tags(mode: Mode) -> frozenset[str]:
    """The tags that do not decide the game (see ``DESCRIPTIVE_TAGS``)."""
    names = {p.capitalize() for p in mode.parties}
    return DESCRIPTIVE_TAGS | names


def start_seal_tag(party: str) -> str:
    """The header tag of a party's seal over the start: ``AlliedSeal``, ``SeedSeal``."""
    return commit_tag(party).removesuffix("Commit") + "Seal"


def fixture(log: ParsedLog, mode: Mode, upto: str | None = None) -> list[str]:
    """What fixes the game before its first move, as fields: every tag that decides it (sorted
    by name), the options, the commitments in header order (up to ``upto``'s, with it), and
    the lines before the first action (a position file's lines named by their place in it)."""
    skip = free_tags(mode) | {start_seal_tag(p) for p in mode.parties}
    tags = sorted((k, v) for k, v in log.tags.items()
                  if k not in skip and not k.endswith("Commit"))
    fields: list[str] = [str(len(tags))]
    for name, value in tags:
        fields += [name, value]
    fields += [str(len(log.options)), *log.options]
    committed = [p for p in mode.parties if p in mode.commitments]
    if upto is not None:
        committed = committed[: committed.index(upto) + 1]
    fields.append(str(len(committed)))
    for party in committed:
        fields += [party, mode.commitments[party]]
    opening = opening_lines(log)
    fields += [str(len(opening)), *opening]
    return fields


def opening_lines(log: ParsedLog) -> list[str]:
    """The bodies of the lines before the first action (setup lines, a position file's
    lines as ``start.pos:3: setup: ...``); turn and expect lines only check, and are left
    out."""
    first = min((e.number for e in log.actions), default=None)
    out = []
    for entry in log.entries:
        if first is not None and entry.number >= first:
            continue
        if isinstance(entry, ActionLine | TurnAssertion | Expectation):
            continue
        origin = getattr(entry, "origin", None)
        body = written_body(entry.text)
        out.append(f"{origin}: {body}" if origin else body)
    return out


def genesis(log: ParsedLog, mode: Mode) -> bytes:
    """The digest of what fixes the game before its first move (``fixture``, with every
    commitment)."""
    return hashlib.sha256(frame("genesis", *fixture(log, mode))).digest()


def start_digest(log: ParsedLog, mode: Mode, party: str) -> bytes:
    """The digest of the start as ``party`` seals it when committing: the fixture with the
    commitments up to ``party``'s."""
    return hashlib.sha256(frame("fixture", *fixture(log, mode, party))).digest()


def start_seal(secret: str, log: ParsedLog, mode: Mode, party: str) -> str:
    """``party``'s seal over the start (``[AlliedSeal "..."]``)."""
    return mac(secret, "start", start_digest(log, mode, party))[: START_SEAL_HEX // 2].hex()


_START_SEAL = re.compile(r"[0-9a-f]{16}")


def start_checks(log: ParsedLog, mode: Mode) -> tuple[list[StartCheck],
                                                      list[tuple[int, str, str]]]:
    """The start seals of a committed log, and what is wrong with its start for anyone to
    see: a seal tag missing or malformed, a position file whose bytes are not the sealed
    ones."""
    checks: list[StartCheck] = []
    problems: list[tuple[int, str, str]] = []
    for party in (p for p in mode.parties if p in mode.commitments):
        tag = start_seal_tag(party)
        written = log.tags.get(tag)
        line = log.tag_lines.get(tag) or mode.tag_lines.get(party) or 1
        if written is None:
            problems.append((line, "unsealed", (
                f"{who(party)}'s commitment has no [{tag}] beside it: nothing shows the start "
                f"of the game (its tags, setup lines, position file) is the one "
                f"{who(party)} committed to; 'referee new --commit' and 'referee join' "
                f"write it"
            )))
            continue
        if not _START_SEAL.fullmatch(written):
            problems.append((line, "protocol", f"[{tag}] must hold 16 lowercase hex digits"))
            continue
        checks.append(StartCheck(party, tag, line, written, start_digest(log, mode, party)))
    if "Position" in log.tags:
        line = log.tag_lines.get("Position") or 1
        sealed = log.tags.get(POSITION_DIGEST_TAG)
        name = log.tags["Position"]
        if sealed is None:
            problems.append((line, "unsealed", (
                f"a committed game seals its position file: the header needs "
                f"[{POSITION_DIGEST_TAG}] with the SHA-256 of {name} ('referee new --commit "
                f"--position {name}' writes it)"
            )))
        elif log.position_sha256 is not None and not same(sealed, log.position_sha256):
            problems.append((line, "start-changed", (
                f"the starting position was changed after it was sealed: the position file "
                f"{name} is not the one whose SHA-256 [{POSITION_DIGEST_TAG}] holds (line "
                f"{log.tag_lines.get(POSITION_DIGEST_TAG)})"
            )))
    from referee.pbem.scenario_seal import scenario_seal_problems

    problems += scenario_seal_problems(log)  # [Scenario "file:NAME"]: sealed like a position
    return checks, problems


def code_of(text: str) -> str:
    """A line without its comment (``#`` starts a comment anywhere on an action line)."""
    return text.split("#", 1)[0]


def comment_of(text: str) -> str:
    _, hash_, comment = text.partition("#")
    return comment if hash_ else ""


def written_body(text: str) -> str:
    """The body of a side's line: no comment, no dice records, single spaces."""
    code = _DICE.sub(" ", code_of(text))
    code = _SEMICOLON.sub("; ", code)
    code = " ".join(code.split())
    return _COLON.sub(lambda m: m.group(1) + ": ", code, count=1)


def canonical_body(commands: Iterable[object]) -> str:
    """The body of a chance line: its commands' canonical text."""
    return "; ".join(str(c) for c in commands)


def seal_of(text: str) -> str | None:
    """The seal written in a line's comment, if any."""
    found = _SEAL.findall(comment_of(text))
    return str(found[-1]) if found else None


def seal_text(seal: str) -> str:
    return f"[seal {seal}]"


def make_seal(secret: str, link: bytes, body: str) -> str:
    return mac(secret, "seal", link, body)[: SEAL_HEX // 2].hex()


def dice_seed(secret: str, link: bytes, body: str, seal: str) -> str:
    """The v1 seed of one line's dice in a two-secret game."""
    return mac(secret, "dice", link, body, seal).hex()


def is_chance(line: ActionLine) -> bool:
    return bool(line.items) and all(getattr(i.command, "chance", False) for i in line.items)


@frozen
class LinePlan:
    """One action line's place in the chain: who seals it, whose secret rolls it."""

    number: int
    text: str
    chance: bool
    body: str
    seal: str | None
    link: bytes
    """The link before this line (genesis or the previous line's seal)."""
    writer: str | None
    roller: str | None
    problem: str | None = None
    """Why the line cannot be in this chain (no side named, a move mixed with a roll...)."""
    recorded: bool = False
    """The line records dice (``{d6: 4}``, ``{cup: 506}``)."""
    index: int | None = None
    """Protocol v2: the number of the roller's chain value this line takes when it rolls
    (one more than the lines the roller rolled before it)."""
    proof: tuple[int, bytes] | None = None
    """Protocol v2: the chain value the line reveals, ``[chain i HEX]``, as written."""
    proved: bytes | None = None
    """Protocol v2: the line's chain value, once it is known to descend from the roller's
    anchor (its dice can then be checked with no secret)."""


@frozen
class StartCheck:
    """One party's seal over the start (``[AlliedSeal "..."]``), to check with its secret."""

    party: str
    tag: str
    line: int | None
    """The line of the seal tag (of the commitment tag when the seal is missing)."""
    written: str | None
    digest: bytes
    """The digest of the start as it stands now, with the commitments up to the party's."""

    def expected(self, secret: str) -> str:
        return mac(secret, "start", self.digest)[: START_SEAL_HEX // 2].hex()


@record
class Plan:
    """The chain over a whole log, and what comes next."""

    mode: Mode
    genesis: bytes
    starts: list[StartCheck] = field(default_factory=list)
    start_problems: list[tuple[int, str, str]] = field(default_factory=list)
    """``(line, kind, reason)`` found in the start without any secret (a position file that
    is not the sealed one, a seal tag missing)."""
    lines: dict[int, LinePlan] = field(default_factory=dict)
    link: bytes = b""
    """The link a new line would follow."""
    last_writer: str | None = None
    """The writer of the last side's move (``None``: no move yet)."""
    rolled: dict[str, int] = field(default_factory=dict)
    """Protocol v2: how many lines each party has rolled so far."""
    known: dict[str, tuple[int, bytes, int | None]] = field(default_factory=dict)
    """Protocol v2: each party's last chain value proved (index, value, its line; the anchor
    at index 0 before any)."""
    chain_problems: list[tuple[int, str, str]] = field(default_factory=list)
    """Protocol v2: ``(line, kind, reason)`` of each chain value missing, out of place or
    forged, found with no secret."""

    def next_party(self, party: str) -> str:
        parties = self.mode.parties
        return parties[(parties.index(party) + 1) % len(parties)]

    @property
    def chance_roller(self) -> str | None:
        """Whose secret rolls the next chance step."""
        if self.mode.kind is DiceMode.MODERATED:
            return MODERATOR
        if self.mode.kind is not DiceMode.TWO_SECRET:
            return None
        if self.last_writer is None:
            return self.mode.parties[0]
        return self.next_party(self.last_writer)

    def roller_of_move(self, side: str) -> str | None:
        if self.mode.kind is DiceMode.MODERATED:
            return MODERATOR
        if self.mode.kind is DiceMode.TWO_SECRET and side in self.mode.parties:
            return self.next_party(side)
        return None

    def plan_line(self, line: ActionLine) -> LinePlan:
        """Where ``line`` would stand if it came next (nothing is recorded)."""
        chance = is_chance(line)
        seal = seal_of(line.text)
        problem = None
        if chance:
            body = canonical_body(i.command for i in line.items)
            writer = roller = self.chance_roller
        else:
            body = written_body(line.text)
            side = normalise(line.side) if line.side else None
            if self.mode.kind is DiceMode.MODERATED:
                writer = roller = MODERATOR
            else:
                writer, roller = side, self.roller_of_move(side) if side else None
                if any(getattr(i.command, "chance", False) for i in line.items):
                    problem = "this line mixes a side's move with the referee's roll"
                elif side is None:
                    problem = "in a two-secret game every move names its side ('allied: ...')"
                elif roller is None:
                    problem = f"'{line.side}' is not a side of this game"
        recorded = any(item.dice is not None for item in line.items)
        if not self.mode.v2:
            return LinePlan(line.number, line.text, chance, body, seal, self.link, writer,
                            roller, problem, recorded)
        if chance and len(line.items) > 1 and problem is None:
            problem = (
                "under protocol v2 each chance step is a line of its own (as 'referee play' "
                "writes them), so that no grouping of the steps changes their dice: write "
                + " and ".join(f"'{item.command}'" for item in line.items)
                + " on lines of their own"
            )
        index = self.rolled.get(roller, 0) + 1 if roller is not None else None
        return LinePlan(line.number, line.text, chance, body, seal, self.link, writer, roller,
                        problem, recorded, index, proof_of(comment_of(line.text)))

    def add(self, plan: LinePlan) -> None:
        if self.mode.v2:
            plan = self._prove(plan)
        self.lines[plan.number] = plan
        if plan.seal is not None:
            self.link = bytes.fromhex(plan.seal)
        else:  # an unsealed line still moves the chain on; the next seal will not match
            self.link = hashlib.sha256(frame("unsealed", self.link, plan.body)).digest()
        if not plan.chance and plan.writer is not None and plan.problem is None:
            self.last_writer = plan.writer

    def _prove(self, plan: LinePlan) -> LinePlan:
        """Protocol v2: check the chain value a line reveals, with no secret (see
        ``referee.pbem.hashchain``)."""
        roller = plan.roller
        if roller is None or plan.problem is not None:
            return plan
        name = who(roller)
        if not plan.recorded:
            if plan.proof is not None:
                self.chain_problems.append((plan.number, "protocol", (
                    f"this line rolled no dice, but it carries a value of {name}'s chain: "
                    f"only a line with its dice written reveals one")))
            return plan
        self.rolled[roller] = index = (plan.index or 0)
        if plan.proof is None:
            self.chain_problems.append((plan.number, "protocol", (
                f"the dice on this line are written without {name}'s chain value "
                f"([chain {index} ...]): nobody can check them ('referee play' writes it)")))
            return plan
        written, value = plan.proof
        if written != index:
            self.chain_problems.append((plan.number, "protocol", (
                f"this line reveals value {written} of {name}'s chain, but it is rolled line "
                f"{index} of {name}, which takes value {index}: every rolled line takes the "
                f"next value of the chain")))
            return plan
        anchor = bytes.fromhex(self.mode.commitments.get(roller, "00" * 32))
        known_index, known, known_line = self.known.get(roller, (0, anchor, None))
        if not descends(roller, value, index, known, known_index):
            before = (f"the value {name} revealed at line {known_line}" if known_line
                      else f"{name}'s commitment [{commit_tag(roller)}]")
            self.chain_problems.append((plan.number, "dice-mismatch", (
                f"value {index} of {name}'s chain written here does not hash down to "
                f"{before}: these dice were not rolled from {name}'s committed chain (the "
                f"dice, or the chain value, were changed after they were rolled)")))
            return plan
        self.known[roller] = (index, value, plan.number)
        return replace(plan, proved=value)


def plan_of(log: ParsedLog, mode: Mode) -> Plan:
    """The chain over every action line of a committed log."""
    start = genesis(log, mode)
    plan = Plan(mode, start, link=start)
    if mode.committed:
        plan.starts, plan.start_problems = start_checks(log, mode)
        for line in log.actions:
            plan.add(plan.plan_line(line))
    return plan


def broken_seals(plan: Plan, secrets: dict[str, str]) -> list[tuple[int, str, str]]:
    """``(line, kind, reason)`` for every line that does not belong in the chain: ``protocol``
    (no side named, a move mixed with a roll), ``unsealed``, or ``seal-mismatch`` (its
    writer's secret, given by party in ``secrets``, does not make its seal: the line was
    changed, moved, copied or inserted after it was written)."""
    broken = list(plan.start_problems)
    for check in plan.starts:
        if check.party in secrets and not same(check.expected(secrets[check.party]),
                                               check.written or ""):
            broken.append((check.line or 1, "start-changed", (
                f"the starting position was changed after it was sealed: the game's tags, "
                f"options, setup lines or position file are not what {who(check.party)} "
                f"sealed in [{check.tag}] on committing"
            )))
    for number, line in plan.lines.items():
        if line.problem is not None:
            broken.append((number, "protocol", line.problem))
            continue
        writer = line.writer
        if line.seal is None:
            broken.append((number, "unsealed", "this line has no seal: no 'referee play' "
                           "wrote it"))
        elif writer is not None and writer in secrets:
            expected = make_seal(secrets[writer], line.link, line.body)
            if not same(expected, line.seal):
                broken.append((number, "seal-mismatch", (
                    f"the seal does not match {who(writer)}'s secret: this line, or the "
                    f"line before it, was changed, moved or inserted after it was written"
                )))
    if plan.chain_problems:  # by line; on one line, after what its seal shows
        broken = sorted(broken + plan.chain_problems, key=lambda found: found[0])
    return broken
