"""WWII Commander positions: ``setup:`` statements, placing them, checking the result, and
writing a state back out as setup lines (to resume, share or set up a puzzle).

A setup block starts from the scenario's opening with the Red Devils' move-out (3.H) taken as
done: the game stands at an impulse of the side with the initiative unless the block says
otherwise.  ``clear`` first empties the board (no unit in play, every space German-controlled,
nothing spent, everyone in supply), so the block says everything itself.  Placing a unit in a
space that then holds only its side's units gives that side control (5); a contested space's
control is set with ``control``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark import Token, Tree

from referee.core.errors import IllegalMove
from referee.core.names import split_leading_name
from referee.games.wwiic.board import ALLIED, BOX, FERRY, GERMAN, SIDES, SPACE, Board
from referee.games.wwiic.report import eliminated_vp, invariants
from referee.games.wwiic.state import SUPPLY_STATES, Phase, WState

RULE = "3"
PHASES = {"impulse": Phase.IMPULSE, "weather": Phase.WEATHER, "move-out": Phase.MOVE_OUT}
USED = ("foot-crossing", "special-crossing")
PER_LINE = 6


@dataclass(frozen=True)
class SetupStatement:
    """One statement of a setup line: what it sets, and its arguments."""

    what: str
    name: str = ""
    value: Any = None

    def __str__(self) -> str:
        if self.what == "clear":
            return "clear"
        if self.what in ("turn", "time", "weather", "initiative", "impulse", "phase", "passed",
                         "used"):
            return f"{self.what} {self.value}"
        if self.what == "place":
            place, strength = self.value
            return f"place {self.name} {place}" + (
                f" strength {strength}" if strength is not None else ""
            )
        if self.what in ("control", "supply"):
            return f"{self.what} {self.name} {self.value}"
        if self.what in ("crossed", "due"):
            return f"{self.what} {self.name} turn {self.value}"
        if self.what in ("objective", "polish"):
            return f"{self.what} {self.name}"
        return f"{self.what} {self.name}"


def _tokens(tree: Tree[Any]) -> list[Token]:
    return [t for t in tree.scan_values(lambda v: isinstance(v, Token))]


def _choice(word: str, allowed: Any, what: str, column: int | None) -> str:
    key = word.casefold()
    if key not in allowed:
        raise IllegalMove(
            RULE, f"'{word}' is not a {what}; write one of: {', '.join(allowed)}", column=column
        )
    return key


def build_setup(tree: Tree[Any], board: Board) -> SetupStatement:
    """The statement of one parsed ``setup_item``, its names resolved."""
    kind = str(tree.data).removeprefix("setup_")
    tokens = _tokens(tree)
    column = int(tokens[0].column or 1) if tokens else None
    words = [str(t) for t in tokens if t.type == "WORD"]
    numbers = [_number(t) for t in tokens if t.type == "FACE"]
    if kind == "clear":
        return SetupStatement("clear")
    if kind in ("objective", "polish"):
        return SetupStatement(kind, board.places.lookup(" ".join(words), column=column))
    if kind in ("turn", "time"):
        return SetupStatement(kind, value=numbers[0])
    if kind == "weather":
        return SetupStatement(kind, value=_choice(words[0], ("clear", "overcast"), kind, column))
    if kind in ("initiative", "impulse", "passed"):
        return SetupStatement(kind, value=_choice(words[0], SIDES, "side", column))
    if kind == "phase":
        return SetupStatement(kind, value=_choice(words[0], PHASES, kind, column))
    if kind == "used":
        return SetupStatement(kind, value=_choice(words[0], USED, "crossing", column))
    if kind in ("control", "supply"):
        if len(words) < 2:
            raise IllegalMove(RULE, f"write '{kind} NAME VALUE'", column=column)
        if kind == "control":
            side = _choice(words[-1], SIDES, "side", column)
            return SetupStatement(kind, board.places.lookup(" ".join(words[:-1]), column=column),
                                  side)
        state = _choice(words[-1], SUPPLY_STATES, "supply state", column)
        unit, rest = split_leading_name(words[:-1], board.unit_names, column=column)
        _nothing_after(unit, rest, column)
        return SetupStatement(kind, unit, state)
    unit, rest = split_leading_name(words, board.unit_names, column=column)
    if kind == "place":
        if not rest:
            raise IllegalMove(RULE, f"say where {unit} is: 'place {unit} PLACE [strength N]'",
                              column=column)
        place = board.places.lookup(" ".join(rest), column=column)
        return SetupStatement(kind, unit, (place, numbers[0] if numbers else None))
    _nothing_after(unit, rest, column)
    if kind in ("crossed", "due"):
        return SetupStatement(kind, unit, numbers[0])
    return SetupStatement(kind, unit)  # remove, eliminated, spent


def _number(token: Token) -> int:
    """A number of a setup statement: every one the rules use has at most two digits."""
    text = str(token)
    if len(text) > 4:
        raise IllegalMove(RULE, f"{text[:6]}... is far too large: a setup number is a game-turn, "
                          "a Time box or a strength", column=token.column)
    return int(text)


def _nothing_after(unit: str, rest: list[str], column: int | None) -> None:
    if rest:
        raise IllegalMove(RULE, f"after {unit} this statement takes nothing more, not "
                          f"'{' '.join(rest)}'", column=column)


def start_position(state: WState) -> None:
    """The state a setup block starts from: the Red Devils' move-out taken as done.  Only
    at the block's first statement: a later ``phase move-out`` says the move-out is to come."""
    if state.built:
        return
    state.built = True
    if state.phase is Phase.MOVE_OUT and state.turn == 1:
        state.phase = Phase.IMPULSE
        state.side = state.initiative


