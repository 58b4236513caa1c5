"""Issue 31: the plain Eindhoven Bridge line read without Lark (``quickparse.quick_tree``: action
lines and turn assertions) gives the very tree Lark's parser gives (grammar/koenig_eindhoven.lark
and common.lark), with every token's type, text and position, or ``None`` and Lark reads the
line.  Checked on every line of the bundled Eindhoven Bridge logs (scenario files' logs too), of
self-played games, and of mangled variants of them (a character put in, taken out or changed,
a word replaced by a keyword), so that no line the fast reading takes is read otherwise by Lark,
or refused by it."""

from __future__ import annotations

import random

from referee.core.grammar import game_parser
from referee.core.quicktree import keywords
from referee.games.koenig_eindhoven.engine import ENGINE
from referee.games.koenig_eindhoven.quickparse import quick_tree
from tests.quick_reading import agrees, lark_shape, log_lines, mangled, shape

LARK = game_parser(ENGINE.grammar)


LINES = log_lines(ENGINE, "koenig-eindhoven", 3, "**/*.log")
TAKEN = sorted({line for line in LINES if quick_tree(line) is not None})


def _agrees(line: str) -> bool:
    return agrees(quick_tree, LARK, line)


def test_every_line_of_the_logs_is_read_as_lark_reads_it() -> None:
    """The fast reading of each line it takes is Lark's, token for token; it takes nearly
    every action line and turn assertion."""
    for line in TAKEN:
        assert shape(quick_tree(line)) == lark_shape(LARK, line), line
    plain = [line for line in LINES
             if line.strip() and not line.lstrip().startswith(("#", "[", "setup", "expect"))]
    taken = [line for line in plain if quick_tree(line) is not None]
    assert len(taken) >= 0.95 * len(plain) > 500
    kinds = {str(tree.data) for line in taken
             for tree in quick_tree(line).iter_subtrees()}  # type: ignore[union-attr]
    assert kinds >= {"move", "combined", "redeploy", "retreat", "full_fire", "mobile_fire",
                     "end", "support", "roll", "round_", "draw", "artillery", "allied_support",
                     "landing", "stay", "dice", "common__chits", "turn_assertion",
                     "side_prefix"}


def test_mangled_lines_are_read_as_lark_reads_them_or_left_to_it() -> None:
    for line in mangled(TAKEN, " \t,:;->#{}|0123456789aZ.'/_dD", 6000, seed=31):
        assert _agrees(line), repr(line)


def test_lines_naming_keywords_are_read_as_lark_reads_them() -> None:
    """A word spelt as one of the grammar's keywords (``end``, ``with``, ``cup``...)."""
    rng = random.Random(33)
    words = sorted(keywords("koenig_eindhoven.lark"))
    for _ in range(3000):
        parts = rng.choice(TAKEN).split(" ")
        at = rng.randrange(len(parts))
        word = rng.choice(words)
        parts[at] = rng.choice((word, word.upper(), word + "x", parts[at] + word, "x" + word))
        assert _agrees(" ".join(parts)), parts


def test_lines_put_together_are_read_as_lark_reads_them() -> None:
    """Several items on a line (``stay; capture``), with and without a side."""
    rng = random.Random(35)
    for _ in range(1500):
        first, second = rng.choice(TAKEN), rng.choice(TAKEN)
        tail = second.split(":", 1)[-1] if rng.randrange(2) else second
        line = first.split("#", 1)[0].rstrip() + rng.choice(("; ", ";", " ; ", ";; ")) + tail
        assert _agrees(line), line


ODD = (
    "allied: move 1/506 A->0105->0205", "ALLIED : MOVE 1/506 A ->0105->0205#x",
    "\tgerman:\tcombined\t3/935 C->1021  ", "allied: move 1/506 A->", "allied: move 1/506",
    "allied: move", "allied: move ->0105", "allied: move 1/506 A-->0105", "allied: moveX 1/506",
    "allied: move 1/506 end->0105", "move 1/506 A->0105", "12: move 1/506 A->0105",
    "end: move 1/506 A->0105", "allied:: end", "allied: end redeployment", "allied: end x",
    "allied: end redeploymentx", "german: END REDEPLOYMENT # z", "german: support none",
    "german: support 0", "german: support", "german: support 1 2", "german: support x",
    "german: support 1x", "german: support nonex", "german: support \u00b2",
    "round {d6: \u0661}", "allied: full-fire 0306 with 1/506, 3/506",
    "allied: full-fire 0306 with 1/506,", "allied: full-fire 0306 with", "allied: full-fire 0306",
    "allied: full-fire with 1/506", "allied: full-fire 0306 with1/506", "allied: full-fire0306",
    "allied: mobile-fire Son with 1/506 , 2/506,3/506", "allied: full-fire 0306 WITH 1/506",
    "round {d6: 5 2}", "round {d6: 5 2} # result", "round {d6:}", "round {d6: 5 |}",
    "round {d6: | 5}", "round {d6: 5 | 2}", "round {D6 : 5}", "round {d12345: 5}",
    "round {d6: 5x}", "round {d6 5}", "round {d6: 5", "round {d6: 5}}", "round {d6: 5} x",
    "round {x6: 5}", "draw {cup: 935}", "draw {Cup: 935 | 506}", "draw {cup: 935 |}",
    "draw {cup: end}", "draw {cup:}", "draw {CUP: 1/2 x}", "draw {cup6: 935}", "draw {d6: 4}",
    "roll {cup: 4}", "landing 2/327 {d6: 2}", "landing {d6: 2}", "landing 2/327",
    "allied: hit 1/935", "allied: hit", "allied: hit 1/935 {d6: 1}", "stay; capture",
    "stay;", ";stay", "stay capture", "allied: retreat 2/506->0212", "allied: retreat 2/506->off",
    "german: retreat 1/935->", "german: redeploy 1/1034 1321->1220->1120->1019",
    "allied-support {d6: 4}", "allied-support: end", "artillery", "artillery {d6: 3}",
    "turn 1", "turn 1 # Game Turn 1", "TURN 10 PM", "turn", "turn x", "turn 1 2", "turn 1 end",
    "turn 1 PM x", "turn: end", "turn 1x", "allied: move 1/506 A\x0bB->C", "allied: end\u00a0",
    "allied: move 1/506 A->B\x0c", "allied: \u017ftay", "allied: end\r", "expect phase = over",
    "setup: clear", "[Game \"koenig-eindhoven\"]", "allied: move 1/506 A->0105 {d6: 3}",
)


def test_odd_lines() -> None:
    """Lines at the edges of the grammar: no side, a side in capitals, blanks and tabs, a
    comment right after a name, a word that is a keyword elsewhere, a trailing arrow, dice and
    chits broken in every place, a verb glued to what follows (Lark reads some of those; the
    fast reading leaves them)."""
    for line in ODD:
        assert _agrees(line), repr(line)
    assert quick_tree("ALLIED : MOVE 1/506 A ->0105->0205#x") is not None
    assert quick_tree("draw {Cup: 935 | 506}") is not None


def test_the_replay_reads_quickly_taken_lines() -> None:
    """The engine's hook is this reader (``Engine.quick_tree``)."""
    line = "allied: move 1/506 A->0105->0205"
    assert shape(ENGINE.quick_tree(line)) == shape(quick_tree(line))
