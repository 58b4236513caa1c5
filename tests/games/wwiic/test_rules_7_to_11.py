"""Rules of sections 7-11 beyond the worked examples (``test_examples_rules.py``): each test
sets up a small position and checks one rule, named after its section."""

from __future__ import annotations

import pytest

from referee.games.wwiic.board import ALLIED, GERMAN
from referee.games.wwiic.combat import attacker_fire, defender_fire, dice_count
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import Phase, WState
from referee.games.wwiic.supply import supply_check

from .positions import BOARD, dice, no_dice, position, refused
from .positions import play as play_one


def play(state: WState, text: str, tray: object = None) -> list[object]:
    """Apply a line's command, then every decision with a single answer (as the replay
    driver does)."""
    events: list[object] = list(play_one(state, text, tray))  # type: ignore[arg-type]
    while state.phase in (Phase.BATTLE, Phase.REINFORCE, Phase.REPLACE):
        forced = ENGINE.forced(state)
        if forced is None:
            break
        events += ENGINE.apply(state, forced, no_dice())
    return events


def start_turn(state: WState, turn: int, roll: int = 5) -> list[str]:
    state.turn = turn
    state.phase = Phase.WEATHER
    return [e.text for e in play(state, "weather", dice(roll))]  # type: ignore[attr-defined]


# -- 7 Combat ----------------------------------------------------------------------------


def test_7_1_armor_rolls_two_dice_in_woods_and_all_in_clear() -> None:
    state = position({"21G/5G": "Mook", "406": "Mook"})
    assert dice_count(BOARD, state, "21G/5G", "Mook") == 2
    state = position({"21G/5G": "Geldorp", "406": "Geldorp"})
    assert dice_count(BOARD, state, "21G/5G", "Geldorp") == 4
    state = position({"21G/5G": "Mook", "406": "Mook"}, strength={"21G/5G": 1})
    assert dice_count(BOARD, state, "21G/5G", "Mook") == 1


def test_7_2_modified_hit_chance_is_at_least_1() -> None:
    state = position({"B/508/82": "Zon", "10SS-Pz": "Zon"}, strength={"B/508/82": 1})
    state.entered_across["B/508/82"] = "canal"
    fire = attacker_fire(BOARD, state, "B/508/82", "Zon", ["10SS-Pz"])
    assert fire.base + sum(v for _, v in fire.modifiers) == 0
    assert fire.chance == 1


def test_7_2_out_of_supply_defends_at_2_and_cannot_attack() -> None:
    state = position({"32G": "Geldorp", "KG-Henke": "Geldorp"}, supply={"32G": "out"},
                     german=["Geldorp"])
    fire = defender_fire(BOARD, state, "32G", "Geldorp", ["KG-Henke"])
    assert fire.base == 2
    after = ENGINE.copy(state)
    play(after, "allied: activate 32G")
    assert after.phase is Phase.IMPULSE  # no combat opened (8.2)


def test_7_3_low_supply_flips_to_out_after_defending() -> None:
    state = position({"1P/1AB": "Arnhem", "9SS": "Schaarsbergen"}, supply={"1P/1AB": "low"},
                     side=GERMAN)
    play(state, "german: activate 9SS Schaarsbergen->Arnhem")
    play(state, "german: attack Arnhem", dice(10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10))
    assert state.supply["1P/1AB"] == "out"
    assert state.supply["9SS"] == "in"


def test_7_5_elimination_scores_vp_both_ways() -> None:
    state = position({"21G/5G": "Geldorp", "KG-Walther": "Geldorp"},
                     strength={"21G/5G": 1, "KG-Walther": 1}, german=["Geldorp"])
    play(state, "allied: activate 21G/5G")
    play(state, "allied: attack Geldorp", dice(1, 1))
    play(state, "german: hits KG-Walther")  # it could have retreated instead
    assert state.location["21G/5G"] is None and state.location["KG-Walther"] is None
    assert state.eliminated_vp == 0  # +1 for KG-Walther, -1 for 21G/5G
    assert set(state.eliminated) == {"21G/5G", "KG-Walther"}
    # The defender's hits come first (7.3): for a moment 21G/5G held Geldorp alone, so the
    # Allies were the last to have units there (5).
    assert "Geldorp" in state.allied_control


SIX_GERMAN_VPS = ["9SS", "9SS-Recon", "10SS", "KG-Spindler", "KG-Brinkmann", "KG-Knaust"]


