"""Explosives: the German's crates at set-up (Explosives in General), Phase 3.1 - Diffuse
Explosive Charges, Phase 3.2 - Blowing Up Bridges (How to Use Explosives), Phase 3.3 - Install
Explosive Charges, and the crates the reinforcement table brings.

A crate's value is hidden from the Allied player (The German Player Goes First: "He must
conceal the numeric value"): the state holds no hidden value (crates.py).  A roll that needs
the value of a face-down crate waits for the German to show it (``reveal V``); the referee
checks it against what is known, and in play by e-mail ``verify`` checks it against the
German's commitment (referee.core.hidden).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.core.hidden import commit_event, reveal_event
from referee.games.arnhem44 import jokers
from referee.games.arnhem44 import options as veterans
from referee.games.arnhem44.board import ALLIED, GERMAN, Board
from referee.games.arnhem44.commands import Command, Defuse, Detonate, Pass, Reveal, Rig, Swap
from referee.games.arnhem44.crates import MAJOR_LIMIT, SWAPPABLE, Attempt, Crate, Explosives
from referee.games.arnhem44.jokers import Joker
from referee.games.arnhem44.presence import friends
from referee.games.arnhem44.state import EXPLOSIVES, AState

DONE = "3.4"
"""The phase after the explosives (Phase 3.4 - Constructing Bailey Bridges)."""
TITLES = {
    "3.1-german": "Phase 3.1 - Diffuse Explosive Charges (the German player first)",
    "3.1-allied": "Phase 3.1 - Diffuse Explosive Charges (the Allied player)",
    "3.2": "Phase 3.2 - Blowing Up Bridges",
    "3.3": "Phase 3.3 - Install Explosive Charges",
}
RULES = {"3.1-german": "Phase 3.1", "3.1-allied": "Phase 3.1", "3.2": "Phase 3.2",
         "3.3": "Phase 3.3"}


def standing(board: Board, state: AState) -> list[str]:
    """The bridges of the map still standing (Winning: their values are the points held)."""
    return [b for b in board.bridges if b not in state.destroyed]


def bridge_points(board: Board, state: AState) -> dict[str, int]:
    """Each standing bridge's value: they sum to 100 minus the destroyed bridges' values."""
    return {b: board.bridges[b].value for b in standing(board, state)}


def at_bridge(board: Board, state: AState, bridge: str, side: str) -> bool:
    """"at least one unit at the bridge; which side or sector does not matter"."""
    info = board.bridges[bridge]
    return friends(state, info.a, side) > 0 or friends(state, info.b, side) > 0


def receive(state: AState, values: list[int]) -> None:
    """Crates from the reinforcement table go to the German's stock (Phase 6.3: "explosive
    charges may be kept in stock for later use")."""
    ex = state.explosives
    ex.stock += len(values)
    ex.unseen.update(values)


# -- what may be done ---------------------------------------------------------------------

def actor(state: AState) -> str:
    return ALLIED if state.phase == "3.1-allied" else GERMAN


def _rig_allowed(board: Board, state: AState, bridge: str, value: int | None) -> str | None:
    """Why a crate may not go under ``bridge`` now (``None``: it may)."""
    ex = state.explosives
    info = board.bridges[bridge]
    if ex.stock < 1:
        return "the German player has no crate left in stock"
    if bridge in state.destroyed:
        return f"{bridge} is destroyed"
    if info.kind == "major":
        if value is not None and value > MAJOR_LIMIT:
            return (f"only explosive charges of {MAJOR_LIMIT} or less are allowed underneath "
                    f"the 4 major bridges ({bridge} is major)")
        if value is None and ex.low_unseen() < ex.low_needed() + 1:
            return (f"{bridge} is a major bridge and no crate of {MAJOR_LIMIT} or less is left "
                    "in stock")
    if value is not None and ex.unseen[value] < 1:
        return f"the German player has no crate of {value} in stock"
    return None


def actions(board: Board, state: AState) -> list[Command]:
    """The attempts or rigs of this step (not ``pass``, not ``swap``)."""
    return list(_actions(board, state))


