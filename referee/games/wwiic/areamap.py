"""The WWII Commander board as an area map (SVG, standard library only, deterministic).

Each space is drawn as its region (``areageometry``), filled by terrain; rivers and canals
run along the edges two regions share, roads and the Club Route join the spaces' centres,
bridges sit where a road crosses water.  Towns, objective VPs, supply sources and the Polish
drop area are marked in each space; the off-map boxes and the Pannerden Ferry stand along the
edges.  A position adds, per space, a tint of the side that controls it and the units as
stacked counters (side colour, NATO symbol, strength, and marks for spent, low and out of
supply) below the space's name; a header gives turn, date, weather, initiative, the time
track and the VPs; the last action is highlighted (a move's path as an arrow, an attacked
space outlined, what happened in words).

The map itself does not depend on the position: it is drawn once per process and reused, so
a viewer drawing hundreds of positions pays for the units only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.core.svg import Arrow, arrow_layer, escape, haloed_text, quoteattr, written
from referee.games.wwiic.areageometry import AreaGeometry, Point, area_geometry
from referee.games.wwiic.commands import Activate, Attack, MoveOut

if TYPE_CHECKING:  # the drawing reads the models' fields; pydantic loads only when needed
    from referee.games.wwiic.board import Board
    from referee.games.wwiic.scenario import Box, Scenario

SCALE = 17.0
"""Pixels per drawing kilometre."""
MARGIN_X = 120.0
TOP = 150.0
"""Room above the map for the header."""
BOTTOM = 90.0
LETTER = 5.0
"""About how wide a letter of a space's name is (8.5 px DejaVu Sans), for keeping counters
off the names."""
COUNTER_W = 27.0
COUNTER_H = 20.0
"""A counter's size in pixels."""

TERRAIN_FILL: dict[str, str] = {
    "clear": "#f4efcf",
    "mixed": "#d7e4b0",
    "woods": "#9dbd84",
    "city": "#c9c0b6",
    "polder": "#c4e2dc",
}
WATER: dict[str, str] = {
    "river": 'stroke="#2a5fb8" stroke-width="5" stroke-linecap="round"',
    "canal": 'stroke="#4a8fe0" stroke-width="3" stroke-linecap="round"',
}
SIDE_FILL: dict[str, str] = {"allied": "#5d8a3a", "german": "#6b7580"}
SIDE_TINT: dict[str, str] = {"allied": "#3f9c35", "german": "#4a4a4a"}
ROAD = 'stroke="#9a6a3a" stroke-width="2"'
CLUB_ROUTE = 'stroke="#c0262d" stroke-width="3.2"'
BOX_LINK = 'stroke="#7a7a7a" stroke-width="1" stroke-dasharray="4 3"'


def _num(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _text(x: float, y: float, text: str, extra: str = "") -> str:
    return f'<text x="{_num(x)}" y="{_num(y)}"{extra}>{escape(text)}</text>'


def _line(a: Point, b: Point, style: str) -> str:
    return (f'<line x1="{_num(a[0])}" y1="{_num(a[1])}" x2="{_num(b[0])}" '
            f'y2="{_num(b[1])}" {style}/>')


def _points(points: Sequence[Point]) -> str:
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in points)


@dataclass(frozen=True)
class Counter:
    """A unit as the board shows it."""

    id: str
    side: str
    type: str
    strength: int
    spent: bool = False
    supply: str = "in"


@dataclass(frozen=True)
class BoardView:
    """What a position adds to the map."""

    units: Mapping[str, Sequence[Counter]] = field(default_factory=dict)
    """Counters by space or box id, in stacking order."""
    control: Mapping[str, str] = field(default_factory=dict)
    header: Sequence[str] = ()
    path: Sequence[str] = ()
    """The spaces of the last action's move, in order."""
    attacked: Sequence[str] = ()
    action: str = ""
    results: Sequence[str] = ()


