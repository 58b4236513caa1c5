"""Board pictures as plain SVG: a small deterministic writer, and the registry of the games'
board drawers.

The writer keeps attributes in the order they are given and writes integers (or numbers with
at most two decimals), so one position always gives the same bytes: golden files can pin it.
A game plugs in its drawer by one entry in ``DRAWERS``: ``"module:function"``, the function
taking ``(engine, state, highlight)`` and returning the SVG text.  Modules are imported only
when a board of their game is drawn.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

from referee.core.engine import Engine, Event
from referee.core.errors import ProblemKind, RefereeError
from referee.core.files import write_output

SVG_NS = "http://www.w3.org/2000/svg"


def escape(text: str) -> str:
    """``text`` with ``&``, ``<`` and ``>`` written as entities (the same bytes as
    ``xml.sax.saxutils.escape``, whose module imports ``urllib.request`` and ``http.client``:
    a quarter of a ``render``'s imports)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """``text`` as a quoted XML attribute value, the same bytes as
    ``xml.sax.saxutils.quoteattr``: escaped, line ends and tabs as character references, in
    double quotes unless it holds a double quote and no single one."""
    body = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in body:
        return f'"{body}"'
    if "'" not in body:
        return f"'{body}'"
    return '"' + body.replace('"', "&quot;") + '"'

DRAWERS: dict[str, str] = {
    "battle-card": "referee.games.battle_card.board_svg:draw_board",
    "wwiic": "referee.pbem.maps:draw_wwiic",  # the engine's own map drawer, adapted
    "arnhem44": "referee.games.arnhem44.mapsvg:draw_position",
    "koenig-eindhoven": "referee.games.koenig_eindhoven.drawing:draw_board",
}
"""Game id -> ``module:function`` of its board drawer."""

PART_DRAWERS: dict[str, str] = {
    "wwiic": "referee.pbem.maps:wwiic_parts",
    "arnhem44": "referee.games.arnhem44.mapsvg:position_parts",
}
"""Game id -> ``module:function`` of a drawer giving its ``DRAWERS`` drawer's text in parts:
``"\\n".join(parts) + "\\n"`` is that text, and each part is whole lines (not empty, not
ending in a line break).  ``referee view`` stores each part's lines once: a part met again
(the unchanging map, the same string at every position) costs one look-up."""


@dataclass(frozen=True)
class Highlight:
    """The last action before the drawn position: its line, text, commands and events."""

    line: int
    text: str
    commands: tuple[Any, ...] = ()
    events: tuple[str, ...] = ()
    facts: tuple[Event, ...] = ()
    """The line's events themselves (kind and data), for what the words do not say."""


Drawer = Callable[[Engine[Any, Any], Any, Highlight | None], str]
PartDrawer = Callable[[Engine[Any, Any], Any, Highlight | None], list[str]]


def drawer_for(game: str) -> Drawer | None:
    """The board drawer of ``game``, or ``None`` when the game has none yet."""
    drawer: Drawer | None = _imported(DRAWERS.get(game))
    return drawer


def part_drawer_for(game: str) -> PartDrawer | None:
    """The drawer of ``game``'s board in parts (``PART_DRAWERS``), or ``None``."""
    drawer: PartDrawer | None = _imported(PART_DRAWERS.get(game))
    return drawer


def _imported(target: str | None) -> Any:
    if target is None:
        return None
    module_name, _, function = target.partition(":")
    try:
        if importlib.util.find_spec(module_name) is None:
            return None
        module = importlib.import_module(module_name)
    except ImportError:  # the drawer, or a module it draws with, is not there (yet)
        return None
    return getattr(module, function)


def _number(value: float) -> str:
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _attribute(name: str) -> str:
    return name.rstrip("_").replace("_", "-")


@dataclass
class Element:
    """One SVG element; ``add`` appends a child and returns it."""

    tag: str
    text: str | None = None
    attrs: list[tuple[str, str]] = field(default_factory=list)
    children: list[Element] = field(default_factory=list)

    @classmethod
    def make(cls, tag: str, text: str | None = None, /, **attrs: str | float) -> Element:
        pairs = [(_attribute(k), _number(v) if isinstance(v, int | float) else v)
                 for k, v in attrs.items()]
        return cls(tag, text, pairs)

    def add(self, tag: str, text: str | None = None, /, **attrs: str | float) -> Element:
        child = Element.make(tag, text, **attrs)
        self.children.append(child)
        return child

    def write(self, out: list[str], depth: int = 0) -> None:
        pad = "  " * depth
        attrs = "".join(f" {k}={quoteattr(v)}" for k, v in self.attrs)
        if not self.children and self.text is None:
            out.append(f"{pad}<{self.tag}{attrs}/>")
        elif not self.children:
            out.append(f"{pad}<{self.tag}{attrs}>{escape(self.text or '')}</{self.tag}>")
        else:
            out.append(f"{pad}<{self.tag}{attrs}>")
            if self.text is not None:
                out.append(f"{pad}  {escape(self.text)}")
            for child in self.children:
                child.write(out, depth + 1)
            out.append(f"{pad}</{self.tag}>")


def haloed_text(x: str, y: str, text: str, attrs: str, *, ink: str | None = None,
                halo: str, width: float) -> str:
    """A label with a halo that every renderer draws: the halo as a text of its own (stroke
    and fill of the halo's colour) under the ink, instead of ``paint-order="stroke"``, which
    CairoSVG (PNG) ignores and which then paints the stroke over the letters.  ``x`` and
    ``y`` are written numbers, ``attrs`` the label's font and anchor (no fill or stroke),
    ``ink`` its colour (``None``: inherited), ``text`` escaped here."""
    body = escape(text)
    fill = "" if ink is None else f' fill="{ink}"'
    return (f'<text x="{x}" y="{y}"{attrs} fill="{halo}" stroke="{halo}" '
            f'stroke-width="{_number(width)}" stroke-linejoin="round" aria-hidden="true">'
            f'{body}</text><text x="{x}" y="{y}"{attrs}{fill}>{body}</text>')


LAST_ACTION = "#e07000"
"""The colour of the last action: its arrows, outlines and words."""
ARROW_MARKER = "last-action-head"
Point = tuple[float, float]


@dataclass(frozen=True)
class Arrow:
    """One arrow of the last action, as python-chess draws a last move: from the moving or
    firing units (``start``, the id of their place) along ``points`` to the target (``end``)."""

    start: str
    end: str
    points: tuple[Point, ...]


def arrow_layer(arrows: Sequence[Arrow], *, width: float = 4.0, gap: float = 9.0,
                colour: str = LAST_ACTION) -> Element:
    """``<g id="last-action-arrows">``: the arrowhead's marker, then a line (a polyline for
    a path of more than two points) per arrow, its last stretch stopped ``gap`` pixels short
    of the target's centre so the head points at it without covering it.  Each arrow names
    its places in ``data-from`` and ``data-to``.  An arrow with no length is left out."""
    layer = Element.make("g", None, id="last-action-arrows")
    drawn = [a for a in arrows if len(a.points) >= 2 and _length(a.points) > gap]
    if not drawn:
        return layer
    defs = layer.add("defs")
    marker = defs.add("marker", id=ARROW_MARKER, viewBox="0 0 10 10", refX=6, refY=5,
                      markerWidth=4, markerHeight=4, markerUnits="strokeWidth", orient="auto")
    marker.add("path", d="M 0 0 L 10 5 L 0 10 z", fill=colour)
    for arrow in drawn:
        points = list(arrow.points)
        (x1, y1), (x2, y2) = points[-2], points[-1]
        span = math.hypot(x2 - x1, y2 - y1)
        if span > gap:
            points[-1] = (x2 - (x2 - x1) * gap / span, y2 - (y2 - y1) * gap / span)
        style: dict[str, str | float] = {
            "fill": "none", "stroke": colour, "stroke_width": width,
            "stroke_linecap": "round", "stroke_linejoin": "round", "stroke_opacity": 0.9,
            "marker_end": f"url(#{ARROW_MARKER})", "class_": "last-arrow",
            "data_from": arrow.start, "data_to": arrow.end,
        }
        if len(points) == 2:
            layer.add("line", x1=round(points[0][0], 1), y1=round(points[0][1], 1),
                      x2=round(points[1][0], 1), y2=round(points[1][1], 1), **style)
        else:
            layer.add("polyline", points=" ".join(f"{_number(round(x, 1))},"
                                                  f"{_number(round(y, 1))}"
                                                  for x, y in points), **style)
    return layer


def _length(points: Sequence[Point]) -> float:
    return sum(math.dist(a, b) for a, b in pairwise(points))


def written(element: Element, depth: int = 0) -> str:
    """One element (and its children) as SVG text, for drawers that write their text
    directly."""
    out: list[str] = []
    element.write(out, depth)
    return "\n".join(out)


def last_action_words(highlight: Highlight | None, results: Sequence[str]) -> str:
    """The last action in words for a board's heading: its line, what it says and what came
    of it (``results``, the game's own words: the die, the Attack Factor, the hits)."""
    if highlight is None:
        return ""
    words = f"Last: line {highlight.line}: {highlight.text}"
    kept = [r for r in results if r]
    return words + (" \u2014 " + "; ".join(kept) if kept else "")


def heading_line(x: float, y: float, words: str, *, limit: int, attrs: str) -> str:
    """A ``class="heading"`` text of the board, cut to ``limit`` characters on the board
    with the whole sentence in ``data-full`` (what the viewer's caption shows) and in its
    tooltip."""
    shown = words if len(words) <= limit else words[: limit - 1] + "\u2026"
    return (f'<text x="{_number(x)}" y="{_number(y)}" class="heading" '
            f"data-full={quoteattr(words)}{attrs}><title>{escape(words)}</title>"
            f"{escape(shown)}</text>")


def svg_root(width: int, height: int, title: str) -> Element:
    root = Element.make("svg", None, xmlns=SVG_NS, width=width, height=height,
                        viewBox=f"0 0 {width} {height}", font_family="DejaVu Sans, sans-serif")
    root.add("title", title)
    return root


def to_text(root: Element) -> str:
    """The SVG document: an XML declaration, then the elements indented two spaces a level."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>']
    root.write(out)
    return "\n".join(out) + "\n"


class PictureError(RefereeError):
    """A picture that cannot be made (PNG without its optional extra)."""

    kind = ProblemKind.HEADER


def svg_to_png(svg: str) -> bytes:
    """PNG bytes of an SVG picture, through CairoSVG (the optional ``png`` extra)."""
    try:
        cairosvg: Any = importlib.import_module("cairosvg")
    except (ImportError, OSError):
        raise PictureError(
            "a PNG needs CairoSVG and the Cairo library: pip install "
            "'market-garden-referee[png]' (or write the picture as .svg)"
        ) from None
    try:
        data: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    except Exception as error:  # CairoSVG's own failures have no common class
        raise PictureError(f"the PNG could not be made from the board's SVG ({error})") from None
    return data


PICTURE_SUFFIXES = (".svg", ".png")


def write_picture(path: Path, svg: str, *, replace: bool = True,
                  inputs: Sequence[Path | None] = ()) -> None:
    """Write ``svg`` to ``path`` atomically: as PNG when the name ends in .png, else as SVG
    (``replace=False``: never over an existing file, ``FileExistsError``), never through a
    link nor over an input (``write_output``)."""
    write_output(path, svg_to_png(svg) if path.suffix.lower() == ".png" else svg,
                 replace=replace, inputs=inputs)
