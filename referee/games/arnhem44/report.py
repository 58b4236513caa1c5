"""The JSON view of an Arnhem '44 state and its invariants."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from operator import is_
from typing import Any

from referee.core.engine import Event
from referee.games.arnhem44 import damage, jokers
from referee.games.arnhem44.board import (
    AIRBORNE_GROUPS,
    ALLIED,
    GERMAN,
    NATIONALITY,
    SIDES,
    Board,
    Key,
    key_order,
    key_text,
    side_of,
)
from referee.games.arnhem44.checks import game_invariants
from referee.games.arnhem44.copying import Figures
from referee.games.arnhem44.explosives import explosives_json
from referee.games.arnhem44.presence import NO_FIGURES
from referee.games.arnhem44.sectors import journal_of, written_since
from referee.games.arnhem44.state import AState
from referee.games.arnhem44.supply import token_count, tokens_conserved
from referee.games.arnhem44.tally import MapFigures, map_figures, sector_problems
from referee.games.arnhem44.victory import (
    bridge_sides,
    destroyed,
    end_sectors,
    end_set,
    holder,
    points_json,
)


def figures_json(counts: Counter[Key] | dict[Key, int]) -> dict[str, Any]:
    """{side: {group: {kind: n}}} with stable key order."""
    out: dict[str, Any] = {}
    for key in sorted(counts, key=lambda k: (SIDES.index(side_of(k[0])), key_order(k))):
        n = counts[key]
        if not n:
            continue
        group, kind = key
        out.setdefault(side_of(group), {}).setdefault(group, {})[kind] = n
    return out


@cache
def totals(board: Board) -> Counter[Key]:
    """Every figure the scenario brings into play (set-up, reserves, landings)."""
    f = board.scenario.forces
    total: Counter[Key] = Counter()
    for pool in f.allied_setup:
        total[(pool.group, pool.kind)] += pool.count
    for icon in f.reserve_icons:
        kind, _, group = icon.partition("/")
        total[(group, kind)] += 1
    for entry in f.german_setup:
        for kind, n in entry.units.items():
            total[("DE", kind)] += n
    for reserve in f.german_reserves:
        for kind, n in reserve.units.items():
            total[("DE", kind)] += n
    for landing in f.airborne:
        for kind_name, n in landing.units.items():
            total[(landing.group, kind_name)] += n
    return total


def bridge_json(board: Board, state: AState) -> list[dict[str, Any]]:
    """The bridges of the map; with bridge damage (Veterans/4) their hit points left too."""
    out = [{"id": b.id, "name": b.name, "kind": b.kind, "value": b.value,
            "state": "destroyed" if b.id in state.destroyed else "intact",
            "between": [b.a, b.b], "control": holder(board, state, b.id),
            "owner": state.control.get(b.id)}
           for b in board.bridges.values()]
    if damage.active(state):
        for entry, b in zip(out, board.bridges.values(), strict=True):
            entry["hit_points"] = (0 if b.id in state.destroyed
                                   else damage.left(board, state, b.id))
    return out


def bailey_json(board: Board, state: AState) -> list[dict[str, Any]]:
    """The Bailey bridges; with bridge damage (Veterans/4) the hit points of the open ones."""
    out: list[dict[str, Any]] = []
    for b in state.baileys:
        entry: dict[str, Any] = {"id": b.id, "size": b.size, "between": [b.a, b.b],
                                 "points": b.points, "open": b.points == 0,
                                 "started": b.started}
        if damage.active(state):
            entry["hit_points"] = damage.left(board, state, b.id)
            entry["open"] = entry["open"] and entry["hit_points"] > 0
        out.append(entry)
    return out


def state_json(board: Board, state: AState, to_act: str | None) -> dict[str, Any]:
    sectors = []
    for sid in board.order:
        counts = state.units.get(sid)
        if not counts:
            continue
        units = figures_json(counts)
        sectors.append({
            "id": sid, "type": board.type[sid], "numbers": list(board.numbers[sid]),
            "units": units, "disputed": len(units) == 2,
        })
    return {
        "game": "arnhem44",
        "round": state.round,
        "turn": state.round,
        "half": "night" if state.night else "day",
        "night": state.night,
        "weather": state.weather,
        "phase": state.phase,
        "to_act": to_act,
        "sectors": sectors,
        "bridges": bridge_json(board, state),
        "victory": points_json(board, state),
        "options": sorted(state.options),
        "nijmegen_reached": state.nijmegen_reached,
        "part": state.part,
        "tracks": {
            "reserve": [key_text(k) for k in state.track],
            "engineer": [key_text(k) for k in state.engineers],
            "setup_pool": figures_json(state.pool),
            "icons_used": state.icons_used,
        },
        "waiting": figures_json(state.waiting),
        "arriving": [key_text(k) for k in state.arriving],
        "above_rhine": state.above_rhine,
        "held_back": {"above_rhine": figures_json(state.held_above),
                      "free": figures_json(state.held_free)},
        "eliminated": figures_json(state.eliminated),
        "movement": {
            "moved": {s: {f"{key_text((g, k))} mp {mp}": n for (g, k, mp), n in sorted(c.items())}
                      for s, c in sorted(state.moved.items()) if c},
            "intruded": dict(sorted(state.intruded.items())),
            "fallen_back": dict(sorted(state.fallen_back.items())),
            "fall_back": None if state.fallback is None else {
                "from": state.fallback.start, "to": state.fallback.dest,
                "spotted": [key_text(k) for k in state.fallback.spotted],
                "unseen": [key_text(k) for k in state.fallback.unseen]},
        },
        "combat": {
            "sectors": list(state.combats),
            "withdrawals": [{"sector": w.sector, "figure": key_text(w.key), "count": w.count}
                            for w in state.withdrawals],
            "first": state.first,
            "strongest": state.strongest,
        },
        "barrage": {"turn": state.barrage_turn, "fired": list(state.barrage_fired),
                    "over": list(state.barrage_over)},
        "jokers": {"off": jokers.off(state),
                   "held": {side: 0 if jokers.off(state) else state.jokers.get(side, 0)
                            for side in jokers.holders(state)},
                   "move_sector": state.joker_sector},
        "baileys": bailey_json(board, state),
        "ferries": [{"id": f, "between": list(ends), "status": state.ferries.get(f, "active")}
                    for f, ends in board.ferries.items()],
        "contact": sorted(state.contact),
        "nationalities": sorted({NATIONALITY[g] for c in state.units.values() for g, _ in c}),
        "explosives": explosives_json(board, state),
        "supply": supply_json(board, state),
    }


def supply_json(board: Board, state: AState) -> dict[str, Any]:
    """Block 2: the HQ cards, contact with GARDEN, tokens and what waits (Phases 2.1-2.3)."""
    return {
        "hq": {g: {"tokens": state.hq[g], "status": state.status.get(g, "full"),
                   "contact": g in state.contact}
               for g in AIRBORNE_GROUPS if g in state.hq},
        "contact": sorted(state.contact),
        "tokens": {s: state.tokens[s] for s in board.order if state.tokens.get(s)},
        "dropping": list(state.dropping),
        "token_won": state.token_won,
        "anti_aircraft": [{"sector": s, "figures": [key_text(k) for k in keys]}
                          for s, keys in state.anti_aircraft],
        "count": token_count(state),
    }


def invariants(board: Board, state: AState) -> list[str]:
    """Every invariant of the position (self-play checks them after every command).  The
    figures are counted in one pass: each sector's count per side (at most 9), and every
    figure taken off the scenario's totals, which must come out at zero (conserved).  The
    map's part of it (``tally.map_figures``) is counted again only in the sectors whose figures
    changed since the last count; the figures are conserved as they were while the map's
    totals and the figures off the map are those of the last answer (``_conserved``); moved
    figures are checked again in a sector whose figures or moved figures changed."""
    out: list[str] = []
    problems, on_map = map_figures(board, state.units)
    out += problems
    if not _conserved(board, state, on_map):
        out.append("figures are not conserved: on the map, the set-up pool, R1-R15, later "
                   "arrivals and the eliminated do not add up to the scenario's figures")
    units = state.units
    for sector, moved in state.moved.items():
        here = units.get(sector)
        if here is not None and getattr(moved, FITS, None) is here:
            continue  # these moved figures were found among these figures
        found = _moved_problems(state, sector, moved)
        if found:
            out += found
        elif type(moved) is Figures and type(here) is Figures:
            setattr(moved, FITS, here)
    if state.phase not in ("setup-german", "setup-allied") and state.pool:
        out.append("Allied set-up units left unplaced after set-up")
    held = state.jokers
    if held:
        if min(held.values()) < 0 or sum(held.values()) > 3:
            out.append("jokers held are negative or more than the 3 joker cards")
        if not held.keys() <= set(jokers.holders(state)):
            out.append("jokers held by someone who is not a player of this game")
    if state.control and not board.bridges.keys() >= state.control.keys():
        out.append("control of an unknown bridge")
    out += game_invariants(board, state)
    if not tokens_conserved(board, state):
        out.append(f"supply tokens are not conserved: {token_count(state)} do not add up to "
                   f"the box's {board.scenario.meta.supply_tokens}")
    out += state.explosives.problems()
    out += bailey_invariants(state)
    return out


FITS = "_fits"
"""The attribute of a sector's moved figures (``AState.moved``: a ``Figures``, never changed
in place) that keeps the sector's figures they were last found among (``_moved_problems``
said nothing): while the sector holds those very figures, the answer is the same."""


def _map_figures(board: Board, units: Mapping[str, Mapping[Key, int]]) -> MapFigures:
    """The problems of the sectors' figures (an unknown sector, a count not positive, more
    than 9 units of a side) and the figures on the map per key (``tally.map_figures``)."""
    return map_figures(board, units)


_sector_problems = sector_problems


Parts = tuple[Mapping[Key, int], Mapping[Key, int], Mapping[Key, int], list[Key], list[Key],
              list[Key]]
"""The figures off the map: the set-up pool, the German figures waiting, the eliminated,
R1-R15, the later arrivals and the engineer squares E01-E08."""

_dict_eq: Callable[[Any, Any], Any] = dict.__eq__
"""A plain comparison in C (a Counter's own ``==`` is Python's, and a count of 0 equals none)."""


def _conserved(board: Board, state: AState, on_map: dict[Key, int]) -> bool:
    """Figures conserved: on the map (``on_map``), the set-up pool, R1-R15, later arrivals and
    the eliminated add up to the scenario's figures.  The last answer again while the map's
    totals and every part off the map are equal to those it came from (most commands move
    figures or move none: one comparison of each part, in C)."""
    parts: Parts = (state.pool, state.waiting, state.eliminated, state.track, state.arriving,
                    state.engineers)
    kept = _conservation
    if kept is not None and kept[0] is board and (kept[1] is on_map or _dict_eq(kept[1], on_map)
                                                 is True):
        was = kept[2]
        if _dict_eq(parts[0], was[0]) is True and _dict_eq(parts[1], was[1]) is True \
                and _dict_eq(parts[2], was[2]) is True and parts[3] == was[3] \
                and parts[4] == was[4] and parts[5] == was[5]:
            return kept[3]
    answer = conserved(board, on_map, parts)
    _keep_conservation((board, on_map, (dict(parts[0]), dict(parts[1]), dict(parts[2]),
                                        list(parts[3]), list(parts[4]), list(parts[5])),
                        answer))
    return answer


def conserved(board: Board, on_map: Mapping[Key, int], parts: Parts) -> bool:
    """``_conserved`` the long way: every figure taken off the scenario's totals."""
    left = dict(totals(board))
    get = left.get
    for key, v in on_map.items():
        left[key] = get(key, 0) - v
    for part in parts[:3]:
        for key, v in part.items():
            left[key] = get(key, 0) - v
    for keys in parts[3:]:
        for key in keys:
            left[key] = get(key, 0) - 1
    return not any(left.values())


