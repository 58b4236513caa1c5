"""Draw the Market-Garden map as SVG (standard library only, deterministic output).

Spaces are circles at their drawing positions, coloured by terrain; each border is a line
between the two spaces it separates, styled by its kind (plain, canal, river), with roads,
Club Route, bridges and the Oosterbeek foot crossing drawn over it.  Objective VPs, supply
sources, the Polish drop area, towns, off-map boxes and the Pannerden Ferry are marked.  A
position can be overlaid: units by space or box, Allied/German control, highlighted spaces.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from xml.sax.saxutils import escape, quoteattr

from referee.games.wwiic.scenario import Box, Scenario, Space

SCALE = 11.0
"""Pixels per kilometre of the drawing grid."""
MARGIN = 110.0
RADIUS = 10.0

TERRAIN_FILL: dict[str, str] = {
    "clear": "#f3efc8",
    "mixed": "#cfe0a4",
    "woods": "#6e9a58",
    "city": "#b3aaa2",
    "polder": "#b5dcd6",
}
BORDER_STYLE: dict[str, str] = {
    "plain": 'stroke="#9a9a9a" stroke-width="1"',
    "canal": 'stroke="#3d7fd1" stroke-width="2.5" stroke-dasharray="6 3"',
    "river": 'stroke="#1f4fa8" stroke-width="4.5"',
}
SIDE_COLOUR: dict[str, str] = {"allied": "#2f7d32", "german": "#5a5a5a"}


def _num(value: float) -> str:
    """Fixed-precision numbers so the same input always gives the same text."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _attr(text: str) -> str:
    return quoteattr(text)


class _Canvas:
    def __init__(self, scenario: Scenario) -> None:
        xs = [space.x for space in scenario.spaces]
        ys = [space.y for space in scenario.spaces]
        self.min_x, self.max_x = min(xs), max(xs)
        self.min_y, self.max_y = min(ys), max(ys)
        self.width = (self.max_x - self.min_x) * SCALE + 2 * MARGIN
        self.height = (self.max_y - self.min_y) * SCALE + 2 * MARGIN + 60

    def point(self, x: float, y: float) -> tuple[float, float]:
        """Drawing km to pixels (north up)."""
        return (
            MARGIN + (x - self.min_x) * SCALE,
            MARGIN + 30 + (self.max_y - y) * SCALE,
        )


def _box_position(canvas: _Canvas, scenario: Scenario, box: Box) -> tuple[float, float]:
    points = [canvas.point(scenario.space(s).x, scenario.space(s).y)
              for s in box.adjoining_spaces()]
    cx = sum(p[0] for p in points) / len(points)
    cy = sum(p[1] for p in points) / len(points)
    if box.edge == "west":
        return min(p[0] for p in points) - 62, cy
    if box.edge == "east":
        return max(p[0] for p in points) + 62, cy
    if box.edge == "north":
        return cx, min(p[1] for p in points) - 52
    return cx, max(p[1] for p in points) + 52


def _line(a: tuple[float, float], b: tuple[float, float], style: str) -> str:
    return (f'<line x1="{_num(a[0])}" y1="{_num(a[1])}" x2="{_num(b[0])}" '
            f'y2="{_num(b[1])}" {style}/>')


def _text(x: float, y: float, text: str, extra: str = "") -> str:
    return f'<text x="{_num(x)}" y="{_num(y)}"{extra}>{escape(text)}</text>'


def _space_marks(space: Space, x: float, y: float) -> list[str]:
    out: list[str] = []
    fill = TERRAIN_FILL[space.terrain]
    out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(RADIUS)}" fill="{fill}" '
               f'stroke="#303030" stroke-width="1.2"/>')
    if space.town:
        out.append(f'<rect x="{_num(x - 3)}" y="{_num(y - 3)}" width="6" height="6" '
                   'fill="#202020"/>')
    if space.polish_drop:
        out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(RADIUS + 4)}" fill="none" '
                   'stroke="#b0306a" stroke-width="1.5" stroke-dasharray="3 2"/>')
    if space.vp is not None:
        out.append(f'<rect x="{_num(x + 7)}" y="{_num(y - 19)}" width="18" height="12" rx="2" '
                   'fill="#ffffff" stroke="#c0262d" stroke-width="1.5"/>')
        out.append(_text(x + 16, y - 10, str(space.vp),
                         ' font-size="9" text-anchor="middle" fill="#c0262d" font-weight="bold"'))
    if space.supply_source:
        label = "/".join(space.supply_source)
        out.append(f'<polygon points="{_num(x - 20)},{_num(y - 2)} {_num(x - 14)},{_num(y - 12)} '
                   f'{_num(x - 8)},{_num(y - 2)}" fill="#f0b000" stroke="#6a4a00"/>')
        out.append(_text(x - 14, y - 14, label, ' font-size="8" text-anchor="middle"'))
    out.append(_text(x, y + RADIUS + 9, space.name, ' font-size="8.5" text-anchor="middle"'))
    return out


