"""The column of every kind of problem, pinned: where a player's eye is sent must not move when
the parser changes (positions computed without Lark's position propagation, the line memo).

Each case is a log (a header and lines) and the problems it gives, as (line, column, kind);
for syntax errors the message too.
"""

# ruff: noqa: E501  (a table of logs and their problems, one case a row)
from __future__ import annotations

import pytest

from referee.api import replay_text

CASES = {
    'unexpected character': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'attack Arnhem @',
        [(3, 15, 'syntax')], "unexpected '@'; expected ';', '{', a name or the end of the line."),
    'line ends too soon': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'attack',
        [(3, 7, 'syntax')], 'the line ends too soon; expected a name.'),
    'misread command': ('[Game "battle-card"]\n[Seed "17093953"]\n', '  atack Arnhem',
        [(3, 3, 'syntax')], "'atack' is not a command; did you mean 'attack'? Commands: airdrop, attack, defend, expect, landing, move, pass, setup, turn"),
    'unexpected token': ('[Game "battle-card"]\n[Seed "17093953"]\n', '  attack Arnhem {d6: 3} junk',
        [(3, 25, 'syntax')], "unexpected 'junk'; expected ';' or the end of the line."),
    'unexpected token in a tag': ('[Game "battle-card"]\n[Seed "17093953"]\n', '[Game "x"] junk',
        [(3, 12, 'syntax')], "unexpected 'junk'; expected the end of the line."),
    'unexpected token in wwiic': ('[Game "wwiic"]\n[Seed "1"]\n', 'allied: activate 21G/5G, ->',
        [(3, 26, 'syntax')], "unexpected '->'; expected a name."),
    'die face': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'attack Arnhem {d6: 9}',
        [(3, 20, 'dice-face')], None),
    'die face in wwiic': ('[Game "wwiic"]\n[Seed "1"]\n', 'weather {d10: 11}',
        [(3, 15, 'dice-face')], None),
    'number too large': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'attack Arnhem {d6: 99999999}',
        [(3, 20, 'limit')], None),
    'no such die': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'attack Arnhem {d1: 3}',
        [(3, 16, 'dice-face')], None),
    'unknown name': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'attack   Nowhere',
        [(3, 10, 'unknown-name')], None),
    'unknown name in a path': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'move 30-corps Belgium->Nowhere',
        [(3, 24, 'unknown-name')], None),
    'unknown name in wwiic': ('[Game "wwiic"]\n[Seed "1"]\n', 'allied: move-out 1P/1AB Heelsum->Nowhere',
        [(3, 34, 'unknown-name')], None),
    'unknown unit in wwiic': ('[Game "wwiic"]\n[Seed "1"]\n', 'allied: move-out 1P/1AB Heelsum->Renkum\nallied: activate  Nobody',
        [(4, 19, 'unknown-name')], None),
    'illegal move': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'turn 1\n   pass',
        [(4, 4, 'illegal-move')], None),
    'illegal move in wwiic': ('[Game "wwiic"]\n[Seed "1"]\n', 'allied: move-out 1P/1AB Heelsum->Renkum\nturn 1 PM\nallied: activate 21G/5G De Groote->Arnhem',
        [(5, 9, 'illegal-move')], None),
    'turn assertion': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'turn 1\nattack Eindhoven; attack Grave; attack Arnhem\npass\nturn   5',
        [(6, 8, 'assertion')], None),
    'turn assertion with a half': ('[Game "wwiic"]\n[Seed "1"]\n', 'turn 1 XX',
        [(3, 6, 'assertion')], None),
    'expectation': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'expect   cities.Arnhem.control = allied',
        [(3, 10, 'assertion')], None),
    'dice extra': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'allied: attack Eindhoven {d6: 3 4}',
        [(3, 33, 'dice-extra')], None),
    'dice mismatch': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'turn 1\nattack Eindhoven {d6: 1}; attack Grave {d6: 1}; attack Arnhem {d6: 1}',
        [(4, 45, 'dice-mismatch'), (4, 68, 'dice-mismatch')], None),
    'side not in the game': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'german: attack Eindhoven',
        [(3, 1, 'wrong-side')], None),
    'wrong side': ('[Game "wwiic"]\n[Seed "1"]\n', 'german:   move-out 1P/1AB Heelsum->Renkum',
        [(3, 1, 'missing-decision')], None),
    "referee's roll in a later item": ('[Game "battle-card"]\n', 'airdrop {d6: 1 1 1}\n  attack Eindhoven {d6: 1};   landing',
        [(3, 31, 'wrong-side')], None),
    # Game-turn 1 has no weather roll (4): the rule, not the step, says why.
    "referee's roll in wwiic": ('[Game "wwiic"]\n[Seed "1"]\n', 'allied: move-out 1P/1AB Heelsum->Renkum;   weather',
        [(3, 44, 'illegal-move')], None),
    'missing decision': ('[Game "battle-card"]\n', 'attack Eindhoven; landing',
        [(2, 1, 'missing-decision')], None),
    'unknown name in setup': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'setup: turn 3;  german   Nowhere strength 3',
        [(3, 26, 'unknown-name')], None),
    'setup value': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'setup: turn 3; german Eindhoven strength 9',
        [(3, 16, 'illegal-move')], None),
    'setup item without a column of its own': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'setup: turn 3;   german Eindhoven strength 3; place 101st Eindhoven strength 9',
        [(3, 47, 'illegal-move')], None),
    'setup corps': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'setup: turn 3;   corps Nowhere',
        [(3, 24, 'unknown-name')], None),
    'setup box': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'setup: turn 3;   box maybe',
        [(3, 22, 'illegal-move')], None),
    'setup step': ('[Game "battle-card"]\n[Seed "17093953"]\n', 'setup: turn 3;   step nowhere',
        [(3, 23, 'illegal-move')], None),
    'unknown unit in wwiic setup': ('[Game "wwiic"]\n[Seed "1"]\n', 'setup: turn 3;  eliminated Nobody',
        [(3, 28, 'unknown-name')], None),
    'wwiic setup value': ('[Game "wwiic"]\n[Seed "1"]\n', 'setup:  place 1P/1AB Arnhem strength 9',
        [(3, 9, 'illegal-move')], None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_column_of_each_kind_of_problem(name: str) -> None:
    head, body, expected, message = CASES[name]
    for _ in range(2):  # the second time the lines come from the memo
        report = replay_text(head + body + "\n")
        assert [(p.line, p.column, str(p.kind)) for p in report.problems] == expected
        if message is not None:
            # (the list of commands after a misread one grows with the grammar)
            said = report.problems[0].message.split(" Commands: ")[0]
            assert said == message.split(" Commands: ")[0]