_conservation: tuple[Board, Mapping[Key, int], Parts, bool] | None = None
"""The last ``_conserved``: the board, the map's totals, copies of the parts off the map, and
the answer (kept whole, never changed)."""


def _keep_conservation(kept: tuple[Board, Mapping[Key, int], Parts, bool]) -> None:
    global _conservation  # one assignment: a reader sees the old or the new answer whole
    _conservation = kept


def _moved_problems(state: AState, sector: str, moved: Counter[tuple[str, str, int]]
                    ) -> list[str]:
    """Figures that moved this phase are figures in the sector: per unit key, the moved ones
    (whatever points they have left) are at most those there, and no count is empty."""
    here = state.units.get(sector, NO_FIGURES)
    per_key: dict[Key, int] = {}
    for (g, k, _), n in moved.items():
        per_key[(g, k)] = per_key.get((g, k), 0) + n
    return [f"moved figures in {sector} exceed the figures there"
            for (g, k, _), n in moved.items() if n <= 0 or here.get((g, k), 0) < per_key[(g, k)]]


def bailey_invariants(state: AState) -> list[str]:
    """Phase 3.4: at most 8 units on E01-E08, 12 Bailey tokens, markers within 0-20."""
    out = []
    if len(state.engineers) > 8:
        out.append("more than 8 units on the engineer squares E01-E08")
    if len(state.baileys) > 12:
        out.append("more than 12 Bailey bridges")
    for bridge in state.baileys:
        if not 0 <= bridge.points <= (20 if bridge.size == "large" else 10):
            out.append(f"{bridge.id} has {bridge.points} construction markers")
    return out


