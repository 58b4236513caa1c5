"""The protocol's pieces directly: commitments, the encoding, secret files, line bodies, the
seal chain, the dice derivation and the rule of who rolls what (docs/pbem.md)."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

import pytest

from referee.core.dice import DiceStream
from referee.core.parsing import parse_log
from referee.pbem.chain import (
    canonical_body,
    dice_seed,
    genesis,
    make_seal,
    plan_of,
    seal_of,
    written_body,
)
from referee.pbem.errors import SecretFileError
from referee.pbem.keys import (
    PREFIX,
    Secret,
    commitment,
    frame,
    new_secret,
    read_secret,
    same,
    write_secret,
)
from referee.pbem.mode import DiceMode, Mode, commit_tag, mode_of, parties_of
from referee.pbem.table import open_text

SECRET = "a" * 64


def _reference_frame(*fields: str) -> bytes:
    """An independent reading of the encoding in docs/pbem.md."""
    out = b"market-garden-referee/pbem/v1\x00"
    for item in fields:
        data = item.encode()
        out += len(data).to_bytes(4, "big") + data
    return out


def test_commitment_follows_the_documented_encoding() -> None:
    assert PREFIX == b"market-garden-referee/pbem/v1\x00"
    expected = hashlib.sha256(_reference_frame("commit", "allied", SECRET)).hexdigest()
    assert commitment("allied", SECRET) == expected
    # The side is inside the commitment: one secret cannot stand for another side.
    assert commitment("keeper", SECRET) != expected


def test_frame_keeps_fields_apart() -> None:
    assert frame("x", "ab", "c") != frame("x", "a", "bc")
    assert frame("seal", "a") != frame("dice", "a")
    assert frame("x", b"\x00\x01") == PREFIX + b"\x00\x00\x00\x01x\x00\x00\x00\x02\x00\x01"


def test_constant_time_compare() -> None:
    assert same("ab", "ab") and not same("ab", "ac") and not same("ab", "abc")


def test_secret_files(tmp_path: Path) -> None:
    secret = new_secret("allied")
    assert len(secret.value) == 64 and int(secret.value, 16) >= 0
    assert secret.value not in repr(secret)
    path = tmp_path / "a.secret"
    write_secret(path, secret, "battle-card", "g.log")
    assert read_secret(path) == Secret("allied", secret.value, str(path))
    with pytest.raises(FileExistsError):
        write_secret(path, secret, "battle-card", "g.log")
    path.write_text(f"mgr-secret v9 allied {secret.value}\n")
    with pytest.raises(SecretFileError, match="protocol v9"):
        read_secret(path)
    path.write_text(f"mgr-secret v1 allied {secret.value[:-1]}\n")
    with pytest.raises(SecretFileError, match="is not a secret file"):
        read_secret(path)
    path.write_text("x" * 5000)
    with pytest.raises(SecretFileError, match="too large"):
        read_secret(path)


def test_written_body_ignores_dice_comments_and_spacing() -> None:
    seal = "[seal 0123456789abcdef]"
    pending = f"allied: attack Grave; defend Arnhem  # awaiting Keeper's dice {seal}"
    rolled = f"allied:attack Grave {{d6: 4}};defend   Arnhem {{d6: 2}}  # results {seal}"
    assert written_body(pending) == written_body(rolled) == "allied: attack Grave; defend Arnhem"
    assert written_body("allied: attack grave") != written_body("allied: attack Grave")
    assert seal_of(pending) == "0123456789abcdef"
    assert seal_of("attack Grave  # [seal 0123]") is None


def test_seal_and_dice_derivation() -> None:
    link = b"\x01" * 32
    seal = make_seal(SECRET, link, "allied: attack Grave")
    expected = hmac.new(SECRET.encode(), _reference_frame_bytes("seal", link,
                                                                "allied: attack Grave"),
                        hashlib.sha256).digest()[:8].hex()
    assert seal == expected and len(seal) == 16
    seed = dice_seed("b" * 64, link, "allied: attack Grave", seal)
    # Every input changes the dice key: the roller's secret, the history, the move, the seal.
    assert len({seed, dice_seed("c" * 64, link, "allied: attack Grave", seal),
                dice_seed("b" * 64, b"\x02" * 32, "allied: attack Grave", seal),
                dice_seed("b" * 64, link, "allied: defend Grave", seal),
                dice_seed("b" * 64, link, "allied: attack Grave", "0" * 16)}) == 5
    # The line's dice are the v1 stream of that key, from draw 0.
    faces = [DiceStream(seed).face(i, 6) for i in range(3)]
    assert all(1 <= f <= 6 for f in faces)


def _reference_frame_bytes(purpose: str, link: bytes, body: str) -> bytes:
    out = b"market-garden-referee/pbem/v1\x00"
    for data in (purpose.encode(), link, body.encode()):
        out += len(data).to_bytes(4, "big") + data
    return out


def _two_secret(*lines: str, first: str = "allied") -> str:
    tags = [f'[{commit_tag(p)} "{commitment(p, SECRET)}"]'
            for p in ((first, "keeper") if first == "allied" else (first, "allied"))]
    return "\n".join(['[Game "battle-card"]', *tags, *lines]) + "\n"


def test_who_writes_and_who_rolls() -> None:
    table = open_text(_two_secret("airdrop", "allied: attack Eindhoven", "allied: pass",
                                  "landing"), "t.log")
    assert table.mode == Mode(DiceMode.TWO_SECRET, ("allied", "keeper"),
                              {p: commitment(p, SECRET) for p in ("allied", "keeper")},
                              {"allied": 2, "keeper": 3})
    plan = plan_of(table.log, table.mode)
    rows = [(p.writer, p.roller, p.chance, p.body) for p in plan.lines.values()]
    assert rows == [
        ("allied", "allied", True, "airdrop"),           # before any move: first committer
        ("allied", "keeper", False, "allied: attack Eindhoven"),
        ("allied", "keeper", False, "allied: pass"),
        ("keeper", "keeper", True, "landing"),           # after Allied's move: the next party
    ]
    # The keeper committing first rolls the opening step instead.
    keeper_first = open_text(_two_secret("airdrop", first="keeper"), "t.log")
    assert plan_of(keeper_first.log, keeper_first.mode).lines[4].roller == "keeper"


def test_chance_lines_use_their_canonical_text() -> None:
    table = open_text(_two_secret("referee:   LANDING"), "t.log")
    line = plan_of(table.log, table.mode).lines[4]
    assert line.body == "landing" == canonical_body(i.command for i in table.log.actions[0].items)


def test_two_secret_lines_must_name_their_side() -> None:
    table = open_text(_two_secret("airdrop", "attack Eindhoven"), "t.log")
    problem = plan_of(table.log, table.mode).lines[5].problem
    assert problem is not None and "every move names its side" in problem


def test_genesis_binds_the_header() -> None:
    base = parse_log(_two_secret(), "t.log")
    from referee.games import engine_for

    engine = engine_for("battle-card")
    mode = mode_of(base, engine, _two_secret())
    with_option = parse_log(_two_secret().replace(
        "\n", '\n[Option "landing-all-units"]\n', 1), "t.log")
    assert genesis(base, mode) != genesis(with_option, mode)
    other = Mode(mode.kind, mode.parties, {**mode.commitments, "keeper": "f" * 64})
    assert genesis(base, mode) != genesis(base, other)


def test_genesis_binds_what_fixes_the_game_but_not_the_names() -> None:
    from referee.games import engine_for

    engine = engine_for("battle-card")

    def digest(text: str) -> bytes:
        log = parse_log(text, "t.log")
        assert not log.problems, log.problems
        return genesis(log, mode_of(log, engine, text))

    base = _two_secret()
    named = base.replace("\n", '\n[Event "Club ladder"]\n[Allied "Alice"]\n', 1)
    assert digest(named) == digest(base)
    drawn = base.replace("\n", '\n[Draw "12"]\n', 1)
    assert digest(drawn) != digest(base)
    positioned = base + "setup: turn 3; step movement; box clear; corps Grave\n"
    assert digest(positioned) != digest(base)
    assert digest(positioned + "allied: pass\n") == digest(positioned)


def test_parties() -> None:
    from referee.games import engine_for

    assert parties_of(engine_for("battle-card")) == ("allied", "keeper")
    assert commit_tag("allied") == "AlliedCommit" and commit_tag("moderator") == "SeedCommit"
