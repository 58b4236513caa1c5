"""A whole batch: its summary, its exit code, and --fail-fast."""

from __future__ import annotations

from pathlib import Path

from referee.batch import BatchSummary, LogResult, PoolRunner, SerialRunner, run_batch
from tests.batch.helpers import ILLEGAL


def test_the_summary_of_a_mixed_batch(mixed_logs: Path) -> None:
    rows: list[LogResult] = []
    with SerialRunner() as runner:
        summary = run_batch([str(mixed_logs), str(mixed_logs / "gone.log")], runner,
                            on_row=rows.append)
    data = summary.to_json()
    assert [r.status for r in rows] == ["legal", "illegal", "unreadable", "unreadable",
                                        "unreadable", "unreadable"]
    assert (data["logs"], data["legal"], data["illegal"], data["unreadable"], data["error"]) == (
        6, 1, 1, 4, 0)
    assert data["exit_code"] == 2
    assert data["games"] == {"battle-card": 3}  # the binary, Latin-1 and missing files have none
    outcomes = {(o["game"], o["result"], o["winner"]): o["logs"] for o in data["outcomes"]}
    assert sum(outcomes.values()) == 2 and outcomes[("battle-card", "unfinished", "-")] == 1
    assert data["rules"] == [{"game": "battle-card", "rule": "Turn step 1", "problems": 1,
                              "logs": 1}]
    assert data["problems_by_kind"]["encoding"] == 2
    assert data["stopped_at"] is None


def test_exit_codes_follow_the_worst_log() -> None:
    summary = BatchSummary()
    summary.add(LogResult("a", "legal", 0))
    assert summary.exit_code == 0
    summary.add(LogResult("b", "illegal", 1, by_rule={"6.3": 2}))
    assert summary.exit_code == 1
    summary.add(LogResult("c", "error", 2))
    assert summary.exit_code == 2


def test_the_most_broken_rules_come_first_and_are_cut_at_top() -> None:
    summary = BatchSummary()
    for i in range(12):
        summary.add(LogResult(f"{i}", "illegal", 1, by_rule={f"rule {i:02d}": i + 1, "6.3": 1}))
    rules = summary.to_json(top=3)["rules"]
    assert rules == [
        {"game": "-", "rule": "6.3", "problems": 12, "logs": 12},
        {"game": "-", "rule": "rule 11", "problems": 12, "logs": 1},
        {"game": "-", "rule": "rule 10", "problems": 11, "logs": 1},
    ]


def test_broken_rules_are_told_apart_by_game() -> None:
    """Issue 32: the table mixed games (WWII Commander's "4" beside Eindhoven Bridge's
    "4.0"); the same rule number in two games is two rows, grouped by game."""
    summary = BatchSummary()
    summary.add(LogResult("a", "illegal", 1, game="wwiic", by_rule={"4": 3}))
    summary.add(LogResult("b", "illegal", 1, game="koenig-eindhoven", by_rule={"4": 1}))
    summary.add(LogResult("c", "illegal", 1, game="wwiic", by_rule={"4": 1, "6.3": 5}))
    rules = summary.to_json()["rules"]
    assert rules == [
        {"game": "koenig-eindhoven", "rule": "4", "problems": 1, "logs": 1},
        {"game": "wwiic", "rule": "6.3", "problems": 5, "logs": 1},
        {"game": "wwiic", "rule": "4", "problems": 4, "logs": 2},
    ]


def test_fail_fast_stops_at_the_first_bad_log_in_input_order(legal_logs: Path,
                                                             tmp_path: Path) -> None:
    bad = tmp_path / "bad.log"
    bad.write_text(ILLEGAL, encoding="utf-8")
    good = sorted(legal_logs.glob("*.log"))
    arguments = [str(good[0]), str(good[1]), str(bad), *map(str, good[2:])]
    for runner in (SerialRunner(), PoolRunner(2)):
        rows: list[LogResult] = []
        with runner as open_runner:
            summary = run_batch(arguments, open_runner, fail_fast=True, on_row=rows.append)
        assert [r.path for r in rows] == arguments[:3]
        assert summary.stopped_at == str(bad)
        assert summary.exit_code == 1


def test_progress_is_counted_per_chunk(legal_logs: Path) -> None:
    counted: list[int] = []
    with SerialRunner() as runner:
        run_batch([str(legal_logs)], runner, on_chunk=counted.append, largest=4)
    assert counted == [1, 2, 4, 4, 1]
