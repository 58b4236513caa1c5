"""A Battle Card scenario of the user's own (``[Scenario "file:NAME.toml"]``): the bundled
card with the changes of one TOML file, validated by the card's pydantic model
(``scenario.py``), then made into the card the rules read.

The file may change ``[[cities]]`` (by ``name``: the German die, who controls it),
``[[units]]`` (by ``id``: the starting strength and city of a unit die), the tables
``[combat]`` and ``[landing_modifier]`` and ``[corps]``, field by field, and the values
``turns``, ``max_strength``, ``route`` and ``corps_start``; docs/log-format.md shows one.
"""

from __future__ import annotations

from pydantic import ValidationError

from referee.core.ownscenario import (
    PREFIX,
    Layout,
    ScenarioFile,
    check_head,
    merge_data,
    model_sentences,
)
from referee.core.resources import scenario_dir
from referee.core.scenario import ScenarioError, read_toml
from referee.games.battle_card.card import Card, bundled_names, make_card
from referee.games.battle_card.scenario import BattleCardScenario

LAYOUT = Layout(
    arrays={"cities": (("cities",), "name"), "units": (("units",), "id")},
    tables={"combat": ("combat",), "landing_modifier": ("landing_modifier",),
            "corps": ("corps",)},
    values=("turns", "max_strength", "route", "corps_start"),
)


def variant_card(file: ScenarioFile) -> Card:
    """The card of a scenario file; ``ScenarioError`` lists every problem, a sentence each."""
    bases = bundled_names()
    problems = check_head(file, "battle-card", bases, tuple(LAYOUT.arrays),
                          tuple(LAYOUT.tables), LAYOUT.values)
    if problems:
        raise ScenarioError(problems)
    base = str(file.data.get("base", "standard"))
    bundled = read_toml(scenario_dir("battle-card") / f"{base}.toml")
    data, merged = merge_data(file, bundled, LAYOUT, problems)
    if problems:
        raise ScenarioError(problems)
    data["name"] = PREFIX + file.name
    if isinstance(file.data.get("title"), str):
        data["title"] = file.data["title"]
    try:
        BattleCardScenario.model_validate(data)
    except ValidationError as error:
        raise ScenarioError(model_sentences(file, error, LAYOUT, merged)) from None
    return make_card(data)