class _Frame:
    """Drawing km to pixels (north up), and where every space, box and the ferry stand."""

    def __init__(self, scenario: Scenario, geometry: AreaGeometry) -> None:
        xs = [p[0] for cell in geometry.cells.values() for p in cell]
        ys = [p[1] for cell in geometry.cells.values() for p in cell]
        self.min_x, self.max_y = min(xs), max(ys)
        self.width = (max(xs) - self.min_x) * SCALE + 2 * MARGIN_X
        self.height = (self.max_y - min(ys)) * SCALE + TOP + BOTTOM
        self.at: dict[str, Point] = {
            space_id: self.point(*centre) for space_id, centre in geometry.centres.items()
        }
        self.cells: dict[str, str] = {
            space_id: quoteattr(_points([self.point(*p) for p in cell]))
            for space_id, cell in geometry.cells.items()
        }
        self.stacks: dict[tuple[str, tuple[Counter, ...]], str] = {}
        self.clear_of_labels: dict[tuple[str, int], Point] = {}
        """Where a stack of so many counters in a place is drawn clear of the labels."""
        self.labels: list[tuple[float, float, float, float]] = []
        """The boxes of the map's labels and marks that no counter may cover."""
        """The SVG of a stack of counters in a place, drawn once per process."""
        for box in scenario.boxes:
            self.at[box.id] = self._box(box)
        ferry = [self.at[s] for s in scenario.ferry.adjoins if s in self.at]
        if ferry:
            self.at[scenario.ferry.id] = (max(p[0] for p in ferry) + 60,
                                          sum(p[1] for p in ferry) / len(ferry) + 40)

    def point(self, x: float, y: float) -> Point:
        return (MARGIN_X + (x - self.min_x) * SCALE, TOP + (self.max_y - y) * SCALE)

    def _box(self, box: Box) -> Point:
        points = [self.at[link.space] for link in box.adjoins]
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        if box.edge == "west":
            return 50, cy
        if box.edge == "east":
            return self.width - 50, cy
        if box.edge == "north":
            return cx, TOP - 25
        return cx, self.height - 40


_BASE: dict[int, tuple[Scenario, tuple[str, str, _Frame]]] = {}
"""Each scenario drawn (by ``id``, the object kept) with its map without a position."""


def _base(scenario: Scenario) -> tuple[str, str, _Frame]:
    """The map without a position: (the map's layers, its labels, the frame), drawn once."""
    key = id(scenario)
    kept = _BASE.get(key)
    if kept is not None and kept[0] is scenario:
        return kept[1]
    result = _draw_base(scenario)
    if len(_BASE) > 8:
        _BASE.clear()
    _BASE[key] = (scenario, result)
    return result


