"""``referee fmt --fix`` (each single did-you-mean applied, a mail client's quoting and
wrapping undone, every repair named: line, old, new) and ``referee new`` saying what to
write next."""

from __future__ import annotations

import stat
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from syrupy.assertion import SnapshotAssertion

from referee.api import replay_file
from referee.cli import main

from ..conftest import LOGS

WIN = LOGS / "battle-card" / "win.log"
MISSPELT = ('[Game "battle-card"]\n[Seed "1"]\nairdrop\nattack Eindhovn; defend Grav\n'
            "move 30-corps Belgum->Eindhoven\n")


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def meaning(path: Path) -> tuple[object, ...]:
    report = replay_file(path)
    return (report.state_json(), report.outcome(), report.draws,
            [(p.line, str(p.kind), p.rule) for p in report.problems])


def test_fix_applies_each_single_did_you_mean_and_says_what_it_changed(
        tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_text(MISSPELT)
    result = invoke("fmt", "--fix", log)
    assert result.exit_code == 0
    assert result.stderr.splitlines() == [
        "fixed line 4: 'Eindhovn' -> 'Eindhoven' (did you mean)",
        "fixed line 4: 'Grav' -> 'Grave' (did you mean)",
        "fixed line 5: 'Belgum' -> 'Belgium' (did you mean)",
    ]
    assert "attack Eindhoven; defend Grave  # attack at Eindhoven" in result.stdout
    assert log.read_text() == MISSPELT  # never over the input unless asked


def test_fix_leaves_a_name_without_one_suggestion_and_names_what_is_left(
        tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_text(MISSPELT + "attack Xyzzy\n")
    log.chmod(0o640)
    result = invoke("fmt", "--fix", "--in-place", log)
    assert result.exit_code == 1
    assert "still cannot be formatted" in result.stderr and "'Xyzzy'" in result.stderr
    assert log.read_text().splitlines()[3:] == [
        "attack Eindhoven; defend Grave", "move 30-corps Belgium->Eindhoven", "attack Xyzzy"]
    assert stat.S_IMODE(log.stat().st_mode) == 0o640  # written atomically, its mode kept


def test_without_fix_a_misspelt_log_is_refused_as_before(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_text(MISSPELT)
    result = invoke("fmt", log)
    assert result.exit_code == 2 and "unknown location 'Eindhovn'" in result.output


def test_fix_undoes_a_mail_clients_quoting(tmp_path: Path) -> None:
    quoted = tmp_path / "quoted.log"
    quoted.write_text("On Tue, Bob wrote:\n" + "".join(
        f"> {line}\n" for line in WIN.read_text().splitlines()))
    assert replay_file(quoted).exit_code == 2  # detected, named, not read
    out = tmp_path / "repaired.log"
    result = invoke("fmt", "--fix", quoted, "-o", out)
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[0].startswith(
        "fixed line 2: '> [Game \"battle-card\"]' -> '[Game \"battle-card\"]' (a mail "
        "client's quoting '>', removed from ")
    assert "attribution line" in result.stderr
    assert meaning(out) == meaning(WIN)


def test_fix_undoes_a_mail_clients_wrapping(tmp_path: Path) -> None:
    lines = [part for line in WIN.read_text().splitlines()
             for part in (textwrap.wrap(line, 72, break_long_words=False,
                                        break_on_hyphens=False) or [""])]
    wrapped = tmp_path / "wrapped.log"
    wrapped.write_text("\n".join(lines) + "\n")
    assert "wrapped by a mail client" in replay_file(wrapped).problems[0].message
    out = tmp_path / "repaired.log"
    result = invoke("fmt", "--fix", wrapped, "-o", out)
    assert result.exit_code == 0, result.output
    assert "(a mail client's wrapping: line 6 joined back to it)" in result.stderr
    assert meaning(out) == meaning(WIN)


def test_fix_never_writes_over_the_input_through_o(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_text(MISSPELT)
    result = invoke("fmt", "--fix", log, "-o", log)
    assert result.exit_code == 2 and "never writes over its input" in result.output
    assert log.read_text() == MISSPELT


@pytest.mark.parametrize("game", ["battle-card", "wwiic", "koenig-eindhoven", "arnhem44"])
def test_new_says_the_first_decision_its_answers_and_the_docs(
        game: str, snapshot: SnapshotAssertion) -> None:
    result = invoke("new", game)
    assert result.exit_code == 0
    assert result.stdout.startswith(f'[Game "{game}"]')
    assert "docs/log-format.md" in result.stderr
    assert result.stderr == snapshot


def test_the_lines_new_suggests_are_legal_lines_of_the_log(tmp_path: Path) -> None:
    """What 'new' shows as the next line is a line the log may take: written after the
    header, the log replays without a problem."""
    for game in ("battle-card", "wwiic", "koenig-eindhoven", "arnhem44"):
        result = invoke("new", game, "--seed", "7")
        suggested = next(line.strip() for line in result.stderr.splitlines()
                         if line.startswith("    ") and not line.strip().startswith("..."))
        log = tmp_path / f"{game}.log"
        log.write_text(result.stdout + suggested + "\n")
        assert replay_file(log).problems == [], (game, suggested)


def test_fix_gives_back_a_sealed_play_by_email_log_a_mail_client_quoted(
        tmp_path: Path) -> None:
    """A play-by-e-mail log's seals cover each line's text: --fix undoes only the mail
    client's quoting, and the log verifies again; no name of it is changed."""
    log = tmp_path / "g.log"
    assert invoke("new", "battle-card", "--commit", "-o", log).exit_code == 0
    secret = tmp_path / "g.secret"
    assert invoke("play", log, "--secret", secret).exit_code == 0
    assert invoke("play", log, "attack Eindhoven", "--secret", secret).exit_code == 0
    quoted = tmp_path / "quoted.log"
    quoted.write_text("".join(f"> {line}\n" for line in log.read_text().splitlines()))
    out = tmp_path / "restored.log"
    result = invoke("fmt", "--fix", quoted, "-o", out)
    assert result.exit_code == 0, result.output
    assert "only the mail client's damage is undone" in result.stderr
    assert out.read_text() == log.read_text()
    assert invoke("verify", out, "--secret", secret).exit_code == 0
    result = invoke("fmt", "--fix", log)
    assert result.exit_code == 2 and "sealed line by line" in result.output
