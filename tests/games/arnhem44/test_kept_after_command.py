"""The answers kept from one command to the next (issue 31) against the long way, over every
command of the bundled logs and of self-played games.

After every command the engine judges contact with GARDEN (``supply.update_contact``), the
bridges' control (``report.before_command``/``judge_after``, ``victory.bridge_sides``) and the
ferries (``ferries.update``); phase 1 asks who may fire at whom
(``placement.artillery_sectors``, ``barrage._can_fire``) and a three-player part the other
player's figures (``turns.others``): each keeps what it saw and looks again only at what
changed.
Here every command is applied twice from the same position: once as the replay applies it,
with what was kept from the commands before, and once with nothing kept (every sector and
bridge looked at, as before issue 31).  The events and the position after must be the same.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.core.dice import DiceTray
from referee.core.engine import Event
from referee.core.errors import RefereeError
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.arnhem44 import barrage, ferries, placement, report, supply, turns, victory
from referee.games.arnhem44.engine import ENGINE, Arnhem44Engine
from referee.games.arnhem44.state import AState
from tests.games.arnhem44.helpers import play_random

LOGS = Path(__file__).resolve().parents[3] / "logs" / "arnhem44"
BOARD = ENGINE.board


def _kept() -> tuple[Any, ...]:
    return (supply._quiet, report._settled, victory._memo, ferries._quiet, barrage._fire_kept,
            turns._kept, placement.artillery_sectors._last)


def _keep(kept: tuple[Any, ...]) -> None:
    supply._keep_quiet(kept[0])
    report._keep_settled(kept[1])
    victory._keep(kept[2])
    ferries._keep_quiet(kept[3])
    barrage._keep_fire(kept[4])
    turns._keep(kept[5])
    placement.artillery_sectors._last = kept[6]


def _forget_everything() -> None:
    """Nothing kept: the next look at contact, the bridges and phase 1 is the whole one."""
    _keep((None,) * 7)


def _ferries_long_way(state: AState) -> list[str]:
    """The ferries Allied troops reach now, every end's figures read key by key."""
    def allied_at(sector: str) -> bool:
        return any(group != "DE" for group, _ in state.units.get(sector, {}))
    return [ferry for ferry, (a, b) in BOARD.ferries.items()
            if state.ferries.get(ferry, ferries.ACTIVE) == ferries.ACTIVE
            and (allied_at(a) or allied_at(b))]


def _texts(events: list[Event]) -> list[tuple[str, str, Any]]:
    return [(e.kind, e.text, e.data) for e in events]


class _Twice:
    """Wraps the engine's ``apply``: each command applied from a copy of the position before
    it with nothing kept, then as given, with what the commands before kept; both compared,
    and the questions asked between commands too."""

    def __init__(self, engine: Arnhem44Engine) -> None:
        self.apply = engine.apply
        self.commands = 0
        self.differ: list[str] = []

    def __call__(self, state: AState, command: Any, dice: Any) -> list[Event]:
        self.commands += 1
        twin, twin_dice = state.copy(), _dice_copy(dice)
        kept = _kept()
        _forget_everything()
        try:
            long: list[Event] | RefereeError = self.apply(twin, command, twin_dice)
        except RefereeError as error:
            long = error
        _keep(kept)
        try:
            events = self.apply(state, command, dice)
        except RefereeError as error:
            if not isinstance(long, RefereeError) or str(long) != str(error):
                self.differ.append(f"{command}: refused as {error}; the long way: {long}")
            raise
        if isinstance(long, RefereeError) or (_texts(long), twin) != (_texts(events), state):
            self.differ.append(f"{command}: {_texts(events)}; the long way: {long}")
        self._check_between(state)
        return events

    def _check_between(self, state: AState) -> None:
        """The questions asked between commands, kept against the long way."""
        if _ferries_long_way(state) != [e.data["ferry"] for e in ferries.update(
                BOARD, state.copy())]:
            self.differ.append(f"ferries at {state.phase} round {state.round}")
        for side in ("allied", "german"):
            fast = barrage._can_fire(BOARD, state, side, None)
            kept = _kept()
            _forget_everything()
            if fast != bool(barrage.options(BOARD, state, side)):
                self.differ.append(f"can fire {side} at {state.phase} round {state.round}")
            _keep(kept)


def _dice_copy(dice: Any) -> Any:
    """The same dice from the same place: the tray made again."""
    assert isinstance(dice, DiceTray)
    return DiceTray(dice.stream, dice.position, recorded=dice.recorded,
                    recorded_sides=dice.recorded_sides, recorded_chits=dice.recorded_chits,
                    subject=dice.subject)


def _bundled() -> Iterator[Any]:
    for path in sorted(LOGS.glob("*.log")):
        yield parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE)


def test_every_command_of_the_bundled_logs_is_judged_as_the_long_way(
        monkeypatch: pytest.MonkeyPatch) -> None:
    twice = _Twice(ENGINE)
    monkeypatch.setattr(ENGINE, "apply", twice)
    for log in _bundled():
        replay(log, ENGINE)
    assert twice.commands > 1500
    assert twice.differ == []


