"""The Eindhoven Bridge map drawing: well-formed SVG, deterministic, every feature drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from click.testing import CliRunner

from referee.cli import main
from referee.games.koenig_eindhoven.board import load_board
from referee.games.koenig_eindhoven.mapsvg import draw_map, units_from_state

NS = "{http://www.w3.org/2000/svg}"


def test_map_is_well_formed_and_deterministic() -> None:
    board = load_board()
    svg = draw_map(board)
    assert svg == draw_map(board)
    root = ET.fromstring(svg)
    groups = {g.get("id"): g for g in root.iter(f"{NS}g") if g.get("id")}
    assert len(groups["hexes"]) == len(board.hexes)
    assert len(groups["bridges"]) == sum(1 for s in board.hexsides.values() if s.bridge)
    texts = {t.text for t in root.iter(f"{NS}text")}
    assert {"A", "B", "C", "D", "E", "F", "Eindhoven", "Son", "Best", "0101"} <= texts


def test_units_drawn_with_values_and_hits() -> None:
    board = load_board()
    svg = draw_map(board, [("1/506", "0113", 0), ("1/935", "1021", 2)])
    root = ET.fromstring(svg)
    units = next(g for g in root.iter(f"{NS}g") if g.get("id") == "units")
    texts = [t.text for t in units.iter(f"{NS}text")]
    assert "1/506" in texts and "5-5" in texts and "3-5" in texts and "2" in texts


def test_units_from_engine_state() -> None:
    state = {"units": [{"id": "1/506", "hex": "0113", "hits": 1},
                       {"id": "2/327", "hex": None, "hits": 0}]}
    assert units_from_state(state) == [("1/506", "0113", 1)]


def test_cli_map_and_scenario_commands(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "map.svg"
    result = runner.invoke(main, ["map", "koenig-eindhoven", "-o", str(out)])
    assert result.exit_code == 0, result.output
    ET.parse(out)
    result = runner.invoke(main, ["scenario", "show", "koenig-eindhoven"])
    assert result.exit_code == 0 and "HQ/506" in result.output
    result = runner.invoke(main, ["scenario", "check", "bundled:koenig-eindhoven/eindhoven-bridge"])
    assert result.exit_code == 0, result.output
