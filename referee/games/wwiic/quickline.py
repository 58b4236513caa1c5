"""WWII Commander action lines made into their entry without a tree (``Engine.quick_line``).

``quickparse.quick_tree`` reads a plain action line into the very tree Lark gives, and
``commands.build`` reads that tree's tokens once, into words and columns, to make each
command.  Here the line's pieces (``quickparse._PIECES``, the same reading, piece for piece)
are read straight into those words and columns, and ``commands.make`` makes each command from
them as from the tree: the same names looked up in the same order, the same messages and
columns; the dice are checked by the core's ``dice_record`` as the tree's are.  Any line
``quick_tree`` leaves to Lark or reads as no action (a tag, a set-up line, an expectation,
``turn 2``, a chit drawn from a cup, a word spelt as a keyword, anything odd) gives
``None``, and the long way reads it.

The commonest line of all, a one-unit activation written as the referee writes it
(``allied: activate 505/82 Mook->Groesbeek``), is read by one regular expression
(``_activation``) into the same words and columns.  The whole line is read before any name
is looked up, so a line Lark would refuse is never refused here for a name.
``tests/games/wwiic/test_quickline.py`` compares the two ways (and the shortcut with the
general reading) on every line of the bundled logs, self-played games and thousands of
mangled lines.
"""

from __future__ import annotations

import re
from itertools import accumulate

from referee.core.dicerecord import dice_record
from referee.core.log import ActionLine, CommandItem
from referee.core.quicktree import WORD, is_die, is_face, keywords
from referee.games.wwiic.board import Board
from referee.games.wwiic.commands import MoveRead, Words, make
from referee.games.wwiic.quickparse import (
    _BARE,
    _ENDS_WORDS,
    _MOVES,
    _NAMED,
    _NO,
    _ONE_MOVE,
    _PIECES,
)

Dice = tuple[str, int, list[list[str]], list[list[int]]]
"""``dice``: the DIE, its column, each dice_group's faces and their columns."""
Item = tuple[str, list[MoveRead], list[Words], "Dice | None", int]
"""One item read: the command's kind (as the grammar names it), its unit moves, its names,
its dice and its column."""


class _Lark(Exception):
    """A line ``quick_tree`` leaves to Lark."""


_SPLIT = re.compile("(" + _PIECES.pattern + ")")
"""``_PIECES`` kept by ``re.split``: the line's pieces at the odd places, the blanks between
them (spaces and tabs only: any other character is a piece) at the even ones."""


class _Reader:
    """A line's pieces between its blanks (``quickparse._PIECES``), read from the start: each
    piece's text and 1-based column, made by ``re.split`` and sums of lengths (no Python loop
    over the pieces)."""

    __slots__ = ("at", "columns", "end", "spelt", "texts")

    def __init__(self, text: str, spelt: frozenset[str]) -> None:
        parts = _SPLIT.split(text)
        self.texts = parts[1::2]
        self.columns = list(accumulate(map(len, parts), initial=1))[1::2]
        self.end = len(self.texts)
        self.at = 0
        self.spelt = spelt


def _words(read: _Reader) -> Words:
    """``WORD+`` up to a comma, semicolon, brace, arrow, the end, or ``strategic`` or
    ``with`` after a word (``quickparse._words``)."""
    start = at = read.at
    end, pieces, spelt = read.end, read.texts, read.spelt
    while at < end:
        piece = pieces[at]
        if piece in _ENDS_WORDS:
            break
        first = piece[0]
        lowered = piece.lower()
        if not (first.isascii() and first.isalnum()) or lowered in spelt:
            if at > start and lowered in ("strategic", "with"):
                break
            raise _Lark
        at += 1
    if at == start:
        raise _Lark
    read.at = at
    return pieces[start:at], read.columns[start:at]


def _unit_move(read: _Reader) -> MoveRead:
    """``path [STRATEGIC] [WITH words]`` (``quickparse._unit_move``)."""
    path = [_words(read)]
    texts, end = read.texts, read.end
    while read.at < end and texts[read.at] == "->":
        read.at += 1
        path.append(_words(read))
    strategic = read.at < end and texts[read.at].lower() == "strategic"
    if strategic:
        read.at += 1
    enabler: Words | None = None
    if read.at < end and texts[read.at].lower() == "with":
        read.at += 1
        enabler = _words(read)
    return path, strategic, enabler


