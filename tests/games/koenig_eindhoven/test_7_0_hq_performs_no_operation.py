"""7.0 Operations Phase: an HQ performs no Operation (issue 27, section 4: ``KeyError`` in
``operations.py`` ``check_actor``).

7.0: "Players alternate drawing an HQ unit from the cup. When it is drawn, any or all of the
units in that formation that are on the map may conduct Movement and / or Combat."  The HQ
is the chit drawn from the Command Cup (K20: never on the map); the formation's units
perform the Operations.  A move, a combined move, a fire or a redeployment naming an HQ is
refused in a sentence citing 7.0, in a replay and in ``play`` (which writes nothing).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.core.parsing import parse_log
from referee.core.replay import replay
from referee.games.koenig_eindhoven.engine import ENGINE

from ...conftest import LOGS

GAME = LOGS / "koenig-eindhoven" / "complete-game.log"
DAY = 17
"""Lines of the bundled game up to ``draw {cup: 935}``: the German 935th is active."""
NIGHT = 70
"""Lines up to the start of the German Redeployment Phase of Game Turn 3 (night)."""

CASES = [
    (DAY, "german: move HQ/935 C->1021"),
    (DAY, "german: combined HQ/935 C->1021"),
    (DAY, "german: full-fire 1021 with HQ/935"),
    (DAY, "german: mobile-fire 1021 with HQ/935"),
    (NIGHT, "german: redeploy HQ/935 0718->0617"),
]


def _head(lines: int) -> str:
    return "\n".join(GAME.read_text(encoding="utf-8").splitlines()[:lines]) + "\n"


@pytest.mark.parametrize(("lines", "line"), CASES)
def test_7_0_a_line_naming_an_hq_as_the_unit_that_acts_is_refused(lines: int,
                                                                 line: str) -> None:
    text = _head(lines) + line + "\n"
    report = replay(parse_log(text, "hq.log", engine=ENGINE), ENGINE)
    last = text.count("\n")
    found = [p for p in report.problems if p.line == last]
    assert [p.rule for p in found] == ["7.0"], report.problems
    assert "HQ/935 is an HQ" in found[0].message


def test_7_0_the_same_line_with_a_battalion_is_legal() -> None:
    """The refusal is the HQ's alone: its formation's battalion makes the same move."""
    text = _head(DAY) + "german: move 1/935 C->1021\n"
    report = replay(parse_log(text, "unit.log", engine=ENGINE), ENGINE)
    assert not report.problems, report.problems


@pytest.mark.parametrize(("lines", "line"), CASES[:1] + CASES[-1:])
def test_7_0_play_of_a_line_naming_an_hq_is_refused_and_writes_nothing(
        tmp_path: Path, lines: int, line: str) -> None:
    log = tmp_path / "game.log"
    log.write_text(_head(lines), encoding="utf-8")
    before = log.read_text(encoding="utf-8")
    result = CliRunner().invoke(main, ["play", str(log), line], catch_exceptions=False)
    assert result.exit_code == 1
    assert "HQ/935 is an HQ" in result.stderr
    assert log.read_text(encoding="utf-8") == before
