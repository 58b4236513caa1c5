"""Fire Combat (9.0-9.2.3): a Full or Mobile Fire attack's five steps, its Hits and the
optional retreats after them (11.0, 11.1).

Each decision is a state of its own: the defender's support, the attacker's support, the
referee's die, the active player's choice of which unit takes a Hit (9.2.2), each hit unit's
owner's retreat or stay.  A step with nothing to decide is skipped.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.koenig_eindhoven.board import ALLIED, GERMAN, Board
from referee.games.koenig_eindhoven.closecombat import settle as settle_close
from referee.games.koenig_eindhoven.movement import half
from referee.games.koenig_eindhoven.retreats import (
    CLOSE,
    move_in_retreat,
    retreat_hexes,
)
from referee.games.koenig_eindhoven.state import (
    ALLIED_SUPPORT,
    ARTILLERY,
    ELIMINATED,
    US_MACHINE_GUNS,
    Battle,
    KState,
)


def points_key(side: str) -> str:
    """6.1, 6.2: the German side has Artillery Points, the Allied side Allied Support."""
    return ARTILLERY if side == GERMAN else ALLIED_SUPPORT


def support_cap(board: Board, state: KState, side: str) -> int:
    """9.0: at most one Artillery Point (German) or two Allied Support Points a battle, and
    no more than the side has left this turn (K7)."""
    return min(board.support_per_battle[side], state.points[points_key(side)])


def across_rivers(board: Board, state: KState, unit: str) -> bool:
    """Optional 14.3.1: with ``[Option "us-machine-guns"]`` a US machine-gun unit may make a
    Full Fire Attack across a River hexside (at half CS, ``unit_fire``)."""
    return US_MACHINE_GUNS in state.options and board.units[unit].machine_gun


def unit_fire(board: Board, state: KState, unit: str, target: str, mobile: bool
              ) -> tuple[int, list[str]]:
    """One firing unit's Combat Strength in this attack and why: Mobile Fire halves it (8.4,
    each unit on its own), fire across a large bridge halves it, across a small bridge -1
    (Exclusive 9.1.1, K10), a US machine gun's across an unbridged River hexside halves it
    (optional 14.3.1, K11), 2 Hits -1 after any halving (9.2.1); never below 0 (K32)."""
    spec = board.units[unit]
    cs = spec.cs
    notes = []
    if mobile:
        cs = half(cs)
        notes.append(f"{unit} Mobile Fire half: {cs}")
    here = state.hex[unit]
    assert here is not None
    hexside = board.hexside(here, target)
    bridge = hexside.bridge
    if hexside.river and bridge is None:
        # 14.3.1 (K11): only a US machine gun's Full Fire gets here (``check_fire``); at a
        # bridge Exclusive 9.1.1 applies as it does to every unit.
        cs = half(cs)
        notes.append(f"{unit} across a River hexside, half (14.3.1): {cs}")
    elif bridge == "large":
        cs = half(cs)
        notes.append(f"{unit} across a large bridge, half: {cs}")
    elif bridge == "small":
        cs -= 1
        notes.append(f"{unit} across a small bridge: -1")
    if state.hits[unit] == 2:
        cs -= 1
        notes.append(f"{unit} with 2 Hits: -1")
    return max(cs, 0), notes


def terrain(board: Board, state: KState, attackers: tuple[str, ...], target: str
            ) -> tuple[int, list[str]]:
    """9.1: the target hex's terrain and the hexsides all attackers fire across (applied once
    to the attack's total)."""
    tec = board.tec.combat
    h = board.hexes[target]
    if h.hilltop:
        mods = [(tec["hilltop"], "Hilltop target")]
    else:
        mods = [(tec[h.terrain], f"{h.terrain.capitalize()} target")]
    sides = [(board.hexside(state.hex[u] or "", target), state.hex[u]) for u in attackers]
    if all(s.stream for s, _ in sides):
        mods.append((tec["stream"], "all attackers across Stream hexsides"))
    if all(s.slope and not board.hexes[here or ""].hilltop for s, here in sides):
        mods.append((tec["slope"], "all attackers across Slope hexsides"))
    return sum(m for m, _ in mods), [f"{m:+d} {why}" for m, why in mods]


