"""What an engine's fast reader of its commonest lines shares (``Engine.quick_tree``): the
WORD of grammar/common.lark, a token placed as Lark's lexer places it, and the grammar's
keywords; and the readers of the lines every game writes alike (a tag, ``tag_tree``; an
expectation, ``expect_tree``).

A fast reader gives the very tree Lark's parser gives a line (every token's type, text and
position), or ``None`` and Lark reads the line (and explains it when it cannot).  Lark's
contextual lexer may take a word spelt as a keyword for the keyword where the parser's state
allows both, so a fast reader leaves every line naming a keyword to Lark.  Nothing here
resolves a name or judges a rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from lark import Token, Tree

from referee.core.grammar import string_terminals

WORD = r"[A-Za-z0-9][A-Za-z0-9.\/'_]*(?:-+[A-Za-z0-9.\/'_]+)*"
"""grammar/common.lark's WORD (its FACE, ``[0-9]+``, is a WORD of digits alone)."""

_IS_WORD = re.compile(WORD)
_IS_FACE = re.compile(r"[0-9]+")
_IS_DIE = re.compile(r"[dD][0-9]{1,4}")


def token(kind: str, text: str, start: int) -> Token:
    """A token of a one-line text as Lark's lexer makes it (line 1, 1-based columns).  Made
    as Lark's own ``Token._future_new`` makes it, without the checks of its keyword
    arguments around it (a quarter of the cost; the fast readers' tests compare every
    attribute with Lark's tokens)."""
    end = start + len(text)
    made: Token = str.__new__(Token, text)
    made.type = kind
    made.start_pos = start
    made.value = text
    made.line = 1
    made.column = start + 1
    made.end_line = 1
    made.end_column = end + 1
    made.end_pos = end
    return made


@cache
def keywords(grammar_file: str) -> frozenset[str]:
    """The keywords of a game's grammar (``"joker"i``, ``"from"i``...), case-folded."""
    return string_terminals(grammar_file)


def is_word(piece: str, spelt: frozenset[str]) -> bool:
    """``piece`` is a WORD not spelt as one of the keywords ``spelt``."""
    return _IS_WORD.fullmatch(piece) is not None and piece.casefold() not in spelt


def is_face(piece: str) -> bool:
    """``piece`` is grammar/common.lark's FACE (ASCII digits)."""
    return _IS_FACE.fullmatch(piece) is not None


def is_die(piece: str) -> bool:
    """``piece`` is grammar/common.lark's DIE (``d6``, ``D10``)."""
    return _IS_DIE.fullmatch(piece) is not None


def action_items(side: Tree[Any] | None, pieces: Sequence[tuple[Any, ...]], at: int,
                item: Callable[[int], tuple[Tree[Any], int] | None]) -> Tree[Any] | None:
    """grammar/common.lark's ``action``: the ``side`` prefix read already, then the line's
    items from ``at``, each read by ``item`` (the game's reader of one item at an index: its
    tree and the index after it), separated by ``;`` up to the end of ``pieces``.  The tree
    Lark gives, or None when the pieces are not plainly that."""
    items: list[Tree[Any]] = []
    while True:
        found = item(at)
        if found is None:
            return None
        tree, at = found
        items.append(tree)
        if at == len(pieces):
            return Tree("start", [Tree("action", [side, *items])])
        if pieces[at][1] != ";":
            return None
        at += 1


