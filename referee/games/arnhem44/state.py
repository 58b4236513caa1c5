"""The Arnhem '44 game state: counts of figures per sector, never identities."""

from __future__ import annotations

from collections import Counter
from dataclasses import field
from typing import Annotated, Any

from referee.core.records import record
from referee.games.arnhem44.board import Key
from referee.games.arnhem44.copying import SHARED, changed, copied_on_write, copier
from referee.games.arnhem44.crates import Explosives
from referee.games.arnhem44.sectors import Sectors

SETUP_GERMAN = "setup-german"
SETUP_ALLIED = "setup-allied"
OVER = "over"
MOVEMENT = ("4.1", "5.1")
COMBAT = ("4.2", "5.2")
RESERVES = ("6.1", "6.2", "6.3")
AIRBORNE_PHASES = ("2.1", "2.2")
EXPLOSIVES = ("3.1-german", "3.1-allied", "3.2", "3.3")
"""Phase 3.1 (the German defuses first, then the Allies), 3.2 and 3.3 (explosives.py)."""
BAILEY = "3.4"


@record
class FallBackPending:
    """A fall back whose spotted figures wait for the mover's support decision (Move/FallBack)."""

    start: str
    dest: str
    spotted: list[Key]
    unseen: list[Key]
    costs: dict[Key, int]
    """Movement points the step costs each kind (99: a crossing that uses them all)."""
    bonus: int
    invade: bool = False
    """Fall back and invade in a single move: the destination is enemy territory."""


@record
class Withdrawal:
    """Figures that must withdraw from a sector after combat (RoE/Withdrawal)."""

    sector: str
    key: Key
    count: int


@record
class Bailey:
    """A Bailey bridge, under construction or open (Phase 3.4 - Constructing Bailey Bridges)."""

    id: str
    a: str
    b: str
    size: str
    """small (rivers and canals, 10 construction markers) or large (the three streams, 20)."""
    points: int
    """Construction markers left: 0 = the bridge is open to all units."""
    started: int
    """The round construction started (no work on it that round)."""
    worked: int = 0
    """The last round whose assembly step dealt with it (rolled, or no work: enemy troops)."""


# Copied at every copy: the fields read after most copies (bench/heavy_replay.py's logs, issue
# 31: units, barrage_rolls, hq, ferries, control, destroyed and contact after 84-99% of them,
# tokens and moved after a third).  Every other container is copied on write
# (``copying.copied_on_write``): after a copy, only the state that reads it copies it.  The
# explosives are read after few copies: ``Engine.apply`` peeks at them (``copying.peek``).
@copied_on_write("units", "barrage_rolls", "hq", "ferries", "control", "destroyed",
                 "contact", "tokens", "moved")
