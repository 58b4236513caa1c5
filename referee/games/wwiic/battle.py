"""A combat from the attack to its last decision (7): the dice, the defender's hits and
retreat, the attacker's hits, the breakthrough bonus move, then the impulse's next attack.

Each decision is a state of its own (phase BATTLE) with its side to act: the defender for
``hits``/``retreat``, the attacker for ``hits`` and ``breakthrough``.  A step with nothing to
decide (no hits) is passed over here; a step with one legal answer is answered by the replay
driver through ``forced``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import chain

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.wwiic.board import ALLIED, Board, other_side
from referee.games.wwiic.combat import (
    allocations,
    apply_hits,
    breakthrough_options,
    breakthrough_units,
    check_breakthrough,
    check_retreat,
    each_retreat,
    even,
    participants,
    resolve,
)
from referee.games.wwiic.commands import Breakthrough, Command, Hits, Retreat
from referee.games.wwiic.sequence import end_impulse
from referee.games.wwiic.state import Battle, Combat, Phase, WState
from referee.games.wwiic.supply import after_combat
from referee.games.wwiic.victory import advance_objective, check_eliminated_track, eliminate

MAX_SHOWN = 8


def start(board: Board, state: WState, space: str, dice: Dice, events: list[Event]) -> None:
    """``attack SPACE`` after an impulse's movement (4, 7)."""
    combat = state.combat
    assert combat is not None
    if space not in combat.mandatory + combat.optional:
        open_ = ", ".join(board.name(s) for s in combat.mandatory + combat.optional)
        raise IllegalMove(
            "7", f"there is no combat to fight at {board.name(space)}: combat happens in a space "
            f"with active supplied units and enemy units (open now: {open_})",
        )
    attackers, defenders = participants(board, state, space)
    joining = [u for u in attackers if u not in state.active]
    events.append(Event(
        "attack", f"{state.side.capitalize()} attacks at {board.name(space)} with "
        + ", ".join(attackers), {"space": space, "attackers": attackers, "joining": joining},
    ))
    for unit in joining:
        state.spent.add(unit)
        events.append(Event("spent", f"{unit} (unspent, supplied, in the space) joins the attack "
                            "and is spent (7)", {"units": [unit]}))
    state.battle = resolve(board, state, space, dice, events, attackers, defenders)
    state.combat = Combat(tuple(s for s in combat.mandatory if s != space),
                          tuple(s for s in combat.optional if s != space))
    state.phase = Phase.BATTLE
    settle(board, state, events)


def to_act(state: WState) -> str:
    battle = state.battle
    assert battle is not None
    if battle.step in ("defender", "retreat"):
        return other_side(battle.attacker)
    return battle.attacker


def _alive(state: WState, units: tuple[str, ...], space: str) -> tuple[str, ...]:
    return tuple(u for u in units if state.location[u] == space)


def settle(board: Board, state: WState, events: list[Event]) -> None:
    """Pass over the steps with nothing to decide; close the combat when it is done."""
    battle = state.battle
    assert battle is not None
    if battle.step == "defender" and battle.defender_hits == 0:
        battle.step = "attacker"
    if battle.step == "attacker" and (
        battle.attacker_hits == 0 or not _alive(state, battle.attackers, battle.space)
    ):
        _after_hits(board, state, events)
        if state.phase is Phase.OVER:
            return
        battle.step = "breakthrough"
    if battle.step == "breakthrough" and len(breakthrough_options(board, state, battle)) <= 1:
        close(board, state, events)


def _settle_control(board: Board, state: WState, space: str, events: list[Event]) -> None:
    """5: a side left alone in a space controls it."""
    sides = {board.side_of[u] for u in state.units_in(space)}
    if len(sides) == 1:
        (side,) = sides
        if state.controller(space) != side:
            if side == ALLIED:
                state.allied_control.add(space)
            else:
                state.allied_control.discard(space)
            events.append(Event("control", f"{board.name(space)} becomes "
                                f"{side.capitalize()}-controlled", {"space": space,
                                                                   "control": side}))


