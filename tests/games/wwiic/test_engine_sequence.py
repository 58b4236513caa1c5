"""Setup (3) and the sequence of play (4) of WWII Commander: Market-Garden.

Tests are named after the rule section or the rulebook example they reproduce.
"""

from __future__ import annotations

import pytest

from referee.core.engine import REFEREE
from referee.core.errors import IllegalMove
from referee.games.wwiic.board import ALLIED, GERMAN, SPACE
from referee.games.wwiic.commands import Activate, Attack, MoveOut, NoAttack, Pass, WeatherRoll
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import Phase, WState

from .positions import (
    BOARD,
    accepted,
    command,
    dice,
    no_dice,
    opening,
    play,
    position,
    refused,
)

# -- 3 Setting up for play -------------------------------------------------------------------


def test_3B_starting_units_are_placed_at_full_strength() -> None:
    state = opening()
    placed = [u for u, p in state.location.items() if p is not None]
    sides = [BOARD.side_of[u] for u in placed]
    assert sides.count(ALLIED) == 16
    assert sides.count(GERMAN) == 9
    assert all(state.strength[u] == BOARD.units[u].max_strength for u in placed)
    assert state.location["505/82"] == "Groesbeek"
    assert state.location["406"] == "E4"


def test_3B_opposing_units_may_set_up_in_the_same_space() -> None:
    state = opening()
    shared = [
        s for s in BOARD.spaces
        if {BOARD.side_of[u] for u, p in state.location.items() if p == s} == {ALLIED, GERMAN}
    ]
    assert "Nijmegen" in shared
    assert "Wolfheze" in shared
    assert all(state.controller(s) == GERMAN for s in shared)  # 5: all other spaces German


def test_3D_seven_allied_control_markers_in_spaces_held_only_by_allied_units() -> None:
    state = opening()
    assert len(state.allied_control) == 7
    for space in state.allied_control:
        sides = {BOARD.side_of[u] for u, p in state.location.items() if p == space}
        assert sides == {ALLIED}


def test_3E_weather_clear_time_at_start_turn_1() -> None:
    data = ENGINE.to_json(opening())
    assert (data["turn"], data["half"], data["weather"]) == (1, "PM", "clear")
    assert (data["impulse"], data["time"], data["initiative"]) == (0, "START", "allied")


def test_3G_II_SS_panzer_corps_unprepared() -> None:
    state = opening()
    spent = {state.location[u] for u in state.spent}
    assert spent == {"Apeldoorn", "Oosterhaut", "Wolfheze"}
    assert all(BOARD.side_of[u] == GERMAN for u in state.spent)
    assert len(state.spent) == 3


def test_3H_red_devils_move_out_is_the_first_action() -> None:
    state = opening()
    assert ENGINE.to_act(state) == ALLIED
    assert state.phase is Phase.MOVE_OUT
    legal = ENGINE.legal(state)
    assert legal and all(isinstance(c, MoveOut) for c in legal)
    assert command("move-out 1P/1AB Heelsum->Renkum") in legal
    refused(state, "allied: activate 505/82 Groesbeek->Mook", "3.H")
    refused(state, "allied: pass", "3.H")


def test_3H_the_unit_moves_to_an_adjacent_empty_space_and_is_not_activated() -> None:
    state = opening()
    after = accepted(state, "move-out 1P/1AB Heelsum->Renkum")
    assert after.location["1P/1AB"] == "Renkum"
    assert after.controller("Renkum") == ALLIED          # the Allied control marker
    assert "1P/1AB" not in after.spent                    # no activation cube
    assert after.phase is Phase.IMPULSE and ENGINE.to_act(after) == ALLIED
    assert after.time == 0


def test_3H_only_british_1st_airborne_units_into_empty_spaces() -> None:
    state = opening()
    refused(state, "move-out 505/82 Groesbeek->Mook", "3.H")          # 82nd, not 1st Airborne
    refused(state, "move-out R/1AB Wolfheze->Oosterbeek->Arnhem", "3.H")  # one space only
    # Wolfheze holds German units: not empty.
    refused(state, "move-out 1P/1AB Heelsum->Wolfheze", "3.H")
    # Heelsum holds the other Allied unit: not empty either.
    assert all(c.move.path[0] != "Heelsum" for c in ENGINE.legal(state) if isinstance(c, MoveOut))


