"""The dice a Battle Card roll needs, described before it is rolled (``rolls_needed``).

Every roll of the card is of d6 and none depends on another's faces:

* Airborne Landing: "Roll a die for each Allied unit to determine its starting strength
  modifier." (one d6 a unit, in the order the units are listed);
* Turn 1 (Combat): "Roll 1d6 and consult the combat results table." (one d6 a fight);
* Turn 4 (Airborne Landing): "Roll 1d6 and compare the result with the turn number."
"""

from __future__ import annotations

from referee.core.engine import RollNeed
from referee.games.battle_card.commands import Airdrop, Command, Fight, Landing
from referee.games.battle_card.state import BattleCardState


def rolls_needed(state: BattleCardState, command: Command | None) -> list[RollNeed]:
    """What ``command`` rolls now (the pending decision's roll when ``command`` is None);
    ``[]`` for a command that rolls nothing or would be refused."""
    step = state.step
    if command is None:
        if step == "airdrop":
            return _airdrop(state)
        if step == "landing":
            return _landing(state)
        if step == "combat" and state.combats_left:
            return [RollNeed("d6", 1, "the combat chosen (Turn step 1): "
                             + ", ".join(_odds(state, city) for city in state.combats_left))]
        return []
    if isinstance(command, Airdrop):
        return _airdrop(state) if step == "airdrop" else []
    if isinstance(command, Landing):
        return _landing(state) if step == "landing" else []
    if isinstance(command, Fight):
        if step != "combat" or command.city not in state.combats_left:
            return []
        mode = "attacking" if command.attack else "defending"
        return [RollNeed("d6", 1, f"the combat at {_odds(state, command.city)}, {mode} "
                                  f"(Turn step 1, the combat results table)")]
    return []


def _odds(state: BattleCardState, city: str) -> str:
    unit = state.unit_in(city)
    german = state.german.get(city)
    if unit is None or german is None:
        return city
    return f"{city} ({unit.strength} against {german})"


def _airdrop(state: BattleCardState) -> list[RollNeed]:
    units = list(state.units.values())
    if not units:
        return []
    names = ", ".join(unit.id for unit in units)
    return [RollNeed("d6", len(units), f"the airborne landing, one for each Allied unit in "
                                       f"order {names} (Airborne Landing)")]


def _landing(state: BattleCardState) -> list[RollNeed]:
    target = state.turn - 1 if "landing-turns-completed" in state.options else state.turn
    return [RollNeed("d6", 1, f"the landing of the first airborne army: success on "
                              f"{target} or less (Turn step 4)")]
