"""The German explosive crates as the public sees them (Explosives in General, How to Use
Explosives): a crate's value is hidden from the Allied player until it is used.

The state never holds a hidden value: a crate rigged face down has ``value`` ``None`` (and,
in play by e-mail, the German's commitment to it).  What everyone knows is kept as counts:

* ``unseen``: the values of the crates the German received whose value nobody has seen used
  (the crates in his stock, the face-down crates under bridges, and the face-down crates
  removed unseen), a multiset;
* ``stock``: how many crates he keeps off the map;
* ``lost``/``lost_major``: face-down crates removed from the game without being shown (with
  the others under a bridge blown up, or with a bridge lost to a defusing 0), and how many of
  them were under a major bridge.

So ``len(unseen) == stock + face-down crates on the map + lost`` at all times, and at least
``face-down crates under major bridges + lost_major`` of the unseen values are 4 or less
(Bridges: "he can never use an explosive charge of 5 or more on a major bridge").  A value
revealed must keep both true: that is everything the referee can check without the German's
secret; `verify` with the secret checks each revealed value against its commitment.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import field
from itertools import compress, repeat
from operator import attrgetter, is_

from referee.core.records import record
from referee.games.arnhem44.copying import copied_on_write, copier

MAJOR_LIMIT = 4
"""Only explosive charges of 4 or less under the 4 major bridges (Bridges, Phase 3.3)."""
SWAPPABLE = (5, 6, 7)
"""The German may exchange a 7, 6 or 5 from his stash for a 4 (Explosives in General)."""


@record
class Crate:
    """A crate under a bridge.  A log names it by its place under the bridge (``crate 2``: the
    second one rigged there of those still in place)."""

    number: int
    """Crates are numbered 1, 2, ... in the order they are rigged (the slot of its hidden
    value in events; not part of the JSON view)."""
    bridge: str
    value: int | None
    """``None`` while face down (its value hidden from the Allied player)."""
    commitment: str | None = None
    """In play by e-mail: the German's commitment to the hidden value (docs/pbem.md)."""
    major: bool = False
    tried: bool = False
    """Attempted in this step already (one attempt per crate: A23, A24)."""


_VALUE = attrgetter("value")
_NUMBER = attrgetter("number")
_MAJOR = attrgetter("major")


@record
class Attempt:
    """A defusing or detonation roll that waits for the German to reveal the crate's value."""

    action: str
    """``defuse`` or ``detonate``."""
    side: str
    crate: int
    face: int


@copied_on_write()
@record
class Explosives:
    crates: list[Crate] = field(default_factory=list)
    stock: int = 0
    unseen: Counter[int] = field(default_factory=Counter)
    lost: int = 0
    lost_major: int = 0
    numbered: int = 0
    """How many crates were rigged so far (the next one is number ``numbered + 1``)."""
    attempt: Attempt | None = None
    shown_late: Attempt | None = None
    """The defusing roll just made that failed whatever its face-down crate holds (reading
    A90: no value is asked for); the next line may still show the value (``reveal V``), as
    logs written before that reading did.  Not part of a position: it lasts one line."""

    def copy(self) -> Explosives:
        """A copy sharing nothing mutable (a state is copied for every command)."""
        twin: Explosives = copier(Explosives)(self)
        return twin

    def crate(self, number: int) -> Crate | None:
        return next((c for c in self.crates if c.number == number), None)

    def under(self, bridge: str) -> list[Crate]:
        return [c for c in self.crates if c.bridge == bridge]

    def hidden(self) -> list[Crate]:
        return [c for c in self.crates if c.value is None]

    def low_needed(self) -> int:
        """Unseen values that must be 4 or less: the face-down crates under major bridges."""
        return sum(1 for c in self.hidden() if c.major) + self.lost_major

    def low_unseen(self) -> int:
        return sum(n for v, n in self.unseen.items() if v <= MAJOR_LIMIT)

    def candidates(self, crate: Crate) -> list[int]:
        """The values a face-down crate may show without contradicting what is known: an
        unseen value (4 or less under a major bridge), leaving enough small values for the
        other face-down crates under major bridges."""
        out = []
        for value in sorted(self.unseen):
            if crate.major and value > MAJOR_LIMIT:
                continue
            left = self.low_unseen() - (value <= MAJOR_LIMIT)
            if left >= self.low_needed() - crate.major:
                out.append(value)
        return out

    def problems(self) -> list[str]:
        """What contradicts the counts kept (self-play asks after every command): the crates'
        values and numbers read in C, the face-up crates alone looked at one by one
        (tests/games/arnhem44/test_selfplay_shortcuts.py asks them one by one: the same
        answers)."""
        crates = self.crates
        values = list(map(_VALUE, crates))
        numbers = set(map(_NUMBER, crates))
        hidden = values.count(None)
        hidden_major = sum(1 for major in compress(map(_MAJOR, crates), map(is_, values,
                                                                          repeat(None)))
                           if major) if hidden else 0
        unseen = self.unseen.values()
        out = []
        if sum(unseen) != self.stock + hidden + self.lost:
            out.append(f"explosives: {sum(unseen)} unseen crate values for "
                       f"{self.stock} in stock, {hidden} face down and {self.lost} lost unseen")
        if sum(n for v, n in self.unseen.items() if v <= MAJOR_LIMIT) \
                < hidden_major + self.lost_major:
            out.append("explosives: more face-down crates under major bridges than unseen "
                       "values of 4 or less")
        if hidden != len(values):
            for crate in crates:
                value = crate.value
                if value is None:
                    continue
                if not 0 <= value <= 9:
                    out.append(f"explosives: crate {crate.number} has value {value}")
                if crate.major and value > MAJOR_LIMIT:
                    out.append(f"explosives: crate {crate.number} of {value} under the "
                               f"major {crate.bridge}")
        if self.stock < 0 or self.lost < 0 or (unseen and min(unseen) < 0):
            out.append("explosives: a negative count")
        if len(numbers) != len(values) or (numbers and max(numbers) > self.numbered):
            out.append("explosives: crate numbers repeat or run ahead of the crates rigged")
        if self.attempt is not None and self.attempt.crate not in numbers:
            out.append("explosives: a roll waits for a crate that is not in place")
        return out
