"""Draw the Eindhoven Bridge hex map as SVG (standard library only, deterministic output).

Flat-topped hexes filled by terrain, red borders on objective hexes and red stars on the three
primary bridge hexes (Exclusive 12.0), rivers and streams on their hexsides, roads from hex
centre to hex centre, bridges across their hexsides, hex ids, place names, the entry roads A-F
outside the edge, a compass and a legend.  Units are drawn from a plain list of
(unit id, hex, hits), so any position (a log's, a set-up's) can be laid over the map.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.core.svg import (
    LAST_ACTION,
    Arrow,
    Element,
    arrow_layer,
    escape,
    haloed_text,
    heading_line,
    written,
)
from referee.games.koenig_eindhoven.board import ALLIED, Board, Hex, load_board

R = 30.0
"""Hex radius (centre to corner) in pixels."""
MARGIN_X = 60.0
MARGIN_TOP = 90.0
MARGIN_BOTTOM = 150.0

TERRAIN_FILL: dict[str, str] = {
    "clear": "#f1ecc9",
    "woods": "#7fa865",
    "rough": "#c8b58f",
    "town": "#d6cfc4",
    "city": "#a99f96",
}
SIDE_FILL = {ALLIED: "#e4d6a8", "german": "#8c8c8c"}
SIDE_TEXT = {ALLIED: "#1d1d1d", "german": "#ffffff"}
RIVER = "#1f5fbf"
STREAM = "#5fa2e6"
ROAD = "#a0522d"

UnitOnMap = tuple[str, str, int]
"""(unit id, hex id, hits): what the map needs of a position."""


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _pts(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


class _Layout:
    def __init__(self, board: Board) -> None:
        self.board = board
        self.width = MARGIN_X * 2 + (board.columns - 1) * 1.5 * R + 2 * R
        self.height = MARGIN_TOP + MARGIN_BOTTOM + (board.rows + 0.5) * math.sqrt(3) * R

    def centre(self, hex_id: str) -> tuple[float, float]:
        col, row = int(hex_id[:2]), int(hex_id[2:])
        x = MARGIN_X + R + (col - 1) * 1.5 * R
        y = MARGIN_TOP + math.sqrt(3) * R * (row - 0.5 + (0.0 if self.board.is_high(col)
                                                          else 0.5))
        return x, y

    def corners(self, hex_id: str) -> list[tuple[float, float]]:
        cx, cy = self.centre(hex_id)
        return [(cx + R * math.cos(math.radians(60 * i)), cy + R * math.sin(math.radians(60 * i)))
                for i in range(6)]

    def edge(self, a: str, b: str) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners hexes a and b share."""
        ca, cb = self.corners(a), self.corners(b)
        shared = [p for p in ca if any(math.dist(p, q) < 1.0 for q in cb)]
        return shared[0], shared[1]


def _star(cx: float, cy: float, outer: float) -> str:
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else outer * 0.42
        angle = math.radians(-90 + 36 * i)
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return f'<polygon points="{_pts(points)}" fill="#d01010" stroke="#700000" stroke-width="0.6"/>'


def draw_map(board: Board, units: Sequence[UnitOnMap] = (), title: str | None = None,
             last: LastOnMap | None = None) -> str:
    """The SVG text of the map, with ``units`` drawn as counters and the ``last`` action
    (arrows over the map and under the counters, the target hexes outlined, its words under
    the title).  The unchanging map (hexes, hexsides, roads, bridges, labels, legend) is
    drawn once per board and process; each position adds its title, the last action and its
    counters."""
    lay, head, body = _static(board)
    out = [*head,
           f'<text x="{_n(lay.width / 2)}" y="28" class="heading" text-anchor="middle" '
           f'font-size="17" font-weight="bold">{escape(title or board.title)}</text>',
           *body]
    if last is not None:
        if last.words:
            room = int((lay.width - 2 * MARGIN_X - 60) / 7.0)  # left of the compass
            out.append(heading_line(MARGIN_X, 68, last.words, limit=room,
                                    attrs=f' font-size="12.5" fill="{LAST_ACTION}"'))
        group = Element.make("g", None, id="last-action")
        for hex_id in last.outlined:
            if hex_id in board.hexes:
                group.add("polygon", points=_pts(lay.corners(hex_id)), fill="none",
                          stroke=LAST_ACTION, stroke_width=3.5, class_="last-target",
                          data_hex=hex_id)
        group.children.append(arrow_layer(
            [Arrow(a, b, tuple(p for p in (point_of(lay, h) for h in path) if p is not None))
             for a, b, path in last.arrows]))
        out.append(written(group))
    out += [*_units(lay, units), "</svg>"]
    return "\n".join(out) + "\n"


