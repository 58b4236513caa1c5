"""The rulebook's movement examples (6, 6.1, 6.3, 6.4, 6.5), replayed on the scenario map.

Each test names the example it reproduces.  Where the example's units are not in the
counter mix (the reconstructed map has no 1st Parachute Army mechanized infantry), a unit of
a type that moves the same way stands in; docs/wwiic-interpretations.md records it.
"""

from __future__ import annotations

from referee.games.wwiic.board import ALLIED, GERMAN
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import Phase, WState

from .positions import accepted, destinations, paths, play, position, refused

# -- 6 General Movement Example --------------------------------------------------------------


def mook() -> WState:
    return position({
        "505/82": "Mook", "B/504/82": "Mook",
        "21G/5G": "St. Anna", "2HC": "St. Anna",
        "6FR": "Over Asselt", "KG-Henke": "Nijmegen",
    })


def test_6_general_movement_example_to_groesbeek() -> None:
    state = mook()
    one = accepted(state, "allied: activate 505/82 Mook->Groesbeek")
    assert one.controller("Groesbeek") == ALLIED  # an Allied control marker is placed
    both = accepted(state, "allied: activate 505/82 Mook->Groesbeek, B/504/82 Mook->Groesbeek")
    assert both.location["505/82"] == both.location["B/504/82"] == "Groesbeek"


def test_6_general_movement_example_not_to_cuyk_across_the_river() -> None:
    state = mook()
    error = refused(state, "allied: activate 505/82 Mook->Cuyk", "6.3")
    assert "river" in error.message
    assert "Cuyk" not in destinations(state, "505/82")


def test_6_general_movement_example_one_unit_across_the_canal_to_over_asselt() -> None:
    state = mook()
    accepted(state, "allied: activate 505/82 Mook->Over Asselt")
    refused(
        state, "allied: activate 505/82 Mook->Over Asselt, B/504/82 Mook->Over Asselt", "6.3"
    )
    accepted(state, "allied: activate 505/82 Mook->Over Asselt, B/504/82 Mook->Groesbeek")


def test_6_general_movement_example_not_to_st_anna_with_two_allied_units() -> None:
    state = mook()
    refused(state, "allied: activate 505/82 Mook->St. Anna", "6.2")
    assert destinations(state, "505/82") == {"Groesbeek", "Hengstal", "Nijmegen", "Over Asselt"}


# -- 6 Two-space Movement Example --------------------------------------------------------------


def st_anna() -> WState:
    return position({
        "21G/5G": "St. Anna", "2HC": "St. Anna",
        "505/82": "Mook", "B/504/82": "Mook",
        "A/508/82": "Hengstal",
        "6FR": "Over Asselt", "16/7F": "Ewijk", "KG-Henke": "Nijmegen",
    })


def test_6_two_space_movement_example_to_wijchen_through_neerbosch() -> None:
    state = st_anna()
    after = accepted(
        state,
        "allied: activate 21G/5G St. Anna->Neerbosch->Wijchen, 2HC St. Anna->Neerbosch->Wijchen",
    )
    assert after.controller("Neerbosch") == after.controller("Wijchen") == ALLIED
    accepted(state, "allied: activate 2HC St. Anna->Neerbosch->Wijchen")


def test_6_two_space_movement_example_to_over_asselt_through_neerbosch_not_mook() -> None:
    state = st_anna()
    accepted(
        state, "allied: activate 21G/5G St. Anna->Neerbosch->Over Asselt, "
        "2HC St. Anna->Neerbosch->Over Asselt",
    )
    error = refused(state, "allied: activate 21G/5G St. Anna->Mook->Over Asselt", "6.3")
    assert "second space" in error.message


def test_6_two_space_movement_example_ewijk_recon_yes_armor_no() -> None:
    state = st_anna()
    accepted(state, "allied: activate 2HC St. Anna->Neerbosch->Ewijk")
    error = refused(state, "allied: activate 21G/5G St. Anna->Neerbosch->Ewijk", "6")
    assert "polder" in error.message


def test_6_two_space_movement_example_weurt_stops_after_the_canal() -> None:
    state = st_anna()
    accepted(state, "allied: activate 21G/5G St. Anna->Weurt, 2HC St. Anna->Weurt")
    refused(state, "allied: activate 2HC St. Anna->Weurt->Ewijk", "6.3")


