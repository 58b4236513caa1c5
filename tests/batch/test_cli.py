"""``referee batch`` and ``referee simulate --jobs`` from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.batch import read_results
from referee.cli import main
from tests.batch.helpers import ILLEGAL, without_timing


def run(*arguments: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(arguments))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def test_legal_logs_exit_0_with_jsonl_on_stdout_and_the_summary_on_stderr(
        legal_logs: Path) -> None:
    code, out, err = run("batch", str(legal_logs))
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 12 and all(row["ok"] for row in rows)
    assert "12 logs in" in err and "legal" in err and "Outcomes" in err


def test_an_illegal_log_exits_1(legal_logs: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.log"
    bad.write_text(ILLEGAL, encoding="utf-8")
    code, out, err = run("batch", str(legal_logs), str(bad))
    assert code == 1
    assert json.loads(out.splitlines()[-1])["problems_by_rule"] == {"Turn step 1": 1}
    assert "Most broken rules" in err and "Turn step 1" in err


def test_an_unreadable_log_exits_2_and_the_batch_still_finishes(mixed_logs: Path) -> None:
    code, out, _ = run("batch", str(mixed_logs), str(mixed_logs / "nope-*.log"))
    assert code == 2
    statuses = [json.loads(line)["status"] for line in out.splitlines()]
    assert statuses == ["legal", "illegal", "unreadable", "unreadable", "unreadable",
                        "unreadable"]


@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_out_writes_the_rows_and_the_summary_goes_to_stdout(mixed_logs: Path, tmp_path: Path,
                                                            suffix: str) -> None:
    target = tmp_path / f"results.{suffix}"
    code, out, err = run("batch", str(mixed_logs), "--out", str(target))
    assert code == 2
    rows = read_results(target)
    assert [Path(r["path"]).name for r in rows] == sorted(p.name for p in mixed_logs.iterdir())
    assert "5 logs in" in out and "unreadable" in out
    assert err == ""


def test_the_same_rows_from_every_executor_through_the_cli(mixed_logs: Path, legal_logs: Path,
                                                           tmp_path: Path) -> None:
    results = []
    for options in ([], ["--jobs", "2"], ["--executor", "dask", "--jobs", "2"]):
        target = tmp_path / f"r{len(results)}.jsonl"
        code, _, _ = run("batch", str(mixed_logs), str(legal_logs), "--out", str(target),
                         *options)
        assert code == 2
        results.append(without_timing(read_results(target)))
    assert len(results[0]) == 17
    assert results[0] == results[1] == results[2]


def test_fail_fast(mixed_logs: Path) -> None:
    code, out, err = run("batch", str(mixed_logs), "--fail-fast")
    assert code == 1
    assert len(out.splitlines()) == 2
    assert "stopped at" in err and "b-illegal.log" in err


def test_seed_rolls_for_tabletop_logs_without_dice(tmp_path: Path) -> None:
    log = tmp_path / "t.log"
    log.write_text('[Game "battle-card"]\nairdrop\n', encoding="utf-8")
    assert run("batch", str(log))[0] == 1
    assert run("batch", str(log), "--seed", "9")[0] == 0


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["--out", "results.txt"], "cannot tell the format of results.txt"),
        (["--executor", "serial", "--jobs", "2"], "--executor serial runs one job at a time"),
        (["--executor", "local", "--scheduler", "tcp://h:1"], "--scheduler is for the dask"),
        (["--out", "no/such/folder/r.jsonl"], "cannot write no/such/folder/r.jsonl"),
    ],
)
def test_bad_command_lines_get_a_sentence_and_exit_2(legal_logs: Path, arguments: list[str],
                                                     says: str) -> None:
    code, out, err = run("batch", str(legal_logs), *arguments)
    assert code == 2
    assert says in " ".join(err.split())
    assert "Traceback" not in err and out == ""


def test_batch_needs_a_path() -> None:
    code, _, err = run("batch")
    assert code == 2 and "Missing argument" in err


def test_simulate_gives_the_same_summary_on_every_executor() -> None:
    outputs = []
    for options in ([], ["--jobs", "2"], ["--executor", "dask", "--jobs", "2"]):
        code, out, _ = run("simulate", "battle-card", "--games", "60", "--seed", "s",
                           "--json", *options)
        assert code == 0
        outputs.append(json.loads(out))
    assert outputs[0]["games"] == 60
    assert outputs[0] == outputs[1] == outputs[2]


def test_simulate_workers_save_the_logs_and_they_replay_legal(tmp_path: Path) -> None:
    folder = tmp_path / "saved"
    code, _, _ = run("simulate", "battle-card", "--games", "20", "--jobs", "2",
                     "--save-logs", str(folder))
    assert code == 0
    names = sorted(p.name for p in folder.iterdir())
    assert names == [f"battle-card-selfplay-{i:06d}.log" for i in range(20)]
    code, out, _ = run("batch", str(folder))
    assert code == 0 and len(out.splitlines()) == 20
