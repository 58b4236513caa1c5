"""Building WWII Commander positions for rule tests, and running log lines against them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest

from referee.core.dice import DiceTray
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.core.log import ActionLine
from referee.core.parsing import parse_log
from referee.games.wwiic.board import ALLIED, GERMAN, SPACE
from referee.games.wwiic.commands import Activate, Command
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import Phase, WState

BOARD = ENGINE.board


def dice(*faces: int) -> DiceTray:
    """A tray holding exactly these d10 faces, as a tabletop log records them."""
    return DiceTray(None, recorded=faces, recorded_sides=10)


def no_dice() -> DiceTray:
    return DiceTray(None)


def opening() -> WState:
    return ENGINE.setup(None, {})


def position(
    units: Mapping[str, str],
    *,
    allied: Iterable[str] = (),
    german: Iterable[str] = (),
    spent: Iterable[str] = (),
    supply: Mapping[str, str] | None = None,
    strength: Mapping[str, int] | None = None,
    turn: int = 3,
    weather: str = "clear",
    side: str = ALLIED,
    initiative: str | None = None,
    time: int = 0,
) -> WState:
    """Only ``units`` on the board, at an impulse of ``side``.

    Control follows 5: a space held only by Allied units is Allied-controlled, every other
    space German-controlled; ``allied``/``german`` then set the control of named spaces (an
    empty or contested space's control is whatever the last side to hold it made it).
    """
    state = opening()
    for unit in state.location:
        state.location[unit] = None
    for unit, place in units.items():
        assert unit in BOARD.units, unit
        assert place in BOARD.kind, place
        state.location[unit] = place
    present: dict[str, set[str]] = {}
    for unit, place in units.items():
        if BOARD.kind[place] == SPACE:
            present.setdefault(place, set()).add(BOARD.side_of[unit])
    state.allied_control = {s for s, sides in present.items() if sides == {ALLIED}}
    for space in allied:
        assert BOARD.kind[space] == SPACE, space
        state.allied_control.add(space)
    for space in german:
        state.allied_control.discard(space)
    state.spent = set(spent)
    if supply:
        state.supply.update(supply)
    if strength:
        state.strength.update(strength)
    state.turn = turn
    state.weather = weather
    state.initiative = initiative or (
        ALLIED if turn <= 3 or weather == "clear" else GERMAN
    )
    state.side = side
    state.time = time
    state.phase = Phase.IMPULSE
    assert ENGINE.invariants(state) == [], ENGINE.invariants(state)
    return state


def command(text: str) -> Command:
    """The command of one log line (without a side prefix or with one)."""
    log = parse_log('[Game "wwiic"]\n' + text + "\n", engine=ENGINE)
    assert not log.problems, log.problems
    (entry,) = log.entries
    assert isinstance(entry, ActionLine)
    (item,) = entry.items
    result: Command = item.command
    return result


def play(state: WState, text: str, tray: DiceTray | None = None) -> list[Event]:
    """Apply one log line's command to ``state`` (which changes)."""
    return ENGINE.apply(state, command(text), tray or no_dice())


def refused(state: WState, text: str, rule: str) -> IllegalMove:
    """Check that ``text`` is illegal under ``rule`` and leaves ``state`` as it was."""
    before = ENGINE.to_json(state)
    cmd = command(text)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, cmd, no_dice())
    assert caught.value.rule == rule, caught.value
    assert ENGINE.to_json(state) == before
    assert cmd not in ENGINE.legal(state)
    return caught.value


def accepted(state: WState, text: str) -> WState:
    """Apply ``text`` to a copy (checking it is listed as legal) and return the copy."""
    cmd = command(text)
    assert cmd in ENGINE.legal(state), f"{text} is not in legal()"
    after = ENGINE.copy(state)
    ENGINE.apply(after, cmd, no_dice())
    assert ENGINE.invariants(after) == []
    return after


def destinations(state: WState, unit: str, *, strategic: bool | None = None) -> set[str]:
    """Where ``unit`` may end a one-unit activation (its own space when it stays)."""
    out: set[str] = set()
    for cmd in ENGINE.legal(state):
        if isinstance(cmd, Activate) and len(cmd.moves) == 1 and cmd.moves[0].unit == unit:
            move = cmd.moves[0]
            if strategic is not None and move.strategic != strategic:
                continue
            if move.path:
                out.add(move.path[-1])
    return out


def paths(state: WState, unit: str) -> set[tuple[str, ...]]:
    return {
        cmd.moves[0].path
        for cmd in ENGINE.legal(state)
        if isinstance(cmd, Activate) and len(cmd.moves) == 1 and cmd.moves[0].unit == unit
    }


def where(state: WState, unit: str) -> str | None:
    return state.location[unit]


def control(state: WState, space: str) -> str:
    return state.controller(space)
