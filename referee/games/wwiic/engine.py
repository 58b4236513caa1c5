"""The WWII Commander: Market-Garden engine: setup (3), the sequence of play (4), space control
(5), activation and movement (4, 6, in ``activation``/``movement``), combat (7, in
``battle``/``combat``), supply (8, ``supply``), reinforcements and replacements (9, 10,
``arrivals``) and victory (11, ``victory``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

from lark import Tree

from referee.core.dice import Dice
from referee.core.engine import REFEREE, Event, GameInfo, RollNeed, Side
from referee.core.errors import GameOver, HeaderError, IllegalMove
from referee.core.log import ActionLine
from referee.core.names import normalise
from referee.games.wwiic import battle, dice_needed
from referee.games.wwiic.activation import activate, commit, few
from referee.games.wwiic.arrivals import (
    place_unit,
    placement_refusal,
    placements,
    replace,
    replacement_options,
    settle_start,
)
from referee.games.wwiic.board import ALLIED, GERMAN, SPACE, Board, bundled_board
from referee.games.wwiic.commands import (
    Activate,
    Attack,
    Breakthrough,
    Command,
    Hits,
    MoveOut,
    NoAttack,
    Pass,
    Reinforce,
    Replace,
    Retreat,
    UnitMove,
    WeatherRoll,
    build,
    register_labels,
)
from referee.games.wwiic.legal import activations
from referee.games.wwiic.mapview import MapView
from referee.games.wwiic.movement import Walk, run_move
from referee.games.wwiic.position import (
    SetupStatement,
    build_setup,
    check_position,
    place,
    position_lines,
    start_position,
)
from referee.games.wwiic.quickline import action_line
from referee.games.wwiic.quickparse import quick_tree
from referee.games.wwiic.refusal import Refusal
from referee.games.wwiic.report import invariants, moves_by_unit, state_json
from referee.games.wwiic.sequence import (
    end_impulse,
    has_unspent,
    may_pass,
    opening,
    start_of_turn,
)
from referee.games.wwiic.state import Phase, WState
from referee.games.wwiic.unitmoves import activatable, unit_options
from referee.games.wwiic.victory import outcome

if TYPE_CHECKING:
    from rich.console import RenderableType

    from referee.core.ownscenario import ScenarioFile

SCENARIOS = ("market-garden",)


class WWIICEngine:
    """The Engine of WWII Commander: Market-Garden (two players: Allied and German)."""

    grammar = "wwiic.lark"
    info = GameInfo(
        id="wwiic",
        title="WWII Commander: Market-Garden",
        rulebook="wwii-commander-market-garden.txt",
        sides=(ALLIED, GERMAN),
        scenarios=SCENARIOS,
        sequence="4",  # 4. Sequence of Play
        ending="11",  # 11. Victory
        coverage=(
            "sections 3-11: setup, sequence of play, activation, passing, time track, space "
            "control, movement (6.1-6.5), combat (7), supply (8), reinforcements (9), "
            "replacements (10), victory (11)"
        ),
    )

    def __init__(self) -> None:
        self._board: Board | None = None

    @property
    def policies(self) -> dict[str, Any]:
        """Self-play policies beyond the random one (``referee simulate``)."""
        from referee.games.wwiic.policy import POLICIES

        return dict(POLICIES)

    def random_command(self, state: WState, rng: random.Random) -> Command:
        """A random legal command drawn without listing every joint activation (self-play's
        random policy: a side, then one of its units, then one of that unit's moves)."""
        from referee.games.wwiic.policy import random_command

        return random_command(self, state, rng)

    def with_scenario_file(self, file: ScenarioFile) -> WWIICEngine:
        """The engine on a scenario of the user's own (``variant.py``): ScenarioError lists
        every problem of the file.  The printed names stay the bundled board's."""
        from referee.games.wwiic.variant import variant_board

        self.board  # noqa: B018 - registers the bundled board's printed names
        engine = WWIICEngine()
        engine._board = variant_board(file)
        return engine

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = bundled_board()
            register_labels(self._board)
        return self._board

    # -- setup -------------------------------------------------------------------------------

    def setup(self, scenario: str | None, options: Mapping[str, str]) -> WState:
        if scenario is not None and normalise(scenario) not in {normalise(s) for s in SCENARIOS}:
            raise HeaderError(
                f"WWII Commander has no scenario '{scenario}'; it knows "
                + ", ".join(SCENARIOS)
            )
        for option in options:
            raise HeaderError(f"unknown option '{option}'; WWII Commander has no options yet")
        return opening(self.board)

    def copy(self, state: WState) -> WState:
        return state.copy()

    # -- who acts and what they may do -------------------------------------------------------

    def to_act(self, state: WState) -> Side | None:
        phase = state.phase
        if phase is Phase.IMPULSE:  # the commonest, asked twice a line
            return state.side
        if phase is Phase.OVER:
            return None
        if phase is Phase.WEATHER:
            return REFEREE
        if phase is Phase.MOVE_OUT:
            return ALLIED
        if phase is Phase.BATTLE:
            return battle.to_act(state)
        return state.side

    def legal(self, state: WState) -> Iterable[Command]:
        """Every legal command: a list, except in an impulse, where it is a generator."""
        board = self.board
        phase = state.phase
        if phase is Phase.WEATHER:
            return [WeatherRoll()]
        if phase is Phase.MOVE_OUT:
            return list(self._move_outs(state))
        if phase is Phase.COMBAT:
            combat = state.combat
            assert combat is not None
            attacks: list[Command] = [Attack(s) for s in combat.mandatory + combat.optional]
            return attacks if combat.mandatory else [*attacks, NoAttack()]
        if phase is Phase.BATTLE:
            return battle.legal(board, state)
        if phase is Phase.REINFORCE:
            unit = state.arrivals[0]
            return [Reinforce(unit, s) for s in placements(board, state, unit)]
        if phase is Phase.REPLACE:
            return [Replace(u) for u in replacement_options(board, state)]
        if phase is Phase.IMPULSE:
            # Lazily: each unit alone, the pass, then the pairs (hundreds of thousands of
            # joint moves where two units share a space); callers take a page of them.
            between: list[Command] = [Pass()] if may_pass(board, state) else []
            return activations(board, MapView(board, state), state.side, between)
        return []

    def _move_outs(self, state: WState) -> list[MoveOut]:
        board = self.board
        found: list[MoveOut] = []
        mapview = MapView(board, state)
        for unit in board.unit_order:
            if not self._red_devil(state, unit):
                continue
            here = state.location[unit]
            assert here is not None
            for nxt in board.exits[here]:
                if board.kind[nxt] != SPACE or mapview.units_in(nxt):
                    continue
                mark = mapview.mark()
                refusal, _ = self._move_out_run(mapview, unit, (nxt,))
                mapview.undo(mark)
                if refusal is None:
                    found.append(MoveOut(UnitMove(unit, (nxt,), start=here)))
        return found

    @staticmethod
    def _move_out_run(mapview: MapView, unit: str, path: tuple[str, ...]) -> tuple[
            Refusal | None, Walk]:
        """3.H's move: section 6 for the map's boundaries (no unbridged river; the foot
        crossing), but not 6.1's limits on leaving a contested space: 3.H itself says where
        the unit goes ("an adjacent empty space, placing an Allied control marker there"),
        so a unit in contested Wolfheze may move out (reading R1)."""
        here = mapview.loc[unit]
        assert here is not None
        enemies = mapview.n_german.get(here, 0)
        mapview.n_german[here] = 0
        try:
            refusal, walk = run_move(mapview, unit, path, False, None)
        finally:
            mapview.n_german[here] = enemies
        if (refusal is None and enemies and mapview.controller(here) == ALLIED
                and not mapview.has(here, ALLIED)):
            mapview.set_control(here, GERMAN)  # 5: the last Allied unit left the space
        return refusal, walk

    def _red_devil(self, state: WState, unit: str) -> bool:
        info = self.board.units[unit]
        place = state.location[unit]
        return (
            info.side == ALLIED and info.formation == self.board.first_airborne
            and self.board.is_space(place)
        )

    def forced(self, state: WState) -> Command | None:
        if state.phase is Phase.WEATHER:
            return WeatherRoll()
        if state.phase is Phase.IMPULSE and not has_unspent(self.board, state, state.side):
            return Pass()
        if state.phase is Phase.BATTLE:  # one answer? (asked up to the second)
            options = list(islice(battle.options(self.board, state), 2))
            if len(options) == 1:
                return options[0]
        elif state.phase in (Phase.REINFORCE, Phase.REPLACE):
            options = list(self.legal(state))
            if len(options) == 1:
                return options[0]
        return None

    def noted(self, events: Sequence[Event]) -> dict[str, Any]:
        """``expect last.hits`` after an attack: the hits it scores on the defender once the
        terrain has taken its share (7.4), not the sum of both sides' fire."""
        for event in events:
            if event.kind == "combat-hits":
                return {"hits": event.data["defender_hits_applied"]}
        return {}

    def decision(self, state: WState) -> str:
        board = self.board
        phase = state.phase
        if phase is Phase.MOVE_OUT:
            return (
                "Red Devils Move Out (3.H): move one British 1st Airborne unit to an adjacent "
                "empty space (move-out UNIT FROM->TO)"
            )
        if phase is Phase.WEATHER:
            return f"the weather roll of Game-turn {state.turn}: one d10 (weather)"
        if phase is Phase.COMBAT:
            assert state.combat is not None
            parts = [f"must attack at {board.name(s)}" for s in state.combat.mandatory]
            parts += [f"may attack at {board.name(s)}" for s in state.combat.optional]
            text = "; ".join(parts)
            if state.combat.mandatory:
                return text + " (7: attack SPACE)"
            return text + " (7: attack SPACE), or decline (no attack)"
        if phase is Phase.BATTLE:
            return battle.decision(board, state)
        if phase is Phase.REINFORCE:
            unit = state.arrivals[0]
            where = " or ".join(board.name(s) for s in placements(board, state, unit))
            return f"place reinforcement {unit} (9): {where} (reinforce {unit} SPACE)"
        if phase is Phase.REPLACE:
            points = state.replacements.get(state.side, 0)
            return (f"{state.side.capitalize()} replacements (10): assign {points} point"
                    f"{'s' if points != 1 else ''} (replace UNIT, ...; or replace none)")
        if phase is Phase.IMPULSE:
            number = state.impulses()[state.side] + 1
            head = f"{state.side.capitalize()} impulse {number} of Game-turn {state.turn}: "
            if not has_unspent(board, state, state.side):
                return head + "pass (every unit is spent)"
            text = head + "activate one or two unspent units"
            return text + (", or pass" if may_pass(board, state) else " (passing not allowed)")
        return "nothing: the game is over"

    # -- applying commands -------------------------------------------------------------------

    def rolls_needed(self, state: WState, command: Command | None) -> list[RollNeed]:
        return dice_needed.rolls_needed(self.board, state, command)

    def apply(self, state: WState, command: Command, dice: Dice) -> list[Event]:
        if state.phase is Phase.OVER:
            reason = state.result["reason"] if state.result else "Game-turn 13 has ended"
            raise GameOver(f"the game is over: {reason}")
        # The command works on ``state`` itself: a refused one may leave it part-changed, and
        # the caller's copy is the undo (the replay driver copies once before every line;
        # Engine.apply): a second copy here was the most of a line's cost (issue 31).
        return self._dispatch(state, command, dice)

    def _dispatch(self, work: WState, command: Command, dice: Dice) -> list[Event]:
        phase = work.phase
        board = self.board
        if phase is Phase.IMPULSE:  # the commonest lines, as the checks below would take them
            if isinstance(command, Activate):
                return activate(board, work, command)
            if isinstance(command, Pass):
                return self._pass(work)
        events: list[Event] = []
        if phase is Phase.BATTLE or isinstance(command, Hits | Retreat | Breakthrough):
            if phase is not Phase.BATTLE:
                rule = {Hits: "7.5", Retreat: "7.6", Breakthrough: "7.7"}[type(command)]
                raise IllegalMove(rule, f"there is no combat waiting for '{command}'; now: "
                                  f"{self.decision(work)}")
            battle.apply(board, work, command, events)
            return events
        if phase is Phase.REINFORCE or isinstance(command, Reinforce):
            return self._reinforce(work, command)
        if phase is Phase.REPLACE or isinstance(command, Replace):
            if not isinstance(command, Replace) or phase is not Phase.REPLACE:
                raise IllegalMove("10", f"'{command}' is not the decision now: "
                                  f"{self.decision(work)}")
            replace(board, work, command.units, events)
            settle_start(board, work, events)
            return events
        if isinstance(command, Attack):
            if phase is not Phase.COMBAT:
                raise IllegalMove("7", "an attack comes after an impulse's movement, in a space "
                                  "with the active units and enemy units; now: "
                                  + self.decision(work))
            battle.start(board, work, command.space, dice, events)
            return events
        if isinstance(command, WeatherRoll):
            if phase is not Phase.WEATHER:
                raise IllegalMove(
                    "4", "the weather is rolled at the start of a game-turn, from Game-turn 2 "
                    f"on; now: {self.decision(work)}",
                )
            (roll,) = dice.roll(10, 1, f"weather, Game-turn {work.turn}")
            start_of_turn(self.board, work, roll, events)
            return events
        if phase is Phase.WEATHER:
            raise IllegalMove("4", f"Game-turn {work.turn} starts with the weather roll (weather)")
        if isinstance(command, MoveOut):
            return self._move_out(work, command)
        if phase is Phase.MOVE_OUT:
            raise IllegalMove(
                "3.H", "the game's first action is Red Devils Move Out: move one British 1st "
                "Airborne unit to an adjacent empty space",
                few(self.legal(work)),
            )
        if phase is Phase.COMBAT:
            return self._combat_step(work, command)
        if isinstance(command, NoAttack):
            raise IllegalMove("4", "there is no attack to decline: no impulse's movement is "
                              "waiting for its attacks")
        if isinstance(command, Pass):
            return self._pass(work)
        assert isinstance(command, Activate)
        return activate(board, work, command)

    def _reinforce(self, work: WState, command: Command) -> list[Event]:
        """9: the owner's choice of where a reinforcement enters."""
        board = self.board
        if not isinstance(command, Reinforce) or work.phase is not Phase.REINFORCE:
            raise IllegalMove("9", f"'{command}' is not the decision now: {self.decision(work)}")
        unit = work.arrivals[0]
        options = placements(board, work, unit)
        if command.unit != unit:
            raise IllegalMove("9", f"the reinforcement to place now is {unit}, not "
                              f"{command.unit}", few(self.legal(work)))
        if command.space not in options:
            raise IllegalMove(
                "9", f"{unit} can't be placed in {board.name(command.space)}: "
                + placement_refusal(board, work, unit, command.space), few(self.legal(work)),
            )
        events: list[Event] = []
        place_unit(board, work, unit, command.space, events)
        settle_start(board, work, events)
        return events

    def _pass(self, work: WState) -> list[Event]:
        board = self.board
        if not may_pass(board, work):
            raise IllegalMove(
                "4", "the Allied player may pass only when all Allied units are spent or the "
                "German player passed in the impulse before; activate at least one unit (it "
                "may stay where it is)",
            )
        events = [Event("pass", f"{work.side.capitalize()} passes", {"side": work.side})]
        end_impulse(board, work, events, passed=True)
        return events

    def _combat_step(self, work: WState, command: Command) -> list[Event]:
        combat = work.combat
        assert combat is not None
        if not isinstance(command, NoAttack):
            raise IllegalMove(
                "4", f"'{command}' must wait: the impulse's attacks come first: "
                f"{self.decision(work)}",
            )
        if combat.mandatory:
            where = ", ".join(self.board.name(s) for s in combat.mandatory)
            raise IllegalMove(
                "4", f"active units in an enemy-controlled space must attack the enemy units "
                f"there: attack at {where}",
            )
        events = [Event("no-attack", f"{work.side.capitalize()} declines to attack")]
        end_impulse(self.board, work, events, passed=False)
        return events

    def _move_out(self, work: WState, command: MoveOut) -> list[Event]:
        board = self.board
        if work.phase is not Phase.MOVE_OUT:
            raise IllegalMove("3.H", "the Red Devils move out once, as the first action of the "
                              "game")
        move = command.move
        unit = move.unit
        if not self._red_devil(work, unit):
            raise IllegalMove(
                "3.H", f"{unit} is not an on-map unit of the British 1st Airborne formation",
                few(self.legal(work)),
            )
        here = work.location[unit]
        assert here is not None
        if move.start is not None and move.start != here:
            raise IllegalMove("3.H", f"{unit} is in {board.name(here)}, not "
                              f"{board.name(move.start)}")
        if len(move.path) != 1 or board.kind[move.path[0]] != SPACE:
            raise IllegalMove("3.H", f"{unit} moves out to one adjacent space")
        there = move.path[0]
        mapview = MapView(board, work)
        if there in board.exits[here] and mapview.units_in(there):
            raise IllegalMove(
                "3.H", f"{board.name(there)} is not empty: the Red Devils move out into an "
                "adjacent empty space", few(self.legal(work)),
            )
        refusal, _ = self._move_out_run(mapview, unit, move.path)
        if refusal is not None:
            raise IllegalMove(refusal.rule, refusal.message, few(self.legal(work)))
        events = commit(board, work, mapview, [(unit, here, move.path)])
        events.insert(0, Event(
            "move-out", f"Red Devils Move Out: {unit} {board.name(here)}->{board.name(there)} "
            "(not activated)", {"unit": unit, "path": [here, there]},
        ))
        work.phase = Phase.IMPULSE
        work.side = work.initiative
        return events

    def confirm(self, state: WState, side: str, command: Any) -> list[Event] | None:
        """``hits none`` as a statement (7.5): a club writes the hits line of every combat,
        even when the terrain took every hit away.  Outside a combat's decisions it is true
        (no hits wait for anyone) and is recorded; during one, it is the ordinary answer, and
        the combat refuses it if that side still owes hits."""
        if not isinstance(command, Hits) or command.units or state.phase is Phase.BATTLE:
            return None
        return [Event("statement", f"{side.capitalize()} states no hits: none are waiting "
                      "(7.5)", {"side": side, "hits": 0})]

    def out_of_turn(self, state: WState, command: Any) -> IllegalMove | None:
        """Why a roll written in the log is not made now, when a rule says so: Game-turn 1
        has no weather roll (4, Sequence of Play step 2: the weather is clear on turn 1).
        The replay driver asks before calling it the wrong side."""
        if isinstance(command, WeatherRoll) and state.turn == 1:
            return IllegalMove(
                "4", "Game-turn 1 has no weather roll: its weather is clear (Sequence of Play, "
                "step 2); the German player rolls for the weather from Game-turn 2 on",
            )
        return None

    # -- parsing, results and views -----------------------------------------------------------

    def quick_tree(self, line: str) -> Tree[Any] | None:
        """A plain action line or turn assertion read without Lark: the very tree Lark gives
        it, or None (``quickparse.quick_tree``; issue 31)."""
        return quick_tree(line)

    def quick_line(self, number: int, line: str) -> ActionLine | None:
        """The entry of a plain action line made without a tree (``quickline.py``), or
        None for the long way (issue 31)."""
        return action_line(self.board, number, line)

    def build_command(self, tree: Tree[Any], text: str) -> Command:
        return build(self.board, tree)

    # -- positions (setup lines) --------------------------------------------------------------

    def build_setup(self, tree: Tree[Any], text: str) -> SetupStatement:
        return build_setup(tree, self.board)

    def place(self, state: WState, statement: SetupStatement) -> None:
        """One setup statement; all or nothing, like a command."""
        work = state.copy()
        start_position(work)
        place(self.board, work, statement)
        state.take(work)

    def check_position(self, state: WState) -> list[str]:
        return check_position(self.board, state)

    def position(self, state: WState) -> list[str]:
        return position_lines(self.board, state)

    def outcome(self, state: WState) -> dict[str, Any]:
        return outcome(self.board, state)

    def to_json(self, state: WState) -> dict[str, Any]:
        return state_json(self.board, state, self.to_act(state))

    def json_parts(self, state: WState) -> dict[str, Callable[[], Any]]:
        """The small top-level values of ``to_json``, each computed only when an ``expect``
        or ``turn`` line asks for it (the replay makes the whole JSON for the others)."""
        board = self.board
        return {
            "game": lambda: "wwiic",
            "scenario": lambda: state.scenario,
            "turn": lambda: state.turn,
            "half": lambda: board.half(state.turn),
            "date": lambda: board.date(state.turn),
            "phase": lambda: str(state.phase),
            "weather": lambda: state.weather,
            "initiative": lambda: state.initiative,
            "impulse": lambda: state.time,
            "to_act": lambda: self.to_act(state),
            "last_pass": lambda: state.last_pass,
        }

    def render(self, state: WState) -> Sequence[RenderableType]:
        from referee.games.wwiic.render import render  # rich tables: only when shown

        return render(self.board, state, self.to_act(state), self.decision(state))

    def invariants(self, state: WState) -> list[str]:
        return invariants(self.board, state)

    def moves(self, state: WState) -> list[dict[str, Any]]:
        """For ``referee moves``: each unit the side to act may activate and where it can go
        (single moves, two-space moves, strategic moves), grouped by unit."""
        if state.phase is not Phase.IMPULSE:
            return []
        mapview = MapView(self.board, state)
        return moves_by_unit(
            self.board,
            {u: unit_options(mapview, u) for u in activatable(self.board, mapview, state.side)},
        )


ENGINE = WWIICEngine()
