"""The log's lock and the one atomic writer: two plays at once never lose a move, a held lock
is a sentence naming the lock file, a stale one is broken, modes are kept, stray temporary
files are cleaned up."""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.core import files
from referee.core.files import TEMP_MARK, lock_path, locked, write_atomic, write_new_file

from .helpers import run

START = '[Game "battle-card"]\n[Dice "v1"]\n[Seed "lock"]\n'


def _dead_pid() -> int:
    """The number of a process that has ended."""
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "game.log"
    path.write_text(START)
    return path


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_held_lock_is_a_sentence_naming_the_lock(log: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "LOCK_WAIT", 0.0)
    lock = lock_path(log)
    assert lock.name == ".game.log.lock"
    lock.write_text(f"pid={os.getpid()} host={socket.gethostname()} "
                    f"since=2026-11-30T18:00:00Z command=referee-play\n")
    before = log.read_text()
    ran = run("play", log, "attack Eindhoven")
    message = " ".join(ran.err.split())
    assert ran.code == 2
    assert f"another referee play holds {log} (pid {os.getpid()} since 2026-11-30T18:00:00Z)" \
        in message
    assert f"if no other referee play is running, delete {lock}" in message
    assert log.read_text() == before and lock.exists()


def test_a_stale_lock_is_broken(log: Path) -> None:
    """A lock left by a process of this machine that no longer runs (kill -9)."""
    lock = lock_path(log)
    lock.write_text(f"pid={_dead_pid()} host={socket.gethostname()} since=x command=y\n")
    assert run("play", log, "attack Eindhoven").code == 0
    assert "allied: attack Eindhoven" in log.read_text() and not lock.exists()


def test_a_lock_of_another_machine_is_not_broken(log: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "LOCK_WAIT", 0.0)
    lock_path(log).write_text(f"pid={_dead_pid()} host=elsewhere.example since=x command=y\n")
    ran = run("play", log, "attack Eindhoven")
    assert ran.code == 2 and "on elsewhere.example" in ran.err


def test_undo_and_join_take_the_lock(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "LOCK_WAIT", 0.0)
    log = tmp_path / "g.log"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    with locked(log):
        ran = run("join", log)
        assert ran.code == 2 and "holds" in ran.err
    assert run("join", log).code == 0
    allied = tmp_path / "g.allied.secret"
    run("play", log, "--secret", allied)
    run("play", log, "attack Eindhoven", "--secret", allied)
    with locked(log):
        assert run("undo", log, "--secret", allied).code == 2
    assert run("undo", log, "--secret", allied).code == 0


def test_concurrent_plays_lose_no_move(tmp_path: Path) -> None:
    """Real processes, three pairs: every play that says it saved its move has its line."""
    for n in range(3):
        log = tmp_path / f"race-{n}.log"
        log.write_text(START)
        moves = ("attack Eindhoven", "defend Grave")
        procs = [subprocess.Popen([sys.executable, "-m", "referee", "play", str(log), move],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for move in moves]
        codes = [p.wait(timeout=120) for p in procs]
        text = log.read_text()
        for move, code in zip(moves, codes, strict=True):
            if code == 0:
                assert f"allied: {move} {{" in text
        assert run("verify", log).code == 0
        assert not lock_path(log).exists()


def test_a_rewritten_log_keeps_its_mode(log: Path, umask_022: None) -> None:
    os.chmod(log, 0o640)
    assert run("play", log, "attack Eindhoven").code == 0
    assert stat.S_IMODE(log.stat().st_mode) == 0o640


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_new_file_gets_the_umasks_mode(tmp_path: Path, mask: int, mode: int) -> None:
    old = os.umask(mask)
    try:
        write_new_file(tmp_path / "new.log", "x\n")
        write_atomic(tmp_path / "other.svg", "<svg/>")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.log").stat().st_mode) == mode
    assert stat.S_IMODE((tmp_path / "other.svg").stat().st_mode) == mode


def test_a_secret_and_a_new_log_have_their_modes(tmp_path: Path, umask_022: None) -> None:
    log = tmp_path / "g.log"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    assert stat.S_IMODE(log.stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "g.allied.secret").stat().st_mode) == 0o600
    run("join", log)
    assert stat.S_IMODE(log.stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "g.keeper.secret").stat().st_mode) == 0o600


def test_stray_temporary_files_are_cleaned_up(log: Path) -> None:
    folder = log.parent
    here = files._host_mark()
    stray = folder / f".game.log{TEMP_MARK}{here}-{_dead_pid()}-abcd1234"
    stray.write_text("half a log")
    live = folder / f".game.log{TEMP_MARK}{here}-{os.getppid()}-efgh5678"
    live.write_text("another write, still running")
    elsewhere = folder / f".game.log{TEMP_MARK}0a0a0a-{_dead_pid()}-abcd1234"
    elsewhere.write_text("a write from another machine on a shared folder")
    other = folder / f".other.log{TEMP_MARK}{here}-{_dead_pid()}-abcd1234"
    other.write_text("not this log's")
    ancient = folder / f".game.log{TEMP_MARK}0a0a0a-{os.getppid()}-ijkl9012"
    ancient.write_text("a day old")
    os.utime(ancient, (1, 1))
    assert run("play", log, "attack Eindhoven").code == 0
    assert not stray.exists() and not ancient.exists()
    assert live.exists() and other.exists() and elsewhere.exists()
    assert not [p for p in folder.iterdir() if TEMP_MARK in p.name and "efgh" not in p.name
                and p not in (other, elsewhere)]


def test_a_symlinked_log_stays_a_link(log: Path) -> None:
    link = log.with_name("link.log")
    link.symlink_to(log.name)
    assert run("play", link, "attack Eindhoven").code == 0
    assert link.is_symlink() and "attack Eindhoven" in log.read_text()


def test_a_play_waits_for_the_lock_and_reads_what_the_holder_wrote(log: Path) -> None:
    """While one play holds the lock and saves its move, another play started meanwhile waits,
    then reads the new log: both moves are in it (the update is not lost)."""
    from referee.pbem.play import play
    from referee.pbem.table import open_log

    with locked(log, command="referee play"):
        waiting = subprocess.Popen([sys.executable, "-m", "referee", "play", str(log),
                                    "defend Grave"], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        play(open_log(log), "attack Eindhoven", path=log)  # the holder's own save
    out, err = waiting.communicate(timeout=120)
    assert waiting.returncode == 0, out + err
    text = log.read_text()
    assert "allied: attack Eindhoven {" in text and "allied: defend Grave {" in text
    assert run("verify", log).code == 0