def _item(read: _Reader) -> Item:
    """``command [dice]`` (``quickparse._item``)."""
    texts, end = read.texts, read.end
    if read.at >= end:
        raise _Lark
    column = read.columns[read.at]
    verb = texts[read.at].lower()
    read.at += 1
    moves: list[MoveRead] = []
    names: list[Words] = []
    if verb in _MOVES or verb in _ONE_MOVE:
        while True:
            moves.append(_unit_move(read))
            if read.at < end and texts[read.at] == "," and verb in _MOVES:
                read.at += 1
                continue
            break
        kind = _MOVES[verb] if verb in _MOVES else _ONE_MOVE[verb]
    elif verb in _BARE:
        kind = _BARE[verb]
    elif verb in _NAMED or verb == "replace":
        while True:
            names.append(_words(read))
            if read.at < end and texts[read.at] == "," and verb == "replace":
                read.at += 1
                continue
            break
        kind = verb
    elif verb == "no" and read.at < end and texts[read.at].lower() in _NO:
        kind = _NO[texts[read.at].lower()]
        read.at += 1
    else:
        raise _Lark
    dice = _dice(read) if read.at < end and texts[read.at] == "{" else None
    return kind, moves, names, dice, column


def _dice(read: _Reader) -> Dice:
    """``"{" DIE ":" dice_group ("|" dice_group)* "}"`` (``quicktree.dice_tree``)."""
    at, end, texts, placed = read.at + 1, read.end, read.texts, read.columns
    if at + 2 >= end or not is_die(texts[at]) or texts[at + 1] != ":":
        raise _Lark
    die, die_column = texts[at], placed[at]
    at += 2
    groups: list[list[str]] = []
    columns: list[list[int]] = []
    faces: list[str] = []
    places: list[int] = []
    while at < end:
        piece = texts[at]
        if is_face(piece):
            faces.append(piece)
            places.append(placed[at])
        elif (piece == "|" or piece == "}") and faces:
            groups.append(faces)
            columns.append(places)
            faces, places = [], []
            if piece == "}":
                read.at = at + 1
                return die, die_column, groups, columns
        else:
            raise _Lark
        at += 1
    raise _Lark


_ACTIVATION = re.compile(f"({WORD})(: activate )({WORD}(?: {WORD})*)((?:->{WORD}(?: {WORD})*)*)")
"""The commonest line as the referee writes it (two thirds of a game's lines): ``allied:
activate 505/82 Mook->Groesbeek->Nijmegen``, one unit move, single spaces, no ``strategic``,
``with``, dice or comment.  A WORD is followed here only by a space, an arrow or the end, so
its words are the very pieces ``_PIECES`` makes of it."""


def _activation(board: Board, number: int, text: str, line: str,
                spelt: frozenset[str]) -> ActionLine | None:
    """The entry of ``text`` (``line`` without its comment) when it is a ``_ACTIVATION`` of
    no word spelt as a keyword and a side that is no FACE, read as ``_item`` reads it, or
    ``None`` for the reading of any line."""
    found = _ACTIVATION.fullmatch(text)
    if found is None:
        return None
    side, _, first, path = found.groups()
    if not spelt.isdisjoint((first + path.replace("->", " ")).lower().split(" ")) or (
            side.lower() in spelt or is_face(side)):
        return None
    column = found.start(3) + 1
    path_words = [_spaced(first, column)]
    column += len(first)
    for place in path.split("->")[1:]:
        column += 2
        path_words.append(_spaced(place, column))
        column += len(place)
    command = make(board, "activate", [(path_words, False, None)], [])
    return ActionLine(number, line, side.casefold(),
                      [CommandItem(command, None, found.start(2) + 3)])


def _spaced(words: str, column: int) -> Words:
    """Words separated by single spaces, the first at ``column``: their texts and columns."""
    texts = words.split(" ")
    columns = []
    for word in texts:
        columns.append(column)
        column += len(word) + 1
    return texts, columns


def action_line(board: Board, number: int, line: str) -> ActionLine | None:
    """The entry of ``line`` at ``number`` as ``parsing`` makes it from the tree of a plain
    action line (commands, dice records and columns), or ``None`` for the long way."""
    if "\n" in line:
        return None  # a comment ends at a line break and Lark refuses what follows it
    text = line.split("#", 1)[0]  # a comment starts at the first '#' (no token holds one)
    spelt = keywords("wwiic.lark")
    plain = _activation(board, number, text, line, spelt)
    if plain is not None:
        return plain
    read = _Reader(text, spelt)
    if not read.end:
        return None
    pieces = read.texts
    first = pieces[0].lower()
    if first == "turn":
        return None  # a turn assertion, or a line Lark reads
    side: str | None = None
    if read.end > 1 and pieces[1] == ":":
        word = pieces[0]
        if first in spelt or not (word[0].isascii() and word[0].isalnum()) or is_face(word):
            return None
        side = word.casefold()
        read.at = 2
    items: list[Item] = []
    try:
        while True:
            items.append(_item(read))
            if read.at == read.end:
                break
            if pieces[read.at] != ";":
                return None
            read.at += 1
    except _Lark:
        return None
    entry = ActionLine(number, line, side)
    found = entry.items
    for kind, moves, names, dice, column in items:
        command = make(board, kind, moves, names)
        record = dice_record(*dice) if dice is not None else None
        found.append(CommandItem(command, record, column))
    return entry
