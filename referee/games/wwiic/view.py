"""The JSON view of the scenario (``referee scenario show wwiic --json``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from referee.games.wwiic.scenario import Scenario


def scenario_json(scenario: Scenario) -> dict[str, Any]:
    """The ``referee scenario show wwiic --json`` document (stable keys)."""
    return {
        "game": "wwiic",
        "scenario": scenario.id,
        "title": scenario.title,
        "spaces": [
            {
                "id": s.id,
                "name": s.name,
                "terrain": s.terrain,
                "town": s.town,
                "hit_reduction": s.hit_reduction,
                "road": s.road,
                "club_route": s.club_route,
                "vp": s.vp,
                "supply_source": list(s.supply_source),
                "polish_drop": s.polish_drop,
                "x": s.x,
                "y": s.y,
            }
            for s in scenario.spaces
        ],
        "borders": [
            {
                "a": b.a,
                "b": b.b,
                "kind": b.kind,
                "road": b.road,
                "bridge": b.bridge,
                "foot_crossing": b.foot_crossing,
            }
            for b in scenario.borders
        ],
        "boxes": [
            {
                "id": box.id,
                "formation": box.formation,
                "adjoins": [{"space": link.space, "road": link.road} for link in box.adjoins],
                "links": list(box.links),
                "closes_turn": box.closes_turn,
                "units_move_to": box.units_move_to,
            }
            for box in scenario.boxes
        ],
        "ferry": {"id": scenario.ferry.id, "adjoins": list(scenario.ferry.adjoins)},
        "units": [
            {
                "id": u.id,
                "name": u.name,
                "side": u.side,
                "formation": u.formation,
                "type": u.type,
                "elite": u.elite,
                "steps": [
                    {
                        "strength": strength,
                        "hit_chance": u.hit(strength),
                        "defend_hit_chance": u.hit(strength, attacking=False),
                    }
                    for strength in range(1, u.max_strength + 1)
                ],
                "vp": u.vp,
                "start": u.start,
                "reinforcement": None
                if u.reinforcement is None
                else {"turn": u.reinforcement.turn, "entry": list(u.reinforcement.entry)},
            }
            for u in scenario.units
        ],
        "turns": [
            {
                "number": t.number,
                "date": t.date.isoformat(),
                "half": t.half,
                "initiative": t.initiative,
                "german_threshold": t.german_threshold,
                "replacements": {"allied": t.allied_replacements, "german": t.german_replacements},
                "closes_boxes": list(t.closes_boxes),
            }
            for t in scenario.tracks.turns
        ],
    }
