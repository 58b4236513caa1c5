"""The standing fuzz of the commands that read a log (issues 11 and 27): grammar-aware logs of
the four games, run in this process through click's ``CliRunner``; no run may end in a
traceback, every exit code is 0, 1 or 2, and every ``--json`` output is JSON.  The long run
is ``bench/fuzz_commands.py --runs 100000``.

Hypothesis draws the seeds (derandomized, so every run of the suite tries the same inputs);
each seed builds one case (``tests/core/command_fuzz.py``), so a failure prints the seed that
reproduces it: ``python bench/fuzz_commands.py --first SEED --runs 1``.
"""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

from referee.core.grammar import game_parser
from referee.core.parsing import find_game
from tests.core.command_fuzz import COMMANDS, GAMES, make_case, prepare, run_case

RUNS = 400
"""CLI runs in the suite: about 14 ms of processor time each (the long run in bench/ tries
many more)."""


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="fuzz") as name:
        prepare(Path(name))
        yield Path(name)


@settings(max_examples=RUNS, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_no_read_only_command_ends_in_a_traceback(folder: Path, seed: int) -> None:
    outcome = run_case(make_case(seed, quick=True), folder)
    assert outcome.error is None, f"seed {seed}: {' '.join(outcome.case.args)}\n{outcome.error}"
    assert outcome.exit_code in (0, 1, 2)


def test_the_mix_covers_the_four_games_and_every_command_that_reads_a_log() -> None:
    """Issue 27: "the standing fuzz in the default suite generates grammar-aware lines for all
    four games ... and every command that reads a log (view, render, fmt, verify, play
    --dry-run included)"."""
    cases = [make_case(seed, quick=True) for seed in range(RUNS)]
    games = Counter(case.files["game.log"].split(b'"')[1].decode("utf-8", "replace")
                    for case in cases if case.files["game.log"].startswith(b'[Game "'))
    for game in GAMES:
        assert games[game] >= RUNS // 8, games
    commands = Counter(" ".join(w for w in case.args if not w.startswith("{}/")
                                and not w.isdigit()) for case in cases)
    for command in ("view -o --force", "render", "render -o --force", "fmt", "fmt -o",
                    "verify", "verify --json", "play --dry-run", "check --json",
                    "status --json", "position"):
        assert any(c.startswith(command) for c in commands), (command, commands)
    assert {c.split()[0] for c in commands} >= {c[0] for c in COMMANDS}


# The [Game] finder and the grammar must agree on every line: the finder chooses the grammar,
# and a line it takes for the tag that the grammar reads otherwise gave HeaderError tracebacks.
TAG_PIECES = st.sampled_from([
    "[", "]", "Game", "game", "GAME", "Games", '"', "battle-card", "wwiic", "\\", '\\"', " ",
    "\t", "\u00a0", "\u3000", "#", "x", "junk", "", "\r",
])


@settings(max_examples=300, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
@given(pieces=st.lists(TAG_PIECES, max_size=12))
def test_the_game_finder_reads_a_tag_as_the_grammar_does(pieces: list[str]) -> None:
    line = "".join(pieces)
    if "\n" in line or "\r" in line:
        line = re.split(r"[\r\n]", line)[0]
    parser = game_parser("battle_card.lark")
    try:
        tree = parser.parse(line)
    except UnexpectedInput:
        grammar_game = None
    else:
        node = tree.children[0] if tree.data == "start" else tree
        grammar_game = None
        if getattr(node, "data", None) == "tag" and str(node.children[0]) == "Game":
            value = str(node.children[1])[1:-1]
            grammar_game = value.replace('\\"', '"').replace("\\\\", "\\")
    if not line.strip() or line.strip().startswith("#"):
        grammar_game = None  # a blank or comment line is skipped before the grammar
    assert find_game([line]) == grammar_game, repr(line)
