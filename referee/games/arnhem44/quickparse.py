"""Arnhem '44 action lines read without Lark: every command of grammar/arnhem44.lark (a move,
``deploy``, ``barrage``, ``combat``, ``defuse``, ``end movement``, ``no support``...), with
its dice (``{d10: 3 7 | 1}``), a side before it and several commands separated by ``;``, as
the very tree Lark's parser gives it (tokens and their columns alike), or ``None`` for any
line that is not plainly such a line, which Lark then reads (and explains when it cannot):
set-up, turn and ``expect`` lines, chits (``{cup: ...}``), a word spelt as a keyword where the
grammar takes a name, any character the reading below does not expect.

Lark's LALR parser (its lexer and parser states, token by token) was a third of a replay with
an empty line memo, and the lines with dice a fifth of it once moves were read here (issue
31).  Nothing here resolves a name or judges a rule: ``commands.build`` makes the command
from the tree as from Lark's.  ``tests/games/arnhem44/test_quickparse.py`` compares the two
readings on every line of the bundled logs, self-played games and mangled variants of them.

Lark's contextual lexer takes a word spelt as a keyword for the keyword where the parser's
state allows the keyword, and for a WORD elsewhere; so a keyword is taken here only where the
grammar allows it next, and a line with a keyword where a name goes is left to Lark.  A run
of digits is a FACE where the grammar wants a count or a face and a WORD where it wants a
name (``collect 82``: the WORD, as Lark's lexer orders its terminals).
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token, Tree

from referee.core.quicktree import WORD, keywords, token
from referee.games.arnhem44.board import ALLIED, GERMAN
from referee.games.arnhem44.options import UK, US

_PIECES = re.compile(r"([ \t]*)(?:(->|[,:;{}|])|(" + WORD + r")|([^ \t]))")
"""What an action line is made of, piece by piece: the blanks before a piece (WS_INLINE,
ignored), then an arrow, a comma, colon, semicolon, brace or bar (group 2), or a word (group
3: a count, a face and a die are words of this shape too); any other character is a piece of
its own (group 4), and the line goes to Lark.  Read by ``findall`` (the pieces' places are
added up from their lengths): a match object a piece cost a third of the reading."""
_DIE = re.compile(r"[dD][0-9]{1,4}")
_SIDES = frozenset({ALLIED, GERMAN, UK, US})
"""The side prefixes read here (any other word before a colon goes to Lark)."""
_BARE = {"pass": "pass_", "initiative": "initiative", "weather": "weather",
         "landing": "landing", "supply-drop": "supply_drop", "withdraw-order": "withdraw_order",
         "resign": "resign"}
"""Commands of one keyword and nothing else, and their trees' names."""
_PLACING = frozenset({"deploy", "enter", "reinforce"})
"""``"deploy"i groups words`` and its kin."""


_VERBS = frozenset({"move", "deploy", "enter", "reinforce", "barrage", "combat", "defuse",
                    "detonate", "end", "no", "pass", "rig", "reveal", "swap", "build",
                    "reserves", "invade", "initiative", "weather", "bailey", "withdraw",
                    "anti-aircraft", "supply-drop", "landing", "fall-back", "support", "first",
                    "withdraw-order", "reserve-order", "joker", "collect", "token", "resign"})
"""The keywords that start a command."""


class _Lark(Exception):
    """The line is not plainly one the reading below takes: Lark reads it."""