def test_7_3_defender_hits_reach_plus_7_before_the_attacker_applies_its_own() -> None:
    """7.3 "the defending player, then the attacking player, applies all hits"; 11.3 the
    Eliminated Units marker entering +7 wins at once: KG-Walther's elimination ends the game
    before 2HC's own elimination could take the marker back to +6."""
    state = position({"2HC": "Geldorp", "KG-Walther": "Geldorp"},
                     strength={"2HC": 1, "KG-Walther": 1}, german=["Geldorp"])
    state.eliminated_vp = 6
    state.eliminated.extend(SIX_GERMAN_VPS)
    play(state, "allied: activate 2HC")
    play(state, "allied: attack Geldorp", dice(1, 1))
    events = [e.text for e in play(state, "german: hits KG-Walther")]  # type: ignore[attr-defined]
    outcome = ENGINE.outcome(state)
    assert outcome["winner"] == ALLIED and "+7" in outcome["reason"]
    assert state.eliminated_vp == 7 and outcome["vp"]["eliminated"] == 7
    assert state.location["2HC"] == "Geldorp" and "2HC" not in state.eliminated
    assert state.phase is Phase.OVER and state.battle is None
    assert not any("2HC" in text and "Eliminated" in text for text in events)


def test_7_3_defender_hits_reach_minus_7_before_the_attacker_applies_its_own() -> None:
    """The mirror case: the Allied defender's elimination takes the marker to -7 (11.3) and
    the German attacker's hit is never applied."""
    state = position({"2HC": "Geldorp", "KG-Walther": "Geldorp"},
                     strength={"2HC": 1, "KG-Walther": 1}, side=GERMAN)
    state.eliminated_vp = -6
    state.eliminated.extend(["501/101", "502/101", "506/101"])
    play(state, "german: activate KG-Walther")
    play(state, "german: attack Geldorp", dice(1, 1))
    if state.phase is Phase.BATTLE:  # 2HC may retreat instead, when a space is open
        play(state, "allied: hits 2HC")
    outcome = ENGINE.outcome(state)
    assert outcome["winner"] == GERMAN and "-7" in outcome["reason"]
    assert state.location["KG-Walther"] == "Geldorp" and state.eliminated_vp == -7


@pytest.mark.parametrize("answer", ["german: hits 59", "german: retreat 59->Ewijk"])
def test_7_3_11_1_marker_advances_before_the_30_corps_attacker_is_eliminated(answer: str) -> None:
    """11.1 "the moment that higher-value space is occupied by an Allied 30 Corps unit and is
    uncontested": the defender's hits (or retreat) leave 2HC alone in Neerbosch, which is
    Allied-controlled at once (5); the marker advances to Neerbosch (14 VPs) before 2HC takes
    its own hit and is eliminated, and "can't be moved back"."""
    route = ["De Groote", "Borkel", "Valkenswaard", "Waalre", "Eindhoven", "Zon",
             "St. Oedenrode", "Doerhoek", "Veghel", "Uden", "Zeeland", "Grave", "Wijchen"]
    state = position({"2HC": "Wijchen", "59": "Neerbosch"}, strength={"2HC": 1, "59": 1},
                     allied=route)
    state.objective_marker = "Wijchen"
    play(state, "allied: activate 2HC Wijchen->Neerbosch")
    play(state, "allied: attack Neerbosch", dice(1, 1))
    events = [e.text for e in play(state, answer)]  # type: ignore[attr-defined]
    assert state.objective_marker == "Neerbosch"
    assert "2HC" in state.eliminated and state.location["2HC"] is None
    assert "Neerbosch" in state.allied_control  # empty, last held by the Allies (5)
    assert ENGINE.outcome(state)["vp"]["objective"] == 14
    marker = next(i for i, t in enumerate(events) if "advances to Neerbosch" in t)
    gone = next(i for i, t in enumerate(events) if t.startswith("2HC goes to the Eliminated"))
    assert marker < gone


def test_7_6_retreat_never_into_an_off_map_box_or_across_an_unbridged_river() -> None:
    from referee.games.wwiic.combat import retreat_spaces

    state = position({"406": "Wyler", "505/82": "Wyler"}, german=["Wyler"])
    found = retreat_spaces(BOARD, state, "406", "Wyler", False)
    assert "E4" not in found and found and all(BOARD.kind[s] == "space" for s in found)
    state = position({"505/82": "Mook", "406": "Mook"}, allied=["Mook", "Cuyk", "Groesbeek"])
    assert retreat_spaces(BOARD, state, "505/82", "Mook", False) == ["Groesbeek"]