@pytest.mark.parametrize("options", [{}, {"three-players": "on"},
                                     {"bridge-damage": "on", "nijmegen-bridge-order": "on"}])
def test_every_command_of_self_played_games_is_judged_as_the_long_way(
        monkeypatch: pytest.MonkeyPatch, options: dict[str, str]) -> None:
    twice = _Twice(ENGINE)
    monkeypatch.setattr(ENGINE, "apply", twice)
    play_random(("after-1", "after-2"), options)
    assert twice.commands > 1000
    assert twice.differ == []


def test_a_sector_seen_after_a_contact_is_looked_at_again() -> None:
    """Contact made in one sector: a later sector holding the same group is not kept as
    making no contact (for a copy of the position from before, where the group waits)."""
    state = ENGINE.setup(None, {})
    state.hq = {"1AB": 0}
    first, second = BOARD.order[0], BOARD.order[1]
    for sector in (first, second):
        state.add(sector, ("1AB", "inf"))
        state.add(sector, ("UK", "tank"))
    _forget_everything()
    made = supply.update_contact(state.copy())
    assert [e.data["sector"] for e in made] == [first]
    later = state.copy()  # GARDEN leaves the first sector: the second makes the contact
    later.remove(first, ("UK", "tank"))
    assert [e.data["sector"] for e in supply.update_contact(later)] == [second]


def test_owners_changed_by_a_statement_are_judged_again() -> None:
    """A settled position kept, then a bridge's owner changed without a command (a position
    line may): the next command's judgement is the long way's."""
    state = ENGINE.setup(None, {})
    bridge = next(iter(BOARD.bridges.values()))
    state.add(bridge.a, ("DE", "inf"))
    _forget_everything()
    report.judge_after(BOARD, report.before_command(BOARD, state), state)  # kept settled
    assert state.control.get(bridge.id, "german") == "german"
    state.control[bridge.id] = "allied"
    want = report.judge_control(BOARD, report.holders(BOARD, state.copy()), state.copy())
    assert [e.text for e in want] == ["German controls " + bridge.id]
    got = report.judge_after(BOARD, report.before_command(BOARD, state), state)
    assert [e.text for e in got] == [e.text for e in want]


def test_a_ferry_made_active_again_by_a_statement_is_looked_at_again() -> None:
    """Allied troops at a ferry flip it; a position line that makes it active again while they
    stand there (the same figures: the look kept) has it flipped again."""
    state = ENGINE.setup(None, {})
    ferry, (a, _) = next(iter(BOARD.ferries.items()))
    state.add(a, ("UK", "inf"))
    _forget_everything()
    assert [e.data["ferry"] for e in ferries.update(BOARD, state)] == [ferry]
    assert ferries.update(BOARD, state) == []  # flipped: nothing more
    del state.ferries[ferry]  # ``setup: ferry ... active``
    assert [e.data["ferry"] for e in ferries.update(BOARD, state)] == [ferry]


def test_the_bridges_judged_by_the_sectors_written_equal_the_long_way() -> None:
    """The settled position kept with the journal of the sectors written (``Sectors``): a
    state changed figure by figure, at the bridges' ends and away from them, is judged after
    each change as with nothing kept, and the journal is what answers most; the bridges'
    sides and the ferries reached, kept with the journal too, are the long way's."""
    rng = random.Random(31)
    state = ENGINE.setup(None, {})
    ends = sorted(set(victory.end_sectors(BOARD)))
    away = sorted(set(BOARD.rank) - set(ends))
    _forget_everything()
    by_journal = judged = 0
    for _ in range(600):
        kept = report._settled
        before = report.before_command(BOARD, state)
        by_journal += kept is not None and kept[4] is state.units.written  # type: ignore[attr-defined]
        want_was = report.holders(BOARD, state)
        sector = rng.choice(ends if rng.random() < 0.3 else away)
        key = rng.choice([("DE", "inf"), ("UK", "tank"), ("US", "inf")])
        if key in state.units.get(sector, {}) and rng.random() < 0.5:
            state.remove(sector, key)
        else:
            state.add(sector, key)
        # the bridges' sides, kept with the same journal (by ``holders`` above), asked of the
        # state before anything is asked of a copy
        assert list(victory.bridge_sides(BOARD, state)) == [
            (bridge, *victory.sides_at(BOARD, state, bridge)) for bridge in BOARD.bridges]
        twin = state.copy()
        want = report.judge_control(BOARD, want_was, twin)
        got = report.judge_after(BOARD, before, state)
        assert (_texts(got), state.control) == (_texts(want), twin.control)
        settled = report._settled
        if settled is not None and settled[4] is state.units.written:  # type: ignore[attr-defined]
            # kept with the journal's length now: the next look reads only what comes after
            assert settled[5] == len(state.units.written)  # type: ignore[attr-defined]
        judged += bool(want)
        reached = _ferries_long_way(state)
        assert [e.data["ferry"] for e in ferries.update(BOARD, state)] == reached
        if reached and rng.random() < 0.5:
            state.ferries.clear()  # active again: reached again while the troops stand there
    assert by_journal > 300 and judged > 20
