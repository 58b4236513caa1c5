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

Two readings of a draw serve every game (see ``docs/dice.md``):

* a die's **face range** is part of the die kind: ``roll(10, low=0)`` is a d10 read 0-9
  (Arnhem '44), whose face is the v1 face minus one; ``low=1`` (the default) is the v1 face
  itself, so the stream of the existing games is unchanged;
* a **drawn chit** (a Command Cup, Koenig's Eindhoven Bridge) is one draw of a die with as
  many sides as the cup holds chits: ``draw(pool)`` takes chit number ``face - 1`` of the pool
  in the order the engine gives it (a canonical order, e.g. sorted).  A cup of one chit is
  drawn without a die.

Nothing here depends on Python's ``random`` module, whose sequences may change between
versions.  The pinned test vectors in ``tests/core/test_dice.py`` keep the stream from drifting.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Sequence
from dataclasses import field
from typing import NamedTuple, Protocol

from referee.core.errors import DiceFaceError, DiceMissing
from referee.core.names import normalise
from referee.core.records import record

DICE_VERSIONS = ("v1",)
CURRENT_DICE_VERSION = "v1"
_PREFIX = b"referee-dice/v1/"
_RETRY = b"referee-dice/v1/retry/"
_SPAN = 2**64
_WORDS = struct.Struct(">4Q")
_LIMITS: dict[int, int] = {}
"""The rejection limit of each die size: the largest multiple of ``sides`` up to 2**64."""


class DiceStream:
    """The seeded v1 stream: ``face(i, sides)`` is a pure function of seed, draw and sides."""

    __slots__ = ("_block", "_block_index", "_mac", "seed")

    def __init__(self, seed: str) -> None:
        self.seed = seed
        self._mac = hmac.new(seed.encode("utf-8"), digestmod=hashlib.sha256)
        self._block_index: int | None = None  # no block read yet (a negative draw is refused)
        self._block: tuple[int, ...] = ()

    def _hmac(self, message: bytes) -> bytes:
        mac = self._mac.copy()
        mac.update(message)
        return mac.digest()

    def face(self, index: int, sides: int) -> int:
        # The common case first: a draw from the block already read, below its die's limit.
        if index >> 2 == self._block_index:
            x = self._block[index & 3]
            limit = _LIMITS.get(sides)
            if limit is not None and x < limit:
                return x % sides + 1
        return self._face(index, sides)

    def _face(self, index: int, sides: int) -> int:
        limit = _LIMITS.get(sides)
        if limit is None:
            if not 2 <= sides <= 1000:
                raise ValueError(f"a die must have 2 to 1000 sides, not {sides}")
            limit = _LIMITS[sides] = _SPAN - (_SPAN % sides)
        if index < 0:
            raise ValueError("draws are numbered from 0")
        block_index = index >> 2
        if block_index != self._block_index:
            self._block = _WORDS.unpack(self._hmac(_PREFIX + block_index.to_bytes(8, "big")))
            self._block_index = block_index
        x = self._block[index & 3]
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

    ``low`` is the die's lowest face (1, or 0 for a d10 read 0-9).  A chit drawn from a cup
    is a roll too: ``drawn`` names the chit (``sides`` is how many the cup held, ``faces`` the
    draw's place in the pool, from 1).

    A named tuple rather than a dataclass: self-play makes tens of thousands a second.
    """

    sides: int
    faces: tuple[int, ...]
    label: str = ""
    low: int = 1
    drawn: str = ""

    def __str__(self) -> str:
        if self.drawn:
            return f"{CUP}: {self.drawn}"
        faces = " ".join(str(f) for f in self.faces)
        return f"d{self.sides}: {faces}"

    def to_json(self) -> dict[str, object]:
        """The roll in a report's ``dice[]``: ``die``, ``faces``, ``for`` (and ``low`` for a
        die not read from 1); a drawn chit: ``die`` = ``cup``, ``chit``, ``for``."""
        if self.drawn:
            return {"die": CUP, "chit": self.drawn, "for": self.label}
        out: dict[str, object] = {"die": f"d{self.sides}", "faces": list(self.faces),
                                  "for": self.label}
        if self.low != 1:
            out["low"] = self.low
        return out


CUP = "cup"
"""How a log names a record of drawn chits: ``{cup: 506}``."""


class Dice(Protocol):
    """What an engine rolls from.  It never knows whether the dice are seeded or recorded."""

    def roll(
        self, sides: int, count: int = 1, label: str = "", *, low: int = 1
    ) -> tuple[int, ...]:
        """``count`` dice of ``sides`` faces numbered from ``low``."""
        ...

    def draw(self, pool: Sequence[str], label: str = "") -> str:
        """One chit drawn at random from ``pool`` (given in a canonical order)."""
        ...


def record_text(rolls: Sequence[Roll]) -> str:
    """How a log records the rolls of one command: ``{d6: 3 5}`` or ``{cup: 506}``.

    One record holds one kind: dice of one size, or chits (a command that needs both is
    written as two commands by its game's grammar).
    """
    if all(roll.drawn for roll in rolls):
        return "{" + CUP + ": " + " | ".join(roll.drawn for roll in rolls) + "}"
    kinds = {roll.sides for roll in rolls if not roll.drawn}
    if len(kinds) != 1 or any(roll.drawn for roll in rolls):
        raise ValueError("one dice record holds dice of one kind, or chits only")
    faces = " ".join(str(face) for roll in rolls for face in roll.faces)
    return f"{{d{rolls[0].sides}: {faces}}}"


def draw_from_stream(stream: FaceSource, position: int, pool: Sequence[str]) -> str:
    """The chit of ``pool`` that draw ``position`` of ``stream`` picks (the pool has two or
    more chits; one of one is taken without a draw)."""
    return pool[stream.face(position, len(pool)) - 1]


@record
class DiceTray:
    """The dice of one command, from a seeded stream, a record, or both (checked).

    * seeded only: faces come from the stream;
    * recorded only (a tabletop log): the recorded faces are used in order, their kind and
      faces checked; running out raises ``DiceMissing``;
    * both: faces come from the stream, and every recorded face is compared with it (the
      comparison is kept in ``mismatches`` for the replay driver to report as tampering).

    Chits drawn from a cup work the same way, recorded as ``recorded_chits`` (``{cup: 506}``).
    """

    stream: FaceSource | None
    position: int = 0
    recorded: tuple[int, ...] | None = None
    recorded_sides: int | None = None
    purpose: str = ""
    subject: object = None
    """The command the dice are for: its words (``'attack Grave'``) are the purpose, made
    only when a message needs them (a command's words cost a replay a few per cent)."""
    rolls: list[Roll] = field(default_factory=list)
    used: int = 0
    mismatches: list[tuple[int, int | str, int | str]] = field(default_factory=list)
    """(n, recorded, rolled): the n-th recorded die (or chit) and what the stream gave."""
    recorded_chits: tuple[str, ...] | None = None

    def _what(self, label: str, otherwise: str) -> str:
        """What a message says the dice are for: the roll's label, else the purpose."""
        if label or self.purpose:
            return label or self.purpose
        return otherwise if self.subject is None else f"'{self.subject}'"

    def roll(
        self, sides: int, count: int = 1, label: str = "", *, low: int = 1
    ) -> tuple[int, ...]:
        if self.recorded_chits is not None:
            raise DiceFaceError(
                f"{self._what(label, 'this roll')} rolls a d{sides}, but the log records a "
                "chit drawn from the cup"
            )
        if self.recorded is not None and self.recorded_sides not in (None, sides):
            raise DiceFaceError(
                f"{self._what(label, 'this roll')} needs d{sides}, but the log records "
                f"d{self.recorded_sides}"
            )
        if count == 1:  # the commonest roll
            faces: tuple[int, ...] = (self._one(sides, label, low),)
        else:
            faces = tuple([self._one(sides, label, low) for _ in range(count)])
        self.rolls.append(Roll(sides, faces, label, low))
        return faces

    def draw(self, pool: Sequence[str], label: str = "") -> str:
        if not pool:
            raise ValueError("a draw needs a cup with at least one chit")
        what = self._what(label, "this draw")
        if self.recorded is not None:
            raise DiceFaceError(
                f"{what} draws a chit from the cup, but the log records "
                f"d{self.recorded_sides} dice (write {{{CUP}: NAME}})"
            )
        recorded: str | None = None
        if self.recorded_chits is not None and self.used < len(self.recorded_chits):
            written = self.recorded_chits[self.used]
            key = normalise(written)
            recorded = next((chit for chit in pool if normalise(chit) == key), None)
            if recorded is None:
                raise DiceFaceError(
                    f"the cup holds {', '.join(pool)}; '{written}' is not in it"
                )
        if len(pool) == 1 or self.stream is None:
            # A cup of one needs no die; without a seed the recorded chit is the real draw.
            if recorded is None and len(pool) > 1:
                if self.recorded_chits is None:
                    raise DiceMissing(
                        f"{what} draws a chit from the cup ({', '.join(pool)}), but the log has "
                        f"no [Seed] tag and this line records no draw; write the chit drawn at "
                        f"the table (for example {{{CUP}: {pool[0]}}}) or give a seed (--seed)"
                    )
                raise DiceMissing(
                    f"{what} draws more chits than the {len(self.recorded_chits)} recorded"
                )
            chit = pool[0] if recorded is None else recorded
            if recorded is not None:
                self.used += 1
            self.rolls.append(Roll(len(pool), (pool.index(chit) + 1,), label, 1, chit))
            return chit
        chit = draw_from_stream(self.stream, self.position, pool)
        self.position += 1
        if recorded is not None:
            self.used += 1
            if recorded != chit:
                self.mismatches.append((self.used, recorded, chit))
        self.rolls.append(Roll(len(pool), (pool.index(chit) + 1,), label, 1, chit))
        return chit

    def _one(self, sides: int, label: str, low: int = 1) -> int:
        recorded: int | None = None
        if self.recorded is not None and self.used < len(self.recorded):
            recorded = self.recorded[self.used]
            if not low <= recorded < low + sides:
                raise DiceFaceError(
                    f"a d{sides} has no face {recorded}"
                    + (f" (this d{sides} is read {low}-{low + sides - 1})" if low != 1 else "")
                )
        if self.stream is None:
            if recorded is None:
                what = self._what(label, "this command")
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
        face = self.stream.face(self.position, sides) - 1 + low
        self.position += 1
        if recorded is not None:
            self.used += 1
            if recorded != face:
                self.mismatches.append((self.used, recorded, face))
        return face

    @property
    def unused(self) -> int:
        """How many recorded dice (or chits) the rules did not need."""
        if self.recorded_chits is not None:
            return len(self.recorded_chits) - self.used
        if self.recorded is None:
            return 0
        return len(self.recorded) - self.used

    @property
    def faces(self) -> tuple[int | str, ...]:
        """What was rolled, in order: die faces, and the names of chits drawn."""
        return tuple(r.drawn or f for r in self.rolls for f in r.faces)
