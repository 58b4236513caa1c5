"""JSON Lines and CSV results parse back to the rows; a results file is written atomically."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.batch import SerialRunner, open_results, read_results, run_batch
from referee.batch.results import FIELDS, format_of
from referee.batch.worker import LogResult
from tests.batch.helpers import without_timing


def sample_rows() -> list[LogResult]:
    return [
        LogResult("a.log", "legal", 0, game="battle-card", result="win", reason="Arnhem held",
                  turn=6, ms=4.5),
        LogResult("b, \"quoted\".log", "illegal", 1, game="wwiic", problems=3,
                  by_kind={"illegal-move": 2, "assertion": 1}, by_rule={"6.3": 2},
                  first_problem="line 4:1: illegal-move [6.3]: no, \"really\"\nnot", result="win",
                  winner="german", vp={"vp": {"objective": 10, "eliminated": -2, "total": 8}},
                  turn=3, ms=1.25),
        LogResult("c.log", "unreadable", 2, problems=1, by_kind={"encoding": 1},
                  first_problem="encoding: this is a binary file, not a text log"),
    ]


@pytest.mark.parametrize("name", ["results.jsonl", "results.ndjson", "results.csv", "R.CSV"])
def test_rows_parse_back_from_either_format(tmp_path: Path, name: str) -> None:
    target = tmp_path / name
    rows = sample_rows()
    with open_results(target) as sink:
        for row in rows:
            sink.write(row)
    assert read_results(target) == [row.to_json() for row in rows]


def test_csv_has_a_header_and_json_in_nested_cells(tmp_path: Path) -> None:
    target = tmp_path / "results.csv"
    with open_results(target) as sink:
        sink.write(sample_rows()[1])
    header, line = target.read_text(encoding="utf-8").split("\n", 1)
    assert header.split(",") == list(FIELDS)
    assert '"{""illegal-move"":2,""assertion"":1}"' in line


def test_jsonl_is_one_compact_object_per_line(tmp_path: Path) -> None:
    target = tmp_path / "results.jsonl"
    with open_results(target) as sink:
        for row in sample_rows():
            sink.write(row)
    lines = target.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    assert [json.loads(line)["path"] for line in lines] == ["a.log", 'b, "quoted".log', "c.log"]


def test_an_interrupted_batch_leaves_the_old_file_alone(tmp_path: Path) -> None:
    target = tmp_path / "results.jsonl"
    target.write_text("old results\n", encoding="utf-8")
    with pytest.raises(KeyboardInterrupt), open_results(target) as sink:
        sink.write(sample_rows()[0])
        raise KeyboardInterrupt
    assert target.read_text(encoding="utf-8") == "old results\n"
    assert [p.name for p in tmp_path.iterdir()] == ["results.jsonl"]


def test_rows_go_to_stdout_as_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    with open_results(None) as sink:
        sink.write(sample_rows()[0])
    out = capsys.readouterr().out
    assert json.loads(out) == sample_rows()[0].to_json()


def test_an_unknown_suffix_is_refused() -> None:
    with pytest.raises(ValueError, match=r"name it with \.jsonl \(JSON Lines\) or \.csv"):
        format_of(Path("results.txt"))


def test_a_whole_batch_to_csv_parses_back_to_the_jsonl(tmp_path: Path, mixed_logs: Path) -> None:
    outputs = {}
    for name in ("r.jsonl", "r.csv"):
        with open_results(tmp_path / name) as sink, SerialRunner() as runner:
            run_batch([str(mixed_logs)], runner, on_row=sink.write)
        outputs[name] = read_results(tmp_path / name)
    assert len(outputs["r.csv"]) == 5
    assert without_timing(outputs["r.jsonl"]) == without_timing(outputs["r.csv"])
    assert all(isinstance(row["ms"], float) for rows in outputs.values() for row in rows)
