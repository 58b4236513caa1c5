"""Space control (5) and movement (6, 6.1-6.5, 8.2), case by case and exception by exception.

The rulebook's own worked examples are in test_movement_examples.py; these tests pin the
cases the examples do not show.
"""

from __future__ import annotations

from referee.games.wwiic.board import ALLIED, GERMAN
from referee.games.wwiic.commands import WeatherRoll
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import Phase, WState

from .positions import (
    accepted,
    destinations,
    dice,
    opening,
    paths,
    play,
    position,
    refused,
)

# -- 5 Space control ----------------------------------------------------------------------


def space_control_example() -> WState:
    return position(
        {"21G/5G": "De Groote", "59": "Reithoven", "505/82": "Westerhoven", "245": "Westerhoven"},
        allied=["Luyksgestel"],
    )


def test_5_space_control_example() -> None:
    state = space_control_example()
    spaces = {s["id"]: s for s in ENGINE.to_json(state)["spaces"]}
    assert spaces["Weebosch"] == {"id": "Weebosch", "control": GERMAN, "contested": False}
    assert spaces["Luyksgestel"]["control"] == ALLIED
    assert spaces["De Groote"]["control"] == ALLIED
    assert spaces["Reithoven"]["control"] == GERMAN
    assert spaces["Westerhoven"] == {"id": "Westerhoven", "control": GERMAN, "contested": True}


def test_5_an_empty_space_stays_with_the_last_side_to_hold_it() -> None:
    state = space_control_example()
    after = accepted(state, "allied: activate 21G/5G De Groote->Achel")
    assert after.controller("De Groote") == ALLIED


def test_5_the_last_controlling_unit_leaving_a_contested_space_hands_it_over() -> None:
    state = space_control_example()
    state.side = GERMAN
    events = play(state, "german: activate 245 Westerhoven->Reithoven")
    assert state.controller("Westerhoven") == ALLIED  # the Allied control marker is placed
    assert any(e.text == "Westerhoven becomes Allied-controlled" for e in events)


def test_5_a_contested_space_keeps_its_control_while_the_controller_stays() -> None:
    state = position({"505/82": "Westerhoven", "B/508/82": "Westerhoven", "245": "Westerhoven"},
                     allied=["Westerhoven", "Bergeijk"])
    after = accepted(state, "allied: activate 505/82 Westerhoven->Bergeijk")
    assert after.controller("Westerhoven") == ALLIED
    after = accepted(state, "allied: activate 505/82 Westerhoven->Bergeijk, "
                     "B/508/82 Westerhoven->Bergeijk")
    assert after.controller("Westerhoven") == GERMAN


# -- 6 Movement allowances by type ----------------------------------------------------------


def test_6_leg_infantry_moves_one_space() -> None:
    state = position({"505/82": "Groesbeek"})
    assert all(len(p) <= 1 for p in paths(state, "505/82"))
    refused(state, "allied: activate 505/82 Groesbeek->Mook->St. Anna", "6")


def test_6_recon_armor_mechanized_motorized_move_two_spaces() -> None:
    for unit in ("2HC", "21G/5G", "2W/G", "1GG/5G", "32G"):
        state = position({unit: "Achel"})
        assert max(len(p) for p in paths(state, unit)) == 2, unit
        refused(state, f"allied: activate {unit} Achel->Budel->Maarheeze->Heeze", "6")


def test_6_a_unit_may_be_activated_without_moving() -> None:
    state = position({"505/82": "Groesbeek"})
    after = accepted(state, "allied: activate 505/82")
    assert after.location["505/82"] == "Groesbeek" and "505/82" in after.spent
    accepted(state, "allied: activate 505/82 Groesbeek")


def test_6_the_start_written_must_be_where_the_unit_is() -> None:
    state = position({"505/82": "Groesbeek"})
    refused(state, "allied: activate 505/82 Mook->Groesbeek", "6")


def test_6_paths_follow_borders_and_enter_a_space_once() -> None:
    state = position({"2HC": "Achel"})
    error = refused(state, "allied: activate 2HC Achel->Heeze", "6")
    assert "not adjacent" in error.message
    refused(state, "allied: activate 2HC Achel->Budel->Achel", "6")


