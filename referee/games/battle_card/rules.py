"""The rules of Battle Card: Market Garden, step by step as the card gives them.

Rule references ("Setup", "Airborne Landing", "Turn step 1" … "Turn step 5", "End of the Game") are
the card's own headings; readings of unclear text are in docs/battle-card-interpretations.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lark import Tree

from referee.core.dice import Dice, Roll
from referee.core.engine import REFEREE, Event, GameInfo, RollNeed, Side
from referee.core.errors import GameOver, HeaderError, IllegalMove
from referee.core.scenario import ScenarioError
from referee.games.battle_card import dice_needed, position
from referee.games.battle_card.card import Card, bundled_card, bundled_names
from referee.games.battle_card.commands import (
    AIRDROP,
    LANDING,
    PASS,
    Airdrop,
    Command,
    Fight,
    Landing,
    Move,
    Pass,
    build,
    fight,
    move,
)
from referee.games.battle_card.events import (
    LazyEvent,
    combat_data,
    combat_words,
    fight_label,
    grown_data,
    grown_words,
    held_back_data,
    held_back_words,
    turn_data,
    turn_words,
)
from referee.games.battle_card.options import OPTIONS
from referee.games.battle_card.policy import greedy_policy
from referee.games.battle_card.position import SetupStatement
from referee.games.battle_card.quickparse import action_tree
from referee.games.battle_card.views import CardViews

if TYPE_CHECKING:
    import random

    from referee.core.ownscenario import ScenarioFile

from referee.games.battle_card.state import (
    ALLIED,
    ALLIED_CONTROL,
    GERMAN_CONTROL,
    AlliedUnit,
    BattleCardState,
    Step,
)

# The steps as module constants: enum member lookups are measurably slow in the hot path.
_AIRDROP, _COMBAT, _MOVEMENT, _LANDING, _OVER = (
    Step.AIRDROP,
    Step.COMBAT,
    Step.MOVEMENT,
    Step.LANDING,
    Step.OVER,
)
_ACTOR: dict[Step, Side | None] = {
    _AIRDROP: REFEREE,
    _COMBAT: "allied",
    _MOVEMENT: "allied",
    _LANDING: REFEREE,
    _OVER: None,
}


def _restore(state: BattleCardState, source: BattleCardState) -> None:
    """Make ``state`` equal to ``source`` in place (the driver holds the state object)."""
    for name in BattleCardState.__slots__:
        setattr(state, name, getattr(source, name))


def _is_over(state: BattleCardState) -> bool:
    return state.step is _OVER


def _german_control(state: BattleCardState, city: str, german: int) -> bool:
    """Turn step 2: "If the value of the German unit exceeds that of the Allied unit, set the
    control die to 1" (a city with no Allied unit counts it as 0).  True when it was set."""
    if state.control[city] == GERMAN_CONTROL:
        return False
    unit = state.unit_in(city)
    if german > (unit.strength if unit else 0):
        state.control[city] = GERMAN_CONTROL
        return True
    return False


