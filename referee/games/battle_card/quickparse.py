"""Battle Card's action lines (``allied: attack Eindhoven {d6: 4}; defend Grave {d6: 2}``,
``move 30-corps Belgium->Eindhoven``, ``pass``) read without Lark: the very tree Lark's parser
gives them (grammar/battle_card.lark and common.lark's ``action``), tokens and their columns
alike, or ``None`` for any other line (a tag, a set-up line, an assertion, a chit drawn from
a cup, a word spelt as a keyword, anything odd), which Lark then reads and explains.

A Battle Card game is a few dozen short lines, and Lark's lexer and parser were most of its
replay with an empty line memo (issue 31).  Nothing here resolves a name or judges a rule:
``rules.build_command`` makes the command from the tree as from Lark's.
``tests/games/battle_card/test_quickparse.py`` compares the two readings on every line of the
bundled logs, self-played games and mangled variants of them.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Tree

from referee.core.quicktree import WORD, action_items, dice_tree, is_face, is_word, keywords, token

_PIECES = re.compile(r"->|" + WORD + r"|[^ \t]")
"""What an action line is made of between its blanks (WS_INLINE, spaces and tabs, ignored):
an arrow, a word, or any other character as a piece of its own (a colon, a semicolon, the
braces and bar of dice; anything else sends the line to Lark)."""
_NAMED = frozenset({"attack", "defend"})
"""Commands of a name: ``"attack"i words``."""
_BARE = {"pass": "pass_", "airdrop": "airdrop", "landing": "landing"}
"""Commands of one word, by the tree Lark names them."""


def action_tree(line: str) -> Tree[Any] | None:
    """Lark's tree of ``line`` when it is a plain action line, else ``None``."""
    if "\n" in line or "\r" in line or "\x0c" in line:
        return None
    text = line.split("#", 1)[0]  # a comment starts at the first '#' (no token holds one)
    pieces = [(found.start(), found.group()) for found in _PIECES.finditer(text)]
    if not pieces:
        return None
    spelt = keywords("battle_card.lark")
    at = 0
    side: Tree[Any] | None = None
    if len(pieces) > 1 and pieces[1][1] == ":":
        if not is_word(pieces[0][1], spelt) or is_face(pieces[0][1]):
            return None
        side = Tree("side_prefix", [token("WORD", pieces[0][1], pieces[0][0])])
        at = 2
    return action_items(side, pieces, at, lambda at: _item(pieces, at, spelt))


def _item(pieces: list[tuple[int, str]], at: int, spelt: frozenset[str]
          ) -> tuple[Tree[Any], int] | None:
    """``command [dice]`` from ``pieces[at]``: the item's tree and where it ends."""
    if at >= len(pieces):
        return None
    verb = pieces[at][1].casefold()
    at += 1
    command: Tree[Any]
    if verb in _BARE:
        command = Tree(_BARE[verb], [])
    elif verb in _NAMED or verb == "move":
        chunks: list[Any] = []
        words: list[Any] = []
        while at < len(pieces) and pieces[at][1] not in (";", "{"):
            piece_at, piece = pieces[at]
            if piece == "->" and verb == "move" and words:
                chunks += [Tree("words", words), token("ARROW", piece, piece_at)]
                words = []
            elif is_word(piece, spelt) and not is_face(piece):
                # a word of digits alone may lex as FACE or WORD: Lark's reading decides
                words.append(token("WORD", piece, piece_at))
            else:
                return None
            at += 1
        if not words:
            return None  # no name, or an arrow at the end
        if verb == "move":
            command = Tree("move", [Tree("path", [*chunks, Tree("words", words)])])
        else:
            command = Tree(verb, [Tree("words", words)])
    else:
        return None
    if at < len(pieces) and pieces[at][1] == "{":
        found = dice_tree(pieces, at + 1)
        if found is None:
            return None
        dice, at = found
        return Tree("item", [command, dice]), at
    return Tree("item", [command, None]), at
