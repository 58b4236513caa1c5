"""Issue 32, conventions: every command's text into a pipe is plain, as ``git``'s is: no
line is longer than what it says (no padding to a table's width) and nothing is drawn with
box characters.  The same commands on a terminal keep rich's tables."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import color_first, main

from ..conftest import LOGS

BOX = re.compile(r"[\u2500-\u259f]")
"""Box drawing and block elements."""

COMMANDS = [
    ("games",),
    ("examples",),
    ("replay", "bundled:battle-card/win.log"),
    ("replay", "--events", "bundled:wwiic/opening.log"),
    ("replay", str(LOGS / "battle-card" / "illegal.log")),
    ("check", "bundled:battle-card/win.log", "bundled:battle-card/illegal.log"),
    ("moves", "bundled:wwiic/opening.log"),
    ("moves", "bundled:battle-card/pending.log"),
    ("position", "bundled:battle-card/win.log", "--upto", "12"),
    ("status", "bundled:wwiic/opening.log"),
    ("verify", "bundled:battle-card/win.log"),
    ("scenario", "show", "battle-card"),
    ("scenario", "show", "wwiic"),
    ("scenario", "show", "arnhem44"),
    ("scenario", "show", "koenig-eindhoven"),
    ("scenario", "check", "bundled:battle-card"),
    ("simulate", "battle-card", "--games", "5"),
    ("batch", str(LOGS / "battle-card")),
    ("new", "wwiic", "--seed", "1"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_piped_text_is_plain(args: tuple[str, ...]) -> None:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code in (0, 1, 2), result.output
    text = result.stdout
    assert text.strip(), "the command printed nothing"
    for number, line in enumerate(text.splitlines(), 1):
        assert line == line.rstrip(), f"line {number} is padded: {line!r:.120}"
        assert not BOX.search(line), f"line {number} draws a box: {line!r:.120}"


def test_games_piped_is_as_wide_as_its_longest_sentence() -> None:
    """The table that printed 1,779-character lines: now each row ends with its text."""
    result = CliRunner().invoke(main, ["games"])
    lines = result.stdout.splitlines()
    widths = {len(line) for line in lines if line.startswith(("battle-card", "wwiic"))}
    assert len(widths) == 2  # rows end where their text ends, not at one padded width
    assert max(len(line) for line in lines) < 700


def test_color_is_accepted_after_the_subcommand() -> None:
    """Issue 32: `--color` was accepted only before the subcommand."""
    after = CliRunner().invoke(main, ["games", "--color", "always"])
    assert after.exit_code == 0 and "\x1b[" in after.stdout
    equals = CliRunner().invoke(main, ["replay", "bundled:battle-card/win.log", "--color=never"])
    assert equals.exit_code == 0 and "\x1b[" not in equals.stdout
    assert color_first(["play", "g.log", "--", "--color", "x"]) == [
        "play", "g.log", "--", "--color", "x"]
    assert color_first(["replay", "a.log", "--color", "never", "--json"]) == [
        "--color", "never", "replay", "a.log", "--json"]


def test_view_reads_standard_input(tmp_path: Path) -> None:
    """Issue 32: `-` for standard input works for view too."""
    page = tmp_path / "game.html"
    text = (LOGS / "battle-card" / "win.log").read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["view", "-", "-o", str(page)], input=text)
    assert result.exit_code == 0, result.output
    assert "<stdin>" in page.read_text(encoding="utf-8")


def test_batch_reads_its_paths_from_standard_input() -> None:
    """Issue 32: `batch -` takes a list of paths on stdin, one a line, as `xargs`-minded
    users expect (`find logs -name '*.log' | referee batch -`)."""
    names = [str(LOGS / "battle-card" / "win.log"), "", str(LOGS / "battle-card" / "loss.log")]
    result = CliRunner().invoke(main, ["batch", "-"], input="\n".join(names) + "\n")
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [row["path"] for row in rows] == [names[0], names[2]]


def test_progress_with_a_total_shows_count_and_eta() -> None:
    """Issue 32: batch progress on a terminal says "N of TOTAL" and an ETA."""
    from rich.console import Console

    from referee.core.progress import progress_bar

    console = Console(file=io.StringIO(), force_terminal=True, width=100)
    bar = progress_bar(console, total=10)
    assert not bar.disable
    task = bar.add_task("replaying", total=10)
    bar.advance(task, 4)
    screen = Console(file=io.StringIO(), width=100)
    screen.print(bar.make_tasks_table(bar.tasks))
    shown = screen.file.getvalue()  # type: ignore[attr-defined]
    assert "replaying" in shown and "4/10" in shown and "ETA" in shown
    piped = Console(file=io.StringIO(), width=100)
    assert progress_bar(piped, total=10).disable  # nothing on a pipe
