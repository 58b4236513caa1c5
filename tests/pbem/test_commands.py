"""'referee play', 'undo', 'status', 'new --commit' and 'join': behaviour and bad input.

Every bad input gets a sentence and exit code 2 (1 where the rules or the protocol refuse);
never a traceback.
"""

from __future__ import annotations

import json
import re
import stat
from pathlib import Path

import pytest

from ..conftest import LOGS
from .helpers import run

SEEDED = '[Game "battle-card"]\n[Dice "v1"]\n[Seed "pbem"]\n'


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    log = tmp_path / "game.log"
    log.write_text(SEEDED)
    return log


@pytest.fixture
def two_secret(tmp_path: Path) -> Path:
    """A two-secret game after the opening airdrop: the player is to move."""
    log = tmp_path / "g.log"
    assert run("new", "battle-card", "--commit", "--side", "allied", "-o", log).code == 0
    assert run("join", log).code == 0
    assert run("play", log, "--secret", tmp_path / "g.allied.secret").code == 0
    return log


# -- play ----------------------------------------------------------------------------------

def test_play_writes_the_chance_steps_and_the_move_with_its_dice(seeded: Path) -> None:
    ran = run("play", seeded, "attack eindhoven")
    assert ran.code == 0, ran.err
    lines = seeded.read_text().splitlines()
    assert re.fullmatch(r"airdrop \{d6: \d \d \d\}  # 101st lands at Eindhoven: .*", lines[3])
    assert re.fullmatch(r"allied: attack Eindhoven \{d6: \d\}  # attack at Eindhoven: .*",
                        lines[4])
    assert "next: awaiting Allied: attack or defend at" in ran.out
    assert run("verify", seeded).code == 0


def test_an_illegal_move_changes_nothing_and_says_why(seeded: Path) -> None:
    run("play", seeded, "attack Eindhoven")
    before = seeded.read_text()
    ran = run("play", seeded, "move 30-corps Belgium->Eindhoven")
    assert ran.code == 1 and ran.out == ""  # a refusal goes to standard error
    assert "illegal [Turn step 1]" in ran.err
    assert "legal here: attack Grave; defend Grave" in ran.err
    assert "nothing was written" in ran.err
    assert seeded.read_text() == before


def test_a_new_turn_is_announced_after_its_chance_steps(seeded: Path) -> None:
    for move in ("attack Eindhoven", "attack Grave", "attack Arnhem", "pass"):
        assert run("play", seeded, move).code == 0
    text = seeded.read_text()
    assert re.search(r"allied: pass  # no Allied movement this turn\nlanding \{d6: \d\}.*\n"
                     r"turn 2\n$", text)


def test_play_on_a_finished_game_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    log.write_text((LOGS / "battle-card" / "tabletop.log").read_text())
    assert "the game is over" in run("status", log).out
    ran = run("play", log, "pass")
    assert ran.code == 1 and "the game is over" in ran.err


@pytest.mark.parametrize(("move", "message"), [
    ("turn 3", "is not a move"),
    ("attack Eindhoven {d6: 4}", "the referee rolls the dice in this game"),
    ("attack Eindhoven # mine", "leave the comment out"),
    ("attack Eindhovn", "did you mean 'Eindhoven'"),
    ("landing", "is a roll the referee makes"),
])
def test_moves_that_cannot_be_played(seeded: Path, move: str, message: str) -> None:
    run("play", seeded, "attack Eindhoven")
    before = seeded.read_text()
    ran = run("play", seeded, move)
    assert ran.code in (1, 2)
    assert message in " ".join((ran.out + ran.err).split())
    assert "Traceback" not in ran.out + ran.err
    assert seeded.read_text() == before


def test_a_table_log_takes_the_dice_from_the_move(tmp_path: Path) -> None:
    log = tmp_path / "table.log"
    log.write_text('[Game "battle-card"]\n')
    ran = run("play", log, "attack Eindhoven")
    assert ran.code == 1 and "rolled at the table: 'airdrop {dN: ...}'" in " ".join(
        ran.err.split())
    assert run("play", log, "airdrop {d6: 6 6 6}").code == 0
    assert run("play", log, "attack Eindhoven {d6: 5}").code == 0
    ran = run("play", log, "defend Grave")
    assert ran.code == 1 and "write the dice rolled at the table" in ran.err


def test_a_moderated_move_needs_the_moderator(tmp_path: Path) -> None:
    log = tmp_path / "m.log"
    run("new", "battle-card", "--commit", "-o", log)
    ran = run("play", log, "attack Eindhoven")
    assert ran.code == 2 and "first the moderator must roll" in " ".join(ran.err.split())
    assert run("play", log, "--secret", tmp_path / "m.secret").code == 0
    ran = run("play", log, "attack Eindhoven")
    assert ran.code == 2
    assert "the moderator writes every line" in " ".join(ran.err.split())
    # A player may still check a move: it is legal, and its dice await the moderator.
    ran = run("play", log, "attack Eindhoven", "--dry-run")
    assert ran.code == 0 and "awaiting the moderator's dice" in ran.out


