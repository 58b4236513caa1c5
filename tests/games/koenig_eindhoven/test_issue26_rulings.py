"""Issue 26, rulings: each test is named after the case it covers and quotes the seed
(``koenig-eindhoven-bridge.txt``); the readings are rows of
``docs/koenig-eindhoven-interpretations.md``."""

from __future__ import annotations

from referee.api import replay_text
from referee.core.replay import Report

HEADER = '[Game "koenig-eindhoven"]\n'
DAY = ("setup: clear; turn 4; phase operations; rolled artillery; rolled allied-support; "
       "active 506\n")


def problems(report: Report) -> list[tuple[int | None, str | None, str]]:
    return [(p.line, p.rule, p.message) for p in report.problems]


# -- 8.1.1 Prohibited Terrain: off the map, and retreats across a River hexside ------------

def test_8_1_1_a_move_off_the_map_is_read_and_refused() -> None:
    """8.1.1: "Units may not move across River hexsides except at Bridges) nor off the map
    into 'imaginary' adjacent hexes."  0111 is on the map edge; ``->off`` is read (it is not
    an unknown hex) and refused citing 8.1.1."""
    report = replay_text(HEADER + DAY + "setup: place 1/506 0111\n"
                         "allied: move 1/506 0111->off\n"
                         "allied: combined 1/506 0111->0110->off\n")
    found = problems(report)
    assert [(line, rule) for line, rule, _ in found] == [(4, "8.1.1"), (5, "8.1.1")]
    assert "off the map into 'imaginary' adjacent hexes" in found[0][2]
    state = report.state_json()
    assert state is not None
    assert {u["id"]: u["hex"] for u in state["units"]}["1/506"] == "0111"


def test_8_1_1_night_redeployment_off_the_map_is_refused() -> None:
    """8.1.1 holds for every move, the German night redeployment (4.0) too."""
    report = replay_text(HEADER + "setup: clear; turn 3; phase redeployment; place 1/935 0111\n"
                         "german: redeploy 1/935 0111->off\n")
    assert [(line, rule) for line, rule, _ in problems(report)] == [(3, "8.1.1")]


def test_8_1_1_a_retreat_may_not_cross_a_river_hexside() -> None:
    """8.1.1 "Units may not move across River hexsides except at Bridges"; 11.0 "Units are
    always Retreated by their owning player into an adjacent hex" (K30: a retreat is a move,
    so it crosses a River hexside only at a bridge).  0110-0210 is the Wilhelmina canal."""
    report = replay_text(HEADER + DAY + "setup: place MG/506 0109; place 1/935 0110\n"
                         "allied: full-fire 0110 with MG/506\n"
                         "roll {d6: 1}\n"
                         "german: retreat 1/935->0210\n"
                         "german: retreat 1/935->0209\n")
    found = problems(report)
    assert [(line, rule) for line, rule, _ in found] == [(6, "8.1.1")]
    assert "across a River hexside" in found[0][2]
    state = report.state_json()
    assert state is not None
    assert {u["id"]: u["hex"] for u in state["units"]}["1/935"] == "0209"


# -- 7.1.1 Firing in Concert and 8.4 Combined: joint Mobile Fire after movement --------------

CONCERT = HEADER + DAY + "setup: place 1/935 0213; place 1/506 0215; place 2/506 0315; " \
    "place 3/506 0114\n"
"""1/935 in clear 0213 (+1 AF); 1/506 and 2/506 two hexes off, 3/506 beside it."""


def fire_event(report: Report) -> dict[str, object]:
    return next(e.event.data for e in report.events if e.event.kind == "fire")


def test_7_1_1_combined_units_move_and_then_fire_jointly() -> None:
    """8.4: units "move up to half of their printed Movement Allowance and then conduct a
    Mobile Fire Attack"; 7.1.1: "Only units performing the same type of Operation and that are
    firing on the same target hex can perform them jointly".  Each moves (half MA), then both
    fire in one attack: 3 + 3 (5 halved, rounded up, 2.2) + 1 (Clear target, 9.1) = AF 7."""
    report = replay_text(CONCERT + "allied: combined 1/506 0215->0214\n"
                         "allied: combined 2/506 0315->0314\n"
                         "allied: mobile-fire 0213 with 1/506, 2/506\n"
                         "roll {d6: 6}\n"
                         "german: stay\n")
    assert problems(report) == []
    fire = fire_event(report)
    assert fire["attackers"] == ["1/506", "2/506"] and fire["af"] == 7
    hits = {u["id"]: u["hits"] for u in (report.state_json() or {})["units"]}
    assert hits["1/935"] == 1  # 6 < 7: a Hit (9.0)


