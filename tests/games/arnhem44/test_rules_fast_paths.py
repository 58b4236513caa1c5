"""The rules' short ways (issue 31) against the long way, at every position of the bundled
logs and of self-played games, and at positions mangled from them (figures taken away and put
in at random, Bailey bridges laid, batteries marked as fired, the phases of block 3 tried).

- ``combat.disputed`` (each sector's kept figures) against ``_disputed_held`` (the sectors
  holding each side's figures, every sector looked at: ``_held``);
- ``barrage._can_fire`` (its answers kept with the placement, the first target found) against
  ``_can_fire_held`` (``_held``) and ``options`` not empty;
- ``explosives.actions`` (the crates sorted by bridge in one pass) and whether ``advance`` finds
  one, against the list made bridge by bridge with ``Explosives.under``;
- ``reserves.stuck_allied`` and ``stuck_german`` (the first sector with room enough) against
  the list of every figure's entries and the flag sectors;
- ``bailey._starts`` (the sectors by a waterway, each sector's crews sorted out once)
  against the code first written (every sector, every border's crews sorted out again), and
  ``bailey_between`` against the sets of the two borders' ends;
- ``fire.counts_text`` of one key against the sorted way;
- ``victory.eliminated_side`` (the sectors that showed both sides last time asked first)
  against the whole look, and ``report.judge_after``'s holders kept against ``holders``;
- ``Engine.forced`` in the Allied set-up (no options listed while figures are to deploy)
  against ``legal``'s one option that is not a figure deployed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.arnhem44 import (
    bailey,
    barrage,
    combat,
    explosives,
    fire,
    report,
    reserves,
    victory,
)
from referee.games.arnhem44.board import ALLIED, GERMAN, NATIONALITY, Key, key_order, key_text
from referee.games.arnhem44.commands import Command, Defuse, Deploy, Detonate, Rig, StartBailey
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.legal import legal
from referee.games.arnhem44.presence import friends
from referee.games.arnhem44.state import AState, Bailey
from tests.games.arnhem44.helpers import play_random

LOGS = Path(__file__).resolve().parents[3] / "logs" / "arnhem44"
BOARD = ENGINE.board
KEYS: tuple[Key, ...] = (("DE", "inf"), ("DE", "tank"), ("DE", "art"), ("UK", "inf"),
                         ("UK", "tank"), ("UK", "art"), ("US", "inf"), ("US", "art"),
                         ("1AB", "inf"), ("82", "inf"), ("101", "art"), ("PL", "inf"))
"""Figures of every kind and of both sides, for the mangled positions and the reserves."""
STEPS = ("3.1-german", "3.1-allied", "3.2", "3.3")


def _actions_long_way(state: AState) -> list[Command]:
    """``explosives.actions`` bridge by bridge, each bridge's crates by ``under``."""
    ex = state.explosives
    phase = state.phase
    out: list[Command] = []
    if phase in ("3.1-german", "3.1-allied", "3.2"):
        side = explosives.actor(state)
        for bridge in BOARD.bridges:
            if bridge in state.destroyed or not explosives.at_bridge(BOARD, state, bridge, side):
                continue
            for place, crate in enumerate(ex.under(bridge), 1):
                if not crate.tried:
                    cls = Detonate if phase == "3.2" else Defuse
                    out.append(cls(bridge, place))
    elif phase == "3.3" and ex.stock:
        for bridge in BOARD.bridges:
            if explosives.at_bridge(BOARD, state, bridge, GERMAN) and explosives._rig_allowed(
                    BOARD, state, bridge, None) is None:
                out.append(Rig(bridge))
    return out


def _counts_text_long_way(counts: dict[Key, int]) -> str:
    return ", ".join(f"{n} {key_text(k)}" for k, n in sorted(counts.items(),
                                                           key=lambda kv: key_order(kv[0])))


def _eliminated_long_way(state: AState) -> str | None:
    if state.phase in ("setup-german", "setup-allied", "over"):
        return None
    present = {side for counts in state.units.values() for (group, _), n in counts.items()
               if n for side in (ALLIED if group != "DE" else GERMAN,)}
    if len(present) == 2:
        return None
    left = victory.in_play(state)
    return next((side for side in (ALLIED, GERMAN) if not left[side]), None)


def _starts_long_way(state: AState) -> list[Any]:
    """``bailey.starts`` as it was written first: every sector of the map holding figures,
    each border's crews sorted out again."""
    out: list[Any] = []
    if len(state.baileys) >= bailey.TOKENS or bailey.free_squares(state) < min(
            bailey.CREW.values()):
        return out
    for sector in [s for s in BOARD.order if s in state.units]:
        here = state.units[sector]
        if bailey._german_at(state, sector):
            continue
        for across in BOARD.neighbours[sector]:
            link = BOARD.links[sector][across]
            if link.kind == "plain" or bailey.site_problem(BOARD, state, sector, across):
                continue
            size = bailey.SIZE_OF_BORDER[link.kind]
            need = bailey.CREW[size]
            if bailey.free_squares(state) < need:
                continue
            for nation in sorted({NATIONALITY[g] for g, _ in here
                                  if bailey.may_crew(state, g)}):
                keys = sorted((k for k in here if NATIONALITY[k[0]] == nation
                               and bailey.may_crew(state, k[0])), key=key_order)
                crew: list[tuple[Key, int]] = []
                left = need
                for key in keys:
                    take = min(left, here[key])
                    if take:
                        crew.append((key, take))
                        left -= take
                if not left:
                    out.append(StartBailey(size, tuple(crew), sector, across))
    return out


