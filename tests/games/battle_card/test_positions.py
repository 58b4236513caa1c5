"""Positions: setup lines build a starting position, are checked like moves, and the position
written at any line of a game replays to exactly the state the game had there."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.api import position_text, replay_text
from referee.core.selfplay import play_game, random_policy
from referee.games.battle_card import ENGINE

from .test_rules import CARD, COLUMNS, STRENGTHS

HEADER = '[Game "battle-card"]\n'


def test_setup_block_builds_the_position() -> None:
    report = replay_text(
        HEADER
        + "setup: turn 4; step movement; box clear; corps Grave\n"
        + "setup: german Grave removed; control Grave allied; place 82nd Grave strength 3\n"
        + "setup: remove 1st; german Arnhem strength 5\n"
    )
    assert report.ok, report.problems
    state = report.state_json()
    assert state is not None
    assert (state["turn"], state["step"], state["box"], state["corps"]) == (
        4,
        "movement",
        "clear",
        "Grave",
    )
    assert state["units"] == {
        "101st": {"city": "Eindhoven", "strength": 6},
        "82nd": {"city": "Grave", "strength": 3},
    }
    assert state["removed"] == ["1st"]
    assert state["cities"]["Arnhem"]["german"] == 5


def test_unchanged_values_keep_the_opening_and_the_landing_is_settled() -> None:
    report = replay_text(HEADER + "setup: turn 2\n")
    state = report.state_json()
    assert state is not None
    assert state["step"] == "combat" and state["turn"] == 2
    assert state["combats_left"] == ["Eindhoven", "Grave", "Arnhem"]
    assert state["cities"]["Eindhoven"]["allied"] == 6


def test_clear_empties_the_card_first() -> None:
    report = replay_text(
        HEADER + "setup: clear; place 101st Nijmegen strength 2; german Nijmegen strength 1\n"
    )
    state = report.state_json()
    assert state is not None
    assert state["units"] == {"101st": {"city": "Nijmegen", "strength": 2}}
    assert [c["german"] for c in state["cities"].values()] == [None, None, 1, None]
    assert state["combats_left"] == ["Nijmegen"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("setup: turn 9", "the turn die shows 1 to 6"),
        ("setup: place 82nd Grave strength 7", "a unit die shows 1 to 6"),
        ("setup: place 82nd Belgium strength 3", "Belgium is not one"),
        ("setup: german Grave strength 0", "a German die shows 1 to 6"),
        ("setup: step lunch", "'lunch' is not a step"),
        ("setup: control Belgium allied", "Belgium has none"),
        ("setup: remove 30-corps", "never leaves the game"),
        ("setup: place 82nd Grave strength 600000", "far too large"),
        ("setup: german Grave strength 60000", "far too large"),
        ("setup: turn 1000001", "far too large"),
    ],
)
def test_bad_setup_statements_are_problems_on_their_line(line: str, message: str) -> None:
    report = replay_text(HEADER + line + "\n")
    assert [(p.line, p.rule) for p in report.problems] == [(2, "Setup")]
    assert message in report.problems[0].message


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("setup: place 82nd Eindhoven strength 3", "two Allied units stand in Eindhoven"),
        ("setup: corps Eindhoven; control Eindhoven allied", "with a German unit"),
        ("setup: corps Grave; german Grave removed", "not Allied-controlled"),
        ("setup: remove 101st; remove 82nd; remove 1st", "no Allied unit is left"),
    ],
)
def test_impossible_positions_are_problems(block: str, message: str) -> None:
    report = replay_text(HEADER + block + "\n")
    assert [str(p.kind) for p in report.problems] == ["position"]
    assert message in report.problems[0].message


def test_setup_after_an_action_is_refused() -> None:
    report = replay_text(HEADER + '[Seed "1"]\n'.replace(HEADER, "") + "pass\nsetup: turn 2\n")
    assert any("before the first action" in p.message for p in report.problems)


# Every cell of both combat results tables, set up and fought in a log (tabletop dice).
@pytest.mark.parametrize(
    ("table", "row", "face"), [(t, r, f) for (t, r, c) in CARD for f in COLUMNS[c]]
)
def test_combat_results_table_cell_as_a_log(table: str, row: str, face: int) -> None:
    column = next(c for c, faces in COLUMNS.items() if face in faces)
    allied_change, german_change, control = CARD[(table, row, column)]
    allied, german = STRENGTHS[row]
    log = (
        HEADER
        + f"setup: place 101st Eindhoven strength {allied}; german Eindhoven strength {german}\n"
        + "setup: fought Grave; fought Arnhem\n"
        + f"{table} Eindhoven {{d6: {face}}}\n"
    )
    report = replay_text(log)
    assert report.ok, report.problems
    combat = next(e.event for e in report.events if e.event.kind == "combat")
    assert combat.data["row"] == row
    assert (combat.data["allied"], combat.data["german"], combat.data["control"]) == (
        allied_change,
        german_change,
        control,
    )


def _round_trip(seed: str) -> int:
    record = play_game(ENGINE, seed, random_policy, keep_log=True)
    assert record.log is not None
    lines = record.log.splitlines()
    checked = 0
    for upto in range(len(lines) + 1):
        original = replay_text(record.log, upto=upto)
        if original.outcome() and original.outcome()["result"]:  # type: ignore[index]
            continue  # a finished game has no position to play on
        resumed = replay_text(position_text(original))
        assert resumed.ok, (upto, resumed.problems)
        assert resumed.state_json() == original.state_json(), upto
        assert resumed.draws == original.draws
        checked += 1
    return checked


def test_position_round_trip_on_a_whole_game() -> None:
    assert _round_trip("positions") > 10


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=2**31))
def test_position_round_trip_property(seed: int) -> None:
    _round_trip(f"p{seed}")


def test_resumed_game_rolls_the_same_dice_as_the_original() -> None:
    record = play_game(ENGINE, "resume", ENGINE.policies["greedy"], keep_log=True)
    assert record.log is not None
    lines = record.log.splitlines()
    # Cut before a player's line: at the end of a seeded log the referee rolls its own steps.
    cut = next(i for i in range(12, len(lines)) if not lines[i].startswith(("landing", "airdrop")))
    head, tail = "\n".join(lines[:cut]) + "\n", "\n".join(lines[cut:]) + "\n"
    resumed = replay_text(position_text(replay_text(head)) + tail)
    assert resumed.ok, resumed.problems
    assert resumed.outcome() == replay_text(record.log).outcome()


def test_position_file_named_in_the_header(tmp_path: Path) -> None:
    from referee.api import replay_file

    (tmp_path / "start.pos").write_text(
        HEADER + '[Draw "4"]\nsetup: turn 2; step movement; corps Belgium\n'
    )
    log = tmp_path / "game.log"
    log.write_text(HEADER + '[Seed "9"]\n[Position "start.pos"]\npass\n')
    report = replay_file(log)
    assert report.ok, report.problems
    state = report.state_json()
    assert state is not None and state["turn"] in (2, 3)
    inline = replay_text(
        HEADER + '[Seed "9"]\n[Draw "4"]\nsetup: turn 2; step movement; corps Belgium\npass\n'
    )
    assert inline.state_json() == state


@pytest.mark.parametrize("name", ["../outside.pos", "/etc/passwd", "sub/../../x.pos", ""])
def test_position_file_must_lie_beside_the_log(tmp_path: Path, name: str) -> None:
    from referee.api import replay_file

    log = tmp_path / "game.log"
    log.write_text(HEADER + f'[Position "{name}"]\n')
    report = replay_file(log)
    assert report.exit_code == 2
    assert any("beside the log" in p.message for p in report.problems)


def test_position_file_problems_name_the_file(tmp_path: Path) -> None:
    from referee.api import replay_file

    (tmp_path / "bad.pos").write_text(HEADER + "setup: turn 9\npass\n")
    log = tmp_path / "game.log"
    log.write_text(HEADER + '[Position "bad.pos"]\n')
    messages = [p.message for p in replay_file(log).problems]
    assert any(m.startswith("bad.pos:3: a position file holds only") for m in messages)
