"""Text output people and scripts can rely on: wrapping only on a terminal, colour as asked,
control characters escaped, bundled logs by name, standard input, one stream rule."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee import output
from referee.cli import main
from referee.core import envelope

from ..conftest import LOGS

WIN = LOGS / "battle-card" / "win.log"
SENTENCE = "this line is not part of the log language"


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def run(*args: str, stdin: str | bytes | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def long_folder(tmp_path: Path) -> Path:
    folder = tmp_path / ("x" * 120) / ("y" * 120)
    folder.mkdir(parents=True)
    return folder


def test_piped_text_is_never_wrapped_with_a_long_path_and_columns_unset(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    log = long_folder(tmp_path) / "game.log"
    log.write_text('[Game "battle-card"]\n[Seed "1"]\natack Eindhoven and then some more words '
                   'to make the line long enough to wrap anywhere\n', encoding="utf-8")
    for command in ("replay", "check"):
        code, out, err = run(command, str(log))
        assert code == 2
        text = out + err
        # The path and the sentence stay on one line each: nothing is broken at 80 columns.
        assert f"{log}:3:1: syntax:" in text
        assert "'atack' is not a command; did you mean 'attack'?" in text
        assert all(len(line) < output.UNWRAPPED_WIDTH for line in text.splitlines())
        assert not any(set(line) == {"─"} and len(line) > 200 for line in text.splitlines())


def test_a_terminal_wraps_at_its_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    screen = Terminal()
    console = output.make_console(screen)
    assert console.width == 40
    console.print(" ".join(["word"] * 30))
    assert max(len(line) for line in screen.getvalue().splitlines()) <= 40
    piped = output.make_console(io.StringIO())
    assert piped.width == output.UNWRAPPED_WIDTH


def test_no_color_is_honoured_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    output.set_color("auto")
    monkeypatch.delenv("NO_COLOR", raising=False)
    coloured = Terminal()
    output.make_console(coloured).print("[red]red[/]")
    assert "\x1b[" in coloured.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    plain = Terminal()
    output.make_console(plain).print("[red]red[/]")
    assert plain.getvalue() == "red\n"


def test_the_color_option(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "xterm-256color")
    illegal = str(LOGS / "battle-card" / "illegal.log")
    _, out, _ = run("--color", "always", "check", illegal)
    assert "\x1b[" in out  # into a pipe, and in spite of NO_COLOR
    _, out, _ = run("--color", "never", "check", illegal)
    assert "\x1b[" not in out
    _, out, _ = run("check", illegal)
    assert "\x1b[" not in out
    code, _, err = run("--color", "sometimes", "check", illegal)
    assert code == 2 and "sometimes" in err
    output.set_color("auto")


def test_control_characters_from_a_log_are_escaped(tmp_path: Path) -> None:
    log = tmp_path / "evil.log"
    log.write_text('[Game "battle-card"]\n[Seed "1"]\n[Allied "\x1b[31mEvil\x1b]0;t\x07"]\n'
                   "attack Eindhoven\nattack Eindhove\x1b[2J\u202e\n", encoding="utf-8")
    for args in (("replay", str(log)), ("check", str(log)), ("status", str(log)),
                 ("verify", str(log)), ("replay", str(log), "--json")):
        _, out, err = run(*args)
        text = out + err
        for raw in ("\x1b", "\x07", "\u202e"):
            assert raw not in text, args
        if "--json" not in args:
            assert "\\x1b" in text, args
    _, out, _ = run("replay", str(log), "--json")
    data = json.loads(out)
    assert data["tags"]["Allied"] == "\x1b[31mEvil\x1b]0;t\x07"  # JSON escapes carry it whole


def test_the_caret_stays_under_the_column_after_escapes() -> None:
    from referee.core.errors import Problem, ProblemKind

    problem = Problem(ProblemKind.SYNTAX, "bad", line=1, column=5, text="\x1b\x1bab!")
    lines = output.problem_text(problem).plain.splitlines()
    assert lines[1].index("!") == lines[2].index("^")


def test_the_plain_problem_is_the_styled_one_without_its_styles() -> None:
    """``status`` (plain text for e-mail, without rich) writes a problem as the terminal
    output does: ``output_plain.problem_plain`` is ``output.problem_text`` unstyled, for the
    problems of every bundled log and made-up ones with every part."""
    from referee.api import replay_file
    from referee.core.errors import Problem, ProblemKind
    from referee.output_plain import problem_plain

    problems = [(p, "logs/x.log") for log in sorted(LOGS.rglob("*.log"))
                for p in replay_file(log).problems]
    assert len(problems) > 50
    for column in (None, 1, 3, 9, 40):
        for text in ("", "attack\tEindhoven \x1b[31m {d6: 4}", "\u202epass"):
            for hint in (None, "try \x07 this"):
                problems.append((Problem(ProblemKind.ILLEGAL_MOVE, "no \x1b way", line=4,
                                         column=column, text=text, rule="4.1\x9b",
                                         hint=hint), ""))
    for problem, source in problems:
        assert problem_plain(problem, source) == output.problem_text(problem, source).plain


def test_printable() -> None:
    assert output.printable("a\tb") == "a\tb"
    assert output.printable("\x1b[1m\r\x9b\u2028") == "\\x1b[1m\\x0d\\x9b\\u2028"
    assert envelope.json_text("\x9b\u202e") == '"\\u009b\\u202e"'


def test_bundled_logs_are_named_by_their_bundled_name() -> None:
    name = "bundled:battle-card/win.log"
    code, out, _ = run("replay", name)
    assert code == 0 and out.startswith(name + "  Game: battle-card")
    _, out, _ = run("replay", name, "--json")
    assert json.loads(out)["source"] == name
    _, out, _ = run("check", "bundled:battle-card/illegal.log")
    assert out.startswith("bundled:battle-card/illegal.log:")
    _, out, _ = run("status", name)
    assert f"Log:      {name}" in out
    _, out, _ = run("batch", "bundled:battle-card")
    paths = {json.loads(line)["path"] for line in out.splitlines()}
    assert name in paths and all(p.startswith("bundled:battle-card/") for p in paths)


def test_examples_prints_a_bundled_log() -> None:
    code, out, _ = run("examples", "battle-card/win.log")
    assert code == 0 and out == WIN.read_text(encoding="utf-8")
    assert run("examples", "bundled:battle-card/win")[1] == out
    code, out, err = run("examples", "battle-card/nope")
    assert code == 2 and out == "" and "'referee examples' lists them" in err


def test_check_ends_with_a_summary() -> None:
    logs = [str(LOGS / "battle-card" / name) for name in ("win.log", "pending.log")]
    code, out, _ = run("check", *logs)
    assert code == 0 and out.splitlines()[-1] == "2 logs: 2 legal"
    code, out, _ = run("check", *logs, str(LOGS / "battle-card" / "illegal.log"))
    problems = len(json.loads(run("replay", logs[0].replace("win", "illegal"), "--json")[1])[
        "problems"])
    assert code == 2 and out.splitlines()[-1] == f"3 logs: 2 legal, 1 unreadable ({problems} " \
        "problems)"


def test_check_summary_counts_problems() -> None:
    from referee.cli import check_summary  # plain words: check loads no rich for legal logs

    assert check_summary([(0, 0), (1, 3), (1, 1)]) == "3 logs: 1 legal, 2 with 4 problems"
    assert check_summary([(1, 1)]) == "1 log: 0 legal, 1 with 1 problem"


def test_a_log_from_standard_input() -> None:
    text = WIN.read_text(encoding="utf-8")
    code, out, _ = run("replay", "-", stdin=text)
    assert code == 0 and out.startswith("<stdin>") and "all legal" in out
    assert run("check", "-", stdin=text)[:2] == (0, "1 log: 1 legal\n")
    code, out, _ = run("moves", "-", "--upto", "8", stdin=text)
    assert code == 0 and "awaiting" in out
    code, out, _ = run("status", "-", stdin=text)
    assert code == 0 and "Log:      <stdin>" in out
    code, out, _ = run("verify", "-", stdin=text)
    assert code == 0 and out.startswith("<stdin>: battle-card")
    code, out, _ = run("position", "-", "--upto", "8", stdin=text)
    assert code == 0 and out.startswith('[Game "battle-card"]')
    code, _, err = run("replay", "-", stdin=b"\xff\xfe\x00junk")
    assert code == 2 and "<stdin>" in err


def test_a_log_from_standard_input_names_no_position_file() -> None:
    code, _, err = run("replay", "-", stdin='[Game "battle-card"]\n[Position "a.pos"]\n')
    assert code == 2 and "standard input has no folder" in err


def test_results_on_stdout_refusals_on_stderr(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.log")
    for args in (("replay", missing), ("moves", missing), ("position", missing),
                 ("status", missing), ("verify", missing), ("render", missing),
                 ("check", missing)):
        code, out, err = run(*args)
        assert code == 2, args
        assert "missing.log" in err, args
        assert "missing.log" not in out, args
    log = tmp_path / "game.log"
    log.write_text('[Game "battle-card"]\n[Seed "1"]\n', encoding="utf-8")
    code, out, err = run("play", str(log), "attack Nijmegen")
    assert code == 1 and out == "" and "nothing was written" in err
    code, out, err = run("play", str(log), "attack Eindhoven")
    assert code == 0 and "saved" in out and err == ""


def test_simulate_help_names_the_count() -> None:
    _, out, _ = run("simulate", "--help")
    assert "--games COUNT" in out


def test_status_groups_many_choices_to_fit_an_email() -> None:
    log = str(LOGS / "wwiic" / "opening.log")
    code, out, _ = run("status", log)
    assert code == 0
    lines = out.splitlines()
    assert len(lines) < 40 and max(len(line) for line in lines) < 120
    assert f"choices in all; 'referee moves {log}' lists every one)" in out
    assert "activate 505/82 Hengstal" in out  # each listed choice is a command (issue 29)
    assert "activate 505/82: " not in out
    assert "scenario market-garden" in out and "{'" not in out


def test_play_comments_every_command_of_a_line(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    assert run("new", "battle-card", "--seed", "5", "-o", str(log))[0] == 0
    assert run("play", str(log), "attack Eindhoven; defend Grave; attack Arnhem")[0] == 0
    last = log.read_text(encoding="utf-8").splitlines()[-1]
    comment = last.split("#", 1)[1]
    for part in ("attack at Eindhoven", "defend at Grave", "attack at Arnhem", "rolled"):
        assert part in comment
    assert comment.count(";") == 2  # one part per command
    assert run("verify", str(log))[0] == 0


def test_upto_is_not_blocked_by_problems_after_it(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_text('[Game "battle-card"]\n[Seed "1"]\nattack Eindhoven\natack Grave\n',
                   encoding="utf-8")
    code, out, _ = run("moves", str(log), "--upto", "3")
    assert code == 0 and "attack Grave" in out
    code, out, _ = run("replay", str(log), "--upto", "3")
    assert code == 0 and "all legal" in out
    assert run("replay", str(log))[0] == 2
