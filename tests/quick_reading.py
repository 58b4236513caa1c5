"""What the tests of the fast line readers share (``Engine.quick_tree``, ``quicktree.tag_tree``,
issue 31): a tree with every token's type, text and place, Lark's reading of a line in that
form, and lines mangled one character at a time."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import LarkError


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
