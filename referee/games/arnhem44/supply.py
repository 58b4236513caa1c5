"""Supplies: the HQ cards of the four airborne groups, supply drops (Phase 2.2), picking up
supply tokens (Supplies: Picking Up Supply Tokens, Waterways), distributing them (Phase 2.3),
the penalties of an HQ without supplies, and contact with operation GARDEN.

The 29 tokens of the box are conserved (``token_count``): every token is in the box, on the
map, falling (a drop not yet settled), on an HQ card, or removed from the game (distributed,
taken by the Germans, or collected by units whose supplies nobody keeps track of).
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import compress
from operator import is_not

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.arnhem44.board import (
    AIRBORNE,
    AIRBORNE_GROUPS,
    ALLIED,
    GERMAN,
    GERMAN_GROUP,
    KINDS,
    Board,
    Key,
    side_of,
)
from referee.games.arnhem44.commands import Collect, Groups
from referee.games.arnhem44.copying import Figures
from referee.games.arnhem44.presence import groups_here
from referee.games.arnhem44.sectors import journal_of
from referee.games.arnhem44.state import AState

FULL = "full"
SHORT = "short"
FLIPPED = "flipped"
STATUSES = (FULL, SHORT, FLIPPED)
PENALTY = {FULL: 0, SHORT: 1, FLIPPED: 2}
GROUND = frozenset({"UK", "US"})
"""Operation GARDEN: the Allied ground units."""


# -- counting -----------------------------------------------------------------------------------

def token_count(state: AState) -> dict[str, int]:
    """Where the supply tokens are: box, map, dropping, hq (cards) and used (removed)."""
    return {"box": state.box, "map": sum(state.tokens.values()), "dropping": len(state.dropping),
            "hq": sum(state.hq.values()), "used": state.supplies_used}


def tokens_conserved(board: Board, state: AState) -> bool:
    """The invariant: the box's tokens are all accounted for (Contents: 29 supply tokens)."""
    counts = token_count(state)
    return all(n >= 0 for n in counts.values()) and \
        sum(counts.values()) == board.scenario.meta.supply_tokens


# -- HQ status and penalties ----------------------------------------------------------------------

def tracked(state: AState, group: str) -> bool:
    """Does an HQ card keep track of the group's supplies?  Only an airborne group that has
    landed and has not made contact with GARDEN (Picking Up Supply Tokens)."""
    return group in state.hq and group not in state.contact


def hq_status(state: AState, group: str) -> str:
    """The status of the HQ card keeping ``group``'s supplies (Phase 2.3): full, short or
    flipped; full for a group no card tracks (ground units, airborne groups in contact)."""
    if group not in AIRBORNE or not tracked(state, group):
        return FULL
    return state.status.get(group, FULL)


def penalty(state: AState, key: Key) -> int:
    """Phase 2.3: dice a figure loses for its HQ's supplies: 1 when the last token has been
    distributed ("- D10 if no supplies"), 2 when the HQ card is flipped.  The barrage fire of
    phase 1 loses them too (artillery 5 D10 instead of 6)."""
    group = key[0]
    if group not in AIRBORNE or not tracked(state, group):
        return 0
    return PENALTY[state.status.get(group, FULL)]


def receive(state: AState, group: str, n: int, how: str) -> list[Event]:
    """``n`` tokens reach ``group``'s HQ card.  "In case of shortage, acquired supplies are
    distributed automatically": a short or flipped HQ spends one at once and is back to normal."""
    events: list[Event] = []
    if n <= 0:
        return events
    if not tracked(state, group):
        state.supplies_used += n
        return [Event("supply", f"{how}: {n} supply token{'s' if n != 1 else ''} removed "
                      "(no HQ card keeps track of them)", {"group": group, "tokens": n})]
    state.hq[group] += n
    events.append(Event("supply", f"{how}: {n} supply token{'s' if n != 1 else ''} to the "
                        f"{group} HQ ({state.hq[group]})", {"group": group, "tokens": n}))
    if state.status.get(group, FULL) != FULL:
        state.hq[group] -= 1
        state.supplies_used += 1
        state.status[group] = FULL
        events.append(Event("supply", f"the {group} HQ was short: one token is distributed at "
                            "once and the group fights at full strength again (Phase 2.3)",
                            {"group": group, "status": FULL}))
    return events


