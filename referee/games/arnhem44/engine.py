"""The Arnhem '44 engine: set-up, the round (six blocks; those of the next issue named and
skipped), airborne troops and supplies (block 2), movement phases 4.1/5.1 (moving, intrusions,
fall back), combat 4.2/5.2 and withdrawal, the first round's airborne bonus, weather and
reserves (block 6).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lark import Tree

from referee.core.dice import Dice
from referee.core.engine import REFEREE, Event, GameInfo, RollNeed, Side
from referee.core.errors import GameOver, HeaderError, IllegalMove
from referee.core.names import normalise
from referee.games.arnhem44 import (
    bailey,
    barrage,
    explosives,
    ferries,
    jokers,
    movement,
    phase_two,
    reserves,
    supply,
    turns,
    victory,
)
from referee.games.arnhem44 import combat as fight
from referee.games.arnhem44 import options as veterans
from referee.games.arnhem44.board import ALLIED, GERMAN, Board, bundled_board, key_text
from referee.games.arnhem44.commands import (
    Barrage,
    CombatRoll,
    Command,
    Deploy,
    EndMovement,
    EndSetup,
    Enter,
    FallBack,
    First,
    Initiative,
    Invade,
    JokerMove,
    Move,
    NoBarrage,
    Reinforce,
    ReserveOrder,
    ReserveRoll,
    Resign,
    Reveal,
    Rig,
    Support,
    Swap,
    WeatherRoll,
    Withdraw,
    WithdrawOrder,
    build,
)
from referee.games.arnhem44.copying import peek
from referee.games.arnhem44.deployment import (
    allied_on_map_done,
    deploy_allied,
    deploy_german,
    german_missing,
)
from referee.games.arnhem44.legal import block_six_options, legal, only
from referee.games.arnhem44.position import (
    build_setup,
    check_position,
    opening,
    place,
    position_lines,
)
from referee.games.arnhem44.quickline import action_line
from referee.games.arnhem44.quickparse import action_tree
from referee.games.arnhem44.report import before_command, invariants, judge_after, state_json
from referee.games.arnhem44.sequence import (
    after_barrage,
    after_combat,
    after_explosives,
    allied_reserves_placed,
    begin_block_three,
    begin_round,
    german_reserves_placed,
    start_allied_reserves,
    start_combat,
    start_movement,
)
from referee.games.arnhem44.state import (
    AIRBORNE_PHASES,
    BAILEY,
    COMBAT,
    EXPLOSIVES,
    MOVEMENT,
    OVER,
    RESERVES,
    SETUP_ALLIED,
    SETUP_GERMAN,
    AState,
)
from referee.games.arnhem44.statement import Statement

if TYPE_CHECKING:
    from rich.console import RenderableType

    from referee.core.log import ActionLine
    from referee.core.ownscenario import ScenarioFile

EARLY = (Resign, Barrage, Initiative, NoBarrage, Swap, Rig, *phase_two.BLOCK_TWO)
"""The commands ``_dispatch`` judges before the phase's own way (a resignation, a barrage
outside phase 1, an exchange of crates, a crate rigged at set-up, a block-2 roll outside block
2): for any other, those checks change nothing."""
_EARLY: dict[type, bool] = {}
"""Each command class met: is it one of ``EARLY`` (``issubclass``, once a class)?"""

SCENARIOS = ("standard",)
MAX_ALTERNATIVES = 8


class Arnhem44Engine:
    """The Engine of Arnhem '44 (two players: Allied and German)."""

    grammar = "arnhem44.lark"
    info = GameInfo(
        id="arnhem44",
        title="Arnhem '44",
        rulebook="arnhem-44.txt",
        sides=(ALLIED, GERMAN),
        scenarios=SCENARIOS,
        sequence="A Single Round",  # "The order of play is the same in each and every round"
        ending="Winning the Game",
        players=(veterans.UK, veterans.US),  # three players (Veterans/3): uk, us, german
        coverage=(
            "set-up with the explosive crates, every block of the round: phase 1 barrage fire, "
            "jokers, airborne landings, anti-aircraft fire, supply drops, tokens and "
            "distribution (2.1-2.3), explosives 3.1-3.3 (crate values hidden, committed in play "
            "by e-mail), Bailey bridges (3.4), movement phases 4.1/5.1 (ferries), combat 4.2/5.2 "
            "and withdrawal, weather and reserves (6.1-6.3, black and green dice), winning "
            "(bridge points, major victory, elimination, resign), Veterans Only options 1-5 "
            "(option 4: bridge damage)"
        ),
    )

    def __init__(self) -> None:
        self._board: Board | None = None

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = bundled_board()
        return self._board

    def with_scenario_file(self, file: ScenarioFile) -> Arnhem44Engine:
        """The engine on a scenario of the user's own (``variant.py``)."""
        from referee.games.arnhem44.variant import variant_board

        engine = Arnhem44Engine()
        engine._board = variant_board(file)
        return engine

    def setup(self, scenario: str | None, options: Mapping[str, str]) -> AState:
        if scenario is not None and normalise(scenario) not in {normalise(s) for s in SCENARIOS}:
            raise HeaderError(f"Arnhem '44 has no scenario '{scenario}'; it knows "
                              + ", ".join(SCENARIOS))
        state = opening(self.board)
        state.options = veterans.chosen(options)
        if veterans.three_players(state):
            # Jokers: "for each player one single joker" - the UK, the US and the German
            state.jokers = {veterans.UK: 1, veterans.US: 1, GERMAN: 1}
        return state

    def two_secret_refusal(self, options: Sequence[str]) -> str | None:
        """Why a two-secret game by e-mail cannot take these options (None: it can)."""
        return veterans.two_secret_refusal(options)

    def copy(self, state: AState) -> AState:
        return state.copy()

    # -- who acts -----------------------------------------------------------------------------

    def to_act(self, state: AState) -> Side | None:
        side = self._side_to_act(state)
        if side is None or not state.options:
            return side
        if state.phase == "1":
            return barrage.firer(self.board, state, side)  # Veterans/3: who fires now
        return turns.player(state, side)

    def _side_to_act(self, state: AState) -> Side | None:
        phase = state.phase
        if phase == OVER:
            return None
        if phase == SETUP_GERMAN:
            return GERMAN
        if phase == SETUP_ALLIED:
            return ALLIED
        if phase in MOVEMENT:
            return state.mover
        if phase == "1":
            return state.barrage_turn or REFEREE
        if phase in AIRBORNE_PHASES:
            return ALLIED if phase_two.needs(self.board, state) == "collect" else REFEREE
        if phase in EXPLOSIVES:
            return GERMAN if state.explosives.attempt is not None else explosives.actor(state)
        if phase == "6.1":
            return REFEREE
        if phase == BAILEY:
            return REFEREE if bailey.pending(state) else ALLIED
        if phase == "6.2":
            return ALLIED
        if phase == "6.3":
            return GERMAN
        if state.combats:
            return REFEREE
        if not state.withdrawals:
            return REFEREE  # a position set in a combat phase with nothing left (refused)
        need = fight.waiting(self.board, state)
        if need == "roll":
            return REFEREE
        return fight.strongest(self.board, state)

    def legal(self, state: AState) -> list[Command]:
        return legal(self.board, state)

    def random_command(self, state: AState, rng: random.Random) -> Command:
        """A random legal command drawn without listing every figure's moves (self-play's
        random policy, ``policy.py``)."""
        from referee.games.arnhem44.policy import random_command

        return random_command(self, state, rng)

    def forced(self, state: AState) -> Command | None:
        phase = state.phase
        if phase == "6.2" and not state.arriving:
            return None  # the Allied player's choice of die, written with its roll
        if phase == BAILEY:
            return bailey.legal(self.board, state)[0] if bailey.pending(state) else None
        if phase == "1":
            return barrage.forced(self.board, state)  # legal()'s one command, not made all
        if phase in RESERVES:
            return only(block_six_options(self.board, state))  # not every placement made
        if phase in COMBAT or phase in AIRBORNE_PHASES:
            options = self.legal(state)
            return options[0] if len(options) == 1 else None
        if phase == SETUP_ALLIED:
            if not state.track and not allied_on_map_done(self.board, state):
                return None  # legal()'s options are figures to deploy: none is forced
            options = self.legal(state)
            return options[0] if len(options) == 1 and not isinstance(options[0], Deploy) \
                else None
        if phase == SETUP_GERMAN and not sum(german_missing(self.board, state).values()) \
                and not explosives.setup_rigs(self.board, state) \
                and not explosives.swaps(state):
            return EndSetup()
        if phase in EXPLOSIVES and state.explosives.attempt is not None:
            options = self.legal(state)  # one value only the crate can show
            return options[0] if len(options) == 1 else None
        return None

    def decision(self, state: AState) -> str:
        phase = state.phase
        board = self.board
        if phase == SETUP_GERMAN:
            missing = german_missing(board, state)
            if not sum(missing.values()):
                if state.explosives.stock:
                    return ("German set-up: crates under any bridges, values face down (rig "
                            "BRIDGE), an exchange (swap V), or end setup")
                return "German set-up complete (end setup)"
            left = ", ".join(f"{n} {k}" for k, n in missing.items() if n)
            return (f"German set-up (The German Player Goes First): deploy {left} by the set-up "
                    "table (deploy GROUPS SECTOR)")
        if phase == SETUP_ALLIED:
            if state.track:
                return "Allied set-up complete (end setup)"
            if state.pool and sum(state.pool.values()) <= 15 and not any(
                    self.legal(state)[0:1] and isinstance(c, Deploy) for c in self.legal(state)):
                return "Allied reserves R1-R15, left to right (reserve-order GROUPS)"
            return ("Allied set-up (The Allied Player's Turn to Set Up): 4 artillery and 5 "
                    "other units in each start sector (deploy GROUPS SECTOR)")
        if phase in AIRBORNE_PHASES:
            return phase_two.decision(board, state)
        if phase in MOVEMENT:
            if state.fallback is not None:
                return (f"fall back from {state.fallback.start}: support the spotted units with "
                        "unseen infantry (support GROUPS) or not (no support)")
            part = f" (the {state.part.upper()} part, Veterans/3)" if state.part else ""
            return (f"Phase {phase}{part}, round {state.round} "
                    f"({'night' if state.night else 'day'}): move, invade, fall back, or end "
                    "movement")
        if phase == "1":
            return barrage.decision(board, state)
        if phase in EXPLOSIVES:
            return explosives.decision(board, state)
        if phase == BAILEY:
            return bailey.decision(state)
        if phase == "6.1":
            return "Phase 6.1 - the weather roll for tomorrow (weather)"
        if phase == "6.2":
            if not state.arriving:
                return ("Phase 6.2 - the Allied reserve roll (reserves black"
                        + ("|green" if state.engineers else "") + ")")
            return ("Phase 6.2 - where the Allied reserves enter: "
                    + ", ".join(key_text(k) for k in state.arriving)
                    + " (enter GROUPS START-SECTOR)")
        if phase == "6.3":
            where = " above the Rhine" if state.above_rhine else ""
            return ("Phase 6.3 - place the German reserves on German flag sectors free of enemy "
                    f"troops{where}: " + ", ".join(key_text(k) for k in state.arriving)
                    + " (reinforce GROUPS SECTOR)")
        if phase in COMBAT:
            if state.combats:
                return f"the combat roll in {state.combats[0]} (combat {state.combats[0]})"
            if not state.withdrawals:
                return (f"nothing: phase {phase} has no combat and no withdrawal left (a "
                        f"position that names none is refused, Phase 4.2)")
            need = fight.waiting(board, state)
            sector = state.withdrawals[0].sector if state.withdrawals else ""
            if need == "roll":
                return f"the tie roll for the strongest side in {sector} (withdraw-order)"
            if need == "first":
                return f"which side withdraws first from {sector} (first allied|german)"
            if need == "where":
                options = [str(c) for c in self.legal(state)]
                return "a withdrawal destination: " + " or ".join(options)
        return "nothing: the game is over"

    # -- applying -----------------------------------------------------------------------------

    def rolls_needed(self, state: AState, command: Command | None) -> list[RollNeed]:
        from referee.games.arnhem44.dice_needed import rolls_needed

        return rolls_needed(self, state, command)

    def confirm(self, state: AState, side: str, command: Command) -> list[Event] | None:
        """``german: reveal V`` on the line after a defusing roll that failed whatever the
        face-down crate holds: no value is asked for then (the reading of a value shown), but
        a log written before that reading shows it there, and it is accepted, checked as any
        value shown (and in play by e-mail against the German's commitment).  None
        otherwise: an ordinary command."""
        if not isinstance(command, Reveal) or side != GERMAN:
            return None
        return explosives.show_late(state, command.value)

    def apply(self, state: AState, command: Command, dice: Dice) -> list[Event]:
        if peek(state, "explosives").shown_late is not None:  # read without copying them
            state.explosives.shown_late = None  # the value may be shown on the next line only
        if state.phase == OVER:
            reason = (state.result or {}).get("reason", "the game has ended")
            raise GameOver(f"the game is over: {reason}")
        # The command works on ``state`` itself: a refused one may leave it part-changed, and
        # the caller's copy is the undo (the replay driver copies once before every line;
        # Engine.apply).  A second copy here cost a third of an Arnhem '44 replay (issue 31).
        work = state
        if work.barrage_rolls:
            work.barrage_rolls = []  # the record is of one command's barrage (checks.py)
        part = state.part if state.phase == "4.1" else None  # Veterans/3: the movement parts
        before = turns.others(work) if part else None
        # Waterways: "At the start of the game the German player controls all of the 13
        # bridges; the German player always starts with the complete 100 points": the set-up
        # (both sides') is before the start and judges no bridge.  Taken before the command,
        # which changes the state itself.
        judged = state.phase not in (SETUP_GERMAN, SETUP_ALLIED)
        board = self.board
        was = before_command(board, state) if judged else None
        events = self._dispatch(work, command, dice)
        if before is not None:
            turns.check_own(before, work, part)
        events += supply.update_contact(work)
        veterans.update_nijmegen(board, work)
        events += ferries.update(board, work)
        if was is not None:
            events += judge_after(board, was, work)
        victory.check_end(board, work, events)
        return events

    def _dispatch(self, work: AState, command: Command, dice: Dice) -> list[Event]:
        board = self.board
        phase = work.phase
        kind = type(command)
        early = _EARLY.get(kind)
        if early is None:
            early = _EARLY[kind] = issubclass(kind, EARLY)
        if not early:  # (the checks below change nothing for it)
            return self._in_phase(work, command, dice, phase)
        if isinstance(command, Resign):
            side = self.to_act(work) or ALLIED
            if side == REFEREE:
                raise IllegalMove("Winning", "a player resigns at one of his own decisions")
            return victory.resign(board, work, veterans.side_for(side))
        if isinstance(command, Barrage) and phase != "1":
            barrage.from_disputed(work, command)  # Artillery in Disputed Sectors: any phase
        if isinstance(command, (Initiative, Barrage, NoBarrage)) and phase != "1":
            # The 1st Round: "there's NO barrage fire the first round" - said in round 1 only
            first = " (there is no phase 1 in the first round)" if work.round == 1 else ""
            raise IllegalMove("Phase 1", f"barrage fire is given in phase 1 only, at the start "
                              f"of a round{first}; now: {self.decision(work)}")
        if phase not in AIRBORNE_PHASES:
            phase_two.out_of_phase(work, command)
        if isinstance(command, Swap) and phase not in EXPLOSIVES:
            # Explosives in General: the exchange "at ANY time" (a German decision)
            if self.to_act(work) != GERMAN:
                raise IllegalMove("Explosives in General", "the German player exchanges a "
                                  "crate at one of his own decisions")
            return explosives.swap(work, command)
        if isinstance(command, Rig) and phase == SETUP_GERMAN:
            return explosives.rig(board, work, command, setup=True)
        return self._in_phase(work, command, dice, phase)

    def _in_phase(self, work: AState, command: Command, dice: Dice,
                  phase: str) -> list[Event]:
        """``command`` by the phase it is given in (``_dispatch``'s checks passed)."""
        board = self.board
        events: list[Event] = []
        if phase in EXPLOSIVES:
            events = explosives.apply(board, work, command, dice)
            if work.phase == explosives.DONE:
                after_explosives(board, work, events)
            return events
        if phase in (SETUP_GERMAN, SETUP_ALLIED):
            if isinstance(command, Deploy):
                if phase == SETUP_GERMAN:
                    return deploy_german(board, work, command)
                return deploy_allied(board, work, command)
            if isinstance(command, ReserveOrder):
                if phase == SETUP_GERMAN:
                    raise IllegalMove("SetUp/Allied", "the Allied player sets up after the "
                                      "German player")
                from referee.games.arnhem44.deployment import reserve_order

                return reserve_order(board, work, command)
            if isinstance(command, EndSetup):
                return self._end_setup(work)
            raise IllegalMove("Set Up", f"'{command}' must wait: {self.decision(work)}")
        if phase in AIRBORNE_PHASES:
            if phase_two.apply(board, work, command, dice, events):
                begin_block_three(board, work, events)
            return events
        if phase in MOVEMENT:
            if work.fallback is not None:
                if not isinstance(command, Support):
                    raise IllegalMove("Move/FallBack", f"'{command}' must wait: "
                                      f"{self.decision(work)}")
                pending = work.fallback
                events = movement.support(board, work, dice, command)
                return events + supply.picked_up(work, pending.start, [pending.dest],
                                                 command.groups)
            if isinstance(command, Move):
                events = movement.move(board, work, command)
                return events + supply.picked_up(work, command.path[0], list(command.path[1:]),
                                                 command.groups)
            if isinstance(command, JokerMove):
                return jokers.joker_move(board, work, command)
            if isinstance(command, Invade):
                events = movement.invade(board, work, dice, command)
                named = tuple(g for _, groups in command.parts for g in groups)
                return events + supply.picked_up(work, command.parts[0][0], [command.target],
                                                 named)
            if isinstance(command, FallBack):
                events = movement.fall_back(board, work, dice, command)
                if work.fallback is not None:
                    return events
                return events + supply.picked_up(work, command.start, [command.dest],
                                                 command.groups)
            if isinstance(command, EndMovement):
                if turns.end_part(work, events):
                    return events
                events.append(Event("end-movement", f"{work.mover.capitalize()} ends movement"))
                start_combat(board, work, events)
                return events
            raise IllegalMove(f"Phase {phase}", f"'{command}' is not a movement-phase command; "
                              f"now: {self.decision(work)}")
        if phase in COMBAT:
            if work.combats:
                if not isinstance(command, CombatRoll):
                    raise IllegalMove(f"Phase {phase}", f"combat comes first: "
                                      f"{self.decision(work)}")
                if command.sector != work.combats[0]:
                    raise IllegalMove(f"Phase {phase}", f"the next combat is in "
                                      f"{work.combats[0]}, not {command.sector}")
                events += fight.combat(board, work, dice, work.combats.pop(0), command.jokers)
                if not work.combats:
                    fight.settle(board, work, events)
                after_combat(board, work, events)
                return events
            need = fight.waiting(board, work)
            if isinstance(command, WithdrawOrder) and need == "roll":
                fight.tie_roll(board, work, dice, events)
            elif isinstance(command, First) and need == "first":
                fight.choose_first(board, work, command, events)
            elif isinstance(command, Withdraw) and need == "where":
                fight.withdraw(board, work, command, events)
            else:
                raise IllegalMove("RoE/Withdrawal", f"'{command}' is not the decision now: "
                                  f"{self.decision(work)}")
            after_combat(board, work, events)
            return events
        if phase == "1":
            barrage.apply(board, work, dice, command, events)
            if barrage.over(work):
                events.append(Event("phase", "Phase 1 - Barrage Fire ends: "
                                    + ("every player has" if work.part else "both players have")
                                    + " skipped", {"phase": "1"}))
                after_barrage(board, work, events)
            return events
        if phase == BAILEY:
            events, going_on = bailey.act(board, work, command, dice)
            if not going_on:
                start_movement(work, "4.1", events)
            return events
        if phase in RESERVES:
            return self._block_six(work, command, dice)
        raise IllegalMove("Round", f"'{command}' is not possible now")

    def _block_six(self, work: AState, command: Command, dice: Dice) -> list[Event]:
        board = self.board
        events: list[Event] = []
        if work.phase == "6.1":
            if not isinstance(command, WeatherRoll):
                raise IllegalMove("Phase 6.1", f"'{command}' must wait: {self.decision(work)}")
            events += reserves.weather(work, dice)
            start_allied_reserves(board, work, events)
        elif work.phase == "6.2":
            if not work.arriving:
                if not isinstance(command, ReserveRoll):
                    raise IllegalMove("Phase 6.2", f"'{command}' must wait: "
                                      f"{self.decision(work)}")
                events += reserves.roll_reserves(board, work, dice, command)
            elif isinstance(command, Enter):
                events += reserves.enter(board, work, command)
            else:
                raise IllegalMove("Phase 6.2", f"'{command}' must wait: {self.decision(work)}")
            allied_reserves_placed(board, work, events)
        else:
            if not isinstance(command, Reinforce):
                raise IllegalMove("Phase 6.3", f"'{command}' must wait: {self.decision(work)}")
            events += reserves.reinforce(board, work, command)
            german_reserves_placed(board, work, events)
        return events

    def _end_setup(self, work: AState) -> list[Event]:
        board = self.board
        if work.phase == SETUP_GERMAN:
            missing = german_missing(board, work)
            if sum(missing.values()):
                left = ", ".join(f"{n} {k}" for k, n in missing.items() if n)
                raise IllegalMove("SetUp/German", f"the set-up table still has {left} to place")
            work.phase = SETUP_ALLIED
            return [Event("setup", "German set-up complete; the Allied player sets up")]
        if not work.track:
            raise IllegalMove("SetUp/Allied", "the Allied set-up needs 4 artillery and 5 other "
                              "units in each start sector and the order of R1-R15 "
                              "(reserve-order GROUPS)")
        work.round = 1
        events = [Event("setup", "Allied set-up complete")]
        begin_round(board, work, events)
        return events

    # -- parsing, positions, views ------------------------------------------------------------

    def quick_tree(self, line: str) -> Tree[Any] | None:
        """Lark's tree of a plain move line, read without Lark (``quickparse.py``); None for
        any other line."""
        return action_tree(line)

    def quick_line(self, number: int, line: str) -> ActionLine | None:
        """The entry of a plain action line made without a tree (``quickline.py``), or
        None for the long way."""
        return action_line(self.board, number, line)

    def build_command(self, tree: Tree[Any], text: str) -> Command:
        return build(self.board, tree)

    def build_setup(self, tree: Tree[Any], text: str) -> Statement:
        return build_setup(self.board, tree)

    def place(self, state: AState, statement: Statement) -> None:
        work = state.copy()
        place(self.board, work, statement)
        state.take(work)

    def check_position(self, state: AState) -> list[str]:
        return check_position(self.board, state)

    def position(self, state: AState) -> list[str]:
        return position_lines(self.board, state)

    def outcome(self, state: AState) -> dict[str, Any]:
        if state.result is not None:
            return dict(state.result)
        return {"result": None, **victory.score(self.board, state)}

    def to_json(self, state: AState) -> dict[str, Any]:
        return state_json(self.board, state, self.to_act(state))

    def render(self, state: AState) -> Sequence[RenderableType]:
        from referee.games.arnhem44.render import render

        return render(self.board, state, self.to_act(state), self.decision(state))

    def invariants(self, state: AState) -> list[str]:
        return invariants(self.board, state)


ENGINE = Arnhem44Engine()
