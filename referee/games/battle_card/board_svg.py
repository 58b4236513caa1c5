"""The Battle Card as an SVG picture: the card's road from Belgium north through Eindhoven,
Grave and Nijmegen to Arnhem, with every die where it lies on the card.

Each city shows its Allied unit die (green), its German unit die (brown) and its control die
(1 German, 6 Allied); 30th Corps is a grey die on the road; the turn die sits in the Fog or
the Clear box.  The last action is outlined in orange and written out at the foot.  Drawn
from the engine's JSON view of the state only, with integer coordinates: deterministic.
"""

from __future__ import annotations

from typing import Any

from referee.core.engine import Engine
from referee.core.svg import (
    Arrow,
    Element,
    Highlight,
    arrow_layer,
    last_action_words,
    svg_root,
    to_text,
)
from referee.games.battle_card.commands import Airdrop, Fight, Landing, Move

WIDTH = 600
TOP = 150            # the first (northernmost) city row
ROW = 118            # height of a city row
DIE = 48
ROAD_X = 52
CARD_X = 92          # the rows start right of the road
ALLIED_FILL = "#3f7a35"
GERMAN_FILL = "#7a4e2a"
CORPS_FILL = "#6b6f73"
CARD_FILL = "#f4ecd6"
HIGHLIGHT = "#e8860c"
CAPTION_CHARS = 92

_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((2, 2),),
    2: ((1, 1), (3, 3)),
    3: ((1, 1), (2, 2), (3, 3)),
    4: ((1, 1), (3, 1), (1, 3), (3, 3)),
    5: ((1, 1), (3, 1), (2, 2), (1, 3), (3, 3)),
    6: ((1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)),
}


def die(parent: Element, x: int, y: int, face: int, fill: str, pip: str, *,
        size: int = DIE, stroke: str = "#222222", label: str = "") -> None:
    """A die at (x, y) showing ``face`` as pips (the quarter points of the face)."""
    group = parent.add("g", class_="die")
    if label:
        group.add("title", label)
    group.add("rect", x=x, y=y, width=size, height=size, rx=size // 6, fill=fill,
              stroke=stroke, stroke_width=2)
    quarter, radius = size // 4, max(3, size // 10)
    for column, row in _PIPS[face]:
        group.add("circle", cx=x + column * quarter, cy=y + row * quarter, r=radius, fill=pip)


def empty_slot(parent: Element, x: int, y: int, label: str) -> None:
    parent.add("rect", x=x, y=y, width=DIE, height=DIE, rx=DIE // 6, fill="none",
               stroke="#9c8f70", stroke_width=2, stroke_dasharray="5 4")
    parent.add("text", label, x=x + DIE // 2, y=y + DIE // 2 + 5, font_size=12,
               text_anchor="middle", fill="#9c8f70")


def _places(highlight: Highlight | None, data: dict[str, Any]) -> set[str]:
    """The places the last action touched (``box`` for the Fog/Clear boxes)."""
    places: set[str] = set()
    if highlight is None:
        return places
    for command in highlight.commands:
        if isinstance(command, Fight):
            places.add(command.city)
        elif isinstance(command, Move):
            places.add(command.destination)
            if command.origin:
                places.add(command.origin)
        elif isinstance(command, Landing):
            places.add("box")
        elif isinstance(command, Airdrop):
            places.update(u["city"] for u in data["units"].values())
    return places


def draw_board(engine: Engine[Any, Any], state: Any, highlight: Highlight | None) -> str:
    """The SVG text of the card in ``state``, the last action highlighted."""
    data = engine.to_json(state)
    outcome = engine.outcome(state)
    cities = list(data["cities"])  # south to north
    rows = list(reversed(cities))  # drawn north (top) to south
    belgium_y = TOP + ROW * len(rows)
    height = belgium_y + 96 + (70 if highlight is not None else 0)
    root = svg_root(WIDTH, height, "Battle Card: Market Garden")
    root.add("rect", x=0, y=0, width=WIDTH, height=height, fill=CARD_FILL)
    touched = _places(highlight, data)
    _header(root, data, outcome, "box" in touched)
    _road(root, len(rows))
    for index, city in enumerate(rows):
        _city(root, TOP + index * ROW, city, data["cities"][city], data, city in touched)
    _belgium(root, belgium_y, data, "Belgium" in touched)
    if highlight is not None:
        arrows = _arrows(highlight, rows, belgium_y)
        if arrows:
            root.children.append(arrow_layer(arrows))
        _caption(root, belgium_y + 96, highlight)
    return to_text(root)


def _arrows(highlight: Highlight, rows: list[str], belgium_y: int) -> list[Arrow]:
    """The last action as arrows: a fight from the city's Allied unit die to its German unit
    die (Battle Card: "attack"); a move from the place left to the place reached, beside the
    road for 30th Corps, over the unit dice for an airborne unit."""
    def middle(place: str) -> int | None:
        if place == "Belgium":
            return belgium_y + 43
        if place in rows:
            return TOP + rows.index(place) * ROW + ROW // 2
        return None

    arrows: list[Arrow] = []
    for command in highlight.commands:
        if isinstance(command, Fight) and command.city in rows:
            y = TOP + rows.index(command.city) * ROW + 44 + 12  # above the unit's name
            arrows.append(Arrow(f"allied:{command.city}", f"german:{command.city}",
                                ((108 + DIE, y), (290 + 4, y))))
        elif isinstance(command, Move) and command.origin:
            start, end = middle(command.origin), middle(command.destination)
            if start is not None and end is not None:
                x = CARD_X - 16 if command.unit.lower().startswith("30") else 108 + DIE // 2
                arrows.append(Arrow(command.origin, command.destination,
                                    ((x, start), (x, end))))
    return arrows


