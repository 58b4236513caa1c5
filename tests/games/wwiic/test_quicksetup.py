"""Issue 31: a WWII Commander set-up line read without Lark (``quicksetup.setup_tree``, through
``quickparse.quick_tree``) gives the very tree Lark's parser gives (every ``setup_item`` of
grammar/wwiic.lark, every token's type, text and position), or ``None`` and Lark reads the
line; and so the same entry, statements and refusals.  Checked on every set-up line of the
bundled logs, on the positions of self-played games written as set-up lines, and on mangled
variants of them (a character put in, taken out or changed, a word spelt as a keyword)."""

from __future__ import annotations

from typing import Any

from referee.api import position_text, replay_text
from referee.core.errors import RefereeError
from referee.core.grammar import game_parser
from referee.core.parsing import _parse_line
from referee.core.quicktree import keywords
from referee.core.selfplay import play_game, random_policy
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.quickparse import quick_tree
from tests.quick_reading import agrees, log_lines, mangled, shape, with_keywords

LARK = game_parser(ENGINE.grammar)


def _positions(seeds: int) -> list[str]:
    """The set-up lines of positions of ``seeds`` self-played games, every 29th line."""
    found: list[str] = []
    for seed in range(seeds):
        log = play_game(ENGINE, f"setup-{seed}", random_policy, keep_log=True).log or ""
        for upto in range(3, len(log.splitlines()), 29):
            try:
                text = position_text(replay_text(log, upto=upto))
            except RefereeError:
                continue  # inside a combat's decisions: no position to write
            found += [line for line in text.splitlines() if line.startswith("setup")]
    return found


SETUPS = [line for line in log_lines(ENGINE, "wwiic", 0, "**/*.log")
          if line.lstrip().lower().startswith("setup")] + _positions(3)


class _Lark:
    """The engine reading every line with Lark (no quick reader)."""

    grammar = ENGINE.grammar
    build_command = ENGINE.build_command
    build_setup = ENGINE.build_setup


def _agrees(line: str) -> bool:
    return agrees(quick_tree, LARK, line)


def test_every_set_up_line_is_read_as_lark_reads_it() -> None:
    assert len(SETUPS) > 100
    kinds = set()
    for line in SETUPS:
        quick = quick_tree(line)
        assert quick is not None, line  # the fast reading takes every one
        assert _agrees(line), line
        kinds |= {item.data for item in quick.children[0].children}
    assert len(kinds) >= 14, kinds  # nearly every kind of setup_item, in its own words


def _setup_read(engine: Any, line: str) -> Any:
    """The entry ``engine`` makes of ``line`` as plain values (each statement with its
    ``repr`` and column), or its refusal."""
    try:
        entry = _parse_line(None, engine, 7, line)
    except RefereeError as error:
        return ("refused", type(error).__name__, error.to_problem(line=7, text=line))
    return (type(entry), entry.number, entry.text,
            [(repr(item.statement), item.column) for item in getattr(entry, "items", ())])


def test_the_entries_are_those_of_the_long_way() -> None:
    """The statements made from the tree (names resolved, values checked) and the items'
    columns, or the refusal, are those made from Lark's tree."""
    lines = [*SETUPS, "setup: place 505/82 Nowhere", "setup: weather sunny",
             "setup: control Grave nobody", "setup: turn 99999999999999999999"]
    for line in lines:
        assert _setup_read(ENGINE, line) == _setup_read(_Lark(), line), line


def test_mangled_lines_are_read_as_lark_reads_them_or_left_to_it() -> None:
    for line in mangled(SETUPS, " \t,:;->#{}|0123456789aZdD.'/_\r\x0c", 5000, seed=31):
        assert _agrees(line), repr(line)


def test_lines_naming_keywords_are_read_as_lark_reads_them() -> None:
    """A word spelt as a keyword: a keyword where the parser's state allows both (``place A
    strength 3``, ``due A turn 8``), a WORD where only a WORD may stand (``weather clear``)."""
    words = sorted(keywords("wwiic.lark"))
    for line in with_keywords(SETUPS, words, 5000, seed=33):
        assert _agrees(line), line


ODD = (
    "setup: clear", "SETUP : CLEAR", "\tsetup:\tclear ;turn 3;", "setup:", "setup: ;clear",
    "setup clear", "setup: clear clear", "setup: clear; turn 3 # a comment; time 4",
    "setup: turn", "setup: turn x", "setup: turn 3 4", "setup: time 03", "setup: turn 3a",
    "setup: weather clear", "setup: weather turn", "setup: weather 5", "setup: weather",
    "setup: weather clear overcast", "setup: initiative allied", "setup: phase weather",
    "setup: passed german", "setup: used foot-crossing", "setup: impulse a->b",
    "setup: place 505/82 Mook strength 4", "setup: place 505/82 Mook Strength 04",
    "setup: place 505/82 Mook strength", "setup: place 505/82 Mook strength x",
    "setup: place strength 4", "setup: place 505/82 strength strength 4",
    "setup: place A clear 4", "setup: place A turn", "setup: place A B; place C D strength 1",
    "setup: remove 505/82", "setup: eliminated 59", "setup: eliminated", "setup: control A",
    "setup: control Grave allied", "setup: spent 505/82", "setup: supply 44RT out",
    "setup: crossed B/504/82 turn 4", "setup: crossed B/504/82 turn", "setup: crossed turn 4",
    "setup: crossed A B turn 4 5", "setup: crossed A turn turn 4", "setup: due P/1P turn 8",
    "setup: due P/1P Turn 8", "setup: due P/1P 8", "setup: objective Nijmegen",
    "setup: polish Driel", "setup: polish", "setup: place A->B", "setup: place A, B",
    "setup: place A {d10: 3}", "setup: pass", "setup: place505/82 Elden", "setup: placed A",
    "setup: clear\x0b", "setup: place Gr\u00e4ve", "setup: clear # x\ny", "setup: clear\rturn 3",
)


def test_odd_lines() -> None:
    """Lines at the edges of the grammar: capitals and blanks, an item left empty or with
    words too many, a FACE where a WORD stands and the other way, keywords in and out of
    their places, pieces no set-up line has."""
    for line in ODD:
        assert _agrees(line), line
    assert quick_tree("setup: weather turn") is not None  # only a WORD may stand there
    assert quick_tree("setup: place A clear 4") is None  # a keyword inside a name: Lark


def test_a_broken_reader_is_caught() -> None:
    """The comparison has teeth: a tree with one token moved is not Lark's."""
    line = "setup: place 505/82 Mook strength 4"
    tree: Any = quick_tree(line)
    face = tree.children[0].children[0].children[1]
    face.column += 1
    assert shape(tree) != shape(LARK.parse(line))