# -- 6.1 Space control and movement --------------------------------------------------------


def test_6_1_entering_enemy_units_stops_the_move() -> None:
    state = position({"2HC": "Achel", "KG-Walther": "Borkel"})
    error = refused(state, "allied: activate 2HC Achel->Borkel->Valkenswaard", "6.1")
    assert "must stop in Borkel" in error.message
    accepted(state, "allied: activate 2HC Achel->Borkel")


def test_6_1_an_empty_enemy_space_becomes_friendly_and_the_unit_goes_on() -> None:
    state = position({"2HC": "Achel"})
    after = accepted(state, "allied: activate 2HC Achel->Budel->Maarheeze")
    assert after.controller("Budel") == after.controller("Maarheeze") == ALLIED


def test_6_1_the_units_move_one_at_a_time_in_either_order() -> None:
    # 32G must leave Zon before 21G/5G can pass by strategic movement (6.4): the log may
    # name them in either order.
    state = position({"21G/5G": "Eindhoven", "32G": "Zon"},
                     allied=["Eindhoven", "Zon", "St. Oedenrode"])
    one = accepted(state, "allied: activate 32G Zon->St. Oedenrode->Doerhoek strategic, "
                   "21G/5G Eindhoven->Zon->St. Oedenrode->Doerhoek strategic")
    two = accepted(state, "allied: activate 21G/5G Eindhoven->Zon->St. Oedenrode->Doerhoek "
                   "strategic, 32G Zon->St. Oedenrode->Doerhoek strategic")
    assert ENGINE.to_json(one) == ENGINE.to_json(two)


# -- 6.2 Multiple units in a space ---------------------------------------------------------


def test_6_2_two_friendly_units_per_space_four_in_a_contested_space() -> None:
    state = position({"505/82": "Mook", "B/504/82": "Groesbeek", "6FR": "Groesbeek",
                      "16/7F": "Groesbeek", "A/508/82": "Hengstal"})
    after = accepted(state, "allied: activate 505/82 Mook->Groesbeek")
    assert sum(1 for p in after.location.values() if p == "Groesbeek") == 4
    state = position({"505/82": "Mook", "B/504/82": "Groesbeek", "B/508/82": "Groesbeek"})
    refused(state, "allied: activate 505/82 Mook->Groesbeek", "6.2")


def test_6_2_moving_through_a_full_space_but_not_strategically() -> None:
    state = position({"21G/5G": "Eindhoven", "502/101": "Zon", "506/101": "Zon"},
                     allied=["Eindhoven"])
    accepted(state, "allied: activate 21G/5G Eindhoven->Zon->St. Oedenrode")
    error = refused(
        state, "allied: activate 21G/5G Eindhoven->Zon->St. Oedenrode->Doerhoek strategic", "6.4"
    )
    assert "two friendly units" in error.message


# -- 6.3 Canals, rivers and bridges -------------------------------------------------------


def test_6_3_canal_one_space_only() -> None:
    state = position({"2HC": "Lieshout"})
    accepted(state, "allied: activate 2HC Lieshout->Beek")
    refused(state, "allied: activate 2HC Lieshout->Beek->Bakel", "6.3")
    refused(state, "allied: activate 2HC Lieshout->Zon->Nuenen", "6.3")  # second space


def test_6_3_canal_one_unit_per_boundary_into_an_enemy_space_but_not_per_space() -> None:
    state = position({"2HC": "Nuenen", "44RT": "Nuenen", "21G/5G": "Eindhoven",
                      "59": "Zon"}, allied=["Eindhoven"])
    refused(state, "allied: activate 2HC Nuenen->Zon, 44RT Nuenen->Zon", "6.3")
    # Different boundaries of Zon: the canal from Nuenen and the bridge from Eindhoven.
    accepted(state, "allied: activate 2HC Nuenen->Zon, 21G/5G Eindhoven->Zon")


def test_6_3_canal_into_an_empty_space_any_number() -> None:
    state = position({"2HC": "Nuenen", "44RT": "Nuenen"})
    accepted(state, "allied: activate 2HC Nuenen->Zon, 44RT Nuenen->Zon")


