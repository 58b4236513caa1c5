"""Files the referee writes (issue 27, section 3): every ``-o``, ``batch --out`` and its
``.partial``, every secret file is created without following a link on its last component,
never over an input, never into a FIFO or a device; ``render`` and ``map --log`` read a log's
``[Position]`` as ``replay`` does and refuse a log that cannot be read; ``batch`` names a file
whose name is not UTF-8 like any other; ``--resume`` keeps its rows on the disk at every
moment; an empty lock left by a kill does not block ``play``.

The issue's words: "Every file the referee writes — ``-o`` of every command, ``--out``,
``.partial``, secrets — is created with no link followed (O_NOFOLLOW / O_EXCL on the final
component; a link is refused with a sentence), never writes into an input, and refuses a FIFO
or a device."
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.batch import read_results
from referee.batch.results import open_results
from referee.batch.worker import LogResult
from referee.cli import main
from referee.core import files
from referee.core.files import lock_path
from referee.core.resources import bundled

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and links")

WIN = bundled("logs") / "battle-card" / "win.log"
PENDING = bundled("logs") / "battle-card" / "pending.log"
ODD = os.fsdecode(b"x\xff.log")
"""A file name that is not UTF-8 (Python holds its byte 0xff as the surrogate U+DCFF)."""


def run(*arguments: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, [str(a) for a in arguments])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, " ".join(result.stderr.split())


@pytest.fixture
def here(tmp_path: Path) -> Path:
    """A folder with two legal logs, beside a folder ``outside`` a link may point into."""
    (tmp_path / "outside").mkdir()
    folder = tmp_path / "games"
    folder.mkdir()
    for name in ("a.log", "b.log"):
        shutil.copy(WIN, folder / name)
    shutil.copy(PENDING, folder / "pending.log.txt")  # not a *.log of the batches
    return folder


def _outputs(folder: Path) -> list[tuple[str, list[str]]]:
    log = str(folder / "a.log")
    return [
        ("view.html", ["view", log, "-o"]),
        ("board.svg", ["render", log, "-o"]),
        ("map.svg", ["map", "arnhem44", "-o"]),
        ("position.log", ["position", str(folder / "pending.log.txt"), "-o"]),
        ("new.log", ["new", "battle-card", "-o"]),
        ("fmt.log", ["fmt", log, "-o"]),
        ("results.jsonl", ["batch", log, "--out"]),
        ("game.secret", ["new", "battle-card", "--commit", "-o", str(folder / "c.log"),
                         "--secret-out"]),
    ]


@pytest.mark.parametrize("index", range(8), ids=[n for n, _ in _outputs(Path("x"))])
@pytest.mark.parametrize("force", [False, True], ids=["plain", "force"])
def test_an_output_that_is_a_dangling_link_out_of_the_folder_is_refused(
        here: Path, index: int, force: bool) -> None:
    """'``view -o`` through a dangling link creates a file outside': every ``-o`` refuses a
    link on its last component, with or without --force, and creates nothing."""
    name, command = _outputs(here)[index]
    if force and command[0] not in ("view", "render", "map", "batch"):
        pytest.skip("this command has no --force")
    target = here.parent / "outside" / name
    (here / name).symlink_to(target)
    extra = ["--force"] if force else []
    code, _, err = run(*command, here / name, *extra)
    assert code == 2
    assert "is a symbolic link: the referee writes no file through a link" in err
    assert not target.exists() and (here / name).is_symlink()


@pytest.mark.parametrize("index", range(8), ids=[n for n, _ in _outputs(Path("x"))])
def test_an_output_that_is_a_fifo_is_refused(here: Path, index: int) -> None:
    """'... and refuses a FIFO or a device': the FIFO stays a FIFO, nothing hangs."""
    name, command = _outputs(here)[index]
    fifo = here / name
    os.mkfifo(fifo)
    force = ["--force"] if command[0] in ("view", "render", "map", "batch") else []
    code, _, err = run(*command, fifo, *force)
    assert code == 2
    assert "FIFO" in err or "exists already" in err
    assert fifo.is_fifo()


def test_an_output_that_is_a_link_to_an_input_leaves_the_input_alone(here: Path) -> None:
    before = (here / "a.log").read_bytes()
    (here / "page.html").symlink_to(here / "a.log")
    code, _, err = run("view", here / "a.log", "-o", here / "page.html", "--force")
    assert code == 2 and "is the input" in err
    assert (here / "a.log").read_bytes() == before


def test_simulate_save_logs_writes_no_log_through_a_link(tmp_path: Path) -> None:
    """``simulate --save-logs`` writes its logs as every output is written."""
    folder = tmp_path / "saved"
    folder.mkdir()
    target = tmp_path / "elsewhere.log"
    (folder / "battle-card-selfplay-000000.log").symlink_to(target)
    code, _, err = run("simulate", "battle-card", "--games", "1", "--save-logs", folder)
    assert code == 2 and "is a symbolic link" in err
    assert not target.exists()


def test_a_refusal_comes_back_whole_from_a_worker_process() -> None:
    """A pool worker's refusal is pickled back as an OSError is: its sentence survives."""
    refusal = pickle.loads(pickle.dumps(files.OutputRefused("x.log is a symbolic link")))
    assert isinstance(refusal, files.OutputRefused)
    assert refusal.message == "x.log is a symbolic link"