def test_6_two_space_movement_example_nijmegen_stops_in_the_enemy_space() -> None:
    state = st_anna()
    accepted(state, "allied: activate 21G/5G St. Anna->Nijmegen, 2HC St. Anna->Nijmegen")
    refused(state, "allied: activate 2HC St. Anna->Nijmegen->Hengstal", "6.1")


def test_6_two_space_movement_example_groesbeek_through_the_units_in_mook() -> None:
    state = st_anna()
    accepted(
        state, "allied: activate 21G/5G St. Anna->Mook->Groesbeek, 2HC St. Anna->Mook->Groesbeek"
    )


def test_6_two_space_movement_example_only_one_unit_to_hengstal() -> None:
    state = st_anna()
    accepted(state, "allied: activate 2HC St. Anna->Mook->Hengstal")
    refused(
        state,
        "allied: activate 21G/5G St. Anna->Mook->Hengstal, 2HC St. Anna->Mook->Hengstal",
        "6.2",
    )


# -- 6.1 Movement from different spaces example --------------------------------------------


def wijchen() -> WState:
    return position({
        "2HC": "Appeltern", "44RT": "Appeltern",
        "21G/5G": "St. Anna", "32G": "St. Anna",
        "1GG/5G": "Zeeland",
        "A/504/82": "Over Asselt",
        "6FR": "Wijchen",
    })


def test_6_1_movement_from_different_spaces_example_appeltern() -> None:
    state = wijchen()
    accepted(state, "allied: activate 2HC Appeltern->Hernen->Wijchen")
    error = refused(state, "allied: activate 44RT Appeltern->Hernen->Wijchen", "6")
    assert "polder" in error.message


def test_6_1_movement_from_different_spaces_example_st_anna() -> None:
    state = wijchen()
    accepted(state, "allied: activate 21G/5G St. Anna->Neerbosch->Wijchen")  # by road
    error = refused(state, "allied: activate 32G St. Anna->Neerbosch->Wijchen", "6")
    assert "motorized" in error.message


def test_6_1_movement_from_different_spaces_example_the_valid_pair() -> None:
    state = wijchen()
    after = accepted(
        state,
        "allied: activate 2HC Appeltern->Hernen->Wijchen, 21G/5G St. Anna->Neerbosch->Wijchen",
    )
    assert after.location["2HC"] == after.location["21G/5G"] == "Wijchen"
    assert after.phase is Phase.COMBAT  # Wijchen is German-controlled: they must attack


def test_6_1_movement_from_different_spaces_example_zeeland_bridge() -> None:
    state = wijchen()
    error = refused(state, "allied: activate 1GG/5G Zeeland->Grave->Wijchen", "6.3")
    assert "bridge" in error.message


def test_6_1_movement_from_different_spaces_example_other_formation() -> None:
    state = wijchen()
    refused(
        state,
        "allied: activate 2HC Appeltern->Hernen->Wijchen, A/504/82 Over Asselt->Wijchen",
        "4",
    )


# -- 6.1 Effects of contested and enemy-controlled spaces example ---------------------------


def contested() -> WState:
    return position(
        {
            "505/82": "Westerhoven",
            "B/504/82": "Reithoven", "59": "Reithoven",
            "A/504/82": "Dommelen", "245": "Dommelen",
            "B/508/82": "Veldhoven", "KG-Huber": "Veldhoven",
            "KG-Walther": "Valkenswaard",
        },
        allied=["Reithoven", "Veldhoven", "Bergeijk"],
    )


def test_6_1_effects_example_friendly_uncontested_westerhoven_goes_anywhere() -> None:
    state = contested()
    assert destinations(state, "505/82") == {
        "Bergeijk", "Borkel", "De Groote", "Dommelen", "Reithoven", "Valkenswaard"
    }


def test_6_1_effects_example_friendly_contested_reithoven() -> None:
    state = contested()
    assert destinations(state, "B/504/82") == {"Bergeijk", "Veldhoven", "Westerhoven"}
    error = refused(state, "allied: activate B/504/82 Reithoven->Eersel", "6.1")
    assert "German-controlled" in error.message
    refused(state, "allied: activate B/504/82 Reithoven->Dommelen", "6.1")


