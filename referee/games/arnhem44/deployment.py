"""Set Up: the German player goes first (the set-up table, "+ 1 zone", "+ 2 zones", "above the
Scheldt-Maas canal"), then the Allied player (4 artillery + 5 others per start sector, US only
in the centre sector, the rest on R1-R15 in the order he chooses).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache

from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.arnhem44.board import ALLIED, GERMAN, GERMAN_GROUP, KINDS, Board, Key, key_text
from referee.games.arnhem44.commands import Deploy, ReserveOrder
from referee.games.arnhem44.fire import counts_text
from referee.games.arnhem44.presence import friends
from referee.games.arnhem44.state import AState

ALLIED_ART_PER_START = 4
ALLIED_OTHERS_PER_START = 5


@cache
def table(board: Board) -> tuple[tuple[frozenset[str], dict[str, int], str], ...]:
    """The set-up table: (sectors allowed, units, words) per entry."""
    out = []
    for entry in board.scenario.forces.german_setup:
        if entry.above_canal or entry.sector is None:
            allowed = frozenset(board.above_canal)
            words = "above the Scheldt-Maas canal"
        else:
            allowed = frozenset(board.within(entry.sector, entry.zones))
            words = entry.sector + (f" + {entry.zones} zone{'s' if entry.zones > 1 else ''}"
                                    if entry.zones else "")
        out.append((allowed, {str(k): n for k, n in entry.units.items()}, words))
    return tuple(out)


def table_total(board: Board) -> Counter[str]:
    return _table_total(board).copy()


@cache
def _table_total(board: Board) -> Counter[str]:
    """Every figure of the set-up table by kind (made once a board: ``german_missing`` asks
    before every line of the German set-up; callers get a copy)."""
    total: Counter[str] = Counter()
    for _, units, _ in table(board):
        total.update(units)
    return total


def placed(state: AState, kind: str) -> dict[str, int]:
    key = (GERMAN_GROUP, kind)
    return {s: c.get(key, 0) for s, c in state.units.items() if c.get(key, 0)}


def feasible(board: Board, kind: str, where: dict[str, int]) -> bool:
    """Can the German figures of ``kind`` placed ``where`` be matched to set-up table entries
    (each entry supplying at most its count, only to the sectors it allows)?  A max-flow, each
    figure trying only the entries that allow its sector and have figures of its kind
    (``_entries``)."""
    return _matching(board, kind, tuple(sorted(where.items()))) is not None


def room_for(board: Board, kind: str, where: dict[str, int], sector: str) -> bool:
    """``feasible`` of ``where`` with one more figure of ``kind`` in ``sector`` (may the German
    set one more up there?): ``room`` of ``where``, asked of ``sector``."""
    return room(board, kind, where)(sector)


def room(board: Board, kind: str, where: dict[str, int]) -> Callable[[str], bool]:
    """``room_for`` of ``where`` for any sector.  The matching of ``where`` is made once and
    kept (the random set-up asks one placement about many sectors); one more figure fits when
    a path of entries leads from its sector to an entry with room (an augmenting path:
    Berge), and never when ``where`` fits no matching."""
    held = _matching(board, kind, tuple(sorted(where.items())))
    if held is None:
        return _nowhere
    caps, allowing = _entries(board, kind)

    def fits(sector: str) -> bool:
        seen: set[int] = set()

        def leads(here: str) -> bool:
            for e in allowing.get(here, ()):
                if e in seen:
                    continue
                seen.add(e)
                mine = held[e]
                if len(mine) < caps[e] or any(map(leads, mine)):
                    return True
            return False

        return leads(sector)

    return fits


def _nowhere(sector: str) -> bool:
    """``room`` of a placement no matching holds: one more figure fits nowhere."""
    return False


Matching = tuple[tuple[str, ...], ...]
"""Entry of the set-up table -> the sectors of the figures it supplies."""


def _matching(board: Board, kind: str, placed: tuple[tuple[str, int], ...]) -> Matching | None:
    """A matching of the figures of ``kind`` ``placed`` (sector, count, in sector order) to
    the set-up table's entries; None when none holds them all.  Kept for the board, kind and
    placement it came from."""
    asked = (board, kind, placed)
    known = _matchings.get(asked, _UNKNOWN)
    if known is not _UNKNOWN:
        return known  # type: ignore[return-value]
    caps, allowing = _entries(board, kind)
    held: list[list[str]] = [[] for _ in caps]  # entry -> the sectors of its figures

    def augment(sector: str, seen: set[int]) -> bool:
        for e in allowing.get(sector, ()):
            if e in seen:
                continue
            seen.add(e)
            mine = held[e]
            if len(mine) < caps[e]:
                mine.append(sector)
                return True
            for i, other_sector in enumerate(mine):
                if augment(other_sector, seen):  # moved to another entry (never e: seen)
                    mine[i] = sector
                    return True
        return False

    found = all(augment(s, set()) for s, n in placed for _ in range(n))
    answer = tuple(map(tuple, held)) if found else None
    if len(_matchings) >= _KEPT:
        _matchings.clear()  # a bound on what is kept (other games' placements)
    _matchings[asked] = answer
    return answer


_matchings: dict[tuple[Board, str, tuple[tuple[str, int], ...]], Matching | None] = {}
"""``_matching``'s answers (board, kind, placement -> a matching, or None)."""
_KEPT = 2_000
_UNKNOWN = object()