def _draw_base(scenario: Scenario) -> tuple[str, str, _Frame]:
    geometry = area_geometry(scenario)
    frame = _Frame(scenario, geometry)
    at = frame.at
    out: list[str] = ['<g id="areas">']
    for space in scenario.spaces:
        cell = frame.cells[space.id]
        out.append(f"<polygon points={cell} "
                   f'fill="{TERRAIN_FILL[space.terrain]}" stroke="#8c8c7a" '
                   f'stroke-width="0.8"><title>{escape(_describe(space))}</title></polygon>')
        if space.polish_drop:
            out.append(f"<polygon points={cell} fill=\"url(#polish)\" "
                       'stroke="none"/>')
    out.append("</g>")
    out.append('<g id="water">')
    links: list[str] = []
    for border in scenario.borders:
        edge = geometry.shared.get(frozenset((border.a, border.b)))
        if border.kind in WATER:
            if edge is not None:
                out.append(_line(frame.point(*edge[0]), frame.point(*edge[1]), WATER[border.kind]))
            else:
                links.append(_line(at[border.a], at[border.b],
                                   WATER[border.kind].replace('width="5"', 'width="2"')
                                   .replace('width="3"', 'width="2"')))
        elif edge is None:
            links.append(_line(at[border.a], at[border.b],
                               'stroke="#8c8c7a" stroke-width="1" stroke-dasharray="2 3"'))
    out.extend(links)
    out.append("</g>")
    out.append('<g id="roads">')
    on_route = {frozenset(pair) for pair in pairwise(scenario.club_route())}
    bridges: list[str] = []
    for border in scenario.borders:
        a, b = at[border.a], at[border.b]
        if border.road:
            club = frozenset((border.a, border.b)) in on_route
            out.append(_line(a, b, CLUB_ROUTE if club else ROAD))
        if border.bridge or border.foot_crossing:
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            dash = ' stroke-dasharray="2 1"' if border.foot_crossing else ""
            bridges.append(f'<rect x="{_num(mx - 5)}" y="{_num(my - 3.5)}" width="10" '
                           f'height="7" fill="#ffffff" stroke="#202020" stroke-width="1.2"{dash}>'
                           f"<title>{escape(border.notes or 'bridge')}</title></rect>")
    for box in scenario.boxes:
        for link in box.adjoins:
            style = ROAD if link.road else BOX_LINK
            out.append(_line(at[box.id], at[link.space], style))
    if scenario.ferry.id in at:
        for end in scenario.ferry.adjoins:
            out.append(_line(at[scenario.ferry.id], at[end],
                             'stroke="#2a5fb8" stroke-width="1.5" stroke-dasharray="4 2"'))
    out.extend(bridges)
    out.append("</g>")
    out.append('<g id="marks">')
    for space in scenario.spaces:
        x, y = at[space.id]
        if space.town:
            out.append(f'<rect x="{_num(x - 3)}" y="{_num(y - 3)}" width="6" height="6" '
                       'fill="#303030"/>')
        else:
            out.append(f'<circle cx="{_num(x)}" cy="{_num(y)}" r="2" fill="#505050"/>')
        if space.vp is not None:
            out.append(f'<rect x="{_num(x + 14)}" y="{_num(y - 30)}" width="16" height="12" '
                       'rx="2" fill="#ffffff" stroke="#c0262d" stroke-width="1.5"/>')
            out.append(_text(x + 22, y - 21, str(space.vp), ' font-size="9" '
                             'text-anchor="middle" fill="#c0262d" font-weight="bold"'))
        if space.supply_source:
            triangle = _points([(x - 30, y - 18), (x - 24, y - 28), (x - 18, y - 18)])
            out.append(f'<polygon points="{triangle}" '
                       'fill="#f0b000" stroke="#6a4a00"><title>supply source '
                       f'{escape("/".join(space.supply_source))}</title></polygon>')
    for box in scenario.boxes:
        bx, by = at[box.id]
        out.append(f'<rect x="{_num(bx - 30)}" y="{_num(by - 15)}" width="60" height="30" '
                   f'rx="3" fill="#e8e2d0" stroke="#303030"><title>{escape(box.name)}, closes '
                   f"turn {box.closes_turn}</title></rect>")
    if scenario.ferry.id in at:
        fx, fy = at[scenario.ferry.id]
        out.append(f'<rect x="{_num(fx - 30)}" y="{_num(fy - 11)}" width="60" height="22" '
                   'rx="3" fill="#dceaf7" stroke="#2a5fb8"/>')
    out.append("</g>")
    labels: list[str] = ['<g id="labels" font-size="8.5" text-anchor="middle">']
    for space in scenario.spaces:
        x, y = at[space.id]
        half = len(space.name) * LETTER / 2
        frame.labels.append((x - half, y - 15, x + half, y - 4))
        if space.vp is not None:
            frame.labels.append((x + 14, y - 30, x + 30, y - 18))
        labels.append(haloed_text(_num(x), _num(y - 7), space.name, "", halo="#fbfaf5",
                                  width=2.5))
    for box in scenario.boxes:
        bx, by = at[box.id]
        labels.append(_text(bx, by - 3, box.id, ' font-size="11" font-weight="bold"'))
        labels.append(_text(bx, by + 9, box.formation, ' font-size="8"'))
    if scenario.ferry.id in at:
        fx, fy = at[scenario.ferry.id]
        labels.append(_text(fx, fy - 14, "Pannerden Ferry", ' font-size="8"'))
    labels.append("</g>")
    return ("\n".join(out), "\n".join(labels), frame)


