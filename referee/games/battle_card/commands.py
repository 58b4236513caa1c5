"""The Battle Card commands, and how a parsed log line becomes one."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

from lark import Token, Tree

from referee.core.errors import IllegalMove
from referee.core.names import NameIndex, split_leading_name


@dataclass(frozen=True, slots=True)
class Airdrop:
    """Airborne Landing at setup: the referee rolls one d6 per Allied unit."""

    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "airdrop"


@dataclass(frozen=True, slots=True)
class Fight:
    """Turn step 1: attack or defend in a city that holds both sides."""

    city: str
    attack: bool
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return f"{'attack' if self.attack else 'defend'} {self.city}"


@dataclass(frozen=True, slots=True)
class Move:
    """Turn step 3: 30th Corps or one Allied unit to an adjacent location."""

    unit: str
    origin: str | None
    destination: str
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        origin = self.origin or ""
        return (
            f"move {self.unit} {origin}->{self.destination}"
            if origin
            else (f"move {self.unit} {self.destination}")
        )


@dataclass(frozen=True, slots=True)
class Pass:
    """Turn step 3 without a move."""

    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Landing:
    """Turn step 4: the referee rolls the airborne landing die."""

    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "landing"


Command = Airdrop | Fight | Move | Pass | Landing

# The commands legal() offers are made once and shared: self-play asks for them constantly.
AIRDROP, LANDING, PASS = Airdrop(), Landing(), Pass()


@cache
def fight(city: str, attack: bool) -> Fight:
    return Fight(city, attack)


@cache
def move(unit: str, origin: str, destination: str) -> Move:
    return Move(unit, origin, destination)


def _words(tree: Tree[Any]) -> tuple[list[str], int]:
    tokens = [t for t in tree.children if isinstance(t, Token)]
    return [str(t) for t in tokens], int(tokens[0].column or 1) if tokens else 1


def _column_of_rest(tree: Tree[Any], rest: list[str]) -> int:
    """The column of the first of the trailing words ``rest`` of a ``words`` subtree."""
    tokens = [t for t in tree.children if isinstance(t, Token)]
    if not rest or len(rest) > len(tokens):
        return int(tokens[0].column or 1) if tokens else 1
    return int(tokens[len(tokens) - len(rest)].column or 1)


def build(tree: Tree[Any], places: NameIndex[str], units: NameIndex[str]) -> Command:
    """The command of one parsed ``command`` subtree, its names resolved."""
    kind = tree.data
    if kind in ("attack", "defend"):
        (words_tree,) = tree.children
        assert isinstance(words_tree, Tree)
        words, column = _words(words_tree)
        return Fight(places.lookup(" ".join(words), column=column), kind == "attack")
    if kind == "move":
        (path,) = tree.children
        assert isinstance(path, Tree)
        groups = [c for c in path.children if isinstance(c, Tree)]
        first, column = _words(groups[0])
        unit, rest = split_leading_name(first, units, column=column)
        if len(groups) > 2:
            raise IllegalMove(
                "Turn step 3",
                "a move goes to one adjacent location: write 'move UNIT FROM->TO'",
                column=column,
            )
        rest_column = _column_of_rest(groups[0], rest)
        if len(groups) == 2:
            origin = places.lookup(" ".join(rest), column=rest_column) if rest else None
            words, dest_column = _words(groups[1])
            return Move(unit, origin, places.lookup(" ".join(words), column=dest_column))
        if not rest:
            raise IllegalMove("Turn step 3", f"say where {unit} moves: 'move {unit} TO'",
                              column=column)
        return Move(unit, None, places.lookup(" ".join(rest), column=rest_column))
    if kind == "pass_":
        return Pass()
    if kind == "airdrop":
        return Airdrop()
    if kind == "landing":
        return Landing()
    raise AssertionError(f"the Battle Card grammar produced an unknown command {kind!r}")
