"""The rulings of issue 25 (part A), each named after the rulebook heading it covers and quoting
the seed (``../shared/seeds/arnhem-44.txt``).  Every expected value comes from the text."""

from __future__ import annotations

from typing import Any

from referee.core.dice import DiceStream
from referee.core.parsing import parse_log
from referee.core.replay import Report, replay
from referee.core.selfplay import StreamDice
from referee.games.arnhem44.engine import ENGINE


def played(text: str, name: str = "ruling.log") -> Report:
    body = '[Game "arnhem44"]\n' + "\n".join(line.strip() for line in text.strip().splitlines())
    return replay(parse_log(body + "\n", name, engine=ENGINE), ENGINE)


def problems(report: Report) -> list[tuple[int, str]]:
    return [(p.line, p.rule or "") for p in report.problems]


def line_of(text: str, start: str) -> int:
    """The log line (the tag line is 1) that begins with ``start``."""
    lines = text.strip().splitlines()
    return 2 + next(i for i, line in enumerate(lines) if line.strip().startswith(start))


def roll_sizes(report: Report, line: int) -> list[int]:
    return [len(r.faces) for e in report.events if e.line == line for r in e.event.rolls]


def state(report: Report) -> dict[str, Any]:
    out = report.state_json()
    assert out is not None
    return out


# -- Phase 2.3 - Distributing Supplies / Phase 1 --------------------------------------------------

BARRAGE_SUPPLY = """
    setup: clear; round 9; phase 1
    setup: box 0; supplies-used 29
    setup: place 1 art/1AB Grave; place 1 art/82 Zeeland; place 1 art/UK Mill
    setup: place 2 inf Wijchen; place 1 tank Gassel
    setup: supply 1AB 0 short; supply 82 0 flipped
    initiative {d10: 7 3}
    allied: barrage 1 art/1AB Grave->Wijchen {d10: 9 9 9 9 9}
    allied: barrage 1 art/82 Zeeland->Wijchen {d10: 9 9 9 9}
    allied: barrage 1 art/UK Mill->Gassel {d10: 9 9 9 9 9 9}
"""


def test_phase_2_3_distributing_supplies_barrage_short_of_supplies() -> None:
    """Phase 2.3: "When an HQ distributes its last supply token ... Every unit in that group
    suffers a firepower penalty of minus one D10. ... artillery rolls 5 D10 instead of 6 in the
    barrage fire phase."  The 1st Airborne's card is short: its battery rolls 5 dice; a ground
    battery (no HQ card) rolls its 6."""
    report = played(BARRAGE_SUPPLY)
    assert not report.problems, report.problems
    assert roll_sizes(report, line_of(BARRAGE_SUPPLY, "allied: barrage 1 art/1AB")) == [5]
    assert roll_sizes(report, line_of(BARRAGE_SUPPLY, "allied: barrage 1 art/UK")) == [6]


def test_phase_2_3_distributing_supplies_barrage_with_the_hq_card_flipped() -> None:
    """Phase 2.3: "If HQ cannot provide any supplies at all, the HQ card is flipped over: each
    unit of the group now suffers a minus 2 D10 penalty!"  The 82nd's card is flipped: its
    battery rolls 6 - 2 = 4 dice."""
    report = played(BARRAGE_SUPPLY)
    assert roll_sizes(report, line_of(BARRAGE_SUPPLY, "allied: barrage 1 art/82")) == [4]


def test_phase_2_3_barrage_short_of_supplies_at_a_disputed_sector() -> None:
    """Barrage on Disputed Sectors: "the attacker gets a 1D10 bonus per artillery unit"; with the
    HQ short (5 instead of 6) the battery rolls 5 + 1 = 6 dice."""
    text = """
        setup: clear; round 9; phase 1
        setup: box 0; supplies-used 29
        setup: place 1 art/1AB Grave; place 2 inf Wijchen; place 1 inf/1AB Wijchen
        setup: supply 1AB 0 short
        initiative {d10: 7 3}
        allied: barrage 1 art/1AB Grave->Wijchen {d10: 9 9 9 9 9 9}
    """
    report = played(text)
    assert not report.problems, report.problems
    assert roll_sizes(report, line_of(text, "allied: barrage")) == [6]