def _describe(space: object) -> str:
    from referee.games.wwiic.scenario import Space

    assert isinstance(space, Space)
    parts = [space.name, space.terrain + (" with town" if space.town else "")]
    if space.club_route is not None:
        parts.append(f"Club Route {space.club_route}")
    if space.vp is not None:
        parts.append(f"objective {space.vp} VP")
    if space.supply_source:
        parts.append("supply source " + "/".join(space.supply_source))
    if space.polish_drop:
        parts.append("Polish drop area")
    return ", ".join(parts)


_DEFS = """<defs>
<pattern id="polish" width="6" height="6" patternUnits="userSpaceOnUse"
 patternTransform="rotate(45)">
<line x1="0" y1="0" x2="0" y2="6" stroke="#b0306a" stroke-width="1.2" opacity="0.5"/>
</pattern>
</defs>"""


def _symbol(x: float, y: float, kind: str) -> list[str]:
    """The NATO symbol of a unit type, in a box at (x, y) (its top left), 12 by 8 pixels."""
    out = [f'<rect x="{_num(x)}" y="{_num(y)}" width="12" height="8" fill="none" '
           'stroke="#ffffff" stroke-width="0.8"/>']
    x2, y2 = x + 12, y + 8
    if kind in ("infantry", "airborne", "glider", "motorized_infantry", "mechanized_infantry"):
        out.append(_line((x, y), (x2, y2), 'stroke="#ffffff" stroke-width="0.8"'))
        out.append(_line((x, y2), (x2, y), 'stroke="#ffffff" stroke-width="0.8"'))
    if kind in ("armor", "armored_recon", "mechanized_infantry"):
        out.append(f'<ellipse cx="{_num(x + 6)}" cy="{_num(y + 4)}" rx="4.2" ry="2.4" '
                   'fill="none" stroke="#ffffff" stroke-width="0.8"/>')
    if kind in ("recon", "armored_recon", "glider_recon"):
        out.append(_line((x, y2), (x2, y), 'stroke="#ffffff" stroke-width="0.8"'))
    if kind in ("airborne",):
        out.append(f'<path d="M {_num(x + 3)} {_num(y + 2)} q 1.5 -1.8 3 0 q 1.5 -1.8 3 0" '
                   'fill="none" stroke="#ffffff" stroke-width="0.7"/>')
    if kind in ("motorized_infantry",):
        out.append(_line((x + 6, y), (x + 6, y2), 'stroke="#ffffff" stroke-width="0.8"'))
    return out


_SHIFTS = tuple(sorted(
    ((dx, dy) for dx in range(-72, 73, 6) for dy in range(-60, 61, 4)),
    key=lambda d: (abs(d[0]) + abs(d[1]) * 1.3 + (6 if d[1] < 0 else 0), d),
))
"""Where a stack may move from just below its space's mark, nearest first."""


def _per_row(count: int) -> int:
    """Counters a row: a stack of four (two of each side, 6.2) is a square of two rows."""
    return 2 if count == 4 else 3