def _actions(board: Board, state: AState) -> Iterator[Command]:
    """``actions`` one by one, in its order (``advance`` asks only whether there is one).
    The crates are sorted by bridge in one pass (``under`` of each, in their order), and a
    bridge with no crate under it is not looked at."""
    ex = state.explosives
    phase = state.phase
    if phase in ("3.1-german", "3.1-allied", "3.2"):
        if not ex.crates:
            return
        side = actor(state)
        cls = Detonate if phase == "3.2" else Defuse
        under: dict[str, list[Crate]] = {}
        for crate in ex.crates:
            under.setdefault(crate.bridge, []).append(crate)
        for bridge in board.bridges:
            crates = under.get(bridge)
            if crates is None or bridge in state.destroyed \
                    or not at_bridge(board, state, bridge, side):
                continue
            for place, crate in enumerate(crates, 1):  # ``ex.under(bridge)``
                if not crate.tried:
                    yield cls(bridge, place)
    elif phase == "3.3" and ex.stock:
        for bridge in board.bridges:
            if at_bridge(board, state, bridge, GERMAN) and _rig_allowed(
                    board, state, bridge, None) is None:
                yield Rig(bridge)


def swaps(state: AState) -> list[Command]:
    ex = state.explosives
    if not ex.stock:
        return []
    return [Swap(v) for v in SWAPPABLE if ex.unseen[v] > 0]


def setup_rigs(board: Board, state: AState) -> list[Command]:
    """The German set-up: any bridge, no unit needed (The German Player Goes First, note)."""
    return [Rig(b) for b in board.bridges if _rig_allowed(board, state, b, None) is None]


def legal(board: Board, state: AState) -> list[Command]:
    ex = state.explosives
    if ex.attempt is not None:
        crate = ex.crate(ex.attempt.crate)
        assert crate is not None
        return [Reveal(v) for v in ex.candidates(crate)]
    out = [c for c in actions(board, state)
           if not isinstance(c, Detonate) or _may_blow(board, state, c.bridge)]
    if jokers.held(state, actor(state)):
        # Jokers: the one-die throw may carry the joker that counters its 0 (reading A38)
        out += [replace(c, joker=True) for c in out if isinstance(c, (Defuse, Detonate))]
    if state.phase == "3.3":
        out += swaps(state)
    return [*out, Pass()]


def _may_blow(board: Board, state: AState, bridge: str) -> bool:
    try:
        veterans.may_destroy(board, state, bridge, "blow")
    except IllegalMove:
        return False
    return True


def decision(board: Board, state: AState) -> str:
    ex = state.explosives
    if ex.attempt is not None:
        crate = ex.crate(ex.attempt.crate)
        assert crate is not None
        return (f"the value of the face-down crate under {crate.bridge} for the "
                f"{ex.attempt.action} roll of {ex.attempt.face} (reveal V)")
    what = {"3.1-german": "defuse your own crates (defuse BRIDGE crate N) or pass",
            "3.1-allied": "defuse a crate (defuse BRIDGE crate N) or pass",
            "3.2": "blow up a bridge (detonate BRIDGE crate N) or pass",
            "3.3": "install a crate (rig BRIDGE), exchange a crate (swap V) or pass"}
    return f"{TITLES[state.phase]}: {what[state.phase]}"


# -- the steps ------------------------------------------------------------------------------

def open_phase(board: Board, state: AState, events: list[Event]) -> None:
    """Phase 3.1: the German player first ("In case both players are attempting to diffuse
    the same charge, the German player goes first!"), then the Allied player; then 3.2, 3.3.
    A step with nothing to do is passed by itself, with a sentence."""
    _enter(state, "3.1-german")
    advance(board, state, events)


def _enter(state: AState, phase: str) -> None:
    state.phase = phase
    for crate in state.explosives.crates:
        crate.tried = False


