"""Answers kept instead of worked out again (issue 31), checked against the long way.

``victory.bridge_sides`` keeps its last answer with the figures at the bridges' ends it came
from, and gives it again while the ends hold the same figures: at every position of the
bundled logs and of self-played games (and after figures changed in place in a plain
``Counter``, which the referee never does but a test may) it must equal ``sides_at`` of each
bridge, asked one by one.  The counts of figures that moved this phase (``AState.moved``) are
shared between copies of the state, so a move on a copy must leave the original as it was."""

from __future__ import annotations

import copy
import random
from collections import Counter
from pathlib import Path

from referee.core.dice import DiceStream
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.core.selfplay import StreamDice
from referee.games.arnhem44 import barrage, report, supply, victory
from referee.games.arnhem44.copying import Figures
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.figures import put, take
from referee.games.arnhem44.options import player_of
from referee.games.arnhem44.presence import enemies
from referee.games.arnhem44.state import AState

LOGS = Path(__file__).resolve().parents[3] / "logs" / "arnhem44"
BOARD = ENGINE.board


def _long_way(state: AState) -> list[tuple[str, bool, bool]]:
    return [(bridge, *victory.sides_at(BOARD, state, bridge)) for bridge in BOARD.bridges]


def _self_played(seed: str, commands: int) -> list[AState]:
    """A copy of the state after each of ``commands`` random commands of a game."""
    return _self_played_from(ENGINE.setup(None, {}), seed, commands)


def test_bridge_sides_equal_the_long_way_at_every_position() -> None:
    positions = _self_played("kept-1", 700) + _self_played("kept-2", 700)
    for path in sorted(LOGS.glob("*.log")):
        log = parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE)
        positions.append(replay(log, ENGINE).state)
    assert len(positions) > 1000
    changed = 0
    for state in positions:
        before = victory.bridge_sides(BOARD, state)
        assert list(before) == _long_way(state)
        assert victory.bridge_sides(BOARD, state) == before  # the kept answer, asked again
        # Each bridge's ends emptied in turn, and filled with the other side's figures: the
        # kept answer must follow.
        for bridge in list(BOARD.bridges.values())[::3]:
            twin = state.copy()
            for end in (bridge.a, bridge.b):
                for key, n in list(twin.units.get(end, {}).items()):
                    twin.remove(end, key, n)
            assert list(victory.bridge_sides(BOARD, twin)) == _long_way(twin)
            twin.add(bridge.a, ("DE", "inf"))
            twin.add(bridge.b, ("UK", "inf"))
            assert list(victory.bridge_sides(BOARD, twin)) == _long_way(twin)
            changed += twin.units != state.units
    assert changed > 100


def test_bridge_sides_follow_a_plain_counter_changed_in_place() -> None:
    """A plain ``Counter`` at a bridge's end (a test's, never the referee's) may change in
    place: the answer is not kept from it."""
    state = ENGINE.setup(None, {})
    bridge = next(iter(BOARD.bridges.values()))
    here: Counter[tuple[str, str]] = Counter({("DE", "inf"): 1})
    state.units[bridge.a] = here
    state.units.pop(bridge.b, None)
    assert list(victory.bridge_sides(BOARD, state)) == _long_way(state)
    here[("UK", "inf")] = 2
    assert list(victory.bridge_sides(BOARD, state)) == _long_way(state)
    del here[("DE", "inf")]
    assert list(victory.bridge_sides(BOARD, state)) == _long_way(state)
    assert victory.bridge_sides(BOARD, state)[0][1:] == (False, True)


def test_moved_figures_are_shared_and_never_changed_in_place() -> None:
    """A move on a copy (``figures.take``/``put``) leaves the original's moved counts."""
    states = [s for s in _self_played("kept-3", 700) if any(s.moved.values())]
    assert len(states) > 20
    for state in states[::5]:
        before = copy.deepcopy(state)
        twin = state.copy()
        sector, counts = next((s, c) for s, c in state.moved.items() if c)
        assert type(counts) is Figures and twin.moved[sector] is counts
        g, k, mp = next(iter(counts))
        take(twin, sector, (g, k), 1, BOARD)
        put(twin, sector, (g, k), mp + 1)
        put(twin, "Grave", ("US", "art"), 3)
        assert state == before
        assert twin.moved != state.moved
        assert all(type(c) is Figures for c in twin.moved.values())


