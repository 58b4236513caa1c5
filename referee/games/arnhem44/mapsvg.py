"""Draw the Arnhem '44 board as SVG (standard library only, deterministic output).

Sectors are areas: the Voronoi cell of each sector's drawing position, clipped to a disc of
``REACH`` km, coloured by sector type and labelled with the name and the three numbers
(infantry, tanks, artillery).  Borders that are waterways are drawn on the shared edge of the
two cells: light blue for canals and rivers, deep blue for the three streams; bridges (small,
major, with their value) and ferries on them.  Drop zones, German flag sectors and the start
sectors are marked.  A position can be overlaid: the figures of each side in each sector.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from referee.core.svg import (
    LAST_ACTION,
    Element,
    Highlight,
    arrow_layer,
    escape,
    heading_line,
    last_action_words,
    svg_root,
)
from referee.games.arnhem44.copying import Figures
from referee.games.arnhem44.lastaction import LastAction, last_action, resolver
from referee.games.arnhem44.maplabels import Block, Box, place
from referee.games.arnhem44.report import figures_json
from referee.games.arnhem44.scenario import Scenario

SCALE = 13.0
"""Pixels per kilometre."""
MARGIN = 40.0
REACH = 6.5
"""No sector reaches further than this many km from its drawing position."""
WATER = {"waterway": ("#5fb3f0", 3.5), "stream": ("#1c4fa0", 7.0)}
Point = tuple[float, float]


def _clip(poly: list[Point], a: float, b: float, c: float) -> list[Point]:
    """Keep the part of ``poly`` where a*x + b*y <= c (Sutherland-Hodgman)."""
    out: list[Point] = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if (fp < 0 < fq) or (fq < 0 < fp):
            t = fp / (fp - fq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def cells(sites: Mapping[str, Point]) -> dict[str, list[Point]]:
    out: dict[str, list[Point]] = {}
    items = sorted(sites.items())
    for name, (x, y) in items:
        poly = [(x + REACH * math.cos(math.pi * k / 12), y + REACH * math.sin(math.pi * k / 12))
                for k in range(24)]
        for other, (u, v) in items:
            if other == name or abs(u - x) > 2 * REACH or abs(v - y) > 2 * REACH:
                continue
            a, b = u - x, v - y
            c = (u * u + v * v - x * x - y * y) / 2
            poly = _clip(poly, a, b, c)
        out[name] = poly
    return out


def shared_edge(poly: list[Point], p: Point, q: Point) -> tuple[Point, Point] | None:
    """The edge of ``poly`` on the bisector of ``p`` and ``q``, if the cells touch."""
    a, b = q[0] - p[0], q[1] - p[1]
    c = (q[0] ** 2 + q[1] ** 2 - p[0] ** 2 - p[1] ** 2) / 2
    norm = math.hypot(a, b) or 1.0
    on = [pt for pt in poly if abs(a * pt[0] + b * pt[1] - c) / norm < 1e-6]
    if len(on) < 2:
        return None
    on.sort()
    return on[0], on[-1]


@dataclass(frozen=True)
class _Frame:
    """What every picture of one scenario shares: its size, where each sector is drawn, and
    the SVG text of the unchanging layers (computed once per scenario and process: the
    sector cells alone cost a fifth of a second)."""

    width: int
    height: int
    at: dict[str, Point]
    """Each sector's drawing position, in pixels."""
    opening: str
    """The ``<svg>`` tag and the picture's title."""
    before: list[str]
    """The background, written before the heading."""
    middle: list[str]
    """Sectors, waterways and crossings, after the heading."""
    after: list[str]
    """The legend, after the figures."""
    labelled: list[str] = field(default_factory=list)
    """The sectors' labels, over the last action's arrows and under the figures."""
    blocks: tuple[Block, ...] = ()
    """Every sector's label block ..."""
    anchors: dict[str, Point] = field(default_factory=dict)
    """... and where it is written (``maplabels.place``)."""
    fixed: tuple[Box, ...] = ()
    """The marks no label may cover."""
    cells: dict[str, str] = field(default_factory=dict)
    """Each sector's outline, as the points of its polygon."""

    @cached_property
    def head(self) -> str:
        """The lines before the heading, as one text."""
        return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>', self.opening,
                          *self.before])

    @cached_property
    def middle_text(self) -> str:
        return "\n".join(self.middle)

    @cached_property
    def labelled_text(self) -> str:
        return "\n".join(self.labelled)

    @cached_property
    def tail(self) -> str:
        """The lines after the figures, the closing tag included, as one text."""
        return "\n".join([*self.after, "</svg>"])


_FRAMES: dict[int, tuple[Scenario, _Frame]] = {}