def _legend(x: float, y: float) -> list[str]:
    out = [_text(x, y, "Terrain", ' font-size="10" font-weight="bold"')]
    for i, (terrain, fill) in enumerate(TERRAIN_FILL.items()):
        cy = y + 14 + i * 16
        out.append(f'<circle cx="{_num(x + 6)}" cy="{_num(cy)}" r="6" fill="{fill}" '
                   'stroke="#303030"/>')
        out.append(_text(x + 16, cy + 3, terrain, ' font-size="9"'))
    y2 = y + 14 + len(TERRAIN_FILL) * 16 + 6
    rows: list[tuple[str, str]] = [
        ("plain border", BORDER_STYLE["plain"]),
        ("canal", BORDER_STYLE["canal"]),
        ("river", BORDER_STYLE["river"]),
        ("road", 'stroke="#8a5a2b" stroke-width="2"'),
        ("Club Route", 'stroke="#c0262d" stroke-width="3"'),
    ]
    for i, (label, style) in enumerate(rows):
        cy = y2 + i * 14
        out.append(_line((x, cy), (x + 24, cy), style))
        out.append(_text(x + 30, cy + 3, label, ' font-size="9"'))
    y3 = y2 + len(rows) * 14 + 4
    out.append(_text(x, y3 + 6, "\u25a0 town  \u25b2 supply source  red box: objective VPs",
                     ' font-size="9"'))
    out.append(_text(x, y3 + 20, "dashed ring: Polish drop area  white square: road bridge",
                     ' font-size="9"'))
    return out


