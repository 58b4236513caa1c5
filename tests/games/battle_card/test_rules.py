"""Battle Card: Market Garden, rule by rule as the card gives them.

Each test is named after the card's heading (Game Setup, Airborne Landing, Turn step 1 Combat …
End of the Game).  The expected combat results below are typed from the card, not read
from the scenario file, so a wrong TOML value fails here.
"""

from __future__ import annotations

import pytest

from referee.core.errors import DiceMissing, GameOver, IllegalMove
from referee.games.battle_card import ENGINE
from referee.games.battle_card.commands import Fight, Landing, Move, Pass
from referee.games.battle_card.state import ALLIED_CONTROL, GERMAN_CONTROL, Step

from .helpers import after_airdrop, at_combat, at_movement, dice, opening

# -- Game Setup -------------------------------------------------------------------------


def test_game_setup_starting_values() -> None:
    state = opening()
    view = ENGINE.to_json(state)
    assert view["cities"] == {
        "Eindhoven": {"allied": 6, "allied_unit": "101st", "german": 2, "control": "german"},
        "Grave": {"allied": 6, "allied_unit": "82nd", "german": 2, "control": "german"},
        "Nijmegen": {"allied": None, "allied_unit": None, "german": 1, "control": "german"},
        "Arnhem": {"allied": 5, "allied_unit": "1st", "german": 2, "control": "german"},
    }
    assert view["corps"] == "Belgium"
    assert view["turn"] == 1 and view["box"] == "fog"
    assert all(die == GERMAN_CONTROL for die in state.control.values())


def test_game_setup_the_referee_rolls_first() -> None:
    state = opening()
    assert ENGINE.to_act(state) == "referee"
    assert [str(c) for c in ENGINE.legal(state)] == ["airdrop"]


# -- Airborne Landing (setup) -----------------------------------------------------------


@pytest.mark.parametrize(("face", "change"), [(1, -2), (2, -2), (3, -1), (4, -1), (5, 0), (6, 0)])
def test_airborne_landing_modifier_table(face: int, change: int) -> None:
    state = opening()
    ENGINE.apply(state, ENGINE.forced(state), dice(face, face, face))
    assert state.units["101st"].strength == 6 + change
    assert state.units["82nd"].strength == 6 + change
    assert state.units["1st"].strength == 5 + change


def test_airborne_landing_one_roll_per_unit_in_order() -> None:
    state = opening()
    ENGINE.apply(state, ENGINE.forced(state), dice(1, 3, 5))
    assert (
        state.units["101st"].strength,
        state.units["82nd"].strength,
        state.units["1st"].strength,
    ) == (4, 5, 5)


def test_airborne_landing_needs_three_dice() -> None:
    state = opening()
    before = ENGINE.to_json(state)
    with pytest.raises(DiceMissing):
        ENGINE.apply(state, ENGINE.forced(state), dice(4, 4))
    assert ENGINE.to_json(state)["cities"] == before["cities"]


def test_turn_1_begins_with_the_cities_that_hold_both_sides() -> None:
    state = after_airdrop(6, 6, 6)
    assert state.step is Step.COMBAT
    assert state.combats_left == ["Eindhoven", "Grave", "Arnhem"]  # Nijmegen has no Allied unit


# -- Turn step 1: Combat — every cell of both tables ------------------------------------

# (table, row, face) -> (allied change, german change, allied control), typed from the card.
CARD = {
    ("attack", "allied", 1): (-1, 0, False),
    ("attack", "allied", 2): (-1, -1, True),
    ("attack", "allied", 5): (0, -1, True),
    ("attack", "german", 1): (-3, 0, False),
    ("attack", "german", 2): (-2, -1, False),
    ("attack", "german", 5): (-1, 0, True),
    ("attack", "equal", 1): (-2, 0, False),
    ("attack", "equal", 2): (-1, -1, False),
    ("attack", "equal", 5): (-1, -1, True),
    ("defend", "allied", 1): (-1, -1, False),
    ("defend", "allied", 2): (0, 0, False),
    ("defend", "allied", 5): (0, 0, False),
    ("defend", "german", 1): (-2, 0, False),
    ("defend", "german", 2): (-1, 0, False),
    ("defend", "german", 5): (0, 0, False),
    ("defend", "equal", 1): (-1, 0, False),
    ("defend", "equal", 2): (-1, -1, False),
    ("defend", "equal", 5): (0, 0, False),
}
COLUMNS = {1: (1,), 2: (2, 3, 4), 5: (5, 6)}
STRENGTHS = {"allied": (5, 3), "german": (4, 5), "equal": (4, 4)}


