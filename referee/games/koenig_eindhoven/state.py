"""The Eindhoven Bridge state: where every unit is, its hits, the Command Cup, the support
points and where in the Game Turn the players stand (3.0, 4.0).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any


class Phase(StrEnum):
    """The phases of a Game Turn (4.0) the players act in; housekeeping is instant."""

    LANDING = "landing"            # 5.0: the landing rolls of arriving Allied reinforcements
    SUPPORT = "support"            # 6.0: day turns, the artillery and Allied support rolls
    OPERATIONS = "operations"      # 7.0: day turns, the Command Cup
    REDEPLOYMENT = "redeployment"  # 4.0: night turns, the German redeployment
    OVER = "over"                  # after Game Turn 10 (3.0)


# The phases as module constants, for the checks made before and after every line a log
# replays (``to_act``, ``forced``, ``advance``...): in Python 3.11 every attribute read on an
# enum class (``Phase.OVER``) goes through the enum metaclass's ``__getattr__`` hook, about
# twenty times the cost of reading a global.  ``LANDING_PHASE is Phase.LANDING``.
LANDING_PHASE = Phase.LANDING
SUPPORT_PHASE = Phase.SUPPORT
OPERATIONS_PHASE = Phase.OPERATIONS
REDEPLOYMENT_PHASE = Phase.REDEPLOYMENT
OVER_PHASE = Phase.OVER


IN_PLAY = "in play"
DUE = "due"
ELIMINATED = "eliminated"
OFF_MAP = "off map"
NEVER = "never arrived"
STATUSES = (IN_PLAY, DUE, ELIMINATED, OFF_MAP, NEVER)

OFF = "off"
"""Off the map edge, written as a path's last step: a retreat (``retreat 1/935->off``, 11.1);
in a move the log can say it so that the referee refuses it citing 8.1.1."""

MOVEMENT = "movement"
FULL_FIRE = "full-fire"
COMBINED = "combined"
REDEPLOYED = "redeployed"
OPERATIONS = (MOVEMENT, FULL_FIRE, COMBINED, REDEPLOYED)

ARTILLERY = "artillery"
US_MACHINE_GUNS = "us-machine-guns"
"""Optional rule 14.3.1: US machine-gun units Full Fire across River hexsides at half CS."""
ALLIED_SUPPORT = "allied-support"


@dataclass(frozen=True, slots=True)
class Battle:
    """A Full or Mobile Fire attack from its preparation to its last decision (9.0-9.2.3).

    Immutable: each step makes a new one (``dataclasses.replace``)."""

    kind: str
    """full-fire or mobile-fire."""
    target: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    attacker: str
    """The attacking (active) side."""
    af: int
    """The Attack Factor after preparation and terrain (9.0 steps 1 and 4), before support."""
    modifiers: tuple[str, ...]
    step: str
    """defensive-support, offensive-support, roll, hit-defender, hit-attacker, retreat."""
    defensive: int = 0
    offensive: int = 0
    roll: int | None = None
    result: str | None = None
    hit: tuple[str, ...] = ()
    """Units that took a Hit and may still retreat (9.2.3), defender's first."""

    @property
    def net(self) -> int:
        return self.af + self.offensive - self.defensive