def test_phase_2_3_barrage_dice_invariant_catches_a_battery_rolling_six_while_short() -> None:
    """The self-play invariant reads every barrage's dice against its HQ's supply (Phase 2.3:
    "artillery rolls 5 D10 instead of 6")."""
    work = played(BARRAGE_SUPPLY.split("    allied: barrage")[0]).state
    command = next(c for c in ENGINE.legal(work)
                   if str(c).startswith("barrage 1 art/1AB Grave->Wijchen"))
    ENGINE.apply(work, command, StreamDice(DiceStream("barrage-supply")))
    assert work.barrage_rolls == [("1AB", "short", 5)]
    assert ENGINE.invariants(work) == []
    work.barrage_rolls = [("1AB", "short", 6)]
    assert any("Phase 2.3" in p for p in ENGINE.invariants(work))
    work.barrage_rolls = [("82", "flipped", 5)]
    assert any("Phase 2.3" in p for p in ENGINE.invariants(work))


# -- Waterways: bridge control -------------------------------------------------------------------

def bridge(report: Report, bridge_id: str) -> dict[str, Any]:
    return next(b for b in state(report)["bridges"] if b["id"] == bridge_id)


def score(report: Report) -> dict[str, int]:
    points = (report.outcome() or {}).get("points")
    assert isinstance(points, dict)
    return {str(k): int(v) for k, v in points.items()}


NIJMEGEN = """
    setup: clear; round 9; phase 4.1
    setup: box 0; supplies-used 29
    setup: place 2 inf Nijmegen; place 1 inf/UK Lent
"""


def test_waterways_bridge_control_with_enemy_troops_at_one_end() -> None:
    """Waterways: "A player is only in control of a bridge when both sides of the bridge are
    free of enemy troops."  German infantry at Nijmegen, Allied infantry at Lent (its other
    end): the German owner controls the 20-point bridge no more and the Allies do not hold it
    either; it scores for nobody (100 - 20 = 80 German points)."""
    report = played(NIJMEGEN + "allied: end movement\n")
    assert not report.problems, report.problems
    nijmegen = bridge(report, "Nijmegen-bridge")
    assert nijmegen["control"] is None and nijmegen["owner"] == "german"
    assert score(report) == {"allied": 0, "german": 80}
    assert (report.outcome() or {}).get("contested_bridges") == {"Nijmegen-bridge": 0}


def test_waterways_a_bridge_coming_under_dispute_is_said_in_the_events() -> None:
    """Waterways: "A player is only in control of a bridge when both sides of the bridge are
    free of enemy troops."  Allied infantry moves to Lent, the north end of the German-held
    Nijmegen bridge (Germans at Nijmegen): the events say the bridge is held by neither; when
    it moves away, that the German controls it again."""
    text = """
        setup: clear; round 9; phase 4.1
        setup: box 0; supplies-used 29
        setup: place 2 inf Nijmegen; place 1 inf/UK Elst
        allied: move 1 inf/UK Elst->Lent
        allied: move 1 inf/UK Lent->Elst
    """
    report = played(text)
    assert not report.problems, report.problems
    said = [(e.line, e.event.text) for e in report.events if e.event.kind == "control"]
    assert said == [
        (line_of(text, "allied: move 1 inf/UK Elst->Lent"),
         "Nijmegen-bridge is held by neither side: troops of both stand at its ends (Waterways)"),
        (line_of(text, "allied: move 1 inf/UK Lent->Elst"),
         "German controls Nijmegen-bridge again: both its ends are free of enemy troops "
         "(Waterways)")]


