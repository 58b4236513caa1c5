"""Positions: ``setup:`` statements that describe a starting position other than the opening,
and the lines that rebuild a state (``referee position``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from lark import Token, Tree

from referee.core.errors import IllegalMove, NotImplementedRule
from referee.games.arnhem44 import damage, explosives_position
from referee.games.arnhem44.airborne import due
from referee.games.arnhem44.bailey_position import (
    bailey_lines,
    bailey_statement,
    check_bailey,
    clear_bailey,
    place_bailey,
)
from referee.games.arnhem44.barrage import players
from referee.games.arnhem44.board import (
    AIRBORNE_GROUPS,
    ALLIED,
    GERMAN,
    SIDES,
    Board,
    Key,
    key_order,
    key_text,
    side_of,
)
from referee.games.arnhem44.commands import (
    _groups,
    _sector,
    airborne_group,
    groups_text,
)
from referee.games.arnhem44.copying import changed
from referee.games.arnhem44.jokers import holders
from referee.games.arnhem44.options import three_players
from referee.games.arnhem44.report import invariants, start_waiting, totals
from referee.games.arnhem44.sectors import Sectors
from referee.games.arnhem44.state import (
    COMBAT,
    MOVEMENT,
    OVER,
    SETUP_ALLIED,
    SETUP_GERMAN,
    AState,
    Withdrawal,
)
from referee.games.arnhem44.statement import Statement
from referee.games.arnhem44.statement import keys as _keys
from referee.games.arnhem44.statement import take_off_board as _take_off_board
from referee.games.arnhem44.supply import drop_due
from referee.games.arnhem44.supply import waiting as supply_waiting
from referee.games.arnhem44.turns import first_part, place_part

PHASES = (SETUP_GERMAN, SETUP_ALLIED, "1", "2.1", "2.2", "3.1-german", "3.1-allied", "3.2", "3.3",
          "3.4", "4.1", "4.2", "5.1", "5.2", "6.1", "6.2", "6.3")
RULE = "Positions"


def build_setup(board: Board, tree: Tree[Any]) -> Statement:
    kind = tree.data.removeprefix("setup_")
    ch = tree.children
    if kind == "clear":
        return Statement("clear")
    if kind == "round":
        return Statement("round", number=int(str(ch[0])))
    if kind in ("barrage_turn", "barrage_over"):
        return Statement(kind, value=str(ch[0]).casefold())
    if kind in ("fired", "joker_move"):
        return Statement(kind, sector=_sector(board, ch[0]))
    if kind == "jokers":
        return Statement(kind, value=str(ch[0]).casefold(), number=int(str(ch[1])))
    if kind in ("phase", "weather", "first", "strongest", "part"):
        return Statement(kind, value=str(ch[0]).casefold())
    if kind in ("reserve", "pool", "eliminated", "arriving", "held_above", "held_free"):
        return Statement(kind, groups=_groups(board, ch[0]))
    if kind in ("icons", "above_rhine", "box", "supplies_used"):
        return Statement(kind, number=int(str(ch[0])))
    if kind in ("supply", "contact"):
        group = airborne_group(ch[0])
        if kind == "contact":
            return Statement(kind, value=group)
        status = str(ch[2]).casefold() if len(ch) > 2 and ch[2] is not None else "full"
        return Statement(kind, value=group, number=int(str(ch[1])), sector=status)
    if kind == "tokens":
        return Statement(kind, sector=_sector(board, ch[1]), number=int(str(ch[0])))
    if kind == "anti_aircraft":
        return Statement(kind, groups=_groups(board, ch[0]), sector=_sector(board, ch[1]))
    if kind == "dropping":
        return Statement(kind, sector=_sector(board, ch[0]))
    if kind in ("token_won", "nijmegen_reached"):
        return Statement(kind)
    if kind in ("place", "withdrawing"):
        return Statement(kind, groups=_groups(board, ch[0]), sector=_sector(board, ch[1]))
    if kind == "moved":
        return Statement(kind, groups=_groups(board, ch[0]), sector=_sector(board, ch[1]),
                         number=int(str(ch[2])))
    if kind in ("intruded", "fallen_back"):
        return Statement(kind, sector=_sector(board, ch[1]), number=int(str(ch[0])))
    if kind == "combat":
        return Statement(kind, sector=_sector(board, ch[0]))
    if kind in ("engineer", "bailey", "ferry", "contact", "bridge", "recalled"):
        return Statement(kind, **bailey_statement(board, kind, tree))
    if kind == "damage":
        return Statement(kind, value=str(ch[0]), number=int(str(ch[1])))
    if kind == "control":
        first = ch[0]
        bridge = board.bridge_names.lookup(
            str(first), column=first.column if isinstance(first, Token) else None)
        return Statement(kind, sector=bridge, value=str(ch[1]).casefold())
    if kind in explosives_position.KINDS:
        built = explosives_position.build(board, kind, tree)
        return Statement(kind, sector=built[1], value=built[2],
                         groups=tuple((("", ""), n) for n in built[3]))
    raise AssertionError(kind)


def place(board: Board, state: AState, st: Statement) -> None:
    kind = st.kind
    if kind == "clear":
        state.units = Sectors()
        state.pool = Counter()
        state.track = []
        state.eliminated = Counter()
        state.waiting = Counter(totals(board))
        state.moved = {}
        state.intruded = {}
        state.fallen_back = {}
        state.combats = []
        state.withdrawals = []
        state.arriving = []
        state.above_rhine = 0
        state.held_above = Counter()
        state.held_free = Counter()
        state.icons_used = 0
        state.control = {b: GERMAN for b in board.bridges}
        state.barrage_turn = None
        state.barrage_fired = []
        state.barrage_over = []
        state.joker_sector = None
        state.phase = "4.1"
        state.anti_aircraft = []
        state.box = board.scenario.meta.supply_tokens
        state.tokens = {}
        state.dropping = []
        state.token_won = False
        state.nijmegen_reached = False
        state.hq = {}
        state.status = {}
        state.contact = set()
        state.supplies_used = 0
        explosives_position.clear(state)
        clear_bailey(state)
        return
    if kind == "round":
        if not 1 <= st.number <= board.rounds:
            raise IllegalMove(RULE, f"a round is 1 to {board.rounds}")
        state.round = st.number
    elif kind == "phase":
        if st.value not in PHASES:
            raise IllegalMove(RULE, f"a position's phase is one of {', '.join(PHASES)}")
        state.phase = st.value
        state.part = first_part(state)
        if st.value == "1" and three_players(state):
            # Veterans/3: no initiative roll; the UK battery's turn unless the position says
            # otherwise (setup: barrage-turn, setup: part)
            state.barrage_turn = ALLIED
    elif kind == "part":
        place_part(state, st.value)
    elif kind == "weather":
        if st.value not in ("fine", "bad"):
            raise IllegalMove(RULE, "the weather is fine or bad")
        state.weather = st.value
    elif kind == "icons":
        if st.number > len(board.scenario.forces.reserve_icons):
            raise IllegalMove(RULE, "more reserve icons than the track prints")
        state.icons_used = st.number
    elif kind == "above_rhine":
        state.above_rhine = st.number
    elif kind in ("box", "supply", "tokens", "supplies_used", "dropping"):
        _supply_statement(state, st)
    elif kind == "contact":
        state.contact.add(st.value)
    elif kind == "token_won":
        state.token_won = True
    elif kind == "nijmegen_reached":
        state.nijmegen_reached = True
    elif kind == "anti_aircraft":
        keys = [k for k, n in _keys(st.groups) for _ in range(n)]
        if any(side_of(k[0]) != ALLIED for k in keys):
            raise IllegalMove(RULE, "anti-aircraft fire waits for Allied airborne figures")
        state.anti_aircraft.append((st.sector, sorted(keys, key=key_order)))
    elif kind in ("held_above", "held_free"):
        # held-back German reserves stay off the board (counted as waiting)
        held = state.held_above if kind == "held_above" else state.held_free
        for key, n in _keys(st.groups):
            if side_of(key[0]) != GERMAN:
                raise IllegalMove(RULE, "only German reserves are held back (Phase 6.3)")
            held[key] += n
    elif kind in ("place", "reserve", "eliminated", "pool", "arriving"):
        for key, n in _keys(st.groups):
            _take_off_board(state, key, n)
            if kind == "place":
                state.add(st.sector, key, n)
            elif kind == "reserve":
                state.track += [key] * n
            elif kind == "pool":
                state.pool[key] += n
            elif kind == "arriving":
                state.arriving += [key] * n
            else:
                state.eliminated[key] += n
    elif kind == "moved":
        for key, n in _keys(st.groups):
            moved_key = (key[0], key[1], st.number)
            here = state.moved.get(st.sector)  # a new count (``copying.changed``), as in play
            state.moved[st.sector] = changed(here, moved_key,
                                             (here.get(moved_key, 0) if here else 0) + n)
    elif kind == "intruded":
        state.intruded[st.sector] = st.number
    elif kind == "fallen_back":
        state.fallen_back[st.sector] = st.number
    elif kind == "combat":
        state.combats.append(st.sector)
    elif kind == "withdrawing":
        for key, n in _keys(st.groups):
            state.withdrawals.append(Withdrawal(st.sector, key, n))
    elif kind in ("first", "strongest"):
        if st.value not in SIDES:
            raise IllegalMove(RULE, f"{kind} names a side: allied or german")
        setattr(state, kind, st.value)
    elif kind in ("barrage_turn", "barrage_over", "jokers"):
        # Veterans/3: skips and jokers belong to players (uk, us, german); turns to sides
        names = SIDES if kind == "barrage_turn" else holders(state)
        if st.value not in names:
            raise IllegalMove(RULE, f"{kind.replace('_', '-')} names "
                              + ("a side" if names == SIDES else "a player") + ": "
                              + " or ".join(names))
        if kind == "barrage_turn":
            state.barrage_turn = st.value
        elif kind == "barrage_over":
            if st.value not in state.barrage_over:
                state.barrage_over.append(st.value)
        else:
            if st.number > 3:
                raise IllegalMove(RULE, "there are 3 jokers (Jokers)")
            state.jokers[st.value] = st.number
    elif kind == "fired":
        if st.sector not in state.barrage_fired:
            state.barrage_fired.append(st.sector)
    elif kind == "joker_move":
        state.joker_sector = st.sector
    elif kind in explosives_position.KINDS:
        explosives_position.place(board, state, kind, st.sector, st.value,
                                  tuple(n for _, n in st.groups))
    elif kind in ("engineer", "bailey", "ferry", "contact", "bridge", "recalled"):
        place_bailey(board, state, st)
    elif kind == "damage":
        damage.place(board, state, st.value, st.number)
    elif kind == "control":
        if st.value not in SIDES:
            raise IllegalMove(RULE, "control names a side: allied or german")
        state.control[st.sector] = st.value


def _supply_statement(state: AState, st: Statement) -> None:
    """Supply tokens come out of the box: ``box N`` says how many are left in it (the rest
    are removed from the game unless other statements place them)."""
    kind = st.kind
    if kind == "box":
        placed = sum(state.tokens.values()) + sum(state.hq.values()) + len(state.dropping)
        total = state.box + state.supplies_used + placed
        if st.number + placed > total:
            raise IllegalMove(RULE, f"the box has {total} supply tokens in all")
        state.box = st.number
        state.supplies_used = total - placed - st.number
        return
    if kind == "supplies_used":
        if st.number > state.box + state.supplies_used:
            raise IllegalMove(RULE, "more supply tokens used than the box holds")
        state.box += state.supplies_used - st.number
        state.supplies_used = st.number
        return
    n = st.number if kind in ("supply", "tokens") else 1
    if n > state.box:
        raise IllegalMove(RULE, f"only {state.box} supply tokens left in the box")
    state.box -= n
    if kind == "supply":
        if st.sector not in ("full", "short", "flipped"):
            raise IllegalMove(RULE, "an HQ card is full, short or flipped")
        state.box += state.hq.get(st.value, 0)
        state.hq[st.value] = n
        state.status[st.value] = st.sector
    elif kind == "tokens":
        state.tokens[st.sector] = state.tokens.get(st.sector, 0) + n
    else:
        state.dropping.append(st.sector)


def check_position(board: Board, state: AState) -> list[str]:
    out = invariants(board, state)
    if state.combats and state.phase not in COMBAT:
        out.append("combats wait only in phase 4.2 or 5.2")
    if state.withdrawals and state.phase not in COMBAT:
        out.append("withdrawals wait only in phase 4.2 or 5.2")
    if state.phase in COMBAT and not state.combats and not state.withdrawals:
        # Phase 4.2: "In every sector where both sides are present, one turn of combat takes
        # place"; the phase ends once every combat and withdrawal is done.  A position in it
        # with none of them waiting is a moment the game never rests at.
        out.append(f"phase {state.phase} has nothing left to do: name the combats that wait "
                   f"(setup: combat SECTOR) or the withdrawals (setup: withdrawing N UNIT "
                   f"SECTOR), or set the phase that follows")
    if (state.moved or state.intruded or state.fallen_back) and state.phase not in MOVEMENT:
        out.append("moved figures, intrusions and fall backs belong to phase 4.1 or 5.1")
    if (state.anti_aircraft and state.phase != "2.1") or (
            state.dropping and state.phase != "2.2"):
        out.append("anti-aircraft fire waits only in phase 2.1, falling tokens only in 2.2")
    out += block_two_problems(board, state)
    if state.arriving and state.phase not in ("6.2", "6.3"):
        out.append("arriving reserves wait only in phase 6.2 or 6.3")
    if state.above_rhine > len(state.arriving):
        out.append("more reserves above the Rhine than are arriving")
    if any(state.waiting[k] < n for k, n in (state.held_above + state.held_free).items()):
        out.append("more German reserves held back than figures off the board")
    if (state.barrage_turn or state.barrage_fired or state.barrage_over) \
            and state.phase != "1":
        out.append("barrage turns, fired batteries and skips belong to phase 1")
    if state.barrage_turn is not None and state.barrage_turn in state.barrage_over:
        out.append("the side to fire in phase 1 has skipped already")
    if state.barrage_turn == ALLIED and three_players(state) and {"uk", "us"} <= set(
            state.barrage_over):
        out.append("both Allied players have skipped: no Allied turn is left in phase 1")
    if set(players(state)) <= set(state.barrage_over):
        out.append("every player has skipped: phase 1 is over")
    if state.joker_sector is not None and state.phase not in MOVEMENT:
        out.append("a joker's extra movement point belongs to phase 4.1 or 5.1")
    if any(c.tried for c in state.explosives.crates) and state.phase not in (
            "3.1-german", "3.1-allied", "3.2"):
        out.append("crates are tried only in phases 3.1 and 3.2")
    attempt = state.explosives.attempt
    if attempt is not None and (state.phase not in ("3.1-german", "3.1-allied", "3.2") or (
            attempt.action == "detonate") != (state.phase == "3.2")):
        out.append("a defusing roll waits only in phase 3.1, a detonation only in phase 3.2")
    out += check_bailey(board, state)
    for sector in state.combats:
        here = state.units.get(sector, Counter())
        if {side_of(g) for g, _ in here} != {ALLIED, GERMAN}:
            out.append(f"{sector} is not disputed: no combat waits there")
    for w in state.withdrawals:
        if state.units.get(w.sector, Counter())[w.key] < w.count:
            out.append(f"{w.sector} holds fewer {key_text(w.key)} than must withdraw")
    return out


def _groups_of(counts: Counter[Key] | dict[Key, int]) -> str:
    keys = sorted((k for k in counts if counts[k]), key=key_order)
    return groups_text(tuple((k, counts[k]) for k in keys))


def position_lines(board: Board, state: AState) -> list[str]:
    if state.fallback is not None:
        raise NotImplementedRule(
            "Move/FallBack", "a position cannot be written while a fall back waits for its "
            "support decision; write the position after 'support' or 'no support'")
    if state.phase == OVER:
        raise NotImplementedRule(RULE, "the game is over: there is no position to go on from")

    lines = ["setup: clear", f"setup: round {state.round}; phase {state.phase}; weather "
             f"{state.weather}"]
    for sector in board.order:
        counts = state.units.get(sector)
        if counts:
            lines.append(f"setup: place {_groups_of(counts)} {sector}")
    if state.pool:
        lines.append(f"setup: pool {_groups_of(state.pool)}")
    if state.track:
        runs: list[tuple[Key, int]] = []
        for key in state.track:
            if runs and runs[-1][0] == key:
                runs[-1] = (key, runs[-1][1] + 1)
            else:
                runs.append((key, 1))
        lines.append(f"setup: reserve {groups_text(tuple(runs))}")
    if state.eliminated:
        lines.append(f"setup: eliminated {_groups_of(state.eliminated)}")
    for sector in board.order:
        for (g, k, mp), n in sorted(state.moved.get(sector, Counter()).items()):
            if n:
                lines.append(f"setup: moved {n} {key_text((g, k))} {sector} mp {mp}")
        if state.intruded.get(sector):
            lines.append(f"setup: intruded {state.intruded[sector]} {sector}")
        if state.fallen_back.get(sector):
            lines.append(f"setup: fallen-back {state.fallen_back[sector]} {sector}")
    for sector in state.combats:
        lines.append(f"setup: combat {sector}")
    for w in state.withdrawals:
        lines.append(f"setup: withdrawing {w.count} {key_text(w.key)} {w.sector}")
    if state.first:
        lines.append(f"setup: first {state.first}")
    if state.strongest:
        lines.append(f"setup: strongest {state.strongest}")
    if state.icons_used:
        lines.append(f"setup: icons {state.icons_used}")
    if state.arriving:
        runs2: list[tuple[Key, int]] = []
        for key in state.arriving:
            if runs2 and runs2[-1][0] == key:
                runs2[-1] = (key, runs2[-1][1] + 1)
            else:
                runs2.append((key, 1))
        lines.append(f"setup: arriving {groups_text(tuple(runs2))}")
    if state.above_rhine:
        lines.append(f"setup: above-rhine {state.above_rhine}")
    if state.held_above:
        lines.append(f"setup: held-back-above {_groups_of(state.held_above)}")
    if state.held_free:
        lines.append(f"setup: held-back {_groups_of(state.held_free)}")
    if state.part is not None and state.part != first_part(state):
        lines.append(f"setup: part {state.part}")
    if state.barrage_turn:
        lines.append(f"setup: barrage-turn {state.barrage_turn}")
    lines += [f"setup: fired {sector}" for sector in state.barrage_fired]
    lines += [f"setup: barrage-over {side}" for side in state.barrage_over]
    for side in holders(state):
        if state.jokers.get(side, 0) != 1:
            lines.append(f"setup: jokers {side} {state.jokers.get(side, 0)}")
    if state.joker_sector:
        lines.append(f"setup: joker-move {state.joker_sector}")
    for bridge in board.bridges:
        side = state.control.get(bridge, GERMAN)
        if side != GERMAN:
            lines.append(f"setup: control {bridge} {side}")
    lines += bailey_lines(board, state)
    lines += explosives_position.lines(board, state)
    lines += damage.lines(board, state)
    if state.nijmegen_reached:
        lines.append("setup: nijmegen-reached")  # Veterans/2
    return lines + supply_lines(board, state)


def block_two_problems(board: Board, state: AState) -> list[str]:
    """A position in phase 2.1 or 2.2 must have something to do there."""
    out = []
    if state.phase == "2.1" and not state.anti_aircraft and not due(board, state):
        out.append(f"phase 2.1: no airborne unit of round {state.round}'s schedule is left to "
                   "land and no anti-aircraft fire waits")
    if state.phase == "2.2" and not state.dropping and not drop_due(board, state):
        out.append(f"phase 2.2: no supply drop in round {state.round} (odd rounds only, not "
                   "round 3, while the box holds tokens)")
    if any(g not in state.hq for g in state.contact):
        out.append("a group in contact with GARDEN has no HQ card in play (setup: supply)")
    if state.token_won and not state.dropping:
        out.append("token-won needs a falling token (setup: dropping)")
    if state.phase == "2.2" and state.dropping and supply_waiting(board, state) is None:
        out.append(f"the token falling on {state.dropping[0]} needs no roll and no decision: "
                   "write where it ends (setup: tokens, or an HQ card's supply)")
    return out


def supply_lines(board: Board, state: AState) -> list[str]:
    """Block 2's state: the box, HQ cards, contact, tokens on the map and waiting steps."""
    lines = []
    for group in AIRBORNE_GROUPS:
        if group in state.hq:
            status = state.status.get(group, "full")
            lines.append(f"setup: supply {group} {state.hq[group]}"
                         + ("" if status == "full" else f" {status}"))
    for group in AIRBORNE_GROUPS:
        if group in state.contact:
            lines.append(f"setup: contact {group}")
    for sector in board.order:
        if state.tokens.get(sector):
            lines.append(f"setup: tokens {state.tokens[sector]} {sector}")
    for sector in state.dropping:
        lines.append(f"setup: dropping {sector}")
    if state.token_won:
        lines.append("setup: token-won")
    for sector, keys in state.anti_aircraft:
        lines.append(f"setup: anti-aircraft {_groups_of(Counter(keys))} {sector}")
    lines.append(f"setup: box {state.box}")
    return lines


def opening(board: Board) -> AState:
    state = AState()
    state.waiting = start_waiting(board)
    for pool in board.scenario.forces.allied_setup:
        state.pool[(pool.group, pool.kind)] += pool.count
    state.control = {b: GERMAN for b in board.bridges}
    state.box = board.scenario.meta.supply_tokens
    crates = list(board.scenario.forces.setup_crates)  # Explosives in General: 5 at set-up
    state.explosives.stock = len(crates)
    state.explosives.unseen = Counter(crates)
    return state
