"""Movement (6): one unit's move, step by step, on a view of the board that can be undone.

``Walk`` moves one unit a space at a time on a ``MapView`` (``mapview.py``) and says, as a
``Refusal`` with the rule's section, why a step or an end is not allowed.  Validation
(``apply``) and enumeration (``legal``) both go through ``Walk``, so what one accepts the
other lists.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.games.wwiic.board import (
    ALLIED,
    BOX,
    FERRY,
    GERMAN,
    MOTORIZED,
    RIVER,
    SPACE,
    STRATEGIC_TYPES,
    TRACKED_TYPES,
    Crossing,
    UnitInfo,
    other_side,
)
from referee.games.wwiic.mapview import MapView
from referee.games.wwiic.refusal import ARRIVE, CONTROL, LEAVE, Refusal

ROUGH = ("polder", "woods")


def _an(word: str) -> str:
    """``word`` with its indefinite article: 'an Allied', 'a German'."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


@dataclass(slots=True)
class WalkState:
    """The part of a ``Walk`` that a backtracking search saves and restores."""

    at: str
    steps: int
    stop: Refusal | None
    special: bool
    foot: bool
    last_road: bool
    crossing: Crossing | None


class Walk:
    """One unit moving, a space at a time (6); every method answers with a ``Refusal``."""

    __slots__ = (
        "allied", "allowance", "at", "board", "crossing", "enabler", "enemy", "foot", "info",
        "last_road", "mine", "oos", "path", "side", "special", "start", "steps", "stop",
        "strategic", "theirs", "unit", "view",
    )

    def __init__(
        self, view: MapView, unit: str, strategic: bool = False, enabler: str | None = None
    ) -> None:
        self.view = view
        self.board = view.board
        self.unit = unit
        self.info: UnitInfo = view.board.units[unit]
        self.side = self.info.side
        self.enemy = other_side(self.side)
        # What a step looks at most, read straight from the view (legal() takes many steps):
        # whether the unit's side controls the Allied-controlled spaces, and the number of
        # the unit's own and the enemy's units in each place.
        self.allied = self.side == ALLIED
        self.mine = view.n_allied if self.allied else view.n_german
        self.theirs = view.n_german if self.allied else view.n_allied
        self.strategic = strategic
        self.enabler = enabler
        start = view.loc[unit]
        assert start is not None
        self.start: str = start
        self.at: str = start
        self.steps = 0
        self.path: list[str] = []
        self.stop: Refusal | None = None
        """Set once the unit must stop: the reason, as the refusal of a further step."""
        self.special = False
        self.foot = False
        self.last_road = False
        self.crossing: Crossing | None = None
        """The boundary crossed into the current space."""
        self.oos = view.supply.get(unit) == "out"
        if self.oos:
            self.allowance = 1  # 8.2: an out-of-supply unit moves only one space
        elif strategic:
            self.allowance = 1_000
        elif self.info.leg:
            self.allowance = 1
        else:
            self.allowance = 2

    @property
    def across(self) -> str | None:
        """The river or canal boundary crossed into the current space, if any (7.2)."""
        crossing = self.crossing
        if crossing is None or not crossing.water:
            return None
        if crossing.foot:
            return "foot crossing"
        return f"{crossing.kind} bridge" if crossing.bridge else crossing.kind

    def save(self) -> WalkState:
        return WalkState(
            self.at, self.steps, self.stop, self.special, self.foot, self.last_road,
            self.crossing,
        )

    def restore(self, saved: WalkState) -> None:
        self.at = saved.at
        self.steps = saved.steps
        self.stop = saved.stop
        self.special = saved.special
        self.foot = saved.foot
        self.last_road = saved.last_road
        self.crossing = saved.crossing
        del self.path[saved.steps :]

    # -- the start ---------------------------------------------------------------------------

    def begin(self) -> Refusal | None:
        """Checks before the first step: strategic movement eligibility (6.4)."""
        if not self.strategic:
            return None
        info, view, board = self.info, self.view, self.board
        name = info.id
        if info.type not in STRATEGIC_TYPES:
            return Refusal(
                "6.4", lambda: f"{name} is {info.type_words}, which can't use strategic movement"
            )
        if self.side == ALLIED:
            if not info.corps30:
                return Refusal(
                    "6.4", lambda: f"{name} is not in 30 Corps: only 30 Corps units use Allied "
                    "strategic movement",
                )
            if self.start not in board.club_route:
                return Refusal(
                    "6.4", lambda: f"{name} is in {board.name(self.start)}, which is not on Club "
                    "Route: Allied strategic movement starts in and enters only Club Route spaces",
                )
        elif view.weather != "overcast":
            return Refusal(
                "6.4", "German strategic movement is not permitted in clear weather"
            )
        kind = board.kind[self.start]
        if kind == FERRY:
            return Refusal("6.4", lambda: f"{name} can't use strategic movement from the ferry box")
        if kind == SPACE:
            if self.start not in board.road_spaces:
                return Refusal(
                    "6.4", lambda: f"{name} starts in {board.name(self.start)}, a space without a "
                    "road: strategic movement starts in a road space or an off-map box",
                )
            if view.has(self.start, other_side(self.side)):
                return Refusal(
                    "6.4", lambda: f"{name} starts in {board.name(self.start)}, which holds enemy "
                    "units: strategic movement can't start in an enemy-occupied space",
                )
        return None

    # -- a step ------------------------------------------------------------------------------

    def step(self, nxt: str) -> Refusal | None:
        """Move into ``nxt``, or say why not (nothing changes then)."""
        if self.stop is not None:
            return self.stop
        board = self.board
        here = self.at
        crossing = board.exits[here].get(nxt)
        if crossing is None:
            if board.kind.get(nxt) == BOX:
                return Refusal(  # 6.5: a box is entered from a space adjoining it
                    "6.5", lambda: f"{board.name(nxt)} is an off-map box that {board.name(here)} "
                    "does not adjoin: a unit moves into a box only from a space adjoining it",
                )
            return Refusal("6", lambda: f"{board.name(nxt)} is not adjacent to {board.name(here)}")
        if nxt == self.start or nxt in self.path:
            return Refusal(
                "6", lambda: f"{self.unit} would enter {board.name(nxt)} twice in one move"
            )
        if self.steps >= self.allowance:
            return self._too_far()
        return self.advance(nxt)

    def advance(self, nxt: str) -> Refusal | None:
        """``step`` for a caller that took ``nxt`` from the exits of where the unit is, not
        entered yet in this move, with the unit not stopped and within its allowance (what
        ``step`` checks first): legal()'s search, which takes many steps."""
        board = self.board
        here = self.at
        crossing = board.exits[here][nxt]
        kind = board.kind[nxt]
        if kind == BOX:
            refusal = self._into_box(here, nxt)
        elif kind == FERRY:
            refusal = self._into_ferry(here, nxt)
        elif board.kind[here] == FERRY:
            refusal = self._off_ferry(nxt)
        else:
            refusal = self._into_space(here, nxt, crossing)
        if refusal is not None:
            return refusal
        self._enter(here, nxt, crossing)
        return None

    def _too_far(self) -> Refusal:
        name = self.unit
        if self.oos:
            return Refusal("8.2", lambda: f"{name} is out of supply and moves only one space")
        if self.info.leg:
            return Refusal("6", lambda: f"{name} is {self.info.type_words} and moves one space")
        return Refusal(
            "6", lambda: f"{name} moves at most two spaces (further only by strategic movement, "
            "6.4)"
        )

    def _into_box(self, here: str, box: str) -> Refusal | None:
        board, name = self.board, self.unit
        info = board.boxes[box]
        if self.side != GERMAN:
            return Refusal("6.5", "only German units enter off-map boxes")
        if self.steps > 0:
            return Refusal(
                "6.5", lambda: f"{name} can't enter {box} after moving: moving into an off-map box "
                "is a unit's entire move, from the space it starts in",
            )
        if self.strategic:
            return Refusal("6.5", "a unit enters an off-map box by its regular move, not "
                           "strategic movement")
        if board.box_closed(box, self.view.turn):
            return Refusal("6.5", lambda: f"off-map box {box} is closed from Game-turn "
                           f"{info.closes_turn}: units can't enter it")
        if self.info.formation != info.formation:
            return Refusal(
                "6.5", lambda: f"off-map box {box} holds only {info.formation} units, and {name} "
                f"is {self.info.formation}",
            )
        return None

    def _ferry_unit(self) -> Refusal | None:
        board, name, info = self.board, self.unit, self.info
        if self.side != GERMAN or info.type not in board.ferry_types:
            return Refusal("6.3", "only German leg or motorized infantry use the Pannerden Ferry")
        strength = self.view.strength[name]
        if strength > board.ferry_max_strength:
            return Refusal(
                "6.3", lambda: f"{name} has strength {strength}: only a unit of strength "
                f"{board.ferry_max_strength} or less uses the Pannerden Ferry",
            )
        if self.strategic:
            return Refusal("6.3", "the Pannerden Ferry is not a road: no strategic movement")
        return None

    def _into_ferry(self, here: str, ferry: str) -> Refusal | None:
        board, view, name = self.board, self.view, self.unit
        refusal = self._ferry_unit()
        if refusal is not None:
            return refusal
        if self.steps > 0:
            return Refusal("6.3", lambda: f"{name} can't enter the ferry box after moving: the "
                "ferry move is the unit's whole move from Doornenburg or Duiven")
        if view.has(here, ALLIED):
            return Refusal("6.3", lambda: f"{board.name(here)} is contested: units enter the ferry "
                "box only from an uncontested bank")
        if len(view.units_in(ferry)) >= board.ferry_capacity:
            return Refusal(
                "6.3", "only one unit at a time can occupy the Pannerden Ferry box", (ferry,), LEAVE
            )
        return None

    def _off_ferry(self, bank: str) -> Refusal | None:
        board, view = self.board, self.view
        refusal = self._ferry_unit()
        if refusal is not None:
            return refusal
        if view.controller(bank) != GERMAN or view.has(bank, ALLIED):
            return Refusal(
                "6.3", lambda: "a unit leaves the ferry box only for a German-controlled, "
                f"uncontested bank; {board.name(bank)} is not", (bank,), CONTROL,
            )
        return None

    def _into_space(self, here: str, nxt: str, crossing: Crossing) -> Refusal | None:
        board, view, info = self.board, self.view, self.info
        name, side, enemy, enemies = self.unit, self.side, self.enemy, self.theirs
        enemy_next = enemies.get(nxt, 0) > 0
        friendly_next = (nxt in view.allied) == self.allied
        n = self.steps
        # 6.1: where a unit may go from a contested space (boxes count as friendly, uncontested).
        if enemies.get(here, 0) > 0 and board.kind[here] == SPACE:
            where = board.name(here)
            if (here in view.allied) == self.allied:
                if not friendly_next:
                    mine = _an(side.capitalize())
                    return Refusal(
                        "6.1", lambda: f"{name} is in {where}, a friendly-controlled contested "
                        "space: "
                        f"it may move only into {mine}-controlled space, and {board.name(nxt)} is "
                        f"{enemy.capitalize()}-controlled", (nxt,), CONTROL,
                    )
            else:
                mine, theirs = _an(side.capitalize()), _an(enemy.capitalize())
                if not friendly_next or enemy_next:
                    return Refusal(
                        "6.1", lambda: f"{name} is in {where}, {theirs}-controlled contested "
                        f"space: it may move only into {mine}-controlled uncontested space, and "
                        f"{board.name(nxt)} is not", (nxt,), CONTROL,
                    )
                if crossing.kind == RIVER and crossing.bridge and not view.has(nxt, side):
                    return Refusal(
                        "6.3", lambda: f"{name} is in {where}, {theirs}-controlled contested "
                        f"space: it crosses the river bridge only into a friendly-controlled, "
                        f"friendly-occupied space, and {board.name(nxt)} holds no "
                        f"{side.capitalize()} unit", (nxt,), ARRIVE,
                    )
        # 6.3: rivers, canals and bridges.
        if crossing.kind == RIVER and not crossing.bridge:
            if crossing.foot:
                if not info.leg:
                    return Refusal(
                        "6.3", "the Oosterbeek foot crossing is for leg infantry only"
                    )
                if view.foot_used:
                    return Refusal(
                        "6.3", "only one unit per game-turn crosses the Oosterbeek foot "
                        "crossing, and it has been used this turn",
                    )
                if view.has(nxt, enemy):
                    return Refusal(
                        "6.3", lambda: "a unit can't cross the Oosterbeek foot crossing into a "
                        f"space with enemy units, and {board.name(nxt)} has some",
                    )
            else:
                if side != ALLIED or not info.leg:
                    return Refusal(
                        "6.3", lambda: f"{name} can't cross the unbridged river between "
                        f"{board.name(here)} and {board.name(nxt)}",
                    )
                if view.special_used:
                    return Refusal(
                        "6.3", "only one Allied infantry special river crossing is allowed per "
                        "game-turn, and one has been made this turn",
                    )
        elif crossing.kind == "canal" and not crossing.bridge:
            if n > 0:
                return Refusal(
                    "6.3", lambda: f"{name} can't cross the canal into {board.name(nxt)}"
                           f" as the second space of "
                    "its move: a unit crossing an unbridged canal moves only one space",
                )
            if enemy_next and crossing.key in view.crossed:
                return Refusal(
                    "6.3", lambda: f"only one unit per activation crosses the canal boundary of "
                    f"{board.name(nxt)} from {board.name(here)} into an enemy-occupied space",
                )
        elif crossing.bridge and enemy_next:
            if n > 0:
                return Refusal(
                    "6.3", lambda: f"{name} can't cross the bridge into enemy-occupied "
                    f"{board.name(nxt)} as the second space of its move",
                )
            if crossing.key in view.crossed:
                return Refusal(
                    "6.3", lambda: f"only one unit per activation crosses the bridge between "
                    f"{board.name(here)} and {board.name(nxt)} into an enemy-occupied space",
                )
        # 8.2: out of supply.
        if self.oos and enemy_next and not friendly_next:
            return Refusal(
                "8.2", lambda: f"{name} is out of supply and can't move into an enemy-controlled "
                f"space with enemy units ({board.name(nxt)})",
            )
        # 6.4: strategic movement.
        if self.strategic:
            if not crossing.road:
                return Refusal(
                    "6.4", lambda: f"no road connects {board.name(here)} and {board.name(nxt)}: "
                    "strategic movement enters every space along a connecting road",
                )
            if side == ALLIED and nxt not in board.club_route:
                return Refusal(
                    "6.4", lambda: f"{board.name(nxt)}"
                           f" is not on Club Route: Allied strategic movement enters "
                    "only Club Route spaces",
                )
            if enemy_next:
                return Refusal(
                    "6.4", lambda: "strategic movement can't enter enemy-occupied "
                    f"{board.name(nxt)}"
                )
            if self.mine.get(nxt, 0) >= 2:
                return Refusal(
                    "6.4", lambda: "strategic movement can't enter or move through "
                    f"{board.name(nxt)}: it holds two friendly units", (nxt,), LEAVE,
                )
            if side == GERMAN and not friendly_next:
                return Refusal(
                    "6.4", lambda: "German strategic movement can't enter the empty "
                    f"Allied-controlled space {board.name(nxt)}", (nxt,), CONTROL,
                )
        return None

    def _enter(self, here: str, nxt: str, crossing: Crossing) -> None:
        board, view = self.board, self.view
        side, name, enemy = self.side, self.unit, self.enemy
        mine, theirs, allied = self.mine, self.theirs, view.allied
        kind = board.kind[nxt]
        stop: Refusal | None = None
        if kind == SPACE and self.strategic:
            units = view.units_in(nxt)
            if side == ALLIED and any(board.units[u].corps30 for u in units):
                stop = Refusal(
                    "6.4", lambda: f"{name} must stop in {board.name(nxt)}"
                           f": Allied strategic movement stops on "
                    "entering a space with a 30 Corps unit", (nxt,), LEAVE,
                )
            elif side == GERMAN and units:
                stop = Refusal(
                    "6.4", lambda: f"{name} must stop in {board.name(nxt)}"
                           f": German strategic movement stops on "
                    "entering a space with a German unit", (nxt,), LEAVE,
                )
        enemy_next = kind == SPACE and theirs.get(nxt, 0) > 0
        view.move(name, here, nxt)
        # 5: the last unit of the controlling side leaving a contested space hands it over.
        if (
            theirs.get(here, 0) > 0
            and not mine.get(here, 0)
            and (here in allied) == self.allied
            and board.kind[here] == SPACE
        ):
            view.set_control(here, enemy)
        if kind == SPACE:
            if enemy_next:
                stop = Refusal(
                    "6.1", lambda: f"{name} must stop in {board.name(nxt)}: it holds enemy units"
                )
                if crossing.water and (crossing.bridge or crossing.kind == "canal"):
                    view.add_crossed(crossing.key)
            elif (nxt in allied) != self.allied:
                view.set_control(nxt, side)
        if crossing.kind == "canal" and not crossing.bridge and stop is None:
            stop = Refusal(
                "6.3", lambda: f"{name} crossed an unbridged canal into {board.name(nxt)}"
                       f", so it moves only one space",
            )
        if kind == BOX:
            stop = Refusal(
                "6.5", lambda: f"{name} entered off-map box {nxt}: that is its entire move"
            )
        elif kind == FERRY or board.kind[here] == FERRY:
            stop = Refusal(
                "6.3", lambda: f"{name} used the Pannerden Ferry: that is its whole move"
            )
        if crossing.kind == RIVER and not crossing.bridge:
            if crossing.foot:
                self.foot = True
                view.use_foot()
            else:
                self.special = True
        self.crossing = crossing
        self.last_road = crossing.road
        self.at = nxt
        self.path.append(nxt)
        self.steps += 1
        self.stop = stop

    # -- the end -----------------------------------------------------------------------------

    def finish(self) -> Refusal | None:
        """Checks of where the move ends (6, 6.2), except the special crossing's enabler."""
        board, view, info = self.board, self.view, self.info
        name, side = self.unit, self.side
        end = self.at
        if not self.special and self.enabler is not None:
            return Refusal(
                "6.3", lambda: f"'with {self.enabler}' names the 30 Corps unit enabling a special "
                "river crossing, and this move makes none",
            )
        if self.steps == 0:
            if self.strategic:
                return Refusal("6.4", "a strategic move enters at least one space")
            return None
        if board.kind[end] == SPACE and view.count(end, side) > 2:
            return Refusal(
                "6.2", lambda: f"{name} can't end its move in {board.name(end)}: it already holds "
                f"two {side.capitalize()} units (a unit may move through such a space but not stop "
                "there)", (end,), LEAVE,
            )
        if (
            self.steps == 2
            and not self.strategic
            and board.kind[end] == SPACE
            and view.has(end, other_side(side))
        ):
            if info.type == MOTORIZED:
                return Refusal(
                    "6", lambda: f"{name} is motorized infantry: moving two spaces it can't end "
                    f"its move in an enemy-occupied space ({board.name(end)})",
                )
            if info.type in TRACKED_TYPES and board.terrain[end] in ROUGH and not self.last_road:
                return Refusal(
                    "6", lambda: f"{name} is {info.type_words}: moving two spaces it can't end its "
                    f"move in enemy-occupied {board.terrain[end]} ({board.name(end)}"
                    f") unless it enters by a connecting road",
                )
        return None

    def candidates(self) -> list[str]:
        """30 Corps units that may enable this special river crossing (6.3).

        Unspent, able to trace supply, in the space the move starts or ends in, and not
        themselves active in this impulse.
        """
        view, board = self.view, self.board
        found: list[str] = []
        for place in (self.start, self.at):
            for unit in view.units_in(place):
                if (
                    unit != self.unit
                    and board.units[unit].corps30
                    and unit not in view.spent
                    and unit not in view.active
                    and view.supply.get(unit) == "in"
                    and unit not in found
                ):
                    found.append(unit)
        return sorted(found)

    def settle_special(self) -> Refusal | None:
        """The enabler of a special river crossing: named, or the only candidate (6.3)."""
        if not self.special:
            return None
        found = self.candidates()
        if self.enabler is not None:
            if self.enabler not in found:
                return Refusal(
                    "6.3", lambda: f"{self.enabler} can't enable the special river crossing: the "
                    "enabling 30 Corps unit must be unspent, able to trace supply, not active "
                    "in this impulse, and in the space the move starts or ends in"
                    + (f" (here: {', '.join(found)})" if found else ""),
                )
            chosen = self.enabler
        elif len(found) == 1:
            chosen = found[0]
        elif not found:
            return Refusal(
                "6.3", lambda: f"{self.unit} crosses the river only by the Allied infantry special "
                "river crossing, which needs an unspent, supplied 30 Corps unit in the space "
                "the move starts or ends in",
            )
        else:
            return Refusal(
                "6.3", lambda: "say which 30 Corps unit enables the special river crossing: "
                + " or ".join(f"'with {u}'" for u in found),
            )
        self.view.use_special(chosen)
        return None


def run_move(
    view: MapView, unit: str, path: tuple[str, ...], strategic: bool, enabler: str | None
) -> tuple[Refusal | None, Walk]:
    """Move one unit along ``path`` on ``view`` (journaled); the first refusal, if any."""
    walk = Walk(view, unit, strategic, enabler)
    refusal = walk.begin()
    if refusal is not None:
        return refusal, walk
    for place in path:
        refusal = walk.step(place)
        if refusal is not None:
            return refusal, walk
    refusal = walk.finish() or walk.settle_special()
    return refusal, walk