def test_6_3_rivers_are_not_crossed_without_a_bridge() -> None:
    state = position({"21G/5G": "Mook"})
    refused(state, "allied: activate 21G/5G Mook->Cuyk", "6.3")
    state = position({"9SS": "Cuyk"}, side=GERMAN)
    refused(state, "german: activate 9SS Cuyk->Mook", "6.3")


def test_6_3_road_bridge_no_second_space_into_an_enemy_space() -> None:
    state = position({"2HC": "Zeeland", "6FR": "Wijchen"})
    refused(state, "allied: activate 2HC Zeeland->Grave->Wijchen", "6.3")
    state = position({"2HC": "Zeeland"})
    accepted(state, "allied: activate 2HC Zeeland->Grave->Wijchen")  # empty: no limit


def test_6_3_road_bridge_one_unit_into_an_enemy_space_per_activation() -> None:
    state = position({"2HC": "St. Anna", "21G/5G": "St. Anna", "6FR": "Neerbosch"})
    refused(state, "allied: activate 2HC St. Anna->Neerbosch, 21G/5G St. Anna->Neerbosch", "6.3")
    accepted(state, "allied: activate 2HC St. Anna->Neerbosch, 21G/5G St. Anna->Mook")


def test_6_3_road_bridge_out_of_an_enemy_controlled_contested_space() -> None:
    # Key Changes: German units in Allied-controlled Arnhem can't cross Arnhem bridge when
    # Elden is unoccupied.
    state = position({"9SS": "Arnhem", "1P/1AB": "Arnhem"}, allied=["Arnhem"], side=GERMAN)
    error = refused(state, "german: activate 9SS Arnhem->Elden", "6.3")
    assert "friendly-occupied" in error.message
    state = position({"9SS": "Arnhem", "1P/1AB": "Arnhem", "KG-Henke": "Elden"},
                     allied=["Arnhem"], side=GERMAN)
    accepted(state, "german: activate 9SS Arnhem->Elden")


def test_6_3_oosterbeek_foot_crossing_leg_infantry_once_per_turn() -> None:
    recon = position({"R/1AB": "Oosterbeek"})
    refused(recon, "allied: activate R/1AB Oosterbeek->Driel", "6.3")  # not leg infantry
    state = position({"1A/1AB": "Oosterbeek", "S/1AB": "Oosterbeek"})
    refused(state, "allied: activate 1A/1AB Oosterbeek->Driel, S/1AB Oosterbeek->Driel", "6.3")
    after = accepted(state, "allied: activate 1A/1AB Oosterbeek->Driel")
    assert after.foot_crossing_used
    after.side = ALLIED
    refused(after, "allied: activate S/1AB Oosterbeek->Driel", "6.3")
    after.phase = Phase.WEATHER
    after.turn += 1
    ENGINE.apply(after, WeatherRoll(), dice(1))
    assert not after.foot_crossing_used
    assert "Driel" in destinations(after, "S/1AB")


def test_6_3_oosterbeek_foot_crossing_not_into_enemy_units() -> None:
    state = position({"1A/1AB": "Oosterbeek", "KG-Henke": "Driel"})
    error = refused(state, "allied: activate 1A/1AB Oosterbeek->Driel", "6.3")
    assert "foot crossing" in error.message


def test_6_3_allied_special_crossing_needs_an_unspent_supplied_30C_unit() -> None:
    state = position({"B/504/82": "Weurt", "32G": "Weurt"}, spent=["32G"])
    refused(state, "allied: activate B/504/82 Weurt->Slijk-Ewijk", "6.3")
    state = position({"B/504/82": "Weurt", "32G": "Weurt"}, supply={"32G": "out"})
    refused(state, "allied: activate B/504/82 Weurt->Slijk-Ewijk", "6.3")
    state = position({"B/504/82": "Weurt"})
    refused(state, "allied: activate B/504/82 Weurt->Slijk-Ewijk", "6.3")


def test_6_3_allied_special_crossing_enabled_where_the_move_ends() -> None:
    state = position({"B/504/82": "Weurt", "32G": "Slijk-Ewijk"})
    after = accepted(state, "allied: activate B/504/82 Weurt->Slijk-Ewijk")
    assert "32G" in after.spent


