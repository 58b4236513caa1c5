"""Positions for Phase 3.4 and the ferries: ``setup:`` statements for the engineer squares,
Bailey bridges, ferries, airborne contact with GARDEN and destroyed bridges, and the lines that
write them back (``referee position``)."""

from __future__ import annotations

from typing import Any

from lark import Token, Tree

from referee.core.errors import IllegalMove
from referee.games.arnhem44.bailey import (
    ENGINEER_SQUARES,
    MARKERS,
    SIZE_OF_BORDER,
    TOKENS,
    wrecked,
)
from referee.games.arnhem44.board import AIRBORNE, Board, side_of
from referee.games.arnhem44.commands import _groups, _sector, groups_text
from referee.games.arnhem44.ferries import ACTIVE, STATUSES, status
from referee.games.arnhem44.state import AState, Bailey
from referee.games.arnhem44.statement import Statement, keys, take_off_board

RULE = "Positions"


def _column(token: Any) -> int | None:
    return token.column if isinstance(token, Token) else None


def bailey_statement(board: Board, kind: str, tree: Tree[Any]) -> dict[str, Any]:
    """The fields of a Statement for ``engineer``, ``bailey``, ``ferry``, ``contact``,
    ``recalled`` and ``bridge``."""
    ch = tree.children
    if kind == "engineer":
        return {"groups": _groups(board, ch[0])}
    if kind == "bailey":
        name = str(ch[0])
        numbers = [int(str(c)) if c is not None else 0 for c in ch[4:7]]
        return {"value": name, "sector": _sector(board, ch[1]),
                "extra": (_sector(board, ch[3]), *numbers)}
    if kind == "ferry":
        ferry = str(ch[0])
        match = [f for f in board.ferries if f.casefold() == ferry.casefold()]
        if not match:
            raise IllegalMove(RULE, f"'{ferry}' is not a ferry: {', '.join(board.ferries)}",
                              column=_column(ch[0]))
        return {"sector": match[0], "value": str(ch[1]).casefold()}
    if kind == "contact":
        return {"value": str(ch[0])}
    if kind == "recalled":
        return {}
    bridge = board.bridge_names.lookup(str(ch[0]), column=_column(ch[0]))
    return {"sector": bridge, "value": str(ch[1]).casefold()}


def clear_bailey(state: AState) -> None:
    state.baileys = []
    state.engineers = []
    state.ferries = {}
    state.contact = set()
    state.destroyed = set()
    state.recalled = False
    state.bridge_hits = {}


def place_bailey(board: Board, state: AState, st: Statement) -> None:
    kind = st.kind
    if kind == "engineer":
        for key, n in keys(st.groups):
            if side_of(key[0]) != "allied":
                raise IllegalMove(RULE, "only Allied units stand on the engineer squares")
            take_off_board(state, key, n)
            state.engineers += [key] * n
    elif kind == "bailey":
        a = st.sector
        b, points, started, worked = st.extra
        link = board.links[a].get(b)
        if link is None or link.kind == "plain":
            raise IllegalMove(RULE, f"no waterway separates {a} and {b}: no Bailey bridge")
        size = SIZE_OF_BORDER[link.kind]
        if not 0 <= points <= MARKERS[size]:
            raise IllegalMove(RULE, f"a {size} Bailey bridge has 0 to {MARKERS[size]} "
                              "construction markers")
        if any(x.id.casefold() == st.value.casefold() for x in state.baileys):
            raise IllegalMove(RULE, f"{st.value} is named twice")
        state.baileys.append(Bailey(st.value, a, b, size, points, started or state.round,
                                    worked))
    elif kind == "ferry":
        if st.value not in STATUSES:
            raise IllegalMove(RULE, "a ferry is active, flipped or removed")
        if st.value == ACTIVE:
            state.ferries.pop(st.sector, None)
        else:
            state.ferries[st.sector] = st.value
    elif kind == "recalled":
        state.recalled = True
    elif kind == "contact":
        match = [g for g in AIRBORNE if g.casefold() == st.value.casefold()]
        if not match:
            raise IllegalMove(RULE, "contact names an airborne group: "
                              + ", ".join(sorted(AIRBORNE)))
        state.contact.add(match[0])
    else:
        if st.value not in ("intact", "destroyed"):
            raise IllegalMove(RULE, "a bridge is intact or destroyed")
        if st.value == "destroyed":
            state.destroyed.add(st.sector)
        else:
            state.destroyed.discard(st.sector)


def check_bailey(board: Board, state: AState) -> list[str]:
    out = []
    if len(state.engineers) > ENGINEER_SQUARES:
        out.append(f"more than {ENGINEER_SQUARES} units on the engineer squares E01-E08")
    if len(state.baileys) > TOKENS:
        out.append(f"more than {TOKENS} Bailey bridges")
    seen: set[frozenset[str]] = set()
    for bridge in state.baileys:
        if wrecked(state, bridge):
            continue  # destroyed by bridge damage (Veterans/4): a new one may cross there
        border = frozenset((bridge.a, bridge.b))
        if border in seen:
            out.append(f"two Bailey bridges between {bridge.a} and {bridge.b}")
        seen.add(border)
        if bridge.started > state.round:
            out.append(f"{bridge.id} is started after the current round")
    return out


def bailey_lines(board: Board, state: AState) -> list[str]:
    lines = []
    if state.engineers:
        runs: list[tuple[Any, int]] = []
        for key in state.engineers:
            if runs and runs[-1][0] == key:
                runs[-1] = (key, runs[-1][1] + 1)
            else:
                runs.append((key, 1))
        lines.append(f"setup: engineer {groups_text(tuple(runs))}")
    for bridge in state.baileys:
        line = (f"setup: bailey {bridge.id} {bridge.a}->{bridge.b} points {bridge.points} "
                f"started {bridge.started}")
        if bridge.worked:
            line += f" worked {bridge.worked}"
        lines.append(line)
    for ferry in board.ferries:
        if status(state, ferry) != ACTIVE:
            lines.append(f"setup: ferry {ferry} {status(state, ferry)}")
    if state.recalled and state.arriving:
        lines.append("setup: recalled")
    # (contact with GARDEN and destroyed bridges are written by the supply and explosives
    # lines: supply_lines, explosives_position.lines)
    return lines