def test_7_1_a_mobile_fire_after_movement_names_every_unit_that_moved_after_it() -> None:
    """7.1: "each unit must complete its Operation before the next unit in that formation
    undertakes its own" -- 1/506's Operation was still open when 2/506 moved, so 1/506 may
    complete it only jointly with 2/506; 2/506 may fire alone, and 1/506's Mobile Fire is then
    lost."""
    report = replay_text(CONCERT + "allied: combined 1/506 0215->0214\n"
                         "allied: combined 2/506 0315->0314\n"
                         "allied: mobile-fire 0213 with 1/506\n"
                         "allied: mobile-fire 0213 with 2/506\n"
                         "roll {d6: 6}\n"
                         "allied: mobile-fire 0213 with 1/506\n")
    found = problems(report)
    assert [(line, rule) for line, rule, _ in found] == [(6, "7.1"), (9, "7.1")]
    assert "only jointly with them (7.1.1)" in found[0][2]
    assert fire_event(report)["attackers"] == ["2/506"]


def test_7_1_another_operation_closes_an_open_combined_operation() -> None:
    """7.1 still holds for every other Operation: after 3/506's Movement, 1/506 (which moved in
    a Combined Operation before it) may no longer make its Mobile Fire."""
    report = replay_text(CONCERT + "allied: combined 1/506 0215->0214\n"
                         "allied: move 3/506 0114->0115\n"
                         "allied: mobile-fire 0213 with 1/506\n")
    assert [(line, rule) for line, rule, _ in problems(report)] == [(6, "7.1")]


def test_7_1_1_example_a_combined_unit_may_not_join_a_full_fire() -> None:
    """7.1.1: "A unit conducting Combined Operation could not sidle up to an enemy unit and
    join another friendly unit that is conducting a Full Fire Operation in an attack against
    it. They can both attack that enemy unit on the same turn, but they must do so
    separately"."""
    report = replay_text(CONCERT + "allied: combined 1/506 0215->0214\n"
                         "allied: full-fire 0213 with 3/506, 1/506\n"
                         "allied: mobile-fire 0213 with 1/506\n"
                         "roll {d6: 6}\n"
                         "allied: full-fire 0213 with 3/506\n")
    assert [(line, rule) for line, rule, _ in problems(report)] == [(5, "7.1.1")]


def test_8_4_units_that_fire_jointly_first_may_each_move_afterwards() -> None:
    """8.4: "... and then conduct a Mobile Fire Attack (at half its Combat Strength) or
    vice-versa (i.e., shoot first and then move)": jointly too (7.1.1), the same reading."""
    report = replay_text(HEADER + DAY + "setup: place 1/935 0213; place 1/506 0214; "
                         "place 2/506 0314\n"
                         "allied: mobile-fire 0213 with 1/506, 2/506\n"
                         "roll {d6: 6}\n"
                         "german: stay\n"
                         "allied: combined 1/506 0214->0215\n"
                         "allied: combined 2/506 0314->0315\n")
    assert problems(report) == []
    where = {u["id"]: u["hex"] for u in (report.state_json() or {})["units"]}
    assert (where["1/506"], where["2/506"]) == ("0215", "0315")


# -- 8.4.1 Operations Unity ---------------------------------------------------------------

def test_8_4_1_move_mobile_fire_and_move_again_is_refused_citing_8_4_1() -> None:
    """8.4.1: "A unit cannot move, conduct a Mobile Fire Attack, and then move again; all of
    one takes place first, and then all of the other takes place, for each unit conducting a
    Combined Operation." """
    report = replay_text(CONCERT + "allied: combined 1/506 0215->0214\n"
                         "allied: mobile-fire 0213 with 1/506\n"
                         "roll {d6: 6}\n"
                         "allied: combined 1/506 0214->0215\n"
                         "allied: move 1/506 0214->0215\n")
    found = problems(report)
    assert [(line, rule) for line, rule, _ in found] == [(7, "8.4.1"), (8, "8.4.1")]
    assert "cannot move, conduct a Mobile Fire Attack, and then move again" in found[0][2]


