"""Issue 31: an Arnhem '44 action line made into its entry without a tree
(``quickline.action_line``, ``Engine.quick_line``) is the entry the long way makes (the quick
tree or Lark's, then ``commands.build`` and the core's dice record): the same commands, dice
records, columns and side, or the same refusal (kind, message, column, rule).  Checked on
every line of the bundled logs, of self-played games, of thousands of lines mangled a
character at a time or given a keyword, and of lines whose names, counts and dice are wrong,
so that no line the fast way takes is read otherwise by the long way."""

from __future__ import annotations

from typing import Any

from referee.core.errors import RefereeError
from referee.core.quicktree import keywords
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.quickparse import action_tree
from tests.games.arnhem44.test_quickparse import LINES, ODD, ODD_ACTIONS
from tests.quick_reading import by_command, entry_read, long_way, mangled, with_keywords

LONG = long_way(ENGINE)
_read = entry_read


def _same(line: str, number: int = 7) -> bool:
    """The fast way leaves ``line`` to the long way, or reads it exactly as the long way."""
    quick: Any
    try:
        quick = ENGINE.quick_line(number, line)
    except RefereeError:
        quick = "refused"
    if quick is None:
        return True
    return bool(_read(ENGINE, number, line) == _read(LONG, number, line))


def test_every_line_of_the_logs_is_made_as_the_long_way_makes_it() -> None:
    taken = trees = 0
    for number, line in enumerate(LINES, 1):
        if action_tree(line) is not None:
            trees += 1
        if _taken(line):
            taken += 1
            assert _same(line, number), line
    assert taken >= 0.9 * trees > 1000  # the fast way takes nearly every plain line


def test_mangled_lines_are_made_as_the_long_way_makes_them_or_left_to_it() -> None:
    chosen = by_command([line for line in LINES if _taken(line)], 30, seed=45)
    refused = 0
    for line in mangled(chosen, " \t,:;->#{}|0123456789adDZ.'/_", 12000, seed=46):
        assert _same(line), repr(line)
        refused += _read(LONG, 7, line)[0] == "refused"
    assert refused > 3000  # names, counts and dice gone wrong, and syntax


def test_lines_naming_keywords_are_made_as_the_long_way_makes_them() -> None:
    taken = [line for line in LINES if _taken(line)]
    words = sorted(keywords("arnhem44.lark"))
    for line in with_keywords(taken, words, 4000, seed=47):
        assert _same(line), line


WRONG = (
    "uk: move 1 inf/XX Valkenswaard->Nowhere", "uk: move 0 inf/UK Valkenswaard->Waalre",
    "uk: move 100 tank/UK Valkenswaard->Waalre", "uk: move 2 horse/UK Valkenswaard->Waalre",
    "uk: move 1 inf/UK Valkenswaard->Nowhere->Elsewhere", "uk: move 1 inf/UK Nowhere->Waalre",
    "uk: move 1 inf/UK, 1 tank/ZZ Valkenswaard->Waalre", "german: deploy 3 inf/uk Nowhere",
    "german: deploy 99999999999 inf Arnhem", "german: deploy 1 inf/de Arnhem",
    "german: reinforce 1 tank Dieren; german: reinforce 1 tak Nowhere",
    "allied: enter 2 tank/UK Start-West {d10: 3}", "combat Arnhem joker german joker german",
    "combat Nowhere joker german joker german", "combat Arnhem {d10: 11}",
    "combat Arnhem {d1: 1}", "combat Arnhem {d101: 3}", "combat Arnhem {d100: 100 101}",
    "combat Arnhem {d6: 1234567}", "combat Arnhem {d6: 12345678901}", "combat Arnhem {d0: 0}",
    "combat Arnhem {d10: 1 | 2 | 11}", "initiative {D10: 3 7}", "initiative {d0010: 3}",
    "german: barrage 1 art Nowhere->Lent, 1 art Arnhem->Elsewhere {d10: 1}",
    "german: barrage 1 art Arnhem->Lent, 0 art Arnhem->Elden", "german: defuse Nowhere crate 1",
    "german: detonate Oosterbeek-bridge crate 99 joker {d10: 0 12}", "allied: reserves blue",
    "allied: reserves BLACK {d10: 4}", "allied: reserves Green", "build Nowhere {d10: 5}",
    "anti-aircraft Nowhere {d10: 1}", "token Nowhere", "german: no support joker {d10: 3}",
    "allied: invade Nowhere from Grave: 1 tank/XX", "allied: invade Nijmegen from Nowhere: 1 x",
    "german: fall-back 0 inf Arnhem->Nowhere", "allied: withdraw 1 inf/82 Nowhere->Hengstal",
    "german: support 1 inf, 0 tank joker", "supply-drop {d10: 4 8 1}; landing {d10: 99}",
    "german: end movement; german: move 1 inf Arnhem->Nowhere", "weather {d10: 5}; pass",
    "US : MOVE 1 INF/us VALKENSWAARD->waalre  # done", "combat Arnhem joker German joker GERMAN",
    "combat Arnhem joker Allied {d10: 1}", "uk: move 1 Inf/Uk St. Oedenrode->Veghel",
)


def test_wrong_names_counts_and_dice_are_refused_as_the_long_way_refuses_them() -> None:
    """A name no sector, group or bridge has, a count out of range, a face a die has not, a
    joker named twice: the same refusal, its message, its column and its rule."""
    for line in (*WRONG, *ODD, *ODD_ACTIONS):
        assert _same(line), line
    many = "combat Arnhem {d10: " + " ".join(["3"] * 501) + "}"
    for line in (many, many.replace(" 3}", " 11}")):
        assert _same(line), line
    assert sum(_taken(line) for line in WRONG) >= len(WRONG) - 2  # the fast way's own


def _taken(line: str) -> bool:
    """The fast way makes the line's entry, or refuses it itself."""
    try:
        return ENGINE.quick_line(1, line) is not None
    except RefereeError:
        return True