def _frame(scenario: Scenario) -> _Frame:
    kept = _FRAMES.get(id(scenario))
    if kept is not None and kept[0] is scenario:
        return kept[1]
    frame = _shipped_frame(scenario) or _make_frame(scenario)
    if len(_FRAMES) > 8:
        _FRAMES.clear()
    _FRAMES[id(scenario)] = (scenario, frame)
    return frame


SHIPPED_FRAME = "arnhem44-standard-frame.pickle"
"""The bundled scenario (without its folder) and its frame, made by ``tools/build_scenarios.py``
(``referee.core.compiled``): used only for a scenario equal to that one."""


def frame_files() -> list[Path]:
    """The code the shipped frame is made by: this drawer, the label placing, the SVG writer
    and the scenario's records and models."""
    from referee.core import svg
    from referee.games.arnhem44 import maplabels, scenario

    return [Path(__file__), Path(maplabels.__file__), Path(svg.__file__),
            *scenario.code_files()]


def compiled_frame() -> tuple[Scenario, _Frame]:
    """What ``tools/build_scenarios.py`` ships: the bundled scenario and its frame."""
    from referee.games.arnhem44.scenario import compiled_form

    scenario = compiled_form()
    return scenario, _make_frame(scenario)


def _shipped_frame(scenario: Scenario) -> _Frame | None:
    from referee.core.compiled import load_compiled

    found = load_compiled(SHIPPED_FRAME, frame_files())
    if (isinstance(found, tuple) and len(found) == 2 and isinstance(found[1], _Frame)
            and found[0] == scenario._replace(folder="")):
        return found[1]
    return None


def _written(elements: list[Element]) -> list[str]:
    out: list[str] = []
    for element in elements:
        element.write(out, 1)
    return out


