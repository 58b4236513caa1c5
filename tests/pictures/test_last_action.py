"""Issue 30: every board draws the last action as python-chess draws a last move — an arrow
from the moving or firing units to the target (``class="last-arrow"``, its places in
``data-from`` and ``data-to``, its first point on the place it starts from) — and writes what
came of it in the heading (``class="heading"``, the whole sentence in ``data-full``, which
the viewer's caption shows).

The positions come from the bundled logs; the expected places and words are read from the
log lines themselves and from the rulebooks' results, not from the drawing."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.core import svg

from ..pbem.helpers import run

NS = {"svg": svg.SVG_NS}


def _board(log: str, upto: int) -> ET.Element:
    ran = run("render", log, "--upto", str(upto))
    assert ran.code == 0, ran.err
    return ET.fromstring(ran.out.encode())


def _arrows(root: ET.Element) -> list[tuple[str | None, str | None, tuple[float, float]]]:
    """(from, to, first point) of each arrow of the last action."""
    out = []
    for node in root.iterfind(".//*[@class='last-arrow']"):
        if node.get("points"):
            x, y = node.get("points", "").split()[0].split(",")
            first = (float(x), float(y))
        else:
            first = (float(node.get("x1", "nan")), float(node.get("y1", "nan")))
        out.append((node.get("data-from"), node.get("data-to"), first))
    return out


def _words(root: ET.Element) -> str:
    """What the viewer's caption shows of the board's heading."""
    return "\n".join(node.get("data-full") or "".join(node.itertext())
                     for node in root.iterfind(".//*[@class='heading']"))


def _near(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return math.dist(a, b) < 0.2


def test_battle_card_attack_arrow_from_the_allied_to_the_german_die() -> None:
    """"Choose whether to defend or attack in each city with the Allied unit. Compare
    strengths ... Roll 1d6": line 11 of win.log attacks Grave; the arrow goes from Grave's
    Allied unit die to its German unit die, and the heading gives the strengths and the
    die."""
    root = _board(str(Path(__file__).parents[1] / "pbem/data/win-table.log"), 11)
    assert [(a, b) for a, b, _ in _arrows(root)] == [("allied:Grave", "german:Grave")]
    words = _words(root)
    assert "Last: line 11:" in words and "82nd 4 against German 2" in words
    assert "rolled 4" in words


def test_battle_card_move_arrow_from_place_to_place() -> None:
    """Line 22 of win.log: "move 82nd Grave->Nijmegen"; the arrow runs from the Grave row
    up to the Nijmegen row."""
    root = _board("bundled:battle-card/win.log", 22)
    arrows = _arrows(root)
    assert [(a, b) for a, b, _ in arrows] == [("Grave", "Nijmegen")]
    node = root.find(".//*[@class='last-arrow']")
    assert node is not None and float(node.get("y2", 0)) < float(node.get("y1", 0))  # north
    assert "82nd moves Grave->Nijmegen" in _words(root)


def test_wwiic_move_arrow_along_the_path() -> None:
    """WWII Commander: a move's path is an arrow from the space it starts in to the last
    space it enters; the heading's Last: line holds the whole result."""
    log = "bundled:wwiic/full-game-draw.log"
    lines = (Path(__file__).parents[2] / "logs/wwiic/full-game-draw.log").read_text(
        encoding="utf-8").splitlines()
    number = next(i for i, text in enumerate(lines, 1)
                  if "->" in text and text.split("#")[0].strip().startswith("allied: activate"))
    path = lines[number - 1].split("#")[0].split()[3].split("{")[0].split("->")
    root = _board(log, number)
    assert [(a, b) for a, b, _ in _arrows(root)][:1] == [(path[0], path[-1])]
    assert "Last: " in _words(root)


def test_eindhoven_fire_arrow_from_the_attacker_with_af_die_and_hit() -> None:
    """Eindhoven Bridge 9.0 Combat Resolution: "If the roll is less than the net Attack
    Factor (AF), one "Hit" is scored on the Target unit."  Lines 118-121: 2/506 (in 0113)
    full-fires at 0213, support brings the AF to 7, the die is 4: a Hit; the arrow runs from
    0113 to 0213, whose hex is outlined."""
    from referee.games.koenig_eindhoven.board import load_board
    from referee.games.koenig_eindhoven.mapsvg import _Layout

    root = _board("bundled:koenig-eindhoven/complete-game.log", 121)
    arrows = _arrows(root)
    assert [(a, b) for a, b, _ in arrows] == [("0113", "0213")]
    assert _near(arrows[0][2], _Layout(load_board()).centre("0113"))
    outlined = [p.get("data-hex") for p in root.iterfind(".//*[@class='last-target']")]
    assert outlined == ["0213"]
    assert "AF 7, die 4: a Hit" in _words(root)


