"""Issue 31: a plain WWII Commander action line or turn assertion read without Lark
(``quickparse.quick_tree``) gives the very tree Lark's parser gives (grammar/wwiic.lark:
``activate``, ``move-out``, ``attack``, ``hits``, ``retreat``, ``breakthrough``, ``reinforce``,
``replace``, ``pass``, ``weather``, ``no attack``, ``no breakthrough``, each with its dice;
``turn N``), with every token's type, text and position, or ``None`` and Lark reads the line.
Checked on every line of the bundled WWII Commander logs, of self-played games, and of
mangled variants of their lines (a character put in, taken out or changed, a word spelt as a
keyword), so that no line the fast reading takes is read otherwise by Lark, or refused by
it."""

from __future__ import annotations

import random
from typing import Any

from referee.core.grammar import game_parser
from referee.core.quicktree import keywords
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.quickparse import quick_tree
from tests.quick_reading import agrees, lark_shape, log_lines, mangled, shape

LARK = game_parser(ENGINE.grammar)


LINES = log_lines(ENGINE, "wwiic", 6, "**/*.log")


def _lark(line: str) -> Any:
    return lark_shape(LARK, line)


def _agrees(line: str) -> bool:
    return agrees(quick_tree, LARK, line)


def _taken() -> list[str]:
    return [line for line in LINES if quick_tree(line) is not None]


def test_every_action_line_of_the_logs_is_read_as_lark_reads_it() -> None:
    taken = 0
    for line in LINES:
        quick = quick_tree(line)
        if quick is not None:
            taken += 1
            assert shape(quick) == _lark(line), line
    commands = [line for line in LINES if line.strip() and not line.startswith(
        ("[", "#", "setup", "expect"))]
    assert taken >= 0.95 * len(commands) > 1000  # the fast reading takes nearly every one


def test_mangled_lines_are_read_as_lark_reads_them_or_left_to_it() -> None:
    for line in mangled(_taken(), " \t,:;->#{}|0123456789aZdD.'/_\r\x0c", 6000, seed=31):
        assert _agrees(line), repr(line)


def test_lines_naming_keywords_are_read_as_lark_reads_them() -> None:
    """A word spelt as one of the grammar's keywords (``strategic``, ``with``, ``no``...)
    wherever it stands: Lark's contextual lexer reads it as the keyword where the parser's
    state allows both."""
    rng = random.Random(33)
    taken = _taken()
    words = sorted(keywords("wwiic.lark"))
    for _ in range(3000):
        parts = rng.choice(taken).split(" ")
        at = rng.randrange(len(parts))
        word = rng.choice(words)
        parts[at] = rng.choice((word, word.upper(), word + "x", parts[at] + word,
                                f"{word} {parts[at]}", f"{parts[at]} {word}"))
        assert _agrees(" ".join(parts)), parts


ODD = (
    "allied: activate 505/82 Mook->Groesbeek", "ALLIED : ACTIVATE 505/82 Mook ->Groesbeek#x",
    "\tallied:\tactivate\t505/82\tMook->Groesbeek  ", "activate 505/82",
    "allied: activate 2HC De Groote->Valkenswaard->Eindhoven strategic",
    "allied: activate 2HC De Groote->Valkenswaard Strategic With 4/43",
    "allied: activate B/504/82 Weurt->Oosterhaut with 4/43, 505/82 strategic with A B",
    "allied: activate B/504/82 Weurt->Oosterhaut with", "allied: activate A strategic B",
    "allied: activate strategic", "allied: activate with B", "allied: activate A with strategic",
    "allied: activate A strategic strategic", "allied: activate A with B with C",
    "allied: activate A->strategic", "allied: activate A->", "allied: activate ->A",
    "allied: activate A-->B", "allied: activate A, B", "allied: activate A,", "allied: activate",
    "allied: move-out 1A/1AB Heelsum->Doorwerth", "allied: move-out A, B",
    "german: activate 59 W1->Best; attack Best {d10: 1 2 | 3}", "german: attack Best {d10:}",
    "german: attack Best {d10 1}", "german: attack Best {cup: 1}", "german: attack {d10: 1}",
    "german: attack Best {d10: 1 |}", "german: attack Best {d10: | 1}", "attack Best {d10000: 4}",
    "attack Best {d99999: 4}", "attack Best {x10: 4}", "attack Best {d10: 04}; pass",
    "attack Best {d10: 4};", "attack Best {d10: 4} {d10: 5}", "attack 4 Grave", "attack Best 4",
    "allied: no attack", "allied: no  breakthrough", "allied: no", "allied: no pass",
    "allied: noattack", "no attack {d10: 3}", "weather", "weather {d10: 4}", "WEATHER {D10: 4}",
    "weather Best", "german: pass", "pass Best", "pass: pass", "1: pass", "allied:: pass",
    "allied: hits 505/82 B/504/82", "allied: hits 505/82; retreat 505/82->Groesbeek, "
    "B/504/82->Over Asselt", "allied: hits", "allied: hits none", "allied: hits A, B",
    "german: breakthrough 107Pz->Nuenen", "german: no breakthrough",
    "allied: reinforce P/1P Driel", "allied: reinforce A, B", "allied: replace 21G/5G, 32G",
    "allied: replace 21G/5G,", "allied: replace, A", "turn 2", "turn 2 PM", "TURN 02 x",
    "turn", "turn x", "turn 2 3", "turn 2 PM x", "turn 2 pass", "turn 2 #x", "turn: pass",
    "turn 2; pass", "setup: turn 3", "expect turn = 3", "  # activate A", "pass\x0b",
    "pass\u00a0", "attack Gr\u00e4ve", "allied: activate A->B # ;{", "allied: activate A\rB",
    "allied: pass # x\ny", "hits A {d10: 1}",
)


def test_odd_lines() -> None:
    """Lines at the edges of the grammar: a side in capitals, blanks and tabs, a comment
    right after a name, ``strategic`` and ``with`` in and out of their places, an item left
    empty, dice without faces or with a chit, a name of digits, an arrow at either end, a
    bare command with words after it, turn assertions of every shape."""
    for line in ODD:
        assert _agrees(line), line
    assert quick_tree("ALLIED : ACTIVATE 505/82 Mook ->Groesbeek#x") is not None
    assert quick_tree("turn 2 PM") is not None
    assert quick_tree("allied: activate with B") is None  # a keyword first: Lark decides