def draw_map(
    scenario: Scenario,
    units: Mapping[str, str] | None = None,
    control: Mapping[str, str] | None = None,
    highlight: Sequence[str] = (),
) -> str:
    """The map as SVG text.

    ``units`` maps unit ids to the space or box they are in; ``control`` maps space ids to
    "allied" or "german"; ``highlight`` lists spaces to ring.  Unknown ids are ignored.
    """
    canvas = _Canvas(scenario)
    at: dict[str, tuple[float, float]] = {
        space.id: canvas.point(space.x, space.y) for space in scenario.spaces
    }
    for box in scenario.boxes:
        at[box.id] = _box_position(canvas, scenario, box)
    ferry_points = [at[s] for s in scenario.ferry.adjoins if s in at]
    if ferry_points:
        at[scenario.ferry.id] = (
            max(p[0] for p in ferry_points) + 48,
            sum(p[1] for p in ferry_points) / len(ferry_points),
        )
    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(canvas.width)}" '
        f'height="{_num(canvas.height)}" viewBox="0 0 {_num(canvas.width)} '
        f'{_num(canvas.height)}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>{escape(scenario.title)}</title>",
        f'<rect width="{_num(canvas.width)}" height="{_num(canvas.height)}" fill="#fbfaf5"/>',
        _text(20, 26, scenario.title + " - reconstructed map",
              ' font-size="15" font-weight="bold"'),
        '<g id="borders">',
    ]
    for border in scenario.borders:
        out.append(_line(at[border.a], at[border.b], BORDER_STYLE[border.kind]))
    out.append("</g>")
    out.append('<g id="roads">')
    route = scenario.club_route()
    on_route = {frozenset(pair) for pair in pairwise(route)}
    for border in scenario.borders:
        if border.road:
            club = frozenset((border.a, border.b)) in on_route
            style = ('stroke="#c0262d" stroke-width="3"' if club
                     else 'stroke="#8a5a2b" stroke-width="2"')
            out.append(_line(at[border.a], at[border.b], style))
        if border.bridge or border.foot_crossing:
            mx = (at[border.a][0] + at[border.b][0]) / 2
            my = (at[border.a][1] + at[border.b][1]) / 2
            dash = ' stroke-dasharray="2 1"' if border.foot_crossing else ""
            out.append(f'<rect x="{_num(mx - 4)}" y="{_num(my - 4)}" width="8" height="8" '
                       f'fill="#ffffff" stroke="#202020" stroke-width="1.2"{dash}>'
                       f"<title>{escape(border.notes or 'bridge')}</title></rect>")
    out.append("</g>")
    out.append('<g id="boxes">')
    for box in scenario.boxes:
        bx, by = at[box.id]
        for link in box.adjoins:
            style = ('stroke="#8a5a2b" stroke-width="2"' if link.road
                     else 'stroke="#7a7a7a" stroke-width="1" stroke-dasharray="4 3"')
            out.append(_line((bx, by), at[link.space], style))
        for other in box.links:
            if box.id < other:
                out.append(_line((bx, by), at[other],
                                 'stroke="#303030" stroke-width="1.5" stroke-dasharray="1 3"'))
    for end in scenario.ferry.adjoins:
        if scenario.ferry.id in at:
            out.append(_line(at[scenario.ferry.id], at[end],
                             'stroke="#1f4fa8" stroke-width="1.5" stroke-dasharray="4 2"'))
    for box in scenario.boxes:
        bx, by = at[box.id]
        out.append(f'<rect x="{_num(bx - 28)}" y="{_num(by - 14)}" width="56" height="28" '
                   f'rx="3" fill="#e8e2d0" stroke="#303030"><title>{escape(box.name)}, closes '
                   f"turn {box.closes_turn}</title></rect>")
        out.append(_text(bx, by - 1, box.id, ' font-size="11" font-weight="bold" '
                                              'text-anchor="middle"'))
        out.append(_text(bx, by + 10, box.formation, ' font-size="8" text-anchor="middle"'))
    if scenario.ferry.id in at:
        fx, fy = at[scenario.ferry.id]
        out.append(f'<rect x="{_num(fx - 30)}" y="{_num(fy - 10)}" width="60" height="20" '
                   'rx="3" fill="#dceaf7" stroke="#1f4fa8"/>')
        out.append(_text(fx, fy + 3, "Ferry", ' font-size="9" text-anchor="middle"'))
    out.append("</g>")
    out.append('<g id="spaces">')
    for space in scenario.spaces:
        x, y = at[space.id]
        out.append(f"<g id={_attr('space-' + space.id)}><title>{escape(_describe(space))}"
                   "</title>")
        out.extend(_space_marks(space, x, y))
        out.append("</g>")
    out.append("</g>")
    out.extend(_overlay(scenario, at, units or {}, control or {}, highlight))
    out.extend(_legend(20, 60))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _describe(space: Space) -> str:
    parts = [space.name, space.terrain + (" with town" if space.town else "")]
    if space.club_route is not None:
        parts.append(f"Club Route {space.club_route}")
    if space.vp is not None:
        parts.append(f"objective {space.vp} VP")
    if space.supply_source:
        parts.append("supply source " + "/".join(space.supply_source))
    return ", ".join(parts)


def _overlay(
    scenario: Scenario,
    at: Mapping[str, tuple[float, float]],
    units: Mapping[str, str],
    control: Mapping[str, str],
    highlight: Iterable[str],
) -> list[str]:
    out: list[str] = ['<g id="position">']
    for space_id in highlight:
        if space_id in at:
            x, y = at[space_id]
            out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(RADIUS + 7)}" '
                       'fill="none" stroke="#f2c200" stroke-width="4"/>')
    for space_id, side in sorted(control.items()):
        if space_id in at and side in SIDE_COLOUR:
            x, y = at[space_id]
            out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(RADIUS + 2)}" '
                       f'fill="none" stroke="{SIDE_COLOUR[side]}" stroke-width="3"/>')
    stacks: dict[str, list[str]] = {}
    for unit_id, place in sorted(units.items()):
        if place in at:
            stacks.setdefault(place, []).append(unit_id)
    sides = {unit.id: unit.side for unit in scenario.units}
    for place in sorted(stacks):
        x, y = at[place]
        for i, unit_id in enumerate(stacks[place]):
            colour = SIDE_COLOUR.get(sides.get(unit_id, ""), "#202020")
            ty = y - RADIUS - 4 - i * 10
            out.append(_text(x, ty, unit_id, f' font-size="8.5" text-anchor="middle" '
                                             f'fill="{colour}" font-weight="bold"'))
    out.append("</g>")
    return out