def place(board: Board, state: WState, statement: SetupStatement) -> None:
    """Apply one statement (``IllegalMove`` citing the setup rule when it cannot be)."""
    what, name, value = statement.what, statement.name, statement.value
    if what == "clear":
        for unit in state.location:
            state.location[unit] = None
        state.allied_control.clear()
        state.spent.clear()
        state.supply = dict.fromkeys(board.units, "in")
        state.strength = {u: i.max_strength for u, i in board.units.items()}
        state.eliminated.clear()
        state.eliminated_vp = 0
        state.objective_marker = board.objective_start
        state.polish_marker = None
        state.due.clear()
        state.delayed.clear()
        state.special_crossers.clear()
        state.foot_crossing_used = state.special_crossing_used = False
        state.last_pass = None
    elif what == "turn":
        if value not in board.turns:
            raise IllegalMove(RULE, f"the game-turns run 1 to {board.last_turn} (4), not {value}")
        state.turn = value
    elif what == "time":
        if not 0 <= value < board.impulses:
            raise IllegalMove(RULE, f"the Time marker stands at 0 (START) to "
                              f"{board.impulses - 1} between impulses (4), not {value}")
        state.time = value
    elif what == "weather":
        state.weather = value
    elif what == "initiative":
        state.initiative = value
    elif what == "impulse":
        state.side = value
        state.phase = Phase.IMPULSE
    elif what == "phase":
        state.phase = PHASES[value]
        if state.phase is Phase.MOVE_OUT:
            state.side = ALLIED
    elif what == "passed":
        state.last_pass = value
    elif what == "used":
        if value == "foot-crossing":
            state.foot_crossing_used = True
        else:
            state.special_crossing_used = True
    elif what == "place":
        _place_unit(board, state, name, value[0], value[1])
    elif what in ("remove", "eliminated"):
        state.location[name] = None
        state.spent.discard(name)
        if name in state.eliminated:
            state.eliminated.remove(name)
        if what == "eliminated":
            state.eliminated.append(name)
            state.strength[name] = 1  # as victory.eliminate leaves it: the VP face up
        state.eliminated_vp = eliminated_vp(board, state)
    elif what == "control":
        if board.kind.get(name) != SPACE:
            raise IllegalMove(RULE, f"only map spaces are controlled (5); {board.name(name)} is "
                              "not a space")
        if value == ALLIED:
            state.allied_control.add(name)
        else:
            state.allied_control.discard(name)
    elif what == "spent":
        if state.location[name] is None:
            raise IllegalMove(RULE, f"{name} is not in play: place it before marking it spent "
                              "(4: activation cubes go on units in play)")
        state.spent.add(name)
    elif what == "supply":
        if value == "low" and not board.units[name].airborne:
            raise IllegalMove(RULE, f"{name} is not in an Allied airborne formation: only those "
                              "units go to Low Supply (8.1, 8.3); write 'out' or 'in'")
        state.supply[name] = value
    elif what == "crossed":
        info = board.units[name]
        if info.side != ALLIED or not info.leg:
            raise IllegalMove(RULE, f"{name} is not Allied leg infantry: only such a unit makes "
                              "the special river crossing (6.3)")
        if value not in board.turns:
            raise IllegalMove(RULE, f"the game-turns run 1 to {board.last_turn}: {name} can't "
                              f"have crossed on Game-turn {value} (6.3)")
        state.special_crossers[name] = value
    elif what == "objective":
        if name not in board.objective_vp:
            raise IllegalMove(RULE, f"{board.name(name)} is not an Allied objective space (11.1)")
        state.objective_marker = name
    elif what == "polish":
        if name not in board.polish_drop:
            raise IllegalMove(RULE, f"{board.name(name)} is not in the Polish drop area (9)")
        state.polish_marker = name
    elif what == "due":
        arrives = board.units[name].arrives
        if arrives is None:
            raise IllegalMove(RULE, f"{name} is not a reinforcement (9)")
        if not arrives <= value <= board.last_turn + 1:
            raise IllegalMove(
                RULE, f"{name} is scheduled for Game-turn {arrives}, and a delay only moves it "
                f"later (9): it is due on Game-turn {arrives} to {board.last_turn + 1}, not "
                f"{value}",
            )
        state.due[name] = value
        state.location[name] = None
        if value > (board.units[name].arrives or 0):
            state.delayed.add(name)


