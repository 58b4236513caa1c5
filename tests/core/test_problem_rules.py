"""Issue 28, "Done when": every problem kind a replay can produce carries a rule, or is
documented as having none (docs/log-format.md, "Problems": the table of kinds and rules).

The logs are the fuzz corpus's: lines of the bundled logs of every game, some mutated by
dropping, swapping and inserting tokens (``tests/core/command_fuzz.py``), replayed from the
opening with and without a seed, one ``random.Random`` seed each.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from referee.api import replay_text
from referee.core.errors import ProblemKind
from referee.core.resources import bundled
from tests.core.command_fuzz import _mutate

DOC = Path(__file__).parents[2] / "docs" / "log-format.md"
GAMES = ("battle-card", "wwiic", "koenig-eindhoven", "arnhem44")
RUNS = 300
"""Fuzzed logs per game (a replay of a few lines each)."""


def documented() -> tuple[set[str], set[str]]:
    """The kinds the table says always carry a rule, and those it says have none."""
    section = DOC.read_text(encoding="utf-8").split("## Problems", 1)[1].split("\n## ", 1)[0]
    ruled: set[str] = set()
    none: set[str] = set()
    for row in re.findall(r"^\| (`.+?) \| (.+?) \|$", section, flags=re.M):
        kinds = set(re.findall(r"`([a-z-]+)`", row[0]))
        (none if row[1].startswith("none") or "has none" in row[1] else ruled).update(kinds)
    return ruled, none


def bodies(game: str) -> list[str]:
    lines: list[str] = []
    for path in sorted((bundled("logs") / game).glob("*.log")):
        lines += [line for line in path.read_text(encoding="utf-8").splitlines()
                  if line.strip() and not line.lstrip().startswith("[")]
    return lines


def test_the_table_names_every_kind_once() -> None:
    ruled, none = documented()
    assert not ruled & none
    assert ruled | none == {str(kind) for kind in ProblemKind}


@pytest.mark.parametrize("game", GAMES)
def test_every_problem_of_the_fuzz_corpus_carries_a_rule_or_is_documented_without(
        game: str) -> None:
    ruled, none = documented()
    source = bodies(game)
    rng = random.Random(f"rules-{game}")
    seen: set[str] = set()
    for _ in range(RUNS):
        head = f'[Game "{game}"]\n' + (f'[Seed "{rng.randrange(10**6)}"]\n'
                                       if rng.random() < 0.6 else "")
        start = rng.randrange(len(source))
        picked = source[start:start + rng.choice((1, 2, 3, 5, 8))]
        body = [_mutate(rng, line) if rng.random() < 0.3 else line for line in picked]
        report = replay_text(head + "\n".join(body) + "\n")
        for problem in report.problems:
            kind = str(problem.kind)
            seen.add(kind)
            if kind in ruled:
                assert problem.rule, (kind, problem.message, body)
            else:
                assert kind in none, (kind, problem.message)
    # The corpus reaches refusals that must cite a rule, not only lines it cannot read.
    assert {"illegal-move", "syntax"} <= seen and seen & {"wrong-side", "missing-decision"}
