"""Jokers: "There are 3 jokers; for each player one single joker.  A player can use a joker
but once: to counter a single throw of one D10 when a ZERO is rolled: reroll the D10, but the
next result stands! [or] ALL units from one single sector gain an extra movement point."

A player holds a count of unused jokers (``AState.jokers``, keyed by player: ``allied`` and
``german``, or ``uk``, ``us`` and ``german`` in a three-player game), so that one may hold two:
"If the game consists of 3 (or more) players, the first Allied player to use his JOKER hands
over his card to the German player" (Veterans/3; :func:`spend`).  ``AState.jokers_off``
switches them all off (Veterans Only, option 5).

The reroll is written on the line of the roll it modifies, never as a decision of its own: a
command that ends with ``joker`` (``allied: barrage 3 art/UK Grave->Wijchen joker``; also
``invade``, ``fall-back``, ``support``, ``defuse``, ``detonate``) asks the referee to reroll
the first 0 among the holder's own dice in that command (hit dice, spotting dice, the one
defusing or detonation die), right after the roll that shows it; the new face stands.  The
combat roll names its players (``combat Achel joker german``, :func:`combat_jokers`, A46).
When no 0 shows, the joker is kept.  A tabletop player writes
the word after seeing the zero, with the reroll's die in the record where it was rolled; in
play by e-mail the player commits to it before the dice are rolled.  So the referee never stops
after a zero (docs/arnhem44-log-format.md, "Jokers"; docs/arnhem44-interpretations.md, A38).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.core.names import side_title
from referee.games.arnhem44.board import ALLIED, GERMAN, Board, Key, side_of
from referee.games.arnhem44.commands import JokerMove
from referee.games.arnhem44.copying import changed
from referee.games.arnhem44.fire import Shooter
from referee.games.arnhem44.options import THREE_PLAYERS, UK, US, player_of
from referee.games.arnhem44.state import MOVEMENT, AState
from referee.games.arnhem44.turns import player as player_for

RULE = "Jokers"


def holders(state: AState) -> tuple[str, ...]:
    """The players who hold jokers: allied and german, or uk, us and german (Veterans/3)."""
    return (UK, US, GERMAN) if THREE_PLAYERS in state.options else (ALLIED, GERMAN)


def held(state: AState, side: str, player: str | None = None) -> int:
    """Unused jokers the player acting for ``side`` (or ``player``) holds now (0 with the
    no-jokers option)."""
    return 0 if off(state) else state.jokers.get(player or player_for(state, side), 0)


def off(state: AState) -> bool:
    """No jokers in this game: switched off, or the Veterans Only option 5 ("no-jokers")."""
    return state.jokers_off or "no-jokers" in state.options


def check_unused(state: AState, side: str, player: str | None = None) -> None:
    """Refuse a joker the side does not hold (before any die is rolled)."""
    if off(state):
        raise IllegalMove(RULE, "this game is played without jokers (Veterans Only: no jokers)")
    if held(state, side, player) < 1:
        who = side_title(player or player_for(state, side))
        raise IllegalMove(RULE, f"{who} has no joker left: a player can use a joker but once")


def spend(state: AState, side: str, player: str | None = None) -> list[Event]:
    """Spend the acting player's joker.  Veterans/3 and Jokers: "If the game consists of 3 (or
    more) players, the first Allied player to use his JOKER hands over his card to the German
    player" - the first of the UK and US jokers used goes to the German (who then holds two)."""
    player = player or player_for(state, side)
    first = player in (UK, US) and state.jokers.get(UK, 0) + state.jokers.get(US, 0) == 2
    state.jokers[player] = state.jokers.get(player, 0) - 1
    if not first:
        return []
    state.jokers[GERMAN] = state.jokers.get(GERMAN, 0) + 1
    return [Event("joker-passed", f"{side_title(player)} used the first Allied joker and hands the "
                  "card over to the German player (Jokers, three players)",
                  {"from": player, "to": GERMAN, "german_holds": state.jokers[GERMAN]})]