NEXT = {"3.1-german": "3.1-allied", "3.1-allied": "3.2", "3.2": "3.3", "3.3": DONE}
NOTHING = {"3.1-german": "no crate (left) to try at a bridge with a German unit",
           "3.1-allied": "no crate (left) to try at a bridge with an Allied unit",
           "3.2": "no crate (left) to try at a bridge with a German unit",
           "3.3": "no crate in stock to exchange, and none that a bridge with a German unit "
                  "may take"}


def advance(board: Board, state: AState, events: list[Event]) -> None:
    """Go on through the steps that have nothing to decide; stop at a decision or after 3.3
    (phase ``DONE``).  Phase 3.3 is a decision while a crate may be rigged or exchanged."""
    while state.phase in EXPLOSIVES and state.explosives.attempt is None:
        if next(_actions(board, state), None) is not None \
                or (state.phase == "3.3" and swaps(state)):
            # Explosives in General: the exchange of a 7, 6 or 5 for a 4 is his "at ANY
            # time": phase 3.3 waits for the German while one is possible
            # (it may make a rig under a major bridge possible).
            events.append(Event("phase", TITLES[state.phase], {"phase": state.phase}))
            return
        events.append(Event("phase", f"{TITLES[state.phase]}: {NOTHING[state.phase]}",
                            {"phase": state.phase}))
        _enter(state, NEXT[state.phase])


def apply(board: Board, state: AState, command: Command, dice: Dice) -> list[Event]:
    """A command of phases 3.1-3.3; the phase goes on (``advance``) when the step is done."""
    ex = state.explosives
    rule = RULES[state.phase]
    events: list[Event] = []
    if ex.attempt is not None:
        if not isinstance(command, Reveal):
            raise IllegalMove(rule, f"'{command}' must wait: {decision(board, state)}")
        events += reveal(board, state, command.value)
    elif isinstance(command, Pass):
        events.append(Event("pass", f"{actor(state).capitalize()} passes"))
        _enter(state, NEXT[state.phase])
    elif isinstance(command, Defuse) and state.phase.startswith("3.1"):
        events += attempt(board, state, "defuse", command.bridge, command.crate, dice,
                          command.joker)
    elif isinstance(command, Detonate) and state.phase == "3.2":
        events += attempt(board, state, "detonate", command.bridge, command.crate, dice,
                          command.joker)
    elif isinstance(command, Rig) and state.phase == "3.3":
        events += rig(board, state, command, setup=False)
    elif isinstance(command, Swap):
        events += swap(state, command)
    else:
        raise IllegalMove(rule, f"'{command}' is not possible now: {decision(board, state)}")
    if ex.attempt is None:
        advance(board, state, events)
    return events


# -- installing and exchanging crates ---------------------------------------------------------

def rig(board: Board, state: AState, command: Rig, *, setup: bool) -> list[Event]:
    """A crate under a bridge: at set-up anywhere ("The in-game rule that stipulates that a
    bridge can only be rigged with explosives if friendly troops are adjacent to the bridge
    does not apply during the set up"), in phase 3.3 with a German unit at the bridge."""
    ex = state.explosives
    rule = "Explosives in General" if setup else "Phase 3.3"
    bridge = command.bridge
    if not setup and not at_bridge(board, state, bridge, GERMAN):
        info = board.bridges[bridge]
        raise IllegalMove(rule, f"to rig a bridge with explosives at least one German unit must "
                          f"be at the bridge ({info.a} or {info.b})")
    why = _rig_allowed(board, state, bridge, command.value)
    if why is not None:
        raise IllegalMove("Bridges" if "major" in why else rule, why)
    info = board.bridges[bridge]
    ex.numbered += 1
    crate = Crate(ex.numbered, bridge, command.value, command.commitment, info.kind == "major")
    ex.crates.append(crate)
    ex.stock -= 1
    place = len(ex.under(bridge))
    if command.value is not None:
        ex.unseen[command.value] -= 1
        ex.unseen += Counter()
        return [Event("rig", f"German rigs {bridge} with a crate of {command.value} (crate "
                      f"{place} there, shown)", {"bridge": bridge, "value": command.value})]
    allowed = [v for v in ex.candidates(crate)]
    text = (f"German rigs {bridge} with a face-down crate (crate {place} there"
            + (", value committed)" if command.commitment else ")"))
    return [commit_event(f"crate {crate.number}", GERMAN, command.commitment, allowed, text)]


