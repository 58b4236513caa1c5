"""The WWII Commander commands, and how a parsed log line becomes one.

Commands hold ids (units, spaces, boxes); ``str(command)`` is the canonical log text, written
with the places' printed names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from lark import Token, Tree

from referee.core.errors import IllegalMove
from referee.core.names import split_leading_name
from referee.games.wwiic.board import Board

LABELS: dict[str, str] = {}
"""Printed names of places, filled when a board is built (``register_labels``)."""


def register_labels(board: Board) -> None:
    LABELS.update({place: board.log_name(place) for place in board.label})


def _label(place: str) -> str:
    return LABELS.get(place, place)


@dataclass(frozen=True, slots=True)
class UnitMove:
    """One unit of an activation and the places it enters, in order.

    ``start`` is where the log says the unit starts: an assertion checked against the state,
    not part of the move (``activate 505/82 Mook->Groesbeek`` = ``activate 505/82->Groesbeek``
    when 505/82 is in Mook).  ``enabler`` names the 30 Corps unit that enables an Allied
    infantry special river crossing (6.3), when the log names one.
    """

    unit: str
    path: tuple[str, ...] = ()
    strategic: bool = False
    enabler: str | None = None
    start: str | None = field(default=None, compare=False)

    def __str__(self) -> str:
        text = self.unit
        if self.start is not None:
            text += " " + _label(self.start)
        if self.path:  # each place's printed name (_label), joined without a Python loop
            text += "->" + "->".join(map(LABELS.get, self.path, self.path))
        if self.strategic:
            text += " strategic"
        if self.enabler is not None:
            text += f" with {self.enabler}"
        return text

    @property
    def end(self) -> str | None:
        return self.path[-1] if self.path else self.start


@dataclass(frozen=True, slots=True)
class Activate:
    """An impulse's activation of one or two units (4), each with its move (6).

    The moves are kept in unit order, so the order a log writes them in does not matter.
    """

    moves: tuple[UnitMove, ...]
    chance: ClassVar[bool] = False

    @staticmethod
    def of(*moves: UnitMove) -> Activate:
        return Activate(tuple(sorted(moves, key=lambda m: m.unit)))

    @property
    def units(self) -> tuple[str, ...]:
        return tuple(m.unit for m in self.moves)

    def __str__(self) -> str:
        return "activate " + ", ".join(map(str, self.moves))


@dataclass(frozen=True, slots=True)
class MoveOut:
    """3.H Red Devils Move Out: one British 1st Airborne unit to an adjacent empty space."""

    move: UnitMove
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return f"move-out {self.move}"


@dataclass(frozen=True, slots=True)
class Pass:
    """An impulse without an activation (4 Passing)."""

    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Attack:
    """A combat in a space (7): the dice of both sides are rolled at once."""

    space: str
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return f"attack {_label(self.space)}"


@dataclass(frozen=True, slots=True)
class NoAttack:
    """The active player declines the optional attacks of the impulse (4 Activation)."""

    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return "no attack"


@dataclass(frozen=True, slots=True)
class WeatherRoll:
    """Start of a game-turn from turn 2: the weather die (4, step 2)."""

    chance: ClassVar[bool] = True

    def __str__(self) -> str:
        return "weather"


def _moves_text(moves: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{unit}->{_label(place)}" for unit, place in moves)


@dataclass(frozen=True, slots=True)
class Hits:
    """A side applies hits (7.5): one unit id per hit, in unit order."""

    units: tuple[str, ...]
    chance: ClassVar[bool] = False

    @property
    def statement(self) -> bool:
        """``hits none`` states that a side has no hits to apply (the engine's ``confirm``)."""
        return not self.units

    def __str__(self) -> str:
        return "hits " + (" ".join(self.units) if self.units else "none")


@dataclass(frozen=True, slots=True)
class Retreat:
    """The defender retreats every unit of the combat, each to a destination (7.6)."""

    moves: tuple[tuple[str, str], ...]
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return "retreat " + _moves_text(self.moves)


@dataclass(frozen=True, slots=True)
class Breakthrough:
    """The attacker's breakthrough bonus moves (7.7); none: ``no breakthrough``."""

    moves: tuple[tuple[str, str], ...]
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return "breakthrough " + _moves_text(self.moves) if self.moves else "no breakthrough"


@dataclass(frozen=True, slots=True)
class Reinforce:
    """A reinforcement placed where its owner chooses (9)."""

    unit: str
    space: str
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return f"reinforce {self.unit} {_label(self.space)}"


@dataclass(frozen=True, slots=True)
class Replace:
    """Replacement points assigned, one per unit (10); ``replace none`` forfeits them."""

    units: tuple[str, ...]
    chance: ClassVar[bool] = False

    def __str__(self) -> str:
        return "replace " + (", ".join(self.units) if self.units else "none")


Command = (Activate | MoveOut | Pass | Attack | NoAttack | WeatherRoll | Hits | Retreat
           | Breakthrough | Reinforce | Replace)


# -- building commands from the parse tree, or from a line's words read without one --------

Words = tuple[list[str], list[int]]
"""A ``words`` node (``WORD+``) as read: its words, and each one's column."""
MoveRead = tuple[list[Words], bool, "Words | None"]
"""A ``unit_move`` as read: the words of each place of its path (the first starts with the
unit), ``strategic`` or not, and the words after ``with``, if any."""


def _words_of(tree: Tree[Any]) -> Words:
    """The words of a ``words`` tree and their columns (``words: WORD+``: its children)."""
    tokens: list[Token] = tree.children  # type: ignore[assignment]
    return [str(t) for t in tokens], [t.column for t in tokens]  # type: ignore[misc]


READ_MEMO = 10_000
"""Names kept read per board (``Board.units_read``, ``Board.places_read``): a log may write a
name many ways ("505/82", "505-82"), each kept as written, up to this many."""


def _place(board: Board, words: Words) -> str:
    texts, columns = words
    return _place_named(board, " ".join(texts), columns[0] if columns else None)


def _place_named(board: Board, text: str, column: int | None) -> str:
    known = board.places_read.get(text)
    if known is None:  # a name not read yet: resolved, or refused with its column
        known = board.places.lookup(text, column=column)
        _keep(board.places_read, text, known)
    return known


def _leading_unit(board: Board, texts: list[str], column: int) -> tuple[str, int]:
    """``split_leading_name`` of ``texts`` (the first word at ``column``) among the units:
    the unit its leading words name, and how many words name it."""
    words = tuple(texts)
    known = board.units_read.get(words)
    if known is None:
        unit, rest = split_leading_name(list(words), board.unit_names, column=column)
        known = (unit, len(words) - len(rest))
        _keep(board.units_read, words, known)
    return known


def _keep(memo: dict[Any, Any], key: Any, value: Any) -> None:
    if len(memo) >= READ_MEMO:
        memo.clear()
    memo[key] = value


def _move_read(tree: Tree[Any]) -> MoveRead:
    path_tree, strategic, _with, enabler_tree = tree.children
    assert isinstance(path_tree, Tree)
    groups = path_tree.children[::2]  # path: words (ARROW words)*
    enabler = _words_of(enabler_tree) if isinstance(enabler_tree, Tree) else None
    return [_words_of(g) for g in groups], strategic is not None, enabler


def _unit_move(board: Board, read: MoveRead) -> UnitMove:
    path_words, strategic, enabler_words = read
    texts, columns = path_words[0]
    unit, used = _leading_unit(board, texts, columns[0])
    start = (_place_named(board, " ".join(texts[used:]), columns[used])
             if used < len(texts) else None)
    path = tuple([_place(board, g) for g in path_words[1:]])
    enabler = None
    if enabler_words is not None:
        enabler = board.unit_names.lookup(" ".join(enabler_words[0]),
                                          column=enabler_words[1][0])
    return UnitMove(unit, path, strategic, enabler, start)


def _unit_list(board: Board, names: list[Words]) -> list[str]:
    """The units of ``hits``/``replace``: unit names (a name may be several words, "Irish
    Guards"), or ``none``."""
    units: list[str] = []
    for texts, columns in names:
        if len(texts) == 1 and texts[0].casefold() == "none" and len(names) == 1:
            return []
        at = 0
        while at < len(texts):  # each unit's name as _leading_unit reads (and keeps) it
            unit, used = _leading_unit(board, texts[at:], columns[at])
            units.append(unit)
            at += used
    return units


_OF_MOVES = frozenset({"activate", "move_out", "retreat", "breakthrough", "reinforce"})
"""The commands of unit moves (the others: of names, or of none)."""


def build(board: Board, tree: Tree[Any]) -> Command:
    """The command of one parsed ``command`` subtree, its names resolved."""
    kind = str(tree.data)
    children = [c for c in tree.children if isinstance(c, Tree)]
    if kind in _OF_MOVES:
        return make(board, kind, [_move_read(c) for c in children], [])
    return make(board, kind, [], [_words_of(c) for c in children])


def make(board: Board, kind: str, moves: list[MoveRead], names: list[Words]) -> Command:
    """The command the grammar names ``kind`` (``activate``, ``move_out``, ``pass_``...)
    made from its unit moves or its names as read (from Lark's tree, ``build``, or without
    one, ``quickline``), its names resolved in the order they are written."""
    if kind == "activate":
        if len(moves) == 1:  # the commonest line: one unit, nothing to put in order
            return Activate((_unit_move(board, moves[0]),))
        return Activate.of(*(_unit_move(board, m) for m in moves))
    if kind == "move_out":
        (read,) = moves
        move = _unit_move(board, read)
        if move.strategic or move.enabler is not None:
            raise IllegalMove(
                "3.H",
                "the Red Devils move out to an adjacent empty space: write "
                "'move-out UNIT FROM->TO'",
            )
        return MoveOut(move)
    if kind == "pass_":
        return Pass()
    if kind == "no_attack":
        return NoAttack()
    if kind == "weather":
        return WeatherRoll()
    if kind == "hits":
        return Hits(tuple(sorted(_unit_list(board, names))))
    if kind == "replace":
        return Replace(tuple(sorted(_unit_list(board, names))))
    if kind in ("retreat", "breakthrough"):
        made = [_unit_move(board, m) for m in moves]
        pairs = []
        for move in made:
            if len(move.path) != 1 or move.strategic or move.enabler is not None:
                rule = "7.6" if kind == "retreat" else "7.7"
                raise IllegalMove(rule, f"write each {kind} as UNIT->SPACE (one space)")
            pairs.append((move.unit, move.path[0]))
        pairs.sort()
        return Retreat(tuple(pairs)) if kind == "retreat" else Breakthrough(tuple(pairs))
    if kind == "no_breakthrough":
        return Breakthrough(())
    if kind == "reinforce":
        (read,) = moves
        move = _unit_move(board, read)
        where = move.path[-1] if move.path else move.start
        if where is None or len(move.path) > 1:
            raise IllegalMove("9", "write 'reinforce UNIT SPACE'")
        return Reinforce(move.unit, where)
    if kind == "attack":
        (words,) = names
        return Attack(_place(board, words))
    raise AssertionError(f"the wwiic grammar produced an unknown command {kind!r}")