def test_3H_move_out_follows_the_movement_rules() -> None:
    state = opening()
    for cmd in ENGINE.legal(state):
        assert isinstance(cmd, MoveOut)
        assert BOARD.kind[cmd.move.path[0]] == SPACE
        assert not any(p == cmd.move.path[0] for p in state.location.values())
    # Heelsum-Driel would cross the Nederrijn without a bridge.
    if "Driel" in BOARD.exits["Heelsum"]:
        refused(state, "move-out 1P/1AB Heelsum->Driel", "6.3")


def test_3H_a_unit_in_contested_wolfheze_may_move_out() -> None:
    """3.H "picks one on-map unit in the British 1st Airborne formation and moves it to an
    adjacent empty space, placing an Allied control marker there": 3.H says itself where the
    unit goes, so 6.1's limits on leaving an enemy-controlled contested space do not apply
    (reading R1); the German unit stays and Wolfheze stays German-controlled."""
    state = opening()
    assert state.controller("Wolfheze") == GERMAN
    assert command("move-out R/1AB Wolfheze->Oosterbeek") in ENGINE.legal(state)
    after = accepted(state, "move-out S/1AB Wolfheze->Schaarsbergen")
    assert after.location["S/1AB"] == "Schaarsbergen"
    assert after.controller("Schaarsbergen") == ALLIED and "S/1AB" not in after.spent
    assert after.location["KG-Krafft"] == "Wolfheze" and after.controller("Wolfheze") == GERMAN
    # In a game, 6.1 holds: from enemy-controlled contested Wolfheze only into an
    # Allied-controlled uncontested space.
    refused(after, "allied: activate R/1AB Wolfheze->Oosterbeek", "6.1")


# -- 4 Start of game-turn activities ---------------------------------------------------------


def test_4_start_of_turn_2_time_reset_then_weather_roll() -> None:
    state = position({"505/82": "Groesbeek", "406": "E4"}, turn=1, time=3)
    play(state, "allied: activate 505/82")
    play(state, "german: pass")
    play(state, "allied: pass")  # German passed last: the Allies may pass; both passed
    assert state.turn == 2 and state.phase is Phase.WEATHER
    assert state.time == 0  # 1. time reset
    assert ENGINE.to_act(state) == REFEREE
    assert ENGINE.forced(state) == WeatherRoll()
    assert ENGINE.legal(state) == [WeatherRoll()]
    assert "505/82" in state.spent  # cubes stay until step 3


@pytest.mark.parametrize(
    ("turn", "roll", "weather"),
    [(2, 1, "clear"), (2, 2, "clear"), (2, 3, "overcast"), (2, 10, "overcast"),
     (3, 6, "clear"), (3, 7, "overcast"), (5, 1, "clear"), (5, 10, "overcast")],
)
def test_4_weather_table_AM_and_PM(turn: int, roll: int, weather: str) -> None:
    state = position({"505/82": "Groesbeek"}, turn=turn)
    state.phase = Phase.WEATHER
    ENGINE.apply(state, WeatherRoll(), dice(roll))
    assert state.weather == weather


@pytest.mark.parametrize(
    ("turn", "roll", "initiative"),
    [(2, 10, ALLIED), (3, 10, ALLIED), (4, 1, ALLIED), (4, 10, GERMAN), (13, 9, GERMAN),
     (13, 1, ALLIED)],
)
def test_4_initiative_allied_on_turns_1_to_3_and_clear_turns(
    turn: int, roll: int, initiative: str
) -> None:
    state = position({"505/82": "Groesbeek", "406": "Wyler"}, turn=turn)
    state.phase = Phase.WEATHER
    ENGINE.apply(state, WeatherRoll(), dice(roll))
    assert state.initiative == initiative
    while state.phase is Phase.REINFORCE:  # 9: an airborne unit chooses its space first
        ENGINE.apply(state, ENGINE.legal(state)[0], no_dice())
    assert ENGINE.to_act(state) == initiative  # the initiative player has the first impulse


def test_4_activation_reset_then_steps_4_to_6_in_order() -> None:
    state = position({"505/82": "Groesbeek", "406": "E4"}, spent=["505/82"], turn=6)
    state.phase = Phase.WEATHER
    events = ENGINE.apply(state, WeatherRoll(), dice(5))
    assert not state.spent
    kinds = [e.kind for e in events if e.kind in ("supply", "reinforcement", "replacement")]
    # 4. supply (Allied, German); the points of step 6 are announced; 5. 16/7F and KG-Knaust
    # enter their boxes; 6. no unit may take a point (505/82 is airborne, 406 at full
    # strength), so they are forfeit.
    assert kinds == ["supply", "supply", "replacement", "reinforcement", "reinforcement",
                     "replacement", "replacement"]
    assert state.location["16/7F"] == "E3" and state.location["KG-Knaust"] == "N3"
    assert state.phase is Phase.IMPULSE


