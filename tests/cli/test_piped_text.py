"""Issue 32, conventions: every command's text into a pipe is plain, as ``git``'s is: no
line is longer than what it says (no padding to a table's width) and nothing is drawn with
box characters.  The same commands on a terminal keep rich's tables."""

from __future__ import annotations

import re

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