def _contact_the_long_way(state: AState) -> tuple[list[str], set[str]]:
    kept = supply._quiet
    supply._keep_quiet(None)  # type: ignore[arg-type]  # no look kept: the whole scan
    twin = state.copy()
    events = [event.text for event in supply.update_contact(twin)]
    supply._keep_quiet(kept)  # type: ignore[arg-type]  # the look kept before, as it was
    return events, twin.contact


def test_contact_with_garden_equals_the_long_way_at_every_position() -> None:
    """``supply.update_contact`` keeps its last look that found no contact: in a game's
    positions one after another (most keep the look), with the contacts made so far and with
    none made yet (so that contacts are found), it answers as a look without it."""
    found = kept = 0
    for state in _self_played("kept-4", 700) + _self_played("kept-5", 700):
        joined = state.copy()  # GARDEN joins the first airborne figures on the map
        joined.contact = set()
        airborne = [s for s, c in joined.units.items()
                    if any(g in joined.hq for g, _ in c) and not any(g == "DE" for g, _ in c)]
        if airborne:
            joined.add(airborne[0], ("UK", "tank"))
        cleared = state.copy()
        cleared.contact = set()
        # The same figures, and the groups there in contact already: nothing found, then
        # found once they wait again (the groups waiting are part of the look kept).
        others = joined.copy()
        others.contact = {g for g, _ in others.units[airborne[0]]} if airborne else set()
        for position in (state, cleared, others, joined):
            want = _contact_the_long_way(position)
            kept += supply._quiet is not None  # the last position's look
            twin = position.copy()
            assert ([event.text for event in supply.update_contact(twin)], twin.contact) == want
            twin = position.copy()  # asked again: the look kept, when it found nothing
            assert ([event.text for event in supply.update_contact(twin)], twin.contact) == want
            found += bool(want[0])
    assert found > 100 and kept > 100


def test_contact_by_the_sectors_written_equals_the_long_way() -> None:
    """The look kept with the journal of the sectors written (``sectors.Sectors``): a state
    changed figure by figure (moved, removed, GARDEN added, a sector emptied), asked after every
    change, answers as a look at every sector, and the journal is what answers most."""
    rng = random.Random(31)
    found = by_journal = 0
    for start in _self_played("kept-6", 700)[100::40]:
        state = start.copy()
        state.contact = set()  # every group with an HQ card waits: contacts to find
        for _ in range(30):
            sectors = list(state.units)
            sector = rng.choice(sectors)
            key = rng.choice(list(state.units[sector]))
            state.remove(sector, key)
            state.add(rng.choice(sectors), key)
            if rng.random() < 0.15:
                state.add(rng.choice(sectors), ("UK", "tank"))
            if rng.random() < 0.1:
                emptied = rng.choice(list(state.units))
                for gone, n in list(state.units[emptied].items()):
                    state.remove(emptied, gone, n)
            want = _contact_the_long_way(state)
            kept = supply._quiet
            by_journal += kept is not None and kept[2] is state.units.written  # type: ignore[attr-defined]
            assert ([event.text for event in supply.update_contact(state)], state.contact) == want
            found += bool(want[0])
    assert found > 10 and by_journal > 200


