"""``referee scenario show koenig-eindhoven [--json]``: the whole scenario with stable keys."""

from __future__ import annotations

from typing import Any

from referee.games.koenig_eindhoven.board import Board


def scenario_json(board: Board) -> dict[str, Any]:
    """``referee scenario show koenig-eindhoven --json``: the whole scenario, stable keys."""
    return {
        "game": "koenig-eindhoven",
        "scenario": board.id,
        "title": board.title,
        "reconstruction": True,
        "grid": {"columns": board.columns, "rows": board.rows,
                 "high_columns": board.high_columns, "orientation": board.orientation},
        "hexes": [
            {"id": h.id, "terrain": h.terrain, "hilltop": h.hilltop, "name": h.name,
             "objective": h.objective, "red_star": h.red_star}
            for h in sorted(board.hexes.values(), key=lambda h: h.id)
        ],
        "hexsides": [
            {"hexes": sorted(key), "river": s.river, "stream": s.stream, "slope": s.slope,
             "road": s.road, "bridge": s.bridge, "name": s.name}
            for key, s in sorted(board.hexsides.items(), key=lambda kv: sorted(kv[0]))
        ],
        "roads": [{"name": r.name, "entry": r.entry, "hexes": list(r.hexes)}
                  for r in board.roads],
        "entry_roads": [{"road": letter, "hex": board.entry_roads[letter],
                         "edge": board.entry_edges[letter]}
                        for letter in sorted(board.entry_roads)],
        "places": dict(sorted(board.places.items())),
        "formations": [
            {"id": f.id, "name": f.name, "side": f.side, "hq": f.hq, "arrives": f.arrives,
             "units": list(f.units)}
            for f in board.formations.values()
        ],
        "units": [
            {"id": u.id, "name": u.name, "side": u.side, "formation": u.formation,
             "type": u.kind, "cs": u.cs, "ma": u.ma, "hq": u.hq, "setup": u.setup_hex,
             "arrives": u.arrival_turn, "entry": list(u.entry_roads), "landing": u.landing,
             "aliases": list(u.aliases),
             "start": u.setup_hex or (f"turn {u.arrival_turn} road {u.entry_road}"
                                      if u.arrival_turn else "")}
            for u in board.units.values()
        ],
        "turns": [{"number": t.number, "night": t.night, "date": t.date, "time": t.time}
                  for t in board.turns],
        "tables": {
            "paratroop_landing": {str(k): v for k, v in board.paratroop_landing.items()},
            "artillery_points": {str(k): v for k, v in board.artillery_points.items()},
            "allied_support_points": {str(k): v for k, v in
                                      board.allied_support_points.items()},
            "support_per_battle": board.support_per_battle,
        },
        "tec": {"movement": board.tec.movement, "hexside_movement": board.tec.hexside_movement,
                "combat": board.tec.combat},
    }