def test_7_6_retreat_uses_the_foot_crossing_once() -> None:
    from referee.games.wwiic.combat import retreat_spaces

    state = position({"1A/1AB": "Oosterbeek", "9SS": "Oosterbeek"}, allied=["Driel"])
    assert "Driel" in retreat_spaces(BOARD, state, "1A/1AB", "Oosterbeek", False)
    assert "Driel" not in retreat_spaces(BOARD, state, "1A/1AB", "Oosterbeek", True)


def test_7_7_only_one_breakthrough_across_a_bridge() -> None:
    state = position({"21G/5G": "Eindhoven", "2HC": "Eindhoven", "59": "Eindhoven"},
                     strength={"59": 1}, allied=["Eindhoven"], german=["Zon"])
    play(state, "allied: activate 21G/5G, 2HC")
    play(state, "allied: attack Eindhoven", dice(1, 1, 1, 1, 1, 1, 10))
    assert state.phase is Phase.BATTLE
    refused(state, "allied: breakthrough 21G/5G->Zon, 2HC->Zon", "7.7")
    play(state, "allied: breakthrough 21G/5G->Zon, 2HC->Nuenen")
    assert state.location["21G/5G"] == "Zon" and "Zon" in state.allied_control


def test_7_pending_decision_is_named_and_other_commands_refused() -> None:
    state = position({"406": "Hengstal", "505/82": "Mook", "B/504/82": "Mook"}, side=GERMAN,
                     allied=["Groesbeek"])
    play(state, "german: activate 406 Hengstal->Mook")
    play(state, "german: attack Mook", dice(1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 10, 10, 10))
    assert ENGINE.to_act(state) == ALLIED
    assert "Allied defender at Mook" in ENGINE.decision(state)
    refused(state, "allied: activate 505/82", "7")
    refused(state, "allied: breakthrough 505/82->Groesbeek", "7.7")


def test_7_3_hits_naming_a_unit_of_the_other_side_say_whose_hits_they_are() -> None:
    """7.3: each player applies the hits "against their side"; naming the attacker (9SS) in
    the Allied defender's hits says that 9SS is not on the side taking them."""
    state = position({"1P/1AB": "Arnhem", "9SS": "Schaarsbergen"}, side=GERMAN,
                     allied=["Oosterbeek", "Elden"])
    play(state, "german: activate 9SS Schaarsbergen->Arnhem")
    play(state, "german: attack Arnhem", dice(1, 1, 1, 1, 1, 10, 10, 10, 10, 10, 10))
    assert state.phase is Phase.BATTLE and ENGINE.to_act(state) == ALLIED
    error = refused(state, "allied: hits 9SS", "7.3")
    assert "9SS is a German unit, not on the side taking these hits" in str(error)
    assert "1P/1AB" in str(error)
    error = refused(state, "allied: hits 1P/1AB 9SS", "7.3")
    assert "9SS is a German unit" in str(error)


def test_7_6_waiting_defender_is_offered_a_retreat_only_where_one_exists() -> None:
    """7.6 "If there is no eligible retreat space, retreat is not allowed": the decision (and
    the "must wait" refusal that quotes it) names only the answers that are legal."""
    closed = ["Eindhoven", "Heeze", "Mierlo", "Nuenen", "Waalre"]
    for allied, retreat in ((closed, False), ((), True)):
        state = position({"2HC": "Geldorp", "KG-Walther": "Geldorp"},
                         strength={"KG-Walther": 2}, german=["Geldorp"], allied=allied)
        play(state, "allied: activate 2HC")
        play_one(state, "allied: attack Geldorp", dice(1, 1, 10, 10))
        assert state.phase is Phase.BATTLE and ENGINE.to_act(state) == GERMAN
        text = ENGINE.decision(state)
        assert ("retreat" in text.replace("no retreat", "")) is retreat, text
        error = refused(state, "german: activate 59", "7")
        assert ("retreat" in str(error).replace("no retreat", "")) is retreat, error


# -- 8 Supply ----------------------------------------------------------------------------


