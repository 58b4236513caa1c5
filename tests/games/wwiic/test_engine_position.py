"""Positions: setup lines build a state, and a state writes itself back as setup lines."""

from __future__ import annotations

import random

import pytest

from referee.core.errors import IllegalMove
from referee.core.log import SetupLine
from referee.core.parsing import parse_log
from referee.games.wwiic.board import ALLIED, GERMAN
from referee.games.wwiic.engine import ENGINE
from referee.games.wwiic.state import Phase, WState

from .positions import accepted, opening
from .test_engine_properties import random_position


def build(*lines: str) -> WState:
    log = parse_log('[Game "wwiic"]\n' + "\n".join(lines) + "\n", engine=ENGINE)
    assert not log.problems, log.problems
    state = opening()
    for entry in log.entries:
        assert isinstance(entry, SetupLine)
        for item in entry.items:
            ENGINE.place(state, item.statement)
    return state


def test_3_setup_lines_build_a_position() -> None:
    state = build(
        "setup: clear; turn 5; weather overcast; initiative german; time 3; impulse german",
        "setup: place 505/82 Mook strength 4; place B/504/82 Mook; place KG-Walther Groesbeek",
        "setup: place 6FR Mook; control Mook allied; spent B/504/82; supply 505/82 out",
        "setup: passed allied; used foot-crossing; eliminated 59",
    )
    assert ENGINE.check_position(state) == []
    assert (state.turn, state.weather, state.initiative, state.time) == (5, "overcast", GERMAN, 3)
    assert state.phase is Phase.IMPULSE and ENGINE.to_act(state) == GERMAN
    assert state.location["505/82"] == "Mook" and state.strength["505/82"] == 4
    assert state.strength["B/504/82"] == 3
    assert state.controller("Mook") == ALLIED          # contested, Allied-controlled
    assert state.controller("Groesbeek") == GERMAN     # held only by a German unit
    assert state.spent == {"B/504/82"} and state.supply["505/82"] == "out"
    assert state.last_pass == ALLIED and state.foot_crossing_used
    assert state.eliminated == ["59"] and state.location["59"] is None
    assert sum(1 for p in state.location.values() if p is not None) == 4


def test_3_a_setup_block_starts_after_the_red_devils_move_out() -> None:
    state = build("setup: spent 505/82")
    assert state.phase is Phase.IMPULSE and ENGINE.to_act(state) == ALLIED
    assert state.location["1P/1AB"] == "Heelsum"  # the rest of the opening is unchanged


@pytest.mark.parametrize(
    "line",
    ["setup: turn 14", "setup: time 12", "setup: place 505/82 Mook strength 9",
     "setup: control E4 allied", "setup: spent 325/82"],
)
def test_3_impossible_statements_cite_the_setup_rule(line: str) -> None:
    refused_statement(line)


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("setup: place 9SS Pannerden Ferry strength 5", "German leg or motorized infantry"),
        ("setup: place KG-Walther Pannerden Ferry strength 4", "strength 2 or less (6.3)"),
        ("setup: place 505/82 Pannerden Ferry strength 1", "German leg or motorized infantry"),
        ("setup: place 59 E4", "only German units of the 1FJ formation (6.5)"),
        ("setup: place 505/82 W1", "only German units"),
        ("setup: due P/1P turn 0", "scheduled for Game-turn 7"),
        ("setup: due P/1P turn 15", "scheduled for Game-turn 7"),
        ("setup: due 59 turn 3", "not a reinforcement (9)"),
        ("setup: crossed 505/82 turn 99", "game-turns run 1 to 13"),
        ("setup: crossed 21G/5G turn 2", "only such a unit makes the special river crossing"),
        ("setup: supply 21G/5G low", "Low Supply (8.1, 8.3)"),
        ("setup: place 505/82 Mook strength 99999999999", "far too large"),
        ("setup: turn 99999999999", "far too large"),
    ],
)
def test_3_setup_statements_are_checked_against_the_rules_and_the_scenario(
    line: str, words: str
) -> None:
    """3: a setup statement that describes what cannot be is refused, naming the rule (6.3
    Pannerden Ferry, 6.5 off-map boxes, 9 reinforcements, 6.3 special crossing, 8.1, 2.2)."""
    error = refused_statement(line)
    assert words in str(error), error


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        (("setup: turn 5; due P/1P turn 7", "setup: turn 8"), "due on Game-turn 7"),
        (("setup: turn 5; crossed 505/82 turn 6",), "after the current Game-turn 5 (6.3)"),
        (("setup: impulse german; passed german",), "the players alternate impulses"),
        (("setup: place KG-Walther Pannerden Ferry strength 2",
          "setup: place KG-Walther Pannerden Ferry strength 3"), "strength 2 or less (6.3)"),
    ],
)
def test_3_a_setup_block_is_checked_as_a_whole(lines: tuple[str, ...], words: str) -> None:
    """What only the whole block can tell (a due turn already past, a crossing in the future)
    is named when the block ends (9, 6.3)."""
    try:
        state = build(*lines)
    except IllegalMove as error:
        assert words in str(error), error
        return
    problems = ENGINE.check_position(state)
    assert any(words in p for p in problems), problems


