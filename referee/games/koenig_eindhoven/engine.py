"""The Paul Koenig's Market-Garden: Eindhoven Bridge engine: set-up (3.0), the sequence of
play (4.0), paratroop landings (5.0), support points (6.0), the Command Cup and Operations
(7.0-7.2), movement (8.0-8.5), the night redeployment (4.0), fire combat (9.0-9.2.3, in
``combat``), close combat (10.0-11.2, in ``closecombat``) and victory (12.0) after turn 10.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from itertools import islice
from typing import TYPE_CHECKING, Any

from lark import Tree

from referee.core.dice import Dice
from referee.core.engine import REFEREE, Event, GameInfo, RollNeed, Side
from referee.core.errors import GameOver, HeaderError, IllegalMove
from referee.core.names import normalise
from referee.games.koenig_eindhoven import closecombat, combat, dice_needed
from referee.games.koenig_eindhoven.board import (
    ALLIED,
    DEFAULT_SCENARIO,
    GERMAN,
    NEVER,
    Board,
    engine_board,
)
from referee.games.koenig_eindhoven.commands import (
    Capture,
    Command,
    Draw,
    End,
    Fire,
    HitUnit,
    Landing,
    Move,
    Retreat,
    Roll,
    Round,
    Stay,
    Support,
    SupportRoll,
    build,
)
from referee.games.koenig_eindhoven.legal import (
    choosing,
    legal,
    moves_by_unit,
    only_end,
    random_legal,
)
from referee.games.koenig_eindhoven.operations import apply_move, check_fire, end_activation
from referee.games.koenig_eindhoven.position import (
    SetupStatement,
    build_setup,
    check_position,
    place,
    position_lines,
)
from referee.games.koenig_eindhoven.quickparse import quick_tree
from referee.games.koenig_eindhoven.report import invariants, state_json
from referee.games.koenig_eindhoven.retreats import CLOSE, retreat_hexes
from referee.games.koenig_eindhoven.sequence import (
    advance,
    housekeeping,
    landing_due,
    night,
    opening,
)
from referee.games.koenig_eindhoven.state import (
    ALLIED_SUPPORT,
    ARTILLERY,
    LANDING_PHASE,
    OPERATIONS_PHASE,
    OVER_PHASE,
    REDEPLOYMENT_PHASE,
    SUPPORT_PHASE,
    US_MACHINE_GUNS,
    KState,
)
from referee.games.koenig_eindhoven.state import NEVER as NEVER_ARRIVED
from referee.games.koenig_eindhoven.victory import final_result

if TYPE_CHECKING:
    from rich.console import RenderableType

    from referee.core.ownscenario import ScenarioFile

SCENARIOS = (DEFAULT_SCENARIO,)
OPTIONS = {US_MACHINE_GUNS: "14.3.1"}
"""The optional rules a log may switch on with ``[Option "..."]``, and their cases."""


class KoenigEngine:
    """The Engine of Eindhoven Bridge (two players: Allied and German)."""

    grammar = "koenig_eindhoven.lark"
    info = GameInfo(
        id="koenig-eindhoven",
        title="Paul Koenig's Market-Garden: Eindhoven Bridge",
        rulebook="koenig-eindhoven-bridge.txt",
        sides=(ALLIED, GERMAN),
        scenarios=SCENARIOS,
        sequence="4.0",  # [4.0] Sequence of Play
        ending="12.0",  # [12.0] How to Win
        coverage=(
            "set-up (3.0), sequence of play (4.0) with day and night turns and the German "
            "night redeployment, paratroop landings (5.0), support points (6.0-6.2), the "
            "Command Cup and Operations (7.0-7.2), movement (8.0-8.4, Exclusive 8.5), "
            "fire combat (9.0-9.2.3, Exclusive 9.1.1), close combat (10.0-10.3), retreats "
            "and Capture! (11.0-11.2), victory (12.0); optional rule 14.3.1 (US machine guns "
            "across rivers) with [Option \"us-machine-guns\"]"
        ),
    )

    def __init__(self, board: Board | None = None) -> None:
        self._board = board
        """A board other than the bundled scenario's (the tests' fixture maps)."""

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = engine_board()
        return self._board

    @property
    def policies(self) -> dict[str, Any]:
        """The self-play policies, each playing on this engine's board (the policy module
        knows no engine: imports point down)."""
        from referee.games.koenig_eindhoven.policy import POLICIES

        return {name: partial(policy, board=self.board) for name, policy in POLICIES.items()}

    def random_command(self, state: KState, rng: random.Random) -> Command:
        """``referee simulate --policy random``: a uniform choice among an attack's answers,
        else ``random_legal``'s draw (which searches only the moves of the unit it picks)."""
        if state.battle is not None:
            options = self._battle_legal(state)
            return options[rng.randrange(len(options))]
        return random_legal(self.board, state, rng)

    # -- setup ---------------------------------------------------------------------------

    def setup(self, scenario: str | None, options: Mapping[str, str]) -> KState:
        if scenario is not None and normalise(scenario) not in {normalise(s) for s in SCENARIOS}:
            raise HeaderError(f"Eindhoven Bridge has no scenario '{scenario}'; it knows "
                              + ", ".join(SCENARIOS))
        for option in options:
            if option not in OPTIONS:
                raise HeaderError(f"unknown option '{option}'; Eindhoven Bridge knows "
                                  + ", ".join(f"{o} ({rule})" for o, rule in OPTIONS.items()))
        state = opening(self.board, DEFAULT_SCENARIO)
        state.options = frozenset(options)
        advance(self.board, state, [])
        return state

    def with_scenario_file(self, file: ScenarioFile) -> KoenigEngine:
        """The engine on a scenario of the user's own (``variant.py``): ScenarioError lists
        every problem of the file."""
        from referee.games.koenig_eindhoven.variant import variant_board

        return KoenigEngine(variant_board(file))

    def copy(self, state: KState) -> KState:
        return state.copy()

    # -- who acts and what they may do -----------------------------------------------------

    def to_act(self, state: KState) -> Side | None:
        phase = state.phase
        if phase is OVER_PHASE:
            return None
        if phase in (LANDING_PHASE, SUPPORT_PHASE):
            return REFEREE
        if phase is REDEPLOYMENT_PHASE:
            return GERMAN
        if state.battle is not None:
            return combat.to_act(self.board, state)
        if state.active is None:
            return REFEREE if state.cup else None
        return self.board.formations[state.active].side

    def legal(self, state: KState) -> Iterable[Command]:
        if state.battle is not None:
            return self._battle_legal(state)
        return legal(self.board, state)

    def _battle_legal(self, state: KState) -> list[Command]:
        board = self.board
        battle = state.battle
        assert battle is not None
        if battle.step in ("defensive-support", "offensive-support"):
            side = battle.attacker if battle.step == "offensive-support" else combat.other(
                battle.attacker)
            return [Support(n) for n in range(combat.support_cap(board, state, side) + 1)]
        if battle.step == "roll":
            return [Roll()]
        if battle.step == "round":
            return [Round()]
        if battle.kind == CLOSE:
            if battle.step == "retreat-forced":
                unit = battle.hit[0]
                found: list[Command] = [Retreat(unit, h)
                                        for h in closecombat.options(board, state, unit)]
                if unit == battle.attackers[0] and battle.result == "capture":
                    found.insert(0, Capture())
                return found
            unit = (battle.defenders if battle.step == "continue-defender"
                    else battle.attackers)[0]
            return [Stay(), *(Retreat(unit, h) for h in closecombat.options(board, state, unit))]
        if battle.step == "hit-defender":
            return [HitUnit(u) for u in battle.defenders if state.hex[u] == battle.target]
        if battle.step == "hit-attacker":
            return [HitUnit(u) for u in battle.attackers if state.status[u] == "in play"]
        unit = battle.hit[0]
        return [Stay(), *(Retreat(unit, h) for h in retreat_hexes(board, state, unit))]

    def forced(self, state: KState) -> Command | None:
        if state.battle is None and choosing(state):
            # Asked before every line a log replays: whether any unit can take one step,
            # not where every unit can go.
            return End() if only_end(self.board, state) else None
        options = list(islice(self.legal(state), 2))
        if len(options) == 1:
            return options[0]
        return None

    def noted(self, events: Sequence[Event]) -> dict[str, Any]:
        """``expect last.hits``: the Hits a command inflicted (9.2), one a ``hit`` event or a
        third Hit's elimination; a ``hit`` event's own ``hits`` is the unit's total."""
        return {"hits": sum(event.kind in ("hit", "eliminated") for event in events)}

    def decision(self, state: KState) -> str:
        board = self.board
        phase = state.phase
        if phase is LANDING_PHASE:
            units = ", ".join(landing_due(board, state))
            return f"Paratroop Landing rolls (5.0): one d6 for each of {units} (landing UNIT)"
        if phase is SUPPORT_PHASE:
            if not state.rolled:
                return "the German Artillery Points roll (6.1): one d6 (artillery)"
            return "the Allied Support Points roll (6.2): one d6 (allied-support)"
        if phase is REDEPLOYMENT_PHASE:
            return ("German Redeployment (4.0): move units not adjacent to enemy units up to "
                    "half their MA (redeploy UNIT FROM->HEX…), or end")
        if state.battle is not None:
            return self._battle_decision(state)
        if phase is OPERATIONS_PHASE:
            if state.active is None:
                return "draw an HQ from the Command Cup (7.0): " + ", ".join(state.cup)
            return (f"formation {state.active}'s Operations (7.0): move, combined, full-fire, "
                    "mobile-fire, or end the activation (7.2)")
        return "nothing: the game is over"

    def _battle_decision(self, state: KState) -> str:
        battle = state.battle
        assert battle is not None
        where = f"the {battle.kind} at {battle.target} (AF {battle.net})"
        if battle.kind == CLOSE:
            where = f"the Close Combat in {battle.target}"
        if battle.step == "defensive-support":
            return f"Defensive Support for {where} (9.0): support N, or support none"
        if battle.step == "offensive-support":
            return f"Offensive Support for {where} (9.0): support N, or support none"
        if battle.step == "roll":
            return f"the die of {where} (9.0): one d6 (roll)"
        if battle.kind == CLOSE:
            if battle.step == "round":
                return f"a round of {where} (10.0): the defensive die, then the offensive (round)"
            if battle.step == "retreat-forced":
                unit = battle.hit[0]
                text = f"{unit} was hit in {where} and must retreat (9.2.3): retreat {unit}->HEX"
                if unit == battle.attackers[0] and battle.result == "capture":
                    text += ", or capture (11.2)"
                return text
            unit = (battle.defenders if battle.step == "continue-defender"
                    else battle.attackers)[0]
            return f"both missed in {where} (10.0): retreat {unit}->HEX, or stay"
        if battle.step in ("hit-defender", "hit-attacker"):
            side = "defending" if battle.step == "hit-defender" else "attacking"
            return f"which {side} unit takes the Hit of {where} (9.2.2): hit UNIT"
        unit = battle.hit[0]
        return f"{unit} was hit (9.2.3): retreat {unit}->HEX (11.0, ->off 11.1), or stay"

    # -- applying commands -----------------------------------------------------------------

    def rolls_needed(self, state: KState, command: Command | None) -> list[RollNeed]:
        return dice_needed.rolls_needed(self.board, state, command)

    def apply(self, state: KState, command: Command, dice: Dice) -> list[Event]:
        if state.phase is OVER_PHASE:
            raise GameOver(str(state.result["reason"]) if state.result else "the game is over")
        # The command works on ``state`` itself: a refused one may leave it part-changed,
        # and the caller's copy is the undo (the replay driver copies once before every
        # line; Engine.apply).  A second copy here was a tenth of a replay (issue 31).
        return self._apply(state, command, dice)

    def _apply(self, work: KState, command: Command, dice: Dice) -> list[Event]:
        board = self.board
        events: list[Event] = []
        battle_commands = (Support, Roll, HitUnit, Retreat, Stay, Round, Capture)
        if work.battle is not None:
            if not isinstance(command, battle_commands):
                raise IllegalMove("9.0", "the attack's steps come first: "
                                  + self._battle_decision(work))
            self._battle(work, command, dice, events)
            advance(board, work, events)
            return events
        if isinstance(command, battle_commands):
            raise IllegalMove("9.0", f"'{command}' answers an attack's decision, and no attack "
                              "is under way")
        if isinstance(command, Landing):
            self._landing(work, command, dice, events)
        elif isinstance(command, SupportRoll):
            self._support(work, command, dice, events)
        elif isinstance(command, Draw):
            self._draw(work, dice, events)
        elif isinstance(command, Move):
            apply_move(board, work, command, events)
        elif isinstance(command, Fire):
            check_fire(board, work, command, events)
        elif isinstance(command, End):
            end_activation(board, work, events)
            if work.phase is REDEPLOYMENT_PHASE:
                housekeeping(board, work, events)
        advance(board, work, events)
        return events

    def _battle(self, work: KState, command: Command, dice: Dice, events: list[Event]) -> None:
        board = self.board
        battle = work.battle
        assert battle is not None
        step = battle.step
        if isinstance(command, Support) and step in ("defensive-support", "offensive-support"):
            side = battle.attacker if step == "offensive-support" else combat.other(
                battle.attacker)
            combat.commit_support(board, work, side, command.points, events)
        elif isinstance(command, Roll) and step == "roll":
            (face,) = dice.roll(6, 1, f"{battle.kind} at {battle.target}")
            combat.resolve(work, face, events)
        elif isinstance(command, HitUnit) and step in ("hit-defender", "hit-attacker"):
            options = [c.unit for c in self._battle_legal(work) if isinstance(c, HitUnit)]
            if command.unit not in options:
                raise IllegalMove("9.2.2", f"{command.unit} is not a unit of the side that takes "
                                  f"this Hit ({', '.join(options)})")
            combat.apply_hit(board, work, command.unit, events)
        elif isinstance(command, Round) and step == "round":
            label = f"Close Combat in {battle.target}"
            (first,) = dice.roll(6, 1, f"{label}, defensive")
            faces = [first]
            if closecombat.needs_second_die(board, work, first):
                faces += dice.roll(6, 1, f"{label}, offensive")
            closecombat.fire_round(board, work, faces, events)
        elif battle.kind == CLOSE and isinstance(command, (Retreat, Stay, Capture)) and (
                step in ("retreat-forced", "continue-defender", "continue-attacker")):
            if isinstance(command, Retreat):
                closecombat.retreat(board, work, command.unit, command.to, events)
            else:
                if isinstance(command, Capture) != (step == "retreat-forced"):
                    raise IllegalMove("11.2" if isinstance(command, Capture) else "9.2.3",
                                      f"'{command}' is not the decision now: "
                                      + self._battle_decision(work))
                unit = (battle.hit[0] if step == "retreat-forced" else battle.defenders[0]
                        if step == "continue-defender" else battle.attackers[0])
                closecombat.retreat(board, work, unit, None, events)
        elif isinstance(command, (Retreat, Stay)) and step == "retreat":
            unit = command.unit if isinstance(command, Retreat) else battle.hit[0]
            combat.retreat(board, work, unit, command.to if isinstance(command, Retreat)
                           else None, events)
        else:
            raise IllegalMove("9.0", f"'{command}' is not the decision now: "
                              + self._battle_decision(work))
        combat.settle(board, work, events)

    def _landing(self, work: KState, command: Landing, dice: Dice, events: list[Event]) -> None:
        board = self.board
        due = landing_due(board, work)
        if work.phase is not LANDING_PHASE or not due:
            raise IllegalMove("5.0", "no Paratroop Landing roll is due now")
        if command.unit != due[0]:
            raise IllegalMove("5.0", f"the next landing roll is for {due[0]} (in the order of "
                              f"the reinforcement schedule), not {command.unit}")
        (face,) = dice.roll(6, 1, f"Paratroop Landing Table, {command.unit}")
        result = board.paratroop_landing[face]
        work.landed.add(command.unit)
        if result == NEVER:
            work.status[command.unit] = NEVER_ARRIVED
            text = f"{command.unit} never arrives (Exclusive 5.0: no Victory Points)"
        else:
            hits = int(result)
            work.hits[command.unit] = hits
            text = f"{command.unit} " + (
                "arrives intact" if hits == 0 else f"will arrive with {hits} Hit{'s' * (hits > 1)}"
            )
        events.append(Event("landing", f"Paratroop Landing Table {face}: {text}",
                            {"unit": command.unit, "roll": face, "result": result}))

    def _support(self, work: KState, command: SupportRoll, dice: Dice,
                 events: list[Event]) -> None:
        board = self.board
        if work.phase is not SUPPORT_PHASE:
            raise IllegalMove("6.0", "support points are rolled in the Support Phase of day "
                              "turns only")
        expected = ARTILLERY if not work.rolled else ALLIED_SUPPORT
        if command.kind != expected:
            raise IllegalMove("6.0", "the German player rolls for Artillery Points first, then "
                              "the Allied player for Allied Support Points")
        (face,) = dice.roll(6, 1, "Artillery Points" if expected == ARTILLERY
                            else "Allied Support Points")
        table = board.artillery_points if expected == ARTILLERY else board.allied_support_points
        work.points[expected] = table[face]
        work.rolled.append(expected)
        what = "German Artillery" if expected == ARTILLERY else "Allied Support"
        rule = "6.1" if expected == ARTILLERY else "6.2"
        events.append(Event("support", f"{what} Points ({rule}): {face} gives {table[face]}",
                            {"kind": expected, "roll": face, "points": table[face]}))

    def _draw(self, work: KState, dice: Dice, events: list[Event]) -> None:
        if work.phase is not OPERATIONS_PHASE:
            raise IllegalMove("4.0", f"HQs are drawn in the Operations Phase of a day turn; "
                              f"now: {self.decision(work)}")
        if work.active is not None or not work.cup:
            raise IllegalMove("7.2", "the next HQ is drawn only when the active formation's "
                              "activation has ended (end)")
        chit = dice.draw(list(work.cup), "Command Cup")
        work.cup.remove(chit)
        work.active = chit
        side = self.board.formations[chit].side
        events.append(Event("draw", f"HQ {chit} is drawn: formation {chit} ({side}) is active "
                            "(7.0)", {"formation": chit, "side": side}))

    # -- parsing, positions, results and views ---------------------------------------------

    def quick_tree(self, line: str) -> Tree[Any] | None:
        """Lark's tree of a plain action line or turn assertion, read without Lark
        (``quickparse.py``); None for any other line."""
        return quick_tree(line)

    def build_command(self, tree: Tree[Any], text: str) -> Command:
        return build(self.board, tree)

    def build_setup(self, tree: Tree[Any], text: str) -> SetupStatement:
        return build_setup(tree, self.board)

    def place(self, state: KState, statement: SetupStatement) -> None:
        work = state.copy()
        place(self.board, work, statement)
        # A position after the last turn (phase over) carries the result of 12.0, reckoned
        # from the position as the setup lines leave it.
        work.result = final_result(self.board, work) if work.phase is OVER_PHASE else None
        state.take(work)

    def check_position(self, state: KState) -> list[str]:
        return check_position(self.board, state)

    def position(self, state: KState) -> list[str]:
        return position_lines(self.board, state)

    def outcome(self, state: KState) -> dict[str, Any]:
        if state.result is not None:
            return dict(state.result)
        return {"result": None}

    def to_json(self, state: KState) -> dict[str, Any]:
        return state_json(self.board, state, self.to_act(state))

    def json_parts(self, state: KState) -> dict[str, Callable[[], Any]]:
        return {
            "game": lambda: "koenig-eindhoven",
            "scenario": lambda: state.scenario,
            "options": lambda: sorted(state.options),
            "turn": lambda: state.turn,
            "night": lambda: night(self.board, state),
            "phase": lambda: str(state.phase),
            "to_act": lambda: self.to_act(state),
            "cup": lambda: list(state.cup),
            "active": lambda: state.active,
            "points": lambda: dict(state.points),
        }

    def render(self, state: KState) -> Sequence[RenderableType]:
        from referee.games.koenig_eindhoven.render import render

        return render(self.board, state, self.to_act(state), self.decision(state))

    def invariants(self, state: KState) -> list[str]:
        return invariants(self.board, state)

    def moves(self, state: KState) -> list[dict[str, Any]]:
        return moves_by_unit(self.board, state)


ENGINE = KoenigEngine()
