"""The pydantic models and the loader: good data loads, bad files give plain sentences."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.core.errors import UnknownName
from referee.games.wwiic.facts import check_scenario
from referee.games.wwiic.loader import bundled_path, load_scenario
from referee.games.wwiic.scenario import Scenario, ScenarioError, Space, terrain_hit_reduction

MOOK = 'id = "Mook"\nname = "Mook"\nterrain = "woods"\n'


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    target = tmp_path / "market-garden"
    shutil.copytree(bundled_path(), target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text)


def problems(folder: Path) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_scenario(folder)
    assert isinstance(caught.value, ValueError)
    return caught.value.problems


def test_bundled_scenario_loads_with_its_counts() -> None:
    mg = load_scenario()
    assert (len(mg.spaces), len(mg.borders), len(mg.units), len(mg.boxes)) == (133, 335, 52, 10)
    assert mg.ferry.id == "Pannerden Ferry"


def test_copy_loads_like_the_bundled_one(copy: Path) -> None:
    bundled = load_scenario()
    bundled.neighbours("Mook")  # a built lookup index does not change equality
    assert load_scenario(copy) == bundled


def test_missing_field_is_named(copy: Path) -> None:
    edit(copy / "spaces.toml", MOOK, 'id = "Mook"\nname = "Mook"\n')
    assert problems(copy) == ["spaces.toml: space 'Mook': field 'terrain' is missing"]


def test_unknown_terrain_lists_the_known_ones(copy: Path) -> None:
    edit(copy / "spaces.toml", MOOK, MOOK.replace("woods", "forest"))
    assert problems(copy) == [
        "spaces.toml: space 'Mook': terrain 'forest' is not one of clear, mixed, woods, city, "
        "polder"
    ]


def test_unknown_field_is_rejected(copy: Path) -> None:
    edit(copy / "spaces.toml", MOOK, MOOK + "forest = true\n")
    assert problems(copy) == ["spaces.toml: space 'Mook': forest is not a known field"]


def test_hit_reduction_must_match_terrain(copy: Path) -> None:
    edit(copy / "spaces.toml", MOOK, MOOK + "hit_reduction = 0\n")
    assert problems(copy) == [
        "spaces.toml: space 'Mook': hit_reduction 0 does not match terrain 'woods' (7.4 gives -1)"
    ]


def test_border_to_unknown_space(copy: Path) -> None:
    append(copy / "borders.toml", '\n[[borders]]\na = "Mook"\nb = "Atlantis"\n')
    assert problems(copy) == [
        "borders.toml: border Mook-Atlantis: 'Atlantis' is not a space in spaces.toml"
    ]


def test_duplicate_border(copy: Path) -> None:
    append(copy / "borders.toml", '\n[[borders]]\na = "Cuyk"\nb = "Mook"\nkind = "river"\n')
    assert problems(copy) == ["borders.toml: border Cuyk-Mook is listed twice"]


def test_asymmetric_border(copy: Path) -> None:
    # Mook-Cuyk is a river; listing Cuyk-Mook again as plain would make adjacency one-sided.
    append(copy / "borders.toml", '\n[[borders]]\na = "Cuyk"\nb = "Mook"\n')
    assert problems(copy) == [
        "borders.toml: border Cuyk-Mook is listed twice with different kind, road or bridge "
        "(adjacency is one border, the same seen from either side)"
    ]


def test_asymmetric_box_link(copy: Path) -> None:
    edit(copy / "boxes.toml", 'links = ["W1"]', "links = []")
    assert problems(copy) == ["boxes.toml: box W1: links to W2 but W2 does not link back"]


def test_bridge_needs_a_road(copy: Path) -> None:
    edit(copy / "borders.toml", 'b = "Over Asselt"\nkind = "canal"\n',
         'b = "Over Asselt"\nkind = "canal"\nbridge = true\n')
    assert problems(copy) == [
        "borders.toml: border Mook-Over Asselt: a road bridge carries a road: set road = true"
    ]


def test_unit_start_must_exist(copy: Path) -> None:
    edit(copy / "units.toml", 'start = "Groesbeek"', 'start = "Atlantis"')
    assert problems(copy) == ["units.toml: unit '505/82': start 'Atlantis' is not a space or box"]


def test_unit_hit_chances_per_step(copy: Path) -> None:
    edit(copy / "units.toml", "hit_chance = [3, 4, 4, 5]", "hit_chance = [3, 4, 4]")
    assert problems(copy) == [
        "units.toml: unit '21G/5G': hit_chance lists 3 values for 4 strength steps"
    ]


def test_names_unique_after_normalising(copy: Path) -> None:
    edit(copy / "spaces.toml", 'aliases = ["Cuijk"]', 'aliases = ["Cuijk", "mook"]')
    assert problems(copy) == [
        "spaces.toml: place 'Mook' and 'Cuyk' share the name 'mook' once case, spaces, dots "
        "and hyphens are ignored"
    ]


def test_track_errors_name_the_turn(copy: Path) -> None:
    edit(copy / "tracks.toml", 'half = "AM"', 'half = "noon"')
    edit(copy / "units.toml", "reinforcement = { turn = 2,", "reinforcement = { turn = 22,")
    assert problems(copy) == [
        "units.toml: unit '2HC': reinforcement.turn: input should be less than or equal to 13",
        "tracks.toml: turn number 2: half 'noon' is not one of AM, PM",
    ]


def test_bad_toml_and_missing_file(copy: Path) -> None:
    append(copy / "tracks.toml", "\nthis is not toml\n")
    (copy / "units.toml").unlink()
    found = problems(copy)
    assert found[0].startswith("units.toml: the file is missing")
    assert found[1].startswith("tracks.toml: not valid TOML")


def test_missing_directory(tmp_path: Path) -> None:
    assert problems(tmp_path / "nowhere") == [f"{tmp_path / 'nowhere'}: no such scenario directory"]


def test_check_scenario_reports_load_problems_then_facts(copy: Path) -> None:
    edit(copy / "spaces.toml", MOOK, MOOK.replace("woods", "forest"))
    assert check_scenario(copy) == [
        "spaces.toml: space 'Mook': terrain 'forest' is not one of clear, mixed, woods, city, "
        "polder"
    ]
    edit(copy / "spaces.toml", 'terrain = "forest"', 'terrain = "clear"')
    assert check_scenario(copy) == [
        "Mook must be woods (7.6 Retreat Options: hits reduced for woods)"
    ]


def test_hit_reduction_is_derived() -> None:
    assert [terrain_hit_reduction(t, False) for t in ("clear", "woods", "city", "polder")] == [
        0, -1, -2, 0,
    ]
    assert terrain_hit_reduction("mixed", True) == -1
    space = Space.model_validate(
        {"id": "X", "name": "X", "terrain": "woods", "town": True, "x": 0, "y": 0}
    )
    assert space.hit_reduction == -1


def test_helpers_and_name_resolution() -> None:
    mg = load_scenario()
    assert mg.neighbours("Zon") == sorted(mg.neighbours("Zon"))
    assert mg.border("Zon", "Apeldoorn") is None
    assert mg.resolve_place("st oedenrode") == "St. Oedenrode"
    assert mg.resolve_place("Son") == "Zon"
    assert mg.resolve_place("e4") == "E4"
    assert mg.resolve_unit("2IG/5G") == "21G/5G"
    assert mg.resolve_unit("1/P1") == "P/1P"
    with pytest.raises(UnknownName):
        mg.resolve_place("Atlantis")
    with pytest.raises(KeyError):
        mg.space("Atlantis")
    with pytest.raises(KeyError):
        mg.unit("Atlantis")
    assert mg.unit("32G").replacement_counters == [[4, 3], [2, 1]]
    assert [b.id for b in mg.boxes_adjoining("Groesbeek")] == ["E4"]
    assert mg.formations("german") == ["IISS", "1FJ", "15A"]


def test_copy_with_swapped_borders_sees_its_own_adjacency() -> None:
    mg = load_scenario()
    mg.neighbours("Mook")  # builds the lookup index
    fewer = [b for b in mg.borders if {b.a, b.b} != {"Mook", "Cuyk"}]
    changed: Scenario = mg.model_copy(update={"borders": fewer})
    assert "Cuyk" not in changed.neighbours("Mook")
    assert "Cuyk" in mg.neighbours("Mook")