@record
class AState:
    round: int = 1
    phase: str = SETUP_GERMAN
    weather: str = "fine"
    units: dict[str, Annotated[Counter[Key], SHARED]] = field(default_factory=Sectors)
    """Figures on the map: sector -> (group, kind) -> count (no empty entries).  Changed only
    by ``add`` and ``remove``: a sector's count is shared between copies (``copying.Figures``),
    and each sector written is noted (``sectors.Sectors``)."""
    pool: Counter[Key] = field(default_factory=Counter)
    """Allied set-up units not yet placed (The Allied Player's Turn to Set Up)."""
    track: list[Key] = field(default_factory=list)
    """The Allied reserves on R1-R15, left to right (empty until set up)."""
    waiting: Counter[Key] = field(default_factory=Counter)
    """Figures not in play yet: the German set-up table until deployed, and later arrivals
    (airborne landings, reserve icons, German reserves: Phases 2.1, 6.2, 6.3)."""
    eliminated: Counter[Key] = field(default_factory=Counter)
    # -- the movement phase
    moved: dict[str, Annotated[Counter[tuple[str, str, int]], SHARED]] = field(
        default_factory=dict)
    """Figures that moved (or were halted) this phase: sector -> (group, kind, MP left) -> n.
    Every other figure of the mover is fresh: it starts the phase where it stands.  A
    sector's count is never changed in place (``figures.take``/``put`` put a new one, a
    ``copying.Figures``), so copies of the state share it."""
    intruded: dict[str, int] = field(default_factory=dict)
    """Units counted against the 9 of intrusions into a sector this phase (Move/Contact, A8):
    the friendly units present at the first intrusion plus every unit that took part."""
    fallen_back: dict[str, int] = field(default_factory=dict)
    """Units that fell back out of each disputed sector this phase (Fall Back: "F = the TOTAL
    number of units that Fall back", counted over every fall back from the sector, however
    many lines the player wrote)."""
    fallback: FallBackPending | None = None
    # -- combat and withdrawal
    combats: list[str] = field(default_factory=list)
    withdrawals: list[Withdrawal] = field(default_factory=list)
    first: str | None = None
    """The side whose figures withdraw first in the sector being settled."""
    strongest: str | None = None
    """The strongest side of the sector being settled (it decides the order and, where the
    priority list leaves a choice, the destination)."""
    # -- block 6: weather and reserves
    icons_used: int = 0
    """How many of the printed reserve icons after R15 have come into play (Phase 6.2)."""
    arriving: list[Key] = field(default_factory=list)
    """Reserves mounted this round and not placed yet (Phase 6.2: Allied; 6.3: German)."""
    above_rhine: int = 0
    held_above: Counter[Key] = field(default_factory=Counter)
    """German reserves that found no flag sector free of enemy troops (Phase 6.3) and arrive
    in the next 6.3: those that must go above the Rhine.  They are counted in ``waiting``."""
    held_free: Counter[Key] = field(default_factory=Counter)
    """The same, of the group that may be placed under the Rhine."""
    """How many of the German figures arriving (the first ones) must go above the Rhine."""
    control: dict[str, str] = field(default_factory=dict)
    """Bridge -> the side controlling it (Waterways; all German at the start)."""
    # -- phase 1: barrage fire (barrage.py)
    barrage_turn: str | None = None
    """The side to fire next in phase 1; None until the initiative roll."""
    barrage_fired: list[str] = field(default_factory=list)
    """Sectors whose battery has fired this phase 1 (A22: once per phase)."""
    barrage_over: list[str] = field(default_factory=list)
    """Sides that skipped a turn: their barrage fire phase has ended."""
    barrage_rolls: list[tuple[str, str, int]] = field(default_factory=list)
    """The last command's barrage, one entry per firing figure: its group, its HQ card's status
    when it fired (full for a group no HQ card tracks) and the hit dice it rolled without the
    disputed-sector bonus.  Emptied at the start of every command; the self-play invariant
    (``checks.barrage_supply``) reads it.  Not part of a position."""
    # -- jokers (jokers.py)
    jokers: dict[str, int] = field(default_factory=lambda: {"allied": 1, "german": 1})
    """Unused jokers each side holds (Jokers: one each; a side may hold more)."""
    jokers_off: bool = False
    """No jokers at all (Veterans Only, option 5)."""
    joker_sector: str | None = None
    """The sector whose figures gained the extra movement point this movement phase."""
    # -- block 2: airborne troops and supplies (airborne.py, supply.py)
    anti_aircraft: list[tuple[str, list[Key]]] = field(default_factory=list)
    """Sectors whose landed figures wait for anti-aircraft fire, with those figures in hit
    order (Anti-Aircraft Fire)."""
    box: int = 0
    """Supply tokens still in the box (the scenario's 29 at the opening)."""
    tokens: dict[str, int] = field(default_factory=dict)
    """Supply tokens lying on the map: sector -> count (Picking Up Supply Tokens)."""
    dropping: list[str] = field(default_factory=list)
    """Tokens of this round's drop not settled yet: the sector each fell on (Phase 2.2)."""
    hq: dict[str, int] = field(default_factory=dict)
    """Tokens on each airborne HQ card; a group has a card once it has landed."""
    status: dict[str, str] = field(default_factory=dict)
    """Each HQ's status: full, short (- D10 if no supplies) or flipped (- 2 D10)."""
    token_won: bool = False
    """The first falling token went to the Allies on the tie roll (its HQ card is next)."""
    contact: set[str] = field(default_factory=set)
    """Airborne groups that have made contact with operation GARDEN."""
    supplies_used: int = 0
    """Tokens removed from the game: distributed, taken by the Germans, or collected where
    no HQ keeps track of them."""
    result: dict[str, Any] | None = None
    # -- Veterans Only (options.py)
    options: frozenset[str] = frozenset()
    """The options of the log's header (Veterans Only 1-5)."""
    part: str | None = None
    nijmegen_reached: bool = False
    """Veterans/2: Allied tanks have reached the south end of the Nijmegen bridge or a sector
    next to it at least once ("before the first Allied tanks reach"); for good once true."""
    """Veterans/3, three players: whose part of the Allied movement phase it is (uk, us)."""
    # -- Phases 3.1-3.3 explosives (explosives.py)
    explosives: Explosives = field(default_factory=Explosives)
    destroyed: set[str] = field(default_factory=set)
    """Destroyed bridges (Phases 3.1-3.2; positions: ``setup: bridge NAME destroyed``): a
    Bailey bridge may be built across their border."""
    # -- Phase 3.4 Bailey bridges and the ferries (bailey.py, ferries.py)
    baileys: list[Bailey] = field(default_factory=list)
    engineers: list[Key] = field(default_factory=list)
    """The units on the engineer squares E01-E08, E01 first (Phase 3.4, Phase 6.2)."""
    recalled: bool = False
    """The arriving Allied reserves came from E01-E08 (the green die): those that cannot be
    placed go back there (A28), not to R1-R15."""
    ferries: dict[str, str] = field(default_factory=dict)
    """Ferry -> flipped | removed (Ferry); a ferry not named here is active."""
    # -- Veterans Only, option 4: bridge damage (damage.py)
    bridge_hits: dict[str, int] = field(default_factory=dict)
    """Hits each standing bridge of the map or open Bailey bridge has taken (absent: none);
    a Bailey bridge with 10 is destroyed (a bridge of the map goes to ``destroyed``)."""

    @property
    def night(self) -> bool:
        return self.round % 2 == 0

    @property
    def mover(self) -> str:
        return "allied" if self.phase.startswith("4") else "german"

    def copy(self) -> AState:
        """A copy sharing nothing changed in place (the replay keeps one before every line:
        ``copying.copier``; the fields most lines never read are copied on write)."""
        twin: AState = copier(AState)(self)
        return twin

    def take(self, other: AState) -> None:
        """Take over the fields of ``other`` (the copy a command worked on), which is not used
        afterwards: the two would share them."""
        self.__dict__ = other.__dict__

    def count(self, sector: str, side_groups: frozenset[str] | None = None) -> int:
        here = self.units.get(sector)
        if not here:
            return 0
        if side_groups is None:
            return sum(here.values())
        total = 0
        for (g, _), n in here.items():
            if g in side_groups:
                total += n
        return total

    def add(self, sector: str, key: Key, n: int = 1) -> None:
        """``n`` more figures of ``key`` in ``sector`` (a new count for the sector: the old
        one may be shared with a copy of the state, ``copying.Figures``)."""
        if n:
            units = self.units
            if type(units) is not Sectors:  # a copy's: noted from its first write on
                units = self.units = Sectors(units)
            here = units.get(sector)
            units[sector] = changed(here, key, (here.get(key, 0) if here else 0) + n)

    def remove(self, sector: str, key: Key, n: int = 1) -> None:
        """``n`` figures of ``key`` fewer in ``sector`` (a new count, as ``add``; an empty
        sector goes)."""
        units = self.units
        if type(units) is not Sectors:  # a copy's: noted from its first write on
            units = self.units = Sectors(units)
        here = units[sector]
        left = here.get(key, 0) - n
        assert left >= 0, (sector, key, n)
        rest = changed(here, key, left or None)
        if rest:
            units[sector] = rest
        else:
            del units[sector]