def test_sectors_note_every_write() -> None:
    """``Sectors`` notes each sector written, a copy starts a journal of its own, and a write
    it cannot note sector by sector (``update``, ``pop``, ``clear``) starts a new one; a plain
    count makes the sectors ``plain``; pickled, deep-copied or copied, the figures are the
    same."""
    import pickle

    from referee.games.arnhem44.sectors import Sectors

    state = ENGINE.setup(None, {})
    units = state.units
    assert type(units) is Sectors and not units.plain
    journal = units.written
    state.add("Arnhem", ("DE", "inf"), 2)
    state.remove("Arnhem", ("DE", "inf"), 2)
    assert units.written is journal and journal[-2:] == ["Arnhem", "Arnhem"]
    twin = state.copy()
    assert type(twin.units) is dict and twin.units == units  # no journal until written
    twin.add("Arnhem", ("DE", "inf"))
    assert type(twin.units) is Sectors and twin.units.written == ["Arnhem"]
    assert units.written is journal and "Arnhem" not in units
    for back in (pickle.loads(pickle.dumps(units)), copy.deepcopy(units)):
        assert type(back) is Sectors and back == units and back.written == []
    for write in (lambda: units.update({}), lambda: units.pop("Nowhere", None),
                  lambda: units.setdefault("Arnhem", Figures()), units.clear):
        seen = units.written
        write()
        assert units.written is not seen or units.written[-1:] == ["Arnhem"]
    units["Grave"] = Counter({("DE", "inf"): 1})
    assert units.plain


def test_contact_follows_a_plain_counter_changed_in_place() -> None:
    state = _self_played("kept-4", 120)[-1]
    waiting = [group for group in state.hq if group not in state.contact]
    assert waiting
    here: Counter[tuple[str, str]] = Counter({(waiting[0], "inf"): 1})
    state.units["Grave"] = here
    assert supply.update_contact(state.copy()) == []
    here[("UK", "tank")] = 1  # GARDEN joins them, in place
    assert len(supply.update_contact(state.copy())) == 1


def _phase_one(seed: str) -> list[AState]:
    return [s for s in _self_played(seed, 700) if s.phase == "1"]


def test_batteries_and_the_forced_barrage_command_equal_the_long_way() -> None:
    """Phase 1 (barrage fire): the batteries found from each sector's kept artillery
    (``barrage.artillery``) are those of every sector's figures read key by key, and
    ``barrage.forced`` is ``legal()``'s one command when it has one (None otherwise), at
    every phase-1 position of self-played games, two- and three-player."""
    positions = _phase_one("kept-6") + _phase_one("kept-7")
    three = ENGINE.setup(None, {"three-players": "on"})
    positions += [s for s in _self_played_from(three, "kept-8", 700) if s.phase == "1"]
    assert len(positions) > 60
    forced = several = 0
    for state in positions:
        for side in ("allied", "german"):
            for player in (None, "uk", "us"):
                assert barrage.batteries(BOARD, state, side, player) == \
                    _batteries_long_way(state, side, player)
        options = barrage.legal(BOARD, state)
        want = options[0] if len(options) == 1 else None
        assert ENGINE.forced(state) == want
        forced += want is not None
        several += want is None
    assert forced > 10 and several > 10


def _batteries_long_way(state: AState, side: str,
                        player: str | None) -> dict[str, Counter[tuple[str, str]]]:
    own = player if player in ("uk", "us") else None
    german = side == "german"
    out: dict[str, Counter[tuple[str, str]]] = {}
    for sector in sorted((s for s in state.units if s in BOARD.rank), key=BOARD.rank.__getitem__):
        here = state.units[sector]
        art = {k: n for k, n in here.items() if k[1] == "art" and (k[0] == "DE") == german
               and (own is None or player_of(k[0]) == own)}
        if art and sector not in state.barrage_fired and not enemies(state, sector, side):
            out[sector] = Counter(art)
    return out


def _self_played_from(state: AState, seed: str, commands: int) -> list[AState]:
    """A copy of the state after each of ``commands`` random commands played from ``state``."""
    rng = random.Random(seed)
    dice = StreamDice(DiceStream(seed), keep_rolls=False)
    out = []
    for _ in range(commands):
        if ENGINE.to_act(state) is None:
            break
        ENGINE.apply(state, ENGINE.random_command(state, rng), dice)
        out.append(state.copy())
    return out