def test_8_4_legal_lists_the_joint_mobile_fire_and_the_moves_after_fire() -> None:
    """``legal`` agrees with the rulings above: after two Combined movements the joint attack
    and the later mover's own are listed, the earlier mover's alone is not; after a Mobile
    Fire first, the unit's Combined movement is listed."""
    from referee.games.koenig_eindhoven.commands import Fire, Move
    from referee.games.koenig_eindhoven.engine import ENGINE

    report = replay_text(CONCERT + "allied: combined 1/506 0215->0214\n"
                         "allied: combined 2/506 0315->0314\n")
    legal = list(ENGINE.legal(report.state))
    assert Fire("mobile-fire", "0213", ("1/506", "2/506")) in legal
    assert Fire("mobile-fire", "0213", ("2/506",)) in legal
    assert Fire("mobile-fire", "0213", ("1/506",)) not in legal
    report = replay_text(HEADER + DAY + "setup: place 1/935 0213; place 1/506 0214\n"
                         "allied: mobile-fire 0213 with 1/506\n"
                         "roll {d6: 6}\n")
    assert problems(report) == []
    moves = [c for c in ENGINE.legal(report.state) if isinstance(c, Move) and c.unit == "1/506"]
    assert moves and {m.verb for m in moves} == {"combined"}


def test_7_1_1_open_combined_operations_survive_a_position() -> None:
    """The open Operations are part of the position (``current UNIT``, in the order they
    began): the joint Mobile Fire of 7.1.1 is still possible after it."""
    from referee.api import position_text

    report = replay_text(CONCERT + "allied: combined 1/506 0215->0214\n"
                         "allied: combined 2/506 0315->0314\n")
    saved = position_text(report)
    assert "current 1/506; current 2/506" in saved
    resumed = replay_text(saved + "allied: mobile-fire 0213 with 1/506, 2/506\n")
    assert problems(resumed) == []
    assert fire_event(resumed)["af"] == 7


# -- Exclusive 8.5 Reinforcements and 8.3.1 Blocked Entry Hexes ----------------------------

def test_8_3_1_with_son_held_a_reinforcement_may_not_enter_across_the_canal() -> None:
    """8.3.1: "If an enemy unit blocks a reinforcement's entry hex, that reinforcement unit can
    either enter at any hex adjacent to the prescribed entry hex OR conduct normal Close
    Combat against the blocking unit"; 8.1.1: "Units may not move across River hexsides except
    at Bridges".  Road A enters at Son (0113), north of the Wilhelmina canal; 0212, south of it,
    is adjacent only across the Son bridge, which leaves from the blocked hex (R16).  The hexes
    beside Son on its own bank stay open, and so does Close Combat against the blocker."""
    report = replay_text(HEADER + DAY + "setup: place 1/935 Son\n"
                         "allied: move 1/506 A->0212\n"
                         "allied: move 1/506 A->0213\n"
                         "allied: move 2/506 A->0112\n"
                         "allied: move 3/506 A->Son\n")
    found = problems(report)
    assert [(line, rule) for line, rule, _ in found] == [(4, "8.3.1")]
    assert "across a River hexside" in found[0][2]
    state = report.state_json()
    assert state is not None
    where = {u["id"]: u["hex"] for u in state["units"]}
    assert (where["1/506"], where["2/506"]) == ("0213", "0112")
    assert state["battle"]["kind"] == "close-combat"  # 3/506 engages 1/935 in Son


def test_8_3_1_legal_never_offers_the_entry_across_the_canal() -> None:
    from referee.games.koenig_eindhoven.commands import Move
    from referee.games.koenig_eindhoven.engine import ENGINE

    report = replay_text(HEADER + DAY + "setup: place 1/935 Son\n")
    firsts = {c.path[0] for c in ENGINE.legal(report.state)
              if isinstance(c, Move) and c.unit == "1/506" and c.start == "A"}
    assert firsts == {"0113", "0112", "0114", "0213"}  # Son itself: Close Combat
    assert "0212" not in firsts


