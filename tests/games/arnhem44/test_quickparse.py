"""Issue 31: the plain move line read without Lark (``quickparse.move_tree``) gives the very
tree Lark's parser gives (grammar/arnhem44.lark: ``"move"i groups route``), with every token's
type, text and position, or ``None`` and Lark reads the line.  Checked on every line of the
bundled Arnhem '44 logs, of self-played games, and of mangled variants of their move lines (a
character put in, taken out or changed), so that no line the fast reading takes is read
otherwise by Lark, or refused by it."""

from __future__ import annotations

import random
from typing import Any

from referee.core.grammar import game_parser
from referee.core.quicktree import keywords
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.quickparse import action_tree, move_tree
from tests.quick_reading import agrees, lark_shape, log_lines, mangled, shape, with_keywords

LARK = game_parser(ENGINE.grammar)


LINES = log_lines(ENGINE, "arnhem44", 2)


def _lark(line: str) -> Any:
    return lark_shape(LARK, line)


def _agrees(line: str) -> bool:
    return agrees(action_tree, LARK, line)


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


def test_every_action_line_of_the_logs_is_read_as_lark_reads_it() -> None:
    """Every command of the grammar, with its dice, a side before it and several on a line:
    the fast reading takes every action line of the logs but chits, and gives Lark's tree."""
    taken = 0
    actions = 0
    for line in LINES:
        body = line.split("#", 1)[0].strip()
        if body and not body.startswith("[") and not body.casefold().startswith(
                ("setup", "expect", "turn ")) and "cup" not in body:
            actions += 1
        quick = action_tree(line)
        if quick is not None:
            taken += 1
            assert shape(quick) == _lark(line), line
    assert taken >= 0.98 * actions > 1000
    kinds = {str(action_tree(line).children[0].children[1].children[0].data)  # type: ignore[union-attr]
             for line in LINES if action_tree(line) is not None}
    assert {"barrage", "combat", "defuse", "detonate", "rig", "reveal", "invade", "build",
            "reserves", "end_movement", "no_barrage", "pass_", "weather", "initiative",
            "bailey", "withdraw", "move", "deploy"} <= kinds, kinds


def test_mangled_action_lines_are_read_as_lark_reads_them_or_left_to_it() -> None:
    """Each kind of line the fast reading takes, a character put in, taken out or changed."""
    taken = [line for line in LINES if action_tree(line) is not None]
    by_kind: dict[str, list[str]] = {}
    for line in taken:
        by_kind.setdefault(line.split("{")[0].split(":")[-1].split()[0].casefold(), []).append(line)
    rng = random.Random(44)
    chosen = [rng.choice(lines) for lines in by_kind.values() for _ in range(30)]
    for line in mangled(chosen, " \t,:;->#{}|0123456789adDZ.'/_", 12000, seed=32):
        assert _agrees(line), repr(line)


def test_action_lines_naming_keywords_are_read_as_lark_reads_them() -> None:
    """A word spelt as one of the grammar's keywords put in any place of any kind of line."""
    taken = [line for line in LINES if action_tree(line) is not None]
    words = sorted(keywords("arnhem44.lark"))
    for line in with_keywords(taken, words, 6000, seed=34):
        assert _agrees(line), line


ODD_ACTIONS = (
    "combat Nijmegen joker german joker allied {d10: 3 7 | 1 | 5 0 2 | 4}",
    "combat Nijmegen joker {d10: 3}", "combat joker german", "COMBAT  A B{D6:1|2}",
    "allied: barrage 2 art/UK Grave->Nijmegen, 1 art/UK Grave->Hengstal joker {d10: 1 2}",
    "allied: barrage 2 art/UK, 1 art/US Grave->Nijmegen,1 art/UK A->B", "allied: barrage",
    "allied: barrage 2 art/UK Grave->Nijmegen,", "allied: barrage 2 art/UK Grave",
    "allied: invade Nijmegen from Grave: 2 tank/UK, 1 inf/82 from Hengstal: 1 inf/82 joker",
    "allied: invade Nijmegen", "allied: invade N from G 1 inf", "allied: invade N from G: joker",
    "allied: defuse Son-bridge crate 2 joker {d10: 6}", "allied: defuse Son-bridge crate {d10: 6}",
    "german: detonate S joker {d10: 0 3}", "german: detonate S crate x", "german: rig S 5 6",
    "german: rig S hidden 3fa2c1d09b8e7a65", "german: rig S hidden", "german: rig S x",
    "german: rig S hidden 123", "allied: collect 82", "allied: collect 1AB", "allied: collect",
    "allied: reserves black {d10: 4}", "allied: reserves 4 {d10: 4}", "allied: reserves {d10: 4}",
    "allied: reserves black green", "german: no support", "german: no support joker",
    "german: no joker", "no barrage", "no", "no move", "end setup; end movement", "end",
    "allied: end setup; allied: pass", "pass;", "pass; pass {d10: 1}", "pass {d10:}",
    "pass {d10: 1 |}", "pass {cup: a}", "pass {d10 1}", "pass {d10: 1}}", "pass {d10: 1a}",
    "pass {d12345: 1}", "pass {x: 1}", "pass {d10: 1 | 2 3}#x", "weather {d10: 2}",
    "allied: bailey small 3 inf/UK Start-West->Luyksgestel", "allied: bailey 3 inf/UK A->B",
    "german: fall-back 2 inf Arnhem->Velp joker {d10: 4 5}", "german: fall-back 2 inf A->B->C",
    "german: support 1 inf, 2 inf joker", "german: support", "german: first allied",
    "allied: withdraw 1 inf/82 Nijmegen->Hengstal", "withdraw-order {d10: 5 2}",
    "allied: joker move Grave", "allied: joker Grave", "allied: reserve-order 2 tank/UK, 1 inf/US",
    "german: swap 6", "german: swap x", "german: reveal 5 5", "build Bailey-1 {d10: 6}",
    "anti-aircraft Veghel {d10: 1 1 | 2 3 4 0}", "token Oosterbeek {d10: 6 2}",
    "supply-drop {d10: 4 8 1}", "landing {d10: 3 7 1 4 | 5}", "allied: resign", "initiative x",
)


def test_odd_action_lines() -> None:
    """Lines at the edges of the grammar, of every kind the fast reading takes."""
    for line in ODD_ACTIONS:
        assert _agrees(line), line
    assert action_tree("combat Nijmegen joker german joker allied {d10: 3 7 | 1 | 5 0 2 | 4}")
    assert move_tree is action_tree
