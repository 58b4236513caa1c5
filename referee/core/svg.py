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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from referee.core.engine import Engine
from referee.core.errors import ProblemKind, RefereeError
from referee.core.files import write_output

SVG_NS = "http://www.w3.org/2000/svg"

DRAWERS: dict[str, str] = {
    "battle-card": "referee.games.battle_card.board_svg:draw_board",
    "wwiic": "referee.pbem.maps:draw_wwiic",  # the engine's own map drawer, adapted
    "arnhem44": "referee.games.arnhem44.mapsvg:draw_position",
    "koenig-eindhoven": "referee.games.koenig_eindhoven.drawing:draw_board",
}
"""Game id -> ``module:function`` of its board drawer."""


@dataclass(frozen=True)
class Highlight:
    """The last action before the drawn position: its line, text, commands and events."""

    line: int
    text: str
    commands: tuple[Any, ...] = ()
    events: tuple[str, ...] = ()


Drawer = Callable[[Engine[Any, Any], Any, Highlight | None], str]


def drawer_for(game: str) -> Drawer | None:
    """The board drawer of ``game``, or ``None`` when the game has none yet."""
    target = DRAWERS.get(game)
    if target is None:
        return None
    module_name, _, function = target.partition(":")
    try:
        if importlib.util.find_spec(module_name) is None:
            return None
        module = importlib.import_module(module_name)
    except ImportError:  # the drawer, or a module it draws with, is not there (yet)
        return None
    drawer: Drawer = getattr(module, function)
    return drawer


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