def _held(state: AState) -> dict[str, frozenset[str]]:
    """Side -> the sectors holding its figures (``friends`` not 0), every sector looked at."""
    return {side: frozenset(sector for sector in state.units
                            if friends(state, sector, side)) for side in (ALLIED, GERMAN)}


def _disputed_held(state: AState) -> list[str]:
    """``combat.disputed`` the long way: the sectors both sides hold, in map order."""
    held = _held(state)
    both = held[ALLIED] & held[GERMAN]
    return [s for s in BOARD.order if s in both]


def _can_fire_held(state: AState, side: str, player: str | None) -> bool:
    """``barrage._can_fire`` the long way: some ready battery has an enemy-held sector within
    range."""
    enemy = _held(state)[GERMAN if side == ALLIED else ALLIED]
    return any(not enemy.isdisjoint(BOARD.around(sector, barrage.RANGE))
               for sector, _ in barrage._ready(BOARD, state, side, player))


def _differences(state: AState) -> list[str]:
    """Every short way at ``state`` against its long way (``state`` is not changed)."""
    at = f"round {state.round} phase {state.phase}"
    out = []
    if combat.disputed(BOARD, state) != _disputed_held(state):
        out.append(f"disputed at {at}")
    for side, player in ((ALLIED, None), (GERMAN, None), (ALLIED, "uk"), (ALLIED, "us"),
                         (GERMAN, GERMAN)):
        long = _can_fire_held(state, side, player)
        kept = barrage._can_fire(BOARD, state, side, player)
        barrage._keep_fire(None)
        fresh = barrage._can_fire(BOARD, state, side, player)
        if not long == kept == fresh == bool(barrage.options(BOARD, state, side, player)):
            out.append(f"can fire {side}/{player} at {at}: {long} {kept} {fresh}")
    for step in STEPS:
        twin = state.copy()
        twin.phase = step
        want = _actions_long_way(twin)
        if explosives.actions(BOARD, twin) != want \
                or (next(explosives._actions(BOARD, twin), None) is None) != (not want):
            out.append(f"explosives {step} at {at}")
    for above in (0, 1):
        twin = state.copy()
        twin.arriving, twin.above_rhine = [("DE", "inf")], above
        room = bool(reserves.flag_sectors(BOARD, twin, above > 0))
        reserves.stuck_german(BOARD, twin, [])
        if (twin.arriving == []) == room:
            out.append(f"stuck german above={above} at {at}")
    twin = state.copy()
    twin.arriving = list(KEYS[3:])
    stuck = [k for k in twin.arriving if not reserves.entries(BOARD, twin, k)]
    reserves.stuck_allied(BOARD, twin, [])
    if [k for k in KEYS[3:] if k not in twin.arriving] != stuck:
        out.append(f"stuck allied at {at}")
    if bailey.starts(BOARD, state) != _starts_long_way(state):
        out.append(f"bailey starts at {at}")
    for here, links in BOARD.links.items():
        for there in links:
            want_bridge = next((b for b in state.baileys if {b.a, b.b} == {here, there} and not (
                state.bridge_hits and bailey.wrecked(state, b))), None)
            if bailey.bailey_between(state, here, there) is not want_bridge:
                out.append(f"bailey between {here} {there} at {at}")
    for counts in state.units.values():
        for key, n in counts.items():
            if fire.counts_text({key: n}) != _counts_text_long_way({key: n}):
                out.append(f"counts text {key} at {at}")
        if fire.counts_text(dict(counts)) != _counts_text_long_way(dict(counts)):
            out.append(f"counts text {dict(counts)} at {at}")
    if state.phase == "setup-allied":
        options = legal(BOARD, state)
        want_forced = options[0] if len(options) == 1 and not isinstance(options[0], Deploy) \
            else None
        if ENGINE.forced(state) != want_forced:
            out.append(f"forced at {at}")
    want_side = _eliminated_long_way(state)
    kept_side = victory.eliminated_side(state)
    victory._keep_witnesses(("", ""))
    if not want_side == kept_side == victory.eliminated_side(state):
        out.append(f"eliminated side at {at}")
    return out


