"""Self-play's shortcuts (issue 31) against the long way, at every position of self-played
games played as ``play_game`` plays them (each command applied to the state itself, the
invariants asked after every one) and at positions broken on purpose between them.

* the invariants: the map's figures counted again only where they changed (``tally``), the
  figures conserved, the bridge points and the moved figures given again while what they come
  from is the same, the crates checked in one pass, all against the invariants as they were
  worked out before (``_invariants_long_way``, every part looked at);
* the random policy: the mover's figures kept sector by sector (``policy.movers``), the
  sectors a figure reaches (``legal.reachable`` with ``movement.passage`` and the open Bailey
  borders found once, against the search asking ``movement.crossing`` of every border) and
  ``passage`` with ``bailey.open_borders`` against without, for every border, kind, side and
  first step;
* the German set-up: one more figure fits (``deployment.room_for``, an augmenting path in the
  kept matching) exactly when the long max-flow says it does, at every set-up position and at
  random placements.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from referee.core.dice import DiceStream
from referee.core.errors import IllegalMove
from referee.core.selfplay import StreamDice
from referee.games.arnhem44 import checks, jokers, legal, policy, report, tally
from referee.games.arnhem44.bailey import HIT_POINTS, open_between, open_borders
from referee.games.arnhem44.board import ALLIED, GERMAN, KINDS, SIDES, Board, Key, side_of
from referee.games.arnhem44.copying import changed
from referee.games.arnhem44.crates import MAJOR_LIMIT, Crate, Explosives
from referee.games.arnhem44.damage import problems as damage_problems
from referee.games.arnhem44.deployment import feasible, placed, room_for, table
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.figures import points
from referee.games.arnhem44.movement import crossing, passage
from referee.games.arnhem44.options import player_of
from referee.games.arnhem44.presence import enemies, friends
from referee.games.arnhem44.state import MOVEMENT, SETUP_GERMAN, AState, Bailey
from referee.games.arnhem44.supply import token_count, tokens_conserved

BOARD = ENGINE.board
GAMES = [("short-1", {}), ("short-2", {"three-players": "on"}),
         ("short-3", {"bridge-damage": "on"}), ("short-4", {})]


def _crate_problems_long_way(self: Explosives) -> list[str]:
    """``Explosives.problems`` asked of each count and crate in turn."""
    out = []
    hidden = len(self.hidden())
    if sum(self.unseen.values()) != self.stock + hidden + self.lost:
        out.append(f"explosives: {sum(self.unseen.values())} unseen crate values for "
                   f"{self.stock} in stock, {hidden} face down and {self.lost} lost unseen")
    if self.low_unseen() < self.low_needed():
        out.append("explosives: more face-down crates under major bridges than unseen "
                   "values of 4 or less")
    for crate in self.crates:
        if crate.value is not None and not 0 <= crate.value <= 9:
            out.append(f"explosives: crate {crate.number} has value {crate.value}")
        if crate.major and crate.value is not None and crate.value > MAJOR_LIMIT:
            out.append(f"explosives: crate {crate.number} of {crate.value} under the major "
                       f"{crate.bridge}")
    if any(v < 0 for v in self.unseen.values()) or self.stock < 0 or self.lost < 0:
        out.append("explosives: a negative count")
    numbers = [c.number for c in self.crates]
    if len(set(numbers)) != len(numbers) or any(n > self.numbered for n in numbers):
        out.append("explosives: crate numbers repeat or run ahead of the crates rigged")
    if self.attempt is not None and self.crate(self.attempt.crate) is None:
        out.append("explosives: a roll waits for a crate that is not in place")
    return out


def _feasible_long_way(board: Board, kind: str, where: dict[str, int]) -> bool:
    """``deployment.feasible`` asking every entry of the table for every figure."""
    entries = [(allowed, units.get(kind, 0)) for allowed, units, _ in table(board)]
    held: list[list[tuple[str, int]]] = [[] for _ in entries]  # entry -> its (sector, copy)
    slots = [(s, i) for s, n in sorted(where.items()) for i in range(n)]

    def augment(slot: tuple[str, int], seen: set[int]) -> bool:
        for e, (allowed, cap) in enumerate(entries):
            if cap == 0 or e in seen or slot[0] not in allowed:
                continue
            seen.add(e)
            mine = held[e]
            if len(mine) < cap:
                mine.append(slot)
                return True
            for i, other_slot in enumerate(mine):
                if augment(other_slot, seen):  # moved to another entry (never e: seen)
                    mine[i] = slot
                    return True
        return False

    return all(augment(slot, set()) for slot in slots)


def _live(seed: str, options: dict[str, str]) -> Iterator[AState]:
    """The state itself after each command of a self-played game (as ``play_game`` checks it:
    the same object, changed by every command)."""
    state = ENGINE.setup(None, dict(options))
    rng = random.Random(seed)
    dice = StreamDice(DiceStream(seed), keep_rolls=False)
    while ENGINE.to_act(state) is not None:
        ENGINE.apply(state, ENGINE.random_command(state, rng), dice)
        yield state


# -- the invariants ---------------------------------------------------------------------------

def _map_long_way(state: AState) -> tuple[list[str], dict[Key, int]]:
    """The sectors' problems and the figures on the map per key, sector by sector."""
    problems: list[str] = []
    on_map: dict[Key, int] = {}
    for sid, counts in state.units.items():
        per_side = dict.fromkeys(SIDES, 0)
        for key, v in counts.items():
            per_side[side_of(key[0])] += v
            on_map[key] = on_map.get(key, 0) + v
        if max(per_side.values()) > BOARD.max_per_side or any(v <= 0 for v in counts.values()) \
                or sid not in BOARD.rank:
            problems += tally.sector_problems(BOARD, sid, counts)
    return problems, on_map


