"""Issue 26, "Positions": ``referee position --upto N`` then ``replay`` gives the state of
``replay --upto N``, at every line of every bundled Eindhoven Bridge log.

11.1: "Units can retreat off of the edge of the map. If they do, they cannot re-enter play
but they are not considered eliminated for victory purposes." -- such a unit keeps the Hits it
carried, as does an eliminated one (9.2: "If a unit with 2 Hits suffers another, it is
eliminated"), and a position must say so.  A tabletop log's position stays a tabletop log: no
``[Seed]`` appears, so the referee's next chance step (a draw from the Command Cup, 7.0) waits
for the line that records it."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.api import position_text, replay_text
from referee.core.errors import RefereeError

from ...conftest import LOGS

BUNDLED = sorted((LOGS / "koenig-eindhoven").glob("*.log"))


def referee_lines(text: str) -> list[int]:
    """The 1-based numbers of the lines that record the referee's chance steps (a line of
    dice or a chit drawn, with no side prefix: ``draw {cup: 506}``, ``roll {d6: 3}``)."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].strip()
        if "{" in body and not body.startswith(("[", "setup:", "allied:", "german:")):
            found.append(number)
    return found


@pytest.mark.parametrize("log", BUNDLED, ids=[p.name for p in BUNDLED])
def test_positions_round_trip_at_every_line(log: Path) -> None:
    text = log.read_text()
    lines = text.splitlines()
    tabletop = "[Seed " not in text
    chances = set(referee_lines(text))
    written = continued = 0
    for upto in range(1, len(lines) + 1):
        original = replay_text(text, upto=upto)
        try:
            saved = position_text(original)
        except RefereeError:
            continue  # inside an attack's decisions: no position to write (it says so)
        written += 1
        resumed = replay_text(saved)
        assert resumed.problems == [], (upto, resumed.problems)
        assert resumed.state_json() == original.state_json(), (log.name, upto)
        if tabletop:
            assert "[Seed" not in saved and "[Draw" not in saved, (log.name, upto)
            # The position plus the log's next line, a recorded draw or roll, is the log up
            # to that line: the referee drew and rolled nothing by itself in between.
            if upto + 1 in chances and not original.problems:
                after = replay_text(text, upto=upto + 1)
                if not after.problems:
                    following = replay_text(saved + lines[upto] + "\n")
                    assert following.problems == [], (log.name, upto + 1, following.problems)
                    assert following.state_json() == after.state_json(), (log.name, upto + 1)
                    continued += 1
    assert written > 0
    if tabletop and not replay_text(text).problems:
        assert continued > 0  # the check above ran


def test_11_1_off_map_and_eliminated_units_keep_their_hits_in_a_position() -> None:
    """11.1 "they are not considered eliminated"; 9.2 "If a unit with 2 Hits suffers another,
    it is eliminated": the Hits they carried are part of the state a position writes."""
    header = '[Game "koenig-eindhoven"]\n'
    text = header + ("setup: clear; turn 4; phase support; off-map 1/935 hits 1; "
                     "eliminated 2/935 hits 2\n")
    report = replay_text(text)
    assert report.problems == []
    units = {u["id"]: u for u in (report.state_json() or {})["units"]}
    assert (units["1/935"]["status"], units["1/935"]["hits"]) == ("off map", 1)
    assert (units["2/935"]["status"], units["2/935"]["hits"]) == ("eliminated", 2)
    saved = position_text(report)
    assert "off-map 1/935 hits 1" in saved and "eliminated 2/935 hits 2" in saved
    assert replay_text(saved).state_json() == report.state_json()


def test_12_0_a_position_after_the_last_turn_keeps_the_result() -> None:
    """12.0: "At the conclusion of the last turn of the game, both players determine how many
    Victory Points (VPs) they have earned" -- a position in phase over carries that result."""
    text = (LOGS / "koenig-eindhoven" / "complete-game.log").read_text()
    original = replay_text(text)
    assert (original.outcome() or {}).get("result")
    resumed = replay_text(position_text(original))
    assert resumed.outcome() == original.outcome()
