"""Arnhem '44 action lines made into their entry without a tree (``Engine.quick_line``).

``quickparse.action_tree`` reads a plain action line into the very tree Lark gives, and
``commands.build`` makes each command from that tree.  For the commonest commands (a move,
``deploy``, ``enter``, ``reinforce``, ``barrage``, ``combat``, ``invade``, ``defuse``,
``detonate``, the rolls of one word...) the tree's tokens and nodes were only read once, to
make the command: here the line's pieces (``quickparse._Reader``, the same reading) are read
by the same grammar straight into the command, its dice record and its column, as the long
way makes them: the same names looked up in the same order, the same messages and columns
(``commands.figures``, ``parsing.dice_record``).  Any other line, or a line with any other
command, gives ``None``, and the long way reads it (a quick tree, or Lark).

The whole line is read before any name is looked up, so a line Lark would refuse is never
refused here for a name.  ``tests/games/arnhem44/test_quickline.py`` compares the two ways on
every line of the bundled logs, self-played games and thousands of mangled lines.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.core.dicerecord import dice_record
from referee.core.errors import IllegalMove
from referee.core.log import ActionLine, CommandItem
from referee.core.quicktree import keywords
from referee.games.arnhem44.board import Board
from referee.games.arnhem44.commands import (
    AntiAircraft,
    Barrage,
    Build,
    CombatRoll,
    Command,
    Defuse,
    Deploy,
    Detonate,
    EndMovement,
    EndSetup,
    Enter,
    FallBack,
    Groups,
    Initiative,
    Invade,
    LandingRoll,
    Move,
    NoBarrage,
    Pass,
    Reinforce,
    ReserveRoll,
    Resign,
    SupplyDropRoll,
    Support,
    TokenRoll,
    WeatherRoll,
    Withdraw,
    WithdrawOrder,
    figures,
)
from referee.games.arnhem44.quickparse import _SIDES, _VERBS, _Lark, _Reader

Words = tuple[str, int]
"""``words: WORD+`` as the long way reads it: the words joined by a blank, and the first
one's column."""
Figures = list[tuple[str, int, str, int]]
"""``groups``: each ``group: FACE WORD`` as (count, its column, word, its column)."""
Dice = tuple[str, int, list[list[str]], list[list[int]]]
"""``dice``: the DIE, its column, each dice_group's faces and their columns."""

_BARE: dict[str, Callable[[], Command]] = {
    "pass": Pass, "initiative": Initiative, "weather": WeatherRoll, "landing": LandingRoll,
    "supply-drop": SupplyDropRoll, "withdraw-order": WithdrawOrder, "resign": Resign,
}
"""Commands of one keyword and nothing else."""


class _Long(Exception):
    """A command this reading leaves to the long way (the tree)."""


def _word(read: _Reader) -> tuple[str, int]:
    """A WORD (not spelt as a keyword): its text and column."""
    at = read.at
    if at >= read.pieces or read.kinds[at] != "w":
        raise _Lark
    read.at = at + 1
    return read.texts[at], read.starts[at] + 1


def _words(read: _Reader) -> Words:
    at, kinds, end = read.at, read.kinds, read.pieces
    if at >= end or kinds[at] != "w":
        raise _Lark
    first = at
    while at < end and kinds[at] == "w":
        at += 1
    read.at = at
    if at == first + 1:
        return read.texts[first], read.starts[first] + 1
    return " ".join(read.texts[first:at]), read.starts[first] + 1


def _face(read: _Reader) -> tuple[str, int]:
    at = read.at
    if at >= read.pieces or read.kinds[at] != "w" or not read.texts[at].isdigit():
        raise _Lark  # (the text is ASCII: ``isdigit`` is [0-9]+)
    read.at = at + 1
    return read.texts[at], read.starts[at] + 1


def _groups(read: _Reader) -> Figures:
    """``groups: group ("," group)*``, as ``_Reader.groups`` reads them."""
    found = [(*_face(read), *_word(read))]
    kinds, texts = read.kinds, read.texts
    while (read.at + 1 < read.pieces and kinds[read.at] == ","
           and kinds[read.at + 1] == "w" and texts[read.at + 1].isdigit()):
        read.at += 1
        found.append((*_face(read), *_word(read)))
    return found


