"""Combat (7): who takes part, hit chances and dice, terrain reduction, applying hits as evenly
as possible, the defender's retreat and the breakthrough bonus move.

The engine calls ``resolve`` for an ``attack`` (the dice and the hits scored), then each side's
decision is checked here (``check_hits``, ``check_retreat``, ``check_breakthrough``) and listed
here (``hit_options``, ``retreat_options``, ``breakthrough_options``) from the same rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement, product

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.wwiic.board import ALLIED, RIVER, SPACE, Board, other_side
from referee.games.wwiic.state import Battle, WState

ROUGH = ("polder", "woods")
ARMORED = frozenset({"armor", "armored_recon"})
BREAKTHROUGH_TYPES = frozenset({"armor", "armored_recon", "recon", "glider_recon"})


@dataclass(frozen=True, slots=True)
class Fire:
    """One unit's dice in a combat: how many, at what modified hit chance, and why."""

    unit: str
    dice: int
    base: int
    modifiers: tuple[tuple[str, int], ...]

    @property
    def chance(self) -> int:
        return max(1, self.base + sum(v for _, v in self.modifiers))  # 7.2: floor of 1

    def words(self) -> str:
        parts = [f"base {self.base}"] + [f"{v:+d} {why}" for why, v in self.modifiers]
        return f"hit chance {self.chance} ({', '.join(parts)})"


def units_in(state: WState, space: str) -> list[str]:
    return state.units_in(space)


def participants(board: Board, state: WState, space: str) -> tuple[list[str], list[str]]:
    """7: the attackers (active supplied units, and unspent supplied units that join) and the
    defenders (every enemy unit in the space)."""
    side = state.side
    attackers: list[str] = []
    defenders: list[str] = []
    for unit in board.unit_order:
        if state.location[unit] != space:
            continue
        if board.side_of[unit] != side:
            defenders.append(unit)
        elif state.supply[unit] != "out" and (
            unit in state.active or unit not in state.spent
        ):
            attackers.append(unit)
    return attackers, defenders


def dice_count(board: Board, state: WState, unit: str, space: str) -> int:
    """7.1: one die per strength point; armor in polder or woods rolls at most two."""
    strength = state.strength[unit]
    if board.units[unit].type == "armor" and board.terrain[space] in ROUGH:
        return min(strength, 2)
    return strength


def capped(board: Board, state: WState, unit: str, space: str) -> str:
    """Why ``unit`` rolls fewer dice than its strength, for the dice's label (7.1)."""
    if dice_count(board, state, unit, space) >= state.strength[unit]:
        return ""
    return (f" (armor in {board.terrain[space]} rolls at most 2 dice, not one per strength "
            f"point: 7.1)")


def attacker_fire(
    board: Board, state: WState, unit: str, space: str, defenders: list[str]
) -> Fire:
    """7.2 Attacker hit chance modifiers."""
    info = board.units[unit]
    base = info.hit_chance[state.strength[unit] - 1]
    mods: list[tuple[str, int]] = []
    if info.corps30 and state.weather == "clear":
        mods.append(("30 Corps attacking in clear weather", 1))
    if any(
        board.units[d].type in ARMORED or (board.units[d].side == ALLIED and board.units[d].elite)
        for d in defenders
    ):
        mods.append(("defender includes armor, armored recon or an Allied elite unit", -1))
    if board.terrain[space] == "clear":
        mods.append(("clear terrain", 1))
    if defenders and all(state.supply[d] == "out" for d in defenders):
        mods.append(("all defenders out of supply", 2))
    if unit in state.entered_across:
        mods.append((f"entered across a {state.entered_across[unit]}", -2))
    return Fire(unit, dice_count(board, state, unit, space), base, tuple(mods))


def defender_fire(
    board: Board, state: WState, unit: str, space: str, attackers: list[str]
) -> Fire:
    """7.2 Defender hit chance modifiers; 8.2: out of supply defends at base 2."""
    info = board.units[unit]
    base = 2 if state.supply[unit] == "out" else info.defend_hit_chance[state.strength[unit] - 1]
    mods: list[tuple[str, int]] = []
    if any(board.units[a].type == "armor" for a in attackers):
        mods.append(("attacker includes armor", -1))
    if board.terrain[space] == "clear":
        mods.append(("clear terrain", 1))
    if attackers and all(a in state.entered_across for a in attackers):
        mods.append(("all attackers entered across a river or canal", 2))
    return Fire(unit, dice_count(board, state, unit, space), base, tuple(mods))


def terrain_reduction(board: Board, state: WState, space: str, defenders: list[str]) -> int:
    """7.4: woods or town 1, city 2 (1 against a defending force of total strength 1)."""
    value = board.hit_reduction.get(space, 0)
    if value == 2 and sum(state.strength[d] for d in defenders) == 1:
        return 1
    return value