def test_8_2_an_entry_hex_full_of_friendly_units_closes_its_road_for_now() -> None:
    """8.2: "Units may never be placed, moved or Retreated (11.0) in violation of this limit";
    8.3.1 opens the adjacent hexes only "If an enemy unit blocks a reinforcement's entry hex"
    (R17).  With two Allied units in Son the third may not enter by road A there nor beside it;
    it may use road B, or wait for a later activation (K3)."""
    report = replay_text(HEADER + DAY + "setup: place 1/506 Son; place 2/506 Son\n"
                         "allied: move 3/506 A->0113\n"
                         "allied: move 3/506 A->0112\n"
                         "allied: move 3/506 B->0114\n")
    found = problems(report)
    assert [(line, rule) for line, rule, _ in found] == [(4, "8.2"), (5, "8.3.1")]
    where = {u["id"]: u["hex"] for u in (report.state_json() or {})["units"]}
    assert where["3/506"] == "0114"


# -- 2.2 The Playing Pieces: Anti-Tank units -----------------------------------------------

def test_2_2_anti_tank_units_are_not_in_the_counter_mix_and_the_notes_say_why() -> None:
    """2.2: "Parachute troops are shown as Headquarters, Infantry, Heavy Weapons, and
    Anti-Tank. Glider landing troops are shown as Headquarters, Infantry, and Anti-Tank."
    5.0: the Exclusive Rules give "a complete listing of Allied reinforcements by Game Turn";
    Exclusive 8.5 lists the 327th's "2nd and 3rd battalions (only)" and "1st and M battalions
    (only)".  No Anti-Tank unit is reconstructed; NOTES.md says why, and the scenario check
    refuses an Allied reinforcement the schedule does not list."""
    from pathlib import Path
    from typing import Any

    from referee.games.koenig_eindhoven.board import scenario_folder
    from referee.games.koenig_eindhoven.engine import ENGINE
    from referee.games.koenig_eindhoven.facts import check_facts

    from .conftest import fixture_board

    assert not [u for u, s in ENGINE.board.units.items() if s.kind == "anti-tank"]
    notes = (Path(scenario_folder()) / "NOTES.md").read_text()
    assert "### Anti-Tank units (2.2): none" in notes

    def add_glider_anti_tank(data: dict[str, Any]) -> None:
        data["units.toml"]["units"].append({
            "id": "AT/327", "name": "Anti-Tank company, 327th GIR", "side": "allied",
            "formation": "327", "type": "anti-tank", "cs": 3, "ma": 4, "arrives": 6,
            "entry": ["A", "B"], "landing": True})

    problems = check_facts(fixture_board(add_glider_anti_tank))
    assert any("AT/327" in p and "complete listing" in p for p in problems), problems


def test_8_4_a_unit_its_own_mobile_fire_eliminated_is_offered_no_movement() -> None:
    """9.0: "If the roll is equal to the AF, an 'Exchange' occurs where both sides receive a
    single Hit"; 9.2: "If a unit with 2 Hits suffers another, it is eliminated" -- a unit that
    fired first and was eliminated by the Exchange owes no movement (found by ``referee
    simulate``, seed selfplay-193)."""
    from referee.games.koenig_eindhoven.commands import Move
    from referee.games.koenig_eindhoven.engine import ENGINE

    report = replay_text(HEADER + DAY + "setup: place 1/935 0213; place 1/506 0214 hits 2\n"
                         "allied: mobile-fire 0213 with 1/506\n"  # AF 3 - 1 + 1 = 3
                         "roll {d6: 3}\n"
                         "german: stay\n")
    assert problems(report) == []
    status = {u["id"]: u["status"] for u in (report.state_json() or {})["units"]}
    assert status["1/506"] == "eliminated"
    assert not [c for c in ENGINE.legal(report.state) if isinstance(c, Move) and c.unit == "1/506"]


def test_8_4_2_a_combined_move_into_close_combat_closes_the_open_operations() -> None:
    """8.4.2: "Units conducting a Combined Operation can perform Close Combat if they have
    sufficient Movement Points"; 10.3: "A unit that initiates a Close Combat battle must end
    its turn after the battle's resolution".  2/506's Operation ends with its Close Combat and
    was never going to fire jointly, so 1/506, which moved before it, lost its Mobile Fire
    (7.1)."""
    report = replay_text(CONCERT + "setup: place 2/935 0414\n"
                         "allied: combined 1/506 0215->0214\n"
                         "allied: combined 2/506 0315->0414\n"  # 1 + 2 MP: Close Combat
                         "round {d6: 6 1}\n"
                         "german: retreat 2/935->0515\n"
                         "allied: mobile-fire 0213 with 1/506\n")
    assert [(line, rule) for line, rule, _ in problems(report)] == [(9, "7.1")]