def test_8_german_path_crosses_rivers_only_at_bridges() -> None:
    # Elst has only the Arnhem road bridge and overland ways north; with Elden Allied, the
    # unit traces west and south only: all German-controlled, so in supply.
    state = position({"9SS": "Driel"}, allied=["Elden", "Heteren", "Valburg", "Elst"])
    supply_check(BOARD, state, [])
    assert state.supply["9SS"] == "out"  # Doorwerth/Oosterbeek only across the river
    state = position({"9SS": "Driel"})
    supply_check(BOARD, state, [])
    assert state.supply["9SS"] == "in"


def test_8_special_crossing_supplies_for_the_next_turn_only() -> None:
    state = position({"B/504/82": "Hernen"}, turn=4)
    state.special_crossers["B/504/82"] = 3
    supply_check(BOARD, state, [])
    assert state.supply["B/504/82"] == "in"
    state.turn = 5
    supply_check(BOARD, state, [])
    assert state.supply["B/504/82"] == "low"


def test_8_1_markers_oos_stays_and_clears_when_traced() -> None:
    state = position({"B/504/82": "Hernen", "59": "Boxtel"}, supply={"B/504/82": "out"})
    supply_check(BOARD, state, [])
    assert state.supply["B/504/82"] == "out"  # an airborne OOS marker stays OOS
    state = position({"B/504/82": "Over Asselt"}, supply={"B/504/82": "out"})
    supply_check(BOARD, state, [])
    assert state.supply["B/504/82"] == "in"
    state = position({"21G/5G": "Hernen"}, allied=[])
    supply_check(BOARD, state, [])
    assert state.supply["21G/5G"] == "out"  # non-airborne: straight to Out of Supply


def test_8_supply_check_runs_at_the_start_of_each_turn() -> None:
    state = position({"B/504/82": "Hernen"}, turn=3)
    texts = start_turn(state, 4)
    assert any(t.startswith("4. supply check, Allied") for t in texts)
    assert state.supply["B/504/82"] == "low"


# -- 9 Reinforcements ------------------------------------------------------------------


def test_9_delayed_allied_reinforcement_and_de_groote() -> None:
    state = position({"1A/1AB": "Heelsum", "K/1AB": "Heelsum", "KG-Krafft": "Heide"},
                     german=["Heide"], turn=2)
    texts = start_turn(state, 3)
    assert any("4P/1AB can't be placed" in t for t in texts)
    assert state.due["4P/1AB"] == 4 and "4P/1AB" in state.delayed
    for unit in ("1GG/5G", "1CG/5G"):  # they entered at De Groote: move them on
        state.location[unit] = "Valkenswaard"
    start_turn(state, 4)
    # Heelsum holds two Allied units, Heide is German; De Groote is open to a delayed
    # airborne unit, and it is the only place, so the referee places it there.
    assert state.location["4P/1AB"] == "De Groote"
    assert "4P/1AB" not in state.delayed


def test_9_polish_drop_places_the_supply_marker() -> None:
    state = position({"1P/1AB": "Elst"}, allied=["Elst"], turn=6)
    start_turn(state, 7)
    while state.phase is Phase.REINFORCE and state.arrivals[0] != "P/1P":
        play(state, str(ENGINE.legal(state)[0]))
    refused(state, "allied: reinforce P/1P Arnhem", "9")
    play(state, "allied: reinforce P/1P Driel")
    assert state.polish_marker == "Driel"
    start_turn(state, 8)
    assert state.supply["1P/1AB"] == "in"  # Elst -> Driel, the Polish supply source


# -- 10 Replacements ---------------------------------------------------------------------


def test_10_points_forfeit_when_no_unit_is_eligible() -> None:
    state = position({"505/82": "Groesbeek"}, strength={"505/82": 3}, turn=5)
    texts = start_turn(state, 6)
    assert any("forfeit" in t for t in texts)
    assert state.phase is Phase.IMPULSE


def test_10_out_of_supply_units_take_no_replacement() -> None:
    state = position({"21G/5G": "Hernen", "32G": "De Groote"},
                     strength={"21G/5G": 2, "32G": 2}, turn=5)
    start_turn(state, 6)
    assert state.supply["21G/5G"] == "out"
    refused(state, "allied: replace 21G/5G", "10")
    play(state, "allied: replace 32G")
    assert state.strength["32G"] == 3


# -- 11 Victory --------------------------------------------------------------------------


