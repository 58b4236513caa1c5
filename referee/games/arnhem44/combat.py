"""Phases 4.2 and 5.2: combat in disputed sectors and withdrawal (Rules of Engagement:
Combat in Disputed Sectors, Injured Units Don't Have a Memory, Withdrawal).
"""

from __future__ import annotations

from collections import Counter

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.arnhem44.board import (
    AIRBORNE,
    ALLIED,
    GERMAN,
    Board,
    Key,
    key_text,
    side_of,
)
from referee.games.arnhem44.commands import First, Withdraw
from referee.games.arnhem44.figures import resolve
from referee.games.arnhem44.fire import Shooter, counts_text, expand, fire, outcome_of
from referee.games.arnhem44.jokers import combat_jokers
from referee.games.arnhem44.presence import TOTALS_KEPT, enemies, friends, side_totals
from referee.games.arnhem44.state import AState, Withdrawal
from referee.games.arnhem44.supply import penalty


def disputed(board: Board, state: AState) -> list[str]:
    """Sectors with both armies present, in map order (Basic Concepts: Disputed sectors): each
    sector's figures per side (``friends`` of both not 0) read from its ``Figures`` directly.
    The figures have just moved (the end of a movement phase): the sectors holding figures
    are read (a third of the map's), then put in map order."""
    rank = board.rank
    out = []
    for sector, here in state.units.items():
        if here and sector in rank:
            totals = getattr(here, TOTALS_KEPT, None) or side_totals(here)  # ``friends``
            if totals[ALLIED] and totals[GERMAN]:
                out.append(sector)
    if len(out) > 1:
        out.sort(key=rank.__getitem__)
    return out


def combat_dice_change(state: AState, key: Key) -> int:
    """The 1st Round: Allied airborne units +1 d10 in phase 4.2 of round 1; Phase 2.3: - 1 or
    - 2 D10 for a unit whose HQ has no supplies."""
    first = 1 if state.round == 1 and state.phase == "4.2" and key[0] in AIRBORNE else 0
    return first - penalty(state, key)


def combat(board: Board, state: AState, dice: Dice, sector: str,
           joker_players: tuple[str, ...] = ()) -> list[Event]:
    """One turn of simultaneous combat in a disputed sector; ``joker_players`` play their
    joker on their side's hit dice (``combat SECTOR joker PLAYER``, jokers.combat_jokers)."""
    here = state.units.get(sector, Counter())
    sides = {side: {k: n for k, n in here.items() if side_of(k[0]) == side}
             for side in (ALLIED, GERMAN)}
    figures = {side: expand(sides[side]) for side in sides}
    shooters = {side: [Shooter(k, board.combat_fp(k) + combat_dice_change(state, k),
                               board.number(sector, k[1])) for k in figures[side]]
                for side in sides}
    cards = combat_jokers(state, dice, sector, joker_players, shooters, figures)
    damage: dict[str, list[int]] = {}
    words: list[str] = []
    events = [Event("combat", f"combat in {sector}", {"sector": sector})]
    for side, enemy in ((ALLIED, GERMAN), (GERMAN, ALLIED)):
        card, own = cards.get(side, (None, None))
        damage[enemy], more = fire(board, dice, shooters[side], figures[enemy],
                                   f"{side.capitalize()} fires", card, own=own)
        words += more
        events += [Event("fire", w) for w in more]
        if card is not None:
            events += card.done()
    for side in (ALLIED, GERMAN):
        dead, hurt = outcome_of(board, figures[side], damage[side])
        for key, n in dead.items():
            state.remove(sector, key, n)
            state.eliminated[key] += n
        if dead:
            events.append(Event("eliminated", f"{side.capitalize()} loses {counts_text(dead)}",
                                {"sector": sector, "side": side,
                                 "figures": {key_text(k): n for k, n in dead.items()}}))
        for key, n in sorted(hurt.items()):
            state.withdrawals.append(Withdrawal(sector, key, n))
        if hurt:
            events.append(Event("must-withdraw", f"{side.capitalize()} must withdraw "
                                f"{counts_text(hurt)} from {sector} (half or more hit points "
                                "lost)", {"sector": sector, "side": side}))
    if not any(damage[s] for s in damage) and not words:
        events.append(Event("no-fire", f"no unit in {sector} has a target (e.g. only artillery "
                            "facing infantry or artillery); the sector stays disputed"))
    return events


