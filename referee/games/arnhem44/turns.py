"""Veterans/3, three players: "Germany, UK (and Poland) and US. Allied players CANNOT move or
fight but with their own units: so NO combined actions. The Allied turn is split up into a UK
and a US part, to be played separately. UK goes first."

The log names the players ``uk``, ``us`` and ``german``.  Phase 4.1 is played in two parts:
the UK player moves the UK, 1st Airborne and Polish figures and ends his part (``uk: end
movement``), then the US player moves the US, 82nd and 101st figures and ends the phase.
Every other Allied decision (the set-up, R1-R15, the reserve roll and entries, the withdrawal
choices of the strongest side) is the Allies' joint decision, written by the UK player, who
"goes first" (reading recorded in docs/arnhem44-interpretations.md).
"""

from __future__ import annotations

from collections import Counter
from operator import is_
from typing import Any

from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.arnhem44.board import ALLIED, Key
from referee.games.arnhem44.copying import Figures
from referee.games.arnhem44.options import THREE_PLAYERS, UK, US, player_of
from referee.games.arnhem44.state import AState

RULE = "Veterans/3"


def first_part(state: AState) -> str | None:
    """The part a phase starts with: UK in phase 4.1 (and in the barrage of phase 1) of a
    three-player game, else none."""
    return UK if state.phase in ("1", "4.1") and THREE_PLAYERS in state.options else None


def place_part(state: AState, part: str) -> None:
    """A position's ``setup: part us``."""
    if THREE_PLAYERS not in state.options:
        raise IllegalMove(RULE, "only a three-player game (option three-players) has a UK and "
                          "a US part")
    if state.phase not in ("1", "4.1") or part not in (UK, US):
        raise IllegalMove(RULE, "the Allied movement phase 4.1 has a uk and a us part, and the "
                          "Allied turns of phase 1 a uk or a us battery")
    state.part = part


def player(state: AState, side: str) -> str:
    """Who acts for ``side`` (allied or german): in a three-player game the Allies are the UK
    player, or the US player in his part of phase 4.1 and in his barrage turns of phase 1."""
    if side != ALLIED or THREE_PLAYERS not in state.options:
        return side
    return state.part or UK


def end_part(state: AState, events: list[Event]) -> bool:
    """``end movement`` in the UK part hands phase 4.1 to the US player (True); in the US part
    (or in a two-player game) it ends the phase (False)."""
    if state.part != UK:
        return False
    state.part = US
    # A joker's extra movement point was the UK player's: it ends with his part, and the US
    # player may play his own joker in his part (Jokers, Veterans/3; reading A44).
    state.joker_sector = None
    events.append(Event("end-movement", "UK ends its part of the movement; the US part "
                        "(Veterans/3)", {"part": US}))
    return True


def others(state: AState) -> dict[str, dict[Key, int]]:
    """The figures of the Allied player whose part it is not, sector by sector (sectors with
    none left out, as counts of 0)."""
    part = state.part
    if part is None:
        return {}
    units = state.units
    values = tuple(units.values())
    kept = _kept
    # the same Figures in the same sectors (never changed in place): the answer kept, shared
    # (read only), asked before and after every command of a part
    if kept is not None and kept[2] == part and len(kept[1]) == len(values) \
            and all(map(is_, values, kept[1])) and kept[0] == tuple(units):
        return kept[3]
    out = {}
    name = OTHERS_KEPT.get(part, "")
    for sector, counts in units.items():
        theirs = getattr(counts, name, None)  # kept: one lookup (no call) a sector
        if theirs is None:
            theirs = _others_here(counts, part)
        if theirs:
            out[sector] = theirs
    if set(map(type, values)) <= _ONLY_FIGURES:
        _keep((tuple(units), values, part, out))
    return out


_ONLY_FIGURES = frozenset({Figures})
_kept: tuple[tuple[str, ...], tuple[Any, ...], str, dict[str, dict[Key, int]]] | None = None
"""The last ``others``: the sectors, their figures (compared by identity), the part, the
answer."""


def _keep(kept: tuple[tuple[str, ...], tuple[Any, ...], str, dict[str, dict[Key, int]]]) -> None:
    global _kept  # one assignment: a reader sees the old or the new answer whole
    _kept = kept


OTHERS_KEPT = {UK: "_others_uk", US: "_others_us"}
"""The attributes of a sector's ``Figures`` that keep ``_others_here`` of it for each part."""


def _others_here(counts: Counter[Key], part: str) -> dict[Key, int]:
    """The figures among one sector's counts that the Allied player ``part`` does not move,
    kept on a sector's ``Figures`` (never changed in place) as ``presence._totals`` is: the
    movement asks it of every sector before and after every command (issue 31)."""
    name = OTHERS_KEPT.get(part)
    kept: dict[Key, int] | None = None if name is None else getattr(counts, name, None)
    if kept is not None:
        return kept
    found = {key: n for key, n in counts.items()
             if n and key[0] != "DE" and player_of(key[0]) != part}
    if name is not None and type(counts) is Figures:
        setattr(counts, name, found)
    return found


def check_own(before: dict[str, dict[Key, int]], state: AState, part: str | None) -> None:
    """No combined actions: a command of one Allied player's ``part`` (the part before the
    command) moved the other's figures."""
    if part is None or part != state.part:
        return
    if others(state) != before:
        mine = "UK, 1st Airborne and Polish" if part == UK else "US, 82nd and 101st"
        raise IllegalMove(RULE, f"in the {part.upper()} part the {part.upper()} player moves "
                          f"only his own figures ({mine}): no combined actions")