def test_6_3_allied_special_crossing_the_enabler_is_not_the_other_active_unit() -> None:
    state = position({"B/504/82": "Weurt", "32G": "Weurt"})
    refused(state, "allied: activate B/504/82 Weurt->Slijk-Ewijk, 32G Weurt", "6.3")
    # Two candidates, one where the move starts and one where it ends: the log names one,
    # or activates the other alongside.
    state = position({"B/504/82": "Weurt", "32G": "Weurt", "21G/5G": "Slijk-Ewijk"})
    error = refused(state, "allied: activate B/504/82 Weurt->Slijk-Ewijk", "6.3")
    assert "'with 21G/5G' or 'with 32G'" in error.message
    after = accepted(state, "allied: activate B/504/82 Weurt->Slijk-Ewijk with 21G/5G")
    assert "21G/5G" in after.spent and "32G" not in after.spent
    after = accepted(state, "allied: activate B/504/82 Weurt->Slijk-Ewijk, 32G Weurt")
    assert {"21G/5G", "32G", "B/504/82"} <= after.spent
    refused(state, "allied: activate B/504/82 Weurt->Slijk-Ewijk with 2HC", "6.3")


def test_6_3_allied_special_crossing_once_per_turn_leg_infantry_only() -> None:
    state = position({"B/504/82": "Weurt", "32G": "Weurt", "A/504/82": "Ewijk",
                      "21G/5G": "Ewijk"})
    refused(state, "allied: activate 32G Weurt->Slijk-Ewijk", "6.3")  # motorized infantry
    refused(state, "allied: activate A/504/82 Ewijk->Slijk-Ewijk, B/504/82 Weurt->Slijk-Ewijk",
            "6.3")
    after = accepted(state, "allied: activate B/504/82 Weurt->Slijk-Ewijk")
    after.side = ALLIED
    refused(after, "allied: activate A/504/82 Ewijk->Slijk-Ewijk", "6.3")
    refused(state, "allied: activate B/504/82 Weurt->Ewijk with 32G", "6.3")  # no crossing


def test_6_3_no_german_special_crossing() -> None:
    state = position({"KG-Henke": "Weurt", "10SS": "Weurt"}, side=GERMAN)
    refused(state, "german: activate KG-Henke Weurt->Slijk-Ewijk", "6.3")


def test_6_3_pannerden_ferry_strength_type_and_banks() -> None:
    state = position({"KG-Spindler": "Duiven", "10SS": "Duiven"}, side=GERMAN)
    refused(state, "german: activate KG-Spindler Duiven->Pannerden Ferry", "6.3")  # strength 5
    refused(state, "german: activate 10SS Duiven->Pannerden Ferry", "6.3")  # mechanized
    state = position({"KG-Krafft": "Duiven", "1P/1AB": "Duiven"}, side=GERMAN)
    refused(state, "german: activate KG-Krafft Duiven->Pannerden Ferry", "6.3")  # contested
    state = position({"KG-Krafft": "Pannerden Ferry"}, allied=["Doornenburg"], side=GERMAN)
    refused(state, "german: activate KG-Krafft Pannerden Ferry->Doornenburg", "6.3")
    assert destinations(state, "KG-Krafft") == {"Duiven"}
    refused(state, "german: activate KG-Krafft Pannerden Ferry->Duiven->Zevenaar", "6.3")


# -- 6 Two-space moves of armor, mechanized and motorized infantry -------------------------


def test_6_two_space_polder_or_woods_end_needs_a_road() -> None:
    # Borkel is woods, enemy-occupied; Westerhoven-Borkel has no road, Valkenswaard-Borkel has.
    state = position({"21G/5G": "Dommelen", "2HC": "Dommelen", "KG-Walther": "Borkel"})
    refused(state, "allied: activate 21G/5G Dommelen->Westerhoven->Borkel", "6")
    accepted(state, "allied: activate 2HC Dommelen->Westerhoven->Borkel")  # recon: no limit
    accepted(state, "allied: activate 21G/5G Dommelen->Valkenswaard->Borkel")  # by road
    accepted(state, "allied: activate 21G/5G Dommelen->Westerhoven")
    state = position({"21G/5G": "Westerhoven", "KG-Walther": "Borkel"})
    accepted(state, "allied: activate 21G/5G Westerhoven->Borkel")  # one space: no limit