@cache
def _entries(board: Board, kind: str) -> tuple[tuple[int, ...], dict[str, tuple[int, ...]]]:
    """Each set-up table entry's count of ``kind``, and sector -> the entries with figures of
    ``kind`` that allow it, in the table's order."""
    caps = tuple(units.get(kind, 0) for _, units, _ in table(board))
    allowing: dict[str, list[int]] = {}
    for e, (allowed, _, _) in enumerate(table(board)):
        if caps[e]:
            for sector in allowed:
                allowing.setdefault(sector, []).append(e)
    return caps, {sector: tuple(entries) for sector, entries in allowing.items()}


def deploy_german(board: Board, state: AState, command: Deploy) -> list[Event]:
    sector = command.sector
    added: Counter[Key] = Counter()
    for (group, kind), n in command.groups:
        if group not in ("", GERMAN_GROUP):
            raise IllegalMove("SetUp/German", f"German figures have no group: write '{n} {kind}'")
        added[(GERMAN_GROUP, kind)] += n
    total = sum(added.values())
    if friends(state, sector, GERMAN) + total > board.max_per_side:
        raise IllegalMove("SetUp/German", f"{sector} would hold more than {board.max_per_side} "
                          "German units: every sector holds 9 units of one side at most")
    for (_, kind), n in added.items():
        where = placed(state, kind)
        where[sector] = where.get(sector, 0) + n
        if sum(where.values()) > table_total(board)[kind]:
            raise IllegalMove("SetUp/German", f"the set-up table has {table_total(board)[kind]} "
                              f"{kind} in all")
        if not feasible(board, kind, where):
            fits = [w for allowed, units, w in table(board) if sector in allowed and
                    units.get(kind)]
            raise IllegalMove(
                "SetUp/German", f"no entry of the set-up table left for {n} {kind} in {sector}"
                + (f" (entries that allow it: {'; '.join(fits)} - already filled)" if fits
                   else " (no entry places that kind there, within its zones)"))
    for key, n in added.items():
        state.add(sector, key, n)
        state.waiting[key] -= n
    return [Event("deploy", f"German deploys {counts_text(dict(added))} in {sector}",
                  {"side": GERMAN, "sector": sector})]


def german_missing(board: Board, state: AState) -> Counter[str]:
    """The figures of the set-up table by kind not deployed yet (``placed`` of every kind,
    counted in one pass over the map: it is asked before every line of the German set-up)."""
    have = Counter(dict.fromkeys(KINDS, 0))
    for counts in state.units.values():
        for (group, kind), n in counts.items():
            if group == GERMAN_GROUP and kind in have:
                have[kind] += n
    return _table_total(board) - have


