"""The Arnhem '44 commands, and how a parsed log line becomes one.

Figures have no identity: a command names counts of a kind and, for the Allies, a group
(``2 inf/82``, ``1 tank/UK``); German figures are written without a group (``2 inf``).  A
group left out on an Allied figure is filled in where only one group of that kind stands in
the sector.  ``str(command)`` is the canonical log text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from lark import Token, Tree

from referee.core.errors import IllegalMove, NotImplementedRule
from referee.games.arnhem44.board import (
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


@dataclass(frozen=True)
class Cmd:
    chance: ClassVar[bool] = False


@dataclass(frozen=True)
class Deploy(Cmd):
    groups: Groups
    sector: str

    def __str__(self) -> str:
        return f"deploy {groups_text(self.groups)} {self.sector}"


@dataclass(frozen=True)
class ReserveOrder(Cmd):
    groups: Groups

    def __str__(self) -> str:
        return f"reserve-order {groups_text(self.groups)}"


@dataclass(frozen=True)
class EndSetup(Cmd):
    def __str__(self) -> str:
        return "end setup"


@dataclass(frozen=True)
class Move(Cmd):
    groups: Groups
    path: tuple[str, ...]

    def __str__(self) -> str:
        return f"move {groups_text(self.groups)} {'->'.join(self.path)}"


@dataclass(frozen=True)
class Invade(Cmd):
    target: str
    parts: tuple[tuple[str, Groups], ...]

    def __str__(self) -> str:
        sources = " ".join(f"from {f}: {groups_text(g)}" for f, g in self.parts)
        return f"invade {self.target} {sources}"


@dataclass(frozen=True)
class FallBack(Cmd):
    groups: Groups
    start: str
    dest: str

    def __str__(self) -> str:
        return f"fall-back {groups_text(self.groups)} {self.start}->{self.dest}"


@dataclass(frozen=True)
class Support(Cmd):
    groups: Groups

    def __str__(self) -> str:
        return f"support {groups_text(self.groups)}" if self.groups else "no support"


@dataclass(frozen=True)
class EndMovement(Cmd):
    def __str__(self) -> str:
        return "end movement"


@dataclass(frozen=True)
class CombatRoll(Cmd):
    chance: ClassVar[bool] = True
    sector: str

    def __str__(self) -> str:
        return f"combat {self.sector}"


@dataclass(frozen=True)
class First(Cmd):
    side: str

    def __str__(self) -> str:
        return f"first {self.side}"


@dataclass(frozen=True)
class WithdrawOrder(Cmd):
    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "withdraw-order"


@dataclass(frozen=True)
class Withdraw(Cmd):
    groups: Groups
    start: str
    dest: str

    def __str__(self) -> str:
        return f"withdraw {groups_text(self.groups)} {self.start}->{self.dest}"


@dataclass(frozen=True)
class WeatherRoll(Cmd):
    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "weather"


@dataclass(frozen=True)
class ReserveRoll(Cmd):
    die: str = "black"

    def __str__(self) -> str:
        return f"reserves {self.die}"


@dataclass(frozen=True)
class Enter(Cmd):
    groups: Groups
    sector: str

    def __str__(self) -> str:
        return f"enter {groups_text(self.groups)} {self.sector}"


@dataclass(frozen=True)
class Reinforce(Cmd):
    groups: Groups
    sector: str

    def __str__(self) -> str:
        return f"reinforce {groups_text(self.groups)} {self.sector}"


@dataclass(frozen=True)
class StartBailey(Cmd):
    """Phase 3.4: start a Bailey bridge across start->across with a crew from ``start``."""

    size: str
    groups: Groups
    start: str
    across: str

    def __str__(self) -> str:
        return f"bailey {self.size} {groups_text(self.groups)} {self.start}->{self.across}"


@dataclass(frozen=True)
class Build(Cmd):
    """Phase 3.4, The Assembly of a Bridge: the round's d10 for one Bailey bridge."""

    chance: ClassVar[bool] = True
    bridge: str

    def __str__(self) -> str:
        return f"build {self.bridge}"