def _make_frame(scenario: Scenario) -> _Frame:
    meta = scenario.meta
    sites = {s.id: (s.x, s.y) for s in scenario.sectors}
    xs = [p[0] for p in sites.values()]
    ys = [p[1] for p in sites.values()]
    min_x, max_x = min(xs) - REACH, max(xs) + REACH
    min_y, max_y = min(ys) - REACH, max(ys) + REACH
    width = int((max_x - min_x) * SCALE + 2 * MARGIN)
    height = int((max_y - min_y) * SCALE + 2 * MARGIN + 40)

    def px(p: Point) -> Point:
        return (MARGIN + (p[0] - min_x) * SCALE, MARGIN + 40 + (max_y - p[1]) * SCALE)

    def pts(poly: list[Point]) -> str:
        return " ".join(f"{px(p)[0]:.1f},{px(p)[1]:.1f}" for p in poly)

    background = Element.make("rect", None, x=0, y=0, width=width, height=height,
                              fill="#eef3f7")
    polys = cells(sites)
    layer = Element.make("g", None, id="sectors")
    for sector in scenario.sectors:
        colour = meta.types[sector.type].colour
        layer.add("polygon", points=pts(polys[sector.id]), fill=colour, stroke="#ffffff",
                  stroke_width=1.2)
    water = Element.make("g", None, id="waterways")
    marks = Element.make("g", None, id="crossings")
    values = {b.id: b for b in scenario.crossings.bridges}
    fixed: list[Box] = []
    """The bridges' values and the ferries' marks: no label may cover them."""
    for border in scenario.borders:
        if border.kind == "plain":
            continue
        edge = shared_edge(polys[border.a], sites[border.a], sites[border.b])
        if edge is None:
            mid = ((sites[border.a][0] + sites[border.b][0]) / 2,
                   (sites[border.a][1] + sites[border.b][1]) / 2)
            edge = (mid, mid)
        colour, stroke = WATER[border.kind]
        (x1, y1), (x2, y2) = px(edge[0]), px(edge[1])
        if edge[0] == edge[1]:
            water.add("circle", cx=x1, cy=y1, r=stroke, fill=colour)
        else:
            water.add("line", x1=f"{x1:.1f}", y1=f"{y1:.1f}", x2=f"{x2:.1f}", y2=f"{y2:.1f}",
                      stroke=colour, stroke_width=stroke, stroke_linecap="round")
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        if border.bridge:
            bridge = values[border.bridge]
            a, b = px(sites[border.a]), px(sites[border.b])
            angle = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
            size = 22 if bridge.kind == "major" else 14
            group = marks.add("g", transform=f"translate({mx:.1f},{my:.1f}) "
                              f"rotate({angle:.1f})")
            group.add("rect", x=-size / 2, y=-4, width=size, height=8, fill="#8a5a2b",
                      stroke="#3b2410", stroke_width=1)
            half = size / 2 * max(abs(math.cos(math.radians(angle))),
                                  abs(math.sin(math.radians(angle)))) + 4
            fixed.append((mx - half, my - half, mx + half, my + half))
            marks.add("text", f"{bridge.value}", x=f"{mx + 8:.1f}", y=f"{my - 6:.1f}",
                      font_size=11, font_weight="bold", fill="#3b2410")
            fixed.append((mx + 8, my - 6 - 8.8, mx + 8 + len(str(bridge.value)) * 7.3,
                          my - 6 + 2.75))
        if border.ferry:
            marks.add("circle", cx=f"{mx:.1f}", cy=f"{my:.1f}", r=6, fill="#203040",
                      stroke="#ffffff", stroke_width=1.5)
            marks.add("text", "F", x=f"{mx - 3.5:.1f}", y=f"{my + 3.5:.1f}", font_size=9,
                      fill="#ffffff")
            fixed.append((mx - 6, my - 6, mx + 6, my + 6))
    labels = Element.make("g", None, id="labels")
    zones = {z.centre: z.number for z in scenario.crossings.drop_zones}
    blocks = [Block(sector.id, sector.name or sector.id,
                    " ".join(map(str, sector.numbers or meta.types[sector.type].numbers)),
                    sector.id if sector.start else None, sector.flag, zones.get(sector.id))
              for sector in scenario.sectors]
    centres = {key: px(site) for key, site in sites.items()}
    anchors = place(blocks, centres, fixed)
    for block in blocks:
        x, y = anchors[block.sector]
        labels.add("text", block.name, x=f"{x:.1f}", y=f"{y - 4:.1f}",
                   font_size=9, text_anchor="middle", fill="#1b1b1b")
        labels.add("text", block.numbers, x=f"{x:.1f}", y=f"{y + 7:.1f}",
                   font_size=9, text_anchor="middle", fill="#333333", font_weight="bold")
        if block.flag:
            labels.add("rect", x=f"{x - 16:.1f}", y=f"{y - 22:.1f}", width=9, height=6,
                       fill="#c01818", stroke="#000000", stroke_width=0.6)
        if block.start:
            # The start sector by the name the logs give it (Start-West), under the town's
            # name on the map (Lommel): both names, everywhere (interpretations, A-map).
            labels.add("text", block.start, x=f"{x:.1f}", y=f"{y + 18:.1f}",
                       font_size=9, text_anchor="middle", fill="#7a1010", font_weight="bold")
        if block.zone is not None:
            zx, zy = block.zone_at(x, y)
            labels.add("circle", cx=f"{zx:.1f}", cy=f"{zy:.1f}", r=8, fill="#ffffff",
                       stroke="#2f7d32", stroke_width=2)
            labels.add("text", str(block.zone), x=f"{zx:.1f}", y=f"{zy + 4:.1f}",
                       font_size=10, text_anchor="middle", font_weight="bold", fill="#2f7d32")
    legend = Element.make("g", None, id="legend")
    lx, ly = MARGIN, height - 30
    for index, info in enumerate(meta.types.values()):
        legend.add("rect", x=lx + index * 150, y=ly, width=14, height=14, fill=info.colour)
        legend.add("text", f"{info.name} {' '.join(map(str, info.numbers))}",
                   x=lx + index * 150 + 18, y=ly + 11, font_size=11)
    root: list[str] = []
    svg_root(width, height, "Arnhem '44 - sector map (reconstruction)").write(root)
    return _Frame(width, height, {key: px(site) for key, site in sites.items()},
                  "\n".join(root[:-1]), _written([background]),
                  _written([layer, water, marks]), _written([legend]), _written([labels]),
                  tuple(blocks), anchors, tuple(fixed),
                  {s.id: pts(polys[s.id]) for s in scenario.sectors})


def draw_map(scenario: Scenario, figures: Mapping[str, Mapping[str, Mapping[str, Mapping[
        str, int]]]] | None = None, title: str | None = None, last: LastAction | None = None,
        words: str = "") -> str:
    """The SVG text of the board, with ``figures`` (sector -> side -> group -> kind -> n)
    and the ``last`` action (its arrows and outlines over the map, ``words`` under the
    heading).  The unchanging layers come from the scenario's frame; only the heading, the
    last action and the figures are drawn anew."""
    return "\n".join(map_parts(scenario, figures, title, last, words)) + "\n"