def resolve(
    board: Board, state: WState, space: str, dice: Dice, events: list[Event],
    attackers: list[str], defenders: list[str],
) -> Battle:
    """Roll the dice of a combat (7.1, 7.2, 7.3) and reduce the defender's hits (7.4)."""
    name = board.name(space)
    side = state.side
    hits = {side: 0, other_side(side): 0}
    for group, fire_of, foes in (
        (attackers, attacker_fire, defenders), (defenders, defender_fire, attackers)
    ):
        for unit in group:
            fire = fire_of(board, state, unit, space, foes)
            faces = dice.roll(10, fire.dice, f"{unit} at {name}{capped(board, state, unit, space)}")
            scored = sum(1 for f in faces if f <= fire.chance)
            target = other_side(board.side_of[unit])
            hits[target] += scored
            role = "attacks" if unit in attackers else "defends"
            events.append(Event(
                "combat-fire", f"{unit} {role}: {fire.dice} dice at {fire.words()}: "
                f"{' '.join(map(str, faces))}: {scored} hit{'s' if scored != 1 else ''}",
                {"unit": unit, "role": role, "dice": fire.dice, "base": fire.base,
                 "modifiers": [{"why": w, "value": v} for w, v in fire.modifiers],
                 "hit_chance": fire.chance, "faces": list(faces), "hits": scored},
            ))
    defender = other_side(side)
    reduction = terrain_reduction(board, state, space, defenders)
    scored = hits[defender]
    left = max(0, scored - reduction)
    events.append(Event(
        "combat-hits", f"hits on the defender: {scored}"
        + (f", less {reduction} for the terrain of {name} (7.4): {left}" if reduction else "")
        + f"; hits on the attacker: {hits[side]} (terrain does not reduce them)",
        {"space": space, "defender_hits": scored, "terrain_reduction": reduction,
         "defender_hits_applied": left, "attacker_hits": hits[side]},
    ))
    return Battle(space, side, tuple(attackers), tuple(defenders), left, hits[side], "defender")


# -- applying hits as evenly as possible (7.5) ----------------------------------------------


def even(board: Board, state: WState, units: tuple[str, ...], hits: tuple[str, ...],
         total: int) -> str | None:
    """Why ``hits`` (one unit id per hit) is not an even allocation of ``total`` hits over
    ``units``, or None (7.5: no second hit before every unit has a first; a unit absorbs at
    most its strength; hits beyond the force's strength are lost)."""
    count = Counter(hits)
    for unit in count:
        if unit not in units:
            return f"{unit} is not in this combat"
        if count[unit] > state.strength[unit]:
            return f"{unit} has strength {state.strength[unit]}: it takes at most that many hits"
    capacity = sum(state.strength[u] for u in units)
    if len(hits) != min(total, capacity):
        return f"{min(total, capacity)} hit{'s' if total != 1 else ''} to apply, not {len(hits)}"
    for a in units:
        for b in units:
            if count[a] > count[b] + 1 and count[b] < state.strength[b]:
                return (f"{a} takes {count[a]} hits while {b} takes {count[b]}: hits go as evenly "
                        "as possible")
    return None


def allocations(state: WState, units: tuple[str, ...], total: int) -> list[tuple[str, ...]]:
    """Every even allocation of ``total`` hits over ``units`` (7.5), as sorted unit lists."""
    capacity = sum(state.strength[u] for u in units)
    n = min(total, capacity)
    found: list[tuple[str, ...]] = []
    for combo in combinations_with_replacement(sorted(units), n):
        count = Counter(combo)
        if any(count[u] > state.strength[u] for u in count):
            continue
        if all(count[a] <= count[b] + 1 or count[b] >= state.strength[b]
               for a in units for b in units):
            found.append(combo)
    return found


def apply_hits(
    board: Board, state: WState, hits: tuple[str, ...], events: list[Event]
) -> list[str]:
    """Remove one strength point per hit (7.5); the units eliminated."""
    gone: list[str] = []
    for unit, n in Counter(hits).items():
        after = state.strength[unit] - n
        if after <= 0:
            gone.append(unit)
            events.append(Event("hits", f"{unit} takes {n} hit{'s' if n != 1 else ''} and is "
                                "eliminated", {"unit": unit, "hits": n, "strength": 0}))
        else:
            state.strength[unit] = after
            events.append(Event("hits", f"{unit} takes {n} hit{'s' if n != 1 else ''}: strength "
                                f"{after}", {"unit": unit, "hits": n, "strength": after}))
    return gone


# -- retreat (7.6) ------------------------------------------------------------------------


def retreat_spaces(board: Board, state: WState, unit: str, space: str,
                   foot_used: bool) -> list[str]:
    """7.6: adjacent, friendly-controlled, uncontested, not across an unbridged river (the
    Oosterbeek foot crossing: leg infantry, once per game-turn, 6.3), not a box."""
    side = board.side_of[unit]
    found: list[str] = []
    for nxt, crossing in board.exits[space].items():
        if board.kind[nxt] != SPACE or state.controller(nxt) != side:
            continue
        unbridged = crossing.kind == RIVER and not crossing.bridge
        if unbridged and (not crossing.foot or not board.units[unit].leg or foot_used):
            continue
        if any(board.side_of[u] != side for u in units_in(state, nxt)):
            continue
        found.append(nxt)
    return found