@dataclass(frozen=True)
class Pass(Cmd):
    """Nothing more in an optional step (Phase 3.4: start no further Bailey bridge)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True)
class Resign(Cmd):
    def __str__(self) -> str:
        return "resign"


@dataclass(frozen=True)
class Unimplemented(Cmd):
    """A command of a rule the referee does not referee yet (the next Arnhem '44 issue)."""

    keyword: str
    text: str

    def __str__(self) -> str:
        return self.text


Command = (Deploy | ReserveOrder | EndSetup | Move | Invade | FallBack | Support | EndMovement
           | CombatRoll | First | WithdrawOrder | Withdraw | WeatherRoll | ReserveRoll | Enter
           | Reinforce | Resign | Unimplemented | StartBailey | Build | Pass)

UNIMPLEMENTED: dict[str, tuple[str, str]] = {
    "barrage": ("Phase 1", "barrage fire"),
    "no barrage": ("Phase 1", "barrage fire"),
    "initiative": ("Phase 1", "the barrage initiative roll"),
    "landing": ("Phase 2.1", "airborne landings"),
    "anti-aircraft": ("Airborne/Anti-Aircraft Fire", "anti-aircraft fire"),
    "supply-drop": ("Phase 2.2", "supply drops"),
    "token": ("Supplies", "supply tokens"),
    "defuse": ("Phase 3.1", "defusing explosive charges"),
    "detonate": ("Phase 3.2", "blowing up bridges"),
    "rig": ("Phase 3.3", "installing explosive charges"),
    "swap": ("Explosives in General", "exchanging crates"),
    "joker": ("Jokers", "jokers"),
    "no joker": ("Jokers", "jokers"),
}


def not_implemented(command: Unimplemented) -> NotImplementedRule:
    rule, what = UNIMPLEMENTED[command.keyword]
    return NotImplementedRule(
        rule, f"{what} ({rule}) is not refereed yet: the referee cannot apply "
        f"'{command.keyword}' (the next Arnhem '44 issue builds it)",
    )


def _words(tree: Tree[Any]) -> str:
    return " ".join(str(t) for t in tree.children)


def _group(board: Board, tree: Tree[Any]) -> tuple[Key, int]:
    count_token, word = tree.children
    count = int(str(count_token))
    text = str(word)
    kind_text, _, group_text = text.partition("/")
    kind = KIND_ALIASES.get(kind_text.casefold())
    column = getattr(word, "column", None)
    if kind is None:
        raise IllegalMove("The Units", f"'{kind_text}' is not a kind of figure: inf, tank or art",
                          column=column if isinstance(column, int) else None)
    group = ""
    if group_text:
        wanted = group_text.casefold()
        match = [g for g in (*ALLIED_GROUPS, GERMAN_GROUP) if g.casefold() == wanted]
        if not match:
            raise IllegalMove(
                "The Units", f"'{group_text}' is not a group: UK, US, 1AB, PL, 82, 101 (German "
                "figures have none)", column=column if isinstance(column, int) else None)
        group = match[0]
    if not 1 <= count <= 99:
        where = getattr(count_token, "column", None)
        raise IllegalMove("The Units", f"a count of figures is 1 to 99, not {count}",
                          column=where if isinstance(where, int) else None)
    return (group, kind), count


def _groups(board: Board, tree: Tree[Any]) -> Groups:
    return tuple(_group(board, g) for g in tree.children)


def _sector(board: Board, tree: Tree[Any]) -> str:
    first = tree.children[0]
    column = first.column if isinstance(first, Token) else None
    return board.sectors.lookup(_words(tree), column=column)


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
                      for s in ch[1:])
        return Invade(target, parts)
    if kind in ("fall_back", "withdraw"):
        cls = FallBack if kind == "fall_back" else Withdraw
        return cls(_groups(board, ch[0]), _sector(board, ch[1]), _sector(board, ch[-1]))
    if kind == "support":
        return Support(_groups(board, ch[0]))
    if kind == "no_support":
        return Support(())
    if kind == "combat":
        return CombatRoll(_sector(board, ch[0]))
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
    if kind in ("enter", "reinforce"):
        cls2 = Enter if kind == "enter" else Reinforce
        return cls2(_groups(board, ch[0]), _sector(board, ch[1]))
    if kind == "bailey":
        size = str(ch[0]).casefold()
        if size not in ("small", "large"):
            raise IllegalMove("Phase 3.4", f"a Bailey bridge is small or large, not '{ch[0]}'")
        return StartBailey(size, _groups(board, ch[1]), _sector(board, ch[2]),
                           _sector(board, ch[-1]))
    if kind == "build":
        return Build(str(ch[0]))
    if kind == "pass_":
        return Pass()
    if kind in ("unimplemented", "unimplemented_no"):
        keyword = str(ch[0]).casefold()
        text = " ".join([str(ch[0])] + [str(t) for r in ch[1:] if isinstance(r, Tree)
                                          for t in r.children])
        if kind == "unimplemented_no":
            keyword, text = "no " + keyword, "no " + text
        return Unimplemented(keyword, text)
    raise AssertionError(f"unknown command {kind}")