def open_battle(board: Board, state: KState, kind: str, target: str, units: tuple[str, ...],
                events: list[Event]) -> None:
    """9.0 Preparation and Terrain Effects; then the support decisions and the die."""
    side = board.units[units[0]].side
    defenders = tuple(u for u, h in state.hex.items()
                      if h == target and board.units[u].side != side)
    total = 0
    notes: list[str] = []
    for unit in units:
        cs, why = unit_fire(board, state, unit, target, kind == "mobile-fire")
        total += cs
        notes += why
    mod, why_terrain = terrain(board, state, units, target)
    notes += why_terrain
    battle = Battle(kind, target, units, defenders, side, total + mod, tuple(notes),
                    "defensive-support")
    state.battle = battle
    events.append(Event(
        "fire", f"{kind} at {target} by {', '.join(units)}: Attack Factor {total} "
        f"{mod:+d} terrain = {total + mod} ({'; '.join(notes)})",
        {"kind": kind, "target": target, "attackers": list(units),
         "defenders": list(defenders), "af": total + mod, "modifiers": notes},
    ))
    settle(board, state, events)


def other(side: str) -> str:
    return GERMAN if side == ALLIED else ALLIED


def to_act(board: Board, state: KState) -> str:
    battle = state.battle
    assert battle is not None
    if battle.step in ("defensive-support", "continue-defender"):
        return other(battle.attacker)
    if battle.step in ("offensive-support", "hit-defender", "hit-attacker",
                       "continue-attacker"):
        return battle.attacker  # 9.2.2: the active player chooses for both sides
    if battle.step in ("roll", "round"):
        return "referee"
    return board.units[battle.hit[0]].side


def settle(board: Board, state: KState, events: list[Event]) -> None:
    """Skip the steps with nothing to decide; close the battle after its last retreat."""
    for _ in range(20):
        battle = state.battle
        if battle is None:
            return
        if battle.step == "defensive-support" and support_cap(board, state,
                                                              other(battle.attacker)) == 0:
            state.battle = replace(battle, step="offensive-support")
            continue
        if battle.step == "offensive-support" and support_cap(board, state,
                                                              battle.attacker) == 0:
            state.battle = replace(battle, step="round" if battle.kind == CLOSE else "roll")
            continue
        if battle.kind == CLOSE:
            settle_close(board, state, events)
            return
        if battle.step == "hit-defender":
            alive = [u for u in battle.defenders if state.hex[u] == battle.target]
            if len(alive) == 1:
                apply_hit(board, state, alive[0], events)
                continue
            if not alive:
                _after_defender_hit(state)
                continue
            return
        if battle.step == "hit-attacker":
            alive = [u for u in battle.attackers if state.status[u] == "in play"]
            if len(alive) == 1:
                apply_hit(board, state, alive[0], events)
                continue
            if not alive:
                state.battle = replace(battle, step="retreat")
                continue
            return
        if battle.step == "retreat":
            hit = tuple(u for u in battle.hit if state.status[u] == "in play")
            if not hit:
                state.battle = None
                events.append(Event("fire-over", f"the attack on {battle.target} is over",
                                    _over(battle, battle.roll, battle.result, None)))
                return
            if hit != battle.hit:
                state.battle = replace(battle, hit=hit)
                continue
            return
        return


def _after_defender_hit(state: KState) -> None:
    battle = state.battle
    assert battle is not None
    step = "hit-attacker" if battle.result == "exchange" else "retreat"
    state.battle = replace(battle, step=step)