def _invariants_long_way(state: AState) -> list[str]:
    """``report.invariants`` as it was worked out before the shortcuts: every sector, every
    figure off the map, every moved figure, bridge and crate looked at."""
    out, on_map = _map_long_way(state)
    parts = (state.pool, state.waiting, state.eliminated, state.track, state.arriving,
             state.engineers)
    if not report.conserved(BOARD, on_map, parts):
        out.append("figures are not conserved: on the map, the set-up pool, R1-R15, later "
                   "arrivals and the eliminated do not add up to the scenario's figures")
    for sector, moved in state.moved.items():
        out += report._moved_problems(state, sector, moved)
    if state.phase not in ("setup-german", "setup-allied") and state.pool:
        out.append("Allied set-up units left unplaced after set-up")
    if any(n < 0 for n in state.jokers.values()) or sum(state.jokers.values()) > 3:
        out.append("jokers held are negative or more than the 3 joker cards")
    if set(state.jokers) - set(jokers.holders(state)):
        out.append("jokers held by someone who is not a player of this game")
    if state.control and not BOARD.bridges.keys() >= state.control.keys():
        out.append("control of an unknown bridge")
    out += (checks.bridge_points_long_way(BOARD, state) + checks.tokens_conserved(state)
            + checks.turn(state) + damage_problems(BOARD, state) + checks.barrage_supply(state))
    if not tokens_conserved(BOARD, state):
        out.append(f"supply tokens are not conserved: {token_count(state)} do not add up to "
                   f"the box's {BOARD.scenario.meta.supply_tokens}")
    out += _crate_problems_long_way(state.explosives)
    out += report.bailey_invariants(state)
    return out


def _sector_of(state: AState, side: str) -> str:
    """A sector holding figures of ``side`` (else any sector holding figures)."""
    return next((s for s, c in state.units.items() if any(side_of(g) == side for g, _ in c)),
                next(iter(state.units)))


