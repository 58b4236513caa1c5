"""The ``referee scenario show wwiic --json`` document."""

from __future__ import annotations

import json

from syrupy.assertion import SnapshotAssertion

from referee.games.wwiic.loader import load_scenario
from referee.games.wwiic.view import scenario_json


def test_scenario_json_keys() -> None:
    doc = scenario_json(load_scenario())
    assert list(doc) == ["game", "scenario", "title", "spaces", "borders", "boxes", "ferry",
                         "units", "turns"]
    assert {"id", "name", "terrain", "town", "club_route", "vp", "supply_source"} <= set(
        doc["spaces"][0]
    )
    assert set(doc["borders"][0]) == {"a", "b", "kind", "road", "bridge", "foot_crossing"}
    assert {"id", "side", "formation", "type", "steps", "start"} <= set(doc["units"][0])
    assert set(doc["boxes"][0]) == {"id", "formation", "adjoins", "links", "closes_turn",
                                    "units_move_to"}
    stug = next(u for u in doc["units"] if u["id"] == "280")
    assert stug["steps"][1] == {"strength": 2, "hit_chance": 6, "defend_hit_chance": 4}
    json.dumps(doc)  # plain JSON types only


def test_scenario_json_snapshot(snapshot: SnapshotAssertion) -> None:
    assert scenario_json(load_scenario()) == snapshot
