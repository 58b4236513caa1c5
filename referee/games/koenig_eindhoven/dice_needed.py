"""The dice a Koenig's Eindhoven Bridge roll needs, described before it is rolled
(``rolls_needed``).  Every die is a d6; an HQ is a chit drawn from the Command Cup.

* 5.0 Paratroop Landing: one d6 for the unit due (Paratroop Landing Table);
* 6.1 / 6.2: one d6 for the German Artillery Points, then one for the Allied Support Points;
* 7.0: one HQ drawn blindly from the Command Cup (a cup of one is taken without a draw, and
  is still one chit);
* 9.0 Combat Resolution: one d6 against the net Attack Factor;
* 10.0 Close Combat: each round one d6 for the Defensive Close Fire and, only when that
  misses (a die above the defender's AF), one d6 for the Offensive Close Fire.
"""

from __future__ import annotations

from referee.core.dice import CUP
from referee.core.engine import RollNeed
from referee.games.koenig_eindhoven.board import Board
from referee.games.koenig_eindhoven.closecombat import round_factors
from referee.games.koenig_eindhoven.commands import Command, Draw, Landing, Roll, Round, SupportRoll
from referee.games.koenig_eindhoven.retreats import CLOSE
from referee.games.koenig_eindhoven.sequence import landing_due
from referee.games.koenig_eindhoven.state import ALLIED_SUPPORT, ARTILLERY, KState, Phase


def rolls_needed(board: Board, state: KState, command: Command | None) -> list[RollNeed]:
    """What ``command`` rolls now (the pending decision's roll when ``command`` is None: the
    referee's roll or draw that is due); ``[]`` for one that rolls nothing or is refused."""
    battle = state.battle
    if battle is not None:
        if battle.step == "roll" and (command is None or isinstance(command, Roll)):
            net = battle.net
            return [RollNeed("d6", 1, f"{battle.kind} at {battle.target}: a Hit below the net "
                                      f"AF {net}, an Exchange on {net}, a Miss above (9.0)")]
        if (battle.step == "round" and battle.kind == CLOSE
                and (command is None or isinstance(command, Round))):
            return _round(board, state)
        return []
    phase = state.phase
    if phase is Phase.LANDING and (command is None or isinstance(command, Landing)):
        due = landing_due(board, state)
        if not due or (isinstance(command, Landing) and command.unit != due[0]):
            return []
        return [RollNeed("d6", 1, f"{due[0]} on the Paratroop Landing Table (5.0)")]
    if phase is Phase.SUPPORT and (command is None or isinstance(command, SupportRoll)):
        expected = ARTILLERY if not state.rolled else ALLIED_SUPPORT
        if isinstance(command, SupportRoll) and command.kind != expected:
            return []
        if expected == ARTILLERY:
            return [RollNeed("d6", 1, "the German Artillery Points (6.1)")]
        return [RollNeed("d6", 1, "the Allied Support Points (6.2)")]
    if (phase is Phase.OPERATIONS and state.active is None and state.cup
            and (command is None or isinstance(command, Draw))):
        return [RollNeed(CUP, 1, f"the HQ to activate, drawn blindly from the Command Cup "
                                 f"(7.0): {', '.join(state.cup)}")]
    return []


def _round(board: Board, state: KState) -> list[RollNeed]:
    """10.0 steps 4 and 5, as the engine fires a round: the offensive die only after a
    defensive Miss."""
    battle = state.battle
    assert battle is not None
    attacker, defender, def_af, att_af = round_factors(board, state)
    return [RollNeed(
        "d6", 1,
        f"the Defensive Close Fire of {defender} in {battle.target} (AF {def_af}; 10.0)",
        then=f"1 d6 for the Offensive Close Fire of {attacker} (AF {att_af}) if that die "
             f"shows more than {def_af} (a Miss)",
    )]