def _mangled(state: AState, rng: random.Random) -> AState:
    """A copy of ``state`` with figures taken away and put in at random, a Bailey bridge
    laid, a battery marked as fired."""
    twin = state.copy()
    for _ in range(rng.randrange(1, 6)):
        sectors = sorted(twin.units)
        if sectors and rng.random() < 0.5:
            sector = rng.choice(sectors)
            here = twin.units[sector]
            if here:
                key = rng.choice(sorted(here))
                twin.remove(sector, key, rng.randint(1, here[key]))
        else:
            twin.add(rng.choice(BOARD.order), rng.choice(KEYS), rng.randint(1, 3))
    if rng.random() < 0.3:
        start = rng.choice(BOARD.order)
        for there, link in BOARD.links[start].items():
            if link.kind != "plain":
                twin.baileys = [*twin.baileys, Bailey(f"Bailey-{len(twin.baileys) + 1}", start,
                                                      there, "small", rng.choice((0, 4)), 1)]
                break
    if rng.random() < 0.3:  # flag sectors and start sectors full, some or all of them
        every = rng.random() < 0.5
        for sector, key in [*((s, ("DE", "inf")) for s in sorted(BOARD.flags)),
                            *((s, ("UK", "inf")) for s in BOARD.start_sectors)]:
            if every or rng.random() < 0.5:
                twin.add(sector, key, max(0, BOARD.max_per_side - friends(
                    twin, sector, ALLIED if key[0] != "DE" else GERMAN)))
    if rng.random() < 0.3 and twin.units:
        twin.barrage_fired = [*twin.barrage_fired, rng.choice(sorted(twin.units))]
    if rng.random() < 0.2:  # one side gone from the map, and often nothing left to come
        gone = rng.random() < 0.5
        for sector in sorted(twin.units):
            for key in sorted(twin.units.get(sector) or {}):
                if (key[0] == "DE") == gone:
                    twin.remove(sector, key, twin.units[sector][key])
        if rng.random() < 0.5:
            twin.pool, twin.track, twin.waiting, twin.arriving = Counter(), [], Counter(), []
    return twin


class _Positions:
    """Wraps the engine's ``apply``: every position after a command, checked with its
    mangled copies; and ``report.judge_after``'s kept holders against ``holders``."""

    def __init__(self) -> None:
        self.apply = ENGINE.apply
        self.rng = random.Random("fast paths")
        self.positions = 0
        self.differ: list[str] = []

    def __call__(self, state: AState, command: Any, dice: Any) -> Any:
        events = self.apply(state, command, dice)
        self.positions += 1
        self.differ += _differences(state)
        settled = report._settled
        if settled is not None and settled[1] == tuple(map(
                state.units.get, victory.end_sectors(BOARD))) and settled[2] == state.control \
                and settled[3] != report.holders(BOARD, state):
            self.differ.append(f"holders kept at round {state.round} phase {state.phase}")
        if self.positions % 7 == 0:
            self.differ += _differences(_mangled(state, self.rng))
        return events


def _bundled() -> Iterator[Any]:
    for path in sorted(LOGS.glob("*.log")):
        yield parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE)


def test_the_short_ways_at_every_position_of_the_bundled_logs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    positions = _Positions()
    monkeypatch.setattr(ENGINE, "apply", positions)
    for log in _bundled():
        replay(log, ENGINE)
    assert positions.positions > 1500
    assert positions.differ == []


@pytest.mark.parametrize("options", [{}, {"three-players": "on"},
                                     {"bridge-damage": "on", "nijmegen-bridge-order": "on"}])
def test_the_short_ways_at_every_position_of_self_played_games(
        monkeypatch: pytest.MonkeyPatch, options: dict[str, str]) -> None:
    positions = _Positions()
    monkeypatch.setattr(ENGINE, "apply", positions)
    play_random(("fast-1", "fast-2"), options)
    assert positions.positions > 1000
    assert positions.differ == []


def test_the_mangled_positions_reach_the_cases_that_matter(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The mangled positions of the bundled logs hold disputed sectors, batteries that may
    and may not fire, open Bailey bridges, crews for a Bailey bridge, an eliminated side and
    a full start sector: the comparisons above are not all of empty answers."""
    rng = random.Random("reach")
    seen: set[str] = set()
    states: list[AState] = []

    def keep(state: AState, command: Any, dice: Any) -> Any:
        events = apply(state, command, dice)
        states.append(_mangled(state, rng))
        return events

    apply = ENGINE.apply
    monkeypatch.setattr(ENGINE, "apply", keep)
    for log in _bundled():
        replay(log, ENGINE)
    for state in states:
        if combat.disputed(BOARD, state):
            seen.add("disputed")
        for side in (ALLIED, GERMAN):
            seen.add(f"fire {barrage._can_fire(BOARD, state, side, None)}")
        if any(b.points == 0 for b in state.baileys):
            seen.add("open bailey")
        if bailey.starts(BOARD, state):
            seen.add("crew")
        if victory.eliminated_side(state) is not None:
            seen.add("eliminated")
        if not reserves.entries(BOARD, state, ("US", "inf")):
            seen.add("no entry")
        if not reserves.flag_sectors(BOARD, state, False):
            seen.add("no flag sector")
        if any(NATIONALITY[g] == "US" for counts in state.units.values() for g, _ in counts):
            seen.add("us")
    assert seen >= {"disputed", "fire True", "fire False", "open bailey", "crew",
                    "eliminated", "us", "no entry", "no flag sector"}
