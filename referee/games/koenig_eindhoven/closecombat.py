"""Close Combat (10.0-10.3, 11.0-11.2): one unit enters a hex holding one enemy unit; rounds
of Defensive then Offensive Close Fire at full Combat Strength, without terrain (10.1), with
the net support fixed at the start and applied every round (10.2); a Hit (even in an Exchange)
makes the hit unit retreat (9.2.3; the defender first), unless an undamaged attacker takes a
second Hit to hold the hex (11.2); after a double miss, the defender then the attacker may
retreat, or the next round is fought.  The attacking unit's Operation then ends (10.3).
"""

from __future__ import annotations

from dataclasses import replace

from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.koenig_eindhoven.board import Board
from referee.games.koenig_eindhoven.retreats import CLOSE, move_in_retreat, retreat_hexes
from referee.games.koenig_eindhoven.state import ELIMINATED, IN_PLAY, OFF, OFF_MAP, Battle, KState


def open_close_combat(board: Board, state: KState, unit: str, hex_id: str, from_off: bool,
                      events: list[Event]) -> None:
    (enemy,) = [u for u, h in state.hex.items()
                if h == hex_id and board.units[u].side != board.units[unit].side]
    modifiers = ("entered from off the map (8.3.1)",) if from_off else ()
    state.battle = Battle(CLOSE, hex_id, (unit,), (enemy,), board.units[unit].side, 0,
                          modifiers, "defensive-support")
    events.append(Event("close-combat", f"{unit} enters {hex_id} and engages {enemy} in Close "
                        "Combat (10.0)", {"attacker": unit, "defender": enemy, "hex": hex_id}))


def strength(board: Board, state: KState, unit: str) -> int:
    """10.0: full Combat Strength; 2 Hits -1 (9.2.1); never below 0."""
    return max(board.units[unit].cs - (1 if state.hits[unit] == 2 else 0), 0)


def _hit(state: KState, unit: str, events: list[Event]) -> bool:
    """A Hit (9.2); False when it eliminates the unit."""
    state.hits[unit] += 1
    if state.hits[unit] > 2:
        state.hits[unit] = 2
        state.status[unit] = ELIMINATED
        state.hex[unit] = None
        events.append(Event("eliminated", f"{unit} takes a third Hit and is eliminated (9.2)",
                            {"unit": unit}))
        return False
    events.append(Event("hit", f"{unit} takes a Hit: {state.hits[unit]} Hit"
                        f"{'s' * (state.hits[unit] > 1)} (9.2)",
                        {"unit": unit, "hits": state.hits[unit]}))
    return True


def round_factors(board: Board, state: KState) -> tuple[str, str, int, int]:
    """The round of Close Combat now (10.0 steps 4 and 5): the attacker, the defender, the
    defender's AF and the attacker's AF: the net support (offensive less defensive, fixed for
    every round, 10.2) taken from the defender's strength and added to the attacker's.  One
    reckoning, for the round and for the description of its dice."""
    battle = state.battle
    assert battle is not None
    (attacker,), (defender,) = battle.attackers, battle.defenders
    net = battle.offensive - battle.defensive
    return (attacker, defender, strength(board, state, defender) - net,
            strength(board, state, attacker) + net)


def fire_round(board: Board, state: KState, faces: list[int], events: list[Event]) -> None:
    """One round (10.0 steps 4 and 5): ``faces`` holds the defensive die, then the offensive
    die when the first missed."""
    battle = state.battle
    assert battle is not None
    attacker, defender, def_af, att_af = round_factors(board, state)
    undamaged = state.hits[attacker] == 0
    face = faces[0]
    if face <= def_af:
        exchange = face == def_af
        events.append(Event("close-fire", f"Defensive Close Fire: die {face} against AF "
                            f"{def_af}: {'an Exchange' if exchange else 'a Hit'} (10.0)",
                            {"roll": face, "af": def_af, "fire": "defensive",
                             "result": "exchange" if exchange else "hit"}))
        _after_hits(state, attacker, defender, exchange, undamaged, attacker_hit=True,
                    events=events)
        return
    events.append(Event("close-fire", f"Defensive Close Fire: die {face} against AF {def_af}: "
                        "a Miss", {"roll": face, "af": def_af, "fire": "defensive",
                                   "result": "miss"}))
    face = faces[1]
    if face <= att_af:
        exchange = face == att_af
        events.append(Event("close-fire", f"Offensive Close Fire: die {face} against AF "
                            f"{att_af}: {'an Exchange' if exchange else 'a Hit'} (10.0)",
                            {"roll": face, "af": att_af, "fire": "offensive",
                             "result": "exchange" if exchange else "hit"}))
        _after_hits(state, attacker, defender, exchange, undamaged, attacker_hit=exchange,
                    events=events, defender_hit=True)
        return
    events.append(Event("close-fire", f"Offensive Close Fire: die {face} against AF {att_af}: "
                        "a Miss; the defender, then the attacker, may retreat (10.0)",
                        {"roll": face, "af": att_af, "fire": "offensive", "result": "miss"}))
    state.battle = replace(battle, step="continue-defender")


