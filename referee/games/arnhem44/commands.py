"""The Arnhem '44 commands, and how a parsed log line becomes one.

Figures have no identity: a command names counts of a kind and, for the Allies, a group
(``2 inf/82``, ``1 tank/UK``); German figures are written without a group (``2 inf``).  A
group left out on an Allied figure is filled in where only one group of that kind stands in
the sector.  ``str(command)`` is the canonical log text.
"""

from __future__ import annotations

from typing import Any, ClassVar

from lark import Token, Tree

from referee.core.errors import IllegalMove
from referee.core.records import frozen
from referee.games.arnhem44.board import (
    AIRBORNE_GROUPS,
    ALLIED_GROUPS,
    GERMAN_GROUP,
    KIND_ALIASES,
    Board,
    Key,
    key_text,
)

Groups = tuple[tuple[Key, int], ...]
"""Counts of figures: ((group, kind), count), in the order written.  Group "" = not named."""


def groups_text(groups: Groups) -> str:
    return ", ".join(f"{n} {key_text(k) if k[0] else k[1]}" for k, n in groups)


@frozen
class Cmd:
    chance: ClassVar[bool] = False


@frozen
class Deploy(Cmd):
    groups: Groups
    sector: str

    def __str__(self) -> str:
        return f"deploy {groups_text(self.groups)} {self.sector}"


@frozen
class ReserveOrder(Cmd):
    groups: Groups

    def __str__(self) -> str:
        return f"reserve-order {groups_text(self.groups)}"


@frozen
class EndSetup(Cmd):
    def __str__(self) -> str:
        return "end setup"


@frozen
class Move(Cmd):
    groups: Groups
    path: tuple[str, ...]

    def __str__(self) -> str:
        return f"move {groups_text(self.groups)} {'->'.join(self.path)}"


@frozen
class Invade(Cmd):
    target: str
    parts: tuple[tuple[str, Groups], ...]
    joker: bool = False
    """Reroll the first 0 of the intruders' hit dice with the joker (Jokers)."""

    def __str__(self) -> str:
        sources = " ".join(f"from {f}: {groups_text(g)}" for f, g in self.parts)
        return f"invade {self.target} {sources}" + (" joker" if self.joker else "")


@frozen
class FallBack(Cmd):
    groups: Groups
    start: str
    dest: str
    joker: bool = False
    """Reroll the first 0 of the mover's spotting or hit dice with the joker (Jokers)."""

    def __str__(self) -> str:
        return (f"fall-back {groups_text(self.groups)} {self.start}->{self.dest}"
                + (" joker" if self.joker else ""))


@frozen
class Support(Cmd):
    groups: Groups
    joker: bool = False
    """Reroll the first 0 of the mover's hit dice with the joker (Jokers)."""

    def __str__(self) -> str:
        text = f"support {groups_text(self.groups)}" if self.groups else "no support"
        return text + (" joker" if self.joker else "")


@frozen
class EndMovement(Cmd):
    def __str__(self) -> str:
        return "end movement"


@frozen
class CombatRoll(Cmd):
    chance: ClassVar[bool] = True
    sector: str
    jokers: tuple[str, ...] = ()
    """The players who counter a 0 of their own side's hit dice with their joker (Jokers)."""

    def __str__(self) -> str:
        return f"combat {self.sector}" + "".join(f" joker {p}" for p in self.jokers)


@frozen
class First(Cmd):
    side: str

    def __str__(self) -> str:
        return f"first {self.side}"


@frozen
class WithdrawOrder(Cmd):
    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "withdraw-order"


@frozen
class Withdraw(Cmd):
    groups: Groups
    start: str
    dest: str

    def __str__(self) -> str:
        return f"withdraw {groups_text(self.groups)} {self.start}->{self.dest}"


@frozen
class WeatherRoll(Cmd):
    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "weather"


@frozen
class ReserveRoll(Cmd):
    die: str = "black"

    def __str__(self) -> str:
        return f"reserves {self.die}"


@frozen
class Enter(Cmd):
    groups: Groups
    sector: str

    def __str__(self) -> str:
        return f"enter {groups_text(self.groups)} {self.sector}"


@frozen
class Reinforce(Cmd):
    groups: Groups
    sector: str

    def __str__(self) -> str:
        return f"reinforce {groups_text(self.groups)} {self.sector}"


@frozen
class Initiative(Cmd):
    """Phase 1: both players roll one d10; the higher starts the barrage fire."""

    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "initiative"


@frozen
class LandingRoll(Cmd):
    """Phase 2.1: one die per landing unit, in schedule order, artillery last."""

    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "landing"