def test_6_1_effects_example_enemy_controlled_contested_dommelen() -> None:
    state = contested()
    assert destinations(state, "A/504/82") == {"Westerhoven"}
    refused(state, "allied: activate A/504/82 Dommelen->Reithoven", "6.1")
    refused(state, "allied: activate A/504/82 Dommelen->Veldhoven", "6.1")
    refused(state, "allied: activate A/504/82 Dommelen->Waalre", "6.1")


# -- 6.3 German movement by ferry example -------------------------------------------------------


def ferry() -> WState:
    return position(
        {"KG-Spindler": "Duiven", "KG-Walther": "Duiven"},
        strength={"KG-Spindler": 2, "KG-Walther": 2},
        side=GERMAN, turn=3,
    )


def test_6_3_german_movement_by_ferry_example() -> None:
    state = ferry()
    assert "Pannerden Ferry" in destinations(state, "KG-Spindler")
    refused(
        state, "german: activate KG-Spindler Duiven->Pannerden Ferry, "
        "KG-Walther Duiven->Pannerden Ferry", "6.3",
    )
    play(state, "german: activate KG-Spindler Duiven->Pannerden Ferry")
    assert state.location["KG-Spindler"] == "Pannerden Ferry"
    assert "KG-Spindler" in state.spent
    state.side = GERMAN
    refused(state, "german: activate KG-Walther Duiven->Pannerden Ferry", "6.3")  # occupied
    # Game-turn 4: the unit in the ferry box crosses to Doornenburg; its move ends there.
    state.turn, state.spent = 4, set()
    assert paths(state, "KG-Spindler") == {(), ("Doornenburg",), ("Duiven",)}
    play(state, "german: activate KG-Spindler Pannerden Ferry->Doornenburg")
    assert state.location["KG-Spindler"] == "Doornenburg"
    state.side = GERMAN
    play(state, "german: activate KG-Walther Duiven->Pannerden Ferry")
    assert state.location["KG-Walther"] == "Pannerden Ferry"


# -- 6.3 Allied infantry special river crossing example ----------------------------------------


def weurt() -> WState:
    return position({"B/504/82": "Weurt", "32G": "Weurt", "9SS-Recon": "Oosterhaut"})


def test_6_3_allied_infantry_special_river_crossing_example_slijk_ewijk() -> None:
    state = weurt()
    after = accepted(state, "allied: activate B/504/82 Weurt->Slijk-Ewijk")
    assert after.controller("Slijk-Ewijk") == ALLIED
    assert {"B/504/82", "32G"} <= after.spent  # both Allied units are spent
    assert after.special_crossing_used
    assert after.special_crossers == {"B/504/82": 3}


def test_6_3_allied_infantry_special_river_crossing_example_oosterhaut() -> None:
    state = weurt()
    after = accepted(state, "allied: activate B/504/82 Weurt->Oosterhaut with 32G")
    assert after.phase is Phase.COMBAT
    assert after.combat is not None and after.combat.mandatory == ("Oosterhaut",)
    assert "32G" in after.spent


# -- 6.4 Strategic movement example (Game-turn 5, overcast) ---------------------------------


def strategic() -> WState:
    return position(
        {
            "21G/5G": "Eindhoven", "32G": "Zon", "44RT": "Waalre", "2W/G": "Heeze",
            "501/101": "Nederwetten",
            "KG-Walther": "Oeffelt", "6FR": "Zeeland", "59": "Best",
        },
        allied=["Eindhoven", "Zon", "St. Oedenrode", "Waalre"],
        turn=5, weather="overcast", side=ALLIED, initiative=ALLIED,
    )


def test_6_4_strategic_movement_example_A() -> None:
    state = strategic()
    text = ("allied: activate 21G/5G Eindhoven->Zon->St. Oedenrode->Doerhoek->Veghel->Uden "
            "strategic, 32G Zon->St. Oedenrode->Doerhoek->Veghel->Uden strategic")
    after = accepted(state, text)
    for space in ("Doerhoek", "Veghel", "Uden"):
        assert after.controller(space) == ALLIED
    assert after.location["21G/5G"] == after.location["32G"] == "Uden"
    refused(state, "allied: activate 32G Zon->St. Oedenrode->Doerhoek->Veghel->Uden->Zeeland "
            "strategic", "6.4")
    # Alone, the armor must stop in Zon, where the 30 Corps motorized infantry stands.
    refused(state, "allied: activate 21G/5G Eindhoven->Zon->St. Oedenrode strategic", "6.4")


