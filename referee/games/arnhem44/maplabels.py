"""Where the Arnhem '44 map writes each sector's label, so that no two labels overlap.

A sector's label is a block: its name, its three numbers, for a start sector the name the
logs use, the marks of a German flag and a drop zone, and room under it for the first row of
the figures a position puts there.  Around Arnhem, Oosterbeek and
Doorwerth the sectors lie closer than their names are long, so the blocks are placed
greedily: the most crowded sectors first, each at the first of a few offsets from the
sector's drawing position where its box meets no block placed before it and no fixed mark
of the map (the bridges' values, the ferries).  The boxes are estimated from the font size
(DejaVu Sans: about 0.6 em a letter, 0.66 em bold), a little generously.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

Box = tuple[float, float, float, float]
"""left, top, right, bottom in pixels."""
Point = tuple[float, float]

NAME_SIZE = 9.0
LETTER = 0.6
BOLD_LETTER = 0.66
FIGURES = 24.0
"""The width kept free under a label for a row of figures ("1i 2t"); a position may need
more, but the label of a neighbour never sits in the first row's place."""

OFFSETS: tuple[Point, ...] = tuple(sorted(
    ((dx, dy) for dx in range(-36, 37, 6) for dy in range(-24, 25, 4)),
    key=lambda d: (math.hypot(d[0], d[1] * 1.4), d),
))
"""The offsets a label block may take from its sector's drawing position, nearest first."""


@dataclass(frozen=True)
class Block:
    """A sector's label block, its texts relative to its anchor (x: the centre line)."""

    sector: str
    name: str
    numbers: str
    start: str | None = None
    """The start sector's name in the logs (Start-West), written under the numbers."""
    flag: bool = False
    zone: int | None = None

    def boxes(self, x: float, y: float) -> list[Box]:
        """The boxes the block covers with its anchor at (x, y)."""
        out = [_text_box(x, y - 4, self.name, NAME_SIZE, LETTER),
               _text_box(x, y + 7, self.numbers, NAME_SIZE, BOLD_LETTER)]
        if self.start:
            out.append(_text_box(x, y + 18, self.start, NAME_SIZE, BOLD_LETTER))
        below = y + (29 if self.start else 18)
        out.append((x - FIGURES / 2, below - 7, x + FIGURES / 2, below + 5))
        if self.flag:
            out.append((x - 16, y - 22, x - 7, y - 16))
        if self.zone is not None:
            cx, cy = self.zone_at(x, y)
            out.append((cx - 8, cy - 8, cx + 8, cy + 8))
        return out

    def zone_at(self, x: float, y: float) -> Point:
        """The centre of the drop zone's mark: right of the name."""
        return (x + len(self.name) * NAME_SIZE * LETTER / 2 + 10, y - 8)


def _text_box(x: float, baseline: float, text: str, size: float, letter: float) -> Box:
    half = len(text) * size * letter / 2
    return (x - half, baseline - size * 0.8, x + half, baseline + size * 0.25)


def overlap(a: Box, b: Box) -> bool:
    """Whether two boxes share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place(blocks: Sequence[Block], at: Mapping[str, Point],
          fixed: Sequence[Box] = ()) -> dict[str, Point]:
    """Each block's anchor.  Greedily, crowded sectors first, each block at the nearest
    offset whose boxes meet nothing placed before it; when some block finds no free offset,
    the placement starts again with that block first (a few rounds), and a block still left
    without one keeps the offset that meets the fewest (the test of the bundled map checks
    that none is left so)."""

    def crowd(block: Block) -> tuple[int, str]:
        x, y = at[block.sector]
        near = sum(1 for other in blocks
                   if other is not block and math.dist(at[other.sector], (x, y)) < 40)
        return (-near, block.sector)

    order = sorted(blocks, key=crowd)
    anchors: dict[str, Point] = {}
    for _round in range(12):
        anchors, stuck = _greedy(order, at, fixed)
        if not stuck:
            break
        order = [*stuck, *(b for b in order if b not in stuck)]
    return anchors


class _Taken:
    """The boxes placed so far, filed by the cells of a coarse grid they touch, so a
    candidate is checked only against its neighbours (the map has some 800 boxes)."""

    CELL = 64.0

    def __init__(self, boxes: Sequence[Box]) -> None:
        self.cells: dict[tuple[int, int], list[Box]] = {}
        for box in boxes:
            self.add(box)

    def _keys(self, box: Box) -> list[tuple[int, int]]:
        c = self.CELL
        return [(gx, gy) for gx in range(int(box[0] // c), int(box[2] // c) + 1)
                for gy in range(int(box[1] // c), int(box[3] // c) + 1)]

    def add(self, box: Box) -> None:
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(box)

    def hits(self, box: Box) -> int:
        """How many placed boxes ``box`` meets."""
        met = {other for key in self._keys(box) for other in self.cells.get(key, ())
               if overlap(box, other)}
        return len(met)


def _greedy(order: Sequence[Block], at: Mapping[str, Point],
            fixed: Sequence[Box]) -> tuple[dict[str, Point], list[Block]]:
    taken = _Taken(fixed)
    anchors: dict[str, Point] = {}
    stuck: list[Block] = []
    for block in order:
        x, y = at[block.sector]
        best: tuple[int, Point] | None = None
        for dx, dy in OFFSETS:
            hits = sum(taken.hits(box) for box in block.boxes(x + dx, y + dy))
            if best is None or hits < best[0]:
                best = (hits, (x + dx, y + dy))
            if hits == 0:
                break
        assert best is not None
        if best[0]:
            stuck.append(block)
        anchors[block.sector] = best[1]
        for box in block.boxes(*best[1]):
            taken.add(box)
    return anchors, stuck