def _place_unit(board: Board, state: WState, unit: str, where: str, strength: int | None) -> None:
    info = board.units[unit]
    if strength is not None:
        if not 1 <= strength <= info.max_strength:
            raise IllegalMove(RULE, f"{unit} has strengths 1 to {info.max_strength} (2.2), not "
                              f"{strength}")
        state.strength[unit] = strength
    kind = board.kind[where]
    if kind == BOX:
        box = board.boxes[where]
        if info.side != GERMAN or info.formation != box.formation:
            raise IllegalMove(RULE, f"off-map box {where} holds only German units of the "
                              f"{box.formation} formation (6.5); {unit} is not one")
    elif kind == FERRY:
        if info.side != GERMAN or info.type not in board.ferry_types:
            raise IllegalMove(RULE, f"only German leg or motorized infantry uses the "
                              f"{board.name(where)} box (6.3); {unit} is {info.type_words}")
        if state.strength[unit] > board.ferry_max_strength:
            raise IllegalMove(RULE, f"a unit in the {board.name(where)} box has strength "
                              f"{board.ferry_max_strength} or less (6.3); {unit} has "
                              f"{state.strength[unit]}")
    state.location[unit] = where
    if unit in state.eliminated:
        state.eliminated.remove(unit)
        state.eliminated_vp = eliminated_vp(board, state)
    if board.kind[where] == SPACE:
        sides = {board.side_of[u] for u, p in state.location.items() if p == where}
        if sides == {info.side}:
            if info.side == ALLIED:
                state.allied_control.add(where)
            else:
                state.allied_control.discard(where)


def check_position(board: Board, state: WState) -> list[str]:
    """What cannot be so in a built position, in sentences."""
    problems = invariants(board, state)
    if state.phase is Phase.MOVE_OUT and state.turn != 1:
        problems.append("the Red Devils move out (3.H) only at the start of Game-turn 1")
    if state.phase is Phase.WEATHER and state.turn == 1:
        problems.append("Game-turn 1 has no weather roll: its weather is clear (4)")
    expected = ALLIED if state.turn <= 3 or state.weather == "clear" else GERMAN
    if state.phase is not Phase.WEATHER and state.initiative != expected:
        problems.append(
            f"on Game-turn {state.turn} in {state.weather} weather the initiative is "
            f"{expected.capitalize()}'s (4)"
        )
    if state.turn == 1 and state.weather != "clear":
        problems.append("the weather is clear on Game-turn 1 (4)")
    for unit in sorted(state.spent):
        if state.location[unit] is None:
            problems.append(f"{unit} is spent but not in play")
    if state.phase is Phase.IMPULSE and state.last_pass == state.side:
        problems.append(f"the {state.side.capitalize()} player passed in the impulse just before, "
                        f"so this impulse is the other player's (4: the players alternate "
                        "impulses)")
    problems += _arrivals(board, state)
    for unit, turn in state.special_crossers.items():
        if turn > state.turn:
            problems.append(f"{unit} made the special river crossing on Game-turn {turn}, after "
                            f"the current Game-turn {state.turn} (6.3)")
    for unit, place in state.location.items():
        if place == board.ferry and state.strength[unit] > board.ferry_max_strength:
            problems.append(f"{unit} has strength {state.strength[unit]} in the ferry box, where "
                            f"a unit has {board.ferry_max_strength} or less (6.3)")
    return problems