def _clear_of_labels(frame: _Frame, x: float, y: float, count: int) -> Point:
    """The place nearest below the mark at (x, y) where a stack of ``count`` counters covers
    no name or VP box; the first place when none is clear."""
    columns = _per_row(count)
    rows = -(-count // columns)
    width = columns * (COUNTER_W + 2) - 2
    height = rows * (COUNTER_H + 2) - 2
    for dx, dy in _SHIFTS:
        left, top = x + dx - width / 2, y + dy + 5
        if not any(left < x1 and left + width > x0 and top < y1 and top + height > y0
                   for x0, y0, x1, y1 in frame.labels):
            return x + dx, y + dy
    return x, y


def _counters(x: float, y: float, stack: Sequence[Counter]) -> list[str]:
    """A stack below a space's mark: counters side by side, in rows of three (two for four)."""
    out: list[str] = []
    per_row = _per_row(len(stack))
    width = min(len(stack), per_row) * (COUNTER_W + 2) - 2
    for index, counter in enumerate(stack):
        row, col = divmod(index, per_row)
        cx = x - width / 2 + col * (COUNTER_W + 2)
        cy = y + 5 + row * (COUNTER_H + 2)
        fill = SIDE_FILL.get(counter.side, "#404040")
        opacity = ' fill-opacity="0.5"' if counter.spent else ""
        stroke = "#d01010" if counter.supply == "out" else "#202020"
        edge = "2" if counter.supply == "out" else "0.8"
        marks = ["spent"] if counter.spent else []
        if counter.supply != "in":
            marks.append(f"{counter.supply} supply")
        title = f"{counter.id}: strength {counter.strength}" + (
            f" ({', '.join(marks)})" if marks else "")
        out.append(f"<g><title>{escape(title)}</title>")
        out.append(f'<rect x="{_num(cx)}" y="{_num(cy)}" width="{_num(COUNTER_W)}" '
                   f'height="{_num(COUNTER_H)}" rx="1.5" fill="{fill}"{opacity} '
                   f'stroke="{stroke}" stroke-width="{edge}"/>')
        name = counter.id if len(counter.id) <= 9 else counter.id[:8] + "."
        out.append(_text(cx + COUNTER_W / 2, cy + 5.8, name, ' font-size="5.2" '
                         'text-anchor="middle" fill="#ffffff"'))
        out.extend(_symbol(cx + 3, cy + 8, counter.type))
        out.append(_text(cx + COUNTER_W - 6, cy + 14.5, str(counter.strength),
                         ' font-size="8" text-anchor="middle" fill="#ffffff" '
                         'font-weight="bold"'))
        if counter.supply == "low":
            out.append(f'<circle cx="{_num(cx + COUNTER_W - 1.5)}" cy="{_num(cy + 1.5)}" '
                       'r="2.8" fill="#f0b000" stroke="#202020" stroke-width="0.5"/>')
        if counter.spent:
            out.append(_line((cx + 1, cy + COUNTER_H - 1), (cx + COUNTER_W - 1, cy + 1),
                             'stroke="#202020" stroke-width="0.8" opacity="0.6"'))
        out.append("</g>")
    return out


def draw_board(scenario: Scenario, view: BoardView | None = None) -> str:
    """The map as SVG text, with a position when ``view`` is given."""
    return "\n".join(board_parts(scenario, view)) + "\n"


def board_parts(scenario: Scenario, view: BoardView | None = None) -> list[str]:
    """``draw_board``'s text in parts of whole lines (``core.svg.PART_DRAWERS``): the map's
    layers, its labels and each stack of counters are the same strings wherever they recur."""
    return _parts(scenario.title, *_base(scenario), view)


SHIPPED_MAP = "wwiic-market-garden-map.pickle"
"""The bundled scenario's map without a position (its title, layers, labels and frame), drawn
by ``tools/build_scenarios.py`` (``referee.core.compiled``): a picture of the bundled board
needs neither the validated scenario nor pydantic."""


def map_files() -> list[Path]:
    """What the shipped map is made from: the bundled scenario's files and the code that
    reads and draws them."""
    from referee.core import svg
    from referee.core.resources import scenario_dir
    from referee.games.wwiic import areageometry
    from referee.games.wwiic.scenariofiles import scenario_files

    here = Path(__file__)
    return [*scenario_files(scenario_dir("wwiic") / "market-garden"), here,
            Path(areageometry.__file__), Path(svg.__file__), here.with_name("scenario.py")]


def compiled_map() -> tuple[str, str, str, _Frame]:
    """What ``tools/build_scenarios.py`` ships: the bundled scenario's map, read from its
    files and drawn afresh."""
    from referee.games.wwiic.loader import bundled_path, read_scenario

    scenario = read_scenario(bundled_path())
    return (scenario.title, *_draw_base(scenario))


_SHIPPED: list[tuple[str, str, str, _Frame] | None] = []
"""The shipped map once loaded (``None``: none current)."""


def board_map(board: Board) -> tuple[str, str, str, _Frame]:
    """The map of ``board`` without a position: (title, layers, labels, frame); the shipped
    one for the bundled board, else drawn from its scenario."""
    from referee.games.wwiic.board import bundled_board

    if board is bundled_board():
        if not _SHIPPED:
            from referee.core.compiled import load_compiled

            found = load_compiled(SHIPPED_MAP, map_files())
            _SHIPPED.append(found if isinstance(found, tuple) and len(found) == 4
                            and isinstance(found[3], _Frame) else None)
        if _SHIPPED[0] is not None:
            return _SHIPPED[0]
    scenario = board.scenario
    return (scenario.title, *_base(scenario))


def position_parts(board: Board, view: BoardView | None = None) -> list[str]:
    """``board_parts`` for the board of a game (``pbem.maps``): its map as ``board_map``
    gives it."""
    return _parts(*board_map(board), view)


def _parts(title: str, layers: str, labels: str, frame: _Frame,
           view: BoardView | None) -> list[str]:
    at = frame.at
    view = view or BoardView()
    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(frame.width)}" '
        f'height="{_num(frame.height)}" viewBox="0 0 {_num(frame.width)} '
        f'{_num(frame.height)}" font-family="DejaVu Sans, Arial, sans-serif">',
        f"<title>{escape(title)}</title>",
        _DEFS,
        f'<rect width="{_num(frame.width)}" height="{_num(frame.height)}" fill="#e9eef2"/>',
        layers,
    ]
    out.append('<g id="control">')
    for space_id, side in sorted(view.control.items()):
        cell = frame.cells.get(space_id)
        if cell is not None and side in SIDE_TINT:
            out.append(f'<polygon points={cell} fill="{SIDE_TINT[side]}" fill-opacity="0.14" '
                       'stroke="none"/>')
    out.append("</g>")
    out.append('<g id="last-action">')
    for space_id in view.attacked:
        cell = frame.cells.get(space_id)
        if cell is not None:
            out.append(f'<polygon points={cell} fill="none" stroke="#e07000" '
                       'stroke-width="3.5"/>')
    steps = [s for s in view.path if s in at]
    if len(steps) >= 2:
        out.append(written(arrow_layer([Arrow(steps[0], steps[-1],
                                              tuple(at[s] for s in steps))])))
    out.append("</g>")
    out.append(labels)
    out.append('<g id="units">')
    for place in sorted(view.units):
        if place in at and view.units[place]:
            key = (place, tuple(view.units[place]))
            stack = frame.stacks.get(key)
            if stack is None:
                x, y = at[place]
                if place[:1] in "WNE" and len(place) == 2:
                    y += 10  # below a box's name
                else:
                    spot = (place, len(key[1]))
                    found = frame.clear_of_labels.get(spot)
                    if found is None:
                        found = frame.clear_of_labels[spot] = _clear_of_labels(
                            frame, x, y, len(key[1]))
                    x, y = found
                if len(frame.stacks) >= 20_000:  # a long-lived process stays bounded
                    frame.stacks.clear()
                stack = frame.stacks[key] = "\n".join(_counters(x, y, key[1]))
            out.append(stack)
    out.append("</g>")
    out.extend(_header(frame, title, view))
    out.extend(_legend(frame))
    out.append("</svg>")
    return out


