"""Why a move is not allowed (``Refusal``): the rule's section, a sentence written only when
read, and what another unit's move would have to do to lift it (``movement``, ``legal``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

ARRIVE, LEAVE, CONTROL = "arrive", "leave", "control"
"""What a friendly move must change in a space to lift a refusal there (``Refusal.lift``)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a move is not allowed: the rule's section and a sentence.

    The sentence is written only when asked for (``message``): legal()'s search meets
    refusals by the hundred thousand and reads none of them, so a sentence with names in it
    is given as a function that writes it."""

    rule: str
    words: str | Callable[[], str]
    on: tuple[str, ...] = ()
    """The spaces whose units or control caused it, where another unit's move could lift it
    (legal()'s pair search looks again at moves through them); empty otherwise."""
    lift: str = ""
    """What a friendly unit's move would have to do in ``on`` to lift it: ``ARRIVE`` (a
    friendly unit comes to stay), ``LEAVE`` (one leaves) or ``CONTROL`` (control changes)."""

    @property
    def message(self) -> str:
        words = self.words
        return words if isinstance(words, str) else words()
