"""Committed hidden values (docs/pbem.md, "Hidden values"), through Arnhem '44's crates.

The German commits to a crate's value when he rigs it (``referee play "rig Son-bridge 7"``
writes a commitment, never the 7); the Allied defusing roll then needs it, and the German
shows it (``reveal 7``); ``verify`` with the German's secret checks the value shown against
the commitment.  A changed value or a changed commitment is a named cheat.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from referee.pbem import keys

from .helpers import run, status

START = """[Game "arnhem44"]
setup: clear; round 2; phase 3.3; icons 8
setup: place 2 inf Eindhoven; place 2 inf/UK Zon
setup: unseen 7 6; stock 2
"""
FIXED = {"german": "5e" * 32, "allied": "a1" * 32}
"""Fixed secrets, so the secrets' dice (and the defusing roll that needs the value) are the
same on every run; the values are secret to nobody here, as a test's must be."""


def choose(party: str, choices: list[str]) -> str:
    wanted = ["reveal 7", "end movement"]
    if party == "allied":
        wanted.append("defuse Son-bridge crate 1")
    for answer in wanted:
        if answer in choices:
            return answer
    return "pass" if "pass" in choices else choices[0]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hidden")
    (folder / "start.pos").write_text(START)
    log = folder / "g.log"
    made = iter([FIXED["german"], FIXED["allied"]])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(keys.system_random, "token_hex", lambda n: next(made))
        patch.setattr(os, "fsync", lambda fd: None)
        assert run("new", "arnhem44", "--commit", "--side", "german", "--position",
                   folder / "start.pos", "-o", log).code == 0
        assert run("join", log).code == 0
        secret = {p: folder / f"g.{p}.secret" for p in FIXED}
        ran = run("play", log, "rig Son-bridge 7", "--secret", secret["german"])
        assert ran.code == 0, ran.err
        for _ in range(40):
            step = status(log)["next"]
            assert isinstance(step, dict)
            if "reveal" in " ".join(step["choices"] or ()) and "reveal" in log.read_text():
                break
            party = str(step["party"])
            move = [] if step["kind"] in ("roll", "chance") else [choose(party, step["choices"])]
            ran = run("play", log, *move, "--secret", secret[party])
            assert ran.code == 0, ran.out + ran.err
            if re.search(r"^german: reveal", log.read_text(), re.M):
                break
    return log


def secrets(log: Path) -> list[str]:
    return [arg for p in FIXED for arg in ("--secret", str(log.parent / f"g.{p}.secret"))]


def verify(log: Path, path: Path | None = None) -> dict[str, object]:
    ran = run("verify", path or log, *secrets(log), "--json")
    data: dict[str, object] = json.loads(ran.out)
    assert ran.code == data["exit_code"]
    return data


def test_the_log_holds_a_commitment_and_never_the_value(game: Path) -> None:
    """Protocol v2: the commitment is a whole SHA-256 (64 hex digits), the reveal publishes
    its nonce."""
    text = game.read_text()
    rig = next(line for line in text.splitlines() if line.startswith("german: rig"))
    code, comment = rig.split("#", 1)
    assert re.fullmatch(r"german: rig Son-bridge hidden [0-9a-f]{64}", code.strip())
    assert not re.search(r"\b7\b", comment.split("[seal")[0])
    assert re.search(r"^german: reveal 7", text, re.M)


def test_verify_opens_the_commitment_and_checks_the_reveal(game: Path) -> None:
    data = verify(game)
    assert data["findings"] == []
    assert any("crate 1 (line" in p and "= 7" in str(p) for p in data["proved"])  # type: ignore[union-attr]


def test_without_the_secret_the_shown_value_is_proved_all_the_same(game: Path) -> None:
    """Protocol v2: the reveal publishes the commitment's nonce, so anyone checks the value
    shown against the commitment, with no secret."""
    ran = run("verify", game, "--json")
    data = json.loads(ran.out)
    assert data["findings"] == []
    assert any("opens the commitment German wrote (checked with no secret): crate 1" in p
               for p in data["proved"])
    assert not any("hidden value" in u for u in data["unchecked"])


def test_tampered_reveal_is_a_changed_hidden_choice(game: Path, tmp_path: Path) -> None:
    text = game.read_text()
    cheat = re.sub(r"^german: reveal 7", "german: reveal 6", text, flags=re.M)
    path = tmp_path / "g.log"
    path.write_text(cheat)
    (tmp_path / "start.pos").write_text(START)
    kinds = {(f["kind"]) for f in verify(game, path)["findings"]}  # type: ignore[index]
    assert "hidden-changed" in kinds


def test_tampered_commitment_is_a_changed_hidden_choice(game: Path, tmp_path: Path) -> None:
    text = game.read_text()
    cheat = re.sub(r"hidden ([0-9a-f])", lambda m: "hidden " + ("0" if m.group(1) != "0"
                                                                 else "1"), text, count=1)
    path = tmp_path / "g.log"
    path.write_text(cheat)
    (tmp_path / "start.pos").write_text(START)
    found = verify(game, path)["findings"]
    kinds = {f["kind"] for f in found}  # type: ignore[index]
    assert "hidden-changed" in kinds
    assert "seal-mismatch" in kinds


def test_play_refuses_a_reveal_other_than_the_commitment(game: Path, tmp_path: Path) -> None:
    text = game.read_text()
    before = text[: text.index("german: reveal")]
    path = tmp_path / "g.log"
    path.write_text(before)
    (tmp_path / "start.pos").write_text(START)
    ran = run("play", path, "reveal 6", "--secret", str(game.parent / "g.german.secret"))
    assert ran.code == 1
    assert "committed it to another value" in ran.err
