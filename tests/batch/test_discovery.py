"""Which logs the PATH arguments of ``referee batch`` name, and in what order."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from referee.batch.discovery import discover, walk_logs
from referee.batch.worker import Target


def paths(arguments: list[str]) -> list[str]:
    return [t.path for t in discover(arguments)]


def test_a_folder_gives_its_logs_recursively_sorted_and_nothing_else(legal_logs: Path) -> None:
    found = paths([str(legal_logs)])
    assert len(found) == 12
    assert all(p.endswith(".log") for p in found)
    top = [p for p in found if os.path.dirname(p) == str(legal_logs)]
    sub = [p for p in found if os.path.dirname(p) == str(legal_logs / "sub")]
    assert top == sorted(top) and sub == sorted(sub)
    assert len(sub) == 4
    assert found == [*top, *sub]  # the names of one folder sorted: "game-..." before "sub"


def test_files_come_in_argument_order_even_when_missing(legal_logs: Path) -> None:
    first, second = sorted(legal_logs.glob("*.log"))[:2]
    found = list(discover([str(second), "no/such.log", str(first)]))
    assert found == [Target(str(second)), Target("no/such.log"), Target(str(first))]


def test_a_glob_expands_sorted_and_descends_with_double_star(legal_logs: Path) -> None:
    flat = paths([str(legal_logs / "game-0*.log")])
    assert flat == sorted(flat) and len(flat) == 6  # 01 02 04 05 07 08: 00, 03, 06, 09 are in sub/
    deep = paths([str(legal_logs / "**" / "*.log")])
    assert sorted(deep) == sorted(paths([str(legal_logs)]))


def test_a_glob_gives_every_file_it_matches_once_and_no_folders(legal_logs: Path) -> None:
    everything = paths([str(legal_logs / "**")])
    assert len(everything) == len(set(everything)) == 13  # 12 logs and notes.txt
    assert str(legal_logs / "notes.txt") in everything
    assert not any(os.path.isdir(p) for p in everything)


def test_an_argument_that_finds_nothing_is_one_target_with_a_note(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    pattern = str(tmp_path / "nothing-*.log")
    found = list(discover([pattern, str(empty)]))
    assert [t.path for t in found] == [pattern, str(empty)]
    assert found[0].note == f"no file matches {pattern}"
    assert found[1].note == f"no .log files in the folder {empty}"


def test_a_link_to_a_folder_is_not_followed(tmp_path: Path) -> None:
    folder = tmp_path / "loop"
    folder.mkdir()
    (folder / "one.log").write_text('[Game "battle-card"]\n', encoding="utf-8")
    try:
        (folder / "back").symlink_to(folder, target_is_directory=True)
    except OSError:  # pragma: no cover - a system without symbolic links
        pytest.skip("symbolic links are not available")
    assert list(walk_logs(str(folder))) == [str(folder / "one.log")]


def test_discovery_is_lazy(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "x.log").write_text("", encoding="utf-8")
    found = discover([str(tmp_path / "a"), str(tmp_path / "b")])
    assert next(found).path == str(tmp_path / "a" / "x.log")
    (tmp_path / "b" / "y.log").write_text("", encoding="utf-8")  # listed only when reached
    assert [t.path for t in found] == [str(tmp_path / "b" / "x.log"), str(tmp_path / "b" / "y.log")]


def test_bundled_names_the_logs_shipped_with_the_referee() -> None:
    from referee.core.resources import bundled

    root = str(bundled("logs") / "battle-card")
    found = list(discover(["bundled:battle-card"]))
    assert found and all(t.path.startswith(root) and t.note is None for t in found)
    (outside,) = discover(["bundled:../secrets"])
    assert outside.note is not None and "inside the bundled logs" in outside.note
