"""The commonest Arnhem '44 line, a move (``german: move 2 inf, 1 tank Arnhem->Velp``), and its
kin that place figures (``deploy``, ``enter``, ``reinforce`` GROUPS SECTOR), read without Lark:
the very tree Lark's parser gives it (grammar/arnhem44.lark, ``move groups route``), tokens and
their columns alike, or ``None`` for any line that is not plainly such a line, which Lark then
reads (and explains when it cannot).

Moves are about two in five of the lines of a game, and Lark's LALR parser (its lexer and
parser states, token by token) was a third of a replay with an empty line memo (issue 31).
Nothing here resolves a name or judges a rule: ``commands.build`` makes the command from the
tree as from Lark's.  ``tests/games/arnhem44/test_quickparse.py`` compares the two readings on
every line of the bundled logs, self-played games and mangled variants of them.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Tree

from referee.core.quicktree import WORD, is_word, keywords, token
from referee.games.arnhem44.board import ALLIED, GERMAN
from referee.games.arnhem44.options import UK, US

_PIECES = re.compile(r"[ \t]+|->|" + WORD + r"|[,:]|.")
"""What a move line is made of: blanks (WS_INLINE, ignored), an arrow, a word, a comma or a
colon; any other character is a piece of its own, and the line goes to Lark."""
_PLACING = frozenset({"move", "deploy", "enter", "reinforce"})
"""The commands read here: ``"move"i groups route`` and ``"deploy"i groups words`` (``enter``,
``reinforce`` alike), whose trees are named after them."""
_SIDES = frozenset({ALLIED, GERMAN, UK, US})
"""The side prefixes read here (any other word before a colon goes to Lark)."""


def move_tree(line: str) -> Tree[Any] | None:
    """Lark's tree of ``line`` when it is a plain move (or set-up deployment, reserves'
    entry, German reinforcement: figures and a sector), else ``None``."""
    if ";" in line or "{" in line or "\n" in line or "\r" in line:
        return None  # several commands, dice, or a character a comment may hide: Lark
    text = line.split("#", 1)[0]  # a comment starts at the first '#' (no token holds one)
    pieces = [(found.start(), found.group()) for found in _PIECES.finditer(text)
              if not found.group().isspace() or found.group().strip(" \t")]
    # Now (start, text) of each piece but the blanks: [side ":"] "move" groups route.
    at = 0
    side: Tree[Any] | None = None
    if len(pieces) > 1 and pieces[1][1] == ":":
        if pieces[0][1].casefold() not in _SIDES:
            return None
        side = Tree("side_prefix", [token("WORD", pieces[0][1], pieces[0][0])])
        at = 2
    verb = pieces[at][1].casefold() if len(pieces) > at else ""
    if verb not in _PLACING or len(pieces) < at + (6 if verb == "move" else 4):
        return None
    spelt = keywords("arnhem44.lark")
    at += 1
    groups: list[Tree[Any]] = []
    while True:
        (count_at, count), (kind_at, kind) = pieces[at], pieces[at + 1]
        if (not count.isdigit() or not count.isascii() or not is_word(kind, spelt)
                or kind_at == count_at + len(count)):  # "2inf" is a word: Lark's reading
            return None
        groups.append(Tree("group", [token("FACE", count, count_at),
                                     token("WORD", kind, kind_at)]))
        at += 2
        if at >= len(pieces) or pieces[at][1] != ",":
            break
        at += 1
        if at + 1 >= len(pieces):
            return None
    route: list[Any] = []
    words: list[Any] = []
    for piece_at, piece in pieces[at:]:
        if piece == "->" and verb == "move":
            if not words:
                return None
            route.append(Tree("words", words))
            route.append(token("ARROW", piece, piece_at))
            words = []
        elif is_word(piece, spelt):
            words.append(token("WORD", piece, piece_at))
        else:
            return None
    if not words:
        return None  # no sector, or an arrow at the end
    if verb != "move":  # deploy, enter, reinforce: "groups words"
        command = Tree(verb, [Tree("groups", groups), Tree("words", words)])
    elif len(route) < 2:
        return None  # a move with no arrow
    else:
        route.append(Tree("words", words))
        command = Tree("move", [Tree("groups", groups), Tree("route", route)])
    return Tree("start", [Tree("action", [side, Tree("item", [command, None])])])
