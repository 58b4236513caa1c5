"""Reading the WWII Commander scenario: the TOML files of a scenario folder, validated by the
pydantic models (``scenario.py``) and then cross-checked (``crossref.py``).

Every problem is a sentence naming its file, gathered into one ``ScenarioError``; never a bare
traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from referee.core.resources import scenario_dir
from referee.core.scenario import ScenarioError, gather_toml
from referee.games.wwiic.crossref import FILES, cross_check, sentences
from referee.games.wwiic.scenario import Scenario
from referee.games.wwiic.scenariofiles import scenario_files


def bundled_path() -> Path:
    """The directory of the bundled Market-Garden scenario."""
    return scenario_dir("wwiic") / "market-garden"


def load_scenario(path: Path | None = None) -> Scenario:
    """Read and check the scenario in directory ``path`` (None: the bundled one).

    Raises ``ScenarioError`` listing every problem found, never a bare traceback.
    """
    folder = bundled_path() if path is None else path
    if folder == bundled_path():
        shipped = _shipped_scenario()
        if shipped is not None:
            return shipped
    return read_scenario(folder)


SHIPPED_SCENARIO = "wwiic-market-garden-scenario.pickle"
"""The bundled scenario as ``read_scenario`` reads it, compiled by
``tools/build_scenarios.py`` (``referee.core.compiled``)."""


def shipped_files() -> list[Path]:
    """What the compiled scenario is made from: the bundled files and the models' module
    (a changed model makes it stale)."""
    from referee.games.wwiic import scenario

    return [*scenario_files(bundled_path()), Path(scenario.__file__)]


def _shipped_scenario() -> Scenario | None:
    """The compiled form of the bundled scenario, when it is still that of its files."""
    from referee.core.compiled import load_compiled, pydantic_stamp

    found = load_compiled(SHIPPED_SCENARIO, shipped_files(), pydantic_stamp())
    return found if isinstance(found, Scenario) else None


def read_scenario(folder: Path) -> Scenario:
    """The scenario in directory ``folder``, read from its TOML files and checked."""
    data = scenario_data(folder)
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as error:
        raise ScenarioError(sentences(error, data)) from None
    crossed = cross_check(scenario)
    if crossed:
        raise ScenarioError(crossed)
    return scenario


def scenario_data(folder: Path) -> dict[str, Any]:
    """The files of a scenario folder as the one table ``Scenario`` validates
    (``ScenarioError`` when a file cannot be read)."""
    problems: list[str] = []
    if not folder.is_dir():
        raise ScenarioError([f"{folder}: no such scenario directory"])
    meta = gather_toml(folder / FILES["scenario"], problems)
    spaces = gather_toml(folder / FILES["spaces"], problems)
    borders = gather_toml(folder / FILES["borders"], problems)
    boxes = gather_toml(folder / FILES["boxes"], problems)
    units = gather_toml(folder / FILES["units"], problems)
    tracks = gather_toml(folder / FILES["tracks"], problems)
    if problems:
        raise ScenarioError(problems)
    data: dict[str, Any] = {
        **meta,
        "spaces": spaces.get("spaces", []),
        "borders": borders.get("borders", []),
        "boxes": boxes.get("boxes", []),
        "ferry": boxes.get("ferry"),
        "units": units.get("units", []),
        "tracks": tracks,
    }
    return data