def activate(state: AState, group: str) -> None:
    """A group's HQ card comes into play when it first lands."""
    if group not in state.hq:
        state.hq[group] = 0
        state.status[group] = FULL


def distribute(state: AState) -> list[Event]:
    """Phase 2.3 - Distributing Supplies: each HQ card in play removes one token."""
    words = []
    for group in AIRBORNE_GROUPS:
        if not tracked(state, group):
            continue
        if state.hq[group] >= 1:
            state.hq[group] -= 1
            state.supplies_used += 1
            state.status[group] = FULL if state.hq[group] else SHORT
            left = state.hq[group]
            words.append(f"{group} distributes a token ({left} left"
                         + ("" if left else ": - D10 if no supplies") + ")")
        else:
            state.status[group] = FLIPPED
            words.append(f"{group} has no supplies: the HQ card is flipped (- 2 D10)")
    text = "Phase 2.3 - Distributing Supplies: " + ("; ".join(words) if words else
                                                   "no HQ card keeps track of supplies")
    return [Event("phase", text, {"phase": "2.3", "hq": dict(state.hq),
                                  "status": dict(state.status)})]


def update_contact(state: AState) -> list[Event]:
    """Contact with operation GARDEN (interpretation): a GARDEN unit (UK or US ground forces)
    stands in a sector free of German troops together with a unit of the group.  Permanent."""
    waiting = state.hq.keys() - state.contact
    if not waiting:
        return []  # every group with an HQ card in play has made contact already
    units = state.units
    # Contact is found sector by sector, from the sector's figures and the groups waiting
    # alone.  A sector's Figures is never changed in place: one seen making no contact for
    # these groups (or more) makes none again, so only the sectors whose figures are not those
    # seen are looked at (most commands change no figure, a move two sectors).  Seen for
    # exactly these groups: a copy of the state from before a contact waits for more.
    kept = _quiet
    written, length = journal_of(units)
    seen: dict[str, Figures] = {}
    if kept is not None and kept[1] == waiting:
        seen = kept[0]
        if written is not None and written is kept[2]:
            # The sectors written since the look (``sectors.Sectors``): every other sector
            # holds the very figures seen quiet.
            if len(written) == kept[3]:
                return []
            if _quiet_since(state, seen, set(written[kept[3]:]), waiting, written):
                return []
        elif seen == units:
            # every sector holds figures seen quiet (the very ones, or equal counts: the same
            # groups stand there), and no other sector holds any: one comparison in C, not a
            # look at each sector (most commands change no figure)
            if written is not None:
                _keep_quiet((seen, kept[1], written, length))
            return []
    events: list[Event] = []
    keys = _keys(frozenset(waiting))
    # A look once kept is never changed (another replay in this process may be reading it):
    # this look adds to a copy of it, kept whole at the end.
    seen = dict(seen)
    # the sectors not seen quiet (filtered without a Python loop), in the sectors' order
    for sector in compress(units, map(is_not, map(seen.get, units), units.values())):
        counts = units[sector]
        if not keys.isdisjoint(counts):  # a group still to make contact stands here
            groups = groups_here(counts)
            if groups & waiting and groups & GROUND and GERMAN_GROUP not in groups:
                # the German group is the only German one (board.side_of)
                made = False
                for group in sorted(groups & AIRBORNE, key=AIRBORNE_GROUPS.index):
                    if group in state.contact or group not in state.hq:
                        continue  # no HQ card in play (a position's figures): none to stop
                    state.contact.add(group)
                    made = True
                    events.append(Event("contact", f"the {group} makes contact with operation "
                                        f"GARDEN in {sector}: its supplies are no longer "
                                        "tracked", {"group": group, "sector": sector}))
                if made:
                    continue
        if type(counts) is Figures and not events:
            # quiet for these groups (after a contact, the groups in contact now are skipped:
            # a sector is quiet for fewer)
            seen[sector] = counts
    if len(seen) > len(units):  # a sector emptied: forgotten, so that ``seen == units``
        for sector in [s for s in seen if s not in units]:
            del seen[sector]
    _keep_quiet((seen, frozenset(waiting), written, length))
    return events


