"""Cheating attempts on a committed game: each is found and reported with its line.

One two-secret game and one moderated game are played once (through 'referee play'); each
test edits a copy of the finished log the way a cheat would and runs 'referee verify'.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.pbem.chain import start_seal
from referee.pbem.hashchain import CURRENT_PROTOCOL, commitment_for
from referee.pbem.keys import new_secret, write_secret
from referee.pbem.table import open_text

from .helpers import action_lines, attack_then_pass, drive, run


@dataclass(frozen=True)
class Game:
    log: Path
    secrets: dict[str, Path]

    def text(self) -> str:
        return self.log.read_text()

    def copy(self, folder: Path, text: str | None = None, name: str = "cheat.log") -> Path:
        path = folder / name
        path.write_text(self.text() if text is None else text)
        return path

    def secret_args(self) -> list[str]:
        return [arg for path in self.secrets.values() for arg in ("--secret", str(path))]


@pytest.fixture(scope="module")
def two_secret(tmp_path_factory: pytest.TempPathFactory) -> Game:
    folder = tmp_path_factory.mktemp("two-secret")
    log = folder / "g.log"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    run("join", log)
    secrets = {p: folder / f"g.{p}.secret" for p in ("allied", "keeper")}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "fsync", lambda fd: None)  # dozens of writes: skip the disk flush
        drive(log, secrets.__getitem__, attack_then_pass)
    return Game(log, secrets)


@pytest.fixture(scope="module")
def moderated(tmp_path_factory: pytest.TempPathFactory) -> Game:
    folder = tmp_path_factory.mktemp("moderated")
    log = folder / "m.log"
    run("new", "battle-card", "--commit", "-o", log)
    secret = folder / "m.secret"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(os, "fsync", lambda fd: None)
        drive(log, lambda party: secret, attack_then_pass)
    return Game(log, {"moderator": secret})


def findings(game: Game, log: Path, *extra: str) -> list[dict[str, object]]:
    ran = run("verify", log, *game.secret_args(), *extra, "--json")
    data = json.loads(ran.out)
    assert ran.code == data["exit_code"]
    found: list[dict[str, object]] = data["findings"]
    return found


def lines_with(text: str, pattern: str) -> list[tuple[int, str]]:
    return [(n, line) for n, line in action_lines(text) if re.search(pattern, line)]


def replace_line(text: str, number: int, new: str) -> str:
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


def test_the_untouched_games_verify(two_secret: Game, moderated: Game) -> None:
    for game in (two_secret, moderated):
        ran = run("verify", game.log, *game.secret_args())
        assert ran.code == 0, ran.out
        assert "verdict: proved" in ran.out


@pytest.mark.parametrize("which", ["two_secret", "moderated"])
def test_an_edited_die(which: str, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    game: Game = request.getfixturevalue(which)
    number, line = lines_with(game.text(), r"attack \w+ \{d6: \d\}")[0]
    face = int(re.search(r"\{d6: (\d)\}", line).group(1))  # type: ignore[union-attr]
    edited = line.replace(f"{{d6: {face}}}", f"{{d6: {face % 6 + 1}}}")
    found = findings(game, game.copy(tmp_path, replace_line(game.text(), number, edited)))
    assert [(f["line"], f["kind"]) for f in found] == [(number, "dice-mismatch")]
    assert "changed after they were rolled" in str(found[0]["message"])


@pytest.mark.parametrize("which", ["two_secret", "moderated"])
def test_an_edited_earlier_move(which: str, request: pytest.FixtureRequest,
                                tmp_path: Path) -> None:
    """'attack Grave' made 'defend Grave' after the roll: as legal, but its seal is broken.
    (In a two-secret game its dice derive from the line too, so they differ as well, except
    one time in six: the seal is what always tells.)"""
    game: Game = request.getfixturevalue(which)
    number, line = lines_with(game.text(), r": attack Grave \{")[0]
    edited = line.replace("attack Grave", "defend Grave")
    found = findings(game, game.copy(tmp_path, replace_line(game.text(), number, edited)))
    assert found[0]["line"] == number and found[0]["kind"] == "seal-mismatch"
    assert "changed, moved or inserted after it was written" in str(found[0]["message"])


def test_an_edited_move_without_dice(two_secret: Game, tmp_path: Path) -> None:
    """A 'pass' turned into a move the rules allow: the rules cannot tell, the seal can."""
    text = two_secret.text()
    number, line = lines_with(text, r"^allied: pass ")[0]
    edited = line.replace("allied: pass", "allied: move 30-corps Belgium->Eindhoven")
    found = findings(two_secret, two_secret.copy(tmp_path, replace_line(text, number, edited)))
    assert found[0]["line"] == number and found[0]["kind"] == "seal-mismatch"


def test_a_swapped_secret(two_secret: Game, tmp_path: Path) -> None:
    """The keeper reveals another secret than the committed one at the end."""
    other = tmp_path / "other.secret"
    write_secret(other, new_secret("keeper"), "battle-card", "g.log")
    ran = run("verify", two_secret.log, "--secret", two_secret.secrets["allied"],
              "--secret", other, "--json")
    data = json.loads(ran.out)
    assert ran.code == 1
    commit_line = next(n for n, line in enumerate(two_secret.text().splitlines(), 1)
                       if line.startswith("[KeeperCommit"))
    assert [(f["line"], f["kind"]) for f in data["findings"]] == [(commit_line,
                                                                  "secret-mismatch")]
    assert "not the one Keeper committed to" in data["findings"][0]["message"]


def test_a_swapped_secret_cannot_roll(tmp_path: Path) -> None:
    """The keeper tries to roll with a secret other than the committed one: refused."""
    log = tmp_path / "g.log"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    run("join", log)
    run("play", log, "--secret", tmp_path / "g.allied.secret")
    run("play", log, "attack Eindhoven", "--secret", tmp_path / "g.allied.secret")
    other = tmp_path / "other.secret"
    write_secret(other, new_secret("keeper"), "battle-card", "g.log")
    before = log.read_text()
    ran = run("play", log, "--secret", other)
    assert ran.code == 1 and "not the one Keeper committed to" in ran.err
    assert log.read_text() == before


def test_a_swapped_commitment(two_secret: Game, tmp_path: Path) -> None:
    """The keeper puts a new commitment in the header and re-rolls every die with its new
    secret: the player's seals, made over the old header, all break from the first line."""
    text = two_secret.text()
    other = tmp_path / "other.secret"
    secret = new_secret("keeper")
    write_secret(other, secret, "battle-card", "g.log")
    swapped = commitment_for(secret, CURRENT_PROTOCOL)  # a v2 commitment: the chain's anchor
    text = re.sub(r'\[KeeperCommit "[0-9a-f]+"\]', f'[KeeperCommit "{swapped}"]', text)
    table = open_text(text, "cheat.log")  # the keeper reseals the start with its new secret
    seal = start_seal(secret.value, table.log, table.mode, "keeper")
    text = re.sub(r'\[KeeperSeal "[0-9a-f]+"\]', f'[KeeperSeal "{seal}"]', text)
    log = two_secret.copy(tmp_path, text)
    ran = run("verify", log, "--secret", two_secret.secrets["allied"], "--secret", other,
              "--json")
    data = json.loads(ran.out)
    first_action = action_lines(text)[0][0]
    assert data["findings"][0]["line"] == first_action
    assert data["findings"][0]["kind"] == "seal-mismatch"