def word_run(pieces: Sequence[tuple[int, str]], at: int, spelt: frozenset[str],
             ends: frozenset[str], enders: frozenset[str] = frozenset()
             ) -> tuple[Tree[Any], int] | None:
    """``words: WORD+`` from ``pieces[at]`` ((start, text) each) up to a piece of ``ends``,
    the end, or a keyword of ``enders`` after a word: the tree and where it ends, or ``None``
    for no word, a word spelt as a keyword anywhere else (``spelt``, case-folded), or any
    other piece.  A word of digits alone is a WORD here (``406``): no FACE stands where a
    name does."""
    tokens: list[Any] = []
    end = len(pieces)
    while at < end:
        piece_at, piece = pieces[at]
        if piece in ends:
            break
        first = piece[0]  # a whole WORD (``WORD``): the pieces are words or marks
        lowered = piece.lower()
        if not (first.isascii() and first.isalnum()) or lowered in spelt:
            if tokens and lowered in enders:
                break
            return None
        tokens.append(token("WORD", piece, piece_at))
        at += 1
    if not tokens:
        return None
    return Tree("words", tokens), at


def dice_tree(pieces: Sequence[tuple[Any, ...]], at: int) -> tuple[Tree[Any], int] | None:
    """grammar/common.lark's ``DIE ":" dice_group ("|" dice_group)* "}"`` read from
    ``pieces`` (each a piece's start and text, first) at ``at``, just after the brace: the
    tree Lark gives and the index after the closing brace, or None when the pieces are not
    plainly that."""
    if at + 2 >= len(pieces) or not is_die(pieces[at][1]) or pieces[at + 1][1] != ":":
        return None
    die = token("DIE", pieces[at][1], pieces[at][0])
    at += 2
    groups: list[Tree[Any]] = []
    faces: list[Any] = []
    while at < len(pieces):
        piece_at, piece = pieces[at][0], pieces[at][1]
        at += 1
        if is_face(piece):
            faces.append(token("FACE", piece, piece_at))
        elif piece in ("|", "}") and faces:
            groups.append(Tree("dice_group", faces))
            faces = []
            if piece == "}":
                return Tree("dice", [die, *groups]), at
        else:
            return None
    return None


_TAG = re.compile(r'[ \t]*(\[)[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*("(?:[^"\\\n]|\\["\\])*")'
                  r'[ \t]*\][ \t]*(?:#[^\n]*)?')
"""A tag line of grammar/common.lark (``[Game "wwiic"]``): TAG_NAME, TAG_VALUE, blanks
between them and a comment after them, which Lark ignores."""


def tag_tree(line: str) -> Tree[Any] | None:
    """Lark's tree of a plain tag line (``tag: "[" TAG_NAME TAG_VALUE "]"``, the same in
    every game's grammar), or ``None`` for any other line.  Tags open every log."""
    found = _TAG.fullmatch(line)
    if found is None:
        return None
    name, value = found.group(2), found.group(3)
    return Tree("start", [Tree("tag", [token("TAG_NAME", name, found.start(2)),
                                       token("TAG_VALUE", value, found.start(3))])])


_EXPECT = re.compile(r"[ \t]*[Ee][Xx][Pp][Ee][Cc][Tt][ \t]+(" + WORD + r")[ \t]*=[ \t]*"
                     r"([^ \t#\n][^#\n]*)(?:#[^\n]*)?")
"""An expectation of grammar/common.lark (``expect vp.objective = 24``): ``"expect"i`` (a
whole WORD: blanks after it), the key (a WORD), ``=``, and EXPECT_VALUE (the rest of the line
up to a comment, blanks after the value kept as Lark keeps them), blanks between them and a
comment after them, which Lark ignores."""


def expect_tree(line: str) -> Tree[Any] | None:
    """Lark's tree of a plain expectation line (``expectation: "expect"i WORD "="
    EXPECT_VALUE``, the same in every game's grammar), or ``None`` for any other line.  Only a
    WORD may follow ``expect`` and only EXPECT_VALUE the ``=``, so Lark's contextual lexer
    reads a key or value spelt as a keyword as the WORD or value it is here."""
    found = _EXPECT.fullmatch(line)
    if found is None:
        return None
    key, value = found.group(1), found.group(2)
    return Tree("start", [Tree("expectation", [
        token("WORD", key, found.start(1)),
        token("common__EXPECT_VALUE", value, found.start(2))])])
