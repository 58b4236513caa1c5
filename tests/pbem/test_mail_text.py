"""The mail's text: at most 72 columns, wrapped and never cut, nothing a mail client rewrites
(issue 29); the command wrapped so that it runs as written; ``--board`` beside the log; a
refused move lists the legal moves; ``play`` ends with who is next and what they run."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from referee.core.mail import MAIL_WIDTH, mail_safe, wrap, wrap_command

from .helpers import run


def test_a_long_line_is_wrapped_never_cut() -> None:
    text = " ".join(f"word{n}" for n in range(200)) + " " + "x" * 150
    lines = wrap(text, "  ")
    assert all(len(line) <= MAIL_WIDTH for line in lines)
    assert "".join(line.strip() + " " for line in lines).replace(" ", "") == text.replace(
        " ", "")


def test_no_line_starts_as_a_quote_or_an_mbox_from() -> None:
    assert mail_safe("> quoted") == " > quoted"
    assert mail_safe("From here") == " From here"
    assert mail_safe("from here") == "from here"
    for line in wrap("a " * 30 + "From the bridge >x " * 10):
        assert not line.startswith((">", "From "))


def test_a_wrapped_command_runs_as_written() -> None:
    move = "german: invade Zon from Eindhoven: 1 art from Best: 2 inf from Son: 1 tank joker"
    command = f'referee play game.log "{move}" --secret game.german.secret'
    lines = wrap_command(command)
    assert len(lines) > 1 and all(len(line) <= MAIL_WIDTH for line in lines)
    assert all(line.endswith(" \\") for line in lines[:-1])
    words = shlex.split("\n".join(lines).replace("\\\n", ""))
    assert words[:3] == ["referee", "play", "game.log"]
    assert " ".join(words[3].split()) == move  # the spaces a break adds read as one
    assert words[4:] == ["--secret", "game.german.secret"]


def test_a_word_longer_than_a_line_is_split_with_a_continuation() -> None:
    path = "->".join(f"{n:04d}" for n in range(30))
    lines = wrap_command(f'referee play game.log "allied: move 1/506 {path}"')
    assert all(len(line) <= MAIL_WIDTH for line in lines)
    words = shlex.split("\n".join(lines).replace("\\\n", ""))
    assert " ".join(words[3].split()) == f"allied: move 1/506 {path}"


@pytest.mark.usefixtures("fast_disk")
def test_the_board_is_written_beside_the_log_never_over_a_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("new", "battle-card", "--seed", "5", "-o", "game.log").code == 0
    ran = run("mail", "game.log", "--board", "board.svg")
    assert ran.code == 0, ran.err
    assert "<svg " in (tmp_path / "board.svg").read_text()
    assert "Board: board.svg (attached)" in ran.out
    again = run("mail", "game.log", "--board", "board.svg")
    assert again.code == 2 and "exists already" in again.err
    assert run("mail", "game.log", "--board", "game.log").code == 2
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    ran = run("mail", "game.log", "--board", elsewhere / "b.svg")
    assert ran.code == 2 and "beside the log" in ran.err


@pytest.mark.usefixtures("fast_disk")
def test_play_says_who_is_next_and_what_they_run_after_a_pass_and_a_roll(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: "After every play, one line says who is next and what they run (also after a
    pass that hands the turn over, and after a roll)"."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "battle-card", "--commit", "--side", "allied", "-o", "game.log").code == 0
    assert run("join", "game.log").code == 0
    ran = run("play", "game.log", "allied: attack Eindhoven", "--secret",
              "game.allied.secret")
    assert ran.code == 0, ran.err
    assert ("mail game.log to Keeper, who runs: referee play game.log --secret "
            "game.keeper.secret") in ran.out
    ran = run("play", "game.log", "--secret", "game.keeper.secret")  # the roll
    assert ran.code == 0, ran.err
    assert "mail game.log to Allied, who runs: referee play game.log \"allied: MOVE\" " \
           "--secret game.allied.secret" in ran.out


@pytest.mark.usefixtures("fast_disk")
def test_a_move_out_of_turn_is_refused_with_the_legal_moves(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: "A refused move lists the legal alternatives, as replay does"."""
    monkeypatch.chdir(tmp_path)
    assert run("new", "battle-card", "--seed", "5", "-o", "game.log").code == 0
    ran = run("play", "game.log", "allied: attack Nijmegen")
    assert ran.code == 1
    assert "legal here: attack Eindhoven; defend Eindhoven" in ran.err


