"""Phase 1 - Barrage Fire: Artillery Units Only (and Artillery and Barrage Fire).

"Each player may, alternating turns, fire his artillery out of undisputed sectors, one sector
at a time.  He may give barrage fire upon enemy sectors or disputed sectors.  On targeting
disputed sectors, every artillery unit firing gets a +1D10 bonus.  In skipping a turn to give
barrage fire, a player ends his barrage fire phase. ... At the beginning of the barrage fire
phase, both players roll one D10.  The highest roll has the initiative and MUST start the
barrage fire.  There is no phase 1 in the first round!"

A battery (the artillery of one sector free of enemy units) fires once per phase (A22), at
enemy territory one or two sectors away (Units: Artillery as a Long Range Weapon), its units
perhaps split between targets, each unit rolling its long-range firepower (6 d10, +1 against a
disputed sector) at the target's artillery number.  Hits are distributed among all the enemy
units there with the loop (A19); against a disputed sector every 0 of the hit dice is a
friendly hit, distributed by a reroll among one's own units there (A20).  Kills are removed at
once; the injured stay (no memory, no withdrawal).  The dice of one command, in the order
rolled: every firing unit's hit dice (shots in the order written), the joker's reroll if one is
played, then per target its distribution dice and its friendly-fire dice.

Veterans/3, three players: "During the barrage there is no rolling the dice concerning the
initiative: the standard order of play is: one UK artillery battery (one sector!) - one German
artillery battery (one sector) - one US battery (one sector) - Germany - etc. If one of the
Allies cannot give barrage fire, the other one steps in."  ``barrage_turn`` stays the side
(allied or german); ``part`` names the Allied player of the Allied turns (now, or next while the
German fires), whose turn it is by the order; :func:`firer` says who fires in it (he, or the
other Allied player stepping in); ``barrage_over`` holds players (uk, us, german).  Each Allied
player fires only his own artillery; the Allied turn after his goes to the other one (A44).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.core.names import side_title
from referee.games.arnhem44 import jokers
from referee.games.arnhem44.board import (
    ALLIED,
    GERMAN,
    Board,
    Key,
    key_text,
    other,
    side_of,
)
from referee.games.arnhem44.commands import Barrage, Command, Groups, Initiative, NoBarrage
from referee.games.arnhem44.figures import resolve
from referee.games.arnhem44.fire import counts_text, expand, key_counts, outcome_of
from referee.games.arnhem44.options import THREE_PLAYERS, UK, US, player_of
from referee.games.arnhem44.placement import artillery_sectors
from referee.games.arnhem44.presence import (
    NO_FIGURES,
    TOTALS_KEPT,
    enemies,
    friends,
    side_totals,
)
from referee.games.arnhem44.state import AState
from referee.games.arnhem44.supply import hq_status, penalty

PHASE = "Phase 1"
THREE = "Veterans/3"
BARRAGE = "Artillery/Barrage"
DISPUTED = "Artillery/Disputed"
IN_DISPUTED = "Artillery/InDisputed"
LONG_RANGE = "Units/Artillery"
RANGE = 2
"""Artillery "fires one or two sectors away from its own sector"."""


def barrage_dice(board: Board, state: AState, key: Key) -> int:
    """Dice one artillery unit rolls in the barrage: its long-range firepower (6) less its HQ's
    supply penalty (Phase 2.3: "artillery rolls 5 D10 instead of 6 in the barrage fire phase"
    when the HQ has distributed its last token; "If HQ cannot provide any supplies at all, the
    HQ card is flipped over: each unit of the group now suffers a minus 2 D10 penalty": 4)."""
    return max(0, board.fp["art"] - penalty(state, key))


def three(state: AState) -> bool:
    return THREE_PLAYERS in state.options


def firer(board: Board, state: AState, side: str) -> str:
    """The player who fires for ``side`` now: the side, or in a three-player game the Allied
    player of this Allied turn (Veterans/3).  The one whose turn it is fires if he can; "If one
    of the Allies cannot give barrage fire, the other one steps in"; when neither can, the one
    whose turn it is answers (no barrage, which ends his barrage)."""
    if side != ALLIED or not three(state):
        return side
    due = state.part or UK
    if due in state.barrage_over:
        return _other_ally(due)
    if _can_fire(board, state, ALLIED, due):
        return due
    stand_in = _other_ally(due)
    if stand_in not in state.barrage_over and _can_fire(board, state, ALLIED, stand_in):
        return stand_in
    return due


def _other_ally(player: str) -> str:
    return US if player == UK else UK


def batteries(board: Board, state: AState, side: str,
              player: str | None = None) -> dict[str, Counter[Key]]:
    """The side's artillery in sectors free of enemy units that has not fired this phase;
    with ``player`` (uk or us), that Allied player's own artillery only (Veterans/3)."""
    found = dict(_ready(board, state, side, player))
    return {sector: _counter(found[sector]) for sector in sorted(found, key=board.rank.__getitem__)}


def _ready(board: Board, state: AState, side: str,
           player: str | None) -> Iterator[tuple[str, dict[Key, int]]]:
    """``batteries`` in the order of the sectors on the map (``state.units``), as plain dicts."""
    german = side == GERMAN
    own = player if player in (UK, US) else None
    fired = state.barrage_fired
    for sector, found in artillery_sectors(board, state):
        art = found[0 if german else 1]
        if art and own is not None:
            art = {k: n for k, n in art.items() if player_of(k[0]) == own}
        if art and sector not in fired and not enemies(state, sector, side):
            yield sector, art


def _counter(counts: dict[Key, int]) -> Counter[Key]:
    """``Counter(counts)`` without its two Python calls (phase 1 asks the batteries again at
    every decision)."""
    out: Counter[Key] = _new_counter(Counter)
    _fill(out, counts)
    return out


_new_counter = Counter.__new__
_fill = dict.update


def targets(board: Board, state: AState, sector: str, side: str) -> list[str]:
    """Enemy territory (sectors with enemy units) one or two sectors away, in map order.  The
    distance counts sectors, whatever borders lie between (the shells fly over water)."""
    return [s for s in board.around(sector, RANGE) if enemies(state, s, side)]


def options(board: Board, state: AState, side: str,
            player: str | None = None, *,
            ready: dict[str, Counter[Key]] | None = None) -> dict[str, list[str]]:
    """Battery sector -> its targets, for the batteries that have one (of ``player`` only;
    ``ready``: the batteries as found already)."""
    out = {}
    for sector in batteries(board, state, side, player) if ready is None else ready:
        found = targets(board, state, sector, side)
        if found:
            out[sector] = found
    return out


def start(board: Board, state: AState, events: list[Event]) -> bool:
    """Open phase 1 (not in round 1).  True when it waits for the initiative roll; False when
    no battery of either side can fire (then nothing is rolled and the round goes on)."""
    state.barrage_turn = None
    state.barrage_fired = []
    state.barrage_over = []
    if not _can_fire(board, state, ALLIED, None) and not _can_fire(board, state, GERMAN, None):
        events.append(Event("phase", "Phase 1 - Barrage Fire: no artillery stands in an "
                            "undisputed sector within two sectors of enemy territory; no "
                            "barrage", {"phase": "1"}))
        return False
    state.phase = "1"
    if three(state):
        state.barrage_turn = ALLIED
        state.part = UK
        first = firer(board, state, ALLIED)
        events.append(Event("phase", "Phase 1 - Barrage Fire: no initiative roll with three "
                            "players; one UK battery, one German, one US, one German, and so "
                            f"on (Veterans/3); {first.upper()} fires first",
                            {"phase": "1", "player": first}))
        return True
    events.append(Event("phase", "Phase 1 - Barrage Fire: both players roll one d10 for the "
                        "initiative (initiative)", {"phase": "1"}))
    return True


def players(state: AState) -> tuple[str, ...]:
    """Who fires in phase 1: allied and german, or uk, german and us (Veterans/3)."""
    return (UK, GERMAN, US) if three(state) else (ALLIED, GERMAN)


def over(state: AState) -> bool:
    return state.phase == "1" and set(players(state)) <= set(state.barrage_over)


def initiative(state: AState, dice: Dice, events: list[Event]) -> None:
    """"The highest roll has the initiative and MUST start the barrage fire"; a tie is rolled
    again (A21)."""
    if three(state):
        raise IllegalMove(THREE, "with three players there is no rolling the dice concerning "
                          "the initiative: UK fires first, then German, US, German, and so on")
    if state.barrage_turn is not None:
        raise IllegalMove(PHASE, f"the initiative was rolled; {state.barrage_turn.capitalize()}"
                          " is to fire or skip")
    while True:
        a, g = dice.roll(10, 2, "barrage initiative: Allied, German", low=0)
        if a != g:
            break
        events.append(Event("initiative-tie", f"initiative: both rolled {a}; rolled again"))
    state.barrage_turn = ALLIED if a > g else GERMAN
    events.append(Event("initiative", f"{state.barrage_turn.capitalize()} has the initiative "
                        f"({max(a, g)} against {min(a, g)}) and must start the barrage fire",
                        {"side": state.barrage_turn, "allied": a, "german": g}))


def skip(board: Board, state: AState, side: str, events: list[Event]) -> None:
    player = firer(board, state, side)
    state.barrage_over.append(player)
    events.append(Event("no-barrage", f"{side_title(player)} skips: his barrage fire phase "
                        "ends", {"side": player}))
    _pass_turn(state, side, player)


def _pass_turn(state: AState, side: str, player: str) -> None:
    """Alternating turns; a side that skipped is out, the other goes on alone (A22).  With
    three players the Allied turns alternate between UK and US (Veterans/3)."""
    if three(state):
        _pass_three(state, side, player)
        return
    if other(side) not in state.barrage_over:
        state.barrage_turn = other(side)
    elif side not in state.barrage_over:
        state.barrage_turn = side
    else:
        state.barrage_turn = None


def _pass_three(state: AState, side: str, player: str) -> None:
    """Veterans/3: UK - German - US - German - ...; a player who skipped is out.  The Allied
    turn after ``player``'s is the other Allied player's."""
    allies_in = any(p not in state.barrage_over for p in (UK, US))
    if side == ALLIED:
        state.part = _other_ally(player)
        if GERMAN not in state.barrage_over:
            state.barrage_turn = GERMAN
            return
    if allies_in:
        state.barrage_turn = ALLIED
    elif GERMAN not in state.barrage_over:
        state.barrage_turn = GERMAN
    else:
        state.barrage_turn = None


def from_disputed(state: AState, command: Barrage) -> None:
    """Artillery in Disputed Sectors or Enemy Territory: "Artillery in disputed sectors cannot
    give barrage fire".  A barrage out of such a sector is refused with that rule first,
    whatever the phase (when no battery could fire, phase 1 is over by itself: the rule the
    player broke is the disputed sector's, not the sequence of play's)."""
    for groups, source, _ in command.shots:
        for (group, _), _ in groups:
            if enemies(state, source, side_of(group)):
                raise IllegalMove(IN_DISPUTED, f"{source} is disputed: artillery in disputed "
                                  "sectors cannot give barrage fire (it functions as an "
                                  "anti-tank weapon)")


def check_shots(board: Board, state: AState, side: str, command: Barrage) -> tuple[
        str, list[tuple[list[Key], str]]]:
    """The battery's sector and, per shot, the firing figures one by one and the target."""
    sources = [a for _, a, _ in command.shots]
    aims = [b for _, _, b in command.shots]
    if len(set(sources)) > 1:
        joint = [b for b in aims if len({a for _, a, t in command.shots if t == b}) > 1]
        if joint:
            raise IllegalMove(BARRAGE, f"artillery of different sectors may not fire "
                              f"simultaneously at the same enemy sector ({joint[0]})")
        raise IllegalMove(PHASE, "a player fires his artillery one sector at a time: one "
                          "battery per turn")
    source = sources[0]
    player = firer(board, state, side)
    if player in (UK, US) and any(player_of(g) != player
                                  for groups, _, _ in command.shots for (g, _), _ in groups):
        mine = "UK, 1st Airborne and Polish" if player == UK else "US, 82nd and 101st"
        raise IllegalMove(THREE, f"the {player.upper()} player fires only his own artillery "
                          f"({mine}): no combined actions")
    if len(set(aims)) != len(aims):
        raise IllegalMove(BARRAGE, "name each target once, with all the units firing at it")
    if enemies(state, source, side):
        raise IllegalMove(IN_DISPUTED, f"{source} is disputed: artillery in disputed sectors "
                          "cannot give barrage fire (it functions as an anti-tank weapon)")
    if source in state.barrage_fired:
        raise IllegalMove(PHASE, f"the battery in {source} has fired this phase already (A22: "
                          "once per phase)")
    total: dict[Key, int] = {}  # (a plain dict: ``Counter``'s Python calls spared)
    shots: list[tuple[list[Key], str]] = []
    for groups, _, target in command.shots:
        figures = _figures(state, side, source, groups)
        for key, n in figures:
            total[key] = total.get(key, 0) + n
        shots.append((expand(dict(figures)), target))
    here = state.units.get(source) or NO_FIGURES
    for key, n in total.items():
        if here.get(key, 0) < n:
            raise IllegalMove(BARRAGE, f"the battery in {source} has {here.get(key, 0)} "
                              f"{key_text(key)}, not {n}")
    near = board.within(source, RANGE)
    for _, target in shots:
        if target == source:
            raise IllegalMove(LONG_RANGE, f"artillery fires one or two sectors away from its "
                              f"own sector, never at it ({source})")
        if target not in near:
            raise IllegalMove(LONG_RANGE, f"artillery fires one or two sectors away from its "
                              f"own sector: {target} is not within two sectors of {source}")
        if not enemies(state, target, side):
            raise IllegalMove(BARRAGE, f"barrage fire goes upon enemy or disputed sectors: "
                              f"{target} holds no enemy units")
    return source, shots


def _figures(state: AState, side: str, source: str, groups: Groups) -> list[tuple[Key, int]]:
    if any(kind != "art" for (_, kind), _ in groups):
        raise IllegalMove(PHASE, "phase 1 is for artillery units only")
    return resolve(state, side, source, groups, BARRAGE)


def fire_battery(board: Board, state: AState, dice: Dice, side: str, command: Barrage,
                 events: list[Event]) -> None:
    """One battery's barrage (checked first, so an illegal command rolls nothing)."""
    source, shots = check_shots(board, state, side, command)
    player = firer(board, state, side)
    joker = jokers.Joker(state, side, dice, command.joker, player)
    name = side_title(player)
    rolled: list[list[int]] = []
    for figures, target in shots:
        disputed = friends(state, target, side) > 0
        number = board.number(target, "art")
        faces: list[int] = []
        for key in figures:
            plain = barrage_dice(board, state, key)
            state.barrage_rolls.append((key[0], hq_status(state, key[0]), plain))
            n = plain + (1 if disputed else 0)
            faces += dice.roll(10, n, f"{name} barrage {source}->{target}: {key_text(key)} "
                               f"hits (<= {number})", low=0)
        rolled.append(faces)
    flat = joker(tuple(f for r in rolled for f in r), f"{name}'s barrage hit dice")
    at = 0
    for faces in rolled:
        faces[:] = flat[at:at + len(faces)]
        at += len(faces)
    events.append(Event("barrage", f"{name} barrage from {source}: "
                        + "; ".join(f"{counts_text(key_counts(f))} at {t}" for f, t in shots),
                        {"side": side, "from": source,
                         "targets": [{"sector": t, "units": len(f)} for f, t in shots]}))
    events += joker.done()
    for (_, target), faces in zip(shots, rolled, strict=True):
        events += _strike(board, state, dice, name, side, source, target, faces)
    state.barrage_fired.append(source)
    _pass_turn(state, side, player)



def _strike(board: Board, state: AState, dice: Dice, name: str, side: str, source: str,
            target: str, faces: list[int]) -> list[Event]:
    """Hits and friendly fire of one target, kills removed at once (``name``: who fired)."""
    here = state.units.get(target) or NO_FIGURES
    number = board.number(target, "art")
    disputed = friends(state, target, side) > 0
    hits = sum(1 for f in faces if 1 <= f <= number)
    zeros = faces.count(0) if disputed else 0
    label = f"{name} barrage {source}->{target}"
    words = f"{label}: {hits} hit{'s' if hits != 1 else ''}"
    out: list[Event] = []
    for who, count, what in ((other(side), hits, "distribution of"),
                             (side, zeros, "friendly fire: distribution of")):
        if not count:
            continue
        figures = expand({k: n for k, n in here.items() if side_of(k[0]) == who})
        damage = [0] * len(figures)
        spread = dice.roll(10, count, f"{label}: {what} {count} hit"
                           f"{'s' if count != 1 else ''}", low=0)
        for face in spread:
            if face:
                damage[(face - 1) % len(figures)] += 1
        ricochets = spread.count(0)
        if who == side:
            words += (f"; {zeros} friendly hit{'s' if zeros != 1 else ''} (zeros on a disputed "
                      "sector)")
        if ricochets:
            words += f", {ricochets} ricochet{'s' if ricochets != 1 else ''}"
        dead, _ = outcome_of(board, figures, damage)
        for key, n in dead.items():
            state.remove(target, key, n)
            state.eliminated[key] += n
        if dead:
            out.append(Event("eliminated", f"{who.capitalize()} loses {counts_text(dead)} in "
                             f"{target} (removed at once)",
                             {"sector": target, "side": who,
                              "figures": {key_text(k): n for k, n in dead.items()}}))
    return [Event("fire", words, {"sector": target, "hits": hits, "friendly": zeros}), *out]


def legal(board: Board, state: AState) -> list[Command]:
    """The initiative roll, or the side to fire's batteries: all of a battery at each target,
    one unit at each target, one split between the first two targets; with a joker held, the
    whole battery at each target with the joker; and the skip."""
    side = state.barrage_turn
    if side is None:
        return [Initiative()]
    out: list[Command] = []
    player = firer(board, state, side)
    has_joker = jokers.held(state, side, player) > 0
    ready = batteries(board, state, side, player)
    for sector, aims in options(board, state, side, player, ready=ready).items():
        art = ready[sector]
        whole: Groups = tuple(sorted(art.items()))
        first: Groups = ((min(art), 1),)
        for target in aims:
            out.append(Barrage(((whole, sector, target),)))
            if sum(art.values()) > 1:
                out.append(Barrage(((first, sector, target),)))
            if has_joker:
                out.append(Barrage(((whole, sector, target),), joker=True))
        if len(aims) > 1 and sum(art.values()) > 1:
            rest = Counter(art)
            rest[min(art)] -= 1
            out.append(Barrage(((first, sector, aims[0]),
                                (tuple(sorted((+rest).items())), sector, aims[1]))))
    out.append(NoBarrage())
    return out


def forced(board: Board, state: AState) -> Command | None:
    """``legal``'s one command when it has one, else None, without making the others: the
    initiative roll, or the skip when no battery of the side to fire has a target."""
    side = state.barrage_turn
    if side is None:
        return Initiative()
    return None if _can_fire(board, state, side, firer(board, state, side)) else NoBarrage()


def _can_fire(board: Board, state: AState, side: str, player: str | None) -> bool:
    """``options`` is not empty: some battery has a target (the first found is enough).  The
    answer is kept with the placement of the figures it came from (``artillery_sectors``
    gives its very answer again while the figures stand where they stood) for the batteries
    that have fired: who fires, the skip forced and the decision ask it again and again.
    Each battery's targets are looked for sector by sector (``enemies``, kept on each
    sector's figures), the first found enough: the figures change between most questions
    of a new placement (a barrage's kills, the round's start)."""
    held = artillery_sectors(board, state)
    key = (side, player, tuple(state.barrage_fired))
    kept = _fire_kept
    if kept is not None and kept[0] is held:
        answer = kept[1].get(key)
        if answer is not None:
            return answer
    else:
        kept = (held, {})
        _keep_fire(kept)
    units = state.units
    enemy = GERMAN if side == ALLIED else ALLIED  # other(side)
    answer = False
    for sector, _ in _ready(board, state, side, player):
        for there in board.around(sector, RANGE):
            here = units.get(there)
            if here and (getattr(here, TOTALS_KEPT, None) or side_totals(here))[enemy]:
                answer = True  # ``enemies(state, there, side)`` not 0
                break
        if answer:
            break
    kept[1][key] = answer
    return answer


_fire_kept: tuple[tuple[Any, ...], dict[tuple[str, str | None, tuple[str, ...]],
                                        bool]] | None = None
"""``_can_fire``'s answers for one placement of the figures (``artillery_sectors``'s answer
for it)."""


def _keep_fire(kept: tuple[tuple[Any, ...],
                           dict[tuple[str, str | None, tuple[str, ...]], bool]] | None) -> None:
    global _fire_kept  # one assignment: a reader sees the old or the new answers whole
    _fire_kept = kept


def decision(board: Board, state: AState) -> str:
    side = state.barrage_turn
    if side is None:
        return "Phase 1 - the barrage initiative roll (initiative)"
    player = firer(board, state, side)
    found = options(board, state, side, player)
    if not found:
        return f"Phase 1 - {side_title(player)} has no battery that can fire (no barrage)"
    return (f"Phase 1 - {side_title(player)} fires one battery ("
            + "; ".join(f"{s} at {', '.join(t)}" for s, t in found.items())
            + ") or skips, ending his barrage (barrage GROUPS FROM->TARGET[, ...] / no barrage)")


def apply(board: Board, state: AState, dice: Dice, command: Command,
          events: list[Event]) -> None:
    if isinstance(command, Initiative):
        initiative(state, dice, events)
        return
    side = state.barrage_turn
    if side is None:
        raise IllegalMove(PHASE, "both players roll one d10 for the initiative first "
                          "(initiative)")
    if isinstance(command, NoBarrage):
        skip(board, state, side, events)
    elif isinstance(command, Barrage):
        fire_battery(board, state, dice, side, command, events)
    else:
        raise IllegalMove(PHASE, f"'{command}' must wait: {decision(board, state)}")
