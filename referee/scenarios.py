"""``referee scenario check``: which game a scenario file belongs to, and its validation."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from referee.core.errors import NotImplementedRule
from referee.core.scenario import ScenarioError, read_toml
from referee.games import game_entry


def check_file(path: Path) -> list[str]:
    """Every problem of one scenario TOML file, in sentences (empty when it is valid)."""
    try:
        data = read_toml(path)
        game = data.get("game")
        if game in _FOLDER_MARK and not (path.parent / _FOLDER_MARK[game]).is_file():
            return check_own_file(path, str(game))
        if game == "battle-card" and "name" not in data:  # the card's own files have a name
            return check_own_file(path, "battle-card")
        if game == "battle-card":
            from referee.games.battle_card.scenario import load_scenario_file

            load_scenario_file(path)
            return []
        if game == "arnhem44" or (game is None and (path.parent / "sectors.toml").is_file()):
            from referee.games.arnhem44.facts import check_scenario as check_arnhem44

            return check_arnhem44(path.parent)
        if game is None and (path.parent / "spaces.toml").is_file():
            return check_path(path.parent)
        if game == "koenig-eindhoven" or (
            game is None and (path.parent / "hexes.toml").is_file()
        ):
            return check_path(path.parent)
        if game is None:
            return [f"{path}: says no game (a scenario file starts with game = \"...\")"]
        return [f"{path}: the referee has no scenario format for the game '{game}'"]
    except ScenarioError as error:
        return list(error.problems)


_FOLDER_MARK = {"koenig-eindhoven": "hexes.toml", "arnhem44": "sectors.toml",
                "wwiic": "spaces.toml"}
"""The file every bundled-format scenario folder of a game holds: a file of the game in a
folder without it is a scenario file of the user's own (``[Scenario "file:NAME"]``)."""


def check_own_file(path: Path, game: str) -> list[str]:
    """Every problem of a scenario file of the user's own, as a log that names it would
    meet them (docs/log-format.md, "A scenario of your own")."""
    from referee.core.errors import RefereeError
    from referee.core.ownscenario import engine_of, read_scenario_file
    from referee.games import engine_for

    try:
        engine_of(read_scenario_file(path.parent, path.name), engine_for(game))
    except ScenarioError as error:
        return list(error.problems)
    except RefereeError as error:
        return [f"{path}: {error.message}"]
    return []


def check_path(path: Path) -> list[str]:
    """Every problem of a scenario file or folder."""
    try:
        is_dir = stat.S_ISDIR(os.stat(path).st_mode)
    except FileNotFoundError:
        return [f"{path}: no such file or folder"]
    except (OSError, ValueError) as error:  # a name too long, a NUL, a loop of links
        reason = error.strerror if isinstance(error, OSError) else "the name holds a NUL"
        return [f"{path}: cannot be read ({reason or error})"]
    if is_dir:
        if (path / "spaces.toml").is_file():
            from referee.games.wwiic.facts import check_scenario

            return check_scenario(path)
        if (path / "hexes.toml").is_file():
            from referee.games.koenig_eindhoven.facts import check_scenario as check_koenig

            return check_koenig(path)
        if (path / "sectors.toml").is_file():
            from referee.games.arnhem44.facts import check_scenario as check_arnhem44

            return check_arnhem44(path)
        files = sorted(path.glob("*.toml"))
        if not files:
            return [f"{path}: holds no scenario files (*.toml)"]
        return [problem for file in files for problem in check_file(file)]
    return check_file(path)


def scenario_data(game: str) -> dict[str, Any]:
    """The JSON view of a game's bundled scenario (``referee scenario show``)."""
    entry = game_entry(game)
    if entry.id == "wwiic":
        from referee.games.wwiic.loader import load_scenario
        from referee.games.wwiic.view import scenario_json

        return scenario_json(load_scenario())
    if entry.id == "koenig-eindhoven":
        from referee.games.koenig_eindhoven.board import load_board
        from referee.games.koenig_eindhoven.scenario_view import scenario_json as koenig_json

        return koenig_json(load_board())
    if entry.id == "battle-card":
        from referee.games.battle_card.scenario import bundled_scenario

        return {"game": "battle-card", **bundled_scenario().model_dump()}
    if entry.id == "arnhem44":
        from referee.games.arnhem44.scenario import load_scenario as load_arnhem44
        from referee.games.arnhem44.view import scenario_json as arnhem44_json

        return arnhem44_json(load_arnhem44())
    raise NotImplementedRule("-", f"{entry.title} has no scenario data yet")


def draw_map(game: str, log: Path | None = None, upto: int | None = None) -> str:
    """The SVG map of a game, with a log's units and control when one is given."""
    entry = game_entry(game)
    if entry.id == "koenig-eindhoven":
        from referee.games.koenig_eindhoven.mapsvg import draw_position

        return draw_position(log, upto)
    if entry.id == "arnhem44":
        return _draw_arnhem44(log, upto)
    if entry.id != "wwiic":
        raise NotImplementedRule(
            "-", f"{entry.title} has no map drawing; 'referee render LOG' draws a game's board"
        )
    from referee.games.wwiic.areamap import draw_board, view_of
    from referee.games.wwiic.loader import load_scenario

    if log is None:
        return draw_board(load_scenario())
    from referee.api import replay_file

    report = replay_file(log, upto=upto)
    state = report.drawable_state("wwiic", "WWII Commander")
    # the log's own scenario (a scenario file of the user's own has its own map)
    played = getattr(report.engine, "board", None)
    scenario = played.scenario if played is not None else load_scenario()
    return draw_board(scenario, view_of(state))


def _draw_arnhem44(log: Path | None, upto: int | None) -> str:
    from referee.games.arnhem44.mapsvg import draw_map as draw_arnhem44
    from referee.games.arnhem44.scenario import load_scenario as load_arnhem44

    figures = None
    scenario = None
    if log is not None:
        from referee.api import replay_file

        report = replay_file(log, upto=upto)
        state = report.drawable_state("arnhem44", "Arnhem '44")
        figures = {s["id"]: s["units"] for s in state.get("sectors", [])}
        played = getattr(report.engine, "board", None)  # a scenario file's own map
        scenario = played.scenario if played is not None else None
    return draw_arnhem44(scenario or load_arnhem44(), figures)