@pytest.mark.usefixtures("fast_disk")
def test_in_a_moderated_game_the_move_goes_to_the_moderator(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("new", "battle-card", "--commit", "-o", "game.log").code == 0
    ran = run("mail", "game.log")
    assert ran.code == 0, ran.err
    assert "the moderator's seals are proved when the secret is published" in " ".join(
        ran.out.split())
    assert "referee play game.log --secret game.secret" in ran.out  # the opening airdrop
    assert run("play", "game.log", "--secret", "game.secret").code == 0
    ran = run("mail", "game.log")
    assert "Allied mails the move to the moderator, who runs" in " ".join(ran.out.split())
    assert 'referee play game.log "allied: MOVE" --secret game.secret' in ran.out


@pytest.mark.usefixtures("fast_disk")
def test_with_a_secret_the_mail_proves_that_sides_seals(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("new", "battle-card", "--commit", "--side", "allied", "-o", "game.log").code == 0
    assert run("join", "game.log").code == 0
    assert run("play", "game.log", "attack Eindhoven", "--secret", "game.allied.secret").code == 0
    ran = run("mail", "game.log", "--secret", "game.allied.secret")
    assert ran.code == 0, ran.err
    assert "the seals of Allied are good" in " ".join(ran.out.split())


def test_a_tabletop_log_asks_for_the_dice_rolled_at_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("new", "battle-card", "-o", "t.log").code == 0
    ran = run("mail", "t.log")
    assert ran.code == 0, ran.err
    assert "the dice are those the table recorded (nothing proves them)" in " ".join(
        ran.out.split())
    assert 'referee play t.log "airdrop {dN: ...}"' in ran.out


def test_the_mailed_command_runs_as_written_in_a_real_shell(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command block of a mail, pasted into bash as it stands (continuation lines and
    all), plays the move."""
    import os
    import subprocess
    import sys

    monkeypatch.chdir(tmp_path)
    assert run("new", "battle-card", "--commit", "--side", "allied", "-o", "game.log").code == 0
    assert run("join", "game.log").code == 0
    assert run("play", "game.log", "--secret", "game.allied.secret").code == 0  # the airdrop
    body = run("mail", "game.log").out
    lines = body.splitlines()
    start = lines.index("For example:") + 1
    block = []
    for line in lines[start:]:
        block.append(line)
        if not line.endswith("\\"):
            break
    assert len(block) > 1, body  # the example is wrapped: the shell must join it
    before = (tmp_path / "game.log").read_text()
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    done = subprocess.run(["bash", "-c", "\n".join(block)], cwd=tmp_path, timeout=60,
                          env={**os.environ, "PATH": path}, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    after = (tmp_path / "game.log").read_text()
    assert after != before and after.startswith(before.rstrip("\n").rsplit("\n", 1)[0])


@pytest.mark.usefixtures("fast_disk")
def test_play_says_who_is_next_after_a_pass(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A `pass` (Battle Card's movement step: "no Allied movement this turn") ends with the
    next line too."""
    from .helpers import status

    monkeypatch.chdir(tmp_path)
    assert run("new", "battle-card", "--seed", "5", "-o", "game.log").code == 0
    for _ in range(20):
        step = status(Path("game.log"))["next"]
        assert isinstance(step, dict)
        choices = list(step["choices"])
        if "pass" in choices:
            ran = run("play", "game.log", "pass")
            assert ran.code == 0, ran.err
            assert 'Allied runs: referee play game.log "allied: ' in ran.out, ran.out
            return
        assert run("play", "game.log", choices[0]).code == 0
    raise AssertionError("no pass was offered")
