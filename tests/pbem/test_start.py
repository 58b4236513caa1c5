"""The start of a committed game is sealed: a setup line, a tag that decides the game or a
position file changed after a party committed is a named cheat ('start-changed'), found by
the other party's next 'play', by 'verify' with its secret, by 'verify --since' against the
copy it mailed, and by the final 'verify' with both secrets."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from referee.pbem.chain import start_seal, start_seal_tag
from referee.pbem.keys import read_secret
from referee.pbem.table import open_text

from .helpers import run

CHANGED = "the starting position was changed after it was sealed"
BC_SETUP = ("setup: place 101st Eindhoven strength 6; place 82nd Grave strength 6; "
            "place 1st Arnhem strength 6; german Arnhem removed; control Arnhem allied")
BC_POSITION = (
    '[Game "battle-card"]\n'
    "setup: turn 3; step movement; box clear; corps Grave\n"
    "setup: place 82nd Grave strength 4; remove 1st; german Grave removed; control Grave allied\n"
)


def reseal(log: Path, secret_file: Path) -> None:
    """What a cheat does after editing the start: remake its own seal over it (it has its
    secret), so only the other party's seal shows the change."""
    secret = read_secret(secret_file)
    text = log.read_text()
    table = open_text(text, str(log), path=log)
    seal = start_seal(secret.value, table.log, table.mode, secret.party)
    tag = start_seal_tag(secret.party)
    log.write_text(re.sub(rf'\[{tag} "[0-9a-f]+"\]', f'[{tag} "{seal}"]', text))


def insert_after_header(log: Path, line: str) -> None:
    lines = log.read_text().splitlines()
    last_tag = max(i for i, text in enumerate(lines) if text.startswith("["))
    lines.insert(last_tag + 1, line)
    log.write_text("\n".join(lines) + "\n")


def findings(log: Path, *args: str | Path) -> tuple[int, list[dict[str, object]]]:
    ran = run("verify", log, *args, "--json")
    data = json.loads(ran.out)
    assert ran.code == data["exit_code"]
    return ran.code, data["findings"]


def assert_caught(log: Path, mailed: Path, victim: str, secrets: dict[str, Path],
                  victim_play: list[str]) -> None:
    """The four places a changed start is found."""
    before = log.read_bytes()
    ran = run("play", log, *victim_play, "--secret", secrets[victim])
    assert ran.code == 1, ran.out + ran.err
    assert CHANGED in " ".join(ran.err.split())
    assert log.read_bytes() == before
    code, found = findings(log, "--secret", secrets[victim])
    assert code == 1 and found[0]["kind"] == "start-changed"
    assert CHANGED in str(found[0]["message"])
    code, found = findings(log, "--since", mailed)
    assert code == 1 and any(f["kind"] == "rewritten" for f in found), found
    both = [arg for path in secrets.values() for arg in ("--secret", str(path))]
    code, found = findings(log, *both)
    assert code == 1 and any(f["kind"] == "start-changed" for f in found)


def test_battle_card_setup_added_after_join(tmp_path: Path) -> None:
    """The player adds all units at strength 6 and Arnhem Allied after the keeper joined,
    reseals its own seal, and plays its first move."""
    log = tmp_path / "g.log"
    assert run("new", "battle-card", "--commit", "--side", "allied", "-o", log).code == 0
    assert run("join", log).code == 0
    secrets = {p: tmp_path / f"g.{p}.secret" for p in ("allied", "keeper")}
    mailed = tmp_path / "mailed.log"
    shutil.copy(log, mailed)  # the keeper keeps the log it mailed back
    insert_after_header(log, BC_SETUP)
    reseal(log, secrets["allied"])
    ran = run("play", log, "attack Eindhoven", "--secret", secrets["allied"])
    assert ran.code == 0, ran.err
    assert_caught(log, mailed, "keeper", secrets, [])


