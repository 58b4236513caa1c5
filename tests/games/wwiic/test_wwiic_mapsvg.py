"""The SVG map: well-formed, deterministic, and showing what the data holds."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from referee.games.wwiic.mapsvg import draw_map
from referee.games.wwiic.scenario import Scenario, load_scenario

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def mg() -> Scenario:
    return load_scenario()


def test_map_is_well_formed_svg(mg: Scenario) -> None:
    root = ET.fromstring(draw_map(mg).encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    groups = {g.get("id") for g in root.iter(f"{SVG}g")}
    assert {"borders", "roads", "boxes", "spaces", "position"} <= groups
    spaces = [g for g in root.iter(f"{SVG}g") if (g.get("id") or "").startswith("space-")]
    assert len(spaces) == len(mg.spaces)
    assert len(root.find(f"{SVG}g[@id='borders']")) == len(mg.borders)  # type: ignore[arg-type]


def test_map_is_deterministic(mg: Scenario) -> None:
    position = {"505/82": "Groesbeek", "B/504/82": "Mook", "KG-Walther": "Borkel"}
    first = draw_map(mg, units=position, control={"Mook": "allied"}, highlight=["Mook"])
    again = draw_map(load_scenario(), units=dict(reversed(position.items())),
                     control={"Mook": "allied"}, highlight=["Mook"])
    assert first == again


def test_map_marks_features(mg: Scenario) -> None:
    svg = draw_map(mg)
    assert "&apos;s-Hertogenbosch" in svg or "'s-Hertogenbosch" in svg
    assert 'stroke-dasharray="6 3"' in svg  # canals
    assert 'stroke="#c0262d" stroke-width="3"' in svg  # Club Route
    bridges = sum(1 for b in mg.borders if b.bridge or b.foot_crossing)
    assert svg.count('width="8" height="8"') == bridges
    for box in mg.boxes:
        assert f">{box.id}</text>" in svg
    assert ">24</text>" in svg and ">Ferry</text>" in svg


def test_map_overlay_shows_units_control_and_highlight(mg: Scenario) -> None:
    plain = draw_map(mg)
    svg = draw_map(mg, units={"505/82": "Groesbeek", "10SS": "N4", "ghost": "Atlantis"},
                   control={"Groesbeek": "allied", "Nijmegen": "german"},
                   highlight=["Mook", "Atlantis"])
    ET.fromstring(svg.encode("utf-8"))
    assert ">505/82</text>" in svg and ">10SS</text>" in svg and "ghost" not in svg
    assert svg.count('stroke="#f2c200"') == 1
    assert svg.count('stroke-width="3"/>') - plain.count('stroke-width="3"/>') == 2
