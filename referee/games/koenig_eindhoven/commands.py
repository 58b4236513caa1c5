"""The Eindhoven Bridge commands, and how a parsed log line becomes one.

Commands hold ids (units, hexes, road letters); ``str(command)`` is the canonical log text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from lark import Token, Tree

from referee.core.errors import IllegalMove
from referee.core.names import split_leading_name
from referee.games.koenig_eindhoven.board import Board
from referee.games.koenig_eindhoven.state import OFF


@dataclass(frozen=True, slots=True)
class Landing:
    """5.0 / Exclusive 5.0: the Paratroop Landing roll for one arriving Allied reinforcement."""

    unit: str
    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return f"landing {self.unit}"


@dataclass(frozen=True, slots=True)
class SupportRoll:
    """6.1 (``artillery``) or 6.2 (``allied-support``): the points of this day turn."""

    kind: str
    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return self.kind


@dataclass(frozen=True, slots=True)
class Draw:
    """7.0: one HQ drawn blindly from the Command Cup."""

    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "draw"


@dataclass(frozen=True, slots=True)
class Move:
    """A unit's movement: a Movement Operation (``move``, 8.0), the movement half of a Combined
    Operation (``combined``, 8.4) or a night redeployment (``redeploy``, 4.0).

    ``start`` is where the log says the unit starts: its hex (an assertion checked against the
    state) or, for a reinforcement, the letter of the road it enters by (Exclusive 8.5).
    """

    verb: str
    unit: str
    path: tuple[str, ...]
    start: str | None = None
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        text = f"{self.verb} {self.unit}"
        if self.start is not None:
            text += " " + self.start
            return text + "".join("->" + p for p in self.path)
        return text + "->" + "->".join(self.path)


@dataclass(frozen=True, slots=True)
class Fire:
    """A Full Fire (``full-fire``) or Mobile Fire (``mobile-fire``) attack on a hex (9.0)."""

    verb: str
    target: str
    units: tuple[str, ...]
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return f"{self.verb} {self.target} with {', '.join(self.units)}"


@dataclass(frozen=True, slots=True)
class End:
    """7.2: the active formation's activation ends (or, at night, the redeployment, 4.0)."""

    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Support:
    """9.0 Defensive / Offensive Support: the points a side commits to the battle."""

    points: int
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return f"support {self.points}" if self.points else "support none"


@dataclass(frozen=True, slots=True)
class Roll:
    """9.0 Combat Resolution: the attacker's die, after both support decisions."""

    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class HitUnit:
    """9.2.2: the unit of a side that takes that side's Hit (the active player chooses)."""

    unit: str
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return f"hit {self.unit}"


@dataclass(frozen=True, slots=True)
class Retreat:
    """9.2.3, 11.0: a hit unit retreats to an adjacent hex, or ``off`` the map (11.1)."""

    unit: str
    to: str
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return f"retreat {self.unit}->{self.to}"


@dataclass(frozen=True, slots=True)
class Stay:
    """9.2.3: a unit hit by Full or Mobile Fire stays where it is."""

    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return "stay"


@dataclass(frozen=True, slots=True)
class Round:
    """10.0: one round of Close Combat, its defensive die and, if that missed, its offensive
    die (the referee's)."""

    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "round"


@dataclass(frozen=True, slots=True)
class Capture:
    """11.2 Capture!: the undamaged attacker takes a second Hit instead of retreating."""

    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return "capture"


Command = (Round | Capture | Landing | SupportRoll | Draw | Move | Fire | End | Support | Roll
           | HitUnit
           | Retreat | Stay)

ROADS = ("A", "B", "C", "D", "E", "F")


def _tokens(tree: Tree[Any]) -> list[Token]:
    return [t for t in tree.children if isinstance(t, Token)]