def apply_hit(board: Board, state: KState, unit: str, events: list[Event]) -> None:
    """9.2: a Hit marker, flipped to 2 Hits, or the unit eliminated by a third Hit."""
    battle = state.battle
    assert battle is not None
    state.hits[unit] += 1
    if state.hits[unit] > 2:
        state.hits[unit] = 2
        state.status[unit] = ELIMINATED
        state.hex[unit] = None
        events.append(Event("eliminated", f"{unit} takes a third Hit and is eliminated (9.2)",
                            {"unit": unit}))
        hit = battle.hit
    else:
        events.append(Event("hit", f"{unit} takes a Hit: {state.hits[unit]} Hit"
                            f"{'s' * (state.hits[unit] > 1)} (9.2)",
                            {"unit": unit, "hits": state.hits[unit]}))
        hit = (*battle.hit, unit)
    state.battle = replace(battle, hit=hit)
    if battle.step == "hit-defender":
        _after_defender_hit(state)
    else:
        state.battle = replace(state.battle, step="retreat")


def commit_support(board: Board, state: KState, side: str, points: int,
                   events: list[Event]) -> None:
    battle = state.battle
    assert battle is not None
    cap = support_cap(board, state, side)
    what = "Artillery Point" if side == GERMAN else "Allied Support Point"
    if points > cap:
        most = board.support_per_battle[side]
        raise IllegalMove("9.0", f"the {side.capitalize()} player may commit at most {most} "
                          f"{what}{'s' * (most > 1)} to a battle, and has "
                          f"{state.points[points_key(side)]} left this turn")
    state.points[points_key(side)] -= points
    if battle.step == "defensive-support":
        state.battle = replace(battle, defensive=points, step="offensive-support")
        word = "Defensive"
    else:
        state.battle = replace(battle, offensive=points,
                               step="round" if battle.kind == CLOSE else "roll")
        word = "Offensive"
    if battle.kind == CLOSE:
        net = state.battle.offensive - state.battle.defensive
        after = f"net support {net:+d} to the attacker's AF, {-net:+d} to the defender's (10.2)"
    else:
        after = f"AF now {state.battle.net}"
    events.append(Event("support", f"{word} Support: {points} {what}{'s' * (points != 1)} "
                        f"({after})", {"side": side, "points": points}))


def resolve(state: KState, face: int, events: list[Event]) -> None:
    """9.0 Combat Resolution: less than the net AF a Hit, equal an Exchange, more a Miss."""
    battle = state.battle
    assert battle is not None
    net = battle.net
    result = "hit" if face < net else "exchange" if face == net else "miss"
    words = {"hit": "a Hit on the target", "exchange": "an Exchange: both sides take a Hit",
             "miss": "a Miss"}
    events.append(Event("roll", f"die {face} against AF {net}: {words[result]} (9.0)",
                        {"roll": face, "af": net, "result": result}))
    if result == "miss":
        state.battle = None
        events.append(Event("fire-over", f"the attack on {battle.target} is over",
                            _over(battle, face, result, net)))
        return
    state.battle = replace(battle, roll=face, result=result, step="hit-defender")


def retreat(board: Board, state: KState, unit: str, where: str | None,
            events: list[Event]) -> None:
    """9.2.3: after a Full or Mobile Fire Hit the unit may retreat (``where``) or stay."""
    battle = state.battle
    assert battle is not None
    if unit != battle.hit[0]:
        raise IllegalMove("9.2.3", f"the retreat decision now is {battle.hit[0]}'s, not {unit}'s")
    if where is not None:
        events.append(move_in_retreat(board, state, unit, where, retreat_hexes(board, state, unit)))
    else:
        events.append(Event("stay", f"{unit} stays (9.2.3)", {"unit": unit}))
    state.battle = replace(battle, hit=battle.hit[1:])


def _over(battle: Battle, roll: int | None, result: str | None,
          af: int | None) -> dict[str, Any]:
    """The data of a fire attack that is over: what it was and how it ended (the board
    draws the last action from it once the battle has left the state)."""
    return {"kind": battle.kind, "target": battle.target, "attackers": list(battle.attackers),
            "af": af, "roll": roll, "result": result}
