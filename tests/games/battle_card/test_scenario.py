"""The Battle Card scenario file: valid through the pydantic models, read the same way by the
fast runtime reader, and bad files rejected with sentences."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.resources import scenario_dir
from referee.core.scenario import ScenarioError, read_toml
from referee.games.battle_card.card import bundled_card, make_card
from referee.games.battle_card.scenario import load_scenario_file

BUNDLED = sorted(scenario_dir("battle-card").glob("*.toml"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_bundled_scenarios_validate_and_both_readings_agree(path: Path) -> None:
    model = load_scenario_file(path)
    from_model = make_card(model.model_dump())
    from_toml = make_card(read_toml(path))
    assert from_model == from_toml
    assert len(from_toml.combat) == 2 * 3 * 6  # every face of every row of both tables


def test_standard_card_values() -> None:
    card = bundled_card()
    assert card.route == ("Belgium", "Eindhoven", "Grave", "Nijmegen", "Arnhem")
    assert card.landing_modifier == (-2, -2, -1, -1, 0, 0)
    assert card.turns == 6 and card.max_strength == 6


def _broken(tmp_path: Path, old: str, new: str) -> list[str]:
    text = BUNDLED[0].read_text().replace(old, new, 1)
    path = tmp_path / "broken.toml"
    path.write_text(text)
    with pytest.raises(ScenarioError) as caught:
        load_scenario_file(path)
    return caught.value.problems


def test_missing_field_is_named(tmp_path: Path) -> None:
    problems = _broken(tmp_path, "turns = 6", "")
    assert problems == ["broken.toml: turns: is missing"]


def test_unknown_field_is_named(tmp_path: Path) -> None:
    problems = _broken(tmp_path, "turns = 6", "turns = 6\nspeed = 3")
    assert problems == ["broken.toml: speed: is not a field this file may have"]


def test_unit_in_an_unknown_city(tmp_path: Path) -> None:
    problems = _broken(tmp_path, 'city = "Grave"', 'city = "Veghel"')
    assert any("'82nd' starts in 'Veghel', which is not a city" in p for p in problems)


def test_strength_out_of_range(tmp_path: Path) -> None:
    problems = _broken(tmp_path, "german = 2", "german = 9")
    assert any("cities.0.german" in p and "less than or equal to 6" in p for p in problems)


def test_not_toml(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text("[[[")
    with pytest.raises(ScenarioError, match="not valid TOML"):
        load_scenario_file(path)
