"""The seed's worked examples and rules for block 2 (airborne troops and supplies), each named
after its heading; the logs are in ``examples/`` (replayed by test_examples.py as well)."""

from __future__ import annotations

import random
from pathlib import Path

from referee.core.dice import DiceTray
from referee.core.parsing import parse_log
from referee.core.replay import Report, replay
from referee.games.arnhem44.engine import ENGINE
from referee.games.arnhem44.state import AState
from referee.games.arnhem44.supply import token_count, tokens_conserved
from tests.games.arnhem44.helpers import replayed, texts

FOLDER = Path(__file__).parent / "examples"




def dice_at(report: Report, line: int) -> list[list[int]]:
    return [list(r.faces) for e in report.events if e.line == line for r in e.event.rolls]


def state_of(report: Report) -> dict:  # type: ignore[type-arg]
    state = report.state_json()
    assert state is not None
    return state


def test_anti_aircraft_fire_veghel() -> None:
    """Anti-Aircraft Fire: "The German player decides to intercept the paratroopers at Veghel
    and positions his three units ... in the drop zone. Four Allied units land in that zone":
    the four land by the landing roll on the 101st's zone (its green marker 7 is Veghel), not
    by a position.  2 + 4 + 6 dice rolled once; one infantry eliminated, the other three units
    hit once and staying; 3 German and 3 Allied units share Veghel."""
    report = replayed("Airborne-AA-Veghel.log")
    assert report.problems == []
    landed = next(e.event.text for e in report.events if e.line == 17)
    assert landed.count("inf/101 7->Veghel") == 3 and "art/101 7->Veghel" in landed
    assert [len(r) for r in dice_at(report, 21)] == [12]
    aa = next(e.event for e in report.events if e.event.kind == "anti-aircraft")
    assert aa.data["damage"] == [2, 1, 1, 1]  # the artillery is target no. 4
    veghel = next(s for s in state_of(report)["sectors"] if s["id"] == "Veghel")
    assert sum(n for g in veghel["units"]["allied"].values() for n in g.values()) == 3
    assert sum(n for g in veghel["units"]["german"].values() for n in g.values()) == 3


def test_airborne_divisions_landing_brings_supplies_without_dice() -> None:
    """Airborne Divisions / Phase 2.1: one die per unit onto the green markers in good weather;
    the supplies come with the landing, no supply dice in round 3; a full marker sector sends
    the unit to the next marker; anti-aircraft fire where a unit lands on German troops."""
    report = replayed("Airborne-landing-round3.log")
    assert {(p.line, p.rule) for p in report.problems} == {(16, "Anti-Aircraft Fire")}
    assert [len(r) for r in dice_at(report, 14)] == [9]
    words = texts(report)
    assert any("inf/101 4->St. Oedenrode" in t for t in words)
    assert any(t.startswith("Phase 2.2 - Supplies: no supply drop this round (the landing "
                            "units' supplies come with them") for t in words)
    oedenrode = next(s for s in state_of(report)["sectors"] if s["id"] == "St. Oedenrode")
    assert oedenrode["units"]["allied"]["101"]["inf"] == 2


def test_drop_zones_black_markers_in_bad_weather() -> None:
    """Drop Zones: bad weather uses the black markers, for landings and supply drops."""
    report = replayed("DropZones-black-markers.log")
    assert report.problems == []
    assert any(t.startswith("Phase 2.1 - Airborne Troops (black markers)") for t in
               texts(report))
    assert any(t.startswith("Phase 2.2 - Supplies: 3 tokens dropped (black markers)") for t in
               texts(report))


def test_picking_up_supply_tokens_next_to_it_firepower_tie_and_moving_through() -> None:
    """Picking Up Supply Tokens: next to a unit (the player names the HQ card), in enemy
    territory the tie settled by dice (re-rolled while equal), moving through picks it up."""
    report = replayed("Supplies-picking-up.log")
    assert {(p.line, p.rule) for p in report.problems} == {(17, "Picking Up Supply Tokens")}
    assert dice_at(report, 20) == [[5, 5], [7, 2]]
    state = state_of(report)
    assert state["supply"]["count"] == {"box": 24, "map": 0, "dropping": 0, "hq": 3, "used": 2}


def test_supplies_waterways_not_collected_across_a_bridge() -> None:
    """Supplies: Waterways: not collected across a waterway, not even by a bridge."""
    report = replayed("Supplies-waterways.log")
    assert report.problems == []
    assert state_of(report)["supply"]["tokens"] == {"Oosterbeek": 2, "Doorwerth": 1}


def test_phase_2_3_distributing_supplies_penalties_and_the_flipped_hq() -> None:
    """Phase 2.3: the last token gives - 1 D10 (infantry rolls 1 die), a flipped card - 2 D10
    (infantry rolls none), a token picked up in movement flips it back at once."""
    report = replayed("Phase2.3-distributing.log")
    assert report.problems == []
    assert [len(r) for r in dice_at(report, 21)] == [2, 4, 1, 1]
    assert [len(r) for r in dice_at(report, 23)] == [2]
    assert [len(r) for r in dice_at(report, 29)] == [2, 2]