@frozen
class Barrage(Cmd):
    """Phase 1: one sector's battery fires, perhaps split between targets (Barrage Fire)."""

    shots: tuple[tuple[Groups, str, str], ...]
    """(figures, from, target) in the order written."""
    joker: bool = False
    """Reroll the first 0 of the hit dice with the joker (Jokers)."""

    def __str__(self) -> str:
        text = ", ".join(f"{groups_text(g)} {a}->{b}" for g, a, b in self.shots)
        return f"barrage {text}" + (" joker" if self.joker else "")


@frozen
class NoBarrage(Cmd):
    """Phase 1: skipping a turn ends one's barrage fire phase."""

    def __str__(self) -> str:
        return "no barrage"


@frozen
class JokerMove(Cmd):
    """Jokers: all units of one sector gain an extra movement point."""

    sector: str

    def __str__(self) -> str:
        return f"joker move {self.sector}"


@frozen
class AntiAircraft(Cmd):
    """Anti-Aircraft Fire: the German units' dice in one sector where airborne units landed."""

    chance: ClassVar[bool] = True
    sector: str

    def __str__(self) -> str:
        return f"anti-aircraft {self.sector}"


@frozen
class SupplyDropRoll(Cmd):
    """Phase 2.2: one die per dropped supply token."""

    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "supply-drop"


@frozen
class TokenRoll(Cmd):
    """Picking Up Supply Tokens: the tie roll for a token in enemy territory (Allied die,
    German die; again while equal)."""

    chance: ClassVar[bool] = True
    sector: str

    def __str__(self) -> str:
        return f"token {self.sector}"


@frozen
class Collect(Cmd):
    """Picking Up Supply Tokens: the airborne group whose HQ card takes a collected token."""

    group: str

    def __str__(self) -> str:
        return f"collect {self.group}"


@frozen
class Rig(Cmd):
    """Phase 3.3 (and the German set-up): a crate under a bridge, face down (``value`` and
    ``commitment`` ``None``), shown (``value``) or committed (play by e-mail: ``commitment``,
    docs/pbem.md "Hidden values")."""

    bridge: str
    value: int | None = None
    commitment: str | None = None

    def __str__(self) -> str:
        if self.commitment is not None:
            return f"rig {self.bridge} hidden {self.commitment}"
        return f"rig {self.bridge}" + (f" {self.value}" if self.value is not None else "")

    @property
    def conceal_value(self) -> int | None:
        """The value a committed game writes as a commitment instead (referee.core.hidden)."""
        return self.value

    def concealed(self, commitment: str) -> Rig:
        return Rig(self.bridge, None, commitment)


@frozen
class Swap(Cmd):
    """Explosives in General: a 7, 6 or 5 from the stash exchanged for a 4."""

    value: int

    def __str__(self) -> str:
        return f"swap {self.value}"


@frozen
class Defuse(Cmd):
    """Phase 3.1: an attempt on one crate (by its number; the first untried one when left
    out)."""

    bridge: str
    crate: int | None = None
    joker: bool = False
    """Reroll the die with the joker if it shows a 0 (Jokers, Ten-Sided Dice)."""

    def __str__(self) -> str:
        return (f"defuse {self.bridge}" + (f" crate {self.crate}" if self.crate else "")
                + (" joker" if self.joker else ""))


@frozen
class Detonate(Cmd):
    """Phase 3.2: an attempt to blow up a bridge with one of its crates."""

    bridge: str
    crate: int | None = None
    joker: bool = False
    """Reroll the die with the joker if it shows a 0 (Jokers, Ten-Sided Dice)."""

    def __str__(self) -> str:
        return (f"detonate {self.bridge}" + (f" crate {self.crate}" if self.crate else "")
                + (" joker" if self.joker else ""))


@frozen
class Reveal(Cmd):
    """The German shows the value of the face-down crate a roll just used."""

    value: int
    statement: ClassVar[bool] = True
    """Also a statement: the value of a crate whose roll failed whatever it held, shown on
    the next line although nobody asked for it (``Engine.confirm``; the reading of a value
    shown, docs/arnhem44-interpretations.md)."""

    def __str__(self) -> str:
        return f"reveal {self.value}"


@frozen
class StartBailey(Cmd):
    """Phase 3.4: start a Bailey bridge across start->across with a crew from ``start``."""

    size: str
    groups: Groups
    start: str
    across: str

    def __str__(self) -> str:
        return f"bailey {self.size} {groups_text(self.groups)} {self.start}->{self.across}"


@frozen
class Build(Cmd):
    """Phase 3.4, The Assembly of a Bridge: the round's d10 for one Bailey bridge."""

    chance: ClassVar[bool] = True
    bridge: str

    def __str__(self) -> str:
        return f"build {self.bridge}"


