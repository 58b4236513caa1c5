"""An Eindhoven Bridge scenario of the user's own (``[Scenario "file:NAME.toml"]``): the
bundled scenario's files with the changes of one TOML file, validated by the same pydantic
models (``scenario.py``) and cross-checks (``crossref.py``) as the bundled folder, then built
into the board the engine plays on.

The file may change ``[[hexes]]`` (by ``id``: terrain, hilltop, name, objective), ``[[hexsides]]``
(by ``hexes``, the pair: river, stream, slope, bridge), ``[[units]]`` (by ``id``: cs, ma, setup,
arrives, ...), ``[[formations]]`` (by ``id``) and ``[[roads]]`` (by ``name``); docs/log-format.md
shows one.  The counters' Combat Strength and Movement Allowance (2.2) are the values a
position's setup lines are then checked against.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from referee.core.ownscenario import ScenarioFile, check_head, located, merge, record_key
from referee.core.scenario import ScenarioError, read_toml
from referee.games.koenig_eindhoven.board import (
    DEFAULT_SCENARIO,
    FILES,
    GAME,
    Board,
    scenario_folder,
)
from referee.games.koenig_eindhoven.crossref import cross_check
from referee.games.koenig_eindhoven.scenario import MODELS

ARRAYS: dict[str, tuple[str, str]] = {
    "hexes": ("hexes.toml", "id"),
    "hexsides": ("hexsides.toml", "hexes"),
    "units": ("units.toml", "id"),
    "formations": ("units.toml", "id"),
    "roads": ("roads.toml", "name"),
}
"""An array a scenario file may change -> the bundled file that holds it, and its key."""


def variant_board(file: ScenarioFile) -> Board:
    """The board of a scenario file; ``ScenarioError`` lists every problem, a sentence each."""
    problems = check_head(file, GAME, (DEFAULT_SCENARIO,), tuple(ARRAYS))
    if problems:
        raise ScenarioError(problems)
    folder = scenario_folder(DEFAULT_SCENARIO)
    raw: dict[str, dict[str, Any]] = {name: copy.deepcopy(read_toml(folder / name))
                                      for name in FILES}
    merged = {}
    for array, (name, field) in ARRAYS.items():
        found = merge(file, array, raw[name].get(array, []), field, record_key(field),
                      problems)
        raw[name][array] = found.records
        merged[array] = found
    if problems:
        raise ScenarioError(problems)
    files: dict[str, Any] = {}
    for name in FILES:
        try:
            files[name] = MODELS[name].model_validate(raw[name])
        except ValidationError as error:
            problems += _sentences(file, error, name, merged)
    if problems:
        raise ScenarioError(problems)
    crossed = cross_check(files)
    if crossed:
        raise ScenarioError([f"{file.name}: {problem}" for problem in crossed])
    if isinstance(file.data.get("title"), str):
        raw["scenario.toml"]["title"] = file.data["title"]
    return Board.from_data(raw)


def _sentences(file: ScenarioFile, error: ValidationError, name: str,
               merged: Mapping[str, Any]) -> list[str]:
    sentences = []
    for item in error.errors():
        loc = list(item["loc"])
        message = "is missing" if item["type"] == "missing" else (
            "is not a field of this record" if item["type"] == "extra_forbidden"
            else item["msg"])
        array = str(loc[0]) if loc else ""
        if array in merged:
            sentences.append(located(file, array, merged[array], loc[1:], message, name))
        else:
            where = ".".join(str(part) for part in loc) or "(top level)"
            sentences.append(f"{file.name}: with the bundled {name}: {where}: {message}")
    return sentences