def firepower(board: Board, state: AState, sector: str, side: str) -> int:
    """A side's firepower in a sector: the dice its figures there would roll (A14)."""
    return sum(max(0, board.combat_fp(k) - penalty(state, k)) * n
               for k, n in state.units.get(sector, Counter()).items() if side_of(k[0]) == side)


def sector_sides(state: AState) -> set[str]:
    if not state.withdrawals:
        return set()
    sector = state.withdrawals[0].sector
    return {side_of(w.key[0]) for w in state.withdrawals if w.sector == sector}


def destinations(board: Board, state: AState, sector: str, side: str) -> list[str]:
    """Where a figure withdrawing from ``sector`` may run, after the priority list (A15)."""
    legal = [s for s in board.neighbours[sector]
             if board.links[sector][s].kind == "plain"
             and not enemies(state, s, side)
             and friends(state, s, side) < board.max_per_side]
    if not legal:
        return []
    own_y = board.xy[sector][1]

    def has_friends(s: str) -> bool:
        return friends(state, s, side) > 0

    def away(s: str) -> bool:
        return not any(enemies(state, n, side) for n in board.neighbours[s] if n != sector)

    def homeward(s: str) -> bool:
        return board.xy[s][1] < own_y if side == ALLIED else board.xy[s][1] > own_y

    # RoE/Withdrawal: "The list beneath is to be followed until the first item is met that can
    # be performed": towards friendly troops; away from the enemy; the Allies south, the
    # Germans north.  The first item some legal sector meets decides, and the later items are
    # not read; among its sectors (or, when no item can be performed, among all the legal
    # ones) the last item applies: "a sector selected by the strongest" (reading A15).
    for test in (has_friends, away, homeward):
        kept = [s for s in legal if test(s)]
        if kept:
            return kept
    return legal


def waiting(board: Board, state: AState) -> str | None:
    """What the withdrawals wait for: 'roll' (the referee's tie roll for the strongest side),
    'first' (the strongest side names who withdraws first) or 'where' (the strongest player
    picks a destination the priority list leaves open); None when nothing is pending."""
    if not state.withdrawals:
        return None
    sector = state.withdrawals[0].sector
    if len(sector_sides(state)) > 1 and state.first is None:
        return "roll" if state.strongest is None and _tie(board, state, sector) else "first"
    current = _current(state)
    assert current is not None
    if len(destinations(board, state, sector, side_of(current.key[0]))) > 1:
        return "roll" if state.strongest is None and _tie(board, state, sector) else "where"
    return None


def _tie(board: Board, state: AState, sector: str) -> bool:
    return firepower(board, state, sector, ALLIED) == firepower(board, state, sector, GERMAN)


def strongest(board: Board, state: AState) -> str:
    if state.strongest is not None:
        return state.strongest
    sector = state.withdrawals[0].sector
    a, g = firepower(board, state, sector, ALLIED), firepower(board, state, sector, GERMAN)
    return ALLIED if a > g else GERMAN


def _current(state: AState) -> Withdrawal | None:
    """The next withdrawal to carry out in the current sector (the first side first)."""
    if not state.withdrawals:
        return None
    sector = state.withdrawals[0].sector
    here = [w for w in state.withdrawals if w.sector == sector]
    if len({side_of(w.key[0]) for w in here}) > 1:
        if state.first is None:
            return None
        for w in here:
            if side_of(w.key[0]) == state.first:
                return w
    return here[0]


