"""The Arnhem '44 scenario: schema, the seed's facts, the JSON view and the map drawing."""

from __future__ import annotations

import shutil
from pathlib import Path

from referee.games.arnhem44.board import bundled_board
from referee.games.arnhem44.facts import check_scenario, facts
from referee.games.arnhem44.mapsvg import draw_map
from referee.games.arnhem44.scenario import bundled_path, load_scenario
from referee.games.arnhem44.view import scenario_json
from referee.scenarios import check_path


def test_bundled_scenario_states_every_fact_of_the_seed() -> None:
    assert check_scenario() == []
    assert check_path(bundled_path()) == []
    assert check_path(bundled_path() / "forces.toml") == []


def test_forest_numbers_and_the_units_are_the_seeds() -> None:
    """The Map: "Infantry in the FOREST must roll 6 or less ... tanks hit with 40% probability
    and artillery has but 20%"; The Units."""
    board = bundled_board()
    assert board.numbers["Wolfheze"] == (6, 4, 2)
    assert board.hit_points(("UK", "tank")) == 3 and board.hit_points(("DE", "tank")) == 4
    assert board.combat_fp(("UK", "art")) == 2 and board.combat_fp(("DE", "art")) == 3
    assert board.mp == {"inf": 2, "tank": 4, "art": 2}


def test_bridges_ferries_and_start_sectors() -> None:
    board = bundled_board()
    assert sum(b.value for b in board.bridges.values()) == 100
    assert sorted(b.kind for b in board.bridges.values()).count("major") == 4
    assert len(board.ferries) == 5
    assert board.start_sectors == ("Start-West", "Start-Centre", "Start-East")
    assert board.links["Start-Centre"]["De Groote"].bridge == "Joes-bridge"
    assert "Arnhem" in board.above_rhine and "Nijmegen" not in board.above_rhine


def copy_scenario(tmp_path: Path) -> Path:
    target = tmp_path / "standard"
    shutil.copytree(bundled_path(), target)
    return target


def test_a_broken_bridge_value_and_a_bad_type_are_reported(tmp_path: Path) -> None:
    folder = copy_scenario(tmp_path)
    crossings = folder / "crossings.toml"
    crossings.write_text(crossings.read_text().replace("value = 30", "value = 31", 1))
    problems = check_scenario(folder)
    assert any("sum to 101" in p for p in problems)
    sectors = folder / "sectors.toml"
    sectors.write_text(sectors.read_text().replace('type = "forest"', 'type = "jungle"', 1))
    problems = check_scenario(folder)
    assert any("sectors.toml: sector" in p and "type" in p for p in problems)


def test_facts_catch_a_tank_number_out_of_range() -> None:
    scenario = load_scenario()
    types = dict(scenario.meta.types)
    types["polder"] = types["polder"]._replace(numbers=(5, 8, 5))
    meta = scenario.meta._replace(types=types)
    broken = scenario._replace(meta=meta)
    assert any("outside The Map's ranges" in p for p in facts(broken))


def test_scenario_json_and_map() -> None:
    scenario = load_scenario()
    data = scenario_json(scenario)
    assert len(data["sectors"]) == 123 and len(data["bridges"]) == 13
    assert {"id", "side", "formation", "type", "start"} <= set(data["units"][0])
    svg = draw_map(scenario, {"Arnhem": {"german": {"DE": {"inf": 2}}}})
    assert svg == draw_map(scenario, {"Arnhem": {"german": {"DE": {"inf": 2}}}})
    assert svg.count("<polygon") == 123
    assert "2i" in svg and "Oosterbeek" in svg