@pytest.mark.parametrize(
    ("table", "row", "face"),
    [(t, r, f) for (t, r, c) in CARD for f in COLUMNS[c]],
)
def test_turn_1_combat_results_table_cell(table: str, row: str, face: int) -> None:
    column = next(c for c, faces in COLUMNS.items() if face in faces)
    allied_change, german_change, control = CARD[(table, row, column)]
    allied, german = STRENGTHS[row]
    state = at_combat("Eindhoven", allied, german)
    events = ENGINE.apply(state, Fight("Eindhoven", table == "attack"), dice(face))
    assert events[0].data["row"] == row
    assert state.units["101st"].strength == allied + allied_change
    assert state.german["Eindhoven"] == german + german_change
    assert state.allied_controls("Eindhoven") is control


def test_turn_1_combat_german_value_never_below_1() -> None:
    state = at_combat("Eindhoven", 5, 1)
    ENGINE.apply(state, Fight("Eindhoven", True), dice(5))  # Germany -1
    assert state.german["Eindhoven"] == 1


def test_turn_1_combat_allied_unit_below_1_is_removed() -> None:
    state = at_combat("Eindhoven", 2, 5)
    ENGINE.apply(state, Fight("Eindhoven", True), dice(1))  # Allies -3
    assert "101st" not in state.units
    assert state.unit_in("Eindhoven") is None
    assert state.removed == ["101st"]


def test_turn_1_combat_allied_control_sets_the_die_to_6() -> None:
    state = at_combat("Eindhoven", 5, 3)
    ENGINE.apply(state, Fight("Eindhoven", True), dice(6))
    assert state.control["Eindhoven"] == ALLIED_CONTROL


def test_turn_1_combat_each_city_fights_once() -> None:
    state = after_airdrop()
    ENGINE.apply(state, Fight("Eindhoven", True), dice(3))
    with pytest.raises(IllegalMove, match="already fought") as caught:
        ENGINE.apply(state, Fight("Eindhoven", False), dice(3))
    assert caught.value.rule == "Turn step 1"


def test_turn_1_combat_needs_both_sides_in_the_city() -> None:
    state = after_airdrop()
    with pytest.raises(IllegalMove, match="does not hold both") as caught:
        ENGINE.apply(state, Fight("Nijmegen", True), dice(3))
    assert "attack Eindhoven" in caught.value.alternatives


def test_turn_1_combat_order_is_the_players_choice() -> None:
    state = after_airdrop()
    for city in ("Arnhem", "Eindhoven", "Grave"):
        ENGINE.apply(state, Fight(city, False), dice(6))
    assert state.step is Step.MOVEMENT


# -- Turn step 2: German Reinforcement ----------------------------------------------------


def _finish_combat(state_faces: tuple[int, int, int] = (6, 6, 6)) -> object:
    state = after_airdrop()
    for city, face in zip(("Eindhoven", "Grave", "Arnhem"), state_faces, strict=True):
        ENGINE.apply(state, Fight(city, False), dice(face))
    return state


def test_turn_2_german_reinforcement_adds_one_everywhere() -> None:
    state = _finish_combat()  # defend, rolls 5-6: no effect anywhere
    assert state.german == {"Eindhoven": 3, "Grave": 3, "Nijmegen": 2, "Arnhem": 3}


def test_turn_2_reinforcement_takes_control_when_german_exceeds_allied() -> None:
    state = at_combat("Eindhoven", 3, 3, control="allied")
    state.combats_left = ["Eindhoven"]
    ENGINE.apply(state, Fight("Eindhoven", False), dice(6))  # no effect; then 3 -> 4 > 3
    assert state.german["Eindhoven"] == 4
    assert state.control["Eindhoven"] == GERMAN_CONTROL


