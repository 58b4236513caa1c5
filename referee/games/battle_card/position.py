"""Battle Card positions: setup statements, placing them, checking the result, and writing a
state back out as setup lines (so a game can be resumed, shared, or made a puzzle).

A setup block starts from the card's opening with the airborne landing done: the strengths it
does not change are the printed ones, the game stands at the start of turn 1's combat unless
``turn``/``step``/``fought`` say otherwise.  ``clear`` first empties the card (no Allied or
German unit, every control die German), so the block says everything itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lark import Token, Tree

from referee.core.errors import IllegalMove
from referee.core.names import split_leading_name
from referee.games.battle_card.card import Card
from referee.games.battle_card.state import (
    ALLIED_CONTROL,
    GERMAN_CONTROL,
    AlliedUnit,
    BattleCardState,
    Step,
)

RULE = "Setup"
STEPS = {"combat": Step.COMBAT, "movement": Step.MOVEMENT, "landing": Step.LANDING}


@dataclass(frozen=True)
class SetupStatement:
    """One statement of a setup line: what it sets, and its arguments."""

    what: str  # turn, step, box, corps, place, remove, german, control, fought, clear
    name: str = ""  # a unit or city
    value: Any = None

    def __str__(self) -> str:
        if self.what == "clear":
            return "clear"
        if self.what in ("turn", "step", "box"):
            return f"{self.what} {self.value}"
        if self.what in ("corps", "remove", "fought"):
            return f"{self.what} {self.name}"
        if self.what == "place":
            unit, city = self.name, self.value[0]
            return f"place {unit} {city} strength {self.value[1]}"
        if self.what == "german":
            return f"german {self.name} " + (
                "removed" if self.value is None else f"strength {self.value}"
            )
        return f"control {self.name} {self.value}"


def _tokens(tree: Tree[Any]) -> list[Token]:
    return [t for t in tree.scan_values(lambda v: isinstance(v, Token))]


def build_setup(tree: Tree[Any], card: Card) -> SetupStatement:
    """The statement of one parsed ``setup_item``, its names resolved."""
    kind = str(tree.data).removeprefix("setup_")
    tokens = _tokens(tree)
    column = int(tokens[0].column or 1) if tokens else None
    words = [str(t) for t in tokens if t.type == "WORD"]
    places, units = card.place_names, card.unit_names
    if kind == "clear":
        return SetupStatement("clear")
    if kind == "turn":
        return SetupStatement("turn", value=_number(tokens[0]))
    if kind == "step":
        return SetupStatement("step", value=_choice(words[0], STEPS, "step", column))
    if kind == "box":
        return SetupStatement("box", value=_choice(words[0], ("fog", "clear"), "box", column))
    if kind in ("corps", "fought"):
        return SetupStatement(kind, places.lookup(" ".join(words), column=column))
    if kind == "remove":
        unit, rest = split_leading_name(words, units, column=column)
        if rest:
            raise IllegalMove(
                RULE, f"'remove' takes a unit only, not '{' '.join(rest)}'", column=column
            )
        return SetupStatement("remove", unit)
    if kind == "place":
        unit, rest = split_leading_name(words, units, column=column)
        if not rest:
            raise IllegalMove(
                RULE, f"say where {unit} is: 'place {unit} CITY strength N'", column=column
            )
        city = places.lookup(" ".join(rest), column=column)
        strength = _number(tokens[-1])
        return SetupStatement("place", unit, (city, strength))
    if kind in ("german", "german_removed"):
        city = places.lookup(" ".join(words), column=column)
        return SetupStatement(
            "german", city, None if kind == "german_removed" else _number(tokens[-1])
        )
    # control CITY allied|german: the last word is the side
    side = _choice(words[-1], ("allied", "german"), "side", column)
    return SetupStatement("control", places.lookup(" ".join(words[:-1]), column=column), side)


def _number(token: Token) -> int:
    """A die value or a turn: a number of at most four digits, read whole."""
    text = str(token)
    if len(text) > 4:
        raise IllegalMove(RULE, f"{text[:6]}... is far too large: a setup number is a turn or a "
                          "die value (1 to 6)", column=token.column)
    return int(text)


def _choice(word: str, allowed: Any, what: str, column: int | None) -> Any:
    key = word.casefold()
    if key not in allowed:
        raise IllegalMove(
            RULE, f"'{word}' is not a {what}; write one of: {', '.join(allowed)}", column=column
        )
    return allowed[key] if isinstance(allowed, dict) else key


def start_position(state: BattleCardState) -> None:
    """The state a setup block starts from: the opening with the airborne landing done."""
    if state.step is Step.AIRDROP:
        state.step = Step.COMBAT
        refresh_combats(state, fought=())


def refresh_combats(state: BattleCardState, fought: tuple[str, ...]) -> None:
    if state.step is Step.COMBAT:
        state.combats_left = [
            city
            for city in state.card.cities
            if state.unit_in(city) is not None
            and state.german.get(city) is not None
            and city not in fought
        ]
    else:
        state.combats_left = []


def _fought(state: BattleCardState) -> list[str]:
    """The cities that have fought this turn: they hold both sides but are not open."""
    if state.step is not Step.COMBAT:
        return []
    return [
        city
        for city in state.card.cities
        if state.unit_in(city) is not None
        and state.german.get(city) is not None
        and city not in state.combats_left
    ]


def place(state: BattleCardState, statement: SetupStatement) -> None:
    """Apply one statement (``IllegalMove`` with rule "Setup" when it cannot be).

    The first statement of a block also settles the airborne landing of the opening: a
    position says the strengths itself.
    """
    start_position(state)
    card = state.card
    fought = _fought(state)
    what, name, value = statement.what, statement.name, statement.value
    if what == "clear":
        state.units.clear()
        state.removed.clear()
        state.german = {city: None for city in state.german}
        state.control = {city: GERMAN_CONTROL for city in state.control}
        state.corps = card.corps_start
        fought.clear()
    elif what == "turn":
        if not 1 <= value <= card.turns:
            raise IllegalMove(RULE, f"the turn die shows 1 to {card.turns}, not {value}")
        state.turn = value
    elif what == "step":
        state.step = value
    elif what == "box":
        state.box = value
    elif what == "corps":
        state.corps = name
    elif what == "place":
        city, strength = value
        if city not in card.cities:
            raise IllegalMove(RULE, f"Allied units stand in the cities; {city} is not one")
        if not 1 <= strength <= card.max_strength:
            raise IllegalMove(RULE, f"a unit die shows 1 to {card.max_strength}, not {strength}")
        if name == card.corps:
            raise IllegalMove(RULE, "30th Corps has no strength: write 'corps CITY'")
        if name in state.removed:
            state.removed.remove(name)
        state.units[name] = AlliedUnit(name, city, strength)
    elif what == "remove":
        if name == card.corps:
            raise IllegalMove(RULE, "30th Corps never leaves the game")
        state.units.pop(name, None)
        if name not in state.removed:
            state.removed.append(name)
    elif what == "german":
        if name not in card.cities:
            raise IllegalMove(RULE, f"German units stand in the cities; {name} is not one")
        if value is not None and not 1 <= value <= card.max_strength:
            raise IllegalMove(RULE, f"a German die shows 1 to {card.max_strength}, not {value}")
        state.german[name] = value
    elif what == "control":
        if name not in card.cities:
            raise IllegalMove(RULE, f"only the cities have control dice; {name} has none")
        state.control[name] = ALLIED_CONTROL if value == "allied" else GERMAN_CONTROL
    elif what == "fought":
        if state.step is not Step.COMBAT:
            raise IllegalMove(RULE, "'fought' marks a city's combat during the combat step")
        if name not in fought:
            fought.append(name)
    refresh_combats(state, tuple(fought))


def check_position(state: BattleCardState) -> list[str]:
    """What cannot be so in a built position, in sentences."""
    problems = []
    cities = [unit.city for unit in state.units.values()]
    for city in sorted({c for c in cities if cities.count(c) > 1}):
        problems.append(f"two Allied units stand in {city}; a city holds one (they merge)")
    corps = state.corps
    if corps in state.card.cities and state.german.get(corps) is not None:
        problems.append(
            f"30th Corps is in {corps} with a German unit; its arrival removes the German unit"
        )
    if corps == state.card.route[-1]:
        problems.append(f"30th Corps in {corps} has already won the game")
    if corps in state.card.cities and not state.allied_controls(corps):
        problems.append(f"30th Corps is in {corps}, which is not Allied-controlled")
    if not state.units:
        problems.append("no Allied unit is left: the game is already lost")
    if state.step is Step.LANDING and state.box == "clear":
        problems.append("the landing step is skipped once the turn die is on Clear")
    return problems


def position_lines(state: BattleCardState) -> list[str]:
    """Setup lines that rebuild ``state`` from the opening, statement for statement."""
    if state.step is Step.OVER:
        raise IllegalMove(
            "End of the Game", f"the game is over ({state.reason}): there is no position to play on"
        )
    card = state.card
    lines = [
        f"setup: clear; turn {state.turn}; step {state.step}; box {state.box}; corps {state.corps}"
    ]
    units = [f"place {u.id} {u.city} strength {u.strength}" for u in state.units.values()]
    units += [f"remove {unit}" for unit in state.removed]
    if units:
        lines.append("setup: " + "; ".join(units))
    german = [
        f"german {city} removed"
        if state.german[city] is None
        else f"german {city} strength {state.german[city]}"
        for city in card.cities
    ]
    lines.append("setup: " + "; ".join(german))
    control = [
        f"control {city} {'allied' if state.allied_controls(city) else 'german'}"
        for city in card.cities
    ]
    lines.append("setup: " + "; ".join(control))
    if state.step is Step.COMBAT:
        open_cities = set(state.combats_left)
        fought = [
            city
            for city in card.cities
            if state.unit_in(city) is not None
            and state.german.get(city) is not None
            and city not in open_cities
        ]
        if fought:
            lines.append("setup: " + "; ".join(f"fought {city}" for city in fought))
    return lines


__all__ = [
    "SetupStatement",
    "build_setup",
    "check_position",
    "place",
    "position_lines",
    "start_position",
]