def test_a_reordered_line(two_secret: Game, tmp_path: Path) -> None:
    """Turn 1's first two attacks swapped: both orders are legal; the chain is not."""
    text = two_secret.text()
    (a, line_a), (b, line_b) = lines_with(text, r"^allied: attack ")[:2]
    assert b == a + 1
    swapped = replace_line(replace_line(text, a, line_b), b, line_a)
    found = findings(two_secret, two_secret.copy(tmp_path, swapped))
    assert found[0]["line"] == a and found[0]["kind"] == "seal-mismatch"
    assert any(f["line"] == b and f["kind"] == "seal-mismatch" for f in found)


def test_a_replayed_old_move(two_secret: Game, tmp_path: Path) -> None:
    """Turn 1's 'pass' line, seal and all, written again in place of a later one."""
    text = two_secret.text()
    passes = lines_with(text, r"^allied: pass ")
    assert len(passes) >= 2
    (_, old), (later, _) = passes[0], passes[1]
    found = findings(two_secret, two_secret.copy(tmp_path, replace_line(text, later, old)))
    assert found[0]["line"] == later and found[0]["kind"] == "seal-mismatch"


def test_an_inserted_line_without_seal(moderated: Game, tmp_path: Path) -> None:
    text = moderated.text()
    number, _ = lines_with(text, r"^allied: pass ")[0]
    found = findings(moderated, moderated.copy(tmp_path, replace_line(text, number, "pass")))
    assert (number, "unsealed") in {(f["line"], f["kind"]) for f in found}