# -- undo ----------------------------------------------------------------------------------

def test_undo_takes_back_a_move_whose_dice_are_not_rolled(two_secret: Path) -> None:
    allied = two_secret.parent / "g.allied.secret"
    before = two_secret.read_text()
    assert run("play", two_secret, "attack Grave", "--secret", allied).code == 0
    ran = run("undo", two_secret, "--secret", allied)
    assert ran.code == 0 and "removed: allied: attack Grave" in ran.out
    assert two_secret.read_text() == before


def test_undo_is_refused_after_dice(two_secret: Path, seeded: Path) -> None:
    ran = run("undo", two_secret, "--secret", two_secret.parent / "g.allied.secret")
    assert ran.code == 1 and "rolled dice" in ran.err
    run("play", seeded, "attack Eindhoven")
    before = seeded.read_text()
    ran = run("undo", seeded)
    assert ran.code == 1 and "never taken back once its dice are rolled" in " ".join(
        ran.err.split())
    assert seeded.read_text() == before


def test_undo_of_another_sides_line_is_refused(two_secret: Path) -> None:
    folder = two_secret.parent
    run("play", two_secret, "attack Grave", "--secret", folder / "g.allied.secret")
    ran = run("undo", two_secret, "--secret", folder / "g.keeper.secret")
    assert ran.code == 2 and "only Allied can take it back" in " ".join(ran.err.split())


def test_undo_with_nothing_to_undo(seeded: Path) -> None:
    ran = run("undo", seeded)
    assert ran.code == 1 and "there is no move to take back" in ran.err


# -- status --------------------------------------------------------------------------------

def test_status_is_plain_text_for_an_email(two_secret: Path) -> None:
    ran = run("status", two_secret)
    assert ran.code == 0
    assert "\x1b" not in ran.out  # no colour codes
    assert not any("\u2500" <= ch <= "\u257f" for ch in ran.out)  # no box drawing
    assert "Game:     Battle Card: Market Garden (battle-card)" in ran.out
    assert "Turn:     1 of 6, combat" in ran.out
    assert "Next:     awaiting Allied: attack or defend at" in ran.out
    assert "Choices:  attack Eindhoven\n          defend Eindhoven\n" in ran.out
    assert "Result:   in progress" in ran.out
    data = json.loads(run("status", two_secret, "--json").out)
    assert data["next"]["kind"] == "move" and data["next"]["party"] == "allied"


def test_status_names_the_awaited_roll(two_secret: Path) -> None:
    run("play", two_secret, "attack Grave", "--secret", two_secret.parent / "g.allied.secret")
    out = run("status", two_secret).out
    assert re.search(r"Next: +awaiting Keeper: roll the dice of line \d+ "
                     r"\(allied: attack Grave\)", out)


def test_status_reports_problems(tmp_path: Path) -> None:
    log = tmp_path / "bad.log"
    log.write_text(SEEDED + "move 30-corps Arnhem\n")
    ran = run("status", log)
    assert ran.code == 1 and "Problems: 1" in ran.out and "illegal-move [Turn" in ran.out


# -- new --commit and join -------------------------------------------------------------------

def test_new_commit_writes_only_the_commitment(tmp_path: Path) -> None:
    log = tmp_path / "m.log"
    ran = run("new", "battle-card", "--commit", "-o", log)
    assert ran.code == 0
    secret = (tmp_path / "m.secret")
    value = secret.read_text().split()[-1]
    assert value not in log.read_text()
    assert re.search(r'\[SeedCommit "[0-9a-f]{64}"\]', log.read_text())
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    # Never over a file.
    ran = run("new", "battle-card", "--commit", "-o", log)
    assert ran.code == 2 and "exists already" in ran.err


def test_new_commit_to_standard_output_needs_a_secret_file(tmp_path: Path) -> None:
    ran = run("new", "battle-card", "--commit")
    assert ran.code == 2 and "--secret-out" in ran.err
    secret = tmp_path / "s.secret"
    ran = run("new", "battle-card", "--commit", "--secret-out", secret)
    assert ran.code == 0 and ran.out.startswith('[Game "battle-card"]') and secret.exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--commit", "--side", "german"], "'german' is not a side of battle-card"),
    (["--commit", "--seed", "1"], "keeps its seed secret"),
    (["--side", "allied"], "--side, --secret-out and --position go with --commit"),
])
def test_new_commit_bad_options(tmp_path: Path, args: list[str], message: str) -> None:
    ran = run("new", "battle-card", *args, "-o", tmp_path / "x.log")
    assert ran.code == 2 and message in ran.out + ran.err
    assert not (tmp_path / "x.log").exists()


