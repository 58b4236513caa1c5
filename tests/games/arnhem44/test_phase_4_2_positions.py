"""Phase 4.2 - Combat, in a position (issue 27, section 4: ``IndexError`` in ``strongest``).

Phase 4.2: "This is an obligatory phase for both players. In every sector where both sides
are present, one turn of combat takes place."  The phase is over once its combats and the
withdrawals after them are done, and the game goes on to phase 5.1 (or block 6): it never
rests in 4.2 or 5.2 with nothing left.  A position set in a combat phase must name what
waits (``setup: combat SECTOR`` or ``setup: withdrawing N UNIT SECTOR``); one that names
neither is refused in a sentence, and no command ends in a traceback on it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.cli import main
from referee.core.errors import ProblemKind
from referee.core.resources import bundled

from .helpers import replayed

NOTHING_LEFT = "has nothing left to do"


def run(*arguments: str | Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in arguments], catch_exceptions=False)
    return result.exit_code, result.output


@pytest.mark.parametrize("phase", ["4.2", "5.2"])
def test_phase_4_2_a_position_with_no_combat_and_no_withdrawal_is_refused(
        tmp_path: Path, phase: str) -> None:
    log = tmp_path / "p.log"
    log.write_text(f'[Game "arnhem44"]\n[Seed "1"]\nsetup: phase {phase}\n', encoding="utf-8")
    report = replayed(log)
    found = [p for p in report.problems if p.kind is ProblemKind.POSITION]
    assert any(f"phase {phase} {NOTHING_LEFT}" in p.message and p.line == 3 for p in found)


@pytest.mark.parametrize("command", [
    ("replay",), ("replay", "--json"), ("check",), ("moves",), ("status",), ("verify",),
    ("position",), ("render",),
])
def test_phase_4_2_no_command_ends_in_a_traceback_on_such_a_position(
        tmp_path: Path, command: tuple[str, ...]) -> None:
    log = tmp_path / "p.log"
    log.write_text('[Game "arnhem44"]\n[Seed "1"]\nsetup: phase 4.2\n'
                   "german: move 1 inf Arnhem->Oosterbeek\n", encoding="utf-8")
    code, _ = run(*command, log)  # an exception would propagate (catch_exceptions=False)
    assert code in (0, 1, 2)


def test_phase_4_2_play_of_a_line_on_such_a_position_is_a_sentence(tmp_path: Path) -> None:
    log = tmp_path / "p.log"
    text = '[Game "arnhem44"]\n[Seed "1"]\nsetup: phase 4.2\n'
    log.write_text(text, encoding="utf-8")
    code, out = run("play", log, "german: move 1 inf Arnhem->Oosterbeek")
    assert code in (1, 2) and "Traceback" not in out
    assert log.read_text(encoding="utf-8") == text


def test_phase_4_2_a_position_with_a_withdrawal_waiting_still_reads(tmp_path: Path) -> None:
    """The bundled log that stops on a withdrawal decision in a combat phase: its position,
    written by ``referee position``, reads without a position problem (the refusal is only
    for a combat phase with nothing waiting)."""
    source = bundled("logs") / "arnhem44" / "pbem-pending-withdrawal.log"
    out = tmp_path / "at-withdrawal.log"
    code, _ = run("position", source, "-o", out)
    assert code == 0
    text = out.read_text(encoding="utf-8")
    assert "withdrawing" in text and ("phase 4.2" in text or "phase 5.2" in text)
    report = replayed(out)
    assert not [p for p in report.problems if p.kind is ProblemKind.POSITION]
