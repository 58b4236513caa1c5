"""Dice: a versioned, counter-based stream, and the sources the engines roll from.

Algorithm ``v1`` (named in a log as ``[Dice "v1"]``), fixed forever:

* key = the seed string, UTF-8 encoded;
* draws are numbered ``i`` = 0, 1, 2, … over the whole log;
* block ``b`` = ``HMAC-SHA256(key, b"referee-dice/v1/" + b.to_bytes(8, "big"))``, read as
  four 64-bit big-endian numbers; draw ``i`` takes number ``x`` = word ``i % 4`` of block
  ``i // 4``;
* a die with ``s`` sides shows ``x % s + 1`` when ``x < 2**64 - (2**64 % s)`` (rejection
  sampling: every face exactly equally likely);
* otherwise (for a d6 or d10 less than once in 10**18 draws) attempts ``a`` = 0, 1, … take
  the first word of ``HMAC-SHA256(key, b"referee-dice/v1/retry/" + i.to_bytes(8, "big") +
  a.to_bytes(4, "big"))`` until one is below the limit.

Four draws share one HMAC, so dice are cheap enough for self-play by the thousand games.

Nothing here depends on Python's ``random`` module, whose sequences may change between
versions.  The pinned test vectors in ``tests/core/test_dice.py`` keep the stream from drifting.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from referee.core.errors import DiceFaceError, DiceMissing

DICE_VERSIONS = ("v1",)
CURRENT_DICE_VERSION = "v1"
_PREFIX = b"referee-dice/v1/"
_RETRY = b"referee-dice/v1/retry/"
_SPAN = 2**64
_WORDS = struct.Struct(">4Q")


class DiceStream:
    """The seeded v1 stream: ``face(i, sides)`` is a pure function of seed, draw and sides."""

    __slots__ = ("_block", "_block_index", "_mac", "seed")

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self._mac = hmac.new(seed.encode("utf-8"), digestmod=hashlib.sha256)
        self._block_index = -1
        self._block: tuple[int, ...] = ()

    def _hmac(self, message: bytes) -> bytes:
        mac = self._mac.copy()
        mac.update(message)
        return mac.digest()

    def face(self, index: int, sides: int) -> int:
        if not 2 <= sides <= 1000:
            raise ValueError(f"a die must have 2 to 1000 sides, not {sides}")
        if index < 0:
            raise ValueError("draws are numbered from 0")
        block_index = index >> 2
        if block_index != self._block_index:
            self._block = _WORDS.unpack(self._hmac(_PREFIX + block_index.to_bytes(8, "big")))
            self._block_index = block_index
        x = self._block[index & 3]
        limit = _SPAN - (_SPAN % sides)
        attempt = 0
        while x >= limit:
            retry = _RETRY + index.to_bytes(8, "big") + attempt.to_bytes(4, "big")
            x = _WORDS.unpack(self._hmac(retry))[0]
            attempt += 1
        return x % sides + 1


class FaceSource(Protocol):
    """Anything that gives the face of draw ``index`` of a die with ``sides`` sides.

    ``DiceStream`` is one; the play-by-email dice (``referee.pbem``) are others, each built
    on the v1 stream keyed by a committed secret.
    """

    def face(self, index: int, sides: int) -> int: ...


class Roll(NamedTuple):
    """Dice rolled for one purpose: what they were for, the kind of die and the faces.

    A named tuple rather than a dataclass: self-play makes tens of thousands a second.
    """

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

    stream: FaceSource | None
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
