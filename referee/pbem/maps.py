"""The WWII Commander board for ``referee render`` and ``referee view``: the engine's area
map (``referee.games.wwiic.areamap``), fed from the engine's JSON view of a position and the
last action's commands and events.
"""

from __future__ import annotations

from typing import Any

from referee.core.engine import Engine
from referee.core.svg import Highlight
from referee.games.wwiic.areamap import draw_board, view_of


def draw_wwiic(engine: Engine[Any, Any], state: Any, highlight: Highlight | None) -> str:
    """The WWII Commander map with the position and the last action highlighted."""
    data = engine.to_json(state)
    if highlight is None:
        view = view_of(data)
    else:
        view = view_of(data, highlight.commands, highlight.text, highlight.events)
    scenario = engine.board.scenario  # type: ignore[attr-defined]
    return draw_board(scenario, view)
