"""Issue 31: a plain tag line read without Lark (``quicktree.tag_tree``) gives the very tree
Lark's parser gives it in every game (grammar/common.lark: ``tag: "[" TAG_NAME TAG_VALUE
"]"``), every token's type, text and position alike, or ``None`` and Lark reads the line.
Checked on every tag of the bundled logs and on mangled variants of them."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from lark import Token, Tree
from lark.exceptions import LarkError

from referee.core.grammar import game_parser
from referee.core.quicktree import tag_tree, token

LOGS = Path(__file__).resolve().parents[2] / "logs"
GRAMMARS = ("battle_card.lark", "wwiic.lark", "koenig_eindhoven.lark", "arnhem44.lark")
TAGS = sorted({line for path in LOGS.glob("*/*.log")
               for line in path.read_text(encoding="utf-8").splitlines()
               if line.startswith("[")})


def _shape(tree: Any) -> Any:
    if isinstance(tree, Token):
        return (tree.type, str(tree), tree.start_pos, tree.line, tree.column, tree.end_line,
                tree.end_column, tree.end_pos)
    if isinstance(tree, Tree):
        return (tree.data, [_shape(child) for child in tree.children])
    return tree


def _agrees(grammar: str, line: str) -> bool:
    quick = tag_tree(line)
    if quick is None:
        return True
    try:
        return _shape(quick) == _shape(game_parser(grammar).parse(line))
    except LarkError:
        return False


def test_a_token_is_made_as_lark_makes_it() -> None:
    made = token("WORD", "Grave", 7)
    lark = Token("WORD", "Grave", 7, 1, 8, 1, 13, 12)
    assert _shape(made) == _shape(lark) and made == lark and made.value == "Grave"


@pytest.mark.parametrize("grammar", GRAMMARS)
def test_every_tag_of_the_logs_is_read_as_lark_reads_it(grammar: str) -> None:
    assert len(TAGS) > 20
    for line in TAGS:
        assert tag_tree(line) is not None, line
        assert _agrees(grammar, line), line


ODD = ('[Game "a#b"] # c', '[ Game  "x" ]', '[Game "x\\"y"]', '[Game "x\\y"]', '[Game x]',
       '[Game "x"', '[Game "x"]]', '[1Game "x"]', '[Game "x" "y"]', '[Game\t"x"]\t',
       '[Game #c "x"]', '[Ga-me "x"]', '[Game "x"] junk', '[Game ""]', '[Game "\u00e9"]')


def test_odd_and_mangled_tags() -> None:
    for line in ODD:
        assert _agrees("wwiic.lark", line), line
    rng = random.Random(27)
    alphabet = ' \t"\\[]#_aZ09-'
    for _ in range(3000):
        line = rng.choice(TAGS)
        at = rng.randrange(len(line) + 1)
        what = rng.randrange(3)
        if what == 0:
            line = line[:at] + rng.choice(alphabet) + line[at:]
        elif what == 1:
            line = line[:at] + line[at + 1:]
        else:
            line = line[:at] + rng.choice(alphabet) + line[at + 1:]
        assert _agrees(rng.choice(GRAMMARS), line), repr(line)