def _defender_done(board: Board, state: WState, events: list[Event]) -> None:
    """7.3: the defender has applied all its hits (and retreated, if it chose to); before the
    attacker applies its own, the rules check what they check "the moment" it happens:
    control of the space (5), the Objective VPs marker (11.1) and the +7/-7 boxes (11.3)."""
    battle = state.battle
    assert battle is not None
    _settle_control(board, state, battle.space, events)
    advance_objective(board, state, events)
    check_eliminated_track(board, state, events)


def _after_hits(board: Board, state: WState, events: list[Event]) -> None:
    battle = state.battle
    assert battle is not None
    after_combat(state, tuple(u for u in battle.attackers + battle.defenders
                              if state.location[u] is not None), events)
    _settle_control(board, state, battle.space, events)
    advance_objective(board, state, events)
    check_eliminated_track(board, state, events)


def close(board: Board, state: WState, events: list[Event]) -> None:
    """The combat is over: the next attack of the impulse, or the impulse's end."""
    state.battle = None
    combat = state.combat
    assert combat is not None

    def still(space: str) -> bool:
        attackers, defenders = participants(board, state, space)
        return bool(defenders) and any(u in state.active for u in attackers)

    combat = Combat(tuple(s for s in combat.mandatory if still(s)),
                    tuple(s for s in combat.optional if still(s)))
    if combat.mandatory or combat.optional:
        state.combat = combat
        state.phase = Phase.COMBAT
        return
    end_impulse(board, state, events, passed=False)


def _eliminate_all(board: Board, state: WState, gone: list[str], events: list[Event]) -> None:
    for unit in gone:
        eliminate(board, state, unit, events)
    if gone and state.battle is not None:
        _settle_control(board, state, state.battle.space, events)


def _retreat(board: Board, state: WState, moves: tuple[tuple[str, str], ...],
             events: list[Event]) -> None:
    battle = state.battle
    assert battle is not None
    for unit, dest in moves:
        if board.exits[battle.space][dest].foot:
            state.foot_crossing_used = True
        state.location[unit] = dest
        state.spent.add(unit)
    events.append(Event(
        "retreat", "the defender retreats (one hit fewer, 7.6): " + ", ".join(
            f"{u}->{board.name(d)}" for u, d in moves) + "; the retreating units are spent",
        {"moves": [[u, d] for u, d in moves]},
    ))
    _settle_control(board, state, battle.space, events)


def legal(board: Board, state: WState) -> list[Command]:
    return list(options(board, state))


def options(board: Board, state: WState) -> Iterator[Command]:
    """``legal``'s answers one at a time, in its order: a caller asking whether there is
    just one (``forced``, before every line of a combat) stops at the second, before the
    retreats are searched when two allocations of the hits are already found (issue 31)."""
    battle = state.battle
    assert battle is not None
    space = battle.space
    if battle.step == "defender":
        defenders = _alive(state, battle.defenders, space)
        total = battle.defender_hits
        out: list[Command] = []
        for alloc in allocations(state, defenders, total):
            out.append(Hits(alloc))
            yield out[-1]
        for alloc in allocations(state, defenders, total - 1):
            count = Counter(alloc)
            survivors = tuple(u for u in defenders if count[u] < state.strength[u])
            if not survivors:
                continue
            found = each_retreat(board, state, survivors, space)
            first = next(found, None)
            if first is None:
                continue
            if total == 1:
                for option in chain((first,), found):
                    yield Retreat(tuple(sorted(option)))
            elif Hits(alloc) not in out:
                out.append(Hits(alloc))
                yield out[-1]
    elif battle.step == "retreat":
        survivors = _alive(state, battle.defenders, space)
        for option in each_retreat(board, state, survivors, space):
            yield Retreat(tuple(sorted(option)))
        for unit in survivors:
            if even(board, _before(state, battle), battle.defenders, (*battle.taken, unit),
                    battle.defender_hits) is None:
                yield Hits((unit,))
    elif battle.step == "attacker":
        attackers = _alive(state, battle.attackers, space)
        for alloc in allocations(state, attackers, battle.attacker_hits):
            yield Hits(alloc)
    else:
        for option in breakthrough_options(board, state, battle):
            yield Breakthrough(tuple(sorted(option)))