def test_turn_2_reinforcement_equal_values_keep_allied_control() -> None:
    state = at_combat("Eindhoven", 4, 3, control="allied")
    state.combats_left = ["Eindhoven"]
    ENGINE.apply(state, Fight("Eindhoven", False), dice(6))
    assert state.german["Eindhoven"] == 4
    assert state.control["Eindhoven"] == ALLIED_CONTROL


def test_turn_2_nijmegen_reinforced_only_while_arnhem_is_german() -> None:
    state = at_combat("Arnhem", 5, 1)
    state.combats_left = ["Arnhem"]
    ENGINE.apply(state, Fight("Arnhem", True), dice(6))  # Allied control of Arnhem
    assert state.german["Nijmegen"] == 1


def test_turn_2_nijmegen_option_reads_it_the_other_way() -> None:
    state = after_airdrop(options=("nijmegen-needs-allied-arnhem",))
    for city in ("Eindhoven", "Grave", "Arnhem"):
        ENGINE.apply(state, Fight(city, False), dice(6))
    assert state.german["Nijmegen"] == 1  # Arnhem is German: no reinforcement


def test_turn_2_arnhem_goes_first_so_its_new_control_counts_for_nijmegen() -> None:
    state = at_combat("Arnhem", 2, 2, control="allied")
    state.combats_left = ["Arnhem"]
    ENGINE.apply(state, Fight("Arnhem", False), dice(6))  # no effect; Arnhem 2 -> 3 > 2
    assert state.control["Arnhem"] == GERMAN_CONTROL
    assert state.german["Nijmegen"] == 2


def test_turn_2_a_die_shows_at_most_6() -> None:
    state = at_combat("Eindhoven", 6, 6)
    state.combats_left = ["Eindhoven"]
    ENGINE.apply(state, Fight("Eindhoven", False), dice(6))
    assert state.german["Eindhoven"] == 6


@pytest.mark.parametrize(("allied", "german", "face"), [(1, 3, 5), (1, 1, 6)])
@pytest.mark.parametrize("option", [False, True])
def test_turn_1_control_result_when_the_allied_unit_is_removed(
    allied: int, german: int, face: int, option: bool
) -> None:
    """Ger 5-6 "Allies -1 and set Allied control" and No 5-6 "Allies -1 and set Allied
    control; Germany -1" with an Allied 1: the unit is removed; by default the control die is
    set to 6 all the same (reading 12), with ``no-control-when-destroyed`` it is not."""
    state = at_combat("Eindhoven", allied, german)
    if option:
        state.options = frozenset({"no-control-when-destroyed"})
    events = ENGINE.apply(state, Fight("Eindhoven", True), dice(face))
    assert "101st" not in state.units
    assert state.control["Eindhoven"] == (GERMAN_CONTROL if option else ALLIED_CONTROL)
    assert ("no Allied control" in events[0].text) is option


@pytest.mark.parametrize("option", [False, True])
def test_turn_2_every_city_is_checked_for_german_control_nijmegen_too(option: bool) -> None:
    """Turn step 2 "If the value of the German unit exceeds that of the Allied unit, set the control
    die to 1": checked in every city (reading 8), Nijmegen too when it does not grow because
    Arnhem is Allied-controlled; ``check-grown-cities-only`` checks only the cities that grew."""
    state = at_combat("Arnhem", 6, 2, control="allied")
    state.combats_left = ["Arnhem"]
    state.units["82nd"].city = "Nijmegen"
    state.units["82nd"].strength = 2
    state.german["Nijmegen"] = 4
    state.control["Nijmegen"] = ALLIED_CONTROL
    if option:
        state.options = frozenset({"check-grown-cities-only"})
    events = ENGINE.apply(state, Fight("Arnhem", False), dice(6))  # no effect at Arnhem
    assert state.control["Arnhem"] == ALLIED_CONTROL and state.german["Nijmegen"] == 4
    assert state.control["Nijmegen"] == (ALLIED_CONTROL if option else GERMAN_CONTROL)
    nijmegen = next(e.text for e in events if "Nijmegen" in e.text)
    assert nijmegen.startswith("no reinforcement for Nijmegen")
    assert ("German control" in nijmegen) is not option
    state.step = Step.MOVEMENT
    state.corps = "Grave"
    state.control["Grave"] = ALLIED_CONTROL
    moves = {str(c) for c in ENGINE.legal(state)}
    assert ("move 30-corps Grave->Nijmegen" in moves) is option


