"""The JSON view of the Arnhem '44 scenario (``referee scenario show arnhem44 [--json]``)."""

from __future__ import annotations

from typing import Any

from referee.games.arnhem44.scenario import Scenario


def scenario_json(s: Scenario) -> dict[str, Any]:
    meta = s.meta
    units: list[dict[str, Any]] = []
    for pool in s.forces.allied_setup:
        units.append({"id": f"{pool.count} {pool.kind}/{pool.group}", "side": "allied",
                      "formation": pool.group, "type": pool.kind, "start": "set-up pool"})
    for index, icon in enumerate(s.forces.reserve_icons):
        kind, _, group = icon.partition("/")
        units.append({"id": f"1 {icon}", "side": "allied", "formation": group, "type": kind,
                      "start": f"reserve icon {16 + index}"})
    for entry in s.forces.german_setup:
        where = entry.sector or "above the Scheldt-Maas canal"
        if entry.zones:
            where += f" + {entry.zones} zone{'s' if entry.zones > 1 else ''}"
        for kind, count in entry.units.items():
            units.append({"id": f"{count} {kind}", "side": "german", "formation": "",
                          "type": kind, "start": where})
    for reserve in s.forces.german_reserves:
        for kind, count in reserve.units.items():
            where = "above the Rhine" if reserve.above_rhine else "anywhere"
            units.append({"id": f"{count} {kind}", "side": "german", "formation": "",
                          "type": kind, "start": f"reserve round {reserve.round} ({where})"})
    for landing in s.forces.airborne:
        for kind, count in landing.units.items():
            units.append({"id": f"{count} {kind}/{landing.group}", "side": "allied",
                          "formation": landing.group, "type": kind,
                          "start": f"round {landing.round}, drop zone {landing.zone}"})
    return {
        "game": "arnhem44",
        "id": meta.id,
        "title": meta.title,
        "rounds": meta.rounds,
        "max_per_side": meta.max_per_side,
        "types": {k: {"name": v.name, "numbers": list(v.numbers)} for k, v in meta.types.items()},
        "kinds": {k: v._asdict() for k, v in meta.kinds.items()},
        "sectors": [
            {"id": x.id, "name": x.name or x.id, "type": x.type,
             "numbers": list(x.numbers or meta.types[x.type].numbers),
             "above_rhine": x.above_rhine, "above_canal": x.above_canal, "flag": x.flag,
             "start": x.start, "x": x.x, "y": x.y}
            for x in s.sectors
        ],
        "borders": [{k: v for k, v in b._asdict().items() if v is not None} for b in s.borders],
        "bridges": [b._asdict() for b in s.crossings.bridges],
        "ferries": [f._asdict() for f in s.crossings.ferries],
        "drop_zones": [z._asdict() for z in s.crossings.drop_zones],
        "setup_crates": list(s.forces.setup_crates),
        "units": units,
    }