def test_waterways_bridge_control_taken_when_both_sides_are_free_of_enemy_troops() -> None:
    """Waterways: "A player is only in control of a bridge when both sides of the bridge are
    free of enemy troops."  Allied infantry at Lent and no German at either end: after the
    command the Allies control the bridge and score its 20 points."""
    text = """
        setup: clear; round 9; phase 4.1
        setup: box 0; supplies-used 29
        setup: place 1 inf/UK Lent; place 1 inf Elst
        allied: end movement
    """
    report = played(text)
    assert not report.problems, report.problems
    assert bridge(report, "Nijmegen-bridge")["control"] == "allied"
    assert score(report) == {"allied": 20, "german": 80}


def test_waterways_bridge_held_by_neither_returns_to_its_owner_when_the_enemy_leaves() -> None:
    """Waterways: the owner is "in control of a bridge when both sides of the bridge are free of
    enemy troops": once the Allied infantry has left Lent (and nobody took the bridge), the
    German holds the Nijmegen bridge again (reading A6)."""
    text = NIJMEGEN + "allied: move 1 inf/UK Lent->Elst\nallied: end movement\n"
    report = played(text)
    assert not report.problems, report.problems
    assert bridge(report, "Nijmegen-bridge")["control"] == "german"
    assert score(report)["german"] == 100


# -- Set Up / Waterways: the start ---------------------------------------------------------------

def test_set_up_german_controls_all_13_bridges_at_the_start() -> None:
    """Waterways: "At the start of the game the German player controls all of the 13 bridges;
    the German player always starts with the complete 100 points."  The bundled opening's
    set-up (the Allied deployment in Start-Centre, at the south end of Joe's Bridge, with no
    German at De Groote) scores 100:0 and leaves every bridge German."""
    from pathlib import Path

    from referee.api import replay_text

    path = Path(__file__).parents[3] / "logs" / "arnhem44" / "opening.log"
    lines = path.read_text(encoding="utf-8").splitlines()
    end = 1 + next(i for i, line in enumerate(lines) if line.startswith("allied: end setup"))
    # Without its [Seed] the log stops where round 1's first die is due (the landing roll).
    text = "\n".join(line for line in lines[:end] if not line.startswith("[Seed")) + "\n"
    report = replay_text(text)
    assert not report.problems, report.problems
    assert state(report)["round"] == 1 and state(report)["phase"] != "setup-allied"
    assert score(report) == {"allied": 0, "german": 100}
    bridges = state(report)["bridges"]
    assert len(bridges) == 13
    assert {b["control"] for b in bridges} == {b["owner"] for b in bridges} == {"german"}
    assert not [e for e in report.events if e.event.kind == "control"]


# -- Fall Back -----------------------------------------------------------------------------------

def test_fall_back_f_is_the_total_of_the_phase_whatever_the_number_of_lines() -> None:
    """Fall Back: "E = the Enemy troops present; F = the TOTAL number of units that Fall back,
    tanks and artillery included; S (spotted) = E + F"; "If the player rolls S+1 or more, the
    infantry can fall back without being spotted".  The seed's two German infantry beside an
    Allied artillery and tank (E = 2), written as two lines: the second line's F counts both
    units (S = 2 + 2 = 4), so its 4 is spotted, as it would be in one line (a 4 and a 5)."""
    text = """
        setup: clear; round 1; phase 5.1
        setup: place 2 inf, 1 art/UK, 1 tank/UK Heelsum
        german: fall-back 1 inf Heelsum->Heide {d10: 5}
        german: fall-back 1 inf Heelsum->Heide {d10: 4 | 8 9 0 8 | 9 9}
    """
    report = played(text)
    assert not report.problems, report.problems
    # the first line: S = 2 + 1 = 3, the 5 escapes unseen; the second: S = 2 + 2 = 4, the 4
    # is spotted and the infantry fights its way out (the Allied tank's 4 dice miss, the
    # infantry's 2 as well)
    spotting = [e.event.text for e in report.events if e.event.kind == "spotting"]
    assert spotting == ["spotting: S = E 2 + F 1 = 3; 1 unseen, 0 spotted",
                        "spotting: S = E 2 + F 2 = 4; 0 unseen, 1 spotted"]
    assert state(report)["movement"]["fallen_back"] == {"Heelsum": 2}