@dataclass(frozen=True)
class LastOnMap:
    """The last action as the map draws it."""

    arrows: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    """(from, to, the places passed): hex ids, or an entry road's letter."""
    outlined: tuple[str, ...] = ()
    words: str = ""


def point_of(lay: _Layout, place: str) -> tuple[float, float] | None:
    """Where a hex's centre, or an entry road's circle (A-F), is drawn."""
    if place in lay.board.hexes:
        return lay.centre(place)
    hex_id = lay.board.entry_roads.get(place)
    if hex_id is None:
        return None
    cx, cy = lay.centre(hex_id)
    dx, dy = _outward(lay, place)
    return cx + dx * (R + 18), cy + dy * (R + 18)


def _outward(lay: _Layout, letter: str) -> tuple[float, float]:
    """The screen direction from an entry road's hex out to its circle."""
    screen_of = {v: k for k, v in lay.board.orientation.items()}
    where = screen_of.get(lay.board.entry_edges.get(letter, ""), "")
    return {"left": (-1.0, 0.0), "right": (1.0, 0.0), "top": (0.0, -1.0),
            "bottom": (0.0, 1.0)}.get(where, (0.0, 0.0))


_STATIC: dict[int, tuple[Board, tuple[_Layout, list[str], list[str]]]] = {}


def _static(board: Board) -> tuple[_Layout, list[str], list[str]]:
    """The layout of ``board`` and the SVG lines of its map before and after the title."""
    kept = _STATIC.get(id(board))
    if kept is not None and kept[0] is board:
        return kept[1]
    lay = _Layout(board)
    head = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(lay.width)}" '
        f'height="{_n(lay.height)}" viewBox="0 0 {_n(lay.width)} {_n(lay.height)}" '
        'font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{_n(lay.width)}" height="{_n(lay.height)}" fill="#ffffff"/>',
    ]
    body = [
        f'<text x="{_n(lay.width / 2)}" y="47" text-anchor="middle" font-size="11" '
        'fill="#8a1c1c">Reconstructed map (not the printed one): see '
        'scenarios/koenig-eindhoven/eindhoven-bridge/NOTES.md</text>',
        *_hexes(lay), *_hexsides(lay), *_roads(lay), *_bridges(lay), *_labels(lay),
        *_entries(lay), *_compass(lay), *_legend(lay),
    ]
    if len(_STATIC) > 8:
        _STATIC.clear()
    _STATIC[id(board)] = (board, (lay, head, body))
    return lay, head, body


def _hexes(lay: _Layout) -> list[str]:
    out = ['<g id="hexes" stroke="#7d7d7d" stroke-width="0.7">']
    for h in lay.board.hexes.values():
        out.append(f'<polygon points="{_pts(lay.corners(h.id))}" '
                   f'fill="{TERRAIN_FILL.get(h.terrain, "#ffffff")}"/>')
    out.append("</g>")
    out.append('<g id="objectives" fill="none" stroke="#d01010" stroke-width="2.6">')
    for h in lay.board.hexes.values():
        if h.objective:
            inner = [(x + (lay.centre(h.id)[0] - x) * 0.09, y + (lay.centre(h.id)[1] - y) * 0.09)
                     for x, y in lay.corners(h.id)]
            out.append(f'<polygon points="{_pts(inner)}"/>')
    out.append("</g>")
    return out