def _quiet_since(state: AState, seen: dict[str, Figures], written: set[str],
                 waiting: set[str], journal: list[str]) -> bool:
    """Are the sectors ``written`` since the look ``seen`` quiet still (then the look is kept
    with them, and the journal's length now)?  False when one may make contact: the whole
    look then finds it, in the sectors' order (the order of its events)."""
    units = state.units
    keys = _keys(frozenset(waiting))
    seen = dict(seen)
    for sector in written:
        counts = units.get(sector)
        if counts is None:  # emptied since the look
            seen.pop(sector, None)
            continue
        if not keys.isdisjoint(counts):
            groups = groups_here(counts)
            if groups & waiting and groups & GROUND and GERMAN_GROUP not in groups:
                return False
        seen[sector] = counts  # type: ignore[assignment]  # a Figures: nothing else (plain)
    _keep_quiet((seen, frozenset(waiting), journal, len(journal)))
    return True


_quiet: tuple[dict[str, Figures], frozenset[str], list[str] | None, int] | None = None
"""The sectors' figures seen making no contact (sector -> its ``Figures``, compared by
identity: never changed in place), the groups they were seen for (those waiting then), and
the journal of the sectors written (``Sectors.written``) and its length then (None: the
sectors kept no journal)."""


def _keep_quiet(look: tuple[dict[str, Figures], frozenset[str], list[str] | None, int]
                ) -> None:
    global _quiet  # one assignment: a reader sees the old or the new look whole
    _quiet = look


@cache
def _keys(waiting: frozenset[str]) -> frozenset[tuple[str, str]]:
    """The figures' keys of the groups ``waiting`` (every kind)."""
    return frozenset((group, kind) for group in waiting for kind in KINDS)


# -- supply drops (Phase 2.2) ---------------------------------------------------------------------

def drop_due(board: Board, state: AState) -> int:
    """Tokens dropped this round: the scheduled drops of odd rounds (never round 3), as far as
    the box still holds tokens."""
    if state.round % 2 == 0 or state.round == 3:
        return 0
    due = sum(d.tokens for d in board.scenario.forces.supply_drops
              if state.round >= d.first_round and (state.round - d.first_round) % d.every == 0)
    return min(due, state.box)


def marker(board: Board, zone: int, face: int, weather: str) -> str:
    """Drop Zones: the sector of marker ``face`` of ``zone``: green in good weather, black in
    bad."""
    dz = next(z for z in board.scenario.crossings.drop_zones if z.number == zone)
    return (dz.green if weather == "fine" else dz.black)[face]


def drop(board: Board, state: AState, dice: Dice) -> list[Event]:
    """Phase 2.2: one die per token onto the markers of its drop zone."""
    plan: list[int] = []
    left = drop_due(board, state)
    for d in board.scenario.forces.supply_drops:
        if state.round >= d.first_round and (state.round - d.first_round) % d.every == 0:
            take = min(d.tokens, left)
            plan += [d.zone] * take
            left -= take
    colour = "green" if state.weather == "fine" else "black"
    faces = dice.roll(10, len(plan), f"supply drop ({colour} markers)", low=0)
    for zone, face in zip(plan, faces, strict=True):
        state.box -= 1
        state.dropping.append(marker(board, zone, face, state.weather))
    events = [Event("supply-drop", f"Phase 2.2 - Supplies: {len(plan)} token"
                    f"{'s' if len(plan) != 1 else ''} dropped ({colour} markers) on "
                    + ", ".join(state.dropping), {"sectors": list(state.dropping)})]
    events += settle(board, state)
    return events


