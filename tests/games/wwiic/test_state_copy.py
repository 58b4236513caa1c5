"""``WState.copy`` builds the copy from its fields in their order (issue 31: the driver
copies the state before every line): every field lands in its own place, and the copy shares
nothing that a command changes."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import Battle, Combat, Phase, WState


def _every_field_set() -> WState:
    """A state whose every field differs from its neighbours' and from its default."""
    state = ENGINE.setup(None, {})
    state.turn, state.phase, state.weather, state.time = 5, Phase.BATTLE, "overcast", 3
    state.initiative, state.side, state.last_pass = "german", "allied", "german"
    state.active = ("505/82",)
    state.combat = Combat(("Nijmegen",), ("Mook",))
    state.foot_crossing_used, state.special_crossing_used = True, False
    state.special_crossers = {"B/504/82": 4}
    state.entered_across = {"505/82": "river"}
    state.eliminated = ["59"]
    state.battle = Battle("Best", "german", ("59",), ("505/82",), 2, 1, "defender", ("505/82",))
    state.objective_marker, state.eliminated_vp = "Eindhoven", -2
    state.due, state.arrivals, state.delayed = {"P/1P": 8}, ["2GG/5G"], {"P/1P"}
    state.replacements, state.polish_marker = {"allied": 2}, "Driel"
    state.result, state.built = {"result": "draw"}, True
    return state


def test_the_copy_has_every_field_in_its_place() -> None:
    state = _every_field_set()
    copied = state.copy()
    for item in fields(WState):
        assert getattr(copied, item.name) == getattr(state, item.name), item.name
    assert copied == state


def test_the_copy_shares_nothing_that_changes() -> None:
    state = _every_field_set()
    copied = state.copy()
    for item in fields(WState):
        mine: Any = getattr(state, item.name)
        theirs: Any = getattr(copied, item.name)
        if item.name != "result" and isinstance(mine, dict | list | set | Combat | Battle):
            # the outcome is made once, at the end, and never changed: shared as before
            assert mine is not theirs, item.name
