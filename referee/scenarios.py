"""``referee scenario check``: which game a scenario file belongs to, and its validation."""

from __future__ import annotations

from pathlib import Path

from referee.core.scenario import ScenarioError, read_toml


def check_file(path: Path) -> list[str]:
    """Every problem of one scenario TOML file, in sentences (empty when it is valid)."""
    try:
        data = read_toml(path)
        game = data.get("game")
        if game == "battle-card":
            from referee.games.battle_card.scenario import load_scenario_file

            load_scenario_file(path)
            return []
        if game is None:
            return [f"{path}: says no game (a scenario file starts with game = \"...\")"]
        return [f"{path}: the referee has no scenario format for the game '{game}'"]
    except ScenarioError as error:
        return list(error.problems)


def check_path(path: Path) -> list[str]:
    """Every problem of a scenario file or folder."""
    if not path.exists():
        return [f"{path}: no such file or folder"]
    if path.is_dir():
        if (path / "spaces.toml").is_file():
            from referee.games.wwiic.facts import check_scenario

            return check_scenario(path)
        files = sorted(path.glob("*.toml"))
        if not files:
            return [f"{path}: holds no scenario files (*.toml)"]
        return [problem for file in files for problem in check_file(file)]
    return check_file(path)
