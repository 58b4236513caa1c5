"""The WWII Commander board for ``referee render``: its engine's map drawer
(``referee.games.wwiic.mapsvg.draw_map``), fed from the engine's JSON view of a position.

Importing this module fails while that drawer does not exist; the registry
(``referee.core.svg.drawer_for``) then says the game has no board drawing yet.
"""

from __future__ import annotations

import re
from typing import Any

from referee.core.engine import Engine
from referee.core.names import normalise
from referee.core.svg import Highlight
from referee.games.wwiic.mapsvg import draw_map

_WORD = re.compile(r"[^\s;:>{}|]+")


def named_spaces(text: str, spaces: list[str]) -> list[str]:
    """The spaces whose name a run of whole words of ``text`` spells, matched as the log
    matches names: without regard to case, spaces, dots or hyphens."""
    words = [normalise(w) for w in _WORD.findall(text.replace("->", " "))]
    runs = {"".join(words[i:j]) for i in range(len(words))
            for j in range(i + 1, min(len(words), i + 4) + 1)}
    return [space for space in spaces if normalise(space) in runs]


def draw_wwiic(engine: Engine[Any, Any], state: Any, highlight: Highlight | None) -> str:
    """The WWII Commander map with the units, control, and the last action's spaces ringed."""
    data = engine.to_json(state)
    spaces = [space["id"] for space in data["spaces"]]
    units = {unit["id"]: unit["space"] for unit in data["units"] if unit["space"]}
    control = {space["id"]: space["control"] for space in data["spaces"] if space["control"]}
    lit = named_spaces(highlight.text, spaces) if highlight is not None else []
    scenario = engine.board.scenario  # type: ignore[attr-defined]
    return str(draw_map(scenario, units, control, lit))
