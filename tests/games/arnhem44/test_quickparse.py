"""Issue 31: the plain move line read without Lark (``quickparse.move_tree``) gives the very
tree Lark's parser gives (grammar/arnhem44.lark: ``"move"i groups route``), with every token's
type, text and position, or ``None`` and Lark reads the line.  Checked on every line of the
bundled Arnhem '44 logs, of self-played games, and of mangled variants of their move lines (a
character put in, taken out or changed), so that no line the fast reading takes is read
otherwise by Lark, or refused by it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from referee.core.grammar import game_parser
from referee.core.quicktree import keywords
from referee.core.selfplay import play_game, random_policy
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.quickparse import move_tree
from tests.quick_reading import agrees, lark_shape, mangled, shape

LOGS = Path(__file__).resolve().parents[3] / "logs" / "arnhem44"
LARK = game_parser(ENGINE.grammar)


def _lines() -> list[str]:
    found = [line for path in sorted(LOGS.glob("*.log"))
             for line in path.read_text(encoding="utf-8").splitlines()]
    for seed in range(2):
        log = play_game(ENGINE, f"quick-{seed}", random_policy, keep_log=True, check=False).log
        found += (log or "").splitlines()
    return found


LINES = _lines()


def _lark(line: str) -> Any:
    return lark_shape(LARK, line)


def _agrees(line: str) -> bool:
    return agrees(move_tree, LARK, line)


def test_every_move_line_of_the_logs_is_read_as_lark_reads_it() -> None:
    """Move/Outside: "a move names where the figures start and each sector they enter"."""
    taken = 0
    for line in LINES:
        quick = move_tree(line)
        if quick is not None:
            taken += 1
            assert shape(quick) == _lark(line), line
    moves = [line for line in LINES if any(f" {verb} " in f" {line.split('#')[0]} " for verb in
                                           ("move", "deploy", "enter", "reinforce"))
             and "{" not in line and ";" not in line and "joker" not in line]
    assert taken >= 0.9 * len(moves) > 100  # the fast reading takes nearly every such line


def test_mangled_move_lines_are_read_as_lark_reads_them_or_left_to_it() -> None:
    moves = [line for line in LINES if move_tree(line) is not None]
    for line in mangled(moves, " \t,:;->#{}0123456789aZ.'/_", 3000, seed=31):
        assert _agrees(line), repr(line)


def test_move_lines_naming_keywords_are_read_as_lark_reads_them() -> None:
    """A word of a move spelt as one of the grammar's keywords (``joker``, ``from``...)."""
    rng = random.Random(33)
    moves = [line for line in LINES if move_tree(line) is not None]
    words = sorted(keywords("arnhem44.lark"))
    for _ in range(1500):
        parts = rng.choice(moves).split(" ")
        at = rng.randrange(len(parts))
        word = rng.choice(words)
        parts[at] = rng.choice((word, word.upper(), word + "x", parts[at] + word))
        assert _agrees(" ".join(parts)), parts


ODD = (
    "move 2 inf Arnhem->Velp", "GERMAN : MOVE 2 inf ,1 tank A ->B->C#x",
    "\tallied:\tmove\t1 tank/UK St. Oedenrode->Veghel  ", "uk: move 1 inf joker->first",
    "uk: move 1 inf JOKER->A", "uk: move 1 inf A->B From", "uk: move 1 joker A->B",
    "german: move 2 inf Arnhem", "german: move 2 inf Arnhem->", "german: move 2inf A->B",
    "german: move 2 inf A-->B", "pass: move 1 inf A->B", "german: move 1 inf A->B # ;{",
    "german: move", "german: move 1", "german: move 1 inf", "  # move 1 inf A->B",
    "uk: move 1 inf 3->A", "uk: move 1 inf A->B 3", "uk: move 1 inf, 2 tank",
    "uk: move 1 inf,", "uk: move 1 inf, 2", "uk: move 2 3 A->B", "uk: move 1 inf A->B:",
    "allied:: move 1 inf A->B", "german: deploy 1 tank, 1 inf St. Oedenrode",
    "german: deploy 1 inf A->B", "german: reinforce 2 inf", "allied: enter 2 tank/UK Start-West x",
    "ENTER 1 inf joker", "german: Reinforce 1 inf From", "german: deploy", "german: deploy 1",
    "uk: move 1 inf A\x0bB->C", "uk: move 1 inf A->B\u00a0",
)


def test_odd_move_lines() -> None:
    """Lines at the edges of the grammar: no side, a side in capitals, blanks and tabs, a
    comment right after a name, a word that is a keyword elsewhere, no arrow, a trailing
    arrow, a count glued to its kind (Lark reads those; the fast reading leaves them)."""
    for line in ODD:
        assert _agrees(line), line
    assert move_tree("GERMAN : MOVE 2 inf ,1 tank A ->B->C#x") is not None
