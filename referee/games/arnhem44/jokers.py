"""Jokers: "There are 3 jokers; for each player one single joker.  A player can use a joker
but once: to counter a single throw of one D10 when a ZERO is rolled: reroll the D10, but the
next result stands! [or] ALL units from one single sector gain an extra movement point."

A side holds a count of unused jokers (``AState.jokers``), so that a side may hold two (the
three-player option hands the first Allied joker used to the German).  ``AState.jokers_off``
switches them all off (Veterans Only, option 5).

The reroll is written on the line of the roll it modifies, never as a decision of its own: a
command that ends with ``joker`` (``allied: barrage 3 art/UK Grave->Wijchen joker``; also
``invade``, ``fall-back``, ``support``) asks the referee to reroll the first 0 among the
holder's own dice in that command (hit dice, spotting dice), right after the roll that shows
it; the new face stands.  When no 0 shows, the joker is kept.  A tabletop player writes
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
    return 0 if off(state) else state.jokers.get(side, 0)


def off(state: AState) -> bool:
    """No jokers in this game: switched off, or the Veterans Only option 5 ("no-jokers")."""
    return state.jokers_off or "no-jokers" in state.options


def check_unused(state: AState, side: str) -> None:
    """Refuse a joker the side does not hold (before any die is rolled)."""
    if off(state):
        raise IllegalMove(RULE, "this game is played without jokers (Veterans Only: no jokers)")
    if held(state, side) < 1:
        raise IllegalMove(RULE, f"{side.capitalize()} has no joker left: a player can use a "
                          "joker but once")


def spend(state: AState, side: str) -> None:
    state.jokers[side] = state.jokers.get(side, 0) - 1


class Joker:
    """A joker written on a command (``… joker``): armed until the first roll of the holder in
    that command that shows a 0, whose first 0 it rerolls at once (the new face stands).  Call
    it on each of the holder's rolls that the card may counter, in the order rolled; ``done``
    at the end says when it was kept.  Not armed (the command has no ``joker``): every roll
    passes unchanged."""

    def __init__(self, state: AState, side: str, dice: Dice, armed: bool) -> None:
        if armed:
            check_unused(state, side)
        self.state = state
        self.side = side
        self.dice = dice
        self.armed = armed
        self.events: list[Event] = []

    def __call__(self, faces: tuple[int, ...], label: str) -> tuple[int, ...]:
        if not self.armed or 0 not in faces:
            return faces
        self.armed = False
        at = faces.index(0)
        (new,) = self.dice.roll(10, 1, f"{label}: joker reroll of a 0", low=0)
        spend(self.state, self.side)
        self.events.append(Event(
            "joker", f"{self.side.capitalize()} plays the joker: a 0 is rerolled ({label}): "
            f"{new}, and the next result stands", {"side": self.side, "used": "reroll",
                                                    "face": new}))
        return (*faces[:at], new, *faces[at + 1:])

    def done(self) -> list[Event]:
        """The joker's events; a joker still armed is kept (no 0 came up)."""
        if self.armed:
            self.armed = False
            self.events.append(Event("joker-kept", f"{self.side.capitalize()}'s joker: no 0 "
                                     "came up; the joker is kept",
                                     {"side": self.side, "used": False}))
        return self.events


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
    if command.sector in state.intruded:
        raise IllegalMove(RULE, f"{command.sector} was invaded this phase: figures that made "
                          "contact have halted, and the joker gives them no point to go on")
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
