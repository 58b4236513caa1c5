"""The invariants self-play checks after every command catch each kind of broken position: a
figure more or less than the scenario's (conserved), ten units of a side in a sector, an empty
count, moved figures that are not there, bridge points that do not add up, supply tokens that
are not conserved."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest

from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.state import AState

from .test_state_copy import _played


def _sound() -> AState:
    state = _played("invariants-1", 300)
    assert ENGINE.invariants(state) == []
    return state


def _german_sector(state: AState) -> str:
    return next(s for s, c in state.units.items() if ("DE", "inf") in c)


def _extra_figure(state: AState) -> None:
    state.add(_german_sector(state), ("DE", "inf"))


def _lost_figure(state: AState) -> None:
    sector = _german_sector(state)
    state.remove(sector, ("DE", "inf"))


def _figure_changes_kind(state: AState) -> None:
    sector = _german_sector(state)
    state.remove(sector, ("DE", "inf"))
    state.add(sector, ("DE", "tank"))


def _ten_germans(state: AState) -> None:
    sector = _german_sector(state)
    here = state.units[sector]
    total = sum(n for (g, _), n in here.items() if g == "DE")
    moved = 0
    for other, counts in list(state.units.items()):
        if other == sector:
            continue
        n = counts.get(("DE", "inf"), 0)
        while n and total + moved < 10:
            state.remove(other, ("DE", "inf"))
            state.add(sector, ("DE", "inf"))
            n -= 1
            moved += 1
    assert total + moved == 10


def _empty_count(state: AState) -> None:
    sector = _german_sector(state)
    state.units[sector] = Counter({**state.units[sector], ("DE", "art"): 0})


def _unknown_sector(state: AState) -> None:
    sector = _german_sector(state)
    state.remove(sector, ("DE", "inf"))
    state.add("Atlantis", ("DE", "inf"))


def _moved_not_there(state: AState) -> None:
    sector = _german_sector(state)
    state.moved.setdefault(sector, Counter())[("DE", "inf", 1)] += 20


def _bridge_without_control(state: AState) -> None:
    del state.control[next(b for b in state.control if b not in state.destroyed)]


def _destroyed_unknown_bridge(state: AState) -> None:
    state.destroyed.add("Atlantis-bridge")


def _token_appears(state: AState) -> None:
    state.box += 1


def _token_negative(state: AState) -> None:
    """One HQ card holds -1 token, the others none; the total is kept (the used tokens make
    up for it), so only the negative count can be caught."""
    held = sum(state.hq.values())
    for group in state.hq:
        state.hq[group] = 0
    state.hq[next(iter(state.hq))] = -1
    state.supplies_used += held + 1


BREAKS: dict[str, tuple[Callable[[AState], None], str]] = {
    "extra figure": (_extra_figure, "figures are not conserved"),
    "lost figure": (_lost_figure, "figures are not conserved"),
    "figure changes kind": (_figure_changes_kind, "figures are not conserved"),
    "ten units of a side": (_ten_germans, "holds 10 german units (at most 9)"),
    "empty count": (_empty_count, "holds a count that is not positive"),
    "unknown sector": (_unknown_sector, "figures in an unknown sector Atlantis"),
    "moved figures not there": (_moved_not_there, "exceed the figures there"),
    "bridge without control": (_bridge_without_control, "has no controller"),
    "unknown bridge destroyed": (_destroyed_unknown_bridge, "an unknown bridge is destroyed"),
    "a token appears": (_token_appears, "supply tokens are not conserved"),
    "a negative token count": (_token_negative, "supply tokens are not conserved"),
}


@pytest.mark.parametrize("name", list(BREAKS))
def test_each_broken_position_is_caught(name: str) -> None:
    state = _sound()
    breaks, words = BREAKS[name]
    breaks(state)
    problems = ENGINE.invariants(state)
    assert any(words in p for p in problems), problems


def test_bridge_points_add_up_to_100_less_the_destroyed_bridges() -> None:
    """Winning the Game: the bridges are worth 100 points; a destroyed bridge's points are
    gone from both sides (the check counts a destroyed bridge held by nobody)."""
    state = _sound()
    bridge = next(iter(state.control))
    state.destroyed.add(bridge)
    del state.control[bridge]
    assert ENGINE.invariants(state) == []
