"""Eindhoven Bridge's plain lines read without Lark: action lines (``allied: move 1/506
A->0105->0205``, ``german: full-fire 0306 with 1/935, 2/935``, ``round {d6: 5 2}``, ``draw
{cup: 506}``, ``german: support 1``, ``allied: end``...) and turn assertions (``turn 3``).
The reader gives the very tree Lark's parser gives them (grammar/koenig_eindhoven.lark and
common.lark's ``action`` and ``turn_assertion``), tokens and their columns alike, or ``None``
for any other line (a tag, a set-up line, an ``expect``, a word spelt as a keyword, anything
odd), which Lark then reads and explains.

Lark's lexer and LALR parser were about half of a replay with an empty line memo (issue 31).
Nothing here resolves a name or judges a rule: ``commands.build`` makes the command from the
tree as from Lark's.  ``tests/games/koenig_eindhoven/test_quickparse.py`` compares the two
readings on every line of the bundled logs, self-played games and mangled variants of them.

How Lark reads these lines, which the reading here follows: in a state where a name may come
(``words``), a hex id of digits alone (``0306``) is a WORD, and a WORD spelt as a keyword
(``end``, ``with``, ``cup``...) becomes that keyword, so every line with such a name is left
to Lark; a verb is a keyword only as a whole piece (``movex`` is left to Lark).
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token, Tree

from referee.core.quicktree import WORD, action_items, dice_tree, is_face, keywords, token

_PIECES = re.compile(r"->|(" + WORD + r")|[^ \t]")
"""What a line is made of between its blanks (WS_INLINE, spaces and tabs, ignored): an arrow,
a word (the group: a piece matched as a WORD is one whole), or any other character as a
piece of its own (a colon, a semicolon, a comma, the braces and bar of dice; anything else
sends the line to Lark)."""
_PATH = frozenset({"move", "combined", "redeploy", "retreat"})
"""Commands of a path: ``"move"i path``."""
_NAMED = frozenset({"landing", "hit"})
"""Commands of a name: ``"hit"i words``."""
_FIRE = {"full-fire": "full_fire", "mobile-fire": "mobile_fire"}
"""Commands of a target and firers: ``"full-fire"i words "with"i words ("," words)*``."""
_BARE = {"draw": "draw", "artillery": "artillery", "allied-support": "allied_support",
         "roll": "roll", "stay": "stay", "round": "round_", "capture": "capture"}
"""Commands of one word, by the tree Lark names them (``end`` and ``support`` apart)."""
_GRAMMAR = "koenig_eindhoven.lark"

Pieces = list[tuple[int, str, bool]]
"""Each piece's start, text, and whether it is a WORD not spelt as a keyword."""


def quick_tree(line: str) -> Tree[Any] | None:
    """Lark's tree of ``line`` when it is a plain action line or turn assertion, else
    ``None``."""
    if "\n" in line or "\r" in line:
        return None
    text = line.split("#", 1)[0]  # a comment starts at the first '#' (no token holds one)
    spelt = keywords(_GRAMMAR)
    pieces = [(found.start(), piece, found.lastindex is not None
               and piece.casefold() not in spelt)
              for found in _PIECES.finditer(text) for piece in (found.group(),)]
    if not pieces:
        return None
    first = pieces[0][1].casefold()
    if first == "turn":
        return _turn(pieces)
    at = 0
    side: Tree[Any] | None = None
    if len(pieces) > 1 and pieces[1][1] == ":":
        if not pieces[0][2] or is_face(pieces[0][1]):
            return None
        side = Tree("side_prefix", [token("WORD", pieces[0][1], pieces[0][0])])
        at = 2
    return action_items(side, pieces, at, lambda at: _item(pieces, at))


def _turn(pieces: Pieces) -> Tree[Any] | None:
    """``"turn"i FACE [WORD]`` (a WORD of digits alone is left to Lark)."""
    if len(pieces) not in (2, 3) or not is_face(pieces[1][1]):
        return None
    half: Token | None = None
    if len(pieces) == 3:
        if not pieces[2][2] or is_face(pieces[2][1]):
            return None
        half = token("WORD", pieces[2][1], pieces[2][0])
    return Tree("start", [Tree("turn_assertion", [token("FACE", pieces[1][1], pieces[1][0]),
                                                  half])])


def _words(pieces: Pieces, at: int) -> tuple[list[Any], int]:
    """The WORDs from ``pieces[at]`` on (none if none is there) and where they end."""
    words: list[Any] = []
    for piece_at, piece, word in pieces[at:]:
        if not word:
            break
        words.append(token("WORD", piece, piece_at))
    return words, at + len(words)


def _item(pieces: Pieces, at: int) -> tuple[Tree[Any], int] | None:
    """``command [dice]`` from ``pieces[at]``: the item's tree and where it ends."""
    if at >= len(pieces):
        return None
    verb = pieces[at][1].casefold()
    at += 1
    command: Tree[Any]
    if verb in _PATH:
        chunks: list[Any] = []
        while True:
            words, at = _words(pieces, at)
            if not words:
                return None  # no name, or an arrow at the end
            chunks.append(Tree("words", words))
            if at < len(pieces) and pieces[at][1] == "->":
                chunks.append(token("ARROW", "->", pieces[at][0]))
                at += 1
                continue
            break
        command = Tree(verb, [Tree("path", chunks)])
    elif verb in _BARE:
        command = Tree(_BARE[verb], [])
    elif verb == "end":
        if at < len(pieces) and pieces[at][1].casefold() == "redeployment":
            at += 1
        command = Tree("end", [])
    elif verb == "support":
        if at >= len(pieces):
            return None
        amount = pieces[at][1]
        if is_face(amount):
            command = Tree("support", [token("FACE", amount, pieces[at][0])])
        elif amount.casefold() == "none":
            command = Tree("support", [])
        else:
            return None
        at += 1
    elif verb in _NAMED:
        words, at = _words(pieces, at)
        if not words:
            return None
        command = Tree(verb, [Tree("words", words)])
    elif verb in _FIRE:
        target, at = _words(pieces, at)
        if not target or at >= len(pieces) or pieces[at][1].casefold() != "with":
            return None
        groups = [Tree("words", target)]
        while True:
            words, at = _words(pieces, at + 1)
            if not words:
                return None
            groups.append(Tree("words", words))
            if at < len(pieces) and pieces[at][1] == ",":
                continue
            break
        command = Tree(_FIRE[verb], groups)
    else:
        return None
    if at < len(pieces) and pieces[at][1] == "{":
        found = _dice(pieces, at + 1)
        if found is None:
            return None
        dice, at = found
        return Tree("item", [command, dice]), at
    return Tree("item", [command, None]), at


def _dice(pieces: Pieces, at: int) -> tuple[Tree[Any], int] | None:
    """``DIE ":" dice_group ("|" dice_group)* "}"`` or ``CUP ":" words ("|" words)* "}"``
    after the brace: the tree and its end."""
    if at + 2 >= len(pieces) or pieces[at + 1][1] != ":":
        return None
    kind_at, kind, _ = pieces[at]
    at += 2
    if kind.casefold() == "cup":
        chits: list[Any] = [token("CUP", kind, kind_at)]
        while True:
            words, at = _words(pieces, at)
            if not words or at >= len(pieces):
                return None
            chits.append(Tree("words", words))
            if pieces[at][1] == "}":
                return Tree("common__chits", chits), at + 1
            if pieces[at][1] != "|":
                return None
            at += 1
    return dice_tree(pieces, at - 2)