def _hex(board: Board, tree: Tree[Any], *, road: bool = False, off: bool = False) -> str:
    tokens = _tokens(tree)
    text = " ".join(tokens)
    if road and text.upper() in ROADS:
        return text.upper()
    if off and text.casefold() == OFF:
        return OFF  # refused by the move (8.1.1), but read
    found = board.place(text)
    if found is None:
        from referee.core.errors import UnknownName

        raise UnknownName("hex", text, _suggest(board, text),
                          column=tokens[0].column if tokens else None)
    return found


def _suggest(board: Board, text: str) -> list[str]:
    import difflib

    return difflib.get_close_matches(text, list(board.places), n=3, cutoff=0.6)


def _move(board: Board, verb: str, tree: Tree[Any]) -> Move:
    groups = tree.children[::2]  # path: words (ARROW words)*
    first = _tokens(groups[0])
    words = [str(t) for t in first]
    unit, rest = split_leading_name(words, board.unit_index(), column=first[0].column)
    start = None
    if rest:
        text = " ".join(rest)
        if text.upper() in ROADS:
            start = text.upper()
        else:
            found = board.place(text)
            if found is None:
                from referee.core.errors import UnknownName

                column = first[len(first) - len(rest)].column
                raise UnknownName("hex", text, _suggest(board, text), column=column)
            start = found
    path = tuple(_hex(board, g, off=True) for g in groups[1:])
    if not path:
        raise IllegalMove("8.0", f"write the hexes {unit} enters: '{verb} {unit} FROM->HEX->HEX'")
    return Move(verb, unit, path, start)


def build(board: Board, tree: Tree[Any]) -> Command:
    """The command of one parsed ``command`` subtree, its names resolved."""
    kind = str(tree.data)
    if kind in ("move", "combined", "redeploy"):
        (child,) = [c for c in tree.children if isinstance(c, Tree)]
        return _move(board, kind, child)
    if kind in ("full_fire", "mobile_fire"):
        target_tree, *unit_trees = [c for c in tree.children if isinstance(c, Tree)]
        target = _hex(board, target_tree)
        units: list[str] = []
        for child in unit_trees:
            tokens = _tokens(child)
            units.append(board.unit_index().lookup(" ".join(tokens), column=tokens[0].column))
        return Fire(kind.replace("_", "-"), target, tuple(units))
    if kind == "end":
        return End()
    if kind == "support":
        faces = [t for t in tree.children if isinstance(t, Token) and t.type == "FACE"]
        return Support(int(faces[0]) if faces else 0)
    if kind == "roll":
        return Roll()
    if kind == "stay":
        return Stay()
    if kind == "round_":
        return Round()
    if kind == "capture":
        return Capture()
    if kind == "hit":
        (child,) = [c for c in tree.children if isinstance(c, Tree)]
        tokens = _tokens(child)
        return HitUnit(board.unit_index().lookup(" ".join(tokens), column=tokens[0].column))
    if kind == "retreat":
        (path_tree,) = [c for c in tree.children if isinstance(c, Tree)]
        groups = [c for c in path_tree.children if isinstance(c, Tree)]
        first = _tokens(groups[0])
        unit = board.unit_index().lookup(" ".join(first), column=first[0].column)
        if len(groups) != 2:
            raise IllegalMove("11.0", "write a retreat as 'retreat UNIT->HEX' (or UNIT->off)")
        last = " ".join(_tokens(groups[1]))
        return Retreat(unit, OFF if last.casefold() == OFF else _hex(board, groups[1]))
    if kind == "draw":
        return Draw()
    if kind in ("artillery", "allied_support"):
        return SupportRoll(kind.replace("_", "-"))
    if kind == "landing":
        (child,) = [c for c in tree.children if isinstance(c, Tree)]
        tokens = _tokens(child)
        return Landing(board.unit_index().lookup(" ".join(tokens), column=tokens[0].column))
    raise AssertionError(f"the koenig-eindhoven grammar produced an unknown command {kind!r}")
