"""Building Battle Card states for rule tests, and rolling given faces."""

from __future__ import annotations

from referee.core.dice import DiceTray
from referee.games.battle_card import ENGINE
from referee.games.battle_card.state import ALLIED_CONTROL, BattleCardState, Step


def dice(*faces: int) -> DiceTray:
    """A tray holding exactly these d6 faces, as a tabletop log records them."""
    return DiceTray(None, recorded=faces, recorded_sides=6)


def opening(*options: str) -> BattleCardState:
    """The printed starting position, before the airborne landing roll."""
    return ENGINE.setup(None, {option: "on" for option in options})


def after_airdrop(*faces: int, options: tuple[str, ...] = ()) -> BattleCardState:
    state = opening(*options)
    ENGINE.apply(state, ENGINE.forced(state), dice(*(faces or (6, 6, 6))))
    return state


def at_combat(city: str, allied: int, german: int, *, control: str = "german") -> BattleCardState:
    """Turn step 1 combat with one city set to the given strengths (the others unchanged)."""
    state = after_airdrop()
    unit = state.unit_in(city)
    if unit is None:
        state.units["82nd"].city = city
        unit = state.units["82nd"]
        state.combats_left = [c for c in state.combats_left if c != "Grave"]
        if city not in state.combats_left:
            state.combats_left.append(city)
    unit.strength = allied
    state.german[city] = german
    state.control[city] = ALLIED_CONTROL if control == "allied" else 1
    return state


def at_movement(state: BattleCardState) -> BattleCardState:
    state.step = Step.MOVEMENT
    state.combats_left = []
    return state
