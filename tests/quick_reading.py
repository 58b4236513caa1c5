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