def _header(frame: _Frame, title: str, view: BoardView) -> list[str]:
    out = ['<g id="header">',
           f'<rect x="0" y="0" width="{_num(frame.width)}" height="{_num(TOP - 52)}" '
           'fill="#2d3a2e"/>',
           _text(16, 24, title + " (reconstructed map)",
                 ' font-size="15" font-weight="bold" fill="#ffffff"')]
    for index, line in enumerate(view.header):
        out.append(_text(16, 44 + index * 15, line,
                         ' class="heading" font-size="11.5" fill="#ffffff"'))
    if view.action:
        words = "Last: " + view.action + (": " + "; ".join(view.results) if view.results else "")
        shown = words if len(words) <= 150 else words[:149] + "\u2026"
        # The board has room for one line; the whole sentence is the label's data-full (the
        # viewer's caption shows it) and its tooltip.
        out.append(f'<text x="16" y="{_num(TOP - 60)}" class="heading" '
                   f'data-full={quoteattr(words)} font-size="11" fill="#ffd27a">'
                   f'<title>{escape(words)}</title>{escape(shown)}</text>')
    out.append("</g>")
    return out


def _legend(frame: _Frame) -> list[str]:
    x, y = 16.0, frame.height - 70
    out = ['<g id="legend" font-size="9">']
    for index, (terrain, fill) in enumerate(TERRAIN_FILL.items()):
        cx = x + index * 70
        out.append(f'<rect x="{_num(cx)}" y="{_num(y)}" width="12" height="10" fill="{fill}" '
                   'stroke="#8c8c7a"/>')
        out.append(_text(cx + 16, y + 9, terrain))
    y2 = y + 22
    rows = [("river", WATER["river"]), ("canal", WATER["canal"]), ("road", ROAD),
            ("Club Route", CLUB_ROUTE)]
    for index, (label, style) in enumerate(rows):
        cx = x + index * 90
        out.append(_line((cx, y2), (cx + 22, y2), style))
        out.append(_text(cx + 28, y2 + 3, label))
    y3 = y2 + 18
    out.append(_text(x, y3, "\u25a0 town  \u25b2 supply source  red box: objective VPs  "
                     "hatched: Polish drop area  white: bridge  tint: control  "
                     "counter: strength; faded = spent, yellow dot = low supply, "
                     "red edge = out of supply"))
    out.append("</g>")
    return out


