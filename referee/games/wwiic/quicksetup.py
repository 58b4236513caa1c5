"""WWII Commander set-up lines (``setup: clear; turn 9; weather clear; place 44RT Geldorp
strength 1; control Geldorp allied``) read without Lark: the very tree Lark's parser gives
them (grammar/wwiic.lark's ``setup_item``, common.lark's ``setup``), tokens and their columns
alike, or ``None`` for any line not plainly that, which Lark then reads and explains.

A bundled log of a position opens with a few long set-up lines, and Lark read each of them
(issue 31: a third of what Lark still read in a replay of WWII Commander's logs).  Nothing
here resolves a name or judges a rule: ``position.build_setup`` makes each statement from the
tree as from Lark's.  ``tests/games/wwiic/test_quicksetup.py`` compares the two readings on
every set-up line of the bundled logs and on mangled variants of them.

Lark's contextual lexer reads a word spelt as a keyword as that keyword where the parser's
state allows both: after ``weather``, ``initiative`` and the like only a WORD may follow, so
any word is one there (``weather clear``); inside a run of words (a name) a word spelt as a
keyword sends the line to Lark, but for the keyword that ends the run (``strength``,
``turn``) after one word at least.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Tree

from referee.core.quicktree import is_face, token, word_run

Pieces = list[tuple[int, str]]

_FACE = frozenset({"turn", "time"})
"""``"turn"i FACE``, ``"time"i FACE``."""
_WORD = frozenset({"weather", "initiative", "impulse", "phase", "passed", "used"})
"""A keyword and one WORD (any word: only a WORD may follow the keyword)."""
_WORDS = frozenset({"remove", "eliminated", "control", "spent", "supply", "objective",
                    "polish"})
"""A keyword and a name (``words``)."""
_WORDS_TURN = frozenset({"crossed", "due"})
"""A keyword, a name, ``turn`` and a FACE."""


def setup_tree(pieces: Pieces, spelt: frozenset[str]) -> Tree[Any] | None:
    """Lark's tree of a set-up line from its pieces (``quickparse._PIECES``: ``setup``, a
    colon, then the items separated by semicolons), or ``None`` when they are not plainly
    that.  ``spelt``: the grammar's keywords, case-folded."""
    if len(pieces) < 3 or pieces[1][1] != ":":
        return None
    items: list[Tree[Any]] = []
    at, end = 2, len(pieces)
    while True:
        found = _item(pieces, at, spelt)
        if found is None:
            return None
        item, at = found
        items.append(item)
        if at == end:
            return Tree("start", [Tree("setup", items)])
        if pieces[at][1] != ";":
            return None
        at += 1


def _item(pieces: Pieces, at: int, spelt: frozenset[str]) -> tuple[Tree[Any], int] | None:
    """One ``setup_item`` from ``pieces[at]``: its tree and the index after it."""
    end = len(pieces)
    if at >= end:
        return None
    verb = pieces[at][1].lower()
    at += 1
    children: list[Any]
    if verb == "clear":
        children = []
    elif verb in _FACE:
        face = _face(pieces, at)
        if face is None:
            return None
        children = [face]
        at += 1
    elif verb in _WORD:
        if at >= end or not _is_word(pieces[at][1]):
            return None
        children = [token("WORD", pieces[at][1], pieces[at][0])]
        at += 1
    elif verb in _WORDS or verb == "place":
        found = _words(pieces, at, spelt, "strength" if verb == "place" else None)
        if found is None:
            return None
        words, at = found
        strength: Token | None = None
        if verb == "place" and at < end and pieces[at][1].lower() == "strength":
            strength = _face(pieces, at + 1)
            if strength is None:
                return None
            at += 2
        children = [words, strength] if verb == "place" else [words]
    elif verb in _WORDS_TURN:
        found = _words(pieces, at, spelt, "turn")
        if found is None:
            return None
        words, at = found
        if at >= end or pieces[at][1].lower() != "turn":
            return None
        face = _face(pieces, at + 1)
        if face is None:
            return None
        children = [words, face]
        at += 2
    else:
        return None
    return Tree("setup_" + verb, children), at


def _is_word(piece: str) -> bool:
    """``piece`` (a piece of ``quickparse._PIECES``) is a whole WORD."""
    return piece[0].isascii() and piece[0].isalnum()


def _face(pieces: Pieces, at: int) -> Token | None:
    """The FACE at ``pieces[at]``, if it is one."""
    if at < len(pieces) and is_face(pieces[at][1]):
        return token("FACE", pieces[at][1], pieces[at][0])
    return None


def _words(pieces: Pieces, at: int, spelt: frozenset[str],
           ender: str | None) -> tuple[Tree[Any], int] | None:
    """``WORD+`` from ``pieces[at]`` up to a semicolon, the end, or the keyword ``ender``
    after a word (``quicktree.word_run``)."""
    return word_run(pieces, at, spelt, _SEMICOLON, frozenset({ender}) if ender else _NONE)


_SEMICOLON = frozenset({";"})
_NONE: frozenset[str] = frozenset()