def needs_second_die(board: Board, state: KState, first: int) -> bool:
    battle = state.battle
    assert battle is not None
    net = battle.offensive - battle.defensive
    return first > strength(board, state, battle.defenders[0]) - net


def _after_hits(state: KState, attacker: str, defender: str, exchange: bool, undamaged: bool,
                *, attacker_hit: bool, events: list[Event], defender_hit: bool = False) -> None:
    battle = state.battle
    assert battle is not None
    queue: list[str] = []
    if (exchange or defender_hit) and _hit(state, defender, events):
        queue.append(defender)
    capture = False
    if (exchange or attacker_hit) and _hit(state, attacker, events):
        queue.append(attacker)
        capture = exchange and undamaged  # 11.2
    state.battle = replace(battle, hit=tuple(queue), result="capture" if capture else "hit",
                           step="retreat-forced")


def settle(board: Board, state: KState, events: list[Event]) -> None:
    """Apply what needs no decision: a retreat with no hex eliminates the unit (11.0); the
    combat ends when the hex no longer holds two hostile units."""
    for _ in range(10):
        battle = state.battle
        if battle is None or battle.kind != CLOSE:
            return
        if battle.step in ("defensive-support", "offensive-support"):
            return
        (attacker,), (defender,) = battle.attackers, battle.defenders
        both = (state.hex[attacker] == battle.target and state.hex[defender] == battle.target)
        if battle.step == "retreat-forced":
            queue = tuple(u for u in battle.hit if state.hex[u] == battle.target)
            if queue != battle.hit:
                state.battle = battle = replace(battle, hit=queue)
            if queue:
                unit = queue[0]
                if unit == attacker and battle.result == "capture":
                    return
                if not options(board, state, unit):
                    state.hex[unit] = None
                    state.status[unit] = ELIMINATED
                    events.append(Event("eliminated", f"{unit} must retreat but cannot, and is "
                                        "eliminated (11.0)", {"unit": unit}))
                    state.battle = replace(battle, hit=queue[1:])
                    continue
                return
            _end(state, events)
            return
        if not both:
            _end(state, events)
            return
        return


def options(board: Board, state: KState, unit: str) -> list[str]:
    """Where the unit may retreat now: a reinforcement that entered into this Close Combat
    from off the map and is forced to retreat leaves the map (8.3.1, 11.1)."""
    battle = state.battle
    if (battle is not None and battle.modifiers and unit == battle.attackers[0]
            and battle.step == "retreat-forced"):
        return [OFF]
    return retreat_hexes(board, state, unit)


def _end(state: KState, events: list[Event]) -> None:
    battle = state.battle
    assert battle is not None
    attacker = battle.attackers[0]
    state.battle = None
    # 10.3: the attacker's Operation is over; any other open Operation stays as it was.
    state.concert = tuple(u for u in state.concert if u != attacker)
    state.engaged.add(attacker)  # 10.3: no further movement or Fire Attacks this turn
    events.append(Event("close-combat-over", f"the Close Combat in {battle.target} is over; "
                        f"{attacker}'s Operation ends (10.3)", {"hex": battle.target}))


def retreat(board: Board, state: KState, unit: str, where: str | None, events: list[Event]
            ) -> None:
    """A forced retreat, the attacker's Capture! (``where`` None at step retreat-forced), or a
    choice after a double miss (``where`` None: stay)."""
    battle = state.battle
    assert battle is not None
    (attacker,), (defender,) = battle.attackers, battle.defenders
    step = battle.step
    if step == "retreat-forced":
        if unit != battle.hit[0]:
            raise IllegalMove("9.2.3", f"the retreat now is {battle.hit[0]}'s, not {unit}'s (the "
                              "defender retreats first)")
        if where is None:
            if unit != attacker or battle.result != "capture":
                raise IllegalMove("11.2", f"{unit} was hit in Close Combat and must retreat: "
                                  "only an undamaged attacker hit in an Exchange may capture "
                                  "instead")
            state.hits[unit] += 1
            events.append(Event("capture", f"{unit} takes a second Hit and holds {battle.target} "
                                "(11.2: Capture!)", {"unit": unit, "hits": state.hits[unit]}))
            state.battle = replace(battle, hit=battle.hit[1:])
            return
    elif step == "continue-defender":
        if unit != defender:
            raise IllegalMove("10.0", f"after a double miss the defender ({defender}) decides "
                              "first")
    elif step == "continue-attacker" and unit != attacker:
        raise IllegalMove("10.0", f"the attacker ({attacker}) decides now")
    if where is None:
        events.append(Event("stay", f"{unit} stays in the Close Combat (10.0)", {"unit": unit}))
        if step == "continue-defender":
            state.battle = replace(battle, step="continue-attacker")
        else:
            state.battle = replace(battle, step="round")
        return
    events.append(move_in_retreat(board, state, unit, where, options(board, state, unit)))
    if step == "retreat-forced":
        state.battle = replace(battle, hit=battle.hit[1:])
    assert state.status[unit] in (IN_PLAY, OFF_MAP)
