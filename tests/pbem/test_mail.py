"""``referee mail``: the body of the next e-mail (issue 29), and whole games played by
e-mail between two folders with it."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from .helpers import run, status
from .mailing import Mailbox, play_out, read_mail, start


def first_or_pass(party: str, choices: Sequence[str]) -> str:
    return "pass" if "pass" in choices else choices[0]


@pytest.mark.usefixtures("fast_disk")
def test_a_whole_battle_card_game_by_mail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    box = start(tmp_path, "battle-card", "allied", "keeper")
    last = play_out(box, first_or_pass, monkeypatch)
    monkeypatch.chdir(tmp_path)
    ran = run("verify", box.log(last), "--secret", box.folder("allied") /
              "game.allied.secret", "--secret", box.folder("keeper") / "game.keeper.secret")
    assert ran.code == 0 and "verdict: proved" in ran.out, ran.out
    assert box.sent > 6 and len(box.mails) > box.plays  # one mail read before every play


SLOW = os.environ.get("REFEREE_SLOW") == "1"


@pytest.mark.usefixtures("fast_disk")
@pytest.mark.parametrize("game", [
    "wwiic", "koenig-eindhoven",
    pytest.param("arnhem44", marks=pytest.mark.skipif(
        not SLOW, reason="a whole Arnhem '44 game by mail takes a minute: REFEREE_SLOW=1")),
])
def test_a_whole_game_by_mail_from_the_start(game: str, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: a complete two-secret game between two folders, every line through ``play``
    as each mail says (the mail's width and its next command checked at every step by
    ``play_out``), proved at the end by ``verify`` with both secrets."""
    box = start(tmp_path, game, "allied", "german")
    last = play_out(box, ending, monkeypatch, max_plays=2000)
    monkeypatch.chdir(tmp_path)
    ran = run("verify", box.log(last), "--secret", box.folder("allied") /
              "game.allied.secret", "--secret", box.folder("german") / "game.german.secret")
    assert ran.code == 0 and "verdict: proved" in ran.out, ran.out
    assert box.sent >= 10 and box.plays >= box.sent // 2


def position_near_the_end(log: str, upto: int) -> str:
    """The position of a bundled complete game after line ``upto`` (``referee position``),
    as a position file: its setup lines (the seed of the bundled game stays out)."""
    ran = run("position", f"bundled:{log}", "--upto", str(upto))
    assert ran.code == 0, ran.err
    return "".join(line + "\n" for line in ran.out.splitlines()
                   if not line.startswith(("[Seed ", "[Draw ")))


def ending(party: str, choices: Sequence[str]) -> str:
    """A quick player: ends or passes when the rules let it, else takes the first choice."""
    for answer in ("end", "pass", "end movement", "end setup"):
        if answer in choices:
            return answer
    return choices[0]


NEAR_THE_END = {
    "koenig-eindhoven": ("koenig-eindhoven/complete-game.log", 365),
    "wwiic": ("wwiic/full-game-draw.log", 428),
    "arnhem44": ("arnhem44/complete-game.log", 577),
}