@frozen
class Pass(Cmd):
    """Nothing more in an optional step (Phase 3.4: start no further Bailey bridge)."""

    def __str__(self) -> str:
        return "pass"


@frozen
class Resign(Cmd):
    def __str__(self) -> str:
        return "resign"


Command = (Deploy | ReserveOrder | EndSetup | Move | Invade | FallBack | Support | EndMovement
           | CombatRoll | First | WithdrawOrder | Withdraw | WeatherRoll | ReserveRoll | Enter
           | Reinforce | Initiative | Barrage | NoBarrage | JokerMove | LandingRoll | AntiAircraft
           | SupplyDropRoll | TokenRoll | Collect | Resign | Rig | Swap | Defuse
           | Detonate | Reveal | Pass | StartBailey | Build)


def airborne_group(word: Any) -> str:
    """An airborne group's name: 1AB, PL, 82 or 101 (Phase 2.3: the four HQ cards)."""
    wanted = str(word).casefold()
    match = [g for g in AIRBORNE_GROUPS if g.casefold() == wanted]
    if not match:
        column = getattr(word, "column", None)
        raise IllegalMove("Phase 2.3", f"'{word}' is not an airborne group: "
                          + ", ".join(AIRBORNE_GROUPS),
                          column=column if isinstance(column, int) else None)
    return match[0]


def _words(tree: Tree[Any]) -> str:
    return " ".join(map(str, tree.children))


_GROUP_NAMES: dict[str, str] = {}
"""Each group's name by its case-folded spelling (the first group of that spelling)."""
for _name in (*ALLIED_GROUPS, GERMAN_GROUP):
    _GROUP_NAMES.setdefault(_name.casefold(), _name)


def _group(board: Board, tree: Tree[Any]) -> tuple[Key, int]:
    count_token, word = tree.children
    where, column = getattr(count_token, "column", None), getattr(word, "column", None)
    return figures(str(count_token), where if isinstance(where, int) else None, str(word),
                   column if isinstance(column, int) else None)


def figures(count_text: str, count_column: int | None, text: str,
            column: int | None) -> tuple[Key, int]:
    """``group: FACE WORD`` (``2 inf/82``), from the two words and their columns: the
    figures' key and count.  (``quickline`` makes a command from a line's words too.)"""
    count = int(count_text)
    kind_text, _, group_text = text.partition("/")
    kind = KIND_ALIASES.get(kind_text.casefold())
    if kind is None:
        raise IllegalMove("The Units", f"'{kind_text}' is not a kind of figure: inf, tank or art",
                          column=column)
    group = ""
    if group_text:
        named = _GROUP_NAMES.get(group_text.casefold())
        if named is None:
            raise IllegalMove(
                "The Units", f"'{group_text}' is not a group: UK, US, 1AB, PL, 82, 101 (German "
                "figures have none)", column=column)
        group = named
    if not 1 <= count <= 99:
        raise IllegalMove("The Units", f"a count of figures is 1 to 99, not {count}",
                          column=count_column)
    return (group, kind), count


def _groups(board: Board, tree: Tree[Any]) -> Groups:
    return tuple(_group(board, g) for g in tree.children)


def _sector(board: Board, tree: Tree[Any]) -> str:
    first = tree.children[0]
    column = first.column if isinstance(first, Token) else None
    return board.sectors.lookup(_words(tree), column=column)


def _jokers_by(children: list[Any]) -> tuple[str, ...]:
    """The players named by the combat line's joker clauses (``joker german``), once each."""
    out: list[str] = []
    for child in children:
        player = str(child.children[0]).casefold()
        if player in out:
            raise IllegalMove("Jokers", f"{player} names his joker twice: a player can use a "
                              "joker but once")
        out.append(player)
    return tuple(out)


def _joker(children: list[Any]) -> bool:
    """Whether the command ends with the joker clause (Jokers: "… joker")."""
    return any(isinstance(c, Tree) and c.data == "joker" for c in children)


