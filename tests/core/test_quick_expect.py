"""Issue 31: a plain expectation read without Lark (``quicktree.expect_tree``) gives the very
tree Lark's parser gives it in every game (grammar/common.lark: ``expectation: "expect"i
WORD "=" EXPECT_VALUE``), every token's type, text and position alike, or ``None`` and Lark
reads the line; and so the same entry (key, value and column) or refusal in every game.
Checked on every expectation of the bundled logs, on mangled variants of them and on keys
and values spelt as the games' keywords."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from referee.core.errors import RefereeError
from referee.core.grammar import game_parser
from referee.core.parsing import _parse_line
from referee.core.quicktree import expect_tree, keywords
from referee.games import engine_for
from tests.quick_reading import lark_shape, mangled, shape, with_keywords

ROOT = Path(__file__).resolve().parents[2]
GRAMMARS = ("battle_card.lark", "wwiic.lark", "koenig_eindhoven.lark", "arnhem44.lark")
GAMES = ("battle-card", "wwiic", "koenig-eindhoven", "arnhem44")
EXPECTS = sorted({line.rstrip("\r") for folder in ("logs", "tests")
                  for path in (ROOT / folder).glob("**/*.log")
                  for line in path.read_text(encoding="utf-8").splitlines()
                  if line.lstrip().lower().startswith("expect")})


def _agrees(grammar: str, line: str) -> bool:
    tree = expect_tree(line)
    return tree is None or shape(tree) == lark_shape(game_parser(grammar), line)


@pytest.mark.parametrize("grammar", GRAMMARS)
def test_every_expectation_of_the_logs_is_read_as_lark_reads_it(grammar: str) -> None:
    assert len(EXPECTS) > 100
    for line in EXPECTS:
        assert expect_tree(line) is not None, line
        assert _agrees(grammar, line), line


class _Lark:
    """A game's engine reading every line with Lark (no fast reader)."""

    def __init__(self, game: str) -> None:
        engine = engine_for(game)
        self.grammar = engine.grammar
        self.build_command = engine.build_command
        self.build_setup = engine.build_setup


def _entry(engine: Any, line: str) -> Any:
    try:
        entry = _parse_line(None, engine, 5, line)
    except RefereeError as error:
        return ("refused", error.to_problem(line=5, text=line))
    return (type(entry), entry)


@pytest.mark.parametrize("game", GAMES)
def test_the_entries_are_those_of_lark(game: str) -> None:
    """The Expectation (key, value with its blanks made single, column) is Lark's, and a line
    the fast reader leaves is refused as Lark refuses it."""
    engine, lark = engine_for(game), _Lark(game)
    rng = random.Random(game)
    lines = EXPECTS + list(mangled(EXPECTS, " \t=#-.e", 300, seed=rng.randrange(99)))
    for line in lines:
        assert _entry(engine, line) == _entry(lark, line), line


ODD = ("expect a = 1", "EXPECT a=1", "Expect\ta\t=\t1\t", "  expect a = 1 2  3 # x", "expect",
       "expect a", "expect a =", "expect a = # x", "expect a == 1", "expect = 1", "expect a b = 1",
       "expectation a = 1", "expect.a = 1", "expect a-b = 1", "expect a- = 1", "expect a--b = 1",
       "expect -a = 1", "expect a = -5", "expect a = due turn 4", "expect turn = 3",
       "expect expect = expect", "expect a = =", "expect a = 1 \x0c", "expect a = \u00e9",
       "expect a\u00e9 = 1", "expect a = 1\ny", "expect a = 1\r", "expect: pass", "expect a=#",
       "# expect a = 1", "expect #a = 1", "expect a #= 1", "expect a = {d6: 3}", "expect a = 1;2")


def test_odd_lines() -> None:
    """Lines at the edges: capitals, tabs and blanks, a comment anywhere, a key or value
    missing, a key that is not one WORD, a value of keywords or signs."""
    rng = random.Random(5)
    for line in ODD:
        assert _agrees(rng.choice(GRAMMARS), line), repr(line)
    assert expect_tree("expect turn = 3") is not None  # only a WORD may follow "expect"


def test_mangled_lines_and_keywords() -> None:
    rng = random.Random(28)
    for line in mangled(EXPECTS, " \t=#-.eExX_09'/\u00a0", 4000, seed=27):
        assert _agrees(rng.choice(GRAMMARS), line), repr(line)
    for grammar in GRAMMARS:
        words = sorted(keywords(grammar))
        for line in with_keywords(EXPECTS, words, 1000, seed=29):
            assert _agrees(grammar, line), line


def test_a_broken_reader_is_caught() -> None:
    """The comparison has teeth: a value cut short by one character is not Lark's."""
    line = "expect vp.objective = 24 "
    tree: Any = expect_tree(line)
    value = tree.children[0].children[1]
    value.end_column -= 1
    assert shape(tree) != shape(game_parser("wwiic.lark").parse(line))