def _before(state: WState, battle: Battle) -> WState:
    """The defenders' strengths before the hits they have taken (for the evenness check)."""
    view = state.copy()
    for unit, n in Counter(battle.taken).items():
        if state.location[unit] is not None:
            view.strength[unit] = state.strength[unit] + n
    return view


def decision(board: Board, state: WState) -> str:
    battle = state.battle
    assert battle is not None
    where = board.name(battle.space)
    side = to_act(state).capitalize()
    if battle.step == "defender":
        text = (f"{side} defender at {where}: apply {battle.defender_hits} "
                f"hit{'s' if battle.defender_hits != 1 else ''} (hits UNIT ...)")
        if not _may_retreat(board, state):
            return text + " (7.5; no retreat: no eligible space, 7.6)"
        if battle.defender_hits == 1:
            return text + ", or retreat instead (retreat UNIT->SPACE, ...) (7.5, 7.6)"
        return text + (", or one hit fewer and retreat (hits ...; retreat UNIT->SPACE, ...) "
                       "(7.5, 7.6)")
    if battle.step == "retreat":
        return (f"{side} defender at {where}: retreat every unit (retreat UNIT->SPACE, ...) or "
                "apply the last hit (hits UNIT) (7.6)")
    if battle.step == "attacker":
        return (f"{side} attacker at {where}: apply {battle.attacker_hits} "
                f"hit{'s' if battle.attacker_hits != 1 else ''} (hits UNIT ...) (7.5)")
    units = ", ".join(breakthrough_units(board, state, battle))
    return (f"{side} breakthrough from {where} ({units}): breakthrough UNIT->SPACE, ... or "
            "no breakthrough (7.7)")


def apply(board: Board, state: WState, command: Command, events: list[Event]) -> None:
    battle = state.battle
    assert battle is not None
    space = battle.space
    step = battle.step
    if isinstance(command, Hits):
        if step == "breakthrough":
            raise IllegalMove("7.7", f"the hits are applied; now: {decision(board, state)}")
        _check_hit_units(board, state, command.units)
        if step in ("defender", "retreat"):
            _defender_hits(board, state, command.units, events)
            if battle.step == "attacker":
                _defender_done(board, state, events)
                if state.phase is Phase.OVER:
                    return
        else:
            attackers = _alive(state, battle.attackers, space)
            why = even(board, state, attackers, command.units, battle.attacker_hits)
            if why is not None:
                raise IllegalMove("7.5", f"attacker's hits at {board.name(space)}: {why}",
                                  _few(legal(board, state)))
            events.append(Event("hits-applied", f"{battle.attacker.capitalize()} applies "
                                f"{len(command.units)} hit(s) at {board.name(space)} (7.5)"))
            _eliminate_all(board, state, apply_hits(board, state, command.units, events), events)
            _after_hits(board, state, events)
            if state.phase is Phase.OVER:
                return
            battle.step = "breakthrough"
    elif isinstance(command, Retreat):
        if step not in ("defender", "retreat"):
            raise IllegalMove("7.6", "only the defender retreats, while applying its hits; now: "
                              + decision(board, state))
        left = battle.defender_hits - len(battle.taken)
        if left != 1:
            raise IllegalMove(
                "7.6", f"a retreat stands for one hit, and {left} hits are left to apply: apply "
                f"{left - 1} first (hits UNIT ...; retreat ...)", _few(legal(board, state)),
            )
        survivors = _alive(state, battle.defenders, space)
        why = check_retreat(board, state, survivors, space, command.moves)
        if why is not None:
            raise IllegalMove("7.6", why, _few(legal(board, state)))
        _retreat(board, state, command.moves, events)
        battle.step = "attacker"
        _defender_done(board, state, events)
        if state.phase is Phase.OVER:
            return
    elif isinstance(command, Breakthrough):
        if step != "breakthrough":
            raise IllegalMove("7.7", "a breakthrough comes after both sides have applied their "
                              f"hits, when every defender is eliminated; now: "
                              f"{decision(board, state)}")
        why = check_breakthrough(board, state, battle, command.moves)
        if why is not None:
            raise IllegalMove("7.7", why, _few(legal(board, state)))
        for unit, dest in command.moves:
            state.location[unit] = dest
            events.append(Event("breakthrough", f"{unit} breaks through to {board.name(dest)} "
                                "(7.7)", {"unit": unit, "space": dest}))
            _settle_control(board, state, dest, events)
        if not command.moves:
            events.append(Event("breakthrough", "no breakthrough move"))
        advance_objective(board, state, events)
        close(board, state, events)
        return
    else:
        raise IllegalMove("7", f"'{command}' must wait: {decision(board, state)}")
    settle(board, state, events)