def _arrow(read: _Reader) -> None:
    if not read.punctuation("->"):
        raise _Lark


Make = Callable[[Board], Command]
"""A command read, made when the whole line has been read (its names looked up then)."""


def _figures(found: Figures) -> Groups:
    return tuple(figures(*group) for group in found)


def _sector(board: Board, words: Words) -> str:
    return board.sectors.lookup(words[0], column=words[1])


def _command(read: _Reader) -> Make:
    """One command, as ``quickparse._command`` reads it, to be made as ``commands.build``
    makes it (the same lookups in the same order)."""
    at = read.at
    if at >= read.pieces or read.kinds[at] != "k" or read.folded[at] not in _VERBS:
        raise _Lark
    verb = read.folded[at]
    read.at = at + 1
    bare = _BARE.get(verb)
    if bare is not None:
        return lambda board: bare()
    if verb == "move":
        groups = _groups(read)
        route = [_words(read)]
        while read.kind() == "->":
            read.at += 1
            route.append(_words(read))
        if len(route) < 2:
            raise _Lark

        def move(board: Board) -> Command:
            path = tuple(_sector(board, words) for words in route)
            return Move(_figures(groups), path)
        return move
    if verb == "deploy" or verb == "enter" or verb == "reinforce":
        groups, where = _groups(read), _words(read)
        kind = Deploy if verb == "deploy" else Enter if verb == "enter" else Reinforce

        def place(board: Board) -> Command:
            made = _figures(groups)
            return kind(made, _sector(board, where))
        return place
    if verb == "barrage":
        shots = [_shot(read)]
        while read.punctuation(","):
            shots.append(_shot(read))
        joker = read.keyword("joker") is not None

        def barrage(board: Board) -> Command:
            made = []
            for groups, start, target in shots:
                fired = _figures(groups)
                made.append((fired, _sector(board, start), _sector(board, target)))
            return Barrage(tuple(made), joker)
        return barrage
    if verb == "combat":
        where = _words(read)
        players: list[str] = []
        while read.keyword("joker"):
            players.append(_word(read)[0].lower())  # ASCII: its case-folding
        return lambda board: CombatRoll(_sector(board, where), _jokers_by(players))
    if verb == "defuse" or verb == "detonate":
        bridge = _word(read)
        crate = int(_face(read)[0]) if read.keyword("crate") else None
        joker = read.keyword("joker") is not None
        blow = Defuse if verb == "defuse" else Detonate
        return lambda board: blow(board.bridge_names.lookup(bridge[0], column=bridge[1]),
                                  crate, joker)
    if verb == "end":
        done = read.keyword("setup", "movement")
        if done is None:
            raise _Lark
        ended = EndSetup if done == "setup" else EndMovement
        return lambda board: ended()
    if verb == "no":
        what = read.keyword("support", "barrage", "joker")
        if what is None:
            raise _Lark
        if what == "joker":
            raise _Long  # refused by commands.build, with its words
        if what == "barrage":
            return lambda board: NoBarrage()
        joker = read.keyword("joker") is not None
        return lambda board: Support((), joker)
    if verb == "build" or verb == "anti-aircraft" or verb == "token":
        if verb == "build":
            bridge_name = _word(read)[0]
            return lambda board: Build(bridge_name)
        where = _words(read)
        roll = AntiAircraft if verb == "anti-aircraft" else TokenRoll
        return lambda board: roll(_sector(board, where))
    if verb == "reserves":
        die = _word(read)[0] if read.kind() == "w" else None
        return lambda board: _reserves(die)
    if verb == "invade":
        target = _words(read)
        sources: list[tuple[Words, Figures]] = []
        while read.keyword("from"):
            where = _words(read)
            if not read.punctuation(":"):
                raise _Lark
            sources.append((where, _groups(read)))
        if not sources:
            raise _Lark
        joker = read.keyword("joker") is not None

        def invade(board: Board) -> Command:
            into = _sector(board, target)
            parts = []
            for where, groups in sources:
                start = _sector(board, where)
                parts.append((start, _figures(groups)))
            return Invade(into, tuple(parts), joker)
        return invade
    if verb == "fall-back" or verb == "withdraw":
        groups, start = _groups(read), _words(read)
        _arrow(read)
        dest = _words(read)
        if verb == "withdraw":
            def withdraw(board: Board) -> Command:
                made = _figures(groups)
                return Withdraw(made, _sector(board, start), _sector(board, dest))
            return withdraw
        joker = read.keyword("joker") is not None

        def fall_back(board: Board) -> Command:
            made = _figures(groups)
            return FallBack(made, _sector(board, start), _sector(board, dest), joker)
        return fall_back
    if verb == "support":
        groups = _groups(read)
        joker = read.keyword("joker") is not None
        return lambda board: Support(_figures(groups), joker)
    raise _Long  # rig, reveal, swap, first, collect, bailey, reserve-order, joker move