class _Reader:
    """The pieces of one line (start, text, kind) and the place reached in them.  The kind
    of a piece: ``w`` a WORD not spelt as a keyword, ``k`` a keyword (its text case-folded
    in ``folded``), ``p`` punctuation (its text)."""

    __slots__ = ("at", "folded", "kinds", "pieces", "starts", "texts")

    def __init__(self, text: str, spelt: frozenset[str]) -> None:
        # ``text`` is ASCII (``action_tree``), so ``lower`` is its case-folding.
        self.starts: list[int] = []
        self.texts: list[str] = []
        self.kinds: list[str] = []
        self.folded: list[str] = []
        starts, texts, kinds, folds = self.starts, self.texts, self.kinds, self.folded
        at = 0
        for blanks, mark, word, other in _PIECES.findall(text):
            if other:
                raise _Lark
            at += len(blanks)
            starts.append(at)
            if mark:
                texts.append(mark)
                kinds.append(mark)
                folds.append(mark)
                at += len(mark)
            else:
                folded = word.lower()
                texts.append(word)
                kinds.append("k" if folded in spelt else "w")
                folds.append(folded)
                at += len(word)
        self.pieces = len(texts)
        self.at = 0

    def kind(self) -> str:
        """The kind of the next piece ('' at the end)."""
        return self.kinds[self.at] if self.at < self.pieces else ""

    def keyword(self, *spelt: str) -> str | None:
        """The next piece when it is one of the keywords ``spelt`` (taken), else None."""
        at = self.at
        if at < self.pieces and self.kinds[at] == "k" and self.folded[at] in spelt:
            self.at = at + 1
            return self.folded[at]
        return None

    def punctuation(self, piece: str) -> bool:
        """The next piece is ``piece`` (taken)."""
        if self.at < self.pieces and self.kinds[self.at] == piece:
            self.at += 1
            return True
        return False

    def expect(self, piece: str) -> None:
        if not self.punctuation(piece):
            raise _Lark

    def word(self) -> Token:
        """A WORD (not spelt as a keyword)."""
        at = self.at
        if at >= self.pieces or self.kinds[at] != "w":
            raise _Lark
        self.at = at + 1
        return token("WORD", self.texts[at], self.starts[at])

    def face(self) -> Token:
        """A FACE (ASCII digits alone)."""
        at = self.at
        if at >= self.pieces or self.kinds[at] != "w" or not self.texts[at].isdigit():
            raise _Lark  # (the text is ASCII: ``isdigit`` is [0-9]+)
        self.at = at + 1
        return token("FACE", self.texts[at], self.starts[at])

    def words(self) -> Tree[Any]:
        """``words: WORD+``."""
        at, kinds, texts, starts = self.at, self.kinds, self.texts, self.starts
        end = self.pieces
        if at >= end or kinds[at] != "w":
            raise _Lark
        found: list[Any] = []
        while at < end and kinds[at] == "w":
            found.append(token("WORD", texts[at], starts[at]))
            at += 1
        self.at = at
        return Tree("words", found)

    def groups(self) -> Tree[Any]:
        """``groups: group ("," group)*`` with ``group: FACE WORD``; a comma not followed by
        a count is left for the rule around the groups (a barrage's next shot)."""
        found = [Tree("group", [self.face(), self.word()])]
        while (self.at + 1 < self.pieces and self.kinds[self.at] == ","
               and self.kinds[self.at + 1] == "w"
               and self.texts[self.at + 1].isdigit()):
            self.at += 1
            found.append(Tree("group", [self.face(), self.word()]))
        return Tree("groups", found)

    def arrow(self) -> Token:
        at = self.at
        self.expect("->")
        return token("ARROW", "->", self.starts[at])

    def joker(self) -> Tree[Any] | None:
        """``[joker]``."""
        return Tree("joker", []) if self.keyword("joker") else None