def _check_hit_units(board: Board, state: WState, units: tuple[str, ...]) -> None:
    """7.3: each side applies the hits against its own side; name the unit that is not."""
    battle = state.battle
    assert battle is not None
    taking = "defender" if battle.step in ("defender", "retreat") else "attacker"
    side = to_act(state)
    own = _alive(state, battle.defenders if taking == "defender" else battle.attackers,
                 battle.space)
    for unit in dict.fromkeys(units):
        if unit in own:
            continue
        where = board.name(battle.space)
        if board.side_of[unit] != side:
            why = (f"{unit} is a {board.side_of[unit].capitalize()} unit, not on the side taking "
                   f"these hits: the {side.capitalize()} {taking} at {where} applies them to its "
                   f"own units ({', '.join(own)})")
        else:
            why = (f"{unit} is not one of the {taking}'s units in the combat at {where} "
                   f"({', '.join(own)})")
        raise IllegalMove("7.3", why, _few(legal(board, state)))


def _may_retreat(board: Board, state: WState) -> bool:
    """Whether the defender may still take one hit fewer and retreat (7.6)."""
    battle = state.battle
    assert battle is not None
    defenders = _alive(state, battle.defenders, battle.space)
    total = battle.defender_hits
    if total < 1:
        return False
    for alloc in allocations(state, defenders, total - 1):
        count = Counter(alloc)
        survivors = tuple(u for u in defenders if count[u] < state.strength[u])
        if survivors and next(each_retreat(board, state, survivors, battle.space),
                              None) is not None:
            return True
    return False


def _defender_hits(board: Board, state: WState, units: tuple[str, ...],
                   events: list[Event]) -> None:
    battle = state.battle
    assert battle is not None
    space = battle.space
    total = battle.defender_hits
    defenders = _alive(state, battle.defenders, space)
    if battle.step == "retreat":
        why = even(board, _before(state, battle), battle.defenders, battle.taken + units, total)
        if why is not None or len(units) != 1:
            raise IllegalMove("7.5", f"defender's last hit at {board.name(space)}: "
                              f"{why or 'one hit is left'}", _few(legal(board, state)))
        _eliminate_all(board, state, apply_hits(board, state, units, events), events)
        battle.taken += units
        battle.step = "attacker"
        return
    capacity = sum(state.strength[u] for u in defenders)
    if len(units) == min(total, capacity):
        why = even(board, state, defenders, units, total)
        if why is not None:
            raise IllegalMove("7.5", f"defender's hits at {board.name(space)}: {why}",
                              _few(legal(board, state)))
        _eliminate_all(board, state, apply_hits(board, state, units, events), events)
        battle.taken = units
        battle.step = "attacker"
        return
    if len(units) == total - 1:
        why = even(board, state, defenders, units, total - 1)
        count = Counter(units)
        survivors = tuple(u for u in defenders if count[u] < state.strength[u])
        if why is None and survivors and next(each_retreat(board, state, survivors, space),
                                              None) is not None:
            _eliminate_all(board, state, apply_hits(board, state, units, events), events)
            battle.taken = units
            battle.step = "retreat"
            return
        if why is None:
            raise IllegalMove("7.6", f"{total - 1} hits leave one to retreat for, but no "
                              "retreat is allowed from " + board.name(space) + " (7.6: no "
                              "eligible space)", _few(legal(board, state)))
    raise IllegalMove(
        "7.5", f"the defender at {board.name(space)} applies {min(total, capacity)} hits"
        + (f", or {total - 1} and retreats" if total >= 1 else "") + f", not {len(units)}",
        _few(legal(board, state)),
    )


def _few(commands: list[Command]) -> list[str]:
    return [str(c) for c in commands] if len(commands) <= MAX_SHOWN else []

