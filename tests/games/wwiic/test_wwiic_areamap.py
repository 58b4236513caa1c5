"""The WWII Commander area map: regions from the scenario data, well-formed and deterministic
SVG, and a position drawn on it (counters, control, header, the last action)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from referee.games.wwiic.areageometry import compute
from referee.games.wwiic.areamap import BoardView, Counter, draw_board, view_of
from referee.games.wwiic.commands import Activate, Attack, UnitMove
from referee.games.wwiic.loader import load_scenario
from referee.games.wwiic.scenario import Scenario

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def mg() -> Scenario:
    return load_scenario()


def _group(root: ET.Element, name: str) -> ET.Element:
    found = root.find(f".//{SVG}g[@id='{name}']")
    assert found is not None, name
    return found


def _inside(point: tuple[float, float], polygon: tuple[tuple[float, float], ...]) -> bool:
    """Convex polygon, either orientation."""
    signs = set()
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        cross = (x2 - x1) * (point[1] - y1) - (y2 - y1) * (point[0] - x1)
        if abs(cross) > 1e-9:
            signs.add(cross > 0)
    return len(signs) == 1


def test_every_space_is_a_region_around_its_position(mg: Scenario) -> None:
    geometry = compute(mg)
    assert set(geometry.cells) == {space.id for space in mg.spaces}
    for space in mg.spaces:
        cell = geometry.cells[space.id]
        assert len(cell) >= 3
        assert _inside((space.x, space.y), cell), space.id


def test_a_shared_edge_lies_between_the_two_spaces(mg: Scenario) -> None:
    geometry = compute(mg)
    assert len(geometry.shared) > 0.9 * len(mg.borders)
    for pair, (p, q) in geometry.shared.items():
        a, b = (geometry.centres[s] for s in sorted(pair))
        for point in (p, q):
            assert math.dist(point, a) == pytest.approx(math.dist(point, b), abs=0.02)


def test_the_regions_do_not_overlap(mg: Scenario) -> None:
    """A region holds no other space's position (Voronoi cells are disjoint)."""
    geometry = compute(mg)
    for space_id, cell in geometry.cells.items():
        for other, centre in geometry.centres.items():
            if other != space_id:
                assert not _inside(centre, cell), (space_id, other)


def test_the_map_is_well_formed_and_shows_what_the_data_holds(mg: Scenario) -> None:
    svg = draw_board(mg)
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    assert len(_group(root, "areas").findall(f"{SVG}polygon")) == len(mg.spaces) + sum(
        1 for space in mg.spaces if space.polish_drop)
    water = [b for b in mg.borders if b.kind != "plain"]
    water_lines = [line for line in _group(root, "water").findall(f"{SVG}line")
                   if "2a5fb8" in (line.get("stroke") or "") or "4a8fe0" in (line.get("stroke")
                                                                             or "")]
    assert len(water_lines) == len(water)
    bridges = sum(1 for b in mg.borders if b.bridge or b.foot_crossing)
    assert len(_group(root, "roads").findall(f"{SVG}rect")) == bridges
    labels = {t.text for t in _group(root, "labels").iter(f"{SVG}text")}
    assert {space.name for space in mg.spaces} <= labels
    assert {box.id for box in mg.boxes} <= labels
    assert "Pannerden Ferry" in labels


def test_the_map_is_deterministic(mg: Scenario) -> None:
    view = BoardView({"Mook": [Counter("505/82", "allied", "airborne", 4)]}, {"Mook": "allied"})
    assert draw_board(mg, view) == draw_board(load_scenario(), view)


def test_counters_show_side_type_strength_and_their_marks(mg: Scenario) -> None:
    view = BoardView(
        units={
            "Groesbeek": [Counter("505/82", "allied", "airborne", 4, spent=True),
                          Counter("B/504/82", "allied", "airborne", 3, supply="low")],
            "N4": [Counter("10SS", "german", "armor", 5, supply="out")],
            "Atlantis": [Counter("ghost", "german", "armor", 1)],
        },
        control={"Groesbeek": "allied", "Nijmegen": "german"},
    )
    svg = draw_board(mg, view)
    root = ET.fromstring(svg.encode("utf-8"))
    units = _group(root, "units")
    titles = [t.text or "" for t in units.iter(f"{SVG}title")]
    assert titles == ["505/82: strength 4 (spent)", "B/504/82: strength 3 (low supply)",
                      "10SS: strength 5 (out supply)"]
    assert "ghost" not in svg
    assert len(units.findall(f".//{SVG}ellipse")) == 1  # the armour symbol of 10SS
    assert len(_group(root, "control").findall(f"{SVG}polygon")) == 2


def test_the_last_action_is_highlighted(mg: Scenario) -> None:
    move = UnitMove("505/82", ("Groesbeek", "Mook"), start="Nijmegen")
    view = view_of({"units": [], "spaces": []}, [Activate((move,)), Attack("Mook")],
                   "allied: activate 505/82 Nijmegen->Groesbeek->Mook; attack Mook",
                   ["505/82 moves", "2 hits on 9SS"])
    assert view.path == ("Nijmegen", "Groesbeek", "Mook") or list(view.path) == [
        "Nijmegen", "Groesbeek", "Mook"]
    assert list(view.attacked) == ["Mook"]
    svg = draw_board(mg, view)
    last = _group(ET.fromstring(svg.encode("utf-8")), "last-action")
    arrow = last.find(f".//{SVG}polyline[@class='last-arrow']")
    assert arrow is not None  # the shared arrow of core.svg, from the start to the target
    assert (arrow.get("data-from"), arrow.get("data-to")) == ("Nijmegen", "Mook")
    assert len(last.findall(f"{SVG}polygon")) == 1
    assert "2 hits on 9SS" in svg


def test_a_replayed_position_fills_the_header() -> None:
    from referee.api import replay_file
    from referee.core.resources import resolve

    report = replay_file(resolve("bundled:wwiic/full-game-draw.log", "logs"), upto=120)
    state = report.state_json()
    assert state is not None
    view = view_of(state)
    assert view.header[0].startswith(f"Turn {state['turn']} ")
    placed = sum(len(stack) for stack in view.units.values())
    assert placed == sum(1 for unit in state["units"] if unit["space"])


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_counters_never_cover_a_name_or_vp_box(mg: Scenario, count: int) -> None:
    """Every space holding a stack at once (four is the most a space holds, 6.2): no counter
    lies over any space's name, nor an objective's VP box."""
    from referee.games.wwiic.areamap import COUNTER_H, COUNTER_W, _base

    stack = [Counter(f"U{i}", "allied", "infantry", 3) for i in range(count)]
    svg = draw_board(mg, BoardView({space.id: stack for space in mg.spaces}))
    labels = _base(mg)[2].labels
    units = _group(ET.fromstring(svg.encode("utf-8")), "units")
    rects = [r for r in units.iter(f"{SVG}rect") if r.get("width") == f"{COUNTER_W:.1f}"]
    assert len(rects) == count * len(mg.spaces)
    for rect in rects:
        left, top = float(rect.get("x") or 0), float(rect.get("y") or 0)
        for x0, y0, x1, y1 in labels:
            assert not (left < x1 and left + COUNTER_W > x0 and top < y1
                        and top + COUNTER_H > y0), (left, top, (x0, y0, x1, y1))