def test_4_no_replacement_step_before_turn_6() -> None:
    state = position({"505/82": "Groesbeek"}, turn=4)
    state.phase = Phase.WEATHER
    events = ENGINE.apply(state, WeatherRoll(), dice(5))
    assert not any(e.kind == "replacement" for e in events)


def test_4_weather_only_at_the_start_of_a_turn() -> None:
    state = position({"505/82": "Groesbeek"})
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, WeatherRoll(), dice(3))
    assert caught.value.rule == "4"


# -- 4 Impulses: activation ------------------------------------------------------------------


def activation_example() -> WState:
    """The Unit Activation Example's map area (4)."""
    return position(
        {
            "502/101": "Best", "506/101": "Best", "59": "Best",
            "1GG/5G": "Nederwetten",
            "2GG/5G": "Zon", "1CG/5G": "Zon",
            "501/101": "Doerhoek",
            "KG-Walther": "St. Oedenrode",
        },
        allied=["Best", "Eindhoven", "Liempde"],
        spent=["1CG/5G"],
    )


def test_4_unit_activation_example_both_units_in_best_attack() -> None:
    state = activation_example()
    after = accepted(state, "allied: activate 502/101 Best, 506/101 Best")
    assert after.phase is Phase.COMBAT
    assert after.combat is not None and after.combat.optional == ("Best",)


def test_4_unit_activation_example_both_units_in_best_move_out() -> None:
    state = activation_example()
    same = accepted(state, "allied: activate 502/101 Best->Liempde, 506/101 Best->Liempde")
    assert same.location["502/101"] == same.location["506/101"] == "Liempde"
    split = accepted(state, "allied: activate 502/101 Best->Liempde, 506/101 Best->Eindhoven")
    assert (split.location["502/101"], split.location["506/101"]) == ("Liempde", "Eindhoven")


def test_4_unit_activation_example_one_moves_out_the_other_attacks() -> None:
    state = activation_example()
    after = accepted(state, "allied: activate 502/101 Best->Liempde, 506/101 Best")
    assert after.combat is not None and after.combat.optional == ("Best",)


def test_4_unit_activation_example_one_moves_out_the_other_not_activated() -> None:
    state = activation_example()
    after = accepted(state, "allied: activate 502/101 Best->Liempde")
    assert "502/101" in after.spent and "506/101" not in after.spent


def test_4_unit_activation_example_nederwetten_unit_moves_and_may_attack() -> None:
    state = activation_example()
    after = accepted(state, "allied: activate 1GG/5G Nederwetten->St. Oedenrode")
    assert after.combat is not None and after.combat.mandatory == ("St. Oedenrode",)


def test_4_unit_activation_example_zon_armor_but_not_the_spent_unit() -> None:
    state = activation_example()
    accepted(state, "allied: activate 2GG/5G Zon->St. Oedenrode")
    refused(state, "allied: activate 2GG/5G Zon, 1CG/5G Zon", "4")
    refused(state, "allied: activate 1CG/5G Zon", "4")


def test_4_unit_activation_example_30C_units_from_two_spaces_to_st_oedenrode() -> None:
    state = activation_example()
    text = "allied: activate 1GG/5G Nederwetten->St. Oedenrode, 2GG/5G Zon->St. Oedenrode"
    after = accepted(state, text)
    assert after.location["1GG/5G"] == after.location["2GG/5G"] == "St. Oedenrode"
    assert after.combat is not None and after.combat.mandatory == ("St. Oedenrode",)


def test_4_unit_activation_example_doerhoek_unit_moves() -> None:
    state = activation_example()
    accepted(state, "allied: activate 501/101 Doerhoek->St. Oedenrode")


def test_4_unit_activation_example_best_and_doerhoek_cannot_go_together() -> None:
    state = activation_example()
    for cmd in ENGINE.legal(state):
        if isinstance(cmd, Activate) and len(cmd.moves) == 2:
            units = set(cmd.units)
            assert not ({"502/101", "506/101"} & units and "501/101" in units)
    refused(state, "allied: activate 501/101 Doerhoek->St. Oedenrode, 502/101 Best->Zon", "4")
    refused(state, "allied: activate 501/101 Doerhoek, 502/101 Best", "4")