def start_waiting(board: Board) -> Counter[Key]:
    """Figures not in play yet: the German set-up table (until deployed), every airborne
    landing, reserve icon and German reserve."""
    f = board.scenario.forces
    waiting: Counter[Key] = Counter()
    for entry in f.german_setup:
        for kind, n in entry.units.items():
            waiting[("DE", kind)] += n
    for icon in f.reserve_icons:
        icon_kind, _, group = icon.partition("/")
        waiting[(group, icon_kind)] += 1
    for reserve in f.german_reserves:
        for kind, n in reserve.units.items():
            waiting[("DE", kind)] += n
    for landing in f.airborne:
        for kind, n in landing.units.items():
            waiting[(landing.group, kind)] += n
    return waiting



def update_control(board: Board, state: AState,
                   sides: Sequence[tuple[str, bool, bool]] | None = None) -> list[tuple[str, str]]:
    """Waterways: "A player is only in control of a bridge when both sides of the bridge are free
    of enemy troops."  Reading A6: a side with units at the bridge and no enemy at either end
    takes it (becomes its owner, ``state.control``); with troops of both sides there the owner
    stays but controls it no more (``victory.holder``: held by neither, worth nothing); with
    nobody there the owner keeps it.  Returns the bridges that changed owner.  ``sides``:
    ``victory.bridge_sides`` of the state, when the caller has it."""
    changes = []
    control = state.control
    # which sides have units at either end (board.side_of); nobody at the bridge: its control
    # stays as it was
    for bridge, german, allied in sides if sides is not None else bridge_sides(board, state):
        if german != allied:  # one side only
            side = GERMAN if german else ALLIED
            if control.get(bridge) != side:
                control[bridge] = side
                changes.append((bridge, side))
    return changes