def test_fall_back_count_survives_a_position() -> None:
    """Fall Back: the phase's total F is part of a position (``setup: fallen-back N SECTOR``):
    with one unit already fallen back out of Heelsum, the next one is counted as the second
    (S = E 2 + F 2 = 4)."""
    text = """
        setup: clear; round 1; phase 5.1
        setup: place 1 inf, 1 art/UK, 1 tank/UK Heelsum; place 1 inf Heide
        setup: moved 1 inf Heide mp 0; fallen-back 1 Heelsum
        german: fall-back 1 inf Heelsum->Heide {d10: 4 | 8 9 0 8 | 9 9}
    """
    report = played(text)
    assert not report.problems, report.problems
    spotting = [e.event.text for e in report.events if e.event.kind == "spotting"]
    assert spotting == ["spotting: S = E 2 + F 2 = 4; 0 unseen, 1 spotted"]
    assert "setup: fallen-back 2 Heelsum" in ENGINE.position(report.state)


# -- Phase 3.3 - Install Explosive Charges ------------------------------------------------------

def test_phase_3_3_exchange_at_any_time_keeps_the_phase_open() -> None:
    """Explosives in General: "The German player may exchange a higher number (7, 6 or 5) from
    his stash with a 4, giving him or her the opportunity to rig all major bridges with
    explosives. He can do this at ANY time during the game."  Phase 3.3: "Only explosive
    charges of 4 or less are allowed underneath the 4 major bridges."  The German rigs his 4
    under the major Grave bridge; a 5 is left in stock, which no bridge with a German unit may
    take: the phase waits, the 5 is exchanged for a 4, and the 4 goes under Grave too."""
    text = """
        setup: clear; round 3; phase 3.3
        setup: place 1 inf Grave
        setup: unseen 5 4; stock 2
        german: rig Grave-bridge 4
        expect phase = 3.3
        german: swap 5
        german: rig Grave-bridge 4
        expect explosives.stock = 0
        expect phase = 4.1
    """
    report = played(text)
    assert not report.problems, report.problems


def test_phase_3_3_ends_by_itself_only_when_nothing_can_be_rigged_or_exchanged() -> None:
    """Phase 3.3: with only a 4 in stock and no German unit at any bridge nothing is possible
    (no rig: "at least one German unit must be at the bridge"; no exchange: only "a higher
    number (7, 6 or 5)" is exchanged): the step passes by itself.  With a 5 in stock the
    exchange is still legal ("at ANY time"), so the phase waits for the German."""
    text = """
        setup: clear; round 3; phase 3.1-allied
        setup: place 1 inf/UK Zon; place 1 inf Ede
        setup: crate Son-bridge 3; unseen {stock}; stock 1
        allied: pass
    """
    report = played(text.format(stock=4))
    assert not report.problems, report.problems
    assert state(report)["phase"] == "4.1"
    report = played(text.format(stock=5))
    assert not report.problems, report.problems
    assert state(report)["phase"] == "3.3"


# -- Phase 3.4 - The Assembly of a Bridge --------------------------------------------------------

BLOCKED_SITE = """
    setup: clear; round 4; phase 3.4
    setup: engineer 5 tank/UK
    setup: bailey Bailey-1 Ravenstein->Appeltern points 20 started 3
    setup: place 1 inf Appeltern; place 1 inf/UK Ravenstein
"""