def view_of(
    data: Mapping[str, Any],
    commands: Sequence[object] = (),
    action: str = "",
    results: Sequence[str] = (),
) -> BoardView:
    """A position as the board shows it: from the engine's JSON view of a state, and the
    commands and events of the last action (if any)."""
    units: dict[str, list[Counter]] = {}
    for unit in data.get("units", []):
        place = unit.get("space")
        if place:
            units.setdefault(place, []).append(Counter(
                unit["id"], unit["side"], unit["type"], int(unit["strength"]),
                bool(unit.get("spent")), str(unit.get("supply") or "in"),
            ))
    control = {s["id"]: s["control"] for s in data.get("spaces", []) if s.get("control")}
    vp = data.get("vp") or {}
    header = [
        f"Turn {data.get('turn')} {data.get('half', '')}, {data.get('date', '')}; "
        f"weather {data.get('weather')}; initiative {data.get('initiative')}; "
        f"impulse {data.get('impulse')}; time track {data.get('time')}",
        f"VP {vp.get('total')} (objectives {vp.get('objective')}, eliminated units "
        f"{vp.get('eliminated')}); objective marker: {data.get('objective_marker') or '-'}; "
        f"Polish marker: {data.get('polish_marker') or '-'}",
        f"to act: {data.get('to_act') or 'nobody'} ({data.get('phase')}); eliminated: "
        + (", ".join(data.get("eliminated") or []) or "none"),
    ]
    path: list[str] = []
    attacked: list[str] = []
    for command in commands:
        if isinstance(command, Attack):
            attacked.append(command.space)
        moves = (command.moves if isinstance(command, Activate)
                 else (command.move,) if isinstance(command, MoveOut) else ())
        for move in moves:
            steps = ((move.start,) if move.start else ()) + tuple(move.path)
            if len(steps) >= 2 and not path:
                path = list(steps)
    return BoardView(units, control, header, path, attacked, action, tuple(results))
