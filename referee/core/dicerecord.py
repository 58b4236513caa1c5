"""A log line's dice as the referee keeps them: grammar/common.lark's ``dice`` (``{d10: 3 7
| 1}``, ``{cup: 506}``) made into a checked ``DiceRecord``, from Lark's tree or from the texts
of a fast reader (``Engine.quick_line``, ``parsing``'s command remembered with other dice).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lark import Token, Tree

from referee.core.errors import DiceFaceError, LogLimitError
from referee.core.log import DiceRecord

MAX_DIE_SIDES = 100
MAX_DICE_IN_RECORD = 500


def small_int(token: Token, what: str, limit: int = 1_000_000) -> int:
    return _small_number(str(token), what, token.column, limit)


def _small_number(text: str, what: str, column: int | None, limit: int = 1_000_000) -> int:
    if len(text) > 7 or int(text) > limit:
        raise LogLimitError(f"{text[:12]} is too large for a {what}", column=column)
    return int(text)


def dice_tree_record(tree: Tree[Any]) -> DiceRecord:
    if str(tree.data).endswith("chits"):
        return _chit_record(tree)
    die, *groups = tree.children
    assert isinstance(die, Token)
    faces: list[Sequence[Any]] = []  # each dice_group's FACE tokens
    for group in groups:
        assert isinstance(group, Tree)
        faces.append(group.children)
    return dice_record(die, die.column, faces)


def dice_record(die: str, column: int | None, groups: Sequence[Sequence[str]],
                columns: Sequence[Sequence[int]] | None = None) -> DiceRecord:
    """grammar/common.lark's ``dice`` (``{d10: 3 7 | 1}``) as a record, checked: ``die`` the
    DIE's text at ``column``, ``groups`` each dice_group's FACE texts, their columns in
    ``columns`` (or, ``None``, each FACE's own: Lark's tokens).  A fast reader that makes a
    line's entry without a tree (``Engine.quick_line``) makes its dice here too."""
    # DIE is [dD][0-9]{1,4}: its number is never too large for a die.
    sides = int(die[1:]) if len(die) <= 7 else _small_number(die[1:], "die", None)
    if not 2 <= sides <= MAX_DIE_SIDES:
        raise DiceFaceError(f"there is no {die} die", column=column)
    faces: list[tuple[int, ...]] = []
    count = 0
    for index, group in enumerate(groups):
        values: list[int] = []
        for place, face in enumerate(group):
            # A FACE ([0-9]+) of up to 6 digits is under _small_number's limit.
            if len(face) <= 6:
                value = int(face)
            else:
                value = _small_number(face, "die face", _face_column(face, columns, index, place))
            # 0 is a face of a die read from 0 (Arnhem '44's d10); the engine's roll checks
            # each face against its die's range.
            if not 0 <= value <= sides:
                raise DiceFaceError(f"a d{sides} has no face {value}",
                                    column=_face_column(face, columns, index, place))
            values.append(value)
        count += len(values)
        faces.append(tuple(values))
    if count > MAX_DICE_IN_RECORD:
        raise LogLimitError(
            f"this record holds {count} dice; a record may hold up to {MAX_DICE_IN_RECORD}",
            column=column,
        )
    return DiceRecord(sides, tuple(faces), column or 1)


def _face_column(face: str, columns: Sequence[Sequence[int]] | None, group: int,
                 place: int) -> int | None:
    """The column of a die's face: given, or the Lark token's own."""
    if columns is not None:
        return columns[group][place]
    found = getattr(face, "column", None)
    return found if isinstance(found, int) else None


def _chit_record(tree: Tree[Any]) -> DiceRecord:
    """``{cup: 506 | 502}``: chits drawn from a cup, checked by the engine against its cup."""
    cup, *names = tree.children
    assert isinstance(cup, Token)
    chits: list[str] = []
    for name in names:
        assert isinstance(name, Tree)
        chits.append(" ".join(str(token) for token in name.children))
    if len(chits) > MAX_DICE_IN_RECORD:
        raise LogLimitError(
            f"this record holds {len(chits)} chits; a record may hold up to "
            f"{MAX_DICE_IN_RECORD}",
            column=cup.column,
        )
    return DiceRecord(0, (), cup.column or 1, tuple(chits))