# -- Turn step 3: Allied Movement ---------------------------------------------------------


def test_turn_3_corps_moves_only_into_allied_control_and_removes_the_german_unit() -> None:
    state = at_movement(after_airdrop())
    with pytest.raises(IllegalMove, match="under Allied control") as caught:
        ENGINE.apply(state, Move("30-corps", "Belgium", "Eindhoven"), dice())
    assert caught.value.rule == "Turn step 3"
    state.control["Eindhoven"] = ALLIED_CONTROL
    ENGINE.apply(state, Move("30-corps", "Belgium", "Eindhoven"), dice(3))
    assert state.corps == "Eindhoven"
    assert state.german["Eindhoven"] is None


def test_turn_3_only_adjacent_locations() -> None:
    state = at_movement(after_airdrop())
    state.control["Grave"] = ALLIED_CONTROL
    with pytest.raises(IllegalMove, match="not adjacent"):
        ENGINE.apply(state, Move("30-corps", "Belgium", "Grave"), dice())


def test_turn_3_unit_moves_only_with_30th_corps() -> None:
    state = at_movement(after_airdrop())
    with pytest.raises(IllegalMove, match="only while 30th Corps is with it"):
        ENGINE.apply(state, Move("82nd", "Grave", "Nijmegen"), dice())


def test_turn_3_units_merge_on_one_die() -> None:
    state = at_movement(after_airdrop(3, 3, 6))  # 101st 5, 82nd 5
    state.corps = "Eindhoven"
    events = ENGINE.apply(state, Move("101st", "Eindhoven", "Grave"), dice(6))
    assert "101st" not in state.units
    assert state.units["82nd"].strength == 6  # 5 + 5, a die shows at most 6
    assert any(e.kind == "merge" for e in events)


def test_turn_3_unit_move_into_nijmegen() -> None:
    state = at_movement(after_airdrop())
    state.corps = "Grave"
    ENGINE.apply(state, Move("82nd", "Grave", "Nijmegen"), dice(6))
    assert state.units["82nd"].city == "Nijmegen"


def test_turn_3_stated_origin_must_be_right() -> None:
    state = at_movement(after_airdrop())
    state.control["Eindhoven"] = ALLIED_CONTROL
    with pytest.raises(IllegalMove, match="is in Belgium, not Grave"):
        ENGINE.apply(state, Move("30-corps", "Grave", "Eindhoven"), dice())


def test_turn_3_pass_is_allowed() -> None:
    state = at_movement(after_airdrop())
    ENGINE.apply(state, Pass(), dice())
    assert state.step is Step.LANDING


def test_turn_3_corps_may_not_return_to_belgium() -> None:
    state = at_movement(after_airdrop())
    state.corps = "Eindhoven"
    assert all(getattr(c, "destination", None) != "Belgium" for c in ENGINE.legal(state))


# -- Turn step 4: Airborne Landing; Turn step 5: Next Turn --------------------------------


def test_turn_4_landing_succeeds_on_a_roll_at_most_the_turn() -> None:
    state = at_movement(after_airdrop(6, 6, 6))
    state.turn = 2
    ENGINE.apply(state, Pass(), dice())
    ENGINE.apply(state, Landing(), dice(2))
    assert state.units["1st"].strength == 6
    assert state.box == "clear"
    assert state.turn == 3


def test_turn_4_landing_fails_above_the_turn() -> None:
    state = at_movement(after_airdrop(6, 6, 3))
    ENGINE.apply(state, Pass(), dice())
    ENGINE.apply(state, Landing(), dice(2))
    assert state.units["1st"].strength == 4
    assert state.box == "fog"


def test_turn_4_landing_is_skipped_once_it_succeeded() -> None:
    state = at_movement(after_airdrop())
    state.box = "clear"
    ENGINE.apply(state, Pass(), dice())
    assert state.step is Step.COMBAT and state.turn == 2