def test_phase_3_4_assembly_waits_while_enemy_troops_are_at_either_side() -> None:
    """The Assembly of a Bridge: "He can only continue the assembly on the condition that no
    enemy troops are present at either side of the construction site."  A German unit stands at
    Appeltern, one end of Bailey-1: no assembly roll is asked for, a roll written is refused
    with the rule, and the 20 markers stay."""
    report = played(BLOCKED_SITE)
    assert not report.problems, report.problems
    pending = report.pending() or {}
    assert pending.get("side") == "allied"
    assert "build Bailey-1" not in pending.get("choices", [])
    text = BLOCKED_SITE + "build Bailey-1 {d10: 4}\n"
    refused = played(text)
    assert [p.line for p in refused.problems] == [line_of(text, "build")]
    assert "awaits Allied" in refused.problems[0].message
    assert state(refused)["baileys"][0]["points"] == 20


def test_phase_3_4_assembly_goes_on_once_both_sides_are_clear() -> None:
    """The Assembly of a Bridge: with Appeltern free of enemy troops again, the roll is due
    ("Every round the Allied player gets the opportunity to work on the Bailey bridges"): a 4
    removes 4 of the 20 markers."""
    text = BLOCKED_SITE.replace("place 1 inf Appeltern; ", "place 1 inf Ede; ")
    text += "build Bailey-1 {d10: 4}\n"
    report = played(text)
    assert not report.problems, report.problems
    assert state(report)["baileys"][0]["points"] == 16


def test_phase_3_4_a_blocked_bridge_is_passed_over_bridge_after_bridge() -> None:
    """The Assembly of a Bridge: "He goes through the steps bridge after bridge. He can only
    continue the assembly on the condition that no enemy troops are present at either side of
    the construction site."  Bailey-1 has a German unit at Appeltern: its roll is refused with
    the rule and Bailey-2 (both sides clear) is next; Bailey-1's markers stay."""
    text = BLOCKED_SITE.replace("engineer 5 tank/UK", "engineer 5 tank/UK, 3 inf/UK") + """
        setup: bailey Bailey-2 Start-West->Luyksgestel points 10 started 3
        build Bailey-1 {d10: 4}
        build Bailey-2 {d10: 3}
    """
    report = played(text)
    assert problems(report) == [(line_of(text, "build Bailey-1"),
                                 "Phase 3.4/The Assembly of a Bridge")]
    assert "enemy troops are at Appeltern" in report.problems[0].message
    assert [b["points"] for b in state(report)["baileys"]] == [20, 7]


# -- Rules of Engagement: Withdrawal (reading A15) ----------------------------------------------

def test_roe_withdrawal_the_first_item_met_decides_and_the_later_ones_are_not_read() -> None:
    """Withdrawal: "The list beneath is to be followed until the first item is met that can be
    performed."  No friendly troops nearby; "away from the enemy" can be performed (Arnhem and
    Schaarsbergen have no enemy next to them): the list stops there, so "the Allies to the
    south" does not narrow it to Arnhem; the strongest side chooses between the two."""
    text = """
        setup: clear; round 1; phase 5.1
        setup: place 1 inf/82 Oosterbeek; place 2 tank Oosterbeek; place 1 inf Heelsum
        german: end movement
        combat Oosterbeek {d10: 9 9 | 1 9 9 9 9 9 9 9 | 1}
    """
    report = played(text)
    assert not report.problems, report.problems
    pending = report.pending() or {}
    assert pending.get("side") == "german"
    assert sorted(pending.get("choices", [])) == [
        "withdraw 1 inf/82 Oosterbeek->Arnhem", "withdraw 1 inf/82 Oosterbeek->Schaarsbergen"]


# -- Artillery in Disputed Sectors or Enemy Territory (readings A21/A22) -------------------------

