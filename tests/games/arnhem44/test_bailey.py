"""Phase 3.4 - Constructing Bailey Bridges, the green die of Phase 6.2 and the ferries: the
seed's statements as named tests over the example logs in ``examples/``, and self-play through
the phase."""

from __future__ import annotations

import random
from pathlib import Path

from referee.core.dice import DiceTray
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.arnhem44.commands import Build, Pass, ReserveRoll, StartBailey
from referee.games.arnhem44.engine import ENGINE
from tests.games.arnhem44.helpers import replayed, texts


def test_phase_3_4_constructing_bailey_bridges_one_large_and_one_small() -> None:
    """"one large and one small bridge ... there are only 8 engineer spaces available": a large
    crew of 5 and a small crew of 3 fill E01-E08, and a second large bridge does not fit."""
    report = replayed("Phase3.4-constructing-bailey-bridges.log")
    state = report.state_json()
    assert state is not None
    assert state["tracks"]["engineer"] == ["tank/UK"] * 5 + ["inf/UK"] * 3
    assert [(b["id"], b["size"], b["points"]) for b in state["baileys"]] == [
        ("Bailey-1", "large", 20), ("Bailey-2", "small", 10)]
    grave = next(s for s in state["sectors"] if s["id"] == "Grave")
    assert grave["units"]["allied"] == {"US": {"inf": 2, "tank": 1}}
    assert "Phase 3.4 - Constructing Bailey Bridges: no Bailey bridge can be started" in \
        texts(report)


def test_phase_3_4_the_assembly_of_a_bridge_bridge_after_bridge() -> None:
    """One d10 per bridge, bridge after bridge; a 0 removes nothing; no work with enemy troops
    at either side, nor on a bridge started this round."""
    report = replayed("Phase3.4-assembly-of-a-bridge.log")
    found = texts(report)
    assert "The assembly of Bailey-1: 6, 6 construction markers removed, 4 left" in found
    assert "The assembly of Bailey-2: 0, 0 construction markers removed, 20 left" in found
    assert ("no work on Bailey-3 this round: enemy troops at Appeltern (The Assembly of a "
            "Bridge)") in found
    assert not any("Bailey-4:" in t for t in found)


def test_phase_3_4_a_finished_bailey_bridge_is_accessible_to_all_units() -> None:
    """"the bridge is finished and immediately becomes accessible to all units": tanks cross
    the Maas on it; an intrusion across it gives the defending infantry 2 + 2 d10."""
    report = replayed("Phase3.4-bailey-bridge-opens.log")
    assert any(t.startswith("The assembly of Bailey-1: 7, 3 construction markers removed; "
                            "Bailey-1 Grave->Over Asselt is finished") for t in texts(report))
    rolls = [list(r.faces) for e in report.events if e.line == 18 for r in e.event.rolls]
    assert [len(r) for r in rolls] == [4, 4]
    state = report.state_json()
    assert state is not None
    asselt = next(s for s in state["sectors"] if s["id"] == "Over Asselt")
    assert asselt["units"]["allied"] == {"UK": {"tank": 2}}


def test_phase_6_2_green_die_slides_the_engineer_track_towards_e01() -> None:
    report = replayed("Phase6.2-green-die.log")
    assert ("Phase 6.2 - the Allies roll the green die: 3; 3 units from the engineer squares "
            "arrive; 3 slide towards E01") in texts(report)
    state = report.state_json()
    assert state is not None and state["tracks"]["engineer"] == ["tank/UK"] * 3


def test_phase_6_2_green_die_surplus_is_lost() -> None:
    report = replayed("Phase6.2-green-die-surplus.log")
    assert ("Phase 6.2 - the Allies roll the green die: 6; 2 units from the engineer squares "
            "arrive (4 more than the units on the engineer squares: lost)") in texts(report)
    state = report.state_json()
    assert state is not None
    assert state["tracks"]["engineer"] == [] and state["tracks"]["reserve"] == ["tank/UK"]


def test_ferry_flipped_when_allied_troops_reach_it_and_removed_at_the_end_of_the_round() -> None:
    report = replayed("Ferry-flipped-and-removed.log")
    found = texts(report)
    assert any(t.startswith("Allied troops reach the Ravenstein-ferry (Ravenstein-Wijchen): the "
                            "marker is flipped") for t in found)
    assert "the Ravenstein-ferry marker is removed at the end of the round (Ferry)" in found
    assert [p.rule for p in report.problems] == ["Ferry"]


def tray(rng: random.Random) -> DiceTray:
    return DiceTray(None, recorded=tuple(rng.randint(0, 9) for _ in range(400)),
                    recorded_sides=10)


def test_self_play_passes_through_phase_3_4_and_the_green_die() -> None:
    """Random legal play from the opening that prefers starting Bailey bridges and the green
    die: bridges are started, assembled and recalled; every invariant holds after every
    command and positions in phase 3.4 round-trip."""
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        state = ENGINE.setup(None, {})
        for _ in range(900):
            if ENGINE.to_act(state) is None:
                break
            options = ENGINE.legal(state)
            preferred = [c for c in options if isinstance(c, (StartBailey, Build))
                         or (isinstance(c, ReserveRoll) and c.die == "green")]
            acting = [c for c in options if type(c).__name__ not in ("EndMovement", "Pass")]
            if preferred:
                command = rng.choice(preferred)
            else:
                command = rng.choice(acting if acting and rng.random() < 0.7 else options)
            ENGINE.apply(state, command, tray(rng))
            seen.add(type(command).__name__ if not isinstance(command, ReserveRoll)
                     else f"reserves {command.die}")
            assert ENGINE.invariants(state) == []
            if state.phase == "3.4" and rng.random() < 0.2:
                lines = ENGINE.position(state)
                text = '[Game "arnhem44"]\n' + "\n".join(lines) + "\n"
                rebuilt = replay(parse_log(text, "position.log", engine=ENGINE), ENGINE)
                assert rebuilt.problems == [], (lines, rebuilt.problems)
                assert ENGINE.to_json(rebuilt.state) == ENGINE.to_json(state)
            if any(b.points == 0 for b in state.baileys) and "reserves green" in seen:
                break
    assert {"StartBailey", "Build", "reserves green"} <= seen


def test_pass_ends_phase_3_4() -> None:
    state = ENGINE.setup(None, {})
    text = (Path(__file__).parents[3] / "logs" / "arnhem44" / "opening.log").read_text()
    text = text[:text.index("# Phase 3.4")]  # round 1, up to the Allied pass in phase 3.4
    report = replay(parse_log(text, "opening.log", engine=ENGINE), ENGINE)
    state = report.state
    assert state.phase == "3.4"
    assert Pass() in ENGINE.legal(state)
    ENGINE.apply(state, Pass(), tray(random.Random(0)))
    assert state.phase == "4.1"


def test_phase_3_4_airborne_troops_build_only_after_contact_with_garden() -> None:
    report = replayed("Phase3.4-airborne-contact.log")
    assert ("the 101 makes contact with operation GARDEN in Achel: its supplies are no longer "
            "tracked") in texts(report)
    assert [p.line for p in report.problems] == [8]


def test_phase_6_2_recalled_engineers_without_room_go_back_to_the_engineer_squares() -> None:
    report = replayed("Phase6.2-green-die-no-room.log")
    assert "no room in the start sectors: inf/US stay on the engineer squares" in texts(report)
    assert report.problems == []