class BattleCardEngine(CardViews):
    """The Engine of Battle Card: Market Garden (solitaire: the player is the Allied side)."""

    grammar = "battle_card.lark"
    info = GameInfo(
        id="battle-card",
        title="Battle Card: Market Garden",
        rulebook="battle-card-market-garden.txt",
        sides=(ALLIED,),
        scenarios=("standard",),
        sequence="Turn steps 1-5",  # the card's "Turn": steps 1. Combat ... 5. Next Turn
        ending="End of the Game",
        coverage="complete: setup, airborne landing, turn steps 1-5, end of the game",
    )

    def __init__(self, card: Card | None = None) -> None:
        self.policies = {"greedy": greedy_policy}
        self._card = card
        """The card of a scenario file of the user's own (``variant.py``), if any."""

    # -- scenario and setup -------------------------------------------------------------

    def with_scenario_file(self, file: ScenarioFile) -> BattleCardEngine:
        """The engine on a scenario of the user's own: ScenarioError lists its problems."""
        from referee.games.battle_card.variant import variant_card

        return BattleCardEngine(variant_card(file))

    def card(self, scenario: str | None = None) -> Card:
        if self._card is not None:
            return self._card
        try:
            return bundled_card(scenario or "standard")
        except ScenarioError as error:
            known = ", ".join(bundled_names())
            raise HeaderError(f"{error}; Battle Card has: {known}") from None

    def setup(self, scenario: str | None, options: Mapping[str, str]) -> BattleCardState:
        """Game Setup: the starting dice; the airborne landing roll comes first."""
        for option in options:
            if option not in OPTIONS:
                known = ", ".join(OPTIONS)
                raise HeaderError(f"unknown option '{option}'; Battle Card knows {known}")
        card = self.card(scenario)
        return BattleCardState(
            card=card,
            turn=1,
            step=_AIRDROP,
            units={u.id: AlliedUnit(u.id, u.city, u.strength) for u in card.units},
            german={city: german for city, german in card.german},
            control={
                city: ALLIED_CONTROL if city in card.allied_control else GERMAN_CONTROL
                for city, _ in card.german
            },
            corps=card.corps_start,
            options=frozenset(options),
        )

    def copy(self, state: BattleCardState) -> BattleCardState:
        return state.copy()

    # -- who acts and what they may do ---------------------------------------------------

    def to_act(self, state: BattleCardState) -> Side | None:
        return _ACTOR[state.step]

    def legal(self, state: BattleCardState) -> list[Command]:
        step = state.step
        if step is _COMBAT:
            out: list[Command] = []
            for city in state.combats_left:
                out += (fight(city, True), fight(city, False))
            return out
        if step is _MOVEMENT:
            card = state.card
            corps = state.corps
            moves: list[Command] = [
                move(card.corps, corps, place)
                for place in card.neighbours(corps)
                if place in card.cities and state.control[place] == ALLIED_CONTROL
            ]
            for unit in state.units.values():
                if unit.city == corps:
                    moves += [
                        move(unit.id, corps, place)
                        for place in card.neighbours(corps)
                        if place in card.cities
                    ]
            moves.append(PASS)
            return moves
        if step is _AIRDROP:
            return [AIRDROP]
        if step is _LANDING:
            return [LANDING]
        return []

    def random_command(self, state: BattleCardState, rng: random.Random) -> Command:
        """What the random policy picks, drawn without listing every command: the same
        command, from the same draw of ``rng``, as ``legal(state)[rng.randrange(n)]``, and a
        forced referee step without a draw (as self-play treats a single referee command)."""
        step = state.step
        if step is _COMBAT:
            left = state.combats_left
            choice = rng.randrange(2 * len(left))
            return fight(left[choice >> 1], not choice & 1)
        if step is _AIRDROP:
            return AIRDROP
        if step is _LANDING:
            return LANDING
        legal = self.legal(state)
        return legal[rng.randrange(len(legal))]

    def forced(self, state: BattleCardState) -> Command | None:
        if state.step is _AIRDROP:
            return AIRDROP
        if state.step is _LANDING:
            return LANDING
        return None

    def decision(self, state: BattleCardState) -> str:
        if state.step is _AIRDROP:
            return "the airborne landing roll: one d6 for each Allied unit (airdrop)"
        if state.step is _COMBAT:
            return "attack or defend at " + ", ".join(state.combats_left)
        if state.step is _MOVEMENT:
            return f"move 30th Corps (in {state.corps}) or a unit with it, or pass"
        if state.step is _LANDING:
            return "the airborne landing roll of turn step 4: one d6 (landing)"
        return "nothing: the game is over"

    # -- applying commands ---------------------------------------------------------------

    def build_command(self, tree: Tree[Any], text: str) -> Command:
        card = self.card()  # every Battle Card scenario shares the card's names
        return build(tree, card.place_names, card.unit_names)

    # -- positions (setup lines) --------------------------------------------------------

    def build_setup(self, tree: Tree[Any], text: str) -> SetupStatement:
        return position.build_setup(tree, self.card())

    def place(self, state: BattleCardState, statement: SetupStatement) -> None:
        """One setup statement; all or nothing, like a command."""
        trial = state.copy()
        position.place(trial, statement)
        _restore(state, trial)

    def check_position(self, state: BattleCardState) -> list[str]:
        return position.check_position(state)

    def position(self, state: BattleCardState) -> list[str]:
        return position.position_lines(state)

    def rolls_needed(self, state: BattleCardState, command: Command | None) -> list[RollNeed]:
        return dice_needed.rolls_needed(state, command)

    def apply(self, state: BattleCardState, command: Command, dice: Dice) -> list[Event]:
        step = state.step
        if step is _OVER:
            raise GameOver(f"the game is over: {state.reason}")
        # The step checks are written out: this is self-play's hottest path.
        if isinstance(command, Fight):
            if step is not _COMBAT:
                self._expect(state, _COMBAT, command)
            return self._fight(state, command, dice)
        if isinstance(command, Move | Pass):
            if step is not _MOVEMENT:
                self._expect(state, _MOVEMENT, command)
            if isinstance(command, Move):
                events = self._move(state, command)
            else:
                events = [Event("pass", "no Allied movement this turn")]
            if state.step is not _OVER:
                events += self._after_movement(state)
            return events
        if isinstance(command, Airdrop):
            if step is not _AIRDROP:
                self._expect(state, _AIRDROP, command)
            return self._airdrop(state, dice)
        if step is not _LANDING:
            self._expect(state, _LANDING, command)
        return self._landing(state, dice)

    def out_of_turn(self, state: BattleCardState, command: Command) -> IllegalMove | None:
        """Why a command whose step the game has passed over is refused, when the card says
        the step is skipped (the replay driver asks before calling it the wrong side)."""
        if not isinstance(command, Landing) or state.step is _LANDING or state.step is _OVER:
            return None
        if state.box == "clear":
            return IllegalMove(
                "Turn step 4",
                "no landing roll: the first airborne army has been increased already, so step 4 "
                "is skipped in the remaining turns (the turn die is in the Clear box)",
            )
        first = state.card.first_airborne
        if "landing-all-units" not in state.options and first not in state.units:
            return IllegalMove(
                "Turn step 4",
                f"no landing roll: step 4 is skipped because the first airborne army "
                f"({first}, the British 1st Airborne) has left the game; there is no unit for "
                f"the landing to increase",
            )
        return None

    def _expect(self, state: BattleCardState, step: Step, command: Command) -> None:
        if state.step is step:
            return
        skipped = self.out_of_turn(state, command)
        if skipped is not None:
            raise skipped
        # The rule broken is the order of the card's steps: cite the step the game is at.
        rule = {
            _AIRDROP: "Airborne Landing",
            _COMBAT: "Turn step 1",
            _MOVEMENT: "Turn step 3",
            _LANDING: "Turn step 4",
            _OVER: "End of the Game",
        }[state.step]
        raise IllegalMove(
            rule,
            f"'{command}' is not possible now: the game awaits {self.decision(state)}",
            [str(c) for c in self.legal(state)][:8],
        )

    def _airdrop(self, state: BattleCardState, dice: Dice) -> list[Event]:
        """Airborne Landing: a d6 per Allied unit sets its starting strength."""
        table = state.card.landing_modifier
        events = []
        units = list(state.units.values())
        faces = [dice.roll(6, 1, f"{u.id} landing")[0] for u in units]
        for unit, face in zip(units, faces, strict=True):
            change = table[face - 1]
            unit.strength += change  # 6 - 2 and 5 - 2 leave every unit at 3 or more
            effect = f"{change:+d} strength" if change else "no change"
            events.append(
                Event(
                    "airdrop",
                    f"{unit.id} lands at {unit.city}: rolled {face}, {effect}, "
                    f"strength {unit.strength}",
                    {"unit": unit.id, "roll": face, "change": change},
                    (Roll(6, (face,), f"{unit.id} landing"),),
                )
            )
        events += self._start_turn(state)
        return events

    def _start_turn(self, state: BattleCardState) -> list[Event]:
        """Turn step 1 begins: the cities that hold both sides must each fight once."""
        state.step = _COMBAT
        held = {unit.city for unit in state.units.values()}
        german = state.german
        state.combats_left = [
            city
            for city in state.card.cities
            if city in held and german.get(city) is not None
        ]
        events: list[Event] = [LazyEvent("turn", (state.turn,), turn_words, turn_data)]
        if not state.combats_left:
            events.append(Event("combat", "no city holds both sides: no combat this turn"))
            events += self._reinforce(state)
        return events

    def _fight(self, state: BattleCardState, command: Fight, dice: Dice) -> list[Event]:
        """Turn step 1 (Combat): compare strengths, roll 1d6, apply the combat results table."""
        if command.city not in state.combats_left:
            if command.city in state.card.cities and (
                state.unit_in(command.city) is not None
                and state.german.get(command.city) is not None
            ):
                why = f"{command.city} has already fought this turn"
            else:
                why = f"{command.city} does not hold both an Allied and a German unit"
            raise IllegalMove(
                "Turn step 1",
                f"no combat at {command.city}: {why}",
                [str(c) for c in self.legal(state)],
            )
        city = command.city
        attack = command.attack
        unit = state.unit_in(city)
        german = state.german[city]
        assert unit is not None and german is not None
        allied = unit.strength
        row = "allied" if allied > german else "german" if german > allied else "equal"
        (face,) = dice.roll(6, 1, fight_label(city, attack, allied, german))
        allied_change, german_change, control = state.card.combat[(attack, row, face)]
        unit.strength = allied + allied_change
        state.german[city] = max(1, german + german_change)  # "cannot be less than 1"
        refused = (
            control and unit.strength < 1 and "no-control-when-destroyed" in state.options
        )
        if control and not refused:
            state.control[city] = ALLIED_CONTROL
        events: list[Event] = [
            LazyEvent(  # the words and data are made only if someone reads them
                "combat",
                (city, attack, unit.id, allied, german, row, face,
                 allied_change, german_change, control, refused),
                combat_words,
                combat_data,
            )
        ]
        if unit.strength < 1:
            del state.units[unit.id]
            state.removed.append(unit.id)
            events.append(
                Event("eliminated", f"{unit.id} is removed from the map", {"unit": unit.id})
            )
        state.combats_left.remove(city)
        if not state.units:
            self._end(state, "loss", "all Allied forces have left the game")
            events.append(Event("end", "the game is lost: all Allied forces have left the game"))
            return events
        if not state.combats_left:
            events += self._reinforce(state)
        return events

    def _reinforce(self, state: BattleCardState) -> list[Event]:
        """Turn step 2 (German Reinforcement): +1 to each German unit, from the topmost city
        down."""
        events: list[Event] = []
        arnhem, nijmegen = "Arnhem", "Nijmegen"
        germans, control, options = state.german, state.control, state.options
        top = state.card.max_strength
        for city in state.card.top_down:
            german = germans.get(city)
            if german is None:
                continue
            if city == nijmegen and arnhem in control:
                wanted = (
                    ALLIED_CONTROL if "nijmegen-needs-allied-arnhem" in options else GERMAN_CONTROL
                )
                if control[arnhem] != wanted:
                    taken = "check-grown-cities-only" not in options and _german_control(
                        state, city, german
                    )
                    facts = (city, german, control[arnhem] == ALLIED_CONTROL, taken)
                    events.append(
                        LazyEvent("reinforcement", facts, held_back_words, held_back_data)
                    )
                    continue
            germans[city] = grown = top if german >= top else german + 1
            taken = _german_control(state, city, grown)
            events.append(
                LazyEvent("reinforcement", (city, german, grown, taken), grown_words, grown_data)
            )
        state.step = _MOVEMENT
        return events

    def _refused_move(self, state: BattleCardState, why: str) -> IllegalMove:
        """Turn step 3: a move the card does not allow, with the moves it does (listed only now)."""
        return IllegalMove("Turn step 3", why, [str(c) for c in self.legal(state)])

    def _move(self, state: BattleCardState, command: Move) -> list[Event]:
        """Turn step 3 (Allied Movement): 30th Corps, or a unit with it, to an adjacent location."""
        card = state.card
        if command.unit == card.corps:
            where = state.corps
        elif command.unit in state.units:
            where = state.units[command.unit].city
        else:
            raise self._refused_move(state, f"{command.unit} has left the game")
        if command.origin is not None and command.origin != where:
            raise self._refused_move(state, f"{command.unit} is in {where}, not {command.origin}")
        to = command.destination
        if not card.adjacent(where, to):
            raise self._refused_move(state, f"{to} is not adjacent to {where}")
        if command.unit == card.corps:
            if to not in card.cities or not state.allied_controls(to):
                raise self._refused_move(
                    state,
                    f"30th Corps may move only to a location under Allied control; {to} is not",
                )
            state.corps = to
            events = [
                Event("move", f"30th Corps moves {where}->{to}", {"unit": card.corps, "to": to})
            ]
            if state.german.get(to) is not None:
                state.german[to] = None
                events.append(Event("removed", f"the German unit in {to} is removed from the game"))
            if to == card.route[-1]:
                self._end(state, "win", f"30th Corps reached {to}")
                events.append(Event("end", f"the game is won: 30th Corps reached {to}"))
            return events
        if where != state.corps:
            raise self._refused_move(
                state,
                f"{command.unit} may move only while 30th Corps is with it "
                f"(30th Corps is in {state.corps})",
            )
        if to not in card.cities:
            raise self._refused_move(state, f"Allied units stay in the cities; {to} is not one")
        unit = state.units[command.unit]
        other = state.unit_in(to)
        unit.city = to
        events = [Event("move", f"{unit.id} moves {where}->{to}", {"unit": unit.id, "to": to})]
        if other is not None:
            total = min(card.max_strength, other.strength + unit.strength)
            events.append(
                Event(
                    "merge",
                    f"{unit.id} joins {other.id} in {to}: {other.strength} + "
                    f"{unit.strength} = {total}"
                    + (
                        " (a die shows at most 6)" if total < other.strength + unit.strength else ""
                    ),
                    {"unit": unit.id, "into": other.id, "strength": total},
                )
            )
            other.strength = total
            del state.units[unit.id]
            state.removed.append(unit.id)
        return events

    def _after_movement(self, state: BattleCardState) -> list[Event]:
        if state.box == "fog" and self._landing_unit(state):
            state.step = _LANDING
            return []
        return self._next_turn(state)

    def _landing_unit(self, state: BattleCardState) -> list[AlliedUnit]:
        if "landing-all-units" in state.options:
            return list(state.units.values())
        first = state.units.get(state.card.first_airborne)
        return [first] if first else []

    def _landing(self, state: BattleCardState, dice: Dice) -> list[Event]:
        """Turn step 4 (Airborne Landing): on a roll at most the turn, the first airborne grows."""
        (face,) = dice.roll(6, 1, "landing")
        target = state.turn - 1 if "landing-turns-completed" in state.options else state.turn
        if face <= target:
            names = []
            for unit in self._landing_unit(state):
                unit.strength = min(state.card.max_strength, unit.strength + 1)
                names.append(f"{unit.id} now {unit.strength}")
            state.box = "clear"
            event = Event(
                "landing",
                f"landing roll {face} (needs {target} or less): success, "
                + ", ".join(names)
                + "; the turn die moves to Clear",
                {"roll": face, "target": target, "success": True},
            )
        else:
            event = Event(
                "landing",
                f"landing roll {face} (needs {target} or less): still fog",
                {"roll": face, "target": target, "success": False},
            )
        return [event, *self._next_turn(state)]

    def _next_turn(self, state: BattleCardState) -> list[Event]:
        """Turn step 5 (Next Turn); six completed turns lose the game."""
        if state.turn >= state.card.turns:
            self._end(state, "loss", f"{state.card.turns} turns are complete")
            return [Event("end", f"the game is lost: {state.card.turns} turns are complete")]
        state.turn += 1
        return self._start_turn(state)

    def _end(self, state: BattleCardState, result: str, reason: str) -> None:
        state.step = _OVER
        state.result = result
        state.reason = reason
        state.combats_left = []

    # -- reading lines (the views of a state: ``views.CardViews``) ----------------------

    def quick_tree(self, line: str) -> Tree[Any] | None:
        """A plain action line read without Lark: the very tree Lark gives it, or None
        (``quickparse.action_tree``; issue 31)."""
        return action_tree(line)