def test_6_two_space_motorized_never_into_an_enemy_space() -> None:
    state = position({"32G": "Achel", "KG-Walther": "Valkenswaard"})
    refused(state, "allied: activate 32G Achel->Borkel->Valkenswaard", "6")
    accepted(state, "allied: activate 32G Achel->Borkel")
    state = position({"32G": "Borkel", "KG-Walther": "Valkenswaard"})
    accepted(state, "allied: activate 32G Borkel->Valkenswaard")  # one space: allowed


# -- 6.4 Strategic movement ---------------------------------------------------------------


def test_6_4_allied_strategic_only_30C_on_club_route() -> None:
    state = position({"2HC": "De Groote", "501/101": "Veghel", "21G/5G": "Heeze"})
    after = accepted(state, "allied: activate 2HC De Groote->Borkel->Valkenswaard->Waalre->"
                     "Eindhoven strategic")
    assert all(after.controller(s) == ALLIED for s in ("Borkel", "Valkenswaard", "Waalre"))
    refused(state, "allied: activate 501/101 Veghel->Uden strategic", "6.4")
    refused(state, "allied: activate 21G/5G Heeze->Geldorp strategic", "6.4")
    refused(state, "allied: activate 2HC De Groote->Borkel->Valkenswaard->Leende strategic",
            "6.4")


def test_6_4_allied_strategic_passes_one_airborne_unit_stops_at_30C() -> None:
    state = position({"2HC": "Waalre", "502/101": "Zon", "32G": "Veghel"},
                     allied=["Waalre", "Eindhoven", "St. Oedenrode", "Doerhoek"])
    accepted(state, "allied: activate 2HC Waalre->Eindhoven->Zon->St. Oedenrode->Doerhoek->"
             "Veghel strategic")
    refused(state, "allied: activate 2HC Waalre->Eindhoven->Zon->St. Oedenrode->Doerhoek->"
            "Veghel->Uden strategic", "6.4")


def test_6_4_strategic_never_into_or_out_of_enemy_units() -> None:
    state = position({"2HC": "Waalre", "KG-Walther": "Eindhoven"})
    refused(state, "allied: activate 2HC Waalre->Eindhoven strategic", "6.4")
    state = position({"2HC": "Waalre", "KG-Walther": "Waalre"})
    refused(state, "allied: activate 2HC Waalre->Valkenswaard strategic", "6.4")


def test_6_4_strategic_starts_in_a_road_space() -> None:
    state = position({"107Pz": "Achel"}, side=GERMAN, turn=5, weather="overcast")
    refused(state, "german: activate 107Pz Achel->Borkel strategic", "6.4")


def test_6_4_german_strategic_needs_overcast_weather() -> None:
    state = position({"107Pz": "Oeffelt"}, side=GERMAN, turn=5, weather="clear")
    refused(state, "german: activate 107Pz Oeffelt->Haps->Mill strategic", "6.4")
    state.weather = "overcast"
    accepted(state, "german: activate 107Pz Oeffelt->Haps->Mill strategic")


def test_6_4_german_strategic_not_into_empty_allied_spaces_nor_past_german_units() -> None:
    state = position({"107Pz": "Oeffelt", "6FR": "Mill"}, allied=["Haps"], side=GERMAN,
                     turn=5, weather="overcast")
    refused(state, "german: activate 107Pz Oeffelt->Haps->Mill strategic", "6.4")
    state = position({"107Pz": "Oeffelt", "6FR": "Haps"}, side=GERMAN, turn=5,
                     weather="overcast")
    refused(state, "german: activate 107Pz Oeffelt->Haps->Mill strategic", "6.4")
    accepted(state, "german: activate 107Pz Oeffelt->Haps strategic")


def test_6_4_german_strategic_from_an_off_map_box_by_road() -> None:
    state = position({"107Pz": "E4"}, side=GERMAN, turn=5, weather="overcast")
    accepted(state, "german: activate 107Pz E4->Wyler->Hengstal->Nijmegen->St. Anna strategic")
    refused(state, "german: activate 107Pz E4->Zijfflich strategic", "6.4")