def test_battle_card_setup_added_in_the_middle_of_a_game(tmp_path: Path) -> None:
    """Added later, after moves: the line is out of place for the rules too, and the start
    seals show it as a changed start."""
    log = tmp_path / "g.log"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    run("join", log)
    secrets = {p: tmp_path / f"g.{p}.secret" for p in ("allied", "keeper")}
    assert run("play", log, "--secret", secrets["allied"]).code == 0  # the airdrop
    assert run("play", log, "attack Eindhoven", "--secret", secrets["allied"]).code == 0
    assert run("play", log, "--secret", secrets["keeper"]).code == 0
    mailed = tmp_path / "mailed.log"
    shutil.copy(log, mailed)
    insert_after_header(log, "setup: control Arnhem allied")
    reseal(log, secrets["allied"])
    ran = run("play", log, "--secret", secrets["keeper"])
    assert ran.code == 1
    code, found = findings(log, "--since", mailed)
    assert code == 1 and any("starting position was changed" in str(f["message"])
                             for f in found)
    code, found = findings(log, "--secret", secrets["keeper"])
    assert any(f["kind"] == "start-changed" for f in found)


def test_wwiic_setup_added_by_the_joiner(tmp_path: Path) -> None:
    """German joins, then writes 'setup: eliminated 1P/1AB' into the start and reseals its
    own seal: the Allied seal, made before, shows it at Allied's first play."""
    log = tmp_path / "g.log"
    run("new", "wwiic", "--commit", "--side", "allied", "-o", log)
    mailed = tmp_path / "mailed.log"
    shutil.copy(log, mailed)  # Allied keeps the header it mailed
    assert run("join", log).code == 0
    secrets = {p: tmp_path / f"g.{p}.secret" for p in ("allied", "german")}
    insert_after_header(log, "setup: eliminated 1P/1AB")
    reseal(log, secrets["german"])
    status = json.loads(run("status", log, "--json").out)
    move = status["next"]["choices"][0]
    assert_caught(log, mailed, "allied", secrets, [move])


def test_a_tag_that_decides_the_game_is_sealed(tmp_path: Path) -> None:
    """An unknown tag counts (it might decide something); the scenario certainly does."""
    log = tmp_path / "g.log"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    run("join", log)
    secrets = {p: tmp_path / f"g.{p}.secret" for p in ("allied", "keeper")}
    mailed = tmp_path / "mailed.log"
    shutil.copy(log, mailed)
    insert_after_header(log, '[Foo "7"]')
    reseal(log, secrets["allied"])
    assert run("play", log, "--secret", secrets["allied"]).code == 0
    assert_caught(log, mailed, "keeper", secrets, ["--dry-run"])


def test_the_moderators_start_is_sealed(tmp_path: Path) -> None:
    """The moderator adds a setup line after the players received the header: the final
    verify with the published secret names it, and the players' copies show it at once."""
    log = tmp_path / "m.log"
    run("new", "battle-card", "--commit", "-o", log)
    secret = tmp_path / "m.secret"
    mailed = tmp_path / "mailed.log"
    shutil.copy(log, mailed)
    insert_after_header(log, BC_SETUP)
    reseal(log, secret)  # the moderator's own seal can be remade: the copies still differ
    assert run("play", log, "attack Eindhoven", "--secret", secret).code == 0
    code, found = findings(log, "--since", mailed)
    assert code == 1 and any("starting position was changed" in str(f["message"])
                             for f in found)
    # Not resealed: the published secret shows it.
    log2 = tmp_path / "m2.log"
    shutil.copy(mailed, log2)
    shutil.copy(secret, tmp_path / "m2.secret")
    insert_after_header(log2, BC_SETUP)
    code, found = findings(log2, "--secret", secret)
    assert code == 1 and found[0]["kind"] == "start-changed"


