"""Issue 31: a WWII Commander action line made into its entry without a tree
(``quickline.action_line``, ``Engine.quick_line``) is the entry the long way makes (the quick
tree or Lark's, then ``commands.build`` and the core's dice record): the same commands (their
classes, fields, starts and words), dice records, columns and side, or the same refusal
(kind, message, column, rule).  Checked on every line of the bundled logs, of self-played
games, of thousands of lines mangled a character at a time or given a keyword, and of lines
whose names and dice are wrong, so that no line the fast way takes is read otherwise by the
long way."""

from __future__ import annotations

import random

from referee.core.errors import RefereeError
from referee.core.quicktree import keywords
from referee.games.wwiic import quickline
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.quickparse import quick_tree
from tests.games.wwiic.test_quickparse import LINES, ODD
from tests.quick_reading import by_command, entry_read, long_way, mangled, with_keywords

LONG = long_way(ENGINE)
_read = entry_read


def _same(line: str, number: int = 7) -> bool:
    """The fast way leaves ``line`` to the long way, or reads it exactly as the long way."""
    if not _taken(line):
        return True
    return bool(_read(ENGINE, number, line) == _read(LONG, number, line))


def _taken(line: str) -> bool:
    """The fast way makes the line's entry, or refuses it itself."""
    try:
        return ENGINE.quick_line(1, line) is not None
    except RefereeError:
        return True


def test_every_line_of_the_logs_is_made_as_the_long_way_makes_it() -> None:
    taken = trees = 0
    for number, line in enumerate(LINES, 1):
        if quick_tree(line) is not None and not line.lstrip().lower().startswith(("turn", "setup")):
            trees += 1
        if _taken(line):
            taken += 1
            assert _same(line, number), line
    assert taken == trees > 1000  # every plain action line the quick tree reads


def test_mangled_lines_are_made_as_the_long_way_makes_them_or_left_to_it() -> None:
    chosen = by_command([line for line in LINES if _taken(line)], 30, seed=41)
    refused = 0
    for line in mangled(chosen, " \t,:;->#{}|0123456789adDZ.'/_", 12000, seed=42):
        assert _same(line), repr(line)
        refused += _read(LONG, 7, line)[0] == "refused"
    assert refused > 2000  # names and dice gone wrong, and syntax


def test_lines_naming_keywords_are_made_as_the_long_way_makes_them() -> None:
    taken = [line for line in LINES if _taken(line)]
    words = sorted(keywords("wwiic.lark"))
    for line in with_keywords(taken, words, 4000, seed=43):
        assert _same(line), line


def test_names_of_the_board_swapped_in_are_made_as_the_long_way_makes_them() -> None:
    """Each word of a taken line replaced by a unit's or a place's name (of one or more
    words, known or not): names resolved, split and refused alike."""
    rng = random.Random(44)
    taken = [line for line in LINES if _taken(line)]
    names = sorted({*ENGINE.board.unit_names.names(), *ENGINE.board.places.names()})
    names += ["Nowhere", "505/82 Nowhere", "none", "None Mook", "Mook Groesbeek", "Over"]
    for _ in range(4000):
        parts = rng.choice(taken).split(" ")
        at = rng.randrange(len(parts))
        parts[at] = rng.choice(names) + rng.choice(("", "", ",", "->", "->Mook", ";"))
        assert _same(" ".join(parts)), parts