class Joker:
    """A joker written on a command (``… joker``): armed until the first roll of the holder in
    that command that shows a 0, whose first 0 it rerolls at once (the new face stands).  Call
    it on each of the holder's rolls that the card may counter, in the order rolled; ``done``
    at the end says when it was kept.  Not armed (the command has no ``joker``): every roll
    passes unchanged."""

    def __init__(self, state: AState, side: str, dice: Dice, armed: bool,
                 player: str | None = None) -> None:
        """``player``: who holds the card, when not the one ``turns.player`` names (the Allied
        player stepping in at the barrage, Veterans/3)."""
        self.player = player or player_for(state, side)
        if armed:
            check_unused(state, side, self.player)
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
        player = self.player
        passed = spend(self.state, self.side, player)
        self.events.append(Event(
            "joker", f"{side_title(player)} plays the joker: a 0 is rerolled ({label}): "
            f"{new}, and the next result stands", {"side": player, "used": "reroll",
                                                    "face": new}))
        self.events += passed
        return (*faces[:at], new, *faces[at + 1:])

    def done(self) -> list[Event]:
        """The joker's events; a joker still armed is kept (no 0 came up)."""
        if self.armed:
            self.armed = False
            who = side_title(self.player)
            self.events.append(Event("joker-kept", f"{who}'s joker: no 0 came up; the joker is "
                                     "kept", {"side": self.player, "used": False}))
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
    player = player_for(state, side)

    def mine(group: str) -> bool:
        # Veterans/3: "Allied players CANNOT move or fight but with their own units"
        return side_of(group) == side and (player == side or player_of(group) == player)

    here = state.units.get(command.sector)
    if not here or not any(mine(g) for g, _ in here):
        raise IllegalMove(RULE, f"{command.sector} holds no {side_title(player)} figures to "
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
            bumped[(g, k, mp + 1 if mine(g) else mp)] += n
        state.moved[command.sector] = changed(bumped, None, None)  # never changed in place
    state.joker_sector = command.sector
    passed = spend(state, side)
    return [Event("joker", f"{side_title(player)} plays the joker: all {side_title(player)} "
                  f"units in {command.sector} gain an extra movement point",
                  {"side": player, "used": "move", "sector": command.sector}), *passed]


def combat_jokers(state: AState, dice: Dice, sector: str, players: tuple[str, ...],
                  shooters: dict[str, list[Shooter]], figures: dict[str, list[Key]]
                  ) -> dict[str, tuple[Joker, Callable[[Key], bool] | None]]:
    """The jokers written on a combat roll (``combat SECTOR joker german``), by side: each
    armed on its side's hit dice (with three players, the holder's own figures' dice:
    Veterans/3 "Allied players CANNOT move or fight but with their own units").  Refused,
    before any die, when the player holds none, or rolls no hit die in this combat (no figure
    with dice and a target): "To counter a single throw of one D10 when a ZERO is rolled"
    needs a throw of his own (reading A46)."""
    out: dict[str, tuple[Joker, Callable[[Key], bool] | None]] = {}
    for player in players:
        if player not in holders(state):
            raise IllegalMove(RULE, f"'{player}' is no player of this game: a joker is "
                              f"played by {', '.join(holders(state))}")
        side = GERMAN if player == GERMAN else ALLIED
        if side in out:
            raise IllegalMove(RULE, f"one joker counters one throw: the {side_title(side)} hit "
                              f"dice at {sector} take one joker")
        own: Callable[[Key], bool] | None = None
        if player in (UK, US):
            def own(key: Key, player: str = player) -> bool:
                return player_of(key[0]) == player
        enemy_tanks = any(k[1] == "tank" for k in figures[GERMAN if side == ALLIED else ALLIED])
        throws = [s for s in shooters[side] if s.dice > 0 and (own is None or own(s.key))
                  and (s.key[1] != "art" or enemy_tanks)]
        if not throws:
            raise IllegalMove(RULE, f"{side_title(player)} rolls no hit die in the combat at "
                              f"{sector} (no figure with dice and a target): the joker counters "
                              "a 0 of one's own throw, so it is kept")
        out[side] = (Joker(state, side, dice, True, player), own)
    return out
