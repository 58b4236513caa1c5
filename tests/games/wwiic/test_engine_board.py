"""The board the rules read: the same from the TOML files as from the validated scenario."""

from __future__ import annotations

from typing import Any

from referee.core.resources import scenario_dir
from referee.games.wwiic.board import Board, bundled_board
from referee.games.wwiic.loader import load_scenario


def facts(board: Board) -> dict[str, Any]:
    return {
        "kind": board.kind, "label": board.label, "terrain": board.terrain,
        "road": board.road_spaces, "club": board.club_route, "exits": board.exits,
        "boxes": board.boxes, "ferry": (board.ferry, board.ferry_banks, board.ferry_capacity,
                                        board.ferry_max_strength, board.ferry_types),
        "units": board.units, "order": board.unit_order, "formations": board.formations,
        "turns": board.turns, "weather": board.weather_table, "impulses": board.impulses,
        "unprepared": board.unprepared, "corps30": board.corps30,
        "first_airborne": board.first_airborne, "places": board.places.names(),
        "unit_names": board.unit_names.names(),
    }


def test_board_from_files_equals_board_from_the_validated_scenario() -> None:
    fast = Board.from_files(scenario_dir("wwiic") / "market-garden")
    checked = Board.from_scenario(load_scenario())
    assert facts(fast) == facts(checked)
    assert facts(bundled_board()) == facts(checked)


def test_board_falls_back_to_the_validated_loader_on_bad_data(tmp_path: Any) -> None:
    import shutil

    import pytest

    from referee.games.wwiic.scenario import ScenarioError

    folder = tmp_path / "broken"
    shutil.copytree(scenario_dir("wwiic") / "market-garden", folder)
    spaces = folder / "spaces.toml"
    spaces.write_text(spaces.read_text().replace('terrain = "woods"', 'terrain = "jungle"', 1))
    with pytest.raises(ScenarioError) as caught:
        Board.from_files(folder)
    assert "jungle" in str(caught.value)


def test_board_adjacency_is_symmetric_and_boxes_link_both_ways() -> None:
    board = bundled_board()
    for place, exits in board.exits.items():
        for other, crossing in exits.items():
            if board.kind[place] == "box" and board.kind[other] == "box":
                assert place in board.exits[other]
            else:
                assert board.exits[other][place] == crossing


def test_board_knows_30_corps_and_the_1st_airborne() -> None:
    board = bundled_board()
    assert board.corps30 == "30C"
    assert board.first_airborne == "1AB"
    assert board.units["21G/5G"].corps30 and not board.units["21G/5G"].airborne
    assert board.units["505/82"].airborne and not board.units["59"].airborne