def test_11_1_objective_marker_advances_and_never_goes_back() -> None:
    route = ["De Groote", "Borkel", "Valkenswaard", "Waalre", "Eindhoven"]
    state = position({"21G/5G": "Waalre"}, allied=route[:4])
    play(state, "allied: activate 21G/5G Waalre->Eindhoven")
    assert state.objective_marker == "Eindhoven"
    state.allied_control.discard("Borkel")
    assert ENGINE.outcome(state)["vp"]["objective"] == 4


def test_11_1_marker_waits_for_a_30_corps_unit_and_an_uncontested_route() -> None:
    state = position({"506/101": "Waalre", "59": "Borkel", "2HC": "Borkel"},
                     allied=["De Groote", "Borkel", "Valkenswaard", "Waalre"])
    play(state, "allied: activate 506/101 Waalre->Eindhoven")
    assert state.objective_marker == "De Groote"  # airborne, and Borkel is contested


def test_11_1_moving_through_an_objective_does_not_occupy_it() -> None:
    """11.1 "occupied by an Allied 30 Corps unit": a unit moving through Neerbosch (14) to
    St. Anna does not occupy it (6.2 tells moving through from occupying); the marker stays."""
    route = ["De Groote", "Borkel", "Valkenswaard", "Waalre", "Eindhoven", "Zon",
             "St. Oedenrode", "Doerhoek", "Veghel", "Uden", "Zeeland", "Grave", "Wijchen"]
    state = position({"21G/5G": "Wijchen"}, allied=route)
    state.objective_marker = "Wijchen"
    play(state, "allied: activate 21G/5G Wijchen->Neerbosch->St. Anna")
    assert state.location["21G/5G"] == "St. Anna" and "Neerbosch" in state.allied_control
    assert state.objective_marker == "Wijchen"
    state = position({"21G/5G": "St. Anna"}, allied=[*route, "Neerbosch"])
    state.objective_marker = "Wijchen"
    play(state, "allied: activate 21G/5G St. Anna->Neerbosch")  # stopping there occupies it
    assert state.objective_marker == "Neerbosch"


def test_11_3_german_threshold_at_the_end_of_turn_8() -> None:
    state = position({"505/82": "Groesbeek", "59": "Boxtel"}, turn=8, time=11, side=GERMAN,
                     initiative=ALLIED)
    play(state, "german: pass")
    outcome = ENGINE.outcome(state)
    assert outcome["winner"] == GERMAN and "fewer than 10" in outcome["reason"]


def test_11_3_threshold_does_not_apply_with_nijmegen_and_arnhem_allied() -> None:
    state = position({"505/82": "Nijmegen", "1P/1AB": "Arnhem", "59": "Boxtel"}, turn=8,
                     time=11, side=GERMAN, initiative=ALLIED)
    play(state, "german: pass")
    assert ENGINE.outcome(state)["result"] is None and state.turn == 9


@pytest.mark.parametrize(("vp", "winner"), [(6, ALLIED), (-6, GERMAN)])
def test_11_3_eliminated_units_marker_at_seven(vp: int, winner: str) -> None:
    loser = "KG-Walther" if winner == ALLIED else "21G/5G"
    state = position({"21G/5G": "Geldorp", "KG-Walther": "Geldorp"},
                     strength={"21G/5G": 4, "KG-Walther": 1}, german=["Geldorp"])
    if winner == GERMAN:
        state.strength.update({"21G/5G": 1, "KG-Walther": 4})
    state.eliminated_vp = vp
    state.eliminated.extend(["9SS", "9SS-Recon", "10SS", "KG-Spindler", "KG-Brinkmann",
                             "KG-Knaust"] if vp > 0 else
                            ["501/101", "502/101", "506/101"])
    faces = (1, 1, 1, 1, 10) if winner == ALLIED else (10, 1, 1, 1, 1)
    play(state, "allied: activate 21G/5G")
    play(state, "allied: attack Geldorp", dice(*faces))
    assert state.location[loser] is None
    outcome = ENGINE.outcome(state)
    assert outcome["winner"] == winner and "7" in outcome["reason"]
    assert state.phase is Phase.OVER


def test_11_3_objective_marker_in_arnhem_at_the_start_of_a_turn() -> None:
    state = position({"21G/5G": "Arnhem"}, turn=5, time=11, side=GERMAN, initiative=ALLIED)
    state.objective_marker = "Arnhem"
    play(state, "german: pass")
    outcome = ENGINE.outcome(state)
    assert outcome["winner"] == ALLIED and "Arnhem" in outcome["reason"]
