"""Crash safety: 'play' (and 'undo') interrupted at every step of writing leaves the old log
or the new one, whole: never a mix, never an empty file, never a stray temporary file."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.core.files import TEMP_MARK
from referee.pbem.errors import PbemError
from referee.pbem.play import play, undo
from referee.pbem.table import open_log

from .helpers import run

START = '[Game "battle-card"]\n[Dice "v1"]\n[Seed "crash"]\n'


class Killed(BaseException):
    """Stands for the process dying (a crash, a power cut, Ctrl-C) at that point."""


def _fail(*args: Any, **kwargs: Any) -> Any:
    raise Killed


class _HalfWriter:
    """A file whose ``write`` writes half the text, then dies."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def write(self, text: str) -> int:
        self.handle.write(text[: len(text) // 2])
        self.handle.flush()
        raise Killed

    def __enter__(self) -> _HalfWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()


def _half_fdopen(real: Callable[..., Any]) -> Callable[..., Any]:
    return lambda *args, **kwargs: _HalfWriter(real(*args, **kwargs))


STEPS: dict[str, Callable[[pytest.MonkeyPatch], None]] = {
    "making the temporary file": lambda mp: mp.setattr(tempfile, "mkstemp", _fail),
    "writing it (half written)": lambda mp: mp.setattr(os, "fdopen", _half_fdopen(os.fdopen)),
    "flushing it to disk": lambda mp: mp.setattr(os, "fsync", _fail),
    "renaming it over the log": lambda mp: mp.setattr(os, "replace", _fail),
}


def _game(tmp_path: Path) -> Path:
    log = tmp_path / "game.log"
    log.write_text(START)
    assert run("play", log, "attack Eindhoven").code == 0
    return log


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()
                  if TEMP_MARK in p.name or p.name.endswith((".tmp", ".lock")))


@pytest.mark.parametrize("step", list(STEPS))
def test_play_killed_while_writing_leaves_the_old_log(step: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    log = _game(tmp_path)
    before = log.read_bytes()
    table = open_log(log)
    STEPS[step](monkeypatch)
    with pytest.raises(Killed):
        play(table, "defend Grave", path=log)
    monkeypatch.undo()
    assert log.read_bytes() == before
    assert _leftovers(tmp_path) == []
    # The log is whole: it replays, and the move can be played again.
    assert run("play", log, "defend Grave").code == 0


@pytest.mark.parametrize("step", list(STEPS))
def test_undo_killed_while_writing_leaves_the_old_log(step: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    log, allied = tmp_path / "g.log", tmp_path / "g.allied.secret"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    run("join", log)
    run("play", log, "--secret", allied)
    assert run("play", log, "attack Eindhoven", "--secret", allied).code == 0  # awaits dice
    before = log.read_bytes()
    table = open_log(log, [allied])
    STEPS[step](monkeypatch)
    with pytest.raises(Killed):
        undo(table, path=log)
    monkeypatch.undo()
    assert log.read_bytes() == before
    assert _leftovers(tmp_path) == []


def test_a_failing_disk_is_a_sentence_and_the_old_log(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    log = _game(tmp_path)
    before = log.read_bytes()

    def full(*args: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    ran = run("play", log, "defend Grave")
    assert ran.code == 2
    assert "No space left on device; the log is as it was" in " ".join(ran.err.split())
    assert log.read_bytes() == before and _leftovers(tmp_path) == []


def test_killed_after_the_rename_the_new_log_is_whole(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    log = _game(tmp_path)
    real_replace = os.replace

    def replace_then_die(src: Any, dst: Any) -> None:
        real_replace(src, dst)
        raise Killed

    monkeypatch.setattr(os, "replace", replace_then_die)
    with pytest.raises(Killed):
        play(open_log(log), "defend Grave", path=log)
    monkeypatch.undo()
    text = log.read_text()
    assert text.startswith(START) and "allied: defend Grave {d6: " in text
    assert text.endswith("\n") and run("verify", log).code == 0


def test_a_log_changed_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    log = _game(tmp_path)
    table = open_log(log)
    log.write_text(log.read_text() + "# a note written meanwhile\n")
    with pytest.raises(PbemError, match="changed while the referee worked"):
        play(table, "defend Grave", path=log)
    assert log.read_text().endswith("# a note written meanwhile\n")


def test_dry_run_writes_nothing(tmp_path: Path) -> None:
    log = _game(tmp_path)
    before = log.read_bytes()
    ran = run("play", log, "defend Grave", "--dry-run")
    assert ran.code == 0 and "would write" in ran.out and "dry run" in ran.out
    assert log.read_bytes() == before
