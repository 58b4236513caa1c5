"""Whole Battle Card games played only through 'referee play', then verified.

Moderated: the moderator's secret rolls every die.  Two-secret: Battle Card is solitaire, so
its two parties are the player (allied) and a dice keeper (keeper) who rolls the player's
dice and never moves (docs/pbem.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.parsing import find_game
from referee.pbem.keys import read_secret

from .helpers import action_lines, drive, run, status


@pytest.mark.usefixtures("fast_disk")
def test_a_moderated_game_played_through_play_then_verified(tmp_path: Path) -> None:
    log, secret = tmp_path / "game.log", tmp_path / "game.secret"
    ran = run("new", "battle-card", "--commit", "-o", log)
    assert ran.code == 0, ran.err
    assert secret.exists() and "SeedCommit" in log.read_text()
    assert read_secret(secret).value not in log.read_text()

    plays = drive(log, lambda party: secret)
    assert plays > 5
    text = log.read_text()
    assert find_game(text.splitlines()) == "battle-card"
    assert status(log)["next"]["kind"] == "over"  # type: ignore[index]
    for number, line in action_lines(text):
        assert "[seal " in line, f"line {number} is not sealed: {line}"

    ran = run("verify", log, "--secret", secret)
    assert ran.code == 0, ran.out
    assert "verdict: proved" in ran.out
    assert "the moderator's secret is the one committed in [SeedCommit]" in ran.out

    # Without the secret nothing is wrong, and under protocol v2 the dice are proved all the
    # same (the moderator's chain values are in the log); only the seals wait for the secret.
    ran = run("verify", log)
    assert ran.code == 0
    assert "not checked: the moderator's seals" in ran.out
    assert "rolled by the moderator follow the moderator's committed chain" in ran.out
    # (A v1 moderated log replays with 'replay --seed SECRET': tests/pbem/test_v2.py.)


@pytest.mark.usefixtures("fast_disk")
def test_a_two_secret_game_played_through_play_then_verified(tmp_path: Path) -> None:
    log = tmp_path / "game.log"
    allied, keeper = tmp_path / "game.allied.secret", tmp_path / "game.keeper.secret"
    assert run("new", "battle-card", "--commit", "--side", "allied", "-o", log).code == 0
    assert status(log)["next"]["kind"] == "join"  # type: ignore[index]
    assert run("join", log).code == 0
    assert allied.exists() and keeper.exists()

    secrets = {"allied": allied, "keeper": keeper}
    rolls = 0

    def secret_of(party: str) -> Path:
        nonlocal rolls
        rolls += party == "keeper"
        return secrets[party]

    drive(log, secret_of)
    assert rolls > 3  # the keeper rolled the player's dice, e-mail after e-mail
    text = log.read_text()
    assert "awaiting" not in text  # every roll was filled in

    ran = run("verify", log, "--secret", allied, "--secret", keeper)
    assert ran.code == 0, ran.out
    assert "verdict: proved" in ran.out
    assert "Keeper's secret is the one committed in [KeeperCommit]" in ran.out

    # Mid-game, each side can check only its own part: the verdict says what is unproved.
    ran = run("verify", log, "--secret", allied)
    assert ran.code == 0
    assert "not checked: Keeper's seals" in ran.out


def test_two_secret_flow_step_by_step(tmp_path: Path) -> None:
    """Who holds the log after each play, and what the log says in between."""
    log = tmp_path / "g.log"
    allied, keeper = tmp_path / "g.allied.secret", tmp_path / "g.keeper.secret"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    run("join", log)

    # The opening airdrop is rolled by the party that committed first (allied).
    ran = run("play", log, "--secret", allied)
    assert ran.code == 0 and "airdrop {d6:" in ran.out
    # The keeper cannot move for the player.
    ran = run("play", log, "attack Eindhoven", "--secret", keeper)
    assert ran.code == 2 and "sealed with Allied's secret" in ran.err

    ran = run("play", log, "allied: attack Eindhoven", "--secret", allied)
    assert ran.code == 0
    assert "awaiting Keeper: roll the dice of line" in ran.out
    last = log.read_text().splitlines()[-1]
    assert last.startswith("allied: attack Eindhoven  # awaiting Keeper's dice [seal ")

    # Nobody moves before the keeper rolls.
    ran = run("play", log, "attack Grave", "--secret", allied)
    assert ran.code == 2 and "waits for Keeper's dice" in ran.err
    assert run("status", log).out.count("awaiting Keeper: roll the dice") == 1

    ran = run("play", log, "--secret", keeper)
    assert ran.code == 0 and "(rolled)" in ran.out
    last = log.read_text().splitlines()[-1]
    assert last.startswith("allied: attack Eindhoven {d6: ")
    assert "awaiting" not in last and "[seal " in last
