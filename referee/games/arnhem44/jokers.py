"""Jokers: "There are 3 jokers; for each player one single joker.  A player can use a joker
but once: to counter a single throw of one D10 when a ZERO is rolled: reroll the D10, but the
next result stands! [or] ALL units from one single sector gain an extra movement point."

A side holds a count of unused jokers (``AState.jokers``), so that a side may hold two (the
three-player option hands the first Allied joker used to the German).  ``AState.jokers_off``
switches them all off (Veterans Only, option 5).

The reroll is written on the line of the roll it modifies, never as a decision of its own: a
command that ends with ``joker`` (``allied: barrage 3 art/UK Grave->Wijchen joker``) asks the
referee to reroll the first 0 among the holder's dice of that roll (its hit dice), right after
the roll; the new face stands.  When no 0 shows, the joker is kept.  A tabletop player writes
the word after seeing the zero, with the reroll's die in the record where it was rolled; in
play by e-mail the player commits to it before the dice are rolled.  So the referee never stops
after a zero (docs/arnhem44-log-format.md, "Jokers"; docs/arnhem44-interpretations.md, A38).
"""

from __future__ import annotations

from collections import Counter

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.arnhem44.board import Board, side_of
from referee.games.arnhem44.commands import JokerMove
from referee.games.arnhem44.state import MOVEMENT, AState

RULE = "Jokers"


def held(state: AState, side: str) -> int:
    """Unused jokers ``side`` holds now (0 with the no-jokers option)."""
    return 0 if state.jokers_off else state.jokers.get(side, 0)


def check_unused(state: AState, side: str) -> None:
    """Refuse a joker the side does not hold (before any die is rolled)."""
    if state.jokers_off:
        raise IllegalMove(RULE, "this game is played without jokers (Veterans Only: no jokers)")
    if held(state, side) < 1:
        raise IllegalMove(RULE, f"{side.capitalize()} has no joker left: a player can use a "
                          "joker but once")


def spend(state: AState, side: str) -> None:
    state.jokers[side] = state.jokers.get(side, 0) - 1


def reroll_first_zero(state: AState, side: str, dice: Dice, faces: tuple[int, ...],
                      label: str, events: list[Event]) -> tuple[int, ...]:
    """The joker reroll: the first 0 of ``faces`` (a roll of ``side``) is rolled again and the
    new face stands; the joker is spent.  No 0: the joker is kept.  The caller has checked
    that ``side`` holds one (``check_unused``)."""
    if 0 not in faces:
        events.append(Event("joker-kept", f"{side.capitalize()}'s joker: no 0 in {label}; the "
                            "joker is kept", {"side": side, "used": False}))
        return faces
    at = faces.index(0)
    (new,) = dice.roll(10, 1, f"{label}: joker reroll of a 0", low=0)
    spend(state, side)
    events.append(Event("joker", f"{side.capitalize()} plays the joker: a 0 of {label} is "
                        f"rerolled: {new} (the next result stands)",
                        {"side": side, "used": "reroll", "face": new}))
    return (*faces[:at], new, *faces[at + 1:])


def joker_move(board: Board, state: AState, command: JokerMove) -> list[Event]:
    """Jokers: "ALL units from one single sector gain an extra movement point"; the figures
    of the mover in that sector now (fresh or moved) each get one more point this phase.  A
    crossing without a bridge still ends a figure's move, so the joker never pays for a
    crossing ("it can however be used to move infantry units ... AFTER the unit has crossed")."""
    side = state.mover
    if state.phase not in MOVEMENT or state.fallback is not None:
        raise IllegalMove(RULE, "the joker's extra movement point is played in one's own "
                          "movement phase (4.1 or 5.1), between moves")
    check_unused(state, side)
    here = state.units.get(command.sector)
    if not here or not any(side_of(g) == side for g, _ in here):
        raise IllegalMove(RULE, f"{command.sector} holds no {side.capitalize()} figures to "
                          "gain the extra movement point")
    if state.joker_sector is not None:
        raise IllegalMove(RULE, "a joker has been played for a sector this phase already")
    moved = state.moved.get(command.sector)
    if moved:
        bumped: Counter[tuple[str, str, int]] = Counter()
        for (g, k, mp), n in moved.items():
            bumped[(g, k, mp + 1 if side_of(g) == side else mp)] += n
        state.moved[command.sector] = bumped
    state.joker_sector = command.sector
    spend(state, side)
    return [Event("joker", f"{side.capitalize()} plays the joker: all {side.capitalize()} "
                  f"units in {command.sector} gain an extra movement point",
                  {"side": side, "used": "move", "sector": command.sector})]