def swap(state: AState, command: Swap) -> list[Event]:
    """Explosives in General: "The German player may exchange a higher number (7, 6 or 5)
    from his stash with a 4 ... at ANY time"; only crates in stock (A25); never an upgrade."""
    ex = state.explosives
    if command.value not in SWAPPABLE:
        raise IllegalMove("Explosives in General", f"only a 7, 6 or 5 is exchanged for a 4, not "
                          f"a {command.value} (the German player may never upgrade a charge)")
    if ex.stock < 1 or ex.unseen[command.value] < 1:
        raise IllegalMove("Explosives in General", f"the German player has no crate of "
                          f"{command.value} in his stash to exchange")
    ex.unseen[command.value] -= 1
    ex.unseen[MAJOR_LIMIT] += 1
    ex.unseen += Counter()
    if ex.low_unseen() < ex.low_needed():  # pragma: no cover - a 4 only adds small values
        raise IllegalMove("Explosives in General", "the exchange contradicts the crates rigged")
    return [Event("swap", f"German exchanges a crate of {command.value} from his stash for a "
                  f"{MAJOR_LIMIT}", {"value": command.value})]


# -- defusing and blowing up ------------------------------------------------------------------

def _crate(board: Board, state: AState, rule: str, bridge: str, place: int | None) -> Crate:
    under = state.explosives.under(bridge)
    if bridge in state.destroyed:
        raise IllegalMove(rule, f"{bridge} is destroyed")
    if not under:
        raise IllegalMove(rule, f"there is no crate under {bridge}")
    if place is None:
        left = [c for c in under if not c.tried]
        if not left:
            raise IllegalMove(rule, f"every crate under {bridge} was tried in this step (one "
                              "attempt per crate)")
        return left[0]
    if not 1 <= place <= len(under):
        raise IllegalMove(rule, f"{bridge} has {len(under)} crate{'s' if len(under) > 1 else ''}"
                          f", not a crate {place}")
    crate = under[place - 1]
    if crate.tried:
        raise IllegalMove(rule, f"crate {place} under {bridge} was tried in this step already "
                          "(one attempt per crate)")
    return crate


def attempt(board: Board, state: AState, action: str, bridge: str, place: int | None,
            dice: Dice, joker: bool = False) -> list[Event]:
    """Phase 3.1 (defuse) or 3.2 (detonate): one d10 for one crate, by a side with a unit at
    the bridge; a face-down crate's value is shown when the outcome depends on it.  With
    ``joker`` (Jokers: "To counter a single throw of one D10 when a ZERO is rolled: reroll the
    D10, but the next result stands!"), a 0 is rolled again at once and the new face is the
    roll's; no 0, the joker is kept."""
    ex = state.explosives
    side = actor(state)
    rule = "Phase 3.2" if action == "detonate" else "Phase 3.1"
    if action == "detonate":
        veterans.may_destroy(board, state, bridge, "blow")  # Veterans Only, options 1 and 2
    if not at_bridge(board, state, bridge, side):
        info = board.bridges[bridge]
        who = "German unit" if side == GERMAN else "unit"
        raise IllegalMove(rule, f"to {action} a charge at least one {who} must be at the bridge "
                          f"({info.a} or {info.b}); which side or sector does not matter")
    crate = _crate(board, state, rule, bridge, place)
    card = Joker(state, side, dice, joker)  # refused before the roll when none is held
    crate.tried = True
    label = f"{action} a crate under {bridge}"
    (face,) = card(dice.roll(10, 1, label, low=0), label)
    played = card.done()
    if face == 0 or crate.value is not None:
        return played + resolve(board, state, action, side, crate, face)
    if action == "defuse" and face > max(ex.candidates(crate), default=0):
        # higher than any value the crate can hold: defused, its value stays unseen
        ex.crates.remove(crate)
        if side == GERMAN:
            ex.stock += 1
            where = "back in his stock"
        else:
            ex.lost += 1
            ex.lost_major += crate.major
            where = "removed from the game"
        return [*played, Event(
            "defuse", f"{side.capitalize()} rolls {face}, higher than any crate under {bridge} "
            f"can be: defused (its value stays unseen), {where}",
            {"bridge": bridge, "face": face})]
    if action == "defuse" and face <= min(ex.candidates(crate), default=0):
        # Phase 3.1 and the reading of a value shown: no higher than any value the crate can
        # hold, so the roll fails whatever it holds ("nothing happens"); the table sees no
        # value, the crate stays face down.
        ex.shown_late = Attempt(action, side, crate.number, face)
        return [*played, Event(
            "defuse", f"{side.capitalize()} rolls {face}, no higher than any crate under "
            f"{bridge} can be: nothing happens, the explosives stay in place (face down)",
            {"bridge": bridge, "face": face})]
    ex.attempt = Attempt(action, side, crate.number, face)
    return [*played, Event(f"{action}-roll", f"{side.capitalize()} rolls {face} to {action} "
                           f"a face-down crate under {bridge}: the German player shows its "
                           "value", {"bridge": bridge, "face": face})]


