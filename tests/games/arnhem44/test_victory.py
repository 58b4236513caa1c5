"""Winning the Game and the Veterans Only options: the outcome object with its points per
bridge, destroyed bridges, elimination, resign; the options' flags and refusals."""

from __future__ import annotations

import pytest

from referee.core.envelope import outcome_json
from referee.core.errors import HeaderError, IllegalMove
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.arnhem44 import options as veterans
from referee.games.arnhem44 import victory
from referee.games.arnhem44.checks import bridge_points, game_invariants, tokens_conserved
from referee.games.arnhem44.engine import ENGINE
from referee.pbem.table import LogUnreadable, open_text
from tests.games.arnhem44.helpers import marked_lines, replayed

from ...conftest import LOGS


def test_winning_major_victory_at_twice_the_points() -> None:
    """Winning the Game: "The winner has the right to proclaim a major victory when he has
    gathered twice the points his opponent has" (75 against 25)."""
    outcome = replayed("Winning-major-victory.log").outcome()
    assert outcome is not None
    assert outcome["result"] == "allied major victory" and outcome["winner"] == "allied"
    assert outcome["points"] == {"allied": 75, "german": 25}
    assert outcome["allied_bridges"] == {"Arnhem-bridge": 30, "Nijmegen-bridge": 20,
                                         "Grave-bridge": 15, "Oosterbeek-bridge": 10}
    assert sum(outcome["german_bridges"].values()) == 25
    envelope = outcome_json(outcome)
    assert envelope is not None and envelope["over"] is True
    assert envelope["score"]["points_allied"] == 75
    assert envelope["score"]["allied_bridges_Arnhem-bridge"] == 30


def test_winning_more_points_is_a_victory_and_equal_points_a_draw() -> None:
    won = replayed("Winning-victory.log").outcome()
    assert won is not None and won["result"] == "allied victory"
    assert won["points"] == {"allied": 65, "german": 35}
    draw = replayed("Winning-draw.log").outcome()
    assert draw is not None and draw["result"] == "draw" and draw["winner"] is None
    assert draw["points"] == {"allied": 50, "german": 50}


def test_winning_early_end_on_elimination_and_resign() -> None:
    gone = replayed("Winning-elimination.log")
    outcome = gone.outcome()
    assert outcome is not None and outcome["winner"] == "allied"
    assert "German forces are eliminated" in outcome["reason"]
    resigned = replayed("Winning-resign.log").outcome()
    assert resigned is not None and resigned["result"] == "allied victory"
    assert resigned["reason"] == "German forfeits the game"


def test_an_unfinished_game_shows_the_points_as_they_stand() -> None:
    state = ENGINE.setup(None, {})
    outcome = ENGINE.outcome(state)
    assert outcome["result"] is None
    assert outcome["points"] == {"allied": 0, "german": 100}


def test_destroyed_bridges_score_for_nobody() -> None:
    """A7: a destroyed bridge scores for nobody; the points then add up to 100 less its
    value (the invariant reads destruction through victory.destroyed)."""
    state = replayed("Winning-victory.log").state
    state.destroyed = {"Arnhem-bridge"}  # what the explosives module keeps
    assert victory.points(ENGINE.board, state) == {"allied": 35, "german": 35}
    assert victory.standing(ENGINE.board, state).count("Arnhem-bridge") == 0
    assert victory.bridge_points(ENGINE.board, state)["destroyed_bridges"] == {
        "Arnhem-bridge": 0}
    assert bridge_points(ENGINE.board, state) == []
    state.control.pop("Grave-bridge")
    assert bridge_points(ENGINE.board, state) != []


def test_supply_tokens_invariant_reads_the_tokens_once_they_exist() -> None:
    state = ENGINE.setup(None, {})
    assert tokens_conserved(state) == []  # no supply state yet: holds trivially
    state.supply_tokens = {"pool": 20, "1AB": 9}
    assert tokens_conserved(state) == []
    state.supply_tokens = {"pool": 20, "1AB": 8}
    assert tokens_conserved(state) == ["28 supply tokens, not the box's 29"]
    assert game_invariants(ENGINE.board, state) == ["28 supply tokens, not the box's 29"]