def test_join_refusals(tmp_path: Path, two_secret: Path, seeded: Path) -> None:
    ran = run("join", two_secret)
    assert ran.code == 1 and "has moves already" in ran.err
    joined = tmp_path / "joined.log"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", joined)
    run("join", joined)
    ran = run("join", joined)
    assert ran.code == 1 and "every party of" in ran.err
    ran = run("join", seeded)
    assert ran.code == 1 and "not a two-secret game" in ran.err
    log = tmp_path / "late.log"
    run("new", "battle-card", "--commit", "--side", "keeper", "-o", log)
    log.write_text(log.read_text() + "attack Eindhoven\n")
    ran = run("join", log)
    assert ran.code == 1 and "has moves already" in ran.err


def test_play_before_the_other_side_joined(tmp_path: Path) -> None:
    log = tmp_path / "g.log"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    ran = run("play", log, "--secret", tmp_path / "g.allied.secret")
    assert ran.code == 2 and "referee join LOG --side keeper" in " ".join(ran.err.split())


# -- bad files -----------------------------------------------------------------------------

def test_bad_files_are_sentences(tmp_path: Path, two_secret: Path, seeded: Path) -> None:
    garbage = tmp_path / "garbage.secret"
    garbage.write_text("hello\n")
    binary = tmp_path / "binary.secret"
    binary.write_bytes(b"\xff\xfe\x00")
    other = tmp_path / "other"
    other.mkdir()
    run("new", "battle-card", "--commit", "-o", other / "o.log")
    cases = [
        (["play", tmp_path / "missing.log", "pass"], "there is no log"),
        (["status", tmp_path], "is a folder, not a log"),
        (["play", two_secret, "--secret", tmp_path / "missing.secret"], "there is no secret"),
        (["play", two_secret, "--secret", garbage], "is not a secret file"),
        (["play", two_secret, "--secret", binary], "is not a secret file"),
        (["play", seeded, "--secret", other / "o.secret"], "is not a committed game"),
        (["verify", two_secret, "--secret", garbage], "is not a secret file"),
        (["render", tmp_path / "missing.log"], "there is no log"),
    ]
    for args, message in cases:
        ran = run(*args)
        assert ran.code == 2, (args, ran.out, ran.err)
        assert message in " ".join(ran.err.split()), (args, ran.err)
        assert "Traceback" not in ran.err


def test_a_secret_that_does_not_match_is_refused_by_the_protocol(tmp_path: Path,
                                                                 two_secret: Path) -> None:
    """Exit 1 (as verify's 'secret-mismatch'): a secret of no party of the log, or another
    secret than the committed one.  A file that is no secret at all is exit 2 (above)."""
    other = tmp_path / "other"
    other.mkdir()
    run("new", "battle-card", "--commit", "-o", other / "o.log")
    ran = run("play", two_secret, "--secret", other / "o.secret")
    assert ran.code == 1 and "this log has no [SeedCommit]" in " ".join(ran.err.split())
    ran = run("verify", two_secret, "--secret", other / "o.secret", "--json")
    assert ran.code == 1 and json.loads(ran.out)["findings"][0]["kind"] == "secret-mismatch"


def test_status_exit_codes_agree_with_replay(tmp_path: Path) -> None:
    """A line that cannot be read is exit 2 for status as for replay, check and verify."""
    cases = {
        "syntax.log": ('[Game "battle-card"]\n[Seed "1"]\nairdrop\nfoo bar baz\n', 2),
        "position.log": ('[Game "battle-card"]\n[Position "missing.pos"]\n', 2),
        "fine.log": ('[Game "battle-card"]\n[Seed "1"]\nattack Eindhoven\n', 0),
    }
    for name, (text, code) in cases.items():
        log = tmp_path / name
        log.write_text(text)
        for command in ("status", "replay", "check", "verify"):
            assert run(command, log).code == code, (name, command)
        assert json.loads(run("status", log, "--json").out)["exit_code"] == code


def test_a_log_for_no_pbem_game(tmp_path: Path, engineless: str) -> None:
    log = tmp_path / "x.log"
    log.write_text(f'[Game "{engineless}"]\n')
    ran = run("status", log)
    assert ran.code == 2 and "not implemented yet" in ran.err
    log.write_text('[Game "battle-card"]\n[Seed "1"]\n[SeedCommit "' + "0" * 64 + '"]\n')
    ran = run("status", log)
    assert ran.code == 2 and "both a public [Seed] and a commitment" in ran.err
    log.write_text('[Game "battle-card"]\n[GermanCommit "' + "0" * 64 + '"]\n')
    ran = run("play", log, "pass")
    assert ran.code == 2 and "[GermanCommit] is the commitment of no side" in ran.err