def _arrivals(board: Board, state: WState) -> list[str]:
    """9: a reinforcement not yet in play is placed (or delayed) at the start of the turn it
    is due.  (A position may put a unit in play before its scheduled turn: the rulebook's
    examples do, to show a rule.)"""
    problems: list[str] = []
    # At the weather roll, this turn's reinforcements are still to come.
    arrived = state.turn - 1 if state.phase in (Phase.WEATHER, Phase.MOVE_OUT) else state.turn
    for unit in board.unit_order:
        due = state.due.get(unit)
        if due is not None and state.location[unit] is None and due <= arrived:
            problems.append(f"{unit} is due on Game-turn {due}, but the reinforcements of "
                            f"Game-turn {arrived} have been placed (9): it is placed or delayed "
                            f"at the start of its turn (due {unit} turn {arrived + 1} or later)")
    return problems


def position_lines(board: Board, state: WState) -> list[str]:
    """Setup lines that rebuild ``state`` from the opening, statement for statement."""
    if state.phase is Phase.OVER:
        raise IllegalMove("4", "the game is over: there is no position to play on")
    if state.phase not in (Phase.IMPULSE, Phase.WEATHER, Phase.MOVE_OUT):
        raise IllegalMove(
            "4", "a decision is still to be settled (an attack, hits, a retreat, a breakthrough, "
            "a reinforcement or replacement): a position is written between impulses"
        )
    head = [f"clear; turn {state.turn}; weather {state.weather}; initiative {state.initiative}",
            f"time {state.time}"]
    if state.phase is Phase.IMPULSE:
        head.append(f"impulse {state.side}")
    else:
        head.append(f"phase {state.phase}")
    statements: list[str] = []
    for unit in board.unit_order:
        where = state.location[unit]
        if where is not None:
            statements.append(
                f"place {unit} {board.log_name(where)} strength {state.strength[unit]}"
            )
    statements += [f"eliminated {unit}" for unit in state.eliminated]
    occupied = {p for u, p in state.location.items() if p is not None and
                board.side_of[u] == ALLIED}
    for space in board.spaces:
        if space in state.allied_control:
            statements.append(f"control {board.log_name(space)} allied")
        elif space in occupied:
            statements.append(f"control {board.log_name(space)} german")
    statements += [f"spent {unit}" for unit in board.unit_order if unit in state.spent]
    statements += [
        f"supply {unit} {state.supply[unit]}" for unit in board.unit_order
        if state.supply[unit] != "in"
    ]
    if state.last_pass is not None:
        statements.append(f"passed {state.last_pass}")
    if state.foot_crossing_used:
        statements.append("used foot-crossing")
    if state.special_crossing_used:
        statements.append("used special-crossing")
    statements += [f"crossed {unit} turn {turn}" for unit, turn in state.special_crossers.items()]
    if state.objective_marker != board.objective_start:
        statements.append(f"objective {board.log_name(state.objective_marker)}")
    if state.polish_marker is not None:
        statements.append(f"polish {board.log_name(state.polish_marker)}")
    statements += [f"due {unit} turn {turn}" for unit, turn in state.due.items()]
    lines = ["setup: " + "; ".join(head)]
    for index in range(0, len(statements), PER_LINE):
        lines.append("setup: " + "; ".join(statements[index : index + PER_LINE]))
    return lines