def test_artillery_in_disputed_sectors_refusal_cites_the_disputed_sector_rule() -> None:
    """Artillery in Disputed Sectors or Enemy Territory: "Artillery in disputed sectors cannot
    give barrage fire; they have other priorities".  The only battery stands in Grave beside a
    German battery ("Both sides are present but cannot fight; still this sector is ... a
    disputed sector"): in round 9 no battery can fire, so nothing is rolled for the initiative
    (A21) and phase 1 is over; the barrage written in phase 4.1 is refused with the
    disputed-sector rule, not the sequence of play's."""
    text = """
        [Seed "disputed"]
        setup: clear; round 8; phase 5.1; icons 8
        setup: box 0; supplies-used 29
        setup: place 1 art/UK Grave; place 1 art Grave; place 2 inf Wijchen
        german: end movement
        allied: barrage 1 art/UK Grave->Wijchen
    """
    report = played(text)
    assert problems(report) == [(line_of(text, "allied: barrage"), "Artillery/InDisputed")]
    assert state(report)["round"] == 9 and state(report)["phase"] == "4.1"
    assert not [e for e in report.events if e.event.kind == "initiative"]


# -- A Small Bailey Bridge / A Large Bailey Bridge (reading B2) ---------------------------------

def test_a_small_bailey_bridge_can_be_placed_anywhere_beside_an_intact_bridge_too() -> None:
    """A Small Bailey Bridge: "It's not necessary to build a Bailey bridge next to a destroyed
    bridge. It can be placed anywhere on the map; however the bridge must go from one sector to
    another".  A Large Bailey Bridge "connects two sectors separated by one of the 3 major
    rivers": a large one is started across the Maas between Grave and Wijchen, where the Grave
    bridge stands intact."""
    text = """
        setup: clear; round 3; phase 3.4
        setup: place 5 tank/UK Grave
        allied: bailey large 5 tank/UK Grave->Wijchen
    """
    report = played(text)
    assert not report.problems, report.problems
    (built,) = state(report)["baileys"]
    assert built["between"] == ["Grave", "Wijchen"] and built["points"] == 20


# -- Crossing Waterways: an intrusion by ferry ---------------------------------------------------

def test_crossing_waterways_a_ferry_is_a_crossing_without_a_bridge() -> None:
    """Crossing Waterways: "Crossing a bridge: ... every defending unit receives +2D10!";
    "Crossing a waterway without a bridge in daytime: Each defending unit gets a +3D10 bonus";
    "at night: Every defending unit gets a +1D10 bonus."  A German infantry unit invades
    Ravenstein by the Ravenstein ferry (no bridge): the Allied infantry defends with 2 + 3 dice
    by day, 2 + 1 at night; the intruder rolls its 2."""
    text = """
        setup: clear; round {round}; phase 5.1
        setup: box 0; supplies-used 29
        setup: place 1 inf/UK Ravenstein; place 1 inf Wijchen
        german: invade Ravenstein from Wijchen: 1 inf {{d10: {dice}}}
    """
    day = played(text.format(round=9, dice="9 9 9 9 9 | 9 9"))
    assert not day.problems, day.problems
    assert roll_sizes(day, 5) == [5, 2]
    night = played(text.format(round=10, dice="9 9 9 | 9 9"))
    assert not night.problems, night.problems
    assert roll_sizes(night, 5) == [3, 2]


# -- Phase 6.3 - The German Player Receives His Reserves ----------------------------------------

