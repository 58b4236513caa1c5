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


@pytest.mark.parametrize("grammar", GRAMMARS)
def test_the_keywords_read_from_the_shipped_data_are_the_parsers(grammar: str) -> None:
    """``string_terminals`` reads the shipped parser's data without loading the parser; it
    gives what the loaded parser's terminals say, and so does its way without shipped data."""
    from lark.lexer import PatternStr

    from referee.core import grammar as grammars

    parsers = frozenset(t.pattern.value.casefold() for t in game_parser(grammar).terminals
                        if isinstance(t.pattern, PatternStr))
    assert "turn" in parsers and "->" in parsers
    assert grammars.string_terminals.__wrapped__(grammar) == parsers
    shipped = grammars._shipped_blob
    try:
        grammars._shipped_blob = lambda _: None  # type: ignore[assignment]
        assert grammars.string_terminals.__wrapped__(grammar) == parsers
    finally:
        grammars._shipped_blob = shipped


def test_a_log_read_whole_by_the_fast_readers_loads_no_parser() -> None:
    """Lark's parser is loaded by the first line a fast reader leaves to it (and a log of
    nothing else loads none): the same entries and problems either way."""
    from referee.core import grammar as grammars
    from referee.core import parsing

    loaded: list[str] = []
    real = parsing.game_parser

    def counted(name: str) -> object:
        loaded.append(name)
        return real(name)

    text = (LOGS / "arnhem44" / "three-players.log").read_text(encoding="utf-8")
    before = parsing.parse_log(text)
    parsing._memos.clear()
    try:
        parsing.game_parser = counted  # type: ignore[assignment]
        after = parsing.parse_log(text)
        assert loaded == [] and len(after.entries) > 600
        parsing._memos.clear()
        bad = parsing.parse_log(text + "turn 3\nexpect nothing here\ngerman: move ! x\n")
        assert loaded == ["arnhem44.lark"] * 3 and bad.problems
    finally:
        parsing.game_parser = real  # type: ignore[assignment]
        parsing._memos.clear()
    assert [repr(e) for e in after.entries] == [repr(e) for e in before.entries]
    assert after.problems == before.problems == []
    assert grammars.game_parser("arnhem44.lark") is real("arnhem44.lark")
