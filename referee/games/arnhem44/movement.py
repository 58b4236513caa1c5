"""Movement phases 4.1 and 5.1: moving outside enemy territory, intrusions (Enemy Contact,
Rules of Engagement When Entering Enemy Territory, Crossing Waterways) and fall back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container
from itertools import pairwise

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.arnhem44.bailey import open_between
from referee.games.arnhem44.board import (
    AIRBORNE,
    Board,
    Key,
    Link,
    key_order,
    key_text,
    other,
    side_of,
)
from referee.games.arnhem44.commands import FallBack, Invade, Move, Support
from referee.games.arnhem44.damage import Collateral, across, active, check_crossers
from referee.games.arnhem44.ferries import usable
from referee.games.arnhem44.figures import points, put, resolve, take
from referee.games.arnhem44.fire import (
    Reroll,
    Shooter,
    Zeros,
    counts_text,
    expand,
    fire,
    outcome_of,
)
from referee.games.arnhem44.jokers import Joker
from referee.games.arnhem44.presence import enemies, friends
from referee.games.arnhem44.state import AState, FallBackPending
from referee.games.arnhem44.supply import penalty


def crossing(board: Board, state: AState, here: str, there: str, kind: str, side: str,
             first_step: bool, fresh: bool) -> tuple[int, bool, int]:
    """(movement points, whether the crossing ends the move, the defender's bonus dice) of
    one step (Units: In General, Infantry; Waterways; Crossing Waterways): ``passage``, with
    the words of a refusal."""
    link = board.links[here].get(there)
    if link is None:
        raise IllegalMove("Move/Outside", f"{here} and {there} are not adjacent sectors")
    found = passage(state, link, here, there, kind, side, first_step, fresh)
    if type(found) is tuple:
        return found
    water = link.water or "the waterway"
    if found == FERRY_REFUSED:
        raise IllegalMove("Ferry", f"the {link.ferry} marker was removed at the end of the round "
                          "in which Allied troops reached it: the German player cannot use it"
                          if side == "german" else f"only the German player may use the "
                          f"{link.ferry} between {here} and {there}")
    if found == STREAM_REFUSED:
        raise IllegalMove(
            "Waterways", f"the {water} between {here} and {there} is a deep-blue stream: no "
            "infantry, armour or artillery crosses it without a bridge or ferry")
    if found == KIND_REFUSED:
        raise IllegalMove(
            "Waterways", f"{'tanks' if kind == 'tank' else 'artillery'} cannot cross the "
            f"{water} between {here} and {there}: armour and artillery cross a waterway only by "
            "bridge or ferry")
    raise IllegalMove(
        "Units/Infantry", f"infantry crosses the {water} without a bridge only from the "
        "sector next to the waterway where it starts its movement phase, and the crossing "
        "consumes all its movement points")


FERRY_REFUSED, STREAM_REFUSED, KIND_REFUSED, START_REFUSED = "Ferry", "stream", "kind", "start"
"""Why ``passage`` refuses a step: a ferry the side may not use, a deep-blue stream without a
bridge, armour or artillery across a waterway without a bridge, infantry not starting its
move beside the waterway."""

_PLAIN = (1, False, 0)
_BRIDGED = (1, False, 2)


def passage(state: AState, link: Link, here: str, there: str, kind: str, side: str,
            first_step: bool, fresh: bool,
            opened: Container[tuple[str, str]] | None = None) -> tuple[int, bool, int] | str:
    """The rules of one step across the border ``link`` (from ``here`` to ``there``): (movement
    points, whether the crossing ends the move, the defender's bonus dice), or why it is
    refused (``FERRY_REFUSED``...), in no words: the moves (``crossing``) and legal()'s search
    of the sectors a figure reaches (``legal.reachable``, many steps) read the rules here.
    ``opened``: ``bailey.open_borders`` of the state, when the caller has it."""
    if link.kind == "plain":
        return _PLAIN
    if ((here, there) in opened) if opened is not None else (
            bool(state.baileys) and open_between(state, here, there)):
        return _BRIDGED  # an open Bailey bridge is "accessible to all units" (Phase 3.4)
    if link.bridge is not None and link.bridge not in state.destroyed:
        return _BRIDGED  # "Crossing a bridge is free"; the defender gets +2 d10
    if link.ferry is not None and side == "german" and usable(state, link.ferry):
        # "Using the ferry is free" (German only, Ferry).  Crossing Waterways gives the +2 d10
        # to a defender "Crossing a bridge" only; a ferry is "Crossing a waterway without a
        # bridge": +3 d10 by day, +1 at night (reading in docs/arnhem44-interpretations.md).
        return 1, False, (1 if state.night else 3)
    if link.ferry is not None and (link.kind == "stream" or kind != "inf"):
        return FERRY_REFUSED
    if link.kind == "stream":
        return STREAM_REFUSED  # Waterways: a deep-blue stream is crossed by bridge or ferry
    if kind != "inf":
        return KIND_REFUSED  # Waterways: armour and artillery cross by bridge or ferry only
    if not (first_step and fresh):
        return START_REFUSED  # Units/Infantry: from where it starts, all its points
    # Day: 1 for the sector + 1 for the crossing; night: the crossing is free (A2).
    return (1 if state.night else 2), True, (1 if state.night else 3)


def _path_cost(board: Board, state: AState, path: tuple[str, ...], kind: str, side: str,
               mp: int, fresh: bool) -> tuple[int, int]:
    """(points spent, points left) along ``path`` for one figure; IllegalMove if it cannot."""
    spent = 0
    if mp == 0:
        raise IllegalMove(
            "Move/Contact", f"{a_key(kind)} in {path[0]} has no movement points left this phase: "
            "it used its allowance, crossed a waterway without a bridge, or took part in an "
            "intrusion (any attempt to intrude consumes all remaining movement points)")
    for index, (here, there) in enumerate(pairwise(path)):
        cost, ends, _ = crossing(board, state, here, there, kind, side, index == 0, fresh)
        spent += cost
        if spent > mp:
            raise IllegalMove(
                "Units/In General", f"{a_key(kind)} with {mp} movement point"
                f"{'s' if mp != 1 else ''} left cannot reach {there}"
                + (" (night: half the movement points)" if state.night else ""))
        if ends:
            if index != len(path) - 2:
                raise IllegalMove("Units/Infantry", "crossing a waterway without a bridge "
                                  "consumes all movement points: the move ends across it")
            return spent, 0
    return spent, mp - spent


def crossed(board: Board, state: AState, path: tuple[str, ...], kind: str, side: str) -> bool:
    """Whether a one-step path is a crossing without a bridge (it ends the move)."""
    return len(path) == 2 and crossing(board, state, path[0], path[1], kind, side, True,
                                       True)[1]


def key_name(kind: str) -> str:
    return {"inf": "infantry unit", "tank": "tank", "art": "artillery unit"}[kind]


def a_key(kind: str) -> str:
    return ("an " if kind in ("inf", "art") else "a ") + key_name(kind)


def move(board: Board, state: AState, command: Move) -> list[Event]:
    """Movement Outside Enemy Territory."""
    side = state.mover
    path = command.path
    start, dest = path[0], path[-1]
    figures = resolve(state, side, start, command.groups, "Move/Outside")
    if enemies(state, start, side):
        raise IllegalMove("Move/FallBack", f"{start} is disputed: figures leave enemy territory "
                          "only by falling back (fall-back GROUPS FROM->TO)")
    total = sum(n for _, n in figures)
    for index, there in enumerate(path[1:], start=1):
        if enemies(state, there, side):
            raise IllegalMove(
                "Move/Contact", f"{there} is enemy territory: figures that make contact must "
                f"halt, and entering it is an intrusion (invade {there} from "
                f"{path[index - 1]}: ...)")
        if there != dest and there != start and friends(state, there, side) >= board.max_per_side:
            raise IllegalMove("Move/Outside", f"{there} already holds {board.max_per_side} "
                              "friendly units: no figure passes through it")
    if dest != start and friends(state, dest, side) + total > board.max_per_side:
        raise IllegalMove("Move/Outside", f"{dest} would hold "
                          f"{friends(state, dest, side) + total} {side.capitalize()} units: "
                          f"at most {board.max_per_side} per side in a sector")
    plans: list[tuple[Key, int]] = []
    chosen = []  # each key's figures taken, as ``take`` chooses them (no figure moved yet)
    for key, n in figures:
        lefts: dict[tuple[int, bool], int] = {}  # figures alike walk the path alike
        best = points(board, state, start, key)[:n]
        chosen.append(best)
        for mp, was_fresh in best:
            left = lefts.get((mp, was_fresh))
            if left is None:
                _, left = _path_cost(board, state, path, key[1], side, mp, was_fresh)
                if left == 0 and was_fresh and start == state.joker_sector and crossed(
                        board, state, path, key[1], side):
                    # Jokers: "A joker cannot be used to cross a river or canal; it can
                    # however be used to move infantry units that so need an extra sector
                    # AFTER the unit has crossed": the crossing consumes the figure's own
                    # points, the joker's point is left for the sector after it (reading
                    # A47)
                    left = 1
                lefts[(mp, was_fresh)] = left
            plans.append((key, left))
    for (key, n), best in zip(figures, chosen, strict=True):
        take(state, start, key, n, board, best)  # (each key once: ``resolve``)
    # the figures alike put at once (the same counts, their keys in the same order: as
    # ``Counter(plans)`` counts them, without its Python calls)
    alike: dict[tuple[Key, int], int] = {}
    for plan in plans:
        alike[plan] = alike.get(plan, 0) + 1
    for (key, left), n in alike.items():
        put(state, dest, key, left, n)
    route = "->".join(path)
    return [Event("move", f"{side.capitalize()} moves {counts_text(dict(figures))} {route}",
                  {"side": side, "figures": {key_text(k): n for k, n in figures},
                   "path": list(path)})]


def _bonus_airborne(state: AState, key: Key) -> int:
    """The 1st Round: Allied airborne units +1 d10 in phases 4.1 and 4.2 of round 1; Phase 2.3:
    - 1 or - 2 D10 for a unit whose HQ has no supplies."""
    first = 1 if state.round == 1 and state.phase in ("4.1", "4.2") and key[0] in AIRBORNE else 0
    return first - penalty(state, key)


def engage(board: Board, state: AState, dice: Dice, defenders_at: str,
           attackers: list[tuple[Key, str]], bonus: int, attack_numbers: dict[str, str],
           label: str, joker: Reroll | None = None, collateral: Zeros | None = None) -> tuple[
               list[tuple[Key, str]], list[tuple[Key, str]], list[str]]:
    """An engagement of the movement phase: the defender fires first, only eliminations count;
    then the surviving attackers fire back (Rules of Engagement When Entering Enemy Territory).

    ``attackers`` are (figure, sector it came from); ``attack_numbers`` maps that sector to the
    sector whose lower numbers it uses.  Returns (unhurt attackers, injured attackers, words);
    eliminated figures are removed from the state (attackers are not on the map meanwhile).
    """
    side = side_of(attackers[0][0][0])
    defending = {k: n for k, n in state.units.get(defenders_at, Counter()).items()
                 if side_of(k[0]) != side}
    defenders = expand(defending)
    order = sorted(range(len(attackers)), key=lambda i: key_order(attackers[i][0]))
    targets = [attackers[i] for i in order]
    shooters = [Shooter(k, board.combat_fp(k) + bonus - penalty(state, k),
                        board.number(defenders_at, k[1]))
                for k in defenders]
    damage, words = fire(board, dice, shooters, [k for k, _ in targets],
                         f"{label}: {other(side).capitalize()} defends", None, collateral)
    dead, _ = outcome_of(board, [k for k, _ in targets], damage)
    alive = [(t, d) for t, d in zip(targets, damage, strict=True)
             if d < board.hit_points(t[0])]
    for key, n in dead.items():
        state.eliminated[key] += n
    if dead:
        words.append(f"eliminated: {counts_text(dead)}")
    back = [Shooter(k, board.combat_fp(k) + _bonus_airborne(state, k),
                    min(board.number(defenders_at, k[1]),
                        board.number(attack_numbers[src], k[1])))
            for (k, src), _ in alive]
    hit, more = fire(board, dice, back, defenders, f"{label}: {side.capitalize()} fires back",
                     joker, collateral)
    words += more
    killed, _ = outcome_of(board, defenders, hit)
    for key, n in killed.items():
        state.remove(defenders_at, key, n)
        state.eliminated[key] += n
    if killed:
        words.append(f"eliminated: {counts_text(killed)}")
    unhurt = [t for t, d in alive if d == 0]
    injured = [t for t, d in alive if d > 0]
    return unhurt, injured, words


def invade(board: Board, state: AState, dice: Dice, command: Invade) -> list[Event]:
    """Enemy Contact: an intrusion into enemy territory, from one or more sectors at once."""
    side = state.mover
    target = command.target
    if not enemies(state, target, side):
        raise IllegalMove("Move/Contact", f"{target} holds no enemy units: move there instead "
                          "of invading")
    bonus = 0
    plans: list[tuple[Key, str, int]] = []
    seen: set[str] = set()
    for source, groups in command.parts:
        if source in seen:
            raise IllegalMove("Move/Contact", f"{source} is named twice in one intrusion")
        seen.add(source)
        if source == target or source not in board.links[target]:
            raise IllegalMove("Move/Contact", f"{source} is not adjacent to {target}")
        if enemies(state, source, side):
            raise IllegalMove(
                "Move/FallBack", f"{source} is disputed: figures leave it only by falling back; "
                f"fall back and invade in a single move: fall-back GROUPS {source}->{target}")
        figures = resolve(state, side, source, groups, "Move/Contact")
        for key, n in figures:
            for mp, was_fresh in points(board, state, source, key)[:n]:
                cost, _, extra = crossing(board, state, source, target, key[1], side, True,
                                          was_fresh)
                if mp < cost:
                    raise IllegalMove(
                        "Move/Contact", f"{a_key(key[1])} in {source} has {mp} movement "
                        f"point{'s' if mp != 1 else ''} left, and invading {target} costs {cost}"
                        + (" (night: half the movement points)" if state.night else ""))
                bonus = max(bonus, extra)
                plans.append((key, source, mp))
    count = len(plans)
    # A8: every unit that took part in an intrusion into the sector this phase counts against
    # the 9, eliminated or not, with the friendly units present at the first intrusion.
    used = state.intruded.get(target, friends(state, target, side))
    room = board.max_per_side - used
    if count > room:
        raise IllegalMove(
            "Move/Contact", f"at most {board.max_per_side} units invade {target}, minus the "
            "friendly units already there and every unit that invaded it this phase: "
            f"{max(room, 0)} may, not {count}")
    collateral = _bridges_crossed(board, state, dice, [(s, target) for _, s, _ in plans],
                                  f"invade {target}")
    joker = Joker(state, side, dice, command.joker)
    for source, groups in command.parts:
        for key, n in resolve(state, side, source, groups, "Move/Contact"):
            take(state, source, key, n, board)
    state.intruded[target] = used + count
    attackers = [(k, s) for k, s, _ in plans]
    unhurt, injured, words = engage(
        board, state, dice, target, attackers, bonus, {s: s for _, s, _ in plans},
        f"invasion of {target}", joker, collateral)
    for key, _source in unhurt:
        put(state, target, key, 0)
    for key, source in injured:
        put(state, source, key, 0)
    text = f"{side.capitalize()} invades {target} with {count} unit{'s' if count != 1 else ''}"
    if bonus:
        text += f" (each defending unit +{bonus} d10 for the crossing)"
    data = {"target": target, "from": [s for s, _ in command.parts], "bonus": bonus,
            "entered": len(unhurt), "stayed": len(injured)}
    out = [Event("invade", text, data)]
    out += [Event("fire", w) for w in words]
    out += joker.done()
    result = f"{len(unhurt)} enter {target}"
    if injured:
        result += f"; {len(injured)} injured stay behind"
    out.append(Event("intrusion", result + " (all halt)", data))
    if collateral is not None:
        out += collateral.settle()
    return out


def _bridges_crossed(board: Board, state: AState, dice: Dice,
                     steps: list[tuple[str, str]], what: str) -> Collateral | None:
    """Veterans/4 (bridge damage), before any die of an intrusion or fall back: the crossing
    limit (the figures crossing each bridge at once are at most its hit points left), and the
    bridges the assault crosses, in the order of the figures' steps (None: the option is off,
    or no bridge is crossed).  ``steps``: each figure's (from, to)."""
    if not active(state):
        return None
    crossers: Counter[str] = Counter()
    for here, there in steps:
        bridge = across(board, state, here, there)
        if bridge is not None:
            crossers[bridge] += 1
    check_crossers(board, state, crossers, what)
    return Collateral(board, state, dice, list(crossers)) if crossers else None


def fall_back(board: Board, state: AState, dice: Dice, command: FallBack) -> list[Event]:
    """Fall Back: leaving a disputed sector, with the spotting roll (S = E + F)."""
    side = state.mover
    start, dest = command.start, command.dest
    if not enemies(state, start, side):
        raise IllegalMove("Move/FallBack", f"{start} holds no enemy units: figures leave it by "
                          "moving (move GROUPS FROM->TO)")
    if dest not in board.links[start]:
        raise IllegalMove("Move/FallBack", f"{dest} is not adjacent to {start}")
    invading = enemies(state, dest, side) > 0
    figures = resolve(state, side, start, command.groups, "Move/FallBack")
    total = sum(n for _, n in figures)
    if invading:
        # Fall back and invade in a single move: the intrusion's limit of 9 (Move/Contact, A8)
        used = state.intruded.get(dest, friends(state, dest, side))
        if total > board.max_per_side - used:
            raise IllegalMove(
                "Move/Contact", f"at most {board.max_per_side} units invade {dest}, minus the "
                "friendly units already there and every unit that invaded it this phase: "
                f"{max(board.max_per_side - used, 0)} may, not {total}")
    elif friends(state, dest, side) + total > board.max_per_side:
        raise IllegalMove("Move/FallBack", f"{dest} would hold more than {board.max_per_side} "
                          f"{side.capitalize()} units")
    costs: dict[Key, int] = {}
    bonus = 0
    for key, n in figures:
        for mp, was_fresh in points(board, state, start, key)[:n]:
            cost, ends, extra = crossing(board, state, start, dest, key[1], side, True,
                                         was_fresh)
            if mp < cost:
                raise IllegalMove("Move/FallBack", f"{a_key(key[1])} in {start} has {mp} "
                                  f"movement point{'s' if mp != 1 else ''} left; falling back "
                                  f"to {dest} costs {cost}")
            costs[key] = max(costs.get(key, 0), 99 if ends else cost)
            bonus = max(bonus, extra)
    _bridges_crossed(board, state, dice, [(start, dest)] * total, f"fall back from {start}")
    e = enemies(state, start, side)
    # Fall Back: "F = the TOTAL number of units that Fall back": the units of every fall back
    # out of this sector this phase, this one's included, so that writing them on several
    # lines never lowers S (reading in docs/arnhem44-interpretations.md, Move/FallBack).
    f = state.fallen_back.get(start, 0) + total
    state.fallen_back[start] = f
    s_value = e + f
    listed = expand(dict(figures))
    rollers = [k for k in listed if (k[1] != "inf") == state.night]
    unseen: list[Key] = [k for k in listed if k[1] == "inf"] if state.night else []
    spotted: list[Key] = [k for k in listed if k[1] != "inf"] if not state.night else []
    words = []
    if command.joker and not rollers and not spotted and not invading:
        # Jokers: "To counter a single throw of one D10 when a ZERO is rolled": infantry
        # falling back at night rolls no die at all (unseen, no fight): nothing to counter
        raise IllegalMove("Jokers", f"the fall back from {start} rolls no die of the "
                          f"{side.capitalize()} player (at night infantry falls back unseen): "
                          "the joker would counter nothing, so it is kept")
    joker = Joker(state, side, dice, command.joker)
    if rollers:
        label = f"spotting at {start} (S = {e} + {f} = {s_value}; higher escapes)"
        faces = joker(dice.roll(10, len(rollers), label, low=0), label)
        for key, face in zip(rollers, faces, strict=True):
            (unseen if face > s_value else spotted).append(key)
        words.append(f"spotting: S = E {e} + F {f} = {s_value}; "
                     f"{len(unseen)} unseen, {len(spotted)} spotted")
    elif state.night:
        words.append(f"at night infantry falls back unseen (S = {s_value})")
    else:
        words.append(f"by day tanks and artillery cannot fall back unseen (S = {s_value})")
    events = [Event("fall-back", f"{side.capitalize()} falls back {counts_text(dict(figures))} "
                    f"{start}->{dest}", {"from": start, "to": dest, "spotted": len(spotted),
                                         "unseen": len(unseen)})]
    events += [Event("spotting", w) for w in words]
    state.fallback = FallBackPending(start, dest, spotted, unseen, costs, bonus, invading)
    if spotted and any(k[1] == "inf" for k in unseen):
        events += joker.done()
        events.append(Event("support-due", f"{side.capitalize()} decides whether unseen "
                            "infantry supports the spotted units (support GROUPS / no support)"))
        return events
    events += finish_fall_back(board, state, dice, [], joker)
    return events


def finish_fall_back(board: Board, state: AState, dice: Dice, support: list[Key],
                     joker: Joker | None = None) -> list[Event]:
    """The spotted figures (and supporting unseen infantry) fight their way out."""
    pending = state.fallback
    assert pending is not None
    side = state.mover
    costs = pending.costs
    start, dest = pending.start, pending.dest
    fighters = list(pending.spotted) + support
    free = list(pending.unseen)
    for key in support:
        free.remove(key)
    moving = Counter(fighters + free)
    lefts: dict[Key, list[int]] = {}
    for key, n in moving.items():
        chosen = take(state, start, key, n, board)
        lefts[key] = [max(mp - costs.get(key, 1), 0) if costs.get(key, 1) < 99 else 0
                      for mp, _ in chosen]
    events: list[Event] = []
    unhurt: list[Key] = []
    injured: list[Key] = []
    # Veterans/4: the bridge the figures cross (their number was checked by fall_back)
    collateral = _bridges_crossed(board, state, dice, [(start, dest)], f"fall back from {start}")
    if fighters:
        ok, hurt, words = engage(board, state, dice, start, [(k, start) for k in fighters],
                                 pending.bonus, {start: dest}, f"fall back from {start}", joker,
                                 collateral)
        unhurt = [k for k, _ in ok]
        injured = [k for k, _ in hurt]
        events += [Event("fire", w) for w in words]
    for key in injured:
        put(state, start, key, 0)
    out = unhurt + free
    if pending.invade and out:
        # "first the falling back is resolved, afterwards the invasive part" (Fall Back): the
        # units that got out intrude the enemy sector from the one they left; at most 1 sector.
        used = state.intruded.get(dest, friends(state, dest, side))
        state.intruded[dest] = used + len(out)
        entered, stayed, words = engage(board, state, dice, dest, [(k, start) for k in out],
                                        pending.bonus, {start: start},
                                        f"invasion of {dest}", joker, collateral)
        events += [Event("fire", w) for w in words]
        for key, _ in entered:
            put(state, dest, key, 0)
        for key, _ in stayed:
            put(state, start, key, 0)
            injured.append(key)
        events.append(Event("intrusion", f"{len(entered)} enter {dest}"
                            + (f"; {len(stayed)} injured stay behind in {start}" if stayed
                               else "") + " (all halt)", {"target": dest}))
        out = [k for k, _ in entered]
    else:
        for key in out:
            put(state, dest, key, lefts[key].pop(0))
    state.fallback = None
    text = f"{len(out)} {'enter' if pending.invade else 'reach'} {dest}"
    if injured:
        text += f"; {len(injured)} injured stay behind in {start}"
    events.append(Event("fell-back", text, {"side": side, "to": dest, "reached": len(out),
                                            "stayed": len(injured)}))
    if collateral is not None:
        events += collateral.settle()
    if joker is not None:
        events += joker.done()
    return events


def support(board: Board, state: AState, dice: Dice, command: Support) -> list[Event]:
    pending = state.fallback
    assert pending is not None
    side = state.mover
    chosen: list[Key] = []
    available = Counter(k for k in pending.unseen if k[1] == "inf")
    for (group, kind), n in command.groups:
        if kind != "inf":
            raise IllegalMove("Move/FallBack", "only unseen infantry may support spotted units")
        matches = [k for k in available if available[k] and (not group or k[0] == group)]
        if len(matches) > 1:
            raise IllegalMove("Move/FallBack", "name the group of the supporting infantry: "
                              + ", ".join(key_text(k) for k in matches))
        if not matches or available[matches[0]] < n:
            raise IllegalMove("Move/FallBack", f"{n} unseen infantry "
                              f"{'of ' + group + ' ' if group else ''}are not falling back from "
                              f"{pending.start} unseen")
        available[matches[0]] -= n
        chosen += [matches[0]] * n
    joker = Joker(state, side, dice, command.joker)
    events = [Event("support", f"{side.capitalize()}: "
                    + (f"{len(chosen)} unseen infantry support" if chosen else "no support"))]
    return events + finish_fall_back(board, state, dice, chosen, joker)