WRONG = (
    "allied: activate 505/82 Nowhere->Groesbeek", "allied: activate 505/82 Mook->Nowhere",
    "allied: activate XX/82 Mook->Groesbeek", "allied: activate 505/82 Mook->Groesbeek with X",
    "allied: activate 505/82 Mook->Groesbeek, B/504/82 Mook->Nowhere->Grave strategic",
    "allied: move-out 1/1AB Heelsum->Renkum strategic", "allied: move-out 1/1AB with 4/43",
    "allied: move-out Nobody Heelsum->Renkum", "german: attack Nowhere {d10: 3 8 1}",
    "german: attack Best {d10: 3 8 11}", "german: attack Best {d1: 3}",
    "german: attack Best {d101: 3}", "german: attack Best {d10: 1234567}",
    "german: attack Best {d10: 3 | 4 | 12}", "allied: hits 505/82 Nobody",
    "allied: hits none none", "allied: hits Irish Guards 505/82", "allied: replace none",
    "allied: replace none, 505/82", "allied: replace 505/82, Nobody",
    "allied: retreat 505/82->Groesbeek->Mook", "allied: retreat 505/82->Groesbeek strategic",
    "allied: retreat 505/82", "german: breakthrough 107Pz->Nuenen with 59",
    "german: breakthrough 107Pz->Nowhere", "allied: reinforce P/1P", "allied: reinforce P/1P "
    "Driel->Heteren", "allied: reinforce P/1P Nowhere", "allied: reinforce P/1P->Driel",
    "weather {d10: 11}", "weather {d10: 4}; weather {d6: 7}", "german: pass {d10: 0}",
    "ALLIED: ACTIVATE 505/82 MOOK->GROESBEEK", "allied: activate 505-82 Mook->Groesbeek",
    "allied: hits 505/82; retreat 505/82->Nowhere, B/504/82->Over Asselt",
)


def test_wrong_names_and_dice_are_refused_as_the_long_way_refuses_them() -> None:
    """A name no unit or place has, a move written in the wrong shape for its command, a
    face a die has not: the same refusal, its message, its column and its rule."""
    for line in (*WRONG, *ODD):
        assert _same(line), line
    many = "german: attack Best {d10: " + " ".join(["3"] * 501) + "}"
    for line in (many, many.replace(" 3}", " 11}")):
        assert _same(line), line
    assert sum(_taken(line) for line in WRONG) == len(WRONG)  # the fast way's own
    assert sum(_read(LONG, 7, line)[0] == "refused" for line in WRONG) >= len(WRONG) - 8


def _general(line: str) -> object:
    """The entry the general reader of ``quickline`` makes of ``line`` (the plain activation's
    shortcut put aside), as ``entry_read`` gives it."""
    shortcut = quickline._activation
    quickline._activation = lambda *args: None  # type: ignore[assignment]
    try:
        return _read(ENGINE, 7, line)
    finally:
        quickline._activation = shortcut


def test_the_plain_activation_is_read_as_the_general_reader_reads_it() -> None:
    """``quickline._activation``, the shortcut for ``allied: activate 505/82 Mook->Groesbeek``
    written as the referee writes it, makes the entry (command, words, columns, side) or the
    refusal of the general reader, on the lines of the logs, mangled ones and ones with
    other names; and it takes nearly every activation of the logs."""
    spelt = keywords("wwiic.lark")
    activations = [line for line in LINES if "activate" in line]
    rng = random.Random(45)
    names = sorted({*ENGINE.board.unit_names.names(), *ENGINE.board.places.names()})
    swapped = []
    for _ in range(3000):
        parts = rng.choice(activations).split(" ")
        at = rng.randrange(2, len(parts))
        parts[at] = rng.choice(names) + rng.choice(("", "->Mook", "->Over Asselt", "->"))
        swapped.append(" ".join(parts))
    shortcut = 0
    for line in (*LINES, *mangled(activations, " \t->:aAtTvV1,;{#", 6000, seed=46), *swapped):
        try:
            taken = quickline._activation(ENGINE.board, 7, line.split("#", 1)[0], line,
                                          spelt) is not None
        except RefereeError:
            taken = True
        if taken:
            shortcut += 1
            assert _read(ENGINE, 7, line) == _general(line), line
    plain = sum(quickline._ACTIVATION.fullmatch(line) is not None for line in activations)
    assert plain >= 0.8 * len(activations) > 500 and shortcut > 5000