def holders(board: Board, state: AState) -> dict[str, str | None]:
    """Who holds each bridge now (``None``: neither side), to compare after a command."""
    owner = state.control.get
    return {bridge: None if german and allied else owner(bridge, GERMAN)
            for bridge, german, allied in bridge_sides(board, state)}


Before = tuple[dict[str, str | None], bool]
"""What the bridges' control is judged from, taken before a command (``before_command``): the
bridges' holders, and whether the position is the one kept settled (``_settled``)."""


def before_command(board: Board, state: AState) -> Before:
    """The bridges' holders (``holders``), taken before a command of play for
    ``judge_after``; the holders kept, when the position is the one kept settled after the
    last command."""
    kept = _settled_now(board, state)
    if kept is not None:
        return kept, True
    return holders(board, state), False


def judge_after(board: Board, before: Before, state: AState) -> list[Event]:
    """``judge_control`` after a command, ``before`` taken by ``before_command``.

    After it, every bridge with one side's troops alone is that side's (``update_control``):
    the position is settled, and it is kept (the very ``Figures`` at the bridges' ends, never
    changed in place, their owners and holders, and the journal of the sectors written,
    ``sectors.Sectors``).  A command that starts and ends in the position kept (most
    commands: a roll, a decision, a move away from the bridges) changes no owner and no
    holder: no event, nothing looked at again (issue 31)."""
    was, settled = before
    if settled and _settled_now(board, state) is was:
        return []
    events, sides = _judged(board, was, state)
    units = state.units
    ends = tuple(map(units.get, end_sectors(board)))
    if set(map(type, ends)) <= _KEEPABLE:  # a test's plain Counter may change in place
        owner = state.control.get  # ``holders``, from the sides just found
        _keep_settled((board, ends, state.control.copy(),
                       {bridge: None if german and allied else owner(bridge, GERMAN)
                        for bridge, german, allied in sides}, *journal_of(units)))
    return events