def _hexsides(lay: _Layout) -> list[str]:
    out = ['<g id="waterways" stroke-linecap="round">']
    for key, side in sorted(lay.board.hexsides.items(), key=lambda kv: sorted(kv[0])):
        if not (side.river or side.stream or side.slope):
            continue
        a, b = sorted(key)
        (x1, y1), (x2, y2) = lay.edge(a, b)
        if side.river:
            style = f'stroke="{RIVER}" stroke-width="5"'
        elif side.stream:
            style = f'stroke="{STREAM}" stroke-width="2.5"'
        else:
            style = 'stroke="#6b4b2a" stroke-width="2.5" stroke-dasharray="3 2"'
        out.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" {style}/>')
    out.append("</g>")
    return out


def _roads(lay: _Layout) -> list[str]:
    out = [f'<g id="roads" stroke="{ROAD}" stroke-width="3" fill="none" '
           'stroke-linecap="round" stroke-linejoin="round">']
    for road in lay.board.roads:
        if len(road.hexes) > 1:
            out.append(f'<polyline points="{_pts(lay.centre(h) for h in road.hexes)}"/>')
    out.append("</g>")
    return out


def _bridges(lay: _Layout) -> list[str]:
    out = ['<g id="bridges">']
    for key, side in sorted(lay.board.hexsides.items(), key=lambda kv: sorted(kv[0])):
        if side.bridge is None:
            continue
        a, b = sorted(key)
        (ax, ay), (bx, by) = lay.centre(a), lay.centre(b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        dx, dy = (bx - ax), (by - ay)
        length = math.hypot(dx, dy)
        ux, uy = dx / length, dy / length  # across the hexside
        half_len = 9.0 if side.bridge == "large" else 7.0
        half_w = 4.5 if side.bridge == "large" else 3.0
        corners = [(mx + ux * half_len + uy * half_w, my + uy * half_len - ux * half_w),
                   (mx + ux * half_len - uy * half_w, my + uy * half_len + ux * half_w),
                   (mx - ux * half_len - uy * half_w, my - uy * half_len + ux * half_w),
                   (mx - ux * half_len + uy * half_w, my - uy * half_len - ux * half_w)]
        fill = "#202020" if side.bridge == "large" else "#5a5a5a"
        out.append(f'<polygon points="{_pts(corners)}" fill="{fill}" stroke="#ffffff" '
                   'stroke-width="0.8"/>')
    out.append("</g>")
    return out


def _labels(lay: _Layout) -> list[str]:
    out = ['<g id="labels">']
    for h in lay.board.hexes.values():
        cx, cy = lay.centre(h.id)
        out.append(f'<text x="{_n(cx)}" y="{_n(cy - R * 0.58)}" text-anchor="middle" '
                   f'font-size="7.5" fill="#4a4a4a">{h.id}</text>')
        if h.red_star:
            out.append(_star(cx, cy - 2, 9.5))
    for h in lay.board.hexes.values():
        if h.name and not h.red_star:
            out.extend(_name(lay, h))
    out.append("</g>")
    return out


def _name(lay: _Layout, h: Hex) -> list[str]:
    cx, cy = lay.centre(h.id)
    size = 10.5 if h.terrain == "city" or h.objective else 9.0
    return [haloed_text(_n(cx), _n(cy + R * 0.62), h.name or "",
                        f' text-anchor="middle" font-size="{size}" font-weight="bold"',
                        ink="#1a1a1a", halo="#ffffff", width=2.4)]


def _entries(lay: _Layout) -> list[str]:
    out = ['<g id="entry-roads">']
    for letter, hex_id in sorted(lay.board.entry_roads.items()):
        cx, cy = lay.centre(hex_id)
        dx, dy = _outward(lay, letter)
        x, y = cx + dx * (R + 18), cy + dy * (R + 18)
        out.append(f'<line x1="{_n(cx + dx * R * 0.9)}" y1="{_n(cy + dy * R * 0.9)}" '
                   f'x2="{_n(x - dx * 11)}" y2="{_n(y - dy * 11)}" stroke="{ROAD}" '
                   'stroke-width="3"/>')
        out.append(f'<circle cx="{_n(x)}" cy="{_n(y)}" r="11" fill="#ffffff" '
                   'stroke="#000000" stroke-width="1.5"/>')
        out.append(f'<text x="{_n(x)}" y="{_n(y + 5)}" text-anchor="middle" font-size="14" '
                   f'font-weight="bold">{escape(letter)}</text>')
    out.append("</g>")
    return out


def _compass(lay: _Layout) -> list[str]:
    """North points down-left: the top of the map is south-east (Exclusive 8.5)."""
    cx, cy = lay.width - 48, 66.0
    angle = math.radians(135)  # screen direction of north: down-left
    nx, ny = math.cos(angle), math.sin(angle)
    tip = (cx + nx * 20, cy + ny * 20)
    tail = (cx - nx * 14, cy - ny * 14)
    return [
        '<g id="compass">',
        f'<line x1="{_n(tail[0])}" y1="{_n(tail[1])}" x2="{_n(tip[0])}" y2="{_n(tip[1])}" '
        'stroke="#000000" stroke-width="2"/>',
        f'<circle cx="{_n(tip[0])}" cy="{_n(tip[1])}" r="3" fill="#000000"/>',
        f'<text x="{_n(tip[0] - 8)}" y="{_n(tip[1] + 14)}" font-size="12" '
        'font-weight="bold">N</text>',
        "</g>",
    ]


def _legend(lay: _Layout) -> list[str]:
    y0 = lay.height - MARGIN_BOTTOM + 34
    out = ['<g id="legend" font-size="10.5">']
    x = MARGIN_X
    for terrain in ("clear", "woods", "town", "city"):
        out.append(f'<rect x="{_n(x)}" y="{_n(y0)}" width="16" height="12" '
                   f'fill="{TERRAIN_FILL[terrain]}" stroke="#7d7d7d"/>')
        out.append(f'<text x="{_n(x + 21)}" y="{_n(y0 + 10)}">{terrain.capitalize()}</text>')
        x += 78
    y1 = y0 + 24
    items = [
        (f'<line x1="{_n(MARGIN_X)}" y1="{_n(y1 + 6)}" x2="{_n(MARGIN_X + 18)}" '
         f'y2="{_n(y1 + 6)}" stroke="{RIVER}" stroke-width="5"/>',
         "River hexside (Dommel, Wilhelmina canal, Eindhovensch Kanaal)"),
        (f'<line x1="{_n(MARGIN_X)}" y1="{_n(y1 + 26)}" x2="{_n(MARGIN_X + 18)}" '
         f'y2="{_n(y1 + 26)}" stroke="{STREAM}" stroke-width="2.5"/>', "Stream hexside"),
        (f'<line x1="{_n(MARGIN_X)}" y1="{_n(y1 + 46)}" x2="{_n(MARGIN_X + 18)}" '
         f'y2="{_n(y1 + 46)}" stroke="{ROAD}" stroke-width="3"/>', "Road"),
    ]
    for i, (mark, text) in enumerate(items):
        out.append(mark)
        out.append(f'<text x="{_n(MARGIN_X + 26)}" y="{_n(y1 + 10 + 20 * i)}">'
                   f'{escape(text)}</text>')
    x2 = MARGIN_X + 390
    out.append(f'<rect x="{_n(x2)}" y="{_n(y1 + 2)}" width="18" height="8" fill="#202020"/>')
    out.append(f'<text x="{_n(x2 + 26)}" y="{_n(y1 + 10)}">Large bridge (9.1.1)</text>')
    out.append(f'<rect x="{_n(x2 + 2)}" y="{_n(y1 + 23)}" width="14" height="6" '
               'fill="#5a5a5a"/>')
    out.append(f'<text x="{_n(x2 + 26)}" y="{_n(y1 + 30)}">Small bridge</text>')
    out.append(f'<rect x="{_n(x2 + 1)}" y="{_n(y1 + 41)}" width="16" height="12" '
               'fill="none" stroke="#d01010" stroke-width="2.4"/>')
    out.append(f'<text x="{_n(x2 + 26)}" y="{_n(y1 + 50)}">Objective hex (12.0); '
               'star: primary bridge hex</text>')
    out.append("</g>")
    return out


def _units(lay: _Layout, units: Sequence[UnitOnMap]) -> list[str]:
    if not units:
        return []
    by_hex: dict[str, list[tuple[str, int]]] = {}
    for unit_id, hex_id, hits in units:
        if hex_id in lay.board.hexes:
            by_hex.setdefault(hex_id, []).append((unit_id, hits))
    out = ['<g id="units">']
    size = 22.0
    for hex_id in sorted(by_hex):
        stack = by_hex[hex_id]
        cx, cy = lay.centre(hex_id)
        # Side by side: the stacking limit is two units a hex (8.2); more (an illegal
        # position) are still all drawn, each a little further along.
        step = size + 2
        left = cx - (len(stack) * step - 2) / 2
        for i, (unit_id, hits) in enumerate(stack):
            out.extend(_counter(lay.board, unit_id, hits, left + i * step, cy - size / 2 - 2,
                                size))
    out.append("</g>")
    return out


def _counter(board: Board, unit_id: str, hits: int, x: float, y: float,
             size: float) -> list[str]:
    spec = board.units.get(unit_id)
    side = spec.side if spec else ALLIED
    colour = board.formations[spec.formation].colour if spec and spec.formation in \
        board.formations else "#ffffff"
    text = SIDE_TEXT[side]
    values = f"{spec.cs}-{spec.ma}" if spec else "?"
    out = [
        f'<g><title>{escape(unit_id)}{" hits " + str(hits) if hits else ""}</title>',
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(size)}" height="{_n(size)}" rx="2" '
        f'fill="{SIDE_FILL[side]}" stroke="#000000" stroke-width="0.9"/>',
        f'<rect x="{_n(x + 4)}" y="{_n(y + 8)}" width="{_n(size - 8)}" height="5" '
        f'fill="{colour}" stroke="{text}" stroke-width="0.4"/>',
        f'<text x="{_n(x + size / 2)}" y="{_n(y + 6.5)}" text-anchor="middle" '
        f'font-size="5.2" fill="{text}">{escape(unit_id)}</text>',
        f'<text x="{_n(x + size / 2)}" y="{_n(y + size - 2.5)}" text-anchor="middle" '
        f'font-size="7" font-weight="bold" fill="{text}">{values}</text>',
    ]
    if hits:
        out.append(f'<circle cx="{_n(x + size)}" cy="{_n(y)}" r="5" fill="#d01010" '
                   'stroke="#ffffff" stroke-width="0.8"/>')
        out.append(f'<text x="{_n(x + size)}" y="{_n(y + 2.6)}" text-anchor="middle" '
                   f'font-size="7" font-weight="bold" fill="#ffffff">{hits}</text>')
    out.append("</g>")
    return out


