"""DESIGN.md, "Problems": "Text output caps a flood of problems as compilers do (the first in
full, then counts by kind and rule; ``--all`` for everything); a refused line costs no more
than a legal one."  Issue 31, "A log full of mistakes".

The log: a Battle Card header and ``pass`` lines at the start of turn 1, where the Allied
player must attack or defend at each city first (Battle Card "Turn step 1"): every one is
refused, so N lines give N problems, the first on line 3.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.core.dice import DiceStream
from referee.core.log import ActionLine
from referee.core.parsing import parse_log
from referee.core.replay import DiceAt, Replayer, SeededDice
from referee.games.battle_card import ENGINE

HEADER = '[Game "battle-card"]\n[Seed "17093953"]\n'


def flood(tmp_path: Path, passes: int, tail: str = "") -> str:
    path = tmp_path / "flood.log"
    path.write_text(HEADER + "pass\n" * passes + tail, encoding="utf-8")
    return str(path)


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


@pytest.mark.parametrize("command", ["check", "replay", "status"])
def test_text_output_shows_the_first_100_problems_then_counts_the_rest(
    tmp_path: Path, command: str
) -> None:
    code, out = run(command, flood(tmp_path, 150))
    assert code == 1
    assert out.count("illegal-move [Turn step 1]: 'pass' is not possible now") == 100
    assert "flood.log:102:1:" in out and "flood.log:103:1:" not in out
    assert "and 50 more: illegal-move [Turn step 1] x50; --all shows them" in out


@pytest.mark.parametrize("command", ["check", "replay", "status"])
def test_all_shows_every_problem(tmp_path: Path, command: str) -> None:
    code, out = run(command, "--all", flood(tmp_path, 150))
    assert code == 1
    assert out.count("illegal-move [Turn step 1]: 'pass' is not possible now") == 150
    assert "flood.log:152:1:" in out
    assert "more:" not in out


def test_no_count_line_when_every_problem_is_shown(tmp_path: Path) -> None:
    code, out = run("check", flood(tmp_path, 100))
    assert code == 1
    assert out.count("'pass' is not possible now") == 100
    assert "more:" not in out


def test_the_rest_is_counted_by_kind_and_rule_the_most_frequent_first(tmp_path: Path) -> None:
    """105 refused ``pass`` lines, then 3 lines naming a city Battle Card does not have (an
    unknown name, which has no rule): 100 shown, the other 8 counted."""
    code, out = run("check", flood(tmp_path, 105, "attack Nowhere\n" * 3))
    assert code == 2  # an unknown name: the log cannot be read
    assert "and 8 more: illegal-move [Turn step 1] x5, unknown-name x3; --all shows them" in out


@pytest.mark.parametrize("command", ["check", "replay", "status"])
def test_json_lists_every_problem(tmp_path: Path, command: str) -> None:
    code, out = run(command, "--json", flood(tmp_path, 150))
    assert code == 1
    document = json.loads(out)
    assert len(document["problems"]) == 150
    assert [p["line"] for p in document["problems"]] == list(range(3, 153))


class LineDice(SeededDice):
    """The seeded stream, but a provider the driver may not assume gives every line alike."""

    def __init__(self, stream: DiceStream | None) -> None:
        super().__init__(stream)

    def dice_for(self, line: ActionLine | None, draw: int, line_draw: int) -> DiceAt:
        return DiceAt(self.stream, draw)

    def rolled(self, line: ActionLine | None, rolls: Sequence[object]) -> None:
        return None

    alike = None  # type: ignore[assignment]


def test_a_repeated_refused_line_is_judged_as_if_judged_afresh() -> None:
    """The driver judges a line refused again at the very same position once; the problems,
    events and state are those of judging every line afresh (a dice provider that does not
    say lines are alike, as a play-by-e-mail log's committed secrets do not)."""
    text = HEADER + "pass\n" * 20 + "german: pass\n" * 3 + "attack Eindhoven\n" + "pass\n" * 4
    fast = Replayer(parse_log(text, "f.log", engine=ENGINE), ENGINE).run()
    log = parse_log(text, "f.log", engine=ENGINE)
    slow = Replayer(log, ENGINE, dice=LineDice(DiceStream("17093953"))).run()
    assert fast.to_json() == slow.to_json()
    assert len(fast.problems) == 27
    assert {p.follows for p in fast.problems[20:23]} != {None}