# -- batch --out and its .partial ------------------------------------------------------------

def test_a_partial_linked_to_an_input_log_is_refused_even_with_force(here: Path) -> None:
    """'``batch --out r.jsonl --force`` with ``r.jsonl.partial`` a link to an input log
    rewrites the input log.'"""
    before = (here / "a.log").read_bytes()
    out = here / "r.jsonl"
    (here / "r.jsonl.partial").symlink_to(here / "a.log")
    code, _, err = run("batch", here / "a.log", here / "b.log", "--out", out, "--force")
    assert code == 2 and "r.jsonl.partial is a symbolic link" in err
    assert (here / "a.log").read_bytes() == before and not out.exists()


def test_a_partial_hard_linked_to_an_input_log_is_refused(here: Path) -> None:
    """A hard link is the input itself: 'never writes into an input'."""
    before = (here / "a.log").read_bytes()
    os.link(here / "a.log", here / "r.jsonl.partial")
    code, _, err = run("batch", here / "a.log", "--out", here / "r.jsonl", "--force")
    assert code == 2 and "is the input" in err
    assert (here / "a.log").read_bytes() == before


def test_a_partial_that_is_a_dangling_link_out_of_the_folder_creates_nothing(
        here: Path) -> None:
    """'with ``.partial`` a dangling link out of the folder it creates a file there (no
    --force)'."""
    target = here.parent / "outside" / "rows.jsonl"
    (here / "r.jsonl.partial").symlink_to(target)
    code, _, err = run("batch", here / "a.log", "--out", here / "r.jsonl")
    assert code == 2 and "symbolic link" in err
    assert not target.exists()


@pytest.mark.parametrize("resume", [False, True], ids=["force", "resume"])
def test_a_partial_that_is_a_fifo_is_refused_at_once(here: Path, resume: bool) -> None:
    """'with ``.partial`` a FIFO it hangs': a separate process, so a hang fails the test."""
    os.mkfifo(here / "r.jsonl.partial")
    flag = "--resume" if resume else "--force"
    done = subprocess.run(
        [sys.executable, "-m", "referee", "batch", str(here / "a.log"), "--out",
         str(here / "r.jsonl"), flag], capture_output=True, text=True, timeout=20)
    assert done.returncode == 2 and "FIFO" in done.stderr
    assert (here / "r.jsonl.partial").is_fifo()