class Places(dict[str, "str | None"]):
    """Every combat unit's hex (``KState.hex``), with room for a view made from it: the
    movement rules' ``Occupancy`` (who is where), asked before every line a log replays and
    again by each move.  A unit's hex set anew (``table[unit] = hex``) makes the view of the
    table with that unit moved, and any other change of the table drops the view (``seen``),
    so a view kept here is never stale; a copy of the table (``KState.copy``) keeps its
    view, which describes it as well."""

    __slots__ = ("seen",)
    seen: Any
    """The view, or None; unset until one is kept (a table made without one: read it with
    ``getattr(table, "seen", None)``; no ``__init__`` here, which every copy would call)."""

    def __setitem__(self, key: str, value: str | None) -> None:
        seen = getattr(self, "seen", None)
        if seen is not None:
            # The view of the table with this one unit moved (``Occupancy.moved``: a new
            # view, as copies of the table may share the old one).
            self.seen = seen.moved(key, dict.get(self, key), value)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        self.seen = None
        dict.__delitem__(self, key)

    def __ior__(self, other: Any) -> Places:  # type: ignore[override,misc]
        self.seen = None
        dict.update(self, other)
        return self

    def update(self, *args: Any, **kwargs: Any) -> None:
        self.seen = None
        dict.update(self, *args, **kwargs)

    def pop(self, *args: Any) -> Any:
        self.seen = None
        return dict.pop(self, *args)

    def popitem(self) -> tuple[str, str | None]:
        self.seen = None
        return dict.popitem(self)

    def clear(self) -> None:
        self.seen = None
        dict.clear(self)

    def setdefault(self, key: str, default: str | None = None) -> str | None:
        self.seen = None
        return dict.setdefault(self, key, default)


@dataclass(slots=True)
class KState:
    """Everything on the map, the tracks and in the cup."""

    scenario: str
    turn: int
    phase: Phase
    hex: Places
    """Every combat unit (HQs are never on the map, K20): its hex, or None when not on it."""
    status: dict[str, str]
    """Every combat unit: in play, due, eliminated, off map, never arrived."""
    hits: dict[str, int]
    cup: list[str] = field(default_factory=list)
    """Formations whose HQ is still in the Command Cup this Operations Phase (7.0)."""
    active: str | None = None
    """The formation drawn and activated (7.0), until its activation ends."""
    operation: dict[str, str] = field(default_factory=dict)
    """Units that performed (or are performing) an Operation this turn, and which (7.0)."""
    mp_left: dict[str, int] = field(default_factory=dict)
    """Movement Points a unit had left when its movement ended this turn (8.0)."""
    concert: tuple[str, ...] = ()
    """The units whose Combined Operations are under way (8.4), in the order they began: one
    unit that moved (its Mobile Fire may follow) or fired (its movement may follow); or, firing
    in concert (7.1.1), several Combined units that each moved and may yet fire jointly, or
    that fired jointly and may each still move.  Any other Operation closes them (7.1)."""
    landed: set[str] = field(default_factory=set)
    """Allied reinforcements whose Paratroop Landing roll was made (5.0)."""
    rolled: list[str] = field(default_factory=list)
    """This Support Phase's rolls made so far: artillery, then allied-support (6.0)."""
    points: dict[str, int] = field(default_factory=lambda: {ARTILLERY: 0, ALLIED_SUPPORT: 0})
    result: dict[str, object] | None = None
    battle: Battle | None = None
    fired: set[str] = field(default_factory=set)
    """Combined units that made their Mobile Fire this turn (8.4)."""
    engaged: set[str] = field(default_factory=set)
    """Units that initiated a Close Combat this turn: their Operation is over (10.3)."""
    options: frozenset[str] = frozenset()
    """The optional rules in play, from the log's ``[Option]`` tags (14.0)."""

    def copy(self) -> KState:
        hexes = Places(self.hex)
        hexes.seen = getattr(self.hex, "seen", None)  # the copy's view is the original's
        # The fields in their order (``_FIELDS``; tests/games/koenig_eindhoven/
        # test_occupancy.py checks it): positional arguments cost less than keywords, and
        # the driver copies the state before every line it replays.
        return KState(
            self.scenario, self.turn, self.phase, hexes, dict(self.status), dict(self.hits),
            list(self.cup), self.active, dict(self.operation), dict(self.mp_left),
            self.concert, set(self.landed), list(self.rolled), dict(self.points), self.result,
            self.battle, set(self.fired), set(self.engaged), self.options,
        )

    def take(self, other: KState) -> None:
        """Become ``other`` (the work copy a command was applied to)."""
        for name in _FIELDS:
            setattr(self, name, getattr(other, name))

    def occupants(self, hex_id: str) -> list[str]:
        return [u for u, h in self.hex.items() if h == hex_id]


_FIELDS = tuple(item.name for item in fields(KState))