_EMPTY: dict[Key, int] = {}
"""A sector without figures (read only)."""


def collectors(board: Board, state: AState, sector: str) -> Counter[Key]:
    """Allied figures that bring in a token dropped on ``sector``: in it or in a sector NEXT
    TO IT, but not across a waterway, "not even if there is a bridge" (Supplies: Waterways)."""
    out: Counter[Key] = Counter()
    for where in (sector, *board.neighbours[sector]):
        if where != sector and board.links[sector][where].kind != "plain":
            continue
        for key, n in state.units.get(where, _EMPTY).items():
            if side_of(key[0]) == ALLIED:
                out[key] += n
    return out


def _firepower(board: Board, state: AState, counts: Counter[Key]) -> int:
    return sum(max(0, board.combat_fp(k) - penalty(state, k)) * n for k, n in counts.items())


def candidates(state: AState, who: Counter[Key]) -> list[str]:
    """The HQ cards a collected token may go to: the collectors' tracked airborne groups."""
    return [g for g in AIRBORNE_GROUPS if tracked(state, g) and any(
        n for (grp, _), n in who.items() if grp == g)]


def waiting(board: Board, state: AState) -> str | None:
    """What the first falling token waits for: 'roll' (the tie roll), 'collect' (the Allied
    player names the HQ card) or None (the referee settles it)."""
    if not state.dropping:
        return None
    sector = state.dropping[0]
    who = collectors(board, state, sector)
    germans = Counter({k: n for k, n in state.units.get(sector, Counter()).items()
                       if side_of(k[0]) == GERMAN})
    if germans and who and not state.token_won and \
            _firepower(board, state, who) == _firepower(board, state, germans):
        return "roll"
    allied_wins = who and (not germans or state.token_won
                           or _firepower(board, state, who) > _firepower(board, state, germans))
    if allied_wins and len(candidates(state, who)) > 1:
        return "collect"
    return None


def _give(state: AState, sector: str, group: str | None, events: list[Event]) -> None:
    state.dropping.pop(0)
    state.token_won = False
    if group is None:
        state.supplies_used += 1
        events.append(Event("supply", f"the token on {sector} is collected by Allied units "
                            "that keep no HQ card: removed", {"sector": sector}))
    else:
        events += receive(state, group, 1, f"the token on {sector} is collected")


def settle(board: Board, state: AState) -> list[Event]:
    """Settle the falling tokens in order until one waits for a roll or a decision."""
    events: list[Event] = []
    while state.dropping and waiting(board, state) is None:
        sector = state.dropping[0]
        who = collectors(board, state, sector)
        germans = Counter({k: n for k, n in state.units.get(sector, Counter()).items()
                           if side_of(k[0]) == GERMAN})
        if germans and not state.token_won and (
                not who or _firepower(board, state, germans) > _firepower(board, state, who)):
            state.dropping.pop(0)
            state.supplies_used += 1
            events.append(Event("supply", f"the token on {sector} falls into enemy territory: "
                                "the Germans, with more firepower, take it",
                                {"sector": sector, "side": GERMAN}))
        elif who:
            groups = candidates(state, who)
            _give(state, sector, groups[0] if groups else None, events)
        else:
            state.dropping.pop(0)
            state.tokens[sector] = state.tokens.get(sector, 0) + 1
            events.append(Event("supply", f"the token on {sector} lies on the map (no Allied "
                                "unit next to it)", {"sector": sector}))
    return events