@pytest.fixture
def position_game(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    (tmp_path / "start.pos").write_text(BC_POSITION)
    log = tmp_path / "g.log"
    ran = run("new", "battle-card", "--commit", "--side", "allied", "-o", log,
              "--position", tmp_path / "start.pos")
    assert ran.code == 0, ran.err
    assert "[PositionSha256 " in log.read_text()
    assert run("join", log).code == 0
    secrets = {p: tmp_path / f"g.{p}.secret" for p in ("allied", "keeper")}
    return log, secrets


def test_a_position_file_is_applied_and_sealed(position_game: tuple[Path, dict[str, Path]]
                                               ) -> None:
    log, secrets = position_game
    status = json.loads(run("status", log, "--json").out)
    assert status["next"]["kind"] == "move"  # turn 3, movement: no airdrop
    assert run("play", log, "pass", "--secret", secrets["allied"]).code == 0
    both = [a for p in secrets.values() for a in ("--secret", str(p))]
    assert run("verify", log, *both).code == 0


def test_a_position_file_changed_after_it_was_sealed(
        position_game: tuple[Path, dict[str, Path]], tmp_path: Path) -> None:
    log, secrets = position_game
    assert run("play", log, "pass", "--secret", secrets["allied"]).code == 0
    mailed_folder = tmp_path / "mailed"
    mailed_folder.mkdir()
    mailed = mailed_folder / "g.log"
    shutil.copy(log, mailed)
    shutil.copy(tmp_path / "start.pos", mailed_folder / "start.pos")
    (tmp_path / "start.pos").write_text(BC_POSITION.replace("strength 4", "strength 3"))
    # Anyone's play sees it: the file's SHA-256 is not the sealed one.
    ran = run("play", log, "--dry-run")
    assert ran.code == 1 and CHANGED in " ".join(ran.err.split())
    assert_caught(log, mailed, "keeper", secrets, [])


def test_a_position_file_and_its_digest_changed(
        position_game: tuple[Path, dict[str, Path]], tmp_path: Path) -> None:
    """The cheat also rewrites [PositionSha256] and reseals its own seal: the other seal and
    the mailed copy show it."""
    import hashlib

    log, secrets = position_game
    mailed_folder = tmp_path / "mailed"
    mailed_folder.mkdir()
    mailed = mailed_folder / "g.log"
    shutil.copy(log, mailed)
    shutil.copy(tmp_path / "start.pos", mailed_folder / "start.pos")
    changed = BC_POSITION.replace("strength 4", "strength 3")
    (tmp_path / "start.pos").write_text(changed)
    digest = hashlib.sha256(changed.encode()).hexdigest()
    log.write_text(re.sub(r'\[PositionSha256 "[0-9a-f]+"\]', f'[PositionSha256 "{digest}"]',
                          log.read_text()))
    reseal(log, secrets["allied"])
    assert run("play", log, "pass", "--secret", secrets["allied"]).code == 0
    assert_caught(log, mailed, "keeper", secrets, [])


def test_free_tags_change_nothing(tmp_path: Path) -> None:
    """Names and descriptions may be filled in at any time: no seal, no die depends on them."""
    log = tmp_path / "g.log"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    run("join", log)
    allied, keeper = (tmp_path / f"g.{p}.secret" for p in ("allied", "keeper"))
    before = run("play", log, "--secret", allied, "--dry-run").out
    insert_after_header(log, '[Event "Club night"]')
    insert_after_header(log, '[Allied "Alice"]')
    after = run("play", log, "--secret", allied, "--dry-run").out
    assert re.findall(r"\{d6: [0-9 ]+\}.*", after) == re.findall(r"\{d6: [0-9 ]+\}.*", before)
    assert run("play", log, "--secret", allied).code == 0
    assert run("play", log, "attack Eindhoven", "--secret", allied).code == 0
    assert run("play", log, "--secret", keeper).code == 0
    assert run("verify", log, "--secret", allied, "--secret", keeper).code == 0


def test_the_opening_roll_cannot_be_ground(tmp_path: Path) -> None:
    """The first committer rolls the opening airdrop itself.  Varying a free tag does not
    change it; varying a tag that counts changes it, but then the keeper's ordinary play
    refuses the log (the keeper's seal covers every tag that counts)."""
    log = tmp_path / "g.log"
    run("new", "battle-card", "--commit", "--side", "allied", "-o", log)
    run("join", log)
    allied, keeper = (tmp_path / f"g.{p}.secret" for p in ("allied", "keeper"))
    honest = log.read_text()
    previews = set()
    for n in range(4):
        log.write_text(honest.replace("[Game", f'[Event "try {n}"]\n[Game', 1))
        preview = run("play", log, "--secret", allied, "--dry-run").out
        previews.add(re.findall(r"\{d6: [0-9 ]+\}.*", preview)[0])
    assert len(previews) == 1  # free tags: one and the same airdrop
    rolls = set()
    for n in range(4):
        log.write_text(honest.replace("[Game", f'[Foo "{n}"]\n[Game', 1))
        reseal(log, allied)
        preview = run("play", log, "--secret", allied, "--dry-run")
        assert preview.code == 0
        rolls.add(re.findall(r"\{d6: [0-9 ]+\}", preview.out)[0])
    assert run("play", log, "--secret", allied).code == 0
    assert run("play", log, "attack Eindhoven", "--secret", allied).code == 0
    ran = run("play", log, "--secret", keeper)
    assert ran.code == 1 and CHANGED in " ".join(ran.err.split())