def map_parts(scenario: Scenario, figures: Mapping[str, Mapping[str, Mapping[str, Mapping[
        str, int]]]] | None = None, title: str | None = None, last: LastAction | None = None,
        words: str = "") -> list[str]:
    """``draw_map``'s text in parts of whole lines (``core.svg.PART_DRAWERS``): the frame's
    unchanging layers are the same strings at every position."""
    frame = _frame(scenario)
    heading = title or ("Arnhem '44 - the sector map (reconstructed; numbers: infantry tanks "
                        "artillery)")
    parts = [frame.head,
             f'  <text x="{MARGIN:g}" y="28" class="heading" font-size="18" font-weight="bold">'
             f'{escape(heading)}</text>']
    if words:
        parts.append("  " + heading_line(MARGIN, 52, words, limit=int(frame.width / 7.2),
                                         attrs=f' font-size="13" fill="{LAST_ACTION}"'))
    _add(parts, frame.middle_text)
    if last is not None and (last.arrows or last.outlined):
        group = Element.make("g", None, id="last-action")
        for sector in last.outlined:
            if sector in frame.cells:
                group.add("polygon", points=frame.cells[sector], fill="none",
                          stroke=LAST_ACTION, stroke_width=3.5, class_="last-target",
                          data_sector=sector)
        group.children.append(arrow_layer(last.arrows))
        drawn: list[str] = []
        group.write(drawn, 1)
        _add(parts, "\n".join(drawn))
    _add(parts, frame.labelled_text)
    if figures:
        # Written as text directly (the figures change at every position; the element
        # writer's generality is not worth its cost here), the way ``Element.write`` would.
        out = ['  <g id="figures">']
        starts = {b.sector for b in frame.blocks if b.start}
        for sector_id, sides in figures.items():
            if sector_id not in frame.anchors:
                continue
            x, y = frame.anchors[sector_id]  # under the sector's label, wherever it went
            if sector_id in starts:
                y += 11
            row = 0
            for side, colour in (("allied", "#2f6e2f"), ("german", "#4a4a4a")):
                groups = sides.get(side)
                if not groups:
                    continue
                text = " ".join(f"{n}{kind[0]}" + (f"/{group}" if group != "DE" else "")
                                for group, kinds in groups.items() for kind, n in kinds.items())
                w = 6 + 5.4 * len(text)
                y0 = y + 11 + row * 13
                out.append(f'    <rect x="{x - w / 2:.1f}" y="{y0:.1f}" width="{w:.1f}" '
                           f'height="12" fill="{colour}" rx="2"/>')
                out.append(f'    <text x="{x:.1f}" y="{y0 + 9:.1f}" font-size="9" '
                           f'text-anchor="middle" fill="#ffffff">{escape(text)}</text>')
                row += 1
        out.append("  </g>")
        parts.append("\n".join(out))
    parts.append(frame.tail)
    return parts


def _add(parts: list[str], text: str) -> None:
    """``text`` as the next part, unless it has no lines (an empty part would add one)."""
    if text:
        parts.append(text)


def draw_position(engine: Any, state: Any, highlight: Highlight | None) -> str:
    """``referee render``: the board with a log's figures and the last action (the drawer of
    ``core.svg``)."""
    return "\n".join(position_parts(engine, state, highlight)) + "\n"


def position_parts(engine: Any, state: Any, highlight: Highlight | None) -> list[str]:
    """``draw_position``'s text in parts of whole lines (``core.svg.PART_DRAWERS``, what
    ``referee view`` reads)."""
    board = engine.board
    figures = _figures(board, state)
    title = f"Round {state.round} ({'night' if state.night else 'day'}), phase {state.phase}"
    if highlight is None:
        return map_parts(board.scenario, figures, title)
    kept = _RESOLVERS.get(id(board))
    if kept is None or kept[0] is not board:
        if len(_RESOLVERS) > 8:
            _RESOLVERS.clear()
        kept = _RESOLVERS[id(board)] = (board, resolver(board.sectors.lookup))
    sector_of = kept[1]
    frame = _frame(board.scenario)
    last = last_action(highlight.commands, sector_of, frame.at.get)
    return map_parts(board.scenario, figures, title, last,
                     last_action_words(highlight, highlight.events))


def _figures(board: Any, state: Any) -> dict[str, Any]:
    """The figures of each sector holding any, as the engine's JSON gives them (its
    ``sectors[].units``, by ``report.figures_json``) without making the rest of the JSON: a
    ``view`` draws every position.  A sector's ``Figures`` are never changed in place and are
    shared between positions, so each one's JSON is made once."""
    out: dict[str, Any] = {}
    units = state.units
    for sector in board.order:
        counts = units.get(sector)
        if not counts:
            continue
        if type(counts) is not Figures:
            out[sector] = figures_json(counts)
            continue
        kept = _FIGURES.get(id(counts))
        if kept is None or kept[0] is not counts:
            if len(_FIGURES) >= 65536:
                _FIGURES.clear()
            kept = _FIGURES[id(counts)] = (counts, figures_json(counts))
        out[sector] = kept[1]
    return out


_FIGURES: dict[int, tuple[Figures, dict[str, Any]]] = {}
"""Each sector's figures met (by ``id``, the object kept) with their JSON."""

_RESOLVERS: dict[int, tuple[Any, Callable[[str], str | None]]] = {}
"""Each board drawn (by ``id``) with its resolver of sector names, kept per process."""
