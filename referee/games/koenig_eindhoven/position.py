"""Positions as ``setup:`` statements: reading them, applying them, and writing any state
back as setup lines (``referee position``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark import Token, Tree

from referee.core.errors import IllegalMove
from referee.core.names import split_leading_name
from referee.games.koenig_eindhoven.board import Board
from referee.games.koenig_eindhoven.movement import STACK
from referee.games.koenig_eindhoven.state import (
    ALLIED_SUPPORT,
    ARTILLERY,
    DUE,
    ELIMINATED,
    IN_PLAY,
    NEVER,
    OFF_MAP,
    OPERATIONS,
    KState,
    Phase,
)

SETUP_RULE = "3.0"
STATUS_WORDS = {"setup_eliminated": ELIMINATED, "setup_off_map": OFF_MAP,
                "setup_never": NEVER}
WORD_OF_STATUS = {ELIMINATED: "eliminated", OFF_MAP: "off-map", NEVER: "never-arrived"}


@dataclass(frozen=True, slots=True)
class SetupStatement:
    kind: str
    names: tuple[str, ...] = ()
    number: int | None = None
    word: str | None = None


def _tokens(tree: Tree[Any]) -> list[Token]:
    return [t for t in tree.children if isinstance(t, Token)]


def _words(tree: Tree[Any]) -> list[Token]:
    return [t for c in tree.children if isinstance(c, Tree) for t in _tokens(c)]


def build_setup(tree: Tree[Any], board: Board) -> SetupStatement:
    kind = str(tree.data)
    faces = [t for t in tree.children if isinstance(t, Token) and t.type == "FACE"]
    number = int(faces[0]) if faces else None
    groups = [c for c in tree.children if isinstance(c, Tree)]
    units = board.unit_index()
    if kind in ("setup_turn", "setup_artillery", "setup_allied_support"):
        return SetupStatement(kind, number=number)
    if kind in ("setup_phase", "setup_rolled"):
        word = str(_tokens(tree)[0]).casefold()
        return SetupStatement(kind, word=word)
    if kind == "setup_cup":
        names = []
        for group in groups:
            tokens = _tokens(group)
            names.append(_formation(board, " ".join(tokens), tokens[0].column))
        return SetupStatement(kind, tuple(names))
    if kind == "setup_active":
        tokens = _tokens(groups[0])
        return SetupStatement(kind, (_formation(board, " ".join(tokens), tokens[0].column),))
    if kind in ("setup_place", "setup_done"):
        tokens = _tokens(groups[0])
        unit, rest = split_leading_name([str(t) for t in tokens], units, column=tokens[0].column)
        if not rest:
            what = "the hex" if kind == "setup_place" else "the Operation"
            raise IllegalMove(SETUP_RULE, f"{unit}: write {what} after the unit")
        word = " ".join(rest)
        if kind == "setup_place":
            place = board.place(word)
            if place is None:
                raise IllegalMove(SETUP_RULE, f"'{word}' is no hex or place on the map")
            word = place
        return SetupStatement(kind, (unit,), number, word)
    if kind == "setup_clear":
        return SetupStatement(kind)
    tokens = _tokens(groups[0])
    unit = units.lookup(" ".join(tokens), column=tokens[0].column)
    return SetupStatement(kind, (unit,), number)


def _formation(board: Board, text: str, column: int | None) -> str:
    for fid, formation in board.formations.items():
        if text.casefold() in (fid.casefold(), formation.hq.casefold()):
            return fid
    spec = board.units.get(board.unit_index().lookup(text, column=column))
    assert spec is not None
    return spec.formation


def place(board: Board, state: KState, s: SetupStatement) -> None:
    kind = s.kind
    if kind == "setup_clear":
        for unit in state.hex:
            state.hex[unit] = None
            state.status[unit] = DUE
            state.hits[unit] = 0
        state.landed = set()
        state.operation = {}
        state.mp_left = {}
        state.concert = ()
        state.fired = set()
        state.engaged = set()
        state.cup = []
        state.active = None
        state.rolled = []
        state.points = {ARTILLERY: 0, ALLIED_SUPPORT: 0}
        state.result = None
        return
    if kind == "setup_turn":
        assert s.number is not None
        if not 1 <= s.number <= board.last_turn:
            raise IllegalMove(SETUP_RULE, f"the Game Turn Record Track runs 1-{board.last_turn}")
        state.turn = s.number
        return
    if kind == "setup_phase":
        try:
            state.phase = Phase(s.word or "")
        except ValueError:
            raise IllegalMove(SETUP_RULE, f"no phase '{s.word}': landing, support, operations, "
                              "redeployment or over") from None
        return
    if kind in ("setup_artillery", "setup_allied_support"):
        assert s.number is not None
        key = ARTILLERY if kind == "setup_artillery" else ALLIED_SUPPORT
        if not 0 <= s.number <= 3:
            raise IllegalMove("6.0", "a side receives 1-3 points a day turn")
        state.points[key] = s.number
        return
    if kind == "setup_rolled":
        if s.word not in (ARTILLERY, ALLIED_SUPPORT):
            raise IllegalMove(SETUP_RULE, "rolled artillery, or rolled allied-support")
        assert s.word is not None
        if s.word not in state.rolled:
            state.rolled.append(s.word)
            state.rolled.sort(key=(ARTILLERY, ALLIED_SUPPORT).index)
        return
    if kind == "setup_cup":
        state.cup = sorted(set(state.cup) | set(s.names))
        return
    if kind == "setup_active":
        state.active = s.names[0]
        return
    unit = s.names[0]
    if board.units[unit].hq:
        raise IllegalMove(SETUP_RULE, f"{unit} is an HQ: HQs live in the Command Cup, never on "
                          "the map (K20)")
    hits = s.number if s.number is not None else 0
    if kind in ("setup_place", "setup_due", *STATUS_WORDS) and not 0 <= hits <= 2:
        raise IllegalMove("9.2", "a unit has 0, 1 or 2 Hits; a third eliminates it")
    if kind == "setup_place":
        assert s.word is not None
        state.hex[unit] = s.word
        state.status[unit] = IN_PLAY
        state.hits[unit] = hits
    elif kind == "setup_due":
        state.hex[unit] = None
        state.status[unit] = DUE
        state.hits[unit] = hits
    elif kind in STATUS_WORDS:
        # The Hits a unit carried when it left the map stay with it (they show in the state).
        state.hex[unit] = None
        state.status[unit] = STATUS_WORDS[kind]
        state.hits[unit] = hits
    elif kind == "setup_landed":
        state.landed.add(unit)
    elif kind == "setup_done":
        words = (s.word or "").split()
        if not words or words[0] not in OPERATIONS:
            raise IllegalMove(SETUP_RULE, "done UNIT movement|full-fire|combined|redeployed")
        state.operation[unit] = words[0]
        if s.number is not None:
            state.mp_left[unit] = s.number
    elif kind == "setup_fired":
        state.fired.add(unit)
    elif kind == "setup_engaged":
        state.engaged.add(unit)
    elif kind == "setup_current":
        if unit not in state.concert:
            state.concert = (*state.concert, unit)  # in the order the Operations began
    else:  # pragma: no cover - the grammar has no other statement
        raise AssertionError(kind)


def check_position(board: Board, state: KState) -> list[str]:
    problems: list[str] = []
    counts: dict[str, list[str]] = {}
    for unit, place_ in state.hex.items():
        if place_ is not None:
            counts.setdefault(place_, []).append(unit)
    for hex_id, units in sorted(counts.items()):
        if len(units) > STACK:
            problems.append(f"{hex_id} holds {len(units)} units ({', '.join(units)}): 8.2 "
                            "allows two")
    for formation in state.cup:
        if formation == state.active:
            problems.append(f"formation {formation} is active, so its HQ is not in the cup")
    for unit in state.concert:
        if state.operation.get(unit) != "combined":
            problems.append(f"{unit} has an open Combined Operation only after "
                            f"'done {unit} combined'")
        elif (unit in state.fired) == (unit in state.mp_left):
            problems.append(f"{unit}'s Combined Operation is open only after one of its "
                            "halves: 'done ... mp N' (it moved) or 'fired' (8.4)")
    halves = {unit in state.mp_left for unit in state.concert}
    if len(halves) > 1:
        problems.append("open Combined Operations are all moved units waiting to fire jointly "
                        "or all units that fired waiting to move (7.1, 7.1.1)")
    return problems


def position_lines(board: Board, state: KState) -> list[str]:
    """Setup lines that rebuild ``state`` from the opening (not in the middle of an attack:
    its decisions are not setup statements)."""
    if state.battle is not None:
        from referee.core.errors import NotImplementedRule

        raise NotImplementedRule("3.0", "a position in the middle of an attack cannot be "
                                 "written as setup lines; take it after the attack's last "
                                 "decision")
    lines = [f"setup: clear; turn {state.turn}; phase {state.phase}"]
    items: list[str] = []
    for unit in state.hex:
        status = state.status[unit]
        hits = state.hits[unit]
        tail = f" hits {hits}" if hits else ""
        if status == IN_PLAY:
            items.append(f"place {unit} {state.hex[unit]}{tail}")
        elif status == DUE:
            if hits:
                items.append(f"due {unit}{tail}")
        else:
            items.append(f"{WORD_OF_STATUS[status]} {unit}{tail}")
        if unit in state.landed:
            items.append(f"landed {unit}")
    for unit, operation in state.operation.items():
        mp = state.mp_left.get(unit)
        items.append(f"done {unit} {operation}" + (f" mp {mp}" if mp is not None else ""))
    for unit in sorted(state.fired):
        items.append(f"fired {unit}")
    for unit in sorted(state.engaged):
        items.append(f"engaged {unit}")
    for unit in state.concert:
        items.append(f"current {unit}")
    if state.cup:
        items.append("cup " + ", ".join(state.cup))
    if state.active is not None:
        items.append(f"active {state.active}")
    for key in state.rolled:
        items.append(f"rolled {key}")
    for key in (ARTILLERY, ALLIED_SUPPORT):
        if state.points[key]:
            items.append(f"{key} {state.points[key]}")
    for start in range(0, len(items), 4):
        lines.append("setup: " + "; ".join(items[start:start + 4]))
    return lines
