"""``referee render`` for Eindhoven Bridge: the map helper's drawing (``mapsvg``) with the
position's units and the last action, registered in ``referee.core.svg.DRAWERS``.

The last action is drawn as python-chess draws a last move: a move's path as an arrow from
where the unit started (its hex, or the entry road it came in by) through the hexes it
entered; a fire attack or a close combat (9.0, 10.0) as an arrow from each attacking unit's
hex to the target hex, the target outlined, and its result in words: the Attack Factor, the
die and Hit, Miss or Exchange (9.0), with the line's events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core.svg import Highlight, last_action_words
from referee.games.koenig_eindhoven.commands import (
    Fire,
    HitUnit,
    Move,
    Retreat,
    Roll,
    Round,
    Stay,
    Support,
)
from referee.games.koenig_eindhoven.mapsvg import LastOnMap, draw_map, units_from_state

RESULTS = {"hit": "Hit", "miss": "Miss", "exchange": "Exchange"}
"""9.0 Combat Resolution's results, in the rulebook's words."""
_BATTLE_STEPS = (Fire, Support, Roll, Round, HitUnit, Retreat, Stay)
"""The commands of a battle: after one of them the board draws the battle."""


def draw_board(engine: Any, state: Any, highlight: Highlight | None) -> str:
    """The map with every unit on it and its hits, and the last action; the title names the
    turn."""
    data = engine.to_json(state)
    title = f"Game Turn {data['turn']} ({'night' if data['night'] else 'day'}), {data['phase']}"
    units = units_from_state(data)
    if highlight is None:
        return draw_map(engine.board, units, title)
    return draw_map(engine.board, units, title, last_on_map(highlight, data))


def last_on_map(highlight: Highlight, data: Mapping[str, Any]) -> LastOnMap:
    """The arrows, outlines and words of the last action, from its commands and the
    position it left (the engine's JSON view: the units' hexes, the battle)."""
    where = {unit["id"]: unit.get("hex") for unit in data.get("units", [])}
    arrows: list[tuple[str, str, tuple[str, ...]]] = []
    outlined: list[str] = []
    in_battle = False
    for command in highlight.commands:
        if isinstance(command, Move):
            path = ((command.start,) if command.start else ()) + tuple(command.path)
            if len(path) >= 2:
                arrows.append((path[0], path[-1], path))
            in_battle = in_battle or command.verb == "combined"  # 8.4: close combat follows
        elif isinstance(command, _BATTLE_STEPS):
            in_battle = True
    results: list[str] = []
    battle = data.get("battle")
    if not isinstance(battle, Mapping) or not battle.get("target"):
        # The battle is over (a miss, or every hit taken): its last event says what it was.
        over = [e.data for e in highlight.facts if e.kind == "fire-over" and e.data]
        battle = over[-1] if over else None
    if in_battle and isinstance(battle, Mapping) and battle.get("target"):
        target = str(battle["target"])
        outlined.append(target)
        for unit in battle.get("attackers") or ():
            start = where.get(unit)
            if isinstance(start, str) and start != target:
                arrows.append((start, target, (start, target)))
        results.append(_battle_words(battle))
    results.extend(highlight.events)
    return LastOnMap(tuple(arrows), tuple(outlined), last_action_words(highlight, results))


def _battle_words(battle: Mapping[str, Any]) -> str:
    """The battle in the rulebook's words: its kind, target, Attack Factor, die and result."""
    words = f"{battle.get('kind')} at {battle.get('target')}"
    if battle.get("kind") == "close-combat":
        return words  # 10.0: the rounds' own events give each die and result
    if battle.get("af") is not None:
        words += f": AF {battle['af']}"
    if battle.get("roll") is not None:
        words += f", die {battle['roll']}"
    result = RESULTS.get(str(battle.get("result") or ""))
    if result:
        words += f": {'an ' if result[0] in 'AEIOU' else 'a '}{result}"
    return words