def test_4_two_units_in_different_spaces_must_share_a_formation() -> None:
    state = activation_example()
    # 1GG/5G (30 Corps) and 501/101 (101st) could both reach St. Oedenrode, but not together.
    text = "allied: activate 1GG/5G Nederwetten->St. Oedenrode, 501/101 Doerhoek->St. Oedenrode"
    refused(state, text, "4")


def test_4_one_or_two_units_per_impulse() -> None:
    state = activation_example()
    refused(state, "allied: activate 502/101 Best, 506/101 Best, 2GG/5G Zon", "4")
    refused(state, "allied: activate 502/101 Best, 502/101 Best", "4")


def test_4_only_the_side_to_act_activates_its_own_units() -> None:
    state = activation_example()
    refused(state, "allied: activate 59 Best", "4")


def test_4_a_unit_must_be_in_a_space_or_box_to_be_activated() -> None:
    state = activation_example()
    refused(state, "allied: activate 505/82", "4")  # not on the map in this position


def test_4_activated_units_are_spent_at_the_end_of_the_impulse() -> None:
    state = activation_example()
    after = accepted(state, "allied: activate 502/101 Best->Liempde, 506/101 Best->Eindhoven")
    assert {"502/101", "506/101"} <= after.spent
    assert ENGINE.to_act(after) == GERMAN


def test_4_attack_is_mandatory_in_an_enemy_controlled_space() -> None:
    state = activation_example()
    after = accepted(state, "allied: activate 501/101 Doerhoek->St. Oedenrode")
    assert ENGINE.to_act(after) == ALLIED
    assert ENGINE.legal(after) == [Attack("St. Oedenrode")]  # attacking is the only answer
    refused(after, "allied: no attack", "4")
    refused(after, "allied: pass", "4")
    assert "must attack at St. Oedenrode" in ENGINE.decision(after)


def test_4_attack_is_optional_in_a_friendly_controlled_space() -> None:
    state = activation_example()
    after = accepted(state, "allied: activate 502/101 Best")
    assert ENGINE.legal(after) == [Attack("Best"), NoAttack()]
    declined = accepted(after, "allied: no attack")
    assert declined.phase is Phase.IMPULSE and ENGINE.to_act(declined) == GERMAN
    assert "502/101" in declined.spent


def test_4_unspent_units_join_a_friendly_attack() -> None:
    from referee.games.wwiic.sequence import joining_units

    state = activation_example()
    after = accepted(state, "allied: activate 502/101 Best")
    # 506/101 is unspent and supplied in Best: it would join the attack and become spent.
    assert joining_units(BOARD, after, "Best") == ["506/101"]
    after.supply["506/101"] = "out"
    assert joining_units(BOARD, after, "Best") == []


def test_7_attack_only_after_movement() -> None:
    state = activation_example()
    with pytest.raises(IllegalMove) as caught:
        ENGINE.apply(state, command("allied: attack Best"), no_dice())
    assert caught.value.rule == "7"


def test_4_out_of_supply_units_do_not_open_a_combat() -> None:
    state = activation_example()
    state.supply["502/101"] = "out"
    after = accepted(state, "allied: activate 502/101 Best")
    assert after.phase is Phase.IMPULSE  # 8.2: it can't attack, so the impulse ends


# -- 4 Passing ---------------------------------------------------------------------------------


def test_4_passing_german_player_may_pass_any_time() -> None:
    state = position({"505/82": "Groesbeek", "406": "E4"}, side=GERMAN)
    assert Pass() in ENGINE.legal(state)
    accepted(state, "german: pass")


def test_4_passing_allied_must_activate_unless_german_passed_or_all_spent() -> None:
    state = position({"505/82": "Groesbeek", "406": "E4"})
    assert Pass() not in ENGINE.legal(state)
    refused(state, "allied: pass", "4")
    accepted(state, "allied: activate 505/82")  # even if that unit does nothing
    state.last_pass = GERMAN
    assert Pass() in ENGINE.legal(state)
    state.last_pass = None
    state.spent.add("505/82")
    assert list(ENGINE.legal(state)) == [Pass()]
    assert ENGINE.forced(state) == Pass()


def test_4_passing_does_not_prevent_later_activations() -> None:
    state = position({"505/82": "Groesbeek", "406": "E4"}, side=GERMAN)
    play(state, "german: pass")
    play(state, "allied: activate 505/82 Groesbeek->Mook")
    play(state, "german: activate 406 E4->Wyler")
    assert state.location["406"] == "Wyler"