@pytest.mark.usefixtures("fast_disk")
@pytest.mark.parametrize("game", list(NEAR_THE_END))
def test_the_end_of_a_game_by_mail(game: str, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    log, upto = NEAR_THE_END[game]
    box = start(tmp_path, game, "allied", "german", position_near_the_end(log, upto))
    last = play_out(box, ending, monkeypatch)
    monkeypatch.chdir(tmp_path)
    ran = run("verify", box.log(last), "--secret", box.folder("allied") /
              "game.allied.secret", "--secret", box.folder("german") / "game.german.secret")
    assert ran.code == 0 and "verdict: proved" in ran.out, ran.out
    assert box.plays >= 3 and box.sent >= 3


CHEATS = {
    "battle-card": ("battle-card", "allied", "keeper", None),
    "wwiic": ("wwiic", "allied", "german", NEAR_THE_END["wwiic"]),
    "koenig-eindhoven": ("koenig-eindhoven", "allied", "german",
                         NEAR_THE_END["koenig-eindhoven"]),
    "arnhem44": ("arnhem44", "allied", "german", NEAR_THE_END["arnhem44"]),
}


def _new_dice_line(box: Mailbox) -> int | None:
    """The number of a line of the received log that records d-dice and is not in the copy
    the receiver mailed (the sender rolled it)."""
    folder = box.folder(box.holder)
    if not (folder / "mailed.log").exists():
        return None
    old = set((folder / "mailed.log").read_text().splitlines())
    for number, line in enumerate(box.log(box.holder).read_text().splitlines(), 1):
        if line not in old and re.search(r"\{(d\d+|cup): \w", line):
            return number
    return None


def _mailed_actions(box: Mailbox) -> list[str]:
    """The action lines of the copy the holder mailed last."""
    mailed = box.folder(box.holder) / "mailed.log"
    if box.sent < 2 or not mailed.exists():
        return []
    now = set(box.log(box.holder).read_text().splitlines())
    return [line for line in mailed.read_text().splitlines()
            if line.strip() and not line.startswith(("[", "#", "turn ", "setup"))
            and line in now]


def _first_lines(box: Mailbox, monkeypatch: pytest.MonkeyPatch) -> str:
    body = str(read_mail(box, box.holder, monkeypatch)["body"])
    return "\n".join(body.splitlines()[:8])


@pytest.mark.usefixtures("fast_disk")
@pytest.mark.parametrize("name", list(CHEATS))
def test_a_die_edited_in_a_mailed_copy_is_the_first_thing_the_mail_says(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: "A cheat added to a mailed copy (an edited die ...) is named in the first
    lines of the receiving side's mail, in each game"."""
    game, first, second, near = CHEATS[name]
    position = position_near_the_end(*near) if near else None
    box = start(tmp_path, game, first, second, position)
    play_out(box, ending, monkeypatch,
             until=lambda b: b.sent > 1 and _new_dice_line(b) is not None)
    number = _new_dice_line(box)
    assert number is not None
    log = box.log(box.holder)
    lines = log.read_text().splitlines()
    cup = re.search(r"\{cup: ([^}|]+)", lines[number - 1])
    if cup:  # a drawn chit: another that was in the cup at the draw
        state = status(log)["state"]
        assert isinstance(state, dict)
        chit = next(str(c) for c in state["cup"] if str(c) != cup.group(1).strip())
        lines[number - 1] = lines[number - 1].replace(cup.group(0), "{cup: " + chit, 1)
    else:
        found = re.search(r"\{d(\d+): (\d+)", lines[number - 1])
        assert found
        sides, face = int(found.group(1)), int(found.group(2))
        other = face + 1 if face + 1 <= sides - 1 else face - 1
        lines[number - 1] = lines[number - 1].replace(found.group(0), f"{{d{sides}: {other}",
                                                      1)
    log.write_text("\n".join(lines) + "\n")
    head = _first_lines(box, monkeypatch)
    assert head.startswith("WARNING: "), head
    assert f"line {number}: dice-mismatch" in " ".join(head.split()), head


@pytest.mark.usefixtures("fast_disk")
@pytest.mark.parametrize("name", list(CHEATS))
def test_a_line_removed_from_a_mailed_copy_is_the_first_thing_the_mail_says(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: "... a removed line ..." named first: the receiver's own last line, taken
    out of the copy it gets back, is 'rewritten' against the copy it mailed."""
    game, first, second, near = CHEATS[name]
    position = position_near_the_end(*near) if near else None
    box = start(tmp_path, game, first, second, position)
    play_out(box, ending, monkeypatch, until=lambda b: bool(_mailed_actions(b)))
    log = box.log(box.holder)
    gone = _mailed_actions(box)[-1]
    log.write_text("".join(line + "\n" for line in log.read_text().splitlines()
                           if line != gone))
    head = _first_lines(box, monkeypatch)
    assert head.startswith("WARNING: "), head
    assert "rewritten" in head and "mailed.log" in head, head


CRATE_START = """[Game "arnhem44"]
setup: clear; round 2; phase 3.3; icons 8
setup: place 2 inf Eindhoven; place 2 inf/UK Zon
setup: unseen 7 6; stock 2
"""
"""Round 2, phase 3.3: the German may rig the Son bridge (tests/pbem/test_hidden.py)."""


@pytest.mark.usefixtures("fast_disk")
def test_a_crate_changed_in_a_mailed_copy_is_the_first_thing_the_mail_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 29: "... a changed crate ..." named first: the German's face-down crate (Arnhem
    '44, Explosives in General: "He must conceal the numeric value"), committed when rigged,
    is committed otherwise in the copy the Allied player gets back."""
    rigged: list[bool] = []

    def choose(party: str, choices: Sequence[str]) -> str:
        if party == "german" and not rigged and any(c.startswith("rig Son-bridge")
                                                    for c in choices):
            rigged.append(True)
            return "rig Son-bridge 7"
        for answer in ("reveal 7", "end movement", "end", "pass"):
            if answer in choices:
                return answer
        return choices[0]

    def seen(box: Mailbox) -> bool:
        mailed = box.folder("allied") / "mailed.log"
        return box.holder == "allied" and mailed.exists() and " hidden " in mailed.read_text()

    box = start(tmp_path, "arnhem44", "german", "allied", CRATE_START)
    play_out(box, choose, monkeypatch, until=seen)
    log = box.log("allied")
    text = log.read_text()
    crate = re.search(r"rig Son-bridge hidden ([0-9a-f]{64})", text)
    assert crate, text
    changed = crate.group(1)[::-1]
    log.write_text(text.replace(crate.group(1), changed))
    head = _first_lines(box, monkeypatch)
    assert head.startswith("WARNING: "), head
    assert "rewritten" in head and "mailed.log" in head, head