def _broken(state: AState, n: int) -> list[AState]:
    """Copies of ``state`` broken in ways each shortcut must see (the n-th position)."""
    out = []
    sector = _sector_of(state, GERMAN if n % 2 else ALLIED)
    key = sorted(state.units[sector])[n % len(state.units[sector])]
    gone = state.copy()
    gone.remove(sector, key)  # conserved no more; a bridge's end may empty
    out.append(gone)
    extra = state.copy()
    extra.add(sector, key, 10)  # over 9 a side, and figures out of nowhere
    out.append(extra)
    swapped = state.copy()  # conserved, not the same figures
    swapped.remove(sector, key)
    swapped.add(sector, (key[0], "tank" if key[1] != "tank" else "inf"))
    out.append(swapped)
    moved_there = state.copy()  # the same map's totals: conserved; the sectors changed
    there = next(iter(BOARD.neighbours[sector]))
    moved_there.remove(sector, key)
    moved_there.add(there, key)
    out.append(moved_there)
    unknown = state.copy()
    unknown.add("Atlantis", key)
    out.append(unknown)
    waiting = state.copy()
    waiting.waiting = Counter(waiting.waiting)
    waiting.waiting[key] += 1
    out.append(waiting)
    if any(state.moved.values()):
        where, moved = next((s, m) for s, m in state.moved.items() if m)
        too_many = state.copy()
        moved_key = next(iter(moved))
        too_many.moved[where] = changed(moved, moved_key, moved[moved_key] + 10)
        out.append(too_many)
        left = state.copy()  # the moved figures stay, the figures under them go
        for figure, count in list(left.units.get(where, {}).items()):
            left.remove(where, figure, count)
        out.append(left)
    if state.control:
        owner = state.copy()
        owner.control = dict(owner.control)
        bridge = sorted(owner.control)[n % len(owner.control)]
        owner.control[bridge] = GERMAN if owner.control[bridge] == ALLIED else ALLIED
        out.append(owner)
        lost = state.copy()
        lost.control = {b: s for b, s in lost.control.items() if b != bridge}
        out.append(lost)
    if state.explosives.crates:
        crates = state.copy()
        crates.explosives = crates.explosives.copy()
        first = crates.explosives.crates[0]
        crates.explosives.crates[0] = Crate(first.number, first.bridge, 9 if n % 2 else None,
                                            major=True)
        out.append(crates)
    return out


@pytest.mark.parametrize(("seed", "options"), GAMES)
def test_the_invariants_equal_the_long_way_at_every_position(
        seed: str, options: dict[str, str]) -> None:
    seen = broken = 0
    for n, state in enumerate(_live(seed, options)):
        assert report.invariants(BOARD, state) == _invariants_long_way(state), n
        problems, on_map = tally.map_figures(BOARD, state.units)
        want, want_on_map = _map_long_way(state)
        assert (list(problems), {k: v for k, v in on_map.items() if v}) == \
            (want, {k: v for k, v in want_on_map.items() if v})
        assert checks.bridge_points(BOARD, state) == checks.bridge_points_long_way(BOARD, state)
        assert state.explosives.problems() == _crate_problems_long_way(state.explosives)
        seen += 1
        if n % 7 == 0 and state.units:
            for twin in _broken(state, n):
                said = report.invariants(BOARD, twin)
                assert said == _invariants_long_way(twin), n
                broken += bool(said)
                assert report.invariants(BOARD, state) == _invariants_long_way(state)
    assert seen > 400 and broken > 300


def test_an_invariant_broken_on_purpose_is_still_reported() -> None:
    """After each command the live state itself is broken (and mended): what the shortcuts
    kept from the sound position must not hide it."""
    caught = 0
    for n, state in enumerate(_live("short-5", {})):
        if n % 5 or not state.units:
            continue
        assert report.invariants(BOARD, state) == []
        sector = _sector_of(state, GERMAN)
        key = sorted(state.units[sector])[0]
        state.add(sector, key, 10)
        said = report.invariants(BOARD, state)
        assert any("not conserved" in p for p in said), said
        assert any(f"{sector} holds" in p for p in said), said
        state.remove(sector, key, 10)
        assert report.invariants(BOARD, state) == []
        state.waiting[key] += 1
        assert any("not conserved" in p for p in report.invariants(BOARD, state))
        state.waiting[key] -= 1
        if not state.waiting[key]:
            del state.waiting[key]
        standing = [b for b in sorted(state.control) if b not in state.destroyed]
        if standing:
            owner = state.control.pop(standing[0])
            said = report.invariants(BOARD, state)
            assert said == _invariants_long_way(state)
            assert any("has no controller" in p for p in said), said
            state.control[standing[0]] = owner
        assert report.invariants(BOARD, state) == []
        caught += 1
    assert caught > 50


