"""Issue 31: a line that writes a command already read with other dice (``attack Arnhem
{d6: 4}`` after ``attack Arnhem {d6: 2}``) is made from the remembered command and its own
dice (``parsing._other_dice``), and that entry is the one the long way makes: the same
command, column and side, the same dice record (die, faces, column), or the same refusal
(kind, message, column).  Checked in every game on every line of its bundled and self-played
logs, each dice line followed by variants of it with other dice: plain, out of a die's
range, too many, another die, blanks and bars moved, chits, a comment, a broken brace."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from referee.core import parsing
from referee.core.errors import RefereeError
from referee.core.parsing import _parse_line, _remembered_line
from referee.games import engine_for
from tests.quick_reading import log_lines

GAMES = (("battle-card", "battle-card"), ("wwiic", "wwiic"), ("arnhem44", "arnhem44"),
         ("koenig-eindhoven", "koenig-eindhoven"))


def _shown(read: Callable[..., Any], *args: Any) -> Any:
    """An entry as plain values (every command with its class), or the refusal."""
    try:
        entry = read(*args)
    except RefereeError as error:
        return ("refused", type(error).__name__, error.to_problem(line=1, text=""))
    items = []
    for item in getattr(entry, "items", ()):
        command = getattr(item, "command", getattr(item, "statement", None))
        items.append((type(command), command, str(command), getattr(item, "dice", None),
                      item.column))
    return (type(entry), entry, getattr(entry, "side", None), items)


def _variants(line: str, rng: random.Random) -> list[str]:
    """The line with other dice in place of its own."""
    brace = line.rfind("{")
    head = line[:brace]
    faces = [str(rng.randrange(13)) for _ in range(rng.randrange(1, 6))]
    found = [
        head + "{d6: " + " ".join(faces) + "}",
        head + "{d10: " + " | ".join(faces) + "}",
        head + "{D10:" + "|".join(faces) + "}  ",
        head + "{ d10 :\t" + " ".join(faces) + " }",
        head + "{d10: " + " ".join(["3"] * 501) + "}",
        head + "{d10: " + " ".join(["3"] * 500) + "}",
        head + "{d6: 1234567}", head + "{d6: 12345678901}", head + "{d0: 0}",
        head + "{d1: 1}", head + "{d101: 3}", head + "{d100: 100 7}", head + "{d12345: 1}",
        head + "{d6: 1 |}", head + "{d6:}", head + "{d6: | 2}", head + "{d6: 1 2", head + "{d6 1}",
        head + "{d6: 1} x", head + "{d6: 1}}", head + "{d6: 1a}", head + "{cup: 5}",
        head + "{d6: 4} # a comment", head + "{d6: 4};", head + "{d6: 4}; pass",
        head + "{d6: 00 07}", head + "{d10: 0}", head + "{d6: 7}",
    ]
    return found


@pytest.mark.parametrize(("game", "folder"), GAMES)
def test_a_command_with_other_dice_is_made_as_the_long_way_makes_it(
        game: str, folder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = engine_for(game)
    rng = random.Random(game)
    lines: list[str] = []
    for line in log_lines(engine, folder, 2):
        lines.append(line)
        if "{" in line and "{cup" not in line:
            lines += _variants(line, rng)
    taken = 0
    other_dice = parsing._other_dice

    def counted(*args: Any) -> Any:
        nonlocal taken
        found = other_dice(*args)
        taken += found is not None
        return found

    monkeypatch.setattr(parsing, "_other_dice", counted)
    memo: dict[str, Any] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#") or len(line) > 2000:
            continue
        fast = _shown(_remembered_line, None, engine, memo, number, line)
        long = _shown(_parse_line, None, engine, number, line)
        assert fast == long, line
    assert taken > 100, taken  # the remembered commands made many variants
