"""Veterans Only, option 4 (``[Option "bridge-damage"]``): bridges suffer collateral damage.

The seed (Veterans Only): "Bridges can suffer collateral damage during invasive/fall back
actions. Whenever assaults across a bridge take place (invasive action or fall back), each ZERO
rolled by tanks or artillery units of ANY side is a possible hit damaging the bridge. All zeros
must be rolled again, even if there's just one bridge: a second roll of ZERO is a ricochet, just
like during regular combat. Small bridges and Bailey bridges have 10 hit points; the 4 main
bridges have 20 hit points. A bridge is completely destroyed when it has no hit points left. A
bridge allows that many units to cross into enemy territory as the number of hit points it has
left. ... If both sides are free of enemy troops there's no limitation whatsoever concerning the
traffic across the bridge."

Readings (docs/arnhem44-interpretations.md, A41 and the Veterans/4 rows):

* the zeros are those of the *hit dice* of tanks and artillery, the defender's and the
  attacker's, in every engagement of an intrusion or fall back that crosses a bridge (not the
  spotting dice, not the distribution dice, whose 0 is a ricochet already); a zero the joker
  rerolled is gone (the joker's new face stands);
* each zero is rolled again at once, by the referee, right after that side's hit dice (and the
  joker's reroll), before its distribution dice: a 0 is a ricochet, face k strikes bridge
  ((k - 1) mod N) + 1 of the N bridges the assault crosses, in the order the command names
  their sectors (one bridge: every face 1-9 strikes it);
* the hits are counted over the whole command and taken by the bridges at its end (the units
  crossed at once; a fall back and invade in a single move is one crossing); a bridge with no
  hit points left is destroyed the way a blown bridge is (``explosives.destroy``: its crates go,
  its points are lost), an open Bailey bridge stops being a crossing;
* the crossing limit: the figures of one intrusion or fall back crossing a bridge are at most
  its hit points left; a plain move never meets enemy troops at either end, so it is free.
"""

from __future__ import annotations

from collections import Counter

from referee.core.dice import Dice
from referee.core.engine import Event
from referee.core.errors import IllegalMove
from referee.games.arnhem44 import options as veterans
from referee.games.arnhem44.bailey import HIT_POINTS as BAILEY_HIT_POINTS
from referee.games.arnhem44.bailey import bailey_between, open_between
from referee.games.arnhem44.board import Board, Key
from referee.games.arnhem44.explosives import destroy
from referee.games.arnhem44.state import AState

RULE = "Veterans/4"
OPTION = veterans.BRIDGE_DAMAGE
HIT_POINTS = {"small": 10, "major": 20}
"""Hit points of the map's bridges by kind: "Small bridges and Bailey bridges have 10 hit
points; the 4 main bridges have 20 hit points"."""
FIRING_KINDS = ("tank", "art")
"""Whose zeros may hit the bridge: "each ZERO rolled by tanks or artillery units"."""


def active(state: AState) -> bool:
    return OPTION in state.options


def full(board: Board, bridge: str) -> int:
    """A bridge's hit points undamaged (a Bailey bridge's id is not on the board: 10)."""
    info = board.bridges.get(bridge)
    return BAILEY_HIT_POINTS if info is None else HIT_POINTS[info.kind]


def left(board: Board, state: AState, bridge: str) -> int:
    """Hit points a bridge has left."""
    return full(board, bridge) - state.bridge_hits.get(bridge, 0)


def across(board: Board, state: AState, here: str, there: str) -> str | None:
    """The bridge a crossing from ``here`` to ``there`` uses: an open Bailey bridge or a
    standing bridge of the map (as ``movement.crossing`` reads them); None for a plain border,
    a ferry or a waterway crossed without a bridge."""
    if open_between(state, here, there):
        built = bailey_between(state, here, there)
        assert built is not None
        return built.id
    link = board.links[here].get(there)
    if link is not None and link.bridge is not None and link.bridge not in state.destroyed:
        return link.bridge
    return None


def check_crossers(board: Board, state: AState, crossers: Counter[str], what: str) -> None:
    """The crossing limit: "A bridge allows that many units to cross into enemy territory as
    the number of hit points it has left" (``crossers``: bridge -> figures crossing it in this
    intrusion or fall back; an intrusion or fall back always has enemy troops at one end)."""
    if not active(state):
        return
    for bridge, n in crossers.items():
        hp = left(board, state, bridge)
        if n > hp:
            raise IllegalMove(
                RULE, f"{bridge} has {hp} hit point{'s' if hp != 1 else ''} left: only {hp} "
                f"unit{'s' if hp != 1 else ''} can cross it at once to {what}, not {n} "
                "(bridge damage)")