def test_6_4_strategic_movement_example_B() -> None:
    state = strategic()
    after = accepted(state, "allied: activate 21G/5G Eindhoven->Zon->St. Oedenrode->Doerhoek->"
                     "Veghel->Uden strategic, 32G Zon->St. Oedenrode->Doerhoek->Veghel->Uden "
                     "strategic")
    assert ENGINE.to_act(after) == GERMAN
    german = accepted(after, "german: activate KG-Walther Oeffelt->Haps->Mill->Zeeland strategic")
    assert german.location["KG-Walther"] == "Zeeland"
    assert destinations(after, "KG-Walther", strategic=True) == {"Haps", "Mill", "Zeeland",
                                                                 "Cuyk"}
    # 6FR and 59 are leg infantry: no strategic movement.
    assert destinations(after, "6FR", strategic=True) == set()
    refused(after, "german: activate 59 Best->Oirschot strategic", "6.4")


def test_6_4_strategic_movement_example_C() -> None:
    state = strategic()
    after = accepted(state, "allied: activate 21G/5G Eindhoven->Zon->St. Oedenrode->Doerhoek->"
                     "Veghel->Uden strategic, 32G Zon->St. Oedenrode->Doerhoek->Veghel->Uden "
                     "strategic")
    after = accepted(after, "german: activate KG-Walther Oeffelt->Haps->Mill->Zeeland strategic")
    far = accepted(after, "allied: activate 44RT Waalre->Eindhoven->Zon->St. Oedenrode->Doerhoek"
                   "->Veghel strategic")
    assert far.location["44RT"] == "Veghel"
    assert "Veghel" in destinations(after, "44RT", strategic=True)
    assert "Uden" not in destinations(after, "44RT", strategic=True)  # two 30 Corps units
    refused(after, "allied: activate 2W/G Heeze->Geldorp->Eindhoven strategic", "6.4")
    refused(after, "allied: activate 501/101 Nederwetten->St. Oedenrode strategic", "6.4")


# -- 6.5 German off-map boxes example -----------------------------------------------------------


def boxes() -> WState:
    return position(
        {
            "406": "E4", "107Pz": "E4",
            "16/7F": "Groesbeek", "505/82": "Groesbeek",
            "KG-Walther": "Hengstal", "A/508/82": "Hengstal",
            "B/504/82": "Mook",
        },
        allied=["Groesbeek", "Hengstal", "Wyler"],
        side=GERMAN,
    )


def test_6_5_german_off_map_boxes_example_leg_infantry_in_E4() -> None:
    state = boxes()
    assert destinations(state, "406") == {"E3", "Groesbeek", "Zijfflich", "Wyler"}
    after = accepted(state, "german: activate 406 E4->Wyler")
    assert after.controller("Wyler") == GERMAN


def test_6_5_german_off_map_boxes_example_mechanized_unit_in_E4() -> None:
    state = boxes()
    reach = destinations(state, "107Pz")
    assert {"E3", "Groesbeek", "Wyler", "Zijfflich", "Hengstal", "Leuth"} <= reach
    accepted(state, "german: activate 107Pz E4->Wyler->Hengstal")
    accepted(state, "german: activate 107Pz E4->Zijfflich->Leuth")
    refused(state, "german: activate 107Pz E4->Groesbeek->Hengstal", "6.1")


def test_6_5_german_off_map_boxes_example_unit_in_groesbeek_to_E4_only() -> None:
    state = boxes()
    assert destinations(state, "16/7F") == {"E4"}
    accepted(state, "german: activate 16/7F Groesbeek->E4")


def test_6_5_german_off_map_boxes_example_hengstal_not_adjacent_to_E4() -> None:
    state = boxes()
    error = refused(state, "german: activate KG-Walther Hengstal->E4", "6.5")
    assert "does not adjoin" in error.message
    assert "E4" not in destinations(state, "KG-Walther")
    # Nor can a unit move next to the box first and then enter it: that is its entire move.
    state = position({"107Pz": "Ubbergen"}, side=GERMAN)
    refused(state, "german: activate 107Pz Ubbergen->Wyler->E4", "6.5")