def build(board: Board, tree: Tree[Any]) -> Command:
    kind = tree.data
    ch = tree.children
    if kind == "deploy":
        return Deploy(_groups(board, ch[0]), _sector(board, ch[1]))
    if kind == "reserve_order":
        return ReserveOrder(_groups(board, ch[0]))
    if kind == "end_setup":
        return EndSetup()
    if kind == "end_movement":
        return EndMovement()
    if kind == "move":
        path = tuple(_sector(board, w) for w in ch[1].children if isinstance(w, Tree))
        if len(path) < 2:
            raise IllegalMove("Move/Outside", "a move names where the figures start and each "
                              "sector they enter: move 2 tank/UK Valkenswaard->Eindhoven")
        return Move(_groups(board, ch[0]), path)
    if kind == "invade":
        target = _sector(board, ch[0])
        parts = tuple((_sector(board, s.children[0]), _groups(board, s.children[1]))
                      for s in ch[1:] if isinstance(s, Tree) and s.data == "source")
        return Invade(target, parts, _joker(ch))
    if kind == "fall_back":
        return FallBack(_groups(board, ch[0]), _sector(board, ch[1]), _sector(board, ch[3]),
                        _joker(ch))
    if kind == "withdraw":
        return Withdraw(_groups(board, ch[0]), _sector(board, ch[1]), _sector(board, ch[-1]))
    if kind == "support":
        return Support(_groups(board, ch[0]), _joker(ch))
    if kind == "no_support":
        return Support((), _joker(ch))
    if kind == "combat":
        return CombatRoll(_sector(board, ch[0]), _jokers_by(ch[1:]))
    if kind == "first":
        side = str(ch[0]).casefold()
        if side not in ("allied", "german"):
            raise IllegalMove("RoE/Withdrawal", f"'first' names a side: allied or german, not "
                              f"'{ch[0]}'")
        return First(side)
    if kind == "withdraw_order":
        return WithdrawOrder()
    if kind == "resign":
        return Resign()
    if kind == "weather":
        return WeatherRoll()
    if kind == "reserves":
        die = str(ch[0]).casefold() if ch and ch[0] is not None else "black"
        if die not in ("black", "green"):
            raise IllegalMove("Phase 6.2", f"the Allied player rolls the black or the green "
                              f"die, not '{ch[0]}'")
        return ReserveRoll(die)
    if kind == "landing":
        return LandingRoll()
    if kind == "anti_aircraft":
        return AntiAircraft(_sector(board, ch[0]))
    if kind == "supply_drop":
        return SupplyDropRoll()
    if kind == "token":
        return TokenRoll(_sector(board, ch[0]))
    if kind == "collect":
        return Collect(airborne_group(ch[0]))
    if kind in ("enter", "reinforce"):
        cls2 = Enter if kind == "enter" else Reinforce
        return cls2(_groups(board, ch[0]), _sector(board, ch[1]))
    if kind == "initiative":
        return Initiative()
    if kind == "barrage":
        shots = tuple((_groups(board, shot.children[0]), _sector(board, shot.children[1]),
                       _sector(board, shot.children[3]))
                      for shot in ch if isinstance(shot, Tree) and shot.data == "shot")
        return Barrage(shots, _joker(ch))
    if kind == "no_barrage":
        return NoBarrage()
    if kind == "joker_move":
        return JokerMove(_sector(board, ch[0]))
    if kind == "no_joker":
        raise IllegalMove("Jokers", "a joker is written on the line of the roll it counters "
                          "('... joker'); without the word the joker is kept, so there is no "
                          "'no joker' to write")
    if kind in ("rig", "swap", "defuse", "detonate", "reveal", "pass_"):
        return _explosive(board, kind, ch)
    if kind == "bailey":
        size = str(ch[0]).casefold()
        if size not in ("small", "large"):
            raise IllegalMove("Phase 3.4", f"a Bailey bridge is small or large, not '{ch[0]}'")
        return StartBailey(size, _groups(board, ch[1]), _sector(board, ch[2]),
                           _sector(board, ch[-1]))
    if kind == "build":
        return Build(str(ch[0]))
    raise AssertionError(f"unknown command {kind}")


def _bridge(board: Board, token: Any) -> str:
    column = token.column if isinstance(token, Token) else None
    return board.bridge_names.lookup(str(token), column=column)


def _explosive(board: Board, kind: str, ch: list[Any]) -> Command:
    """The explosives' commands (Phases 3.1-3.3, Explosives in General)."""
    if kind == "pass_":
        return Pass()
    if kind in ("swap", "reveal"):
        value = int(str(ch[0]))
        if not 0 <= value <= 9:
            raise IllegalMove("Explosives in General", f"a crate's value is a digit, not {value}")
        return Swap(value) if kind == "swap" else Reveal(value)
    bridge = _bridge(board, ch[0])
    if kind == "rig":
        extra = ch[1] if len(ch) > 1 else None
        if extra is None:
            return Rig(bridge)
        if isinstance(extra, Token) and extra.type == "FACE":
            value = int(str(extra))
            if not 1 <= value <= 9:
                raise IllegalMove("Explosives in General", f"a crate's value is 1 to 9, not "
                                  f"{value}")
            return Rig(bridge, value)
        return Rig(bridge, None, str(extra).casefold())
    number = int(str(ch[1])) if len(ch) > 1 and isinstance(ch[1], Token) else None
    joker = _joker(ch)
    return (Defuse(bridge, number, joker) if kind == "defuse"
            else Detonate(bridge, number, joker))
