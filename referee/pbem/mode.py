"""How a log's dice are made, read from its header.

* ``table``: no seed and no commitment: the log records the dice rolled at a table;
* ``seeded``: ``[Seed "..."]``: the public v1 stream (anyone can foresee it: friendly games);
* ``moderated``: ``[SeedCommit "..."]``: a moderator's secret seed, committed;
* ``two-secret``: one ``[<Side>Commit "..."]`` per party: each party's own secret.

The parties of a two-secret game are the game's sides; a solitaire game (one side) pairs its
player with a dice keeper, the party ``keeper``, who rolls and never moves.
"""

from __future__ import annotations

import re
from dataclasses import field
from enum import StrEnum
from typing import Any

from referee.core.engine import Engine
from referee.core.log import ParsedLog
from referee.core.records import frozen
from referee.pbem.errors import CommitmentError
from referee.pbem.hashchain import PROTOCOLS, V2
from referee.pbem.keys import PROTOCOL

MODERATOR = "moderator"
KEEPER = "keeper"
SEED_COMMIT = "SeedCommit"
PROTOCOL_TAG = "Pbem"
_COMMIT_TAG = re.compile(r"([A-Za-z][A-Za-z0-9]*)Commit")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_TAG_LINE = re.compile(r'^\s*\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"')


class DiceMode(StrEnum):
    TABLE = "table"
    SEEDED = "seeded"
    MODERATED = "moderated"
    TWO_SECRET = "two-secret"


def who(party: str | None) -> str:
    """A party's name in a sentence: ``Allied``, ``the moderator``."""
    if party is None:
        return "nobody"
    if party == MODERATOR:
        return "the moderator"
    return "the referee" if party == "referee" else party.capitalize()


def commit_tag(party: str) -> str:
    """The header tag of a party's commitment: ``allied`` -> ``AlliedCommit``."""
    if party == MODERATOR:
        return SEED_COMMIT
    return "".join(word.capitalize() for word in party.split("-")) + "Commit"


def parties_of(engine: Engine[Any, Any]) -> tuple[str, ...]:
    """The parties of a two-secret game: its sides, and a keeper for a solitaire game."""
    sides = tuple(engine.info.sides)
    return sides if len(sides) >= 2 else (*sides, KEEPER)


@frozen
class Mode:
    """The dice mode of a log and its commitments (in header order: the order of commitment)."""

    kind: DiceMode
    parties: tuple[str, ...] = ()
    """Every party that commits: the moderator, or the game's parties in header order (those
    that have not committed yet last)."""
    commitments: dict[str, str] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)
    """The line of each party's commitment tag."""
    protocol: str = PROTOCOL
    """``[Pbem "..."]``: ``v1`` (a log without the tag too) or ``v2`` (referee.pbem.hashchain)."""

    @property
    def v2(self) -> bool:
        """Dice and reveals that anyone can check, with no secret (protocol v2)."""
        return self.protocol == V2 and self.committed

    @property
    def committed(self) -> bool:
        return self.kind in (DiceMode.MODERATED, DiceMode.TWO_SECRET)

    @property
    def missing(self) -> tuple[str, ...]:
        """Parties of a two-secret game that have not put their commitment in yet."""
        return tuple(p for p in self.parties if p not in self.commitments)

    def describe(self) -> str:
        if self.kind is DiceMode.TABLE:
            return "table dice: the log records the dice rolled at the table"
        if self.kind is DiceMode.SEEDED:
            return "seeded: the public [Seed] stream (anyone can foresee the dice)"
        if self.kind is DiceMode.MODERATED:
            return "moderated: the moderator's committed secret seed rolls every die"
        joined = " and ".join(self.parties)
        return f"two-secret: {joined} each roll the other's dice from a committed secret"


def tag_lines(text: str) -> dict[str, int]:
    """The line number of each tag at the top of a log (the first one of a name)."""
    lines: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = _TAG_LINE.match(line)
        if match:
            lines.setdefault(match.group(1), number)
    return lines


def mode_of(log: ParsedLog, engine: Engine[Any, Any], text: str = "") -> Mode:
    """The dice mode of a parsed log, or ``CommitmentError`` when its header contradicts
    itself (a seed beside a commitment, a commitment of no side, a malformed digest)."""
    numbers = tag_lines(text)
    version = log.tags.get(PROTOCOL_TAG, PROTOCOL)
    if version not in PROTOCOLS:
        raise CommitmentError(
            f'[{PROTOCOL_TAG} "{version}"] is a play-by-email protocol this referee does not '
            f"know ({', '.join(PROTOCOLS)})"
        )
    parties = parties_of(engine)
    by_tag = {commit_tag(p): p for p in parties}
    found: dict[str, str] = {}
    for name, value in log.tags.items():
        if not _COMMIT_TAG.fullmatch(name):
            continue
        if name == SEED_COMMIT:
            party = MODERATOR
        elif name in by_tag:
            party = by_tag[name]
        else:
            known = ", ".join(f"[{t}]" for t in (SEED_COMMIT, *by_tag))
            raise CommitmentError(
                f"[{name}] is the commitment of no side of {engine.info.id}; "
                f"the tags this game knows are {known}"
            )
        if not _HEX64.fullmatch(value):
            raise CommitmentError(
                f"[{name}] must hold a SHA-256 commitment: 64 lowercase hex digits"
            )
        found[party] = value
    lines = {p: numbers.get(commit_tag(p), 0) for p in found}
    if not found:
        kind = DiceMode.SEEDED if "Seed" in log.tags else DiceMode.TABLE
        return Mode(kind)
    if "Seed" in log.tags:
        raise CommitmentError(
            "the log names both a public [Seed] and a commitment; a committed game keeps its "
            "seed secret: remove the [Seed] tag"
        )
    if MODERATOR in found:
        if len(found) > 1:
            raise CommitmentError(
                f"the log has both a moderator's [{SEED_COMMIT}] and a side's commitment; "
                f"a game is either moderated or two-secret"
            )
        return Mode(DiceMode.MODERATED, (MODERATOR,), found, lines, version)
    order = tuple(found) + tuple(p for p in parties if p not in found)
    return Mode(DiceMode.TWO_SECRET, order, found, lines, version)
