"""Name matching: case, spaces, dots, hyphens and apostrophes do not count.

``St. Oedenrode``, ``st oedenrode`` and ``St-Oedenrode`` are one name.  An unknown name gets
a did-you-mean suggestion from the closest known names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Generic, TypeVar

from referee.core.errors import AmbiguousName, UnknownName

_IGNORED = re.compile(r"[\s.\-_'\u2019]+")  # \u2019: the typographic apostrophe

T = TypeVar("T")


def side_title(side: str) -> str:
    """A side or player as a sentence names it: ``allied`` -> Allied; a name of two letters is
    an abbreviation, written in capitals (``uk`` -> UK, ``us`` -> US)."""
    return side.upper() if len(side) <= 2 else side.capitalize()


NORMALISED_NAMES = 16_384
"""How many distinct names ``normalise`` remembers (then it starts afresh: a hostile log may
write any number of them)."""

_normalised: dict[str, str] = {}


def normalise(name: str) -> str:
    """The key a name is matched by: case-folded, without spaces, dots, hyphens, apostrophes.
    Remembered by the name: a replay asks for the same few names thousands of times (the
    sides at every line, the places and units of every command; issue 31)."""
    found = _normalised.get(name)
    if found is None:
        found = _IGNORED.sub("", name).casefold()
        if len(_normalised) >= NORMALISED_NAMES:
            _normalised.clear()
        _normalised[name] = found
    return found


class NameIndex(Generic[T]):
    """Looks things up by any of their names.

    ``what`` names the kind of thing in messages ("city", "unit", "space").  Each entry has a
    display name and any number of aliases.  Two different things sharing a normalised alias
    make that alias ambiguous.
    """

    def __init__(self, what: str) -> None:
        self.what = what
        self._by_key: dict[str, list[tuple[str, T]]] = {}
        self._display: dict[str, str] = {}

    def add(self, display: str, value: T, aliases: Iterable[str] = ()) -> None:
        for name in (display, *aliases):
            key = normalise(name)
            if not key:
                raise ValueError(f"empty {self.what} name")
            entries = self._by_key.setdefault(key, [])
            if all(existing != value for _, existing in entries):
                entries.append((display, value))
            self._display.setdefault(key, display)

    @classmethod
    def from_mapping(cls, what: str, items: Mapping[str, T]) -> NameIndex[T]:
        index: NameIndex[T] = cls(what)
        for display, value in items.items():
            index.add(display, value)
        return index

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NameIndex):
            return NotImplemented
        return (self.what, self._by_key) == (other.what, other._by_key)

    __hash__ = None  # type: ignore[assignment]

    def __contains__(self, name: str) -> bool:
        return normalise(name) in self._by_key

    def lookup(self, name: str, *, column: int | None = None) -> T:
        """The thing called ``name``; ``UnknownName`` or ``AmbiguousName`` otherwise."""
        key = normalise(name)
        entries = self._by_key.get(key)
        if not entries:
            raise UnknownName(self.what, name, self.suggest(name), column=column)
        if len(entries) > 1:
            raise AmbiguousName(self.what, name, [d for d, _ in entries], column=column)
        return entries[0][1]

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        """The display names closest to ``name``, best first."""
        key = normalise(name)
        import difflib  # only for a name the game does not know (start-up: bench/check_startup.py)

        # First the names the typed one begins, part by part (1P of 1P/1AB), then the
        # spelling mistakes difflib finds.
        parts = sorted((k for k in self._by_key if key and _begins(k, key)),
                       key=lambda k: (not k.startswith(key), len(k)))
        close = difflib.get_close_matches(key, list(self._by_key), n=limit, cutoff=0.6)
        seen: list[str] = []
        for match in [*parts, *close]:
            if len(seen) >= limit:
                break
            display = self._display[match]
            if display not in seen:
                seen.append(display)
        return seen

    def names(self) -> list[str]:
        """Every display name, in the order added."""
        return list(dict.fromkeys(self._display.values()))


_BRACKETED = re.compile(r"\s*\([^)]*\)")


def short_forms(full_names: Mapping[str, str]) -> dict[str, list[str]]:
    """The shorter forms by which players write full names, for each key of ``full_names``
    that has any: the name without its bracketed parts ("2nd Battalion Irish Guards") and each
    run of its last two or more words ("Irish Guards").  A form that two names share
    ("Grenadier Guards") names neither, and is left to did-you-mean."""
    owners: dict[str, set[str]] = {}
    forms: dict[str, list[str]] = {}
    for key, full in full_names.items():
        words = _BRACKETED.sub("", full).split()
        candidates = [" ".join(words)] + [" ".join(words[i:]) for i in range(1, len(words) - 1)]
        mine = [form for form in dict.fromkeys(candidates) if form != full and form]
        forms[key] = mine
        for form in mine:
            owners.setdefault(normalise(form), set()).add(key)
    return {key: kept for key, mine in forms.items()
            if (kept := [form for form in mine if len(owners[normalise(form)]) == 1])}


def _begins(key: str, typed: str) -> bool:
    """Does the name ``key`` begin with ``typed``, hold it as a whole part (``1p/1ab`` for
    ``1p``; ``b/504/82`` for ``504``), or hold it at all when it is a word or longer?"""
    if len(typed) < 2:
        return False
    # A word or more of a full name (Irish Guards of 2nd (Armoured) Battalion Irish Guards).
    return key.startswith(typed) or typed in key.split("/") or (len(typed) >= 5
                                                                and typed in key)


def split_leading_name(
    words: list[str], index: NameIndex[T], *, column: int | None = None
) -> tuple[T, list[str]]:
    """Resolve the longest run of leading ``words`` that is a known name.

    ``["1st", "Airborne", "Arnhem"]`` with a unit index knowing "1st Airborne" gives that
    unit and ``["Arnhem"]``.  With no match, ``UnknownName`` names the first word.
    """
    for end in range(len(words), 0, -1):
        candidate = " ".join(words[:end])
        if candidate in index:
            return index.lookup(candidate, column=column), words[end:]
    return index.lookup(words[0] if words else "", column=column), words[1:]