def token_tie(board: Board, state: AState, dice: Dice, sector: str) -> list[Event]:
    """Picking Up Supply Tokens: "In case of a tie the dice ... are used to settle the
    dispute": an Allied and a German die, rolled again while equal; the higher wins."""
    if waiting(board, state) != "roll":
        raise IllegalMove("Picking Up Supply Tokens", "no token waits for a tie roll")
    if sector != state.dropping[0]:
        raise IllegalMove("Picking Up Supply Tokens", f"the tie roll is for the token on "
                          f"{state.dropping[0]}, not {sector}")
    rolls = []
    while True:
        a, g = dice.roll(10, 2, f"supply token on {sector}: Allied die, German die", low=0)
        rolls.append(f"{a}-{g}")
        if a != g:
            break
    events = [Event("token-roll", f"tie for the token on {sector}: {', '.join(rolls)}: "
                    + ("the Allies" if a > g else "the Germans") + " take it",
                    {"sector": sector, "winner": ALLIED if a > g else GERMAN})]
    if a > g:
        state.token_won = True
    else:
        state.dropping.pop(0)
        state.supplies_used += 1
    events += settle(board, state)
    return events


def collect(board: Board, state: AState, command: Collect) -> list[Event]:
    """The Allied player names the HQ card of the unit that picks up the token."""
    if waiting(board, state) != "collect":
        raise IllegalMove("Picking Up Supply Tokens", "no collected token waits for an HQ card")
    sector = state.dropping[0]
    groups = candidates(state, collectors(board, state, sector))
    if command.group not in groups:
        raise IllegalMove("Picking Up Supply Tokens", f"no unit of the {command.group} next to "
                          f"{sector} can pick up the token: " + " or ".join(groups))
    events: list[Event] = []
    _give(state, sector, command.group, events)
    events += settle(board, state)
    return events


# -- picking up tokens by moving -------------------------------------------------------------------

def picked_up(state: AState, start: str, sectors: list[str], groups: Groups) -> list[Event]:
    """After a movement-phase command: the tokens in the sectors the mover's figures reached
    (every sector of a move's path; the target of an intrusion or a fall back, when figures of
    the mover stand there now).  Allied groups left unnamed are those of the start sector."""
    side = state.mover
    reached = [s for s in sectors if s in state.tokens and (
        len(sectors) > 1 or any(side_of(g) == side for (g, _) in state.units.get(s, Counter())))]
    if not reached:
        return []
    named: list[tuple[Key, int]] = []
    for (group, kind), n in groups:
        if group == "" and side == ALLIED:
            options = sorted({g for (g, k) in state.units.get(start, Counter()) if k == kind}
                             | {g for s in sectors for (g, k) in state.units.get(s, Counter())
                                if k == kind and g in AIRBORNE})
            group = options[0] if len(options) == 1 else ""
        named.append(((group, kind), n))
    return pick_up(state, reached, side, tuple(named))


def pick_up(state: AState, sectors: list[str], side: str, groups: Groups) -> list[Event]:
    """Tokens on the map are picked up by moving to or through their sector (never in combat).
    An Allied move gives them to the first tracked airborne group the command names."""
    events: list[Event] = []
    for sector in sectors:
        n = state.tokens.pop(sector, 0)
        if not n:
            continue
        if side == GERMAN:
            state.supplies_used += n
            events.append(Event("supply", f"the Germans pick up {n} supply token"
                                f"{'s' if n != 1 else ''} in {sector}: removed",
                                {"sector": sector, "side": GERMAN}))
            continue
        group = next((g for (g, _), _n in groups if tracked(state, g)), None)
        if group is None:
            state.supplies_used += n
            events.append(Event("supply", f"{n} supply token{'s' if n != 1 else ''} picked up "
                                f"in {sector} by units that keep no HQ card: removed",
                                {"sector": sector, "side": ALLIED}))
        else:
            events += receive(state, group, n, f"picked up in {sector}")
    return events
