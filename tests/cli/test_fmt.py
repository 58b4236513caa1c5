"""``referee fmt``: canonical form, meaning unchanged (a property test over the bundled logs
with their spacing, case and arrows scrambled), never over a file unasked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.api import replay_text
from referee.cli import main
from referee.core.fmt import format_log
from referee.core.log import ActionLine
from referee.core.parsing import parse_log

from ..conftest import LOGS

FORMATTABLE = sorted(
    path for path in [*LOGS.glob("battle-card/*.log"), LOGS / "wwiic" / "opening.log",
                      LOGS / "wwiic" / "illegal-movement.log",
                      LOGS / "wwiic" / "early-allied-victory-arnhem.log"]
    if not parse_log(path.read_text(encoding="utf-8"), str(path)).problems
)


def canonical(text: str) -> str:
    return format_log(text, parse_log(text, "<log>")).text


def meaning(text: str) -> tuple[object, ...]:
    report = replay_text(text)
    return (report.state_json(), report.outcome(), report.draws,
            [(p.line, str(p.kind), p.rule) for p in report.problems])


def scramble(text: str, draw: st.DrawFn) -> str:
    """The log with its action lines' spacing, case and arrows changed as a person might."""
    log = parse_log(text, "<log>")
    actions = {entry.number for entry in log.entries if isinstance(entry, ActionLine)}
    lines = text.split("\n")
    for number in actions:
        code, hash_, comment = lines[number - 1].partition("#")
        dice = re.findall(r"\{[^}]*\}", code)
        words = re.sub(r"\{[^}]*\}", "\x00", code)
        if draw(st.booleans()):
            words = words.lower()
        words = words.replace("->", draw(st.sampled_from(["->", " -> ", " ->"])))
        words = words.replace(";", draw(st.sampled_from([";", " ; ", ";  "])))
        words = re.sub(" ", lambda _: " " * draw(st.integers(1, 3)), words)
        for record in dice:
            words = words.replace("\x00", record, 1)
        lines[number - 1] = words + (hash_ + comment if draw(st.booleans()) else "")
    return "\n".join(lines)


def test_there_are_logs_to_format() -> None:
    assert len(FORMATTABLE) >= 6


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(FORMATTABLE), st.data())
def test_formatting_never_changes_the_meaning(path: Path, data: st.DataObject) -> None:
    scrambled = scramble(path.read_text(encoding="utf-8"), data.draw)
    formatted = canonical(scrambled)
    assert meaning(formatted) == meaning(scrambled)
    assert canonical(formatted) == formatted  # formatting a formatted log changes nothing


def test_the_canonical_form() -> None:
    text = ('[Game "battle-card"]\n[Seed   "1"]\n\n# my game\n'
            "attack   eindhoven;defend grave ; attack ARNHEM\n"
            "move 30-corps belgium  ->  eindhoven   # go\n")
    lines = canonical(text).split("\n")
    assert lines[:4] == ['[Game "battle-card"]', '[Seed "1"]', "", "# my game"]
    assert lines[4].startswith("attack Eindhoven; defend Grave; attack Arnhem  # attack at "
                               "Eindhoven: ")
    assert "defend at Grave: " in lines[4] and "attack at Arnhem: " in lines[4]
    assert lines[5] == "move 30-corps Belgium->Eindhoven  # go"


def test_fmt_writes_only_where_asked(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_text('[Game "battle-card"]\n[Seed "1"]\nattack   eindhoven\n', encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["fmt", str(log)])
    assert result.exit_code == 0 and result.stdout.startswith('[Game "battle-card"]')
    assert "attack   eindhoven" in log.read_text(encoding="utf-8")  # unchanged
    out = tmp_path / "out.log"
    assert runner.invoke(main, ["fmt", str(log), "-o", str(out)]).exit_code == 0
    assert out.read_text(encoding="utf-8") == result.stdout
    again = runner.invoke(main, ["fmt", str(log), "-o", str(out)])
    assert again.exit_code == 2 and out.read_text(encoding="utf-8") == result.stdout
    assert runner.invoke(main, ["fmt", str(log), "-o", str(log)]).exit_code == 2
    assert runner.invoke(main, ["fmt", str(log), "--in-place"]).exit_code == 0
    assert log.read_text(encoding="utf-8") == result.stdout
    done = runner.invoke(main, ["fmt", str(log), "--in-place"])
    assert "already in canonical form" in done.stdout


@pytest.mark.parametrize("text, reason", [
    ('[Game "battle-card"]\natack Grave\n', "without problems before it is formatted"),
    ('[Game "battle-card"]\n[Pbem "v1"]\n', "break its seals"),
])
def test_fmt_refuses_what_it_cannot_format_safely(tmp_path: Path, text: str,
                                                  reason: str) -> None:
    log = tmp_path / "game.log"
    log.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(log), "--in-place"])
    assert result.exit_code == 2 and reason in result.stderr
    assert log.read_text(encoding="utf-8") == text