def draw_position(log: Path | None = None, upto: int | None = None) -> str:
    """``referee map koenig-eindhoven [--log LOG]``: the bundled map, with a log's units.

    A log's position comes from the engine's JSON state (``units[]`` with ``id``, ``hex``
    and ``hits``); until the game has an engine, ``--log`` says so instead of guessing."""
    board = load_board()
    if log is None:
        return draw_map(board)
    from referee.api import replay_file
    from referee.core.errors import NotImplementedRule
    from referee.games import game_entry

    if game_entry("koenig-eindhoven").module is None:
        raise NotImplementedRule(
            "-", "the Eindhoven Bridge engine is not implemented yet, so the map cannot show "
            "a log's units; 'referee map koenig-eindhoven' without --log draws the map")

    report = replay_file(log, upto=upto)
    state = report.drawable_state("koenig-eindhoven", "Eindhoven Bridge")
    board = getattr(report.engine, "board", board)  # a scenario file's own map, if any
    return draw_map(board, units_from_state(state))


def units_from_state(state: Mapping[str, Any]) -> list[UnitOnMap]:
    """The (unit id, hex, hits) of every unit on the map in an engine's JSON state."""
    found: list[UnitOnMap] = []
    for unit in state.get("units", []):
        hex_id = unit.get("hex")
        if isinstance(hex_id, str) and hex_id:
            found.append((str(unit["id"]), hex_id, int(unit.get("hits", 0) or 0)))
    return found