def deploy_allied(board: Board, state: AState, command: Deploy) -> list[Event]:
    sector = command.sector
    if sector not in board.start_sectors:
        raise IllegalMove("SetUp/Allied", f"the Allied player sets up in the start sectors "
                          f"south of the Scheldt-Maas canal ({', '.join(board.start_sectors)}), "
                          f"not {sector}")
    added: Counter[Key] = Counter()
    for (group, kind), n in command.groups:
        if group == "":
            options = sorted({g for g, k in state.pool if k == kind and state.pool[(g, kind)]})
            if len(options) != 1:
                raise IllegalMove("SetUp/Allied", f"name the group of the {kind} figures: "
                                  + ", ".join(f"{kind}/{g}" for g in options))
            group = options[0]
        added[(group, kind)] += n
    for key, n in added.items():
        if state.pool[key] < n:
            raise IllegalMove("SetUp/Allied", f"the Allied set-up has {state.pool[key]} "
                              f"{key_text(key)} left to place, not {n}")
        if key[0] == "US" and sector != board.starts.get("centre"):
            raise IllegalMove("SetUp/Allied", "US troops can only enter the game by means of "
                              f"the centre sector beneath the Scheldt-Maas canal "
                              f"({board.starts.get('centre')})")
    here = state.units.get(sector, Counter())
    art = here[("UK", "art")] + here[("US", "art")] + sum(n for k, n in added.items()
                                                           if k[1] == "art")
    others = sum(n for k, n in here.items() if k[1] != "art") + sum(
        n for k, n in added.items() if k[1] != "art")
    if art > ALLIED_ART_PER_START or others > ALLIED_OTHERS_PER_START:
        raise IllegalMove("SetUp/Allied", f"each start sector takes {ALLIED_ART_PER_START} "
                          f"artillery and {ALLIED_OTHERS_PER_START} other units; {sector} would "
                          f"hold {art} artillery and {others} others")
    for key, n in added.items():
        state.pool[key] -= n
        if not state.pool[key]:
            del state.pool[key]
        state.add(sector, key, n)
    return [Event("deploy", f"Allied deploys {counts_text(dict(added))} in {sector}",
                  {"side": ALLIED, "sector": sector})]


def allied_on_map_done(board: Board, state: AState) -> bool:
    for sector in board.start_sectors:
        here = state.units.get(sector, Counter())
        art = sum(n for k, n in here.items() if k[1] == "art")
        if art != ALLIED_ART_PER_START or sum(here.values()) - art != ALLIED_OTHERS_PER_START:
            return False
    return True


def reserve_order(board: Board, state: AState, command: ReserveOrder) -> list[Event]:
    if not allied_on_map_done(board, state):
        raise IllegalMove("SetUp/Allied", "first place 4 artillery and 5 other units in each "
                          "start sector; the remaining units then go on R1-R15")
    if state.track:
        raise IllegalMove("SetUp/Allied", "the reserve order is set once: the arrangement of "
                          "these units cannot be changed after set up")
    order: list[Key] = []
    for (group, kind), n in command.groups:
        if group == "":
            options = sorted({g for g, k in state.pool if k == kind})
            if len(options) != 1:
                raise IllegalMove("SetUp/Allied", f"name the group of the {kind} figures")
            group = options[0]
        order += [(group, kind)] * n
    if Counter(order) != state.pool:
        raise IllegalMove("SetUp/Allied", "R1-R15 hold exactly the units not placed: "
                          + counts_text(dict(state.pool)))
    state.track = order
    state.pool = Counter()
    return [Event("reserve-order", f"Allied reserves R1-R{len(order)}: "
                  + ", ".join(key_text(k) for k in order), {"track": [key_text(k) for k in order]})]
