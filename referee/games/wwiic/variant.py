"""A WWII Commander scenario of the user's own (``[Scenario "file:NAME.toml"]``): the bundled
Market-Garden scenario with the changes of one TOML file, validated by the same pydantic
model (``scenario.py``) and cross-checks (``crossref.py``) as the bundled folder, then built
into the board the engine plays on.

The file may change ``[[spaces]]`` (by ``id``), ``[[borders]]`` (by ``a`` and ``b``, either
order), ``[[boxes]]`` (by ``id``) and ``[[units]]`` (by ``id``: ``max_strength``, the hit
chances, the starting space, ...), and the tables ``[tracks]`` and ``[ferry]`` field by field;
docs/log-format.md shows one.  The names printed in results stay the bundled scenario's (a
space the file adds prints as its id).
"""

from __future__ import annotations

from pydantic import ValidationError

from referee.core.ownscenario import Layout, ScenarioFile, check_head, merge_data, model_sentences
from referee.core.scenario import ScenarioError
from referee.games.wwiic.board import Board
from referee.games.wwiic.crossref import cross_check
from referee.games.wwiic.loader import bundled_path, scenario_data
from referee.games.wwiic.scenario import Scenario

LAYOUT = Layout(
    arrays={"spaces": (("spaces",), "id"), "borders": (("borders",), ("a", "b")),
            "boxes": (("boxes",), "id"), "units": (("units",), "id")},
    tables={"tracks": ("tracks",), "ferry": ("ferry",)},
)


def variant_board(file: ScenarioFile) -> Board:
    """The board of a scenario file; ``ScenarioError`` lists every problem, a sentence each."""
    problems = check_head(file, "wwiic", ("market-garden",), tuple(LAYOUT.arrays),
                          tuple(LAYOUT.tables))
    if problems:
        raise ScenarioError(problems)
    data, merged = merge_data(file, scenario_data(bundled_path()), LAYOUT, problems)
    if problems:
        raise ScenarioError(problems)
    if isinstance(file.data.get("title"), str):
        data["title"] = file.data["title"]
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as error:
        raise ScenarioError(model_sentences(file, error, LAYOUT, merged)) from None
    crossed = cross_check(scenario)
    if crossed:
        raise ScenarioError([f"{file.name}: {problem}" for problem in crossed])
    return Board.from_scenario(scenario)