def test_turn_4_landing_after_the_1st_airborne_left_says_the_step_is_skipped() -> None:
    """Turn step 4: with the first airborne army gone there is nothing to increase; the step is
    skipped (reading 5), and a landing roll written anyway is refused with that reason."""
    state = at_movement(after_airdrop())
    del state.units["1st"]
    ENGINE.apply(state, Pass(), dice())
    assert state.step is Step.COMBAT and state.turn == 2
    with pytest.raises(IllegalMove, match="skipped because the first airborne army") as caught:
        ENGINE.apply(state, Landing(), dice(2))
    assert caught.value.rule == "Turn step 4"


def test_turn_4_landing_roll_in_a_tabletop_log_after_the_1st_left() -> None:
    from referee.core.parsing import parse_log
    from referee.core.replay import replay

    text = (
        '[Game "battle-card"]\n'
        "setup: step movement; remove 1st\n"
        "pass\n"
        "landing {d6: 2}\n"
    )
    report = replay(parse_log(text, engine=ENGINE), ENGINE)
    (problem,) = report.problems
    assert problem.kind.value == "illegal-move" and problem.line == 4
    assert "step 4 is skipped because the first airborne army (1st" in problem.message
    assert "Turn step 4" in str(problem.to_json())


def test_turn_4_turns_completed_option() -> None:
    state = at_movement(after_airdrop(options=("landing-turns-completed",)))
    ENGINE.apply(state, Pass(), dice())
    ENGINE.apply(state, Landing(), dice(1))  # turn 1: no turn completed yet
    assert state.box == "fog"


def test_turn_4_all_units_option() -> None:
    state = at_movement(after_airdrop(3, 3, 3, options=("landing-all-units",)))
    ENGINE.apply(state, Pass(), dice())
    ENGINE.apply(state, Landing(), dice(1))
    assert [u.strength for u in state.units.values()] == [6, 6, 5]


# -- End of the Game ----------------------------------------------------------------------


def test_end_win_when_30th_corps_reaches_arnhem() -> None:
    state = at_movement(after_airdrop())
    state.corps = "Nijmegen"
    state.control["Arnhem"] = ALLIED_CONTROL
    ENGINE.apply(state, Move("30-corps", "Nijmegen", "Arnhem"), dice())
    assert ENGINE.outcome(state)["result"] == "win"
    assert ENGINE.to_act(state) is None
    with pytest.raises(GameOver):
        ENGINE.apply(state, Pass(), dice())


def test_end_loss_when_all_allied_forces_leave_the_game() -> None:
    state = after_airdrop()
    for unit in ("82nd", "1st"):
        del state.units[unit]
    state.combats_left = ["Eindhoven"]
    state.units["101st"].strength = 1
    ENGINE.apply(state, Fight("Eindhoven", True), dice(1))
    assert ENGINE.outcome(state) == {
        "result": "loss",
        "winner": "german",
        "reason": "all Allied forces have left the game",
        "turn": 1,
    }


def test_end_loss_by_elimination_ends_the_game_at_once() -> None:
    """End of the Game "You lose if all Allied forces leave the game": the moment the last
    airborne unit is removed in combat the game is over (reading 16, as 17 for the win): no
    German reinforcement, no movement, no landing, no next turn."""
    state = after_airdrop()
    for unit in ("82nd", "1st"):
        del state.units[unit]
    state.combats_left = ["Eindhoven"]
    state.units["101st"].strength = 1
    before = dict(state.german)
    events = ENGINE.apply(state, Fight("Eindhoven", True), dice(1))
    assert state.step is Step.OVER and ENGINE.to_act(state) is None
    assert state.german == before and state.turn == 1
    assert [e.kind for e in events] == ["combat", "eliminated", "end"]
    with pytest.raises(GameOver):
        ENGINE.apply(state, Pass(), dice())


def test_end_loss_when_six_turns_are_complete() -> None:
    state = at_movement(after_airdrop())
    state.turn = 6
    state.box = "clear"
    ENGINE.apply(state, Pass(), dice())
    assert ENGINE.outcome(state)["result"] == "loss"
    assert ENGINE.outcome(state)["reason"] == "6 turns are complete"


def test_illegal_command_leaves_the_state_unchanged() -> None:
    state = after_airdrop()
    before = ENGINE.to_json(state)
    with pytest.raises(IllegalMove):
        ENGINE.apply(state, Move("30-corps", "Belgium", "Eindhoven"), dice())
    assert ENGINE.to_json(state) == before