def refused_statement(line: str) -> IllegalMove:
    """``line`` is refused under the setup rule (3), when read or when placed, and changes
    nothing."""
    log = parse_log('[Game "wwiic"]\n' + line + "\n", engine=ENGINE)
    if log.problems:  # refused while the statement was read (its numbers)
        (problem,) = log.problems
        assert problem.rule == "3", problem
        return IllegalMove("3", problem.message)
    (entry,) = log.entries
    assert isinstance(entry, SetupLine)
    state = opening()
    before = ENGINE.to_json(state)
    with pytest.raises(IllegalMove) as caught:
        ENGINE.place(state, entry.items[0].statement)
    assert caught.value.rule == "3"
    assert ENGINE.to_json(state) == before
    return caught.value


def test_3_check_position_names_what_cannot_be() -> None:
    state = build("setup: place 505/82 Mook; place B/504/82 Mook; place A/504/82 Mook",
                  "setup: turn 4; weather overcast")
    problems = ENGINE.check_position(state)
    assert "3 allied units in Mook (6.2 allows two)" in problems
    assert any("initiative is German's" in p for p in problems)


def test_3_a_position_is_written_between_impulses_only() -> None:
    state = build("setup: clear; place 501/101 Doerhoek; place KG-Walther St. Oedenrode")
    after = accepted(state, "allied: activate 501/101 Doerhoek->St. Oedenrode")
    with pytest.raises(IllegalMove):
        ENGINE.position(after)


def round_trip(state: WState) -> None:
    lines = ENGINE.position(state)
    rebuilt = build(*lines)
    assert ENGINE.to_json(rebuilt) == ENGINE.to_json(state), lines
    assert ENGINE.position(rebuilt) == lines


def test_3_position_round_trip_opening() -> None:
    state = opening()
    after = accepted(state, "allied: move-out 1P/1AB Heelsum->Renkum")
    round_trip(after)


@pytest.mark.parametrize("seed", range(40))
def test_3_position_round_trip_random(seed: int) -> None:
    state = random_position(random.Random(seed))
    round_trip(state)


@pytest.mark.parametrize("phase", [Phase.MOVE_OUT, Phase.WEATHER, Phase.IMPULSE])
@pytest.mark.parametrize("seed", range(12))
def test_3_position_round_trip_in_every_phase(seed: int, phase: Phase) -> None:
    """A position can be written at every step between impulses: before the Red Devils move
    out (3.H, Game-turn 1), at a game-turn's weather roll (4) and at an impulse; each replays
    to itself."""
    state = random_position(random.Random(seed))
    state.phase = phase
    if phase is Phase.MOVE_OUT:
        state.turn, state.weather, state.initiative, state.side = 1, "clear", ALLIED, ALLIED
        state.time, state.last_pass = 0, None
    elif phase is Phase.WEATHER:
        state.time, state.last_pass, state.side = 0, None, state.initiative
    assert ENGINE.check_position(state) == [], ENGINE.check_position(state)
    round_trip(state)


def test_3_h_position_before_the_move_out_round_trips() -> None:
    """3.H: the opening's position says ``phase move-out`` and replays to the move-out still
    to come, however many setup lines follow that statement."""
    state = opening()
    lines = ENGINE.position(state)
    assert "phase move-out" in lines[0] and len(lines) > 2
    rebuilt = build(*lines)
    assert rebuilt.phase is Phase.MOVE_OUT and ENGINE.to_act(rebuilt) == ALLIED
    assert ENGINE.to_json(rebuilt) == ENGINE.to_json(state)
    assert build("setup: spent 505/82").phase is Phase.IMPULSE  # a block without it: done
