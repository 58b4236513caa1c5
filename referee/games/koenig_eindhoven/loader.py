"""Reading an Eindhoven Bridge scenario folder: the TOML files validated by the pydantic models
(``scenario.py``), then cross-checked (``crossref.py``), then built into the plain board.

Every problem is a sentence naming its file, gathered into one ``ScenarioError``; never a bare
traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from referee.core.scenario import ScenarioError, read_toml, validation_sentences
from referee.games.koenig_eindhoven.board import FILES, Board, scenario_folder
from referee.games.koenig_eindhoven.crossref import cross_check
from referee.games.koenig_eindhoven.scenario import (
    MODELS,
    HexesFile,
    HexsidesFile,
    RoadsFile,
    ScenarioFile,
    TecFile,
    TracksFile,
    UnitsFile,
)


class Scenario:
    """Every file of one scenario folder, validated, and the board built from them."""

    def __init__(self, folder: Path, files: dict[str, Any], raw: dict[str, dict[str, Any]]):
        self.folder = folder
        self.scenario: ScenarioFile = files["scenario.toml"]
        self.hexes: HexesFile = files["hexes.toml"]
        self.hexsides: HexsidesFile = files["hexsides.toml"]
        self.roads: RoadsFile = files["roads.toml"]
        self.units: UnitsFile = files["units.toml"]
        self.tracks: TracksFile = files["tracks.toml"]
        self.tec: TecFile = files["tec.toml"]
        self.board = Board.from_data(raw)


def load_scenario(folder: Path | None = None) -> Scenario:
    """Validate a scenario folder (default: the bundled one); ``ScenarioError`` lists every
    problem, one sentence each."""
    folder = folder or scenario_folder()
    problems: list[str] = []
    raw: dict[str, dict[str, Any]] = {}
    files: dict[str, Any] = {}
    for name in FILES:
        path = folder / name
        try:
            raw[name] = read_toml(path)
        except ScenarioError as error:
            problems.extend(error.problems)
            continue
        try:
            files[name] = MODELS[name].model_validate(raw[name])
        except ValidationError as error:
            problems.extend(validation_sentences(error, name))
    if problems:
        raise ScenarioError(problems)
    problems = cross_check(files)
    if problems:
        raise ScenarioError(problems)
    return Scenario(folder, files, raw)
