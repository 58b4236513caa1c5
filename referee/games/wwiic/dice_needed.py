"""The dice a WWII Commander roll needs, described before it is rolled (``rolls_needed``).

Every die is a d10, and none depends on another's faces:

* 4, step 2 (Weather Determination): "the German player rolls one die and consults the
  Weather Table";
* 7.1 (Combat): every unit in the combat, attackers first, then defenders, rolls one die
  per strength point (armor in polder or woods at most two), each a hit when it is at most
  the unit's modified hit chance (7.2).  Both sides roll at once, so every count is known
  before the first die.
"""

from __future__ import annotations

from referee.core.engine import RollNeed
from referee.games.wwiic.board import Board
from referee.games.wwiic.combat import attacker_fire, capped, defender_fire, participants
from referee.games.wwiic.commands import Attack, Command, WeatherRoll
from referee.games.wwiic.state import Phase, WState


def rolls_needed(board: Board, state: WState, command: Command | None) -> list[RollNeed]:
    """What ``command`` rolls now (the pending decision's roll when ``command`` is None: the
    weather die when it is due, the one combat left when there is only one); ``[]`` for a
    command that rolls nothing or would be refused."""
    if state.phase is Phase.WEATHER and (command is None or isinstance(command, WeatherRoll)):
        turn = board.turns[state.turn]
        return [RollNeed("d10", 1, f"the weather of Game-turn {state.turn} on the {turn.half} "
                                   f"Weather Table (4, step 2)")]
    if state.phase is not Phase.COMBAT or state.combat is None:
        return []
    open_ = state.combat.mandatory + state.combat.optional
    if command is None:
        if len(state.combat.mandatory) != 1 or state.combat.optional:
            return []
        space = state.combat.mandatory[0]
    elif isinstance(command, Attack) and command.space in open_:
        space = command.space
    else:
        return []
    return _combat(board, state, space)


def _combat(board: Board, state: WState, space: str) -> list[RollNeed]:
    """7.1-7.2: one batch a unit, in the order the engine rolls them."""
    name = board.name(space)
    attackers, defenders = participants(board, state, space)
    needs = []
    for group, fire_of, foes, role in ((attackers, attacker_fire, defenders, "attacking"),
                                       (defenders, defender_fire, attackers, "defending")):
        for unit in group:
            fire = fire_of(board, state, unit, space, foes)
            strength = state.strength[unit]
            why = capped(board, state, unit, space).strip() or (
                f"(strength {strength}, one die per strength point: 7.1)")
            parts = "; ".join([f"base {fire.base}"]
                              + [f"{value:+d} {reason}" for reason, value in fire.modifiers])
            needs.append(RollNeed("d10", fire.dice, f"{unit} {role} at {name} {why}, a hit on "
                                                    f"{fire.chance} or less ({parts}: 7.2)"))
    return needs
