"""An Arnhem '44 scenario of the user's own (``[Scenario "file:NAME.toml"]``): the bundled
scenario with the changes of one TOML file, validated by the same pydantic models
(``scenario_models.py``) as the bundled folder, then built into the board the engine plays on.

The file may change ``[[sectors]]`` (by ``id``), ``[[borders]]`` (by ``a`` and ``b``, either
order), ``[[bridges]]`` and ``[[ferries]]`` (by ``id``), and the tables ``[kinds]`` (the
units' values: ``[kinds.tank]`` ``fp``, ``hp``, ``mp``), ``[types]`` (the sector types'
numbers), ``[meta]`` (rounds, figures, bridge points, ...) and ``[forces]``, field by field;
docs/log-format.md shows one.  The rulebook's facts (``facts.py``) are the bundled
scenario's: a variant may depart from them, so only the schema is checked.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from referee.core.ownscenario import Layout, ScenarioFile, check_head, merge_data, model_sentences
from referee.core.scenario import ScenarioError, read_toml
from referee.games.arnhem44 import scenario_models
from referee.games.arnhem44.board import Board
from referee.games.arnhem44.scenario import FILES, Scenario, bundled_path

LAYOUT = Layout(
    arrays={"sectors": (("sectors",), "id"), "borders": (("borders",), ("a", "b")),
            "bridges": (("crossings", "bridges"), "id"),
            "ferries": (("crossings", "ferries"), "id")},
    tables={"kinds": ("meta", "kinds"), "types": ("meta", "types"), "meta": ("meta",),
            "forces": ("forces",)},
)


def _bundled() -> dict[str, Any]:
    meta, sectors, borders, crossings, forces = (read_toml(bundled_path() / name)
                                                 for name in FILES)
    return {"meta": meta, "sectors": sectors.get("sectors", []),
            "borders": borders.get("borders", []), "crossings": crossings, "forces": forces}


def variant_board(file: ScenarioFile) -> Board:
    """The board of a scenario file; ``ScenarioError`` lists every problem, a sentence each."""
    problems = check_head(file, "arnhem44", ("standard",), tuple(LAYOUT.arrays),
                          tuple(LAYOUT.tables))
    if problems:
        raise ScenarioError(problems)
    data, merged = merge_data(file, _bundled(), LAYOUT, problems)
    if problems:
        raise ScenarioError(problems)
    if isinstance(file.data.get("title"), str):
        data["meta"]["title"] = file.data["title"]
    try:
        scenario = scenario_models.plain(scenario_models.Scenario.model_validate(data))
    except ValidationError as error:
        raise ScenarioError(model_sentences(file, error, LAYOUT, merged)) from None
    problems = _references(scenario)
    if problems:
        raise ScenarioError([f"{file.name}: {problem}" for problem in problems])
    return Board(scenario)


def _references(scenario: Scenario) -> list[str]:
    """What the records cannot mean together: a border, bridge or ferry between sectors
    the map lacks, a sector listed twice (the board is built only when there is none)."""
    ids = [s.id for s in scenario.sectors]
    known = set(ids)
    problems = [f"sector {ident} is listed twice" for ident in sorted(known)
                if ids.count(ident) > 1]
    for what, records in (("border", scenario.borders), ("bridge", scenario.crossings.bridges),
                          ("ferry", scenario.crossings.ferries)):
        for record in records:
            for end in (record.a, record.b):
                if end not in known:
                    problems.append(f"the {what} {record.a}-{record.b} names the sector "
                                    f"{end}, which the map does not have")
    return problems