def test_veterans_options_are_read_from_option_tags() -> None:
    state = ENGINE.setup(None, {"no-jokers": "on", "Arnhem-Bridge-Order": "on"})
    assert state.options == {veterans.NO_JOKERS, veterans.ARNHEM_BRIDGE}
    assert not veterans.jokers(state)
    assert veterans.jokers(ENGINE.setup(None, {}))
    assert ENGINE.to_json(state)["options"] == ["arnhem-bridge-order", "no-jokers"]


def test_unknown_options_are_refused_with_a_sentence() -> None:
    with pytest.raises(HeaderError, match="has no option 'fog'"):
        ENGINE.setup(None, {"fog": "on"})
    # all five Veterans Only options are refereed (option 4: damage.py)
    assert ENGINE.setup(None, {"veterans-4": "on"}).options == {veterans.BRIDGE_DAMAGE}


def test_veterans_1_arnhem_bridge_until_the_last_round() -> None:
    board = ENGINE.board
    state = ENGINE.setup(None, {"arnhem-bridge-order": "on"})
    state.round = 17
    with pytest.raises(IllegalMove) as refused:
        veterans.may_destroy(board, state, "Arnhem-bridge", "blow")
    assert refused.value.rule == "Veterans/1"
    with pytest.raises(IllegalMove):
        veterans.may_destroy(board, state, "Arnhem-bridge", "defuse")
    state.round = 18
    veterans.may_destroy(board, state, "Arnhem-bridge", "blow")
    veterans.may_destroy(board, ENGINE.setup(None, {}), "Arnhem-bridge", "blow")


def test_veterans_2_nijmegen_bridge_after_allied_tanks_or_round_10() -> None:
    board = ENGINE.board
    state = ENGINE.setup(None, {"nijmegen-bridge-order": "on"})
    state.round = 5
    with pytest.raises(IllegalMove) as refused:
        veterans.may_destroy(board, state, "Nijmegen-bridge", "blow")
    assert refused.value.rule == "Veterans/2"
    veterans.may_destroy(board, state, "Nijmegen-bridge", "defuse")  # a defusing 0 may
    state.add("Hengstal", ("UK", "tank"))  # next to the south end (Nijmegen)
    veterans.may_destroy(board, state, "Nijmegen-bridge", "blow")
    state.remove("Hengstal", ("UK", "tank"))
    state.round = 11
    veterans.may_destroy(board, state, "Nijmegen-bridge", "blow")


def test_veterans_3_three_players_take_the_allied_decisions() -> None:
    report = replayed("Veterans-three-players.log")
    assert {p.rule for p in report.problems} == {"Veterans/3"}
    state = ENGINE.setup(None, {"three-players": "on"})
    assert ENGINE.to_act(state) == "german"
    state.phase = "setup-allied"
    assert ENGINE.to_act(state) == "uk"


def test_veterans_3_is_refused_in_a_two_secret_game_by_email() -> None:
    text = ('[Game "arnhem44"]\n[Option "three-players"]\n[Dice "v1"]\n'
            f'[AlliedCommit "{"ab" * 32}"]\n')
    with pytest.raises(LogUnreadable, match=r"three-players.*two-secret"):
        open_text(text, "three.log")
    open_text(text.replace('[Option "three-players"]\n', ""), "two.log")


def test_illegal_victory_log_reports_each_marked_line_with_its_rule() -> None:
    path = LOGS / "arnhem44" / "illegal-victory.log"
    marked = marked_lines(path)
    report = replay(parse_log(path.read_text(encoding="utf-8"), path.name, engine=ENGINE), ENGINE)
    assert {(p.line, p.rule) for p in report.problems} == marked
    assert {str(p.kind) for p in report.problems} == {"illegal-move"}
    assert (report.outcome() or {})["result"] == "german victory"
