"""The last action on the Arnhem '44 board, as python-chess draws a last move: an arrow from
the sector the figures move or fire from to the sector they reach or hit, an outline round a
sector where something happens in place (a combat, figures placed), and the line's events in
words (the hits, the losses) for the heading."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.core.errors import RefereeError
from referee.core.svg import Arrow, Point
from referee.games.arnhem44.commands import (
    Barrage,
    CombatRoll,
    Deploy,
    Enter,
    FallBack,
    Invade,
    JokerMove,
    Move,
    Reinforce,
    StartBailey,
    Withdraw,
)


@dataclass(frozen=True)
class LastAction:
    """What the board draws of the last action."""

    arrows: tuple[Arrow, ...] = ()
    outlined: tuple[str, ...] = ()
    """Sector ids outlined: where the action happened in place."""


def last_action(commands: Sequence[object], sector_of: Callable[[str], str | None],
                at: Callable[[str], Point | None]) -> LastAction:
    """The arrows and outlines of a line's ``commands``; ``sector_of`` turns a name as the
    log writes it into a sector id (``None``: not a sector), ``at`` a sector id into its
    place on the board."""
    arrows: list[Arrow] = []
    outlined: list[str] = []

    def route(names: Sequence[str]) -> None:
        ids = [s for s in (sector_of(n) for n in names) if s is not None]
        points = [p for p in (at(s) for s in ids) if p is not None]
        if len(ids) >= 2 and len(points) == len(ids):
            arrows.append(Arrow(ids[0], ids[-1], tuple(points)))

    def place(name: str) -> None:
        sector = sector_of(name)
        if sector is not None and sector not in outlined:
            outlined.append(sector)

    for command in commands:
        if isinstance(command, Move):
            route(command.path)
        elif isinstance(command, Invade):
            # Move/EnterEnemy: the intruders come from one or more sectors to the target.
            for start, _groups in command.parts:
                route((start, command.target))
            place(command.target)
        elif isinstance(command, FallBack | Withdraw):
            route((command.start, command.dest))
        elif isinstance(command, StartBailey):
            route((command.start, command.across))
        elif isinstance(command, Barrage):
            # Barrage Fire: each shot from the battery's sector to its target.
            for _groups, start, target in command.shots:
                route((start, target))
                place(target)
        elif isinstance(command, CombatRoll | Deploy | Enter | Reinforce | JokerMove):
            place(command.sector)
    return LastAction(tuple(arrows), tuple(outlined))


def resolver(lookup: Callable[[str], str]) -> Callable[[str], str | None]:
    """``sector_of`` for ``last_action`` from the board's name index, remembering each
    name's answer (a viewer resolves the same few names hundreds of times)."""
    known: dict[str, str | None] = {}

    def sector_of(name: str) -> str | None:
        if name not in known:
            try:
                known[name] = lookup(name)
            except RefereeError:
                known[name] = None
        return known[name]

    return sector_of
