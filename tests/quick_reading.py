"""What the tests of the fast line readers share (``Engine.quick_tree``, ``quicktree.tag_tree``,
issue 31): a tree with every token's type, text and place, Lark's reading of a line in that
form, the lines of a game's bundled and self-played logs, and lines mangled one character at
a time."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import LarkError

from referee.core.engine import Engine
from referee.core.errors import RefereeError
from referee.core.parsing import _parse_line
from referee.core.selfplay import play_game, random_policy

LOGS = Path(__file__).resolve().parents[1] / "logs"


def log_lines(engine: Engine[Any, Any], folder: str, games: int,
              pattern: str = "*.log") -> list[str]:
    """Every line of the game's bundled logs (``logs/FOLDER``, files matching ``pattern``,
    sub-folders too), then of ``games`` self-played ones (seeds ``quick-0``, ``quick-1``...)."""
    found = [line for path in sorted((LOGS / folder).glob(pattern))
             for line in path.read_text(encoding="utf-8").splitlines()]
    for seed in range(games):
        log = play_game(engine, f"quick-{seed}", random_policy, keep_log=True, check=False).log
        found += (log or "").splitlines()
    return found


def shape(tree: Any) -> Any:
    """The tree with each token's type, text and place (Lark's ``Tree ==`` compares text)."""
    if isinstance(tree, Token):
        return (tree.type, str(tree), tree.start_pos, tree.line, tree.column, tree.end_line,
                tree.end_column, tree.end_pos)
    if isinstance(tree, Tree):
        return (tree.data, [shape(child) for child in tree.children])
    return tree


def lark_shape(parser: Lark, line: str) -> Any:
    """Lark's reading of ``line`` as ``shape`` gives it, or ``"refused"``."""
    try:
        return shape(parser.parse(line))
    except LarkError:
        return "refused"


def agrees(quick: Callable[[str], Tree[Any] | None], parser: Lark, line: str) -> bool:
    """The fast reader leaves ``line`` to Lark, or reads it exactly as Lark does."""
    tree = quick(line)
    return tree is None or shape(tree) == lark_shape(parser, line)


def mangled(lines: Sequence[str], alphabet: str, count: int, seed: int) -> Iterator[str]:
    """``count`` lines, each one of ``lines`` with one character put in, taken out or
    changed (from ``alphabet``), seeded."""
    rng = random.Random(seed)
    for _ in range(count):
        line = rng.choice(lines)
        at = rng.randrange(len(line) + 1)
        what = rng.randrange(3)
        if what == 0:
            yield line[:at] + rng.choice(alphabet) + line[at:]
        elif what == 1:
            yield line[:at] + line[at + 1:]
        else:
            yield line[:at] + rng.choice(alphabet) + line[at + 1:]


def with_keywords(lines: Sequence[str], words: Sequence[str], count: int,
                  seed: int) -> Iterator[str]:
    """``count`` lines, each one of ``lines`` with one of the grammar's keywords ``words``
    (as it is, in capitals, with a letter after it, or followed by another keyword) put in
    between two of its words or in place of one, seeded."""
    rng = random.Random(seed)
    for _ in range(count):
        parts = rng.choice(lines).split(" ")
        at = rng.randrange(len(parts) + 1)
        word = rng.choice(words)
        new = rng.choice((word, word.upper(), word + "x", word + " " + rng.choice(words)))
        if at == len(parts) or rng.random() < 0.3:
            parts.insert(at, new)
        else:
            parts[at] = new
        yield " ".join(parts)


def by_command(lines: Sequence[str], per_command: int, seed: int) -> list[str]:
    """``per_command`` lines drawn (seeded) for each command word ``lines`` begin with (after
    a side's ``side:``, before any dice): every kind of line as often as every other."""
    kinds: dict[str, list[str]] = {}
    for line in lines:
        kinds.setdefault(line.split("{")[0].split(":")[-1].split()[0].casefold(), []).append(line)
    rng = random.Random(seed)
    return [rng.choice(group) for group in kinds.values() for _ in range(per_command)]


class _LongWay:
    """A game's engine without ``quick_line``: its lines read by the quick tree or Lark, its
    commands made from the tree."""

    def __init__(self, engine: Any) -> None:
        self.grammar = engine.grammar
        self.quick_tree = engine.quick_tree
        self.build_command = engine.build_command
        self.build_setup = engine.build_setup


def long_way(engine: Engine[Any, Any]) -> Any:
    """``engine`` as the referee reads with it when it has no ``quick_line``."""
    return _LongWay(engine)


def entry_read(engine: Any, number: int, line: str) -> Any:
    """The entry ``engine`` makes of ``line`` as plain values (each command with its class,
    its fields as ``repr`` shows them and its words), or its refusal."""
    try:
        entry = _parse_line(None, engine, number, line)
    except RefereeError as error:
        return ("refused", type(error).__name__, error.to_problem(line=number, text=line))
    items = [(type(item.command), item.command, repr(item.command), str(item.command),
              item.dice, item.column) for item in getattr(entry, "items", ())]
    return (type(entry), entry.number, entry.text, getattr(entry, "side", None), items)
