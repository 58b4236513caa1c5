"""The names a log writes are resolved once per board and spelling (``Board.units_read``,
``Board.places_read``: ``commands.build`` keeps what it resolved, issue 31): every command of
the bundled logs, of self-played games and of lines whose names are mangled (a character put
in, taken out or changed; cases changed; words run together) is built as it is built with
nothing kept (the command, or the refusal with its words and column), each line read twice
so that the second reading takes the kept names."""

from __future__ import annotations

import random
from typing import Any

from lark import Tree
from lark.exceptions import LarkError

from referee.core.errors import RefereeError
from referee.core.grammar import game_parser
from referee.games.wwiic import commands
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.quickparse import quick_tree
from tests.quick_reading import log_lines, mangled

BOARD = ENGINE.board
LARK = game_parser(ENGINE.grammar)
LINES = [line for line in log_lines(ENGINE, "wwiic", 6, "**/*.log")
         if quick_tree(line) is not None]


class _Forgetful(dict[Any, Any]):
    """A memo that keeps nothing: the long way, every name resolved."""

    def __setitem__(self, key: Any, value: Any) -> None:
        return


def _commands(line: str) -> list[Any]:
    """Each command of ``line`` as built, or its refusal as a message and a column."""
    try:
        tree = LARK.parse(line)
    except LarkError:  # a line Lark refuses has no command to build
        return ["unreadable"]
    node = tree.children[0]
    assert isinstance(node, Tree)
    if node.data != "action":
        return [node.data]
    built: list[Any] = []
    for item in node.children[1:]:
        assert isinstance(item, Tree)
        command = item.children[0]
        assert isinstance(command, Tree)
        try:
            built.append(commands.build(BOARD, command))
        except RefereeError as error:
            built.append((type(error).__name__, str(error), getattr(error, "column", None)))
    return built


def _both_ways(lines: list[str]) -> int:
    """Build every line with nothing kept, then twice with the memos; the lines whose
    commands are refused."""
    saved = BOARD.units_read, BOARD.places_read
    try:
        BOARD.units_read, BOARD.places_read = _Forgetful(), _Forgetful()
        long_way = [_commands(line) for line in lines]
        BOARD.units_read, BOARD.places_read = {}, {}
        for _ in range(2):
            assert [_commands(line) for line in lines] == long_way
        assert BOARD.units_read and BOARD.places_read
    finally:
        BOARD.units_read, BOARD.places_read = saved
    return sum(any(isinstance(c, tuple) for c in built) for built in long_way)


def test_the_logs_commands_are_built_as_with_nothing_kept() -> None:
    assert len(LINES) > 1000
    _both_ways(LINES)


def test_mangled_names_are_built_or_refused_as_with_nothing_kept() -> None:
    rng = random.Random(31)
    lines = list(mangled(LINES, "abcXYZ019/.'- -", 3000, seed=31))
    for _ in range(1000):
        parts = rng.choice(LINES).split(" ")
        at = rng.randrange(len(parts))
        parts[at] = rng.choice((parts[at].upper(), parts[at].lower(), parts[at] + "-",
                                parts[at].replace("/", "."), "Irish Guards", "guards"))
        lines.append(" ".join(parts))
    assert _both_ways(lines) > 300  # many refused: unknown names, ambiguous ones
