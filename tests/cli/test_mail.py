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


# -- encodings and typographic forms --------------------------------------------------------

LEGAL = '[Game "battle-card"]\n[Seed "1"]\n# Café\nattack Eindhoven -> no\n'


def test_utf16_with_its_mark_and_latin1_are_read() -> None:
    from referee.core.parsing import decode_log

    for data in (LEGAL.encode("utf-16"), LEGAL.encode("utf-16-be").join([b"\xfe\xff", b""]),
                 LEGAL.encode("latin-1"), b"\xef\xbb\xbf" + LEGAL.encode("utf-8")):
        assert decode_log(data) == LEGAL


def test_an_undecodable_log_names_the_encoding_line_and_column() -> None:
    import pytest

    from referee.core.errors import LogEncodingError
    from referee.core.parsing import decode_log

    with pytest.raises(LogEncodingError, match=r"byte 0x93 at line 2, column 3 .* UTF-8"):
        decode_log('[Game "battle-card"]\n# “x”\n'.encode("cp1252"))
    with pytest.raises(LogEncodingError, match="UTF-16 text without its byte-order mark"):
        decode_log(LEGAL.encode("utf-16-le"))


def test_typographic_forms_read_as_their_ascii(tmp_path: Path) -> None:
    from referee.core.encoding import ascii_forms

    assert ascii_forms("move\u00a030-corps Belgium\u2192Eindhoven") == \
        "move 30-corps Belgium->Eindhoven"
    assert ascii_forms("a \u2013> b; \u201cx\u201d \u2018y\u2019") == "a -> b; \"x\" 'y'"
    assert ascii_forms('[Event "He said \u201chi\u201d"]') == '[Event "He said \u201chi\u201d"]'
    log = tmp_path / "typo.log"
    log.write_text('[Game \u201cbattle-card\u201d]\n[Seed "1"]\n'
                   "attack\u00a0Eindhoven; defend Grave; attack Arnhem\n"
                   "move 30-corps Belgium\u2192Eindhoven\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code == 0, result.output
