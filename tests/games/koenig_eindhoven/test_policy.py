"""The greedy self-play policy: complete games with every invariant checked after every
command, logs that replay to the same outcome, and its choices in an attack."""

from __future__ import annotations

import random
from pathlib import Path

from click.testing import CliRunner

from referee.api import replay_text
from referee.cli import main
from referee.core.selfplay import play_game
from referee.games.koenig_eindhoven.commands import Capture, HitUnit, Retreat, Stay, Support
from referee.games.koenig_eindhoven.engine import ENGINE
from referee.games.koenig_eindhoven.policy import greedy_policy

SETUP = ('[Game "koenig-eindhoven"]\n'
         "setup: clear; turn 4; phase operations; rolled artillery; rolled allied-support\n"
         "setup: allied-support 2; active 506\n")


def test_greedy_plays_complete_games_whose_logs_replay() -> None:
    for seed in ("greedy-1", "greedy-2"):
        record = play_game(ENGINE, seed, greedy_policy, keep_log=True, check=True)
        assert record.broken == []
        assert record.result in ("allied victory", "german victory", "draw")
        assert record.log is not None
        report = replay_text(record.log)
        assert report.problems == []
        state = report.state_json()
        assert state is not None and state["phase"] == "over" and state["turn"] == 10
        assert state["outcome"]["result"] == record.result


def test_simulate_greedy_policy(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["simulate", "koenig-eindhoven", "--games", "2",
                                       "--policy", "greedy", "--json"])
    assert result.exit_code == 0, result.output
    assert '"games": 2' in result.output


def test_greedy_commits_all_support_and_hits_the_enemy_where_it_costs_most() -> None:
    report = replay_text(SETUP + "setup: place 1/506 0114; place 1/935 0213 hits 2; "
                         "place 2/935 0213\nallied: full-fire 0213 with 1/506\n"
                         )
    assert report.problems == [] and report.state is not None
    legal = list(ENGINE.legal(report.state))
    assert greedy_policy(report.state, legal, random.Random(1)) == Support(2)
    report = replay_text(SETUP + "setup: place 1/506 0114; place 1/935 0213 hits 2; "
                         "place 2/935 0213\nallied: full-fire 0213 with 1/506\n"
                         "allied: support 2\nroll {d6: 1}\n")
    assert report.problems == [] and report.state is not None
    legal = list(ENGINE.legal(report.state))
    assert greedy_policy(report.state, legal, random.Random(1)) == HitUnit("1/935")


def test_greedy_stays_after_fire_and_captures_an_objective() -> None:
    report = replay_text(SETUP + "setup: place 1/506 0114; place 1/935 0213\n"
                         "allied: full-fire 0213 with 1/506\n"
                         "allied: support none\nroll {d6: 1}\n")
    assert report.problems == [] and report.state is not None
    legal = list(ENGINE.legal(report.state))
    assert greedy_policy(report.state, legal, random.Random(1)) == Stay()
    # 1/506 enters Son (0113, an objective Town) held by 1/935: an Exchange in the first
    # round; the defender retreats, then the undamaged attacker may hold Son (11.2).
    report = replay_text(SETUP + "setup: place 1/506 0114; place 1/935 0113\n"
                         "allied: move 1/506 0114->0113\n"
                         "allied: support none\nround {d6: 6 5}\ngerman: retreat 1/935->0112\n")
    assert report.problems == [] and report.state is not None
    legal = list(ENGINE.legal(report.state))
    assert Capture() in legal and any(isinstance(c, Retreat) for c in legal)
    assert greedy_policy(report.state, legal, random.Random(1)) == Capture()