def test_resuming_keeps_its_rows_on_the_disk_while_the_first_new_log_replays(
        tmp_path: Path) -> None:
    """'A ``batch --resume`` killed while replaying its first new log empties
    ``FILE.partial`` ... Resuming never truncates what it keeps.'  Inside the block (where a
    kill would strike before any new row), the partial file on the disk holds every kept
    row."""
    out = tmp_path / "r.jsonl"
    partial = tmp_path / "r.jsonl.partial"
    rows = "".join(json.dumps(LogResult(f"g{i}.log", "legal", 0).to_json()) + "\n"
                   for i in range(5))
    partial.write_text(rows + '{"cut sh', encoding="utf-8")
    with open_results(out, resume=True) as sink:
        assert partial.read_text(encoding="utf-8") == rows  # what a kill -9 here would keep
        sink.write(LogResult("g5.log", "legal", 0))
        assert partial.read_text(encoding="utf-8").count("\n") == 6
    assert [row["path"] for row in read_results(out)] == [f"g{i}.log" for i in range(6)]


# -- a file name that is not UTF-8 -----------------------------------------------------------

@pytest.mark.parametrize("suffix", ["jsonl", "csv"])
def test_a_log_whose_name_is_not_utf8_is_a_row_named_escaped(here: Path, suffix: str) -> None:
    """'``batch`` over a folder holding a file whose name is not UTF-8 stops ... and loses
    the rows': such a name is a row like any other, its name escaped in the output."""
    shutil.copy(WIN, os.path.join(here, ODD))
    out = here.parent / f"r.{suffix}"
    code, _, _ = run("batch", here, "--out", out)
    assert code == 0
    rows = read_results(out)
    assert [Path(r["path"]).name for r in rows] == ["a.log", "b.log", "x\\xff.log"]
    assert all(r["status"] == "legal" for r in rows)
    code, stdout, _ = run("batch", here)  # JSON Lines on standard output, too
    assert code == 0 and "x\\\\xff.log" in stdout


def test_resume_goes_on_past_a_log_whose_name_is_not_utf8(here: Path) -> None:
    shutil.copy(WIN, os.path.join(here, ODD))
    whole = here.parent / "whole.jsonl"
    assert run("batch", here, "--out", whole)[0] == 0
    lines = whole.read_text(encoding="utf-8").splitlines(keepends=True)
    out = here.parent / "r.jsonl"
    (here.parent / "r.jsonl.partial").write_text("".join(lines[:2]), encoding="utf-8")
    code, _, err = run("batch", here, "--out", out, "--resume")
    assert code == 0, err
    assert [Path(r["path"]).name for r in read_results(out)] == ["a.log", "b.log",
                                                                "x\\xff.log"]
    code, _, err = run("batch", os.path.join(here, ODD), "--out", here.parent / "one.jsonl")
    assert code == 0, err
    assert [Path(r["path"]).name for r in read_results(here.parent / "one.jsonl")] == [
        "x\\xff.log"]


# -- render and map --log read the position as replay does -----------------------------------

@pytest.fixture
def hostile(here: Path) -> Path:
    """Every hostile kind of [Position] file beside the logs."""
    (here / "zero.pos").symlink_to("/dev/zero")
    (here / "dangling.pos").symlink_to(here.parent / "outside" / "none.pos")
    with (here / "sparse.pos").open("wb") as sparse:
        sparse.truncate(5 * 1024**3)
    (here / "folder.pos").mkdir()
    return here


POSITIONS = [
    ("zero.pos", "lies outside the log's folder"),
    ("dangling.pos", "lies outside the log's folder"),
    ("sparse.pos", "5,368,709,120 bytes"),
    ("folder.pos", "a folder, not a position file"),
    ("/etc/passwd", "must name a file beside the log"),
    ("../outside/x.pos", "must name a file beside the log"),
]