def test_eindhoven_miss_is_drawn_after_the_battle_left_the_state() -> None:
    """9.0: "If the roll is greater than the AF, the result is a "Miss."" — line 182's roll
    6 against AF 4 ends the attack of 2/935 (in 0113) on 0212; the arrow is still drawn."""
    root = _board("bundled:koenig-eindhoven/complete-game.log", 182)
    assert [(a, b) for a, b, _ in _arrows(root)] == [("0113", "0212")]
    assert "AF 4, die 6: a Miss" in _words(root)


def test_eindhoven_move_arrow_from_the_entry_road() -> None:
    """Exclusive 8.5: line 18, "move 1/935 C->1021->1121", enters by road C; the arrow
    starts at road C's circle outside the map and passes 1021 to 1121."""
    from referee.games.koenig_eindhoven.board import load_board
    from referee.games.koenig_eindhoven.mapsvg import _Layout, point_of

    root = _board("bundled:koenig-eindhoven/complete-game.log", 18)
    arrows = _arrows(root)
    assert [(a, b) for a, b, _ in arrows] == [("C", "1121")]
    road = point_of(_Layout(load_board()), "C")
    assert road is not None and _near(arrows[0][2], road)


@pytest.mark.parametrize(("line", "start", "target", "words"), [
    # "allied: invade Nijmegen from Hengstal: 1 inf/82": the defender fires first.
    (71, "Hengstal", "Nijmegen", "invasion of Nijmegen: German defends: 2 hits"),
    # Phase 1 - Barrage Fire: "german: barrage 1 art Arnhem->Heide".
    (107, "Arnhem", "Heide", "German barrage Arnhem->Heide: 3 hits"),
])
def test_arnhem44_arrow_from_the_sector_to_its_target(line: int, start: str, target: str,
                                                      words: str) -> None:
    """Arnhem '44: an invasion (Move/EnterEnemy) or a barrage (Phase 1) is an arrow from the
    sector the figures move or fire from to the target sector, which is outlined; the hits
    are in the heading."""
    from referee.games.arnhem44.board import bundled_board
    from referee.games.arnhem44.mapsvg import _frame

    root = _board("bundled:arnhem44/complete-game.log", line)
    arrows = _arrows(root)
    assert [(a, b) for a, b, _ in arrows] == [(start, target)]
    assert _near(arrows[0][2], _frame(bundled_board().scenario).at[start])
    outlined = [p.get("data-sector") for p in root.iterfind(".//*[@class='last-target']")]
    assert outlined == [target]
    assert words in _words(root)


def test_arnhem44_combat_outlines_the_sector_with_its_hits() -> None:
    """Phase 4.2: "combat Nijmegen" fights in place: Nijmegen is outlined, no arrow, and the
    heading says what each side's fire did."""
    root = _board("bundled:arnhem44/complete-game.log", 184)
    assert _arrows(root) == []
    outlined = [p.get("data-sector") for p in root.iterfind(".//*[@class='last-target']")]
    assert outlined == ["Nijmegen"]
    assert "Allied fires: 2 hits" in _words(root) and "German fires: 4 hits" in _words(root)


def test_the_arrow_helper_stops_short_and_names_its_places() -> None:
    """core/svg.py ``arrow_layer``: one marker, a line for two points, a polyline for more,
    the head stopped short of the target's centre; an arrow of no length is left out."""
    layer = svg.arrow_layer([svg.Arrow("a", "b", ((0.0, 0.0), (100.0, 0.0))),
                             svg.Arrow("a", "c", ((0.0, 0.0), (0.0, 50.0), (60.0, 50.0))),
                             svg.Arrow("a", "a", ((5.0, 5.0), (5.0, 5.0)))], gap=10.0)
    root = ET.fromstring(svg.written(layer).replace("<g ", f'<g xmlns="{svg.SVG_NS}" ', 1))
    assert len(root.findall(".//svg:marker", NS)) == 1
    line = root.find("svg:line", NS)
    assert line is not None and line.get("x2") == "90" and line.get("data-to") == "b"
    polyline = root.find("svg:polyline", NS)
    assert polyline is not None and polyline.get("points") == "0,0 0,50 50,50"
    assert len(root.findall(".//*[@class='last-arrow']")) == 2