def test_phase_2_3_artillery_rolls_5_instead_of_6_in_the_barrage() -> None:
    """Phase 2.3: "artillery rolls 5 D10 instead of 6 in the barrage fire phase" (short) and
    two fewer with the card flipped: the dice phase 1 gives each unit of a battery
    (``barrage.barrage_dice``, the count the barrage rolls)."""
    from referee.games.arnhem44.barrage import barrage_dice

    board = ENGINE.board
    state = ENGINE.setup(None, {})
    state.hq = {"1AB": 0, "82": 0}
    state.status = {"1AB": "short", "82": "flipped"}
    assert barrage_dice(board, state, ("1AB", "art")) == 5
    assert barrage_dice(board, state, ("82", "art")) == 4
    assert barrage_dice(board, state, ("UK", "art")) == 6
    state.contact.add("1AB")
    assert barrage_dice(board, state, ("1AB", "art")) == 6


def test_contact_with_operation_garden_ends_supply_tracking() -> None:
    """Airborne Divisions / Supplies: after contact with GARDEN the group's supplies are no
    longer tracked: no penalty, no distribution."""
    report = replayed("Supplies-contact-with-garden.log")
    assert report.problems == []
    assert [len(r) for r in dice_at(report, 15)] == [2, 2, 2]


def test_the_first_round_lands_the_airborne_troops() -> None:
    """The 1st Round: round 1 starts with the landing of the airborne troops (no phase 1)."""
    state = ENGINE.setup(None, {})
    rng = random.Random(5)
    while state.phase != "2.1":
        options = ENGINE.legal(state)
        ENGINE.apply(state, options[-1] if state.phase == "setup-german" else options[0],
                     tray(rng))
    assert state.round == 1
    before = sum(state.waiting.values())
    ENGINE.apply(state, ENGINE.legal(state)[0], tray(rng))
    assert sum(state.waiting.values()) == before - 25  # 1st Airborne 7, 82nd 9, 101st 9
    assert state.hq == {"1AB": 2, "82": 3, "101": 2}
    assert tokens_conserved(ENGINE.board, state)


def tray(rng: random.Random) -> DiceTray:
    return DiceTray(None, recorded=tuple(rng.randint(0, 9) for _ in range(400)),
                    recorded_sides=10)


def test_supply_tokens_are_conserved_along_random_play_through_block_two() -> None:
    """Random legal play from round 7's landing through the supply drop and on: 29 tokens at
    every step."""
    for seed in range(6):
        rng = random.Random(seed)
        path = FOLDER / "DropZones-black-markers.log"
        text = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                         if line.startswith(("[", "setup:")))
        start: AState = replay(parse_log(text, "start.log", engine=ENGINE), ENGINE).state
        state = ENGINE.copy(start)
        phases = {state.phase}
        for _ in range(60):
            if ENGINE.to_act(state) is None:
                break
            ENGINE.apply(state, rng.choice(ENGINE.legal(state)), tray(rng))
            assert ENGINE.invariants(state) == [], token_count(state)
            phases.add(state.phase)
        assert {"2.1", "2.2", "4.1"} <= phases


def test_illegal_airborne_log_reports_each_marked_line_with_its_heading() -> None:
    """logs/arnhem44/illegal-airborne.log: one illegal line per block-2 rule, each reported with
    the heading the comment before it names, and nothing else."""
    import re

    from ...conftest import LOGS

    path = LOGS / "arnhem44" / "illegal-airborne.log"
    lines = path.read_text(encoding="utf-8").splitlines()
    mark = re.compile(r"^# illegal \[([^\]]+)\]: ")
    marked = set()
    for number, line in enumerate(lines[1:], 2):
        found = mark.match(lines[number - 2])
        if found and not line.startswith("#"):
            marked.add((number, found.group(1)))
    report = replay(parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE),
                    ENGINE)
    assert {(p.line, p.rule) for p in report.problems} == marked
    assert {str(p.kind) for p in report.problems} == {"illegal-move"}
    assert {rule for _, rule in marked} >= {"Phase 2.1", "Anti-Aircraft Fire", "Phase 2.2",
                                            "Phase 2.3", "Picking Up Supply Tokens"}


def test_positions_in_block_two_round_trip() -> None:
    """Positions: every state along random play through phases 2.1-2.3 (landing, anti-aircraft
    fire waiting, tokens falling, a tie won, a collect decision) is written and rebuilt."""
    seen = 0
    for name in ("DropZones-black-markers.log", "Supplies-picking-up.log",
                 "Airborne-landing-round3.log"):
        text = "\n".join(line for line in (FOLDER / name).read_text(encoding="utf-8")
                         .splitlines() if line.startswith(("[", "setup:")))
        for seed in range(4):
            rng = random.Random(seed)
            state = replay(parse_log(text, "start.log", engine=ENGINE), ENGINE).state
            for _ in range(8):
                if ENGINE.to_act(state) is None or state.fallback is not None:
                    break
                lines = ENGINE.position(state)
                again = replay(parse_log('[Game "arnhem44"]\n' + "\n".join(lines) + "\n",
                                         "position.log", engine=ENGINE), ENGINE)
                assert again.problems == [], (lines, again.problems)
                assert ENGINE.to_json(again.state) == ENGINE.to_json(state)
                seen += state.phase in ("2.1", "2.2")
                ENGINE.apply(state, rng.choice(ENGINE.legal(state)), tray(rng))
    assert seen >= 8


def test_a_position_in_block_two_must_have_something_to_do() -> None:
    """Positions: phase 2.2 in round 3 (no drop) is refused with a sentence."""
    text = '[Game "arnhem44"]\nsetup: clear; round 3; phase 2.2\n'
    report = replay(parse_log(text, "bad.log", engine=ENGINE), ENGINE)
    assert any("no supply drop in round 3" in p.message for p in report.problems)
