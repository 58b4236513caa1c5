"""A log a mail client wrapped or quoted is named as such, in one problem."""

from __future__ import annotations

import textwrap
from pathlib import Path

from click.testing import CliRunner

from referee.api import replay_text
from referee.cli import main


def played(tmp_path: Path) -> str:
    log = tmp_path / "game.log"
    runner = CliRunner()
    runner.invoke(main, ["new", "battle-card", "--seed", "5", "-o", str(log)])
    for move in ("attack Eindhoven; defend Grave; attack Arnhem", "pass"):
        assert runner.invoke(main, ["play", str(log), move]).exit_code == 0
    return log.read_text(encoding="utf-8")


def test_a_log_wrapped_by_a_mail_client_is_one_problem(tmp_path: Path) -> None:
    text = played(tmp_path)
    assert replay_text(text).ok
    for width in (72, 76, 78):
        wrapped = "\n".join(
            "\n".join(textwrap.wrap(line, width, break_long_words=False)) or line
            for line in text.splitlines())
        report = replay_text(wrapped)
        assert len(report.problems) == 1, [p.message for p in report.problems]
        problem = report.problems[0]
        assert "this log looks wrapped by a mail client" in problem.message
        assert "send the log as an attachment" in problem.message
        assert report.exit_code == 2


def test_a_log_quoted_by_a_mail_client_is_one_problem(tmp_path: Path) -> None:
    quoted = "".join(f"> {line}\n" for line in played(tmp_path).splitlines())
    report = replay_text(quoted)
    assert [p.message.split(";")[0] for p in report.problems] == [
        "this log looks quoted by a mail client (8 lines start with '>')"]


def test_ordinary_typos_are_not_taken_for_mail_damage() -> None:
    report = replay_text('[Game "battle-card"]\n[Seed "1"]\natack Eindhoven\ndefend Grav\n'
                         "attack Arnhme\n")
    assert all("mail client" not in p.message for p in report.problems)
    assert len(report.problems) >= 2