# -- the random policy ------------------------------------------------------------------------

def _movers_long_way(state: AState) -> list[tuple[str, Key]]:
    german = state.mover == GERMAN
    out = []
    for sector in sorted(state.units):
        keys = sorted(key for key in state.units[sector] if (key[0] == "DE") is german
                      and (state.part is None or player_of(key[0]) == state.part))
        out += [(sector, key) for key in keys]
    return out


def _reachable_long_way(state: AState, start: str, key: Key, mp: int,
                        fresh: bool) -> dict[str, tuple[str, ...]]:
    """The search as it was: ``presence`` asked of every sector, ``movement.crossing`` of
    every border that is not plain."""
    side = side_of(key[0])
    limit = BOARD.max_per_side
    best: dict[str, tuple[int, tuple[str, ...]]] = {start: (0, (start,))}
    queue: list[tuple[int, tuple[str, ...]]] = [(0, (start,))]
    while queue:
        spent, path = heapq.heappop(queue)
        here = path[-1]
        if best[here][0] < spent:
            continue
        if here != start and friends(state, here, side) >= limit:
            continue
        for there in BOARD.neighbours[here]:
            if enemies(state, there, side):
                continue
            try:
                cost, ends, _ = crossing(BOARD, state, here, there, key[1], side,
                                         len(path) == 1, fresh)
            except IllegalMove:
                continue
            total = spent + cost
            known = best.get(there)
            if total > mp or (known is not None and known[0] <= total):
                continue
            best[there] = (total, (*path, there))
            if not ends:
                heapq.heappush(queue, (total, (*path, there)))
    return {s: p for s, (_, p) in best.items()
            if s != start and friends(state, s, side) < limit}


def _steps_agree(state: AState) -> int:
    """``movement.passage`` answers with the open Bailey borders found once
    (``bailey.open_borders``, as ``legal.reachable`` asks it) as without them (each border's
    Bailey bridges looked at), for every border of the board, kind, side and first step; the
    count of refusals."""
    refused = 0
    opened = open_borders(state)
    for here, around in BOARD.links.items():
        for there, link in around.items():
            for kind in KINDS:
                for side in SIDES:
                    for first, fresh in ((True, True), (True, False), (False, True)):
                        want = passage(state, link, here, there, kind, side, first, fresh)
                        refused += type(want) is not tuple
                        assert passage(state, link, here, there, kind, side, first, fresh,
                                       opened) == want, (here, there, kind, side)
    return refused


@pytest.mark.parametrize(("seed", "options"), GAMES[:3])
def test_the_policy_s_figures_and_moves_equal_the_long_way(
        seed: str, options: dict[str, str]) -> None:
    searched = steps = bridged = 0
    for n, state in enumerate(_live(seed, options)):
        if n % 50 == 0:
            steps += _steps_agree(state)
        opened = open_borders(state)
        assert opened == {(here, there) for here, around in BOARD.links.items()
                          for there in around if open_between(state, here, there)}
        bridged += bool(opened)
        if state.phase not in MOVEMENT or state.fallback is not None:
            continue
        figures = policy.movers(state.units, state.mover == GERMAN, state.part)
        assert figures == _movers_long_way(state)
        assert policy.movers(state.units, state.mover != GERMAN, None) == \
            _movers_long_way_of(state, state.mover != GERMAN)
        for sector, key in figures[n % 3::3]:
            options_ = points(BOARD, state, sector, key)
            if not options_ or not options_[0][0] or enemies(state, sector, state.mover):
                continue
            mp, fresh = options_[0]
            assert legal.reachable(BOARD, state, sector, key, mp, fresh) == \
                _reachable_long_way(state, sector, key, mp, fresh)
            searched += 1
    assert searched > 300 and steps > 1000 and bridged > 50