# -- 4 Passage of time and the end of the game-turn -----------------------------------------


def test_4_passage_of_time_example() -> None:
    state = position(
        {"505/82": "Groesbeek", "B/508/82": "Groesbeek", "406": "E4", "6FR": "E4"}, turn=2
    )
    assert state.initiative == ALLIED
    play(state, "allied: activate 505/82")
    assert state.time == 0  # the player with the initiative does not move the marker
    play(state, "german: activate 406")
    assert state.time == 1  # the player without it does, after activating
    play(state, "allied: activate B/508/82")
    assert state.time == 1
    play(state, "german: pass")
    assert state.time == 2  # ... and after passing


def test_4_passage_of_time_example_entering_END_ends_the_turn() -> None:
    state = position(
        {"505/82": "Groesbeek", "B/508/82": "Groesbeek", "406": "E4", "6FR": "E4"},
        turn=2, time=11,
    )
    play(state, "allied: activate 505/82")
    assert state.turn == 2
    events = play(state, "german: activate 406")
    assert state.turn == 3 and state.phase is Phase.WEATHER
    assert any("Time marker entered the END box" in e.text for e in events)


def test_4_passage_of_time_example_both_pass_consecutively() -> None:
    state = position(
        {"505/82": "Groesbeek", "B/508/82": "Groesbeek", "406": "E4", "6FR": "E4"},
        turn=4, weather="overcast", side=GERMAN,
    )
    assert state.initiative == GERMAN
    play(state, "german: pass")
    assert state.time == 0 and state.turn == 4
    events = play(state, "allied: pass")  # allowed: the German passed last
    assert state.turn == 5
    assert any("both players passed in succession" in e.text for e in events)


def test_4_passes_must_be_successive_to_end_the_turn() -> None:
    state = position(
        {"505/82": "Groesbeek", "B/508/82": "Groesbeek", "406": "E4", "6FR": "E4"},
        turn=4, weather="overcast", side=GERMAN,
    )
    play(state, "german: pass")
    play(state, "allied: activate 505/82")
    play(state, "german: pass")
    assert state.turn == 4


def test_4_turn_ends_when_all_units_of_both_players_are_spent() -> None:
    state = position({"505/82": "Groesbeek", "406": "E4"}, turn=2)
    play(state, "allied: activate 505/82")
    events = play(state, "german: activate 406")
    assert state.turn == 3
    assert any("all units of both players are spent" in e.text for e in events)


def test_4_the_game_ends_after_turn_13() -> None:
    state = position({"505/82": "Groesbeek", "406": "Wyler"}, turn=13, weather="clear")
    play(state, "allied: activate 505/82")
    play(state, "german: activate 406")
    assert state.phase is Phase.OVER
    assert ENGINE.to_act(state) is None
    assert ENGINE.legal(state) == []
    assert ENGINE.outcome(state)["over"] is True


def test_4_twelve_impulses_each_counted_before_the_end() -> None:
    state = position({"505/82": "Groesbeek", "406": "E4"}, turn=2)
    seen = {ALLIED: 0, GERMAN: 0}
    while state.turn == 2:
        state.spent.clear()
        side = state.side
        play(state, f"{side}: activate {'505/82' if side == ALLIED else '406'}")
        seen[side] += 1
    assert seen == {ALLIED: 12, GERMAN: 12}
    assert state.phase is Phase.WEATHER and state.time == 0


def test_4_time_track_in_json_and_render() -> None:
    state = position({"505/82": "Groesbeek", "406": "E4"}, time=4)
    data = ENGINE.to_json(state)
    assert data["impulse"] == 4 and data["time"] == "4"
    state.time = 12
    assert ENGINE.to_json(state)["time"] == "END"


# -- the decision in words, the forced steps ----------------------------------------------------


def test_4_decision_names_the_side_and_what_it_may_do() -> None:
    state = position({"505/82": "Groesbeek", "406": "E4"})
    assert ENGINE.decision(state).startswith("Allied impulse 1 of Game-turn 3")
    assert "passing not allowed" in ENGINE.decision(state)
    state.side = GERMAN
    assert ENGINE.decision(state).endswith("or pass")
    assert ENGINE.forced(state) is None


def test_4_wrong_phase_commands_are_refused() -> None:
    state = position({"505/82": "Groesbeek", "406": "E4"})
    refused(state, "allied: no attack", "4")
    refused(state, "move-out 1P/1AB Heelsum->Renkum", "3.H")
