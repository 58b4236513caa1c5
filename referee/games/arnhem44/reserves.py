"""Block 6: Phase 6.1 The Weather, Phase 6.2 The Allies Bring In Reserves, Phase 6.3 The German
Player Receives His Reserves.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import cache

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.arnhem44.bailey import recall
from referee.games.arnhem44.board import (
    ALLIED,
    GERMAN,
    GERMAN_GROUP,
    NATIONALITY,
    Board,
    Key,
    key_text,
)
from referee.games.arnhem44.commands import Enter, Reinforce, ReserveRoll
from referee.games.arnhem44.explosives import receive
from referee.games.arnhem44.fire import counts_text, key_counts
from referee.games.arnhem44.presence import enemies, friends
from referee.games.arnhem44.state import AState


def weather(state: AState, dice: Dice) -> list[Event]:
    """Phase 6.1: "On a roll of 1, 2 or 3 the weather is fine" (0 and 4-9: bad, 70%)."""
    (face,) = dice.roll(10, 1, f"tomorrow's weather (round {state.round})", low=0)
    state.weather = "fine" if 1 <= face <= 3 else "bad"
    return [Event("weather", f"Phase 6.1 - The Weather: {face}, {state.weather} weather "
                  "tomorrow", {"face": face, "weather": state.weather})]


def icons(board: Board) -> list[Key]:
    out = []
    for icon in board.scenario.forces.reserve_icons:
        kind, _, group = icon.partition("/")
        out.append((group, kind))
    return out


def reserves_left(board: Board, state: AState) -> int:
    return len(state.track) + len(icons(board)) - state.icons_used


def roll_reserves(board: Board, state: AState, dice: Dice, command: ReserveRoll) -> list[Event]:
    """Phase 6.2: the black die; that many units from R1-R15, then the printed icons."""
    if command.die == "green":
        if not state.engineers:
            raise IllegalMove("Phase 6.2", "the green die brings in the units on the engineer "
                              "squares E01-E08, and there are none: roll the black die "
                              "(reserves black)")
        return recall(state, dice)
    if state.engineers and not reserves_left(board, state):
        raise IllegalMove("Phase 6.2", "the Allied player must place his reserve troops if "
                          "possible: R1-R15 and the printed icons are used up, and units wait "
                          "on the engineer squares (reserves green)")
    (face,) = dice.roll(10, 1, "Allied reserves (black die)", low=0)
    taken: list[Key] = []
    printed = icons(board)
    for _ in range(face):
        if state.track:
            taken.append(state.track.pop(0))
        elif state.icons_used < len(printed):
            key = printed[state.icons_used]
            state.icons_used += 1
            if state.waiting[key] > 0:  # a position may have put that figure elsewhere
                state.waiting[key] -= 1
                taken.append(key)
    state.arriving = taken
    state.recalled = False
    lost = face - len(taken)
    text = f"Phase 6.2 - the Allies roll the black die: {face}"
    text += f"; {len(taken)} unit{'s' if len(taken) != 1 else ''} arrive" if taken else ""
    if lost:
        text += f" ({lost} more than the reserves left: lost)"
    return [Event("reserves", text, {"face": face, "units": [key_text(k) for k in taken]})]


def entries(board: Board, state: AState, key: Key) -> list[str]:
    """Where an Allied reserve may enter: a start sector with room; US only the centre."""
    return list(_entries(board, state, NATIONALITY[key[0]] == "US"))


def _entries(board: Board, state: AState, us: bool) -> Iterator[str]:
    """``entries`` one by one, of a US figure (``us``) or another (the rule asks nothing
    else of the figure): a caller asking whether there is one stops at the first."""
    centre = board.starts.get("centre")
    for sector in board.start_sectors:
        if us and sector != centre:
            continue
        if friends(state, sector, ALLIED) < board.max_per_side:
            yield sector


def enter(board: Board, state: AState, command: Enter) -> list[Event]:
    events: list[Event] = []
    for (group, kind), n in command.groups:
        pending = key_counts(state.arriving)
        matches = [k for k in pending if k[1] == kind and (not group or k[0] == group)]
        if len(matches) != 1 or pending[matches[0]] < n:
            raise IllegalMove("Phase 6.2", f"the reserves to place are "
                              f"{counts_text(dict(pending))}")
        key = matches[0]
        if NATIONALITY[key[0]] == "US" and command.sector != board.starts.get("centre"):
            raise IllegalMove("Phase 6.2", "US units must enter the map by way of the centre "
                              f"sector ({board.starts.get('centre')})")
        if command.sector not in board.start_sectors:
            raise IllegalMove("Phase 6.2", "reserves enter south of the Scheldt-Maas canal, in "
                              f"a start sector ({', '.join(board.start_sectors)})")
        if friends(state, command.sector, ALLIED) + n > board.max_per_side:
            raise IllegalMove("Phase 6.2", f"{command.sector} has room for "
                              f"{board.max_per_side - friends(state, command.sector, ALLIED)} "
                              "more Allied units")
        for _ in range(n):
            state.arriving.remove(key)
        state.add(command.sector, key, n)
        events.append(Event("enter", f"{n} {key_text(key)} enter{'s' if n == 1 else ''} "
                            f"at {command.sector}", {"sector": command.sector}))
    return events


def stuck_allied(board: Board, state: AState, events: list[Event]) -> None:
    """A28: reserves that cannot be placed (no room) stay on the track, at its front."""
    if not state.arriving:
        return
    room: dict[bool, bool] = {}  # ``entries`` not empty, by whether the figure is US
    stuck = []
    for key in state.arriving:
        us = NATIONALITY[key[0]] == "US"  # ``entries`` depends on that alone
        found = room.get(us)
        if found is None:
            found = room[us] = next(_entries(board, state, us), None) is not None
        if not found:
            stuck.append(key)
    if not stuck:
        return
    for key in reversed(stuck):
        state.arriving.remove(key)
        (state.engineers if state.recalled else state.track).insert(0, key)
    track = "the engineer squares" if state.recalled else "the track"
    events.append(Event("reserves-wait", f"no room in the start sectors: "
                        f"{', '.join(key_text(k) for k in stuck)} stay on {track}"))


def due_german(board: Board, state: AState) -> list[Event]:
    """Phase 6.3: the round's German reserves arrive (the above-the-Rhine group first), with
    those held back in an earlier 6.3 for want of a flag sector ("Reserve units must be
    placed": they come again, each in its group)."""
    held_above = [k for k, n in sorted(state.held_above.items()) for _ in range(n)]
    held_free = [k for k, n in sorted(state.held_free.items()) for _ in range(n)]
    for key in (*held_above, *held_free):
        state.waiting[key] -= 1
    state.held_above = Counter()
    state.held_free = Counter()
    arriving: list[Key] = list(held_above)
    above = len(held_above)
    free: list[Key] = []
    crates = 0
    for entry in sorted(board.scenario.forces.german_reserves,
                        key=lambda e: not e.above_rhine):
        if entry.round != state.round:
            continue
        for kind, n in entry.units.items():
            for _ in range(n):
                key = (GERMAN_GROUP, kind)
                if state.waiting[key] > 0:  # a position may have put that figure elsewhere
                    state.waiting[key] -= 1
                    (arriving if entry.above_rhine else free).append(key)
                    above += entry.above_rhine
        crates += len(entry.crates)
        receive(state, list(entry.crates))  # the reinforcement table's crates (explosives.py)
    state.waiting += Counter()
    arriving += held_free + free
    state.arriving = arriving
    state.above_rhine = above
    text = "Phase 6.3 - German reserves: " + (
        counts_text(dict(Counter(arriving))) if arriving else "none this round")
    if above:
        text += f" ({above} above the Rhine)"
    if crates:
        text += f"; {crates} crate{'s' if crates != 1 else ''} of explosives to the German stock"
    return [Event("german-reserves", text, {"units": [key_text(k) for k in arriving]})]


def flag_sectors(board: Board, state: AState, above_rhine: bool) -> list[str]:
    """German flag sectors free of enemy troops with room (above the Rhine when required)."""
    return list(_flag_sectors(board, state, above_rhine))


def _flag_sectors(board: Board, state: AState, above_rhine: bool) -> Iterator[str]:
    """``flag_sectors`` one by one (a caller asking whether there is one stops at it)."""
    for s in _flag_order(board):
        if (not above_rhine or s in board.above_rhine) and not enemies(state, s, GERMAN) \
                and friends(state, s, GERMAN) < board.max_per_side:
            yield s


@cache
def _flag_order(board: Board) -> tuple[str, ...]:
    """The German flag sectors in map order (made once a board)."""
    return tuple(s for s in board.order if s in board.flags)


def reinforce(board: Board, state: AState, command: Reinforce) -> list[Event]:
    events: list[Event] = []
    for (group, kind), n in command.groups:
        if group not in ("", GERMAN_GROUP):
            raise IllegalMove("Phase 6.3", f"German figures have no group: write '{n} {kind}'")
        key = (GERMAN_GROUP, kind)
        if state.arriving.count(key) < n:
            raise IllegalMove("Phase 6.3", "the reserves to place are "
                              + counts_text(dict(Counter(state.arriving))))
        # the figures that must go above the Rhine are placed first
        above = state.above_rhine > 0 and key in state.arriving[: state.above_rhine]
        allowed = flag_sectors(board, state, above)
        if command.sector not in allowed:
            raise IllegalMove(
                "Phase 6.3", f"{command.sector} is not a German flag sector free of enemy "
                "troops with room" + (" above the Rhine" if above else "")
                + (f" (allowed: {', '.join(allowed)})" if allowed else ""))
        if friends(state, command.sector, GERMAN) + n > board.max_per_side:
            raise IllegalMove("Phase 6.3", f"{command.sector} would hold more than "
                              f"{board.max_per_side} German units")
        if above and n > state.arriving[: state.above_rhine].count(key):
            raise IllegalMove("Phase 6.3", "place the units that must go above the Rhine first, "
                              "one group at a time")
        for _ in range(n):
            index = state.arriving.index(key)
            state.arriving.pop(index)
            if index < state.above_rhine:
                state.above_rhine -= 1
        state.add(command.sector, key, n)
        events.append(Event("reinforce", f"{n} {key_text(key)} arrive{'s' if n == 1 else ''} "
                            f"at {command.sector}", {"sector": command.sector}))
    return events


def stuck_german(board: Board, state: AState, events: list[Event]) -> None:
    """Reserves with no flag sector to go to wait off the board and arrive in the next 6.3
    ("Reserve units must be placed"), each in its group (above the Rhine or free)."""
    if not state.arriving:
        return
    key = state.arriving[0]
    if next(_flag_sectors(board, state, state.above_rhine > 0), None) is not None:
        return
    for index, k in enumerate(state.arriving):
        state.waiting[k] += 1
        (state.held_above if index < state.above_rhine else state.held_free)[k] += 1
    events.append(Event("reserves-wait", "no German flag sector free of enemy troops has room: "
                        f"{counts_text(dict(Counter(state.arriving)))} stay off the board "
                        "until the next round's phase 6.3", {"figure": key_text(key)}))
    state.arriving = []
    state.above_rhine = 0
