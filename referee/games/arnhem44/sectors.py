"""The figures on the map, sector by sector (``AState.units``), with a journal of the sectors
written.

A sector's figures are a ``copying.Figures``, never changed in place: a move puts a new count
in the sector (``AState.add``/``remove``).  An answer worked out from the figures and kept
(contact with GARDEN, ``supply.update_contact``) was given again only after a look at every
sector (is each the very count it was?), after every command.  ``Sectors`` notes each sector
written, in order, in ``written``: an answer kept with the journal it saw and the journal's
length then needs a look at the sectors written since, and at no other (issue 31).

The journal is a list replaced, never emptied: a reader holding the list of another (one
emptied, one that grew long) finds it is not the list of these sectors and looks at every
sector, as before.  A copy of the sectors is a plain ``dict``, without a journal, until its
first write (``AState.add``/``remove``).  ``plain``: a sector was given a count that is not a
``Figures`` (a test's ``Counter``, which may then change in place without a write): no answer
may be kept from these sectors.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from referee.games.arnhem44.board import Key
from referee.games.arnhem44.copying import Figures

_set = dict.__setitem__
_del = dict.__delitem__
_fill = dict.update

LONGEST = 4096
"""Writes a journal holds; the next write starts a new one (a reader then looks at every
sector once)."""


class Sectors(dict[str, Counter[Key]]):
    """Sector -> its figures, noting every sector written (``written``)."""

    __slots__ = ("plain", "written")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.written: list[str] = []
        self.plain = any(type(counts) is not Figures for counts in self.values())

    def __setitem__(self, sector: str, counts: Counter[Key]) -> None:
        _set(self, sector, counts)
        if type(counts) is not Figures:
            self.plain = True
        self._note(sector)

    def __delitem__(self, sector: str) -> None:
        _del(self, sector)
        self._note(sector)

    def _note(self, sector: str) -> None:
        written = self.written
        if len(written) >= LONGEST:
            written = self.written = []
        written.append(sector)

    def _anew(self) -> None:
        """Written in a way not noted sector by sector: every reader looks again."""
        self.written = []
        self.plain = any(type(counts) is not Figures for counts in self.values())

    def update(self, *args: Any, **kwargs: Any) -> None:
        _fill(self, *args, **kwargs)
        self._anew()

    def clear(self) -> None:
        dict.clear(self)
        self._anew()

    def pop(self, *args: Any) -> Any:
        found = dict.pop(self, *args)
        self._anew()
        return found

    def popitem(self) -> tuple[str, Counter[Key]]:
        found = dict.popitem(self)
        self._anew()
        return found

    def setdefault(self, sector: str, default: Any = None) -> Any:
        if sector not in self:
            self[sector] = default
        return self[sector]

    def __ior__(self, other: Any) -> Any:  # type: ignore[misc]
        self.update(other)
        return self

    # A copy of the sectors is a plain ``dict`` (made in C: the replay copies the state before
    # every line, as its undo, and a Python ``copy`` here cost more than the journal saved):
    # ``AState.add``/``remove`` make it ``Sectors`` again at its first write, with a journal
    # of its own; until then a reader finds no journal and looks at every sector.
    copy = dict.copy

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Counter[Key]]]]:
        return (Sectors, (dict(self),))  # pickled and deep-copied: a journal of its own



def journal_of(units: Mapping[str, Counter[Key]]) -> tuple[list[str] | None, int]:
    """The journal of the sectors ``units`` and its length now, to keep with an answer worked
    out from them; (None, 0) for sectors that keep none (a copy's plain dict, or sectors that
    were given a plain count)."""
    if type(units) is Sectors and not units.plain:
        return units.written, len(units.written)
    return None, 0


def written_since(units: Mapping[str, Counter[Key]], journal: list[str] | None, length: int,
                  sectors: frozenset[str] | None = None) -> bool | None:
    """Was a sector (of ``sectors``; without them, any sector) of ``units`` written since
    ``journal`` held ``length`` (``journal_of``)?  None when the journal cannot tell (another
    one, or none): look at the sectors themselves.  A reader told False keeps its answer
    with the journal's length now, so that what it reads next is only what comes after (the
    journal holds at most ``LONGEST`` sectors in any case)."""
    if journal is None or type(units) is not Sectors or units.written is not journal \
            or units.plain:
        return None
    if len(journal) == length:
        return False
    return sectors is None or not sectors.isdisjoint(journal[length:])