class Collateral:
    """The bridges one intrusion or fall back crosses and the hits they take from the zeros of
    tanks and artillery (``fire.fire`` calls it with each side's hit dice)."""

    def __init__(self, board: Board, state: AState, dice: Dice, bridges: list[str]) -> None:
        self.board = board
        self.state = state
        self.dice = dice
        self.bridges: list[str] = []
        for bridge in bridges:
            if bridge not in self.bridges:
                self.bridges.append(bridge)
        self.hits: Counter[str] = Counter()

    def __call__(self, thrown: list[tuple[Key, tuple[int, ...]]], label: str) -> list[str]:
        """Roll again every 0 of the tanks' and artillery's hit dice (in the shooters' order);
        words for the log."""
        zeros = sum(1 for key, faces in thrown if key[1] in FIRING_KINDS
                    for face in faces if face == 0)
        if not zeros or not self.bridges:
            return []
        faces = self.dice.roll(10, zeros, f"{label}: {zeros} zero{'s' if zeros != 1 else ''} "
                               "of tanks and artillery rolled again for the bridge", low=0)
        struck: Counter[str] = Counter()
        ricochets = 0
        for face in faces:
            if face == 0:
                ricochets += 1
            else:
                struck[self.bridges[(face - 1) % len(self.bridges)]] += 1
        self.hits += struck
        parts = [f"{bridge} {n} hit{'s' if n != 1 else ''}" for bridge, n in struck.items()]
        if ricochets:
            parts.append(f"{ricochets} ricochet{'s' if ricochets != 1 else ''}")
        return [f"{label}: {zeros} zero{'s' if zeros != 1 else ''} of tanks and artillery "
                f"rolled again for the bridge: {', '.join(parts)}"]

    def settle(self) -> list[Event]:
        """The bridges take the command's hits; one with no hit points left is destroyed."""
        events: list[Event] = []
        for bridge in self.bridges:
            n = self.hits[bridge]
            if n:
                events += take_hits(self.board, self.state, bridge, n)
        self.hits.clear()
        return events


def take_hits(board: Board, state: AState, bridge: str, n: int) -> list[Event]:
    """``n`` hits on a standing bridge: its hit points go down; at 0 it is destroyed (a bridge
    of the map by the one path of demolition, ``explosives.destroy``; a Bailey bridge stays
    on the list of Bailey bridges, wrecked, and is no crossing any more)."""
    before = left(board, state, bridge)
    after = max(before - n, 0)
    kept = ""
    if after == 0 and bridge in board.bridges:
        try:
            veterans.may_destroy(board, state, bridge, "damage")
        except IllegalMove as held:
            after = 1  # Veterans/1 with Veterans/4: it holds with its last hit point (A39)
            kept = f"; it cannot be destroyed yet ({held.rule}): it keeps 1 hit point"
    data = {"bridge": bridge, "hits": n, "hit_points": after}
    if after > 0:
        state.bridge_hits[bridge] = full(board, bridge) - after
        return [Event("bridge-damage", f"{bridge} takes {n} hit{'s' if n != 1 else ''}: "
                      f"{after} hit point{'s' if after != 1 else ''} left{kept}", data)]
    events = [Event("bridge-damage", f"{bridge} takes {n} hit{'s' if n != 1 else ''} and has "
                    "no hit points left: it is completely destroyed", data)]
    if bridge in board.bridges:
        state.bridge_hits.pop(bridge, None)
        return events + destroy(state, bridge)
    state.bridge_hits[bridge] = BAILEY_HIT_POINTS
    return events


def lines(board: Board, state: AState) -> list[str]:
    """Position lines: ``setup: damage BRIDGE N`` (hits sustained; a Bailey bridge's 10 is a
    destroyed Bailey bridge)."""
    named = [b for b in board.bridges if b in state.bridge_hits]
    named += [b.id for b in state.baileys if b.id in state.bridge_hits]
    return [f"setup: damage {b} {state.bridge_hits[b]}" for b in named]


def place(board: Board, state: AState, written: str, hits: int) -> None:
    """``setup: damage BRIDGE N``: a bridge of the map (1 to its hit points less 1) or a Bailey
    bridge placed before (1 to 10; 10: destroyed)."""
    if not active(state):
        raise IllegalMove("Positions", "bridges keep damage only with the option bridge-damage "
                          "(Veterans Only, option 4)")
    built = [b for b in state.baileys if b.id.casefold() == written.casefold()]
    if built:
        if built[0].points:
            raise IllegalMove("Positions", f"{built[0].id} is under construction: only an open "
                              "Bailey bridge is crossed and damaged")
        if not 1 <= hits <= BAILEY_HIT_POINTS:
            raise IllegalMove("Positions", f"a Bailey bridge takes 1 to {BAILEY_HIT_POINTS} "
                              f"hits ({BAILEY_HIT_POINTS}: destroyed)")
        state.bridge_hits[built[0].id] = hits
        return
    bridge = board.bridge_names.lookup(written)
    most = full(board, bridge) - 1
    if bridge in state.destroyed:
        raise IllegalMove("Positions", f"{bridge} is destroyed: it keeps no damage")
    if not 1 <= hits <= most:
        raise IllegalMove("Positions", f"{bridge} takes 1 to {most} hits in a position (with "
                          f"{most + 1} it is destroyed: setup: bridge {bridge} destroyed)")
    state.bridge_hits[bridge] = hits


def problems(board: Board, state: AState) -> list[str]:
    """Invariants: damage only with the option, on standing bridges of the map below their hit
    points, or on open Bailey bridges (10: destroyed)."""
    if not state.bridge_hits:
        return []
    if not active(state):
        return ["bridge damage without the option bridge-damage"]
    out = []
    baileys = {b.id: b for b in state.baileys}
    for bridge, hits in state.bridge_hits.items():
        if bridge in baileys:
            if baileys[bridge].points or not 0 < hits <= BAILEY_HIT_POINTS:
                out.append(f"{bridge} has {hits} hits")
        elif bridge not in board.bridges or bridge in state.destroyed \
                or not 0 < hits < full(board, bridge):
            out.append(f"{bridge} has {hits} hits")
    return out


def view(board: Board, state: AState) -> str | None:
    """The damaged bridges for the text view (None: no damage)."""
    if not state.bridge_hits:
        return None
    shown = []
    for bridge in [*board.bridges, *(b.id for b in state.baileys)]:
        if bridge in state.bridge_hits:
            hp = left(board, state, bridge)
            shown.append(f"{bridge} {hp}/{full(board, bridge)}" if hp else f"{bridge} destroyed")
    return "Bridge damage (hit points left): " + ", ".join(shown)
