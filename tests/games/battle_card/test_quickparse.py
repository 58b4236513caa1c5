"""Issue 31: a plain Battle Card action line read without Lark (``quickparse.action_tree``)
gives the very tree Lark's parser gives (grammar/battle_card.lark: ``attack``, ``defend``,
``move``, ``pass``, ``airdrop``, ``landing``, each with its dice), with every token's type,
text and position, or ``None`` and Lark reads the line.  Checked on every line of the bundled
Battle Card logs, of self-played games, and of mangled variants of their action lines (a
character put in, taken out or changed, a word spelt as a keyword), so that no line the fast
reading takes is read otherwise by Lark, or refused by it."""

from __future__ import annotations

import random
from typing import Any

from referee.core.grammar import game_parser
from referee.core.quicktree import keywords
from referee.games.battle_card import ENGINE
from referee.games.battle_card.quickparse import action_tree
from tests.quick_reading import agrees, lark_shape, log_lines, mangled, shape

LARK = game_parser(ENGINE.grammar)


LINES = log_lines(ENGINE, "battle-card", 20)


def _lark(line: str) -> Any:
    return lark_shape(LARK, line)


def _agrees(line: str) -> bool:
    return agrees(action_tree, LARK, line)


def _actions() -> list[str]:
    return [line for line in LINES if action_tree(line) is not None]


def test_every_action_line_of_the_logs_is_read_as_lark_reads_it() -> None:
    taken = 0
    for line in LINES:
        quick = action_tree(line)
        if quick is not None:
            taken += 1
            assert shape(quick) == _lark(line), line
    commands = [line for line in LINES if line.strip() and not line.startswith(
        ("[", "#", "turn", "setup", "expect")) and "cup" not in line]
    assert taken >= 0.9 * len(commands) > 200  # the fast reading takes nearly every one


def test_mangled_action_lines_are_read_as_lark_reads_them_or_left_to_it() -> None:
    for line in mangled(_actions(), " \t,:;->#{}|0123456789aZdD.'/_", 4000, seed=31):
        assert _agrees(line), repr(line)


def test_action_lines_naming_keywords_are_read_as_lark_reads_them() -> None:
    rng = random.Random(33)
    actions = _actions()
    words = sorted(keywords("battle_card.lark"))
    for _ in range(2000):
        parts = rng.choice(actions).split(" ")
        at = rng.randrange(len(parts))
        word = rng.choice(words)
        parts[at] = rng.choice((word, word.upper(), word + "x", parts[at] + word))
        assert _agrees(" ".join(parts)), parts


ODD = (
    "attack Eindhoven {d6: 4}", "ALLIED : ATTACK Eindhoven {D6: 4 5 | 6}#x",
    "\tallied:\tattack\tEindhoven\t{d6:\t4}  ", "attack Eindhoven {d6: 4}; defend Grave",
    "attack Eindhoven {d6: 4};", "attack Eindhoven {d6: 4} {d6: 5}", "attack {d6: 4}",
    "attack Eindhoven {d6:}", "attack Eindhoven {d6 4}", "attack Eindhoven {cup: 506}",
    "attack Eindhoven {d6: 4 |}", "attack Eindhoven {d6: | 4}", "attack 4 Grave",
    "attack Eindhoven 4", "move 30-corps Belgium->Eindhoven", "move 30-corps Belgium->",
    "move ->Eindhoven", "move 30-corps Belgium-->Eindhoven", "move a->b->c {d6: 1}",
    "pass", "PASS", "pass Grave", "pass {d6: 3}", "airdrop {d6: 3 5 1}", "landing {d6: 2}",
    "keeper: pass", "1: pass", "pass: pass", "allied:: pass", "turn 1", "setup: turn 3",
    "attack Eindhoven {d6: 4} # ;{", "  # attack Grave", "attack Grave\x0b",
    "attack Grave\u00a0", "attack Gr\u00e4ve", "attack Eindhoven {d10000: 4}",
    "attack Eindhoven {d99999: 4}", "attack Eindhoven {x6: 4}", "defend Grave {d6: 04}",
)


def test_odd_action_lines() -> None:
    """Lines at the edges of the grammar: a side in capitals, blanks and tabs, a comment
    right after the dice, an item left empty, dice without faces or with a chit, a name of
    digits, an arrow at either end, a bare command with words after it."""
    for line in ODD:
        assert _agrees(line), line
    assert action_tree("ALLIED : ATTACK Eindhoven {D6: 4 5 | 6}#x") is not None
    assert action_tree("attack 4 Grave") is None  # a name of digits: Lark decides its lexing
