"""Combined Operations under way, alone or firing in concert (7.1, 7.1.1, 8.4, 8.4.1).

7.1: "each unit must complete its Operation before the next unit in that formation undertakes
its own"; 7.1.1 (its exception): "Only units performing the same type of Operation and that
are firing on the same target hex can perform them jointly"; 8.4: a Combined unit moves "up
to half of their printed Movement Allowance and then conduct[s] a Mobile Fire Attack ... or
vice-versa"; 8.4.1: "A unit cannot move, conduct a Mobile Fire Attack, and then move again".

How the two sentences of 7.1 and 7.1.1 fit (interpretation R3): a Combined unit's Operation
is under way from its first half (movement or Mobile Fire) to its second.  While only
Combined units of the formation move, each one's Operation stays open: they may yet fire
together, which is the one way 7.1.1 lets Operations overlap.  A Mobile Fire completes the
Operations of the moved units it names; it must name every unit that moved after the first of
them it names (an Operation begun while another was open overlaps it, so the two must be
performed jointly).  Units that fire first, jointly or alone, may each move afterwards.  Any
other Operation (a Movement, a Full Fire, a Combined unit beginning with its own Mobile Fire
or with a move into Close Combat, 10.3; the end of the activation) closes every open one: its
unused half is lost (R8).

``state.concert`` holds the open units in the order they began; they all moved (and wait to
fire) or all fired (and wait to move).
"""

from __future__ import annotations

from referee.core.errors import IllegalMove
from referee.games.koenig_eindhoven.state import COMBINED, KState


def moved(state: KState, unit: str) -> bool:
    """The unit has made its movement this turn (8.0: its Movement Points left are kept)."""
    return unit in state.mp_left


def check_second_move(state: KState, unit: str) -> bool:
    """A movement by a unit that has already performed an Operation: True when it is the
    second half of its open Combined Operation (it fired first, 8.4); otherwise the rule it
    breaks, raised."""
    if state.operation.get(unit) != COMBINED:
        return False
    if unit in state.concert and unit in state.fired and not moved(state, unit):
        return True  # 8.4 "or vice-versa (i.e., shoot first and then move)"
    if moved(state, unit) and unit in state.fired:
        raise IllegalMove("8.4.1", f"{unit} has moved and made its Mobile Fire Attack: a unit "
                          "cannot move, conduct a Mobile Fire Attack, and then move again; all "
                          "of one takes place first, and then all of the other")
    if moved(state, unit):
        raise IllegalMove("8.4.1", f"{unit} has already moved in its Combined Operation: all of "
                          "its movement takes place at once")
    raise IllegalMove("7.1", f"{unit}'s Combined Operation ended when another unit began its "
                      "own: each unit completes its Operation before the next unit undertakes "
                      "its own")


def after_combined_move(state: KState, unit: str, second_half: bool) -> None:
    """After a Combined unit's movement: a second half completes its Operation; a first half
    joins the moved units that may still fire with it (7.1.1) or, if any other Operation is
    open, closes it (7.1)."""
    if second_half:
        state.concert = tuple(u for u in state.concert if u != unit)
    elif state.concert and all(moved(state, u) for u in state.concert):
        state.concert = (*state.concert, unit)
    else:
        state.concert = (unit,)


def check_mobile_firer(state: KState, unit: str) -> bool:
    """A unit named in a Mobile Fire: True when it moved in its open Combined Operation (its
    Mobile Fire follows, 8.4); False when it has performed no Operation yet (it fires first);
    otherwise the rule it breaks, raised."""
    done = state.operation.get(unit)
    if done != COMBINED:
        return False  # no Operation yet, or another kind (``check_actor`` says which rule)
    if unit in state.fired:
        raise IllegalMove("8.4", f"{unit} has made its Mobile Fire Attack: a Combined Operation "
                          "has one")
    if unit in state.concert:
        return True
    raise IllegalMove("7.1", f"{unit}'s Combined Operation ended when another unit began its "
                      "own: each unit completes its Operation before the next unit undertakes "
                      "its own (units that move in Combined Operations one after another may "
                      "fire jointly, 7.1.1)")


def check_concert(state: KState, units: tuple[str, ...]) -> None:
    """7.1, 7.1.1: a Mobile Fire after movement names every unit that moved after the first of
    them it names (their Operations overlap, so they are performed jointly)."""
    named = [u for u in state.concert if u in units]
    if not named:
        return
    first = state.concert.index(named[0])
    missing = [u for u in state.concert[first:] if u not in units]
    if missing:
        raise IllegalMove("7.1", f"{named[0]} began its Combined Operation before "
                          f"{', '.join(missing)} moved: its Mobile Fire may follow their "
                          "movement only jointly with them (7.1.1), since each unit completes "
                          "its Operation before the next undertakes its own")


def after_mobile_fire(state: KState, units: tuple[str, ...]) -> None:
    """The moved units that fired have completed their Operations; the ones that fired first
    may each move afterwards (8.4); every other open Operation is closed (7.1)."""
    for unit in units:
        state.operation[unit] = COMBINED
        state.fired.add(unit)
    state.concert = tuple(u for u in units if not moved(state, u))


def close(state: KState) -> None:
    """Another kind of Operation begins, or the activation ends: open Combined Operations
    close (7.1); their unused half is lost."""
    state.concert = ()
