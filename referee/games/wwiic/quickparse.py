"""WWII Commander's action lines (``allied: activate 505/82 Mook->Groesbeek``, ``german:
attack Best {d10: 3 8 1}``, ``allied: hits 505/82; retreat 505/82->Groesbeek``, ``pass``,
``weather {d10: 4}``...) and turn assertions (``turn 2``) read without Lark: the very tree
Lark's parser gives them (grammar/wwiic.lark and common.lark), tokens and their columns
alike, and set-up lines too (``quicksetup.setup_tree``), or ``None`` for any other line (a
tag, an expectation, a chit drawn from a cup, a word spelt as a keyword where Lark might read
the keyword, anything odd), which Lark then reads and explains.

Lark's LALR parser was about a third of a WWII Commander replay with an empty line memo
(issue 31).  Nothing here resolves a name or judges a rule: ``commands.build`` makes the
command from the tree as from Lark's.  ``tests/games/wwiic/test_quickparse.py`` compares the
two readings on every line of the bundled logs, self-played games and mangled variants of
them.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token, Tree

from referee.core.quicktree import (
    WORD,
    action_items,
    dice_tree,
    is_face,
    keywords,
    token,
    word_run,
)
from referee.games.wwiic.quicksetup import setup_tree

_PIECES = re.compile(r"->|" + WORD + r"|[^ \t]")
"""What a line is made of between its blanks (WS_INLINE, spaces and tabs, ignored): an arrow,
a word, or any other character as a piece of its own (a colon, a comma, a semicolon, the
braces and bar of dice; anything else sends the line to Lark)."""

_MOVES = {"activate": "activate", "retreat": "retreat", "breakthrough": "breakthrough"}
"""Commands of one or more unit moves separated by commas, by the tree Lark names them."""
_ONE_MOVE = {"move-out": "move_out", "reinforce": "reinforce"}
"""Commands of a single unit move."""
_BARE = {"pass": "pass_", "weather": "weather"}
"""Commands of one word."""
_NAMED = frozenset({"attack", "hits"})
"""Commands of a name: ``"attack"i words``."""
_NO = {"attack": "no_attack", "breakthrough": "no_breakthrough"}
"""``"no"i "attack"i`` and ``"no"i "breakthrough"i``."""
_ENDS_WORDS = frozenset({",", ";", "{", "->"})
"""Pieces that end a run of words inside a command (besides the end of the line)."""
_NAME_ENDERS = frozenset({"strategic", "with"})
"""Keywords that end a name after a word of it (``path [STRATEGIC] [WITH words]``): a run of
words inside a command is ``quicktree.word_run`` with these and ``_ENDS_WORDS``."""

Pieces = list[tuple[int, str]]


def quick_tree(line: str) -> Tree[Any] | None:
    """Lark's tree of ``line`` when it is a plain action line or turn assertion, else
    ``None``."""
    if "\n" in line:
        return None  # a comment ends at a line break and Lark refuses what follows it
    text = line.split("#", 1)[0]  # a comment starts at the first '#' (no token here holds one)
    pieces = [(found.start(), found.group()) for found in _PIECES.finditer(text)]
    if not pieces:
        return None
    spelt = keywords("wwiic.lark")
    first = pieces[0][1].lower()
    if first == "turn":
        return _turn(pieces, spelt)
    if first == "setup":
        return setup_tree(pieces, spelt)
    at = 0
    side: Tree[Any] | None = None
    if len(pieces) > 1 and pieces[1][1] == ":":
        word = pieces[0][1]
        if first in spelt or not _is_word(word) or is_face(word):
            return None
        side = Tree("side_prefix", [token("WORD", word, pieces[0][0])])
        at = 2
    return action_items(side, pieces, at, lambda at: _item(pieces, at, spelt))


def _is_word(piece: str) -> bool:
    """``piece`` (a piece of ``_PIECES``) is a whole WORD: it starts with a letter or digit
    (the other pieces are an arrow or one character that is neither)."""
    return piece[0].isascii() and piece[0].isalnum()


def _turn(pieces: Pieces, spelt: frozenset[str]) -> Tree[Any] | None:
    """``"turn"i FACE [WORD]``: the turn the players believe it is."""
    if not 2 <= len(pieces) <= 3 or not is_face(pieces[1][1]):
        return None
    half: Token | None = None
    if len(pieces) == 3:
        word = pieces[2][1]
        if not _is_word(word) or word.lower() in spelt:
            return None
        half = token("WORD", word, pieces[2][0])
    face = token("FACE", pieces[1][1], pieces[1][0])
    return Tree("start", [Tree("turn_assertion", [face, half])])


def _item(pieces: Pieces, at: int, spelt: frozenset[str]) -> tuple[Tree[Any], int] | None:
    """``command [dice]`` from ``pieces[at]``: the item's tree and where it ends."""
    if at >= len(pieces):
        return None
    verb = pieces[at][1].lower()
    at += 1
    command: Tree[Any]
    if verb in _MOVES or verb in _ONE_MOVE:
        moves: list[Any] = []
        while True:
            found = _unit_move(pieces, at, spelt)
            if found is None:
                return None
            move, at = found
            moves.append(move)
            if at < len(pieces) and pieces[at][1] == "," and verb in _MOVES:
                at += 1
                continue
            break
        command = Tree(_MOVES[verb] if verb in _MOVES else _ONE_MOVE[verb], moves)
    elif verb in _BARE:
        command = Tree(_BARE[verb], [])
    elif verb in _NAMED or verb == "replace":
        names: list[Any] = []
        while True:
            found_words = word_run(pieces, at, spelt, _ENDS_WORDS, _NAME_ENDERS)
            if found_words is None:
                return None
            words, at = found_words
            names.append(words)
            if at < len(pieces) and pieces[at][1] == "," and verb == "replace":
                at += 1
                continue
            break
        command = Tree(verb, names)
    elif verb == "no" and at < len(pieces) and pieces[at][1].lower() in _NO:
        command = Tree(_NO[pieces[at][1].lower()], [])
        at += 1
    else:
        return None
    if at < len(pieces) and pieces[at][1] == "{":
        found_dice = dice_tree(pieces, at + 1)
        if found_dice is None:
            return None
        dice, at = found_dice
        return Tree("item", [command, dice]), at
    return Tree("item", [command, None]), at


def _unit_move(pieces: Pieces, at: int, spelt: frozenset[str]
               ) -> tuple[Tree[Any], int] | None:
    """``path [STRATEGIC] [WITH words]`` from ``pieces[at]``: the tree and where it ends."""
    chunks: list[Any] = []
    while True:
        found = word_run(pieces, at, spelt, _ENDS_WORDS, _NAME_ENDERS)
        if found is None:
            return None
        words, at = found
        chunks.append(words)
        if at < len(pieces) and pieces[at][1] == "->":
            chunks.append(token("ARROW", "->", pieces[at][0]))
            at += 1
            continue
        break
    strategic: Token | None = None
    if at < len(pieces) and pieces[at][1].lower() == "strategic":
        strategic = token("STRATEGIC", pieces[at][1], pieces[at][0])
        at += 1
    with_: Token | None = None
    support: Tree[Any] | None = None
    if at < len(pieces) and pieces[at][1].lower() == "with":
        with_ = token("WITH", pieces[at][1], pieces[at][0])
        found = word_run(pieces, at + 1, spelt, _ENDS_WORDS, _NAME_ENDERS)
        if found is None:
            return None
        support, at = found
    return Tree("unit_move", [Tree("path", chunks), strategic, with_, support]), at
