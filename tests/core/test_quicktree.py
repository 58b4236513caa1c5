"""Issue 31: a plain tag line read without Lark (``quicktree.tag_tree``) gives the very tree
Lark's parser gives it in every game (grammar/common.lark: ``tag: "[" TAG_NAME TAG_VALUE
"]"``), every token's type, text and position alike, or ``None`` and Lark reads the line.
Checked on every tag of the bundled logs and on mangled variants of them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from lark import Token

from referee.core.grammar import game_parser
from referee.core.quicktree import tag_tree, token
from tests.quick_reading import lark_shape, mangled, shape

LOGS = Path(__file__).resolve().parents[2] / "logs"
GRAMMARS = ("battle_card.lark", "wwiic.lark", "koenig_eindhoven.lark", "arnhem44.lark")
TAGS = sorted({line for path in LOGS.glob("*/*.log")
               for line in path.read_text(encoding="utf-8").splitlines()
               if line.startswith("[")})


def _agrees(grammar: str, line: str) -> bool:
    tree = tag_tree(line)
    return tree is None or shape(tree) == lark_shape(game_parser(grammar), line)


def test_a_token_is_made_as_lark_makes_it() -> None:
    made = token("WORD", "Grave", 7)
    lark = Token("WORD", "Grave", 7, 1, 8, 1, 13, 12)
    assert shape(made) == shape(lark) and made == lark and made.value == "Grave"


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
    rng = random.Random(28)
    for line in mangled(TAGS, ' \t"\\[]#_aZ09-', 3000, seed=27):
        assert _agrees(rng.choice(GRAMMARS), line), repr(line)
