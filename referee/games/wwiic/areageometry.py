"""The WWII Commander map as areas: each space's region, computed from the scenario data.

Each space is the Voronoi cell of its sourced position (the part of the plane nearer to it than
to any other space), cut to a round-cornered limit around the space so that the map's outline
follows the spaces instead of a rectangle.  Borders are then where two cells meet: a river or
canal of the scenario is drawn along that shared edge.  Two spaces the scenario makes
adjacent whose cells do not touch (the reconstruction joins a few spaces across a gap) get
no shared edge; the drawing joins them by a short link instead.

Computed once per process (about 0.1 s for the 133 spaces; the bundled scenario's is shipped
computed by ``tools/build_scenarios.py``), in drawing kilometres, by
half-plane clipping: standard library only, and the same input always gives the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the geometry reads the models' fields; pydantic loads only when needed
    from referee.games.wwiic.scenario import Scenario

Point = tuple[float, float]
Polygon = tuple[Point, ...]

REACH_KM = 6.0
"""How far a space's region reaches from its position at most (the map's outline)."""
_CIRCLE_SIDES = 20
_EPSILON = 1e-6


@dataclass(frozen=True)
class AreaGeometry:
    """The regions of the spaces and the edges they share, in drawing km (y north)."""

    cells: dict[str, Polygon]
    shared: dict[frozenset[str], tuple[Point, Point]]
    """The edge two adjacent spaces share, where their regions touch."""
    centres: dict[str, Point]
    """Where a space's marks go: its sourced position."""


def _clip(polygon: Sequence[Point], a: Point, b: Point) -> list[Point]:
    """The part of ``polygon`` nearer to ``a`` than to ``b`` (Sutherland-Hodgman, one edge)."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = b[0] - a[0], b[1] - a[1]

    def side(p: Point) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny

    out: list[Point] = []
    count = len(polygon)
    for i in range(count):
        p, q = polygon[i], polygon[(i + 1) % count]
        sp, sq = side(p), side(q)
        if sp <= 0:
            out.append(p)
        if (sp < 0 < sq) or (sq < 0 < sp):
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _circle(centre: Point, radius: float) -> list[Point]:
    return [
        (centre[0] + radius * math.cos(2 * math.pi * k / _CIRCLE_SIDES),
         centre[1] + radius * math.sin(2 * math.pi * k / _CIRCLE_SIDES))
        for k in range(_CIRCLE_SIDES)
    ]


def _on_bisector(p: Point, a: Point, b: Point) -> bool:
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = b[0] - a[0], b[1] - a[1]
    length = math.hypot(nx, ny) or 1.0
    return abs((p[0] - mx) * nx + (p[1] - my) * ny) / length < 5e-3


def _shared_edge(cell: Polygon, a: Point, b: Point) -> tuple[Point, Point] | None:
    on = [p for p in cell if _on_bisector(p, a, b)]
    if len(on) < 2:
        return None
    on.sort()
    first, last = on[0], on[-1]
    if math.dist(first, last) < 0.05:
        return None
    return (first, last)


def _rounded(polygon: Sequence[Point]) -> Polygon:
    return tuple((round(x, 3), round(y, 3)) for x, y in polygon)


def compute(scenario: Scenario) -> AreaGeometry:
    """The regions of every space of ``scenario``."""
    centres = {space.id: (space.x, space.y) for space in scenario.spaces}
    ids = sorted(centres)
    cells: dict[str, Polygon] = {}
    for space_id in ids:
        a = centres[space_id]
        polygon = _circle(a, REACH_KM)
        for other in ids:
            if other == space_id:
                continue
            b = centres[other]
            if math.dist(a, b) > 2 * REACH_KM + _EPSILON:
                continue
            polygon = _clip(polygon, a, b)
            if not polygon:
                break
        cells[space_id] = _rounded(polygon)
    shared: dict[frozenset[str], tuple[Point, Point]] = {}
    for border in scenario.borders:
        edge = _shared_edge(cells[border.a], centres[border.a], centres[border.b])
        if edge is not None:
            shared[frozenset((border.a, border.b))] = edge
    return AreaGeometry(cells, shared, centres)


_CACHE: dict[tuple[object, ...], AreaGeometry] = {}

SHIPPED_GEOMETRY = "wwiic-market-garden-geometry.pickle"
"""The bundled scenario's geometry with its ``geometry_key``, computed by
``tools/build_scenarios.py`` (``referee.core.compiled``): made from this module's code, used
only for the very positions and borders it was computed from."""


def geometry_key(scenario: Scenario) -> tuple[object, ...]:
    """What ``compute`` reads of a scenario: the spaces' positions and the borders."""
    return (tuple((space.id, space.x, space.y) for space in scenario.spaces),
            tuple((border.a, border.b) for border in scenario.borders))


def shipped_files() -> list[Path]:
    """What the shipped geometry is made from (besides the key it carries): this code."""
    return [Path(__file__)]


def _shipped(key: tuple[object, ...]) -> AreaGeometry | None:
    from referee.core.compiled import load_compiled

    found = load_compiled(SHIPPED_GEOMETRY, shipped_files())
    if isinstance(found, tuple) and len(found) == 2 and found[0] == key \
            and isinstance(found[1], AreaGeometry):
        return found[1]
    return None


def area_geometry(scenario: Scenario) -> AreaGeometry:
    """``compute``, once per set of space positions and borders in a process (the bundled
    scenario's is shipped computed)."""
    key = geometry_key(scenario)
    geometry = _CACHE.get(key)
    if geometry is None:
        geometry = _CACHE[key] = _shipped(key) or compute(scenario)
    return geometry