def test_open_borders_and_steps_follow_wrecked_and_doubled_bailey_bridges() -> None:
    """Across a border, the first Bailey bridge not wrecked decides (``bailey_between``): a
    wrecked one (bridge damage) is passed over, and a second one across the same border is
    looked at only after it."""
    looked = 0
    for n, state in enumerate(_live("short-9", {"bridge-damage": "on"})):
        if not state.baileys or n % 3:
            continue
        for index, bridge in enumerate(state.baileys):
            for points_, hit in ((0, True), (0, False), (bridge.points or 5, True)):
                twin = state.copy()
                twin.bridge_hits = dict(twin.bridge_hits)
                if hit:
                    twin.bridge_hits[bridge.id] = HIT_POINTS  # wrecked
                twin.baileys = list(twin.baileys)
                twin.baileys.insert(index + 1, Bailey(f"X{index}", bridge.b, bridge.a,
                                                      bridge.size, points_, bridge.started))
                opened = open_borders(twin)
                assert opened == {(here, there) for here, around in BOARD.links.items()
                                  for there in around if open_between(twin, here, there)}
                looked += 1
        if looked > 200:
            _steps_agree(state)
            break
    assert looked > 200


def _movers_long_way_of(state: AState, german: bool) -> list[tuple[str, Key]]:
    return [(s, k) for s in sorted(state.units) for k in sorted(state.units[s])
            if (k[0] == "DE") is german]


def test_the_policy_s_figures_follow_a_plain_counter_changed_in_place() -> None:
    state = next(s for s in _live("short-6", {}) if s.phase in MOVEMENT)
    here: Counter[Key] = Counter({("DE", "inf"): 1})
    state.units["Grave"] = here
    first = policy.movers(state.units, True, None)
    here[("DE", "tank")] = 1  # in place
    assert policy.movers(state.units, True, None) == _movers_long_way_of(state, True) != first


# -- the German set-up ------------------------------------------------------------------------

def test_one_more_german_figure_fits_as_the_long_max_flow_says() -> None:
    asked = fits = 0
    for seed in ("short-7", "short-8"):
        for state in _live(seed, {}):
            if state.phase != SETUP_GERMAN:
                break
            for kind in KINDS:
                where = placed(state, kind)
                assert feasible(BOARD, kind, where) == _feasible_long_way(BOARD, kind, where)
                for sector in sorted(legal.deploy_sectors(BOARD, kind)):
                    trial = dict(where)
                    trial[sector] = trial.get(sector, 0) + 1
                    want = _feasible_long_way(BOARD, kind, trial)
                    assert room_for(BOARD, kind, where, sector) == want, (kind, sector, where)
                    assert legal.deployable(BOARD, state, kind, where)(sector) == (
                        want and friends(state, sector, GERMAN) < BOARD.max_per_side)
                    asked += 1
                    fits += want
    rng = random.Random("placements")
    sectors = sorted(set().union(*(legal.deploy_sectors(BOARD, k) for k in KINDS)))
    for _ in range(3000):  # random placements, most of them beyond the table
        kind = rng.choice(KINDS)
        where = {s: rng.randint(1, 3) for s in rng.sample(sectors, rng.randint(0, 8))}
        sector = rng.choice(sectors)
        trial = dict(where)
        trial[sector] = trial.get(sector, 0) + 1
        want = _feasible_long_way(BOARD, kind, trial)
        assert room_for(BOARD, kind, where, sector) == want, (kind, sector, where)
        assert feasible(BOARD, kind, where) == _feasible_long_way(BOARD, kind, where)
        asked += 1
        fits += want
    assert asked > 5000 and 1000 < fits < asked - 1000