def _header(root: Element, data: dict[str, Any], outcome: dict[str, Any], lit: bool) -> None:
    root.add("text", "Battle Card: Market Garden", x=20, y=36, font_size=20, font_weight="bold")
    line = f"Turn {data['turn']} of {data['turns']}, {data['step']}"
    if outcome.get("result"):
        line = f"{str(outcome['result']).capitalize()}: {outcome.get('reason')}"
    root.add("text", line, x=20, y=62, font_size=15, class_="heading")
    for index, box in enumerate(("clear", "fog")):
        x = 352 + index * 120
        root.add("rect", x=x, y=20, width=110, height=110, rx=8,
                 fill="#ffffff" if box == "clear" else "#c9ccd1",
                 stroke=HIGHLIGHT if lit else "#555555", stroke_width=4 if lit else 2)
        root.add("text", box.upper(), x=x + 55, y=42, font_size=15, font_weight="bold",
                 text_anchor="middle")
        if data["box"] == box:
            die(root, x + 31, 60, min(6, max(1, int(data["turn"]))), "#ffffff", "#222222",
                label=f"turn die: turn {data['turn']}")


def _road(root: Element, rows: int) -> None:
    root.add("line", x1=ROAD_X, y1=TOP + ROW // 2, x2=ROAD_X, y2=TOP + ROW * rows + 40,
             stroke="#8a7a5a", stroke_width=10, stroke_linecap="round")


def _city(root: Element, y: int, name: str, city: dict[str, Any], data: dict[str, Any],
          lit: bool) -> None:
    group = root.add("g", id=f"city-{name.lower()}")
    group.add("rect", x=CARD_X, y=y + 6, width=WIDTH - CARD_X - 16, height=ROW - 12, rx=10,
              fill="#fbf7ea",
              stroke=HIGHLIGHT if lit else "#c8b98f", stroke_width=5 if lit else 1)
    middle = y + ROW // 2
    group.add("circle", cx=ROAD_X, cy=middle, r=12, fill="#fbf7ea", stroke="#8a7a5a",
              stroke_width=4)
    group.add("text", name, x=108, y=y + 32, font_size=19, font_weight="bold")
    dice_y = y + 44
    if city["allied"] is not None:
        die(group, 108, dice_y, int(city["allied"]), ALLIED_FILL, "#ffffff",
            label=f"{city['allied_unit']}: strength {city['allied']}")
        caption = f"{city['allied_unit']} ({city['allied']})"
    else:
        empty_slot(group, 108, dice_y, "none")
        caption = "no Allied unit"
    group.add("text", caption, x=164, y=dice_y + 30, font_size=13, fill=ALLIED_FILL)
    if city["german"] is not None:
        die(group, 290, dice_y, int(city["german"]), GERMAN_FILL, "#ffffff",
            label=f"German unit: strength {city['german']}")
        caption = f"German ({city['german']})"
    else:
        empty_slot(group, 290, dice_y, "gone")
        caption = "removed"
    group.add("text", caption, x=346, y=dice_y + 30, font_size=13, fill=GERMAN_FILL)
    allied = city["control"] == "allied"
    die(group, 474, dice_y, 6 if allied else 1, "#ffffff", "#222222",
        stroke=ALLIED_FILL if allied else GERMAN_FILL,
        label=f"control: {'Allied' if allied else 'German'}")
    group.add("text", "Allied" if allied else "German", x=498, y=y + 32, font_size=12,
              text_anchor="middle", fill=ALLIED_FILL if allied else GERMAN_FILL)
    if name in data["combats_left"]:
        group.add("text", "must fight", x=290, y=y + 32, font_size=13, font_weight="bold",
                  fill="#a0301e")
    if data["corps"] == name:
        die(group, ROAD_X - 20, middle - 20, 3, CORPS_FILL, "#ffffff", size=40,
            label="30th Corps")


def _belgium(root: Element, y: int, data: dict[str, Any], lit: bool) -> None:
    group = root.add("g", id="belgium")
    group.add("rect", x=CARD_X, y=y + 6, width=WIDTH - CARD_X - 16, height=74, rx=10,
              fill="#efe6cc",
              stroke=HIGHLIGHT if lit else "#c8b98f", stroke_width=5 if lit else 1)
    group.add("circle", cx=ROAD_X, cy=y + 43, r=12, fill="#efe6cc", stroke="#8a7a5a",
              stroke_width=4)
    group.add("text", "Belgium", x=108, y=y + 48, font_size=19, font_weight="bold")
    group.add("text", "30th Corps starts here", x=216, y=y + 48, font_size=13, fill="#555555")
    if data["corps"] == "Belgium":
        die(group, ROAD_X - 20, y + 23, 3, CORPS_FILL, "#ffffff", size=40, label="30th Corps")


def _caption(root: Element, y: int, highlight: Highlight) -> None:
    group = root.add("g", id="last-action")
    text = f"Line {highlight.line}: {highlight.text}"
    group.add("text", _clip(text), x=20, y=y + 8, font_size=14, font_weight="bold",
              fill=HIGHLIGHT)
    if highlight.events:
        # What came of it, in the card's words: on the card the first event, in the viewer's
        # caption (data-full) every one.
        group.add("text", _clip(highlight.events[0]), x=20, y=y + 30, font_size=13,
                  class_="heading", data_full=last_action_words(highlight, highlight.events))


def _clip(text: str) -> str:
    return text if len(text) <= CAPTION_CHARS else text[: CAPTION_CHARS - 3].rstrip() + "..."