@pytest.mark.parametrize(("name", "says"), POSITIONS)
def test_render_refuses_a_hostile_position_file_as_replay_does(hostile: Path, name: str,
                                                               says: str) -> None:
    """'``render`` of a Battle Card log whose ``[Position]`` names a hostile file ... exits 0
    and draws a board.'"""
    log = hostile / "p.log"
    log.write_text(f'[Game "battle-card"]\n[Position "{name}"]\n', encoding="utf-8")
    assert run("replay", log)[0] == 2
    code, stdout, err = run("render", log)
    assert code == 2 and says in err and "<svg" not in stdout
    code, _, err = run("render", log, "-o", hostile / "p.svg")
    assert code == 2 and says in err and not (hostile / "p.svg").exists()
    code, _, _ = run("view", log, "-o", hostile / "p.html")  # the page shows the problem
    assert code == 2 and says in (hostile / "p.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "says"), POSITIONS[:2])
@pytest.mark.parametrize("game", ["arnhem44", "koenig-eindhoven", "wwiic"])
def test_map_log_refuses_a_hostile_position_file(hostile: Path, name: str, says: str,
                                                 game: str) -> None:
    log = hostile / "p.log"
    log.write_text(f'[Game "{game}"]\n[Position "{name}"]\n', encoding="utf-8")
    code, _, err = run("map", game, "--log", log, "-o", hostile / "m.svg")
    assert code == 2 and says in err and not (hostile / "m.svg").exists()


def test_render_of_a_log_with_a_line_that_does_not_parse_exits_2_like_check(
        here: Path) -> None:
    """'``render`` exits 0 and draws the scenario's opening for a log that cannot be read
    ..., where ``check``, ``status`` and ``view`` exit 2.'"""
    log = here / "bad.log"
    log.write_text('[Game "battle-card"]\nturn 1\nfoo bar baz\n', encoding="utf-8")
    assert run("check", log)[0] == 2 and run("status", log)[0] == 2
    code, stdout, err = run("render", log)
    assert code == 2 and "<svg" not in stdout
    assert "bad.log:3: syntax: 'foo' is not a command" in err


# -- the lock of a log -------------------------------------------------------------------------

START = '[Game "battle-card"]\n[Dice "v1"]\n[Seed "lock"]\n'


def test_an_empty_lock_left_by_a_kill_is_taken_over_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """'An empty lock file (a kill between creating the lock and writing its holder) blocks
    ``play`` for 60 s': a lock with no live holder is taken over at once."""
    monkeypatch.setattr(files, "LOCK_WAIT", 0.0)
    log = tmp_path / "g.log"
    log.write_text(START, encoding="utf-8")
    lock = lock_path(log)
    lock.write_bytes(b"")
    old = time.time() - 2
    os.utime(lock, (old, old))
    code, _, err = run("play", log, "attack Eindhoven")
    assert code == 0, err
    assert "allied: attack Eindhoven" in log.read_text(encoding="utf-8") and not lock.exists()


def test_an_empty_lock_just_made_is_still_waited_for(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The race the issue warns of: a holder that has just made the lock (an older referee,
    or a file system without hard links) is not robbed of it."""
    monkeypatch.setattr(files, "LOCK_WAIT", 0.0)
    log = tmp_path / "g.log"
    log.write_text(START, encoding="utf-8")
    lock_path(log).write_bytes(b"")
    code, _, err = run("play", log, "attack Eindhoven")
    assert code == 2 and "holds" in err
    assert log.read_text(encoding="utf-8") == START


def test_a_lock_appears_with_its_holder_already_written(tmp_path: Path) -> None:
    """The lock is linked into place whole: whoever sees it reads its holder."""
    log = tmp_path / "g.log"
    log.write_text(START, encoding="utf-8")
    seen: list[str] = []
    real_link = os.link

    def spy(source: str | Path, target: str | Path) -> None:
        real_link(source, target)
        seen.append(Path(target).read_text(encoding="utf-8"))

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "link", spy)
        with files.locked(log):
            pass
    assert seen and seen[0].startswith(f"pid={os.getpid()} ")
    assert not [p for p in tmp_path.iterdir() if p.name != "g.log"]


def test_a_lock_planted_as_a_link_to_a_device_is_read_no_further_than_its_bound(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The holder of a lock is read as a hostile file is: at most 400 bytes of a regular
    file, no link followed (a link to /dev/zero was read for ever)."""
    monkeypatch.setattr(files, "LOCK_WAIT", 0.0)
    log = tmp_path / "g.log"
    log.write_text(START, encoding="utf-8")
    lock_path(log).symlink_to("/dev/zero")
    assert files._holder(lock_path(log)) == ("", 0, "", "")
    code, _, err = run("play", log, "attack Eindhoven")
    assert code == 0, err