def _shot(read: _Reader) -> tuple[Figures, Words, Words]:
    """``shot: groups words ARROW words``."""
    groups, start = _groups(read), _words(read)
    _arrow(read)
    return groups, start, _words(read)


def _jokers_by(players: list[str]) -> tuple[str, ...]:
    """``commands._jokers_by``: each player once."""
    out: list[str] = []
    for player in players:
        if player in out:
            raise IllegalMove("Jokers", f"{player} names his joker twice: a player can use a "
                              "joker but once")
        out.append(player)
    return tuple(out)


def _reserves(die: str | None) -> Command:
    """``commands.build``'s ``reserves``: the black or the green die."""
    folded = die.lower() if die is not None else "black"
    if folded not in ("black", "green"):
        raise IllegalMove("Phase 6.2", f"the Allied player rolls the black or the green "
                          f"die, not '{die}'")
    return ReserveRoll(folded)


def _dice(read: _Reader) -> Dice | None:
    """``[dice]`` as ``quickparse._dice`` reads it (chits go to Lark)."""
    if not read.punctuation("{"):
        return None
    at, end, kinds, texts, starts = read.at, read.pieces, read.kinds, read.texts, read.starts
    if at >= end or kinds[at] != "w" or not _is_die(texts[at]):
        raise _Lark
    die, die_column = texts[at], starts[at] + 1
    at += 1
    if at >= end or kinds[at] != ":":
        raise _Lark
    at += 1
    groups: list[list[str]] = []
    columns: list[list[int]] = []
    while True:
        faces: list[str] = []
        places: list[int] = []
        while at < end and kinds[at] == "w" and texts[at].isdigit():  # FACE (ASCII digits)
            faces.append(texts[at])
            places.append(starts[at] + 1)
            at += 1
        if not faces or at >= end or kinds[at] == "w":
            raise _Lark
        groups.append(faces)
        columns.append(places)
        if kinds[at] != "|":
            break
        at += 1
    read.at = at
    if not read.punctuation("}"):
        raise _Lark
    return die, die_column, groups, columns


def _is_die(text: str) -> bool:
    """grammar/common.lark's DIE, ``[dD][0-9]{1,4}`` (the text is ASCII)."""
    return 2 <= len(text) <= 5 and text[0] in "dD" and text[1:].isdigit()


def action_line(board: Board, number: int, line: str) -> ActionLine | None:
    """The entry of ``line`` at ``number`` as ``parsing`` makes it from the tree of a plain
    action line (commands, dice records and columns), or ``None`` for the long way."""
    if "\n" in line or "\r" in line:
        return None  # a character a comment may hide, or a second line: Lark
    text = line.split("#", 1)[0]  # a comment starts at the first '#' (no token holds one)
    if not text.isascii():
        return None
    try:
        read = _Reader(text, keywords("arnhem44.lark"))
        side: str | None = None
        if read.pieces > 1 and read.kinds[1] == ":":
            if read.kinds[0] != "w" or read.folded[0] not in _SIDES:
                raise _Lark
            side = read.folded[0]
            read.at = 2
        items: list[tuple[Make, Dice | None, int]] = []
        while True:
            if read.at >= read.pieces:
                raise _Lark
            column = read.starts[read.at] + 1
            items.append((_command(read), _dice(read), column))
            if not read.punctuation(";"):
                break
        if read.at != read.pieces:
            raise _Lark
    except (_Lark, _Long, IndexError):
        return None
    entry = ActionLine(number, line, side)
    found = entry.items
    for make, dice, column in items:
        command = make(board)
        record = dice_record(*dice) if dice is not None else None
        found.append(CommandItem(command, record, column))
    return entry