def reveal(board: Board, state: AState, value: int) -> list[Event]:
    ex = state.explosives
    attempt_ = ex.attempt
    assert attempt_ is not None
    crate = ex.crate(attempt_.crate)
    assert crate is not None
    allowed = ex.candidates(crate)
    if value not in allowed:
        why = (f"only a crate of {MAJOR_LIMIT} or less lies under a major bridge"
               if crate.major and value > MAJOR_LIMIT else
               "the German player's crates do not hold that value (or it is needed under a "
               "major bridge)")
        raise IllegalMove("Explosives in General", f"the crate cannot be a {value}: {why}; it "
                          f"can be {', '.join(map(str, allowed))}")
    crate.value = value
    ex.unseen[value] -= 1
    ex.unseen += Counter()
    ex.attempt = None
    events = [reveal_event(f"crate {crate.number}", GERMAN, value,
                           f"the crate under {crate.bridge} is a {value}",
                           {"bridge": crate.bridge})]
    return events + resolve(board, state, attempt_.action, attempt_.side, crate, attempt_.face)


def show_late(state: AState, value: int) -> list[Event] | None:
    """``reveal V`` on the line after a defusing roll that failed whatever the crate holds
    (``Explosives.shown_late``): the value is shown and checked as any value shown, and
    nothing else happens (the roll has been resolved).  None when no such roll precedes."""
    ex = state.explosives
    late = ex.shown_late
    crate = None if late is None else ex.crate(late.crate)
    if late is None or crate is None or crate.value is not None or ex.attempt is not None:
        return None
    allowed = ex.candidates(crate)
    if value not in allowed:
        raise IllegalMove("Explosives in General", f"the crate cannot be a {value}: it can be "
                          f"{', '.join(map(str, allowed))}")
    crate.value = value
    ex.unseen[value] -= 1
    ex.unseen += Counter()
    ex.shown_late = None
    return [reveal_event(f"crate {crate.number}", GERMAN, value,
                         f"the crate under {crate.bridge} is a {value} (shown, although the "
                         f"roll of {late.face} failed whatever it held)",
                         {"bridge": crate.bridge})]


def _remove(state: AState, crate: Crate) -> None:
    ex = state.explosives
    ex.crates.remove(crate)
    if crate.value is None:
        ex.lost += 1
        ex.lost_major += crate.major


def destroy(state: AState, bridge: str) -> list[Event]:
    """The one path of a bridge's destruction (a detonation, a defusing 0, Veterans/4 bridge
    damage): its crates are removed, it joins ``state.destroyed`` (its points are lost)."""
    ex = state.explosives
    for crate in ex.under(bridge):
        _remove(state, crate)
    state.destroyed.add(bridge)
    state.bridge_hits.pop(bridge, None)  # Veterans/4: a destroyed bridge keeps no damage
    return [Event("bridge-destroyed", f"{bridge} is destroyed; every crate under it is removed "
                  "from the game", {"bridge": bridge})]


