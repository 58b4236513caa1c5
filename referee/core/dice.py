"""Dice: a versioned, counter-based stream, and the sources the engines roll from.

Algorithm ``v1`` (named in a log as ``[Dice "v1"]``), fixed forever:

* key   = the seed string, UTF-8 encoded;
* for draw number ``i`` (0, 1, 2, … over the whole log) of a die with ``s`` sides, and
  attempt ``a`` (0, 1, …):
  ``block = HMAC-SHA256(key, b"referee-dice/v1/" + i.to_bytes(8, "big") +
  s.to_bytes(2, "big") + a.to_bytes(4, "big"))``;
* the 32-byte block is read as four 64-bit big-endian numbers ``x``; the first one below
  ``2**64 - (2**64 % s)`` gives the face ``x % s + 1`` (rejection sampling, so every face is
  exactly equally likely); if none is, the next attempt is made.

Nothing here depends on Python's ``random`` module, whose sequences may change between
versions.  The pinned test vectors in ``tests/core/test_dice.py`` keep the stream from drifting.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Protocol

from referee.core.errors import DiceFaceError, DiceMissing

DICE_VERSIONS = ("v1",)
CURRENT_DICE_VERSION = "v1"
_PREFIX = b"referee-dice/v1/"
_SPAN = 2**64


class DiceStream:
    """The seeded v1 stream: ``face(i, sides)`` is a pure function of seed, draw and sides."""

    __slots__ = ("_mac", "seed")

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self._mac = hmac.new(seed.encode("utf-8"), digestmod=hashlib.sha256)

    def face(self, index: int, sides: int) -> int:
        if sides < 2 or sides > 1000:
            raise ValueError(f"a die must have 2 to 1000 sides, not {sides}")
        limit = _SPAN - (_SPAN % sides)
        attempt = 0
        while True:
            mac = self._mac.copy()
            mac.update(
                _PREFIX
                + index.to_bytes(8, "big")
                + sides.to_bytes(2, "big")
                + attempt.to_bytes(4, "big")
            )
            block = mac.digest()
            for offset in (0, 8, 16, 24):
                x = int.from_bytes(block[offset : offset + 8], "big")
                if x < limit:
                    return x % sides + 1
            attempt += 1


@dataclass(frozen=True)
class Roll:
    """Dice rolled for one purpose: what they were for, the kind of die and the faces."""

    sides: int
    faces: tuple[int, ...]
    label: str = ""

    def __str__(self) -> str:
        faces = " ".join(str(f) for f in self.faces)
        return f"d{self.sides}: {faces}"


class Dice(Protocol):
    """What an engine rolls from.  It never knows whether the dice are seeded or recorded."""

    def roll(self, sides: int, count: int = 1, label: str = "") -> tuple[int, ...]: ...


@dataclass
class DiceTray:
    """The dice of one command, from a seeded stream, a record, or both (checked).

    * seeded only: faces come from the stream;
    * recorded only (a tabletop log): the recorded faces are used in order, their kind and
      faces checked; running out raises ``DiceMissing``;
    * both: faces come from the stream, and every recorded face is compared with it (the
      comparison is kept in ``mismatches`` for the replay driver to report as tampering).
    """

    stream: DiceStream | None
    position: int = 0
    recorded: tuple[int, ...] | None = None
    recorded_sides: int | None = None
    purpose: str = ""
    rolls: list[Roll] = field(default_factory=list)
    used: int = 0
    mismatches: list[tuple[int, int, int]] = field(default_factory=list)  # (n, recorded, rolled)

    def roll(self, sides: int, count: int = 1, label: str = "") -> tuple[int, ...]:
        if self.recorded is not None and self.recorded_sides not in (None, sides):
            raise DiceFaceError(
                f"{label or self.purpose or 'this roll'} needs d{sides}, "
                f"but the log records d{self.recorded_sides}"
            )
        faces: list[int] = []
        for _ in range(count):
            faces.append(self._one(sides, label))
        roll = Roll(sides, tuple(faces), label)
        self.rolls.append(roll)
        return roll.faces

    def _one(self, sides: int, label: str) -> int:
        recorded: int | None = None
        if self.recorded is not None and self.used < len(self.recorded):
            recorded = self.recorded[self.used]
            if not 1 <= recorded <= sides:
                raise DiceFaceError(f"a d{sides} has no face {recorded}")
        if self.stream is None:
            if recorded is None:
                what = label or self.purpose or "this command"
                if self.recorded is None:
                    raise DiceMissing(
                        f"{what} needs a d{sides}, but the log has no [Seed] tag and this "
                        f"line records no dice; write the dice rolled at the table "
                        f"(for example {{d{sides}: 4}}) or give a seed (--seed)"
                    )
                raise DiceMissing(
                    f"{what} needs more dice than the {len(self.recorded)} recorded "
                    f"(another d{sides})"
                )
            self.used += 1
            return recorded
        face = self.stream.face(self.position, sides)
        self.position += 1
        if recorded is not None:
            self.used += 1
            if recorded != face:
                self.mismatches.append((self.used, recorded, face))
        return face

    @property
    def unused(self) -> int:
        """How many recorded dice the rules did not need."""
        if self.recorded is None:
            return 0
        return len(self.recorded) - self.used

    @property
    def faces(self) -> tuple[int, ...]:
        return tuple(f for r in self.rolls for f in r.faces)