def check_retreat(board: Board, state: WState, units: tuple[str, ...], space: str,
                  moves: tuple[tuple[str, str], ...]) -> str | None:
    """Why ``moves`` is not a retreat of all ``units`` out of ``space`` (7.6), or None."""
    named = [u for u, _ in moves]
    if sorted(named) != sorted(units):
        return ("all units in the defending force retreat if any retreat: name each of "
                + ", ".join(units))
    side = board.side_of[units[0]]
    arriving: Counter[str] = Counter()
    foot = state.foot_crossing_used
    for unit, dest in moves:
        allowed = retreat_spaces(board, state, unit, space, foot)
        if dest not in allowed:
            return (f"{unit} can't retreat to {board.name(dest)}: a retreat goes to an adjacent, "
                    "friendly-controlled, uncontested space, not across an unbridged river"
                    + (f" (eligible: {', '.join(board.name(s) for s in allowed)})"
                       if allowed else " (none is eligible)"))
        crossing = board.exits[space][dest]
        if crossing.foot:
            foot = True
        arriving[dest] += 1
    for dest, n in arriving.items():
        there = sum(1 for u in units_in(state, dest) if board.side_of[u] == side)
        if there + n > 2:
            return f"{board.name(dest)} would hold {there + n} friendly units: two at most (7.6)"
    return None


def retreat_options(board: Board, state: WState, units: tuple[str, ...],
                    space: str) -> list[tuple[tuple[str, str], ...]]:
    return list(each_retreat(board, state, units, space))


def each_retreat(board: Board, state: WState, units: tuple[str, ...],
                 space: str) -> Iterator[tuple[tuple[str, str], ...]]:
    """``retreat_options`` one at a time, in its order: a caller asking whether there is one
    (or just one: ``Engine.forced`` before every line of a combat) stops there, before every
    choice of destinations is checked (issue 31)."""
    spaces = [retreat_spaces(board, state, u, space, state.foot_crossing_used) for u in units]
    for choice in product(*spaces):
        moves = tuple(zip(units, choice, strict=True))
        if check_retreat(board, state, units, space, moves) is None:
            yield moves


# -- breakthrough (7.7) ---------------------------------------------------------------------


def breakthrough_units(board: Board, state: WState, battle: Battle) -> list[str]:
    """Surviving attacking armor, armored recon and recon units, if no defender is left."""
    if any(state.location[d] is not None for d in battle.defenders):
        return []  # a retreat is not an elimination
    return [a for a in battle.attackers if state.location[a] == battle.space
            and board.units[a].type in BREAKTHROUGH_TYPES]


def breakthrough_spaces(board: Board, state: WState, unit: str, space: str) -> list[str]:
    """Any adjacent map space, regardless of control, not across an unbridged river, where the
    unit's side has fewer than two units (6.2)."""
    side = board.side_of[unit]
    found: list[str] = []
    for nxt, crossing in board.exits[space].items():
        if board.kind[nxt] != SPACE:
            continue
        if crossing.kind == RIVER and not crossing.bridge:
            continue
        if sum(1 for u in units_in(state, nxt) if board.side_of[u] == side) >= 2:
            continue
        found.append(nxt)
    return found


def check_breakthrough(board: Board, state: WState, battle: Battle,
                       moves: tuple[tuple[str, str], ...]) -> str | None:
    eligible = breakthrough_units(board, state, battle)
    seen: set[str] = set()
    crossings: set[frozenset[str]] = set()
    arriving: Counter[str] = Counter()
    for unit, dest in moves:
        if unit not in eligible:
            return (f"{unit} can't make a breakthrough move: only surviving attacking armor, "
                    "armored recon and recon units, after every defender is eliminated")
        if unit in seen:
            return f"{unit} is named twice"
        seen.add(unit)
        if dest not in breakthrough_spaces(board, state, unit, battle.space):
            return (f"{unit} can't break through to {board.name(dest)}: an adjacent space, not "
                    "across an unbridged river, with fewer than two friendly units")
        crossing = board.exits[battle.space][dest]
        if crossing.water:
            if crossing.key in crossings:
                return (f"only one unit may break through across the boundary between "
                        f"{board.name(battle.space)} and {board.name(dest)}")
            crossings.add(crossing.key)
        arriving[dest] += 1
    side = battle.attacker
    for dest, n in arriving.items():
        there = sum(1 for u in units_in(state, dest) if board.side_of[u] == side)
        if there + n > 2:
            return f"{board.name(dest)} would hold {there + n} friendly units: two at most (6.2)"
    return None


def breakthrough_options(board: Board, state: WState,
                         battle: Battle) -> list[tuple[tuple[str, str], ...]]:
    eligible = breakthrough_units(board, state, battle)
    choices = [[None, *breakthrough_spaces(board, state, u, battle.space)] for u in eligible]
    found: list[tuple[tuple[str, str], ...]] = []
    for pick in product(*choices):
        moves = tuple((u, d) for u, d in zip(eligible, pick, strict=True) if d is not None)
        if check_breakthrough(board, state, battle, moves) is None:
            found.append(moves)
    return found


def illegal(rule: str, why: str | None, options: list[str]) -> None:
    if why is not None:
        raise IllegalMove(rule, why, options if len(options) <= 8 else [])
