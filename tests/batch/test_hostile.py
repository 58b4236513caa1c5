"""Hostile batches (issue 11): a FIFO among the logs, a log over its time or memory budget,
a pool worker killed half-way, a batch stopped half-way and resumed."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.batch import PoolRunner, read_results, run_batch
from referee.batch.discovery import discover
from referee.batch.runner import ChunkRecovery, chunks
from referee.batch.worker import OverTime, Target, budget, replay_target
from referee.cli import main
from tests.batch.helpers import KILLER, replay_or_die, without_timing

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")


def run(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(arguments))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def test_a_fifo_among_the_logs_is_a_row_and_the_batch_goes_on(legal_logs: Path) -> None:
    os.mkfifo(legal_logs / "a-fifo.log")  # nobody ever writes to it: reading it would hang
    code, out, _ = run("batch", str(legal_logs))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and len(rows) == 13
    fifo = next(row for row in rows if row["path"].endswith("a-fifo.log"))
    assert fifo["status"] == "unreadable"
    assert "a pipe (FIFO), not a log" in fifo["first_problem"]
    assert sum(row["ok"] for row in rows) == 12


def test_a_fifo_on_the_pool_is_a_row(legal_logs: Path) -> None:
    os.mkfifo(legal_logs / "a-fifo.log")
    rows = []
    with PoolRunner(2) as runner:
        summary = run_batch([str(legal_logs)], runner, on_row=rows.append)
    assert summary.logs == 13 and summary.statuses["unreadable"] == 1


def test_a_log_over_its_time_budget_is_an_over_budget_row(legal_logs: Path) -> None:
    path = next(legal_logs.glob("*.log"))
    got = replay_target(Target(str(path)), seconds=1e-6).to_json()
    assert (got["status"], got["exit_code"], got["ok"]) == ("over-budget", 2, False)
    assert "more than its budget of 1e-06 s" in got["first_problem"]
    assert replay_target(Target(str(path)), seconds=60).status == "legal"


def test_the_time_budget_interrupts_a_loop_and_is_put_back() -> None:
    with pytest.raises(OverTime), budget(0.05, None):
        while True:
            pass
    with budget(60, None):  # the timer is cancelled when the block ends in time
        pass


def test_the_memory_budget_refuses_an_allocation_past_it() -> None:
    with pytest.raises(MemoryError), budget(None, 32):
        bytearray(256 * 1024 * 1024)  # refused before a page of it is touched
    assert len(bytearray(96 * 1024 * 1024)) > 32 * 1024 * 1024  # the limit is put back


def test_a_killed_worker_costs_only_its_own_row(legal_logs: Path) -> None:
    shutil.copy(next(legal_logs.glob("*.log")), legal_logs / KILLER)
    targets = list(discover([str(legal_logs)]))
    assert len(targets) == 13
    with PoolRunner(2) as runner:
        results = runner.map(replay_or_die, chunks(iter(targets), largest=4), ChunkRecovery())
        rows = [row for chunk in results for row in chunk]
    assert [row.path for row in rows] == [target.path for target in targets]
    killed = [row for row in rows if row.path.endswith(KILLER)]
    assert [row.status for row in killed] == ["over-budget"]
    assert killed[0].first_problem is not None and "killed" in killed[0].first_problem
    assert sum(row.ok for row in rows) == 12


def test_out_is_complete_at_the_end_and_the_partial_file_is_gone(legal_logs: Path,
                                                                 tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    code, _, _ = run("batch", str(legal_logs), "--out", str(out))
    assert code == 0 and len(read_results(out)) == 12
    assert not (tmp_path / "results.jsonl.partial").exists()


@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_a_stopped_batch_resumes_from_its_partial_file(legal_logs: Path, tmp_path: Path,
                                                       suffix: str) -> None:
    whole = tmp_path / f"whole.{suffix}"
    assert run("batch", str(legal_logs), "--out", str(whole))[0] == 0
    out = tmp_path / f"results.{suffix}"
    partial = tmp_path / f"results.{suffix}.partial"
    lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = 5 if suffix == "jsonl" else 6  # the CSV header and 5 rows
    partial.write_text("".join(lines[:kept]) + lines[kept][:20], encoding="utf-8")  # cut
    code, _, err = run("batch", str(legal_logs), "--out", str(out))
    assert code == 2 and "--resume" in err  # a partial file is never silently replaced
    code, stdout, _ = run("batch", str(legal_logs), "--out", str(out), "--resume")
    assert code == 0 and "12 logs" in stdout
    assert without_timing(read_results(out)) == without_timing(read_results(whole))
    assert not partial.exists()


def test_resume_refuses_rows_of_another_batch(legal_logs: Path, tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    row = {"path": "elsewhere.log", "status": "legal", "exit_code": 0}
    (tmp_path / "results.jsonl.partial").write_text(json.dumps(row) + "\n", encoding="utf-8")
    code, _, err = run("batch", str(legal_logs), "--out", str(out), "--resume")
    assert code == 2 and "do not belong to this batch" in err
    assert not out.exists()


def test_the_budget_options_reach_every_log(legal_logs: Path) -> None:
    code, out, err = run("batch", str(legal_logs), "--log-seconds", "0.000001")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and {row["status"] for row in rows} == {"over-budget"}
    assert "over-budget" in err
