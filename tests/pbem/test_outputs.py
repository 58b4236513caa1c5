"""Files written on request (render -o, map -o, batch --out): never over an existing file
without --force, never over the input (even with --force, through a symbolic or a hard link),
and only in a format the name says."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .helpers import run

WWIIC = Path(__file__).parents[2] / "logs" / "wwiic" / "opening.log"

LOG = '[Game "battle-card"]\n[Dice "v1"]\n[Seed "out"]\nairdrop\n'


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "game.log"
    path.write_text(LOG)
    return path


def _commands(log: Path, out: Path) -> dict[str, list[str | Path]]:
    """``render`` draws the Battle Card log; ``map`` a WWII Commander log beside it."""
    wwiic = log.with_name("wwiic.log")
    if not wwiic.exists():
        wwiic.write_text(WWIIC.read_text())
    return {
        "render": ["render", log, "-o", out],
        "map": ["map", "wwiic", "--log", wwiic, "-o", out],
    }


@pytest.mark.parametrize("command", ["render", "map"])
def test_an_existing_picture_needs_force(command: str, log: Path, tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    out.write_text("mine")
    ran = run(*_commands(log, out)[command])
    assert ran.code == 2 and "exists already; give --force" in " ".join(ran.err.split())
    assert out.read_text() == "mine"
    assert run(*_commands(log, out)[command], "--force").code == 0
    assert out.read_text().startswith("<svg") or "<svg" in out.read_text()


@pytest.mark.parametrize("command", ["render", "map"])
@pytest.mark.parametrize("how", ["itself", "symlink", "hardlink"])
def test_the_input_is_never_overwritten(command: str, how: str, log: Path,
                                        tmp_path: Path) -> None:
    source = Path(str(_commands(log, log)[command][3 if command == "map" else 1]))
    before = source.read_text()
    out = source
    if how == "symlink":
        out = tmp_path / "board.svg"
        out.symlink_to(source.name)
    elif how == "hardlink":
        out = tmp_path / "board.svg"
        os.link(source, out)
    ran = run(*_commands(log, out)[command], "--force")
    assert ran.code == 2 and "never writes over its input" in " ".join(ran.err.split())
    assert source.read_text() == before


@pytest.mark.parametrize("command", ["render", "map"])
def test_an_unknown_picture_format_is_refused(command: str, log: Path, tmp_path: Path) -> None:
    out = tmp_path / "board.jpg"
    ran = run(*_commands(log, out)[command])
    assert ran.code == 2
    assert "cannot tell the format of" in ran.err and "FILE.svg or FILE.png" in ran.err
    assert not out.exists()


def test_batch_out_needs_force(log: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    out.write_text("mine\n")
    ran = run("batch", log, "--out", out, "--executor", "serial")
    assert ran.code == 2 and "exists already; give --force" in " ".join(ran.err.split())
    assert out.read_text() == "mine\n"
    assert run("batch", log, "--out", out, "--executor", "serial", "--force").code == 0
    assert '"path"' in out.read_text()


def test_batch_never_writes_over_an_input(tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    rows.write_text("not a log\n")
    ran = run("batch", rows, "--out", rows, "--executor", "serial", "--force")
    assert ran.code == 2 and "never writes over its input" in " ".join(ran.err.split())
    assert rows.read_text() == "not a log\n"