# -- 6.5 German off-map boxes ----------------------------------------------------------------


def test_6_5_only_german_units_of_the_box_formation() -> None:
    state = position({"9SS": "Groesbeek"}, side=GERMAN)
    error = refused(state, "german: activate 9SS Groesbeek->E4", "6.5")
    assert "1FJ" in error.message


def test_6_5_box_to_box_is_the_whole_move() -> None:
    state = position({"107Pz": "E4"}, side=GERMAN)
    accepted(state, "german: activate 107Pz E4->E3")
    refused(state, "german: activate 107Pz E4->E3->Oeffelt", "6.5")


def test_6_5_closed_boxes_turn_7() -> None:
    state = position({"59": "W1", "KG-Walther": "E1", "406": "E2", "107Pz": "E4"}, turn=6,
                     side=GERMAN)
    state.phase = Phase.WEATHER
    state.turn = 7
    events = ENGINE.apply(state, WeatherRoll(), dice(5))
    assert state.location["59"] == "W2"
    assert state.location["KG-Walther"] == state.location["406"] == "E3"
    assert {"59", "KG-Walther", "406"} <= state.spent  # spent for Game-turn 7
    assert "107Pz" not in state.spent
    assert any("W1 closes" in e.text for e in events)
    assert state.phase is Phase.REINFORCE  # 9: P/1P arrives, with a choice of spaces
    play(state, "allied: reinforce P/1P Heide")
    state.side = GERMAN
    refused(state, "german: activate 107Pz E4->E3->E2", "6.5")
    state = position({"59": "Oirschot"}, turn=7, side=GERMAN)
    refused(state, "german: activate 59 Oirschot->W1", "6.5")


def test_6_5_all_boxes_close_on_turn_13_eliminating_the_units_inside() -> None:
    state = position({"59": "W2", "107Pz": "E4", "9SS": "Arnhem"}, turn=12, side=GERMAN)
    state.phase = Phase.WEATHER
    state.turn = 13
    ENGINE.apply(state, WeatherRoll(), dice(5))
    assert state.location["59"] is None and state.location["107Pz"] is None
    assert state.eliminated == ["59", "107Pz"]
    assert state.location["9SS"] == "Arnhem"
    assert ENGINE.invariants(state) == []


def test_6_5_allied_units_never_enter_boxes() -> None:
    state = position({"505/82": "Groesbeek"})
    refused(state, "allied: activate 505/82 Groesbeek->E4", "6.5")


# -- 8.2 Out of supply effects on movement -------------------------------------------------


def test_8_2_out_of_supply_moves_one_space() -> None:
    state = position({"21G/5G": "Achel"}, supply={"21G/5G": "out"})
    assert max(len(p) for p in paths(state, "21G/5G")) == 1
    refused(state, "allied: activate 21G/5G Achel->Budel->Maarheeze", "8.2")


def test_8_2_out_of_supply_not_into_an_enemy_controlled_enemy_space() -> None:
    state = position({"21G/5G": "Achel", "KG-Walther": "Borkel"}, supply={"21G/5G": "out"})
    refused(state, "allied: activate 21G/5G Achel->Borkel", "8.2")
    state = position({"21G/5G": "Achel", "KG-Walther": "Borkel", "502/101": "Borkel"},
                     allied=["Borkel"], supply={"21G/5G": "out"})
    accepted(state, "allied: activate 21G/5G Achel->Borkel")  # Allied-controlled: allowed


def test_8_2_low_supply_has_no_movement_effect() -> None:
    state = position({"502/101": "Zon"}, supply={"502/101": "low"})
    assert destinations(state, "502/101") == destinations(position({"502/101": "Zon"}), "502/101")


def test_opening_json_has_the_documented_keys() -> None:
    data = ENGINE.to_json(opening())
    for key in ("turn", "half", "weather", "initiative", "impulse", "to_act", "units", "spaces"):
        assert key in data
    unit = next(u for u in data["units"] if u["id"] == "505/82")
    assert unit == {
        "id": "505/82", "side": "allied", "formation": "82", "type": "airborne",
        "strength": 6, "space": "Groesbeek", "spent": False, "supply": "in", "status": "ready",
    }