def settle(board: Board, state: AState, events: list[Event]) -> None:
    """Carry out every withdrawal that needs no decision."""
    while state.withdrawals:
        sector = state.withdrawals[0].sector
        if len(sector_sides(state)) > 1 and state.first is None:
            if state.strongest is None and not _tie(board, state, sector):
                state.strongest = strongest(board, state)
            return  # the strongest side names who withdraws first (or a tie roll)
        current = _current(state)
        assert current is not None
        side = side_of(current.key[0])
        options = destinations(board, state, sector, side)
        if not options:
            state.remove(sector, current.key, 1)
            state.eliminated[current.key] += 1
            events.append(Event("withdraw-eliminated", f"{key_text(current.key)} cannot "
                                f"withdraw from {sector} (no sector free of the enemy without "
                                "crossing a bridge or waterway): eliminated",
                                {"sector": sector, "figure": key_text(current.key)}))
        elif len(options) == 1:
            _withdraw_one(state, current, options[0], events)
            continue
        else:
            if state.strongest is None:
                if _tie(board, state, sector):
                    return
                state.strongest = strongest(board, state)
            return
        _consume(state, current)


def _withdraw_one(state: AState, w: Withdrawal, dest: str, events: list[Event]) -> None:
    state.remove(w.sector, w.key, 1)
    state.add(dest, w.key, 1)
    events.append(Event("withdraw", f"{key_text(w.key)} withdraws {w.sector}->{dest}",
                        {"sector": w.sector, "to": dest, "figure": key_text(w.key)}))
    _consume(state, w)


def _consume(state: AState, w: Withdrawal) -> None:
    """One figure of ``w`` has withdrawn (or was eliminated); the order and the strongest side
    belong to one sector and are forgotten when its withdrawals are done."""
    w.count -= 1
    if w.count == 0:
        state.withdrawals.remove(w)
    if not any(x.sector == w.sector for x in state.withdrawals):
        state.first = None
        state.strongest = None


def choose_first(board: Board, state: AState, command: First, events: list[Event]) -> None:
    state.first = command.side
    events.append(Event("first", f"{command.side.capitalize()} withdraws first "
                        f"(chosen by the strongest side, {strongest(board, state).capitalize()})"))
    settle(board, state, events)


def tie_roll(board: Board, state: AState, dice: Dice, events: list[Event]) -> None:
    """Withdrawal: "In case of a tie both players roll one die" (again while equal, A14)."""
    while True:
        a, g = dice.roll(10, 2, "strongest side: Allied, German", low=0)
        if a != g:
            break
    state.strongest = ALLIED if a > g else GERMAN
    events.append(Event("strongest", f"equal firepower: the dice make "
                        f"{state.strongest.capitalize()} the strongest side"))
    settle(board, state, events)


def withdraw(board: Board, state: AState, command: Withdraw, events: list[Event]) -> None:
    current = _current(state)
    assert current is not None
    side = side_of(current.key[0])
    if command.start != current.sector:
        raise IllegalMove("RoE/Withdrawal", f"the withdrawal now is from {current.sector}")
    figures = resolve(state, side, current.sector, command.groups, "RoE/Withdrawal")
    options = destinations(board, state, current.sector, side)
    if command.dest not in options:
        raise IllegalMove(
            "RoE/Withdrawal", f"{key_text(current.key)} withdrawing from {current.sector} may run "
            f"to {', '.join(options)} (never across a bridge or waterway, never into disputed or "
            "enemy territory; towards friends, away from the enemy, "
            f"{'south' if side == ALLIED else 'north'})")
    for key, n in figures:
        pending = sum(w.count for w in state.withdrawals
                      if w.sector == current.sector and w.key == key)
        if key != current.key or n > pending:
            raise IllegalMove("RoE/Withdrawal", f"the figures withdrawing now are {current.count} "
                              f"{key_text(current.key)} from {current.sector}")
    total = sum(n for _, n in figures)
    if friends(state, command.dest, side) + total > board.max_per_side:
        raise IllegalMove("RoE/Withdrawal", f"{command.dest} has room for "
                          f"{board.max_per_side - friends(state, command.dest, side)} more")
    for _ in range(total):
        _withdraw_one(state, current, command.dest, events)
    settle(board, state, events)
