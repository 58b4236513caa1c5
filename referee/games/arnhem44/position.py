"""Positions: ``setup:`` statements that describe a starting position other than the opening,
and the lines that rebuild a state (``referee position``)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from lark import Token, Tree

from referee.core.errors import IllegalMove, NotImplementedRule
from referee.games.arnhem44.bailey_position import (
    bailey_lines,
    bailey_statement,
    check_bailey,
    clear_bailey,
    place_bailey,
)
from referee.games.arnhem44.board import (
    ALLIED,
    GERMAN,
    GERMAN_GROUP,
    SIDES,
    Board,
    Key,
    key_order,
    key_text,
    side_of,
)
from referee.games.arnhem44.commands import Groups, _groups, _sector, groups_text
from referee.games.arnhem44.report import invariants, start_waiting, totals
from referee.games.arnhem44.state import (
    COMBAT,
    MOVEMENT,
    OVER,
    SETUP_ALLIED,
    SETUP_GERMAN,
    AState,
    Withdrawal,
)

PHASES = (SETUP_GERMAN, SETUP_ALLIED, "3.4", "4.1", "4.2", "5.1", "5.2", "6.1", "6.2", "6.3")
RULE = "Positions"


@dataclass(frozen=True)
class Statement:
    kind: str
    groups: Groups = ()
    sector: str = ""
    value: str = ""
    number: int = 0
    extra: tuple[Any, ...] = ()
    """More values of a statement (a Bailey bridge's: the far sector and its numbers)."""


def build_setup(board: Board, tree: Tree[Any]) -> Statement:
    kind = tree.data.removeprefix("setup_")
    ch = tree.children
    if kind == "clear":
        return Statement("clear")
    if kind == "round":
        return Statement("round", number=int(str(ch[0])))
    if kind in ("phase", "weather", "first", "strongest"):
        return Statement(kind, value=str(ch[0]).casefold())
    if kind in ("reserve", "pool", "eliminated", "arriving"):
        return Statement(kind, groups=_groups(board, ch[0]))
    if kind in ("icons", "above_rhine"):
        return Statement(kind, number=int(str(ch[0])))
    if kind in ("place", "withdrawing"):
        return Statement(kind, groups=_groups(board, ch[0]), sector=_sector(board, ch[1]))
    if kind == "moved":
        return Statement(kind, groups=_groups(board, ch[0]), sector=_sector(board, ch[1]),
                         number=int(str(ch[2])))
    if kind == "intruded":
        return Statement(kind, sector=_sector(board, ch[1]), number=int(str(ch[0])))
    if kind == "combat":
        return Statement(kind, sector=_sector(board, ch[0]))
    if kind in ("engineer", "bailey", "ferry", "contact", "bridge", "recalled"):
        return Statement(kind, **bailey_statement(board, kind, tree))
    if kind == "control":
        first = ch[0]
        bridge = board.bridge_names.lookup(
            str(first), column=first.column if isinstance(first, Token) else None)
        return Statement(kind, sector=bridge, value=str(ch[1]).casefold())
    raise AssertionError(kind)


def _keys(groups: Groups) -> list[tuple[Key, int]]:
    out = []
    for (group, kind), n in groups:
        if group == "":
            group = GERMAN_GROUP
        out.append(((group, kind), n))
    return out


def _take_off_board(state: AState, key: Key, n: int) -> None:
    if state.waiting[key] >= n:
        state.waiting[key] -= n
        state.waiting += Counter()
        return
    if state.waiting[key] + state.pool[key] >= n:
        from_pool = n - state.waiting[key]
        state.waiting[key] = 0
        state.pool[key] -= from_pool
        state.waiting += Counter()
        state.pool += Counter()
        return
    raise IllegalMove(RULE, f"the scenario has no {n} more {key_text(key)} off the board")


def place(board: Board, state: AState, st: Statement) -> None:
    kind = st.kind
    if kind == "clear":
        state.units = {}
        state.pool = Counter()
        state.track = []
        state.eliminated = Counter()
        state.waiting = totals(board)
        state.moved = {}
        state.intruded = {}
        state.combats = []
        state.withdrawals = []
        state.arriving = []
        state.above_rhine = 0
        state.icons_used = 0
        state.control = {b: GERMAN for b in board.bridges}
        state.phase = "4.1"
        clear_bailey(state)
        return
    if kind == "round":
        if not 1 <= st.number <= board.rounds:
            raise IllegalMove(RULE, f"a round is 1 to {board.rounds}")
        state.round = st.number
    elif kind == "phase":
        if st.value not in PHASES:
            raise IllegalMove(RULE, f"a position's phase is one of {', '.join(PHASES)}")
        state.phase = st.value
    elif kind == "weather":
        if st.value not in ("fine", "bad"):
            raise IllegalMove(RULE, "the weather is fine or bad")
        state.weather = st.value
    elif kind == "icons":
        if st.number > len(board.scenario.forces.reserve_icons):
            raise IllegalMove(RULE, "more reserve icons than the track prints")
        state.icons_used = st.number
    elif kind == "above_rhine":
        state.above_rhine = st.number
    elif kind in ("place", "reserve", "eliminated", "pool", "arriving"):
        for key, n in _keys(st.groups):
            _take_off_board(state, key, n)
            if kind == "place":
                state.add(st.sector, key, n)
            elif kind == "reserve":
                state.track += [key] * n
            elif kind == "pool":
                state.pool[key] += n
            elif kind == "arriving":
                state.arriving += [key] * n
            else:
                state.eliminated[key] += n
    elif kind == "moved":
        for key, n in _keys(st.groups):
            state.moved.setdefault(st.sector, Counter())[(key[0], key[1], st.number)] += n
    elif kind == "intruded":
        state.intruded[st.sector] = st.number
    elif kind == "combat":
        state.combats.append(st.sector)
    elif kind == "withdrawing":
        for key, n in _keys(st.groups):
            state.withdrawals.append(Withdrawal(st.sector, key, n))
    elif kind in ("first", "strongest"):
        if st.value not in SIDES:
            raise IllegalMove(RULE, f"{kind} names a side: allied or german")
        setattr(state, kind, st.value)
    elif kind in ("engineer", "bailey", "ferry", "contact", "bridge", "recalled"):
        place_bailey(board, state, st)
    elif kind == "control":
        if st.value not in SIDES:
            raise IllegalMove(RULE, "control names a side: allied or german")
        state.control[st.sector] = st.value


def check_position(board: Board, state: AState) -> list[str]:
    out = invariants(board, state)
    if state.combats and state.phase not in COMBAT:
        out.append("combats wait only in phase 4.2 or 5.2")
    if state.withdrawals and state.phase not in COMBAT:
        out.append("withdrawals wait only in phase 4.2 or 5.2")
    if (state.moved or state.intruded) and state.phase not in MOVEMENT:
        out.append("moved figures and intrusions belong to phase 4.1 or 5.1")
    if state.arriving and state.phase not in ("6.2", "6.3"):
        out.append("arriving reserves wait only in phase 6.2 or 6.3")
    if state.above_rhine > len(state.arriving):
        out.append("more reserves above the Rhine than are arriving")
    out += check_bailey(board, state)
    for sector in state.combats:
        here = state.units.get(sector, Counter())
        if {side_of(g) for g, _ in here} != {ALLIED, GERMAN}:
            out.append(f"{sector} is not disputed: no combat waits there")
    for w in state.withdrawals:
        if state.units.get(w.sector, Counter())[w.key] < w.count:
            out.append(f"{w.sector} holds fewer {key_text(w.key)} than must withdraw")
    return out


def _groups_of(counts: Counter[Key] | dict[Key, int]) -> str:
    keys = sorted((k for k in counts if counts[k]), key=key_order)
    return groups_text(tuple((k, counts[k]) for k in keys))


def position_lines(board: Board, state: AState) -> list[str]:
    if state.fallback is not None:
        raise NotImplementedRule(
            "Move/FallBack", "a position cannot be written while a fall back waits for its "
            "support decision; write the position after 'support' or 'no support'")
    if state.phase == OVER:
        raise NotImplementedRule(RULE, "the game is over: there is no position to go on from")
    lines = ["setup: clear", f"setup: round {state.round}; phase {state.phase}; weather "
             f"{state.weather}"]
    for sector in board.order:
        counts = state.units.get(sector)
        if counts:
            lines.append(f"setup: place {_groups_of(counts)} {sector}")
    if state.pool:
        lines.append(f"setup: pool {_groups_of(state.pool)}")
    if state.track:
        runs: list[tuple[Key, int]] = []
        for key in state.track:
            if runs and runs[-1][0] == key:
                runs[-1] = (key, runs[-1][1] + 1)
            else:
                runs.append((key, 1))
        lines.append(f"setup: reserve {groups_text(tuple(runs))}")
    if state.eliminated:
        lines.append(f"setup: eliminated {_groups_of(state.eliminated)}")
    for sector in board.order:
        for (g, k, mp), n in sorted(state.moved.get(sector, Counter()).items()):
            if n:
                lines.append(f"setup: moved {n} {key_text((g, k))} {sector} mp {mp}")
        if state.intruded.get(sector):
            lines.append(f"setup: intruded {state.intruded[sector]} {sector}")
    for sector in state.combats:
        lines.append(f"setup: combat {sector}")
    for w in state.withdrawals:
        lines.append(f"setup: withdrawing {w.count} {key_text(w.key)} {w.sector}")
    if state.first:
        lines.append(f"setup: first {state.first}")
    if state.strongest:
        lines.append(f"setup: strongest {state.strongest}")
    if state.icons_used:
        lines.append(f"setup: icons {state.icons_used}")
    if state.arriving:
        runs2: list[tuple[Key, int]] = []
        for key in state.arriving:
            if runs2 and runs2[-1][0] == key:
                runs2[-1] = (key, runs2[-1][1] + 1)
            else:
                runs2.append((key, 1))
        lines.append(f"setup: arriving {groups_text(tuple(runs2))}")
    if state.above_rhine:
        lines.append(f"setup: above-rhine {state.above_rhine}")
    for bridge in board.bridges:
        side = state.control.get(bridge, GERMAN)
        if side != GERMAN:
            lines.append(f"setup: control {bridge} {side}")
    lines += bailey_lines(board, state)
    return lines


def opening(board: Board) -> AState:
    state = AState()
    state.waiting = start_waiting(board)
    for pool in board.scenario.forces.allied_setup:
        state.pool[(pool.group, pool.kind)] += pool.count
    state.control = {b: GERMAN for b in board.bridges}
    return state