_KEEPABLE = frozenset({Figures, type(None)})
_Settled = tuple[Board, tuple[Any, ...], dict[str, str], dict[str, str | None],
                 list[str] | None, int]
_settled: _Settled | None = None
"""The last position judged (``judge_after``): the board, the figures at its bridges' ends
(``Figures`` or None, compared by identity), the bridges' owners and their holders, and the
journal of the sectors written then and its length (``Sectors.written``; None: no journal)."""


def _settled_now(board: Board, state: AState) -> dict[str, str | None] | None:
    """The holders kept with the settled position, when the state is in it: the same owners,
    and the very figures at the bridges' ends (no end written since the position was kept,
    by the sectors' journal, else each end's figures compared by identity)."""
    kept = _settled
    if kept is None or kept[0] is not board or state.control != kept[2]:
        return None
    units = state.units
    written = written_since(units, kept[4], kept[5], end_set(board))
    if written is False:
        journal, length = journal_of(units)
        if length != kept[5]:  # kept from here on: the next look reads only what comes after
            _keep_settled((*kept[:4], journal, length))
        return kept[3]
    if written is None:  # no journal to tell: the ends' figures, by identity
        written = not all(map(is_, map(units.get, end_sectors(board)), kept[1]))
    return None if written else kept[3]


def _keep_settled(position: _Settled | None) -> None:
    global _settled  # one assignment: a reader sees the old or the new position whole
    _settled = position


def judge_control(board: Board, was: dict[str, str | None], state: AState) -> list[Event]:
    """After a command of play (``was``: the bridges' holders before it, ``holders``): who
    takes a bridge (``update_control``), and which bridges come to be held by neither side or
    return to their owner (Waterways: "only in control of a bridge when both sides of the
    bridge are free of enemy troops"), each said in the events.  The holders are taken before
    the command because it changes the state itself (``Engine.apply``)."""
    return _judged(board, was, state)[0]


def _judged(board: Board, was: dict[str, str | None], state: AState) -> tuple[
        list[Event], tuple[tuple[str, bool, bool], ...]]:
    """``judge_control``'s events, and ``victory.bridge_sides`` they were judged from."""
    events = []
    taken = set()
    sides = bridge_sides(board, state)  # the command is over: the figures stay as they are
    for bridge, side in update_control(board, state, sides):
        taken.add(bridge)
        events.append(Event("control", f"{side.capitalize()} controls {bridge}",
                            {"bridge": bridge, "control": side}))
    gone = destroyed(state)
    owner = state.control.get
    for bridge, german, allied in sides:  # the standing bridges (victory.standing)
        if bridge in gone:
            continue
        now = None if german and allied else owner(bridge, GERMAN)  # victory.holder
        if bridge in taken or now == was[bridge]:
            continue
        text = (f"{bridge} is held by neither side: troops of both stand at its ends "
                "(Waterways)" if now is None else
                f"{now.capitalize()} controls {bridge} again: both its ends are free of enemy "
                "troops (Waterways)")
        events.append(Event("control", text, {"bridge": bridge, "control": now}))
    return events, sides


__all__ = ["ALLIED", "GERMAN", "before_command", "holders", "invariants", "judge_after",
           "judge_control", "state_json", "update_control"]