def _map_the_long_way(state: AState) -> tuple[list[str], dict[tuple[str, str], int]]:
    """The sectors' problems and the figures on the map per key, sector by sector."""
    problems: list[str] = []
    on_map: dict[tuple[str, str], int] = {}
    for sid, counts in state.units.items():
        per_side = {"german": 0, "allied": 0}
        for key, v in counts.items():
            per_side["german" if key[0] == "DE" else "allied"] += v
            on_map[key] = on_map.get(key, 0) + v
        if max(per_side.values()) > BOARD.max_per_side or min(counts.values()) <= 0 \
                or sid not in BOARD.rank:
            problems += report._sector_problems(BOARD, sid, counts)
    return problems, on_map


def test_the_map_s_figures_in_the_invariants_equal_the_long_way() -> None:
    """``report._map_figures`` keeps its last answer while every sector holds the same
    figures: in a game's positions one after another, and in positions broken on purpose (a
    sector over 9 units, figures gone, a sector the board does not know), it answers as
    the sectors read one by one, and the invariants say what is broken."""
    seen = broken = 0
    for state in _self_played("kept-9", 700) + _self_played("kept-10", 700):
        over = state.copy()
        sector = next(iter(over.units))
        over.add(sector, ("DE", "inf"), 10)
        gone = state.copy()
        gone.remove(sector, next(iter(gone.units[sector])))
        unknown = state.copy()
        unknown.add("Atlantis", ("UK", "inf"))
        for position in (state, state.copy(), over, gone, unknown, state):
            problems, on_map = report._map_figures(BOARD, position.units)
            want_problems, want_on_map = _map_the_long_way(position)
            assert (list(problems), {k: v for k, v in on_map.items() if v}) == \
                (want_problems, {k: v for k, v in want_on_map.items() if v})
            said = report.invariants(BOARD, position)
            seen += 1
            if position is not state:
                broken += bool(said)
                assert bool(said) == (position is not state and position.units != state.units)
    assert seen > 5000 and broken > 3000


def test_the_map_s_figures_follow_a_plain_counter_changed_in_place() -> None:
    state = _self_played("kept-9", 100)[-1]
    here: Counter[tuple[str, str]] = Counter({("DE", "inf"): 1})
    state.units["Grave"] = here
    first = report.invariants(BOARD, state)
    here[("DE", "inf")] = 12  # in place: over 9, and figures out of nowhere
    later = report.invariants(BOARD, state)
    assert later != first and any("12 german units" in p for p in later)


def test_figures_hold_no_zero_and_compare_as_counters() -> None:
    """A sector's ``Figures`` never holds a count of 0 (``copying.changed``), so comparing two
    as dicts (in C, ``Figures.__eq__``) answers what ``Counter`` equality answers (a missing
    key counts 0) on every pair of sectors of self-played positions, and after counts taken to
    0 by ``remove`` and by ``changed`` from a plain count holding a 0."""
    from referee.games.arnhem44.copying import changed

    state = ENGINE.setup(None, {})
    sector, key = "Arnhem", ("DE", "inf")
    state.add(sector, key, 2)
    state.add(sector, ("DE", "art"), 1)
    state.remove(sector, key, 2)
    assert key not in state.units[sector]
    plain = Counter({key: 0, ("DE", "art"): 1})
    made = changed(plain, ("DE", "pz"), 0)
    assert dict(made) == {("DE", "art"): 1}
    assert made == state.units[sector]
    assert (made != state.units[sector]) is False
    seen: list[Figures] = []
    for position in _self_played("figures-equal", 150)[::10]:
        seen += [c for c in position.units.values() if type(c) is Figures]
        seen += [c for c in position.moved.values() if type(c) is Figures]
    assert len(seen) > 50
    for counts in seen:
        assert 0 not in counts.values()
    for a, b in zip(seen, seen[1:] + seen[:1], strict=True):
        assert (a == b) == Counter.__eq__(a, b) and (a != b) == Counter.__ne__(a, b)
