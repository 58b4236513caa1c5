"""A ``setup:`` statement and the two steps every position module shares: reading its groups
(German figures written without a group) and taking figures from those the scenario has off
the board.  Below ``position.py`` and ``bailey_position.py``, which both use them, so neither
imports the other."""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.core.errors import IllegalMove
from referee.core.records import frozen
from referee.games.arnhem44.board import GERMAN_GROUP, Key, key_text
from referee.games.arnhem44.commands import Groups
from referee.games.arnhem44.state import AState

RULE = "Positions"


@frozen
class Statement:
    kind: str
    groups: Groups = ()
    sector: str = ""
    value: str = ""
    number: int = 0
    extra: tuple[Any, ...] = ()
    """More values of a statement (a Bailey bridge's: the far sector and its numbers)."""


def keys(groups: Groups) -> list[tuple[Key, int]]:
    """The statement's figures with the German group filled in."""
    out = []
    for (group, kind), n in groups:
        if group == "":
            group = GERMAN_GROUP
        out.append(((group, kind), n))
    return out


def take_off_board(state: AState, key: Key, n: int) -> None:
    """Take ``n`` figures of ``key`` from those not on the board (waiting, then the Allied
    set-up pool); refused when the scenario has no more."""
    if state.waiting[key] >= n:
        state.waiting[key] -= n
        state.waiting += Counter()
        return
    if state.waiting[key] + state.pool[key] >= n:
        from_pool = n - state.waiting[key]
        state.waiting[key] = 0
        state.pool[key] -= from_pool
        state.waiting += Counter()
        state.pool += Counter()
        return
    raise IllegalMove(RULE, f"the scenario has no {n} more {key_text(key)} off the board")