def resolve(board: Board, state: AState, action: str, side: str, crate: Crate,
            face: int) -> list[Event]:
    ex = state.explosives
    bridge = crate.bridge
    value = crate.value
    who = side.capitalize()
    if action == "defuse":
        if face == 0:
            # Ten-Sided Dice / Phase 3.1: "the bridge is lost and the explosives are to be
            # removed from the game" -- unless a Veterans Only option keeps it (reading A39)
            try:
                veterans.may_destroy(board, state, bridge, "defuse")
            except IllegalMove as held:
                _remove(state, crate)
                return [Event("defuse", f"{who} rolls 0 defusing under {bridge}: the crate is "
                              f"removed, but the bridge stands ({held.rule})",
                              {"bridge": bridge, "face": 0})]
            return [Event("defuse", f"{who} rolls 0 defusing under {bridge}: the operation "
                          "fails and the bridge is destroyed after all",
                          {"bridge": bridge, "face": 0}), *destroy(state, bridge)]
        assert value is not None
        if face <= value:
            return [Event("defuse", f"{who} rolls {face} against the crate of {value} under "
                          f"{bridge}: nothing happens, the explosives stay in place",
                          {"bridge": bridge, "face": face, "value": value})]
        ex.crates.remove(crate)
        if side == GERMAN:
            # "diffuse his own explosive charges and reinstall them elsewhere": back in stock
            ex.stock += 1
            ex.unseen[value] += 1
            return [Event("defuse", f"German rolls {face} against his crate of {value} under "
                          f"{bridge}: defused, back in his stock",
                          {"bridge": bridge, "face": face, "value": value})]
        return [Event("defuse", f"Allied rolls {face} against the crate of {value} under "
                      f"{bridge}: defused and removed from the game",
                      {"bridge": bridge, "face": face, "value": value})]
    if face == 0:
        # How to Use Explosives: "a roll of 0 (zero) is a complete failure: remove the crate"
        _remove(state, crate)
        return [Event("detonate", f"German rolls 0 under {bridge}: the dynamite flashes and "
                      "burns out; the crate is removed, the bridge stands",
                      {"bridge": bridge, "face": 0})]
    assert value is not None
    if face <= value:
        return [Event("detonate", f"German rolls {face} against the crate of {value}: {bridge} "
                      "blows up", {"bridge": bridge, "face": face, "value": value}),
                *destroy(state, bridge)]
    if value == 1:
        ex.crates.remove(crate)
        return [Event("detonate", f"German rolls {face} against the crate of 1 under {bridge}: "
                      "it does not explode and is removed",
                      {"bridge": bridge, "face": face, "value": value})]
    crate.value = value - 1
    return [Event("detonate", f"German rolls {face} against the crate of {value} under "
                  f"{bridge}: it does not explode this round; the crate becomes a {value - 1}",
                  {"bridge": bridge, "face": face, "value": value})]


def explosives_json(board: Board, state: AState) -> dict[str, object]:
    """What everyone may see: crates by bridge in order (a face-down crate's value ``null``),
    the stock, the values nobody has seen, the crates lost unseen, the destroyed bridges."""
    ex: Explosives = state.explosives
    return {
        "crates": {b: [{"value": c.value, "tried": c.tried} for c in ex.under(b)]
                   for b in board.bridges if ex.under(b)},
        "stock": ex.stock,
        "unseen": sorted(ex.unseen.elements(), reverse=True),
        "lost": ex.lost,
        "lost_major": ex.lost_major,
        "destroyed": [b for b in board.bridges if b in state.destroyed],
        "waiting": None if ex.attempt is None else {
            "action": ex.attempt.action, "side": ex.attempt.side, "face": ex.attempt.face},
    }
