"""The Eindhoven Bridge scenario: the files validate, the plain board agrees with the
pydantic models, every rulebook fact holds, and a broken copy is reported fact by fact."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from referee.core.scenario import ScenarioError
from referee.games.koenig_eindhoven.board import Board, load_board, scenario_folder
from referee.games.koenig_eindhoven.facts import check_facts, check_scenario
from referee.games.koenig_eindhoven.loader import load_scenario
from referee.games.koenig_eindhoven.scenario_view import scenario_json


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "eindhoven-bridge"
    shutil.copytree(scenario_folder(), target)
    return target


def _edit(folder: Path, name: str, old: str, new: str) -> None:
    path = folder / name
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_bundled_scenario_is_valid_and_keeps_every_fact() -> None:
    assert check_scenario() == []


def test_plain_board_matches_validated_files() -> None:
    scenario = load_scenario()
    board = load_board()
    assert scenario_json(scenario.board) == scenario_json(board)
    assert {h.id for h in scenario.hexes.hexes} == set(board.hexes)
    assert len(board.hexes) == 15 * 21


def test_board_api_names() -> None:
    board = load_board()
    assert board is load_board("eindhoven-bridge") or board == load_board("eindhoven-bridge")
    hex_ = board.hexes["1305"]
    assert (hex_.terrain, hex_.objective, hex_.name) == ("city", "city", "Eindhoven")
    assert board.neighbours("0101") == ("0102", "0201")
    assert board.neighbours("0202") == ("0102", "0103", "0201", "0203", "0302", "0303")
    assert board.neighbours("0505") == ("0404", "0405", "0504", "0506", "0604", "0605")
    assert set(board.entry_roads) == set("ABCDEF")
    assert board.places["Son"] == board.entry_roads["A"]
    unit = board.units["2/327"]
    assert (unit.side, unit.formation, unit.kind, unit.arrival_turn, unit.landing,
            unit.entry_road) == ("allied", "327", "infantry", 6, True, "A/B")
    assert board.units["HQ/506"].hq
    assert [t.number for t in board.turns if t.night] == [3, 7]
    assert board.paratroop_landing[6] == "never"
    assert board.formations["1034"].units == ("1/1034", "2/1034", "HW/1034")
    assert board.unit_index().lookup("MG/327/101") == "M/327"


def test_hexside_of_non_adjacent_hexes_is_refused() -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        load_board().hexside("0101", "0505")


def test_three_large_bridges_carry_roads_and_stars() -> None:
    board = load_board()
    large = {key: side for key, side in board.hexsides.items() if side.bridge == "large"}
    assert len(large) == 3
    assert all(side.river and side.road for side in large.values())
    stars = set(board.red_star_hexes())
    assert all(key & stars for key in large)


def test_roads_cross_rivers_only_at_bridges() -> None:
    board = load_board()
    for road in board.roads:
        for a, b in zip(road.hexes, road.hexes[1:], strict=False):
            side = board.hexside(a, b)
            assert side.road
            assert not side.river or side.bridge


def test_rule_8_5_entry_roads_on_named_edges() -> None:
    board = load_board()
    for letter in "AB":
        assert "northeast" in board.on_edge(board.entry_roads[letter])
    for letter in "CD":
        assert "northwest" in board.on_edge(board.entry_roads[letter])


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        ("roads.toml", 'entry = "C"\nedge = "northwest"', 'entry = "C"\nedge = "southwest"',
         "road C is on the southwest side; Exclusive 8.5 puts it on the northwest side"),
        ("units.toml", 'id = "2/327"', 'id = "2/327x"', "no unit 2/327 (Exclusive 8.5)"),
        ("tracks.toml", "number = 6\nnight = false", "number = 6\nnight = true",
         "turn 6 brings reinforcements but is a night turn"),
        ("tracks.toml", "5 = 2\n6 = \"never\"", "5 = 2\n6 = 2",
         "the Paratroop Landing Table differs from 5.0"),
        ("tec.toml", "hilltop = 3", "hilltop = 2", "movement.hilltop must be 3"),
        ("hexes.toml", 'name = "Wal bridge", objective = "city", red_star = true',
         'name = "Wal bridge", objective = "city"', "has no red-star hex"),
    ],
)
def test_broken_fact_is_reported(copy: Path, name: str, old: str, new: str,
                                 expected: str) -> None:
    _edit(copy, name, old, new)
    problems = check_scenario(copy)
    assert any(expected in p for p in problems), problems


def test_bridge_off_a_river_is_reported(copy: Path) -> None:
    _edit(copy, "hexsides.toml", "hexsides = [",
          'hexsides = [\n  { hexes = ["0101", "0102"], bridge = "small" },')
    assert any("is not on a River hexside (8.1.1)" in p for p in check_scenario(copy))


def test_forty_pieces_at_most(copy: Path) -> None:
    board = Board.from_files(copy)
    extra = next(iter(board.units.values()))
    for i in range(9):
        board.units[f"X{i}"] = extra
    assert any("40 pieces (2.0)" in p for p in check_facts(board))


def test_file_problems_are_sentences(copy: Path) -> None:
    _edit(copy, "hexes.toml", 'terrain = "woods"', 'terrain = "jungle"')
    _edit(copy, "roads.toml", 'hexes = ["', 'hexes = ["0101", "0303", "')
    with pytest.raises(ScenarioError) as error:
        load_scenario(copy)
    assert any(p.startswith("hexes.toml: hexes.") and "terrain" in p
               for p in error.value.problems)
    _edit(copy, "hexes.toml", 'terrain = "jungle"', 'terrain = "woods"')
    problems = check_scenario(copy)
    assert any("jumps from 0101 to 0303" in p for p in problems), problems


def test_scenario_show_json(snapshot: SnapshotAssertion) -> None:
    data = scenario_json(load_board())
    assert json.loads(json.dumps(data)) == data
    assert {k: data[k] for k in ("entry_roads", "places", "units", "turns", "tables")} \
        == snapshot


def test_generated_map_files_match_the_build_script(tmp_path: Path) -> None:
    """The committed hexes/hexsides/roads are the script's output (regenerate after a change
    to its geography: ``python tools/build_koenig_map.py``)."""
    import importlib.util

    script = Path(__file__).resolve().parents[3] / "tools" / "build_koenig_map.py"
    if not script.is_file():
        pytest.skip("the build script is not part of this installation")
    spec = importlib.util.spec_from_file_location("build_koenig_map", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(tmp_path)
    for name in ("hexes.toml", "hexsides.toml", "roads.toml"):
        assert (tmp_path / name).read_text() == (scenario_folder() / name).read_text(), name


def test_cli_check_reports_broken_folder(copy: Path) -> None:
    from click.testing import CliRunner

    from referee.cli import main

    _edit(copy, "units.toml", 'arrives = 5\nentry = ["E", "F"]',
          'arrives = 4\nentry = ["E", "F"]')
    result = CliRunner().invoke(main, ["scenario", "check", str(copy)])
    assert result.exit_code == 1
    assert "HQ/1222 arrives on turn 4; its formation 1222 arrives on turn 5" in result.output


def test_rule_8_1_example_costs_from_the_chart() -> None:
    """8.1: Close Combat (2 MP) across a slope hexside (+1 MP) into a hilltop hex (3 MP) costs
    6 MPs in all; the reconstructed map has no hilltop, so a fixture board supplies one."""
    from referee.games.koenig_eindhoven.board import Hex, Hexside

    board = load_board().altered(
        hexes=[Hex("0505", "clear", hilltop=True)],
        hexsides={("0504", "0505"): Hexside(slope=True)},
    )
    assert board.hexes["0505"].hilltop and board.hexside("0504", "0505").slope
    assert not load_board().hexes["0505"].hilltop  # the bundled board is untouched
    tec = board.tec
    total = (tec.movement["close_combat"] + tec.hexside_movement["slope"]
             + tec.enter_cost(board.hexes["0505"].terrain, board.hexes["0505"].hilltop))
    assert total == 6
    with pytest.raises(ValueError, match="not adjacent"):
        load_board().altered(hexsides={("0101", "0505"): Hexside(slope=True)})


def test_rule_9_1_example_modifiers_from_the_chart() -> None:
    """9.1: a defender in Woods with every attacker across Stream hexsides: -2 AF."""
    tec = load_board().tec
    assert tec.combat["woods"] + tec.combat["stream"] == -2
