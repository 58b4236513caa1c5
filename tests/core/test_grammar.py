"""The shared grammar: names never swallow operators; errors are sentences with columns."""

from __future__ import annotations

import pytest
from lark import Token

from referee.core.errors import LogSyntaxError
from referee.core.grammar import game_parser
from referee.core.parsing import parse_log


def tokens(grammar: str, line: str) -> list[tuple[str, str]]:
    tree = game_parser(grammar).parse(line)
    return [(t.type, str(t)) for t in tree.scan_values(lambda v: isinstance(v, Token))]


def test_regression_mook_arrow_groesbeek_lexes_as_name_arrow_name() -> None:
    """'Mook->Groesbeek' must be a name, an arrow and a name: the hyphen of '->' is never
    part of a name."""
    found = tokens("wwiic.lark", "allied: activate 505/82 Mook->Groesbeek")
    assert ("WORD", "Mook") in found and ("ARROW", "->") in found
    assert ("WORD", "Groesbeek") in found
    assert all("->" not in value for kind, value in found if kind == "WORD")


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("move 30-corps Belgium->Eindhoven", ["30-corps", "Belgium", "Eindhoven"]),
        ("move St-Oedenrode-corps A->B", ["St-Oedenrode-corps", "A", "B"]),
        ("move x A-->B", None),
    ],
)
def test_hyphens_inside_names_but_not_before_an_arrow(line: str, words: list[str] | None) -> None:
    if words is None:
        with pytest.raises(Exception):  # noqa: B017 - any Lark error: "-->" is not a word
            game_parser("battle_card.lark").parse(line)
        return
    found = [value for kind, value in tokens("battle_card.lark", line) if kind == "WORD"]
    assert found == words


def test_multi_word_names_are_words_for_the_game_to_resolve() -> None:
    found = tokens("wwiic.lark", "allied: activate 2HC De Groote->Valkenswaard")
    words = [v for k, v in found if k == "WORD"]
    assert words == ["allied", "2HC", "De", "Groote", "Valkenswaard"]


def test_a_syntax_error_says_what_was_expected_in_words() -> None:
    log = parse_log('[Game "battle-card"]\nattack Grave {d6 4}\n')
    (problem,) = log.problems
    assert problem.line == 2 and problem.column == 18
    assert problem.message == "unexpected '4'; expected ':'."


def test_an_unknown_first_word_is_not_a_command_with_a_suggestion() -> None:
    log = parse_log('[Game "battle-card"]\ndefned Grave\n')
    (problem,) = log.problems
    assert problem.column == 1
    assert problem.message.startswith("'defned' is not a command; did you mean 'defend'?")


def test_every_bad_line_is_reported_in_one_run() -> None:
    log = parse_log('[Game "battle-card"]\nattack\npass pass\n{d6: 1}\nturn x\n')
    assert [p.line for p in log.problems] == [2, 3, 4, 5]
    assert all(isinstance(p.message, str) and "expected" in p.message for p in log.problems)


def test_parser_is_built_once_per_process() -> None:
    assert game_parser("battle_card.lark") is game_parser("battle_card.lark")


def test_syntax_error_class_carries_the_column() -> None:
    error = LogSyntaxError("x", column=3)
    assert error.to_problem(line=7).column == 3