def _command(read: _Reader) -> Tree[Any]:
    """One ``command`` of grammar/arnhem44.lark, its tree named as the grammar names it."""
    at = read.at
    if at >= read.pieces or read.kinds[at] != "k" or read.folded[at] not in _VERBS:
        raise _Lark
    verb = read.folded[at]
    read.at = at + 1
    if verb in _BARE:
        return Tree(_BARE[verb], [])
    if verb == "move":
        groups = read.groups()
        route: list[Any] = [read.words()]
        while read.kind() == "->":
            route += [read.arrow(), read.words()]
        if len(route) < 3:
            raise _Lark
        return Tree("move", [groups, Tree("route", route)])
    if verb in _PLACING:
        return Tree(verb, [read.groups(), read.words()])
    if verb == "barrage":
        shots = [_shot(read)]
        while read.punctuation(","):
            shots.append(_shot(read))
        return Tree("barrage", [*shots, read.joker()])
    if verb == "combat":
        children: list[Any] = [read.words()]
        while read.keyword("joker"):
            children.append(Tree("joker_by", [read.word()]))
        return Tree("combat", children)
    if verb == "defuse" or verb == "detonate":
        bridge = read.word()
        crate = read.face() if read.keyword("crate") else None
        return Tree(verb, [bridge, crate, read.joker()])
    if verb == "end":
        done = read.keyword("setup", "movement")
        if done is None:
            raise _Lark
        return Tree(f"end_{done}", [])
    if verb == "no":
        what = read.keyword("support", "barrage", "joker")
        if what is None:
            raise _Lark
        return Tree("no_support", [read.joker()]) if what == "support" else Tree(f"no_{what}", [])
    if verb == "rig":
        bridge = read.word()
        if read.keyword("hidden"):
            return Tree("rig", [bridge, read.word()])
        return Tree("rig", [bridge, read.face() if read.kind() == "w" else None])
    if verb == "reveal" or verb == "swap":
        return Tree(verb, [read.face()])
    if verb == "build" or verb == "first" or verb == "collect":
        return Tree(verb, [read.word()])  # collect's digits: a WORD (the module's docstring)
    if verb == "reserves":
        return Tree("reserves", [read.word() if read.kind() == "w" else None])
    if verb == "invade":
        children = [read.words()]
        while read.keyword("from"):
            where = read.words()
            read.expect(":")
            children.append(Tree("source", [where, read.groups()]))
        if len(children) < 2:
            raise _Lark
        return Tree("invade", [*children, read.joker()])
    if verb == "fall-back":
        return Tree("fall_back", [read.groups(), read.words(), read.arrow(), read.words(),
                                  read.joker()])
    if verb == "withdraw":
        return Tree("withdraw", [read.groups(), read.words(), read.arrow(), read.words()])
    if verb == "bailey":
        return Tree("bailey", [read.word(), read.groups(), read.words(), read.arrow(),
                               read.words()])
    if verb == "support":
        return Tree("support", [read.groups(), read.joker()])
    if verb == "reserve-order":
        return Tree("reserve_order", [read.groups()])
    if verb == "joker":
        if not read.keyword("move"):
            raise _Lark
        return Tree("joker_move", [read.words()])
    if verb == "anti-aircraft":
        return Tree("anti_aircraft", [read.words()])
    # "token"i words (the last of the verbs listed above)
    return Tree("token", [read.words()])


def _shot(read: _Reader) -> Tree[Any]:
    """``shot: groups words ARROW words``."""
    return Tree("shot", [read.groups(), read.words(), read.arrow(), read.words()])


def _dice(read: _Reader) -> Tree[Any] | None:
    """``[dice]``: ``"{" DIE ":" dice_group ("|" dice_group)* "}"`` (chits go to Lark)."""
    if not read.punctuation("{"):
        return None
    at = read.at
    if read.kind() != "w" or _DIE.fullmatch(read.texts[at]) is None:
        raise _Lark
    read.at += 1
    children: list[Any] = [token("DIE", read.texts[at], read.starts[at])]
    read.expect(":")
    at, end, kinds, texts, starts = read.at, read.pieces, read.kinds, read.texts, read.starts
    while True:
        faces: list[Any] = []
        while at < end and kinds[at] == "w" and texts[at].isdigit():  # FACE (ASCII digits)
            faces.append(token("FACE", texts[at], starts[at]))
            at += 1
        if not faces or at >= end or kinds[at] == "w":
            raise _Lark  # no face, or a word that is none
        children.append(Tree("dice_group", faces))
        if kinds[at] != "|":
            break
        at += 1
    read.at = at
    read.expect("}")
    return Tree("dice", children)


def action_tree(line: str) -> Tree[Any] | None:
    """Lark's tree of ``line`` when it is a plain action line (``action: [side_prefix] item
    (";" item)*``), else ``None``."""
    if "\n" in line or "\r" in line:
        return None  # a character a comment may hide, or a second line: Lark
    text = line.split("#", 1)[0]  # a comment starts at the first '#' (no token holds one)
    if not text.isascii():
        return None  # no piece read here holds any other character: Lark
    try:
        read = _Reader(text, keywords("arnhem44.lark"))
        side: Tree[Any] | None = None
        if read.pieces > 1 and read.kinds[1] == ":":
            if read.kinds[0] != "w" or read.folded[0] not in _SIDES:
                raise _Lark
            side = Tree("side_prefix", [read.word()])
            read.at = 2
        items: list[Any] = [side]
        while True:
            command = _command(read)
            items.append(Tree("item", [command, _dice(read)]))
            if not read.punctuation(";"):
                break
        if read.at != read.pieces:
            raise _Lark
    except (_Lark, IndexError):
        return None
    return Tree("start", [Tree("action", items)])


move_tree = action_tree
"""The name this reader had when it took moves only."""
