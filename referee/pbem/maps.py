"""The WWII Commander board for ``referee render`` and ``referee view``: the engine's area
map (``referee.games.wwiic.areamap``), fed from the engine's JSON view of a position and the
last action's commands and events.
"""

from __future__ import annotations

from typing import Any

from referee.core.engine import Engine
from referee.core.svg import Highlight
from referee.games.wwiic.areamap import position_parts, view_of


def draw_wwiic(engine: Engine[Any, Any], state: Any, highlight: Highlight | None) -> str:
    """The WWII Commander map with the position and the last action highlighted."""
    return "\n".join(wwiic_parts(engine, state, highlight)) + "\n"


def wwiic_parts(engine: Engine[Any, Any], state: Any, highlight: Highlight | None) -> list[str]:
    """``draw_wwiic``'s text in parts of whole lines (``core.svg.PART_DRAWERS``)."""
    data = engine.to_json(state)
    if highlight is None:
        view = view_of(data)
    else:
        view = view_of(data, highlight.commands, highlight.text, highlight.events)
    return position_parts(engine.board, view)  # type: ignore[attr-defined]