def test_phase_6_3_reserves_with_no_flag_sector_arrive_in_the_next_round() -> None:
    """Phase 6.3: "The German player mounts his reserves on any space with a German flag, free
    of enemy troops. Reserve units must be placed".  Round 4 brings a tank and an infantry unit
    above the Rhine; with every flag sector held by Allied troops they cannot be placed this
    round.  They are not lost but held back in their group, and come again in round 5's phase
    6.3, before round 5's own reserves (2 infantry and an artillery unit)."""
    board = ENGINE.board
    flags = [s for s in board.order if s in board.flags]
    kinds = ["inf/UK", "tank/UK", "art/UK", "inf/82", "inf/101"]
    allied = "; place ".join(f"1 {kinds[i % len(kinds)]} {s}" for i, s in enumerate(flags))
    text = f"""
        [Seed "held-back"]
        setup: clear; round 4; phase 5.1; icons 8
        setup: box 0; supplies-used 29
        setup: place 1 inf Hoenderloo
        setup: place {allied}
        german: end movement
    """
    report = played(text)
    assert not report.problems, report.problems
    waited = [e.event.text for e in report.events if e.event.kind == "reserves-wait"]
    assert waited and "until the next round's phase 6.3" in waited[0]
    assert state(report)["held_back"] == {
        "above_rhine": {"german": {"DE": {"inf": 1, "tank": 1}}}, "free": {}}
    lines = ENGINE.position(report.state)
    assert "setup: held-back-above 1 inf, 1 tank" in lines
    resumed = played("\n".join(lines))
    assert not resumed.problems, resumed.problems
    assert resumed.state_json() == report.state_json()
    from referee.games.arnhem44.reserves import due_german

    work = report.state
    assert work.round == 5
    due_german(board, work)
    assert sorted(work.arriving[:2]) == [("DE", "inf"), ("DE", "tank")]
    assert work.above_rhine == 2
    assert sorted(work.arriving[2:]) == [("DE", "art"), ("DE", "inf"), ("DE", "inf")]
    assert not work.held_above and not work.held_free


# -- Veterans Only, option 2 ---------------------------------------------------------------------

def test_veterans_2_nijmegen_bridge_free_once_the_first_allied_tanks_have_reached_it() -> None:
    """Veterans Only 2: "The (last) major bridge north of Nijmegen cannot be detonated before
    the first Allied tanks reach the south end of the bridge or an adjacent sector."  "Before
    ... reach" is a moment: an Allied tank came next to Nijmegen (Hengstal) in phase 4.1 and
    went back; in phase 3.2 of the next round no tank is there, and the bridge may be blown."""
    text = """
        [Option "nijmegen-bridge-order"]
        setup: clear; round 5; phase 4.1
        setup: box 0; supplies-used 29
        setup: place 1 tank/UK Malden; place 1 inf Nijmegen; place 1 inf Ede
        setup: crate Nijmegen-bridge 4
        allied: move 1 tank/UK Malden->Hengstal
        expect nijmegen_reached = true
        allied: move 1 tank/UK Hengstal->Malden
        allied: end movement
    """
    report = played(text)
    assert not report.problems, report.problems
    work = report.state
    assert work.nijmegen_reached
    assert "setup: nijmegen-reached" in ENGINE.position(work)
    from referee.games.arnhem44 import options as veterans

    work.round, work.phase = 6, "3.2"
    veterans.may_destroy(ENGINE.board, work, "Nijmegen-bridge", "blow")  # no refusal


# -- The Units / In General: crossing costs (reading A3) -----------------------------------------

def test_units_in_general_a_bridge_crossing_adds_nothing_to_the_sector_entered() -> None:
    """The Units, In General: "It costs one movement point to go from one sector to another.
    - Crossing a bridge is free."; "At night all units have only half their movement points:
    ... infantry and artillery can move but one sector."  The bridge adds nothing, the sector
    entered still costs its point: artillery at night crosses the Son bridge into Zon and can
    go no further (a crossing that cost nothing would give it a second sector)."""
    text = """
        setup: clear; round 10; phase 4.1
        setup: box 0; supplies-used 29
        setup: place 1 art/UK Eindhoven; place 1 inf Ede
        allied: move 1 art/UK Eindhoven->Zon->St. Oedenrode
        allied: move 1 art/UK Eindhoven->Zon
    """
    report = played(text)
    too_far = line_of(text, "allied: move 1 art/UK Eindhoven->Zon->")
    assert [p.line for p in report.problems] == [too_far]
    assert report.problems[0].rule
    zon = next(s for s in state(report)["sectors"] if s["id"] == "Zon")
    assert zon["units"]["allied"] == {"UK": {"art": 1}}