def test_play_refuses_a_log_whose_own_lines_were_changed(tmp_path: Path) -> None:
    """The keeper edits the player's waiting move before rolling it (to roll other dice):
    the player's next 'play' sees the broken seal at once."""
    log = tmp_path / "g.log"
    allied, keeper = tmp_path / "g.allied.secret", tmp_path / "g.keeper.secret"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    run("join", log)
    run("play", log, "--secret", allied)
    run("play", log, "attack Grave", "--secret", allied)
    number = len(log.read_text().splitlines())
    log.write_text(log.read_text().replace("allied: attack Grave", "allied: defend Grave"))
    assert run("play", log, "--secret", keeper).code == 0  # the keeper cannot tell
    ran = run("play", log, "attack Eindhoven", "--secret", allied)
    assert ran.code == 1
    assert f"line {number}: the seal does not match Allied's secret" in " ".join(ran.err.split())


def test_a_move_taken_back_after_its_dice_were_seen(tmp_path: Path) -> None:
    """The player deletes the keeper's unwelcome roll and plays another move: the log alone
    is consistent, but under protocol v2 the keeper's own next 'play' refuses to reveal the
    same chain value for another line (it remembers, beside its secret file, which line each
    value was for); the copy mailed shows it too ('--since')."""
    log = tmp_path / "g.log"
    allied, keeper = tmp_path / "g.allied.secret", tmp_path / "g.keeper.secret"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    run("join", log)
    run("play", log, "--secret", allied)
    run("play", log, "attack Grave", "--secret", allied)
    run("play", log, "--secret", keeper)
    mailed = tmp_path / "mailed.log"
    shutil.copy(log, mailed)
    rolled = len(log.read_text().splitlines())
    lines = log.read_text().splitlines()[:-1]
    log.write_text("\n".join(lines) + "\n")
    assert run("play", log, "defend Grave", "--secret", allied).code == 0
    taken_back = log.read_text()
    ran = run("play", log, "--secret", keeper)
    assert ran.code == 1 and log.read_text() == taken_back
    assert ("line 9 ('allied: defend Grave') asks for value 1 of Keeper's chain, which Keeper "
            "revealed before for another line") in " ".join(ran.err.split())

    ran = run("verify", log, "--secret", allied, "--secret", keeper, "--since", mailed,
              "--json")
    data = json.loads(ran.out)
    assert ran.code == 1
    assert [(f["line"], f["kind"]) for f in data["findings"]] == [(rolled, "rewritten")]
    assert "changed after the log was mailed" in data["findings"][0]["message"]
    # An honest reply only adds to the mailed copy.
    ran = run("verify", mailed, "--since", mailed)
    assert ran.code == 0 and "only adds to" in ran.out


def test_not_checked_counts_only_the_lines_with_dice(tmp_path: Path) -> None:
    """With only the player's secret, the keeper's dice are proved by its chain (protocol v2),
    counting the lines whose dice the keeper rolled (three attacks), not the 'pass' that
    rolled none."""
    log = tmp_path / "g.log"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    run("join", log)
    allied, keeper = ("--secret", tmp_path / "g.allied.secret"), ("--secret",
                                                                   tmp_path / "g.keeper.secret")
    assert run("play", log, *allied).code == 0
    for move in ("attack Eindhoven", "defend Grave", "attack Arnhem"):
        assert run("play", log, move, *allied).code == 0
        assert run("play", log, *keeper).code == 0
    assert run("play", log, "pass", *allied).code == 0
    ran = run("verify", log, *allied)
    assert ran.code == 0
    assert "the dice of 3 lines rolled by Keeper follow Keeper's committed chain" in ran.out
