"""One row per log, whatever is wrong with it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.batch import worker
from referee.batch.worker import Chunk, Target, replay_chunk, replay_target


def row(path: Path) -> dict[str, Any]:
    return replay_target(Target(str(path))).to_json()


def test_a_legal_log(mixed_logs: Path) -> None:
    got = row(mixed_logs / "a-legal.log")
    assert got["ok"] is True
    assert (got["status"], got["exit_code"], got["game"]) == ("legal", 0, "battle-card")
    assert (got["problem_count"], got["problems_by_kind"], got["problems_by_rule"]) == (0, {}, {})
    assert got["problems"] == [] and got["source"] == got["path"] and got["state"] is None
    assert got["first_problem"] is None
    assert got["result"] in ("win", "loss")
    assert got["reason"]
    # Solitaire: the player (Allied) wins or the card (German) does; no VPs.
    assert got["winner"] == {"win": "allied", "loss": "german"}[got["result"]]
    assert (got["vp_objective"], got["vp_eliminated"], got["vp_total"]) == (None, None, None)
    assert isinstance(got["turn"], int) and 1 <= got["turn"] <= 6
    assert got["ms"] > 0


def test_an_illegal_log_counts_its_problems_by_kind_and_rule(mixed_logs: Path) -> None:
    got = row(mixed_logs / "b-illegal.log")
    assert (got["ok"], got["status"], got["exit_code"]) == (False, "illegal", 1)
    assert got["problem_count"] == 1 == len(got["problems"])
    assert got["problems_by_kind"] == {"illegal-move": 1}
    assert got["problems_by_rule"] == {"Turn step 1": 1}
    assert got["first_problem"].startswith(
        "line 5:1: illegal-move [Turn step 1]: no combat at Arnhem")
    assert got["result"] is None and got["turn"] == 1  # the game goes on after the bad line


@pytest.mark.parametrize(
    ("name", "kind", "says"),
    [
        ("c-syntax.log", "syntax", "line 4:1: syntax: "),
        ("d-binary.log", "encoding", "encoding: this is a binary file"),
        ("e-latin1.log", "encoding", "encoding: the log is not UTF-8 text"),
        ("missing.log", "header", "header: cannot read"),
    ],
)
def test_a_log_that_cannot_be_read_is_a_row(mixed_logs: Path, name: str, kind: str,
                                            says: str) -> None:
    got = row(mixed_logs / name)
    assert (got["ok"], got["status"], got["exit_code"]) == (False, "unreadable", 2)
    assert got["problems_by_kind"][kind] == 1
    assert got["first_problem"].startswith(says)
    assert got["path"] == str(mixed_logs / name)


def test_a_folder_given_as_a_log_is_a_row(mixed_logs: Path) -> None:
    got = row(mixed_logs)
    assert got["status"] == "unreadable"
    assert "cannot read" in got["first_problem"]


def test_a_target_with_a_note_is_read_from_nowhere() -> None:
    got = replay_target(Target("games/*.log", "no file matches games/*.log")).to_json()
    assert got["status"] == "unreadable"
    assert got["first_problem"] == "header: no file matches games/*.log"


def test_a_log_the_referee_fails_on_is_an_error_row(monkeypatch: pytest.MonkeyPatch,
                                                     mixed_logs: Path) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise KeyError("a bug")

    monkeypatch.setattr(worker, "replay", broken)
    got = row(mixed_logs / "a-legal.log")
    assert (got["ok"], got["status"], got["exit_code"]) == (False, "error", 2)
    assert got["first_problem"] == "the referee failed on this log (KeyError: 'a bug')"


def test_relative_paths_start_from_the_chunk_root(mixed_logs: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # as a Dask worker on another machine
    rows = replay_chunk(Chunk((Target("a-legal.log"), Target("b-illegal.log")),
                              str(mixed_logs)))
    assert [(r.path, r.status) for r in rows] == [("a-legal.log", "legal"),
                                                  ("b-illegal.log", "illegal")]


def test_the_seed_option_rolls_for_a_log_without_one(tmp_path: Path) -> None:
    log = tmp_path / "tabletop.log"
    log.write_text('[Game "battle-card"]\nairdrop\n', encoding="utf-8")
    without = replay_chunk(Chunk((Target(str(log)),), str(tmp_path)))[0]
    seeded = replay_chunk(Chunk((Target(str(log)),), str(tmp_path), seed="42"))[0]
    assert without.status == "illegal" and without.by_kind == {"dice-missing": 1}
    assert seeded.status == "legal"
