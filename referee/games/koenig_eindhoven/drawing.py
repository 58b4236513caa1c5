"""``referee render`` for Eindhoven Bridge: the map helper's drawing (``mapsvg``) with the
position's units, registered in ``referee.core.svg.DRAWERS``."""

from __future__ import annotations

from typing import Any

from referee.core.svg import Highlight
from referee.games.koenig_eindhoven.mapsvg import draw_map, units_from_state


def draw_board(engine: Any, state: Any, highlight: Highlight | None) -> str:
    """The map with every unit on it and its hits; the title names the turn and the last
    action drawn."""
    data = engine.to_json(state)
    title = f"Game Turn {data['turn']} ({'night' if data['night'] else 'day'}), {data['phase']}"
    if highlight is not None:
        title += f": after line {highlight.line}, {highlight.text}"
    return draw_map(engine.board, units_from_state(data), title)
